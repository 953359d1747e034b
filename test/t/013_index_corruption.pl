# simhash_index_check and ordinary scans report a damaged simhash index as
# corrupted (SQLSTATE XX002, naming the index) rather than returning wrong
# answers or crashing: a metapage without the magic number, an entry filed
# in the wrong bucket, a bucket page overwritten with zeroes, a bucket whose
# range no longer covers the prefixes that lead to it (a lookup retries
# while a concurrent split could explain it, and reports corruption as soon
# as a fresh lookup leads back to the same bucket).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::Bin;
use SimhashTest;

my $node = PostgreSQL::Test::Cluster->new('corruption');
$node->init;
without_checksums($node);
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION simhash;
	CREATE TABLE docs (id integer, fp simhash);
	INSERT INTO docs SELECT g, (('x' || substr(md5(g::text), 1, 16))::bit(64))::simhash
	  FROM generate_series(1, 20000) g;
	CREATE INDEX docs_meta ON docs USING simhash (fp);
	CREATE INDEX docs_entry ON docs USING simhash (fp);
	CREATE INDEX docs_zero ON docs USING simhash (fp);
	CREATE INDEX docs_range ON docs USING simhash (fp);
});
is($node->safe_psql('postgres', q{
	SELECT simhash_index_check('docs_meta'), simhash_index_check('docs_entry'),
	       simhash_index_check('docs_zero'), simhash_index_check('docs_range')}), '|||',
	'the indexes start sound');

my %file = map {
	$_ => $node->data_dir . '/' . $node->safe_psql('postgres', "SELECT pg_relation_filepath('$_')")
} qw(docs_meta docs_entry docs_zero docs_range);
$node->stop;

my $page_header = 24;
poke($file{docs_meta}, $page_header, pack('L', 0xdeadbeef));
# Block 1 is a bucket of block table 0 covering low prefixes; give its first
# entry a fingerprint whose prefix is the highest.
poke($file{docs_entry}, 8192 + $page_header, pack('Q', ~0));
poke($file{docs_zero}, 8192 * 2, "\0" x 8192);
# The same bucket (block 1, reached from prefix 0 of block table 0) now
# records a range from prefix 1: its special space (the last 24 bytes) holds
# type and table (2 bytes each), then lo.
poke($file{docs_range}, 8192 * 2 - 24 + 4, pack('L', 1));
$node->start;

for my $case (
	[ 'docs_meta', qr/index "docs_meta" is corrupted.*magic/s ],
	[ 'docs_entry', qr/index "docs_entry" is corrupted.*outside the bucket/s ],
	[ 'docs_zero', qr/index "docs_zero" is corrupted/ ],
	[ 'docs_range', qr/index "docs_range" is corrupted.*records prefixes 1\./s ])
{
	my ($index, $pattern) = @$case;
	my ($ret, $out, $err) = $node->psql('postgres',
		"\\set VERBOSITY verbose\nSELECT simhash_index_check('$index')");
	isnt($ret, 0, "$index: simhash_index_check fails");
	like($err, qr/XX002/, "$index: with SQLSTATE XX002 (index_corrupted)");
	like($err, $pattern, "$index: naming the index and the problem");
}

# A lookup of prefix 0 through the narrowed bucket reports it at once.
my ($ret, $out, $err) = $node->psql('postgres', qq{
	\\set VERBOSITY verbose
	BEGIN;
	DROP INDEX docs_meta, docs_entry, docs_zero;
	SET enable_seqscan = off;
	SET enable_bitmapscan = off;
	SELECT count(*) FROM docs WHERE fp <@ simhash_ball('0000000000000000', 0)});
like($err, qr/XX002.*index "docs_range" is corrupted.*leads prefix 0 to block 1/s,
	'a scan reports a bucket that does not cover a prefix leading to it');

# A scan through the damaged metapage fails cleanly too.
$node->safe_psql('postgres', 'DROP INDEX docs_entry, docs_zero, docs_range');
($ret, $out, $err) = $node->psql('postgres', q{
	SET enable_seqscan = off;
	SELECT count(*) FROM docs WHERE fp <@ simhash_ball('0123456789abcdef', 3)});
like($err, qr/index "docs_meta" is corrupted/, 'a scan of the damaged index reports corruption');
$node->safe_psql('postgres', 'REINDEX INDEX docs_meta');
is($node->safe_psql('postgres', "SELECT simhash_index_check('docs_meta')"), '', 'REINDEX repairs it');

$node->stop;
done_testing();
