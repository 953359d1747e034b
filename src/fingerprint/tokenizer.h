/*
 * fingerprint/tokenizer.h
 *	  The tokenizer, the first stage: text to kept tokens (tokenizer.c, stream.c).
 */
#ifndef SIMHASH_FP_TOKENIZER_H
#define SIMHASH_FP_TOKENIZER_H

#include "fingerprint/features.h"

extern void SegmentDocument(const char *utf8, size_t len, bool numbers,
							FeatureExtractor *fx);

/*
 * The same for a document that arrives in pieces of UTF-8 cut anywhere:
 * the same tokens in the same order, from a window of at most about 128 kB
 * (expected: the document's length if known, else anything).
 */
typedef struct SegmentStream SegmentStream;
extern SegmentStream *SegmentStreamBegin(bool numbers, FeatureExtractor *fx,
										 int64 expected);
extern void SegmentStreamFeed(SegmentStream *ss, const char *utf8, size_t len);
extern void SegmentStreamEnd(SegmentStream *ss);

/*
 * stream.c: the same for a text datum as stored (out of line, or compressed
 * in its row), when that costs less than detoasting it (false: detoast)
 */
extern bool SegmentStoredDocument(struct varlena *attr, bool numbers,
								  FeatureExtractor *fx);
extern int	IcuMajorVersion(void);
extern bool simhash_fast_path;

/* simhash.simd: the code the ASCII fast path runs */
typedef enum SimdLevel
{
	SIMD_OFF,					/* portable byte-at-a-time code */
	SIMD_SSE2,					/* SSE2 on x86-64, else as off */
	SIMD_AVX2,					/* AVX2 if the CPU has it, without AVX-512 */
	SIMD_AUTO					/* the best the CPU has (AVX-512 hashing,
								 * AVX2, SSE2) */
} SimdLevel;
extern int	simhash_simd;
#endif							/* SIMHASH_FP_TOKENIZER_H */
