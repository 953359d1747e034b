/*
 * fingerprint/weights.h
 *	  Weighting: each feature's weight (runs, tf) and the weight cap, feeding the lanes (weights.c).
 */
#ifndef SIMHASH_FP_WEIGHTS_H
#define SIMHASH_FP_WEIGHTS_H

#include "fingerprint/options.h"
#include "fingerprint/lanes.h"

/*
 * The weight cap of algorithm version 3 (weights.c): a distinct
 * feature (by its 64-bit hash) whose total weight in a document exceeds
 *		cap = max(ceil(9 * W / 200), M)
 * weighs cap instead, where W is the sum of the weights of all the
 * document's features, M = SIMHASH_RUN_CAP under weighting runs (a feature
 * that occurs once is never capped) and 1 under tf and binary; under log,
 * cap = max(0.045 * W, 1) in double arithmetic.  At most 22 features exceed
 * it.  Only the first SIMHASH_CAP_FEATURES distinct features of a document,
 * in order of first occurrence, are capped: features first seen after that
 * many others keep their weight, so the table of totals stays bounded.
 * The bring-your-own-features functions and simhash_agg are not capped.
 */
#define SIMHASH_CAP_FEATURES 65536

/* One distinct feature's total weight; weight 0 marks an empty entry. */
typedef struct CapEntry
{
	uint64		hash;
	int64		weight;
} CapEntry;

/*
 * Open-addressing table (linear probing, at most half full) of the total
 * weights of a document's distinct features, for the integer weightings
 * counted in lanes (runs, tf).  Entry mask + 1, after the last slot,
 * absorbs the features past SIMHASH_CAP_FEATURES.  used lists the slots of
 * the members, so that the end of a call touches only those.  Under
 * weighting runs a word's weight is known only when its run ends:
 * CapTableAddRunWord keeps its hash in run, and CapTableRunEnd adds the
 * run's words with their weight, in order (so the members' order of first
 * occurrence is the text's).
 *
 * The entries are, when free, the backend's retained table (zero outside a
 * call, so no call allocates or clears one; see CapTableInit), otherwise
 * memory of the call's context.
 */
typedef struct CapTable
{
	CapEntry   *entries;		/* mask + 2 entries */
	uint32	   *used;			/* slots of the members, in insertion order
								 * (room for limit) */
	uint32		mask;
	int32		members;
	int32		limit;			/* members that fit before CapTableAddFull */
	bool		retained;		/* entries are the backend's retained table */
	int32		nrun;			/* hashes in run */
	uint64		run[SIMHASH_RUN_CAP];	/* hashes of the current run's words */
	MemoryContextCallback release;	/* gives back the retained table */
} CapTable;

extern void CapTableInit(CapTable *t, int64 textbytes);
extern int64 CapOf(Weighting weighting, int64 total);
extern void CapTableApply(CapTable *t, int64 cap, int64 *ones, int64 *total);
extern double CapOfLog(double total);

/*
 * Adds w >= 1 to the total of the feature of hash hash, when the table has
 * room for one more member (members < limit).  Branch-light: the probe
 * stops at the feature's entry or at an empty one, and a new member differs
 * from an existing one only in data (the slot is written to used[members]
 * either way, and members counts it only if the entry was empty), so the
 * unpredictable new-or-seen decision costs no branch.
 */
static pg_attribute_always_inline void
CapTableAddRoom(CapEntry *entries, uint32 mask, uint32 *used, int32 *members,
				uint64 hash, int64 w)
{
	uint32		i = (uint32) hash & mask;
	int64		old;

	/*
	 * Go on while the entry is neither empty nor the feature's: while
	 * min(weight, hash difference) != 0 (both unsigned).  GCC makes that
	 * a conditional move and one branch, nearly always not taken at this
	 * load; written with && or &, it made two, one of them as unpredictable
	 * as new-or-seen.
	 */
	for (;;)
	{
		uint64		diff;

		old = entries[i].weight;
		diff = entries[i].hash ^ hash;
		if (Min((uint64) old, diff) == 0)
			break;
		i = (i + 1) & mask;
	}
	used[*members] = i;
	*members += old == 0;
	entries[i].hash = hash;
	entries[i].weight = old + w;
}

