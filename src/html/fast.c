/*
 * html/fast.c
 *	  The fast path: a tokenizer of our own that does only what text
 *	  extraction needs, in one pass over the page in place, feeding the same
 *	  extractor as libxml2's callbacks (extract.c).  libxml2 stays the
 *	  reference: the functions' parser => 'libxml2' argument runs it, and
 *	  test/t/024_html_fast_path.pl compares the two on real pages and on
 *	  random ones.
 *
 * It follows libxml2's HTML parser where extraction can see the
 * difference:
 *	  - markup: start tags (a letter, '_', ':' or '.' after '<'; names of
 *		letters, digits, ':', '-', '_', '.', lower-cased), their attributes
 *		(quoted or not; class, id and role are read), "/>" closes; end tags;
 *		comments to "-->"; "<!DOCTYPE ...>" and "<?...>" skipped; "</" with
 *		no name dropped; any other '<' is text; a tag, comment or doctype
 *		that never ends ends the page;
 *	  - script and style are raw text up to "</script" or "</style" (any
 *		case);
 *	  - entities: named ones from libxml2's own table (htmlEntityLookup)
 *		when ';' follows, else the text as written; numeric ones with or
 *		without ';', invalid code points (0, surrogates, beyond U+10FFFF,
 *		controls) and "&#" without digits dropped; control characters in
 *		text dropped;
 *	  - the tree: a stack of open elements (names hashed); an end tag
 *		closes the elements above its match unless one of them has a higher
 *		end priority (libxml2's table: div < td, th < tr < thead, tbody,
 *		tfoot < table < head, body < html), else it is ignored (</p> and
 *		</br> then end the block); void elements never open; <a> closes
 *		an open <a>; <head> is implied by a head element before the body,
 *		and closed by anything else (text included); text with no element
 *		open to hold it (before any element, in the head, after </body>)
 *		opens an implied <p>, which <body> or another of libxml2's closers
 *		of a <p> closes when it is the innermost open element
 *		(htmlCheckParagraph and htmlAutoClose: the head's text is a block of
 *		its own); the stack is capped at MAX_DEPTH as libxml2's is
 *		(extract.c).
 * Interrupts are checked every 64 kB.
 */
#include "html/extract.h"

#include "common/hashfn.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"

#include <libxml/HTMLparser.h>

#define MAX_NAME 64				/* longer names are unknown elements */
#define INTERRUPT_BYTES (64 * 1024)

typedef struct FastParser
{
	Extractor  *ex;
	const char *p;
	const char *end;
	uint32		names[MAX_DEPTH + 2];	/* hash of each open element's name */
	uint8		prio[MAX_DEPTH + 2];	/* its end priority */
	int			depth;
	bool		head;			/* an implied or explicit <head> is open */
	bool		body;			/* the body has started */
	bool		closed;			/* </body> or </html> closed everything */
	uint32		phash;			/* NameHash("p") */
} FastParser;

static const char *const void_elements[] = {
	"area", "base", "basefont", "br", "col", "embed", "frame", "hr", "img",
	"input", "isindex", "link", "meta", "param", "source", "track", "wbr",
};

static const char *const head_elements[] = {
	"base", "link", "meta", "script", "style", "title",
};

static bool
InList(const char *name, const char *const *list, int n)
{
	for (int i = 0; i < n; i++)
		if (strcmp(name, list[i]) == 0)
			return true;
	return false;
}

/* libxml2's end priority of an element (htmlEndPriority). */
static uint8
EndPriority(const char *name)
{
	switch (name[0])
	{
		case 'd':
			return strcmp(name, "div") == 0 ? 150 : 100;
		case 't':
			if (strcmp(name, "td") == 0 || strcmp(name, "th") == 0)
				return 160;
			if (strcmp(name, "tr") == 0)
				return 170;
			if (strcmp(name, "thead") == 0 || strcmp(name, "tbody") == 0 ||
				strcmp(name, "tfoot") == 0)
				return 180;
			return strcmp(name, "table") == 0 ? 190 : 100;
		case 'h':
			if (strcmp(name, "head") == 0)
				return 200;
			return strcmp(name, "html") == 0 ? 220 : 100;
		case 'b':
			return strcmp(name, "body") == 0 ? 200 : 100;
	}
	return 100;
}

