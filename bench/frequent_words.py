#!/usr/bin/env python3
"""The most frequent words of English and Chinese technical text, for the
weighting experiment of scripts/bench-quality.sh (not used by the
extension).  Source: the tuning set's text only, so that the held-out set
stays unseen: the Debian Administrator's Handbook (debian-handbook, en-US
and zh-CN) and, for English, the licenses of /usr/share/common-licenses.
Words are tokenized roughly as simhash(text) version 4 does (runs of
letters, lower-cased; each Han, Kana or Hangul character on its own).

Output (tab-separated, no header): lang word share, the share of all the
words of the language's text, for the 400 most frequent words.

Usage: frequent_words.py > frequent.tsv
"""
import collections
import glob
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_near_duplicates as nd  # noqa: E402

CJK = '\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7a3'
WORD = re.compile('[%s]|[^\\W\\d_]+(?:[.\'][^\\W\\d_]+)*' % CJK)


def texts(lang):
    sub = 'en-US' if lang == 'en' else 'zh-CN'
    for f in sorted(glob.glob(os.path.join(nd.HANDBOOK, sub, '*.html'))):
        yield ' '.join(nd.paragraphs_of(f))
    if lang == 'en':
        for f in sorted(glob.glob('/usr/share/common-licenses/*')):
            if os.path.isfile(f):
                yield open(f, encoding='utf-8', errors='replace').read()


for lang in ('en', 'zh'):
    counts = collections.Counter()
    for t in texts(lang):
        words = [w.lower() for w in WORD.findall(t)]
        if lang == 'zh':
            words = [w for w in words if re.match('[%s]' % CJK, w)]
        counts.update(words)
    total = sum(counts.values())
    for w, c in counts.most_common(400):
        print('%s\t%s\t%.6f' % (lang, w, c / total))
