"""Django 3.2: a model field, a "within" lookup, distance and fingerprint
expressions, and the index.

    from simhash_pg.django import SimhashField, SimhashIndex, Distance, SimhashOf

    class Page(models.Model):
        body = models.TextField()
        fp = SimhashField(generated_from="body")   # GENERATED ALWAYS AS (simhash(body)) STORED
        class Meta:
            indexes = [SimhashIndex(fields=["fp"], name="page_fp")]

    Page.objects.filter(fp__within=(q, 3))                     # fp <-> q <= 3
    Page.objects.filter(fp__within=(SimhashOf(Value(text)), 3))
    Page.objects.order_by(Distance("fp", q))[:10]              # k nearest

Django 3.2 has no generated fields: a SimhashField(generated_from=...) is
declared as a generated column in migrations, writes DEFAULT in every
INSERT and UPDATE, and reads its value back with INSERT ... RETURNING.  After
an UPDATE of the source field, refresh_from_db(fields=[...]) reads the new one.
"""

from django.contrib.postgres.indexes import PostgresIndex
from django.db import models
from django.db.models import Expression, Func, IntegerField, Lookup
from django.db.models.query_utils import DeferredAttribute

from . import Simhash
from . import psycopg2 as _psycopg2  # noqa: F401  (adapts Simhash parameters)

__all__ = ["SimhashField", "SimhashIndex", "Distance", "SimhashOf"]


def _simhash_or_none(value):
    return None if value is None else Simhash(value)


class _Default(Expression):
    """SQL DEFAULT, the only value a generated column takes."""

    def as_sql(self, compiler, connection):
        return "DEFAULT", []


class _Fingerprint(Expression):
    """A fingerprint parameter, typed: %s::simhash."""

    def __init__(self, value):
        super().__init__()
        self.value = Simhash(value)

    def as_sql(self, compiler, connection):
        return "%s::simhash", [self.value.hex()]


def _as_expression(value):
    return value if hasattr(value, "resolve_expression") else _Fingerprint(value)


class _SimhashAttribute(DeferredAttribute):
    """Keeps the attribute a Simhash whatever a query or the user assigns
    (INSERT ... RETURNING values skip from_db_value in Django 3.2)."""

    def __set__(self, instance, value):
        instance.__dict__[self.field.attname] = _simhash_or_none(value)


class SimhashField(models.Field):
    """A simhash column.  generated_from="body" makes it the generated column
    simhash(body); it is then not editable, nullable (a text without words
    has no fingerprint) and never written by Django."""

    description = "simhash fingerprint (64 bits)"
    descriptor_class = _SimhashAttribute

    def __init__(self, *args, generated_from=None, **kwargs):
        self.generated_from = generated_from
        if generated_from is not None:
            kwargs.setdefault("editable", False)
            kwargs.setdefault("null", True)
        super().__init__(*args, **kwargs)

    def deconstruct(self):
        name, path, args, kwargs = super().deconstruct()
        if self.generated_from is not None:
            kwargs["generated_from"] = self.generated_from
            if kwargs.get("editable") is False:
                del kwargs["editable"]
            if kwargs.get("null") is True:
                del kwargs["null"]
        return name, "simhash_pg.django.SimhashField", args, kwargs

    def db_type(self, connection):
        if self.generated_from is None:
            return "simhash"
        source = self.model._meta.get_field(self.generated_from).column
        return "simhash GENERATED ALWAYS AS (simhash(%s)) STORED" % connection.ops.quote_name(source)

    @property
    def db_returning(self):
        return self.generated_from is not None

    def pre_save(self, model_instance, add):
        if self.generated_from is not None:
            return _Default()
        return super().pre_save(model_instance, add)

    def from_db_value(self, value, expression, connection):
        return _simhash_or_none(value)

    def to_python(self, value):
        return _simhash_or_none(value)

    def get_prep_value(self, value):
        value = super().get_prep_value(value)
        return None if value is None else Simhash(value).hex()

    def get_placeholder(self, value, compiler, connection):
        return "%s" if hasattr(value, "as_sql") else "%s::simhash"


@SimhashField.register_lookup
class Within(Lookup):
    """fp__within=(q, k): fp <-> q <= k, the clause a simhash index answers.
    q is a Simhash, an int, the text form or an expression (SimhashOf(...))."""

    lookup_name = "within"
    prepare_rhs = False

    def get_prep_lookup(self):
        fingerprint, k = self.rhs
        return (_as_expression(fingerprint), int(k))

    def as_sql(self, compiler, connection):
        lhs_sql, lhs_params = self.process_lhs(compiler, connection)
        fingerprint, k = self.rhs
        rhs_sql, rhs_params = compiler.compile(fingerprint)
        return ("%s <-> %s <= %%s" % (lhs_sql, rhs_sql),
                list(lhs_params) + list(rhs_params) + [k])


class Distance(Func):
    """Distance("fp", q): fp <-> q, an integer; order_by(Distance(...)) with a
    slice is the k-nearest query a simhash index answers."""

    arg_joiner = " <-> "
    template = "(%(expressions)s)"
    output_field = IntegerField()

    def __init__(self, expression, fingerprint, **extra):
        super().__init__(expression, _as_expression(fingerprint), **extra)


class SimhashOf(Func):
    """simhash(text): the fingerprint of a field ("body", as in any Func) or
    of a document (Value("...")).  The argument is cast to text, so a
    document is never read as a fingerprint literal."""

    template = "simhash((%(expressions)s)::text)"
    output_field = SimhashField()


class SimhashIndex(PostgresIndex):
    """CREATE INDEX ... USING simhash (fp)."""

    suffix = "simhash"
