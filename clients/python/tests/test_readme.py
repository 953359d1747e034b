"""README.md shows the files of examples/ verbatim; the driver examples run
here (the Django ones in test_django) and print what their comments say."""

import os
import re
import unittest

from .common import PACKAGE_ROOT, run_python, setup_database

EXAMPLES = os.path.join(PACKAGE_ROOT, "examples")

EXPECTED = {
    "psycopg_example.py": ["Simhash('8212868318d29267')",
                           "0 The quick brown fox jumps over the lazy dog",
                           "ffffffffffffffff", "0"],
    "psycopg2_example.py": ["Simhash('8212868318d29267')", "3"],
    "sqlalchemy_example.py": ["['The quick brown fox jumps over the lazy dog']",
                              "Simhash('8212868318d29267')"],
}


def setUpModule():
    setup_database()


class ReadmeTest(unittest.TestCase):
    def test_readme_shows_every_example_verbatim(self):
        with open(os.path.join(PACKAGE_ROOT, "README.md")) as f:
            blocks = re.findall(r"```python\n(.*?)```", f.read(), re.S)
        for name in sorted(os.listdir(EXAMPLES)):
            with open(os.path.join(EXAMPLES, name)) as f:
                self.assertIn(f.read(), blocks, name)

    def test_examples_print_what_they_promise(self):
        for name, expected in EXPECTED.items():
            with self.subTest(example=name):
                out = run_python(os.path.join(EXAMPLES, name))
                self.assertEqual(out.splitlines(), expected)


if __name__ == "__main__":
    unittest.main()
