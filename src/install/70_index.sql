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
