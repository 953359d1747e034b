/*
 * fingerprint/functions.c
 *	  SQL entry points of fingerprinting: simhash(text) with and without
 *	  options, simhash_features (introspection), fingerprints of features the
 *	  caller brings (text[], text[] with float8[] weights, bigint[] hashes,
 *	  the aggregate simhash_agg) and simhash_algorithm_version().
 *
 * The pipeline behind simhash(text) (README.md in this folder): the
 * tokenizer (tokenizer*.c), features.c, weights.c, lanes.c; the options
 * are in options.c.
 *
 * Encodings: features are hashed as UTF-8 whatever the database encoding,
 * so fingerprints are the same in every database.  In a database that is
 * not UTF8 the text is converted to UTF-8 first (one extra copy of it, or
 * piece by piece for a value stored out of line); in SQL_ASCII bytes that
 * are not valid UTF-8 count as U+FFFD, a symbol.
 */
#include "fingerprint/fingerprint.h"
#include "fingerprint/tokenizer.h"

#include "access/detoast.h"
#include "access/xact.h"
#include "catalog/pg_type.h"
#include "funcapi.h"
#include "libpq/pqformat.h"
#include "mb/pg_wchar.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

static const struct config_enum_entry simd_options[] = {
	{"auto", SIMD_AUTO, false},
	{"avx2", SIMD_AVX2, false},
	{"sse2", SIMD_SSE2, false},
	{"off", SIMD_OFF, false},
	{NULL, 0, false}
};

/*
 * Defines the settings of fingerprinting.  ICU objects are opened on first
 * use, so loading the library stays cheap.
 */
void
SimhashFingerprintInit(void)
{
	DefineCustomBoolVariable("simhash.fast_path",
							 "Segments ASCII text without ICU.",
							 "The fast path gives the same fingerprints as ICU "
							 "(the regression tests compare them); turning it "
							 "off only makes simhash(text) slower.",
							 &simhash_fast_path,
							 true,
							 PGC_USERSET,
							 0,
							 NULL, NULL, NULL);
	DefineCustomEnumVariable("simhash.simd",
							 "Chooses the SIMD code of the ASCII fast path.",
							 "auto uses the best the CPU has (AVX2, and AVX-512 "
							 "to hash words); avx2 leaves AVX-512 out; sse2 "
							 "forces SSE2; off runs the portable byte-at-a-time "
							 "code of other architectures.  The results are the "
							 "same (the regression tests compare them).",
							 &simhash_simd,
							 SIMD_AUTO,
							 simd_options,
							 PGC_USERSET,
							 0,
							 NULL, NULL, NULL);
}

/*
 * Returns s[0..len) in UTF-8, converted from the database encoding when
 * needed (then *outlen is the new length); the result may be s itself.
 */
static const char *
ToUtf8(const char *s, int len, int *outlen)
{
	int			enc = GetDatabaseEncoding();
	char	   *converted;

	*outlen = len;
	if (enc == PG_UTF8 || enc == PG_SQL_ASCII || len == 0)
		return s;
	converted = pg_server_to_any(s, len, PG_UTF8);
	if (converted != s)
		*outlen = strlen(converted);
	return converted;
}

/*
 * How much of a value stored in line PrefetchInlineValue asks the CPU to
 * fetch: all of one that PostgreSQL keeps in line uncompressed (under
 * about 2 kB), and the start of a longer one (the hardware's prefetcher
 * follows the first pass over it).
 */
#define PREFETCH_BYTES	4096

/*
 * Starts loading the bytes of document's value, if it is stored in line
 * (not a TOAST pointer), into the cache: the setup of the call (the
 * extractor, the tokenizer's state) then overlaps the wait for them, which
 * the first pass over the text would otherwise meet alone.
 */
static inline void
PrefetchInlineValue(const struct varlena *attr)
{
	if (!VARATT_IS_EXTERNAL(attr))
	{
		const char *p = (const char *) attr;
		Size		n = Min(VARSIZE_ANY(attr), PREFETCH_BYTES);

		for (Size q = 0; q < n; q += 64)
			__builtin_prefetch(p + q);
	}
}

/*
 * Feeds a document (a text datum, possibly toasted) to a new extractor and
 * returns the extractor.  A value as stored goes to stream.c where reading
 * it there costs less (SegmentStoredDocument: out of line, piece by piece
 * in bounded memory; compressed with pglz in its row); any other is
 * detoasted, which for an inline value or one already in memory costs at
 * most about 2 kB more or nothing.
 */
