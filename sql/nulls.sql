-- Every function is STRICT: a NULL argument gives NULL, never an error.

SELECT NULL::simhash AS null_in,
       (NULL::simhash <-> '0123456789abcdef') IS NULL AS distance_left,
       ('0123456789abcdef'::simhash <-> NULL) IS NULL AS distance_right,
       hamming_distance(NULL, NULL) IS NULL AS distance_both,
       simhash_similarity(NULL, '0123456789abcdef') IS NULL AS similarity,
       simhash(NULL::text) IS NULL AS fingerprint,
       NULL::bigint::simhash IS NULL AS from_bigint,
       NULL::simhash::bigint IS NULL AS to_bigint,
       NULL::bit(64)::simhash IS NULL AS from_bit,
       NULL::simhash::bit(64) IS NULL AS to_bit,
       (NULL::simhash = NULL::simhash) IS NULL AS eq,
       (NULL::simhash < '0123456789abcdef') IS NULL AS lt;

-- NULLs sort last by default, and group together.
CREATE TEMP TABLE n (fp simhash);
INSERT INTO n VALUES ('0000000000000002'), (NULL), ('0000000000000001'), (NULL);
SELECT fp FROM n ORDER BY fp;
SELECT fp, count(*) FROM n GROUP BY fp ORDER BY fp NULLS FIRST;
SELECT count(*) AS near_null FROM n WHERE fp <-> '0000000000000000' <= 64;
