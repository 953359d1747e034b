/*
 * index/wal.c
 *	  Appending entries to bucket and overflow pages under one generic WAL
 *	  record whose delta is written directly rather than computed.
 *
 * WHY NOT GenericXLogFinish FOR AN APPEND
 *
 * GenericXLogRegisterBuffer copies the whole page, and GenericXLogFinish
 * compares the copy with the page byte by byte over its used part (on a
 * bucket page: nearly all of it) to find what changed, then copies it back:
 * for a row written at once into four tables that is some 64 kB of copying
 * and 32 kB of byte comparisons, to find out that 18 bytes per page changed.
 * Profiled, it was over half the time of an unbatched insert (exclusion
 * constraints are always unbatched).  An append changes exactly three
 * regions of a page, all known in advance: pd_lower in the page header, the
 * new entries at the old pd_lower, and nentries in the special space.
 *
 * So ShAppendLogged writes the record GenericXLogFinish would have written,
 * itself: an RM_GENERIC_ID record with each page registered REGBUF_STANDARD
 * (full-page images after a checkpoint, hole omitted, as usual) and, as the
 * block's data, the delta in generic WAL's format: fragments of (offset,
 * length, bytes), offset and length each an OffsetNumber.  Core's
 * generic_redo replays it on standbys and in crash recovery like any generic
 * record: it copies each fragment into the page and zeroes the hole between
 * pd_lower and pd_upper.  A WAL-logged index's holes are zero (the append
 * writes into zeroes, and every other change goes through GenericXLogFinish,
 * which zeroes them), so the replayed page is the primary's, byte for byte;
 * an unlogged or temporary index's holes may hold old bytes, never read.
 * Nothing needs to be preloaded: the record is the generic resource
 * manager's.
 *
 * The delta format is internal to generic_xlog.c, though it has not changed
 * since PostgreSQL 9.6 (checked for 13 to 18).  SIMHASH_DIRECT_GENERIC_WAL
 * (compat.h) is set only for those versions; elsewhere the append takes
 * GenericXLogStart/RegisterBuffer/Finish, slower but the same record.
 * Assert-enabled builds check each hand-written delta by applying it to a
 * copy of the page as generic_redo would, and comparing.
 */
#include "index/shindex.h"

#include "access/xloginsert.h"
#include "miscadmin.h"

#ifdef SIMHASH_DIRECT_GENERIC_WAL
#include "access/rmgr.h"
#endif

/* A fragment's header in generic WAL: offset and length. */
typedef struct ShFragmentHeader
{
	OffsetNumber offset;
	OffsetNumber length;
} ShFragmentHeader;

/* A fragment that sets one uint16 field of the page. */
typedef struct ShFieldFragment
{
	ShFragmentHeader hdr;
	uint16		value;
} ShFieldFragment;

/*
 * What one page's delta holds besides the entries themselves: the new
 * pd_lower and the header of the entries' fragment (before them), and the
 * new nentries (after).
 */
typedef struct ShAppendDelta
{
	struct
	{
		ShFieldFragment lower;
		ShFragmentHeader entries;
	}			before;
	ShFieldFragment nentries;
} ShAppendDelta;

/* The fragment headers are copied as bytes: no padding may sneak in. */
StaticAssertDecl(sizeof(ShFragmentHeader) == 2 * sizeof(OffsetNumber),
				 "generic WAL fragment header");
StaticAssertDecl(sizeof(ShFieldFragment) == sizeof(ShFragmentHeader) + sizeof(uint16),
				 "generic WAL field fragment");

/* Appends app's entries to page, which has room for them (CheckRoom). */
static void
AppendPacked(Page page, const ShAppend *app)
{
	ShPageOpaque opaque = ShPageGetOpaque(page);
	PageHeader	hdr = (PageHeader) page;

	memcpy((char *) page + hdr->pd_lower, app->entries, (Size) app->n * app->width);
	opaque->nentries += app->n;
	hdr->pd_lower += app->n * app->width;
}

/*
 * Raises an error unless the page in app->buf has room for app's entries
 * between pd_lower and pd_upper (the callers check each page's room in its
 * own terms first: this cannot happen).
 */
static void
CheckRoom(Relation index, Page page, const ShAppend *app)
{
	PageHeader	hdr = (PageHeader) page;

	if ((Size) hdr->pd_lower + (Size) app->n * app->width > hdr->pd_upper)
		elog(ERROR, "no room for %d entries on block %u of simhash index \"%s\"",
			 app->n, BufferGetBlockNumber(app->buf), RelationGetRelationName(index));
}

#ifdef SIMHASH_DIRECT_GENERIC_WAL

/* Fills in *delta for app's append to page, before it is made. */
static void
PrepareDelta(ShAppendDelta *delta, Page page, const ShAppend *app)
{
	PageHeader	hdr = (PageHeader) page;
	ShPageOpaque opaque = ShPageGetOpaque(page);

	delta->before.lower.hdr.offset = offsetof(PageHeaderData, pd_lower);
	delta->before.lower.hdr.length = sizeof(uint16);
	delta->before.lower.value = hdr->pd_lower + app->n * app->width;
	delta->before.entries.offset = hdr->pd_lower;
	delta->before.entries.length = app->n * app->width;
	delta->nentries.hdr.offset = (char *) &opaque->nentries - (char *) page;
	delta->nentries.hdr.length = sizeof(uint16);
	delta->nentries.value = opaque->nentries + app->n;
}

#ifdef USE_ASSERT_CHECKING
/*
 * Checks that replaying the delta on before (the page as it was) gives
 * after, as generic_redo would: fragments copied in, hole zeroed.
 */
