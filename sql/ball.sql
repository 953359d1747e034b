-- simhash_ball and the radius operator <@, against hamming_distance.

SELECT simhash_ball('0123456789abcdef', 3) AS ball,
       '0x0123456789ABCDEF/3'::simhash_ball AS parsed,
       ' 0123456789abcdef / -1 '::simhash_ball AS negative,
       simhash_ball_center('0123456789abcdef/70'), simhash_ball_radius('0123456789abcdef/70');

\set VERBOSITY default
SELECT '0123456789abcdef'::simhash_ball;
SELECT '0123456789abcdef/'::simhash_ball;
SELECT '0123456789abcdef/3x'::simhash_ball;
SELECT '0123456789abcdef/99999999999'::simhash_ball;
SELECT '0123456789abcde/3'::simhash_ball;
\set VERBOSITY terse

-- <@ and @> agree with hamming_distance <= radius for every radius,
-- including negative radii (nothing) and radii past 64 (everything).
CREATE TEMP TABLE ball_pairs AS
SELECT a::simhash AS a, (a # mask)::simhash AS b
  FROM (SELECT (floor(random() * 4294967296)::bigint << 32 | floor(random() * 4294967296)::bigint) AS a,
               (floor(random() * 4294967296)::bigint << 32 | floor(random() * 4294967296)::bigint)
                 & (floor(random() * 4294967296)::bigint << 32 | floor(random() * 4294967296)::bigint)
                 & (floor(random() * 4294967296)::bigint << 32 | floor(random() * 4294967296)::bigint) AS mask
          FROM generate_series(1, 3000)) r;
SELECT count(*) AS within_mismatches
  FROM ball_pairs, generate_series(-2, 66) AS radius
 WHERE (a <@ simhash_ball(b, radius)) <> ((a <-> b) <= radius)
    OR (simhash_ball(b, radius) @> a) <> ((a <-> b) <= radius);
SELECT count(*) FILTER (WHERE a <@ simhash_ball(b, -1)) AS negative_radius,
       count(*) FILTER (WHERE a <@ simhash_ball(b, 64)) = count(*) AS radius_64_all
  FROM ball_pairs;

-- Binary round trip.
SELECT simhash_ball_send('0123456789abcdef/3') AS wire;
CREATE TEMP TABLE balls AS SELECT simhash_ball(a, (a <-> b)) AS ball FROM ball_pairs;
\copy balls TO 'results/balls.bin' WITH (FORMAT binary)
CREATE TEMP TABLE balls_back (ball simhash_ball);
\copy balls_back FROM 'results/balls.bin' WITH (FORMAT binary)
SELECT count(*) AS binary_round_trip_mismatches
  FROM (SELECT ball::text FROM balls EXCEPT ALL SELECT ball::text FROM balls_back) d;

-- NULLs.
SELECT ('0123456789abcdef'::simhash <@ NULL::simhash_ball) IS NULL AS null_ball,
       (NULL::simhash <@ '0123456789abcdef/3'::simhash_ball) IS NULL AS null_fp,
       simhash_ball(NULL, 3) IS NULL AS null_center,
       simhash_ball('0123456789abcdef', NULL) IS NULL AS null_radius;

-- Equality and order of balls: the same center and the same radius; by
-- center as unsigned 64-bit values, then by radius.  Their default btree and
-- hash opclasses give "=" to logical replication (REPLICA IDENTITY FULL,
-- test/t/002_ball_logical_replication.pl), DISTINCT, GROUP BY, joins, indexes.
SELECT '0123456789abcdef/3'::simhash_ball = simhash_ball('0x0123456789ABCDEF', 3) AS eq,
       '0123456789abcdef/3'::simhash_ball = '0123456789abcdef/4' AS eq_other_radius,
       '0123456789abcdef/3'::simhash_ball = '0123456789abcdee/3' AS eq_other_center,
       '0123456789abcdef/3'::simhash_ball <> '0123456789abcdef/4' AS ne_other_radius,
       '0123456789abcdef/3'::simhash_ball <> '0123456789abcdef/3' AS ne_same,
       '8000000000000000/0'::simhash_ball > '7fffffffffffffff/9' AS unsigned_center_first,
       '0123456789abcdef/-1'::simhash_ball < '0123456789abcdef/0' AS then_signed_radius,
       '0123456789abcdef/3'::simhash_ball <= '0123456789abcdef/3' AS le,
       '0123456789abcdef/3'::simhash_ball >= '0123456789abcdef/4' AS ge,
       simhash_ball_cmp('ffffffffffffffff/0', '0000000000000000/0') AS cmp_gt,
       simhash_ball_cmp('0000000000000000/-2147483648', '0000000000000000/2147483647') AS cmp_lt,
       simhash_ball_cmp('0123456789abcdef/3', '0123456789abcdef/3') AS cmp_eq;
-- The "=" that lookup_type_cache (and so logical replication's apply of
-- REPLICA IDENTITY FULL) finds: that of the default btree and hash opclasses.
SELECT am.amname, o.amopopr::regoperator AS equality
  FROM pg_opclass c JOIN pg_am am ON am.oid = c.opcmethod
  JOIN pg_amop o ON o.amopfamily = c.opcfamily AND o.amoplefttype = c.opcintype
                AND o.amoprighttype = c.opcintype
                AND o.amopstrategy = CASE am.amname WHEN 'btree' THEN 3 ELSE 1 END
 WHERE c.opcintype = 'simhash_ball'::regtype AND c.opcdefault
 ORDER BY 1;
SELECT ball FROM (VALUES ('8000000000000000/0'::simhash_ball), ('7fffffffffffffff/9'),
                         ('ffffffffffffffff/-1'), ('0000000000000000/64'),
                         ('7fffffffffffffff/-9'), ('0000000000000000/0')) v(ball)
 ORDER BY ball;

-- Balls with repeated centers and radii (deterministic).
CREATE TEMP TABLE ball_rows AS
SELECT g AS id,
       simhash_ball(('x' || substr(md5((g % 400)::text), 1, 16))::bit(64)::simhash, g % 7 % 3 - 1) AS ball
  FROM generate_series(1, 3000) g;
ANALYZE ball_rows;

-- Every operator and the comparison agree with the row comparison
-- (center as simhash, radius), and "=" with the text form.
SELECT count(*) AS order_mismatches
  FROM (SELECT a.ball AS a, b.ball AS b,
               (simhash_ball_center(a.ball), simhash_ball_radius(a.ball)) AS ra,
               (simhash_ball_center(b.ball), simhash_ball_radius(b.ball)) AS rb
          FROM ball_rows a, ball_rows b WHERE a.id % 37 = 0 AND b.id % 41 = 0) p
 WHERE (a = b) <> (ra = rb) OR (a <> b) <> (ra <> rb) OR (a = b) <> (a::text = b::text)
    OR (a < b) <> (ra < rb) OR (a <= b) <> (ra <= rb)
    OR (a > b) <> (ra > rb) OR (a >= b) <> (ra >= rb)
    OR simhash_ball_cmp(a, b) <> CASE WHEN ra < rb THEN -1 WHEN ra = rb THEN 0 ELSE 1 END;

-- Hashes: equal balls hash alike; with seed 0 the low 32 bits of the
-- extended hash are the 32-bit hash; the values are the same on every
-- platform (the key is hashed as three 32-bit words), so they are pinned.
SELECT simhash_ball_hash('0123456789abcdef/3') AS hash,
       simhash_ball_hash_extended('0123456789abcdef/3', 0) AS hash_seed_0,
       simhash_ball_hash_extended('0123456789abcdef/3', 42) AS hash_seed_42,
       simhash_ball_hash('0123456789abcdef/4') AS hash_other_radius;
SELECT count(*) AS hash_mismatches
  FROM ball_rows a JOIN ball_rows b ON a.ball::text = b.ball::text
 WHERE simhash_ball_hash(a.ball) <> simhash_ball_hash(b.ball)
    OR simhash_ball_hash_extended(a.ball, 7) <> simhash_ball_hash_extended(b.ball, 7)
    OR (simhash_ball_hash_extended(a.ball, 0) & 4294967295) <> (simhash_ball_hash(a.ball)::bigint & 4294967295);
SELECT count(DISTINCT simhash_ball_hash(ball)) = count(DISTINCT ball::text) AS no_collisions_here
  FROM ball_rows;

-- DISTINCT, GROUP BY and ORDER BY, by sorting and by hashing, against the
-- text form.
SELECT count(DISTINCT ball::text) AS distinct_balls FROM ball_rows;
SET enable_hashagg = off;
EXPLAIN (COSTS OFF) SELECT DISTINCT ball FROM ball_rows;
SELECT count(*) AS distinct_sorted FROM (SELECT DISTINCT ball FROM ball_rows) d;
RESET enable_hashagg;
SET enable_sort = off;
EXPLAIN (COSTS OFF) SELECT ball, count(*) FROM ball_rows GROUP BY ball;
SELECT count(*) AS groups_hashed, sum(n) AS rows_grouped
  FROM (SELECT ball, count(*) AS n FROM ball_rows GROUP BY ball) g;
RESET enable_sort;
SELECT count(*) AS order_by_violations
  FROM (SELECT ball, lag(ball) OVER (ORDER BY ball) AS prev FROM ball_rows) r
 WHERE (simhash_ball_center(prev), simhash_ball_radius(prev))
       > (simhash_ball_center(ball), simhash_ball_radius(ball));

-- Hash join and merge join give the join on the text form.
SELECT count(*) AS text_join_rows FROM ball_rows a JOIN ball_rows b ON a.ball::text = b.ball::text;
SET enable_nestloop = off;
SET enable_mergejoin = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM ball_rows a JOIN ball_rows b ON a.ball = b.ball;
SELECT count(*) AS hash_join_rows FROM ball_rows a JOIN ball_rows b ON a.ball = b.ball;
RESET enable_mergejoin;
SET enable_hashjoin = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM ball_rows a JOIN ball_rows b ON a.ball = b.ball;
SELECT count(*) AS merge_join_rows FROM ball_rows a JOIN ball_rows b ON a.ball = b.ball;
RESET enable_hashjoin;
RESET enable_nestloop;

-- A btree index answers equality and ranges as a sequential scan does.
CREATE INDEX ball_rows_btree ON ball_rows USING btree (ball);
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM ball_rows WHERE ball = '0123456789abcdef/3';
EXPLAIN (COSTS OFF) SELECT id FROM ball_rows WHERE ball < '8000000000000000/0' ORDER BY ball;
CREATE TEMP TABLE ball_by_index AS
SELECT r.id, (SELECT count(*) FROM ball_rows s WHERE s.ball = r.ball) AS eq,
       (SELECT count(*) FROM ball_rows s WHERE s.ball < r.ball) AS lt
  FROM ball_rows r WHERE r.id % 10 = 0;
RESET enable_seqscan;
RESET enable_bitmapscan;
SET enable_indexscan = off;
SET enable_bitmapscan = off;
SET enable_indexonlyscan = off;
SELECT count(*) AS btree_vs_seqscan_mismatches
  FROM ball_by_index b JOIN ball_rows r USING (id)
 WHERE b.eq <> (SELECT count(*) FROM ball_rows s WHERE s.ball::text = r.ball::text)
    OR b.lt <> (SELECT count(*) FROM ball_rows s
                 WHERE (simhash_ball_center(s.ball), simhash_ball_radius(s.ball))
                       < (simhash_ball_center(r.ball), simhash_ball_radius(r.ball)));
RESET enable_indexscan;
RESET enable_bitmapscan;
RESET enable_indexonlyscan;
DROP INDEX ball_rows_btree;

-- A hash index (alone, so that the scans use it).
CREATE INDEX ball_rows_hash ON ball_rows USING hash (ball);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM ball_rows WHERE ball = '0123456789abcdef/3';
SELECT count(*) AS hash_index_mismatches
  FROM ball_rows r
 WHERE r.id % 10 = 0
   AND (SELECT count(*) FROM ball_rows s WHERE s.ball = r.ball)
       <> (SELECT count(*) FROM ball_rows s WHERE s.ball::text = r.ball::text);
RESET enable_seqscan;
DROP INDEX ball_rows_hash;

-- A unique constraint, and hash partitioning on a ball.
CREATE TEMP TABLE ball_uniq (ball simhash_ball UNIQUE);
INSERT INTO ball_uniq VALUES ('0123456789abcdef/3'), ('0123456789abcdef/4');
INSERT INTO ball_uniq VALUES ('0x0123456789ABCDEF/3');
CREATE TEMP TABLE ball_parts (ball simhash_ball, id int) PARTITION BY HASH (ball);
CREATE TEMP TABLE ball_parts_0 PARTITION OF ball_parts FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TEMP TABLE ball_parts_1 PARTITION OF ball_parts FOR VALUES WITH (MODULUS 2, REMAINDER 1);
INSERT INTO ball_parts SELECT ball, id FROM ball_rows;
SELECT (SELECT count(*) FROM ball_parts_0) > 1000 AND (SELECT count(*) FROM ball_parts_1) > 1000 AS both_used,
       (SELECT count(*) FROM ball_parts) = 3000 AS none_lost;
EXPLAIN (COSTS OFF) SELECT * FROM ball_parts WHERE ball = '0123456789abcdef/3';
