/*
 * fingerprint/tokenizer.c
 *	  The tokenizer, the first stage of simhash(text): text to kept tokens.
 *	  This file is its driver: it cuts a document, whole or streamed, into
 *	  chunks and spans, and gives each ASCII stretch to an ASCII kernel and
 *	  each other piece to ICU (under version 4, each span to SegmentSpanV4
 *	  in tokenizer_cjk.c, which does the same in one pass and takes CJK
 *	  text and common punctuation without ICU).
 *
 * Tokens (algorithm version 3; the tokens are those of version 2; version 4
 * differs only in runs of CJK characters, see tokenizer_cjk.c):
 *	  - the text (UTF-8) is normalized with ICU's NFKC_Casefold, which does
 *		not depend on any locale, collation or database setting, and
 *		segmented with ICU's word break iterator for the root locale (UAX
 *		#29 as tailored by ICU, with dictionaries for Chinese, Japanese,
 *		Thai, Khmer, Lao and Burmese);
 *	  - a segment is kept when it contains a letter (general category L) or,
 *		with the option numbers, a decimal digit: spaces, punctuation,
 *		symbols and runs like "______" or "----" are dropped, and so by
 *		default are numbers, the counters and dates that differ between
 *		copies of a page;
 *	  - within a kept segment a run of more than 3 equal code points is
 *		shortened to 3 ("Soooooo" and "soooo" become "sooo"; "哈哈哈哈哈"
 *		becomes "哈哈哈"), so that no single run dominates the weights;
 *	  - for weighting runs, each kept token says whether a run break
 *		(RunBreak: a sentence terminator, a line break, a symbol ...) stood
 *		between it and the previous one.
 * The kept tokens go to the features stage (features.h), or with the
 * default options straight to the weights stage (see SegmentState).
 *
 * Streaming: the text is processed in chunks of about CHUNK_BYTES, each cut
 * after a whitespace or punctuation character where UAX #29 always breaks
 * and before a character where NFKC normalization may start afresh, so
 * that chunking does not change the tokens.  (A run of CHUNK_BYTES without
 * such a place, in practice only binary junk, is cut anyway at a
 * normalization boundary.)  Memory beyond the text is O(CHUNK_BYTES),
 * interrupts are checked after each chunk.  A document that arrives in
 * pieces (SegmentStream*, from stream.c) is cut at the same
 * places from a window of about two chunks.
 *
 * ASCII fast path: stretches of ASCII between safe cuts are segmented by an
 * ASCII kernel, a hand-written equivalent of ICU's rules on ASCII
 * (lower-casing is all NFKC_Casefold does to ASCII; tokenizer_ascii.c);
 * punctuation that is always a word of its own (IsolatedPunct: curly
 * quotes, dashes) stays in those stretches as bytes of no token
 * (st->breaks marks where it ends a run), and only the pieces around other
 * non-ASCII characters go through ICU (tokenizer_icu.c).  The kernel is
 * chosen once per document (ChooseAsciiKernel): simhash.simd = auto runs
 * AVX-512 where the CPU has it, else AVX2, else SSE2; off runs the scalar
 * reference.  With the default options (and words weighted tf) the SIMD
 * kernels hash and count each word themselves.  simhash.fast_path = off
 * sends everything through ICU; the regression test fingerprint_icu
 * compares both on many random strings, with each kernel, and
 * test/t/022_tokenizer_kernels.pl compares the kernels' token streams.
 */
#include "fingerprint/tokenizer_kernel.h"
#include "fingerprint/lines.h"

#include "miscadmin.h"

#include <unicode/utf8.h>

#define CHUNK_BYTES		(64 * 1024)

/* simhash.fast_path: use the ASCII fast path (results are the same). */
bool		simhash_fast_path = true;

/* simhash.simd: which ASCII kernel the fast path runs (results are the same). */
int			simhash_simd = SIMD_AUTO;

/*
 * Where to end the chunk that starts at start and would end at end (< len):
 * a position in (start, end] that is safe to cut at.
 */
