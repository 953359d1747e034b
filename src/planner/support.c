/*
 * planner/support.c
 *	  Planner support: "fp <-> q <= k", written so, is answered from an index.
 *
 * PostgreSQL matches a clause to an index only when one operand of its top
 * operator is the indexed column; in (fp <-> q) <= k neither is.  The
 * extension therefore owns the whole expression and rewrites it while the
 * planner folds constants (SupportRequestSimplify), which happens before
 * index matching and needs no preloaded library or hook.
 *
 * Comparisons.  fp <-> q returns simhash_distance, a domain over int4
 * (clients see int4), and the comparison operators on that domain are the
 * extension's own.  Their functions carry simhash_distance_support, which
 * rewrites, with d = fp <-> q and W(k) meaning "hamming distance <= k":
 *		d <= k	into	W(k)
 *		d <  k	into	W(k - 1)		(k - 1 saturating at INT_MIN)
 *		d >  k	into	NOT W(k)
 *		d >= k	into	NOT W(k - 1)
 *		d =  k	into	W(k) AND NOT W(k - 1)
 *		d <> k	into	NOT (W(k) AND NOT W(k - 1))
 * and k op d by commuting.  = and <> are rewritten only when fp, q and k are
 * cheap to evaluate twice (never volatile).  Every form is NULL exactly when
 * fp, q or k is, so the rewrite is exact in any context.  Writing > and >=
 * as negations lets NOT (d > k) fold back into W(k).  A comparison that is
 * not rewritten so becomes the core int4 comparison, which keeps btree
 * indexes, merge and hash joins and statistics working on stored distances.
 *
 * W(k) is "fp <@ simhash_ball(q, k)" when q is constant within the query
 * level (a literal, a parameter, an outer reference, a sublink) and fp is
 * not: exactly the index condition.  When both vary (a join), W(k) is
 * hamming_within(fp, q, k), and its SupportRequestIndexCondition builds
 * "fp <@ simhash_ball(q, k)" or "q <@ simhash_ball(fp, k)" for whichever
 * side is indexed: only that step knows.  That condition is exact
 * (lossy = false), although a bitmap scan still rechecks hamming_within,
 * as the planner cannot prove the one from the other.
 *
 * ORDER BY fp <-> q.  An index orders by an operator whose result the sort
 * opfamily (integer_ops) orders, and the sort key of a domain expression is
 * its int4 relabeling, so the support function of hamming_distance itself
 * rewrites every fp <-> q into fp <-># q (the int4 twin, which the index
 * opclass declares FOR ORDER BY integer_ops) wrapped in a RelabelType back
 * to the domain; the planner strips the wrapper when it builds sort keys.
 * Stored views and rules are not rewritten: they keep showing <->.
 *
 * Objects are recognised by OID only.  The OIDs are looked up once per
 * backend, by name and signature in the schema of the extension, which is
 * the schema of the support or estimator function that is running; the
 * cache is dropped whenever pg_proc changes (DROP/CREATE EXTENSION), and
 * stays right across ALTER EXTENSION SET SCHEMA (OIDs do not change).
 *
 * The join estimator of <@ lives here too; its restriction estimator is the
 * index's (src/index/cost.c).
 */
#include "type/simhash.h"
#include "planner/planner.h"

#include <math.h>

#include "catalog/pg_operator_d.h"
#include "catalog/pg_proc_d.h"
#include "catalog/pg_type_d.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/supportnodes.h"
#include "optimizer/optimizer.h"
#include "optimizer/plancat.h"
#include "optimizer/planmain.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"


/* Core int4 comparison operators without a symbolic name in pg_operator_d.h. */
#define INT4_NE_OPERATOR	518
#define INT4_GT_OPERATOR	521
#define INT4_LE_OPERATOR	523
#define INT4_GE_OPERATOR	525
#define INT4_MINUS_OPERATOR 555

/* Selectivity when nothing is known about the radius (DEFAULT_MATCH_SEL). */
#define DEFAULT_WITHIN_SEL	0.005

typedef enum DistanceComparison
{
	CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE, CMP_COUNT
} DistanceComparison;

