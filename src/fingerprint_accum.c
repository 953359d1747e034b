/*
 * fingerprint_accum.c
 *	  Turning feature hashes into a fingerprint: byte-lane counters for unit
 *	  weights, sorted weighted sums for real-valued weights.
 *
 * Both follow Charikar: bit i of the fingerprint is 1 where the weights of
 * the features whose hash has bit i set outweigh those whose hash has it
 * clear.  A tie gives 0.  A document without any feature of non-zero weight
 * has no fingerprint (the callers return NULL).
 *
 * simhash(text) caps each distinct feature's total weight relative to the
 * document's (see CapTable in fingerprint.h): the lanes count every
 * occurrence as it comes, the table keeps each feature's total, and at the
 * end the weight above the cap of the few features that exceed it is taken
 * out of the per-bit sums again.  Integer sums are exact, so this equals
 * summing the capped weights.
 */
#include "fingerprint.h"

#include <math.h>

/* Adds the byte lanes into the 64-bit counters and clears them. */
void
LaneCounterFlush(LaneCounter *counter)
{
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

/* Initial slots of a CapTable: enough for a short text's distinct words. */
#define CAP_TABLE_INITIAL 1024

static CapEntry *
CapTableAlloc(uint32 slots)
{
	/* slots + 1: the entry after the last absorbs features past the bound */
	return palloc0(sizeof(CapEntry) * ((Size) slots + 1));
}

void
CapTableInit(CapTable *t)
{
	t->entries = CapTableAlloc(CAP_TABLE_INITIAL);
	t->mask = CAP_TABLE_INITIAL - 1;
	t->members = 0;
	t->nrun = 0;
}

/* Slot of hash in t, which holds it. */
static uint32
CapTableFind(CapTable *t, uint64 hash)
{
	uint32		i = (uint32) hash & t->mask;

	while (t->entries[i].hash != hash || t->entries[i].weight == 0)
		i = (i + 1) & t->mask;
	return i;
}

/* Doubles the table; the slots of the current run move along. */
static void
CapTableGrow(CapTable *t)
{
	CapEntry   *old = t->entries;
	uint32		oldslots = t->mask + 1;

	t->mask = 2 * oldslots - 1;
	t->entries = CapTableAlloc(2 * oldslots);
	for (uint32 i = 0; i < oldslots; i++)
	{
		uint32		j;

		if (old[i].weight == 0)
			continue;
		j = (uint32) old[i].hash & t->mask;
		while (t->entries[j].weight != 0)
			j = (j + 1) & t->mask;
		t->entries[j] = old[i];
	}
	for (int r = 0; r < t->nrun; r++)
		t->run[r] = t->run[r] == oldslots ? t->mask + 1 :
			CapTableFind(t, old[t->run[r]].hash);
	pfree(old);
}

/*
 * CapTableAdd's insertion of a new feature at the empty slot slot: past
 * SIMHASH_CAP_FEATURES distinct features it goes to the overflow entry,
 * never to be capped.
 */
uint32
CapTableInsert(CapTable *t, uint64 hash, int64 w, uint32 slot)
{
	if (t->members >= SIMHASH_CAP_FEATURES)
	{
		slot = t->mask + 1;
		t->entries[slot].weight += w;
		return slot;
	}
	if (2 * (uint32) (t->members + 1) > t->mask + 1)
	{
		CapTableGrow(t);
		slot = (uint32) hash & t->mask;
		while (t->entries[slot].weight != 0)
			slot = (slot + 1) & t->mask;
	}
	t->entries[slot].hash = hash;
	t->entries[slot].weight = w;
	t->members++;
	return slot;
}

/* The cap of integer weighting weighting for a document of weight total. */
int64
CapOf(Weighting weighting, int64 total)
{
	int64		floor = weighting == WEIGHTING_RUNS ? SIMHASH_RUN_CAP : 1;

	return Max((9 * total + 199) / 200, floor);
}

/* The cap of weighting log for a document of weight total. */
double
CapOfLog(double total)
{
	return Max(0.045 * total, 1.0);
}

/*
 * Takes the weight above cap of every feature in t out of the per-bit sums
 * ones (weight of the features with the bit set) and total.
 */
void
CapTableApply(CapTable *t, int64 cap, int64 *ones, int64 *total)
{
	Assert(t->nrun == 0);
	for (uint32 i = 0; i <= t->mask; i++)
	{
		uint64		hash = t->entries[i].hash;
		int64		excess = t->entries[i].weight - cap;

		if (excess <= 0)
			continue;
		for (int bit = 0; bit < SIMHASH_BITS; bit++)
			if ((hash >> bit) & 1)
				ones[bit] -= excess;
		*total -= excess;
	}
}
