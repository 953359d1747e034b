#!/usr/bin/env bash
# Benchmark of the batch workflows, simhash_pairs and simhash_clusters, at
# radius 3 on 1 M and 10 M fingerprints (90 % uniform, 10 % in clusters of
# 10 near-duplicates, bench/pairs.sql), against the two self-joins a user
# would write: the index-driven one (a nested loop probing the simhash index
# once per row) and the sequential nested loop, whose time is extrapolated
# from a sample of outer rows.  Checks that the pairs are exactly those of
# the index-driven self-join (the whole set at 1 M, a 1 % sample of rows
# above) and of the sequential nested loop (every pair of the sampled rows).
#
# Not part of the test suite.  Prints a Markdown table.
#   BENCH_SIZES   data set sizes (default "1000000 10000000")
#   BENCH_RUNS    runs of simhash_pairs and simhash_clusters, median reported (default 3)
#   BENCH_SAMPLE  outer rows of the sequential nested loop (default 200: half
#                 uniform, half clustered)
#   BENCH_JOIN_FULL  largest size at which the index-driven self-join runs in
#                 full (default 1000000); above it, a 1 % sample of outer rows
#   PG_CONFIG     server to use; use an optimised, non-assert build
# Usage: sudo scripts/bench-pairs.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"
require_root "$@"
install_deps
make_workdir

SIZES=${BENCH_SIZES:-"1000000 10000000"}
RUNS=${BENCH_RUNS:-3}
SAMPLE=${BENCH_SAMPLE:-200}
JOIN_FULL=${BENCH_JOIN_FULL:-1000000}

build_install COPT="-O2"
start_bench_cluster 2GB

say "setting up"
psql_ <<'SQL'
CREATE EXTENSION simhash;
\i src/bench/fingerprints.sql
\i src/bench/pairs.sql
CREATE TABLE results (rows bigint, method text, seconds double precision, result bigint);

-- Runs a statement `runs` times, recording each time and, for a query, the
-- bigint it returns.
CREATE PROCEDURE timed(n bigint, method text, runs integer, query text) LANGUAGE plpgsql AS $$
DECLARE
	t0 timestamptz;
	r bigint;
BEGIN
	FOR i IN 1 .. runs LOOP
		t0 := clock_timestamp();
		IF query ~* '^\s*select' THEN
			EXECUTE query INTO r;
		ELSE
			EXECUTE query;
		END IF;
		INSERT INTO results VALUES (n, method, extract(epoch FROM clock_timestamp() - t0), r);
		COMMIT;
	END LOOP;
END $$;

-- Records the differences between the batch pairs that touch a row of
-- "sample" and the pairs the self-join of sample with fps finds (under the
-- current planner settings), and how many pairs that is.
CREATE PROCEDURE check_sample(n bigint, label text) LANGUAGE plpgsql AS $$
BEGIN
	CREATE TEMP TABLE got AS SELECT * FROM batch_pairs
	 WHERE id1 IN (SELECT id FROM sample) OR id2 IN (SELECT id FROM sample);
	CREATE TEMP TABLE want AS SELECT least(a.id, b.id) AS id1, greatest(a.id, b.id) AS id2,
	                                 (a.fp <-> b.fp)::integer AS distance
	  FROM sample a JOIN fps b ON a.fp <-> b.fp <= 3 AND a.id <> b.id
	 WHERE NOT (b.id IN (SELECT id FROM sample) AND b.id < a.id);
	INSERT INTO results SELECT n, 'differences from the ' || label, NULL, count(*) FROM (
		(SELECT * FROM got EXCEPT ALL SELECT * FROM want)
		UNION ALL (SELECT * FROM want EXCEPT ALL SELECT * FROM got)) x;
	INSERT INTO results SELECT n, 'pairs compared with the ' || label, NULL, count(*) FROM want;
	DROP TABLE got, want;
END $$;
SQL

for n in $SIZES; do
    say "$n fingerprints"
    psql_ <<SQL
SET client_min_messages = warning;
DROP TABLE IF EXISTS fps, sample, batch_pairs, join_pairs;
RESET client_min_messages;
CREATE TABLE fps AS SELECT * FROM pairs_bench_set($n);
VACUUM ANALYZE fps;

CALL timed($n, 'simhash_pairs', $RUNS, \$q\$SELECT count(*) FROM simhash_pairs('fps', 'fp', 3)\$q\$);
CALL timed($n, 'simhash_clusters (components)', $RUNS,
           \$q\$SELECT count(DISTINCT representative) FROM simhash_clusters('fps', 'fp', 3)\$q\$);