typedef enum ComparisonSignature
{
	SIG_DISTANCE_INT4,			/* (simhash_distance, integer) */
	SIG_INT4_DISTANCE,			/* (integer, simhash_distance) */
	SIG_DISTANCE_DISTANCE,		/* (simhash_distance, simhash_distance) */
	SIG_DISTANCE_INT2,			/* (simhash_distance, smallint) */
	SIG_INT2_DISTANCE,			/* (smallint, simhash_distance) */
	SIG_DISTANCE_INT8,			/* (simhash_distance, bigint) */
	SIG_INT8_DISTANCE,			/* (bigint, simhash_distance) */
	SIG_COUNT
} ComparisonSignature;

static const char *const comparison_names[CMP_COUNT] = {
	"eq", "ne", "lt", "le", "gt", "ge"
};

/* SQL name of each signature's functions, %s being the comparison. */
static const char *const signature_names[SIG_COUNT] = {
	"simhash_distance_%s", "simhash_distance_%s", "simhash_distance_%s",
	"simhash_distance_%s_int2", "int2_%s_simhash_distance",
	"simhash_distance_%s_int8", "int8_%s_simhash_distance"
};

/* Which side of each signature is a simhash_distance. */
#define SIG_LEFT_IS_DISTANCE(sig) \
	((sig) == SIG_DISTANCE_INT4 || (sig) == SIG_DISTANCE_DISTANCE || \
	 (sig) == SIG_DISTANCE_INT2 || (sig) == SIG_DISTANCE_INT8)
#define SIG_RIGHT_IS_DISTANCE(sig) \
	((sig) == SIG_INT4_DISTANCE || (sig) == SIG_DISTANCE_DISTANCE || \
	 (sig) == SIG_INT2_DISTANCE || (sig) == SIG_INT8_DISTANCE)

/* k op d is d commuted(op) k. */
static const DistanceComparison commuted[CMP_COUNT] = {
	CMP_EQ, CMP_NE, CMP_GT, CMP_GE, CMP_LT, CMP_LE
};

static const Oid int4_operators[CMP_COUNT] = {
	Int4EqualOperator, INT4_NE_OPERATOR, Int4LessOperator,
	INT4_LE_OPERATOR, INT4_GT_OPERATOR, INT4_GE_OPERATOR
};

/* The extension's objects the planner support recognises or builds. */
typedef struct SimhashPlannerOids
{
	Oid			namespace;		/* key: the extension's schema */
	Oid			simhash_type;
	Oid			distance_type;	/* simhash_distance */
	Oid			ball_type;
	Oid			distance_fn;	/* hamming_distance, behind <-> */
	Oid			distance_op;	/* <-> (simhash, simhash) */
	Oid			twin_fn;		/* hamming_distance_int4 */
	Oid			twin_op;		/* <-># (simhash, simhash) */
	Oid			within_fn;		/* hamming_within(simhash, simhash, integer) */
	Oid			ball_fn;		/* simhash_ball(simhash, integer) */
	Oid			ball_op;		/* <@ (simhash, simhash_ball) */
	Oid			ball_op_fn;		/* its function */
	Oid			radius_fn;		/* simhash_radius(bigint), or invalid */
	Oid			radius_below_fn;	/* simhash_radius_below(integer), or invalid */
	Oid			comparison_fn[CMP_COUNT][SIG_COUNT];
} SimhashPlannerOids;

static SimhashPlannerOids planner_oids;
static bool planner_oids_valid = false;
static uint64 planner_oids_generation = 0;	/* counts invalidations */

/* Drops the cached OIDs; pg_proc changed (maybe the extension came or went). */
static void
InvalidatePlannerOids(Datum arg, int cacheid, uint32 hashvalue)
{
	planner_oids_valid = false;
	planner_oids_generation++;
}

/* Called from _PG_init. */
void
SimhashPlannerInit(void)
{
	CacheRegisterSyscacheCallback(PROCOID, InvalidatePlannerOids, (Datum) 0);
}

static Oid
LookupType(const char *name, Oid nsp)
{
	return GetSysCacheOid2(TYPENAMENSP, Anum_pg_type_oid,
						   CStringGetDatum(name), ObjectIdGetDatum(nsp));
}

static Oid
LookupOperator(const char *name, Oid left, Oid right, Oid nsp)
{
	return GetSysCacheOid4(OPERNAMENSP, Anum_pg_operator_oid,
						   CStringGetDatum(name), ObjectIdGetDatum(left),
						   ObjectIdGetDatum(right), ObjectIdGetDatum(nsp));
}

static Oid
LookupFunction(const char *name, int nargs, const Oid *argtypes, Oid nsp)
{
	return GetSysCacheOid3(PROCNAMEARGSNSP, Anum_pg_proc_oid,
						   CStringGetDatum(name),
						   PointerGetDatum(buildoidvector(argtypes, nargs)),
						   ObjectIdGetDatum(nsp));
}

