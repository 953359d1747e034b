/*
 * index/cost.c
 *	  Planner support for simhash indexes: the cost estimate, and the
 *	  selectivity estimator of the radius operator <@.
 *
 * THE COST MODEL
 *
 * A radius-r search follows its probe plan (probe.c): in each block table
 * t with s_t >= 0, every prefix within s_t of the query's, C(P, 0) + ... +
 * C(P, s_t) buckets, capped by the bucket pages a table has.  Each probed
 * bucket is one random page read (the metapage and directory pages are few
 * and stay cached) and costs one popcount per entry on it.  When the probes
 * would read as many pages as a whole table, the scan reads one table
 * instead, which is what we charge then.  So a radius-3 lookup among millions of
 * rows costs four page reads, while radius 30 costs a whole table and a
 * sequential scan wins on small tables.
 *
 * A k-NN scan (ORDER BY fp <-> q with no qual) grows its radius until it
 * has returned enough rows; we charge the first steps as start-up cost and
 * reading a whole table as the total, so that with LIMIT n the planner's
 * interpolation prefers the index while n is small.  When other clauses
 * (a filter, a scope) keep only a fraction f of the rows, the first steps
 * must reach 1/f times more rows and each row passed over costs a heap
 * visit: that goes into the start-up cost, which LIMIT does not scale.
 *
 * When the ball is not a constant (a parameter), we assume radius 3, the
 * near-duplicate threshold of Manku et al. and the common case.
 *
 * Scoped indexes (scope.c).  An equality on every scope column makes the
 * search one scope's, with the probes of a single-column index: the same
 * pages, fewer rows returned (genericcostestimate's selectivity counts the
 * scope clauses).  A k-NN scan in one scope expects only that scope's rows
 * within each radius, so its first steps reach farther.  Without a value for
 * every scope column the index can only return every row unordered, for the
 * executor to filter and sort: priced as disabled.
 */
#include "index/shindex.h"

#include "access/relation.h"
#include "access/htup_details.h"
#include "catalog/pg_statistic.h"
#include "catalog/pg_type.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/paths.h"
#include "utils/lsyscache.h"
#include "utils/selfuncs.h"
#include "utils/spccache.h"

#include "type/simhash.h"

#define SH_ASSUMED_RADIUS 3

/* The radius an index clause searches: from its constant, or assumed. */
static int
ClauseRadius(RestrictInfo *rinfo, int *strategy)
{
	OpExpr	   *op = (OpExpr *) rinfo->clause;
	Node	   *arg;

	if (!IsA(op, OpExpr) || list_length(op->args) != 2)
		return SH_ASSUMED_RADIUS;
	arg = (Node *) lsecond(op->args);
	if (exprType(arg) != exprType((Node *) linitial(op->args)))
	{
		/* fp <@ ball */
		if (IsA(arg, Const) && !((Const *) arg)->constisnull)
			return ((SimhashBall *) DatumGetPointer(((Const *) arg)->constvalue))->radius;
		return SH_ASSUMED_RADIUS;
	}
	return 0;					/* fp = value */
}

/*
 * The radius of the search a path's quals drive: that of the qual with the
 * smallest radius (at least 0), or -1 when there is no qual.
 */
static int
DrivingRadius(IndexPath *path, int fpcol)
{
	int			radius = -1;
	int			strategy = 0;
	ListCell   *lc;

	foreach(lc, path->indexclauses)
	{
		IndexClause *iclause = lfirst_node(IndexClause, lc);
		ListCell   *lc2;

		if (iclause->indexcol != fpcol)
			continue;			/* a scope column's = */
		foreach(lc2, iclause->indexquals)
		{
			int			r = ClauseRadius(lfirst_node(RestrictInfo, lc2), &strategy);

			if (radius < 0 || r < radius)
				radius = Max(r, 0);
		}
	}
	return radius;
}

