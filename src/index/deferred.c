/*
 * index/deferred.c
 *	  The exclusion checks of rows that pending.c batches: an INSERT or COPY
 *	  of many rows into a table with EXCLUDE USING simhash (simhash_ball(fp,
 *	  k) WITH <@>) writes its index entries bucket by bucket at the end of the
 *	  statement, and checks them there, instead of one WAL record and one
 *	  index search per row.
 *
 * THE DEFERRED CHECK
 *
 * PostgreSQL checks an exclusion constraint right after each row's index
 * entry is written, by a search under a dirty snapshot: of two conflicting
 * rows written concurrently, whichever wrote its entry second finds the
 * other's (scan.c, THE CHECK DONE WHILE INSERTING, does that search while
 * appending).  A batched row keeps the same rule, only later:
 *
 *  - aminsert puts the row in the batch and tells the scan that follows
 *    (the core's check of that very row) to return nothing
 *    (ShStashDefer); the entry is not in the index yet, so nobody else can
 *    be relying on it;
 *  - the batch is written before the statement ends (pending.c: at
 *    ExecutorFinish and after a utility statement such as COPY, and as
 *    before at any scan of the index, at work_mem and at commit), so a
 *    violation still fails the statement that caused it;
 *  - radius k below the index's m block tables means two fingerprints
 *    within k share one of the blocks 0..k exactly, hence that table's
 *    bucket.  While a bucket page is locked to append the batch's entries
 *    of table t, ShDeferScanPage compares the entries already on it with
 *    the ones about to be appended (and those among themselves) and marks
 *    every new row that has a candidate within k ("suspect").  Entries
 *    appended later are found by their own inserters' checks, exactly as
 *    for unbatched rows;
 *  - a row whose bucket of some table 0..k could not be read that way (an
 *    overflow chain, a bucket that had to split, a batch written row by
 *    row) is suspect too;
 *  - after the whole batch is written, every suspect row gets the core's
 *    own check (check_exclusion_constraint: dirty snapshot, waiting for
 *    in-progress transactions, the operator rechecked on both rows, the
 *    usual error and its CONTEXT line), latest row first, so that a
 *    violation inside the batch reads "new row conflicts with an earlier
 *    one" as it would have row by row.  Rows without candidates need no
 *    search: nothing within k was in their buckets.
 *
 * Only the shape the block tables can decide is deferred (ShDeferRadius):
 * a single-column index on simhash_ball(x, constant k) with <@>, k below
 * m, immediate (not DEFERRABLE), on a heap table.  Speculative insertions
 * (INSERT ... ON CONFLICT) are never deferred: their check must answer
 * for that row, at once.  pending.c also lets the first rows of each
 * command go straight into the index, so a single-row INSERT is checked
 * exactly as before.
 */
#include "index/shindex.h"

#include "access/heapam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/index.h"
#include "catalog/pg_am.h"
#include "catalog/pg_type.h"
#include "executor/executor.h"
#include "miscadmin.h"
#include "nodes/execnodes.h"
#include "nodes/primnodes.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

static int	DeferRadius(Relation index, IndexInfo *indexInfo, Relation heap);

/*
 * The constant radius k of a deferrable exclusion index (see above), or -1
 * when its rows must be checked one by one; worked out once per relcache
 * entry (rd_amcache).
 */
int
ShDeferRadius(Relation index, IndexInfo *indexInfo, Relation heap)
{
	ShAmCache  *cache;
	int			radius;

	ShGetLayout(index);
	cache = (ShAmCache *) index->rd_amcache;
	if (cache->defer_known)
		return cache->defer_radius;
	radius = DeferRadius(index, indexInfo, heap);
	cache = (ShAmCache *) index->rd_amcache;	/* (may have been replaced) */
	cache->defer_radius = radius;
	cache->defer_known = true;
	return radius;
}

