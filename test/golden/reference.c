/*
 * reference.c
 *	  An independent, deliberately naive implementation of simhash(text)
 *	  algorithm versions 3 to 8, used to compute the golden vectors.
 *
 * It shares no code with the extension: it normalizes the whole text with
 * ICU at once (no chunks), segments it with one ICU word break iterator
 * (no ASCII fast path), builds the complete list of features with their
 * weights in memory, groups them by hash to total and cap each distinct
 * feature's weight (version 3: at max(ceil(9 W / 200), 64) under runs,
 * max(ceil(9 W / 200), 1) under tf and binary, max(0.045 W, 1) under log,
 * W the document's total weight, for the first 65,536 distinct features by
 * first occurrence), and sums +weight / -weight bit by bit (no byte lanes).
 * What it shares with the extension is only the specification (see
 * src/fingerprint/tokenizer.c and src/fingerprint/features.c) and the two
 * libraries: ICU and xxHash.
 *
 * Version 4 (the default; "reference 3" computes version 3) differs in
 * the tokens: every maximal run of CJK characters of the normalized text
 * (is_cjk) is cut out of it and gives each of its characters as a token
 * (the whole run as one token under features 'chars'), and the pieces
 * between the runs are segmented by ICU each as a text of its own.  And in
 * the weights of single words (features words or shingles with n = 1)
 * weighted runs or tf: each distinct word of the first 65,536 weighs
 * round(16 * w * sqrt(occurrences) * d), w its version 3 weight, d = 1 or,
 * for a word of the frequency list below of share s and damping share t
 * (parts per million) with s > t, d = 1 - g * (1 - t / s) with
 * g = min(1, N / 1000),
 * N the number of words of the document; the words after the first 65,536
 * weigh 16 w; the cap is max(ceil(9 W / 200), 16 * floor) on these weights
 * for N <= 10000, max(ceil(9.0 W / 200.0 * sqrt(10000.0 / N)), 16 * floor)
 * for longer documents.  Under runs an occurrence in a run of L words
 * weighs floor(L sqrt(L) / 2 + 0.5) instead of L (floor: 256, a full run).
 *
 * Version 5 ("reference 5") is version 4 with line weights where version 4
 * has its run weights (single words weighted runs): an occurrence in a run
 * of L words on a line of multiplier m16 weighs
 * max(1, floor((w4 * m16 + 8) / 16)), w4 = floor(L sqrt(L) / 2 + 0.5).
 * Lines are those of the raw UTF-8 text, broken by "\r\n" (one break),
 * "\n", "\r", U+2028 and U+2029; a line's length is its byte count capped
 * at 4096; T, the typical line, is the length of the line that holds the
 * median byte among the non-empty lines of the first 65,536 bytes (each
 * counted only up to there, capped at 4096); m16 = min(16, floor(16 len / T))
 * (16 when no line of the prefix is non-empty: the text starts with 65,536
 * bytes of line breaks).  The normalized text keeps every line break
 * character one for one (checked by "reference check-lines"), so the k-th
 * break character of the normalized text is the k-th of the raw text, and a
 * token lies on the raw line that follows the last break character before it
 * (raw_lines, line_at in tokenize).
 *
 * Version 6 ("reference 6") blends version 5's robust weights in between
 * 700 and 1,400 words (below, each word keeps its linear weight).  Version
 * 7 ("reference 7") is version 6 with the robust cap of a document of more
 * than 1,400 words max(ceil(9 W / 200 * 1400 / N), 16 * floor).  Version
 * 8 ("reference 8") is version 7 with a second cap on the capped weights
 * of the first 65,536 distinct words: max(16 m, 16 * floor), m the weight
 * at which the occurrences of the words sorted by weight (lightest first)
 * reach half of all the occurrences (cumulated count * 2 >= total).
 *
 * Reads CSV lines "body,features,n,weighting,numbers" (RFC 4180 quoting,
 * with a header) on stdin and writes them back with a sixth column, the
 * fingerprint in hex (empty for NULL).  "reference tokens" lists the
 * tokens of documents instead (write_tokens), for bench/weights_sim.py.
 *
 * Build and run: see test/golden/README.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unicode/ubrk.h>
#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/ustring.h>
#include <unicode/utf16.h>
#include <unicode/utf8.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#define RUN_CAP 64
#define MAX_RUN 3
#define CAP_FEATURES 65536		/* distinct features subject to the cap */

typedef struct Token
{
	char	   *s;				/* normalized UTF-8 */
	int			len;
	bool		gap;			/* something between it and the previous */
	bool		newrun;			/* a run break between it and the previous */
	bool		newline;		/* a line break between it and the previous */
	int			run;			/* index of its run */
	int			line;			/* index of its raw line (raw_lines) */
	int			m16;			/* version 5: its line's multiplier */
} Token;

