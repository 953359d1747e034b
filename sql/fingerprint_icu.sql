-- The ASCII fast path and the ICU path give the same tokens, and streaming
-- in chunks does not change them.  simhash.fast_path = off sends all text
-- through ICU; results must not change.  Random strings over an alphabet
-- that exercises the word break rules, also mixed with non-ASCII
-- characters (so that ASCII stretches and ICU pieces alternate).  The fast
-- path is compared with ICU in each of its variants (simhash.simd): the
-- best the CPU has (AVX2 on most x86-64, with AVX-512 hashing where there
-- is some), AVX2 alone, SSE2, and the portable scalar code of other
-- architectures.
-- The "random" choices are a hash of the row's coordinates: random()
-- gives other numbers before PostgreSQL 15, and which row gets which
-- number follows the plan, which changes between versions.
CREATE FUNCTION pg_temp.rnd(i int, j int, k int) RETURNS float8 IMMUTABLE LANGUAGE sql AS
$$ SELECT (hashint8((i::int8 << 24) + (j::int8 << 4) + k) & 2147483647)::float8 / 2147483648 $$;
-- A string's features under weighting runs with numbers kept, each with
-- its occurrences and weight, in order of first occurrence: what the fast
-- path and ICU must agree on.
CREATE FUNCTION pg_temp.features_of(s text) RETURNS text[] LANGUAGE sql AS
$$ SELECT array_agg(feature || '/' || occurrences || '/' || weight)
     FROM simhash_features(s, 'words', 1, 'runs', true) $$;
CREATE TEMP TABLE random_text AS
SELECT i, string_agg(substr(CASE WHEN i % 2 = 0 THEN $$aAbZ19_.'',;:@"-! 	
xYq0|$$ ELSE $$aAbZ19_.'',;:@"-! 	
xYq0|é“”　中文 ß。́Ａ$$ END, 1 + floor(pg_temp.rnd(i, j, 0) * CASE WHEN i % 2 = 0 THEN 28 ELSE 40 END)::int, 1), '' ORDER BY j) AS s
  FROM generate_series(1, 20000) i, generate_series(1, 12) j GROUP BY i;
CREATE TEMP TABLE results (path text, i int, features text[], fp_default simhash,
                           fp_chars simhash, fp_shingles simhash);
CREATE FUNCTION pg_temp.fill_results(path text) RETURNS void LANGUAGE sql AS $$
INSERT INTO results SELECT path, i,
  pg_temp.features_of(s),
  simhash(s), simhash(s, 'chars', 3), simhash(s, 'shingles', 2, 'tf') FROM random_text;
-- the default options and words weighted tf take their own paths
INSERT INTO results SELECT path || ' tf', i, NULL, simhash(s, 'words', 1, 'tf'), NULL, NULL FROM random_text;
$$;
SET simhash.fast_path = on;
SELECT pg_temp.fill_results('fast');
SET simhash.simd = avx2;
SELECT pg_temp.fill_results('fast avx2');
SET simhash.simd = sse2;
SELECT pg_temp.fill_results('fast sse2');
SET simhash.simd = off;
SELECT pg_temp.fill_results('fast scalar');
RESET simhash.simd;
SET simhash.fast_path = off;
SELECT pg_temp.fill_results('icu');
RESET simhash.fast_path;
SELECT f.path, count(*) FILTER (WHERE f.features IS DISTINCT FROM c.features) AS token_mismatches,
       count(*) FILTER (WHERE f.fp_default IS DISTINCT FROM c.fp_default) AS default_mismatches,
       count(*) FILTER (WHERE f.fp_chars IS DISTINCT FROM c.fp_chars) AS chars_mismatches,
       count(*) FILTER (WHERE f.fp_shingles IS DISTINCT FROM c.fp_shingles) AS shingles_mismatches,
       count(*) FILTER (WHERE f.fp_default IS NOT NULL) AS with_fingerprint
  FROM results f JOIN results c ON c.i = f.i AND c.path = CASE WHEN f.path LIKE '% tf' THEN 'icu tf' ELSE 'icu' END
 WHERE f.path LIKE 'fast%' GROUP BY 1 ORDER BY 1;
