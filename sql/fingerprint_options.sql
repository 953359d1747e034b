-- Options of simhash(text, ...), introspection, bring-your-own features
-- and the aggregate; defined edge cases.
\set VERBOSITY default

-- Every option set gives a fingerprint; one text argument still resolves
-- to simhash(text) (no ambiguity with the defaults of the options form).
SELECT f AS features, n, w AS weighting, simhash(text 'The quick brown fox jumps over the lazy dog', f, n, w) IS NOT NULL AS ok
  FROM unnest(ARRAY['words', 'shingles', 'chars']) f, unnest(ARRAY[0, 1, 2, 3]) n,
       unnest(ARRAY['runs', 'tf', 'binary', 'log']) w
 GROUP BY 1, 2, 3, 4 HAVING false;
-- Under version 5, 9 of 10: words under tf equal binary here, as "the"
-- (twice) is capped to the weight of a word seen once in a text of 9 words
-- (versions 4 and 5: 16 of its 45 sixteenths; version 3: cap =
-- max(ceil(9 * 9 / 200), 1)).  Version 6 (the default) keeps the linear
-- weights of a text of fewer than 700 words, uncapped: 10 of 10.
SELECT count(DISTINCT simhash(text 'The quick brown fox jumps over the lazy dog', f, n, w, version => 5)) AS distinct_fingerprints_v5,
       count(DISTINCT simhash(text 'The quick brown fox jumps over the lazy dog', f, n, w)) AS distinct_fingerprints
  FROM unnest(ARRAY['words', 'chars']) f, unnest(ARRAY[1, 2, 3]) n, unnest(ARRAY['tf', 'binary']) w;
SELECT simhash(body => text 'a b c', features => 'shingles') = simhash(text 'a b c', 'words', 2) AS shingles_default_2,
       simhash(text 'abcd', 'chars') = simhash(text 'abcd', 'chars', 3) AS chars_default_3,
       simhash(text 'alpha beta alpha', 'words', weighting => 'tf') = simhash(text 'alpha beta alpha', 'words', 1, 'tf') AS named;

-- Invalid options: invalid_parameter_value, with the valid values.
SELECT simhash(text 'x', 'trigrams');
-- A document in the options' place (simhash(title, body)) is quoted to 24 characters.
SELECT simhash(text 'a title', repeat('a long body, ', 1000));
SELECT simhash(text 'x', 'chars', 17);
SELECT simhash(text 'x', 'chars', -1);
SELECT simhash(text 'x', 'words', 1, 'idf');
\set VERBOSITY terse
DO $$
DECLARE
  bad text[] := ARRAY['features', 'n', 'weighting', 'features of simhash_features'];
BEGIN
  FOR i IN 1 .. 4 LOOP
    BEGIN
      CASE i
        WHEN 1 THEN PERFORM simhash(text 'x', 'bogus');
        WHEN 2 THEN PERFORM simhash(text 'x', 'words', 99);
        WHEN 3 THEN PERFORM simhash(text 'x', 'words', 1, 'bogus');
        WHEN 4 THEN PERFORM * FROM simhash_features(text 'x', 'bogus');
      END CASE;
    EXCEPTION WHEN invalid_parameter_value THEN
      RAISE NOTICE 'invalid %: SQLSTATE %', bad[i], SQLSTATE;
    END;
  END LOOP;
END $$;

