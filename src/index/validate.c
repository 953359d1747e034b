/*
 * index/validate.c
 *	  amvalidate for simhash indexes: checks that an operator class has
 *	  exactly the operators the access method understands, with the right
 *	  signatures and purposes, and the support functions of its kind.
 *
 * Three kinds of operator class: a fingerprint class (simhash: <@, = and
 * the ORDER BY operator <->#, no function), a ball class (simhash_ball:
 * <@> only, no function) and a scope class (any type: = only, and function
 * 1, the type's extended hash).  A class with function 1 is a scope class;
 * one for a type named simhash_ball is a ball class.
 */
#include "index/shindex.h"

#include "access/amvalidate.h"
#include "access/htup_details.h"
#include "catalog/pg_amop.h"
#include "catalog/pg_amproc.h"
#include "catalog/pg_am.h"
#include "catalog/pg_opclass.h"
#include "catalog/pg_opfamily.h"
#include "catalog/pg_type.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/regproc.h"
#include "utils/syscache.h"

#define Complain(...) \
	ereport(INFO, (errcode(ERRCODE_INVALID_OBJECT_DEFINITION), errmsg(__VA_ARGS__)))

/* The access method of an operator family, or InvalidOid. */
static Oid
OpfamilyMethod(Oid opfamily)
{
	HeapTuple	tup = SearchSysCache1(OPFAMILYOID, ObjectIdGetDatum(opfamily));
	Oid			method;

	if (!HeapTupleIsValid(tup))
		return InvalidOid;
	method = ((Form_pg_opfamily) GETSTRUCT(tup))->opfmethod;
	ReleaseSysCache(tup);
	return method;
}

/* The schema of a type. */
static Oid
TypeNamespace(Oid typid)
{
	HeapTuple	tup = SearchSysCache1(TYPEOID, ObjectIdGetDatum(typid));
	Oid			nsp;

	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for type %u", typid);
	nsp = ((Form_pg_type) GETSTRUCT(tup))->typnamespace;
	ReleaseSysCache(tup);
	return nsp;
}

typedef enum ShClassKind
{
	SH_CLASS_FINGERPRINT,
	SH_CLASS_BALL,
	SH_CLASS_SCOPE
} ShClassKind;

/* The strategies each kind of class has, all of them required. */
static bool
StrategyOfKind(int strategy, ShClassKind kind)
{
	switch (kind)
	{
		case SH_CLASS_FINGERPRINT:
			return strategy == SH_WITHIN_STRATEGY || strategy == SH_EQUAL_STRATEGY ||
				strategy == SH_DISTANCE_STRATEGY;
		case SH_CLASS_BALL:
			return strategy == SH_NEAR_STRATEGY;
		case SH_CLASS_SCOPE:
			return strategy == SH_SCOPE_STRATEGY;
	}
	return false;
}

/*
 * Checks one operator of the family: a known strategy, the signature and
 * purpose that strategy needs.  Reports each problem as an INFO message and
 * returns false if there was one; marks a known strategy in seen.
 */
static bool
CheckOperator(Form_pg_amop oprform, const char *opfamilyname, Oid opcintype,
			  Oid balltype, ShClassKind kind, bool *seen)
{
	bool		result = true;
	int			strategy = oprform->amopstrategy;
	Oid			restype;
	Oid			righttype;
	bool		ordering;

	if (!StrategyOfKind(strategy, kind))
		strategy = 0;
	switch (strategy)
	{
		case SH_WITHIN_STRATEGY:
			restype = BOOLOID;
			righttype = balltype;
			ordering = false;
			break;
		case SH_EQUAL_STRATEGY:		/* also SH_SCOPE_STRATEGY */
		case SH_NEAR_STRATEGY:
			restype = BOOLOID;
			righttype = opcintype;
			ordering = false;
			break;
		case SH_DISTANCE_STRATEGY:
			restype = INT4OID;
			righttype = opcintype;
			ordering = true;
			break;
		default:
			Complain("simhash opfamily %s contains operator %s with invalid strategy number %d",
					 opfamilyname, format_operator(oprform->amopopr), oprform->amopstrategy);
			return false;
	}

	if (oprform->amoplefttype != opcintype || oprform->amoprighttype != righttype ||
		!check_amop_signature(oprform->amopopr, restype,
							  oprform->amoplefttype, oprform->amoprighttype))
	{
		Complain("simhash opfamily %s contains operator %s with wrong signature for strategy %d",
				 opfamilyname, format_operator(oprform->amopopr), strategy);
		result = false;
	}

	if (ordering)
	{
		if (oprform->amoppurpose != AMOP_ORDER ||
			!OidIsValid(oprform->amopsortfamily) ||
			OpfamilyMethod(oprform->amopsortfamily) != BTREE_AM_OID)
		{
			Complain("simhash opfamily %s must list operator %s FOR ORDER BY a btree operator family",
					 opfamilyname, format_operator(oprform->amopopr));
			result = false;
		}
	}
	else if (oprform->amoppurpose != AMOP_SEARCH)
	{
		Complain("simhash opfamily %s contains invalid ORDER BY specification for operator %s",
				 opfamilyname, format_operator(oprform->amopopr));
		result = false;
	}
	seen[strategy] = true;
	return result;
}

