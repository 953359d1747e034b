/*
 * type/simhash.h
 *	  The public interface of src/type/: the simhash and simhash_ball types
 *	  as C sees them.  Every other folder may include this header.
 *
 * A simhash is a 64-bit fingerprint stored and passed exactly like int8
 * (pass-by-value, 8 bytes, double alignment).  In C it is a uint64; the
 * Datum conversions below are the only place that knows the representation.
 */
#ifndef SIMHASH_TYPE_H
#define SIMHASH_TYPE_H

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

/* Three-way comparison of fingerprints as unsigned 64-bit integers. */
static inline int
SimhashCompare(uint64 a, uint64 b)
{
	return (a > b) - (a < b);
}

/* simhash_ball (ball.c): fixed length, 16 bytes, double-aligned, by reference. */
typedef struct SimhashBall
{
	uint64		center;
	int32		radius;
	int32		padding;		/* always zero */
} SimhashBall;

#define PG_GETARG_SIMHASH_BALL(n)	((SimhashBall *) PG_GETARG_POINTER(n))

/* True when fp lies within the ball: distance to the center <= radius. */
static inline bool
SimhashWithin(uint64 fp, const SimhashBall *ball)
{
	return SimhashDistance(fp, ball->center) <= ball->radius;
}

/* io.c (ball.c parses and prints its center with them) */
extern Datum simhash_in(PG_FUNCTION_ARGS);
extern Datum simhash_out(PG_FUNCTION_ARGS);
extern char *SimhashShortText(const char *str);

#endif							/* SIMHASH_TYPE_H */
