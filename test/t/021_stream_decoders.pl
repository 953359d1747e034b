# The stream decoders of compressed TOAST data (src/fingerprint/toast_decode.c) against
# PostgreSQL's own decompression:
#  - test/fuzz/decode_fuzz.c compares them with pglz_decompress (from
#    libpgcommon) and liblz4's LZ4_decompress_safe on random data of many
#    shapes, valid and damaged;
#  - values whose stored compressed bytes are damaged on disk, out of line
#    or in their row (pglz there is decoded by toast_decode.c too), give
#    SQLSTATE XX001 (data_corrupted), as detoasting them does, and the
#    server carries on.
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
chomp(my $libdir = `$pg_config --libdir`);
chomp(my $pkglibdir = `$pg_config --pkglibdir`);
chomp(my $version = `$pg_config --version`);
my ($major) = $version =~ /(\d+)/;
chomp(my $cc = `$pg_config --cc`);
$cc = (split ' ', $cc)[0] || 'cc';

# libpgcommon.a holds pglz_decompress; a build may install it beside the
# libraries or not at all (then the packaged one of the same major version
# serves: pglz's format never changed).
my ($common_dir) = grep { -f "$_/libpgcommon.a" && -f "$_/libpgport.a" }
  ($libdir, $pkglibdir, "/usr/lib/postgresql/$major/lib");

SKIP:
{
	skip 'no libpgcommon.a to compare with', 2 unless $common_dir;
	my $bin = PostgreSQL::Test::Utils::tempdir() . '/decode_fuzz';
	my ($stdout, $stderr);
	my $built = IPC::Run::run(
		[ $cc, '-O2', '-Isrc', "-I$includedir", 'test/fuzz/decode_fuzz.c',
		  'src/fingerprint/toast_decode.c', '-o', $bin, "$common_dir/libpgcommon.a",
		  "$common_dir/libpgport.a", '-ldl' ],
		'>', \$stdout, '2>', \$stderr);
	ok($built, 'the fuzz program builds') or diag($stderr);
	my $seed = time();
	my $ran = IPC::Run::run([ $bin, 300, $seed ], '>', \$stdout, '2>', \$stderr);
	note "seed $seed:\n$stdout";
	ok($ran && $stdout =~ /^0 disagreements$/m,
		"stream decoders agree with PostgreSQL's on 300 random inputs per format (seed $seed)")
	  or diag("$stdout$stderr");
}

my $node = PostgreSQL::Test::Cluster->new('stream_decoders');
$node->init;
without_checksums($node);
$node->start;
my $have_lz4 = $node->safe_psql('postgres',
	"SELECT 'lz4' = ANY (enumvals) FROM pg_settings WHERE name = 'default_toast_compression'") eq 't';
my @methods = ('pglz', $have_lz4 ? ('lz4') : ());

# One value per table, so that block 0 of its TOAST table holds chunk 0.
$node->safe_psql('postgres', 'CREATE EXTENSION simhash');
my (%file, %inline_file);
my $compression = column_compression($node);
for my $method (@methods)
{
	my $clause = compression_clause($node, $method);
	$node->safe_psql('postgres', qq{
		CREATE TABLE damaged_$method (t text $clause);
		INSERT INTO damaged_$method
		SELECT string_agg(CASE WHEN g % 7 = 0 THEN '文本 ' ELSE 'word' || (g % 50) || ' ' END, '')
		  FROM generate_series(1, 200000) g;
	});
	# (over 1 MB: lz4 values are streamed from there on, detoasted below)
	is($node->safe_psql('postgres', "SELECT octet_length(t) > 1048576 FROM damaged_$method"),
		't', "damaged_$method holds more than 1 MB of text");
	is($node->safe_psql('postgres', "SELECT $compression FROM damaged_$method"),
		$method, "damaged_$method is compressed with $method");
	is($node->safe_psql('postgres', "SELECT simhash(t) = simhash(t || '') FROM damaged_$method"),
		't', "damaged_$method: streamed as in memory, before the damage");
	$file{$method} = $node->data_dir . '/' . $node->safe_psql('postgres', qq{
		SELECT pg_relation_filepath(reltoastrelid) FROM pg_class WHERE oid = 'damaged_$method'::regclass});

	# and a value compressed in its row (STORAGE MAIN)
	$node->safe_psql('postgres', qq{
		CREATE TABLE inline_$method (t text $clause);
		ALTER TABLE inline_$method ALTER t SET STORAGE MAIN;
		INSERT INTO inline_$method
		SELECT string_agg('word' || (g % 50), ' ') FROM generate_series(1, 1000) g;
	});
	is($node->safe_psql('postgres', qq{
		SELECT $compression || ' ' || (pg_column_size(t) < 2000)
		       || ' ' || (SELECT pg_relation_size(reltoastrelid) FROM pg_class
		                  WHERE oid = 'inline_$method'::regclass)
		  FROM inline_$method}),
		"$method true 0", "inline_$method is compressed with $method in its row");
	is($node->safe_psql('postgres', "SELECT simhash(t) = simhash(t || '') FROM inline_$method"),
		't', "inline_$method: decoded from the row as in memory, before the damage");
	$inline_file{$method} = $node->data_dir . '/' . $node->safe_psql('postgres',
		"SELECT pg_relation_filepath('inline_$method')");
}
$node->stop;

