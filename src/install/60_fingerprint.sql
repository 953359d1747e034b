-- Fingerprinting text (algorithm version 4 by default, 3 by option: ICU
-- normalization and word segmentation, single CJK characters as tokens and
-- words reweighed in 4), features the caller brings, introspection, and
-- versions.  The functions with options are in 61_fingerprint_options.sql.
--
-- simhash(text) takes one argument and no defaults: a function with the same
-- first argument and all-defaulted options would make simhash(body)
-- ambiguous.  The options therefore come in a second function whose feature
-- kind is required: simhash(body, 'chars', n => 2, weighting => 'log')
-- (61_fingerprint_options.sql).

CREATE FUNCTION simhash(text) RETURNS simhash
	AS 'MODULE_PATHNAME', 'simhash_text'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 500;
COMMENT ON FUNCTION simhash(text) IS 'simhash fingerprint of a document with the default options, simhash(body, ''words'', 1, ''runs'', false): ICU-normalized words, each occurrence weighted by the length of its run of text; NULL when the text has no words';

CREATE FUNCTION simhash_features(body text,
                                 OUT feature text, OUT occurrences bigint,
                                 OUT weight float8, OUT hash simhash)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'simhash_features'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 500 ROWS 100;
COMMENT ON FUNCTION simhash_features(text) IS 'features, occurrences, weights and feature hashes that simhash(text) uses for a document, in order of first occurrence';

CREATE FUNCTION simhash(features text[]) RETURNS simhash
	AS 'MODULE_PATHNAME', 'simhash_text_array'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION simhash(text[]) IS 'simhash fingerprint of features, each of weight 1 (XXH3-64 of the UTF-8 bytes); NULL elements are skipped; NULL when none remains';

CREATE FUNCTION simhash(features text[], weights float8[]) RETURNS simhash
	AS 'MODULE_PATHNAME', 'simhash_weighted_array'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION simhash(text[], float8[]) IS 'simhash fingerprint of weighted features, paired by position; NULL when no non-zero weight remains';

CREATE FUNCTION simhash(hashes bigint[]) RETURNS simhash
	AS 'MODULE_PATHNAME', 'simhash_hash_array'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION simhash(bigint[]) IS 'simhash fingerprint of 64-bit feature hashes, each of weight 1; NULL when there is none';

-- The transition function cannot be STRICT: its state is internal and is
-- created on the first row (validate.sql allows for that).
CREATE FUNCTION simhash_agg_trans(internal, text, float8) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION simhash_agg_trans(internal, text, float8) IS 'transition function of simhash_agg';

CREATE FUNCTION simhash_agg_final(internal) RETURNS simhash
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION simhash_agg_final(internal) IS 'final function of simhash_agg';

-- Parallel aggregation: partial states are merged (not STRICT either: a
-- worker that saw no rows has no state) and shipped as bytea.
CREATE FUNCTION simhash_agg_combine(internal, internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION simhash_agg_combine(internal, internal) IS 'combine function of simhash_agg';

CREATE FUNCTION simhash_agg_serialize(internal) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION simhash_agg_serialize(internal) IS 'serialization function of simhash_agg';

CREATE FUNCTION simhash_agg_deserialize(bytea, internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION simhash_agg_deserialize(bytea, internal) IS 'deserialization function of simhash_agg';

CREATE AGGREGATE simhash_agg(feature text, weight float8) (
	SFUNC = simhash_agg_trans,
	STYPE = internal,
	FINALFUNC = simhash_agg_final,
	FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = simhash_agg_combine,
	SERIALFUNC = simhash_agg_serialize,
	DESERIALFUNC = simhash_agg_deserialize,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE simhash_agg(text, float8) IS 'simhash fingerprint of weighted features, one per row (for example TF-IDF computed in SQL); independent of row order; NULL when no non-zero weight';

CREATE FUNCTION simhash_algorithm_version() RETURNS text
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION simhash_algorithm_version() IS 'what simhash(text) fingerprints depend on: the algorithm version and the ICU major version, e.g. simhash-4/icu72; stored fingerprints stay valid while it is unchanged';

CREATE FUNCTION simhash_version() RETURNS text
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION simhash_version() IS 'version of the loaded simhash library';
