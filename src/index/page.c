/*
 * index/page.c
 *	  Page-level helpers of the simhash index: the metapage and layout cache,
 *	  page initialisation and checks, allocation, and the bucket lookup.
 */
#include "index/shindex.h"

#include "miscadmin.h"
#include "storage/lmgr.h"
#include "utils/memutils.h"
#include "utils/rel.h"

/*
 * Reports a corrupt index.  Never returns.
 */
void
ShCorrupted(Relation index, const char *fmt,...)
{
	char		buf[512];
	va_list		args;

	va_start(args, fmt);
	vsnprintf(buf, sizeof(buf), fmt, args);
	va_end(args);
	ereport(ERROR,
			(errcode(ERRCODE_INDEX_CORRUPTED),
			 errmsg("index \"%s\" is corrupted", RelationGetRelationName(index)),
			 errdetail_internal("%s", buf),
			 errhint("Rebuild the index with REINDEX.")));
}

/*
 * Initialises an empty page of the given type.  For bucket and overflow
 * pages lo and hi are the prefix range; for a directory page lo is the chunk.
 */
void
ShInitPage(Page page, uint16 type, uint16 table, uint32 lo, uint32 hi)
{
	ShPageOpaque opaque;

	PageInit(page, BLCKSZ, sizeof(ShPageOpaqueData));
	opaque = ShPageGetOpaque(page);
	opaque->type = type;
	opaque->table = table;
	opaque->lo = lo;
	opaque->hi = hi;
	opaque->next = InvalidBlockNumber;
	opaque->nentries = 0;
	opaque->page_id = SH_PAGE_ID;
	((PageHeader) page)->pd_lower = SH_ENTRIES_OFFSET;
}

/*
 * THE TWO FORMS OF A BUCKET OR OVERFLOW PAGE
 *
 * Plain (14-byte entries) or single-value (the value, then 6-byte TIDs): see
 * SINGLE-VALUE PAGES in shindex.h.  The functions below are the only ones
 * that know how either form is laid out or when a page changes form;
 * callers ask whether an entry fits (ShPageHasRoom, ShPageFitCount), append
 * (ShAppendEntry), and, when a page is full, whether it can take the
 * single-value form (ShPageCanCompact, ShCompactPage).
 */

/* Puts an empty plain page (just initialised) in the single-value form. */
void
ShPageInitSingle(Page page, uint64 fp)
{
	ShPageOpaque opaque = ShPageGetOpaque(page);

	Assert(opaque->nentries == 0 && !ShPageIsSingle(page));
	opaque->type |= SH_PAGE_SINGLE;
	memcpy((char *) page + SH_ENTRIES_OFFSET, &fp, sizeof(uint64));
	((PageHeader) page)->pd_lower = ShPageUsed(page, 0);
}

/* Turns a single-value page into the plain form, which must take it. */
static void
ExpandPage(Page page)
{
	ShPageOpaque opaque = ShPageGetOpaque(page);
	uint64		fp = ShPageSingleValue(page);
	int			n = opaque->nentries;
	PGAlignedBlock tids;

	Assert(n <= (int) SH_PAGE_CAPACITY);
	memcpy(tids.data, ShPageSingleTid(page, 0), (Size) n * SH_TID_SIZE);
	opaque->type &= ~SH_PAGE_SINGLE;
	for (int i = 0; i < n; i++)
	{
		char	   *entry = ShPageEntry(page, i);

		memcpy(entry, &fp, sizeof(uint64));
		memcpy(entry + sizeof(uint64), tids.data + (Size) i * SH_TID_SIZE, SH_TID_SIZE);
	}
	((PageHeader) page)->pd_lower = ShPageUsed(page, n);
}

/*
 * Whether a page holding nentries entries, in the single-value form with
 * value `value` when single, takes one more entry of value fp; and if so,
 * updates *single as appending it would.  A single-value bucket with an
 * overflow page while it covers several prefixes keeps its form (the chain
 * rule in shindex.h), so it takes only its own value.
 */
static inline bool
Fits(ShPageOpaque opaque, bool *single, uint64 value, int nentries, uint64 fp)
{
	if (!*single)
		return nentries < (int) SH_PAGE_CAPACITY;
	if (fp == value)
		return nentries < (int) SH_SINGLE_CAPACITY;
	if (ShPageType(opaque) == SH_PAGE_BUCKET && opaque->next != InvalidBlockNumber &&
		opaque->hi - opaque->lo > 1)
		return false;
	if (nentries >= (int) SH_PAGE_CAPACITY)
		return false;
	*single = false;
	return true;
}

