/*
 * html/extract.c
 *	  The text of a web page as blocks: the extractor, which both parsers
 *	  feed with opened and closed elements and text (Extractor*, extract.h),
 *	  and the driver of libxml2's HTML parser in SAX mode, the reference
 *	  (parser => 'libxml2'; the default is the fast path of
 *	  fast.c).  doc/html.md says why this parser and how it was measured.
 *
 * libxml2's parser runs over the whole page in memory (htmlParseDocument: the
 * push parser drops what follows </html>, which browsers show, and loses
 * the end of a <script> cut between two chunks) and calls back for each
 * start tag, end tag and piece of text; no tree is built.  Entities come
 * decoded.  What we keep:
 *	  - text outside script, style, noscript, template, select, textarea,
 *		iframe, object, svg and <head> (comments never reach us), except
 *		the <title>, which is a block of its own;
 *	  - whitespace collapsed (space, tab, newline, CR, FF, no-break space)
 *		to one space inside a block; in <pre> a newline ends the block;
 *	  - a block-level element (p, div, li, td, h1-h6, br, ...) ends the
 *		block before it and at its end, so words of two blocks never merge;
 *		inline elements (a, span, b, em, ...) change nothing in the text.
 * Each block remembers how many of its bytes were inside <a> and inside
 * template elements (nav, aside, header and footer outside article/main,
 * and any element whose class, id or role names a menu, sidebar, footer,
 * share buttons, ...): boilerplate.c classifies the blocks from that.
 *
 * Memory: the page's text (at most the page's size) and the blocks, plus
 * the parser: libxml2's, whose stack of open elements we keep at most
 * MAX_DEPTH deep.  libxml2 looks for the element an end tag closes through
 * its whole stack, so a page of 100,000 unclosed <div> followed by
 * 100,000 stray </span> would cost 10^10 steps (12 s a MB); browsers cap
 * the depth too (Chromium at 512).  When an element opens deeper than
 * MAX_DEPTH, its parent is taken off both stacks, as if it had closed just
 * before: the text is all kept, and the block boundaries of such a page
 * move a little.  Our own stack mirrors libxml2's (its end-element
 * callback always closes the top of its stack) and holds one byte of
 * flags per element.
 *
 * Errors: the parser recovers from everything (HTML_PARSE_RECOVER) and
 * reports nothing (its error callback is ours and does nothing); memory
 * errors of ours (palloc) unwind through libxml2, and the parser is freed
 * on the way.  Interrupts stop the parser from a callback, then are
 * served.
 */
#include "html/extract.h"

#include "miscadmin.h"
#include "utils/memutils.h"

#include <libxml/HTMLparser.h>
#include <libxml/parserInternals.h>

typedef struct ElementKind
{
	const char *name;
	uint8		flags;
} ElementKind;

