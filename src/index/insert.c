/*
 * index/insert.c
 *	  Inserting into a simhash index: one entry per block table, bucket
 *	  splits, and overflow chains.
 */
#include "index/shindex.h"

#include "access/xact.h"
#include "miscadmin.h"
#include "nodes/execnodes.h"
#include "storage/predicate.h"
#include "utils/memutils.h"
#include "utils/rel.h"

/*
 * THE INSERT PATH
 *
 * A row goes into every block table.  By default a transaction's rows are
 * batched and written bucket by bucket (pending.c); what follows is the
 * path of rows written at once (simhash.batch_inserts = off, indexes of
 * exclusion constraints).  The common case - no bucket full - appends the
 * entry to the buckets of up to MAX_GENERIC_XLOG_PAGES tables in ONE
 * generic WAL record, whose delta wal.c writes directly (GenericXLogFinish
 * would copy and compare every page whole): pin the hinted buckets of the
 * group (page.c), lock them in table order, check that each has room,
 * append, log.  If one of them is full, all are released untouched and
 * the tables of that group take the per-table path (ShInsertEntry: split or
 * overflow chain, one record per step, unchanged).  With more than four
 * tables the groups are 0-3, 4-7, ...; a crash between two records leaves
 * the row in some tables only, as the per-table path always could: the
 * inserting transaction did not commit, so the entries point at a dead heap
 * tuple that scans skip and VACUUM removes.
 *
 * An exclusion constraint's index searches each locked bucket for the
 * row's conflicts just before appending to it, when the core's check that
 * follows would read exactly those buckets (below m bits): the check then
 * takes that result (THE CHECK DONE WHILE INSERTING in scan.c).  A group
 * that falls back to the per-table path drops it, and the check searches.
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
 * Predicate locks (SERIALIZABLE).  A search whose every probe is one
 * exact block value (a radius below the number of probed tables: radius 3
 * with 4 blocks, an exclusion constraint's check) locks those block values,
 * one per probed table: each as a pseudo page number (ShKeyLockBlock),
 * which no real page has.  A row within the radius shares one of them
 * exactly, and every insert checks the block values of its row in every
 * table when it writes the row's entries (ShCheckKeyConflictsIn: in
 * aminsert, or for a batched row when the batch is written, which may be
 * after a reader searched; an entry not yet in the index is one no reader
 * could have found and fetched).  So two serializable transactions
 * conflict only when they touch the same block value (or two values whose
 * pseudo pages coincide), whatever the size of the index.  Other scans (more probes, whole tables, k-NN passes) lock
 * the bucket page of every prefix range they read (scan.c), never an
 * overflow page: the bucket stands for its range and its chain.  So every
 * write also checks for conflicts on the bucket page it found
 * (ShCheckConflictIn), whichever page of the chain the entry lands on, and
 * a split, which moves part of the range to a new bucket, copies the old
 * bucket's locks to it (PredicateLockPageSplit).
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
 * SERIALIZABLE: raises a serialization failure when a transaction that
 * read the bucket page in buf (locked) conflicts with our writing into it.
 */
void
ShCheckConflictIn(Relation index, Buffer buf)
{
	CheckForSerializableConflictIn(index, NULL, BufferGetBlockNumber(buf));
}

/*
 * SERIALIZABLE: raises a serialization failure when a transaction that
 * searched one of fp's block values (see above) conflicts with our
 * inserting fp.
 */
void
ShCheckKeyConflictsIn(Relation index, const ShLayout *layout, uint64 fp)
{
	if (!IsolationIsSerializable())
		return;
	for (int t = 0; t < layout->ntables; t++)
		CheckForSerializableConflictIn(index, NULL, ShKeyLockBlock(layout, t, fp));
}

/*
 * Appends the entry to the buckets of tables first .. first + n - 1 in one
 * WAL record.  Returns false, having changed nothing and holding nothing,
 * if one of the buckets is full.
 *
 * The buckets are cold, as a rule: their hinted pages are pinned all at
 * once first so that the cache misses of the lookups overlap (page.c), and
 * with prefetch (an exclusion constraint's index, whose check reads these
 * very buckets next) their entries are requested from memory while the
 * other buckets are locked.
 */
