#!/usr/bin/python3
"""Simulates other caps of long documents (doc/benchmarks.md, "Algorithm
version 7"): recomputes fingerprints from features exported without the cap
and counts, per variant, the unrelated long-document pairs (word 5-shingle
Jaccard < 0.1, bench/jaccard.py) within 3 bits (and 4-6 bits, where counts
are less sparse), those with both documents of 30,000 characters or more,
and the recall of near-duplicates of long documents.

Inputs in $CAPSIM_DIR (default .), made on a server running the experiment
build of branch exp22 with SIMHASH_CAPN=1000000 in its environment (a cap of
5,000 % never binds), that build's simhash_features() as x22_features():
  p_aman.tsv, p_qlong.tsv, p_qnear.tsv   doc id, occurrences, weight, hash of
      every feature (\copy (SELECT id, f.occurrences, f.weight, f.hash::text
      FROM t, x22_features(t.body) f) TO ...)
  m_aman.tsv (id, lang, source, length, name), m_qlong.tsv (id, lang,
      source, length), m_qnear.tsv (id, lang, source, base, variant, length)
  allman.tsv (id, lang, source, name, body) and long.tsv (bench-quality's)
aman: every manual page of 8,000 characters or more on the machine; qlong
and qnear: bench-quality.sh's long documents and their near-duplicates.
Documents of 700-1,400 words are approximated (their features carry the full
robust weights, not version 6's blend); longer ones are exact (the C
implementation of the variant chosen matched this on 1,629 of 1,629).

Usage: CAPSIM_DIR=dir bench/experiments/cap_sim.py '{"cw": 1400, "ce": 1.0}' ...
  capn: the cap in 1/200 of the total (9); cw: the word count from which it
  shrinks (10000); ce: the exponent of cw / N (0.5); p: occurrences^p in
  place of sqrt.
"""
import collections
import json
import math
import os
import pickle
import sys
import time

import numpy as np
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from jaccard import shingle_counts, shared_running
P = np.arange(64, dtype=np.uint64)

def load(fn):
    ids=[];occ=[];w=[];h=[]
    for l in open(fn):
        x=l.rstrip('\n').split('\t')
        ids.append(int(x[0]));occ.append(int(x[1]));w.append(float(x[2]));h.append(int(x[3],16))
    ids=np.array(ids);occ=np.array(occ,dtype=np.float64);w=np.array(w);h=np.array(h,dtype=np.uint64)
    order=np.argsort(ids,kind='stable')
    ids,occ,w,h=ids[order],occ[order],w[order],h[order]
    uniq,start,cnt=np.unique(ids,return_index=True,return_counts=True)
    bits=(((h[:,None]>>P)&np.uint64(1)).astype(np.int8)*2-1)
    return dict(ids=ids,occ=occ,w=w,bits=bits,uniq=uniq,start=start,cnt=cnt)

def fingerprints(d, w):
    s=np.add.reduceat(w[:,None]*d['bits'],d['start'],axis=0)
    f=(s>0).astype(np.uint64)
    return (f<<P).sum(axis=1,dtype=np.uint64)

def close_pairs(uniq, fp, k=3, group=None):
    out=[]
    for i in range(len(fp)):
        x=fp[i]^fp[i+1:]
        # popcount via bytes
        b=x.view(np.uint8).reshape(-1,8)
        c=np.unpackbits(b,axis=1).sum(axis=1)
        for j in np.nonzero(c<=k)[0]:
            a,bb=uniq[i],uniq[i+1+j]
            if group is None or group[a]==group[bb]:
                out.append((a,bb,int(c[j])))
    return out

def transform(d, cfg):
    """the capped weights of every feature of d under cfg (sixteenths)"""
    w=d['w'].copy(); occ=d['occ']
    capn=cfg.get('capn',9); cw=cfg.get('cw',10000); p=cfg.get('p',None); topk=cfg.get('topk',None)
    out=np.empty_like(w)
    for s,c in zip(d['start'],d['cnt']):
        ww=w[s:s+c]; oo=occ[s:s+c]
        if p is not None:
            # reweigh occurrences: w * occ^(p-0.5)
            ww=ww*np.power(oo,p-0.5)
        W=ww.sum(); N=oo.sum()
        cap=capn*W/200.0*((cw/N)**cfg.get('ce',0.5) if N>cw else 1.0)
        cap=max(math.ceil(cap*16)/16.0,256.0)
        r=np.minimum(ww,cap)
        out[s:s+c]=r
    return out

