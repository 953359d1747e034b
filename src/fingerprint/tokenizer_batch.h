/*
 * fingerprint/tokenizer_batch.h
 *	  What the SIMD kernels of the tokenizer share: the bitmaps of an ASCII
 *	  span, batches of kept tokens (TokenBatch) and their hashing.
 *
 * A SIMD kernel (tokenizer_simd.h) lower-cases the span and sets bitmaps of
 * its bytes (one bit per byte), finds the kept tokens from those bitmaps a
 * word (64 bytes) at a time, collects them in a TokenBatch, hashes the
 * batch (HashTokens) and counts it in text order, a run at a time (the runs'
 * ends from a bitmap of the tokens, NewrunBits).  The tests and bit tricks
 * of the per-word token steps of the AVX2 and AVX-512 kernels are here too.
 */
#ifndef SIMHASH_FP_TOKENIZER_BATCH_H
#define SIMHASH_FP_TOKENIZER_BATCH_H

#include "fingerprint/tokenizer_kernel.h"

#ifdef USE_SSE2_SEGMENTER

/*
 * Bitmaps of an ASCII span that the token loop reads, one bit per byte, in
 * words of 64 bits; one more word than the span needs, which is zero.
 */
enum
{
	MASK_WORD,					/* in a token: letter, digit, '_', '@', or a
								 * mid character that joins two letters or
								 * two digits */
	MASK_KEEP,					/* makes a token kept: A-Z, a-z, and 0-9
								 * with the option numbers */
	MASK_RUN4,					/* lower[k] == lower[k-1] == lower[k-2] ==
								 * lower[k-3] */
	MASK_BREAK,					/* ends a run (AF_BREAK) */
	MASK_KINDS
};

/*
 * The kept tokens of TOKEN_BATCH_WORDS words of the fast path's bitmaps
 * (64 bytes each), in text order: at most one per two bytes, so at most
 * TOKEN_BATCH.  off and len locate each in the lower-cased span; newrun
 * says a run break stands before it.
 */
#define TOKEN_BATCH_WORDS 16
/*
 * Readable bytes before and after the lower-cased span: HashTokensAvx2
 * reads 8 bytes on either side of a token, TokensOfWordAvx512 32 bytes on
 * either side of a word of the bitmaps
 */
#define LOWER_PAD		32
#define TOKEN_BATCH		(TOKEN_BATCH_WORDS * 32)

/* Room past the last token for stores of 8 tokens at a time (TokensOfWordAvx2) */
#define TOKEN_BATCH_SLACK 8

typedef struct TokenBatch
{
	int32		n;
	int32		off[TOKEN_BATCH + TOKEN_BATCH_SLACK];
	int32		len[TOKEN_BATCH + TOKEN_BATCH_SLACK];
	bool		newrun[TOKEN_BATCH + TOKEN_BATCH_SLACK];
	uint64		hash[TOKEN_BATCH + TOKEN_BATCH_SLACK];
	/*
	 * With heads (the AVX-512 kernel): the 8 bytes at each token's start
	 * and the 8 that end at its end (bytes outside the token are any),
	 * which HashTokensAvx512 hashes
	 */
	uint64		head[TOKEN_BATCH + TOKEN_BATCH_SLACK];
	uint64		tail[TOKEN_BATCH + TOKEN_BATCH_SLACK];
} TokenBatch;

/*
 * Appends the kept token lower[start..end) to b; longrun says it holds a run
 * of more than MAX_RUN equal bytes, shortened here in place (to the bytes
 * SegmentAsciiScalar would copy); with heads, its head and tail too.
 */
static pg_attribute_always_inline void
BatchToken(TokenBatch *b, char *lower, int32 start, int32 end, bool longrun,
		   bool newrun, bool heads)
{
	if (unlikely(longrun))
	{
		int32		n = MAX_RUN;

		for (int32 k = start + MAX_RUN; k < end; k++)
			if (!(lower[k] == lower[start + n - 1] &&
				  lower[k] == lower[start + n - 2] &&
				  lower[k] == lower[start + n - 3]))
				lower[start + n++] = lower[k];
		end = start + n;
	}
	b->off[b->n] = start;
	b->len[b->n] = end - start;
	b->newrun[b->n] = newrun;
	if (heads)
	{
		memcpy(&b->head[b->n], lower + start, 8);
		memcpy(&b->tail[b->n], lower + end - 8, 8);
	}
	b->n++;
}

