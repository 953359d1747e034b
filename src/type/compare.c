/*
 * type/compare.c
 *	  Comparison, btree and hash support for the simhash type.
 *
 * Fingerprints order as unsigned 64-bit integers, so that the order agrees
 * with the hexadecimal text form.
 */
#include "type/simhash.h"

#include "common/hashfn.h"
#include "utils/sortsupport.h"

#define SIMHASH_COMPARISON(name, op) \
PG_FUNCTION_INFO_V1(name); \
Datum \
name(PG_FUNCTION_ARGS) \
{ \
	PG_RETURN_BOOL(PG_GETARG_SIMHASH(0) op PG_GETARG_SIMHASH(1)); \
}

SIMHASH_COMPARISON(simhash_eq, ==)
SIMHASH_COMPARISON(simhash_ne, !=)
SIMHASH_COMPARISON(simhash_lt, <)
SIMHASH_COMPARISON(simhash_le, <=)
SIMHASH_COMPARISON(simhash_gt, >)
SIMHASH_COMPARISON(simhash_ge, >=)

/* btree support function 1: three-way comparison. */
PG_FUNCTION_INFO_V1(simhash_cmp);
Datum
simhash_cmp(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(SimhashCompare(PG_GETARG_SIMHASH(0), PG_GETARG_SIMHASH(1)));
}

static int
SimhashFastCompare(Datum a, Datum b, SortSupport ssup)
{
	return SimhashCompare(DatumGetSimhash(a), DatumGetSimhash(b));
}

/* btree support function 2: sort support, avoiding fmgr calls in sorts. */
PG_FUNCTION_INFO_V1(simhash_sortsupport);
Datum
simhash_sortsupport(PG_FUNCTION_ARGS)
{
	SortSupport ssup = (SortSupport) PG_GETARG_POINTER(0);

	ssup->comparator = SimhashFastCompare;
	PG_RETURN_VOID();
}

/* hash support function 1: 32-bit hash. */
PG_FUNCTION_INFO_V1(simhash_hash);
Datum
simhash_hash(PG_FUNCTION_ARGS)
{
	uint64		value = PG_GETARG_SIMHASH(0);

	return hash_uint32((uint32) value ^ (uint32) (value >> 32));
}

/* hash support function 2: seeded 64-bit hash (hash partitioning). */
PG_FUNCTION_INFO_V1(simhash_hash_extended);
Datum
simhash_hash_extended(PG_FUNCTION_ARGS)
{
	uint64		value = PG_GETARG_SIMHASH(0);
	uint64		seed = (uint64) PG_GETARG_INT64(1);

	return hash_uint32_extended((uint32) value ^ (uint32) (value >> 32), seed);
}
