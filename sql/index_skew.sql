-- Skewed data in a simhash index: many copies of one fingerprint (empty or
-- boilerplate documents) and near-duplicates of one document.  The index
-- stays within 2x of N entries' size (14 bytes per block table; copies of
-- one value fill single-value pages, 6 bytes each), inserts of
-- exact duplicates read a bounded number of pages per row (no walk of the
-- whole overflow chain), and answers equal a sequential scan.
-- Whether two queries of table tab with parameters q and n (the first by
-- an index scan, the second by a sequential scan) give the same text.
CREATE FUNCTION skew_same(ixq text, seqq text, tab regclass, q simhash, n integer)
	RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
	ix text;
	sq text;
BEGIN
	SET LOCAL enable_seqscan = off;
	SET LOCAL enable_bitmapscan = off;
	EXECUTE format(ixq, tab) INTO ix USING q, n;
	SET LOCAL enable_seqscan = on;
	SET LOCAL enable_indexscan = off;
	EXECUTE format(seqq, tab) INTO sq USING q, n;
	RETURN ix IS NOT DISTINCT FROM sq;
END $$;
-- The rows within r of q; the distances of the k nearest rows.
CREATE FUNCTION skew_answers(tab regclass, q simhash, r integer) RETURNS boolean
	LANGUAGE sql AS $$
	SELECT skew_same('SELECT array_agg(ctid ORDER BY ctid)::text FROM %s WHERE fp <@ simhash_ball($1, $2)',
	                 'SELECT array_agg(ctid ORDER BY ctid)::text FROM %s WHERE hamming_distance(fp, $1) <= $2',
	                 tab, q, r) $$;
CREATE FUNCTION skew_nearest(tab regclass, q simhash, k integer) RETURNS boolean
	LANGUAGE sql AS $$
	SELECT skew_same('SELECT array_agg(d)::text FROM (SELECT fp <-> $1 AS d FROM %s ORDER BY fp <-> $1 LIMIT $2) s',
	                 'SELECT array_agg(d)::text FROM (SELECT hamming_distance(fp, $1) AS d FROM %s WHERE fp IS NOT NULL ORDER BY 1 LIMIT $2) s',
	                 tab, q, k) $$;

-- 600 copies of one value, written row by row: 4,357 pages before splits
-- isolated a dominant value at once, then 21 (a bucket, a directory page
-- and overflow pages per block table: 2.6x the entries); now within 2x of
-- 600 x 4 x 14 bytes, because a full page of one value keeps it once and
-- 6-byte heap TIDs (single-value pages: 5 pages).
CREATE TABLE skew (fp simhash);
CREATE INDEX skew_fp ON skew USING simhash (fp);
SET simhash.batch_inserts = off;
INSERT INTO skew SELECT 'ffffffffffffffff' FROM generate_series(1, 600);
SELECT pg_relation_size('skew_fp') <= 2 * 600 * 4 * 14 AS "within 2x of 600 entries";
SELECT simhash_index_check('skew_fp');

