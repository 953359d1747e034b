/*
 * fingerprint/lanes.h
 *	  Accumulation, the last stage: per-bit sums of feature hashes, in byte lanes (lanes.c).
 */
#ifndef SIMHASH_FP_LANES_H
#define SIMHASH_FP_LANES_H

#include "type/simhash.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/*
 * Byte-lane counter of unit-weight features (lanes.c).  Each
 * 64-bit feature hash is spread over 64 byte lanes held in 8 words: lane
 * word k, byte b counts bit 8*b + k.  A byte overflows after 255 additions,
 * so the lanes are flushed into 64-bit counters every 255 features.
 */
typedef struct LaneCounter
{
	uint64		lanes[8];
	int			pending;		/* features added since the last flush */
	int64		total;			/* features added in all */
	int64		ones[SIMHASH_BITS];	/* flushed count of 1 bits per position */
} LaneCounter;

extern void LaneCounterFlush(LaneCounter *counter);
extern bool LaneCounterResult(LaneCounter *counter, uint64 *result);

/*
 * Zeroes, or copies, the n bytes at p (n a constant) with unrolled 16-byte
 * moves: for the counters and state every call clears or copies, of a few
 * hundred bytes, where memset and memcpy became "rep stos" and "rep movs",
 * slow to start on AMD Zen 3 (together a fifth of a call on a short text).
 */
static pg_attribute_always_inline void
ZeroBytes(void *p, Size n)
{
#if defined(__SSE2__)
	Size		k = 0;

#pragma GCC unroll 64
	for (; k + 16 <= n; k += 16)
		_mm_storeu_si128((__m128i *) ((char *) p + k), _mm_setzero_si128());
	memset((char *) p + k, 0, n - k);
#else
	memset(p, 0, n);
#endif
}

static pg_attribute_always_inline void
CopyBytes(void *dst, const void *src, Size n)
{
#if defined(__SSE2__)
	Size		k = 0;

#pragma GCC unroll 64
	for (; k + 16 <= n; k += 16)
		_mm_storeu_si128((__m128i *) ((char *) dst + k),
						 _mm_loadu_si128((const __m128i *) ((const char *) src + k)));
	memcpy((char *) dst + k, (const char *) src + k, n - k);
#else
	memcpy(dst, src, n);
#endif
}

static inline void
LaneCounterInit(LaneCounter *counter)
{
	ZeroBytes(counter, sizeof(LaneCounter));
}

static inline void
LaneCounterAdd(LaneCounter *counter, uint64 hash)
{
	const uint64 spread = UINT64CONST(0x0101010101010101);

	counter->lanes[0] += hash & spread;
	counter->lanes[1] += (hash >> 1) & spread;
	counter->lanes[2] += (hash >> 2) & spread;
	counter->lanes[3] += (hash >> 3) & spread;
	counter->lanes[4] += (hash >> 4) & spread;
	counter->lanes[5] += (hash >> 5) & spread;
	counter->lanes[6] += (hash >> 6) & spread;
	counter->lanes[7] += (hash >> 7) & spread;
	if (++counter->pending == 255)
		LaneCounterFlush(counter);
}

/* Adds a feature of integer weight w >= 1 (w times, in one go). */
static inline void
LaneCounterAddWeighted(LaneCounter *counter, uint64 hash, int64 w)
{
	const uint64 spread = UINT64CONST(0x0101010101010101);

	while (w > 0)
	{
		uint64		step = Min(w, 255);

		if (counter->pending + step > 255)
			LaneCounterFlush(counter);
		for (int k = 0; k < 8; k++)
			counter->lanes[k] += ((hash >> k) & spread) * step;
		counter->pending += step;
		w -= step;
	}
}

/*
 * Counter of features with small integer weights (weighting runs: 1 to
 * SIMHASH_RUN_CAP): 64 lanes of 16 bits, flushed into 64-bit counters every
 * 65535 units of weight.  Lane word j, slot s counts bit 8 * s + j (the
 * layout of LaneCounter's byte lanes, widened).
 */
typedef struct WideLaneCounter
{
	uint16		lanes[8][8];	/* not __m128i: palloc aligns to 8 bytes only */
	int64		pending;		/* weight added since the last flush */
	int64		total;			/* weight added in all */
	int64		ones[SIMHASH_BITS];	/* flushed weight of 1 bits per position */
} WideLaneCounter;

extern void WideLaneCounterFlush(WideLaneCounter *c);

/* The 16-bit lanes hold at most this much weight between flushes. */
#define WIDE_LANE_MAX_PENDING 65535

/*
 * Whether lanes holding pending units of weight must be flushed before w
 * more are added: the one flush rule of every user of the 16-bit lanes.
 */
static pg_attribute_always_inline bool
WideLaneMustFlush(int64 pending, int64 w)
{
	return pending + w > WIDE_LANE_MAX_PENDING;
}

/* Adds a feature of weight w (1 to SIMHASH_RUN_CAP). */
static inline void
WideLaneCounterAdd(WideLaneCounter *c, uint64 hash, int64 w)
{
	if (WideLaneMustFlush(c->pending, w))
		WideLaneCounterFlush(c);
#if defined(__SSE2__)
	{
		/* slot s of bytes holds byte s of the hash, as 16 bits */
		__m128i		bytes = _mm_unpacklo_epi8(_mm_cvtsi64_si128((int64) hash),
											  _mm_setzero_si128());
		__m128i		weight = _mm_set1_epi16((short) w);

#define WIDE_LANE_ADD(j) \
		do { \
			__m128i		bit = _mm_set1_epi16((short) (1 << (j))); \
			__m128i		set = _mm_cmpeq_epi16(_mm_and_si128(bytes, bit), bit); \
			__m128i	   *lane = (__m128i *) c->lanes[j]; \
			_mm_storeu_si128(lane, _mm_add_epi16(_mm_loadu_si128(lane), \
												 _mm_and_si128(set, weight))); \
		} while (0)
		WIDE_LANE_ADD(0);
		WIDE_LANE_ADD(1);
		WIDE_LANE_ADD(2);
		WIDE_LANE_ADD(3);
		WIDE_LANE_ADD(4);
		WIDE_LANE_ADD(5);
		WIDE_LANE_ADD(6);
		WIDE_LANE_ADD(7);
#undef WIDE_LANE_ADD
	}
#else
	for (int j = 0; j < 8; j++)
		for (int slot = 0; slot < 8; slot++)
			if ((hash >> (8 * slot + j)) & 1)
				c->lanes[j][slot] += (uint16) w;
#endif
	c->pending += w;
}

/* A feature hash with a real-valued weight. */
typedef struct HashWeight
{
	uint64		hash;
	double		weight;
} HashWeight;

/*
 * Fingerprint of weighted features (lanes.c).  The pairs are
 * sorted in place first, so the result does not depend on their order.
 * Returns false when no pair has a non-zero weight.
 */
extern bool FingerprintWeightedPairs(HashWeight *pairs, int64 npairs,
									 uint64 *result);
extern void CheckFeatureWeight(double weight);
extern int	CompareHashWeight(const void *a, const void *b);

#endif							/* SIMHASH_FP_LANES_H */
