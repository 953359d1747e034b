/*
 * type/io.c
 *	  Text and binary I/O of the simhash type, and its casts to and from
 *	  bit(64).  (Casts to and from bigint need no code: the representations
 *	  are identical, so they are declared WITHOUT FUNCTION.)
 *
 * Accepted text input, after optional leading and trailing white space:
 *	  - 16 hexadecimal digits, either case, optionally prefixed by 0x or 0X;
 *	  - 64 binary digits, optionally prefixed by 0b or 0B.
 * Output is always 16 lowercase hexadecimal digits.
 *
 * simhash('...') with a quoted literal reaches simhash_in, not simhash(text):
 * PostgreSQL reads typename('literal') as a cast.  So the error for input
 * that is not a fingerprint shows only a short prefix of it (it may be a
 * whole document) and hints at the spelling the user meant: text for a
 * document, numeric for a decimal number.  Why simhash(unknown) is not
 * declared to catch these calls: doc/reference.md, "Text literals".
 */
#include "type/simhash.h"

#include "libpq/pqformat.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"
#include "utils/varbit.h"

#define SIMHASH_HEX_DIGITS	(SIMHASH_BITS / 4)

/* The most characters of a rejected input that an error message shows. */
#define SHOWN_CHARS 24

/*
 * str cut to SHOWN_CHARS characters (never inside a multibyte character),
 * with "..." when it was longer: what error messages quote of an input.
 */
char *
SimhashShortText(const char *str)
{
	int			len = strlen(str);
	int			cut = pg_mbcharcliplen(str, len, SHOWN_CHARS);

	if (cut < len)
		return psprintf("%.*s...", cut, str);
	return pstrdup(str);
}

static inline bool
IsSpace(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static inline int
HexDigitValue(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * True when [start, end) holds a character that no fingerprint spelling
 * uses: the input was probably meant as a document.  (PostgreSQL reads
 * simhash('literal') as a cast of the literal to the type simhash, not as a
 * call of simhash(text).)
 */
static bool
LooksLikeProse(const char *start, const char *end)
{
	for (const char *p = start; p < end; p++)
	{
		unsigned char c = (unsigned char) *p;

		if (IsSpace(c) || c >= 0x80 ||
			(((c | 0x20) >= 'g' && (c | 0x20) <= 'z') && (c | 0x20) != 'x'))
			return true;
	}
	return false;
}

/* True when [start, end) is a decimal number that is no fingerprint spelling. */
static bool
LooksLikeDecimal(const char *start, const char *end)
{
	if (end - start == SIMHASH_HEX_DIGITS || start == end)
		return false;
	for (const char *p = start; p < end; p++)
		if (*p < '0' || *p > '9')
			return false;
	return true;
}

static inline bool
HasPrefix(const char *start, size_t len, char lower)
{
	return len >= 2 && start[0] == '0' && (start[1] == lower || start[1] == lower - 'a' + 'A');
}

/*
 * Parses [start, end) as a fingerprint.  Returns false unless it is exactly
 * 16 hex digits, 0x and 16 hex digits, 64 binary digits, or 0b and 64 binary
 * digits.  The length decides the form, so "0b12..." of length 16 is hex.
 */
static bool
ParseSimhash(const char *start, const char *end, uint64 *result)
{
	size_t		len = end - start;
	uint64		value = 0;

	if (len == SIMHASH_HEX_DIGITS + 2 && HasPrefix(start, len, 'x'))
		start += 2;
	else if (len == SIMHASH_BITS + 2 && HasPrefix(start, len, 'b'))
		start += 2;
	else if (len != SIMHASH_HEX_DIGITS && len != SIMHASH_BITS)
		return false;

	if (end - start == SIMHASH_HEX_DIGITS)
	{
		for (const char *p = start; p < end; p++)
		{
			int			digit = HexDigitValue(*p);

			if (digit < 0)
				return false;
			value = (value << 4) | (uint64) digit;
		}
	}
	else
	{
		for (const char *p = start; p < end; p++)
		{
			if (*p != '0' && *p != '1')
				return false;
			value = (value << 1) | (uint64) (*p - '0');
		}
	}

	*result = value;
	return true;
}

PG_FUNCTION_INFO_V1(simhash_in);
Datum
simhash_in(PG_FUNCTION_ARGS)
{
	const char *str = PG_GETARG_CSTRING(0);
	const char *start = str;
	const char *end = str + strlen(str);
	uint64		value;

	while (start < end && IsSpace(*start))
		start++;
	while (end > start && IsSpace(end[-1]))
		end--;

	if (!ParseSimhash(start, end, &value))
		SIMHASH_INPUT_ERROR(fcinfo,
							(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
							 errmsg("invalid input syntax for type %s: \"%s\"",
									"simhash", SimhashShortText(str)),
							 errdetail("A simhash is written as 16 hexadecimal digits, optionally prefixed by 0x, or as 64 binary digits, optionally prefixed by 0b."),
							 LooksLikeProse(start, end) ?
							 errhint("simhash('...') is a cast of the literal to the type simhash; to fingerprint text, write simhash('...'::text).") :
							 LooksLikeDecimal(start, end) ?
							 errhint("Decimal numbers are read through numeric: '...'::numeric::simhash, or a parameter cast $1::numeric.") : 0));

	PG_RETURN_SIMHASH(value);
}

PG_FUNCTION_INFO_V1(simhash_out);
Datum
simhash_out(PG_FUNCTION_ARGS)
{
	static const char hexdigits[] = "0123456789abcdef";
	uint64		value = PG_GETARG_SIMHASH(0);
	char	   *result = palloc(SIMHASH_HEX_DIGITS + 1);

	for (int i = SIMHASH_HEX_DIGITS - 1; i >= 0; i--)
	{
		result[i] = hexdigits[value & 0xF];
		value >>= 4;
	}
	result[SIMHASH_HEX_DIGITS] = '\0';
	PG_RETURN_CSTRING(result);
}

/* Binary form: 8 bytes, network byte order (as int8). */
PG_FUNCTION_INFO_V1(simhash_recv);
Datum
simhash_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);

	PG_RETURN_SIMHASH((uint64) pq_getmsgint64(buf));
}

