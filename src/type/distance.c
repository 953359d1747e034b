/*
 * type/distance.c
 *	  Hamming distance and similarity between fingerprints, and comparisons
 *	  of distances.
 *
 * The distance's SQL type is simhash_distance, a domain over int4, so every
 * function here sees and returns plain int32 values.  How the planner treats
 * these functions is planner/support.c's business.
 */
#include "type/simhash.h"

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
 * Comparisons of distances.  simhash_distance_<op> serves (simhash_distance,
 * integer), (integer, simhash_distance) and (simhash_distance,
 * simhash_distance); the _int2/_int8 functions the other integer widths.
 */
#define DISTANCE_COMPARISON(name, getleft, op, getright) \
PG_FUNCTION_INFO_V1(name); \
Datum \
name(PG_FUNCTION_ARGS) \
{ \
	PG_RETURN_BOOL(getleft(0) op getright(1)); \
}

DISTANCE_COMPARISON(simhash_distance_eq, PG_GETARG_INT32, ==, PG_GETARG_INT32)
DISTANCE_COMPARISON(simhash_distance_eq_int2, PG_GETARG_INT32, ==, PG_GETARG_INT16)
DISTANCE_COMPARISON(int2_eq_simhash_distance, PG_GETARG_INT16, ==, PG_GETARG_INT32)
DISTANCE_COMPARISON(simhash_distance_eq_int8, PG_GETARG_INT32, ==, PG_GETARG_INT64)
DISTANCE_COMPARISON(int8_eq_simhash_distance, PG_GETARG_INT64, ==, PG_GETARG_INT32)
DISTANCE_COMPARISON(simhash_distance_ne, PG_GETARG_INT32, !=, PG_GETARG_INT32)
DISTANCE_COMPARISON(simhash_distance_ne_int2, PG_GETARG_INT32, !=, PG_GETARG_INT16)
DISTANCE_COMPARISON(int2_ne_simhash_distance, PG_GETARG_INT16, !=, PG_GETARG_INT32)
DISTANCE_COMPARISON(simhash_distance_ne_int8, PG_GETARG_INT32, !=, PG_GETARG_INT64)
DISTANCE_COMPARISON(int8_ne_simhash_distance, PG_GETARG_INT64, !=, PG_GETARG_INT32)
DISTANCE_COMPARISON(simhash_distance_lt, PG_GETARG_INT32, <, PG_GETARG_INT32)
DISTANCE_COMPARISON(simhash_distance_lt_int2, PG_GETARG_INT32, <, PG_GETARG_INT16)
DISTANCE_COMPARISON(int2_lt_simhash_distance, PG_GETARG_INT16, <, PG_GETARG_INT32)
DISTANCE_COMPARISON(simhash_distance_lt_int8, PG_GETARG_INT32, <, PG_GETARG_INT64)
DISTANCE_COMPARISON(int8_lt_simhash_distance, PG_GETARG_INT64, <, PG_GETARG_INT32)
DISTANCE_COMPARISON(simhash_distance_le, PG_GETARG_INT32, <=, PG_GETARG_INT32)
DISTANCE_COMPARISON(simhash_distance_le_int2, PG_GETARG_INT32, <=, PG_GETARG_INT16)
DISTANCE_COMPARISON(int2_le_simhash_distance, PG_GETARG_INT16, <=, PG_GETARG_INT32)
DISTANCE_COMPARISON(simhash_distance_le_int8, PG_GETARG_INT32, <=, PG_GETARG_INT64)
DISTANCE_COMPARISON(int8_le_simhash_distance, PG_GETARG_INT64, <=, PG_GETARG_INT32)
DISTANCE_COMPARISON(simhash_distance_gt, PG_GETARG_INT32, >, PG_GETARG_INT32)
DISTANCE_COMPARISON(simhash_distance_gt_int2, PG_GETARG_INT32, >, PG_GETARG_INT16)
DISTANCE_COMPARISON(int2_gt_simhash_distance, PG_GETARG_INT16, >, PG_GETARG_INT32)
DISTANCE_COMPARISON(simhash_distance_gt_int8, PG_GETARG_INT32, >, PG_GETARG_INT64)
DISTANCE_COMPARISON(int8_gt_simhash_distance, PG_GETARG_INT64, >, PG_GETARG_INT32)
DISTANCE_COMPARISON(simhash_distance_ge, PG_GETARG_INT32, >=, PG_GETARG_INT32)
DISTANCE_COMPARISON(simhash_distance_ge_int2, PG_GETARG_INT32, >=, PG_GETARG_INT16)
DISTANCE_COMPARISON(int2_ge_simhash_distance, PG_GETARG_INT16, >=, PG_GETARG_INT32)
DISTANCE_COMPARISON(simhash_distance_ge_int8, PG_GETARG_INT32, >=, PG_GETARG_INT64)
DISTANCE_COMPARISON(int8_ge_simhash_distance, PG_GETARG_INT64, >=, PG_GETARG_INT32)
