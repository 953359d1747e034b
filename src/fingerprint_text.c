/*
 * fingerprint_text.c
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
 * normalization boundary.)  Memory beyond the detoasted text is
 * O(CHUNK_BYTES), interrupts are checked after each chunk.
 *
 * ASCII fast path: stretches of ASCII between safe cuts are segmented by a
 * hand-written equivalent of ICU's rules on ASCII (lower-casing is all
 * NFKC_Casefold does to ASCII); punctuation that is always a word of its own
 * (IsolatedPunct: curly quotes, dashes) is stepped over, and only the
 * pieces around other non-ASCII characters go through ICU.  With the
 * default options (and words weighted tf) the fast path hashes and counts
 * each word itself.  simhash.fast_path = off sends everything through ICU;
 * the regression test fingerprint_icu compares both on many random strings.
 */
#include "fingerprint.h"

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
 * On x86-64 the ASCII fast path classifies 16 bytes at a time (SSE2 is part
 * of the x86-64 baseline, so no -march flag is needed).  Elsewhere it runs
 * the byte-at-a-time loop, which gives the same tokens.
 */
#if defined(__SSE2__)
#define USE_SSE2_SEGMENTER
#include <emmintrin.h>
#endif

/* simhash.fast_path: use the ASCII fast path (results are the same). */
bool		simhash_fast_path = true;

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
#ifdef USE_SSE2_SEGMENTER
	/* ASCII fast path: the span lower-cased, and bitmaps of its bytes */
	char	   *lower;			/* lower-cased span, 16 bytes of 0 in front */
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
 * Can a chunk end right after c?  Only after whitespace, or punctuation
 * that UAX #29 (as ICU tailors it) never joins to anything and that NFKC
 * leaves alone.
 */
