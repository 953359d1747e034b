/*
 * tokenizer_kernels.c
 *	  Compares every ASCII kernel of the tokenizer (SSE2, AVX2, AVX-512, see
 *	  src/fingerprint/tokenizer_kernel.h) with the scalar reference,
 *	  SegmentAsciiScalar, on random and adversarial ASCII spans: long runs
 *	  of one letter in either case, mid characters ('.', '\'', ',', ';')
 *	  between letters and digits at the 16, 32 and 64-byte block
 *	  boundaries, '@', '_', digits with the option numbers on and off,
 *	  run-break punctuation, every ASCII byte, isolated non-ASCII
 *	  punctuation (st->breaks),
 *	  spans of length 0 to 200 at every alignment, spans that end at or
 *	  start at an unreadable page, and long spans (batches, the run cap).
 *
 * Each kernel runs each span three ways and must give what the reference
 * gives:
 *	  - tokens to FeatureExtractorAddToken (defined here, recording): the
 *		same token stream, byte for byte, with the same newrun flags, and
 *		the same newrun state at the end;
 *	  - hashes to a RunCounter (the default options): the state of the
 *		counter (its byte lanes, run length, counters and the cap table's
 *		totals in order) equal to that of RunCounterAdd(XXH3-64 of each
 *		reference token, its newrun), from a random run already open;
 *	  - hashes to a TfCounter: the same, with TfCounterAdd.
 * Kernels the CPU lacks are skipped, with a line saying so.
 *
 * Usage: tokenizer_kernels <cases> <seed>
 * Prints one line per kernel; exits 1 on any disagreement, after printing
 * the first few.  Built and run by test/t/022_tokenizer_kernels.pl.
 */
#include "postgres.h"

#include <sys/mman.h>
#include <unistd.h>

#include "fingerprint/tokenizer_kernel.h"
#include "lib/stringinfo.h"
#include "utils/memutils.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

/* the C library's, not libpgport's (not linked) */
#undef printf
#undef fprintf
#undef vfprintf

#include "fuzz_common.h"

/*
 * The few backend functions the kernels and the weights stage call,
 * outside a server: memory from malloc, errors fatal.
 */
MemoryContext CurrentMemoryContext = NULL;
MemoryContext TopMemoryContext = NULL;

/* simhash.simd (tokenizer.c, not linked here): weights.c reads it. */
int			simhash_simd = SIMD_AUTO;

static void *
Checked(void *p)
{
	if (p == NULL)
	{
		fprintf(stderr, "out of memory\n");
		exit(2);
	}
	return p;
}

void *
palloc(Size size)
{
	return Checked(malloc(Max(size, 1)));
}

void *
palloc0(Size size)
{
	return Checked(calloc(1, Max(size, 1)));
}

void *
repalloc(void *pointer, Size size)
{
	return Checked(realloc(pointer, Max(size, 1)));
}

void
pfree(void *pointer)
{
	free(pointer);
}

void *
MemoryContextAlloc(MemoryContext context, Size size)
{
	return palloc(size);
}

void *
MemoryContextAllocZero(MemoryContext context, Size size)
{
	return palloc0(size);
}

void *
MemoryContextAllocExtended(MemoryContext context, Size size, int flags)
{
	return (flags & MCXT_ALLOC_ZERO) ? palloc0(size) : palloc(size);
}

char *
pnstrdup(const char *in, Size len)
{
	char	   *out = palloc(len + 1);

	memcpy(out, in, len);
	out[len] = '\0';
	return out;
}

void
MemoryContextRegisterResetCallback(MemoryContext context, MemoryContextCallback *cb)
{
	/* every table here is used up by CapTableApply */
}

#undef qsort
void
pg_qsort(void *base, size_t nel, size_t elsize, int (*cmp) (const void *, const void *))
{
	qsort(base, nel, elsize, cmp);
}

