/*
 * fingerprint/tokenizer_sse2.c
 *	  The SSE2 kernel of the tokenizer: tokenizer_simd.h on vectors of 16
 *	  bytes.  SSE2 is part of the x86-64 baseline, so this kernel needs no
 *	  target attribute and runs on every x86-64 CPU.
 */
#include "fingerprint/tokenizer_batch.h"

#ifdef USE_SSE2_SEGMENTER

/* The fast path for SSE2, 16 bytes at a time. */
#define SEGMENT_FUNC	SegmentAsciiSse2
#define HASH_TOKENS		HashTokens
#define CLASSIFY_FUNC	ClassifyBlocksSse2
#define CLASSIFY_CALL	ClassifyBlocksSse2
#define SEGMENT_TARGET
#define VEC				__m128i
#define VW				16
#define V_LOAD(p)		_mm_loadu_si128((const __m128i *) (p))
#define V_STORE(p, v)	_mm_storeu_si128((__m128i *) (p), v)
#define V_ZERO()		_mm_setzero_si128()
#define V_SET1(c)		_mm_set1_epi8(c)
#define V_OR(a, b)		_mm_or_si128(a, b)
#define V_AND(a, b)		_mm_and_si128(a, b)
#define V_ADD8(a, b)	_mm_add_epi8(a, b)
#define V_EQ8(a, b)		_mm_cmpeq_epi8(a, b)
#define V_LT8(a, b)		_mm_cmplt_epi8(a, b)
#define V_BITS(v)		((uint64) (uint16) _mm_movemask_epi8(v))
#define V_PREV1(v, prev) _mm_or_si128(_mm_slli_si128(v, 1), _mm_srli_si128(prev, 15))
/* run lanes k, k + 1 side by side in each of 4 vectors: hash >> k, hash >> (k + 1) */
#define RUN_VEC			__m128i
#define RUN_N			4
#define RUN_LOAD(p)		_mm_loadu_si128(p)
#define RUN_STORE(p, v)	_mm_storeu_si128(p, v)
#define RUN_ADD(run, hash) \
	do { \
		__m128i		x_ = _mm_cvtsi64_si128((int64) (hash)); \
		__m128i		h_ = _mm_unpacklo_epi64(x_, _mm_srli_epi64(x_, 1)); \
		__m128i		m_ = _mm_set1_epi8(1); \
		(run)[0] = _mm_add_epi64((run)[0], _mm_and_si128(h_, m_)); \
		(run)[1] = _mm_add_epi64((run)[1], _mm_and_si128(_mm_srli_epi64(h_, 2), m_)); \
		(run)[2] = _mm_add_epi64((run)[2], _mm_and_si128(_mm_srli_epi64(h_, 4), m_)); \
		(run)[3] = _mm_add_epi64((run)[3], _mm_and_si128(_mm_srli_epi64(h_, 6), m_)); \
	} while (0)
#include "fingerprint/tokenizer_simd.h"

#endif							/* USE_SSE2_SEGMENTER */
