-- Every object of the simhash extension with its full definition, one line
-- each, sorted: what test/t/030_upgrade.pl compares between an upgraded
-- database and a fresh CREATE EXTENSION, and what test/t/051_doc_reference.pl
-- reads the names from.  OIDs differ between databases, so every reference
-- is printed by name (regproc, regtype, regoperator, ...).
WITH ext AS (
    SELECT oid FROM pg_extension WHERE extname = 'simhash'
), members AS (
    SELECT d.classid, d.objid, d.objsubid
      FROM pg_depend d, ext
     WHERE d.refclassid = 'pg_extension'::regclass AND d.refobjid = ext.oid
       AND d.deptype = 'e'
), lines AS (
    -- the extension itself
    SELECT 'extension' AS kind, e.extname::text AS name,
           format('version=%s relocatable=%s schema=%s config=%s condition=%s',
                  e.extversion, e.extrelocatable, e.extnamespace::regnamespace,
                  e.extconfig::regclass[], e.extcondition) AS detail
      FROM pg_extension e, ext WHERE e.oid = ext.oid
    UNION ALL
    -- functions and procedures: the whole definition, markings included
    SELECT 'function', p.oid::regprocedure::text,
           replace(pg_get_functiondef(p.oid), E'\n', ' ') || format(' acl=%s', p.proacl)
      FROM members m JOIN pg_proc p ON p.oid = m.objid
     WHERE m.classid = 'pg_proc'::regclass AND p.prokind <> 'a'
    UNION ALL
    SELECT 'aggregate', p.oid::regprocedure::text,
           format('returns=%s parallel=%s volatile=%s kind=%s trans=%s transtype=%s transspace=%s '
                  'final=%s finalextra=%s combine=%s serial=%s deserial=%s init=%s '
                  'mtrans=%s minvtrans=%s mfinal=%s sortop=%s acl=%s',
                  p.prorettype::regtype, p.proparallel, p.provolatile, a.aggkind,
                  a.aggtransfn::regprocedure, a.aggtranstype::regtype, a.aggtransspace,
                  a.aggfinalfn, a.aggfinalextra, a.aggcombinefn, a.aggserialfn,
                  a.aggdeserialfn, a.agginitval, a.aggmtransfn, a.aggminvtransfn,
                  a.aggmfinalfn, a.aggsortop::regoperator, p.proacl)
      FROM members m JOIN pg_proc p ON p.oid = m.objid JOIN pg_aggregate a ON a.aggfnoid = p.oid
     WHERE m.classid = 'pg_proc'::regclass
    UNION ALL
    -- types and domains (with their constraints)
    SELECT 'type', t.oid::regtype::text,
           format('type=%s len=%s byval=%s category=%s preferred=%s delim=%s in=%s out=%s '
                  'recv=%s send=%s modin=%s modout=%s analyze=%s align=%s storage=%s '
                  'notnull=%s base=%s typmod=%s ndims=%s collation=%s default=%s elem=%s '
                  'array=%s acl=%s constraints=%s',
                  t.typtype, t.typlen, t.typbyval, t.typcategory, t.typispreferred, t.typdelim,
                  t.typinput, t.typoutput, t.typreceive, t.typsend, t.typmodin, t.typmodout,
                  t.typanalyze, t.typalign, t.typstorage, t.typnotnull, t.typbasetype::regtype,
                  t.typtypmod, t.typndims, t.typcollation, t.typdefault, t.typelem::regtype,
                  t.typarray::regtype, t.typacl,
                  (SELECT string_agg(c.conname || ' ' || pg_get_constraintdef(c.oid), '; '
                                     ORDER BY c.conname)
                     FROM pg_constraint c WHERE c.contypid = t.oid))
      FROM members m JOIN pg_type t ON t.oid = m.objid
     WHERE m.classid = 'pg_type'::regclass
    UNION ALL
    SELECT 'operator', o.oid::regoperator::text,
           format('kind=%s result=%s code=%s commutator=%s negator=%s restrict=%s join=%s '
                  'merges=%s hashes=%s',
                  o.oprkind, o.oprresult::regtype, o.oprcode::regprocedure,
                  nullif(o.oprcom, 0)::regoperator, nullif(o.oprnegate, 0)::regoperator,
                  o.oprrest, o.oprjoin, o.oprcanmerge, o.oprcanhash)
      FROM members m JOIN pg_operator o ON o.oid = m.objid
     WHERE m.classid = 'pg_operator'::regclass
    UNION ALL
    SELECT 'opclass', pg_describe_object(m.classid, m.objid, 0),
           format('family=%s intype=%s default=%s keytype=%s',
                  pg_describe_object('pg_opfamily'::regclass, c.opcfamily, 0),
                  c.opcintype::regtype, c.opcdefault, nullif(c.opckeytype, 0)::regtype)
      FROM members m JOIN pg_opclass c ON c.oid = m.objid
     WHERE m.classid = 'pg_opclass'::regclass
    UNION ALL
    -- operator families with every operator and support function in them
    SELECT 'opfamily', pg_describe_object(m.classid, m.objid, 0),
           coalesce((SELECT string_agg(format('op %s(%s,%s) %s %s order-by=%s',
                                              a.amopstrategy, a.amoplefttype::regtype,
                                              a.amoprighttype::regtype, a.amopopr::regoperator,
                                              a.amoppurpose,
                                              pg_describe_object('pg_opfamily'::regclass,
                                                                 nullif(a.amopsortfamily, 0), 0)),
                                       '; ' ORDER BY a.amopstrategy, a.amoplefttype::regtype::text,
                                                     a.amoprighttype::regtype::text)
                       FROM pg_amop a WHERE a.amopfamily = m.objid), '') || ' | ' ||
           coalesce((SELECT string_agg(format('proc %s(%s,%s) %s', p.amprocnum,
                                              p.amproclefttype::regtype, p.amprocrighttype::regtype,
                                              p.amproc::regprocedure),
                                       '; ' ORDER BY p.amprocnum, p.amproclefttype::regtype::text,
                                                     p.amprocrighttype::regtype::text)
                       FROM pg_amproc p WHERE p.amprocfamily = m.objid), '')
      FROM members m WHERE m.classid = 'pg_opfamily'::regclass
    UNION ALL
    SELECT 'cast', pg_describe_object(m.classid, m.objid, 0),
           format('function=%s context=%s method=%s',
                  nullif(c.castfunc, 0)::regprocedure, c.castcontext, c.castmethod)
      FROM members m JOIN pg_cast c ON c.oid = m.objid
     WHERE m.classid = 'pg_cast'::regclass
    UNION ALL
    SELECT 'access method', a.amname::text,
           format('handler=%s type=%s', a.amhandler::regprocedure, a.amtype)
      FROM members m JOIN pg_am a ON a.oid = m.objid
     WHERE m.classid = 'pg_am'::regclass
    UNION ALL
    -- anything else an extension can own, named at least
    SELECT 'other', pg_describe_object(m.classid, m.objid, m.objsubid), ''
      FROM members m
     WHERE m.classid NOT IN ('pg_proc'::regclass, 'pg_type'::regclass, 'pg_operator'::regclass,
                             'pg_opclass'::regclass, 'pg_opfamily'::regclass,
                             'pg_cast'::regclass, 'pg_am'::regclass)
    UNION ALL
    -- comments on every member (and on its columns, for a table)
    SELECT 'comment', pg_describe_object(m.classid, m.objid, ds.objsubid), ds.description
      FROM members m JOIN pg_description ds ON ds.classoid = m.classid AND ds.objoid = m.objid
)
SELECT kind || ' ' || name || ': ' || coalesce(detail, '<null>')
  FROM lines
 ORDER BY kind, name, 1;
