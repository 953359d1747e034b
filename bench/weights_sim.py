#!/usr/bin/env python3
"""Recomputes version 5's (or 4's) weighting of simhash(text) in Python from each
document's tokens, to try other weightings on the quality benchmark's sets
without rebuilding the extension (how the run weights and the cap of long
documents were chosen: doc/benchmarks.md, "Version 4: run weights and the
cap of very long documents"; version 7's cap: "Algorithm version 7").

The tokens come from the independent reference implementation
(test/golden/reference.c, "reference tokens"): each token's XXH3 hash,
whether a run break or a line break stood before it, and its line's version 5
multiplier m16 (min(16, floor(16 x line bytes / T)), T the typical line of
the first 65,536 bytes; flag bits 2-6, present when bit 7 is set: output of
the reference before version 5 has no m16 and serves --version 4 only).  Scored as
scripts/bench-quality.sh scores: F1, precision and recall at k = 3 per set
and language, the share of each kind of pair within 3 bits, and the
unrelated long documents within 3 bits (word 5-shingle Jaccard < 0.1,
bench/jaccard.py; and within 6, where the counts are less sparse), and,
where SETS has long_near.tsv (bench/make_long_near_duplicates.py), the
share of each kind of near-duplicate of a long document within 3 bits of
its original.  A SETS folder without docs.tsv scores the long documents
only.  Documents of 1,400 words or more have the same fingerprint under
versions 5 and 6 (version 6 blends version 5's weights in from 700 words:
--version 6 and 7 recompute that too).  The defaults are version 5's formula (--version 4:
version 4's, the same but for the line weights); with them F1,
precision, recall and the long documents equal the benchmark's (the shares
per kind may differ by 0.01: Python rounds the binary double, SQL the exact
average).

Usage (Debian 12: python3-numpy; SETS from bench/make_quality_sets.py):
    gcc -O1 -o /tmp/reference test/golden/reference.c -licuuc -lm
    python3 bench/make_quality_sets.py SETS
    python3 bench/weights_sim.py /tmp/reference SETS [--version 4|5|6|7|8] [--power A]
        [--cap-words N] [--cap-exponent E] [--cap-typical K] [--occurrences B] [--linear] [--no-long]
        [--verify]
  --version V      5: an occurrence weighs max(1, floor((w x m16 + 8) / 16)),
                   w its run weight below, m16 its line's multiplier (version
                   5, the default); 4: w (version 4); 6: version 5 blended in
                   from 700 to 1,400 words (below, each word's weight is the
                   sum of its occurrences', uncapped); 7: 6 with version 7's
                   cap (sets --cap-words 1400 --cap-exponent 1); 8: 7 with
                   version 8's typical cap (sets --cap-typical 16)
  --power A        an occurrence in a run of L words weighs
                   max(1, floor(L^A 64^(1.5 - A) / 2 + 0.5)) (version 4: 1.5)
  --linear         ... weighs L (version 4 before 2026-11-27; floor 64)
  --cap-words N    the cap's share shrinks as (N / words)^E past N words
                   (version 4: 10000; version 7: 1400; 0: never)
  --cap-exponent E (version 4: 0.5; version 7: 1, the cap then
                   ceil(9 W N / (200 words)) in integers)
  --occurrences B  a word's weight times occurrences^B (version 4: 0.5)
  --cap-typical K  also cap every word at K times the weight of the
                   document's median word by occurrence (0: no such cap;
                   version 8: 16)
  --verify         also computes each document's fingerprint with the
                   reference itself (simhash(body) of --version, CSV mode)
                   and counts those that differ from the recomputation's
                   (meaningful with the other options at their defaults)
"""
import argparse
import importlib.util
import math
import os
import re
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def frequent_words(reference):
    """{hash: (ppm, damping ppm)} of src/fingerprint/frequent_words.c, hashed by the reference."""
    src = open(os.path.join(ROOT, 'src', 'fingerprint', 'frequent_words.c'), encoding='utf-8').read()
    words = re.findall(r'\{"([^"]+)", (\d+), (\d+)\}', src)
    tsv = ''.join('%d\t%s\n' % (i, w) for i, (w, _, _) in enumerate(words))
    out = subprocess.run([reference, 'tokens'], input=tsv.encode(), capture_output=True, check=True).stdout
    result = {}
    for i, (h, _) in enumerate(read_tokens(out).values()):
        result[int(h[0])] = (int(words[i][1]), int(words[i][2]))
    return result


