/*
 * simhash.h
 *	  Shared declarations of the simhash extension.
 *
 * A simhash is a 64-bit fingerprint stored and passed exactly like int8
 * (pass-by-value, 8 bytes, double alignment).  In C it is a uint64; the
 * Datum conversions below are the only place that knows the representation.
 */
#ifndef SIMHASH_H
#define SIMHASH_H

#include "postgres.h"
#include "fmgr.h"

#include "compat.h"

#define SIMHASH_BITS 64

#define DatumGetSimhash(d)		((uint64) DatumGetInt64(d))
#define SimhashGetDatum(v)		Int64GetDatum((int64) (v))
#define PG_GETARG_SIMHASH(n)	DatumGetSimhash(PG_GETARG_DATUM(n))
#define PG_RETURN_SIMHASH(v)	return SimhashGetDatum(v)

/* Number of differing bits between two fingerprints, 0..64. */
static inline int
SimhashDistance(uint64 a, uint64 b)
{
	return SIMHASH_POPCOUNT64(a ^ b);
}

/* type.c */
extern Datum simhash_in(PG_FUNCTION_ARGS);
extern Datum simhash_out(PG_FUNCTION_ARGS);

/* planner.c */
extern void SimhashPlannerInit(void);

/* fingerprint.c */
extern void SimhashFingerprintInit(void);

#endif							/* SIMHASH_H */
