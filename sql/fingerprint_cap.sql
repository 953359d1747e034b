-- The weight cap of algorithm version 3: each distinct feature of
-- simhash(text) weighs at most cap = max(ceil(9 W / 200), M), W the
-- document's total weight, M = 64 under runs and 1 under tf and binary;
-- under log, max(0.045 W, 1).  Only the first 65,536 distinct features (by
-- first occurrence) are capped.  Bring-your-own functions are not capped.

-- A page of 300 one-sentence lines of 15 words: under runs every word
-- weighs 15 per occurrence, W = 300 * 15 * 15 = 67,500, cap = 3,038.
-- the (1,500 times), of (600) and the five words of every line (300) are
-- capped; x* (17 or 18 times) and y* (60 times) are not.
CREATE TEMP TABLE capdoc AS
SELECT string_agg(format('The %s of the system is the %s part of the %s in the city.',
                         'w' || i, 'x' || (i % 17), 'y' || (i % 5)), E'\n') AS body
  FROM generate_series(1, 300) i;
SELECT feature, occurrences, weight
  FROM capdoc, simhash_features(body, 'words', version => 3)
 WHERE weight <> 15 * occurrences ORDER BY feature;
SELECT max(weight) AS largest_uncapped FROM capdoc, simhash_features(body, 'words', version => 3) WHERE weight = 15 * occurrences;

-- Under tf, W = 4,500 occurrences and cap = 203.
SELECT count(*) FILTER (WHERE weight < occurrences) AS capped, max(weight) AS largest,
       greatest(ceil(9 * sum(occurrences) / 200.0), 1) AS cap
  FROM capdoc, simhash_features(body, 'words', 1, 'tf', version => 3);

-- simhash_features reports the capped weights, so the aggregate over its
-- rows gives simhash(text) for every option set (words under runs and tf
-- are counted in lanes and corrected at the end; the rest from a table).
SELECT f AS features, n, w AS weighting
  FROM capdoc, unnest(ARRAY['words', 'shingles', 'chars']) f, unnest(ARRAY[1, 2, 3]) n,
       unnest(ARRAY['runs', 'tf', 'binary', 'log']) w
 WHERE simhash(body, f, n, w) IS DISTINCT FROM
       (SELECT simhash_agg(feature, weight) FROM simhash_features(body, f, n, w));
-- The ASCII fast path and the ICU path cap alike.
SELECT simhash(body) AS runs_fast, simhash(body, 'words', 1, 'tf') AS tf_fast FROM capdoc \gset
SET simhash.fast_path = off;
SELECT simhash(body) = :'runs_fast' AS runs_icu_same,
       simhash(body, 'words', 1, 'tf') = :'tf_fast' AS tf_icu_same FROM capdoc;
RESET simhash.fast_path;
-- The same through ICU, version 3.  Chinese: 200 sentences of 15 words (the number
-- is dropped), 的 three times in each: under tf W = 3,000 and cap = 135,
-- under runs W = 45,000 and cap = 2,025, so the words of every sentence
-- (200 times) are capped as well as 的.
SELECT f AS features, w AS weighting,
       (SELECT s.occurrences || ' times, weight ' || s.weight
          FROM simhash_features(body, f, 1, w, version => 3) s WHERE s.feature = '的') AS de,
       (SELECT max(s.occurrences) || ' times, weight ' || max(s.weight)
          FROM simhash_features(body, f, 1, w, version => 3) s WHERE s.feature = '内容') AS neirong
  FROM (SELECT string_agg(format('第%s章的内容是关于数据库的索引和查询的优化。', i), E'\n') AS body
          FROM generate_series(1, 200) i) d,
       unnest(ARRAY['words', 'chars']) f, unnest(ARRAY['runs', 'tf']) w
 WHERE simhash(body, f, 1, w, version => 3) IS DISTINCT FROM
       (SELECT simhash_agg(feature, weight) FROM simhash_features(body, f, 1, w, version => 3))
    OR f = 'words';

