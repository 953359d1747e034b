-- Web pages: the fingerprint of the text a page shows (src/html/, doc/html.md).

CREATE FUNCTION simhash_html(html text, boilerplate text DEFAULT 'remove',
                             features text DEFAULT 'words', n integer DEFAULT 0,
                             weighting text DEFAULT 'runs', numbers boolean DEFAULT false,
                             parser text DEFAULT 'fast')
	RETURNS simhash
	AS 'MODULE_PATHNAME', 'simhash_html'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION simhash_html(text, text, text, integer, text, boolean, text) IS 'simhash fingerprint of the text of an HTML page: simhash(simhash_html_text(html, boilerplate, parser), features, n, weighting, numbers); boilerplate ''remove'' (default) drops navigation, headers, footers and link lists, ''keep'' keeps all the text; NULL when the text has no feature';

CREATE FUNCTION simhash_html_text(html text, boilerplate text DEFAULT 'remove',
                                  parser text DEFAULT 'fast')
	RETURNS text
	AS 'MODULE_PATHNAME', 'simhash_html_text'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION simhash_html_text(text, text, text) IS 'the text that simhash_html fingerprints: the kept blocks of the page, each followed by a line break; parser ''fast'' (default) or ''libxml2'' (the reference)';

CREATE FUNCTION simhash_html_blocks(html text, boilerplate text DEFAULT 'remove',
                                    parser text DEFAULT 'fast',
                                    OUT block integer, OUT kept boolean, OUT class text,
                                    OUT bytes integer, OUT link_share float8,
                                    OUT template_share float8, OUT text text)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'simhash_html_blocks'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000 ROWS 50;
COMMENT ON FUNCTION simhash_html_blocks(text, text, text) IS 'the blocks of text of an HTML page in order, whether simhash_html keeps each and why (class), its size in bytes, the shares of its text inside links and inside template elements';
