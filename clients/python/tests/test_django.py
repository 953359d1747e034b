"""Django 3.2 (psycopg2) against the server: makemigrations and migrate of a
model with a generated simhash column and a simhash index, create/save/
bulk_create, the within lookup, k-NN ordering, and README's query example."""

import io
import os
import shutil
import sys
import tempfile
import unittest

from simhash_pg import Simhash

from .common import HERE, PACKAGE_ROOT, setup_database

PROJECT = os.path.join(HERE, "django_project")


def setUpModule():
    global migrations_dir
    setup_database()
    import django
    from django.conf import settings

    # makemigrations writes into a throwaway package, never into the tree.
    migrations_dir = tempfile.mkdtemp(prefix="simhash_django_")
    os.makedirs(os.path.join(migrations_dir, "tmp_migrations"))
    open(os.path.join(migrations_dir, "tmp_migrations", "__init__.py"), "w").close()
    sys.path[:0] = [PROJECT, migrations_dir]
    settings.configure(
        DATABASES={"default": {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": os.environ["PGDATABASE"],
            "HOST": os.environ.get("PGHOST", ""),
            "PORT": os.environ.get("PGPORT", ""),
            "USER": os.environ.get("PGUSER", ""),
        }},
        INSTALLED_APPS=["myapp"],
        MIGRATION_MODULES={"myapp": "tmp_migrations.myapp"},
        DEFAULT_AUTO_FIELD="django.db.models.AutoField",
        USE_TZ=True,
    )
    django.setup()


def tearDownModule():
    shutil.rmtree(migrations_dir, ignore_errors=True)


class DjangoTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        from django.core.management import call_command
        out = io.StringIO()
        call_command("makemigrations", "myapp", stdout=out)
        with open(os.path.join(migrations_dir, "tmp_migrations", "myapp",
                               "0001_initial.py")) as f:
            cls.migration = f.read()
        call_command("migrate", "myapp", stdout=out)
        cls.sql = io.StringIO()
        call_command("sqlmigrate", "myapp", "0001", stdout=cls.sql)

    def setUp(self):
        from myapp.models import Page
        self.Page = Page
        Page.objects.all().delete()

    def test_migration_declares_generated_column_and_index(self):
        self.assertIn("simhash_pg.django.SimhashField(generated_from='body')", self.migration)
        self.assertIn("SimhashIndex(fields=['fp'], name='page_fp_simhash')", self.migration)
        sql = self.sql.getvalue()
        self.assertIn('"fp" simhash GENERATED ALWAYS AS (simhash("body")) STORED NULL', sql)
        self.assertIn('USING simhash ("fp")', sql)
        self.assertIn('"fp" simhash NULL', sql)

    def test_create_update_bulk_create(self):
        from django.db import connection
        page = self.Page.objects.create(url="u", body="The quick brown fox jumps over the lazy dog")
        self.assertEqual(page.fp, Simhash("8212868318d29267"))   # RETURNING
        page.body = "PostgreSQL is an object-relational database"
        page.save()
        page.refresh_from_db(fields=["fp"])
        with connection.cursor() as cur:
            cur.execute("SELECT simhash(%s::text)", [page.body])
            self.assertEqual(Simhash(cur.fetchone()[0]), page.fp)
        empty = self.Page.objects.create(url="empty", body="")
        self.assertIsNone(empty.fp)        # no words, no fingerprint
        batch = [self.Page(url=str(i), body="document number %d" % i) for i in range(50)]
        if connection.pg_version < 140000:
            # PostgreSQL 13 refuses DEFAULT for a generated column in a
            # multi-row VALUES list (doc/clients.md): bulk_create fails there.
            from django.db.utils import ProgrammingError
            with self.assertRaises(ProgrammingError):
                self.Page.objects.bulk_create(batch)
            return
        pages = self.Page.objects.bulk_create(batch)
        self.assertTrue(all(isinstance(p.fp, Simhash) for p in pages))
        self.assertEqual(self.Page.objects.get(url="7").fp, pages[7].fp)

    def test_plain_field_takes_ints_simhash_and_hex(self):
        from myapp.models import Imported
        from simhash_pg.django import Distance
        Imported.objects.all().delete()
        values = [0, 2**63, 2**64 - 1, Simhash(5), "00000000000000ff"]
        for v in values:
            Imported.objects.create(fp=v)
        got = sorted(Imported.objects.values_list("fp", flat=True))
        self.assertEqual(got, sorted(Simhash(v) for v in values))
        self.assertTrue(all(isinstance(v, Simhash) for v in got))
        row = Imported.objects.get(fp=2**64 - 1)
        row.fp = 7
        row.save()
        self.assertEqual(Imported.objects.filter(fp=Simhash(7)).count(), 1)
        self.assertEqual(sorted(Imported.objects.filter(fp__within=(0, 2)).values_list("fp", flat=True)),
                         [0, 5, 2**63])
        self.assertEqual(Imported.objects.order_by(Distance("fp", 2**64 - 1), "fp").first().fp, 0xff)
        self.assertIsNone(Imported.objects.create(fp=None).fp)

    def test_within_and_nearest_equal_sequential_scan(self):
        from django.db import connection
        from django.db.models import Value
        from simhash_pg.django import Distance, SimhashOf
        for i in range(200):     # create(), not bulk_create(): PostgreSQL 13 too
            self.Page.objects.create(url=str(i), body=" ".join("w%d" % ((i * j) % 97) for j in range(30)))
        every = list(self.Page.objects.all())
        q = every[13].fp
        for k in (0, 3, 12, 25):
            got = sorted(p.url for p in self.Page.objects.filter(fp__within=(q, k)))
            self.assertEqual(got, sorted(p.url for p in every if p.fp.distance(q) <= k))
        nearest = [p.url for p in self.Page.objects.order_by(Distance("fp", q), "url")[:10]]
        expected = [p.url for p in sorted(every, key=lambda p: (p.fp.distance(q), p.url))][:10]
        self.assertEqual(nearest, expected)
        text = every[13].body
        self.assertEqual(self.Page.objects.filter(fp__within=(SimhashOf(Value(text)), 0)).count(),
                         sum(1 for p in every if p.fp == q))
        with connection.cursor() as cur:
            cur.execute("SET enable_seqscan = off")
            for qs in (self.Page.objects.filter(fp__within=(q, 3)),
                       self.Page.objects.order_by(Distance("fp", q))[:5]):
                self.assertIn("page_fp_simhash", qs.explain())
            cur.execute("RESET enable_seqscan")

    def test_readme_queries(self):
        example = os.path.join(PACKAGE_ROOT, "examples", "django_queries.py")
        out = io.StringIO()
        with open(example) as f:
            code = compile(f.read(), example, "exec")
        stdout, sys.stdout = sys.stdout, out
        try:
            exec(code, {})
        finally:
            sys.stdout = stdout
        self.assertEqual(out.getvalue().splitlines(),
                         ["Simhash('8212868318d29267')", "1", "1", "['https://example.org/fox']"])


if __name__ == "__main__":
    unittest.main()
