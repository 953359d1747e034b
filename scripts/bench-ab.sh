#!/usr/bin/env bash
# Same-cluster A/B of two builds of the library (not part of the test suite):
# is this change faster than BASE?  On a shared machine, timings of two
# clusters, or of two runs minutes apart, differ by more than most changes
# do (doc/benchmarks.md, session 15: two clusters' md5 times differed by
# 3 %), so this compares the two libraries on one cluster and one table:
# the working tree's build (A) and commit BASE's (B) are installed in turn
# under the library's own name, and each session (a new backend, which loads
# the library then) times md5(body) and simhash(body) over the
# near-duplicate benchmark's pages (bench/make_quality_sets.py), English and
# Chinese, by the backend's CPU time.  The SQL objects are the working
# tree's, so BASE must not differ from it in SQL.  Prints, per language, the
# median and 10th percentile of A's simhash time over B's and each one's
# ratio to md5 (medians).
#
# Usage: sudo scripts/bench-ab.sh BASE [ROUNDS]   (ROUNDS of A then B, default 5)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
require_root "$@"
BASE=${1:?usage: sudo scripts/bench-ab.sh BASE [ROUNDS]}
ROUNDS=${2:-5}
ab_prepare "$BASE"
LIB=$("$PG_CONFIG" --pkglibdir)/simhash.so
cp "$WORK/src/simhash.so" "$WORK/A.so"
say "building $BASE"
as_user make -C "$WORK/base" -s >/dev/null || die "build of $BASE failed"
cp "$WORK/base/simhash.so" "$WORK/B.so"
# the installed library is A's again at the end, whatever happens
trap 'rc=$?; install -m 755 "$WORK/A.so" "$LIB" || true; (exit $rc); cleanup' EXIT
start_cluster "-c shared_buffers=256MB -c jit=off -c max_parallel_workers_per_gather=0"

load_benchmark_pages
psql_ -f "$WORK/src/bench/cpu_seconds.sql"

# One session: per language, 4 pairs of timings (md5, then simhash) after a
# warming pair, each seconds() of bench/cpu_seconds.sql over 0.3 s of CPU
# time; prints "lang md5_seconds simhash_seconds".
cat > "$WORK/session.sql" <<'SQL'
CREATE TEMP TABLE t (lang text, md5 float8, simhash float8);
DO $$
DECLARE l text; a float8; b float8;
BEGIN
  FOREACH l IN ARRAY ARRAY['en', 'zh'] LOOP
    FOR i IN 0 .. 4 LOOP
      a := seconds('md5(body)', 'pages_' || l, 0.3);
      b := seconds('simhash(body)', 'pages_' || l, 0.3);
      IF i > 0 THEN             -- the first pair warms the table and the library
        INSERT INTO t VALUES (l, a, b);
      END IF;
    END LOOP;
  END LOOP;
END $$;
COPY t TO STDOUT;
SQL
chown "$RUN_USER" "$WORK/session.sql"

say "timing: $ROUNDS rounds of a session with A (the working tree), then B ($BASE)"
for r in $(seq 1 "$ROUNDS"); do
    for side in A B; do
        install -m 755 "$WORK/$side.so" "$LIB.new" && mv "$LIB.new" "$LIB"
        psql_ -f "$WORK/session.sql" | sed "s/^/$side\t/" >> "$WORK/timings.tsv"
    done
done
python3 - "$WORK/timings.tsv" <<'PY'
import statistics, sys
rows = [l.split('\t') for l in open(sys.argv[1]) if l.strip()]
def times(side, lang, col):
    return sorted(float(r[col]) for r in rows if r[0] == side and r[1] == lang)
for lang in ('en', 'zh'):
    a, b = times('A', lang, 3), times('B', lang, 3)
    p10 = lambda v: v[len(v) // 10]
    print('%s pages: simhash A/B median %.3f, 10th percentile %.3f (n = %d, %d); '
          'x md5 A %.3f, B %.3f' % (
              lang, statistics.median(a) / statistics.median(b), p10(a) / p10(b), len(a), len(b),
              statistics.median(times('A', lang, 2)) / statistics.median(a),
              statistics.median(times('B', lang, 2)) / statistics.median(b)))
PY
