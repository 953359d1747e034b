/*
 * golden_kernels.c
 *	  The golden vectors (test/golden/vectors*.csv: text, options, expected
 *	  fingerprint) through the whole fingerprinting pipeline outside a
 *	  server (SegmentDocument in tokenizer.c, ICU, features, weights), once
 *	  with each ASCII kernel: the scalar reference, SSE2, AVX2 and AVX-512
 *	  where the CPU has them.  Every fingerprint must equal the expected
 *	  one.  sql/golden.sql does the same in a server, with the kernels this
 *	  CPU has.
 *
 * tokenizer.c must be compiled with -DChooseAsciiKernel=GoldenKernel, so
 * that each document runs the kernel under test (GoldenKernel, below).
 *
 * Built with -DHAVE_AVX512_EMULATED, it is an AVX-512 machine emulated in
 * portable C, on any x86-64 CPU, and runs one kernel, avx512-emulated
 * (avx512emu/tokenizer_avx512_emulated.c); it must be linked with
 * weights.c compiled against the emulation (-Itest/fuzz/avx512emu: its
 * CorrectionsAvx512 runs) and tokenizer_cjk.c compiled with
 * -DSegmentAsciiAvx512=SegmentAsciiAvx512Emulated (the AVX2 hashing of CJK
 * runs, which goes with the AVX-512 kernel), so that every AVX-512 path of
 * a fingerprint runs.
 *
 * Usage: golden_kernels VERSION FILE [VERSION FILE ...]
 * Prints one line per kernel and file; exits 1 on any mismatch, after
 * printing the first few.  Built and run by test/t/022_tokenizer_kernels.pl.
 */
#include "postgres.h"

#include "fingerprint/features.h"
#include "fingerprint/options.h"
#include "fingerprint/tokenizer.h"
#include "fingerprint/tokenizer_kernel.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "utils/memutils.h"

/* the C library's, not libpgport's (not linked) */
#undef printf
#undef fprintf
#undef vfprintf

#include "fuzz_common.h"
#include "backend_stubs.h"

/* The backend's, for tokenizer.c and options.c: never interrupted. */
volatile sig_atomic_t InterruptPending = false;

void
ProcessInterrupts(void)
{
}

int
errhint(const char *fmt,...)
{
	return 0;
}

char *
text_to_cstring(const text *t)
{
	return pnstrdup(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t));
}

/* type/: a bad option's value, for an error message */
char *
SimhashShortText(const char *s)
{
	return pnstrdup(s, strlen(s));
}

#ifdef HAVE_AVX512_EMULATED
/* avx512emu/tokenizer_avx512_emulated.c */
extern void SegmentAsciiAvx512Emulated(SegmentState *st, const char *s, int32 len);
#endif

/* The kernel each document runs (tokenizer.c calls this for it). */
static AsciiKernel kernel_under_test;

AsciiKernel
GoldenKernel(int simd)
{
	return kernel_under_test;
}

static text *
Text(const char *s)
{
	size_t		len = strlen(s);
	text	   *t = palloc(VARHDRSZ + len);

	SET_VARSIZE(t, VARHDRSZ + len);
	memcpy(VARDATA(t), s, len);
	return t;
}

/*
 * The next field of the CSV record at *p (RFC 4180: quoted fields may hold
 * commas, newlines and doubled quotes), into out; *p moves past it and its
 * separator.  Returns the separator: ',', '\n' or '\0' at the end.
 */
static char
Field(const char **p, StringInfo out)
{
	const char *s = *p;
	char		sep;

	resetStringInfo(out);
	if (*s == '"')
	{
		for (s++; *s; s++)
		{
			if (*s == '"' && s[1] == '"')
				appendStringInfoChar(out, *s++);
			else if (*s == '"')
				break;
			else
				appendStringInfoChar(out, *s);
		}
		if (*s == '"')
			s++;
	}
	else
		for (; *s && *s != ',' && *s != '\n' && *s != '\r'; s++)
			appendStringInfoChar(out, *s);
	if (*s == '\r')
		s++;
	sep = *s;
	if (*s)
		s++;
	*p = s;
	return sep;
}