/* Sorted by name (bsearch). */
static const ElementKind element_kinds[] = {
	{"a", EL_LINK},
	{"address", EL_BLOCK},
	{"article", EL_BLOCK | EL_MAIN},
	{"aside", EL_BLOCK | EL_HINT},
	{"blockquote", EL_BLOCK},
	{"body", EL_BLOCK},
	{"br", EL_BLOCK},
	{"button", EL_BLOCK},
	{"caption", EL_BLOCK},
	{"center", EL_BLOCK},
	{"dd", EL_BLOCK},
	{"details", EL_BLOCK},
	{"dialog", EL_BLOCK},
	{"dir", EL_BLOCK},
	{"div", EL_BLOCK},
	{"dl", EL_BLOCK},
	{"dt", EL_BLOCK},
	{"embed", EL_BLOCK | EL_DROP},
	{"fieldset", EL_BLOCK},
	{"figcaption", EL_BLOCK},
	{"figure", EL_BLOCK},
	{"footer", EL_BLOCK | EL_EDGE},
	{"form", EL_BLOCK},
	{"frame", EL_BLOCK},
	{"frameset", EL_BLOCK},
	{"h1", EL_BLOCK},
	{"h2", EL_BLOCK},
	{"h3", EL_BLOCK},
	{"h4", EL_BLOCK},
	{"h5", EL_BLOCK},
	{"h6", EL_BLOCK},
	{"head", EL_BLOCK | EL_DROP},
	{"header", EL_BLOCK | EL_EDGE},
	{"hgroup", EL_BLOCK},
	{"hr", EL_BLOCK},
	{"html", EL_BLOCK},
	{"iframe", EL_BLOCK | EL_DROP},
	{"legend", EL_BLOCK},
	{"li", EL_BLOCK},
	{"main", EL_BLOCK | EL_MAIN},
	{"menu", EL_BLOCK | EL_HINT},
	{"nav", EL_BLOCK | EL_HINT},
	{"noscript", EL_BLOCK | EL_DROP},
	{"object", EL_BLOCK | EL_DROP},
	{"ol", EL_BLOCK},
	{"optgroup", EL_BLOCK},
	{"option", EL_BLOCK},
	{"p", EL_BLOCK},
	{"pre", EL_BLOCK | EL_PRE},
	{"script", EL_BLOCK | EL_DROP},
	{"section", EL_BLOCK},
	{"select", EL_BLOCK | EL_DROP},
	{"style", EL_BLOCK | EL_DROP},
	{"summary", EL_BLOCK},
	{"svg", EL_BLOCK | EL_DROP},
	{"table", EL_BLOCK},
	{"tbody", EL_BLOCK},
	{"td", EL_BLOCK},
	{"template", EL_BLOCK | EL_DROP},
	{"textarea", EL_BLOCK | EL_DROP},
	{"tfoot", EL_BLOCK},
	{"th", EL_BLOCK},
	{"thead", EL_BLOCK},
	{"title", EL_BLOCK | EL_TITLE},
	{"tr", EL_BLOCK},
	{"ul", EL_BLOCK},
};

/*
 * Words of class, id and role values that mark template elements (matched
 * as prefixes of the value's words: "navbar", "menu-main", "sidebar-left",
 * "social-share").
 */
static const char *const hint_words[] = {
	"ad", "ads", "advert", "banner", "breadcrumb", "comment", "contentinfo",
	"complementary", "cookie", "copyright", "disqus", "footer", "masthead",
	"menu", "nav", "newsletter", "pager", "pagination", "popup", "promo",
	"related", "share", "sharing", "sidebar", "signup", "skip", "social",
	"sponsor", "subscribe", "toolbar", "topbar", "widget",
};

/* Words that name the main content, like article and main. */
static const char *const main_words[] = {
	"article", "content", "entry", "main", "post", "story",
};


static int
CompareKind(const void *key, const void *elem)
{
	return strcmp((const char *) key, ((const ElementKind *) elem)->name);
}

/* The flags of an element by its name (lower case). */
uint8
ElementFlags(const char *name)
{
	const ElementKind *k = bsearch(name, element_kinds, lengthof(element_kinds),
								   sizeof(ElementKind), CompareKind);

	return k ? k->flags : 0;
}

static uint8
FlagsOfName(Extractor *ex, const xmlChar *name)
{
	NameCacheEntry *e = &ex->names[((uintptr_t) name >> 3) % NAME_CACHE];

	if (e->name == name)
		return e->flags;
	e->name = name;
	e->flags = ElementFlags((const char *) name);
	return e->flags;
}

/* Does a word of value (class, id, role) start with one of words[]? */
static bool
ValueHasWord(const char *value, const char *const *words, int nwords)
{
	const char *p = value;

	while (*p)
	{
		const char *w;
		int			len;

		while (*p && !isalnum((unsigned char) *p))
			p++;
		w = p;
		while (isalnum((unsigned char) *p))
			p++;
		len = p - w;
		if (len == 0)
			continue;
		for (int i = 0; i < nwords; i++)
		{
			int			wl = strlen(words[i]);

			/* "ad" and "ads" only as whole words, not "address" */
			if (wl <= 3 ? len == wl && pg_strncasecmp(w, words[i], wl) == 0
				: len >= wl && pg_strncasecmp(w, words[i], wl) == 0)
				return true;
		}
	}
	return false;
}

