/*
 * index/pending.c
 *	  Batching a transaction's inserts into a simhash index.
 *
 * Every registered page costs generic WAL a copy and a byte-by-byte
 * comparison of its used part, so one entry per bucket page per record is
 * dear.  Instead, aminsert collects a transaction's (fingerprint, TID)
 * pairs in backend memory (up to work_mem for all indexes together) and
 * writes them out sorted by prefix, table by table, so that every WAL
 * record appends all
 * the pending entries that belong to one bucket (a batch of a few rows is
 * written row by row instead, one record per row for up to four tables, as
 * unbatched rows are).  Entries only have to be
 * in the index before anybody could look for them:
 *
 *  - other backends cannot see the rows before the transaction commits:
 *    pending entries are written at PRE_COMMIT / PRE_PREPARE (an error
 *    there aborts the transaction); rows inserted after that write, by work
 *    that runs later in the commit sequence (another module's pre-commit
 *    callback, registered before ours), go straight into the index;
 *  - this backend's own index scans: amrescan writes the index's entries
 *    first (every scan, bitmap or not, starts with a rescan), and so does
 *    simhash_index_check;
 *  - parallel workers scan on the leader's behalf: ExecutorStart writes
 *    everything before a plan that may use workers runs;
 *  - exclusion constraints check other transactions' uncommitted rows with a
 *    dirty snapshot, and the core checks each row right after its aminsert:
 *    an exclusion index batches only the rows of a command past its
 *    SMALL_BATCH-th, when deferred.c can check them where they are written
 *    (a constant radius below m, ...), and writes and checks them before
 *    the statement ends (ExecutorFinish of a modifying query, the end of a
 *    utility statement such as COPY), see THE DEFERRED CHECK in
 *    deferred.c; the core's own check of such a row returns nothing
 *    (ShStashDefer).
 *
 * and entries must never point at the wrong heap tuple:
 *
 *  - a subtransaction that aborts leaves dead tuples that pruning and
 *    VACUUM may free and reuse before we commit; its entries (recorded with
 *    their subtransaction id; ids grow, so "id >= the aborted one" is the
 *    subtransaction and its children) are dropped at once;
 *  - utility statements may rebuild the index (REINDEX, TRUNCATE, table
 *    rewrites: new or emptied file, built from the heap) or copy it (SET
 *    TABLESPACE), and a later ROLLBACK TO may bring an old file back:
 *    everything pending is written before any utility statement other than
 *    transaction control runs, and shbuild drops what is pending for the
 *    index it builds;
 *  - an error half-way through writing: each entry has one bit per table
 *    that is set once the record holding it is written, so writing again
 *    resumes without duplicates.
 */
#include "index/shindex.h"

#include "access/parallel.h"
#include "access/relation.h"
#include "access/relscan.h"
#include "access/xact.h"
#include "catalog/pg_class.h"
#include "executor/executor.h"
#include "miscadmin.h"
#include "nodes/execnodes.h"
#include "tcop/utility.h"
#include "utils/guc.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"
#include "utils/rel.h"

typedef struct PendingEntry
{
	uint64		fp;
	ItemPointerData tid;
	uint16		done;			/* bit t: in table t already */
	uint16		seen;			/* exclusion: bit t, compared with table t's
								 * bucket while appended (deferred.c) */
	bool		suspect;		/* exclusion: a candidate within k found */
	SubTransactionId subid;		/* subtransaction that inserted it */
} PendingEntry;

typedef struct PendingIndex
{
	Oid			indexoid;
	int64		n;
	int64		cap;
	PendingEntry *entries;
	int			radius;			/* an exclusion index's constant k, its rows
								 * checked when written (deferred.c), or
								 * RADIUS_ROW_BY_ROW or RADIUS_NONE */
	CommandId	cid;			/* exclusion: the command inserting (its rows'
								 * cmin), */
	int64		cmdrows;		/* and the rows it has inserted so far */
	PendingEntry *unchecked;	/* exclusion: rows written whose core check
								 * waits for their subtransaction (below) */
	int64		nunchecked;
	int64		uncheckedcap;
	struct PendingIndex *next;
} PendingIndex;

/*
 * PendingIndex.radius of an exclusion index whose rows are never batched
 * (ShDeferRadius's -1), and of an index without an exclusion constraint.
 */
#define RADIUS_ROW_BY_ROW	(-1)
#define RADIUS_NONE			(-2)

