-- Fingerprinting text with options: the feature kind (required, see
-- 60_fingerprint.sql), n, weighting, numbers and the algorithm version.
-- A piece of its own because 0.2.0 added `version`: the upgrade from 0.1.0
-- drops the 5-argument functions and includes this piece whole.

CREATE FUNCTION simhash(body text, features text, n integer DEFAULT 0,
                        weighting text DEFAULT 'runs', numbers boolean DEFAULT false,
                        version integer DEFAULT 0)
	RETURNS simhash
	AS 'MODULE_PATHNAME', 'simhash_text_options'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 500;
COMMENT ON FUNCTION simhash(text, text, integer, text, boolean, integer) IS 'simhash fingerprint of a document: features ''words'', ''shingles'' or ''chars'' (n words or characters, 0 for the default), weighting ''runs'' (default), ''tf'', ''binary'' or ''log'', numbers keeps tokens of digits, version the algorithm version (0 for the current one, 3 for the previous one); NULL when the text has no feature';

CREATE FUNCTION simhash_features(body text, features text, n integer DEFAULT 0,
                                 weighting text DEFAULT 'runs', numbers boolean DEFAULT false,
                                 version integer DEFAULT 0,
                                 OUT feature text, OUT occurrences bigint,
                                 OUT weight float8, OUT hash simhash)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'simhash_features_options'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 500 ROWS 100;
COMMENT ON FUNCTION simhash_features(text, text, integer, text, boolean, integer) IS 'features, occurrences, weights and feature hashes that simhash(text, features, n, weighting, numbers, version) uses for a document';
