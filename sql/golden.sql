-- Golden vectors: the algorithm is pinned by test/golden/fingerprints.csv
-- (text, expected fingerprint).  Prints only the mismatches; the count of
-- vectors guards against a silently empty file.
CREATE TEMP TABLE golden (body text, expected simhash);
\copy golden FROM 'test/golden/fingerprints.csv' WITH (FORMAT csv, HEADER true)
SELECT count(*) >= 20 AS enough_vectors FROM golden;
SELECT body, expected, simhash(body) AS actual
  FROM golden
 WHERE simhash(body) IS DISTINCT FROM expected;
