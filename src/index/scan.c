/*
 * index/scan.c
 *	  Searching a simhash index: radius search by multi-index hashing,
 *	  k-nearest-neighbour search by growing the radius, amgettuple and
 *	  amgetbitmap.
 *
 * THE RADIUS SEARCH
 *
 * A radius search carries out its probe plan (probe.c, with the pigeonhole
 * argument): table j is probed with every prefix within s_j of the query's
 * prefix, or, when that would read about as many pages as a whole table
 * holds, block table 0 is read from end to end instead: still exact, since
 * every indexed row is in every table once.
 *
 * Each entry carries the whole fingerprint, so the distance is checked here
 * and only true matches are returned.  A fingerprint is reported by the
 * first table j in which it qualifies (block j within s_j); the same entry
 * met in a later table is skipped because some earlier block already
 * qualified.  Within one table each probed prefix is read exactly once,
 * under the lock of the bucket that covers it at that moment (see the
 * locking notes in shindex.h), so nothing is returned twice.
 *
 * RACES WITH VACUUM
 *
 * A scan copies matching TIDs to backend memory and holds no pin between
 * calls, so VACUUM may remove an entry and a new row may take its TID before
 * the heap is visited.  Under an MVCC snapshot the new row is invisible to
 * the scan, so xs_recheck = false is safe; under any other snapshot the
 * executor is told to recheck the operator on the heap tuple.
 */
#include "index/shindex.h"

#include "access/relscan.h"
#include "access/xact.h"
#include "lib/qunique.h"
#include "miscadmin.h"
#include "nodes/execnodes.h"
#include "nodes/tidbitmap.h"
#include "pgstat.h"
#include "storage/proc.h"
#include "storage/predicate.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

#include "type/simhash.h"

/* Rows a random query expects within the first k-NN step's radius. */
#define SH_FIRST_STEP_ROWS	30.0

/* Probes of one table few enough to go through the bucket hints (ScanTable). */
#define SH_HINTED_PROBES	4

/* Rows a k-NN step that reads a whole table keeps at least (NearestPass). */
#define SH_NEAREST_WANT		100

typedef struct ShResult
{
	uint64		fp;
	ItemPointerData tid;
} ShResult;

typedef struct ShScanOpaqueData
{
	MemoryContext cxt;			/* per-scan memory, reset by amrescan */
	ShLayout	layout;
	bool		ready;			/* keys examined since the last rescan */
	bool		empty;			/* no row can satisfy the keys */
	int			nquals;
	uint64	   *qcenter;		/* quals: fp within qradius of qcenter */
	int		   *qradius;
	int			drive;			/* the qual driving the search, or -1 */
	int			norder;
	uint64	   *ocenter;		/* ORDER BY fp <-> ocenter[i] */
	bool		order_null;		/* an ORDER BY argument is NULL */
	bool		recheck;		/* the executor rechecks every row: scopes
								 * (scope.c) or a ball's radius (<@>) */
	bool		unscoped;		/* a scoped index without a value for every
								 * scope column: every row, unordered */
	Snapshot	snapshot;		/* predicate locks are taken under it */
	uint64		scope;			/* H(scope) of the search, or 0 (scope.c) */

	bool		deferred;		/* the core's check of a batched row: returns
								 * nothing now (deferred.c) */

	/* an exclusion constraint's check: names the candidate in errors */
	ErrorContextCallback conflict_cb;
	bool		conflict_pushed;
	uint64		conflict_existing;	/* candidate's fingerprint */
	uint64		conflict_new;	/* the new row's */

	/* results not yet returned (amgettuple) */
	ShResult   *res;
	int64		nres;
	int64		maxres;
	int64		pos;
	int			done_radius;	/* k-NN: all rows within it returned */
	bool		exhausted;		/* nothing left after res */

	IndexTuple	itup;			/* returned in index-only scans */

	/*
	 * A radius search under way (RadiusSearch), resumable: amgettuple
	 * without ORDER BY takes its rows a batch of at most batch_rows (work_mem)
	 * at a time, stopping between buckets (StartRadiusSearch, ContinueSearch).
	 */
	ShProbePlan plan;
	bool		whole;			/* reading block table 0 from end to end */
	bool		keylocked;		/* SERIALIZABLE: the search's block values
								 * are locked, not the pages it reads
								 * (insert.c) */
	int			cur_table;		/* table being read; ntables: done */
	uint32	   *cur_keys;		/* its prefixes to probe (so->cxt), or NULL */
	int			cur_nkeys;
	int			cur_i;			/* next key */
	uint32		cur_k;			/* next prefix, when reading a whole table */
	bool		searching;		/* a search has been started */
	int64		batch_rows;		/* stop a batch at this many rows; 0: never */

	/* where the current search sends its matches */
	TIDBitmap  *tbm;
	int64		ntids;
	int			mindist;		/* emit only distances above this */
	uint64		center;			/* of the current search */

	/* k-NN: a pass over a whole table keeping the nearest rows (NearestPass) */
	bool		nearest;		/* such a pass is under way */
	int			keep_radius;	/* rows kept so far: all within this */
	int64		keep_want;		/* shrink keep_radius while this many stay */
	int64		keep_below;		/* kept rows closer than keep_radius */
	int64		keep_count[SIMHASH_BITS + 1];	/* kept rows by distance */
	int64		nreturned;		/* rows found by the earlier k-NN steps */
} ShScanOpaqueData;

typedef ShScanOpaqueData *ShScanOpaque;

/*
 * Rows a scan keeps in memory at once: work_mem's worth of results.  A
 * batch may exceed it by the rows of one bucket and its overflow chain (it
 * stops between buckets), and a k-NN step by the rows tied at the distance
 * where it stops.
 */
static int64
ShBudgetRows(void)
{
	return Max((int64) 1024, (int64) work_mem * 1024 / (int64) sizeof(ShResult));
}

/*
 * EXCLUSION CONSTRAINTS
 *
 * PostgreSQL checks an exclusion constraint with an index scan under a
 * dirty snapshot (seeing uncommitted rows) for the new row's values, and
 * raises exclusion_violation with both rows' key values (the balls, as
 * center/radius) when one is returned and its row passes.  The message is
 * the core's; to name the distance too, a scan under a dirty snapshot keeps
 * an error context entry on the stack from returning a row until the next
 * call, which adds a CONTEXT line to an error raised in between, the
 * violation above all.
 */
static void
ConflictContext(void *arg)
{
	ShScanOpaque so = (ShScanOpaque) arg;

	errcontext("simhash index: the existing row's fingerprint %016llx is at Hamming distance %d from the new row's %016llx",
			   (unsigned long long) so->conflict_existing,
			   SimhashDistance(so->conflict_existing, so->conflict_new),
			   (unsigned long long) so->conflict_new);
}

