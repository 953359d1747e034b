/*
 * index/insert.c
 *	  Inserting into a simhash index: one entry per block table, bucket
 *	  splits, and overflow chains.
 */
#include "index/shindex.h"

#include "miscadmin.h"
#include "utils/memutils.h"
#include "utils/rel.h"

/*
 * THE INSERT PATH
 *
 * A row goes into every block table.  By default a transaction's rows are
 * batched and written bucket by bucket (pending.c); what follows is the
 * path of rows written at once (simhash.batch_inserts = off, indexes of
 * exclusion constraints).  Generic WAL costs per registered page
 * (GenericXLogStart sets up a ~100 kB state; registering copies the page;
 * finishing compares its used part byte by byte and copies it back) and per
 * record, so the common case - no bucket full - appends the entry to the
 * buckets of up to MAX_GENERIC_XLOG_PAGES tables in ONE record: lock the
 * buckets in table order, check that each has room, register them all,
 * append, finish.  If one of them is full, all are released untouched and
 * the tables of that group take the per-table path (ShInsertEntry: split or
 * overflow chain, one record per step, unchanged).  With more than four
 * tables the groups are 0-3, 4-7, ...; a crash between two records leaves
 * the row in some tables only, as the per-table path always could: the
 * inserting transaction did not commit, so the entries point at a dead heap
 * tuple that scans skip and VACUUM removes.
 *
 * Why holding several bucket locks cannot deadlock.  Give every lock a rank:
 * bucket and overflow pages of table t rank (t, position in the bucket's
 * chain); directory pages, pages being initialised and the metapage rank
 * above all of them.  Then every wait is for a higher rank than every lock
 * the waiter holds, except waits for directory pages and the metapage, and
 * those are never part of a cycle because nobody waits for a bucket or
 * overflow page while holding one:
 *  - this path holds buckets of tables < t while it locks table t's
 *    directory page (share, released before the bucket is locked) and
 *    table t's bucket;
 *  - ShInsertEntry holds one bucket and then pages further down its chain,
 *    then (splits) a new page, the directory page and the metapage, in that
 *    order - holding nothing else when it starts, because the fallback
 *    above releases the group first;
 *  - readers, VACUUM and pending.c's batch writer hold one page at a time
 *    (the writer calls ShInsertEntry for a full bucket holding nothing);
 *  - holders of a directory page or the metapage wait only for the
 *    metapage (splits) or for nothing (lookups), and the metapage's holders
 *    wait for nothing.
 * So the wait-for graph has no cycle.
 *
 * Why the cached root slots are safe.  Inserts do not read the metapage for
 * every lookup: they copy its root slots into rd_amcache once and look up
 * through the copy (ShLockBucket), refreshing it when a lookup misses.  A copy can only be
 * stale, never wrong, because (1) blocks are never freed, reused or retyped
 * while the relation file exists: a block that was a bucket of table t
 * stays one, and a directory page stays the directory page of its chunk (a
 * chunk's dirmask bit is only ever set); (2) a split only narrows a bucket's
 * range, and bucket ranges always partition the prefix space, because a
 * split changes both halves in one WAL record; (3) the bucket's header is
 * checked under its lock.  A stale slot therefore leads to a bucket whose
 * range is a subset of what it covered: if it still covers the prefix, it
 * is the only bucket that does; if not, the copy is refreshed from the
 * metapage and the lookup repeated.  Directory pages themselves are read,
 * under a share lock, on every lookup.  The file changes under a cached copy
 * only when it is replaced (REINDEX, TRUNCATE, rewrites: new relfilenode,
 * relcache invalidation frees rd_amcache) or emptied and rebuilt in place
 * (TRUNCATE of a table created in the same transaction), and shbuild resets
 * the cache for that case.
 */

/*
 * Appends the entry to the buckets of tables first .. first + n - 1 in one
 * WAL record.  Returns false, having changed nothing and holding nothing,
 * if one of the buckets is full.
 */
