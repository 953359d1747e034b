#!/usr/bin/env bash
# Checks that two builds of the extension give the same fingerprints and
# features on real and random text (not part of the test suite; run it
# before committing a change to the segmentation or hashing hot path).
#
# Usage: sudo PG_CONFIG=... scripts/check-same-fingerprints.sh [BASE]
#   BASE    git revision to compare the working tree with (default main)
#   IGNORE  (environment) a regular expression: documents that match it are
#           compared and reported but may differ (for a change meant to
#           alter the fingerprints of some text)
#   VERSION (environment) the algorithm version the working tree computes
#           (its simhash(..., version => VERSION)), compared with BASE's
#           default; e.g. VERSION=3 checks that version 3 stays bit for bit
#           what main computed before version 4 (BASE must not have the
#           version argument then, i.e. predate version 4)
#
# The same cluster computes everything twice: first with BASE's build, then
# with the working tree's build installed over it (each in a new session, so
# each loads its own module).  Text: the paragraphs of the Debian handbook
# (English) as documents of about 8 kB, as is and with every non-ASCII
# character replaced by a space; the zh-CN handbook, as is and without its
# ASCII and Latin letters; random strings mixing ASCII with non-ASCII, and
# random CJK text.  Compared: simhash() under several option sets
# (numbers on and off) and simhash_features().  Exits non-zero on any
# difference.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
require_root "$@"
BASE=${1:-main}
IGNORE=${IGNORE:-}
VERSION=${VERSION:-}
install_deps
install_packages debian-handbook python3
make_workdir
start_cluster "-c shared_buffers=256MB -c max_parallel_workers_per_gather=0"

say "extracting text"
REPO_ROOT="$REPO_ROOT" python3 - "$WORK/docs.tsv" <<'PY'
import os, random, re, sys
sys.path.insert(0, os.path.join(os.environ['REPO_ROOT'], 'bench'))
import make_near_duplicates as m
out = open(sys.argv[1], 'w', encoding='utf-8')
def esc(s):
    return s.replace('\\', '\\\\').replace('\t', ' ').replace('\n', '\\n').replace('\r', '\\r')
n = 0
for lang, sub in (('en', 'en-US'), ('zh', 'zh-CN')):
    for page in m.handbook_pages(sub, 8192):
        n += 1
        out.write('%d\t%s\t%s\n' % (n, lang, esc('\n'.join(page))))
# Chinese with next to no ASCII (as scripts/bench-speed.sh's zh-dense): the
# zh-CN paragraphs without their runs of ASCII and Latin letters.
latin = re.compile(r'[\x00-\x7f\u00a0-\u024f]+')
for page in m.handbook_pages('zh-CN', 8192):
    n += 1
    out.write('%d\tzh-dense\t%s\n' % (n, esc('\n'.join(latin.sub('', p) for p in page))))
# Random strings: ASCII that exercises the word rules, with non-ASCII mixed
# in (letters, marks, curly quotes, dashes, CJK, Thai, Tai Tham, emoji, ZWJ,
# compatibility characters).
rnd = random.Random(42)
ascii_alpha = "aAbZzq19_.'',;:@\"-!? \t\n\r|/()#&aaaaeeee  "
extra = ("é“”‘’—–…　中文。ß\u0301Ａﬁ①ÅÅ\u200d\u00ad\u2028"
         "ไทยᨠ᪠᪥ꫛ꫞😀👍🏽ΣσςЖж\u0627\u0644\ufe0f\u3000\u00a0")
for i in range(20000):
    k = i % 4
    if k == 0:
        alphabet = ascii_alpha
    elif k == 1:
        alphabet = ascii_alpha * 8 + extra
    else:
        alphabet = ascii_alpha * 2 + extra
    length = rnd.choice((8, 40, 200, 2000)) if i % 500 else 70000
    s = ''.join(rnd.choice(alphabet) for _ in range(length))
    n += 1
    out.write('%d\trandom\t%s\n' % (n, esc(s)))
# Random CJK text: Han, kana and Hangul with the punctuation between runs
# (full-width, ideographic, curly quotes, dashes), a little ASCII and
# characters that need ICU (full-width letters, accents, marks).
cjk = ("中文近似重复检测的是了在和有一个" * 4 + "かがカガー々한국어" +
       "，。、；：！？（）“”「」《》—…・　" * 2 + "ＡＺ０ｶﾞé\u0301 a1.,'\n")
for i in range(5000):
    s = ''.join(rnd.choice(cjk) for _ in range(rnd.choice((8, 40, 200, 2000))))
    n += 1
    out.write('%d\trandom-cjk\t%s\n' % (n, esc(s)))
PY
chown "$RUN_USER" "$WORK/docs.tsv"

