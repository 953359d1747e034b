/*
 * fingerprint/tokenizer_kernel.h
 *	  Internals of the tokenizer shared by its files: a document's working
 *	  state, the ASCII tables and the interface of the ASCII kernels.
 *
 * tokenizer.c (the driver) cuts the text into spans and gives each ASCII
 * stretch to one kernel, each other piece to ICU (tokenizer_icu.c).  The
 * kernels give exactly the same tokens:
 *	  SegmentAsciiScalar	tokenizer_ascii.c, the reference, byte at a time
 *	  SegmentAsciiSse2		tokenizer_sse2.c, 16 bytes at a time
 *	  SegmentAsciiAvx2		tokenizer_avx2.c, 32 bytes at a time, and its
 *							own classification, token and hashing steps
 *	  SegmentAsciiAvx512	tokenizer_avx512.c, 64 bytes at a time, and
 *							its own classification, token and hashing steps
 * The three SIMD kernels share tokenizer_simd.h.  ChooseAsciiKernel picks
 * one per document from simhash.simd and the CPU.
 */
#ifndef SIMHASH_FP_TOKENIZER_KERNEL_H
#define SIMHASH_FP_TOKENIZER_KERNEL_H

#include "fingerprint/tokenizer.h"
#include "fingerprint/lines.h"

#include <unicode/utypes.h>
#include <unicode/utf8.h>

/*
 * XXH3 for the tokens, inlined: the SIMD kernels also compute its formulas
 * for short inputs in vectors
 */
#define XXH_INLINE_ALL
#include <xxhash.h>

/*
 * On x86-64 the SIMD kernels exist: SSE2 is part of the x86-64 baseline
 * (no -march flag is needed); AVX2 and AVX-512 are compiled with target
 * attributes and chosen at run time when the CPU has the instructions.
 * Elsewhere only the scalar kernel does.
 */
#if defined(__SSE2__)
#define USE_SSE2_SEGMENTER
#include <emmintrin.h>
#if defined(__x86_64__) && defined(__GNUC__)
#define USE_AVX2_SEGMENTER
#include <immintrin.h>
#endif
#endif

/*
 * Marks the symbols below as internal to the module: not exported, so
 * that the code addresses the tables directly, without the indirection
 * through the global offset table that exported data of a shared library
 * costs (1 % of the scalar kernel's instructions).
 */
#if defined(__GNUC__) && !defined(_WIN32)
#define TOKENIZER_INTERNAL __attribute__((visibility("hidden")))
#else
#define TOKENIZER_INTERNAL
#endif

/* Longest run of one code point kept inside a token. */
#define MAX_RUN			3

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

/* Flags of bytes for the ASCII kernels (bytes >= 128 have none). */
#define AF_WORD			0x01	/* letter, digit, '_' or '@' */
#define AF_ALPHA		0x02	/* A-Z, a-z: makes a token kept */
#define AF_DIGIT		0x04	/* 0-9 */
#define AF_AHLETTER		0x08	/* ALetter: A-Z, a-z, '@' */
#define AF_MIDLETTER	0x10	/* may join two letters: '.', '\'' */
#define AF_MIDNUM		0x20	/* may join two digits: '.', '\'', ',', ';' */
#define AF_BREAK		0x40	/* ends a run */

/*
 * Classes of bytes as rectangles of (high nibble, low nibble), for the
 * AVX2 kernel's lookups by nibble (vpshufb): byte c has bit b of
 * nibble_lo[c & 15] & nibble_hi[c >> 4] if it is in class b, and none if
 * c >= 128.  Each class is a set of high nibbles times a set of low ones.
 */
#define NB_ALPHA_A		0x01	/* A-O, a-o */
#define NB_ALPHA_B		0x02	/* P-Z, p-z */
#define NB_DIGIT		0x04	/* 0-9 */
#define NB_AT			0x08	/* '@' */
#define NB_EXTEND		0x10	/* '_' */
#define NB_MID2			0x20	/* '\'', ',', '.' */
#define NB_MIDLETTER	0x40	/* '\'', '.' */
#define NB_SEMICOLON	0x80	/* ';' */

/* The ASCII tables (tokenizer_ascii.c), set by AsciiTablesInit. */
extern TOKENIZER_INTERNAL uint8 ascii_class[128];
extern TOKENIZER_INTERNAL bool ascii_breaks_run[128];	/* RunBreak of each ASCII character */
extern TOKENIZER_INTERNAL uint8 ascii_flags[256];
extern TOKENIZER_INTERNAL unsigned char ascii_lower[256];
extern TOKENIZER_INTERNAL uint8 nibble_lo[16];	/* the NB_ classes, see above */
extern TOKENIZER_INTERNAL uint8 nibble_hi[16];
/* bit h of break_rows[l]: byte 16 * h + l (h < 8) ends a run (RunBreak) */
extern TOKENIZER_INTERNAL uint8 break_rows[16];

