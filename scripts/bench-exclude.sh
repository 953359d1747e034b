#!/usr/bin/env bash
# Benchmark of near-duplicate exclusion and scoped search (issue 14), one run:
#
# 1. Insert rate with EXCLUDE USING simhash (simhash_ball(fp, 3) WITH <@>)
#    against the same table with a plain simhash index on fp (batched
#    inserts, the default, and simhash.batch_inserts = off): BENCH_ROWS rows
#    loaded, then BENCH_NEW new random rows (none within 3 of another)
#    inserted in one INSERT ... SELECT: plain, ON CONFLICT DO NOTHING, and
#    ON CONFLICT DO NOTHING with every row a near-duplicate (all skipped);
#    BENCH_REPEAT rounds, order alternating; median wall time, commit
#    included.  For scale, the same rows go into the table with no index,
#    with a btree index on fp, and with EXCLUDE USING btree (fp WITH =): the
#    core's floor, what any index and any exclusion constraint cost before
#    the index's own work.  Then one row per transaction, as a crawler or
#    a web app writes: pgbench clients inserting single random rows into
#    the plain index's table, the constrained one and the btree-constrained
#    one (transactions per second, ratio to the plain index per round).
# 2. The same on a crawler's table of pages: (id, url, body, fp GENERATED
#    ALWAYS AS (simhash(body)) STORED), BENCH_PAGES pages loaded, then
#    BENCH_PAGES_NEW new pages per round, each a random choice of paragraphs
#    of the Debian handbook (about 4 kB): what the constraint costs a whole
#    row, fingerprinting included, against the plain simhash index and no
#    index.  Mixtures of one book's paragraphs share its vocabulary (mean
#    distance 14 bits, not 32): about a quarter come within 3 bits of an
#    earlier page and are dropped first, so that every insert succeeds.
# 3. Scoped queries over BENCH_ROWS rows in 1,000 sites (90% random
#    fingerprints, 10% near-duplicates 1-6 bits from another row of the same
#    site): radius 3 (site_id = s AND fp <-> q <= 3, q a stored fingerprint
#    moved 0-3 bits) and top-10 (site_id = s ORDER BY fp <-> q LIMIT 10),
#    answered by a scoped index (site_id, fp), a single-column simhash index
#    on fp, and a btree on site_id, each alone (the others dropped inside a
#    rolled-back transaction); p50 and p95 of BENCH_QUERIES queries, and the
#    plan the planner picks when all three exist.
#   BENCH_ROWS     rows (default 10000000)
#   BENCH_NEW      rows inserted per round (default 100000)
#   BENCH_REPEAT   rounds (default 3)
#   BENCH_QUERIES  queries per method and kind (default 300)
#   BENCH_PAGES, BENCH_PAGES_NEW  pages loaded, and inserted per round
#                  (defaults 100000 and 20000)
#   BENCH_PARTS    which parts to run (default "inserts pages scoped")
#   BENCH_SINGLE_TX, BENCH_CLIENTS  the inserts part's one-row transactions
#                  per table and round, and pgbench clients (40000, 2)
#   PG_CONFIG      server to use; use an optimised, non-assert build
# Usage: sudo PG_CONFIG=/path/to/pg_config scripts/bench-exclude.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"
require_root "$@"
install_deps
make_workdir

ROWS=${BENCH_ROWS:-10000000}
NEW=${BENCH_NEW:-100000}
REPEAT=${BENCH_REPEAT:-3}
QUERIES=${BENCH_QUERIES:-300}
PAGES=${BENCH_PAGES:-100000}
PAGES_NEW=${BENCH_PAGES_NEW:-20000}
PARTS=${BENCH_PARTS:-inserts pages scoped}
SINGLE_TX=${BENCH_SINGLE_TX:-40000}
CLIENTS=${BENCH_CLIENTS:-2}

build_install COPT="-O2"
start_bench_cluster 3GB
cd "$WORK/src"

psql_ <<SQL
CREATE EXTENSION simhash;
\i bench/fingerprints.sql
-- The timings of the insert parts: each statement in a transaction of its
-- own, commit included, with simhash.batch_inserts set as given.
CREATE TABLE results (part text, method text, round int, ms double precision);
CREATE PROCEDURE timed(part text, method text, round int, setting text, stmt text)
LANGUAGE plpgsql AS \$\$
DECLARE
	t0 timestamptz;