-- N copies of one value for N from 400 to 6,000 (a value at either end of
-- the prefix space and one in the middle), written row by row, batched, and
-- by a build: the index is within 2x of N x 4 x 14 bytes at every N, also
-- where a bucket's single-value page and its one overflow page fill (1,356
-- and 2,712 copies) and the value gets buckets of its own.  (Below ~370
-- copies the empty index's five pages alone are more than 2x.)
CREATE FUNCTION skew_sizes(v simhash, mode text) RETURNS TABLE (n integer, within_2x boolean)
	LANGUAGE plpgsql AS $$
DECLARE
	done integer := 0;
BEGIN
	DROP TABLE IF EXISTS copies;
	CREATE TABLE copies (fp simhash);
	IF mode <> 'build' THEN
		CREATE INDEX copies_fp ON copies USING simhash (fp);
	END IF;
	PERFORM set_config('simhash.batch_inserts', (mode = 'batched')::text, true);
	FOREACH n IN ARRAY ARRAY[400, 600, 1000, 1356, 1357, 1600, 2000, 2712, 2713, 3000, 4100, 6000]
	LOOP
		INSERT INTO copies SELECT v FROM generate_series(done + 1, n);
		done := n;
		IF mode = 'build' THEN
			DROP INDEX IF EXISTS copies_fp;
			CREATE INDEX copies_fp ON copies USING simhash (fp);
		ELSE
			PERFORM count(*) FROM copies WHERE fp <@ simhash_ball(v, 0);	-- writes the batch
		END IF;
		within_2x := pg_relation_size('copies_fp') <= 2 * n * 4 * 14;
		RETURN NEXT;
	END LOOP;
	PERFORM simhash_index_check('copies_fp');
END $$;
SET client_min_messages = warning;
SELECT v, mode, array_agg(n ORDER BY n) FILTER (WHERE NOT within_2x) AS "N beyond 2x"
  FROM unnest(ARRAY['ffffffffffffffff', '0000000000000000', '8badf00d12345678']::simhash[]) v,
       unnest(ARRAY['row by row', 'batched', 'build']) mode,
       skew_sizes(v, mode)
 GROUP BY v, mode ORDER BY v, mode;
RESET client_min_messages;

-- 20,000 copies of one value, row by row: the pages read per row stay
-- bounded (the chain was walked from its head for every row: ~85 reads a
-- row on average), and the index is within 2x of 20,000 x 4 x 14 bytes.
CREATE TABLE dups (fp simhash);
CREATE INDEX dups_fp ON dups USING simhash (fp);
BEGIN;
SELECT pg_stat_get_xact_blocks_fetched('dups_fp'::regclass) AS reads \gset
INSERT INTO dups SELECT '0123456789abcdef' FROM generate_series(1, 20000);
SELECT (pg_stat_get_xact_blocks_fetched('dups_fp'::regclass) - :reads) / 20000.0 < 30
       AS "page reads per row bounded";
COMMIT;
SELECT pg_relation_size('dups_fp') <= 2 * 20000 * 4 * 14 AS "within 2x of the entries";
RESET simhash.batch_inserts;

-- The same batched: written at the next scan (or commit), the run of one
-- value a page per WAL record.
TRUNCATE dups;
BEGIN;
SELECT pg_stat_get_xact_blocks_fetched('dups_fp'::regclass) AS reads \gset
INSERT INTO dups SELECT '0123456789abcdef' FROM generate_series(1, 20000);
SET LOCAL enable_seqscan = off;
SELECT count(*) FROM dups WHERE fp = '0123456789abcdef';
SELECT (pg_stat_get_xact_blocks_fetched('dups_fp'::regclass) - :reads) / 20000.0 < 1
       AS "page reads per row bounded";
COMMIT;
SELECT pg_relation_size('dups_fp') <= 2 * 20000 * 4 * 14 AS "within 2x of the entries";
-- Appending to known chains, and later values splitting the buckets around
-- them, in both paths.
INSERT INTO skew SELECT 'ffffffffffffffff' FROM generate_series(1, 3000);
INSERT INTO dups SELECT ('x' || substr(md5(g::text), 1, 16))::bit(64)::simhash
  FROM generate_series(1, 3000) g;
SET simhash.batch_inserts = off;
INSERT INTO skew SELECT ('x' || substr(md5(g::text), 1, 16))::bit(64)::simhash
  FROM generate_series(1, 3000) g;
INSERT INTO dups SELECT '0123456789abcdef' FROM generate_series(1, 1000);
RESET simhash.batch_inserts;
SELECT simhash_index_check('skew_fp'), simhash_index_check('dups_fp');
SELECT pg_relation_size('skew_fp') <= 2 * 6600 * 4 * 14 AS "skew within 2x",
       pg_relation_size('dups_fp') <= 2 * 24000 * 4 * 14 AS "dups within 2x";
SELECT r, skew_answers('skew', 'ffffffffffffffff', r) AS skew,
       skew_answers('skew', 'fffffffffffff0ff', r) AS skew_near,
       skew_answers('dups', '0123456789abcdef', r) AS dups,
       skew_answers('dups', '0123456789abcdee', r) AS dups_near
  FROM unnest(ARRAY[0, 1, 3, 7, 12]) r;

-- 20,000 near-duplicates of one document (1 to 3 bits flipped): no more
-- pages than a fresh build of the same rows makes.
CREATE TABLE neardups (fp simhash);
CREATE INDEX neardups_fp ON neardups USING simhash (fp);
INSERT INTO neardups
  SELECT ('x0123456789abcdef'::bit(64)::bigint
          # (1::bigint << (g * 7 % 64))
          # CASE WHEN g % 3 > 0 THEN 1::bigint << (g * 13 % 64) ELSE 0 END
          # CASE WHEN g % 3 > 1 THEN 1::bigint << (g * 29 % 61) ELSE 0 END)::simhash
  FROM generate_series(1, 20000) g;
SELECT simhash_index_check('neardups_fp');
CREATE TEMP TABLE grown AS SELECT pg_relation_size('neardups_fp') AS size;
REINDEX INDEX neardups_fp;
SELECT (SELECT size FROM grown) <= pg_relation_size('neardups_fp') AS "no larger than a build";
SELECT r, skew_answers('neardups', '0123456789abcdef', r) FROM unnest(ARRAY[0, 2, 5]) r;

-- A dominant value mixed with other values that share its prefix in every
-- block table (blocks = 2: a table's prefix is the top 16 of its 32 bits)
-- or in some (blocks = 4), with values elsewhere, in both insert paths and
-- a build: single-value pages turn back into plain pages, chains hold both
-- forms, and the answers stay those of a sequential scan.
CREATE TABLE mix (id serial, fp simhash);
CREATE INDEX mix_fp2 ON mix USING simhash (fp) WITH (blocks = 2);
CREATE INDEX mix_fp4 ON mix USING simhash (fp);
SET simhash.batch_inserts = off;
INSERT INTO mix (fp) SELECT '0123456789abcdef' FROM generate_series(1, 1500);
INSERT INTO mix (fp)
  SELECT CASE WHEN g % 5 = 0 THEN ('x0123456789ab' || lpad(to_hex(g % 4096), 4, '0'))::bit(64)::simhash
              WHEN g % 5 = 1 THEN ('x0123' || lpad(to_hex(g % 4096), 4, '0') || '89abcdef')::bit(64)::simhash
              ELSE '0123456789abcdef' END
  FROM generate_series(1, 4000) g;
RESET simhash.batch_inserts;
INSERT INTO mix (fp)
  SELECT CASE WHEN g % 3 = 0 THEN ('x0123456789ab' || lpad(to_hex(g % 97), 4, '0'))::bit(64)::simhash
              ELSE '0123456789abcdef' END
  FROM generate_series(1, 4000) g;
SELECT simhash_index_check('mix_fp2'), simhash_index_check('mix_fp4');
SELECT pg_relation_size('mix_fp2') <= 2 * 9500 * 2 * 14 AS "2 blocks within 2x",
       pg_relation_size('mix_fp4') <= 2 * 9500 * 4 * 14 AS "4 blocks within 2x";
INSERT INTO mix (fp) SELECT ('x' || substr(md5(g::text), 1, 16))::bit(64)::simhash
  FROM generate_series(1, 2000) g;
SELECT simhash_index_check('mix_fp2'), simhash_index_check('mix_fp4');
SELECT r, skew_answers('mix', '0123456789abcdef', r) AS dominant,
       skew_answers('mix', '0123456789ab0042', r) AS same_prefix,
       skew_answers('mix', '0123456789abcdee', r) AS near,
       skew_nearest('mix', '0123456789abcdef', 2000) AS nearest,
       skew_nearest('mix', '0123456789ab0042', 30) AS nearest_other
  FROM unnest(ARRAY[0, 1, 3, 7, 12, 20]) r;

-- VACUUM removes copies from single-value pages (which keep their form),
-- inserts fill the room again, and once all copies are gone other values
-- take over the pages.
DELETE FROM mix WHERE fp = '0123456789abcdef' AND id % 3 = 0;
VACUUM mix;
SELECT simhash_index_check('mix_fp2'), simhash_index_check('mix_fp4');
SELECT r, skew_answers('mix', '0123456789abcdef', r) AS dominant,
       skew_answers('mix', '0123456789ab0042', r) AS same_prefix
  FROM unnest(ARRAY[0, 3, 12]) r;
SET simhash.batch_inserts = off;
INSERT INTO mix (fp) SELECT '0123456789abcdef' FROM generate_series(1, 1000);
RESET simhash.batch_inserts;
SELECT simhash_index_check('mix_fp2'), simhash_index_check('mix_fp4');
DELETE FROM mix WHERE fp = '0123456789abcdef';
VACUUM mix;
SET simhash.batch_inserts = off;
INSERT INTO mix (fp) SELECT ('x0123456789ab' || lpad(to_hex(g), 4, '0'))::bit(64)::simhash
  FROM generate_series(1, 3000) g;
RESET simhash.batch_inserts;
SELECT simhash_index_check('mix_fp2'), simhash_index_check('mix_fp4');
SELECT r, skew_answers('mix', '0123456789abcdef', r) AS dominant,
       skew_answers('mix', '0123456789ab0042', r) AS same_prefix,
       skew_nearest('mix', '0123456789ab0042', 100) AS nearest
  FROM unnest(ARRAY[0, 3, 12]) r;
REINDEX TABLE mix;
SELECT simhash_index_check('mix_fp2'), simhash_index_check('mix_fp4');
SELECT r, skew_answers('mix', '0123456789ab0042', r) AS same_prefix
  FROM unnest(ARRAY[0, 3, 12]) r;

DROP TABLE skew, dups, neardups, grown, mix, copies;
DROP FUNCTION skew_answers(regclass, simhash, integer);
DROP FUNCTION skew_nearest(regclass, simhash, integer);
DROP FUNCTION skew_same(text, text, regclass, simhash, integer);
DROP FUNCTION skew_sizes(simhash, text);
