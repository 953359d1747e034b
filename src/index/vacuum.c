/*
 * index/vacuum.c
 *	  VACUUM for simhash indexes: removing dead entries and counting.
 *
 * Bulk delete reads every page in block order and removes, page by page
 * under an exclusive lock, the entries whose heap TID the callback reports
 * dead.  Entries never move except by a bucket split, which copies them
 * to a page appended at the end of the index under the old bucket's lock;
 * the loop re-reads the number of blocks when it reaches the end, so such
 * pages are visited too.  Pages are never freed.
 */
#include "index/shindex.h"

#include "commands/vacuum.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "utils/rel.h"

/*
 * Removes entries dead[0 .. ndead), in increasing order, from the bucket or
 * overflow page in buf (exclusive-locked), compacting the rest, in one WAL
 * record.  The page keeps its form (plain or single-value).
 */
static void
RemoveEntries(Relation index, Buffer buf, const OffsetNumber *dead, int ndead)
{
	GenericXLogState *state = GenericXLogStart(index);

	ShPageRemoveEntries(GenericXLogRegisterBuffer(state, buf, 0), dead, ndead);
	GenericXLogFinish(state);
}

/*
 * Visits every bucket and overflow page; with a callback, removes the dead
 * entries.  Fills stats: pages, entries of table 0 (one per indexed row),
 * and rows removed.
 */
static void
VacuumPages(IndexVacuumInfo *info, IndexBulkDeleteResult *stats,
			IndexBulkDeleteCallback callback, void *callback_state)
{
	Relation	index = info->index;
	BlockNumber nblocks = RelationGetNumberOfBlocks(index);
	BlockNumber blkno;
	double		tuples = 0;
	double		removed = 0;

	for (blkno = SH_METAPAGE_BLKNO + 1;; blkno++)
	{
		Buffer		buf;
		Page		page;
		ShPageOpaque opaque;
		int			ndead = 0;
		OffsetNumber *dead = NULL;

		if (blkno >= nblocks)
		{
			nblocks = RelationGetNumberOfBlocks(index);
			if (blkno >= nblocks)
				break;
		}
		SIMHASH_VACUUM_DELAY_POINT();

		buf = ReadBufferExtended(index, MAIN_FORKNUM, blkno, RBM_NORMAL, info->strategy);
		LockBuffer(buf, callback ? BUFFER_LOCK_EXCLUSIVE : BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);

		/* A page being added by a concurrent split is still new: skip it. */
		if (PageIsNew(page))
		{
			UnlockReleaseBuffer(buf);
			continue;
		}
		opaque = ShPageGetOpaque(page);
		if (PageGetSpecialSize(page) != MAXALIGN(sizeof(ShPageOpaqueData)) ||
			opaque->page_id != SH_PAGE_ID)
			ShCorrupted(index, "Block %u is not a simhash index page.", blkno);
		if (ShPageType(opaque) != SH_PAGE_BUCKET && ShPageType(opaque) != SH_PAGE_OVERFLOW)
		{
			UnlockReleaseBuffer(buf);
			continue;
		}
		ShCheckPage(index, page, blkno, 0, -1);

		if (callback)
		{
			for (int i = 0; i < opaque->nentries; i++)
			{
				ItemPointerData tid;

				ShPageTid(page, i, &tid);
				if (callback(&tid, callback_state))
				{
					if (dead == NULL)
						dead = palloc(sizeof(OffsetNumber) * opaque->nentries);
					dead[ndead++] = i;
				}
			}
		}

		if (ndead > 0)
			RemoveEntries(index, buf, dead, ndead);
		if (opaque->table == 0)
		{
			tuples += opaque->nentries;
			removed += ndead;
		}
		UnlockReleaseBuffer(buf);
		if (dead)
			pfree(dead);
	}

	stats->num_pages = nblocks;
	stats->num_index_tuples = tuples;
	stats->tuples_removed += removed;
	stats->estimated_count = false;
}

/* ambulkdelete: removes the entries of dead heap tuples. */
IndexBulkDeleteResult *
shbulkdelete(IndexVacuumInfo *info, IndexBulkDeleteResult *stats,
			 IndexBulkDeleteCallback callback, void *callback_state)
{
	if (stats == NULL)
		stats = palloc0(sizeof(IndexBulkDeleteResult));
	VacuumPages(info, stats, callback, callback_state);
	return stats;
}

/*
 * amvacuumcleanup: reports statistics; when no bulk delete ran in this
 * VACUUM, counts the entries (a read-only pass).
 */
IndexBulkDeleteResult *
shvacuumcleanup(IndexVacuumInfo *info, IndexBulkDeleteResult *stats)
{
	if (info->analyze_only)
		return stats;
	if (stats == NULL)
	{
		stats = palloc0(sizeof(IndexBulkDeleteResult));
		VacuumPages(info, stats, NULL, NULL);
	}
	return stats;
}
