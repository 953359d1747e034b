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

RESET simhash.batch_inserts;

DROP TABLE skew;
DROP FUNCTION skew_answers(regclass, simhash, integer);