-- Introspection: what simhash(text) used.  Numbers and symbols are not
-- features; a run's words weigh its length (at most 64).
SELECT * FROM simhash_features(text 'Home | News | About
Posted on 2024-05-01 · 1,234 views
The quick brown fox jumps over the lazy dog, and the dog sleeps on.');
SELECT * FROM simhash_features(text 'Aa aA AA bb', 'words', 1, 'tf');
-- (log: 1 + ln 3 is above the cap of this short text, max(0.045 * W, 1) = 1;
-- with 50 more words it is not)
SELECT feature, occurrences, weight FROM simhash_features(text 'aaa aaa aaa b', 'words', 1, 'log');
SELECT feature, occurrences, weight
  FROM simhash_features('aaa aaa aaa ' || (SELECT string_agg('b' || i, ' ') FROM generate_series(1, 50) i), 'words', 1, 'log')
 WHERE feature = 'aaa';
SELECT feature, weight FROM simhash_features(text 'to be or not', 'shingles', 2, 'binary');
SELECT feature, weight FROM simhash_features(text 'Hi, yo!', 'chars', 3);
-- numbers => true keeps tokens of digits.
SELECT feature FROM simhash_features(text 'version 1.5 released 2024', 'words', 1, 'tf', true);

-- A feature's hash is XXH3-64 (seed 0) of its UTF-8 bytes: the single
-- feature of a one-word text is the fingerprint (reproducible with
-- `printf hello | xxhsum -H3`).
SELECT hash, simhash(text 'Hello') = hash AS fingerprint_is_hash FROM simhash_features(text 'Hello');
SELECT simhash(text '近似', 'words', version => 3) AS chinese_word,
       (SELECT hash FROM simhash_features(text '近似', 'words', version => 3));
SELECT simhash(text '近', 'words') AS chinese_character, (SELECT hash FROM simhash_features(text '近'));
-- Algorithm versions: 0 is the current one (8); 3 to 7 stay available.
SELECT simhash(text 'Hello 近似', 'words', version => 0) = simhash(text 'Hello 近似') AS zero_is_current,
       simhash(text 'Hello 近似', 'words', version => 8) = simhash(text 'Hello 近似') AS eight_is_default,
       simhash(text 'Hello 近似', 'words', version => 3) <> simhash(text 'Hello 近似') AS three_differs_on_chinese,
       simhash(text 'Hello world', 'words', version => 3) = simhash(text 'Hello world') AS three_same_on_english;
SELECT simhash(text 'x', 'words', version => 2);
SELECT simhash(text 'x', 'words', version => 9);
-- Version 6 weighs the words of a document of fewer than 700 words by
-- their occurrences alone (no square root, damping or cap): on one line of
-- equal five-word runs every word weighs the same per occurrence, which
-- version 5 does not do ("the" is damped and capped, "cat" gains less than
-- its occurrences).  From 1,400 words on it is version 5; between, each
-- word's weight moves from the one to the other with the word count, and
-- the fingerprint is still exactly the sum of the features' weights.
SELECT v, count(DISTINCT weight / occurrences) AS distinct_weights_per_occurrence,
       min(weight / occurrences) AS least, max(weight / occurrences) AS most
  FROM (VALUES (5), (6)) AS versions(v),
       simhash_features(repeat('The cat and the dog. The bird saw the cat. ', 20), 'words', version => v)
 GROUP BY v ORDER BY v;
CREATE TEMP TABLE ramp AS
SELECT words, string_agg(w, ' ' ORDER BY i) AS body
  FROM unnest(ARRAY[20, 699, 700, 701, 1050, 1399, 1400, 1401, 3000]) AS counts(words),
       LATERAL (SELECT i, (ARRAY['the', 'quick', 'brown', 'fox', 'jumps', 'over', 'lazy', 'dog',
                                 'river', 'bank', 'package', 'debian', 'sunny', 'of', 'and'])[1 + (i * i + i / 7) % 15]
                          || CASE WHEN i % 9 = 8 THEN '.' ELSE '' END AS w
                  FROM generate_series(0, words - 1) i) t
 GROUP BY words;
SELECT words, (SELECT sum(occurrences) FROM simhash_features(body, 'words', version => 6)) AS counted,
       simhash(body, 'words', version => 6) = simhash(body, 'words', version => 5) AS as_v5,
       simhash(body, 'words', version => 6) =
         (SELECT simhash_agg(feature, weight) FROM simhash_features(body, 'words', version => 6)) AS features_sum,
       (SELECT round(max(abs(f6.weight - f5.weight))::numeric, 2)
          FROM simhash_features(body, 'words', version => 6) f6
          JOIN simhash_features(body, 'words', version => 5) f5 USING (feature)) AS most_moved
  FROM ramp ORDER BY words;
-- Version 7 is version 6 up to 1,400 words; past that no word
-- weighs more than 63 times the document's average weight per word
-- (ceil(63 W / N) instead of 4.5 % of W), so more of a long document's
-- repeated words reach the cap, and the fingerprint is still the sum of the
-- features' weights.
SELECT words, simhash(body, 'words', version => 7) = simhash(body, 'words', version => 6) AS as_v6,
       simhash(body, 'words', version => 7) =
         (SELECT simhash_agg(feature, weight) FROM simhash_features(body, 'words', version => 7)) AS features_sum,
       (SELECT count(*) FROM simhash_features(body, 'words', version => 7) f
         WHERE f.weight = (SELECT max(weight) FROM simhash_features(body, 'words', version => 7))) AS capped_v7,
       (SELECT count(*) FROM simhash_features(body, 'words', version => 6) f
         WHERE f.weight = (SELECT max(weight) FROM simhash_features(body, 'words', version => 6))) AS capped_v6
  FROM ramp WHERE words >= 1399 ORDER BY words;
-- Version 8 (the default) is version 7 with one more cap: no word weighs
-- more than 16 times the document's median word by occurrence (the weight
-- at which the occurrences of the lighter words reach half), nor is that
-- cap under one occurrence in a full run (256).  On a page of identifiers,
-- "class" before every three names that repeat little, "class" falls to
-- that cap from 700 words on (blended in up to 1,400, as version 6 blends);
-- shorter pages and the prose of the ramp above keep version 7's weights.
CREATE TEMP TABLE identifiers AS
  SELECT lines * 4 AS words,
         string_agg(format('class %s %s %s', translate(md5(i::text), '0123456789', 'ghijklmnop'),
                           translate(md5((i + 7)::text), '0123456789', 'ghijklmnop'),
                           translate(md5((i % 997)::text), '0123456789', 'ghijklmnop')), E'\n' ORDER BY i) AS body
    FROM unnest(ARRAY[150, 250, 400, 1000]) AS counts(lines), generate_series(1, lines) i
   GROUP BY lines;
