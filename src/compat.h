/*
 * compat.h
 *	  Shims for the PostgreSQL versions simhash builds against (13 and later).
 *
 * Everything that differs between server versions is bridged here, guarded
 * by PG_VERSION_NUM, so that the rest of the code is written against one API.
 */
#ifndef SIMHASH_COMPAT_H
#define SIMHASH_COMPAT_H

#include "postgres.h"

#if PG_VERSION_NUM < 130000
#error "simhash requires PostgreSQL 13 or later"
#endif

/* PostgreSQL 15 renamed EmitWarningsOnPlaceholders. */
#if PG_VERSION_NUM < 150000
#define MarkGUCPrefixReserved(prefix) EmitWarningsOnPlaceholders(prefix)
#endif

/*
 * Soft input errors (pg_input_is_valid) arrived in PostgreSQL 16.  On older
 * servers an input error is always thrown.
 */
#if PG_VERSION_NUM >= 160000
#include "nodes/miscnodes.h"
#define SIMHASH_INPUT_ERROR(fcinfo, rest) ereturn((fcinfo)->context, (Datum) 0, rest)
#else
#define SIMHASH_INPUT_ERROR(fcinfo, rest) \
	do { ereport(ERROR, rest); return (Datum) 0; } while (0)
#endif

/* Popcount of one 64-bit word; inlined by GCC and Clang. */
#if defined(__GNUC__) || defined(__clang__)
#define SIMHASH_POPCOUNT64(x) __builtin_popcountll(x)
#else
#include "port/pg_bitutils.h"
#define SIMHASH_POPCOUNT64(x) pg_popcount64(x)
#endif

#endif							/* SIMHASH_COMPAT_H */