typedef struct Feature
{
	uint64_t	hash;
	long		weight_runs;	/* weight of its run */
} Feature;

/* An occurrence of a feature: its hash and its position among all. */
typedef struct Occurrence
{
	uint64_t	hash;
	int			index;
} Occurrence;

/* A distinct feature and its total weight. */
typedef struct Group
{
	uint64_t	hash;
	int			first;			/* position of its first occurrence */
	long		count;
	long		runs;			/* sum of the run weights */
	double		weight;
	double		linear;			/* version 6: its weight before the robust one */
} Group;

static void
die(const char *msg)
{
	fprintf(stderr, "reference: %s\n", msg);
	exit(1);
}

/*
 * Version 4's frequency list: the words of English technical text with a
 * share of 0.3 % or more and the Chinese characters with 1 % or more, each
 * with its share and the share it is damped to, parts per million (the
 * data of the specification, from bench/frequent_words.py).
 */
static const struct
{
	const char *word;
	long		ppm;
	long		damp_ppm;
} frequent_words[] = {
	{"the", 72992, 3000}, {"to", 29824, 3000}, {"of", 27115, 3000},
	{"a", 26841, 3000}, {"and", 19746, 3000}, {"is", 17931, 3000},
	{"in", 16572, 3000}, {"for", 11237, 3000}, {"this", 10973, 3000},
	{"that", 10953, 3000}, {"or", 10675, 3000}, {"it", 9995, 3000},
	{"be", 9193, 3000}, {"you", 8748, 3000}, {"by", 7858, 3000},
	{"with", 7760, 3000}, {"as", 7301, 3000}, {"on", 7125, 3000},
	{"are", 6797, 3000}, {"can", 6465, 3000}, {"not", 5672, 3000},
	{"if", 4924, 3000}, {"debian", 4919, 3000}, {"package", 4611, 3000},
	{"an", 4538, 3000}, {"which", 4494, 3000}, {"license", 4469, 3000},
	{"from", 4127, 3000}, {"will", 4108, 3000}, {"file", 4054, 3000},
	{"any", 3922, 3000}, {"all", 3648, 3000}, {"use", 3369, 3000},
	{"work", 3203, 3000}, {"version", 3178, 3000},
	{"的", 48477, 10000}, {"件", 18111, 10000}, {"用", 15765, 10000},
	{"在", 12190, 10000}, {"是", 12111, 10000}, {"个", 11445, 10000},
	{"一", 11097, 10000}, {"包", 10209, 10000}
};

/* The frequency list's entry of the word of hash hash, or -1. */
static int
frequent_index(uint64_t hash)
{
	for (size_t i = 0; i < sizeof(frequent_words) / sizeof(frequent_words[0]); i++)
		if (XXH3_64bits(frequent_words[i].word, strlen(frequent_words[i].word)) == hash)
			return (int) i;
	return -1;
}

static bool
breaks_run(UChar32 c)
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

/* The version computed: 3 to 8 (the first argument; default 4). */
static int	version = 4;
/* Features 'chars' (under version 4 a CJK run is then one token). */
static bool chars_kind = false;

/*
 * Version 4's CJK characters: Han (U+3400..U+4DBF, U+4E00..U+9FFF,
 * U+20000..U+2EE5F, U+30000..U+323AF, U+3005, U+3007), Hiragana
 * (U+3041..U+3096, U+309D..U+309E), Katakana (U+30A1..U+30FA,
 * U+30FC..U+30FE, U+31F0..U+31FF), Hangul syllables (U+AC00..U+D7A3).
 */
static bool
is_cjk(UChar32 c)
{
	static const UChar32 ranges[][2] = {
		{0x3005, 0x3005}, {0x3007, 0x3007}, {0x3041, 0x3096}, {0x309D, 0x309E},
		{0x30A1, 0x30FA}, {0x30FC, 0x30FE}, {0x31F0, 0x31FF}, {0x3400, 0x4DBF},
		{0x4E00, 0x9FFF}, {0xAC00, 0xD7A3}, {0x20000, 0x2EE5F}, {0x30000, 0x323AF}};

	for (size_t i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++)
		if (c >= ranges[i][0] && c <= ranges[i][1])
			return true;
	return false;
}

typedef struct TokenList
{
	Token	   *toks;
	int			n;
	int			cap;
	bool		newrun;
	bool		newline;
	const int  *line_at;		/* raw line of each UTF-16 unit of the
								 * normalized text */
	int32_t		base;			/* offset of the piece being segmented */
} TokenList;

