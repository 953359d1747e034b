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

/* Defines the simhash.* settings of fingerprinting (functions.c). */
extern void SimhashFingerprintInit(void);

#endif							/* SIMHASH_FINGERPRINT_H */
