/*
 * type/ball.c
 *	  simhash_ball: a query "every fingerprint within radius r of center c".
 *
 * The radius travels in the operand, so "fp <@ simhash_ball(q, 3)" is an
 * IMMUTABLE clause that an index can answer and that ships unchanged to
 * remote shards.  Any int4 radius is accepted and means exactly
 * "hamming_distance(fp, center) <= radius": a negative radius matches
 * nothing, a radius of 64 or more matches every fingerprint.
 *
 * Text form: 16 hex digits, a slash, the radius in decimal
 * ("0123456789abcdef/3"); the center accepts every simhash spelling.
 */
#include "type/simhash.h"

#include "libpq/pqformat.h"
#include "utils/builtins.h"


PG_FUNCTION_INFO_V1(simhash_ball_in);
Datum
simhash_ball_in(PG_FUNCTION_ARGS)
{
	char	   *str = PG_GETARG_CSTRING(0);
	char	   *slash = strrchr(str, '/');
	SimhashBall *ball;
	char	   *center;
	char	   *end;
	long		radius;
	Datum		center_datum;

	if (slash == NULL)
		SIMHASH_INPUT_ERROR(fcinfo,
							(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
							 errmsg("invalid input syntax for type %s: \"%s\"",
									"simhash_ball", SimhashShortText(str)),
							 errdetail("A simhash_ball is written as a simhash, a slash and a radius, as in 0123456789abcdef/3.")));

	errno = 0;
	radius = strtol(slash + 1, &end, 10);
	while (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r')
		end++;
	if (end == slash + 1 || *end != '\0' || errno != 0 ||
		radius < PG_INT32_MIN || radius > PG_INT32_MAX)
		SIMHASH_INPUT_ERROR(fcinfo,
							(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
							 errmsg("invalid input syntax for type %s: \"%s\"",
									"simhash_ball", SimhashShortText(str)),
							 errdetail("The radius after the slash must be an integer.")));

	center = pnstrdup(str, slash - str);
#if PG_VERSION_NUM >= 160000
	if (!DirectInputFunctionCallSafe(simhash_in, center, InvalidOid, -1,
									 fcinfo->context, &center_datum))
		PG_RETURN_NULL();
#else
	center_datum = DirectFunctionCall1(simhash_in, CStringGetDatum(center));
#endif

	ball = palloc0(sizeof(SimhashBall));
	ball->center = DatumGetSimhash(center_datum);
	ball->radius = (int32) radius;
	PG_RETURN_POINTER(ball);
}

PG_FUNCTION_INFO_V1(simhash_ball_out);
Datum
simhash_ball_out(PG_FUNCTION_ARGS)
{
	SimhashBall *ball = PG_GETARG_SIMHASH_BALL(0);
	char	   *center = DatumGetCString(DirectFunctionCall1(simhash_out,
															 SimhashGetDatum(ball->center)));

	PG_RETURN_CSTRING(psprintf("%s/%d", center, ball->radius));
}

/* Binary form: the center as 8 bytes, then the radius as 4 bytes. */
PG_FUNCTION_INFO_V1(simhash_ball_recv);
Datum
simhash_ball_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	SimhashBall *ball = palloc0(sizeof(SimhashBall));

	ball->center = (uint64) pq_getmsgint64(buf);
	ball->radius = (int32) pq_getmsgint(buf, 4);
	PG_RETURN_POINTER(ball);
}

PG_FUNCTION_INFO_V1(simhash_ball_send);
Datum
simhash_ball_send(PG_FUNCTION_ARGS)
{
	SimhashBall *ball = PG_GETARG_SIMHASH_BALL(0);
	StringInfoData buf;

	pq_begintypsend(&buf);
	pq_sendint64(&buf, (int64) ball->center);
	pq_sendint32(&buf, (uint32) ball->radius);
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

/* simhash_ball(center, radius): the ball of fingerprints within radius. */
PG_FUNCTION_INFO_V1(simhash_ball);
Datum
simhash_ball(PG_FUNCTION_ARGS)
{
	SimhashBall *ball = palloc0(sizeof(SimhashBall));

	ball->center = PG_GETARG_SIMHASH(0);
	ball->radius = PG_GETARG_INT32(1);
	PG_RETURN_POINTER(ball);
}

/* fp <@ ball: hamming_distance(fp, center) <= radius. */
PG_FUNCTION_INFO_V1(simhash_within);
Datum
simhash_within(PG_FUNCTION_ARGS)
{
	uint64		fp = PG_GETARG_SIMHASH(0);
	SimhashBall *ball = PG_GETARG_SIMHASH_BALL(1);

	PG_RETURN_BOOL(SimhashWithin(fp, ball));
}

/* ball @> fp: the commutator of <@. */
PG_FUNCTION_INFO_V1(simhash_ball_contains);
Datum
simhash_ball_contains(PG_FUNCTION_ARGS)
{
	SimhashBall *ball = PG_GETARG_SIMHASH_BALL(0);
	uint64		fp = PG_GETARG_SIMHASH(1);

	PG_RETURN_BOOL(SimhashWithin(fp, ball));
}

PG_FUNCTION_INFO_V1(simhash_ball_center);
Datum
simhash_ball_center(PG_FUNCTION_ARGS)
{
	PG_RETURN_SIMHASH(PG_GETARG_SIMHASH_BALL(0)->center);
}

PG_FUNCTION_INFO_V1(simhash_ball_radius);
Datum
simhash_ball_radius(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(PG_GETARG_SIMHASH_BALL(0)->radius);
}

/*
 * a <@> b: each center lies in the other's ball, that is
 * hamming_distance(a.center, b.center) <= least(a.radius, b.radius).
 * Commutative, so that exclusion constraints can use it; with equal radii
 * (simhash_ball(fp, k) on both sides) it is simply "within k".
 */
PG_FUNCTION_INFO_V1(simhash_ball_near);
Datum
simhash_ball_near(PG_FUNCTION_ARGS)
{
	SimhashBall *a = PG_GETARG_SIMHASH_BALL(0);
	SimhashBall *b = PG_GETARG_SIMHASH_BALL(1);

	PG_RETURN_BOOL(SimhashDistance(a->center, b->center) <= Min(a->radius, b->radius));
}
