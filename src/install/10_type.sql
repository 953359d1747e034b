-- The simhash type: a 64-bit fingerprint, stored and passed like int8.

CREATE TYPE simhash;

CREATE FUNCTION simhash_in(cstring) RETURNS simhash
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION simhash_out(simhash) RETURNS cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION simhash_recv(internal) RETURNS simhash
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION simhash_send(simhash) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE simhash (
	INPUT = simhash_in,
	OUTPUT = simhash_out,
	RECEIVE = simhash_recv,
	SEND = simhash_send,
	LIKE = pg_catalog.int8,
	CATEGORY = 'U'
);

COMMENT ON TYPE simhash IS '64-bit simhash fingerprint; text form is 16 hexadecimal digits';
COMMENT ON FUNCTION simhash_in(cstring) IS 'parse 16 hex digits (optional 0x) or 64 binary digits (optional 0b)';
COMMENT ON FUNCTION simhash_out(simhash) IS 'format as 16 lowercase hexadecimal digits';
COMMENT ON FUNCTION simhash_recv(internal) IS 'read the binary form: 8 bytes, network byte order';
COMMENT ON FUNCTION simhash_send(simhash) IS 'write the binary form: 8 bytes, network byte order';

-- Casts.  bigint shares the representation, so those casts copy the bits
-- unchanged both ways (ffffffffffffffff <-> -1): the signed reading.  Into
-- simhash it is an assignment cast, like the other integer casts below.
CREATE CAST (simhash AS bigint) WITHOUT FUNCTION;
CREATE CAST (bigint AS simhash) WITHOUT FUNCTION AS ASSIGNMENT;
COMMENT ON CAST (simhash AS bigint) IS 'same 64 bits as a signed bigint';
COMMENT ON CAST (bigint AS simhash) IS 'same 64 bits as a fingerprint';

CREATE FUNCTION simhash_to_bit(simhash) RETURNS bit
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bit_to_simhash(bit) RETURNS simhash
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION simhash_to_bit(simhash) IS 'the fingerprint as bit(64), most significant bit first';
COMMENT ON FUNCTION bit_to_simhash(bit) IS 'a bit(64) string as a fingerprint, most significant bit first';

CREATE CAST (simhash AS bit) WITH FUNCTION simhash_to_bit(simhash);
CREATE CAST (bit AS simhash) WITH FUNCTION bit_to_simhash(bit);
COMMENT ON CAST (simhash AS bit) IS 'the fingerprint as bit(64)';
COMMENT ON CAST (bit AS simhash) IS 'a bit(64) string as a fingerprint';

-- Unsigned 64-bit integers (Python int, JS BigInt, Go uint64, ClickHouse
-- UInt64) travel as numeric: numeric <-> simhash reads and gives the
-- unsigned value of the 64 bits, 0 .. 2^64-1, and rejects anything else.
-- integer and smallint widen like bigint.  The casts into simhash are
-- assignment casts, so INSERT and UPDATE take any integer a driver sends
-- (psycopg: int2, int4, int8 or numeric by size); never implicit, so no
-- number is taken for a fingerprint in an expression (fp = 5 stays an
-- error).  See doc/reference.md, "Integers: which cast to use".
CREATE FUNCTION numeric_to_simhash(numeric) RETURNS simhash
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION simhash_to_numeric(simhash) RETURNS numeric
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION int4_to_simhash(integer) RETURNS simhash
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION int2_to_simhash(smallint) RETURNS simhash
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION numeric_to_simhash(numeric) IS 'an unsigned 64-bit integer, 0 to 2^64-1, as a fingerprint';
COMMENT ON FUNCTION simhash_to_numeric(simhash) IS 'the fingerprint as an unsigned 64-bit integer, 0 to 2^64-1';
COMMENT ON FUNCTION int4_to_simhash(integer) IS 'an integer widened to 64 bits as bigint is, as a fingerprint';
COMMENT ON FUNCTION int2_to_simhash(smallint) IS 'a smallint widened to 64 bits as bigint is, as a fingerprint';

CREATE CAST (numeric AS simhash) WITH FUNCTION numeric_to_simhash(numeric) AS ASSIGNMENT;
CREATE CAST (simhash AS numeric) WITH FUNCTION simhash_to_numeric(simhash) AS ASSIGNMENT;
CREATE CAST (integer AS simhash) WITH FUNCTION int4_to_simhash(integer) AS ASSIGNMENT;
CREATE CAST (smallint AS simhash) WITH FUNCTION int2_to_simhash(smallint) AS ASSIGNMENT;
COMMENT ON CAST (numeric AS simhash) IS 'an unsigned 64-bit integer as a fingerprint';
COMMENT ON CAST (simhash AS numeric) IS 'the fingerprint as an unsigned 64-bit integer';
COMMENT ON CAST (integer AS simhash) IS 'an integer widened as bigint is, as a fingerprint';
COMMENT ON CAST (smallint AS simhash) IS 'a smallint widened as bigint is, as a fingerprint';
