-- "fp <-> q <= k", written so: the planner rewrites distance comparisons
-- into the radius clause "fp <@ simhash_ball(q, k)" that a simhash index
-- answers (or, between two columns, into hamming_within(fp, q, k), which
-- becomes that clause for whichever side is indexed), and fp <-> q into
-- fp <-># q so that ORDER BY fp <-> q can use the index (src/planner/support.c).
-- Every form is shown with EXPLAIN and checked against the truth computed
-- without the extension's operators: the 1s of fp::bit(64) # q::bit(64).

SET extra_float_digits = 0;

CREATE TABLE docs (id int PRIMARY KEY, fp simhash);
-- 1000 clusters of 10 near-duplicates (0 to 3 bits flipped), and NULLs.
INSERT INTO docs
SELECT c * 10 + v,
       (base # CASE WHEN v = 0 THEN 0
                    ELSE (1::bigint << ((c * 7 + v) % 64)) # (1::bigint << ((c * 13 + v * 5) % 64))
                         # CASE WHEN v > 5 THEN (1::bigint << ((c + v * 11) % 64)) ELSE 0 END
               END)::simhash
  FROM (SELECT c, ('x' || substr(md5(c::text), 1, 16))::bit(64)::bigint AS base
          FROM generate_series(1, 1000) c) b,
       generate_series(0, 9) v;
INSERT INTO docs VALUES (1, NULL), (2, NULL);
CREATE INDEX docs_fp ON docs USING simhash (fp);
ANALYZE docs;

CREATE TABLE queries (qid int, q simhash, k int);
INSERT INTO queries
SELECT row_number() OVER (), fp, k
  FROM (SELECT fp FROM docs WHERE id IN (10, 11, 47, 1500, 2999, 1)
        UNION ALL SELECT '0123456789abcdef') f,
       (VALUES (NULL::int), (-2147483648), (-1), (0), (1), (3), (4), (63), (64), (65), (2147483647)) r(k);
ANALYZE queries;

