import sys, os, glob, random
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import make_quality_sets as m
lo, hi, n = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(7)
pages = sorted(glob.glob('/usr/share/man/man[1-8]/*')); rng.shuffle(pages)
out = open(sys.argv[4], 'w'); k = 0
for p in pages:
    if k >= n: break
    try: t = m.read_man(p)
    except Exception: continue
    if lo <= len(t) < hi:
        k += 1
        out.write('%d\t%s\n' % (k, t.replace('\\', '\\\\').replace('\t', ' ').replace('\n', '\\n').replace('\r', '\\r')))