-- Longer strings: tokens across the 64-byte words of the fast path's
-- bitmaps, and runs of repeated characters; the last 100 (about 3 kB) also
-- across its batches of tokens (1 kB of text each).
CREATE TEMP TABLE random_long AS
SELECT i, string_agg(substr($$aaaaAAbZ19_.'',;:@"-! 	
xYq0|_____....$$, 1 + floor(pg_temp.rnd(i, j, 1) * 36)::int, 1 + floor(pg_temp.rnd(i, j, 2) * 3)::int), '' ORDER BY j) AS s
  FROM generate_series(1, 2000) i,
       LATERAL generate_series(1, CASE WHEN i <= 1900 THEN 150 ELSE 1500 END) j GROUP BY i;
CREATE TEMP TABLE long_results AS
SELECT i, pg_temp.features_of(s) AS features FROM random_long;
SET simhash.fast_path = off;
SELECT count(*) FILTER (WHERE r.features IS DISTINCT FROM pg_temp.features_of(s)) AS long_mismatches,
       min(length(s)) > 150 AS long_enough
  FROM random_long JOIN long_results r USING (i);
RESET simhash.fast_path;
CREATE TEMP TABLE long_fp AS SELECT i, simhash(s) AS d, simhash(s, 'words', 1, 'tf', true) AS t FROM random_long;
SET simhash.simd = avx2;
SELECT count(*) FILTER (WHERE (simhash(s), simhash(s, 'words', 1, 'tf', true)) IS DISTINCT FROM (d, t)) AS long_avx2_mismatches
  FROM random_long JOIN long_fp USING (i);
SET simhash.simd = sse2;
SELECT count(*) FILTER (WHERE (simhash(s), simhash(s, 'words', 1, 'tf', true)) IS DISTINCT FROM (d, t)) AS long_sse2_mismatches
  FROM random_long JOIN long_fp USING (i);
SET simhash.simd = off;
SELECT count(*) FILTER (WHERE (simhash(s), simhash(s, 'words', 1, 'tf', true)) IS DISTINCT FROM (d, t)) AS long_scalar_mismatches
  FROM random_long JOIN long_fp USING (i);
RESET simhash.simd;
-- Every token length from 1 to 40 bytes through each variant: the vector
-- kernels hash tokens of 1-3 and 4-8 bytes (AVX-512 also 9-16) with
-- formulas of their own, four or eight at a time, and longer ones one by
-- one.  A text of one
-- word is that word's hash; the texts of many words mix the lengths within
-- each group of lanes.
CREATE TEMP TABLE token_lengths AS
SELECT n, string_agg(substr('abcdefghijklmnopqrstuvwxyz0123456789', 1 + (n * 7 + k * 5) % 36, 1), '' ORDER BY k) AS word
  FROM generate_series(1, 40) n, generate_series(1, n) k GROUP BY n;
CREATE TEMP TABLE token_texts AS
SELECT 'word ' || n AS name, word AS s FROM token_lengths
UNION ALL
SELECT 'mixed ' || m, string_agg(word, ' ' ORDER BY (n * m * 31) % 41, n)
  FROM token_lengths, generate_series(1, 8) m GROUP BY m;
SET simhash.fast_path = off;
CREATE TEMP TABLE token_icu AS SELECT name, simhash(s) AS fp FROM token_texts;
RESET simhash.fast_path;
CREATE FUNCTION pg_temp.token_mismatches() RETURNS bigint LANGUAGE sql AS
$$ SELECT count(*) FILTER (WHERE simhash(s) IS DISTINCT FROM fp) FROM token_texts JOIN token_icu USING (name) $$;
SELECT pg_temp.token_mismatches() AS auto_mismatches, count(*) AS texts FROM token_texts;
SET simhash.simd = avx2;
SELECT pg_temp.token_mismatches() AS avx2_mismatches;
SET simhash.simd = sse2;
SELECT pg_temp.token_mismatches() AS sse2_mismatches;
SET simhash.simd = off;
SELECT pg_temp.token_mismatches() AS scalar_mismatches;
RESET simhash.simd;
-- a word alone: its fingerprint is its feature's hash, XXH3-64 of the word
SET simhash.simd = avx2;
SELECT n, simhash(w.word) = f.hash AS fingerprint_is_hash
  FROM token_lengths w, simhash_features(w.word) f WHERE n IN (1, 3, 4, 8, 9, 12, 16, 17) ORDER BY n;
