/*
 * planner/planner.h
 *	  The public interface of src/planner/ to the rest of the extension.
 *
 * The planner support functions themselves are SQL-callable and reached
 * through the install script (src/install/50_planner.sql).
 */
#ifndef SIMHASH_PLANNER_H
#define SIMHASH_PLANNER_H

/* Registers the invalidation of the per-backend OID cache (support.c). */
extern void SimhashPlannerInit(void);

#endif							/* SIMHASH_PLANNER_H */
