/*
 * index/shindex.h
 *	  The "simhash" index access method: exact Hamming-distance search with
 *	  pigeonhole block tables (Manku et al. 2007; Norouzi et al. 2014).
 *
 * ON-DISK FORMAT (version 2; version 1 is read and written too)
 *
 * The 64 bits of a fingerprint are cut into m blocks ("blocks" reloption,
 * 1..16), block 0 holding the most significant bits; when m does not divide
 * 64 the first 64 % m blocks are one bit wider.  For every block there is a
 * "table": a copy of every (fingerprint, heap TID) entry, found through the
 * value of that block.  Only the top P = min(width, 16) bits of a block (its
 * "prefix") direct the lookup; the rest is checked with the full fingerprint.
 *
 *   block 0          metapage: magic, format version, frozen options, and
 *                    per table a root array with one slot per "chunk" of
 *                    1024 consecutive prefixes
 *   other blocks     directory pages, bucket pages and overflow pages, in
 *                    any order (pages are appended, never freed or reused)
 *
 * The 64-bit value stored is the fingerprint (the center, for a simhash_ball
 * column) XOR the scope hash of the row's leading scope columns (scope.c);
 * a single-column index has no scope columns and stores the fingerprint
 * itself, so its format is the same as before scopes existed.  Prefixes,
 * buckets and entries below are of the stored value.
 *
 * A bucket page covers a contiguous range [lo, hi) of prefixes of one table
 * and holds every entry whose prefix lies in it, as packed 14-byte entries
 * (8-byte fingerprint, 6-byte heap TID) between the page header and
 * pd_lower ("plain" form, up to 581 entries), or, when every entry of the
 * page has one stored value, in the "single-value" form (format 2): the
 * value once, then packed 6-byte heap TIDs (up to 1,356 entries).  A root slot either points straight at a bucket covering the
 * whole chunk (possibly several chunks), or, when its bit in dirmask is set,
 * at a directory page holding one bucket block number per prefix of the
 * chunk.  A full bucket is split in two at the median prefix (a directory
 * page is created for the chunk when needed), or, when all its entries
 * share one prefix (or one chunk), right beside it; a full bucket that
 * covers a single prefix grows a chain of overflow pages instead.  This is an
 * extendible hash over the prefix space with a directory at full resolution,
 * so a lookup costs the same few page reads however much the table has grown
 * since the build: metapage, at most one directory page, the bucket.
 *
 * SINGLE-VALUE PAGES (format 2)
 *
 * Empty or boilerplate documents give one fingerprint thousands of times.
 * In the plain form a page holds 581 copies, and isolating the value by
 * splits costs a few pages per table (600 copies took 21 pages, 2.6x the
 * entries' 14 bytes each).  So a bucket or overflow page whose entries all
 * have one stored value takes the single-value form, flagged by
 * SH_PAGE_SINGLE in the high byte of ShPageOpaqueData.type: after the page
 * header the 8-byte value, then nentries 6-byte heap TIDs, pd_lower right
 * after the last.  Every page says its own form, so a chain may mix them.
 *  - A plain page converts when it is full and the entry to add has the
 *    value all its entries have (ShPageCanCompact, in a WAL record of its
 *    own).  A build writes the single-value form for a page whose entries
 *    all have one value (and more than a plain page takes).
 *  - A single-value page takes more copies of its value up to 1,356; an
 *    entry of another value turns it back into the plain form if the result
 *    fits (581 entries), else the page is full for that entry.  VACUUM
 *    removes TIDs and keeps the form (the value stays, even with no TIDs).
 *  - A full bucket whose page is single-value may grow ONE overflow page
 *    even while it covers several prefixes, for entries with the prefix of
 *    its value (the value itself, or others sharing its prefix), so that up
 *    to 2,712 copies of a value cost one or two pages per table and no
 *    splits.  Such a bucket's page stays in the single-value form (another
 *    value does not fit it).  When its overflow page is full too, or an
 *    entry of another prefix arrives, the bucket splits beside the value as
 *    any full bucket whose entries share one prefix does, and the chain
 *    goes with the half that holds the value's prefix.
 * Hence the rule for chains: every overflow page records the one prefix
 * [p, p+1) all its entries have, p = lo for a bucket of a single prefix,
 * else p = the prefix of the bucket page's value (then the page is
 * single-value and the chain one page long).  A format 1 index (0.1.0)
 * has only plain pages and chains on single-prefix buckets, which is a
 * format 2 index too: the library reads both, and the WAL record that
 * writes a format 1 index's first single-value page also sets the
 * metapage's version to 2, so that 0.1.0 refuses the index rather than
 * misread it.
 *
 * LOCKING
 *
 * Readers take one buffer lock at a time: metapage (share), directory page
 * (share), bucket (share).  Because a directory entry may be stale by the
 * time the bucket is locked, a reader checks that the bucket still covers
 * the prefix and retries from the metapage otherwise.  A split is a single
 * WAL record over at most four buffers (old bucket, new bucket, directory
 * page, metapage), so a bucket's header always tells the truth about where
 * its prefixes live.  Writers lock in the order bucket -> overflow pages ->
 * new pages -> directory page -> metapage, and hold nothing when they look a
 * bucket up, so there is no cycle with readers.  An insert may hold the
 * buckets of up to four tables at once, locked in table order (insert.c
 * argues why that cannot deadlock either); it pins them all before locking
 * the first (page.c's bucket hints), which makes nobody wait: this index
 * takes no cleanup locks.
 *
 * Predicate locks (SERIALIZABLE) are taken on bucket pages only: scans lock
 * each bucket they read, writers check the bucket they write into (also when
 * the entry goes to an overflow page), splits copy the locks (insert.c).
 */
