-- Comparisons of distances: =, <>, <, <=, > and >= between a
-- simhash_distance (30_distance.sql) and an integer of any width on either
-- side, or another distance.  Written by src/install/gen/distance_compare.sh
-- ("make generate"): edit that script, not this file.
--
-- They are the extension's own, and each function carries the planner
-- support (50_planner.sql), which is what rewrites "fp <-> q <= k" into a
-- clause an index can answer.  Operators on a domain are chosen only when
-- every argument matches exactly, so each comparison exists for every
-- signature below; otherwise "fp <-> q <= $1" with an untyped parameter
-- would resolve to core's int4le, and with a smallint one to int42le.
-- simhash_distance_<op> serves the three int4 signatures (a
-- simhash_distance is an int4 underneath); smallint and bigint have their
-- own functions, because drivers send them (psycopg sends a small Python
-- int as smallint, JDBC's setLong a bigint) and the operator chosen for
-- them must be the extension's.  <op> is eq, ne, lt, le, gt or ge:
--
--   simhash_distance_<op>      (simhash_distance, integer)
--   simhash_distance_<op>      (integer, simhash_distance)
--   simhash_distance_<op>      (simhash_distance, simhash_distance)
--   simhash_distance_<op>_int2 (simhash_distance, smallint)
--   int2_<op>_simhash_distance (smallint, simhash_distance)
--   simhash_distance_<op>_int8 (simhash_distance, bigint)
--   int8_<op>_simhash_distance (bigint, simhash_distance)

CREATE FUNCTION simhash_distance_eq(simhash_distance, integer) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT simhash_distance_support;
COMMENT ON FUNCTION simhash_distance_eq(simhash_distance, integer) IS 'distance equal';
CREATE OPERATOR = (
	LEFTARG = simhash_distance, RIGHTARG = integer, FUNCTION = simhash_distance_eq,
	COMMUTATOR = =, NEGATOR = <>,
	RESTRICT = eqsel, JOIN = eqjoinsel
);
COMMENT ON OPERATOR = (simhash_distance, integer) IS 'distance equal';

CREATE FUNCTION simhash_distance_eq(integer, simhash_distance) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT simhash_distance_support;
COMMENT ON FUNCTION simhash_distance_eq(integer, simhash_distance) IS 'distance equal';
CREATE OPERATOR = (
	LEFTARG = integer, RIGHTARG = simhash_distance, FUNCTION = simhash_distance_eq,
	COMMUTATOR = =, NEGATOR = <>,
	RESTRICT = eqsel, JOIN = eqjoinsel
);
COMMENT ON OPERATOR = (integer, simhash_distance) IS 'distance equal';

CREATE FUNCTION simhash_distance_eq(simhash_distance, simhash_distance) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT simhash_distance_support;
COMMENT ON FUNCTION simhash_distance_eq(simhash_distance, simhash_distance) IS 'distance equal';
CREATE OPERATOR = (
	LEFTARG = simhash_distance, RIGHTARG = simhash_distance, FUNCTION = simhash_distance_eq,
	COMMUTATOR = =, NEGATOR = <>,
	RESTRICT = eqsel, JOIN = eqjoinsel
);
COMMENT ON OPERATOR = (simhash_distance, simhash_distance) IS 'distance equal';

CREATE FUNCTION simhash_distance_eq_int2(simhash_distance, smallint) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT simhash_distance_support;
COMMENT ON FUNCTION simhash_distance_eq_int2(simhash_distance, smallint) IS 'distance equal';
CREATE OPERATOR = (
	LEFTARG = simhash_distance, RIGHTARG = smallint, FUNCTION = simhash_distance_eq_int2,
	COMMUTATOR = =, NEGATOR = <>,
	RESTRICT = eqsel, JOIN = eqjoinsel
);
COMMENT ON OPERATOR = (simhash_distance, smallint) IS 'distance equal';

CREATE FUNCTION int2_eq_simhash_distance(smallint, simhash_distance) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT simhash_distance_support;
COMMENT ON FUNCTION int2_eq_simhash_distance(smallint, simhash_distance) IS 'distance equal';
CREATE OPERATOR = (
	LEFTARG = smallint, RIGHTARG = simhash_distance, FUNCTION = int2_eq_simhash_distance,
	COMMUTATOR = =, NEGATOR = <>,
	RESTRICT = eqsel, JOIN = eqjoinsel
);
COMMENT ON OPERATOR = (smallint, simhash_distance) IS 'distance equal';

CREATE FUNCTION simhash_distance_eq_int8(simhash_distance, bigint) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT simhash_distance_support;
COMMENT ON FUNCTION simhash_distance_eq_int8(simhash_distance, bigint) IS 'distance equal';
CREATE OPERATOR = (
	LEFTARG = simhash_distance, RIGHTARG = bigint, FUNCTION = simhash_distance_eq_int8,
	COMMUTATOR = =, NEGATOR = <>,
	RESTRICT = eqsel, JOIN = eqjoinsel
);
COMMENT ON OPERATOR = (simhash_distance, bigint) IS 'distance equal';

CREATE FUNCTION int8_eq_simhash_distance(bigint, simhash_distance) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT simhash_distance_support;
COMMENT ON FUNCTION int8_eq_simhash_distance(bigint, simhash_distance) IS 'distance equal';
CREATE OPERATOR = (
	LEFTARG = bigint, RIGHTARG = simhash_distance, FUNCTION = int8_eq_simhash_distance,
	COMMUTATOR = =, NEGATOR = <>,
	RESTRICT = eqsel, JOIN = eqjoinsel
);
COMMENT ON OPERATOR = (bigint, simhash_distance) IS 'distance equal';

CREATE FUNCTION simhash_distance_ne(simhash_distance, integer) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT simhash_distance_support;
COMMENT ON FUNCTION simhash_distance_ne(simhash_distance, integer) IS 'distance not equal';
CREATE OPERATOR <> (
	LEFTARG = simhash_distance, RIGHTARG = integer, FUNCTION = simhash_distance_ne,
	COMMUTATOR = <>, NEGATOR = =,
	RESTRICT = neqsel, JOIN = neqjoinsel
);
COMMENT ON OPERATOR <> (simhash_distance, integer) IS 'distance not equal';

CREATE FUNCTION simhash_distance_ne(integer, simhash_distance) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT simhash_distance_support;
COMMENT ON FUNCTION simhash_distance_ne(integer, simhash_distance) IS 'distance not equal';
CREATE OPERATOR <> (
	LEFTARG = integer, RIGHTARG = simhash_distance, FUNCTION = simhash_distance_ne,
	COMMUTATOR = <>, NEGATOR = =,
	RESTRICT = neqsel, JOIN = neqjoinsel
);
COMMENT ON OPERATOR <> (integer, simhash_distance) IS 'distance not equal';

CREATE FUNCTION simhash_distance_ne(simhash_distance, simhash_distance) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT simhash_distance_support;
COMMENT ON FUNCTION simhash_distance_ne(simhash_distance, simhash_distance) IS 'distance not equal';
CREATE OPERATOR <> (
	LEFTARG = simhash_distance, RIGHTARG = simhash_distance, FUNCTION = simhash_distance_ne,
	COMMUTATOR = <>, NEGATOR = =,
	RESTRICT = neqsel, JOIN = neqjoinsel
);
COMMENT ON OPERATOR <> (simhash_distance, simhash_distance) IS 'distance not equal';

CREATE FUNCTION simhash_distance_ne_int2(simhash_distance, smallint) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT simhash_distance_support;
COMMENT ON FUNCTION simhash_distance_ne_int2(simhash_distance, smallint) IS 'distance not equal';
CREATE OPERATOR <> (
	LEFTARG = simhash_distance, RIGHTARG = smallint, FUNCTION = simhash_distance_ne_int2,
	COMMUTATOR = <>, NEGATOR = =,
	RESTRICT = neqsel, JOIN = neqjoinsel
);
COMMENT ON OPERATOR <> (simhash_distance, smallint) IS 'distance not equal';

CREATE FUNCTION int2_ne_simhash_distance(smallint, simhash_distance) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT simhash_distance_support;
COMMENT ON FUNCTION int2_ne_simhash_distance(smallint, simhash_distance) IS 'distance not equal';
CREATE OPERATOR <> (
	LEFTARG = smallint, RIGHTARG = simhash_distance, FUNCTION = int2_ne_simhash_distance,
	COMMUTATOR = <>, NEGATOR = =,
	RESTRICT = neqsel, JOIN = neqjoinsel
);
COMMENT ON OPERATOR <> (smallint, simhash_distance) IS 'distance not equal';

CREATE FUNCTION simhash_distance_ne_int8(simhash_distance, bigint) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT simhash_distance_support;
COMMENT ON FUNCTION simhash_distance_ne_int8(simhash_distance, bigint) IS 'distance not equal';
CREATE OPERATOR <> (
	LEFTARG = simhash_distance, RIGHTARG = bigint, FUNCTION = simhash_distance_ne_int8,
	COMMUTATOR = <>, NEGATOR = =,
	RESTRICT = neqsel, JOIN = neqjoinsel
);
COMMENT ON OPERATOR <> (simhash_distance, bigint) IS 'distance not equal';

CREATE FUNCTION int8_ne_simhash_distance(bigint, simhash_distance) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT simhash_distance_support;
COMMENT ON FUNCTION int8_ne_simhash_distance(bigint, simhash_distance) IS 'distance not equal';
CREATE OPERATOR <> (
	LEFTARG = bigint, RIGHTARG = simhash_distance, FUNCTION = int8_ne_simhash_distance,
	COMMUTATOR = <>, NEGATOR = =,
	RESTRICT = neqsel, JOIN = neqjoinsel
);
COMMENT ON OPERATOR <> (bigint, simhash_distance) IS 'distance not equal';

CREATE FUNCTION simhash_distance_lt(simhash_distance, integer) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT simhash_distance_support;
COMMENT ON FUNCTION simhash_distance_lt(simhash_distance, integer) IS 'distance less than';
CREATE OPERATOR < (
	LEFTARG = simhash_distance, RIGHTARG = integer, FUNCTION = simhash_distance_lt,
	COMMUTATOR = >, NEGATOR = >=,
	RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
COMMENT ON OPERATOR < (simhash_distance, integer) IS 'distance less than';

CREATE FUNCTION simhash_distance_lt(integer, simhash_distance) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT simhash_distance_support;
COMMENT ON FUNCTION simhash_distance_lt(integer, simhash_distance) IS 'distance less than';
CREATE OPERATOR < (
	LEFTARG = integer, RIGHTARG = simhash_distance, FUNCTION = simhash_distance_lt,
	COMMUTATOR = >, NEGATOR = >=,
	RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
COMMENT ON OPERATOR < (integer, simhash_distance) IS 'distance less than';

CREATE FUNCTION simhash_distance_lt(simhash_distance, simhash_distance) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT simhash_distance_support;
COMMENT ON FUNCTION simhash_distance_lt(simhash_distance, simhash_distance) IS 'distance less than';
CREATE OPERATOR < (
	LEFTARG = simhash_distance, RIGHTARG = simhash_distance, FUNCTION = simhash_distance_lt,
	COMMUTATOR = >, NEGATOR = >=,
	RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
COMMENT ON OPERATOR < (simhash_distance, simhash_distance) IS 'distance less than';

CREATE FUNCTION simhash_distance_lt_int2(simhash_distance, smallint) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT simhash_distance_support;
COMMENT ON FUNCTION simhash_distance_lt_int2(simhash_distance, smallint) IS 'distance less than';
CREATE OPERATOR < (
	LEFTARG = simhash_distance, RIGHTARG = smallint, FUNCTION = simhash_distance_lt_int2,
	COMMUTATOR = >, NEGATOR = >=,
	RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
COMMENT ON OPERATOR < (simhash_distance, smallint) IS 'distance less than';

CREATE FUNCTION int2_lt_simhash_distance(smallint, simhash_distance) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT simhash_distance_support;
COMMENT ON FUNCTION int2_lt_simhash_distance(smallint, simhash_distance) IS 'distance less than';
CREATE OPERATOR < (
	LEFTARG = smallint, RIGHTARG = simhash_distance, FUNCTION = int2_lt_simhash_distance,
	COMMUTATOR = >, NEGATOR = >=,
	RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
COMMENT ON OPERATOR < (smallint, simhash_distance) IS 'distance less than';

CREATE FUNCTION simhash_distance_lt_int8(simhash_distance, bigint) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT simhash_distance_support;
COMMENT ON FUNCTION simhash_distance_lt_int8(simhash_distance, bigint) IS 'distance less than';
CREATE OPERATOR < (
	LEFTARG = simhash_distance, RIGHTARG = bigint, FUNCTION = simhash_distance_lt_int8,
	COMMUTATOR = >, NEGATOR = >=,
	RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
COMMENT ON OPERATOR < (simhash_distance, bigint) IS 'distance less than';

CREATE FUNCTION int8_lt_simhash_distance(bigint, simhash_distance) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT simhash_distance_support;
COMMENT ON FUNCTION int8_lt_simhash_distance(bigint, simhash_distance) IS 'distance less than';
CREATE OPERATOR < (
	LEFTARG = bigint, RIGHTARG = simhash_distance, FUNCTION = int8_lt_simhash_distance,
	COMMUTATOR = >, NEGATOR = >=,
	RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
COMMENT ON OPERATOR < (bigint, simhash_distance) IS 'distance less than';

CREATE FUNCTION simhash_distance_le(simhash_distance, integer) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT simhash_distance_support;
COMMENT ON FUNCTION simhash_distance_le(simhash_distance, integer) IS 'distance less than or equal';
CREATE OPERATOR <= (
	LEFTARG = simhash_distance, RIGHTARG = integer, FUNCTION = simhash_distance_le,
	COMMUTATOR = >=, NEGATOR = >,
	RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
COMMENT ON OPERATOR <= (simhash_distance, integer) IS 'distance less than or equal';

CREATE FUNCTION simhash_distance_le(integer, simhash_distance) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT simhash_distance_support;
COMMENT ON FUNCTION simhash_distance_le(integer, simhash_distance) IS 'distance less than or equal';
CREATE OPERATOR <= (
	LEFTARG = integer, RIGHTARG = simhash_distance, FUNCTION = simhash_distance_le,
	COMMUTATOR = >=, NEGATOR = >,
	RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
COMMENT ON OPERATOR <= (integer, simhash_distance) IS 'distance less than or equal';

CREATE FUNCTION simhash_distance_le(simhash_distance, simhash_distance) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT simhash_distance_support;
COMMENT ON FUNCTION simhash_distance_le(simhash_distance, simhash_distance) IS 'distance less than or equal';
CREATE OPERATOR <= (
	LEFTARG = simhash_distance, RIGHTARG = simhash_distance, FUNCTION = simhash_distance_le,
	COMMUTATOR = >=, NEGATOR = >,
	RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
COMMENT ON OPERATOR <= (simhash_distance, simhash_distance) IS 'distance less than or equal';

CREATE FUNCTION simhash_distance_le_int2(simhash_distance, smallint) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT simhash_distance_support;
COMMENT ON FUNCTION simhash_distance_le_int2(simhash_distance, smallint) IS 'distance less than or equal';
CREATE OPERATOR <= (
	LEFTARG = simhash_distance, RIGHTARG = smallint, FUNCTION = simhash_distance_le_int2,
	COMMUTATOR = >=, NEGATOR = >,
	RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
COMMENT ON OPERATOR <= (simhash_distance, smallint) IS 'distance less than or equal';

CREATE FUNCTION int2_le_simhash_distance(smallint, simhash_distance) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT simhash_distance_support;
COMMENT ON FUNCTION int2_le_simhash_distance(smallint, simhash_distance) IS 'distance less than or equal';
CREATE OPERATOR <= (
	LEFTARG = smallint, RIGHTARG = simhash_distance, FUNCTION = int2_le_simhash_distance,
	COMMUTATOR = >=, NEGATOR = >,
	RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
COMMENT ON OPERATOR <= (smallint, simhash_distance) IS 'distance less than or equal';

CREATE FUNCTION simhash_distance_le_int8(simhash_distance, bigint) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT simhash_distance_support;
COMMENT ON FUNCTION simhash_distance_le_int8(simhash_distance, bigint) IS 'distance less than or equal';
CREATE OPERATOR <= (
	LEFTARG = simhash_distance, RIGHTARG = bigint, FUNCTION = simhash_distance_le_int8,
	COMMUTATOR = >=, NEGATOR = >,
	RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
COMMENT ON OPERATOR <= (simhash_distance, bigint) IS 'distance less than or equal';

CREATE FUNCTION int8_le_simhash_distance(bigint, simhash_distance) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT simhash_distance_support;
COMMENT ON FUNCTION int8_le_simhash_distance(bigint, simhash_distance) IS 'distance less than or equal';
CREATE OPERATOR <= (
	LEFTARG = bigint, RIGHTARG = simhash_distance, FUNCTION = int8_le_simhash_distance,
	COMMUTATOR = >=, NEGATOR = >,
	RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
COMMENT ON OPERATOR <= (bigint, simhash_distance) IS 'distance less than or equal';

CREATE FUNCTION simhash_distance_gt(simhash_distance, integer) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT simhash_distance_support;
COMMENT ON FUNCTION simhash_distance_gt(simhash_distance, integer) IS 'distance greater than';
CREATE OPERATOR > (
	LEFTARG = simhash_distance, RIGHTARG = integer, FUNCTION = simhash_distance_gt,
	COMMUTATOR = <, NEGATOR = <=,
	RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
COMMENT ON OPERATOR > (simhash_distance, integer) IS 'distance greater than';

CREATE FUNCTION simhash_distance_gt(integer, simhash_distance) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT simhash_distance_support;
COMMENT ON FUNCTION simhash_distance_gt(integer, simhash_distance) IS 'distance greater than';
CREATE OPERATOR > (
	LEFTARG = integer, RIGHTARG = simhash_distance, FUNCTION = simhash_distance_gt,
	COMMUTATOR = <, NEGATOR = <=,
	RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
COMMENT ON OPERATOR > (integer, simhash_distance) IS 'distance greater than';

CREATE FUNCTION simhash_distance_gt(simhash_distance, simhash_distance) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT simhash_distance_support;
COMMENT ON FUNCTION simhash_distance_gt(simhash_distance, simhash_distance) IS 'distance greater than';
CREATE OPERATOR > (
	LEFTARG = simhash_distance, RIGHTARG = simhash_distance, FUNCTION = simhash_distance_gt,
	COMMUTATOR = <, NEGATOR = <=,
	RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
COMMENT ON OPERATOR > (simhash_distance, simhash_distance) IS 'distance greater than';

CREATE FUNCTION simhash_distance_gt_int2(simhash_distance, smallint) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT simhash_distance_support;
COMMENT ON FUNCTION simhash_distance_gt_int2(simhash_distance, smallint) IS 'distance greater than';
CREATE OPERATOR > (
	LEFTARG = simhash_distance, RIGHTARG = smallint, FUNCTION = simhash_distance_gt_int2,
	COMMUTATOR = <, NEGATOR = <=,
	RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
COMMENT ON OPERATOR > (simhash_distance, smallint) IS 'distance greater than';

CREATE FUNCTION int2_gt_simhash_distance(smallint, simhash_distance) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT simhash_distance_support;
COMMENT ON FUNCTION int2_gt_simhash_distance(smallint, simhash_distance) IS 'distance greater than';
CREATE OPERATOR > (
	LEFTARG = smallint, RIGHTARG = simhash_distance, FUNCTION = int2_gt_simhash_distance,
	COMMUTATOR = <, NEGATOR = <=,
	RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
COMMENT ON OPERATOR > (smallint, simhash_distance) IS 'distance greater than';

CREATE FUNCTION simhash_distance_gt_int8(simhash_distance, bigint) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT simhash_distance_support;
COMMENT ON FUNCTION simhash_distance_gt_int8(simhash_distance, bigint) IS 'distance greater than';
CREATE OPERATOR > (
	LEFTARG = simhash_distance, RIGHTARG = bigint, FUNCTION = simhash_distance_gt_int8,
	COMMUTATOR = <, NEGATOR = <=,
	RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
COMMENT ON OPERATOR > (simhash_distance, bigint) IS 'distance greater than';

CREATE FUNCTION int8_gt_simhash_distance(bigint, simhash_distance) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT simhash_distance_support;
COMMENT ON FUNCTION int8_gt_simhash_distance(bigint, simhash_distance) IS 'distance greater than';
CREATE OPERATOR > (
	LEFTARG = bigint, RIGHTARG = simhash_distance, FUNCTION = int8_gt_simhash_distance,
	COMMUTATOR = <, NEGATOR = <=,
	RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
COMMENT ON OPERATOR > (bigint, simhash_distance) IS 'distance greater than';

CREATE FUNCTION simhash_distance_ge(simhash_distance, integer) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT simhash_distance_support;
COMMENT ON FUNCTION simhash_distance_ge(simhash_distance, integer) IS 'distance greater than or equal';
CREATE OPERATOR >= (
	LEFTARG = simhash_distance, RIGHTARG = integer, FUNCTION = simhash_distance_ge,
	COMMUTATOR = <=, NEGATOR = <,
	RESTRICT = scalargesel, JOIN = scalargejoinsel
);
COMMENT ON OPERATOR >= (simhash_distance, integer) IS 'distance greater than or equal';

CREATE FUNCTION simhash_distance_ge(integer, simhash_distance) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT simhash_distance_support;
COMMENT ON FUNCTION simhash_distance_ge(integer, simhash_distance) IS 'distance greater than or equal';
CREATE OPERATOR >= (
	LEFTARG = integer, RIGHTARG = simhash_distance, FUNCTION = simhash_distance_ge,
	COMMUTATOR = <=, NEGATOR = <,
	RESTRICT = scalargesel, JOIN = scalargejoinsel
);
COMMENT ON OPERATOR >= (integer, simhash_distance) IS 'distance greater than or equal';

CREATE FUNCTION simhash_distance_ge(simhash_distance, simhash_distance) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT simhash_distance_support;
COMMENT ON FUNCTION simhash_distance_ge(simhash_distance, simhash_distance) IS 'distance greater than or equal';
CREATE OPERATOR >= (
	LEFTARG = simhash_distance, RIGHTARG = simhash_distance, FUNCTION = simhash_distance_ge,
	COMMUTATOR = <=, NEGATOR = <,
	RESTRICT = scalargesel, JOIN = scalargejoinsel
);
COMMENT ON OPERATOR >= (simhash_distance, simhash_distance) IS 'distance greater than or equal';

CREATE FUNCTION simhash_distance_ge_int2(simhash_distance, smallint) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT simhash_distance_support;
COMMENT ON FUNCTION simhash_distance_ge_int2(simhash_distance, smallint) IS 'distance greater than or equal';
CREATE OPERATOR >= (
	LEFTARG = simhash_distance, RIGHTARG = smallint, FUNCTION = simhash_distance_ge_int2,
	COMMUTATOR = <=, NEGATOR = <,
	RESTRICT = scalargesel, JOIN = scalargejoinsel
);
COMMENT ON OPERATOR >= (simhash_distance, smallint) IS 'distance greater than or equal';

CREATE FUNCTION int2_ge_simhash_distance(smallint, simhash_distance) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT simhash_distance_support;
COMMENT ON FUNCTION int2_ge_simhash_distance(smallint, simhash_distance) IS 'distance greater than or equal';
CREATE OPERATOR >= (
	LEFTARG = smallint, RIGHTARG = simhash_distance, FUNCTION = int2_ge_simhash_distance,
	COMMUTATOR = <=, NEGATOR = <,
	RESTRICT = scalargesel, JOIN = scalargejoinsel
);
COMMENT ON OPERATOR >= (smallint, simhash_distance) IS 'distance greater than or equal';

CREATE FUNCTION simhash_distance_ge_int8(simhash_distance, bigint) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT simhash_distance_support;
COMMENT ON FUNCTION simhash_distance_ge_int8(simhash_distance, bigint) IS 'distance greater than or equal';
CREATE OPERATOR >= (
	LEFTARG = simhash_distance, RIGHTARG = bigint, FUNCTION = simhash_distance_ge_int8,
	COMMUTATOR = <=, NEGATOR = <,
	RESTRICT = scalargesel, JOIN = scalargejoinsel
);
COMMENT ON OPERATOR >= (simhash_distance, bigint) IS 'distance greater than or equal';

CREATE FUNCTION int8_ge_simhash_distance(bigint, simhash_distance) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT simhash_distance_support;
COMMENT ON FUNCTION int8_ge_simhash_distance(bigint, simhash_distance) IS 'distance greater than or equal';
CREATE OPERATOR >= (
	LEFTARG = bigint, RIGHTARG = simhash_distance, FUNCTION = int8_ge_simhash_distance,
	COMMUTATOR = <=, NEGATOR = <,
	RESTRICT = scalargesel, JOIN = scalargejoinsel
);
COMMENT ON OPERATOR >= (bigint, simhash_distance) IS 'distance greater than or equal';