/* Appends a token that starts at pos of the piece being segmented. */
static void
push(TokenList *tl, char *s, int len, bool gap, int32_t pos)
{
	if (tl->n == tl->cap)
	{
		tl->cap = tl->cap ? 2 * tl->cap : 64;
		tl->toks = realloc(tl->toks, sizeof(Token) * tl->cap);
	}
	tl->toks[tl->n].s = s;
	tl->toks[tl->n].len = len;
	tl->toks[tl->n].gap = gap;
	tl->toks[tl->n].newrun = tl->newrun;
	tl->toks[tl->n].newline = tl->newline;
	tl->toks[tl->n].line = tl->line_at[tl->base + pos];
	tl->n++;
	tl->newrun = false;
	tl->newline = false;
}

/* Segments norm[0..nn), a text of its own, with ICU's word break rules. */
static void
segment_words(const UChar *norm, int32_t nn, bool numbers, TokenList *tl)
{
	UErrorCode	st = U_ZERO_ERROR;
	UBreakIterator *bi = ubrk_open(UBRK_WORD, "", norm, nn, &st);
	int32_t		start,
				end,
				prev_end = -1;

	if (U_FAILURE(st))
		die("ubrk_open failed");
	start = ubrk_first(bi);
	for (end = ubrk_next(bi); end != UBRK_DONE; start = end, end = ubrk_next(bi))
	{
		bool		keep = false;
		char	   *out = malloc(4 * (end - start) + 1);
		int			len = 0;
		UChar32		last = -1;
		int			run = 0;

		for (int32_t i = start; i < end;)
		{
			UChar32		c;

			U16_NEXT(norm, i, end, c);
			if (u_isalpha(c) || (numbers && u_isdigit(c)))
				keep = true;
		}
		if (!keep)
		{
			for (int32_t i = start; i < end;)
			{
				UChar32		c;

				U16_NEXT(norm, i, end, c);
				if (breaks_run(c))
					tl->newrun = true;
				if (c == '\n' || c == '\r' || c == 0x2028 || c == 0x2029)
					tl->newline = true;
			}
			free(out);
			continue;
		}
		for (int32_t i = start; i < end;)
		{
			UChar32		c;

			U16_NEXT(norm, i, end, c);
			if (c == last && ++run > MAX_RUN)
				continue;
			if (c != last)
			{
				last = c;
				run = 1;
			}
			U8_APPEND_UNSAFE(out, len, c);
		}
		push(tl, out, len, start != prev_end, start);
		prev_end = end;
	}
	ubrk_close(bi);
}

/*
 * Version 4: a run of CJK characters norm[0..nn) gives each character as a
 * token (more than MAX_RUN equal ones in a row count MAX_RUN times), or
 * under features 'chars' the whole run as one token.
 */
static void
segment_cjk_run(const UChar *norm, int32_t nn, TokenList *tl)
{
	char	   *whole = malloc(4 * nn + 1);
	int			wlen = 0;
	UChar32		last = -1;
	int			run = 0;

	for (int32_t i = 0; i < nn;)
	{
		UChar32		c;
		int32_t		at = i;

		U16_NEXT(norm, i, nn, c);
		if (c == last && ++run > MAX_RUN)
			continue;
		if (c != last)
		{
			last = c;
			run = 1;
		}
		if (chars_kind)
			U8_APPEND_UNSAFE(whole, wlen, c);
		else
		{
			char	   *one = malloc(5);
			int			len = 0;

			U8_APPEND_UNSAFE(one, len, c);
			push(tl, one, len, true, at);
		}
	}
	if (chars_kind)
		push(tl, whole, wlen, true, 0);
	else
		free(whole);
}

#define LINE_CAP 4096			/* a line's length is capped at this */
#define LINE_PREFIX 65536		/* the bytes that decide the typical line */

/* Version 5: the lines of the raw text. */
typedef struct RawLines
{
	int			n;				/* lines */
	long	   *len;			/* each line's byte count, capped at LINE_CAP */
	int			nbreaks;		/* line break characters ("\r\n": two) */
	int		   *after;			/* the line that follows each of them */
	long		typical;		/* T; 0 if no line of the prefix is non-empty */
} RawLines;

/* Bytes of the line break character at t[i] (1 or 3), or 0. */
static int
break_at(const unsigned char *t, size_t i, size_t n)
{
	if (t[i] == '\r' || t[i] == '\n')
		return 1;
	if (i + 2 < n && t[i] == 0xE2 && t[i + 1] == 0x80 && (t[i + 2] == 0xA8 || t[i + 2] == 0xA9))
		return 3;
	return 0;
}

static int
cmp_long(const void *a, const void *b)
{
	long		x = *(const long *) a,
				y = *(const long *) b;

	return x < y ? -1 : x > y;
}

