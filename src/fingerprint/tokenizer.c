/*
 * fingerprint/tokenizer.c
 *	  Normalization and word segmentation of documents with ICU, streamed in
 *	  chunks, with a fast path for ASCII that gives the same tokens.
 *
 * Algorithm version 2, tokens:
 *	  - the text (UTF-8) is normalized with ICU's NFKC_Casefold, which does
 *		not depend on any locale, collation or database setting, and
 *		segmented with ICU's word break iterator for the root locale (UAX
 *		#29 as tailored by ICU, with dictionaries for Chinese, Japanese,
 *		Thai, Khmer, Lao and Burmese);
 *	  - a segment is kept when it contains a letter (general category L) or,
 *		with the option numbers, a decimal digit: spaces, punctuation,
 *		symbols and runs like "______" or "----" are dropped, and so by
 *		default are numbers, the counters and dates that differ between
 *		copies of a page;
 *	  - within a kept segment a run of more than 3 equal code points is
 *		shortened to 3 ("Soooooo" and "soooo" become "sooo"; "哈哈哈哈哈"
 *		becomes "哈哈哈"), so that no single run dominates the weights;
 *	  - for weighting runs, each kept token says whether a run break
 *		(RunBreak: a sentence terminator, a line break, a symbol ...) stood
 *		between it and the previous one.
 *
 * Streaming: the text is processed in chunks of about CHUNK_BYTES, each cut
 * after a whitespace or punctuation character where UAX #29 always breaks
 * and before a character where NFKC normalization may start afresh, so
 * that chunking does not change the tokens.  (A run of CHUNK_BYTES without
 * such a place, in practice only binary junk, is cut anyway at a
 * normalization boundary.)  Memory beyond the text is O(CHUNK_BYTES),
 * interrupts are checked after each chunk.  A document that arrives in
 * pieces (SegmentStream*, from stream.c) is cut at the same
 * places from a window of about two chunks.
 *
 * ASCII fast path: stretches of ASCII between safe cuts are segmented by a
 * hand-written equivalent of ICU's rules on ASCII (lower-casing is all
 * NFKC_Casefold does to ASCII); punctuation that is always a word of its own
 * (IsolatedPunct: curly quotes, dashes) stays in those stretches as bytes
 * of no token (st->breaks marks where it ends a run), and only the pieces
 * around other non-ASCII characters go through ICU.  With the
 * default options (and words weighted tf) the fast path hashes and counts
 * each word itself.  simhash.fast_path = off sends everything through ICU;
 * the regression test fingerprint_icu compares both on many random strings,
 * with each variant of the fast path (simhash.simd: auto = AVX-512 where the
 * CPU has it, AVX2, SSE2, portable).
 */
#include "fingerprint/tokenizer.h"

#include "miscadmin.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <unicode/ubrk.h>
#include <unicode/uchar.h>
#include <unicode/uscript.h>
#include <unicode/unorm2.h>
#include <unicode/ustring.h>
#include <unicode/utf8.h>
#include <unicode/utf16.h>
#include <unicode/uversion.h>

#define CHUNK_BYTES		(64 * 1024)

/*
 * On x86-64 the ASCII fast path classifies 16 bytes at a time with SSE2,
 * which is part of the x86-64 baseline (no -march flag is needed), 32 at a
 * time with AVX2, or 64 with AVX-512 (with its own token and hashing
 * steps), each variant compiled with a target attribute and chosen at run
 * time when the CPU has the instructions.  Elsewhere it runs the
 * byte-at-a-time loop, which gives the same tokens.
 */
#if defined(__SSE2__)
#define USE_SSE2_SEGMENTER
#include <emmintrin.h>
#if defined(__x86_64__) && defined(__GNUC__)
#define USE_AVX2_SEGMENTER
#include <immintrin.h>
#endif
#endif

/* simhash.fast_path: use the ASCII fast path (results are the same). */
bool		simhash_fast_path = true;

/* simhash.simd: which code the ASCII fast path runs (results are the same). */
int			simhash_simd = SIMD_AUTO;

#ifdef USE_AVX2_SEGMENTER
static bool cpu_has_avx2 = false;
static bool cpu_has_avx512 = false;	/* F, BW, DQ, VL, VBMI, VBMI2 */
#endif

/* Longest run of one code point kept inside a token. */
#define MAX_RUN			3

/* ICU objects, opened once per backend (ICU allocates them with malloc). */
static const UNormalizer2 *nfkc_cf = NULL;
static UBreakIterator *word_iter = NULL;

