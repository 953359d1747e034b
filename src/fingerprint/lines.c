/*
 * fingerprint/lines.c
 *	  Algorithm version 5's lines: line breaks and the typical line's
 *	  length (see lines.h).  The tokenizer (tokenizer.c) cuts a document's
 *	  spans where the multiplier of its lines changes and tells the weights
 *	  stage which one is in force.
 */
#include "fingerprint/lines.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* U+2028 or U+2029 at s[p] (E2 80 A8 / E2 80 A9), read only before limit. */
static inline bool
IsUnicodeLineBreak(const uint8 *u, int32 p, int32 limit)
{
	return p + 2 < limit && u[p + 1] == 0x80 && (u[p + 2] == 0xA8 || u[p + 2] == 0xA9);
}

int32
LineBreakNext(const char *s, int32 from, int32 to, int32 limit, int32 *breaklen)
{
	const uint8 *u = (const uint8 *) s;
	int32		p = from;

#if defined(__SSE2__)
	{
		const __m128i lf = _mm_set1_epi8('\n');
		const __m128i cr = _mm_set1_epi8('\r');
		const __m128i e2 = _mm_set1_epi8((char) 0xE2);

		for (; p + 16 <= to; p += 16)
		{
			__m128i		b = _mm_loadu_si128((const __m128i *) (u + p));
			uint32		m = (uint32) _mm_movemask_epi8(_mm_or_si128(
							_mm_or_si128(_mm_cmpeq_epi8(b, lf), _mm_cmpeq_epi8(b, cr)),
							_mm_cmpeq_epi8(b, e2)));

			while (m)
			{
				int32		q = p + __builtin_ctz(m);

				if (u[q] != 0xE2)
				{
					*breaklen = 1;
					return q;
				}
				if (IsUnicodeLineBreak(u, q, limit))
				{
					*breaklen = 3;
					return q;
				}
				m &= m - 1;
			}
		}
	}
#endif
	for (; p < to; p++)
	{
		if (u[p] == '\n' || u[p] == '\r')
		{
			*breaklen = 1;
			return p;
		}
		if (u[p] == 0xE2 && IsUnicodeLineBreak(u, p, limit))
		{
			*breaklen = 3;
			return p;
		}
	}
	*breaklen = 0;
	return to;
}

/*
 * The median byte's line: the lines' capped lengths are summed by length
 * in buckets of 64 first, then inside the bucket that holds the median, so
 * that no line length needs to be kept or sorted.
 */
#define BUCKET_SHIFT	6
#define BUCKETS			((LINE_CAP_BYTES >> BUCKET_SHIFT) + 1)

int32
TypicalLineLength(const char *s, int32 len)
{
	int32		n = Min(len, TYPICAL_PREFIX_BYTES);
	int64		coarse[BUCKETS] = {0};
	int64		fine[1 << BUCKET_SHIFT] = {0};
	int64		total = 0,
				below = 0,
				half;
	int			bucket = 0;

	for (int pass = 0; pass < 2; pass++)
	{
		int32		p = 0;

		while (p < n)
		{
			int32		blen;
			int32		q = LineBreakNext(s, p, n, len, &blen);
			int32		l = Min(q - p, LINE_CAP_BYTES);

			if (l > 0 && pass == 0)
			{
				coarse[l >> BUCKET_SHIFT] += l;
				total += l;
			}
			else if (l > 0 && (l >> BUCKET_SHIFT) == bucket)
				fine[l & ((1 << BUCKET_SHIFT) - 1)] += l;
			p = q + blen;
			if (blen == 0)
				break;
		}
		if (pass == 0)
		{
			if (total == 0)
				return 1;		/* no line holds a byte: nothing to weigh */
			half = (total + 1) / 2; /* 2 * sum >= total */
			for (bucket = 0; below + coarse[bucket] < half; bucket++)
				below += coarse[bucket];
		}
	}
	for (int j = 0; j < (1 << BUCKET_SHIFT); j++)
	{
		below += fine[j];
		if (below >= half)
			return (bucket << BUCKET_SHIFT) + j;
	}
	Assert(false);
	return LINE_CAP_BYTES;
}