static void
CheckDelta(const char *before, Page after, const ShAppendDelta *delta,
		   const char *entries)
{
	PGAlignedBlock replay;
	PageHeader	hdr = (PageHeader) replay.data;

	memcpy(replay.data, before, BLCKSZ);
	memcpy(replay.data + delta->before.lower.hdr.offset, &delta->before.lower.value,
		   sizeof(uint16));
	memcpy(replay.data + delta->before.entries.offset, entries,
		   delta->before.entries.length);
	memcpy(replay.data + delta->nentries.hdr.offset, &delta->nentries.value,
		   sizeof(uint16));
	/*
	 * Compare all but the LSN (set by the record on both sides) and the hole:
	 * replay zeroes the hole, while a page of an unlogged or temporary index
	 * may keep old bytes there (GenericXLogFinish copies such pages whole),
	 * and nothing reads between pd_lower and pd_upper.
	 */
	Assert(memcmp(replay.data + sizeof(PageXLogRecPtr), (char *) after + sizeof(PageXLogRecPtr),
				  hdr->pd_lower - sizeof(PageXLogRecPtr)) == 0);
	Assert(memcmp(replay.data + hdr->pd_upper, (char *) after + hdr->pd_upper,
				  BLCKSZ - hdr->pd_upper) == 0);
}
#endif

/*
 * Appends entries to the pages in one WAL record (see the file header).
 * apps[i].buf is pinned and exclusive-locked and has room for apps[i].n
 * more entries, given as the page stores them (apps[i].width bytes each)
 * at apps[i].entries; the caller keeps the locks and releases the buffers.
 * Only appends: a change that rewrites a page (a split, a page changing
 * its form) goes through GenericXLogFinish.
 */
void
ShAppendLogged(Relation index, const ShAppend *apps, int napps)
{
	ShAppendDelta delta[MAX_GENERIC_XLOG_PAGES];
	bool		logged = RelationNeedsWAL(index);

#ifdef USE_ASSERT_CHECKING
	PGAlignedBlock before[MAX_GENERIC_XLOG_PAGES];
#endif

	Assert(napps > 0 && napps <= MAX_GENERIC_XLOG_PAGES);
	for (int i = 0; i < napps; i++)
	{
		Page		page = BufferGetPage(apps[i].buf);

		CheckRoom(index, page, &apps[i]);
		PrepareDelta(&delta[i], page, &apps[i]);
#ifdef USE_ASSERT_CHECKING
		memcpy(before[i].data, page, BLCKSZ);
#endif
	}

	if (logged)
		XLogBeginInsert();
	START_CRIT_SECTION();
	for (int i = 0; i < napps; i++)
	{
		Page		page = BufferGetPage(apps[i].buf);
		char	   *dst = (char *) page + delta[i].before.entries.offset;

		AppendPacked(page, &apps[i]);
		MarkBufferDirty(apps[i].buf);
		if (!logged)
			continue;
		XLogRegisterBuffer(i, apps[i].buf, REGBUF_STANDARD);
		XLogRegisterBufData(i, (char *) &delta[i].before, sizeof(delta[i].before));
		XLogRegisterBufData(i, dst, delta[i].before.entries.length);
		XLogRegisterBufData(i, (char *) &delta[i].nentries, sizeof(delta[i].nentries));
	}
	if (logged)
	{
		XLogRecPtr	lsn = XLogInsert(RM_GENERIC_ID, 0);

		for (int i = 0; i < napps; i++)
			PageSetLSN(BufferGetPage(apps[i].buf), lsn);
	}
	END_CRIT_SECTION();

#ifdef USE_ASSERT_CHECKING
	for (int i = 0; i < napps; i++)
		CheckDelta(before[i].data, BufferGetPage(apps[i].buf), &delta[i], apps[i].entries);
#endif
}

#else							/* !SIMHASH_DIRECT_GENERIC_WAL */

/* The same through the generic WAL API: GenericXLogFinish finds the delta. */
void
ShAppendLogged(Relation index, const ShAppend *apps, int napps)
{
	GenericXLogState *state = GenericXLogStart(index);

	for (int i = 0; i < napps; i++)
	{
		CheckRoom(index, BufferGetPage(apps[i].buf), &apps[i]);
		AppendPacked(GenericXLogRegisterBuffer(state, apps[i].buf, 0), &apps[i]);
	}
	GenericXLogFinish(state);
}

#endif							/* SIMHASH_DIRECT_GENERIC_WAL */

/* Packs an entry (SH_ENTRY_SIZE bytes at dst), as pages store it. */
void
ShPackEntry(char *dst, uint64 fp, ItemPointer tid)
{
	memcpy(dst, &fp, sizeof(uint64));
	memcpy(dst + sizeof(uint64), tid, sizeof(ItemPointerData));
}

/*
 * The bytes an entry of value fp takes when appended to page (which has
 * room for it): SH_ENTRY_SIZE on a plain page, SH_TID_SIZE on a
 * single-value page of value fp; 0 on a single-value page of another value,
 * which the entry turns back into the plain form: not an append, so the
 * caller goes through GenericXLogFinish (ShAppendEntry) instead.
 */
int
ShAppendWidth(Page page, uint64 fp)
{
	if (!ShPageIsSingle(page))
		return SH_ENTRY_SIZE;
	return fp == ShPageSingleValue(page) ? (int) SH_TID_SIZE : 0;
}

/* Packs an entry at dst in `width` bytes (ShAppendWidth, not 0). */
void
ShPackEntryAs(char *dst, int width, uint64 fp, ItemPointer tid)
{
	if (width == (int) SH_TID_SIZE)
		memcpy(dst, tid, SH_TID_SIZE);
	else
		ShPackEntry(dst, fp, tid);
}
