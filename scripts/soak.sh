#!/usr/bin/env bash
# Soak test of the simhash index, created on an empty table and loaded with
# ROWS rows through inserts: pgbench clients insert (uniform, skewed and
# duplicate-heavy fingerprints; into a second table, nothing but
# duplicates of three values; into a third, under a per-site near-duplicate
# exclusion constraint with ON CONFLICT DO NOTHING), update, delete, and run radius and k-NN
# queries that compare the index's answer with a sequential scan's in the same
# snapshot, while a loop runs VACUUM and simhash_index_check.  At the end: a
# last round of comparisons with no writers, the check, and the index's size
# against a fresh build over a copy of the table.  It passes with zero
# differences, zero errors, an index within 2x of the fresh one, and no two
# rows of one site within 3 bits in the constrained table (simhash_pairs,
# which reads the table, not the index).
# Usage: sudo scripts/soak.sh
#
# Environment (besides lib.sh's PG_CONFIG, KEEP_WORK):
#   DURATION  seconds of pgbench (default 600)
#   CLIENTS   pgbench clients (default 4)
#   ROWS      rows loaded before the index is built (default 20000)
#   DUPS      share of new fingerprints that are exact or near duplicates of
#             three values (default 0.3); the rest are half uniform, half
#             clustered around 16 centers
#   MAINT_EVERY  seconds between VACUUM + simhash_index_check (default 20)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
require_root "$@"

DURATION=${DURATION:-600}
CLIENTS=${CLIENTS:-4}
ROWS=${ROWS:-20000}
DUPS=${DUPS:-0.3}
MAINT_EVERY=${MAINT_EVERY:-20}

install_deps
make_workdir
build_install
start_cluster "-c max_parallel_workers_per_gather=0 -c jit=off -c log_lock_waits=on -c deadlock_timeout=5s"

say "creating the index, loading $ROWS rows (duplicate share $DUPS)"
psql_ <<SQL
CREATE EXTENSION simhash;
CREATE FUNCTION rand_fp() RETURNS simhash LANGUAGE sql VOLATILE
    AS \$\$ SELECT ((floor(random() * 4294967296)::bigint << 32)
                  | floor(random() * 4294967296)::bigint)::simhash \$\$;
-- up to n random bits flipped
CREATE FUNCTION flip(fp simhash, n integer) RETURNS simhash LANGUAGE sql VOLATILE
    AS \$\$ SELECT (fp::bigint # coalesce(bit_or(1::bigint << floor(random() * 64)::int), 0))::simhash
            FROM generate_series(1, n) \$\$;
CREATE TABLE soak_centers (i int PRIMARY KEY, c simhash NOT NULL);
INSERT INTO soak_centers SELECT i, rand_fp() FROM generate_series(0, 15) i;
-- the duplicate-heavy values: all ones, all zeros, one boilerplate page
CREATE TABLE soak_dups (i int PRIMARY KEY, c simhash NOT NULL);
INSERT INTO soak_dups VALUES (0, 'ffffffffffffffff'), (1, '0000000000000000'), (2, rand_fp());

-- A new row's fingerprint: a share $DUPS of duplicates (exact copies of the
-- three values, or near copies of the boilerplate page), the rest half
-- uniform, half within 6 bits of one of 16 centers.
CREATE FUNCTION soak_new_fp() RETURNS simhash LANGUAGE plpgsql VOLATILE AS \$\$
DECLARE p float8 := random(); k int := floor(random() * 16)::int;
BEGIN
    IF p < $DUPS * 0.7 THEN
        RETURN (SELECT c FROM soak_dups WHERE i = k % 3);
    ELSIF p < $DUPS THEN
        RETURN flip((SELECT c FROM soak_dups WHERE i = 2), 1 + floor(random() * 2)::int);
    ELSIF p < $DUPS + (1 - $DUPS) / 2 THEN
        RETURN rand_fp();
    ELSE
        RETURN flip((SELECT c FROM soak_centers WHERE i = k),
                    floor(random() * 7)::int);
    END IF;
END \$\$;
-- A row of soak_dupes: only copies of the three values, or near copies of the page.
CREATE FUNCTION soak_dup_fp() RETURNS simhash LANGUAGE sql VOLATILE AS \$\$
    SELECT CASE WHEN random() < 0.7 THEN (SELECT c FROM soak_dups WHERE i = k)
                ELSE flip((SELECT c FROM soak_dups WHERE i = 2), 1 + k % 2) END
      FROM (SELECT floor(random() * 3)::int AS k) r \$\$;
