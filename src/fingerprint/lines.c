/*
 * fingerprint/lines.c
 *	  Algorithm version 5's lines: line breaks and the typical line's
 *	  length (see lines.h).  The tokenizer (tokenizer.c) cuts a document's
 *	  spans where the multiplier of its lines changes and tells the weights
 *	  stage which one is in force.
 */
#include "fingerprint/lines.h"
#include "fingerprint/tokenizer.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* AVX2 for LineBreakNext: -1 until LinesInit asks the CPU */
static int	lines_avx2 = -1;

/* U+2028 or U+2029 at s[p] (E2 80 A8 / E2 80 A9), read only before limit. */
static inline bool
IsUnicodeLineBreak(const uint8 *u, int32 p, int32 limit)
{
	return p + 2 < limit && u[p + 1] == 0x80 && (u[p + 2] == 0xA8 || u[p + 2] == 0xA9);
}

#if defined(__x86_64__) && defined(__GNUC__)
#define HAVE_LINES_AVX2
#include <immintrin.h>
#endif

/* Appends a break at q of length blen to lb. */
static inline void
LineBreaksAdd(LineBreaks *lb, int32 q, int blen)
{
	if (lb->n == lb->cap)
	{
		lb->cap = Max(256, 2 * lb->cap);
		lb->pos = lb->pos ? repalloc(lb->pos, lb->cap * sizeof(int32)) :
			palloc(lb->cap * sizeof(int32));
		lb->len = lb->len ? repalloc(lb->len, lb->cap) : palloc(lb->cap);
	}
	lb->pos[lb->n] = q;
	lb->len[lb->n++] = (uint8) blen;
}

#ifdef HAVE_LINES_AVX2
/*
 * Lists in lb the breaks of u[0..n) found 32 bytes at a time (reading 2
 * more, so while they lie before limit); returns where it stopped.  A break
 * that starts inside the 3 bytes of an earlier one cannot occur (its bytes
 * are E2 80 A8/A9, none of them a break's first byte).
 */
__attribute__((target("avx2,bmi")))
static int32
LineBreaksScanAvx2(const uint8 *u, int32 n, int32 limit, LineBreaks *lb)
{
	const __m256i lf = _mm256_set1_epi8('\n');
	const __m256i cr = _mm256_set1_epi8('\r');
	const __m256i e2 = _mm256_set1_epi8((char) 0xE2);
	int32		p = 0;

	for (; p + 32 <= n && p + 34 <= limit; p += 32)
	{
		__m256i		b = _mm256_loadu_si256((const __m256i *) (u + p));
		uint32		m = (uint32) _mm256_movemask_epi8(_mm256_or_si256(_mm256_cmpeq_epi8(b, lf),
																	  _mm256_cmpeq_epi8(b, cr)));
		uint32		uni = (uint32) _mm256_movemask_epi8(_mm256_cmpeq_epi8(b, e2));

		if (uni)
		{
			__m256i		b1 = _mm256_loadu_si256((const __m256i *) (u + p + 1));
			__m256i		b2 = _mm256_loadu_si256((const __m256i *) (u + p + 2));
			__m256i		ls = _mm256_and_si256(_mm256_cmpeq_epi8(b1, _mm256_set1_epi8((char) 0x80)),
											  _mm256_cmpeq_epi8(_mm256_or_si256(b2, _mm256_set1_epi8(1)),
																_mm256_set1_epi8((char) 0xA9)));

			uni &= (uint32) _mm256_movemask_epi8(ls);
			m |= uni;
		}
		while (m)
		{
			int32		q = p + __builtin_ctz(m);

			LineBreaksAdd(lb, q, (uni >> (q - p)) & 1 ? 3 : 1);
			m &= m - 1;
		}
	}
	return p;
}
#endif

