/*
 * index/build.c
 *	  Bulk build of a simhash index, and the init fork of unlogged indexes.
 *
 * The build collects (fingerprint, TID) pairs from the table in memory, up
 * to maintenance_work_mem.  From a histogram of each table's prefixes it
 * plans the buckets (consecutive prefixes packed to `fillfactor` of a page,
 * whole chunks sharing a bucket while they fit, a directory page for any
 * chunk that needs several buckets), sorts the entries by prefix with a
 * counting sort, and writes every page once, in block order.  Rows beyond
 * maintenance_work_mem are inserted one by one after the bulk load.
 */
#include "index/shindex.h"

#include "access/tableam.h"
#include "access/xloginsert.h"
#include "catalog/index.h"
#include "commands/progress.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/smgr.h"
#include "utils/memutils.h"
#include "utils/rel.h"

/* A planned page run: a directory page, or a bucket and its overflow pages. */
typedef struct PlannedPages
{
	bool		isdir;
	int			table;
	uint32		lo;				/* bucket: prefix range; directory: chunk */
	uint32		hi;
	BlockNumber blkno;			/* first block */
	uint32		npages;
	bool		single;			/* bucket: every page in the single-value form */
} PlannedPages;

/*
 * What the entries of a prefix, a chunk or a run of them have in common, for
 * the single-value form (shindex.h): none, one value (only one prefix has
 * entries, and they all have one value), or several values.
 */
typedef enum RunValues
{
	RUN_EMPTY,
	RUN_ONE,
	RUN_MIXED
} RunValues;

/* The values of a run, and its prefix if RUN_ONE, with a prefix added. */
static inline RunValues
AddRun(RunValues run, uint32 *runprefix, RunValues add, uint32 prefix)
{
	if (add == RUN_EMPTY)
		return run;
	if (run == RUN_EMPTY && add == RUN_ONE)
	{
		*runprefix = prefix;
		return RUN_ONE;
	}
	return RUN_MIXED;
}

typedef struct ShBuildState
{
	Relation	index;
	ShLayout	layout;
	uint64	   *fps;
	ItemPointerData *tids;
	int64		n;
	int64		cap;			/* allocated */
	int64		maxn;			/* allowed by maintenance_work_mem */
	bool		loaded;			/* bulk part written; insert the rest */
	int64		inserted;		/* rows inserted after the bulk part */
	MemoryContext tmpcxt;
	/* the plan */
	PlannedPages *plan;
	int			nplan;
	int			maxplan;
	BlockNumber nextblk;
	BlockNumber root[SH_MAX_TABLES][SH_MAX_CHUNKS];
	uint64		dirmask[SH_MAX_TABLES];
	bool		initfork;		/* write the init fork through smgr */
} ShBuildState;

static PlannedPages *
AddPlan(ShBuildState *bs, bool isdir, int table, uint32 lo, uint32 hi, uint32 npages)
{
	PlannedPages *pp;

	if (bs->nplan == bs->maxplan)
	{
		bs->maxplan *= 2;
		bs->plan = repalloc_huge(bs->plan, sizeof(PlannedPages) * bs->maxplan);
	}
	pp = &bs->plan[bs->nplan++];
	pp->isdir = isdir;
	pp->table = table;
	pp->lo = lo;
	pp->hi = hi;
	pp->blkno = bs->nextblk;
	pp->npages = npages;
	pp->single = false;
	bs->nextblk += npages;
	return pp;
}

/*
 * Plans a bucket of the prefixes [lo, hi) holding sum entries whose values
 * are `values`: one plain page, or, when they are copies of one value and
 * more than a plain page takes at build, single-value pages
 * (single-prefix buckets) or at most two (a bucket of several prefixes,
 * whose one overflow page the chain rule of shindex.h allows).
 */
static PlannedPages *
PlanBucket(ShBuildState *bs, int t, uint32 lo, uint32 hi, int64 sum, RunValues values)
{
	const ShLayout *layout = &bs->layout;
	int64		target = layout->target;
	int64		starget = Max(1, (int64) SH_SINGLE_CAPACITY * layout->fillfactor / 100);
	PlannedPages *pp;

	if (values == RUN_ONE && sum > target)
	{
		Assert(hi - lo == 1 || sum <= 2 * starget);
		pp = AddPlan(bs, false, t, lo, hi, (uint32) ((sum + starget - 1) / starget));
		pp->single = true;
		return pp;
	}
	return AddPlan(bs, false, t, lo, hi, (uint32) Max(1, (sum + target - 1) / target));
}