/* Takes the conflict context entry off the stack, wherever it is. */
static void
PopConflictContext(ShScanOpaque so)
{
	if (!so->conflict_pushed)
		return;
	for (ErrorContextCallback **p = &error_context_stack; *p != NULL; p = &(*p)->previous)
	{
		if (*p == &so->conflict_cb)
		{
			*p = so->conflict_cb.previous;
			break;
		}
	}
	so->conflict_pushed = false;
}

/* Puts it on the stack for the row about to be returned. */
static void
PushConflictContext(ShScanOpaque so, uint64 existing)
{
	PopConflictContext(so);
	so->conflict_existing = existing ^ so->scope;
	so->conflict_new = (so->drive >= 0 ? so->qcenter[so->drive] : 0) ^ so->scope;
	so->conflict_cb.callback = ConflictContext;
	so->conflict_cb.arg = so;
	so->conflict_cb.previous = error_context_stack;
	error_context_stack = &so->conflict_cb;
	so->conflict_pushed = true;
}

/* True when fp satisfies every qual of the scan. */
static inline bool
PassesQuals(ShScanOpaque so, uint64 fp)
{
	for (int i = 0; i < so->nquals; i++)
		if (SimhashDistance(fp, so->qcenter[i]) > so->qradius[i])
			return false;
	return true;
}

/* Hands a match to the bitmap, or keeps it for amgettuple. */
static void
Emit(ShScanOpaque so, uint64 fp, ItemPointer tid)
{
	if (so->tbm)
	{
		tbm_add_tuples(so->tbm, tid, 1, so->recheck);
		so->ntids++;
		return;
	}
	if (so->nres == so->maxres)
	{
		so->maxres *= 2;
		so->res = repalloc_huge(so->res, sizeof(ShResult) * so->maxres);
	}
	so->res[so->nres].fp = fp;
	so->res[so->nres].tid = *tid;
	so->nres++;
}

/*
 * Keeps a row found by NearestPass at distance d (within keep_radius), then
 * narrows keep_radius as far as keep_want rows stay within it.  The rows
 * kept are thus always every row read so far within keep_radius.
 */
static pg_noinline void
KeepNearest(ShScanOpaque so, uint64 fp, ItemPointer tid, int d)
{
	if (so->nres == so->maxres &&
		so->keep_below + so->keep_count[so->keep_radius] <= so->maxres / 2)
	{
		/* Drop the rows beyond keep_radius rather than grow the array. */
		int64		n = 0;

		for (int64 i = 0; i < so->nres; i++)
			if (SimhashDistance(so->res[i].fp, so->center) <= so->keep_radius)
				so->res[n++] = so->res[i];
		so->nres = n;
	}
	Emit(so, fp, tid);
	so->keep_count[d]++;
	if (d < so->keep_radius)
	{
		so->keep_below++;
		while (so->keep_below >= so->keep_want)
		{
			so->keep_radius--;
			so->keep_below -= so->keep_count[so->keep_radius];
		}
	}
}

/*
 * Multi-probe ownership (probe not NULL): an entry of table t whose
 * difference from the center is x is this table's to emit when block t is
 * within probe[t] and no earlier block is within its own probe radius (an
 * earlier table emits it then).
 */
static pg_attribute_always_inline bool
PassesProbe(const ShLayout *layout, uint64 x, int t, const int *probe)
{
	if (SIMHASH_POPCOUNT64(x & layout->mask[t]) > probe[t])
		return false;
	for (int j = 0; j < t; j++)
		if (SIMHASH_POPCOUNT64(x & layout->mask[j]) <= probe[j])
			return false;
	return true;
}

/*
 * ScanPage for a single-value page (shindex.h): the value passes or fails
 * once, for every heap TID of the page.
 */
static pg_noinline void
ScanSinglePage(ShScanOpaque so, Page page, int t, uint32 minprefix, int radius,
			   const int *probe)
{
	const ShLayout *layout = &so->layout;
	int			n = ShPageGetOpaque(page)->nentries;
	uint64		fp = ShPageSingleValue(page);
	uint64		x = fp ^ so->center;
	int			d = SIMHASH_POPCOUNT64(x);
	ItemPointerData tid;

	if (minprefix > 0 && ShPrefix(layout, t, fp) < minprefix)
		return;
	if (so->nearest)
	{
		/* keep_radius may shrink below d as the copies are kept */
		for (int e = 0; e < n && d > so->mindist && d <= so->keep_radius; e++)
		{
			ShPageTid(page, e, &tid);
			KeepNearest(so, fp, &tid, d);
		}
		return;
	}
	if (d > radius || d <= so->mindist)
		return;
	if (probe && !PassesProbe(layout, x, t, probe))
		return;
	if (!PassesQuals(so, fp))
		return;
	for (int e = 0; e < n; e++)
	{
		ShPageTid(page, e, &tid);
		Emit(so, fp, &tid);
	}
}

/*
 * Emits the entry of a bucket or overflow page of table t if it passes:
 * distance to the center in (mindist, radius], prefix at least minprefix,
 * and, when probing (probe not NULL), block t within probe[t] while no
 * earlier block is within its own probe radius; then the quals.
 */
static pg_attribute_always_inline void
ScanEntry(ShScanOpaque so, const char *entry, int t, uint32 minprefix, int radius,
		  const int *probe)
{
	const ShLayout *layout = &so->layout;
	uint64		fp = ShEntryFingerprint(entry);
	uint64		x = fp ^ so->center;
	int			d = SIMHASH_POPCOUNT64(x);
	ItemPointerData tid;

	if (d > radius || d <= so->mindist)
		return;
	if (minprefix > 0 && ShPrefix(layout, t, fp) < minprefix)
		return;
	if (probe && !PassesProbe(layout, x, t, probe))
		return;
	if (!PassesQuals(so, fp))
		return;
	ShEntryTid(entry, &tid);
	Emit(so, fp, &tid);
}

/*
 * Emits the entries of one bucket or overflow page of table t that pass:
 * distance to the center in (mindist, radius], prefix at least minprefix,
 * and, when probing (probe not NULL), block t within probe[t] while no
 * earlier block is within its own probe radius; then the quals.  The page
 * is locked by the caller.
 */