/* The lines of text, their lengths and the typical line T. */
static RawLines
raw_lines(const char *text)
{
	const unsigned char *t = (const unsigned char *) text;
	size_t		n = strlen(text),
				start = 0,
				i = 0;
	RawLines	rl = {0, malloc(sizeof(long) * (n + 1)), 0, malloc(sizeof(int) * (n + 1)), 0};
	long	   *prefix = malloc(sizeof(long) * (n + 1)),
				total = 0,
				below = 0;
	int			np = 0,
				line = 0;

	for (;;)
	{
		int			b = i < n ? break_at(t, i, n) : 0;

		if (i < n && b == 0)
		{
			i++;
			continue;
		}
		/* the line [start, i) */
		rl.len[line] = (long) (i - start) < LINE_CAP ? (long) (i - start) : LINE_CAP;
		if (start < LINE_PREFIX)
		{
			long		part = (long) ((i < LINE_PREFIX ? i : LINE_PREFIX) - start);

			if (part > LINE_CAP)
				part = LINE_CAP;
			if (part > 0)
				prefix[np++] = part;
		}
		if (i == n)
			break;
		line++;
		rl.after[rl.nbreaks++] = line;
		if (t[i] == '\r' && i + 1 < n && t[i + 1] == '\n')
		{
			/* "\r\n": one break of two break characters */
			rl.after[rl.nbreaks++] = line;
			i++;
		}
		i += b;
		start = i;
	}
	rl.n = line + 1;

	/* T: the shortest length t with 2 (sum of lengths <= t) >= sum */
	qsort(prefix, np, sizeof(long), cmp_long);
	for (int k = 0; k < np; k++)
		total += prefix[k];
	for (int k = 0; k < np; k++)
	{
		below += prefix[k];
		if (2 * below >= total)
		{
			rl.typical = prefix[k];
			break;
		}
	}
	free(prefix);
	return rl;
}

/* Version 5: the multiplier of a line, in sixteenths. */
static int
line_m16(const RawLines *rl, int line)
{
	long		m;

	if (rl->typical == 0)
		return 16;
	m = 16 * rl->len[line] / rl->typical;
	return m < 16 ? (int) m : 16;
}

/* Segments the whole document into kept tokens. */
static Token *
tokenize(const char *text, bool numbers, int *ntokens)
{
	UErrorCode	st = U_ZERO_ERROR;
	int32_t		n16,
				nn;
	UChar	   *u16,
			   *norm;
	const UNormalizer2 *nfkc = unorm2_getNFKCCasefoldInstance(&st);
	TokenList	tl = {NULL, 0, 0, true, true, NULL, 0};
	RawLines	rl = raw_lines(text);
	int		   *line_at;
	int			k = 0,
				line = 0;

	u_strFromUTF8WithSub(NULL, 0, &n16, text, -1, 0xFFFD, NULL, &st);
	st = U_ZERO_ERROR;
	u16 = malloc(sizeof(UChar) * (n16 + 1));
	u_strFromUTF8WithSub(u16, n16 + 1, &n16, text, -1, 0xFFFD, NULL, &st);
	nn = unorm2_normalize(nfkc, u16, n16, NULL, 0, &st);
	st = U_ZERO_ERROR;
	norm = malloc(sizeof(UChar) * (nn + 1));
	nn = unorm2_normalize(nfkc, u16, n16, norm, nn + 1, &st);
	if (U_FAILURE(st))
		die("normalization failed");

	/*
	 * The raw line of each unit of the normalized text: the k-th line break
	 * character of the normalized text is the raw text's k-th.
	 */
	line_at = malloc(sizeof(int) * (nn + 1));
	for (int32_t i = 0; i < nn; i++)
	{
		line_at[i] = line;
		if (norm[i] == '\r' || norm[i] == '\n' || norm[i] == 0x2028 || norm[i] == 0x2029)
		{
			if (k == rl.nbreaks)
				die("the normalized text has more line breaks than the text");
			line = rl.after[k++];
		}
	}
	line_at[nn] = line;
	if (k != rl.nbreaks)
		die("the normalized text has fewer line breaks than the text");
	tl.line_at = line_at;

	if (version < 4)
		segment_words(norm, nn, numbers, &tl);
	else
	{
		/* alternate pieces: not CJK, CJK, not CJK ... */
		int32_t		from = 0;

		while (from < nn)
		{
			int32_t		to = from;
			bool		cjk;
			UChar32		c;
			int32_t		k = from;

			U16_NEXT(norm, k, nn, c);
			cjk = is_cjk(c);
			while (to < nn)
			{
				int32_t		j = to;

				U16_NEXT(norm, j, nn, c);
				if (is_cjk(c) != cjk)
					break;
				to = j;
			}
			tl.base = from;
			if (cjk)
				segment_cjk_run(norm + from, to - from, &tl);
			else
				segment_words(norm + from, to - from, numbers, &tl);
			from = to;
		}
	}
	for (int i = 0; i < tl.n; i++)
		tl.toks[i].m16 = line_m16(&rl, tl.toks[i].line);
	free(u16);
	free(norm);
	free(line_at);
	free(rl.len);
	free(rl.after);
	*ntokens = tl.n;
	return tl.toks;
}

