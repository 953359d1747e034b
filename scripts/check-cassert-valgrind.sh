#!/usr/bin/env bash
# Runs simhash on an assert-enabled PostgreSQL 15 built from Debian's source
# package (--enable-cassert, and USE_VALGRIND so that valgrind learns about
# PostgreSQL's memory contexts), cached outside the repository in
# $PG_CACHE/15-cassert (scripts/pg-build.sh; the first run builds it, a few
# minutes):
#   cassert   the whole suite (scripts/test.sh) against that server;
#   valgrind  the regression tests (pg_regress) against that server running
#             under valgrind --trace-children=yes with PostgreSQL's
#             src/tools/valgrind.supp: every memcheck error and every
#             definitely lost block is listed, and those whose stack passes
#             through simhash.so fail the run.  Slow: 30 minutes or more.
# Usage: sudo scripts/check-cassert-valgrind.sh [cassert] [valgrind]
# (default both).  Exits non-zero when a test fails or valgrind reports an
# error in simhash's code.  VALGRIND_LOGS=DIR keeps valgrind's logs there.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pg-build.sh"
require_root "$@"

PARTS=("$@")
[ ${#PARTS[@]} -gt 0 ] || PARTS=(cassert valgrind)

install_build_deps valgrind
add_sources 15
build_server 15-cassert 15 --enable-cassert --enable-debug \
    CFLAGS="-Og -g -fno-omit-frame-pointer" CPPFLAGS="-DUSE_VALGRIND" \
    || die "could not build the assert-enabled server"
SUPPRESSIONS=$(server_source 15)/src/tools/valgrind.supp
PG_CONFIG=$PG_CACHE/15-cassert/bin/pg_config
CUSTOM_PG=1
export PG_CONFIG

declare -A result
status=0
VALGRIND_RESULT=$(mktemp "${TMPDIR:-/tmp}/simhash-valgrind-result.XXXXXX")

run_cassert() {
    say "cassert: scripts/test.sh against $("$PG_CONFIG" --version) (--enable-cassert)"
    local log
    log=$(mktemp "${TMPDIR:-/tmp}/simhash-cassert.XXXXXX")
    if bash "$REPO_ROOT/scripts/test.sh" >"$log" 2>&1; then
        result[cassert]="$(tail -n 1 "$log")"
        rm -f "$log"
    else
        result[cassert]="$(grep -E '^[0-9]+ passed' "$log" | tail -n 1 || echo 'did not finish'), log in $log"
        status=1
    fi
}

# Prints valgrind's reports (between the error markers) in the logs of
# directory $1; with a second argument, only those whose stack passes through
# simhash.so.
valgrind_reports() {
    awk -v only="${2:-}" '
        /VALGRINDERROR-BEGIN/ { block = ""; inside = 1; next }
        /VALGRINDERROR-END/ {
            inside = 0
            if (only == "" || block ~ /simhash\.so/) printf "---- %s\n%s", FILENAME, block
            next
        }
        inside { block = block $0 "\n" }' "$1"/*.log
}

run_valgrind() (
    # a subshell: its own temporary directory and cluster, removed on exit
    install_deps
    make_workdir
    build_install
    local vg=$WORK/valgrind
    mkdir "$vg"
    chown "$RUN_USER" "$vg"
    cat > "$WORK/postgres-valgrind" <<EOF
#!/bin/sh
exec valgrind --quiet --trace-children=yes --track-origins=yes --num-callers=40 \\
    --error-limit=no --leak-check=full --show-leak-kinds=definite \\
    --errors-for-leak-kinds=definite --suppressions=$SUPPRESSIONS \\
    --error-markers=VALGRINDERROR-BEGIN,VALGRINDERROR-END \\
    --log-file=$vg/%p.log "$PG_BIN/postgres" "\$@"
EOF
    chmod 755 "$WORK/postgres-valgrind"
    PG_CTL_OPTS="-t 1200 -p $WORK/postgres-valgrind" start_cluster "-c jit=off -c max_parallel_workers_per_gather=0"
    say "valgrind: regression tests (pg_regress) against the server under valgrind"
    local regress=ok
    if ! as_user make -C "$WORK/src" -s installcheck-regress 2>&1 | tee "$WORK/regress.out"; then
        regress=failed
        [ -f "$WORK/src/regression.diffs" ] && cat "$WORK/src/regression.diffs"
    fi
    as_user "$PG_BIN/pg_ctl" -D "$PGDATA" -t 1200 -m fast -w stop >/dev/null
    local all ours
    all=$(valgrind_reports "$vg" | grep -c '^---- ' || true)
    ours=$(valgrind_reports "$vg" simhash | grep -c '^---- ' || true)
    if [ "$ours" -gt 0 ]; then
        say "valgrind reports through simhash.so"
        valgrind_reports "$vg" simhash
    fi
    if [ "$all" -gt "$ours" ]; then
        say "valgrind reports elsewhere (PostgreSQL, libraries)"
        valgrind_reports "$vg" | head -n 200
    fi
    [ -n "${VALGRIND_LOGS:-}" ] && mkdir -p "$VALGRIND_LOGS" && cp "$vg"/*.log "$VALGRIND_LOGS/"
    local passed
    passed=$(grep -Ec '^(ok|test) .* ok( |$)|^ok [0-9]+ +- ' "$WORK/regress.out" || true)
    echo "regression tests $regress ($passed passed), $(ls "$vg" | wc -l) processes traced, $all valgrind reports, $ours through simhash.so" \
        > "$VALGRIND_RESULT"
    [ "$regress" = ok ] && [ "$ours" -eq 0 ]
)

for part in "${PARTS[@]}"; do
    case "$part" in
        cassert) run_cassert ;;
        valgrind)
            run_valgrind || status=1
            result[valgrind]=$(cat "$VALGRIND_RESULT")
            [ -n "${result[valgrind]}" ] || result[valgrind]="did not finish"
            ;;
        *) die "unknown part $part (cassert, valgrind)" ;;
    esac
done
rm -f "$VALGRIND_RESULT"
say "summary ($("$PG_CONFIG" --version), --enable-cassert, USE_VALGRIND)"
for part in "${PARTS[@]}"; do
    printf '  %-8s %s\n' "$part" "${result[$part]}"
done
exit $status