typedef struct SegmentState SegmentState;

/*
 * An ASCII kernel: segments the ASCII span s[0..len), whose ends are safe
 * cuts, like ICU would, and passes the kept tokens on in order (see
 * SegmentState); reads st->breaks and leaves it for the caller to clear.
 */
typedef void (*AsciiKernel) (SegmentState *st, const char *s, int32 len);

/* Working buffers of one document. */
struct SegmentState
{
	FeatureExtractor *fx;
	/*
	 * Where a kernel passes the kept tokens: with the default options
	 * (single words weighted runs) their hashes go to rc directly, without
	 * FeatureExtractorAddToken; the same with tf for words weighted tf;
	 * else the tokens go to fx.  The scalar kernel uses rc, never tf.
	 */
	RunCounter *rc;
	TfCounter  *tf;
	AsciiKernel ascii;			/* the kernel, chosen per document */
	bool		numbers;
	uint8		cjk;			/* CJK_*: what runs of CJK characters give */
	bool		newrun;			/* a run break since the last kept token? */
	/*
	 * Version 5's line weights (tokenizer.c, lines.h): where, in the chunk
	 * being segmented, the multiplier of the lines changes (cuts, at the
	 * start of a line), and the next such place (linecut: UINTPTR_MAX when
	 * none).  Whatever passes a kept token on calls LineCheck with its first
	 * byte first.
	 */
	bool		lines;			/* weigh words by their line's length? */
	int32		typical;		/* the typical line's length; 0: not yet known */
	int32		linebefore;		/* bytes of the current line before the chunk */
	int			lineclass;		/* the multiplier of the last line cut */
	uintptr_t	linecut;		/* the next cut, or UINTPTR_MAX */
	const char **cuts;			/* the chunk's cuts, ascending */
	uint8	   *cutclass;		/* the multiplier from each on */
	int32		ncuts;
	int32		nextcut;		/* cuts[nextcut] is linecut */
	int32		cutcap;
	LineBreaks	linebreaks;		/* the first 64 kB's, while they stay put */
	char	   *token;			/* a token in UTF-8 */
	int32		tokencap;
	UChar	   *utf16;
	int32		utf16cap;
	UChar	   *norm;
	int32		normcap;
	/* isolated punctuation in the ASCII span that ends a run */
	int32	   *breaks;			/* offsets of its first bytes, ascending */
	int32		nbreaks;
	int32		breakcap;
	/* the current run of CJK characters (tokenizer_cjk.c) */
	UChar32		cjkprev;		/* its last code point */
	int32		cjkcount;		/* its code points so far (CJK_RUNS) */
	int32		cjkrepeat;		/* how often cjkprev repeats at its end */
	char	   *cjkrun;			/* CJK_RUNS: the run in UTF-8 */
	int32		cjkrunlen;
	int32		cjkruncap;
	uint64	   *cjkhash;		/* the hashes of a run's tokens (SegmentSpanV4) */
	int32		cjkhashcap;
#ifdef USE_SSE2_SEGMENTER
	/* SIMD kernels: the span lower-cased, and bitmaps of its bytes */
	char	   *lower;			/* the span lower-cased: lowerbuf + LOWER_PAD */
	char	   *lowerbuf;
	int32		lowercap;
	uint64	   *masks;			/* MASK_KINDS bitmaps of nmaskwords words */
	int32		maskcap;
#endif
};

/*
 * What a run of CJK characters gives (algorithm version 4; version 3 has
 * no such runs: ICU's dictionaries segment them like any other text).
 */
#define CJK_NONE		0		/* version 3 */
#define CJK_CHARS		1		/* each character a token (words, shingles) */
#define CJK_RUNS		2		/* one token, the whole run (chars) */

/*
 * Is c, a code point of normalized text, a CJK character of version 4's
 * runs?  Han (the CJK Unified Ideographs of the BMP, extension A and the
 * supplementary planes' extensions, and 々 〇), Hiragana, Katakana (with ー
 * and the small letters of U+31F0..U+31FF) and Hangul syllables: all of
 * them are left alone by NFKC_Casefold and compose with nothing that
 * precedes them.  Not the compatibility ideographs, the half-width forms or
 * the Hangul jamo, which normalization may change or compose.
 */