#ifndef SHINDEX_H
#define SHINDEX_H

#include "postgres.h"

#include "access/amapi.h"
#include "access/generic_xlog.h"
#include "access/itup.h"
#include "nodes/pathnodes.h"
#include "storage/bufmgr.h"
#include "utils/rel.h"
#include "utils/relcache.h"

#include "type/simhash.h"
#include "index/index.h"

#define SH_MAGIC			0x53484958	/* "SHIX" */
#define SH_VERSION			2	/* 2: single-value pages (format comment) */
#define SH_MIN_VERSION		1	/* oldest format read and written */

#define SH_METAPAGE_BLKNO	0
#define SH_MAX_TABLES		16
#define SH_MAX_PREFIX_BITS	16
#define SH_CHUNK_BITS		10
#define SH_CHUNK_SIZE		(1 << SH_CHUNK_BITS)	/* prefixes per directory page */
#define SH_MAX_CHUNKS		(1 << (SH_MAX_PREFIX_BITS - SH_CHUNK_BITS))

/* Defaults and ranges of the reloptions. */
#define SH_DEFAULT_BLOCKS		4
#define SH_DEFAULT_FILLFACTOR	90
#define SH_MIN_FILLFACTOR		10

/* Strategy numbers of the operator class. */
#define SH_WITHIN_STRATEGY		1	/* simhash <@ simhash_ball */
#define SH_EQUAL_STRATEGY		2	/* simhash = simhash */
#define SH_DISTANCE_STRATEGY	3	/* simhash <-># simhash (what <-> becomes), ORDER BY */
#define SH_NEAR_STRATEGY		4	/* simhash_ball <@> simhash_ball */
#define SH_NSTRATEGIES			4
#define SH_SCOPE_STRATEGY		2	/* a scope column's = (scope.c) */

/* Support functions: only scope columns' operator classes have one. */
#define SH_SCOPE_HASH_PROC		1	/* (scope type, int8 seed) -> int8 hash */
#define SH_NPROCS				1

