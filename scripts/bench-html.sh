#!/usr/bin/env bash
# Labelled near-duplicate benchmark of simhash_html (not part of the test
# suite): builds web pages and their near-duplicates from HTML that Debian
# ships (bench/make_html_near_duplicates.py: PostgreSQL's and Python's
# manuals in English, the Debian Reference in Chinese), each page both as
# plain text and as a markup-heavy page on one of three site templates;
# prints F1 at Hamming distance k = 3 (and k = 0..8) per language and the
# share of pairs within k = 3 per perturbation, for simhash of the plain
# text (the ceiling), simhash of the raw HTML, and simhash_html with and
# without boilerplate removal; then the speed of simhash_html against md5
# over the same stored pages in the same run (median of RUNS runs, ratio).
#
# Usage: sudo scripts/bench-html.sh [ARTICLES_PER_LANGUAGE] [RUNS] [handbook]
# With "handbook", the articles are those of scripts/bench-fingerprint.sh
# (the Debian Administrator's Handbook, the Debian Edu manual) instead.
# Honours PG_CONFIG like scripts/test.sh.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
require_root "$@"
ARTICLES=${1:-300}
RUNS=${2:-7}
SOURCE=${3:-}
install_deps
if [ "$SOURCE" = handbook ]; then
    install_packages debian-handbook debian-edu-doc-zh-cn python3
else
    install_packages postgresql-doc-15 python3-doc debian-reference-zh-cn python3
fi
make_workdir
build_install
start_cluster "-c jit=off -c max_parallel_workers_per_gather=0"

say "generating the labelled pages ($ARTICLES articles per language)"
mkdir -p "$WORK/bench"
python3 "$REPO_ROOT/bench/make_html_near_duplicates.py" "$WORK/bench" "$ARTICLES" $SOURCE
chown -R "$RUN_USER" "$WORK/bench"

say "fingerprinting and scoring"
psql_ <<SQL
CREATE EXTENSION simhash;
CREATE TABLE docs (doc_id int PRIMARY KEY, lang text, base text, variant text, template int, body text);
CREATE TABLE pages (doc_id int PRIMARY KEY, html text);
CREATE TABLE pairs (a int, b int, label int, kind text);
\copy docs FROM '$WORK/bench/docs.tsv'
\copy pages FROM '$WORK/bench/html.tsv'
\copy pairs FROM '$WORK/bench/pairs.tsv'
SELECT d.lang, count(*) AS pages, round(avg(octet_length(p.html))) AS "mean HTML bytes",
       round(avg(octet_length(d.body))) AS "mean text bytes"
  FROM docs d JOIN pages p USING (doc_id) GROUP BY 1 ORDER BY 1;

CREATE TABLE fps (config text, doc_id int, fp simhash);
INSERT INTO fps SELECT 'plain text (ceiling)', doc_id, simhash(body) FROM docs;
INSERT INTO fps SELECT 'simhash(html)', doc_id, simhash(html) FROM pages;
INSERT INTO fps SELECT 'simhash_html keep', doc_id, simhash_html(html, 'keep') FROM pages;
INSERT INTO fps SELECT 'simhash_html remove', doc_id, simhash_html(html) FROM pages;
INSERT INTO fps SELECT 'simhash_html remove, libxml2', doc_id, simhash_html(html, parser => 'libxml2') FROM pages;
SELECT count(*) AS pages,
       count(*) FILTER (WHERE simhash_html_text(html, 'keep') = simhash_html_text(html, 'keep', 'libxml2'))
         AS "same text, fast path and libxml2"
  FROM pages;
\i $WORK/src/bench/score_near_duplicates.sql

\echo
\echo Speed over the stored pages: median of $RUNS runs (after a warm-up), ratio to md5
CREATE TABLE timings (fn text, run int, ms float8);
DO \$\$
DECLARE
  fns text[] := ARRAY['md5(html)', 'simhash(html)', 'simhash_html(html)', 'simhash_html(html, ''keep'')',
                      'simhash_html(html, parser => ''libxml2'')', 'simhash_html_text(html, parser => ''libxml2'')', 'simhash_html_text(html)'];
  f text; expr text; t0 timestamptz;
BEGIN
  FOR r IN 0..$RUNS LOOP
    FOREACH f IN ARRAY fns LOOP
      expr := f;
      t0 := clock_timestamp();
      EXECUTE 'SELECT count(' || expr || ') FROM pages';
      IF r > 0 THEN   -- run 0 warms up
        INSERT INTO timings VALUES (f, r, 1000 * extract(epoch FROM clock_timestamp() - t0));
      END IF;
    END LOOP;
  END LOOP;
END
\$\$;
WITH m AS (SELECT fn, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS ms FROM timings GROUP BY fn),
     size AS (SELECT sum(octet_length(html)) / 1e6 AS mb FROM pages)
SELECT fn, round(m.ms::numeric, 1) AS "median ms", round((size.mb / (m.ms / 1000))::numeric, 1) AS "MB/s",
       round(((SELECT ms FROM m WHERE fn = 'md5(html)') / m.ms)::numeric, 3) AS "speed vs md5"
  FROM m, size ORDER BY m.ms;
SQL
