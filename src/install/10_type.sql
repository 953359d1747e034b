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
-- unchanged both ways (ffffffffffffffff <-> -1).
CREATE CAST (simhash AS bigint) WITHOUT FUNCTION;
CREATE CAST (bigint AS simhash) WITHOUT FUNCTION;
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