/* Classes of ASCII characters under ICU's word break rules. */
enum
{
	AC_OTHER = 0,				/* always breaks before and after */
	AC_LETTER,					/* ALetter: A-Z, a-z and (ICU) '@' */
	AC_DIGIT,					/* Numeric */
	AC_EXTEND,					/* ExtendNumLet: '_' */
	AC_MIDNUMLET,				/* MidNumLet and Single_Quote: '.', '\'' */
	AC_MIDNUM,					/* MidNum: ',', ';' */
	AC_SPACE,					/* White_Space */
	AC_STICKY					/* '"' (Double_Quote, joins Hebrew letters) */
};
static uint8 ascii_class[128];

/* Does an ASCII character outside kept tokens end a run (RunBreak)? */
static bool ascii_breaks_run[128];

/* Flags of bytes for the ASCII fast path (bytes >= 128 have none). */
#define AF_WORD			0x01	/* letter, digit, '_' or '@' */
#define AF_ALPHA		0x02	/* A-Z, a-z: makes a token kept */
#define AF_DIGIT		0x04	/* 0-9 */
#define AF_AHLETTER		0x08	/* ALetter: A-Z, a-z, '@' */
#define AF_MIDLETTER	0x10	/* may join two letters: '.', '\'' */
#define AF_MIDNUM		0x20	/* may join two digits: '.', '\'', ',', ';' */
#define AF_BREAK		0x40	/* ends a run */
static uint8 ascii_flags[256];
static unsigned char ascii_lower[256];

/* Working buffers of one document. */
typedef struct SegmentState
{
	FeatureExtractor *fx;
	RunCounter *rc;				/* default options: words counted here
								 * directly, without FeatureExtractorAddToken */
	TfCounter  *tf;			/* the same for words weighted tf */
	bool		numbers;
	bool		newrun;			/* a run break since the last kept token? */
	char	   *token;			/* a token in UTF-8 */
	int32		tokencap;
	UChar	   *utf16;
	int32		utf16cap;
	UChar	   *norm;
	int32		normcap;
	/* ASCII fast path: isolated punctuation in the span that ends a run */
	int32	   *breaks;			/* offsets of its first bytes, ascending */
	int32		nbreaks;
	int32		breakcap;
#ifdef USE_SSE2_SEGMENTER
	/* ASCII fast path: the span lower-cased, and bitmaps of its bytes */
	char	   *lower;			/* the span lower-cased: lowerbuf + LOWER_PAD */
	char	   *lowerbuf;
	int32		lowercap;
	uint64	   *masks;			/* MASK_KINDS bitmaps of nmaskwords words */
	int32		maskcap;
#endif
} SegmentState;

static void
InitAsciiClasses(void)
{
	for (int c = 0; c < 128; c++)
	{
		uint8		cl = AC_OTHER;

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
	}
}

/*
 * Does c, found between two kept tokens, end a run of text (for weighting
 * runs)?  Spaces, digits, and what sentence segmentation continues a
 * sentence with (commas, colons, semicolons, dashes, quotes, brackets) do
 * not; line breaks, sentence terminators, symbols and everything else do.
 */
static bool
RunBreakSlow(UChar32 c)
{
	if (u_isdigit(c))
		return false;
	switch (u_getIntPropertyValue(c, UCHAR_SENTENCE_BREAK))
	{
		case U_SB_SP:
		case U_SB_SCONTINUE:
		case U_SB_CLOSE:
		case U_SB_EXTEND:
		case U_SB_FORMAT:
			return false;
		default:
			return true;
	}
}

static inline bool
RunBreak(UChar32 c)
{
	return c < 128 ? ascii_breaks_run[c] : RunBreakSlow(c);
}

