"""The Simhash value class, without a server."""

import unittest

from simhash_pg import Simhash


class SimhashValueTest(unittest.TestCase):
    def test_text_forms(self):
        self.assertEqual(Simhash("0123456789abcdef"), 0x0123456789ABCDEF)
        self.assertEqual(Simhash(" 0X0123456789ABCDEF\n"), 0x0123456789ABCDEF)
        self.assertEqual(Simhash("1" * 64), 2**64 - 1)
        self.assertEqual(Simhash("0b" + "0" * 63 + "1"), 1)
        self.assertEqual(str(Simhash(255)), "00000000000000ff")
        self.assertEqual(repr(Simhash(255)), "Simhash('00000000000000ff')")

    def test_rejects(self):
        for bad in ["", "0123456789abcde", "0123456789abcdeg", "12345678901234567890",
                    "the quick brown fox jumps over the lazy dog"]:
            with self.assertRaises(ValueError):
                Simhash(bad)
        with self.assertRaisesRegex(ValueError, r"'the quick brown fox jump\.\.\.'"):
            Simhash("the quick brown fox jumps over the lazy dog")
        for bad in [-1, 2**64]:
            with self.assertRaisesRegex(ValueError, "from_signed"):
                Simhash(bad)
        for bad in [True, 1.0, None]:
            with self.assertRaises(TypeError):
                Simhash(bad)

    def test_signed_and_bytes(self):
        self.assertEqual(Simhash.from_signed(-1), 2**64 - 1)
        self.assertEqual(Simhash(2**64 - 1).to_signed(), -1)
        self.assertEqual(Simhash(2**63).to_signed(), -(2**63))
        self.assertEqual(Simhash(b"\x80" + bytes(7)), 2**63)
        with self.assertRaises(ValueError):
            Simhash.from_signed(2**63)

    def test_int_behaviour(self):
        a = Simhash(0b1011)
        self.assertIsInstance(a, int)
        self.assertEqual(a.distance(0), 3)
        self.assertEqual(a.distance("000000000000000b"), 0)
        self.assertEqual(hash(a), hash(11))
        self.assertEqual({a: 1}[11], 1)


if __name__ == "__main__":
    unittest.main()
