-- The distance operators coexist with btree_gist, which declares <-> on
-- int2, int4, int8, float, date, ... (where btree_gist is installed; the
-- alternative output planner_btree_gist_1.out is for servers without it).
SELECT NOT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'btree_gist') AS no_btree_gist
\gset
\if :no_btree_gist
\echo btree_gist is not available here
\quit
\endif

CREATE EXTENSION btree_gist;
CREATE TABLE coexist (id int8, fp simhash);
INSERT INTO coexist SELECT g, ('x' || substr(md5(g::text), 1, 16))::bit(64)::bigint::simhash
  FROM generate_series(1, 2000) g;
CREATE INDEX coexist_id ON coexist USING gist (id);
CREATE INDEX coexist_fp ON coexist USING simhash (fp);
ANALYZE coexist;

-- Each <-> keeps its own meaning and result type.
SELECT pg_typeof(1::int8 <-> 5::int8) AS int8_distance, 1::int8 <-> 5::int8 AS four,
       pg_typeof('0123456789abcdef'::simhash <-> '0123456789abcdee') AS simhash_distance;
-- Both indexes order by their own <->, and the radius clause is rewritten.
EXPLAIN (COSTS OFF) SELECT id FROM coexist ORDER BY id <-> 1000 LIMIT 3;
SELECT id FROM coexist ORDER BY id <-> 1000, id LIMIT 3;
EXPLAIN (COSTS OFF) SELECT id FROM coexist ORDER BY fp <-> '0123456789abcdef' LIMIT 3;
EXPLAIN (COSTS OFF) SELECT id FROM coexist WHERE fp <-> '0123456789abcdef' <= 3;
-- an integer distance from btree_gist compared with an integer: core's int8le
EXPLAIN (COSTS OFF) SELECT id FROM coexist WHERE id <-> 1000 <= 3;
SELECT array_agg(id ORDER BY id) FROM coexist WHERE id <-> 1000 <= 3;
SELECT count(*) AS mismatches FROM coexist
 WHERE (fp <-> '0123456789abcdef' <= 28) IS DISTINCT FROM
       (length(replace((fp::bit(64) # '0123456789abcdef'::simhash::bit(64))::text, '0', '')) <= 28);

DROP TABLE coexist;
DROP EXTENSION btree_gist;
