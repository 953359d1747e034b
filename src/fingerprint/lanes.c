/*
 * fingerprint/lanes.c
 *	  Turning feature hashes into a fingerprint: byte-lane counters for unit
 *	  weights, sorted weighted sums for real-valued weights.
 *
 * Both follow Charikar: bit i of the fingerprint is 1 where the weights of
 * the features whose hash has bit i set outweigh those whose hash has it
 * clear.  A tie gives 0.  A document without any feature of non-zero weight
 * has no fingerprint (the callers return NULL).
 */
#include "fingerprint/lanes.h"

#include <math.h>

/*
 * Adds the 16-bit lanes into the 64-bit counters and clears them (nothing
 * to do when no weight was added since the last flush: the lanes are zero).
 */
void
WideLaneCounterFlush(WideLaneCounter *c)
{
	if (c->pending == 0)
		return;
#if defined(__SSE2__)
	{
		/*
		 * lanes[j][slot] holds bit 8 * slot + j: the 8 x 8 matrix transposed
		 * (three rounds of unpacking), each slot's 8 lanes then widened to
		 * 64 bits and added to ones[8 * slot .. 8 * slot + 7].
		 */
		__m128i		r[8],
					a[8],
					b[8],
					col[8];
		const __m128i zero = _mm_setzero_si128();

		for (int j = 0; j < 8; j++)
			r[j] = _mm_loadu_si128((const __m128i *) c->lanes[j]);
		ZeroBytes(c->lanes, sizeof(c->lanes));
		for (int j = 0; j < 8; j += 2)
		{
			a[j] = _mm_unpacklo_epi16(r[j], r[j + 1]);	/* slots 0-3 */
			a[j + 1] = _mm_unpackhi_epi16(r[j], r[j + 1]);	/* slots 4-7 */
		}
		for (int h = 0; h < 2; h++)
		{
			/* rows 0-3 and 4-7, slots 4 h .. 4 h + 3 */
			b[4 * h] = _mm_unpacklo_epi32(a[h], a[h + 2]);
			b[4 * h + 1] = _mm_unpackhi_epi32(a[h], a[h + 2]);
			b[4 * h + 2] = _mm_unpacklo_epi32(a[h + 4], a[h + 6]);
			b[4 * h + 3] = _mm_unpackhi_epi32(a[h + 4], a[h + 6]);
			col[4 * h] = _mm_unpacklo_epi64(b[4 * h], b[4 * h + 2]);
			col[4 * h + 1] = _mm_unpackhi_epi64(b[4 * h], b[4 * h + 2]);
			col[4 * h + 2] = _mm_unpacklo_epi64(b[4 * h + 1], b[4 * h + 3]);
			col[4 * h + 3] = _mm_unpackhi_epi64(b[4 * h + 1], b[4 * h + 3]);
		}
		for (int slot = 0; slot < 8; slot++)
		{
			__m128i		lo = _mm_unpacklo_epi16(col[slot], zero),
						hi = _mm_unpackhi_epi16(col[slot], zero);
			__m128i    *o = (__m128i *) (c->ones + 8 * slot);

			_mm_storeu_si128(o, _mm_add_epi64(_mm_loadu_si128(o), _mm_unpacklo_epi32(lo, zero)));
			_mm_storeu_si128(o + 1, _mm_add_epi64(_mm_loadu_si128(o + 1), _mm_unpackhi_epi32(lo, zero)));
			_mm_storeu_si128(o + 2, _mm_add_epi64(_mm_loadu_si128(o + 2), _mm_unpacklo_epi32(hi, zero)));
			_mm_storeu_si128(o + 3, _mm_add_epi64(_mm_loadu_si128(o + 3), _mm_unpackhi_epi32(hi, zero)));
		}
	}
#else
	for (int j = 0; j < 8; j++)
	{
		uint16		v[8];

		memcpy(v, c->lanes[j], sizeof(v));
		memset(c->lanes[j], 0, sizeof(v));
		for (int slot = 0; slot < 8; slot++)
			c->ones[8 * slot + j] += v[slot];
	}
#endif
	c->total += c->pending;
	c->pending = 0;
}

/*
 * Adds the byte lanes into the 64-bit counters and clears them (nothing to
 * do when nothing was added since the last flush: the lanes are zero).
 */
void
LaneCounterFlush(LaneCounter *counter)
{
	if (counter->pending == 0)
		return;
	for (int k = 0; k < 8; k++)
	{
		uint64		lane = counter->lanes[k];

		for (int b = 0; b < 8; b++)
			counter->ones[8 * b + k] += (lane >> (8 * b)) & 0xff;
		counter->lanes[k] = 0;
	}
	counter->total += counter->pending;
	counter->pending = 0;
}

/*
 * Sets *result to the fingerprint of the unit-weight features counted so
 * far.  Returns false, leaving *result alone, when there were none.
 */
bool
LaneCounterResult(LaneCounter *counter, uint64 *result)
{
	uint64		fp = 0;

	LaneCounterFlush(counter);
	if (counter->total == 0)
		return false;
	/* sum_i = ones_i - (total - ones_i); bit set when strictly positive */
	for (int bit = 0; bit < SIMHASH_BITS; bit++)
		if (2 * counter->ones[bit] > counter->total)
			fp |= UINT64CONST(1) << bit;
	*result = fp;
	return true;
}

/* qsort order of HashWeight: by hash, then weight. */
int
CompareHashWeight(const void *a, const void *b)
{
	const HashWeight *x = (const HashWeight *) a;
	const HashWeight *y = (const HashWeight *) b;

	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	if (x->weight != y->weight)
		return x->weight < y->weight ? -1 : 1;
	return 0;
}

/* Rejects weights that would make the sums meaningless. */
void
CheckFeatureWeight(double weight)
{
	if (isnan(weight) || isinf(weight))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("feature weight must be finite"),
				 errdetail("The weight is %g.", weight)));
}

bool
FingerprintWeightedPairs(HashWeight *pairs, int64 npairs, uint64 *result)
{
	double		sums[SIMHASH_BITS];
	bool		any = false;
	uint64		fp = 0;

	/*
	 * Floating-point addition is not associative: sorting makes the sums,
	 * and so ties and near-ties, independent of the order the caller saw
	 * the features in (an aggregate's input order is not defined).
	 */
	if (npairs > 1)
		qsort(pairs, npairs, sizeof(HashWeight), CompareHashWeight);

	memset(sums, 0, sizeof(sums));
	for (int64 i = 0; i < npairs; i++)
	{
		uint64		hash = pairs[i].hash;
		double		w = pairs[i].weight;

		if (w == 0.0)
			continue;
		any = true;
		for (int bit = 0; bit < SIMHASH_BITS; bit++)
			sums[bit] += ((hash >> bit) & 1) ? w : -w;
	}
	if (!any)
		return false;
	for (int bit = 0; bit < SIMHASH_BITS; bit++)
		if (sums[bit] > 0.0)
			fp |= UINT64CONST(1) << bit;
	*result = fp;
	return true;
}