static pg_attribute_always_inline void
ScanPageImpl(ShScanOpaque so, Page page, int t, uint32 minprefix, int radius,
			 const int *probe)
{
	const ShLayout *layout = &so->layout;
	ShPageOpaque opaque = ShPageGetOpaque(page);
	uint64		center = so->center;

	if (ShPageIsSingle(page))
	{
		ScanSinglePage(so, page, t, minprefix, radius, probe);
		return;
	}
	if (so->nearest)
	{
		/*
		 * The k-NN pass: nearly every entry is too far, so the loop does
		 * just the distance and one unsigned comparison against the window
		 * (mindist, keep_radius]; the rest happens for the few kept.
		 */
		const char *entry = ShPageEntry(page, 0);
		int			n = opaque->nentries;
		ItemPointerData tid;
		uint32		above = (uint32) (so->mindist + 1);
		uint32		span = (uint32) (so->keep_radius - so->mindist);

		for (int e = 0; e < n; e++, entry += SH_ENTRY_SIZE)
		{
			uint64		fp = ShEntryFingerprint(entry);
			uint32		d = (uint32) SIMHASH_POPCOUNT64(fp ^ center);

			if (likely(d - above >= span))
				continue;
			if (minprefix > 0 && ShPrefix(layout, t, fp) < minprefix)
				continue;
			ShEntryTid(entry, &tid);
			KeepNearest(so, fp, &tid, (int) d);
			span = (uint32) (so->keep_radius - so->mindist);
		}
		return;
	}

	/*
	 * The radius search: nearly every entry is too far, so the loop does
	 * just the distances, four entries at a time, each with one unsigned
	 * comparison against the window (mindist, radius]; the few inside it
	 * go through ScanEntry.
	 */
	if (radius > so->mindist)
	{
		const char *entry = ShPageEntry(page, 0);
		int			n = opaque->nentries;
		uint32		above = (uint32) (so->mindist + 1);
		uint32		span = (uint32) (radius - so->mindist);
		int			e = 0;

		for (; e + 4 <= n; e += 4, entry += 4 * SH_ENTRY_SIZE)
		{
			uint32		d0 = (uint32) SIMHASH_POPCOUNT64(ShEntryFingerprint(entry) ^ center);
			uint32		d1 = (uint32) SIMHASH_POPCOUNT64(ShEntryFingerprint(entry + SH_ENTRY_SIZE) ^ center);
			uint32		d2 = (uint32) SIMHASH_POPCOUNT64(ShEntryFingerprint(entry + 2 * SH_ENTRY_SIZE) ^ center);
			uint32		d3 = (uint32) SIMHASH_POPCOUNT64(ShEntryFingerprint(entry + 3 * SH_ENTRY_SIZE) ^ center);

			if (likely((d0 - above >= span) & (d1 - above >= span) &
					   (d2 - above >= span) & (d3 - above >= span)))
				continue;
			for (int k = 0; k < 4; k++)
				ScanEntry(so, entry + k * SH_ENTRY_SIZE, t, minprefix, radius, probe);
		}
		for (; e < n; e++, entry += SH_ENTRY_SIZE)
			ScanEntry(so, entry, t, minprefix, radius, probe);
	}
}

/* The entry loop is nearly all popcounts: compiled for POPCNT too (compat.h). */
#ifdef SIMHASH_POPCNT_DISPATCH
static pg_noinline SIMHASH_POPCNT_TARGET void
ScanPagePopcnt(ShScanOpaque so, Page page, int t, uint32 minprefix, int radius,
			   const int *probe)
{
	ScanPageImpl(so, page, t, minprefix, radius, probe);
}
#endif

static void
ScanPage(ShScanOpaque so, Page page, int t, uint32 minprefix, int radius,
		 const int *probe)
{
#ifdef SIMHASH_POPCNT_DISPATCH
	if (SimhashCpuHasPopcnt())
	{
		ScanPagePopcnt(so, page, t, minprefix, radius, probe);
		return;
	}
#endif
	ScanPageImpl(so, page, t, minprefix, radius, probe);
}

/*
 * The walk of one bucket: emits what passes ScanPage (minprefix = prefix)
 * on the bucket of table t that covers prefix, found through the lookup's
 * copies roots and dir (NULL: the index's bucket hints, ShLockBucketCached),
 * and on its overflow pages, each page under its own
 * share lock.  Returns the end of the bucket's range: every prefix in
 * [prefix, end) has then been read.
 */
static uint32
ScanBucket(Relation index, ShScanOpaque so, int t, uint32 prefix, int radius,
		   const int *probe, ShRootCopy *roots, ShDirCopy *dir)
{
	Buffer		buf = roots ? ShLockBucket(index, t, prefix, BUFFER_LOCK_SHARE, roots, dir) :
		ShLockBucketCached(index, t, prefix, BUFFER_LOCK_SHARE);
	Page		page = BufferGetPage(buf);
	ShPageOpaque opaque = ShPageGetOpaque(page);
	uint32		hi = opaque->hi;
	BlockNumber blkno;

	/*
	 * SERIALIZABLE: unless the search locked its block values, lock the
	 * bucket page, which stands for its whole range and chain: inserters
	 * check it whichever page of the chain they write (insert.c), and a
	 * split copies the lock to the new bucket.
	 */
	if (!so->keylocked)
		PredicateLockPage(index, BufferGetBlockNumber(buf), so->snapshot);
	ScanPage(so, page, t, prefix, radius, probe);
	blkno = opaque->next;
	UnlockReleaseBuffer(buf);

	/* Overflow pages: a single-prefix bucket never splits. */
	while (blkno != InvalidBlockNumber)
	{
		buf = ReadBuffer(index, blkno);
		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		opaque = ShCheckPage(index, page, blkno, SH_PAGE_OVERFLOW, t);
		ScanPage(so, page, t, prefix, radius, probe);
		blkno = opaque->next;
		UnlockReleaseBuffer(buf);
	}
	return hi;
}

/*
 * Reads block table t for the prefixes in keys[0..nkeys), sorted (every
 * prefix when keys is NULL), and emits what passes ScanPage: the one path
 * of radius searches, k-NN steps and bitmap scans to the entries.  Each
 * prefix is read exactly once: from the bucket that covers it when we get
 * there, together with all later prefixes that bucket covers.  The probe
 * radii apply only to a probing search (keys not NULL).
 *
 * Starts at key *pi (prefix *pk when keys is NULL) and returns true at the
 * end of the table; when so->batch_rows is set and that many rows have
 * been emitted, stops between buckets, leaving in *pi / *pk where to go on,
 * and returns false (no lock is held between buckets anyway).
 */
