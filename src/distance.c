/*
 * distance.c
 *	  Hamming distance and similarity between fingerprints, and comparisons
 *	  of distances.
 *
 * The distance's SQL type is simhash_distance, a domain over int4, so every
 * function here sees and returns plain int32 values.  How the planner treats
 * these functions is planner.c's business.
 */
#include "simhash.h"

/* hamming_distance(a, b): the number of differing bits, 0..64. */
PG_FUNCTION_INFO_V1(hamming_distance);
Datum
hamming_distance(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(SimhashDistance(PG_GETARG_SIMHASH(0), PG_GETARG_SIMHASH(1)));
}

/* hamming_distance_int4(a, b): the same, declared as returning integer. */
PG_FUNCTION_INFO_V1(hamming_distance_int4);
Datum
hamming_distance_int4(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(SimhashDistance(PG_GETARG_SIMHASH(0), PG_GETARG_SIMHASH(1)));
}

/* hamming_within(a, b, radius): hamming_distance(a, b) <= radius. */
PG_FUNCTION_INFO_V1(hamming_within);
Datum
hamming_within(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(SimhashDistance(PG_GETARG_SIMHASH(0), PG_GETARG_SIMHASH(1)) <=
				   PG_GETARG_INT32(2));
}

/* simhash_similarity(a, b): 1 - distance / 64, in [0, 1]. */
PG_FUNCTION_INFO_V1(simhash_similarity);
Datum
simhash_similarity(PG_FUNCTION_ARGS)
{
	int			distance = SimhashDistance(PG_GETARG_SIMHASH(0), PG_GETARG_SIMHASH(1));

	PG_RETURN_FLOAT8(1.0 - (double) distance / SIMHASH_BITS);
}

/*
 * Comparisons of distances, for (simhash_distance, integer),
 * (integer, simhash_distance) and (simhash_distance, simhash_distance).
 */
#define DISTANCE_COMPARISON(name, op) \
PG_FUNCTION_INFO_V1(name); \
Datum \
name(PG_FUNCTION_ARGS) \
{ \
	PG_RETURN_BOOL(PG_GETARG_INT32(0) op PG_GETARG_INT32(1)); \
}

DISTANCE_COMPARISON(simhash_distance_eq, ==)
DISTANCE_COMPARISON(simhash_distance_ne, !=)
DISTANCE_COMPARISON(simhash_distance_lt, <)
DISTANCE_COMPARISON(simhash_distance_le, <=)
DISTANCE_COMPARISON(simhash_distance_gt, >)
DISTANCE_COMPARISON(simhash_distance_ge, >=)
