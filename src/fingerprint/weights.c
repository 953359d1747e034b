/*
 * fingerprint/weights.c
 *	  Weighting, the third stage of simhash(text): each occurrence of a
 *	  feature weighted (runs, tf, binary, log) and the weight cap, counted
 *	  into the lanes.  The fast paths of its structures (CapTable,
 *	  RunCounter, TfCounter, WeigherAdd) are inline in weights.h; their slow
 *	  paths and the general path (Weigher) are here.
 *
 * Weightings: runs (the default) counts every occurrence with the length of
 * the run of text its token belongs to, at most SIMHASH_RUN_CAP words; a run
 * ends at a line break, a sentence terminator, a symbol such as | or ·, or
 * any other character that does not continue a sentence (see RunBreakSlow
 * in tokenizer_icu.c).  Prose sits in long runs; navigation, meta lines
 * ("2024-05-01 · 1,234 views"), footers and other page furniture sit in
 * short ones, so a page's template weighs less than its body: the benchmark
 * (doc/benchmarks.md) measured the gain on mirrored pages.  tf counts every occurrence
 * 1.  Both count in byte lanes as the features come (runs waits for at most
 * one run of fewer than SIMHASH_RUN_CAP tokens), and keep each distinct
 * feature's total in a CapTable for the weight cap, which bounds it to the
 * first SIMHASH_CAP_FEATURES distinct features.  binary and log weigh each
 * distinct feature once, which needs a table of all the distinct features.
 *
 * Then every weighting caps each distinct feature's total weight at a share
 * of the document's total (see CapTable in weights.h): a word such as
 * "the" or "的" weighs 6 to 8 % of a typical page, and that same lean on
 * every page brings unrelated pages of one template within a few bits.
 *
 * Algorithm version 4 reweighs single words weighted runs or tf before the
 * cap (RobustWeight; the formula is in weights.h at SIMHASH_WEIGHT_SCALE):
 * √occurrences lifts a document's own repeated words, and the built-in
 * frequency list (frequent_words.c) damps the words every text of the
 * language shares, which on long documents pulled unrelated texts of one
 * genre within a few bits (scripts/bench-quality.sh measures both).  Under
 * runs it also weighs an occurrence L sqrt(L) / 2 for a run of L words
 * instead of L (simhash_run_weight_v4: ads and template lines are short
 * runs), and its cap tightens past SIMHASH_CAP_WORDS words (CapOfRobust).  The
 * lanes count version 3's weights; CapTableApplyRobust corrects the sums
 * from the table of totals, which counts each word's occurrences too.
 *
 * Version 6 applies that reweighing and the cap in full only from
 * RAMP_FROM + RAMP_SPAN words on; below RAMP_FROM words each word keeps its
 * linear weight (the lanes' sums are the fingerprint), and between, each
 * word's correction is scaled by the word count (RampBlend).  Its words go
 * to a list first (CapTableDefer) and into the table only once a document
 * reaches RAMP_FROM words, so a short document never builds the table.
 * Version 7 tightens the cap past SIMHASH_CAP_WORDS_V7 words in proportion
 * to the length (CapOfRobust); version 8 also caps every word at
 * SIMHASH_TYPICAL_CAP times the document's typical word (TypicalCap).
 *
 * The cap: the lanes count every occurrence as it comes, the table keeps
 * each feature's total, and at the end the weight above the cap of the few
 * features that exceed it is taken out of the per-bit sums again.  Integer
 * sums are exact, so this equals summing the capped weights.
 */
#include "fingerprint/weights.h"
#include "fingerprint/lines.h"
#include "fingerprint/tokenizer.h"

#include <math.h>

#include "port/pg_bitutils.h"
#include "utils/memutils.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

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
	CapEntry   *entries;		/* CAP_TABLE_RETAINED + 1 entries, or NULL;
								 * aligned to a cache line */
	uint32	   *used;			/* CAP_TABLE_RETAINED / 2 slots */
	DeferredWord *deferred;		/* RAMP_FROM words, or NULL */
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

/* Zeroed entries for a table of slots slots, aligned to a cache line. */
static CapEntry *
CapEntriesAlloc(MemoryContext cxt, uint32 slots, void **mem)
{
	*mem = MemoryContextAllocZero(cxt, sizeof(CapEntry) * ((Size) slots + 1) + PG_CACHE_LINE_SIZE);
	return (CapEntry *) TYPEALIGN(PG_CACHE_LINE_SIZE, *mem);
}

/*
 * Sets up t for a text of about textbytes bytes (a hint: distinct features
 * take 14 bytes or more of English text and 7 or so of Chinese, so slots =
 * textbytes / 2 leave the table under a sixth full for nearly every English
 * text and under a third for Chinese, where a probe seldom meets another
 * feature's entry and so seldom mispredicts its branch: textbytes / 4 made
 * the benchmark's pages of both languages 2 % slower; growth, at half full,
 * covers the rest).
 * Taking the retained table registers a reset callback of the current
 * memory context with t as its argument, so t must stay allocated until
 * that context is reset or deleted.
 */
void
CapTableInit(CapTable *t, int64 textbytes)
{
	uint32		slots = CAP_TABLE_MIN;

	/*
	 * t (the backend's reused extractor's) still holds the retained table:
	 * its last call ended in an error caught before its context was reset.
	 * Its fields are those of that call, so its slots can be cleared.
	 */
	if (unlikely(retained.owner == t))
		CapTableRelease(t);
	while (slots < CAP_TABLE_RETAINED && (int64) slots * 2 < textbytes)
		slots *= 2;
	t->mask = slots - 1;
	t->members = 0;
	t->limit = CapLimit(slots);
	t->nrun = 0;
	t->words = 0;
	t->spillat = CAP_SPILL_WORDS;
	t->wide = NULL;
	t->defer = false;
	t->entriesmem = NULL;
	if (retained.owner == NULL)
	{
		if (retained.entries == NULL)
		{
			void	   *mem;

			retained.entries = CapEntriesAlloc(TopMemoryContext, CAP_TABLE_RETAINED, &mem);
			retained.used = MemoryContextAlloc(TopMemoryContext,
											   sizeof(uint32) * (CAP_TABLE_RETAINED / 2));
		}
		retained.owner = t;
		t->retained = true;
		t->entries = retained.entries;
		t->used = retained.used;
		t->release = palloc(sizeof(MemoryContextCallback));
		t->release->func = CapTableReleaseCallback;
		t->release->arg = t;
		MemoryContextRegisterResetCallback(CurrentMemoryContext, t->release);
	}
	else
	{
		/* slots + 1: the entry after the last absorbs features past the bound */
		t->retained = false;
		t->entries = CapEntriesAlloc(CurrentMemoryContext, slots, &t->entriesmem);
		t->used = palloc(sizeof(uint32) * (slots / 2));
	}
}

/*
 * Version 6: t keeps the words in a list, not in the table, while the
 * document has fewer than RAMP_FROM words (CapTableDefer); a document that
 * stays that short never touches the table.  The list of the table holding
 * the retained entries is the backend's, another table's is allocated in
 * the call's context.
 */
void
CapTableDeferStart(CapTable *t)
{
	if (t->retained)
	{
		if (retained.deferred == NULL)
			retained.deferred = MemoryContextAlloc(TopMemoryContext,
												   sizeof(DeferredWord) * RAMP_FROM);
		t->deferred = retained.deferred;
	}
	else
		t->deferred = palloc(sizeof(DeferredWord) * RAMP_FROM);
	t->defer = true;
}

/*
 * Adds the deferred words (the first t->words) to the table, in order, and
 * stops deferring.
 */
void
CapTableReplay(CapTable *t)
{
	int32		deferred = (int32) t->words;

	t->defer = false;
	t->words = 0;
	for (int32 k = 0; k < deferred; k++)
		CapTableAdd(t, t->deferred[k].hash, t->deferred[k].w);
	Assert(t->words == deferred);
}

/*
 * Moves what each member's tally holds beyond one occurrence (which keeps
 * the entry a member's) into its 64-bit totals in wide (see CAP_TALLY);
 * called before CAP_SPILL_WORDS more occurrences could overflow a tally's
 * occurrences field.  O(members), every 16 million occurrences or so.
 */
void
CapTableSpill(CapTable *t)
{
	if (t->wide == NULL)
		t->wide = palloc0(sizeof(CapWide) * ((Size) t->mask + 1));
	for (int32 k = 0; k < t->members; k++)
	{
		uint32		slot = t->used[k];
		uint64		tally = t->entries[slot].tally;

		t->wide[slot].weight += (int64) (tally >> CAP_COUNT_BITS);
		t->wide[slot].count += (int64) (tally & CAP_COUNT_MASK) - 1;
		t->entries[slot].tally = 1;
	}
	/* the overflow entry is never read: only kept from overflowing */
	if (t->entries[t->mask + 1].tally != 0)
		t->entries[t->mask + 1].tally = 1;
	t->spillat = t->words + CAP_SPILL_WORDS;
}

