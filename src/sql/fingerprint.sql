-- Fingerprinting text, and the version of the loaded library.

CREATE FUNCTION simhash(text) RETURNS simhash
	AS 'MODULE_PATHNAME', 'simhash_text'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 500;
COMMENT ON FUNCTION simhash(text) IS 'simhash fingerprint of a document (word features, term-frequency weights); NULL when the text has no words';

CREATE FUNCTION simhash_version() RETURNS text
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION simhash_version() IS 'version of the loaded simhash library';
