/*
 * fingerprint/options.c
 *	  The options of simhash(text, features, n, weighting, numbers): parsing,
 *	  validation and the default.
 *
 * The default was chosen by the labelled near-duplicate benchmark
 * (scripts/bench-fingerprint.sh; README, "Choosing the default").
 */
#include "fingerprint/options.h"

#include "utils/builtins.h"

void
FingerprintOptionsDefault(FingerprintOptions *opts)
{
	opts->kind = FEATURES_WORDS;
	opts->n = 1;
	opts->weighting = WEIGHTING_RUNS;
	opts->numbers = false;
}

const char *
FeatureKindName(FeatureKind kind)
{
	switch (kind)
	{
		case FEATURES_WORDS:
			return "words";
		case FEATURES_SHINGLES:
			return "shingles";
		case FEATURES_CHARS:
			return "chars";
	}
	return "?";
}

const char *
WeightingName(Weighting weighting)
{
	switch (weighting)
	{
		case WEIGHTING_TF:
			return "tf";
		case WEIGHTING_BINARY:
			return "binary";
		case WEIGHTING_LOG:
			return "log";
		case WEIGHTING_RUNS:
			return "runs";
	}
	return "?";
}

/* The n a kind gets when the caller passes 0. */
static int
DefaultN(FeatureKind kind)
{
	switch (kind)
	{
		case FEATURES_WORDS:
			return 1;
		case FEATURES_SHINGLES:
			return 2;
		case FEATURES_CHARS:
			return 3;
	}
	return 1;
}

/*
 * Fills *opts from the SQL arguments, raising invalid_parameter_value with
 * a hint listing the valid values on anything unknown.
 */
void
FingerprintOptionsParse(FingerprintOptions *opts, text *kind, int32 n,
						text *weighting, bool numbers)
{
	char	   *k = text_to_cstring(kind);
	char	   *w = text_to_cstring(weighting);

	if (strcmp(k, "words") == 0)
		opts->kind = FEATURES_WORDS;
	else if (strcmp(k, "shingles") == 0)
		opts->kind = FEATURES_SHINGLES;
	else if (strcmp(k, "chars") == 0)
		opts->kind = FEATURES_CHARS;
	else
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid feature kind \"%s\"", k),
				 errhint("Valid feature kinds are \"words\", \"shingles\" and \"chars\".")));

	if (n < 0 || n > SIMHASH_MAX_N)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid n %d", n),
				 errhint("n must be between 1 and %d, or 0 for the default of the feature kind (1 for words, 2 for shingles, 3 for chars).",
						 SIMHASH_MAX_N)));
	opts->n = n == 0 ? DefaultN(opts->kind) : n;

	if (strcmp(w, "tf") == 0)
		opts->weighting = WEIGHTING_TF;
	else if (strcmp(w, "binary") == 0)
		opts->weighting = WEIGHTING_BINARY;
	else if (strcmp(w, "log") == 0)
		opts->weighting = WEIGHTING_LOG;
	else if (strcmp(w, "runs") == 0)
		opts->weighting = WEIGHTING_RUNS;
	else
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid weighting \"%s\"", w),
				 errhint("Valid weightings are \"tf\", \"binary\", \"log\" and \"runs\".")));

	opts->numbers = numbers;
	pfree(k);
	pfree(w);
}