static inline bool
IsNameStart(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
		c == ':' || c == '.';
}

static inline bool
IsNameChar(unsigned char c)
{
	return IsNameStart(c) || (c >= '0' && c <= '9') || c == '-';
}

static inline bool
IsBlank(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/*
 * Reads a name at fp->p (IsNameStart there) into buf, lower-cased, and
 * returns its length (names longer than MAX_NAME - 1 are cut in buf).
 */
static int
ReadName(FastParser *fp, char *buf)
{
	int			n = 0;

	while (fp->p < fp->end && IsNameChar((unsigned char) *fp->p))
	{
		if (n < MAX_NAME - 1)
			buf[n] = pg_ascii_tolower((unsigned char) *fp->p);
		n++;
		fp->p++;
	}
	buf[Min(n, MAX_NAME - 1)] = '\0';
	return n;
}

static uint32
NameHash(const char *name)
{
	return hash_bytes((const unsigned char *) name, strlen(name));
}

static void
Open(FastParser *fp, const char *name, uint8 flags)
{
	ExtractorOpen(fp->ex, flags);
	fp->names[fp->depth] = NameHash(name);
	fp->prio[fp->depth] = EndPriority(name);
	fp->depth++;
	fp->closed = false;
	if (fp->depth > MAX_DEPTH)
	{
		/* too deep: the parent closes, as in extract.c */
		ExtractorCloseParent(fp->ex);
		fp->names[fp->depth - 2] = fp->names[fp->depth - 1];
		fp->prio[fp->depth - 2] = fp->prio[fp->depth - 1];
		fp->depth--;
	}
}

static void
CloseTop(FastParser *fp)
{
	ExtractorClose(fp->ex);
	fp->depth--;
}

/*
 * Non-blank text with no element open to hold it: libxml2 opens a <p> for
 * it (htmlCheckParagraph), so it is a block of its own.
 */
static void
OpenImpliedParagraph(FastParser *fp)
{
	Open(fp, "p", ElementFlags("p"));
}

/*
 * The start tags that close an open <p> in libxml2's HTML parser
 * (htmlAutoClose; measured on libxml2 2.9.14: not the HTML5 elements, nor
 * thead, script, style, noscript or br), in strcmp order.
 */
static const char *const paragraph_closers[] = {
	"address", "blockquote", "body", "caption", "center", "col", "colgroup",
	"dd", "dir", "div", "dl", "dt", "fieldset", "form", "frameset", "h1",
	"h2", "h3", "h4", "h5", "h6", "hr", "li", "listing", "menu", "ol", "p",
	"pre", "table", "tbody", "td", "tfoot", "th", "title", "tr", "ul", "xmp",
};

static int
CompareName(const void *key, const void *entry)
{
	return strcmp(key, *(const char *const *) entry);
}

/*
 * The start tag name closes the innermost open element if that is a <p>,
 * implied or not, and name one of paragraph_closers.
 */
static void
CloseParagraph(FastParser *fp, const char *name)
{
	if (fp->depth > 0 && fp->names[fp->depth - 1] == fp->phash &&
		bsearch(name, paragraph_closers, lengthof(paragraph_closers),
				sizeof(paragraph_closers[0]), CompareName) != NULL)
		CloseTop(fp);
}

/* Closes the element at index i and those above it. */
static void
CloseTo(FastParser *fp, int i)
{
	while (fp->depth > i)
		CloseTop(fp);
}

/* The index of the innermost open element of hash h, or -1. */
static int
FindOpen(FastParser *fp, uint32 h)
{
	for (int i = fp->depth - 1; i >= 0; i--)
		if (fp->names[i] == h)
			return i;
	return -1;
}

/* The implied or explicit head closes: the body starts. */
static void
StartBody(FastParser *fp)
{
	if (fp->head)
	{
		int			i = FindOpen(fp, NameHash("head"));

		if (i >= 0)
			CloseTo(fp, i);
		fp->head = false;
	}
	fp->body = true;
}

static void Text(FastParser *fp, const char *s, int len);

/* Appends the UTF-8 of code point c as text, if libxml2 would. */
static void
CodePoint(FastParser *fp, uint32 c)
{
	unsigned char buf[4];
	int			n;

	if (!(c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) ||
		  (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF)))
		return;
	unicode_to_utf8((pg_wchar) c, buf);
	n = pg_utf_mblen(buf);
	Text(fp, (const char *) buf, n);
}