# Block 0 of a table file, and the offset of its first tuple's data (from
# the first line pointer and the tuple's t_hoff).
sub first_tuple_data
{
	my ($path) = @_;
	open(my $fh, '<', $path) or die "open $path: $!";
	binmode $fh;
	my $page;
	sysread($fh, $page, 8192) == 8192 or die "short read of $path";
	close $fh;
	my $tuple = unpack('L', substr($page, 24, 4)) & 0x7fff;
	return ($page, $tuple + unpack('C', substr($page, $tuple + 22, 1)));
}

# Offset in a TOAST table file of the compressed bytes of chunk 0 (after
# the 4 bytes of raw size and method).
sub chunk0_data
{
	my ($page, $data) = first_tuple_data(@_);
	my $seq = unpack('l', substr($page, $data + 4, 4));
	die "block 0 starts with chunk $seq" if $seq != 0;
	# chunk_id, chunk_seq, the 4-byte header of chunk_data, va_tcinfo
	return $data + 4 + 4 + 4 + 4;
}

# Offset in a table file of the compressed bytes of the first row's first
# column, a text compressed in its row (after its 4-byte header and the 4
# bytes of raw size and method).
sub row0_data
{
	my ($page, $data) = first_tuple_data(@_);
	return $data + 4 + 4;
}

# The first item a back-reference to before the start of the output:
# pglz: control byte 1 (a tag), tag with offset 255; lz4: a token with no
# literals and a match, offset 16.
my %damage = (pglz => "\x01\x0f\xff", lz4 => "\x00\x10\x00");
poke($file{$_}, chunk0_data($file{$_}), $damage{$_}) for @methods;
poke($inline_file{$_}, row0_data($inline_file{$_}), $damage{$_}) for @methods;
$node->start;

for my $method (@methods)
{
	my ($ret, $out, $err) = $node->psql('postgres',
		"\\set VERBOSITY verbose\nSELECT simhash(t) FROM damaged_$method");
	isnt($ret, 0, "damaged $method data: simhash fails");
	like($err, qr/XX001.*compressed $method data is corrupt.*offset before the start/s,
		"damaged $method data: SQLSTATE XX001 (data_corrupted), saying what is wrong");
	($ret, $out, $err) = $node->psql('postgres', "SELECT md5(t) FROM damaged_$method");
	# (PostgreSQL's own message: "compressed data is corrupted" before 14)
	like($err, qr/compressed (?:$method )?data is corrupt/, "damaged $method data: detoasting fails too");
	($ret, $out, $err) = $node->psql('postgres', "SELECT simhash_features(t) FROM damaged_$method");
	like($err, qr/compressed $method data is corrupt/, "damaged $method data: simhash_features fails");

	($ret, $out, $err) = $node->psql('postgres',
		"\\set VERBOSITY verbose\nSELECT simhash(t) FROM inline_$method");
	isnt($ret, 0, "damaged $method data in a row: simhash fails");
	like($err, qr/XX001.*compressed $method data is corrupt/s,
		"damaged $method data in a row: SQLSTATE XX001 (data_corrupted)");
	# (pglz in a row is decoded by toast_decode.c, lz4 by liblz4)
	like($err, qr/inline value: offset before the start/, 'damaged pglz data in a row: saying what is wrong')
	  if $method eq 'pglz';
	($ret, $out, $err) = $node->psql('postgres', "SELECT md5(t) FROM inline_$method");
	like($err, qr/compressed (?:$method )?data is corrupt/, "damaged $method data in a row: detoasting fails too");
}
like($node->safe_psql('postgres', "SELECT simhash(text 'still running')"), qr/^[0-9a-f]{16}$/,
	'the server carries on');

$node->stop;
done_testing();