/* Page types, in ShPageOpaque.type. */
#define SH_PAGE_META		1
#define SH_PAGE_DIR			2
#define SH_PAGE_BUCKET		3
#define SH_PAGE_OVERFLOW	4
#define SH_PAGE_TYPE_MASK	0x00FF	/* the type; the high byte holds flags */
#define SH_PAGE_SINGLE		0x0100	/* bucket, overflow: single-value form */

#define SH_PAGE_ID			0xFF84	/* identifies our pages to tools */

/* Special space of every page. */
typedef struct ShPageOpaqueData
{
	uint16		type;			/* SH_PAGE_*, | SH_PAGE_SINGLE */
	uint16		table;			/* block table the page belongs to */
	uint32		lo;				/* bucket, overflow: first prefix covered;
								 * directory: chunk number */
	uint32		hi;				/* bucket, overflow: one past the last */
	BlockNumber next;			/* bucket, overflow: next overflow page */
	uint16		nentries;		/* bucket, overflow: entries on the page */
	uint16		page_id;		/* SH_PAGE_ID */
} ShPageOpaqueData;

typedef ShPageOpaqueData *ShPageOpaque;

#define ShPageGetOpaque(page) ((ShPageOpaque) PageGetSpecialPointer(page))

/* Entries: 8-byte fingerprint then ItemPointerData, packed, unaligned. */
#define SH_ENTRY_SIZE		(sizeof(uint64) + sizeof(ItemPointerData))
#define SH_ENTRIES_OFFSET	MAXALIGN(SizeOfPageHeaderData)
#define SH_PAGE_CAPACITY \
	((BLCKSZ - SH_ENTRIES_OFFSET - MAXALIGN(sizeof(ShPageOpaqueData))) / SH_ENTRY_SIZE)

#define ShPageEntry(page, i) \
	((char *) (page) + SH_ENTRIES_OFFSET + (Size) (i) * SH_ENTRY_SIZE)

/* Single-value pages: the value, then packed heap TIDs. */
#define SH_TID_SIZE			sizeof(ItemPointerData)
#define SH_SINGLE_TIDS_OFFSET	(SH_ENTRIES_OFFSET + sizeof(uint64))
#define SH_SINGLE_CAPACITY \
	((BLCKSZ - SH_SINGLE_TIDS_OFFSET - MAXALIGN(sizeof(ShPageOpaqueData))) / SH_TID_SIZE)

#define ShPageSingleTid(page, i) \
	((char *) (page) + SH_SINGLE_TIDS_OFFSET + (Size) (i) * SH_TID_SIZE)

static inline uint64
ShEntryFingerprint(const char *entry)
{
	uint64		fp;

	memcpy(&fp, entry, sizeof(uint64));
	return fp;
}

static inline void
ShEntryTid(const char *entry, ItemPointer tid)
{
	memcpy(tid, entry + sizeof(uint64), sizeof(ItemPointerData));
}

static inline int
ShPageType(ShPageOpaque opaque)
{
	return opaque->type & SH_PAGE_TYPE_MASK;
}

/* Whether a bucket or overflow page is in the single-value form. */
static inline bool
ShPageIsSingle(Page page)
{
	return (ShPageGetOpaque(page)->type & SH_PAGE_SINGLE) != 0;
}

/* A single-value page's value. */
static inline uint64
ShPageSingleValue(Page page)
{
	uint64		fp;

	memcpy(&fp, (char *) page + SH_ENTRIES_OFFSET, sizeof(uint64));
	return fp;
}

/* The stored value of entry i of a bucket or overflow page, either form. */
static inline uint64
ShPageValue(Page page, int i)
{
	return ShPageIsSingle(page) ? ShPageSingleValue(page) :
		ShEntryFingerprint(ShPageEntry(page, i));
}

/* The heap TID of entry i of a bucket or overflow page, either form. */
static inline void
ShPageTid(Page page, int i, ItemPointer tid)
{
	if (ShPageIsSingle(page))
		memcpy(tid, ShPageSingleTid(page, i), SH_TID_SIZE);
	else
		ShEntryTid(ShPageEntry(page, i), tid);
}