bool
ShInsertGroup(Relation index, ShAmCache *cache, int first, int n,
			  uint64 fp, ItemPointer tid, bool prefetch, bool stash)
{
	Buffer		bufs[MAX_GENERIC_XLOG_PAGES];
	ShAppend	apps[MAX_GENERIC_XLOG_PAGES];
	char		packed[MAX_GENERIC_XLOG_PAGES][SH_ENTRY_SIZE];
	bool		direct = true;

	memset(apps, 0, sizeof(apps));

	Assert(n <= MAX_GENERIC_XLOG_PAGES);
	for (int i = 0; i < n; i++)
		bufs[i] = ShPinHintedBucket(index, first + i,
									ShPrefix(&cache->layout, first + i, fp));
	for (int i = 0; i < n; i++)
	{
		int			t = first + i;
		Page		page;

		bufs[i] = ShLockPinnedBucket(index, t, ShPrefix(&cache->layout, t, fp),
									 BUFFER_LOCK_EXCLUSIVE, bufs[i]);
		page = BufferGetPage(bufs[i]);
		if (!ShPageHasRoom(page, fp))
		{
			for (int j = 0; j < n; j++)
			{
				if (j <= i)
					UnlockReleaseBuffer(bufs[j]);
				else if (BufferIsValid(bufs[j]))
					ReleaseBuffer(bufs[j]);
			}
			return false;
		}
		if (prefetch)
		{
			Size		used = ((PageHeader) page)->pd_lower;

			for (Size off = 64; off < used; off += 64)
				__builtin_prefetch((char *) page + off);
		}
	}
	for (int i = 0; i < n; i++)
		ShCheckConflictIn(index, bufs[i]);
	if (stash)
	{
		/* the exclusion check's search, before our entry is there (scan.c) */
		for (int i = 0; i < n; i++)
			ShStashPage(first + i, BufferGetPage(bufs[i]));
	}

	for (int i = 0; i < n; i++)
	{
		apps[i].buf = bufs[i];
		apps[i].entries = packed[i];
		apps[i].n = 1;
		apps[i].width = ShAppendWidth(BufferGetPage(bufs[i]), fp);
		if (apps[i].width == 0)
			direct = false;
		else
			ShPackEntryAs(packed[i], apps[i].width, fp, tid);
	}
	if (direct)
		ShAppendLogged(index, apps, n);
	else
	{
		/* a single-value page takes another value: it changes form */
		GenericXLogState *state = GenericXLogStart(index);

		for (int i = 0; i < n; i++)
			ShAppendEntry(GenericXLogRegisterBuffer(state, bufs[i], 0), fp, tid);
		GenericXLogFinish(state);
	}

	for (int i = 0; i < n; i++)
		UnlockReleaseBuffer(bufs[i]);
	return true;
}

/*
 * aminsert: adds (fp, heap TID) to every block table.  NULL fingerprints
 * are not indexed (the operators are strict, so no scan could return them).
 */
