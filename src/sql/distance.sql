-- Hamming distance and similarity.  This file is the whole SQL surface of
-- the distance: its result type and operators are declared only here.

CREATE FUNCTION hamming_distance(simhash, simhash) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION hamming_distance(simhash, simhash) IS 'number of differing bits, 0 to 64';

CREATE OPERATOR <-> (
	LEFTARG = simhash, RIGHTARG = simhash, FUNCTION = hamming_distance,
	COMMUTATOR = <->
);
COMMENT ON OPERATOR <-> (simhash, simhash) IS 'Hamming distance: number of differing bits, 0 to 64';

CREATE FUNCTION simhash_similarity(simhash, simhash) RETURNS double precision
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION simhash_similarity(simhash, simhash) IS 'similarity in [0, 1]: 1 - hamming_distance / 64';