/* pd_lower of a bucket or overflow page of its form with n entries. */
static inline Size
ShPageUsed(Page page, int n)
{
	return ShPageIsSingle(page) ? SH_SINGLE_TIDS_OFFSET + (Size) n * SH_TID_SIZE :
		SH_ENTRIES_OFFSET + (Size) n * SH_ENTRY_SIZE;
}

/* An entry to insert (ShInsertEntries), and where to record it written. */
typedef struct ShNewEntry
{
	uint64		fp;
	ItemPointerData tid;
	uint16	   *done;			/* bit t set once in table t, or NULL */
} ShNewEntry;

/*
 * An append to one page (ShAppendLogged): n entries of `width` bytes each,
 * exactly as the page stores them from pd_lower on (SH_ENTRY_SIZE: packed
 * fingerprint and heap TID).
 */
typedef struct ShAppend
{
	Buffer		buf;			/* pinned, exclusive-locked, with room */
	const char *entries;		/* n * width bytes */
	int			n;
	int			width;
} ShAppend;

/*
 * What a bucket or overflow page would still take, for a caller that
 * counts the entries of a run before appending them (ShPageRoomTake).
 */
typedef struct ShPageRoom
{
	ShPageOpaque opaque;
	bool		single;			/* in the single-value form, as it would be */
	uint64		value;			/* its value, if single */
	int			nentries;		/* entries, as it would hold */
} ShPageRoom;

/* Directory pages: one bucket block number per prefix of a chunk. */
#define ShDirEntries(page)	((BlockNumber *) ((char *) (page) + SH_ENTRIES_OFFSET))

/* Contents of the metapage, after the page header. */
typedef struct ShMetaPageData
{
	uint32		magic;			/* SH_MAGIC */
	uint32		version;		/* SH_VERSION */
	uint16		ntables;		/* number of blocks m, frozen at build */
	uint16		fillfactor;		/* build fill, percent, frozen at build */
	uint32		padding;
	uint64		dirmask[SH_MAX_TABLES]; /* bit c: root[t][c] is a directory */
	BlockNumber root[SH_MAX_TABLES][SH_MAX_CHUNKS];
} ShMetaPageData;

#define ShPageGetMeta(page)	((ShMetaPageData *) PageGetContents(page))

/* Reloptions as stored in rd_options. */
typedef struct ShOptions
{
	int32		vl_len_;		/* varlena header (do not touch directly!) */
	int			blocks;			/* number of blocks (tables) */
	int			fillfactor;		/* percentage of a bucket filled at build */
} ShOptions;

/*
 * The layout of an index, derived from the frozen options in the metapage
 * (or from the reloptions while building).  Cached in rd_amcache.
 */
typedef struct ShLayout
{
	int			ntables;
	int			fillfactor;
	int			target;			/* entries per bucket page at build */
	int			width[SH_MAX_TABLES];	/* bits in block t */
	int			shift[SH_MAX_TABLES];	/* position of block t's lowest bit */
	uint64		mask[SH_MAX_TABLES];	/* block t's bits, in place */
	int			pbits[SH_MAX_TABLES];	/* prefix bits of block t */
	int			pshift[SH_MAX_TABLES];	/* fp >> pshift & pmask = prefix */
	uint32		pmask[SH_MAX_TABLES];
	int			nchunks[SH_MAX_TABLES];
} ShLayout;

/*
 * What a bucket lookup (ShLockBucket, page.c) may remember between calls: a
 * copy of the metapage's root slots, of every table or of one, and a copy
 * of the last directory page read.  A copy may be stale but never wrong
 * (insert.c argues why); ShLockBucket refreshes it when a bucket it leads
 * to no longer covers the prefix.
 */
