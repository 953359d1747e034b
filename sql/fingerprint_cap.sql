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

-- Algorithm version 4 (and version 5 on text of one line like this: its
-- line weights leave it as version 4 has it; versions 6 and 7 (the default) from
-- 1,400 words on) weighs each
-- distinct single word
-- round(16 w sqrt(occurrences) d) / 16 before the cap, w the sum over its
-- occurrences of floor(L sqrt(L) / 2 + 0.5), L the length of the occurrence's
-- run (version 3: w = the sum of the L), d = 1 - g (1 - t / s) for a word of
-- the built-in frequency list of share s and damping share t (parts per
-- million; t = 3,000 for English words), g = min(1, N / 1000) for a document
-- of N words, else d = 1 (src/fingerprint/weights.h).  Each word's weight
-- follows from its version 3 weight where all its occurrences are in runs of
-- one length L (version 3 weight = occurrences * L) and neither version caps
-- it (formula blank: the word weighs the cap, the largest weight, or its runs
-- differ in length); "the" (72,992), "and" (19,746), "of" (27,115), "in"
-- (16,572) and "on" (7,125) are damped a little in the short text (N = 17)
-- and fully in the long one (N = 1,700: d = 3000 / s).
SELECT n AS words, f4.feature, f4.occurrences, f3.weight AS v3_weight, f4.weight AS v4_weight,
       CASE WHEN f4.weight < max(f4.weight) OVER (PARTITION BY n) AND
                 f3.weight < max(f3.weight) OVER (PARTITION BY n) AND
                 f3.weight::bigint % f4.occurrences = 0 THEN
       f4.weight = round(16 * f4.occurrences *
                         floor((f3.weight / f4.occurrences) * sqrt(f3.weight / f4.occurrences) / 2 + 0.5) *
                         sqrt(f4.occurrences) *
                         coalesce(1 - least(1, n / 1000.0::float8) * (1 - 3000::float8 / s.ppm), 1)) / 16
       END AS formula
  FROM (VALUES (1), (100)) r(times),
       LATERAL (SELECT repeat('The cat and the dog. The cat sat on the mat in the house of the cat. ', times) AS body) t,
       LATERAL (SELECT sum(occurrences) AS n FROM simhash_features(t.body, 'words', version => 5)) c,
       LATERAL simhash_features(t.body, 'words', version => 5) f4
  JOIN LATERAL simhash_features(t.body, 'words', version => 3) f3 USING (feature)
  LEFT JOIN (VALUES ('the', 72992), ('and', 19746), ('of', 27115), ('in', 16572), ('on', 7125)) s(word, ppm)
         ON s.word = f4.feature
 ORDER BY 1, 2;
-- Version 5 gives every word of one line (the typical line itself: each
-- multiplier 16 sixteenths) the weight of version 4.
SELECT times, (SELECT array_agg(feature || ' ' || weight ORDER BY feature) FROM simhash_features(body, 'words', version => 5)) =
              (SELECT array_agg(feature || ' ' || weight ORDER BY feature)
                 FROM simhash_features(body, 'words', version => 4)) AS version_5_as_4
  FROM (VALUES (1), (100)) r(times),
       LATERAL (SELECT repeat('The cat and the dog. The cat sat on the mat in the house of the cat. ', times) AS body) t;
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