-- Short texts: under tf the cap is 1 (W < 23), so repeats do not count;
-- under runs the cap is at least 64, so a word that occurs once is never
-- capped, but "the" twice in a sentence of 40 words weighs 80 and is capped
-- to 72 (W = 40 * 40 = 1,600).
SELECT simhash(text 'the the the fox', 'words', 1, 'tf', version => 3) = simhash(text 'the fox', 'words', 1, 'binary', version => 3) AS tf_short_is_binary,
       simhash(text 'the the the fox', 'words', 1, 'tf', version => 3) =
       (simhash(text 'the')::bigint & simhash(text 'fox')::bigint)::simhash AS tie_gives_0;
SELECT feature, occurrences, weight
  FROM simhash_features((SELECT string_agg(CASE WHEN i IN (1, 20) THEN 'the' ELSE 'w' || i END, ' ')
                           FROM generate_series(1, 40) i), 'words', version => 3)
 WHERE occurrences > 1 OR feature = 'w2';

-- The floor of the cap under runs ends at W = 1,422: z weighs 37 + 4 * 7 = 65
-- (once in a sentence of 37 words, four times in one of 7), capped to 64
-- at W = 37^2 + 7^2 + 2^2 = 1,422; one more word (W = 1,423) makes the cap 65.
CREATE TEMP TABLE floordoc AS
SELECT 'z ' || (SELECT string_agg('a' || i, ' ') FROM generate_series(1, 36) i) ||
       E'.\nz z z z b c d.\ne f.' AS body;
SELECT (SELECT weight FROM simhash_features(body, 'words', version => 3) WHERE feature = 'z') AS at_1422,
       (SELECT weight FROM simhash_features(body || E'\ng.', 'words', version => 3) WHERE feature = 'z') AS at_1423,
       (SELECT sum(weight) FROM simhash_features(body, 'words', version => 3) WHERE feature <> 'z') + 65 AS w_1422
  FROM floordoc;

-- Bring your own features: weights are the caller's, never capped.
SELECT simhash(ARRAY['the', 'the', 'the', 'fox']) = simhash(text 'the') AS text_array_uncapped,
       simhash(ARRAY['the', 'fox'], ARRAY[3.0, 1.0]::float8[]) = simhash(text 'the') AS weighted_uncapped,
       (SELECT simhash_agg(f, 3.0) FROM unnest(ARRAY['the']) f) = simhash(text 'the') AS aggregate_uncapped;

-- Only the first 65,536 distinct features are capped.  A sentence of 4,000
-- times "the", 65,536 one-word lines (u1x, u2x, ... u6x5x5x3x6x: no run of
-- 4 equal characters) and a sentence of 4,000 times "and": under runs
-- W = 2 * 4,000 * 64 + 65,536 = 577,536 and cap = 25,990, under tf
-- W = 73,536 and cap = 3,310.  "the" is capped, "and", the 65,538th
-- distinct feature, is not, so it dominates; capped, it would tie with
-- "the".  The fingerprint (counted in lanes, corrected from a table that
-- stops at 65,536 features) equals the aggregate over the rows (from a
-- table of all features).
CREATE TEMP TABLE manydoc AS
SELECT repeat('the ', 4000) || E'.\n' ||
       string_agg('u' || regexp_replace(i::text, '(.)', '\1x', 'g'), E'.\n') ||
       E'.\n' || repeat('and ', 4000) AS body
  FROM generate_series(1, 65536) i;
SELECT w AS weighting, f.distinct_features, f.the_weight, f.and_weight,
       simhash(body, 'words', 1, w, version => 3) = f.agg AS agrees,
       simhash(body, 'words', 1, w, version => 3) <> f.agg_and_capped AS and_not_capped
  FROM manydoc, unnest(ARRAY['runs', 'tf']) w,
       LATERAL (SELECT count(*) AS distinct_features,
                       max(weight) FILTER (WHERE feature = 'the') AS the_weight,
                       max(weight) FILTER (WHERE feature = 'and') AS and_weight,
                       simhash_agg(feature, weight) AS agg,
                       simhash_agg(feature, CASE feature WHEN 'and' THEN
                           CASE w WHEN 'runs' THEN 25990 ELSE 3310 END ELSE weight END) AS agg_and_capped
                  FROM simhash_features(body, 'words', 1, w, version => 3)) f
 ORDER BY 1;

