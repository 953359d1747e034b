/*
 * fingerprint/tokenizer_avx2.c
 *	  The AVX2 kernel of the tokenizer: tokenizer_simd.h on vectors of 32
 *	  bytes, compiled for AVX2, BMI1 and BMI2 alone (a target attribute,
 *	  no -march flag) and chosen when the CPU has them.
 */
#include "fingerprint/tokenizer_batch.h"

#ifdef USE_AVX2_SEGMENTER

#define AVX2_TARGET		__attribute__((target("avx2,bmi,bmi2")))

/* 8 bytes at p, unaligned */
static inline int64
Load64(const char *p)
{
	int64		v;

	memcpy(&v, p, 8);
	return v;
}

/*
 * HashTokens with AVX2, four tokens at a time: each lane reads the 8 bytes
 * at the token's start and the 8 bytes that end at its end (lower has
 * LOWER_PAD readable bytes on either side) and computes XXH3's hash of 1-3
 * bytes or that of 4-8 bytes, as its length says (the formulas of
 * XXH3_len_1to3_64b and XXH3_len_4to8_64b, default secret, seed 0: the
 * values of XXH3_64bits).  The two formulas have the same shape - a key,
 * a product, h ^= (h >> s1) + a, a product, h ^= h >> s2 - so each lane
 * takes its own key, multipliers, shifts and addend and all four go
 * through that shape once.  The longer tokens are then hashed one by one
 * from a list built without a branch per token.  b must have room for 3
 * tokens past b->n (TOKEN_BATCH_SLACK), which this overwrites.
 */