/* The total weight and occurrences of the member at slot of t. */
static inline void
CapTableTotals(const CapTable *t, uint32 slot, int64 *weight, int64 *count)
{
	uint64		tally = t->entries[slot].tally;

	*weight = (int64) (tally >> CAP_COUNT_BITS);
	*count = (int64) (tally & CAP_COUNT_MASK);
	if (unlikely(t->wide != NULL))
	{
		*weight += t->wide[slot].weight;
		*count += t->wide[slot].count;
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
	CapWide    *savedwide = NULL;

	/* no feature has overflowed yet: growth stops at the bound */
	Assert(t->entries[t->mask + 1].tally == 0);
	for (int32 k = 0; k < t->members; k++)
		saved[k] = t->entries[t->used[k]];
	if (t->wide != NULL)
	{
		savedwide = palloc(sizeof(CapWide) * Max(t->members, 1));
		for (int32 k = 0; k < t->members; k++)
			savedwide[k] = t->wide[t->used[k]];
		pfree(t->wide);
		t->wide = palloc0(sizeof(CapWide) * (Size) slots);
	}
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
			pfree(t->entriesmem);
			pfree(t->used);
		}
		t->entries = CapEntriesAlloc(CurrentMemoryContext, slots, &t->entriesmem);
		t->used = palloc(sizeof(uint32) * (slots / 2));
	}
	t->mask = slots - 1;
	t->limit = CapLimit(slots);
	for (int32 k = 0; k < t->members; k++)
	{
		uint32		j = (uint32) saved[k].hash & t->mask;

		while (t->entries[j].tally != 0)
			j = (j + 1) & t->mask;
		t->entries[j] = saved[k];
		if (savedwide)
			t->wide[j] = savedwide[k];
		t->used[k] = j;
	}
	pfree(saved);
	if (savedwide)
		pfree(savedwide);
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
	while (t->entries[slot].tally != 0)
	{
		if (t->entries[slot].hash == hash)
		{
			t->entries[slot].tally += CAP_TALLY(w);
			return;
		}
		slot = (slot + 1) & t->mask;
	}
	if (t->members >= SIMHASH_CAP_FEATURES)
	{
		t->entries[t->mask + 1].tally += CAP_TALLY(w);
		return;
	}
	CapTableGrow(t);
	slot = (uint32) hash & t->mask;
	while (t->entries[slot].tally != 0)
		slot = (slot + 1) & t->mask;
	t->entries[slot].hash = hash;
	t->entries[slot].tally = CAP_TALLY(w);
	t->used[t->members++] = slot;
}

/* The cap of integer weighting weighting for a document of weight total. */
int64
CapOf(Weighting weighting, int64 total)
{
	int64		floor = weighting == WEIGHTING_RUNS ? SIMHASH_RUN_CAP : 1;

	return Max((9 * total + 199) / 200, floor);
}

/* Weight of an occurrence by the length of its run (see weights.h). */
const int16 simhash_run_weight_v3[SIMHASH_RUN_CAP + 1] = {
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
	21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38,
	39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56,
	57, 58, 59, 60, 61, 62, 63, 64};

/* floor(L * sqrt(L) / 2.0 + 0.5); test/golden/reference.c computes it */
const int16 simhash_run_weight_v4[SIMHASH_RUN_CAP + 1] = {
	0, 1, 1, 3, 4, 6, 7, 9, 11, 14, 16, 18, 21, 23, 26, 29, 32, 35, 38, 41,
	45, 48, 52, 55, 59, 63, 66, 70, 74, 78, 82, 86, 91, 95, 99, 104, 108,
	113, 117, 122, 126, 131, 136, 141, 146, 151, 156, 161, 166, 172, 177,
	182, 187, 193, 198, 204, 210, 215, 221, 227, 232, 238, 244, 250, 256};

/*
 * max(1, floor((simhash_run_weight_v4[L] * m + 8) / 16)) for a line of
 * multiplier m / 16, filled once per backend (RunWeightsV5); the
 * reference test/golden/reference.c computes it on its own.
 */
int16		simhash_run_weight_v5[LINE_CLASSES][SIMHASH_RUN_CAP + 1];

static void
RunWeightsV5(void)
{
	if (simhash_run_weight_v5[LINE_CLASSES - 1][1] != 0)
		return;
	for (int m = 0; m < LINE_CLASSES; m++)
		for (int len = 1; len <= SIMHASH_RUN_CAP; len++)
			simhash_run_weight_v5[m][len] =
				Max(1, (simhash_run_weight_v4[len] * m + (LINE_CLASSES - 1) / 2) / (LINE_CLASSES - 1));
}

StaticAssertDecl(SIMHASH_RUN_WEIGHT_MAX * (SIMHASH_RUN_CAP - 1) <= WIDE_LANE_MAX_PENDING,
				 "a run's words must fit a 16-bit lane");

/*
 * The least cap of version 4's weighting (in sixteenths): the largest
 * weight of one occurrence, which is never capped.
 */
static inline int64
RobustCapFloor(Weighting weighting)
{
	return weighting == WEIGHTING_RUNS ?
		SIMHASH_WEIGHT_SCALE * simhash_run_weight_v4[SIMHASH_RUN_CAP] :
		SIMHASH_WEIGHT_SCALE;
}

/*
 * Version 4's cap of a document of total weight total (in sixteenths) and
 * words words, under weighting runs or tf: see SIMHASH_CAP_WORDS; with
 * proportional, version 7's (SIMHASH_CAP_WORDS_V7).
 */
int64
CapOfRobust(Weighting weighting, int64 total, int64 words, bool proportional)
{
	int64		least = RobustCapFloor(weighting);
	int64		cap;

	StaticAssertStmt(9 * SIMHASH_CAP_WORDS_V7 == 63 * 200, "the caps agree at the length");
	if (proportional && words > SIMHASH_CAP_WORDS_V7)
	{
		/* ceil(63 * total / words) without overflow: total < 2^63 */
		int64		quot = total / words,
					rem = total % words;

		cap = 63 * quot + (63 * rem + words - 1) / words;
	}
	else if (words <= SIMHASH_CAP_WORDS)
		cap = (9 * total + 199) / 200;
	else
		cap = (int64) ceil(9.0 * (double) total / 200.0 *
						   sqrt((double) SIMHASH_CAP_WORDS / (double) words));
	return Max(cap, least);
}

/*
 * Buckets of weights for TypicalWeight, in order of weight: 0 to 7 each
 * their own, then eight per power of two (its three bits below the top).
 */
#define TYPICAL_BUCKETS 488

static inline int
TypicalBucket(int64 v)
{
	/*
	 * With e the top bit of v >= 8, v >> (e - 3) is 8 + its three bits
	 * below the top, so the bucket is 8 (e - 3) + (v >> (e - 3)); below 8
	 * that is v with a shift of 0 (no branch on it)
	 */
	int			shift = Max(pg_leftmost_one_pos64((uint64) v | 1) - 3, 0);

	return 8 * shift + (int) (v >> shift);
}

/* The weights bucket b holds (TypicalBucket's inverse): *lo .. *hi. */
static inline void
TypicalBucketRange(int b, int64 *lo, int64 *hi)
{
	int			shift = b / 8 - 1;

	if (b < 8)
	{
		*lo = *hi = b;
		return;
	}
	*lo = (int64) (8 + b % 8) << shift;
	*hi = *lo + (INT64CONST(1) << shift) - 1;
}

/* Sub-buckets of one bucket of weights when TypicalWeight narrows it. */
#define TYPICAL_SUBBUCKETS 64

/*
 * Version 8's typical word (see SIMHASH_TYPICAL_CAP): of n words of
 * weights weight[k] >= 0 and count[k] occurrences (total in all, > 0), the
 * smallest weight m such that the words weighing m or less have at least
 * half of the occurrences (2 x theirs >= total); m <= limit is known, so
 * only the words weighing limit or less count (a heavier one counts as
 * limit + 1).  The occurrences are counted per bucket of weights first;
 * then the words of the one bucket that reaches half (a few percent of
 * them) are listed, and their range of weights is cut into
 * TYPICAL_SUBBUCKETS parts, counted, and narrowed to the part that reaches
 * half until one weight is left: linear, with no sort and no branch per
 * word on its weight.
 */
