/*
 * fingerprint/tokenizer_cjk.c
 *	  Algorithm version 4's tokens for Chinese, Japanese and Korean: each
 *	  character of a run of CJK characters (IsCjk) is a token of its own,
 *	  without ICU's dictionaries; and version 4's fast path, which segments
 *	  text of ASCII, CJK characters and common punctuation in one pass
 *	  without ICU (SegmentSpanV4).
 *
 * The tokens of version 4 (the definition; tokenizer_icu.c computes it with
 * ICU for any text, this file without ICU for the common case):
 *	  - the text is normalized with NFKC_Casefold, as in version 3 (which
 *		folds full-width ASCII and half-width Katakana to their usual forms);
 *	  - every maximal run of CJK characters of the normalized text is cut
 *		out of it; what lies between the runs is segmented as in version 3,
 *		each piece as a text of its own;
 *	  - each character of a run is a token ("近似重复" gives "近", "似", "重",
 *		"复"); inside a run, more than 3 equal characters in a row count as
 *		3, as inside version 3's tokens;
 *	  - under character n-grams (features 'chars') a run is one token, so
 *		that the n-grams are those of the run, and is separated from its
 *		neighbours by a gap;
 *	  - for weighting runs, a run's first token follows whatever run break
 *		came before it; the rest of its tokens are in the same run.
 * Why characters: ICU's dictionary segmentation of Chinese cost 90 % of the
 * time of simhash(text) on Chinese text (0.05 to 0.10 times the speed of
 * md5); single characters need no dictionary, and on the near-duplicate
 * benchmark (doc/benchmarks.md) they found as many near-duplicates as
 * ICU's words at the same precision (small edits more, mirrors fewer),
 * where overlapping character bigrams and bigrams with characters found
 * far fewer (a bigram per character spreads the weight over twice as many
 * distinct features, so every change moves more bits).
 *
 * The fast path (SegmentSpanV4): the tokenizer's driver hands it each span
 * between two safe cuts (tokenizer.c), which it walks once, character by
 * character: ASCII stretches go to the ASCII kernels, each run of CJK
 * characters is hashed straight from the UTF-8 as it is found and counted
 * in one go, and an ideographic space, full-width ASCII punctuation that
 * joins no word, and punctuation that is always a word of its own
 * (IsolatedPunct: 、。“”《》 ...) only end the stretch before them and
 * may break the run.  It cuts the text where ICU's version 4 would cut it
 * anyway (at the edges of CJK runs and around such punctuation, which
 * normalization leaves apart from their neighbours); around any other
 * non-ASCII character (accented letters, full-width letters, half-width
 * Katakana, Hangul jamo, combining marks ...) a piece from the last such
 * cut before it to the first after it goes to ICU (SlowPieceEnd).  Both
 * give the same tokens: the regression test fingerprint_icu compares them
 * on random text.
 *
 * Before this one-pass walk, the driver searched for safe cuts around
 * every non-ASCII piece, checked the piece, then segmented it (three
 * passes, and an ICU property call at every ASCII character after a
 * non-ASCII one): 0.34 times the speed of md5 on the zh-CN Debian
 * handbook, against about 0.5 now (doc/benchmarks.md).
 */
#include "fingerprint/tokenizer_kernel.h"

#include "port/pg_bswap.h"
#include "utils/memutils.h"

#include <unicode/utf8.h>

/* Passes on the token s[0..len), hashed here under the default options. */
static pg_attribute_always_inline void
EmitCjk(SegmentState *st, const char *s, int32 len)
{
	if (st->rc)
		RunCounterAdd(st->rc, XXH3_64bits(s, len), st->newrun);
	else
		FeatureExtractorAddToken(st->fx, s, len, true, st->newrun);
	st->newrun = false;
}

/* Adds the next code point of the current run of CJK characters. */
void
CjkRunAdd(SegmentState *st, UChar32 c)
{
	char		cp[4];
	int			len = 0;

	if (st->cjkcount > 0 && c == st->cjkprev)
	{
		if (++st->cjkrepeat > MAX_RUN)
			return;
	}
	else
		st->cjkrepeat = 1;
	st->cjkcount++;
	st->cjkprev = c;
	if (st->cjk == CJK_RUNS)
	{
		if (st->cjkrunlen + 4 > st->cjkruncap)
		{
			/* grow, keeping the contents (Reserve does not) */
			st->cjkruncap = Max(64, 2 * st->cjkruncap);
			st->cjkrun = st->cjkrun ? repalloc(st->cjkrun, st->cjkruncap) :
				palloc(st->cjkruncap);
		}
		U8_APPEND_UNSAFE(st->cjkrun, st->cjkrunlen, c);
		return;
	}
	U8_APPEND_UNSAFE(cp, len, c);
	EmitCjk(st, cp, len);
}

/* Ends the current run of CJK characters (if any). */
void
CjkRunEnd(SegmentState *st)
{
	if (st->cjkcount > 0 && st->cjk == CJK_RUNS)
	{
		FeatureExtractorAddToken(st->fx, st->cjkrun, st->cjkrunlen, true, st->newrun);
		st->newrun = false;
		st->cjkrunlen = 0;
	}
	st->cjkcount = 0;
}

/* ASCII stretches shorter than this go to the scalar kernel. */
#define SHORT_STRETCH 48

/* Full-width ASCII U+FF01..U+FF5E: the ASCII character it stands for. */
#define FULLWIDTH_OFFSET 0xFEE0

/* The 4 bytes at p as a little-endian word. */
static pg_attribute_always_inline uint32
LoadLE32(const uint8_t *p)
{
	uint32		w;

	memcpy(&w, p, sizeof(w));
#ifdef WORDS_BIGENDIAN
	w = pg_bswap32(w);
#endif
	return w;
}

/* Is w (4 bytes, little-endian) a three-byte UTF-8 sequence and a byte? */
#define THREE_BYTES(w)	(((w) & 0xC0C0F0) == 0x8080E0)

/* The code point of the three-byte sequence in w (THREE_BYTES). */
#define THREE_BYTE_CODE_POINT(w) \
	((UChar32) ((((w) & 0x0F) << 12) | (((w) & 0x3F00) >> 2) | (((w) >> 16) & 0x3F)))

/*
 * The code point of the UTF-8 sequence at u[*i] (a byte >= 0x80) of
 * u[0..len), advancing *i; or a negative value for an ill-formed sequence
 * (as U8_NEXT).  Three-byte sequences (all of the BMP's CJK) are decoded
 * inline.
 */
