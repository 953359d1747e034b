/*
 * fingerprint/tokenizer_icu.c
 *	  The tokenizer's ICU path: NFKC_Casefold normalization and word
 *	  segmentation of whatever is not plain ASCII, and the character
 *	  properties the rest of the tokenizer asks ICU about (run breaks, safe
 *	  cuts, isolated punctuation).
 *
 * See tokenizer.c for the tokens (algorithm version 3).  ICU's objects are
 * opened once per backend, on first use (ICU allocates them with malloc).
 */
#include "fingerprint/tokenizer_kernel.h"

#include <unicode/ubrk.h>
#include <unicode/uchar.h>
#include <unicode/uscript.h>
#include <unicode/unorm2.h>
#include <unicode/ustring.h>
#include <unicode/utf8.h>
#include <unicode/utf16.h>
#include <unicode/uversion.h>

static const UNormalizer2 *nfkc_cf = NULL;
static UBreakIterator *word_iter = NULL;

/*
 * Does c, found between two kept tokens, end a run of text (for weighting
 * runs)?  Spaces, digits, and what sentence segmentation continues a
 * sentence with (commas, colons, semicolons, dashes, quotes, brackets) do
 * not; line breaks, sentence terminators, symbols and everything else do.
 */
static bool
RunBreakUncached(UChar32 c)
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

/*
 * What the tokenizer asks ICU of a non-ASCII character, remembered for the
 * recent ones (CJK text's 。，“”, English pages' “” — © ...): whether it
 * ends a run (RunBreakUncached), is isolated punctuation (IsolatedPunct)
 * and where it stands apart (ApartFrom).
 */
typedef struct CharFacts
{
	UChar32		c;				/* 0: an empty entry (c >= 0x80) */
	bool		runbreak;
	bool		isolated;
	uint8		apart;			/* APART_* */
} CharFacts;

static const CharFacts *CharFactsOf(UChar32 c);

/* RunBreakUncached, remembered for non-ASCII characters. */
bool
RunBreakSlow(UChar32 c)
{
	if (c < 0x80)
		return RunBreakUncached(c);
	return CharFactsOf(c)->runbreak;
}

/* Opens the ICU objects on first use. */
void
IcuOpen(void)
{
	UErrorCode	status = U_ZERO_ERROR;

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
bool
SafeToCutAfter(UChar32 c)
{
	if (c < 0)
		return false;
	if (c < 128)
		return ascii_class[c] == AC_SPACE ||
			(ascii_class[c] == AC_OTHER && c != '@');
	if (IsCjk(c))				/* the common case in CJK text, without ICU */
		return false;
	return u_isUWhiteSpace(c) || PunctOnItsOwn(c);
}

/* Can a chunk start with c?  Not with anything that attaches backwards. */
bool
SafeToCutBefore(UChar32 c)
{
	int32		wb;

	if (c < 0)
		return false;
	if (c < 128 || IsCjk(c))	/* CJK: starters, Word_Break not Extend */
		return true;
	wb = u_getIntPropertyValue(c, UCHAR_WORD_BREAK);
	if (wb == U_WB_EXTEND || wb == U_WB_FORMAT || wb == U_WB_ZWJ)
		return false;
	return unorm2_hasBoundaryBefore(nfkc_cf, c);
}

/*
 * What IsolatedPunct and ApartFrom both ask of c: of the Common script and
 * outside complex context (ICU's word rules join complex-context characters,
 * punctuation among them, to their neighbours as letters), neither letter
 * nor digit (never kept), and not composed by normalization with what
 * precedes it.
 */
static bool
NeverKeptAlone(UChar32 c)
{
	UErrorCode	status = U_ZERO_ERROR;

	return uscript_getScript(c, &status) == USCRIPT_COMMON && U_SUCCESS(status) &&
		u_getIntPropertyValue(c, UCHAR_LINE_BREAK) != U_LB_COMPLEX_CONTEXT &&
		!u_isalpha(c) && !u_isdigit(c) &&
		unorm2_hasBoundaryBefore(nfkc_cf, c);
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
IsolatedPunctUncached(UChar32 c)
{
	return PunctOnItsOwn(c) &&
		!u_hasBinaryProperty(c, UCHAR_EXTENDED_PICTOGRAPHIC) &&
		NeverKeptAlone(c);
}

/* IsolatedPunctUncached of any c, remembered (CharFactsOf). */
bool
IsolatedPunct(UChar32 c)
{
	return c >= 0x80 && CharFactsOf(c)->isolated;
}

/*
 * Is c a word of its own that is never kept and that normalization leaves
 * apart from its neighbours (see APART_* in tokenizer_kernel.h)?  The fast
 * path then takes it without ICU, as bytes of no token in an ASCII stretch:
 * the copyright sign of footers, the middle dot of meta lines, the
 * no-break space of web pages, besides IsolatedPunct's punctuation.  It
 * must not be CJK, pass NeverKeptAlone, and
 *	  - be mapped by NFKC_Casefold to a space, and end no run, as a space
 *		does not (U+00A0, U+2000 .. U+200A): UAX #29 joins a space to
 *		nothing but other spaces (WB3d), and before Extend, Format or ZWJ
 *		(WB4), which the fast path never has after it (see FastPunct);
 *		APART_ALWAYS;
 *	  - or be left alone by NFKC_Casefold and be punctuation or a symbol of
 *		Word_Break Other, which UAX #29 breaks before and after but after a
 *		ZWJ (WB3c, for Extended_Pictographic; a ZWJ always goes to ICU with
 *		what follows it) and before Extend, Format or ZWJ: APART_ALWAYS; or
 *		of Word_Break MidLetter, MidNum or MidNumLet, which join only
 *		letters or digits on both sides (WB6, WB7, WB11, WB12): APART_MID.
 */
static int
ApartFromUncached(UChar32 c)
{
	UChar		mapping[8];
	UErrorCode	status = U_ZERO_ERROR;
	int32		n;

	if (IsCjk(c) || !NeverKeptAlone(c))
		return APART_NEVER;
	n = unorm2_getDecomposition(nfkc_cf, c, mapping, lengthof(mapping), &status);
	if (U_FAILURE(status))
		return APART_NEVER;
	if (n == 1 && mapping[0] == 0x20)
		return RunBreakUncached(c) ? APART_NEVER : APART_ALWAYS;
	if (n >= 0 || (U_GET_GC_MASK(c) & (U_GC_P_MASK | U_GC_S_MASK)) == 0)
		return APART_NEVER;
	switch (u_getIntPropertyValue(c, UCHAR_WORD_BREAK))
	{
		case U_WB_OTHER:
			return APART_ALWAYS;
		case U_WB_MIDLETTER:
		case U_WB_MIDNUM:
		case U_WB_MIDNUMLET:
			return APART_MID;
		default:
			return APART_NEVER;
	}
}

/* ApartFromUncached of any c, remembered (CharFactsOf). */
int
ApartFrom(UChar32 c)
{
	return c >= 0x80 ? CharFactsOf(c)->apart : APART_NEVER;
}

/* The facts of c >= 0x80, from the cache or asked of ICU. */
static const CharFacts *
CharFactsOf(UChar32 c)
{
	static CharFacts cache[64];
	CharFacts  *f = &cache[c & 63];

	Assert(c >= 0x80);
	if (f->c != c)
	{
		IcuOpen();				/* the normalizer, for the first ask */
		f->c = c;
		f->runbreak = RunBreakUncached(c);
		f->isolated = IsolatedPunctUncached(c);
		f->apart = (uint8) ApartFromUncached(c);
	}
	return f;
}

static void
CheckIcu(UErrorCode status, const char *what)
{
	if (U_FAILURE(status))
		ereport(ERROR,
				(errcode(ERRCODE_EXTERNAL_ROUTINE_EXCEPTION),
				 errmsg("ICU %s failed: %s", what, u_errorName(status))));
}

/*
 * Segments st->norm[from..to) with the word break iterator, as a text of
 * its own, and passes the kept tokens on.
 */
static void
SegmentIcuWords(SegmentState *st, int32 from, int32 to)
{
	UErrorCode	status = U_ZERO_ERROR;
	const UChar *norm = st->norm + from;
	int32		start,
				end,
				prev_end = -1;

	ubrk_setText(word_iter, norm, to - from, &status);
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

			U16_NEXT(norm, i, end, c);
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

				U16_NEXT(norm, i, end, c);
				st->newrun |= RunBreak(c);
			}
		}
	}
	/* don't leave ICU pointing into memory about to be freed */
	ubrk_setText(word_iter, NULL, 0, &status);
}

