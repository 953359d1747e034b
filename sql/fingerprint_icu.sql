-- The ASCII fast path and the ICU path give the same tokens, and streaming
-- in chunks does not change them.  U+3000 (ideographic space) normalizes to
-- a space, so putting one in front of an ASCII text sends it through ICU
-- without changing its features.
SELECT setseed(0.42);
CREATE TEMP TABLE random_ascii AS
SELECT i, string_agg(substr($$aAbZ19_.'',;:@"-! 	
xYq0|$$, 1 + floor(random() * 28)::int, 1), '') AS s
  FROM generate_series(1, 20000) i, generate_series(1, 12) j GROUP BY i;

SELECT count(*) AS token_mismatches FROM random_ascii
 WHERE (SELECT array_agg(feature || '/' || occurrences || '/' || weight)
          FROM simhash_features(s, 'words', 1, 'runs', true))
       IS DISTINCT FROM
       (SELECT array_agg(feature || '/' || occurrences || '/' || weight)
          FROM simhash_features(U&'\3000' || s, 'words', 1, 'runs', true));
SELECT count(*) FILTER (WHERE simhash(s) IS DISTINCT FROM simhash(U&'\3000' || s)) AS default_mismatches,
       count(*) FILTER (WHERE simhash(s, 'chars', 3) IS DISTINCT FROM simhash(U&'\3000' || s, 'chars', 3)) AS chars_mismatches,
       count(*) FILTER (WHERE simhash(s, 'shingles', 2, 'tf') IS DISTINCT FROM simhash(U&'\3000' || s, 'shingles', 2, 'tf')) AS shingles_mismatches,
       count(*) FILTER (WHERE simhash(s) IS NOT NULL) AS with_fingerprint
  FROM random_ascii;

-- Long documents are cut into chunks; the cuts differ between the two
-- paths (after an ASCII space, after U+3000) and change nothing.
CREATE TEMP TABLE long_doc AS
SELECT string_agg(w, CASE WHEN i % 13 = 0 THEN E'.\n' WHEN i % 5 = 0 THEN ', ' ELSE ' ' END ORDER BY i) AS s
  FROM (SELECT i, (ARRAY['alpha', 'Beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta',
                         'iota', 'kappa', 'lambda', 'mu', 'nu', 'xi', 'omicron', 'pi', 'rho'])
                  [1 + floor(random() * 17)::int] AS w
          FROM generate_series(1, 60000) i) w;
SELECT length(s) > 300000 AS several_chunks,
       simhash(s) = simhash(replace(s, ' ', U&'\3000')) AS default_same,
       simhash(s, 'chars', 4, 'tf') = simhash(replace(s, ' ', U&'\3000'), 'chars', 4, 'tf') AS chars_same,
       simhash(s, 'shingles', 3, 'log') = simhash(replace(s, ' ', U&'\3000'), 'shingles', 3, 'log') AS shingles_same
  FROM long_doc;
SELECT sum(occurrences) = 60000 AS every_word_once FROM long_doc, simhash_features(s, 'words', 1, 'tf');

-- Chinese across many chunks: every dictionary word of every sentence.
SELECT count(*) AS features, min(occurrences), max(occurrences), min(weight), max(weight)
  FROM simhash_features(repeat('近似重复检测是搜索引擎的重要技术。', 20000));

-- No place to cut for 64 kB: cut anyway (a deterministic split of a junk
-- "word"), never an error.
SELECT count(*) AS distinct_pieces, sum(length(feature) * occurrences) AS total_length
  FROM simhash_features(repeat('ab', 100000));

-- Chinese: a small edit moves the fingerprint a little; an unrelated text far.
SELECT simhash(text '近似重复检测是搜索引擎的重要技术，它可以发现内容相同的网页并节省存储空间。') <->
       simhash(text '近似重复检测是搜索引擎的关键技术，它可以发现内容相同的网页并节省存储空间。') <= 8 AS chinese_edit_near,
       simhash(text '近似重复检测是搜索引擎的重要技术，它可以发现内容相同的网页并节省存储空间。') <->
       simhash(text '数据库系统使用索引来加快查询速度，并通过事务保证数据的一致性和持久性。') > 8 AS chinese_unrelated_far;
