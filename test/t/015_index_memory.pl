# Memory of the simhash index's batches and scans is bounded by work_mem
# per backend: the batched inserts of ten indexes in one transaction share
# one work_mem (each index had its own); a radius search returned row by
# row (no bitmap) keeps work_mem's worth of rows at a time, not every
# match; ORDER BY fp <-> q without LIMIT does not hold the whole table.
# Measured as the growth of the backend's peak resident memory (VmHWM in
# /proc/<pid>/status) over the statement, with work_mem = 1MB and shared
# buffers of 1MB (touched buffers count in the resident memory).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::Bin;
use SimhashTest;

plan skip_all => 'needs /proc/<pid>/status' unless -r "/proc/$$/status";

my $node = PostgreSQL::Test::Cluster->new('index_memory');
$node->init;
$node->append_conf('postgresql.conf',
	"shared_buffers = 1MB\nmax_parallel_workers_per_gather = 0\njit = off\n");
$node->start;
$node->safe_psql('postgres', $SIMHASH_TEST_SQL);
$node->safe_psql('postgres', q{
	CREATE FUNCTION peak_kb() RETURNS bigint LANGUAGE sql VOLATILE
	AS $$ SELECT substring(pg_read_file('/proc/' || pg_backend_pid() || '/status')
	                       FROM 'VmHWM:\s*(\d+) kB')::bigint $$;
	CREATE TABLE docs (fp simhash);
	INSERT INTO docs SELECT rand_fp() FROM generate_series(1, 600000);
	CREATE INDEX docs_fp ON docs USING simhash (fp);
	VACUUM ANALYZE docs;
});
for my $i (1 .. 10)
{
	$node->safe_psql('postgres',
		"CREATE TABLE t$i (fp simhash); CREATE INDEX t${i}_fp ON t$i USING simhash (fp)");
}

# Runs $sql in a new backend after a warm-up and returns the growth of its
# peak resident memory in kB (and the statement's output).
sub growth
{
	my ($sql) = @_;
	my $out = $node->safe_psql('postgres', qq{
		SET work_mem = '1MB';
		SET enable_seqscan = off;
		SET enable_bitmapscan = off;
		SET enable_sort = off;
		SELECT count(*) FROM docs WHERE fp <@ simhash_ball('0123456789abcdef', 3);
		SELECT count(*) FROM (SELECT fp FROM docs ORDER BY fp <-> '0123456789abcdef' LIMIT 10) s;
		SELECT peak_kb();
		$sql;
		SELECT peak_kb();
	});
	my @lines = split /\n/, $out;
	return ($lines[-1] - $lines[-3], $lines[-2]);
}

my ($kb, $out) = growth(q{SELECT count(*) FROM docs WHERE fp <@ simhash_ball('0123456789abcdef', 64)});
is($out, '600000', 'an index scan of radius 64 returns every row');
cmp_ok($kb, '<', 4096, "and its peak memory grows by $kb kB, far less than 600,000 rows (9.4 MB)");

($kb, $out) = growth(q{SELECT count(*) FROM (SELECT fp FROM docs ORDER BY fp <-> '0123456789abcdef') s});
is($out, '600000', 'ORDER BY fp <-> q without LIMIT returns every row');
# (a release build grows by about 5.7 MB, an assert-enabled one by about 8.2)
cmp_ok($kb, '<', 10240, "and its peak memory grows by $kb kB, not by the whole table (13 MB before)");

my $inserts = join('', map { "INSERT INTO t$_ SELECT rand_fp() FROM generate_series(1, 30000);\n" } 1 .. 10);
($kb, $out) = growth(qq{BEGIN;\n${inserts}COMMIT;\nSELECT 'done'});
is($out, 'done', 'ten indexed tables take 30,000 rows each in one transaction');
cmp_ok($kb, '<', 6144, "and the batches grow peak memory by $kb kB, one work_mem (not ten: 9 MB before)");
for my $i (1 .. 10)
{
	my ($ret, $o, $err) = $node->psql('postgres', "SELECT simhash_index_check('t${i}_fp')");
	is($ret, 0, "t${i}_fp passes the check") or diag($err);
}

done_testing();