/* Starts counting what the bucket or overflow page takes. */
void
ShPageRoomInit(ShPageRoom *room, Page page)
{
	room->opaque = ShPageGetOpaque(page);
	room->single = ShPageIsSingle(page);
	room->value = room->single ? ShPageSingleValue(page) : 0;
	room->nentries = room->opaque->nentries;
}

/* Whether the page takes one more entry, of value fp; counts it if so. */
bool
ShPageRoomTake(ShPageRoom *room, uint64 fp)
{
	if (!Fits(room->opaque, &room->single, room->value, room->nentries, fp))
		return false;
	room->nentries++;
	return true;
}

/* Whether the bucket or overflow page takes an entry of value fp. */
bool
ShPageHasRoom(Page page, uint64 fp)
{
	ShPageRoom	room;

	ShPageRoomInit(&room, page);
	return ShPageRoomTake(&room, fp);
}

/* How many of entries[0 .. n), in order, the page takes. */
int
ShPageFitCount(Page page, const ShNewEntry *entries, int n)
{
	ShPageRoom	room;
	int			k = 0;

	ShPageRoomInit(&room, page);
	while (k < n && ShPageRoomTake(&room, entries[k].fp))
		k++;
	return k;
}

/*
 * Appends an entry to a bucket or overflow page that has room for it
 * (ShPageHasRoom), turning a single-value page into the plain form when
 * the entry has another value.
 */
void
ShAppendEntry(Page page, uint64 fp, ItemPointer tid)
{
	ShPageOpaque opaque = ShPageGetOpaque(page);
	char	   *entry;

	if (ShPageIsSingle(page))
	{
		if (fp == ShPageSingleValue(page))
		{
			Assert(opaque->nentries < SH_SINGLE_CAPACITY);
			memcpy(ShPageSingleTid(page, opaque->nentries), tid, SH_TID_SIZE);
			opaque->nentries++;
			((PageHeader) page)->pd_lower = ShPageUsed(page, opaque->nentries);
			return;
		}
		ExpandPage(page);
	}
	entry = ShPageEntry(page, opaque->nentries);
	Assert(opaque->nentries < SH_PAGE_CAPACITY);
	memcpy(entry, &fp, sizeof(uint64));
	memcpy(entry + sizeof(uint64), tid, sizeof(ItemPointerData));
	opaque->nentries++;
	((PageHeader) page)->pd_lower = ShPageUsed(page, opaque->nentries);
}

/*
 * Whether a full plain page should take the single-value form to make room
 * for an entry of value fp: every entry it holds has that value.
 */
bool
ShPageCanCompact(Page page, uint64 fp)
{
	ShPageOpaque opaque = ShPageGetOpaque(page);

	if (ShPageIsSingle(page) || opaque->nentries < SH_PAGE_CAPACITY)
		return false;
	for (int i = opaque->nentries - 1; i >= 0; i--)
		if (ShEntryFingerprint(ShPageEntry(page, i)) != fp)
			return false;
	return true;
}

/*
 * Puts the page in buf (exclusive-locked; ShPageCanCompact said yes) in the
 * single-value form, in a WAL record of its own that also sets a format 1
 * index's metapage version to 2 (locking the metapage last: the lock order
 * of shindex.h allows it).
 */
