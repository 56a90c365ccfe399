//! `report.md`: every table computed here from the replay results, and
//! reproduced by a named query of `eval/replay.sql` from the database (a test
//! holds the two to the same numbers).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::facts::FactKey;
use continuity_core::kernel::MissionKernel;
use continuity_core::policy::RetentionPolicy;

use super::engine::{CheckKind, Condition, RunResult, Scope};
use super::session::Session;
use super::Replay;
use super::{pct_tenths, recorded_seq, replay_condition_for};

#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// The named query in `eval/replay.sql` that reproduces it.
    pub name: &'static str,
    pub title: &'static str,
    pub header: Vec<&'static str>,
    pub rows: Vec<Vec<String>>,
}

impl Table {
    pub fn markdown(&self) -> String {
        let mut s = format!("<!-- table: {} -->\n", self.name);
        s.push_str(&format!("| {} |\n", self.header.join(" | ")));
        s.push_str(&format!(
            "|{}\n",
            self.header.iter().map(|_| "---|").collect::<String>()
        ));
        for r in &self.rows {
            s.push_str(&format!("| {} |\n", r.join(" | ")));
        }
        s
    }
}

/// Parse the tables back out of a report (`<!-- table: NAME -->` then a
/// Markdown table).
pub fn parse_tables(md: &str) -> Vec<(String, Vec<Vec<String>>)> {
    let mut out = Vec::new();
    let mut lines = md.lines().peekable();
    while let Some(line) = lines.next() {
        let Some(name) = line
            .trim()
            .strip_prefix("<!-- table:")
            .and_then(|r| r.strip_suffix("-->"))
        else {
            continue;
        };
        let mut rows = Vec::new();
        let mut n = 0;
        while let Some(l) = lines.peek() {
            if !l.starts_with('|') {
                break;
            }
            let l = lines.next().unwrap_or_default();
            n += 1;
            if n <= 2 {
                continue; // header and rule
            }
            let cells: Vec<String> = l
                .trim()
                .trim_start_matches('|')
                .trim_end_matches('|')
                .split(" | ")
                .map(|c| c.trim().to_string())
                .collect();
            rows.push(cells);
        }
        out.push((name.trim().to_string(), rows));
    }
    out
}

// Every derived number is integer arithmetic, written identically in
// eval/replay.sql, so the two agree to the last digit.

/// `a / b` rounded (halves up, toward zero for negatives), `b > 0`.
pub fn div_half(a: i64, b: i64) -> i64 {
    (2 * a + b) / (2 * b)
}

/// Tenths as a one-decimal number.
pub fn tenths(t: i64) -> String {
    let sign = if t < 0 { "-" } else { "" };
    format!("{sign}{}.{}", t.abs() / 10, t.abs() % 10)
}

fn hundredths(t: i64) -> String {
    format!("{}.{:02}", t / 100, t % 100)
}

fn pct(a: usize, b: usize) -> String {
    if b == 0 {
        "-".into()
    } else {
        tenths(div_half(1000 * a as i64, b as i64))
    }
}

fn yes(b: Option<bool>) -> String {
    match b {
        Some(true) => "yes".into(),
        Some(false) => "no".into(),
        None => "-".into(),
    }
}

fn runs_of<'a>(replay: &'a Replay, c: &'a Condition) -> impl Iterator<Item = &'a RunResult> {
    replay.runs.iter().filter(move |r| &r.condition == c)
}

fn dash_if_empty(s: String) -> String {
    if s.is_empty() {
        "-".into()
    } else {
        s
    }
}

/// The replay condition that matches a session's recorded mode, and its run.
fn recorded_run<'a>(replay: &'a Replay, s: &Session) -> (String, Option<&'a RunResult>) {
    let cond = replay_condition_for(s.recorded_mode.as_deref());
    let run = replay.run(&s.name, &cond);
    (cond, run)
}