RESET simhash.simd;

-- U+3000 (ideographic space) normalizes to a space: it changes no feature
-- (version 4; version 5 weighs words by their line's length in bytes, which
-- the three bytes of U+3000 change).
SELECT count(*) FILTER (WHERE simhash(s, 'words', version => 4) IS DISTINCT FROM
                              simhash(U&'\3000' || s, 'words', version => 4)) AS ideographic_space_mismatches
  FROM random_text;

-- Long documents are cut into chunks; the cuts differ (after an ASCII
-- space, after U+3000; fast path or not) and change nothing.
CREATE TEMP TABLE long_doc AS
SELECT string_agg(w, CASE WHEN i % 13 = 0 THEN E'.\n' WHEN i % 5 = 0 THEN ', ' ELSE ' ' END ORDER BY i) AS s
  FROM (SELECT i, (ARRAY['alpha', 'Beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta',
                         'iota', 'kappa', 'lambda', 'mu', 'nu', 'xi', 'omicron', 'pi', 'rho'])
                  [1 + floor(pg_temp.rnd(i, 0, 3) * 17)::int] AS w
          FROM generate_series(1, 60000) i) w;
CREATE TEMP TABLE long_fast AS
SELECT simhash(s) AS d, simhash(s, 'chars', 4, 'tf') AS c, simhash(s, 'shingles', 3, 'log') AS sh FROM long_doc;
SET simhash.fast_path = off;
SELECT length(s) > 300000 AS several_chunks,
       simhash(s) = d AND simhash(replace(s, ' ', U&'\3000')) = d AS default_same,
       simhash(s, 'chars', 4, 'tf') = c AND simhash(replace(s, ' ', U&'\3000'), 'chars', 4, 'tf') = c AS chars_same,
       simhash(s, 'shingles', 3, 'log') = sh AND simhash(replace(s, ' ', U&'\3000'), 'shingles', 3, 'log') = sh AS shingles_same
  FROM long_doc, long_fast;
RESET simhash.fast_path;
SELECT sum(occurrences) = 60000 AS every_word_once FROM long_doc, simhash_features(s, 'words', 1, 'tf');

-- Chinese across many chunks: every character (version 4), every
-- dictionary word (version 3) of every sentence.
SELECT count(*) AS features, min(occurrences), max(occurrences), min(weight), max(weight)
  FROM simhash_features(repeat('近似重复检测是搜索引擎的重要技术。', 20000));
SELECT count(*) AS features, min(occurrences), max(occurrences), min(weight), max(weight)
  FROM simhash_features(repeat('近似重复检测是搜索引擎的重要技术。', 20000), 'words', version => 3);

-- No place to cut for 64 kB: cut anyway (a deterministic split of a junk
-- "word"), never an error.
SELECT count(*) AS distinct_pieces, sum(length(feature) * occurrences) AS total_length
  FROM simhash_features(repeat('ab', 100000));

-- Chinese: a small edit moves the fingerprint a little; an unrelated text far.
SELECT simhash(text '近似重复检测是搜索引擎的重要技术，它可以发现内容相同的网页并节省存储空间。') <->
       simhash(text '近似重复检测是搜索引擎的关键技术，它可以发现内容相同的网页并节省存储空间。') <= 8 AS chinese_edit_near,
       simhash(text '近似重复检测是搜索引擎的重要技术，它可以发现内容相同的网页并节省存储空间。') <->
       simhash(text '数据库系统使用索引来加快查询速度，并通过事务保证数据的一致性和持久性。') > 8 AS chinese_unrelated_far;

-- Complex-context punctuation (Line_Break SA: Tai Tham U+1AA0..U+1AA6,
-- U+1AA8..U+1AAD, Tai Viet U+AADE..U+AADF) is joined to neighbouring
-- letters by ICU's word rules, so the fast path may not cut after it.
CREATE TEMP TABLE complex_punct AS
SELECT cp, s FROM (SELECT cp FROM generate_series(x'1AA0'::int, x'1AAD'::int) cp WHERE cp <> x'1AA7'::int
                   UNION ALL SELECT x'AADE'::int UNION ALL SELECT x'AADF'::int) c,
  LATERAL (VALUES ('ab' || chr(cp)), (chr(cp) || 'ab'), ('ab' || chr(cp) || 'cd'),
                  ('ab ' || chr(cp) || ' cd. Ef'), ('x. ' || chr(cp) || chr(cp) || 'yz'),
                  (U&'\1A20\1A21' || chr(cp) || 'ab'), ('ab' || chr(cp) || U&'\1A20 cd'),
                  (repeat('word ', 30) || 'ab' || chr(cp) || 'cd ' || repeat('more ', 30))) v(s);
