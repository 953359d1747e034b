# The fast path of simhash_html (src/html/fast.c, the default) against
# libxml2's HTML parser, its reference (parser => 'libxml2'):
#   - real pages: the HTML files this system has under /usr/share/doc and
#     /usr/share (up to 400; Debian's manuals when installed) and pages
#     built from the common licenses on three site templates (HTML5
#     elements, divs with class names, a table layout): the same text on
#     at least 99 % of them, and fingerprints within 3 bits on all (or none
#     from either: a page without words, such as an empty one, has none);
#   - random pages of tags, attributes, entities, comments, scripts and
#     stray markup characters (a fixed seed and a new one each run):
#     the same text on most (broken markup is where the two may part), the
#     fingerprints within 3 bits (with and without boilerplate) on at
#     least 75 % (measured: about 80 %; these pages are short);
#   - bad input: the same text on deep, misnested and unterminated pages;
use strict;
use warnings;
use utf8;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use File::Find;
use FindBin;
use lib $FindBin::Bin;
use SimhashTest;

my $node = PostgreSQL::Test::Cluster->new('html_fast_path');
$node->init;
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION simhash;
	CREATE TABLE pages (kind text, name text, html text);
	CREATE FUNCTION parsed(parser text, html text, b text) RETURNS text LANGUAGE sql AS $$
	SELECT simhash_html_text(html, b, parser) $$;
	-- within 3 bits, or both without a fingerprint (a text without words,
	-- such as an empty page's, has none: simhash gives NULL)
	CREATE FUNCTION near(a text, b text) RETURNS boolean LANGUAGE sql AS $$
	SELECT coalesce(fa <-> fb <= 3, fa IS NULL AND fb IS NULL)
	  FROM (SELECT simhash(a) AS fa, simhash(b) AS fb) f $$;
});

sub copy_escape
{
	my ($s) = @_;
	$s =~ s/\\/\\\\/g;
	$s =~ s/\t/\\t/g;
	$s =~ s/\n/\\n/g;
	$s =~ s/\r/\\r/g;
	$s =~ s/\x00//g;
	return $s;
}

sub load
{
	my ($rows) = @_;    # [kind, name, html] (characters)
	my $copy = join('', map { join("\t", map { copy_escape($_) } @$_) . "\n" } @$rows);
	utf8::encode($copy);
	my ($ret, $out, $err) = $node->psql('postgres', "COPY pages FROM STDIN;\n$copy\\.\n");
	die "COPY failed: $err" if $ret != 0;
}