extern void CapTableAddFull(CapTable *t, uint64 hash, int64 w);

/* Adds w >= 1 to the total of the feature of hash hash. */
static pg_attribute_always_inline void
CapTableAdd(CapTable *t, uint64 hash, int64 w)
{
	int32		members = t->members;

	if (likely(members < t->limit))
	{
		CapTableAddRoom(t->entries, t->mask, t->used, &members, hash, w);
		t->members = members;
	}
	else
		CapTableAddFull(t, hash, w);
}

/* A word of a run shorter than SIMHASH_RUN_CAP so far: added at its end. */
static pg_attribute_always_inline void
CapTableAddRunWord(CapTable *t, uint64 hash)
{
	t->run[t->nrun++] = hash;
}

/* n words of a run shorter than SIMHASH_RUN_CAP so far, in order. */
static pg_attribute_always_inline void
CapTableAddRunWords(CapTable *t, const uint64 *hash, int32 n)
{
	memcpy(t->run + t->nrun, hash, n * sizeof(uint64));
	t->nrun += n;
}

/*
 * The current run ended with weight w: each of its words weighs w.  The
 * room for the run's words is checked once: if they may not all fit, they
 * are added one by one (CapTableAdd grows the table or overflows).
 */
static inline void
CapTableRunEnd(CapTable *t, int64 w)
{
	int32		n = t->nrun;

	t->nrun = 0;
	if (likely(t->members + n <= t->limit))
	{
		CapEntry   *entries = t->entries;
		uint32		mask = t->mask;
		uint32	   *used = t->used;
		int32		members = t->members;

		for (int k = 0; k < n; k++)
			CapTableAddRoom(entries, mask, used, &members, t->run[k], w);
		t->members = members;
	}
	else
		for (int k = 0; k < n; k++)
			CapTableAdd(t, t->run[k], w);
}

/* Words weighted tf: the lanes and each word's total (see CapTable). */
typedef struct TfCounter
{
	LaneCounter lanes;
	CapTable	cap;
} TfCounter;

static pg_attribute_always_inline void
TfCounterAdd(TfCounter *tf, uint64 hash)
{
	LaneCounterAdd(&tf->lanes, hash);
	CapTableAdd(&tf->cap, hash, 1);
}

/*
 * Weighting runs for single words, counted without remembering the words
 * of the current run: while a run is shorter than SIMHASH_RUN_CAP, its
 * words go into byte lanes of their own (at most 63 additions, so no byte
 * overflows); when the run ends, those lanes are multiplied by the run's
 * length and added to the 16-bit lanes in one go.  From the capped length
 * on, words weigh SIMHASH_RUN_CAP and are counted once each in capped
 * (multiplied at the end).  Integer sums are exact, so this gives the same
 * per-bit sums as counting every word with its weight one by one.
 */
typedef struct RunCounter
{
	uint64		run[8];			/* byte lanes of the current run's words */
	int64		runlen;			/* words in the current run */
	LaneCounter capped;			/* words of weight SIMHASH_RUN_CAP */
	WideLaneCounter weighted;	/* words of shorter runs, with their weight */
	CapTable	cap;			/* each word's total weight */
} RunCounter;

/*
 * Adds the count words in run, each with weight w, and clears run; ends
 * the run in the cap table too.
 */
extern void RunCounterClose(RunCounter *rc, int64 count, int64 w);

/*
 * One word of hash hash; newrun says that a run break stood between it and
 * the previous word.
 */
