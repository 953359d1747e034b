# The commit path of batched inserts (src/index/pending.c): a transaction's
# rows wait in backend memory and are written into the index by a
# pre-commit callback.  Work that runs later in the commit sequence (the
# pre-commit callback of a module loaded before simhash, which the core
# calls after ours) may insert rows too: they must reach the index, never
# wait in a batch that nothing writes any more.  test/modules/precommit_sql.c,
# built here and preloaded, runs the SQL of precommit_sql.command at
# PRE_COMMIT.
#
# A write that fails at COMMIT (here a query cancel arriving as the batch
# is written) aborts the transaction with a message that says so and names
# the index, and leaves the table and the index consistent.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::Bin;
use SimhashTest;

my $pg_config = $ENV{PG_CONFIG} // 'pg_config';
chomp(my $includedir = `$pg_config --includedir-server`);
chomp(my $cc = `$pg_config --cc`);
$cc = (split ' ', $cc)[0] || 'cc';

my $module = PostgreSQL::Test::Utils::tempdir() . '/precommit_sql.so';
my ($stdout, $stderr);
IPC::Run::run([ $cc, '-O2', '-fPIC', '-shared', "-I$includedir",
		"$FindBin::Bin/../modules/precommit_sql.c", '-o', $module ],
	'>', \$stdout, '2>', \$stderr)
  or BAIL_OUT("the test module does not build: $stderr");

my $node = PostgreSQL::Test::Cluster->new('commit');
$node->init;
$node->append_conf('postgresql.conf',
	"shared_preload_libraries = '$module'\nmax_parallel_workers_per_gather = 0\n");
$node->start;
$node->safe_psql('postgres', $SIMHASH_TEST_SQL);
$node->safe_psql('postgres', q{
	CREATE TABLE docs (id integer, fp simhash);
	CREATE INDEX docs_fp ON docs USING simhash (fp);
	CREATE TABLE other (id integer, fp simhash);
	CREATE INDEX other_fp ON other USING simhash (fp);
	-- 40 rows' fingerprints as centers: the index's answers (index scan)
	-- against the distance computed without it.
	CREATE FUNCTION differences(tab regclass) RETURNS bigint LANGUAGE plpgsql AS $$
	DECLARE
		n bigint;
	BEGIN
		SET LOCAL enable_seqscan = off;
		SET LOCAL enable_bitmapscan = off;
		EXECUTE format($q$
			SELECT count(*) FROM (SELECT fp FROM %1$s ORDER BY random() LIMIT 40) q
			 WHERE (SELECT count(*) FROM %1$s d WHERE d.fp <@ simhash_ball(q.fp, 3))
			    <> (SELECT count(*) FROM %1$s d WHERE slow_distance(d.fp, q.fp) <= 3)
			$q$, tab) INTO n;
		RETURN n;
	END $$;
});

# Rows inserted by the module's callback after ours wrote the batch: with
# rows batched before (the batch is written first), and in a transaction
# whose only simhash rows come from the callback; more than a small batch
# each (batches of up to 16 rows are written row by row).
my $cmd = q{INSERT INTO docs SELECT g, rand_fp() FROM generate_series(1, 200) g};
$node->safe_psql('postgres', qq{
	BEGIN;
	SET LOCAL precommit_sql.command = '$cmd';
	INSERT INTO docs SELECT g, rand_fp() FROM generate_series(1, 300) g;
	INSERT INTO other SELECT g, rand_fp() FROM generate_series(1, 300) g;
	COMMIT;
	BEGIN;
	SET LOCAL precommit_sql.command = '$cmd';
	INSERT INTO other SELECT g, rand_fp() FROM generate_series(1, 50) g;
	COMMIT;
});
is($node->safe_psql('postgres', 'SELECT count(*) FROM docs'), '700',
	'the pre-commit callback inserted its rows twice');
my ($ret, $out, $err) = $node->psql('postgres', q{
	SELECT simhash_index_check('docs_fp'), simhash_index_check('other_fp')});
is($ret, 0, 'rows inserted after the commit-time write are in the index') or diag($err);
is($node->safe_psql('postgres', q{SELECT differences('docs') + differences('other')}), '0',
	'index answers equal the distance computed without it');

# A cancel at COMMIT, in the middle of writing a batch of 20,000 rows.
my $before = $node->safe_psql('postgres', 'SELECT count(*) FROM docs');
($ret, $out, $err) = $node->psql('postgres', q{
	\set VERBOSITY verbose
	LOAD 'simhash';
	BEGIN;
	SET LOCAL precommit_sql.cancel = on;
	INSERT INTO docs SELECT g, rand_fp() FROM generate_series(1, 20000) g;
	COMMIT;
	SELECT 'after';
}, on_error_stop => 0);
like($err, qr/57014.*canceling statement due to user request/s,
	'a cancel at COMMIT fails the commit');
like($err, qr/CONTEXT:.*writing the batched entries of simhash index "docs_fp" at commit.*rolled back/s,
	'the message says the index was being written at commit and the transaction is rolled back');
like($out, qr/after/, 'the session carries on');
is($node->safe_psql('postgres', 'SELECT count(*) FROM docs'), $before,
	'the transaction is rolled back');
$node->safe_psql('postgres', q{
	INSERT INTO docs SELECT g, rand_fp() FROM generate_series(1, 500) g;
	VACUUM docs;
	INSERT INTO docs SELECT g, rand_fp() FROM generate_series(1, 500) g;
});
($ret, $out, $err) = $node->psql('postgres', q{SELECT simhash_index_check('docs_fp')});
is($ret, 0, 'the index is sound after the failed commit, later inserts and VACUUM') or diag($err);
is($node->safe_psql('postgres', q{SELECT differences('docs')}), '0',
	'index answers equal the distance computed without it');

done_testing();