CALL timed($n, 'simhash_clusters (leaders)', $RUNS,
           \$q\$SELECT count(DISTINCT representative) FROM simhash_clusters('fps', 'fp', 3, method => 'leaders')\$q\$);

CREATE TABLE batch_pairs AS SELECT * FROM simhash_pairs('fps', 'fp', 3);

-- The index-driven self-join, once: build the index, then the join; in
-- full up to BENCH_JOIN_FULL rows (and its pairs compared with the batch's),
-- above that extrapolated from a 1 % sample of outer rows.
CALL timed($n, 'simhash index build', 1, 'CREATE INDEX fps_fp ON fps USING simhash (fp)');
ANALYZE fps;
EXPLAIN (COSTS OFF) SELECT a.id, b.id FROM fps a JOIN fps b ON a.fp <-> b.fp <= 3 AND a.id < b.id;
$(if [ "$n" -le "$JOIN_FULL" ]; then echo "
CALL timed($n, 'index self-join', 1, \$q\$
	CREATE TABLE join_pairs AS SELECT a.id AS id1, b.id AS id2, (a.fp <-> b.fp)::integer AS distance
	  FROM fps a JOIN fps b ON a.fp <-> b.fp <= 3 AND a.id < b.id\$q\$);
UPDATE results SET result = (SELECT count(*) FROM join_pairs) WHERE rows = $n AND method = 'index self-join';
INSERT INTO results SELECT $n, 'differences from the index self-join', NULL, count(*) FROM (
	(SELECT * FROM batch_pairs EXCEPT ALL SELECT * FROM join_pairs)
	UNION ALL (SELECT * FROM join_pairs EXCEPT ALL SELECT * FROM batch_pairs)) x;"
else echo "
CREATE TABLE sample AS SELECT * FROM fps WHERE random() < 0.01;
CALL timed($n, 'index self-join sample', 1,
           'SELECT count(*) FROM sample a JOIN fps b ON a.fp <-> b.fp <= 3 AND a.id <> b.id');
INSERT INTO results SELECT $n, 'index self-join (extrapolated)',
	seconds * $n / (SELECT count(*) FROM sample), NULL FROM results WHERE rows = $n AND method = 'index self-join sample';
CALL check_sample($n, 'index self-join (1 % sample)');
DROP TABLE sample;"
fi)

-- The sequential nested loop from a sample of outer rows, each compared
-- with every row; extrapolated to the n (n - 1) / 2 comparisons of the
-- whole self-join with a.id < b.id (a floor: the nested loop also pays for
-- reading the other half).
CREATE TABLE sample AS
	(SELECT * FROM fps WHERE id <= $n - $n / 10 ORDER BY random() LIMIT $SAMPLE / 2)
	UNION ALL (SELECT * FROM fps WHERE id > $n - $n / 10 ORDER BY random() LIMIT $SAMPLE - $SAMPLE / 2);
SET enable_indexscan = off;
SET enable_bitmapscan = off;
CALL timed($n, 'sequential sample', 1,
           'SELECT count(*) FROM sample a JOIN fps b ON a.fp <-> b.fp <= 3 AND a.id <> b.id');
INSERT INTO results SELECT $n, 'sequential nested loop (extrapolated)',
	seconds * ($n - 1) / 2 / $SAMPLE, NULL FROM results WHERE rows = $n AND method = 'sequential sample';
CALL check_sample($n, 'sequential nested loop ($SAMPLE-row sample)');
RESET enable_indexscan;
RESET enable_bitmapscan;
SQL
done

say "results (radius 3; seconds: median of $RUNS runs for the batch functions, one run otherwise)"
psql_ -P pager=off <<'SQL'
\pset format aligned
WITH m AS (
	SELECT rows, method, percentile_cont(0.5) WITHIN GROUP (ORDER BY seconds) AS s, count(*) AS runs,
	       max(result) AS result
	  FROM results GROUP BY rows, method)
SELECT m.rows, m.method, round(m.s::numeric, 2) AS seconds, m.runs,
       round((m.s / b.s)::numeric, 1) AS "× simhash_pairs", m.result AS "pairs / clusters / count"
  FROM m JOIN m b ON b.rows = m.rows AND b.method = 'simhash_pairs'
 ORDER BY m.rows, m.s IS NULL, m.s;
SQL
