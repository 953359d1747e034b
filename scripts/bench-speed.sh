#!/usr/bin/env bash
# Speed benchmark of simhash(text) (not part of the test suite): MB/s of the
# default (algorithm version 8; versions 7 and 6 differ only in the caps of documents of 700 words or more), versions 5 and 4, version 3 (ICU's dictionaries for Chinese)
# and the main options on English and Chinese text, and of md5(text)
# on the same rows in the same run as the yardstick.  The text is stored
# uncompressed (STORAGE EXTERNAL), and the English and Chinese once more as
# tables store them by default, compressed (en-compressed, zh-compressed,
# zh-dense-compressed: out of line); and shorter documents as tables store
# them by default: of 2-4 kB, most of them compressed in their row
# (en-3k-compressed, zh-3k-compressed), and of 1-2 kB, in the row as they
# are (en-1k, zh-1k); and the pages of the near-duplicate benchmark
# (bench/make_quality_sets.py: articles on site templates with their
# perturbations, 1-2.6 kB, stored by default, nearly all in the row
# uncompressed: en-pages, zh-pages).  Each set is a table of its own.  Each figure is the
# median of RUNS timings of a scan over the same in-memory table (each
# timing at least 0.4 s of scans), timed by the backend's CPU time (Linux;
# wall-clock time elsewhere); the ratio to md5 is the median of the ratios
# within each run.
#
# Usage: sudo PG_CONFIG=/path/to/optimized/pg_config [SIMD=avx2] scripts/bench-speed.sh [RUNS]
# Use an optimized, non-assert server build.  SIMD sets simhash.simd for the
# timings (default auto): SIMD=avx2 on an AVX-512 machine times what a CPU
# with AVX2 alone runs.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
require_root "$@"
RUNS=${1:-7}
SIMD=${SIMD:-auto}
install_deps
install_text_packages
make_workdir
build_install
start_cluster "-c shared_buffers=512MB -c jit=off -c max_parallel_workers_per_gather=0"

say "extracting text"
# Documents of about 8 kB: the paragraphs of the Debian handbook, English and
# zh-CN (three quarters of its characters ASCII: commands, package names),
# repeated to about 40 MB per language; and zh-dense (below).
REPO_ROOT="$REPO_ROOT" python3 - "$WORK/speed.tsv" <<'PY'
import os, re, sys
sys.path.insert(0, os.path.join(os.environ['REPO_ROOT'], 'bench'))
import make_near_duplicates as m
out = open(sys.argv[1], 'w', encoding='utf-8')
def write(lang, page):
    doc = '\\n'.join(p.replace('\\', '\\\\') for p in page).replace('\t', ' ')
    out.write('%s\t%s\n' % (lang, doc))
for lang, sub in (('en', 'en-US'), ('zh', 'zh-CN')):
    for page in m.handbook_pages(sub, 8192, 40 * 1024 * 1024):
        write(lang, page)
# en-3k, zh-3k: pages of at least 2.5 kB (English) and 2 kB (zh-CN), about
# 10 MB each, stored by default (below): the size of many web pages' text,
# which a table keeps compressed in the row; en-1k, zh-1k: pages of 1-2 kB,
# which it keeps in the row as they are.
for lang, sub, size in (('en-3k', 'en-US', 2560), ('zh-3k', 'zh-CN', 2048),
                        ('en-1k', 'en-US', 1024), ('zh-1k', 'zh-CN', 1024)):
    for page in m.handbook_pages(sub, size, 10 * 1024 * 1024):
        write(lang, page)
# zh-dense: the zh-CN paragraphs with every run of ASCII and Latin letters
# (commands, package names, numbers, markup, names) removed, in documents of
# 8 kB again, to about 40 MB: Chinese text with next to no ASCII, as news or
# prose is (the Han characters and Chinese punctuation of the handbook).
latin = re.compile(r'[\x00-\x7f\u00a0-\u024f]+')
page, size, total = [], 0, 0
for p in (latin.sub('', p) for pg in m.handbook_pages('zh-CN', 8192, 90 * 1024 * 1024)
          for p in pg):
    if not p:
        continue
    if total >= 40 * 1024 * 1024:
        break
    page.append(p)
    size += len(p.encode())
    if size >= 8192:
        write('zh-dense', page)
        total += size
        page, size = [], 0
PY
# en-pages, zh-pages: the documents of the near-duplicate benchmark (its
# tuning and held-out sets, every variant; zh: Simplified and Traditional)
mkdir -p "$WORK/q"
python3 "$REPO_ROOT/bench/make_quality_sets.py" "$WORK/q" 200 0 >/dev/null
awk -F '\t' 'BEGIN { OFS = "\t" } { print $3 "-pages", $7 }' "$WORK/q/docs.tsv" >> "$WORK/speed.tsv"
chown "$RUN_USER" "$WORK/speed.tsv"

say "timing ($RUNS runs each, median)"
as_user psql -X -q -v ON_ERROR_STOP=1 <<SQL
CREATE EXTENSION simhash;
CREATE TABLE corpus (lang text, body text);
-- No compression: time the functions, not pglz.
ALTER TABLE corpus ALTER body SET STORAGE EXTERNAL;
\copy corpus FROM '$WORK/speed.tsv'
-- The same English text with every non-ASCII character replaced by a space:
-- what the ASCII fast path alone achieves.
INSERT INTO corpus SELECT 'en-ascii', regexp_replace(body, '[^\x01-\x7f]', ' ', 'g')
  FROM corpus WHERE lang = 'en';
