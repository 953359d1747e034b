#!/usr/bin/env bash
# Benchmark of the simhash index against the alternatives users have today:
# a sequential scan (bit_count of the XOR), GIN over an int4[] of the four
# 16-bit block keys (block number folded into each key) with a recheck, four
# btree expression indexes OR'ed together (BitmapOr), and, for build time,
# size and insert rate, a plain btree on the same 64 bits as bigint.
#
# Not part of the test suite.  Prints a Markdown table per data set.
#   BENCH_ROWS     rows per data set (default 1000000)
#   BENCH_QUERIES  radius-3 and top-10 queries per method (default 1000)
#   BENCH_SEQ      queries for the sequential scans (default 20)
#   BENCH_ONLY     "simhash": only the simhash index (build, size, radius-3,
#                  top-10, exactness), no baselines, insert rate or growth; for
#                  quick iterations on the index (default: everything)
#   PG_CONFIG      server to use; use an optimised, non-assert build
# Usage: PG_CONFIG=/path/to/release/bin/pg_config scripts/bench-index.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"
require_root "$@"
install_deps
make_workdir

ROWS=${BENCH_ROWS:-1000000}
QUERIES=${BENCH_QUERIES:-1000}
SEQ=${BENCH_SEQ:-20}
ONLY=${BENCH_ONLY:-}
case "$ONLY" in
    ''|simhash) ;;
    *) die "BENCH_ONLY must be empty or simhash" ;;
esac
# Emits its argument (SQL) unless only the simhash index is measured.
baselines() { [ "$ONLY" = simhash ] || printf '%s\n' "$1"; }

build_install COPT="-O2"
start_bench_cluster 2GB

say "setting up ($ROWS rows per data set, $QUERIES queries, $SEQ sequential)"
psql_ <<'SQL'
CREATE EXTENSION simhash;
\i src/bench/fingerprints.sql
-- The four 16-bit block keys, block number folded into bits 16..17.
CREATE FUNCTION block_keys(x bigint) RETURNS int4[] LANGUAGE sql IMMUTABLE PARALLEL SAFE
	RETURN ARRAY[((x >> 48) & 65535)::int, ((x >> 32) & 65535)::int | 65536,
	             ((x >> 16) & 65535)::int | 131072, (x & 65535)::int | 196608];
CREATE FUNCTION b0(x bigint) RETURNS int LANGUAGE sql IMMUTABLE PARALLEL SAFE RETURN ((x >> 48) & 65535)::int;
CREATE FUNCTION b1(x bigint) RETURNS int LANGUAGE sql IMMUTABLE PARALLEL SAFE RETURN ((x >> 32) & 65535)::int;
CREATE FUNCTION b2(x bigint) RETURNS int LANGUAGE sql IMMUTABLE PARALLEL SAFE RETURN ((x >> 16) & 65535)::int;
CREATE FUNCTION b3(x bigint) RETURNS int LANGUAGE sql IMMUTABLE PARALLEL SAFE RETURN (x & 65535)::int;

CREATE TABLE results (dataset text, method text, metric text, value double precision);

-- Runs a statement and commits (batched index inserts are written at
-- commit), records the wall time in ms.
CREATE PROCEDURE timed(ds text, method text, metric text, stmt text) LANGUAGE plpgsql AS $$
DECLARE t0 timestamptz := clock_timestamp();
BEGIN
	EXECUTE stmt;
	COMMIT;
	INSERT INTO results VALUES (ds, method, metric,
		extract(epoch FROM clock_timestamp() - t0) * 1000);
END $$;

-- Runs EXPLAIN ANALYZE of template (%1$L = center) for each center and
-- records the p50 and p95 of "Execution Time", and the plan of the first.
CREATE FUNCTION exec_times(template text, centers simhash[]) RETURNS double precision[]
LANGUAGE plpgsql AS $$
DECLARE
	c simhash;
	plan json;
	times double precision[] := '{}';
BEGIN
	FOREACH c IN ARRAY centers LOOP
		EXECUTE 'EXPLAIN (ANALYZE, FORMAT JSON) ' || format(template, c::text) INTO plan;
		times := times || (plan->0->>'Execution Time')::double precision;
	END LOOP;
	RETURN times;
END $$;
CREATE PROCEDURE measure(ds text, method text, metric text, template text, n integer) LANGUAGE plpgsql AS $$
DECLARE
	centers simhash[];
	times double precision[];
