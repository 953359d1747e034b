# Fingerprints and their btree index survive WAL: a streaming standby and a
# crashed-and-restarted primary return exactly what the primary returned.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $primary = PostgreSQL::Test::Cluster->new('primary');
$primary->init(allows_streaming => 1);
$primary->start;
$primary->safe_psql('postgres', 'CREATE EXTENSION simhash');
$primary->backup('backup');

my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'backup', has_streaming => 1);
$standby->start;

$primary->safe_psql('postgres', q{
	CREATE TABLE docs (id int PRIMARY KEY, body text,
	                   fp simhash GENERATED ALWAYS AS (simhash(body)) STORED);
	CREATE INDEX docs_fp ON docs (fp);
	INSERT INTO docs (id, body)
	SELECT g, 'page ' || g || ' ' || repeat(md5(g::text) || ' ', 1 + g % 7)
	  FROM generate_series(1, 5000) g;
	DELETE FROM docs WHERE id % 10 = 0;
	UPDATE docs SET body = body || ' edited' WHERE id % 7 = 0;
});
$primary->wait_for_catchup($standby);

# Queries whose answers must agree everywhere: equality through the index,
# and a distance filter.
my @queries = (
	q{SET enable_seqscan = off; SELECT string_agg(id::text, ',' ORDER BY id) FROM docs
	  WHERE fp IN (SELECT fp FROM docs WHERE id % 97 = 1)},
	q{SELECT string_agg(id::text, ',' ORDER BY id) FROM docs
	  WHERE fp <-> (SELECT fp FROM docs WHERE id = 1) <= 20},
	q{SELECT count(*) || ' ' || md5(string_agg(fp::text, ',' ORDER BY id)) FROM docs},
);

my @expected = map { $primary->safe_psql('postgres', $_) } @queries;
ok(length($expected[0]) > 0, 'the primary finds rows through the index');
like($expected[2], qr/^4500 /, 'the primary holds the rows left after the delete');

for my $i (0 .. $#queries)
{
	is($standby->safe_psql('postgres', $queries[$i]), $expected[$i],
		"standby agrees with the primary on query $i");
}

# Crash the primary (no shutdown checkpoint) and let recovery replay WAL.
$primary->stop('immediate');
$primary->start;
for my $i (0 .. $#queries)
{
	is($primary->safe_psql('postgres', $queries[$i]), $expected[$i],
		"after crash recovery the primary agrees with itself on query $i");
}
$primary->safe_psql('postgres', 'CREATE EXTENSION amcheck');
is($primary->safe_psql('postgres', q{SELECT bt_index_check('docs_fp'::regclass, true)}),
	'', 'amcheck finds the recovered btree index sound');

$standby->stop;
$primary->stop;
done_testing();