/* Batches of at most this many rows are written row by row. */
#define SMALL_BATCH 16

/* Allocated in TopTransactionContext; NULL outside a transaction. */
static PendingIndex *pending = NULL;

/*
 * The same, by index OID (aminsert finds its batch in O(1) however many
 * indexes have one), and the entries pending in all of them: one work_mem
 * budget per backend, not per index.
 */
typedef struct PendingSlot
{
	Oid			indexoid;		/* hash key */
	PendingIndex *pi;
} PendingSlot;

static HTAB *pending_by_oid = NULL;
static int64 pending_total = 0;

/* simhash.batch_inserts */
static bool batch_inserts = true;

/* Set once the pending entries have been written at PRE_COMMIT/PRE_PREPARE. */
static bool written_for_commit = false;
static ProcessUtility_hook_type prev_ProcessUtility = NULL;
static ExecutorStart_hook_type prev_ExecutorStart = NULL;
static ExecutorFinish_hook_type prev_ExecutorFinish = NULL;

static void ShPendingFlushAll(bool exclusion_only);

/* Sets the number of entries pending in pi, keeping pending_total. */
static void
SetPendingCount(PendingIndex *pi, int64 n)
{
	pending_total += n - pi->n;
	pi->n = n;
}

/*
 * The pending entries keys[0 .. n) name (the low 32 bits of each key), as
 * new entries whose done bits are the pending entries' own; palloc'd.
 */
static ShNewEntry *
GatherRun(PendingIndex *pi, const uint64 *keys, int64 n)
{
	ShNewEntry *run = palloc(sizeof(ShNewEntry) * n);

	for (int64 k = 0; k < n; k++)
	{
		PendingEntry *e = &pi->entries[(uint32) keys[k]];

		run[k].fp = e->fp;
		run[k].tid = e->tid;
		run[k].done = &e->done;
	}
	return run;
}

/*
 * Compares the run about to be appended to table t's bucket page (pending
 * entries keys[0 .. n), sorted by prefix) with the page: see deferred.c.
 */
static void
DeferScanPage(const ShLayout *layout, PendingIndex *pi, int table, Page page,
			  const uint64 *keys, const ShNewEntry *run, int n)
{
	bool	   *suspect = palloc0(sizeof(bool) * n);

	ShDeferScanPage(layout, table, page, pi->radius, run, n, suspect);
	for (int k = 0; k < n; k++)
	{
		PendingEntry *e = &pi->entries[(uint32) keys[k]];

		e->seen |= 1 << table;
		e->suspect |= suspect[k];
	}
	pfree(suspect);
}

/*
 * Appends the pending entries of one table, sorted by prefix, keys[i] =
 * prefix << 32 | entry number, a bucket per WAL record.
 */
static void
FlushTable(Relation index, ShAmCache *cache, PendingIndex *pi, int table,
		   uint64 *keys, int64 nkeys)
{
	const ShLayout *layout = &cache->layout;
	int64		i = 0;

	while (i < nkeys)
	{
		uint32		prefix = (uint32) (keys[i] >> 32);
		Buffer		buf = ShLockBucket(index, table, prefix, BUFFER_LOCK_EXCLUSIVE,
										   &cache->roots, NULL);
		Page		page = BufferGetPage(buf);
		ShPageOpaque opaque = ShPageGetOpaque(page);
		ShPageRoom	room;
		int64		j = i;

		ShCheckConflictIn(index, buf);

		ShPageRoomInit(&room, page);
		while (j < nkeys && (uint32) (keys[j] >> 32) < opaque->hi &&
			   ShPageRoomTake(&room, pi->entries[(uint32) keys[j]].fp))
			j++;
		if (j > i)
		{
			ShNewEntry *run = GatherRun(pi, keys + i, j - i);

			/*
			 * An exclusion index's deferred check of this table: under the
			 * lock we append under, before appending (deferred.c).
			 */
			if (table <= pi->radius && opaque->next == InvalidBlockNumber)
				DeferScanPage(layout, pi, table, page, keys + i, run, (int) (j - i));
			ShAppendRunLogged(index, buf, run, (int) (j - i));
			pfree(run);
			UnlockReleaseBuffer(buf);
			for (int64 k = i; k < j; k++)
				pi->entries[(uint32) keys[k]].done |= 1 << table;
			i = j;
		}
		else
		{
			/*
			 * Full: the per-table path splits it or extends its chain, with
			 * every entry of this prefix at once (a page's worth per WAL
			 * record) when the bucket holds only this prefix or one value.
			 */
			ShNewEntry *run;

			j = i + 1;
			if (opaque->hi - opaque->lo == 1 || ShPageIsSingle(page))
				while (j < nkeys && (uint32) (keys[j] >> 32) == prefix)
					j++;
			UnlockReleaseBuffer(buf);
			run = GatherRun(pi, keys + i, j - i);
			ShInsertEntries(index, layout, table, run, (int) (j - i));
			pfree(run);
			i = j;
		}
		CHECK_FOR_INTERRUPTS();
	}
}