CREATE TEMP TABLE complex_fast AS
SELECT cp, s, pg_temp.features_of(s) AS features, simhash(s) AS fp
  FROM complex_punct;
SET simhash.fast_path = off;
SELECT count(*) AS strings,
       count(*) FILTER (WHERE features IS DISTINCT FROM pg_temp.features_of(s)) AS feature_mismatches,
       count(*) FILTER (WHERE fp IS DISTINCT FROM simhash(s)) AS fingerprint_mismatches
  FROM complex_fast;
RESET simhash.fast_path;
SELECT feature, occurrences FROM simhash_features(U&'ab\1AA0 cd') ORDER BY feature;

-- Every code point of the Basic Multilingual Plane in a few ASCII contexts:
-- the fast path (with its chunk cuts and isolated punctuation) agrees with
-- ICU.
CREATE TEMP TABLE bmp AS
SELECT s, simhash(s) AS fp
  FROM generate_series(128, 65533) cp,
       LATERAL (VALUES ('ab' || chr(cp) || 'cd'), (chr(cp) || 'ab. '), ('x ' || chr(cp) || ' y')) v(s)
 WHERE cp NOT BETWEEN x'D800'::int AND x'DFFF'::int;
SET simhash.fast_path = off;
SELECT count(*) AS strings, count(*) FILTER (WHERE fp IS DISTINCT FROM simhash(s)) AS mismatches FROM bmp;
RESET simhash.fast_path;

-- Characters the fast path takes without ICU as a word of their own
-- (ApartFrom in tokenizer_icu.c): spaces that normalize to U+0020 (U+00A0,
-- U+2009), symbols and punctuation of Word_Break Other (© ® ° × → ✓ and
-- the emoji 😀, which are Extended_Pictographic), and, only where no ASCII
-- letter, digit, '_' or '@' stands next to them, of Word_Break MidLetter or
-- MidNum (· ‧ ;); for contrast, ones it must leave to ICU (™ and ․
-- normalize to letters and a full stop).  Random strings of them with
-- letters, digits, '_', '@', spaces, punctuation, a line break, CJK, a ZWJ,
-- a combining mark and a variation selector; longer ones with nothing that
-- goes to ICU (for the SIMD kernels); and each of them between every pair
-- of a few neighbours: the tokens, their runs and weights
-- (simhash_features) and the fingerprints agree with ICU, under every
-- ASCII kernel.
CREATE TEMP TABLE apart_text AS
SELECT i, string_agg(CASE WHEN i <= 20000
    THEN substr($$ ©®°×→✓😀··‧;™․ab1_@.,:-| 
中。$$ || U&'\200D\0301\FE0F', 1 + floor(pg_temp.rnd(i, j, 4) * 31)::int, 1)
    ELSE substr($$ ©®→😀··;abcd1_@.,:-| 
$$ || U&'\00A0\2009', 1 + floor(pg_temp.rnd(i, j, 4) * 24)::int, 1) END, '' ORDER BY j) AS s
  FROM generate_series(1, 22000) i,
       LATERAL generate_series(1, CASE WHEN i <= 20000 THEN 4 + i % 40 ELSE 60 + i % 200 END) j
 GROUP BY i
UNION ALL
SELECT 100000 + row_number() OVER (), l || c || r
  FROM unnest(ARRAY[U&'\00A0', U&'\2009', '©', '®', '→', '😀', '·', '‧', '™', '․']) c,
       unnest(ARRAY['', 'ab', 'a', '1', '_', '@', ' ', '.', '-', U&'\200D', '中', '©', U&'\00A0']) l,
       unnest(ARRAY['', 'cd', 'c', '2', '_', '@', ' ', '.', '-', U&'\0301', U&'\FE0F', '中', '©', U&'\00A0']) r;
CREATE TEMP TABLE apart_fast AS
SELECT i, pg_temp.features_of(s) AS features,
       simhash(s) AS fp, simhash(s, 'words', 1, 'tf') AS tf
  FROM apart_text;