-- The same English and Chinese as a table stores them by default:
-- compressed (pglz, unless default_toast_compression says otherwise) and
-- out of line; md5 reads them through PostgreSQL's decompression, simhash
-- through its own streaming decoders (src/fingerprint/toast_decode.c).
CREATE TABLE corpus_default (lang text, body text);
INSERT INTO corpus_default SELECT lang || '-compressed', body FROM corpus
 WHERE lang IN ('en', 'zh', 'zh-dense', 'en-3k', 'zh-3k');
INSERT INTO corpus_default SELECT lang, body FROM corpus WHERE lang LIKE '%-pages';
DELETE FROM corpus WHERE lang IN ('en-3k', 'zh-3k') OR lang LIKE '%-pages';
-- One table per set, timed alone: a filter on a shared table would add the
-- same cost per row to md5 and to simhash, which pulls the ratios of short
-- documents towards 1.  The uncompressed sets stay uncompressed, the
-- others are stored as a table stores them by default.
DO \$\$
DECLARE l text;
BEGIN
  FOR l IN SELECT DISTINCT lang FROM corpus UNION SELECT DISTINCT lang FROM corpus_default LOOP
    EXECUTE format('CREATE TABLE %I (body text)', 'set_' || l);
    IF l LIKE '%-compressed' OR l LIKE '%-pages' THEN
      EXECUTE format('INSERT INTO %I SELECT body FROM corpus_default WHERE lang = %L', 'set_' || l, l);
    ELSE
      EXECUTE format('ALTER TABLE %I ALTER body SET STORAGE EXTERNAL', 'set_' || l);
      EXECUTE format('INSERT INTO %I SELECT body FROM corpus WHERE lang = %L', 'set_' || l, l);
    END IF;
  END LOOP;
END \$\$;
VACUUM ANALYZE;
-- Warm the cache (the tables fit in shared_buffers).
SELECT count(md5(body)) > 0 AS warm FROM corpus;
SELECT count(md5(body)) > 0 AS warm FROM corpus_default;

\i $WORK/src/bench/cpu_seconds.sql
SET simhash.simd = '$SIMD';
SHOW simhash.simd;
SELECT CASE WHEN pg_stat_file('/proc/self/schedstat', true) IS NULL
            THEN 'wall-clock time' ELSE 'CPU time of the backend' END AS timing;

CREATE TABLE timings (what text, lang text, run int, s float8);
DO \$\$
DECLARE l text;
  exprs text[] := ARRAY['md5(body)', 'simhash(body)', 'simhash(body, ''words'', version => 5)',
                        'simhash(body, ''words'', version => 4)',
                        'simhash(body, ''words'', version => 3)',
                        'simhash(body, ''words'', 1, ''tf'')',
                        'simhash(body, ''words'', 1, ''log'')', 'simhash(body, ''shingles'', 2)',
                        'simhash(body, ''chars'', 3)', 'length(body)'];
BEGIN
  FOR r IN 1 .. $RUNS LOOP
    FOREACH l IN ARRAY ARRAY['en', 'en-ascii', 'en-compressed', 'en-1k', 'en-3k-compressed',
                               'en-pages', 'zh', 'zh-compressed', 'zh-1k', 'zh-3k-compressed',
                               'zh-pages', 'zh-dense', 'zh-dense-compressed'] LOOP
      FOR i IN 1 .. array_length(exprs, 1) LOOP
        INSERT INTO timings VALUES (exprs[i], l, r, seconds(exprs[i], 'set_' || l));
      END LOOP;
    END LOOP;
  END LOOP;
END \$\$;

\echo
SELECT lang, count(*) AS documents, pg_size_pretty(sum(octet_length(body))) AS text
  FROM (TABLE corpus UNION ALL TABLE corpus_default) c GROUP BY 1 ORDER BY 1;
-- How the default storage kept them: compressed in the row (under about
-- 2 kB after compression), out of line, or as they are.
SELECT l AS lang, round(avg(octet_length(body))) AS "mean bytes",
       round(100.0 * avg((pg_column_size(body) < octet_length(body)
                          AND pg_column_size(body) < 2032)::int)) AS "% compressed in the row"
  FROM (SELECT 'en-3k-compressed' AS l, body FROM "set_en-3k-compressed"
        UNION ALL SELECT 'zh-3k-compressed', body FROM "set_zh-3k-compressed"
        UNION ALL SELECT 'en-compressed', body FROM "set_en-compressed"
        UNION ALL SELECT 'en-pages', body FROM "set_en-pages"
        UNION ALL SELECT 'zh-pages', body FROM "set_zh-pages") s
 GROUP BY 1 ORDER BY 1;
\echo MB/s = bytes of text / median seconds of one scan
\echo × md5 = median over the runs of md5's time / the function's time in the same run
WITH med AS (
  SELECT what, lang, percentile_cont(0.5) WITHIN GROUP (ORDER BY s) AS s FROM timings GROUP BY 1, 2),
paired AS (
  SELECT t.what, t.lang, percentile_cont(0.5) WITHIN GROUP (ORDER BY md5.s / t.s) AS ratio
    FROM timings t JOIN timings md5 ON md5.lang = t.lang AND md5.run = t.run AND md5.what = 'md5(body)'
   GROUP BY 1, 2),
bytes AS (SELECT lang, sum(octet_length(body)) AS b
            FROM (TABLE corpus UNION ALL TABLE corpus_default) c GROUP BY 1)
SELECT m.what, m.lang, round((b.b / 1e6 / m.s)::numeric, 1) AS "MB/s",
       round(p.ratio::numeric, 2) AS "× md5"
  FROM med m JOIN bytes b USING (lang) JOIN paired p USING (what, lang)
 ORDER BY m.lang, m.s;
SQL