SELECT words, simhash(body) = simhash(body, 'words', version => 7) AS as_v7,
       simhash(body) = (SELECT simhash_agg(feature, weight) FROM simhash_features(body)) AS features_sum,
       (SELECT weight FROM simhash_features(body, 'words', version => 7) WHERE feature = 'class') AS class_v7,
       (SELECT weight FROM simhash_features(body) WHERE feature = 'class') AS class_v8,
       (SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY weight)
          FROM simhash_features(body), generate_series(1, occurrences)) AS median_v8
  FROM identifiers ORDER BY words;
SELECT bool_and(simhash(body) = simhash(body, 'words', version => 7)) AS prose_as_v7
  FROM ramp;
-- A text of 6 kB or more fills the table of distinct words from its first
-- word (one that short keeps them in a list until its 700th): the same
-- weights either way, also for a long text of few, long words.
SELECT words, octet_length(body) >= 6144 AS from_6k,
       simhash(body) = (SELECT simhash_agg(feature, weight) FROM simhash_features(body)) AS features_sum
  FROM (SELECT words, string_agg(w || 'abcdefghijklmn', ' ' ORDER BY i) AS body
          FROM unnest(ARRAY[300, 699, 1000]) AS counts(words),
               LATERAL (SELECT i, (ARRAY['the', 'quick', 'brown', 'fox', 'jumps', 'over', 'lazy', 'dog',
                                         'the', 'of', 'and'])[1 + (i * i + i / 5) % 11]
                                  || CASE WHEN i % 9 = 8 THEN '.' ELSE '' END AS w
                          FROM generate_series(0, words - 1) i) t
         GROUP BY words) long_words
 ORDER BY words;
-- Version 5 weighs a word also by its line's length against the document's
-- typical line (the line of its median byte): one line, or lines of one
-- length, give version 4's fingerprint; a word on a short line weighs less.
-- The weights of the introspection rows sum what the fingerprint counts.
SELECT simhash(text 'a one-line text of a few words', 'words', version => 5) =
       simhash(text 'a one-line text of a few words', 'words', version => 4) AS one_line_as_v4,
       simhash(E'abc def ghi\njkl mno pqr'::text, 'words', version => 5) =
       simhash(E'abc def ghi\njkl mno pqr'::text, 'words', version => 4) AS equal_lines_as_v4;
SELECT v, feature, weight
  FROM (VALUES (4), (5)) AS versions(v),
       simhash_features(E'Home | News\nThe quick brown fox jumps over the lazy dog and runs far away.\r\nAd: buy now'::text,
                        'words', version => v)
 WHERE feature IN ('home', 'fox', 'buy') ORDER BY feature, v;
-- A line ends at \n, \r, \r\n, U+2028 or U+2029, not at other control
-- characters (a vertical tab as chr(11): E'\v' is one only from PostgreSQL 18 on): "buy" (a run of 6 words, weight 7) on a line of 22 bytes
-- before one of 72 weighs floor((7 * 4 + 8) / 16) = 2 under version 5.
SELECT name, (SELECT weight FROM simhash_features(format('Buy now and save a lot%sThe quick brown fox jumps over the lazy dog and runs far away.', sep), 'words', version => 5) WHERE feature = 'buy') AS v5,
       (SELECT weight FROM simhash_features(format('Buy now and save a lot%sThe quick brown fox jumps over the lazy dog and runs far away.', sep), 'words', version => 4) WHERE feature = 'buy') AS v4
  FROM (VALUES ('LF', E'\n'), ('CR', E'\r'), ('CRLF', E'\r\n'), ('LS', U&'\2028'), ('PS', U&'\2029'),
               ('TAB', E'\t'), ('FF', E'\f'), ('VT', chr(11)), ('NEL', U&'\0085')) AS seps(name, sep);