static int
cmp_occurrence(const void *a, const void *b)
{
	const Occurrence *x = a,
			   *y = b;

	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	return x->index - y->index;
}

static int
cmp_group_first(const void *a, const void *b)
{
	const Group *x = *(const Group *const *) a,
			   *y = *(const Group *const *) b;

	return x->first - y->first;
}

static int
cmp_group_weight(const void *a, const void *b)
{
	const Group *x = *(const Group *const *) a,
			   *y = *(const Group *const *) b;

	return (x->weight > y->weight) - (x->weight < y->weight);
}

/* Fingerprint of one vector; returns false for NULL. */
static bool
fingerprint(const char *body, const char *kind, int n, const char *weighting,
			bool numbers, uint64_t *result)
{
	int			ntok;
	Token	   *toks = tokenize(body, numbers, &ntok);
	long	   *runlen;
	int			nruns = 0;
	Feature    *feats = malloc(sizeof(Feature) * (16 * (size_t) (strlen(body) + 2)));
	int			nf = 0;
	double		sums[64] = {0};
	bool		any = false;
	bool		runweights4;

	if (n == 0)
		n = strcmp(kind, "words") == 0 ? 1 : strcmp(kind, "shingles") == 0 ? 2 : 3;

	/* runs and their lengths */
	for (int i = 0; i < ntok; i++)
	{
		if (i == 0 || toks[i].newrun)
			nruns++;
		toks[i].run = nruns - 1;
	}
	runlen = calloc(nruns + 1, sizeof(long));
	for (int i = 0; i < ntok; i++)
		runlen[toks[i].run]++;
	for (int r = 0; r < nruns; r++)
		if (runlen[r] > RUN_CAP)
			runlen[r] = RUN_CAP;
	/* version 4: single words weighted runs weigh floor(L sqrt(L) / 2 + 0.5) */
	runweights4 = version >= 4 && !chars_kind && strcmp(weighting, "runs") == 0 && n == 1;
	if (runweights4)
		for (int r = 0; r < nruns; r++)
			runlen[r] = (long) floor(runlen[r] * sqrt((double) runlen[r]) / 2.0 + 0.5);

	if (strcmp(kind, "chars") == 0)
	{
		/* the code point stream, each code point tagged with its token's run */
		char	   *cps[1 << 16];
		int			cplen[1 << 16],
					cprun[1 << 16];
		int			ncp = 0;

		for (int i = 0; i < ntok; i++)
		{
			if (i > 0 && toks[i].gap)
			{
				cps[ncp] = " ";
				cplen[ncp] = 1;
				cprun[ncp++] = toks[i].run;
			}
			for (int k = 0; k < toks[i].len;)
			{
				int			l = 1;
				unsigned char c = toks[i].s[k];

				if (c >= 0xF0)
					l = 4;
				else if (c >= 0xE0)
					l = 3;
				else if (c >= 0xC0)
					l = 2;
				cps[ncp] = toks[i].s + k;
				cplen[ncp] = l;
				cprun[ncp++] = toks[i].run;
				k += l;
			}
		}
		for (int i = 0; ncp > 0 && (i + n <= ncp || (i == 0 && ncp < n)); i++)
		{
			char		buf[256];
			int			len = 0;
			int			m = ncp < n ? ncp : n;

			for (int k = 0; k < m; k++)
			{
				memcpy(buf + len, cps[i + k], cplen[i + k]);
				len += cplen[i + k];
			}
			feats[nf].hash = XXH3_64bits(buf, len);
			feats[nf++].weight_runs = runlen[cprun[i + m - 1]];
		}
	}
	else
	{
		for (int i = 0; ntok > 0 && (i + n <= ntok || (i == 0 && ntok < n)); i++)
		{
			char		buf[65536];
			int			len = 0;
			int			m = ntok < n ? ntok : n;

			for (int k = 0; k < m; k++)
			{
				if (k > 0)
					buf[len++] = ' ';
				memcpy(buf + len, toks[i + k].s, toks[i + k].len);
				len += toks[i + k].len;
			}
			feats[nf].hash = XXH3_64bits(buf, len);
			feats[nf].weight_runs = runlen[toks[i + m - 1].run];
			if (version >= 5 && runweights4)
			{
				/* the line weight: w4 * m16 / 16, rounded, at least 1 */
				long		w = (feats[nf].weight_runs * toks[i + m - 1].m16 + 8) / 16;

				feats[nf].weight_runs = w > 1 ? w : 1;
			}
			nf++;
		}
	}

	/*
	 * Distinct features: group the occurrences by hash (sorted by hash,
	 * then position), total their weight, rank the groups by their first
	 * occurrence (only the first CAP_FEATURES are capped), cap, and sum
	 * +weight / -weight per group in hash order.
	 */
	{
		Occurrence *occ = malloc(sizeof(Occurrence) * (nf + 1));
		Group	   *g = malloc(sizeof(Group) * (nf + 1));
		Group	  **byfirst = malloc(sizeof(Group *) * (nf + 1));
		int			ng = 0;
		bool		logw = strcmp(weighting, "log") == 0;
		bool		robust = version >= 4 && !chars_kind && n == 1 &&
			(strcmp(weighting, "runs") == 0 || strcmp(weighting, "tf") == 0);
		double		total = 0,
					cap,
					least = 0;	/* robust: the cap's floor (16ths) */

		for (int i = 0; i < nf; i++)
		{
			occ[i].hash = feats[i].hash;
			occ[i].index = i;
		}
		qsort(occ, nf, sizeof(Occurrence), cmp_occurrence);
		for (int i = 0; i < nf;)
		{
			int			j = i;

			g[ng].hash = occ[i].hash;
			g[ng].first = occ[i].index;	/* the smallest: sorted by position */
			g[ng].count = 0;
			g[ng].runs = 0;
			for (; j < nf && occ[j].hash == occ[i].hash; j++)
			{
				g[ng].count++;
				g[ng].runs += feats[occ[j].index].weight_runs;
			}
			if (strcmp(weighting, "runs") == 0)
				g[ng].weight = (double) g[ng].runs;
			else if (strcmp(weighting, "tf") == 0)
				g[ng].weight = (double) g[ng].count;
			else if (strcmp(weighting, "binary") == 0)
				g[ng].weight = 1.0;
			else
				g[ng].weight = 1.0 + log((double) g[ng].count);
			total += g[ng].weight;	/* in hash order */
			ng++;
			i = j;
		}
		if (robust)
		{
			long long	t = 0,
						c,
						floor = strcmp(weighting, "runs") == 0 ? RUN_CAP : 1;

			for (int k = 0; k < ng; k++)
				byfirst[k] = &g[k];
			qsort(byfirst, ng, sizeof(Group *), cmp_group_first);
			for (int k = 0; k < ng; k++)
			{
				Group	   *x = byfirst[k];
				double		r = x->weight * sqrt((double) x->count) * 16;
				int			fi = frequent_index(x->hash);
				long		ppm = fi < 0 ? 0 : frequent_words[fi].ppm,
							damp = fi < 0 ? 0 : frequent_words[fi].damp_ppm;

				x->linear = 16 * x->weight;

				if (k >= CAP_FEATURES)
					r = 16 * x->weight;
				else if (ppm > damp)
				{
					double		gw = nf >= 1000 ? 1.0 : (double) nf / 1000;

					r = r * (1.0 - gw * (1.0 - (double) damp / ppm));
				}
				x->weight = (double) (long long) (r + 0.5);
				t += (long long) x->weight;
			}
			if (version >= 7 && nf > 1400)
			{
				/* version 7: 9 / 200 of t scaled by 1400 / nf, rounded up */
				long long	num = 9LL * 1400 * t,
							den = 200LL * nf;

				c = num / den + (num % den != 0);
			}
			else if (nf <= 10000)
				c = (9 * t) / 200 + ((9 * t) % 200 != 0);
			else
				c = (long long) ceil(9.0 * (double) t / 200.0 * sqrt(10000.0 / (double) nf));
			if (strcmp(weighting, "runs") == 0)
				floor = 256;	/* the weight of one occurrence in a full run */
			least = (double) (16 * floor);
			cap = (double) (c > 16 * floor ? c : 16 * floor);
		}
		else if (logw)
			cap = 0.045 * total > 1.0 ? 0.045 * total : 1.0;
		else
		{
			long long	w = (long long) total;	/* exact: integer weights */
			long long	c = (9 * w) / 200 + ((9 * w) % 200 != 0);
			long long	floor = strcmp(weighting, "runs") == 0 ? RUN_CAP : 1;

			cap = (double) (c > floor ? c : floor);
		}
		for (int k = 0; k < ng; k++)
			byfirst[k] = &g[k];
		qsort(byfirst, ng, sizeof(Group *), cmp_group_first);
		for (int k = 0; k < ng && k < CAP_FEATURES; k++)
			if (byfirst[k]->weight > cap)
				byfirst[k]->weight = cap;
		if (robust && version >= 8)
		{
			/* version 8: no word above 16 times the median word by occurrence */
			int			m = ng < CAP_FEATURES ? ng : CAP_FEATURES;
			Group	  **byweight = malloc(sizeof(Group *) * (m + 1));
			long long	all = 0,
						seen = 0;
			double		median = 0,
						typical;

			for (int k = 0; k < m; k++)
			{
				byweight[k] = byfirst[k];
				all += byfirst[k]->count;
			}
			qsort(byweight, m, sizeof(Group *), cmp_group_weight);
			for (int k = 0; k < m; k++)
			{
				seen += byweight[k]->count;
				if (2 * seen >= all)
				{
					median = byweight[k]->weight;
					break;
				}
			}
			typical = 16 * median > least ? 16 * median : least;
			for (int k = 0; k < m; k++)
				if (byfirst[k]->weight > typical)
					byfirst[k]->weight = typical;
			free(byweight);
		}
		/*
		 * version 6: below 700 features each group keeps its linear weight
		 * (uncapped); from 1,400 on its version 5 weight; between, the
		 * linear one moved by (nf - 700) / 700 of the difference, that
		 * share rounded half away from zero (all in 16ths, whole numbers)
		 */
		if (robust && version >= 6)
		{
			long long	share = nf < 700 ? 0 : nf > 1400 ? 700 : nf - 700;

			for (int k = 0; k < ng; k++)
			{
				long long	d = (long long) g[k].weight - (long long) g[k].linear;
				long long	moved = d * share;

				moved = moved >= 0 ? (moved + 350) / 700 : -((-moved + 350) / 700);
				g[k].weight = g[k].linear + (double) moved;
			}
		}
		for (int k = 0; k < ng; k++)
		{
			any = true;
			for (int b = 0; b < 64; b++)
				sums[b] += ((g[k].hash >> b) & 1) ? g[k].weight : -g[k].weight;
		}
		free(occ);
		free(g);
		free(byfirst);
	}
	*result = 0;
	for (int b = 0; b < 64; b++)
		if (sums[b] > 0)
			*result |= (uint64_t) 1 << b;
	for (int i = 0; i < ntok; i++)
		free(toks[i].s);
	free(toks);
	free(runlen);
	free(feats);
	return any;
}