void
ShCompactPage(Relation index, Buffer buf)
{
	ShAmCache  *cache;
	Buffer		metabuf = InvalidBuffer;
	GenericXLogState *state;
	Page		page;
	ShPageOpaque opaque;
	uint64		fp;
	int			n;

	ShGetLayout(index);
	cache = (ShAmCache *) index->rd_amcache;
	if (cache->version < SH_VERSION)
	{
		metabuf = ReadBuffer(index, SH_METAPAGE_BLKNO);
		LockBuffer(metabuf, BUFFER_LOCK_EXCLUSIVE);
		cache->version = ShCheckMeta(index, BufferGetPage(metabuf))->version;
		if (cache->version >= SH_VERSION)
		{
			UnlockReleaseBuffer(metabuf);
			metabuf = InvalidBuffer;
		}
	}

	state = GenericXLogStart(index);
	page = GenericXLogRegisterBuffer(state, buf, 0);
	opaque = ShPageGetOpaque(page);
	fp = ShEntryFingerprint(ShPageEntry(page, 0));
	n = opaque->nentries;
	/* TID i moves from byte 32 + 14 i to 32 + 6 i: forwards, no overlap ahead */
	for (int i = 0; i < n; i++)
		memmove(ShPageSingleTid(page, i), ShPageEntry(page, i) + sizeof(uint64), SH_TID_SIZE);
	opaque->type |= SH_PAGE_SINGLE;
	memcpy((char *) page + SH_ENTRIES_OFFSET, &fp, sizeof(uint64));
	((PageHeader) page)->pd_lower = ShPageUsed(page, n);
	if (BufferIsValid(metabuf))
		ShPageGetMeta(GenericXLogRegisterBuffer(state, metabuf, 0))->version = SH_VERSION;
	GenericXLogFinish(state);
	if (BufferIsValid(metabuf))
	{
		UnlockReleaseBuffer(metabuf);
		cache->version = SH_VERSION;
	}
}

/*
 * Removes entries dead[0 .. ndead), in increasing order, from a bucket or
 * overflow page, compacting the rest; the page keeps its form.
 */
void
ShPageRemoveEntries(Page page, const OffsetNumber *dead, int ndead)
{
	ShPageOpaque opaque = ShPageGetOpaque(page);
	bool		single = ShPageIsSingle(page);
	Size		size = single ? SH_TID_SIZE : SH_ENTRY_SIZE;
	char	   *base = (char *) page + (single ? SH_SINGLE_TIDS_OFFSET : SH_ENTRIES_OFFSET);
	int			keep = 0;
	int			d = 0;

	for (int i = 0; i < opaque->nentries; i++)
	{
		if (d < ndead && dead[d] == i)
		{
			d++;
			continue;
		}
		if (keep != i)
			memmove(base + keep * size, base + i * size, size);
		keep++;
	}
	opaque->nentries = keep;
	((PageHeader) page)->pd_lower = ShPageUsed(page, keep);
}

/*
 * A split of a single-value bucket: moves every entry of src, its form and
 * its overflow chain to dst, a bucket page just initialised, and leaves src
 * an empty plain bucket without a chain.
 */
void
ShPageMoveEntries(Page dst, Page src)
{
	ShPageOpaque dopaque = ShPageGetOpaque(dst);
	ShPageOpaque sopaque = ShPageGetOpaque(src);
	Size		used = ((PageHeader) src)->pd_lower;

	Assert(dopaque->nentries == 0);
	memcpy((char *) dst + SH_ENTRIES_OFFSET, (char *) src + SH_ENTRIES_OFFSET,
		   used - SH_ENTRIES_OFFSET);
	dopaque->type = sopaque->type;
	dopaque->nentries = sopaque->nentries;
	dopaque->next = sopaque->next;
	((PageHeader) dst)->pd_lower = used;
	sopaque->type &= SH_PAGE_TYPE_MASK;
	sopaque->nentries = 0;
	sopaque->next = InvalidBlockNumber;
	((PageHeader) src)->pd_lower = SH_ENTRIES_OFFSET;
}

/*
 * Checks the metapage's magic number and version and returns its contents.
 * Raises ERRCODE_INDEX_CORRUPTED (naming the index) when they are wrong.
 */
ShMetaPageData *
ShCheckMeta(Relation index, Page page)
{
	ShMetaPageData *meta = ShPageGetMeta(page);

	if (PageIsNew(page) || ShPageGetOpaque(page)->type != SH_PAGE_META ||
		meta->magic != SH_MAGIC)
		ShCorrupted(index, "The metapage has no simhash index magic number.");
	if (meta->version < SH_MIN_VERSION || meta->version > SH_VERSION)
		ShCorrupted(index, "The on-disk format version is %u; this library reads versions %d to %d.",
					meta->version, SH_MIN_VERSION, SH_VERSION);
	if (meta->ntables < 1 || meta->ntables > SH_MAX_TABLES)
		ShCorrupted(index, "The metapage records %u block tables.", meta->ntables);
	return meta;
}

/*
 * Checks that a page read from blkno has the expected type (and table, when
 * table >= 0) and returns its special space.  Pass type 0 to accept a bucket
 * or an overflow page.
 */
