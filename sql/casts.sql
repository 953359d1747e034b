-- Casts to and from bigint (bit-preserving) and bit(64).

SELECT 'ffffffffffffffff'::simhash::bigint AS minus_one,
       (-1)::bigint::simhash AS all_ones,
       '8000000000000000'::simhash::bigint AS int8_min,
       (-9223372036854775808)::bigint::simhash AS top_bit,
       '7fffffffffffffff'::simhash::bigint AS int8_max,
       0::bigint::simhash AS zero;

-- bigint -> simhash -> bigint and simhash -> bigint -> simhash are identities.
SELECT count(*) AS bigint_round_trip_failures
  FROM (SELECT (floor(random() * 4294967296)::bigint << 32 | floor(random() * 4294967296)::bigint) AS i
          FROM generate_series(1, 10000)
        UNION ALL SELECT unnest(ARRAY[0, 1, -1, 9223372036854775807, -9223372036854775808]::bigint[])) r
 WHERE i::simhash::bigint <> i OR i::simhash::bigint::simhash <> i::simhash;

-- The hex text equals the two's complement of the bigint.
SELECT count(*) AS hex_mismatches
  FROM (SELECT (floor(random() * 4294967296)::bigint << 32 | floor(random() * 4294967296)::bigint) AS i
          FROM generate_series(1, 10000)) r
 WHERE i::simhash::text <> lpad(to_hex(i), 16, '0');

-- bit(64), most significant bit first; agrees with core's bigint::bit(64).
SELECT '8000000000000001'::simhash::bit(64) AS bits;
SELECT B'1111111111111111111111111111111111111111111111111111111111111110'::simhash AS from_bits;
SELECT count(*) AS bit_mismatches
  FROM (SELECT (floor(random() * 4294967296)::bigint << 32 | floor(random() * 4294967296)::bigint) AS i
          FROM generate_series(1, 10000)) r
 WHERE i::simhash::bit(64) <> i::bit(64)
    OR i::bit(64)::simhash <> i::simhash;

-- Only exactly 64 bits make a simhash.
\set VERBOSITY default
SELECT B'101'::simhash;
SELECT (B'1' || 0::bit(64))::simhash;
\set VERBOSITY terse

-- No implicit casts: a bigint is not silently taken for a fingerprint.
SELECT '0000000000000001'::simhash = 1::bigint;