/*
 * Returns the extension's OIDs, looked up in the schema of caller_fn (the
 * support or estimator function that is running, always one of the
 * extension's own), or NULL when some object is missing (an extension
 * script still running, or SQL objects of a version this library does not
 * know): then nothing is rewritten, and the lookup is retried next time.
 */
static const SimhashPlannerOids *
GetPlannerOids(Oid caller_fn)
{
	SimhashPlannerOids o;
	Oid			nsp = get_func_namespace(caller_fn);
	uint64		generation = planner_oids_generation;
	Oid			args[3];
	Oid			sigs[SIG_COUNT][2];

	if (planner_oids_valid && planner_oids.namespace == nsp)
		return &planner_oids;
	if (!OidIsValid(nsp))
		return NULL;

	memset(&o, 0, sizeof(o));
	o.namespace = nsp;

	o.simhash_type = LookupType("simhash", nsp);
	o.distance_type = LookupType("simhash_distance", nsp);
	o.ball_type = LookupType("simhash_ball", nsp);
	if (!OidIsValid(o.simhash_type) || !OidIsValid(o.distance_type) ||
		!OidIsValid(o.ball_type))
		return NULL;

	args[0] = args[1] = o.simhash_type;
	args[2] = INT4OID;
	o.distance_fn = LookupFunction("hamming_distance", 2, args, nsp);
	o.twin_fn = LookupFunction("hamming_distance_int4", 2, args, nsp);
	o.within_fn = LookupFunction("hamming_within", 3, args, nsp);
	o.distance_op = LookupOperator("<->", o.simhash_type, o.simhash_type, nsp);
	o.twin_op = LookupOperator("<->#", o.simhash_type, o.simhash_type, nsp);
	args[1] = INT4OID;
	o.ball_fn = LookupFunction("simhash_ball", 2, args, nsp);
	o.ball_op = LookupOperator("<@", o.simhash_type, o.ball_type, nsp);
	o.ball_op_fn = OidIsValid(o.ball_op) ? get_opcode(o.ball_op) : InvalidOid;
	/* optional: without them (an older install script) core functions serve */
	args[0] = INT8OID;
	o.radius_fn = LookupFunction("simhash_radius", 1, args, nsp);
	args[0] = INT4OID;
	o.radius_below_fn = LookupFunction("simhash_radius_below", 1, args, nsp);
	if (!OidIsValid(o.distance_fn) || !OidIsValid(o.twin_fn) ||
		!OidIsValid(o.within_fn) || !OidIsValid(o.distance_op) ||
		!OidIsValid(o.twin_op) || !OidIsValid(o.ball_fn) ||
		!OidIsValid(o.ball_op))
		return NULL;

	sigs[SIG_DISTANCE_INT4][0] = o.distance_type;
	sigs[SIG_DISTANCE_INT4][1] = INT4OID;
	sigs[SIG_INT4_DISTANCE][0] = INT4OID;
	sigs[SIG_INT4_DISTANCE][1] = o.distance_type;
	sigs[SIG_DISTANCE_DISTANCE][0] = o.distance_type;
	sigs[SIG_DISTANCE_DISTANCE][1] = o.distance_type;
	sigs[SIG_DISTANCE_INT2][0] = o.distance_type;
	sigs[SIG_DISTANCE_INT2][1] = INT2OID;
	sigs[SIG_INT2_DISTANCE][0] = INT2OID;
	sigs[SIG_INT2_DISTANCE][1] = o.distance_type;
	sigs[SIG_DISTANCE_INT8][0] = o.distance_type;
	sigs[SIG_DISTANCE_INT8][1] = INT8OID;
	sigs[SIG_INT8_DISTANCE][0] = INT8OID;
	sigs[SIG_INT8_DISTANCE][1] = o.distance_type;
	for (int cmp = 0; cmp < CMP_COUNT; cmp++)
		for (int sig = 0; sig < SIG_COUNT; sig++)
		{
			char		name[NAMEDATALEN];

			snprintf(name, sizeof(name), signature_names[sig], comparison_names[cmp]);
			o.comparison_fn[cmp][sig] = LookupFunction(name, 2, sigs[sig], nsp);
			if (!OidIsValid(o.comparison_fn[cmp][sig]))
				return NULL;
		}

	planner_oids = o;
	/* not cached if pg_proc changed while we were reading it */
	planner_oids_valid = (generation == planner_oids_generation);
	return &planner_oids;
}