SET simhash.fast_path = off;
SELECT count(*) AS strings,
       count(*) FILTER (WHERE features IS DISTINCT FROM pg_temp.features_of(s)) AS feature_mismatches,
       count(*) FILTER (WHERE fp IS DISTINCT FROM simhash(s)
                          OR tf IS DISTINCT FROM simhash(s, 'words', 1, 'tf')) AS fingerprint_mismatches
  FROM apart_text JOIN apart_fast USING (i);
RESET simhash.fast_path;
-- and every ASCII kernel (the longer strings reach the SIMD ones)
SET simhash.simd = avx2;
SELECT count(*) FILTER (WHERE (simhash(s), simhash(s, 'words', 1, 'tf')) IS DISTINCT FROM (fp, tf)) AS avx2_mismatches
  FROM apart_text JOIN apart_fast USING (i);
SET simhash.simd = sse2;
SELECT count(*) FILTER (WHERE (simhash(s), simhash(s, 'words', 1, 'tf')) IS DISTINCT FROM (fp, tf)) AS sse2_mismatches
  FROM apart_text JOIN apart_fast USING (i);
SET simhash.simd = off;
SELECT count(*) FILTER (WHERE (simhash(s), simhash(s, 'words', 1, 'tf')) IS DISTINCT FROM (fp, tf)) AS scalar_mismatches
  FROM apart_text JOIN apart_fast USING (i);
RESET simhash.simd;
-- between letters the middle dot joins them; next to spaces it ends a run
SELECT feature, occurrences, weight FROM simhash_features('one two·three four · five six seven eight © nine', 'words', 1, 'runs', true) ORDER BY feature;

-- Version 4's fast path for Chinese, Japanese and Korean (tokenizer_cjk.c)
-- gives the tokens ICU does under version 4's definition: random strings of
-- CJK characters with what normalization changes or composes next to them
-- (half-width Katakana and its voiced mark, combining kana marks, Hangul
-- jamo, compatibility ideographs, full-width letters, digits and
-- punctuation), punctuation, and ASCII that joins or not.  Then longer
-- strings for the one-pass walk (SegmentSpanV4): CJK runs long enough to
-- reach the run cap of weighting runs, ASCII words between them, and next
-- to them what normalization composes or changes: '＜' (full-width '<')
-- before U+0338 (they compose to U+226E), Hangul syllables before a
-- trailing jamo, Kangxi and circled ideographs (which normalize to CJK
-- characters), isolated punctuation before a combining mark.
CREATE TEMP TABLE random_cjk AS
SELECT i, string_agg(substr(CASE WHEN i % 3 = 0
    THEN $$中文近似重复。，、“”（）：；　ab1.,' $$
    ELSE $$中文日本語かがカガー々한국어ｶﾞﾞ゙゚ᅡᆨ豈ＡＺ０，．＇；＠＿！（「」。、“”—…　 ab1.,'@_-éß́ไทย$$ END,
    1 + floor(pg_temp.rnd(i, j, 1) * CASE WHEN i % 3 = 0 THEN 24 ELSE 62 END)::int, 1), '' ORDER BY j) AS s
  FROM generate_series(1, 20000) i, generate_series(1, 10) j GROUP BY i
UNION ALL
SELECT i, string_agg(substr(alpha, 1 + floor(pg_temp.rnd(i, j, 2) * length(alpha))::int, 1), '' ORDER BY j)
  FROM (SELECT i, CASE WHEN i % 2 = 0
          THEN $$中文近似重复重重重重的，、 ab LVM 가한국어$$
          ELSE $$中文かカー한각豈⼀㊀ＡＺ０，．；＜̸（。、“”—́…　 ab1.,'@_-é$$ END AS alpha
          FROM generate_series(20001, 24000) i) g,
       generate_series(1, 120) j
 GROUP BY i;
CREATE TEMP TABLE cjk_fast AS
SELECT i, pg_temp.features_of(s) AS features,
       simhash(s) AS fp, simhash(s, 'chars', 3) AS chars, simhash(s, 'shingles', 2, 'tf') AS shingles,
       simhash(s, 'words', 1, 'tf') AS tf, simhash(s, 'words', version => 3) AS v3
  FROM random_cjk;