ShPageOpaque
ShCheckPage(Relation index, Page page, BlockNumber blkno, int type, int table)
{
	ShPageOpaque opaque;
	int			ptype;

	if (PageIsNew(page) ||
		PageGetSpecialSize(page) != MAXALIGN(sizeof(ShPageOpaqueData)))
		ShCorrupted(index, "Block %u is not a simhash index page.", blkno);
	opaque = ShPageGetOpaque(page);
	if (opaque->page_id != SH_PAGE_ID)
		ShCorrupted(index, "Block %u is not a simhash index page.", blkno);
	ptype = ShPageType(opaque);
	if (type != 0 ? ptype != type :
		(ptype != SH_PAGE_BUCKET && ptype != SH_PAGE_OVERFLOW))
		ShCorrupted(index, "Block %u has page type %u where %d was expected.",
					blkno, ptype, type);
	if ((opaque->type & ~SH_PAGE_TYPE_MASK) != 0 &&
		(opaque->type & ~SH_PAGE_TYPE_MASK) != SH_PAGE_SINGLE)
		ShCorrupted(index, "Block %u has unknown page flags %04x.", blkno, opaque->type);
	if (ShPageIsSingle(page) && ptype != SH_PAGE_BUCKET && ptype != SH_PAGE_OVERFLOW)
		ShCorrupted(index, "Block %u of type %d is flagged single-value.", blkno, ptype);
	if (table >= 0 && opaque->table != table)
		ShCorrupted(index, "Block %u belongs to block table %u where %d was expected.",
					blkno, opaque->table, table);
	if (ptype != SH_PAGE_DIR &&
		opaque->nentries > (ShPageIsSingle(page) ? SH_SINGLE_CAPACITY : SH_PAGE_CAPACITY))
		ShCorrupted(index, "Block %u claims %u entries.", blkno, opaque->nentries);
	return opaque;
}

/*
 * Returns the layout of an existing index, read from its metapage once and
 * then cached in rd_amcache (the options it derives from never change).
 */
const ShLayout *
ShGetLayout(Relation index)
{
	if (index->rd_amcache == NULL)
	{
		Buffer		buf;
		ShMetaPageData *meta;
		ShAmCache  *cache;

		cache = MemoryContextAllocZero(index->rd_indexcxt, sizeof(ShAmCache));
		ShInitRootCopy(&cache->roots, -1);
		buf = ReadBuffer(index, SH_METAPAGE_BLKNO);
		LockBuffer(buf, BUFFER_LOCK_SHARE);
		meta = ShCheckMeta(index, BufferGetPage(buf));
		ShLayoutFromOptions(&cache->layout, meta->ntables, meta->fillfactor);
		cache->version = meta->version;
		UnlockReleaseBuffer(buf);
		cache->hints = NULL;
		index->rd_amcache = cache;
	}
	return &((ShAmCache *) index->rd_amcache)->layout;
}

/*
 * Forgets what rd_amcache holds.  For a build into a relation file that may
 * have held an earlier index (TRUNCATE of a table created in the same
 * transaction empties and rebuilds its indexes in place, keeping the file).
 */
void
ShResetAmCache(Relation index)
{
	if (index->rd_amcache != NULL)
		pfree(index->rd_amcache);
	index->rd_amcache = NULL;
}

/*
 * Returns a new page at the end of the index, pinned and exclusive-locked,
 * still all zeroes: the caller initialises it inside a generic WAL record
 * registered with GENERIC_XLOG_FULL_IMAGE.
 */
Buffer
ShNewBuffer(Relation index)
{
	Buffer		buf;

	LockRelationForExtension(index, ExclusiveLock);
	buf = ReadBuffer(index, P_NEW);
	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	UnlockRelationForExtension(index, ExclusiveLock);
	return buf;
}

/*
 * THE BUCKET LOOKUP
 *
 * Every way to a bucket goes through ShLockBucket: the chunk's root slot in
 * the metapage, then, when the chunk's dirmask bit is set, its entry on the
 * chunk's directory page, then the bucket, one buffer lock at a time (see
 * LOCKING in shindex.h).  Callers differ only in what they remember between
 * lookups: nothing (each lookup reads the metapage), a copy of the root
 * slots (inserts keep every table's in rd_amcache; a scan keeps the one
 * table's it reads), and a copy of the last directory page (a scan, which
 * visits prefixes in increasing order and so reads each directory page
 * once).  A copy may be stale: the bucket it leads to was split since and
 * no longer covers the prefix.  The bucket's header says so, because a
 * split rewrites both halves in one WAL record; the lookup then forgets
 * its copies and starts again from the metapage.
 */

