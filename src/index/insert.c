/*
 * insert.c
 *	  Inserting into a simhash index: one entry per block table, bucket
 *	  splits, and overflow chains.
 */
#include "shindex.h"

#include "miscadmin.h"
#include "utils/memutils.h"
#include "utils/rel.h"

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
	uint64		fp;

	if (isnull[0])
		return false;
	layout = ShGetLayout(index);
	fp = DatumGetSimhash(values[0]);
	for (int t = 0; t < layout->ntables; t++)
		ShInsertEntry(index, layout, t, fp, ht_ctid);
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
		Buffer		buf = ShLockBucket(index, layout, table, prefix, BUFFER_LOCK_EXCLUSIVE);
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
