#!/usr/bin/env python3
"""Builds the labelled near-duplicate benchmark of simhash(text).

Real text from Debian documentation packages nobody on the team wrote:
  English: the Debian Administrator's Handbook (debian-handbook, en-US)
  Chinese: the same handbook in zh-CN and the Debian Edu bookworm manual
           (debian-edu-doc-zh-cn)
Paragraphs are cut out of the HTML and grouped into articles of web-page
length.  Every article is rendered as the text of a web page (what a
crawler's text extraction keeps) on one of three site templates per language:
site name, navigation, a meta line with author, date, view and comment
counts, a sidebar, a footer.  Then the variants that make near-duplicates
on the web, and hard negatives:

  positives (label 1), each against the original page:
    counters   same page, other date and counters
    ad         an advertisement paragraph inserted
    edits      three small word edits
    deleted    one or two sentences deleted
    mirror     the same body on another site's template
    moved      one paragraph moved elsewhere
    wrapped    the body hard-wrapped like plain text, paragraphs separated
               by empty lines
    combo      mirror + counters + ad + one word edit
  negatives (label 0):
    half       the page cut to half its body, same template
    other      a different article on the same template (sampled, as many
               as there are positives)
Output (tab-separated, no header):
  docs.tsv   doc_id lang base variant template body (body with \\n escaped)
  pairs.tsv  doc_a doc_b label kind
The unrelated same-template collision rate is computed over all pairs of
documents of different articles on the same template (in SQL).

Usage: make_near_duplicates.py OUTDIR [ARTICLES_PER_LANGUAGE]
"""
import html
import html.parser
import os
import random
import re
import sys

HANDBOOK = '/usr/share/doc/debian-handbook/html'
EDU_ZH = '/usr/share/doc/debian-edu-doc-zh-cn/debian-edu-bookworm-manual.html'


