-- Radius arithmetic of rewritten clauses that cannot fail, hence LEAKPROOF:
-- under row-level security a clause whose functions are all leakproof may
-- still be an index condition (core's int8larger, int4mi and the like are
-- not marked so).
CREATE FUNCTION simhash_radius(bigint) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION simhash_radius(bigint) IS 'a bigint radius clamped to -1 .. 65 (used by rewritten distance comparisons)';
CREATE FUNCTION simhash_radius_below(integer) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
COMMENT ON FUNCTION simhash_radius_below(integer) IS 'radius - 1, saturating at the smallest integer (used by rewritten distance comparisons)';
