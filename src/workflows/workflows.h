/*
 * workflows/workflows.h
 *	  The public interface of src/workflows/: the near-duplicate workflows
 *	  over a whole table (all pairs within k bits, clusters).
 *
 * The rest of the extension reaches this folder through SQL (simhash_pairs,
 * simhash_clusters, declared in src/install/80_workflows.sql) and through
 * the init function below, which _PG_init calls.
 */
#ifndef SIMHASH_WORKFLOWS_H
#define SIMHASH_WORKFLOWS_H

/* Defines the folder's settings (simhash.pairs_blocks). */
extern void SimhashWorkflowsInit(void);

#endif							/* SIMHASH_WORKFLOWS_H */
