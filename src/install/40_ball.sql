-- simhash_ball: "within radius r of center c", with the radius in the
-- operand so that the clause stays IMMUTABLE (indexable, shippable).

CREATE TYPE simhash_ball;

CREATE FUNCTION simhash_ball_in(cstring) RETURNS simhash_ball
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION simhash_ball_out(simhash_ball) RETURNS cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION simhash_ball_recv(internal) RETURNS simhash_ball
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION simhash_ball_send(simhash_ball) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE simhash_ball (
	INPUT = simhash_ball_in,
	OUTPUT = simhash_ball_out,
	RECEIVE = simhash_ball_recv,
	SEND = simhash_ball_send,
	INTERNALLENGTH = 16,
	ALIGNMENT = double,
	STORAGE = plain
);
COMMENT ON TYPE simhash_ball IS 'a center fingerprint and a radius: the fingerprints within that Hamming distance';
COMMENT ON FUNCTION simhash_ball_in(cstring) IS 'parse center/radius, as in 0123456789abcdef/3';
COMMENT ON FUNCTION simhash_ball_out(simhash_ball) IS 'format as center/radius';
COMMENT ON FUNCTION simhash_ball_recv(internal) IS 'read the binary form: center (8 bytes), radius (4 bytes)';
COMMENT ON FUNCTION simhash_ball_send(simhash_ball) IS 'write the binary form: center (8 bytes), radius (4 bytes)';

CREATE FUNCTION simhash_ball(simhash, integer) RETURNS simhash_ball
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION simhash_ball(simhash, integer) IS 'the fingerprints within the given Hamming distance of a center';
CREATE FUNCTION simhash_ball_center(simhash_ball) RETURNS simhash
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION simhash_ball_center(simhash_ball) IS 'the center of a ball';
CREATE FUNCTION simhash_ball_radius(simhash_ball) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION simhash_ball_radius(simhash_ball) IS 'the radius of a ball';

CREATE FUNCTION simhash_within(simhash, simhash_ball) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION simhash_within(simhash, simhash_ball) IS 'true when hamming_distance(fingerprint, center) <= radius';
CREATE FUNCTION simhash_ball_contains(simhash_ball, simhash) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION simhash_ball_contains(simhash_ball, simhash) IS 'true when hamming_distance(center, fingerprint) <= radius';

-- Estimators of the radius operators.  Restriction: the binomial tail for
-- random fingerprints, raised to what the column's statistics sample shows
-- (src/index/cost.c).  Join: the binomial fraction of the radius
-- (src/planner/support.c).  They read nothing but the clause and the statistics;
-- STABLE as core's estimators are.
CREATE FUNCTION simhash_within_sel(internal, oid, internal, integer) RETURNS double precision
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION simhash_within_sel(internal, oid, internal, integer) IS 'restriction selectivity of the radius operator <@';
CREATE FUNCTION simhash_within_joinsel(internal, oid, internal, smallint, internal) RETURNS double precision
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION simhash_within_joinsel(internal, oid, internal, smallint, internal) IS 'join selectivity of <@ and @> on simhash_ball: the binomial fraction of the radius';

CREATE OPERATOR <@ (
	LEFTARG = simhash, RIGHTARG = simhash_ball, FUNCTION = simhash_within,
	COMMUTATOR = @>,
	RESTRICT = simhash_within_sel, JOIN = simhash_within_joinsel
);
CREATE OPERATOR @> (
	LEFTARG = simhash_ball, RIGHTARG = simhash, FUNCTION = simhash_ball_contains,
	COMMUTATOR = <@,
	RESTRICT = simhash_within_sel, JOIN = simhash_within_joinsel
);
COMMENT ON OPERATOR <@ (simhash, simhash_ball) IS 'fingerprint within the ball: hamming_distance(fp, center) <= radius';
COMMENT ON OPERATOR @> (simhash_ball, simhash) IS 'ball contains the fingerprint: hamming_distance(center, fp) <= radius';

-- Equality and order of balls: the same center and the same radius; ordered
-- by center as unsigned 64-bit values (as simhash orders), then by radius.
-- The default btree and hash opclasses give "=" to logical replication of
-- tables with REPLICA IDENTITY FULL, and to DISTINCT, GROUP BY, joins, unique
-- constraints and hash partitioning.
CREATE FUNCTION simhash_ball_eq(simhash_ball, simhash_ball) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION simhash_ball_ne(simhash_ball, simhash_ball) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION simhash_ball_lt(simhash_ball, simhash_ball) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION simhash_ball_le(simhash_ball, simhash_ball) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION simhash_ball_gt(simhash_ball, simhash_ball) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION simhash_ball_ge(simhash_ball, simhash_ball) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION simhash_ball_cmp(simhash_ball, simhash_ball) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION simhash_ball_sortsupport(internal) RETURNS void
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION simhash_ball_hash(simhash_ball) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION simhash_ball_hash_extended(simhash_ball, bigint) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

