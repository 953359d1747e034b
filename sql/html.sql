-- simhash_html: the text of HTML pages (src/html/, doc/html.md).
-- Golden texts and fingerprints of tricky pages; the text simhash_html
-- fingerprints is simhash_html_text's, exactly; plain text and the same text
-- in markup; boilerplate removal; options; bad input that must not fail.

CREATE TEMP TABLE tricky (name text, html text);
INSERT INTO tricky VALUES
 ('entities', '<p>caf&eacute; &amp; cr&egrave;me br&ucirc;l&eacute;e &#x263A; &#20013;&#25991; a&nbsp;b &bogus; AT&T &lt;tag&gt; &quot;q&quot; &#39;s&#39; &copy 2024</p>'),
 ('misnested', '<p>one<div>two</p>three</div><b><i>bold italic</b> italic</i><table><tr><td>a<td>b</table><ul><li>x<li>y</ul>'),
 ('inline and block', '<p>wo<b>rd</b><span>s</span> in <a href="/x">one</a><em>block</em></p><div>blo</div><div>ck</div>line<br>break<hr>rule'),
 ('dropped', '<html><head><title>The  Title &amp; more</title><meta name="description" content="meta text"><style>p { color: red } .hidden {}</style><script>var s = "<p>not text</p>";</script></head><body><!-- a comment --><noscript>enable scripts</noscript><template><p>template</p></template><p>shown</p><script type="text/template"><div>tmpl</div></script><select><option>menu choice</select><textarea>typed</textarea></body></html>'),
 ('after end', '<html><body><p>inside</p></body></html><p>after the end</p>'),
 ('charset ignored', '<meta charset="iso-8859-1"><p>été 中文 Ελληνικά</p>'),
 ('pre', E'<pre>line one\nline   two\n\nline three</pre><p>after\n  pre</p>'),
 ('cjk', '<html><head><title>中文网页</title></head><body><div class="nav"><a href="/">首页</a> | <a href="/n">新闻</a></div><p>简体中文是中华人民共和国使用的书写系统，本段文字用于测试<b>网页</b>中的中文分词。</p><p>繁體中文與日本語の文章も同じように処理されます。</p></body></html>'),
 ('unquoted and stray', '<p class=a id=b title=c d>1 < 2 && 3 > 2, a<b, x <= y & z; <3 <!-- unclosed'),
 ('empty', ''),
 ('only markup', '<html><head><script>x()</script></head><body><div><img src=a.png></div></body></html>');

-- The kept text (boilerplate kept and removed) and the fingerprint.
SELECT name, simhash_html_text(html, 'keep') AS keep,
       simhash_html_text(html) AS remove
  FROM tricky ORDER BY name;
SELECT name, simhash_html(html, 'keep') AS fp_keep, simhash_html(html) AS fp_remove
  FROM tricky ORDER BY name;

-- simhash_html is simhash of simhash_html_text, for every option set.
SELECT name, b, f, w,
       simhash_html(html, b, f, 0, w) IS NOT DISTINCT FROM
       simhash(simhash_html_text(html, b), f, 0, w) AS same
  FROM tricky, (VALUES ('keep'), ('remove')) bb(b),
       (VALUES ('words'), ('shingles'), ('chars')) ff(f),
       (VALUES ('runs'), ('tf')) ww(w)
 WHERE simhash_html(html, b, f, 0, w) IS DISTINCT FROM simhash(simhash_html_text(html, b), f, 0, w);
SELECT simhash_html(html, 'keep', 'words', 1, 'runs', true) =
       simhash(simhash_html_text(html, 'keep'), 'words', 1, 'runs', true) AS numbers_same
  FROM tricky WHERE name = 'entities';