-- The table of totals starts at a size guessed from the text's length and
-- grows when a text has more distinct words than that, also in the middle
-- of a run (whose words' places in the table move along).  Sentences of
-- w1 ... w3000 (39, then 74 of 40, then 1 word; 2,998 distinct words, as
-- w1111 reads w111, w2222 w222), then 200 sentences of 63 times "the" and
-- 100 of 63 times "and", both capped (runs: W = 39^2 + 74 * 40^2 + 1 +
-- 300 * 63^2 = 1,310,622, cap 58,978; tf: W = 21,900, cap 986), so they tie
-- where they differ, while uncapped "the" would outweigh the rest: the fingerprint
-- equals the aggregate over the rows (counted without that table) and
-- differs from the one without the cap; so does that of the first 2,000
-- bytes (a short value, a small first table, about 400 distinct words).
CREATE TEMP TABLE growdoc AS
SELECT string_agg('w' || i, CASE WHEN i % 40 = 0 THEN E'.\n' ELSE ' ' END) || E'.\n' ||
       repeat(repeat('the ', 63) || E'.\n', 200) ||
       repeat(repeat('and ', 63) || E'.\n', 100) AS body
  FROM generate_series(1, 3000) i;
SELECT w AS weighting, f.distinct_features, f.the_weight, f.and_weight,
       simhash(body, 'words', 1, w, version => 3) = f.agg AS agrees,
       simhash(body, 'words', 1, w, version => 3) <> f.uncapped AS cap_matters,
       simhash(left(body, 2000), 'words', 1, w, version => 3) = f2.agg AS short_agrees
  FROM growdoc, unnest(ARRAY['runs', 'tf']) w,
       LATERAL (SELECT count(*) AS distinct_features,
                       max(weight) FILTER (WHERE feature = 'the') AS the_weight,
                       max(weight) FILTER (WHERE feature = 'and') AS and_weight,
                       simhash_agg(feature, weight) AS agg,
                       simhash_agg(feature, CASE feature WHEN 'the' THEN
                           CASE w WHEN 'runs' THEN 200 * 63 * 63 ELSE 200 * 63 END
                           ELSE weight END) AS uncapped
                  FROM simhash_features(body, 'words', 1, w, version => 3)) f,
       LATERAL (SELECT simhash_agg(feature, weight) AS agg
                  FROM simhash_features(left(body, 2000), 'words', 1, w, version => 3)) f2
 ORDER BY 1;

-- A capped word on both sides of the table's growth: 4 kB of text get a
-- first table of 1,024 slots, room for 512 features, and 701 distinct
-- words make it grow at w512, in the middle of a run.  "the" (a sentence of
-- 63 before, one after) must keep one total across the move: runs
-- W = 2 * 63^2 + 39^2 + 16 * 40^2 + 21^2 = 35,500, cap 1,598; tf W = 826,
-- cap 38.  Had it been lost in the move, the second sentence alone would be
-- capped and the fingerprint would not equal the aggregate; had it been
-- kept twice, "the" would weigh twice the cap.
CREATE TEMP TABLE growthe AS
SELECT repeat('the ', 63) || E'.\n' ||
       string_agg('w' || i, CASE WHEN i % 40 = 0 THEN E'.\n' ELSE ' ' END) || E'.\n' ||
       repeat('the ', 63) || E'.\n' AS body
  FROM generate_series(1, 700) i;
SELECT w AS weighting, octet_length(body) AS bytes, f.distinct_features, f.the_weight,
       simhash(body, 'words', 1, w, version => 3) = f.agg AS agrees,
       simhash(body, 'words', 1, w, version => 3) <> f.the_twice AS the_once
  FROM growthe, unnest(ARRAY['runs', 'tf']) w,
       LATERAL (SELECT count(*) AS distinct_features,
                       max(weight) FILTER (WHERE feature = 'the') AS the_weight,
                       simhash_agg(feature, weight) AS agg,
                       simhash_agg(feature, CASE feature WHEN 'the' THEN 2 * weight
                                                ELSE weight END) AS the_twice
                  FROM simhash_features(body, 'words', 1, w, version => 3)) f
 ORDER BY 1;

-- A call cancelled half-way (here by the statement timeout, nearly always
-- while one of the calls reads a long text of the same words) leaves
-- nothing behind for the next one: left-over totals of "the" would keep it
-- from being capped.
CREATE TEMP TABLE longdoc AS
SELECT string_agg(CASE WHEN i % 10 = 0 THEN 'the' ELSE 'w' || (i % 3000) END,
                  CASE WHEN i % 40 = 0 THEN E'.\n' ELSE ' ' END) AS body
  FROM generate_series(1, 1000000) i;
SET statement_timeout = '100ms';
DO $$
BEGIN
  FOR i IN 1 .. 1000 LOOP
    PERFORM simhash(body) FROM longdoc;
  END LOOP;
EXCEPTION WHEN query_canceled THEN
  NULL;
END $$;
RESET statement_timeout;
SELECT w AS weighting, simhash(body, 'words', 1, w) = f.agg AS agrees_after_cancel
  FROM growdoc, unnest(ARRAY['runs', 'tf']) w,
       LATERAL (SELECT simhash_agg(feature, weight) AS agg
                  FROM simhash_features(body, 'words', 1, w)) f
 ORDER BY 1;

-- Algorithm version 4 (the default) weighs each distinct single word
-- round(16 w sqrt(occurrences) d) / 16 before the cap, w its version 3
-- weight, d = 10000 / s for a word of the built-in frequency list whose
-- share s (parts per million) exceeds 10,000 (src/fingerprint/weights.h),
-- else 1.  In this short text nothing is capped: each word's weight follows
-- from its version 3 weight (its run lengths), "the" (72,992), "and"
-- (19,746), "of" (27,115) and "in" (16,572) damped.
SELECT f4.feature, f4.occurrences, f3.weight AS v3_weight, f4.weight AS v4_weight,
       f4.weight = round(16 * f3.weight * sqrt(f4.occurrences) *
                         coalesce(10000.0 / s.ppm, 1)) / 16 AS formula
  FROM simhash_features(text 'The cat and the dog. The cat sat on the mat in the house of the cat.') f4
  JOIN simhash_features(text 'The cat and the dog. The cat sat on the mat in the house of the cat.',
                        'words', version => 3) f3 USING (feature)
  LEFT JOIN (VALUES ('the', 72992), ('and', 19746), ('of', 27115), ('in', 16572)) s(word, ppm)
         ON s.word = f4.feature
 ORDER BY 1;
-- The fast path (lanes corrected from the table of totals, which now also
-- counts occurrences) agrees with the aggregate over simhash_features (all
-- features in a table) under version 4 too, on the documents above: capped
-- words, features past the first 65,536 (weighted 16 w), a table that grows.
SELECT d.name, w AS weighting,
       simhash(d.body, 'words', 1, w) = (SELECT simhash_agg(feature, weight)
                                           FROM simhash_features(d.body, 'words', 1, w)) AS agrees
  FROM (SELECT 'capdoc', body FROM capdoc UNION ALL SELECT 'manydoc', body FROM manydoc
        UNION ALL SELECT 'growdoc', body FROM growdoc UNION ALL SELECT 'growthe', body FROM growthe) d(name, body),
       unnest(ARRAY['runs', 'tf']) w
 ORDER BY 1, 2;
