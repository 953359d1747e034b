"""psycopg2 against the server: the literals it writes, its adapters."""

import unittest

import psycopg2
import psycopg2.errors

import simhash_pg.psycopg2
from simhash_pg import Simhash

from .common import setup_database

FOX = "The quick brown fox jumps over the lazy dog"


def setUpModule():
    setup_database()


class Psycopg2Test(unittest.TestCase):
    def setUp(self):
        self.conn = psycopg2.connect("")
        simhash_pg.psycopg2.register(self.conn)
        self.cur = self.conn.cursor()

    def tearDown(self):
        self.conn.close()

    def one(self, sql, params=()):
        self.cur.execute(sql, params)
        return self.cur.fetchone()[0]

    def test_str_literal_fails_short_with_hint(self):
        document = "a long document, " * 1000
        with self.assertRaises(psycopg2.errors.InvalidTextRepresentation) as cm:
            self.cur.execute("SELECT simhash(%s)", [document])
        self.conn.rollback()
        diag = cm.exception.diag
        self.assertLess(len(diag.message_primary), 100)
        self.assertIn("simhash('...'::text)", diag.message_hint)

    def test_text_cast_fingerprints(self):
        value = self.one("SELECT simhash(%s::text)", [FOX])
        self.assertEqual(value, Simhash("8212868318d29267"))
        self.assertIsInstance(value, Simhash)

    def test_simhash_parameter_is_typed(self):
        q = Simhash("8212868318d29267")
        self.assertEqual(self.cur.mogrify("%s", [q]), b"'8212868318d29267'::simhash")
        self.assertEqual(self.one("SELECT %s <-> %s", [q, Simhash(0)]), bin(int(q)).count("1"))
        self.assertEqual(self.one("SELECT ARRAY[%s, NULL::simhash]", [q]), [q, None])

    def test_python_ints_into_a_column(self):
        values = [0, 5, 2**63 - 1, 2**63, 2**64 - 1]
        self.cur.execute("CREATE TEMP TABLE ints (fp simhash)")
        self.cur.executemany("INSERT INTO ints VALUES (%s)", [[v] for v in values])
        self.cur.execute("SELECT fp FROM ints ORDER BY fp")
        self.assertEqual([r[0] for r in self.cur.fetchall()], values)

    def test_decimal_text_is_not_a_fingerprint(self):
        # A number sent as a string is refused, with a hint, never misread.
        with self.assertRaises(psycopg2.errors.InvalidTextRepresentation) as cm:
            self.cur.execute("SELECT %s::simhash", [str(2**64 - 1)])
        self.conn.rollback()
        self.assertIn("numeric", cm.exception.diag.message_hint)


if __name__ == "__main__":
    unittest.main()