JC=os.path.join(os.environ.get('CAPSIM_DIR', '.'), 'jcache.pkl')
jc=pickle.load(open(JC,'rb')) if os.path.exists(JC) else {}
bodies={}
def body_of(key):
    return bodies[key]
scc={}
def sc(setname,a):
    if (setname,a) not in scc: scc[(setname,a)]=shingle_counts(bodies[(setname,a)])
    return scc[(setname,a)]
def jac(setname, a, b):
    k=(setname,a,b)
    if k not in jc:
        A=sc(setname,a); B=sc(setname,b)
        j=len(A.keys()&B.keys())/max(len(A.keys()|B.keys()),1)
        jc[k]=(j,max(shared_running(A,B),shared_running(B,A)))
    return jc[k]
def load_bodies(setname, fn, bodycol):
    for l in open(fn, encoding='utf-8'):
        f=l.rstrip('\n').split('\t')
        bodies[(setname,int(f[0]))]=f[bodycol].replace('\\n','\n')


def main():
    D=os.environ.get('CAPSIM_DIR', '.')
    def cached(name, fn):
        pk=os.path.join(D,'cache_%s.pkl'%name)
        if os.path.exists(pk): return pickle.load(open(pk,'rb'))
        d=load(fn); pickle.dump(d,open(pk,'wb'),protocol=4); return d
    sets={n:cached(n,os.path.join(D,'p_%s.tsv'%n)) for n in ('aman','qlong','qnear')}
    meta={}
    for l in open(os.path.join(D,'m_aman.tsv')):
        f=l.rstrip('\n').split('\t'); meta[('aman',int(f[0]))]=dict(lang=f[1],src=f[2],len=int(f[3]),name=f[4])
    for l in open(os.path.join(D,'m_qlong.tsv')):
        f=l.rstrip('\n').split('\t'); meta[('qlong',int(f[0]))]=dict(lang=f[1],src=f[2],len=int(f[3]))
    near={}
    for l in open(os.path.join(D,'m_qnear.tsv')):
        f=l.rstrip('\n').split('\t'); near[int(f[0])]=dict(lang=f[1],src=f[2],base=int(f[3]),var=f[4])
    load_bodies('aman',os.path.join(D,'allman.tsv'),4)
    load_bodies('qlong',os.path.join(D,'long.tsv'),3)
    cfgs=[json.loads(a) for a in sys.argv[1:]]
    for cfg in cfgs:
        t0=time.time(); res=[]
        for sn in ('aman','qlong'):
            d=sets[sn]; w=transform(d,cfg); fp=fingerprints(d,w)
            grp={u:meta[(sn,u)]['lang'] for u in d['uniq']}
            cp6=close_pairs(d['uniq'],fp,6,grp); cp=[(a,b) for a,b,c in cp6 if c<=3]
            u6=collections.Counter(c for a,b,c in cp6 if jac(sn,a,b)[0]<0.1)
            un=[(a,b) for a,b in cp if jac(sn,a,b)[0]<0.1]
            big=[(a,b) for a,b in un if meta[(sn,a)]['len']>=30000 and meta[(sn,b)]['len']>=30000]
            bysrc=collections.Counter(meta[(sn,a)]['src'] if meta[(sn,a)]['src']==meta[(sn,b)]['src'] else 'mixed' for a,b in un)
            res.append('%s un %d big %d %s k<=4,5,6: %d %d %d'%(sn,len(un),len(big),dict(bysrc),sum(v for c,v in u6.items() if c<=4),sum(v for c,v in u6.items() if c<=5),sum(u6.values())))
        d=sets['qnear']; w=transform(d,cfg); fp=fingerprints(d,w)
        idx={u:i for i,u in enumerate(d['uniq'])}
        orig={(m['src'],m['base']):i for i,m in near.items() if m['var']=='original'}
        rec=collections.defaultdict(list)
        for i,m in near.items():
            if m['var']=='original': continue
            o=orig[(m['src'],m['base'])]
            x=int(fp[idx[i]])^int(fp[idx[o]])
            rec[(m['src'],m['var'])].append(bin(x).count('1')<=3)
        srcs=sorted(set(s for s,v in rec))
        rs=' | '.join('%s %s'%(s, ' '.join('%.2f'%np.mean(rec[(s,v)]) for v in ('adblock','edits','combo','half'))) for s in srcs)
        print(json.dumps(cfg), ' ; '.join(res), '\n    near(ad/ed/co/half):', rs, '(%.0fs)'%(time.time()-t0), flush=True)
    pickle.dump(jc,open(JC,'wb'))



if __name__ == '__main__':
    main()
