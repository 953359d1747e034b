/*
 * fingerprint/fingerprint.h
 *	  The public interface of src/fingerprint/ to the rest of the extension.
 *
 * Everything else in this folder is internal to it; its SQL-callable
 * functions are reached through the install script (src/install/).
 * See README.md in this folder for the pipeline.
 */
#ifndef SIMHASH_FINGERPRINT_H
#define SIMHASH_FINGERPRINT_H

#include "type/simhash.h"

/* Defines the simhash.* settings of fingerprinting (functions.c). */
extern void SimhashFingerprintInit(void);

/*
 * The fingerprint of utf8[0..len) (UTF-8 whatever the database encoding),
 * exactly as simhash(text) and simhash(text, features, n, weighting,
 * numbers) compute it (features NULL: the defaults, and the other options
 * are ignored); false when the text has no feature.  For html/, which
 * fingerprints the text it extracts from markup.
 */
extern bool FingerprintUtf8(const char *utf8, size_t len, text *features,
							int32 n, text *weighting, bool numbers,
							uint64 *result);

#endif							/* SIMHASH_FINGERPRINT_H */
