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

-- Pieces new in 0.2.0, included whole by make (see the Makefile's rule for
-- upgrade scripts): a line "-- include: FILE" is replaced by FILE.
-- include: src/install/52_planner_leakproof.sql
-- include: src/install/65_html.sql
-- include: src/install/75_exclude.sql
-- include: src/install/80_workflows.sql

-- ---- Algorithm version 4 is the default: what simhash(text) stored under
-- 0.1.0 (version 3) differs from what it computes now.  Stored columns,
-- expression indexes and materialized views of the user that call it keep
-- version 3 values until recomputed (an expression index would then answer
-- differently from a sequential scan): a WARNING names them (doc/upgrading.md).
DO $version4$
DECLARE
	stale text;
BEGIN
	SELECT string_agg(DISTINCT what, ', ' ORDER BY what) INTO stale
	  FROM (SELECT CASE d.classid
	                    WHEN 'pg_rewrite'::regclass   -- a materialized view's query
	                    THEN pg_describe_object('pg_class'::regclass, r.ev_class, 0)
	                    WHEN 'pg_attrdef'::regclass   -- a generated column's expression
	                    THEN pg_describe_object('pg_class'::regclass, a.adrelid, a.adnum)
	                    ELSE pg_describe_object(d.classid, d.objid, d.objsubid) END AS what
	          FROM pg_depend d
	          LEFT JOIN pg_rewrite r ON d.classid = 'pg_rewrite'::regclass AND r.oid = d.objid
	          LEFT JOIN pg_class c ON c.oid = r.ev_class
	          LEFT JOIN pg_attrdef a ON d.classid = 'pg_attrdef'::regclass AND a.oid = d.objid
	         WHERE d.refclassid = 'pg_proc'::regclass
	           AND d.refobjid IN ('simhash(text)'::regprocedure,
	                              'simhash(text,text,integer,text,boolean)'::regprocedure)
	           AND (d.classid IN ('pg_class'::regclass, 'pg_attrdef'::regclass) OR c.relkind = 'm')
	           AND NOT EXISTS (SELECT 1 FROM pg_depend e
	                            WHERE e.classid = d.classid AND e.objid = d.objid
	                              AND e.deptype = 'e')) stored;
	IF stale IS NOT NULL THEN
		RAISE WARNING 'simhash 0.2.0: % hold fingerprints of algorithm version 3; simhash(text) now computes version 4', stale
			USING HINT = 'Recompute them (UPDATE ... SET body = body for a generated column, REFRESH for a materialized view) '
			             || 'and REINDEX indexes on simhash(...) expressions, or pin version 3 with '
			             || 'simhash(body, ''words'', version => 3): see doc/upgrading.md.';
	END IF;
END
$version4$;

-- ---- src/install/61_fingerprint_options.sql: the option functions gain `version`
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

-- include: src/install/61_fingerprint_options.sql

COMMENT ON FUNCTION simhash_algorithm_version() IS 'what simhash(text) fingerprints depend on: the algorithm version and the ICU major version, e.g. simhash-4/icu72; stored fingerprints stay valid while it is unchanged';
COMMENT ON FUNCTION simhash(text) IS 'simhash fingerprint of a document with the default options, simhash(body, ''words'', 1, ''runs'', false): ICU-normalized words, each occurrence weighted by the length of its run of text; NULL when the text has no words';
COMMENT ON FUNCTION simhash_features(text) IS 'features, occurrences, weights and feature hashes that simhash(text) uses for a document, in order of first occurrence';