bool
ShInsertGroup(Relation index, ShAmCache *cache, int first, int n,
			  uint64 fp, ItemPointer tid)
{
	Buffer		bufs[MAX_GENERIC_XLOG_PAGES];
	GenericXLogState *state;

	Assert(n <= MAX_GENERIC_XLOG_PAGES);
	for (int i = 0; i < n; i++)
	{
		int			t = first + i;

		bufs[i] = ShLockBucket(index, t, ShPrefix(&cache->layout, t, fp),
							   BUFFER_LOCK_EXCLUSIVE, &cache->roots, NULL);
		if (ShPageGetOpaque(BufferGetPage(bufs[i]))->nentries >= SH_PAGE_CAPACITY)
		{
			for (int j = 0; j <= i; j++)
				UnlockReleaseBuffer(bufs[j]);
			return false;
		}
	}

	/*
	 * The pages are usually cold; registering copies and compares each one
	 * in turn.  Ask for all their lines at once so that the misses overlap.
	 */
	for (int i = 0; i < n; i++)
	{
		const char *p = BufferGetPage(bufs[i]);
		Size		used = ((PageHeader) p)->pd_lower;

		for (Size off = 0; off < used; off += 64)
			__builtin_prefetch(p + off);
	}

	state = GenericXLogStart(index);
	for (int i = 0; i < n; i++)
		ShAppendEntry(GenericXLogRegisterBuffer(state, bufs[i], 0), fp, tid);
	GenericXLogFinish(state);

	for (int i = 0; i < n; i++)
		UnlockReleaseBuffer(bufs[i]);
	return true;
}

/*
 * aminsert: adds (fp, heap TID) to every block table.  NULL fingerprints
 * are not indexed (the operators are strict, so no scan could return them).
 */
bool
shinsert(Relation index, Datum *values, bool *isnull,
		 ItemPointer ht_ctid, Relation heapRel,
		 IndexUniqueCheck checkUnique, bool indexUnchanged,
		 struct IndexInfo *indexInfo)
{
	const ShLayout *layout;
	ShAmCache  *cache;
	uint64		fp;

	if (isnull[0])
		return false;
	layout = ShGetLayout(index);
	cache = (ShAmCache *) index->rd_amcache;
	fp = DatumGetSimhash(values[0]);
	if (ShPendingAdd(index, indexInfo, fp, ht_ctid))
		return false;
	for (int first = 0; first < layout->ntables; first += MAX_GENERIC_XLOG_PAGES)
	{
		int			n = Min(layout->ntables - first, MAX_GENERIC_XLOG_PAGES);

		if (!ShInsertGroup(index, cache, first, n, fp, ht_ctid))
		{
			for (int t = first; t < first + n; t++)
				ShInsertEntry(index, layout, t, fp, ht_ctid);
		}
	}
	return false;
}

/*
 * Chooses where to split the bucket [lo, hi) of the given table, holding
 * the page's entries: the boundary that best balances the two halves.
 * When the bucket spans several chunks the boundary must be a chunk
 * boundary (root slots of whole chunks change); otherwise any prefix.
 */
static uint32
ChooseSplit(const ShLayout *layout, int table, Page page, uint32 lo, uint32 hi)
{
	ShPageOpaque opaque = ShPageGetOpaque(page);
	bool		chunks = (hi - lo) > SH_CHUNK_SIZE ||
		(lo >> SH_CHUNK_BITS) != ((hi - 1) >> SH_CHUNK_BITS);
	int			unit_bits = chunks ? SH_CHUNK_BITS : 0;
	uint32		nunits = ((hi - lo) + (1 << unit_bits) - 1) >> unit_bits;
	int		   *counts = palloc0(sizeof(int) * nunits);
	uint32		best = lo + (1 << unit_bits);
	int			below = 0;
	int			bestcost = INT_MAX;

	for (int i = 0; i < opaque->nentries; i++)
	{
		uint32		p = ShPrefix(layout, table, ShEntryFingerprint(ShPageEntry(page, i)));

		counts[(p - lo) >> unit_bits]++;
	}
	for (uint32 u = 0; u + 1 < nunits; u++)
	{
		int			cost;

		below += counts[u];
		cost = Max(below, opaque->nentries - below);
		if (cost < bestcost)
		{
			bestcost = cost;
			best = lo + ((u + 1) << unit_bits);
		}
	}
	pfree(counts);
	return best;
}