-- A query center: a new row's fingerprint with a few more bits flipped.
CREATE FUNCTION soak_query_fp() RETURNS simhash LANGUAGE sql VOLATILE
    AS \$\$ SELECT flip(soak_new_fp(), floor(random() * 4)::int) \$\$;

-- The index exists before the load, as for a table that grows from empty:
-- every row goes through aminsert (the bulk build is the fresh one at the end).
CREATE TABLE soak (id bigserial PRIMARY KEY, fp simhash, note text);
CREATE INDEX soak_fp ON soak USING simhash (fp);
INSERT INTO soak (fp, note)
SELECT CASE WHEN random() < 0.01 THEN NULL ELSE soak_new_fp() END, 'load'
  FROM generate_series(1, $ROWS);
ANALYZE soak;
-- A table of nothing but duplicates, filled by its own clients (the worst
-- case of a dominant value: no other value to spread the directory).
CREATE TABLE soak_dupes (id bigserial PRIMARY KEY, fp simhash);
CREATE INDEX soak_dupes_fp ON soak_dupes USING simhash (fp);
-- Near-duplicates kept out per site (the check made while inserting, and its
-- fall-backs: overflow chains of the duplicate-heavy values, waits for
-- concurrent inserters of near-duplicates).  One row per transaction: two
-- transactions of several rows each can wait for each other's rows, and the
-- core then reports a deadlock, which is no fault of the index.
CREATE TABLE soak_excl (id bigserial PRIMARY KEY, site int NOT NULL, fp simhash NOT NULL,
    CONSTRAINT soak_excl_near EXCLUDE USING simhash (site WITH =, simhash_ball(fp, 3) WITH <@>));

CREATE TABLE soak_diff (at timestamptz DEFAULT clock_timestamp(), kind text, q simhash,
                        arg integer, by_index text, by_seqscan text);
CREATE SEQUENCE soak_checks;

-- Runs query \$1 (parameters q, arg) first with only the index allowed
-- (index scan or, one time in two, bitmap scan), then with only a
-- sequential scan, in the caller's snapshot (REPEATABLE READ), and records a
-- difference.
CREATE FUNCTION soak_compare(kind text, query text, q simhash, arg integer) RETURNS void
LANGUAGE plpgsql AS \$\$
DECLARE by_index text; by_seqscan text; bitmap boolean := kind = 'radius' AND random() < 0.5;
BEGIN
    PERFORM set_config('enable_seqscan', 'off', true);
    PERFORM set_config('enable_indexscan', (NOT bitmap)::text, true);
    PERFORM set_config('enable_bitmapscan', bitmap::text, true);
    EXECUTE query INTO by_index USING q, arg;
    PERFORM set_config('enable_seqscan', 'on', true);
    PERFORM set_config('enable_indexscan', 'off', true);
    PERFORM set_config('enable_bitmapscan', 'off', true);
    EXECUTE query INTO by_seqscan USING q, arg;
    PERFORM nextval('soak_checks');
    IF by_index IS DISTINCT FROM by_seqscan THEN
        INSERT INTO soak_diff (kind, q, arg, by_index, by_seqscan) VALUES (kind, q, arg, by_index, by_seqscan);
    END IF;
END \$\$;

-- Radius: the sorted ids within r, in table t.
CREATE FUNCTION soak_radius(t text DEFAULT 'soak') RETURNS void LANGUAGE sql AS \$\$
    SELECT soak_compare('radius',
        format('SELECT coalesce(array_agg(id ORDER BY id), ''{}'')::text FROM %I WHERE fp <@ simhash_ball(\$1, \$2)', t),
        soak_query_fp(), floor(random() * 11)::int) \$\$;
-- k-NN: the distances in the order returned, and the sorted ids strictly
-- nearer than the last one (ties at the last distance may be cut anywhere).
CREATE FUNCTION soak_knn() RETURNS void LANGUAGE sql AS \$\$
    SELECT soak_compare('knn',
        'SELECT coalesce(array_agg(d ORDER BY o), ''{}'')::text || '' '' ||
                coalesce(array_agg(id ORDER BY id) FILTER (WHERE d < last), ''{}'')::text
           FROM (SELECT d, id, o, max(d) OVER () AS last
                   FROM (SELECT (fp <-> \$1)::integer AS d, id, row_number() OVER () AS o
                           FROM (SELECT fp, id FROM soak WHERE fp IS NOT NULL
                                  ORDER BY fp <-> \$1 LIMIT \$2) y) x) s',
        soak_query_fp(), CASE WHEN random() < 0.1 THEN 500 ELSE 1 + floor(random() * 30)::int END) \$\$;
