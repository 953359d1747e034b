-- Golden vectors: algorithm version 3 is pinned by test/golden/vectors.csv,
-- version 4 by test/golden/vectors_v4.csv, version 5 by
-- test/golden/vectors_v5.csv, version 6 by test/golden/vectors_v6.csv,
-- version 7 by test/golden/vectors_v7.csv, version 8 (the default) by
-- test/golden/vectors_v8.csv (text, options,
-- expected fingerprint; empty for
-- NULL), computed by the independent reference implementation
-- test/golden/reference.c (whole-text ICU, no chunks, no ASCII or CJK fast
-- path, per-bit sums, lines found on the whole raw text).  Prints only the
-- mismatches; the counts guard against a silently empty or truncated file.
CREATE TEMP TABLE golden (body text, features text, n int, weighting text,
                          numbers boolean, expected simhash, version int DEFAULT 3);
\copy golden (body, features, n, weighting, numbers, expected) FROM 'test/golden/vectors.csv' WITH (FORMAT csv, HEADER true)
CREATE TEMP TABLE golden_v4 (LIKE golden);
ALTER TABLE golden_v4 ALTER version SET DEFAULT 4;
\copy golden_v4 (body, features, n, weighting, numbers, expected) FROM 'test/golden/vectors_v4.csv' WITH (FORMAT csv, HEADER true)
INSERT INTO golden SELECT * FROM golden_v4;
CREATE TEMP TABLE golden_v5 (LIKE golden);
ALTER TABLE golden_v5 ALTER version SET DEFAULT 5;
\copy golden_v5 (body, features, n, weighting, numbers, expected) FROM 'test/golden/vectors_v5.csv' WITH (FORMAT csv, HEADER true)
INSERT INTO golden SELECT * FROM golden_v5;
CREATE TEMP TABLE golden_v6 (LIKE golden);
ALTER TABLE golden_v6 ALTER version SET DEFAULT 6;
\copy golden_v6 (body, features, n, weighting, numbers, expected) FROM 'test/golden/vectors_v6.csv' WITH (FORMAT csv, HEADER true)
INSERT INTO golden SELECT * FROM golden_v6;
CREATE TEMP TABLE golden_v7 (LIKE golden);
ALTER TABLE golden_v7 ALTER version SET DEFAULT 7;
\copy golden_v7 (body, features, n, weighting, numbers, expected) FROM 'test/golden/vectors_v7.csv' WITH (FORMAT csv, HEADER true)
INSERT INTO golden SELECT * FROM golden_v7;
CREATE TEMP TABLE golden_v8 (LIKE golden);
ALTER TABLE golden_v8 ALTER version SET DEFAULT 8;
\copy golden_v8 (body, features, n, weighting, numbers, expected) FROM 'test/golden/vectors_v8.csv' WITH (FORMAT csv, HEADER true)
INSERT INTO golden SELECT * FROM golden_v8;
SELECT version, count(*) AS vectors, count(DISTINCT body) AS texts,
       count(*) FILTER (WHERE body ~ '[\u4e00-\u9fff]') AS chinese,
       count(*) FILTER (WHERE body ~ '[\r\n\u2028\u2029]') AS multiline,
       count(*) FILTER (WHERE octet_length(body) > 65536) AS past_64k,
       count(DISTINCT (features, n, weighting, numbers)) AS option_sets
  FROM golden GROUP BY 1 ORDER BY 1;
-- (a mismatch shows the text's first 60 characters and its length: some
-- texts are 100 kB)
SELECT version, left(body, 60) AS body_start, octet_length(body) AS bytes,
       features, n, weighting, numbers, expected,
       simhash(body, features, n, weighting, numbers, version) AS actual
  FROM golden
 WHERE simhash(body, features, n, weighting, numbers, version) IS DISTINCT FROM expected;
-- The default options (version 8) are what simhash(text) uses.
SELECT simhash_algorithm_version() ~ '^simhash-8/' AS default_is_version_8;
SELECT left(body, 60) AS body_start, octet_length(body) AS bytes, expected,
       simhash(body) AS actual
  FROM golden
 WHERE (features, n, weighting, numbers, version) = ('words', 0, 'runs', false, 8)
   AND simhash(body) IS DISTINCT FROM expected;
-- Each variant of the ASCII fast path (simhash.simd), and ICU alone, give
-- the same vectors.
SET simhash.simd = avx2;
SELECT count(*) FILTER (WHERE simhash(body, features, n, weighting, numbers, version) IS DISTINCT FROM expected) AS avx2_mismatches
  FROM golden;
SET simhash.simd = sse2;
SELECT count(*) FILTER (WHERE simhash(body, features, n, weighting, numbers, version) IS DISTINCT FROM expected) AS sse2_mismatches
  FROM golden;
SET simhash.simd = off;
SELECT count(*) FILTER (WHERE simhash(body, features, n, weighting, numbers, version) IS DISTINCT FROM expected) AS scalar_mismatches
  FROM golden;
RESET simhash.simd;
SET simhash.fast_path = off;
SELECT count(*) FILTER (WHERE simhash(body, features, n, weighting, numbers, version) IS DISTINCT FROM expected) AS icu_mismatches
  FROM golden;
RESET simhash.fast_path;