/* Prepares an empty copy of the root slots of `table` (-1: every table). */
void
ShInitRootCopy(ShRootCopy *roots, int table)
{
	roots->valid = false;
	roots->table = table;
}

/* Prepares an empty copy of a directory page. */
void
ShInitDirCopy(ShDirCopy *dir)
{
	dir->table = -1;
	dir->chunk = -1;
}

/* Copies the root slots that roots is for from the metapage. */
static void
CopyRoots(Relation index, ShRootCopy *roots)
{
	Buffer		buf = ReadBuffer(index, SH_METAPAGE_BLKNO);
	ShMetaPageData *meta;
	int			t = roots->table;

	LockBuffer(buf, BUFFER_LOCK_SHARE);
	meta = ShCheckMeta(index, BufferGetPage(buf));
	if (t < 0)
	{
		memcpy(roots->dirmask, meta->dirmask, sizeof(roots->dirmask));
		memcpy(roots->root, meta->root, sizeof(roots->root));
	}
	else
	{
		roots->dirmask[t] = meta->dirmask[t];
		memcpy(roots->root[t], meta->root[t], sizeof(roots->root[t]));
	}
	roots->valid = true;
	UnlockReleaseBuffer(buf);
}

/*
 * Returns the root slot of chunk `chunk` of `table`, and in *isdir whether
 * it points at a directory page: from the copy roots (filled in first if
 * empty, which also empties dir), or from the metapage when roots is NULL.
 */
static BlockNumber
RootSlot(Relation index, ShRootCopy *roots, ShDirCopy *dir, int table,
		 int chunk, bool *isdir)
{
	if (roots == NULL)
	{
		Buffer		buf = ReadBuffer(index, SH_METAPAGE_BLKNO);
		ShMetaPageData *meta;
		BlockNumber blkno;

		LockBuffer(buf, BUFFER_LOCK_SHARE);
		meta = ShCheckMeta(index, BufferGetPage(buf));
		blkno = meta->root[table][chunk];
		*isdir = (meta->dirmask[table] >> chunk) & 1;
		UnlockReleaseBuffer(buf);
		return blkno;
	}
	if (!roots->valid)
	{
		Assert(roots->table < 0 || roots->table == table);
		CopyRoots(index, roots);
		if (dir)
			dir->chunk = -1;
	}
	*isdir = (roots->dirmask[table] >> chunk) & 1;
	return roots->root[table][chunk];
}

/*
 * Returns the bucket block that directory page dirblk of `table` lists for
 * prefix: from the copy dir when it holds that page, otherwise read under a
 * share lock that is released on return (and copied into dir, if given).
 */
static BlockNumber
DirectoryEntry(Relation index, ShDirCopy *dir, int table, BlockNumber dirblk,
			   uint32 prefix)
{
	int			chunk = prefix >> SH_CHUNK_BITS;
	Buffer		buf;
	Page		page;
	BlockNumber blkno;

	if (dir && dir->chunk == chunk && dir->table == table)
		return dir->dir[prefix & (SH_CHUNK_SIZE - 1)];
	buf = ReadBuffer(index, dirblk);
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	page = BufferGetPage(buf);
	ShCheckPage(index, page, dirblk, SH_PAGE_DIR, table);
	if (dir)
	{
		memcpy(dir->dir, ShDirEntries(page), sizeof(dir->dir));
		dir->table = table;
		dir->chunk = chunk;
	}
	blkno = ShDirEntries(page)[prefix & (SH_CHUNK_SIZE - 1)];
	UnlockReleaseBuffer(buf);
	return blkno;
}

/*
 * Returns bucket blkno of the given table pinned and locked in mode if it
 * covers prefix; otherwise (it was split since the caller looked it up)
 * releases it and returns InvalidBuffer.  A block number that cannot be a
 * bucket is corruption.
 */
static Buffer
LockIfCovering(Relation index, int table, BlockNumber blkno, uint32 prefix,
			   int mode)
{
	Buffer		buf;
	ShPageOpaque opaque;

	if (blkno == SH_METAPAGE_BLKNO || blkno == InvalidBlockNumber)
		ShCorrupted(index, "Block table %d has no bucket for prefix %u.", table, prefix);
	buf = ReadBuffer(index, blkno);
	LockBuffer(buf, mode);
	opaque = ShCheckPage(index, BufferGetPage(buf), blkno, SH_PAGE_BUCKET, table);
	if (prefix >= opaque->lo && prefix < opaque->hi)
		return buf;
	UnlockReleaseBuffer(buf);
	return InvalidBuffer;
}