/* Reads one CSV field; returns the terminator (',', '\n' or EOF). */
static int
read_field(FILE *f, char *buf, size_t cap)
{
	size_t		len = 0;
	int			c = getc(f);

	if (c == '"')
	{
		for (;;)
		{
			c = getc(f);
			if (c == EOF)
				die("unterminated quote");
			if (c == '"')
			{
				c = getc(f);
				if (c != '"')
					break;
			}
			if (len + 1 >= cap)
				die("a field is too long");
			buf[len++] = (char) c;
		}
	}
	else
		while (c != ',' && c != '\n' && c != EOF)
		{
			if (len + 1 >= cap)
				die("a field is too long");
			buf[len++] = (char) c;
			c = getc(f);
		}
	buf[len] = '\0';
	return c;
}

static void
write_field(const char *s)
{
	if (strpbrk(s, ",\"\n\r") || *s == '\0' || *s == ' ')
	{
		putchar('"');
		for (; *s; s++)
		{
			if (*s == '"')
				putchar('"');
			putchar(*s);
		}
		putchar('"');
	}
	else
		fputs(s, stdout);
}

/*
 * "reference tokens": the tokens of each document of a tab-separated file
 * (first field an integer id, last field the text, with \n and \\ escaped
 * as COPY writes them; bench/make_quality_sets.py's docs.tsv and long.tsv)
 * under version 4 (version 5 has the same tokens), for bench/weights_sim.py:
 * per document its id and number of tokens n (int32 each), the n XXH3
 * hashes of the tokens (uint64), then n flag bytes, native byte order.
 * A flag byte's bit 0: a run break before the token; bit 1: a line break
 * before it (both set for the first); bits 2 to 6: its line's version 5
 * multiplier m16 (0 to 16); bit 7: set (bits 2 to 6 hold m16; output of
 * this reference before version 5 had bits 2 to 7 clear).
 */