static bool
SafeToCutAfter(UChar32 c)
{
	int32		wb;

	if (c < 0)
		return false;
	if (c < 128)
		return ascii_class[c] == AC_SPACE ||
			(ascii_class[c] == AC_OTHER && c != '@');
	if (u_isUWhiteSpace(c))
		return true;
	if ((U_GET_GC_MASK(c) & U_GC_P_MASK) == 0)
		return false;
	wb = u_getIntPropertyValue(c, UCHAR_WORD_BREAK);
	if (wb != U_WB_OTHER)
		return false;
	{
		UChar		mapping[8];
		UErrorCode	status = U_ZERO_ERROR;

		/* no NFKC_Casefold mapping: it stays itself */
		return unorm2_getDecomposition(nfkc_cf, c, mapping, 8, &status) < 0;
	}
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

	while (i < len)
	{
		int32		start;
		int32		toklen = 0;
		uint8		seen = 0;

		/* skip to the start of a token */
		while (i < len && !(ascii_flags[u[i]] & AF_WORD))
			newrun |= (ascii_flags[u[i++]] & AF_BREAK) != 0;
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

enum
{
	MASK_WORD,					/* letter, digit, '_', '@', joining mid char */
	MASK_ALPHA,					/* A-Z, a-z */
	MASK_DIGIT,					/* 0-9 */
	MASK_RUN4,					/* lower[k] == lower[k-1] == lower[k-2] == lower[k-3] */
	MASK_AHLETTER,				/* A-Z, a-z, '@' */
	MASK_MIDLETTER,				/* '.', '\'' */
	MASK_MIDNUM,				/* '.', '\'', ',', ';' */
	MASK_BREAK,					/* ends a run (AF_BREAK) */
	MASK_KINDS
};

/*
 * XXH3_64bits(p, len), with the branch it takes for words of up to 16
 * bytes inlined: XXH3_64bits hashes those with XXH3_len_0to16_64b, the
 * default secret and seed 0, exactly as here.
 */
static pg_attribute_always_inline uint64
HashWord(const char *p, int32 len)
{
	if (likely(len <= 16))
		return XXH3_len_0to16_64b((const xxh_u8 *) p, (size_t) len, XXH3_kSecret, 0);
	return XXH3_64bits(p, len);
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

/* First position >= pos (and < limit) whose bit is clear, or limit. */
static inline int32
NextClear(const uint64 *m, int32 pos, int32 limit)
{
	int32		w = pos >> 6;
	uint64		x = ~m[w] & (~UINT64CONST(0) << (pos & 63));

	while (x == 0)
	{
		if ((++w << 6) >= limit)
			return limit;
		x = ~m[w];
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
		/* one word, as for nearly all words of text */
		uint64		range = (~UINT64CONST(0) << (from & 63)) &
			(~UINT64CONST(0) >> (63 - ((to - 1) & 63)));

		return (m[from >> 6] & range) != 0;
	}
	return NextSet(m, from, to) < to;
}

static inline __m128i
InRange(__m128i v, char lo, char hi)
{
	return _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8(lo - 1)),
						 _mm_cmplt_epi8(v, _mm_set1_epi8(hi + 1)));
}

/*
 * Lower-cases the ASCII span s[0..len) into st->lower and sets the bitmaps,
 * 16 bytes at a time.
 */
static void
ClassifyAscii(SegmentState *st, const char *s, int32 len)
{
	int32		nwords = (len + 63) / 64 + 1;
	uint64	   *word,
			   *alpha,
			   *digit,
			   *run4,
			   *ahletter,
			   *midletter,
			   *midnum,
			   *brk;
	char	   *lower;

	Reserve((void **) &st->lower, &st->lowercap, len + 64, 1);
	Reserve((void **) &st->masks, &st->maskcap, MASK_KINDS * nwords, sizeof(uint64));
	memset(st->masks, 0, sizeof(uint64) * MASK_KINDS * nwords);
	word = st->masks + MASK_WORD * nwords;
	alpha = st->masks + MASK_ALPHA * nwords;
	digit = st->masks + MASK_DIGIT * nwords;
	run4 = st->masks + MASK_RUN4 * nwords;
	ahletter = st->masks + MASK_AHLETTER * nwords;
	midletter = st->masks + MASK_MIDLETTER * nwords;
	midnum = st->masks + MASK_MIDNUM * nwords;
	brk = st->masks + MASK_BREAK * nwords;
	memset(st->lower, 0, 16);
	lower = st->lower + 16;

	for (int32 i = 0; i < len; i += 16)
	{
		__m128i		v,
					lo,
					upper,
					isalpha,
					isdigit,
					isword,
					isat,
					ismidletter,
					ismidnum;
		uint64		bits;

		if (len - i >= 16)
			v = _mm_loadu_si128((const __m128i *) (s + i));
		else
		{
			char		tail[16] = {0};

			memcpy(tail, s + i, len - i);
			v = _mm_loadu_si128((const __m128i *) tail);
		}
		upper = InRange(v, 'A', 'Z');
		lo = _mm_or_si128(v, _mm_and_si128(upper, _mm_set1_epi8(0x20)));
		isalpha = InRange(lo, 'a', 'z');
		isdigit = InRange(v, '0', '9');
		isat = _mm_cmpeq_epi8(v, _mm_set1_epi8('@'));
		isword = _mm_or_si128(_mm_or_si128(isalpha, isdigit),
							  _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('_')), isat));
		ismidletter = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('.')),
								   _mm_cmpeq_epi8(v, _mm_set1_epi8('\'')));
		ismidnum = _mm_or_si128(ismidletter,
								_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(',')),
											 _mm_cmpeq_epi8(v, _mm_set1_epi8(';'))));
		_mm_storeu_si128((__m128i *) (lower + i), lo);

		bits = (uint64) (uint16) _mm_movemask_epi8(isword);
		word[i >> 6] |= bits << (i & 63);
		bits = (uint64) (uint16) _mm_movemask_epi8(isalpha);
		alpha[i >> 6] |= bits << (i & 63);
		bits = (uint64) (uint16) _mm_movemask_epi8(isdigit);
		digit[i >> 6] |= bits << (i & 63);
		bits = (uint64) (uint16) _mm_movemask_epi8(_mm_or_si128(isalpha, isat));
		ahletter[i >> 6] |= bits << (i & 63);
		bits = (uint64) (uint16) _mm_movemask_epi8(ismidletter);
		midletter[i >> 6] |= bits << (i & 63);
		bits = (uint64) (uint16) _mm_movemask_epi8(ismidnum);
		midnum[i >> 6] |= bits << (i & 63);

		/*
		 * Run breaks: look up the few bytes that are neither letter, digit
		 * nor space.
		 */
		bits = (uint64) (uint16) ~_mm_movemask_epi8(
			_mm_or_si128(_mm_or_si128(isalpha, isdigit),
						 _mm_cmpeq_epi8(v, _mm_set1_epi8(' '))));
		if (len - i < 16)
			bits &= (UINT64CONST(1) << (len - i)) - 1;
		while (bits)
		{
			int			b = __builtin_ctzll(bits);

			if (ascii_flags[(unsigned char) s[i + b]] & AF_BREAK)
				brk[(i + b) >> 6] |= UINT64CONST(1) << ((i + b) & 63);
			bits &= bits - 1;
		}
	}

	/*
	 * A mid character between two letters ('.', '\'') or two digits ('.',
	 * '\'', ',', ';') joins them into one token: make it a word byte.  The
	 * neighbours' bits come from the words before and after.
	 */
	for (int32 w = 0; w < nwords; w++)
	{
		uint64		prev_ahl = (ahletter[w] << 1) | (w > 0 ? ahletter[w - 1] >> 63 : 0);
		uint64		next_ahl = (ahletter[w] >> 1) | (w + 1 < nwords ? ahletter[w + 1] << 63 : 0);
		uint64		prev_dig = (digit[w] << 1) | (w > 0 ? digit[w - 1] >> 63 : 0);
		uint64		next_dig = (digit[w] >> 1) | (w + 1 < nwords ? digit[w + 1] << 63 : 0);

		word[w] |= (midletter[w] & prev_ahl & next_ahl) | (midnum[w] & prev_dig & next_dig);
	}
	/* bytes past the end are zero: they are no word and no run */
	for (int32 i = 0; i < len; i += 16)
	{
		__m128i		c0 = _mm_loadu_si128((const __m128i *) (lower + i));
		__m128i		c1 = _mm_loadu_si128((const __m128i *) (lower + i - 1));
		__m128i		c2 = _mm_loadu_si128((const __m128i *) (lower + i - 2));
		__m128i		c3 = _mm_loadu_si128((const __m128i *) (lower + i - 3));
		__m128i		eq = _mm_and_si128(_mm_and_si128(_mm_cmpeq_epi8(c0, c1),
													 _mm_cmpeq_epi8(c0, c2)),
									   _mm_cmpeq_epi8(c0, c3));
		uint64		bits = (uint64) (uint16) _mm_movemask_epi8(eq);

		run4[i >> 6] |= bits << (i & 63);
	}
}

