# Near-duplicate workflows under concurrency, with pgbench.
#
# READ COMMITTED: many sessions insert near-duplicate variants (up to 2 bits
# flipped) of the same 150 pages into a table with
# EXCLUDE USING simhash (simhash_ball(fp, 3) WITH <@>), with ON CONFLICT DO
# NOTHING, logging every value they offer.  Afterwards a sequential-scan
# self-join finds no pair within 3, and every value offered has a stored
# row within 3 (it was stored, or a near-duplicate was): nothing was lost.
# The same with a scoped constraint (site_id WITH =, ...), sites sharing
# fingerprints, and with bulk statements whose rows are batched.
#
# SERIALIZABLE: 16 sessions each check a radius and insert an unrelated
# random fingerprint; predicate locks on bucket pages let fewer than 5% of
# them fail (a relation lock failed 43%).  Near-duplicates are still
# caught: sessions that insert a variant of a hot page only when no row is
# within 3 leave no pair within 3.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::Bin;
use SimhashTest;

my $node = PostgreSQL::Test::Cluster->new('exclude');
$node->init;
$node->append_conf('postgresql.conf',
	"max_connections = 40\nmax_pred_locks_per_transaction = 128\nmax_parallel_workers_per_gather = 0\n");
$node->start;
$node->safe_psql('postgres', $SIMHASH_TEST_SQL);
$node->safe_psql('postgres', q{
	CREATE TABLE originals (page integer PRIMARY KEY, fp simhash);
	INSERT INTO originals SELECT g, rand_fp() FROM generate_series(1, 150) g;
	CREATE TABLE pages (id bigserial, page integer, fp simhash,
		EXCLUDE USING simhash (simhash_ball(fp, 3) WITH <@>));
	CREATE TABLE site_pages (id bigserial, site integer, page integer, fp simhash,
		EXCLUDE USING simhash (site WITH =, simhash_ball(fp, 3) WITH <@>));
	CREATE TABLE offered (site integer, page integer, fp simhash);
});

$node->pgbench(
	'--no-vacuum --client=8 --jobs=2 --time=15',
	0,
	[qr{processed: [1-9]}],
	[qr{^$}],
	'READ COMMITTED: concurrent near-duplicate inserts with ON CONFLICT DO NOTHING',
	{
		'near@3' => q{
\set p random(1, 150)
WITH v AS (SELECT page, flip(fp, (random() * 2)::int) AS fp FROM originals WHERE page = :p),
     log AS (INSERT INTO offered SELECT NULL, page, fp FROM v)
INSERT INTO pages (page, fp) SELECT page, fp FROM v ON CONFLICT DO NOTHING;
},
		'near_many@1' => q{
\set p random(1, 140)
WITH v AS (SELECT page, flip(fp, (random() * 2)::int) AS fp FROM originals WHERE page BETWEEN :p AND :p + 10),
     log AS (INSERT INTO offered SELECT NULL, page, fp FROM v)
INSERT INTO pages (page, fp) SELECT page, fp FROM v ON CONFLICT DO NOTHING;
},
		'sited@3' => q{
\set p random(1, 150)
\set s random(1, 4)
WITH v AS (SELECT page, flip(fp, (random() * 2)::int) AS fp FROM originals WHERE page = :p),
     log AS (INSERT INTO offered SELECT :s, page, fp FROM v)
INSERT INTO site_pages (site, page, fp) SELECT :s, page, fp FROM v ON CONFLICT DO NOTHING;
},
	});

$node->safe_psql('postgres', 'ANALYZE');
my $seq = 'SET enable_indexscan = off; SET enable_bitmapscan = off; ';
is($node->safe_psql('postgres', $seq . q{
	SELECT count(*) FROM pages a JOIN pages b
	    ON a.id < b.id AND slow_distance(a.fp, b.fp) <= 3}), '0',
	'no pair within 3 (sequential self-join)');
is($node->safe_psql('postgres', $seq . q{
	SELECT count(*) FROM offered o WHERE site IS NULL
	   AND NOT EXISTS (SELECT FROM pages p WHERE hamming_distance(p.fp, o.fp) <= 3)}), '0',
	'every value offered is stored or has a near-duplicate stored');
cmp_ok($node->safe_psql('postgres', 'SELECT count(DISTINCT page) FROM pages'), '==', 150,
	'every page is there');
is($node->safe_psql('postgres', $seq . q{
	SELECT count(*) FROM site_pages a JOIN site_pages b
	    ON a.id < b.id AND a.site = b.site AND slow_distance(a.fp, b.fp) <= 3}), '0',
	'scoped: no pair within 3 in a site');
