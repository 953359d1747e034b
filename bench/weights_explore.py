#!/usr/bin/env python3
"""Exploration harness around bench/weights_sim.py (issue 13, 2026-11-27):
the same recomputation of version 4's weighting from the reference's tokens,
with the tokens cached and more candidate weightings, scored on the quality
sets (tune, held-out), on bench/make_near_duplicates.py's set (positives
counters, ad, edits, deleted, mirror, moved, wrapped, combo: a guard against
tuning to the quality sets' perturbations) and on the unrelated long
documents per source.

Usage (after weights_sim.py's steps; ND from make_near_duplicates.py ND 300):
    python3 bench/weights_explore.py /tmp/reference SETS ND [options]
Options: see --help.  Without options it reproduces weights_sim.py (version
5: the line weights of the reference's m16; --version 4 without them, the
candidates below then apply to version 4 as before version 5).
"""
import argparse
import importlib.util
import math
import os
import pickle
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location('weights_sim', os.path.join(HERE, 'weights_sim.py'))
sim = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sim)
spec = importlib.util.spec_from_file_location('jaccard', os.path.join(HERE, 'jaccard.py'))
jaccard = importlib.util.module_from_spec(spec)
spec.loader.exec_module(jaccard)


def load_tokens(reference, path):
    cache = path + '.tokens5.pickle'  # (.tokens.pickle: flags without m16)
    if os.path.exists(cache) and os.path.getmtime(cache) > os.path.getmtime(path):
        return pickle.load(open(cache, 'rb'))
    with open(path, 'rb') as f:
        out = subprocess.run([reference, 'tokens'], stdin=f, capture_output=True, check=True).stdout
    docs = {i: (np.array(h), np.array(fl)) for i, (h, fl) in sim.read_tokens(out).items() if len(h)}
    pickle.dump(docs, open(cache, 'wb'), protocol=4)
    return docs


def run_weight(L, a):
    if a.power == 1.0:
        return L.astype(float)
    L = L.astype(float)
    x = L ** a.power * 64 ** (1.5 - a.power) / 2
    if a.short_below:
        # steeper below short_below words, meeting the curve there
        S = a.short_below
        x = np.where(L < S, S ** a.power * 64 ** (1.5 - a.power) / 2 * (L / S) ** a.short_power, x)
    if a.sat:
        # past sat words the weight grows as L^sat_power only (scaled to 256 at 64)
        M = a.sat
        x = np.where(L > M, M ** a.power * (L / M) ** a.sat_power, L ** a.power)
        x = x * 256 / (M ** a.power * (64 / M) ** a.sat_power)
    return np.maximum(1, np.floor(x + 0.5))