BEGIN
	PERFORM set_config('simhash.batch_inserts', setting, true);
	t0 := clock_timestamp();
	EXECUTE stmt;
	COMMIT;
	INSERT INTO results VALUES (part, method, round, extract(epoch FROM clock_timestamp() - t0) * 1000);
	COMMIT;
END \$\$;
SQL

# One row per transaction, the way a crawler or a web app writes: pgbench
# clients (prepared statements) each insert one random fingerprint per
# transaction into t_plain, t_excl or t_btree_excl, SINGLE_TX transactions
# per table and round, order alternating; the rate is transactions per
# second, the ratio the median of the rounds' ratios to the plain index.
single_row_inserts() {
    say "inserts, one row per transaction: $REPEAT rounds of $SINGLE_TX transactions, $CLIENTS clients"
    local t f r tps
    for t in t_plain t_excl t_btree_excl; do
        # A random 64-bit value from two 32-bit halves (pgbench's random()
        # cannot span all of bigint).
        cat >"$WORK/single_$t.sql" <<PGB
\\set hi random(0, 4294967295)
\\set lo random(0, 4294967295)
\\set v (:hi - 2147483648) * 4294967296 + :lo
INSERT INTO $t VALUES ((:v)::bigint::simhash);
PGB
    done
    chmod 644 "$WORK"/single_*.sql
    psql_ -c "CREATE TABLE single_results (method text, round int, tps double precision)"
    for r in $(seq 1 "$REPEAT"); do
        if [ $((r % 2)) = 1 ]; then f="t_plain t_excl t_btree_excl"; else f="t_btree_excl t_excl t_plain"; fi
        for t in $f; do
            tps=$(as_user "$PG_BIN/pgbench" -n -M prepared -c "$CLIENTS" -j "$CLIENTS" \
                      -t $((SINGLE_TX / CLIENTS)) -f "$WORK/single_$t.sql" postgres \
                  | sed -n 's/^tps = \([0-9.]*\).*/\1/p')
            psql_ -c "INSERT INTO single_results VALUES ('$t', $r, $tps)"
        done
    done
    psql_ -P pager=off <<SQL
\pset format aligned
SELECT CASE m.method WHEN 't_plain' THEN 'plain simhash index'
                     WHEN 't_excl' THEN 'EXCLUDE USING simhash (simhash_ball(fp, 3) WITH <@>)'
                     ELSE 'core floor: EXCLUDE USING btree (fp WITH =)' END AS "one row per transaction",
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY m.tps)::numeric) AS "median rows/s",
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY m.tps / p.tps)::numeric, 2) AS "rate vs plain index"
  FROM single_results m JOIN single_results p ON p.round = m.round AND p.method = 't_plain'
 GROUP BY m.method ORDER BY 2 DESC;
SQL
}

if [[ " $PARTS " == *" inserts "* ]]; then
say "inserts: $ROWS rows loaded, $REPEAT rounds of $NEW new rows"
psql_ <<SQL
CREATE TABLE t_plain AS SELECT fp FROM gen('uniform', $ROWS) fp;
CREATE TABLE t_excl AS SELECT fp FROM t_plain;
CREATE TABLE t_none AS SELECT fp FROM t_plain;
CREATE TABLE t_btree AS SELECT fp FROM t_plain;
CREATE TABLE t_btree_excl AS SELECT fp FROM t_plain;
VACUUM (FREEZE, ANALYZE) t_plain, t_excl, t_none, t_btree, t_btree_excl;
CREATE INDEX t_plain_fp ON t_plain USING simhash (fp);
CREATE INDEX t_btree_fp ON t_btree (fp);
ALTER TABLE t_btree_excl ADD EXCLUDE USING btree (fp WITH =);
\timing on
ALTER TABLE t_excl ADD CONSTRAINT t_excl_near EXCLUDE USING simhash (simhash_ball(fp, 3) WITH <@>);
\timing off
SQL
for r in $(seq 1 "$REPEAT"); do
    # Two sets of new rows, each free of pairs within 3 and of rows within 3
    # of the table (random data has a few), so that every row is inserted.
    psql_ <<SQL
