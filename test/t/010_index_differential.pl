# The simhash index answers exactly what a sequential scan answers:
# randomized radius queries (radii 0..10, through index scans and bitmap
# scans) and k-nearest-neighbour queries, on uniform and on clustered
# fingerprints, after the bulk build and after inserts, updates, deletes and
# VACUUM.  Queries are generated and compared in SQL, thousands per
# statement, so that well over 100,000 queries run in a few minutes.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::Bin;
use SimhashTest;

my $queries_per_phase = 13000;
my $knn_per_phase = 500;

my $node = PostgreSQL::Test::Cluster->new('differential');
$node->init;
$node->append_conf('postgresql.conf', "max_parallel_workers_per_gather = 0\n");
$node->start;
$node->safe_psql('postgres', $SIMHASH_TEST_SQL);

# The answer to each k-NN query of kq on table t, by whatever plan the
# settings allow: the distances in the order returned, and the ids of the
# rows strictly nearer than the last one (ties at the last distance may be
# cut anywhere), so a row returned twice or left out is caught too.
$node->safe_psql('postgres', q{
	CREATE FUNCTION knn(t text) RETURNS TABLE (qid bigint, ds integer[], inside bigint[])
	LANGUAGE plpgsql AS $$
	BEGIN
		RETURN QUERY EXECUTE format($q$
			SELECT kq.qid, array_agg(s.d ORDER BY s.o), array_agg(s.id ORDER BY s.id) FILTER (WHERE s.d < s.last)
			  FROM kq LEFT JOIN LATERAL (
			       SELECT x.d, x.id, x.o, max(x.d) OVER () AS last
			         FROM (SELECT (y.fp <-> kq.c)::integer AS d, y.id, row_number() OVER () AS o
			                 FROM (SELECT fp, id FROM %I WHERE fp IS NOT NULL
			                        ORDER BY fp <-> kq.c LIMIT kq.k) y) x) s ON true
			 GROUP BY kq.qid$q$, t);
	END $$;
});

my $total_radius = 0;
my $total_knn = 0;

# Runs one phase of queries against table $t; returns nothing, tests all.
sub check_phase
{
	my ($t, $phase) = @_;

	is($node->safe_psql('postgres', "SELECT simhash_index_check('${t}_fp')"), '',
		"$t $phase: simhash_index_check passes");

	# Centers: a third random, the rest near stored fingerprints.
	$node->safe_psql('postgres', qq{
		DROP TABLE IF EXISTS q, kq;
		CREATE TABLE q AS
		SELECT row_number() OVER () AS qid,
		       CASE WHEN random() < 0.33 THEN rand_fp() ELSE flip(fp, floor(random() * 8)::int) END AS c,
		       floor(random() * 11)::int AS r
		  FROM (SELECT fp FROM $t, generate_series(1, 5) WHERE fp IS NOT NULL
		         ORDER BY random() LIMIT $queries_per_phase) s;
		-- Mostly a usual LIMIT; one in five pulls up to the whole table,
		-- so that k-NN scans go on past their first steps.
		CREATE TABLE kq AS
		SELECT qid, c, CASE WHEN random() < 0.2 THEN 1 + floor(random() * 10000)::int
		                    ELSE 1 + floor(random() * 30)::int END AS k
		  FROM q WHERE qid <= $knn_per_phase;
	});

	my $plans = $node->safe_psql('postgres', qq{
		SET enable_seqscan = off; SET enable_bitmapscan = off;
		EXPLAIN (COSTS OFF) SELECT q.qid, count(d.id) FROM q
		  LEFT JOIN LATERAL (SELECT id FROM $t WHERE fp <@ simhash_ball(q.c, q.r)) d ON true GROUP BY q.qid;
		SET enable_indexscan = off; SET enable_bitmapscan = on;
		EXPLAIN (COSTS OFF) SELECT q.qid, count(d.id) FROM q
		  LEFT JOIN LATERAL (SELECT id FROM $t WHERE fp <@ simhash_ball(q.c, q.r)) d ON true GROUP BY q.qid;
		SET enable_indexscan = on;
		EXPLAIN (COSTS OFF) SELECT (SELECT array_agg(id) FROM (SELECT fp, id FROM $t WHERE fp IS NOT NULL
		  ORDER BY fp <-> kq.c LIMIT kq.k) s) FROM kq;
	});
	like($plans, qr/Index Scan using ${t}_fp.*Bitmap Index Scan on ${t}_fp.*Index (Only )?Scan using ${t}_fp/s,
		"$t $phase: the queries use the index (index scan, bitmap scan, k-NN)");

	my $diff = $node->safe_psql('postgres', qq{
		SET enable_indexscan = off; SET enable_bitmapscan = off;
		CREATE TEMP TABLE truth AS
		SELECT q.qid, count(d.id) AS n, coalesce(sum(d.id), 0) AS s, coalesce(sum(d.id * d.id), 0) AS s2
		  FROM q LEFT JOIN $t d ON d.fp <-> q.c <= q.r GROUP BY q.qid;
		CREATE TEMP TABLE knn_truth AS SELECT * FROM knn('$t');
		SET enable_seqscan = off; SET enable_indexscan = on;
		CREATE TEMP TABLE via_index AS
		SELECT q.qid, count(d.id) AS n, coalesce(sum(d.id), 0) AS s, coalesce(sum(d.id * d.id), 0) AS s2
		  FROM q LEFT JOIN LATERAL (SELECT id FROM $t WHERE fp <@ simhash_ball(q.c, q.r)) d ON true
		 GROUP BY q.qid;
		CREATE TEMP TABLE knn_index AS SELECT * FROM knn('$t');
		SET enable_indexscan = off; SET enable_bitmapscan = on;
		CREATE TEMP TABLE via_bitmap AS
		SELECT q.qid, count(d.id) AS n, coalesce(sum(d.id), 0) AS s, coalesce(sum(d.id * d.id), 0) AS s2
		  FROM q LEFT JOIN LATERAL (SELECT id FROM $t WHERE fp <@ simhash_ball(q.c, q.r)) d ON true
		 GROUP BY q.qid;
		SELECT (SELECT count(*) FROM truth),
		       (SELECT sum(n) FROM truth),
		       (SELECT count(*) FROM truth t FULL JOIN via_index i USING (qid)
		         WHERE (t.n, t.s, t.s2) IS DISTINCT FROM (i.n, i.s, i.s2)),
		       (SELECT count(*) FROM truth t FULL JOIN via_bitmap b USING (qid)
		         WHERE (t.n, t.s, t.s2) IS DISTINCT FROM (b.n, b.s, b.s2)),
		       (SELECT count(*) FROM knn_truth),
		       (SELECT count(*) FROM knn_truth t FULL JOIN knn_index i USING (qid)
		         WHERE (t.ds, t.inside) IS DISTINCT FROM (i.ds, i.inside));
	});
	my ($nq, $rows, $idiff, $bdiff, $nk, $kdiff) = split /\|/, $diff;
	is($nq, $queries_per_phase, "$t $phase: $nq radius queries ran");
	ok($rows > $nq / 10, "$t $phase: the radius queries found rows ($rows)");
	is($idiff, 0, "$t $phase: index scans agree with the sequential scan");
	is($bdiff, 0, "$t $phase: bitmap scans agree with the sequential scan");
	is($kdiff, 0, "$t $phase: $nk nearest-neighbour queries agree with the sequential sort");
	$total_radius += 2 * $nq;
	$total_knn += $nk;
}

