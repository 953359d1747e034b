-- Scores a labelled near-duplicate set (sourced by scripts/bench-fingerprint.sh
-- and scripts/bench-html.sh): tables docs (doc_id, lang, base, variant,
-- template, body), pairs (a, b, label, kind) and fps (config, doc_id, fp)
-- in, F1 at k = 0..8 per configuration and language, the share of pairs
-- within k = 3 per kind, and the collisions of unrelated pages of one
-- template out.
CREATE INDEX ON fps (config, doc_id);
ANALYZE;

CREATE TABLE dist AS
SELECT f1.config, d.lang, p.kind, p.label, f1.fp <-> f2.fp AS d
  FROM pairs p JOIN docs d ON d.doc_id = p.a
  JOIN fps f1 ON f1.doc_id = p.a JOIN fps f2 ON f2.doc_id = p.b AND f2.config = f1.config;

CREATE TABLE scores AS
SELECT config, lang, k,
       count(*) FILTER (WHERE label = 1 AND d <= k) AS tp,
       count(*) FILTER (WHERE label = 0 AND d <= k) AS fp,
       count(*) FILTER (WHERE label = 1) AS pos
  FROM dist, generate_series(0, 8) k GROUP BY 1, 2, 3;

\echo
\echo F1 at k = 0..8 (precision / recall at k = 3)
SELECT config, lang,
       string_agg(to_char(CASE WHEN tp = 0 THEN 0 ELSE 2.0 * tp / (2 * tp + fp + (pos - tp)) END, 'FM0.00'), ' ' ORDER BY k) AS "F1 k=0..8",
       max(to_char(tp::numeric / nullif(tp + fp, 0), 'FM0.000')) FILTER (WHERE k = 3) AS "P@3",
       max(to_char(tp::numeric / pos, 'FM0.000')) FILTER (WHERE k = 3) AS "R@3",
       max(to_char(CASE WHEN tp = 0 THEN 0 ELSE 2.0 * tp / (2 * tp + fp + (pos - tp)) END, 'FM0.000')) FILTER (WHERE k = 3) AS "F1@3"
  FROM scores GROUP BY 1, 2 ORDER BY 2, 1;

\echo
\echo Share of pairs within k = 3, per kind (recall for positives, false matches for negatives)
SELECT config, lang,
       string_agg(kind || ' ' || to_char(avg_hit, 'FM0.00'), ', ' ORDER BY label DESC, kind) AS "within 3"
  FROM (SELECT config, lang, kind, label, avg((d <= 3)::int) AS avg_hit FROM dist GROUP BY 1, 2, 3, 4) s
 GROUP BY 1, 2 ORDER BY 2, 1;

\echo
\echo Unrelated pages on the same template: all pairs of documents of different articles
SELECT f1.config, a.lang, count(*) AS pairs,
       count(*) FILTER (WHERE f1.fp <-> f2.fp <= 3) AS "within 3",
       to_char(count(*) FILTER (WHERE f1.fp <-> f2.fp <= 3)::numeric / count(*), '9.9EEEE') AS "rate k=3",
       to_char(count(*) FILTER (WHERE f1.fp <-> f2.fp <= 2)::numeric / count(*), '9.9EEEE') AS "rate k=2",
       round(avg(f1.fp <-> f2.fp), 1) AS "mean distance",
       min(f1.fp <-> f2.fp) AS "min distance"
  FROM docs a JOIN docs b ON a.lang = b.lang AND a.template = b.template AND a.base < b.base
  JOIN fps f1 ON f1.doc_id = a.doc_id JOIN fps f2 ON f2.doc_id = b.doc_id AND f2.config = f1.config
 GROUP BY 1, 2 ORDER BY 2, 1;