static inline bool
IsCjk(UChar32 c)
{
	if (c < 0x3005)
		return false;
	if (c <= 0x9FFF)
		return c >= 0x4E00 ||
			(c >= 0x3400 && c <= 0x4DBF) ||
			(c >= 0x3041 && c <= 0x3096) ||
			(c >= 0x309D && c <= 0x309E) ||
			(c >= 0x30A1 && c <= 0x30FA) ||
			(c >= 0x30FC && c <= 0x30FE) ||
			(c >= 0x31F0 && c <= 0x31FF) ||
			c == 0x3005 || c == 0x3007;
	return (c >= 0xAC00 && c <= 0xD7A3) ||
		(c >= 0x20000 && c <= 0x2EE5F) ||
		(c >= 0x30000 && c <= 0x323AF);
}

/* Makes *buf hold at least need units of size elem (contents are lost). */
static inline void
Reserve(void **buf, int32 *cap, int32 need, Size elem)
{
	if (*cap >= need)
		return;
	if (*buf)
		pfree(*buf);
	*cap = Max(need, 2 * *cap);
	*buf = palloc((Size) *cap * elem);
}

/* The flags (AF_) of which one makes a token kept under st's options. */
static inline uint8
KeptTokenFlags(const SegmentState *st)
{
	return AF_ALPHA | (st->numbers ? AF_DIGIT : 0);
}

/* tokenizer_ascii.c */
extern TOKENIZER_INTERNAL void AsciiTablesInit(void);
extern TOKENIZER_INTERNAL AsciiKernel ChooseAsciiKernel(int simd);
extern TOKENIZER_INTERNAL void SegmentAsciiScalar(SegmentState *st, const char *s, int32 len);

/* tokenizer_sse2.c, tokenizer_avx2.c, tokenizer_avx512.c */
#ifdef USE_SSE2_SEGMENTER
extern TOKENIZER_INTERNAL void SegmentAsciiSse2(SegmentState *st, const char *s, int32 len);
#endif
#ifdef USE_AVX2_SEGMENTER
/* the CPU features each needs; for tests that call the kernels directly */
extern TOKENIZER_INTERNAL bool AsciiKernelAvx2Supported(void);
extern TOKENIZER_INTERNAL bool AsciiKernelAvx512Supported(void);
extern TOKENIZER_INTERNAL void SegmentAsciiAvx2(SegmentState *st, const char *s, int32 len);
extern TOKENIZER_INTERNAL void SegmentAsciiAvx512(SegmentState *st, const char *s, int32 len);

/*
 * Code for CPUs with the AVX-512 subsets of AsciiKernelAvx512Supported:
 * the AVX-512 kernel (tokenizer_avx512.c) and the CJK runs' hashing that
 * goes with it (tokenizer_cjk.c).  (A test that emulates the instructions
 * in portable C, test/fuzz/avx512emu, defines it empty, so that the
 * compiler emits no AVX-512 instruction of its own.)
 */
#ifndef AVX512_TARGET
#define AVX512_TARGET __attribute__((target("avx2,bmi,bmi2,avx512f,avx512bw,avx512dq,avx512vl,avx512vbmi,avx512vbmi2")))
#endif

/*
 * a * c mod 2^64 in each 64-bit lane, c given as its low and high 32 bits
 * in every lane (AVX2 multiplies 32 by 32 bits only): for the XXH3 formulas
 * of the AVX2 hashing of words and of Han characters.
 */
static __attribute__((target("avx2"))) pg_attribute_always_inline __m256i
Mul64Avx2(__m256i a, __m256i c_lo, __m256i c_hi)
{
	__m256i		cross = _mm256_add_epi64(_mm256_mul_epu32(_mm256_srli_epi64(a, 32), c_lo),
										 _mm256_mul_epu32(a, c_hi));

	return _mm256_add_epi64(_mm256_mul_epu32(a, c_lo), _mm256_slli_epi64(cross, 32));
}

/*
 * XXH64_avalanche of h in each 64-bit lane, for h below 2^32 (XXH3's hash
 * of 1-3 bytes: their "combined" word XORed with a 32-bit bitflip): its
 * first step, h ^= h >> 33, changes nothing, and its first product needs
 * no high half of h.
 */