static pg_attribute_always_inline void
RunCounterAdd(RunCounter *rc, uint64 hash, bool newrun)
{
	const uint64 spread = UINT64CONST(0x0101010101010101);

	if (newrun && rc->runlen > 0)
	{
		if (rc->runlen < SIMHASH_RUN_CAP)
			RunCounterClose(rc, rc->runlen, rc->runlen);
		rc->runlen = 0;
	}
	if (++rc->runlen < SIMHASH_RUN_CAP)
	{
#if defined(__SSE2__)
		/* lanes k and k + 1 side by side: hash >> k, hash >> (k + 1) */
		__m128i		h = _mm_set_epi64x((int64) (hash >> 1), (int64) hash);
		__m128i		m = _mm_set1_epi64x((int64) spread);
		__m128i    *run = (__m128i *) rc->run;

		_mm_storeu_si128(run, _mm_add_epi64(_mm_loadu_si128(run), _mm_and_si128(h, m)));
		_mm_storeu_si128(run + 1, _mm_add_epi64(_mm_loadu_si128(run + 1),
												_mm_and_si128(_mm_srli_epi64(h, 2), m)));
		_mm_storeu_si128(run + 2, _mm_add_epi64(_mm_loadu_si128(run + 2),
												_mm_and_si128(_mm_srli_epi64(h, 4), m)));
		_mm_storeu_si128(run + 3, _mm_add_epi64(_mm_loadu_si128(run + 3),
												_mm_and_si128(_mm_srli_epi64(h, 6), m)));
#else
		for (int k = 0; k < 8; k++)
			rc->run[k] += (hash >> k) & spread;
#endif
		CapTableAddRunWord(&rc->cap, hash);
	}
	else
	{
		if (rc->runlen == SIMHASH_RUN_CAP)
			RunCounterClose(rc, SIMHASH_RUN_CAP - 1, SIMHASH_RUN_CAP);
		CapTableAdd(&rc->cap, hash, SIMHASH_RUN_CAP);
		LaneCounterAdd(&rc->capped, hash);
	}
}

/*
 * The fused path of the tokenizer's SIMD kernels, which hash the words of
 * the default options themselves and add them a stretch of one run at a
 * time, holding the current run in registers meanwhile.  Together these
 * do what RunCounterAdd does for each word:
 *	- RunCounterRunLanes(rc): the current run's byte lanes, 8 words of 64
 *	  bits (word k, byte b counts bit 8 * b + k of the words' hashes, at
 *	  most 63 each), and RunCounterRunLength(rc) its length in words.  A
 *	  caller that keeps copies writes both back (RunCounterSetRunLength)
 *	  before any other call on rc;
 *	- RunCounterAddToRun(rc, hash, n): n more words of the current run,
 *	  which stays shorter than SIMHASH_RUN_CAP; the caller adds their bits
 *	  to the lanes itself (and to its length);
 *	- RunCounterEndRun(rc): a run break after a run shorter than
 *	  SIMHASH_RUN_CAP, whose lanes and length are written back; the lanes
 *	  are zero afterwards.
 * A word that makes the run SIMHASH_RUN_CAP words long, or longer, goes
 * through RunCounterAdd, as does a run break after such a run.
 */
static pg_attribute_always_inline uint64 *
RunCounterRunLanes(RunCounter *rc)
{
	return rc->run;
}

static pg_attribute_always_inline int64
RunCounterRunLength(const RunCounter *rc)
{
	return rc->runlen;
}

static pg_attribute_always_inline void
RunCounterSetRunLength(RunCounter *rc, int64 runlen)
{
	rc->runlen = runlen;
}

static pg_attribute_always_inline void
RunCounterAddToRun(RunCounter *rc, const uint64 *hash, int32 n)
{
	CapTableAddRunWords(&rc->cap, hash, n);
}

static pg_attribute_always_inline void
RunCounterEndRun(RunCounter *rc)
{
	Assert(rc->runlen < SIMHASH_RUN_CAP);
	RunCounterClose(rc, rc->runlen, rc->runlen);
	rc->runlen = 0;
}

/* Ends the last run. */
static inline void
RunCounterFinish(RunCounter *rc)
{
	if (rc->runlen > 0 && rc->runlen < SIMHASH_RUN_CAP)
		RunCounterClose(rc, rc->runlen, rc->runlen);
	rc->runlen = 0;
}

/*
 * One distinct feature of a document, for weighting and introspection
 * (weighting binary and log, simhash_features).
 */
typedef struct FeatureStat
{
	uint64		hash;
	int64		count;			/* occurrences */
	int64		runweight;		/* sum of the run weights of the occurrences */
	int64		first;			/* sequence number of the first occurrence */
	double		weight;			/* its weight, capped (WeigherStats) */
	char	   *text;			/* the feature (introspection only) */
	int			textlen;
} FeatureStat;

