-- EXPLAIN ANALYZE of the index's scans.  PostgreSQL 18 prints "Index
-- Searches: N" under each index scan node: one per pass over the index (a
-- radius search, a k-NN step; compat.h).  Older servers print no such line,
-- and searches() returns NULL there, so the output is the same everywhere.

CREATE TABLE explained (id integer PRIMARY KEY, fp simhash);
INSERT INTO explained
SELECT g, (('x' || substr(md5(g::text), 1, 16))::bit(64))::simhash FROM generate_series(1, 3000) g;
CREATE INDEX explained_fp ON explained USING simhash (fp);
ANALYZE explained;

-- The "Index Searches" of every node of the plan of query q, summed, or
-- NULL before PostgreSQL 18.
CREATE FUNCTION searches(q text) RETURNS numeric LANGUAGE plpgsql AS $$
DECLARE plan jsonb;
BEGIN
	IF current_setting('server_version_num')::integer < 180000 THEN
		RETURN NULL;
	END IF;
	EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, FORMAT JSON) ' || q INTO plan;
	RETURN (SELECT sum(n::text::numeric) FROM jsonb_path_query(plan, 'strict $.**."Index Searches"') n);
END $$;

SET enable_seqscan = off;
SET enable_bitmapscan = off;
-- A radius query: one search.
SELECT coalesce(searches($$SELECT id FROM explained WHERE fp <@ simhash_ball('0123456789abcdef', 4)$$) = 1, true)
       AS radius_one_search;
-- k-NN: at least one step; the whole table takes more than the first step.
SELECT coalesce(searches($$SELECT id FROM explained ORDER BY fp <-> '0123456789abcdef' LIMIT 3$$) >= 1, true)
       AS knn_searched;
SELECT coalesce(searches($$SELECT id FROM explained ORDER BY fp <-> '0123456789abcdef'$$) > 1, true)
       AS knn_whole_table_steps;
-- A bitmap scan: one search.
SET enable_indexscan = off;
SET enable_bitmapscan = on;
SELECT coalesce(searches($$SELECT id FROM explained WHERE fp <@ simhash_ball('0123456789abcdef', 4)$$) = 1, true)
       AS bitmap_one_search;
RESET enable_indexscan;
RESET enable_bitmapscan;
RESET enable_seqscan;
DROP TABLE explained;
DROP FUNCTION searches(text);
