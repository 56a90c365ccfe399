//! `continuity retention`: does what an agent needs survive compaction? Each
//! session is compacted at several targets; each question's expected answer
//! string is looked up, literally, in the compacted request as it would be
//! written. The result is a curve: per target, presence per category,
//! reduction and tokens after.

use std::collections::BTreeMap;
use std::path::Path;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use continuity_core::compact::{compact, Inputs, Strategy};
use continuity_core::error::Error;
use continuity_core::io;
use continuity_core::kernel::MissionKernel;
use continuity_core::policy::RetentionPolicy;
use continuity_core::redact::Redactor;
use continuity_core::summarize::Summarizer;
use continuity_core::tokens::TokenCount;
use continuity_core::transcript::Transcript;

#[derive(Debug, thiserror::Error)]
pub enum RetentionError {
    #[error("{path}: {message}")]
    Questions { path: String, message: String },
    #[error("{session}: {source}")]
    Compaction {
        session: String,
        #[source]
        source: Error,
    },
}

impl RetentionError {
    /// The CLI's exit code: a bad questions file is bad input (2); a
    /// compaction keeps its own code.
    pub fn exit_code(&self) -> i32 {
        match self {
            RetentionError::Questions { .. } => 2,
            RetentionError::Compaction { source, .. } => source.exit_code(),
        }
    }
}

/// One exact-answer question about a session.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub struct Question {
    pub id: String,
    pub category: String,
    pub expected: String,
}

#[derive(Deserialize)]
struct QuestionFile {
    questions: Vec<Question>,
}

/// The questions of one file: `{"questions": [{"id", "category",
/// "expected", …}, …]}` (other keys ignored).
pub fn parse_questions(path: &str, text: &str) -> Result<Vec<Question>, RetentionError> {
    let err = |message: String| RetentionError::Questions {
        path: path.to_string(),
        message,
    };
    let file: QuestionFile = serde_json::from_str(text).map_err(|e| err(e.to_string()))?;
    if file.questions.is_empty() {
        return Err(err("no questions".to_string()));
    }
    if let Some(q) = file.questions.iter().find(|q| q.expected.is_empty()) {
        return Err(err(format!(
            "question {} has an empty expected answer",
            q.id
        )));
    }
    Ok(file.questions)
}

/// A session and the questions asked about it.
pub struct Case {
    pub name: String,
    pub transcript: Transcript,
    pub questions: Vec<Question>,
}

/// What stays fixed across the curve.
pub struct Setup<'a> {
    pub kernel: &'a MissionKernel,
    pub policy: &'a RetentionPolicy,
    pub strategy: Strategy,
    pub tokens: &'a dyn TokenCount,
    pub now: DateTime<Utc>,
}

/// Present out of asked.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    pub present: usize,
    pub asked: usize,
}

impl Tally {
    pub fn pct(&self) -> f64 {
        if self.asked == 0 {
            0.0
        } else {
            100.0 * self.present as f64 / self.asked as f64
        }
    }
}

/// One session at one target.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SessionResult {
    pub session: String,
    pub tokens_before: usize,
    /// `None` when the target is below what must be kept (the run refused).
    pub tokens_after: Option<usize>,
    pub reduction_pct: Option<f64>,
    /// The over-budget message, when refused.
    pub refused: Option<String>,
    pub by_category: BTreeMap<String, Tally>,
    /// Ids of the questions whose answer is absent.
    pub missing: Vec<String>,
}

/// Every session at one target.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Point {
    pub target: usize,
    pub sessions: Vec<SessionResult>,
}

impl Point {
    /// Presence per category over every session, refused ones counting as
    /// absent.
    pub fn by_category(&self) -> BTreeMap<String, Tally> {
        let mut all: BTreeMap<String, Tally> = BTreeMap::new();
        for s in &self.sessions {
            for (c, t) in &s.by_category {
                let e = all.entry(c.clone()).or_default();
                e.present += t.present;
                e.asked += t.asked;
            }
        }
        all
    }

    pub fn total(&self) -> Tally {
        self.by_category()
            .values()
            .fold(Tally::default(), |a, t| Tally {
                present: a.present + t.present,
                asked: a.asked + t.asked,
            })
    }

    /// Sessions whose request is above the target (must be none).
    pub fn over_target(&self) -> usize {
        let over = |s: &&SessionResult| s.tokens_after.is_some_and(|a| a > self.target);
        self.sessions.iter().filter(over).count()
    }

    pub fn refused(&self) -> usize {
        self.sessions.iter().filter(|s| s.refused.is_some()).count()
    }

    /// Lowest and highest reduction over the sessions compacted.
    pub fn reduction_range(&self) -> Option<(f64, f64)> {
        let r: Vec<f64> = self
            .sessions
            .iter()
            .filter_map(|s| s.reduction_pct)
            .collect();
        let lo = r.iter().copied().reduce(f64::min)?;
        let hi = r.iter().copied().reduce(f64::max)?;
        Some((lo, hi))
    }

    pub fn max_tokens_after(&self) -> Option<usize> {
        self.sessions.iter().filter_map(|s| s.tokens_after).max()
    }
}

/// Is the answer in the request as written? Literally, or as it reads
/// inside a JSON string (quotes and backslashes escaped).
pub fn present(request_json: &str, expected: &str) -> bool {
    if request_json.contains(expected) {
        return true;
    }
    let escaped = serde_json::to_string(expected).unwrap_or_default();
    let inner = escaped
        .strip_prefix('"')
        .and_then(|e| e.strip_suffix('"'))
        .unwrap_or("");
    !inner.is_empty() && request_json.contains(inner)
}

