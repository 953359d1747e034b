/*
 * fingerprint/features.c
 *	  From kept tokens to weighted feature hashes: words, word shingles and
 *	  character n-grams.
 *
 * Features (algorithm version 3):
 *	  - words: each kept token;
 *	  - shingles of n words: each run of n consecutive kept tokens, joined by
 *		one space;
 *	  - character n-grams: each run of n consecutive code points of the
 *		stream of kept tokens, where one space stands for whatever separated
 *		two tokens that were not adjacent in the normalized text (spaces,
 *		punctuation, dropped tokens).  Tokens that ICU found adjacent, as
 *		words of a Chinese sentence are, are joined without a space, so the
 *		n-grams do not depend on where the dictionary put word boundaries.
 *	  A document with fewer than n tokens (code points) has one feature: all
 *	  of them.
 *	  The hash of a feature is XXH3-64 (seed 0) of its UTF-8 bytes, so
 *	  `xxhsum -H3` reproduces it, and simhash(text[]) of the features gives
 *	  the same fingerprint as the text.
 *
 * Weights: runs (the default) counts every occurrence with the length of
 * the run of text its token belongs to, at most SIMHASH_RUN_CAP words; a run
 * ends at a line break, a sentence terminator, a symbol such as | or ·, or
 * any other character that does not continue a sentence (see RunBreakSlow
 * in tokenizer_icu.c).  Prose sits in long runs; navigation, meta lines
 * ("2024-05-01 · 1,234 views"), footers and other page furniture sit in
 * short ones, so a page's template weighs less than its body: the benchmark
 * (README) measured the gain on mirrored pages.  tf counts every occurrence
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
 */
#include "fingerprint/features.h"

#include <math.h>

#include "lib/stringinfo.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

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

struct FeatureExtractor
{
	FingerprintOptions opts;
	bool		counting;		/* distinct features needed? */
	bool		introspect;		/* keep the text of each feature? */
	TfCounter	tf;				/* tf and runs without counting; its cap
								 * table serves both */
	LaneCounter capped;			/* runs: features of weight SIMHASH_RUN_CAP,
								 * counted once each (multiplied at the end) */
	WideLaneCounter weighted;	/* runs: features of other weights */
	bool		fastruns;		/* runs of single words, no introspection:
								 * counted by rc as they come */
	RunCounter	rc;
	featuretab_hash *table;		/* counting */
	int64		seq;			/* features emitted so far */

	/* shingles: the last n tokens, as a ring */
	StringInfoData ring[SIMHASH_MAX_N];
	int64		ntokens;

	/* character n-grams: the last n code points (UTF-8), as a ring */
	char		cp[SIMHASH_MAX_N][4];
	uint8		cplen[SIMHASH_MAX_N];
	int64		ncp;

	StringInfoData buf;			/* a feature being assembled */

	/* weighting runs: the current run and its features not yet counted */
	bool		runs;
	int64		runlen;			/* tokens in the current run */
	uint64	   *pending;		/* hashes of its features (while short) */
	char	  **pendingtext;	/* and their text (introspection) */
	int		   *pendinglen;
	int			npending;
	int			pendingcap;
};

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
 * Creates an extractor in the current memory context for a text of about
 * textbytes bytes (a hint for the size of the tables).  With introspect,
 * the text of every distinct feature is kept for FeatureExtractorStats.
 * The extractor may hold a reset callback of that context (CapTableInit):
 * it must stay allocated until the context is reset or deleted (no pfree).
 */
