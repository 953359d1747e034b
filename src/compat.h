/*
 * compat.h
 *	  Shims for the PostgreSQL versions simhash builds against (13 and later).
 *
 * Everything that differs between server versions is bridged here, guarded
 * by PG_VERSION_NUM, so that the rest of the code is written against one API.
 */
#ifndef SIMHASH_COMPAT_H
#define SIMHASH_COMPAT_H

#include "postgres.h"

#if PG_VERSION_NUM < 130000
#error "simhash requires PostgreSQL 13 or later"
#endif

/* PostgreSQL 16 moved the varlena macros (SET_VARSIZE, VARDATA...) out of postgres.h. */
#if PG_VERSION_NUM >= 160000
#include "varatt.h"
#endif

/*
 * The file locator of an open SMgrRelation, for log_newpage: PostgreSQL 16
 * renamed RelFileNode (smgr_rnode.node) to RelFileLocator.  The caller
 * includes storage/smgr.h.
 */
#if PG_VERSION_NUM >= 160000
#define SIMHASH_SMGR_LOCATOR(smgr) (&(smgr)->smgr_rlocator.locator)
#else
#define SIMHASH_SMGR_LOCATOR(smgr) (&(smgr)->smgr_rnode.node)
#endif

/* PostgreSQL 18 gave vacuum_delay_point an is_analyze argument. */
#if PG_VERSION_NUM >= 180000
#define SIMHASH_VACUUM_DELAY_POINT() vacuum_delay_point(false)
#else
#define SIMHASH_VACUUM_DELAY_POINT() vacuum_delay_point()
#endif

/*
 * TOAST compression methods arrived in PostgreSQL 14, coded in the top two
 * bits of the raw size (va_tcinfo, va_extinfo).  On 13 those bits are zero
 * and every compressed value is pglz (method 0): the same bytes on disk.
 */
#if PG_VERSION_NUM >= 140000
#include "access/toast_compression.h"
#else
#define TOAST_PGLZ_COMPRESSION_ID	0
#define TOAST_LZ4_COMPRESSION_ID	1
#define VARLENA_EXTSIZE_BITS	30
#define VARLENA_EXTSIZE_MASK	((1U << VARLENA_EXTSIZE_BITS) - 1)
#define VARATT_EXTERNAL_GET_EXTSIZE(toast_pointer) ((toast_pointer).va_extsize)
#define VARATT_EXTERNAL_GET_COMPRESS_METHOD(toast_pointer) TOAST_PGLZ_COMPRESSION_ID
#endif

/*
 * The delta format of generic WAL records (fragments of OffsetNumber offset,
 * OffsetNumber length and the bytes), which index/wal.c writes itself for
 * appends: internal to generic_xlog.c, unchanged from 9.6 through 18.  A
 * later version takes the GenericXLog API instead until it is checked.
 */
#if PG_VERSION_NUM < 190000
#define SIMHASH_DIRECT_GENERIC_WAL 1
#endif

/*
 * ReadRecentBuffer (PostgreSQL 14 on) pins a block through the buffer it was
 * last seen in, without a buffer mapping lookup, when that buffer still
 * holds it; its relation argument changed type in 16.  13 has none: the
 * caller reads the block the usual way.
 */
#if PG_VERSION_NUM >= 160000
#define SIMHASH_READ_RECENT_BUFFER(rel, blkno, buf) \
	ReadRecentBuffer((rel)->rd_locator, MAIN_FORKNUM, (blkno), (buf))
#elif PG_VERSION_NUM >= 140000
#define SIMHASH_READ_RECENT_BUFFER(rel, blkno, buf) \
	ReadRecentBuffer((rel)->rd_node, MAIN_FORKNUM, (blkno), (buf))
#else
#define SIMHASH_READ_RECENT_BUFFER(rel, blkno, buf) ((void) (buf), false)
#endif

/* This backend's local transaction id: inside vxid from PostgreSQL 17 on. */
#if PG_VERSION_NUM >= 170000
#define SIMHASH_MY_LXID (MyProc->vxid.lxid)
#else
#define SIMHASH_MY_LXID (MyProc->lxid)
#endif

/*
 * PostgreSQL 14 added aminsert's indexUnchanged hint and ProcessUtility's
 * readOnlyTree flag.  Functions with those signatures take their
 * parameters, and pass them on, through these lists.
 */
#if PG_VERSION_NUM >= 140000
#define SIMHASH_AMINSERT_PARAMS(index, values, isnull, tid, heap, checkUnique, indexInfo) \
	Relation index, Datum *values, bool *isnull, ItemPointer tid, Relation heap, \
	IndexUniqueCheck checkUnique, bool indexUnchanged, struct IndexInfo *indexInfo
#define SIMHASH_PROCESS_UTILITY_PARAMS \
	PlannedStmt *pstmt, const char *queryString, bool readOnlyTree, \
	ProcessUtilityContext context, ParamListInfo params, QueryEnvironment *queryEnv, \
	DestReceiver *dest, QueryCompletion *qc
#define SIMHASH_PROCESS_UTILITY_ARGS \
	pstmt, queryString, readOnlyTree, context, params, queryEnv, dest, qc
