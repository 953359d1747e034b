#!/usr/bin/env python3
"""Near-duplicates of long documents (scripts/bench-quality.sh): the recall
that the weighting of long documents must keep while it keeps unrelated
ones apart.

Reads long.tsv (bench/make_quality_sets.py) and takes up to PER documents
of each language and source (a fixed random choice), their paragraphs
(blank-line separated; a document with fewer than 8 paragraphs is taken by
lines), and writes for each:
  original  the document
  adblock   a block of 3 to 5 advertisement lines inserted somewhere
  edits     one small edit per 150 words (make_quality_sets.edit; a Chinese
            word is two Han characters)
  combo     one edit per 300 words, one or two sentences deleted, a block
            of 2 ads inserted
  half      the first half of the text (a negative)
An ad block or a few edits are a smaller part of a long document than of a
page: a weighting that keeps these within 3 bits has room to spare, one that
loses them lets a document's frequent words be outweighed.

Usage: make_long_near_duplicates.py LONG_TSV OUT_TSV [PER]
Output (tab-separated, no header, bodies with \\n escaped):
  id lang source base variant body     (base: the doc_id in long.tsv)
"""
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_near_duplicates as nd  # noqa: E402
import make_quality_sets as qs  # noqa: E402

HAN_PAIR = re.compile(r'[\u4e00-\u9fff]{2}')
ESCAPED = re.compile(r'\\(.)')


def unescape(field):
    """A body of long.tsv as written (backslash and newline escaped)."""
    return ESCAPED.sub(lambda m: '\n' if m.group(1) == 'n' else m.group(1), field)


def paragraphs(text):
    paras = [p for p in re.split(r'\n\s*\n', text) if p.strip()]
    if len(paras) < 8:
        paras = [p for p in text.split('\n') if p.strip()]
    return paras


def variants(body, lang, rng):
    if lang == 'en':
        vocab = sorted({w for p in body for w in p.split() if w.isalpha()})
        words = sum(len(p.split()) for p in body)
    else:
        vocab = sorted({m for p in body for m in HAN_PAIR.findall(p)})
        words = sum(len(HAN_PAIR.findall(p)) for p in body)
    if not vocab:
        return []
    adblock = list(body)
    adblock.insert(rng.randrange(len(adblock) + 1), qs.ad_block(lang, rng, rng.choice([3, 4, 5])))
    combo = nd.delete_sentences(qs.edit(body, lang, rng, vocab, max(2, words // 300)), lang, rng)
    combo.insert(rng.randrange(len(combo) + 1), qs.ad_block(lang, rng, 2))
    return [('original', body), ('adblock', adblock),
            ('edits', qs.edit(body, lang, rng, vocab, max(4, words // 150))),
            ('combo', combo), ('half', nd.half_of(body, lang))]


def main():
    src, out = sys.argv[1], sys.argv[2]
    per = int(sys.argv[3]) if len(sys.argv) > 3 else 150
    rng = random.Random(20261129)
    by_source = {}
    for line in open(src, encoding='utf-8'):
        doc_id, lang, source, body = line.rstrip('\n').split('\t', 3)
        by_source.setdefault((lang, source), []).append((doc_id, unescape(body)))
    n = 0
    with open(out, 'w', encoding='utf-8') as f:
        for (lang, source), docs in sorted(by_source.items()):
            rng.shuffle(docs)
            for doc_id, text in docs[:per]:
                body = paragraphs(text)
                if len(body) < 4:
                    continue
                for variant, b in variants(body, lang, rng):
                    n += 1
                    text = '\n\n'.join(b).replace('\\', '\\\\').replace('\t', ' ').replace('\r', ' ')
                    f.write('%d\t%s\t%s\t%s\t%s\t%s\n' % (n, lang, source, doc_id, variant,
                                                          text.replace('\n', '\\n')))
    print('long near-duplicates: %d documents' % n, file=sys.stderr)


if __name__ == '__main__':
    main()
