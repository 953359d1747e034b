-- Values compressed with lz4 and stored out of line are decoded as a
-- stream too from 1 MB of text up (see stream.sql, which leaves stream_src
-- and the helper functions for this test); smaller ones are detoasted,
-- since liblz4 decodes faster.  A server built without lz4, or older than 14,
-- cannot store them: then this test says so (expected/stream_lz4_1.out).
SELECT EXISTS (SELECT FROM pg_settings WHERE name = 'default_toast_compression'
                                     AND 'lz4' = ANY (enumvals)) AS have_lz4 \gset
\if :have_lz4
CREATE TABLE stream_lz4 (id int, t text COMPRESSION lz4) WITH (toast_tuple_target = 128);
INSERT INTO stream_lz4 SELECT id, t || '' FROM stream_src;
-- and twice those under 1 MB, streamed
INSERT INTO stream_lz4 SELECT id + 10, repeat(t, 2) FROM stream_src
 WHERE octet_length(t) < 1048576;
SELECT stream_out_of_line('stream_lz4') AS out_of_line;
SELECT id, pg_column_compression(t) AS compression, octet_length(t) >= 1048576 AS streamed
  FROM stream_lz4 ORDER BY id;
SELECT id, stream_fingerprints(t) = stream_fingerprints(t || '') AS same_fingerprints,
       stream_features(t, 'words', 1, 'runs') = stream_features(t || '', 'words', 1, 'runs') AS same_features
  FROM stream_lz4 ORDER BY id;
DROP TABLE stream_lz4;
-- and compressed with lz4 in their row, which liblz4 decodes (see
-- stream_inline)
CREATE TABLE stream_inline_lz4 (id int, t text COMPRESSION lz4);
ALTER TABLE stream_inline_lz4 ALTER t SET STORAGE MAIN;
INSERT INTO stream_inline_lz4 SELECT id, t || '' FROM stream_inline;
SELECT stream_out_of_line('stream_inline_lz4') AS out_of_line;
SELECT id, pg_column_compression(t) AS compression,
       stream_fingerprints(t) = stream_fingerprints(t || '') AS same_fingerprints,
       stream_features(t, 'words', 1, 'runs') = stream_features(t || '', 'words', 1, 'runs') AS same_features
  FROM stream_inline_lz4 ORDER BY id;
DROP TABLE stream_inline_lz4;
\else
\echo this server has no lz4
\endif
DROP TABLE stream_src, stream_external, stream_pglz, stream_small, stream_inline;
DROP FUNCTION stream_fingerprints(text), stream_features(text, text, int, text),
  stream_out_of_line(regclass);
