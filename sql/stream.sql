-- Values stored out of line (external TOAST) are fingerprinted piece by
-- piece: uncompressed ones slice by slice, pglz-compressed ones through a
-- stream decoder (lz4: stream_lz4, which also drops what this test
-- leaves).  Fingerprints and features must be
-- exactly those of the same text in memory (t || '' is a copy in memory).
-- The documents are several MB, so the slices (about 125 kB), the decoder's
-- flushes (64 kB), the conversion pieces (64 kB) and the segmenter's chunks
-- (64 kB) and window end many times inside multi-byte characters.
SELECT setseed(0.25);
CREATE TABLE stream_src (id int, t text);
-- 1: mixed scripts, CRLF, NFKC and combining characters, emoji, long words
INSERT INTO stream_src
SELECT 1, repeat(string_agg(CASE floor(random() * 10)::int
    WHEN 0 THEN 'The quick brown fox jumps; ' || md5(j::text) || '. '
    WHEN 1 THEN '中文文本的指纹测试，句子' || j || '。'
    WHEN 2 THEN E'line\r\nnext\r\n'
    WHEN 3 THEN 'café ﬁne ＦＵＬＬ Ω… “quoted” — '
    WHEN 4 THEN repeat('x', floor(random() * 40)::int) || ' '
    WHEN 5 THEN E'e\u0301 \U0001F642\U0001F44D\U0001F3FD '
    WHEN 6 THEN 'ภาษาไทยคำ '
    WHEN 7 THEN 'Καλημέρα κόσμε, здравствуй мир! '
    WHEN 8 THEN repeat('_', floor(random() * 20)::int) || '|'
    ELSE 'word' || floor(random() * 1000)::int || ' '
  END, ''), 9)
  FROM generate_series(1, 3000) j;
-- 2: Chinese without punctuation: no safe cut, chunks end at normalization
-- boundaries
INSERT INTO stream_src
SELECT 2, repeat(string_agg((ARRAY['指纹','文本','测试','中文','近似','重复','网页','内容',
                                   '搜索','引擎','的','了','是','在'])[1 + floor(random() * 14)::int], ''), 7)
  FROM generate_series(1, 20000) j;
-- 3: combining marks without a normalization boundary for long stretches
INSERT INTO stream_src
SELECT 3, repeat(string_agg(CASE WHEN random() < 0.001 THEN ' word a'
                                 ELSE E'\u0301' END, ''), 5)
  FROM generate_series(1, 100000) j;
-- 4: ASCII words and numbers (the fast path)
INSERT INTO stream_src
SELECT 4, repeat(string_agg(CASE WHEN random() < 0.1 THEN (j % 977)::text
                                 ELSE substr('lorem ipsum dolor sit amet consectetur adipiscing elit sed do', 1 + floor(random() * 50)::int, 1 + floor(random() * 12)::int)
                            END, ' '), 6)
  FROM generate_series(1, 100000) j;
-- 5: highly compressible: long back-references and runs across every window
INSERT INTO stream_src
SELECT 5, repeat('abc ', 500000) || repeat(' ', 300000) || repeat('中文', 100000) || 'end';
SELECT id, octet_length(t) > 500000 AS over_500kb, sum(octet_length(t)) OVER () > 8000000 AS over_8mb_in_all
  FROM stream_src ORDER BY id;

-- A value's compression method: pg_column_compression(t) from PostgreSQL
-- 14 on; before, every compressed value is pglz (and there is no
-- COMPRESSION clause: pglz is what the default gives).
SELECT current_setting('server_version_num')::int >= 140000 AS have_methods \gset
\if :have_methods
\set compression_of_t 'pg_column_compression(t)'
\else
\set compression_of_t 'CASE WHEN pg_column_size(t) < octet_length(t) THEN ''pglz'' END'
\endif

-- (toast_tuple_target = 128: every value here is stored out of line)
CREATE TABLE stream_external (id int, t text) WITH (toast_tuple_target = 128);
ALTER TABLE stream_external ALTER t SET STORAGE EXTERNAL;
CREATE TABLE stream_pglz (id int, t text) WITH (toast_tuple_target = 128);
\if :have_methods
ALTER TABLE stream_pglz ALTER t SET COMPRESSION pglz;
\endif
-- t || '' makes a new value, compressed anew for each table
INSERT INTO stream_external SELECT id, t || '' FROM stream_src;
INSERT INTO stream_pglz SELECT id, t || '' FROM stream_src;

-- Stored as intended: out of line (as many values as rows in the TOAST
-- table), compressed or not
CREATE FUNCTION stream_out_of_line(rel regclass) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE n bigint;
BEGIN
  EXECUTE format('SELECT count(DISTINCT chunk_id) FROM %s',
                 (SELECT reltoastrelid::regclass FROM pg_class WHERE oid = rel)) INTO n;
  RETURN n;
END $$;
SELECT stream_out_of_line('stream_external') AS external, stream_out_of_line('stream_pglz') AS pglz;
SELECT 'external' AS storage, id, :compression_of_t AS compression FROM stream_external
UNION ALL
SELECT 'pglz', id, :compression_of_t FROM stream_pglz
ORDER BY 1, 2;

-- Fingerprints under every option set, streamed and in memory.
CREATE FUNCTION stream_fingerprints(t text) RETURNS simhash[] LANGUAGE sql AS $$
  SELECT ARRAY[simhash(t), simhash(t, 'shingles', 3, 'binary'),
               simhash(t, 'chars', 2, 'log', true)]
