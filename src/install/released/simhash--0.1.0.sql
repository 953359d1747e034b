-- simhash 0.1.0: generated from src/install/*.sql by make; edit those files.
\echo Use "CREATE EXTENSION simhash" to load this file. \quit

-- ---- src/install/10_type.sql
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

-- ---- src/install/20_compare.sql
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

-- ---- src/install/30_distance.sql
-- Hamming distance and similarity.
--
-- The distance is a simhash_distance, a domain over integer: clients see a
-- plain int4, and the comparison operators on it are the extension's own,
-- which is what lets the planner support rewrite "fp <-> q <= k" into a
-- clause an index can answer.  Those comparisons, forty-two functions and
-- operators alike, are in 55_distance_compare.sql, after the planner
-- support they carry (50_planner.sql).

CREATE DOMAIN simhash_distance AS integer;
COMMENT ON DOMAIN simhash_distance IS 'a Hamming distance between fingerprints, 0 to 64 (an integer to clients)';

CREATE FUNCTION hamming_distance(simhash, simhash) RETURNS simhash_distance
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION hamming_distance(simhash, simhash) IS 'number of differing bits, 0 to 64';

CREATE OPERATOR <-> (
	LEFTARG = simhash, RIGHTARG = simhash, FUNCTION = hamming_distance,
	COMMUTATOR = <->
);
COMMENT ON OPERATOR <-> (simhash, simhash) IS 'Hamming distance: number of differing bits, 0 to 64';

-- The same distance as a bare integer.  The planner rewrites every fp <-> q
-- into fp <-># q (shown so in EXPLAIN), because an index can order by an
-- integer-valued operator but not by a domain-valued one.
CREATE FUNCTION hamming_distance_int4(simhash, simhash) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION hamming_distance_int4(simhash, simhash) IS 'number of differing bits, 0 to 64, as integer (what <-> becomes in plans)';

CREATE OPERATOR <-># (
	LEFTARG = simhash, RIGHTARG = simhash, FUNCTION = hamming_distance_int4,
	COMMUTATOR = <->#
);
COMMENT ON OPERATOR <-># (simhash, simhash) IS 'Hamming distance as integer: what <-> becomes in plans, so that an index can order by it';

-- hamming_within(a, b, r) is hamming_distance(a, b) <= r for any integer r
-- (negative: never; 64 or more: always).  "fp <-> q <= k" becomes this in
-- plans; an index answers it as "fp <@ simhash_ball(q, k)".
CREATE FUNCTION hamming_within(simhash, simhash, integer) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION hamming_within(simhash, simhash, integer) IS 'true when hamming_distance(a, b) <= radius (what fp <-> q <= k becomes in plans)';

CREATE FUNCTION simhash_similarity(simhash, simhash) RETURNS double precision
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION simhash_similarity(simhash, simhash) IS 'similarity in [0, 1]: 1 - hamming_distance / 64';

-- ---- src/install/40_ball.sql
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

-- ---- src/install/50_planner.sql
-- Planner support (src/planner/support.c): "fp <-> q <= k", written so, and
-- "ORDER BY fp <-> q" are answered from an index.  The support function is
-- attached here to hamming_distance (behind <->) and to hamming_within, and
-- every distance comparison is declared with it (55_distance_compare.sql).
-- The join estimator of the radius operators, simhash_within_joinsel, is
-- support.c's too; it is declared with those operators in 40_ball.sql.

CREATE FUNCTION simhash_distance_support(internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION simhash_distance_support(internal) IS 'planner support: rewrites distance comparisons into index conditions, estimates them';

ALTER FUNCTION hamming_distance(simhash, simhash) SUPPORT simhash_distance_support;
ALTER FUNCTION hamming_within(simhash, simhash, integer) SUPPORT simhash_distance_support;

-- ---- src/install/55_distance_compare.sql
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

-- ---- src/install/60_fingerprint.sql
-- Fingerprinting text (algorithm version 2: ICU normalization and word
-- segmentation), features the caller brings, introspection, and versions.
--
-- simhash(text) takes one argument and no defaults: a function with the same
-- first argument and all-defaulted options would make simhash(body)
-- ambiguous.  The options therefore come in a second function whose feature
-- kind is required: simhash(body, 'chars', n => 2, weighting => 'log').

CREATE FUNCTION simhash(text) RETURNS simhash
	AS 'MODULE_PATHNAME', 'simhash_text'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 500;
COMMENT ON FUNCTION simhash(text) IS 'simhash fingerprint of a document with the default options, simhash(body, ''words'', 1, ''runs'', false): ICU-normalized words, each occurrence weighted by the length of its run of text; NULL when the text has no words';

CREATE FUNCTION simhash(body text, features text, n integer DEFAULT 0,
                        weighting text DEFAULT 'runs', numbers boolean DEFAULT false)
	RETURNS simhash
	AS 'MODULE_PATHNAME', 'simhash_text_options'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 500;
COMMENT ON FUNCTION simhash(text, text, integer, text, boolean) IS 'simhash fingerprint of a document: features ''words'', ''shingles'' or ''chars'' (n words or characters, 0 for the default), weighting ''runs'' (default), ''tf'', ''binary'' or ''log'', numbers keeps tokens of digits; NULL when the text has no feature';

CREATE FUNCTION simhash_features(body text,
                                 OUT feature text, OUT occurrences bigint,
                                 OUT weight float8, OUT hash simhash)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'simhash_features'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 500 ROWS 100;
COMMENT ON FUNCTION simhash_features(text) IS 'features, occurrences, weights and feature hashes that simhash(text) uses for a document, in order of first occurrence';

CREATE FUNCTION simhash_features(body text, features text, n integer DEFAULT 0,
                                 weighting text DEFAULT 'runs', numbers boolean DEFAULT false,
                                 OUT feature text, OUT occurrences bigint,
                                 OUT weight float8, OUT hash simhash)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'simhash_features_options'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 500 ROWS 100;
COMMENT ON FUNCTION simhash_features(text, text, integer, text, boolean) IS 'features, occurrences, weights and feature hashes that simhash(text, features, n, weighting, numbers) uses for a document';

CREATE FUNCTION simhash(features text[]) RETURNS simhash
	AS 'MODULE_PATHNAME', 'simhash_text_array'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION simhash(text[]) IS 'simhash fingerprint of features, each of weight 1 (XXH3-64 of the UTF-8 bytes); NULL elements are skipped; NULL when none remains';

CREATE FUNCTION simhash(features text[], weights float8[]) RETURNS simhash
	AS 'MODULE_PATHNAME', 'simhash_weighted_array'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION simhash(text[], float8[]) IS 'simhash fingerprint of weighted features, paired by position; NULL when no non-zero weight remains';

CREATE FUNCTION simhash(hashes bigint[]) RETURNS simhash
	AS 'MODULE_PATHNAME', 'simhash_hash_array'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION simhash(bigint[]) IS 'simhash fingerprint of 64-bit feature hashes, each of weight 1; NULL when there is none';

-- The transition function cannot be STRICT: its state is internal and is
-- created on the first row (validate.sql allows for that).
CREATE FUNCTION simhash_agg_trans(internal, text, float8) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION simhash_agg_trans(internal, text, float8) IS 'transition function of simhash_agg';

CREATE FUNCTION simhash_agg_final(internal) RETURNS simhash
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION simhash_agg_final(internal) IS 'final function of simhash_agg';

-- Parallel aggregation: partial states are merged (not STRICT either: a
-- worker that saw no rows has no state) and shipped as bytea.
CREATE FUNCTION simhash_agg_combine(internal, internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION simhash_agg_combine(internal, internal) IS 'combine function of simhash_agg';

CREATE FUNCTION simhash_agg_serialize(internal) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION simhash_agg_serialize(internal) IS 'serialization function of simhash_agg';

CREATE FUNCTION simhash_agg_deserialize(bytea, internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION simhash_agg_deserialize(bytea, internal) IS 'deserialization function of simhash_agg';

CREATE AGGREGATE simhash_agg(feature text, weight float8) (
	SFUNC = simhash_agg_trans,
	STYPE = internal,
	FINALFUNC = simhash_agg_final,
	FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = simhash_agg_combine,
	SERIALFUNC = simhash_agg_serialize,
	DESERIALFUNC = simhash_agg_deserialize,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE simhash_agg(text, float8) IS 'simhash fingerprint of weighted features, one per row (for example TF-IDF computed in SQL); independent of row order; NULL when no non-zero weight';

CREATE FUNCTION simhash_algorithm_version() RETURNS text
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION simhash_algorithm_version() IS 'what simhash(text) fingerprints depend on: the algorithm version and the ICU major version, e.g. simhash-3/icu72; stored fingerprints stay valid while it is unchanged';

CREATE FUNCTION simhash_version() RETURNS text
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION simhash_version() IS 'version of the loaded simhash library';

-- ---- src/install/70_index.sql
-- The simhash index access method: pigeonhole block tables for exact
-- Hamming-distance search (radius, equality, nearest neighbours).

CREATE FUNCTION simhash_am_handler(internal) RETURNS index_am_handler
	AS 'MODULE_PATHNAME' LANGUAGE C;
COMMENT ON FUNCTION simhash_am_handler(internal) IS 'handler of the simhash index access method';

CREATE ACCESS METHOD simhash TYPE INDEX HANDLER simhash_am_handler;
COMMENT ON ACCESS METHOD simhash IS 'block-table index for exact Hamming-distance search: fp <@ simhash_ball(q, r), fp = q, ORDER BY fp <-> q';

CREATE OPERATOR CLASS simhash_hamming_ops
	DEFAULT FOR TYPE simhash USING simhash AS
	OPERATOR 1 <@ (simhash, simhash_ball),
	OPERATOR 2 = (simhash, simhash),
	OPERATOR 3 <-># (simhash, simhash) FOR ORDER BY pg_catalog.integer_ops;
-- Strategy 3 is <->#, the int4 twin of <->: the planner turns every fp <-> q
-- into it (src/planner/support.c), because an index cannot order by the domain
-- simhash_distance that <-> returns.

-- Structure check, in the spirit of amcheck.  VOLATILE: it reads the
-- current state of the index and the table.
CREATE FUNCTION simhash_index_check(regclass) RETURNS void
	AS 'MODULE_PATHNAME' LANGUAGE C STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION simhash_index_check(regclass) IS 'verify a simhash index: metapage, directories, buckets, that all block tables agree and that every row is indexed; raises index_corrupted';
