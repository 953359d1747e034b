/*
 * fingerprint/tokenizer_ascii.c
 *	  ICU's word rules on ASCII: the tables of ASCII characters, the scalar
 *	  reference kernel and the choice of the kernel a document runs.
 *
 * On ASCII, NFKC_Casefold only lower-cases, and ICU's word break rules
 * reduce to a handful of character classes (ascii_class).  A kernel gives
 * the kept tokens ICU would give for an ASCII span between two safe cuts;
 * the scalar kernel here is the reference that the SIMD kernels
 * (tokenizer_sse2.c, tokenizer_avx2.c, tokenizer_avx512.c) must match
 * token for token (test/t/022_tokenizer_kernels.pl), and the one run on
 * other architectures or with simhash.simd = off.
 */
#include "fingerprint/tokenizer_kernel.h"

uint8		ascii_class[128];
bool		ascii_breaks_run[128];
uint8		ascii_flags[256];
unsigned char ascii_lower[256];
uint8		nibble_lo[16];
uint8		nibble_hi[16];
uint8		break_rows[16];

/* The NB_ classes of an ASCII character c (tokenizer_kernel.h). */
static uint8
NibbleClasses(int c)
{
	uint8		f = 0;

	if ((c >= 'A' && c <= 'O') || (c >= 'a' && c <= 'o'))
		f |= NB_ALPHA_A;
	if ((c >= 'P' && c <= 'Z') || (c >= 'p' && c <= 'z'))
		f |= NB_ALPHA_B;
	if (c >= '0' && c <= '9')
		f |= NB_DIGIT;
	if (c == '@')
		f |= NB_AT;
	if (c == '_')
		f |= NB_EXTEND;
	if (c == '\'' || c == ',' || c == '.')
		f |= NB_MID2;
	if (c == '\'' || c == '.')
		f |= NB_MIDLETTER;
	if (c == ';')
		f |= NB_SEMICOLON;
	return f;
}

#ifdef USE_AVX2_SEGMENTER
static bool cpu_has_avx2 = false;	/* with BMI1 and BMI2 */
static bool cpu_has_avx512 = false;	/* F, BW, DQ, VL, VBMI, VBMI2 too */
#endif

/* Sets the tables (once), and notes what the CPU has. */
void
AsciiTablesInit(void)
{
	static bool done = false;

	if (done)
		return;
	for (int c = 0; c < 128; c++)
	{
		uint8		cl = AC_OTHER;
		uint8		f = 0;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '@')
			cl = AC_LETTER;
		else if (c >= '0' && c <= '9')
			cl = AC_DIGIT;
		else if (c == '_')
			cl = AC_EXTEND;
		else if (c == '.' || c == '\'')
			cl = AC_MIDNUMLET;
		else if (c == ',' || c == ';')
			cl = AC_MIDNUM;
		else if (c == ' ' || (c >= '\t' && c <= '\r'))
			cl = AC_SPACE;
		else if (c == '"' || c < 0x20 || c == 0x7f)
			cl = AC_STICKY;		/* not a safe place to cut either */
		ascii_class[c] = cl;

		ascii_breaks_run[c] = RunBreakSlow(c);
		if (cl == AC_LETTER || cl == AC_DIGIT || cl == AC_EXTEND)
			f |= AF_WORD;
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
			f |= AF_ALPHA;
		if (cl == AC_LETTER)
			f |= AF_AHLETTER;
		if (cl == AC_DIGIT)
			f |= AF_DIGIT;
		if (cl == AC_MIDNUMLET)
			f |= AF_MIDLETTER | AF_MIDNUM;
		if (cl == AC_MIDNUM)
			f |= AF_MIDNUM;
		if (ascii_breaks_run[c])
			f |= AF_BREAK;
		ascii_flags[c] = f;
		ascii_lower[c] = (c >= 'A' && c <= 'Z') ? c + ('a' - 'A') : c;
	}
	/* the nibble tables: each class is a rectangle, so this is exact */
	for (int c = 0; c < 128; c++)
	{
		nibble_lo[c & 15] |= NibbleClasses(c);
		nibble_hi[c >> 4] |= NibbleClasses(c);
		if (ascii_breaks_run[c])
			break_rows[c & 15] |= 1 << (c >> 4);
	}
	for (int c = 0; c < 128; c++)
		if ((nibble_lo[c & 15] & nibble_hi[c >> 4]) != NibbleClasses(c))
			elog(ERROR, "byte class %d is no rectangle of nibbles", c);
#ifdef USE_AVX2_SEGMENTER
	__builtin_cpu_init();
	cpu_has_avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
		__builtin_cpu_supports("bmi2");
	cpu_has_avx512 = cpu_has_avx2 &&
		__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
		__builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
		__builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512vbmi2");
