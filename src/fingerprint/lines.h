/*
 * fingerprint/lines.h
 *	  Algorithm version 5's lines (lines.c): where a document's lines end,
 *	  how long its typical line is, and what a line's length is worth.
 *
 * On the raw UTF-8 text: a line break is "\n", "\r", U+2028 or U+2029 (so
 * "\r\n" is two breaks around an empty line, which holds no word and does
 * not count).  A line's length is its bytes, at most LINE_CAP_BYTES.  The
 * typical line is the one that holds the median byte of the non-empty lines
 * in the first TYPICAL_PREFIX_BYTES of the text (a line crossing that point
 * counts its part before it).  A line of length len in a document whose
 * typical line is typical gets the multiplier
 *		min(LINE_CLASSES - 1, floor((LINE_CLASSES - 1) * len / typical)),
 * in sixteenths: lines at least as long as the typical line keep their
 * words' weights, shorter ones (ads, navigation, meta lines) weigh less.
 */
#ifndef SIMHASH_FP_LINES_H
#define SIMHASH_FP_LINES_H

#include "postgres.h"

#define LINE_CAP_BYTES			4096
#define TYPICAL_PREFIX_BYTES	65536
#define LINE_CLASSES			17	/* multipliers 0/16 .. 16/16 */

/*
 * The first line break in s[from..to), or to: its position, and in
 * *breaklen its length in bytes (1 or 3; 0 when there is none): with SSE2
 * unless simhash.simd is off (the same result; TypicalLineLength lists the
 * first 64 kB's breaks with AVX2 where allowed).  Reads s[to..to + 2] to
 * tell U+2028/U+2029 at to - 1 or to - 2 from other characters only if
 * those bytes lie inside the caller's text (limit: its end).
 */
extern int32 LineBreakNext(const char *s, int32 from, int32 to, int32 limit,
						   int32 *breaklen);

/* Before the first TypicalLineLength of a backend. */
extern void LinesInit(void);

/*
 * The line breaks of base[0..scanned), found once by TypicalLineLength and
 * looked up by LineBreakFind while the text stays where it is (zeroed: none).
 */
typedef struct LineBreaks
{
	const char *base;			/* the text they were found in, or NULL */
	int32	   *pos;			/* their positions, ascending */
	uint8	   *len;			/* and lengths (1 or 3) */
	int32		n;
	int32		cap;
	int32		scanned;		/* every break before this is listed */
	int32		cursor;			/* where the last lookup ended */
} LineBreaks;

/*
 * The typical line's length (> 0) of a text that starts with s[0..len);
 * lists the breaks it sees in lb.
 */
extern int32 TypicalLineLength(const char *s, int32 len, LineBreaks *lb);

/*
 * LineBreakNext from lb where it lists the breaks of s[from..to): calls
 * come with from ascending.
 */
static inline int32
LineBreakFind(LineBreaks *lb, const char *s, int32 from, int32 to, int32 limit,
			  int32 *breaklen)
{
	if (s == lb->base && from < lb->scanned)
	{
		while (lb->cursor < lb->n && lb->pos[lb->cursor] < from)
			lb->cursor++;
		if (lb->cursor < lb->n)
		{
			if (lb->pos[lb->cursor] >= to)
			{
				*breaklen = 0;
				return to;
			}
			*breaklen = lb->len[lb->cursor];
			return lb->pos[lb->cursor];
		}
		from = lb->scanned;
		if (from >= to)
		{
			*breaklen = 0;
			return to;
		}
	}
	return LineBreakNext(s, from, to, limit, breaklen);
}

/*
 * What LineClass multiplies by instead of dividing by typical
 * (1 .. LINE_CAP_BYTES): 2^32 / typical, rounded up.
 */
static inline uint64
LineInverse(int32 typical)
{
	return ((UINT64CONST(1) << 32) + (uint64) typical - 1) / (uint64) typical;
}

/*
 * The multiplier, in sixteenths, of a line of len >= 0 bytes (capped) when
 * the typical line has typical (1 .. LINE_CAP_BYTES) bytes, inverse being
 * LineInverse(typical): floor(x / typical) for x = 16 * min(len,
 * LINE_CAP_BYTES), as x * inverse / 2^32.  That is exact here: inverse
 * exceeds 2^32 / typical by less than 1 / typical, so the product exceeds
 * x / typical by less than x / 2^32 <= 2^-16, while x / typical falls
 * short of the next integer by at least 1 / typical >= 2^-12
 * (test/fuzz/tokenizer_kernels.c checks every pair).
 */
static inline int
LineClass(int32 len, int32 typical, uint64 inverse)
{
	uint32		m;

	if (len >= typical)
		return LINE_CLASSES - 1;
	m = (uint32) (((uint64) ((LINE_CLASSES - 1) * Min(len, LINE_CAP_BYTES)) * inverse) >> 32);
	return (int) Min(m, LINE_CLASSES - 1);
}

#endif							/* SIMHASH_FP_LINES_H */