# Uniform fingerprints, default layout; clustered ones (originals and
# near-duplicates 1 to 6 bits away, some exact copies) with 3 blocks.
$node->safe_psql('postgres', q{
	CREATE TABLE uniform (id bigserial PRIMARY KEY, fp simhash);
	INSERT INTO uniform (fp) SELECT rand_fp() FROM generate_series(1, 3000);
	INSERT INTO uniform (fp) VALUES (NULL);
	CREATE INDEX uniform_fp ON uniform USING simhash (fp);

	CREATE TABLE clustered (id bigserial PRIMARY KEY, fp simhash);
	INSERT INTO clustered (fp)
	SELECT CASE WHEN k = 0 THEN o ELSE flip(o, 1 + k % 6) END
	  FROM (SELECT rand_fp() AS o FROM generate_series(1, 500)) origins, generate_series(0, 5) k;
	INSERT INTO clustered (fp) SELECT fp FROM clustered WHERE id % 10 = 0;
	CREATE INDEX clustered_fp ON clustered USING simhash (fp) WITH (blocks = 3, fillfactor = 70);
});

for my $t ('uniform', 'clustered')
{
	check_phase($t, 'after the build');

	# Grow the table by inserts (bucket splits, overflow chains).
	$node->safe_psql('postgres', qq{
		INSERT INTO $t (fp) SELECT rand_fp() FROM generate_series(1, 2000);
		INSERT INTO $t (fp) SELECT flip(fp, 1 + floor(random() * 6)::int) FROM $t WHERE id % 3 = 0;
		INSERT INTO $t (fp) SELECT fp FROM $t WHERE id % 50 = 1;
	});
	check_phase($t, 'after inserts');

	$node->safe_psql('postgres', qq{
		UPDATE $t SET fp = flip(fp, 2) WHERE id % 10 = 3;
		DELETE FROM $t WHERE id % 5 = 2;
	});
	check_phase($t, 'after updates and deletes');

	$node->safe_psql('postgres', qq{VACUUM $t});
	check_phase($t, 'after VACUUM');
}

note "compared $total_radius radius queries and $total_knn k-NN queries";
ok($total_radius + $total_knn >= 100000, "at least 100,000 queries compared");

$node->stop;
done_testing();
