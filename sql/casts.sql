-- Casts to and from bigint (bit-preserving), numeric (unsigned), integer and
-- smallint (widened as bigint), and bit(64).

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

-- numeric: the unsigned value of the 64 bits, both ways.
SELECT x, x::simhash AS fp, x::simhash::numeric AS back
  FROM unnest('{0, 1, 9223372036854775807, 9223372036854775808, 18446744073709551615, 5.000}'::numeric[]) x;

-- Against the bit-preserving bigint cast: equal for 0 .. 2^63-1, offset by
-- 2^64 above; numeric -> simhash -> numeric is the identity.
SELECT count(*) AS numeric_bigint_mismatches
  FROM (SELECT (floor(random() * 4294967296)::bigint << 32 | floor(random() * 4294967296)::bigint) AS i
          FROM generate_series(1, 10000)
        UNION ALL SELECT unnest(ARRAY[0, 1, -1, 9223372036854775807, -9223372036854775808]::bigint[])) r
 WHERE i::simhash::numeric <> CASE WHEN i >= 0 THEN i::numeric ELSE i::numeric + 18446744073709551616 END
    OR (CASE WHEN i >= 0 THEN i::numeric ELSE i::numeric + 18446744073709551616 END)::simhash <> i::simhash
    OR i::simhash::numeric::simhash <> i::simhash;

-- Unsigned order is numeric order.
SELECT count(*) AS order_mismatches
  FROM (SELECT (floor(random() * 4294967296)::bigint << 32 | floor(random() * 4294967296)::bigint)::simhash AS a,
               (floor(random() * 4294967296)::bigint << 32 | floor(random() * 4294967296)::bigint)::simhash AS b
          FROM generate_series(1, 10000)) r
 WHERE (a < b) <> (a::numeric < b::numeric);

-- Everything else is an error: out of range 22003, not an integer 22023.
DO $$
DECLARE
	v text;
BEGIN
	FOREACH v IN ARRAY ARRAY['-1', '-9223372036854775808', '18446744073709551616', '1e24', '1e100',
							 '0.5', '1.5', '18446744073709551614.5', '-0.5', 'NaN']
	LOOP
		BEGIN
			PERFORM v::numeric::simhash;
			RAISE NOTICE '% accepted', v;
		EXCEPTION WHEN OTHERS THEN
			RAISE NOTICE '%: % %', v, SQLSTATE, SQLERRM;
		END;
	END LOOP;
END
$$;
-- ±Infinity are out of range (22003).  numeric has them from PostgreSQL 14
-- on; on 13 there is no such value to reject, and the check holds vacuously.
DO $$
DECLARE
	v text;
	x numeric;
	ok bool := true;
BEGIN
	FOREACH v IN ARRAY ARRAY['Infinity', '-Infinity']
	LOOP
		BEGIN
			x := v::numeric;
		EXCEPTION WHEN invalid_text_representation THEN
			CONTINUE;
		END;
		BEGIN
			PERFORM x::simhash;
			ok := false;
		EXCEPTION WHEN OTHERS THEN
			ok := ok AND SQLSTATE = '22003';
		END;
	END LOOP;
	RAISE NOTICE 'infinities rejected with 22003: %', ok;
END
$$;
\set VERBOSITY default
SELECT (-1)::numeric::simhash;
SELECT 1.5::numeric::simhash;
\set VERBOSITY terse

-- integer and smallint widen as bigint does.
SELECT 5::simhash AS five, (-1)::simhash AS minus_one_int4,
       5::smallint::simhash AS five_int2, (-2)::smallint::simhash AS minus_two_int2,
       2147483647::simhash AS int4_max;

-- The casts into simhash are assignment casts: INSERT and UPDATE take any
-- integer type a driver sends (psycopg 3 sends a Python int as int2, int4, int8
-- or numeric by its size), and a numeric parameter.
CREATE TEMP TABLE fps (fp simhash);
PREPARE put_numeric(numeric) AS INSERT INTO fps (fp) VALUES ($1);
EXECUTE put_numeric(18446744073709551615);
EXECUTE put_numeric(9223372036854775808);
PREPARE put_int8(bigint) AS INSERT INTO fps (fp) VALUES ($1);
EXECUTE put_int8(9223372036854775807);
INSERT INTO fps VALUES (1::smallint), (2), (3::bigint), (4::numeric);
UPDATE fps SET fp = 18446744073709551614 WHERE fp = '0000000000000004';
SELECT fp, fp::numeric AS unsigned, fp::bigint AS signed FROM fps ORDER BY fp;
EXECUTE put_numeric(-1);
DROP TABLE fps;
DEALLOCATE ALL;

-- Never implicit: a number is not silently taken for a fingerprint in an
-- expression, nor a fingerprint for a number.
SELECT '0000000000000001'::simhash = 1;
SELECT '0000000000000001'::simhash = 1.0;
SELECT '0000000000000001'::simhash + 1;

-- Decimal is not a text form: 16 decimal digits are read as 16 hex digits,
-- so the digits' count would decide their base.  Decimal goes through numeric.
SELECT '1234567890123456'::simhash AS hex, 1234567890123456::numeric::simhash AS decimal;
SELECT '18446744073709551615'::simhash;
