"""psycopg 3 against the server: adapters, parameters as psycopg sends them,
and the literal that a client-side-binding cursor writes."""

import unittest

import psycopg

import simhash_pg.psycopg
from simhash_pg import Simhash

from .common import setup_database

FOX = "The quick brown fox jumps over the lazy dog"


def setUpModule():
    setup_database()


class PsycopgTest(unittest.TestCase):
    def setUp(self):
        self.conn = psycopg.connect()
        simhash_pg.psycopg.register(self.conn)

    def tearDown(self):
        self.conn.close()

    def one(self, sql, params=(), **kw):
        return self.conn.execute(sql, params, **kw).fetchone()[0]

    def test_loads_simhash_text_and_binary(self):
        expected = Simhash(self.one("SELECT simhash(%s::text)::text", [FOX]))
        for binary in (False, True):
            value = self.one("SELECT simhash(%s::text)", [FOX], binary=binary)
            self.assertIsInstance(value, Simhash)
            self.assertEqual(value, expected)
        self.assertEqual(self.one("SELECT ARRAY['ffffffffffffffff'::simhash, NULL]"),
                         [Simhash(2**64 - 1), None])

    def test_untyped_str_parameter_is_text(self):
        # psycopg sends str untyped: simhash(%s) is the function, in both formats.
        expected = self.one("SELECT simhash(text 'The quick brown fox jumps over the lazy dog')")
        self.assertEqual(self.one("SELECT simhash(%s)", [FOX]), expected)
        self.assertEqual(self.one("SELECT simhash(%t)", [FOX]), expected)
        self.assertEqual(self.one("SELECT simhash(%b)", [FOX]), expected)

    def test_dumps_simhash_both_formats(self):
        q = Simhash("8212868318d29267")
        for placeholder in ("%t", "%b"):
            self.assertEqual(self.one("SELECT %s::text" % placeholder, [q]), "8212868318d29267")
            distance = self.one("SELECT 'ffffffffffffffff'::simhash <-> %s" % placeholder, [q])
            self.assertEqual(distance, 64 - bin(int(q)).count("1"))
            self.assertIs(type(distance), int)

    def test_python_ints_into_a_column(self):
        # int2, int4, int8 or numeric by size: the assignment casts take each.
        values = [0, 5, 70000, 2**40, 2**63 - 1, 2**63, 2**64 - 1]
        self.conn.execute("CREATE TEMP TABLE ints (fp simhash)")
        with self.conn.cursor() as cur:
            cur.executemany("INSERT INTO ints VALUES (%s)", [[v] for v in values])
        got = [r[0] for r in self.conn.execute("SELECT fp FROM ints ORDER BY fp")]
        self.assertEqual(got, values)
        self.assertEqual(self.one("SELECT fp::numeric FROM ints ORDER BY fp DESC LIMIT 1"), 2**64 - 1)
        with self.assertRaises(psycopg.errors.NumericValueOutOfRange):
            self.conn.execute("INSERT INTO ints VALUES (%s)", [2**64])

    def test_client_side_literal_fails_short_with_hint(self):
        # A ClientCursor writes the str as a literal: simhash('...') is a cast.
        document = "a long document, " * 1000
        with psycopg.ClientCursor(self.conn) as cur:
            with self.assertRaises(psycopg.errors.InvalidTextRepresentation) as cm:
                cur.execute("SELECT simhash(%s)", [document])
        self.conn.rollback()
        diag = cm.exception.diag
        self.assertLess(len(diag.message_primary), 100)
        self.assertIn("simhash('...'::text)", diag.message_hint)
        with psycopg.ClientCursor(self.conn) as cur:
            cur.execute("SELECT simhash(%s::text)", [FOX])
            self.assertEqual(str(cur.fetchone()[0]), "8212868318d29267")

    def test_register_without_extension(self):
        with self.assertRaises(LookupError):
            simhash_pg.psycopg.register(self.conn, "no_such_type")


if __name__ == "__main__":
    unittest.main()