static pg_attribute_always_inline UChar32
NextCodePoint(const uint8_t *u, int32 *i, int32 len)
{
	int32		k = *i;
	UChar32		c;
	uint32		w;

	if (likely(k + 4 <= len) && (w = LoadLE32(u + k), THREE_BYTES(w)))
	{
		c = THREE_BYTE_CODE_POINT(w);
		if (c >= 0x800 && (c < 0xD800 || c > 0xDFFF))
		{
			*i = k + 3;
			return c;
		}
	}
	U8_NEXT(u, k, len, c);
	*i = k;
	return c;
}

/* What FastPunct says of a character. */
#define PUNCT_NO		0		/* not punctuation the fast path takes */
#define PUNCT_FAST		1		/* U+3000, full-width punctuation */
#define PUNCT_ISOLATED	2		/* IsolatedPunct */

/*
 * Is c, at u[q..r) of the span u[start..end), punctuation the fast path
 * passes over (it is a word of its own, normalization leaves it apart from
 * its neighbours)?  These are:
 *	  - U+3000, the ideographic space (a space);
 *	  - full-width ASCII punctuation whose ASCII character joins no word
 *		here: not letters, digits, '_' or '@', and '.', '\'', ',' or ';'
 *		(which may join two letters or digits) only where not between two
 *		ASCII word characters;
 *	  - what is a word of its own next to any neighbours (ApartFrom:
 *		IsolatedPunct's punctuation, spaces such as U+00A0, symbols such
 *		as the copyright sign), or next to neighbours that are neither
 *		ASCII letters, digits, '_' nor '@' (the middle dot): PUNCT_ISOLATED.
 * Whatever follows it must also be ASCII, CJK or such punctuation (what
 * else follows may compose with it: '<' and U+0338 make U+226E); the
 * caller checks.
 */
static pg_attribute_always_inline int
FastPunct(const uint8_t *u, int32 start, int32 q, int32 r, int32 end, UChar32 c)
{
	if (c >= 0xFF01 && c <= 0xFF5E)
	{
		int			m = c - FULLWIDTH_OFFSET;

		if (ascii_flags[m] & AF_WORD)
			return PUNCT_NO;
		if ((ascii_class[m] == AC_MIDNUM || ascii_class[m] == AC_MIDNUMLET) &&
			q > start && (ascii_flags[u[q - 1]] & AF_WORD) &&
			r < end && (ascii_flags[u[r]] & AF_WORD))
			return PUNCT_NO;
		return PUNCT_FAST;
	}
	if (c == 0x3000)
		return PUNCT_FAST;
	switch (ApartFrom(c))
	{
		case APART_ALWAYS:
			return PUNCT_ISOLATED;
		case APART_MID:
			if ((q == start || (u[q - 1] < 0x80 && !(ascii_flags[u[q - 1]] & AF_WORD))) &&
				(r == end || (u[r] < 0x80 && !(ascii_flags[u[r]] & AF_WORD))))
				return PUNCT_ISOLATED;
			break;
	}
	return PUNCT_NO;
}

/* Does punctuation c that FastPunct takes end a run? */
static inline bool
PunctBreaksRun(UChar32 c)
{
	if (c >= 0xFF01 && c <= 0xFF5E)
		return RunBreak(c - FULLWIDTH_OFFSET);
	return RunBreak(c);			/* U+3000 does not break a run */
}

/*
 * FastPunct and PunctBreaksRun of the punctuation that ends most CJK runs,
 * looked up without a branch on which character it is: for each code point
 * of U+2000..U+207F (“”…—), U+3000..U+307F (、。《》「」) and
 * U+FF00..U+FF7F (，：；！？（）), PUNCT_* of it where a non-ASCII
 * character precedes it (right after a CJK run: then FastPunct does not
 * depend on its neighbours), and PC_BREAK if it breaks a run; 0 for the
 * CJK characters among them (々 〇 ぁ ...), left to the general path.
 * Computed with FastPunct, IsCjk and PunctBreaksRun on the backend's first
 * use (SegmentStateInit has opened ICU).
 */
#define PC_KIND		3			/* the PUNCT_* bits */
#define PC_BREAK	4
static uint8 punct_block[512];	/* by code point >> 7 (BMP): its row */
static uint8 punct_rows[4][128];	/* row 0: none of these, all 0 */
static bool punct_ready = false;

static void
PunctTableInit(void)
{
	static const UChar32 firsts[3] = {0x2000, 0x3000, 0xFF00};

	for (int k = 0; k < 3; k++)
	{
		for (int j = 0; j < 128; j++)
		{
			UChar32		c = firsts[k] + j;
			/* a non-ASCII byte on either side, c's UTF-8 in between */
			uint8_t		buf[6] = {0xE4, 0, 0, 0, 0xE4, 0};
			int32		len = 1;
			int			kind;

			U8_APPEND_UNSAFE(buf, len, c);
			kind = IsCjk(c) ? PUNCT_NO : FastPunct(buf, 0, 1, len, len + 1, c);
			punct_rows[k + 1][j] = kind == PUNCT_NO ? 0 :
				kind | (PunctBreaksRun(c) ? PC_BREAK : 0);
		}
		punct_block[firsts[k] >> 7] = k + 1;
	}
	punct_ready = true;
}

/*
 * The punct_rows entry of c (a code point of the BMP), 0 outside the
 * three blocks.
 */
static pg_attribute_always_inline int
PunctClass(UChar32 c)
{
	Assert(c >= 0 && c < 0x10000);
	return punct_rows[punct_block[c >> 7]][c & 127];
}

/*
 * The code point at u[q] (a byte >= 0x80) of u[..end), and in *r the
 * position after it.
 */
static pg_attribute_always_inline UChar32
PeekCodePoint(const uint8_t *u, int32 q, int32 end, int32 *r)
{
	*r = q;
	return NextCodePoint(u, r, end);
}

/*
 * Segments the ASCII stretch s[p..a) with the kernel, or a short one
 * (a word or two between CJK runs) with the scalar kernel, which costs
 * less to start (the tokens are the same); clears st->breaks.  A short
 * stretch with no byte that could make a token kept (no letter; no digit
 * unless numbers are kept: the " | ", spaces, line breaks and counters of
 * a page's template lines between CJK runs) yields no token, so only its
 * run breaks count: those of its ASCII bytes, and the isolated
 * punctuation st->breaks lists (non-ASCII bytes have no flags), as the
 * scalar kernel would find them.
 */
