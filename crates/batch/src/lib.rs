//! `continuity-batch`: folder batches. Every session file under a folder
//! compacted in parallel, one output folder each, and one summary table
//! (CSV and SQLite).
//!
//! The work for one session is the caller's (`work`); this crate finds the
//! sessions, runs them on a pool of `threads`, catches what fails (an
//! error or a panic: the batch never stops), and resumes: a session whose
//! output folder holds its row ([`DONE`]) for the same input (size and
//! modification time) is not run again, and its row is read back. A file
//! the work finds is not a session at all ([`NotDone::NotASession`]: a
//! configuration, a manifest, a report) is skipped, not failed.

use std::fs;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::{Instant, UNIX_EPOCH};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// The file in a session's output folder that marks it complete: its row
/// of the summary, written after every other output.
pub const DONE: &str = "session.json";
/// The summary table, beside the session folders.
pub const SUMMARY_CSV: &str = "summary.csv";
pub const SUMMARY_SQLITE: &str = "summary.sqlite";
/// Where the session folders go inside the output folder.
pub const SESSIONS: &str = "sessions";

#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: {message}", path.display())]
    Sqlite { path: PathBuf, message: String },
    #[error("cannot start {threads} worker threads: {message}")]
    Pool { threads: usize, message: String },
}

/// One session to compact.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Job {
    pub input: PathBuf,
    /// The input's path under the folder, with `/` separators.
    pub name: String,
    /// Its output folder.
    pub out: PathBuf,
}

/// What the work for one session measured.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Measured {
    pub format: String,
    pub version: Option<String>,
    pub at: String,
    pub messages: usize,
    pub tokens_before: usize,
    pub tokens_after: usize,
    /// The unit of both token figures (the agent's own, or `--tokenizer`).
    #[serde(default)]
    pub tokenizer: String,
    pub agent_compactions: usize,
    pub warnings: usize,
    /// The fraction of literal state our output holds, where the point read
    /// is before an agent's compaction (and the agent's own, beside it).
    pub literal_ours: Option<f64>,
    pub literal_agent: Option<f64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Compacted,
    /// Not a session (its format is not detected): nothing to compact.
    Skipped,
    Failed,
}

impl Status {
    /// As written in the summary's `status` column.
    pub fn name(self) -> &'static str {
        match self {
            Status::Compacted => "compacted",
            Status::Skipped => "skipped",
            Status::Failed => "failed",
        }
    }
}

/// Why the work for one file did not compact it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotDone {
    /// The file is not a session: skipped, with the reason.
    NotASession(String),
    /// The session failed, with the error.
    Failed(String),
}

impl From<String> for NotDone {
    fn from(error: String) -> Self {
        NotDone::Failed(error)
    }
}

/// One row of the summary.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub name: String,
    pub status: Status,
    #[serde(flatten)]
    pub measured: Measured,
    /// Why it failed, or why it is not a session (skipped).
    pub error: Option<String>,
    pub seconds: f64,
    /// The input this row is for (size, modification time in ns).
    pub input_bytes: u64,
    pub input_mtime_ns: u128,
    /// Read back from an earlier run (not serialized: true only in memory).
    #[serde(skip)]
    pub resumed: bool,
}

/// Every `.json` and `.jsonl` file under `root`, sorted, outside `out`
/// (when the output folder is inside the input folder) and outside hidden
/// folders.
pub fn discover(root: &Path, out: &Path) -> Result<Vec<Job>, BatchError> {
    let mut files = Vec::new();
    walk(root, out, &mut files)?;
    files.sort();
    Ok(files
        .into_iter()
        .map(|input| {
            let rel = input.strip_prefix(root).unwrap_or(&input).to_path_buf();
            let name = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            Job {
                out: out.join(SESSIONS).join(&rel),
                input,
                name,
            }
        })
        .collect())
}

fn walk(dir: &Path, out: &Path, files: &mut Vec<PathBuf>) -> Result<(), BatchError> {
    let io = |source| BatchError::Io {
        path: dir.to_path_buf(),
        source,
    };
    for entry in fs::read_dir(dir).map_err(io)? {
        let path = entry.map_err(io)?.path();
        let hidden = path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with('.'));
        if hidden || same_place(&path, out) {
            continue;
        }
        if path.is_dir() {
            walk(&path, out, files)?;
        } else if path
            .extension()
            .is_some_and(|e| e == "json" || e == "jsonl")
        {
            files.push(path);
        }
    }
    Ok(())
}

fn same_place(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

fn stamp(path: &Path) -> (u64, u128) {
    let Ok(meta) = fs::metadata(path) else {
        return (0, 0);
    };
    let mtime = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    (meta.len(), mtime)
}

/// The row of an earlier run, when it is for this very input.
pub fn finished(job: &Job) -> Option<Row> {
    let bytes = fs::read(job.out.join(DONE)).ok()?;
    let mut row: Row = serde_json::from_slice(&bytes).ok()?;
    let (len, mtime) = stamp(&job.input);
    (row.input_bytes == len && row.input_mtime_ns == mtime && row.name == job.name).then(|| {
        row.resumed = true;
        row
    })
}

/// Run `work` on every job not finished before, on `threads` threads;
/// `on_done` is called once per job as it ends (for a progress bar). A job
/// that fails or panics gets a failed row, one that is not a session a
/// skipped row; those rows are written too, so a re-run does not retry an
/// input that has not changed.
pub fn run<W, E, P>(
    jobs: &[Job],
    threads: usize,
    work: W,
    on_done: P,
) -> Result<Vec<Row>, BatchError>
where
    W: Fn(&Job) -> Result<Measured, E> + Sync,
    E: Into<NotDone>,
    P: Fn(&Row) + Sync,
{
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| BatchError::Pool {
            threads,
            message: e.to_string(),
        })?;
    let rows = pool.install(|| {
        jobs.par_iter()
            .map(|job| {
                let row = finished(job).unwrap_or_else(|| run_one(job, &work));
                on_done(&row);
                row
            })
            .collect()
    });
    Ok(rows)
}

