/*
 * workflows/pairs.c
 *	  Every pair of fingerprints within k bits, each pair exactly once, in
 *	  batch: the batch mode of Manku, Jain & Das Sarma (WWW 2007, section 4)
 *	  over an array of fingerprints held in memory.
 *
 * The pigeonhole argument, generalised.  Cut the 64 bits into m blocks.  Two
 * fingerprints within k bits differ in at most k blocks, so they agree
 * exactly on at least j = m - k blocks.  Make one table for each of the
 * C(m, j) combinations of j blocks, keyed by those blocks: every pair within
 * k shares the key of some table, and within a table only fingerprints with
 * equal keys need comparing.  m = k + 1 (j = 1) is the paper's "k + 1
 * tables keyed by one block each"; larger m gives longer keys (fewer
 * candidates per key) at the price of more tables.  j = 0 is one table with
 * an empty key: every pair compared.  SimhashPairsPlan picks m by a cost
 * estimate (or takes it from simhash.pairs_blocks).
 *
 * Exactly once.  A pair within k shares the key of every table whose blocks
 * all lie in the set A of blocks on which the two agree.  It is reported only
 * by the table made of the j lowest-numbered blocks of A (|A| >= j by the
 * pigeonhole argument), so by exactly one table, whatever order the tables
 * are visited in.
 *
 * One table.  "Sort the permuted table" is done as a counting sort on the
 * first 16 bits of the key (one pass to count, one to scatter), then, when
 * the key is longer, a comparison sort of each of those buckets by the key;
 * runs of equal keys are then compared pair by pair.  The scatter array holds
 * at most `budget` bytes (work_mem): when the table does not fit, it is done
 * in slices of consecutive buckets, each slice re-reading the input array.
 * A single bucket larger than the budget (a heap of identical fingerprints)
 * is still held whole.
 */
#include "batch.h"

#include <math.h>

#include "miscadmin.h"
#include "port.h"
#include "utils/memutils.h"

/* The counting sort's buckets: the first BUCKET_BITS bits of a key. */
#define BUCKET_BITS			16
#define NBUCKETS			(1 << BUCKET_BITS)

/* More tables than this are never planned (the plain comparison is cheaper). */
#define MAX_TABLES			20000.0

/* A fingerprint in a table: the value and its position in the input. */
typedef struct PairEntry
{
	uint64		fp;
	uint32		pos;
} PairEntry;

/* One table's key: its blocks, merged into contiguous bit ranges. */
typedef struct TableKey
{
	uint64		combo;			/* bit b set: block b belongs to the key */
	uint64		mask;			/* the key's bits within a fingerprint */
	int			keybits;
	int			nparts;
	int			shift[SIMHASH_BITS];
	int			width[SIMHASH_BITS];
} TableKey;

/* What one run of SimhashPairsFind shares between its tables. */
typedef struct PairsState
{
	const uint64 *fps;
	uint32		n;
	const PairsPlan *plan;
	PairCallback callback;
	void	   *arg;
	void		(*comparerun) (struct PairsState *st, const PairEntry *run, Size len,
							   uint64 combo);
	PairEntry  *work;			/* the scatter array */
	Size		workcap;		/* its capacity, in entries */
	Size		budget;			/* entries a slice may hold */
	uint32	   *count;			/* per bucket: entries */
	uint32	   *fill;			/* per bucket: next free slot in work */
} PairsState;

static inline uint64
LowMask(int width)
{
	return width >= 64 ? ~UINT64CONST(0) : (UINT64CONST(1) << width) - 1;
}

/* The table's key of fp: its blocks' bits, concatenated. */
static inline uint64
KeyOf(const TableKey *t, uint64 fp)
{
	uint64		key = 0;

	for (int p = 0; p < t->nparts; p++)
	{
		uint64		part = (fp >> t->shift[p]) & LowMask(t->width[p]);

		key = t->width[p] >= 64 ? part : (key << t->width[p]) | part;
	}
	return key;
}