# HTML files of this system, valid UTF-8, under 2 MB.
my @files;
for my $root ('/usr/share/doc', '/usr/share')
{
	next unless -d $root;
	find(
		{
			no_chdir => 1,
			wanted => sub {
				push @files, $File::Find::name
				  if /\.html?$/ && -f $_ && -s _ < 2_000_000 && @files < 4000;
			}
		},
		$root);
}
my %seen;
@files = grep { !$seen{$_}++ } sort @files;
srand(42);
for (my $i = $#files; $i > 0; $i--)
{
	my $j = int(rand($i + 1));
	@files[ $i, $j ] = @files[ $j, $i ];
}
my @real;
for my $f (@files)
{
	last if @real >= 400;
	open my $fh, '<:raw', $f or next;
	local $/;
	my $bytes = <$fh>;
	close $fh;
	next unless utf8::decode($bytes);
	push @real, [ 'real', $f, $bytes ];
}
note scalar(@real) . ' HTML files of this system';

# Pages built from the common licenses on three templates.
my @licenses = grep { -f $_ && -s _ < 200_000 } glob('/usr/share/common-licenses/*');
my @built;
for my $i (0 .. $#licenses)
{
	open my $fh, '<:encoding(UTF-8)', $licenses[$i] or next;
	local $/;
	my $text = <$fh>;
	close $fh;
	my @paras = grep { /\S/ } split /\n\s*\n/, $text;
	s/&/&amp;/g, s/</&lt;/g, s/>/&gt;/g for @paras;
	my $body = join("\n", map { "<p>$_</p>" } @paras);
	my $nav = join('', map { "<li><a href=\"/$_\">$_</a></li>" } qw(Home News Licenses About Contact));
	my @tpl = (
		"<!DOCTYPE html><html><head><meta charset=utf-8><title>License $i</title><style>p{margin:0}</style>"
		  . "<script>var x = '<p>' + 1 < 2;</script></head><body><header><nav><ul>$nav</ul></nav></header>"
		  . "<main><article><h1>License $i</h1>$body</article></main><aside><h3>Related</h3><ul>$nav</ul></aside>"
		  . "<footer><p>&copy; 2024 Example &amp; Co.</p></footer><!-- cache --></body></html>",
		"<html><head><title>License $i</title></head><body><div id=wrapper><div class=menu>$nav</div>"
		  . "<div class=content><div class=post>$body</div><div class=share>Share: <a href=#>x</a></div></div>"
		  . "<div id=sidebar class=widget>$nav</div><div class=footer>Copyright</div></div></body></html>",
		"<html><body bgcolor=white><table width=100%><tr><td colspan=2><font size=+2>Site</font><br>"
		  . join(' | ', map { "<a href=/$_>$_</a>" } qw(a b c)) . "</td></tr><tr><td valign=top>"
		  . join('<br>', map { "<a href=/$_>$_</a>" } qw(x y z)) . "</td><td>"
		  . join('<br><br>', @paras) . "</td></tr></table></body></html>");
	push @built, [ 'built', "$licenses[$i] $_", $tpl[$_] ] for 0 .. 2;
}
note scalar(@built) . ' pages built from the common licenses';
load([ @real, @built ]);

sub compare
{
	my ($kind) = @_;
	return $node->safe_psql('postgres', qq{
		SELECT count(*),
		       count(*) FILTER (WHERE parsed('fast', html, 'keep') = parsed('libxml2', html, 'keep')
		                          AND parsed('fast', html, 'remove') = parsed('libxml2', html, 'remove')),
		       count(*) FILTER (WHERE near(parsed('fast', html, 'keep'), parsed('libxml2', html, 'keep'))
		                          AND near(parsed('fast', html, 'remove'), parsed('libxml2', html, 'remove')))
		  FROM pages WHERE kind = '$kind'});
}

for my $kind ('real', 'built')
{
	my ($n, $same, $near) = split /\|/, compare($kind);
  SKIP:
	{
		skip "only $n $kind pages", 2 if $n < 20;
		cmp_ok($same, '>=', 0.99 * $n, "$kind pages: the same text on $same of $n");
		is($near, $n, "$kind pages: fingerprints within 3 bits on all $n");
	}
}

# Random pages, a fixed seed and a new one.
for my $seed (20261125, (time() ^ $$) % (1 << 30))
{
	srand($seed);
	$node->safe_psql('postgres', "DELETE FROM pages WHERE kind = 'random'");
	load([ map { [ 'random', $_, random_html_page() ] } 1 .. 1000 ]);
	my ($n, $same, $near) = split /\|/, compare('random');
	note "random pages (seed $seed): the same text on $same of $n, fingerprints within 3 bits on $near";
	cmp_ok($same, '>=', 0.6 * $n, "random pages (seed $seed): the same text on $same of $n");
	cmp_ok($near, '>=', 0.75 * $n, "random pages (seed $seed): fingerprints within 3 bits on $near of $n");
}

# Bad input: the same text.
my $bad = $node->safe_psql('postgres', q{
	SELECT count(*) FILTER (WHERE parsed('fast', html, 'keep') = parsed('libxml2', html, 'keep'))
	  FROM (VALUES (repeat('<div>', 100000) || 'deep' || repeat('</div>', 100000)),
	               (repeat('<div>', 100000) || 'deep' || repeat('</span>', 100000)),
	               (repeat('<b><i>', 50000) || 'deep' || repeat('</b></p>', 50000)),
	               (repeat('<table><tr><td>', 30000) || 'cell'),
	               (repeat('<p>para ', 100000)),
	               ('<p>text <a href="x'), ('<p>before</p><!-- never closed <p>after'),
	               ('<p>before</p><script>var x = "<p>after"')) v(html)});
is($bad, 8, 'deep, misnested and unterminated pages: the same text');

$node->stop;
done_testing();
