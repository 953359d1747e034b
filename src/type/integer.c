/*
 * type/integer.c
 *	  Casts between simhash and the SQL integer types other than bigint:
 *	  numeric (the unsigned value of the 64 bits, 0 .. 2^64-1, both ways)
 *	  and integer / smallint (widened like bigint, so negative values keep
 *	  their two's complement bits).  The bigint casts need no code (see
 *	  io.c).
 *
 * numeric -> simhash accepts exactly the integers 0 .. 2^64-1: it never
 * rounds (a rounded fingerprint is another fingerprint), and NaN, infinities,
 * negative values and values >= 2^64 are errors.
 */
#include "type/simhash.h"

#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/numeric.h"

/* 0, 2^63 and 2^64 as numeric, made once per backend. */
static Numeric zero;
static Numeric two63;
static Numeric two64;

static void
MakeConstants(void)
{
	MemoryContext old;

	if (two64 != NULL)
		return;
	old = MemoryContextSwitchTo(TopMemoryContext);
	zero = DatumGetNumeric(DirectFunctionCall1(int8_numeric, Int64GetDatum(0)));
	two63 = DatumGetNumeric(DirectFunctionCall3(numeric_in,
												CStringGetDatum("9223372036854775808"),
												ObjectIdGetDatum(InvalidOid),
												Int32GetDatum(-1)));
	two64 = DatumGetNumeric(DirectFunctionCall3(numeric_in,
												CStringGetDatum("18446744073709551616"),
												ObjectIdGetDatum(InvalidOid),
												Int32GetDatum(-1)));
	MemoryContextSwitchTo(old);
}

static int
NumericCompare(Numeric a, Numeric b)
{
	return DatumGetInt32(DirectFunctionCall2(numeric_cmp,
											 NumericGetDatum(a),
											 NumericGetDatum(b)));
}

/* int64_to_numeric() arrived in PostgreSQL 14; the SQL cast is older. */
static Numeric
Int64ToNumeric(int64 value)
{
	return DatumGetNumeric(DirectFunctionCall1(int8_numeric, Int64GetDatum(value)));
}

/* The value as text, as error messages show it (cut as io.c cuts input). */
static char *
ShortText(Numeric num)
{
	return SimhashShortText(DatumGetCString(DirectFunctionCall1(numeric_out,
																NumericGetDatum(num))));
}

static void
ReportOutOfRange(Numeric num)
{
	ereport(ERROR,
			(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
			 errmsg("numeric value %s is out of range for type simhash",
					ShortText(num)),
			 errdetail("A numeric is read as the unsigned value of the 64 bits, 0 to 18446744073709551615."),
			 errhint("Cast a signed 64-bit value through bigint: value::bigint::simhash.")));
}

PG_FUNCTION_INFO_V1(numeric_to_simhash);
Datum
numeric_to_simhash(PG_FUNCTION_ARGS)
{
	Numeric		num = PG_GETARG_NUMERIC(0);
	Numeric		truncated;

	MakeConstants();

	if (numeric_is_nan(num))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot convert NaN to simhash")));
	/* (-Infinity and Infinity, PostgreSQL 14 and later, compare out too.) */
	if (NumericCompare(num, zero) < 0 || NumericCompare(num, two64) >= 0)
		ReportOutOfRange(num);

	truncated = DatumGetNumeric(DirectFunctionCall2(numeric_trunc,
													NumericGetDatum(num),
													Int32GetDatum(0)));
	if (NumericCompare(num, truncated) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("numeric value %s is not an integer, so not a simhash",
						ShortText(num)),
				 errdetail("A simhash is never rounded: a rounded fingerprint is a different fingerprint.")));

	/* The top half, 2^63 .. 2^64-1, is the negative int64 with the same bits. */
	if (NumericCompare(num, two63) >= 0)
		num = DatumGetNumeric(DirectFunctionCall2(numeric_sub,
												  NumericGetDatum(num),
												  NumericGetDatum(two64)));
	PG_RETURN_SIMHASH((uint64) DatumGetInt64(DirectFunctionCall1(numeric_int8,
																 NumericGetDatum(num))));
}

PG_FUNCTION_INFO_V1(simhash_to_numeric);
Datum
simhash_to_numeric(PG_FUNCTION_ARGS)
{
	uint64		value = PG_GETARG_SIMHASH(0);
	Numeric		result = Int64ToNumeric((int64) value);

	if ((int64) value < 0)
	{
		MakeConstants();
		result = DatumGetNumeric(DirectFunctionCall2(numeric_add,
													 NumericGetDatum(result),
													 NumericGetDatum(two64)));
	}
	PG_RETURN_NUMERIC(result);
}

/* integer and smallint widen as bigint does: -1 is ffffffffffffffff. */
PG_FUNCTION_INFO_V1(int4_to_simhash);
Datum
int4_to_simhash(PG_FUNCTION_ARGS)
{
	PG_RETURN_SIMHASH((uint64) (int64) PG_GETARG_INT32(0));
}

PG_FUNCTION_INFO_V1(int2_to_simhash);
Datum
int2_to_simhash(PG_FUNCTION_ARGS)
{
	PG_RETURN_SIMHASH((uint64) (int64) PG_GETARG_INT16(0));
}