-- Damping at work: 40 unrelated long documents (4,000 words, about 23,000
-- characters each) of one "genre": 70 % of their words drawn from the 400
-- most frequent words of English technical text with their real shares
-- (bench/frequent_words.py: the Debian handbook and the common licenses, in
-- parts per million), the rest from a vocabulary of each document's own
-- (deterministic: md5 of document and position).  Under version 3 the shared
-- background leans every document the same way: pairs land within 3 bits;
-- under version 4 they move apart.
CREATE TEMP TABLE background AS
SELECT word, sum(ppm) OVER (ORDER BY ppm DESC, word) - ppm AS lo, sum(ppm) OVER (ORDER BY ppm DESC, word) AS hi
  FROM (VALUES
  ('the', 72992), ('to', 29824), ('of', 27115), ('a', 26841), ('and', 19746), ('is', 17931),
  ('in', 16572), ('for', 11237), ('this', 10973), ('that', 10953), ('or', 10675), ('it', 9995),
  ('be', 9193), ('you', 8748), ('by', 7858), ('with', 7760), ('as', 7301), ('on', 7125),
  ('are', 6797), ('can', 6465), ('not', 5672), ('if', 4924), ('debian', 4919), ('package', 4611),
  ('an', 4538), ('which', 4494), ('license', 4469), ('from', 4127), ('will', 4108), ('file', 4054),
  ('any', 3922), ('all', 3648), ('use', 3369), ('work', 3203), ('version', 3178),
  ('software', 2988), ('system', 2949), ('other', 2939), ('but', 2880), ('have', 2861),
  ('such', 2758), ('also', 2753), ('its', 2748), ('these', 2719), ('only', 2694),
  ('packages', 2694), ('files', 2665), ('etc', 2641), ('one', 2548), ('they', 2469), ('may', 2450),
  ('used', 2386), ('configuration', 2318), ('program', 2264), ('when', 2254), ('server', 2225),
  ('under', 2205), ('has', 2112), ('each', 2088), ('command', 2088), ('at', 2064),
  ('network', 2064), ('user', 2064), ('section', 2049), ('more', 2044), ('free', 1976),
  ('must', 1922), ('their', 1912), ('library', 1883), ('some', 1868), ('we', 1819),
  ('source', 1804), ('code', 1775), ('so', 1760), ('your', 1760), ('available', 1716),
  ('then', 1667), ('them', 1643), ('new', 1619), ('name', 1609), ('apt', 1584), ('since', 1550),
  ('most', 1535), ('data', 1506), ('should', 1467), ('example', 1457), ('copy', 1438),
  ('no', 1438), ('time', 1418), ('same', 1403), ('public', 1399), ('kernel', 1384), ('do', 1340),
  ('users', 1340), ('list', 1315), ('first', 1306), ('using', 1291), ('been', 1281),
  ('terms', 1266), ('installed', 1266), ('document', 1237), ('information', 1232),
  ('default', 1227), ('allows', 1198), ('into', 1183), ('make', 1164), ('many', 1159),
  ('there', 1144), ('distribution', 1144), ('possible', 1134), ('rights', 1130),
  ('copyright', 1095), ('case', 1076), ('those', 1076), ('even', 1071), ('provided', 1071),
  ('installation', 1061), ('without', 1051), ('machine', 1042), ('access', 1032), ('than', 1032),
  ('does', 1022), ('general', 1012), ('means', 1007), ('linux', 1007), ('install', 993),
  ('set', 993), ('up', 983), ('process', 983), ('see', 978), ('based', 978), ('number', 968),
  ('directory', 954), ('two', 929), ('covered', 929), ('required', 924), ('virtual', 924),
  ('disk', 910), ('versions', 900), ('gnu', 895), ('contains', 885), ('following', 880),
  ('interface', 870), ('security', 866), ('several', 866), ('run', 866), ('option', 861),
  ('programs', 861), ('need', 856), ('thus', 856), ('service', 836), ('different', 826),
  ('either', 826), ('would', 826), ('key', 826), ('distribute', 822), ('was', 817),
  ('usually', 812), ('dpkg', 812), ('modified', 802), ('corresponding', 797), ('project', 792),
  ('after', 787), ('automatically', 787), ('standard', 782), ('way', 782), ('however', 763),
  ('where', 763), ('made', 763), ('include', 748), ('boot', 748), ('local', 743), ('change', 738),
  ('address', 738), ('another', 733), ('particular', 733), ('works', 733), ('raid', 729),
  ('very', 729), ('both', 724), ('note', 724), ('notice', 719), ('ip', 714), ('create', 709),
  ('services', 709), ('often', 704), ('part', 704), ('computer', 699), ('tool', 699),
  ('including', 694), ('control', 694), ('sections', 694), ('back', 685), ('running', 685),
  ('copies', 680), ('well', 675), ('tools', 660), ('get', 660), ('who', 660), ('conditions', 660),
  ('through', 645), ('form', 641), ('uses', 641), ('like', 641), ('simple', 636), ('disks', 631),
  ('order', 631), ('documentation', 631), ('servers', 626), ('provide', 621), ('being', 616),
  ('stored', 616), ('systems', 611), ('provides', 611), ('already', 606), ('given', 606),
  ('add', 606), ('text', 601), ('requires', 597), ('commands', 597), ('release', 597),
  ('what', 587), ('share', 587), ('therefore', 582), ('while', 577), ('between', 577),
  ('non', 577), ('known', 572), ('group', 572), ('modifications', 572), ('about', 567),
  ('specific', 567), ('stable', 567), ('warranty', 567), ('allow', 562), ('want', 562),
  ('line', 562), ('purpose', 562), ('domain', 562), ('various', 557), ('cover', 557),
  ('administrator', 553), ('further', 553), ('created', 553), ('modify', 553),
  ('application', 548), ('instance', 548), ('own', 548), ('contributor', 548), ('device', 543),
  ('still', 543), ('options', 543), ('needs', 538), ('before', 538), ('rules', 538),
  ('object', 533), ('policy', 533), ('physical', 528), ('how', 523), ('page', 523), ('root', 523),
  ('graphical', 523), ('cases', 518), ('filesystem', 518), ('once', 518), ('during', 518),
  ('could', 518), ('manual', 518), ('within', 513), ('above', 513), ('called', 513),
  ('partition', 509), ('usr', 509), ('applications', 504), ('machines', 504), ('original', 504),
  ('hard', 499), ('includes', 494), ('permissions', 494), ('find', 489), ('changes', 484),
  ('protocol', 484), ('c', 484), ('database', 479), ('web', 474), ('ssh', 474), ('b', 474),
  ('now', 469), ('configured', 469), ('appropriate', 465), ('read', 465), ('important', 465),
  ('patent', 465), ('because', 460), ('modules', 460), ('update', 460), ('updates', 460),
  ('directly', 455), ('scripts', 455), ('check', 455), ('know', 450), ('complete', 450),
  ('postfix', 450), ('able', 445), ('hardware', 445), ('host', 445), ('script', 445),
  ('interfaces', 445), ('contents', 440), ('over', 440), ('cd', 440), ('point', 435),
  ('space', 435), ('desktop', 435), ('foundation', 435), ('developers', 435), ('itself', 430),
  ('otherwise', 430), ('falcot', 430), ('start', 425), ('whether', 425), ('were', 425),
  ('support', 425), ('title', 425), ('useful', 421), ('similar', 416), ('notices', 416),
  ('apply', 416), ('later', 411), ('initial', 411), ('defined', 411), ('described', 406),
  ('why', 406), ('common', 406), ('connection', 406), ('email', 406), ('log', 406),
  ('single', 401), ('administrators', 401), ('volume', 401), ('mode', 401), ('book', 401),
  ('main', 401), ('s', 401), ('sometimes', 401), ('problems', 401), ('names', 401), ('full', 396),
  ('might', 396), ('installer', 391), ('dev', 391), ('always', 391), ('certain', 391),
  ('end', 386), ('contain', 386), ('give', 386), ('executable', 386), ('last', 381),
  ('lists', 381), ('parameters', 381), ('few', 381), ('included', 381), ('choice', 381),
  ('our', 377), ('generally', 377), ('necessary', 377), ('good', 377), ('basics', 377),
  ('format', 377), ('choose', 377), ('simply', 372), ('special', 372), ('whole', 367),
  ('combined', 367), ('operating', 367), ('windows', 367), ('partitions', 362), ('features', 362),
  ('least', 362), ('build', 362), ('type', 362), ('additional', 362), ('processes', 362),
  ('creating', 357), ('take', 357), ('level', 357), ('i', 357), ('long', 357), ('too', 357),
  ('step', 357), ('current', 357), ('messages', 357), ('ipv', 357), ('others', 352),
  ('client', 352), ('mail', 352), ('instead', 347), ('finally', 347), ('dns', 347), ('port', 347)) v(word, ppm);