static inline void
SegmentAsciiStretch(SegmentState *st, const char *s, int32 p, int32 a)
{
	if (a - p > 0 && a - p < SHORT_STRETCH)
	{
		const uint8 *u = (const uint8 *) s;
		uint8		flags = 0;

		for (int32 i = p; i < a; i++)
			flags |= ascii_flags[u[i]];
		if (!(flags & KeptTokenFlags(st)))
		{
			st->newrun |= (flags & AF_BREAK) != 0 || st->nbreaks > 0;
			p = a;				/* no token: nothing for a kernel */
		}
	}
	if (a > p)
	{
		Reserve((void **) &st->token, &st->tokencap, a - p + 4, 1);
		if (a - p < SHORT_STRETCH)
			SegmentAsciiScalar(st, s + p, a - p);
		else
			st->ascii(st, s + p, a - p);
	}
	st->nbreaks = 0;
}

/*
 * Emits the run of CJK characters u[q..e) (IsCjk each, normalization
 * leaves them alone) as text: under CJK_CHARS each character a token,
 * straight from the UTF-8 (more than MAX_RUN equal ones in a row count as
 * MAX_RUN); under CJK_RUNS the run as one token.
 */
static inline void
EmitCjkRun(SegmentState *st, const uint8_t *u, int32 q, int32 e)
{
	UChar32		last = -1;
	int			repeat = 0;
	int32		at = q;

	if (st->cjk == CJK_RUNS)
	{
		while (at < e)
			CjkRunAdd(st, NextCodePoint(u, &at, e));
		CjkRunEnd(st);
		return;
	}
	while (at < e)
	{
		int32		next = at;
		UChar32		c = NextCodePoint(u, &next, e);

		if (c != last)
		{
			last = c;
			repeat = 1;
		}
		else if (++repeat > MAX_RUN)
		{
			at = next;
			continue;
		}
		EmitCjk(st, (const char *) u + at, next - at);
		at = next;
	}
}

/*
 * Does SegmentSpanV4 hash the tokens of CJK runs itself (the default
 * options, and single words weighted tf), rather than pass them on as
 * text (EmitCjkRun)?
 */
static inline bool
HashesCjk(const SegmentState *st)
{
	return st->cjk == CJK_CHARS && (st->rc || st->tf);
}

/*
 * The hashes of the CJK Unified Ideographs U+4E00..U+9FFF (nearly every
 * character of Chinese text) as tokens: XXH3_64bits of each one's UTF-8,
 * computed for all of them on the backend's first use (168 kB, about
 * 0.1 ms), so that ScanCjkRun loads a character's hash instead of
 * computing it.  (HashCjkRunAvx2 computes four at a time instead,
 * Xxh3ThreeBytesAvx2: on Zen 3 that was faster than waiting for the
 * table's lines, a quarter of which missed L1; HashCjkRunAvx512 eight.)
 */
#define HAN_FIRST	0x4E00
#define HAN_LAST	0x9FFF
static uint64 *han_hash = NULL;

static void
HanHashInit(void)
{
	uint64	   *table = MemoryContextAlloc(TopMemoryContext,
										   sizeof(uint64) * (HAN_LAST - HAN_FIRST + 1));

	for (UChar32 c = HAN_FIRST; c <= HAN_LAST; c++)
	{
		uint8_t		cp[4];
		int32		len = 0;

		U8_APPEND_UNSAFE(cp, len, c);
		table[c - HAN_FIRST] = XXH3_64bits(cp, len);
	}
	han_hash = table;
}

/*
 * The byte lanes of a run's tokens (the layout of RunCounterRunLanes),
 * summed as ScanCjkRun hashes them, for CountRunWords to add in one go;
 * valid while the run has fewer than 256 tokens (no byte overflows).
 */
typedef struct CjkLanes
{
	uint64		w[8];			/* word k counts bits k, k + 8, ... */
} CjkLanes;

/* CountRunWords copies the hashes of a run of up to this many tokens as a whole */
#define CJK_COPY	16

/* What ScanCjkRun hashes with: portable code, AVX2, or AVX-512 too */
#define CJK_PORTABLE	0
#define CJK_AVX2		1
#define CJK_AVX512		2

#ifdef USE_AVX2_SEGMENTER
static int32 HashCjkRunAvx512(const uint8_t *u, int32 at, int32 end, uint64 *hash,
							  int32 *n, UChar32 *next, int32 *r, CjkLanes *lanes);
static int32 HashCjkRunAvx2(const uint8_t *u, int32 at, int32 end, uint64 *hash,
							int32 *n, UChar32 *next, int32 *r, CjkLanes *lanes);
#endif

/* What CjkCharacter found at u[*at]. */
typedef enum CjkStep
{
	CJK_END,					/* the run ends here */
	CJK_SKIP,					/* a repeat past MAX_RUN, skipped */
	CJK_HASH					/* a token, hashed */
} CjkStep;

/*
 * One character of a CJK run at u[*at], for ScanCjkRun and its AVX2
 * variant: CJK_END when none is left or it is not CJK (then *r is the
 * position after it and *next its code point); else *at moves past it and
 * it is CJK_SKIP when it repeats the one before (*last) more than MAX_RUN
 * times (*repeat), or CJK_HASH with its hash in *h.
 */
static pg_attribute_always_inline CjkStep
CjkCharacter(const uint8_t *u, int32 *at, int32 end, uint32 *last, int *repeat,
			 UChar32 *next, int32 *r, uint64 *h)
{
	int32		len;
	UChar32		c;
	uint32		w;
	uint32		han;

	if (likely(*at + 4 <= end) && (w = LoadLE32(u + *at), THREE_BYTES(w)))
	{
		/*
		 * three bytes: all of the BMP's CJK (what else they decode to,
		 * ill-formed or not, NextCodePoint decodes again below)
		 */
		c = THREE_BYTE_CODE_POINT(w);
		len = 3;
	}
	else if (*at < end && u[*at] >= 0x80)
	{
		int32		j = *at;

		c = NextCodePoint(u, &j, end);
		len = j - *at;
	}
	else
		return CJK_END;
	han = (uint32) (c - HAN_FIRST);
	if (!(han <= HAN_LAST - HAN_FIRST || IsCjk(c)))
	{
		*r = *at;
		*next = NextCodePoint(u, r, end);
		return CJK_END;
	}
	if ((uint32) c != *last)
	{
		*last = c;
		*repeat = 1;
	}
	else if (++*repeat > MAX_RUN)
	{
		*at += len;
		return CJK_SKIP;
	}
	if (likely(han <= HAN_LAST - HAN_FIRST))
		*h = han_hash[han];		/* a Han character: 3 bytes */
	else
		*h = len == 3 ?
			XXH3_len_1to3_64b(u + *at, 3, XXH3_kSecret, 0) :
			XXH3_64bits(u + *at, len);
	*at += len;
	return CJK_HASH;
}

