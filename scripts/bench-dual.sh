#!/usr/bin/env bash
# Same-session A/B of two builds of simhash(text) (not part of the test
# suite): both libraries are loaded in one backend, beside the installed
# one, and their scans alternate query by query (md5, A, B, B, A), so that
# the shared machine's changes of speed, which move single timings by more
# than most changes do, fall on both alike.  A is the working tree, B commit
# BASE; each is built with -DSIMHASH_LOADED_BESIDE (no _PG_init: the
# installed library defines the settings) and linked -Bsymbolic (its calls
# stay inside it).  The tables are the near-duplicate benchmark's pages
# (bench/make_quality_sets.py), English and Chinese.  Prints per language
# the median and quartiles over the rounds of A's time over B's (the faster
# of each one's two scans in a round; < 1: A is faster) and each one's
# ratio to md5; and the fastest scan of A over the fastest of B, which the
# machine's slower spells move least.  Two builds of the same code read
# 0.99-1.01.
#
# Usage: sudo scripts/bench-dual.sh BASE [ROUNDS]   (default 15)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
require_root "$@"
BASE=${1:?usage: sudo scripts/bench-dual.sh BASE [ROUNDS]}
ROUNDS=${2:-15}
ab_prepare "$BASE"

# builds the tree in $1 as a library to load beside the installed one, $2
beside() {
    as_user make -C "$1" -s clean >/dev/null
    as_user make -C "$1" -s COPT=-DSIMHASH_LOADED_BESIDE LDFLAGS_SL=-Wl,-Bsymbolic \
        >"$WORK/beside.log" 2>&1 || { cat "$WORK/beside.log"; die "build of $1 failed"; }
    cp "$1/simhash.so" "$2"
}
say "building the working tree and $BASE to load beside the installed library"
# a BASE older than this script: its _PG_init emptied the same way
grep -q SIMHASH_LOADED_BESIDE "$WORK/base/src/simhash.c" \
    || sed -i 's/^_PG_init(void)$/&\n{ }\nstatic void unused_init(void)/' "$WORK/base/src/simhash.c"
beside "$WORK/src" "$WORK/A.so"
beside "$WORK/base" "$WORK/B.so"
chmod 755 "$WORK/A.so" "$WORK/B.so"
start_cluster "-c shared_buffers=256MB -c jit=off -c max_parallel_workers_per_gather=0"

load_benchmark_pages
psql_ <<SQL
CREATE FUNCTION fp_a(text) RETURNS simhash AS '$WORK/A.so', 'simhash_text' LANGUAGE C IMMUTABLE STRICT;
CREATE FUNCTION fp_b(text) RETURNS simhash AS '$WORK/B.so', 'simhash_text' LANGUAGE C IMMUTABLE STRICT;
SQL
same=$(psql_ -At -c "SELECT count(*) FILTER (WHERE fp_a(body) IS DISTINCT FROM fp_b(body)) FROM docs")
[ "$same" = 0 ] || say "note: A and B differ on $same pages"

say "timing: $ROUNDS rounds of md5, A, B, B, A per language in one session"
for lang in en zh; do
    {
        echo '\timing on'
        echo "SELECT count(fp_a(body)), count(fp_b(body)) FROM pages_$lang;"
        for _ in $(seq 1 "$ROUNDS"); do
            for f in 'md5(body)' 'fp_a(body)' 'fp_b(body)' 'fp_b(body)' 'fp_a(body)'; do
                echo "SELECT count($f) FROM pages_$lang;"
            done
        done
    } > "$WORK/$lang.sql"
    chown "$RUN_USER" "$WORK/$lang.sql"
    psql_ -f "$WORK/$lang.sql" | awk '/^Time:/ { print $2 }' | tail -n +2 | paste - - - - - \
        > "$WORK/$lang.tsv"
    python3 - "$lang" "$WORK/$lang.tsv" <<'PY'
import statistics, sys
lang, path = sys.argv[1], sys.argv[2]
rows = [list(map(float, l.split())) for l in open(path) if l.strip()]
md5 = [r[0] for r in rows]
a = [min(r[1], r[4]) for r in rows]
b = [min(r[2], r[3]) for r in rows]
ratio = sorted(x / y for x, y in zip(a, b))
q = lambda p: ratio[int(p * (len(ratio) - 1))]
print('%s pages: A/B median %.3f (quartiles %.3f, %.3f; fastest A / fastest B %.3f; n = %d); '
      'x md5 A %.3f, B %.3f' % (
    lang, statistics.median(ratio), q(0.25), q(0.75), min(a) / min(b), len(ratio),
    statistics.median(md5) / statistics.median(a), statistics.median(md5) / statistics.median(b)))
PY
done
