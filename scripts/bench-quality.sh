#!/usr/bin/env bash
# Quality benchmark of simhash(text) per algorithm version (not part of the
# test suite): near-duplicate sets built from real text in Debian packages
# (bench/make_quality_sets.py: a tuning set from the Debian handbook and a
# held-out set from the Debian Reference in English, Simplified and
# Traditional Chinese, the Chinese manual pages and the Debian Edu manual),
# scored per set, language and perturbation (ad block, small edits, mirror,
# combined) at k = 3 for algorithm versions 6, 7 and 8; the rate at which
# unrelated long documents (manual pages, Debian copyright files,
# changelogs, README and NEWS files of 8,000 characters or more and the
# Debian Reference's chapters; word 5-shingle Jaccard < 0.1) land within 3
# bits, per million pairs, per language and per source, how many such pairs
# are both 30,000 characters or longer and how many still share a fifth of
# one document's running text; and the recall of near-duplicates of long
# documents (an ad block, edits, combined; bench/make_long_near_duplicates.py).
# Speed against md5 in the same run:
# scripts/bench-speed.sh.
#
# Usage: sudo scripts/bench-quality.sh [ARTICLES_PER_SET_AND_LANGUAGE] [LONG_MAN_PAGES]
# Honours PG_CONFIG like scripts/test.sh.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
require_root "$@"
ARTICLES=${1:-200}
LONG=${2:-1200}
install_deps
install_text_packages manpages manpages-dev man-db perl-doc git-man libssl-doc libcurl4-doc tcl8.6-doc
make_workdir
build_install
start_cluster "-c shared_buffers=256MB -c max_parallel_workers_per_gather=0"

say "generating the sets ($ARTICLES articles per set and language, up to $LONG long manual pages)"
mkdir -p "$WORK/q"
python3 "$REPO_ROOT/bench/make_quality_sets.py" "$WORK/q" "$ARTICLES" "$LONG"
python3 "$REPO_ROOT/bench/make_long_near_duplicates.py" "$WORK/q/long.tsv" "$WORK/q/long_near.tsv"
chown -R "$RUN_USER" "$WORK/q"

python3 "$REPO_ROOT/bench/frequent_words.py" > "$WORK/q/frequent.tsv"
chown "$RUN_USER" "$WORK/q/frequent.tsv"

# Algorithm versions compared: name and the simhash() call on column body.
# Version 8 (the default) is version 7 with every word also capped at 16
# times the document's median word by occurrence; version 7 is version 6
# with the cap proportional to the
# length past 1,400 words; version 6 is version 5's weighting blended in
# from 700 to 1,400 words; version 5 weighs words by their line's length
# besides the weighting of src/fingerprint/weights.c (sqrt of the
# occurrences, the built-in frequency list damped).  frequent
# (bench/frequent_words.py, the tuning set's text only) is loaded for
# experiments in SQL over simhash_features(body).
CONFIGS="
v6|simhash(body, 'words', version => 6)
v7|simhash(body, 'words', version => 7)
v8|simhash(body, 'words', version => 8)
"
fill=""
while IFS='|' read -r name call; do
    [ -n "$name" ] || continue
    fill="$fill INSERT INTO fps SELECT '$name', doc_id, $call FROM docs;
               INSERT INTO lfps SELECT '$name', doc_id, $call FROM long;
               INSERT INTO nfps SELECT '$name', id, $call FROM long_near;"
done <<< "$CONFIGS"

say "fingerprinting and scoring"
psql_ <<SQL
CREATE EXTENSION simhash;
SELECT simhash_algorithm_version();
CREATE TABLE docs (doc_id int PRIMARY KEY, set text, lang text, base text, variant text,
                   template int, body text);