static FeatureExtractor *
ExtractDocument(Datum document, const FingerprintOptions *opts, bool introspect)
{
	struct varlena *attr = (struct varlena *) DatumGetPointer(document);
	FeatureExtractor *fx;

	PrefetchInlineValue(attr);
	/* the raw size (from the header or the TOAST pointer): a sizing hint */
	fx = FeatureExtractorCreate(opts, introspect, (int64) toast_raw_datum_size(document));

	if (!SegmentStoredDocument(attr, opts->numbers, fx))
	{
		text	   *t = DatumGetTextPP(document);
		int			len;
		const char *s = ToUtf8(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t), &len);

		SegmentDocument(s, len, opts->numbers, fx);
	}
	return fx;
}

/*
 * The options of a call of f(text) or f(text, features, n, weighting,
 * numbers, version): the defaults, or the ones given.
 */
static FingerprintOptions
OptionsOfCall(FunctionCallInfo fcinfo)
{
	FingerprintOptions opts;

	if (PG_NARGS() == 1)
		FingerprintOptionsDefault(&opts);
	else
		FingerprintOptionsParse(&opts, PG_GETARG_TEXT_PP(1), PG_GETARG_INT32(2),
								PG_GETARG_TEXT_PP(3), PG_GETARG_BOOL(4),
								/* SQL objects older than the library: 5 arguments */
								PG_NARGS() > 5 ? PG_GETARG_INT32(5) : 0);
	return opts;
}

/*
 * The memory simhash(text) works in: a document's buffers (its tokens,
 * bitmaps and lines, the detoasted text) come from a context the backend
 * keeps and resets after each call, whose first block (kept by a reset)
 * holds all of them for a short document, so that a call on one allocates
 * nothing from the C library and touches the same, cached, memory as the
 * call before.  The memory of a call that fails is freed when its
 * (sub)transaction aborts, or at the latest by the next call.
 */
#define SCRATCH_BLOCK_BYTES		(64 * 1024)

static MemoryContext scratch;

static void
ScratchAbortXact(XactEvent event, void *arg)
{
	if (event == XACT_EVENT_ABORT || event == XACT_EVENT_PARALLEL_ABORT)
		MemoryContextReset(scratch);
}

static void
ScratchAbortSubXact(SubXactEvent event, SubTransactionId subid,
					SubTransactionId parentsubid, void *arg)
{
	if (event == SUBXACT_EVENT_ABORT_SUB)
		MemoryContextReset(scratch);
}

static MemoryContext
FingerprintScratch(void)
{
	if (scratch == NULL)
	{
		scratch = AllocSetContextCreate(TopMemoryContext, "simhash fingerprint",
										0, SCRATCH_BLOCK_BYTES, ALLOCSET_DEFAULT_MAXSIZE);
		RegisterXactCallback(ScratchAbortXact, NULL);
		RegisterSubXactCallback(ScratchAbortSubXact, NULL);
	}
	else
		MemoryContextReset(scratch);
	return scratch;
}

/*
 * simhash(text) and simhash(text, features, n, weighting, numbers) return
 * the fingerprint of the document under the call's options, or NULL when
 * it has no feature.
 */
static Datum
FingerprintDocument(FunctionCallInfo fcinfo)
{
	FingerprintOptions opts = OptionsOfCall(fcinfo);
	MemoryContext caller = MemoryContextSwitchTo(FingerprintScratch());
	FeatureExtractor *fx = ExtractDocument(PG_GETARG_DATUM(0), &opts, false);
	uint64		result;
	bool		found = FeatureExtractorResult(fx, &result);

	MemoryContextSwitchTo(caller);
	MemoryContextReset(scratch);
	if (!found)
		PG_RETURN_NULL();
	PG_RETURN_SIMHASH(result);
}

/* fingerprint.h: the same pipeline for UTF-8 text the caller holds */
bool
FingerprintUtf8(const char *utf8, size_t len, text *features, int32 n,
				text *weighting, bool numbers, uint64 *result)
{
	FingerprintOptions opts;
	FeatureExtractor *fx;

	if (features == NULL)
		FingerprintOptionsDefault(&opts);
	else
		FingerprintOptionsParse(&opts, features, n, weighting, numbers, 0);
	fx = FeatureExtractorCreate(&opts, false, (int64) len);
	SegmentDocument(utf8, len, opts.numbers, fx);
	return FeatureExtractorResult(fx, result);
}

