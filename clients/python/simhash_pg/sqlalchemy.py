"""SQLAlchemy 1.4: a column type with distance comparators.

    from simhash_pg.sqlalchemy import SimhashType, simhash_of

    fp = Column(SimhashType, Computed("simhash(body)"))     # a generated column
    select(Page).where(Page.fp.within(simhash_of(text), 3))  # fp <-> simhash(...) <= 3
    select(Page).order_by(Page.fp.distance(q)).limit(10)     # k nearest

within() compiles to the form the index answers, fp <-> q <= k.  Importing
this module also makes table reflection (autoload_with) see simhash columns
as SimhashType on the postgresql dialect.
"""

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import base as _pg_base
from sqlalchemy.types import UserDefinedType

from . import Simhash

__all__ = ["SimhashType", "simhash_of"]


class SimhashType(UserDefinedType):
    """The simhash column type.  Values are Simhash (an int); parameters may
    be Simhash, int (0 to 2**64 - 1) or the 16-hex-digit text form."""

    cache_ok = True

    def get_col_spec(self, **kw):
        return "simhash"

    def bind_processor(self, dialect):
        def process(value):
            return None if value is None else Simhash(value).hex()
        return process

    def literal_processor(self, dialect):
        def process(value):
            return "'%s'" % Simhash(value).hex()
        return process

    def bind_expression(self, bindvalue):
        # A typed parameter, whether the driver splices it as a literal or not.
        return sa.cast(bindvalue, self)

    def result_processor(self, dialect, coltype):
        def process(value):
            return None if value is None else Simhash(value)
        return process

    class comparator_factory(UserDefinedType.Comparator):
        def distance(self, other):
            """fp <-> other: the Hamming distance, an Integer (also for ORDER BY)."""
            return self.expr.op("<->", return_type=sa.Integer)(other)

        def within(self, other, k):
            """fp <-> other <= k, the clause a simhash index answers."""
            return self.distance(other) <= k


def simhash_of(text, *options):
    """simhash(CAST(text AS TEXT), options...): the fingerprint of a document
    (a str or a text expression), never read as a fingerprint literal."""
    return sa.func.simhash(sa.cast(text, sa.Text), *options, type_=SimhashType())


_pg_base.ischema_names["simhash"] = SimhashType