-- The AVX2 scan for line breaks (64 bytes at a time) finds the breaks the
-- scalar one does: texts whose pieces put U+2028, U+2029, \n, \r and other
-- characters of E2 xx xx (quotes, dashes, U+20A8, U+2027) at every offset
-- of a block; each fingerprint with simhash.simd = off must be the same.
CREATE TEMP TABLE line_scan AS
SELECT i, string_agg(piece, '' ORDER BY j) AS body
  FROM generate_series(1, 120) AS i,
       generate_series(1, 10 + i % 37) AS j,
       LATERAL (SELECT (ARRAY['word ', '“引号”', U&'\2028', U&'\2029', E'\n', E'\r\n', '—', '₨',
                              U&'\2027', '‘a’ ', '近似重复', 'a long line of plain words ',
                              repeat('x', i % 7)])
                       [1 + abs(hashtext(i || '/' || j) % 13)] AS piece) AS p
 GROUP BY i;
SELECT count(*) AS texts, min(octet_length(body)) > 32 AS all_over_a_vector,
       count(*) FILTER (WHERE body ~ '[\u2028\u2029]') >= 60 AS most_with_unicode_breaks,
       count(*) FILTER (WHERE body ~ '[“”‘’—₨\u2027]') >= 60 AS most_with_other_e2
  FROM line_scan;
CREATE TEMP TABLE line_scan_auto AS SELECT i, simhash(body) AS fp FROM line_scan;
SET simhash.simd = off;
SELECT count(*) FILTER (WHERE simhash(body) IS DISTINCT FROM fp) AS scalar_differs
  FROM line_scan JOIN line_scan_auto USING (i);
RESET simhash.simd;