/*
 * The flags that an attribute (name in lower case, value NUL-terminated)
 * adds: EL_HINT, EL_MAIN or none.
 */
uint8
AttributeFlags(const char *name, const char *value)
{
	if (name[0] != 'c' && name[0] != 'i' && name[0] != 'r')
		return 0;
	if (strcmp(name, "class") != 0 && strcmp(name, "id") != 0 &&
		strcmp(name, "role") != 0)
		return 0;
	if (ValueHasWord(value, hint_words, lengthof(hint_words)))
		return EL_HINT;
	if (ValueHasWord(value, main_words, lengthof(main_words)))
		return EL_MAIN;
	return 0;
}

static uint8
FlagsOfAttributes(const xmlChar **atts)
{
	uint8		flags = 0;

	for (int i = 0; atts[i] != NULL; i += 2)
		if (atts[i + 1] != NULL)
			flags |= AttributeFlags((const char *) atts[i], (const char *) atts[i + 1]);
	/* a hint wins over a main word */
	return (flags & EL_HINT) ? EL_HINT : flags;
}

/* Ends the current block, if it has text. */
void
ExtractorBreak(Extractor *ex)
{
	ex->space = false;
	if (ex->cur.len == 0)
		return;
	if (ex->nblocks == ex->maxblocks)
	{
		ex->maxblocks *= 2;
		ex->blocks = repalloc_huge(ex->blocks, ex->maxblocks * sizeof(HtmlBlock));
	}
	ex->blocks[ex->nblocks++] = ex->cur;
	/* the text has room: AppendText keeps a byte free for this '\n' */
	ex->text[ex->textlen++] = '\n';
	memset(&ex->cur, 0, sizeof(HtmlBlock));
}

/* Appends s[0..len) (no whitespace inside) to the current block. */
static void
AppendText(Extractor *ex, const char *s, int len)
{
	int			add = len + (ex->space && ex->cur.len > 0);

	if (ex->textlen + add + 1 > ex->textsize)
	{
		ex->textsize = Max(2 * ex->textsize, ex->textlen + add + 1);
		ex->text = repalloc_huge(ex->text, ex->textsize);
	}
	if (ex->cur.len == 0)
	{
		ex->cur.start = ex->textlen;
		ex->cur.title = ex->title > 0;
	}
	else if (ex->space)
		ex->text[ex->textlen++] = ' ';
	memcpy(ex->text + ex->textlen, s, len);
	ex->textlen += len;
	ex->cur.len += add;
	if (ex->link > 0)
		ex->cur.linkbytes += add;
	if (ex->hint > 0 || (ex->edge > 0 && ex->main == 0))
		ex->cur.hintbytes += add;
	ex->space = false;
}

/* The counters of one element's flags, +1 when it opens, -1 when it closes. */
static void
CountFlags(Extractor *ex, uint8 flags, int delta)
{
	if (flags & EL_DROP)
		ex->drop += delta;
	if (flags & EL_TITLE)
		ex->title += delta;
	if (flags & EL_LINK)
		ex->link += delta;
	if (flags & EL_HINT)
		ex->hint += delta;
	if (flags & EL_MAIN)
		ex->main += delta;
	if (flags & EL_EDGE)
		ex->edge += delta;
	if (flags & EL_PRE)
		ex->pre += delta;
}

static void
CloseFlags(Extractor *ex, uint8 flags)
{
	if (flags & EL_BLOCK)
		ExtractorBreak(ex);
	CountFlags(ex, flags, -1);
}