static AVX2_TARGET void
HashTokensAvx2(const char *lower, TokenBatch *b)
{
	const uint64 flip13v = XXH_readLE32(XXH3_kSecret) ^ XXH_readLE32(XXH3_kSecret + 4);
	const uint64 flip48v = XXH_readLE64(XXH3_kSecret + 8) ^ XXH_readLE64(XXH3_kSecret + 16);
	const __m256i flip13 = _mm256_set1_epi64x((int64) flip13v);
	const __m256i flip48 = _mm256_set1_epi64x((int64) flip48v);
	/* the multipliers: XXH3_rrmxmx's for 4-8 bytes, XXH64_avalanche's for 1-3 */
	const __m256i rr_lo = _mm256_set1_epi64x((int64) UINT64CONST(0x1E98DF25));
	const __m256i rr_hi = _mm256_set1_epi64x((int64) UINT64CONST(0x9FB21C65));
	const __m256i p2_lo = _mm256_set1_epi64x((int64) (XXH_PRIME64_2 & 0xFFFFFFFF));
	const __m256i p2_hi = _mm256_set1_epi64x((int64) (XXH_PRIME64_2 >> 32));
	const __m256i p3_lo = _mm256_set1_epi64x((int64) (XXH_PRIME64_3 & 0xFFFFFFFF));
	const __m256i p3_hi = _mm256_set1_epi64x((int64) (XXH_PRIME64_3 >> 32));
	const __m256i byte = _mm256_set1_epi64x(0xff);
	const __m256i four = _mm256_set1_epi64x(4);
	const __m256i eight = _mm256_set1_epi64x(8);
	uint64		longer[TOKEN_BATCH / 64 + 1] = {0};	/* bit i: len[i] > 8 */

	/* harmless tokens past the end: 8 bytes at the span's start */
	for (int32 i = b->n; i < b->n + 3; i++)
	{
		b->off[i] = 0;
		b->len[i] = 8;
	}
	for (int32 i = 0; i < b->n; i += 4)
	{
		const int32 *o = b->off + i,
				   *l = b->len + i;
		__m256i		len = _mm256_cvtepi32_epi64(_mm_loadu_si128((const __m128i *) l));
		/* (gathers, vpgatherdq, took longer than these loads on AMD Zen 3) */
		__m256i		head = _mm256_set_epi64x(Load64(lower + o[3]), Load64(lower + o[2]),
											 Load64(lower + o[1]), Load64(lower + o[0]));
		__m256i		tail = _mm256_set_epi64x(Load64(lower + o[3] + l[3] - 8),
											 Load64(lower + o[2] + l[2] - 8),
											 Load64(lower + o[1] + l[1] - 8),
											 Load64(lower + o[0] + l[0] - 8));
		__m256i		small = _mm256_cmpgt_epi64(four, len);	/* 1-3 bytes */
		__m256i		c1,
					c2,
					c3,
					k13,
					k48,
					h;

		/* 1-3 bytes: first, middle (byte len / 2) and last byte, and len */
		c1 = _mm256_and_si256(head, byte);
		c2 = _mm256_and_si256(_mm256_srlv_epi64(head, _mm256_slli_epi64(_mm256_srli_epi64(len, 1), 3)), byte);
		c3 = _mm256_srli_epi64(tail, 56);
		k13 = _mm256_or_si256(_mm256_or_si256(_mm256_slli_epi64(c1, 16), _mm256_slli_epi64(c2, 24)),
							  _mm256_or_si256(c3, _mm256_slli_epi64(len, 8)));
		k13 = _mm256_xor_si256(k13, flip13);

		/* 4-8 bytes: the first 4 bytes (high half) and the last 4 (low) */
		k48 = _mm256_add_epi64(_mm256_srli_epi64(tail, 32), _mm256_slli_epi64(head, 32));
		k48 = _mm256_xor_si256(k48, flip48);
		k48 = _mm256_xor_si256(k48, _mm256_xor_si256(
			_mm256_or_si256(_mm256_slli_epi64(k48, 49), _mm256_srli_epi64(k48, 15)),
			_mm256_or_si256(_mm256_slli_epi64(k48, 24), _mm256_srli_epi64(k48, 40))));

		/*
		 * 1-3 bytes: h * P2, h ^= h >> 29, h * P3, h ^= h >> 32 (h >> 33 of
		 * the key is 0); 4-8: h * C, h ^= (h >> 35) + len, h * C, h ^= h >> 28
		 */
		h = _mm256_blendv_epi8(k48, k13, small);
		h = Mul64Avx2(h, _mm256_blendv_epi8(rr_lo, p2_lo, small), _mm256_blendv_epi8(rr_hi, p2_hi, small));
		h = _mm256_xor_si256(h, _mm256_add_epi64(
			_mm256_srlv_epi64(h, _mm256_blendv_epi8(_mm256_set1_epi64x(35), _mm256_set1_epi64x(29), small)),
			_mm256_andnot_si256(small, len)));
		h = Mul64Avx2(h, _mm256_blendv_epi8(rr_lo, p3_lo, small), _mm256_blendv_epi8(rr_hi, p3_hi, small));
		h = _mm256_xor_si256(h, _mm256_srlv_epi64(h, _mm256_blendv_epi8(_mm256_set1_epi64x(28),
																	  _mm256_set1_epi64x(32), small)));

		_mm256_storeu_si256((__m256i *) (b->hash + i), h);
		longer[i >> 6] |= (uint64) _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(len, eight)))
			<< (i & 63);
	}
	for (int32 k = 0; k <= (b->n - 1) >> 6; k++)
	{
		uint64		bits = longer[k];

		/* (dummies past b->n have length 8) */
		while (bits)
		{
			int32		i = (k << 6) + (int32) _tzcnt_u64(bits);

			bits = _blsr_u64(bits);
			b->hash[i] = XXH3_64bits(lower + b->off[i], (size_t) b->len[i]);
		}
	}
}

/*
 * WORD_TOKENS of the AVX2 token loop: when WordTokensSimple allows,
 * appends the tokens of the word to b and updates *newrun and *open as the
 * per-token loop would; else returns false and does nothing.  The tokens'
 * first and last bytes are the positions of the set bits of firsts and
 * ends, taken eight at a time without a branch per token (tzcnt, blsr);
 * past the last token the stores write harmless values into b's slack
 * (TOKEN_BATCH_SLACK), which later tokens overwrite.  The tokens' newrun
 * flags are bits of a word spread into bytes (pdep), eight per store.
 */
