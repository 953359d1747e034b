/*
 * index/verify.c
 *	  simhash_index_check(regclass): verifies the structure of a simhash
 *	  index, in the spirit of amcheck, and raises ERRCODE_INDEX_CORRUPTED
 *	  naming the index at the first problem.
 *
 * Checked: the metapage (magic, version, options); every table's root and
 * directory pages (types, table numbers, chunk numbers); that the prefixes
 * mapping to one bucket form exactly the range [lo, hi) the bucket records,
 * and that no bucket is reached twice; overflow chains (type, table, the one
 * prefix they record); page forms (pd_lower, single-value pages only in a
 * format 2 index, and their value's prefix in range); that every entry's
 * prefix lies in its bucket's range; that every page is
 * reachable (or never initialised, as a crash during extension can leave);
 * that no table holds a heap TID twice; and that every row visible to an
 * MVCC snapshot is in every block table with its fingerprint.
 *
 * The table and the index are locked in ShareLock mode, which waits for
 * and blocks writers, so that the tables can be compared with each other.
 * A hot standby allows no more than AccessShareLock; there WAL replay may
 * change pages while we read, so the check is exact only while the
 * primary is idle (as in the tests, after waiting for catch-up).
 */
#include "index/shindex.h"

#include "access/relation.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/xlog.h"
#include "catalog/index.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

typedef struct CheckEntry
{
	ItemPointerData tid;
	uint64		fp;
} CheckEntry;

typedef struct CheckArray
{
	CheckEntry *items;
	int64		n;
	int64		max;
} CheckArray;

static void
Push(CheckArray *a, uint64 fp, ItemPointer tid)
{
	if (a->n == a->max)
	{
		a->max = Max(1024, a->max * 2);
		a->items = a->items ? repalloc_huge(a->items, sizeof(CheckEntry) * a->max) :
			MemoryContextAllocHuge(CurrentMemoryContext, sizeof(CheckEntry) * a->max);
	}
	a->items[a->n].tid = *tid;
	a->items[a->n].fp = fp;
	a->n++;
}

static int
CompareEntries(const void *a, const void *b)
{
	const CheckEntry *x = a;
	const CheckEntry *y = b;
	int			c = ItemPointerCompare((ItemPointer) &x->tid, (ItemPointer) &y->tid);

	if (c != 0)
		return c;
	return (x->fp > y->fp) - (x->fp < y->fp);
}

static void
HeapCallback(Relation index, ItemPointer tid, Datum *values, bool *isnull,
			 bool tupleIsAlive, void *state)
{
	uint64		fp;

	if (ShIndexKey(index, values, isnull, &fp))
		Push((CheckArray *) state, fp, tid);
}

/*
 * Checks the entries of one bucket or overflow page (locked) of table t,
 * all of whose prefixes must lie in [lo, hi), and collects them.
 */
static void
CheckEntries(Relation index, const ShLayout *layout, int t, Page page,
			 BlockNumber blkno, uint32 lo, uint32 hi, uint32 version, CheckArray *out)
{
	ShPageOpaque opaque = ShPageGetOpaque(page);

	if (((PageHeader) page)->pd_lower != ShPageUsed(page, opaque->nentries))
		ShCorrupted(index, "Block %u has pd_lower %u for %u entries.",
					blkno, ((PageHeader) page)->pd_lower, opaque->nentries);
	if (ShPageIsSingle(page))
	{
		uint32		p = ShPrefix(layout, t, ShPageSingleValue(page));

		if (version < 2)
			ShCorrupted(index, "Block %u is a single-value page in a format %u index.",
						blkno, version);
		if (p < lo || p >= hi)
			ShCorrupted(index, "Single-value block %u has prefix %u outside %u..%u in block table %d.",
						blkno, p, lo, hi - 1, t);
	}
	for (int i = 0; i < opaque->nentries; i++)
	{
		uint64		fp = ShPageValue(page, i);
		uint32		p = ShPrefix(layout, t, fp);
		ItemPointerData tid;

		ShPageTid(page, i, &tid);
		if (p < lo || p >= hi)
			ShCorrupted(index, "Entry %d of block %u has prefix %u outside the bucket's %u..%u in block table %d.",
						i, blkno, p, lo, hi - 1, t);
		if (!ItemPointerIsValid(&tid))
			ShCorrupted(index, "Entry %d of block %u has an invalid heap TID.", i, blkno);
		Push(out, fp, &tid);
	}
}

/*
 * Reads one bucket (reached from the prefixes [lo, hi) of table t) and its
 * overflow chain, checking them and collecting their entries.  Every
 * overflow page records the one prefix [p, p+1) of its entries: the
 * bucket's, or, for a bucket of several prefixes, the prefix of the value of
 * its single-value page (the chain rule in shindex.h).
 */
