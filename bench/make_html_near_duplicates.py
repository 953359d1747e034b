#!/usr/bin/env python3
"""Builds the labelled near-duplicate benchmark of simhash_html (HTML pages).

The same labelled set as make_near_duplicates.py (its variants, pairs and
plain-text rendering), from other real HTML that Debian ships:
  English: PostgreSQL 15's manual (postgresql-doc-15) and Python 3's
           documentation (python3-doc)
  Chinese: the Debian Reference in zh-CN (debian-reference-zh-cn)
Each document is written twice:
  docs.tsv  the page as plain text (site name, navigation, meta line, the
            paragraphs, sidebar, footer, one a line): the ceiling, what
            simhash(text) scores on the text itself;
  html.tsv  the same page as a markup-heavy web page on one of three site
            templates per language: head with styles, scripts and JSON-LD,
            a header with the navigation as a list of links, breadcrumbs,
            the meta line, the article's paragraphs with inline markup
            (links, emphasis, entities), an advertisement as a block of its
            own, a sidebar of links, a footer, comments, tracking scripts.
            The templates differ in their markup: template 0 uses HTML5
            elements (nav, aside, footer), template 1 divs with class names
            (menu, sidebar, footer), template 2 a table layout with no hint
            in its markup.
The mirror and combo variants render the same article on another template.

With a third argument "handbook", the articles come from the texts of
make_near_duplicates.py instead (the Debian Administrator's Handbook in
English and Chinese, the Debian Edu manual in Chinese).

Usage: make_html_near_duplicates.py OUTDIR [ARTICLES_PER_LANGUAGE] [handbook]
"""
import html
import os
import random
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_near_duplicates as mnd  # noqa: E402

PG_DOC = '/usr/share/doc/postgresql-doc-15/html'
PY_DOC = '/usr/share/doc/python3-doc/html'
DEBREF = '/usr/share/debian-reference'


def html_files(root, suffix='.html'):
    out = []
    for d, _, files in os.walk(root):
        out += [os.path.join(d, f) for f in files if f.endswith(suffix)]
    return sorted(out)


SOURCES = {
    'en': html_files(PG_DOC) + html_files(PY_DOC),
    'zh': html_files(DEBREF, '.zh-cn.html'),
}

_articles = mnd.articles


def articles(lang, files, count, rng):
    return _articles(lang, SOURCES[lang], count, rng)


E = html.escape
HTML_PAGES = []
rng_markup = random.Random(7)

STYLE = '''<style>
body{font-family:Helvetica,Arial,sans-serif;margin:0;color:#222}
.%(p)s-header{background:#003366;color:#fff;padding:12px}
.%(p)s-nav a{color:#fff;margin-right:1em;text-decoration:none}
.%(p)s-article p{line-height:1.6;max-width:42em}
@media (max-width:600px){.%(p)s-sidebar{display:none}}
</style>'''

SCRIPT_HEAD = '''<script>
window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments);}
gtag('js',new Date());gtag('config','UA-%(id)d-1');
var siteConfig={name:"%(name)s",lang:"%(lang)s",features:["comments","share","newsletter"]};
</script>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Article","publisher":{"name":"%(name)s"}}</script>'''

SCRIPT_FOOT = '''<script>
(function(){var s=document.createElement('script');s.async=true;
s.src='https://cdn.example.net/analytics.js?site=%(id)d';
document.body.appendChild(s);if(document.cookie.indexOf('consent=')<0){showCookieBanner();}})();
</script>
<noscript><img src="https://cdn.example.net/pixel.gif?site=%(id)d" alt="tracking pixel"></noscript>'''


def inline_markup(p, lang):
    """The paragraph with some inline markup: a link, emphasis, entities."""
    s = E(p, quote=False)
    s = s.replace('"', '&quot;').replace("'", '&#39;')
    if lang == 'en':
        words = s.split(' ')
        if len(words) > 8:
            i = rng_markup.randrange(1, len(words) - 3)
            words[i] = '<a href="/wiki/%d">%s' % (rng_markup.randrange(9999), words[i])
            words[i + 1] = words[i + 1] + '</a>'
            j = rng_markup.randrange(len(words))
            if '<' not in words[j] and '&' not in words[j]:
                words[j] = '<em>%s</em>' % words[j]
        s = ' '.join(words)
    else:
        if len(s) > 20:
            i = rng_markup.randrange(2, len(s) - 10)
            if '&' not in s[i - 6:i + 10] and '<' not in s[i - 6:i + 10]:
                s = s[:i] + '<strong>' + s[i:i + 4] + '</strong>' + s[i + 4:]
    return s


def links(items, cls=None):
    return ''.join('<li%s><a href="/%s/%d">%s</a></li>' % (
        ' class="%s"' % cls if cls else '', 'p', k, E(x.strip())) for k, x in enumerate(items) if x.strip())


def split_side(side):
    for sep in ('：', ': '):
        if sep in side:
            head, rest = side.split(sep, 1)
            return head, [x for x in rest.replace('；', ';').split(';')]
    return '', side.split(';')