FeatureExtractor *
FeatureExtractorCreate(const FingerprintOptions *opts, bool introspect,
					   int64 textbytes)
{
	FeatureExtractor *fx = palloc0(sizeof(FeatureExtractor));

	fx->opts = *opts;
	fx->introspect = introspect;
	fx->counting = introspect ||
		(opts->weighting != WEIGHTING_TF && opts->weighting != WEIGHTING_RUNS);
	fx->runs = opts->weighting == WEIGHTING_RUNS;
	fx->fastruns = fx->runs && !fx->counting &&
		opts->kind != FEATURES_CHARS && opts->n == 1;
	/* palloc0: every counter starts at zero; buffers only where used */
	if (fx->runs && !fx->fastruns)
	{
		fx->pendingcap = 64;
		fx->pending = palloc(sizeof(uint64) * fx->pendingcap);
		fx->pendingtext = palloc(sizeof(char *) * fx->pendingcap);
		fx->pendinglen = palloc(sizeof(int) * fx->pendingcap);
	}
	if (fx->counting)
		fx->table = featuretab_create(CurrentMemoryContext, 1024, NULL);
	else if (fx->fastruns)
		CapTableInit(&fx->rc.cap, textbytes);
	else
		CapTableInit(&fx->tf.cap, textbytes);
	if (opts->kind != FEATURES_CHARS && opts->n > 1)
	{
		/* shingles: the ring of tokens and the shingle being assembled */
		for (int i = 0; i < opts->n; i++)
			initStringInfo(&fx->ring[i]);
		initStringInfo(&fx->buf);
	}
	return fx;
}

/* Counts one occurrence of a feature of weight w (w > 1 for runs only). */
static inline void
Count(FeatureExtractor *fx, uint64 hash, int64 w, const char *feature, int len)
{
	if (likely(!fx->counting))
	{
		if (w == SIMHASH_RUN_CAP && fx->runs)
			LaneCounterAdd(&fx->capped, hash);
		else if (fx->runs)
			WideLaneCounterAdd(&fx->weighted, hash, w);
		else if (w == 1)
			LaneCounterAdd(&fx->tf.lanes, hash);
		else
			LaneCounterAddWeighted(&fx->tf.lanes, hash, w);
		CapTableAdd(&fx->tf.cap, hash, w);
	}
	else
	{
		bool		found;
		FeatureEntry *e = featuretab_insert(fx->table, hash, &found);

		if (!found)
		{
			e->stat.hash = hash;
			e->stat.count = 0;
			e->stat.runweight = 0;
			e->stat.first = fx->seq;
			e->stat.text = NULL;
			e->stat.textlen = 0;
			if (fx->introspect)
			{
				e->stat.text = palloc(len + 1);
				memcpy(e->stat.text, feature, len);
				e->stat.text[len] = '\0';
				e->stat.textlen = len;
			}
		}
		e->stat.count++;
		e->stat.runweight += w;
	}
	fx->seq++;
}

/* Counts the features of the current run, each with weight w. */
static void
FlushPending(FeatureExtractor *fx, int64 w)
{
	for (int i = 0; i < fx->npending; i++)
	{
		Count(fx, fx->pending[i], w, fx->pendingtext[i], fx->pendinglen[i]);
		if (fx->pendingtext[i])
			pfree(fx->pendingtext[i]);
	}
	fx->npending = 0;
}

/*
 * One occurrence of a feature.  Under weighting runs, a feature weighs the
 * length of the run of its (last) token, known only when the run ends or
 * reaches SIMHASH_RUN_CAP tokens; until then it waits in pending.
 */
static inline void
Emit(FeatureExtractor *fx, const char *feature, int len)
{
	uint64		hash = XXH3_64bits(feature, len);

	if (likely(!fx->runs))
		Count(fx, hash, 1, feature, len);
	else if (fx->runlen >= SIMHASH_RUN_CAP)
		Count(fx, hash, SIMHASH_RUN_CAP, feature, len);
	else
	{
		if (fx->npending == fx->pendingcap)
		{
			fx->pendingcap *= 2;
			fx->pending = repalloc(fx->pending, sizeof(uint64) * fx->pendingcap);
			fx->pendingtext = repalloc(fx->pendingtext, sizeof(char *) * fx->pendingcap);
			fx->pendinglen = repalloc(fx->pendinglen, sizeof(int) * fx->pendingcap);
		}
		fx->pending[fx->npending] = hash;
		fx->pendingtext[fx->npending] = fx->introspect ? pnstrdup(feature, len) : NULL;
		fx->pendinglen[fx->npending] = len;
		fx->npending++;
	}
}

