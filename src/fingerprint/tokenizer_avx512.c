/*
 * fingerprint/tokenizer_avx512.c
 *	  The AVX-512 kernel of the tokenizer: tokenizer_simd.h with its own
 *	  classification pass (a block of 64 bytes per vector), token step (a
 *	  word of the bitmaps at a time) and hashing (eight tokens at a time),
 *	  compiled with a target attribute (no -march flag) and chosen by
 *	  simhash.simd = auto when the CPU has the AVX-512 subsets it needs.
 */
#include "fingerprint/tokenizer_batch.h"

#ifdef USE_AVX2_SEGMENTER

/*
 * XXH3_len_9to16_64b (default secret, seed 0) in each 64-bit lane, from
 * the 8 bytes at the token's start (head), the 8 that end at its end
 * (tail) and its length: the two words flipped, their 128-bit product from
 * four 32-bit products with its halves xor-ed, XXH3's avalanche.
 */
static AVX512_TARGET pg_attribute_always_inline __m512i
Hash9to16Avx512(__m512i head, __m512i tail, __m512i len)
{
	const __m512i low32 = _mm512_set1_epi64(0xffffffff);
	/* vpshufb's indexes (within each 16 bytes) that reverse each 8 bytes */
	const __m512i bswap64 = _mm512_broadcast_i32x4(_mm_set_epi8(8, 9, 10, 11, 12, 13, 14, 15,
																0, 1, 2, 3, 4, 5, 6, 7));
	__m512i		lo = _mm512_xor_si512(head, _mm512_set1_epi64((int64) (XXH_readLE64(XXH3_kSecret + 24) ^
																	   XXH_readLE64(XXH3_kSecret + 32)))),
				hi = _mm512_xor_si512(tail, _mm512_set1_epi64((int64) (XXH_readLE64(XXH3_kSecret + 40) ^
																	   XXH_readLE64(XXH3_kSecret + 48)))),
				lo32 = _mm512_srli_epi64(lo, 32),
				hi32 = _mm512_srli_epi64(hi, 32),
				p00 = _mm512_mul_epu32(lo, hi),
				p01 = _mm512_mul_epu32(lo, hi32),
				p10 = _mm512_mul_epu32(lo32, hi),
				/* bits 32-95 of the product, but for the carries into bit 64 */
				mid = _mm512_add_epi64(_mm512_add_epi64(_mm512_srli_epi64(p00, 32),
														_mm512_and_si512(p01, low32)),
									   _mm512_and_si512(p10, low32)),
				fold = _mm512_xor_si512(_mm512_or_si512(_mm512_and_si512(p00, low32),
														_mm512_slli_epi64(mid, 32)),
										_mm512_add_epi64(_mm512_add_epi64(_mm512_mul_epu32(lo32, hi32),
																		  _mm512_srli_epi64(mid, 32)),
														 _mm512_add_epi64(_mm512_srli_epi64(p01, 32),
																		  _mm512_srli_epi64(p10, 32)))),
				h = _mm512_add_epi64(_mm512_add_epi64(len, _mm512_shuffle_epi8(lo, bswap64)),
									 _mm512_add_epi64(hi, fold));

	h = _mm512_xor_si512(h, _mm512_srli_epi64(h, 37));
	h = _mm512_mullo_epi64(h, _mm512_set1_epi64((int64) UINT64CONST(0x165667919E3779F9)));
	return _mm512_xor_si512(h, _mm512_srli_epi64(h, 32));
}

/*
 * HashTokens with AVX-512, eight tokens at a time, from the batch's heads
 * and tails (the 8 bytes at each token's start and the 8 that end at its
 * end: TokensOfWordAvx512, BatchToken), from which it computes XXH3's
 * hashes of 1-3, 4-8 and 9-16 bytes and keeps the one for its length;
 * longer tokens (about 1 in 1,500 English words) are hashed one by one.
 * The same values as XXH3_64bits: the formulas are those of
 * XXH3_len_1to3_64b (combined bytes, XXH64's avalanche), XXH3_len_4to8_64b
 * (rrmxmx) and XXH3_len_9to16_64b (the 128-bit product of the two words
 * folded, XXH3's avalanche), with the default secret and seed 0; they read
 * no byte outside the token.
 */