/*
 * Plans the pages of one table from its prefix histogram (and, per prefix,
 * whether its entries have one value: mixed[p] false), assigning block
 * numbers in the order the pages will be written.
 */
static void
PlanTable(ShBuildState *bs, int t, const uint32 *hist, const bool *mixed)
{
	const ShLayout *layout = &bs->layout;
	int			nchunks = layout->nchunks[t];
	int64		target = layout->target;
	int64		starget = Max(1, (int64) SH_SINGLE_CAPACITY * layout->fillfactor / 100);
	int64	   *chunkcount = palloc0(sizeof(int64) * nchunks);
	RunValues  *chunkvalues = palloc0(sizeof(RunValues) * nchunks);
	uint32	   *chunkprefix = palloc0(sizeof(uint32) * nchunks);
	int			c = 0;

	for (int k = 0; k < nchunks; k++)
		for (uint32 p = (uint32) k << SH_CHUNK_BITS; p < ShChunkEnd(layout, t, k); p++)
		{
			chunkcount[k] += hist[p];
			chunkvalues[k] = AddRun(chunkvalues[k], &chunkprefix[k],
									hist[p] == 0 ? RUN_EMPTY : mixed[p] ? RUN_MIXED : RUN_ONE, p);
		}

#define RUN_FITS(values, sum) ((sum) <= ((values) == RUN_ONE ? 2 * starget : target))
	while (c < nchunks)
	{
		if (!RUN_FITS(chunkvalues[c], chunkcount[c]))
		{
			/* A directory page, then buckets packed within the chunk. */
			uint32		p = (uint32) c << SH_CHUNK_BITS;
			uint32		end = ShChunkEnd(layout, t, c);

			bs->root[t][c] = AddPlan(bs, true, t, c, 0, 1)->blkno;
			bs->dirmask[t] |= UINT64CONST(1) << c;
			while (p < end)
			{
				uint32		start = p;
				int64		sum = hist[p++];

				if (sum > target)
				{
					PlanBucket(bs, t, start, p, sum, mixed[start] ? RUN_MIXED : RUN_ONE);
					continue;
				}
				while (p < end && sum + hist[p] <= target)
					sum += hist[p++];
				AddPlan(bs, false, t, start, p, 1);
			}
			c++;
		}
		else
		{
			/*
			 * Whole chunks sharing one bucket while they fit: a plain page's
			 * worth, or up to two single-value pages of copies of one value.
			 */
			int			first = c;
			int64		sum = chunkcount[c];
			RunValues	values = chunkvalues[c];
			uint32		prefix = chunkprefix[c];
			BlockNumber blkno;

			for (c++; c < nchunks; c++)
			{
				uint32		nprefix = prefix;
				RunValues	nvalues = AddRun(values, &nprefix, chunkvalues[c], chunkprefix[c]);

				if (!RUN_FITS(nvalues, sum + chunkcount[c]))
					break;
				sum += chunkcount[c];
				values = nvalues;
				prefix = nprefix;
			}
			blkno = PlanBucket(bs, t, (uint32) first << SH_CHUNK_BITS,
							   ShChunkEnd(layout, t, c - 1), sum, values)->blkno;
			for (int k = first; k < c; k++)
				bs->root[t][k] = blkno;
		}
	}
#undef RUN_FITS
	pfree(chunkcount);
	pfree(chunkvalues);
	pfree(chunkprefix);
}

/*
 * Writes one finished page image as block blkno: through the buffer manager
 * with a full-image generic WAL record, or for an init fork through smgr
 * with log_newpage.
 */