/*
 * Normalizes and segments a chunk with ICU.  Under version 4 the runs of
 * CJK characters of the normalized text give their bigrams (tokenizer_cjk.c)
 * and the pieces between them are segmented each on its own.
 */
static void
SegmentIcuPiece(SegmentState *st, const char *s, int32 len)
{
	UErrorCode	status = U_ZERO_ERROR;
	int32		n16;
	int32		nnorm;
	int32		piece = 0;		/* start of the piece before the next run */
	int32		i = 0;

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
	if (st->cjk == CJK_NONE)
	{
		SegmentIcuWords(st, 0, nnorm);
		return;
	}
	while (i < nnorm)
	{
		int32		at = i;
		UChar32		c;

		U16_NEXT(st->norm, i, nnorm, c);
		if (!IsCjk(c))
			continue;
		if (at > piece)
			SegmentIcuWords(st, piece, at);
		CjkRunAdd(st, c);
		for (;;)
		{
			int32		j = i;

			if (i >= nnorm)
				break;
			U16_NEXT(st->norm, j, nnorm, c);
			if (!IsCjk(c))
				break;
			CjkRunAdd(st, c);
			i = j;
		}
		CjkRunEnd(st);
		piece = i;
	}
	if (nnorm > piece)
		SegmentIcuWords(st, piece, nnorm);
}

/*
 * SegmentIcuPiece on s[0..len), cut at the line cuts inside it (version 5,
 * see SegmentState): ICU's tokens carry no position in s, so each part
 * between two cuts goes to ICU on its own, after its cut takes effect.  A
 * cut lies after a line break, where normalization and word breaks start
 * afresh: the parts give the tokens of the whole.
 */
void
SegmentIcu(SegmentState *st, const char *s, int32 len)
{
	const char *p = s;

	while ((uintptr_t) st->linecut < (uintptr_t) (s + len))
	{
		const char *cut = Max(p, (const char *) st->linecut);

		if (cut > p)
			SegmentIcuPiece(st, p, (int32) (cut - p));
		LineSwitch(st, cut);
		p = cut;
	}
	if (s + len > p)
		SegmentIcuPiece(st, p, (int32) (s + len - p));
}