/*
 * The ASCII fast path with bitmaps: the same tokens as SegmentAsciiScalar
 * (ICU's word rules restricted to ASCII), without a branch per byte.
 */
static void
SegmentAscii(SegmentState *st, const char *s, int32 len)
{
	int32		nwords = (len + 63) / 64 + 1;
	const uint64 *word,
			   *alpha,
			   *digit,
			   *run4,
			   *brk;
	const char *lower;
	RunCounter *rc = st->rc;
	TfCounter  *tf = st->tf;
	bool		newrun = st->newrun;
	int32		pos = 0;

	ClassifyAscii(st, s, len);
	word = st->masks + MASK_WORD * nwords;
	alpha = st->masks + MASK_ALPHA * nwords;
	digit = st->masks + MASK_DIGIT * nwords;
	run4 = st->masks + MASK_RUN4 * nwords;
	brk = st->masks + MASK_BREAK * nwords;
	lower = st->lower + 16;

	while (pos < len)
	{
		int32		start = NextSet(word, pos, len);
		int32		end;
		bool		keep;

		newrun |= AnySet(brk, pos, start);
		if (start >= len)
			break;
		end = NextClear(word, start, len);	/* joins are word bytes */
		pos = end;
		keep = AnySet(alpha, start, end) || (st->numbers && AnySet(digit, start, end));
		if (!keep)
		{
			newrun |= AnySet(brk, start, end);
			continue;
		}
		if (AnySet(run4, start + MAX_RUN, end))
		{
			/* rare: copy with runs of at most MAX_RUN */
			char	   *out = st->token;
			int32		n = 0;

			for (int32 k = start; k < end; k++)
				if (n < MAX_RUN || !(lower[k] == out[n - 1] && lower[k] == out[n - 2] &&
									 lower[k] == out[n - 3]))
					out[n++] = lower[k];
			if (rc)
				RunCounterAdd(rc, HashWord(out, n), newrun);
			else if (tf)
				TfCounterAdd(tf, HashWord(out, n));
			else
				FeatureExtractorAddToken(st->fx, out, n, true, newrun);
		}
		else if (rc)
			RunCounterAdd(rc, HashWord(lower + start, end - start), newrun);
		else if (tf)
			TfCounterAdd(tf, HashWord(lower + start, end - start));
		else
			FeatureExtractorAddToken(st->fx, lower + start, end - start, true, newrun);
		newrun = false;
	}
	st->newrun = newrun;
}

