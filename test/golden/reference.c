/*
 * reference.c
 *	  An independent, deliberately naive implementation of simhash(text)
 *	  algorithm version 3, used to compute the golden vectors.
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
 * Reads CSV lines "body,features,n,weighting,numbers" (RFC 4180 quoting,
 * with a header) on stdin and writes them back with a sixth column, the
 * fingerprint in hex (empty for NULL).
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
	int			run;			/* index of its run */
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
} Group;

static void
die(const char *msg)
{
	fprintf(stderr, "reference: %s\n", msg);
	exit(1);
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
	UBreakIterator *bi;
	Token	   *toks = NULL;
	int			ntok = 0,
				cap = 0;
	int32_t		start,
				end,
				prev_end = -1;
	bool		newrun = true;

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
	bi = ubrk_open(UBRK_WORD, "", norm, nn, &st);
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
					newrun = true;
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
		if (ntok == cap)
		{
			cap = cap ? 2 * cap : 64;
			toks = realloc(toks, sizeof(Token) * cap);
		}
		toks[ntok].s = out;
		toks[ntok].len = len;
		toks[ntok].gap = start != prev_end;
		toks[ntok].newrun = newrun;
		ntok++;
		newrun = false;
		prev_end = end;
	}
	ubrk_close(bi);
	free(u16);
	free(norm);
	*ntokens = ntok;
	return toks;
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
			feats[nf++].weight_runs = runlen[toks[i + m - 1].run];
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
		double		total = 0,
					cap;

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
		if (logw)
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
			if (len + 1 < cap)
				buf[len++] = (char) c;
		}
	}
	else
		while (c != ',' && c != '\n' && c != EOF)
		{
			if (len + 1 < cap)
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

int
main(void)
{
	static char body[1 << 20];
	char		kind[64],
				n[16],
				weighting[64],
				numbers[16],
				line[256];
	bool		header = true;

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
		if (fingerprint(body, kind, atoi(n), weighting, numbers[0] == 't', &fp))
			printf("%016llx", (unsigned long long) fp);
		putchar('\n');
	}
	return 0;
}