/*
 * Returns true when the operator class is usable by the simhash access
 * method; reports each problem as an INFO message, as core validators do.
 */
bool
shvalidate(Oid opclassoid)
{
	bool		result = true;
	HeapTuple	classtup;
	Form_pg_opclass classform;
	HeapTuple	familytup;
	char	   *opclassname;
	char	   *opfamilyname;
	Oid			opcintype;
	Oid			balltype;
	CatCList   *oprlist;
	CatCList   *proclist;
	bool		seen[SH_NSTRATEGIES + 1] = {false};
	ShClassKind kind;

	classtup = SearchSysCache1(CLAOID, ObjectIdGetDatum(opclassoid));
	if (!HeapTupleIsValid(classtup))
		elog(ERROR, "cache lookup failed for operator class %u", opclassoid);
	classform = (Form_pg_opclass) GETSTRUCT(classtup);
	opcintype = classform->opcintype;
	opclassname = NameStr(classform->opcname);

	familytup = SearchSysCache1(OPFAMILYOID, ObjectIdGetDatum(classform->opcfamily));
	if (!HeapTupleIsValid(familytup))
		elog(ERROR, "cache lookup failed for operator family %u", classform->opcfamily);
	opfamilyname = NameStr(((Form_pg_opfamily) GETSTRUCT(familytup))->opfname);

	oprlist = SearchSysCacheList1(AMOPSTRATEGY, ObjectIdGetDatum(classform->opcfamily));
	proclist = SearchSysCacheList1(AMPROCNUM, ObjectIdGetDatum(classform->opcfamily));

	/* The ball type lives beside the fingerprint type. */
	balltype = GetSysCacheOid2(TYPENAMENSP, Anum_pg_type_oid,
							   CStringGetDatum("simhash_ball"),
							   ObjectIdGetDatum(TypeNamespace(opcintype)));
	kind = balltype == opcintype ? SH_CLASS_BALL : SH_CLASS_FINGERPRINT;
	for (int i = 0; i < proclist->n_members; i++)
	{
		Form_pg_amproc procform = (Form_pg_amproc) GETSTRUCT(&proclist->members[i]->tuple);

		if (procform->amprocnum == SH_SCOPE_HASH_PROC)
			kind = SH_CLASS_SCOPE;
	}
	if (kind == SH_CLASS_FINGERPRINT && !OidIsValid(balltype))
	{
		Complain("simhash opclass %s indexes type %s, which has no simhash_ball type beside it",
				 opclassname, format_type_be(opcintype));
		result = false;
	}

	for (int i = 0; i < proclist->n_members; i++)
	{
		Form_pg_amproc procform = (Form_pg_amproc) GETSTRUCT(&proclist->members[i]->tuple);

		if (kind != SH_CLASS_SCOPE || procform->amprocnum != SH_SCOPE_HASH_PROC)
		{
			Complain("simhash opfamily %s contains function %s with support number %d, but only scope classes have one, number %d",
					 opfamilyname, format_procedure(procform->amproc), procform->amprocnum,
					 SH_SCOPE_HASH_PROC);
			result = false;
		}
		else if (!check_amproc_signature(procform->amproc, INT8OID, true, 2, 2,
										 opcintype, INT8OID))
		{
			Complain("simhash opfamily %s contains function %s with wrong signature for support number %d",
					 opfamilyname, format_procedure(procform->amproc), procform->amprocnum);
			result = false;
		}
	}

	for (int i = 0; i < oprlist->n_members; i++)
	{
		Form_pg_amop oprform = (Form_pg_amop) GETSTRUCT(&oprlist->members[i]->tuple);

		if (!CheckOperator(oprform, opfamilyname, opcintype, balltype, kind, seen))
			result = false;
	}

	for (int s = 1; s <= SH_NSTRATEGIES; s++)
	{
		if (StrategyOfKind(s, kind) && !seen[s])
		{
			Complain("simhash opclass %s is missing the operator of strategy %d",
					 opclassname, s);
			result = false;
		}
	}

	ReleaseCatCacheList(proclist);
	ReleaseCatCacheList(oprlist);
	ReleaseSysCache(familytup);
	ReleaseSysCache(classtup);
	return result;
}