/* Finds which comparison funcid implements; false if none. */
static bool
IdentifyComparison(const SimhashPlannerOids *oids, Oid funcid,
				   DistanceComparison *cmp, ComparisonSignature *sig)
{
	for (int c = 0; c < CMP_COUNT; c++)
		for (int s = 0; s < SIG_COUNT; s++)
			if (oids->comparison_fn[c][s] == funcid)
			{
				*cmp = (DistanceComparison) c;
				*sig = (ComparisonSignature) s;
				return true;
			}
	return false;
}

/*
 * If expr computes a Hamming distance (fp <-> q, fp <-># q, or either
 * function called by name, under any relabeling), sets *a and *b to its
 * operands and returns true.
 */
static bool
MatchDistance(const SimhashPlannerOids *oids, Node *expr, Node **a, Node **b)
{
	while (expr && IsA(expr, RelabelType))
		expr = (Node *) ((RelabelType *) expr)->arg;
	if (expr == NULL)
		return false;

	if (IsA(expr, OpExpr))
	{
		OpExpr	   *op = (OpExpr *) expr;

		if ((op->opno == oids->twin_op || op->opno == oids->distance_op) &&
			list_length(op->args) == 2)
		{
			*a = linitial(op->args);
			*b = lsecond(op->args);
			return true;
		}
	}
	else if (IsA(expr, FuncExpr))
	{
		FuncExpr   *func = (FuncExpr *) expr;

		if ((func->funcid == oids->twin_fn || func->funcid == oids->distance_fn) &&
			list_length(func->args) == 2)
		{
			*a = linitial(func->args);
			*b = lsecond(func->args);
			return true;
		}
	}
	return false;
}

/* expr (an int4 or a simhash_distance) as an int4 expression. */
static Node *
AsInt4(Node *expr)
{
	return applyRelabelType(expr, INT4OID, -1, InvalidOid,
							COERCE_IMPLICIT_CAST, -1, false);
}

static Node *
MakeInt4Const(int32 value)
{
	return (Node *) makeConst(INT4OID, -1, InvalidOid, sizeof(int32),
							  Int32GetDatum(value), false, true);
}

/*
 * The radius k of "d op k" as an int4 expression with the same meaning for
 * every comparison: a smallint widens; a bigint is clamped to [-1, 65],
 * which changes no comparison with a distance (always 0..64).  Constants
 * are converted here; other expressions by simhash_radius(bigint), which
 * is leakproof (it cannot fail), so that the rewritten clause can still be
 * an index condition under row-level security, or, without it, by core's
 * strict casts and int8larger/int8smaller.  A NULL stays NULL.
 */
static Node *
AsRadius(const SimhashPlannerOids *oids, Node *k)
{
	Oid			type = exprType(k);

	if (type == INT2OID)
	{
		if (IsA(k, Const) && !((Const *) k)->constisnull)
			return MakeInt4Const(DatumGetInt16(((Const *) k)->constvalue));
		return (Node *) makeFuncExpr(F_INT4_INT2, INT4OID, list_make1(k),
									 InvalidOid, InvalidOid, COERCE_IMPLICIT_CAST);
	}
	if (type == INT8OID)
	{
		Node	   *clamped;

		if (IsA(k, Const) && !((Const *) k)->constisnull)
		{
			int64		v = DatumGetInt64(((Const *) k)->constvalue);

			return MakeInt4Const((int32) Max(Min(v, SIMHASH_BITS + 1), -1));
		}
		if (OidIsValid(oids->radius_fn))
			return (Node *) makeFuncExpr(oids->radius_fn, INT4OID, list_make1(k),
										 InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL);
		clamped = (Node *) makeFuncExpr(F_INT8SMALLER, INT8OID,
										list_make2(k, makeConst(INT8OID, -1, InvalidOid,
																sizeof(int64),
																Int64GetDatum(SIMHASH_BITS + 1),
																false, FLOAT8PASSBYVAL)),
										InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL);
		clamped = (Node *) makeFuncExpr(F_INT8LARGER, INT8OID,
										list_make2(clamped, makeConst(INT8OID, -1, InvalidOid,
																	  sizeof(int64),
																	  Int64GetDatum(-1),
																	  false, FLOAT8PASSBYVAL)),
										InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL);
		return (Node *) makeFuncExpr(F_INT4_INT8, INT4OID, list_make1(clamped),
									 InvalidOid, InvalidOid, COERCE_EXPLICIT_CAST);
	}
	return AsInt4(k);
}