static AVX512_TARGET void
HashTokensAvx512(const char *lower, TokenBatch *b)
{
	const __m512i flip13 = _mm512_set1_epi64((int64) (XXH_readLE32(XXH3_kSecret) ^
													 XXH_readLE32(XXH3_kSecret + 4)));
	const __m512i flip48 = _mm512_set1_epi64((int64) (XXH_readLE64(XXH3_kSecret + 8) ^
													 XXH_readLE64(XXH3_kSecret + 16)));
	const __m512i rrmxmx = _mm512_set1_epi64((int64) UINT64CONST(0x9FB21C651E98DF25));
	const __m512i byte = _mm512_set1_epi64(0xff);

	for (int32 i = 0; i < b->n; i += 8)
	{
		__mmask8	live = b->n - i >= 8 ? 0xff : (__mmask8) ((1u << (b->n - i)) - 1);
		__m256i		len32 = _mm256_maskz_loadu_epi32(live, b->len + i);
		__m512i		len = _mm512_cvtepi32_epi64(len32);
		/* (lanes past b->n: whatever the arrays hold, hashed, not stored) */
		__m512i		head = _mm512_loadu_si512(b->head + i);
		__m512i		tail = _mm512_loadu_si512(b->tail + i);
		__m512i		c1,
					c2,
					c3,
					h13,
					h48,
					h916;
		__mmask8	longer;

		/* 1-3 bytes: first, middle (byte len / 2) and last byte, and len */
		c1 = _mm512_and_si512(head, byte);
		c2 = _mm512_and_si512(_mm512_srlv_epi64(head, _mm512_slli_epi64(_mm512_srli_epi64(len, 1), 3)), byte);
		c3 = _mm512_srli_epi64(tail, 56);
		h13 = _mm512_or_si512(_mm512_or_si512(_mm512_slli_epi64(c1, 16), _mm512_slli_epi64(c2, 24)),
							  _mm512_or_si512(c3, _mm512_slli_epi64(len, 8)));
		h13 = Xxh3AvalancheSmallAvx512(_mm512_xor_si512(h13, flip13));

		/* 4-8 bytes: the first 4 bytes (high half) and the last 4 (low) */
		h48 = _mm512_add_epi64(_mm512_srli_epi64(tail, 32), _mm512_slli_epi64(head, 32));
		h48 = _mm512_xor_si512(h48, flip48);
		h48 = _mm512_xor_si512(h48, _mm512_xor_si512(_mm512_rol_epi64(h48, 49),
													 _mm512_rol_epi64(h48, 24)));
		h48 = _mm512_mullo_epi64(h48, rrmxmx);
		h48 = _mm512_xor_si512(h48, _mm512_add_epi64(_mm512_srli_epi64(h48, 35), len));
		h48 = _mm512_mullo_epi64(h48, rrmxmx);
		h48 = _mm512_xor_si512(h48, _mm512_srli_epi64(h48, 28));

		h916 = Hash9to16Avx512(head, tail, len);

		_mm512_mask_storeu_epi64(b->hash + i, live,
								 _mm512_mask_blend_epi64(_mm512_cmpgt_epi64_mask(len, _mm512_set1_epi64(8)),
														 _mm512_mask_blend_epi64(_mm512_cmple_epi64_mask(len, _mm512_set1_epi64(3)),
																				 h48, h13),
														 h916));
		longer = _mm512_mask_cmpgt_epi64_mask(live, len, _mm512_set1_epi64(16));
		while (longer)
		{
			int32		j = i + __builtin_ctz(longer);

			longer &= longer - 1;
			b->hash[j] = XXH3_64bits(lower + b->off[j], (size_t) b->len[j]);
		}
	}
}

/*
 * The classification pass of tokenizer_simd.h with AVX-512: a block of 64
 * bytes is one vector and each comparison gives a bitmap word directly; the bytes that end a run come
 * from a 128-entry table (vpermb) instead of a lookup per punctuation byte.
 * The same bitmaps and lower-cased bytes.  Each block also loads the 64
 * bytes one before it, for the "equal to the byte before" bits; masked
 * loads read nothing outside s[0..len) (the byte before the span counts as
 * 0, as in the other variants).
 */
