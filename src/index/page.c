/*
 * index/page.c
 *	  Page-level helpers of the simhash index: the metapage and layout cache,
 *	  page initialisation and checks, allocation, and bucket lookup.
 */
#include "index/shindex.h"

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

/* Appends an entry to a bucket or overflow page that has room. */
void
ShAppendEntry(Page page, uint64 fp, ItemPointer tid)
{
	ShPageOpaque opaque = ShPageGetOpaque(page);
	char	   *entry = ShPageEntry(page, opaque->nentries);

	Assert(opaque->nentries < SH_PAGE_CAPACITY);
	memcpy(entry, &fp, sizeof(uint64));
	memcpy(entry + sizeof(uint64), tid, sizeof(ItemPointerData));
	opaque->nentries++;
	((PageHeader) page)->pd_lower = SH_ENTRIES_OFFSET + opaque->nentries * SH_ENTRY_SIZE;
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
	if (meta->version != SH_VERSION)
		ShCorrupted(index, "The on-disk format version is %u; this library reads version %d.",
					meta->version, SH_VERSION);
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

	if (PageIsNew(page) ||
		PageGetSpecialSize(page) != MAXALIGN(sizeof(ShPageOpaqueData)))
		ShCorrupted(index, "Block %u is not a simhash index page.", blkno);
	opaque = ShPageGetOpaque(page);
	if (opaque->page_id != SH_PAGE_ID)
		ShCorrupted(index, "Block %u is not a simhash index page.", blkno);
	if (type != 0 ? opaque->type != type :
		(opaque->type != SH_PAGE_BUCKET && opaque->type != SH_PAGE_OVERFLOW))
		ShCorrupted(index, "Block %u has page type %u where %d was expected.",
					blkno, opaque->type, type);
	if (table >= 0 && opaque->table != table)
		ShCorrupted(index, "Block %u belongs to block table %u where %d was expected.",
					blkno, opaque->table, table);
	if (opaque->type != SH_PAGE_DIR && opaque->nentries > SH_PAGE_CAPACITY)
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
		buf = ReadBuffer(index, SH_METAPAGE_BLKNO);
		LockBuffer(buf, BUFFER_LOCK_SHARE);
		meta = ShCheckMeta(index, BufferGetPage(buf));
		ShLayoutFromOptions(&cache->layout, meta->ntables, meta->fillfactor);
		UnlockReleaseBuffer(buf);
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
 * Returns the bucket block that directory page dirblk of the given table
 * lists for prefix, read under a share lock that is released on return.
 */
BlockNumber
ShDirectoryEntry(Relation index, int table, BlockNumber dirblk, uint32 prefix)
{
	Buffer		buf = ReadBuffer(index, dirblk);
	Page		page;
	BlockNumber blkno;

	LockBuffer(buf, BUFFER_LOCK_SHARE);
	page = BufferGetPage(buf);
	ShCheckPage(index, page, dirblk, SH_PAGE_DIR, table);
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
Buffer
ShLockIfCovering(Relation index, int table, BlockNumber blkno, uint32 prefix,
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
 * Returns the block number of the bucket that covered the prefix in the
 * given table when we looked.  No lock is held on return: the bucket may
 * have been split since (ShLockBucket checks and looks again).
 */
static BlockNumber
ShLookupBucket(Relation index, int table, uint32 prefix)
{
	Buffer		buf;
	ShMetaPageData *meta;
	int			chunk = prefix >> SH_CHUNK_BITS;
	BlockNumber blkno;
	bool		isdir;

	buf = ReadBuffer(index, SH_METAPAGE_BLKNO);
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	meta = ShCheckMeta(index, BufferGetPage(buf));
	blkno = meta->root[table][chunk];
	isdir = (meta->dirmask[table] >> chunk) & 1;
	UnlockReleaseBuffer(buf);

	return isdir ? ShDirectoryEntry(index, table, blkno, prefix) : blkno;
}

/*
 * Returns the bucket of block table `table` that covers `prefix`, pinned and
 * locked in `mode` (BUFFER_LOCK_SHARE or BUFFER_LOCK_EXCLUSIVE).  A split
 * between the directory lookup and the lock moves prefixes to a new bucket;
 * the bucket header is always truthful (splits are single WAL records), so
 * a bucket that no longer covers the prefix is released and the lookup
 * repeated.  The caller releases the buffer.
 */
Buffer
ShLockBucket(Relation index, const ShLayout *layout, int table, uint32 prefix,
			 int mode)
{
	int			retries = 0;

	for (;;)
	{
		Buffer		buf = ShLockIfCovering(index, table,
										   ShLookupBucket(index, table, prefix),
										   prefix, mode);

		if (BufferIsValid(buf))
			return buf;
		if (++retries > 1000)
			ShCorrupted(index, "No bucket of block table %d covers prefix %u.", table, prefix);
	}
}