bool
shinsert(SIMHASH_AMINSERT_PARAMS(index, values, isnull, ht_ctid, heapRel,
								 checkUnique, indexInfo))
{
	const ShLayout *layout;
	ShAmCache  *cache;
	uint64		fp;
	bool		stash;
	bool		grouped = true;

	if (!ShIndexKey(index, values, isnull, &fp))
		return false;
	if (ShPendingAdd(index, indexInfo, heapRel, fp, ht_ctid))
		return false;
	cache = ShGetHintedCache(index);
	layout = &cache->layout;
	ShCheckKeyConflictsIn(index, layout, fp);
	stash = ShStashStart(index, indexInfo, values, isnull, fp);
	for (int first = 0; first < layout->ntables; first += MAX_GENERIC_XLOG_PAGES)
	{
		int			n = Min(layout->ntables - first, MAX_GENERIC_XLOG_PAGES);

		if (!ShInsertGroup(index, cache, first, n, fp, ht_ctid,
						   indexInfo->ii_ExclusionOps != NULL, stash && grouped))
		{
			grouped = false;
			for (int t = first; t < first + n; t++)
				ShInsertEntry(index, layout, t, fp, ht_ctid);
		}
	}
	if (stash)
		ShStashFinish(grouped);
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
	int		   *counts;
	uint32		best = lo + (1 << unit_bits);
	int			below = 0;
	int			bestcost = INT_MAX;

	if (ShPageIsSingle(page))
	{
		/* One value (and any chain has its prefix): split beside it. */
		uint32		u = (ShPrefix(layout, table, ShPageSingleValue(page)) - lo) >> unit_bits;

		return lo + ((u > 0 ? u : 1) << unit_bits);
	}
	counts = palloc0(sizeof(int) * nunits);
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
	if (bestcost >= opaque->nentries)
	{
		/*
		 * Every entry lies in one unit (a dominant block value: empty or
		 * boilerplate documents, exact or near duplicates), so no boundary
		 * separates any.  Splitting off one unit at a time would add a page
		 * per unit and leave the entries where they were (600 copies of one
		 * value made thousands of pages).  Cut right at the unit instead:
		 * below it if anything lies below, else above it.  At most two such
		 * splits at chunk and two at prefix level isolate the value, whose
		 * bucket then grows an overflow chain.
		 */
		uint32		u = (ShPrefix(layout, table,
								  ShEntryFingerprint(ShPageEntry(page, 0))) - lo) >> unit_bits;

		best = lo + ((u > 0 ? u : 1) << unit_bits);
	}
	pfree(counts);
	return best;
}

/*
 * A bucket split: the pages it changes, pinned and exclusive-locked, and
 * their copies in its WAL record.  The old bucket [lo, hi) keeps [lo, mid);
 * a new bucket takes [mid, hi).  A bucket spanning several chunks is split
 * at a chunk boundary and the metapage's root slots of the upper chunks are
 * pointed at the new bucket; a bucket within one chunk is split anywhere
 * and the chunk's directory page (created now if the chunk had none, which
 * also changes the metapage) is pointed at the new bucket for [mid, hi).
 */
typedef struct ShSplit
{
	int			table;
	uint32		lo;
	uint32		mid;
	uint32		hi;
	bool		multichunk;		/* the bucket spans several chunks */
	bool		newdir;			/* the chunk gets its directory page now */
	Buffer		buf;			/* the old bucket */
	Buffer		newbuf;			/* the new bucket */
	Buffer		dirbuf;			/* the directory page, or InvalidBuffer */
	Buffer		metabuf;		/* the metapage, or InvalidBuffer */
	Page		opage;			/* their copies in the WAL record */
	Page		npage;
	Page		dpage;
	Page		mpage;
} ShSplit;

/*
 * Locks the pages the split changes, besides the old bucket (already
 * locked): a new page for the new bucket, the chunk's directory page (a new
 * one if the chunk has none) and, when root slots change, the metapage, in
 * the order of the locking rules (insert.c, shindex.h).
 */