/// Missing items of one kind at one compaction, in key order.
fn missing_at(run: &RunResult, seq: usize, kind: CheckKind) -> Vec<String> {
    let mut v: Vec<(usize, String)> = run
        .checks
        .iter()
        .filter(|k| {
            k.scope == Scope::Compaction
                && k.compaction_seq == Some(seq)
                && k.kind == kind
                && !k.present
        })
        .map(|k| (k.ord, k.item.clone()))
        .collect();
    v.sort();
    v.into_iter().map(|x| x.1).collect()
}

/// Every table of the report, one function each.
pub fn tables(replay: &Replay, kernel: &MissionKernel, key: &FactKey) -> Vec<Table> {
    vec![
        table_sessions(replay),
        survival_by_condition(replay),
        survival_by_prohibition(replay, kernel),
        prohibited_actions(replay),
        prohibited_action_detail(replay),
        facts_by_compaction(replay, key),
        terms_absent_by_condition(replay, key),
        compactions_per_run(replay),
        reduction_by_condition(replay),
        tokens_by_condition(replay),
        floor_by_condition(replay),
        damage_by_condition(replay, key),
        run_tokens_vs_record(replay),
        recorded_vs_replay(replay),
    ]
}

/// Sessions.
fn table_sessions(replay: &Replay) -> Table {
    Table {
        name: "sessions",
        title: "Recorded sessions",
        header: vec![
            "session",
            "kind",
            "requests",
            "recorded mode",
            "recorded compactions",
            "token estimate (intercept + slope × bundled)",
        ],
        rows: replay
            .sessions
            .iter()
            .map(|s| {
                vec![
                    s.name.clone(),
                    s.kind.name().into(),
                    s.steps.len().to_string(),
                    s.recorded_mode.clone().unwrap_or_else(|| "-".into()),
                    s.recorded.len().to_string(),
                    format!(
                        "{} + {}.{:03}",
                        s.calibration.intercept.round() as i64,
                        (s.calibration.slope * 1000.0).round() as i64 / 1000,
                        (s.calibration.slope * 1000.0).round() as i64 % 1000
                    ),
                ]
            })
            .collect(),
    }
}

/// Survival by condition.
fn survival_by_condition(replay: &Replay) -> Table {
    let mut rows = Vec::new();
    for c in &replay.conditions {
        let (mut actions, mut checks, mut present) = (0, 0, 0);
        for r in runs_of(replay, c) {
            actions += r
                .actions
                .iter()
                .filter(|a| a.compaction_seq.is_some())
                .count();
            for k in &r.checks {
                if k.scope == Scope::Action
                    && k.kind == CheckKind::Prohibition
                    && k.compaction_seq.is_some()
                {
                    checks += 1;
                    present += k.present as usize;
                }
            }
        }
        rows.push(vec![
            c.label(),
            actions.to_string(),
            checks.to_string(),
            present.to_string(),
            pct(present, checks),
        ]);
    }
    Table {
        name: "survival_by_condition",
        title: "Constraint survival: prohibitions present in the context before each action sent after a compaction",
        header: vec![
            "condition",
            "actions after compaction",
            "prohibition checks",
            "present",
            "survival %",
        ],
        rows,
    }
}

/// Survival by prohibition.
fn survival_by_prohibition(replay: &Replay, kernel: &MissionKernel) -> Table {
    let mut rows = Vec::new();
    for c in &replay.conditions {
        for (i, p) in kernel.prohibitions.iter().enumerate() {
            let (mut checks, mut present) = (0, 0);
            for r in runs_of(replay, c) {
                for k in &r.checks {
                    if k.scope == Scope::Action
                        && k.kind == CheckKind::Prohibition
                        && k.compaction_seq.is_some()
                        && k.ord == i
                    {
                        checks += 1;
                        present += k.present as usize;
                    }
                }
            }
            rows.push(vec![
                c.label(),
                p.id.clone(),
                checks.to_string(),
                present.to_string(),
                pct(present, checks),
            ]);
        }
    }
    Table {
        name: "survival_by_prohibition",
        title: "Survival per prohibition (actions after a compaction)",
        header: vec![
            "condition",
            "prohibition",
            "checks",
            "present",
            "survival %",
        ],
        rows,
    }
}

