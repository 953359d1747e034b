#!/usr/bin/env python3
"""Builds the quality benchmark of simhash(text) (scripts/bench-quality.sh).

Real text from Debian packages nobody on the team wrote, in two sets that
are scored separately, so that nothing is tuned to one set:
  tune      the Debian Administrator's Handbook (debian-handbook, en-US and
            zh-CN), the set the defaults were chosen on;
  heldout   the Debian Reference (debian-reference-en, -zh-cn, -zh-tw:
            Simplified and Traditional Chinese), the Chinese manual pages
            (manpages-zh) and the Debian Edu manual (debian-edu-doc-zh-cn);
            never looked at while choosing.
Articles of web-page length are rendered on site templates (those of
bench/make_near_duplicates.py), then perturbed the way pages are on the web:
  adblock   a block of 3 to 5 advertisement lines inserted somewhere
  edits     4 small edits (a word, or two Han characters, replaced, deleted
            or inserted)
  mirror    the same body on another site's template, other counters
  combo     mirror + a block of 2 ads + 2 edits + one sentence deleted
and the negatives: a different article on the same template (7 per article)
and half of the body.

Long documents for the collision rate of unrelated documents: manual pages
of sections 1-8 in English (man-db's /usr/share/man, up to
LONG_PER_LANGUAGE) and every one in Chinese (manpages-zh) of at least 8,000
characters once the roff markup is stripped; the Debian copyright files,
changelogs, README and NEWS files of at least 8,000 characters (what is
installed varies from machine to machine); and the chapters of the Debian
Reference (en, zh-cn, zh-tw).  bench/make_long_near_duplicates.py perturbs
some of them for the recall of long near-duplicates.

Output (tab-separated, no header, bodies with \\n escaped):
  docs.tsv   doc_id set lang base variant template body
  pairs.tsv  doc_a doc_b label kind
  long.tsv   doc_id lang source body

Usage: make_quality_sets.py OUTDIR [ARTICLES_PER_SET_AND_LANGUAGE] [LONG_PER_LANGUAGE]
"""
import glob
import gzip
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_near_duplicates as nd  # noqa: E402

REFERENCE = '/usr/share/debian-reference'
MAN_ZH = '/usr/share/man/zh_CN'
LONG_TEXT_CHARS = 200000

ADS = {
    'en': ['Sponsored: Get 50% off premium VPS hosting this month only. Fast SSD servers, free backups.',
           'Advertisement - Learn Linux administration online with certified trainers. Free trial.',
           'Buy now: the new UltraBook Pro with 32 GB of memory and a 4K screen, from $999.',
           'Special offer: unlimited cloud storage for your family photos, first year free.',
           'Click here to compare the cheapest car insurance quotes in your area in two minutes.',
           'Hot deals today: wireless headphones, smart watches and gaming chairs up to 70% off.',
           'Subscribe to our newsletter and win a brand new smartphone every week!',
           'Try our AI writing assistant: better emails, reports and essays in seconds.',
           'Limited time: learn Spanish in 30 days with the app rated number one by teachers.',
           'Your next holiday starts here: flights and hotels at unbeatable prices, book today.'],
    'zh': ['推广：本月高性能云服务器五折优惠，固态硬盘、免费备份、全天候技术支持。',
           '广告 — 在线学习Linux系统管理，认证讲师授课，现在免费试听。',
           '限时抢购：新款超薄笔记本电脑，三十二GB内存，四K屏幕，仅售六千元。',
           '特惠活动：家庭照片无限云存储，首年免费，立即注册领取。',
           '点击这里，两分钟比较您所在地区最便宜的汽车保险报价。',
           '今日特价：无线耳机、智能手表、电竞椅低至三折，先到先得。',
           '订阅我们的新闻通讯，每周赢取一部全新智能手机！',
           '试试我们的人工智能写作助手：几秒钟写出更好的邮件和报告。',
           '限时优惠：三十天学会西班牙语，老师评分第一的应用程序。',
           '您的下一次旅行从这里开始：机票酒店价格超低，今天就预订。'],
}


def esc(s):
    """s as a field of COPY's text format (a tab or carriage return a space)."""
    return s.replace('\\', '\\\\').replace('\t', ' ').replace('\r', ' ').replace('\n', '\\n')


