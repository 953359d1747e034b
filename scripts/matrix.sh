#!/usr/bin/env bash
# Runs the whole suite (scripts/test.sh: layout check, regression, isolation,
# TAP) against each PostgreSQL major version, each built from Debian's source
# package.  The servers are cached outside the repository, in $PG_CACHE/<major>
# (sources in $PG_CACHE/src): the first run builds them (a few minutes each),
# later runs reuse them.  Usage: sudo scripts/matrix.sh [MAJOR...]
# (default: 13 15 17 18, the versions Debian's source archive has).
#
# Environment: PG_CACHE (default /var/cache/simhash-pg); JOBS, make -j for the
# server builds (default 2).  Prints one line per version and exits non-zero
# when any version fails to build or to pass.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
require_root "$@"

PG_CACHE=${PG_CACHE:-/var/cache/simhash-pg}
JOBS=${JOBS:-2}
VERSIONS=("$@")
[ ${#VERSIONS[@]} -gt 0 ] || VERSIONS=(13 15 17 18)

# The Debian suite whose source archive has postgresql-<major>.
suite_of() {
    case "$1" in
        13) echo bullseye ;;
        15) echo bookworm ;;
        17) echo trixie ;;
        18) echo sid ;;
        *) return 1 ;;
    esac
}

# Adds the deb-src lines of the suites needed, once.
add_sources() {
    local list=/etc/apt/sources.list.d/simhash-src.sources suites=() s
    for v in "${VERSIONS[@]}"; do
        s=$(suite_of "$v") || die "PostgreSQL $v is not in Debian's source archive"
        grep -qs "^Suites:.*\\b$s\\b" "$list" || suites+=("$s")
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

# Builds and installs PostgreSQL <major> into $PG_CACHE/<major> unless there.
build_server() {
    local v=$1 prefix=$PG_CACHE/$1 src
    [ -f "$prefix/.built" ] && return 0
    say "building PostgreSQL $v into $prefix"
    mkdir -p "$PG_CACHE/src"
    (cd "$PG_CACHE/src" && apt-get source --download-only --tar-only -qq "postgresql-$v" >/dev/null)
    src=$(ls -d "$PG_CACHE/src/postgresql-$v".*/ 2>/dev/null | head -n 1 || true)
    if [ -z "$src" ]; then
        tar -C "$PG_CACHE/src" -xf "$(ls "$PG_CACHE/src/postgresql-${v}_"*.orig.tar.* | head -n 1)"
        src=$(ls -d "$PG_CACHE/src/postgresql-$v".*/ | head -n 1)
    fi
    (
        cd "$src"
        [ -f config.status ] || nice -n 19 ./configure --prefix="$prefix" --enable-tap-tests \
            --with-icu --with-lz4 --without-readline >configure.log 2>&1
        nice -n 19 make -j"$JOBS" -s >build.log 2>&1
        make -s install >install.log 2>&1
        # what the suite uses besides the server: btree_gist (one regression
        # test), amcheck (TAP), the isolation tester (13 does not install it)
        for c in contrib/btree_gist contrib/amcheck; do
            nice -n 19 make -C "$c" -s install >>install.log 2>&1
        done
        nice -n 19 make -C src/test/isolation -s >>install.log 2>&1
        local iso
        iso=$(dirname "$("$prefix/bin/pg_config" --pgxs)")/../test/isolation
        mkdir -p "$iso"
        install -m 755 src/test/isolation/pg_isolation_regress src/test/isolation/isolationtester "$iso/"
    ) || { echo "see the logs in $src"; return 1; }
    "$prefix/bin/pg_config" --version > "$prefix/.built"
}

install_packages bison flex libicu-dev liblz4-dev zlib1g-dev pkg-config make gcc libipc-run-perl
add_sources
declare -A result
status=0
for v in "${VERSIONS[@]}"; do
    if ! build_server "$v"; then
        result[$v]="server build failed"
        status=1
        continue
    fi
    say "PostgreSQL $v: scripts/test.sh"
    log=$(mktemp "${TMPDIR:-/tmp}/simhash-matrix-$v.XXXXXX")
    if PG_CONFIG="$PG_CACHE/$v/bin/pg_config" bash "$REPO_ROOT/scripts/test.sh" >"$log" 2>&1; then
        result[$v]="$(tail -n 1 "$log")"
        rm -f "$log"
    else
        result[$v]="$(grep -E '^[0-9]+ passed' "$log" | tail -n 1 || echo 'did not finish'), log in $log"
        status=1
    fi
done
say "matrix"
for v in "${VERSIONS[@]}"; do
    printf '  PostgreSQL %-3s %s\n' "$v" "${result[$v]}"
done
exit $status
