#!/usr/bin/env bash
# Labelled near-duplicate benchmark of simhash(text) (not part of the test
# suite): builds web pages and their near-duplicates from Debian documentation
# (bench/make_near_duplicates.py), fingerprints them with several option sets
# in a throwaway cluster, and prints precision, recall and F1 at Hamming
# distance k = 0..8 per language, recall per variant at k = 3, and the rate at
# which unrelated pages on the same template collide at k = 3.
#
# Usage: sudo scripts/bench-fingerprint.sh [ARTICLES_PER_LANGUAGE]
# Honours PG_CONFIG like scripts/test.sh (use an optimized build for speed;
# the scores do not depend on it).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
require_root "$@"
ARTICLES=${1:-300}
install_deps
install_packages debian-handbook debian-edu-doc-zh-cn python3
make_workdir
build_install
start_cluster

say "generating the labelled pages ($ARTICLES articles per language)"
mkdir -p "$WORK/bench"
python3 "$REPO_ROOT/bench/make_near_duplicates.py" "$WORK/bench" "$ARTICLES"
chown -R "$RUN_USER" "$WORK/bench"

# Option sets compared: name and the simhash() call on column body.
CONFIGS="
default|simhash(body)
words-runs|simhash(body, 'words', 1, 'runs')
words-tf|simhash(body, 'words', 1, 'tf')
words-binary|simhash(body, 'words', 1, 'binary')
words-log|simhash(body, 'words', 1, 'log')
words-runs-numbers|simhash(body, 'words', 1, 'runs', true)
words-tf-numbers|simhash(body, 'words', 1, 'tf', true)
shingles2-runs|simhash(body, 'shingles', 2, 'runs')
shingles2-tf|simhash(body, 'shingles', 2, 'tf')
chars2-runs|simhash(body, 'chars', 2, 'runs')
chars2-tf|simhash(body, 'chars', 2, 'tf')
chars3-runs|simhash(body, 'chars', 3, 'runs')
chars3-tf|simhash(body, 'chars', 3, 'tf')
chars4-tf|simhash(body, 'chars', 4, 'tf')
"
fill=""
while IFS='|' read -r name call; do
    [ -n "$name" ] || continue
    fill="$fill INSERT INTO fps SELECT '$name', doc_id, $call FROM docs;"
done <<< "$CONFIGS"

say "fingerprinting and scoring"
as_user psql -X -q -v ON_ERROR_STOP=1 <<SQL
CREATE EXTENSION simhash;
SELECT simhash_algorithm_version();
CREATE TABLE docs (doc_id int PRIMARY KEY, lang text, base text, variant text, template int, body text);
CREATE TABLE pairs (a int, b int, label int, kind text);
\copy docs FROM '$WORK/bench/docs.tsv'
\copy pairs FROM '$WORK/bench/pairs.tsv'
CREATE TABLE fps (config text, doc_id int, fp simhash);
$fill
\echo
\echo Labelled pairs per language and kind
SELECT d.lang, p.kind, p.label, count(*) FROM pairs p JOIN docs d ON d.doc_id = p.a
 GROUP BY 1, 2, 3 ORDER BY 1, 3 DESC, 2;

\i $WORK/src/bench/score_near_duplicates.sql
SQL