/*
 * True when evaluating expr twice costs about as much as once and gives the
 * same value: a Var, Const or Param, possibly relabeled.
 */
static bool
CheapToRepeat(Node *expr)
{
	while (expr && IsA(expr, RelabelType))
		expr = (Node *) ((RelabelType *) expr)->arg;
	return expr && (IsA(expr, Var) || IsA(expr, Const) || IsA(expr, Param));
}

/*
 * The radius r - 1, where r is an int4 expression: distances are never
 * negative, so "d < r" is "d <= r - 1", and saturating at INT_MIN changes
 * nothing (any negative radius matches nothing).  NULL stays NULL.  Not a
 * constant: simhash_radius_below(r), leakproof (see AsRadius), or without
 * it int4larger(r, INT_MIN + 1) - 1.
 */
static Node *
RadiusBelow(const SimhashPlannerOids *oids, Node *radius)
{
	if (IsA(radius, Const))
	{
		Const	   *c = (Const *) radius;
		int32		r;

		if (c->constisnull)
			return radius;
		r = DatumGetInt32(c->constvalue);
		return (Node *) makeConst(INT4OID, -1, InvalidOid, sizeof(int32),
								  Int32GetDatum(r == PG_INT32_MIN ? r : r - 1),
								  false, true);
	}
	else if (OidIsValid(oids->radius_below_fn))
		return (Node *) makeFuncExpr(oids->radius_below_fn, INT4OID, list_make1(radius),
									 InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL);
	else
	{
		/* int4larger(r, INT_MIN + 1) - 1: strict, so NULL stays NULL */
		Node	   *floor = (Node *) makeConst(INT4OID, -1, InvalidOid, sizeof(int32),
											   Int32GetDatum(PG_INT32_MIN + 1),
											   false, true);
		Node	   *larger = (Node *) makeFuncExpr(F_INT4LARGER, INT4OID,
												   list_make2(radius, floor),
												   InvalidOid, InvalidOid,
												   COERCE_EXPLICIT_CALL);
		OpExpr	   *minus;

		minus = (OpExpr *) make_opclause(INT4_MINUS_OPERATOR, INT4OID, false,
										 (Expr *) larger,
										 (Expr *) makeConst(INT4OID, -1, InvalidOid,
															sizeof(int32),
															Int32GetDatum(1),
															false, true),
										 InvalidOid, InvalidOid);
		minus->opfuncid = F_INT4MI;
		return (Node *) minus;
	}
}

/* The ball of fingerprints within radius of center, as an expression. */
static Expr *
MakeBall(const SimhashPlannerOids *oids, Node *center, Node *radius)
{
	if (IsA(center, Const) && IsA(radius, Const) &&
		!((Const *) center)->constisnull && !((Const *) radius)->constisnull)
	{
		SimhashBall *ball = palloc0(sizeof(SimhashBall));

		ball->center = DatumGetSimhash(((Const *) center)->constvalue);
		ball->radius = DatumGetInt32(((Const *) radius)->constvalue);
		return (Expr *) makeConst(oids->ball_type, -1, InvalidOid,
								  sizeof(SimhashBall), PointerGetDatum(ball),
								  false, false);
	}
	return (Expr *) makeFuncExpr(oids->ball_fn, oids->ball_type,
								 list_make2(center, radius),
								 InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL);
}

/*
 * True when expr has the same value for every row of the query level being
 * planned: no Vars of that level (sublinks included), nothing volatile.
 */
static bool
IsPseudoConstant(Node *expr)
{
	return !contain_vars_of_level(expr, 0) && !contain_volatile_functions(expr);
}

/*
 * "hamming_distance(a, b) <= radius" as a clause.  When exactly one of a and
 * b varies within the query level, that one is the candidate index column
 * and the clause is directly "var <@ simhash_ball(center, radius)": what an
 * index on var answers, estimated by <@'s estimator, with nothing left to
 * recheck in a bitmap scan.  Otherwise (a join, or no column at all) it is
 * hamming_within(a, b, radius), whose index condition is chosen later, once
 * the planner knows which side is indexed.
 */
