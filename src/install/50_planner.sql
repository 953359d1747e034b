-- Planner support (src/planner/support.c): "fp <-> q <= k", written so, and
-- "ORDER BY fp <-> q" are answered from an index.  The support function is
-- attached to hamming_distance (behind <->), to every distance comparison
-- and to hamming_within; a join estimator to the radius operators.

CREATE FUNCTION simhash_distance_support(internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION simhash_distance_support(internal) IS 'planner support: rewrites distance comparisons into index conditions, estimates them';

ALTER FUNCTION hamming_distance(simhash, simhash) SUPPORT simhash_distance_support;
ALTER FUNCTION hamming_within(simhash, simhash, integer) SUPPORT simhash_distance_support;
ALTER FUNCTION simhash_distance_eq(simhash_distance, integer) SUPPORT simhash_distance_support;
ALTER FUNCTION simhash_distance_eq(integer, simhash_distance) SUPPORT simhash_distance_support;
ALTER FUNCTION simhash_distance_eq(simhash_distance, simhash_distance) SUPPORT simhash_distance_support;
ALTER FUNCTION simhash_distance_eq_int2(simhash_distance, smallint) SUPPORT simhash_distance_support;
ALTER FUNCTION int2_eq_simhash_distance(smallint, simhash_distance) SUPPORT simhash_distance_support;
ALTER FUNCTION simhash_distance_eq_int8(simhash_distance, bigint) SUPPORT simhash_distance_support;
ALTER FUNCTION int8_eq_simhash_distance(bigint, simhash_distance) SUPPORT simhash_distance_support;
ALTER FUNCTION simhash_distance_ne(simhash_distance, integer) SUPPORT simhash_distance_support;
ALTER FUNCTION simhash_distance_ne(integer, simhash_distance) SUPPORT simhash_distance_support;
ALTER FUNCTION simhash_distance_ne(simhash_distance, simhash_distance) SUPPORT simhash_distance_support;
ALTER FUNCTION simhash_distance_ne_int2(simhash_distance, smallint) SUPPORT simhash_distance_support;
ALTER FUNCTION int2_ne_simhash_distance(smallint, simhash_distance) SUPPORT simhash_distance_support;
ALTER FUNCTION simhash_distance_ne_int8(simhash_distance, bigint) SUPPORT simhash_distance_support;
ALTER FUNCTION int8_ne_simhash_distance(bigint, simhash_distance) SUPPORT simhash_distance_support;
ALTER FUNCTION simhash_distance_lt(simhash_distance, integer) SUPPORT simhash_distance_support;
ALTER FUNCTION simhash_distance_lt(integer, simhash_distance) SUPPORT simhash_distance_support;
ALTER FUNCTION simhash_distance_lt(simhash_distance, simhash_distance) SUPPORT simhash_distance_support;
ALTER FUNCTION simhash_distance_lt_int2(simhash_distance, smallint) SUPPORT simhash_distance_support;
ALTER FUNCTION int2_lt_simhash_distance(smallint, simhash_distance) SUPPORT simhash_distance_support;
ALTER FUNCTION simhash_distance_lt_int8(simhash_distance, bigint) SUPPORT simhash_distance_support;
ALTER FUNCTION int8_lt_simhash_distance(bigint, simhash_distance) SUPPORT simhash_distance_support;
ALTER FUNCTION simhash_distance_le(simhash_distance, integer) SUPPORT simhash_distance_support;
ALTER FUNCTION simhash_distance_le(integer, simhash_distance) SUPPORT simhash_distance_support;
ALTER FUNCTION simhash_distance_le(simhash_distance, simhash_distance) SUPPORT simhash_distance_support;
ALTER FUNCTION simhash_distance_le_int2(simhash_distance, smallint) SUPPORT simhash_distance_support;
ALTER FUNCTION int2_le_simhash_distance(smallint, simhash_distance) SUPPORT simhash_distance_support;
ALTER FUNCTION simhash_distance_le_int8(simhash_distance, bigint) SUPPORT simhash_distance_support;
ALTER FUNCTION int8_le_simhash_distance(bigint, simhash_distance) SUPPORT simhash_distance_support;
ALTER FUNCTION simhash_distance_gt(simhash_distance, integer) SUPPORT simhash_distance_support;
ALTER FUNCTION simhash_distance_gt(integer, simhash_distance) SUPPORT simhash_distance_support;
ALTER FUNCTION simhash_distance_gt(simhash_distance, simhash_distance) SUPPORT simhash_distance_support;
ALTER FUNCTION simhash_distance_gt_int2(simhash_distance, smallint) SUPPORT simhash_distance_support;
ALTER FUNCTION int2_gt_simhash_distance(smallint, simhash_distance) SUPPORT simhash_distance_support;
ALTER FUNCTION simhash_distance_gt_int8(simhash_distance, bigint) SUPPORT simhash_distance_support;
ALTER FUNCTION int8_gt_simhash_distance(bigint, simhash_distance) SUPPORT simhash_distance_support;
ALTER FUNCTION simhash_distance_ge(simhash_distance, integer) SUPPORT simhash_distance_support;
ALTER FUNCTION simhash_distance_ge(integer, simhash_distance) SUPPORT simhash_distance_support;
ALTER FUNCTION simhash_distance_ge(simhash_distance, simhash_distance) SUPPORT simhash_distance_support;
ALTER FUNCTION simhash_distance_ge_int2(simhash_distance, smallint) SUPPORT simhash_distance_support;
ALTER FUNCTION int2_ge_simhash_distance(smallint, simhash_distance) SUPPORT simhash_distance_support;
ALTER FUNCTION simhash_distance_ge_int8(simhash_distance, bigint) SUPPORT simhash_distance_support;
ALTER FUNCTION int8_ge_simhash_distance(bigint, simhash_distance) SUPPORT simhash_distance_support;
