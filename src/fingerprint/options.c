/*
 * fingerprint/options.c
 *	  The options of simhash(text, features, n, weighting, numbers): parsing,
 *	  validation and the default.
 *
 * The default was chosen by the labelled near-duplicate benchmark
 * (scripts/bench-fingerprint.sh; doc/benchmarks.md, "Choosing the default").
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
	opts->version = SIMHASH_ALGORITHM_VERSION;
}

/* The SQL names of the feature kinds and weightings, by enum value. */
static const char *const feature_kind_names[] = {
	[FEATURES_WORDS] = "words",
	[FEATURES_SHINGLES] = "shingles",
	[FEATURES_CHARS] = "chars",
};
static const char *const weighting_names[] = {
	[WEIGHTING_TF] = "tf",
	[WEIGHTING_BINARY] = "binary",
	[WEIGHTING_LOG] = "log",
	[WEIGHTING_RUNS] = "runs",
};

/* The index of name in names[0..n), or -1. */
static int
NameIndex(const char *const *names, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0)
			return i;
	return -1;
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
 * Fills *opts from the SQL arguments (version 0: the current one), raising invalid_parameter_value with
 * a hint listing the valid values on anything unknown.
 */
void
FingerprintOptionsParse(FingerprintOptions *opts, text *kind, int32 n,
						text *weighting, bool numbers, int32 version)
{
	char	   *k = text_to_cstring(kind);
	char	   *w = text_to_cstring(weighting);
	int			kind_index = NameIndex(feature_kind_names, lengthof(feature_kind_names), k);
	int			weighting_index = NameIndex(weighting_names, lengthof(weighting_names), w);

	if (kind_index < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid feature kind \"%s\"", SimhashShortText(k)),
				 errhint("Valid feature kinds are \"words\", \"shingles\" and \"chars\".")));
	opts->kind = (FeatureKind) kind_index;

	if (n < 0 || n > SIMHASH_MAX_N)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid n %d", n),
				 errhint("n must be between 1 and %d, or 0 for the default of the feature kind (1 for words, 2 for shingles, 3 for chars).",
						 SIMHASH_MAX_N)));
	opts->n = n == 0 ? DefaultN(opts->kind) : n;

	if (weighting_index < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid weighting \"%s\"", SimhashShortText(w)),
				 errhint("Valid weightings are \"tf\", \"binary\", \"log\" and \"runs\".")));
	opts->weighting = (Weighting) weighting_index;

	opts->numbers = numbers;

	if (version != 0 &&
		(version < SIMHASH_OLDEST_VERSION || version > SIMHASH_ALGORITHM_VERSION))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid algorithm version %d", version),
				 errhint("Valid versions are %d to %d, or 0 for the current one (%d).",
						 SIMHASH_OLDEST_VERSION, SIMHASH_ALGORITHM_VERSION,
						 SIMHASH_ALGORITHM_VERSION)));
	opts->version = version == 0 ? SIMHASH_ALGORITHM_VERSION : version;
	pfree(k);
	pfree(w);
}
