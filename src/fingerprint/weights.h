/*
 * fingerprint/weights.h
 *	  Weighting: each feature's weight (runs, tf) and the weight cap, feeding the lanes (weights.c).
 */
#ifndef SIMHASH_FP_WEIGHTS_H
#define SIMHASH_FP_WEIGHTS_H

#include "fingerprint/options.h"
#include "fingerprint/lanes.h"
#include "fingerprint/lines.h"

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

/*
 * Algorithm version 4's weighting of single words weighted runs or tf
 * (weights.c, WeigherRobust): each distinct word of the first
 * SIMHASH_CAP_FEATURES weighs
 *		R = round(SIMHASH_WEIGHT_SCALE * w * sqrt(occurrences) * d)
 * before the cap, where w is its total weight (under runs the sum of the
 * weights of its occurrences' runs, simhash_run_weight_v4 below; under tf
 * its occurrences) and d = 1, or for a word of the built-in frequency list
 * (frequent_words.c), of share s of its language's words and damping share
 * t (parts per million; t is SIMHASH_DAMP_PPM_EN for English words,
 * SIMHASH_DAMP_PPM_ZH for Chinese characters, and s >= t),
 *		d = 1 - g * (1 - t / s),
 *		g = min(1, N / SIMHASH_DAMP_WORDS),
 * N the number of words of the document (occurrences): a long document is
 * damped fully (d = t / s: the word weighs as if its share were t), a short
 * one less, as the pull of the words every text shares grows with the
 * length.  A Chinese character is a smaller unit than an English word, and
 * damping the characters of 0.2 % or more lost Chinese recall
 * (doc/benchmarks.md), hence the two shares.  Words past the first
 * SIMHASH_CAP_FEATURES weigh SIMHASH_WEIGHT_SCALE * w.  The cap is then
 * CapOfRobust's (see SIMHASH_CAP_WORDS) on these weights.
 */
#define SIMHASH_WEIGHT_SCALE 16
#define SIMHASH_DAMP_PPM_EN 3000
#define SIMHASH_DAMP_PPM_ZH 10000
#define SIMHASH_DAMP_WORDS 1000

/*
 * Version 4's weight of one occurrence under weighting runs, for a run of
 * L words (1 to SIMHASH_RUN_CAP, longer runs count SIMHASH_RUN_CAP):
 *		simhash_run_weight_v4[L] = floor(L * sqrt(L) / 2.0 + 0.5)
 * (IEEE double in that order), 1 for L = 1 up to 256 for L = 64, instead
 * of L under version 3: short runs (ads, navigation, meta lines, a
 * template's short sentences) weigh less against a body's long sentences.
 * At most 256 (63 words of one run must fit a 16-bit lane at once,
 * RunCounterClose; and the lanes are flushed every 65,535 units of weight,
 * so the scale sets how often: with 2 L sqrt(L), up to 1,024, the flushes
 * cost Chinese text 11 % more instructions).  simhash_run_weight_v3[L] = L.
 */
#define SIMHASH_RUN_WEIGHT_MAX 256
extern const int16 simhash_run_weight_v4[SIMHASH_RUN_CAP + 1];
extern const int16 simhash_run_weight_v3[SIMHASH_RUN_CAP + 1];

/*
 * Version 5 weighs an occurrence also by its line's length (lines.h): on a
 * line of multiplier m / 16 (m from 0 to 16), a run of L words weighs
 *		simhash_run_weight_v5[m][L] = max(1, floor((simhash_run_weight_v4[L] * m + 8) / 16))
 * so that words on lines shorter than the document's typical line (ads,
 * navigation, meta lines) weigh less, in proportion.  Everything else is
 * version 4's (the cap's floor too).
 */
extern int16 simhash_run_weight_v5[LINE_CLASSES][SIMHASH_RUN_CAP + 1];