/*
 * Writes a few pending entries row by row: one WAL record per row for up to
 * four tables (ShInsertGroup) costs less than one per bucket when hardly
 * any two entries share a bucket.  A table whose bit is set is skipped.
 */
static void
FlushRows(Relation index, ShAmCache *cache, PendingIndex *pi)
{
	const ShLayout *layout = &cache->layout;

	for (int64 i = 0; i < pi->n; i++)
	{
		PendingEntry *e = &pi->entries[i];

		for (int first = 0; first < layout->ntables; first += MAX_GENERIC_XLOG_PAGES)
		{
			int			n = Min(layout->ntables - first, MAX_GENERIC_XLOG_PAGES);
			uint16		mask = (uint16) (((1 << n) - 1) << first);

			if ((e->done & mask) == 0 &&
				ShInsertGroup(index, cache, first, n, e->fp, &e->tid, false, false))
				e->done |= mask;
			for (int t = first; t < first + n; t++)
			{
				if (!(e->done & (1 << t)))
				{
					ShInsertEntry(index, layout, t, e->fp, &e->tid);
					e->done |= 1 << t;
				}
			}
		}
	}
}

static int
CompareKeys(const void *a, const void *b)
{
	uint64		x = *(const uint64 *) a;
	uint64		y = *(const uint64 *) b;

	return (x > y) - (x < y);
}

/*
 * Error context of a batch being written: an error there (a cancel, no
 * space left) says which index, and at commit that the transaction is
 * rolled back rather than committed.
 */
static void
FlushErrorContext(void *arg)
{
	Relation	index = (Relation) arg;

	if (written_for_commit)
		errcontext("writing the batched entries of simhash index \"%s\" at commit; the transaction is rolled back",
				   RelationGetRelationName(index));
	else
		errcontext("writing the batched entries of simhash index \"%s\"",
				   RelationGetRelationName(index));
}

static void FlushPendingEntries(Relation index, PendingIndex *pi);
static void KeepRowsToCheck(PendingIndex *pi);
static void CheckRows(Relation index, PendingIndex *pi);

/*
 * Writes every pending entry of pi into index, then forgets them; then, for
 * an exclusion index, the deferred checks (deferred.c) that may run now,
 * with the errors and context they have row by row.
 */
static void
FlushPending(Relation index, PendingIndex *pi)
{
	ErrorContextCallback errcallback;

	if (pi->n > 0)
	{
		errcallback.callback = FlushErrorContext;
		errcallback.arg = (void *) index;
		errcallback.previous = error_context_stack;
		error_context_stack = &errcallback;
		FlushPendingEntries(index, pi);
		if (pi->radius >= 0)
			KeepRowsToCheck(pi);
		SetPendingCount(pi, 0);
		error_context_stack = errcallback.previous;
	}
	if (pi->nunchecked > 0)
		CheckRows(index, pi);
}

/*
 * Adds to pi->unchecked the rows of an exclusion index's batch, all
 * written, that need the core's check: suspects, and those some probed
 * table's bucket was not compared with (deferred.c).
 */
static void
KeepRowsToCheck(PendingIndex *pi)
{
	uint16		probed = (uint16) ((1 << (pi->radius + 1)) - 1);

	for (int64 i = 0; i < pi->n; i++)
	{
		PendingEntry *e = &pi->entries[i];

		if (!e->suspect && (e->seen & probed) == probed)
			continue;
		if (pi->nunchecked >= pi->uncheckedcap)
		{
			pi->uncheckedcap = Max(64, 2 * pi->uncheckedcap);
			if (pi->unchecked == NULL)
				pi->unchecked = MemoryContextAllocHuge(TopTransactionContext,
													   sizeof(PendingEntry) * pi->uncheckedcap);
			else
				pi->unchecked = repalloc_huge(pi->unchecked,
											  sizeof(PendingEntry) * pi->uncheckedcap);
		}
		pi->unchecked[pi->nunchecked++] = *e;
	}
}

