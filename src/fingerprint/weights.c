/*
 * fingerprint/weights.c
 *	  Weighting, the third stage of simhash(text): the slow paths of the
 *	  weight cap's table of totals (CapTable) and of the run counter
 *	  (RunCounter); their fast paths are inline in weights.h.
 *
 * simhash(text) caps each distinct feature's total weight relative to the
 * document's (see CapTable in weights.h): the lanes count every
 * occurrence as it comes, the table keeps each feature's total, and at the
 * end the weight above the cap of the few features that exceed it is taken
 * out of the per-bit sums again.  Integer sums are exact, so this equals
 * summing the capped weights.
 */
#include "fingerprint/weights.h"

#include "utils/memutils.h"

/*
 * Slots of the backend's retained CapTable: documents of up to about
 * 4,096 distinct features (a long web page) never allocate a table.  The
 * retained table is zero outside a call; a call uses a prefix of it sized
 * from the text's length, grows within it in place, and on leaving clears
 * only the slots it used.  A larger table, or one for a second table live
 * at the same time, is allocated in the call's memory context.
 */
#define CAP_TABLE_RETAINED 8192
/* Smallest first table: 4 kB. */
#define CAP_TABLE_MIN 256

static struct
{
	CapEntry   *entries;		/* CAP_TABLE_RETAINED + 1 entries, or NULL */
	uint32	   *used;			/* CAP_TABLE_RETAINED / 2 slots */
	CapTable   *owner;			/* the table using it, or NULL */
} retained;

static uint32
CapLimit(uint32 slots)
{
	return Min(slots / 2, SIMHASH_CAP_FEATURES);
}

/* Gives the retained table back once its members' entries are zero. */
static void
CapTableGiveBack(CapTable *t)
{
	Assert(t->retained && retained.owner == t);
	t->entries[t->mask + 1] = (CapEntry) {0, 0};
	t->retained = false;
	t->entries = NULL;
	t->used = NULL;
	retained.owner = NULL;
}

/* Clears the slots t used in the retained table and gives it back. */
static void
CapTableRelease(CapTable *t)
{
	for (int32 k = 0; k < t->members; k++)
		t->entries[t->used[k]] = (CapEntry) {0, 0};
	CapTableGiveBack(t);
}

/* Reset callback of the call's context: a call that ended in an error. */
static void
CapTableReleaseCallback(void *arg)
{
	CapTable   *t = arg;

	if (t->retained && retained.owner == t)
		CapTableRelease(t);
}

/*
 * Sets up t for a text of about textbytes bytes (a hint: distinct features
 * take 14 bytes or more of English text, so slots = textbytes / 4 leave the
 * table under a third full for nearly every text, where a probe seldom
 * meets another feature's entry; growth, at half full, covers the rest).
 * Taking the retained table registers a reset callback of the current
 * memory context with t as its argument, so t must stay allocated until
 * that context is reset or deleted.
 */
void
CapTableInit(CapTable *t, int64 textbytes)
{
	uint32		slots = CAP_TABLE_MIN;

	while (slots < CAP_TABLE_RETAINED && (int64) slots * 4 < textbytes)
		slots *= 2;
	t->mask = slots - 1;
	t->members = 0;
	t->limit = CapLimit(slots);
	t->nrun = 0;
	if (retained.owner == NULL)
	{
		if (retained.entries == NULL)
		{
			retained.entries = MemoryContextAllocZero(TopMemoryContext,
													  sizeof(CapEntry) * (CAP_TABLE_RETAINED + 1));
			retained.used = MemoryContextAlloc(TopMemoryContext,
											   sizeof(uint32) * (CAP_TABLE_RETAINED / 2));
		}
		retained.owner = t;
		t->retained = true;
		t->entries = retained.entries;
		t->used = retained.used;
		t->release.func = CapTableReleaseCallback;
		t->release.arg = t;
		MemoryContextRegisterResetCallback(CurrentMemoryContext, &t->release);
	}
	else
	{
		/* slots + 1: the entry after the last absorbs features past the bound */
		t->retained = false;
		t->entries = palloc0(sizeof(CapEntry) * ((Size) slots + 1));
		t->used = palloc(sizeof(uint32) * (slots / 2));
	}
}

/*
 * Doubles the table (in place within the retained table while it fits);
 * the members keep their order in used.  Only members' slots are read:
 * O(members).
 */