/*
 * Version 4's cap shrinks with the length of long documents: with N the
 * document's words and W its total weight (in sixteenths),
 *		cap = max(ceil(9 * W / 200), floor)							N <= SIMHASH_CAP_WORDS
 *		cap = max(ceil(9.0 * W / 200.0 * sqrt(SIMHASH_CAP_WORDS / N)), floor)	longer
 * (IEEE double in that order, SIMHASH_CAP_WORDS / N a double division),
 * floor = SIMHASH_WEIGHT_SCALE * simhash_run_weight_v4[SIMHASH_RUN_CAP]
 * under runs (one occurrence is never capped), SIMHASH_WEIGHT_SCALE under
 * tf.  On long documents the few words that repeat most (a manual page's
 * own name and topic) otherwise pulled unrelated pages of one subject
 * within a few bits.
 */
#define SIMHASH_CAP_WORDS 10000

/*
 * Algorithm version 7 tightens the cap from SIMHASH_CAP_WORDS_V7 words on
 * (the word count where version 6's blend reaches version 5's weights), in
 * proportion to the length instead of its square root:
 *		cap = max(ceil(9 * W / 200), floor)						N <= SIMHASH_CAP_WORDS_V7
 *		cap = max(ceil(63 * W / N), floor)						longer
 * (integers: 63 = 9 / 200 * 1400, so the two agree at N = 1,400).  Past
 * 1,400 words no word weighs more than 63 occurrences of average weight.
 * The words a genre repeats everywhere (a release note's "has been
 * upgraded from version", a changelog's sign-offs) otherwise weighed up to
 * 4.5 % each of documents of many thousand words and pulled unrelated
 * documents of the genre within 3 bits (doc/benchmarks.md).  Shorter
 * documents are version 6's.
 */
#define SIMHASH_CAP_WORDS_V7 1400
extern int64 CapOfRobust(Weighting weighting, int64 total, int64 words, bool proportional);

/*
 * Algorithm version 8 also caps every word at SIMHASH_TYPICAL_CAP times the
 * document's typical word: with m the median of the capped weights counted
 * once per occurrence (the smallest weight m such that the occurrences of
 * the words weighing m or less are at least half of all; the first
 * SIMHASH_CAP_FEATURES distinct words),
 *		cap = min(cap, max(SIMHASH_TYPICAL_CAP * m, floor))
 * (floor as above: one occurrence is never capped).  Pages of identifiers
 * (a library's index of names, class hierarchies, a header's reference
 * page) repeat a handful of words ("class", "module", "define") hundreds of
 * times their median word, each under version 7's cap; together they held
 * most of the squared weight, and unrelated pages of one library landed
 * within 3 bits (doc/benchmarks.md).  Only documents of 700 words or more
 * see it (version 6's blend).
 */
#define SIMHASH_TYPICAL_CAP 16
extern int64 TypicalCap(const int64 *weight, const int64 *count, int64 n, int64 total,
						int64 heaviest, int64 cap, int64 least);

/*
 * A word of the built-in frequency list: its share of its language's words
 * and the share it is damped to, parts per million (ppm >= damp_ppm).
 */
typedef struct FrequentWord
{
	const char *word;
	int32		ppm;
	int32		damp_ppm;
} FrequentWord;

/* frequent_words.c (generated by bench/frequent_words.py) */
extern const FrequentWord simhash_frequent_words[];
extern const int simhash_nfrequent_words;


/*
 * One distinct feature's total weight and occurrences, packed in one word
 * so that an occurrence adds both with one addition (CAP_TALLY) and an
 * entry takes 16 bytes, four to a cache line:
 *		tally = weight << CAP_COUNT_BITS | occurrences
 * tally 0 marks an empty entry.  The occurrences field holds fewer than
 * 2^CAP_COUNT_BITS occurrences (and the weight field at most
 * SIMHASH_RUN_WEIGHT_MAX times as much): every CAP_SPILL_WORDS occurrences
 * added to the table, CapTableSpill moves what its members' tallies hold
 * beyond one occurrence into 64-bit totals (wide), which only texts of
 * millions of words need.  CapTableTotals reads both.
 */