/* The whole file. */
static char *
ReadFile(const char *path)
{
	FILE	   *f = fopen(path, "rb");
	StringInfoData buf;
	char		chunk[65536];
	size_t		n;

	if (f == NULL)
	{
		perror(path);
		exit(2);
	}
	initStringInfo(&buf);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		appendBinaryStringInfo(&buf, chunk, n);
	fclose(f);
	return buf.data;
}

typedef struct Kernel
{
	const char *name;
	AsciiKernel fn;
	bool		available;
	int64		failures;
} Kernel;

int
main(int argc, char **argv)
{
	Kernel		kernels[] = {
#ifdef HAVE_AVX512_EMULATED
		{.name = "avx512-emulated", .fn = SegmentAsciiAvx512Emulated, .available = true},
#else
		{.name = "scalar", .fn = SegmentAsciiScalar, .available = true},
#ifdef USE_SSE2_SEGMENTER
		{.name = "sse2", .fn = SegmentAsciiSse2, .available = true},
#endif
#ifdef USE_AVX2_SEGMENTER
		{.name = "avx2", .fn = SegmentAsciiAvx2},
		{.name = "avx512", .fn = SegmentAsciiAvx512},
#endif
#endif
	};
	bool		failed = false;
	StringInfoData f[6];

	if (argc < 3 || argc % 2 == 0)
	{
		fprintf(stderr, "usage: %s VERSION FILE [VERSION FILE ...]\n", argv[0]);
		return 2;
	}
	AsciiTablesInit();
#ifdef USE_AVX2_SEGMENTER
	for (int k = 0; k < (int) lengthof(kernels); k++)
	{
		if (kernels[k].fn == SegmentAsciiAvx2)
			kernels[k].available = AsciiKernelAvx2Supported();
		if (kernels[k].fn == SegmentAsciiAvx512)
			kernels[k].available = AsciiKernelAvx512Supported();
	}
#endif
	for (int i = 0; i < 6; i++)
		initStringInfo(&f[i]);

	for (int a = 1; a + 1 < argc; a += 2)
	{
		int			version = atoi(argv[a]);
		char	   *csv = ReadFile(argv[a + 1]);

		for (int k = 0; k < (int) lengthof(kernels); k++)
		{
			Kernel	   *kn = &kernels[k];
			const char *p = csv;
			int64		vectors = 0,
						wrong = 0;

			if (!kn->available)
			{
				printf("%s: skipped, the CPU lacks its instructions\n", kn->name);
				continue;
			}
			kernel_under_test = kn->fn;
			/* the header line */
			while (*p && Field(&p, &f[0]) == ',')
				;
			while (*p)
			{
				FingerprintOptions opts;
				FeatureExtractor *fx;
				uint64		got = 0;
				bool		have;
				bool		same;

				for (int i = 0; i < 6; i++)
					if (Field(&p, &f[i]) != (i < 5 ? ',' : '\n') && (i < 5 || *p))
					{
						fprintf(stderr, "%s: a record without 6 fields\n", argv[a + 1]);
						return 2;
					}
				FingerprintOptionsParse(&opts, Text(f[1].data), atoi(f[2].data),
										Text(f[3].data), strcmp(f[4].data, "true") == 0,
										version);
				fx = FeatureExtractorCreate(&opts, false, f[0].len);
				SegmentDocument(f[0].data, f[0].len, opts.numbers, fx);
				have = FeatureExtractorResult(fx, &got);
				same = f[5].len == 0 ? !have :
					have && got == strtoull(f[5].data, NULL, 16);
				vectors++;
				if (!same)
				{
					wrong++;
					if (++kn->failures <= 3)
						printf("%s: version %d, %s %s %s %s, %d bytes \"%.60s\": %016llx, expected %s\n",
							   kn->name, version, f[1].data, f[2].data, f[3].data, f[4].data,
							   f[0].len, f[0].data, have ? (unsigned long long) got : 0ULL,
							   f[5].len ? f[5].data : "NULL");
				}
			}
			printf("%s: version %d, %lld vectors, %lld mismatches\n",
				   kn->name, version, (long long) vectors, (long long) wrong);
			failed |= wrong > 0;
		}
	}
	printf("%s\n", failed ? "MISMATCH" : "every kernel gives the golden vectors");
	return failed ? 1 : 0;
}