static bool
ScanTable(Relation index, ShScanOpaque so, int t, const uint32 *keys, int nkeys,
		  int radius, const int *probe, int *pi, uint32 *pk)
{
	uint32		nprefix = (uint32) 1 << so->layout.pbits[t];
	int			i = *pi;
	uint32		k = *pk;
	ShRootCopy	roots;
	ShDirCopy	dir;

	/*
	 * A few probed prefixes (an exclusion constraint's check is one per
	 * probed table) are looked up through the index's bucket hints, which
	 * usually skip the metapage and the directory page; longer walks, in
	 * prefix order, copy the table's root slots and each directory page
	 * once.
	 */
	bool		hinted = keys != NULL && nkeys <= SH_HINTED_PROBES;

	if (hinted)
		ShGetHintedCache(index);
	ShInitRootCopy(&roots, t);
	ShInitDirCopy(&dir);
	while (keys ? i < nkeys : k < nprefix)
	{
		uint32		hi;

		if (so->batch_rows > 0 && so->nres >= so->batch_rows)
		{
			*pi = i;
			*pk = k;
			return false;
		}
		if (keys)
			k = keys[i];
		hi = ScanBucket(index, so, t, k, radius, keys ? probe : NULL,
						hinted ? NULL : &roots, hinted ? NULL : &dir);

		/* Every wanted prefix below hi has been read. */
		if (keys)
		{
			while (i < nkeys && keys[i] < hi)
				i++;
		}
		else
			k = hi;
		CHECK_FOR_INTERRUPTS();
	}
	return true;
}

/*
 * Fills *plan for a search of radius (at least 0) in this index as it is now.
 */
static void
PlanSearch(IndexScanDesc scan, int radius, ShProbePlan *plan)
{
	ShScanOpaque so = (ShScanOpaque) scan->opaque;

	/*
	 * Below m bits every probe is one exact prefix, which reads fewer pages
	 * than a table holds unless the index is a few pages small (and both
	 * ways are exact): such a search, an exclusion constraint's check for
	 * one, skips asking for the index's size, a system call per row.
	 */
	ShPlanProbes(plan, &so->layout, radius,
				 radius < so->layout.ntables ? MaxBlockNumber :
				 RelationGetNumberOfBlocks(scan->indexRelation));
}

/*
 * SERIALIZABLE: a search that probes one exact block value per probed
 * table locks those values (insert.c, "Predicate locks") and then no
 * pages; any other search locks the bucket pages it reads (ScanBucket).
 */
static void
LockSearchKeys(IndexScanDesc scan)
{
	ShScanOpaque so = (ShScanOpaque) scan->opaque;
	const ShProbePlan *plan = &so->plan;
	bool		exact = !so->whole;

	so->keylocked = false;
	for (int t = 0; t < so->layout.ntables && exact; t++)
		exact = plan->probe[t] <= 0;
	if (!exact || !IsolationIsSerializable() || so->snapshot == NULL ||
		!IsMVCCSnapshot(so->snapshot))
		return;
	for (int t = 0; t < so->layout.ntables; t++)
		if (plan->probe[t] == 0)
			PredicateLockPage(scan->indexRelation,
							  ShKeyLockBlock(&so->layout, t, so->center), so->snapshot);
	so->keylocked = true;
}

/*
 * Starts a search for every indexed row within `radius` of `center` (and
 * above so->mindist) that passes the quals: plans it, reading block table 0
 * from end to end instead of probing when the probe plan costs fullfactor
 * of a table (ShProbesCostTable).  ContinueSearch does the reading.
 */
static void
StartRadiusSearch(IndexScanDesc scan, uint64 center, int radius, double fullfactor)
{
	ShScanOpaque so = (ShScanOpaque) scan->opaque;

	so->center = center;
	so->searching = true;
	so->cur_keys = NULL;
	so->cur_i = 0;
	so->cur_k = 0;
	if (radius < 0)
	{
		so->plan.radius = radius;
		so->cur_table = so->layout.ntables;
		return;
	}
	SIMHASH_COUNT_INDEX_SEARCH(scan);
	PlanSearch(scan, radius, &so->plan);
	so->whole = ShProbesCostTable(&so->plan, fullfactor);
	so->cur_table = 0;
	LockSearchKeys(scan);
}

/*
 * Carries the search started by StartRadiusSearch on from where it stopped:
 * to its end (returns true), or, when so->batch_rows is set, until a batch
 * holds that many rows (returns false).
 */
static bool
ContinueSearch(IndexScanDesc scan)
{
	Relation	index = scan->indexRelation;
	ShScanOpaque so = (ShScanOpaque) scan->opaque;
	const ShLayout *layout = &so->layout;
	ShProbePlan *plan = &so->plan;

	if (so->whole && so->cur_table == 0)
	{
		if (!ScanTable(index, so, 0, NULL, 0, plan->radius, plan->probe,
					   &so->cur_i, &so->cur_k))
			return false;
		so->cur_table = layout->ntables;
	}
	for (; so->cur_table < layout->ntables; so->cur_table++)
	{
		int			t = so->cur_table;

		if (plan->probe[t] < 0)
			continue;
		if (so->cur_keys == NULL)
		{
			MemoryContext old = MemoryContextSwitchTo(so->cxt);

			so->cur_keys = ShEnumeratePrefixes(plan, layout, t, ShPrefix(layout, t, so->center));
			so->cur_nkeys = (int) plan->nvalues[t];
			so->cur_i = 0;
			MemoryContextSwitchTo(old);
		}
		if (!ScanTable(index, so, t, so->cur_keys, so->cur_nkeys, plan->radius,
					   plan->probe, &so->cur_i, &so->cur_k))
			return false;
		pfree(so->cur_keys);
		so->cur_keys = NULL;
	}
	return true;
}

/*
 * Emits every indexed row within `radius` of `center` (and above
 * so->mindist) that passes the quals, all at once.  Returns the radius
 * searched (clamped to 64).
 */
static int
RadiusSearch(IndexScanDesc scan, uint64 center, int radius, double fullfactor)
{
	ShScanOpaque so = (ShScanOpaque) scan->opaque;
	int64		batch_rows = so->batch_rows;

	so->batch_rows = 0;
	StartRadiusSearch(scan, center, radius, fullfactor);
	ContinueSearch(scan);
	so->batch_rows = batch_rows;
	so->searching = false;
	return radius < 0 ? radius : so->plan.radius;
}

/*
 * The k-NN step that reads block table 0 from end to end: emits every row
 * farther than so->mindist and within the smallest radius that holds at
 * least `want` such rows (every row when fewer exist), and returns that
 * radius.  One pass decides the radius and collects the rows, so a step
 * never comes up short and a second pass is needed only when the scan is
 * pulled past `want` rows.
 */
static int
NearestPass(IndexScanDesc scan, uint64 center, int64 want)
{
	ShScanOpaque so = (ShScanOpaque) scan->opaque;
	int64		n = 0;

	SIMHASH_COUNT_INDEX_SEARCH(scan);
	so->center = center;
	so->nearest = true;
	so->keylocked = false;
	so->keep_radius = SIMHASH_BITS;
	so->keep_want = Max(want, 1);
	so->keep_below = 0;
	memset(so->keep_count, 0, sizeof(so->keep_count));
	{
		int			i = 0;
		uint32		k = 0;
		int64		batch_rows = so->batch_rows;

		so->batch_rows = 0;
		ScanTable(scan->indexRelation, so, 0, NULL, 0, SIMHASH_BITS, NULL, &i, &k);
		so->batch_rows = batch_rows;
	}
	so->nearest = false;		/* (an error resets it in PrepareScan) */

	/* Rows kept before keep_radius last shrank may lie beyond it. */
	for (int64 i = 0; i < so->nres; i++)
		if (SimhashDistance(so->res[i].fp, center) <= so->keep_radius)
			so->res[n++] = so->res[i];
	so->nres = n;
	return so->keep_radius;
}