def read_tokens(data):
    """{id: (hashes, flags)} from the output of "reference tokens"."""
    docs, off = {}, 0
    while off < len(data):
        i, n = np.frombuffer(data, np.int32, 2, off)
        off += 8
        h = np.frombuffer(data, np.uint64, n, off)
        off += 8 * n
        fl = np.frombuffer(data, np.uint8, n, off)
        off += n
        docs[int(i)] = (h, fl)
    return docs


def line_m16(fl):
    """Each token's line multiplier (version 5) from its flag byte, or None
    for tokens listed by a reference older than version 5."""
    if len(fl) == 0 or not np.all(fl & 0x80):
        return None
    return ((fl >> 2) & 31).astype(np.int64)


def prepare(h, fl):
    """A document's distinct words, their bits (+1/-1), its runs and the
    line multipliers of its tokens."""
    newrun = (fl & 1).astype(bool)
    newrun[0] = True
    run = np.cumsum(newrun) - 1
    runlen = np.minimum(np.bincount(run)[run], 64)
    uh, inv = np.unique(h, return_inverse=True)
    bits = np.unpackbits(uh.view(np.uint8).reshape(-1, 8), axis=1, bitorder='little')
    return dict(n=len(h), runlen=runlen, uh=uh, inv=inv, count=np.bincount(inv),
                bits=bits.astype(np.int8) * 2 - 1, m16=line_m16(fl))


def line_weight(occ, m16):
    """Version 5: run weights occ on lines of multipliers m16."""
    if m16 is None:
        sys.exit('weights_sim: these tokens have no line multipliers (a reference before version 5)')
    return np.maximum(1, np.floor((occ * m16 + 8) / 16))


