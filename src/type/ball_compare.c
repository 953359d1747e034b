/*
 * type/ball_compare.c
 *	  Equality, btree and hash support for simhash_ball.
 *
 * Two balls are equal when they have the same center and the same radius
 * (the padding is always zero and is never read).  They order by center, as
 * unsigned 64-bit integers like simhash itself, then by radius.  Equality is
 * what logical replication needs to find the old row of a table with
 * REPLICA IDENTITY FULL: the subscriber compares every column with its
 * type's default btree (or hash) opclass's "=".
 */
#include "type/simhash.h"

#include "common/hashfn.h"
#include "utils/sortsupport.h"

static inline int
BallCompare(const SimhashBall *a, const SimhashBall *b)
{
	int			c = SimhashCompare(a->center, b->center);

	return c != 0 ? c : (a->radius > b->radius) - (a->radius < b->radius);
}

#define BALL_COMPARISON(name, op) \
PG_FUNCTION_INFO_V1(name); \
Datum \
name(PG_FUNCTION_ARGS) \
{ \
	PG_RETURN_BOOL(BallCompare(PG_GETARG_SIMHASH_BALL(0), PG_GETARG_SIMHASH_BALL(1)) op 0); \
}

BALL_COMPARISON(simhash_ball_eq, ==)
BALL_COMPARISON(simhash_ball_ne, !=)
BALL_COMPARISON(simhash_ball_lt, <)
BALL_COMPARISON(simhash_ball_le, <=)
BALL_COMPARISON(simhash_ball_gt, >)
BALL_COMPARISON(simhash_ball_ge, >=)

/* btree support function 1: three-way comparison. */
PG_FUNCTION_INFO_V1(simhash_ball_cmp);
Datum
simhash_ball_cmp(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(BallCompare(PG_GETARG_SIMHASH_BALL(0), PG_GETARG_SIMHASH_BALL(1)));
}

static int
BallFastCompare(Datum a, Datum b, SortSupport ssup)
{
	return BallCompare((SimhashBall *) DatumGetPointer(a),
					   (SimhashBall *) DatumGetPointer(b));
}

/* btree support function 2: sort support, avoiding fmgr calls in sorts. */
PG_FUNCTION_INFO_V1(simhash_ball_sortsupport);
Datum
simhash_ball_sortsupport(PG_FUNCTION_ARGS)
{
	SortSupport ssup = (SortSupport) PG_GETARG_POINTER(0);

	ssup->comparator = BallFastCompare;
	PG_RETURN_VOID();
}

/*
 * The hashed key: three 32-bit words, the low and the high half of the
 * center and the radius, never the padding.  hash_bytes reads an aligned key
 * word by word, so the hashes (and hash partitions) are the same on every
 * platform.
 */
static inline void
BallKey(const SimhashBall *ball, uint32 key[3])
{
	key[0] = (uint32) ball->center;
	key[1] = (uint32) (ball->center >> 32);
	key[2] = (uint32) ball->radius;
}

/* hash support function 1: 32-bit hash. */
PG_FUNCTION_INFO_V1(simhash_ball_hash);
Datum
simhash_ball_hash(PG_FUNCTION_ARGS)
{
	uint32		key[3];

	BallKey(PG_GETARG_SIMHASH_BALL(0), key);
	return hash_any((unsigned char *) key, sizeof(key));
}

/*
 * hash support function 2: seeded 64-bit hash (hash partitioning); with seed
 * 0 its low 32 bits are simhash_ball_hash, as PostgreSQL requires.
 */
PG_FUNCTION_INFO_V1(simhash_ball_hash_extended);
Datum
simhash_ball_hash_extended(PG_FUNCTION_ARGS)
{
	uint32		key[3];

	BallKey(PG_GETARG_SIMHASH_BALL(0), key);
	return hash_any_extended((unsigned char *) key, sizeof(key),
							 (uint64) PG_GETARG_INT64(1));
}
