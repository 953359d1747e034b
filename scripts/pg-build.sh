# Building PostgreSQL servers from source, cached outside the repository:
# shared by scripts/matrix.sh (one server per major version) and
# scripts/check-cassert-valgrind.sh (an assert-enabled valgrind-ready 15).
# Source it after lib.sh; it defines functions and sets nothing in motion.
#
# Environment: PG_CACHE (default /var/cache/simhash-pg): servers go to
# $PG_CACHE/<name>, sources to $PG_CACHE/src; JOBS, make -j for the server
# builds (default 2).

PG_CACHE=${PG_CACHE:-/var/cache/simhash-pg}
JOBS=${JOBS:-2}

# The Debian suites whose source archive has postgresql-<major>.
suites_of() {
    case "$1" in
        13) echo bullseye ;;
        15) echo bookworm bookworm-updates ;;
        17) echo trixie trixie-updates ;;
        18) echo sid ;;
        *) return 1 ;;
    esac
}

# Adds the deb-src lines for the suites of the given majors, once (those not
# in Debian, 14 and 16, have none: their source must be in $PG_CACHE/src).
add_sources() {
    local list=/etc/apt/sources.list.d/simhash-src.sources suites=() s v
    for v in "$@"; do
        for s in $(suites_of "$v" || true) ; do
            grep -qs "^Suites:.* $s\( \|\$\)" "$list" || suites+=("$s")
        done
    done
    [ ${#suites[@]} -gt 0 ] || return 0
    say "adding deb-src lines for ${suites[*]} ($list)"
    local old
    old=$(sed -n 's/^Suites: *//p' "$list" 2>/dev/null || true)
    cat > "$list" <<EOF
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: $(echo $old "${suites[@]}")
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    apt-get update -qq
}

# Prints the directory of PostgreSQL <major>'s unpacked upstream source in
# $PG_CACHE/src (postgresql-<major>.<minor>), downloading Debian's source
# package first if needed.  Tries each version apt knows, newest first: a
# mirror may lack the newest tarball.  For 14 and 16, which Debian does not
# have, put a source tree there yourself (doc/testing.md says how).
server_source() {
    local v=$1 src tarball ver
    mkdir -p "$PG_CACHE/src"
    src=$(ls -d "$PG_CACHE/src/postgresql-$v".*/ 2>/dev/null | head -n 1 || true)
    if [ -z "$src" ]; then
        tarball=$(ls "$PG_CACHE/src/postgresql-${v}_"*.orig.tar.* 2>/dev/null | head -n 1 || true)
        if [ -z "$tarball" ]; then
            suites_of "$v" >/dev/null \
                || { echo "PostgreSQL $v is not in Debian: put its source tree in $PG_CACHE/src/postgresql-$v.<minor>" >&2; return 1; }
            for ver in $(apt-cache showsrc "postgresql-$v" | sed -n 's/^Version: //p' | sort -rV -u); do
                (cd "$PG_CACHE/src" && apt-get source --download-only --tar-only -qq \
                    "postgresql-$v=$ver" >/dev/null 2>&1) && break
                echo "    postgresql-$v $ver: not downloadable, trying an older one" >&2
            done
            tarball=$(ls "$PG_CACHE/src/postgresql-${v}_"*.orig.tar.* 2>/dev/null | head -n 1 || true)
            [ -n "$tarball" ] || { echo "no source package of postgresql-$v could be downloaded" >&2; return 1; }
        fi
        tar -C "$PG_CACHE/src" -xf "$tarball"
        src=$(ls -d "$PG_CACHE/src/postgresql-$v".*/ | head -n 1)
    fi
    echo "${src%/}"
}

# build_server NAME MAJOR [CONFIGURE-ARGUMENT...]: builds PostgreSQL MAJOR
# into $PG_CACHE/NAME unless it is there, with the given extra configure
# arguments (each build gets its own copy of the source tree).  Installs what
# the suite needs besides the server: btree_gist, amcheck, the isolation
# tester.
build_server() {
    local name=$1 v=$2 prefix=$PG_CACHE/$1 src build
    shift 2
    [ -f "$prefix/.built" ] && return 0
    say "building PostgreSQL $v into $prefix"
    src=$(server_source "$v") || return 1
    build=$src
    if [ "$name" != "$v" ]; then     # a variant: its own copy of the tree
        build=$PG_CACHE/src/build-$name
        [ -d "$build" ] || cp -a "$src" "$build"
    fi
    (
        cd "$build"
        [ -f config.status ] || nice -n 19 ./configure --prefix="$prefix" --enable-tap-tests \
            --with-icu --with-lz4 --without-readline "$@" >configure.log 2>&1
        nice -n 19 make -j"$JOBS" -s >build.log 2>&1
        make -s install >install.log 2>&1
        for c in contrib/btree_gist contrib/amcheck; do
            nice -n 19 make -C "$c" -s install >>install.log 2>&1
        done
        nice -n 19 make -C src/test/isolation -s >>install.log 2>&1
        local iso
        iso=$(dirname "$("$prefix/bin/pg_config" --pgxs)")/../test/isolation
        mkdir -p "$iso"
        install -m 755 src/test/isolation/pg_isolation_regress src/test/isolation/isolationtester "$iso/"
    ) || { echo "see the logs in $build"; return 1; }
    "$prefix/bin/pg_config" --version > "$prefix/.built"
}

# The packages a server build needs.
install_build_deps() {
    install_packages bison flex libicu-dev liblz4-dev zlib1g-dev pkg-config make gcc \
                     libipc-run-perl "$@"
}

# run_suite PG_CONFIG: runs the whole suite (scripts/test.sh) against that
# server build; prints the server's version and the suite's closing line
# ("N passed, M failed"), and where the log is kept when the suite fails.
run_suite() {
    local log version
    version=$("$1" --version)
    log=$(mktemp "${TMPDIR:-/tmp}/simhash-suite.XXXXXX")
    if PG_CONFIG="$1" bash "$REPO_ROOT/scripts/test.sh" >"$log" 2>&1; then
        echo "$version: $(tail -n 1 "$log")"
        rm -f "$log"
    else
        echo "$version: $(grep -E '^[0-9]+ passed' "$log" | tail -n 1 || echo 'did not finish'), log in $log"
        return 1
    fi
}