bool
errstart(int elevel, const char *domain)
{
	return elevel >= ERROR;
}

bool
errstart_cold(int elevel, const char *domain)
{
	return errstart(elevel, domain);
}

int
errcode(int sqlerrcode)
{
	return 0;
}

int
errmsg(const char *fmt,...)
{
	va_list		ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 0;
}

int
errmsg_internal(const char *fmt,...)
{
	return 0;
}

int
errdetail(const char *fmt,...)
{
	return 0;
}

void
errfinish(const char *filename, int lineno, const char *funcname)
{
	fprintf(stderr, "error at %s:%d\n", filename, lineno);
	exit(2);
}

/* The token stream a kernel gives to FeatureExtractorAddToken. */
typedef struct TokenLog
{
	StringInfoData bytes;		/* each token, then a byte of its flags */
	int			ntokens;
} TokenLog;

static TokenLog *recording;

void
FeatureExtractorAddToken(FeatureExtractor *fx, const char *token, int len,
						 bool gap, bool newrun)
{
	TokenLog   *log = recording;

	appendBinaryStringInfo(&log->bytes, (const char *) &len, sizeof(len));
	appendBinaryStringInfo(&log->bytes, token, len);
	appendStringInfoChar(&log->bytes, (char) ((gap ? 1 : 0) | (newrun ? 2 : 0)));
	log->ntokens++;
}

/* StringInfo without the backend: the few functions used above. */
void
initStringInfo(StringInfo str)
{
	str->maxlen = 1024;
	str->data = palloc(str->maxlen);
	resetStringInfo(str);
}

void
resetStringInfo(StringInfo str)
{
	str->data[0] = '\0';
	str->len = 0;
	str->cursor = 0;
}

/* (PostgreSQL 16 made data a const void *) */
void
#if PG_VERSION_NUM >= 160000
appendBinaryStringInfo(StringInfo str, const void *data, int datalen)
#else
appendBinaryStringInfo(StringInfo str, const char *data, int datalen)
#endif
{
	if (str->len + datalen + 1 > str->maxlen)
	{
		str->maxlen = 2 * (str->len + datalen + 1);
		str->data = repalloc(str->data, str->maxlen);
	}
	memcpy(str->data + str->len, data, datalen);
	str->len += datalen;
	str->data[str->len] = '\0';
}

void
appendStringInfoChar(StringInfo str, char ch)
{
	appendBinaryStringInfo(str, &ch, 1);
}

static uint64
rnd64(void)
{
	return ((uint64) rnd() << 32) ^ rnd();
}

/* One span to segment: bytes, and the offsets of isolated punctuation. */
typedef struct Span
{
	char	   *s;
	int32		len;
	int32		breaks[64];
	int32		nbreaks;
} Span;

static const char *const pools[] = {
	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
	"0123456789",
	".',;",						/* mid characters */
	"@_",
	" \t\n\r",
	"!?|:()[]{}<>/\\#$%^&*+=-~`\"",	/* run breaks and other punctuation */
	"aAaA",						/* runs that are equal once lower-cased */
	"\x01\x7f",
	NULL,						/* every ASCII byte (AllAscii) */
};

/* Bytes 1 to 127: each class of the kernels' lookup tables. */
static char all_ascii[128];

static const char *
Pool(int k)
{
	if (pools[k] != NULL)
		return pools[k];
	if (all_ascii[0] == '\0')
		for (int c = 1; c < 128; c++)
			all_ascii[c - 1] = (char) c;
	return all_ascii;
}

/* Appends n random bytes drawn from a random mix of the pools. */
static void
AppendRandom(Span *sp, int32 n)
{
	uint32		weights[lengthof(pools)];
	uint32		total = 0;

	for (int k = 0; k < (int) lengthof(pools); k++)
		total += weights[k] = rnd_below(8) * rnd_below(4);
	if (total == 0)
		total += weights[0] = 1;
	for (int32 i = 0; i < n; i++)
	{
		uint32		r = rnd_below(total);
		int			k = 0;

		while (r >= weights[k])
			r -= weights[k++];
		sp->s[sp->len++] = Pool(k)[rnd_below(strlen(Pool(k)))];
	}
}