/* Opens the ICU objects on first use. */
static void
EnsureIcu(void)
{
	UErrorCode status = U_ZERO_ERROR;

	if (word_iter != NULL)
		return;
	nfkc_cf = unorm2_getNFKCCasefoldInstance(&status);
	if (U_FAILURE(status))
		ereport(ERROR,
				(errcode(ERRCODE_EXTERNAL_ROUTINE_EXCEPTION),
				 errmsg("could not open the ICU NFKC_Casefold normalizer: %s",
						u_errorName(status))));
	word_iter = ubrk_open(UBRK_WORD, "", NULL, 0, &status);
	if (U_FAILURE(status))
		ereport(ERROR,
				(errcode(ERRCODE_EXTERNAL_ROUTINE_EXCEPTION),
				 errmsg("could not open the ICU word break iterator: %s",
						u_errorName(status))));
	InitAsciiClasses();
#ifdef USE_AVX2_SEGMENTER
	__builtin_cpu_init();
	cpu_has_avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
		__builtin_cpu_supports("bmi2");
	cpu_has_avx512 = cpu_has_avx2 &&
		__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
		__builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
		__builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512vbmi2");
#endif
	for (int c = 0; c < 128; c++)
	{
		uint8		cl = ascii_class[c];
		uint8		f = 0;

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
}

/* Major version of the ICU library loaded (not the headers built against). */
int
IcuMajorVersion(void)
{
	UVersionInfo v;

	u_getVersion(v);
	return v[0];
}

/*
 * Is c punctuation that UAX #29 (as ICU tailors it) never joins to anything
 * and that NFKC_Casefold leaves alone?  Word_Break Other, and outside
 * complex context: ICU's word rules join complex-context characters
 * (Line_Break SA) to their neighbours as letters, punctuation among them too
 * (Tai Tham U+1AA0..U+1AAD, Tai Viet U+AADE..U+AADF).
 */
static bool
PunctOnItsOwn(UChar32 c)
{
	UChar		mapping[8];
	UErrorCode	status = U_ZERO_ERROR;

	return (U_GET_GC_MASK(c) & U_GC_P_MASK) != 0 &&
		u_getIntPropertyValue(c, UCHAR_WORD_BREAK) == U_WB_OTHER &&
		u_getIntPropertyValue(c, UCHAR_LINE_BREAK) != U_LB_COMPLEX_CONTEXT &&
		unorm2_getDecomposition(nfkc_cf, c, mapping, 8, &status) < 0;
}

/*
 * Can a chunk end right after c?  Only after whitespace, or punctuation on
 * its own (above).  The ASCII fast path cuts at the same places.
 */
static bool
SafeToCutAfter(UChar32 c)
{
	if (c < 0)
		return false;
	if (c < 128)
		return ascii_class[c] == AC_SPACE ||
			(ascii_class[c] == AC_OTHER && c != '@');
	return u_isUWhiteSpace(c) || PunctOnItsOwn(c);
}

/* Can a chunk start with c?  Not with anything that attaches backwards. */
static bool
SafeToCutBefore(UChar32 c)
{
	int32		wb;

	if (c < 0)
		return false;
	if (c < 128)
		return true;
	wb = u_getIntPropertyValue(c, UCHAR_WORD_BREAK);
	if (wb == U_WB_EXTEND || wb == U_WB_FORMAT || wb == U_WB_ZWJ)
		return false;
	return unorm2_hasBoundaryBefore(nfkc_cf, c);
}

/*
 * Where to end the chunk that starts at start and would end at end (< len):
 * a position in (start, end] that is safe to cut at.
 */
static int32
FindCut(const char *s, int32 start, int32 end, int32 len)
{
	const uint8_t *u = (const uint8_t *) s;
	int32		p = end;
	int32		q;

	while (p > start + 1 && U8_IS_TRAIL(u[p]))
		p--;
	for (q = p; q > start;)
	{
		UChar32 next, prev;
		int32		i = q,
					j = q;

		U8_NEXT(u, i, len, next);
		U8_PREV(u, start, j, prev);
		if (SafeToCutAfter(prev) && SafeToCutBefore(next))
			return q;
		q = j;
	}
	/* No word boundary we can prove; settle for a normalization boundary. */
	for (q = p; q > start && p - q < 1024;)
	{
		UChar32 next;
		int32		i = q;

		U8_NEXT(u, i, len, next);
		if (SafeToCutBefore(next))
			return q;
		U8_BACK_1(u, start, q);
	}
	return p;
}

/*
 * ICU's word rules restricted to ASCII: a token is a maximal run of
 * letters, digits and '_', in which also '.' or '\'' may stand between two
 * letters, and '.', '\'', ',' or ';' between two digits.  One pass per
 * byte: classify, lower-case, shorten runs, note letters and run breaks.
 */
static pg_attribute_unused() void
SegmentAsciiScalar(SegmentState *st, const char *s, int32 len)
{
	const unsigned char *u = (const unsigned char *) s;
	uint8		keepmask = AF_ALPHA | (st->numbers ? AF_DIGIT : 0);
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

		/* find its end */
		start = i;
		for (;;)
		{
			while (i < len && (ascii_flags[u[i]] & AF_WORD))
				i++;
			if (i + 1 < len)
			{
				uint8		m = ascii_flags[u[i]];
				uint8		x = ascii_flags[u[i - 1]];
				uint8		y = ascii_flags[u[i + 1]];

				if (((m & AF_MIDLETTER) && (x & y & AF_AHLETTER)) ||
					((m & AF_MIDNUM) && (x & y & AF_DIGIT)))
				{
					i += 2;
					continue;
				}
			}
			break;
		}

		/* lower-case it, note what it holds, shorten runs of one byte */
		for (int32 k = start; k < i; k++)
		{
			seen |= ascii_flags[u[k]];
			out[toklen++] = (char) ascii_lower[u[k]];
		}
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
		FeatureExtractorAddToken(st->fx, out, toklen, true, newrun);
		newrun = false;
	}
	st->newrun = newrun;
}

