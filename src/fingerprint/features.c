/*
 * fingerprint/features.c
 *	  Features, the second stage of simhash(text): from kept tokens to
 *	  feature hashes (words, word shingles and character n-grams).
 *
 * Features (algorithm version 3):
 *	  - words: each kept token;
 *	  - shingles of n words: each run of n consecutive kept tokens, joined by
 *		one space;
 *	  - character n-grams: each run of n consecutive code points of the
 *		stream of kept tokens, where one space stands for whatever separated
 *		two tokens that were not adjacent in the normalized text (spaces,
 *		punctuation, dropped tokens).  Tokens that ICU found adjacent, as
 *		words of a Chinese sentence are (version 3; Thai in both), are
 *		joined without a space, so the n-grams do not depend on where the
 *		dictionary put word boundaries; under version 4 the tokenizer hands
 *		over a run of CJK characters as one token, after a gap.
 *	  A document with fewer than n tokens (code points) has one feature: all
 *	  of them.
 *	  The hash of a feature is XXH3-64 (seed 0) of its UTF-8 bytes, so
 *	  `xxhsum -H3` reproduces it, and simhash(text[]) of the features gives
 *	  the same fingerprint as the text.
 *
 * Each occurrence of a feature goes to the weights stage (weights.h) with
 * its hash; single words weighted runs go there without their text.
 */
#include "fingerprint/features.h"

#include "lib/stringinfo.h"
#include "utils/memutils.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

struct FeatureExtractor
{
	FingerprintOptions opts;
	Weigher		w;				/* the next stage */
	RunCounter *rc;				/* single words weighted runs: w's run
								 * counter, else NULL */

	/* shingles: the last n tokens, as a ring */
	StringInfoData ring[SIMHASH_MAX_N];
	int64		ntokens;

	/* character n-grams: the last n code points (UTF-8), as a ring */
	char		cp[SIMHASH_MAX_N][4];
	uint8		cplen[SIMHASH_MAX_N];
	int64		ncp;

	StringInfoData buf;			/* a feature being assembled */
};

/*
 * The backend's extractor for calls without introspection: 5 kB, which in
 * the memory context of a row (reset after each) took a block of its own,
 * a malloc and a free per call (~900 instructions, a tenth of a call on a
 * short text).  Each such extractor lives only during one call (no caller
 * keeps one past its call, and no call makes a second while it works), so
 * the next FeatureExtractorCreate may reuse the memory, whatever happened
 * to the call before (an error included): it sets every field it uses.
 */
static FeatureExtractor *reused_extractor = NULL;

/*
 * Creates an extractor for a text of about textbytes bytes (a hint for the
 * size of the tables).  With introspect, the text of every distinct feature
 * is kept for FeatureExtractorStats, and the extractor is allocated in the
 * current memory context (simhash_features keeps it across rows); without,
 * it is the backend's one (above), valid until the next call of this
 * function.  Its tables and buffers are allocated in the current memory
 * context, which may get a reset callback (CapTableInit).  Never pfree'd.
 */
FeatureExtractor *
FeatureExtractorCreate(const FingerprintOptions *opts, bool introspect,
					   int64 textbytes)
{
	FeatureExtractor *fx;

	/* not zeroed: 5 kB, mostly counters the options may not use */
	if (introspect)
		fx = palloc(sizeof(FeatureExtractor));
	else
	{
		if (reused_extractor == NULL)
			reused_extractor = MemoryContextAlloc(TopMemoryContext, sizeof(FeatureExtractor));
		fx = reused_extractor;
	}

	fx->opts = *opts;
	fx->ntokens = 0;
	fx->ncp = 0;
	/*
	 * Version 4's CJK bigrams are one feature per 3 bytes of text, not per
	 * 6 or more like English words: size the tables for that.
	 */
	WeigherInit(&fx->w, opts->weighting, introspect,
				opts->kind != FEATURES_CHARS && opts->n == 1, opts->version,
				opts->version >= 4 ? 2 * textbytes : textbytes);
	fx->rc = WeigherRunCounter(&fx->w);
	if (opts->kind != FEATURES_CHARS && opts->n > 1)
	{
		/* shingles: the ring of tokens and the shingle being assembled */
		for (int i = 0; i < opts->n; i++)
			initStringInfo(&fx->ring[i]);
		initStringInfo(&fx->buf);
	}
	return fx;
}

/* One occurrence of a feature: its hash, to the weights stage. */
static inline void
Emit(FeatureExtractor *fx, const char *feature, int len)
{
	WeigherAdd(&fx->w, XXH3_64bits(feature, len), feature, len);
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
	if (fx->rc)
	{
		RunCounterAdd(fx->rc, XXH3_64bits(token, len), newrun);
		return;
	}
	WeigherToken(&fx->w, newrun);
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
	WeigherFinish(&fx->w);
}

/* The options the extractor was created with. */
const FingerprintOptions *
FeatureExtractorOptions(FeatureExtractor *fx)
{
	return &fx->opts;
}

/*
 * The run counter that single words may be added to directly (hash and
 * run break, instead of FeatureExtractorAddToken), or NULL when the
 * options need the tokens themselves.
 */
RunCounter *
FeatureExtractorRunCounter(FeatureExtractor *fx)
{
	return fx->rc;
}

/* Whether the words' weights depend on their lines (version 5, runs). */
bool
FeatureExtractorLineWeights(FeatureExtractor *fx)
{
	return fx->w.lines;
}

/*
 * Version 5: the words that follow lie on lines of multiplier class / 16
 * (lines.h); needs FeatureExtractorLineWeights.
 */
void
FeatureExtractorSetLineClass(FeatureExtractor *fx, int class)
{
	WeigherSetLineClass(&fx->w, class);
}

/*
 * The counter that single words of weighting tf may be added to directly
 * (their hash, with TfCounterAdd), or NULL when the options need more.
 */
TfCounter *
FeatureExtractorTfCounter(FeatureExtractor *fx)
{
	return WeigherTfCounter(&fx->w);
}

/*
 * Sets *result to the fingerprint of the document whose tokens were added.
 * Returns false when it had no feature.
 */
bool
FeatureExtractorResult(FeatureExtractor *fx, uint64 *result)
{
	FinishShort(fx);
	return WeigherResult(&fx->w, result);
}

/*
 * The distinct features of the document, in order of first occurrence,
 * with their capped weights; needs an extractor created with introspect.
 */
FeatureStat *
FeatureExtractorStats(FeatureExtractor *fx, int64 *nstats)
{
	FinishShort(fx);
	return WeigherStats(&fx->w, nstats);
}

