/*
 * html/extract.h
 *	  Internal to src/html/: what the two parsers' drivers share (extract.c):
 *	  the element and attribute flags, and the extractor, which turns
 *	  opened and closed elements and text into blocks.
 */
#ifndef SIMHASH_HTML_EXTRACT_H
#define SIMHASH_HTML_EXTRACT_H

#include "html/html.h"

#define MAX_DEPTH 512

/* Element flags */
#define EL_BLOCK	0x01		/* ends the block before and after it */
#define EL_DROP		0x02		/* its text is not shown */
#define EL_TITLE	0x04		/* <title>, shown although inside <head> */
#define EL_LINK		0x08		/* <a> */
#define EL_HINT		0x10		/* template: nav, aside, class="menu", ... */
#define EL_MAIN		0x20		/* article, main: header/footer inside are
								 * the article's own */
#define EL_PRE		0x40		/* pre, textarea: newlines end the block */
#define EL_EDGE		0x80		/* header, footer: template outside main */

/*
 * Flags of the names seen in this page: libxml2 keeps one copy of each
 * name in its dictionary, so a name is known by its address.
 */
#define NAME_CACHE 64

typedef struct NameCacheEntry
{
	const void *name;
	uint8		flags;
} NameCacheEntry;

typedef struct Extractor
{
	void	   *ctxt;			/* libxml2's parser (extract.c) */
	NameCacheEntry names[NAME_CACHE];
	/* our stack of open elements: the flags each one set */
	uint8		stack[MAX_DEPTH + 1];
	int			depth;
	/* how many open elements have each flag */
	int			drop,
				title,
				link,
				hint,
				main,
				edge,
				pre;
	/* the text */
	char	   *text;
	int64		textlen;
	int64		textsize;
	bool		space;			/* whitespace seen since the last byte */
	HtmlBlock	cur;			/* the block being filled (cur.len > 0) */
	HtmlBlock  *blocks;
	int			nblocks;
	int			maxblocks;
} Extractor;

extern uint8 ElementFlags(const char *name);
extern uint8 AttributeFlags(const char *name, const char *value);
extern Extractor *ExtractorCreate(int64 len);
extern void ExtractorOpen(Extractor *ex, uint8 flags);
extern void ExtractorClose(Extractor *ex);
extern void ExtractorCloseParent(Extractor *ex);
extern void ExtractorText(Extractor *ex, const char *text, int len);
extern void ExtractorBreak(Extractor *ex);
extern void ExtractorFinish(Extractor *ex, HtmlPage *page);

#endif							/* SIMHASH_HTML_EXTRACT_H */
