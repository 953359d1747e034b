-- Ordering (unsigned 64-bit), btree and hash opclasses: equality, ORDER BY,
-- DISTINCT, GROUP BY, unique constraints, merge and hash joins, partitioning.

SELECT '8000000000000000'::simhash > '7fffffffffffffff'::simhash AS unsigned_order,
       'ffffffffffffffff'::simhash > '0000000000000000'::simhash AS all_ones_largest,
       '00000000000000ff'::simhash = '0x00000000000000FF'::simhash AS eq,
       '00000000000000ff'::simhash <> '00000000000000fe'::simhash AS ne,
       '0000000000000001'::simhash <= '0000000000000001'::simhash AS le,
       '0000000000000001'::simhash >= '0000000000000002'::simhash AS ge;

CREATE TABLE fps (id int PRIMARY KEY, fp simhash);
INSERT INTO fps
SELECT g, (hashint8(g)::bigint << 32 | (hashint8(g + 1000000)::bigint & 4294967295))::simhash
  FROM generate_series(1, 2000) g;
INSERT INTO fps SELECT id + 2000, fp FROM fps WHERE id <= 100;   -- duplicates
ANALYZE fps;

-- ORDER BY agrees with the order of the hex text (both unsigned).
SELECT count(*) AS order_violations
  FROM (SELECT fp, lag(fp) OVER (ORDER BY fp) AS prev FROM fps) r
 WHERE prev::text COLLATE "C" > fp::text COLLATE "C";
SELECT (SELECT fp FROM fps ORDER BY fp LIMIT 1) = (SELECT min(fp::text COLLATE "C")::simhash FROM fps) AS min_agrees,
       (SELECT fp FROM fps ORDER BY fp DESC LIMIT 1) = (SELECT max(fp::text COLLATE "C")::simhash FROM fps) AS max_agrees;

-- DISTINCT and GROUP BY, by sorting and by hashing.
SET enable_hashagg = off;
SELECT count(DISTINCT fp) AS distinct_sorted, (SELECT count(*) FROM (SELECT fp FROM fps GROUP BY fp HAVING count(*) = 2) g) AS pairs
  FROM fps;
RESET enable_hashagg;
SET enable_sort = off;
EXPLAIN (COSTS OFF) SELECT fp, count(*) FROM fps GROUP BY fp;
SELECT count(*) AS groups FROM (SELECT fp, count(*) FROM fps GROUP BY fp) g;
RESET enable_sort;

-- btree index: equality and range scans return what a sequential scan does.
CREATE INDEX fps_fp_btree ON fps USING btree (fp);
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM fps WHERE fp = '0000000000000001';
CREATE TEMP TABLE by_index AS
SELECT f.id, (SELECT count(*) FROM fps g WHERE g.fp = f.fp) AS eq,
       (SELECT count(*) FROM fps g WHERE g.fp < f.fp) AS lt
  FROM fps f;
RESET enable_seqscan;
RESET enable_bitmapscan;
SET enable_indexscan = off;
SET enable_bitmapscan = off;
SET enable_indexonlyscan = off;
SELECT count(*) AS index_vs_seqscan_mismatches
  FROM by_index b JOIN fps f USING (id)
 WHERE b.eq <> (SELECT count(*) FROM fps g WHERE g.fp = f.fp)
    OR b.lt <> (SELECT count(*) FROM fps g WHERE g.fp < f.fp);
RESET enable_indexscan;
RESET enable_bitmapscan;
RESET enable_indexonlyscan;

-- hash index (alone, so that the scans use it).
DROP INDEX fps_fp_btree;
CREATE INDEX fps_fp_hash ON fps USING hash (fp);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM fps WHERE fp = '0000000000000001';
SELECT count(*) AS hash_index_mismatches
  FROM fps f WHERE (SELECT count(*) FROM fps g WHERE g.fp = f.fp) <> CASE WHEN f.id <= 100 OR f.id > 2000 THEN 2 ELSE 1 END;
RESET enable_seqscan;

-- Unique constraint.
CREATE TABLE uniq (fp simhash UNIQUE);
INSERT INTO uniq VALUES ('0123456789abcdef');
INSERT INTO uniq VALUES ('0x0123456789ABCDEF');
DROP TABLE uniq;

-- Merge join and hash join give the same answer.
SET enable_hashjoin = off;
SET enable_nestloop = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM fps a JOIN fps b ON a.fp = b.fp;
SELECT count(*) AS merge_join_rows FROM fps a JOIN fps b ON a.fp = b.fp;
RESET enable_hashjoin;
SET enable_mergejoin = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM fps a JOIN fps b ON a.fp = b.fp;
SELECT count(*) AS hash_join_rows FROM fps a JOIN fps b ON a.fp = b.fp;
RESET enable_mergejoin;
RESET enable_nestloop;

-- Hash partitioning on a simhash key (a distribution key).
CREATE TABLE parts (fp simhash, id int) PARTITION BY HASH (fp);
CREATE TABLE parts_0 PARTITION OF parts FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE parts_1 PARTITION OF parts FOR VALUES WITH (MODULUS 2, REMAINDER 1);
INSERT INTO parts SELECT fp, id FROM fps;
SELECT (SELECT count(*) FROM parts_0) > 500 AND (SELECT count(*) FROM parts_1) > 500 AS both_used,
       (SELECT count(*) FROM parts) = (SELECT count(*) FROM fps) AS none_lost;
EXPLAIN (COSTS OFF) SELECT * FROM parts WHERE fp = '0123456789abcdef';
DROP TABLE parts;