static void
WritePage(ShBuildState *bs, Page image, BlockNumber blkno)
{
	if (bs->initfork)
	{
		SMgrRelation smgr = RelationGetSmgr(bs->index);

		PageSetChecksumInplace(image, blkno);
		smgrextend(smgr, INIT_FORKNUM, blkno, (char *) image, true);
		log_newpage(SIMHASH_SMGR_LOCATOR(smgr), INIT_FORKNUM, blkno, image, true);
	}
	else
	{
		Buffer		buf = ShNewBuffer(bs->index);
		GenericXLogState *state;
		Page		page;

		if (BufferGetBlockNumber(buf) != blkno)
			elog(ERROR, "simhash index build expected block %u, got %u",
				 blkno, BufferGetBlockNumber(buf));
		state = GenericXLogStart(bs->index);
		page = GenericXLogRegisterBuffer(state, buf, GENERIC_XLOG_FULL_IMAGE);
		memcpy(page, image, BLCKSZ);
		GenericXLogFinish(state);
		UnlockReleaseBuffer(buf);
	}
}

/* Writes the metapage: magic, version, frozen options and the planned roots. */
static void
WriteMetapage(ShBuildState *bs, Page image)
{
	ShMetaPageData *meta;

	memset(image, 0, BLCKSZ);
	ShInitPage(image, SH_PAGE_META, 0, 0, 0);
	meta = ShPageGetMeta(image);
	meta->magic = SH_MAGIC;
	meta->version = SH_VERSION;
	meta->ntables = bs->layout.ntables;
	meta->fillfactor = bs->layout.fillfactor;
	memcpy(meta->root, bs->root, sizeof(meta->root));
	memcpy(meta->dirmask, bs->dirmask, sizeof(meta->dirmask));
	((PageHeader) image)->pd_lower = (char *) meta + sizeof(ShMetaPageData) - (char *) image;
	WritePage(bs, image, SH_METAPAGE_BLKNO);
}

/*
 * Counting sort of the collected entries by the prefix of table t, whose
 * histogram is hist: fills order[0 .. bs->n) with entry numbers.
 */
static void
SortByPrefix(ShBuildState *bs, int t, const uint32 *hist, uint32 *order)
{
	const ShLayout *layout = &bs->layout;
	uint32		nprefix = (uint32) 1 << layout->pbits[t];
	int64	   *start = palloc(sizeof(int64) * (nprefix + 1));
	int64		pos = 0;

	for (uint32 p = 0; p < nprefix; p++)
	{
		start[p] = pos;
		pos += hist[p];
	}
	start[nprefix] = pos;
	for (int64 i = 0; i < bs->n; i++)
		order[start[ShPrefix(layout, t, bs->fps[i])]++] = (uint32) i;
	pfree(start);
}

/*
 * Writes the directory page planned as bs->plan[pi]: every prefix of the
 * chunk -> the planned bucket holding it (the buckets planned next).
 */
static void
WriteDirectoryPage(ShBuildState *bs, int pi, Page image)
{
	PlannedPages *pp = &bs->plan[pi];
	BlockNumber *dir;
	int			b = pi + 1;
	uint32		end = ShChunkEnd(&bs->layout, pp->table, pp->lo);

	ShInitPage(image, SH_PAGE_DIR, pp->table, pp->lo, 0);
	((PageHeader) image)->pd_lower = SH_ENTRIES_OFFSET + SH_CHUNK_SIZE * sizeof(BlockNumber);
	dir = ShDirEntries(image);
	for (int i = 0; i < SH_CHUNK_SIZE; i++)
		dir[i] = InvalidBlockNumber;
	for (uint32 p = pp->lo << SH_CHUNK_BITS; p < end; p++)
	{
		while (bs->plan[b].hi <= p)
			b++;
		dir[p & (SH_CHUNK_SIZE - 1)] = bs->plan[b].blkno;
	}
	WritePage(bs, image, pp->blkno);
}

/*
 * Writes the bucket (and overflow pages) planned as pp, filled with the
 * sorted entries order[*pos ..] whose prefix lies below pp->hi; advances
 * *pos past them.  Overflow pages record the one prefix of their entries.
 */