/* Text s[0..len) as written, without the control characters libxml2 drops. */
static void
Text(FastParser *fp, const char *s, int len)
{
	const char *start = s;
	const char *end = s + len;

	if (fp->ex->drop > 0 && fp->ex->title == 0)
	{
		if (!fp->head)
			return;
	}
	if ((!fp->body && !fp->head) || (fp->closed && fp->depth == 0))
	{
		/*
		 * text before any element, or after </body>: the body starts, in an
		 * implied <p> (if not all blank)
		 */
		for (const char *q = s; q < end; q++)
			if (!IsBlank((unsigned char) *q))
			{
				fp->body = true;
				OpenImpliedParagraph(fp);
				break;
			}
	}
	else if (fp->head && fp->ex->title == 0)
	{
		bool		blank = true;
		bool		inhead;

		for (const char *q = s; q < end; q++)
			if (!IsBlank((unsigned char) *q))
			{
				blank = false;
				break;
			}
		if (blank)
			return;
		inhead = fp->depth > 0 && fp->names[fp->depth - 1] == NameHash("head");
		StartBody(fp);
		/* text right in the head: in an implied <p> */
		if (inhead)
			OpenImpliedParagraph(fp);
	}
	for (const char *q = s; q < end; q++)
	{
		unsigned char c = (unsigned char) *q;

		if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') ||
			(c == 0xEF && q + 2 < end && (unsigned char) q[1] == 0xBF &&
			 ((unsigned char) q[2] == 0xBE || (unsigned char) q[2] == 0xBF)))
		{
			if (q > start)
				ExtractorText(fp->ex, start, q - start);
			q += (c == 0xEF) ? 2 : 0;
			start = q + 1;
		}
	}
	if (end > start)
		ExtractorText(fp->ex, start, end - start);
}

/* An entity or character reference at fp->p ('&'). */
static void
Reference(FastParser *fp)
{
	const char *amp = fp->p;
	const char *q = amp + 1;

	if (q < fp->end && *q == '#')
	{
		uint32		c = 0;
		bool		hex = q + 1 < fp->end && (q[1] == 'x' || q[1] == 'X');
		const char *digits;

		q += hex ? 2 : 1;
		digits = q;
		while (q < fp->end)
		{
			int			d;

			if (*q >= '0' && *q <= '9')
				d = *q - '0';
			else if (hex && *q >= 'a' && *q <= 'f')
				d = *q - 'a' + 10;
			else if (hex && *q >= 'A' && *q <= 'F')
				d = *q - 'A' + 10;
			else
				break;
			if (c < 0x110000)
				c = c * (hex ? 16 : 10) + d;
			q++;
		}
		if (q < fp->end && *q == ';')
			q++;
		fp->p = q;
		/* "&#" without digits is dropped, as libxml2 does */
		if (q > digits && digits[0] != ';')
			CodePoint(fp, c);
		return;
	}
	if (q < fp->end && IsNameStart((unsigned char) *q))
	{
		char		name[MAX_NAME];
		int			n = 0;

		while (q < fp->end && (IsNameChar((unsigned char) *q) ||
							   (unsigned char) *q >= 0x80))
		{
			if (n < MAX_NAME - 1)
				name[n] = *q;
			n++;
			q++;
		}
		name[Min(n, MAX_NAME - 1)] = '\0';
		if (q < fp->end && *q == ';' && n < MAX_NAME)
		{
			const htmlEntityDesc *e = htmlEntityLookup((const xmlChar *) name);

			if (e != NULL)
			{
				fp->p = q + 1;
				CodePoint(fp, e->value);
				return;
			}
		}
		/* not an entity: the text as written, the name included */
		Text(fp, amp, q - amp);
		fp->p = q;
		return;
	}
	Text(fp, amp, 1);
	fp->p = amp + 1;
}

/*
 * Skips to just after the first occurrence of needle; false (and the end
 * of the page) if there is none.
 */
