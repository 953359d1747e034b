-- Near-duplicate workflows over a whole table, in batch (src/workflows/):
-- every pair within k bits, and clusters.  Both read the table as the
-- calling user through a query (SELECT id_column, fp_column FROM tbl), so
-- they are STABLE, and PARALLEL RESTRICTED because they run that query.

CREATE FUNCTION simhash_pairs(tbl regclass, fp_column name, k integer,
                              id_column name DEFAULT 'id')
	RETURNS TABLE (id1 bigint, id2 bigint, distance integer)
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL RESTRICTED
	COST 1000000 ROWS 1000;
COMMENT ON FUNCTION simhash_pairs(regclass, name, integer, name) IS 'every pair of rows of tbl whose fingerprints are within k bits, once (id1 < id2), with the distance; found in batch by sorted block tables';

CREATE FUNCTION simhash_clusters(tbl regclass, fp_column name, k integer,
                                 id_column name DEFAULT 'id',
                                 method text DEFAULT 'components')
	RETURNS TABLE (id bigint, representative bigint, distance integer)
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL RESTRICTED
	COST 1000000 ROWS 100000;
COMMENT ON FUNCTION simhash_clusters(regclass, name, integer, name, text) IS 'every row of tbl with its cluster''s representative and the distance to it: connected components of the pairs within k bits (representative: smallest id), or leader clustering in id order (method => ''leaders'')';