SQL

# The plans the comparisons rely on.
plans=$(psql_ -At <<'SQL'
SET enable_seqscan = off; SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM soak WHERE fp <@ simhash_ball('0123456789abcdef', 3);
EXPLAIN (COSTS OFF) SELECT id FROM soak ORDER BY fp <-> '0123456789abcdef' LIMIT 5;
SQL
)
[ "$(grep -c 'Index Scan using soak_fp' <<<"$plans")" -eq 2 ] \
    || { echo "$plans"; die "the index is not used by the comparisons' index side"; }

cat > "$WORK/insert.sql" <<'SQL'
INSERT INTO soak (fp, note) SELECT soak_new_fp(), 'insert' FROM generate_series(1, 1 + floor(random() * 5)::int);
SQL
cat > "$WORK/dupes.sql" <<'SQL'
INSERT INTO soak_dupes (fp) SELECT soak_dup_fp() FROM generate_series(1, 1 + floor(random() * 10)::int);
SQL
cat > "$WORK/excl.sql" <<'SQL'
INSERT INTO soak_excl (site, fp) VALUES (floor(random() * 4)::int, soak_new_fp()) ON CONFLICT DO NOTHING;
SQL
cat > "$WORK/excl_delete.sql" <<'SQL'
WITH f AS (SELECT 1 + floor(random() * last_value)::bigint AS id FROM soak_excl_id_seq)
DELETE FROM soak_excl USING f WHERE soak_excl.id BETWEEN f.id AND f.id + 3;
SQL
cat > "$WORK/update.sql" <<'SQL'
UPDATE soak SET fp = CASE WHEN random() < 0.5 THEN soak_new_fp() ELSE flip(fp, 2) END, note = 'update'
 WHERE id = (SELECT 1 + floor(random() * last_value)::bigint FROM soak_id_seq);
