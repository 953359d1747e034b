/*
 * workflows/clusters.c
 *	  Clusters of near-duplicates over the pairs within k bits (pairs.c):
 *	  connected components, and leader clustering.
 *
 * Both are deterministic: they depend on the set of rows, never on the order
 * in which the table returned them, because every choice follows RowBefore
 * (id, then fingerprint).
 *
 * Connected components ("components"): two rows are in the same cluster when
 * a chain of pairs within k links them.  The representative is the first row
 * of the component in RowBefore order (the smallest id).  Chains can link
 * rows far more than k bits apart (the chaining effect, doc/deduplicating.md).
 *
 * Leader clustering ("leaders"): rows are taken in RowBefore order; a row
 * within k of one or more leaders joins the nearest (ties: the first in
 * RowBefore order), otherwise it becomes a leader itself.  Every row is
 * within k of its representative.  A row inserted later, with a larger id,
 * gets the cluster a recomputation would give it by one index lookup among
 * the leaders (the nearest within k).
 */
#include "batch.h"

#include "miscadmin.h"
#include "utils/memutils.h"

/* Union-find over row positions; each root is its set's first row. */
typedef struct Components
{
	const FingerprintSet *set;
	uint32	   *parent;
} Components;

static inline uint32
FindRoot(uint32 *parent, uint32 x)
{
	while (parent[x] != x)
	{
		parent[x] = parent[parent[x]];	/* path halving */
		x = parent[x];
	}
	return x;
}

static void
UnionPair(uint32 a, uint32 b, int distance, void *arg)
{
	Components *c = (Components *) arg;
	uint32		ra = FindRoot(c->parent, a),
				rb = FindRoot(c->parent, b);

	if (ra == rb)
		return;
	if (RowBefore(c->set, ra, rb))
		c->parent[rb] = ra;
	else
		c->parent[ra] = rb;
}

/*
 * Returns, palloc'd in the current context, the position of each row's
 * representative under connected components.
 */
uint32 *
SimhashComponents(const FingerprintSet *set, const PairsPlan *plan, Size budget)
{
	Components	c;

	c.set = set;
	c.parent = palloc_extended(Max(set->n, 1) * sizeof(uint32), MCXT_ALLOC_HUGE);
	for (uint32 i = 0; i < set->n; i++)
		c.parent[i] = i;
	SimhashPairsFind(set->fps, set->n, plan, budget, UnionPair, &c);
	for (uint32 i = 0; i < set->n; i++)
		c.parent[i] = FindRoot(c.parent, i);
	return c.parent;
}

/* The pairs, kept for leader clustering. */
typedef struct PairList
{
	uint32	   *a;
	uint32	   *b;
	uint8	   *d;
	Size		n;
	Size		cap;
} PairList;

static void
KeepPair(uint32 a, uint32 b, int distance, void *arg)
{
	PairList   *l = (PairList *) arg;

	if (l->n == l->cap)
	{
		l->cap *= 2;
		l->a = repalloc_huge(l->a, l->cap * sizeof(uint32));
		l->b = repalloc_huge(l->b, l->cap * sizeof(uint32));
		l->d = repalloc_huge(l->d, l->cap * sizeof(uint8));
	}
	l->a[l->n] = a;
	l->b[l->n] = b;
	l->d[l->n] = (uint8) distance;
	l->n++;
}

static int
CompareRows(const void *x, const void *y, void *arg)
{
	uint32		a = *(const uint32 *) x,
				b = *(const uint32 *) y;

	if (a == b)
		return 0;
	return RowBefore((const FingerprintSet *) arg, a, b) ? -1 : 1;
}

/*
 * Returns, palloc'd in the current context, the position of each row's
 * representative under leader clustering.  Keeps every pair in memory
 * (9 bytes each, twice over while the adjacency lists are built).
 */
uint32 *
SimhashLeaders(const FingerprintSet *set, const PairsPlan *plan, Size budget)
{
	uint32		n = set->n;
	uint32	   *rep = palloc_extended(Max(n, 1) * sizeof(uint32), MCXT_ALLOC_HUGE);
	PairList	l;
	Size	   *start;
	uint32	   *nbr;
	uint8	   *dist;
	uint32	   *order;
	uint32		nlinked = 0;

	l.cap = 1024;
	l.n = 0;
	l.a = palloc(l.cap * sizeof(uint32));
	l.b = palloc(l.cap * sizeof(uint32));
	l.d = palloc(l.cap * sizeof(uint8));
	SimhashPairsFind(set->fps, n, plan, budget, KeepPair, &l);

	/* adjacency lists: start[i] .. start[i + 1] in nbr and dist */
	start = palloc_extended((Size) (n + 1) * sizeof(Size), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	for (Size p = 0; p < l.n; p++)
	{
		start[l.a[p] + 1]++;
		start[l.b[p] + 1]++;
	}
	for (uint32 i = 0; i < n; i++)
		start[i + 1] += start[i];
	nbr = palloc_extended(Max(2 * l.n, 1) * sizeof(uint32), MCXT_ALLOC_HUGE);
	dist = palloc_extended(Max(2 * l.n, 1) * sizeof(uint8), MCXT_ALLOC_HUGE);
	{
		Size	   *fill = palloc_extended((Size) n * sizeof(Size) + 1, MCXT_ALLOC_HUGE);

		memcpy(fill, start, (Size) n * sizeof(Size));
		for (Size p = 0; p < l.n; p++)
		{
			nbr[fill[l.a[p]]] = l.b[p];
			dist[fill[l.a[p]]++] = l.d[p];
			nbr[fill[l.b[p]]] = l.a[p];
			dist[fill[l.b[p]]++] = l.d[p];
		}
		pfree(fill);
	}
	pfree(l.a);
	pfree(l.b);
	pfree(l.d);

	/* rows without a pair lead themselves; the others, in RowBefore order */
	order = palloc_extended(Max(n, 1) * sizeof(uint32), MCXT_ALLOC_HUGE);
	for (uint32 i = 0; i < n; i++)
	{
		rep[i] = PG_UINT32_MAX; /* not yet placed */
		if (start[i + 1] > start[i])
			order[nlinked++] = i;
		else
			rep[i] = i;
	}
	qsort_arg(order, nlinked, sizeof(uint32), CompareRows, (void *) set);
	for (uint32 o = 0; o < nlinked; o++)
	{
		uint32		r = order[o];
		uint32		best = PG_UINT32_MAX;
		int			bestd = SIMHASH_BITS + 1;

		if ((o & 0xFFFF) == 0)
			CHECK_FOR_INTERRUPTS();
		/* a neighbour already placed precedes r; a leader is its own rep */
		for (Size e = start[r]; e < start[r + 1]; e++)
		{
			uint32		q = nbr[e];

			if (rep[q] != q)
				continue;
			if (dist[e] < bestd || (dist[e] == bestd && RowBefore(set, q, best)))
			{
				best = q;
				bestd = dist[e];
			}
		}
		rep[r] = best == PG_UINT32_MAX ? r : best;
	}
	pfree(order);
	pfree(start);
	pfree(nbr);
	pfree(dist);
	return rep;
}