CREATE TABLE pairs (a int, b int, label int, kind text);
CREATE TABLE long (doc_id int PRIMARY KEY, lang text, source text, body text);
\copy docs FROM '$WORK/q/docs.tsv'
\copy pairs FROM '$WORK/q/pairs.tsv'
\copy long FROM '$WORK/q/long.tsv'
CREATE TABLE long_near (id int PRIMARY KEY, lang text, source text, base int, variant text, body text);
\copy long_near FROM '$WORK/q/long_near.tsv'
CREATE TABLE frequent (lang text, word text, share float8);
\copy frequent FROM '$WORK/q/frequent.tsv'
CREATE INDEX ON frequent (word);
CREATE TABLE fps (config text, doc_id int, fp simhash);
CREATE TABLE lfps (config text, doc_id int, fp simhash);
CREATE TABLE nfps (config text, id int, fp simhash);
$fill
CREATE INDEX ON fps (config, doc_id);
ANALYZE;

\echo
\echo The default, simhash(body), is version 8: documents where it differs (expect 0)
SELECT count(*) FILTER (WHERE simhash(d.body) IS DISTINCT FROM f.fp) AS differ
  FROM docs d JOIN fps f ON f.doc_id = d.doc_id AND f.config = 'v8';

\echo
\echo Labelled pairs per set, language and kind
SELECT d.set, d.lang, p.kind, p.label, count(*) FROM pairs p JOIN docs d ON d.doc_id = p.a
 GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 4 DESC, 3;

CREATE TABLE dist AS
SELECT f1.config, d.set, d.lang, p.kind, p.label, f1.fp <-> f2.fp AS d
  FROM pairs p JOIN docs d ON d.doc_id = p.a
  JOIN fps f1 ON f1.doc_id = p.a JOIN fps f2 ON f2.doc_id = p.b AND f2.config = f1.config;

\echo
\echo F1, precision and recall at k = 3, and the share of each kind of pair within 3 bits
\echo (recall for the positives, false matches for the negatives half and other)
SELECT config, set, lang,
       to_char(2.0 * tp / nullif(2 * tp + fp + (pos - tp), 0), 'FM0.000') AS "F1@3",
       to_char(tp::numeric / nullif(tp + fp, 0), 'FM0.000') AS "P@3",
       to_char(tp::numeric / pos, 'FM0.000') AS "R@3",
       (SELECT string_agg(kind || ' ' || to_char(h, 'FM0.00'), ', ' ORDER BY label DESC, kind)
          FROM (SELECT kind, label, avg((d <= 3)::int) AS h FROM dist x
                 WHERE x.config = s.config AND x.set = s.set AND x.lang = s.lang GROUP BY 1, 2) k) AS "within 3"
  FROM (SELECT config, set, lang,
               count(*) FILTER (WHERE label = 1 AND d <= 3) AS tp,
               count(*) FILTER (WHERE label = 0 AND d <= 3) AS fp,
               count(*) FILTER (WHERE label = 1) AS pos
          FROM dist GROUP BY 1, 2, 3) s
 ORDER BY set, lang, config;

-- (lengths computed once: in a subquery they were computed again for each
-- of the million pairs, each time detoasting two long texts)
CREATE TABLE long_length AS SELECT doc_id, lang, source, length(body) AS length FROM long;
ANALYZE long_length;

\echo
\echo Long documents: pairs of the same language, and those within 3 bits
SELECT f1.config, a.lang, count(*) AS pairs,
       count(*) FILTER (WHERE a.length >= 30000 AND b.length >= 30000) AS "pairs >= 30k",
       count(*) FILTER (WHERE f1.fp <-> f2.fp <= 3) AS "within 3",
       round(avg(f1.fp <-> f2.fp), 1) AS "mean distance"
  FROM long_length a
  JOIN long_length b ON a.lang = b.lang AND a.doc_id < b.doc_id
  JOIN lfps f1 ON f1.doc_id = a.doc_id JOIN lfps f2 ON f2.doc_id = b.doc_id AND f2.config = f1.config
 GROUP BY 1, 2 ORDER BY 2, 1;