/*
 * Sets bit i of bits (words of 64) to b->newrun[i] for each token of b, and
 * the bits past b->n (up to the next multiple of 64) to 0: where the runs
 * break, for NextSet.  16 flags at a time (SSE2, the x86-64 baseline).
 */
static inline void
NewrunBits(const TokenBatch *b, uint64 *bits)
{
	StaticAssertStmt(sizeof(bool) == 1 && TOKEN_BATCH % 64 == 0,
					 "newrun flags are bytes, a batch whole words of bits");
	for (int32 i = 0; i < b->n; i += 64)
	{
		uint64		word = 0;

		for (int k = 0; k < 64; k += 16)
		{
			__m128i		flags = _mm_loadu_si128((const __m128i *) (b->newrun + i + k));

			/* flags are 0 or 1: bit 0 moved up to each byte's sign bit */
			word |= (uint64) (uint16) _mm_movemask_epi8(_mm_slli_epi16(flags, 7)) << k;
		}
		if (b->n - i < 64)
			word &= (UINT64CONST(1) << (b->n - i)) - 1;
		bits[i >> 6] = word;
	}
}

/*
 * Sets hash[i] = XXH3_64bits(lower + off[i], len[i]) for each token of b.
 * XXH3 takes a different branch for lengths 1-3, 4-8, 9-16 and more; word
 * lengths in text vary at random between them, so the tokens are sorted
 * into those classes first and each class hashed in a loop of its own
 * (no mispredicted branch per word).
 */
static inline void
HashTokens(const char *lower, TokenBatch *b)
{
	uint16		idx[4][TOKEN_BATCH];
	int32		cnt[4];
	int32		n0 = 0,
				n1 = 0,
				n2 = 0,
				n3 = 0;

	/* counts in registers: each token is written to all four, kept in one */
	for (int32 i = 0; i < b->n; i++)
	{
		int32		l = b->len[i];

		idx[0][n0] = idx[1][n1] = idx[2][n2] = idx[3][n3] = (uint16) i;
		n0 += l <= 3;
		n1 += l > 3 && l <= 8;
		n2 += l > 8 && l <= 16;
		n3 += l > 16;
	}
	cnt[0] = n0;
	cnt[1] = n1;
	cnt[2] = n2;
	cnt[3] = n3;
	for (int32 k = 0; k < cnt[0]; k++)
	{
		int32		i = idx[0][k];

		b->hash[i] = XXH3_len_1to3_64b((const xxh_u8 *) lower + b->off[i],
									   (size_t) b->len[i], XXH3_kSecret, 0);
	}
	for (int32 k = 0; k < cnt[1]; k++)
	{
		int32		i = idx[1][k];

		b->hash[i] = XXH3_len_4to8_64b((const xxh_u8 *) lower + b->off[i],
									   (size_t) b->len[i], XXH3_kSecret, 0);
	}
	for (int32 k = 0; k < cnt[2]; k++)
	{
		int32		i = idx[2][k];

		b->hash[i] = XXH3_len_9to16_64b((const xxh_u8 *) lower + b->off[i],
										(size_t) b->len[i], XXH3_kSecret, 0);
	}
	for (int32 k = 0; k < cnt[3]; k++)
	{
		int32		i = idx[3][k];

		b->hash[i] = XXH3_64bits(lower + b->off[i], (size_t) b->len[i]);
	}
}


/* First position >= pos (and < limit) whose bit is set, or limit. */
static inline int32
NextSet(const uint64 *m, int32 pos, int32 limit)
{
	int32		w = pos >> 6;
	uint64		x = m[w] & (~UINT64CONST(0) << (pos & 63));

	while (x == 0)
	{
		if ((++w << 6) >= limit)
			return limit;
		x = m[w];
	}
	pos = (w << 6) + __builtin_ctzll(x);
	return pos < limit ? pos : limit;
}

/* Is any bit in [from, to) set? */
static inline bool
AnySet(const uint64 *m, int32 from, int32 to)
{
	if (from >= to)
		return false;
	if ((from >> 6) == ((to - 1) >> 6))
	{
		uint64		range = (~UINT64CONST(0) << (from & 63)) &
			(~UINT64CONST(0) >> (63 - ((to - 1) & 63)));

		return (m[from >> 6] & range) != 0;
	}
	return NextSet(m, from, to) < to;
}