class Paragraphs(html.parser.HTMLParser):
    """Text of the paragraphs (<p>, DocBook's <div class="para">) outside
    <pre>, one string per paragraph."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out, self.cur, self.pre = [], None, 0

    def handle_starttag(self, tag, attrs):
        if tag == 'pre':
            self.pre += 1
        if tag == 'p' or (tag == 'div' and ('class', 'para') in attrs):
            self.flush()
            self.cur = []
        elif tag in ('div', 'table', 'ul', 'ol', 'li'):
            self.flush()

    def handle_endtag(self, tag):
        if tag == 'pre':
            self.pre -= 1
        if tag in ('p', 'div', 'li', 'td', 'table', 'ul', 'ol'):
            self.flush()

    def handle_data(self, data):
        if self.cur is not None and self.pre == 0:
            self.cur.append(data)

    def flush(self):
        if self.cur is not None:
            text = re.sub(r'\s+', ' ', ''.join(self.cur)).strip()
            if text:
                self.out.append(text)
        self.cur = None


def paragraphs_of(path):
    p = Paragraphs()
    with open(path, encoding='utf-8') as f:
        p.feed(f.read())
    return p.out


def handbook_pages(sub, page_bytes=8192, total_bytes=0):
    """Consecutive paragraphs of the handbook in language sub ('en-US',
    'zh-CN') grouped into pages of at least page_bytes of UTF-8, each a list
    of paragraphs; with total_bytes, the paragraphs repeat until the pages
    hold that many bytes in all (the last partial page is dropped)."""
    d = os.path.join(HANDBOOK, sub)
    paras = [p for f in sorted(os.listdir(d)) if f.endswith('.html')
             for p in paragraphs_of(os.path.join(d, f))]
    cur, size_, total = [], 0, 0
    while paras:
        for p in paras:
            cur.append(p)
            size_ += len(p.encode())
            if size_ >= page_bytes:
                yield cur
                total += size_
                cur, size_ = [], 0
        if total >= total_bytes:
            return


def size(text, lang):
    return len(text.split()) if lang == 'en' else len(re.findall(r'[\u4e00-\u9fff]', text))


def group(lang, paragraphs, seen):
    """Groups consecutive paragraphs (not in seen, which it extends) into
    articles of web-page length."""
    result = []
    lo, hi = (180, 600) if lang == 'en' else (350, 1200)
    minpara = 12 if lang == 'en' else 25
    paras = []
    for p in paragraphs:
        if size(p, lang) < minpara or p in seen:
            continue
        seen.add(p)
        paras.append(p)
    cur = []
    for p in paras:
        cur.append(p)
        if sum(size(x, lang) for x in cur) >= lo:
            if len(cur) >= 3:
                body = cur
                while sum(size(x, lang) for x in body) > hi and len(body) > 3:
                    body = body[:-1]
                result.append(body)
            cur = []
    return result


def articles(lang, files, count, rng):
    """Groups paragraphs of each file into articles of web-page length."""
    seen, result = set(), []
    for path in files:
        result += group(lang, paragraphs_of(path), seen)
    rng.shuffle(result)
    return result[:count]


def half_of(body, lang):
    """The first half of an article's text, as one paragraph."""
    if lang == 'en':
        words = ' '.join(body).split(' ')
        return [' '.join(words[:len(words) // 2])]
    text = ''.join(body)
    return [text[:len(text) // 2]]


def other_pairs(originals, rng):
    """Hard negatives: 7 other articles on the same template per article
    (originals: (doc, template) pairs)."""
    by_tpl, pairs = {}, []
    for doc, tpl in originals:
        by_tpl.setdefault(tpl, []).append(doc)
    for doc, tpl in originals:
        for _ in range(7):
            other = rng.choice(by_tpl[tpl])
            if other != doc:
                pairs.append((doc, other, 0, 'other'))
    return pairs


TEMPLATES = {
    'en': [
        dict(head='TechNews Daily - News for Linux professionals',
             nav='Home | News | Reviews | Tutorials | Linux | Security | Cloud | About | Contact',
             meta='Posted by {author} on {date} · {views} views · {comments} comments',
             side='Popular this week: Ten tips for faster servers; Why we moved to ZFS; '
                  'A beginner\'s guide to firewalls; Kernel news roundup; Reader survey results',
             foot='© 2024 TechNews Daily. All rights reserved. Privacy Policy | Terms of Use | '
                  'Cookie Settings | Advertise with us | RSS'),
        dict(head='The Linux Corner: a community blog',
             nav='Start | Articles | Howto | Forum | Downloads | Events | Newsletter | Login',
             meta='{date} | written by {author} | read {views} times | {comments} replies',
             side='Tags: debian ubuntu sysadmin networking packaging desktop security server '
                  'Recent comments: thanks, this helped a lot; works on my machine too',
             foot='Content licensed under CC BY-SA unless noted otherwise. Hosted by volunteers. '
                  'Contact the editors | Imprint | Back to top'),
        dict(head='OpenSource Hub — knowledge base',
             nav='Docs | Guides | FAQ | Community | Blog | Jobs | Shop | Support | Search',
             meta='Last updated {date} by {author}; {views} page views, {comments} comments',
             side='Related guides: Installing a mail server; Backups with rsync; Managing users '
                  'and groups; Monitoring with Munin; Virtual machines made easy',
             foot='OpenSource Hub is not affiliated with the Debian project. Trademarks belong '
                  'to their owners. Sitemap | Accessibility | Privacy'),
    ],
    'zh': [
        dict(head='科技新闻网 — 专注开源与Linux资讯',
             nav='首页 | 新闻 | 评测 | 教程 | Linux | 安全 | 云计算 | 关于我们 | 联系我们',
             meta='作者：{author} 发布时间：{date} 阅读：{views} 评论：{comments}',
             side='本周热门：服务器提速十个技巧；我们为什么迁移到ZFS；防火墙入门指南；内核新闻汇总；读者调查结果',
             foot='© 2024 科技新闻网 版权所有 隐私政策 | 使用条款 | 广告合作 | 网站地图 | 京ICP备12345678号'),
        dict(head='Linux中文社区博客',
             nav='开始 | 文章 | 教程 | 论坛 | 下载 | 活动 | 订阅 | 登录 | 注册',
             meta='{date} | 作者 {author} | 浏览 {views} 次 | 回复 {comments} 条',
             side='标签：debian ubuntu 系统管理 网络 打包 桌面 安全 服务器 最新评论：谢谢分享，非常有用；我的电脑上也可以',
             foot='除特别注明外，本站内容采用知识共享署名许可协议。由志愿者维护。联系编辑 | 免责声明 | 返回顶部'),
        dict(head='开源知识库 — 文档与指南',
             nav='文档 | 指南 | 常见问题 | 社区 | 博客 | 招聘 | 商店 | 支持 | 搜索',
             meta='最后更新于{date}，作者{author}；页面浏览{views}次，评论{comments}条',
             side='相关指南：搭建邮件服务器；使用rsync备份；用户和组的管理；用Munin监控；轻松使用虚拟机',
             foot='本站与Debian项目无关。商标归其各自所有者所有。网站地图 | 无障碍 | 隐私'),
    ],
}

ADS = {
    'en': ['Sponsored: Get 50% off premium VPS hosting this month only. Fast SSD servers, '
           'free backups and 24/7 support. Sign up today at example-hosting.com!',
           'Advertisement — Learn Linux administration online with certified trainers. '
           'Join 20,000 students and start your free trial now.'],
    'zh': ['推广：本月高性能云服务器五折优惠，固态硬盘、免费备份、全天候技术支持，立即访问官网注册！',
           '广告 — 在线学习Linux系统管理，认证讲师授课，已有两万名学员加入，现在免费试听。'],
}
AUTHORS = {'en': ['admin', 'jsmith', 'Maria K.', 'editor'], 'zh': ['管理员', '小王', '编辑部', '李明']}


def counters(rng):
    return dict(date='%04d-%02d-%02d' % (rng.randint(2015, 2024), rng.randint(1, 12), rng.randint(1, 28)),
                views='{:,}'.format(rng.randint(10, 99999)), comments=rng.randint(0, 300))


def render(lang, tpl, body, meta):
    t = TEMPLATES[lang][tpl]
    lines = [t['head'], t['nav'], t['meta'].format(**meta)] + body + [t['side'], t['foot']]
    return '\n'.join(lines)


def sentences(p, lang):
    if lang == 'en':
        return [s for s in re.split(r'(?<=[.!?])\s+', p) if s]
    return [s for s in re.split(r'(?<=[。！？])', p) if s]


def edit_words(body, lang, rng, vocab, count):
    body = list(body)
    for _ in range(count):
        i = rng.randrange(len(body))
        if lang == 'en':
            words = body[i].split(' ')
            j = rng.randrange(len(words))
            if rng.random() < 0.3:
                del words[j]
            else:
                words[j] = rng.choice(vocab)
            body[i] = ' '.join(words)
        else:
            spans = [m.start() for m in re.finditer(r'[\u4e00-\u9fff]{2}', body[i])]
            if spans:
                j = rng.choice(spans)
                body[i] = body[i][:j] + rng.choice(vocab) + body[i][j + 2:]
    return body


def delete_sentences(body, lang, rng):
    body = list(body)
    for _ in range(rng.choice([1, 2])):
        i = rng.randrange(len(body))
        s = sentences(body[i], lang)
        if len(s) > 1:
            del s[rng.randrange(len(s))]
            body[i] = (' ' if lang == 'en' else '').join(s)
    return body


def wrap(body, lang, rng):
    """Hard-wraps each paragraph (72 columns, or 36 Han characters) and
    separates paragraphs by an empty line."""
    out = []
    for p in body:
        lines, cur = [], ''
        if lang == 'en':
            for w in p.split(' '):
                if cur and len(cur) + 1 + len(w) > 72:
                    lines.append(cur)
                    cur = w
                else:
                    cur = (cur + ' ' + w) if cur else w
        else:
            for ch in p:
                if len(cur) >= 36:
                    lines.append(cur)
                    cur = ''
                cur += ch
        if cur:
            lines.append(cur)
        out.append('\n'.join(lines) + '\n')
    return out


def main():
    outdir = sys.argv[1]
    per_lang = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    rng = random.Random(20240521)
    os.makedirs(outdir, exist_ok=True)
    sources = {
        'en': sorted(os.path.join(HANDBOOK, 'en-US', f) for f in os.listdir(os.path.join(HANDBOOK, 'en-US'))
                     if f.endswith('.html')),
        'zh': sorted(os.path.join(HANDBOOK, 'zh-CN', f) for f in os.listdir(os.path.join(HANDBOOK, 'zh-CN'))
                     if f.endswith('.html')) + [EDU_ZH],
    }
    docs, pairs = [], []

    def add(lang, base, variant, tpl, body, meta):
        doc_id = len(docs) + 1
        docs.append((doc_id, lang, base, variant, tpl, render(lang, tpl, body, meta)))
        return doc_id

    for lang in ('en', 'zh'):
        arts = articles(lang, sources[lang], per_lang, rng)
        if lang == 'en':
            vocab = sorted({w for a in arts for p in a for w in p.split() if w.isalpha()})
        else:
            vocab = sorted({m for a in arts for p in a for m in re.findall(r'[\u4e00-\u9fff]{2}', p)})
        originals = []
        for b, body in enumerate(arts):
            base = '%s%04d' % (lang, b)
            tpl = b % 3
            other_tpl = (tpl + 1) % 3
            meta = dict(counters(rng), author=rng.choice(AUTHORS[lang]))
            orig = add(lang, base, 'original', tpl, body, meta)
            originals.append((orig, tpl))

            def pos(kind, doc):
                pairs.append((orig, doc, 1, kind))

            pos('counters', add(lang, base, 'counters', tpl, body, dict(counters(rng), author=meta['author'])))
            b2 = list(body)
            b2.insert(rng.randrange(len(b2) + 1), rng.choice(ADS[lang]))
            pos('ad', add(lang, base, 'ad', tpl, b2, meta))
            pos('edits', add(lang, base, 'edits', tpl, edit_words(body, lang, rng, vocab, 3), meta))
            pos('deleted', add(lang, base, 'deleted', tpl, delete_sentences(body, lang, rng), meta))
            pos('mirror', add(lang, base, 'mirror', other_tpl, body, dict(counters(rng), author=rng.choice(AUTHORS[lang]))))
            b3 = list(body)
            p = b3.pop(rng.randrange(len(b3)))
            b3.insert(rng.randrange(len(b3) + 1), p)
            pos('moved', add(lang, base, 'moved', tpl, b3, meta))
            # plain-text mirror: the body hard-wrapped, paragraphs separated by
            # an empty line (mailing list archives, text dumps)
            pos('wrapped', add(lang, base, 'wrapped', tpl, wrap(body, lang, rng), meta))
            b4 = edit_words(body, lang, rng, vocab, 1)
            b4.insert(rng.randrange(len(b4) + 1), rng.choice(ADS[lang]))
            pos('combo', add(lang, base, 'combo', other_tpl, b4, dict(counters(rng), author=rng.choice(AUTHORS[lang]))))
            # hard negative: half the body, same template and counters
            pairs.append((orig, add(lang, base, 'half', tpl, half_of(body, lang),
                                    dict(counters(rng), author=meta['author'])), 0, 'half'))
        # hard negatives: other articles on the same template, as many as positives
        pairs += other_pairs(originals, rng)

    with open(os.path.join(outdir, 'docs.tsv'), 'w', encoding='utf-8') as f:
        for d in docs:
            body = d[5].replace('\\', '\\\\').replace('\t', ' ').replace('\n', '\\n')
            f.write('%d\t%s\t%s\t%s\t%d\t%s\n' % (d[0], d[1], d[2], d[3], d[4], body))
    with open(os.path.join(outdir, 'pairs.tsv'), 'w', encoding='utf-8') as f:
        for p in pairs:
            f.write('%d\t%d\t%d\t%s\n' % p)
    counts = {}
    for d in docs:
        counts[d[1]] = counts.get(d[1], 0) + 1
    print('documents: %s; labelled pairs: %d' % (counts, len(pairs)), file=sys.stderr)


if __name__ == '__main__':
    main()