/*
 * True when the table `combo` is the one that reports a pair whose XOR is x:
 * combo is made of the plan->agree lowest-numbered blocks on which the two
 * fingerprints agree.
 */
static inline bool
ReportedHere(const PairsPlan *plan, uint64 x, uint64 combo)
{
	int			found = 0;

	for (int b = 0; b < plan->nblocks && found < plan->agree; b++)
	{
		if ((x & plan->blockmask[b]) != 0)
			continue;
		if (!(combo & (UINT64CONST(1) << b)))
			return false;		/* an earlier block of A is not in this table */
		found++;
	}
	return true;
}

static double
Binomial(int m, int j)
{
	double		r = 1;

	for (int i = 1; i <= j; i++)
		r = r * (m - j + i) / i;
	return r;
}

/*
 * Estimated work of m blocks keyed by j of them, for n fingerprints, in units
 * of one pair comparison.  The constants are rough measurements: a pass over
 * the input per slice plus the count, a scatter, a comparison sort of the
 * buckets when the key is longer than BUCKET_BITS, and the comparisons within
 * runs of equal keys (n^2 / 2^(bits+1) for uniform fingerprints).
 */
static double
PlanCost(int m, int j, double n, double budget)
{
	double		keybits = 64.0 * j / m;
	double		per;

	if (j == 0)
		return n * (n - 1) / 2;
	per = n * (1 + ceil(n / budget)) + 3 * n;
	if (keybits > BUCKET_BITS)
		per += 4 * n * log2(2 + n / NBUCKETS);
	per += n * n / pow(2, keybits + 1);
	return Binomial(m, j) * per;
}

/*
 * Fills *plan for a search within k bits among n fingerprints with `budget`
 * bytes of scatter array: the number of blocks given by `blocks` (when it
 * allows an exact search with at most MAX_TABLES tables), else the cheapest.
 */
void
SimhashPairsPlan(PairsPlan *plan, int k, int64 n, Size budget, int blocks)
{
	double		entries = Max((double) budget / sizeof(PairEntry), 1024.0);
	int			pos = 0;

	Assert(k >= 0 && k <= SIMHASH_BITS);
	memset(plan, 0, sizeof(*plan));
	plan->k = k;
	plan->nblocks = 1;
	plan->agree = 0;
	plan->cost = PlanCost(1, 0, n, entries);
	if (blocks > 0 && blocks <= SIMHASH_BITS && Binomial(blocks, Max(blocks - k, 0)) <= MAX_TABLES)
	{
		plan->nblocks = blocks;
		plan->agree = Max(blocks - k, 0);
		plan->cost = PlanCost(blocks, plan->agree, n, entries);
	}
	else
	{
		for (int j = 1; k + j <= SIMHASH_BITS; j++)
		{
			double		cost;

			if (Binomial(k + j, j) > MAX_TABLES)
				break;
			cost = PlanCost(k + j, j, n, entries);
			if (cost < plan->cost)
			{
				plan->nblocks = k + j;
				plan->agree = j;
				plan->cost = cost;
			}
		}
	}
	plan->ntables = plan->agree == 0 ? 1 : Binomial(plan->nblocks, plan->agree);

	/* Block b: the first 64 % m blocks one bit wider, block 0 at the top. */
	for (int b = 0; b < plan->nblocks; b++)
	{
		int			width = SIMHASH_BITS / plan->nblocks +
			(b < SIMHASH_BITS % plan->nblocks ? 1 : 0);

		plan->blockmask[b] = LowMask(width) << (SIMHASH_BITS - pos - width);
		pos += width;
	}
}

/* The key of the table made of the blocks in `combo`. */
static void
MakeTableKey(const PairsPlan *plan, uint64 combo, TableKey *t)
{
	memset(t, 0, sizeof(*t));
	t->combo = combo;
	for (int b = 0; b < plan->nblocks; b++)
	{
		uint64		bm = plan->blockmask[b];
		int			shift,
					width;

		if (!(combo & (UINT64CONST(1) << b)))
			continue;
		shift = __builtin_ctzll(bm);
		width = SIMHASH_POPCOUNT64(bm);
		t->mask |= bm;
		t->keybits += width;
		/* adjacent to the previous part (just above it): extend that part */
		if (t->nparts > 0 && t->shift[t->nparts - 1] == shift + width)
		{
			t->shift[t->nparts - 1] = shift;
			t->width[t->nparts - 1] += width;
		}
		else
		{
			t->shift[t->nparts] = shift;
			t->width[t->nparts] = width;
			t->nparts++;
		}
	}
}