/*
 * Splits the full bucket in buf (pinned, exclusive-locked, covering more
 * than one prefix) into two, in one WAL record.  Releases buf.
 */
static void
SplitBucket(Relation index, const ShLayout *layout, int table, Buffer buf)
{
	Page		page = BufferGetPage(buf);
	ShPageOpaque opaque = ShPageGetOpaque(page);
	uint32		lo = opaque->lo;
	uint32		hi = opaque->hi;
	uint32		mid = ChooseSplit(layout, table, page, lo, hi);
	int			chunk = lo >> SH_CHUNK_BITS;
	bool		multichunk = (lo >> SH_CHUNK_BITS) != ((hi - 1) >> SH_CHUNK_BITS);
	Buffer		newbuf;
	Buffer		metabuf;
	Buffer		dirbuf = InvalidBuffer;
	bool		newdir = false;
	ShMetaPageData *meta;
	GenericXLogState *state;
	Page		opage,
				npage,
				mpage,
				dpage = NULL;
	BlockNumber newblkno;
	int			keep;

	/*
	 * Find out (reading the metapage without keeping its lock) whether the
	 * chunk has a directory page.  Only a split of this very bucket could
	 * change that, and we hold it, so the answer stays true.
	 */
	if (!multichunk)
	{
		metabuf = ReadBuffer(index, SH_METAPAGE_BLKNO);
		LockBuffer(metabuf, BUFFER_LOCK_SHARE);
		meta = ShCheckMeta(index, BufferGetPage(metabuf));
		if ((meta->dirmask[table] >> chunk) & 1)
			dirbuf = ReadBuffer(index, meta->root[table][chunk]);
		else
			newdir = true;
		UnlockReleaseBuffer(metabuf);
	}

	newbuf = ShNewBuffer(index);
	newblkno = BufferGetBlockNumber(newbuf);
	if (newdir)
		dirbuf = ShNewBuffer(index);
	else if (BufferIsValid(dirbuf))
		LockBuffer(dirbuf, BUFFER_LOCK_EXCLUSIVE);
	metabuf = InvalidBuffer;
	if (multichunk || newdir)
	{
		metabuf = ReadBuffer(index, SH_METAPAGE_BLKNO);
		LockBuffer(metabuf, BUFFER_LOCK_EXCLUSIVE);
	}

	state = GenericXLogStart(index);
	opage = GenericXLogRegisterBuffer(state, buf, 0);
	npage = GenericXLogRegisterBuffer(state, newbuf, GENERIC_XLOG_FULL_IMAGE);
	if (BufferIsValid(dirbuf))
		dpage = GenericXLogRegisterBuffer(state, dirbuf,
										  newdir ? GENERIC_XLOG_FULL_IMAGE : 0);
	mpage = BufferIsValid(metabuf) ?
		GenericXLogRegisterBuffer(state, metabuf, 0) : NULL;

	/* Move the entries of [mid, hi) to the new bucket, compact the old. */
	ShInitPage(npage, SH_PAGE_BUCKET, table, mid, hi);
	opaque = ShPageGetOpaque(opage);
	keep = 0;
	for (int i = 0; i < opaque->nentries; i++)
	{
		char	   *entry = ShPageEntry(opage, i);
		uint64		fp = ShEntryFingerprint(entry);

		if (ShPrefix(layout, table, fp) >= mid)
		{
			ItemPointerData tid;

			ShEntryTid(entry, &tid);
			ShAppendEntry(npage, fp, &tid);
		}
		else
		{
			if (keep != i)
				memmove(ShPageEntry(opage, keep), entry, SH_ENTRY_SIZE);
			keep++;
		}
	}
	opaque->nentries = keep;
	opaque->hi = mid;
	((PageHeader) opage)->pd_lower = SH_ENTRIES_OFFSET + keep * SH_ENTRY_SIZE;

	if (multichunk)
	{
		/* Whole chunks [mid, hi) now point straight at the new bucket. */
		meta = ShCheckMeta(index, mpage);
		for (uint32 c = mid >> SH_CHUNK_BITS; c < ((hi - 1) >> SH_CHUNK_BITS) + 1; c++)
		{
			Assert(!((meta->dirmask[table] >> c) & 1));
			meta->root[table][c] = newblkno;
		}
	}
	else
	{
		BlockNumber *dir;

		if (newdir)
		{
			BlockNumber oldblkno = BufferGetBlockNumber(buf);

			ShInitPage(dpage, SH_PAGE_DIR, table, chunk, 0);
			((PageHeader) dpage)->pd_lower = SH_ENTRIES_OFFSET + SH_CHUNK_SIZE * sizeof(BlockNumber);
			dir = ShDirEntries(dpage);
			for (int i = 0; i < SH_CHUNK_SIZE; i++)
				dir[i] = oldblkno;
			meta = ShCheckMeta(index, mpage);
			meta->root[table][chunk] = BufferGetBlockNumber(dirbuf);
			meta->dirmask[table] |= UINT64CONST(1) << chunk;
		}
		dir = ShDirEntries(dpage);
		for (uint32 p = mid; p < hi; p++)
			dir[p & (SH_CHUNK_SIZE - 1)] = newblkno;
	}
	GenericXLogFinish(state);

	if (BufferIsValid(metabuf))
		UnlockReleaseBuffer(metabuf);
	if (BufferIsValid(dirbuf))
		UnlockReleaseBuffer(dirbuf);
	UnlockReleaseBuffer(newbuf);
	UnlockReleaseBuffer(buf);
}

