# Shared by the scripts in this folder: set-up on a fresh Debian 12 machine,
# a private build, and a throwaway PostgreSQL cluster.  Source it; it defines
# functions and sets nothing else in motion.
#
# Environment:
#   PG_MAJOR   PostgreSQL major version to use (default 15, what Debian 12 ships)
#   PG_CONFIG  pg_config of another server build to use instead (for example an
#              assert-enabled one built from source); its packages are then not
#              installed
#   KEEP_WORK  set to 1 to keep the temporary directory for inspection
#   TMPDIR     where the temporary directory goes (default /tmp)
#   PG_CTL_OPTS  extra pg_ctl options for start_cluster (for example -p, a
#              postgres wrapper that runs the server under valgrind)

PG_MAJOR=${PG_MAJOR:-15}
CUSTOM_PG=${PG_CONFIG:+1}
PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/$PG_MAJOR/bin/pg_config}
export PG_CONFIG
if [ -n "$CUSTOM_PG" ]; then   # another server build: its own major version
    PG_MAJOR=$("$PG_CONFIG" --version | sed -n 's/^PostgreSQL \([0-9]*\).*/\1/p')
fi
REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Unprivileged account that owns the throwaway cluster (PostgreSQL refuses root).
RUN_USER=postgres

say() { printf '\n==> %s\n' "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Re-executes the calling script as root through sudo when needed.
require_root() {
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null || die "run as root, or install sudo"
        exec sudo -E bash "$0" "$@"
    fi
}

# Installs those of the named Debian packages that are missing.
install_packages() {
    local missing=()
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' \
            || missing+=("$p")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        say "installing ${missing[*]}"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    fi
}

# What building the Debian package needs besides the extension's own build
# dependencies (scripts/build-deb.sh, and the package's test through
# install_deps): dpkg-buildpackage refuses to build without build-essential.
DEB_BUILD_PACKAGES="build-essential debhelper dpkg-dev postgresql-server-dev-all"

# Installs the build and test dependencies that are missing.
install_deps() {
    local server="postgresql-$PG_MAJOR postgresql-server-dev-$PG_MAJOR"
    [ -n "$CUSTOM_PG" ] && server="postgresql-common"
    # DEB_BUILD_PACKAGES: the Debian package's test;
    # libsimde-dev: the AVX-512 tokenizer kernel's test on CPUs without AVX-512;
    # python3-* and nodejs: the client packages' tests
    install_packages $server libxxhash-dev libicu-dev libxml2-dev libipc-run-perl make gcc pkg-config \
                     perl ca-certificates $DEB_BUILD_PACKAGES libsimde-dev \
                     python3 python3-psycopg python3-psycopg2 python3-sqlalchemy python3-django nodejs
    # (npm comes with some nodejs builds, NodeSource's for one; Debian's is a package)
    command -v npm >/dev/null || install_packages npm
    id "$RUN_USER" >/dev/null 2>&1 || die "user $RUN_USER is missing (it comes with postgresql-common)"
    PG_BIN=$("$PG_CONFIG" --bindir)
}

# Runs a command as the unprivileged user, keeping PATH and the PG* settings.
as_user() {
    runuser -u "$RUN_USER" -- env PATH="$PG_BIN:$PATH" PG_CONFIG="$PG_CONFIG" \
        ${PGHOST:+PGHOST=$PGHOST} ${PGPORT:+PGPORT=$PGPORT} ${PGUSER:+PGUSER=$PGUSER} \
        ${PGDATABASE:+PGDATABASE=$PGDATABASE} "$@"
}

# Creates $WORK, a private temporary directory removed on exit (with any
# cluster in it), and copies the source tree to $WORK/src.
make_workdir() {
    WORK=$(mktemp -d "${TMPDIR:-/tmp}/simhash.XXXXXX")
    chmod 755 "$WORK"
    trap cleanup EXIT
    mkdir "$WORK/src"
    copy_source "$WORK/src"
    chown -R "$RUN_USER" "$WORK"
    cd "$WORK"    # the unprivileged user may not enter the caller's directory
}

# Copies the source tree, without git's data and build outputs, into the
# existing directory $1.
copy_source() {
    tar -C "$REPO_ROOT" --exclude=./.git --exclude='*.o' --exclude='*.so' --exclude='*.bc' \
        --exclude=./results --exclude=./tmp_check --exclude=node_modules --exclude=__pycache__ \
        --exclude=./dist --exclude='./simhash--*.sql' \
        -cf - . | tar -C "$1" -xf -
}

cleanup() {
    local rc=$?
    if [ -n "${PGDATA:-}" ] && [ -f "$PGDATA/postmaster.pid" ]; then
        as_user "$PG_BIN/pg_ctl" -D "$PGDATA" -m immediate stop >/dev/null 2>&1 || true
    fi
    if [ "${KEEP_WORK:-0}" = 1 ]; then
        echo "kept $WORK"
    else
        rm -rf "$WORK"
    fi
    exit $rc
}

# Builds the extension in $WORK/src as the unprivileged user and installs it
# into the server's directories.  Extra make arguments are passed through.
build_install() {
    say "building simhash"
    as_user make -C "$WORK/src" -s "$@" >/dev/null || die "build failed"
    make -C "$WORK/src" -s install "$@" >/dev/null || die "install failed"
}

# Prints a TCP port on 127.0.0.1 that nothing listens on.
free_port() {
    local port
    for _ in $(seq 1 100); do
        port=$(( (RANDOM % 20000) + 30000 ))
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
            echo "$port"
            return 0
        fi
    done
    die "no free port found"
}

# Starts a throwaway cluster in $WORK/data on a free port, listening on
# 127.0.0.1 and a socket in $WORK; exports PGHOST, PGPORT, PGUSER, PGDATA.
start_cluster() {
    export PGDATA=$WORK/data PGHOST=$WORK PGUSER=$RUN_USER PGDATABASE=postgres
    say "starting a throwaway PostgreSQL $PG_MAJOR cluster"
    as_user "$PG_BIN/initdb" -D "$PGDATA" -A trust -E UTF8 --locale=C.UTF-8 >/dev/null \
        || die "initdb failed"
    for _ in 1 2 3; do
        PGPORT=$(free_port)
        export PGPORT
        if as_user "$PG_BIN/pg_ctl" -D "$PGDATA" -w ${PG_CTL_OPTS:-} -l "$WORK/server.log" \
               -o "-p $PGPORT -k $WORK -c listen_addresses=127.0.0.1 $*" start >/dev/null; then
            echo "    port $PGPORT, data in $PGDATA"
            return 0
        fi
    done
    cat "$WORK/server.log" >&2
    die "could not start the cluster"
}

# Starts the index benchmarks' cluster: the data in memory (shared_buffers
# $1), no parallel workers, JIT or checkpoints in the middle of a run, and
# commits without waiting for the WAL flush.
start_bench_cluster() {
    start_cluster "-c shared_buffers=$1 -c maintenance_work_mem=2GB -c work_mem=64MB \
        -c max_parallel_maintenance_workers=0 -c max_parallel_workers_per_gather=0 \
        -c jit=off -c synchronous_commit=off -c checkpoint_timeout=30min -c max_wal_size=20GB"
}

# psql on the throwaway cluster as its owner, stopping at the first error.
psql_() { as_user "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 "$@"; }

# The Debian packages whose text the speed benchmarks read (English and
# Chinese documentation), and python3 for the scripts that cut it up.
install_text_packages() {
    install_packages debian-handbook debian-edu-doc-zh-cn debian-reference-en debian-reference-zh-cn \
                     debian-reference-zh-tw manpages-zh python3 "$@"
}

# The start of the A/B scripts (bench-ab.sh, bench-dual.sh): checks that
# commit $1 exists, installs what they need, builds and installs the
# working tree (in $WORK/src) and extracts commit $1 into $WORK/base.
ab_prepare() {
    git -C "$REPO_ROOT" rev-parse --verify -q "$1^{commit}" >/dev/null || die "no commit $1"
    install_deps
    install_text_packages
    make_workdir
    build_install
    mkdir "$WORK/base"
    git -C "$REPO_ROOT" archive "$1" | tar -C "$WORK/base" -xf -
    chown -R "$RUN_USER" "$WORK/base"
}

# Creates the extension and the tables pages_en and pages_zh: the
# near-duplicate benchmark's pages (bench/make_quality_sets.py), English and
# Chinese, in the running cluster.
load_benchmark_pages() {
    say "loading the near-duplicate benchmark's pages"
    as_user mkdir "$WORK/q"
    as_user python3 "$REPO_ROOT/bench/make_quality_sets.py" "$WORK/q" 200 0 >/dev/null
    psql_ <<SQL
CREATE EXTENSION simhash;
CREATE TABLE docs (id int, split text, lang text, name text, variant text, k int, body text);
\copy docs FROM '$WORK/q/docs.tsv'
CREATE TABLE pages_en AS SELECT body FROM docs WHERE lang = 'en';
CREATE TABLE pages_zh AS SELECT body FROM docs WHERE lang <> 'en';
SQL
    psql_ -c 'VACUUM ANALYZE pages_en' -c 'VACUUM ANALYZE pages_zh'
}