int32
LineBreakNext(const char *s, int32 from, int32 to, int32 limit, int32 *breaklen)
{
	const uint8 *u = (const uint8 *) s;
	int32		p = from;

#if defined(__SSE2__)
	if (simhash_simd != SIMD_OFF)
	{
		const __m128i lf = _mm_set1_epi8('\n');
		const __m128i cr = _mm_set1_epi8('\r');
		const __m128i e2 = _mm_set1_epi8((char) 0xE2);

		/* 16 bytes at a time, and the 2 after them for U+2028/U+2029 */
		for (; p + 16 <= to && p + 18 <= limit; p += 16)
		{
			__m128i		b = _mm_loadu_si128((const __m128i *) (u + p));
			uint32		nl = (uint32) _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(b, lf),
																	 _mm_cmpeq_epi8(b, cr)));
			uint32		uni = (uint32) _mm_movemask_epi8(_mm_cmpeq_epi8(b, e2));

			if (uni)
			{
				__m128i		b1 = _mm_loadu_si128((const __m128i *) (u + p + 1));
				__m128i		b2 = _mm_loadu_si128((const __m128i *) (u + p + 2));
				__m128i		ls = _mm_and_si128(_mm_cmpeq_epi8(b1, _mm_set1_epi8((char) 0x80)),
											   _mm_cmpeq_epi8(_mm_or_si128(b2, _mm_set1_epi8(1)),
															  _mm_set1_epi8((char) 0xA9)));

				uni &= (uint32) _mm_movemask_epi8(ls);
			}
			if (nl | uni)
			{
				int32		q = p + __builtin_ctz(nl | uni);

				*breaklen = u[q] == 0xE2 ? 3 : 1;
				return q;
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

/* Whether LineBreakNext may use AVX2 (the CPU has it): once per backend. */
void
LinesInit(void)
{
#ifdef HAVE_LINES_AVX2
	if (lines_avx2 < 0)
		lines_avx2 = __builtin_cpu_supports("avx2") ? 1 : 0;
#endif
}

/*
 * The median byte's line: the lines' capped lengths are summed by length
 * in buckets of 64 first, then inside the bucket that holds the median, so
 * that no sort is needed.
 */
#define BUCKET_SHIFT	6
#define BUCKETS			((LINE_CAP_BYTES >> BUCKET_SHIFT) + 1)

/*
 * Calls f(l) for the length l (capped) of each non-empty line of s[0..n)
 * whose breaks lb lists.
 */
#define FOR_EACH_LINE(lb, n, l, body) \
	do { \
		int32		start_ = 0; \
		for (int32 i_ = 0; i_ <= (lb)->n; i_++) \
		{ \
			int32		end_ = i_ < (lb)->n ? (lb)->pos[i_] : (n); \
			int32		l = Min(end_ - start_, LINE_CAP_BYTES); \
			if (l > 0) \
				body; \
			if (i_ < (lb)->n) \
				start_ = end_ + (lb)->len[i_]; \
		} \
	} while (0)

int32
TypicalLineLength(const char *s, int32 len, LineBreaks *lb)
{
	int32		n = Min(len, TYPICAL_PREFIX_BYTES);
	int64		coarse[BUCKETS] = {0};
	int64		fine[1 << BUCKET_SHIFT] = {0};
	int64		total = 0,
				below = 0,
				half;
	int			bucket;
	int32		p = 0;

	/* list the breaks of the prefix */
	lb->base = s;
	lb->n = lb->cursor = 0;
	lb->scanned = n;
#ifdef HAVE_LINES_AVX2
	if (lines_avx2 > 0 && simhash_simd >= SIMD_AVX2)
		p = LineBreaksScanAvx2((const uint8 *) s, n, len, lb);
#endif
	while (p < n)
	{
		int32		blen;
		int32		q = LineBreakNext(s, p, n, len, &blen);

		if (blen == 0)
			break;
		LineBreaksAdd(lb, q, blen);
		p = q + blen;
	}

	/* the non-empty lines' lengths, summed by buckets of 64 */
	FOR_EACH_LINE(lb, n, l, (coarse[l >> BUCKET_SHIFT] += l, total += l));
	if (total == 0)
		return 1;				/* no line holds a byte: nothing to weigh */
	half = (total + 1) / 2;		/* the median byte: 2 * sum >= total */
	for (bucket = 0; below + coarse[bucket] < half; bucket++)
		below += coarse[bucket];
	/* then by length inside the bucket of the median byte */
	FOR_EACH_LINE(lb, n, l,
				  if ((l >> BUCKET_SHIFT) == bucket)
				  fine[l & ((1 << BUCKET_SHIFT) - 1)] += l);
	for (int j = 0; j < (1 << BUCKET_SHIFT); j++)
	{
		below += fine[j];
		if (below >= half)
			return (bucket << BUCKET_SHIFT) + j;
	}
	Assert(false);
	return LINE_CAP_BYTES;
}