static bool
SkipPast(FastParser *fp, const char *needle, int len)
{
	const char *q = fp->p;

	while (q + len <= fp->end)
	{
		const char *hit = memchr(q, needle[0], fp->end - q);

		if (hit == NULL || hit + len > fp->end)
			break;
		if (memcmp(hit, needle, len) == 0)
		{
			fp->p = hit + len;
			return true;
		}
		q = hit + 1;
	}
	fp->p = fp->end;
	return false;
}

/* Raw text of script or style: skips to its end tag ("</name", any case). */
static void
SkipRawText(FastParser *fp, const char *name)
{
	int			n = strlen(name);

	for (;;)
	{
		const char *hit = memchr(fp->p, '<', fp->end - fp->p);

		if (hit == NULL)
		{
			fp->p = fp->end;
			return;
		}
		if (hit + 2 + n <= fp->end && hit[1] == '/' &&
			pg_strncasecmp(hit + 2, name, n) == 0)
		{
			fp->p = hit;		/* the end tag is read as one */
			return;
		}
		fp->p = hit + 1;
	}
}

/*
 * A start tag at fp->p (just after '<', a name start there).  Returns false
 * if it never ends (the page ends with it).
 */
static bool
StartTag(FastParser *fp)
{
	char		name[MAX_NAME];
	uint8		flags;
	uint8		attrflags = 0;
	bool		selfclose = false;

	ReadName(fp, name);
	/* the attributes */
	for (;;)
	{
		char		attr[MAX_NAME];
		const char *value = NULL;
		int			vlen = 0;

		while (fp->p < fp->end && IsBlank((unsigned char) *fp->p))
			fp->p++;
		if (fp->p >= fp->end)
			return false;
		if (*fp->p == '>')
		{
			fp->p++;
			break;
		}
		if (*fp->p == '/' && fp->p + 1 < fp->end && fp->p[1] == '>')
		{
			fp->p += 2;
			selfclose = true;
			break;
		}
		if (!IsNameStart((unsigned char) *fp->p))
		{
			/* a bogus attribute: skipped up to a blank or the tag's end */
			while (fp->p < fp->end && !IsBlank((unsigned char) *fp->p) &&
				   *fp->p != '>' &&
				   !(*fp->p == '/' && fp->p + 1 < fp->end && fp->p[1] == '>'))
				fp->p++;
			continue;
		}
		ReadName(fp, attr);
		while (fp->p < fp->end && IsBlank((unsigned char) *fp->p))
			fp->p++;
		if (fp->p < fp->end && *fp->p == '=')
		{
			fp->p++;
			while (fp->p < fp->end && IsBlank((unsigned char) *fp->p))
				fp->p++;
			if (fp->p < fp->end && (*fp->p == '"' || *fp->p == '\''))
			{
				const char *close = memchr(fp->p + 1, *fp->p, fp->end - fp->p - 1);

				if (close == NULL)
					return false;
				value = fp->p + 1;
				vlen = close - value;
				fp->p = close + 1;
			}
			else
			{
				value = fp->p;
				while (fp->p < fp->end && !IsBlank((unsigned char) *fp->p) &&
					   *fp->p != '>')
					fp->p++;
				vlen = fp->p - value;
			}
		}
		if (value != NULL && (attr[0] == 'c' || attr[0] == 'i' || attr[0] == 'r'))
		{
			char	   *v = pnstrdup(value, vlen);

			attrflags |= AttributeFlags(attr, v);
			pfree(v);
		}
	}

	/* the tree */
	if (strcmp(name, "html") == 0)
		return true;
	if (strcmp(name, "head") == 0)
	{
		if (!fp->body && !fp->head)
		{
			Open(fp, name, ElementFlags(name));
			fp->head = true;
		}
		return true;
	}
	if (strcmp(name, "body") == 0)
	{
		CloseParagraph(fp, name);
		StartBody(fp);
		return true;
	}
	if (!fp->body && InList(name, head_elements, lengthof(head_elements)))
	{
		if (!fp->head)
		{
			Open(fp, "head", ElementFlags("head"));
			fp->head = true;
		}
	}
	else
		StartBody(fp);

	flags = ElementFlags(name) | ((attrflags & EL_HINT) ? EL_HINT : attrflags);
	CloseParagraph(fp, name);
	if (strcmp(name, "a") == 0)
	{
		int			i = FindOpen(fp, NameHash("a"));

		if (i >= 0)
			CloseTo(fp, i);
	}
	if (InList(name, void_elements, lengthof(void_elements)))
	{
		ExtractorOpen(fp->ex, flags);
		ExtractorClose(fp->ex);
		return true;
	}
	Open(fp, name, flags);
	if (selfclose)
	{
		CloseTop(fp);
		return true;
	}
	if (strcmp(name, "script") == 0 || strcmp(name, "style") == 0)
		SkipRawText(fp, name);
	return true;
}

