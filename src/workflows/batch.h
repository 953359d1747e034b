/*
 * workflows/batch.h
 *	  Internal header of src/workflows/: the batch all-pairs search over an
 *	  array of fingerprints (pairs.c) and the clusterings built on it
 *	  (clusters.c).  Nothing outside this folder includes it.
 */
#ifndef SIMHASH_WORKFLOWS_BATCH_H
#define SIMHASH_WORKFLOWS_BATCH_H

#include "type/simhash.h"

/*
 * How the fingerprints are searched for pairs within k bits (pairs.c).
 * The 64 bits are cut into nblocks blocks; two fingerprints within k bits
 * differ in at most k blocks, so they agree exactly on at least
 * agree = nblocks - k of them (pigeonhole).  There is one table per
 * combination of `agree` blocks, keyed by those blocks: every pair within k
 * shares the key of at least one table.  agree = 0 is the plain comparison
 * of every pair (one table, empty key).
 */
typedef struct PairsPlan
{
	int			k;				/* radius, 0..64 */
	int			nblocks;		/* m, 1..64 */
	int			agree;			/* j = m - k, 0..m */
	double		ntables;		/* C(m, j) */
	double		cost;			/* estimated work, in pair comparisons */
	uint64		blockmask[SIMHASH_BITS];	/* block b, b = 0 the most significant */
} PairsPlan;

/* Receives one pair of fingerprint positions (a < b) and their distance. */
typedef void (*PairCallback) (uint32 a, uint32 b, int distance, void *arg);

/*
 * The rows of a table that have a fingerprint (functions.c reads them):
 * row i has fingerprint fps[i] and id ids[i].
 */
typedef struct FingerprintSet
{
	uint64	   *fps;
	int64	   *ids;
	uint32		n;
} FingerprintSet;

/*
 * The order that makes clusters deterministic: by id, then by fingerprint
 * (rows equal in both are interchangeable), then by position.
 */
static inline bool
RowBefore(const FingerprintSet *set, uint32 a, uint32 b)
{
	if (set->ids[a] != set->ids[b])
		return set->ids[a] < set->ids[b];
	if (set->fps[a] != set->fps[b])
		return set->fps[a] < set->fps[b];
	return a < b;
}

/* pairs.c */
extern void SimhashPairsPlan(PairsPlan *plan, int k, int64 n, Size budget, int blocks);
extern void SimhashPairsFind(const uint64 *fps, uint32 n, const PairsPlan *plan,
							 Size budget, PairCallback callback, void *arg);

/* clusters.c: per row, the position of its cluster's representative */
extern uint32 *SimhashComponents(const FingerprintSet *set, const PairsPlan *plan, Size budget);
extern uint32 *SimhashLeaders(const FingerprintSet *set, const PairsPlan *plan, Size budget);

/* The setting simhash.pairs_blocks (functions.c): 0 = choose by cost. */
extern int	simhash_pairs_blocks;

#endif							/* SIMHASH_WORKFLOWS_BATCH_H */