static int64
TypicalWeight(const int64 *weight, const int64 *count, int64 n, int64 total, int64 limit)
{
	/* four histograms, word k in k % 4's: fewer sums wait on the last */
	int64		hist[4][TYPICAL_BUCKETS];
	int64		sub[TYPICAL_SUBBUCKETS + 1];	/* and one for the words outside */
	int			last = TypicalBucket(limit + 1);	/* no word lies past it */
	int64		need = (total + 1) / 2,
				inside = 0,
				lo,
				hi;
	int			b;
	int64		k;
	int32	   *listed;

	for (int h = 0; h < 4; h++)
		memset(hist[h], 0, sizeof(int64) * (last + 1));
	for (k = 0; k + 4 <= n; k += 4)
#pragma GCC unroll 4
		for (int h = 0; h < 4; h++)
			hist[h][TypicalBucket(Min(weight[k + h], limit + 1))] += count[k + h];
	for (; k < n; k++)
		hist[0][TypicalBucket(Min(weight[k], limit + 1))] += count[k];
	/*
	 * (the words above limit count in limit + 1's bucket, the answer's or a
	 * later one, and come after the answer)
	 */
	for (b = 0;; b++)
	{
		int64		here = hist[0][b] + hist[1][b] + hist[2][b] + hist[3][b];

		if (here >= need)
			break;
		need -= here;
	}
	TypicalBucketRange(b, &lo, &hi);
	/* the words of bucket b: written for every word, kept for those */
	listed = palloc(sizeof(int32) * (n + 1));
	for (k = 0; k < n; k++)
	{
		uint64		v = (uint64) Min(weight[k], limit + 1);

		listed[inside] = (int32) k;
		inside += v - (uint64) lo <= (uint64) (hi - lo);
	}
	/* lo .. hi holds m and the words before it have fewer than need */
	while (lo < hi)
	{
		int			shift = 0;
		int			j;

		while (((hi - lo) >> shift) >= TYPICAL_SUBBUCKETS)
			shift++;
		memset(sub, 0, sizeof(sub));
		for (int64 i = 0; i < inside; i++)
		{
			uint64		d = (uint64) Min(weight[listed[i]], limit + 1) - (uint64) lo;

			sub[d <= (uint64) (hi - lo) ? (int) (d >> shift) : TYPICAL_SUBBUCKETS] +=
				count[listed[i]];
		}
		/* (the parts of lo .. hi hold need or more: j stays inside) */
		for (j = 0; j < TYPICAL_SUBBUCKETS - 1 && sub[j] < need; j++)
			need -= sub[j];
		lo += (int64) j << shift;
		hi = Min(hi, lo + (INT64CONST(1) << shift) - 1);
	}
	pfree(listed);
	return lo;
}

/*
 * Version 8's cap of n words of weights weight[] (>= 0) and count[]
 * occurrences (total in all), capped at cap first, and floor least:
 * min(cap, max(SIMHASH_TYPICAL_CAP * TypicalWeight, least)); heaviest is
 * the largest weight[].  Where that changes no weight, the cap is returned
 * as it is without the median: when no word weighs more than least, or the
 * words of at most top / 16 (top the heaviest capped weight) have fewer
 * than half of the occurrences (then SIMHASH_TYPICAL_CAP times the median
 * is top or more).
 */