\echo
\echo Near-duplicates of long documents (bench/make_long_near_duplicates.py): the share
\echo within 3 bits of the original per perturbation (half: a negative, the first half)
SELECT config, lang, source, max(n) AS documents,
       string_agg(variant || ' ' || to_char(within, 'FM0.00'), ', ' ORDER BY variant <> 'half', variant) AS "within 3"
  FROM (SELECT o.config, n.lang, n.source, n.variant, count(*) AS n, avg((o.fp <-> v.fp <= 3)::int) AS within
          FROM long_near n
          JOIN long_near orig ON orig.base = n.base AND orig.source = n.source AND orig.variant = 'original'
          JOIN nfps o ON o.id = orig.id JOIN nfps v ON v.id = n.id AND v.config = o.config
         WHERE n.variant <> 'original' GROUP BY 1, 2, 3, 4) s
 GROUP BY 1, 2, 3 ORDER BY 2, 3, 1;
\copy (SELECT f1.config, a.doc_id, b.doc_id, a.lang, (a.length >= 30000 AND b.length >= 30000), CASE WHEN a.source = b.source THEN a.lang || '/' || a.source ELSE '-' END FROM long_length a JOIN long_length b ON a.lang = b.lang AND a.doc_id < b.doc_id JOIN lfps f1 ON f1.doc_id = a.doc_id JOIN lfps f2 ON f2.doc_id = b.doc_id AND f2.config = f1.config WHERE f1.fp <-> f2.fp <= 3) TO '$WORK/q/close.txt'
\copy (SELECT lang, count(*) * (count(*) - 1) / 2 FROM long GROUP BY 1 UNION ALL SELECT lang || '/' || source, count(*) * (count(*) - 1) / 2 FROM long GROUP BY lang, source) TO '$WORK/q/npairs.txt'
SQL

say "unrelated long documents within 3 bits (word 5-shingle Jaccard < 0.1)"
# close.txt: config a b lang both>=30k lang/source-or-"-"; jaccard.py reads
# the first two columns as the pair and appends the Jaccard similarity and
# the shared running text (the larger of the two documents' shares of
# shingle occurrences the other has: a passage repeated, such as a licence,
# counts each time).  Each pair counts for its language, and a pair of one
# source (man, copyright, ...) for that source too.  The last column counts
# the unrelated pairs that still share a fifth of one document's running
# text; the default's pairs are listed after the table.
awk '{print $2, $3, $1, $4, $5, $6}' "$WORK/q/close.txt" \
    | python3 "$REPO_ROOT/bench/jaccard.py" "$WORK/q/long.tsv" > "$WORK/q/close_jaccard.txt"
awk -v npairs="$WORK/q/npairs.txt" '
        BEGIN { while ((getline line < npairs) > 0) { split(line, f, "\t"); pairs[f[1]] = f[2] } }
        $7 < 0.1 {
            n[$3 " " $4]++; if ($5 == "t") big[$3 " " $4]++; if ($8 >= 0.2) shared[$3 " " $4]++
            if ($6 != "-") { n[$3 " " $6]++; if ($5 == "t") big[$3 " " $6]++; if ($8 >= 0.2) shared[$3 " " $6]++ }
        }
        END {
            printf "%-10s %-22s %12s %10s %14s %12s %16s\n", "config", "lang[/source]", "pairs", "unrelated", "per million", ">= 30k both", "sharing >= 20 %"
            nc = split("v6 v7 v8", cs, " ")
            for (i = 1; i <= nc; i++) for (l in pairs) {
                k = cs[i] " " l
                printf "%-10s %-22s %12d %10d %14.1f %12d %16d\n", cs[i], l, pairs[l], n[k], 1e6 * n[k] / pairs[l], big[k], shared[k]
            }
        }' "$WORK/q/close_jaccard.txt" | sort -k1,1 -k2,2
echo
echo "the default's (v8) unrelated pairs: doc_id a, b, source, Jaccard, shared running text"
awk '$3 == "v8" && $7 < 0.1 { print "  " $1, $2, $6, $7, $8 }' "$WORK/q/close_jaccard.txt" | sort -n