fn run_one<W, E>(job: &Job, work: &W) -> Row
where
    W: Fn(&Job) -> Result<Measured, E> + Sync,
    E: Into<NotDone>,
{
    let (input_bytes, input_mtime_ns) = stamp(&job.input);
    let start = Instant::now();
    let outcome =
        catch_unwind(AssertUnwindSafe(|| work(job).map_err(Into::into))).unwrap_or_else(|_| {
            Err(NotDone::Failed(
                "internal error: the compaction panicked".into(),
            ))
        });
    let (status, measured, error) = match outcome {
        Ok(m) => (Status::Compacted, m, None),
        Err(NotDone::NotASession(why)) => (Status::Skipped, Measured::default(), Some(why)),
        Err(NotDone::Failed(e)) => (Status::Failed, Measured::default(), Some(e)),
    };
    let mut row = Row {
        name: job.name.clone(),
        status,
        measured,
        error,
        seconds: start.elapsed().as_secs_f64(),
        input_bytes,
        input_mtime_ns,
        resumed: false,
    };
    if let Err(e) = write_row(job, &row) {
        row.status = Status::Failed;
        row.error = Some(format!("cannot record the session as done: {e}"));
    }
    row
}

fn write_row(job: &Job, row: &Row) -> std::io::Result<()> {
    fs::create_dir_all(&job.out)?;
    let bytes = serde_json::to_vec_pretty(row).map_err(std::io::Error::other)?;
    let tmp = job.out.join(format!(".{DONE}.tmp"));
    fs::write(&tmp, bytes)?;
    fs::rename(&tmp, job.out.join(DONE))
}

const COLUMNS: &[&str] = &[
    "name",
    "status",
    "format",
    "version",
    "at",
    "messages",
    "tokens_before",
    "tokens_after",
    "tokenizer",
    "agent_compactions",
    "warnings",
    "literal_ours",
    "literal_agent",
    "seconds",
    "error",
];

fn cells(r: &Row) -> Vec<String> {
    let m = &r.measured;
    let opt = |v: Option<f64>| v.map(|f| format!("{f:.3}")).unwrap_or_default();
    vec![
        r.name.clone(),
        r.status.name().to_string(),
        m.format.clone(),
        m.version.clone().unwrap_or_default(),
        m.at.clone(),
        m.messages.to_string(),
        m.tokens_before.to_string(),
        m.tokens_after.to_string(),
        m.tokenizer.clone(),
        m.agent_compactions.to_string(),
        m.warnings.to_string(),
        opt(m.literal_ours),
        opt(m.literal_agent),
        format!("{:.3}", r.seconds),
        r.error.clone().unwrap_or_default(),
    ]
}

fn csv_cell(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Write the summary table: `summary.csv` and `summary.sqlite` (table
/// `sessions`, one row per session, replaced on each run).
pub fn write_summary(out: &Path, rows: &[Row]) -> Result<(), BatchError> {
    let mut csv = COLUMNS.join(",");
    csv.push('\n');
    for r in rows {
        let line: Vec<String> = cells(r).iter().map(|c| csv_cell(c)).collect();
        csv.push_str(&line.join(","));
        csv.push('\n');
    }
    let path = out.join(SUMMARY_CSV);
    fs::write(&path, csv).map_err(|source| BatchError::Io { path, source })?;
    write_sqlite(&out.join(SUMMARY_SQLITE), rows)
}

fn write_sqlite(path: &Path, rows: &[Row]) -> Result<(), BatchError> {
    let err = |e: rusqlite::Error| BatchError::Sqlite {
        path: path.to_path_buf(),
        message: e.to_string(),
    };
    let mut db = rusqlite::Connection::open(path).map_err(err)?;
    let tx = db.transaction().map_err(err)?;
    tx.execute_batch(
        "DROP TABLE IF EXISTS sessions;
         CREATE TABLE sessions (name TEXT PRIMARY KEY, status TEXT NOT NULL, format TEXT,
           version TEXT, at TEXT, messages INTEGER, tokens_before INTEGER, tokens_after INTEGER,
           tokenizer TEXT, agent_compactions INTEGER, warnings INTEGER, literal_ours REAL, literal_agent REAL,
           seconds REAL, error TEXT);",
    )
    .map_err(err)?;
    {
        let mut ins = tx
            .prepare(
                "INSERT INTO sessions VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15)",
            )
            .map_err(err)?;
        for r in rows {
            let m = &r.measured;
            ins.execute(rusqlite::params![
                r.name,
                r.status.name(),
                m.format,
                m.version,
                m.at,
                m.messages as i64,
                m.tokens_before as i64,
                m.tokens_after as i64,
                m.tokenizer,
                m.agent_compactions as i64,
                m.warnings as i64,
                m.literal_ours,
                m.literal_agent,
                r.seconds,
                r.error,
            ])
            .map_err(err)?;
        }
    }
    tx.commit().map_err(err)
}