/*
 * Appends isolated punctuation: “ or — (3 bytes of UTF-8), noted in breaks
 * (it ends a run) half of the time, as the driver notes what RunBreak says.
 */
static void
AppendIsolated(Span *sp)
{
	static const char *const marks[] = {"\xe2\x80\x9c", "\xe2\x80\x94", "\xe2\x80\xa6"};

	if (sp->nbreaks < (int) lengthof(sp->breaks) && rnd_below(2))
		sp->breaks[sp->nbreaks++] = sp->len;
	memcpy(sp->s + sp->len, marks[rnd_below(3)], 3);
	sp->len += 3;
}

/* Pads with letters or digits up to the given length. */
static void
AppendFill(Span *sp, int32 upto, bool digits)
{
	while (sp->len < upto)
		sp->s[sp->len++] = digits ? '0' + rnd_below(10) : 'a' + rnd_below(3);
}

/* A random span of at most cap bytes, of one of several shapes. */
static void
MakeSpan(Span *sp, int32 cap)
{
	int			shape = rnd_below(6);
	int32		target = rnd_below(8) == 0 ? rnd_below(cap + 1) : rnd_below(Min(cap, 200) + 1);

	sp->len = 0;
	sp->nbreaks = 0;
	switch (shape)
	{
		case 0:
			/* random bytes of a random mix */
			AppendRandom(sp, target);
			break;
		case 1:
			/* words and gaps, with isolated punctuation now and then */
			while (sp->len + 40 < target)
			{
				AppendRandom(sp, 1 + rnd_below(12));
				if (rnd_below(6) == 0)
					AppendIsolated(sp);
			}
			break;
		case 2:
			{
				/* a mid character between letters or digits at a block boundary */
				static const int32 edges[] = {16, 32, 48, 64, 128, 192};
				int32		at = edges[rnd_below(lengthof(edges))] + (int32) rnd_below(5) - 2;
				bool		digits = rnd_below(2);

				AppendFill(sp, Min(at, cap - 8), digits);
				sp->s[sp->len++] = ".',;"[rnd_below(4)];
				AppendFill(sp, sp->len + 1 + rnd_below(6), rnd_below(4) == 0 ? !digits : digits);
				if (rnd_below(2))
					AppendRandom(sp, rnd_below(20));
				break;
			}
		case 3:
			/* a long run of one letter, in mixed case, inside a word */
			{
				char		c = 'a' + rnd_below(26);
				int32		n = rnd_below(Min(cap - 4, 300));

				AppendRandom(sp, rnd_below(3));
				for (int32 i = 0; i < n; i++)
					sp->s[sp->len++] = rnd_below(3) ? c : c - 32;
				AppendRandom(sp, rnd_below(3));
			}
			break;
		case 4:
			/* many short words, some split by breaks (run lengths, batches) */
			while (sp->len + 16 < target)
			{
				AppendFill(sp, sp->len + 1 + rnd_below(9), rnd_below(10) == 0);
				sp->s[sp->len++] = rnd_below(20) == 0 ? '.' : ' ';
				if (rnd_below(30) == 0)
					sp->s[sp->len++] = '\n';
			}
			break;
		default:
			/* the same character everywhere: spaces, '.', '@', ... */
			{
				char		c = "  .@_'1a,;\n"[rnd_below(11)];

				for (int32 i = 0; i < target; i++)
					sp->s[sp->len++] = c;
			}
			break;
	}
	Assert(sp->len <= cap);
}

typedef struct Kernel
{
	const char *name;
	AsciiKernel fn;
	bool		hashes;			/* may count hashes itself (rc, tf) */
	bool		available;
	int64		cases;
	int64		tokens;
	int64		failures;
} Kernel;