#ifndef CAP_COUNT_BITS			/* a test build may set fewer */
#define CAP_COUNT_BITS	24
#endif
#define CAP_COUNT_MASK	((UINT64CONST(1) << CAP_COUNT_BITS) - 1)
#define CAP_TALLY(w)	(((uint64) (w) << CAP_COUNT_BITS) + 1)
/* occurrences between two spills: a run of SIMHASH_RUN_CAP words fits */
#define CAP_SPILL_WORDS ((int64) CAP_COUNT_MASK - SIMHASH_RUN_CAP)

StaticAssertDecl(CAP_COUNT_BITS > 7 && CAP_COUNT_BITS <= 28,
				 "a tally's fields must hold CAP_SPILL_WORDS occurrences");

typedef struct CapEntry
{
	uint64		hash;
	uint64		tally;
} CapEntry;

/* Totals of a member moved out of its tally by CapTableSpill. */
typedef struct CapWide
{
	int64		weight;
	int64		count;
} CapWide;

/* A word kept back from a CapTable, with its weight (CapTableDefer) */
typedef struct DeferredWord
{
	uint64		hash;
	int64		w;
} DeferredWord;

/*
 * Open-addressing table (linear probing, at most half full) of the total
 * weights of a document's distinct features, for the integer weightings
 * counted in lanes (runs, tf).  Entry mask + 1, after the last slot,
 * absorbs the features past SIMHASH_CAP_FEATURES (its tally is never
 * read).  used lists the slots of the members, so that the end of a call
 * touches only those.  Under weighting runs a word's weight is known only
 * when its run ends: CapTableAddRunWord keeps its hash in run, and
 * CapTableRunEnd adds the run's words with their weight, in order (so the
 * members' order of first occurrence is the text's).
 *
 * The entries are, when free, the backend's retained table (zero outside a
 * call, so no call allocates or clears one; see CapTableInit), otherwise
 * memory of the call's context; either way aligned to a cache line.
 */
typedef struct CapTable
{
	CapEntry   *entries;		/* mask + 2 entries */
	void	   *entriesmem;		/* their allocation (not retained) */
	uint32	   *used;			/* slots of the members, in insertion order
								 * (room for limit) */
	uint32		mask;
	int32		members;
	int32		limit;			/* members that fit before CapTableAddFull */
	bool		retained;		/* entries are the backend's retained table */
	int32		nrun;			/* hashes in run */
	int64		words;			/* occurrences added (members or not) */
	int64		spillat;		/* CapTableSpill before words passes this */
	CapWide    *wide;			/* by slot, mask + 1 of them; NULL until
								 * the first spill */
	uint64		run[SIMHASH_RUN_CAP];	/* hashes of the current run's words */
	/*
	 * gives back the retained table: allocated in the call's context at each
	 * registration, never part of t, whose memory a later call may reuse
	 * before that context is reset (FeatureExtractorCreate)
	 */
	MemoryContextCallback *release;
	/*
	 * version 6: while defer, the words go to deferred (CapTableDefer), the
	 * first words of them
	 */
	bool		defer;
	DeferredWord *deferred;		/* room for RAMP_FROM */
} CapTable;

/*
 * Version 6: a document of fewer than RAMP_FROM words weighs each word
 * linearly (the sum of its occurrences' weights, no cap); from RAMP_FROM +
 * RAMP_SPAN words on, as version 5; between, a word's version 5 weight
 * moves from its linear one by ramp / RAMP_SPAN of the difference, ramp =
 * words - RAMP_FROM.
 */
#define RAMP_FROM 700
#define RAMP_SPAN 700
/*
 * A text of this many bytes or more (6 kB: about 1,000 English words, 2,000
 * Chinese characters) skips the deferral: nearly all of them reach
 * RAMP_FROM words, and replaying the list would only add its cost.  Either
 * way the table ends the same.
 */
