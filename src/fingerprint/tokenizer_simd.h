/*
 * fingerprint/tokenizer_simd.h
 *	  The SIMD kernel of the tokenizer (classification pass and token loop),
 *	  written once: each of tokenizer_sse2.c (16 bytes, part of the x86-64
 *	  baseline), tokenizer_avx2.c (32 bytes) and tokenizer_avx512.c (64;
 *	  these two write their classification, per-word token step and
 *	  hashing apart) defines the macros below and includes this file
 *	  once; the last two are compiled with target attributes and chosen at
 *	  run time when the CPU has them.  All give exactly the same tokens as
 *	  SegmentAsciiScalar (test/t/022_tokenizer_kernels.pl compares them).
 *
 * Before including it, define:
 *	  SEGMENT_FUNC		the name of the token loop to define
 *	  SEGMENT_TARGET	its attributes (a target, or nothing)
 *	  CLASSIFY_CALL		the classification pass it calls
 *	  HASH_TOKENS		the HashTokens it calls
 *	  WORD_TOKENS		optional: takes the tokens of a word of the bitmaps
 *						when it can (see TokensOfWordAvx512)
 *	  BATCH_HEADS		optional, 1: the batch holds the tokens' heads and
 *						tails (TokenBatch), which HASH_TOKENS reads
 *	  RUN_VEC, RUN_N	vector type and number of vectors that hold the 8
 *						words of the run's lanes (RunCounterRunLanes)
 *	  RUN_LOAD(p), RUN_STORE(p, v)
 *	  RUN_ADD(run, hash) add the bits of hash to the byte lanes in run[]
 *	  RUN_CLOSE(run, wide, w) optional: add the byte lanes in run[], times w,
 *						to the 16-bit lanes in wide[] (RUN_N vectors of
 *						RUN_VEC, twice the bytes of run[]: RunCounterWideLanes)
 *						and clear run[]; the kernel then keeps rc's 16-bit
 *						lanes in registers and ends a run itself instead of
 *						calling RunCounterEndRun
 * and, to define a classification pass from vectors of VW bytes:
 *	  CLASSIFY_FUNC		its name
 *	  VEC, VW			the vector type and its width in bytes (16 or 32)
 *	  V_LOAD(p), V_STORE(p, v), V_ZERO(), V_SET1(c), V_OR(a, b), V_AND(a, b),
 *	  V_ADD8(a, b), V_EQ8(a, b), V_LT8(a, b) (signed bytes),
 *	  V_BITS(v)			one bit per byte of v (0 or 0xff), as a uint64
 *	  V_PREV1(v, prev)	the VW bytes before those of v: v moved up by one
 *						byte, the last byte of prev in front
 */
#include "fingerprint/tokenizer_batch.h"

#ifndef BATCH_HEADS
#define BATCH_HEADS		0
#endif

/* bytes in [lo, lo + n), by a signed compare after moving lo to -128 */
#define V_RANGE(v, lo, n) \
	V_LT8(V_ADD8(v, V_SET1((char) (0x80 - (lo)))), V_SET1((char) (-128 + (n))))

#ifdef CLASSIFY_FUNC
/*
 * Lower-cases the ASCII span s[0..len) into lower[] and sets one word of
 * each bitmap (see MASK_WORD ...) for each of its nblocks blocks of 64
 * bytes.  lower[] must have room for nblocks * 64 bytes.
 */