SET simhash.simd = off;
CREATE TEMP TABLE cjk_scalar AS SELECT i, simhash(s) AS fp FROM random_cjk;
RESET simhash.simd;
SET simhash.fast_path = off;
SELECT count(*) AS strings,
       count(*) FILTER (WHERE f.features IS DISTINCT FROM pg_temp.features_of(s)) AS token_mismatches,
       count(*) FILTER (WHERE f.fp IS DISTINCT FROM simhash(s)) AS default_mismatches,
       count(*) FILTER (WHERE c.fp IS DISTINCT FROM simhash(s)) AS scalar_mismatches,
       count(*) FILTER (WHERE f.chars IS DISTINCT FROM simhash(s, 'chars', 3)) AS chars_mismatches,
       count(*) FILTER (WHERE f.shingles IS DISTINCT FROM simhash(s, 'shingles', 2, 'tf')) AS shingles_mismatches,
       count(*) FILTER (WHERE f.tf IS DISTINCT FROM simhash(s, 'words', 1, 'tf')) AS tf_mismatches,
       count(*) FILTER (WHERE f.v3 IS DISTINCT FROM simhash(s, 'words', version => 3)) AS v3_mismatches,
       count(*) FILTER (WHERE f.fp IS DISTINCT FROM f.v3) AS v3_default_differ
  FROM random_cjk r JOIN cjk_fast f USING (i) JOIN cjk_scalar c USING (i);
RESET simhash.fast_path;


-- The SIMD variants of the walk take Han characters four at a time
-- (SegmentSpanV4Avx2: simhash.simd avx2, or auto where the CPU has AVX2
-- but not the AVX-512 kernel's subsets) or eight at a time
-- (SegmentSpanV4Avx512: auto where it has them), end a run at ASCII or
-- common punctuation themselves and hand the rest of a run near a span's
-- end to the scalar step: strings of Han characters repeated up to five
-- times in a row (a fourth equal one is not counted), with and without the
-- punctuation of its table between them, against ICU and against the
-- scalar walk, under the default options and tf, with auto and with avx2.
CREATE TEMP TABLE han_runs AS
SELECT i, string_agg(substr(CASE i % 3
    WHEN 0 THEN $$重重重重重中中中文近似复，。、“”—…々〇ー・「」（）：；！？　 a1$$
    WHEN 1 THEN $$重重重重中中中中文文，，。。、“”　$$
    ELSE $$重重重重中中中文$$ END,
    1 + floor(pg_temp.rnd(i, j, 3) * CASE i % 3 WHEN 0 THEN 35 WHEN 1 THEN 18 ELSE 8 END)::int, 1), '' ORDER BY j) AS s
  FROM generate_series(1, 6000) i, generate_series(1, 8 + i % 61) j GROUP BY i;
CREATE TEMP TABLE han_fast AS
SELECT i, simhash(s) AS fp, simhash(s, 'words', 1, 'tf') AS tf FROM han_runs;
SET simhash.simd = avx2;
CREATE TEMP TABLE han_avx2 AS
SELECT i, simhash(s) AS fp, simhash(s, 'words', 1, 'tf') AS tf FROM han_runs;
SET simhash.simd = off;
CREATE TEMP TABLE han_scalar AS
SELECT i, simhash(s) AS fp, simhash(s, 'words', 1, 'tf') AS tf FROM han_runs;
RESET simhash.simd;
SET simhash.fast_path = off;
SELECT count(*) AS strings,
       count(*) FILTER (WHERE f.fp IS DISTINCT FROM simhash(s)) AS default_mismatches,
       count(*) FILTER (WHERE f.tf IS DISTINCT FROM simhash(s, 'words', 1, 'tf')) AS tf_mismatches,
       count(*) FILTER (WHERE a.fp IS DISTINCT FROM simhash(s)
                          OR a.tf IS DISTINCT FROM simhash(s, 'words', 1, 'tf')) AS avx2_mismatches,
       count(*) FILTER (WHERE c.fp IS DISTINCT FROM simhash(s)
                          OR c.tf IS DISTINCT FROM simhash(s, 'words', 1, 'tf')) AS scalar_mismatches
  FROM han_runs r JOIN han_fast f USING (i) JOIN han_avx2 a USING (i) JOIN han_scalar c USING (i);
RESET simhash.fast_path;