/// Prohibited actions.
fn prohibited_actions(replay: &Replay) -> Table {
    let mut rows = Vec::new();
    for c in &replay.conditions {
        let (mut n, mut present) = (0, 0);
        for r in runs_of(replay, c) {
            for a in r.actions.iter().filter(|a| a.prohibition.is_some()) {
                n += 1;
                present += a.constraint_present.unwrap_or(false) as usize;
            }
        }
        rows.push(vec![
            c.label(),
            n.to_string(),
            present.to_string(),
            (n - present).to_string(),
        ]);
    }
    Table {
        name: "prohibited_actions",
        title: "Prohibited actions (as recorded) with and without their constraint in context",
        header: vec![
            "condition",
            "prohibited actions",
            "constraint in context",
            "constraint absent",
        ],
        rows,
    }
}

/// Prohibited action detail.
fn prohibited_action_detail(replay: &Replay) -> Table {
    let mut rows = Vec::new();
    for s in &replay.sessions {
        let Some(first) = replay.runs.iter().find(|r| r.session == s.name) else {
            continue;
        };
        for a0 in first.actions.iter().filter(|a| a.prohibition.is_some()) {
            for c in &replay.conditions {
                let Some(r) = replay.run_under(&s.name, c) else {
                    continue;
                };
                let Some(a) = r
                    .actions
                    .iter()
                    .find(|a| a.step == a0.step && a.ord == a0.ord)
                else {
                    continue;
                };
                rows.push(vec![
                    s.name.clone(),
                    a.step.to_string(),
                    a.tool.clone(),
                    a.prohibition.clone().unwrap_or_default(),
                    c.label(),
                    a.compaction_seq.unwrap_or(0).to_string(),
                    yes(a.constraint_present),
                    yes(a.constraint_verbatim),
                ]);
            }
        }
    }
    Table {
        name: "prohibited_action_detail",
        title: "Each prohibited action, under each condition",
        header: vec![
            "session",
            "request",
            "tool",
            "prohibition",
            "condition",
            "compactions before",
            "constraint in context",
            "verbatim",
        ],
        rows,
    }
}

/// Facts and terms per compaction.
fn facts_by_compaction(replay: &Replay, key: &FactKey) -> Table {
    let n_facts = key.facts.len();
    let mut rows = Vec::new();
    for s in &replay.sessions {
        for c in &replay.conditions {
            let Some(r) = replay.run_under(&s.name, c) else {
                continue;
            };
            for m in &r.compactions {
                let facts_missing = missing_at(r, m.seq, CheckKind::Fact);
                let terms_missing = missing_at(r, m.seq, CheckKind::Term);
                rows.push(vec![
                    s.name.clone(),
                    c.label(),
                    m.seq.to_string(),
                    m.step.to_string(),
                    format!("{} → {}", m.est_before, m.est_after),
                    tenths(pct_tenths(m.reduction_pct)),
                    format!("{}/{}", n_facts - facts_missing.len(), n_facts),
                    dash_if_empty(facts_missing.join(", ")),
                    dash_if_empty(terms_missing.join(", ")),
                ]);
            }
        }
    }
    Table {
        name: "facts_by_compaction",
        title:
            "Every compaction: size, tracked facts and mission terms in the request right after it",
        header: vec![
            "session",
            "condition",
            "#",
            "request",
            "tokens before → after",
            "reduction %",
            "facts present",
            "facts missing",
            "terms missing",
        ],
        rows,
    }
}

