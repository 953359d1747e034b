# Upgrading is the same as installing afresh.  For every released version
# (src/install/released/simhash--V.sql): CREATE EXTENSION simhash VERSION V
# against today's library, build a simhash index and a view on it, ALTER
# EXTENSION simhash UPDATE, and then
#  - the extension's catalog (every member object with its whole definition,
#    operator families with their operators and support functions, casts,
#    comments; test/catalog/extension_objects.sql) equals that of a fresh
#    CREATE EXTENSION simhash in another database, line for line;
#  - the index built before the upgrade passes simhash_index_check and
#    answers radius and k-NN queries exactly as a sequential scan, before and
#    after rows are added through it.
# An object added to src/install/*.sql but forgotten in the upgrade script,
# or a C symbol a released script names that the library no longer exports,
# fails here.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::Bin;
use SimhashTest;

my $root = "$FindBin::Bin/../..";
my $current = default_version($root);
my @released = released_versions($root);
ok(@released > 0, 'at least one released version is frozen in src/install/released');
my $catalog_sql = slurp_file("$root/test/catalog/extension_objects.sql");

my $node = PostgreSQL::Test::Cluster->new('upgrade');
$node->init;
$node->append_conf('postgresql.conf', "max_parallel_workers_per_gather = 0\n");
$node->start;

$node->safe_psql('postgres', 'CREATE DATABASE fresh');
$node->safe_psql('fresh', 'CREATE EXTENSION simhash');
my $fresh = $node->safe_psql('fresh', $catalog_sql);
like($fresh, qr/^extension simhash: version=\Q$current\E /m,
	"a fresh CREATE EXTENSION installs $current");

# The queries compared between an index plan and a sequential scan: radii 0
# to 6 around stored fingerprints and their near neighbours, and k-NN.
my $answers = q{
	SELECT string_agg(format('%s:%s:%s', q.id, r, (SELECT string_agg(d.id::text, ',' ORDER BY d.id)
	                                                FROM docs d WHERE d.fp <-> q.c <= r)), ' '
	                  ORDER BY q.id, r)
	  FROM (SELECT id, CASE WHEN id % 2 = 0 THEN fp ELSE (fp::bigint # (id * 2654435761))::simhash END AS c
	          FROM docs WHERE id % 97 = 3) q, generate_series(0, 6) r;
	SELECT string_agg(format('%s:%s', q.id, (SELECT string_agg((d.fp <-> q.fp)::text, ',')
	                                           FROM (SELECT fp FROM docs ORDER BY fp <-> q.fp LIMIT 7) d)), ' '
	                  ORDER BY q.id)
	  FROM docs q WHERE q.id % 211 = 5;
	SELECT string_agg(id::text, ',' ORDER BY id) FROM near_first;
};
my $seqscan = 'SET enable_indexscan = off; SET enable_bitmapscan = off;';
my $indexscan = 'SET enable_seqscan = off;';

# Asserts that index and sequential scan agree on database $db, and that the
# index is the one the planner takes.
sub check_answers
{
	my ($db, $when) = @_;
	is($node->safe_psql($db, "SELECT simhash_index_check('docs_fp')"), '',
		"$when: simhash_index_check passes");
	like($node->safe_psql($db, "$indexscan EXPLAIN (COSTS OFF) SELECT id FROM docs "
			. "WHERE fp <-> '0123456789abcdef' <= 3"),
		qr/docs_fp/, "$when: the radius query uses the simhash index");
	my $by_index = $node->safe_psql($db, "$indexscan $answers");
	my $by_seqscan = $node->safe_psql($db, "$seqscan $answers");
	ok(length($by_seqscan) > 1000, "$when: the queries find rows");
	is($by_index, $by_seqscan, "$when: the index answers exactly as a sequential scan");
}

for my $from (@released)
{
	my $db = "from_$from" =~ s/\./_/gr;
	$node->safe_psql('postgres', "CREATE DATABASE $db");
	$node->safe_psql($db, "CREATE EXTENSION simhash VERSION '$from'");
	is($node->safe_psql($db, q{SELECT extversion FROM pg_extension WHERE extname = 'simhash'}),
		$from, "$from: its frozen install script loads against today's library");

	# Data, an index and a view made under the old version.
	$node->safe_psql($db, q{
		CREATE TABLE docs (id int PRIMARY KEY, body text,
		                   fp simhash GENERATED ALWAYS AS (simhash(body)) STORED);
		INSERT INTO docs (id, body)
		SELECT g, 'page ' || (g % 400) || ' of the site ' || repeat(md5((g % 400)::text) || ' ', 3)
		          || CASE WHEN g % 3 = 0 THEN 'edited ' || g ELSE '' END
		  FROM generate_series(1, 4000) g;
		CREATE INDEX docs_fp ON docs USING simhash (fp);
		CREATE INDEX docs_body_fp ON docs USING simhash (simhash(body));
		CREATE VIEW near_first AS
		SELECT id FROM docs WHERE fp <-> (SELECT fp FROM docs WHERE id = 1) <= 3;
		-- a generated column over an option function whose arguments change
		CREATE TABLE shingled (body text,
		                       fp simhash GENERATED ALWAYS AS (simhash(body, 'shingles')) STORED);
		INSERT INTO shingled (body) VALUES ('a page of text made of a few words');
	});
	check_answers($db, "$from before the upgrade");

	my ($rc, $out, $err) = $node->psql($db, 'ALTER EXTENSION simhash UPDATE');
	is($rc, 0, "$from: ALTER EXTENSION simhash UPDATE succeeds with user objects on old functions");
	like($err, qr/kept as simhash_0_1_0, outside the extension/,
		"$from: a function still in use is kept outside the extension, with a warning");
	like($err, qr/column fp of table docs, column fp of table shingled, index docs_body_fp hold fingerprints of algorithm version 3/,
		"$from: stored columns and expression indexes of the old default algorithm are named in a warning");
	is($node->safe_psql($db, q{
		INSERT INTO shingled (body) VALUES ('a page of text made of a few words');
		SELECT count(DISTINCT fp) || ' ' || bool_and(fp = simhash(body, 'shingles')) FROM shingled}),
		'1 true', "$from: the generated column on the kept function still computes what the new one does");
	my $upgraded = $node->safe_psql($db, $catalog_sql);
	like($upgraded, qr/^extension simhash: version=\Q$current\E /m, "$from: updated to $current");

	# The catalogs, compared line by line so that a failure names the objects.
	my %in_fresh = map { $_ => 1 } split /\n/, $fresh;
	my %in_upgraded = map { $_ => 1 } split /\n/, $upgraded;
	my @missing = grep { !$in_upgraded{$_} } split /\n/, $fresh;
	my @extra = grep { !$in_fresh{$_} } split /\n/, $upgraded;
	diag("only in a fresh install (missing from the upgrade script?): $_") for @missing;
	diag("only after the upgrade from $from: $_") for @extra;
	ok(@missing == 0 && @extra == 0 && $upgraded eq $fresh,
		"$from -> $current: the catalog equals a fresh install's ("
		  . scalar(split /\n/, $fresh) . ' lines)');

	check_answers($db, "$from after the upgrade");
	$node->safe_psql($db, q{
		INSERT INTO docs (id, body)
		SELECT g, 'page ' || (g % 400) || ' of the site ' || repeat(md5((g % 400)::text) || ' ', 3)
		          || 'added after the upgrade'
		  FROM generate_series(4001, 5000) g;
		DELETE FROM docs WHERE id % 11 = 0;
		VACUUM docs;
	});
	check_answers($db, "$from after the upgrade and more DML");
}

done_testing();
