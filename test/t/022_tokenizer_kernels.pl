# The ASCII kernels of the tokenizer (src/fingerprint/tokenizer_sse2.c,
# tokenizer_avx2.c, tokenizer_avx512.c) against the scalar reference
# (tokenizer_ascii.c): test/fuzz/tokenizer_kernels.c runs each kernel the
# CPU has on random and adversarial ASCII spans and compares the token
# streams (bytes and run-break flags) and the hashes the kernels count
# themselves (the RunCounter and TfCounter they fill) with the reference's.
# Kernels the CPU lacks are skipped, with a note.  No server is needed.
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

my @sources = map { "src/fingerprint/$_.c" }
  qw(tokenizer_ascii tokenizer_sse2 tokenizer_avx2 tokenizer_avx512 tokenizer_icu tokenizer_cjk
     weights frequent_words lanes);
my $bin = PostgreSQL::Test::Utils::tempdir() . '/tokenizer_kernels';
my ($stdout, $stderr);
my $built = IPC::Run::run(
	[ $cc, '-O2', '-Isrc', "-I$includedir", 'test/fuzz/tokenizer_kernels.c',
	  @sources, '-o', $bin, split(' ', $icu), '-lm' ],
	'>', \$stdout, '2>', \$stderr);
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
}

done_testing();