/* An element opens (flags: ElementFlags and AttributeFlags). */
void
ExtractorOpen(Extractor *ex, uint8 flags)
{
	if (flags & EL_BLOCK)
		ExtractorBreak(ex);
	CountFlags(ex, flags, 1);
	if (ex->depth <= MAX_DEPTH)
		ex->stack[ex->depth] = flags;
	ex->depth++;
}

/* The element on top closes. */
void
ExtractorClose(Extractor *ex)
{
	if (ex->depth == 0)
		return;
	ex->depth--;
	if (ex->depth <= MAX_DEPTH)
		CloseFlags(ex, ex->stack[ex->depth]);
}

/*
 * The element under the top closes (the top takes its place): what the
 * parsers do to an element that opens deeper than MAX_DEPTH.
 */
void
ExtractorCloseParent(Extractor *ex)
{
	Assert(ex->depth >= 2 && ex->depth <= MAX_DEPTH + 1);
	CloseFlags(ex, ex->stack[ex->depth - 2]);
	ex->stack[ex->depth - 2] = ex->stack[ex->depth - 1];
	ex->depth--;
}

static void
OnStart(void *ud, const xmlChar *name, const xmlChar **atts)
{
	Extractor  *ex = (Extractor *) ud;
	htmlParserCtxtPtr ctxt = ex->ctxt;
	uint8		flags = FlagsOfName(ex, name);

	if (unlikely(InterruptPending))
		xmlStopParser(ctxt);
	if (atts != NULL)
		flags |= FlagsOfAttributes(atts);
	ExtractorOpen(ex, flags);

	/*
	 * Too deep: take the parent off libxml2's stack (the new element is its
	 * top) and ours, as if it had closed.
	 */
	if (ex->depth > MAX_DEPTH && ctxt->nameNr >= 2 &&
		ctxt->nameTab[ctxt->nameNr - 1] == name)
	{
		ExtractorCloseParent(ex);
		ctxt->nameTab[ctxt->nameNr - 2] = name;
		ctxt->nameNr--;
	}
}

static void
OnEnd(void *ud, const xmlChar *name)
{
	ExtractorClose((Extractor *) ud);
}

/* is_space[c]: ASCII whitespace in HTML (and NUL, which never comes) */
static const bool is_space[256] = {
	[' '] = true,['\t'] = true,['\n'] = true,['\r'] = true,['\f'] = true,
	['\v'] = true,
};

/* Text shown, or not (decoded UTF-8, whole characters). */
void
ExtractorText(Extractor *ex, const char *text, int len)
{
	const unsigned char *p = (const unsigned char *) text;
	const unsigned char *end = p + len;

	if (ex->drop > 0 && ex->title == 0)
		return;
	while (p < end)
	{
		const unsigned char *w;

		/* whitespace; U+00A0 (no-break space) is C2 A0 */
		while (p < end)
		{
			if (is_space[*p])
			{
				if (*p == '\n' && ex->pre > 0)
					ExtractorBreak(ex);
				else
					ex->space = true;
				p++;
			}
			else if (p[0] == 0xC2 && p + 1 < end && p[1] == 0xA0)
			{
				ex->space = true;
				p += 2;
			}
			else
				break;
		}
		w = p;
		while (p < end && !is_space[*p] &&
			   !(p[0] == 0xC2 && p + 1 < end && p[1] == 0xA0))
			p++;
		if (p > w)
			AppendText(ex, (const char *) w, p - w);
	}
}

static void
OnText(void *ud, const xmlChar *s, int len)
{
	Extractor  *ex = (Extractor *) ud;

	if (unlikely(InterruptPending))
		xmlStopParser(ex->ctxt);
	ExtractorText(ex, (const char *) s, len);
}

/* script and style content, which we drop */
static void
OnCdata(void *ud, const xmlChar *s, int len)
{
}

/*
 * Errors are not reported, but one tells us something: an end tag that
 * closes nothing ("Unexpected end tag", "Opening and ending tag mismatch").
 * Browsers ignore such end tags, except </p> and </br>, which make an
 * empty paragraph and a line break: both end the block.
 */