-- The fingerprint is the simhash of the features with their weights: the
-- same from the introspection rows through every bring-your-own path.  The
-- rows carry the capped weights (version 3), so under tf a feature repeated
-- weight times, not occurrences times, gives the text's fingerprint.
WITH doc(body) AS (VALUES ('Near-duplicate detection finds copies of pages. Copies differ by ads, dates and counters.
Home | About')),
     f AS (SELECT s.* FROM doc, simhash_features(doc.body) s),
     t AS (SELECT s.* FROM doc, simhash_features(doc.body, 'words', 1, 'tf', version => 3) s)
SELECT (SELECT simhash(body) FROM doc) = (SELECT simhash(array_agg(feature), array_agg(weight)) FROM f) AS weighted_array,
       (SELECT simhash(body) FROM doc) = (SELECT simhash_agg(feature, weight) FROM f) AS aggregate,
       (SELECT simhash(body) FROM doc) = (SELECT simhash_agg(feature, weight ORDER BY feature DESC) FROM f) AS aggregate_any_order,
       (SELECT simhash(body, 'words', 1, 'tf', version => 3) FROM doc) =
       (SELECT simhash(array_agg(feature)) FROM t, generate_series(1, weight::int)) AS text_array_tf,
       (SELECT simhash(body, 'words', 1, 'tf', version => 3) FROM doc) =
       (SELECT simhash(array_agg(hash::bigint)) FROM t, generate_series(1, weight::int)) AS hash_array_tf,
       (SELECT count(*) FROM t WHERE weight < occurrences) AS tf_capped;

-- Bring your own: NULLs are skipped; nothing left (or only zero weights) is NULL.
SELECT simhash(ARRAY['a', NULL, 'b']) = simhash(ARRAY['a', 'b']) AS null_skipped,
       simhash(ARRAY[]::text[]) IS NULL AS empty_array,
       simhash(ARRAY[NULL]::text[]) IS NULL AS all_null,
       simhash(ARRAY['a', 'b'], ARRAY[0, 0]::float8[]) IS NULL AS zero_weights,
       simhash(ARRAY['a', 'b'], ARRAY[1, NULL]::float8[]) = simhash(ARRAY['a']) AS null_weight_skipped,
       simhash(ARRAY[]::bigint[]) IS NULL AS empty_hashes,
       (SELECT simhash_agg(f, w) FROM (VALUES ('a', 0::float8)) v(f, w)) IS NULL AS agg_zero,
       (SELECT simhash_agg(f, w) FROM (VALUES ('a', 1::float8)) v(f, w) WHERE false) IS NULL AS agg_no_rows;
SELECT simhash(ARRAY['a'], ARRAY[1, 2]::float8[]);
SELECT simhash(ARRAY['a'], ARRAY['NaN']::float8[]);
SELECT simhash_agg(f, w) FROM (VALUES ('a', 'Infinity'::float8)) v(f, w);

-- Weights: a negative weight pulls the other way; a heavier feature wins.
SELECT simhash(ARRAY['a'], ARRAY[-1]::float8[])::bigint = ~simhash(ARRAY['a'])::bigint AS negative_flips,
       simhash(ARRAY['a', 'b'], ARRAY[3, 1]::float8[]) <-> simhash(ARRAY['a']) <
       simhash(ARRAY['a', 'b'], ARRAY[3, 1]::float8[]) <-> simhash(ARRAY['b']) AS heavier_wins;

-- Ties: a bit whose weights cancel exactly is 0.  Two features with the
-- same weight tie on every bit where their hashes differ.  Weights that
-- cancel everywhere give 0, not NULL: the features were there.
SELECT simhash(ARRAY[x'00000000000000ff'::bigint, x'000000000000ff00'::bigint]) AS tie_bits_zero,
       simhash(ARRAY[x'00000000000000ff'::bigint, x'000000000000ff0f'::bigint]) AS agreeing_bits_set,
       simhash(ARRAY['a', 'a'], ARRAY[1, -1]::float8[]) AS cancelled_all_ties;
SELECT simhash(ARRAY['a', 'b'], ARRAY[1, 1]::float8[])::bigint =
       (simhash(ARRAY['a'])::bigint & simhash(ARRAY['b'])::bigint) AS tie_is_and;

-- Text shorter than n: one feature, the whole (normalized) text.
SELECT feature FROM simhash_features(text 'Hi', 'chars', 5);
SELECT feature FROM simhash_features(text 'Hello World', 'shingles', 3);
SELECT simhash(text 'ab', 'chars', 3) IS NOT NULL AS short_has_fingerprint;

-- Mixed scripts: each script segmented by its own rules; under version 4
-- every Chinese, Japanese or Korean character is a token; under version 3
-- Chinese and Japanese words come from ICU's dictionaries; Thai from ICU's
-- in both.  Full-width and half-width forms are folded (NFKC).
SELECT feature FROM simhash_features(text 'PostgreSQL近似重复检测，日本語のテキスト и русский текст ภาษาไทย');
SELECT feature FROM simhash_features(text 'PostgreSQL近似重复检测，日本語のテキスト и русский текст ภาษาไทย', 'words', version => 3);
SELECT string_agg(feature, '|') FROM simhash_features(text 'ｶﾀｶﾅ　ＡＢＣ１２３、한국어 텍스트。哈哈哈哈哈', 'words', numbers => true);
-- Character n-grams join adjacent Chinese words, and put one space where
-- punctuation or spaces separated tokens.
SELECT string_agg(feature, '|') FROM simhash_features(text '近似重复。检测', 'chars', 2);
SELECT string_agg(feature, '|') FROM simhash_features(text '近似重复。检测', 'chars', 2, version => 3);

-- simhash_agg in parallel: partial states are combined; the result is the
-- same as without workers (pairs are sorted before summing).
CREATE TABLE agg_terms AS
SELECT d AS doc, 'term' || (i % 500) AS term, (i % 7) + 0.25 AS w
  FROM generate_series(1, 4) d, generate_series(1, 20000) i;
ANALYZE agg_terms;
CREATE TEMP TABLE agg_serial AS SELECT doc, simhash_agg(term, w) AS fp FROM agg_terms GROUP BY doc;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET parallel_leader_participation = off;
EXPLAIN (COSTS OFF) SELECT simhash_agg(term, w) FROM agg_terms;
SELECT (SELECT simhash_agg(term, w) FROM agg_terms) =
       (SELECT simhash_agg(term, w) FROM (SELECT * FROM agg_terms ORDER BY random()) s) AS parallel_same,
       (SELECT count(*) FROM agg_serial s JOIN
          (SELECT doc, simhash_agg(term, w) AS fp FROM agg_terms GROUP BY doc) p USING (doc)
         WHERE s.fp = p.fp) = 4 AS grouped_same;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;
RESET parallel_leader_participation;
DROP TABLE agg_terms;