PG_FUNCTION_INFO_V1(simhash_text);
Datum
simhash_text(PG_FUNCTION_ARGS)
{
	return FingerprintDocument(fcinfo);
}

PG_FUNCTION_INFO_V1(simhash_text_options);
Datum
simhash_text_options(PG_FUNCTION_ARGS)
{
	return FingerprintDocument(fcinfo);
}

/*
 * simhash_features(text [, options]) returns the rows (feature,
 * occurrences, weight, hash) of the distinct features of the document
 * under the call's options, in order of first occurrence.
 */
static Datum
FeaturesOfDocument(FunctionCallInfo fcinfo)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	FingerprintOptions opts = OptionsOfCall(fcinfo);
	FeatureExtractor *fx;
	FeatureStat *stats;
	int64		n;
	bool		convert = GetDatabaseEncoding() != PG_UTF8 &&
		GetDatabaseEncoding() != PG_SQL_ASCII;

	InitMaterializedSRF(fcinfo, 0);
	fx = ExtractDocument(PG_GETARG_DATUM(0), &opts, true);
	stats = FeatureExtractorStats(fx, &n);
	for (int64 i = 0; i < n; i++)
	{
		Datum		values[4];
		bool		nulls[4] = {false, false, false, false};
		char	   *f = stats[i].text;
		int			flen = stats[i].textlen;

		if (convert)
		{
			f = pg_any_to_server(f, flen, PG_UTF8);
			flen = strlen(f);
		}
		values[0] = PointerGetDatum(cstring_to_text_with_len(f, flen));
		values[1] = Int64GetDatum(stats[i].count);
		values[2] = Float8GetDatum(stats[i].weight);
		values[3] = SimhashGetDatum(stats[i].hash);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}

PG_FUNCTION_INFO_V1(simhash_features);
Datum
simhash_features(PG_FUNCTION_ARGS)
{
	return FeaturesOfDocument(fcinfo);
}

PG_FUNCTION_INFO_V1(simhash_features_options);
Datum
simhash_features_options(PG_FUNCTION_ARGS)
{
	return FeaturesOfDocument(fcinfo);
}

/* XXH3-64 of a feature given as text, in UTF-8. */
static uint64
HashFeature(text *feature)
{
	int			len;
	const char *s = ToUtf8(VARDATA_ANY(feature), VARSIZE_ANY_EXHDR(feature), &len);

	return XXH3_64bits(s, len);
}

/*
 * simhash(text[]): every element is a feature of weight 1 (repeat an
 * element to weigh it more); NULL elements are skipped.  NULL when no
 * feature remains.
 */
PG_FUNCTION_INFO_V1(simhash_text_array);
Datum
simhash_text_array(PG_FUNCTION_ARGS)
{
	ArrayType  *features = PG_GETARG_ARRAYTYPE_P(0);
	Datum	   *elems;
	bool	   *nulls;
	int			n;
	LaneCounter lanes;
	uint64		result;

	deconstruct_array(features, TEXTOID, -1, false, TYPALIGN_INT, &elems, &nulls, &n);
	LaneCounterInit(&lanes);
	for (int i = 0; i < n; i++)
		if (!nulls[i])
			LaneCounterAdd(&lanes, HashFeature(DatumGetTextPP(elems[i])));
	if (!LaneCounterResult(&lanes, &result))
		PG_RETURN_NULL();
	PG_RETURN_SIMHASH(result);
}

/*
 * simhash(text[], float8[]): features with weights, paired by position.
 * Pairs with a NULL are skipped; NULL when no non-zero weight remains.
 */
