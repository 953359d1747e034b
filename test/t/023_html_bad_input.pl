# simhash_html on bad and huge input: never an error, never a crash,
# memory bounded independently of nesting depth, interrupts served.
#   - a 100 MB page: fingerprinted, and the backend's peak resident memory
#     (VmHWM) grows by less than 3.5 times the page (the value,
#     libxml2's copy of it, the text);
#   - a million unclosed <div> followed by a million stray end tags (which
#     libxml2 alone would scan its whole stack for, 10^12 steps): done in
#     seconds, and its peak memory grows no more than a flat page's of the
#     same size;
#   - a statement timeout cancels a long parse;
#   - 1,500 random pages of tags, attributes with and without quotes,
#     entities, comments, scripts, stray < and &, CJK and other text:
#     no error, and every fingerprint is simhash() of simhash_html_text().
use strict;
use warnings;
use utf8;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time);
use FindBin;
use lib $FindBin::Bin;
use SimhashTest;

my $node = PostgreSQL::Test::Cluster->new('html_bad_input');
$node->init;
$node->append_conf('postgresql.conf', "shared_buffers = 8MB\n");
$node->start;

$node->safe_psql('postgres', q{
	CREATE EXTENSION simhash;
	CREATE FUNCTION peak_kb() RETURNS bigint LANGUAGE sql VOLATILE
	AS $$ SELECT substring(pg_read_file('/proc/' || pg_backend_pid() || '/status')
	                       FROM 'VmHWM:\s*(\d+) kB')::bigint $$;
	CREATE UNLOGGED TABLE pages (name text, html text);
	INSERT INTO pages
	SELECT 'big', repeat('<div class="post"><p>Some words &amp; more words, <a href=/x?a=1&b=2>a link</a> '
	                     || '<b>bold <i>both</b> italic</i> 1 < 2 &copy; 中文的句子。</p><script>var x = "<p>";</script>'
	                     || '<!-- comment --></div>' || chr(10), 600000);
	INSERT INTO pages
	SELECT 'deep', repeat('<div>', 1000000) || 'deep text' || repeat('</span>', 1000000);
	INSERT INTO pages
	SELECT 'flat', repeat('<div>x</div>', 1000000);
});

my $big_kb = $node->safe_psql('postgres', "SELECT octet_length(html) / 1024 FROM pages WHERE name = 'big'");
cmp_ok($big_kb, '>=', 100 * 1000, "the big page has $big_kb kB");

# The result and the growth of the peak resident memory of a new backend
# over the query, after a warm-up (libxml2, ICU, catalog caches).
sub result_and_growth
{
	my ($expr) = @_;
	my $start = time();
	my $out = $node->safe_psql('postgres', qq{
		SELECT simhash_html('<p>warm up</p>') IS NOT NULL;
		SELECT peak_kb();
		SELECT $expr;
		SELECT peak_kb();
	});
	my ($warm, $before, $result, $after) = split /\n/, $out;
	return ($result, $after - $before, time() - $start);
}

my ($fp, $growth, $seconds) = result_and_growth(
	"simhash_html(html) IS NOT NULL FROM pages WHERE name = 'big'");
is($fp, 't', sprintf('the 100 MB page is fingerprinted (%.1f s)', $seconds));
cmp_ok($growth, '<', 3.5 * $big_kb,
	"the 100 MB page: peak memory grows by $growth kB, under 3.5 times the page");

my ($deep, $deep_growth, $deep_seconds) = result_and_growth(
	"replace(simhash_html_text(html), chr(10), '|') FROM pages WHERE name = 'deep'");
is($deep, 'deep text|', 'a million-deep page with a million stray end tags keeps its text');
cmp_ok($deep_seconds, '<', 60, sprintf('and takes %.1f s', $deep_seconds));
my ($flat, $flat_growth) = result_and_growth(
	"length(simhash_html_text(html)) FROM pages WHERE name = 'flat'");
is($flat, 2000000, 'the flat page of the same size keeps its text');
cmp_ok($deep_growth, '<', $flat_growth + 16 * 1024,
	"the deep page's peak memory grows by $deep_growth kB, not more than the flat page's ($flat_growth kB)");

# A statement timeout cancels the parse of the big page.
my $start = time();
my ($ret, $out, $err) = $node->psql('postgres',
	"SET statement_timeout = '200ms'; SELECT simhash_html(html) FROM pages WHERE name = 'big'");
my $cancelled = time() - $start;
like($err, qr/statement timeout/, 'a statement timeout cancels simhash_html');
cmp_ok($cancelled, '<', $seconds / 2,
	sprintf('cancelled after %.2f s of the %.2f s a whole run takes', $cancelled, $seconds));

# Random pages, from a fixed seed.
srand(20261125);
my $copy = '';
for my $i (1 .. 1500)
{
	my $page = random_html_page();
	$page =~ s/\\/\\\\/g;
	$page =~ s/\t/\\t/g;
	$page =~ s/\n/\\n/g;
	$copy .= "$i\t$page\n";
}
$node->safe_psql('postgres', 'CREATE TABLE random_pages (i int, html text)');
utf8::encode($copy);
my ($cret, $cout, $cerr) = $node->psql('postgres', "COPY random_pages FROM STDIN;\n$copy\\.\n");
is($cret, 0, 'the random pages are loaded') or diag $cerr;
my $summary = $node->safe_psql('postgres', q{
	SELECT count(*), count(*) FILTER (WHERE simhash_html(html) IS NOT DISTINCT FROM simhash(simhash_html_text(html))),
	       count(*) FILTER (WHERE simhash_html(html, 'keep') IS NOT DISTINCT FROM simhash(simhash_html_text(html, 'keep'))),
	       count(*) FILTER (WHERE (SELECT count(*) FROM simhash_html_blocks(html)) >= 0)
	  FROM random_pages});
is($summary, '1500|1500|1500|1500', 'random pages: no error, each fingerprint is simhash of the text');
is($node->safe_psql('postgres', 'SELECT 1'), '1', 'the server is up');

$node->stop;
done_testing();