static void
CheckBucket(Relation index, const ShLayout *layout, int t, BlockNumber blkno,
			uint32 lo, uint32 hi, uint32 version, bool *seen, BlockNumber nblocks,
			CheckArray *out)
{
	int			type = SH_PAGE_BUCKET;
	uint32		reclo = lo;		/* the range the page must record */
	uint32		rechi = hi;

	while (blkno != InvalidBlockNumber)
	{
		Buffer		buf;
		Page		page;
		ShPageOpaque opaque;

		if (blkno <= SH_METAPAGE_BLKNO || blkno >= nblocks)
			ShCorrupted(index, "Block table %d points to block %u, outside the index.", t, blkno);
		if (seen[blkno])
			ShCorrupted(index, "Block %u is reached twice (block table %d, prefixes %u..%u).",
						blkno, t, lo, hi - 1);
		seen[blkno] = true;
		buf = ReadBuffer(index, blkno);
		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		opaque = ShCheckPage(index, page, blkno, type, t);
		if (opaque->lo != reclo || opaque->hi != rechi)
			ShCorrupted(index, "Block %u records prefixes %u..%u but is reached from %u..%u in block table %d.",
						blkno, opaque->lo, opaque->hi - 1, reclo, rechi - 1, t);
		CheckEntries(index, layout, t, page, blkno, reclo, rechi, version, out);
		if (type == SH_PAGE_BUCKET && opaque->next != InvalidBlockNumber && hi - lo > 1)
		{
			if (!ShPageIsSingle(page))
				ShCorrupted(index, "Bucket %u of several prefixes has an overflow page but is not a single-value page.",
							blkno);
			reclo = ShPrefix(layout, t, ShPageSingleValue(page));
			rechi = reclo + 1;
		}
		blkno = opaque->next;
		UnlockReleaseBuffer(buf);
		type = SH_PAGE_OVERFLOW;
	}
}

/*
 * Resolves every prefix of table t through its root slots and directory
 * pages, checking them: fills map[p] with the bucket block prefix p leads
 * to, and marks the directory pages seen.
 */
static void
ResolvePrefixes(Relation index, const ShLayout *layout, const ShMetaPageData *meta,
				int t, bool *seen, BlockNumber nblocks, BlockNumber *map)
{
	if (layout->nchunks[t] < SH_MAX_CHUNKS &&
		(meta->dirmask[t] >> layout->nchunks[t]) != 0)
		ShCorrupted(index, "Block table %d has directory bits beyond its chunks.", t);

	for (int c = 0; c < layout->nchunks[t]; c++)
	{
		BlockNumber root = meta->root[t][c];
		uint32		end = ShChunkEnd(layout, t, c);

		if (root <= SH_METAPAGE_BLKNO || root >= nblocks)
			ShCorrupted(index, "Block table %d, chunk %d points to block %u.", t, c, root);
		if ((meta->dirmask[t] >> c) & 1)
		{
			Buffer		buf;
			Page		page;
			ShPageOpaque opaque;

			if (seen[root])
				ShCorrupted(index, "Directory page %u is reached twice.", root);
			seen[root] = true;
			buf = ReadBuffer(index, root);
			LockBuffer(buf, BUFFER_LOCK_SHARE);
			page = BufferGetPage(buf);
			opaque = ShCheckPage(index, page, root, SH_PAGE_DIR, t);
			if (opaque->lo != (uint32) c)
				ShCorrupted(index, "Directory page %u records chunk %u, reached as chunk %d.",
							root, opaque->lo, c);
			for (uint32 p = (uint32) c << SH_CHUNK_BITS; p < end; p++)
				map[p] = ShDirEntries(page)[p & (SH_CHUNK_SIZE - 1)];
			UnlockReleaseBuffer(buf);
		}
		else
		{
			for (uint32 p = (uint32) c << SH_CHUNK_BITS; p < end; p++)
				map[p] = root;
		}
	}
}

/*
 * Checks block table t from the metapage down and collects its entries
 * into *out, sorted by (TID, fingerprint).
 */
static void
CheckTable(Relation index, const ShLayout *layout, const ShMetaPageData *meta,
		   int t, bool *seen, BlockNumber nblocks, CheckArray *out)
{
	uint32		nprefix = (uint32) 1 << layout->pbits[t];
	BlockNumber *map = palloc(sizeof(BlockNumber) * nprefix);
	uint32		start = 0;

	ResolvePrefixes(index, layout, meta, t, seen, nblocks, map);

	/* Each run of prefixes mapping to one block is one bucket. */
	for (uint32 p = 1; p <= nprefix; p++)
	{
		if (p < nprefix && map[p] == map[start])
			continue;
		CheckBucket(index, layout, t, map[start], start, p, meta->version, seen, nblocks, out);
		start = p;
		CHECK_FOR_INTERRUPTS();
	}
	pfree(map);
	qsort(out->items, out->n, sizeof(CheckEntry), CompareEntries);
}