typedef struct ShRootCopy
{
	bool		valid;			/* root and dirmask hold the metapage's */
	int			table;			/* the one table copied, or -1: all */
	uint64		dirmask[SH_MAX_TABLES];
	BlockNumber root[SH_MAX_TABLES][SH_MAX_CHUNKS];
} ShRootCopy;

typedef struct ShDirCopy
{
	int			table;			/* whose directory page dir holds */
	int			chunk;			/* which one, or -1: none */
	BlockNumber dir[SH_CHUNK_SIZE];
} ShDirCopy;

/*
 * A bucket seen by a lookup (ShLockBucketCached): its block, the prefixes
 * [lo, last] it covered then, and the shared buffer it was read into (or
 * InvalidBuffer), tried first when the block is read again.  blkno 0 (the
 * metapage): none.
 */
typedef struct ShBucketHint
{
	BlockNumber blkno;
	uint16		lo;
	uint16		last;
	Buffer		buffer;
} ShBucketHint;

/*
 * What rd_amcache holds: the layout, first, so that the cache can be used as
 * a ShLayout, and a copy of every table's root slots that inserts look
 * buckets up with.  Freed with the relcache entry; shbuild resets it.
 * One allocation (the relcache frees rd_amcache with one pfree): the bucket
 * hints follow the struct.
 */
typedef struct ShAmCache
{
	ShLayout	layout;
	ShRootCopy	roots;
	/* per table, the last overflow chain appended to (insert.c) */
	BlockNumber chainhead[SH_MAX_TABLES];	/* its first page, 0: none */
	BlockNumber chaintail[SH_MAX_TABLES];	/* a page of it with room */
	/*
	 * Bucket hints (page.c), after the struct in the same allocation, or
	 * NULL until a path that uses them asks (ShGetHintedCache): table t's
	 * slot for prefix p is hints[t << hintbits | p >> hintshift[t]].
	 */
	int			hintbits;
	int			hintshift[SH_MAX_TABLES];
	ShBucketHint *hints;
	uint32		version;		/* the metapage's format version, as read */
	bool		defer_known;	/* deferred.c: defer_radius computed */
	int			defer_radius;	/* ShDeferRadius of the index */
} ShAmCache;

static inline uint32
ShPrefix(const ShLayout *layout, int t, uint64 fp)
{
	return (uint32) (fp >> layout->pshift[t]) & layout->pmask[t];
}

/*
 * SERIALIZABLE: the predicate-lock target that stands for block value b of
 * table t (insert.c, "Predicate locks"): a block number no index reaches
 * (from 0xE0000000 up, below InvalidBlockNumber), from a hash of (t, b).
 * Two different keys may share one, which can only add conflicts.
 */
#define SH_KEY_LOCK_BASE	((BlockNumber) 0xE0000000)
#define SH_KEY_LOCK_MASK	((uint32) 0x0FFFFFFF)

static inline BlockNumber
ShKeyLockBlock(const ShLayout *layout, int t, uint64 fp)
{
	uint64		b = (fp & layout->mask[t]) >> layout->shift[t];
	uint64		h = (b + (uint64) t * UINT64CONST(0x9E3779B97F4A7C15)) * UINT64CONST(0xD6E8FEB86659FD93);

	h ^= h >> 32;
	return SH_KEY_LOCK_BASE + ((uint32) h & SH_KEY_LOCK_MASK);
}

/* Number of prefixes in chunk c of table t (1024, or fewer if P < 10). */
static inline uint32
ShChunkEnd(const ShLayout *layout, int t, int c)
{
	uint32		end = ((uint32) c + 1) << SH_CHUNK_BITS;

	return Min(end, (uint32) 1 << layout->pbits[t]);
}

/*
 * The probe plan of a radius search (probe.c, which states the pigeonhole
 * argument behind it).  Computed from the layout, the radius and the
 * index's size; the scan follows it and the cost estimate charges it.
 */
