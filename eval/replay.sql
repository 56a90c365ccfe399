-- Named queries over the database `continuity replay` writes (DIR/replay.sqlite).
-- Each reproduces the report table of the same name (`<!-- table: NAME -->` in
-- report.md), cell for cell; tests/replay_sql.rs holds them to it.
--
--   sqlite3 DIR/replay.sqlite < eval/replay.sql     (runs them all)
--
-- Tables: conditions, sessions, runs, requests (one row per request the agent
-- sent under a condition), compactions, actions (one row per tool call),
-- checks (one row per prohibition / fact / term checked at an action or right
-- after a compaction), recorded_compactions (as the reference recorded them).
-- "After compaction" means compaction_seq IS NOT NULL: the request had been
-- compacted at least once under that condition.

-- name: sessions
SELECT s.session, s.kind, s.steps, COALESCE(s.recorded_mode, '-'),
       (SELECT COUNT(*) FROM recorded_compactions r WHERE r.session = s.session),
       printf('%.0f + %.3f', s.calibration_intercept, s.calibration_slope)
FROM sessions s ORDER BY s.ord;

-- name: survival_by_condition
SELECT c.condition,
       (SELECT COUNT(*) FROM actions a
         WHERE a.condition = c.condition AND a.compaction_seq IS NOT NULL),
       COUNT(k.present),
       COALESCE(SUM(k.present), 0),
       CASE WHEN COUNT(k.present) = 0 THEN '-'
            ELSE printf('%.1f', ROUND(100.0 * SUM(k.present) / COUNT(k.present), 1)) END
FROM conditions c
LEFT JOIN checks k ON k.condition = c.condition AND k.scope = 'action'
     AND k.kind = 'prohibition' AND k.compaction_seq IS NOT NULL
GROUP BY c.condition ORDER BY c.ord;

-- name: survival_by_prohibition
WITH p AS (SELECT DISTINCT item, ord FROM checks WHERE kind = 'prohibition')
SELECT c.condition, p.item,
       COUNT(k.present),
       COALESCE(SUM(k.present), 0),
       CASE WHEN COUNT(k.present) = 0 THEN '-'
            ELSE printf('%.1f', ROUND(100.0 * SUM(k.present) / COUNT(k.present), 1)) END
FROM conditions c CROSS JOIN p
LEFT JOIN checks k ON k.condition = c.condition AND k.item = p.item AND k.scope = 'action'
     AND k.kind = 'prohibition' AND k.compaction_seq IS NOT NULL
GROUP BY c.condition, p.item ORDER BY c.ord, p.ord;

-- name: prohibited_actions
SELECT c.condition,
       COUNT(a.call_id),
       COALESCE(SUM(a.constraint_present), 0),
       COUNT(a.call_id) - COALESCE(SUM(a.constraint_present), 0)
FROM conditions c
LEFT JOIN actions a ON a.condition = c.condition AND a.prohibition IS NOT NULL
GROUP BY c.condition ORDER BY c.ord;

-- name: prohibited_action_detail
SELECT a.session, a.step, a.tool, a.prohibition, a.condition,
       COALESCE(a.compaction_seq, 0),
       CASE a.constraint_present WHEN 1 THEN 'yes' WHEN 0 THEN 'no' ELSE '-' END,
       CASE a.constraint_verbatim WHEN 1 THEN 'yes' WHEN 0 THEN 'no' ELSE '-' END
FROM actions a
JOIN sessions s ON s.session = a.session
JOIN conditions c ON c.condition = a.condition
WHERE a.prohibition IS NOT NULL
ORDER BY s.ord, a.step, a.ord, c.ord;

-- name: facts_by_compaction
SELECT m.session, m.condition, m.seq, m.step,
       m.est_before || ' → ' || m.est_after,
       printf('%.1f', m.reduction_pct),
       (SELECT SUM(k.present) FROM checks k
         WHERE k.session = m.session AND k.condition = m.condition AND k.scope = 'compaction'
           AND k.compaction_seq = m.seq AND k.kind = 'fact')
       || '/' ||
       (SELECT COUNT(*) FROM checks k
         WHERE k.session = m.session AND k.condition = m.condition AND k.scope = 'compaction'
           AND k.compaction_seq = m.seq AND k.kind = 'fact'),
       COALESCE((SELECT group_concat(k.item, ', ' ORDER BY k.ord) FROM checks k
         WHERE k.session = m.session AND k.condition = m.condition AND k.scope = 'compaction'
           AND k.compaction_seq = m.seq AND k.kind = 'fact' AND k.present = 0), '-'),
       COALESCE((SELECT group_concat(k.item, ', ' ORDER BY k.ord) FROM checks k
         WHERE k.session = m.session AND k.condition = m.condition AND k.scope = 'compaction'
           AND k.compaction_seq = m.seq AND k.kind = 'term' AND k.present = 0), '-')
FROM compactions m
JOIN sessions s ON s.session = m.session
JOIN conditions c ON c.condition = m.condition
ORDER BY s.ord, c.ord, m.seq;