static void
write_tokens(void)
{
	static char line[1 << 23];
	static char text[1 << 23];

	version = 4;
	while (fgets(line, sizeof(line), stdin))
	{
		int32_t		id = atoi(line);
		char	   *last = strrchr(line, '\t');
		size_t		len = 0;
		int			ntok;
		Token	   *toks;

		if (last == NULL)
			die("tokens: a line without a tab");
		if (strchr(line, '\n') == NULL && !feof(stdin))
			die("tokens: a line is too long");
		for (char *p = last + 1; *p && *p != '\n'; p++)
		{
			if (*p == '\\' && p[1] == 'n')
				text[len++] = '\n', p++;
			else if (*p == '\\' && p[1] == '\\')
				text[len++] = '\\', p++;
			else
				text[len++] = *p;
		}
		text[len] = '\0';
		toks = tokenize(text, false, &ntok);
		fwrite(&id, 4, 1, stdout);
		fwrite(&ntok, 4, 1, stdout);
		for (int i = 0; i < ntok; i++)
		{
			uint64_t	h = XXH3_64bits(toks[i].s, toks[i].len);

			fwrite(&h, 8, 1, stdout);
		}
		for (int i = 0; i < ntok; i++)
		{
			unsigned char f = (i == 0 || toks[i].newrun) | ((i == 0 || toks[i].newline) << 1) |
				(toks[i].m16 << 2) | 0x80;

			fwrite(&f, 1, 1, stdout);
			free(toks[i].s);
		}
		free(toks);
	}
}