static void
OnError(void *ud, xmlErrorPtr error)
{
	Extractor  *ex = (Extractor *) ud;

	if (error->code == XML_ERR_TAG_NAME_MISMATCH && error->str1 != NULL &&
		(strcmp(error->str1, "p") == 0 || strcmp(error->str1, "br") == 0))
		ExtractorBreak(ex);
}

/* A new extractor for a page of len bytes. */
Extractor *
ExtractorCreate(int64 len)
{
	Extractor  *ex = palloc0(sizeof(Extractor));

	ex->textsize = Max(Min(len + 1, (int64) 1024 * 1024), 1024);
	ex->text = palloc(ex->textsize);
	ex->maxblocks = 64;
	ex->blocks = palloc(ex->maxblocks * sizeof(HtmlBlock));
	return ex;
}

/* The end of the page: its blocks, and the extractor freed. */
void
ExtractorFinish(Extractor *ex, HtmlPage *page)
{
	while (ex->depth > 0)
		ExtractorClose(ex);
	ExtractorBreak(ex);
	page->text = ex->text;
	page->textlen = ex->textlen;
	page->blocks = ex->blocks;
	page->nblocks = ex->nblocks;
	pfree(ex);
}

void
HtmlExtractLibxml2(const char *utf8, int64 len, HtmlPage *page)
{
	Extractor  *ex = ExtractorCreate(len);
	htmlParserCtxtPtr volatile ctxt = NULL;

	if (len > INT_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("HTML page too long: %lld bytes", (long long) len)));
	if (len == 0)
	{
		ExtractorFinish(ex, page);
		return;
	}
	xmlInitParser();
	PG_TRY();
	{
		xmlSAXHandler sax;

		/* libxml2 copies the page into a buffer of its own */
		ctxt = htmlCreateMemoryParserCtxt(utf8, (int) len);
		if (ctxt == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_OUT_OF_MEMORY),
					 errmsg("out of memory"),
					 errdetail("libxml2 could not create an HTML parser.")));
		memset(&sax, 0, sizeof(sax));
		sax.startElement = OnStart;
		sax.endElement = OnEnd;
		sax.characters = OnText;
		sax.ignorableWhitespace = OnText;
		sax.cdataBlock = OnCdata;
		sax.serror = OnError;
		sax.initialized = XML_SAX2_MAGIC;
		memcpy(ctxt->sax, &sax, sizeof(sax));
		ctxt->userData = ex;
		ex->ctxt = ctxt;
		htmlCtxtUseOptions(ctxt, HTML_PARSE_RECOVER | HTML_PARSE_NOERROR |
						   HTML_PARSE_NOWARNING | HTML_PARSE_NONET |
						   HTML_PARSE_NODEFDTD | HTML_PARSE_IGNORE_ENC |
						   XML_PARSE_HUGE);
		/* the encoding is UTF-8 whatever a <meta charset> says */
		ctxt->charset = XML_CHAR_ENCODING_UTF8;
		htmlParseDocument(ctxt);
	}
	PG_CATCH();
	{
		if (ctxt != NULL)
			htmlFreeParserCtxt(ctxt);
		PG_RE_THROW();
	}
	PG_END_TRY();
	htmlFreeParserCtxt(ctxt);
	CHECK_FOR_INTERRUPTS();
	ExtractorFinish(ex, page);
}

/*
 * The text of the kept blocks, each followed by '\n' (the blocks' text is
 * moved in place: the blocks' offsets are no longer valid after).
 */
char *
HtmlKeptText(HtmlPage *page, int64 *len)
{
	int64		out = 0;

	for (int i = 0; i < page->nblocks; i++)
	{
		HtmlBlock  *b = &page->blocks[i];

		if (!b->kept)
			continue;
		if (out != b->start)
			memmove(page->text + out, page->text + b->start, b->len + 1);
		out += b->len + 1;
	}
	*len = out;
	return page->text;
}
