#!/usr/bin/env python3
"""Collects the long documents (8,000 characters or more) that the files of
some Debian packages hold, for scripts/bench-long.sh: a set of real long
documents chosen by package, so that a weighting can be checked on text it
was not tuned on (the packages scripts/bench-quality.sh samples are the
tuning set).  Each file's text once (identical texts are kept once).

  man pages     every page under /usr/share/man of the packages, as the
                roff source without markup (source "man", as
                bench/make_quality_sets.py reads them) and, with --rendered,
                also as man(1) renders it for an 80-column terminal (source
                "man-rendered": hard-wrapped lines, headings, indentation);
                lang from the folder (/usr/share/man/de/... is "de", else "en")
  HTML          every .html file the packages install outside /usr/share/man,
                as text (source "html": the text of the page outside script
                and style, a line per block element)
  plain text    every .txt, .md and .rst file (source "text")
HTML and plain text count as English (lang "en") whatever their language.

Usage: collect_long_documents.py [--rendered] OUT.tsv PACKAGE_OR_FOLDER...
(a folder: every file under it, e.g. packages unpacked with dpkg -x)
OUT.tsv has the columns of bench-quality's long.tsv: doc_id lang source
body (COPY text format).
"""
import gzip
import html.parser
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_quality_sets import esc, strip_roff  # noqa: E402

MIN_CHARS = 8000
BLOCKS = {'p', 'div', 'br', 'li', 'tr', 'td', 'th', 'dt', 'dd', 'pre', 'table', 'ul', 'ol',
          'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'section', 'article', 'header', 'footer', 'nav',
          'blockquote', 'hr', 'title'}


class TextOfHtml(html.parser.HTMLParser):
    """The text of a page outside script and style, a line break at each block element."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out, self.skip = [], 0

    def handle_starttag(self, tag, attrs):
        if tag in ('script', 'style'):
            self.skip += 1
        elif tag in BLOCKS:
            self.out.append('\n')

    def handle_endtag(self, tag):
        if tag in ('script', 'style'):
            self.skip = max(self.skip - 1, 0)
        elif tag in BLOCKS:
            self.out.append('\n')

    def handle_data(self, data):
        if not self.skip:
            self.out.append(data)


def read(path):
    opener = gzip.open if path.endswith('.gz') else open
    try:
        with opener(path, 'rt', encoding='utf-8', errors='replace') as f:
            return f.read()
    except (OSError, EOFError):
        return ''


def tidy(text):
    lines = [re.sub(r'[ \t]+', ' ', line).strip() for line in text.split('\n')]
    return re.sub(r'\n{3,}', '\n\n', '\n'.join(lines)).strip()


def rendered_man(path):
    env = dict(os.environ, MANWIDTH='80', MAN_KEEP_FORMATTING='0', LC_ALL='C.UTF-8')
    try:
        out = subprocess.run(['man', '-l', path], env=env, capture_output=True, timeout=60).stdout
        out = subprocess.run(['col', '-bx'], input=out, capture_output=True, timeout=60).stdout
    except subprocess.TimeoutExpired:
        return ''
    return out.decode('utf-8', errors='replace').strip()


def files_of(package):
    """The files of an installed package, or every file under a folder
    (packages unpacked with dpkg -x, say, which leaves the system as it was)."""
    if os.path.isdir(package):
        paths = [os.path.join(d, f) for d, _, fs in os.walk(package) for f in fs]
    else:
        out = subprocess.run(['dpkg', '-L', package], capture_output=True, text=True)
        paths = out.stdout.split('\n')
    return [p for p in paths if p and os.path.isfile(p) and not os.path.islink(p)]


def main():
    args = sys.argv[1:]
    rendered = '--rendered' in args
    args = [a for a in args if a != '--rendered']
    out, packages = args[0], args[1:]
    docs, seen = [], set()

    def add(lang, source, text):
        if len(text) >= MIN_CHARS and text not in seen:
            seen.add(text)
            docs.append((lang, source, text))

    for package in packages:
        for path in sorted(files_of(package)):
            name = path[:-3] if path.endswith('.gz') else path
            m = re.search(r'/usr/share/man/(?:([a-z]{2})(?:_[A-Z]{2})?(?:\.[^/]*)?/)?man[^/]+/', path)
            if m:
                lang = m.group(1) or 'en'
                add(lang, 'man', strip_roff(read(path)))
                if rendered:
                    add(lang, 'man-rendered', rendered_man(path))
            elif name.endswith(('.html', '.htm')):
                parser = TextOfHtml()
                parser.feed(read(path))
                add('en', 'html', tidy(''.join(parser.out)))
            elif name.endswith(('.txt', '.md', '.rst')):
                add('en', 'text', read(path).strip())

    with open(out, 'w', encoding='utf-8') as f:
        for i, (lang, source, text) in enumerate(docs):
            f.write('%d\t%s\t%s\t%s\n' % (i, lang, source, esc(text)))
    counts = {}
    for lang, source, text in docs:
        counts[lang + '/' + source] = counts.get(lang + '/' + source, 0) + 1
    print(' '.join('%s %d' % kv for kv in sorted(counts.items())), file=sys.stderr)


if __name__ == '__main__':
    main()