def weights(h, fl, a, freq):
    """(distinct hashes, their weights) of one document under candidate a."""
    n = len(h)
    newrun = (fl & 1).astype(bool)
    newrun[0] = True
    run = np.cumsum(newrun) - 1
    rl = np.bincount(run)
    runlen = np.minimum(rl[run], 64)
    occ = run_weight(runlen, a)
    if a.version >= 5:
        # version 5: the run weight times the line's multiplier m16 / 16
        occ = sim.line_weight(occ, sim.line_m16(fl))
    if a.line_floor:
        # each occurrence's weight also scaled by its line's length (words),
        # min(1, max(line, floor_lo)/line_floor)^line_power
        newline = (fl & 2).astype(bool)
        newline[0] = True
        line = np.cumsum(newline) - 1
        ll = np.bincount(line)[line].astype(float)
        occ = occ * np.minimum(1.0, ll / a.line_floor) ** a.line_power
    if a.line_rel:
        # line length relative to the document's own: the length of the line
        # its median word sits in (hard-wrapped text keeps its weights)
        newline = (fl & 2).astype(bool)
        newline[0] = True
        line = np.cumsum(newline) - 1
        ll = np.bincount(line)[line].astype(float)
        typical = np.median(ll)
        occ = occ * np.minimum(1.0, ll / (a.line_rel * typical)) ** a.line_power
    if a.runs_per_line:
        # a run weighs less when its line holds many short runs (| · ; lists)
        newline = (fl & 2).astype(bool)
        newline[0] = True
        line = np.cumsum(newline) - 1
        runs_in_line = np.bincount(line, newrun.astype(float))[line]
        occ = occ / runs_in_line ** a.runs_per_line
    feats = [h]
    fw = [occ]
    if a.bigram:
        # word bigrams within a run as extra features
        same = ~newrun[1:]
        bh = (h[:-1] * np.uint64(0x9E3779B97F4A7C15) ^ (h[1:] >> np.uint64(7)) ^ (h[1:] << np.uint64(13)))[same]
        feats.append(bh)
        fw.append(a.bigram * np.minimum(occ[1:], occ[:-1])[same])
    allh = np.concatenate(feats)
    allw = np.concatenate(fw)
    uh, inv = np.unique(allh, return_inverse=True)
    w = np.bincount(inv, allw, minlength=len(uh))
    count = np.bincount(inv, minlength=len(uh))
    r = w * count ** a.occurrences * 16
    g = min(1.0, n / a.damp_words)
    if a.g_flat:
        # g constant (g_flat) up to g_flat * damp_words words, then as before
        g = max(g, a.g_flat) if n >= a.g_flat_from else g
    idx = np.nonzero(np.isin(uh, freq['keys']))[0]
    for k in idx:
        ppm, damp = freq['d'][int(uh[k])]
        damp = damp * a.damp_scale
        if ppm > damp:
            r[k] *= 1 - g * (1 - damp / ppm)
    if a.drop_below:
        r[r < a.drop_below * r.max()] = 0
    r = np.floor(r + 0.5)
    total = r.sum()
    share = a.cap / 100.0
    if a.cap_words and n > a.cap_words:
        share *= math.sqrt(a.cap_words / n)
    if a.cap_short:
        # a larger share for short documents, falling to the base share
        share = max(share, a.cap_short / 100.0 * min(1.0, (a.cap_short_words / n) ** a.cap_short_exp))
    cap = math.ceil(share * total)
    if a.cap_rank and len(r) > a.cap_rank:
        # the cap a multiple of the cap_rank-th heaviest word's weight: words
        # inserted with little weight (ads, a template) leave it unchanged
        kth = np.partition(r, len(r) - a.cap_rank)[len(r) - a.cap_rank]
        rc = math.ceil(a.cap_rank_mult * kth)
        cap = rc if not a.cap_rank_min else max(min(rc, cap), math.ceil(a.cap_rank_min / 100.0 * total))
    if a.cap_short_unlisted:
        # the larger share only for words not on the frequency list
        base = a.cap / 100.0 * (math.sqrt(a.cap_words / n) if a.cap_words and n > a.cap_words else 1.0)
        listed = np.isin(uh, freq['keys'])
        r[listed] = np.minimum(r[listed], max(math.ceil(base * total), 16 * (256 if a.power != 1.0 else 64)))
    least = 256 if a.power != 1.0 else 64
    r = np.minimum(r, max(cap, 16 * least))
    return uh, r


def fingerprint(h, fl, a, freq):
    uh, r = weights(h, fl, a, freq)
    bits = np.unpackbits(uh.view(np.uint8).reshape(-1, 8), axis=1, bitorder='little').astype(np.int8) * 2 - 1
    s = r @ bits
    return int(np.packbits((s > 0).astype(np.uint8), bitorder='little').view(np.uint64)[0])


def popcount(x):
    return np.unpackbits(x.view(np.uint8).reshape(x.shape + (8,)), axis=-1).sum(-1)


def score(name, docs, meta, pairs, a, freq, out):
    fps = {i: fingerprint(h, fl, a, freq) for i, (h, fl) in docs.items()}
    scores = {}
    for x, y, label, kind in pairs:
        d = bin(fps[x] ^ fps[y]).count('1') if x in fps and y in fps else 64
        scores.setdefault(meta[x], []).append((label, kind, d))
    res = {}
    for key in sorted(scores):
        r = scores[key]
        tp = sum(1 for lab, _, d in r if lab == 1 and d <= a.k)
        fp = sum(1 for lab, _, d in r if lab == 0 and d <= a.k)
        pos = sum(1 for lab, _, _ in r if lab == 1)
        kinds = {}
        for lab, kind, d in r:
            kinds.setdefault((-lab, kind), []).append(d <= a.k)
        other = [d for lab, kind, d in r if kind == 'other']
        f1 = 2 * tp / (2 * tp + fp + pos - tp)
        res[key] = f1
        out.append('%-8s %-8s %-4s %6.3f %6.3f %6.3f   %s' % (
            name, key[0], key[1], f1, tp / max(tp + fp, 1), tp / pos,
            ', '.join('%s %.2f' % (k[1], np.mean(v)) for k, v in sorted(kinds.items()))
            + '; other: mean distance %.1f, within 6 %.3f' % (np.mean(other), np.mean(np.array(other) <= 6))))
    return res


