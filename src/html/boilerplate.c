/*
 * html/boilerplate.c
 *	  Which blocks of a page are its content and which its template.
 *
 * The classic signals (jusText, boilerpipe, Readability): the size of a
 * block, the share of its text inside links, whether it sits in a template
 * element (nav, aside, header or footer outside article/main, class or id
 * naming a menu, sidebar, share buttons, ...; extract.c counts those
 * bytes), repetition, and its neighbours.  In order:
 *	1. the <title> is kept (HTML_TITLE);
 *	2. a block mostly inside template elements is dropped (HTML_TEMPLATE);
 *	3. a block of which more than LINK_SHARE is link text is dropped
 *	   (HTML_LINKS);
 *	4. a long block (LONG_BYTES of text or more) with little link text is
 *	   content (HTML_CONTENT);
 *	5. a short block (under REPEAT_BYTES) whose text occurs earlier in the
 *	   page is dropped (HTML_REPEATED): "Read more", "Share", "Top";
 *	6. the others (short or medium) take after the nearest decided blocks
 *	   before and after them (the start and the end of the page count as
 *	   dropped): kept between two content blocks, dropped between two
 *	   dropped ones, and between one of each kept if medium (SHORT_BYTES
 *	   or more), dropped if short (HTML_NEAR kept, HTML_SHORT dropped).
 * Sizes are in bytes of UTF-8, which weighs a Chinese character (3 bytes,
 * about two thirds of a word) close to an English word with its space
 * (6 bytes on average).
 * A page with no content block keeps its medium blocks; a page of which
 * nothing would be kept keeps everything but template and links, and if
 * that is nothing too, everything: a page never loses all its text to
 * this step.
 */
#include "html/html.h"

#include "common/hashfn.h"

#define LONG_BYTES		150
#define SHORT_BYTES		50
#define REPEAT_BYTES	100
#define LINK_SHARE		0.4
#define CONTENT_LINK_SHARE 0.25

static bool
IsDropped(HtmlBlockClass cls)
{
	return cls == HTML_LINKS || cls == HTML_TEMPLATE || cls == HTML_REPEATED ||
		cls == HTML_SHORT;
}

typedef struct BlockHash
{
	uint64		hash;
	int			index;
} BlockHash;

static int
CompareBlockHash(const void *a, const void *b)
{
	const BlockHash *x = a;
	const BlockHash *y = b;

	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	return x->index - y->index;
}

/* Step 5: short blocks whose text came before. */
static void
MarkRepeated(HtmlPage *page, HtmlBlockClass *pre)
{
	BlockHash  *h = palloc(Max(page->nblocks, 1) * sizeof(BlockHash));
	int			n = 0;

	for (int i = 0; i < page->nblocks; i++)
	{
		HtmlBlock  *b = &page->blocks[i];

		if (b->len < REPEAT_BYTES && pre[i] == HTML_NEAR)
		{
			h[n].hash = hash_bytes_extended((const unsigned char *) page->text + b->start,
											b->len, 0);
			h[n].index = i;
			n++;
		}
	}
	qsort(h, n, sizeof(BlockHash), CompareBlockHash);
	for (int i = 1; i < n; i++)
		if (h[i].hash == h[i - 1].hash)
			pre[h[i].index] = HTML_REPEATED;
	pfree(h);
}

void
HtmlClassify(HtmlPage *page, bool remove_boilerplate)
{
	HtmlBlockClass *pre = palloc(Max(page->nblocks, 1) * sizeof(HtmlBlockClass));
	bool	   *content_after = palloc(Max(page->nblocks, 1) * sizeof(bool));
	bool		any_content = false;
	bool		after = false;
	int			nkept = 0;
	int			prev;

	/* steps 1-4; HTML_NEAR for the undecided */
	for (int i = 0; i < page->nblocks; i++)
	{
		HtmlBlock  *b = &page->blocks[i];
		double		links = (double) b->linkbytes / b->len;

		if (b->title)
			pre[i] = HTML_TITLE;
		else if (2 * b->hintbytes > b->len)
			pre[i] = HTML_TEMPLATE;
		else if (links > LINK_SHARE)
			pre[i] = HTML_LINKS;
		else if (b->len >= LONG_BYTES && links <= CONTENT_LINK_SHARE)
		{
			pre[i] = HTML_CONTENT;
			any_content = true;
		}
		else
			pre[i] = HTML_NEAR;
	}
	MarkRepeated(page, pre);

	/* content_after[i]: is the next decided block after i content? */
	for (int i = page->nblocks - 1; i >= 0; i--)
	{
		content_after[i] = after;
		if (pre[i] != HTML_NEAR && pre[i] != HTML_TITLE)
			after = pre[i] == HTML_CONTENT;
	}

	/* step 6, and the page without content blocks */
	prev = -1;					/* the last decided block before i */
	for (int i = 0; i < page->nblocks; i++)
	{
		HtmlBlock  *b = &page->blocks[i];

		b->cls = pre[i];
		if (pre[i] == HTML_NEAR)
		{
			bool		before = prev >= 0 && pre[prev] == HTML_CONTENT;
			bool		next = content_after[i];
			bool		medium = b->len >= SHORT_BYTES;

			if (!any_content)
				b->cls = medium ? HTML_NEAR : HTML_SHORT;
			else if (before && next)
				b->cls = HTML_NEAR;
			else if (before || next)
				b->cls = medium ? HTML_NEAR : HTML_SHORT;
			else
				b->cls = HTML_SHORT;
		}
		else if (pre[i] != HTML_TITLE)
			prev = i;
		b->kept = !remove_boilerplate || !IsDropped(b->cls);
		nkept += b->kept && b->cls != HTML_TITLE;
	}
	pfree(pre);
	pfree(content_after);

	/* a page never loses all its text */
	if (nkept == 0)
	{
		for (int i = 0; i < page->nblocks; i++)
		{
			HtmlBlock  *b = &page->blocks[i];

			b->kept = b->cls != HTML_LINKS && b->cls != HTML_TEMPLATE;
			nkept += b->kept && b->cls != HTML_TITLE;
		}
		if (nkept == 0)
			for (int i = 0; i < page->nblocks; i++)
				page->blocks[i].kept = true;
	}
}

const char *
HtmlBlockClassName(HtmlBlockClass cls)
{
	switch (cls)
	{
		case HTML_CONTENT:
			return "content";
		case HTML_TITLE:
			return "title";
		case HTML_NEAR:
			return "near content";
		case HTML_LINKS:
			return "links";
		case HTML_TEMPLATE:
			return "template";
		case HTML_REPEATED:
			return "repeated";
		case HTML_SHORT:
			return "short";
	}
	return "?";
}