/* Makes *buf hold at least need units of size elem. */
static void
Reserve(void **buf, int32 *cap, int32 need, Size elem)
{
	if (*cap >= need)
		return;
	if (*buf)
		pfree(*buf);
	*cap = Max(need, 2 * *cap);
	*buf = palloc((Size) *cap * elem);
}

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
/* Readable bytes before and after the lower-cased span (HashTokensAvx512) */
#define LOWER_PAD		8
#define TOKEN_BATCH		(TOKEN_BATCH_WORDS * 32)

typedef struct TokenBatch
{
	int32		n;
	int32		off[TOKEN_BATCH];
	int32		len[TOKEN_BATCH];
	bool		newrun[TOKEN_BATCH];
	uint64		hash[TOKEN_BATCH];
} TokenBatch;

/*
 * Appends the kept token lower[start..end) to b; longrun says it holds a run
 * of more than MAX_RUN equal bytes, shortened here in place (to the bytes
 * SegmentAsciiScalar would copy).
 */
static pg_attribute_always_inline void
BatchToken(TokenBatch *b, char *lower, int32 start, int32 end, bool longrun,
		   bool newrun)
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
	b->n++;
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

#ifdef USE_AVX2_SEGMENTER
/* Code for CPUs with the AVX-512 subsets of cpu_has_avx512. */
#define AVX512_TARGET __attribute__((target("avx2,bmi,bmi2,avx512f,avx512bw,avx512dq,avx512vl,avx512vbmi,avx512vbmi2")))

/*
 * HashTokens with AVX-512, eight tokens at a time.  Each lane reads the 8
 * bytes at the token's start and the 8 bytes that end at its end (lower
 * must have 8 readable bytes before and after the span: LOWER_PAD), from
 * which it computes both XXH3's hash of 1-3 bytes and that of 4-8 bytes and keeps
 * the one for its length; longer tokens (about 1 in 9 words) are hashed
 * one by one.  The same values as XXH3_64bits: the formulas are those of
 * XXH3_len_1to3_64b (combined bytes, XXH64's avalanche) and
 * XXH3_len_4to8_64b (rrmxmx), with the default secret and seed 0.
 */
static AVX512_TARGET void
HashTokensAvx512(const char *lower, TokenBatch *b)
{
	const __m512i flip13 = _mm512_set1_epi64((int64) (XXH_readLE32(XXH3_kSecret) ^
													 XXH_readLE32(XXH3_kSecret + 4)));
	const __m512i flip48 = _mm512_set1_epi64((int64) (XXH_readLE64(XXH3_kSecret + 8) ^
													 XXH_readLE64(XXH3_kSecret + 16)));
	const __m512i prime2 = _mm512_set1_epi64((int64) XXH_PRIME64_2);
	const __m512i prime3 = _mm512_set1_epi64((int64) XXH_PRIME64_3);
	const __m512i rrmxmx = _mm512_set1_epi64((int64) UINT64CONST(0x9FB21C651E98DF25));
	const __m512i byte = _mm512_set1_epi64(0xff);

	for (int32 i = 0; i < b->n; i += 8)
	{
		__mmask8	live = b->n - i >= 8 ? 0xff : (__mmask8) ((1u << (b->n - i)) - 1);
		__m256i		off = _mm256_maskz_loadu_epi32(live, b->off + i);
		__m256i		len32 = _mm256_maskz_loadu_epi32(live, b->len + i);
		__m512i		len = _mm512_cvtepi32_epi64(len32);
		__m512i		head = _mm512_mask_i32gather_epi64(_mm512_setzero_si512(), live,
													   off, lower, 1);
		__m512i		tail = _mm512_mask_i32gather_epi64(_mm512_setzero_si512(), live,
													   _mm256_add_epi32(off, _mm256_sub_epi32(len32, _mm256_set1_epi32(8))),
													   lower, 1);
		__m512i		c1,
					c2,
					c3,
					h13,
					h48;
		__mmask8	longer;

		/* 1-3 bytes: first, middle (byte len / 2) and last byte, and len */
		c1 = _mm512_and_si512(head, byte);
		c2 = _mm512_and_si512(_mm512_srlv_epi64(head, _mm512_slli_epi64(_mm512_srli_epi64(len, 1), 3)), byte);
		c3 = _mm512_srli_epi64(tail, 56);
		h13 = _mm512_or_si512(_mm512_or_si512(_mm512_slli_epi64(c1, 16), _mm512_slli_epi64(c2, 24)),
							  _mm512_or_si512(c3, _mm512_slli_epi64(len, 8)));
		h13 = _mm512_xor_si512(h13, flip13);
		h13 = _mm512_xor_si512(h13, _mm512_srli_epi64(h13, 33));
		h13 = _mm512_mullo_epi64(h13, prime2);
		h13 = _mm512_xor_si512(h13, _mm512_srli_epi64(h13, 29));
		h13 = _mm512_mullo_epi64(h13, prime3);
		h13 = _mm512_xor_si512(h13, _mm512_srli_epi64(h13, 32));

		/* 4-8 bytes: the first 4 bytes (high half) and the last 4 (low) */
		h48 = _mm512_add_epi64(_mm512_srli_epi64(tail, 32), _mm512_slli_epi64(head, 32));
		h48 = _mm512_xor_si512(h48, flip48);
		h48 = _mm512_xor_si512(h48, _mm512_xor_si512(_mm512_rol_epi64(h48, 49),
													 _mm512_rol_epi64(h48, 24)));
		h48 = _mm512_mullo_epi64(h48, rrmxmx);
		h48 = _mm512_xor_si512(h48, _mm512_add_epi64(_mm512_srli_epi64(h48, 35), len));
		h48 = _mm512_mullo_epi64(h48, rrmxmx);
		h48 = _mm512_xor_si512(h48, _mm512_srli_epi64(h48, 28));

		_mm512_mask_storeu_epi64(b->hash + i, live,
								 _mm512_mask_blend_epi64(_mm512_cmple_epi64_mask(len, _mm512_set1_epi64(3)),
														 h48, h13));
		longer = _mm512_mask_cmpgt_epi64_mask(live, len, _mm512_set1_epi64(8));
		while (longer)
		{
			int32		j = i + __builtin_ctz(longer);

			longer &= longer - 1;
			b->hash[j] = XXH3_64bits(lower + b->off[j], (size_t) b->len[j]);
		}
	}
}