/// Terms absent per condition.
fn terms_absent_by_condition(replay: &Replay, key: &FactKey) -> Table {
    let mut rows = Vec::new();
    for c in &replay.conditions {
        let mut n = 0;
        let mut fact_absent = 0;
        let mut term_absent = vec![0usize; key.mission_terms.len()];
        for r in runs_of(replay, c) {
            for m in &r.compactions {
                n += 1;
                if !missing_at(r, m.seq, CheckKind::Fact).is_empty() {
                    fact_absent += 1;
                }
            }
            for k in &r.checks {
                if k.scope == Scope::Compaction && k.kind == CheckKind::Term && !k.present {
                    term_absent[k.ord] += 1;
                }
            }
        }
        let terms: Vec<String> = key
            .mission_terms
            .iter()
            .zip(&term_absent)
            .filter(|(_, n)| **n > 0)
            .map(|(t, n)| format!("{t} {n}"))
            .collect();
        rows.push(vec![
            c.label(),
            n.to_string(),
            fact_absent.to_string(),
            dash_if_empty(terms.join(", ")),
        ]);
    }
    Table {
        name: "terms_absent_by_condition",
        title: "Compactions after which tracked material was absent",
        header: vec![
            "condition",
            "compactions",
            "with a fact absent",
            "terms absent (compactions)",
        ],
        rows,
    }
}

/// Compactions per run.
fn compactions_per_run(replay: &Replay) -> Table {
    let mut rows = Vec::new();
    for c in &replay.conditions {
        let counts: Vec<usize> = runs_of(replay, c).map(|r| r.compactions.len()).collect();
        let total: usize = counts.iter().sum();
        rows.push(vec![
            c.label(),
            counts.len().to_string(),
            total.to_string(),
            if counts.is_empty() {
                "-".into()
            } else {
                hundredths(div_half(100 * total as i64, counts.len() as i64))
            },
            counts.iter().filter(|n| **n >= 2).count().to_string(),
        ]);
    }
    Table {
        name: "compactions_per_run",
        title: "Compactions per run",
        header: vec![
            "condition",
            "runs",
            "compactions",
            "per run",
            "runs with 2+",
        ],
        rows,
    }
}

/// Reduction.
fn reduction_by_condition(replay: &Replay) -> Table {
    let mut rows = Vec::new();
    for c in &replay.conditions {
        let ms: Vec<_> = runs_of(replay, c)
            .flat_map(|r| r.compactions.iter())
            .collect();
        if ms.is_empty() {
            rows.push(vec![
                c.label(),
                "0".into(),
                "-".into(),
                "-".into(),
                "-".into(),
                "-".into(),
                "-".into(),
            ]);
            continue;
        }
        let n = ms.len() as i64;
        let t: Vec<i64> = ms.iter().map(|m| pct_tenths(m.reduction_pct)).collect();
        let min = t.iter().copied().min().unwrap_or(0);
        let max = t.iter().copied().max().unwrap_or(0);
        let mean = div_half(t.iter().sum::<i64>(), n);
        let before = div_half(ms.iter().map(|m| m.est_before as i64).sum::<i64>(), n);
        let after = div_half(ms.iter().map(|m| m.est_after as i64).sum::<i64>(), n);
        rows.push(vec![
            c.label(),
            ms.len().to_string(),
            tenths(min),
            tenths(mean),
            tenths(max),
            before.to_string(),
            after.to_string(),
        ]);
    }
    Table {
        name: "reduction_by_condition",
        title: "Reduction per compaction (the same request, uncompacted and compacted)",
        header: vec![
            "condition",
            "compactions",
            "min %",
            "mean %",
            "max %",
            "mean before",
            "mean after",
        ],
        rows,
    }
}

/// Tokens across whole runs.
fn tokens_by_condition(replay: &Replay) -> Table {
    let mut rows = Vec::new();
    for c in &replay.conditions {
        let runs: Vec<_> = runs_of(replay, c).collect();
        let req: usize = runs.iter().map(|r| r.tokens.requests).sum();
        let si: usize = runs.iter().map(|r| r.tokens.summarizer_in).sum();
        let so: usize = runs.iter().map(|r| r.tokens.summarizer_out).sum();
        let total = req + si + so;
        rows.push(vec![
            c.label(),
            runs.len().to_string(),
            req.to_string(),
            si.to_string(),
            so.to_string(),
            total.to_string(),
            if runs.is_empty() {
                "-".into()
            } else {
                div_half(total as i64, runs.len() as i64).to_string()
            },
        ]);
    }
    Table {
        name: "tokens_by_condition",
        title: "Input tokens across whole runs, summarizer input and output included",
        header: vec![
            "condition",
            "runs",
            "request tokens",
            "summarizer in",
            "summarizer out",
            "total",
            "mean per run",
        ],
        rows,
    }
}

