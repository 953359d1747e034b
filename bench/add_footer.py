#!/usr/bin/env python3
"""The quality sets with one long boilerplate sentence appended to every
page's last line (its footer), a cookie notice of 47 English words or 97
Han characters: a stress set for weightings that favour long runs or a few
heavy words, where the same long sentence on every page pulls unrelated
pages together (doc/benchmarks.md, "Version 4: run weights and the cap of
very long documents", and its issue-13 follow-up).  Writes OUT/docs.tsv and
links OUT/pairs.tsv to the original pairs.

Usage: add_footer.py SETS OUT
"""
import os
import sys

EN = ("This website uses cookies and similar technologies to improve your browsing experience, to analyse traffic "
      "and to personalise the content and the advertisements that you see, and by continuing to use this website you "
      "agree to our use of cookies as described in our privacy policy and terms of service.")
ZH = ("本网站使用浏览器缓存文件及类似技术来改善您的浏览体验、分析网站流量并为您提供个性化的内容和广告，"
      "继续使用本网站即表示您同意我们按照隐私政策和服务条款中所述的方式使用这些技术和收集相关的访问数据。")


def main():
    sets, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(sets, 'docs.tsv'), encoding='utf-8') as f, \
            open(os.path.join(out, 'docs.tsv'), 'w', encoding='utf-8') as o:
        for line in f:
            p = line.rstrip('\n').split('\t')
            p[6] += (' ' + EN) if p[2] == 'en' else ZH
            o.write('\t'.join(p) + '\n')
    link = os.path.join(out, 'pairs.tsv')
    if not os.path.exists(link):
        os.symlink(os.path.abspath(os.path.join(sets, 'pairs.tsv')), link)


if __name__ == '__main__':
    main()