SET client_min_messages = warning;
DROP TABLE IF EXISTS new_a, new_b;
RESET client_min_messages;
CREATE TABLE new_a (fp simhash, EXCLUDE USING simhash (simhash_ball(fp, 3) WITH <@>));
CREATE TABLE new_b (fp simhash, EXCLUDE USING simhash (simhash_ball(fp, 3) WITH <@>));
INSERT INTO new_a SELECT fp FROM gen('uniform', $NEW) fp ON CONFLICT DO NOTHING;
INSERT INTO new_b SELECT fp FROM gen('uniform', $NEW) fp ON CONFLICT DO NOTHING;
DELETE FROM new_b n WHERE EXISTS (SELECT FROM new_a a WHERE simhash_ball(a.fp, 3) <@> simhash_ball(n.fp, 3));
DELETE FROM new_a n WHERE EXISTS (SELECT FROM t_excl t WHERE simhash_ball(t.fp, 3) <@> simhash_ball(n.fp, 3));
DELETE FROM new_b n WHERE EXISTS (SELECT FROM t_excl t WHERE simhash_ball(t.fp, 3) <@> simhash_ball(n.fp, 3));
SQL
    p="CALL timed('inserts', 'plain simhash index (batched)', $r, 'on', 'INSERT INTO t_plain SELECT fp FROM new_a')"
    u="CALL timed('inserts', 'plain simhash index (batch_inserts off)', $r, 'off', 'INSERT INTO t_plain SELECT fp FROM new_b')"
    e="CALL timed('inserts', 'exclusion constraint', $r, 'on', 'INSERT INTO t_excl SELECT fp FROM new_a')"
    o="CALL timed('inserts', 'exclusion, ON CONFLICT DO NOTHING, new rows', $r, 'on', 'INSERT INTO t_excl SELECT fp FROM new_b ON CONFLICT DO NOTHING')"
    d="CALL timed('inserts', 'exclusion, ON CONFLICT DO NOTHING, all near-duplicates', $r, 'on', 'INSERT INTO t_excl SELECT flip(fp, 1) FROM new_a ON CONFLICT DO NOTHING')"
    n="CALL timed('inserts', 'core floor: no index', $r, 'on', 'INSERT INTO t_none SELECT fp FROM new_a')"
    b="CALL timed('inserts', 'core floor: btree index', $r, 'on', 'INSERT INTO t_btree SELECT fp FROM new_a')"
    x="CALL timed('inserts', 'core floor: EXCLUDE USING btree (fp WITH =)', $r, 'on', 'INSERT INTO t_btree_excl SELECT fp FROM new_a')"
    if [ $((r % 2)) = 1 ]; then psql_ -c "$p" -c "$u" -c "$e" -c "$o" -c "$d" -c "$n" -c "$b" -c "$x"
    else psql_ -c "$x" -c "$b" -c "$n" -c "$o" -c "$e" -c "$d" -c "$u" -c "$p"; fi
done
psql_ -P pager=off <<SQL
\pset format aligned
WITH m AS (SELECT method, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS ms FROM results
            WHERE part = 'inserts' GROUP BY 1)
SELECT m.method, round(m.ms::numeric) AS "median ms", round(((SELECT count(*) FROM new_a) / m.ms * 1000)::numeric) AS "rows/s",
       round((p.ms / m.ms)::numeric, 2) AS "rate vs plain (batched)",
       round((u.ms / m.ms)::numeric, 2) AS "rate vs plain (unbatched)"
  FROM m, m p, m u
 WHERE p.method = 'plain simhash index (batched)' AND u.method = 'plain simhash index (batch_inserts off)'
 ORDER BY 2;
SELECT count(*) AS "excl rows", (SELECT count(*) FROM t_plain) AS "plain rows" FROM t_excl;
SQL
single_row_inserts
psql_ -c "DROP TABLE t_plain, t_excl, t_none, t_btree, t_btree_excl, new_a, new_b"
fi

