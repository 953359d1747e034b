-- simhash(text): calling conventions and properties of the default
-- fingerprint (the exact values are pinned by the golden test).

-- A bare literal is a fingerprint literal (PostgreSQL reads type('literal')
-- as a cast); text literals need their type.  Parameters and columns of
-- type text need nothing.  The error names the right spelling and quotes
-- at most 24 characters of the literal (doc/reference.md, "Text literals").
\set VERBOSITY default
SELECT simhash('hello world');
SELECT simhash('Größere Bücher über Übergrößen und Überlängen');
SELECT simhash('12345678901234567890');
\set VERBOSITY terse
SELECT repeat('a long document, ', 5000) AS long_document \gset
SELECT simhash(:'long_document');
-- 16 hex digits are the fingerprint they spell, whatever the call looks like.
SELECT simhash('0123456789ABCDEF') = '0123456789abcdef'::simhash AS hex_literal_is_fingerprint,
       simhash(text '0123456789abcdef') <> '0123456789abcdef'::simhash AS typed_literal_is_text;
-- Views keep each spelling's meaning (pg_get_viewdef is what pg_dump writes;
-- its layout differs between versions, so only the calls are matched).
CREATE VIEW literal_forms AS
  SELECT simhash(text 'hello world') AS typed, simhash('hello world'::text) AS cast_text,
         simhash('0123456789abcdef') AS fingerprint;
SELECT pg_get_viewdef('literal_forms') LIKE '%simhash(''hello world''::text) AS typed%' AS typed_kept,
       pg_get_viewdef('literal_forms') LIKE '%''0123456789abcdef''::simhash AS fingerprint%' AS cast_kept;
SELECT * FROM literal_forms;
DROP VIEW literal_forms;
SELECT simhash(text 'hello world') = simhash('hello world'::text) AS typed_literal;
PREPARE fingerprint_untyped AS SELECT simhash($1);
EXECUTE fingerprint_untyped('hello world');
SELECT simhash(body) FROM (VALUES ('hello world')) v(body);
SELECT simhash(text 'hello world') = simhash(text 'hello world', 'words') AS default_is_words_runs,
       simhash(text 'hello world') = simhash(text 'hello world', 'words', 1, 'runs', false) AS default_spelled_out;

-- The algorithm version names what stored fingerprints depend on.
SELECT simhash_algorithm_version() ~ '^simhash-8/icu[0-9]+$' AS algorithm_version;

-- Deterministic, and insensitive to case, punctuation and spacing.
SELECT simhash(text 'The quick brown fox jumps over the lazy dog') =
       simhash(text 'the QUICK   brown fox  jumps over the lazy dog') AS case_and_spacing;

-- Near-duplicates land near each other; unrelated texts far apart.
WITH docs(name, body) AS (VALUES
  ('original', 'Debian is a free operating system, developed and maintained by the Debian project. '
               'It comes with over fifty thousand packages, precompiled software bundled up in a nice format '
               'for easy installation on your machine, together with a package manager and documentation. '
               'The project is run by volunteers from all over the world.'),
  ('edited',   'Debian is a free operating system, developed and maintained by the Debian project. '
               'It comes with over sixty thousand packages, precompiled software bundled up in a nice format '
               'for easy installation on your computer, together with a package manager and documentation. '
               'The project is run by volunteers from all over the world.'),
  ('unrelated','PostgreSQL is a powerful, open source object-relational database system with over thirty years '
               'of active development that has earned it a strong reputation for reliability, feature robustness '
               'and performance. It runs on all major operating systems.'))
SELECT a.name, b.name AS other,
       simhash(a.body) <-> simhash(b.body) <= 8 AS near
  FROM docs a, docs b WHERE a.name < b.name ORDER BY 1, 2;

-- Texts without any word have no fingerprint: NULL, which matches nothing,
-- so empty or junk documents are never near-duplicates of anything.
SELECT simhash(text '') IS NULL AS empty,
       simhash(text ' .,;:!? -- ') IS NULL AS punctuation_only,
       simhash(text '______ ====== ****** ------') IS NULL AS symbol_runs,
       simhash(text '2024-05-01 12:30 · 1,234') IS NULL AS numbers_only,
       simhash(text 'a') IS NOT NULL AS one_letter;

-- Counters and dates are not features by default: changing them changes nothing.
SELECT simhash(text 'Posted 2024-05-01, 1,234 views. Hello world and more') =
       simhash(text 'Posted 2023-12-31, 98,765 views. Hello world and more') AS counters_ignored;

-- Word order matters only through runs: within one run it does not.
SELECT simhash(text 'alpha beta gamma') = simhash(text 'gamma alpha beta') AS order_free_within_run,
       simhash(text 'alpha beta gamma') <> simhash(text 'alpha beta delta') AS words_matter;

-- Runs of a repeated character are shortened to three: one run cannot
-- dominate the weights.
SELECT simhash(text 'sooooooo good') = simhash(text 'sooo good') AS runs_shortened,
       simhash(text 'sooo good') <> simhash(text 'soo good') AS three_kept;

-- A word longer than any buffer is one feature.
SELECT simhash(repeat('xy', 1000)) <> simhash(repeat('xy', 999)) AS long_words_differ,
       simhash(repeat('xy', 1000)) = simhash(upper(repeat('xy', 1000))) AS long_words_fold;

-- Term frequency counts: repeating the text leaves the fingerprint alone.
SELECT simhash(repeat('one two three four. ', 5000)) = simhash(text 'one two three four.') AS tf_scale_free;

-- Unicode: case folding and NFKC beyond ASCII, whatever the database locale.
SELECT simhash(text 'Ünïcödé and ASCII') = simhash(text 'ünïcödé AND ascii') AS unicode_folds,
       simhash(text 'Straße') = simhash(text 'STRASSE') AS sharp_s_folds,
       simhash(text 'ﬁle Ｆｕｌｌｗｉｄｔｈ') = simhash(text 'file fullwidth') AS nfkc,
       simhash(text 'e' || U&'\0301' || 'te') = simhash(text U&'\00e9te') AS composed,
       simhash(text 'Größe und Maße') <> simhash(text 'Grosse und Masse') AS distinct_words;