/* An end tag at fp->p (just after "</", a name start there). */
static void
EndTag(FastParser *fp)
{
	char		name[MAX_NAME];
	uint8		prio;
	int			i;
	uint32		h;
	const char *gt;

	ReadName(fp, name);
	gt = memchr(fp->p, '>', fp->end - fp->p);
	fp->p = gt ? gt + 1 : fp->end;
	if (strcmp(name, "body") == 0 || strcmp(name, "html") == 0)
	{
		/* everything closes (libxml2 gives them the highest priorities) */
		CloseTo(fp, 0);
		ExtractorBreak(fp->ex);
		fp->head = false;
		fp->closed = true;
		return;
	}
	h = NameHash(name);
	prio = EndPriority(name);
	for (i = fp->depth - 1; i >= 0; i--)
	{
		if (fp->names[i] == h)
			break;
		if (fp->prio[i] > prio)
		{
			i = -1;
			break;
		}
	}
	if (i < 0)
	{
		if (strcmp(name, "p") == 0 || strcmp(name, "br") == 0)
			ExtractorBreak(fp->ex);
		return;
	}
	CloseTo(fp, i);
	if (strcmp(name, "head") == 0)
		fp->head = false;
}

void
HtmlExtractFast(const char *utf8, int64 len, HtmlPage *page)
{
	FastParser	fp;
	const char *next_check;

	memset(&fp, 0, sizeof(fp));
	fp.phash = NameHash("p");
	fp.ex = ExtractorCreate(len);
	fp.p = utf8;
	fp.end = utf8 + len;
	/* a byte order mark starting the page is not text (libxml2 skips it) */
	if (len >= 3 && memcmp(utf8, "\xEF\xBB\xBF", 3) == 0)
		fp.p += 3;
	next_check = fp.p + INTERRUPT_BYTES;
	while (fp.p < fp.end)
	{
		const char *lt = memchr(fp.p, '<', fp.end - fp.p);
		const char *stop = lt ? lt : fp.end;
		const char *amp = memchr(fp.p, '&', stop - fp.p);

		if (fp.p >= next_check)
		{
			CHECK_FOR_INTERRUPTS();
			next_check = fp.p + INTERRUPT_BYTES;
		}
		if (amp != NULL)
		{
			if (amp > fp.p)
				Text(&fp, fp.p, amp - fp.p);
			fp.p = amp;
			Reference(&fp);
			continue;
		}
		if (stop > fp.p)
			Text(&fp, fp.p, stop - fp.p);
		fp.p = stop;
		if (lt == NULL)
			break;
		/* markup at '<' */
		if (lt + 1 < fp.end && IsNameStart((unsigned char) lt[1]))
		{
			fp.p = lt + 1;
			if (!StartTag(&fp))
				break;
		}
		else if (lt + 2 < fp.end && lt[1] == '/' && IsNameStart((unsigned char) lt[2]))
		{
			fp.p = lt + 2;
			EndTag(&fp);
		}
		else if (lt + 1 < fp.end && lt[1] == '/')
		{
			/* "</" and no name: dropped, as libxml2 does */
			fp.p = lt + 2;
		}
		else if (lt + 3 < fp.end && memcmp(lt, "<!--", 4) == 0)
		{
			fp.p = lt + 4;
			if (!SkipPast(&fp, "-->", 3))
				break;
		}
		else if ((lt + 9 <= fp.end && pg_strncasecmp(lt, "<!DOCTYPE", 9) == 0) ||
				 (lt + 1 < fp.end && lt[1] == '?'))
		{
			fp.p = lt + 2;
			if (!SkipPast(&fp, ">", 1))
				break;
		}
		else
		{
			Text(&fp, lt, 1);
			fp.p = lt + 1;
		}
	}
	ExtractorFinish(fp.ex, page);
}