/* Emits the shingle of the tokens in the ring, oldest first. */
static void
EmitShingle(FeatureExtractor *fx, int count)
{
	int			n = fx->opts.n;

	resetStringInfo(&fx->buf);
	for (int i = 0; i < count; i++)
	{
		StringInfo t = &fx->ring[(fx->ntokens - count + i) % n];

		if (i > 0)
			appendStringInfoChar(&fx->buf, ' ');
		appendBinaryStringInfo(&fx->buf, t->data, t->len);
	}
	Emit(fx, fx->buf.data, fx->buf.len);
}

/* Emits the n-gram of the code points in the ring, oldest first. */
static void
EmitNgram(FeatureExtractor *fx, int count)
{
	char		gram[SIMHASH_MAX_N * 4];
	int			len = 0;
	int			n = fx->opts.n;

	for (int i = 0; i < count; i++)
	{
		int			slot = (fx->ncp - count + i) % n;

		memcpy(gram + len, fx->cp[slot], fx->cplen[slot]);
		len += fx->cplen[slot];
	}
	Emit(fx, gram, len);
}

static inline void
PushCodePoint(FeatureExtractor *fx, const char *cp, int len)
{
	int			slot = fx->ncp % fx->opts.n;

	memcpy(fx->cp[slot], cp, len);
	fx->cplen[slot] = len;
	fx->ncp++;
	if (fx->ncp >= fx->opts.n)
		EmitNgram(fx, fx->opts.n);
}

/* Length of the UTF-8 sequence led by byte c (1 for invalid bytes). */
static inline int
Utf8Len(unsigned char c)
{
	if (c < 0xC0)
		return 1;
	if (c < 0xE0)
		return 2;
	if (c < 0xF0)
		return 3;
	return 4;
}

/*
 * Adds one kept token (normalized UTF-8).  gap says that something stood
 * between it and the previous kept token; it matters to character n-grams
 * only.  newrun says that a line or sentence break, or a symbol, stood
 * between them; it matters to weighting runs only.
 */
void
FeatureExtractorAddToken(FeatureExtractor *fx, const char *token, int len,
						 bool gap, bool newrun)
{
	if (fx->fastruns)
	{
		RunCounterAdd(&fx->rc, XXH3_64bits(token, len), newrun);
		return;
	}
	if (fx->runs)
	{
		if (newrun && fx->runlen > 0)
		{
			FlushPending(fx, fx->runlen);
			fx->runlen = 0;
		}
		if (++fx->runlen == SIMHASH_RUN_CAP)
			FlushPending(fx, SIMHASH_RUN_CAP);
	}
	if (fx->opts.kind == FEATURES_CHARS)
	{
		if (gap && fx->ncp > 0)
			PushCodePoint(fx, " ", 1);
		for (int i = 0; i < len;)
		{
			int			l = Utf8Len((unsigned char) token[i]);

			if (i + l > len)
				l = len - i;
			PushCodePoint(fx, token + i, l);
			i += l;
		}
	}
	else if (fx->opts.n == 1)
		Emit(fx, token, len);
	else
	{
		StringInfo slot = &fx->ring[fx->ntokens % fx->opts.n];

		resetStringInfo(slot);
		appendBinaryStringInfo(slot, token, len);
		fx->ntokens++;
		if (fx->ntokens >= fx->opts.n)
			EmitShingle(fx, fx->opts.n);
	}
}

