-- Named queries over the database `continuity replay` writes (DIR/replay.sqlite).
-- Each reproduces the report table of the same name (`<!-- table: NAME -->` in
-- report.md), cell for cell; crates/eval/tests/it/replay_sql.rs holds them to it.
--
--   sqlite3 DIR/replay.sqlite < eval/replay.sql     (runs them all)
--
-- Tables: conditions, sessions, runs, requests (one row per request the agent
-- sent under a condition), compactions, actions (one row per tool call),
-- checks (one row per prohibition / fact / term checked at an action or right
-- after a compaction), recorded_compactions (as the reference recorded them).
-- Derived numbers use integer arithmetic (as the report does), so they agree
-- to the last digit: a ratio a/b rounded is (2a + b) / (2b); percentages are
-- in tenths, written as t / 10 '.' t % 10.
-- "After compaction" means compaction_seq IS NOT NULL: the request had been
-- compacted at least once under that condition.

-- name: sessions
SELECT s.session, s.kind, s.steps, COALESCE(s.recorded_mode, '-'),
       (SELECT COUNT(*) FROM recorded_compactions r WHERE r.session = s.session),
       s.calibration_intercept_int || ' + ' || (s.calibration_slope_milli / 1000) || '.' || printf('%03d', s.calibration_slope_milli % 1000)
FROM sessions s ORDER BY s.ord;

-- name: survival_by_condition
SELECT c.condition,
       (SELECT COUNT(*) FROM actions a
         WHERE a.condition = c.condition AND a.compaction_seq IS NOT NULL),
       COUNT(k.present),
       COALESCE(SUM(k.present), 0),
       CASE WHEN COUNT(k.present) = 0 THEN '-'
            ELSE CASE WHEN (2 * (1000 * SUM(k.present)) + (COUNT(k.present))) / (2 * (COUNT(k.present))) < 0 THEN '-' ELSE '' END || (abs((2 * (1000 * SUM(k.present)) + (COUNT(k.present))) / (2 * (COUNT(k.present)))) / 10) || '.' || (abs((2 * (1000 * SUM(k.present)) + (COUNT(k.present))) / (2 * (COUNT(k.present)))) % 10) END
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
            ELSE CASE WHEN (2 * (1000 * SUM(k.present)) + (COUNT(k.present))) / (2 * (COUNT(k.present))) < 0 THEN '-' ELSE '' END || (abs((2 * (1000 * SUM(k.present)) + (COUNT(k.present))) / (2 * (COUNT(k.present)))) / 10) || '.' || (abs((2 * (1000 * SUM(k.present)) + (COUNT(k.present))) / (2 * (COUNT(k.present)))) % 10) END
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
       CASE WHEN m.reduction_tenths < 0 THEN '-' ELSE '' END || (abs(m.reduction_tenths) / 10) || '.' || (abs(m.reduction_tenths) % 10),
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
            ELSE printf('%d.%02d', (2 * (100 * SUM(p.n)) + (COUNT(p.session))) / (2 * (COUNT(p.session))) / 100, (2 * (100 * SUM(p.n)) + (COUNT(p.session))) / (2 * (COUNT(p.session))) % 100) END,
       COALESCE(SUM(p.n >= 2), 0)
FROM conditions c LEFT JOIN per_run p ON p.condition = c.condition
GROUP BY c.condition ORDER BY c.ord;

-- name: reduction_by_condition
WITH r AS (
  SELECT c.condition, c.ord, COUNT(m.seq) AS n, MIN(m.reduction_tenths) AS lo,
         MAX(m.reduction_tenths) AS hi, SUM(m.reduction_tenths) AS t,
         SUM(m.est_before) AS b, SUM(m.est_after) AS a
  FROM conditions c LEFT JOIN compactions m ON m.condition = c.condition
  GROUP BY c.condition)
SELECT condition, n,
       CASE WHEN n = 0 THEN '-' ELSE CASE WHEN lo < 0 THEN '-' ELSE '' END || (abs(lo) / 10) || '.' || (abs(lo) % 10) END,
       CASE WHEN n = 0 THEN '-' ELSE CASE WHEN (2 * (t) + (n)) / (2 * (n)) < 0 THEN '-' ELSE '' END || (abs((2 * (t) + (n)) / (2 * (n))) / 10) || '.' || (abs((2 * (t) + (n)) / (2 * (n))) % 10) END,
       CASE WHEN n = 0 THEN '-' ELSE CASE WHEN hi < 0 THEN '-' ELSE '' END || (abs(hi) / 10) || '.' || (abs(hi) % 10) END,
       CASE WHEN n = 0 THEN '-' ELSE (2 * (b) + (n)) / (2 * (n)) END,
       CASE WHEN n = 0 THEN '-' ELSE (2 * (a) + (n)) / (2 * (n)) END