static SegmentState st;

/* A fresh state for a span of len bytes. */
static void
ResetState(const Span *sp, bool numbers, bool newrun)
{
	Reserve((void **) &st.token, &st.tokencap, sp->len + 4, 1);
	st.numbers = numbers;
	st.newrun = newrun;
	st.rc = NULL;
	st.tf = NULL;
	Reserve((void **) &st.breaks, &st.breakcap, lengthof(sp->breaks), sizeof(int32));
	memcpy(st.breaks, sp->breaks, sp->nbreaks * sizeof(int32));
	st.nbreaks = sp->nbreaks;
	st.linecut = UINTPTR_MAX;	/* no line cut (see LineSwitch) */
}

/*
 * Version 5's line cuts are not exercised here: the state has none
 * (linecut is UINTPTR_MAX), so the kernels' LineCheck never calls this; it
 * is defined for the link (tokenizer.c, which has the real one, is not
 * linked in).
 */
void
LineSwitch(SegmentState *state, const char *p)
{
	fprintf(stderr, "LineSwitch called without a line cut\n");
	exit(2);
}

/* Runs kernel k on the span at s; the tokens go to log. */
static bool
RunTokens(AsciiKernel fn, const char *s, const Span *sp, bool numbers, bool newrun,
		  TokenLog *log)
{
	resetStringInfo(&log->bytes);
	log->ntokens = 0;
	recording = log;
	ResetState(sp, numbers, newrun);
	fn(&st, s, sp->len);
	return st.newrun;
}

/* Frees what a CapTable holds once CapTableApply has used it up. */
static void
CapTableFree(CapTable *t)
{
	int64		ones[SIMHASH_BITS] = {0};
	int64		total = 0;

	CapTableApply(t, PG_INT64_MAX / 4, ones, &total);
	if (t->entries)
	{
		pfree(t->entriesmem);
		pfree(t->used);
	}
}

static bool
SameLanes(const LaneCounter *a, const LaneCounter *b)
{
	return memcmp(a->lanes, b->lanes, sizeof(a->lanes)) == 0 &&
		a->pending == b->pending && a->total == b->total &&
		memcmp(a->ones, b->ones, sizeof(a->ones)) == 0;
}

static bool
SameCapTable(const CapTable *a, const CapTable *b)
{
	if (a->members != b->members || a->nrun != b->nrun || a->mask != b->mask ||
		memcmp(a->run, b->run, a->nrun * sizeof(uint64)) != 0 ||
		a->entries[a->mask + 1].tally != b->entries[b->mask + 1].tally)
		return false;
	for (int32 k = 0; k < a->members; k++)
	{
		const CapEntry *x = &a->entries[a->used[k]];
		const CapEntry *y = &b->entries[b->used[k]];

		if (x->hash != y->hash || x->tally != y->tally)
			return false;
	}
	return true;
}

static bool
SameRunCounter(const RunCounter *a, const RunCounter *b)
{
	const WideLaneCounter *x = &a->weighted,
			   *y = &b->weighted;

	return memcmp(a->run, b->run, sizeof(a->run)) == 0 && a->runlen == b->runlen &&
		SameLanes(&a->capped, &b->capped) &&
		memcmp(x->lanes, y->lanes, sizeof(x->lanes)) == 0 &&
		x->pending == y->pending && x->total == y->total &&
		memcmp(x->ones, y->ones, sizeof(x->ones)) == 0 &&
		SameCapTable(&a->cap, &b->cap);
}

/* Calls add(hash, newrun) for each token of the reference's log. */
#define FOR_EACH_TOKEN(log, hash, newrun) \
	for (int32 pos_ = 0, len_; \
		 pos_ < (log)->bytes.len && \
		 (memcpy(&len_, (log)->bytes.data + pos_, sizeof(len_)), \
		  hash = XXH3_64bits((log)->bytes.data + pos_ + sizeof(len_), len_), \
		  newrun = ((log)->bytes.data[pos_ + sizeof(len_) + len_] & 2) != 0, true); \
		 pos_ += sizeof(len_) + len_ + 1)

