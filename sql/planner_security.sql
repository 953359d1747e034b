-- Planner details that matter for security and cached plans: under
-- row-level security a rewritten distance comparison can still be an index
-- condition (its functions are leakproof); a cached plan whose comparison
-- was rewritten away is replanned when that function changes; the planner
-- never runs an index-only scan of a simhash index.
CREATE TABLE secret_docs (id integer, owner name, fp simhash);
INSERT INTO secret_docs
  SELECT g, CASE WHEN g % 2 = 0 THEN 'simhash_reader' ELSE 'someone_else' END,
         ('x' || substr(md5(g::text), 1, 16))::bit(64)::simhash
  FROM generate_series(1, 3000) g;
CREATE INDEX secret_docs_fp ON secret_docs USING simhash (fp);
ANALYZE secret_docs;
ALTER TABLE secret_docs ENABLE ROW LEVEL SECURITY;
CREATE POLICY own_rows ON secret_docs USING (owner = current_user);
CREATE ROLE simhash_reader;
GRANT SELECT ON secret_docs TO simhash_reader;

-- Every function of the rewritten clauses is leakproof, so under the
-- policy a join on "distance < per-row radius" (which needs radius - 1) or
-- on a bigint radius (which needs clamping) can still probe the index,
-- like one on "distance <= integer radius"; the leak check looks at
-- functions applied to columns, here the probes' radii.
SELECT p.oid::regprocedure, p.proleakproof
  FROM pg_proc p WHERE p.proname IN ('simhash_radius', 'simhash_radius_below', 'simhash_ball')
 ORDER BY p.oid::regprocedure::text COLLATE "C";
CREATE TABLE probes (fp simhash, r integer, rb bigint);
INSERT INTO probes SELECT ('x' || substr(md5(g::text), 1, 16))::bit(64)::simhash, 2, 2
  FROM generate_series(1, 4) g;
ANALYZE probes;
GRANT SELECT ON probes TO simhash_reader;
CREATE FUNCTION pg_temp.plan_uses_index(query text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
	line text;
	found boolean := false;
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
		found := found OR line ~ 'secret_docs_fp';
	END LOOP;
	RETURN found;
END $$;
SET ROLE simhash_reader;
SET enable_seqscan = off;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SELECT c AS join_condition,
       pg_temp.plan_uses_index('SELECT d.id FROM probes p JOIN secret_docs d ON ' || c) AS uses_index
  FROM unnest(ARRAY['d.fp <-> p.fp <= p.r', 'd.fp <-> p.fp < p.r',
                    'd.fp <-> p.fp <= p.rb', 'p.rb > d.fp <-> p.fp']) c;
-- and the answers are the policy's rows within the radius
SELECT p.fp, d.id, d.owner FROM probes p JOIN secret_docs d ON p.rb > d.fp <-> p.fp ORDER BY 1, 2;
RESET enable_seqscan;
RESET enable_hashjoin;
RESET enable_mergejoin;
RESET ROLE;
DROP TABLE probes;

-- A generic plan of "fp <-> $1 <= 3" uses the index; once the comparison
-- function loses its planner support the plan must be built again (the
-- rewrite removed the function from the plan, so only a recorded
-- dependency invalidates it).
SET plan_cache_mode = force_generic_plan;
SET enable_seqscan = off;
PREPARE near(simhash) AS SELECT count(*) FROM secret_docs WHERE fp <-> $1 <= 3;
EXPLAIN (COSTS OFF) EXECUTE near('0123456789abcdef');
ALTER FUNCTION simhash_distance_le(simhash_distance, integer) SUPPORT generate_series_int4_support;
EXPLAIN (COSTS OFF) EXECUTE near('0123456789abcdef');
ALTER FUNCTION simhash_distance_le(simhash_distance, integer) SUPPORT simhash_distance_support;
EXPLAIN (COSTS OFF) EXECUTE near('0123456789abcdef');
DEALLOCATE near;
RESET enable_seqscan;
RESET plan_cache_mode;

-- No index-only scan of a simhash index, even where everything else costs
-- more: a query that needs no column (count(*)) reads the table.
SET seq_page_cost = 1e9;
EXPLAIN (COSTS OFF) SELECT count(*) FROM secret_docs;
SELECT count(*) FROM secret_docs;
RESET seq_page_cost;

DROP TABLE secret_docs;
DROP ROLE simhash_reader;
