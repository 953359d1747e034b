# The simhash index survives WAL: a streaming standby answers exactly like
# the primary, and a primary killed (immediate stop, no shutdown
# checkpoint) while pgbench inserts restarts with a sound index that agrees
# with a sequential scan.  Copies of one value (before and during the
# crash) put pages in the single-value form, split them and chain them.  An unlogged table's index comes back empty from
# its init fork.  Modelled on contrib/bloom's t/001_wal.pl.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use IPC::Run;
use Test::More;
use FindBin;
use lib $FindBin::Bin;
use SimhashTest;

my $primary = PostgreSQL::Test::Cluster->new('primary');
$primary->init(allows_streaming => 1);
$primary->append_conf('postgresql.conf', "max_parallel_workers_per_gather = 0\n");
$primary->start;
$primary->safe_psql('postgres', $SIMHASH_TEST_SQL);
$primary->backup('backup');

my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'backup', has_streaming => 1);
$standby->start;

$primary->safe_psql('postgres', q{
	SELECT setseed(0.7);
	CREATE TABLE docs (id bigserial PRIMARY KEY, fp simhash);
	INSERT INTO docs (fp) SELECT rand_fp() FROM generate_series(1, 6000);
	INSERT INTO docs (fp) SELECT flip(fp, 1 + (id % 6)::int) FROM docs WHERE id % 3 = 0;
	CREATE INDEX docs_fp ON docs USING simhash (fp);
	SET simhash.batch_inserts = off;
	INSERT INTO docs (fp) SELECT 'a5a5a5a5a5a5a5a5' FROM generate_series(1, 2000);
	RESET simhash.batch_inserts;
	INSERT INTO docs (fp) SELECT 'a5a5a5a5a5a5a5a5' FROM generate_series(1, 2000);
	INSERT INTO docs (fp) SELECT rand_fp() FROM generate_series(1, 4000);
	INSERT INTO docs (fp) SELECT flip(fp, 2) FROM docs WHERE id % 4 = 0;
	DELETE FROM docs WHERE id % 7 = 0;
	VACUUM docs;
	CREATE UNLOGGED TABLE scratch (fp simhash);
	CREATE INDEX scratch_fp ON scratch USING simhash (fp);
	INSERT INTO scratch SELECT rand_fp() FROM generate_series(1, 3000);
	CREATE TABLE centers AS
	SELECT flip(fp, (id % 5)::int) AS c, (id % 9)::int AS r FROM docs WHERE id % 61 = 0;
});

# One string summarising the answers to many radius and k-NN queries.
my $index_query = q{
	SELECT md5(string_agg(a, ';' ORDER BY c, r)) || ' ' || count(*) FROM (
	  SELECT c, r, (SELECT string_agg(id::text, ',' ORDER BY id) FROM docs WHERE fp <@ simhash_ball(c, r))
	            || '/' || (SELECT string_agg(d::text, ',') FROM
	                         (SELECT fp <-> c AS d FROM docs ORDER BY fp <-> c LIMIT 7) k) AS a
	    FROM centers) s;
};
my $via_index = "SET enable_seqscan = off; $index_query";
my $via_seqscan = q{
	SET enable_indexscan = off; SET enable_bitmapscan = off;
	SELECT md5(string_agg(a, ';' ORDER BY c, r)) || ' ' || count(*) FROM (
	  SELECT c, r, (SELECT string_agg(id::text, ',' ORDER BY id) FROM docs WHERE slow_distance(fp, c) <= r)
	            || '/' || (SELECT string_agg(d::text, ',') FROM
	                         (SELECT slow_distance(fp, c) AS d FROM docs WHERE fp IS NOT NULL
	                           ORDER BY 1 LIMIT 7) k) AS a
	    FROM centers) s;
};

my $truth = $primary->safe_psql('postgres', $via_seqscan);
is($primary->safe_psql('postgres', $via_index), $truth, 'primary: index agrees with a sequential scan');
like($primary->safe_psql('postgres', "SET enable_seqscan = off; EXPLAIN (COSTS OFF) $index_query"), qr/Index Scan using docs_fp/,
	'primary: the queries use the index');

$primary->wait_for_catchup($standby);
is($standby->safe_psql('postgres', "SELECT simhash_index_check('docs_fp')"), '',
	'standby: simhash_index_check passes');
is($standby->safe_psql('postgres', $via_index), $truth, 'standby: index agrees with the primary');

# Crash under concurrent inserts.
my $script = $primary->basedir . '/insert.sql';
open(my $fh, '>', $script) or die;
print $fh q{
INSERT INTO docs (fp) SELECT rand_fp() FROM generate_series(1, 20);
INSERT INTO docs (fp) SELECT '5a5a5a5a5a5a5a5a' FROM generate_series(1, 30);
INSERT INTO docs (fp) SELECT flip(fp, 3) FROM docs WHERE id = (random() * 10000)::int;
};
close $fh;
my ($out, $err) = ('', '');
my $pgbench = IPC::Run::start(
	[ 'pgbench', '-n', '-c', '3', '-T', '60', '-f', $script,
	  '-h', $primary->host, '-p', $primary->port, 'postgres' ],
	'>', \$out, '2>', \$err);
my $rows_before = $primary->safe_psql('postgres', 'SELECT count(*) FROM docs');
my $grown = 0;
for (1 .. 100)
{
	select(undef, undef, undef, 0.1);
	if ($primary->safe_psql('postgres', 'SELECT count(*) FROM docs') > $rows_before + 2000)
	{
		$grown = 1;
		last;
	}
}
ok($grown, 'pgbench inserted rows before the crash');
$primary->stop('immediate');
$pgbench->finish;

$primary->start;
is($primary->safe_psql('postgres', "SELECT simhash_index_check('docs_fp')"), '',
	'after crash recovery: simhash_index_check passes');
my $truth2 = $primary->safe_psql('postgres', $via_seqscan);
isnt($truth2, $truth, 'after crash recovery: the inserted rows are there');
is($primary->safe_psql('postgres', $via_index), $truth2,
	'after crash recovery: index agrees with a sequential scan');

is($primary->safe_psql('postgres', q{
	SET enable_seqscan = off;
	SELECT count(*) FROM scratch WHERE fp <@ simhash_ball('0000000000000000', 64)}), '0',
	'after crash recovery: the unlogged index is empty');
is($primary->safe_psql('postgres', q{
	INSERT INTO scratch SELECT rand_fp() FROM generate_series(1, 1000);
	SELECT simhash_index_check('scratch_fp');
	SET enable_seqscan = off;
	SELECT count(*) FROM scratch WHERE fp <@ simhash_ball('0000000000000000', 64)}), "\n1000",
	'after crash recovery: the unlogged index works again');

$primary->wait_for_catchup($standby);
is($standby->safe_psql('postgres', $via_index), $truth2,
	'standby: index agrees with the recovered primary');
is($standby->safe_psql('postgres', "SELECT simhash_index_check('docs_fp')"), '',
	'standby: simhash_index_check passes after the crash');

$standby->stop;
$primary->stop;
done_testing();