static void
LockSplitPages(Relation index, ShSplit *sp)
{
	int			chunk = sp->lo >> SH_CHUNK_BITS;

	/*
	 * Find out (reading the metapage without keeping its lock) whether the
	 * chunk has a directory page.  Only a split of this very bucket could
	 * change that, and we hold it, so the answer stays true.
	 */
	sp->dirbuf = InvalidBuffer;
	sp->newdir = false;
	if (!sp->multichunk)
	{
		Buffer		metabuf = ReadBuffer(index, SH_METAPAGE_BLKNO);
		ShMetaPageData *meta;

		LockBuffer(metabuf, BUFFER_LOCK_SHARE);
		meta = ShCheckMeta(index, BufferGetPage(metabuf));
		if ((meta->dirmask[sp->table] >> chunk) & 1)
			sp->dirbuf = ReadBuffer(index, meta->root[sp->table][chunk]);
		else
			sp->newdir = true;
		UnlockReleaseBuffer(metabuf);
	}

	sp->newbuf = ShNewBuffer(index);
	if (sp->newdir)
		sp->dirbuf = ShNewBuffer(index);
	else if (BufferIsValid(sp->dirbuf))
		LockBuffer(sp->dirbuf, BUFFER_LOCK_EXCLUSIVE);
	sp->metabuf = InvalidBuffer;
	if (sp->multichunk || sp->newdir)
	{
		sp->metabuf = ReadBuffer(index, SH_METAPAGE_BLKNO);
		LockBuffer(sp->metabuf, BUFFER_LOCK_EXCLUSIVE);
	}
}

/* Registers the split's pages in one WAL record (new pages as full images). */
static GenericXLogState *
RegisterSplitPages(Relation index, ShSplit *sp)
{
	GenericXLogState *state = GenericXLogStart(index);

	sp->opage = GenericXLogRegisterBuffer(state, sp->buf, 0);
	sp->npage = GenericXLogRegisterBuffer(state, sp->newbuf, GENERIC_XLOG_FULL_IMAGE);
	sp->dpage = NULL;
	if (BufferIsValid(sp->dirbuf))
		sp->dpage = GenericXLogRegisterBuffer(state, sp->dirbuf,
											  sp->newdir ? GENERIC_XLOG_FULL_IMAGE : 0);
	sp->mpage = BufferIsValid(sp->metabuf) ?
		GenericXLogRegisterBuffer(state, sp->metabuf, 0) : NULL;
	return state;
}

/*
 * Moves the entries of [mid, hi) to the new bucket and compacts the old.  A
 * single-value bucket moves whole, with its form and chain, or stays.
 */
static void
MoveUpperEntries(const ShLayout *layout, ShSplit *sp)
{
	ShPageOpaque opaque = ShPageGetOpaque(sp->opage);
	int			keep = 0;

	ShInitPage(sp->npage, SH_PAGE_BUCKET, sp->table, sp->mid, sp->hi);
	if (ShPageIsSingle(sp->opage))
	{
		if (ShPrefix(layout, sp->table, ShPageSingleValue(sp->opage)) >= sp->mid)
			ShPageMoveEntries(sp->npage, sp->opage);
		opaque->hi = sp->mid;
		return;
	}
	for (int i = 0; i < opaque->nentries; i++)
	{
		char	   *entry = ShPageEntry(sp->opage, i);
		uint64		fp = ShEntryFingerprint(entry);

		if (ShPrefix(layout, sp->table, fp) >= sp->mid)
		{
			ItemPointerData tid;

			ShEntryTid(entry, &tid);
			ShAppendEntry(sp->npage, fp, &tid);
		}
		else
		{
			if (keep != i)
				memmove(ShPageEntry(sp->opage, keep), entry, SH_ENTRY_SIZE);
			keep++;
		}
	}
	opaque->nentries = keep;
	opaque->hi = sp->mid;
	((PageHeader) sp->opage)->pd_lower = SH_ENTRIES_OFFSET + keep * SH_ENTRY_SIZE;
}

/*
 * Points the prefixes [mid, hi) at the new bucket: the root slots of whole
 * chunks, or the chunk's directory page, initialised first if new.
 */
