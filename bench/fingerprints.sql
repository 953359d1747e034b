-- Synthetic fingerprints for the index benchmarks (scripts/bench-index.sh,
-- scripts/bench-insert.sh), loaded into the benchmark database by both.

-- A uniformly random fingerprint.
CREATE FUNCTION rand_fp() RETURNS simhash LANGUAGE sql VOLATILE
	RETURN ((floor(random() * 4294967296)::bigint << 32) | floor(random() * 4294967296)::bigint)::simhash;

-- fp with n random bits flipped (fewer if two draws pick the same bit).
CREATE FUNCTION flip(fp simhash, n integer) RETURNS simhash LANGUAGE sql VOLATILE
	RETURN (SELECT (fp::bigint # coalesce(bit_or(1::bigint << floor(random() * 64)::int), 0))::simhash
	          FROM generate_series(1, n));

-- n fingerprints of a data set: 'uniform' (random), or 'clustered'
-- (originals, each with 3 near-duplicates 1 to 6 bits away).
CREATE FUNCTION gen(dataset text, n bigint) RETURNS SETOF simhash LANGUAGE sql VOLATILE AS $f$
	SELECT rand_fp() FROM generate_series(1, n) WHERE dataset = 'uniform'
	UNION ALL
	SELECT CASE WHEN k = 0 THEN o ELSE flip(o, (1 + (k + g) % 6)::int) END
	  FROM (SELECT g, rand_fp() AS o FROM generate_series(1, n / 4) g) s,
	       generate_series(0, 3) k
	 WHERE dataset = 'clustered'
$f$;