FROM r ORDER BY ord;

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
            ELSE (2 * (req + s_in + s_out) + (runs)) / (2 * (runs)) END
FROM t ORDER BY ord;

-- name: floor_by_condition
SELECT c.condition, COUNT(m.seq), COALESCE(SUM(m.floor_met), 0),
       COALESCE(MIN(m.floor_required), '-'), COALESCE(MAX(m.floor_required), '-')
FROM conditions c LEFT JOIN compactions m ON m.condition = c.condition
GROUP BY c.condition ORDER BY c.ord;

-- name: recorded_vs_replay
SELECT r.session, r.id, r.step,
       r.uncompacted || ' → ' || r.compacted,
       CASE WHEN r.reduction_tenths < 0 THEN '-' ELSE '' END || (abs(r.reduction_tenths) / 10) || '.' || (abs(r.reduction_tenths) % 10),
       CASE WHEN r.terms_missing = '' THEN '-' ELSE r.terms_missing END,
       CASE WHEN r.facts_missing = '' THEN '-' ELSE r.facts_missing END,
       r.replay_condition,
       COALESCE(m.step, '-'),
       COALESCE(m.est_before || ' → ' || m.est_after, '-'),
       CASE WHEN m.seq IS NULL THEN '-' ELSE CASE WHEN m.reduction_tenths < 0 THEN '-' ELSE '' END || (abs(m.reduction_tenths) / 10) || '.' || (abs(m.reduction_tenths) % 10) END,
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

-- name: damage_by_condition
SELECT c.condition, replace(c.damage, ',', ', '),
       COUNT(m.seq),
       COALESCE(SUM(NOT EXISTS (
          SELECT 1 FROM checks k WHERE k.session = m.session AND k.condition = m.condition
             AND k.scope = 'compaction' AND k.compaction_seq = m.seq AND k.kind = 'fact'
             AND k.present = 0 AND instr(',' || c.damage || ',', ',' || k.item || ',') > 0)), 0),
       COALESCE((SELECT SUM(k.present) FROM checks k JOIN compactions m2
          ON m2.session = k.session AND m2.condition = k.condition AND m2.seq = k.compaction_seq
          WHERE k.condition = c.condition AND k.scope = 'compaction' AND k.kind = 'fact'), 0)
       || '/' ||
       (SELECT COUNT(*) FROM checks k
          WHERE k.condition = c.condition AND k.scope = 'compaction' AND k.kind = 'fact')
FROM conditions c
LEFT JOIN compactions m ON m.condition = c.condition
WHERE c.damage <> ''
GROUP BY c.condition ORDER BY c.ord;

-- name: run_tokens_vs_record
WITH x AS (
  SELECT s.*, CASE s.recorded_mode WHEN 'governed' THEN 'governed' ELSE 'summary-only' END
              || '/recorded' AS cond
  FROM sessions s)
SELECT x.session, COALESCE(x.recorded_mode, '-'), COALESCE(x.recorded_input_tokens, '-'),
       (SELECT COUNT(*) FROM recorded_compactions r WHERE r.session = x.session),
       x.cond,
       CASE WHEN EXISTS (SELECT 1 FROM runs u WHERE u.session = x.session AND u.condition = x.cond)
            THEN (SELECT SUM(q.est_tokens) FROM requests q
                   WHERE q.session = x.session AND q.condition = x.cond)
               + (SELECT COALESCE(SUM(m.summarizer_in + m.summarizer_out), 0) FROM compactions m
                   WHERE m.session = x.session AND m.condition = x.cond)
            ELSE '-' END,
       CASE WHEN EXISTS (SELECT 1 FROM runs u WHERE u.session = x.session AND u.condition = x.cond)
            THEN (SELECT COUNT(*) FROM compactions m
                   WHERE m.session = x.session AND m.condition = x.cond)
            ELSE '-' END
FROM x ORDER BY x.ord;