if [[ " $PARTS " == *" pages "* ]]; then
say "pages: $PAGES pages loaded, $REPEAT rounds of $PAGES_NEW new pages"
install_packages debian-handbook python3
# Set 0 is loaded first; set r is inserted in round r.  A page is 4 kB of
# paragraphs drawn at random from the English handbook (fixed seed).
REPO_ROOT="$REPO_ROOT" python3 - "$WORK/pages.tsv" "$PAGES" "$PAGES_NEW" "$REPEAT" <<'PY'
import os, random, sys
sys.path.insert(0, os.path.join(os.environ['REPO_ROOT'], 'bench'))
import make_near_duplicates as m
out, loaded, new, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
paras = [p.replace('\\', ' ').replace('\t', ' ').replace('\n', ' ')
         for page in m.handbook_pages('en-US', 1) for p in page]
paras = [p for p in paras if len(p) >= 80]
rng = random.Random(14)
with open(out, 'w', encoding='utf-8') as f:
    for s, n in [(0, loaded)] + [(r, new) for r in range(1, rounds + 1)]:
        for i in range(n):
            body, size = [], 0
            while size < 4096:
                p = rng.choice(paras)
                body.append(p)
                size += len(p) + 2
            f.write('%d\thttps://example.org/%d/%d\t%s\n' % (s, s, i, '\\n\\n'.join(body)))
PY
chmod 644 "$WORK/pages.tsv"
psql_ <<SQL
CREATE UNLOGGED TABLE page_src (set int, url text, body text);
\\copy page_src FROM '$WORK/pages.tsv'
-- Real pages of one genre come within 3 bits now and then: keep only the
-- first of each such group, so that every insert below succeeds.
CREATE TABLE page_keep (url text, fp simhash, EXCLUDE USING simhash (simhash_ball(fp, 3) WITH <@>));
INSERT INTO page_keep SELECT url, simhash(body) FROM page_src ORDER BY set, url ON CONFLICT DO NOTHING;
DELETE FROM page_src s WHERE NOT EXISTS (SELECT FROM page_keep k WHERE k.url = s.url);
SELECT set, count(*) AS pages FROM page_src GROUP BY 1 ORDER BY 1;
DROP TABLE page_keep;
CREATE TABLE pages_none (id bigserial PRIMARY KEY, url text, body text,
                         fp simhash GENERATED ALWAYS AS (simhash(body)) STORED);
CREATE TABLE pages_plain (LIKE pages_none INCLUDING ALL);
CREATE TABLE pages_excl (LIKE pages_none INCLUDING ALL);
INSERT INTO pages_none (url, body) SELECT url, body FROM page_src WHERE set = 0;
INSERT INTO pages_plain (url, body) SELECT url, body FROM pages_none;
INSERT INTO pages_excl (url, body) SELECT url, body FROM pages_none;
CREATE INDEX ON pages_plain USING simhash (fp);
ALTER TABLE pages_excl ADD EXCLUDE USING simhash (simhash_ball(fp, 3) WITH <@>);
VACUUM (FREEZE, ANALYZE) page_src, pages_none, pages_plain, pages_excl;
SQL
for r in $(seq 1 "$REPEAT"); do
    q="SELECT url, body FROM page_src WHERE set = $r"
    p="CALL timed('pages', 'plain simhash index', $r, 'on', 'INSERT INTO pages_plain (url, body) $q')"
    e="CALL timed('pages', 'exclusion constraint', $r, 'on', 'INSERT INTO pages_excl (url, body) $q')"
    n="CALL timed('pages', 'no simhash index', $r, 'on', 'INSERT INTO pages_none (url, body) $q')"
    if [ $((r % 2)) = 1 ]; then psql_ -c "$p" -c "$e" -c "$n"
    else psql_ -c "$n" -c "$e" -c "$p"; fi
done
psql_ -P pager=off <<SQL
\pset format aligned
WITH m AS (SELECT method, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS ms FROM results
            WHERE part = 'pages' GROUP BY 1)
SELECT m.method, round(m.ms::numeric) AS "median ms",
       round(((SELECT count(*) FROM page_src WHERE set > 0) / $REPEAT / m.ms * 1000)::numeric) AS "pages/s",
       round((p.ms / m.ms)::numeric, 2) AS "rate vs plain simhash index"
  FROM m, m p WHERE p.method = 'plain simhash index' ORDER BY 2;
SELECT (SELECT count(*) FROM pages_excl) AS "excl pages", (SELECT count(*) FROM pages_plain) AS "plain pages",
       (SELECT count(*) FROM pages_none) AS "pages without index";
SQL
psql_ -c "DROP TABLE page_src, pages_none, pages_plain, pages_excl"
fi