/* Random words of an open run before the span: 0 to 100 (crosses the cap). */
static void
OpenRun(RunCounter *a, RunCounter *b, int32 words, uint64 seed)
{
	for (int32 i = 0; i < words; i++)
	{
		uint64		h = XXH3_64bits_withSeed(&i, sizeof(i), seed);
		bool		nr = i == 0 || (seed % 7 == 0 && i % 13 == 0);

		RunCounterAdd(a, h, nr);
		RunCounterAdd(b, h, nr);
	}
}

static void
Report(Kernel *k, const char *what, const char *s, const Span *sp, bool numbers, bool newrun)
{
	k->failures++;
	if (k->failures > 3)
		return;
	printf("%s disagrees with the scalar kernel (%s), numbers %s, newrun %s, %d bytes:\n\"",
		   k->name, what, numbers ? "on" : "off", newrun ? "on" : "off", sp->len);
	for (int32 i = 0; i < sp->len; i++)
	{
		unsigned char c = s[i];

		if (c >= 32 && c < 127 && c != '"' && c != '\\')
			putchar(c);
		else
			printf("\\x%02x", c);
	}
	printf("\"\n");
}

/* Compares kernel k with the reference on the span at s. */
static void
Check(Kernel *k, const char *s, const Span *sp, bool numbers, bool newrun,
	  TokenLog *ref, bool refnewrun)
{
	static TokenLog got;
	bool		endnewrun;

	if (got.bytes.data == NULL)
		initStringInfo(&got.bytes);
	k->cases++;
	endnewrun = RunTokens(k->fn, s, sp, numbers, newrun, &got);
	k->tokens += got.ntokens;
	if (got.bytes.len != ref->bytes.len ||
		memcmp(got.bytes.data, ref->bytes.data, ref->bytes.len) != 0 ||
		endnewrun != refnewrun)
	{
		Report(k, "tokens", s, sp, numbers, newrun);
		return;
	}
	if (!k->hashes)
		return;

	/* hashes counted with weighting runs, from an open run */
	{
		static RunCounter want,
					have;
		int32		open = (int32) rnd_below(4) == 0 ? 60 + (int32) rnd_below(8) :
			(int32) rnd_below(101);
		uint64		seed = rnd64(),
					hash;
		bool		nr;

		memset(&want, 0, sizeof(want));
		memset(&have, 0, sizeof(have));
		/* the run weights of either version (WeigherInit sets them) */
		want.weights = have.weights = rnd_below(2) ? simhash_run_weight_v4 :
			simhash_run_weight_v3;
		CapTableInit(&want.cap, 1024);
		CapTableInit(&have.cap, 1024);
		OpenRun(&want, &have, open, seed);
		FOR_EACH_TOKEN(ref, hash, nr)
			RunCounterAdd(&want, hash, nr);
		ResetState(sp, numbers, newrun);
		st.rc = &have;
		k->fn(&st, s, sp->len);
		if (!SameRunCounter(&want, &have) || st.newrun != refnewrun)
			Report(k, "hashes weighted runs", s, sp, numbers, newrun);
		RunCounterFinish(&want);
		RunCounterFinish(&have);
		if (!SameRunCounter(&want, &have))
			Report(k, "hashes weighted runs, at the end", s, sp, numbers, newrun);
		CapTableFree(&want.cap);
		CapTableFree(&have.cap);
	}

	/* hashes counted with weighting tf */
	{
		static TfCounter want,
					have;
		int32		before = rnd_below(300);
		uint64		hash;
		bool		nr;

		memset(&want, 0, sizeof(want));
		memset(&have, 0, sizeof(have));
		CapTableInit(&want.cap, 1024);
		CapTableInit(&have.cap, 1024);
		for (int32 i = 0; i < before; i++)
		{
			TfCounterAdd(&want, (uint64) i * 0x9E3779B97F4A7C15);
			TfCounterAdd(&have, (uint64) i * 0x9E3779B97F4A7C15);
		}
		FOR_EACH_TOKEN(ref, hash, nr)
			TfCounterAdd(&want, hash);
		(void) nr;
		ResetState(sp, numbers, newrun);
		st.tf = &have;
		k->fn(&st, s, sp->len);
		if (!SameLanes(&want.lanes, &have.lanes) || !SameCapTable(&want.cap, &have.cap))
			Report(k, "hashes weighted tf", s, sp, numbers, newrun);
		CapTableFree(&want.cap);
		CapTableFree(&have.cap);
	}
}