void
shcostestimate(PlannerInfo *root, IndexPath *path, double loop_count,
			   Cost *indexStartupCost, Cost *indexTotalCost,
			   Selectivity *indexSelectivity, double *indexCorrelation,
			   double *indexPages)
{
	IndexOptInfo *index = path->indexinfo;
	GenericCosts costs;
	Relation	rel;
	ShLayout	layout;
	double		ntuples = Max(index->tuples, 1.0);
	double		perTable;
	double		pages;
	double		examined;
	double		spc_random_page_cost;
	int			radius;
	int			fpcol = index->nkeycolumns - 1;
	bool		scoped[INDEX_MAX_KEYS] = {false};
	double		keep = 1.0;
	bool		unscoped = false;
	ListCell   *lc;

	MemSet(&costs, 0, sizeof(costs));
	genericcostestimate(root, path, loop_count, &costs);

	rel = relation_open(index->indexoid, NoLock);
	layout = *ShGetLayout(rel);
	relation_close(rel, NoLock);
	get_tablespace_page_costs(index->reltablespace, &spc_random_page_cost, NULL);

	perTable = Max(1.0, (double) (index->pages - 1) / layout.ntables);

	foreach(lc, path->indexclauses)
	{
		IndexClause *iclause = lfirst_node(IndexClause, lc);

		if (iclause->indexcol < fpcol)
			scoped[iclause->indexcol] = true;
	}
	for (int i = 0; i < fpcol; i++)
		unscoped |= !scoped[i];
	/* The fraction of the table's rows the query keeps (scopes, filters). */
	if (index->rel->tuples > 0)
		keep = Min(1.0, Max(index->rel->rows / index->rel->tuples, 1.0 / ntuples));

	radius = unscoped ? -1 : DrivingRadius(path, fpcol);
	if (radius >= 0)
	{
		ShProbePlan plan;

		ShPlanProbes(&plan, &layout, radius, index->pages);
		if (ShProbesCostTable(&plan, 1.0))
		{
			pages = perTable;
			examined = ntuples;
		}
		else
		{
			pages = plan.pages;
			examined = plan.pages * ntuples / perTable;
		}
		*indexStartupCost = 0;
		*indexTotalCost = pages * spc_random_page_cost +
			examined * cpu_operator_cost +
			costs.numIndexTuples * cpu_index_tuple_cost;
	}
	else if (path->indexorderbys != NIL)
	{
		/*
		 * k-NN: the first steps, then a whole table.  The steps must reach
		 * a few dozen rows the query keeps: when a scope or a filter keeps
		 * a fraction f of the rows, a radius with 1/f times more rows, and
		 * the rows passed over cost a heap visit each before the first row
		 * comes out.  (LIMIT n scales the total only: without this a
		 * selective filter made a k-NN scan look nearly free.)
		 */
		ShProbePlan plan;
		int			r = 0;

		while (r < SIMHASH_BITS && ntuples * keep * ShWithinProbability(r) < 30.0)
			r++;
		ShPlanProbes(&plan, &layout, r, index->pages);
		pages = perTable;
		examined = ntuples;
		*indexStartupCost = Min(Max(plan.pages, layout.ntables), perTable) *
			spc_random_page_cost +
			Min(1.0 / keep - 1.0, ntuples) * spc_random_page_cost;
		*indexTotalCost = *indexStartupCost + pages * spc_random_page_cost +
			examined * (cpu_operator_cost + cpu_index_tuple_cost);
	}
	else
	{
		/*
		 * No qual and no order (an index-only scan wanting no column, say
		 * count(*)): the whole of table 0 is read and every row copied to
		 * memory before the first is returned.
		 */
		pages = perTable;
		examined = ntuples;
		*indexStartupCost = pages * spc_random_page_cost +
			examined * (2 * cpu_operator_cost + cpu_index_tuple_cost);
		*indexTotalCost = *indexStartupCost + examined * cpu_index_tuple_cost;
	}
	/*
	 * A scoped index without a value for every scope column can only return
	 * every row of the index: price it above a disabled sequential scan so
	 * that it is never chosen.  (Index-only scans are removed by the
	 * planner hook, ShForbidIndexOnlyScans, below.)
	 */
	if (unscoped)
	{
		*indexStartupCost += 2 * disable_cost;
		*indexTotalCost += 2 * disable_cost;
	}
	*indexSelectivity = costs.indexSelectivity;
	*indexCorrelation = 0;
	*indexPages = pages;
}