-- The blocks, why each is kept or dropped.
SELECT block, kept, class, bytes, round(link_share::numeric, 2) AS links,
       round(template_share::numeric, 2) AS template, text
  FROM simhash_html_blocks('<html><head><title>Article title | Site</title></head><body>
<header><a href="/">Site name</a><nav><ul><li><a href="/">Home</a><li><a href="/news">News</a><li><a href="/about">About us</a></ul></nav></header>
<div class="breadcrumbs"><a href="/">Home</a> &gt; <a href="/news">News</a></div>
<main><article><header><h1>Debian releases a new stable version</h1></header>
<p>The Debian project is pleased to announce the new stable version of its operating system, after months of development, testing and bug fixing by volunteers from all over the world.</p>
<p>Short paragraph between content.</p>
<p>This release contains thousands of new packages, updated desktop environments, a new kernel, and many improvements to the installer, which now supports more hardware out of the box.</p>
<div class="share">Share: <a href="#">Mastodon</a> <a href="#">E-mail</a></div>
</article></main>
<aside><h3>Popular</h3><ul><li><a href="/1">Ten tips for faster servers</a><li><a href="/2">Why we moved to ZFS</a></ul></aside>
<div>Read more</div><div>Read more</div>
<table><tr><td><a href="/a">Privacy</a> | <a href="/b">Terms</a> | <a href="/c">Contact</a></td></tr></table>
<footer><p>Copyright 2024 Site name. All rights reserved.</p></footer></body></html>');

-- The same text as plain text and in markup: the same fingerprint (one
-- block a line, as in the text).
CREATE TEMP TABLE article (body text);
INSERT INTO article VALUES (
'Debian is a free operating system, developed and maintained by the Debian project.
It comes with over fifty thousand packages, precompiled software bundled up in a nice format for easy installation on your machine.
The project is run by volunteers from all over the world, who coordinate their work over the Internet.
Its stable release is used on servers, desktops and embedded devices, and many other distributions are built from it.');
SELECT simhash(body) AS plain,
       simhash_html('<html><body>' || string_agg('<p>' || l || '</p>', E'\n') || '</body></html>') AS in_p,
       simhash_html('<div>' || string_agg('<span>' || replace(l, ' ', ' <b></b>') || '</span><br>', '') || '</div>', 'keep') AS in_spans,
       simhash(body) <-> simhash_html('<!DOCTYPE html><html><head><title>x</title><style>b{}</style></head><body><article>'
                                      || string_agg('<p>' || replace(l, 'Debian', '<a href="/d">Debian</a>') || '</p>', '')
                                      || '</article></body></html>', 'keep') AS with_title_and_links
  FROM article, regexp_split_to_table(body, E'\n') l GROUP BY body;

-- The same article on two site templates: boilerplate removal brings the
-- two pages together; kept, the templates pull them apart.
CREATE TEMP TABLE sites (site int, html text);
INSERT INTO sites
SELECT 1, '<html><head><title>TechNews</title><script>track()</script></head><body>
<nav class="menu"><a href="/">Home</a> <a href="/n">News</a> <a href="/r">Reviews</a> <a href="/t">Tutorials</a> <a href="/c">Contact</a></nav>
<div class="post-meta">Posted by admin on 2024-05-01, 1,234 views</div>
<div class="entry">' || string_agg('<p>' || l || '</p>', '') || '</div>
<div id="sidebar"><h3>Popular this week</h3><a href="/1">Ten tips for faster servers</a><br><a href="/2">Why we moved to ZFS</a><br><a href="/3">A beginner guide to firewalls</a></div>
<div class="footer">© 2024 TechNews Daily. All rights reserved. <a href="/p">Privacy Policy</a> | <a href="/t">Terms of Use</a></div></body></html>'
  FROM article, regexp_split_to_table(body, E'\n') l
UNION ALL
SELECT 2, '<html><head><title>The Linux Corner</title></head><body><table><tr><td>
<a href="/">Start</a> | <a href="/a">Articles</a> | <a href="/h">Howto</a> | <a href="/f">Forum</a> | <a href="/l">Login</a></td></tr>
<tr><td><header>A community blog about Linux and free software, written by volunteers</header></td></tr>
<tr><td>' || string_agg(l, '<br><br>') || '</td></tr>
<tr><td><footer>Content licensed under CC BY-SA unless noted otherwise. Hosted by volunteers.</footer></td></tr></table></body></html>'
  FROM article, regexp_split_to_table(body, E'\n') l;
SELECT b AS boilerplate,
       (SELECT simhash_html(html, b) FROM sites WHERE site = 1) <->
       (SELECT simhash_html(html, b) FROM sites WHERE site = 2) AS between_sites,
       (SELECT simhash_html(html, b) FROM sites WHERE site = 1) <-> (SELECT simhash(body) FROM article) AS site1_to_text,
       (SELECT simhash_html(html, b) FROM sites WHERE site = 2) <-> (SELECT simhash(body) FROM article) AS site2_to_text
  FROM (VALUES ('keep'), ('remove')) v(b);
SELECT site, simhash_html_text(html) FROM sites ORDER BY site;

-- Options and NULLs.
SELECT simhash_html(NULL) IS NULL AS null_in, simhash_html('<p>x</p>', NULL) IS NULL AS null_option;
SELECT simhash_html('<p>x</p>', 'drop');
SELECT simhash_html_text('<p>x</p>', 'Remove');
SELECT simhash_html('<p>x</p>', 'keep', 'letters');
SELECT simhash_html('<p>x</p>', 'keep', 'words', 99);
SELECT simhash_html('<p>x</p>', 'keep', 'words', 0, 'bm25');
SELECT count(*) FROM simhash_html_blocks('<p>x</p>', 'nope');

-- Bad input: unclosed and misnested tags, deep nesting with stray end tags
-- (which libxml2 alone takes seconds a MB over: the depth is capped),
-- stray < and &, unquoted attributes, random text.  Never an error.
CREATE TEMP TABLE bad AS SELECT * FROM (VALUES
   ('deep div', repeat('<div>', 100000) || 'deep' || repeat('</div>', 100000)),
   ('deep unclosed', repeat('<div>', 100000) || 'deep'),
   ('deep stray ends', repeat('<div>', 100000) || 'deep' || repeat('</span>', 100000)),
   ('deep misnested', repeat('<b><i>', 50000) || 'deep' || repeat('</b></p>', 50000)),
   ('deep inline', repeat('<span>w ', 100000)),
   ('deep tables', repeat('<table><tr><td>', 30000) || 'cell'),
   ('deep dropped', repeat('<noscript><div>', 50000) || 'hidden' || repeat('</div>', 60000) || 'shown'),
   ('unclosed p', repeat('<p>para ', 100000)),
   ('stray', repeat('a < b & c <<< && &#; &#x; &amp <p class=x id=y z=''q'' w="r>t"> ', 20000)),
   ('unterminated tag', '<p>text <a href="x'),
   ('unterminated comment', '<p>before</p><!-- never closed <p>after'),
   ('unterminated script', '<p>before</p><script>var x = "<p>after"')) v(name, html);
SELECT name, length(simhash_html_text(html, 'keep')) AS text_chars,
       simhash_html(html, 'keep') IS NOT NULL AS has_fp
  FROM bad;

-- Deep dropped elements: the text after them is shown again once they close
-- (the capped stack closes elements too deep to keep).
SELECT simhash_html_text('<div>' || repeat('<div>', 1000) || '<script>s</script>x' || repeat('</div>', 1000) || 'after</div>', 'keep');
SELECT simhash_html_text(repeat('<noscript>', 600) || 'hidden' || repeat('</noscript>', 600) || 'shown', 'keep');

-- Random valid text (letters, markup characters, spaces, any code point):
-- no error, and the text of a page without markup characters is the page.
SELECT setseed(0.12);
CREATE TEMP TABLE random_pages AS
SELECT i, string_agg(CASE WHEN r < 0.15 THEN (ARRAY['<', '>', '&', '/', '"', '=', ';', '#', '!', '-'])[1 + floor(random() * 10)::int]
                          WHEN r < 0.3 THEN ' '
                          WHEN r < 0.9 THEN chr(97 + floor(random() * 26)::int)
                          ELSE chr(160 + floor(random() * 55000)::int) END, '') AS html
  FROM generate_series(1, 200) i, LATERAL (SELECT random() AS r, g FROM generate_series(1, 2000) g) x
 GROUP BY i;
SELECT count(*) AS pages, count(simhash_html(html)) AS fingerprinted,
       count(*) FILTER (WHERE simhash_html(html) IS NOT DISTINCT FROM simhash(simhash_html_text(html))) AS consistent
  FROM random_pages;
SELECT count(*) FILTER (WHERE simhash_html_text(p, 'keep') = regexp_replace(p, '\s+', ' ', 'g') || E'\n') AS text_kept
  FROM (SELECT trim(regexp_replace(html, '[^a-z ]', '', 'g')) AS p FROM random_pages) s;

-- The fast path (the default parser) and libxml2's HTML parser, its
-- reference, give the same text on every page above
-- (test/t/024_html_fast_path.pl compares them on many more).
CREATE TEMP TABLE fast_texts AS
SELECT name, simhash_html_text(html, 'keep') AS keep, simhash_html_text(html) AS remove
  FROM (SELECT name, html FROM tricky UNION ALL SELECT name, html FROM bad
        UNION ALL SELECT 'site ' || site, html FROM sites) p;
SELECT count(*) AS pages,
       count(*) FILTER (WHERE simhash_html_text(html, 'keep', 'libxml2') = f.keep
                          AND simhash_html_text(html, parser => 'libxml2') = f.remove) AS same_text
  FROM (SELECT name, html FROM tricky UNION ALL SELECT name, html FROM bad
        UNION ALL SELECT 'site ' || site, html FROM sites) p JOIN fast_texts f USING (name);
-- Text that no element holds (before any element, right in the head,
-- after </body>) is a block of its own, in an implied <p> that <body> or
-- another of libxml2's closers of a <p> closes: the same lines from both
-- parsers (a site template's stray head text had joined the body's first
-- link, and boilerplate removal then kept the link).
SELECT id, replace(simhash_html_text(h, 'keep'), E'\n', ' / ') AS fast_text,
       simhash_html_text(h, 'keep', 'libxml2') = simhash_html_text(h, 'keep') AS same_keep,
       simhash_html_text(h, parser => 'libxml2') = simhash_html_text(h) AS same_remove
  FROM (VALUES
    (1, '<html><head><title>T</title>__CSS__</head><body><a href="#c" class="skip-to-content">Skip to content</a><div>Body text here, long enough to be kept as content.</div></body></html>'),
    (2, '<html><head><title>T</title>__CSS__<body><a class="skip">Skip</a><div>Body text here</div></body></html>'),
    (3, '<head><title>T</title>XX<a>link</a><div>body</div>'),
    (4, '<head>XX<meta charset=utf-8><link rel=x></head><body>YY</body>'),
    (5, '<head>XX <b>bold</b> tail</head><body>YY</body>'),
    (6, '<head>XX</head>mid<body>YY</body>'),
    (7, '<head>XX<p>para</p></head><body>YY</body>'),
    (8, '<head>XX<div>d</div></head><body>YY</body>'),
    (9, '<head>XX<span>s</span>ZZ<body>YY'),
    (10, 'XX<body>YY'),
    (11, '<html>XX<body>YY'),
    (12, '<span>XX</span><body>YY'),
    (13, '<b>XX</b> ZZ<body>YY'),
    (14, '<head>XX</head><span>a</span><body>YY'),
    (15, '<head>XX<body class=x>YY<body>ZZ'),
    (16, '<head>XX</body>YY<body>ZZ'),
    (17, '<head>XX<div>YY<body>ZZ'),
    (18, '<head>XX<a>YY<body>ZZ'),
    (19, 'XX &amp; YY<br>ZZ<body>WW'),
    -- what closes a <p> (implied or not) as libxml2 has it, and what does not
    (20, '<head>XX<script>1</script>ZZ</head><body>YY'),
    (21, '<head>XX<noscript>N</noscript>ZZ<body>YY'),
    (22, '<head>XX<title>T</title>ZZ<body>YY'),
    (23, 'XX<hr>ZZ<body>YY'),
    (24, 'XX<section>S</section>ZZ<body>YY'),
    (25, 'XX<thead>S</thead>ZZ<body>YY'),
    (26, '<p>XX<div>S</div>ZZ<body>YY'),
    (27, '<p>XX<table><tr><td>S</td></tr></table>ZZ</p>WW<body>YY'),
    (28, 'XX<p>S ZZ<body>YY')) v(id, h)
 ORDER BY id;
-- the parser is an argument; anything else is refused
SELECT simhash_html_text('<p>x', 'keep', 'gumbo');
