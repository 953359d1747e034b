"""psycopg 3: fingerprints as Simhash (an int), both ways, text and binary.

    import psycopg, simhash_pg.psycopg
    conn = psycopg.connect()
    simhash_pg.psycopg.register(conn)

Python str parameters travel untyped, so simhash(%s) fingerprints text.  A
plain int sent as a parameter is an integer (int8 or numeric): it goes into
a simhash column (assignment cast), but in an expression pass Simhash(n).
Distances (<->) arrive as int with no registration.
"""

from psycopg.adapt import Dumper, Loader
from psycopg.pq import Format
from psycopg.types import TypeInfo

from . import Simhash

__all__ = ["register"]


class _TextLoader(Loader):
    def load(self, data):
        return Simhash(bytes(data).decode("ascii"))


class _BinaryLoader(Loader):
    format = Format.BINARY

    def load(self, data):
        return Simhash(bytes(data))


class _TextDumper(Dumper):
    def dump(self, obj):
        return Simhash(obj).hex().encode("ascii")


class _BinaryDumper(Dumper):
    format = Format.BINARY

    def dump(self, obj):
        return int(Simhash(obj)).to_bytes(8, "big")


def register(context, name="simhash"):
    """Registers the simhash type (and its array) on a connection or cursor.

    Looks the type up by name (schema-qualify it if it is not on the search
    path); raises LookupError when the extension is not installed.
    """
    conn = getattr(context, "connection", context)
    info = TypeInfo.fetch(conn, name)
    if info is None:
        raise LookupError("type %s not found: run CREATE EXTENSION simhash" % name)
    info.register(context)
    adapters = context.adapters
    adapters.register_loader(info.oid, _TextLoader)
    adapters.register_loader(info.oid, _BinaryLoader)
    for base in (_TextDumper, _BinaryDumper):
        adapters.register_dumper(Simhash, type(base.__name__, (base,), {"oid": info.oid}))
    return info