#else
#define SegmentAscii SegmentAsciiScalar
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
	static UChar32 last_c = -1;
	static bool last_result;
	UErrorCode	status = U_ZERO_ERROR;

	if (c == last_c)
		return last_result;
	last_result = c >= 0x80 &&
		(U_GET_GC_MASK(c) & U_GC_P_MASK) != 0 &&
		u_getIntPropertyValue(c, UCHAR_WORD_BREAK) == U_WB_OTHER &&
		!u_hasBinaryProperty(c, UCHAR_EXTENDED_PICTOGRAPHIC) &&
		u_getIntPropertyValue(c, UCHAR_LINE_BREAK) != U_LB_COMPLEX_CONTEXT &&
		uscript_getScript(c, &status) == USCRIPT_COMMON && U_SUCCESS(status) &&
		!u_isalpha(c) && !u_isdigit(c) &&
		unorm2_hasBoundaryBefore(nfkc_cf, c);
	if (last_result)
	{
		UChar		mapping[8];

		status = U_ZERO_ERROR;
		last_result = unorm2_getDecomposition(nfkc_cf, c, mapping, 8, &status) < 0;
	}
	last_c = c;
	return last_result;
}

/* Position of the first non-ASCII byte of s[from..to), or to. */
static inline int32
NextNonAscii(const char *s, int32 from, int32 to)
{
	int32		i = from;

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
 * whole span, since every cut is one where ICU breaks anyway.
 */
static void
SegmentSpan(SegmentState *st, const char *s, int32 start, int32 end, int32 len)
{
	int32		p = start;

	if (!simhash_fast_path)
	{
		SegmentIcu(st, s + start, end - start);
		return;
	}
	while (p < end)
	{
		int32		q = NextNonAscii(s, p, end);
		int32		a,
					b;

		if (q == end)
		{
			Reserve((void **) &st->token, &st->tokencap, end - p + 4, 1);
			SegmentAscii(st, s + p, end - p);
			return;
		}
		/*
		 * Punctuation that is a word of its own, followed by ASCII or the
		 * end of the span (a safe cut): ASCII up to it, and it can only end
		 * a run.  Tokens never span it, so the ASCII on either side may be
		 * segmented apart.
		 */
		{
			int32		r = q;
			UChar32		c;

			U8_NEXT((const uint8_t *) s, r, end, c);
			if ((r == end || (unsigned char) s[r] < 0x80) && IsolatedPunct(c))
			{
				if (q > p)
				{
					Reserve((void **) &st->token, &st->tokencap, q - p + 4, 1);
					SegmentAscii(st, s + p, q - p);
				}
				st->newrun |= RunBreak(c);
				p = r;
				continue;
			}
		}
		/* ASCII up to the last cut before the non-ASCII character */
		for (a = q; a > p && !IsCut(s, p, a, len); a--)
			;
		if (a > p)
		{
			Reserve((void **) &st->token, &st->tokencap, a - p + 4, 1);
			SegmentAscii(st, s + p, a - p);
		}
		/* ICU from there to the first cut after it */
		b = q;
		while (b < end)
		{
			U8_FWD_1((const uint8_t *) s, b, end);
			if (b < end && (unsigned char) s[b] < 0x80 && IsCut(s, a, b, len))
				break;
		}
		SegmentIcu(st, s + a, b - a);
		p = b;
	}
}

/*
 * Feeds the kept tokens of the UTF-8 text s[0..len) to fx, in order;
 * numbers says whether tokens of digits only are kept.
 */
void
SegmentDocument(const char *s, size_t len, bool numbers, FeatureExtractor *fx)
{
	SegmentState st;
	int32		pos = 0;
	int32		total = (int32) len;

	Assert(len < PG_INT32_MAX);
	EnsureIcu();
	memset(&st, 0, sizeof(st));
	st.fx = fx;
	st.rc = FeatureExtractorRunCounter(fx);
	st.tf = FeatureExtractorTfCounter(fx);
	st.numbers = numbers;
	st.newrun = true;
	st.tokencap = Min(total, CHUNK_BYTES) + 4;
	st.token = palloc(st.tokencap);

	while (pos < total)
	{
		int32		end = total;

		if (total - pos > CHUNK_BYTES)
			end = FindCut(s, pos, pos + CHUNK_BYTES, total);
		SegmentSpan(&st, s, pos, end, total);
		pos = end;
		CHECK_FOR_INTERRUPTS();
	}
}