PG_FUNCTION_INFO_V1(simhash_send);
Datum
simhash_send(PG_FUNCTION_ARGS)
{
	uint64		value = PG_GETARG_SIMHASH(0);
	StringInfoData buf;

	pq_begintypsend(&buf);
	pq_sendint64(&buf, (int64) value);
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

/*
 * simhash_to_bit(simhash) returns bit(64), most significant bit first, so
 * that the bit string reads like the binary text form.
 */
PG_FUNCTION_INFO_V1(simhash_to_bit);
Datum
simhash_to_bit(PG_FUNCTION_ARGS)
{
	uint64		value = PG_GETARG_SIMHASH(0);
	int			len = VARBITTOTALLEN(SIMHASH_BITS);
	VarBit	   *result = (VarBit *) palloc0(len);
	bits8	   *out = VARBITS(result);

	SET_VARSIZE(result, len);
	VARBITLEN(result) = SIMHASH_BITS;
	for (int i = 0; i < SIMHASH_BITS / 8; i++)
		out[i] = (bits8) (value >> (SIMHASH_BITS - 8 * (i + 1)));
	PG_RETURN_VARBIT_P(result);
}

/* bit_to_simhash(bit) accepts exactly 64 bits. */
PG_FUNCTION_INFO_V1(bit_to_simhash);
Datum
bit_to_simhash(PG_FUNCTION_ARGS)
{
	VarBit	   *bits = PG_GETARG_VARBIT_P(0);
	bits8	   *in = VARBITS(bits);
	uint64		value = 0;

	if (VARBITLEN(bits) != SIMHASH_BITS)
		ereport(ERROR,
				(errcode(ERRCODE_STRING_DATA_LENGTH_MISMATCH),
				 errmsg("bit string length %d does not match type simhash",
						VARBITLEN(bits)),
				 errdetail("A simhash has exactly %d bits.", SIMHASH_BITS)));

	for (int i = 0; i < SIMHASH_BITS / 8; i++)
		value = (value << 8) | in[i];
	PG_RETURN_SIMHASH(value);
}
