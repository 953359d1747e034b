# Every SQL example of the documentation runs: each ```sql block of
# README.md, CONTRIBUTING.md and doc/*.md is run against a throwaway server
# with the extension, statement by statement, stopping at the first error;
# and where a statement's last line ends in a comment of one word that is a
# value (it has a digit, is 16 hex digits, or t/f/true/false:
# "SELECT ...;   -- 8212868318d29267"), that word must be its result.
#
# Conventions (doc/testing.md, "The documentation's SQL"), as HTML comments
# right before a block, invisible on a rendered page:
#   <!-- setup: SQL -->     runs first, in the same database (a psql script:
#                           it may use \c to prepare other databases, and
#                           \c :docdb to come back)
#   <!-- continue -->       run in the previous block's database, after it
#   <!-- params: v1, v2 --> values for $1, $2 (default: '8212868318d29267',
#                           read as text or as a simhash, as the statement needs)
#   <!-- expect: TEXT -->   the block's output contains TEXT (one per line
#                           of a plan to check; as many as needed)
#   <!-- requires: ext -->  skipped, and listed, where the server lacks the
#                           extension ext (a server built without contrib)
#   <!-- skip-test: why --> not run; listed in the output (keep these rare);
#                           a block whose first line is "-- ignore-test: why"
#                           is skipped the same way, visibly
# Otherwise each block gets a new database in which the extension exists
# already ("CREATE EXTENSION simhash" in a block runs as IF NOT EXISTS).
# A statement with $1 is run as PREPARE and EXECUTE.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use List::Util;

my $root = "$FindBin::Bin/../..";
my @files = grep { -f "$root/$_" } ('README.md', 'CONTRIBUTING.md',
	map { s{^\Q$root\E/}{}r } sort glob("$root/doc/*.md"));

my $node = PostgreSQL::Test::Cluster->new('docs');
$node->init;
{
	# The server's own libpq connections (postgres_fdw servers without host
	# and port, as the FAQ writes them) reach this server.
	local $ENV{PGHOST} = $node->host;
	local $ENV{PGPORT} = $node->port;
	$node->start;
}
$node->safe_psql('postgres', 'CREATE DATABASE doc_template');
$node->safe_psql('doc_template', 'CREATE EXTENSION simhash');
my %available = map { $_ => 1 } split /\n/,
  $node->safe_psql('postgres', 'SELECT name FROM pg_available_extensions');

# The ```sql blocks of a file: [line, sql, {markers}].
sub blocks
{
	my ($file) = @_;
	my @lines = split /\n/, slurp_file("$root/$file"), -1;
	my (@blocks, @comments);
	for (my $i = 0; $i < @lines; $i++)
	{
		if ($lines[$i] =~ /^<!--/)
		{
			my $c = $lines[$i];
			$c .= "\n" . $lines[++$i] while $c !~ /-->/ && $i + 1 < @lines;
			push @comments, $c;
			next;
		}
		next if $lines[$i] =~ /^\s*$/ && @comments;
		if ($lines[$i] =~ /^```sql\s*$/)
		{
			my $start = $i + 1;
			my @sql;
			push @sql, $lines[$i] while ++$i < @lines && $lines[$i] !~ /^```/;
			my %m;
			for (@comments)
			{
				$m{setup} .= "$1\n" if /^<!--\s*setup:\s*(.*?)\s*-->$/s;
				$m{continue} = 1 if /^<!--\s*continue\s*-->$/;
				$m{params} = $1 if /^<!--\s*params:\s*(.*?)\s*-->$/s;
				$m{skip} = $1 if /^<!--\s*skip-test:\s*(.*?)\s*-->$/s;
				push @{ $m{expect} }, $1 if /^<!--\s*expect:\s*(.*?)\s*-->$/s;
				$m{requires} = $1 if /^<!--\s*requires:\s*(\S+)\s*-->$/;
			}
			$m{skip} = $1 if $sql[0] && $sql[0] =~ /^--\s*ignore-test:\s*(.*)$/;
			push @blocks, [ $start, join("\n", @sql) . "\n", \%m ];
		}
		@comments = ();
	}
	return @blocks;
}