/*
 * The end e of the run of CJK characters that starts at u[q] (a CJK
 * character) in u[..end).  With HashesCjk, also the hashes of its tokens,
 * in st->cjkhash (*n of them), computed on the way: each character a token
 * (more than MAX_RUN equal ones in a row count as MAX_RUN); and their byte
 * lanes in *lanes (with SSE2).  If a non-ASCII character follows the run,
 * *next is its code point and *r the position after it; else *r = e.
 */
static pg_attribute_always_inline int32
ScanCjkRun(SegmentState *st, const uint8_t *u, int32 q, int32 end, int32 *n,
		   UChar32 *next, int32 *r, CjkLanes *lanes, int simd)
{
	int32		at = q;
	uint32		last = UINT32_MAX;	/* the previous code point, none yet */
	int			repeat = 0;
	int32		count = 0;
	uint64	   *hash;
#ifdef USE_SSE2_SEGMENTER
	const __m128i m = _mm_set1_epi8(1);
	__m128i		r0 = _mm_setzero_si128(),
				r1 = _mm_setzero_si128(),
				r2 = _mm_setzero_si128(),
				r3 = _mm_setzero_si128();
#endif

	*n = 0;
	if (!HashesCjk(st))
	{
		while (at < end && u[at] >= 0x80)
		{
			int32		j;
			UChar32		c = PeekCodePoint(u, at, end, &j);

			if (!IsCjk(c))
			{
				*next = c;
				*r = j;
				return at;
			}
			at = j;
		}
		*r = at;
		return at;
	}
	/*
	 * room for a token per three bytes (CJK characters take three or four),
	 * and CJK_COPY more for CountRunWords's copy
	 */
	Reserve((void **) &st->cjkhash, &st->cjkhashcap, (end - q) / 3 + 1 + CJK_COPY,
			sizeof(uint64));
	hash = st->cjkhash;
	if (unlikely(han_hash == NULL))
		HanHashInit();
#ifdef USE_AVX2_SEGMENTER
	/* the SIMD variants with the ASCII kernels of AVX2 or AVX-512 (SegmentSpanV4) */
	if (simd == CJK_AVX512)
		return HashCjkRunAvx512(u, q, end, hash, n, next, r, lanes);
	if (simd == CJK_AVX2)
		return HashCjkRunAvx2(u, q, end, hash, n, next, r, lanes);
#endif
	*r = -1;					/* until a non-ASCII character ends the run */
	for (;;)
	{
		uint64		h;
		CjkStep		step = CjkCharacter(u, &at, end, &last, &repeat, next, r, &h);

		if (step == CJK_END)
			break;
		if (step == CJK_SKIP)
			continue;
		hash[count++] = h;
#ifdef USE_SSE2_SEGMENTER
		{
			/* lanes k and k + 1 side by side, as in RunCounterAdd */
			__m128i		x = _mm_cvtsi64_si128((int64) h);
			__m128i		hv = _mm_unpacklo_epi64(x, _mm_srli_epi64(x, 1));

			r0 = _mm_add_epi64(r0, _mm_and_si128(hv, m));
			r1 = _mm_add_epi64(r1, _mm_and_si128(_mm_srli_epi64(hv, 2), m));
			r2 = _mm_add_epi64(r2, _mm_and_si128(_mm_srli_epi64(hv, 4), m));
			r3 = _mm_add_epi64(r3, _mm_and_si128(_mm_srli_epi64(hv, 6), m));
		}
#endif
	}
	if (*r < 0)
		*r = at;
#ifdef USE_SSE2_SEGMENTER
	_mm_storeu_si128((__m128i *) lanes->w, r0);
	_mm_storeu_si128((__m128i *) lanes->w + 1, r1);
	_mm_storeu_si128((__m128i *) lanes->w + 2, r2);
	_mm_storeu_si128((__m128i *) lanes->w + 3, r3);
#endif
	*n = count;
	return at;
}

#ifdef USE_AVX2_SEGMENTER
/*
 * After a vector step of HashCjkRunAvx2 or HashCjkRunAvx512 that took
 * fewer than all its characters: does the character at u[at] that stopped
 * it end the run, as CjkCharacter would find?  It does if it is ASCII, or
 * punctuation of PunctClass (three bytes, three; code point c); then *next
 * (for punctuation) and *r are set as ScanCjkRun sets them.
 */
static pg_attribute_always_inline bool
StopEndsCjkRun(const uint8_t *u, int32 at, bool three, UChar32 c, UChar32 *next, int32 *r)
{
	if (three)
	{
		if (PunctClass(c) != 0)
		{
			*next = c;
			*r = at + 3;
			return true;
		}
	}
	else if (u[at] < 0x80)
	{
		*r = at;
		return true;
	}
	return false;
}

/* XXH3_len_1to3_64b's bitflip under the default secret and seed 0 */
#define XXH3_ONE_TO_THREE_BITFLIP \
	(XXH_readLE32(XXH3_kSecret) ^ XXH_readLE32(XXH3_kSecret + 4))

/*
 * XXH3_64bits of four 3-byte strings at once (XXH3_len_1to3_64b, the
 * default secret, seed 0): given each one's "combined" word (its bytes
 * b2, 0, b0, b1) in a 32-bit lane, and the bitflip with the length
 * (keyed), the hashes in the four 64-bit lanes, in order.  The same as
 * han_hash, computed: no table lines to wait for.
 */
__attribute__((target("avx2")))
static inline __m256i
Xxh3ThreeBytesAvx2(__m128i combined, __m128i keyed)
{
	return Xxh3AvalancheSmallAvx2(_mm256_cvtepu32_epi64(_mm_xor_si128(combined, keyed)));
}

/*
 * The hashing loop of ScanCjkRun with AVX2, for a run that starts at u[at]
 * (a CJK character): the same tokens, hashes and results.  Four
 * characters at a time while they are Han characters of three bytes
 * (U+4E00..U+9FFF), each unlike the one before it (so none is a repeat
 * past MAX_RUN): their code points decoded and checked in one vector,
 * their hashes computed in another (Xxh3ThreeBytesAvx2) and their bits
 * added to the byte lanes; any other character one at a time, as
 * ScanCjkRun does, except that ASCII or punctuation of PunctClass right
 * after the four ends the run at once.  Inlined into SegmentSpanV4Avx2.
 */
