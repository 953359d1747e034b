# The ASCII kernels of the tokenizer (src/fingerprint/tokenizer_sse2.c,
# tokenizer_avx2.c, tokenizer_avx512.c) against the scalar reference
# (tokenizer_ascii.c): test/fuzz/tokenizer_kernels.c runs each kernel the
# CPU has on random and adversarial ASCII spans, with and without version
# 5's line cuts, and compares the token streams (bytes, run-break flags and
# line switches) and the hashes the kernels count themselves (the
# RunCounter and TfCounter they fill) with the reference's; then
# test/fuzz/golden_kernels.c computes every golden vector
# (test/golden/vectors*.csv) with each kernel, through the whole pipeline
# outside a server.  Kernels the CPU lacks are skipped, with a note.  The
# first program also checks three pure functions of the weighting on all
# or random inputs: LineClass and the line breaks TypicalLineLength lists
# (version 5), and TypicalCap (version 8).  No server is needed.
# The AVX-512 kernel also runs on every CPU as "avx512-emulated":
# tokenizer_avx512.c compiled unchanged with its intrinsics emulated in
# portable C (SIMDe, libsimde-dev, and test/fuzz/avx512emu/ for what SIMDe
# lacks), in both programs; the golden vectors also on an AVX-512 machine
# emulated whole (with weights.c's AVX-512 corrections).  Skipped, with a
# note, only where SIMDe is not installed.
# (Version 4's CJK fast path, tokenizer_cjk.c, is linked in because the ICU
# path calls it; the regression test fingerprint_icu compares it with ICU.)
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;

my $pg_config = $ENV{PG_CONFIG} // 'pg_config';
chomp(my $includedir = `$pg_config --includedir-server`);
chomp(my $cc = `$pg_config --cc`);
$cc = (split ' ', $cc)[0] || 'cc';

# ICU (for the run-break table the kernels read, as the server builds it)
my $icu = `pkg-config --cflags --libs icu-uc 2>/dev/null`;
$icu = '-licuuc -licudata' if $? != 0 || $icu !~ /\S/;
my @icuflags = split(' ', $icu);

my @sources = map { "src/fingerprint/$_.c" }
  qw(tokenizer_ascii tokenizer_sse2 tokenizer_avx2 tokenizer_avx512 tokenizer_icu tokenizer_cjk
     weights frequent_words lanes lines);
my $dir = PostgreSQL::Test::Utils::tempdir();
my $bin = "$dir/tokenizer_kernels";
my ($stdout, $stderr);

# compiles one object or program; returns whether it built
sub compile
{
	my ($out, @args) = @_;
	return IPC::Run::run(
		[ $cc, '-O2', '-Wno-psabi', '-Isrc', "-I$includedir", @args, '-o', $out,
		  @icuflags, '-lm' ],
		'>', \$stdout, '2>', \$stderr);
}


# The emulated AVX-512 kernel, where SIMDe is installed: its own object,
# since its <immintrin.h> is the emulation's (and no -mavx: see there)
my @emulated;
my $simde = IPC::Run::run([ $cc, '-E', '-x', 'c', '-' ],
	'<', \"#include <simde/x86/avx512.h>\n", '>', \$stdout, '2>', \$stderr);
if ($simde)
{
	my $obj = "$dir/tokenizer_avx512_emulated.o";
	my $ok = compile($obj, '-Itest/fuzz/avx512emu', '-c',
		'test/fuzz/avx512emu/tokenizer_avx512_emulated.c');
	ok($ok, 'the AVX-512 kernel builds with its instructions emulated') or diag($stderr);
	@emulated = ('-DHAVE_AVX512_EMULATED', $obj) if $ok;
}
else
{
	diag('avx512-emulated: skipped, SIMDe is not installed (apt-get install libsimde-dev)');
}

my $built = compile($bin, 'test/fuzz/tokenizer_kernels.c', @sources, @emulated);
ok($built, 'the kernel comparison program builds') or diag($stderr);