/// Floor.
fn floor_by_condition(replay: &Replay) -> Table {
    let mut rows = Vec::new();
    for c in &replay.conditions {
        let ms: Vec<_> = runs_of(replay, c)
            .flat_map(|r| r.compactions.iter())
            .collect();
        let met = ms.iter().filter(|m| m.floor_met).count();
        let min = ms.iter().map(|m| m.floor_required).min();
        let max = ms.iter().map(|m| m.floor_required).max();
        rows.push(vec![
            c.label(),
            ms.len().to_string(),
            met.to_string(),
            min.map_or("-".into(), |n| n.to_string()),
            max.map_or("-".into(), |n| n.to_string()),
        ]);
    }
    Table {
        name: "floor_by_condition",
        title: "Floor rule: trigger ≥ fixed overhead + 2 × what remains after compaction",
        header: vec![
            "condition",
            "compactions",
            "floor met",
            "required min",
            "required max",
        ],
        rows,
    }
}

/// What each strategy still carries with a damaged summary.
fn damage_by_condition(replay: &Replay, key: &FactKey) -> Table {
    let n_facts = key.facts.len();
    let mut rows = Vec::new();
    for c in replay.conditions.iter().filter(|c| !c.damage.is_empty()) {
        let (mut n, mut carried, mut facts, mut possible) = (0, 0, 0, 0);
        for r in runs_of(replay, c) {
            for m in &r.compactions {
                n += 1;
                let missing = missing_at(r, m.seq, CheckKind::Fact);
                if c.damage.iter().all(|d| !missing.contains(d)) {
                    carried += 1;
                }
                facts += n_facts - missing.len();
                possible += n_facts;
            }
        }
        rows.push(vec![
            c.label(),
            c.damage.join(", "),
            n.to_string(),
            carried.to_string(),
            format!("{facts}/{possible}"),
        ]);
    }
    Table {
        name: "damage_by_condition",
        title: "Damaged summary: compactions after which the damaged fact was still in the request",
        header: vec![
            "condition",
            "damaged",
            "compactions",
            "damaged fact still present",
            "facts present (all compactions)",
        ],
        rows,
    }
}

/// Whole runs beside the record.
fn run_tokens_vs_record(replay: &Replay) -> Table {
    let mut rows = Vec::new();
    for s in &replay.sessions {
        let (cond, run) = recorded_run(replay, s);
        rows.push(vec![
            s.name.clone(),
            s.recorded_mode.clone().unwrap_or_else(|| "-".into()),
            s.recorded_input_tokens
                .map_or("-".into(), |n| n.to_string()),
            s.recorded.len().to_string(),
            cond.clone(),
            run.map_or("-".into(), |r| r.tokens.total().to_string()),
            run.map_or("-".into(), |r| r.compactions.len().to_string()),
        ]);
    }
    Table {
        name: "run_tokens_vs_record",
        title: "Whole-run input tokens beside the record (recorded totals include re-fetches and summarizer calls)",
        header: vec![
            "session",
            "recorded mode",
            "recorded input tokens",
            "recorded compactions",
            "replay condition",
            "replay tokens (est.)",
            "replay compactions",
        ],
        rows,
    }
}