#endif

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
 * Makes room in st for the lower-cased span of len bytes and its bitmaps
 * (nwords words of each kind); returns nwords.
 */
static int32
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

#ifdef USE_AVX2_SEGMENTER
/*
 * The classification pass (see ClassifyBlocksSse2) with AVX-512: a block of 64 bytes is one vector and each
 * comparison gives a bitmap word directly; the bytes that end a run come
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

/*
 * The tests that let a word of the fast path's bitmaps (64 bytes at base)
 * take its tokens without a per-token branch (TokensOfWordAvx512): none of
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
	*firsts = starts;
	if (__builtin_popcountll(starts) > __builtin_popcountll(ends))
	{
		/* the last token goes on in the next word */
		int			last = 63 - __builtin_clzll(starts);

		*firsts ^= UINT64CONST(1) << last;
		*open = base + last;
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
 * WORD_TOKENS of the AVX-512 token loop: when WordTokensSimple allows,
 * appends the tokens of the word to b and updates *newrun and *open as the
 * per-token loop would; else returns false and does nothing.  The tokens'
 * first and last bytes are the positions of the set bits, in order
 * (vpcompressb of 0 .. 63; at most 32 of each), stored 16 at a time.
 * (The same without AVX-512, one token at a time from the bitmaps, was
 * measured no faster than the per-token loop.)
 */
static AVX512_TARGET pg_attribute_always_inline bool
TokensOfWordAvx512(TokenBatch *b, uint64 w, uint64 starts, uint64 ends, uint64 gapbrk,
				   uint64 kw, uint64 r4, int32 base, bool *newrun, int32 *open)
{
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
	StaticAssertStmt(sizeof(bool) == 1, "newrun is stored as bytes");
	_mm512_mask_storeu_epi8(b->newrun + b->n, (UINT64CONST(1) << n) - 1,
							_mm512_maskz_set1_epi8(broken, 1));
	b->n += n;
	return true;
}

/*
 * The same with AVX-512 where the CPU has it: ClassifyBlocksAvx512,
 * TokensOfWordAvx512 for the tokens of most words, HashTokensAvx512; the
 * run lanes as in the AVX2 variant.
 */
#define SEGMENT_FUNC	SegmentAsciiAvx512
#define HASH_TOKENS		HashTokensAvx512
#define CLASSIFY_CALL	ClassifyBlocksAvx512
#define WORD_TOKENS		TokensOfWordAvx512
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
#include "fingerprint/tokenizer_simd.h"
#endif