def strip_roff(text):
    """The text of a manual page's roff source, without markup."""
    out = []
    for line in text.split('\n'):
        if line.startswith(('.\\"', "'\\\"")):
            continue
        if line.startswith(('.', "'")):
            m = re.match(r"[.'](B|I|BR|BI|IB|IR|RB|RI|SH|SS|TP|IP|Nm|Nd|Sh|Ss|It|Fl|Ar)\s+(.*)", line)
            if not m:
                continue
            line = m.group(2).replace('"', '')
        line = re.sub(r'\\f[BIRP]|\\f\(..|\\\*\(..|\\\*.|\\\(..|\\[&|^%e-]', ' ', line)
        line = line.replace('\\', '')
        out.append(line)
    text = '\n'.join(out)
    return re.sub(r'\n{3,}', '\n\n', text).strip()


def read_man(path):
    try:
        with (gzip.open(path, 'rt', encoding='utf-8', errors='replace') if path.endswith('.gz')
              else open(path, encoding='utf-8', errors='replace')) as f:
            return strip_roff(f.read())
    except (OSError, EOFError):
        return ''


def man_paragraphs(paths):
    paras = []
    for path in paths:
        for p in re.split(r'\n\s*\n', read_man(path)):
            p = re.sub(r'\s+', ' ', p).strip()
            if p:
                paras.append(p)
    return paras


def articles_from(lang, paras, count, rng):
    """Groups consecutive paragraphs into articles of web-page length."""
    result = nd.group(lang, paras, set())
    rng.shuffle(result)
    return result[:count]


def html_paras(paths):
    return [p for path in paths for p in nd.paragraphs_of(path)]


def edit(body, lang, rng, vocab, count):
    """count small edits: a word (two Han characters) replaced, deleted or inserted."""
    body = list(body)
    for _ in range(count):
        i = rng.randrange(len(body))
        op = rng.random()
        if lang == 'en':
            words = body[i].split(' ')
            j = rng.randrange(len(words))
            if op < 0.3:
                del words[j]
            elif op < 0.6:
                words.insert(j, rng.choice(vocab))
            else:
                words[j] = rng.choice(vocab)
            body[i] = ' '.join(words)
        else:
            spans = [m.start() for m in re.finditer(r'[\u4e00-\u9fff]{2}', body[i])]
            if spans:
                j = rng.choice(spans)
                if op < 0.3:
                    body[i] = body[i][:j] + body[i][j + 2:]
                elif op < 0.6:
                    body[i] = body[i][:j] + rng.choice(vocab) + body[i][j:]
                else:
                    body[i] = body[i][:j] + rng.choice(vocab) + body[i][j + 2:]
    return body


def ad_block(lang, rng, n):
    return '\n'.join(rng.sample(ADS[lang], n))


