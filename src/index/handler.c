/*
 * index/handler.c
 *	  The simhash index access method's handler and its reloptions.
 *
 * The handler tells the core what the access method can do; each callback
 * lives in the file of its phase (build.c, insert.c, scan.c, vacuum.c,
 * cost.c, validate.c).
 */
#include "index/shindex.h"

#include "access/reloptions.h"
#include "commands/progress.h"
#include "commands/vacuum.h"

static relopt_kind sh_relopt_kind;

/*
 * Registers the reloptions, the batching callbacks and the planner hook;
 * called once from _PG_init.
 */
void
SimhashIndexInit(void)
{
	ShPendingInit();
	ShCostInit();
	sh_relopt_kind = add_reloption_kind();
	add_int_reloption(sh_relopt_kind, "blocks",
					  "Number of blocks (and block tables) the 64 bits are cut into",
					  SH_DEFAULT_BLOCKS, 1, SH_MAX_TABLES, AccessExclusiveLock);
	add_int_reloption(sh_relopt_kind, "fillfactor",
					  "Percentage of each bucket page filled by a bulk build",
					  SH_DEFAULT_FILLFACTOR, SH_MIN_FILLFACTOR, 100,
					  AccessExclusiveLock);
}

/* amoptions: parse and validate WITH (blocks = m, fillfactor = f). */
bytea *
shoptions(Datum reloptions, bool validate)
{
	static const relopt_parse_elt tab[] = {
		/* by name: PostgreSQL 18 added a field (isset_offset) */
		{.optname = "blocks", .opttype = RELOPT_TYPE_INT,
		.offset = offsetof(ShOptions, blocks)},
		{.optname = "fillfactor", .opttype = RELOPT_TYPE_INT,
		.offset = offsetof(ShOptions, fillfactor)},
	};

	return (bytea *) build_reloptions(reloptions, validate, sh_relopt_kind,
									  sizeof(ShOptions), tab, lengthof(tab));
}

/*
 * Fills *layout for m = blocks tables.  Block 0 holds the most significant
 * bits; when m does not divide 64 the first 64 % m blocks get one more bit.
 * This computation is part of the on-disk format: changing it needs a new
 * SH_VERSION.
 */
void
ShLayoutFromOptions(ShLayout *layout, int blocks, int fillfactor)
{
	int			top = SIMHASH_BITS;

	memset(layout, 0, sizeof(ShLayout));
	layout->ntables = blocks;
	layout->fillfactor = fillfactor;
	layout->target = Max(1, (int) (SH_PAGE_CAPACITY * fillfactor / 100));
	for (int t = 0; t < blocks; t++)
	{
		int			width = SIMHASH_BITS / blocks + (t < SIMHASH_BITS % blocks ? 1 : 0);
		int			pbits = Min(width, SH_MAX_PREFIX_BITS);

		layout->width[t] = width;
		layout->shift[t] = top - width;
		layout->mask[t] = (width == 64 ? ~UINT64CONST(0) :
						   ((UINT64CONST(1) << width) - 1) << (top - width));
		layout->pbits[t] = pbits;
		layout->pshift[t] = top - pbits;
		layout->pmask[t] = (uint32) ((UINT64CONST(1) << pbits) - 1);
		layout->nchunks[t] = Max(1, (1 << pbits) >> SH_CHUNK_BITS);
		top -= width;
	}
}

/*
 * Build phase names for pg_stat_progress_create_index.
 */
char *
shbuildphasename(int64 phasenum)
{
	switch (phasenum)
	{
		case PROGRESS_CREATEIDX_SUBPHASE_INITIALIZE:
			return "initializing";
		case 2:
			return "scanning table";
		case 3:
			return "writing block tables";
		case 4:
			return "inserting beyond maintenance_work_mem";
		default:
			return NULL;
	}
}

PG_FUNCTION_INFO_V1(simhash_am_handler);
Datum
simhash_am_handler(PG_FUNCTION_ARGS)
{
	IndexAmRoutine *amroutine = makeNode(IndexAmRoutine);

	amroutine->amstrategies = SH_NSTRATEGIES;
	amroutine->amsupport = SH_NPROCS;
	amroutine->amoptsprocnum = 0;
	amroutine->amcanorder = false;
	amroutine->amcanorderbyop = true;
	amroutine->amcanbackward = false;
	amroutine->amcanunique = false;
	amroutine->amcanmulticol = true;	/* scope columns, then the fingerprint */
	/* No qualifier is needed: ORDER BY fp <-> q alone is a k-NN scan. */
	amroutine->amoptionalkey = true;
	amroutine->amsearcharray = false;
	amroutine->amsearchnulls = false;
	amroutine->amstorage = false;
	amroutine->amclusterable = false;
	amroutine->ampredlocks = true;	/* bucket pages: scan.c, insert.c */
	amroutine->amcanparallel = false;
	amroutine->amcaninclude = false;
	amroutine->amusemaintenanceworkmem = false;
	amroutine->amparallelvacuumoptions =
		VACUUM_OPTION_PARALLEL_BULKDEL | VACUUM_OPTION_PARALLEL_CLEANUP;
	amroutine->amkeytype = InvalidOid;

	amroutine->ambuild = shbuild;
	amroutine->ambuildempty = shbuildempty;
	amroutine->aminsert = shinsert;
	amroutine->ambulkdelete = shbulkdelete;
	amroutine->amvacuumcleanup = shvacuumcleanup;
	/*
	 * No index-only scans, although entries hold the whole fingerprint: the
	 * executor would trust the visibility map for TIDs we collected before
	 * a concurrent VACUUM removed them, and the pin interlock that prevents
	 * that (VACUUM waiting for a cleanup lock) cannot work on a standby,
	 * where generic WAL replay takes no cleanup locks.  The planner would
	 * still offer one to queries that need no column; cost.c removes it.
	 */
	amroutine->amcanreturn = NULL;
	amroutine->amcostestimate = shcostestimate;
	amroutine->amoptions = shoptions;
	amroutine->amproperty = NULL;
	amroutine->ambuildphasename = shbuildphasename;
	amroutine->amvalidate = shvalidate;
	amroutine->ambeginscan = shbeginscan;
	amroutine->amrescan = ShPendingRescan;
	amroutine->amgettuple = shgettuple;
	amroutine->amgetbitmap = shgetbitmap;
	amroutine->amendscan = shendscan;
	amroutine->ammarkpos = NULL;
	amroutine->amrestrpos = NULL;
	amroutine->amestimateparallelscan = NULL;
	amroutine->aminitparallelscan = NULL;
	amroutine->amparallelrescan = NULL;

	PG_RETURN_POINTER(amroutine);
}