is($node->safe_psql('postgres', $seq . q{
	SELECT count(*) FROM offered o WHERE site IS NOT NULL
	   AND NOT EXISTS (SELECT FROM site_pages p
	                    WHERE p.site = o.site AND hamming_distance(p.fp, o.fp) <= 3)}), '0',
	'scoped: every value offered is stored or has a near-duplicate in its site');
cmp_ok($node->safe_psql('postgres', q{
	SELECT count(*) FROM site_pages a JOIN site_pages b
	    ON a.site < b.site AND hamming_distance(a.fp, b.fp) <= 3}), '>', 0,
	'scoped: near-duplicates across sites are allowed');
is($node->safe_psql('postgres', "SELECT simhash_index_check('pages_simhash_ball_excl')"), '',
	'the exclusion index passes simhash_index_check');

# Bulk statements: each transaction offers 16 random fingerprints, then
# variants of 8 consecutive pages, in one INSERT (its rows past the 16th are
# batched and checked at the statement's end, index/deferred.c); a
# violation (or a deadlock between two such statements, as between any two
# inserters waiting for each other) is caught and the rows offered again
# with ON CONFLICT DO NOTHING (again after a deadlock: multi-row inserts
# can wait for each other's rows).  The same two checks as above must hold.
$node->safe_psql('postgres', q{
	CREATE TABLE bulk_pages (id bigserial, page integer, fp simhash,
		EXCLUDE USING simhash (simhash_ball(fp, 3) WITH <@>));
	CREATE TABLE offered_bulk (page integer, fp simhash);
	CREATE TABLE bulk_caught (sqlstate text);
});
$node->pgbench(
	'--no-vacuum --client=8 --jobs=2 --transactions=50',
	0,
	[qr{processed: 400/400}],
	[qr{^$}],
	'READ COMMITTED: concurrent bulk inserts of near-duplicates, batched and checked at the end',
	{
		'bulk' => q{
DO $$
DECLARE
  p integer := 1 + (random() * 142)::integer;
  pages integer[];
  fps simhash[];
BEGIN
  SELECT array_agg(page ORDER BY o, page), array_agg(fp ORDER BY o, page) INTO pages, fps
    FROM (SELECT 0 AS o, NULL::integer AS page, rand_fp() AS fp FROM generate_series(1, 16)
          UNION ALL
          SELECT 1, page, flip(fp, (random() * 2)::integer) FROM originals
           WHERE page BETWEEN p AND p + 7) x;
  INSERT INTO offered_bulk SELECT pg, f FROM unnest(pages, fps) AS u(pg, f);
  BEGIN
    INSERT INTO bulk_pages (page, fp)
      SELECT pg, f FROM unnest(pages, fps) WITH ORDINALITY AS u(pg, f, n) ORDER BY n;
  EXCEPTION WHEN exclusion_violation OR deadlock_detected THEN
    INSERT INTO bulk_caught VALUES (SQLSTATE);
    LOOP
      BEGIN
        INSERT INTO bulk_pages (page, fp)
          SELECT pg, f FROM unnest(pages, fps) AS u(pg, f) ON CONFLICT DO NOTHING;
        EXIT;
      EXCEPTION WHEN deadlock_detected THEN
        NULL;			-- two multi-row inserts waited for each other: again
      END;
    END LOOP;
  END;
END $$;
},
	});
is($node->safe_psql('postgres', $seq . q{
	SELECT count(*) FROM bulk_pages a JOIN bulk_pages b
	    ON a.id < b.id AND hamming_distance(a.fp, b.fp) <= 3}), '0',
	'bulk: no pair within 3 (sequential self-join)');
is($node->safe_psql('postgres', $seq . q{
	SELECT count(*) FROM offered_bulk o
	 WHERE NOT EXISTS (SELECT FROM bulk_pages p WHERE hamming_distance(p.fp, o.fp) <= 3)}), '0',
	'bulk: every value offered is stored or has a near-duplicate stored');
is($node->safe_psql('postgres', q{
	SELECT (SELECT count(DISTINCT page) FROM bulk_pages) =
	       (SELECT count(DISTINCT page) FROM offered_bulk)}), 't',
	'bulk: every page offered is there');
# rows 17 to 24 of each statement are the near-duplicates: batched ones
cmp_ok($node->safe_psql('postgres', "SELECT count(*) FROM bulk_caught WHERE sqlstate = '23P01'"),
	'>', 0, 'bulk: batched rows were rejected at the end of their statements');
is($node->safe_psql('postgres', "SELECT simhash_index_check('bulk_pages_simhash_ball_excl')"), '',
	'bulk: the exclusion index passes simhash_index_check');

