"""psycopg2: fingerprints as Simhash (an int), both ways.

    import psycopg2, simhash_pg.psycopg2
    conn = psycopg2.connect("")
    simhash_pg.psycopg2.register(conn)

psycopg2 splices parameters into the SQL text as literals, and PostgreSQL
reads simhash('...') as a cast to the type simhash: write simhash(%s::text)
to fingerprint a str.  Simhash parameters are written '...'::simhash, so they
work in expressions; a plain int is an integer literal, which a simhash
column takes (assignment cast) but an expression does not.
"""

import psycopg2.extensions as _ext

from . import Simhash

__all__ = ["register"]


def _adapt(value):
    return _ext.AsIs("'%s'::simhash" % value.hex())


# Adapters are global in psycopg2; this one needs no connection.
_ext.register_adapter(Simhash, _adapt)


def _cast(value, cursor):
    return None if value is None else Simhash(value)


def register(conn_or_curs, name="simhash", globally=False):
    """Registers the result type (and its array) on a connection or cursor,
    or for every connection with globally=True (the OIDs are looked up
    through conn_or_curs).  Raises LookupError when the extension is not
    installed."""
    cursor = conn_or_curs if hasattr(conn_or_curs, "fetchone") else conn_or_curs.cursor()
    cursor.execute("SELECT t.oid, t.typarray FROM pg_type t WHERE t.oid = to_regtype(%s)",
                   (name,))
    row = cursor.fetchone()
    if row is None:
        raise LookupError("type %s not found: run CREATE EXTENSION simhash" % name)
    oid, array_oid = row
    scalar = _ext.new_type((oid,), "SIMHASH", _cast)
    scope = None if globally else conn_or_curs
    _ext.register_type(scalar, scope)
    _ext.register_type(_ext.new_array_type((array_oid,), "SIMHASH[]", scalar), scope)
    return oid