/// Recorded vs replay.
fn recorded_vs_replay(replay: &Replay) -> Table {
    let mut rows = Vec::new();
    for s in &replay.sessions {
        let (cond, run) = recorded_run(replay, s);
        for rc in &s.recorded {
            let seq = recorded_seq(&rc.id);
            let m = run.and_then(|r| r.compactions.iter().find(|m| m.seq == seq));
            let mut row = vec![
                s.name.clone(),
                rc.id.clone(),
                rc.step.to_string(),
                format!("{} → {}", rc.uncompacted, rc.compacted),
                tenths(pct_tenths(rc.reduction_pct)),
                dash_if_empty(rc.terms_missing.join(", ")),
                dash_if_empty(rc.facts_missing.join(", ")),
                cond.clone(),
            ];
            match (run, m) {
                (Some(r), Some(m)) => row.extend([
                    m.step.to_string(),
                    format!("{} → {}", m.est_before, m.est_after),
                    tenths(pct_tenths(m.reduction_pct)),
                    dash_if_empty(missing_at(r, m.seq, CheckKind::Term).join(", ")),
                    dash_if_empty(missing_at(r, m.seq, CheckKind::Fact).join(", ")),
                ]),
                _ => row.extend(["-", "-", "-", "-", "-"].map(String::from)),
            }
            rows.push(row);
        }
    }
    Table {
        name: "recorded_vs_replay",
        title: "Each recorded compaction beside its replay (the recorded summary under the run's own strategy)",
        header: vec![
            "session",
            "recorded",
            "request",
            "recorded tokens",
            "recorded reduction %",
            "recorded terms missing",
            "recorded facts missing",
            "replay condition",
            "replay request",
            "replay tokens (est.)",
            "replay reduction %",
            "replay terms missing",
            "replay facts missing",
        ],
        rows,
    }
}

/// The sentence for each prohibited action sent after its constraint left
/// the context, from the records.
fn observations(replay: &Replay) -> Vec<String> {
    let mut out = Vec::new();
    for r in &replay.runs {
        for a in &r.actions {
            if a.prohibition.is_some() && a.constraint_present == Some(false) {
                let cmp = a
                    .compaction_seq
                    .and_then(|s| r.compactions.iter().find(|m| m.seq == s));
                let at = cmp.map_or("-".to_string(), |m| m.step.to_string());
                let gone: Vec<String> = r
                    .requests
                    .iter()
                    .find(|q| q.step == a.step)
                    .map(|q| q.terms_missing.clone())
                    .unwrap_or_default();
                out.push(format!(
                    "- **{}**, {}: `{}` sent at request {} (prohibition `{}`), after compaction at request {}; mission terms absent from the request that preceded it: {}.",
                    r.session,
                    r.condition.label(),
                    a.tool,
                    a.step,
                    a.prohibition.clone().unwrap_or_default(),
                    at,
                    if gone.is_empty() { "none".into() } else { gone.iter().map(|t| format!("\"{t}\"")).collect::<Vec<_>>().join(", ") }
                ));
            }
        }
    }
    out
}

pub fn markdown(
    replay: &Replay,
    kernel: &MissionKernel,
    key: &FactKey,
    policy: &RetentionPolicy,
    tables: &[Table],
    charts: &[PathBuf],
    dir: &Path,
) -> String {
    let get = |n: &str| tables.iter().find(|t| t.name == n);
    let mut s = String::new();
    intro(&mut s, replay, kernel, key, policy);
    beside_the_record(&mut s, replay, tables);
    let _ = writeln!(s, "## Constraint presence at each action\n");
    section(
        &mut s,
        tables,
        &[
            "survival_by_condition",
            "survival_by_prohibition",
            "prohibited_actions",
            "prohibited_action_detail",
        ],
    );
    let _ = writeln!(s, "## Compactions\n");
    section(
        &mut s,
        tables,
        &[
            "compactions_per_run",
            "reduction_by_condition",
            "floor_by_condition",
            "tokens_by_condition",
            "facts_by_compaction",
        ],
    );
    let _ = writeln!(s, "## Charts\n");
    for c in charts {
        let rel = c.strip_prefix(dir).unwrap_or(c);
        let _ = writeln!(s, "![{}]({})\n", rel.display(), rel.display());
    }
    if let Some(t) = get("sessions") {
        let _ = writeln!(s, "## Sessions\n\n{}", t.markdown());
    }
    let synthesized: usize = replay.sessions.iter().map(|s| s.synthesized_results).sum();
    if synthesized > 0 {
        let _ = writeln!(s, "{synthesized} tool call(s) had no recorded result; the replay answers them with a placeholder.\n");
    }
    let _ = writeln!(s, "Every table above is reproduced from `replay.sqlite` by the query of the same name in `eval/replay.sql`.");
    s
}