/*
 * Returns the bucket of block table `table` that covers `prefix`, pinned and
 * locked in `mode` (BUFFER_LOCK_SHARE or BUFFER_LOCK_EXCLUSIVE); the caller
 * releases it.  No other lock is held on entry or return.
 *
 * roots: a copy of the root slots to look up through (ShInitRootCopy; for
 * this table or all), filled in when empty and refreshed when it proves
 * stale; NULL reads the metapage on every attempt.  dir: a copy of the last
 * directory page read, for callers that visit a table's prefixes in
 * increasing order; NULL reads the directory page on every attempt.
 *
 * When the bucket reached no longer covers the prefix, a split moved the
 * prefix away since the lookup; the copies are forgotten and the lookup
 * repeated from the metapage.  That fresh lookup cannot lead back to the
 * same bucket: a split changes the bucket's range and the root slot or
 * directory entry in one WAL record, holding the bucket's lock until both
 * are written, so by the time we saw the narrowed range the way to the
 * prefix led elsewhere, and a range never widens again.  Leading back there
 * is therefore corruption, and anything else is progress: however many
 * splits a lookup races with (each adds a bucket, so there are finitely
 * many), it retries, and it never reports a race as corruption.
 */
Buffer
ShLockBucket(Relation index, int table, uint32 prefix, int mode,
			 ShRootCopy *roots, ShDirCopy *dir)
{
	int			chunk = prefix >> SH_CHUNK_BITS;
	BlockNumber missed = InvalidBlockNumber;

	for (;;)
	{
		bool		isdir;
		BlockNumber blkno = RootSlot(index, roots, dir, table, chunk, &isdir);
		Buffer		buf;

		if (isdir)
			blkno = DirectoryEntry(index, dir, table, blkno, prefix);
		if (blkno == missed)
			ShCorrupted(index, "Block table %d leads prefix %u to block %u, which does not cover it.",
						table, prefix, blkno);
		buf = LockIfCovering(index, table, blkno, prefix, mode);
		if (BufferIsValid(buf))
			return buf;
		/* Split since the copies were made: forget them, look again. */
		if (roots)
			roots->valid = false;
		if (dir)
			dir->chunk = -1;
		missed = blkno;
		CHECK_FOR_INTERRUPTS();
	}
}

/*
 * BUCKET HINTS
 *
 * A row written at once (an exclusion constraint's index, or
 * simhash.batch_inserts off) looks up a bucket in every table, and the
 * constraint's check a few more; through the root slots alone each lookup
 * also reads a directory page, a cold page more per table and row.
 * ShLockBucketCached remembers, in rd_amcache, the bucket each lookup found
 * and the prefix range it covered then, one slot per range of prefixes; a
 * later lookup of a prefix in that range goes straight to the bucket.  A
 * hint can only be stale, never wrong, for the reasons the root slots can
 * only be (insert.c): the block stays a bucket of that table and a split
 * only narrows its range.  So the bucket's header, checked under its lock,
 * says whether it still covers the prefix; if not, the lookup goes the long
 * way (ShLockBucket, through the cached root slots) and the slot is
 * refreshed with what it finds.
 */

/*
 * The number of hint slots per table, log 2: about two per bucket of the
 * index as it is now, between 2^10 and 2^13 (64 kB per table at most), and
 * no more than a table has prefixes.
 */
static int
HintBits(Relation index, const ShLayout *layout)
{
	double		buckets = (double) RelationGetNumberOfBlocks(index) / layout->ntables;
	int			maxbits = 0;
	int			bits = 10;

	for (int t = 0; t < layout->ntables; t++)
		maxbits = Max(maxbits, layout->pbits[t]);
	while (bits < 13 && (double) (1 << bits) < 2 * buckets)
		bits++;
	return Min(bits, maxbits);
}

/*
 * Returns rd_amcache with bucket hints (empty ones the first time), sized
 * for the index as it is now.  Only the paths that use them pay their
 * memory.  The hints live in the same allocation as the rest (the relcache
 * frees rd_amcache with one pfree), so adding them replaces rd_amcache: call
 * this before taking a pointer into it, never under one.
 */