/*
 * The core's check of the written rows of pi->unchecked that belong to the
 * current subtransaction or to ones it has released (subtransaction ids
 * grow, so: id >= the current one).  A row of an enclosing transaction
 * waits until the flush is back there (at the end of its statement, at
 * commit): a violation found inside a subtransaction could be caught by
 * its handler (a PL/pgSQL exception block) while the row stays.
 */
static void
CheckRows(Relation index, PendingIndex *pi)
{
	SubTransactionId current = GetCurrentSubTransactionId();
	ShNewEntry *rows = palloc_extended(sizeof(ShNewEntry) * pi->nunchecked, MCXT_ALLOC_HUGE);
	int64		n = 0,
				keep = 0;

	for (int64 i = 0; i < pi->nunchecked; i++)
	{
		PendingEntry *e = &pi->unchecked[i];

		if (e->subid >= current)
		{
			rows[n].fp = e->fp;
			rows[n].tid = e->tid;
			rows[n].done = NULL;
			n++;
		}
		else
			pi->unchecked[keep++] = *e;
	}
	pi->nunchecked = keep;
	if (n > 0)
		ShDeferCheckRows(index, pi->radius, rows, (int) n);
	pfree(rows);
}

static void
FlushPendingEntries(Relation index, PendingIndex *pi)
{
	const ShLayout *layout = ShGetLayout(index);
	ShAmCache  *cache = (ShAmCache *) index->rd_amcache;
	uint64	   *keys;

	/* SERIALIZABLE: the block values about to be written (insert.c) */
	for (int64 i = 0; i < pi->n && IsolationIsSerializable(); i++)
		ShCheckKeyConflictsIn(index, layout, pi->entries[i].fp);
	if (pi->n <= SMALL_BATCH)
	{
		FlushRows(index, cache, pi);
		return;
	}
	keys = palloc_extended(sizeof(uint64) * pi->n, MCXT_ALLOC_HUGE);
	for (int t = 0; t < layout->ntables; t++)
	{
		int64		nkeys = 0;

		for (int64 i = 0; i < pi->n; i++)
		{
			if (!(pi->entries[i].done & (1 << t)))
				keys[nkeys++] = ((uint64) ShPrefix(layout, t, pi->entries[i].fp) << 32) | (uint64) i;
		}
		qsort(keys, nkeys, sizeof(uint64), CompareKeys);
		FlushTable(index, cache, pi, t, keys, nkeys);
	}
	pfree(keys);
}

static PendingIndex *
FindPending(Oid indexoid)
{
	PendingSlot *slot;

	if (pending_by_oid == NULL)
		return NULL;
	slot = hash_search(pending_by_oid, &indexoid, HASH_FIND, NULL);
	return slot ? slot->pi : NULL;
}

/* Writes the pending entries of this index, if any. */
void
ShPendingFlush(Relation index)
{
	PendingIndex *pi = FindPending(RelationGetRelid(index));

	if (pi != NULL)
		FlushPending(index, pi);
}

/* Drops the pending entries of this index (it is being rebuilt). */
void
ShPendingForget(Relation index)
{
	PendingIndex *pi = FindPending(RelationGetRelid(index));

	if (pi != NULL)
		SetPendingCount(pi, 0);
}

/*
 * Writes everything pending, for every index still there (exclusion_only:
 * only what exclusion indexes batched).
 */
static void
ShPendingFlushAll(bool exclusion_only)
{
	for (PendingIndex *pi = pending; pi != NULL; pi = pi->next)
	{
		Relation	index;

		if ((pi->n == 0 && pi->nunchecked == 0) || (exclusion_only && pi->radius < 0))
			continue;
		index = try_relation_open(pi->indexoid, RowExclusiveLock);
		if (index == NULL)
		{
			/* dropped in this transaction */
			SetPendingCount(pi, 0);
			pi->nunchecked = 0;
			continue;
		}
		if (index->rd_rel->relkind == RELKIND_INDEX &&
			index->rd_indam != NULL && index->rd_indam->aminsert == shinsert)
			FlushPending(index, pi);
		else
			pi->nunchecked = 0;
		relation_close(index, NoLock);
		SetPendingCount(pi, 0);
	}
}