static Node *
MakeWithin(const SimhashPlannerOids *oids, Node *a, Node *b, Node *radius)
{
	bool		a_constant = IsPseudoConstant(a);
	bool		b_constant = IsPseudoConstant(b);

	if (a_constant != b_constant)
	{
		OpExpr	   *clause;

		clause = (OpExpr *) make_opclause(oids->ball_op, BOOLOID, false,
										  (Expr *) (a_constant ? b : a),
										  MakeBall(oids, a_constant ? a : b, radius),
										  InvalidOid, InvalidOid);
		clause->opfuncid = oids->ball_op_fn;
		return (Node *) clause;
	}
	return (Node *) makeFuncExpr(oids->within_fn, BOOLOID,
								 list_make3(a, b, radius),
								 InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL);
}

static Node *
MakeNot(Node *arg)
{
	return (Node *) makeBoolExpr(NOT_EXPR, list_make1(arg), -1);
}

/*
 * The rewrite of (a <-> b) cmp radius, or NULL when there is nothing to gain
 * or it would have to repeat an operand that is not cheap to repeat.
 */
static Node *
RewriteComparison(const SimhashPlannerOids *oids, DistanceComparison cmp,
				  Node *a, Node *b, Node *radius)
{
	Node	   *both;

	/*
	 * d >= k with a constant k <= 0 (or d > k, k < 0) holds for every
	 * distance: nothing to index, and the plain comparison reads better.
	 */
	if ((cmp == CMP_GE || cmp == CMP_GT) && IsA(radius, Const) &&
		!((Const *) radius)->constisnull &&
		DatumGetInt32(((Const *) radius)->constvalue) <= (cmp == CMP_GE ? 0 : -1))
		return NULL;

	switch (cmp)
	{
		case CMP_LE:
			return MakeWithin(oids, a, b, radius);
		case CMP_LT:
			return MakeWithin(oids, a, b, RadiusBelow(oids, radius));
		case CMP_GT:
			return MakeNot(MakeWithin(oids, a, b, radius));
		case CMP_GE:
			return MakeNot(MakeWithin(oids, a, b, RadiusBelow(oids, radius)));
		case CMP_EQ:
		case CMP_NE:
			if (!CheapToRepeat(a) || !CheapToRepeat(b) || !CheapToRepeat(radius))
				return NULL;
			both = (Node *) makeBoolExpr(AND_EXPR,
										 list_make2(MakeWithin(oids, a, b, radius),
													MakeNot(MakeWithin(oids,
																	   copyObject(a),
																	   copyObject(b),
																	   RadiusBelow(oids, copyObject(radius))))),
										 -1);
			return cmp == CMP_EQ ? both : MakeNot(both);
		default:
			elog(ERROR, "unrecognized distance comparison %d", (int) cmp);
			return NULL;		/* keep compiler quiet */
	}
}

/* SupportRequestSimplify: see the file header. */
static Node *
SimplifyDistanceCall(const SimhashPlannerOids *oids, FuncExpr *call)
{
	DistanceComparison cmp;
	ComparisonSignature sig;
	Node	   *left,
			   *right,
			   *a,
			   *b,
			   *rewritten = NULL;
	OpExpr	   *op;

	if (list_length(call->args) != 2)
		return NULL;
	left = linitial(call->args);
	right = lsecond(call->args);

	/* fp <-> q  =>  (fp <-># q)::simhash_distance */
	if (call->funcid == oids->distance_fn)
	{
		op = (OpExpr *) make_opclause(oids->twin_op, INT4OID, false,
									  (Expr *) left, (Expr *) right,
									  InvalidOid, InvalidOid);
		op->opfuncid = oids->twin_fn;
		return (Node *) makeRelabelType((Expr *) op, oids->distance_type, -1,
										InvalidOid, COERCE_IMPLICIT_CAST);
	}

	if (!IdentifyComparison(oids, call->funcid, &cmp, &sig))
		return NULL;

	if (SIG_LEFT_IS_DISTANCE(sig) && MatchDistance(oids, left, &a, &b))
		rewritten = RewriteComparison(oids, cmp, a, b, AsRadius(oids, right));
	else if (SIG_RIGHT_IS_DISTANCE(sig) && MatchDistance(oids, right, &a, &b))
		rewritten = RewriteComparison(oids, commuted[cmp], a, b, AsRadius(oids, left));
	if (rewritten)
		return rewritten;

	/*
	 * Otherwise, between int4s, the plain int4 comparison: indexable,
	 * hashable, estimable.  Other widths keep the extension's function.
	 */
	if (sig != SIG_DISTANCE_INT4 && sig != SIG_INT4_DISTANCE &&
		sig != SIG_DISTANCE_DISTANCE)
		return NULL;
	op = (OpExpr *) make_opclause(int4_operators[cmp], BOOLOID, false,
								  (Expr *) AsInt4(left), (Expr *) AsInt4(right),
								  InvalidOid, InvalidOid);
	op->opfuncid = get_opcode(int4_operators[cmp]);
	return (Node *) op;
}

