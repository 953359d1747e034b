# simhash(text) reads a value stored out of line piece by piece: the
# backend's peak resident memory (VmHWM in /proc/<pid>/status) grows by far
# less than the value, uncompressed, pglz- and (when the server has it)
# lz4-compressed.  The same text in memory (t || '', what the whole-value
# path detoasted) makes the peak grow by more than the value's size, so the
# bound below tells the two apart.  A statement timeout cancels it early.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time);
use FindBin;
use lib $FindBin::Bin;
use SimhashTest;

my $node = PostgreSQL::Test::Cluster->new('stream_memory');
$node->init;
# Shared buffers count in the resident memory once touched: keep them small.
$node->append_conf('postgresql.conf', "shared_buffers = 8MB\n");
$node->start;

my $have_lz4 = $node->safe_psql('postgres',
	"SELECT 'lz4' = ANY (enumvals) FROM pg_settings WHERE name = 'default_toast_compression'") eq 't';
my @tables = ('plain', 'pglz', $have_lz4 ? ('lz4') : ());

# About 0.9 MB of ASCII words (the fast path, so that the test is quick;
# the regression test stream covers other scripts), repeated: 215 MB.
# UNLOGGED, so the test writes no WAL for them.
my $pglz = compression_clause($node, 'pglz');
my $compression = column_compression($node);
$node->safe_psql('postgres', q{
	CREATE EXTENSION simhash;
	CREATE FUNCTION peak_kb() RETURNS bigint LANGUAGE sql VOLATILE
	AS $$ SELECT substring(pg_read_file('/proc/' || pg_backend_pid() || '/status')
	                       FROM 'VmHWM:\s*(\d+) kB')::bigint $$;
	CREATE UNLOGGED TABLE piece AS
	SELECT string_agg((ARRAY['alpha', 'beta', 'gamma', 'delta', 'fingerprint', 'near',
	                         'duplicate', 'the', 'of', '.'])[1 + floor(random() * 10)::int], ' ') AS t
	  FROM generate_series(1, 160000);
	CREATE UNLOGGED TABLE big_plain (t text);
	ALTER TABLE big_plain ALTER t SET STORAGE EXTERNAL;
});
$node->safe_psql('postgres', "CREATE UNLOGGED TABLE big_pglz (t text $pglz)");
$node->safe_psql('postgres', 'CREATE UNLOGGED TABLE big_lz4 (t text COMPRESSION lz4)') if $have_lz4;
for my $table (@tables)
{
	$node->safe_psql('postgres', "INSERT INTO big_$table SELECT repeat(t || ' ', 230) FROM piece");
}

my $size_kb = $node->safe_psql('postgres', 'SELECT octet_length(t) / 1024 FROM big_plain');
cmp_ok($size_kb, '>=', 200 * 1024, "the value has $size_kb kB");
for my $table (@tables)
{
	my $stored = $node->safe_psql('postgres',
		"SELECT coalesce($compression, 'none') || ' ' || pg_column_size(t) / 1024 FROM big_$table");
	note "big_$table: compression and kB stored: $stored";
}

# The fingerprint of the query's text and the growth of the peak resident
# memory of a new backend over the query, after a warm-up on a small prefix
# (ICU data, catalog caches).
sub fingerprint_and_growth
{
	my ($expr) = @_;
	my $start = time();
	my $out = $node->safe_psql('postgres', qq{
		SELECT simhash(left(t, 100000)) IS NOT NULL FROM big_plain;
		SELECT peak_kb();
		SELECT $expr;
		SELECT peak_kb();
	});
	my ($warm, $before, $fingerprint, $after) = split /\n/, $out;
	return ($fingerprint, $after - $before, time() - $start);
}

# The text in memory: the peak grows by more than the value.
my ($fingerprint, $growth) = fingerprint_and_growth("simhash(t || '') FROM big_plain");
like($fingerprint, qr/^[0-9a-f]{16}$/, 'the text in memory has a fingerprint');
my $bound = int($size_kb / 10);
cmp_ok($growth, '>', $size_kb,
	"the text in memory: peak memory grows by $growth kB, more than the bound ($bound kB)");

for my $table (@tables)
{
	my ($streamed, $growth, $seconds) = fingerprint_and_growth("simhash(t) FROM big_$table");
	is($streamed, $fingerprint, "big_$table streamed: the fingerprint of the text in memory");
	cmp_ok($growth, '<', $bound,
		"big_$table streamed: peak memory grows by $growth kB, under a tenth of the value");

	# Interrupts are checked along the way: a statement timeout stops it
	# long before the end.
	my $start = time();
	my ($ret, $out, $err) = $node->psql('postgres',
		"SET statement_timeout = '50ms'; SELECT simhash(t) FROM big_$table");
	my $cancelled = time() - $start;
	like($err, qr/statement timeout/, "big_$table streamed: a statement timeout cancels it");
	cmp_ok($cancelled, '<', $seconds / 2,
		sprintf('big_%s streamed: cancelled after %.2f s of the %.2f s a whole run takes',
			$table, $cancelled, $seconds));
}

# simhash(text) works in memory the backend keeps and clears after each
# call; a call cancelled half-way (a long value streamed, its window and
# tables far larger than that memory's first block) leaves it to the
# abort of its transaction, or of its subtransaction, to clear.  The view
# of a backend's memory contexts is there from PostgreSQL 14 on.
if ($node->safe_psql('postgres', 'SHOW server_version_num') >= 140000)
{
	my $kept = q{SELECT (coalesce(sum(total_bytes), 0) / 1024)::int
	               FROM pg_backend_memory_contexts WHERE name = 'simhash fingerprint'};
	my ($ret, $out, $err) = $node->psql('postgres', qq{
		SELECT simhash('a first call sets the memory up');
		SET statement_timeout = '50ms';
		SELECT simhash(t) FROM big_plain;
		RESET statement_timeout;
		$kept;
	}, on_error_stop => 0);
	my @lines = split /\n/, $out;
	like($err, qr/statement timeout/, 'a call is cancelled half-way');
	cmp_ok($lines[-1], '<=', 64, "after the transaction's abort the call's memory is cleared ($lines[-1] kB kept)");

	($ret, $out, $err) = $node->psql('postgres', qq{
		SELECT simhash('a first call sets the memory up');
		BEGIN;
		SAVEPOINT s;
		SET LOCAL statement_timeout = '50ms';
		SELECT simhash(t) FROM big_plain;
		ROLLBACK TO SAVEPOINT s;
		$kept;
		COMMIT;
	}, on_error_stop => 0);
	@lines = split /\n/, $out;
	like($err, qr/statement timeout/, 'a call in a subtransaction is cancelled half-way');
	cmp_ok($lines[-1], '<=', 64, "after the subtransaction's abort the call's memory is cleared ($lines[-1] kB kept)");
}

$node->stop;
done_testing();
