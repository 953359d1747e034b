/*
 * fingerprint_classify.h
 *	  The classification pass of the ASCII fast path, written once for
 *	  vectors of VW bytes.  fingerprint_text.c includes this file once for
 *	  SSE2 (16 bytes, part of the x86-64 baseline) and once for AVX2 (32
 *	  bytes, compiled with a target attribute and chosen at run time when
 *	  the CPU has it).  Both set exactly the same bits.
 *
 * Before including it, define:
 *	  CLASSIFY_FUNC		the name of the function to define
 *	  CLASSIFY_TARGET	its attributes (a target, or nothing)
 *	  VEC, VW			the vector type and its width in bytes (16 or 32)
 *	  V_LOAD(p), V_STORE(p, v), V_ZERO(), V_SET1(c), V_OR(a, b), V_AND(a, b),
 *	  V_ADD8(a, b), V_EQ8(a, b), V_LT8(a, b) (signed bytes),
 *	  V_BITS(v)			one bit per byte of v (0 or 0xff), as a uint64
 *	  V_PREV1(v, prev)	the VW bytes before those of v: v moved up by one
 *						byte, the last byte of prev in front
 * It undefines them all at the end.
 */

/* bytes in [lo, lo + n), by a signed compare after moving lo to -128 */
#define V_RANGE(v, lo, n) \
	V_LT8(V_ADD8(v, V_SET1((char) (0x80 - (lo)))), V_SET1((char) (-128 + (n))))

/*
 * Lower-cases the ASCII span s[0..len) into lower[] and sets one word of
 * each bitmap (see MASK_WORD ...) for each of its nblocks blocks of 64
 * bytes.  lower[] must have room for nblocks * 64 bytes.
 */
static CLASSIFY_TARGET void
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
					br = 0,
					next_ahl = 0,
					next_dig = 0;

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
		else if (len - i0 > 64)
		{
			uint8		f = ascii_flags[(unsigned char) s[i0 + 64]];

			next_ahl = (f & AF_AHLETTER) != 0;
			next_dig = (f & AF_DIGIT) != 0;
		}

		/*
		 * A mid character between two letters ('.', '\'') or two digits
		 * ('.', '\'', ',', ';') joins them into one token: make it a word
		 * byte.
		 */
		w |= (midl & ((ahl << 1) | prev_ahl) & ((ahl >> 1) | (next_ahl << 63))) |
			(midn & ((dig << 1) | prev_dig) & ((dig >> 1) | (next_dig << 63)));
		prev_ahl = ahl >> 63;
		prev_dig = dig >> 63;

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

#undef V_RANGE
#undef CLASSIFY_FUNC
#undef CLASSIFY_TARGET
#undef VEC
#undef VW
#undef V_LOAD
#undef V_STORE
#undef V_ZERO
#undef V_SET1
#undef V_OR
#undef V_AND
#undef V_ADD8
#undef V_EQ8
#undef V_LT8
#undef V_BITS
#undef V_PREV1