static void
RedirectUpperPrefixes(Relation index, ShSplit *sp)
{
	int			table = sp->table;
	int			chunk = sp->lo >> SH_CHUNK_BITS;
	BlockNumber newblkno = BufferGetBlockNumber(sp->newbuf);
	ShMetaPageData *meta;
	BlockNumber *dir;

	if (sp->multichunk)
	{
		/* Whole chunks [mid, hi) now point straight at the new bucket. */
		meta = ShCheckMeta(index, sp->mpage);
		for (uint32 c = sp->mid >> SH_CHUNK_BITS; c < ((sp->hi - 1) >> SH_CHUNK_BITS) + 1; c++)
		{
			Assert(!((meta->dirmask[table] >> c) & 1));
			meta->root[table][c] = newblkno;
		}
		return;
	}
	if (sp->newdir)
	{
		BlockNumber oldblkno = BufferGetBlockNumber(sp->buf);

		ShInitPage(sp->dpage, SH_PAGE_DIR, table, chunk, 0);
		((PageHeader) sp->dpage)->pd_lower = SH_ENTRIES_OFFSET + SH_CHUNK_SIZE * sizeof(BlockNumber);
		dir = ShDirEntries(sp->dpage);
		for (int i = 0; i < SH_CHUNK_SIZE; i++)
			dir[i] = oldblkno;
		meta = ShCheckMeta(index, sp->mpage);
		meta->root[table][chunk] = BufferGetBlockNumber(sp->dirbuf);
		meta->dirmask[table] |= UINT64CONST(1) << chunk;
	}
	dir = ShDirEntries(sp->dpage);
	for (uint32 p = sp->mid; p < sp->hi; p++)
		dir[p & (SH_CHUNK_SIZE - 1)] = newblkno;
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
	ShSplit		sp;
	GenericXLogState *state;

	sp.table = table;
	sp.buf = buf;
	sp.lo = opaque->lo;
	sp.hi = opaque->hi;
	sp.mid = ChooseSplit(layout, table, page, sp.lo, sp.hi);
	sp.multichunk = (sp.lo >> SH_CHUNK_BITS) != ((sp.hi - 1) >> SH_CHUNK_BITS);

	LockSplitPages(index, &sp);
	PredicateLockPageSplit(index, BufferGetBlockNumber(sp.buf),
						   BufferGetBlockNumber(sp.newbuf));
	state = RegisterSplitPages(index, &sp);
	MoveUpperEntries(layout, &sp);
	RedirectUpperPrefixes(index, &sp);
	GenericXLogFinish(state);

	if (BufferIsValid(sp.metabuf))
		UnlockReleaseBuffer(sp.metabuf);
	if (BufferIsValid(sp.dirbuf))
		UnlockReleaseBuffer(sp.dirbuf);
	UnlockReleaseBuffer(sp.newbuf);
	UnlockReleaseBuffer(sp.buf);
}

/* Remembers that the chain starting at block head reaches block blkno. */
static void
RememberChainPage(ShAmCache *cache, int table, BlockNumber head, BlockNumber blkno)
{
	if (cache == NULL)
		return;
	cache->chainhead[table] = head;
	cache->chaintail[table] = blkno;
}

/* Appends entries[0 .. n) to page, which has room for them. */
static void
AppendRun(Page page, const ShNewEntry *entries, int n)
{
	for (int i = 0; i < n; i++)
		ShAppendEntry(page, entries[i].fp, (ItemPointer) &entries[i].tid);
}

/*
 * Appends entries[0 .. n) to the page in buf (pinned, exclusive-locked,
 * with room for them) in one WAL record: written directly (wal.c), or by
 * GenericXLogFinish when a single-value page takes another value and so
 * changes form.  Leaves the entries' done bits alone.
 */
void
ShAppendRunLogged(Relation index, Buffer buf, const ShNewEntry *entries, int n)
{
	PGAlignedBlock packed;
	ShAppend	app;
	Page		page = BufferGetPage(buf);

	app.width = ShAppendWidth(page, entries[0].fp);
	for (int i = 0; i < n && app.width != 0; i++)
	{
		if (ShAppendWidth(page, entries[i].fp) != app.width)
			app.width = 0;
		else
			ShPackEntryAs(packed.data + (Size) i * app.width, app.width, entries[i].fp,
						  (ItemPointer) &entries[i].tid);
	}
	if (app.width == 0)
	{
		/* a single-value page takes another value: it changes form */
		GenericXLogState *state = GenericXLogStart(index);

		AppendRun(GenericXLogRegisterBuffer(state, buf, 0), entries, n);
		GenericXLogFinish(state);
		return;
	}
	app.buf = buf;
	app.entries = packed.data;
	app.n = n;
	ShAppendLogged(index, &app, 1);
}