# a fixed seed, then a new one each run (printed, to replay a failure)
for my $seed (1, time())
{
	my $ran = IPC::Run::run([ $bin, 20000, $seed ], '>', \$stdout, '2>', \$stderr);
	note "seed $seed:\n$stdout";
	diag($_) for grep { /skipped/ && $seed == 1 } split /\n/, $stdout;
	ok($ran && $stdout =~ /^all kernels agree$/m,
		"every kernel gives the scalar kernel's tokens and hashes on 20000 spans (seed $seed)")
	  or diag("$stdout$stderr");
	ok($stdout =~ /^LineClass divides exactly for every line length$/m,
		"LineClass, multiplying by LineInverse, gives the division's quotient (seed $seed)")
	  or diag("$stdout$stderr");
	# the line breaks of version 5 (lines.c), listed with AVX2 to the last
	# byte, against the byte-by-byte search
	ok($stdout =~ /^the line breaks agree with and without SIMD in \d+ texts$/m,
		"TypicalLineLength lists the same line breaks with and without SIMD (seed $seed)")
	  or diag("$stdout$stderr");
	# version 8's cap of the typical word (weights.c), against a sort of
	# every word, in documents where the median changes the cap
	ok($stdout =~ /^TypicalCap agrees with its definition in (\d+) documents, (\d+) of them capped by the median$/m
		  && $2 > 100,
		"TypicalCap gives the cap its definition gives (seed $seed)")
	  or diag("$stdout$stderr");
	# every kernel saw line cuts taken (version 5's LineCheck)
	ok($stdout =~ /^(\d+) runs with line cuts, (\d+) cuts taken$/m && $1 > 1000 && $2 > 1000,
		"the spans exercise line cuts (seed $seed)")
	  or diag($stdout);
	ok(!$simde || $stdout =~ /^avx512-emulated: \d+ runs .* 0 disagreements$/m,
		"the emulated AVX-512 kernel ran (seed $seed)")
	  if $seed == 1;
}

# The golden vectors with each kernel, through the whole pipeline:
# tokenizer.c (the driver) in its own object, so that each document runs
# the kernel under test (GoldenKernel); and, where SIMDe is, an AVX-512
# machine emulated (see golden_kernels.c): the emulated kernel, weights.c's
# AVX-512 corrections emulated, and the CJK hashing of an AVX-512 machine.
my @golden_sources = map { "src/fingerprint/$_.c" }
  qw(tokenizer_ascii tokenizer_sse2 tokenizer_avx2 tokenizer_avx512 tokenizer_icu frequent_words
	 lanes lines features options);
my @vectors = (3, 'test/golden/vectors.csv', 4, 'test/golden/vectors_v4.csv',
	5, 'test/golden/vectors_v5.csv', 8, 'test/golden/vectors_v8.csv');

my $driver = "$dir/tokenizer_golden.o";
my $golden = "$dir/golden_kernels";
$built = compile($driver, '-DChooseAsciiKernel=GoldenKernel', '-c', 'src/fingerprint/tokenizer.c')
  && compile($golden, 'test/fuzz/golden_kernels.c', $driver, @golden_sources,
	'src/fingerprint/tokenizer_cjk.c', 'src/fingerprint/weights.c');
ok($built, 'the golden vector program builds') or diag($stderr);
my $ran = IPC::Run::run([ $golden, @vectors ], '>', \$stdout, '2>', \$stderr);
note $stdout;
ok($ran && $stdout =~ /^every kernel gives the golden vectors$/m,
	'every kernel gives the golden vectors of versions 3, 4, 5 and 8')
  or diag("$stdout$stderr");
# (the counts guard against a silently empty or truncated file)
is(join(',', $stdout =~ /^scalar: version \d, (\d+) vectors/mg), '444,576,1057,1213',
	'the scalar kernel computed every vector of each file');

if (@emulated)
{
	my $machine = "$dir/golden_avx512_emulated";
	$built = compile("$dir/weights_emulated.o", '-Itest/fuzz/avx512emu', '-c',
		'src/fingerprint/weights.c')
	  && compile("$dir/tokenizer_cjk_emulated.o", '-Itest/fuzz/avx512emu',
		'-DSegmentAsciiAvx512=SegmentAsciiAvx512Emulated', '-c',
		'src/fingerprint/tokenizer_cjk.c')
	  && compile($machine, @emulated, 'test/fuzz/golden_kernels.c', $driver, @golden_sources,
		"$dir/weights_emulated.o", "$dir/tokenizer_cjk_emulated.o");
	ok($built, 'the golden vector program of an emulated AVX-512 machine builds')
	  or diag($stderr);
	$ran = IPC::Run::run([ $machine, @vectors ], '>', \$stdout, '2>', \$stderr);
	note $stdout;
	ok( $ran
		  && $stdout =~ /^every kernel gives the golden vectors$/m
		  && join(',', $stdout =~ /^avx512-emulated: version \d, (\d+) vectors/mg) eq
		  '444,576,1057,1213',
		'an emulated AVX-512 machine gives the golden vectors of versions 3, 4, 5 and 8')
	  or diag("$stdout$stderr");
}

done_testing();