typedef struct ShProbePlan
{
	int			radius;			/* searched radius, 0..64 */
	int			probe[SH_MAX_TABLES];	/* s_t: enumeration radius of table
										 * t; negative: t is not probed */
	double		nvalues[SH_MAX_TABLES]; /* prefixes enumerated in table t */
	double		perTable;		/* bucket pages per table, at least 1 */
	double		pages;			/* bucket pages the probes read: per table
								 * Min(nvalues, perTable), summed */
} ShProbePlan;

/* handler.c */
/* SimhashIndexInit: see index.h */
extern void ShLayoutFromOptions(ShLayout *layout, int blocks, int fillfactor);
extern bytea *shoptions(Datum reloptions, bool validate);

/* page.c */
extern const ShLayout *ShGetLayout(Relation index);
extern ShAmCache *ShGetHintedCache(Relation index);
extern void ShResetAmCache(Relation index);
extern void ShInitPage(Page page, uint16 type, uint16 table, uint32 lo, uint32 hi);
extern ShMetaPageData *ShCheckMeta(Relation index, Page page);
extern ShPageOpaque ShCheckPage(Relation index, Page page, BlockNumber blkno,
								int type, int table);
extern Buffer ShNewBuffer(Relation index);
extern void ShInitRootCopy(ShRootCopy *roots, int table);
extern void ShInitDirCopy(ShDirCopy *dir);
extern Buffer ShLockBucket(Relation index, int table, uint32 prefix, int mode,
						   ShRootCopy *roots, ShDirCopy *dir);
extern Buffer ShLockBucketCached(Relation index, int table, uint32 prefix, int mode);
extern Buffer ShPinHintedBucket(Relation index, int table, uint32 prefix);
extern Buffer ShLockPinnedBucket(Relation index, int table, uint32 prefix, int mode,
								 Buffer pinned);
extern void ShCorrupted(Relation index, const char *fmt,...) pg_attribute_printf(2, 3);
extern void ShAppendEntry(Page page, uint64 fp, ItemPointer tid);
extern bool ShPageHasRoom(Page page, uint64 fp);
extern int	ShPageFitCount(Page page, const ShNewEntry *entries, int n);
extern void ShPageRoomInit(ShPageRoom *room, Page page);
extern bool ShPageRoomTake(ShPageRoom *room, uint64 fp);
extern bool ShPageCanCompact(Page page, uint64 fp);
extern void ShCompactPage(Relation index, Buffer buf);
extern void ShPageRemoveEntries(Page page, const OffsetNumber *dead, int ndead);
extern void ShPageMoveEntries(Page dst, Page src);
extern void ShPageInitSingle(Page page, uint64 fp);

/* scope.c */
extern uint64 ShScopeMix(Relation index, uint64 h, int attno, Datum value, bool isnull);
extern bool ShIndexKey(Relation index, Datum *values, bool *isnull, uint64 *key);
extern void ShCheckColumns(Relation index);

/* The fingerprint column (0-based): the last; the ones before are scopes. */
static inline int
ShFingerprintColumn(Relation index)
{
	return RelationGetNumberOfAttributes(index) - 1;
}

/* Whether column col (0-based) holds a simhash_ball (16 bytes) */
static inline bool
ShColumnIsBall(Relation index, int col)
{
	return TupleDescAttr(RelationGetDescr(index), col)->attlen == sizeof(SimhashBall);
}

/* probe.c */
extern void ShPlanProbes(ShProbePlan *plan, const ShLayout *layout, int radius,
						 BlockNumber nblocks);
extern bool ShProbesCostTable(const ShProbePlan *plan, double fullfactor);
extern uint32 *ShEnumeratePrefixes(const ShProbePlan *plan,
								   const ShLayout *layout, int t, uint32 prefix);
extern double ShWithinProbability(int radius);

/* build.c */
extern IndexBuildResult *shbuild(Relation heap, Relation index,
								 struct IndexInfo *indexInfo);
extern void shbuildempty(Relation index);
extern char *shbuildphasename(int64 phasenum);

