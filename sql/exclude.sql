-- Near-duplicate exclusion constraints (simhash_ball <@> simhash_ball) and
-- scoped simhash indexes (scope columns before the fingerprint): answers
-- identical to sequential scans, errors, ON CONFLICT DO NOTHING.

CREATE FUNCTION ex_fp(i integer) RETURNS simhash
	LANGUAGE sql IMMUTABLE
	AS $$ SELECT (('x' || substr(md5(i::text), 1, 16))::bit(64))::simhash $$;
CREATE FUNCTION ex_flip(fp simhash, seed integer, n integer) RETURNS simhash
	LANGUAGE sql IMMUTABLE
	AS $$ SELECT (fp::bigint # coalesce(bit_or(1::bigint << ((seed * 7 + k * 13) % 64)), 0))::simhash
	        FROM generate_series(1, n) k $$;

-- <@>: each center within the other's ball, i.e. the distance of the
-- centers is at most the smaller radius; commutative.
SELECT count(*) AS pairs,
       count(*) FILTER (WHERE (a <@> b) IS DISTINCT FROM
                              (hamming_distance(simhash_ball_center(a), simhash_ball_center(b))
                               <= least(simhash_ball_radius(a), simhash_ball_radius(b)))) AS wrong,
       count(*) FILTER (WHERE (a <@> b) IS DISTINCT FROM (b <@> a)) AS not_commutative
  FROM (SELECT simhash_ball(ex_flip(ex_fp(i % 5), i, i % 9), i % 11 - 1) AS a FROM generate_series(1, 60) i) x,
       (SELECT simhash_ball(ex_flip(ex_fp(j % 5), j * 3, j % 7), j % 13 - 1) AS b FROM generate_series(1, 60) j) y;
SELECT '0123456789abcdef/3'::simhash_ball <@> '0123456789abcdee/3' AS near,
       '0123456789abcdef/0'::simhash_ball <@> '0123456789abcdee/3' AS smaller_radius_wins,
       '0123456789abcdef/3'::simhash_ball <@> NULL AS null_is_null;

-- The exclusion constraint: no two rows within 3.
CREATE TABLE pages (id serial PRIMARY KEY, fp simhash);
ALTER TABLE pages ADD CONSTRAINT pages_near EXCLUDE USING simhash (simhash_ball(fp, 3) WITH <@>);
INSERT INTO pages (fp) VALUES ('0123456789abcdef');
INSERT INTO pages (fp) VALUES ('0123456789abcde8');	-- distance 3: rejected
INSERT INTO pages (fp) VALUES ('0123456789abcd10');	-- distance 4 from it: stored
INSERT INTO pages (fp) VALUES (NULL);				-- NULLs never conflict
INSERT INTO pages (fp) VALUES (NULL);
-- ON CONFLICT DO NOTHING skips near-duplicates, also within one statement.
INSERT INTO pages (fp)
SELECT ex_flip(ex_fp(g % 40), g, 1 + g % 3) FROM generate_series(1, 400) g
ON CONFLICT DO NOTHING;
-- The table holds no pair within 3 (sequential self-join), and every value
-- offered has a row within 3 of it: it was stored, or its near-duplicate was.
SET enable_indexscan = off;
SET enable_bitmapscan = off;
SELECT count(*) AS pairs_within_3
  FROM pages a JOIN pages b ON a.id < b.id AND hamming_distance(a.fp, b.fp) <= 3;
SELECT count(*) AS values_lost
  FROM generate_series(1, 400) g
 WHERE NOT EXISTS (SELECT FROM pages
                    WHERE hamming_distance(fp, ex_flip(ex_fp(g % 40), g, 1 + g % 3)) <= 3);
RESET enable_indexscan;
RESET enable_bitmapscan;
-- An UPDATE that moves a row next to another is rejected too.
UPDATE pages SET fp = '0123456789abcdee' WHERE fp = '0123456789abcd10';
SELECT simhash_index_check('pages_near');

-- Any k in 0..64: k = 0 forbids equal fingerprints only, k = 64 any second row.
CREATE TABLE k0 (fp simhash, EXCLUDE USING simhash (simhash_ball(fp, 0) WITH <@>));
INSERT INTO k0 VALUES ('0123456789abcdef'), ('0123456789abcdee');
INSERT INTO k0 VALUES ('0123456789abcdef');
CREATE TABLE k64 (fp simhash, EXCLUDE USING simhash (simhash_ball(fp, 64) WITH <@>));
INSERT INTO k64 VALUES ('0123456789abcdef');
INSERT INTO k64 VALUES ('fedcba9876543210') ON CONFLICT DO NOTHING;
SELECT count(*) FROM k64;
CREATE TABLE k12 (id int, fp simhash, EXCLUDE USING simhash (simhash_ball(fp, 12) WITH <@>));
INSERT INTO k12 SELECT g, ex_flip(ex_fp(g % 30), g, g % 20) FROM generate_series(1, 300) g
ON CONFLICT DO NOTHING;
SELECT count(*) AS pairs_within_12 FROM k12 a JOIN k12 b ON a.id < b.id AND hamming_distance(a.fp, b.fp) <= 12;
-- Adding the constraint to a table that violates it fails.
CREATE TABLE dup (fp simhash);
INSERT INTO dup VALUES ('0123456789abcdef'), ('0123456789abcdee');
ALTER TABLE dup ADD EXCLUDE USING simhash (simhash_ball(fp, 3) WITH <@>);
-- A constraint compares a column with itself: <@ (fingerprint, ball) cannot serve.
ALTER TABLE dup ADD EXCLUDE USING simhash (fp WITH <@);

-- CREATE INDEX on the same expression answers queries with <@>.
CREATE TABLE docs (id integer PRIMARY KEY, site integer, fp simhash);
INSERT INTO docs SELECT g, g % 10, ex_fp(g) FROM generate_series(1, 3000) g;
INSERT INTO docs SELECT 3000 + g, g % 10, ex_flip(ex_fp(g % 50), g, 1 + g % 6)
  FROM generate_series(1, 1000) g;
INSERT INTO docs VALUES (5000, 1, NULL), (5001, NULL, ex_fp(7)), (5002, NULL, ex_fp(7));
CREATE INDEX docs_ball ON docs USING simhash (simhash_ball(fp, 4));
ANALYZE docs;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM docs WHERE simhash_ball(fp, 4) <@> simhash_ball('0123456789abcdef', 4);
CREATE TEMP TABLE centers AS
SELECT fp AS c FROM docs WHERE id IN (7, 11, 3001, 3013, 3500) UNION ALL SELECT '0000000000000000';
CREATE TEMP TABLE via_index AS
SELECT c, r, (SELECT array_agg(id ORDER BY id) FROM docs WHERE simhash_ball(fp, 4) <@> simhash_ball(c, r)) AS ids
  FROM centers, generate_series(-1, 6) r;
SET enable_indexscan = off;
CREATE TEMP TABLE via_bitmap AS
SELECT c, r, (SELECT array_agg(id ORDER BY id) FROM docs WHERE simhash_ball(fp, 4) <@> simhash_ball(c, r)) AS ids
  FROM centers, generate_series(-1, 6) r;
RESET enable_indexscan;
SET enable_seqscan = on;
SET enable_indexscan = off;
SET enable_bitmapscan = off;
CREATE TEMP TABLE via_seqscan AS
SELECT c, r, (SELECT array_agg(id ORDER BY id) FROM docs
               WHERE hamming_distance(fp, c) <= least(r, 4)) AS ids
  FROM centers, generate_series(-1, 6) r;
RESET enable_indexscan;
RESET enable_bitmapscan;
SELECT count(*) AS compared,
       count(*) FILTER (WHERE i.ids IS DISTINCT FROM s.ids) AS index_differs,
       count(*) FILTER (WHERE b.ids IS DISTINCT FROM s.ids) AS bitmap_differs,
       sum(coalesce(array_length(s.ids, 1), 0)) AS rows_found
  FROM via_seqscan s JOIN via_index i USING (c, r) JOIN via_bitmap b USING (c, r);
DROP INDEX docs_ball;

-- Scoped indexes: (scope, fp) for every scope type; radius and k-NN in one
-- scope equal a sequential scan, NULL scopes included.
CREATE TABLE scoped AS
SELECT id, site AS s_int, site::bigint AS s_big, 'site-' || site AS s_text,
       ('00000000-0000-0000-0000-' || lpad(site::text, 12, '0'))::uuid AS s_uuid, fp
  FROM docs;
-- the same fingerprints in another scope: a scoped search must not see them
INSERT INTO scoped SELECT id + 10000, 99, 99, 'site-99', '00000000-0000-0000-0000-000000000099', fp
  FROM docs WHERE id % 3 = 0;
CREATE INDEX scoped_int ON scoped USING simhash (s_int, fp);
CREATE INDEX scoped_big ON scoped USING simhash (s_big, fp);
CREATE INDEX scoped_text ON scoped USING simhash (s_text, fp);
CREATE INDEX scoped_uuid ON scoped USING simhash (s_uuid, fp);
SELECT simhash_index_check('scoped_int'), simhash_index_check('scoped_uuid');
ANALYZE scoped;
EXPLAIN (COSTS OFF) SELECT id FROM scoped WHERE s_int = 3 AND fp <-> '0123456789abcdef' <= 3;
EXPLAIN (COSTS OFF) SELECT id FROM scoped WHERE s_text = 'site-3'
 ORDER BY fp <-> '0123456789abcdef' LIMIT 10;
CREATE TEMP TABLE queries AS
SELECT s, c, r FROM generate_series(0, 9) s, centers, (VALUES (0), (3), (6), (20)) v(r)
UNION ALL SELECT 99, c, 3 FROM centers UNION ALL SELECT NULL, c, 3 FROM centers;
-- index scans
SET enable_seqscan = off;
SET enable_bitmapscan = off;
CREATE TEMP TABLE scoped_index AS
SELECT s, c, r,
       (SELECT array_agg(id ORDER BY id) FROM scoped WHERE s_int = s AND fp <-> c <= r) AS by_int,
       (SELECT array_agg(id ORDER BY id) FROM scoped WHERE s_big = s AND fp <-> c <= r) AS by_big,
       (SELECT array_agg(id ORDER BY id) FROM scoped WHERE s_text = 'site-' || s AND fp <-> c <= r) AS by_text,
       (SELECT array_agg(id ORDER BY id) FROM scoped
         WHERE s_uuid = ('00000000-0000-0000-0000-' || lpad(s::text, 12, '0'))::uuid AND fp <-> c <= r) AS by_uuid,
       (SELECT array_agg(d) FROM (SELECT fp <-> c AS d FROM scoped WHERE s_int = s ORDER BY fp <-> c LIMIT 10) t) AS knn_int,
       (SELECT array_agg(d) FROM (SELECT fp <-> c AS d FROM scoped WHERE s_text = 'site-' || s ORDER BY fp <-> c LIMIT 10) t) AS knn_text
  FROM queries;
-- bitmap scans
SET enable_indexscan = off;
SET enable_bitmapscan = on;
CREATE TEMP TABLE scoped_bitmap AS
SELECT s, c, r,
       (SELECT array_agg(id ORDER BY id) FROM scoped WHERE s_int = s AND fp <-> c <= r) AS by_int
  FROM queries;
SET enable_seqscan = on;
SET enable_bitmapscan = off;
CREATE TEMP TABLE scoped_seq AS
SELECT s, c, r,
       (SELECT array_agg(id ORDER BY id) FROM scoped WHERE s_int = s AND hamming_distance(fp, c) <= r) AS ids,
       (SELECT array_agg(d) FROM (SELECT hamming_distance(fp, c) AS d FROM scoped WHERE s_int = s ORDER BY 1 LIMIT 10) t) AS knn
  FROM queries;
RESET enable_indexscan;
RESET enable_bitmapscan;
SELECT count(*) AS compared,
       count(*) FILTER (WHERE i.by_int IS DISTINCT FROM q.ids) AS int_differs,
       count(*) FILTER (WHERE i.by_big IS DISTINCT FROM q.ids) AS bigint_differs,
       count(*) FILTER (WHERE i.by_text IS DISTINCT FROM q.ids) AS text_differs,
       count(*) FILTER (WHERE i.by_uuid IS DISTINCT FROM q.ids) AS uuid_differs,
       count(*) FILTER (WHERE b.by_int IS DISTINCT FROM q.ids) AS bitmap_differs,
       count(*) FILTER (WHERE i.knn_int IS DISTINCT FROM q.knn) AS knn_int_differs,
       count(*) FILTER (WHERE i.knn_text IS DISTINCT FROM q.knn) AS knn_text_differs,
       sum(coalesce(array_length(q.ids, 1), 0)) AS rows_found
  FROM scoped_seq q JOIN scoped_index i ON i.s IS NOT DISTINCT FROM q.s AND i.c = q.c AND i.r = q.r
       JOIN scoped_bitmap b ON b.s IS NOT DISTINCT FROM q.s AND b.c = q.c AND b.r = q.r;
-- Without a value for the scope a scoped index could only return every row
-- (rechecked, unordered): the planner avoids that even with sequential scans
-- disabled, and the answers stay right.
SET enable_seqscan = off;
SET enable_bitmapscan = off;
DROP INDEX scoped_big, scoped_text, scoped_uuid;
SELECT count(*) FROM scoped WHERE fp <-> ex_fp(7) <= 3;
SELECT array_agg(d) FROM (SELECT fp <-> ex_fp(7) AS d FROM scoped ORDER BY fp <-> ex_fp(7) LIMIT 5) t;
RESET enable_seqscan;
RESET enable_bitmapscan;
SELECT count(*) FROM scoped WHERE hamming_distance(fp, ex_fp(7)) <= 3;

-- Column rules: scopes first, the fingerprint last.
CREATE INDEX ON scoped USING simhash (fp, s_int);
CREATE INDEX ON scoped USING simhash (s_int);
CREATE INDEX ON scoped USING simhash (s_int, s_text, fp);

-- A scoped exclusion constraint: near-duplicates forbidden within a site only.
CREATE TABLE site_pages (site_id text, fp simhash,
  EXCLUDE USING simhash (site_id WITH =, simhash_ball(fp, 3) WITH <@>));
INSERT INTO site_pages VALUES ('a', '0123456789abcdef'), ('b', '0123456789abcdef'),
  (NULL, '0123456789abcdef'), (NULL, '0123456789abcdef');
INSERT INTO site_pages VALUES ('a', '0123456789abcdee');
INSERT INTO site_pages VALUES ('a', '0123456789abcdee'), ('c', '0123456789abcdee') ON CONFLICT DO NOTHING;
SELECT site_id, fp FROM site_pages ORDER BY site_id, fp;
INSERT INTO site_pages SELECT 's' || (g % 7), ex_flip(ex_fp(g % 20), g, g % 4)
  FROM generate_series(1, 500) g ON CONFLICT DO NOTHING;
SET enable_indexscan = off;
SET enable_bitmapscan = off;
SELECT count(*) AS pairs_within_3_in_a_site
  FROM site_pages a JOIN site_pages b ON a.ctid < b.ctid AND a.site_id = b.site_id
   AND hamming_distance(a.fp, b.fp) <= 3;
SELECT count(*) AS values_lost
  FROM generate_series(1, 500) g
 WHERE NOT EXISTS (SELECT FROM site_pages WHERE site_id = 's' || (g % 7)
                      AND hamming_distance(fp, ex_flip(ex_fp(g % 20), g, g % 4)) <= 3);
RESET enable_indexscan;
RESET enable_bitmapscan;

-- The check done while inserting (scan.c): below m bits aminsert searches
-- the row's own buckets under the lock it appends under, and the core's
-- check that follows takes that result.  The second of two equal rows in
-- one statement must still find the first, ON CONFLICT's pre-check too.
CREATE TABLE twice (fp simhash, EXCLUDE USING simhash (simhash_ball(fp, 3) WITH <@>));
INSERT INTO twice VALUES ('0123456789abcdef'), ('0123456789abcdef');
INSERT INTO twice VALUES ('0123456789abcdef'), ('0123456789abcdee'), ('0123456789abcdef')
ON CONFLICT DO NOTHING;
SELECT count(*) FROM twice;
-- Eight tables (two WAL records per row, each group searched under its own
-- locks), a radius per row: 7 is below m, 9 a search of the index's own.
CREATE TABLE eight (id int, fp simhash, r int);
ALTER TABLE eight ADD EXCLUDE USING simhash (simhash_ball(fp, r) WITH <@>) WITH (blocks = 8);
INSERT INTO eight SELECT g, ex_flip(ex_fp(g % 50), g, g % 12), CASE WHEN g % 5 = 0 THEN 9 ELSE 7 END
  FROM generate_series(1, 600) g ON CONFLICT DO NOTHING;
SET enable_indexscan = off;
SET enable_bitmapscan = off;
SELECT count(*) AS pairs_within_their_radii
  FROM eight a JOIN eight b ON a.id < b.id AND hamming_distance(a.fp, b.fp) <= least(a.r, b.r);
SELECT count(*) AS values_lost
  FROM generate_series(1, 600) g
 WHERE NOT EXISTS (SELECT FROM eight WHERE hamming_distance(fp, ex_flip(ex_fp(g % 50), g, g % 12))
                      <= least(r, CASE WHEN g % 5 = 0 THEN 9 ELSE 7 END));
RESET enable_indexscan;
RESET enable_bitmapscan;
-- A bucket with an overflow chain (1,500 values with one first block, k = 0)
-- is searched by the check itself, chain and all.
CREATE TABLE chain (fp simhash, CONSTRAINT chain_excl EXCLUDE USING simhash (simhash_ball(fp, 0) WITH <@>));
INSERT INTO chain SELECT ('0123' || lpad(to_hex(g * 7919), 12, '0'))::simhash
  FROM generate_series(1, 1500) g;
INSERT INTO chain VALUES (('0123' || lpad(to_hex(700 * 7919), 12, '0'))::simhash);
INSERT INTO chain VALUES (('0123' || lpad(to_hex(1499 * 7919), 12, '0'))::simhash) ON CONFLICT DO NOTHING;
SELECT count(*) FROM chain;
SELECT simhash_index_check('chain_excl');

-- Bulk inserts: a statement's rows past its 16th are batched, written at
-- its end bucket by bucket and checked there (index/deferred.c).  Whatever
-- the statement (INSERT ... SELECT, COPY, UPDATE, inside a function), the
-- answers are those of the row-by-row check: each statement below either
-- fails whole with exclusion_violation or keeps the constraint.
CREATE TABLE bulk (id serial, fp simhash,
  CONSTRAINT bulk_near EXCLUDE USING simhash (simhash_ball(fp, 3) WITH <@>));
INSERT INTO bulk (fp) SELECT ex_fp(g) FROM generate_series(1, 3000) g;
SELECT count(*) FROM bulk;
-- a near-duplicate of a stored row as the 201st row: the statement fails
INSERT INTO bulk (fp) SELECT ex_fp(g) FROM generate_series(3001, 3200) g
UNION ALL SELECT ex_flip(ex_fp(77), 1, 3);
-- two new rows near each other, both late in one statement
INSERT INTO bulk (fp) SELECT ex_fp(g) FROM generate_series(3001, 3100) g
UNION ALL SELECT ex_flip(ex_fp(1), 7, 2) UNION ALL SELECT ex_flip(ex_fp(1), 7, 3);
-- the same value twice
INSERT INTO bulk (fp) SELECT ex_fp(g) FROM generate_series(3001, 3100) g
UNION ALL SELECT ex_fp(3001);
SELECT count(*) FROM bulk;
-- ON CONFLICT DO NOTHING: near-duplicates of stored rows skipped, the rest stored
INSERT INTO bulk (fp) SELECT CASE WHEN g % 2 = 0 THEN ex_flip(ex_fp(g - 3000), g, 2) ELSE ex_fp(g) END
  FROM generate_series(3001, 3200) g ON CONFLICT DO NOTHING;
SELECT count(*) FROM bulk;
-- COPY: the same rule (the second COPY's last line repeats the first's 4th)
COPY bulk (fp) FROM STDIN;
dda1494c73cf256d
db5b5fab8f4d3e27
c7fde805ec99108d
73ab48767734d7c1
dae445508201e2bd
309d6b79965eda32
cdcc69292f45e678
79cb9e86830c71c2
9d2c67eda13ffe79
2fa91425cb008853
7253edc618187993
244caf9c4dabb481
89e7d15f17362f25
e3eff9c0cf44dd3f
a26b7f62b1852f27
986e86cb0ab8ab67
656abd72fb710734
73f778aaf6fa5db8
bd299753a7677796
a66b0d389d95847e
\.
COPY bulk (fp) FROM STDIN;
9f8558a628518867
d4ea65d003d71684
102b938b8743feb6
09208a650f3ebdd3
e12b2b8f30b17d0b
998092253deffa38
c7321cc007b37e14
5387f61376c468ae
97491e2370c6a5b8
320094ead7a94ded
3bd0334684e55160
4b4d8474a3ea284d
012d0ea67ff12229
15c1d2dfa9964aef
a7a1149075139237
6822a6b24735af1c
8d1fe1daff666589
ee82ec3ffee5a5b2
154cd2aad7185dda
4105cca7b53302fc
73ab48767734d7c1
\.
SELECT count(*) FROM bulk;
-- UPDATE: rows move away from their old versions freely; onto others, not
UPDATE bulk SET fp = ex_flip(fp, id, 1) WHERE id <= 100;
UPDATE bulk SET fp = CASE WHEN id = 250 THEN ex_flip(ex_fp(3), 5, 1) ELSE ex_flip(fp, id, 9) END
 WHERE id BETWEEN 201 AND 300;
-- a savepoint rolled back: its batch goes with it; the transaction goes on
BEGIN;
INSERT INTO bulk (fp) SELECT ex_fp(g) FROM generate_series(4001, 4040) g;
SAVEPOINT s;
INSERT INTO bulk (fp) SELECT ex_fp(g) FROM generate_series(4041, 4080) g
UNION ALL SELECT ex_flip(ex_fp(4001), 3, 3);
ROLLBACK TO s;
INSERT INTO bulk (fp) SELECT ex_fp(g) FROM generate_series(4041, 4080) g;
COMMIT;
SELECT count(*) FROM bulk WHERE fp IN (SELECT ex_fp(g) FROM generate_series(4001, 4080) g);
-- inside a function, the violation caught by its handler
DO $$
BEGIN
  INSERT INTO bulk (fp) SELECT ex_fp(g) FROM generate_series(5001, 5100) g
  UNION ALL SELECT ex_flip(ex_fp(5050), 9, 1);
EXCEPTION WHEN exclusion_violation THEN
  RAISE NOTICE 'caught: %', SQLERRM;
END $$;
SELECT count(*) FROM bulk;
-- written inside a subtransaction (a function's exception block that
-- inserts, run for each row), a batched row's violation is not found there,
-- where the handler would swallow it, but at the end of its own statement
CREATE TABLE bulk_log_t (fp simhash);
CREATE FUNCTION bulk_log(fp simhash) RETURNS simhash LANGUAGE plpgsql AS $$
BEGIN
  BEGIN
    INSERT INTO bulk_log_t VALUES (fp);
  EXCEPTION WHEN exclusion_violation THEN
    RAISE NOTICE 'swallowed: %', SQLERRM;
  END;
  RETURN fp;
END $$;
INSERT INTO bulk (fp)
SELECT bulk_log(x) FROM (SELECT ex_fp(g) AS x FROM generate_series(6001, 6100) g
                         UNION ALL SELECT ex_flip(ex_fp(6001), 1, 1)
                         UNION ALL SELECT ex_fp(g) FROM generate_series(6101, 6140) g) s;
SELECT count(*) FROM bulk;
-- a big statement against a bigger index: a bucket covers few prefixes,
-- and the batch's rows of an entry's prefix are found through a map
CREATE TABLE bulk_big (fp simhash,
  CONSTRAINT bulk_big_near EXCLUDE USING simhash (simhash_ball(fp, 3) WITH <@>));
INSERT INTO bulk_big SELECT ex_fp(g) FROM generate_series(1, 40000) g;
INSERT INTO bulk_big SELECT ex_fp(g) FROM generate_series(40001, 60000) g
UNION ALL SELECT ex_flip(ex_fp(12345), 2, 3);
INSERT INTO bulk_big SELECT ex_fp(g) FROM generate_series(40001, 60000) g
UNION ALL SELECT ex_flip(ex_fp(50001), 2, 2);
INSERT INTO bulk_big SELECT ex_fp(g) FROM generate_series(40001, 60000) g;
SELECT count(*) FROM bulk_big;
SELECT simhash_index_check('bulk_big_near');
-- small batches against a bigger index built in one go (no overflow
-- chains): a few rows per bucket, each compared with every entry of its
-- bucket pages directly (four at a time with AVX2); a stored row 1 to 3
-- bits from the batch's last row, wherever it sits on its page, or an
-- earlier row of the same statement, is always found
CREATE TABLE bulk_direct (fp simhash);
INSERT INTO bulk_direct SELECT ex_fp(g) FROM generate_series(1, 60000) g;
ALTER TABLE bulk_direct ADD CONSTRAINT bulk_direct_near
  EXCLUDE USING simhash (simhash_ball(fp, 3) WITH <@>);
CREATE TABLE bulk_caught (target int, d int, caught text);
DO $$
DECLARE
  t int;
BEGIN
  FOR i IN 0 .. 47 LOOP
    -- rows of their own each time (a rolled-back row's entry stays, and a
    -- row equal to it is checked anyway)
    t := CASE WHEN i < 44 THEN 1 + i * 1361 ELSE 100001 + i * 300 + i END;
    BEGIN
      INSERT INTO bulk_direct SELECT ex_fp(g) FROM generate_series(100001 + i * 300, 100300 + i * 300) g
      UNION ALL SELECT ex_flip(ex_fp(t), i, 1 + i % 3);
      INSERT INTO bulk_caught VALUES (t, 1 + i % 3, 'no');
    EXCEPTION WHEN exclusion_violation THEN
      INSERT INTO bulk_caught VALUES (t, 1 + i % 3, 'yes');
    END;
  END LOOP;
END $$;
SELECT caught, count(*), min(d), max(d) FROM bulk_caught GROUP BY 1;
INSERT INTO bulk_direct SELECT ex_fp(g) FROM generate_series(60001, 60300) g;
SELECT count(*) FROM bulk_direct;
SELECT simhash_index_check('bulk_direct_near');
-- shapes checked row by row as before: a DEFERRABLE constraint, a radius
-- of m or more, a radius from a column
CREATE TABLE bulk_deferrable (fp simhash, CONSTRAINT bulk_deferrable_near
  EXCLUDE USING simhash (simhash_ball(fp, 3) WITH <@>) DEFERRABLE INITIALLY DEFERRED);
BEGIN;
INSERT INTO bulk_deferrable SELECT ex_fp(g) FROM generate_series(1, 100) g
UNION ALL SELECT ex_flip(ex_fp(50), 1, 2);
COMMIT;
CREATE TABLE bulk_wide (fp simhash, EXCLUDE USING simhash (simhash_ball(fp, 5) WITH <@>)
  WITH (blocks = 4));
INSERT INTO bulk_wide SELECT ex_fp(g) FROM generate_series(1, 100) g
UNION ALL SELECT ex_flip(ex_fp(50), 1, 5);
INSERT INTO bulk_wide SELECT ex_fp(g) FROM generate_series(1, 100) g;
CREATE TABLE bulk_radius (fp simhash, r int, EXCLUDE USING simhash (simhash_ball(fp, r) WITH <@>));
INSERT INTO bulk_radius SELECT ex_fp(g), 3 FROM generate_series(1, 100) g
UNION ALL SELECT ex_flip(ex_fp(50), 1, 2), 3;
INSERT INTO bulk_radius SELECT ex_fp(g), 3 FROM generate_series(1, 100) g;
SELECT (SELECT count(*) FROM bulk_deferrable) AS deferrable,
       (SELECT count(*) FROM bulk_wide) AS wide,
       (SELECT count(*) FROM bulk_radius) AS radius;
-- what the index holds: no pair within 3 (sequential scan), and every row
-- the index finds
SET enable_indexscan = off;
SET enable_bitmapscan = off;
SELECT count(*) AS pairs_within_3
  FROM bulk a JOIN bulk b ON a.id < b.id AND hamming_distance(a.fp, b.fp) <= 3;
RESET enable_indexscan;
RESET enable_bitmapscan;
SET enable_seqscan = off;
SELECT count(*) AS rows_not_found_by_index
  FROM bulk a WHERE NOT EXISTS (SELECT FROM bulk b WHERE b.fp <-> a.fp <= 0 AND b.id = a.id);
RESET enable_seqscan;
SELECT simhash_index_check('bulk_near');

DROP TABLE pages, k0, k64, k12, dup, docs, scoped, site_pages, twice, eight, chain,
  bulk, bulk_deferrable, bulk_wide, bulk_radius, bulk_log_t, bulk_big;
DROP FUNCTION bulk_log(simhash);
DROP FUNCTION ex_fp(integer), ex_flip(simhash, integer, integer);
