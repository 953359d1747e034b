/*
 * workflows/functions.c
 *	  The SQL functions of the near-duplicate workflows over a whole table:
 *	  simhash_pairs and simhash_clusters, and the setting
 *	  simhash.pairs_blocks.
 *
 * Both read the table through SPI, as the calling user (so the executor
 * checks privileges, row-level security and column grants, and a view
 * works as well as a table), with the identifiers quoted: the query is
 *   SELECT id_column, fp_column FROM tbl WHERE fp_column IS NOT NULL
 * read through a cursor into two arrays of 8 bytes per row.  The batch
 * search (pairs.c) then needs work_mem for its scatter array.
 */
#include "batch.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/syscache.h"
#include "utils/tuplestore.h"

#include "workflows.h"

int			simhash_pairs_blocks = 0;

/* Rows fetched from the cursor at a time. */
#define FETCH_ROWS			10000

void
SimhashWorkflowsInit(void)
{
	DefineCustomIntVariable("simhash.pairs_blocks",
							"Number of blocks simhash_pairs and simhash_clusters cut fingerprints into.",
							"0 chooses by an estimate of the work; a value of at most k compares every "
							"pair; one that would need more than 20000 tables is ignored.  The results "
							"do not depend on it.",
							&simhash_pairs_blocks,
							0, 0, SIMHASH_BITS,
							PGC_USERSET, 0,
							NULL, NULL, NULL);
}

/* The scatter array's budget: work_mem. */
static Size
Budget(void)
{
	return (Size) work_mem * 1024;
}

static void
CheckRadius(int32 k)
{
	if (k < 0 || k > SIMHASH_BITS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("radius k must be between 0 and %d", SIMHASH_BITS),
				 errdetail("k is %d.", k)));
}

/* The id of a row, from a smallint, integer or bigint column. */
static int64
IdOf(Datum d, Oid type)
{
	switch (type)
	{
		case INT2OID:
			return DatumGetInt16(d);
		case INT4OID:
			return DatumGetInt32(d);
		default:
			return DatumGetInt64(d);
	}
}

/*
 * Reads (id, fingerprint) of every row of relid whose fingerprint is not
 * NULL into *set, allocated in the current memory context.  fn_oid is the
 * calling function, in whose schema the type simhash is looked up.
 */
static void
ReadFingerprints(Oid fn_oid, Oid relid, const char *fpcol, const char *idcol,
				 FingerprintSet *set)
{
	MemoryContext cxt = CurrentMemoryContext;
	Oid			simhash_type = GetSysCacheOid2(TYPENAMENSP, Anum_pg_type_oid,
									   CStringGetDatum("simhash"),
									   ObjectIdGetDatum(get_func_namespace(fn_oid)));
	char	   *relname = get_rel_name(relid);
	char	   *qualified;
	char	   *query;
	SPIPlanPtr	plan;
	Portal		portal;
	Oid			idtype = InvalidOid;
	Size		cap = 1024;

	if (relname == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("relation with OID %u does not exist", relid)));
	qualified = quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)), relname);
	query = psprintf("SELECT %s, %s FROM %s WHERE %s IS NOT NULL",
					 quote_identifier(idcol), quote_identifier(fpcol), qualified,
					 quote_identifier(fpcol));

	set->n = 0;
	set->fps = MemoryContextAllocHuge(cxt, cap * sizeof(uint64));
	set->ids = MemoryContextAllocHuge(cxt, cap * sizeof(int64));

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	plan = SPI_prepare(query, 0, NULL);
	if (plan == NULL)
		elog(ERROR, "SPI_prepare(\"%s\") failed: %s", query, SPI_result_code_string(SPI_result));
	portal = SPI_cursor_open(NULL, plan, NULL, NULL, true);
	for (;;)
	{
		TupleDesc	desc;

		SPI_cursor_fetch(portal, true, FETCH_ROWS);
		desc = SPI_tuptable->tupdesc;
		if (idtype == InvalidOid)
		{
			Oid			fptype = getBaseType(SPI_gettypeid(desc, 2));

			idtype = getBaseType(SPI_gettypeid(desc, 1));
			if (fptype != simhash_type)
				ereport(ERROR,
						(errcode(ERRCODE_DATATYPE_MISMATCH),
						 errmsg("column \"%s\" of relation \"%s\" is not of type simhash", fpcol, relname),
						 errdetail("It is of type %s.", format_type_be(SPI_gettypeid(desc, 2)))));
			if (idtype != INT2OID && idtype != INT4OID && idtype != INT8OID)
				ereport(ERROR,
						(errcode(ERRCODE_DATATYPE_MISMATCH),
						 errmsg("id column \"%s\" of relation \"%s\" must be of type smallint, integer or bigint",
								idcol, relname),
						 errdetail("It is of type %s.", format_type_be(SPI_gettypeid(desc, 1))),
						 errhint("Give a key column as id_column, for example a bigserial primary key.")));
		}
		if (SPI_processed == 0)
			break;
		if ((uint64) set->n + SPI_processed > (uint64) PG_INT32_MAX)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("relation \"%s\" has too many fingerprints for a batch search", relname),
					 errdetail("The limit is %d rows.", PG_INT32_MAX)));
		while (set->n + SPI_processed > cap)
		{
			cap *= 2;
			set->fps = repalloc_huge(set->fps, cap * sizeof(uint64));
			set->ids = repalloc_huge(set->ids, cap * sizeof(int64));
		}
		for (uint64 i = 0; i < SPI_processed; i++)
		{
			HeapTuple	tuple = SPI_tuptable->vals[i];
			bool		isnull;
			Datum		id = SPI_getbinval(tuple, desc, 1, &isnull);

			if (isnull)
				ereport(ERROR,
						(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
						 errmsg("id column \"%s\" of relation \"%s\" contains a null value", idcol, relname),
						 errhint("Give a key column as id_column.")));
			set->ids[set->n] = IdOf(id, idtype);
			set->fps[set->n] = DatumGetSimhash(SPI_getbinval(tuple, desc, 2, &isnull));
			set->n++;
		}
		SPI_freetuptable(SPI_tuptable);
		CHECK_FOR_INTERRUPTS();
	}
	SPI_cursor_close(portal);
	SPI_finish();
}


