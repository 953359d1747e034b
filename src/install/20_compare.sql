-- Comparison operators, btree and hash opclasses.  Fingerprints order as
-- unsigned 64-bit integers (the order of their hexadecimal text).

CREATE FUNCTION simhash_eq(simhash, simhash) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION simhash_ne(simhash, simhash) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION simhash_lt(simhash, simhash) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION simhash_le(simhash, simhash) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION simhash_gt(simhash, simhash) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION simhash_ge(simhash, simhash) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION simhash_cmp(simhash, simhash) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION simhash_sortsupport(internal) RETURNS void
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION simhash_hash(simhash) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION simhash_hash_extended(simhash, bigint) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

COMMENT ON FUNCTION simhash_eq(simhash, simhash) IS 'equal';
COMMENT ON FUNCTION simhash_ne(simhash, simhash) IS 'not equal';
COMMENT ON FUNCTION simhash_lt(simhash, simhash) IS 'less than, as unsigned 64-bit values';
COMMENT ON FUNCTION simhash_le(simhash, simhash) IS 'less than or equal, as unsigned 64-bit values';
COMMENT ON FUNCTION simhash_gt(simhash, simhash) IS 'greater than, as unsigned 64-bit values';
COMMENT ON FUNCTION simhash_ge(simhash, simhash) IS 'greater than or equal, as unsigned 64-bit values';
COMMENT ON FUNCTION simhash_cmp(simhash, simhash) IS 'btree comparison: -1, 0 or 1, as unsigned 64-bit values';
COMMENT ON FUNCTION simhash_sortsupport(internal) IS 'btree sort support';
COMMENT ON FUNCTION simhash_hash(simhash) IS 'hash opclass support: 32-bit hash';
COMMENT ON FUNCTION simhash_hash_extended(simhash, bigint) IS 'hash opclass support: seeded 64-bit hash';

CREATE OPERATOR = (
	LEFTARG = simhash, RIGHTARG = simhash, FUNCTION = simhash_eq,
	COMMUTATOR = =, NEGATOR = <>,
	RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR <> (
	LEFTARG = simhash, RIGHTARG = simhash, FUNCTION = simhash_ne,
	COMMUTATOR = <>, NEGATOR = =,
	RESTRICT = neqsel, JOIN = neqjoinsel
);
CREATE OPERATOR < (
	LEFTARG = simhash, RIGHTARG = simhash, FUNCTION = simhash_lt,
	COMMUTATOR = >, NEGATOR = >=,
	RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
CREATE OPERATOR <= (
	LEFTARG = simhash, RIGHTARG = simhash, FUNCTION = simhash_le,
	COMMUTATOR = >=, NEGATOR = >,
	RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
CREATE OPERATOR > (
	LEFTARG = simhash, RIGHTARG = simhash, FUNCTION = simhash_gt,
	COMMUTATOR = <, NEGATOR = <=,
	RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
CREATE OPERATOR >= (
	LEFTARG = simhash, RIGHTARG = simhash, FUNCTION = simhash_ge,
	COMMUTATOR = <=, NEGATOR = <,
	RESTRICT = scalargesel, JOIN = scalargejoinsel
);

COMMENT ON OPERATOR = (simhash, simhash) IS 'equal';
COMMENT ON OPERATOR <> (simhash, simhash) IS 'not equal';
COMMENT ON OPERATOR < (simhash, simhash) IS 'less than, as unsigned 64-bit values';
COMMENT ON OPERATOR <= (simhash, simhash) IS 'less than or equal, as unsigned 64-bit values';
COMMENT ON OPERATOR > (simhash, simhash) IS 'greater than, as unsigned 64-bit values';
COMMENT ON OPERATOR >= (simhash, simhash) IS 'greater than or equal, as unsigned 64-bit values';

CREATE OPERATOR CLASS simhash_ops
	DEFAULT FOR TYPE simhash USING btree AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 simhash_cmp(simhash, simhash),
	FUNCTION 2 simhash_sortsupport(internal);

CREATE OPERATOR CLASS simhash_ops
	DEFAULT FOR TYPE simhash USING hash AS
	OPERATOR 1 =,
	FUNCTION 1 simhash_hash(simhash),
	FUNCTION 2 simhash_hash_extended(simhash, bigint);
