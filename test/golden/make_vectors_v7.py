#!/usr/bin/env python3
"""Inputs of test/golden/vectors_v7.csv (algorithm version 7: version 6
with the robust cap proportional to the length past 1,400 words).

Writes CSV "body,features,n,weighting,numbers" on stdout: the inputs of
vectors_v6.csv (make_vectors_v6.py), then texts made here from a fixed seed
past the new threshold: 1,400, 1,401, 1,402, 2,000, 3,500, 6,000 and 12,000
words of English with a genre's words repeated (so that many words reach
the cap), in sentences of 1-25 words on one line or one sentence per line,
each with the default options and with tf; and Han text of 1,400 to 5,000
characters.

Usage (see test/golden/README):
    python3 test/golden/make_vectors_v7.py | /tmp/reference 7 > test/golden/vectors_v7.csv
"""
import contextlib
import io
import random
import sys

import make_vectors_v5 as v5
import make_vectors_v6 as v6

SEED = 20261129
WORD_COUNTS = [1400, 1401, 1402, 2000, 3500, 6000, 12000]
HAN_COUNTS = [1400, 1401, 2500, 5000]
# a release note's words, repeated in every document of the genre
GENRE = ["has", "been", "upgraded", "from", "version", "to", "now", "module"]


def main():
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        v6.main()
    sys.stdout.write(buf.getvalue())
    vocabulary = v5.EN + ["the"] * 30 + ["and"] * 15 + ["of"] * 15 + GENRE * 6
    texts = v6.english_and_han_texts(random.Random(SEED), WORD_COUNTS, (" ", "\n"),
                                     HAN_COUNTS, vocabulary)
    v6.write_inputs(texts)
    print("%d texts past 1,400 words" % len(texts), file=sys.stderr)


if __name__ == "__main__":
    main()