int64
TypicalCap(const int64 *weight, const int64 *count, int64 n, int64 total,
		   int64 heaviest, int64 cap, int64 least)
{
	int64		top = Min(heaviest, cap),
				lighter = 0,
				t;

	if (top <= least)
		return cap;
	/* SIMHASH_TYPICAL_CAP m < top if and only if m <= t (t < cap) */
	t = (top - 1) / SIMHASH_TYPICAL_CAP;
	for (int64 k = 0; k < n; k++)
		lighter += count[k] & -(int64) (weight[k] <= t);
	if (2 * lighter < total)
		return cap;
	return Min(cap, Max(SIMHASH_TYPICAL_CAP * TypicalWeight(weight, count, n, total, t), least));
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
		int64		weight,
					count;
		int64		excess;

		CapTableTotals(t, t->used[k], &weight, &count);
		excess = weight - cap;
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

/*
 * The built-in frequency list (frequent_words.c) by hash: an open-addressing
 * table built on first use, of FREQUENT_SLOTS slots (more than twice the
 * words); ppm 0 marks an empty slot.
 */
#define FREQUENT_SLOTS 256

typedef struct FrequentSlot
{
	uint64		hash;
	int32		ppm;
	double		shed;			/* 1 - damp_ppm / ppm (IEEE double) if the
								 * word is damped (ppm > damp_ppm, see
								 * FrequentWord), else 0: computed once,
								 * RobustWeight's factor without a division
								 * per word */
} FrequentSlot;

static FrequentSlot frequent[FREQUENT_SLOTS];
static bool frequent_ready = false;

/*
 * An index in front of the table, by the hash's top 12 bits, which also
 * filters (nearly every word that is not listed is turned away by one
 * load): frequent_index[hash >> 52] is 0 when no listed word has those
 * bits, FREQUENT_SHARED when two or more have (then FrequentFind probes
 * the table), else the index into frequent_shed of the one that has: its
 * hash and its FrequentSlot's shed.  Entry 0 sheds nothing.  RobustWeight
 * reads it without a branch on whether the word is listed (as
 * unpredictable as the words: with a filter's branch and the probe, the
 * lookup took 4 % of an English page's time, now 2 %).
 */
#define FREQUENT_INDEX_SIZE 4096
#define FREQUENT_SHARED 255
typedef struct FrequentShed
{
	uint64		hash;
	double		shed;
} FrequentShed;
static uint8 frequent_index[FREQUENT_INDEX_SIZE];
static FrequentShed frequent_shed[FREQUENT_SLOTS / 2 + 1];

/*
 * The hashes of the listed words that version 4 damps (share above their
 * damping share): the only words seen once whose weight it changes.
 */
static uint64 damped[FREQUENT_SLOTS / 2];
static int	ndamped = 0;

/* sqrt(count) for the common small counts (the same doubles as sqrt()). */
#define SQRT_TABLE 256
static double sqrt_table[SQRT_TABLE];

static void
FrequentInit(void)
{
	StaticAssertStmt(FREQUENT_SLOTS >= 2 * 64, "frequency table too small");
	StaticAssertStmt(FREQUENT_SLOTS / 2 < FREQUENT_SHARED, "frequent_index holds every index");
	Assert(simhash_nfrequent_words <= FREQUENT_SLOTS / 2);
	for (int k = 0; k < simhash_nfrequent_words; k++)
	{
		const FrequentWord *fw = &simhash_frequent_words[k];
		uint64		hash = XXH3_64bits(fw->word, strlen(fw->word));
		uint32		i = (uint32) hash & (FREQUENT_SLOTS - 1);

		while (frequent[i].ppm != 0)
			i = (i + 1) & (FREQUENT_SLOTS - 1);
		frequent[i].hash = hash;
		frequent[i].ppm = fw->ppm;
		frequent[i].shed = 0.0;
		if (fw->ppm > fw->damp_ppm)
		{
			frequent[i].shed = 1.0 - (double) fw->damp_ppm / fw->ppm;
			damped[ndamped++] = hash;
		}
		frequent_shed[k + 1].hash = hash;
		frequent_shed[k + 1].shed = frequent[i].shed;
		frequent_index[hash >> 52] = frequent_index[hash >> 52] == 0 ? k + 1 : FREQUENT_SHARED;
	}
	for (int c = 0; c < SQRT_TABLE; c++)
		sqrt_table[c] = sqrt((double) c);
	frequent_ready = true;
}

/* The frequency list's slot of the word of hash hash, or NULL. */
static inline const FrequentSlot *
FrequentFind(uint64 hash)
{
	uint32		i = (uint32) hash & (FREQUENT_SLOTS - 1);

	if (frequent_index[hash >> 52] == 0)
		return NULL;
	while (frequent[i].ppm != 0)
	{
		if (frequent[i].hash == hash)
			return &frequent[i];
		i = (i + 1) & (FREQUENT_SLOTS - 1);
	}
	return NULL;
}

/*
 * The share of its weight that version 4 sheds from the word of hash hash
 * (see frequent_index): 0 unless it is a damped word of the list.
 */
static inline double
FrequentShare(uint64 hash)
{
	uint32		k = frequent_index[hash >> 52];
	uint64		bits;
	double		shed;

	if (unlikely(k == FREQUENT_SHARED))
	{
		const FrequentSlot *f = FrequentFind(hash);

		return f != NULL ? f->shed : 0.0;
	}
	/* the shed if the hash is the entry's, else +0.0: a select, not a branch */
	memcpy(&bits, &frequent_shed[k].shed, sizeof(bits));
	bits &= -(uint64) (frequent_shed[k].hash == hash);
	memcpy(&shed, &bits, sizeof(shed));
	return shed;
}

/*
 * The damping's strength g in a document of words words (see
 * SIMHASH_DAMP_WORDS in weights.h), for RobustWeight.
 */
static inline double
DampStrength(int64 words)
{
	return words >= SIMHASH_DAMP_WORDS ? 1.0 : (double) words / SIMHASH_DAMP_WORDS;
}

/*
 * Version 4's weight of a distinct word of hash hash, total weight weight
 * (version 3's, before the cap) and count occurrences in a document of
 * words words, before the cap: see SIMHASH_WEIGHT_SCALE in weights.h.  The
 * arithmetic is IEEE double in this order (sqrt is correctly rounded), so
 * the reference implementation (test/golden/reference.c) gets the same
 * integer.
 */
static inline int64
RobustWeight(uint64 hash, int64 weight, int64 count, double g)
{
	double		x;

	/*
	 * No branch on the count (a word seen once is as common as one seen
	 * again, so such a branch would be mispredicted often): sqrt(1) = 1, and
	 * 16 w is exact.  Nor on whether the word is damped: a word that is not
	 * sheds 0, and x * (1 - g * 0) is x exactly.
	 */
	x = (double) weight * (likely(count < SQRT_TABLE) ? sqrt_table[count] : sqrt((double) count)) *
		SIMHASH_WEIGHT_SCALE;
	x = x * (1.0 - g * FrequentShare(hash));
	return (int64) (x + 0.5);
}

/* Adds delta to ones[bit] for every bit set in hash. */
static inline void
AddToOnes(int64 *ones, uint64 hash, int64 delta)
{
	for (int bit = 0; bit < SIMHASH_BITS; bit++)
		ones[bit] += delta & -(int64) ((hash >> bit) & 1);
}

/*
 * Adds delta (of any sign) for hash to the per-bit sums held as two
 * counters of 16-bit lanes, pos and neg (WideLaneCounterAdd takes weights
 * up to 65,535): a few SIMD operations instead of AddToOnes' 64 additions.
 * A larger delta (the repeated words of a long document) goes to the
 * counter's 64-bit sums at once: in 65,535-sized steps it cost a lane
 * flush per step.
 */
static inline void
AddCorrection(WideLaneCounter *pos, WideLaneCounter *neg, uint64 hash, int64 delta)
{
	WideLaneCounter *c = delta > 0 ? pos : neg;
	int64		w = delta > 0 ? delta : -delta;

	if (w <= 65535)
		WideLaneCounterAdd(c, hash, w);
	else
		AddToOnes(c->ones, hash, w);
}

/*
 * The corrections of CapTableApplyRobust with AVX-512 (chosen at run time
 * when the CPU has AVX-512F; the sums are exact integers either way, so the
 * fingerprint does not depend on the choice): each changed word adds its
 * difference to 64 counters of 32 bits under a mask of its hash's bits, 4
 * masked additions, flushed to ones before any counter could overflow.
 * Like the ASCII kernels it follows simhash.simd: only `auto` takes it
 * (and `auto` or `avx2` the AVX2 variant below), so the regression tests
 * that compare the simd settings compare these paths with the 16-bit
 * lanes.  Building with -DSIMHASH_NO_SIMD_CORRECTIONS leaves both out.
 */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(SIMHASH_NO_SIMD_CORRECTIONS)
#define HAVE_CORRECTIONS_SIMD 1
#include <immintrin.h>

/*
 * Code for CPUs with AVX-512F, and whether this one has it.  (A test that
 * emulates the instructions in portable C, test/fuzz/avx512emu, defines
 * both: no target attribute, so that the compiler emits no AVX-512
 * instruction of its own, and a CPU that has AVX-512F.)
 */
#ifndef AVX512F_TARGET
#define AVX512F_TARGET __attribute__((target("avx512f")))
#define CPU_HAS_AVX512F() __builtin_cpu_supports("avx512f")
#endif

static int	cpu_has_avx512f = -1;

static AVX512F_TARGET void
CorrectionsAvx512(const uint64 *hash, const int64 *delta, int32 n, int64 *ones)
{
	__m512i		acc0 = _mm512_setzero_si512(),
				acc1 = _mm512_setzero_si512(),
				acc2 = _mm512_setzero_si512(),
				acc3 = _mm512_setzero_si512();
	int64		pending = 0;	/* sum of the |delta| in the counters */
	int32		lanes[64];

	for (int32 k = 0; k <= n; k++)
	{
		int64		d = k < n ? delta[k] : 0;
		int64		a = d < 0 ? -d : d;

		if (k == n || pending + a > PG_INT32_MAX)
		{
			_mm512_storeu_si512(lanes, acc0);
			_mm512_storeu_si512(lanes + 16, acc1);
			_mm512_storeu_si512(lanes + 32, acc2);
			_mm512_storeu_si512(lanes + 48, acc3);
			for (int bit = 0; bit < SIMHASH_BITS; bit++)
				ones[bit] += lanes[bit];
			acc0 = acc1 = acc2 = acc3 = _mm512_setzero_si512();
			pending = 0;
			if (k == n)
				break;
		}
		if (a > PG_INT32_MAX)
		{
			AddToOnes(ones, hash[k], d);
			continue;
		}
		{
			__m512i		v = _mm512_set1_epi32((int32) d);
			uint64		h = hash[k];

			acc0 = _mm512_mask_add_epi32(acc0, (__mmask16) h, acc0, v);
			acc1 = _mm512_mask_add_epi32(acc1, (__mmask16) (h >> 16), acc1, v);
			acc2 = _mm512_mask_add_epi32(acc2, (__mmask16) (h >> 32), acc2, v);
			acc3 = _mm512_mask_add_epi32(acc3, (__mmask16) (h >> 48), acc3, v);
			pending += a;
		}
	}
}

/*
 * The same corrections with AVX2 (simhash.simd = auto or avx2 on a CPU
 * without AVX-512F): 64 counters of 32 bits in eight vectors, counter
 * 8 * j + l in lane l of vector j; a changed word's difference goes into
 * the lanes whose bit of the hash, moved up to the lane's sign bit, is set:
 * per vector a variable shift of the hash's half (by 31 - 8 * (j % 4) - l
 * in lane l, four shift vectors), an addition and a blend that keeps the
 * sum where that bit is set (three instructions; a blend of zero and the
 * difference, which GCC turns into a compare and an and, then added, took
 * four, and a shift right by 8 * (j % 4) before one shift vector a fifth).
 * The eight counters are named variables, not an array, so that they stay
 * in registers (an earlier version with an array of them had GCC keep them
 * on the stack: a load and a store per vector and word); two of the shift
 * vectors are read from memory by the shifts themselves.  Flushed like
 * CorrectionsAvx512.
 */
static int	cpu_has_avx2 = -1;

__attribute__((target("avx2")))
static void
CorrectionsAvx2(const uint64 *hash, const int64 *delta, int32 n, int64 *ones)
{
	__m256i		acc0,
				acc1,
				acc2,
				acc3,
				acc4,
				acc5,
				acc6,
				acc7;
	int64		pending = 0;	/* sum of the |delta| in the counters */

	/* shift of lane l of vector j % 4: bit 8 * (j % 4) + l of the half to bit 31 */
	const __m256i shift0 = _mm256_setr_epi32(31, 30, 29, 28, 27, 26, 25, 24);
	const __m256i shift1 = _mm256_setr_epi32(23, 22, 21, 20, 19, 18, 17, 16);
	const __m256i shift2 = _mm256_setr_epi32(15, 14, 13, 12, 11, 10, 9, 8);
	const __m256i shift3 = _mm256_setr_epi32(7, 6, 5, 4, 3, 2, 1, 0);

	acc0 = acc1 = acc2 = acc3 = acc4 = acc5 = acc6 = acc7 = _mm256_setzero_si256();
	for (int32 k = 0; k <= n; k++)
	{
		int64		d = k < n ? delta[k] : 0;
		int64		a = d < 0 ? -d : d;

		if (k == n || pending + a > PG_INT32_MAX)
		{
			/* counters 8 j .. 8 j + 7, widened to 64 bits, added to ones */
#define FLUSH(acc, j) \
			do { \
				__m256i    *o = (__m256i *) (ones + 8 * (j)); \
				_mm256_storeu_si256(o, _mm256_add_epi64(_mm256_loadu_si256(o), \
					_mm256_cvtepi32_epi64(_mm256_castsi256_si128(acc)))); \
				_mm256_storeu_si256(o + 1, _mm256_add_epi64(_mm256_loadu_si256(o + 1), \
					_mm256_cvtepi32_epi64(_mm256_extracti128_si256(acc, 1)))); \
			} while (0)
			FLUSH(acc0, 0);
			FLUSH(acc1, 1);
			FLUSH(acc2, 2);
			FLUSH(acc3, 3);
			FLUSH(acc4, 4);
			FLUSH(acc5, 5);
			FLUSH(acc6, 6);
			FLUSH(acc7, 7);
#undef FLUSH
			acc0 = acc1 = acc2 = acc3 = acc4 = acc5 = acc6 = acc7 = _mm256_setzero_si256();
			pending = 0;
			if (k == n)
				break;
		}
		if (a > PG_INT32_MAX)
		{
			AddToOnes(ones, hash[k], d);
			continue;
		}
		{
			__m256i		v = _mm256_set1_epi32((int32) d);
			__m256i		lo = _mm256_set1_epi32((int32) (uint32) hash[k]);
			__m256i		hi = _mm256_set1_epi32((int32) (uint32) (hash[k] >> 32));

#define CORRECT(acc, half, shift) \
			acc = _mm256_castps_si256(_mm256_blendv_ps(_mm256_castsi256_ps(acc), \
				_mm256_castsi256_ps(_mm256_add_epi32(acc, v)), \
				_mm256_castsi256_ps(_mm256_sllv_epi32(half, shift))))
			CORRECT(acc0, lo, shift0);
			CORRECT(acc1, lo, shift1);
			CORRECT(acc2, lo, shift2);
			CORRECT(acc3, lo, shift3);
			CORRECT(acc4, hi, shift0);
			CORRECT(acc5, hi, shift1);
			CORRECT(acc6, hi, shift2);
			CORRECT(acc7, hi, shift3);
#undef CORRECT
			pending += a;
		}
	}
}

/*
 * LaneCounterResult's bits with AVX2: bit b set when 2 * ones[b] > total
 * (64-bit, wrapping like the scalar code), four bits per comparison.
 */
__attribute__((target("avx2")))
static uint64
MajorityAvx2(const int64 *ones, int64 total)
{
	const __m256i t = _mm256_set1_epi64x(total);
	uint64		fp = 0;

	for (int bit = 0; bit < SIMHASH_BITS; bit += 4)
	{
		__m256i		v = _mm256_loadu_si256((const __m256i *) (ones + bit));
		__m256i		gt = _mm256_cmpgt_epi64(_mm256_add_epi64(v, v), t);

		fp |= (uint64) _mm256_movemask_pd(_mm256_castsi256_pd(gt)) << bit;
	}
	return fp;
}
#endif

/*
 * The backend's buffer for CapTableApplyRobust's members whose weight may
 * change, for the members of a table up to the retained size and the
 * damped words (allocated once, like the table): their hashes, then their
 * scaled version 3 weights, then their differences; larger tables take one
 * from the call's memory context.
 */
static uint64 *retained_changed = NULL;

static uint64 *
ChangedBuffer(int32 members)
{
	const int32 room = CAP_TABLE_RETAINED / 2 + FREQUENT_SLOTS / 2;

	if (members > room)
		return palloc(sizeof(uint64) * 3 * members);
	if (retained_changed == NULL)
		retained_changed = MemoryContextAlloc(TopMemoryContext,
											  sizeof(uint64) * 3 * room);
	return retained_changed;
}

/* The slot of the member of hash hash in t, or -1. */
static inline int64
CapTableFind(CapTable *t, uint64 hash)
{
	uint32		i = (uint32) hash & t->mask;

	while (t->entries[i].tally != 0)
	{
		if (t->entries[i].hash == hash)
			return i;
		i = (i + 1) & t->mask;
	}
	return -1;
}

/*
 * Below this many members, CapTableApplyRobust finds the damped words in
 * its pass over the members (a filter test each) instead of looking each
 * damped word up in the table (a probe each, and a branch as unpredictable
 * as whether the word occurs).  At 512 the pages of the near-duplicate
 * benchmark (175 members in English, 271 in Chinese) take the filter:
 * 22-24 fewer mispredicted branches per page than the probes (cachegrind).
 */
#define FILTER_MEMBERS 512

/*
 * The damped words seen once in t, looked up: their hash, version 3 weight
 * and occurrences (1) written to hashes, scaled and delta; returns how many.
 */
static inline int32
CapTableDampedOnce(CapTable *t, uint64 *hashes, int64 *scaled, int64 *delta)
{
	int32		n = 0;

	for (int k = 0; k < ndamped; k++)
	{
		int64		slot = CapTableFind(t, damped[k]);
		int64		weight,
					count;

		if (slot < 0)
			continue;
		CapTableTotals(t, (uint32) slot, &weight, &count);
		if (count == 1)
		{
			hashes[n] = damped[k];
			scaled[n] = weight;
			delta[n] = 1;
			n++;
		}
	}
	return n;
}

/*
 * CapTableApplyRobust's pass over the members of t (with no spill): writes
 * the hash, version 3 weight and occurrences of each member seen more than
 * once, or (filtered, for a table of few members) passing the frequency
 * list's filter (all the damped words seen once, and a few others, whose
 * weight RobustWeight leaves as it is), to hashes, scaled and delta,
 * clears the members' entries, and returns how many it wrote.
 */
static pg_attribute_always_inline int32
CapTableMembers(CapTable *t, uint64 *hashes, int64 *scaled, int64 *delta,
				bool filtered)
{
	int32		n = 0;

	for (int32 k = 0; k < t->members; k++)
	{
		CapEntry   *e = &t->entries[t->used[k]];
		uint64		tally = e->tally;
		uint64		hash = e->hash;
		int64		count = (int64) (tally & CAP_COUNT_MASK);
		uint32		f = (uint32) (hash >> 52);

		hashes[n] = hash;
		scaled[n] = (int64) (tally >> CAP_COUNT_BITS);
		delta[n] = count;
		n += (count > 1) | (filtered && frequent_index[f] != 0);
		*e = (CapEntry) {0, 0};
	}
	return n;
}

/*
 * Version 8's pass over every member of t (with no spill, with typical):
 * writes each one's hash, version 3 weight scaled by SIMHASH_WEIGHT_SCALE,
 * RobustWeight and occurrences to hashes, scaled, robust and counts, adds
 * the occurrences, the largest robust weight and the robust weights' excess
 * over the scaled ones to *occurrences, *heaviest and *sum, and clears the
 * members' entries: CapTableMembers and the loop after it in one pass.
 */
static void
CapTableMembersRobust(CapTable *t, double g, uint64 *hashes, int64 *scaled,
					  int64 *robust, int64 *counts, int64 *occurrences,
					  int64 *heaviest, int64 *sum)
{
	int64		occ = 0,
				top = *heaviest,
				excess = 0;

	for (int32 k = 0; k < t->members; k++)
	{
		CapEntry   *e = &t->entries[t->used[k]];
		uint64		tally = e->tally;
		uint64		hash = e->hash;
		int64		count = (int64) (tally & CAP_COUNT_MASK);
		int64		weight = (int64) (tally >> CAP_COUNT_BITS);
		int64		r = RobustWeight(hash, weight, count, g);

		hashes[k] = hash;
		scaled[k] = weight * SIMHASH_WEIGHT_SCALE;
		robust[k] = r;
		counts[k] = count;
		occ += count;
		top = Max(top, r);
		excess += r - weight * SIMHASH_WEIGHT_SCALE;
		*e = (CapEntry) {0, 0};
	}
	*occurrences += occ;
	*heaviest = top;
	*sum += excess;
}

/*
 * CapTableApply for version 4's weighting (WeigherRobust), where ones and
 * total are the per-bit sums of version 3's weights before the cap: scales
 * them by SIMHASH_WEIGHT_SCALE, replaces the weight of every member of t by
 * its RobustWeight, and caps.  A member seen once and not damped keeps its
 * scaled weight, which is never above the cap (its floor is the largest
 * weight of one occurrence, scaled), so only the damped words seen once
 * (looked up, or in a table of few members passed by the frequency list's
 * filter) and the members seen more than once (gathered in one pass that
 * clears the entries, with no branch: a word seen once is as common as one
 * seen again) are weighed again; they add their difference through
 * AVX-512 masked additions, AVX2 blends or 16-bit lanes.  The document's
 * word count comes from t->words.  Each member's correction is scaled by
 * ramp / RAMP_SPAN (version 6's blend; RAMP_SPAN: the whole correction).
 * With typical (version 8) and a blend above 0, every member is weighed
 * again, for the typical word's weight (TypicalCap); the words seen once
 * and not damped keep theirs, which is never above that cap either.  t is
 * used up.
 */
void
CapTableApplyRobust(CapTable *t, Weighting weighting, int64 *ones, int64 *total,
					int64 ramp, bool proportional, bool typical)
{
	int32		members = t->members;
	uint64	   *buffer = ChangedBuffer(members + ndamped);
	uint64	   *hashes = buffer;
	int64	   *scaled = (int64 *) buffer + members + ndamped;
	int64	   *delta = (int64 *) buffer + 2 * (members + ndamped);
	int32		n = 0;
	int64		sum = *total * SIMHASH_WEIGHT_SCALE;
	int64		cap;
	double		g = DampStrength(t->words);
	bool		all = typical && ramp > 0;
	int64	   *counts = NULL;
	int64		occurrences = 0,	/* of the n members */
				heaviest = 0;	/* their largest robust weight */
	bool		weighed = false;	/* scaled and delta final already */

	Assert(t->nrun == 0);
	if (unlikely(!frequent_ready))
		FrequentInit();
	/*
	 * scaled and delta hold the weight and count until RobustWeight.  The
	 * damped words seen once are looked up in t, or, in a table of few
	 * members (a short document), found by the members' pass
	 * (CapTableMembers).
	 */
	if (likely(t->wide == NULL) && all)
	{
		/* every member, weighed again in the same pass */
		counts = palloc(sizeof(int64) * Max(members, 1));
		CapTableMembersRobust(t, g, hashes, scaled, delta, counts,
							  &occurrences, &heaviest, &sum);
		n = members;
		weighed = true;
	}
	else if (likely(t->wide == NULL) && members <= FILTER_MEMBERS)
		n = CapTableMembers(t, hashes, scaled, delta, true);
	else
	{
		/* (with all, every member comes from the spilled table's pass) */
		if (!all)
			n = CapTableDampedOnce(t, hashes, scaled, delta);
		if (likely(t->wide == NULL))
			n += CapTableMembers(t, hashes + n, scaled + n, delta + n, false);
		else
		{
			for (int32 k = 0; k < members; k++)
			{
				CapEntry   *e = &t->entries[t->used[k]];
				int64		weight,
							count;

				CapTableTotals(t, t->used[k], &weight, &count);
				hashes[n] = e->hash;
				scaled[n] = weight;
				delta[n] = count;
				n += (count > 1) | all;
				*e = (CapEntry) {0, 0};
			}
		}
	}
	if (t->retained)
		CapTableGiveBack(t);
	if (!weighed)
	{
		if (all)
		{
			/* the occurrences, for the typical word */
			counts = palloc(sizeof(int64) * Max(n, 1));
			memcpy(counts, delta, sizeof(int64) * n);
		}
		/* delta holds the new weight until the cap is known */
		for (int32 k = 0; k < n; k++)
		{
			int64		robust = RobustWeight(hashes[k], scaled[k], delta[k], g);

			occurrences += delta[k];
			heaviest = Max(heaviest, robust);
			scaled[k] *= SIMHASH_WEIGHT_SCALE;
			delta[k] = robust;
			sum += robust - scaled[k];
		}
	}

	cap = CapOfRobust(weighting, sum, t->words, proportional);
	if (all)
	{
		cap = TypicalCap(delta, counts, n, occurrences, heaviest, cap, RobustCapFloor(weighting));
		pfree(counts);
	}
#if defined(__SSE2__)
	StaticAssertStmt(SIMHASH_WEIGHT_SCALE == 16, "the scale is a shift by 4");
	for (int bit = 0; bit < SIMHASH_BITS; bit += 2)
	{
		__m128i    *o = (__m128i *) (ones + bit);

		_mm_storeu_si128(o, _mm_slli_epi64(_mm_loadu_si128(o), 4));
	}
#else
	for (int bit = 0; bit < SIMHASH_BITS; bit++)
		ones[bit] *= SIMHASH_WEIGHT_SCALE;
#endif
	*total *= SIMHASH_WEIGHT_SCALE;
	if (all)
	{
		/* most members keep their weight: only the others go on */
		int32		changed = 0;

		for (int32 k = 0; k < n; k++)
		{
			int64		d = Min(delta[k], cap) - scaled[k];

			if (ramp < RAMP_SPAN)
				d = RampBlend(d, ramp);
			*total += d;
			hashes[changed] = hashes[k];
			delta[changed] = d;
			changed += d != 0;
		}
		n = changed;
	}
	else
		for (int32 k = 0; k < n; k++)
		{
			delta[k] = Min(delta[k], cap) - scaled[k];
			if (ramp < RAMP_SPAN)
				delta[k] = RampBlend(delta[k], ramp);
			*total += delta[k];
		}
#ifdef HAVE_CORRECTIONS_SIMD
	if (unlikely(cpu_has_avx512f < 0))
		cpu_has_avx512f = CPU_HAS_AVX512F() ? 1 : 0;
	if (unlikely(cpu_has_avx2 < 0))
		cpu_has_avx2 = __builtin_cpu_supports("avx2") ? 1 : 0;
	if (cpu_has_avx512f && simhash_simd == SIMD_AUTO)
		CorrectionsAvx512(hashes, delta, n, ones);
	else if (cpu_has_avx2 && simhash_simd >= SIMD_AVX2)
		CorrectionsAvx2(hashes, delta, n, ones);
	else
#endif
	{
		WideLaneCounter pos,
					neg;

		memset(&pos, 0, sizeof(pos));
		memset(&neg, 0, sizeof(neg));
		for (int32 k = 0; k < n; k++)
			if (delta[k] != 0)
				AddCorrection(&pos, &neg, hashes[k], delta[k]);
		WideLaneCounterFlush(&pos);
		WideLaneCounterFlush(&neg);
		for (int bit = 0; bit < SIMHASH_BITS; bit++)
			ones[bit] += pos.ones[bit] - neg.ones[bit];
	}
	if (buffer != retained_changed)
		pfree(buffer);
}

#ifdef HAVE_CORRECTIONS_SIMD
/*
 * RunCounterClose's lanes with AVX2: two words of the run's byte lanes
 * widened to 16 bits at a time, multiplied by the weight w and added to
 * the 16-bit lanes of c (the same layout); clears run.
 */
__attribute__((target("avx2")))
static void
RunLanesAvx2(uint64 *run, WideLaneCounter *c, int64 w)
{
	__m256i		weight = _mm256_set1_epi16((short) w);

#pragma GCC unroll 4
	for (int k = 0; k < 8; k += 2)
	{
		__m256i		bytes = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *) (run + k)));
		__m256i    *lane = (__m256i *) c->lanes[k];

		_mm256_storeu_si256(lane, _mm256_add_epi16(_mm256_loadu_si256(lane),
												   _mm256_mullo_epi16(bytes, weight)));
	}
	_mm256_storeu_si256((__m256i *) run, _mm256_setzero_si256());
	_mm256_storeu_si256((__m256i *) (run + 4), _mm256_setzero_si256());
}
#endif