#define RAMP_DEFER_BYTES 6144

/* The share ramp / RAMP_SPAN of difference d, rounded half away from 0 */
static inline int64
RampBlend(int64 d, int64 ramp)
{
	int64		x = d * ramp;

	return (x + (x >= 0 ? RAMP_SPAN / 2 : -(RAMP_SPAN / 2))) / RAMP_SPAN;
}

static inline int64
RampOf(int64 words)
{
	return Min(Max(words - RAMP_FROM, 0), RAMP_SPAN);
}
extern void CapTableDeferStart(CapTable *t);
extern void CapTableReplay(CapTable *t);

/*
 * Keeps n words of weight w in the deferred list while the document has
 * fewer than RAMP_FROM words (true); else replays the list into the table
 * and stops deferring (false: the caller adds the words).
 */
static pg_attribute_always_inline bool
CapTableDefer(CapTable *t, const uint64 *hash, int32 n, int64 w)
{
	if (t->words + n < RAMP_FROM)
	{
		/* through a local pointer: the stores cannot alias t's fields then */
		DeferredWord *d = t->deferred + t->words;
		int32		k = 0;

		StaticAssertStmt(sizeof(DeferredWord) == 16, "a deferred word is two 64-bit words");
#if defined(__SSE2__)
		{
			__m128i		wv = _mm_set1_epi64x(w);

			/* two words at a time: (hash, w) pairs from two hashes */
			for (; k + 2 <= n; k += 2)
			{
				__m128i		h = _mm_loadu_si128((const __m128i *) (hash + k));

				_mm_storeu_si128((__m128i *) (d + k), _mm_unpacklo_epi64(h, wv));
				_mm_storeu_si128((__m128i *) (d + k + 1), _mm_unpackhi_epi64(h, wv));
			}
		}
#endif
		for (; k < n; k++)
			d[k] = (DeferredWord) {hash[k], w};
		t->words += n;
		return true;
	}
	CapTableReplay(t);
	return false;
}

extern void CapTableInit(CapTable *t, int64 textbytes);
extern void CapTableSpill(CapTable *t);
extern int64 CapOf(Weighting weighting, int64 total);
extern void CapTableApply(CapTable *t, int64 cap, int64 *ones, int64 *total);
extern void CapTableApplyRobust(CapTable *t, Weighting weighting, int64 *ones,
								int64 *total, int64 ramp, bool proportional,
								bool typical);
extern double CapOfLog(double total);

/*
 * Adds an occurrence of tally inc (CAP_TALLY of its weight w >= 1) to the
 * feature of hash hash, when the table has room for one more member
 * (members < limit).  Branch-light: the probe stops at the feature's entry
 * or at an empty one, and a new member differs from an existing one only
 * in data (the slot is written to used[members] either way, and members
 * counts it only if the entry was empty), so the unpredictable
 * new-or-seen decision costs no branch.
 */
static pg_attribute_always_inline void
CapTableAddRoom(CapEntry *entries, uint32 mask, uint32 *used, int64 *members,
				uint64 hash, uint64 inc)
{
	/* the slot as a byte offset: an entry's address is one addition */
	const uint64 offmask = (uint64) mask * sizeof(CapEntry);
	uint64		off = (hash * sizeof(CapEntry)) & offmask;
	CapEntry   *e;
	uint64		old;

	StaticAssertStmt(sizeof(CapEntry) == 16, "a slot is 16 bytes");

	/*
	 * Go on while the entry is neither empty nor the feature's: while
	 * min(tally, hash difference) != 0 (both unsigned).  GCC makes that
	 * a conditional move and one branch, nearly always not taken at this
	 * load; written with && or &, it made two, one of them as unpredictable
	 * as new-or-seen.
	 */
	for (;;)
	{
		uint64		diff;

		e = (CapEntry *) ((char *) entries + off);
		old = e->tally;
		diff = e->hash ^ hash;
		if (Min(old, diff) == 0)
			break;
		off = (off + sizeof(CapEntry)) & offmask;
	}
	used[*members] = (uint32) (off / sizeof(CapEntry));
	*members += old == 0;
	e->hash = hash;
	/*
	 * Two 8-byte stores, not one 16-byte store (which GCC would make of
	 * them): the next probe of this entry, often a few words later, loads
	 * the tally alone, and a load from the upper half of a wider store
	 * waits until the store is written instead of being forwarded from it.
	 */
	__asm__("" : : "r"(e) : "memory");
	e->tally = old + inc;
}