static int32
FindCut(const char *s, int32 start, int32 end, int32 len)
{
	const uint8_t *u = (const uint8_t *) s;
	int32		p = end;
	int32		q;

	while (p > start + 1 && U8_IS_TRAIL(u[p]))
		p--;
	for (q = p; q > start;)
	{
		UChar32 next, prev;
		int32		i = q,
					j = q;

		U8_NEXT(u, i, len, next);
		U8_PREV(u, start, j, prev);
		if (SafeToCutAfter(prev) && SafeToCutBefore(next))
			return q;
		q = j;
	}
	/* No word boundary we can prove; settle for a normalization boundary. */
	for (q = p; q > start && p - q < 1024;)
	{
		UChar32 next;
		int32		i = q;

		U8_NEXT(u, i, len, next);
		if (SafeToCutBefore(next))
			return q;
		U8_BACK_1(u, start, q);
	}
	return p;
}

/*
 * Segments the span s[start..end) of a document of length len, whose ends
 * are safe cuts: ASCII stretches go through the fast path, the pieces
 * around non-ASCII characters (from the last cut before them to the first
 * cut after them) through ICU.  Both give the tokens ICU would give for the
 * whole span, since every cut is one where ICU breaks anyway.  Isolated
 * punctuation (IsolatedPunct) stays inside the fast path's stretches: it
 * is never part of a token, and where it ends a run, st->breaks says so.
 */
static void
SegmentSpan(SegmentState *st, const char *s, int32 start, int32 end, int32 len)
{
	int32		p = start;		/* start of the stretch for the fast path */
	int32		x = start;		/* scanned up to here */

	if (!simhash_fast_path)
	{
		SegmentIcu(st, s + start, end - start);
		return;
	}
	if (st->cjk != CJK_NONE)
	{
		SegmentSpanV4(st, s, start, end, len);
		return;
	}
	Assert(st->nbreaks == 0);
	while (x < end)
	{
		int32		q = NextNonAscii(s, x, end);
		int32		r = q;
		int32		a,
					b;
		UChar32		c;

		if (q == end)
			break;

		/*
		 * Punctuation that is a word of its own, followed by ASCII or the
		 * end of the span (a safe cut): tokens never span it, and it can
		 * only end a run.
		 */
		U8_NEXT((const uint8_t *) s, r, end, c);
		if ((r == end || (unsigned char) s[r] < 0x80) && IsolatedPunct(c))
		{
			if (RunBreak(c))
				AddBreak(st, q - p);
			x = r;
			continue;
		}
		/* the stretch up to the last cut before the non-ASCII character */
		for (a = q; a > x && !IsCut(s, x, a, len); a--)
			;
		if (a > p)
		{
			Reserve((void **) &st->token, &st->tokencap, a - p + 4, 1);
			st->ascii(st, s + p, a - p);
		}
		st->nbreaks = 0;
		/* ICU from there to the first cut after it */
		b = q;
		while (b < end)
		{
			U8_FWD_1((const uint8_t *) s, b, end);
			if (b < end && (unsigned char) s[b] < 0x80 && IsCut(s, a, b, len))
				break;
		}
		SegmentIcu(st, s + a, b - a);
		p = x = b;
	}
	if (end > p)
	{
		Reserve((void **) &st->token, &st->tokencap, end - p + 4, 1);
		st->ascii(st, s + p, end - p);
	}
	st->nbreaks = 0;
}

/*
 * Bytes FindCut and SegmentSpan may look at past the end of a chunk (to
 * decode a code point that starts before it: at most 3 continuation bytes),
 * and SegmentLines (a line's length, up to LINE_CAP_BYTES).  A stream keeps
 * at least this much after a chunk before cutting it, so that every chunk
 * and every decision is what it would be on the whole text.
 */
#define CUT_LOOKAHEAD	(LINE_CAP_BYTES + 64)

/* Records a line cut at s + line, from which words weigh c sixteenths. */
static inline void
AddLineCut(SegmentState *st, const char *s, int32 line, int c)
{
	if (st->ncuts == st->cutcap)
	{
		st->cutcap = Max(64, 2 * st->cutcap);
		st->cuts = st->cuts ? repalloc(st->cuts, st->cutcap * sizeof(char *)) :
			palloc(st->cutcap * sizeof(char *));
		st->cutclass = st->cutclass ? repalloc(st->cutclass, st->cutcap) :
			palloc(st->cutcap);
	}
	st->cuts[st->ncuts] = s + line;
	st->cutclass[st->ncuts++] = (uint8) c;
}

