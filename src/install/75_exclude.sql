-- Near-duplicate exclusion constraints and scoped simhash indexes
-- (src/index/README.md, doc/index.md "Exclusion constraints and scopes").

-- a <@> b: each center lies in the other's ball, i.e. the centers are within
-- least(a.radius, b.radius).  Commutative (exclusion constraints need that);
-- with the same radius on both sides, as in
--   EXCLUDE USING simhash (simhash_ball(fp, 3) WITH <@>)
-- it means "within 3".  Named after <@ both ways; not &&, which PostgreSQL
-- uses for "overlaps" (that would be a distance up to the SUM of the radii).
CREATE FUNCTION simhash_ball_near(simhash_ball, simhash_ball) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION simhash_ball_near(simhash_ball, simhash_ball) IS 'true when hamming_distance(a.center, b.center) <= least(a.radius, b.radius)';
CREATE OPERATOR <@> (
	LEFTARG = simhash_ball, RIGHTARG = simhash_ball, FUNCTION = simhash_ball_near,
	COMMUTATOR = <@>,
	RESTRICT = simhash_within_sel, JOIN = simhash_within_joinsel
);
COMMENT ON OPERATOR <@> (simhash_ball, simhash_ball) IS 'each center within the other ball: hamming_distance(a.center, b.center) <= least(a.radius, b.radius)';

-- Indexing simhash_ball(fp, k): the index stores the center, and answers
-- <@> for a query ball (c, r) with every center within r, which the executor
-- rechecks against the stored row's radius.
CREATE OPERATOR CLASS simhash_ball_ops
	DEFAULT FOR TYPE simhash_ball USING simhash AS
	OPERATOR 4 <@> (simhash_ball, simhash_ball);

-- Scope columns: a leading column compared with = only, whose 64-bit hash
-- (FUNCTION 1, the type's extended hash) the index folds into the stored
-- fingerprint, so that (site_id, fp) is searched in one site with the probes
-- of a single-column index.  Only before the fingerprint column.
CREATE OPERATOR CLASS simhash_int4_scope_ops
	DEFAULT FOR TYPE integer USING simhash AS
	OPERATOR 2 = (integer, integer),
	FUNCTION 1 pg_catalog.hashint4extended(integer, bigint);
CREATE OPERATOR CLASS simhash_int8_scope_ops
	DEFAULT FOR TYPE bigint USING simhash AS
	OPERATOR 2 = (bigint, bigint),
	FUNCTION 1 pg_catalog.hashint8extended(bigint, bigint);
CREATE OPERATOR CLASS simhash_text_scope_ops
	DEFAULT FOR TYPE text USING simhash AS
	OPERATOR 2 = (text, text),
	FUNCTION 1 pg_catalog.hashtextextended(text, bigint);
CREATE OPERATOR CLASS simhash_uuid_scope_ops
	DEFAULT FOR TYPE uuid USING simhash AS
	OPERATOR 2 = (uuid, uuid),
	FUNCTION 1 pg_catalog.uuid_hash_extended(uuid, bigint);
