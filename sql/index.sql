-- The simhash index access method: plans, and answers identical to a
-- sequential scan for every radius, equality and nearest neighbours.

-- Deterministic fingerprints: md5 bits, plus clusters of near-duplicates
-- (1 to 6 bits away from an original) and exact duplicates.
CREATE FUNCTION pseudo_fp(i integer) RETURNS simhash
	LANGUAGE sql IMMUTABLE
	AS $$ SELECT (('x' || substr(md5(i::text), 1, 16))::bit(64))::simhash $$;
CREATE FUNCTION flip_bits(fp simhash, seed integer, n integer) RETURNS simhash
	LANGUAGE sql IMMUTABLE
	AS $$ SELECT (fp::bigint # coalesce(bit_or(1::bigint << ((seed * 7 + k * 13) % 64)), 0))::simhash
	        FROM generate_series(1, n) k $$;

-- No autovacuum: the estimates below use the statistics of the ANALYZE that
-- follows the load, which a slower server (assert-enabled) would see replaced.
CREATE TABLE docs (id integer PRIMARY KEY, site integer, fp simhash)
  WITH (autovacuum_enabled = off);
INSERT INTO docs SELECT g, g % 10, pseudo_fp(g) FROM generate_series(1, 4000) g;
INSERT INTO docs SELECT 4000 + g, g % 10, flip_bits(pseudo_fp(g % 50), g, 1 + g % 6)
  FROM generate_series(1, 1000) g;
INSERT INTO docs SELECT 5000 + g, 3, pseudo_fp(7) FROM generate_series(1, 700) g;
INSERT INTO docs VALUES (6000, 1, NULL);

CREATE INDEX docs_fp ON docs USING simhash (fp);
CREATE INDEX docs_site ON docs (site);
SELECT simhash_index_check('docs_fp');
ANALYZE docs;

-- Plans: each supported operator goes through the index.
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM docs WHERE fp <@ simhash_ball('0123456789abcdef', 3);
EXPLAIN (COSTS OFF) SELECT id FROM docs WHERE simhash_ball('0123456789abcdef', 3) @> fp;
EXPLAIN (COSTS OFF) SELECT id FROM docs WHERE fp = '0123456789abcdef';
EXPLAIN (COSTS OFF) SELECT id, fp <-> '0123456789abcdef' FROM docs
 ORDER BY fp <-> '0123456789abcdef' LIMIT 5;
SET enable_indexscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM docs
 WHERE site = 3 AND fp <@ simhash_ball('0123456789abcdef', 3);
RESET enable_indexscan;

-- Radius search through the index (index scan, then bitmap scan) equals
-- hamming_distance <= r over a sequential scan, for every radius 0..64 and
-- beyond, from centers inside clusters, near them, and far from anything.
CREATE TEMP TABLE centers AS
SELECT fp AS c FROM docs WHERE id IN (7, 11, 4001, 4013, 4500, 3999)
UNION ALL SELECT flip_bits(pseudo_fp(11), 5, 2)
UNION ALL SELECT '0000000000000000';
CREATE TEMP TABLE radii AS SELECT r FROM generate_series(-1, 66) r;

SET enable_bitmapscan = off;
CREATE TEMP TABLE via_index AS
SELECT c, r, (SELECT array_agg(id ORDER BY id) FROM docs WHERE fp <@ simhash_ball(c, r)) AS ids
  FROM centers, radii;
RESET enable_bitmapscan;
SET enable_indexscan = off;
CREATE TEMP TABLE via_bitmap AS
SELECT c, r, (SELECT array_agg(id ORDER BY id) FROM docs WHERE fp <@ simhash_ball(c, r)) AS ids
  FROM centers, radii;
RESET enable_indexscan;
SET enable_seqscan = on;
SET enable_indexscan = off;
SET enable_bitmapscan = off;
CREATE TEMP TABLE via_seqscan AS
SELECT c, r, (SELECT array_agg(id ORDER BY id) FROM docs WHERE fp <-> c <= r) AS ids
  FROM centers, radii;
RESET enable_indexscan;
RESET enable_bitmapscan;
SET enable_seqscan = off;

SELECT count(*) AS cases,
       count(*) FILTER (WHERE s.ids IS DISTINCT FROM i.ids) AS index_differs,
       count(*) FILTER (WHERE s.ids IS DISTINCT FROM b.ids) AS bitmap_differs,
       sum(cardinality(s.ids)) AS rows_compared
  FROM via_seqscan s JOIN via_index i USING (c, r) JOIN via_bitmap b USING (c, r);

-- Equality through the index, and the exact duplicates.
SELECT count(*) FROM docs WHERE fp = pseudo_fp(7);
SELECT count(*) FROM docs WHERE fp = '0000000000000000';
SELECT count(*) FROM docs WHERE fp = NULL;
SELECT count(*) FROM docs WHERE fp <@ NULL;

-- Nearest neighbours: the order and distances of a sequential sort.
CREATE TEMP TABLE knn_index AS
SELECT c, array_agg(d ORDER BY n) AS ds
  FROM centers, LATERAL (SELECT fp <-> c AS d, row_number() OVER () AS n
                           FROM (SELECT fp FROM docs ORDER BY fp <-> c LIMIT 40) s) k
 GROUP BY c;
SET enable_indexscan = off;
SET enable_bitmapscan = off;
SET enable_seqscan = on;
CREATE TEMP TABLE knn_seqscan AS
SELECT c, array_agg(d ORDER BY n) AS ds
  FROM centers, LATERAL (SELECT fp <-> c AS d, row_number() OVER () AS n
                           FROM (SELECT fp FROM docs ORDER BY fp <-> c LIMIT 40) s) k
 GROUP BY c;
RESET enable_indexscan;
RESET enable_bitmapscan;
SET enable_seqscan = off;
SELECT count(*) AS centers, count(*) FILTER (WHERE k.ds IS DISTINCT FROM s.ds) AS differ
  FROM knn_seqscan s JOIN knn_index k USING (c);
-- Asking for more rows than exist returns every non-NULL row, in order.
SELECT count(*), bool_and(d >= prev) AS ordered
  FROM (SELECT d, lag(d::int, 1, 0) OVER () AS prev
          FROM (SELECT fp <-> '0000000000000000' AS d FROM docs
                 ORDER BY fp <-> '0000000000000000' LIMIT 100000) s) s2;
-- A ball qual and an ORDER BY together.
SELECT id, fp <-> pseudo_fp(11) AS d FROM docs
 WHERE fp <@ simhash_ball(pseudo_fp(11), 6)
 ORDER BY fp <-> pseudo_fp(11), id LIMIT 8;

-- No index-only scans (unsafe against concurrent VACUUM on standbys), not
-- even for a query that needs no column; such queries still work.
VACUUM docs;
EXPLAIN (COSTS OFF) SELECT fp FROM docs WHERE fp <@ simhash_ball(pseudo_fp(11), 6);
EXPLAIN (COSTS OFF) SELECT count(*) FROM (SELECT 1 FROM docs ORDER BY fp <-> NULL LIMIT 5) s;
SELECT count(*), min(fp <-> pseudo_fp(11)), max(fp <-> pseudo_fp(11)),
       bool_and(hamming_distance(fp, pseudo_fp(11)) <= 6)
  FROM docs WHERE fp <@ simhash_ball(pseudo_fp(11), 6);
SELECT array_agg(fp <-> pseudo_fp(11)) FROM (SELECT fp FROM docs ORDER BY fp <-> pseudo_fp(11) LIMIT 6) s;
SELECT count(*) FROM (SELECT 1 FROM docs ORDER BY fp <-> NULL LIMIT 5) s;
SELECT count(*) FROM (SELECT 1 FROM docs ORDER BY fp <-> NULL) s;

-- Inserts, updates, deletes and VACUUM keep the index exact.
INSERT INTO docs SELECT 10000 + g, g % 10, flip_bits(pseudo_fp(g % 30), g * 3, 1 + g % 4)
  FROM generate_series(1, 3000) g;
UPDATE docs SET fp = flip_bits(fp, id, 2) WHERE id % 7 = 0;
DELETE FROM docs WHERE id % 5 = 0;
VACUUM docs;
SELECT simhash_index_check('docs_fp');
SELECT count(*) AS differ FROM centers, generate_series(0, 12) r
 WHERE (SELECT array_agg(id ORDER BY id) FROM docs WHERE fp <@ simhash_ball(c, r))
       IS DISTINCT FROM
       (SELECT array_agg(id ORDER BY id) FROM docs WHERE hamming_distance(fp, c) <= r);

-- Every layout (blocks 1 to 16) is exact too.
CREATE TEMP TABLE layouts (blocks integer, differ bigint);
DO $$
DECLARE
	m integer;
	n bigint;
BEGIN
	FOREACH m IN ARRAY ARRAY[1, 2, 3, 5, 8, 13, 16] LOOP
		EXECUTE format('CREATE INDEX docs_fp_%s ON docs USING simhash (fp) WITH (blocks = %s, fillfactor = 50)', m, m);
		PERFORM simhash_index_check(format('docs_fp_%s', m)::regclass);
		SET LOCAL enable_seqscan = off;
		SELECT count(*) INTO n FROM centers, generate_series(0, 20, 2) r
		 WHERE (SELECT array_agg(id ORDER BY id) FROM docs WHERE fp <@ simhash_ball(c, r))
		       IS DISTINCT FROM
		       (SELECT array_agg(id ORDER BY id) FROM docs WHERE hamming_distance(fp, c) <= r);
		INSERT INTO layouts VALUES (m, n);
		EXECUTE format('DROP INDEX docs_fp_%s', m);
	END LOOP;
END
$$;
SELECT * FROM layouts ORDER BY blocks;

-- Options are validated, and frozen in the metapage.
CREATE INDEX ON docs USING simhash (fp) WITH (blocks = 0);
CREATE INDEX ON docs USING simhash (fp) WITH (blocks = 17);
CREATE INDEX ON docs USING simhash (fp) WITH (fillfactor = 5);
CREATE INDEX ON docs USING simhash (fp) WITH (colour = 1);
CREATE INDEX ON docs USING simhash (fp, site);
-- A changed option takes effect at the next REINDEX; until then the
-- metapage's frozen layout is used.
ALTER INDEX docs_fp SET (blocks = 8);
SELECT count(*) FROM docs WHERE fp <@ simhash_ball(pseudo_fp(7), 2);
SELECT simhash_index_check('docs_fp');
SELECT simhash_index_check('docs_site');
SELECT simhash_index_check('docs');

-- An unlogged table's index starts from its init fork.
CREATE UNLOGGED TABLE scratch (fp simhash);
CREATE INDEX scratch_fp ON scratch USING simhash (fp);
INSERT INTO scratch SELECT pseudo_fp(g) FROM generate_series(1, 2000) g;
SELECT simhash_index_check('scratch_fp');
SELECT count(*) FROM scratch WHERE fp <@ simhash_ball(pseudo_fp(5), 0);
TRUNCATE scratch;
SELECT simhash_index_check('scratch_fp');
SELECT count(*) FROM scratch WHERE fp <@ simhash_ball(pseudo_fp(5), 64);

-- Inserts cache the metapage's root slots (rd_amcache).  TRUNCATE of a
-- table created in the same transaction empties the index and rebuilds it
-- in the same file; the cached copy must not outlive that.  blocks = 6:
-- each row is two WAL records (tables 0-3, then 4-5); 1,500 copies of one
-- fingerprint grow overflow chains in every table, where the one-record
-- path falls back to per-table inserts.  (Inserts written at once, not
-- batched: see below for batching.)
BEGIN;
SET LOCAL simhash.batch_inserts = off;
CREATE TABLE fresh (id integer, fp simhash);
CREATE INDEX fresh_fp ON fresh USING simhash (fp) WITH (blocks = 6);
INSERT INTO fresh SELECT g, pseudo_fp(g) FROM generate_series(1, 5000) g;
TRUNCATE fresh;
INSERT INTO fresh SELECT g, pseudo_fp(g) FROM generate_series(5001, 8000) g;
INSERT INTO fresh SELECT 10000 + g, pseudo_fp(3) FROM generate_series(1, 1500) g;
INSERT INTO fresh SELECT 20000 + g, flip_bits(pseudo_fp(g % 40), g, 1 + g % 5)
  FROM generate_series(1, 2000) g;
SELECT simhash_index_check('fresh_fp');
SET LOCAL enable_seqscan = off;
SELECT count(*) FROM fresh WHERE fp <@ simhash_ball('0000000000000000', 64);
SELECT count(*) AS differ FROM generate_series(0, 45) c, generate_series(0, 8, 2) r
 WHERE (SELECT array_agg(id ORDER BY id) FROM fresh WHERE fp <@ simhash_ball(pseudo_fp(c), r))
       IS DISTINCT FROM
       (SELECT array_agg(id ORDER BY id) FROM fresh WHERE hamming_distance(fp, pseudo_fp(c)) <= r);
COMMIT;
DROP TABLE fresh;

-- A transaction's inserts are batched in backend memory and written at
-- commit, before any scan of the index in the same backend, before plans
-- that may use parallel workers and before utility statements; entries of
-- aborted subtransactions are dropped.  Every case ends with the check
-- (every visible row in every table, no TID twice) and counts.
CREATE TABLE batch (id integer, fp simhash);
CREATE INDEX batch_fp ON batch USING simhash (fp);
BEGIN;
INSERT INTO batch SELECT g, pseudo_fp(g) FROM generate_series(1, 3000) g;
SET LOCAL enable_seqscan = off;
-- seen by this transaction's own index scans and bitmap scans
SELECT count(*) FROM batch WHERE fp <@ simhash_ball(pseudo_fp(17), 0);
INSERT INTO batch VALUES (3001, pseudo_fp(3001));
SET LOCAL enable_indexscan = off;
SELECT count(*) FROM batch WHERE fp <@ simhash_ball(pseudo_fp(3001), 0);
RESET enable_indexscan;
-- rolled back subtransactions: SAVEPOINT and PL/pgSQL exception blocks
INSERT INTO batch VALUES (3002, pseudo_fp(3002));
SAVEPOINT s;
INSERT INTO batch SELECT g, pseudo_fp(g) FROM generate_series(4001, 4500) g;
ROLLBACK TO s;
DO $$
BEGIN
	INSERT INTO batch SELECT g, pseudo_fp(g) FROM generate_series(5001, 5500) g;
	BEGIN
		INSERT INTO batch SELECT g, pseudo_fp(g) FROM generate_series(6001, 6500) g;
		RAISE EXCEPTION 'undo';
	EXCEPTION WHEN raise_exception THEN
		NULL;
	END;
END
$$;
SAVEPOINT t;
INSERT INTO batch VALUES (3003, pseudo_fp(3003));
RELEASE t;
-- a parallel worker scans for the leader
-- (force_parallel_mode, renamed debug_parallel_query in PostgreSQL 16)
SELECT set_config(CASE WHEN current_setting('server_version_num')::int >= 160000
                       THEN 'debug_parallel_query' ELSE 'force_parallel_mode' END,
                  'on', true) AS parallel_query;
SET LOCAL max_parallel_workers_per_gather = 2;
-- (a literal: pseudo_fp is not marked parallel safe) pseudo_fp(5100)
EXPLAIN (COSTS OFF) SELECT count(*) FROM batch WHERE fp <@ simhash_ball('91bc333f6967019a', 0);
INSERT INTO batch VALUES (3004, '91bc333f6967019a');
SELECT count(*) FROM batch WHERE fp <@ simhash_ball('91bc333f6967019a', 0);
RESET max_parallel_workers_per_gather;
COMMIT;
SELECT simhash_index_check('batch_fp');
SET enable_seqscan = off;
SELECT count(*), min(id), max(id) FROM batch WHERE fp <@ simhash_ball('0000000000000000', 64);
SELECT count(*) FROM batch WHERE id > 4000 AND id <= 4500 OR id > 6000;
RESET enable_seqscan;
-- REINDEX, TRUNCATE and DROP INDEX after batched inserts, in one transaction
BEGIN;
INSERT INTO batch SELECT g, pseudo_fp(g) FROM generate_series(7001, 7500) g;
REINDEX INDEX batch_fp;
INSERT INTO batch SELECT g, pseudo_fp(g) FROM generate_series(7501, 8000) g;
SELECT simhash_index_check('batch_fp');
COMMIT;
SELECT simhash_index_check('batch_fp');
BEGIN;
INSERT INTO batch SELECT g, pseudo_fp(g) FROM generate_series(8001, 8500) g;
SAVEPOINT u;
TRUNCATE batch;
INSERT INTO batch SELECT g, pseudo_fp(g) FROM generate_series(9001, 9100) g;
ROLLBACK TO u;
INSERT INTO batch SELECT g, pseudo_fp(g) FROM generate_series(8501, 8600) g;
COMMIT;
SELECT simhash_index_check('batch_fp');
SET enable_seqscan = off;
SELECT count(*), max(id) FROM batch WHERE fp <@ simhash_ball('0000000000000000', 64);
RESET enable_seqscan;
BEGIN;
INSERT INTO batch SELECT g, pseudo_fp(g) FROM generate_series(10001, 10100) g;
DROP INDEX batch_fp;
COMMIT;
-- An index that backs an exclusion constraint is written at once: other
-- transactions look for conflicting uncommitted rows in it.
CREATE TABLE excl (fp simhash, EXCLUDE USING simhash (fp WITH =));
INSERT INTO excl VALUES (pseudo_fp(1));
INSERT INTO excl VALUES (pseudo_fp(1));
DROP TABLE batch, excl;

-- Planner: a radius-3 lookup among many rows uses the index; radius 30
-- on a small table does not.
RESET enable_seqscan;
CREATE TABLE many (fp simhash);
INSERT INTO many SELECT pseudo_fp(g) FROM generate_series(1, 100000) g;
CREATE INDEX ON many USING simhash (fp);
ANALYZE many;
EXPLAIN (COSTS OFF) SELECT * FROM many WHERE fp <@ simhash_ball('0123456789abcdef', 3);
-- A build that outgrows maintenance_work_mem loads what fits and inserts
-- the rest, with a notice.
SET maintenance_work_mem = '1MB';
CREATE INDEX many_small_mem ON many USING simhash (fp);
RESET maintenance_work_mem;
SELECT simhash_index_check('many_small_mem');
SET enable_seqscan = off;
SELECT count(*) FROM many WHERE fp <@ simhash_ball(pseudo_fp(99999), 0);
SELECT count(*) FROM many WHERE fp <@ simhash_ball(pseudo_fp(99999), 64);
RESET enable_seqscan;
DROP INDEX many_small_mem;
EXPLAIN (COSTS OFF) SELECT * FROM many ORDER BY fp <-> '0123456789abcdef' LIMIT 10;
CREATE TABLE few (fp simhash);
INSERT INTO few SELECT pseudo_fp(g) FROM generate_series(1, 1000) g;
CREATE INDEX ON few USING simhash (fp);
ANALYZE few;
EXPLAIN (COSTS OFF) SELECT * FROM few WHERE fp <@ simhash_ball('0123456789abcdef', 30);
-- Selectivity: the binomial tail for random codes (P(d <= 30) = 0.339),
-- or what the statistics sample shows when that is more: the 700 copies
-- of one fingerprint in docs are among its most common values.
CREATE FUNCTION estimated_rows(query text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	plan json;
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON) ' || query INTO plan;
	RETURN (plan->0->'Plan'->>'Plan Rows')::bigint;
END
$$;
SELECT estimated_rows($$SELECT * FROM many WHERE fp <@ simhash_ball('0123456789abcdef', 3)$$) AS radius_3,
       estimated_rows($$SELECT * FROM many WHERE fp <@ simhash_ball('0123456789abcdef', 30)$$)
         BETWEEN 30000 AND 60000 AS radius_30_about_a_third,
       estimated_rows($$SELECT * FROM many WHERE fp <@ simhash_ball('0123456789abcdef', 64)$$) AS radius_64,
       estimated_rows($$SELECT * FROM many WHERE fp <@ simhash_ball('0123456789abcdef', -1)$$) AS radius_minus_1,
       estimated_rows($$SELECT * FROM docs WHERE fp <@ simhash_ball(pseudo_fp(7), 1)$$)
         BETWEEN 600 AND 1000 AS common_value_seen;

DROP TABLE docs, scratch, many, few;
DROP FUNCTION pseudo_fp(integer), flip_bits(simhash, integer, integer), estimated_rows(text);