static AVX512_TARGET void
ClassifyBlocksAvx512(const char *s, int32 len, bool numbers, int32 nblocks, char *lower,
					 uint64 *word, uint64 *keep, uint64 *run4, uint64 *brk)
{
	const __m512i c20 = _mm512_set1_epi8(0x20);
	/* AF_BREAK of the ASCII bytes, as bytes 1 or 0 */
	const __m512i breaks_lo = _mm512_loadu_si512(ascii_breaks_run);
	const __m512i breaks_hi = _mm512_loadu_si512(ascii_breaks_run + 64);
	uint64		prev_ahl = 0,
				prev_dig = 0,
				prev_eq = 0;

	StaticAssertStmt(sizeof(bool) == 1, "ascii_breaks_run is a table of bytes");

#define LOWER_CASE(v) \
	_mm512_mask_blend_epi8(_mm512_cmplt_epu8_mask(_mm512_sub_epi8(_mm512_or_si512(v, c20), \
																  _mm512_set1_epi8('a')), \
												  _mm512_set1_epi8(26)), \
						   v, _mm512_or_si512(v, c20))
	for (int32 b = 0; b < nblocks; b++)
	{
		int32		i0 = b * 64;
		int32		rest = len - i0;
		uint64		valid = rest >= 64 ? ~UINT64CONST(0) : (UINT64CONST(1) << rest) - 1;
		/* bytes i0 - 1 + k that lie in s[0..len) */
		uint64		validprev = (rest >= 63 ? ~UINT64CONST(0) : (UINT64CONST(1) << (rest + 1)) - 1) &
			(i0 == 0 ? ~UINT64CONST(1) : ~UINT64CONST(0));
		__m512i		v = _mm512_maskz_loadu_epi8(valid, s + i0);
		__m512i		lo = LOWER_CASE(v);
		__m512i		before = LOWER_CASE(_mm512_maskz_loadu_epi8(validprev, s + i0 - 1));
		uint64		alpha = _mm512_cmplt_epu8_mask(_mm512_sub_epi8(_mm512_or_si512(v, c20),
																   _mm512_set1_epi8('a')),
												   _mm512_set1_epi8(26)),
					digit = _mm512_cmplt_epu8_mask(_mm512_sub_epi8(v, _mm512_set1_epi8('0')),
												   _mm512_set1_epi8(10)),
					at = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('@')),
					ml = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('.')) |
			_mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('\'')),
					w = alpha | digit | at | _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('_')),
					ahl = alpha | at,
					midn = ml | _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(',')) |
			_mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(';')),
					eq = _mm512_cmpeq_epi8_mask(lo, before);

		_mm512_storeu_si512(lower + i0, lo);
		w |= JoinedMids(s, len, i0, ml, midn, ahl, digit, &prev_ahl, &prev_dig);

		word[b] = w;
		keep[b] = alpha | (numbers ? digit : 0);
		run4[b] = eq & ((eq << 1) | (prev_eq >> 63)) & ((eq << 2) | (prev_eq >> 62)) & valid;
		prev_eq = eq;
		/* ascii_breaks_run[byte] (bit 6 picks the half; bytes >= 128 are none) */
		brk[b] = _mm512_test_epi8_mask(_mm512_permutex2var_epi8(breaks_lo, v, breaks_hi),
									   _mm512_set1_epi8(1)) &
			~_mm512_movepi8_mask(v) & valid;
	}
#undef LOWER_CASE
}

/*
 * WORD_TOKENS of the AVX-512 token loop: when WordTokensSimple allows,
 * appends the tokens of the word to b and updates *newrun and *open as the
 * per-token loop would; else returns false and does nothing.  The tokens'
 * first and last bytes are the positions of the set bits, in order
 * (vpcompressb of 0 .. 63; at most 32 of each), stored 16 at a time; their
 * heads and tails are picked from the lower-cased bytes around the word
 * (vpermi2b) rather than gathered later.  (The same without AVX-512, one
 * token at a time from the bitmaps, was measured no faster than the
 * per-token loop.)
 */