/*
 * simhash_within_sel: RESTRICT estimator of fp <@ ball (and ball @> fp).
 *
 * For uniformly random fingerprints the fraction within radius r is the
 * binomial tail ShWithinProbability(r).  Real collections are clustered
 * (near-duplicates are why the index exists), which that underestimates,
 * so we also test the ball against the column's most common values and its
 * histogram sample, and take the larger of the two estimates.  Unlike
 * generic_restriction_selectivity we do not raise a sample that found no
 * match to 1/10000: for radius 3 among random codes the truth is ~1e-15.
 * XXX: a sample of ~100 values sees a cluster only when it is at least ~1%
 * of the table; smaller clusters are still underestimated.
 */
PG_FUNCTION_INFO_V1(simhash_within_sel);
Datum
simhash_within_sel(PG_FUNCTION_ARGS)
{
	PlannerInfo *root = (PlannerInfo *) PG_GETARG_POINTER(0);
	Oid			operator = PG_GETARG_OID(1);
	List	   *args = (List *) PG_GETARG_POINTER(2);
	int			varRelid = PG_GETARG_INT32(3);
	VariableStatData vardata;
	Node	   *other;
	bool		varonleft;
	int			radius = SH_ASSUMED_RADIUS;
	double		nullfrac = 0.0;
	double		sampled = 0.0;
	double		selec;

	if (get_restriction_variable(root, args, varRelid, &vardata, &other, &varonleft))
	{
		if (IsA(other, Const))
		{
			Const	   *c = (Const *) other;
			FmgrInfo	opproc;
			double		sumcommon = 0.0;
			double		histsel;
			int			hist_size;

			if (c->constisnull)
			{
				ReleaseVariableStats(vardata);
				PG_RETURN_FLOAT8(0.0);
			}
			radius = ((SimhashBall *) DatumGetPointer(c->constvalue))->radius;

			if (HeapTupleIsValid(vardata.statsTuple))
			{
				nullfrac = ((Form_pg_statistic) GETSTRUCT(vardata.statsTuple))->stanullfrac;
				fmgr_info(get_opcode(operator), &opproc);
				sampled = mcv_selectivity(&vardata, &opproc, InvalidOid, c->constvalue,
										  varonleft, &sumcommon);
				histsel = histogram_selectivity(&vardata, &opproc, InvalidOid, c->constvalue,
												varonleft, 10, 0, &hist_size);
				if (histsel > 0)
					sampled += histsel * Max(0.0, 1.0 - nullfrac - sumcommon);
			}
		}
		ReleaseVariableStats(vardata);
	}

	selec = Max(ShWithinProbability(radius) * (1.0 - nullfrac), sampled);
	CLAMP_PROBABILITY(selec);
	PG_RETURN_FLOAT8(selec);
}

/*
 * NO INDEX-ONLY SCANS
 *
 * The planner offers an index-only scan of any index for a query that needs
 * no column of the table (count(*), EXISTS), even one whose access method
 * cannot return values (amcanreturn NULL).  Ours must never run one: it
 * would skip the heap for TIDs that a concurrent VACUUM may already have
 * freed and the visibility map marked visible (see the handler).  Pricing
 * it out is not enough (a sequential scan may cost more, and from
 * PostgreSQL 18 a disabled plan loses to any enabled one whatever its
 * cost), so such paths are removed once a relation's paths are built; a
 * sequential scan is added back should nothing else remain.
 */
static set_rel_pathlist_hook_type prev_set_rel_pathlist = NULL;

static void
ShForbidIndexOnlyScans(PlannerInfo *root, RelOptInfo *rel, Index rti,
					   RangeTblEntry *rte)
{
	ListCell   *lc;
	bool		removed = false;

	if (prev_set_rel_pathlist)
		prev_set_rel_pathlist(root, rel, rti, rte);
	foreach(lc, rel->pathlist)
	{
		Path	   *p = (Path *) lfirst(lc);

		if (IsA(p, IndexPath) && p->pathtype == T_IndexOnlyScan &&
			((IndexPath *) p)->indexinfo->amcostestimate == (void *) shcostestimate)
		{
			rel->pathlist = foreach_delete_current(rel->pathlist, lc);
			removed = true;
		}
	}
	if (removed && rel->pathlist == NIL && rel->rtekind == RTE_RELATION)
		add_path(rel, create_seqscan_path(root, rel, rel->lateral_relids, 0));
}

/* Installs the planner hook above; called once from _PG_init. */
void
ShCostInit(void)
{
	prev_set_rel_pathlist = set_rel_pathlist_hook;
	set_rel_pathlist_hook = ShForbidIndexOnlyScans;
}