# The SERIALIZABLE runs count serialization failures with pgbench's
# --max-tries, which pgbench has since PostgreSQL 15.
my ($pgbench_version) = `pgbench --version` =~ /(\d+)/;
SKIP: {
skip 'pgbench before 15 cannot count serialization failures', 7
  if $pgbench_version < 15;

# SERIALIZABLE: unrelated inserts after a radius check, 16 clients.  A
# radius-3 search locks its four block values, not the pages it reads, so
# unrelated inserts conflict only when they share a block value, whatever
# the size of the table: 200,000 rows (built at fillfactor 20, where bucket
# page locks already did well) and 1,000 rows (one or two bucket pages per
# table, where bucket page locks failed 75%).
my ($out, $err, @cmd);
my $script = $node->basedir . '/serializable.sql';
my $fh;
foreach my $case (['ser', 200000, 'WITH (fillfactor = 20)'], ['ser_small', 1000, ''])
{
	my ($table, $rows, $with) = @$case;
	$node->safe_psql('postgres', qq{
		CREATE TABLE $table (id bigserial, fp simhash);
		INSERT INTO $table (fp) SELECT rand_fp() FROM generate_series(1, $rows);
		CREATE INDEX ${table}_fp ON $table USING simhash (fp) $with;
		ANALYZE $table;
	});
	open($fh, '>', $script) or die;
	print $fh qq{
SELECT quote_literal(rand_fp()) AS q \\gset
BEGIN ISOLATION LEVEL SERIALIZABLE;
SET LOCAL enable_seqscan = off;
SELECT count(*) FROM $table WHERE fp <-> :q::simhash <= 3;
INSERT INTO $table (fp) VALUES (:q::simhash);
COMMIT;
};
	close $fh;
	@cmd = ('pgbench', '--no-vacuum', '--client=16', '--jobs=2', '--transactions=40',
		'--max-tries=1', '--failures-detailed', '-f', $script, '-p', $node->port, '-h',
		$node->host, 'postgres');
	($out, $err) = run_command(\@cmd);
	my ($failed) = $out =~ /number of failed transactions: (\d+)/;
	my ($done) = $out =~ /number of transactions actually processed: (\d+)/;
	ok(defined $failed && defined $done, "pgbench reports failures ($rows rows)")
	  or diag($out . $err);
	$failed //= 0;
	$done //= 0;
	my $rate = 100.0 * $failed / ($failed + $done || 1);
	note(sprintf('SERIALIZABLE unrelated inserts, %d rows: %d of %d failed (%.1f%%)',
		$rows, $failed, $failed + $done, $rate));
	cmp_ok($rate, '<', 5, "fewer than 5% of unrelated serializable inserts fail ($rows rows)");
}

# Near-duplicates under SERIALIZABLE: insert a variant of one of 20 hot
# pages unless a row within 3 exists.  Serialization failures are retried
# by the client; what commits must hold no pair within 3.
$node->safe_psql('postgres', q{
	CREATE TABLE hot (page integer, fp simhash);
	INSERT INTO hot SELECT g, rand_fp() FROM generate_series(1, 20) g;
	CREATE TABLE ser_near (id bigserial, fp simhash);
	INSERT INTO ser_near (fp) SELECT rand_fp() FROM generate_series(1, 50000);
	CREATE INDEX ser_near_fp ON ser_near USING simhash (fp);
	ANALYZE ser_near;
});
open($fh, '>', $script) or die;
print $fh q{
\set p random(1, 20)
BEGIN ISOLATION LEVEL SERIALIZABLE;
SET LOCAL enable_seqscan = off;
SELECT quote_literal(flip(fp, 1)) AS q FROM hot WHERE page = :p \gset
INSERT INTO ser_near (fp) SELECT :q::simhash
 WHERE NOT EXISTS (SELECT FROM ser_near WHERE fp <-> :q::simhash <= 3);
COMMIT;
};
close $fh;
@cmd = ('pgbench', '--no-vacuum', '--client=16', '--jobs=2', '--transactions=20',
	'--max-tries=10', '-f', $script, '-p', $node->port, '-h', $node->host, 'postgres');
($out, $err) = run_command(\@cmd);
like($out, qr/number of transactions actually processed: [1-9]/, 'near-duplicate run ran')
  or diag($out . $err);
is($node->safe_psql('postgres', $seq . q{
	SELECT count(*) FROM ser_near a JOIN ser_near b
	    ON a.id < b.id AND slow_distance(a.fp, b.fp) <= 3
	 WHERE a.id > 50000 AND b.id > 50000}), '0',
	'SERIALIZABLE check-then-insert leaves no near-duplicate pair');
cmp_ok($node->safe_psql('postgres', 'SELECT count(*) FROM ser_near WHERE id > 50000'),
	'>=', 1, 'the hot pages were inserted');
}

$node->stop;
done_testing();
