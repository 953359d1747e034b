#!/usr/bin/env python3
"""Inputs of test/golden/vectors_v5.csv (algorithm version 5: line weights).

Writes CSV "body,features,n,weighting,numbers" on stdout: first the texts and
option sets of vectors_v4.csv, then multi-line texts made here from a fixed
seed: short lines (navigation, ads, meta lines) among long ones in English,
Chinese and both; line breaks "\\n", "\\r\\n", lone "\\r", U+2028, U+2029 and
mixes; empty lines, lines of spaces, of numbers or of punctuation only;
one-line texts; lines of 4,096 bytes and more; lines whose byte count the
normalization changes (full-width letters, ligatures, a soft hyphen between
"\\r" and "\\n", which the normalization removes: two breaks in the raw text);
and texts of more than 65,536 bytes whose first 65,536 bytes give another
typical line than the whole text, with a "\\r\\n" split at bytes
65,535/65,536, multibyte characters and U+2028 straddling byte 65,536, a line
crossing it, and a text that starts with 65,536 bytes of line breaks.

Usage (see test/golden/README):
    python3 test/golden/make_vectors_v5.py | /tmp/reference 5 > test/golden/vectors_v5.csv

Also checks its own long texts (typical_line below, a second and
independent computation of T from the specification): each text meant to
have a prefix that decides T differently really has one.
"""
import csv
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PREFIX = 65536
CAP = 4096

EN = ("the package system installs and removes software on a debian machine while "
      "keeping track of every file each package owns so that an upgrade replaces "
      "old versions cleanly and configuration files edited by the administrator "
      "are kept unless you ask otherwise security updates arrive through a "
      "separate archive which most servers should include in their sources list "
      "because a vulnerable library can expose every program linked against it "
      "kernel modules network interfaces printers mail transfer agents backup "
      "scripts cron jobs log rotation disk quotas user accounts groups passwords "
      "shell prompts terminal emulators fonts locales time zones firewall rules").split()
ZH = ("软件包管理系统在机器上安装和删除软件同时记录每个文件属于哪个包升级时干净地替换旧版本"
      "管理员编辑过的配置文件会被保留除非你另外要求安全更新通过单独的档案库到达大多数服务器"
      "应该把它加入源列表因为一个有漏洞的库会暴露所有链接它的程序内核模块网络接口打印机邮件"
      "传输代理备份脚本定时任务日志轮转磁盘配额用户账户组密码终端字体区域设置时区防火墙规则")
NAV_EN = ["Home | News | About us | Contact", "Buy now! 50% off", "Share this:", "Posted by admin",
          "Read more", "Subscribe to our newsletter", "Menu", "Login Register", "Next page >>",
          "Advertisement", "Tags: debian, linux", "Copyright 2024 Example Inc."]
NAV_ZH = ["首页 | 新闻 | 关于我们 | 联系", "广告：立即购买", "分享到：", "发布者：管理员", "阅读全文",
          "订阅我们的通讯", "菜单", "登录 注册", "下一页", "广告", "标签：自由软件", "版权所有"]
NUMBERS = ["2024-03-01 12:00:00", "12345 678 90", "3.14159", "1. 2. 3.", "+86 10 1234 5678", "42"]
PUNCT = ["-----", "* * *", "=== ===", "……", "——————", "| | |", "...", "#"]
ODD = ["ＦＵＬＬ ＷＩＤＴＨ ＬＥＴＴＥＲＳ ａｎｄ ｗｏｒｄｓ", "the ﬁle ﬂag ﬃx", "Straße STRASSE straße",
       "ｶﾀｶﾅ ﾃｷｽﾄ", "Ⅻ ㎏ ㍻ ①②③", "e\u0301te\u0301 cafe\u0301"]
BREAKS = ["\n", "\r\n", "\r", "\u2028", "\u2029"]
# seeds: the texts, and two groups of their own (chosen among a few so that
# a prefix of 65,535 or 65,537 bytes, or a length cap of 4,095 or 4,097,
# changes some fingerprint: see crossing_text and cap_texts)
SEED, CROSSING_SEED, CAP_SEED = 20261127, 2, 2


def en_words(r, n):
    return " ".join(r.choice(EN) for _ in range(n))


def en_line(r, n):
    s = en_words(r, n)
    return s[0].upper() + s[1:] + r.choice([".", ".", ",", "", ";"])