/*
 * Adds one entry to block table `table`.  Takes and releases its own locks.
 */
void
ShInsertEntry(Relation index, const ShLayout *layout, int table,
			  uint64 fp, ItemPointer tid)
{
	uint32		prefix = ShPrefix(layout, table, fp);

	for (;;)
	{
		Buffer		buf = ShLockBucket(index, table, prefix, BUFFER_LOCK_EXCLUSIVE,
										   NULL, NULL);
		Page		page = BufferGetPage(buf);
		ShPageOpaque opaque = ShPageGetOpaque(page);
		BlockNumber blkno;
		GenericXLogState *state;

		if (opaque->nentries >= SH_PAGE_CAPACITY && opaque->hi - opaque->lo > 1)
		{
			SplitBucket(index, layout, table, buf);
			continue;
		}

		/*
		 * A bucket of a single prefix: find room along its overflow chain,
		 * holding each page until the next is locked so that two inserters
		 * cannot both extend the chain.
		 */
		while (opaque->nentries >= SH_PAGE_CAPACITY)
		{
			Buffer		nextbuf;

			if (opaque->next == InvalidBlockNumber)
			{
				Page		npage;

				nextbuf = ShNewBuffer(index);
				state = GenericXLogStart(index);
				page = GenericXLogRegisterBuffer(state, buf, 0);
				npage = GenericXLogRegisterBuffer(state, nextbuf, GENERIC_XLOG_FULL_IMAGE);
				ShInitPage(npage, SH_PAGE_OVERFLOW, table, opaque->lo, opaque->hi);
				ShAppendEntry(npage, fp, tid);
				ShPageGetOpaque(page)->next = BufferGetBlockNumber(nextbuf);
				GenericXLogFinish(state);
				UnlockReleaseBuffer(nextbuf);
				UnlockReleaseBuffer(buf);
				return;
			}
			blkno = opaque->next;
			nextbuf = ReadBuffer(index, blkno);
			LockBuffer(nextbuf, BUFFER_LOCK_EXCLUSIVE);
			UnlockReleaseBuffer(buf);
			buf = nextbuf;
			page = BufferGetPage(buf);
			opaque = ShCheckPage(index, page, blkno, SH_PAGE_OVERFLOW, table);
		}

		state = GenericXLogStart(index);
		page = GenericXLogRegisterBuffer(state, buf, 0);
		ShAppendEntry(page, fp, tid);
		GenericXLogFinish(state);
		UnlockReleaseBuffer(buf);
		return;
	}
}