$$;
-- Features (text, occurrences, weight, hash) in order, streamed and in memory.
CREATE FUNCTION stream_features(t text, kind text, n int, weighting text) RETURNS text
LANGUAGE sql AS $$
  SELECT md5(string_agg(f::text, ',' ORDER BY ord))
    FROM simhash_features(t, kind, n, weighting, true) WITH ORDINALITY AS f(feature, occurrences, weight, hash, ord)
$$;
SELECT storage, id, fp = fp_memory AS same_fingerprints,
       array_position(fp, NULL) IS NULL AS none_null, features = features_memory AS same_features
  FROM (SELECT 'external' AS storage, id, stream_fingerprints(t) AS fp,
               stream_fingerprints(t || '') AS fp_memory,
               stream_features(t, 'words', 1, 'runs') AS features,
               stream_features(t || '', 'words', 1, 'runs') AS features_memory
          FROM stream_external
        UNION ALL
        SELECT 'pglz', id, stream_fingerprints(t), stream_fingerprints(t || ''),
               stream_features(t, 'words', 1, 'runs'), stream_features(t || '', 'words', 1, 'runs')
          FROM stream_pglz) s
 ORDER BY 1, 2;

-- Small documents stored out of line (under about 2 kB they stay inline):
-- just over that, exactly two TOAST chunks (2 x 1996 bytes), one byte
-- more, three chunks, many; ASCII (id 4) and mixed scripts (id 1, where the
-- lengths are in characters).
CREATE TABLE stream_small (id int, t text) WITH (toast_tuple_target = 128);
ALTER TABLE stream_small ALTER t SET STORAGE EXTERNAL;
INSERT INTO stream_small
SELECT id * 100000 + n, left(t, n) FROM stream_src, unnest(ARRAY[2100, 3992, 3993, 5988, 70000]) n
 WHERE id IN (1, 4);
SELECT id, simhash(t) = simhash(t || '') AS same,
       stream_features(t, 'words', 1, 'runs') = stream_features(t || '', 'words', 1, 'runs') AS same_words
  FROM stream_small ORDER BY id;
SELECT stream_out_of_line('stream_small') AS out_of_line;

-- Documents compressed with pglz and kept in their row (STORAGE MAIN: a
-- few kB that compress to fit) are decoded by the same decoder, from the
-- row: into a window of their size, or, for a text larger than the
-- decoder's window (id 6: 320 kB that compress to about 3 kB), fed to the
-- segmenter's window.
CREATE TABLE stream_inline (id int, t text);
ALTER TABLE stream_inline ALTER t SET STORAGE MAIN;
\if :have_methods
ALTER TABLE stream_inline ALTER t SET COMPRESSION pglz;
\endif
INSERT INTO stream_inline
SELECT id * 100000 + n, left(t, n) FROM stream_src, unnest(ARRAY[2100, 3000, 5000]) n
 WHERE id IN (1, 2, 4)
UNION ALL
SELECT 6, repeat('abc ', 50000) || repeat('中文', 20000) || 'end';
SELECT id, :compression_of_t AS compression, octet_length(t) > 131072 AS over_128kb,
       stream_fingerprints(t) = stream_fingerprints(t || '') AS same_fingerprints,
       stream_features(t, 'words', 1, 'runs') = stream_features(t || '', 'words', 1, 'runs') AS same_features
  FROM stream_inline ORDER BY id;
SELECT stream_out_of_line('stream_inline') AS out_of_line;

-- A database in another encoding: the text is converted to UTF-8 in pieces
-- of whole characters; fingerprints are the same as in this database.
SELECT current_database() AS regress_db \gset
CREATE DATABASE stream_eucjp ENCODING 'EUC_JP' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0;
SELECT simhash(t) AS utf8_fingerprint FROM
  (SELECT repeat(string_agg(CASE j % 5 WHEN 0 THEN '日本語の文章です。' WHEN 1 THEN 'ｶﾀｶﾅ ＦＵＬＬ '
                                        WHEN 2 THEN 'ひらがな' WHEN 3 THEN E'\r\n' ELSE 'ascii words ' || j END, ''), 10) AS t
     FROM generate_series(1, 15000) j) s \gset
\c stream_eucjp
SET client_encoding = 'UTF8';
CREATE EXTENSION simhash;
CREATE TABLE eucjp (t text);
ALTER TABLE eucjp ALTER t SET STORAGE EXTERNAL;
INSERT INTO eucjp
SELECT repeat(string_agg(CASE j % 5 WHEN 0 THEN '日本語の文章です。' WHEN 1 THEN 'ｶﾀｶﾅ ＦＵＬＬ '
                                     WHEN 2 THEN 'ひらがな' WHEN 3 THEN E'\r\n' ELSE 'ascii words ' || j END, ''), 10)
  FROM generate_series(1, 15000) j;
SELECT octet_length(t) > 1000000 AS over_1mb, :compression_of_t AS compression,
       simhash(t) = simhash(t || '') AS same, simhash(t) = :'utf8_fingerprint' AS same_as_utf8
  FROM eucjp;
ALTER TABLE eucjp SET (toast_tuple_target = 128);
ALTER TABLE eucjp ALTER t SET STORAGE EXTENDED;
UPDATE eucjp SET t = t || '';
SELECT :compression_of_t AS compression, simhash(t) = :'utf8_fingerprint' AS same_as_utf8
  FROM eucjp;
\c :regress_db
DROP DATABASE stream_eucjp;