/// One session at one target: compact it (with the target as the policy's
/// trigger) and look every answer up in the written request.
pub fn measure(
    case: &Case,
    target: usize,
    setup: &Setup<'_>,
    summarizer: &mut dyn Summarizer,
) -> Result<SessionResult, RetentionError> {
    let mut policy = setup.policy.clone();
    policy.compaction.set_target(target);
    let fail = |source: Error| RetentionError::Compaction {
        session: case.name.clone(),
        source,
    };
    let mut redactor = Redactor::new(&policy.personal_data).map_err(fail)?;
    let inputs = Inputs {
        transcript: &case.transcript,
        input_name: &case.name,
        kernel: setup.kernel,
        policy: &policy,
        strategy: setup.strategy,
    };
    let outcome = compact(&inputs, setup.now, summarizer, setup.tokens, &mut redactor);
    let c = match outcome {
        Ok(c) => c,
        Err(e @ Error::OverBudget { .. }) => return Ok(refused(case, e, setup)),
        Err(e) => return Err(fail(e)),
    };
    let files = io::serialize(&c).map_err(fail)?;
    let request = files
        .files
        .iter()
        .find(|(n, _)| *n == "request.json")
        .map(|(_, b)| String::from_utf8_lossy(b).into_owned())
        .unwrap_or_default();
    let mut by_category: BTreeMap<String, Tally> = BTreeMap::new();
    let mut missing = Vec::new();
    for q in &case.questions {
        let t = by_category.entry(q.category.clone()).or_default();
        t.asked += 1;
        if present(&request, &q.expected) {
            t.present += 1;
        } else {
            missing.push(q.id.clone());
        }
    }
    Ok(SessionResult {
        session: case.name.clone(),
        tokens_before: c.report.tokens.before,
        tokens_after: Some(c.report.tokens.after),
        reduction_pct: Some(c.report.reduction_pct),
        refused: None,
        by_category,
        missing,
    })
}

/// A session whose target is below what must be kept: every answer absent.
fn refused(case: &Case, e: Error, setup: &Setup<'_>) -> SessionResult {
    let mut by_category: BTreeMap<String, Tally> = BTreeMap::new();
    for q in &case.questions {
        by_category.entry(q.category.clone()).or_default().asked += 1;
    }
    SessionResult {
        session: case.name.clone(),
        tokens_before: continuity_core::compact::count_transcript(&case.transcript, setup.tokens)
            .unwrap_or(0),
        tokens_after: None,
        reduction_pct: None,
        refused: Some(e.to_string()),
        by_category,
        missing: case.questions.iter().map(|q| q.id.clone()).collect(),
    }
}

/// The curve: every session at every target, in the order given.
/// `on_done` is called after each compaction (for a progress bar).
pub fn run(
    cases: &[Case],
    targets: &[usize],
    setup: &Setup<'_>,
    summarizer: &mut dyn Summarizer,
    mut on_done: impl FnMut(&SessionResult),
) -> Result<Vec<Point>, RetentionError> {
    let mut points = Vec::with_capacity(targets.len());
    for &target in targets {
        let mut sessions = Vec::with_capacity(cases.len());
        for case in cases {
            let r = measure(case, target, setup, summarizer)?;
            on_done(&r);
            sessions.push(r);
        }
        points.push(Point { target, sessions });
    }
    Ok(points)
}

/// Read a questions file (an edge helper for the CLI).
pub fn load_questions(path: &Path) -> Result<Vec<Question>, RetentionError> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| RetentionError::Questions {
        path: name.clone(),
        message: e.to_string(),
    })?;
    parse_questions(&name, &text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_is_found_literally_or_json_escaped() {
        let request = r#"{"content": "path C:\\tmp\\a.txt said \"ok\""}"#;
        assert!(present(request, "C:\\tmp\\a.txt"));
        assert!(present(request, "said \"ok\""));
        assert!(!present(request, "said ok"));
        assert!(!present(r#"{"a": "value-1"}"#, "value-2"));
    }

    #[test]
    fn bad_question_files_name_the_file_and_the_problem() {
        let e = parse_questions("q.json", "{}").unwrap_err().to_string();
        assert!(e.starts_with("q.json: ") && e.contains("questions"), "{e}");
        let e = parse_questions("q.json", r#"{"questions": []}"#)
            .unwrap_err()
            .to_string();
        assert_eq!(e, "q.json: no questions");
        let one = r#"{"questions": [{"id": "a", "category": "c", "expected": ""}]}"#;
        let e = parse_questions("q.json", one).unwrap_err().to_string();
        assert!(e.contains("question a has an empty expected answer"), "{e}");
    }

    #[test]
    fn a_point_sums_categories_and_counts_what_is_over_or_refused() {
        let tally = |p, a| Tally {
            present: p,
            asked: a,
        };
        let session = |after: Option<usize>, p| SessionResult {
            session: "s".into(),
            tokens_before: 100,
            tokens_after: after,
            reduction_pct: after.map(|a| 100.0 * (100 - a) as f64 / 100.0),
            refused: after.is_none().then(|| "over".to_string()),
            by_category: BTreeMap::from([("x".to_string(), tally(p, 2))]),
            missing: vec![],
        };
        let point = Point {
            target: 50,
            sessions: vec![session(Some(40), 2), session(Some(60), 1), session(None, 0)],
        };
        assert_eq!(point.total(), tally(3, 6));
        assert_eq!(point.over_target(), 1);
        assert_eq!(point.refused(), 1);
        assert_eq!(point.reduction_range(), Some((40.0, 60.0)));
        assert_eq!(point.max_tokens_after(), Some(60));
    }
}