/*
 * Version 5: finds the line cuts of the chunk s[start..end) (see
 * SegmentState): the start of each non-empty line whose multiplier differs
 * from the line before it.  A line's length may need up to LINE_CAP_BYTES
 * past end (in s[0..len)); the bytes of the current line before start are
 * in st->linebefore.  A cut lies after a line break, where NFKC
 * normalization and UAX #29 both start afresh and every run ends.  When
 * st->linebreaks lists every break of s[0..len) (a text of at most
 * TYPICAL_PREFIX_BYTES), the lines are read off the list; a line's length
 * may then exceed LINE_CAP_BYTES, which LineClass caps, so the multipliers
 * are those of the search.
 */
static void
FindLineCuts(SegmentState *st, const char *s, int32 start, int32 end, int32 len)
{
	LineBreaks *lb = &st->linebreaks;
	bool		listed = lb->base == s && lb->scanned == len;
	int32		i = lb->cursor; /* listed: the next break's index */
	int32		line = start;	/* start of the current line (or of the chunk) */
	int32		before = st->linebefore;	/* the line's bytes before that */
	int			class = st->lineclass;
	uint64		inverse = LineInverse(st->typical); /* once a chunk, not a line */

	st->ncuts = st->nextcut = 0;
	while (listed && i < lb->n && lb->pos[i] < start)
		i++;
	for (;;)
	{
		int32		blen;
		int32		brk;
		int32		linelen;

		if (listed)
		{
			brk = i < lb->n ? lb->pos[i] : len;
			blen = i < lb->n ? lb->len[i] : 0;
		}
		else
			brk = LineBreakFind(lb, s, line, Min(len, line + (LINE_CAP_BYTES - before)),
								len, &blen);
		linelen = before + (brk - line);

		/* an empty line holds no word: it changes nothing */
		if (linelen > 0)
		{
			int			c = LineClass(linelen, st->typical, inverse);

			if (c != class)
			{
				/* a line that began in an earlier chunk was cut there */
				Assert(before == 0);
				AddLineCut(st, s, line, c);
				class = c;
			}
		}
		/* past the cap, the line's end matters only inside the chunk */
		while (blen == 0 && brk < end && !listed)
			brk = LineBreakFind(lb, s, brk, end, len, &blen);
		if (blen == 0 || brk >= end)
		{
			/* the line goes on in the next chunk, if any */
			st->linebefore = (int32) Min((int64) before + (end - line),
										 (int64) LINE_CAP_BYTES);
			break;
		}
		line = brk + blen;
		before = 0;
		i++;
		if (line >= end)
		{
			st->linebefore = 0;
			break;
		}
	}
	if (listed)
		lb->cursor = i;
	st->linecut = st->ncuts > 0 ? (uintptr_t) st->cuts[0] : UINTPTR_MAX;
}

/*
 * The cuts at or before p take effect (LineCheck): the current run ends,
 * and the words from there on weigh as the last of them says.
 */
void
LineSwitch(SegmentState *st, const char *p)
{
	int			class = st->lineclass;

	while (st->nextcut < st->ncuts && (uintptr_t) st->cuts[st->nextcut] <= (uintptr_t) p)
		class = st->cutclass[st->nextcut++];
	st->linecut = st->nextcut < st->ncuts ? (uintptr_t) st->cuts[st->nextcut] : UINTPTR_MAX;
	st->lineclass = class;
	FeatureExtractorSetLineClass(st->fx, class);
}

/* Working buffers for a new document. */
static void
SegmentStateInit(SegmentState *st, bool numbers, FeatureExtractor *fx, int32 len)
{
	const FingerprintOptions *opts;

	IcuOpen();
	AsciiTablesInit();
	ZeroBytes(st, sizeof(*st));
	st->ascii = ChooseAsciiKernel(simhash_simd);
	st->fx = fx;
	st->rc = FeatureExtractorRunCounter(fx);
	st->tf = FeatureExtractorTfCounter(fx);
	st->numbers = numbers;
	opts = FeatureExtractorOptions(fx);
	st->cjk = opts->version < 4 ? CJK_NONE :
		opts->kind == FEATURES_CHARS ? CJK_RUNS : CJK_CHARS;
	st->newrun = true;
	st->lines = FeatureExtractorLineWeights(fx);
	if (st->lines)
		LinesInit();
	st->lineclass = LINE_CLASSES - 1;
	st->linecut = UINTPTR_MAX;
	st->tokencap = Min(len, CHUNK_BYTES) + 4;
	st->token = palloc(st->tokencap);
}