# Splits SQL into statements at semicolons outside quotes, dollar quotes and
# comments; each keeps the comment that follows it on its last line.
sub statements
{
	my ($sql) = @_;
	my (@out, $cur);
	$cur = '';
	while (length $sql)
	{
		if ($sql =~ s/^('(?:[^']|'')*'|"(?:[^"]|"")*"|(\$[A-Za-z_]*\$).*?\2|--[^\n]*|\/\*.*?\*\/|[^;'"\$\-\/]+|.)//s)
		{
			my $tok = $1;
			$cur .= $tok;
			if ($tok eq ';')
			{
				$cur .= $1 if $sql =~ s/^([ \t]*--[^\n]*)//;   # its trailing comment
				push @out, $cur;
				$cur = '';
			}
		}
	}
	push @out, $cur if $cur =~ /\S/ && $cur !~ /^(\s|--[^\n]*)*$/;
	return @out;
}

my ($blocks, $skipped, $checked) = (0, 0, 0);
my @skips;
my $dbno = 0;
for my $file (@files)
{
	my $db;
	for my $b (blocks($file))
	{
		my ($line, $sql, $m) = @$b;
		my $where = "$file:$line";
		$m->{skip} //= "the server has no $m->{requires}"
		  if $m->{requires} && !$available{ $m->{requires} };
		if (defined $m->{skip})
		{
			$skipped++;
			push @skips, "$where ($m->{skip})";
			next;
		}
		if (!$m->{continue} || !defined $db)
		{
			$db = 'doc_' . ++$dbno;
			$node->safe_psql('postgres', "CREATE DATABASE $db TEMPLATE doc_template");
		}
		my @params = defined $m->{params} ? $m->{params} =~ /('(?:[^']|'')*'|[^,\s][^,]*)/g : ();

		# The script: setup, then each statement followed by a marker line, so
		# that each statement's output can be told apart.
		my $script = "\\set docdb $db\n" . ($m->{setup} // '');
		my @stmts = statements($sql);
		for my $i (0 .. $#stmts)
		{
			my $s = $stmts[$i] =~ s/\bCREATE EXTENSION simhash\b/CREATE EXTENSION IF NOT EXISTS simhash/gr;
			# parameters outside quotes and dollar-quoted bodies
			my $bare = $s =~ s/'(?:[^']|'')*'|(\$[A-Za-z_]*\$).*?\1//gsr;
			if ($bare =~ /\$(\d)/)
			{
				my $n = List::Util::max($bare =~ /\$(\d)/g);
				my $body = $s =~ s/;([ \t]*--[^\n]*)?\s*$//r;
				my @values = map { $params[ $_ - 1 ] // q{'8212868318d29267'} } 1 .. $n;
				$s = "PREPARE doc_stmt AS $body;\nEXECUTE doc_stmt(" . join(', ', @values)
				  . ");\nDEALLOCATE doc_stmt;";
			}
			$script .= "$s\n\\echo \@\@doc-statement-$i\@\@\n";
		}
		my ($out, $err) = ('', '');
		my $rc = $node->psql($db, $script, stdout => \$out, stderr => \$err,
			on_error_stop => 1, extra_params => [ '-At' ]);
		$blocks++;
		ok($rc == 0, "$where runs") or diag("$err\n--- the block:\n$sql");
		next if $rc != 0;
		for my $text (@{ $m->{expect} // [] })
		{
			ok(index($out, $text) >= 0, "$where: the output shows $text") or diag($out);
		}

		# One-word comments after a statement are its expected result.
		my @outputs = split /^\@\@doc-statement-\d+\@\@\n?/m, "$out\n";
		for my $i (0 .. $#stmts)
		{
			next unless $stmts[$i] =~ /;[ \t]*--[ \t]*(\S+)[ \t]*$/;
			my $expected = $1;
			# a value, not a word of prose: it has a digit, is a fingerprint, or a boolean
			next unless $expected =~ /\d|^[0-9a-f]{16}$|^(?:t|f|true|false)$/;
			my $got = $outputs[$i] // '';
			$got =~ s/\s+$//;
			$checked++;
			is($got, $expected, "$where: statement " . ($i + 1) . " returns $expected");
		}
	}
}
diag("skipped: $_") for @skips;
ok($blocks > 0, "$blocks blocks run, $checked results compared, $skipped skipped");

done_testing();