PG_FUNCTION_INFO_V1(simhash_weighted_array);
Datum
simhash_weighted_array(PG_FUNCTION_ARGS)
{
	ArrayType  *features = PG_GETARG_ARRAYTYPE_P(0);
	ArrayType  *weights = PG_GETARG_ARRAYTYPE_P(1);
	Datum	   *felems,
			   *welems;
	bool	   *fnulls,
			   *wnulls;
	int			nf,
				nw,
				npairs = 0;
	HashWeight *pairs;
	uint64		result;

	deconstruct_array(features, TEXTOID, -1, false, TYPALIGN_INT, &felems, &fnulls, &nf);
	deconstruct_array(weights, FLOAT8OID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE,
					  &welems, &wnulls, &nw);
	if (nf != nw)
		ereport(ERROR,
				(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				 errmsg("feature and weight arrays must have the same number of elements"),
				 errdetail("There are %d features and %d weights.", nf, nw)));
	pairs = palloc(sizeof(HashWeight) * Max(nf, 1));
	for (int i = 0; i < nf; i++)
	{
		if (fnulls[i] || wnulls[i])
			continue;
		pairs[npairs].hash = HashFeature(DatumGetTextPP(felems[i]));
		pairs[npairs].weight = DatumGetFloat8(welems[i]);
		CheckFeatureWeight(pairs[npairs].weight);
		npairs++;
	}
	if (!FingerprintWeightedPairs(pairs, npairs, &result))
		PG_RETURN_NULL();
	PG_RETURN_SIMHASH(result);
}

/*
 * simhash(bigint[]): every element is the 64-bit hash of a feature of
 * weight 1; NULL elements are skipped.
 */
PG_FUNCTION_INFO_V1(simhash_hash_array);
Datum
simhash_hash_array(PG_FUNCTION_ARGS)
{
	ArrayType  *hashes = PG_GETARG_ARRAYTYPE_P(0);
	Datum	   *elems;
	bool	   *nulls;
	int			n;
	LaneCounter lanes;
	uint64		result;

	deconstruct_array(hashes, INT8OID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE,
					  &elems, &nulls, &n);
	LaneCounterInit(&lanes);
	for (int i = 0; i < n; i++)
		if (!nulls[i])
			LaneCounterAdd(&lanes, (uint64) DatumGetInt64(elems[i]));
	if (!LaneCounterResult(&lanes, &result))
		PG_RETURN_NULL();
	PG_RETURN_SIMHASH(result);
}

/* State of simhash_agg: the (hash, weight) pairs seen, in the agg context. */
typedef struct SimhashAggState
{
	HashWeight *pairs;
	int64		npairs;
	int64		cap;
} SimhashAggState;

/*
 * simhash_agg(feature text, weight float8) transition: not STRICT, because
 * the state is internal and must be created on the first row; rows with a
 * NULL feature or weight are skipped.
 */
PG_FUNCTION_INFO_V1(simhash_agg_trans);
Datum
simhash_agg_trans(PG_FUNCTION_ARGS)
{
	MemoryContext aggcontext;
	SimhashAggState   *state;
	double		weight;

	if (!AggCheckCallContext(fcinfo, &aggcontext))
		elog(ERROR, "simhash_agg_trans called in non-aggregate context");
	state = PG_ARGISNULL(0) ? NULL : (SimhashAggState *) PG_GETARG_POINTER(0);
	if (state == NULL)
	{
		state = MemoryContextAlloc(aggcontext, sizeof(SimhashAggState));
		state->cap = 64;
		state->npairs = 0;
		state->pairs = MemoryContextAlloc(aggcontext, sizeof(HashWeight) * state->cap);
	}
	if (PG_ARGISNULL(1) || PG_ARGISNULL(2))
		PG_RETURN_POINTER(state);
	weight = PG_GETARG_FLOAT8(2);
	CheckFeatureWeight(weight);
	if (state->npairs == state->cap)
	{
		state->cap *= 2;
		state->pairs = repalloc_huge(state->pairs, sizeof(HashWeight) * state->cap);
	}
	state->pairs[state->npairs].hash = HashFeature(PG_GETARG_TEXT_PP(1));
	state->pairs[state->npairs].weight = weight;
	state->npairs++;
	PG_RETURN_POINTER(state);
}

/*
 * simhash_agg final function: the fingerprint of the pairs (sorted first,
 * so independent of row order), or NULL when no non-zero weight was seen.
 */
PG_FUNCTION_INFO_V1(simhash_agg_final);
Datum
simhash_agg_final(PG_FUNCTION_ARGS)
{
	SimhashAggState   *state = PG_ARGISNULL(0) ? NULL : (SimhashAggState *) PG_GETARG_POINTER(0);
	uint64		result;

	if (state == NULL || !FingerprintWeightedPairs(state->pairs, state->npairs, &result))
		PG_RETURN_NULL();
	PG_RETURN_SIMHASH(result);
}

