# The models of clients/python/examples/django_models.py, which README.md
# shows: executed here so that they belong to this app.
import os

_EXAMPLE = os.path.join(os.path.dirname(__file__), "..", "..", "..", "examples", "django_models.py")
with open(_EXAMPLE) as _f:
    exec(compile(_f.read(), _EXAMPLE, "exec"))


# A plain simhash column, written by Django (fingerprints computed elsewhere).
class Imported(models.Model):  # noqa: F821  (models comes from the example)
    fp = SimhashField(null=True)  # noqa: F821
