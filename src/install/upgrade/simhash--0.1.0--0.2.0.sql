-- simhash 0.1.0 -> 0.2.0: run by ALTER EXTENSION simhash UPDATE.
--
-- Brings a database created with 0.1.0 (src/install/released/simhash--0.1.0.sql)
-- to exactly what CREATE EXTENSION simhash creates from src/install/*.sql at
-- 0.2.0: every object added there is created here, every changed definition
-- is replaced here.  test/t/030_upgrade.pl compares the two catalogs object
-- by object (definitions, markings, operators, opclasses, casts, comments)
-- and fails on any difference, so an object forgotten here cannot ship.
\echo Use "ALTER EXTENSION simhash UPDATE TO '0.2.0'" to load this file. \quit

-- The shared library of 0.2.0 still exports every C symbol 0.1.0's script
-- names, so a database can run the new library before it is updated.

-- ---- src/install/50_planner.sql: leakproof radius helpers of rewritten clauses
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

-- ---- src/install/65_html.sql (new in 0.2.0)
-- Web pages: the fingerprint of the text a page shows (src/html/, doc/html.md).

CREATE FUNCTION simhash_html(html text, boilerplate text DEFAULT 'remove',
                             features text DEFAULT 'words', n integer DEFAULT 0,
                             weighting text DEFAULT 'runs', numbers boolean DEFAULT false,
                             parser text DEFAULT 'fast')
	RETURNS simhash
	AS 'MODULE_PATHNAME', 'simhash_html'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION simhash_html(text, text, text, integer, text, boolean, text) IS 'simhash fingerprint of the text of an HTML page: simhash(simhash_html_text(html, boilerplate, parser), features, n, weighting, numbers); boilerplate ''remove'' (default) drops navigation, headers, footers and link lists, ''keep'' keeps all the text; NULL when the text has no feature';

CREATE FUNCTION simhash_html_text(html text, boilerplate text DEFAULT 'remove',
                                  parser text DEFAULT 'fast')
	RETURNS text
	AS 'MODULE_PATHNAME', 'simhash_html_text'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION simhash_html_text(text, text, text) IS 'the text that simhash_html fingerprints: the kept blocks of the page, each followed by a line break; parser ''fast'' (default) or ''libxml2'' (the reference)';

CREATE FUNCTION simhash_html_blocks(html text, boilerplate text DEFAULT 'remove',
                                    parser text DEFAULT 'fast',
                                    OUT block integer, OUT kept boolean, OUT class text,
                                    OUT bytes integer, OUT link_share float8,
                                    OUT template_share float8, OUT text text)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'simhash_html_blocks'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000 ROWS 50;
COMMENT ON FUNCTION simhash_html_blocks(text, text, text) IS 'the blocks of text of an HTML page in order, whether simhash_html keeps each and why (class), its size in bytes, the shares of its text inside links and inside template elements';

-- ---- src/install/75_exclude.sql (new in 0.2.0)
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

-- ---- src/install/80_workflows.sql (new in 0.2.0)
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

-- ---- src/install/60_fingerprint.sql: the option functions gain `version`
-- (algorithm version 4 is the default; 0 = current, 3 = 0.1.0's algorithm).
-- A function's arguments cannot change in place, and keeping the 5-argument
-- one beside the 6-argument one would make simhash(body, 'words') ambiguous.
-- So the old one goes.  Where a user object uses it (a generated column, an
-- index expression, a view), dropping it would fail or destroy that object:
-- it is then detached from the extension and renamed, so the object keeps
-- working (the library computes the current version for it, as it does for
-- simhash(text)), and a WARNING says how to move the object to the new
-- function and drop the old one (doc/upgrading.md).
DO $upgrade$
DECLARE
	old regprocedure;
	oldname text;
	newname text;
BEGIN
	FOREACH old IN ARRAY ARRAY['simhash(text,text,integer,text,boolean)'::regprocedure,
	                           'simhash_features(text,text,integer,text,boolean)'::regprocedure]
	LOOP
		-- any object outside the extension that depends on it, whatever the
		-- kind of dependency (PostgreSQL 13 records a generated column's as
		-- automatic: a plain DROP would silently drop the column)
		IF EXISTS (SELECT 1 FROM pg_depend d
		            WHERE d.refclassid = 'pg_proc'::regclass AND d.refobjid = old
		              AND NOT EXISTS (SELECT 1 FROM pg_depend e
		                               WHERE e.classid = d.classid AND e.objid = d.objid
		                                 AND e.deptype = 'e'))
		THEN
			oldname := old::text;
			newname := (SELECT proname FROM pg_proc WHERE oid = old) || '_0_1_0';
			EXECUTE format('ALTER EXTENSION simhash DROP FUNCTION %s', old);
			EXECUTE format('ALTER FUNCTION %s RENAME TO %I', old, newname);
			RAISE WARNING 'simhash 0.2.0: % is still used by other objects; kept as %, outside the extension',
				oldname, newname
				USING HINT = 'Recreate those objects with the new function (it takes a version argument), then drop '
				             || newname || ': see doc/upgrading.md.';
		ELSE
			EXECUTE format('DROP FUNCTION %s', old);
		END IF;
	END LOOP;
END
$upgrade$;

CREATE FUNCTION simhash(body text, features text, n integer DEFAULT 0,
                        weighting text DEFAULT 'runs', numbers boolean DEFAULT false,
                        version integer DEFAULT 0)
	RETURNS simhash
	AS 'MODULE_PATHNAME', 'simhash_text_options'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 500;
COMMENT ON FUNCTION simhash(text, text, integer, text, boolean, integer) IS 'simhash fingerprint of a document: features ''words'', ''shingles'' or ''chars'' (n words or characters, 0 for the default), weighting ''runs'' (default), ''tf'', ''binary'' or ''log'', numbers keeps tokens of digits, version the algorithm version (0 for the current one, 3 for the previous one); NULL when the text has no feature';

CREATE FUNCTION simhash_features(body text, features text, n integer DEFAULT 0,
                                 weighting text DEFAULT 'runs', numbers boolean DEFAULT false,
                                 version integer DEFAULT 0,
                                 OUT feature text, OUT occurrences bigint,
                                 OUT weight float8, OUT hash simhash)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'simhash_features_options'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 500 ROWS 100;
COMMENT ON FUNCTION simhash_features(text, text, integer, text, boolean, integer) IS 'features, occurrences, weights and feature hashes that simhash(text, features, n, weighting, numbers, version) uses for a document';

COMMENT ON FUNCTION simhash_algorithm_version() IS 'what simhash(text) fingerprints depend on: the algorithm version and the ICU major version, e.g. simhash-4/icu72; stored fingerprints stay valid while it is unchanged';
COMMENT ON FUNCTION simhash(text) IS 'simhash fingerprint of a document with the default options, simhash(body, ''words'', 1, ''runs'', false): ICU-normalized words, each occurrence weighted by the length of its run of text; NULL when the text has no words';
COMMENT ON FUNCTION simhash_features(text) IS 'features, occurrences, weights and feature hashes that simhash(text) uses for a document, in order of first occurrence';