static int
DeferRadius(Relation index, IndexInfo *indexInfo, Relation heap)
{
	List	   *exprs;
	FuncExpr   *ball;
	Const	   *radius;
	HeapTuple	tp;
	Oid			balltype = TupleDescAttr(RelationGetDescr(index), 0)->atttypid;
	Oid			ballnsp;
	int			k;

	if (indexInfo->ii_ExclusionOps == NULL ||
		IndexRelationGetNumberOfKeyAttributes(index) != 1 ||
		RelationGetNumberOfAttributes(index) != 1 ||
		!ShColumnIsBall(index, 0) ||
		indexInfo->ii_ExclusionStrats[0] != SH_NEAR_STRATEGY ||
		!index->rd_index->indimmediate ||
		heap->rd_rel->relam != HEAP_TABLE_AM_OID)
		return -1;

	/* simhash_ball(anything, constant) of this extension */
	exprs = RelationGetIndexExpressions(index);
	if (list_length(exprs) != 1 || !IsA(linitial(exprs), FuncExpr))
		return -1;
	ball = (FuncExpr *) linitial(exprs);
	if (list_length(ball->args) != 2 || !IsA(lsecond(ball->args), Const) ||
		ball->funcresulttype != balltype)
		return -1;
	radius = (Const *) lsecond(ball->args);
	if (radius->constisnull || radius->consttype != INT4OID)
		return -1;
	tp = SearchSysCache1(TYPEOID, ObjectIdGetDatum(balltype));
	if (!HeapTupleIsValid(tp))
		return -1;
	ballnsp = ((Form_pg_type) GETSTRUCT(tp))->typnamespace;
	ReleaseSysCache(tp);
	if (get_func_namespace(ball->funcid) != ballnsp ||
		strcmp(get_func_name(ball->funcid), "simhash_ball") != 0)
		return -1;

	k = DatumGetInt32(radius->constvalue);
	if (k < 0 || k >= ShGetLayout(index)->ntables)
		return -1;
	return k;
}

/*
 * What aminsert's batching needs of the heap tuple just inserted at tid:
 * the command that inserted it (*cid: one for every row of a statement,
 * however many commands the functions it calls run meanwhile), and whether
 * it is a speculative insertion (INSERT ... ON CONFLICT, whose token sits
 * in t_ctid until the insertion is confirmed): the return value.
 */
bool
ShDeferInsertedTuple(Relation heap, ItemPointer tid, CommandId *cid)
{
	Buffer		buf = ReadBuffer(heap, ItemPointerGetBlockNumber(tid));
	Page		page;
	ItemId		lp;
	bool		speculative = true;

	LockBuffer(buf, BUFFER_LOCK_SHARE);
	page = BufferGetPage(buf);
	lp = PageGetItemId(page, ItemPointerGetOffsetNumber(tid));
	*cid = InvalidCommandId;
	if (ItemIdIsNormal(lp))
	{
		HeapTupleHeader htup = (HeapTupleHeader) PageGetItem(page, lp);

		speculative = HeapTupleHeaderIsSpeculative(htup);
		*cid = HeapTupleHeaderGetRawCommandId(htup);
	}
	UnlockReleaseBuffer(buf);
	return speculative;
}