/*
 * SupportRequestIndexCondition for hamming_within(a, b, r): when a (or b) is
 * the index column and the other two are pseudo-constant for the index,
 * "a <@ simhash_ball(b, r)" (or "b <@ simhash_ball(a, r)"), exactly.
 */
static List *
WithinIndexCondition(const SimhashPlannerOids *oids,
					 SupportRequestIndexCondition *req)
{
	FuncExpr   *call = (FuncExpr *) req->node;
	Node	   *indexed,
			   *center,
			   *radius;
	OpExpr	   *clause;

	if (!IsA(call, FuncExpr) || call->funcid != oids->within_fn ||
		list_length(call->args) != 3 || req->indexarg > 1)
		return NIL;
	if (!op_in_opfamily(oids->ball_op, req->opfamily))
		return NIL;

	indexed = list_nth(call->args, req->indexarg);
	center = list_nth(call->args, 1 - req->indexarg);
	radius = lthird(call->args);
	if (!SIMHASH_IS_PSEUDO_CONSTANT_FOR_INDEX(req->root, center, req->index) ||
		!SIMHASH_IS_PSEUDO_CONSTANT_FOR_INDEX(req->root, radius, req->index))
		return NIL;

	clause = (OpExpr *) make_opclause(oids->ball_op, BOOLOID, false,
									  (Expr *) indexed,
									  MakeBall(oids, center, radius),
									  InvalidOid, InvalidOid);
	clause->opfuncid = oids->ball_op_fn;
	req->lossy = false;
	return list_make1(clause);
}

/*
 * Fraction of random fingerprints within radius of a given one: the
 * binomial distribution of 64 fair bits.  Real near-duplicate data is
 * clumpier; statistics, when available, correct for that.
 */
static double
RandomWithinFraction(int32 radius)
{
	double		term = 1.0,
				sum = 0.0;

	if (radius < 0)
		return 0.0;
	if (radius >= SIMHASH_BITS)
		return 1.0;
	/* sum of C(64, i) for i <= radius, then divided by 2^64 */
	for (int i = 0; i <= radius; i++)
	{
		sum += term;
		term = term * (SIMHASH_BITS - i) / (i + 1);
	}
	return sum / pow(2.0, SIMHASH_BITS);
}

/* Default selectivity of "x within radius", radius an expression. */
static double
DefaultWithinSelectivity(PlannerInfo *root, Node *radius)
{
	radius = estimate_expression_value(root, radius);
	if (IsA(radius, Const))
	{
		if (((Const *) radius)->constisnull)
			return 0.0;
		return RandomWithinFraction(DatumGetInt32(((Const *) radius)->constvalue));
	}
	return DEFAULT_WITHIN_SEL;
}

/*
 * SupportRequestSelectivity for hamming_within(a, b, r): when one operand
 * is known at plan time, whatever the restriction estimator of
 * "a <@ simhash_ball(b, r)" says about the other, so that a clause and the
 * index condition made of it are estimated alike; otherwise (a join, two
 * columns of one row) the binomial fraction of the radius.
 */
static bool
WithinSelectivity(const SimhashPlannerOids *oids, SupportRequestSelectivity *req)
{
	Node	   *a,
			   *b,
			   *radius;
	Node	   *var,
			   *center;

	if (req->funcid != oids->within_fn || list_length(req->args) != 3)
		return false;
	a = linitial(req->args);
	b = lsecond(req->args);
	radius = estimate_expression_value(req->root, lthird(req->args));

	if (req->is_join)
	{
		req->selectivity = DefaultWithinSelectivity(req->root, radius);
		return true;
	}

	var = a;
	center = estimate_expression_value(req->root, b);
	if (!IsA(center, Const))
	{
		Node	   *a_value = estimate_expression_value(req->root, a);

		if (IsA(a_value, Const))
		{
			var = b;
			center = a_value;
		}
	}
	if (IsA(center, Const))
		req->selectivity = restriction_selectivity(req->root, oids->ball_op,
												   list_make2(var, MakeBall(oids, center, radius)),
												   InvalidOid, req->varRelid);
	else
		req->selectivity = DefaultWithinSelectivity(req->root, radius);
	return true;
}