def html_page(lang, tpl, body, meta):
    t = mnd.TEMPLATES[lang][tpl]
    name = t['head']
    nav = t['nav'].split(' | ')
    side_head, side = split_side(t['side'])
    foot = t['foot']
    foot_text, foot_links = (foot.split(' | ', 1) + [''])[:2] if ' | ' in foot else (foot, '')
    metaline = E(t['meta'].format(**meta))
    ads = set(mnd.ADS[lang])
    paras = []
    for p in body:
        if p in ads:
            if tpl == 0:
                paras.append('<div class="ad-slot"><span class="ad-label">Ad</span><a href="https://ads.example.com/c?id=%d">%s</a></div>'
                             % (rng_markup.randrange(99999), E(p)))
            elif tpl == 1:
                paras.append('<div class="sponsored promo-box"><p><a href="https://ads.example.com/c">%s</a></p></div>' % E(p))
            else:
                paras.append('<table class="x9"><tr><td><a href="https://ads.example.com/c"><b>%s</b></a></td></tr></table>' % E(p))
        else:
            paras.append('<p>%s</p>' % inline_markup(p, lang))
    title = E(name)
    heading = E(body[0][:40]) if body else ''
    p = ['s%d' % tpl]
    head = ('<!DOCTYPE html>\n<html lang="%s"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            '<title>%s</title><link rel="stylesheet" href="/static/site.css?v=%d">%s%s</head>\n'
            % (lang, title, tpl, STYLE % {'p': p[0]},
               SCRIPT_HEAD % {'id': 1000 + tpl, 'name': E(name), 'lang': lang}))
    comment = '<!-- generated by SiteCMS 4.2, cache %d -->' % rng_markup.randrange(10 ** 6)
    if tpl == 0:
        page = (head + '<body>%s<header class="site-header"><a class="logo" href="/">%s</a>'
                '<nav class="main-nav"><ul>%s</ul></nav></header>\n'
                '<main><nav class="breadcrumbs"><a href="/">%s</a> &rsaquo; <a href="/docs">%s</a></nav>'
                '<article><h1>%s&hellip;</h1><div class="byline">%s</div>\n%s\n'
                '<div class="share">Share: <a href="#">Twitter</a> <a href="#">Facebook</a> <a href="#">E-mail</a></div>'
                '</article></main>\n'
                '<aside class="sidebar"><h3>%s</h3><ul>%s</ul></aside>\n'
                '<footer><p>%s</p><p>%s</p></footer>%s</body></html>\n'
                % (comment, E(name), links(nav), E(nav[0]), E(nav[1]), heading, metaline,
                   '\n'.join(paras), E(side_head), links(side), E(foot_text),
                   E(foot_links), SCRIPT_FOOT % {'id': 1000 + tpl}))
    elif tpl == 1:
        page = (head + '<body><div id="wrapper"><div id="top" class="topbar">%s</div>'
                '<div class="menu"><ul class="menu-list">%s</ul></div>\n'
                '<div id="content" class="content"><div class="post"><div class="post-meta">%s</div>'
                '<div class="entry">\n%s\n</div>%s'
                '<div class="comments"><h4>Comments</h4><div class="comment">Great article, thanks! &#128077;</div></div>'
                '</div></div>\n<div id="sidebar" class="sidebar widget"><h3>%s</h3><ul>%s</ul></div>\n'
                '<div id="footer" class="footer">%s <div class="footer-links">%s</div></div></div>%s</body></html>\n'
                % (E(name), links(nav, 'menu-item'), metaline, '\n'.join(paras), comment,
                   E(side_head), links(side), E(foot_text), E(foot_links),
                   SCRIPT_FOOT % {'id': 1000 + tpl}))
    else:
        page = (head + '<body bgcolor=white><table width=100%% cellpadding=0><tr><td colspan=2>'
                '<font size=+2><b>%s</b></font><br>%s</td></tr>\n'
                '<tr><td valign=top width=180>%s<br><br><b>%s</b><br>%s</td>\n'
                '<td valign=top><font size=-1 color=gray>%s</font>\n%s\n</td></tr>\n'
                '<tr><td colspan=2><small>%s<br>%s</small></td></tr></table>%s%s</body></html>\n'
                % (E(name), ' | '.join('<a href=/x/%d>%s</a>' % (k, E(x)) for k, x in enumerate(nav)),
                   '<br>'.join('<a href=/y/%d>%s</a>' % (k, E(x)) for k, x in enumerate(nav[:4])),
                   E(side_head), '<br>'.join('<a href=/z/%d>%s</a>' % (k, E(x.strip())) for k, x in enumerate(side)),
                   metaline, '\n'.join(paras), E(foot_text), E(foot_links), comment,
                   SCRIPT_FOOT % {'id': 1000 + tpl}))
    return page


_render = mnd.render


def render(lang, tpl, body, meta):
    HTML_PAGES.append(html_page(lang, tpl, body, meta))
    return _render(lang, tpl, body, meta)


def main():
    outdir = sys.argv[1]
    handbook = len(sys.argv) > 3 and sys.argv[3] == 'handbook'
    if not handbook:
        mnd.articles = articles
    mnd.render = render
    if handbook:
        del sys.argv[3]
        mnd.main()
    else:
        # main() lists the handbook's folders (articles() above ignores them)
        with tempfile.TemporaryDirectory() as d:
            for sub in ('en-US', 'zh-CN'):
                os.mkdir(os.path.join(d, sub))
            mnd.HANDBOOK = d
            mnd.main()
    with open(os.path.join(outdir, 'html.tsv'), 'w', encoding='utf-8') as f:
        for i, page in enumerate(HTML_PAGES):
            page = page.replace('\\', '\\\\').replace('\t', ' ').replace('\n', '\\n').replace('\r', ' ')
            f.write('%d\t%s\n' % (i + 1, page))


if __name__ == '__main__':
    main()
