# On-disk format versions of the simhash index (src/index/shindex.h).
# Format 1 (0.1.0) has only plain pages; format 2 adds single-value pages.
# An index whose metapage says 1 (the pages 0.1.0 wrote are exactly those of
# an index without single-value pages) is read and written by today's
# library, and the WAL record of its first single-value page sets the
# version to 2.  simhash_index_check reports damage to single-value pages
# (SQLSTATE XX002): a value outside its bucket, a count that disagrees with
# pd_lower, a single-value page in a format 1 index, the flag on a directory
# page.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::Bin;
use SimhashTest;

my $node = PostgreSQL::Test::Cluster->new('format');
$node->init;
without_checksums($node);
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION simhash;
	CREATE TABLE docs (id serial, fp simhash);
	INSERT INTO docs (fp) SELECT (('x' || substr(md5(g::text), 1, 16))::bit(64))::simhash
	  FROM generate_series(1, 5000) g;
	CREATE INDEX docs_fp ON docs USING simhash (fp);
	CREATE TABLE copies (id serial, fp simhash);
	CREATE INDEX copies_fp ON copies USING simhash (fp);
	CREATE INDEX copies_value ON copies USING simhash (fp);
	CREATE INDEX copies_count ON copies USING simhash (fp);
	CREATE INDEX copies_flag ON copies USING simhash (fp);
	INSERT INTO copies (fp) SELECT 'ffffffffffffffff' FROM generate_series(1, 1000);
	INSERT INTO copies (fp) SELECT (('x' || substr(md5(g::text), 1, 16))::bit(64))::simhash
	  FROM generate_series(1, 300) g;
	CHECKPOINT;
});

my %file = map {
	$_ => $node->data_dir . '/' . $node->safe_psql('postgres', "SELECT pg_relation_filepath('$_')")
} qw(docs_fp copies_fp copies_value copies_count copies_flag);

# Page layout: the 24-byte header; the metapage's magic (4 bytes) then its
# version (4); the special space, the last 24 bytes of a page: type (2, the
# high byte holding the single-value flag), table (2), lo, hi, next (4 each),
# nentries (2).
my $version_at = 24 + 4;
my $special = 8192 - 24;

sub read_block
{
	my ($path, $blkno) = @_;
	open(my $fh, '<', $path) or die "open $path: $!";
	binmode $fh;
	sysseek($fh, $blkno * 8192, 0) or die;
	sysread($fh, my $page, 8192) == 8192 or die;
	close $fh;
	return $page;
}

sub format_version { return unpack('L', substr(read_block($_[0], 0), $version_at, 4)); }

# The blocks of an index file whose special space says type $type, single-value or not.
sub blocks_of
{
	my ($path, $type, $single) = @_;
	my @found;
	for my $b (1 .. (-s $path) / 8192 - 1)
	{
		my ($t) = unpack('S', substr(read_block($path, $b), $special, 2));
		push @found, $b if ($t & 0xFF) == $type && (($t & 0x100) != 0) == $single;
	}
	return @found;
}

my $answers = q{
	SELECT string_agg(ids, ';' ORDER BY q, r) FROM (
	  SELECT q, r, (SELECT string_agg(id::text, ',' ORDER BY id) FROM docs
	                 WHERE fp <@ simhash_ball(q, r)) AS ids
	    FROM (SELECT fp AS q FROM docs WHERE id % 250 = 0) c, unnest(ARRAY[0, 3, 9]) r) s};
my $truth = $node->safe_psql('postgres',
	"SET enable_indexscan = off; SET enable_bitmapscan = off; $answers");

is(format_version($file{docs_fp}), 2, 'a new index is format 2');
is(scalar(blocks_of($file{docs_fp}, 3, 1)), 0, 'distinct values: no single-value page');
ok(scalar(blocks_of($file{copies_fp}, 3, 1)) >= 4, 'copies of one value: single-value buckets');

# Make docs_fp what 0.1.0 would have written: the same pages, version 1.
$node->stop;
poke($file{docs_fp}, $version_at, pack('L', 1));
$node->start;
is($node->safe_psql('postgres', "SELECT simhash_index_check('docs_fp')"), '',
	'format 1: simhash_index_check passes');
is($node->safe_psql('postgres', "SET enable_seqscan = off; $answers"), $truth,
	'format 1: the index answers as a sequential scan');
$node->safe_psql('postgres', q{
	SET simhash.batch_inserts = off;
	INSERT INTO docs (fp) SELECT (('x' || substr(md5((-g)::text), 1, 16))::bit(64))::simhash
	  FROM generate_series(1, 2000) g;
	CHECKPOINT});
is(format_version($file{docs_fp}), 1, 'format 1: distinct inserts keep version 1');
is($node->safe_psql('postgres', "SELECT simhash_index_check('docs_fp')"), '',
	'format 1: simhash_index_check passes after inserts');
$node->safe_psql('postgres', q{
	SET simhash.batch_inserts = off;
	INSERT INTO docs (fp) SELECT '0123456789abcdef' FROM generate_series(1, 1500);
	CHECKPOINT});
is(format_version($file{docs_fp}), 2, 'the first single-value page makes it format 2');
is($node->safe_psql('postgres', "SELECT simhash_index_check('docs_fp')"), '',
	'format 2 after the upgrade: simhash_index_check passes');
$truth = $node->safe_psql('postgres',
	"SET enable_indexscan = off; SET enable_bitmapscan = off; $answers");
is($node->safe_psql('postgres', "SET enable_seqscan = off; $answers"), $truth,
	'format 2 after the upgrade: the index answers as a sequential scan');

# Damage to single-value pages.
my ($bucket) = blocks_of($file{copies_value}, 3, 1);
$node->stop;
# The value of a single-value bucket of block table 0 covering high
# prefixes (ffff...) becomes 0: its prefix leaves the bucket's range.
poke($file{copies_value}, $bucket * 8192 + 24, pack('Q', 0));
# One entry more than pd_lower holds.
my ($n) = unpack('S', substr(read_block($file{copies_count}, $bucket), $special + 16, 2));
poke($file{copies_count}, $bucket * 8192 + $special + 16, pack('S', $n + 1));
# A format 1 index with a single-value page.
poke($file{copies_fp}, $version_at, pack('L', 1));
# The single-value flag on a directory page.
my ($dir) = blocks_of($file{copies_flag}, 2, 0);
poke($file{copies_flag}, $dir * 8192 + $special, pack('S', 2 | 0x100));
$node->start;

for my $case (
	[ 'copies_value', qr/Single-value block $bucket has prefix 0 outside/ ],
	[ 'copies_count', qr/Block $bucket has pd_lower \d+ for @{[$n + 1]} entries/ ],
	[ 'copies_fp', qr/is a single-value page in a format 1 index/ ],
	[ 'copies_flag', qr/Block $dir of type 2 is flagged single-value/ ])
{
	my ($index, $pattern) = @$case;
	my ($ret, $out, $err) = $node->psql('postgres',
		"\\set VERBOSITY verbose\nSELECT simhash_index_check('$index')");
	isnt($ret, 0, "$index: simhash_index_check fails");
	like($err, qr/XX002.*index "$index" is corrupted/s, "$index: with XX002, naming the index");
	like($err, $pattern, "$index: naming the problem");
}

$node->stop;
done_testing();