ShAmCache *
ShGetHintedCache(Relation index)
{
	ShAmCache  *old;
	ShAmCache  *cache;
	int			hintbits;

	ShGetLayout(index);
	old = (ShAmCache *) index->rd_amcache;
	if (old->hints != NULL)
		return old;
	hintbits = HintBits(index, &old->layout);
	cache = MemoryContextAllocZero(index->rd_indexcxt,
								   MAXALIGN(sizeof(ShAmCache)) +
								   ((Size) old->layout.ntables << hintbits) * sizeof(ShBucketHint));
	memcpy(cache, old, sizeof(ShAmCache));
	cache->hintbits = hintbits;
	for (int t = 0; t < cache->layout.ntables; t++)
		cache->hintshift[t] = cache->layout.pbits[t] - Min(hintbits, cache->layout.pbits[t]);
	cache->hints = (ShBucketHint *) ((char *) cache + MAXALIGN(sizeof(ShAmCache)));
	pfree(old);
	index->rd_amcache = cache;
	return cache;
}

/*
 * The hint slot of (table, prefix), or NULL when rd_amcache has no hints
 * (reset since ShGetHintedCache: a lookup then goes the long way).
 */
static ShBucketHint *
HintSlot(Relation index, int table, uint32 prefix)
{
	ShAmCache  *cache = (ShAmCache *) index->rd_amcache;

	if (cache == NULL || cache->hints == NULL)
		return NULL;
	return &cache->hints[((uint32) table << cache->hintbits) |
						 (prefix >> cache->hintshift[table])];
}

/* Whether the hint names a bucket that covered prefix when it was seen. */
static inline bool
HintCovers(const ShBucketHint *hint, uint32 prefix)
{
	return hint->blkno != SH_METAPAGE_BLKNO && prefix >= hint->lo && prefix <= hint->last;
}

/*
 * The hint for (table, prefix): its slot's, or, when a bucket boundary
 * falls inside the slot's prefixes and the slot remembers the bucket on the
 * other side, the neighbouring slot's on the prefix's side, which usually
 * remembers the right bucket (buckets span several slots).  NULL when
 * neither covers the prefix.  Without the neighbour, a slot straddling a
 * boundary would send a share of its lookups the long way for good, each
 * flipping the slot to the other bucket.
 */
static ShBucketHint *
FindHint(Relation index, int table, uint32 prefix)
{
	ShAmCache  *cache = (ShAmCache *) index->rd_amcache;
	ShBucketHint *hint = HintSlot(index, table, prefix);
	uint32		slot;

	if (hint == NULL || HintCovers(hint, prefix))
		return hint;
	if (hint->blkno == SH_METAPAGE_BLKNO)
		return NULL;
	slot = prefix >> cache->hintshift[table];
	if (prefix > hint->last && slot + 1 < ((uint32) 1 << cache->hintbits))
		hint++;
	else if (prefix < hint->lo && slot > 0)
		hint--;
	else
		return NULL;
	return HintCovers(hint, prefix) ? hint : NULL;
}

/*
 * Records that bucket blkno (read into buffer, or InvalidBuffer) covers the
 * prefixes [lo, last] of table: in every slot whose prefixes all lie in that
 * range, and in the slots at its edges that remember nothing yet.
 */
static void
HintRange(Relation index, int table, uint32 lo, uint32 last, BlockNumber blkno,
		  Buffer buffer)
{
	ShAmCache  *cache = (ShAmCache *) index->rd_amcache;
	int			shift = cache->hintshift[table];

	for (uint32 s = lo >> shift; s <= last >> shift; s++)
	{
		ShBucketHint *hint = &cache->hints[((uint32) table << cache->hintbits) | s];
		bool		inside = (s << shift) >= lo && ((s + 1) << shift) - 1 <= last;

		if (!inside && hint->blkno != SH_METAPAGE_BLKNO)
			continue;
		if (hint->blkno != blkno || BufferIsValid(buffer))
			hint->buffer = buffer;
		hint->blkno = blkno;
		hint->lo = (uint16) lo;
		hint->last = (uint16) last;
	}
}

/*
 * Pins the hinted bucket's block: through the buffer it was last read into
 * when that still holds it (no buffer mapping lookup, a cold cache line or
 * two per lookup in a large shared_buffers), else the usual way,
 * remembering the buffer.  Temporary indexes' local buffers are read the
 * usual way.
 */
