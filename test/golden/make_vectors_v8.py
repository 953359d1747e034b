#!/usr/bin/env python3
"""Inputs of test/golden/vectors_v8.csv (algorithm version 8: version 7
with every word also capped at 16 times the document's median word by
occurrence).

Writes CSV "body,features,n,weighting,numbers" on stdout: the inputs of
vectors_v7.csv (make_vectors_v7.py), then texts made here from a fixed seed
where that cap decides: pages of identifiers of 650 to 8,000 words (an
index of a library's names, "name (class in module)" per line; a header's
reference page, "#define NAME value" per line; a class hierarchy, "class
name" per line), and two pages whose names seen once hold exactly half of
the occurrences, each with the default options and with tf.

Usage (see test/golden/README):
    python3 test/golden/make_vectors_v8.py | /tmp/reference 8 > test/golden/vectors_v8.csv
"""
import contextlib
import io
import random
import sys

import make_vectors_v6 as v6
import make_vectors_v7 as v7

SEED = 20261130
WORD_COUNTS = [650, 701, 1000, 1399, 1401, 3000, 8000]
KINDS = ["class", "module", "method", "attribute", "function"]
SYLLABLES = ["get", "set", "read", "write", "buf", "str", "node", "tree", "list", "map",
             "file", "path", "sock", "conn", "lock", "time", "user", "data", "item", "key"]


def identifier(r):
    return "".join(r.choice(SYLLABLES) for _ in range(r.randint(1, 3)))


def names(r, words):
    """A page's names: drawn from 4 x words identifiers (few repeat)"""
    pool = [identifier(r) for _ in range(4 * words)]
    return lambda: r.choice(pool)


def page(words, per_line, line):
    """Lines of line() (per_line words each) until words words."""
    lines, n = [], 0
    while n < words:
        lines.append(line())
        n += per_line
    return "\n".join(lines)


def index_page(r, words):
    """Lines "name name name (kind in package.module)" until words words."""
    modules = [identifier(r) + "." + identifier(r) for _ in range(12)]
    name = names(r, words)
    return page(words, 6, lambda: "%s %s %s (%s in %s)" % (name(), name(), name(), r.choice(KINDS),
                                                          r.choice(modules)))


def reference_page(r, words):
    """Lines "#define NAME VALUE /* name name name */" until words words."""
    name = names(r, words)
    return page(words, 6, lambda: "#define %s %s /* %s %s %s */" % (name().upper(), name(), name(),
                                                                    name(), name()))


def hierarchy_page(r, words):
    """Lines "class name name name name" (some "interface ...") until words words."""
    name = names(r, words)
    return page(words, 5, lambda: "%s %s" % ("interface" if r.random() < 0.1 else "class",
                                             " ".join(name() for _ in range(r.randint(2, 6)))))


def half_page(r, words):
    """Lines of the same eight words and eight names seen once, words / 16
    lines: the names hold exactly half of the occurrences, so the median is
    the heaviest name's weight only if half counts (2 x count >= total)."""
    fixed = [identifier(r) + "x" for _ in range(8)]
    lines = []
    for i in range(words // 16):
        own = ["n%dq%s" % (i, "".join(chr(97 + (i * 8 + k) // 26 ** j % 26) for j in range(3)))
               for k in range(8)]
        lines.append(" ".join(w for pair in zip(fixed, own) for w in pair))
    return "\n".join(lines)


def main():
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        v7.main()
    sys.stdout.write(buf.getvalue())
    r = random.Random(SEED)
    texts = [kind(r, words) for words in WORD_COUNTS
             for kind in (index_page, reference_page, hierarchy_page)]
    texts += [half_page(r, words) for words in (1600, 3200)]
    v6.write_inputs(texts)
    print("%d pages of identifiers" % len(texts), file=sys.stderr)


if __name__ == "__main__":
    main()