psql_ <<SQL
CREATE TABLE docs (id int, lang text, body text);
\copy docs FROM '$WORK/docs.tsv'
INSERT INTO docs SELECT id + 1000000, 'en-ascii', regexp_replace(body, '[^\x01-\x7f]', ' ', 'g')
  FROM docs WHERE lang = 'en';
CREATE TABLE results (build text, id int, what text, v text);
SQL

# Everything each build computes, one row per document and expression;
# $2: extra arguments of every call (", version => 3"), or none.
compute() {
    psql_ -v build="$1" -v V="${2:-}" <<'SQL'
INSERT INTO results
SELECT :'build', id, e.what, e.v
  FROM docs, LATERAL (VALUES
    ('default', simhash(body, 'words' :V)::text),
    ('words1tf', simhash(body, 'words', 1, 'tf' :V)::text),
    ('words1runs-num', simhash(body, 'words', 1, 'runs', true :V)::text),
    ('words1tf-num', simhash(body, 'words', 1, 'tf', true :V)::text),
    ('words1log', simhash(body, 'words', 1, 'log' :V)::text),
    ('words1binary-num', simhash(body, 'words', 1, 'binary', true :V)::text),
    ('shingles2', simhash(body, 'shingles', 2 :V)::text),
    ('shingles3tf', simhash(body, 'shingles', 3, 'tf' :V)::text),
    ('chars3', simhash(body, 'chars', 3 :V)::text),
    ('chars5log-num', simhash(body, 'chars', 5, 'log', true :V)::text),
    ('features', (SELECT md5(string_agg(feature || '/' || occurrences || '/' || weight || '/' || hash,
                                        ' ' ORDER BY hash, feature))
                    FROM simhash_features(body, 'words' :V))),
    ('features-num', (SELECT md5(string_agg(feature || '/' || occurrences || '/' || weight || '/' || hash,
                                            ' ' ORDER BY hash, feature))
                        FROM simhash_features(body, 'words', 1, 'tf', true :V)))) e(what, v);
SQL
}

say "building $BASE"
rm -rf "$WORK/src"
mkdir "$WORK/src"
git -C "$REPO_ROOT" archive "$BASE" | tar -C "$WORK/src" -xf -
chown -R "$RUN_USER" "$WORK/src"
build_install
psql_ -c 'CREATE EXTENSION simhash'
say "computing with $BASE"
compute base

say "building the working tree"
rm -rf "$WORK/src"
mkdir "$WORK/src"
tar -C "$REPO_ROOT" --exclude=./.git --exclude='*.o' --exclude='*.so' --exclude='*.bc' \
    --exclude=./results --exclude=./tmp_check -cf - . | tar -C "$WORK/src" -xf -
chown -R "$RUN_USER" "$WORK/src"
build_install
# the working tree's SQL objects too (its functions may take other arguments)
psql_ -c 'DROP EXTENSION simhash' -c 'CREATE EXTENSION simhash'
say "computing with the working tree"
compute tree "${VERSION:+, version => $VERSION}"

say "comparing"
psql_ -v ignore="$IGNORE" <<'SQL'
CREATE INDEX ON results (build, id, what);
ANALYZE results;
UPDATE docs SET lang = lang || ' (ignored)' WHERE :'ignore' <> '' AND body ~ :'ignore';
SELECT d.lang, count(DISTINCT d.id) AS documents,
       count(*) AS compared,
       count(*) FILTER (WHERE b.v IS DISTINCT FROM t.v) AS different
  FROM results b JOIN results t ON t.build = 'tree' AND t.id = b.id AND t.what = b.what
  JOIN docs d ON d.id = b.id
 WHERE b.build = 'base' GROUP BY 1 ORDER BY 1;
SELECT b.what, count(*) AS different, min(b.id) AS first_id
  FROM results b JOIN results t ON t.build = 'tree' AND t.id = b.id AND t.what = b.what
 WHERE b.build = 'base' AND b.v IS DISTINCT FROM t.v GROUP BY 1 ORDER BY 1;
SQL
different=$(psql_ -At -c "SELECT count(*) FROM results b JOIN results t ON t.build = 'tree'
    AND t.id = b.id AND t.what = b.what JOIN docs d ON d.id = b.id
    WHERE b.build = 'base' AND b.v IS DISTINCT FROM t.v AND d.lang NOT LIKE '% (ignored)'")
total=$(psql_ -At -c "SELECT count(*) FROM results r JOIN docs d USING (id)
    WHERE r.build = 'tree' AND d.lang NOT LIKE '% (ignored)'")
[ "$total" -gt 0 ] || die "nothing computed"
if [ "$different" != 0 ]; then
    echo "DIFFERENT: $different of $total results differ between $BASE and the working tree"
    exit 1
fi
echo "SAME: all $total results are equal between $BASE and the working tree${IGNORE:+ (documents matching $IGNORE not counted)}"