/*
 * The weights stage of one document (weights.c): each occurrence of a
 * feature, by its hash, is weighted and counted here.
 *	  - tf and runs, without introspection, count in lanes as the features
 *		come, and keep each feature's total in a CapTable for the cap;
 *		single words weighted runs go to rc (RunCounter), which needs no
 *		memory of the run, other features weighted runs wait in pending
 *		until their run's length is known;
 *	  - binary, log and introspection keep a table of the distinct
 *		features (FeatureStat) and weigh them at the end.
 * The features stage tells it where the tokens' runs break
 * (WeigherToken); the fused path of the tokenizer adds single words
 * straight to rc or tf (WeigherRunCounter, WeigherTfCounter).
 */
typedef struct Weigher
{
	Weighting	weighting;
	bool		counting;		/* the table of distinct features needed? */
	bool		introspect;		/* keep the text of each feature? */
	bool		runs;			/* weighting runs */
	bool		singlewords;	/* the features are single words */
	bool		fastruns;		/* runs of single words without counting:
								 * counted by rc as they come */
	TfCounter	tf;				/* tf and runs without counting; its cap
								 * table serves both */
	LaneCounter capped;			/* runs: features of weight SIMHASH_RUN_CAP,
								 * counted once each (multiplied at the end) */
	WideLaneCounter weighted;	/* runs: features of other weights */
	RunCounter	rc;
	struct featuretab_hash *table;	/* counting */
	int64		seq;			/* features counted so far */

	/* weighting runs: the current run and its features not yet counted */
	int64		runlen;			/* tokens in the current run */
	uint64	   *pending;		/* hashes of its features (while short) */
	char	  **pendingtext;	/* and their text (introspection) */
	int		   *pendinglen;
	int			npending;
	int			pendingcap;
} Weigher;

extern void WeigherInit(Weigher *w, Weighting weighting, bool introspect,
						bool singlewords, int64 textbytes);
extern void WeigherAddSlow(Weigher *w, uint64 hash, const char *feature, int len);
extern void WeigherRunToken(Weigher *w, bool newrun);
extern void WeigherFinish(Weigher *w);
extern bool WeigherResult(Weigher *w, uint64 *result);
extern FeatureStat *WeigherStats(Weigher *w, int64 *nstats);

/*
 * One occurrence of the feature feature[0..len) of hash hash (the text is
 * read only with introspection).  Under weighting runs, WeigherToken must
 * have been told of the token the feature ends with.
 */
static inline void
WeigherAdd(Weigher *w, uint64 hash, const char *feature, int len)
{
	if (likely(!w->runs && !w->counting))
	{
		TfCounterAdd(&w->tf, hash);
		w->seq++;
	}
	else if (w->runs && w->runlen < SIMHASH_RUN_CAP && !w->introspect &&
			 w->npending < w->pendingcap)
	{
		/* waits for its run's length (WeigherAddSlow) */
		w->pending[w->npending] = hash;
		w->pendingtext[w->npending] = NULL;
		w->pendinglen[w->npending] = len;
		w->npending++;
	}
	else
		WeigherAddSlow(w, hash, feature, len);
}

/*
 * The next token, with newrun if a run break stood before it; its features
 * follow.  (Needed only by weighting runs.)
 */
static inline void
WeigherToken(Weigher *w, bool newrun)
{
	if (!w->runs)
		return;
	/* inline unless the run ends or reaches the cap (WeigherRunToken) */
	if (!(newrun && w->runlen > 0) && w->runlen + 1 != SIMHASH_RUN_CAP)
		w->runlen++;
	else
		WeigherRunToken(w, newrun);
}

/*
 * The run counter that single words may be added to directly (hash and
 * run break: RunCounterAdd, or the fused path), or NULL when the
 * features need more.
 */
static inline RunCounter *
WeigherRunCounter(Weigher *w)
{
	return w->fastruns ? &w->rc : NULL;
}

/*
 * The counter that single words of weighting tf may be added to directly
 * (their hash, with TfCounterAdd), or NULL when the features need more.
 */
static inline TfCounter *
WeigherTfCounter(Weigher *w)
{
	return w->singlewords && !w->counting && w->weighting == WEIGHTING_TF ? &w->tf : NULL;
}

#endif							/* SIMHASH_FP_WEIGHTS_H */