BEGIN
	SELECT array_agg(c) INTO centers FROM (SELECT c FROM centers ORDER BY i LIMIT n) s;
	PERFORM exec_times(template, centers[1:least(n, 20)]);	-- warm the cache
	times := exec_times(template, centers);
	INSERT INTO results
	SELECT ds, method, metric || ' p50', percentile_cont(0.5) WITHIN GROUP (ORDER BY t) FROM unnest(times) t
	UNION ALL
	SELECT ds, method, metric || ' p95', percentile_cont(0.95) WITHIN GROUP (ORDER BY t) FROM unnest(times) t;
END $$;
SQL

for ds in uniform clustered; do
    say "data set $ds"
    psql_ <<SQL
SET client_min_messages = warning;
DROP TABLE IF EXISTS bench, centers;
RESET client_min_messages;
CREATE TABLE bench (id bigserial, fp simhash, fpi bigint);
INSERT INTO bench (fp) SELECT gen('$ds', $ROWS);
UPDATE bench SET fpi = fp::bigint;
VACUUM (FREEZE, ANALYZE) bench;
-- Query centers: stored fingerprints moved 0 to 3 bits (radius 3 finds them).
CREATE TABLE centers AS SELECT row_number() OVER () AS i, flip(fp, (random() * 3)::int) AS c
  FROM (SELECT fp FROM bench ORDER BY random() LIMIT $QUERIES) s;
