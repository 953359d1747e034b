#!/usr/bin/env bash
# The main job: installs what is missing, builds and installs simhash, starts a
# throwaway PostgreSQL cluster, loads real text found on every Debian machine
# (the copyright files of the installed packages and the common licenses),
# fingerprints it and prints the groups of near-duplicates it finds, with
# timings.  Leaves nothing behind.  Usage: sudo scripts/demo.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"
require_root "$@"
install_deps
make_workdir
build_install
start_cluster

# One path per distinct file (many /usr/share/doc entries are symlinks).
for f in /usr/share/doc/*/copyright /usr/share/common-licenses/*; do
    [ -f "$f" ] && readlink -f "$f"
done | sort -u > "$WORK/paths.txt"
chmod 644 "$WORK/paths.txt"
say "loading $(wc -l < "$WORK/paths.txt") documents"

as_user psql -X -q -v ON_ERROR_STOP=1 -v paths="$WORK/paths.txt" <<'SQL'
\pset footer off
CREATE EXTENSION simhash;
CREATE TABLE docs (
    id serial PRIMARY KEY,
    path text NOT NULL,
    body text NOT NULL,
    md5 text GENERATED ALWAYS AS (md5(body)) STORED
);

-- Read the files on the server; skip the few that are not valid UTF-8.
CREATE TEMP TABLE paths (path text);
COPY paths FROM :'paths';
DO $$
DECLARE
    p text;
    skipped int := 0;
BEGIN
    FOR p IN SELECT path FROM paths ORDER BY path LOOP
        BEGIN
            INSERT INTO docs (path, body)
            VALUES (p, convert_from(pg_read_binary_file(p), 'UTF8'));
        EXCEPTION WHEN character_not_in_repertoire OR untranslatable_character THEN
            skipped := skipped + 1;
        END;
    END LOOP;
    RAISE NOTICE 'skipped % files that are not valid UTF-8', skipped;
END $$;

SELECT count(*) AS documents, pg_size_pretty(sum(octet_length(body))) AS text,
       count(DISTINCT md5) AS distinct_by_md5
  FROM docs;

\echo
\echo '--- fingerprinting (simhash) vs hashing (md5) the same text'
SELECT clock_timestamp() AS t0 \gset
ALTER TABLE docs ADD COLUMN fp simhash;
UPDATE docs SET fp = simhash(body);
SELECT round(extract(epoch FROM clock_timestamp() - :'t0'::timestamptz) * 1000) AS simhash_ms \gset
SELECT clock_timestamp() AS t0 \gset
SELECT count(DISTINCT md5(body)) FROM docs \g /dev/null
SELECT round(extract(epoch FROM clock_timestamp() - :'t0'::timestamptz) * 1000) AS md5_ms \gset
SELECT :simhash_ms AS simhash_ms, :md5_ms AS md5_ms,
       round(sum(octet_length(body)) / 1048576.0 / greatest(:simhash_ms, 1) * 1000, 1) AS simhash_mb_per_s
  FROM docs;

\echo
\echo '--- the block-table index, and one near-duplicate lookup through it'
SELECT clock_timestamp() AS t0 \gset
CREATE INDEX docs_fp ON docs USING simhash (fp);
SELECT round(extract(epoch FROM clock_timestamp() - :'t0'::timestamptz) * 1000) AS build_ms,
       pg_size_pretty(pg_relation_size('docs_fp')) AS index_size \gset
ANALYZE docs;
SELECT fp AS probe FROM docs ORDER BY id LIMIT 1 \gset
EXPLAIN (COSTS OFF) SELECT id, path FROM docs WHERE fp <-> :'probe' <= 3;
SELECT :build_ms AS index_build_ms, :'index_size' AS index_size,
       (SELECT count(*) FROM docs WHERE fp <-> :'probe' <= 3) AS near_first_document;

\echo
\echo '--- near-duplicates: every pair within Hamming distance 3, in batch (simhash_pairs)'
SELECT clock_timestamp() AS t0 \gset
CREATE TEMP TABLE near AS
SELECT id1 AS a, id2 AS b, distance FROM simhash_pairs('docs', 'fp', 3);
SELECT round(extract(epoch FROM clock_timestamp() - :'t0'::timestamptz) * 1000, 1) AS ms \gset
SELECT clock_timestamp() AS t0 \gset
SELECT count(*) FROM docs a JOIN docs b ON a.fp <-> b.fp <= 3 AND a.id < b.id \g /dev/null
SELECT round(extract(epoch FROM clock_timestamp() - :'t0'::timestamptz) * 1000, 1) AS join_ms \gset
SELECT count(*) AS pairs, count(*) FILTER (WHERE distance > 0) AS pairs_not_identical_fp,
       :ms AS batch_ms, :join_ms AS index_self_join_ms
  FROM near;

-- Groups: leader clustering (simhash_clusters, method => 'leaders').  In id
-- order, a document within distance 3 of a leader joins the nearest one,
-- otherwise it leads a new group: every member is a near-duplicate of its
-- leader.  Connected components (the default method) chain documents
-- through intermediate ones; the line below shows how far that reaches here.
CREATE TEMP TABLE grp AS
SELECT id, representative AS leader FROM simhash_clusters('docs', 'fp', 3, method => 'leaders');
\echo
\echo '--- two clusterings of the same pairs: connected components chain, leaders do not'
SELECT method, count(DISTINCT representative) FILTER (WHERE size > 1) AS groups,
       max(size) AS largest_group, max(distance) AS max_bits_from_representative
  FROM (SELECT 'components' AS method, c.*, count(*) OVER (PARTITION BY representative) AS size
          FROM simhash_clusters('docs', 'fp', 3) c
        UNION ALL
        SELECT 'leaders', c.*, count(*) OVER (PARTITION BY representative)
          FROM simhash_clusters('docs', 'fp', 3, method => 'leaders') c) s
 GROUP BY method ORDER BY method;

\echo
\echo '--- the largest groups of near-duplicates that md5 sees as different documents'
\pset format aligned
SELECT count(*) AS members,
       count(DISTINCT d.md5) AS distinct_md5,
       max(d.fp <-> l.fp) AS max_distance,
       min(octet_length(d.body)) || '..' || max(octet_length(d.body)) AS bytes,
       left(string_agg(regexp_replace(d.path, '^/usr/share/(doc/|common-licenses/)|/copyright$', '', 'g'),
                       ' ' ORDER BY d.path), 70) || CASE WHEN count(*) > 4 THEN ' ...' ELSE '' END AS examples
  FROM grp g JOIN docs d ON d.id = g.id JOIN docs l ON l.id = g.leader
 GROUP BY g.leader
HAVING count(DISTINCT d.md5) > 1
 ORDER BY count(DISTINCT d.md5) DESC, count(*) DESC, g.leader
 LIMIT 15;

\echo
\echo '--- one near-duplicate pair up close (distance 1 to 3, sizes most alike): what differs'
SELECT a.path AS first, b.path AS second, a.fp <-> b.fp AS distance,
       octet_length(a.body) AS first_bytes, octet_length(b.body) AS second_bytes,
       (SELECT count(*) FROM (SELECT unnest(string_to_array(a.body, E'\n'))
                              EXCEPT SELECT unnest(string_to_array(b.body, E'\n'))) x) AS lines_only_in_first,
       (SELECT count(*) FROM (SELECT unnest(string_to_array(b.body, E'\n'))
                              EXCEPT SELECT unnest(string_to_array(a.body, E'\n'))) x) AS lines_only_in_second
  FROM near n JOIN docs a ON a.id = n.a JOIN docs b ON b.id = n.b
 WHERE a.md5 <> b.md5 AND n.distance BETWEEN 1 AND 3
 ORDER BY abs(octet_length(a.body) - octet_length(b.body))::float8
          / greatest(octet_length(a.body), octet_length(b.body)), n.distance DESC
 LIMIT 1 \gx

\echo
\echo '--- a new document arrives: its group, by one index lookup among the leaders'
CREATE TEMP TABLE leaders AS SELECT d.id, d.fp FROM docs d JOIN grp g ON g.id = d.id AND g.leader = d.id;
CREATE INDEX ON leaders USING simhash (fp);
ANALYZE leaders;
-- a group's leader with one sentence added (the largest group where that
-- moves the fingerprint by 1 to 3 bits)
SELECT new_fp, path AS edited
  FROM (SELECT d.path, d.fp, simhash(d.body || E'\nThis copy was mirrored on a new site.') AS new_fp,
               (SELECT count(*) FROM grp g WHERE g.leader = d.id) AS members
          FROM docs d WHERE d.id IN (SELECT leader FROM grp)) s
 ORDER BY (new_fp <-> fp) BETWEEN 1 AND 3 DESC, members DESC, path LIMIT 1 \gset
SELECT regexp_replace(:'edited', '^/usr/share/(doc/|common-licenses/)|/copyright$', '', 'g') AS edited_copy_of,
       regexp_replace(d.path, '^/usr/share/(doc/|common-licenses/)|/copyright$', '', 'g') AS joins_group_of,
       l.fp <-> :'new_fp' AS distance
  FROM leaders l JOIN docs d ON d.id = l.id
 WHERE l.fp <-> :'new_fp' <= 3 ORDER BY l.fp <-> :'new_fp', l.id LIMIT 1;

\echo
\echo '--- on insert: keep a document only if no near-duplicate is stored (exclusion constraint)'
CREATE TABLE kept (id integer, path text, fp simhash,
  CONSTRAINT kept_near EXCLUDE USING simhash (simhash_ball(fp, 3) WITH <@>));
-- the group leaders in one statement (no two within 3: batched, checked at its end),
-- then every document with ON CONFLICT DO NOTHING (near-duplicates skipped silently)
SELECT clock_timestamp() AS t0 \gset
INSERT INTO kept SELECT d.id, d.path, d.fp FROM docs d JOIN grp g ON g.id = d.id AND g.leader = d.id;
INSERT INTO kept SELECT id, path, fp FROM docs WHERE id NOT IN (SELECT id FROM kept)
 ORDER BY id ON CONFLICT DO NOTHING;
SELECT round(extract(epoch FROM clock_timestamp() - :'t0'::timestamptz) * 1000) AS kept_ms \gset
-- without ON CONFLICT, a statement with a near-duplicate fails whole
DO $$
BEGIN
  INSERT INTO kept SELECT id, path, fp FROM docs WHERE id NOT IN (SELECT id FROM kept);
EXCEPTION WHEN exclusion_violation THEN
  RAISE NOTICE 'as expected: %', SQLERRM;
END $$;
SELECT count(*) AS documents_kept, (SELECT count(*) FROM docs) - count(*) AS near_duplicates_skipped,
       (SELECT count(*) FROM simhash_pairs('kept', 'fp', 3)) AS pairs_within_3_left,
       :kept_ms AS ms
  FROM kept;

\echo
\echo '--- summary'
SELECT (SELECT count(*) FROM docs) AS documents,
       count(*) FILTER (WHERE n > 1) AS near_duplicate_groups,
       sum(n) FILTER (WHERE n > 1) AS documents_in_groups,
       (SELECT count(*) - count(DISTINCT md5) FROM docs) AS redundant_by_md5,
       sum(n - 1) FILTER (WHERE n > 1) AS redundant_by_simhash
  FROM (SELECT leader, count(*) AS n FROM grp GROUP BY leader) s;
SQL
say "done; the throwaway cluster is removed"
