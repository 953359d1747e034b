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
