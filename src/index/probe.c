/*
 * index/probe.c
 *	  The probe plan of a radius search: which block tables are probed, with
 *	  which enumeration radius, how many block values that enumerates and
 *	  how many bucket pages it reads.  The scan (scan.c) carries the plan
 *	  out and the cost estimate (cost.c) charges for it, so the two cannot
 *	  disagree about what a search does.
 *
 * THE PIGEONHOLE ARGUMENT
 *
 * Write the radius as r = q*m + a with 0 <= a < m.  If every one of the
 * first a+1 blocks of a fingerprint differed from the query's in more than q
 * bits and every other block in more than q-1 bits, the distance would be at
 * least (a+1)(q+1) + (m-a-1)q = r+1.  So every fingerprint within r has some
 * block j within s_j of the query's block j, where s_j = q for j <= a and
 * q-1 otherwise (Norouzi et al.).  For r < m that is "block j equal" for
 * j = 0..r: r+1 exact probes (Manku et al.).  Table j is probed with every
 * prefix within s_j of the query's prefix: C(P, 0) + ... + C(P, s_j) block
 * values, and a table with s_j < 0 is not probed at all.
 *
 * Each probed value is one bucket, so the probes of a table read at most as
 * many pages as the table has; when the probes of all tables together would
 * read about as many pages as one whole table, reading block table 0 from
 * end to end is cheaper and just as exact (every row is in every table).
 */
#include "index/shindex.h"

#include <math.h>

#include "type/simhash.h"

/* Number of bit strings of `bits` bits within `radius` of a given one. */
static double
ShCountProbes(int bits, int radius)
{
	double		sum = 0;
	double		binom = 1;

	for (int i = 0; i <= Min(radius, bits); i++)
	{
		sum += binom;
		binom = binom * (bits - i) / (i + 1);
	}
	return sum;
}

/*
 * P(distance <= radius) for two independent uniformly random 64-bit
 * fingerprints: sum over i <= radius of C(64, i) / 2^64.
 */
double
ShWithinProbability(int radius)
{
	if (radius < 0)
		return 0.0;
	if (radius >= SIMHASH_BITS)
		return 1.0;
	return ldexp(ShCountProbes(SIMHASH_BITS, radius), -SIMHASH_BITS);
}

/*
 * Fills *plan for a search of `radius` (at least 0; clamped to 64) in an
 * index of the given layout that has nblocks blocks, metapage included.
 * The scan passes the relation's current size, the cost estimate the
 * planner's; nothing else is read.
 */
void
ShPlanProbes(ShProbePlan *plan, const ShLayout *layout, int radius,
			 BlockNumber nblocks)
{
	int			m = layout->ntables;
	int			q;
	int			a;

	Assert(radius >= 0);
	radius = Min(radius, SIMHASH_BITS);
	q = radius / m;
	a = radius % m;
	plan->radius = radius;
	/* Bucket pages per table (directories are a small share). */
	plan->perTable = Max(1.0, (double) (nblocks - 1) / m);
	plan->pages = 0;
	for (int t = 0; t < m; t++)
	{
		plan->probe[t] = (t <= a) ? q : q - 1;
		if (plan->probe[t] < 0)
		{
			plan->nvalues[t] = 0;
			continue;
		}
		plan->nvalues[t] = ShCountProbes(layout->pbits[t], plan->probe[t]);
		plan->pages += Min(plan->nvalues[t], plan->perTable);
	}
}

/*
 * True when carrying out the plan would read at least fullfactor times as
 * many pages as a whole block table holds, or the radius is everything:
 * then reading one table from end to end is the cheaper way.
 */
bool
ShProbesCostTable(const ShProbePlan *plan, double fullfactor)
{
	return plan->radius >= SIMHASH_BITS ||
		plan->pages >= plan->perTable * fullfactor;
}

static int
CompareUint32(const void *a, const void *b)
{
	uint32		x = *(const uint32 *) a;
	uint32		y = *(const uint32 *) b;

	return (x > y) - (x < y);
}

/*
 * Returns, sorted, the plan->nvalues[t] prefixes of table t within
 * plan->probe[t] of prefix (which must be >= 0).  Allocated in the current
 * memory context.
 */
uint32 *
ShEnumeratePrefixes(const ShProbePlan *plan, const ShLayout *layout, int t,
					uint32 prefix)
{
	int			bits = layout->pbits[t];
	int			radius = plan->probe[t];
	uint32		limit = (uint32) 1 << bits;
	uint32	   *out = palloc(sizeof(uint32) * (Size) plan->nvalues[t]);
	int			k = 0;

	Assert(radius >= 0);
	for (int c = 0; c <= Min(radius, bits); c++)
	{
		/* Gosper's hack: every c-bit mask below limit, in increasing order. */
		uint32		mask = (c == 0) ? 0 : ((uint32) 1 << c) - 1;

		for (;;)
		{
			uint32		low,
						ripple;

			out[k++] = prefix ^ mask;
			if (mask == 0)
				break;
			low = mask & -mask;
			ripple = mask + low;
			if (ripple >= limit || ripple == 0)
				break;
			mask = (((ripple ^ mask) >> 2) / low) | ripple;
			if (mask >= limit)
				break;
		}
	}
	Assert(k == (int) plan->nvalues[t]);
	qsort(out, k, sizeof(uint32), CompareUint32);
	return out;
}