/*
 * The mid characters of the block of 64 bytes at s[i0] that join two
 * letters ('.', '\'') or two digits ('.', '\'', ',', ';') into one token,
 * as word bits, from the block's bitmaps (midl, midn: those characters;
 * ahl: letters; dig: digits) and the bytes just outside it: the previous
 * block's last bits in *prev_ahl and *prev_dig, which are then set to this
 * block's, and the byte after the block, if there is one in s[0..len).
 */
static pg_attribute_always_inline uint64
JoinedMids(const char *s, int32 len, int32 i0, uint64 midl, uint64 midn,
		   uint64 ahl, uint64 dig, uint64 *prev_ahl, uint64 *prev_dig)
{
	uint64		next_ahl = 0,
				next_dig = 0,
				joined;

	if (len - i0 > 64)
	{
		uint8		f = ascii_flags[(unsigned char) s[i0 + 64]];

		next_ahl = (f & AF_AHLETTER) != 0;
		next_dig = (f & AF_DIGIT) != 0;
	}
	joined = (midl & ((ahl << 1) | *prev_ahl) & ((ahl >> 1) | (next_ahl << 63))) |
		(midn & ((dig << 1) | *prev_dig) & ((dig >> 1) | (next_dig << 63)));
	*prev_ahl = ahl >> 63;
	*prev_dig = dig >> 63;
	return joined;
}

/*
 * The tests that let a word of the fast path's bitmaps (64 bytes at base)
 * take its tokens without a per-token branch (TokensOfWordAvx512, TokensOfWordAvx2): none of
 * its tokens holds a long run and all are kept.  A token is kept if it holds
 * a keep bit; adding the keep bits to w carries into the bit after the
 * token's end, so the 65-bit sum has that bit set for every kept
 * token.  Also sets *firsts to the starts of the tokens that end in this
 * word and *open if the last one goes on into the next word.  (Any token
 * that began in an earlier word has been taken out of ends already.)
 */
static pg_attribute_always_inline bool
WordTokensSimple(uint64 w, uint64 starts, uint64 ends, uint64 kw, uint64 r4,
				 int32 base, uint64 *firsts, int32 *open)
{
	uint64		sum = w + (kw & w);
	uint64		above = (sum >> 1) | ((uint64) (sum < w) << 63);	/* bits 1..64 */

	if ((r4 & w) != 0 || (above & ends) != ends)
		return false;
	/* whether the last token goes on in the next word, without a branch */
	{
		bool		goeson = __builtin_popcountll(starts) > __builtin_popcountll(ends);
		int			last = 63 - __builtin_clzll(starts | 1);

		*firsts = starts ^ ((uint64) goeson << last);
		*open = goeson ? base + last : *open;
	}
	return true;
}

/*
 * The start bits (of firsts) of the tokens that follow a run break: those
 * with a break bit in the gap before them, found by adding the gap's break
 * bits to ~w (the carry lands on the token's first bit); the first token
 * also if newrun (a break before this word).
 */
static pg_attribute_always_inline uint64
BrokenStarts(uint64 w, uint64 gapbrk, uint64 firsts, bool newrun)
{
	return ((~w + gapbrk) & firsts) | (newrun ? firsts & -firsts : 0);
}

/* Whether a break bit lies after the last token ending in this word. */
static pg_attribute_always_inline bool
BreakAfterLast(uint64 gapbrk, uint64 ends)
{
	return (gapbrk & ~(((UINT64CONST(1) << (63 - __builtin_clzll(ends))) << 1) - 1)) != 0;
}

/*
 * Makes room in st for the lower-cased span of len bytes and its bitmaps
 * (nwords words of each kind); returns nwords.
 */
static inline int32
PrepareBitmaps(SegmentState *st, int32 len)
{
	int32		nwords = (len + 63) / 64 + 1;

	if (st->lowercap < (nwords - 1) * 64 + 2 * LOWER_PAD)
	{
		Reserve((void **) &st->lowerbuf, &st->lowercap, (nwords - 1) * 64 + 2 * LOWER_PAD, 1);
		memset(st->lowerbuf, 0, LOWER_PAD);
		memset(st->lowerbuf + st->lowercap - LOWER_PAD, 0, LOWER_PAD);
		st->lower = st->lowerbuf + LOWER_PAD;
	}
	Reserve((void **) &st->masks, &st->maskcap, MASK_KINDS * nwords, sizeof(uint64));
	return nwords;
}
#endif							/* USE_SSE2_SEGMENTER */

#endif							/* SIMHASH_FP_TOKENIZER_BATCH_H */
