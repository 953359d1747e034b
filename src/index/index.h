/*
 * index/index.h
 *	  The public interface of src/index/ to the rest of the extension.
 *
 * The access method itself is reached through its handler, declared in the
 * install script (src/install/70_index.sql); shindex.h is internal to this
 * folder.
 */
#ifndef SIMHASH_INDEX_H
#define SIMHASH_INDEX_H

/* Registers the reloptions and the commit-time flush (handler.c). */
extern void SimhashIndexInit(void);

#endif							/* SIMHASH_INDEX_H */
