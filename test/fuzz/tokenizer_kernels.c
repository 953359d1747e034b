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
 *	  start at an unreadable page, and long spans (batches, the run cap);
 *	  half of the runs with version 5's line cuts (see LineSwitch).
 * With -DHAVE_AVX512_EMULATED it also runs the AVX-512 kernel compiled
 * with its instructions emulated in portable C (avx512emu/), on any CPU.
 *
 * Each kernel runs each span three ways and must give what the reference
 * gives:
 *	  - tokens to FeatureExtractorAddToken (defined here, recording): the
 *		same token stream, byte for byte, with the same newrun flags, the
 *		same line switches (where and to which multiplier) between them,
 *		and the same newrun and line state at the end;
 *	  - hashes to a RunCounter (the default options): the state of the
 *		counter (its byte lanes, run length, counters, run weights and the
 *		cap table's totals in order) equal to that of RunCounterAdd(XXH3-64
 *		of each reference token, its newrun), with WeigherSetLineClass at
 *		each of the reference's line switches, from a random run already
 *		open; and the same line switches;
 *	  - hashes to a TfCounter: the same, with TfCounterAdd (no line cuts:
 *		version 5 weighs lines under weighting runs only).
 * Kernels the CPU lacks are skipped, with a line saying so.  First, three
 * pure functions of the weighting are checked: LineClass for every pair of
 * lengths, the line breaks TypicalLineLength lists with SIMD against
 * those it finds byte by byte on cases random texts, and TypicalCap
 * (version 8) against its definition on cases / 10 random documents.
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

#include "backend_stubs.h"

/* simhash.simd (tokenizer.c, not linked here): weights.c reads it. */
int			simhash_simd = SIMD_AUTO;

/*
 * The token stream a kernel gives to FeatureExtractorAddToken, and the
 * line switches (LineSwitch) between the tokens.
 */
typedef struct TokenLog
{
	/*
	 * each token: its length, its bytes, a byte of its flags; each line
	 * switch: SWITCH_MARK, the offset of the token's first byte in the
	 * span, the new multiplier class (three int32)
	 */
	StringInfoData bytes;
	int			ntokens;
} TokenLog;

#define SWITCH_MARK		(-1)

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

static uint64
rnd64(void)
{
	return ((uint64) rnd() << 32) ^ rnd();
}

/*
 * One span to segment: bytes, the offsets of isolated punctuation, and
 * version 5's line cuts (as tokenizer.c's FindLineCuts makes them: at the
 * start of a line, each with a multiplier class other than the one before
 * it; class0 before the first).
 */
