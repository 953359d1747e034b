/*
 * html/html.h
 *	  The public interface of src/html/: the text of a web page as blocks.
 *
 * HtmlExtractFast and HtmlExtractLibxml2 parse a page with the fast path
 * (fast.c) or libxml2's HTML
 * parser in SAX mode (extract.c), neither building a tree, and keeps what
 * a reader sees, as blocks (extract.c): the text between
 * two block-level boundaries (p, div, li, td, h1-h6, br, ...), entities
 * decoded, whitespace collapsed.  HtmlClassify (boilerplate.c) marks each
 * block content or boilerplate (navigation, headers, footers, link lists,
 * repeated short blocks).  The SQL functions (functions.c) fingerprint the
 * kept blocks with fingerprint/fingerprint.h, one block a line.
 * See README.md in this folder and doc/html.md.
 */
#ifndef SIMHASH_HTML_H
#define SIMHASH_HTML_H

#include "type/simhash.h"

/* Why a block is kept or dropped (HtmlClassify). */
typedef enum HtmlBlockClass
{
	HTML_CONTENT,				/* long text, few links */
	HTML_TITLE,					/* the page's <title>: always kept */
	HTML_NEAR,					/* medium or short, kept by its neighbours */
	HTML_LINKS,					/* mostly link text */
	HTML_TEMPLATE,				/* inside nav, header, footer, aside, or an
								 * element whose class or id says menu,
								 * sidebar, share, cookie, ... */
	HTML_REPEATED,				/* a short block seen before in the page */
	HTML_SHORT					/* short or medium, dropped by its neighbours */
} HtmlBlockClass;

typedef struct HtmlBlock
{
	int64		start;			/* offset of its text in HtmlPage.text */
	int32		len;			/* bytes of text (UTF-8), not counting the
								 * '\n' that follows it */
	int32		linkbytes;		/* bytes inside <a> */
	int32		hintbytes;		/* bytes inside template elements */
	bool		title;			/* the <title> element */
	HtmlBlockClass cls;
	bool		kept;
} HtmlBlock;

typedef struct HtmlPage
{
	char	   *text;			/* every block's text followed by '\n' */
	int64		textlen;
	HtmlBlock  *blocks;
	int			nblocks;
} HtmlPage;

/*
 * The blocks of utf8[0..len) (UTF-8, no NUL inside), by the fast path
 * (fast.c, what simhash_html uses by default) or by libxml2's HTML parser
 * (extract.c, its reference): the SQL functions' parser argument chooses.
 */
extern void HtmlExtractLibxml2(const char *utf8, int64 len, HtmlPage *page);
extern void HtmlExtractFast(const char *utf8, int64 len, HtmlPage *page);

/* boilerplate.c: sets cls and kept of every block */
extern void HtmlClassify(HtmlPage *page, bool remove_boilerplate);
extern const char *HtmlBlockClassName(HtmlBlockClass cls);

/* extract.c: the text of the kept blocks, one a line (may reuse page->text) */
extern char *HtmlKeptText(HtmlPage *page, int64 *len);

#endif							/* SIMHASH_HTML_H */