[[ " $PARTS " == *" scoped "* ]] || exit 0

say "scoped queries: $ROWS rows in 1,000 sites, $QUERIES queries per method"
psql_ <<SQL
CREATE TABLE sites AS
SELECT floor(random() * 1000)::int AS site_id, rand_fp() AS fp
  FROM generate_series(1, ($ROWS * 0.9)::bigint);
INSERT INTO sites
SELECT site_id, flip(fp, 1 + (random() * 5)::int) FROM sites TABLESAMPLE BERNOULLI (11.1);
VACUUM (FREEZE, ANALYZE) sites;
\timing on
CREATE INDEX sites_scoped ON sites USING simhash (site_id, fp);
CREATE INDEX sites_fp ON sites USING simhash (fp);
CREATE INDEX sites_btree ON sites (site_id);
\timing off
ANALYZE sites;
SELECT pg_size_pretty(pg_relation_size('sites_scoped')) AS scoped, pg_size_pretty(pg_relation_size('sites_fp')) AS fp,
       pg_size_pretty(pg_relation_size('sites_btree')) AS btree;
CREATE TABLE queries AS
SELECT row_number() OVER () AS n, site_id, flip(fp, (random() * 3)::int) AS q
  FROM sites TABLESAMPLE SYSTEM (1) ORDER BY random() LIMIT $QUERIES;
CREATE TABLE qtimes (method text, kind text, n bigint, ms double precision, found bigint);
-- Runs every query of one kind, recording the executor's wall time.
CREATE PROCEDURE run_queries(method text, kind text) LANGUAGE plpgsql AS \$\$
DECLARE
	r record;
	t0 timestamptz;
	c bigint;
BEGIN
	FOR r IN SELECT * FROM queries ORDER BY n LOOP
		t0 := clock_timestamp();
		IF kind = 'radius 3' THEN
			SELECT count(*) INTO c FROM sites WHERE site_id = r.site_id AND fp <-> r.q <= 3;
		ELSE
			SELECT count(*) INTO c FROM (SELECT fp <-> r.q FROM sites WHERE site_id = r.site_id
			                              ORDER BY fp <-> r.q LIMIT 10) t;
		END IF;
		INSERT INTO qtimes VALUES (method, kind, r.n, extract(epoch FROM clock_timestamp() - t0) * 1000, c);
	END LOOP;
END \$\$;
SQL
for m in sites_scoped sites_fp sites_btree; do
    others=$(echo sites_scoped sites_fp sites_btree | tr ' ' '\n' | grep -v "^$m$" | paste -sd, -)
    for kind in 'radius 3' 'top-10'; do
        # Warm the index and the heap once, then measure, with only index $m.
        psql_ <<SQL
BEGIN;
DROP INDEX $others;
CALL run_queries('warm-up', '$kind');
ROLLBACK;
BEGIN;
DROP INDEX $others;
CALL run_queries('$m', '$kind');
\\copy (SELECT * FROM qtimes WHERE method = '$m' AND kind = '$kind') TO 'qtimes.csv' csv
ROLLBACK;
\\copy qtimes FROM 'qtimes.csv' csv
SQL
    done
done
psql_ -P pager=off <<SQL
\pset format aligned
SELECT kind, method,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 3) AS "p50 ms",
       round(percentile_cont(0.95) WITHIN GROUP (ORDER BY ms)::numeric, 3) AS "p95 ms",
       sum(found) AS "rows found"
  FROM qtimes WHERE method <> 'warm-up' GROUP BY 1, 2 ORDER BY 1, 3;
SELECT a.kind, count(*) FILTER (WHERE a.found <> b.found) AS "scoped differs from btree"
  FROM qtimes a JOIN qtimes b USING (kind, n)
 WHERE a.method = 'sites_scoped' AND b.method = 'sites_btree' GROUP BY 1;
-- The planner's choice with all three indexes.
EXPLAIN (COSTS OFF) SELECT count(*) FROM sites WHERE site_id = 7 AND fp <-> '0123456789abcdef' <= 3;
EXPLAIN (COSTS OFF) SELECT fp <-> '0123456789abcdef' FROM sites WHERE site_id = 7
 ORDER BY fp <-> '0123456789abcdef' LIMIT 10;
SQL