/*
 * Adds the count words in run, each with the weight of a run of len words,
 * and clears run.
 */
void
RunCounterClose(RunCounter *rc, int64 count, int64 len)
{
	WideLaneCounter *c = &rc->weighted;
	int64		w = rc->weights[len];

	CapTableRunEnd(&rc->cap, w);
	if (count == 0)
		return;
	if (WideLaneMustFlush(c->pending, count * w))
		WideLaneCounterFlush(c);
#ifdef HAVE_CORRECTIONS_SIMD
	if (rc->avx2)
		RunLanesAvx2(rc->run, c, w);
	else
#endif
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

/*
 * The general path of the weights stage (Weigher): every weighting, with
 * or without introspection, for any features.
 */

/* Table of distinct features, keyed by their 64-bit hash. */
typedef struct FeatureEntry
{
	uint64		hash;
	char		status;
	FeatureStat stat;
} FeatureEntry;

#define SH_PREFIX		featuretab
#define SH_ELEMENT_TYPE FeatureEntry
#define SH_KEY_TYPE		uint64
#define SH_KEY			hash
#define SH_HASH_KEY(tb, key) ((uint32) ((key) ^ ((key) >> 32)))
#define SH_EQUAL(tb, a, b) ((a) == (b))
#define SH_SCOPE		static inline
#define SH_DECLARE
#define SH_DEFINE
#include "lib/simplehash.h"

/*
 * Clears what the runs of single words (fastruns) count in, the run
 * counter: the members of w only the other weightings use (tf, capped,
 * weighted, their lanes' sums: over 3 kB) are left as they are, as
 * WeigherResult reads none of them then, except the two it tests.
 */
static void
WeigherClearFastRuns(Weigher *w)
{
	RunCounter *rc = &w->rc;

	w->tf.lanes.pending = 0;
	w->tf.cap.entries = NULL;
	w->table = NULL;
	w->seq = 0;
	w->runlen = 0;
	w->pending = NULL;
	w->pendingtext = NULL;
	w->pendinglen = NULL;
	w->npending = w->pendingcap = 0;
	memset(rc->run, 0, sizeof(rc->run));
	rc->runlen = 0;
	LaneCounterInit(&rc->capped);
	ZeroBytes(&rc->weighted, sizeof(rc->weighted));
	/* rc->cap: CapTableInit */
}

/*
 * Sets up w (any contents) for features of weighting weighting in a text
 * of about textbytes bytes (a hint for the size of the tables); singlewords
 * says that the features are single words; with introspect, the text of
 * every distinct feature is kept for WeigherStats.  w may hold a reset
 * callback of the current memory context (CapTableInit): it must stay
 * allocated until that context is reset or deleted.
 */
void
WeigherInit(Weigher *w, Weighting weighting, bool introspect, bool singlewords,
			int version, int64 textbytes)
{
	bool		counting = introspect ||
		(weighting != WEIGHTING_TF && weighting != WEIGHTING_RUNS);

	if (weighting == WEIGHTING_RUNS && !counting && singlewords)
		WeigherClearFastRuns(w);
	else
		memset(w, 0, sizeof(*w));
	w->weighting = weighting;
	w->introspect = introspect;
	w->counting = counting;
	w->runs = weighting == WEIGHTING_RUNS;
	w->singlewords = singlewords;
	w->fastruns = w->runs && !w->counting && singlewords;
	w->robust = version >= 4 && singlewords &&
		(weighting == WEIGHTING_RUNS || weighting == WEIGHTING_TF);
	w->lines = version >= 5 && w->robust && w->runs;
	w->ramp = version >= 6 && w->robust;
	w->proportional = version >= 7 && w->robust;
	w->typical = version >= 8 && w->robust;
	if (w->lines)
		RunWeightsV5();
	w->rc.weights = w->lines ? simhash_run_weight_v5[LINE_CLASSES - 1] :
		w->robust ? simhash_run_weight_v4 : simhash_run_weight_v3;
#ifdef HAVE_CORRECTIONS_SIMD
	if (unlikely(cpu_has_avx2 < 0))
		cpu_has_avx2 = __builtin_cpu_supports("avx2") ? 1 : 0;
	w->rc.avx2 = cpu_has_avx2 && simhash_simd >= SIMD_AVX2;
#endif
	/* zeroed: every counter starts at zero; buffers only where used */
	if (w->runs && !w->fastruns)
	{
		w->pendingcap = 64;
		w->pending = palloc(sizeof(uint64) * w->pendingcap);
		w->pendingtext = palloc(sizeof(char *) * w->pendingcap);
		w->pendinglen = palloc(sizeof(int) * w->pendingcap);
	}
	if (w->counting)
		w->table = featuretab_create(CurrentMemoryContext, 1024, NULL);
	else if (w->fastruns)
		CapTableInit(&w->rc.cap, textbytes);
	else
		CapTableInit(&w->tf.cap, textbytes);
	/* textbytes is the text's bytes twice over (versions 4 and later) */
	if (w->ramp && !w->counting && textbytes < 2 * RAMP_DEFER_BYTES)
		CapTableDeferStart(w->fastruns ? &w->rc.cap : &w->tf.cap);
}

/* Weight of a feature before the cap, under a weighting. */
static double
UncappedWeight(Weighting weighting, const FeatureStat *stat)
{
	switch (weighting)
	{
		case WEIGHTING_TF:
			return (double) stat->count;
		case WEIGHTING_BINARY:
			return 1.0;
		case WEIGHTING_LOG:
			return 1.0 + log((double) stat->count);
		case WEIGHTING_RUNS:
			return (double) stat->runweight;
	}
	return 0.0;
}

/*
 * Counts one occurrence of a feature of weight weight (> 1 for runs only:
 * its run's length, which version 4 weighs as simhash_run_weight_v4 says;
 * its single words weighted runs are counted here only with introspection,
 * otherwise by RunCounter).
 */
static inline void
Count(Weigher *w, uint64 hash, int64 weight, const char *feature, int len)
{
	if (likely(!w->counting))
	{
		if (weight == SIMHASH_RUN_CAP && w->runs)
			LaneCounterAdd(&w->capped, hash);
		else if (w->runs)
			WideLaneCounterAdd(&w->weighted, hash, weight);
		else if (weight == 1)
			LaneCounterAdd(&w->tf.lanes, hash);
		else
			LaneCounterAddWeighted(&w->tf.lanes, hash, weight);
		CapTableAdd(&w->tf.cap, hash, weight);
	}
	else
	{
		bool		found;
		FeatureEntry *e = featuretab_insert(w->table, hash, &found);

		if (!found)
		{
			e->stat.hash = hash;
			e->stat.count = 0;
			e->stat.runweight = 0;
			e->stat.first = w->seq;
			e->stat.text = NULL;
			e->stat.textlen = 0;
			if (w->introspect)
			{
				e->stat.text = palloc(len + 1);
				memcpy(e->stat.text, feature, len);
				e->stat.text[len] = '\0';
				e->stat.textlen = len;
			}
		}
		e->stat.count++;
		e->stat.runweight += w->robust && w->runs ? w->rc.weights[weight] : weight;
	}
	w->seq++;
}

/* Counts the features of the current run, each with weight weight. */
static void
FlushPending(Weigher *w, int64 weight)
{
	for (int i = 0; i < w->npending; i++)
	{
		Count(w, w->pending[i], weight, w->pendingtext[i], w->pendinglen[i]);
		if (w->pendingtext[i])
			pfree(w->pendingtext[i]);
	}
	w->npending = 0;
}

/*
 * WeigherAdd but for tf without counting.  Under weighting runs, a feature
 * weighs the length of the run of its (last) token, known only when the
 * run ends or reaches SIMHASH_RUN_CAP tokens; until then it waits in
 * pending.
 */
void
WeigherAddSlow(Weigher *w, uint64 hash, const char *feature, int len)
{
	if (likely(!w->runs))
		Count(w, hash, 1, feature, len);
	else if (w->runlen >= SIMHASH_RUN_CAP)
		Count(w, hash, SIMHASH_RUN_CAP, feature, len);
	else
	{
		if (w->npending == w->pendingcap)
		{
			w->pendingcap *= 2;
			w->pending = repalloc(w->pending, sizeof(uint64) * w->pendingcap);
			w->pendingtext = repalloc(w->pendingtext, sizeof(char *) * w->pendingcap);
			w->pendinglen = repalloc(w->pendinglen, sizeof(int) * w->pendingcap);
		}
		w->pending[w->npending] = hash;
		w->pendingtext[w->npending] = w->introspect ? pnstrdup(feature, len) : NULL;
		w->pendinglen[w->npending] = len;
		w->npending++;
	}
}

/* WeigherToken under weighting runs (but for single words without counting). */
void
WeigherRunToken(Weigher *w, bool newrun)
{
	Assert(w->runs && !w->fastruns);
	if (newrun && w->runlen > 0)
	{
		FlushPending(w, w->runlen);
		w->runlen = 0;
	}
	if (++w->runlen == SIMHASH_RUN_CAP)
		FlushPending(w, SIMHASH_RUN_CAP);
}

/*
 * Version 5: the words that follow lie on lines of multiplier class / 16
 * (the tokenizer tells, at the start of a line): ends the current run,
 * which a line break ended anyway, so that it weighs as its own line says.
 * The words of capped runs counted so far (rc's capped lanes, multiplied
 * by the table's weight of SIMHASH_RUN_CAP only at the end) are added to
 * the per-bit sums with their weight now.
 */
void
WeigherSetLineClass(Weigher *w, int class)
{
	const int16 *weights = simhash_run_weight_v5[class];

	Assert(w->lines && class >= 0 && class < LINE_CLASSES);
	if (w->rc.weights == weights)
		return;
	if (w->fastruns)
	{
		RunCounter *rc = &w->rc;

		RunCounterFinish(rc);
		if (rc->capped.total > 0 || rc->capped.pending > 0)
		{
			int64		capweight = rc->weights[SIMHASH_RUN_CAP];

			LaneCounterFlush(&rc->capped);
			for (int bit = 0; bit < SIMHASH_BITS; bit++)
				rc->weighted.ones[bit] += capweight * rc->capped.ones[bit];
			rc->weighted.total += capweight * rc->capped.total;
			LaneCounterInit(&rc->capped);
		}
	}
	else
	{
		if (w->runlen > 0 && w->runlen < SIMHASH_RUN_CAP)
			FlushPending(w, w->runlen);
		w->runlen = 0;
	}
	w->rc.weights = weights;
}

/* The document ends: ends the last run. */
void
WeigherFinish(Weigher *w)
{
	if (w->fastruns)
		RunCounterFinish(&w->rc);
	else if (w->runs)
	{
		FlushPending(w, Max(w->runlen, 1));
		w->runlen = 0;
	}
}

static int
CompareStatFirst(const void *a, const void *b)
{
	const FeatureStat *x = (const FeatureStat *) a;
	const FeatureStat *y = (const FeatureStat *) b;

	return x->first < y->first ? -1 : (x->first > y->first ? 1 : 0);
}

/* The distinct features, in no particular order. */
static FeatureStat *
CollectStats(Weigher *w, int64 *nstats)
{
	FeatureStat *stats = palloc(sizeof(FeatureStat) * Max(w->table->members, 1));
	featuretab_iterator it;
	FeatureEntry *e;
	int64		n = 0;

	featuretab_start_iterate(w->table, &it);
	while ((e = featuretab_iterate(w->table, &it)) != NULL)
		stats[n++] = e->stat;
	*nstats = n;
	return stats;
}

/*
 * Sets the weight of each of the n distinct features in stats: its weight
 * under the weighting, capped (see CapTable in weights.h).  The cap
 * applies to the first SIMHASH_CAP_FEATURES features in order of first
 * occurrence only, so stats is sorted that way when it has more.  The
 * total of weighting log is summed in hash order, like the fingerprint.
 */
static void
CapStats(Weigher *w, FeatureStat *stats, int64 n)
{
	Weighting	weighting = w->weighting;
	int64		firstuncapped = Min(n, SIMHASH_CAP_FEATURES);

	if (n > SIMHASH_CAP_FEATURES)
		qsort(stats, n, sizeof(FeatureStat), CompareStatFirst);
	if (weighting == WEIGHTING_LOG)
	{
		HashWeight *sorted = palloc(sizeof(HashWeight) * Max(n, 1));
		double		total = 0.0;
		double		cap;

		for (int64 i = 0; i < n; i++)
		{
			sorted[i].hash = stats[i].hash;
			sorted[i].weight = UncappedWeight(weighting, &stats[i]);
		}
		if (n > 1)
			qsort(sorted, n, sizeof(HashWeight), CompareHashWeight);
		for (int64 i = 0; i < n; i++)
			total += sorted[i].weight;
		cap = CapOfLog(total);
		for (int64 i = 0; i < n; i++)
		{
			double		w = UncappedWeight(weighting, &stats[i]);

			stats[i].weight = i < firstuncapped ? Min(w, cap) : w;
		}
		pfree(sorted);
	}
	else if (w->robust)
	{
		/* version 4: see SIMHASH_WEIGHT_SCALE; weights reported unscaled */
		int64	   *robust = palloc(sizeof(int64) * Max(n, 1));
		int64		total = 0;
		int64		words = 0;
		int64		cap;
		int64		ramp;
		double		g;

		if (unlikely(!frequent_ready))
			FrequentInit();
		for (int64 i = 0; i < n; i++)
			words += stats[i].count;
		g = DampStrength(words);
		for (int64 i = 0; i < n; i++)
		{
			int64		w = (int64) UncappedWeight(weighting, &stats[i]);

			robust[i] = i < firstuncapped ?
				RobustWeight(stats[i].hash, w, stats[i].count, g) :
				w * SIMHASH_WEIGHT_SCALE;
			total += robust[i];
		}
		cap = CapOfRobust(weighting, total, words, w->proportional);
		ramp = w->ramp ? RampOf(words) : RAMP_SPAN;
		if (w->typical && ramp > 0)
		{
			/* version 8: the typical word of the capped ones */
			int64	   *counts = palloc(sizeof(int64) * Max(firstuncapped, 1));
			int64		occurrences = 0,
						heaviest = 0;

			for (int64 i = 0; i < firstuncapped; i++)
			{
				counts[i] = stats[i].count;
				occurrences += counts[i];
				heaviest = Max(heaviest, robust[i]);
			}
			cap = TypicalCap(robust, counts, firstuncapped, occurrences, heaviest, cap,
							 RobustCapFloor(weighting));
			pfree(counts);
		}
		for (int64 i = 0; i < n; i++)
		{
			int64		weight = i < firstuncapped ? Min(robust[i], cap) : robust[i];

			if (ramp < RAMP_SPAN)
			{
				int64		linear = (int64) UncappedWeight(weighting, &stats[i]) * SIMHASH_WEIGHT_SCALE;

				weight = linear + RampBlend(weight - linear, ramp);
			}
			stats[i].weight = (double) weight / SIMHASH_WEIGHT_SCALE;
		}
		pfree(robust);
	}
	else
	{
		int64		total = 0;
		int64		cap;

		for (int64 i = 0; i < n; i++)
			total += (int64) UncappedWeight(weighting, &stats[i]);
		cap = CapOf(weighting, total);
		for (int64 i = 0; i < n; i++)
		{
			int64		w = (int64) UncappedWeight(weighting, &stats[i]);

			stats[i].weight = (double) (i < firstuncapped ? Min(w, cap) : w);
		}
	}
}

/*
 * Sets *result to the fingerprint of the features counted (after
 * WeigherFinish).  Returns false when there was none.
 */
bool
WeigherResult(Weigher *w, uint64 *result)
{
	FeatureStat *stats;
	int64		n;
	bool		ok;

	if (!w->counting)
	{
		LaneCounter *lanes = &w->tf.lanes;
		int64		cap;
		/* rc's words of capped runs (w->capped: other features, version 3) */
		int64		capweight = w->rc.weights[SIMHASH_RUN_CAP];

		LaneCounterFlush(&w->rc.capped);
		WideLaneCounterFlush(&w->rc.weighted);
		if (w->fastruns)
		{
			/* rc alone counted (the rest is not cleared: WeigherInit) */
			if (w->rc.capped.total == 0)
				CopyBytes(lanes->ones, w->rc.weighted.ones, sizeof(lanes->ones));
			else
				for (int bit = 0; bit < SIMHASH_BITS; bit++)
					lanes->ones[bit] = capweight * w->rc.capped.ones[bit] +
						w->rc.weighted.ones[bit];
			lanes->total = capweight * w->rc.capped.total + w->rc.weighted.total;
		}
		else
		{
			LaneCounterFlush(lanes);
			LaneCounterFlush(&w->capped);
			WideLaneCounterFlush(&w->weighted);
			for (int bit = 0; bit < SIMHASH_BITS; bit++)
				lanes->ones[bit] += SIMHASH_RUN_CAP * w->capped.ones[bit] +
					w->weighted.ones[bit] +
					capweight * w->rc.capped.ones[bit] +
					w->rc.weighted.ones[bit];
			lanes->total += SIMHASH_RUN_CAP * w->capped.total + w->weighted.total +
				capweight * w->rc.capped.total + w->rc.weighted.total;
		}
		/* one of the two tables holds the totals; the other is unused */
		if (w->robust)
		{
			CapTable   *rt = w->rc.cap.entries ? &w->rc.cap : &w->tf.cap;

			if (rt->defer)
			{
				/* version 6, fewer than RAMP_FROM words: the linear weights */
				Assert(rt->members == 0);
				if (rt->retained)
					CapTableGiveBack(rt);
			}
			else
				CapTableApplyRobust(rt, w->weighting, lanes->ones, &lanes->total,
									w->ramp ? RampOf(rt->words) : RAMP_SPAN,
									w->proportional, w->typical);
#ifdef HAVE_CORRECTIONS_SIMD
			/* lanes is flushed (pending 0): LaneCounterResult's bits */
			if (cpu_has_avx2 && simhash_simd >= SIMD_AVX2)
			{
				Assert(lanes->pending == 0);
				if (lanes->total == 0)
					return false;
				*result = MajorityAvx2(lanes->ones, lanes->total);
				return true;
			}
#endif
			return LaneCounterResult(lanes, result);
		}
		cap = CapOf(w->weighting, lanes->total);
		if (w->rc.cap.entries)
			CapTableApply(&w->rc.cap, cap, lanes->ones, &lanes->total);
		if (w->tf.cap.entries)
			CapTableApply(&w->tf.cap, cap, lanes->ones, &lanes->total);
		return LaneCounterResult(lanes, result);
	}

	stats = CollectStats(w, &n);
	CapStats(w, stats, n);
	if (w->weighting == WEIGHTING_LOG)
	{
		HashWeight *pairs = palloc(sizeof(HashWeight) * Max(n, 1));

		for (int64 i = 0; i < n; i++)
		{
			pairs[i].hash = stats[i].hash;
			pairs[i].weight = stats[i].weight;
		}
		ok = FingerprintWeightedPairs(pairs, n, result);
		pfree(pairs);
	}
	else
	{
		/* integer weights: exact, so the order does not matter */
		LaneCounter lanes;

		LaneCounterInit(&lanes);
		for (int64 i = 0; i < n; i++)
		{
			if (w->robust)
			{
				int64		g = (int64) (stats[i].weight * SIMHASH_WEIGHT_SCALE);

				AddToOnes(lanes.ones, stats[i].hash, g);
				lanes.total += g;
			}
			else
				LaneCounterAddWeighted(&lanes, stats[i].hash, (int64) stats[i].weight);
		}
		ok = LaneCounterResult(&lanes, result);
	}
	pfree(stats);
	return ok;
}

/*
 * The distinct features, in order of first occurrence, with their capped
 * weights (after WeigherFinish); needs introspect.
 */
FeatureStat *
WeigherStats(Weigher *w, int64 *nstats)
{
	FeatureStat *stats;

	Assert(w->introspect);
	stats = CollectStats(w, nstats);
	qsort(stats, *nstats, sizeof(FeatureStat), CompareStatFirst);
	CapStats(w, stats, *nstats);
	return stats;
}