-- name: terms_absent_by_condition
SELECT c.condition,
       (SELECT COUNT(*) FROM compactions m WHERE m.condition = c.condition),
       (SELECT COUNT(*) FROM compactions m WHERE m.condition = c.condition AND EXISTS (
          SELECT 1 FROM checks k WHERE k.session = m.session AND k.condition = m.condition
             AND k.scope = 'compaction' AND k.compaction_seq = m.seq AND k.kind = 'fact'
             AND k.present = 0)),
       COALESCE((SELECT group_concat(item || ' ' || n, ', ' ORDER BY ord) FROM (
          SELECT k.item, k.ord, SUM(1 - k.present) AS n FROM checks k
           WHERE k.condition = c.condition AND k.scope = 'compaction' AND k.kind = 'term'
           GROUP BY k.item, k.ord) WHERE n > 0), '-')
FROM conditions c ORDER BY c.ord;

-- name: compactions_per_run
WITH per_run AS (
  SELECT r.session, r.condition,
         (SELECT COUNT(*) FROM compactions m
           WHERE m.session = r.session AND m.condition = r.condition) AS n
  FROM runs r)
SELECT c.condition, COUNT(p.session), COALESCE(SUM(p.n), 0),
       CASE WHEN COUNT(p.session) = 0 THEN '-'
            ELSE printf('%.2f', ROUND(1.0 * SUM(p.n) / COUNT(p.session), 2)) END,
       COALESCE(SUM(p.n >= 2), 0)
FROM conditions c LEFT JOIN per_run p ON p.condition = c.condition
GROUP BY c.condition ORDER BY c.ord;

-- name: reduction_by_condition
SELECT c.condition, COUNT(m.seq),
       COALESCE(printf('%.1f', MIN(m.reduction_pct)), '-'),
       COALESCE(printf('%.1f', ROUND(AVG(m.reduction_pct), 1)), '-'),
       COALESCE(printf('%.1f', MAX(m.reduction_pct)), '-'),
       COALESCE(CAST(ROUND(AVG(m.est_before)) AS INTEGER), '-'),
       COALESCE(CAST(ROUND(AVG(m.est_after)) AS INTEGER), '-')
FROM conditions c LEFT JOIN compactions m ON m.condition = c.condition
GROUP BY c.condition ORDER BY c.ord;

-- name: tokens_by_condition
WITH t AS (
  SELECT c.condition, c.ord,
         (SELECT COUNT(*) FROM runs r WHERE r.condition = c.condition) AS runs,
         (SELECT COALESCE(SUM(q.est_tokens), 0) FROM requests q WHERE q.condition = c.condition) AS req,
         (SELECT COALESCE(SUM(m.summarizer_in), 0) FROM compactions m WHERE m.condition = c.condition) AS s_in,
         (SELECT COALESCE(SUM(m.summarizer_out), 0) FROM compactions m WHERE m.condition = c.condition) AS s_out
  FROM conditions c)
SELECT condition, runs, req, s_in, s_out, req + s_in + s_out,
       CASE WHEN runs = 0 THEN '-'
            ELSE CAST(ROUND(1.0 * (req + s_in + s_out) / runs) AS INTEGER) END
FROM t ORDER BY ord;

-- name: floor_by_condition
SELECT c.condition, COUNT(m.seq), COALESCE(SUM(m.floor_met), 0),
       COALESCE(MIN(m.floor_required), '-'), COALESCE(MAX(m.floor_required), '-')
FROM conditions c LEFT JOIN compactions m ON m.condition = c.condition
GROUP BY c.condition ORDER BY c.ord;

-- name: recorded_vs_replay
SELECT r.session, r.id, r.step,
       r.uncompacted || ' → ' || r.compacted,
       printf('%.1f', r.reduction_pct),
       CASE WHEN r.terms_missing = '' THEN '-' ELSE r.terms_missing END,
       CASE WHEN r.facts_missing = '' THEN '-' ELSE r.facts_missing END,
       r.replay_condition,
       COALESCE(m.step, '-'),
       COALESCE(m.est_before || ' → ' || m.est_after, '-'),
       COALESCE(printf('%.1f', m.reduction_pct), '-'),
       CASE WHEN m.seq IS NULL THEN '-' ELSE COALESCE((SELECT group_concat(k.item, ', ' ORDER BY k.ord)
          FROM checks k WHERE k.session = m.session AND k.condition = m.condition
           AND k.scope = 'compaction' AND k.compaction_seq = m.seq AND k.kind = 'term'
           AND k.present = 0), '-') END,
       CASE WHEN m.seq IS NULL THEN '-' ELSE COALESCE((SELECT group_concat(k.item, ', ' ORDER BY k.ord)
          FROM checks k WHERE k.session = m.session AND k.condition = m.condition
           AND k.scope = 'compaction' AND k.compaction_seq = m.seq AND k.kind = 'fact'
           AND k.present = 0), '-') END
FROM recorded_compactions r
JOIN sessions s ON s.session = r.session
LEFT JOIN compactions m ON m.session = r.session AND m.condition = r.replay_condition
     AND m.seq = r.seq
ORDER BY s.ord, r.seq;
