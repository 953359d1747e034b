#!/usr/bin/env bash
# Insert-rate benchmark of the simhash index against a plain btree on the
# same 64 bits as bigint: same run, same data, same new rows.
#
# For each size N and each data set (uniform random; clustered = originals
# plus near-duplicates 1-6 bits away) it loads N rows into two tables, one
# with only a simhash index and one with only a btree on the bigint, then
# inserts 100,000 more rows (INSERT ... SELECT, one statement) into each,
# BENCH_REPEAT times with fresh rows each time, alternating which index goes
# first.  Two conditions:
#   warm        no checkpoint since the previous round: no full-page images
#   checkpoint  a CHECKPOINT just before each insert: the first change of
#               every page after it writes a full-page image to WAL
# It prints the median wall time (statement and commit), the WAL bytes per
# row, and the btree's time divided by the simhash index's (= its insert
# rate as a fraction of the btree's).  Then, in the same run, the rate of
# BENCH_NEW copies of one fingerprint against BENCH_NEW distinct ones, each
# into an empty table with a simhash index, batched and with
# simhash.batch_inserts = off (issue 15: at least half the distinct rate).
# Not part of the test suite.
#   BENCH_SIZES   sizes to load (default "1000000 10000000")
#   BENCH_REPEAT  rounds per condition (default 3)
#   BENCH_NEW     rows inserted per round (default 100000)
#   PG_CONFIG     server to use; use an optimised, non-assert build
# Usage: PG_CONFIG=/path/to/release/bin/pg_config scripts/bench-insert.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"
require_root "$@"
install_deps
make_workdir

SIZES=${BENCH_SIZES:-1000000 10000000}
REPEAT=${BENCH_REPEAT:-3}
NEW=${BENCH_NEW:-100000}

build_install COPT="-O2"
start_bench_cluster 3GB

say "setting up (sizes $SIZES, $REPEAT rounds of $NEW rows)"
psql_ <<'SQL'
CREATE EXTENSION simhash;
\i src/bench/fingerprints.sql
CREATE TABLE results (size bigint, dataset text, cond text, method text, round int,
                      ms double precision, wal_bytes numeric);
-- Runs stmt, commits (a transaction's batched index inserts are written at
-- commit), and records the wall time and the WAL generated, commit included.
CREATE PROCEDURE timed(size bigint, ds text, cond text, method text, round int, stmt text)
LANGUAGE plpgsql AS $$
DECLARE
	t0 timestamptz := clock_timestamp();
	w0 pg_lsn := pg_current_wal_insert_lsn();
BEGIN
	EXECUTE stmt;
	COMMIT;
	INSERT INTO results VALUES (size, ds, cond, method, round,
		extract(epoch FROM clock_timestamp() - t0) * 1000,
		pg_current_wal_insert_lsn() - w0);
END $$;
SQL

for size in $SIZES; do
    for ds in uniform clustered; do
        say "$size rows, $ds"
        psql_ <<SQL
SET client_min_messages = warning;
DROP TABLE IF EXISTS base, ins_simhash, ins_btree;
RESET client_min_messages;
CREATE TABLE base AS SELECT fp FROM gen('$ds', $size) fp;
CREATE TABLE ins_simhash AS SELECT fp FROM base;
CREATE TABLE ins_btree AS SELECT fp::bigint AS fpi FROM base;
DROP TABLE base;
VACUUM (FREEZE, ANALYZE) ins_simhash, ins_btree;
CREATE INDEX ON ins_simhash USING simhash (fp);
CREATE INDEX ON ins_btree (fpi);
-- The simhash build writes its pages through shared buffers, the btree
-- build does not: read every btree page once so both start cached.
SET enable_seqscan = off;
SELECT count(*) FROM ins_btree WHERE fpi > -9223372036854775808;
RESET enable_seqscan;
SQL
        for cond in warm checkpoint; do
            for r in $(seq 1 "$REPEAT"); do
                psql_ -c "DROP TABLE IF EXISTS newrows; CREATE TABLE newrows AS SELECT fp FROM gen('$ds', $NEW) fp;"
                s="CALL timed($size, '$ds', '$cond', 'simhash index', $r, 'INSERT INTO ins_simhash SELECT fp FROM newrows')"
                b="CALL timed($size, '$ds', '$cond', 'btree (bigint)', $r, 'INSERT INTO ins_btree SELECT fp::bigint FROM newrows')"
                if [ $((r % 2)) = 1 ]; then first=$s; second=$b; else first=$b; second=$s; fi
                cp=""; [ $cond = checkpoint ] && cp="CHECKPOINT;"
                psql_ -c "$cp" -c "$first" -c "$cp" -c "$second"
            done
        done
    done
done

say "duplicates: $NEW copies of one fingerprint against $NEW distinct ones"
psql_ -c "DROP TABLE IF EXISTS dup_src; CREATE TABLE dup_src AS SELECT 'identical' AS ds, '0123456789abcdef'::simhash AS fp FROM generate_series(1, $NEW) UNION ALL SELECT 'distinct', fp FROM gen('uniform', $NEW) fp;"
for r in $(seq 1 "$REPEAT"); do
    for mode in batched 'row by row'; do
        batch=on; [ "$mode" = 'row by row' ] && batch=off
        for ds in identical distinct; do
            psql_ -c "DROP TABLE IF EXISTS dup_t; CREATE TABLE dup_t (fp simhash); CREATE INDEX ON dup_t USING simhash (fp);" \
                  -c "SET simhash.batch_inserts = $batch" \
                  -c "CALL timed(0, '$ds', '$mode', 'simhash index', $r, 'INSERT INTO dup_t SELECT fp FROM dup_src WHERE ds = ''$ds''')"
        done
    done
done

say "results: median of $REPEAT rounds of $NEW rows (ms, WAL bytes per row)"
psql_ -P pager=off <<SQL
\pset format aligned
WITH m AS (
  SELECT size, dataset, cond, method,
         percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS ms,
         percentile_cont(0.5) WITHIN GROUP (ORDER BY wal_bytes / 1.0) AS wal
    FROM results WHERE size > 0 GROUP BY 1, 2, 3, 4)
SELECT s.size, s.dataset, s.cond,
       round(s.ms::numeric) AS "simhash ms", round(b.ms::numeric) AS "btree ms",
       round((b.ms / s.ms)::numeric, 2) AS "rate vs btree",
       round(s.wal::numeric / $NEW) AS "simhash WAL/row",
       round(b.wal::numeric / $NEW) AS "btree WAL/row"
  FROM m s JOIN m b USING (size, dataset, cond)
 WHERE s.method = 'simhash index' AND b.method = 'btree (bigint)'
 ORDER BY s.size, s.dataset DESC, s.cond DESC;
SQL

say "duplicates: median of $REPEAT rounds of $NEW rows into an empty table (ms)"
psql_ -P pager=off <<SQL
\pset format aligned
WITH m AS (
  SELECT dataset, cond, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS ms
    FROM results WHERE size = 0 GROUP BY 1, 2)
SELECT i.cond AS mode, round(i.ms::numeric) AS "identical ms",
       round(d.ms::numeric) AS "distinct ms",
       round((d.ms / i.ms)::numeric, 2) AS "identical rate vs distinct"
  FROM m i JOIN m d USING (cond)
 WHERE i.dataset = 'identical' AND d.dataset = 'distinct'
 ORDER BY 1;
SQL
