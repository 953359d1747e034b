#!/usr/bin/env python3
"""Word 5-shingle Jaccard similarity of pairs of long documents
(scripts/bench-quality.sh): reads long.tsv and pairs "a b ..." on stdin,
writes each pair back with its Jaccard similarity appended.  Words are runs
of letters and digits, lower-cased; every Han, Kana or Hangul character is
a word of its own.

Usage: jaccard.py LONG_TSV < pairs > pairs-with-jaccard
"""
import re
import sys

WORD = re.compile(r'[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7a3]|[^\W_]+')


def shingles(text):
    words = WORD.findall(text.lower())
    return {' '.join(words[i:i + 5]) for i in range(max(len(words) - 4, 1))}


def main():
    docs = {}
    for line in open(sys.argv[1], encoding='utf-8'):
        f = line.rstrip('\n').split('\t')
        docs[f[0]] = f[3].replace('\\n', '\n')
    cache = {}

    def sh(d):
        if d not in cache:
            cache[d] = shingles(docs[d])
        return cache[d]

    for line in sys.stdin:
        f = line.split()
        if len(f) < 2:
            continue
        a, b = sh(f[0]), sh(f[1])
        j = len(a & b) / max(len(a | b), 1)
        print('%s\t%.4f' % ('\t'.join(f), j))


if __name__ == '__main__':
    main()