__attribute__((target("avx2")))
static int32
HashCjkRunAvx2(const uint8_t *u, int32 at, int32 end, uint64 *hash, int32 *n,
			   UChar32 *next, int32 *r, CjkLanes *lanes)
{
	uint32		last = UINT32_MAX;	/* the previous code point, none yet */
	int			repeat = 0;
	int32		count = 0;
	const __m128i spread3 = _mm_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1,
										  9, 10, 11, -1);
	/* XXH3's "combined" of each 3 bytes b0 b1 b2: b2, len, b0, b1 */
	const __m128i xxh3_order = _mm_setr_epi8(2, -1, 0, 1, 5, -1, 3, 4, 8, -1, 6, 7,
											 11, -1, 9, 10);
	const __m128i keyed = _mm_set1_epi32((int32) (XXH3_ONE_TO_THREE_BITFLIP ^ (3 << 8)));
	const __m128i lead_mask = _mm_set1_epi32(0xC0C0F0);
	const __m128i lead = _mm_set1_epi32(0x8080E0);
	const __m128i m0f = _mm_set1_epi32(0x0F);
	const __m128i m3f00 = _mm_set1_epi32(0x3F00);
	const __m128i m3f = _mm_set1_epi32(0x3F);
	const __m128i first = _mm_set1_epi32(HAN_FIRST);
	const __m128i span = _mm_set1_epi32(HAN_LAST - HAN_FIRST);
	const __m128i lane = _mm_setr_epi32(0, 1, 2, 3);
	const __m256i shift_lo = _mm256_setr_epi64x(0, 1, 2, 3);
	const __m256i shift_hi = _mm256_setr_epi64x(4, 5, 6, 7);
	const __m256i ones = _mm256_set1_epi64x((int64) UINT64CONST(0x0101010101010101));
	/* the lanes in two pairs of sums, so that each addition waits less */
	__m256i		lo = _mm256_setzero_si256(),
				hi = _mm256_setzero_si256(),
				lo2 = _mm256_setzero_si256(),
				hi2 = _mm256_setzero_si256();

#define ADD_LANES(l, h, hv) \
	do { \
		l = _mm256_add_epi64(l, _mm256_and_si256(_mm256_srlv_epi64(hv, shift_lo), ones)); \
		h = _mm256_add_epi64(h, _mm256_and_si256(_mm256_srlv_epi64(hv, shift_hi), ones)); \
	} while (0)

	*r = -1;					/* until a non-ASCII character ends the run */
	for (;;)
	{
		uint64		h;
		CjkStep		step;
		/* the code point before the next four, in lane 3 */
		__m128i		prevcp = _mm_set1_epi32((int32) last);

		while (at + 16 <= end)
		{
			/* the 12 bytes at u[at] as four 3-byte sequences, one per lane */
			__m128i		raw = _mm_loadu_si128((const __m128i *) (u + at));
			__m128i		v = _mm_shuffle_epi8(raw, spread3);
			__m128i		three = _mm_cmpeq_epi32(_mm_and_si128(v, lead_mask), lead);
			__m128i		cp = _mm_or_si128(_mm_or_si128(_mm_slli_epi32(_mm_and_si128(v, m0f), 12),
													   _mm_srli_epi32(_mm_and_si128(v, m3f00), 2)),
										  _mm_and_si128(_mm_srli_epi32(v, 16), m3f));
			__m128i		idx = _mm_sub_epi32(cp, first);
			/* Han: idx <= HAN_LAST - HAN_FIRST, unsigned */
			__m128i		inhan = _mm_cmpeq_epi32(_mm_min_epu32(idx, span), idx);
			/* each unlike the one before: [previous, cp0, cp1, cp2] */
			__m128i		prev = _mm_alignr_epi8(cp, prevcp, 12);
			__m128i		good = _mm_andnot_si128(_mm_cmpeq_epi32(cp, prev), _mm_and_si128(three, inhan));
			/* the leading characters that pass: as ScanCjkRun would take them */
			int			take = __builtin_ctz(~_mm_movemask_ps(_mm_castsi128_ps(good)));
			/* every lane hashed (a failed one to no use), the first take kept */
			__m256i		hv = Xxh3ThreeBytesAvx2(_mm_shuffle_epi8(raw, xxh3_order), keyed);
			__m256i		keep = _mm256_cvtepi32_epi64(_mm_cmpgt_epi32(_mm_set1_epi32(take), lane));

			_mm256_storeu_si256((__m256i *) (hash + count), hv);
			hv = _mm256_and_si256(hv, keep);
			ADD_LANES(lo, hi, _mm256_permute4x64_epi64(hv, 0x00));
			ADD_LANES(lo2, hi2, _mm256_permute4x64_epi64(hv, 0x55));
			ADD_LANES(lo, hi, _mm256_permute4x64_epi64(hv, 0xAA));
			ADD_LANES(lo2, hi2, _mm256_permute4x64_epi64(hv, 0xFF));

			/*
			 * The next four start 12 bytes on when all four passed, which
			 * is the loop's way on (the position does not wait for take)
			 */
			if (likely(take == 4))
			{
				count += 4;
				at += 12;
				prevcp = cp;
				/* for the scalar step, if the loop ends here */
				last = (uint32) _mm_extract_epi32(cp, 3);
				repeat = 1;
				continue;
			}
			count += take;
			at += 3 * take;
			if (take > 0)
			{
				last = (uint32) _mm_cvtsi128_si32(_mm_castps_si128(
								_mm_permutevar_ps(_mm_castsi128_ps(cp), _mm_set1_epi32(take - 1))));
				repeat = 1;
			}

			/* the character that stopped them may end the run */
			if (StopEndsCjkRun(u, at, (_mm_movemask_ps(_mm_castsi128_ps(three)) >> take) & 1,
							   _mm_cvtsi128_si32(_mm_castps_si128(_mm_permutevar_ps(_mm_castsi128_ps(cp),
																				_mm_set1_epi32(take)))),
							   next, r))
				goto done;
			break;
		}

		/* one character, as in ScanCjkRun */
		step = CjkCharacter(u, &at, end, &last, &repeat, next, r, &h);
		if (step == CJK_END)
			break;
		if (step == CJK_SKIP)
			continue;
		hash[count++] = h;
		{
			__m256i		hv = _mm256_set1_epi64x((int64) h);

			ADD_LANES(lo, hi, hv);
		}
	}
#undef ADD_LANES
	if (*r < 0)
		*r = at;
