/*
 * fingerprint/features.h
 *	  Features: from kept tokens to feature hashes (words, shingles, n-grams) (features.c).
 */
#ifndef SIMHASH_FP_FEATURES_H
#define SIMHASH_FP_FEATURES_H

#include "fingerprint/weights.h"

typedef struct FeatureExtractor FeatureExtractor;

extern FeatureExtractor *FeatureExtractorCreate(const FingerprintOptions *opts,
												bool introspect, int64 textbytes);
extern void FeatureExtractorAddToken(FeatureExtractor *fx, const char *token,
									 int len, bool gap, bool newrun);
extern const FingerprintOptions *FeatureExtractorOptions(FeatureExtractor *fx);
extern RunCounter *FeatureExtractorRunCounter(FeatureExtractor *fx);
extern TfCounter *FeatureExtractorTfCounter(FeatureExtractor *fx);
extern bool FeatureExtractorLineWeights(FeatureExtractor *fx);
extern void FeatureExtractorSetLineClass(FeatureExtractor *fx, int class);
extern bool FeatureExtractorResult(FeatureExtractor *fx, uint64 *result);
extern FeatureStat *FeatureExtractorStats(FeatureExtractor *fx, int64 *nstats);

#endif							/* SIMHASH_FP_FEATURES_H */