def main():
    outdir = sys.argv[1]
    per = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    long_per = int(sys.argv[3]) if len(sys.argv) > 3 else 1200
    rng = random.Random(20251125)
    os.makedirs(outdir, exist_ok=True)
    hb = nd.HANDBOOK
    sources = {
        ('tune', 'en'): html_paras(sorted(glob.glob(os.path.join(hb, 'en-US', '*.html')))),
        ('tune', 'zh'): html_paras(sorted(glob.glob(os.path.join(hb, 'zh-CN', '*.html')))),
        ('heldout', 'en'): html_paras(sorted(glob.glob(os.path.join(REFERENCE, '*.en.html')))),
        ('heldout', 'zh'): html_paras(sorted(glob.glob(os.path.join(REFERENCE, '*.zh-cn.html'))))
        + html_paras(sorted(glob.glob(os.path.join(REFERENCE, '*.zh-tw.html'))))
        + man_paragraphs(sorted(glob.glob(os.path.join(MAN_ZH, 'man*', '*'))))
        + html_paras([nd.EDU_ZH]),
    }
    docs, pairs = [], []

    def add(set_, lang, base, variant, tpl, body, meta):
        doc_id = len(docs) + 1
        docs.append((doc_id, set_, lang, base, variant, tpl, nd.render(lang, tpl, body, meta)))
        return doc_id

    for (set_, lang), paras in sources.items():
        arts = articles_from(lang, paras, per, rng)
        if lang == 'en':
            vocab = sorted({w for a in arts for p in a for w in p.split() if w.isalpha()})
        else:
            vocab = sorted({m for a in arts for p in a for m in re.findall(r'[\u4e00-\u9fff]{2}', p)})
        originals = []
        for b, body in enumerate(arts):
            base = '%s-%s%04d' % (set_, lang, b)
            tpl = b % 3
            other_tpl = (tpl + 1) % 3
            meta = dict(nd.counters(rng), author=rng.choice(nd.AUTHORS[lang]))
            orig = add(set_, lang, base, 'original', tpl, body, meta)
            originals.append((orig, tpl))

            def pos(kind, doc):
                pairs.append((orig, doc, 1, kind))

            b2 = list(body)
            b2.insert(rng.randrange(len(b2) + 1), ad_block(lang, rng, rng.choice([3, 4, 5])))
            pos('adblock', add(set_, lang, base, 'adblock', tpl, b2, meta))
            pos('edits', add(set_, lang, base, 'edits', tpl, edit(body, lang, rng, vocab, 4), meta))
            pos('mirror', add(set_, lang, base, 'mirror', other_tpl, body,
                              dict(nd.counters(rng), author=rng.choice(nd.AUTHORS[lang]))))
            b4 = nd.delete_sentences(edit(body, lang, rng, vocab, 2), lang, rng)
            b4.insert(rng.randrange(len(b4) + 1), ad_block(lang, rng, 2))
            pos('combo', add(set_, lang, base, 'combo', other_tpl, b4,
                             dict(nd.counters(rng), author=rng.choice(nd.AUTHORS[lang]))))
            pairs.append((orig, add(set_, lang, base, 'half', tpl, nd.half_of(body, lang), meta), 0, 'half'))
        pairs += nd.other_pairs(originals, rng)

    with open(os.path.join(outdir, 'docs.tsv'), 'w', encoding='utf-8') as f:
        for d in docs:
            f.write('%d\t%s\t%s\t%s\t%s\t%d\t%s\n' % (d[:6] + (esc(d[6]),)))
    with open(os.path.join(outdir, 'pairs.tsv'), 'w', encoding='utf-8') as f:
        for p in pairs:
            f.write('%d\t%d\t%d\t%s\n' % p)

    # Long documents: manual pages of at least 8,000 characters, Debian
    # copyright files, and the chapters of the Debian Reference.
    longs = []
    en_pages = sorted(glob.glob('/usr/share/man/man[1-8]/*'))
    rng.shuffle(en_pages)
    n_en = 0
    for path in en_pages:
        if n_en >= long_per:
            break
        if os.path.getsize(path) < 3000:
            continue
        t = read_man(path)
        if len(t) >= 8000:
            longs.append(('en', 'man', t))
            n_en += 1
    for path in sorted(glob.glob(os.path.join(MAN_ZH, 'man*', '*'))):
        t = read_man(path)
        if len(t) >= 8000:
            longs.append(('zh', 'man-zh', t))
    # Debian copyright files of 8,000 characters or more, each text once:
    # licenses and notices of one legal vocabulary, the genre where the
    # words every document shares pull hardest (what is installed varies
    # from machine to machine).
    seen = set()
    for path in sorted(glob.glob('/usr/share/doc/*/copyright')):
        try:
            t = open(path, encoding='utf-8').read()
        except (UnicodeDecodeError, OSError):
            continue
        if len(t) >= 8000 and t not in seen:
            seen.add(t)
            longs.append(('en', 'copyright', t))
    # Changelogs (Debian's and upstream's, compressed) and the README and
    # NEWS files of /usr/share/doc, 8,000 characters or more, each text once
    # and its first LONG_TEXT_CHARS characters: formulaic genres where
    # unrelated documents share one vocabulary (and some share real text:
    # the X.org libraries' logs hold the same commits).
    for source, patterns in (('changelog', ['/usr/share/doc/*/changelog*.gz']),
                             ('readme', ['/usr/share/doc/*/NEWS*', '/usr/share/doc/*/README*'])):
        for path in sorted(p for pattern in patterns for p in glob.glob(pattern)):
            try:
                opener = gzip.open if path.endswith('.gz') else open
                with opener(path, 'rt', encoding='utf-8') as f:
                    t = f.read(LONG_TEXT_CHARS)
            except (UnicodeDecodeError, OSError, EOFError):
                continue
            if len(t) >= 8000 and t not in seen:
                seen.add(t)
                longs.append(('en', source, t))
    for path in sorted(glob.glob(os.path.join(REFERENCE, '[ac][hp]*.html'))):
        variant = os.path.basename(path).split('.')[1]
        longs.append(('en' if variant == 'en' else 'zh', 'reference-' + variant,
                      '\n'.join(nd.paragraphs_of(path))))
    with open(os.path.join(outdir, 'long.tsv'), 'w', encoding='utf-8') as f:
        for i, (lang, src, t) in enumerate(longs):
            f.write('%d\t%s\t%s\t%s\n' % (i + 1, lang, src, esc(t)))
    print('documents %d, labelled pairs %d, long documents %d' % (len(docs), len(pairs), len(longs)),
          file=sys.stderr)


if __name__ == '__main__':
    main()