static SEGMENT_TARGET void
CLASSIFY_FUNC(const char *s, int32 len, bool numbers, int32 nblocks, char *lower,
			  uint64 *word, uint64 *keep, uint64 *run4, uint64 *brk)
{
	VEC			prevlo = V_ZERO();	/* the bytes before, lower-cased */
	VEC			keepdigit = numbers ? V_SET1(-1) : V_ZERO();
	uint64		prev_ahl = 0,	/* bit 63 of the previous block's masks */
				prev_dig = 0,
				prev_eq = 0;	/* the previous block's eq (bits 62, 63) */

	for (int32 b = 0; b < nblocks; b++)
	{
		int32		i0 = b * 64;
		uint64		w = 0,
					kp = 0,
					dig = 0,
					ahl = 0,
					midl = 0,
					midn = 0,
					eq = 0,		/* lower[k] == lower[k - 1] */
					plain = 0,	/* letter, digit or space: never a break */
					valid = ~UINT64CONST(0),
					other,
					br = 0;

		for (int k = 0; k < 64 / VW; k++)
		{
			int32		i = i0 + VW * k;
			int			sh = VW * k;
			VEC			v,
						lo,
						isalpha,
						isdigit,
						isat,
						alnum,
						isml;

			if (len - i >= VW)
				v = V_LOAD(s + i);
			else
			{
				char		tail[VW] = {0};

				if (i < len)
					memcpy(tail, s + i, len - i);
				v = V_LOAD(tail);
			}
			isalpha = V_RANGE(V_OR(v, V_SET1(0x20)), 'a', 26);
			lo = V_OR(v, V_AND(isalpha, V_SET1(0x20)));
			isdigit = V_RANGE(v, '0', 10);
			isat = V_EQ8(v, V_SET1('@'));
			alnum = V_OR(isalpha, isdigit);
			isml = V_OR(V_EQ8(v, V_SET1('.')), V_EQ8(v, V_SET1('\'')));
			V_STORE(lower + i, lo);

			w |= V_BITS(V_OR(alnum, V_OR(V_EQ8(v, V_SET1('_')), isat))) << sh;
			kp |= V_BITS(V_OR(isalpha, V_AND(isdigit, keepdigit))) << sh;
			dig |= V_BITS(isdigit) << sh;
			ahl |= V_BITS(V_OR(isalpha, isat)) << sh;
			midl |= V_BITS(isml) << sh;
			midn |= V_BITS(V_OR(isml, V_OR(V_EQ8(v, V_SET1(',')),
										   V_EQ8(v, V_SET1(';'))))) << sh;
			plain |= V_BITS(V_OR(alnum, V_EQ8(v, V_SET1(' ')))) << sh;
			eq |= V_BITS(V_EQ8(lo, V_PREV1(lo, prevlo))) << sh;
			prevlo = lo;
		}
		if (len - i0 < 64)
			valid = (UINT64CONST(1) << (len - i0)) - 1;
		/* mid characters joining two letters or two digits: word bytes */
		w |= JoinedMids(s, len, i0, midl, midn, ahl, dig, &prev_ahl, &prev_dig);

		/* run breaks: look up the few bytes that are no letter, digit or space */
		other = ~plain & valid;
		while (other)
		{
			int			t = __builtin_ctzll(other);

			br |= (uint64) ((ascii_flags[(unsigned char) s[i0 + t]] & AF_BREAK) != 0) << t;
			other &= other - 1;
		}

		word[b] = w;
		keep[b] = kp;
		/* four equal bytes: k equals k - 1, k - 1 equals k - 2, and so on */
		run4[b] = eq & ((eq << 1) | (prev_eq >> 63)) & ((eq << 2) | (prev_eq >> 62)) & valid;
		prev_eq = eq;
		brk[b] = br;
	}
}

#endif

/*
 * The ASCII fast path with bitmaps: the same tokens as SegmentAsciiScalar
 * (ICU's word rules restricted to ASCII).  Tokens are found a word of the
 * bitmaps at a time, from the bits where a token starts and ends, and are
 * passed on in batches (TokenBatch): the kept tokens of TOKEN_BATCH_WORDS
 * words of the bitmaps are collected first, then hashed (HashTokens), then
 * counted in text order.
 */