static int
CompareMasked(const void *a, const void *b, void *arg)
{
	uint64		mask = *(const uint64 *) arg;
	uint64		x = ((const PairEntry *) a)->fp & mask;
	uint64		y = ((const PairEntry *) b)->fp & mask;

	return (x > y) - (x < y);
}

/* The two inner loops, nearly all popcounts: compiled for POPCNT too (compat.h). */
/* Reports the pairs within k of a run of entries with equal keys. */
static pg_attribute_always_inline void
CompareRunBody(PairsState *st, const PairEntry *run, Size len, uint64 combo)
{
	const PairsPlan *plan = st->plan;
	int			k = plan->k;

	for (Size a = 0; a + 1 < len; a++)
	{
		uint64		fa = run[a].fp;

		for (Size b = a + 1; b < len; b++)
		{
			uint64		x = fa ^ run[b].fp;
			int			d = SIMHASH_POPCOUNT64(x);

			if (d <= k && ReportedHere(plan, x, combo))
			{
				uint32		p = run[a].pos,
							q = run[b].pos;

				st->callback(Min(p, q), Max(p, q), d, st->arg);
			}
		}
	}
}

/* The plain comparison of every pair (plan->agree = 0). */
static pg_attribute_always_inline void
SearchAllBody(const uint64 *fps, uint32 n, int k, PairCallback callback, void *arg)
{
	for (uint32 a = 0; a + 1 < n; a++)
	{
		uint64		fa = fps[a];

		CHECK_FOR_INTERRUPTS();
		for (uint32 b = a + 1; b < n; b++)
		{
			int			d = SIMHASH_POPCOUNT64(fa ^ fps[b]);

			if (d <= k)
				callback(a, b, d, arg);
		}
	}
}

static void
CompareRunPlain(PairsState *st, const PairEntry *run, Size len, uint64 combo)
{
	CompareRunBody(st, run, len, combo);
}

static void
SearchAllPlain(const uint64 *fps, uint32 n, int k, PairCallback callback, void *arg)
{
	SearchAllBody(fps, n, k, callback, arg);
}

#ifdef SIMHASH_POPCNT_DISPATCH
SIMHASH_POPCNT_TARGET static void
CompareRunPopcnt(PairsState *st, const PairEntry *run, Size len, uint64 combo)
{
	CompareRunBody(st, run, len, combo);
}

SIMHASH_POPCNT_TARGET static void
SearchAllPopcnt(const uint64 *fps, uint32 n, int k, PairCallback callback, void *arg)
{
	SearchAllBody(fps, n, k, callback, arg);
}
#endif

/* Reports the pairs within k of one bucket: its runs of equal keys. */
static void
CompareBucket(PairsState *st, PairEntry *bucket, Size len, const TableKey *t)
{
	Size		s,
				e;

	if (len < 2)
		return;
	if (t->keybits > BUCKET_BITS)
		qsort_arg(bucket, len, sizeof(PairEntry), CompareMasked, (void *) &t->mask);
	for (s = 0; s < len; s = e)
	{
		uint64		key = bucket[s].fp & t->mask;

		for (e = s + 1; e < len && (bucket[e].fp & t->mask) == key; e++)
			;
		if (e - s > 1)
			st->comparerun(st, bucket + s, e - s, t->combo);
	}
}