CHECKPOINT;
CALL timed('$ds', 'simhash index', 'build ms', 'CREATE INDEX bench_fp ON bench USING simhash (fp)');
INSERT INTO results VALUES ('$ds', 'simhash index', 'size MB', pg_relation_size('bench_fp') / 1048576.0);
$(baselines "
CALL timed('$ds', 'btree (bigint)', 'build ms', 'CREATE INDEX bench_btree ON bench (fpi)');
CALL timed('$ds', 'GIN block keys', 'build ms', 'CREATE INDEX bench_gin ON bench USING gin (block_keys(fpi))');
CALL timed('$ds', '4 btrees OR', 'build ms', 'CREATE INDEX bench_b0 ON bench (b0(fpi)); CREATE INDEX bench_b1 ON bench (b1(fpi)); CREATE INDEX bench_b2 ON bench (b2(fpi)); CREATE INDEX bench_b3 ON bench (b3(fpi))');
INSERT INTO results VALUES
  ('$ds', 'btree (bigint)', 'size MB', pg_relation_size('bench_btree') / 1048576.0),
  ('$ds', 'GIN block keys', 'size MB', pg_relation_size('bench_gin') / 1048576.0),
  ('$ds', '4 btrees OR', 'size MB', (pg_relation_size('bench_b0') + pg_relation_size('bench_b1')
                                     + pg_relation_size('bench_b2') + pg_relation_size('bench_b3')) / 1048576.0);
")
ANALYZE bench;

-- radius 3
CALL measure('$ds', 'simhash index', 'radius-3 ms', \$q\$SELECT id FROM bench WHERE fp <@ simhash_ball(%1\$L, 3)\$q\$, $QUERIES);
$(baselines "
CALL measure('$ds', 'GIN block keys', 'radius-3 ms', \$q\$SELECT id FROM bench WHERE block_keys(fpi) && block_keys(%1\$L::simhash::bigint) AND bit_count((fpi # %1\$L::simhash::bigint)::bit(64)) <= 3\$q\$, $QUERIES);
CALL measure('$ds', '4 btrees OR', 'radius-3 ms', \$q\$SELECT id FROM bench WHERE (b0(fpi) = b0(%1\$L::simhash::bigint) OR b1(fpi) = b1(%1\$L::simhash::bigint) OR b2(fpi) = b2(%1\$L::simhash::bigint) OR b3(fpi) = b3(%1\$L::simhash::bigint)) AND bit_count((fpi # %1\$L::simhash::bigint)::bit(64)) <= 3\$q\$, $QUERIES);
SET enable_indexscan = off; SET enable_bitmapscan = off;
CALL measure('$ds', 'sequential scan', 'radius-3 ms', \$q\$SELECT id FROM bench WHERE bit_count((fpi # %1\$L::simhash::bigint)::bit(64)) <= 3\$q\$, $SEQ);
CALL measure('$ds', 'sequential scan', 'top-10 ms', \$q\$SELECT id FROM bench ORDER BY bit_count((fpi # %1\$L::simhash::bigint)::bit(64)) LIMIT 10\$q\$, $SEQ);
RESET enable_indexscan; RESET enable_bitmapscan;
")
CALL measure('$ds', 'simhash index', 'top-10 ms', \$q\$SELECT id FROM bench ORDER BY fp <-> %1\$L LIMIT 10\$q\$, $QUERIES);

-- exactness spot check: index top-10 distances = sequential top-10 distances
INSERT INTO results
SELECT '$ds', 'simhash index', 'top-10 exact (of 20)', count(*) FILTER (WHERE a = b) FROM (
  SELECT ARRAY(SELECT fp <-> c FROM bench ORDER BY fp <-> c LIMIT 10)::integer[] AS a,
         ARRAY(SELECT bit_count((fpi # c::bigint)::bit(64))::int AS d FROM bench ORDER BY d LIMIT 10) AS b
    FROM centers WHERE i <= 20) s;

$(baselines "
-- insert rate: 100,000 rows into a copy with only that index
CREATE TABLE ins_simhash AS SELECT fp, fpi FROM bench;
CREATE INDEX ON ins_simhash USING simhash (fp);
CREATE TABLE ins_btree AS SELECT fp, fpi FROM bench;
CREATE INDEX ON ins_btree (fpi);
CREATE TABLE ins_gin AS SELECT fp, fpi FROM bench;
CREATE INDEX ON ins_gin USING gin (block_keys(fpi)) WITH (fastupdate = off);
CHECKPOINT;
CREATE TABLE newrows AS SELECT rand_fp() AS fp FROM generate_series(1, 100000);
CALL timed('$ds', 'simhash index', 'insert 100k ms', 'INSERT INTO ins_simhash SELECT fp, fp::bigint FROM newrows');
CALL timed('$ds', 'btree (bigint)', 'insert 100k ms', 'INSERT INTO ins_btree SELECT fp, fp::bigint FROM newrows');
CALL timed('$ds', 'GIN block keys', 'insert 100k ms', 'INSERT INTO ins_gin SELECT fp, fp::bigint FROM newrows');
DROP TABLE ins_simhash, ins_btree, ins_gin, newrows;
")
SQL
    psql_ -c "SELECT * FROM results WHERE dataset = '$ds' ORDER BY metric, method"
done

if [ "${BENCH_GROWTH:-1}" = 1 ] && [ "$ONLY" != simhash ]; then
    say "growth: built at 1% of the rows, grown to all by inserts"
    psql_ <<SQL
CREATE TABLE grown (fp simhash);
INSERT INTO grown SELECT fp FROM bench WHERE id % 100 = 0;
CREATE INDEX grown_fp ON grown USING simhash (fp);
CALL timed('grown', 'simhash index', 'insert 99% ms', 'INSERT INTO grown SELECT fp FROM bench WHERE id % 100 <> 0');
VACUUM ANALYZE grown;
INSERT INTO results VALUES ('grown', 'simhash index', 'size MB', pg_relation_size('grown_fp') / 1048576.0);
CALL measure('grown', 'simhash index', 'radius-3 ms', \$q\$SELECT 1 FROM grown WHERE fp <@ simhash_ball(%1\$L, 3)\$q\$, $QUERIES);
CALL measure('grown', 'simhash index', 'top-10 ms', \$q\$SELECT 1 FROM grown ORDER BY fp <-> %1\$L LIMIT 10\$q\$, $QUERIES);
SQL
fi

say "results ($ROWS rows per data set)"
psql_ -P pager=off <<'SQL'
\pset format aligned
SELECT dataset, metric,
       round(max(value) FILTER (WHERE method = 'simhash index')::numeric, 3) AS "simhash index",
       round(max(value) FILTER (WHERE method = 'sequential scan')::numeric, 3) AS "sequential scan",
       round(max(value) FILTER (WHERE method = 'GIN block keys')::numeric, 3) AS "GIN block keys",
       round(max(value) FILTER (WHERE method = '4 btrees OR')::numeric, 3) AS "4 btrees OR",
       round(max(value) FILTER (WHERE method = 'btree (bigint)')::numeric, 3) AS "btree (bigint)"
  FROM results GROUP BY dataset, metric ORDER BY dataset DESC, metric;
SQL
