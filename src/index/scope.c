/*
 * index/scope.c
 *	  What a simhash index stores for a row: the fingerprint column (simhash,
 *	  or simhash_ball, whose center is stored), and in a multi-column index
 *	  the leading "scope" columns, whose hash is folded into the value stored.
 *
 * SCOPES
 *
 * An index on (site_id, fp) answers "fp within r of q in site s" exactly.
 * Every column before the last is a scope column, compared with = only; its
 * operator class (simhash_int4_scope_ops and friends, src/install/) gives
 * its type's 64-bit extended hash as support function 1.  The index stores
 * fp XOR H(scope) in place of fp, H being a mix of the scope columns'
 * hashes (ShScopeMix).  Hamming distance does not change when both sides
 * are XORed with the same value, so a search of site s for q is a plain
 * search for q XOR H(s): the same probes of the same block tables, one per
 * block key, as in a single-column index, and the hash lands in every block
 * key.  A row of another site s' is found only when its fingerprint XOR
 * H(s) XOR H(s') lies within r of q, which for a 64-bit hash and small r
 * has a probability near 2^-50; the scan asks the executor to recheck the
 * row (the scope equality and the radius) so that even that is exact.
 * A single-column index has no scope columns, H = 0, and stores fp itself:
 * its on-disk format is unchanged.  A NULL scope hashes to a constant of
 * its own; = never matches it (strict), but the row stays in the index.
 */
#include "index/shindex.h"

#include "access/genam.h"
#include "utils/rel.h"

/* A bijective 64-bit mix (the splitmix64 finaliser constants). */
static inline uint64
Mix64(uint64 x)
{
	x ^= x >> 30;
	x *= UINT64CONST(0xbf58476d1ce4e5b9);
	x ^= x >> 27;
	x *= UINT64CONST(0x94d049bb133111eb);
	x ^= x >> 31;
	return x;
}

/* The hash of a NULL scope value. */
#define SH_SCOPE_NULL	UINT64CONST(0x6a09e667f3bcc909)

/*
 * Folds the value of scope column attno (1-based) into the scope hash h
 * (start from 0).  Part of the on-disk format of multi-column indexes.
 */
uint64
ShScopeMix(Relation index, uint64 h, int attno, Datum value, bool isnull)
{
	uint64		vh = SH_SCOPE_NULL;

	if (!isnull)
		vh = DatumGetUInt64(FunctionCall2Coll(index_getprocinfo(index, attno, SH_SCOPE_HASH_PROC),
											  index->rd_indcollation[attno - 1],
											  value, Int64GetDatum(0)));
	return Mix64(h ^ Mix64(vh + (uint64) attno));
}

/*
 * The 64-bit value an index row stores, in *key: the fingerprint (the
 * center of a ball) XOR the scope hash.  Returns false when the fingerprint
 * is NULL: such rows are not indexed (every operator is strict).
 */
bool
ShIndexKey(Relation index, Datum *values, bool *isnull, uint64 *key)
{
	int			fpcol = ShFingerprintColumn(index);
	uint64		h = 0;

	if (isnull[fpcol])
		return false;
	for (int i = 0; i < fpcol; i++)
		h = ShScopeMix(index, h, i + 1, values[i], isnull[i]);
	*key = ShColumnIsBall(index, fpcol) ?
		((SimhashBall *) DatumGetPointer(values[fpcol]))->center :
		DatumGetSimhash(values[fpcol]);
	*key ^= h;
	return true;
}

/*
 * Checks that the index's columns are some scope columns (operator classes
 * with a hash function) followed by one fingerprint column (simhash or
 * simhash_ball, no function); raises feature_not_supported otherwise.
 */
void
ShCheckColumns(Relation index)
{
	int			natts = RelationGetNumberOfAttributes(index);

	for (int i = 0; i < natts; i++)
	{
		bool		scope = OidIsValid(index_getprocid(index, i + 1, SH_SCOPE_HASH_PROC));

		if (i < natts - 1 && !scope)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("column %d of simhash index \"%s\" must be a scope column",
							i + 1, RelationGetRelationName(index)),
					 errdetail("Only the last column of a simhash index holds the fingerprint; the columns before it are compared with = (integer, bigint, text or uuid)."),
					 errhint("Put the simhash or simhash_ball column last.")));
		if (i == natts - 1 && scope)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("the last column of simhash index \"%s\" must be a simhash or simhash_ball",
							RelationGetRelationName(index)),
					 errhint("Index a fingerprint, as in (site_id, fp).")));
	}
}
