/*
 * fingerprint/lines.c
 *	  Algorithm version 5's lines: line breaks and the typical line's
 *	  length (see lines.h).  The tokenizer (tokenizer.c) finds where the
 *	  multiplier of the lines changes and tells the weights stage which one
 *	  is in force at the first word past each such place.
 */
#include "fingerprint/lines.h"
#include "fingerprint/tokenizer.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* AVX2 for listing the breaks: -1 until LinesInit asks the CPU */
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

/* Makes room in lb for more breaks than it has, at least extra. */
static void
LineBreaksGrow(LineBreaks *lb, int32 extra)
{
	lb->cap = Max(Max(256, 2 * lb->cap), lb->n + extra);
	lb->pos = lb->pos ? repalloc(lb->pos, lb->cap * sizeof(int32)) :
		palloc(lb->cap * sizeof(int32));
	lb->len = lb->len ? repalloc(lb->len, lb->cap) : palloc(lb->cap);
}

/* Appends a break at q of length blen to lb. */
static inline void
LineBreaksAdd(LineBreaks *lb, int32 q, int blen)
{
	if (lb->n == lb->cap)
		LineBreaksGrow(lb, 1);
	lb->pos[lb->n] = q;
	lb->len[lb->n++] = (uint8) blen;
}

#ifdef HAVE_LINES_AVX2
/*
 * Lists in lb the breaks of u[0..n) found 64 bytes at a time, then 32
 * (reading 2 more, so while they lie before limit), and the last bytes
 * from a copy padded with zeros (no byte of a break) past limit; returns
 * n.  One lookup by the low nibble and one compare find "\n", "\r" and
 * 0xE2 at once; only an 0xE2 (rare in most text) is looked at further.  A
 * break that starts inside the 3 bytes of an earlier one cannot occur (its
 * bytes are E2 80 A8/A9, none of them a break's first byte).
 */
__attribute__((target("avx2,bmi")))
static int32
LineBreaksScanAvx2(const uint8 *u, int32 n, int32 limit, LineBreaks *lb)
{
	/* the one candidate byte with each low nibble (or one that is none) */
	const __m256i table = _mm256_setr_epi8(0x01, 0, (char) 0xE2, 0, 0, 0, 0, 0,
										   0, 0, '\n', 0, 0, '\r', 0, 0,
										   0x01, 0, (char) 0xE2, 0, 0, 0, 0, 0,
										   0, 0, '\n', 0, 0, '\r', 0, 0);
	const __m256i low = _mm256_set1_epi8(0x0F);
	int32		stop = Min(n, limit - 2);	/* a block's end, 2 bytes before limit */
	int32		p = 0;
	int32		k = lb->n;
	int32	   *pos = lb->pos;
	uint8	   *len = lb->len;

#define LINES_CANDIDATES(b) \
	((uint32) _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_shuffle_epi8(table, _mm256_and_si256(b, low)), b)))
	/* (the last bytes, fewer than 34 of n, as a block of at most 64) */
	while (p < n)
	{
		uint64		m;
		int32		w;
		const uint8 *b = u + p;
		uint8		tail[64 + 2];

		if (p + 64 <= stop)
		{
			m = (uint64) LINES_CANDIDATES(_mm256_loadu_si256((const __m256i *) b)) |
				(uint64) LINES_CANDIDATES(_mm256_loadu_si256((const __m256i *) (b + 32))) << 32;
			w = 64;
		}
		else if (p + 32 <= stop)
		{
			m = LINES_CANDIDATES(_mm256_loadu_si256((const __m256i *) b));
			w = 32;
		}
		else
		{
			/* the bytes up to limit, at most 64 + 2, then zeros */
			w = n - p;
			Assert(w < 64);
			ZeroBytes(tail, sizeof(tail));
			memcpy(tail, b, Min(limit - p, (int32) sizeof(tail)));
			b = tail;
			m = ((uint64) LINES_CANDIDATES(_mm256_loadu_si256((const __m256i *) tail)) |
				 (uint64) LINES_CANDIDATES(_mm256_loadu_si256((const __m256i *) (tail + 32))) << 32) &
				((UINT64CONST(1) << w) - 1);
		}
		if (m)
		{
			if (k + 64 > lb->cap)
			{
				lb->n = k;
				LineBreaksGrow(lb, 64);
				pos = lb->pos;
				len = lb->len;
			}
			do
			{
				int32		i = __builtin_ctzll(m);

				if (b[i] != 0xE2)
				{
					pos[k] = p + i;
					len[k++] = 1;
				}
				else if (b[i + 1] == 0x80 && (b[i + 2] | 1) == 0xA9)
				{
					pos[k] = p + i;
					len[k++] = 3;
				}
				m &= m - 1;
			} while (m);
		}
		p += w;
	}
#undef LINES_CANDIDATES
	lb->n = k;
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
/* Fewer breaks than this: the median line found without buckets. */
#define FEW_LINES		16
/* The first bytes of the text TypicalLineLength prefetches. */
#define PREFETCH_LINES_BYTES 8192

/*
 * Runs body with l the length (capped) of each non-empty line of s[0..n)
 * whose breaks lb lists.
 */
#define FOR_EACH_LINE(lb, n, l, body) \
	do { \
		const int32 *pos_ = (lb)->pos; \
		const uint8 *len_ = (lb)->len; \
		int32		nb_ = (lb)->n; \
		int32		start_ = 0; \
		for (int32 i_ = 0; i_ <= nb_; i_++) \
		{ \
			int32		end_ = i_ < nb_ ? pos_[i_] : (n); \
			int32		l = Min(end_ - start_, LINE_CAP_BYTES); \
			if (l > 0) \
				body; \
			if (i_ < nb_) \
				start_ = end_ + len_[i_]; \
		} \
	} while (0)

int32
TypicalLineLength(const char *s, int32 len, LineBreaks *lb)
{
	int32		n = Min(len, TYPICAL_PREFIX_BYTES);
	int32		coarse[BUCKETS];	/* sums of at most n bytes */
	int32		fine[1 << BUCKET_SHIFT];
	int32		total = 0,
				below = 0,
				half;
	int			bucket;
	int32		p = 0;

	/* the scan below is the text's first read: all its loads at once */
	for (int32 q = 0; q < Min(n, PREFETCH_LINES_BYTES); q += 64)
		__builtin_prefetch(s + q);
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

	/*
	 * A text of few lines (most short documents): the shortest of their
	 * lengths v whose lines of length <= v hold half the bytes, directly
	 * (the same length the buckets find), without clearing the buckets.
	 */
	if (lb->n < FEW_LINES)
	{
		/* zeros past the lines add nothing: the inner loop has a fixed count */
		int32		lens[FEW_LINES] = {0};
		int32		nl = 0,
					best = LINE_CAP_BYTES + 1;

		FOR_EACH_LINE(lb, n, l, (lens[nl++] = l, total += l));
		if (total == 0)
			return 1;
		half = (total + 1) / 2;
		for (int i = 0; i < nl; i++)
		{
			int32		sum = 0;

			for (int j = 0; j < FEW_LINES; j++)
				sum += lens[j] <= lens[i] ? lens[j] : 0;
			if (sum >= half && lens[i] < best)
				best = lens[i];
		}
		return best;
	}

	ZeroBytes(coarse, sizeof(coarse));
	ZeroBytes(fine, sizeof(fine));
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
