/*
 * fuzz_common.h
 *	  What the standalone test programs of test/fuzz share: the assertion
 *	  handler of backend code compiled outside a server, and a seeded
 *	  random number generator (the same sequence on every platform, so that
 *	  a seed printed by a failing run replays it).  Include it once per
 *	  program, after postgres.h or postgres_fe.h.
 */
#ifndef SIMHASH_FUZZ_COMMON_H
#define SIMHASH_FUZZ_COMMON_H

/*
 * The code under test is compiled as backend code (it includes c.h, not
 * postgres_fe.h): in an assert-enabled build its Assert()s call this.
 * PostgreSQL 16 dropped its errorType argument.  (A test harness, built
 * outside the extension: the one version test outside src/compat.h.)
 */
#if PG_VERSION_NUM >= 160000
void
ExceptionalCondition(const char *conditionName, const char *fileName, int lineNumber)
#else
void
ExceptionalCondition(const char *conditionName, const char *errorType,
					 const char *fileName, int lineNumber)
#endif
{
	fprintf(stderr, "TRAP: Assert(\"%s\"), File: \"%s\", Line: %d\n",
			conditionName, fileName, lineNumber);
	abort();
}

static uint64 rng_state;

static uint32
rnd(void)
{
	rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32) (rng_state >> 33);
}

/* A random number in [0, n), 0 for n = 0. */
static uint32
rnd_below(uint32 n)
{
	return n ? rnd() % n : 0;
}

#endif							/* SIMHASH_FUZZ_COMMON_H */