static int
CompareResults(const void *a, const void *b, void *arg)
{
	const ShResult *x = a;
	const ShResult *y = b;
	ShScanOpaque so = arg;

	for (int i = 0; i < so->norder; i++)
	{
		int			dx = SimhashDistance(x->fp, so->ocenter[i]);
		int			dy = SimhashDistance(y->fp, so->ocenter[i]);

		if (dx != dy)
			return dx < dy ? -1 : 1;
	}
	return ItemPointerCompare((ItemPointer) &x->tid, (ItemPointer) &y->tid);
}

/*
 * Sorts so->res by distance to the one ORDER BY center: a counting sort
 * over the 65 possible distances, stable, so ties keep the scan's order.
 */
static void
SortByDistance(ShScanOpaque so)
{
	int64		start[SIMHASH_BITS + 2] = {0};
	ShResult   *sorted;
	uint64		center = so->ocenter[0];

	for (int64 i = 0; i < so->nres; i++)
		start[SimhashDistance(so->res[i].fp, center) + 1]++;
	for (int d = 1; d <= SIMHASH_BITS + 1; d++)
		start[d] += start[d - 1];
	sorted = MemoryContextAllocHuge(so->cxt, sizeof(ShResult) * so->maxres);
	for (int64 i = 0; i < so->nres; i++)
		sorted[start[SimhashDistance(so->res[i].fp, center)]++] = so->res[i];
	pfree(so->res);
	so->res = sorted;
}

/*
 * THE CHECK DONE WHILE INSERTING
 *
 * PostgreSQL checks an exclusion constraint by inserting the row's index
 * entry and then scanning the index for the row's own key under a dirty
 * snapshot: of two conflicting rows inserted concurrently, whichever wrote
 * its entry second finds the other's.  Below m bits the scan probes, in
 * each block table, exactly the bucket the insert has just written to, so
 * aminsert does the same search there and then (ShStashStart, ShStashPage,
 * ShStashFinish): on each bucket page, under the exclusive lock it appends
 * under, just before appending, with the scan's own ScanPage.  That keeps
 * the guarantee: on the bucket two conflicting rows share, the second
 * appender reads the page after the first's entry is on it.  Entries
 * written after ours are not read, and need not be: their inserters' own
 * checks read ours.  Our own entry is not read either (the core skips it
 * anyway; not returning it saves a heap fetch).
 *
 * The following scan takes the result instead of reading the buckets again
 * (ShStashClaim), once: only the first scan of that index after the
 * insert, in the same command, subtransaction and transaction, under a
 * dirty snapshot, searching exactly the stashed key and radius, which is
 * the core's check of that very row (ExecInsertIndexTuples runs it right
 * after aminsert).  Any other scan or insert on the index drops the stash;
 * a retry after waiting for a conflicting transaction searches the index.
 * A bucket with an overflow chain, a bucket that must split, more results
 * than the stash keeps, or any other search shape: no stash, the scan
 * searches as always.
 */
#define SH_STASH_MAX	64

/*
 * The row whose check the core runs next, as aminsert saw it: its index,
 * stored value and ball radius, and the transaction, subtransaction and
 * command it was inserted in (the check follows in the same ones).
 */
typedef struct ShCheckedRow
{
	Oid			indexoid;
	uint64		key;
	int			radius;
	LocalTransactionId lxid;
	SubTransactionId subxid;
	CommandId	cid;
} ShCheckedRow;

static void
CheckedRowSet(ShCheckedRow *row, Relation index, uint64 key, int radius)
{
	row->indexoid = RelationGetRelid(index);
	row->key = key;
	row->radius = radius;
}

static void
CheckedRowStamp(ShCheckedRow *row)
{
	row->lxid = SIMHASH_MY_LXID;
	row->subxid = GetCurrentSubTransactionId();
	row->cid = GetCurrentCommandId(false);
}

/* Whether a scan now runs in the transaction, subtransaction and command of row. */
static bool
CheckedRowIsNow(const ShCheckedRow *row)
{
	return row->lxid == SIMHASH_MY_LXID &&
		row->subxid == GetCurrentSubTransactionId() &&
		row->cid == GetCurrentCommandId(false);
}

typedef struct ShStash
{
	ShScanOpaqueData so;		/* ScanPage's state; so.res holds the matches */
	bool		filling;		/* between ShStashStart and ShStashFinish */
	bool		ready;			/* claimable */
	ShCheckedRow row;
	ShProbePlan plan;
} ShStash;

static ShStash *stash = NULL;

/*
 * A row that pending.c batched (deferred.c): the core's check that follows
 * its aminsert returns nothing, and does not write the batch first.
 */
static struct
{
	bool		ready;
	ShCheckedRow row;
}			deferral;

/* Records that the row with stored value key, radius radius, was batched. */
void
ShStashDefer(Relation index, uint64 key, int radius)
{
	if (stash != NULL)
		stash->filling = stash->ready = false;
	deferral.ready = true;
	CheckedRowSet(&deferral.row, index, key, radius);
	CheckedRowStamp(&deferral.row);
}

/*
 * At amrescan, before pending.c writes the batch: whether this scan is the
 * core's check of the row just batched (a dirty snapshot, in the same
 * command, subtransaction and transaction, exactly one key: <@ the row's
 * own ball).  Drops the deferral in any case.
 */
bool
ShStashTakeDeferred(IndexScanDesc scan, ScanKey keys, int nkeys, int norderbys)
{
	SimhashBall *ball;

	if (!deferral.ready)
		return false;
	deferral.ready = false;
	if (deferral.row.indexoid != RelationGetRelid(scan->indexRelation) ||
		scan->xs_snapshot == NULL ||
		scan->xs_snapshot->snapshot_type != SNAPSHOT_DIRTY ||
		!CheckedRowIsNow(&deferral.row) ||
		keys == NULL || nkeys != 1 || norderbys != 0 ||
		keys[0].sk_attno != 1 || keys[0].sk_strategy != SH_NEAR_STRATEGY ||
		(keys[0].sk_flags & SK_ISNULL) != 0)
		return false;
	ball = (SimhashBall *) DatumGetPointer(keys[0].sk_argument);
	return ball->center == deferral.row.key && ball->radius == deferral.row.radius;
}