/* Sets the done bit of table in entries[0 .. n) that have one. */
static void
MarkWritten(int table, const ShNewEntry *entries, int n)
{
	for (int i = 0; i < n; i++)
		if (entries[i].done)
			*entries[i].done |= (uint16) (1 << table);
}

/*
 * Appends entries[0 .. n), all with prefix `prefix`, to the overflow chain
 * of the full bucket in buf (pinned, exclusive-locked): to the pages with
 * room from where the walk starts (a full plain page whose entries all have
 * the value to add takes the single-value form first), then to at most
 * maxnew new pages at the end of the chain, one WAL record per page filled.
 * Holds each page until the next is locked, so that two inserters cannot
 * both extend the chain.  Releases every page it locked, buf included, and
 * returns how many entries it appended: n, unless maxnew ran out (a bucket
 * of several prefixes has one overflow page at most: shindex.h).
 *
 * The walk starts at the chain's head, or, when rd_amcache remembers a
 * later page of this very chain (keyed by the head's block number: pages
 * are never freed or reused, so a page once in a chain stays in it), at
 * that page: without the hint, n duplicates of one value cost O(n^2) page
 * reads.  Room that VACUUM makes before the hinted page is used again by
 * the next backend (or relcache rebuild) that walks from the head.
 */
static int
AppendToChain(Relation index, int table, uint32 prefix, Buffer buf,
			  const ShNewEntry *entries, int n, int maxnew)
{
	ShAmCache  *cache = (ShAmCache *) index->rd_amcache;
	Page		page = BufferGetPage(buf);
	ShPageOpaque opaque = ShPageGetOpaque(page);
	BlockNumber head = opaque->next;
	GenericXLogState *state;
	int			done = 0;

	if (cache != NULL && head != InvalidBlockNumber &&
		!ShPageHasRoom(page, entries[0].fp) &&
		cache->chainhead[table] == head && cache->chaintail[table] != head)
	{
		BlockNumber blkno = cache->chaintail[table];
		Buffer		nextbuf = ReadBuffer(index, blkno);

		/* Further down the chain: the lock order allows it (insert.c). */
		LockBuffer(nextbuf, BUFFER_LOCK_EXCLUSIVE);
		UnlockReleaseBuffer(buf);
		buf = nextbuf;
		page = BufferGetPage(buf);
		opaque = ShCheckPage(index, page, blkno, SH_PAGE_OVERFLOW, table);
	}

	while (n > 0)
	{
		Buffer		nextbuf;
		BlockNumber blkno;
		int			k = ShPageFitCount(page, entries, n);

		if (k > 0)
		{
			ShAppendRunLogged(index, buf, entries, k);
			MarkWritten(table, entries, k);
			entries += k;
			n -= k;
			done += k;
			if (head != InvalidBlockNumber)
				RememberChainPage(cache, table, head, BufferGetBlockNumber(buf));
			continue;
		}
		if (ShPageCanCompact(page, entries[0].fp))
		{
			ShCompactPage(index, buf);
			continue;
		}
		if (opaque->next == InvalidBlockNumber)
		{
			Page		npage;

			if (maxnew-- <= 0)
				break;
			nextbuf = ShNewBuffer(index);
			k = Min(n, (int) SH_PAGE_CAPACITY);
			state = GenericXLogStart(index);
			page = GenericXLogRegisterBuffer(state, buf, 0);
			npage = GenericXLogRegisterBuffer(state, nextbuf, GENERIC_XLOG_FULL_IMAGE);
			ShInitPage(npage, SH_PAGE_OVERFLOW, table, prefix, prefix + 1);
			AppendRun(npage, entries, k);
			ShPageGetOpaque(page)->next = BufferGetBlockNumber(nextbuf);
			GenericXLogFinish(state);
			MarkWritten(table, entries, k);
			entries += k;
			n -= k;
			done += k;
			if (head == InvalidBlockNumber)
				head = BufferGetBlockNumber(nextbuf);
			RememberChainPage(cache, table, head, BufferGetBlockNumber(nextbuf));
			UnlockReleaseBuffer(buf);
			buf = nextbuf;
			page = BufferGetPage(buf);
			opaque = ShPageGetOpaque(page);
			continue;
		}
		blkno = opaque->next;
		nextbuf = ReadBuffer(index, blkno);
		LockBuffer(nextbuf, BUFFER_LOCK_EXCLUSIVE);
		UnlockReleaseBuffer(buf);
		buf = nextbuf;
		page = BufferGetPage(buf);
		opaque = ShCheckPage(index, page, blkno, SH_PAGE_OVERFLOW, table);
	}
	UnlockReleaseBuffer(buf);
	return done;
}