SQL
cat > "$WORK/delete.sql" <<'SQL'
WITH f AS (SELECT 1 + floor(random() * last_value)::bigint AS id FROM soak_id_seq)
DELETE FROM soak USING f WHERE soak.id BETWEEN f.id AND f.id + 3;
SQL
printf 'BEGIN ISOLATION LEVEL REPEATABLE READ;\nSELECT soak_radius();\nCOMMIT;\n' > "$WORK/radius.sql"
printf 'BEGIN ISOLATION LEVEL REPEATABLE READ;\nSELECT soak_knn();\nCOMMIT;\n' > "$WORK/knn.sql"
chown "$RUN_USER" "$WORK"/*.sql

# VACUUM and the check, every MAINT_EVERY seconds until pgbench ends.
maintenance() {
    local n=0 failed=0
    while [ ! -f "$WORK/pgbench.done" ]; do
        sleep "$MAINT_EVERY"
        n=$((n + 1))
        psql_ -c 'VACUUM soak, soak_dupes, soak_excl' >>"$WORK/maint.log" 2>&1 || failed=$((failed + 1))
        psql_ -At -c "SELECT simhash_index_check('soak_fp'), simhash_index_check('soak_dupes_fp'),
                             simhash_index_check('soak_excl_near')" \
            >>"$WORK/maint.log" 2>&1 || failed=$((failed + 1))
    done
    echo "$n $failed" > "$WORK/maint.result"
}

say "pgbench: $CLIENTS clients for $DURATION s, VACUUM and simhash_index_check every $MAINT_EVERY s"
maintenance &
maint_pid=$!
pgbench_status=0
as_user "$PG_BIN/pgbench" -n -c "$CLIENTS" -j "$CLIENTS" -T "$DURATION" -P 60 \
    -f "$WORK/insert.sql@30" -f "$WORK/update.sql@15" -f "$WORK/delete.sql@10" \
    -f "$WORK/radius.sql@30" -f "$WORK/knn.sql@15" -f "$WORK/dupes.sql@10" \
    -f "$WORK/excl.sql@15" -f "$WORK/excl_delete.sql@3" postgres >"$WORK/pgbench.out" 2>&1 \
    || pgbench_status=$?
touch "$WORK/pgbench.done"
wait "$maint_pid"
grep -E '^(progress|number of (transactions|failed)|tps|latency average|SQL script|client .* aborted| - [0-9]+ transactions)' \
    "$WORK/pgbench.out" || true
read -r maint_runs maint_failed < "$WORK/maint.result"

say "after pgbench: comparisons with no writers, the check, the size against a fresh build"
psql_ -At <<'SQL' > "$WORK/final.out"
SELECT simhash_index_check('soak_fp'), simhash_index_check('soak_dupes_fp'),
       simhash_index_check('soak_excl_near');
BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT count(*) FROM (SELECT soak_radius() FROM generate_series(1, 2000)) r;
SELECT count(*) FROM (SELECT soak_knn() FROM generate_series(1, 300)) k;
SELECT count(*) FROM (SELECT soak_radius('soak_dupes') FROM generate_series(1, 200)) r;
COMMIT;
CREATE TABLE soak_copy AS SELECT * FROM soak;
CREATE INDEX soak_copy_fp ON soak_copy USING simhash (fp);
CREATE TABLE soak_dupes_copy AS SELECT * FROM soak_dupes;
CREATE INDEX soak_dupes_copy_fp ON soak_dupes_copy USING simhash (fp);
SQL
read -r rows nulls distinct_fps top_dup < <(psql_ -At -F ' ' -c \
    "SELECT count(*), count(*) - count(fp), count(DISTINCT fp),
            (SELECT count(*) FROM soak GROUP BY fp ORDER BY count(*) DESC LIMIT 1) FROM soak")
read -r size fresh dsize dfresh drows < <(psql_ -At -F ' ' -c \
    "SELECT pg_relation_size('soak_fp'), pg_relation_size('soak_copy_fp'),
            pg_relation_size('soak_dupes_fp'), pg_relation_size('soak_dupes_copy_fp'),
            (SELECT count(*) FROM soak_dupes)")
read -r erows epairs < <(psql_ -At -F ' ' -c \
    "SELECT (SELECT count(*) FROM soak_excl),
            (SELECT count(*) FROM simhash_pairs('soak_excl', 'fp', 3, 'id') p
               JOIN soak_excl a ON a.id = p.id1 JOIN soak_excl b ON b.id = p.id2
              WHERE a.site = b.site)")
read -r checks diffs < <(psql_ -At -F ' ' -c "SELECT last_value, (SELECT count(*) FROM soak_diff) FROM soak_checks")
# Errors in the server log, besides autovacuum giving way to a lock
errors=$(grep -E '(ERROR|FATAL|PANIC|TRAP|WARNING):|terminated by signal' "$WORK/server.log" \
    | grep -v 'canceling autovacuum task' || true)
aborted=$(grep -c 'aborted in command' "$WORK/pgbench.out" || true)

if [ "$diffs" -gt 0 ]; then
    say "differences (first 20)"
    psql_ -c "SELECT kind, q, arg, by_index, by_seqscan FROM soak_diff ORDER BY at LIMIT 20"
fi
[ -z "$errors" ] || { say "server log errors (first 40)"; head -n 40 <<<"$errors"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
ratio=$(ratio "$size" "$fresh")
dratio=$(ratio "$dsize" "$dfresh")

say "soak result"
echo "  pgbench exit status $pgbench_status, clients aborted: $aborted"
echo "  VACUUM + simhash_index_check rounds: $maint_runs, failed: $maint_failed"
echo "  comparisons index vs seqscan: $checks, differences: $diffs"
echo "  rows $rows (null $nulls, distinct fingerprints $distinct_fps, most repeated value $top_dup times)"
echo "  index $((size / 8192)) pages, fresh build over a copy $((fresh / 8192)) pages: ratio $ratio (limit 2)"
echo "  soak_dupes: $drows rows, index $((dsize / 8192)) pages, fresh build $((dfresh / 8192)) pages: ratio $dratio (limit 2)"
echo "  soak_excl: $erows rows, pairs of one site within 3 bits: $epairs (must be 0)"
echo "  server log errors: $(grep -c . <<<"$errors" || true)"
ok=1
[ "$pgbench_status" -eq 0 ] && [ "$aborted" -eq 0 ] || ok=0
[ "$maint_failed" -eq 0 ] && [ "$diffs" -eq 0 ] && [ -z "$errors" ] && [ "$epairs" -eq 0 ] || ok=0
awk -v r="$ratio" -v d="$dratio" 'BEGIN { exit !(r <= 2 && d <= 2) }' || ok=0
if [ $ok -eq 1 ]; then echo "soak passed"; else echo "soak FAILED"; exit 1; fi