static AVX2_TARGET pg_attribute_always_inline bool
TokensOfWordAvx2(TokenBatch *b, const char *lower, uint64 w, uint64 starts, uint64 ends, uint64 gapbrk,
				 uint64 kw, uint64 r4, int32 base, bool *newrun, int32 *open)
{
	int			n;
	uint64		firsts,
				broken;
	int32	   *off,
			   *len;
	bool	   *nr;

	if (!WordTokensSimple(w, starts, ends, kw, r4, base, &firsts, open))
		return false;
	n = __builtin_popcountll(ends);
	if (n == 0)
	{
		*newrun |= gapbrk != 0;
		return true;
	}
	/* bit j: a break stands before token j */
	broken = _pext_u64(BrokenStarts(w, gapbrk, firsts, *newrun), firsts);
	*newrun = BreakAfterLast(gapbrk, ends);
	off = b->off + b->n;
	len = b->len + b->n;
	nr = b->newrun + b->n;
	StaticAssertStmt(sizeof(bool) == 1, "newrun is stored as bytes");
	for (int k = 0; k < n; k += 8)
	{
		uint64		flags = _pdep_u64(broken >> k, UINT64CONST(0x0101010101010101));

#pragma GCC unroll 8
		for (int j = 0; j < 8; j++)
		{
			int32		first = (int32) _tzcnt_u64(firsts),
						last = (int32) _tzcnt_u64(ends);

			off[k + j] = base + first;
			len[k + j] = last - first + 1;
			firsts = _blsr_u64(firsts);
			ends = _blsr_u64(ends);
		}
		memcpy(nr + k, &flags, 8);
	}
	b->n += n;
	return true;
}

/*
 * The classification pass of tokenizer_simd.h for AVX2: the same bitmaps
 * and lower-cased bytes, each block of 64 bytes as two vectors of 32.  A
 * byte's classes come from two table lookups by nibble (vpshufb of
 * nibble_lo and nibble_hi, ANDed: the NB_ classes), and whether it ends a
 * run from two more (break_rows, and the bit of the high nibble); every
 * bitmap is then a test of those bits and a movemask, with no lookup per
 * punctuation byte.
 */
static AVX2_TARGET void
ClassifyBlocksAvx2(const char *s, int32 len, bool numbers, int32 nblocks, char *lower,
				   uint64 *word, uint64 *keep, uint64 *run4, uint64 *brk)
{
	const __m256i lo_tab = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *) nibble_lo));
	const __m256i hi_tab = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *) nibble_hi));
	const __m256i brk_tab = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *) break_rows));
	/* bit h for a high nibble h < 8, none for bytes >= 128 */
	const __m256i row_bit = _mm256_setr_epi8(1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0,
											 1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0);
	const __m256i nib = _mm256_set1_epi8(0x0f);
	const __m256i zero = _mm256_setzero_si256();
	__m256i		prevlo = zero;	/* the bytes before, lower-cased */
	uint64		prev_ahl = 0,	/* bit 63 of the previous block's masks */
				prev_dig = 0,
				prev_eq = 0;	/* the previous block's eq (bits 62, 63) */

/* one bit per byte of v whose byte has any of the bits of m */
#define ANY_BITS(v, m) \
	(~(uint64) (uint32) _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_and_si256(v, _mm256_set1_epi8((char) (m))), zero)) & 0xffffffff)
