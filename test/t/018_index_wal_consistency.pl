# The generic WAL records that index/wal.c writes itself (appends: the delta
# built by hand rather than by GenericXLogFinish) replay to exactly the
# primary's pages.  The primary runs with wal_consistency_checking =
# 'generic', so every generic record carries full images of its pages and
# replay, on a streaming standby and in the primary's own crash recovery,
# compares each replayed page with them (a mismatch is FATAL: "inconsistent
# page found").  The workload takes every append path: rows written at once
# into an exclusion constraint's index (one record for four buckets; ON
# CONFLICT DO NOTHING), simhash.batch_inserts off, batched inserts (a
# bucket's worth per record), overflow chains of one duplicated value, bucket
# splits, a checkpoint in between (full-page images), and an unlogged index.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::Bin;
use SimhashTest;

my $primary = PostgreSQL::Test::Cluster->new('primary');
$primary->init(allows_streaming => 1);
$primary->append_conf('postgresql.conf', qq{
wal_consistency_checking = 'generic'
max_parallel_workers_per_gather = 0
});
$primary->start;
$primary->safe_psql('postgres', $SIMHASH_TEST_SQL);
# Every record carries its pages' images: keep the WAL until the standby has it.
$primary->safe_psql('postgres', "SELECT pg_create_physical_replication_slot('standby')");
$primary->backup('backup');

my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'backup', has_streaming => 1);
$standby->append_conf('postgresql.conf', "primary_slot_name = 'standby'\n");
$standby->start;

# Rows one statement at a time, so that most go in at once; a small index
# (blocks = 4, the default) so that buckets fill and split.
my $workload = q{
	SELECT setseed(0.17);
	CREATE TABLE uniq (id bigserial, fp simhash,
	                   EXCLUDE USING simhash (simhash_ball(fp, 3) WITH <@>));
	CREATE TABLE plain (id bigserial, fp simhash);
	CREATE INDEX plain_fp ON plain USING simhash (fp);
	CREATE UNLOGGED TABLE scratch (fp simhash);
	CREATE INDEX scratch_fp ON scratch USING simhash (fp);
	INSERT INTO uniq (fp) SELECT rand_fp() FROM generate_series(1, 1500)
	  ON CONFLICT DO NOTHING;
	INSERT INTO uniq (fp) SELECT flip(fp, 1) FROM uniq WHERE id % 5 = 0
	  ON CONFLICT DO NOTHING;
	SET simhash.batch_inserts = off;
	INSERT INTO plain (fp) SELECT rand_fp() FROM generate_series(1, 1500);
	INSERT INTO plain (fp) SELECT '0123456789abcdef' FROM generate_series(1, 700);
	CHECKPOINT;
	INSERT INTO uniq (fp) SELECT rand_fp() FROM generate_series(1, 1000)
	  ON CONFLICT DO NOTHING;
	INSERT INTO plain (fp) SELECT rand_fp() FROM generate_series(1, 500);
	RESET simhash.batch_inserts;
	INSERT INTO plain (fp) SELECT rand_fp() FROM generate_series(1, 4000);
	INSERT INTO plain (fp) SELECT '0123456789abcdef' FROM generate_series(1, 600);
	INSERT INTO scratch SELECT rand_fp() FROM generate_series(1, 2000);
	DELETE FROM plain WHERE id % 3 = 0;
	VACUUM plain;
	INSERT INTO plain (fp) SELECT rand_fp() FROM generate_series(1, 10);
};
$primary->safe_psql('postgres', $workload);

# Radius answers of both indexes, as one string.
my $answers = q{
	SET enable_seqscan = off;
	SELECT md5(string_agg(a, ';' ORDER BY i)) FROM (
	  SELECT i, (SELECT string_agg(id::text, ',' ORDER BY id) FROM plain
	              WHERE fp <@ simhash_ball(c.fp, 4)) || '/' ||
	            (SELECT string_agg(id::text, ',' ORDER BY id) FROM uniq
	              WHERE simhash_ball(fp, 3) <@> simhash_ball(c.fp, 3)) AS a
	    FROM (SELECT row_number() OVER (ORDER BY id) AS i, fp FROM plain WHERE id % 97 = 1) c) s;
};
my $truth = $primary->safe_psql('postgres', $answers);
my $check = q{SELECT simhash_index_check('plain_fp'),
	simhash_index_check((SELECT conindid FROM pg_constraint WHERE conrelid = 'uniq'::regclass AND contype = 'x')::regclass)};

$primary->wait_for_catchup($standby);
is($standby->safe_psql('postgres', 'SELECT 1'), '1', 'standby: replayed every record');
is($standby->safe_psql('postgres', $check),
	'|', 'standby: simhash_index_check passes on both indexes');
is($standby->safe_psql('postgres', $answers), $truth, 'standby: the indexes answer as on the primary');

# Crash recovery replays the same kind of records, checked the same way.
$primary->safe_psql('postgres', q{
	CHECKPOINT;
	INSERT INTO uniq (fp) SELECT rand_fp() FROM generate_series(1, 800) ON CONFLICT DO NOTHING;
	SET simhash.batch_inserts = off;
	INSERT INTO plain (fp) SELECT rand_fp() FROM generate_series(1, 800);
});
my $truth2 = $primary->safe_psql('postgres', $answers);
$primary->stop('immediate');
$primary->start;
is($primary->safe_psql('postgres', $check),
	'|', 'after crash recovery: simhash_index_check passes');
is($primary->safe_psql('postgres', $answers), $truth2, 'after crash recovery: the same answers');
is($primary->safe_psql('postgres', q{
	SELECT count(*) FROM uniq a JOIN uniq b ON a.id < b.id AND slow_distance(a.fp, b.fp) <= 3}),
	'0', 'after crash recovery: the constraint held');

$primary->wait_for_catchup($standby);
is($standby->safe_psql('postgres', $answers), $truth2, 'standby: the same answers after the crash');

foreach my $node ($primary, $standby)
{
	my $log = slurp_file($node->logfile);
	unlike($log, qr/inconsistent page found/, $node->name . ': no replayed page differed from its image');
}

$standby->stop;
$primary->stop;
done_testing();