/* The ASCII fast path: SIMD unless simhash.simd is off (for the tests). */
static void
SegmentAscii(SegmentState *st, const char *s, int32 len)
{
	if (unlikely(simhash_simd == SIMD_OFF))
		SegmentAsciiScalar(st, s, len);
#ifdef USE_AVX2_SEGMENTER
	else if (simhash_simd == SIMD_AUTO && cpu_has_avx512)
		SegmentAsciiAvx512(st, s, len);
	else if (simhash_simd >= SIMD_AVX2 && cpu_has_avx2)
		SegmentAsciiAvx2(st, s, len);
#endif
	else
		SegmentAsciiSse2(st, s, len);
	st->nbreaks = 0;
}

#else
static void
SegmentAscii(SegmentState *st, const char *s, int32 len)
{
	SegmentAsciiScalar(st, s, len);
	st->nbreaks = 0;
}
#endif							/* USE_SSE2_SEGMENTER */

static void
CheckIcu(UErrorCode status, const char *what)
{
	if (U_FAILURE(status))
		ereport(ERROR,
				(errcode(ERRCODE_EXTERNAL_ROUTINE_EXCEPTION),
				 errmsg("ICU %s failed: %s", what, u_errorName(status))));
}

/* Normalizes and segments a chunk with ICU. */
static void
SegmentIcu(SegmentState *st, const char *s, int32 len)
{
	UErrorCode status = U_ZERO_ERROR;
	int32		n16;
	int32		nnorm;
	int32		start,
				end,
				prev_end = -1;

	Reserve((void **) &st->utf16, &st->utf16cap, len + 1, sizeof(UChar));
	u_strFromUTF8WithSub(st->utf16, st->utf16cap, &n16, s, len, 0xFFFD, NULL, &status);
	CheckIcu(status, "conversion from UTF-8");

	Reserve((void **) &st->norm, &st->normcap, n16 + n16 / 2 + 16, sizeof(UChar));
	nnorm = unorm2_normalize(nfkc_cf, st->utf16, n16, st->norm, st->normcap, &status);
	if (status == U_BUFFER_OVERFLOW_ERROR)
	{
		status = U_ZERO_ERROR;
		Reserve((void **) &st->norm, &st->normcap, nnorm + 1, sizeof(UChar));
		nnorm = unorm2_normalize(nfkc_cf, st->utf16, n16, st->norm, st->normcap, &status);
	}
	CheckIcu(status, "normalization");

	Reserve((void **) &st->token, &st->tokencap, 3 * nnorm + 4, 1);
	ubrk_setText(word_iter, st->norm, nnorm, &status);
	CheckIcu(status, "word segmentation");

	start = ubrk_first(word_iter);
	for (end = ubrk_next(word_iter); end != UBRK_DONE;
		 start = end, end = ubrk_next(word_iter))
	{
		int32		i = start;
		int32		toklen = 0;
		bool		keep = false;
		UChar32		last = -1;
		int			run = 0;

		while (i < end)
		{
			UChar32		c;

			U16_NEXT(st->norm, i, end, c);
			if (!keep && (u_isalpha(c) || (st->numbers && u_isdigit(c))))
				keep = true;
			if (c == last)
			{
				if (++run > MAX_RUN)
					continue;
			}
			else
			{
				last = c;
				run = 1;
			}
			U8_APPEND_UNSAFE(st->token, toklen, c);
		}
		if (keep)
		{
			FeatureExtractorAddToken(st->fx, st->token, toklen,
									 start != prev_end, st->newrun);
			st->newrun = false;
			prev_end = end;
		}
		else
		{
			for (i = start; i < end;)
			{
				UChar32		c;

				U16_NEXT(st->norm, i, end, c);
				st->newrun |= RunBreak(c);
			}
		}
	}
	/* don't leave ICU pointing into memory about to be freed */
	ubrk_setText(word_iter, NULL, 0, &status);
}

/*
 * Is c punctuation that is a word of its own wherever it stands, as long as
 * what follows it is not an Extend, Format or ZWJ character, and that
 * normalization leaves alone?  Such a character (curly quotes, dashes and
 * the ellipsis of English text) needs no ICU: UAX #29 breaks before and
 * after a character of Word_Break Other (WB999; WB3c joins only
 * Extended_Pictographic, excluded, after a ZWJ); ICU's rules treat complex
 * context (Thai, Tai Tham ...) specially, so only the Common script
 * outside Line_Break Complex_Context qualifies; NFKC_Casefold maps it to
 * itself and does not compose it with what precedes it, and being neither
 * letter nor digit it is never kept.  All it can do is end a run.
 */
