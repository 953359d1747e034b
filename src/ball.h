/*
 * ball.h
 *	  The simhash_ball type: a center fingerprint and a radius (see ball.c).
 */
#ifndef SIMHASH_BALL_H
#define SIMHASH_BALL_H

#include "simhash.h"

/* Fixed length, 16 bytes, double-aligned, passed by reference. */
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

#endif							/* SIMHASH_BALL_H */