done:
	_mm256_storeu_si256((__m256i *) lanes->w, _mm256_add_epi64(lo, lo2));
	_mm256_storeu_si256((__m256i *) lanes->w + 1, _mm256_add_epi64(hi, hi2));
	*n = count;
	return at;
}

/*
 * HashCjkRunAvx2 for the AVX-512 kernel's documents: the same tokens,
 * hashes and results, eight characters at a time.  Their code points are
 * decoded and checked with AVX2 (the 24 bytes as two halves of 12, one per
 * 128-bit lane), their hashes computed in one vector of 512 bits with
 * AVX-512's 64-bit products (the two of XXH3_len_1to3_64b's avalanche in
 * two instructions where AVX2 takes eleven), and each one's bits added to
 * the byte lanes, all eight lanes at once: hash >> k in word k.  Inlined
 * into SegmentSpanV4Avx512.
 */
static AVX512_TARGET int32
HashCjkRunAvx512(const uint8_t *u, int32 at, int32 end, uint64 *hash, int32 *n,
				 UChar32 *next, int32 *r, CjkLanes *lanes)
{
	uint32		last = UINT32_MAX;	/* the previous code point, none yet */
	int			repeat = 0;
	int32		count = 0;
	/* per 128-bit lane: its four 3-byte sequences, one per 32-bit lane */
	const __m256i spread3 = _mm256_broadcastsi128_si256(_mm_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1,
																	  6, 7, 8, -1, 9, 10, 11, -1));
	/* XXH3's "combined" of each 3 bytes b0 b1 b2: b2, len, b0, b1 */
	const __m256i xxh3_order = _mm256_broadcastsi128_si256(_mm_setr_epi8(2, -1, 0, 1, 5, -1, 3, 4,
																		 8, -1, 6, 7, 11, -1, 9, 10));
	const __m256i keyed = _mm256_set1_epi32((int32) (XXH3_ONE_TO_THREE_BITFLIP ^ (3 << 8)));
	const __m256i lead_mask = _mm256_set1_epi32(0xC0C0F0);
	const __m256i lead = _mm256_set1_epi32(0x8080E0);
	const __m256i m0f = _mm256_set1_epi32(0x0F);
	const __m256i m3f00 = _mm256_set1_epi32(0x3F00);
	const __m256i m3f = _mm256_set1_epi32(0x3F);
	const __m256i first = _mm256_set1_epi32(HAN_FIRST);
	const __m256i span = _mm256_set1_epi32(HAN_LAST - HAN_FIRST);
	/* lane 0 from the previous group, lanes 1-7 from lanes 0-6 */
	const __m256i back1 = _mm256_setr_epi32(7, 0, 1, 2, 3, 4, 5, 6);
	const __m512i shifts = _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7);
	const __m512i ones = _mm512_set1_epi64((int64) UINT64CONST(0x0101010101010101));
	/* the lanes in two sums, so that each addition waits less */
	__m512i		acc = _mm512_setzero_si512(),
				acc2 = _mm512_setzero_si512();

/* hash's bits added to the byte lanes in a: word k counts bits k, k + 8, ... */
#define ADD_LANES(a, hv) \
	((a) = _mm512_add_epi64((a), _mm512_and_si512(_mm512_srlv_epi64((hv), shifts), ones)))

	*r = -1;					/* until a non-ASCII character ends the run */
	for (;;)
	{
		uint64		h;
		CjkStep		step;

		/* 28: the second half's load reads 16 bytes from at + 12 */
		while (at + 28 <= end)
		{
			/* the 24 bytes at u[at] as eight 3-byte sequences, one per lane */
			__m256i		raw = _mm256_loadu2_m128i((const __m128i *) (u + at + 12),
												  (const __m128i *) (u + at));
			__m256i		v = _mm256_shuffle_epi8(raw, spread3);
			__m256i		three = _mm256_cmpeq_epi32(_mm256_and_si256(v, lead_mask), lead);
			__m256i		cp = _mm256_or_si256(_mm256_or_si256(_mm256_slli_epi32(_mm256_and_si256(v, m0f), 12),
															 _mm256_srli_epi32(_mm256_and_si256(v, m3f00), 2)),
											 _mm256_and_si256(_mm256_srli_epi32(v, 16), m3f));
			__m256i		idx = _mm256_sub_epi32(cp, first);
			/* Han: idx <= HAN_LAST - HAN_FIRST, unsigned */
			__m256i		inhan = _mm256_cmpeq_epi32(_mm256_min_epu32(idx, span), idx);
			/* each unlike the one before: [last, cp0, ..., cp6] */
			__m256i		prev = _mm256_blend_epi32(_mm256_permutevar8x32_epi32(cp, back1),
												  _mm256_set1_epi32((int32) last), 0x01);
			__m256i		good = _mm256_andnot_si256(_mm256_cmpeq_epi32(cp, prev),
												   _mm256_and_si256(three, inhan));
			/* the leading characters that pass: as ScanCjkRun would take them */
			int			take = __builtin_ctz(~_mm256_movemask_ps(_mm256_castsi256_ps(good)));
			/* every lane hashed (a failed one to no use), the first take kept */
			__m512i		hv = _mm512_cvtepu32_epi64(_mm256_xor_si256(_mm256_shuffle_epi8(raw, xxh3_order),
																   keyed));

			hv = Xxh3AvalancheSmallAvx512(hv);
			_mm512_storeu_si512(hash + count, hv);
			hv = _mm512_maskz_mov_epi64((__mmask8) ((1u << take) - 1), hv);
			for (int k = 0; k < 8; k += 2)
			{
				ADD_LANES(acc, _mm512_permutexvar_epi64(_mm512_set1_epi64(k), hv));
				ADD_LANES(acc2, _mm512_permutexvar_epi64(_mm512_set1_epi64(k + 1), hv));
			}

			if (likely(take == 8))
			{
				count += 8;
				at += 24;
				last = (uint32) _mm256_extract_epi32(cp, 7);
				repeat = 1;
				continue;
			}
			count += take;
			at += 3 * take;
			if (take > 0)
			{
				last = (uint32) _mm256_cvtsi256_si32(_mm256_permutevar8x32_epi32(cp, _mm256_set1_epi32(take - 1)));
				repeat = 1;
			}

			/* the character that stopped them may end the run */
			if (StopEndsCjkRun(u, at, (_mm256_movemask_ps(_mm256_castsi256_ps(three)) >> take) & 1,
							   _mm256_cvtsi256_si32(_mm256_permutevar8x32_epi32(cp, _mm256_set1_epi32(take))),
							   next, r))
				goto done;
			break;
		}

		/* one character, as in ScanCjkRun */
		step = CjkCharacter(u, &at, end, &last, &repeat, next, r, &h);
		if (step == CJK_END)
			break;
		if (step == CJK_SKIP)
			continue;
		hash[count++] = h;
		ADD_LANES(acc, _mm512_set1_epi64((int64) h));
	}