static bool
IsolatedPunct(UChar32 c)
{
	/* the answers for a few recent characters (“ and ” alternate) */
	static UChar32 cached_c[16] = {-1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1};
	static bool cached_result[16];
	int			slot = c & 15;
	bool		result;
	UErrorCode	status = U_ZERO_ERROR;

	if (cached_c[slot] == c)
		return cached_result[slot];
	result = c >= 0x80 && PunctOnItsOwn(c) &&
		!u_hasBinaryProperty(c, UCHAR_EXTENDED_PICTOGRAPHIC) &&
		uscript_getScript(c, &status) == USCRIPT_COMMON && U_SUCCESS(status) &&
		!u_isalpha(c) && !u_isdigit(c) &&
		unorm2_hasBoundaryBefore(nfkc_cf, c);
	cached_c[slot] = c;
	cached_result[slot] = result;
	return result;
}

/* Position of the first non-ASCII byte of s[from..to), or to. */
static inline int32
NextNonAscii(const char *s, int32 from, int32 to)
{
	int32		i = from;

#ifdef USE_SSE2_SEGMENTER
	for (; i + 16 <= to; i += 16)
	{
		int			high = _mm_movemask_epi8(_mm_loadu_si128((const __m128i *) (s + i)));

		if (high)
			return i + __builtin_ctz(high);
	}
#endif
	for (; i + 8 <= to; i += 8)
	{
		uint64		w;

		memcpy(&w, s + i, 8);
		if (w & UINT64CONST(0x8080808080808080))
			break;
	}
	for (; i < to; i++)
		if ((unsigned char) s[i] >= 0x80)
			return i;
	return to;
}

/* Is position x (a code point boundary, from < x < len) safe to cut at? */
static bool
IsCut(const char *s, int32 from, int32 x, int32 len)
{
	const uint8_t *u = (const uint8_t *) s;
	UChar32		next,
				prev;
	int32		i = x,
				j = x;

	U8_NEXT(u, i, len, next);
	U8_PREV(u, from, j, prev);
	return SafeToCutAfter(prev) && SafeToCutBefore(next);
}

/*
 * Segments the span s[start..end) of a document of length len, whose ends
 * are safe cuts: ASCII stretches go through the fast path, the pieces
 * around non-ASCII characters (from the last cut before them to the first
 * cut after them) through ICU.  Both give the tokens ICU would give for the
 * whole span, since every cut is one where ICU breaks anyway.  Isolated
 * punctuation (IsolatedPunct) stays inside the fast path's stretches: it
 * is never part of a token, and where it ends a run, st->breaks says so.
 */
static void
SegmentSpan(SegmentState *st, const char *s, int32 start, int32 end, int32 len)
{
	int32		p = start;		/* start of the stretch for the fast path */
	int32		x = start;		/* scanned up to here */

	if (!simhash_fast_path)
	{
		SegmentIcu(st, s + start, end - start);
		return;
	}
	Assert(st->nbreaks == 0);
	while (x < end)
	{
		int32		q = NextNonAscii(s, x, end);
		int32		r = q;
		int32		a,
					b;
		UChar32		c;

		if (q == end)
			break;

		/*
		 * Punctuation that is a word of its own, followed by ASCII or the
		 * end of the span (a safe cut): tokens never span it, and it can
		 * only end a run.
		 */
		U8_NEXT((const uint8_t *) s, r, end, c);
		if ((r == end || (unsigned char) s[r] < 0x80) && IsolatedPunct(c))
		{
			if (RunBreak(c))
			{
				if (st->nbreaks == st->breakcap)
				{
					/* grow, keeping the contents (Reserve does not) */
					st->breakcap = Max(64, 2 * st->breakcap);
					st->breaks = st->breaks ?
						repalloc(st->breaks, st->breakcap * sizeof(int32)) :
						palloc(st->breakcap * sizeof(int32));
				}
				st->breaks[st->nbreaks++] = q - p;
			}
			x = r;
			continue;
		}
		/* the stretch up to the last cut before the non-ASCII character */
		for (a = q; a > x && !IsCut(s, x, a, len); a--)
			;
		if (a > p)
		{
			Reserve((void **) &st->token, &st->tokencap, a - p + 4, 1);
			SegmentAscii(st, s + p, a - p);
		}
		st->nbreaks = 0;
		/* ICU from there to the first cut after it */
		b = q;
		while (b < end)
		{
			U8_FWD_1((const uint8_t *) s, b, end);
			if (b < end && (unsigned char) s[b] < 0x80 && IsCut(s, a, b, len))
				break;
		}
		SegmentIcu(st, s + a, b - a);
		p = x = b;
	}
	if (end > p)
	{
		Reserve((void **) &st->token, &st->tokencap, end - p + 4, 1);
		SegmentAscii(st, s + p, end - p);
	}
	st->nbreaks = 0;
}