static void
WriteBucketPages(ShBuildState *bs, const PlannedPages *pp, const uint32 *order,
				 int64 *pos, Page image)
{
	const ShLayout *layout = &bs->layout;
	int			t = pp->table;
	int64		cap = layout->target;
	uint32		plo = pp->lo;

	if (pp->single)
	{
		cap = Max(1, (int64) SH_SINGLE_CAPACITY * layout->fillfactor / 100);
		plo = ShPrefix(layout, t, bs->fps[order[*pos]]);
	}
	for (uint32 k = 0; k < pp->npages; k++)
	{
		ShPageOpaque opaque;

		if (k == 0)
			ShInitPage(image, SH_PAGE_BUCKET, t, pp->lo, pp->hi);
		else
			ShInitPage(image, SH_PAGE_OVERFLOW, t, plo, plo + 1);
		if (pp->single)
			ShPageInitSingle(image, bs->fps[order[*pos]]);
		opaque = ShPageGetOpaque(image);
		while (*pos < bs->n && opaque->nentries < cap &&
			   ShPrefix(layout, t, bs->fps[order[*pos]]) < pp->hi)
		{
			ShAppendEntry(image, bs->fps[order[*pos]], &bs->tids[order[*pos]]);
			(*pos)++;
		}
		if (k + 1 < pp->npages)
			opaque->next = pp->blkno + k + 1;
		WritePage(bs, image, pp->blkno + k);
	}
}

/*
 * Plans and writes the whole index from the entries collected in bs: per
 * table a prefix histogram and a plan of its pages, then the metapage, then
 * per table its pages in block order, the entries sorted by prefix.
 */
static void
WriteIndex(ShBuildState *bs)
{
	const ShLayout *layout = &bs->layout;
	int			m = layout->ntables;
	uint32	  **hist = palloc(sizeof(uint32 *) * m);
	uint32	   *order = NULL;
	PGAlignedBlock image;
	int			pi = 0;

	pgstat_progress_update_param(PROGRESS_CREATEIDX_SUBPHASE, 3);
	pgstat_progress_update_param(PROGRESS_CREATEIDX_TUPLES_TOTAL, bs->n * m);

	bs->maxplan = 1024;
	bs->nplan = 0;
	bs->plan = palloc(sizeof(PlannedPages) * bs->maxplan);
	bs->nextblk = SH_METAPAGE_BLKNO + 1;
	for (int t = 0; t < m; t++)
	{
		Size		nprefix = (Size) 1 << layout->pbits[t];
		uint64	   *value = palloc(sizeof(uint64) * nprefix);	/* one of prefix p */
		bool	   *mixed = palloc0(sizeof(bool) * nprefix);

		hist[t] = palloc0(sizeof(uint32) * nprefix);
		for (int64 i = 0; i < bs->n; i++)
		{
			uint32		p = ShPrefix(layout, t, bs->fps[i]);

			if (hist[t][p]++ == 0)
				value[p] = bs->fps[i];
			else if (value[p] != bs->fps[i])
				mixed[p] = true;
		}
		PlanTable(bs, t, hist[t], mixed);
		pfree(value);
		pfree(mixed);
	}

	WriteMetapage(bs, image.data);

	if (bs->n > 0)
		order = MemoryContextAllocHuge(CurrentMemoryContext, sizeof(uint32) * bs->n);

	for (int t = 0; t < m; t++)
	{
		int64		pos = 0;

		if (bs->n > 0)
			SortByPrefix(bs, t, hist[t], order);
		for (; pi < bs->nplan && bs->plan[pi].table == t; pi++)
		{
			CHECK_FOR_INTERRUPTS();
			memset(image.data, 0, BLCKSZ);
			if (bs->plan[pi].isdir)
				WriteDirectoryPage(bs, pi, image.data);
			else
				WriteBucketPages(bs, &bs->plan[pi], order, &pos, image.data);
		}
		if (pos != bs->n)
			elog(ERROR, "simhash index build placed " INT64_FORMAT " of " INT64_FORMAT " entries",
				 pos, bs->n);
		pgstat_progress_update_param(PROGRESS_CREATEIDX_TUPLES_DONE, bs->n * (t + 1));
	}
	bs->loaded = true;
}