static void
PendingXactCallback(XactEvent event, void *arg)
{
	switch (event)
	{
		case XACT_EVENT_PRE_COMMIT:
		case XACT_EVENT_PRE_PREPARE:
			/* From here on, nothing waits: a later batch would be lost. */
			written_for_commit = true;
			ShPendingFlushAll(false);
			break;
		case XACT_EVENT_COMMIT:
		case XACT_EVENT_ABORT:
		case XACT_EVENT_PREPARE:
		case XACT_EVENT_PARALLEL_COMMIT:
		case XACT_EVENT_PARALLEL_ABORT:
			pending = NULL;		/* freed with TopTransactionContext */
			pending_by_oid = NULL;
			pending_total = 0;
			written_for_commit = false;
			break;
		default:
			break;
	}
}

static void
PendingSubXactCallback(SubXactEvent event, SubTransactionId mySubid,
					   SubTransactionId parentSubid, void *arg)
{
	if (event != SUBXACT_EVENT_ABORT_SUB)
		return;
	for (PendingIndex *pi = pending; pi != NULL; pi = pi->next)
	{
		int64		keep = 0;

		for (int64 i = 0; i < pi->n; i++)
		{
			if (pi->entries[i].subid >= mySubid)
				continue;
			pi->entries[keep++] = pi->entries[i];
		}
		SetPendingCount(pi, keep);
		keep = 0;
		for (int64 i = 0; i < pi->nunchecked; i++)
		{
			if (pi->unchecked[i].subid >= mySubid)
				continue;
			pi->unchecked[keep++] = pi->unchecked[i];
		}
		pi->nunchecked = keep;
	}
}

static void
PendingProcessUtility(SIMHASH_PROCESS_UTILITY_PARAMS)
{
	if (pending != NULL && !IsA(pstmt->utilityStmt, TransactionStmt))
		ShPendingFlushAll(false);
	if (prev_ProcessUtility)
		prev_ProcessUtility(SIMHASH_PROCESS_UTILITY_ARGS);
	else
		standard_ProcessUtility(SIMHASH_PROCESS_UTILITY_ARGS);
	/* COPY's rows: checked before the statement ends */
	if (pending != NULL && !IsA(pstmt->utilityStmt, TransactionStmt))
		ShPendingFlushAll(true);
}

/*
 * The end of a query: an exclusion index's batch is written and checked
 * before its statement ends (deferred.c); after the standard finish, which
 * runs the rest of a data-modifying WITH and the AFTER triggers.
 */
static void
PendingExecutorFinish(QueryDesc *queryDesc)
{
	bool		modifying = queryDesc->operation != CMD_SELECT ||
		queryDesc->plannedstmt->hasModifyingCTE;

	if (prev_ExecutorFinish)
		prev_ExecutorFinish(queryDesc);
	else
		standard_ExecutorFinish(queryDesc);
	/* not at the end of a function's SELECT run for each row of an INSERT */
	if (pending != NULL && modifying)
		ShPendingFlushAll(true);
}

static void
PendingExecutorStart(QueryDesc *queryDesc, int eflags)
{
	if (pending != NULL && queryDesc->plannedstmt->parallelModeNeeded)
		ShPendingFlushAll(false);
	if (prev_ExecutorStart)
		prev_ExecutorStart(queryDesc, eflags);
	else
		standard_ExecutorStart(queryDesc, eflags);
}

/*
 * aminsert's batching: returns false when this insert must go straight to
 * the index; otherwise the entry is pending.
 */
