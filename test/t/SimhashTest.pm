# Helpers shared by the TAP tests: SQL for random fingerprints, bit flips,
# and the distance computed without any simhash operator (the truth that
# index answers and planner rewrites are compared with); poke, to damage
# files on disk, and without_checksums, so that the damage reaches simhash.
package SimhashTest;
use strict;
use warnings;
use utf8;
use Exporter 'import';
our @EXPORT = qw($SIMHASH_TEST_SQL poke without_checksums compression_clause
  column_compression random_html_page default_version released_versions);

our $SIMHASH_TEST_SQL = q{
	CREATE EXTENSION simhash;
	CREATE FUNCTION rand_fp() RETURNS simhash LANGUAGE sql VOLATILE
		AS $$ SELECT ((floor(random() * 4294967296)::bigint << 32)
		              | floor(random() * 4294967296)::bigint)::simhash $$;
	-- Flip up to n random bits (positions may repeat).
	CREATE FUNCTION flip(fp simhash, n integer) RETURNS simhash LANGUAGE sql VOLATILE
		AS $$ SELECT (fp::bigint # coalesce(bit_or(1::bigint << floor(random() * 64)::int), 0))::simhash
		        FROM generate_series(1, n) $$;
	CREATE FUNCTION slow_distance(a simhash, b simhash) RETURNS integer LANGUAGE sql IMMUTABLE
		AS $$ SELECT length(replace((a::bigint # b::bigint)::bit(64)::text, '0', '')) $$;
};

# Turns page checksums off in a node that is not running (PostgreSQL 18's
# initdb turns them on), so that damage a test does to a page reaches
# simhash's own checks instead of failing the page's checksum.  Where they
# are off already pg_checksums fails, harmlessly.
sub without_checksums
{
	my ($node) = @_;
	PostgreSQL::Test::Utils::system_log('pg_checksums', '--disable', '-D', $node->data_dir);
}

# TOAST compression methods arrived in PostgreSQL 14; before, a compressed
# value is pglz and a column takes no COMPRESSION clause.  The clause that
# asks for $method in a column definition ('' on 13, where only pglz is
# asked for), and the SQL expression naming the method of column t
# (pg_column_compression(t) from 14 on).
sub compression_clause
{
	my ($node, $method) = @_;
	return $node->safe_psql('postgres', 'SHOW server_version_num') >= 140000
	  ? "COMPRESSION $method" : '';
}

sub column_compression
{
	my ($node) = @_;
	return $node->safe_psql('postgres', 'SHOW server_version_num') >= 140000
	  ? 'pg_column_compression(t)'
	  : "CASE WHEN pg_column_size(t) < octet_length(t) THEN 'pglz' END";
}

# The version CREATE EXTENSION installs (simhash.control's default_version),
# and the released versions whose install scripts are frozen in
# src/install/released, oldest first; $root is the repository.
sub default_version
{
	my ($root) = @_;
	my ($version) = PostgreSQL::Test::Utils::slurp_file("$root/simhash.control")
	  =~ /^default_version\s*=\s*'([^']+)'/m;
	return $version;
}

sub released_versions
{
	my ($root) = @_;
	return sort { version_key($a) cmp version_key($b) }
	  map { m{simhash--([^-]+)\.sql$} ? $1 : () }
	  glob("$root/src/install/released/simhash--*.sql");
}

sub version_key { return join '.', map { sprintf '%05d', $_ } split /\./, $_[0]; }

# Overwrites bytes of a file (a relation file of a stopped server) at an offset.
sub poke
{
	my ($path, $offset, $bytes) = @_;
	open(my $fh, '+<', $path) or die "open $path: $!";
	binmode $fh;
	sysseek($fh, $offset, 0) or die;
	syswrite($fh, $bytes) == length($bytes) or die;
	close $fh;
}


# A random page of tags (known, unknown, upper case), attributes with and
# without quotes, entities (valid and not), comments, doctypes, CDATA,
# processing instructions, stray markup characters and words of several
# scripts: valid UTF-8, for the simhash_html tests (023, 024); rand() decides.
my @html_tags = qw(p div span a b i li ul ol table tr td th h1 h2 pre br hr img nav header footer
  aside main article section title head body html script style noscript template textarea
  select option iframe svg math form input button blockquote code em strong font center
  x-widget foo:bar);
my @html_words = ('word', 'text', 'near', 'duplicate', '中文', '网页', 'Ελληνικά', 'русский',
	'日本語', 'ไทย', 'a', 'the', '123', '4.5');
my @html_junk = ('<', '>', '&', '&amp;', '&lt;', '&#x263A;', '&#0;', '&#xD800;', '&#99999999;',
	'&nbsp', '&bogus;', '</', '<!--', '-->', '<!DOCTYPE html>', '<![CDATA[', ']]>', '<?php ',
	'?>', '"', "'", '=', '/>', "\t", "\n", ' ', "\x{A0}");

sub random_html_page
{
	my $s = '';
	for (1 .. 5 + int(rand(300)))
	{
		my $r = rand();
		if ($r < 0.3)
		{
			my $t = $html_tags[ int(rand(@html_tags)) ];
			$t = uc $t if rand() < 0.1;
			my $attrs = '';
			for (1 .. int(rand(3)))
			{
				my $q = (q{"}, q{'}, '')[ int(rand(3)) ];
				$attrs .= ' ' . (qw(class id href role title style x))[ int(rand(7)) ]
				  . '=' . $q . (qw(nav menu content main a&b x>y sidebar))[ int(rand(7)) ] . $q;
			}
			$s .= rand() < 0.6 ? "<$t$attrs>" : "</$t>";
		}
		elsif ($r < 0.45) { $s .= $html_junk[ int(rand(@html_junk)) ]; }
		else { $s .= $html_words[ int(rand(@html_words)) ] . (rand() < 0.7 ? ' ' : ''); }
	}
	return $s;
}

1;