/*
 * "reference check-lines": checks that NFKC_Casefold keeps the line break
 * characters one for one, which line_at relies on: each of them normalizes
 * to itself, no other code point normalizes to a text containing one, and
 * a sample text keeps them in place.
 */
static int
check_lines(void)
{
	UErrorCode	st = U_ZERO_ERROR;
	const UNormalizer2 *nfkc = unorm2_getNFKCCasefoldInstance(&st);
	int			bad = 0;
	static const UChar sample[] = {'A', '\r', '\n', 0x00AD, '\r', 0x0301, '\n', 0x2028,
	0xFF21, 0x2029, 0x1E9E, '\r', '\r', 0x200B, '\n', 0};
	UChar		out[64];
	int32_t		n;
	int			k = 0;

	for (UChar32 c = 0; c <= 0x10FFFF; c++)
	{
		UChar		in[2];
		int32_t		len = 0;
		bool		brk = c == '\r' || c == '\n' || c == 0x2028 || c == 0x2029;
		int			found = 0;

		if (c >= 0xD800 && c <= 0xDFFF)
			continue;
		U16_APPEND_UNSAFE(in, len, c);
		st = U_ZERO_ERROR;
		n = unorm2_normalize(nfkc, in, len, out, 64, &st);
		if (U_FAILURE(st))
			die("normalization failed");
		for (int32_t i = 0; i < n; i++)
			if (out[i] == '\r' || out[i] == '\n' || out[i] == 0x2028 || out[i] == 0x2029)
				found++;
		if (brk ? (n != 1 || out[0] != c) : found != 0)
		{
			printf("U+%04X normalizes to %d units, %d of them line breaks\n", (unsigned) c, n, found);
			bad++;
		}
	}
	st = U_ZERO_ERROR;
	n = unorm2_normalize(nfkc, sample, -1, out, 64, &st);
	if (U_FAILURE(st))
		die("normalization failed");
	for (int32_t i = 0; sample[i]; i++)
		if (sample[i] == '\r' || sample[i] == '\n' || sample[i] == 0x2028 || sample[i] == 0x2029)
		{
			while (k < n && out[k] != '\r' && out[k] != '\n' && out[k] != 0x2028 && out[k] != 0x2029)
				k++;
			if (k == n || out[k] != sample[i])
			{
				printf("the sample's line break %d is not kept\n", i);
				bad++;
			}
			k++;
		}
	for (; k < n; k++)
		if (out[k] == '\r' || out[k] == '\n' || out[k] == 0x2028 || out[k] == 0x2029)
		{
			printf("the sample gains a line break\n");
			bad++;
		}
	printf("%s\n", bad ? "line breaks NOT kept one for one" : "line breaks kept one for one");
	return bad != 0;
}

int
main(int argc, char **argv)
{
	static char body[1 << 24];
	char		kind[64],
				n[16],
				weighting[64],
				numbers[16],
				line[256];
	bool		header = true;

	if (argc > 1 && strcmp(argv[1], "tokens") == 0)
	{
		write_tokens();
		return 0;
	}
	if (argc > 1 && strcmp(argv[1], "check-lines") == 0)
		return check_lines();
	if (argc > 1)
		version = atoi(argv[1]);
	if (version < 3 || version > 8)
		die("the version must be 3 to 8");
	for (;;)
	{
		int			c = read_field(stdin, body, sizeof(body));
		uint64_t	fp;

		if (c == EOF && body[0] == '\0')
			break;
		read_field(stdin, kind, sizeof(kind));
		read_field(stdin, n, sizeof(n));
		read_field(stdin, weighting, sizeof(weighting));
		c = read_field(stdin, numbers, sizeof(numbers));
		while (c != '\n' && c != EOF)
			c = read_field(stdin, line, sizeof(line));
		if (header)
		{
			printf("body,features,n,weighting,numbers,expected\n");
			header = false;
			continue;
		}
		write_field(body);
		printf(",%s,%s,%s,%s,", kind, n, weighting, numbers);
		chars_kind = strcmp(kind, "chars") == 0;
		if (fingerprint(body, kind, atoi(n), weighting, numbers[0] == 't', &fp))
			printf("%016llx", (unsigned long long) fp);
		putchar('\n');
	}
	return 0;
}