def zh_line(r, n):
    s = "".join(r.choice(ZH) for _ in range(n))
    k = r.randrange(0, max(1, n // 8) + 1)
    for _ in range(k):
        p = r.randrange(1, len(s))
        s = s[:p] + r.choice("，、") + s[p:]
    return s + r.choice("。。！")


def pseudo_line(r, length, run=1000):
    """A line of length bytes of made-up words (mostly each word once: their
    weights stay under the cap and follow the line's multiplier), in runs of
    run words ended by full stops."""
    syl = ["ka", "lo", "mi", "ne", "su", "ta", "po", "ri", "ve", "zu", "ha", "jo", "fe", "qu", "bi", "de"]
    s, k = "", 0
    while len(s) < length:
        k += 1
        s += "".join(r.choice(syl) for _ in range(r.randint(3, 4))) + (". " if k % run == 0 else " ")
    return s[:length - 1] + "z"


def mixed_line(r, n):
    parts = []
    while sum(len(p) for p in parts) < n * 3:
        parts.append(en_words(r, r.randint(1, 4)) if r.random() < 0.5 else zh_line(r, r.randint(2, 10)))
    return " ".join(parts)


def long_line(r, lang):
    if lang == "en":
        return en_line(r, r.randint(8, 30))
    if lang == "zh":
        return zh_line(r, r.randint(15, 60))
    return mixed_line(r, r.randint(8, 25))


def short_line(r, lang):
    x = r.random()
    if x < 0.15:
        return r.choice(NUMBERS)
    if x < 0.25:
        return r.choice(PUNCT)
    if x < 0.3:
        return r.choice(ODD)
    pool = NAV_EN if lang == "en" else NAV_ZH if lang == "zh" else NAV_EN + NAV_ZH
    return r.choice(pool)


def join(r, lines, style):
    """Lines joined by breaks of style (a break string or 'mixed'); some
    breaks doubled or tripled (empty lines)."""
    out = [lines[0]]
    for ln in lines[1:]:
        b = r.choice(BREAKS) if style == "mixed" else style
        if r.random() < 0.15:
            b = b * r.randint(2, 3)
        out.append(b + ln)
    return "".join(out)


def line_lengths(text):
    """(start, end) byte offsets of the raw lines of text (UTF-8)."""
    b = text.encode()
    spans, start, i = [], 0, 0
    while i < len(b):
        if b[i:i + 2] == b"\r\n":
            w = 2
        elif b[i] in (0x0A, 0x0D):
            w = 1
        elif b[i:i + 3] in (b"\xe2\x80\xa8", b"\xe2\x80\xa9"):
            w = 3
        else:
            i += 1
            continue
        spans.append((start, i))
        i += w
        start = i
    spans.append((start, len(b)))
    return spans


def typical_line(text, limit=PREFIX):
    """T over the first limit bytes (None: no non-empty line there)."""
    lens = sorted(min(CAP, min(e, limit) - s) for s, e in line_lengths(text) if s < limit and min(e, limit) > s)
    total, below = sum(lens), 0
    for x in lens:
        below += x
        if 2 * below >= total:
            return x
    return None


def pad_to(r, lines, lang, nbytes, style="\n", short=False):
    """Appends lines (with style breaks) until the text has at least nbytes."""
    text = style.join(lines)
    while len(text.encode()) < nbytes:
        ln = short_line(r, lang) if short else long_line(r, lang)
        lines.append(ln)
        text += style + ln
    return lines


def lines_of(r, lang, nbytes, length, nav=False):
    """Lines of length bytes each (words of lang, or with nav of the
    navigation lines, words no long line has), nbytes in all."""
    out, total = [], 0
    while total < nbytes:
        if nav:
            s = " ".join(r.choice(NAV_ZH if lang == "zh" else NAV_EN) for _ in range(1 + length // 10))
        elif lang == "zh":
            s = zh_line(r, max(1, length // 3 - 1))
        else:
            s = en_line(r, max(1, length // 6))
        s = s.encode()[:length].decode(errors="ignore").rstrip()
        s = s + "x" * (length - len(s.encode()))
        out.append(s)
        total += length + 1
    return out


def crossing_text(r):
    """A line crossing byte 65,536 (below)."""
    # a line crossing byte 65,536 with 300 bytes before it (the last an é's
    # first byte) and 4,096 or more in all: its prefix part holds the median
    # byte, between lines of made-up words of 131 and 150 bytes and lines of
    # numbers of 1,000 (T = 300; a prefix of 65,535 or 65,537 bytes would make T 299 or
    # 301 and move the multipliers of the 131- and 150-byte lines); counted
    # whole it would not
    short, a = [], 0
    while a < 32380:
        # runs of 5 words (w4 6) weigh 2 at m16 6 and 3 at 7; runs of 6
        # (w4 7) weigh 4 at m16 8 and 3 at 7
        short.append(pseudo_line(r, [131, 150][len(short) % 2], [5, 6][len(short) % 2]))
        a += len(short[-1].encode())
    long_ = [" ".join(r.choice(NUMBERS) for _ in range(80))[:1000].ljust(1000, "-") for _ in range(29)]
    mixed = short + long_
    r.shuffle(mixed)
    text = "\n".join(mixed) + "\n"
    filler = PREFIX - 300 - len(text.encode()) - 1
    text = "-" * filler + "\n" + text
    text += pseudo_line(r, 299) + "\u00e9" + "=" * 4100 + "\n"
    text += "\n".join(["1 2 3 4 5 6 7 8 9 " * 60] * 3)
    assert text.encode()[PREFIX - 1:PREFIX + 1] == "\u00e9".encode()
    assert (typical_line(text, PREFIX - 1), typical_line(text), typical_line(text, PREFIX + 1)) == (299, 300, 301)
    return text


def long_texts(r):
    texts = []
    # prefix T short (its short lines hold a little more than half of it),
    # the whole's T long; a "\r\n" split at bytes 65,535/65,536
    short = lines_of(r, "en", 33500, 24, nav=True)
    medium = lines_of(r, "en", 31000, 200)
    text = "\n".join(short + medium)
    n = len(text.encode())
    text += "\n" + "y" * (PREFIX - 1 - n - 1) + "\r\n" + "\n".join(lines_of(r, "en", 2500, 200))
    assert text.encode()[PREFIX - 1:PREFIX + 1] == b"\r\n"
    texts.append(text)
    # prefix T long, the whole's T short; a Chinese character on bytes
    # 65,535..65,537 in a line crossing byte 65,536
    long_ = lines_of(r, "zh", 33500, 300)
    short = lines_of(r, "zh", 30500, 30, nav=True)
    text = "\n".join(long_ + short) + "\n"
    n = len(text.encode())
    text += "z" * (PREFIX - 1 - n) + "软件包" + zh_line(r, 40) + "\n" + "\n".join(lines_of(r, "zh", 10000, 30, nav=True))
    assert text.encode()[PREFIX - 1:PREFIX + 2] == "软".encode()
    texts.append(text)
    # mixed text; U+2028 on bytes 65,534..65,536 (its last byte past the
    # prefix), then a line of 5,000 bytes
    body = lines_of(r, "en", 20000, 80) + lines_of(r, "zh", 20000, 150) + lines_of(r, "en", 21000, 40, nav=True)
    text = "\u2029".join(body)
    n = len(text.encode())
    text += "\u2029" + "w" * (PREFIX - 2 - n - 3) + "\u2028"
    assert text.encode()[PREFIX - 2:PREFIX + 1] == b"\xe2\x80\xa8"
    text += mixed_line(r, 1400)[:5000] + "\u2028" + "\u2028".join(NAV_EN[:6])
    texts.append(text)
    texts.append(crossing_text(random.Random(CROSSING_SEED)))
    texts[2], texts[3] = texts[3], texts[2]
    # the first 65,536 bytes are line breaks: no line of the prefix is
    # non-empty (T undefined: every multiplier 16, the reference's reading)
    text = "\r\n" * (PREFIX // 2) + "\n".join([long_line(r, "en") for _ in range(6)] + NAV_EN[:4])
    texts.append(text)
    for t in texts[:3]:
        a, b = typical_line(t), typical_line(t, 1 << 30)
        assert a != b, (a, b)
    return texts


def cap_texts(r):
    """Lines of 4,095 and 4,096 bytes (below)."""
    out = []
    # the cap exactly: lines of 4,095 or 4,096 bytes next to one of 5,000
    # (T 4,096: m16 15 for the 4,095 bytes; 16 for 4,096, and T 4,096 only if
    # the 5,000 bytes count as 4,096), made-up words in runs of 14 (w4 26:
    # weight 24 at m16 15)
    for i in range(6):
        pair = [pseudo_line(r, 4095 + i % 2, 14), pseudo_line(r, 5000, r.choice([3, 14, 40]))]
        r.shuffle(pair)
        out.append(BREAKS[i % 5].join(pair))
    return out


def short_texts(r):
    texts = []
    langs = ["en", "zh", "mixed"]
    # one-line texts
    for i in range(40):
        lang = langs[i % 3]
        texts.append(long_line(r, lang) if i % 2 else short_line(r, lang))
    # short lines among long ones, every break style
    for i in range(200):
        lang = langs[i % 3]
        nlines = r.randint(2, 16)
        share = r.choice([0.1, 0.3, 0.5, 0.7, 0.9])
        lines = [short_line(r, lang) if r.random() < share else long_line(r, lang) for _ in range(nlines)]
        if r.random() < 0.1:
            lines.insert(r.randrange(len(lines) + 1), " " * r.randint(1, 40))
        style = (BREAKS + ["mixed", "mixed"])[i % 7]
        text = join(r, lines, style)
        if r.random() < 0.1:
            text = r.choice(BREAKS) + text
        if r.random() < 0.1:
            text += r.choice(BREAKS)
        texts.append(text)
    # the same text with each break style (same lines: same fingerprint)
    for i in range(6):
        lines = [long_line(r, "en"), short_line(r, "en"), long_line(r, "zh"), short_line(r, "zh")]
        for b in BREAKS:
            texts.append(b.join(lines))
    # lines of only numbers or punctuation, and spaces
    for i in range(20):
        lines = [r.choice(NUMBERS + PUNCT) for _ in range(r.randint(1, 8))]
        lines.insert(r.randrange(len(lines) + 1), long_line(r, langs[i % 3]))
        if i % 4 == 0:
            lines.insert(0, " " * 300)
        texts.append(join(r, lines, "mixed"))
    # byte lengths the normalization changes; soft hyphens between breaks
    for i in range(20):
        lines = [r.choice(ODD), long_line(r, langs[i % 3]), r.choice(ODD) * r.randint(1, 4), short_line(r, "en")]
        r.shuffle(lines)
        text = join(r, lines, "mixed")
        if i % 2 == 0:
            text = text.replace("\n", "\u00ad\n", 2)
            text += "\r\u00ad\n" + short_line(r, "en") + "\r\u00ad\u00ad\n" + long_line(r, "en")
        if i % 5 == 0:
            text = "\ufeff" + text + "\u200b\u2028\u200b" + short_line(r, "zh")
        texts.append(text)
    # mostly short lines (T small: long lines weigh in full, short ones too)
    for i in range(20):
        lang = langs[i % 3]
        texts.append(join(r, [short_line(r, lang) for _ in range(r.randint(3, 25))] + [long_line(r, lang)], "\n"))
    # lines of 4,096 bytes and more
    for i, length in enumerate([4095, 4096, 4097, 5000, 9000]):
        lang = langs[i % 3]
        big = lines_of(r, lang if lang != "mixed" else "en", 1, length)[0]
        lines = [short_line(r, lang), big, long_line(r, lang), short_line(r, lang)]
        if i == 4:
            lines = [big]
        texts.append(join(r, lines, BREAKS[i]))
    # ties: 2 (sum of lengths <= t) = sum exactly, T = t (not the next
    # length); lines of a, b and a + b bytes in any order
    for i in range(12):
        lang = ["en", "zh"][i % 2]
        a = r.randint(8, 60)
        b = r.randint(a + 1, 120)
        lines = [lines_of(r, lang, 1, a, nav=True)[0], lines_of(r, lang, 1, b)[0], lines_of(r, lang, 1, a + b)[0]]
        r.shuffle(lines)
        text = join(r, lines, BREAKS[i % 5])
        assert typical_line(text) == b
        texts.append(text)
    # lines past 4,096 bytes decide T only as 4,096
    for lang in ["en", "zh"]:
        texts.append("\n".join([lines_of(r, lang, 1, 9000)[0], lines_of(r, lang, 1, 3000, nav=True)[0],
                                lines_of(r, lang, 1, 3000, nav=True)[0]]))
        texts.append("\r\n".join([lines_of(r, lang, 1, 3000, nav=True)[0], lines_of(r, lang, 1, 5000)[0]]))
    texts += cap_texts(random.Random(CAP_SEED))
    return texts


# option sets of the new texts: each text has the default; every third also
# one of the others in turn (those with a line weight and those without)
OTHERS = [("words", 1, "runs", "true"), ("shingles", 1, "runs", "false"), ("words", 1, "tf", "false"),
          ("shingles", 0, "runs", "false"), ("chars", 0, "runs", "false"), ("words", 1, "log", "false"),
          ("words", 1, "binary", "false"), ("chars", 2, "tf", "false")]


def main():
    w = csv.writer(sys.stdout, lineterminator="\n", quoting=csv.QUOTE_ALL)
    w.writerow(["body", "features", "n", "weighting", "numbers"])
    with open(os.path.join(HERE, "vectors_v4.csv"), newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))[1:]
    for row in rows:
        w.writerow(row[:5])
    r = random.Random(SEED)
    shorts = short_texts(r)
    for i, text in enumerate(shorts):
        w.writerow([text, "words", 0, "runs", "false"])
        if i % 3 == 0:
            w.writerow([text] + list(OTHERS[(i // 3) % len(OTHERS)]))
    for text in long_texts(r):
        w.writerow([text, "words", 0, "runs", "false"])
    print("%d new texts" % (len(shorts) + 4), file=sys.stderr)


if __name__ == "__main__":
    main()