#else
#define SIMHASH_AMINSERT_PARAMS(index, values, isnull, tid, heap, checkUnique, indexInfo) \
	Relation index, Datum *values, bool *isnull, ItemPointer tid, Relation heap, \
	IndexUniqueCheck checkUnique, struct IndexInfo *indexInfo
#define SIMHASH_PROCESS_UTILITY_PARAMS \
	PlannedStmt *pstmt, const char *queryString, \
	ProcessUtilityContext context, ParamListInfo params, QueryEnvironment *queryEnv, \
	DestReceiver *dest, QueryCompletion *qc
#define SIMHASH_PROCESS_UTILITY_ARGS \
	pstmt, queryString, context, params, queryEnv, dest, qc
#endif

/*
 * PostgreSQL 14 gave is_pseudo_constant_for_index a PlannerInfo argument
 * and renamed the int4(int2) and int4(int8) casts' fmgr OIDs.
 */
#if PG_VERSION_NUM >= 140000
#define SIMHASH_IS_PSEUDO_CONSTANT_FOR_INDEX(root, expr, index) \
	is_pseudo_constant_for_index(root, expr, index)
#else
#define SIMHASH_IS_PSEUDO_CONSTANT_FOR_INDEX(root, expr, index) \
	is_pseudo_constant_for_index(expr, index)
#define F_INT4_INT2 F_I2TOI4
#define F_INT4_INT8 F_INT84
#endif

/*
 * InitMaterializedSRF (PostgreSQL 15): a set-returning function's
 * tuplestore and result descriptor, in materialize mode.  Older servers get
 * this equivalent (the flags are not supported).
 */
#if PG_VERSION_NUM < 150000
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/tuplestore.h"

static inline void
InitMaterializedSRF(FunctionCallInfo fcinfo, bits32 flags)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	MemoryContext old;
	TupleDesc	tupdesc;

	Assert(flags == 0);
	if (rsinfo == NULL || !IsA(rsinfo, ReturnSetInfo) ||
		!(rsinfo->allowedModes & SFRM_Materialize))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("materialize mode required, but it is not allowed in this context")));
	old = MemoryContextSwitchTo(rsinfo->econtext->ecxt_per_query_memory);
	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	rsinfo->returnMode = SFRM_Materialize;
	rsinfo->setResult =
		tuplestore_begin_heap((rsinfo->allowedModes & SFRM_Materialize_Random) != 0,
							  false, work_mem);
	rsinfo->setDesc = tupdesc;
	MemoryContextSwitchTo(old);
}
#endif

/* PostgreSQL 15 renamed EmitWarningsOnPlaceholders. */
#if PG_VERSION_NUM < 150000
#define MarkGUCPrefixReserved(prefix) EmitWarningsOnPlaceholders(prefix)
#endif

/*
 * Soft input errors (pg_input_is_valid) arrived in PostgreSQL 16.  On older
 * servers an input error is always thrown.
 */
#if PG_VERSION_NUM >= 160000
#include "nodes/miscnodes.h"
#define SIMHASH_INPUT_ERROR(fcinfo, rest) ereturn((fcinfo)->context, (Datum) 0, rest)
#else
#define SIMHASH_INPUT_ERROR(fcinfo, rest) \
	do { ereport(ERROR, rest); return (Datum) 0; } while (0)
#endif

/*
 * EXPLAIN ANALYZE of PostgreSQL 18 prints "Index Searches: N" under every
 * index scan node, from the count the access method keeps; an index pass
 * (a radius search, a k-NN step) counts one.  Older servers print nothing.
 */
#if PG_VERSION_NUM >= 180000
#define SIMHASH_COUNT_INDEX_SEARCH(scan) \
	do { if ((scan)->instrument) (scan)->instrument->nsearches++; } while (0)
#else
#define SIMHASH_COUNT_INDEX_SEARCH(scan) ((void) 0)
#endif

/* Popcount of one 64-bit word; inlined by GCC and Clang. */
#if defined(__GNUC__) || defined(__clang__)
#define SIMHASH_POPCOUNT64(x) __builtin_popcountll(x)
#else
#include "port/pg_bitutils.h"
#define SIMHASH_POPCOUNT64(x) pg_popcount64(x)
#endif

/*
 * A loop that is nearly all popcounts is compiled twice where the build
 * targets baseline x86-64 (no -mpopcnt, so __builtin_popcountll is a library
 * call): once as is, once with SIMHASH_POPCNT_TARGET for the POPCNT
 * instruction, and SimhashCpuHasPopcnt() picks one at run time (as
 * PostgreSQL's own pg_popcount does).  Elsewhere SIMHASH_POPCNT_DISPATCH is
 * undefined and the plain copy is the only one.
 */
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) && !defined(__POPCNT__)
#define SIMHASH_POPCNT_DISPATCH 1
#define SIMHASH_POPCNT_TARGET __attribute__((target("popcnt")))

static inline bool
SimhashCpuHasPopcnt(void)
{
	static int	have = -1;

	if (unlikely(have < 0))
		have = __builtin_cpu_supports("popcnt") ? 1 : 0;
	return have == 1;
}
#endif

#endif							/* SIMHASH_COMPAT_H */
