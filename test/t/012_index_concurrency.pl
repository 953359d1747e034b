# pgbench with concurrent inserts, deletes, queries and VACUUM on a table
# with a simhash index; copies of one value among the inserts fill
# single-value pages, which split and grow chains under the readers.  Every query compares the index's answer with a
# sequential computation in the same statement (one snapshot) and fails
# with a division by zero when they differ; afterwards the index must pass
# simhash_index_check.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::Bin;
use SimhashTest;

my $node = PostgreSQL::Test::Cluster->new('concurrency');
$node->init;
$node->append_conf('postgresql.conf', "max_parallel_workers_per_gather = 0\nautovacuum_naptime = 1\n");
$node->start;
$node->safe_psql('postgres', $SIMHASH_TEST_SQL);
$node->safe_psql('postgres', q{
	CREATE TABLE docs (id bigserial PRIMARY KEY, fp simhash);
	-- Few distinct block values, so that buckets split and chains grow.
	INSERT INTO docs (fp) SELECT flip('0f0f0f0f0f0f0f0f', g % 8) FROM generate_series(1, 2000) g;
	INSERT INTO docs (fp) SELECT rand_fp() FROM generate_series(1, 3000);
	CREATE INDEX docs_fp ON docs USING simhash (fp) WITH (fillfactor = 60);
	-- A second layout whose inserts take two WAL records per row.
	CREATE INDEX docs_fp6 ON docs USING simhash (fp) WITH (blocks = 6, fillfactor = 60);
});

$node->pgbench(
	'--no-vacuum --client=4 --jobs=2 --time=20',
	0,
	[qr{processed: [1-9]}],
	[qr{^$}],
	'concurrent inserts, deletes, radius and k-NN queries, VACUUM',
	{
		'insert@6' => q{
INSERT INTO docs (fp) SELECT flip('0f0f0f0f0f0f0f0f', (random() * 6)::int) FROM generate_series(1, 10);
INSERT INTO docs (fp) SELECT rand_fp() FROM generate_series(1, 10);
},
		'insert_unbatched@3' => q{
SET simhash.batch_inserts = off;
INSERT INTO docs (fp) SELECT flip('0f0f0f0f0f0f0f0f', (random() * 6)::int) FROM generate_series(1, 5);
INSERT INTO docs (fp) SELECT rand_fp() FROM generate_series(1, 5);
},
		'insert_query@2' => q{
BEGIN;
INSERT INTO docs (fp) SELECT flip('0f0f0f0f0f0f0f0f', (random() * 6)::int) FROM generate_series(1, 30);
SET LOCAL enable_seqscan = off;
SELECT 1 / (a IS NOT DISTINCT FROM b)::int FROM (
  SELECT (SELECT array_agg(id ORDER BY id) FROM docs WHERE fp <@ simhash_ball(c, 4)) AS a,
         (SELECT array_agg(id ORDER BY id) FROM docs WHERE slow_distance(fp, c) <= 4) AS b
    FROM (SELECT flip('0f0f0f0f0f0f0f0f', 2) AS c) centers) s;
SAVEPOINT s;
INSERT INTO docs (fp) SELECT rand_fp() FROM generate_series(1, 10);
ROLLBACK TO s;
COMMIT;
},
		'copies@3' => q{
INSERT INTO docs (fp) SELECT '0f0f0f0f0f0f0f0f' FROM generate_series(1, 60);
BEGIN;
SET LOCAL simhash.batch_inserts = off;
INSERT INTO docs (fp) SELECT '0f0f0f0f0f0f0f0f' FROM generate_series(1, 20);
COMMIT;
},
		'delete@2' => q{
\set k random(1, 20000)
DELETE FROM docs WHERE id BETWEEN :k AND :k + 15;
UPDATE docs SET fp = flip(fp, 2) WHERE id BETWEEN :k + 100 AND :k + 110;
},
		'radius@6' => q{
\set r random(0, 8)
SET enable_seqscan = off;
SELECT 1 / (a IS NOT DISTINCT FROM b)::int FROM (
  SELECT (SELECT array_agg(id ORDER BY id) FROM docs WHERE fp <@ simhash_ball(c, :r)) AS a,
         (SELECT array_agg(id ORDER BY id) FROM docs WHERE slow_distance(fp, c) <= :r) AS b
    FROM (SELECT flip('0f0f0f0f0f0f0f0f', (random() * 4)::int) AS c) centers) s;
},
		'knn@3' => q{
SET enable_seqscan = off;
SELECT 1 / (a = b)::int FROM (
  SELECT ARRAY(SELECT fp <-> c FROM docs ORDER BY fp <-> c LIMIT 25)::integer[] AS a,
         ARRAY(SELECT slow_distance(fp, c) AS d FROM docs WHERE fp IS NOT NULL ORDER BY d LIMIT 25) AS b
    FROM (SELECT CASE WHEN random() < 0.5 THEN rand_fp()
                      ELSE flip('0f0f0f0f0f0f0f0f', 9) END AS c) centers) s;
},
		'vacuum@1' => q{
VACUUM docs;
},
	});

is($node->safe_psql('postgres', "SELECT simhash_index_check('docs_fp')"), '',
	'simhash_index_check passes after the run');
is($node->safe_psql('postgres', "SELECT simhash_index_check('docs_fp6')"), '',
	'simhash_index_check passes after the run (6 blocks)');

# Radius queries agree with a sequential computation, through whichever
# index the planner picks and then through the 6-block one alone.
foreach my $only ('', 'docs_fp6')
{
	$node->safe_psql('postgres', 'DROP INDEX docs_fp') if $only;
	is($node->safe_psql('postgres', q{
		SET enable_seqscan = off;
		SELECT count(*)
		  FROM (SELECT flip('0f0f0f0f0f0f0f0f', c % 5) AS q FROM generate_series(0, 30) c) cs,
		       generate_series(0, 8, 2) r
		 WHERE (SELECT array_agg(id ORDER BY id) FROM docs WHERE fp <@ simhash_ball(q, r))
		       IS DISTINCT FROM
		       (SELECT array_agg(id ORDER BY id) FROM docs WHERE slow_distance(fp, q) <= r)}), '0',
		'radius queries agree with a sequential computation' . ($only ? " ($only alone)" : ''));
}
is($node->safe_psql('postgres', q{
	SET enable_seqscan = off;
	SELECT count(*) FROM docs WHERE fp <@ simhash_ball('0000000000000000', 64)}),
	$node->safe_psql('postgres', 'SELECT count(*) FROM docs WHERE fp IS NOT NULL'),
	'a full index scan returns every row');

$node->stop;
done_testing();