/*
 * simhash_distance_support(internal): the planner support function of
 * hamming_distance, of the distance comparisons and of hamming_within.
 */
PG_FUNCTION_INFO_V1(simhash_distance_support);
Datum
simhash_distance_support(PG_FUNCTION_ARGS)
{
	Node	   *rawreq = (Node *) PG_GETARG_POINTER(0);
	const SimhashPlannerOids *oids = GetPlannerOids(fcinfo->flinfo->fn_oid);

	if (oids == NULL)
		PG_RETURN_POINTER(NULL);

	if (IsA(rawreq, SupportRequestSimplify))
	{
		SupportRequestSimplify *req = (SupportRequestSimplify *) rawreq;
		Node	   *result = SimplifyDistanceCall(oids, req->fcall);

		/*
		 * The call is gone from the plan, so nothing else ties the plan to
		 * it: a cached plan must still be invalidated when the function
		 * changes (its support, say), as for an inlined SQL function.
		 */
		if (result != NULL && req->root != NULL)
			record_plan_function_dependency(req->root, req->fcall->funcid);
		PG_RETURN_POINTER(result);
	}
	if (IsA(rawreq, SupportRequestIndexCondition))
		PG_RETURN_POINTER(WithinIndexCondition(oids,
											   (SupportRequestIndexCondition *) rawreq));
	if (IsA(rawreq, SupportRequestSelectivity))
	{
		SupportRequestSelectivity *req = (SupportRequestSelectivity *) rawreq;

		if (WithinSelectivity(oids, req))
			PG_RETURN_POINTER(req);
	}
	PG_RETURN_POINTER(NULL);
}

/*
 * simhash_within_joinsel: join estimator of <@ and @>.  Which pairs are
 * near each other is not in the statistics: the binomial fraction of the
 * radius, when it is known.
 */
PG_FUNCTION_INFO_V1(simhash_within_joinsel);
Datum
simhash_within_joinsel(PG_FUNCTION_ARGS)
{
	PlannerInfo *root = (PlannerInfo *) PG_GETARG_POINTER(0);
	List	   *args = (List *) PG_GETARG_POINTER(2);
	const SimhashPlannerOids *oids = GetPlannerOids(fcinfo->flinfo->fn_oid);
	Node	   *ball;

	if (oids == NULL || list_length(args) != 2)
		PG_RETURN_FLOAT8(DEFAULT_WITHIN_SEL);
	ball = (exprType(linitial(args)) == oids->ball_type) ? linitial(args) : lsecond(args);
	ball = estimate_expression_value(root, ball);
	if (IsA(ball, Const))
	{
		if (((Const *) ball)->constisnull)
			PG_RETURN_FLOAT8(0.0);
		PG_RETURN_FLOAT8(RandomWithinFraction(((SimhashBall *) DatumGetPointer(((Const *) ball)->constvalue))->radius));
	}
	if (IsA(ball, FuncExpr) && ((FuncExpr *) ball)->funcid == oids->ball_fn)
		PG_RETURN_FLOAT8(DefaultWithinSelectivity(root, lsecond(((FuncExpr *) ball)->args)));
	PG_RETURN_FLOAT8(DEFAULT_WITHIN_SEL);
}

/*
 * simhash_radius(bigint): a bigint radius as an integer one, clamped to
 * [-1, 65] (no comparison with a distance changes).  LEAKPROOF: it cannot
 * fail, so a rewritten clause using it may be evaluated before row-level
 * security quals and be an index condition.
 */
PG_FUNCTION_INFO_V1(simhash_radius);
Datum
simhash_radius(PG_FUNCTION_ARGS)
{
	int64		k = PG_GETARG_INT64(0);

	PG_RETURN_INT32((int32) Max(Min(k, SIMHASH_BITS + 1), -1));
}

/*
 * simhash_radius_below(integer): r - 1, saturating at INT_MIN ("d < r" is
 * "d <= r - 1").  LEAKPROOF for the same reason.
 */
PG_FUNCTION_INFO_V1(simhash_radius_below);
Datum
simhash_radius_below(PG_FUNCTION_ARGS)
{
	int32		r = PG_GETARG_INT32(0);

	PG_RETURN_INT32(r == PG_INT32_MIN ? r : r - 1);
}
