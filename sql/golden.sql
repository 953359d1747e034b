-- Golden vectors: algorithm version 2 is pinned by test/golden/vectors.csv
-- (text, options, expected fingerprint; empty for NULL), computed by the
-- independent reference implementation test/golden/reference.c (whole-text
-- ICU, no chunks, no ASCII fast path, per-bit sums).  Prints only the
-- mismatches; the counts guard against a silently empty or truncated file.
CREATE TEMP TABLE golden (body text, features text, n int, weighting text,
                          numbers boolean, expected simhash);
\copy golden FROM 'test/golden/vectors.csv' WITH (FORMAT csv, HEADER true)
SELECT count(*) AS vectors, count(DISTINCT body) AS texts,
       count(*) FILTER (WHERE body ~ '[\u4e00-\u9fff]') AS chinese,
       count(DISTINCT (features, n, weighting, numbers)) AS option_sets
  FROM golden;
SELECT body, features, n, weighting, numbers, expected,
       simhash(body, features, n, weighting, numbers) AS actual
  FROM golden
 WHERE simhash(body, features, n, weighting, numbers) IS DISTINCT FROM expected;
-- The default options are what simhash(text) uses.
SELECT body, expected, simhash(body) AS actual
  FROM golden
 WHERE (features, n, weighting, numbers) = ('words', 0, 'runs', false)
   AND simhash(body) IS DISTINCT FROM expected;
-- Each variant of the ASCII fast path (simhash.simd), and ICU alone, give
-- the same vectors.
SET simhash.simd = avx2;
SELECT count(*) FILTER (WHERE simhash(body, features, n, weighting, numbers) IS DISTINCT FROM expected) AS avx2_mismatches
  FROM golden;
SET simhash.simd = sse2;
SELECT count(*) FILTER (WHERE simhash(body, features, n, weighting, numbers) IS DISTINCT FROM expected) AS sse2_mismatches
  FROM golden;
SET simhash.simd = off;
SELECT count(*) FILTER (WHERE simhash(body, features, n, weighting, numbers) IS DISTINCT FROM expected) AS scalar_mismatches
  FROM golden;
RESET simhash.simd;
SET simhash.fast_path = off;
SELECT count(*) FILTER (WHERE simhash(body, features, n, weighting, numbers) IS DISTINCT FROM expected) AS icu_mismatches
  FROM golden;
RESET simhash.fast_path;
