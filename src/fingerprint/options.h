/*
 * fingerprint/options.h
 *	  The options of simhash(text): feature kind, n, weighting, numbers (options.c).
 */
#ifndef SIMHASH_FP_OPTIONS_H
#define SIMHASH_FP_OPTIONS_H

#include "type/simhash.h"


/*
 * The algorithm version.  Any change to the fingerprint of any input (other
 * than by an ICU upgrade, which simhash_algorithm_version() reports
 * separately) must bump it and the golden vectors together.
 */
#define SIMHASH_ALGORITHM_VERSION 8

/* The oldest algorithm version simhash(text, ..., version) still computes. */
#define SIMHASH_OLDEST_VERSION 3

/* Largest n accepted for shingles and character n-grams. */
#define SIMHASH_MAX_N 16

typedef enum FeatureKind
{
	FEATURES_WORDS,				/* words; n > 1 gives n-word shingles */
	FEATURES_SHINGLES,			/* same as words, but n defaults to 2 */
	FEATURES_CHARS				/* character n-grams */
} FeatureKind;

typedef enum Weighting
{
	WEIGHTING_TF,				/* every occurrence counts 1 */
	WEIGHTING_BINARY,			/* every distinct feature counts 1 */
	WEIGHTING_LOG,				/* 1 + ln(occurrences) per distinct feature */
	WEIGHTING_RUNS				/* every occurrence counts the length of its
								 * run of text, at most SIMHASH_RUN_CAP */
} Weighting;

/* Longest run of words that weighs more (weighting 'runs'). */
#define SIMHASH_RUN_CAP 64

typedef struct FingerprintOptions
{
	FeatureKind kind;
	int			n;
	Weighting	weighting;
	bool		numbers;		/* keep tokens made of digits only? */
	int			version;		/* algorithm version: 3 or 4 (see
								 * tokenizer.c and weights.c for what
								 * changed) */
} FingerprintOptions;

/* options.c */
extern void FingerprintOptionsDefault(FingerprintOptions *opts);
extern void FingerprintOptionsParse(FingerprintOptions *opts, text *kind,
									int32 n, text *weighting, bool numbers,
									int32 version);

#endif							/* SIMHASH_FP_OPTIONS_H */