static AVX512_TARGET pg_attribute_always_inline bool
TokensOfWordAvx512(TokenBatch *b, const char *lower, uint64 w, uint64 starts, uint64 ends,
				   uint64 gapbrk, uint64 kw, uint64 r4, int32 base, bool *newrun, int32 *open)
{
	/* byte 8 t + j: t (which token of a group of 8), and j */
	const __m512i token8 = _mm512_set_epi64(0x0707070707070707, 0x0606060606060606,
											0x0505050505050505, 0x0404040404040404,
											0x0303030303030303, 0x0202020202020202,
											0x0101010101010101, 0);
	const __m512i byte8 = _mm512_set1_epi64(0x0706050403020100);
	const __m512i iota = _mm512_set_epi8(63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52,
										 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41, 40,
										 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28,
										 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16,
										 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2,
										 1, 0);
	int			n = __builtin_popcountll(ends);
	uint64		firsts,
				broken;
	__m512i		sp,
				ep;

	if (!WordTokensSimple(w, starts, ends, kw, r4, base, &firsts, open))
		return false;
	if (n == 0)
	{
		*newrun |= gapbrk != 0;
		return true;
	}
	/* bit j: a break stands before token j */
	broken = _pext_u64(BrokenStarts(w, gapbrk, firsts, *newrun), firsts);
	*newrun = BreakAfterLast(gapbrk, ends);
	sp = _mm512_maskz_compress_epi8(firsts, iota);
	ep = _mm512_maskz_compress_epi8(ends, iota);
	for (int half = 0; half < 2 && 16 * half < n; half++)
	{
		__m512i		s32 = _mm512_cvtepu8_epi32(half ? _mm512_extracti32x4_epi32(sp, 1) :
											   _mm512_castsi512_si128(sp));
		__m512i		e32 = _mm512_cvtepu8_epi32(half ? _mm512_extracti32x4_epi32(ep, 1) :
											   _mm512_castsi512_si128(ep));
		__mmask16	live = n - 16 * half >= 16 ? 0xffff : (__mmask16) ((1u << (n - 16 * half)) - 1);

		_mm512_mask_storeu_epi32(b->off + b->n + 16 * half, live,
								 _mm512_add_epi32(s32, _mm512_set1_epi32(base)));
		_mm512_mask_storeu_epi32(b->len + b->n + 16 * half, live,
								 _mm512_add_epi32(_mm512_sub_epi32(e32, s32), _mm512_set1_epi32(1)));
	}
	/*
	 * heads and tails, 8 tokens at a time, picked from the 128 bytes
	 * lower[base - 32 .. base + 96) (LOWER_PAD) by their positions: head
	 * byte j of a token starting at p is window byte 32 + p + j, tail byte
	 * j of one ending at e (its last byte) is 32 + e - 7 + j (all < 128)
	 */
	{
		__m512i		lo = _mm512_loadu_si512(lower + base - 32),
					hi = _mm512_loadu_si512(lower + base + 32);

		for (int g = 0; 8 * g < n; g++)
		{
			__m512i		pick = _mm512_add_epi8(token8, _mm512_set1_epi8((char) (8 * g)));

			_mm512_storeu_si512(b->head + b->n + 8 * g,
								_mm512_permutex2var_epi8(lo, _mm512_add_epi8(_mm512_permutexvar_epi8(pick, sp),
																		 _mm512_add_epi8(byte8, _mm512_set1_epi8(32))),
														 hi));
			_mm512_storeu_si512(b->tail + b->n + 8 * g,
								_mm512_permutex2var_epi8(lo, _mm512_add_epi8(_mm512_permutexvar_epi8(pick, ep),
																		 _mm512_add_epi8(byte8, _mm512_set1_epi8(25))),
														 hi));
		}
	}
	StaticAssertStmt(sizeof(bool) == 1, "newrun is stored as bytes");
	_mm512_mask_storeu_epi8(b->newrun + b->n, (UINT64CONST(1) << n) - 1,
							_mm512_maskz_set1_epi8(broken, 1));
	b->n += n;
	return true;
}

/*
 * The same with AVX-512 where the CPU has it: ClassifyBlocksAvx512,
 * TokensOfWordAvx512 for the tokens of most words, HashTokensAvx512; the
 * run lanes and rc's 16-bit lanes in registers, as in the AVX2 variant.
 */
#define SEGMENT_FUNC	SegmentAsciiAvx512
#define HASH_TOKENS		HashTokensAvx512
#define CLASSIFY_CALL	ClassifyBlocksAvx512
#define WORD_TOKENS		TokensOfWordAvx512
#define BATCH_HEADS		1
#define SEGMENT_TARGET	AVX512_TARGET
/* run lanes 0 .. 7 in one vector: hash >> k in lane k */
#define RUN_VEC			__m512i
#define RUN_N			1
#define RUN_LOAD(p)		_mm512_loadu_si512(p)
#define RUN_STORE(p, v)	_mm512_storeu_si512(p, v)
#define RUN_ADD(run, hash) \
	((run)[0] = _mm512_add_epi64((run)[0], \
		_mm512_and_si512(_mm512_srlv_epi64(_mm512_set1_epi64((int64) (hash)), \
										   _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0)), \
						 _mm512_set1_epi8(1))))
/*
 * The run's byte lanes widened to 16 bits (2 vectors: words 0-3 and 4-7,
 * the layout of WideLaneCounter), times w, added to wide[]; the run's lanes
 * cleared: RunCounterClose's lanes without leaving the registers.
 */
#define RUN_CLOSE(run, wide, w) \
	do { \
		__m512i		w_ = _mm512_set1_epi16((short) (w)); \
		(wide)[0] = _mm512_add_epi16((wide)[0], _mm512_mullo_epi16( \
			_mm512_cvtepu8_epi16(_mm512_castsi512_si256((run)[0])), w_)); \
		(wide)[1] = _mm512_add_epi16((wide)[1], _mm512_mullo_epi16( \
			_mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64((run)[0], 1)), w_)); \
		(run)[0] = _mm512_setzero_si512(); \
	} while (0)
#include "fingerprint/tokenizer_simd.h"

#endif							/* USE_AVX2_SEGMENTER */