extern void CapTableAddFull(CapTable *t, uint64 hash, int64 w);

/* Adds w >= 1 to the total of the feature of hash hash. */
static pg_attribute_always_inline void
CapTableAdd(CapTable *t, uint64 hash, int64 w)
{
	int64		members;

	if (t->defer && CapTableDefer(t, &hash, 1, w))
		return;
	members = t->members;

	if (unlikely(t->words >= t->spillat))
		CapTableSpill(t);
	t->words++;
	if (likely(members < t->limit))
	{
		CapTableAddRoom(t->entries, t->mask, t->used, &members, hash, CAP_TALLY(w));
		t->members = (int32) members;
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
 * n words of one run, hash[0..n), each of weight w, in order (see
 * CapTableRunEnd).  The room for them is checked once: if they may not all
 * fit, they are added one by one (CapTableAdd grows the table or
 * overflows).
 */
static pg_attribute_always_inline void
CapTableAddRun(CapTable *t, const uint64 *hash, int32 n, int64 w)
{
	if (t->defer && CapTableDefer(t, hash, n, w))
		return;
	if (unlikely(t->words >= t->spillat))
		CapTableSpill(t);
	if (likely(t->members + n <= t->limit))
	{
		CapEntry   *entries = t->entries;
		uint32		mask = t->mask;
		uint32	   *used = t->used;
		int64		members = t->members;
		uint64		inc = CAP_TALLY(w);

		for (int k = 0; k < n; k++)
			CapTableAddRoom(entries, mask, used, &members, hash[k], inc);
		t->members = (int32) members;
		t->words += n;
	}
	else
		for (int k = 0; k < n; k++)
			CapTableAdd(t, hash[k], w);
}

/* The current run ended with weight w: each of its words weighs w. */
static inline void
CapTableRunEnd(CapTable *t, int64 w)
{
	int32		n = t->nrun;

	t->nrun = 0;
	CapTableAddRun(t, t->run, n, w);
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
 * on, words weigh that of SIMHASH_RUN_CAP and are counted once each in
 * capped (multiplied at the end).  weights gives the weight of a run's
 * length: the length itself under version 3 (see SIMHASH_RUN_WEIGHT_MAX).
 * Integer sums are exact, so this gives the same per-bit sums as counting
 * every word with its weight one by one.
 */
typedef struct RunCounter
{
	uint64		run[8];			/* byte lanes of the current run's words */
	int64		runlen;			/* words in the current run */
	const int16 *weights;		/* weight of an occurrence by run length:
								 * simhash_run_weight_v3 or _v4 */
	bool		avx2;			/* RunCounterClose with AVX2 (simhash.simd) */
	LaneCounter capped;			/* words of weight SIMHASH_RUN_CAP */
	WideLaneCounter weighted;	/* words of shorter runs, with their weight */
	CapTable	cap;			/* each word's total weight */
} RunCounter;

/*
 * Adds the count words in run, each with the weight of a run of len words
 * (rc->weights[len]), and clears run; ends the run in the cap table too.
 */
extern void RunCounterClose(RunCounter *rc, int64 count, int64 len);

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
		CapTableAdd(&rc->cap, hash, rc->weights[SIMHASH_RUN_CAP]);
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
 *	  to the lanes itself (and to its length); or RunCounterRunSlots(rc, n),
 *	  where the caller then writes their hashes;
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

/*
 * RunCounterAddToRun for a caller that writes the n hashes itself (a short
 * stretch, where copying them as they are counted costs less than a call
 * to memcpy): where they go.
 */
static pg_attribute_always_inline uint64 *
RunCounterRunSlots(RunCounter *rc, int32 n)
{
	uint64	   *slots = rc->cap.run + rc->cap.nrun;

	rc->cap.nrun += n;
	return slots;
}

static pg_attribute_always_inline void
RunCounterEndRun(RunCounter *rc)
{
	Assert(rc->runlen < SIMHASH_RUN_CAP);
	RunCounterClose(rc, rc->runlen, rc->runlen);
	rc->runlen = 0;
}

/*
 * For a caller that also keeps the 16-bit lanes of rc's weighted words in
 * registers (the AVX2 kernel): where they are (8 words of 8 lanes, the
 * layout of WideLaneCounter) and the weight they hold since their last
 * flush, each to be written back before any other call on rc; and what
 * RunCounterClose does besides adding the run's lanes to them:
 *	- RunCounterRunWeight(rc, len): the weight of each word of a run of len
 *	  words (0 < len < SIMHASH_RUN_CAP);
 *	- RunCounterFlushWide(rc): when WideLaneMustFlush says so (as in
 *	  RunCounterClose), after the lanes and their pending weight are written
 *	  back; the lanes are zero after;
 *	- RunCounterEndRunCap(rc, w): the run's words into the cap table with
 *	  weight w (the caller clears its copy of the run's lanes and length);
 *	  RunCounterWholeRunCap for a run whose words are all known at once.
 */
static pg_attribute_always_inline uint16 *
RunCounterWideLanes(RunCounter *rc)
{
	return &rc->weighted.lanes[0][0];
}

static pg_attribute_always_inline int64
RunCounterWidePending(const RunCounter *rc)
{
	return rc->weighted.pending;
}

static pg_attribute_always_inline void
RunCounterSetWidePending(RunCounter *rc, int64 pending)
{
	rc->weighted.pending = pending;
}

static pg_attribute_always_inline int64
RunCounterRunWeight(const RunCounter *rc, int64 len)
{
	return rc->weights[len];
}

static inline void
RunCounterFlushWide(RunCounter *rc)
{
	WideLaneCounterFlush(&rc->weighted);
}

static pg_attribute_always_inline void
RunCounterEndRunCap(RunCounter *rc, int64 w)
{
	CapTableRunEnd(&rc->cap, w);
}

/*
 * A whole run of n words, hash[0..n), while no run is open (the current
 * run's length is 0): the cap table's part of adding them and ending the
 * run with weight w (RunCounterEndRunCap), straight from the caller's
 * hashes; the caller adds their bits to the lanes and closes them itself.
 */
static pg_attribute_always_inline void
RunCounterWholeRunCap(RunCounter *rc, const uint64 *hash, int32 n, int64 w)
{
	Assert(rc->cap.nrun == 0);
	CapTableAddRun(&rc->cap, hash, n, w);
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
	bool		robust;			/* version 4's weighting (see
								 * SIMHASH_WEIGHT_SCALE) */
	bool		lines;			/* version 5's line weights (runs only) */
	bool		ramp;			/* version 6: version 4's weights blended in
								 * by the word count (RampBlend) */
	bool		proportional;	/* version 7: the cap proportional to the
								 * length past SIMHASH_CAP_WORDS_V7 words */
	bool		typical;		/* version 8: the cap of SIMHASH_TYPICAL_CAP
								 * typical words too */
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
						bool singlewords, int version, int64 textbytes);
extern void WeigherAddSlow(Weigher *w, uint64 hash, const char *feature, int len);
extern void WeigherRunToken(Weigher *w, bool newrun);
extern void WeigherSetLineClass(Weigher *w, int class);
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
