/*
 * html/functions.c
 *	  SQL entry points for web pages: simhash_html (the fingerprint of a
 *	  page's text), simhash_html_text (that text) and simhash_html_blocks
 *	  (its blocks, kept or not, and why).
 *
 * simhash_html(html, ...) is simhash(simhash_html_text(html, boilerplate),
 * features, n, weighting, numbers): the kept blocks, one a line, go
 * through the same pipeline as a text (fingerprint/fingerprint.h), so
 * every script is segmented exactly as in simhash(text), and a line break
 * ends a run of words (weighting 'runs') as in a text.
 */
#include "html/html.h"

#include "fingerprint/fingerprint.h"

#include "funcapi.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"

/*
 * Which of two option values `option` names: 0 for first, 1 for second;
 * anything else raises invalid_parameter_value naming the option.
 */
static int
ChooseOption(text *option, const char *name, const char *first, const char *second)
{
	char	   *s = text_to_cstring(option);

	if (strcmp(s, first) == 0)
		return 0;
	if (strcmp(s, second) == 0)
		return 1;
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("invalid %s option \"%s\"", name, SimhashShortText(s)),
			 errhint("Valid values are \"%s\" and \"%s\".", first, second)));
	return 0;					/* keep the compiler quiet */
}

/*
 * The page of argument 0 in UTF-8, converted from the database encoding if
 * needed (the result may point into the argument).  In SQL_ASCII, bytes
 * that are not UTF-8 become '?'.
 */
static const char *
PageUtf8(FunctionCallInfo fcinfo, int64 *len)
{
	text	   *t = PG_GETARG_TEXT_PP(0);
	const char *s = VARDATA_ANY(t);
	int			n = VARSIZE_ANY_EXHDR(t);
	int			enc = GetDatabaseEncoding();
	char	   *out = NULL;

	*len = n;
	if (enc == PG_UTF8 || n == 0)
		return s;
	if (enc != PG_SQL_ASCII)
	{
		out = pg_server_to_any(s, n, PG_UTF8);
		if (out != s)
			*len = strlen(out);
		return out;
	}
	for (int i = 0; i < n;)
	{
		const unsigned char *c = (const unsigned char *) (out ? out : s) + i;
		int			l = pg_utf_mblen(c);

		if (i + l <= n && pg_utf8_islegal(c, l))
		{
			i += l;
			continue;
		}
		if (out == NULL)
		{
			out = palloc(n);
			memcpy(out, s, n);
		}
		out[i++] = '?';
	}
	return out ? out : s;
}

/*
 * The page of argument 0, parsed by the parser that argument parserarg
 * names and classified by argument 1.
 */
static void
ReadPage(FunctionCallInfo fcinfo, int parserarg, HtmlPage *page)
{
	/* boilerplate 'remove' or 'keep'; parser 'fast' or 'libxml2' (an
	 * argument, not a setting, so that the functions stay immutable) */
	bool		remove = ChooseOption(PG_GETARG_TEXT_PP(1), "boilerplate", "remove", "keep") == 0;
	bool		fast = ChooseOption(PG_GETARG_TEXT_PP(parserarg), "parser", "fast", "libxml2") == 0;
	int64		len;
	const char *utf8 = PageUtf8(fcinfo, &len);

	if (fast)
		HtmlExtractFast(utf8, len, page);
	else
		HtmlExtractLibxml2(utf8, len, page);
	HtmlClassify(page, remove);
}

/*
 * simhash_html(html, boilerplate, features, n, weighting, numbers): the
 * fingerprint of the page's kept text; NULL when it has no feature.
 */
PG_FUNCTION_INFO_V1(simhash_html);
Datum
simhash_html(PG_FUNCTION_ARGS)
{
	HtmlPage	page;
	int64		len;
	char	   *kept;
	uint64		result;

	ReadPage(fcinfo, 6, &page);
	kept = HtmlKeptText(&page, &len);
	if (!FingerprintUtf8(kept, len, PG_GETARG_TEXT_PP(2), PG_GETARG_INT32(3),
						 PG_GETARG_TEXT_PP(4), PG_GETARG_BOOL(5), &result))
		PG_RETURN_NULL();
	PG_RETURN_SIMHASH(result);
}

/* Text of UTF-8 s[0..len) in the database encoding. */
static text *
TextOfUtf8(const char *s, int64 len)
{
	char	   *converted = pg_any_to_server(s, (int) len, PG_UTF8);

	if (converted != s)
		return cstring_to_text(converted);
	return cstring_to_text_with_len(s, (int) len);
}

/*
 * simhash_html_text(html, boilerplate): the text simhash_html
 * fingerprints, the kept blocks, each followed by a line break.
 */
PG_FUNCTION_INFO_V1(simhash_html_text);
Datum
simhash_html_text(PG_FUNCTION_ARGS)
{
	HtmlPage	page;
	int64		len;
	char	   *kept;

	ReadPage(fcinfo, 2, &page);
	kept = HtmlKeptText(&page, &len);
	PG_RETURN_TEXT_P(TextOfUtf8(kept, len));
}

/*
 * simhash_html_blocks(html, boilerplate): a row per block of text, in
 * order: (block, kept, class, bytes, link_share, template_share, text).
 */
PG_FUNCTION_INFO_V1(simhash_html_blocks);
Datum
simhash_html_blocks(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	HtmlPage	page;

	InitMaterializedSRF(fcinfo, 0);
	ReadPage(fcinfo, 2, &page);
	for (int i = 0; i < page.nblocks; i++)
	{
		HtmlBlock  *b = &page.blocks[i];
		Datum		values[7];
		bool		nulls[7] = {false, false, false, false, false, false, false};

		values[0] = Int32GetDatum(i + 1);
		values[1] = BoolGetDatum(b->kept);
		values[2] = CStringGetTextDatum(HtmlBlockClassName(b->cls));
		values[3] = Int32GetDatum(b->len);
		values[4] = Float8GetDatum((double) b->linkbytes / b->len);
		values[5] = Float8GetDatum((double) b->hintbytes / b->len);
		values[6] = PointerGetDatum(TextOfUtf8(page.text + b->start, b->len));
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