/* insert.c */
extern bool shinsert(SIMHASH_AMINSERT_PARAMS(index, values, isnull, ht_ctid, heapRel,
											 checkUnique, indexInfo));
extern void ShCheckConflictIn(Relation index, Buffer buf);
extern void ShCheckKeyConflictsIn(Relation index, const ShLayout *layout, uint64 fp);
extern void ShInsertEntry(Relation index, const ShLayout *layout, int table,
						  uint64 fp, ItemPointer tid);
extern void ShInsertEntries(Relation index, const ShLayout *layout, int table,
							const ShNewEntry *entries, int n);
extern bool ShInsertGroup(Relation index, ShAmCache *cache, int first, int n,
						  uint64 fp, ItemPointer tid, bool prefetch, bool stash);

/* wal.c */
extern void ShAppendLogged(Relation index, const ShAppend *apps, int napps);
extern void ShAppendRunLogged(Relation index, Buffer buf, const ShNewEntry *entries, int n);
extern void ShPackEntry(char *dst, uint64 fp, ItemPointer tid);
extern int	ShAppendWidth(Page page, uint64 fp);
extern void ShPackEntryAs(char *dst, int width, uint64 fp, ItemPointer tid);

/* pending.c */
extern void ShPendingInit(void);
extern bool ShPendingAdd(Relation index, struct IndexInfo *indexInfo,
						 Relation heap, uint64 fp, ItemPointer tid);
extern void ShPendingFlush(Relation index);
extern void ShPendingForget(Relation index);
extern void ShPendingRescan(IndexScanDesc scan, ScanKey scankey, int nscankeys,
							ScanKey orderbys, int norderbys);

/* scan.c */
extern IndexScanDesc shbeginscan(Relation r, int nkeys, int norderbys);
extern void shrescan(IndexScanDesc scan, ScanKey scankey, int nscankeys,
					 ScanKey orderbys, int norderbys);
extern bool shgettuple(IndexScanDesc scan, ScanDirection dir);
extern int64 shgetbitmap(IndexScanDesc scan, TIDBitmap *tbm);
extern void shendscan(IndexScanDesc scan);
extern bool ShStashStart(Relation index, struct IndexInfo *indexInfo, Datum *values,
						 bool *isnull, uint64 key);
extern void ShStashPage(int t, Page page);
extern void ShStashFinish(bool complete);
extern void ShStashDefer(Relation index, uint64 key, int radius);
extern bool ShStashTakeDeferred(IndexScanDesc scan, ScanKey keys, int nkeys,
								int norderbys);
extern void ShScanDeferred(IndexScanDesc scan);

/* deferred.c */
extern int	ShDeferRadius(Relation index, struct IndexInfo *indexInfo, Relation heap);
extern bool ShDeferInsertedTuple(Relation heap, ItemPointer tid, CommandId *cid);
extern void ShDeferScanPage(const ShLayout *layout, int t, Page page, int radius,
							const ShNewEntry *run, int n, bool *suspect);
extern void ShDeferCheckRows(Relation index, int radius, const ShNewEntry *rows, int n);

/* vacuum.c */
extern IndexBulkDeleteResult *shbulkdelete(IndexVacuumInfo *info,
										   IndexBulkDeleteResult *stats,
										   IndexBulkDeleteCallback callback,
										   void *callback_state);
extern IndexBulkDeleteResult *shvacuumcleanup(IndexVacuumInfo *info,
											  IndexBulkDeleteResult *stats);

/* cost.c */
extern void ShCostInit(void);
extern void shcostestimate(PlannerInfo *root, IndexPath *path,
						   double loop_count, Cost *indexStartupCost,
						   Cost *indexTotalCost, Selectivity *indexSelectivity,
						   double *indexCorrelation, double *indexPages);

/* validate.c */
extern bool shvalidate(Oid opclassoid);

#endif							/* SHINDEX_H */
