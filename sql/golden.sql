-- Golden vectors: algorithm version 3 is pinned by test/golden/vectors.csv,
-- version 4 (the default) by test/golden/vectors_v4.csv (text, options,
-- expected fingerprint; empty for NULL), computed by the independent
-- reference implementation test/golden/reference.c (whole-text ICU, no
-- chunks, no ASCII or CJK fast path, per-bit sums).  Prints only the
-- mismatches; the counts guard against a silently empty or truncated file.
CREATE TEMP TABLE golden (body text, features text, n int, weighting text,
                          numbers boolean, expected simhash, version int DEFAULT 3);
\copy golden (body, features, n, weighting, numbers, expected) FROM 'test/golden/vectors.csv' WITH (FORMAT csv, HEADER true)
CREATE TEMP TABLE golden_v4 (LIKE golden);
ALTER TABLE golden_v4 ALTER version SET DEFAULT 4;
\copy golden_v4 (body, features, n, weighting, numbers, expected) FROM 'test/golden/vectors_v4.csv' WITH (FORMAT csv, HEADER true)
INSERT INTO golden SELECT * FROM golden_v4;
SELECT version, count(*) AS vectors, count(DISTINCT body) AS texts,
       count(*) FILTER (WHERE body ~ '[\u4e00-\u9fff]') AS chinese,
       count(DISTINCT (features, n, weighting, numbers)) AS option_sets
  FROM golden GROUP BY 1 ORDER BY 1;
SELECT version, body, features, n, weighting, numbers, expected,
       simhash(body, features, n, weighting, numbers, version) AS actual
  FROM golden
 WHERE simhash(body, features, n, weighting, numbers, version) IS DISTINCT FROM expected;
-- The default options (version 4) are what simhash(text) uses.
SELECT body, expected, simhash(body) AS actual
  FROM golden
 WHERE (features, n, weighting, numbers, version) = ('words', 0, 'runs', false, 4)
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
