-- pg_dump / pg_restore round trip of a table with simhash columns (plain,
-- generated) and simhash indexes (btree, hash, unique).
CREATE TABLE dumped (
    id int PRIMARY KEY,
    body text,
    fp simhash GENERATED ALWAYS AS (simhash(body)) STORED,
    tag simhash UNIQUE
);
CREATE INDEX dumped_fp_btree ON dumped USING btree (fp);
-- Each spelling of simhash() with a literal keeps its meaning through the dump.
CREATE VIEW dumped_literals AS
  SELECT simhash(text 'hello world') AS typed, simhash('0123456789abcdef') AS fingerprint;
CREATE INDEX dumped_fp_hash ON dumped USING hash (fp);
INSERT INTO dumped (id, body, tag)
SELECT g, 'document number ' || g || ' about ' || md5(g::text), (hashint8(g)::bigint << 20)::simhash
  FROM generate_series(1, 500) g;
SELECT md5(string_agg(id || ' ' || fp::text || ' ' || tag::text, ',' ORDER BY id)) AS checksum
  FROM dumped \gset

-- The whole database: the dump carries CREATE EXTENSION and the objects.
\! pg_dump -Fc contrib_regression > results/dump.custom
DROP DATABASE IF EXISTS simhash_restored;
CREATE DATABASE simhash_restored;
\! pg_restore --exit-on-error -d simhash_restored results/dump.custom && echo restored
\c simhash_restored
SELECT extname, extversion = simhash_version() AS same_version FROM pg_extension WHERE extname = 'simhash';

SELECT md5(string_agg(id || ' ' || fp::text || ' ' || tag::text, ',' ORDER BY id)) = :'checksum' AS same_rows
  FROM dumped;
SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'dumped' ORDER BY 1;
SELECT * FROM dumped_literals;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM dumped WHERE tag = (hashint8(7)::bigint << 20)::simhash;
SELECT id FROM dumped WHERE tag = (hashint8(7)::bigint << 20)::simhash;
-- The generated column is recomputed identically on insert after restore.
INSERT INTO dumped (id, body, tag) VALUES (501, 'document number 1 about ' || md5('1'), '0000000000000000');
SELECT (SELECT fp FROM dumped WHERE id = 501) = (SELECT fp FROM dumped WHERE id = 1) AS generated_same;
\c contrib_regression
DROP DATABASE simhash_restored;