static void
BuildCallback(Relation index, ItemPointer tid, Datum *values, bool *isnull,
			  bool tupleIsAlive, void *state)
{
	ShBuildState *bs = (ShBuildState *) state;
	uint64		fp;

	if (!ShIndexKey(index, values, isnull, &fp))
		return;
	if (bs->loaded)
	{
		/* Past maintenance_work_mem: the index exists, insert normally. */
		MemoryContext old = MemoryContextSwitchTo(bs->tmpcxt);

		for (int t = 0; t < bs->layout.ntables; t++)
			ShInsertEntry(index, &bs->layout, t, fp, tid);
		MemoryContextSwitchTo(old);
		MemoryContextReset(bs->tmpcxt);
		bs->inserted++;
		return;
	}
	if (bs->n == bs->maxn)
	{
		ereport(NOTICE,
				(errmsg("simhash index \"%s\" no longer fits into maintenance_work_mem after " INT64_FORMAT " rows",
						RelationGetRelationName(index), bs->n),
				 errdetail("The remaining rows are inserted one by one, which is slower."),
				 errhint("Increase maintenance_work_mem.")));
		WriteIndex(bs);
		pgstat_progress_update_param(PROGRESS_CREATEIDX_SUBPHASE, 4);
		BuildCallback(index, tid, values, isnull, tupleIsAlive, state);
		return;
	}
	if (bs->n == bs->cap)
	{
		/* reltuples was only a hint: grow, within maxn. */
		bs->cap = Min(bs->maxn, bs->cap * 2);
		bs->fps = repalloc_huge(bs->fps, sizeof(uint64) * bs->cap);
		bs->tids = repalloc_huge(bs->tids, sizeof(ItemPointerData) * bs->cap);
	}
	bs->fps[bs->n] = fp;
	bs->tids[bs->n] = *tid;
	bs->n++;
}

static void
InitBuildState(ShBuildState *bs, Relation index)
{
	ShOptions  *opts = (ShOptions *) index->rd_options;

	memset(bs, 0, sizeof(ShBuildState));
	bs->index = index;
	ShLayoutFromOptions(&bs->layout,
						opts ? opts->blocks : SH_DEFAULT_BLOCKS,
						opts ? opts->fillfactor : SH_DEFAULT_FILLFACTOR);
}

/*
 * ambuild: bulk-loads a new index from the table.
 */
IndexBuildResult *
shbuild(Relation heap, Relation index, struct IndexInfo *indexInfo)
{
	IndexBuildResult *result;
	ShBuildState bs;
	double		reltuples;
	Size		perrow = sizeof(uint64) + sizeof(ItemPointerData) + sizeof(uint32);

	if (RelationGetNumberOfBlocks(index) != 0)
		elog(ERROR, "index \"%s\" already contains data",
			 RelationGetRelationName(index));
	ShCheckColumns(index);
	ShResetAmCache(index);
	ShPendingForget(index);

	InitBuildState(&bs, index);
	bs.maxn = Max((int64) 1024, (int64) maintenance_work_mem * 1024 / (int64) perrow);
	bs.maxn = Min(bs.maxn, (int64) PG_UINT32_MAX);
	bs.tmpcxt = AllocSetContextCreate(CurrentMemoryContext, "simhash build",
									  ALLOCSET_DEFAULT_SIZES);
	bs.cap = Min(bs.maxn, (int64) Max(1024.0, heap->rd_rel->reltuples * 1.1));
	bs.fps = MemoryContextAllocHuge(CurrentMemoryContext, sizeof(uint64) * bs.cap);
	bs.tids = MemoryContextAllocHuge(CurrentMemoryContext, sizeof(ItemPointerData) * bs.cap);

	pgstat_progress_update_param(PROGRESS_CREATEIDX_SUBPHASE, 2);
	reltuples = table_index_build_scan(heap, index, indexInfo, true, true,
									   BuildCallback, (void *) &bs, NULL);
	if (!bs.loaded)
		WriteIndex(&bs);

	MemoryContextDelete(bs.tmpcxt);
	result = palloc(sizeof(IndexBuildResult));
	result->heap_tuples = reltuples;
	result->index_tuples = bs.n + bs.inserted;
	return result;
}

/*
 * ambuildempty: writes an empty index (metapage and one bucket per table)
 * into the init fork of an unlogged index.
 */
void
shbuildempty(Relation index)
{
	ShBuildState bs;

	InitBuildState(&bs, index);
	bs.initfork = true;
	WriteIndex(&bs);
	smgrimmedsync(RelationGetSmgr(index), INIT_FORKNUM);
}
