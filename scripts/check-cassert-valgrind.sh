#!/usr/bin/env bash
# Runs simhash on an assert-enabled PostgreSQL 15 built from Debian's source
# package (--enable-cassert, and USE_VALGRIND so that valgrind learns about
# PostgreSQL's memory contexts), cached outside the repository in
# $PG_CACHE/15-cassert (scripts/pg-build.sh; the first run builds it, a few
# minutes):
#   cassert   the whole suite (scripts/test.sh) against that server;
#   valgrind  the regression tests (pg_regress) against that server running
#             under valgrind --trace-children=yes with PostgreSQL's
#             src/tools/valgrind.supp: memcheck errors and definitely lost
#             malloc blocks whose stack passes through simhash.so's functions
#             fail the run; PostgreSQL's own are listed.  Slow: an hour or
#             more.
# Usage: sudo scripts/check-cassert-valgrind.sh [cassert] [valgrind]
# (default both).  Exits non-zero when a test fails or valgrind reports an
# error in simhash's code.  VALGRIND_LOGS=DIR keeps valgrind's logs there;
# VALGRIND_TESTS="validate index" runs only those regression tests.
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
    result[cassert]=$(run_suite "$PG_CONFIG") || status=1
}

# valgrind_reports NAMES DIR: prints each valgrind report (between the error
# markers) in the logs of directory DIR under a line "---- KIND WHERE LOG".
# KIND: "error" (memcheck), "leak" (a malloc'd block definitely lost) or
# "chunk" (memory of a memory context, a palloc'd chunk or a context's block,
# that nothing points to at exit: counted, not a leak).  WHERE: "simhash"
# when a frame of the stack is a function named in file NAMES (simhash.so's
# functions), "other" otherwise.
valgrind_reports() {
    awk '
        FNR == NR { ours[$1] = 1; next }
        /VALGRINDERROR-BEGIN/ { block = ""; kind = "error"; where = "other"; first = second = ""; inside = 1; next }
        /VALGRINDERROR-END/ {
            inside = 0
            if (block ~ /definitely lost/)
                kind = (first second) ~ /^(palloc|repalloc|MemoryContext|pstrdup|pnstrdup|psprintf|mallocAllocSet|mallocGenerationAlloc|mallocSlabAlloc)/ ? "chunk" : "leak"
            printf "---- %s %s %s\n%s", kind, where, FILENAME, block
            next
        }
        inside {
            block = block $0 "\n"
            if (match($0, /(at|by) 0x[0-9A-Fa-f]+: [A-Za-z_][A-Za-z_0-9]*/)) {
                fn = substr($0, RSTART, RLENGTH); sub(/.*: /, "", fn)
                if (first == "") first = fn; else if (second == "") second = fn
                if (fn in ours) where = "simhash"
            }
        }' "$1" "$2"/*.log
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
    if ! as_user make -C "$WORK/src" -s installcheck-regress ${VALGRIND_TESTS:+REGRESS="$VALGRIND_TESTS"} \
            2>&1 | tee "$WORK/regress.out"; then
        regress=failed
        [ -f "$WORK/src/regression.diffs" ] && cat "$WORK/src/regression.diffs"
    fi
    as_user "$PG_BIN/pg_ctl" -D "$PGDATA" -t 1200 -m fast -w stop >/dev/null
    nm --defined-only "$("$PG_CONFIG" --pkglibdir)/simhash.so" | awk '$2 ~ /^[tT]$/ { print $3 }' \
        > "$WORK/functions"
    valgrind_reports "$WORK/functions" "$vg" > "$WORK/reports"
    count() { grep -c "^---- $1" "$WORK/reports" || true; }
    local errors leaks ours
    errors="$(count 'error simhash') in simhash, $(count 'error other') elsewhere"
    leaks="$(count 'leak simhash') in simhash, $(count 'leak other') elsewhere"
    ours=$(( $(count 'error simhash') + $(count 'leak simhash') ))
    if [ "$ours" -gt 0 ]; then
        say "valgrind: errors and leaks in simhash's code"
        awk '/^---- / { show = ($2 != "chunk" && $3 == "simhash") } show' "$WORK/reports"
    fi
    say "valgrind: reports outside simhash (PostgreSQL, libraries; first 100 lines)"
    awk '/^---- / { show = ($2 != "chunk" && $3 == "other") } show' "$WORK/reports" | head -n 100  || true
    [ -n "${VALGRIND_LOGS:-}" ] && mkdir -p "$VALGRIND_LOGS" && cp "$vg"/*.log "$VALGRIND_LOGS/"
    local passed
    passed=$(grep -Ec '^(ok|test) .* ok( |$)|^ok [0-9]+ +- ' "$WORK/regress.out" || true)
    echo "regression tests $regress ($passed passed), $(ls "$vg" | wc -l) processes traced;" \
         "memcheck errors: $errors; definitely lost malloc blocks: $leaks;" \
         "memory-context memory nothing points to at exit: $(count 'chunk simhash') in simhash, $(count 'chunk other') elsewhere" \
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
