-- Hamming distance and similarity, checked against the 1s of a # b as a bit
-- string (counted as text: bit_count arrived in PostgreSQL 14).

SELECT '0000000000000000'::simhash <-> 'ffffffffffffffff'::simhash AS all_bits,
       '0123456789abcdef'::simhash <-> '0123456789abcdef'::simhash AS same,
       '0000000000000000'::simhash <-> '8000000000000001'::simhash AS two,
       hamming_distance('0000000000000000', '0000000000000007') AS three,
       pg_typeof('0000000000000000'::simhash <-> '0000000000000000'::simhash) AS result_type;
-- The result type is a domain over integer: clients receive int4 (type OID
-- 23), which \gdesc shows, as it describes what the server sends.
SELECT '0000000000000000'::simhash <-> 'ffffffffffffffff'::simhash AS distance,
       hamming_distance('0000000000000000', '0000000000000007') AS by_name \gdesc

SELECT simhash_similarity('0000000000000000', 'ffffffffffffffff') AS none_alike,
       simhash_similarity('0123456789abcdef', '0123456789abcdef') AS identical,
       simhash_similarity('0000000000000000', '00000000000000ff') AS eight_bits_off;

-- Random pairs, and pairs a few bits apart, against the 1s of a # b.
CREATE TEMP TABLE pairs AS
SELECT a::simhash AS a, b::simhash AS b
  FROM (SELECT (floor(random() * 4294967296)::bigint << 32 | floor(random() * 4294967296)::bigint) AS a,
               (floor(random() * 4294967296)::bigint << 32 | floor(random() * 4294967296)::bigint) AS b
          FROM generate_series(1, 20000)) r;
INSERT INTO pairs
SELECT a, (a::bigint # (1::bigint << floor(random() * 64)::int) # (1::bigint << floor(random() * 64)::int))::simhash
  FROM pairs LIMIT 5000;
SELECT count(*) AS distance_mismatches
  FROM pairs
 WHERE (a <-> b) <> length(replace((a::bit(64) # b::bit(64))::text, '0', ''))
    OR hamming_distance(a, b) <> (a <-> b)
    OR (a <-> b) <> (b <-> a)
    OR simhash_similarity(a, b) <> 1 - (a <-> b) / 64.0
    OR (a <-> a) <> 0
    OR (a <-> (~a::bigint)::simhash) <> 64;
SELECT min(a <-> b) >= 0 AND max(a <-> b) <= 64 AS in_range,
       count(DISTINCT a <-> b) > 20 AS spread
  FROM pairs;

-- The triangle inequality holds (a metric).
SELECT count(*) AS triangle_violations
  FROM pairs p1 JOIN pairs p2 ON p1.b = p2.a
 WHERE (p1.a <-> p2.b) > (p1.a <-> p1.b) + (p2.a <-> p2.b);

-- Commutator is declared: the planner may flip the operands.
SELECT oprname, oprcom::regoperator AS commutator
  FROM pg_operator WHERE oprname = '<->' AND oprleft = 'simhash'::regtype;
