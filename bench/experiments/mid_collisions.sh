#!/usr/bin/env bash
# Experiment of session 20 (branch nocap20, not part of the product): unrelated
# manual pages of 2-4 kB and 4-8 kB within 3 bits, under two builds loaded
# side by side as functions s5_sh(text) (main) and nc5_sh(text) (this
# branch: no cap table).  Needs a server with both functions (each build's
# simhash_text loaded from its own .so, as scripts/bench-dual.sh does) and
# the manpages package.
# Usage: PSQL="psql -h HOST -p PORT -U USER" bench/experiments/mid_collisions.sh
set -euo pipefail
D=$(mktemp -d); chmod 755 "$D"
here=$(cd "$(dirname "$0")" && pwd)
python3 "$here/mid_man_pages.py" 2000 4000 1200 "$D/mid24.tsv"
python3 "$here/mid_man_pages.py" 4000 8000 1200 "$D/mid48.tsv"
chmod 644 "$D"/*.tsv
$PSQL -X -q <<SQL
DROP TABLE IF EXISTS mid, midfp;
CREATE TABLE mid (doc_id int, body text, sz text);
CREATE TEMP TABLE m1 (doc_id int, body text); \copy m1 FROM '$D/mid24.tsv'
INSERT INTO mid SELECT doc_id, body, '2-4k' FROM m1;
CREATE TEMP TABLE m2 (doc_id int, body text); \copy m2 FROM '$D/mid48.tsv'
INSERT INTO mid SELECT doc_id + 10000, body, '4-8k' FROM m2;
CREATE TABLE midfp AS SELECT doc_id, sz, s5_sh(body) AS main, nc5_sh(body) AS nocap FROM mid;
\copy (SELECT a.doc_id, b.doc_id, 'main' FROM midfp a JOIN midfp b ON a.sz = b.sz AND a.doc_id < b.doc_id WHERE a.main <-> b.main <= 3 UNION ALL SELECT a.doc_id, b.doc_id, 'nocap' FROM midfp a JOIN midfp b ON a.sz = b.sz AND a.doc_id < b.doc_id WHERE a.nocap <-> b.nocap <= 3) TO '$D/close.txt'
\copy (SELECT doc_id, 'x', 'x', body FROM mid) TO '$D/mid4.tsv'
SQL
python3 "$here/../jaccard.py" "$D/mid4.tsv" < "$D/close.txt" | awk -F'\t' '
  $4 < 0.1 { n[$3 " " ($1 < 10000 ? "2-4k" : "4-8k")]++ }
  END { for (k in n) printf "%s: %d unrelated pairs within 3 bits of 719,400\n", k, n[k] }'
rm -rf "$D"