#endif
	done = true;
}

#ifdef USE_AVX2_SEGMENTER
bool
AsciiKernelAvx2Supported(void)
{
	return cpu_has_avx2;
}

bool
AsciiKernelAvx512Supported(void)
{
	return cpu_has_avx512;
}
#endif

/*
 * The kernel for simhash.simd = simd (a SimdLevel) on this CPU: off runs
 * the scalar kernel; sse2 SSE2 (scalar outside x86-64); avx2 AVX2 if the
 * CPU has it; auto AVX-512 if the CPU has it, else as avx2.  Needs
 * AsciiTablesInit.
 */
AsciiKernel
ChooseAsciiKernel(int simd)
{
	if (simd == SIMD_OFF)
		return SegmentAsciiScalar;
#ifdef USE_AVX2_SEGMENTER
	if (simd == SIMD_AUTO && cpu_has_avx512)
		return SegmentAsciiAvx512;
	if (simd >= SIMD_AVX2 && cpu_has_avx2)
		return SegmentAsciiAvx2;
#endif
#ifdef USE_SSE2_SEGMENTER
	return SegmentAsciiSse2;
#else
	return SegmentAsciiScalar;
#endif
}

/*
 * ICU's word rules restricted to ASCII: a token is a maximal run of
 * letters, digits and '_', in which also '.' or '\'' may stand between two
 * letters, and '.', '\'', ',' or ';' between two digits.  One pass per
 * byte: classify, lower-case, note letters and run breaks; then shorten
 * runs in the token.
 * With the default options (st->rc) each token is hashed and counted here,
 * as FeatureExtractorAddToken would (the short stretches between CJK runs
 * of version 4 come here); else the tokens go to st->fx.
 */
void
SegmentAsciiScalar(SegmentState *st, const char *s, int32 len)
{
	const unsigned char *u = (const unsigned char *) s;
	uint8		keepmask = KeptTokenFlags(st);
	bool		newrun = st->newrun;
	char	   *out = st->token;
	int32		i = 0;
	int32		nextbreak = 0;

	while (i < len)
	{
		int32		start;
		int32		toklen = 0;
		uint8		seen = 0;

		/*
		 * skip to the start of a token; isolated punctuation (non-ASCII)
		 * ends a run where st->breaks says so
		 */
		while (i < len && !(ascii_flags[u[i]] & AF_WORD))
		{
			if (unlikely(u[i] >= 0x80))
			{
				if (nextbreak < st->nbreaks && st->breaks[nextbreak] == i)
				{
					newrun = true;
					nextbreak++;
				}
			}
			else
				newrun |= (ascii_flags[u[i]] & AF_BREAK) != 0;
			i++;
		}
		if (i >= len)
			break;

		/* find its end, lower-case it on the way, note what it holds */
		start = i;
		for (;;)
		{
			uint8		f;

			while (i < len && ((f = ascii_flags[u[i]]) & AF_WORD))
			{
				seen |= f;
				out[toklen++] = (char) ascii_lower[u[i]];
				i++;
			}
			if (i + 1 < len)
			{
				uint8		m = ascii_flags[u[i]];
				uint8		x = ascii_flags[u[i - 1]];
				uint8		y = ascii_flags[u[i + 1]];

				if (((m & AF_MIDLETTER) && (x & y & AF_AHLETTER)) ||
					((m & AF_MIDNUM) && (x & y & AF_DIGIT)))
				{
					seen |= m | y;
					out[toklen++] = (char) ascii_lower[u[i]];
					out[toklen++] = (char) ascii_lower[u[i + 1]];
					i += 2;
					continue;
				}
			}
			break;
		}

		/* shorten runs of one byte */
		if (!(seen & keepmask))
		{
			for (int32 k = start; k < i; k++)
				newrun |= (ascii_flags[u[k]] & AF_BREAK) != 0;
			continue;
		}
		if (toklen > MAX_RUN)
		{
			int32		k;

			for (k = MAX_RUN; k < toklen; k++)
				if (out[k] == out[k - 1] && out[k] == out[k - 2] && out[k] == out[k - 3])
					break;
			if (k < toklen)
			{
				/* rare: rebuild with runs of at most MAX_RUN */
				int32		n = k;

				for (; k < toklen; k++)
					if (!(out[k] == out[n - 1] && out[k] == out[n - 2] && out[k] == out[n - 3]))
						out[n++] = out[k];
				toklen = n;
			}
		}
		LineCheck(st, s + start);
		if (st->rc)
			RunCounterAdd(st->rc, XXH3_64bits(out, toklen), newrun);
		else
			FeatureExtractorAddToken(st->fx, out, toklen, true, newrun);
		newrun = false;
	}
	st->newrun = newrun;
}
