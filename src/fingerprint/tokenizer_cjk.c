/*
 * fingerprint/tokenizer_cjk.c
 *	  Algorithm version 4's tokens for Chinese, Japanese and Korean: each
 *	  character of a run of CJK characters (IsCjk) is a token of its own,
 *	  without ICU's dictionaries; and the fast path for the pieces of text
 *	  that hold nothing but ASCII, CJK characters and punctuation, which it
 *	  segments without ICU.
 *
 * The tokens of version 4 (the definition; tokenizer_icu.c computes it with
 * ICU for any text, this file without ICU for the common case):
 *	  - the text is normalized with NFKC_Casefold, as in version 3 (which
 *		folds full-width ASCII and half-width Katakana to their usual forms);
 *	  - every maximal run of CJK characters of the normalized text is cut
 *		out of it; what lies between the runs is segmented as in version 3,
 *		each piece as a text of its own;
 *	  - each character of a run is a token ("近似重复" gives "近", "似", "重",
 *		"复"); inside a run, more than 3 equal characters in a row count as
 *		3, as inside version 3's tokens;
 *	  - under character n-grams (features 'chars') a run is one token, so
 *		that the n-grams are those of the run, and is separated from its
 *		neighbours by a gap;
 *	  - for weighting runs, a run's first token follows whatever run break
 *		came before it; the rest of its tokens are in the same run.
 * Why characters: ICU's dictionary segmentation of Chinese cost 90 % of the
 * time of simhash(text) on Chinese text (0.05 to 0.10 times the speed of
 * md5); single characters need no dictionary, and on the near-duplicate
 * benchmark (doc/benchmarks.md) they found as many near-duplicates as
 * ICU's words at the same precision (small edits more, mirrors fewer),
 * where overlapping character bigrams and bigrams with characters found
 * far fewer (a bigram per character spreads the weight over twice as many
 * distinct features, so every change moves more bits).
 *
 * The fast path (SegmentPieceV4): the tokenizer's driver hands every piece
 * between two safe cuts (tokenizer.c) that contains a non-ASCII character
 * to SegmentPieceV4.  If every non-ASCII character of the piece is a CJK
 * character, an ideographic space, full-width ASCII punctuation that joins
 * no word, or punctuation that is always a word of its own (IsolatedPunct:
 * 、。“”《》 ...), none of which normalization changes in context, the piece
 * is segmented here: its CJK characters straight from the UTF-8, its ASCII
 * stretches by the ASCII kernel; else the whole piece goes to ICU.  Both
 * give the same tokens (the regression test fingerprint_icu compares them
 * on random text).
 */
#include "fingerprint/tokenizer_kernel.h"

#include <unicode/utf8.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

/* Passes on the token s[0..len), hashed here under the default options. */
static pg_attribute_always_inline void
EmitCjk(SegmentState *st, const char *s, int32 len)
{
	if (st->rc)
		RunCounterAdd(st->rc, XXH3_64bits(s, len), st->newrun);
	else
		FeatureExtractorAddToken(st->fx, s, len, true, st->newrun);
	st->newrun = false;
}

/* Adds the next code point of the current run of CJK characters. */
void
CjkRunAdd(SegmentState *st, UChar32 c)
{
	char		cp[4];
	int			len = 0;

	if (st->cjkcount > 0 && c == st->cjkprev)
	{
		if (++st->cjkrepeat > MAX_RUN)
			return;
	}
	else
		st->cjkrepeat = 1;
	st->cjkcount++;
	st->cjkprev = c;
	if (st->cjk == CJK_RUNS)
	{
		if (st->cjkrunlen + 4 > st->cjkruncap)
		{
			/* grow, keeping the contents (Reserve does not) */
			st->cjkruncap = Max(64, 2 * st->cjkruncap);
			st->cjkrun = st->cjkrun ? repalloc(st->cjkrun, st->cjkruncap) :
				palloc(st->cjkruncap);
		}
		U8_APPEND_UNSAFE(st->cjkrun, st->cjkrunlen, c);
		return;
	}
	U8_APPEND_UNSAFE(cp, len, c);
	EmitCjk(st, cp, len);
}

/* Ends the current run of CJK characters (if any). */
void
CjkRunEnd(SegmentState *st)
{
	if (st->cjkcount > 0 && st->cjk == CJK_RUNS)
	{
		FeatureExtractorAddToken(st->fx, st->cjkrun, st->cjkrunlen, true, st->newrun);
		st->newrun = false;
		st->cjkrunlen = 0;
	}
	st->cjkcount = 0;
}

/* ASCII stretches shorter than this go to the scalar kernel. */
#define SHORT_STRETCH 48

/* Full-width ASCII U+FF01..U+FF5E: the ASCII character it stands for. */
#define FULLWIDTH_OFFSET 0xFEE0

/*
 * The code point of the UTF-8 sequence at u[*i] (a byte >= 0x80) of
 * u[0..len), advancing *i; three-byte sequences (all of the BMP's CJK) are
 * decoded inline.
 */
static pg_attribute_always_inline UChar32
NextCodePoint(const uint8_t *u, int32 *i, int32 len)
{
	int32		k = *i;
	UChar32		c;

	if ((u[k] & 0xF0) == 0xE0 && k + 2 < len &&
		(u[k + 1] & 0xC0) == 0x80 && (u[k + 2] & 0xC0) == 0x80)
	{
		c = ((u[k] & 0x0F) << 12) | ((u[k + 1] & 0x3F) << 6) | (u[k + 2] & 0x3F);
		if (c >= 0x800 && (c < 0xD800 || c > 0xDFFF))
		{
			*i = k + 3;
			return c;
		}
	}
	U8_NEXT(u, k, len, c);
	*i = k;
	return c;
}

