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
#include "port/pg_bitutils.h"
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
 * The check of table t's bucket page, locked exclusively by the caller, who
 * appends run[0 .. n) (sorted by prefix) to it next: marks suspect[k] for
 * every row of the run within radius of an entry already on the page or of
 * another row of the run with its prefix.  The page must have no overflow
 * chain (the caller checks).
 *
 * An entry is compared with the run's rows of its own prefix, found through
 * a map from each prefix of the bucket's range [lo, hi) to the first such
 * row when the range is small against the run (a big index: a bucket
 * covers a few prefixes), else through a bitmap of the run's prefixes and
 * a binary search (a small index, or a small run).
 */
void
ShDeferScanPage(const ShLayout *layout, int t, Page page, int radius,
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
			if (pg_popcount64(run[k].fp ^ value) <= radius)
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
					if (pg_popcount64(run[x].fp ^ run[y].fp) <= radius)
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