static __attribute__((target("avx2"))) pg_attribute_always_inline __m256i
Xxh3AvalancheSmallAvx2(__m256i h)
{
	h = _mm256_add_epi64(_mm256_mul_epu32(h, _mm256_set1_epi64x((int64) (XXH_PRIME64_2 & 0xFFFFFFFF))),
						 _mm256_slli_epi64(_mm256_mul_epu32(h, _mm256_set1_epi64x((int64) (XXH_PRIME64_2 >> 32))), 32));
	h = _mm256_xor_si256(h, _mm256_srli_epi64(h, 29));
	h = Mul64Avx2(h, _mm256_set1_epi64x((int64) (XXH_PRIME64_3 & 0xFFFFFFFF)),
				  _mm256_set1_epi64x((int64) (XXH_PRIME64_3 >> 32)));
	return _mm256_xor_si256(h, _mm256_srli_epi64(h, 32));
}

/* The same in 512 bits, with AVX-512's 64-bit products */
static AVX512_TARGET pg_attribute_always_inline __m512i
Xxh3AvalancheSmallAvx512(__m512i h)
{
	h = _mm512_mullo_epi64(h, _mm512_set1_epi64((int64) XXH_PRIME64_2));
	h = _mm512_xor_si512(h, _mm512_srli_epi64(h, 29));
	h = _mm512_mullo_epi64(h, _mm512_set1_epi64((int64) XXH_PRIME64_3));
	return _mm512_xor_si512(h, _mm512_srli_epi64(h, 32));
}
#endif

/* tokenizer_cjk.c */
extern TOKENIZER_INTERNAL void CjkRunAdd(SegmentState *st, UChar32 c);
extern TOKENIZER_INTERNAL void CjkRunEnd(SegmentState *st);
extern TOKENIZER_INTERNAL void SegmentSpanV4(SegmentState *st, const char *s,
											 int32 start, int32 end, int32 len);

/* tokenizer_icu.c */
extern TOKENIZER_INTERNAL void IcuOpen(void);
extern TOKENIZER_INTERNAL void SegmentIcu(SegmentState *st, const char *s, int32 len);
extern TOKENIZER_INTERNAL void LineSwitch(SegmentState *st, const char *p);

/*
 * Version 5: a kept token that starts at p (in the chunk's text) is about
 * to be passed on; if a line cut lies at or before p, its words weigh as
 * that line says (the run before it ends first).  Every token after a cut
 * starts a run (a line break ends runs), so a run never changes multiplier.
 */
static pg_attribute_always_inline void
LineCheck(SegmentState *st, const char *p)
{
	if (unlikely((uintptr_t) p >= st->linecut))
		LineSwitch(st, p);
}
extern TOKENIZER_INTERNAL bool RunBreakSlow(UChar32 c);
extern TOKENIZER_INTERNAL bool SafeToCutAfter(UChar32 c);
extern TOKENIZER_INTERNAL bool SafeToCutBefore(UChar32 c);
extern TOKENIZER_INTERNAL bool IsolatedPunct(UChar32 c);

/*
 * What ApartFrom says of a non-ASCII character: where it is a word of its
 * own, never kept, that normalization leaves apart from its neighbours
 * (tokenizer_icu.c), so that the fast path may take it without ICU.
 */
#define APART_NEVER		0
#define APART_ALWAYS	1		/* wherever the fast path cuts: what follows
								 * is ASCII, CJK or punctuation it takes */
#define APART_MID		2		/* only where neither neighbour is an ASCII
								 * letter, digit, '_' or '@' */
extern TOKENIZER_INTERNAL int ApartFrom(UChar32 c);

/*
 * Does c, found between two kept tokens, end a run of text (for weighting
 * runs)?  See RunBreakSlow.
 */
static inline bool
RunBreak(UChar32 c)
{
	return c < 128 ? ascii_breaks_run[c] : RunBreakSlow(c);
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

/*
 * Is position x (a code point boundary, from < x < len) of s a safe cut
 * (tokenizer.c)?  from bounds the look back.
 */
static inline bool
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
 * Notes that the isolated punctuation at offset off of the ASCII stretch
 * the next kernel call segments ends a run (st->breaks).
 */
static inline void
AddBreak(SegmentState *st, int32 off)
{
	if (st->nbreaks == st->breakcap)
	{
		/* grow, keeping the contents (Reserve does not) */
		st->breakcap = Max(64, 2 * st->breakcap);
		st->breaks = st->breaks ?
			repalloc(st->breaks, st->breakcap * sizeof(int32)) :
			palloc(st->breakcap * sizeof(int32));
	}
	st->breaks[st->nbreaks++] = off;
}

#endif							/* SIMHASH_FP_TOKENIZER_KERNEL_H */
