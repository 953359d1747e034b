-- simhash(text): properties of the fingerprint (the exact values are pinned
-- by the golden test).

-- A bare literal is a fingerprint literal (PostgreSQL reads type('literal')
-- as a cast); text literals need their type.  Parameters and columns of
-- type text need nothing.
\set VERBOSITY default
SELECT simhash('hello world');
\set VERBOSITY terse
SELECT simhash(text 'hello world') = simhash('hello world'::text) AS typed_literal;
PREPARE fingerprint_untyped AS SELECT simhash($1);
EXECUTE fingerprint_untyped('hello world');
SELECT simhash(body) FROM (VALUES ('hello world')) v(body);

-- Deterministic, and insensitive to case and to punctuation and spacing.
SELECT simhash(text 'The quick brown fox jumps over the lazy dog') =
       simhash(text 'the QUICK   brown fox, jumps over... the lazy dog!') AS case_and_punctuation;

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

-- Texts without any word have no fingerprint: NULL, which matches nothing.
SELECT simhash(text '') IS NULL AS empty, simhash(text ' .,;:!? -- ') IS NULL AS punctuation_only,
       simhash(text 'a') IS NOT NULL AS one_letter;

-- Non-ASCII words are features too.
SELECT simhash(text 'Größe und Maße') IS NOT NULL AS german,
       simhash(text '近似重复检测') IS NOT NULL AS chinese,
       simhash(text 'Größe und Maße') <> simhash(text 'Grosse und Masse') AS distinct_words;

-- Word order does not matter for word features; word choice does.
SELECT simhash(text 'alpha beta gamma') = simhash(text 'gamma alpha beta') AS order_free,
       simhash(text 'alpha beta gamma') <> simhash(text 'alpha beta delta') AS words_matter;

-- A word longer than the internal buffer is one feature, hashed whole.
SELECT simhash(repeat('x', 1000)) <> simhash(repeat('x', 999)) AS long_words_differ,
       simhash(repeat('x', 1000)) = simhash(upper(repeat('x', 1000))) AS long_words_fold,
       simhash(repeat('x', 256)) <> simhash(repeat('x', 257)) AS buffer_edge;

-- Term frequency counts: repeating the text leaves the fingerprint alone.
SELECT simhash(repeat('one two three four ', 5000)) = simhash(text 'one two three four') AS tf_scale_free;

-- Algorithm version 1 folds ASCII letters only, whatever the locale:
-- non-ASCII letters keep their case.
SELECT simhash(text 'Ünïcödé and ASCII') <> simhash(text 'ünïcödé AND ascii') AS only_ascii_folds,
       simhash(text 'Ünïcödé and ASCII') = simhash(text 'Ünïcödé AND ascii') AS ascii_folds;
