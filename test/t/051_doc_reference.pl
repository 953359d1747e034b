# doc/reference.md names everything the installed extension offers: every
# function, aggregate, operator, type, operator class and family, access
# method and cast (from the catalog: test/catalog/extension_objects.sql's
# kinds), every named argument of a function with options, every setting and
# each of its values (pg_settings), each value of the fingerprinting options
# (from the server's own error hints) and every index option (the
# add_*_reloption calls of src/index).  A new object without a line in the
# reference fails here, named.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;

my $root = "$FindBin::Bin/../..";
my $reference = slurp_file("$root/doc/reference.md");

my $node = PostgreSQL::Test::Cluster->new('reference');
$node->init;
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION simhash');

sub column
{
	my ($sql) = @_;
	return grep { length } split /\n/, $node->safe_psql('postgres', $sql);
}

my $members = q{
	JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'simhash' AND d.deptype = 'e'};
my %names = (
	'functions and aggregates' => [ column(qq{
		SELECT DISTINCT p.proname FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid
		  AND d.classid = 'pg_proc'::regclass $members ORDER BY 1}) ],
	'types' => [ column(qq{
		SELECT t.typname FROM pg_type t JOIN pg_depend d ON d.objid = t.oid
		  AND d.classid = 'pg_type'::regclass $members AND t.typcategory <> 'A' ORDER BY 1}) ],
	'operator classes and families' => [ column(qq{
		SELECT c.opcname FROM pg_opclass c JOIN pg_depend d ON d.objid = c.oid
		  AND d.classid = 'pg_opclass'::regclass $members
		UNION SELECT f.opfname FROM pg_opfamily f JOIN pg_depend d ON d.objid = f.oid
		  AND d.classid = 'pg_opfamily'::regclass $members ORDER BY 1}) ],
	'access methods' => [ column(qq{
		SELECT a.amname FROM pg_am a JOIN pg_depend d ON d.objid = a.oid
		  AND d.classid = 'pg_am'::regclass $members ORDER BY 1}) ],
	'cast types' => [ column(qq{
		SELECT DISTINCT format_type(t, NULL) FROM pg_cast c JOIN pg_depend d ON d.objid = c.oid
		  AND d.classid = 'pg_cast'::regclass $members, LATERAL (VALUES (c.castsource), (c.casttarget)) v(t)
		 ORDER BY 1}) ],
	'named arguments of functions with options' => [ column(qq{
		SELECT DISTINCT a FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid
		  AND d.classid = 'pg_proc'::regclass $members, unnest(p.proargnames) a
		 WHERE p.pronargdefaults > 0 AND a <> '' ORDER BY 1}) ],
	'settings and their values' => [ column(q{
		LOAD 'simhash';
		SELECT name FROM pg_settings WHERE name LIKE 'simhash.%'
		UNION SELECT unnest(enumvals) FROM pg_settings WHERE name LIKE 'simhash.%' ORDER BY 1}) ],
);

# The values each fingerprinting option takes, as the server lists them.
my @values;
for my $call (q{simhash(text 'x', 'no such kind')},
	q{simhash(text 'x', 'words', weighting => 'no such weighting')})
{
	my ($rc, $out, $err) = $node->psql('postgres', "SELECT $call", extra_params => [ '-v', 'VERBOSITY=verbose' ]);
	my ($hint) = $err =~ /^HINT:\s+(.*)$/m;
	ok(defined $hint, "$call lists the valid values") or diag($err);
	push @values, ($hint // '') =~ /"([^"]+)"/g;
}
$names{'fingerprinting option values'} = \@values;

# Index options, from the code that defines them.
my @reloptions;
for my $f (glob("$root/src/index/*.c"))
{
	push @reloptions, slurp_file($f) =~ /add_\w+_reloption\(\s*\w+,\s*"(\w+)"/g;
}
$names{'index options'} = \@reloptions;

for my $kind (sort keys %names)
{
	my @all = @{ $names{$kind} };
	my @missing = grep { $reference !~ /(?<![\w.])\Q$_\E(?![\w])/ } @all;
	ok(@all > 0 && !@missing, "doc/reference.md names all " . scalar(@all) . " $kind")
	  or diag("not in doc/reference.md: @missing");
}

# Operators: the symbol inside a code span, not part of a longer symbol.
my $opchars = '<>=@#!~|&^*+\-/%?';
my @operators = column(qq{
	SELECT DISTINCT o.oprname FROM pg_operator o JOIN pg_depend d ON d.objid = o.oid
	  AND d.classid = 'pg_operator'::regclass $members ORDER BY 1});
my @spans = ($reference =~ s/^```.*?^```//gmsr) =~ /`([^`]+)`/g;   # code spans outside fenced blocks
my @missing = grep {
	my $op = $_;
	!grep { /(?<![$opchars])\Q$op\E(?![$opchars])/ } @spans
} @operators;
ok(@operators > 0 && !@missing, 'doc/reference.md names all ' . scalar(@operators) . ' operators')
  or diag("not in doc/reference.md: @missing");

done_testing();
