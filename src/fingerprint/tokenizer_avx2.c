/*
 * fingerprint/tokenizer_avx2.c
 *	  The AVX2 kernel of the tokenizer: tokenizer_simd.h on vectors of 32
 *	  bytes, compiled for AVX2, BMI1 and BMI2 alone (a target attribute,
 *	  no -march flag) and chosen when the CPU has them.
 */
#include "fingerprint/tokenizer_batch.h"

#ifdef USE_AVX2_SEGMENTER

/* Run lanes k .. k + 3 in each of 2 vectors of 256 bits: hash >> k ... */
#define RUN_ADD_256(run, hash) \
	do { \
		__m256i		h_ = _mm256_set1_epi64x((int64) (hash)); \
		__m256i		m_ = _mm256_set1_epi8(1); \
		(run)[0] = _mm256_add_epi64((run)[0], _mm256_and_si256( \
			_mm256_srlv_epi64(h_, _mm256_set_epi64x(3, 2, 1, 0)), m_)); \
		(run)[1] = _mm256_add_epi64((run)[1], _mm256_and_si256( \
			_mm256_srlv_epi64(h_, _mm256_set_epi64x(7, 6, 5, 4)), m_)); \
	} while (0)

/*
 * The same for AVX2, 32 bytes at a time, compiled for AVX2 and BMI2 alone
 * and used when the CPU has them.
 */
#define SEGMENT_FUNC	SegmentAsciiAvx2
#define HASH_TOKENS		HashTokens
#define CLASSIFY_FUNC	ClassifyBlocksAvx2
#define CLASSIFY_CALL	ClassifyBlocksAvx2
#define SEGMENT_TARGET	__attribute__((target("avx2,bmi,bmi2")))
#define VEC				__m256i
#define VW				32
#define V_LOAD(p)		_mm256_loadu_si256((const __m256i *) (p))
#define V_STORE(p, v)	_mm256_storeu_si256((__m256i *) (p), v)
#define V_ZERO()		_mm256_setzero_si256()
#define V_SET1(c)		_mm256_set1_epi8(c)
#define V_OR(a, b)		_mm256_or_si256(a, b)
#define V_AND(a, b)		_mm256_and_si256(a, b)
#define V_ADD8(a, b)	_mm256_add_epi8(a, b)
#define V_EQ8(a, b)		_mm256_cmpeq_epi8(a, b)
#define V_LT8(a, b)		_mm256_cmpgt_epi8(b, a)
#define V_BITS(v)		((uint64) (uint32) _mm256_movemask_epi8(v))
#define V_PREV1(v, prev) \
	_mm256_alignr_epi8(v, _mm256_permute2x128_si256(prev, v, 0x21), 15)
#define RUN_VEC			__m256i
#define RUN_N			2
#define RUN_LOAD(p)		_mm256_loadu_si256(p)
#define RUN_STORE(p, v)	_mm256_storeu_si256(p, v)
#define RUN_ADD(run, hash) RUN_ADD_256(run, hash)
#include "fingerprint/tokenizer_simd.h"

#endif							/* USE_AVX2_SEGMENTER */