/*
 * Segments s[0..len) chunk by chunk and returns how many bytes it consumed.
 * With final, s ends the document and all of it is consumed.  Otherwise
 * more text follows s, and the chunks are cut exactly where they would be
 * cut in the whole document: only while more than CHUNK_BYTES +
 * CUT_LOOKAHEAD bytes remain (the document goes on past the chunk, and
 * nothing FindCut or SegmentSpan reads lies beyond s).
 */
static int32
SegmentChunks(SegmentState *st, const char *s, int32 len, bool final)
{
	int32		pos = 0;

	while (pos < len)
	{
		int32		end = len;

		if (!final && len - pos <= CHUNK_BYTES + CUT_LOOKAHEAD)
			break;
		if (len - pos > CHUNK_BYTES)
			end = FindCut(s, pos, pos + CHUNK_BYTES, len);
		if (st->lines)
		{
			/* the first chunk: s starts with the document's first bytes */
			if (st->typical == 0)
				st->typical = TypicalLineLength(s, len, &st->linebreaks);
			FindLineCuts(st, s, pos, end, len);
		}
		SegmentSpan(st, s, pos, end, len);
		/* cuts after the chunk's last token (s moves in a stream) */
		if (st->linecut != UINTPTR_MAX)
			LineSwitch(st, s + end);
		pos = end;
		CHECK_FOR_INTERRUPTS();
	}
	/* a stream moves its text before the next call */
	if (!final)
		st->linebreaks.base = NULL;
	return pos;
}

/*
 * Feeds the kept tokens of the UTF-8 text s[0..len) to fx, in order;
 * numbers says whether tokens of digits only are kept.
 */
void
SegmentDocument(const char *s, size_t len, bool numbers, FeatureExtractor *fx)
{
	SegmentState st;

	Assert(len < PG_INT32_MAX);
	SegmentStateInit(&st, numbers, fx, (int32) len);
	SegmentChunks(&st, s, (int32) len, true);
}

/*
 * A document that arrives in pieces (SegmentStreamFeed) is segmented from a
 * window of at most STREAM_WINDOW_BYTES: the chunks are the ones
 * SegmentDocument would cut in the whole text, so are the tokens.
 */
#define STREAM_WINDOW_BYTES (2 * CHUNK_BYTES + 2 * CUT_LOOKAHEAD)

struct SegmentStream
{
	SegmentState st;
	char	   *window;			/* text not yet segmented */
	int32		size;			/* bytes of window: up to STREAM_WINDOW_BYTES */
	int32		used;
};

/*
 * expected is the document's length if known (a sizing hint): the window
 * starts that large, so a short document costs a short window, and grows
 * to STREAM_WINDOW_BYTES only if more text comes.
 */
SegmentStream *
SegmentStreamBegin(bool numbers, FeatureExtractor *fx, int64 expected)
{
	SegmentStream *ss = palloc(sizeof(SegmentStream));

	ss->size = (int32) Min(Max(expected, 1024), (int64) STREAM_WINDOW_BYTES);
	SegmentStateInit(&ss->st, numbers, fx, ss->size);
	ss->window = palloc(ss->size);
	ss->used = 0;
	return ss;
}

/* Appends s[0..len) (UTF-8, cut anywhere) to the document. */
void
SegmentStreamFeed(SegmentStream *ss, const char *s, size_t len)
{
	while (len > 0)
	{
		size_t		n;

		if (ss->used == ss->size)
		{
			if (ss->size < STREAM_WINDOW_BYTES)
			{
				ss->size = Min(2 * ss->size, STREAM_WINDOW_BYTES);
				ss->window = repalloc(ss->window, ss->size);
			}
			else
			{
				/* leaves at most CHUNK_BYTES + CUT_LOOKAHEAD bytes */
				int32		done = SegmentChunks(&ss->st, ss->window, ss->used, false);

				memmove(ss->window, ss->window + done, ss->used - done);
				ss->used -= done;
			}
		}
		n = Min(len, (size_t) (ss->size - ss->used));
		memcpy(ss->window + ss->used, s, n);
		ss->used += n;
		s += n;
		len -= n;
	}
}

/* Segments the rest of the document and frees the stream. */
void
SegmentStreamEnd(SegmentStream *ss)
{
	SegmentChunks(&ss->st, ss->window, ss->used, true);
	pfree(ss->window);
	pfree(ss);
}