/* one bit per byte of v whose bit b is set */
#define BIT_OF(v, b) \
	((uint64) (uint32) _mm256_movemask_epi8(_mm256_slli_epi16(v, 7 - (b))))

	for (int32 b = 0; b < nblocks; b++)
	{
		int32		i0 = b * 64;
		uint64		w = 0,
					alpha = 0,
					dig = 0,
					at = 0,
					midl = 0,
					midn = 0,
					eq = 0,		/* lower[k] == lower[k - 1] */
					br = 0,
					valid = ~UINT64CONST(0);

		for (int k = 0; k < 2; k++)
		{
			int32		i = i0 + 32 * k;
			int			sh = 32 * k;
			__m256i		v,
						hi,
						f,
						notalpha,
						lo;

			if (len - i >= 32)
				v = _mm256_loadu_si256((const __m256i *) (s + i));
			else
			{
				char		tail[32] = {0};

				if (i < len)
					memcpy(tail, s + i, len - i);
				v = _mm256_loadu_si256((const __m256i *) tail);
			}
			hi = _mm256_and_si256(_mm256_srli_epi16(v, 4), nib);
			f = _mm256_and_si256(_mm256_shuffle_epi8(lo_tab, v), _mm256_shuffle_epi8(hi_tab, hi));
			notalpha = _mm256_cmpeq_epi8(_mm256_and_si256(f, _mm256_set1_epi8(NB_ALPHA_A | NB_ALPHA_B)), zero);
			lo = _mm256_or_si256(v, _mm256_andnot_si256(notalpha, _mm256_set1_epi8(0x20)));
			_mm256_storeu_si256((__m256i *) (lower + i), lo);

			alpha |= (~(uint64) (uint32) _mm256_movemask_epi8(notalpha) & 0xffffffff) << sh;
			w |= ANY_BITS(f, NB_ALPHA_A | NB_ALPHA_B | NB_DIGIT | NB_AT | NB_EXTEND) << sh;
			dig |= BIT_OF(f, 2) << sh;	/* NB_DIGIT */
			at |= BIT_OF(f, 3) << sh;	/* NB_AT */
			midl |= BIT_OF(f, 6) << sh; /* NB_MIDLETTER */
			midn |= ANY_BITS(f, NB_MID2 | NB_SEMICOLON) << sh;
			br |= ANY_BITS(_mm256_and_si256(_mm256_shuffle_epi8(brk_tab, v),
											_mm256_shuffle_epi8(row_bit, hi)), -1) << sh;
			eq |= (uint64) (uint32) _mm256_movemask_epi8(_mm256_cmpeq_epi8(lo,
				_mm256_alignr_epi8(lo, _mm256_permute2x128_si256(prevlo, lo, 0x21), 15))) << sh;
			prevlo = lo;
		}
		if (len - i0 < 64)
			valid = (UINT64CONST(1) << (len - i0)) - 1;
		/* mid characters joining two letters or two digits: word bytes */
		w |= JoinedMids(s, len, i0, midl, midn, alpha | at, dig, &prev_ahl, &prev_dig);

		word[b] = w;
		keep[b] = alpha | (numbers ? dig : 0);
		/* four equal bytes: k equals k - 1, k - 1 equals k - 2, and so on */
		run4[b] = eq & ((eq << 1) | (prev_eq >> 63)) & ((eq << 2) | (prev_eq >> 62)) & valid;
		prev_eq = eq;
		brk[b] = br & valid;
	}
#undef ANY_BITS
#undef BIT_OF
}

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
 * The run's byte lanes (2 vectors: words 0-3 and 4-7) widened to 16 bits
 * (4 vectors: words 0-1, 2-3, 4-5, 6-7, the layout of WideLaneCounter),
 * times w, added to wide[]; the run's lanes cleared (RunLanesAvx2 in
 * weights.c does the same in memory).
 */
#define RUN_CLOSE_256(run, wide, w) \
	do { \
		__m256i		w_ = _mm256_set1_epi16((short) (w)); \
		(wide)[0] = _mm256_add_epi16((wide)[0], _mm256_mullo_epi16( \
			_mm256_cvtepu8_epi16(_mm256_castsi256_si128((run)[0])), w_)); \
		(wide)[1] = _mm256_add_epi16((wide)[1], _mm256_mullo_epi16( \
			_mm256_cvtepu8_epi16(_mm256_extracti128_si256((run)[0], 1)), w_)); \
		(wide)[2] = _mm256_add_epi16((wide)[2], _mm256_mullo_epi16( \
			_mm256_cvtepu8_epi16(_mm256_castsi256_si128((run)[1])), w_)); \
		(wide)[3] = _mm256_add_epi16((wide)[3], _mm256_mullo_epi16( \
			_mm256_cvtepu8_epi16(_mm256_extracti128_si256((run)[1], 1)), w_)); \
		(run)[0] = (run)[1] = _mm256_setzero_si256(); \
	} while (0)

/*
 * The same for AVX2, 32 bytes at a time, compiled for AVX2 and BMI2 alone
 * and used when the CPU has them.
 */
#define SEGMENT_FUNC	SegmentAsciiAvx2
#define HASH_TOKENS		HashTokensAvx2
#define WORD_TOKENS		TokensOfWordAvx2
#define CLASSIFY_CALL	ClassifyBlocksAvx2
#define SEGMENT_TARGET	AVX2_TARGET
#define RUN_VEC			__m256i
#define RUN_N			2
#define RUN_LOAD(p)		_mm256_loadu_si256(p)
#define RUN_STORE(p, v)	_mm256_storeu_si256(p, v)
#define RUN_ADD(run, hash) RUN_ADD_256(run, hash)
#define RUN_CLOSE(run, wide, w) RUN_CLOSE_256(run, wide, w)
#include "fingerprint/tokenizer_simd.h"

#endif							/* USE_AVX2_SEGMENTER */