/* Emits the single feature of a document shorter than n. */
static void
FinishShort(FeatureExtractor *fx)
{
	if (fx->opts.kind == FEATURES_CHARS)
	{
		if (fx->ncp > 0 && fx->ncp < fx->opts.n)
			EmitNgram(fx, (int) fx->ncp);
	}
	else if (fx->opts.n > 1 && fx->ntokens > 0 && fx->ntokens < fx->opts.n)
		EmitShingle(fx, (int) fx->ntokens);
	fx->ncp = fx->ntokens = 0;
	if (fx->fastruns)
		RunCounterFinish(&fx->rc);
	else if (fx->runs)
	{
		FlushPending(fx, Max(fx->runlen, 1));
		fx->runlen = 0;
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
CollectStats(FeatureExtractor *fx, int64 *nstats)
{
	FeatureStat *stats = palloc(sizeof(FeatureStat) * Max(fx->table->members, 1));
	featuretab_iterator it;
	FeatureEntry *e;
	int64		n = 0;

	featuretab_start_iterate(fx->table, &it);
	while ((e = featuretab_iterate(fx->table, &it)) != NULL)
		stats[n++] = e->stat;
	*nstats = n;
	return stats;
}

/*
 * The run counter that single words may be added to directly (hash and
 * run break, instead of FeatureExtractorAddToken), or NULL when the options
 * need the tokens themselves.
 */
RunCounter *
FeatureExtractorRunCounter(FeatureExtractor *fx)
{
	return fx->fastruns ? &fx->rc : NULL;
}

/*
 * The counter that single words of weighting tf may be added to directly
 * (their hash, with TfCounterAdd), or NULL when the options need more.
 */
TfCounter *
FeatureExtractorTfCounter(FeatureExtractor *fx)
{
	if (fx->counting || fx->opts.weighting != WEIGHTING_TF ||
		fx->opts.kind == FEATURES_CHARS || fx->opts.n != 1)
		return NULL;
	return &fx->tf;
}

/*
 * Sets the weight of each of the n distinct features in stats: its weight
 * under the weighting, capped (see CapTable in weights.h).  The cap
 * applies to the first SIMHASH_CAP_FEATURES features in order of first
 * occurrence only, so stats is sorted that way when it has more.  The
 * total of weighting log is summed in hash order, like the fingerprint.
 */
static void
CapStats(FeatureExtractor *fx, FeatureStat *stats, int64 n)
{
	Weighting	weighting = fx->opts.weighting;
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
 * Sets *result to the fingerprint of the document whose tokens were added.
 * Returns false when it had no feature.
 */
bool
FeatureExtractorResult(FeatureExtractor *fx, uint64 *result)
{
	FeatureStat *stats;
	int64		n;
	bool		ok;

	FinishShort(fx);
	if (!fx->counting)
	{
		LaneCounter *lanes = &fx->tf.lanes;
		int64		cap;

		LaneCounterFlush(lanes);
		LaneCounterFlush(&fx->capped);
		WideLaneCounterFlush(&fx->weighted);
		LaneCounterFlush(&fx->rc.capped);
		WideLaneCounterFlush(&fx->rc.weighted);
		for (int bit = 0; bit < SIMHASH_BITS; bit++)
			lanes->ones[bit] += SIMHASH_RUN_CAP * fx->capped.ones[bit] +
				fx->weighted.ones[bit] +
				SIMHASH_RUN_CAP * fx->rc.capped.ones[bit] +
				fx->rc.weighted.ones[bit];
		lanes->total += SIMHASH_RUN_CAP * fx->capped.total + fx->weighted.total +
			SIMHASH_RUN_CAP * fx->rc.capped.total + fx->rc.weighted.total;
		/* one of the two tables holds the totals; the other is unused */
		cap = CapOf(fx->opts.weighting, lanes->total);
		if (fx->rc.cap.entries)
			CapTableApply(&fx->rc.cap, cap, lanes->ones, &lanes->total);
		if (fx->tf.cap.entries)
			CapTableApply(&fx->tf.cap, cap, lanes->ones, &lanes->total);
		return LaneCounterResult(lanes, result);
	}

	stats = CollectStats(fx, &n);
	CapStats(fx, stats, n);
	if (fx->opts.weighting == WEIGHTING_LOG)
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
			LaneCounterAddWeighted(&lanes, stats[i].hash, (int64) stats[i].weight);
		}
		ok = LaneCounterResult(&lanes, result);
	}
	pfree(stats);
	return ok;
}

/*
 * The distinct features of the document, in order of first occurrence,
 * with their capped weights; needs an extractor created with introspect.
 */
FeatureStat *
FeatureExtractorStats(FeatureExtractor *fx, int64 *nstats)
{
	FeatureStat *stats;

	Assert(fx->introspect);
	FinishShort(fx);
	stats = CollectStats(fx, nstats);
	qsort(stats, *nstats, sizeof(FeatureStat), CompareStatFirst);
	CapStats(fx, stats, *nstats);
	return stats;
}