CREATE TEMP TABLE genre AS
SELECT d, string_agg(coalesce(b.word, 'c' || d || 'x' || floor(exp((r.u - 699359) / 300641.0 * ln(3000)))::int),
                     CASE WHEN i % 16 = 0 THEN E'.\n' ELSE ' ' END ORDER BY i) AS body
  FROM generate_series(1, 40) d, generate_series(1, 4000) i,
       LATERAL (SELECT ('x' || left(md5(d || '/' || i), 8))::bit(32)::bigint % 1000000 AS u) r
       LEFT JOIN background b ON r.u >= b.lo AND r.u < b.hi
 GROUP BY d;
SELECT v AS version, count(*) AS pairs,
       round(avg(simhash(a.body, 'words', version => v) <-> simhash(b.body, 'words', version => v)), 1) AS mean_distance,
       count(*) FILTER (WHERE simhash(a.body, 'words', version => v) <-> simhash(b.body, 'words', version => v) <= 3) AS within_3,
       count(*) FILTER (WHERE simhash(a.body, 'words', version => v) <-> simhash(b.body, 'words', version => v) <= 8) AS within_8
  FROM genre a JOIN genre b ON a.d < b.d, unnest(ARRAY[3, 4]) v
 GROUP BY v ORDER BY v;
-- The end pass's corrections take AVX-512 only under simhash.simd = auto
-- (where the CPU has it) and 16-bit lanes otherwise: the same fingerprints.
CREATE TEMP TABLE genre_fp AS SELECT d, simhash(body) AS fp FROM genre;
SET simhash.simd = off;
SELECT count(*) AS genre_docs, count(*) FILTER (WHERE simhash(g.body) <> f.fp) AS differ_without_avx512
  FROM genre g JOIN genre_fp f USING (d);
RESET simhash.simd;