/* After shrescan: the scan returns nothing (ShStashTakeDeferred). */
void
ShScanDeferred(IndexScanDesc scan)
{
	((ShScanOpaque) scan->opaque)->deferred = true;
}

/*
 * Starts a stash for the row with stored value key about to be written to
 * index, if the index's exclusion check will be a search of radius below m
 * bits by the row's own ball (the <@> constraint) and scope values none of
 * which is NULL (the core skips the check of a row with a NULL key).
 * Returns whether it did; drops any earlier stash in any case.
 */
bool
ShStashStart(Relation index, IndexInfo *indexInfo, Datum *values, bool *isnull,
			 uint64 key)
{
	const ShLayout *layout = ShGetLayout(index);
	int			fpcol = ShFingerprintColumn(index);
	int			radius;

	if (stash != NULL)
		stash->filling = stash->ready = false;
	deferral.ready = false;
	if (indexInfo->ii_ExclusionOps == NULL || !ShColumnIsBall(index, fpcol) ||
		indexInfo->ii_ExclusionStrats[fpcol] != SH_NEAR_STRATEGY)
		return false;
	for (int i = 0; i < fpcol; i++)
		if (indexInfo->ii_ExclusionStrats[i] != SH_SCOPE_STRATEGY || isnull[i])
			return false;
	radius = ((SimhashBall *) DatumGetPointer(values[fpcol]))->radius;
	if (radius < 0 || radius >= layout->ntables)
		return false;
	if (stash == NULL)
		stash = MemoryContextAllocZero(TopMemoryContext, sizeof(ShStash));
	if (stash->so.res == NULL || stash->so.maxres > SH_STASH_MAX)
	{
		/* (ScanPage's Emit may have grown it: a stash then dropped) */
		if (stash->so.res != NULL)
			pfree(stash->so.res);
		stash->so.res = MemoryContextAlloc(TopMemoryContext, sizeof(ShResult) * SH_STASH_MAX);
	}
	CheckedRowSet(&stash->row, index, key, radius);
	ShPlanProbes(&stash->plan, layout, radius, MaxBlockNumber);
	stash->so.layout = *layout;
	stash->so.center = key;
	stash->so.mindist = -1;
	stash->so.nearest = false;
	stash->so.tbm = NULL;
	stash->so.nquals = 0;		/* the radius is the only qual */
	stash->so.nres = 0;
	stash->so.maxres = SH_STASH_MAX;
	stash->filling = true;
	return true;
}

/*
 * Searches the bucket page of table t that covers the row's prefix there,
 * locked by the caller, who appends the row's entry to it next.  A bucket
 * with an overflow chain, or too many matches, drops the stash.
 */
void
ShStashPage(int t, Page page)
{
	const ShLayout *layout;

	if (stash == NULL || !stash->filling)
		return;
	layout = &stash->so.layout;
	if (stash->plan.probe[t] < 0)
		return;
	Assert(stash->plan.probe[t] == 0);
	if (ShPageGetOpaque(page)->next != InvalidBlockNumber)
	{
		stash->filling = false;
		return;
	}
	ScanPage(&stash->so, page, t, ShPrefix(layout, t, stash->row.key), stash->row.radius,
			 stash->plan.probe);
	if (stash->so.nres >= SH_STASH_MAX)
		stash->filling = false;
}

/*
 * Ends the insert: complete (every probed table's bucket searched) makes
 * the stash claimable by the check that follows; otherwise it is dropped.
 */
void
ShStashFinish(bool complete)
{
	if (stash == NULL)
		return;
	stash->ready = complete && stash->filling;
	stash->filling = false;
	if (stash->ready)
	{
		CheckedRowStamp(&stash->row);
	}
}

/*
 * After PrepareScan: when this scan is the exclusion check of the row just
 * inserted into its index (see above), fills so->res with the stashed
 * matches and returns true.  Drops the stash in any case.
 */
static bool
ShStashClaim(IndexScanDesc scan)
{
	ShScanOpaque so = (ShScanOpaque) scan->opaque;
	bool		claim;

	if (stash == NULL || !stash->ready || stash->row.indexoid != RelationGetRelid(scan->indexRelation))
		return false;
	stash->ready = false;
	claim = scan->xs_snapshot->snapshot_type == SNAPSHOT_DIRTY &&
		CheckedRowIsNow(&stash->row) &&
		!so->empty && !so->unscoped && so->norder == 0 &&
		so->nquals == 1 && so->drive == 0 &&
		so->qcenter[0] == stash->row.key && so->qradius[0] == stash->row.radius &&
		so->recheck;
	if (!claim)
		return false;
	Assert(stash->so.nres <= so->maxres);
	memcpy(so->res, stash->so.res, sizeof(ShResult) * stash->so.nres);
	so->nres = stash->so.nres;
	so->pos = 0;
	so->exhausted = true;
	return true;
}

IndexScanDesc
shbeginscan(Relation r, int nkeys, int norderbys)
{
	IndexScanDesc scan = RelationGetIndexScan(r, nkeys, norderbys);
	ShScanOpaque so = palloc0(sizeof(ShScanOpaqueData));

	so->cxt = AllocSetContextCreate(CurrentMemoryContext, "simhash scan",
									ALLOCSET_DEFAULT_SIZES);
	so->layout = *ShGetLayout(r);
	so->qcenter = palloc(sizeof(uint64) * Max(nkeys, 1));
	so->qradius = palloc(sizeof(int) * Max(nkeys, 1));
	so->ocenter = palloc(sizeof(uint64) * Max(norderbys, 1));
	so->itup = NULL;
	if (RelationGetNumberOfAttributes(r) == 1 && !ShColumnIsBall(r, 0))
	{
		/* A tuple to return fingerprints in, overwritten for each row. */
		Datum		value = SimhashGetDatum(0);
		bool		isnull = false;

		so->itup = index_form_tuple(RelationGetDescr(r), &value, &isnull);
	}
	if (norderbys > 0)
	{
		/* The access method provides the ORDER BY value arrays. */
		scan->xs_orderbyvals = palloc0(sizeof(Datum) * norderbys);
		scan->xs_orderbynulls = palloc(sizeof(bool) * norderbys);
		memset(scan->xs_orderbynulls, true, sizeof(bool) * norderbys);
	}
	scan->opaque = so;
	return scan;
}

void
shrescan(IndexScanDesc scan, ScanKey scankey, int nscankeys,
		 ScanKey orderbys, int norderbys)
{
	ShScanOpaque so = (ShScanOpaque) scan->opaque;

	if (scankey && scan->numberOfKeys > 0)
		memmove(scan->keyData, scankey, scan->numberOfKeys * sizeof(ScanKeyData));
	if (orderbys && scan->numberOfOrderBys > 0)
		memmove(scan->orderByData, orderbys, scan->numberOfOrderBys * sizeof(ScanKeyData));
	PopConflictContext(so);
	MemoryContextReset(so->cxt);
	so->ready = false;
	so->deferred = false;
	so->res = NULL;
	so->nres = so->maxres = so->pos = 0;
}