/*
 * simhash_agg_combine: merges two partial states (parallel aggregation).
 * Not STRICT: either state may be NULL when a worker saw no rows; the
 * result lives in the aggregate context.
 */
PG_FUNCTION_INFO_V1(simhash_agg_combine);
Datum
simhash_agg_combine(PG_FUNCTION_ARGS)
{
	MemoryContext aggcontext;
	SimhashAggState *a = PG_ARGISNULL(0) ? NULL : (SimhashAggState *) PG_GETARG_POINTER(0);
	SimhashAggState *b = PG_ARGISNULL(1) ? NULL : (SimhashAggState *) PG_GETARG_POINTER(1);

	if (!AggCheckCallContext(fcinfo, &aggcontext))
		elog(ERROR, "simhash_agg_combine called in non-aggregate context");
	if (b == NULL)
	{
		if (a == NULL)
			PG_RETURN_NULL();
		PG_RETURN_POINTER(a);
	}
	if (a == NULL)
	{
		a = MemoryContextAlloc(aggcontext, sizeof(SimhashAggState));
		a->cap = Max(b->npairs, 64);
		a->npairs = 0;
		a->pairs = MemoryContextAllocHuge(aggcontext, sizeof(HashWeight) * a->cap);
	}
	if (a->npairs + b->npairs > a->cap)
	{
		a->cap = Max(2 * a->cap, a->npairs + b->npairs);
		a->pairs = repalloc_huge(a->pairs, sizeof(HashWeight) * a->cap);
	}
	memcpy(a->pairs + a->npairs, b->pairs, sizeof(HashWeight) * b->npairs);
	a->npairs += b->npairs;
	PG_RETURN_POINTER(a);
}

/* simhash_agg_serialize: a state as bytea (count, then the pairs). */
PG_FUNCTION_INFO_V1(simhash_agg_serialize);
Datum
simhash_agg_serialize(PG_FUNCTION_ARGS)
{
	SimhashAggState *state = (SimhashAggState *) PG_GETARG_POINTER(0);
	StringInfoData buf;

	pq_begintypsend(&buf);
	pq_sendint64(&buf, state->npairs);
	for (int64 i = 0; i < state->npairs; i++)
	{
		pq_sendint64(&buf, (int64) state->pairs[i].hash);
		pq_sendfloat8(&buf, state->pairs[i].weight);
	}
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

/* simhash_agg_deserialize: the inverse of simhash_agg_serialize. */
PG_FUNCTION_INFO_V1(simhash_agg_deserialize);
Datum
simhash_agg_deserialize(PG_FUNCTION_ARGS)
{
	bytea	   *data = PG_GETARG_BYTEA_PP(0);
	MemoryContext aggcontext;
	SimhashAggState *state;
	StringInfoData buf;

	if (!AggCheckCallContext(fcinfo, &aggcontext))
		elog(ERROR, "simhash_agg_deserialize called in non-aggregate context");
	initStringInfo(&buf);
	appendBinaryStringInfo(&buf, VARDATA_ANY(data), VARSIZE_ANY_EXHDR(data));
	state = MemoryContextAlloc(aggcontext, sizeof(SimhashAggState));
	state->npairs = pq_getmsgint64(&buf);
	state->cap = Max(state->npairs, 64);
	state->pairs = MemoryContextAllocHuge(aggcontext, sizeof(HashWeight) * state->cap);
	for (int64 i = 0; i < state->npairs; i++)
	{
		state->pairs[i].hash = (uint64) pq_getmsgint64(&buf);
		state->pairs[i].weight = pq_getmsgfloat8(&buf);
	}
	pq_getmsgend(&buf);
	PG_RETURN_POINTER(state);
}

/*
 * simhash_algorithm_version() names what the fingerprints of simhash(text)
 * depend on: the algorithm version and the major version of the ICU library
 * loaded (its Unicode data and dictionaries).
 */
PG_FUNCTION_INFO_V1(simhash_algorithm_version);
Datum
simhash_algorithm_version(PG_FUNCTION_ARGS)
{
	PG_RETURN_TEXT_P(cstring_to_text(psprintf("simhash-%d/icu%d",
											  SIMHASH_ALGORITHM_VERSION,
											  IcuMajorVersion())));
}