static void
CapTableGrow(CapTable *t)
{
	uint32		slots = 2 * (t->mask + 1);
	CapEntry   *saved = palloc(sizeof(CapEntry) * Max(t->members, 1));

	/* no feature has overflowed yet: growth stops at the bound */
	Assert(t->entries[t->mask + 1].weight == 0);
	for (int32 k = 0; k < t->members; k++)
		saved[k] = t->entries[t->used[k]];
	if (t->retained && slots <= CAP_TABLE_RETAINED)
	{
		for (int32 k = 0; k < t->members; k++)
			t->entries[t->used[k]] = (CapEntry) {0, 0};
	}
	else
	{
		if (t->retained)
			CapTableRelease(t);
		else
		{
			pfree(t->entries);
			pfree(t->used);
		}
		t->entries = palloc0(sizeof(CapEntry) * ((Size) slots + 1));
		t->used = palloc(sizeof(uint32) * (slots / 2));
	}
	t->mask = slots - 1;
	t->limit = CapLimit(slots);
	for (int32 k = 0; k < t->members; k++)
	{
		uint32		j = (uint32) saved[k].hash & t->mask;

		while (t->entries[j].weight != 0)
			j = (j + 1) & t->mask;
		t->entries[j] = saved[k];
		t->used[k] = j;
	}
	pfree(saved);
}

/*
 * CapTableAdd when the table holds limit members: an existing feature
 * adds to its total; a new one, past SIMHASH_CAP_FEATURES distinct
 * features, goes to the overflow entry, never to be capped; else the table
 * grows and takes it.
 */
void
CapTableAddFull(CapTable *t, uint64 hash, int64 w)
{
	uint32		slot = (uint32) hash & t->mask;

	Assert(t->members >= t->limit);
	while (t->entries[slot].weight != 0)
	{
		if (t->entries[slot].hash == hash)
		{
			t->entries[slot].weight += w;
			return;
		}
		slot = (slot + 1) & t->mask;
	}
	if (t->members >= SIMHASH_CAP_FEATURES)
	{
		t->entries[t->mask + 1].weight += w;
		return;
	}
	CapTableGrow(t);
	slot = (uint32) hash & t->mask;
	while (t->entries[slot].weight != 0)
		slot = (slot + 1) & t->mask;
	t->entries[slot].hash = hash;
	t->entries[slot].weight = w;
	t->used[t->members++] = slot;
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
 * ones (weight of the features with the bit set) and total.  Clears each
 * member's entry once read (one pass over the members) and gives back the
 * retained table: t is used up.
 */
void
CapTableApply(CapTable *t, int64 cap, int64 *ones, int64 *total)
{
	Assert(t->nrun == 0);
	for (int32 k = 0; k < t->members; k++)
	{
		CapEntry   *e = &t->entries[t->used[k]];
		uint64		hash = e->hash;
		int64		excess = e->weight - cap;

		*e = (CapEntry) {0, 0};
		if (excess <= 0)
			continue;
		for (int bit = 0; bit < SIMHASH_BITS; bit++)
			if ((hash >> bit) & 1)
				ones[bit] -= excess;
		*total -= excess;
	}
	if (t->retained)
		CapTableGiveBack(t);
}

/* Adds the count words in run, each with weight w, and clears run. */
void
RunCounterClose(RunCounter *rc, int64 count, int64 w)
{
	WideLaneCounter *c = &rc->weighted;

	CapTableRunEnd(&rc->cap, w);
	if (count == 0)
		return;
	if (c->pending + count * w > 65535)
		WideLaneCounterFlush(c);
#if defined(__SSE2__)
	{
		__m128i		weight = _mm_set1_epi16((short) w);

		for (int k = 0; k < 8; k++)
		{
			__m128i		bytes = _mm_unpacklo_epi8(_mm_cvtsi64_si128((int64) rc->run[k]),
												  _mm_setzero_si128());
			__m128i	   *lane = (__m128i *) c->lanes[k];

			_mm_storeu_si128(lane, _mm_add_epi16(_mm_loadu_si128(lane),
												 _mm_mullo_epi16(bytes, weight)));
			rc->run[k] = 0;
		}
	}
#else
	for (int k = 0; k < 8; k++)
	{
		for (int b = 0; b < 8; b++)
			c->lanes[k][b] += (uint16) (((rc->run[k] >> (8 * b)) & 0xff) * w);
		rc->run[k] = 0;
	}
#endif
	c->pending += count * w;
}