def fingerprint(p, args, freq, freqkeys):
    if args.linear:
        occ, least = p['runlen'].astype(float), 64
    else:
        L = p['runlen'].astype(float)
        occ = np.maximum(1, np.floor(L ** args.power * 64 ** (1.5 - args.power) / 2 + 0.5))
        least = 256
    if args.version >= 5:
        occ = line_weight(occ, p['m16'])
    w = np.bincount(p['inv'], occ, minlength=len(p['uh']))
    r = w * p['count'] ** args.occurrences * 16
    g = min(1.0, p['n'] / 1000)
    for k in np.nonzero(np.isin(p['uh'], freqkeys))[0]:
        ppm, damp = freq[int(p['uh'][k])]
        r[k] *= 1 - g * (1 - damp / ppm)
    r = np.floor(r + 0.5)
    total = r.sum()
    if args.cap_words and p['n'] > args.cap_words and args.cap_exponent == 1:
        cap = -(-9 * int(total) * args.cap_words // (200 * p['n']))
    elif args.cap_words and p['n'] > args.cap_words:
        cap = math.ceil(9.0 * total / 200.0 * (args.cap_words / p['n']) ** args.cap_exponent)
    else:
        cap = math.ceil(9 * total / 200)
    r = np.minimum(r, max(cap, 16 * least))
    if args.cap_typical:
        # version 8: no word above K times the weight of the document's
        # median word (by occurrence), so that a few words cannot hold
        # most of the squared weight
        order = np.argsort(r)
        cum = np.cumsum(p['count'][order])
        median = r[order[np.searchsorted(cum, cum[-1] / 2)]]
        r = np.minimum(r, max(args.cap_typical * median, 16 * least))
    if args.version >= 6:
        # version 6: the linear weight (16 w, uncapped) below 700 words,
        # moved towards r by (words - 700) / 700 of the difference up to
        # 1,400, rounded half away from zero
        lin = (w * 16).astype(np.int64)
        x = (r.astype(np.int64) - lin) * min(max(p['n'] - 700, 0), 700)
        r = lin + np.where(x >= 0, (x + 350) // 700, -((-x + 350) // 700))
    s = r @ p['bits']
    return int(np.packbits((s > 0).astype(np.uint8), bitorder='little').view(np.uint64)[0])


def reference_fingerprints(reference, version, path):
    """{id: simhash(body) of version} of a tab-separated file, computed by the
    reference itself (its CSV mode), for --verify; documents without words
    are left out, as tokens() leaves them out."""
    import csv
    import io
    ids, buf = [], io.StringIO()
    w = csv.writer(buf, lineterminator='\n', quoting=csv.QUOTE_ALL)
    w.writerow(['body', 'features', 'n', 'weighting', 'numbers'])
    for line in open(path, encoding='utf-8'):
        f = line.rstrip('\n').split('\t')
        body = re.sub(r'\\([n\\])', lambda m: '\n' if m.group(1) == 'n' else '\\', f[-1])
        ids.append(int(f[0]))
        w.writerow([body, 'words', 0, 'runs', 'false'])
    out = subprocess.run([reference, str(version)], input=buf.getvalue().encode(),
                         capture_output=True, check=True).stdout.decode()
    csv.field_size_limit(1 << 30)
    rows = list(csv.reader(io.StringIO(out, newline='')))[1:]
    return {i: int(r[5], 16) for i, r in zip(ids, rows) if r[5]}


def popcount(x):
    return np.unpackbits(x.view(np.uint8).reshape(x.shape + (8,)), axis=-1).sum(-1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('reference')
    ap.add_argument('sets')
    ap.add_argument('--power', type=float, default=1.5)
    ap.add_argument('--linear', action='store_true')
    ap.add_argument('--cap-words', type=int, default=10000)
    ap.add_argument('--cap-exponent', type=float, default=0.5)
    ap.add_argument('--occurrences', type=float, default=0.5)
    ap.add_argument('--cap-typical', type=float, default=0)
    ap.add_argument('--no-long', action='store_true')
    ap.add_argument('--version', type=int, default=5, choices=(4, 5, 6, 7, 8))
    ap.add_argument('--verify', action='store_true')
    args = ap.parse_args()
    if args.version >= 7:
        args.cap_words, args.cap_exponent = 1400, 1
    if args.version >= 8 and not args.cap_typical:
        args.cap_typical = 16
    freq = frequent_words(args.reference)
    freqkeys = np.array(list(freq), dtype=np.uint64)

    def tokens(name):
        with open(os.path.join(args.sets, name), 'rb') as f:
            out = subprocess.run([args.reference, 'tokens'], stdin=f, capture_output=True, check=True).stdout
        return {i: prepare(h, fl) for i, (h, fl) in read_tokens(out).items() if len(h)}

    if os.path.exists(os.path.join(args.sets, 'docs.tsv')):
        score_pages(args, tokens, freq, freqkeys)
    if not args.no_long:
        score_long(args, tokens, freq, freqkeys)


def score_pages(args, tokens, freq, freqkeys):
    """F1, precision and recall at k = 3 of the page sets (docs.tsv, pairs.tsv)."""
    meta = {}
    for line in open(os.path.join(args.sets, 'docs.tsv'), encoding='utf-8'):
        f = line.split('\t', 6)
        meta[int(f[0])] = (f[1], f[2])
    docs = tokens('docs.tsv')
    fps = {i: fingerprint(p, args, freq, freqkeys) for i, p in docs.items()}
    if args.verify:
        direct = reference_fingerprints(args.reference, args.version, os.path.join(args.sets, 'docs.tsv'))
        differ = sum(1 for i, fp in direct.items() if fps.get(i) != fp)
        print('verify: %d of %d documents\' fingerprints differ from the reference\'s (version %d)'
              % (differ, len(direct), args.version))
    scores = {}
    for line in open(os.path.join(args.sets, 'pairs.tsv')):
        a, b, label, kind = line.split()
        a, b = int(a), int(b)
        d = bin(fps[a] ^ fps[b]).count('1') if a in fps and b in fps else 64
        scores.setdefault(meta[a], []).append((int(label), kind, d))
    print('set      lang   F1@3    P@3    R@3   within 3 bits per kind')
    for key in sorted(scores):
        r = scores[key]
        tp = sum(1 for lab, _, d in r if lab == 1 and d <= 3)
        fp = sum(1 for lab, _, d in r if lab == 0 and d <= 3)
        pos = sum(1 for lab, _, _ in r if lab == 1)
        kinds = {}
        for lab, kind, d in r:
            kinds.setdefault((-lab, kind), []).append(d <= 3)
        print('%-8s %-4s %6.3f %6.3f %6.3f   %s' % (
            key[0], key[1], 2 * tp / (2 * tp + fp + pos - tp), tp / max(tp + fp, 1), tp / pos,
            ', '.join('%s %.2f' % (k[1], np.mean(v)) for k, v in sorted(kinds.items()))))


def score_long(args, tokens, freq, freqkeys):
    """Unrelated long documents close together (long.tsv), and the recall of
    their near-duplicates (long_near.tsv, if there)."""
    spec = importlib.util.spec_from_file_location('jaccard', os.path.join(HERE, 'jaccard.py'))
    jaccard = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(jaccard)
    texts, lang = {}, {}
    for line in open(os.path.join(args.sets, 'long.tsv'), encoding='utf-8'):
        f = line.rstrip('\n').split('\t')
        texts[int(f[0])] = f[3].replace('\\n', '\n')
        lang[int(f[0])] = f[1]
    longs = tokens('long.tsv')
    ids = np.array(sorted(longs))
    fp = np.array([fingerprint(longs[i], args, freq, freqkeys) for i in ids], np.uint64)
    if args.verify:
        direct = reference_fingerprints(args.reference, args.version, os.path.join(args.sets, 'long.tsv'))
        mine = dict(zip((int(i) for i in ids), (int(x) for x in fp)))
        differ = sum(1 for i, x in direct.items() if mine.get(i) != x)
        print('verify: %d of %d long documents\' fingerprints differ from the reference\'s (version %d)'
              % (differ, len(direct), args.version))
    langs = np.array([lang[i] for i in ids])
    print('long documents: lang, pairs, unrelated within 3 bits, per million, both >= 30k characters,'
          ' unrelated within 6 bits')
    shingles = {}
    for lg in sorted(set(langs)):
        sel = np.nonzero(langs == lg)[0]
        unrelated = big = within6 = 0
        for x in range(len(sel)):
            d = popcount(fp[sel[x]] ^ fp[sel[x + 1:]])
            for y in np.nonzero(d <= 6)[0]:
                a, b = int(ids[sel[x]]), int(ids[sel[x + 1 + y]])
                sa = shingles.setdefault(a, jaccard.shingles(texts[a]))
                sb = shingles.setdefault(b, jaccard.shingles(texts[b]))
                if len(sa & sb) / max(len(sa | sb), 1) < 0.1:
                    within6 += 1
                    if d[y] <= 3:
                        unrelated += 1
                        big += len(texts[a]) >= 30000 and len(texts[b]) >= 30000
        pairs = len(sel) * (len(sel) - 1) // 2
        print('%-4s %8d %4d %8.1f %4d %4d' % (lg, pairs, unrelated, 1e6 * unrelated / max(pairs, 1), big,
                                            within6))
    if not os.path.exists(os.path.join(args.sets, 'long_near.tsv')):
        return
    near = {}
    for line in open(os.path.join(args.sets, 'long_near.tsv'), encoding='utf-8'):
        f = line.split('\t', 5)
        near[int(f[0])] = (f[2], int(f[3]), f[4])
    nfp = {i: fingerprint(p, args, freq, freqkeys) for i, p in tokens('long_near.tsv').items()}
    original = {(src, base): i for i, (src, base, kind) in near.items() if kind == 'original'}
    found = {}
    for i, (src, base, kind) in near.items():
        o = original.get((src, base))
        if kind != 'original' and o in nfp and i in nfp:
            found.setdefault(src, {}).setdefault(kind, []).append(bin(nfp[i] ^ nfp[o]).count('1') <= 3)
    print('near-duplicates of long documents within 3 bits of the original (half: a negative)')
    for src in sorted(found):
        print('%-16s %s' % (src, ', '.join('%s %.2f' % (k, np.mean(v)) for k, v in sorted(found[src].items()))))


if __name__ == '__main__':
    sys.exit(main())