#undef ADD_LANES
	if (*r < 0)
		*r = at;
done:
	_mm512_storeu_si512(lanes->w, _mm512_add_epi64(acc, acc2));
	*n = count;
	return at;
}
#endif

/*
 * Counts the n words of hash in rc, newrun saying that a run break stood
 * before the first (the rest follow it in the same run), as
 * RunCounterAdd would count them one by one: the words that leave the run
 * shorter than SIMHASH_RUN_CAP on the run's byte lanes held in registers
 * (the fused path of weights.h, as the SIMD kernels do), the rest by
 * RunCounterAdd.  When all n leave it shorter, their byte lanes are those
 * ScanCjkRun summed (lanes), added in one go.
 */
static pg_attribute_always_inline void
CountRunWords(RunCounter *rc, const uint64 *hash, int32 n, bool newrun,
			  const CjkLanes *lanes)
{
	int32		i = 0;

#ifdef USE_SSE2_SEGMENTER
	int64		runlen = RunCounterRunLength(rc);

	if (newrun && runlen > 0)
	{
		if (runlen < SIMHASH_RUN_CAP)
			RunCounterEndRun(rc);
		else
			RunCounterSetRunLength(rc, 0);
		runlen = 0;
	}
	if (likely(runlen + n <= SIMHASH_RUN_CAP - 1))
	{
		/* n < SIMHASH_RUN_CAP: the lanes summed no more than that */
		__m128i    *run = (__m128i *) RunCounterRunLanes(rc);
		uint64	   *slots = RunCounterRunSlots(rc, n);

		for (int k = 0; k < 4; k++)
			_mm_storeu_si128(run + k, _mm_add_epi64(_mm_loadu_si128(run + k),
													_mm_loadu_si128((const __m128i *) lanes->w + k)));
		if (likely(n <= CJK_COPY && runlen <= SIMHASH_RUN_CAP - CJK_COPY))
		{
			/*
			 * the hashes as CJK_COPY words, without a branch on n (where
			 * memcpy mispredicted about once per run): the run's slots
			 * have room for them (RunCounterRunSlots gives the ones after
			 * the run's runlen words, of the cap table's SIMHASH_RUN_CAP),
			 * hash too (ScanCjkRun); the words past n are not read
			 */
			Assert(rc->cap.nrun == runlen + n);
			memcpy(slots, hash, CJK_COPY * sizeof(uint64));
		}
		else
			memcpy(slots, hash, n * sizeof(uint64));
		RunCounterSetRunLength(rc, runlen + n);
		return;
	}
	if (runlen < SIMHASH_RUN_CAP - 1)
	{
		int32		fit = Min(n, (int32) (SIMHASH_RUN_CAP - 1 - runlen));
		__m128i    *lanes = (__m128i *) RunCounterRunLanes(rc);
		__m128i		r0 = _mm_loadu_si128(lanes),
					r1 = _mm_loadu_si128(lanes + 1),
					r2 = _mm_loadu_si128(lanes + 2),
					r3 = _mm_loadu_si128(lanes + 3);
		const __m128i m = _mm_set1_epi8(1);
		uint64	   *slots = RunCounterRunSlots(rc, fit);	/* their hashes */

		RunCounterSetRunLength(rc, runlen + fit);
		for (; i < fit; i++)
		{
			/* lanes k and k + 1 side by side, as in RunCounterAdd */
			__m128i		x = _mm_cvtsi64_si128((int64) hash[i]);
			__m128i		h = _mm_unpacklo_epi64(x, _mm_srli_epi64(x, 1));

			slots[i] = hash[i];
			r0 = _mm_add_epi64(r0, _mm_and_si128(h, m));
			r1 = _mm_add_epi64(r1, _mm_and_si128(_mm_srli_epi64(h, 2), m));
			r2 = _mm_add_epi64(r2, _mm_and_si128(_mm_srli_epi64(h, 4), m));
			r3 = _mm_add_epi64(r3, _mm_and_si128(_mm_srli_epi64(h, 6), m));
		}
		_mm_storeu_si128(lanes, r0);
		_mm_storeu_si128(lanes + 1, r1);
		_mm_storeu_si128(lanes + 2, r2);
		_mm_storeu_si128(lanes + 3, r3);
		newrun = false;
	}
#endif
	/* capped (or without SSE2): one by one */
	for (; i < n; i++)
	{
		RunCounterAdd(rc, hash[i], newrun);
		newrun = false;
	}
}

/*
 * Passes on the tokens of the run of CJK characters u[q..e), whose n
 * hashes and byte lanes ScanCjkRun computed if HashesCjk.
 */
static pg_attribute_always_inline void
CommitCjkRun(SegmentState *st, const uint8_t *u, int32 q, int32 e, int32 n,
			 const CjkLanes *lanes)
{
	LineCheck(st, (const char *) u + q);
	if (!HashesCjk(st))
		EmitCjkRun(st, u, q, e);
	else if (st->rc)
	{
		Assert(n > 0);
		CountRunWords(st->rc, st->cjkhash, n, st->newrun, lanes);
	}
	else
	{
		for (int32 i = 0; i < n; i++)
			TfCounterAdd(st->tf, st->cjkhash[i]);
	}
	st->newrun = false;
}

/*
 * Where the piece that must go to ICU because of the character at q of
 * the span s[start..end) ends: the first safe cut after it (tokenizer.c)
 * or the first CJK character after ASCII or punctuation FastPunct takes
 * (where normalization starts afresh and a run of CJK characters begins,
 * so that ICU would cut the text there anyway).  a is where the piece
 * starts.
 */
static int32
SlowPieceEnd(const char *s, int32 start, int32 a, int32 q, int32 end, int32 len)
{
	const uint8_t *u = (const uint8_t *) s;
	int32		b = q;
	UChar32		prev;

	U8_NEXT(u, b, end, prev);
	while (b < end)
	{
		int32		j = b;
		UChar32		c;

		if (u[b] < 0x80)
		{
			if (IsCut(s, a, b, len))
				break;
			c = u[j++];
		}
		else
		{
			c = NextCodePoint(u, &j, end);
			if (IsCjk(c) && prev >= 0 &&
				(prev < 0x80 || FastPunct(u, start, b, b, b, prev) != PUNCT_NO))
				break;
		}
		prev = c;
		b = j;
	}
	return b;
}

