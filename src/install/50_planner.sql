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
