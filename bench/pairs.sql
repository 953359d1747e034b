-- Data for scripts/bench-pairs.sh (after bench/fingerprints.sql, whose
-- rand_fp() it uses): n fingerprints, 90 % uniform random and 10 % in
-- near-duplicate clusters of 10 (an original and 9 variants 1 to 3 bits
-- away from it, so up to 6 bits from each other).

-- fp with n (0 to 3) random bits flipped (fewer if two draws hit the same bit).
CREATE FUNCTION flip3(fp simhash, n integer) RETURNS simhash LANGUAGE sql VOLATILE
	AS $$ SELECT (fp::bigint # CASE WHEN n >= 1 THEN 1::bigint << (random() * 63.999)::int ELSE 0 END
	                         # CASE WHEN n >= 2 THEN 1::bigint << (random() * 63.999)::int ELSE 0 END
	                         # CASE WHEN n >= 3 THEN 1::bigint << (random() * 63.999)::int ELSE 0 END)::simhash $$;

-- Ids 1 .. n; the clustered rows have the largest ids, 10 consecutive ids a cluster.
CREATE FUNCTION pairs_bench_set(n bigint) RETURNS TABLE (id bigint, fp simhash) LANGUAGE sql VOLATILE AS $$
	SELECT g, rand_fp() FROM generate_series(1, n - n / 10) g
	UNION ALL
	SELECT n - n / 10 + o * 10 + v + 1, CASE WHEN v = 0 THEN c ELSE flip3(c, 1 + v % 3) END
	  FROM (SELECT o, rand_fp() AS c FROM generate_series(0, n / 100 - 1) o) s, generate_series(0, 9) v
$$;