typedef struct Span
{
	char	   *s;
	int32		len;
	int32		breaks[64];
	int32		nbreaks;
	int32		cuts[64];
	uint8		cutclass[64];
	int32		ncuts;
	int			class0;
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

/*
 * Line cuts for half of the runs: at some of the line starts (after a
 * '\n' or '\r', which end runs), sometimes at offset 0 (the span starts a
 * line: then *newrun must be true, as a line break before the span ended
 * the run) or at the end (no token follows).  A cut lies only where a line
 * starts because the kernels rely on it: the token after a cut starts a run.
 */
static void
MakeCuts(Span *sp, bool *newrun)
{
	int			class;
	int32		every = 1 + (int32) rnd_below(4);

	sp->ncuts = 0;
	sp->class0 = (int) rnd_below(LINE_CLASSES);
	if (rnd_below(2))
		return;
	class = sp->class0;
	for (int32 i = 0; i <= sp->len && sp->ncuts < (int32) lengthof(sp->cuts); i++)
	{
		bool		linestart = i == 0 ? *newrun || rnd_below(4) == 0 :
			(sp->s[i - 1] == '\n' || sp->s[i - 1] == '\r');

		if (!linestart || rnd_below(every) != 0)
			continue;
		if (i == 0)
			*newrun = true;
		sp->cuts[sp->ncuts] = i;
		class = (class + 1 + (int) rnd_below(LINE_CLASSES - 1)) % LINE_CLASSES;
		sp->cutclass[sp->ncuts++] = (uint8) class;
	}
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

/* the span being segmented (its line cuts are offsets from it) */
static const char *span_start;

/* the Weigher whose RunCounter is st.rc, for WeigherSetLineClass */
static Weigher *switching;

/*
 * A fresh state for the span sp at s; with cuts, its line cuts (in
 * st.cuts, from line class sp->class0 on), else none.
 */
static void
ResetState(const char *s, const Span *sp, bool numbers, bool newrun, bool cuts)
{
	static const char *cutp[lengthof(sp->cuts)];
	static uint8 cutclass[lengthof(sp->cuts)];

	Reserve((void **) &st.token, &st.tokencap, sp->len + 4, 1);
	st.numbers = numbers;
	st.newrun = newrun;
	st.rc = NULL;
	st.tf = NULL;
	Reserve((void **) &st.breaks, &st.breakcap, lengthof(sp->breaks), sizeof(int32));
	memcpy(st.breaks, sp->breaks, sp->nbreaks * sizeof(int32));
	st.nbreaks = sp->nbreaks;
	span_start = s;
	st.ncuts = cuts ? sp->ncuts : 0;
	for (int32 k = 0; k < st.ncuts; k++)
	{
		cutp[k] = s + sp->cuts[k];
		cutclass[k] = sp->cutclass[k];
	}
	st.cuts = cutp;
	st.cutclass = cutclass;
	st.nextcut = 0;
	st.linecut = st.ncuts > 0 ? (uintptr_t) st.cuts[0] : UINTPTR_MAX;
	st.lineclass = sp->class0;
}

/*
 * The cuts at or before p take effect, as tokenizer.c's LineSwitch (not
 * linked in) does: the kernels call it (LineCheck) with a kept token's
 * first byte before passing the token on.  Notes the switch in the log
 * being recorded, and switches the weights of the RunCounter being filled.
 */
void
LineSwitch(SegmentState *state, const char *p)
{
	int			class = state->lineclass;
	int32		mark[3];

	while (state->nextcut < state->ncuts &&
		   (uintptr_t) state->cuts[state->nextcut] <= (uintptr_t) p)
		class = state->cutclass[state->nextcut++];
	state->linecut = state->nextcut < state->ncuts ?
		(uintptr_t) state->cuts[state->nextcut] : UINTPTR_MAX;
	state->lineclass = class;

	mark[0] = SWITCH_MARK;
	mark[1] = (int32) (p - span_start);
	mark[2] = class;
	if (recording)
		appendBinaryStringInfo(&recording->bytes, (const char *) mark, sizeof(mark));
	if (state->rc)
	{
		if (switching == NULL || state->rc != &switching->rc)
		{
			fprintf(stderr, "LineSwitch: the RunCounter is no Weigher's\n");
			exit(2);
		}
		WeigherSetLineClass(switching, class);
	}
}

/*
 * Runs kernel k on the span at s (with its line cuts); the tokens go to
 * log.  Returns the newrun state at the end; *linestate gets the line
 * state (nextcut, lineclass).
 */
static bool
RunTokens(AsciiKernel fn, const char *s, const Span *sp, bool numbers, bool newrun,
		  TokenLog *log, int32 *linestate)
{
	resetStringInfo(&log->bytes);
	log->ntokens = 0;
	recording = log;
	ResetState(s, sp, numbers, newrun, true);
	fn(&st, s, sp->len);
	recording = NULL;
	linestate[0] = st.nextcut;
	linestate[1] = st.lineclass;
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

	return a->weights == b->weights &&
		memcmp(a->run, b->run, sizeof(a->run)) == 0 && a->runlen == b->runlen &&
		SameLanes(&a->capped, &b->capped) &&
		memcmp(x->lanes, y->lanes, sizeof(x->lanes)) == 0 &&
		x->pending == y->pending && x->total == y->total &&
		memcmp(x->ones, y->ones, sizeof(x->ones)) == 0 &&
		SameCapTable(&a->cap, &b->cap);
}

/*
 * Replays the reference's log: each token's XXH3-64 to RunCounterAdd (rc
 * of w) or TfCounterAdd (tf), each line switch to WeigherSetLineClass;
 * only the line switches to switches, when given.
 */
static void
Replay(const TokenLog *log, Weigher *w, TfCounter *tf, StringInfo switches)
{
	for (int32 pos = 0; pos < log->bytes.len;)
	{
		int32		len;

		memcpy(&len, log->bytes.data + pos, sizeof(len));
		if (len == SWITCH_MARK)
		{
			int32		mark[3];

			memcpy(mark, log->bytes.data + pos, sizeof(mark));
			if (w)
				WeigherSetLineClass(w, mark[2]);
			if (switches)
				appendBinaryStringInfo(switches, (const char *) mark, sizeof(mark));
			pos += sizeof(mark);
			continue;
		}
		if (w || tf)
		{
			uint64		hash = XXH3_64bits(log->bytes.data + pos + sizeof(len), len);
			bool		newrun = (log->bytes.data[pos + sizeof(len) + len] & 2) != 0;

			if (w)
				RunCounterAdd(&w->rc, hash, newrun);
			else
				TfCounterAdd(tf, hash);
		}
		pos += sizeof(len) + len + 1;
	}
}

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
	printf("%s disagrees with the scalar kernel (%s), numbers %s, newrun %s, %d bytes",
		   k->name, what, numbers ? "on" : "off", newrun ? "on" : "off", sp->len);
	if (sp->ncuts > 0)
	{
		printf(", line class %d, then cuts", sp->class0);
		for (int32 c = 0; c < sp->ncuts; c++)
			printf(" %d:%d", sp->cuts[c], sp->cutclass[c]);
	}
	printf(":\n\"");
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
	  TokenLog *ref, bool refnewrun, const int32 *refline)
{
	static TokenLog got;
	bool		endnewrun;
	int32		line[2];

	if (got.bytes.data == NULL)
		initStringInfo(&got.bytes);
	k->cases++;
	endnewrun = RunTokens(k->fn, s, sp, numbers, newrun, &got, line);
	k->tokens += got.ntokens;
	if (got.bytes.len != ref->bytes.len ||
		memcmp(got.bytes.data, ref->bytes.data, ref->bytes.len) != 0 ||
		endnewrun != refnewrun || line[0] != refline[0] || line[1] != refline[1])
	{
		Report(k, "tokens", s, sp, numbers, newrun);
		return;
	}
	if (!k->hashes)
		return;

	/*
	 * hashes counted with weighting runs, from an open run; with line cuts
	 * under version 5's weights, from the first line's
	 */
	{
		static Weigher want,
					have;
		static StringInfoData refswitches;
		int32		open = (int32) rnd_below(4) == 0 ? 60 + (int32) rnd_below(8) :
			(int32) rnd_below(101);
		uint64		seed = rnd64();

		if (refswitches.data == NULL)
			initStringInfo(&refswitches);
		resetStringInfo(&refswitches);
		memset(&want, 0, sizeof(want));
		memset(&have, 0, sizeof(have));
		/* the Weigher of version 5's single words weighted runs, rc only */
		want.runs = have.runs = want.fastruns = have.fastruns = true;
		want.lines = have.lines = sp->ncuts > 0;
		/* the run weights of any version (WeigherInit sets them) */
		want.rc.weights = have.rc.weights = sp->ncuts > 0 ?
			simhash_run_weight_v5[sp->class0] :
			rnd_below(2) ? simhash_run_weight_v4 : simhash_run_weight_v3;
		CapTableInit(&want.rc.cap, 1024);
		CapTableInit(&have.rc.cap, 1024);
		OpenRun(&want.rc, &have.rc, open, seed);
		Replay(ref, &want, NULL, &refswitches);
		ResetState(s, sp, numbers, newrun, true);
		resetStringInfo(&got.bytes);
		recording = &got;		/* its line switches */
		switching = &have;
		st.rc = &have.rc;
		k->fn(&st, s, sp->len);
		recording = NULL;
		switching = NULL;
		if (!SameRunCounter(&want.rc, &have.rc) || st.newrun != refnewrun ||
			got.bytes.len != refswitches.len ||
			memcmp(got.bytes.data, refswitches.data, refswitches.len) != 0 ||
			st.nextcut != refline[0] || st.lineclass != refline[1])
			Report(k, "hashes weighted runs", s, sp, numbers, newrun);
		RunCounterFinish(&want.rc);
		RunCounterFinish(&have.rc);
		if (!SameRunCounter(&want.rc, &have.rc))
			Report(k, "hashes weighted runs, at the end", s, sp, numbers, newrun);
		CapTableFree(&want.rc.cap);
		CapTableFree(&have.rc.cap);
	}

	/* hashes counted with weighting tf (no line cuts: runs only) */
	{
		static TfCounter want,
					have;
		int32		before = rnd_below(300);

		memset(&want, 0, sizeof(want));
		memset(&have, 0, sizeof(have));
		CapTableInit(&want.cap, 1024);
		CapTableInit(&have.cap, 1024);
		for (int32 i = 0; i < before; i++)
		{
			TfCounterAdd(&want, (uint64) i * 0x9E3779B97F4A7C15);
			TfCounterAdd(&have, (uint64) i * 0x9E3779B97F4A7C15);
		}
		Replay(ref, NULL, &want, NULL);
		ResetState(s, sp, numbers, newrun, false);
		st.tf = &have;
		k->fn(&st, s, sp->len);
		if (!SameLanes(&want.lanes, &have.lanes) || !SameCapTable(&want.cap, &have.cap))
			Report(k, "hashes weighted tf", s, sp, numbers, newrun);
		CapTableFree(&want.cap);
		CapTableFree(&have.cap);
	}
}

#ifdef HAVE_AVX512_EMULATED
/* avx512emu/tokenizer_avx512_emulated.c */
extern void SegmentAsciiAvx512Emulated(SegmentState *st, const char *s, int32 len);
#endif

/*
 * TypicalLineLength's list of line breaks with SIMD (AVX2 where the CPU has
 * it, to the text's last byte) against the one it makes byte by byte
 * (simhash.simd off), on random texts of "\n", "\r", U+2028, U+2029,
 * their first bytes alone (E2, E2 80) and other bytes, of every length up
 * to 300, at the end of a readable page (a read past the text faults);
 * half of them are given shorter than the bytes written, so that more
 * readable bytes follow the text's end.  Returns the disagreements.
 */
static int64
CheckLineBreaks(char *area, long page, int64 cases)
{
	static const char *const pieces[] = {"\n", "\r", "\xE2\x80\xA8", "\xE2\x80\xA9", "\xE2",
	"\xE2\x80", "\xE2\x80\xAA", "a", "bc", " ", "\x80\xA8", "\xE4\xB8\x80"};
	int64		failures = 0;
	LineBreaks	simd,
				bytes;

	memset(&simd, 0, sizeof(simd));
	memset(&bytes, 0, sizeof(bytes));
	for (int64 c = 0; c < cases; c++)
	{
		int32		full = (int32) (c % 301),
					len = rnd_below(2) ? full : (int32) rnd_below(full + 1),
					t1,
					t2;
		char	   *s = area + page - full;		/* ends at the page's end */
		int32		k = 0;

		while (k < full)
		{
			const char *piece = pieces[rnd_below(lengthof(pieces))];

			for (int32 j = 0; piece[j] && k < full; j++)
				s[k++] = piece[j];
		}
		simhash_simd = SIMD_AUTO;
		t1 = TypicalLineLength(s, len, &simd);
		simhash_simd = SIMD_OFF;
		t2 = TypicalLineLength(s, len, &bytes);
		simhash_simd = SIMD_AUTO;
		if (t1 != t2 || simd.n != bytes.n ||
			memcmp(simd.pos, bytes.pos, sizeof(int32) * simd.n) != 0 ||
			memcmp(simd.len, bytes.len, simd.n) != 0)
		{
			if (failures++ < 5)
				fprintf(stderr, "line breaks of %d bytes: %d with SIMD, %d byte by byte\n",
						len, simd.n, bytes.n);
		}
	}
	return failures;
}

/* (weight, occurrences) of a word, for TypicalCapByDefinition */
typedef struct WordWeight
{
	int64		weight;
	int64		count;
} WordWeight;

static int
CompareWordWeight(const void *a, const void *b)
{
	int64		x = ((const WordWeight *) a)->weight,
				y = ((const WordWeight *) b)->weight;

	return (x > y) - (x < y);
}

/*
 * Version 8's cap (weights.c's TypicalCap) as its definition says, by
 * sorting every word: the cap is left as it is when the heaviest capped
 * weight is at most least, or when the words of at most 1/16 of it
 * (SIMHASH_TYPICAL_CAP) have fewer than half of the occurrences; else it
 * is min(cap, max(16 m, least)), m the smallest weight such that the words
 * weighing m or less have at least half of the occurrences.
 */
static int64
TypicalCapByDefinition(const int64 *weight, const int64 *count, int32 n, int64 total,
					   int64 heaviest, int64 cap, int64 least)
{
	int64		top = Min(heaviest, cap),
				t,
				lighter = 0,
				need = (total + 1) / 2,
				m = -1;
	WordWeight *words;

	if (top <= least)
		return cap;
	t = (top - 1) / SIMHASH_TYPICAL_CAP;
	for (int32 k = 0; k < n; k++)
		lighter += weight[k] <= t ? count[k] : 0;
	if (2 * lighter < total)
		return cap;
	words = malloc(sizeof(WordWeight) * Max(n, 1));
	for (int32 k = 0; k < n; k++)
		words[k] = (WordWeight) {weight[k], count[k]};
	qsort(words, n, sizeof(WordWeight), CompareWordWeight);
	for (int32 k = 0; k < n && m < 0; k++)
	{
		need -= words[k].count;
		if (need <= 0)
			m = words[k].weight;
	}
	free(words);
	return Min(cap, Max(SIMHASH_TYPICAL_CAP * m, least));
}

/*
 * TypicalCap against TypicalCapByDefinition on random documents: words of
 * weights from a few shapes (small, spread over many powers of two, packed
 * in one bucket of TypicalWeight's or on its edges, huge), occurrences
 * mostly 1, caps and floors around the weights.  Returns the number of
 * disagreements (the first few printed) and in *found the cases where the
 * median changed the cap.
 */
static int64
CheckTypicalCap(int64 cases, int64 *found)
{
	int64		failures = 0;
	int64	   *weight = malloc(sizeof(int64) * 5000),
			   *count = malloc(sizeof(int64) * 5000);

	*found = 0;
	for (int64 c = 0; c < cases; c++)
	{
		int32		n = (int32) rnd_below(c % 4 == 0 ? 9 : 5000);
		int			shape = (int) rnd_below(5);
		int64		base = (int64) 1 << rnd_below(40),
					total = 0,
					heaviest = 0,
					cap,
					least,
					got,
					want;

		for (int32 k = 0; k < n; k++)
		{
			int64		w;

			switch (shape)
			{
				case 0:			/* small */
					w = rnd_below(40);
					break;
				case 1:			/* over many powers of two */
					w = (int64) (rnd64() >> (1 + rnd_below(63)));
					break;
				case 2:			/* packed near one weight */
					w = base + rnd_below(1 + rnd_below(1024));
					break;
				case 3:			/* on the edges of powers of two */
					w = ((int64) 1 << rnd_below(48)) - 1 + rnd_below(3);
					break;
				default:		/* huge, and a few light ones */
					w = rnd_below(8) == 0 ? rnd_below(100) :
						(int64) (rnd64() >> 2) + rnd_below(1000);
					break;
			}
			weight[k] = w;
			count[k] = rnd_below(4) != 0 ? 1 : 1 + rnd_below(rnd_below(20) == 0 ? 100000 : 5);
			total += count[k];
			heaviest = Max(heaviest, w);
		}
		if (total == 0)
			continue;
		/* the cap: above, at or below the heaviest weight */
		switch (rnd_below(3))
		{
			case 0:
				cap = heaviest + (int64) rnd_below(1000);
				break;
			case 1:
				cap = heaviest - (heaviest > 0 ? (int64) (rnd64() % (uint64) heaviest) : 0);
				break;
			default:
				cap = heaviest;
				break;
		}
		least = rnd_below(4) == 0 ? (int64) rnd_below(64) : 0;
		got = TypicalCap(weight, count, n, total, heaviest, cap, least);
		want = TypicalCapByDefinition(weight, count, n, total, heaviest, cap, least);
		*found += want != cap;
		if (got != want && failures++ < 5)
			fprintf(stderr, "TypicalCap of %d words (shape %d, cap " INT64_FORMAT
					", least " INT64_FORMAT ") is " INT64_FORMAT ", not " INT64_FORMAT "\n",
					n, shape, cap, least, got, want);
	}
	free(weight);
	free(count);
	return failures;
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
#ifdef HAVE_AVX512_EMULATED
		{.name = "avx512-emulated", .fn = SegmentAsciiAvx512Emulated, .hashes = true,
		.available = true},
#endif
	};
	int			nkernels = lengthof(kernels);
	Span		sp;
	TokenLog	ref;
	bool		failed = false;
	int64		withcuts = 0,
				switches = 0;

	rng_state = seed;
	AsciiTablesInit();
#ifdef USE_AVX2_SEGMENTER
	kernels[1].available = AsciiKernelAvx2Supported();
	kernels[2].available = AsciiKernelAvx512Supported();
#endif
	/* fills simhash_run_weight_v5 (version 5) */
	{
		static Weigher w;

		WeigherInit(&w, WEIGHTING_RUNS, false, true, 5, 1024);
		CapTableFree(&w.rc.cap);
	}
	/*
	 * LineClass multiplies by LineInverse: the same multiplier as dividing,
	 * for every typical line length and every line length up to past the
	 * cap
	 */
	for (int32 typical = 1; typical <= LINE_CAP_BYTES; typical++)
	{
		uint64		inverse = LineInverse(typical);

		for (int32 len = 0; len <= LINE_CAP_BYTES + 2; len++)
		{
			int32		divided = len >= typical ? LINE_CLASSES - 1 :
				Min((LINE_CLASSES - 1) * Min(len, LINE_CAP_BYTES) / typical,
					LINE_CLASSES - 1);

			if (LineClass(len, typical, inverse) != divided)
			{
				fprintf(stderr, "LineClass(%d, %d) is %d, not %d\n", len, typical,
						LineClass(len, typical, inverse), divided);
				return 2;
			}
		}
	}
	printf("LineClass divides exactly for every line length\n");

	/* the line breaks TypicalLineLength lists, with SIMD and without */
	{
		char	   *two = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
							   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		int64		wrong;

		if (two == MAP_FAILED || mprotect(two + page, page, PROT_NONE) != 0)
		{
			fprintf(stderr, "mmap failed\n");
			return 2;
		}
		LinesInit();
		wrong = CheckLineBreaks(two, page, Max(cases, 301));
		if (wrong > 0)
		{
			fprintf(stderr, INT64_FORMAT " disagreements of the line breaks\n", wrong);
			return 2;
		}
		printf("the line breaks agree with and without SIMD in " INT64_FORMAT " texts\n",
			   Max(cases, 301));
		munmap(two, 2 * page);
	}

	/* version 8's cap of the typical word, against its definition */
	{
		int64		lowered;
		int64		wrong = CheckTypicalCap(Max(cases / 10, 1), &lowered);

		if (wrong > 0)
		{
			fprintf(stderr, INT64_FORMAT " disagreements of TypicalCap\n", wrong);
			return 2;
		}
		printf("TypicalCap agrees with its definition in " INT64_FORMAT " documents, "
			   INT64_FORMAT " of them capped by the median\n", Max(cases / 10, 1), lowered);
	}

	/* MakeCuts: a line break ends a run */
	if (!ascii_breaks_run['\n'] || !ascii_breaks_run['\r'])
	{
		fprintf(stderr, "a line break does not end a run\n");
		return 2;
	}

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
			bool		refnewrun;
			int32		refline[2];

			MakeCuts(&sp, &newrun);
			refnewrun = RunTokens(SegmentAsciiScalar, s, &sp, numbers, newrun, &ref, refline);
			withcuts += sp.ncuts > 0;
			switches += refline[0];
			for (int k = 0; k < nkernels; k++)
				if (kernels[k].available)
					Check(&kernels[k], s, &sp, numbers, newrun, &ref, refnewrun, refline);
		}
	}

	printf("%lld runs with line cuts, %lld cuts taken\n",
		   (long long) withcuts, (long long) switches);
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