/*
 * Turns the scan keys into centers and radii.  A NULL or negative-radius
 * key means no row can match.
 */
static void
PrepareScan(IndexScanDesc scan)
{
	ShScanOpaque so = (ShScanOpaque) scan->opaque;
	Relation	index = scan->indexRelation;
	int			fpcol = ShFingerprintColumn(index);
	ScanKey		scopekey[INDEX_MAX_KEYS] = {NULL};
	uint64		scope = 0;

	so->empty = false;
	so->nquals = 0;
	so->drive = -1;
	so->recheck = fpcol > 0;
	so->unscoped = false;
	so->snapshot = scan->xs_snapshot;
	so->scope = 0;
	for (int i = 0; i < scan->numberOfKeys; i++)
	{
		ScanKey		key = &scan->keyData[i];
		uint64		center;
		int			radius;

		if (key->sk_flags & SK_ISNULL)
		{
			so->empty = true;
			continue;
		}
		if (key->sk_attno - 1 < fpcol)
		{
			/* scope = value: the first per column is hashed (all rechecked) */
			if (key->sk_strategy != SH_SCOPE_STRATEGY)
				elog(ERROR, "unrecognized strategy number %d for a simhash scope column",
					 key->sk_strategy);
			if (scopekey[key->sk_attno - 1] == NULL)
				scopekey[key->sk_attno - 1] = key;
			continue;
		}
		switch (key->sk_strategy)
		{
			case SH_NEAR_STRATEGY:
				{
					/* stored ball <@> query ball: the centers within the
					 * query's radius, rechecked against the stored radius */
					SimhashBall *ball = (SimhashBall *) DatumGetPointer(key->sk_argument);

					center = ball->center;
					radius = ball->radius;
					so->recheck = true;
					break;
				}
			case SH_WITHIN_STRATEGY:
				{
					SimhashBall *ball = (SimhashBall *) DatumGetPointer(key->sk_argument);

					center = ball->center;
					radius = ball->radius;
					break;
				}
			case SH_EQUAL_STRATEGY:
				center = DatumGetSimhash(key->sk_argument);
				radius = 0;
				break;
			default:
				elog(ERROR, "unrecognized strategy number %d for a simhash index",
					 key->sk_strategy);
		}
		if (radius < 0)
			so->empty = true;
		so->qcenter[so->nquals] = center;
		so->qradius[so->nquals] = Min(radius, SIMHASH_BITS);
		if (so->drive < 0 || so->qradius[so->nquals] < so->qradius[so->drive])
			so->drive = so->nquals;
		so->nquals++;
	}

	so->norder = 0;
	so->order_null = false;
	for (int i = 0; i < scan->numberOfOrderBys; i++)
	{
		ScanKey		key = &scan->orderByData[i];

		if (key->sk_strategy != SH_DISTANCE_STRATEGY)
			elog(ERROR, "unrecognized ordering strategy %d for a simhash index",
				 key->sk_strategy);
		if (key->sk_flags & SK_ISNULL)
			so->order_null = true;
		else
			so->ocenter[so->norder++] = DatumGetSimhash(key->sk_argument);
	}
	if (so->order_null)
		so->norder = 0;

	/*
	 * A scoped index is searched for fp XOR H(scope) (scope.c); without a
	 * value for every scope column it can only return every row, for the
	 * executor to check and order (the planner avoids that: cost.c).
	 */
	for (int i = 0; i < fpcol && !so->unscoped; i++)
	{
		if (scopekey[i] == NULL)
			so->unscoped = true;
		else
			scope = ShScopeMix(index, scope, i + 1, scopekey[i]->sk_argument, false);
	}
	if (so->unscoped)
	{
		so->nquals = 0;
		so->drive = -1;
		so->norder = 0;
	}
	so->scope = scope;
	for (int i = 0; i < so->nquals; i++)
		so->qcenter[i] ^= scope;
	for (int i = 0; i < so->norder; i++)
		so->ocenter[i] ^= scope;

	so->maxres = 1024;
	so->res = MemoryContextAllocHuge(so->cxt, sizeof(ShResult) * so->maxres);
	so->searching = false;
	so->cur_keys = NULL;
	so->batch_rows = so->norder == 0 ? ShBudgetRows() : 0;
	so->nres = so->pos = 0;
	so->mindist = -1;
	so->done_radius = -1;
	so->nearest = false;
	so->nreturned = 0;
	so->exhausted = false;
	so->ready = true;
	pgstat_count_index_scan(scan->indexRelation);
}

/*
 * Sorts so->res by the ORDER BY distances, if any: lexicographically by the
 * distance to each ORDER BY center in turn.  Ties: with one ORDER BY and
 * more than 64 rows a stable counting sort keeps the order the scan met the
 * rows in; otherwise they are ordered by heap TID.
 */
static void
SortResults(ShScanOpaque so)
{
	if (so->norder == 1 && so->nres > 64)
		SortByDistance(so);
	else if (so->norder > 0 && so->nres > 1)
		qsort_arg(so->res, so->nres, sizeof(ShResult), CompareResults, so);
}

/*
 * Starts the search for every row that passes the quals: a radius search
 * driven by the qual of the smallest radius, or every row when there is no
 * qual.  ContinueSearch emits them.
 */
static void
StartSearchQuals(IndexScanDesc scan)
{
	ShScanOpaque so = (ShScanOpaque) scan->opaque;

	if (so->drive >= 0)
		StartRadiusSearch(scan, so->qcenter[so->drive], so->qradius[so->drive], 1.0);
	else
		StartRadiusSearch(scan, 0, SIMHASH_BITS, 1.0);
}

/*
 * THE K-NN POLICY: one step of ORDER BY fp <-> q when no qual drives the
 * scan (so->drive < 0, so->norder > 0; q = so->ocenter[0]).
 *
 * Contract.  Let d0 = so->done_radius on entry (-1 before the first step).
 * The step fills so->res with exactly the indexed rows whose distance to q
 * lies in (d0, d1], sorted by SortResults, and sets so->done_radius = d1 >
 * d0.  Successive steps therefore cover disjoint, adjacent distance ranges:
 * every row is returned exactly once, in non-decreasing distance to q, and
 * a row is returned only once every nearer row has been.  When d1 reaches
 * 64 every row has been returned and so->exhausted is set; until then the
 * scan stops only when the executor stops asking (LIMIT).  A step may come
 * back empty (no row in (d0, d1]); NextBatch then simply takes another.
 * Rows at equal distance come in SortResults' tie order.
 *
 * Policy.  The step first chooses the radius d1 a probing search would
 * use: large enough that a random fingerprint would expect about ten times
 * as many rows within it as within d0, since smaller steps would mostly
 * find nothing and every step costs a search.  The first step expects
 * SH_FIRST_STEP_ROWS, three times a typical LIMIT 10: were it to expect
 * 10, it would find fewer nearly half the time, and the second step would
 * reread most of the first one's pages.  Clustered data only makes the
 * first steps return more.  Repeated steps make probing relatively dearer,
 * so once the probe plan for d1 costs half a table (ShProbesCostTable at
 * 0.5) the step reads block table 0 from end to end instead (NearestPass),
 * and that pass chooses d1 itself: the smallest radius holding at least
 * SH_NEAREST_WANT rows beyond d0 and ten times what the earlier steps
 * returned, which answers any usual LIMIT in that one pass.
 */
