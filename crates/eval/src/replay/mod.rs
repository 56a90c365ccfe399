//! `continuity replay`: re-run compaction over recorded sessions under every
//! condition (strategy × summarizer, optionally with a damaged summary) and
//! measure, at every action the agent took, what was still in its context.
//!
//! ```text
//! continuity replay ../shared/reference/mission-continuity/replays/* \
//!     --strategies summary-only,kernel-only,pins-only,governed \
//!     --summarizers none,extractive,recorded \
//!     --kernel eval/billing-dispute/kernel.toml --policy eval/billing-dispute/policy.toml \
//!     --key eval/billing-dispute/key.toml --out out/replay --jobs 2 --damage CF1
//! ```
//!
//! writes `out/replay/report.md`, `replay.sqlite` (queried by
//! `eval/replay.sql`) and the SVG charts the report embeds. Reference data is
//! read where it lies at run time; nothing of it is copied into the repository.
//!
//! [`session`] loads recorded sessions, [`engine`] replays one session under
//! one condition, [`store`] writes the SQLite database, [`report`] and
//! [`charts`] write `report.md` and its SVG charts.

pub mod charts;
pub mod engine;
pub mod report;
pub mod session;
pub mod store;

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::facts::FactKey;
use continuity_core::compact::Strategy;
use continuity_core::kernel::MissionKernel;
use continuity_core::policy::RetentionPolicy;
use continuity_core::tokens::TokenCount;

pub use engine::{Condition, RunResult, Setup, RECORDED, SUMMARIZERS};
pub use session::Session;

/// What can go wrong in a replay; each names the file or input at fault.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A recorded session that cannot be used (malformed or incomplete).
    #[error("{}: {message}", path.display())]
    Session { path: PathBuf, message: String },
    #[error("{}: SQLite: {source}", path.display())]
    Sql {
        path: PathBuf,
        #[source]
        source: rusqlite::Error,
    },
    #[error("drawing a chart: {0}")]
    Chart(String),
    /// Arguments that do not fit together (a duplicate session name, a
    /// damaged fact the key lacks).
    #[error("{0}")]
    Invalid(String),
    #[error(transparent)]
    Input(#[from] continuity_core::InputError),
    #[error(transparent)]
    Pipeline(#[from] continuity_core::Error),
}

pub type Result<T, E = ReplayError> = std::result::Result<T, E>;

impl ReplayError {
    pub(crate) fn io(path: &Path, source: std::io::Error) -> Self {
        ReplayError::Io {
            path: path.to_path_buf(),
            source,
        }
    }

    pub(crate) fn session(path: &Path, message: impl std::fmt::Display) -> Self {
        ReplayError::Session {
            path: path.to_path_buf(),
            message: message.to_string(),
        }
    }
}

/// Every condition, strategy-major: strategies × summarizers, each natural
/// and, when facts are named for damage, damaged.
pub fn conditions(
    strategies: &[Strategy],
    summarizers: &[String],
    damage: &[String],
) -> Vec<Condition> {
    let mut out = Vec::new();
    for &strategy in strategies {
        for s in summarizers {
            out.push(Condition {
                strategy,
                summarizer: s.clone(),
                damage: Vec::new(),
            });
            if !damage.is_empty() {
                out.push(Condition {
                    strategy,
                    summarizer: s.clone(),
                    damage: damage.to_vec(),
                });
            }
        }
    }
    out
}

/// The outcome of a whole replay, runs ordered session-major then by
/// condition.
pub struct Replay {
    pub sessions: Vec<Session>,
    pub conditions: Vec<Condition>,
    pub runs: Vec<RunResult>,
}

impl Replay {
    /// The run of `session` under the condition labelled `condition`.
    pub fn run(&self, session: &str, condition: &str) -> Option<&RunResult> {
        self.runs
            .iter()
            .find(|r| r.session == session && r.condition.label() == condition)
    }

    /// The run of `session` under `condition`.
    pub fn run_under(&self, session: &str, condition: &Condition) -> Option<&RunResult> {
        self.runs
            .iter()
            .find(|r| r.session == session && &r.condition == condition)
    }
}

pub fn load_sessions(
    paths: &[PathBuf],
    kernel: &MissionKernel,
    tokens: &dyn TokenCount,
) -> Result<Vec<Session>> {
    let mut out: Vec<Session> = Vec::new();
    for p in paths {
        let s = session::load(p, kernel, tokens)?;
        if out.iter().any(|o| o.name == s.name) {
            return Err(ReplayError::Invalid(format!(
                "two sessions are named `{}`; rename one",
                s.name
            )));
        }
        out.push(s);
    }
    Ok(out)
}

/// Replay every session under every condition on `jobs` threads;
/// `on_run(session, condition)` is called as each run finishes.
pub fn replay_all(
    sessions: Vec<Session>,
    conditions: Vec<Condition>,
    setup: &Setup<'_>,
    jobs: usize,
    on_run: &(dyn Fn(&str, &str) + Sync),
) -> Result<Replay> {
    for c in &conditions {
        if !SUMMARIZERS.contains(&c.summarizer.as_str()) {
            return Err(ReplayError::Invalid(format!(
                "unknown summarizer `{}`; available: {}",
                c.summarizer,
                SUMMARIZERS.join(", ")
            )));
        }
    }
    let work: Vec<(usize, usize)> = (0..sessions.len())
        .flat_map(|s| (0..conditions.len()).map(move |c| (s, c)))
        .collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .build()
        .map_err(|e| ReplayError::Invalid(format!("building the replay thread pool: {e}")))?;
    let runs: Result<Vec<RunResult>> = pool.install(|| {
        work.par_iter()
            .map(|&(s, c)| {
                let r = engine::replay(&sessions[s], &conditions[c], setup);
                on_run(&sessions[s].name, &conditions[c].label());
                r
            })
            .collect()
    });
    Ok(Replay {
        sessions,
        conditions,
        runs: runs?,
    })
}

/// Paths a replay writes.
pub struct Written {
    pub report: PathBuf,
    pub database: PathBuf,
    pub charts: Vec<PathBuf>,
}

/// Write `replay.sqlite`, the charts and `report.md` into `dir`.
pub fn write(
    replay: &Replay,
    kernel: &MissionKernel,
    key: &FactKey,
    policy: &RetentionPolicy,
    dir: &Path,
) -> Result<Written> {
    std::fs::create_dir_all(dir).map_err(|e| ReplayError::io(dir, e))?;
    let database = dir.join("replay.sqlite");
    store::write(&database, replay, kernel, key)?;
    let charts = charts::write_all(replay, dir)?;
    let tables = report::tables(replay, kernel, key);
    let md = report::markdown(replay, kernel, key, policy, &tables, &charts, dir);
    let report = dir.join("report.md");
    std::fs::write(&report, md).map_err(|e| ReplayError::io(&report, e))?;
    Ok(Written {
        report,
        database,
        charts,
    })
}

/// The replay condition a recorded compaction is set beside: the recorded
/// summary under the strategy the run used.
pub fn replay_condition_for(mode: Option<&str>) -> String {
    let strategy = match mode {
        Some("governed") => "governed",
        _ => "summary-only",
    };
    format!("{strategy}/{}", RECORDED)
}

/// `cmp-3` → 3.
pub fn recorded_seq(id: &str) -> usize {
    id.rsplit('-')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

/// A percentage rounded to tenths, stored as an integer.
pub fn pct_tenths(pct: f64) -> i64 {
    (pct * 10.0).round() as i64
}