COMMENT ON FUNCTION simhash_ball_eq(simhash_ball, simhash_ball) IS 'equal: same center and same radius';
COMMENT ON FUNCTION simhash_ball_ne(simhash_ball, simhash_ball) IS 'not equal: another center or another radius';
COMMENT ON FUNCTION simhash_ball_lt(simhash_ball, simhash_ball) IS 'less than, by center (unsigned) then radius';
COMMENT ON FUNCTION simhash_ball_le(simhash_ball, simhash_ball) IS 'less than or equal, by center (unsigned) then radius';
COMMENT ON FUNCTION simhash_ball_gt(simhash_ball, simhash_ball) IS 'greater than, by center (unsigned) then radius';
COMMENT ON FUNCTION simhash_ball_ge(simhash_ball, simhash_ball) IS 'greater than or equal, by center (unsigned) then radius';
COMMENT ON FUNCTION simhash_ball_cmp(simhash_ball, simhash_ball) IS 'btree comparison: -1, 0 or 1, by center (unsigned) then radius';
COMMENT ON FUNCTION simhash_ball_sortsupport(internal) IS 'btree sort support';
COMMENT ON FUNCTION simhash_ball_hash(simhash_ball) IS 'hash opclass support: 32-bit hash of center and radius';
COMMENT ON FUNCTION simhash_ball_hash_extended(simhash_ball, bigint) IS 'hash opclass support: seeded 64-bit hash of center and radius';

CREATE OPERATOR = (
	LEFTARG = simhash_ball, RIGHTARG = simhash_ball, FUNCTION = simhash_ball_eq,
	COMMUTATOR = =, NEGATOR = <>,
	RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR <> (
	LEFTARG = simhash_ball, RIGHTARG = simhash_ball, FUNCTION = simhash_ball_ne,
	COMMUTATOR = <>, NEGATOR = =,
	RESTRICT = neqsel, JOIN = neqjoinsel
);
CREATE OPERATOR < (
	LEFTARG = simhash_ball, RIGHTARG = simhash_ball, FUNCTION = simhash_ball_lt,
	COMMUTATOR = >, NEGATOR = >=,
	RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
CREATE OPERATOR <= (
	LEFTARG = simhash_ball, RIGHTARG = simhash_ball, FUNCTION = simhash_ball_le,
	COMMUTATOR = >=, NEGATOR = >,
	RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
CREATE OPERATOR > (
	LEFTARG = simhash_ball, RIGHTARG = simhash_ball, FUNCTION = simhash_ball_gt,
	COMMUTATOR = <, NEGATOR = <=,
	RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
CREATE OPERATOR >= (
	LEFTARG = simhash_ball, RIGHTARG = simhash_ball, FUNCTION = simhash_ball_ge,
	COMMUTATOR = <=, NEGATOR = <,
	RESTRICT = scalargesel, JOIN = scalargejoinsel
);

COMMENT ON OPERATOR = (simhash_ball, simhash_ball) IS 'equal: same center and same radius';
COMMENT ON OPERATOR <> (simhash_ball, simhash_ball) IS 'not equal: another center or another radius';
COMMENT ON OPERATOR < (simhash_ball, simhash_ball) IS 'less than, by center (unsigned) then radius';
COMMENT ON OPERATOR <= (simhash_ball, simhash_ball) IS 'less than or equal, by center (unsigned) then radius';
COMMENT ON OPERATOR > (simhash_ball, simhash_ball) IS 'greater than, by center (unsigned) then radius';
COMMENT ON OPERATOR >= (simhash_ball, simhash_ball) IS 'greater than or equal, by center (unsigned) then radius';

CREATE OPERATOR CLASS simhash_ball_ops
	DEFAULT FOR TYPE simhash_ball USING btree AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 simhash_ball_cmp(simhash_ball, simhash_ball),
	FUNCTION 2 simhash_ball_sortsupport(internal);

CREATE OPERATOR CLASS simhash_ball_ops
	DEFAULT FOR TYPE simhash_ball USING hash AS
	OPERATOR 1 =,
	FUNCTION 1 simhash_ball_hash(simhash_ball),
	FUNCTION 2 simhash_ball_hash_extended(simhash_ball, bigint);
