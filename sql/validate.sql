-- First test: create the extension; every opclass and opfamily it owns must
-- pass amvalidate, and every object it owns must carry a comment.
CREATE EXTENSION simhash;

SELECT opc.opcname, am.amname, amvalidate(opc.oid) AS valid
  FROM pg_opclass opc JOIN pg_am am ON am.oid = opc.opcmethod
 WHERE opc.oid IN (SELECT objid FROM pg_depend
                    WHERE classid = 'pg_opclass'::regclass AND deptype = 'e'
                      AND refobjid = (SELECT oid FROM pg_extension WHERE extname = 'simhash'))
 ORDER BY 1, 2;

-- Objects of the extension without a COMMENT (expect none).  Support
-- objects that cannot carry a useful comment of their own are left out:
-- opfamilies and opclasses are described by their operators.
SELECT pg_describe_object(d.classid, d.objid, 0) AS uncommented
  FROM pg_depend d
 WHERE d.refclassid = 'pg_extension'::regclass
   AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'simhash')
   AND d.deptype = 'e'
   AND d.classid NOT IN ('pg_opclass'::regclass, 'pg_opfamily'::regclass)
   AND obj_description(d.objid, d.classid::regclass::text) IS NULL
   -- array types, members of the extension on PostgreSQL 18
   AND NOT EXISTS (SELECT 1 FROM pg_type t WHERE d.classid = 'pg_type'::regclass
                      AND t.oid = d.objid AND t.typcategory = 'A')
 ORDER BY 1;

-- The loaded library and the installed SQL agree on the version.
SELECT simhash_version() = extversion AS version_matches
  FROM pg_extension WHERE extname = 'simhash';

-- Functions are honestly marked: all IMMUTABLE, STRICT and PARALLEL SAFE.
-- Left out: functions the server calls with "internal" arguments (the index
-- access method's handler, the planner's selectivity estimator, type and
-- sort support, aggregate transition and combine functions), whose markings
-- mean nothing to SQL; and aggregates, which have no strictness of their own
-- (their transition function decides; see the next query).  Listed: the
-- functions that are honestly not IMMUTABLE (simhash_index_check reads the
-- current state of an index and its table).
SELECT p.oid::regprocedure AS not_immutable_strict_safe,
       p.provolatile AS volatility, p.proisstrict AS strict, p.proparallel AS parallel
  FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.classid = 'pg_proc'::regclass
 WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'simhash')
   AND (p.provolatile <> 'i' OR NOT p.proisstrict OR p.proparallel <> 's')
   AND p.prokind <> 'a'
   AND NOT 'internal'::regtype = ANY (p.proargtypes::regtype[] || p.prorettype::regtype)
 ORDER BY 1;

-- The aggregates: an aggregate's transition function whose state is
-- internal cannot be STRICT (PostgreSQL would have to start the state from
-- the first input value, which is not of the state's type), so it creates
-- the state itself and skips NULL inputs; the same goes for a combine
-- function of internal states (a parallel worker that saw no rows has none).
SELECT a.aggfnoid::regprocedure AS aggregate, a.aggtransfn::regprocedure AS transition,
       p.proisstrict AS strict, a.aggcombinefn::regprocedure AS combine,
       c.proisstrict AS combine_strict
  FROM pg_aggregate a JOIN pg_proc p ON p.oid = a.aggtransfn
  JOIN pg_proc c ON c.oid = a.aggcombinefn
  JOIN pg_depend d ON d.objid = a.aggfnoid AND d.classid = 'pg_proc'::regclass
 WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'simhash')
 ORDER BY 1;