/*
 * Bytes FindCut and SegmentSpan may look at past the end of a chunk (to
 * decode a code point that starts before it: at most 3 continuation bytes).
 * A stream keeps at least this much after a chunk before cutting it, so
 * that every chunk and every decision is what it would be on the whole text.
 */
#define CUT_LOOKAHEAD	64

/* Working buffers for a new document. */
static void
SegmentStateInit(SegmentState *st, bool numbers, FeatureExtractor *fx, int32 len)
{
	EnsureIcu();
	memset(st, 0, sizeof(*st));
	st->fx = fx;
	st->rc = FeatureExtractorRunCounter(fx);
	st->tf = FeatureExtractorTfCounter(fx);
	st->numbers = numbers;
	st->newrun = true;
	st->tokencap = Min(len, CHUNK_BYTES) + 4;
	st->token = palloc(st->tokencap);
}

/*
 * Segments s[0..len) chunk by chunk and returns how many bytes it consumed.
 * With final, s ends the document and all of it is consumed.  Otherwise
 * more text follows s, and the chunks are cut exactly where they would be
 * cut in the whole document: only while more than CHUNK_BYTES +
 * CUT_LOOKAHEAD bytes remain (the document goes on past the chunk, and
 * nothing FindCut or SegmentSpan reads lies beyond s).
 */
static int32
SegmentChunks(SegmentState *st, const char *s, int32 len, bool final)
{
	int32		pos = 0;

	while (pos < len)
	{
		int32		end = len;

		if (!final && len - pos <= CHUNK_BYTES + CUT_LOOKAHEAD)
			break;
		if (len - pos > CHUNK_BYTES)
			end = FindCut(s, pos, pos + CHUNK_BYTES, len);
		SegmentSpan(st, s, pos, end, len);
		pos = end;
		CHECK_FOR_INTERRUPTS();
	}
	return pos;
}

/*
 * Feeds the kept tokens of the UTF-8 text s[0..len) to fx, in order;
 * numbers says whether tokens of digits only are kept.
 */
void
SegmentDocument(const char *s, size_t len, bool numbers, FeatureExtractor *fx)
{
	SegmentState st;

	Assert(len < PG_INT32_MAX);
	SegmentStateInit(&st, numbers, fx, (int32) len);
	SegmentChunks(&st, s, (int32) len, true);
}

/*
 * A document that arrives in pieces (SegmentStreamFeed) is segmented from a
 * window of at most STREAM_WINDOW_BYTES: the chunks are the ones
 * SegmentDocument would cut in the whole text, so are the tokens.
 */
#define STREAM_WINDOW_BYTES (2 * CHUNK_BYTES + 2 * CUT_LOOKAHEAD)

struct SegmentStream
{
	SegmentState st;
	char	   *window;			/* text not yet segmented */
	int32		size;			/* bytes of window: up to STREAM_WINDOW_BYTES */
	int32		used;
};

/*
 * expected is the document's length if known (a sizing hint): the window
 * starts that large, so a short document costs a short window, and grows
 * to STREAM_WINDOW_BYTES only if more text comes.
 */
SegmentStream *
SegmentStreamBegin(bool numbers, FeatureExtractor *fx, int64 expected)
{
	SegmentStream *ss = palloc(sizeof(SegmentStream));

	ss->size = (int32) Min(Max(expected, 1024), (int64) STREAM_WINDOW_BYTES);
	SegmentStateInit(&ss->st, numbers, fx, ss->size);
	ss->window = palloc(ss->size);
	ss->used = 0;
	return ss;
}

/* Appends s[0..len) (UTF-8, cut anywhere) to the document. */
void
SegmentStreamFeed(SegmentStream *ss, const char *s, size_t len)
{
	while (len > 0)
	{
		size_t		n;

		if (ss->used == ss->size)
		{
			if (ss->size < STREAM_WINDOW_BYTES)
			{
				ss->size = Min(2 * ss->size, STREAM_WINDOW_BYTES);
				ss->window = repalloc(ss->window, ss->size);
			}
			else
			{
				/* leaves at most CHUNK_BYTES + CUT_LOOKAHEAD bytes */
				int32		done = SegmentChunks(&ss->st, ss->window, ss->used, false);

				memmove(ss->window, ss->window + done, ss->used - done);
				ss->used -= done;
			}
		}
		n = Min(len, (size_t) (ss->size - ss->used));
		memcpy(ss->window + ss->used, s, n);
		ss->used += n;
		s += n;
		len -= n;
	}
}

/* Segments the rest of the document and frees the stream. */
void
SegmentStreamEnd(SegmentStream *ss)
{
	SegmentChunks(&ss->st, ss->window, ss->used, true);
	pfree(ss->window);
	pfree(ss);
}