/* The position of the first byte >= 0x80 of u[i..len), or len. */
static pg_attribute_always_inline int32
SkipAscii(const uint8_t *u, int32 i, int32 len)
{
	while (i < len && u[i] < 0x80)
		i++;
	return i;
}

/*
 * Can the fast path take the piece s[0..len) (between two safe cuts)?
 * Every non-ASCII character must be one the normalization leaves alone in
 * any context, or maps to a character that stays apart from its
 * neighbours:
 *	  - a CJK character (composes with nothing before it, and what follows
 *		it is ASCII, CJK or punctuation, none of which composes with it);
 *	  - U+3000, the ideographic space (a space);
 *	  - full-width ASCII punctuation whose ASCII character joins no word
 *		here: not letters, digits, '_' or '@', and '.', '\'', ',' or ';'
 *		(which may join two letters or digits) only where not between two
 *		ASCII word characters;
 *	  - punctuation that is always a word of its own (IsolatedPunct).
 * A piece that holds anything else (accented letters, full-width letters
 * and digits, half-width Katakana, Thai ...) goes to ICU.
 */
static bool
PieceIsFast(const char *s, int32 len)
{
	const uint8_t *u = (const uint8_t *) s;
	int32		i = 0;

	while ((i = SkipAscii(u, i, len)) < len)
	{
		int32		start = i;
		UChar32		c;

		/* U+5000..U+9FFF, all Han: lead bytes E5..E9 */
		if (u[i] >= 0xE5 && u[i] <= 0xE9 && i + 2 < len &&
			(u[i + 1] & 0xC0) == 0x80 && (u[i + 2] & 0xC0) == 0x80)
		{
			i += 3;
			continue;
		}
		c = NextCodePoint(u, &i, len);
		if (IsCjk(c) || c == 0x3000)
			continue;
		if (c >= 0xFF01 && c <= 0xFF5E)
		{
			int			m = c - FULLWIDTH_OFFSET;

			if (ascii_flags[m] & AF_WORD)
				return false;
			if ((ascii_class[m] == AC_MIDNUM || ascii_class[m] == AC_MIDNUMLET) &&
				start > 0 && (ascii_flags[u[start - 1]] & AF_WORD) &&
				i < len && (ascii_flags[u[i]] & AF_WORD))
				return false;
			continue;
		}
		if (!IsolatedPunct(c))
			return false;
	}
	return true;
}

/*
 * Segments the ASCII stretch s[0..len) with the kernel, or a short one
 * (a word or two between CJK runs) with the scalar kernel, which costs
 * less to start (the tokens are the same).
 */
static inline void
SegmentAsciiStretch(SegmentState *st, const char *s, int32 len)
{
	Assert(st->nbreaks == 0);
	Reserve((void **) &st->token, &st->tokencap, len + 4, 1);
	if (len < SHORT_STRETCH)
		SegmentAsciiScalar(st, s, len);
	else
		st->ascii(st, s, len);
}

/*
 * The run of CJK characters that starts with c at u[start..*i) of the
 * piece u[0..len), each character straight from the UTF-8 (normalization
 * leaves CJK characters alone); advances *i to its end.
 */
static inline void
CjkRunRaw(SegmentState *st, const uint8_t *u, int32 start, int32 *i, int32 len, UChar32 c)
{
	int32		at = *i;		/* start of the next code point */
	UChar32		last = c;
	int			repeat = 1;

	EmitCjk(st, (const char *) u + start, at - start);
	while (at < len && u[at] >= 0x80)
	{
		int32		next = at;
		UChar32		d = NextCodePoint(u, &next, len);

		if (!IsCjk(d))
			break;
		if (d != last)
		{
			last = d;
			repeat = 1;
			EmitCjk(st, (const char *) u + at, next - at);
		}
		else if (++repeat <= MAX_RUN)
			EmitCjk(st, (const char *) u + at, next - at);
		at = next;
	}
	*i = at;
}

/*
 * Segments the piece s[0..len), whose ends are safe cuts, under version 4:
 * the fast path when it can take it, else ICU.
 */
void
SegmentPieceV4(SegmentState *st, const char *s, int32 len)
{
	const uint8_t *u = (const uint8_t *) s;
	int32		stretch = 0;	/* start of the current ASCII stretch */
	int32		i = 0;

	if (!PieceIsFast(s, len))
	{
		SegmentIcu(st, s, len);
		return;
	}
	while ((i = SkipAscii(u, i, len)) < len)
	{
		int32		start = i;
		UChar32		c;

		c = NextCodePoint(u, &i, len);
		if (start > stretch)
			SegmentAsciiStretch(st, s + stretch, start - stretch);
		if (IsCjk(c))
		{
			if (st->cjk == CJK_CHARS)
				CjkRunRaw(st, u, start, &i, len, c);
			else
			{
				CjkRunAdd(st, c);
				while (i < len && u[i] >= 0x80)
				{
					int32		j = i;

					c = NextCodePoint(u, &j, len);
					if (!IsCjk(c))
						break;
					CjkRunAdd(st, c);
					i = j;
				}
				CjkRunEnd(st);
			}
		}
		else if (c >= 0xFF01 && c <= 0xFF5E)
			st->newrun |= RunBreak(c - FULLWIDTH_OFFSET);
		else
			st->newrun |= RunBreak(c);	/* U+3000 does not break a run */
		stretch = i;
	}
	if (len > stretch)
		SegmentAsciiStretch(st, s + stretch, len - stretch);
}
