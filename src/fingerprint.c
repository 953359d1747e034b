/*
 * fingerprint.c
 *	  simhash(text): Charikar's fingerprint of a document.
 *
 * Algorithm version 1 (pinned by test/golden/fingerprints.csv):
 *	  - features are words: maximal runs of ASCII letters and digits and of
 *		non-ASCII bytes (so UTF-8 words stay whole), ASCII letters folded to
 *		lower case;
 *	  - each feature is hashed with XXH3-64 (seed SIMHASH_FEATURE_SEED) and
 *		weighted by its term frequency: every occurrence counts once;
 *	  - bit i of the fingerprint is 1 where the weights of the features whose
 *		hash has bit i set outweigh those whose hash has it clear; a tie
 *		gives 0;
 *	  - a text without any feature has no fingerprint: the result is NULL,
 *		so featureless documents never match anything.
 */
#include "simhash.h"

#include "miscadmin.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#define SIMHASH_FEATURE_SEED	UINT64CONST(0)

/* How many features are hashed between two interrupt checks. */
#define FEATURES_PER_INTERRUPT_CHECK	4096

/* Per-bit sums of +weight / -weight over all features of a document. */
typedef struct BitSums
{
	int64		sum[SIMHASH_BITS];
	int64		nfeatures;
} BitSums;

void
SimhashFingerprintInit(void)
{
}

static inline void
AddFeature(BitSums *sums, uint64 hash, int64 weight)
{
	for (int bit = 0; bit < SIMHASH_BITS; bit++)
		sums->sum[bit] += ((hash >> bit) & 1) ? weight : -weight;
	sums->nfeatures++;
}

static uint64
SumsToFingerprint(const BitSums *sums)
{
	uint64		result = 0;

	for (int bit = 0; bit < SIMHASH_BITS; bit++)
		if (sums->sum[bit] > 0)
			result |= UINT64CONST(1) << bit;
	return result;
}

static inline bool
IsWordByte(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		(c >= '0' && c <= '9') || c >= 0x80;
}

/* Adds every word of buf[0..len) to sums, folding ASCII letters to lower case. */
static void
AddWords(BitSums *sums, const char *buf, size_t len)
{
	char		word[256];
	size_t		wordlen = 0;
	bool		streaming = false;	/* word longer than the buffer? */
	XXH3_state_t state;

	for (size_t i = 0; i <= len; i++)
	{
		unsigned char c = i < len ? (unsigned char) buf[i] : ' ';

		if (IsWordByte(c))
		{
			if (c >= 'A' && c <= 'Z')
				c += 'a' - 'A';
			/* Long words are hashed in pieces; the hash is the same. */
			if (wordlen == sizeof(word))
			{
				if (!streaming)
					XXH3_64bits_reset_withSeed(&state, SIMHASH_FEATURE_SEED);
				XXH3_64bits_update(&state, word, wordlen);
				streaming = true;
				wordlen = 0;
			}
			word[wordlen++] = (char) c;
		}
		else if (wordlen > 0)
		{
			uint64		hash;

			if (streaming)
			{
				XXH3_64bits_update(&state, word, wordlen);
				hash = XXH3_64bits_digest(&state);
				streaming = false;
			}
			else
				hash = XXH3_64bits_withSeed(word, wordlen, SIMHASH_FEATURE_SEED);
			AddFeature(sums, hash, 1);
			wordlen = 0;
			if (sums->nfeatures % FEATURES_PER_INTERRUPT_CHECK == 0)
				CHECK_FOR_INTERRUPTS();
		}
	}
}

/*
 * simhash(text) returns the fingerprint of the text, or NULL when the text
 * has no features (see the header comment).
 */
PG_FUNCTION_INFO_V1(simhash_text);
Datum
simhash_text(PG_FUNCTION_ARGS)
{
	text	   *document = PG_GETARG_TEXT_PP(0);
	BitSums		sums;

	memset(&sums, 0, sizeof(sums));
	AddWords(&sums, VARDATA_ANY(document), VARSIZE_ANY_EXHDR(document));
	PG_FREE_IF_COPY(document, 0);

	if (sums.nfeatures == 0)
		PG_RETURN_NULL();
	PG_RETURN_SIMHASH(SumsToFingerprint(&sums));
}
