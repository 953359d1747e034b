-- Skewed data in a simhash index: many copies of one fingerprint (empty or
-- boilerplate documents) and near-duplicates of one document.  The index
-- stays within 2x of N entries' size (14 bytes per block table), inserts of
-- exact duplicates read a bounded number of pages per row (no walk of the
-- whole overflow chain), and answers equal a sequential scan.
CREATE FUNCTION skew_answers(tab regclass, q simhash, r integer) RETURNS boolean
	LANGUAGE plpgsql AS $$
DECLARE
	ix tid[];
	sq tid[];
BEGIN
	SET LOCAL enable_seqscan = off;
	SET LOCAL enable_bitmapscan = off;
	EXECUTE format('SELECT array_agg(ctid ORDER BY ctid) FROM %s WHERE fp <@ simhash_ball($1, $2)', tab)
		INTO ix USING q, r;
	SET LOCAL enable_seqscan = on;
	SET LOCAL enable_indexscan = off;
	EXECUTE format('SELECT array_agg(ctid ORDER BY ctid) FROM %s WHERE hamming_distance(fp, $1) <= $2', tab)
		INTO sq USING q, r;
	RETURN ix IS NOT DISTINCT FROM sq;
END $$;

-- 600 copies of one value, written row by row: 4,357 pages before splits
-- isolated a dominant value at once; now a few pages per block table.
CREATE TABLE skew (fp simhash);
CREATE INDEX skew_fp ON skew USING simhash (fp);
SET simhash.batch_inserts = off;
INSERT INTO skew SELECT 'ffffffffffffffff' FROM generate_series(1, 600);
SELECT
       pg_relation_size('skew_fp') / 8192 <= 24 AS "at most 24 pages";
SELECT simhash_index_check('skew_fp');

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

DROP TABLE skew, dups, neardups, grown;
DROP FUNCTION skew_answers(regclass, simhash, integer);