SEGMENT_TARGET void
SEGMENT_FUNC(SegmentState *st, const char *s, int32 len)
{
	int32		nwords = PrepareBitmaps(st, len);
	uint64	   *word = st->masks + MASK_WORD * nwords,
			   *keep = st->masks + MASK_KEEP * nwords,
			   *run4 = st->masks + MASK_RUN4 * nwords,
			   *brk = st->masks + MASK_BREAK * nwords;
	char	   *lower = st->lower;
	RunCounter *rc = st->rc;
	TfCounter  *tf = st->tf;
	bool		newrun = st->newrun;
	int32		open = -1;		/* start of a token that goes on in the next
								 * word */
	uint64		prevtop = 0;	/* bit 63 of the previous word */
	TokenBatch	batch;

	/*
	 * The current run's byte lanes and length stay in registers while words
	 * are added to the run (the fused path of weights.h); they go back to
	 * rc when a run ends or reaches the cap, and at the end.
	 */
	RUN_VEC		run[RUN_N];
	int64		runlen = 0;
#ifdef RUN_CLOSE
	RUN_VEC		wide[2 * RUN_N];	/* rc's 16-bit lanes */
	int64		widepending = 0;	/* and their weight since the last flush */
#endif

#ifdef RUN_CLOSE
#define LOAD_WIDE() \
	do { \
		for (int r_ = 0; r_ < 2 * RUN_N; r_++) \
			wide[r_] = RUN_LOAD((const RUN_VEC *) RunCounterWideLanes(rc) + r_); \
		widepending = RunCounterWidePending(rc); \
	} while (0)
#define SPILL_WIDE() \
	do { \
		for (int r_ = 0; r_ < 2 * RUN_N; r_++) \
			RUN_STORE((RUN_VEC *) RunCounterWideLanes(rc) + r_, wide[r_]); \
		RunCounterSetWidePending(rc, widepending); \
	} while (0)
#else
#define LOAD_WIDE() ((void) 0)
#define SPILL_WIDE() ((void) 0)
#endif
#ifdef RUN_CLOSE
/*
 * RunCounterClose's lanes, on the lanes in registers: the current run's
 * byte lanes (runlen words), times the run's weight (set in w), added to
 * the 16-bit lanes (flushed first when they could overflow) and cleared.
 */
#define CLOSE_LANES(w) \
	do { \
		(w) = RunCounterRunWeight(rc, runlen); \
		if (WideLaneMustFlush(widepending, runlen * (w))) \
		{ \
			SPILL_WIDE(); \
			RunCounterFlushWide(rc); \
			ZeroBytes(wide, sizeof(wide));	/* as rc's lanes now */ \
			widepending = 0; \
		} \
		RUN_CLOSE(run, wide, (w)); \
		widepending += runlen * (w); \
	} while (0)
#endif
#define LOAD_RUN() \
	do { \
		if (rc) \
		{ \
			for (int r_ = 0; r_ < RUN_N; r_++) \
				run[r_] = RUN_LOAD((const RUN_VEC *) RunCounterRunLanes(rc) + r_); \
			runlen = RunCounterRunLength(rc); \
			LOAD_WIDE(); \
		} \
	} while (0)
#define SPILL_RUN() \
	do { \
		for (int r_ = 0; r_ < RUN_N; r_++) \
			RUN_STORE((RUN_VEC *) RunCounterRunLanes(rc) + r_, run[r_]); \
		RunCounterSetRunLength(rc, runlen); \
		SPILL_WIDE(); \
	} while (0)

	memset(run, 0, sizeof(run));
#ifdef RUN_CLOSE
	ZeroBytes(wide, sizeof(wide));
#endif
	LOAD_RUN();
	CLASSIFY_CALL(s, len, st->numbers, nwords - 1, st->lower, word, keep, run4, brk);
	word[nwords - 1] = keep[nwords - 1] = run4[nwords - 1] = brk[nwords - 1] = 0;
	/* isolated punctuation that ends a run (its bytes are in no token) */
	for (int k = 0; k < st->nbreaks; k++)
		brk[st->breaks[k] >> 6] |= UINT64CONST(1) << (st->breaks[k] & 63);

	for (int32 group = 0; group < nwords - 1; group += TOKEN_BATCH_WORDS)
	{
		int32		groupend = Min(group + TOKEN_BATCH_WORDS, nwords - 1);

		/* 1. the kept tokens that end in this group of words */
		batch.n = 0;
		for (int32 wi = group; wi < groupend; wi++)
		{
			uint64		w = word[wi];
			uint64		starts = w & ~((w << 1) | prevtop);
			uint64		ends = w & ~((w >> 1) | (word[wi + 1] << 63));	/* last bytes */
			uint64		gapbrk = brk[wi] & ~w;	/* run breaks between tokens */
			uint64		kw = keep[wi],
						bw = brk[wi],
						r4 = run4[wi];
			int32		base = wi << 6;

			prevtop = w >> 63;
			if (unlikely(open >= 0) && ends)
			{
				/* the token that began in an earlier word ends here first */
				int32		start = open,
							end = base + __builtin_ctzll(ends) + 1;

				ends &= ends - 1;
				open = -1;
				if (AnySet(keep, start, end))
				{
					BatchToken(&batch, lower, start, end,
							   AnySet(run4, start + MAX_RUN, end), newrun, BATCH_HEADS);
					newrun = false;
				}
				else
					newrun |= AnySet(brk, start, end);
			}
#ifdef WORD_TOKENS
			if (WORD_TOKENS(&batch, lower, w, starts, ends, gapbrk, kw, r4, base, &newrun, &open))
				continue;
#endif
			/* every other token that ends here starts here */
			while (ends)
			{
				uint64		eb = ends & -ends,	/* its last byte */
							sb = starts & -starts,	/* its first byte */
							m = (eb << 1) - sb, /* its bytes (eb << 1 may be
												 * 0) */
							before = gapbrk & (sb - 1);

				ends ^= eb;
				starts ^= sb;
				newrun |= before != 0;
				gapbrk ^= before;
				if (unlikely((kw & m) == 0))
				{
					/* not kept (digits only, say): only its breaks count */
					newrun |= (bw & m) != 0;
					continue;
				}
				/* longrun: a run of 4 from the token's fourth byte on */
				BatchToken(&batch, lower, base + __builtin_ctzll(sb),
						   base + __builtin_ctzll(eb) + 1,
						   (r4 & m & (m << MAX_RUN)) != 0, newrun, BATCH_HEADS);
				newrun = false;
			}
			if (starts)
			{
				/* a token that goes on in the next word */
				uint64		sb = starts & -starts,
							before = gapbrk & (sb - 1);

				open = base + __builtin_ctzll(sb);
				newrun |= before != 0;
				gapbrk ^= before;
			}
			newrun |= gapbrk != 0;
		}

		/* 2. their hashes, and 3. counting them in text order */
		if (rc)
		{
			uint64		breaks[TOKEN_BATCH / 64 + 1];	/* bit i: newrun[i] */

			HASH_TOKENS(lower, &batch);
			NewrunBits(&batch, breaks);
			for (int32 i = 0; i < batch.n;)
			{
				int32		j,
							fit;
				uint64	   *slots;

				/* RunCounterAdd, on the lanes in registers, a stretch at a time */
				if (batch.newrun[i] && runlen > 0)
				{
					if (runlen < SIMHASH_RUN_CAP)
					{
#ifdef RUN_CLOSE
						int64		w;

						CLOSE_LANES(w);
						RunCounterEndRunCap(rc, w);
#else
						SPILL_RUN();
						RunCounterEndRun(rc);
						memset(run, 0, sizeof(run));	/* as rc's lanes now */
#endif
					}
					runlen = 0;
				}
				if (unlikely((uintptr_t) (s + batch.off[i]) >= st->linecut))
				{
					/* version 5: a line of another multiplier starts */
					Assert(runlen == 0);
					SPILL_RUN();
					LineSwitch(st, s + batch.off[i]);
					LOAD_RUN();
				}
				if (unlikely(runlen >= SIMHASH_RUN_CAP - 1))
				{
					/* capped: rare */
					SPILL_RUN();
					RunCounterAdd(rc, batch.hash[i], false);
					LOAD_RUN();
					i++;
					continue;
				}
				/* tokens i .. j - 1: the rest of this run in the batch, uncapped */
				fit = Min(batch.n, i + (SIMHASH_RUN_CAP - 1 - (int32) runlen));
				j = i + 1 < fit ? NextSet(breaks, i + 1, fit) : fit;
#ifdef RUN_CLOSE
				if (runlen == 0 && j < batch.n && ((breaks[j >> 6] >> (j & 63)) & 1))
				{
					/*
					 * the whole run lies in the batch (most do): its words go
					 * to the cap table from the batch, not copied to rc first
					 */
					int32		first = i;
					int64		w;

					for (; i < j; i++)
						RUN_ADD(run, batch.hash[i]);
					runlen = j - first;
					CLOSE_LANES(w);
					RunCounterWholeRunCap(rc, batch.hash + first, j - first, w);
					runlen = 0;
					continue;
				}
#endif
				/* their hashes go to rc as they are counted (no memcpy call) */
				slots = RunCounterRunSlots(rc, j - i);
				runlen += j - i;
				for (; i < j; i++)
				{
					uint64		h = batch.hash[i];

					*slots++ = h;
					RUN_ADD(run, h);
				}
			}
		}
		else if (tf)
		{
			HASH_TOKENS(lower, &batch);
			for (int32 i = 0; i < batch.n; i++)
				TfCounterAdd(tf, batch.hash[i]);
		}
		else
			for (int32 i = 0; i < batch.n; i++)
			{
				LineCheck(st, s + batch.off[i]);
				FeatureExtractorAddToken(st->fx, lower + batch.off[i], batch.len[i],
										 true, batch.newrun[i]);
			}
	}
	Assert(open < 0);
	if (rc)
		SPILL_RUN();
	st->newrun = newrun;
#undef LOAD_RUN
#undef SPILL_RUN
#undef CLOSE_LANES
#undef LOAD_WIDE
#undef SPILL_WIDE
}