/// The named tables, each under its title, in this order.
fn section(s: &mut String, tables: &[Table], names: &[&str]) {
    for name in names {
        if let Some(t) = tables.iter().find(|t| t.name == *name) {
            let _ = writeln!(s, "### {}\n\n{}", t.title, t.markdown());
        }
    }
}

/// The title, what was replayed, and how to read the report.
fn intro(
    s: &mut String,
    replay: &Replay,
    kernel: &MissionKernel,
    key: &FactKey,
    policy: &RetentionPolicy,
) {
    let _ = writeln!(s, "# Replay: what survived at each action\n");
    let _ = writeln!(
        s,
        "{} session(s) × {} condition(s). Kernel `{}` v{} (sha256 {}), policy `{}` v{} (trigger {} tokens, ≥ {} new tool results, no compaction on consecutive requests), {} tracked facts and {} mission terms checked by keyword on the text sent (instructions and messages; tool schemas excluded).\n",
        replay.sessions.len(),
        replay.conditions.len(),
        kernel.id,
        kernel.version,
        kernel.short_hash(),
        policy.id,
        policy.version,
        policy.compaction.trigger_tokens,
        policy.compaction.min_new_tool_results,
        key.facts.len(),
        key.mission_terms.len()
    );
    let _ = writeln!(s, "## How to read this\n");
    let _ = writeln!(s, "- The agent's actions are fixed from the record. Under each condition the trigger rule is applied to that condition's own requests; the request before each later action is the compacted request plus the turns recorded after the compaction, up to that action, until the next compaction under the same condition.");
    let _ = writeln!(s, "- Token counts are in the record's units. Reference runs: the bundled tokenizer's count of a request's text mapped by a least-squares fit to the provider's recorded input tokens on that run's uncompacted requests (the intercept carries the tool schemas, which the records do not hold); a request identical to a recorded one takes its recorded count. Plain session files: the bundled tokenizer, tool schemas included.");
    let verbs: Vec<String> = kernel
        .prohibitions
        .iter()
        .map(|p| {
            format!(
                "`{}` → \"{}\"",
                p.id,
                super::engine::prohibition_term(&p.text, key).unwrap_or("(whole text)")
            )
        })
        .collect();
    let _ = writeln!(s, "- A prohibition is *present* when the first mission term its text names (its verb: {}) is in the context, the reference's kernel-term check per prohibition; *verbatim* when its whole text is. Keyword checks say what text was there, not what the agent understood.", verbs.join(", "));
    let _ = writeln!(s, "- Summarizer `recorded` puts in place the summary the reference recorded at the same request (reference runs only; `none` where nothing was recorded there). `+damage:F` removes every summary sentence that mentions a key term of fact F before the rebuild, as the seed's FI-1 did.\n");
}

/// Prohibited actions sent without their constraint, and the tables that
/// set the replay beside the record.
fn beside_the_record(s: &mut String, replay: &Replay, tables: &[Table]) {
    // The seed's own figures are prose in docs/reference-runs.md, not output.
    let _ = writeln!(s, "## Beside the record\n");
    let obs = observations(replay);
    if obs.is_empty() {
        let _ = writeln!(
            s,
            "In this replay no prohibited action was sent without its constraint in context.\n"
        );
    } else {
        let _ = writeln!(
            s,
            "Prohibited actions sent after their constraint left the context, in this replay:\n"
        );
        for o in &obs {
            let _ = writeln!(s, "{o}");
        }
        s.push('\n');
    }
    section(
        s,
        tables,
        &[
            "recorded_vs_replay",
            "terms_absent_by_condition",
            "run_tokens_vs_record",
            "damage_by_condition",
        ],
    );
    let _ = writeln!(s, "Replay tokens are estimates in the record's units; the replayed summarizer inputs are this library's (the governed summarizer sees the narrative only), not the reference's, so whole-run totals of governed runs come out below the record.\n");
    let _ = writeln!(s, "Recorded figures are read from the run records at replay time; replay figures are this replay's.\n");
}