int
main(int argc, char **argv)
{
	int64		cases = argc > 1 ? atoll(argv[1]) : 20000;
	uint64		seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
	long		page = sysconf(_SC_PAGESIZE);
	int32		cap = 8 * (int32) page;
	char	   *area;
	Kernel		kernels[] = {
#ifdef USE_SSE2_SEGMENTER
		{.name = "sse2", .fn = SegmentAsciiSse2, .hashes = true, .available = true},
#endif
#ifdef USE_AVX2_SEGMENTER
		{.name = "avx2", .fn = SegmentAsciiAvx2, .hashes = true},
		{.name = "avx512", .fn = SegmentAsciiAvx512, .hashes = true},
#endif
	};
	int			nkernels = lengthof(kernels);
	Span		sp;
	TokenLog	ref;
	bool		failed = false;

	rng_state = seed;
	AsciiTablesInit();
#ifdef USE_AVX2_SEGMENTER
	kernels[1].available = AsciiKernelAvx2Supported();
	kernels[2].available = AsciiKernelAvx512Supported();
#endif

	/*
	 * Spans are placed in [page, page + cap + page), between two pages that
	 * may not be read: at the end of the readable area (a read past the
	 * span faults) or at its start (a read before it faults), or at a
	 * random alignment in between.
	 */
	area = mmap(NULL, cap + 3 * page, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED)
	{
		perror("mmap");
		return 2;
	}
	mprotect(area, page, PROT_NONE);
	mprotect(area + page + cap + page, page, PROT_NONE);
	sp.s = palloc(cap);
	initStringInfo(&ref.bytes);

	for (int64 c = 0; c < cases; c++)
	{
		char	   *s;
		int			where = rnd_below(3);

		MakeSpan(&sp, rnd_below(10) == 0 ? cap : 300);
		s = where == 0 ? area + page + cap + page - sp.len :
			where == 1 ? area + page : area + page + rnd_below(64);
		memcpy(s, sp.s, sp.len);
		for (int numbers = 0; numbers < 2; numbers++)
		{
			bool		newrun = rnd_below(2);
			bool		refnewrun = RunTokens(SegmentAsciiScalar, s, &sp, numbers, newrun, &ref);

			for (int k = 0; k < nkernels; k++)
				if (kernels[k].available)
					Check(&kernels[k], s, &sp, numbers, newrun, &ref, refnewrun);
		}
	}

	for (int k = 0; k < nkernels; k++)
	{
		Kernel	   *kn = &kernels[k];

		if (!kn->available)
			printf("%s: skipped, the CPU lacks its instructions\n", kn->name);
		else
			printf("%s: %lld runs (spans with numbers off and on), %lld tokens, %lld disagreements\n", kn->name,
				   (long long) kn->cases, (long long) kn->tokens, (long long) kn->failures);
		failed |= kn->failures > 0;
	}
	printf("%s\n", failed ? "DISAGREEMENT" : "all kernels agree");
	return failed ? 1 : 0;
}
