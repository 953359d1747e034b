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
 *		becomes "哈哈哈"), so that no single run dominates the weights.
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
 * NFKC_Casefold does to ASCII); only the pieces around non-ASCII characters
 * go through ICU.  simhash.fast_path = off sends everything through ICU; the
 * regression test fingerprint_icu compares both on many random strings.
 */
#include "fingerprint.h"

#include "miscadmin.h"

#include <unicode/ubrk.h>
#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/ustring.h>
#include <unicode/utf8.h>
#include <unicode/utf16.h>
#include <unicode/uversion.h>

#define CHUNK_BYTES		(64 * 1024)

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
	bool		numbers;
	bool		newrun;			/* a run break since the last kept token? */
	char	   *token;			/* a token in UTF-8 */
	int32		tokencap;
	UChar	   *utf16;
	int32		utf16cap;
	UChar	   *norm;
	int32		normcap;
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
static void
SegmentAscii(SegmentState *st, const char *s, int32 len)
{
	const unsigned char *u = (const unsigned char *) s;
	uint8		keepmask = AF_ALPHA | (st->numbers ? AF_DIGIT : 0);
	int32		i = 0;

	while (i < len)
	{
		int32		start;
		int32		toklen = 0;
		uint8		seen = 0;
		unsigned char last = 0;
		int			run = 0;
		char	   *out = st->token;

		/* skip to the start of a token */
		while (i < len && !(ascii_flags[u[i]] & AF_WORD))
			st->newrun |= (ascii_flags[u[i++]] & AF_BREAK) != 0;
		if (i >= len)
			break;
		start = i;
		for (;;)
		{
			while (i < len && (ascii_flags[u[i]] & AF_WORD))
			{
				unsigned char c = ascii_lower[u[i]];

				seen |= ascii_flags[u[i++]];
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
				out[toklen++] = (char) c;
			}
			if (i + 1 < len && i > start)
			{
				uint8		m = ascii_flags[u[i]];
				uint8		x = ascii_flags[u[i - 1]];
				uint8		y = ascii_flags[u[i + 1]];

				if (((m & AF_MIDLETTER) && (x & y & AF_AHLETTER)) ||
					((m & AF_MIDNUM) && (x & y & AF_DIGIT)))
				{
					unsigned char c = u[i++];

					/* a mid character never repeats: its neighbours differ */
					last = c;
					run = 1;
					out[toklen++] = (char) c;
					continue;
				}
			}
			break;
		}
		if (seen & keepmask)
		{
			FeatureExtractorAddToken(st->fx, out, toklen, true, st->newrun);
			st->newrun = false;
		}
		else
			for (int32 k = start; k < i; k++)
				st->newrun |= (ascii_flags[u[k]] & AF_BREAK) != 0;
	}
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