bool
ShPendingAdd(Relation index, struct IndexInfo *indexInfo, Relation heap,
			 uint64 fp, ItemPointer tid)
{
	PendingIndex *pi;
	int64		limit;

	if (!batch_inserts || IsParallelWorker() || !IsTransactionState() ||
		written_for_commit)
		return false;
	pi = FindPending(RelationGetRelid(index));
	if (pi == NULL)
	{
		Oid			indexoid = RelationGetRelid(index);
		PendingSlot *slot;

		if (pending_by_oid == NULL)
		{
			HASHCTL		ctl;

			ctl.keysize = sizeof(Oid);
			ctl.entrysize = sizeof(PendingSlot);
			ctl.hcxt = TopTransactionContext;
			pending_by_oid = hash_create("simhash pending inserts", 16, &ctl,
										 HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
		}
		pi = MemoryContextAllocZero(TopTransactionContext, sizeof(PendingIndex));
		pi->indexoid = indexoid;
		pi->radius = indexInfo->ii_ExclusionOps == NULL ? RADIUS_NONE :
			ShDeferRadius(index, indexInfo, heap);
		pi->cid = InvalidCommandId;
		pi->next = pending;
		pending = pi;
		slot = hash_search(pending_by_oid, &indexoid, HASH_ENTER, NULL);
		slot->pi = pi;
	}
	if (pi->radius != RADIUS_NONE)
	{
		CommandId	cid;

		/*
		 * An exclusion index: the first rows of each statement go straight
		 * in (and are checked at once, as ever); a speculative insertion
		 * too.
		 */
		if (pi->radius == RADIUS_ROW_BY_ROW || ShDeferInsertedTuple(heap, tid, &cid))
			return false;
		if (pi->cid != cid)
		{
			pi->cid = cid;
			pi->cmdrows = 0;
		}
		if (++pi->cmdrows <= SMALL_BATCH)
			return false;
	}
	limit = Max((int64) 1024, (int64) work_mem * 1024 / (int64) sizeof(PendingEntry));
	limit = Min(limit, (int64) 1 << 30);	/* entry numbers fit in 32 bits */
	if (pi->n >= pi->cap)
	{
		int64		cap = pi->cap == 0 ? 256 : Min(pi->cap * 2, limit);

		cap = Max(cap, pi->n + 1);	/* work_mem may have been lowered */

		if (pi->entries == NULL)
			pi->entries = MemoryContextAllocHuge(TopTransactionContext,
												 sizeof(PendingEntry) * cap);
		else
			pi->entries = repalloc_huge(pi->entries, sizeof(PendingEntry) * cap);
		pi->cap = cap;
	}
	pi->entries[pi->n].fp = fp;
	pi->entries[pi->n].tid = *tid;
	pi->entries[pi->n].done = 0;
	pi->entries[pi->n].seen = 0;
	pi->entries[pi->n].suspect = false;
	pi->entries[pi->n].subid = GetCurrentSubTransactionId();
	SetPendingCount(pi, pi->n + 1);
	if (pending_total >= limit)
	{
		/*
		 * work_mem is one budget for every index's batch: write them all
		 * (the one being inserted into is open; the others are opened by
		 * OID), and hand their arrays back.
		 */
		ShPendingFlushAll(false);
		for (PendingIndex *p = pending; p != NULL; p = p->next)
		{
			if (p->entries)
				pfree(p->entries);
			p->entries = NULL;
			p->cap = 0;
		}
	}
	/* the core's check of this row, which follows, is deferred */
	if (pi->radius >= 0)
		ShStashDefer(index, fp, pi->radius);
	return true;
}

/*
 * amrescan: this backend's pending entries go into the index before it is
 * searched.
 */
void
ShPendingRescan(IndexScanDesc scan, ScanKey scankey, int nscankeys,
				ScanKey orderbys, int norderbys)
{
	bool		deferred = ShStashTakeDeferred(scan, scankey, nscankeys, norderbys);

	if (!deferred)
		ShPendingFlush(scan->indexRelation);
	shrescan(scan, scankey, nscankeys, orderbys, norderbys);
	if (deferred)
		ShScanDeferred(scan);
}

/*
 * Defines simhash.batch_inserts and installs the callbacks and hooks;
 * called once from _PG_init.  At load time rather than at the first batched
 * insert: a callback registered while the core is calling the pre-commit
 * callbacks would miss that commit, and the core calls them newest first,
 * so ours runs before those of modules loaded earlier (whose inserts then
 * go straight into the index: written_for_commit).
 */
void
ShPendingInit(void)
{
	RegisterXactCallback(PendingXactCallback, NULL);
	RegisterSubXactCallback(PendingSubXactCallback, NULL);
	prev_ProcessUtility = ProcessUtility_hook;
	ProcessUtility_hook = PendingProcessUtility;
	prev_ExecutorStart = ExecutorStart_hook;
	ExecutorStart_hook = PendingExecutorStart;
	prev_ExecutorFinish = ExecutorFinish_hook;
	ExecutorFinish_hook = PendingExecutorFinish;

	DefineCustomBoolVariable("simhash.batch_inserts",
							 "Batches a transaction's inserts into simhash indexes until commit or the next scan.",
							 "Off: every row is written into the index at once, one WAL record per row.",
							 &batch_inserts,
							 true,
							 PGC_USERSET,
							 0,
							 NULL, NULL, NULL);
}
