#!/usr/bin/env python3
"""Word 5-shingle Jaccard similarity of pairs of long documents
(scripts/bench-quality.sh): reads long.tsv and pairs "a b ..." on stdin,
writes each pair back with two columns appended: the Jaccard similarity of
the two sets of shingles, and the shared running text, the larger of the
two documents' shares of shingle occurrences (repeats counted) whose
shingle the other document has too.  The Jaccard similarity of sets counts
a passage repeated ten times once, and every distinct commit id, name or
date as much as a paragraph: two files that each hold a licence many times
over, or two logs that hold the same commits, can share half their running
text at a Jaccard similarity under 0.1.  Words are runs of letters and
digits, lower-cased; every Han, Kana or Hangul character is a word of its
own.

Usage: jaccard.py LONG_TSV < pairs > pairs-with-jaccard
"""
import collections
import re
import sys

WORD = re.compile(r'[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7a3]|[^\W_]+')


def shingle_counts(text):
    """Each word 5-shingle of text with its number of occurrences."""
    words = WORD.findall(text.lower())
    return collections.Counter(' '.join(words[i:i + 5]) for i in range(max(len(words) - 4, 1)))


def shingles(text):
    """The set of word 5-shingles of text (bench/weights_explore.py and weights_sim.py too)."""
    return set(shingle_counts(text))


def shared_running(a, b):
    """The share of a's shingle occurrences whose shingle b has."""
    return sum(n for s, n in a.items() if s in b) / max(sum(a.values()), 1)


def main():
    docs = {}
    for line in open(sys.argv[1], encoding='utf-8'):
        f = line.rstrip('\n').split('\t')
        docs[f[0]] = f[3].replace('\\n', '\n')
    cache = {}

    def sh(d):
        if d not in cache:
            cache[d] = shingle_counts(docs[d])
        return cache[d]

    for line in sys.stdin:
        f = line.split()
        if len(f) < 2:
            continue
        a, b = sh(f[0]), sh(f[1])
        j = len(a.keys() & b.keys()) / max(len(a.keys() | b.keys()), 1)
        print('%s\t%.4f\t%.4f' % ('\t'.join(f), j, max(shared_running(a, b), shared_running(b, a))))


if __name__ == '__main__':
    main()
