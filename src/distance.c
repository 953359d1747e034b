/*
 * distance.c
 *	  Hamming distance and similarity between fingerprints.
 */
#include "simhash.h"

/* hamming_distance(a, b): the number of differing bits, 0..64. */
PG_FUNCTION_INFO_V1(hamming_distance);
Datum
hamming_distance(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(SimhashDistance(PG_GETARG_SIMHASH(0), PG_GETARG_SIMHASH(1)));
}

/* simhash_similarity(a, b): 1 - distance / 64, in [0, 1]. */
PG_FUNCTION_INFO_V1(simhash_similarity);
Datum
simhash_similarity(PG_FUNCTION_ARGS)
{
	int			distance = SimhashDistance(PG_GETARG_SIMHASH(0), PG_GETARG_SIMHASH(1));

	PG_RETURN_FLOAT8(1.0 - (double) distance / SIMHASH_BITS);
}