def diagnose(docs, meta, pairs, a, freq):
    """Per set, language and kind: where the weight that moves between the
    two pages of a pair sits (squared differences of the weight vectors as
    shares of the first page's squared norm: the angle between the two
    vectors sets the expected distance, 64 angle / pi), and the listed
    (frequency-list) words' share of a page's squared norm."""
    stats = {}
    for x, y, label, kind in pairs:
        if x not in docs or y not in docs:
            continue
        ua, ra = weights(*docs[x], a, freq)
        ub, rb = weights(*docs[y], a, freq)
        allh = np.union1d(ua, ub)
        va = np.zeros(len(allh))
        vb = np.zeros(len(allh))
        va[np.searchsorted(allh, ua)] = ra
        vb[np.searchsorted(allh, ub)] = rb
        n2 = va @ va
        cos = va @ vb / math.sqrt(n2 * (vb @ vb))
        both = (va > 0) & (vb > 0)
        listed = np.isin(allh, freq['keys'])
        diff = (va - vb) ** 2 / n2
        stats.setdefault(meta[x] + (kind,), []).append((
            64 * math.acos(min(1.0, cos)) / math.pi, diff.sum(), diff[both & listed].sum(),
            diff[both & ~listed].sum(), diff[~both].sum(), (va[listed] ** 2).sum() / n2))
    print('set      lang kind     expected d | moved: all, listed words in both, other words in both, words in one | listed share of |page|^2')
    for key in sorted(stats):
        v = np.array(stats[key]).mean(0)
        print('%-8s %-4s %-8s %5.1f      | %.4f  %.4f  %.4f  %.4f | %.2f' % (key + tuple(v)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('reference')
    ap.add_argument('sets')
    ap.add_argument('nd')
    ap.add_argument('--power', type=float, default=1.5, help='run weight L^A, scaled to 256 at 64 words (version 4: 1.5)')
    ap.add_argument('--cap', type=float, default=4.5, help='cap share, percent')
    ap.add_argument('--cap-words', type=int, default=10000, help='the share shrinks as sqrt(N / words) past N words')
    ap.add_argument('--cap-short', type=float, default=0, help='share of short documents, percent')
    ap.add_argument('--cap-short-words', type=float, default=500, help='... up to M words, then times (M / words)^E')
    ap.add_argument('--cap-short-exp', type=float, default=0.5, help='E')
    ap.add_argument('--cap-short-unlisted', action='store_true', help='the short share only for words off the frequency list')
    ap.add_argument('--g-flat', type=float, default=0, help='the damping factor g at least this')
    ap.add_argument('--short-below', type=float, default=0, help='run weights steeper (L^short-power) below this length')
    ap.add_argument('--short-power', type=float, default=3)
    ap.add_argument('--sat', type=float, default=0, help='run weights grow as L^sat-power only past this length')
    ap.add_argument('--sat-power', type=float, default=1)
    ap.add_argument('--g-flat-from', type=float, default=0)
    ap.add_argument('--occurrences', type=float, default=0.5, help='a word weighs its run weights times occurrences^B')
    ap.add_argument('--damp-scale', type=float, default=1.0, help='damping shares times this')
    ap.add_argument('--damp-words', type=float, default=1000, help='damped in full from this many words')
    ap.add_argument('--line-floor', type=float, default=0, help='each occurrence times min(1, line words / F)^P')
    ap.add_argument('--line-power', type=float, default=1.0, help='P of --line-floor and --line-rel')
    ap.add_argument('--line-rel', type=float, default=0, help='each occurrence times min(1, line words / (R * typical line))^P')
    ap.add_argument('--runs-per-line', type=float, default=0, help='a run weight divided by (runs of its line)^Q')
    ap.add_argument('--bigram', type=float, default=0, help='word bigrams within a run as features at this weight')
    ap.add_argument('--drop-below', type=float, default=0, help='drop words under this fraction of the heaviest')
    ap.add_argument('--version', type=int, default=5, choices=(4, 5),
                    help='5: line weights (m16 of the reference tokens) on the run weights; 4: none')
    ap.add_argument('--k', type=int, default=3)
    ap.add_argument('--no-long', action='store_true')
    ap.add_argument('--no-nd', action='store_true')
    ap.add_argument('--diagnose', action='store_true', help='where the moved weight of the pairs sits, no scores')
    ap.add_argument('--cap-rank', type=int, default=0, help='cap = mult x the K-th heaviest weight')
    ap.add_argument('--cap-rank-mult', type=float, default=2.0)
    ap.add_argument('--cap-rank-min', type=float, default=0)
    a = ap.parse_args()
    fr = sim.frequent_words(a.reference)
    freq = {'d': fr, 'keys': np.array(list(fr), dtype=np.uint64)}
    out = []

    meta = {}
    for line in open(os.path.join(a.sets, 'docs.tsv'), encoding='utf-8'):
        f = line.split('\t', 6)
        meta[int(f[0])] = (f[1], f[2])
    pairs = [(int(x), int(y), int(l), k) for x, y, l, k in (ln.split() for ln in open(os.path.join(a.sets, 'pairs.tsv')))]
    if a.diagnose:
        diagnose(load_tokens(a.reference, os.path.join(a.sets, 'docs.tsv')), meta, pairs, a, freq)
        return
    res = score('quality', load_tokens(a.reference, os.path.join(a.sets, 'docs.tsv')), meta, pairs, a, freq, out)
    if not a.no_nd:
        meta = {}
        for line in open(os.path.join(a.nd, 'docs.tsv'), encoding='utf-8'):
            f = line.split('\t', 6)
            meta[int(f[0])] = ('nd', f[1])
        pairs = [(int(x), int(y), int(l), k) for x, y, l, k in (ln.split() for ln in open(os.path.join(a.nd, 'pairs.tsv')))]
        res.update(score('nd', load_tokens(a.reference, os.path.join(a.nd, 'docs.tsv')), meta, pairs, a, freq, out))
    if not a.no_long:
        texts, src = {}, {}
        for line in open(os.path.join(a.sets, 'long.tsv'), encoding='utf-8'):
            f = line.rstrip('\n').split('\t')
            texts[int(f[0])] = f[3]
            src[int(f[0])] = (f[1], f[2])
        longs = load_tokens(a.reference, os.path.join(a.sets, 'long.tsv'))
        ids = np.array(sorted(longs))
        fp = np.array([fingerprint(*longs[i], a, freq) for i in ids], np.uint64)
        langs = np.array([src[i][0] for i in ids])
        jcache_path = os.path.join(a.sets, 'jaccard.pickle')
        jc = pickle.load(open(jcache_path, 'rb')) if os.path.exists(jcache_path) else {}
        counts = {}
        dist = []
        for lg in sorted(set(langs)):
            sel = np.nonzero(langs == lg)[0]
            for x in range(len(sel)):
                d = popcount(fp[sel[x]] ^ fp[sel[x + 1:]])
                dist.append(d)
                for y in np.nonzero(d <= 3)[0]:
                    p, q = int(ids[sel[x]]), int(ids[sel[x + 1 + y]])
                    if (p, q) not in jc:
                        sp = jaccard.shingles(texts[p].replace('\\n', '\n'))
                        sq = jaccard.shingles(texts[q].replace('\\n', '\n'))
                        jc[(p, q)] = len(sp & sq) / max(len(sp | sq), 1)
                    if jc[(p, q)] < 0.1:
                        big = len(texts[p]) >= 30000 and len(texts[q]) >= 30000
                        for key in (lg, lg + '/' + src[p][1] + ('' if src[p][1] == src[q][1] else '+' + src[q][1])):
                            c = counts.setdefault(key, [0, 0])
                            c[0] += 1
                            c[1] += big
        pickle.dump(jc, open(jcache_path, 'wb'))
        out.append('long: ' + ', '.join('%s %d (%d >= 30k)' % (k, v[0], v[1]) for k, v in sorted(counts.items()))
                   + '; mean distance %.1f' % np.concatenate(dist).mean())
    print('args: ' + ' '.join('%s=%s' % kv for kv in sorted(vars(a).items()) if kv[0] not in ('reference', 'sets', 'nd')))
    print('\n'.join(out))
    print('SUMMARY F1 en tune/heldout %.3f/%.3f zh %.3f/%.3f nd en/zh %.3f/%.3f' % (
        res[('tune', 'en')], res[('heldout', 'en')], res[('tune', 'zh')], res[('heldout', 'zh')],
        res.get(('nd', 'en'), 0), res.get(('nd', 'zh'), 0)))


if __name__ == '__main__':
    sys.exit(main())