/* One table: count, then scatter and compare slice by slice. */
static void
SearchTable(PairsState *st, const TableKey *t)
{
	int			bucketbits = Min(t->keybits, BUCKET_BITS);
	int			nbuckets = 1 << bucketbits;
	int			bshift = t->keybits - bucketbits;
	int			b0 = 0;

	memset(st->count, 0, nbuckets * sizeof(uint32));
	for (uint32 i = 0; i < st->n; i++)
		st->count[KeyOf(t, st->fps[i]) >> bshift]++;

	while (b0 < nbuckets)
	{
		int			b1 = b0;
		Size		size = 0;
		bool		whole;

		/* the slice: consecutive buckets within the budget, at least one */
		while (b1 < nbuckets && (b1 == b0 || size + st->count[b1] <= st->budget))
			size += st->count[b1++];
		whole = (b0 == 0 && b1 == nbuckets);
		if (size > st->workcap)
		{
			pfree(st->work);
			st->work = palloc_extended(size * sizeof(PairEntry), MCXT_ALLOC_HUGE);
			st->workcap = size;
		}
		size = 0;
		for (int b = b0; b < b1; b++)
		{
			st->fill[b] = size;
			size += st->count[b];
		}
		for (uint32 i = 0; i < st->n; i++)
		{
			uint32		b = KeyOf(t, st->fps[i]) >> bshift;

			if (whole || (b >= (uint32) b0 && b < (uint32) b1))
			{
				PairEntry  *e = &st->work[st->fill[b]++];

				e->fp = st->fps[i];
				e->pos = i;
			}
		}
		for (int b = b0; b < b1; b++)
		{
			CHECK_FOR_INTERRUPTS();
			CompareBucket(st, st->work + st->fill[b] - st->count[b], st->count[b], t);
		}
		b0 = b1;
	}
}

/*
 * Calls callback(a, b, distance, arg) once for every pair of positions
 * a < b of fps whose fingerprints are within plan->k bits, in no particular
 * order.  Allocates in the current memory context: about `budget` bytes of
 * scatter array (more when one bucket alone is larger) and 512 kB of bucket
 * counts, freed before returning.  Interruptible.
 */
void
SimhashPairsFind(const uint64 *fps, uint32 n, const PairsPlan *plan,
				 Size budget, PairCallback callback, void *arg)
{
	PairsState	st;
	int			j = plan->agree;
	int			c[SIMHASH_BITS];

	if (n < 2)
		return;
	if (j == 0)
	{
#ifdef SIMHASH_POPCNT_DISPATCH
		if (SimhashCpuHasPopcnt())
		{
			SearchAllPopcnt(fps, n, plan->k, callback, arg);
			return;
		}
#endif
		SearchAllPlain(fps, n, plan->k, callback, arg);
		return;
	}

	st.fps = fps;
	st.n = n;
	st.plan = plan;
	st.callback = callback;
	st.arg = arg;
	st.comparerun = CompareRunPlain;
#ifdef SIMHASH_POPCNT_DISPATCH
	if (SimhashCpuHasPopcnt())
		st.comparerun = CompareRunPopcnt;
#endif
	st.budget = Min(Max(budget / sizeof(PairEntry), (Size) 1024), (Size) n);
	st.workcap = st.budget;
	st.work = palloc_extended(st.workcap * sizeof(PairEntry), MCXT_ALLOC_HUGE);
	st.count = palloc(NBUCKETS * sizeof(uint32));
	st.fill = palloc(NBUCKETS * sizeof(uint32));

	/* the combinations of j of the m blocks, in lexicographic order */
	for (int i = 0; i < j; i++)
		c[i] = i;
	for (;;)
	{
		TableKey	t;
		uint64		combo = 0;
		int			i;

		for (i = 0; i < j; i++)
			combo |= UINT64CONST(1) << c[i];
		MakeTableKey(plan, combo, &t);
		SearchTable(&st, &t);

		for (i = j - 1; i >= 0 && c[i] == plan->nblocks - j + i; i--)
			;
		if (i < 0)
			break;
		c[i]++;
		for (int l = i + 1; l < j; l++)
			c[l] = c[l - 1] + 1;
	}

	pfree(st.work);
	pfree(st.count);
	pfree(st.fill);
}
