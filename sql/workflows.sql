-- simhash_pairs and simhash_clusters (src/workflows/) against the sequential
-- self-join: exact equality of the pair sets, each pair once, for k = 0, 3
-- and 10 and every search shape (simhash.pairs_blocks); NULLs, duplicates,
-- empty tables; the same clusters whatever the physical order; errors.

-- Deterministic fingerprints: 1500 hashed ones, then near-duplicates of the
-- first 300 at 1 to 12 bits, 18 exact copies, a chain of 6 fingerprints each
-- 2 bits from the previous one (10 bits from end to end), 5 NULLs.
CREATE FUNCTION wf_fp(seed text) RETURNS simhash LANGUAGE sql IMMUTABLE
	AS $$ SELECT ('x' || left(md5(seed), 16))::bit(64)::simhash $$;
CREATE FUNCTION wf_flip(fp simhash, seed integer, bits integer) RETURNS simhash LANGUAGE sql IMMUTABLE
	AS $$ SELECT (fp::bigint # coalesce(bit_or(1::bigint << (get_byte(decode(md5(seed || '/' || i), 'hex'), 0) % 64)), 0))::simhash
	        FROM generate_series(1, bits) i $$;
CREATE TABLE wf (id bigint PRIMARY KEY, fp simhash, note text);
INSERT INTO wf SELECT g, wf_fp(g::text), 'base' FROM generate_series(1, 1500) g;
INSERT INTO wf SELECT 2000 + id, wf_flip(fp, id::int, 1 + (id % 12)::int), 'variant' FROM wf WHERE id <= 300;
INSERT INTO wf SELECT 3000 + id, fp, 'copy' FROM wf WHERE id % 100 = 7;
INSERT INTO wf SELECT 4000 + g, NULL, 'null' FROM generate_series(1, 5) g;
INSERT INTO wf SELECT 6000 + g, (wf_fp('chain')::bigint # ((1::bigint << (2 * g)) - 1))::simhash, 'chain'
  FROM generate_series(0, 5) g;
SELECT note, count(*), count(fp) FROM wf GROUP BY note ORDER BY note;

-- The truth: every pair within k from the sequential self-join (no index),
-- the distance counted in SQL from the bits of the XOR.
CREATE FUNCTION wf_truth(tbl regclass, k integer) RETURNS TABLE (id1 bigint, id2 bigint, distance integer)
LANGUAGE plpgsql STABLE AS $$
BEGIN
	RETURN QUERY EXECUTE format(
		'SELECT id1, id2, d FROM (
		   SELECT a.id AS id1, b.id AS id2,
		          length(replace((a.fp::bigint # b.fp::bigint)::bit(64)::text, ''0'', '''')) AS d
		     FROM %s a, %s b WHERE a.id < b.id) x
		  WHERE d <= $1', tbl, tbl)
		USING k;
END $$;
CREATE TEMP TABLE truth10 AS SELECT * FROM wf_truth('wf', 10);
CREATE TEMP TABLE truth AS SELECT k, t.* FROM unnest(ARRAY[0, 3, 10]) k, truth10 t WHERE t.distance <= k;

-- Compares simhash_pairs with the truth for each k and each number of
-- blocks (0: chosen by cost; 1: every pair compared; k + 1: the paper's
-- one block per table; more: tables keyed by several blocks).
CREATE FUNCTION wf_compare(radius integer, nblocks integer)
RETURNS TABLE (k integer, blocks integer, pairs bigint, missing bigint, extra bigint, repeated bigint, unordered bigint)
LANGUAGE plpgsql AS $$
BEGIN
	PERFORM set_config('simhash.pairs_blocks', nblocks::text, true);
	CREATE TEMP TABLE got AS SELECT * FROM simhash_pairs('wf', 'fp', radius);
	CREATE TEMP TABLE want AS SELECT t.id1, t.id2, t.distance FROM truth t WHERE t.k = radius;
	RETURN QUERY SELECT radius, nblocks, (SELECT count(*) FROM want),
		(SELECT count(*) FROM (SELECT * FROM want EXCEPT ALL SELECT * FROM got) x),
		(SELECT count(*) FROM (SELECT * FROM got EXCEPT ALL SELECT * FROM want) x),
		(SELECT count(*) - count(DISTINCT (g.id1, g.id2)) FROM got g),
		(SELECT count(*) FROM got g WHERE g.id1 >= g.id2);
	DROP TABLE got, want;
END $$;

SELECT c.* FROM (VALUES (0, 0), (0, 1), (0, 2), (3, 0), (3, 1), (3, 4), (3, 5), (3, 6),
                        (10, 0), (10, 1), (10, 11), (10, 12), (10, 13)) v(k, blocks),
       wf_compare(v.k, v.blocks) c;

-- k = 64 is every pair; the plan is the same whatever the setting.
SELECT count(*) = (SELECT count(fp) * (count(fp) - 1) / 2 FROM wf) AS every_pair
  FROM simhash_pairs('wf', 'fp', 64);

-- A small work_mem makes the search run in slices of buckets (64 kB holds
-- 4096 fingerprints): the same pairs as every pair compared (blocks = 1).
CREATE TABLE wf_big AS SELECT id, fp FROM wf;
INSERT INTO wf_big SELECT 10000 + g, wf_fp('big' || g) FROM generate_series(1, 20000) g;
INSERT INTO wf_big SELECT 40000 + g, wf_flip(fp, g::int, 1 + g % 4) FROM wf_big, generate_series(1, 2) g WHERE id % 10 = 3;
CREATE FUNCTION wf_sliced(radius integer, nblocks integer) RETURNS TABLE (k integer, blocks integer, pairs bigint, differ bigint)
LANGUAGE plpgsql AS $$
BEGIN
	PERFORM set_config('simhash.pairs_blocks', '1', true);
	CREATE TEMP TABLE want AS SELECT * FROM simhash_pairs('wf_big', 'fp', radius);
	PERFORM set_config('simhash.pairs_blocks', nblocks::text, true);
	PERFORM set_config('work_mem', '64', true);
	CREATE TEMP TABLE got AS SELECT * FROM simhash_pairs('wf_big', 'fp', radius);
	RETURN QUERY SELECT radius, nblocks, (SELECT count(*) FROM want),
		(SELECT count(*) FROM ((SELECT * FROM want EXCEPT ALL SELECT * FROM got)
		                       UNION ALL (SELECT * FROM got EXCEPT ALL SELECT * FROM want)) x);
	DROP TABLE got, want;
END $$;
SELECT c.* FROM (VALUES (0, 2), (3, 4), (3, 6), (6, 8)) v(k, blocks), wf_sliced(v.k, v.blocks) c;

-- Empty and one-row tables; a view works as a table, with its own filter;
-- other column names, and a smallint or integer id.
CREATE TABLE wf_empty (id bigint, fp simhash);
SELECT * FROM simhash_pairs('wf_empty', 'fp', 3);
SELECT * FROM simhash_clusters('wf_empty', 'fp', 3);
INSERT INTO wf_empty VALUES (1, wf_fp('1'));
SELECT * FROM simhash_pairs('wf_empty', 'fp', 3);
SELECT * FROM simhash_clusters('wf_empty', 'fp', 3);
CREATE VIEW wf_copies AS SELECT id::integer AS "Key", fp AS "Page FP" FROM wf WHERE note <> 'base';
SELECT * FROM simhash_pairs('wf_copies', 'Page FP', 0, id_column => 'Key') ORDER BY 1, 2 LIMIT 5;
CREATE TABLE wf_small (n smallint, f simhash);
INSERT INTO wf_small SELECT id, fp FROM wf WHERE id <= 1500 OR id > 2000 AND id <= 2300;
SELECT count(*) AS pairs FROM simhash_pairs('wf_small', 'f', 3, 'n');

-- Clusters, connected components: the same as components computed in SQL
-- from the truth's pairs (representative: the smallest id), and the
-- distance column is the distance to the representative.
CREATE TEMP TABLE truth_edges AS
SELECT id1 AS a, id2 AS b FROM truth WHERE k = 3 UNION ALL SELECT id2, id1 FROM truth WHERE k = 3;
CREATE TEMP TABLE truth_components AS
WITH RECURSIVE reach(id, r) AS (
	SELECT id, id FROM wf WHERE fp IS NOT NULL
	UNION
	SELECT e.b, reach.r FROM reach JOIN truth_edges e ON e.a = reach.id)
SELECT id, min(r) AS representative FROM reach GROUP BY id;
CREATE TEMP TABLE components AS SELECT * FROM simhash_clusters('wf', 'fp', 3);
SELECT (SELECT count(*) FROM components) AS rows,
       (SELECT count(DISTINCT representative) FROM components) AS clusters,
       (SELECT count(*) FROM (SELECT id, representative FROM components
                              EXCEPT SELECT * FROM truth_components) x) AS differ,
       (SELECT count(*) FROM components c JOIN wf a ON a.id = c.id JOIN wf r ON r.id = c.representative
         WHERE c.distance <> a.fp <-> r.fp) AS wrong_distance,
       (SELECT max(distance) FROM components) AS max_distance;
-- The chain is one component, its ends 10 bits apart.
SELECT c.* FROM components c JOIN wf USING (id) WHERE note = 'chain' ORDER BY id;

-- Leader clustering: in id order, a row within 3 of a leader joins the
-- nearest (ties: the smallest id), else it leads.  Checked row by row.
CREATE TEMP TABLE leaders AS SELECT * FROM simhash_clusters('wf', 'fp', 3, method => 'leaders');
SELECT (SELECT count(*) FROM leaders) AS rows,
       (SELECT count(*) FROM leaders WHERE id = representative) AS leaders,
       (SELECT count(*) FROM leaders r
         WHERE r.representative IS DISTINCT FROM coalesce(
               (SELECT l.id FROM leaders l JOIN wf lf ON lf.id = l.id JOIN wf rf ON rf.id = r.id
                 WHERE l.id = l.representative AND l.id < r.id AND lf.fp <-> rf.fp <= 3
                 ORDER BY lf.fp <-> rf.fp, l.id LIMIT 1), r.id)) AS wrong,
       (SELECT max(distance) FROM leaders) AS max_distance;
-- The chain under leader clustering: three clusters, each within 3 bits.
SELECT c.* FROM leaders c JOIN wf USING (id) WHERE note = 'chain' ORDER BY id;

-- The same pairs and clusters whatever the physical order of the rows.
CREATE TABLE wf_shuffled AS SELECT * FROM wf ORDER BY md5(id::text || 'shuffle');
SELECT (SELECT count(*) FROM (SELECT * FROM simhash_pairs('wf', 'fp', 3)
                              EXCEPT ALL SELECT * FROM simhash_pairs('wf_shuffled', 'fp', 3)) x) AS pairs_differ,
       (SELECT count(*) FROM (SELECT * FROM simhash_clusters('wf', 'fp', 3)
                              EXCEPT ALL SELECT * FROM simhash_clusters('wf_shuffled', 'fp', 3)) x) AS components_differ,
       (SELECT count(*) FROM (SELECT * FROM simhash_clusters('wf', 'fp', 3, method => 'leaders')
                              EXCEPT ALL SELECT * FROM simhash_clusters('wf_shuffled', 'fp', 3, method => 'leaders')) x) AS leaders_differ;

-- Duplicate ids (not a key): each row pair still comes once.
CREATE TABLE wf_dup (id bigint, fp simhash);
INSERT INTO wf_dup VALUES (1, wf_fp('a')), (1, wf_fp('a')), (1, wf_flip(wf_fp('a'), 1, 1)), (2, wf_fp('a'));
SELECT * FROM simhash_pairs('wf_dup', 'fp', 3) ORDER BY 1, 2, 3;
SELECT * FROM simhash_clusters('wf_dup', 'fp', 3) ORDER BY 1, 2, 3;

-- Assigning rows one at a time, in id order, by the index lookup of
-- doc/deduplicating.md (the nearest leader within 3, else a new leader)
-- gives what simhash_clusters(..., 'leaders') computes for the whole table.
CREATE TEMP TABLE inc_leaders (id bigint, fp simhash);
CREATE INDEX ON inc_leaders USING simhash (fp);
CREATE TEMP TABLE inc_cluster (id bigint, representative bigint);
DO $$
DECLARE
	r record;
	l bigint;
BEGIN
	FOR r IN SELECT id, fp FROM wf WHERE fp IS NOT NULL ORDER BY id LOOP
		SELECT id INTO l FROM inc_leaders WHERE fp <-> r.fp <= 3 ORDER BY fp <-> r.fp, id LIMIT 1;
		IF l IS NULL THEN
			INSERT INTO inc_leaders VALUES (r.id, r.fp);
			l := r.id;
		END IF;
		INSERT INTO inc_cluster VALUES (r.id, l);
	END LOOP;
END
$$;
SELECT count(*) AS assigned, count(*) FILTER (WHERE i.representative IS DISTINCT FROM l.representative) AS differ
  FROM inc_cluster i FULL JOIN leaders l USING (id);

-- Errors, with their SQLSTATE.
CREATE TABLE wf_bad (id text, big bigint, fp simhash);
INSERT INTO wf_bad VALUES ('a', 1, wf_fp('1'));
CREATE TABLE wf_nullid (id bigint, fp simhash);
INSERT INTO wf_nullid VALUES (1, wf_fp('1')), (NULL, wf_fp('2'));
CREATE ROLE wf_reader;
DO $$
DECLARE
	q text;
BEGIN
	FOREACH q IN ARRAY ARRAY[
		$q$SELECT * FROM simhash_pairs('wf', 'fp', -1)$q$,
		$q$SELECT * FROM simhash_pairs('wf', 'fp', 65)$q$,
		$q$SELECT * FROM simhash_clusters('wf', 'fp', 3, method => 'single')$q$,
		$q$SELECT * FROM simhash_pairs('wf', 'note', 3)$q$,
		$q$SELECT * FROM simhash_pairs('wf', 'nope', 3)$q$,
		$q$SELECT * FROM simhash_pairs('wf_bad', 'fp', 3)$q$,
		$q$SELECT * FROM simhash_pairs('wf_bad', 'big', 3)$q$,
		$q$SELECT * FROM simhash_clusters('wf_nullid', 'fp', 3)$q$,
		$q$SELECT * FROM simhash_pairs('wf_missing', 'fp', 3)$q$]
	LOOP
		BEGIN
			EXECUTE q;
			RAISE NOTICE 'accepted: %', q;
		EXCEPTION WHEN OTHERS THEN
			RAISE NOTICE '%: %', SQLSTATE, SQLERRM;
		END;
	END LOOP;
END
$$;
-- The table is read as the caller: no privilege, no pairs (42501).
SET ROLE wf_reader;
DO $$
BEGIN
	PERFORM * FROM simhash_pairs('wf', 'fp', 3);
EXCEPTION WHEN OTHERS THEN
	RAISE NOTICE '%: %', SQLSTATE, SQLERRM;
END
$$;
RESET ROLE;
-- NULL arguments: no rows (the functions are STRICT).
SELECT count(*) FROM simhash_pairs('wf', 'fp', NULL);
DROP ROLE wf_reader;
DROP TABLE wf, wf_big, wf_empty, wf_small, wf_shuffled, wf_dup, wf_bad, wf_nullid CASCADE;
DROP FUNCTION wf_compare, wf_sliced, wf_truth, wf_fp, wf_flip;