/* Index of the first of run[0 .. n) (sorted by prefix) with prefix >= p. */
static int
FirstWithPrefix(const uint32 *prefixes, int n, uint32 p)
{
	int			lo = 0,
				hi = n;

	while (lo < hi)
	{
		int			mid = (lo + hi) / 2;

		if (prefixes[mid] < p)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Groups of equal prefix larger than this are all suspect, unpaired. */
#define SH_DEFER_PAIRS_MAX 64

/*
 * Runs of at most this many rows are compared with every entry of the page
 * (a big index, where a batch puts a few rows in each bucket): a few
 * popcounts per entry, without branches, cost less than finding the run's
 * rows of the entry's prefix.
 */
#define SH_DEFER_DIRECT_MAX 8

/*
 * The direct comparison's kernels: bit k of the result is set when some of
 * the nentries packed entries at `entries` is within radius of fps[k].  n
 * is a constant in each copy the switches make, so the loop over the rows
 * unrolls.  Portable C (compiled for POPCNT too, compat.h), and AVX2 on
 * x86-64: four entries at a time, popcounts by nibble lookup.
 */
static pg_attribute_always_inline uint32
DirectHitsBody(const char *entries, int nentries, const uint64 *fps, const int n,
			   int radius)
{
	uint32		hits = 0;

	for (int e = 0; e < nentries; e++)
	{
		uint64		value = ShEntryFingerprint(entries + (Size) e * SH_ENTRY_SIZE);

		for (int k = 0; k < n; k++)
			if (SIMHASH_POPCOUNT64(value ^ fps[k]) <= radius)
				hits |= (uint32) 1 << k;
	}
	return hits;
}

#define SH_DIRECT_SWITCH(body, entries, nentries, fps, n, radius) \
	switch (n) \
	{ \
		case 1: return body(entries, nentries, fps, 1, radius); \
		case 2: return body(entries, nentries, fps, 2, radius); \
		case 3: return body(entries, nentries, fps, 3, radius); \
		case 4: return body(entries, nentries, fps, 4, radius); \
		case 5: return body(entries, nentries, fps, 5, radius); \
		case 6: return body(entries, nentries, fps, 6, radius); \
		case 7: return body(entries, nentries, fps, 7, radius); \
		default: return body(entries, nentries, fps, 8, radius); \
	}

static pg_noinline uint32
DirectHits(const char *entries, int nentries, const uint64 *fps, int n, int radius)
{
	SH_DIRECT_SWITCH(DirectHitsBody, entries, nentries, fps, n, radius);
}

#ifdef SIMHASH_POPCNT_DISPATCH
static pg_noinline SIMHASH_POPCNT_TARGET uint32
DirectHitsPopcnt(const char *entries, int nentries, const uint64 *fps, int n,
				 int radius)
{
	SH_DIRECT_SWITCH(DirectHitsBody, entries, nentries, fps, n, radius);
}
#endif

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define SH_DEFER_AVX2 1
#define SH_AVX2_TARGET __attribute__((target("avx2,popcnt")))

static pg_attribute_always_inline SH_AVX2_TARGET uint32
DirectHitsAvx2Body(const char *entries, int nentries, const uint64 *fps,
				   const int n, int radius)
{
	const __m256i nibble_bits = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
												 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
	const __m256i low4 = _mm256_set1_epi8(0x0f);
	const __m256i above = _mm256_set1_epi64x(radius + 1);
	__m256i		row[SH_DEFER_DIRECT_MAX];
	__m256i		near[SH_DEFER_DIRECT_MAX];	/* lanes within radius of row k */
	uint32		hits = 0;
	int			e = 0;

	for (int k = 0; k < n; k++)
	{
		row[k] = _mm256_set1_epi64x((int64) fps[k]);
		near[k] = _mm256_setzero_si256();
	}
	for (; e + 4 <= nentries; e += 4)
	{
		const char *p = entries + (Size) e * SH_ENTRY_SIZE;
		__m256i		v = _mm256_set_epi64x((int64) ShEntryFingerprint(p + 3 * SH_ENTRY_SIZE),
										  (int64) ShEntryFingerprint(p + 2 * SH_ENTRY_SIZE),
										  (int64) ShEntryFingerprint(p + SH_ENTRY_SIZE),
										  (int64) ShEntryFingerprint(p));

		for (int k = 0; k < n; k++)
		{
			__m256i		x = _mm256_xor_si256(v, row[k]);
			__m256i		bytes = _mm256_add_epi8(_mm256_shuffle_epi8(nibble_bits, _mm256_and_si256(x, low4)),
												_mm256_shuffle_epi8(nibble_bits, _mm256_and_si256(_mm256_srli_epi16(x, 4), low4)));
			__m256i		count = _mm256_sad_epu8(bytes, _mm256_setzero_si256());

			near[k] = _mm256_or_si256(near[k], _mm256_cmpgt_epi64(above, count));
		}
	}
	for (int k = 0; k < n; k++)
		if (!_mm256_testz_si256(near[k], near[k]))
			hits |= (uint32) 1 << k;
	return hits | DirectHitsBody(entries + (Size) e * SH_ENTRY_SIZE, nentries - e,
								 fps, n, radius);
}

static pg_noinline SH_AVX2_TARGET uint32
DirectHitsAvx2(const char *entries, int nentries, const uint64 *fps, int n,
			   int radius)
{
	SH_DIRECT_SWITCH(DirectHitsAvx2Body, entries, nentries, fps, n, radius);
}
#endif

/*
 * ShDeferScanPage for a run of n <= SH_DEFER_DIRECT_MAX rows: every entry
 * of the page against every row, and every pair of rows.  Compares more
 * than the prefix rule needs (rows of other prefixes, entries of other
 * buckets), which can only add suspects: each is within radius of
 * something, and gets the exact check.
 */
static void
DeferScanPageDirect(Page page, int radius, const ShNewEntry *run, int n,
					bool *suspect)
{
	ShPageOpaque opaque = ShPageGetOpaque(page);
	uint64		fps[SH_DEFER_DIRECT_MAX];
	uint32		hits = 0;		/* bit k: run[k] has a candidate */
	const char *entries = ShPageEntry(page, 0);
	int			nentries = opaque->nentries;

	Assert(n >= 1 && n <= SH_DEFER_DIRECT_MAX);
	for (int k = 0; k < n; k++)
		fps[k] = run[k].fp;
	if (ShPageIsSingle(page))
	{
		/* its one value, once */
		uint64		value = ShPageSingleValue(page);

		entries = (const char *) &value;
		nentries = Min(nentries, 1);
		hits = DirectHits(entries, nentries, fps, n, radius);
	}
	else
	{
		static int	kernel = -1;	/* 2: AVX2, 1: POPCNT, 0: portable */

		if (unlikely(kernel < 0))
		{
			kernel = 0;
#ifdef SIMHASH_POPCNT_DISPATCH
			if (SimhashCpuHasPopcnt())
				kernel = 1;
#endif
#ifdef SH_DEFER_AVX2
			if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt"))
				kernel = 2;
#endif
		}
#ifdef SH_DEFER_AVX2
		if (kernel == 2)
			hits = DirectHitsAvx2(entries, nentries, fps, n, radius);
		else
#endif
#ifdef SIMHASH_POPCNT_DISPATCH
		if (kernel == 1)
			hits = DirectHitsPopcnt(entries, nentries, fps, n, radius);
		else
#endif
			hits = DirectHits(entries, nentries, fps, n, radius);
	}
	for (int x = 0; x < n; x++)
		for (int y = x + 1; y < n; y++)
			if (SimhashDistance(fps[x], fps[y]) <= radius)
				hits |= ((uint32) 1 << x) | ((uint32) 1 << y);
	for (int k = 0; k < n; k++)
		if (hits & ((uint32) 1 << k))
			suspect[k] = true;
}

/*
 * ShDeferScanPage for longer runs: an entry is compared with the run's rows
 * of its own prefix, found through a map from each prefix of the bucket's
 * range [lo, hi) to the first such row when the range is small against the
 * run, else through a bitmap of the run's prefixes and a binary search (a
 * small index).
 */
static pg_attribute_always_inline void
DeferScanPageByPrefix(const ShLayout *layout, int t, Page page, int radius,
					  const ShNewEntry *run, int n, bool *suspect)
{
	static uint64 present[(1 << 16) / 64];	/* prefixes of the run */
	ShPageOpaque opaque = ShPageGetOpaque(page);
	uint32		lo = opaque->lo;
	uint32		span = opaque->hi - opaque->lo;
	bool		mapped = span <= 4 * (uint32) n + 64;
	uint32	   *prefixes = palloc(sizeof(uint32) * n);
	int		   *first = NULL;	/* mapped: run rows of prefix lo + i are
								 * first[i] .. first[i + 1] - 1 */
	bool		single = ShPageIsSingle(page);
	int			nentries = opaque->nentries;

	for (int k = 0; k < n; k++)
		prefixes[k] = ShPrefix(layout, t, run[k].fp);
	if (mapped)
	{
		int			k = 0;

		first = palloc(sizeof(int) * (span + 1));
		for (uint32 i = 0; i <= span; i++)
		{
			while (k < n && prefixes[k] < lo + i)
				k++;
			first[i] = k;
		}
	}
	else
	{
		for (int k = 0; k < n; k++)
			present[prefixes[k] >> 6] |= UINT64CONST(1) << (prefixes[k] & 63);
	}

	/* a single-value page: its one value, once */
	for (int e = 0; e < (single ? Min(nentries, 1) : nentries); e++)
	{
		uint64		value = single ? ShPageSingleValue(page) :
			ShEntryFingerprint(ShPageEntry(page, e));
		uint32		p = ShPrefix(layout, t, value);
		int			from,
					to;

		if (unlikely(p - lo >= span))
			continue;			/* not of this bucket: never appended here */
		if (mapped)
		{
			from = first[p - lo];
			to = first[p - lo + 1];
		}
		else
		{
			if (likely(!(present[p >> 6] & (UINT64CONST(1) << (p & 63)))))
				continue;
			from = to = FirstWithPrefix(prefixes, n, p);
			while (to < n && prefixes[to] == p)
				to++;
		}
		for (int k = from; k < to; k++)
			if (SIMHASH_POPCOUNT64(run[k].fp ^ value) <= radius)
				suspect[k] = true;
	}

	/* pairs inside the run: rows of one prefix */
	for (int a = 0; a < n;)
	{
		int			b = a + 1;

		while (b < n && prefixes[b] == prefixes[a])
			b++;
		if (b - a > SH_DEFER_PAIRS_MAX)
		{
			for (int k = a; k < b; k++)
				suspect[k] = true;
		}
		else
		{
			for (int x = a; x < b; x++)
				for (int y = x + 1; y < b; y++)
					if (SIMHASH_POPCOUNT64(run[x].fp ^ run[y].fp) <= radius)
						suspect[x] = suspect[y] = true;
		}
		a = b;
	}

	if (mapped)
		pfree(first);
	else
		for (int k = 0; k < n; k++)
			present[prefixes[k] >> 6] = 0;
	pfree(prefixes);
}

#ifdef SIMHASH_POPCNT_DISPATCH
static pg_noinline SIMHASH_POPCNT_TARGET void
DeferScanPageByPrefixPopcnt(const ShLayout *layout, int t, Page page, int radius,
							const ShNewEntry *run, int n, bool *suspect)
{
	DeferScanPageByPrefix(layout, t, page, radius, run, n, suspect);
}
#endif

/*
 * The check of table t's bucket page, locked exclusively by the caller, who
 * appends run[0 .. n) (sorted by prefix) to it next: marks suspect[k] for
 * every row of the run within radius of an entry already on the page or of
 * another row of the run with its prefix (and possibly of other rows: a
 * suspect is only checked exactly).  The page must have no overflow chain
 * (the caller checks).
 */
void
ShDeferScanPage(const ShLayout *layout, int t, Page page, int radius,
				const ShNewEntry *run, int n, bool *suspect)
{
	if (n <= SH_DEFER_DIRECT_MAX)
		DeferScanPageDirect(page, radius, run, n, suspect);
#ifdef SIMHASH_POPCNT_DISPATCH
	else if (SimhashCpuHasPopcnt())
		DeferScanPageByPrefixPopcnt(layout, t, page, radius, run, n, suspect);
#endif
	else
		DeferScanPageByPrefix(layout, t, page, radius, run, n, suspect);
}

/*
 * The core's exclusion check of each row of rows[0 .. n), whose entries are
 * all in the index: raises the usual exclusion_violation for the latest
 * row that has a conflict, after waiting for in-progress transactions as
 * the core does.
 */
void
ShDeferCheckRows(Relation index, int radius, const ShNewEntry *rows, int n)
{
	Relation	heap;
	IndexInfo  *indexInfo;
	EState	   *estate;

	if (n == 0)
		return;
	heap = table_open(index->rd_index->indrelid, RowExclusiveLock);
	indexInfo = BuildIndexInfo(index);
	estate = CreateExecutorState();
	for (int k = n - 1; k >= 0; k--)
	{
		SimhashBall *ball = palloc0(sizeof(SimhashBall));
		Datum		values[INDEX_MAX_KEYS];
		bool		isnull[INDEX_MAX_KEYS];
		ItemPointerData tid = rows[k].tid;

		ball->center = rows[k].fp;
		ball->radius = radius;
		values[0] = PointerGetDatum(ball);
		isnull[0] = false;
		check_exclusion_constraint(heap, index, indexInfo, &tid, values, isnull,
								   estate, false);
		pfree(ball);
		ResetPerTupleExprContext(estate);
		CHECK_FOR_INTERRUPTS();
	}
	FreeExecutorState(estate);
	table_close(heap, NoLock);
}