static Buffer
ReadHintedBlock(Relation index, ShBucketHint *hint)
{
	Buffer		buf;

	if (BufferIsValid(hint->buffer) &&
		SIMHASH_READ_RECENT_BUFFER(index, hint->blkno, hint->buffer))
		return hint->buffer;
	buf = ReadBuffer(index, hint->blkno);
	hint->buffer = BufferIsLocal(buf) ? InvalidBuffer : buf;
	return buf;
}

/*
 * First half of ShLockBucketCached: pins the bucket that the hints say
 * covers prefix, without locking it, and asks the CPU for its header and
 * special space; returns InvalidBuffer when no hint covers the prefix.
 * Pinning the buckets of every table first lets their cache misses
 * overlap (a pin blocks no one: VACUUM takes no cleanup locks here).
 */
Buffer
ShPinHintedBucket(Relation index, int table, uint32 prefix)
{
	ShBucketHint *hint = FindHint(index, table, prefix);
	Buffer		buf;
	const char *page;

	if (hint == NULL)
		return InvalidBuffer;
	buf = ReadHintedBlock(index, hint);
	page = BufferGetPage(buf);
	__builtin_prefetch(page);
	__builtin_prefetch(page + BLCKSZ - 1);
	return buf;
}

/*
 * Second half: locks `pinned` (from ShPinHintedBucket, or InvalidBuffer) in
 * mode and returns it if it still covers prefix; otherwise releases it, looks
 * the bucket up the long way and refreshes the hint.  Returns the bucket of
 * `table` covering `prefix`, pinned and locked in `mode`.
 */
Buffer
ShLockPinnedBucket(Relation index, int table, uint32 prefix, int mode, Buffer pinned)
{
	ShBucketHint *hint;
	ShPageOpaque opaque;
	ShDirCopy	dir;
	Buffer		buf;

	if (BufferIsValid(pinned))
	{
		BlockNumber blkno = BufferGetBlockNumber(pinned);

		LockBuffer(pinned, mode);
		opaque = ShCheckPage(index, BufferGetPage(pinned), blkno, SH_PAGE_BUCKET, table);
		if (prefix >= opaque->lo && prefix < opaque->hi)
			return pinned;
		UnlockReleaseBuffer(pinned);	/* split since: go the long way */
	}
	ShGetLayout(index);
	ShInitDirCopy(&dir);
	buf = ShLockBucket(index, table, prefix, mode,
					   &((ShAmCache *) index->rd_amcache)->roots, &dir);
	opaque = ShPageGetOpaque(BufferGetPage(buf));
	if (HintSlot(index, table, prefix) == NULL)
		return buf;

	/*
	 * Learn the whole chunk from the directory page the lookup read, if it
	 * read one, so that a backend's first lookups do not each go the long
	 * way; then the bucket found, with its buffer.
	 */
	if (dir.chunk == (int) (prefix >> SH_CHUNK_BITS) && dir.table == table)
	{
		uint32		base = (uint32) dir.chunk << SH_CHUNK_BITS;
		uint32		end = ShChunkEnd(&((ShAmCache *) index->rd_amcache)->layout,
									 table, dir.chunk) - base;

		for (uint32 a = 0, b; a < end; a = b)
		{
			for (b = a + 1; b < end && dir.dir[b] == dir.dir[a]; b++)
				;
			HintRange(index, table, base + a, base + b - 1, dir.dir[a], InvalidBuffer);
		}
	}
	HintRange(index, table, opaque->lo, opaque->hi - 1, BufferGetBlockNumber(buf),
			  BufferIsLocal(buf) ? InvalidBuffer : buf);
	hint = HintSlot(index, table, prefix);
	hint->blkno = BufferGetBlockNumber(buf);
	hint->lo = (uint16) opaque->lo;
	hint->last = (uint16) (opaque->hi - 1);
	hint->buffer = BufferIsLocal(buf) ? InvalidBuffer : buf;
	return buf;
}

/*
 * ShLockBucket for a caller that keeps no copies of its own: returns the
 * bucket of `table` covering `prefix`, pinned and locked in `mode`; no other
 * lock is held on entry or return.
 */
Buffer
ShLockBucketCached(Relation index, int table, uint32 prefix, int mode)
{
	return ShLockPinnedBucket(index, table, prefix, mode,
							  ShPinHintedBucket(index, table, prefix));
}