/*
 * What both functions do first: checks k, sets up the result tuplestore,
 * reads the table (arguments 0, 1 and 3) into *set and plans the search
 * (reported at DEBUG1).  Returns the memory context that holds *set, which
 * is made current; the caller switches back to `*old` and deletes it.
 */
static MemoryContext
BeginBatch(FunctionCallInfo fcinfo, FingerprintSet *set,
		   PairsPlan *plan, MemoryContext *old)
{
	int32		k = PG_GETARG_INT32(2);
	MemoryContext cxt;

	CheckRadius(k);
	InitMaterializedSRF(fcinfo, 0);
	cxt = AllocSetContextCreate(CurrentMemoryContext, "simhash batch", ALLOCSET_DEFAULT_SIZES);
	*old = MemoryContextSwitchTo(cxt);
	ReadFingerprints(fcinfo->flinfo->fn_oid, PG_GETARG_OID(0), NameStr(*PG_GETARG_NAME(1)),
					 NameStr(*PG_GETARG_NAME(3)), set);
	SimhashPairsPlan(plan, k, set->n, Budget(), simhash_pairs_blocks);
	elog(DEBUG1, "%u fingerprints within %d bits: %d blocks, tables keyed by %d of them, %.0f tables",
		 set->n, k, plan->nblocks, plan->agree, plan->ntables);
	return cxt;
}

/* Pairs go straight into the function's result. */
typedef struct PairOutput
{
	ReturnSetInfo *rsinfo;
	const FingerprintSet *set;
} PairOutput;

static void
EmitPair(uint32 a, uint32 b, int distance, void *arg)
{
	PairOutput *out = (PairOutput *) arg;
	int64		x = out->set->ids[a],
				y = out->set->ids[b];
	Datum		values[3];
	bool		nulls[3] = {false, false, false};

	values[0] = Int64GetDatum(Min(x, y));
	values[1] = Int64GetDatum(Max(x, y));
	values[2] = Int32GetDatum(distance);
	tuplestore_putvalues(out->rsinfo->setResult, out->rsinfo->setDesc, values, nulls);
}

/*
 * simhash_pairs(tbl regclass, fp_column name, k integer,
 *               id_column name DEFAULT 'id')
 *   RETURNS TABLE (id1 bigint, id2 bigint, distance integer)
 *
 * Every unordered pair of rows of tbl whose fingerprints are within k bits,
 * once, with id1 < id2 (equal ids: both orders are the same row pair).
 * Rows whose fingerprint is NULL take no part.
 */
PG_FUNCTION_INFO_V1(simhash_pairs);
Datum
simhash_pairs(PG_FUNCTION_ARGS)
{
	MemoryContext cxt,
				old;
	FingerprintSet set;
	PairsPlan	plan;
	PairOutput	out;

	cxt = BeginBatch(fcinfo, &set, &plan, &old);
	out.rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	out.set = &set;
	SimhashPairsFind(set.fps, set.n, &plan, Budget(), EmitPair, &out);
	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);
	return (Datum) 0;
}

/*
 * simhash_clusters(tbl regclass, fp_column name, k integer,
 *                  id_column name DEFAULT 'id', method text DEFAULT 'components')
 *   RETURNS TABLE (id bigint, representative bigint, distance integer)
 *
 * One row for every row of tbl with a fingerprint: its id, the id of its
 * cluster's representative (itself for a row alone), and the distance
 * between their fingerprints.  method 'components' (connected components of
 * the pairs within k, representative the smallest id) or 'leaders' (leader
 * clustering in id order); see clusters.c.
 */
PG_FUNCTION_INFO_V1(simhash_clusters);
Datum
simhash_clusters(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	char	   *method = text_to_cstring(PG_GETARG_TEXT_PP(4));
	bool		leaders;
	MemoryContext cxt,
				old;
	FingerprintSet set;
	PairsPlan	plan;
	uint32	   *rep;

	if (strcmp(method, "components") == 0)
		leaders = false;
	else if (strcmp(method, "leaders") == 0)
		leaders = true;
	else
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("unrecognized clustering method \"%s\"", method),
				 errhint("Valid methods are \"components\" and \"leaders\".")));

	cxt = BeginBatch(fcinfo, &set, &plan, &old);
	rep = leaders ? SimhashLeaders(&set, &plan, Budget())
		: SimhashComponents(&set, &plan, Budget());
	for (uint32 i = 0; i < set.n; i++)
	{
		Datum		values[3];
		bool		nulls[3] = {false, false, false};

		values[0] = Int64GetDatum(set.ids[i]);
		values[1] = Int64GetDatum(set.ids[rep[i]]);
		values[2] = Int32GetDatum(SimhashDistance(set.fps[i], set.fps[rep[i]]));
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);
	return (Datum) 0;
}