-- The truth, without any operator of the extension.
CREATE FUNCTION truth(a simhash, b simhash) RETURNS int
	LANGUAGE sql IMMUTABLE STRICT
	AS $$ SELECT length(replace((a::bit(64) # b::bit(64))::text, '0', '')) $$;

-- 1. Every comparison, every radius (NULL, negative, 0, 64, beyond,
-- INT_MIN, INT_MAX), NULL fingerprints on either side, both argument
-- orders, constant and non-constant radius: exactly equal to the truth,
-- NULLs included (IS DISTINCT FROM compares NULL to NULL as equal).
SELECT count(*) AS cases,
       count(*) FILTER (WHERE (d.fp <-> q.q <= q.k) IS DISTINCT FROM (truth(d.fp, q.q) <= q.k)) AS le,
       count(*) FILTER (WHERE (d.fp <-> q.q < q.k) IS DISTINCT FROM (truth(d.fp, q.q) < q.k)) AS lt,
       count(*) FILTER (WHERE (d.fp <-> q.q >= q.k) IS DISTINCT FROM (truth(d.fp, q.q) >= q.k)) AS ge,
       count(*) FILTER (WHERE (d.fp <-> q.q > q.k) IS DISTINCT FROM (truth(d.fp, q.q) > q.k)) AS gt,
       count(*) FILTER (WHERE (d.fp <-> q.q = q.k) IS DISTINCT FROM (truth(d.fp, q.q) = q.k)) AS eq,
       count(*) FILTER (WHERE (d.fp <-> q.q <> q.k) IS DISTINCT FROM (truth(d.fp, q.q) <> q.k)) AS ne,
       count(*) FILTER (WHERE (q.k >= d.fp <-> q.q) IS DISTINCT FROM (q.k >= truth(d.fp, q.q))) AS k_ge,
       count(*) FILTER (WHERE (q.k > d.fp <-> q.q) IS DISTINCT FROM (q.k > truth(d.fp, q.q))) AS k_gt,
       count(*) FILTER (WHERE (NOT (d.fp <-> q.q > q.k)) IS DISTINCT FROM (NOT (truth(d.fp, q.q) > q.k))) AS not_gt,
       count(*) FILTER (WHERE (NOT (d.fp <-> q.q = q.k)) IS DISTINCT FROM (NOT (truth(d.fp, q.q) = q.k))) AS not_eq,
       count(*) FILTER (WHERE (d.fp <-> q.q BETWEEN 0 AND q.k) IS DISTINCT FROM (truth(d.fp, q.q) BETWEEN 0 AND q.k)) AS between_,
       count(*) FILTER (WHERE (d.fp <-> q.q <= q.k::simhash_distance) IS DISTINCT FROM (truth(d.fp, q.q) <= q.k)) AS le_dd,
       count(*) FILTER (WHERE (hamming_distance(d.fp, q.q) <= q.k) IS DISTINCT FROM (truth(d.fp, q.q) <= q.k)) AS by_name
  FROM docs d, queries q
 WHERE d.id % 200 < 3 OR d.id < 3;
-- smallint and bigint radii (drivers send them), bigint beyond int4 too
SELECT count(*) AS cases,
       count(*) FILTER (WHERE (d.fp <-> q.q <= q.k2) IS DISTINCT FROM (truth(d.fp, q.q) <= q.k2)) AS le2,
       count(*) FILTER (WHERE (d.fp <-> q.q < q.k2) IS DISTINCT FROM (truth(d.fp, q.q) < q.k2)) AS lt2,
       count(*) FILTER (WHERE (q.k2 > d.fp <-> q.q) IS DISTINCT FROM (q.k2 > truth(d.fp, q.q))) AS k2_gt,
       count(*) FILTER (WHERE (d.fp <-> q.q = q.k2) IS DISTINCT FROM (truth(d.fp, q.q) = q.k2)) AS eq2,
       count(*) FILTER (WHERE (d.fp <-> q.q <= q.k8) IS DISTINCT FROM (truth(d.fp, q.q) <= q.k8)) AS le8,
       count(*) FILTER (WHERE (d.fp <-> q.q < q.k8) IS DISTINCT FROM (truth(d.fp, q.q) < q.k8)) AS lt8,
       count(*) FILTER (WHERE (d.fp <-> q.q >= q.k8) IS DISTINCT FROM (truth(d.fp, q.q) >= q.k8)) AS ge8,
       count(*) FILTER (WHERE (q.k8 >= d.fp <-> q.q) IS DISTINCT FROM (q.k8 >= truth(d.fp, q.q))) AS k8_ge,
       count(*) FILTER (WHERE (d.fp <-> q.q = q.k8) IS DISTINCT FROM (truth(d.fp, q.q) = q.k8)) AS eq8,
       count(*) FILTER (WHERE (NOT (d.fp <-> q.q > q.k8)) IS DISTINCT FROM (NOT (truth(d.fp, q.q) > q.k8))) AS not_gt8
  FROM docs d,
       (SELECT q, CASE WHEN k BETWEEN -32768 AND 32767 THEN k::smallint END AS k2,
               k::bigint * CASE WHEN abs(k::bigint) > 64 THEN 3 ELSE 1 END AS k8 FROM queries) q
 WHERE d.id % 200 < 3 OR d.id < 3;

-- The same with constant radii (folded at plan time, k - 1 saturating).
SELECT k,
       count(*) FILTER (WHERE (fp <-> '0123456789abcdef' <= k) IS DISTINCT FROM (truth(fp, '0123456789abcdef') <= k)) +
       count(*) FILTER (WHERE (fp <-> '0123456789abcdef' < k) IS DISTINCT FROM (truth(fp, '0123456789abcdef') < k)) +
       count(*) FILTER (WHERE (fp <-> '0123456789abcdef' >= k) IS DISTINCT FROM (truth(fp, '0123456789abcdef') >= k)) +
       count(*) FILTER (WHERE (fp <-> '0123456789abcdef' > k) IS DISTINCT FROM (truth(fp, '0123456789abcdef') > k)) +
       count(*) FILTER (WHERE (fp <-> '0123456789abcdef' = k) IS DISTINCT FROM (truth(fp, '0123456789abcdef') = k)) AS mismatches
  FROM (SELECT fp FROM docs WHERE id % 10 < 2 OR id < 3) d,
       (VALUES (-2147483648), (-1), (0), (30), (32), (64), (2147483647)) r(k)
 GROUP BY k ORDER BY k;
PREPARE consts AS
SELECT count(*) FILTER (WHERE (fp <-> '0123456789abcdef' < -2147483648) IS DISTINCT FROM false) AS lt_min,
       count(*) FILTER (WHERE (fp <-> '0123456789abcdef' >= -2147483648) IS DISTINCT FROM true) AS ge_min,
       count(*) FILTER (WHERE (fp <-> '0123456789abcdef' <= 2147483647) IS DISTINCT FROM true) AS le_max,
       count(*) FILTER (WHERE (fp <-> '0123456789abcdef' < 32) IS DISTINCT FROM (truth(fp, '0123456789abcdef') < 32)) AS lt_32,
       count(*) FILTER (WHERE (fp <-> '0123456789abcdef' <= NULL) IS NOT NULL) AS le_null,
       count(*) FILTER (WHERE (fp <-> '0123456789abcdef' < 5000000000) IS DISTINCT FROM true) AS lt_big,
       count(*) FILTER (WHERE (fp <-> '0123456789abcdef' >= -5000000000) IS DISTINCT FROM true) AS ge_big,
       count(*) FILTER (WHERE (fp <-> '0123456789abcdef' <= -5000000000) IS DISTINCT FROM false) AS le_small,
       count(*) FILTER (WHERE (fp <-> '0123456789abcdef' < 32::smallint) IS DISTINCT FROM (truth(fp, '0123456789abcdef') < 32)) AS lt_int2
  FROM docs WHERE fp IS NOT NULL;
EXECUTE consts;

-- 2. The forms, as the planner sees them.
EXPLAIN (COSTS OFF) SELECT id FROM docs WHERE fp <-> '0123456789abcdef' <= 3;
EXPLAIN (COSTS OFF) SELECT id FROM docs WHERE fp <-> '0123456789abcdef' < 4;
EXPLAIN (COSTS OFF) SELECT id FROM docs WHERE 3 >= fp <-> '0123456789abcdef';
EXPLAIN (COSTS OFF) SELECT id FROM docs WHERE fp <-> '0123456789abcdef' BETWEEN 0 AND 3;
EXPLAIN (COSTS OFF) SELECT id FROM docs WHERE NOT (fp <-> '0123456789abcdef' > 3);
EXPLAIN (COSTS OFF) SELECT id FROM docs WHERE '0123456789abcdef' <-> fp <= 3;
EXPLAIN (COSTS OFF) SELECT id FROM docs WHERE hamming_distance(fp, '0123456789abcdef') <= 3;
EXPLAIN (COSTS OFF) SELECT id FROM docs WHERE fp <-> '0123456789abcdef' = 3;
EXPLAIN (COSTS OFF) SELECT id FROM docs WHERE fp <-> simhash(text 'the quick brown fox') <= 3;
-- the fingerprint is folded at plan time: the same plan as a literal
SELECT simhash(text 'the quick brown fox') IS NOT NULL AS folded;

-- Results: each form returns exactly what the truth returns.
CREATE FUNCTION same(form text, truth text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE got int[]; want int[];
BEGIN
	EXECUTE 'SELECT array_agg(id ORDER BY id) FROM docs WHERE ' || form INTO got;
	EXECUTE 'SELECT array_agg(id ORDER BY id) FROM docs WHERE ' || truth INTO want;
	RETURN CASE WHEN got IS NOT DISTINCT FROM want
	            THEN 'same ' || coalesce(cardinality(got), 0) || ' rows'
	            ELSE 'DIFFERENT: ' || coalesce(got::text, '{}') || ' vs ' || coalesce(want::text, '{}') END;
END $$;
SELECT f.form, same(x.form, x.truth)
  FROM (VALUES
	('fp <-> ''%s'' <= 3', 'truth(fp, ''%s'') <= 3'),
	('fp <-> ''%s'' < 3', 'truth(fp, ''%s'') < 3'),
	('3 >= fp <-> ''%s''', 'truth(fp, ''%s'') <= 3'),
	('fp <-> ''%s'' BETWEEN 0 AND 3', 'truth(fp, ''%s'') BETWEEN 0 AND 3'),
	('NOT (fp <-> ''%s'' > 3)', 'NOT (truth(fp, ''%s'') > 3)'),
	('fp <-> ''%s'' = 2', 'truth(fp, ''%s'') = 2'),
	('fp <-> ''%s'' > 60', 'truth(fp, ''%s'') > 60')) f(form, truth),
       LATERAL (SELECT fp FROM docs WHERE id = 1500) c,
       LATERAL (SELECT format(f.form, c.fp) AS form, format(f.truth, c.fp) AS truth) x
 ORDER BY 1;

-- 3. Parameters: typed and untyped, custom and generic plans.
SELECT fp AS c1500 FROM docs WHERE id = 1500 \gset
PREPARE untyped AS SELECT array_agg(id) FROM (SELECT id FROM docs WHERE fp <-> $1 <= $2 ORDER BY id) s;
PREPARE typed(simhash, int) AS SELECT array_agg(id) FROM (SELECT id FROM docs WHERE fp <-> $1 <= $2 ORDER BY id) s;
PREPARE typed_lt(simhash, int) AS SELECT array_agg(id) FROM (SELECT id FROM docs WHERE fp <-> $1 < $2 ORDER BY id) s;
PREPARE typed_not(simhash, int) AS SELECT array_agg(id) FROM (SELECT id FROM docs WHERE NOT (fp <-> $1 > $2) ORDER BY id) s;
-- what drivers send: psycopg a small Python int as smallint, JDBC's setLong a bigint
PREPARE typed_int2(simhash, smallint) AS SELECT array_agg(id) FROM (SELECT id FROM docs WHERE fp <-> $1 <= $2 ORDER BY id) s;
PREPARE typed_int8(simhash, bigint) AS SELECT array_agg(id) FROM (SELECT id FROM docs WHERE fp <-> $1 < $2 ORDER BY id) s;
PREPARE count_int8(simhash, bigint) AS SELECT count(*) FROM docs WHERE fp <-> $1 < $2;
-- an untyped parameter compared with a distance is itself a distance
SELECT name, parameter_types FROM pg_prepared_statements ORDER BY name;
SET plan_cache_mode = force_custom_plan;
EXPLAIN (COSTS OFF) EXECUTE untyped('0123456789abcdef', 3);
EXPLAIN (COSTS OFF) EXECUTE typed('0123456789abcdef', 3);
EXPLAIN (COSTS OFF) EXECUTE typed_int2('0123456789abcdef', 3);
EXPLAIN (COSTS OFF) EXECUTE typed_int8('0123456789abcdef', 4);
EXECUTE untyped(:'c1500', 3);
EXECUTE typed(:'c1500', 3);
SET plan_cache_mode = force_generic_plan;
EXPLAIN (COSTS OFF) EXECUTE untyped('0123456789abcdef', 3);
EXPLAIN (COSTS OFF) EXECUTE typed('0123456789abcdef', 3);
EXPLAIN (COSTS OFF) EXECUTE typed_lt('0123456789abcdef', 3);
EXPLAIN (COSTS OFF) EXECUTE typed_not('0123456789abcdef', 3);
EXPLAIN (COSTS OFF) EXECUTE typed_int2('0123456789abcdef', 3);
EXPLAIN (COSTS OFF) EXECUTE typed_int8('0123456789abcdef', 4);
EXECUTE typed_int2(:'c1500', 3);
EXECUTE typed_int8(:'c1500', 4);
EXECUTE count_int8(:'c1500', 5000000000);
EXECUTE count_int8(:'c1500', -5000000000);
EXECUTE untyped(:'c1500', 3);
EXECUTE typed(:'c1500', 3);
EXECUTE typed_lt(:'c1500', 4);
EXECUTE typed_not(:'c1500', 3);
EXECUTE typed_lt(:'c1500', -2147483648);
EXECUTE typed(:'c1500', NULL);
EXECUTE typed(NULL, 3);
SELECT array_agg(id ORDER BY id) AS truth FROM docs
 WHERE truth(fp, (SELECT fp FROM docs WHERE id = 1500)) <= 3;
RESET plan_cache_mode;

-- 4. Inside functions, views, subqueries, CTEs and LATERAL.
CREATE FUNCTION near_plpgsql(q simhash, k int) RETURNS SETOF int LANGUAGE plpgsql STABLE AS $$
BEGIN
	RETURN QUERY SELECT id FROM docs WHERE fp <-> q <= k ORDER BY id;
END $$;
CREATE FUNCTION near_sql(q simhash, k int) RETURNS SETOF int LANGUAGE sql STABLE
	AS $$ SELECT id FROM docs WHERE fp <-> q <= k ORDER BY id $$;
CREATE FUNCTION near_sql_inlined(q simhash, k int) RETURNS SETOF int LANGUAGE sql STABLE
	AS $$ SELECT id FROM docs WHERE fp <-> q <= k $$;
SELECT array_agg(x ORDER BY x) FROM near_plpgsql(:'c1500', 3) x;
SELECT array_agg(x ORDER BY x) FROM near_sql(:'c1500', 3) x;
EXPLAIN (COSTS OFF) SELECT * FROM near_sql_inlined('0123456789abcdef', 3);
-- The plan of the statement PL/pgSQL runs, its variables as parameters:
CREATE FUNCTION near_plpgsql_plan(q simhash, k int) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE line text;
BEGIN
	FOR line IN EXPLAIN (COSTS OFF) SELECT id FROM docs WHERE fp <-> q <= k LOOP
		RETURN NEXT line;
	END LOOP;
END $$;
SELECT near_plpgsql_plan('0123456789abcdef', 3);

CREATE VIEW near_view AS
SELECT d.id, q.qid, d.fp <-> q.q AS distance
  FROM docs d JOIN queries q ON d.fp <-> q.q <= q.k;
-- the stored view still says <->
SELECT pg_get_viewdef('near_view'::regclass);
EXPLAIN (COSTS OFF) SELECT * FROM near_view WHERE qid = 7;
EXPLAIN (COSTS OFF)
SELECT * FROM (SELECT id, fp <-> '0123456789abcdef' AS d FROM docs) s WHERE d <= 3;
EXPLAIN (COSTS OFF)
WITH c AS (SELECT id, fp FROM docs) SELECT id FROM c WHERE fp <-> '0123456789abcdef' <= 3;
EXPLAIN (COSTS OFF)
SELECT q.qid, n.id FROM queries q,
       LATERAL (SELECT id FROM docs WHERE fp <-> q.q <= 3) n WHERE q.k = 3;
SELECT (SELECT array_agg(id ORDER BY id) FROM (SELECT id, fp <-> c.fp AS d FROM docs) s WHERE d <= 3) AS subquery,
       (WITH n AS MATERIALIZED (SELECT id, fp FROM docs)
        SELECT array_agg(id ORDER BY id) FROM n WHERE fp <-> c.fp <= 3) AS cte
  FROM docs c WHERE c.id = 1500;

-- 5. Joins: the all-pairs near-duplicate query.  The join clause becomes
-- an index condition on whichever side is indexed (docs is the second
-- operand in the first query, the first in the second).
CREATE TABLE probes AS SELECT id, fp FROM docs WHERE id % 100 = 0 OR id < 3;
ANALYZE probes;
EXPLAIN (COSTS OFF)
SELECT p.id, d.id FROM probes p JOIN docs d ON p.fp <-> d.fp <= 3;
EXPLAIN (COSTS OFF)
SELECT p.id, d.id FROM probes p JOIN docs d ON d.fp <-> p.fp < 4;
EXPLAIN (COSTS OFF)
SELECT a.id, b.id FROM docs a JOIN docs b ON a.fp <-> b.fp <= 3 AND a.id < b.id;
SELECT count(*) AS pairs,
       count(*) = (SELECT count(*) FROM probes p, docs d WHERE truth(p.fp, d.fp) <= 3) AS equals_truth
  FROM probes p JOIN docs d ON p.fp <-> d.fp <= 3;
-- ORDER BY fp <-> q LIMIT n: a k-NN index scan, in every spelling.
EXPLAIN (COSTS OFF)
SELECT id, fp <-> '0123456789abcdef' AS distance FROM docs ORDER BY fp <-> '0123456789abcdef' LIMIT 5;
EXPLAIN (COSTS OFF)
SELECT id, fp <-> '0123456789abcdef' AS distance FROM docs ORDER BY distance LIMIT 5;
EXPLAIN (COSTS OFF)
SELECT id FROM docs WHERE fp <-> '0123456789abcdef' <= 20 ORDER BY fp <-> '0123456789abcdef' LIMIT 5;
-- (without Memoize, which PostgreSQL 14 and later would put over the
-- subquery: the same plan on every version)
DO $$ BEGIN IF current_setting('server_version_num')::int >= 140000 THEN SET enable_memoize = off; END IF; END $$;
EXPLAIN (COSTS OFF)
SELECT p.id, n.id FROM probes p,
       LATERAL (SELECT id FROM docs d ORDER BY d.fp <-> p.fp LIMIT 3) n;
DO $$ BEGIN IF current_setting('server_version_num')::int >= 140000 THEN RESET enable_memoize; END IF; END $$;
CREATE VIEW by_distance AS
SELECT id, fp <-> '0123456789abcdef' AS distance FROM docs ORDER BY fp <-> '0123456789abcdef';
EXPLAIN (COSTS OFF) SELECT * FROM by_distance LIMIT 5;
PREPARE nearest(simhash, int) AS SELECT array_agg(distance) FROM
  (SELECT fp <-> $1 AS distance FROM docs ORDER BY fp <-> $1 LIMIT $2) s;
SET plan_cache_mode = force_generic_plan;
EXPLAIN (COSTS OFF) EXECUTE nearest('0123456789abcdef', 12);
EXECUTE nearest('0123456789abcdef', 12);
EXECUTE nearest(:'c1500', 12);
RESET plan_cache_mode;
SELECT array_agg(distance) AS truth FROM
  (SELECT truth(fp, '0123456789abcdef') AS distance FROM docs WHERE fp IS NOT NULL ORDER BY 1 LIMIT 12) s;
SELECT array_agg(distance) AS truth FROM
  (SELECT truth(fp, :'c1500') AS distance FROM docs WHERE fp IS NOT NULL ORDER BY 1 LIMIT 12) s;

-- 6. Volatile operands are not repeated: = with a volatile radius stays
-- the plain comparison; <= keeps each operand once.  Both evaluate the
-- radius once per row.
CREATE SEQUENCE calls;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM docs WHERE fp <-> '0123456789abcdef' = (nextval('calls') % 1 + 64)::int;
SELECT count(*) FROM docs WHERE fp <-> '0123456789abcdef' = (nextval('calls') % 1 + 64)::int;
SELECT currval('calls') = (SELECT count(*) FROM docs) AS once_per_row;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM docs WHERE fp <-> '0123456789abcdef' <= (nextval('calls') % 1 + 64)::int;
SELECT count(*) FROM docs WHERE fp <-> '0123456789abcdef' <= (nextval('calls') % 1 + 64)::int;
SELECT currval('calls') = 2 * (SELECT count(*) FROM docs) AS once_per_row;
-- the center comes from another column: not cheap to repeat, so = is not split
EXPLAIN (COSTS OFF)
SELECT count(*) FROM docs d, queries q WHERE d.fp <-> simhash(q.qid::text) = 3;

-- 7. Forms that are not rewritten stay correct.
EXPLAIN (COSTS OFF) SELECT id FROM docs WHERE fp <-> '0123456789abcdef' <= ANY ('{2,3}');
SELECT count(*) FILTER (WHERE (fp <-> '0123456789abcdef' <= ANY ('{2,30}')) IS DISTINCT FROM (truth(fp, '0123456789abcdef') <= ANY ('{2,30}'))) AS any_mismatches
  FROM docs;
-- a numeric radius is compared by core's numeric_le
EXPLAIN (COSTS OFF) SELECT id FROM docs WHERE fp <-> '0123456789abcdef' <= 3.5;
-- the extension's schema off the search_path: <= resolves to core's int4le
CREATE SCHEMA elsewhere;
SET search_path = elsewhere;
CREATE TABLE far (fp public.simhash);
INSERT INTO far SELECT fp FROM public.docs;
EXPLAIN (COSTS OFF) SELECT count(*) FROM far WHERE fp OPERATOR(public.<->) '0123456789abcdef' <= 32;
SELECT count(*) FROM far WHERE fp OPERATOR(public.<->) '0123456789abcdef' <= 32;
RESET search_path;
SELECT count(*) FROM docs WHERE fp <-> '0123456789abcdef' <= 32;
DROP SCHEMA elsewhere CASCADE;
-- stored distances compare as integers: hash joins and btree indexes work
CREATE TABLE stored AS SELECT id, fp <-> '0123456789abcdef' AS d FROM docs;
SELECT pg_typeof(d) FROM stored LIMIT 1;
CREATE INDEX ON stored (d);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM stored WHERE d <= 20;
RESET enable_seqscan;
EXPLAIN (COSTS OFF) SELECT count(*) FROM stored a JOIN stored b ON a.d = b.d;

-- 8. What clients see: <-> gives simhash_distance in SQL, int4 on the wire
-- (\gdesc shows the type OID the server sends: a domain's base type).
SELECT pg_typeof('0123456789abcdef'::simhash <-> '0123456789abcdee') AS sql_type;
SELECT '0123456789abcdef'::simhash <-> '0123456789abcdee' AS distance \gdesc
EXPLAIN (VERBOSE, COSTS OFF) SELECT fp <-> '0123456789abcdef' FROM docs WHERE id = 10;
-- comparisons in a select list are rewritten too (and exact: section 1)
EXPLAIN (VERBOSE, COSTS OFF)
SELECT fp <-> '0123456789abcdef' <= 3, fp <-> '0123456789abcdef' > 3 FROM docs WHERE id = 10;

-- 9. Estimates: the rewritten clause is not the default one third.
CREATE FUNCTION estimated_rows(query text) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE plan json;
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON) ' || query INTO plan;
	RETURN (plan -> 0 -> 'Plan' ->> 'Plan Rows')::float8;
END $$;
SELECT estimated_rows('SELECT * FROM docs WHERE fp <-> ''0123456789abcdef'' <= 3') < 50 AS small_radius,
       estimated_rows('SELECT * FROM docs WHERE fp <-> ''0123456789abcdef'' <= 64') > 9900 AS everything,
       estimated_rows('SELECT * FROM docs WHERE fp <-> ''0123456789abcdef'' <= -1') <= 1 AS nothing,
       estimated_rows('SELECT * FROM docs WHERE fp <@ simhash_ball(''0123456789abcdef'', 3)') < 50 AS ball;

-- 10. The first query of a fresh connection, nothing preloaded: the
-- library is loaded when the planner first calls the support function
-- (the query names no simhash value, so nothing else loads it earlier).
\c
SELECT count(*) AS preloaded FROM pg_settings
 WHERE name IN ('shared_preload_libraries', 'session_preload_libraries', 'local_preload_libraries')
   AND setting <> '';
EXPLAIN (COSTS OFF)
SELECT p.id, d.id FROM probes p JOIN docs d ON p.fp <-> d.fp <= 3;

-- The tests after this one share the database: leave nothing behind.
SET client_min_messages = warning;
DROP TABLE docs, queries, probes, stored CASCADE;
DROP FUNCTION truth, same, near_plpgsql, near_sql_inlined, near_plpgsql_plan, estimated_rows;
DROP SEQUENCE calls;
RESET client_min_messages;

-- 11. The OIDs the support function caches follow the extension: dropped
-- and created again in the same session, the new objects are recognised.
SET client_min_messages = warning;
DROP EXTENSION simhash CASCADE;
CREATE EXTENSION simhash;
RESET client_min_messages;
CREATE TABLE again (id int, fp simhash);
INSERT INTO again SELECT g, ('x' || substr(md5(g::text), 1, 16))::bit(64)::bigint::simhash
  FROM generate_series(1, 5000) g;
CREATE INDEX again_fp ON again USING simhash (fp);
ANALYZE again;
EXPLAIN (COSTS OFF) SELECT id FROM again WHERE fp <-> '0123456789abcdef' <= 3;
EXPLAIN (COSTS OFF) SELECT id FROM again ORDER BY fp <-> '0123456789abcdef' LIMIT 3;
DROP TABLE again;

-- 12. pg_dump keeps what was written: a view with distance comparisons,
-- dumped and restored into another database, still reads <-> and <=, and
-- is still rewritten there.
CREATE TABLE kept (id int, fp simhash);
INSERT INTO kept SELECT g, ('x' || substr(md5(g::text), 1, 16))::bit(64)::bigint::simhash
  FROM generate_series(1, 5000) g;
CREATE INDEX kept_fp ON kept USING simhash (fp);
CREATE VIEW kept_near AS
SELECT id, fp <-> '0123456789abcdef' AS distance FROM kept
 WHERE fp <-> '0123456789abcdef' <= 3 OR '0123456789abcdef' <-> fp < 2::smallint;
\! pg_dump --no-owner -t kept -t kept_near contrib_regression > results/planner_dump.sql
DROP DATABASE IF EXISTS simhash_planner_restored;
CREATE DATABASE simhash_planner_restored;
\c simhash_planner_restored
CREATE EXTENSION simhash;
\! psql -X -q -v ON_ERROR_STOP=1 -d simhash_planner_restored -f results/planner_dump.sql >/dev/null && echo restored
ANALYZE kept;
-- (PostgreSQL 16 and later leave out the table's name: taken out here too)
SELECT regexp_replace(pg_get_viewdef('kept_near'::regclass), 'kept\.', '', 'g') AS viewdef;
EXPLAIN (COSTS OFF) SELECT * FROM kept_near;
\c contrib_regression
DROP DATABASE simhash_planner_restored;
DROP VIEW kept_near;
DROP TABLE kept;