static void
NearestStep(IndexScanDesc scan)
{
	ShScanOpaque so = (ShScanOpaque) scan->opaque;

	/* Rows indexed: reltuples, or at least half-full pages' worth. */
	double		perTable = (double) (RelationGetNumberOfBlocks(scan->indexRelation) - 1) /
		so->layout.ntables;
	double		n = Max(Max(1.0, scan->indexRelation->rd_rel->reltuples),
						perTable * SH_PAGE_CAPACITY / 2);
	double		target = so->done_radius < 0 ? SH_FIRST_STEP_ROWS :
		Min(10.0 * Max(1.0, n * ShWithinProbability(so->done_radius)),
			(double) ShBudgetRows());
	int			radius = so->done_radius + 1;
	ShProbePlan plan;

	while (radius < SIMHASH_BITS && n * ShWithinProbability(radius) < target)
		radius++;
	so->mindist = so->done_radius;

	PlanSearch(scan, radius, &plan);
	if (ShProbesCostTable(&plan, 0.5))
		so->done_radius = NearestPass(scan, so->ocenter[0],
									  Max(SH_NEAREST_WANT,
										  Min(10 * so->nreturned, ShBudgetRows())));
	else
		so->done_radius = RadiusSearch(scan, so->ocenter[0], radius, 0.5);
	so->nreturned += so->nres;
	if (so->done_radius >= SIMHASH_BITS)
		so->exhausted = true;
	SortResults(so);
}

/*
 * Fills so->res with the next results in order: with a qual to drive the
 * search, or no ORDER BY, everything at once; for k-NN the next step.
 */
static void
NextBatch(IndexScanDesc scan)
{
	ShScanOpaque so = (ShScanOpaque) scan->opaque;

	so->nres = so->pos = 0;
	if (so->empty)
	{
		so->exhausted = true;
		return;
	}
	if (so->drive < 0 && so->norder > 0)
	{
		NearestStep(scan);
		return;
	}
	/*
	 * Without ORDER BY the rows come a batch of at most so->batch_rows at a
	 * time (work_mem); with it (and a qual driving), all at once, sorted.
	 */
	if (!so->searching)
		StartSearchQuals(scan);
	if (ContinueSearch(scan))
	{
		so->exhausted = true;
		so->searching = false;
	}
	SortResults(so);
}

bool
shgettuple(IndexScanDesc scan, ScanDirection dir)
{
	ShScanOpaque so = (ShScanOpaque) scan->opaque;

	if (dir != ForwardScanDirection)
		elog(ERROR, "simhash indexes only scan forward");
	PopConflictContext(so);
	if (so->deferred)
		return false;
	if (!so->ready)
	{
		PrepareScan(scan);
		ShStashClaim(scan);
	}

	while (so->pos >= so->nres)
	{
		if (so->exhausted)
			return false;
		NextBatch(scan);
		CHECK_FOR_INTERRUPTS();
	}

	scan->xs_heaptid = so->res[so->pos].tid;
	scan->xs_recheck = so->recheck || !IsMVCCSnapshot(scan->xs_snapshot);
	if (scan->xs_want_itup)
	{
		if (so->itup == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("simhash index \"%s\" cannot return its columns",
							RelationGetRelationName(scan->indexRelation))));
		/*
		 * Index-only scan.  The planner can choose one for a query that
		 * needs no column even though amcanreturn is NULL; cost.c prices
		 * such paths out (see the handler), but if one runs anyway, hand
		 * back the stored fingerprint rather than fail.
		 */
		memcpy((char *) so->itup + IndexInfoFindDataOffset(so->itup->t_info),
			   &so->res[so->pos].fp, sizeof(uint64));
		so->itup->t_tid = so->res[so->pos].tid;
		scan->xs_itup = so->itup;
		scan->xs_itupdesc = RelationGetDescr(scan->indexRelation);
	}
	if (scan->numberOfOrderBys > 0)
	{
		for (int i = 0; i < scan->numberOfOrderBys; i++)
		{
			if (so->order_null)
			{
				scan->xs_orderbyvals[i] = (Datum) 0;
				scan->xs_orderbynulls[i] = true;
			}
			else if (so->unscoped)
			{
				/* 0: a lower bound; the executor computes and sorts */
				scan->xs_orderbyvals[i] = Int32GetDatum(0);
				scan->xs_orderbynulls[i] = false;
			}
			else
			{
				scan->xs_orderbyvals[i] =
					Int32GetDatum(SimhashDistance(so->res[so->pos].fp, so->ocenter[i]));
				scan->xs_orderbynulls[i] = false;
			}
		}
		scan->xs_recheckorderby = so->unscoped;
	}
	if (scan->xs_snapshot->snapshot_type == SNAPSHOT_DIRTY && so->drive >= 0)
		PushConflictContext(so, so->res[so->pos].fp);
	so->pos++;
	return true;
}

int64
shgetbitmap(IndexScanDesc scan, TIDBitmap *tbm)
{
	ShScanOpaque so = (ShScanOpaque) scan->opaque;

	if (so->deferred)
		return 0;
	PrepareScan(scan);
	if (stash != NULL && stash->row.indexoid == RelationGetRelid(scan->indexRelation))
		stash->ready = false;
	if (so->empty)
		return 0;
	so->tbm = tbm;
	so->ntids = 0;
	so->batch_rows = 0;			/* the bitmap keeps to work_mem itself */
	StartSearchQuals(scan);
	ContinueSearch(scan);
	so->searching = false;
	so->tbm = NULL;
	so->ready = false;
	return so->ntids;
}

void
shendscan(IndexScanDesc scan)
{
	ShScanOpaque so = (ShScanOpaque) scan->opaque;

	PopConflictContext(so);
	MemoryContextDelete(so->cxt);
	pfree(so->qcenter);
	pfree(so->qradius);
	pfree(so->ocenter);
	if (so->itup)
		pfree(so->itup);
	pfree(so);
	scan->opaque = NULL;
}
