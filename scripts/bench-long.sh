#!/usr/bin/env bash
# Unrelated long documents within 3 bits, on a set of long documents given
# as packages (not part of the test suite): issue 13's check of a weighting
# on real long documents it was not tuned on.  The packages are installed,
# bench/collect_long_documents.py takes every text of 8,000 characters or
# more from their files (manual pages as roff source without markup and as
# man renders them with RENDERED=1, HTML pages as text, .txt/.md/.rst files), and for
# algorithm versions 6, 7 and 8 this counts, per language and source, the
# pairs within 3 bits whose word 5-shingle Jaccard similarity is under 0.1
# (bench/jaccard.py), per million pairs, and those among documents of 30,000
# characters or more; then lists the default's pairs.  Pairs are taken
# within one language (every source), and counted per source too.
#
# Usage: sudo scripts/bench-long.sh PACKAGE...
#   e.g. sudo scripts/bench-long.sh tmux mutt nmap gnupg rsync lftp mpv samba-common-bin
# Honours PG_CONFIG like scripts/test.sh; RENDERED=1 adds each manual page
# as man renders it (a second copy: count those sets apart); LONG_TSV=FILE
# scores that file (bench-quality's long.tsv columns) instead of collecting.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
require_root "$@"
[ $# -gt 0 ] || [ -n "${LONG_TSV:-}" ] || die "usage: scripts/bench-long.sh PACKAGE..."
install_deps
install_packages man-db groff-base bsdextrautils
[ $# -eq 0 ] || install_packages "$@"
make_workdir
build_install
start_cluster "-c shared_buffers=256MB -c max_parallel_workers_per_gather=0"
mkdir -p "$WORK/l"
if [ -n "${LONG_TSV:-}" ]; then
    cp "$LONG_TSV" "$WORK/l/long.tsv"
else
    say "collecting the long documents of: $*"
    python3 "$REPO_ROOT/bench/collect_long_documents.py" ${RENDERED:+--rendered} "$WORK/l/long.tsv" "$@"
fi
chown -R "$RUN_USER" "$WORK/l"

say "fingerprinting (versions 6, 7, 8) and pairing"
psql_ <<SQL
CREATE EXTENSION simhash;
CREATE TABLE long (doc_id int PRIMARY KEY, lang text, source text, body text);
\copy long FROM '$WORK/l/long.tsv'
CREATE TABLE lfps AS
  SELECT v, doc_id, lang, source, length(body) AS length,
         simhash(body, 'words', version => v) AS fp
    FROM long, (VALUES (6), (7), (8)) versions(v);
\copy (SELECT 'v' || a.v, a.doc_id, b.doc_id, a.lang, CASE WHEN a.source = b.source THEN a.lang || '/' || a.source ELSE '-' END, a.length >= 30000 AND b.length >= 30000 FROM lfps a JOIN lfps b ON a.v = b.v AND a.lang = b.lang AND a.doc_id < b.doc_id WHERE a.fp <-> b.fp <= 3) TO '$WORK/l/close.txt'
\copy (SELECT lang, count(*), count(*) * (count(*) - 1) / 2 FROM long GROUP BY 1 UNION ALL SELECT lang || '/' || source, count(*), count(*) * (count(*) - 1) / 2 FROM long GROUP BY lang, source) TO '$WORK/l/npairs.txt'
SQL

say "unrelated long documents within 3 bits (word 5-shingle Jaccard < 0.1)"
# close.txt: version a b lang lang/source-or-"-" both>=30k; jaccard.py
# appends the Jaccard similarity and the shared running text.  A pair counts
# for its language, and a pair of one source for that source too.
awk '{print $2, $3, $1, $4, $5, $6}' "$WORK/l/close.txt" \
    | python3 "$REPO_ROOT/bench/jaccard.py" "$WORK/l/long.tsv" > "$WORK/l/close_jaccard.txt"
awk -v npairs="$WORK/l/npairs.txt" '
        BEGIN { while ((getline line < npairs) > 0) { split(line, f, "\t"); docs[f[1]] = f[2]; pairs[f[1]] = f[3] } }
        function count(k) { close3[k]++; if ($7 < 0.1) { n[k]++; if ($6 == "t") big[k]++ } }
        { count($3 " " $4); if ($5 != "-") count($3 " " $5) }
        END {
            for (l in pairs) for (v = 6; v <= 8; v++) {
                k = "v" v " " l
                printf "%-8s %-20s %10d %12d %10d %10d %12.1f %12d\n", "v" v, l, docs[l], pairs[l], close3[k], n[k], pairs[l] ? 1e6 * n[k] / pairs[l] : 0, big[k]
            }
        }' "$WORK/l/close_jaccard.txt" | sort -k2,2 -k1,1 > "$WORK/l/table.txt"
printf "%-8s %-20s %10s %12s %10s %10s %12s %12s\n" version "lang[/source]" documents pairs "within 3" unrelated "per million" ">= 30k both"
cat "$WORK/l/table.txt"
echo
echo "the default's (v8) unrelated pairs: doc_id a, b, lang/source (- across sources), Jaccard, shared running text, start of each"
awk '$3 == "v8" && $7 < 0.1 { print $1, $2, $5, $7, $8 }' "$WORK/l/close_jaccard.txt" | sort -n \
    | while read -r a b src j s; do
        printf '  %s %s %s %s %s | %s | %s\n' "$a" "$b" "$src" "$j" "$s" \
            "$(awk -F'\t' -v id="$a" '$1 == id { print substr($4, 1, 50) }' "$WORK/l/long.tsv")" \
            "$(awk -F'\t' -v id="$b" '$1 == id { print substr($4, 1, 50) }' "$WORK/l/long.tsv")"
    done
