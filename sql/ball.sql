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