/*
 * Segments the span s[start..end) of a document of length len, whose ends
 * are safe cuts, under version 4, in one pass: ASCII stretches go to the
 * kernels, CJK runs are emitted straight from the UTF-8, punctuation that
 * FastPunct takes ends the stretch before it (or, if it is isolated
 * punctuation followed by ASCII, stays in the stretch as bytes of no token
 * with st->breaks saying where it ends a run), and around any other
 * non-ASCII character a piece goes to ICU, from the last cut before it to
 * the first after it (SlowPieceEnd).  The cuts the fast path makes are
 * those where ICU's tokens of version 4 would be cut anyway: between ASCII
 * or such punctuation and a CJK character (which normalization does not
 * compose with anything, and where a run of CJK characters starts or
 * ends), and around such punctuation (a word of its own, which
 * normalization does not compose with ASCII or CJK characters).
 */
static pg_attribute_always_inline void
SegmentSpanV4Body(SegmentState *st, const char *s, int32 start, int32 end, int32 len,
				  int simd)
{
	const uint8_t *u = (const uint8_t *) s;
	int32		p = start;		/* start of the ASCII stretch not yet segmented */
	int32		x = start;		/* scanned up to here; a cut */
	bool		known = false;	/* is the next non-ASCII character known? */
	int32		q = start;		/* if so, it is c, at u[q..r) */
	int32		r = start;
	UChar32		c = 0;
	int			kind = -1;		/* and FastPunct of it, if known (>= 0) */

	Assert(st->nbreaks == 0);
	if (unlikely(!punct_ready))
		PunctTableInit();
	for (;;)
	{
		int32		a;

		if (!known)
		{
			q = NextNonAscii(s, x, end);
			if (q == end)
				break;
			c = PeekCodePoint(u, q, end, &r);
			kind = -1;
		}
		known = false;
		if (IsCjk(c))
		{
			int32		n;
			int			pc;
			CjkLanes	lanes;
			int32		e = ScanCjkRun(st, u, q, end, &n, &c, &r, &lanes, simd);

			/* can the fast path cut at the run's end? */
			SegmentAsciiStretch(st, s, p, q);
			pc = r > e && c >= 0 && c < 0x10000 ? PunctClass(c) : 0;
			if (r == e ||
				(kind = pc != 0 ? (pc & PC_KIND) : FastPunct(u, start, e, r, end, c)) != PUNCT_NO)
			{
				CommitCjkRun(st, u, q, e, n, &lanes);
				p = x = q = e;
				known = r > e;	/* punctuation */
				if (pc != 0 && r + 4 <= end)
				{
					uint32		w = LoadLE32(u + r);

					/*
					 * common punctuation followed by a Han character: both
					 * cut here, as the punctuation's branch below finds;
					 * straight on to the next run
					 */
					if (THREE_BYTES(w) &&
						(uint32) (THREE_BYTE_CODE_POINT(w) - HAN_FIRST) <= HAN_LAST - HAN_FIRST)
					{
						st->newrun |= (pc & PC_BREAK) != 0;
						p = x = q = r;
						c = THREE_BYTE_CODE_POINT(w);
						r = q + 3;
						kind = -1;
					}
				}
				continue;
			}
			/* the run and what follows it go to ICU */
			a = q;
			q = e;
		}
		else
		{
			if (kind < 0)
				kind = FastPunct(u, start, q, r, end, c);
			if (kind != PUNCT_NO && (r == end || u[r] < 0x80))
			{
				if (kind == PUNCT_ISOLATED)
				{
					/*
					 * a word of its own followed by ASCII: it stays in the
					 * ASCII stretch, as bytes of no token
					 */
					if (RunBreak(c))
						AddBreak(st, q - p);
					x = r;
					continue;
				}
				SegmentAsciiStretch(st, s, p, q);
				st->newrun |= PunctBreaksRun(c);
				p = x = r;
				continue;
			}
			if (kind != PUNCT_NO)
			{
				/* followed by CJK or such punctuation: both cut here */
				int32		r2;
				UChar32		d = PeekCodePoint(u, r, end, &r2);
				int			dkind = IsCjk(d) ? -1 : FastPunct(u, start, r, r2, end, d);

				if (dkind != PUNCT_NO)
				{
					SegmentAsciiStretch(st, s, p, q);
					st->newrun |= PunctBreaksRun(c);
					p = x = q = r;
					r = r2;
					c = d;
					kind = dkind;
					known = true;
					continue;
				}
			}
			/* ICU from the last cut before it */
			for (a = q; a > x && !IsCut(s, x, a, len); a--)
				;
			SegmentAsciiStretch(st, s, p, a);
		}
		/* ICU from a to the first cut after the character at q */
		p = x = SlowPieceEnd(s, start, a, q, end, len);
		SegmentIcu(st, s + a, p - a);
	}
	SegmentAsciiStretch(st, s, p, end);
}

#ifdef USE_AVX2_SEGMENTER
/*
 * SegmentSpanV4 with the AVX2 variant of the CJK runs' hashing, compiled
 * for AVX2 as a whole, so that HashCjkRunAvx2 is inlined (its call and its
 * constants cost as much as a short run's characters).
 */
__attribute__((target("avx2")))
static void
SegmentSpanV4Avx2(SegmentState *st, const char *s, int32 start, int32 end, int32 len)
{
	SegmentSpanV4Body(st, s, start, end, len, CJK_AVX2);
}

/* The same with the AVX-512 variant (HashCjkRunAvx512), compiled for AVX-512. */
static AVX512_TARGET void
SegmentSpanV4Avx512(SegmentState *st, const char *s, int32 start, int32 end, int32 len)
{
	SegmentSpanV4Body(st, s, start, end, len, CJK_AVX512);
}
#endif

void
SegmentSpanV4(SegmentState *st, const char *s, int32 start, int32 end, int32 len)
{
#ifdef USE_AVX2_SEGMENTER
	/* with the ASCII kernels of AVX2 and AVX-512 (simhash.simd) */
	if (st->ascii == SegmentAsciiAvx512)
	{
		SegmentSpanV4Avx512(st, s, start, end, len);
		return;
	}
	if (st->ascii == SegmentAsciiAvx2)
	{
		SegmentSpanV4Avx2(st, s, start, end, len);
		return;
	}
#endif
	SegmentSpanV4Body(st, s, start, end, len, CJK_PORTABLE);
}