/*
 * Whether the full bucket page (covering several prefixes) may take entries
 * of prefix `prefix` into an overflow page: it is a single-value page of a
 * value with that prefix (the chain rule in shindex.h).
 */
static bool
ChainAllowed(const ShLayout *layout, int table, Page page, uint32 prefix)
{
	return ShPageIsSingle(page) &&
		ShPrefix(layout, table, ShPageSingleValue(page)) == prefix;
}

/*
 * Adds entries[0 .. n), which share one prefix, to block table `table`:
 * appends what the bucket takes; turns a full plain page of copies of the
 * value to add into a single-value page; splits a full bucket (and looks
 * again) while it covers several prefixes, unless it is a single-value page
 * of this prefix whose one overflow page has room (or is still to come);
 * else fills the bucket's overflow chain, as many entries per WAL record as
 * a page takes.  Each entry's done bit for the table (when entries[i].done
 * is set) is set once the record holding it is written.  Takes and releases
 * its own locks.
 */
void
ShInsertEntries(Relation index, const ShLayout *layout, int table,
				const ShNewEntry *entries, int n)
{
	uint32		prefix = ShPrefix(layout, table, entries[0].fp);
	bool		chainfull = false;	/* a bucket's one overflow page is full */

	while (n > 0)
	{
		Buffer		buf = ShLockBucket(index, table, prefix, BUFFER_LOCK_EXCLUSIVE,
									   NULL, NULL);
		Page		page = BufferGetPage(buf);
		ShPageOpaque opaque = ShPageGetOpaque(page);
		int			k = ShPageFitCount(page, entries, n);
		bool		several = opaque->hi - opaque->lo > 1;
		int			done;

		ShCheckConflictIn(index, buf);
		if (k > 0)
		{
			ShAppendRunLogged(index, buf, entries, k);
			UnlockReleaseBuffer(buf);
			MarkWritten(table, entries, k);
			entries += k;
			n -= k;
			continue;
		}
		if (ShPageCanCompact(page, entries[0].fp))
		{
			ShCompactPage(index, buf);
			UnlockReleaseBuffer(buf);
			continue;
		}
		if (several && (chainfull || !ChainAllowed(layout, table, page, prefix)))
		{
			SplitBucket(index, layout, table, buf);
			continue;
		}
		done = AppendToChain(index, table, prefix, buf, entries, n,
							 !several ? INT_MAX : opaque->next == InvalidBlockNumber ? 1 : 0);
		entries += done;
		n -= done;
		chainfull = n > 0;
	}
}

/*
 * Adds one entry to block table `table` (ShInsertEntries).  Takes and
 * releases its own locks.
 */
void
ShInsertEntry(Relation index, const ShLayout *layout, int table,
			  uint64 fp, ItemPointer tid)
{
	ShNewEntry	entry;

	entry.fp = fp;
	entry.tid = *tid;
	entry.done = NULL;
	ShInsertEntries(index, layout, table, &entry, 1);
}
