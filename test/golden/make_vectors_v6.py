#!/usr/bin/env python3
"""Inputs of test/golden/vectors_v6.csv (algorithm version 6: version 5's
robust weights blended in between 700 and 1,400 words).

Writes CSV "body,features,n,weighting,numbers" on stdout: the inputs of
vectors_v5.csv (make_vectors_v5.py), then texts made here from a fixed seed
around the ramp's ends and on it: 650, 699, 700, 701, 702, 900, 1,050,
1,200, 1,399, 1,400, 1,401 and 1,500 words of English drawn with frequent
words over-represented (so that the cap and the damping matter), in
sentences of 1-25 words on one line or one sentence per line, each with the
default options and with tf; and Han text of 699-1,401 characters.

Usage (see test/golden/README):
    python3 test/golden/make_vectors_v6.py | /tmp/reference 6 > test/golden/vectors_v6.csv
"""
import csv
import io
import random
import sys
import contextlib

import make_vectors_v5 as v5

SEED = 20261128
WORD_COUNTS = [650, 699, 700, 701, 702, 900, 1050, 1200, 1399, 1400, 1401, 1500]
HAN_COUNTS = [699, 700, 701, 1000, 1400, 1401]


def english_and_han_texts(r, word_counts, separators, han_counts, vocabulary):
    """For each count of word_counts and each separator, that many words
    drawn from vocabulary in sentences of 1-25 words joined by it; then Han
    text of each count of han_counts characters."""
    texts = []
    for total in word_counts:
        for separator in separators:
            words = [r.choice(vocabulary) for _ in range(total)]
            sentences, i = [], 0
            while i < total:
                length = r.randint(1, 25)
                sentences.append(" ".join(words[i:i + length]) + ".")
                i += length
            texts.append(separator.join(sentences))
    han = [c for c in v5.ZH]
    for total in han_counts:
        texts.append("".join(r.choice(han) for _ in range(total)))
    return texts


def write_inputs(texts):
    """Each text with the default options, and (but Han text) with tf."""
    w = csv.writer(sys.stdout, lineterminator="\n", quoting=csv.QUOTE_ALL)
    for text in texts:
        w.writerow([text, "words", 0, "runs", "false"])
        if not text[0] >= "\u4e00":
            w.writerow([text, "words", 1, "tf", "false"])


def main():
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        v5.main()
    sys.stdout.write(buf.getvalue())
    vocabulary = v5.EN + ["the"] * 30 + ["and"] * 15 + ["of"] * 15
    texts = english_and_han_texts(random.Random(SEED), WORD_COUNTS, (" ", "\n", "\n"),
                                  HAN_COUNTS, vocabulary)
    write_inputs(texts)
    print("%d texts on or near the ramp" % len(texts), file=sys.stderr)


if __name__ == "__main__":
    main()