/* Every page is reachable, or was never initialised. */
static void
CheckReachable(Relation index, const bool *seen, BlockNumber nblocks)
{
	for (BlockNumber b = 0; b < nblocks; b++)
	{
		Buffer		buf;
		bool		isnew;

		if (seen[b])
			continue;
		buf = ReadBuffer(index, b);
		LockBuffer(buf, BUFFER_LOCK_SHARE);
		isnew = PageIsNew(BufferGetPage(buf));
		UnlockReleaseBuffer(buf);
		if (!isnew)
			ShCorrupted(index, "Block %u is not reachable from the metapage.", b);
	}
}

/* No block table holds a heap TID twice (each table's entries sorted). */
static void
CheckNoTidTwice(Relation index, int ntables, const CheckArray *tables)
{
	for (int t = 0; t < ntables; t++)
		for (int64 i = 1; i < tables[t].n; i++)
			if (ItemPointerEquals(&tables[t].items[i].tid, &tables[t].items[i - 1].tid))
				ShCorrupted(index, "Heap TID (%u,%u) is indexed twice in block table %d.",
							ItemPointerGetBlockNumber(&tables[t].items[i].tid),
							ItemPointerGetOffsetNumber(&tables[t].items[i].tid), t);
}

/*
 * Every row visible to snapshot is in every block table, with its
 * fingerprint.  (The tables need not agree on other entries: a row whose
 * insertion failed or crashed half-way is dead, and may be in some tables
 * only until VACUUM removes it.)
 */
static void
CheckHeapRows(Relation heap, Relation index, Snapshot snapshot, int ntables,
			  const CheckArray *tables)
{
	CheckArray	rows = {0};
	IndexInfo  *indexInfo = BuildIndexInfo(index);
	TableScanDesc scan;

	indexInfo->ii_Concurrent = true;
	scan = table_beginscan_strat(heap, snapshot, 0, NULL, true, true);
	table_index_build_scan(heap, index, indexInfo, true, false,
						   HeapCallback, (void *) &rows, scan);
	for (int64 i = 0; i < rows.n; i++)
	{
		for (int t = 0; t < ntables; t++)
			if (bsearch(&rows.items[i], tables[t].items, tables[t].n,
						sizeof(CheckEntry), CompareEntries) == NULL)
				ShCorrupted(index, "Heap TID (%u,%u) with fingerprint %016llx is missing from block table %d.",
							ItemPointerGetBlockNumber(&rows.items[i].tid),
							ItemPointerGetOffsetNumber(&rows.items[i].tid),
							(unsigned long long) rows.items[i].fp, t);
		CHECK_FOR_INTERRUPTS();
	}
}

PG_FUNCTION_INFO_V1(simhash_index_check);
Datum
simhash_index_check(PG_FUNCTION_ARGS)
{
	Oid			indexoid = PG_GETARG_OID(0);
	Oid			heapoid;
	Relation	heap;
	Relation	index;
	Buffer		buf;
	ShMetaPageData meta;
	ShLayout	layout;
	BlockNumber nblocks;
	bool	   *seen;
	CheckArray *tables;
	Snapshot	snapshot;
	LOCKMODE	lockmode;

	heapoid = IndexGetRelation(indexoid, true);
	if (!OidIsValid(heapoid))
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not an index", get_rel_name(indexoid) ? get_rel_name(indexoid) : "?")));
	lockmode = RecoveryInProgress() ? AccessShareLock : ShareLock;
	heap = table_open(heapoid, lockmode);
	index = index_open(indexoid, lockmode);
	if (index->rd_indam->amgettuple != shgettuple)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("index \"%s\" is not a simhash index", RelationGetRelationName(index))));
	ShPendingFlush(index);	/* this backend's batched inserts */

	snapshot = RegisterSnapshot(GetTransactionSnapshot());

	buf = ReadBuffer(index, SH_METAPAGE_BLKNO);
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	meta = *ShCheckMeta(index, BufferGetPage(buf));
	UnlockReleaseBuffer(buf);
	if (meta.fillfactor < SH_MIN_FILLFACTOR || meta.fillfactor > 100)
		ShCorrupted(index, "The metapage records fillfactor %u.", meta.fillfactor);
	ShLayoutFromOptions(&layout, meta.ntables, meta.fillfactor);

	nblocks = RelationGetNumberOfBlocks(index);
	seen = palloc0(sizeof(bool) * nblocks);
	seen[SH_METAPAGE_BLKNO] = true;
	tables = palloc0(sizeof(CheckArray) * layout.ntables);
	for (int t = 0; t < layout.ntables; t++)
		CheckTable(index, &layout, &meta, t, seen, nblocks, &tables[t]);
	CheckReachable(index, seen, nblocks);
	CheckNoTidTwice(index, layout.ntables, tables);
	CheckHeapRows(heap, index, snapshot, layout.ntables, tables);

	UnregisterSnapshot(snapshot);
	index_close(index, lockmode);
	table_close(heap, lockmode);
	PG_RETURN_VOID();
}
