//! Helpers shared by the continuity test suites: where the repository and
//! the published reference runs are, loaders that panic with the file's
//! name, and a token counter for tests that check structure, not counts.
//!
//! It depends on the core only, so the core's tests build without the model
//! stack. Tests of exact token counts use `continuity_models::TokenCounter`.
#![allow(clippy::unwrap_used)]

pub mod claude_code;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Once;

use continuity_core::compact::{compact, Compaction, Inputs, Strategy};
use continuity_core::error::{Error, Source};
use continuity_core::redact::Redactor;
use continuity_core::summarize::{Extractive, NoSummary, Summarizer};
use continuity_core::tokens::TokenCount;
use continuity_core::{formats, MissionKernel, RetentionPolicy, Transcript};

/// The repository root (the workspace).
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The published reference runs, beside the clone (CI lays ../shared there).
pub fn reference_dir() -> PathBuf {
    match std::env::var_os("CONTINUITY_REFERENCE") {
        Some(p) => PathBuf::from(p),
        None => repo().join("../shared/reference/mission-continuity"),
    }
}

static SKIP_NOTICE: Once = Once::new();

/// The reference folder, or `None` after printing (once per test binary,
/// past libtest's capture) the one line that names every skipped test.
/// `skipped` names them: every test that reads the reference runs lives in
/// one test binary, so one line covers them all.
pub fn reference_or_skip(skipped: &str) -> Option<PathBuf> {
    let dir = reference_dir();
    if dir.join("replays").is_dir() {
        return Some(dir);
    }
    SKIP_NOTICE.call_once(|| {
        let _ = writeln!(
            std::io::stderr(),
            "skipped reference tests ({} not found): {skipped}",
            dir.display()
        );
    });
    None
}

/// The real archives folder (`$CONTINUITY_EXTERNAL`, else
/// `../shared/external/real-archives`), or `None` after one `skipped:` line.
pub fn real_archives_or_skip(test: &str) -> Option<PathBuf> {
    let dir = std::env::var_os("CONTINUITY_EXTERNAL")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join("../shared/external/real-archives"));
    if dir.is_dir() {
        return Some(dir);
    }
    let _ = writeln!(
        std::io::stderr(),
        "skipped: {test} ({} not found)",
        dir.display()
    );
    None
}

/// Every archived compaction input of the reference runs, sorted.
pub fn reference_archives(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(runs) = std::fs::read_dir(dir.join("replays")) else {
        return out;
    };
    for run in runs.flatten() {
        let archive = run.path().join("run/archive");
        if let Ok(files) = std::fs::read_dir(&archive) {
            for f in files.flatten() {
                let p = f.path();
                if p.extension().is_some_and(|e| e == "json") {
                    out.push(p);
                }
            }
        }
    }
    out.sort();
    out
}

pub fn load_transcript(path: &Path) -> Transcript {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    formats::parse_bytes(&bytes, &Source::path(path)).unwrap_or_else(|e| panic!("{e}"))
}

pub fn load_kernel(path: &Path) -> MissionKernel {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    MissionKernel::from_toml(&text, &Source::path(path), chrono::Utc::now())
        .unwrap_or_else(|e| panic!("{e}"))
}

pub fn load_policy(path: &Path) -> RetentionPolicy {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    RetentionPolicy::from_toml(&text, &Source::path(path)).unwrap_or_else(|e| panic!("{e}"))
}

/// Counts words and punctuation marks: deterministic and monotone in the
/// text, for tests of the pipeline's structure. Not a measurement; exact
/// counts come from a real tokenizer.
pub struct WordCount;

impl TokenCount for WordCount {
    fn count(&self, text: &str) -> Result<usize, Error> {
        let mut n = 0;
        let mut in_word = false;
        for c in text.chars() {
            if c.is_alphanumeric() || c == '_' {
                if !in_word {
                    n += 1;
                }
                in_word = true;
            } else {
                in_word = false;
                if !c.is_whitespace() {
                    n += 1;
                }
            }
        }
        Ok(n)
    }

    fn name(&self) -> &str {
        "word-count"
    }
}

/// The core's own summarizers by name: `extractive` or `none`.
pub fn core_summarizer(name: &str) -> Box<dyn Summarizer> {
    match name {
        "extractive" => Box::new(Extractive),
        "none" => Box::new(NoSummary),
        other => panic!("the core has no summarizer `{other}`"),
    }
}

/// One compaction with a fresh redactor, counted by `tokens`; its error
/// as the library returns it.
fn try_run(
    t: &Transcript,
    kernel: &MissionKernel,
    policy: &RetentionPolicy,
    strategy: Strategy,
    summarizer: &mut dyn Summarizer,
    tokens: &dyn TokenCount,
) -> Result<Compaction, Error> {
    let mut redactor = Redactor::new(&policy.personal_data).expect("redactor");
    compact(
        &Inputs {
            transcript: t,
            input_name: "test",
            kernel,
            policy,
            strategy,
        },
        chrono::Utc::now(),
        summarizer,
        tokens,
        &mut redactor,
    )
}

/// One compaction with a fresh redactor, counted by `tokens`.
pub fn run_with(
    t: &Transcript,
    kernel: &MissionKernel,
    policy: &RetentionPolicy,
    strategy: Strategy,
    summarizer: &mut dyn Summarizer,
    tokens: &dyn TokenCount,
) -> Compaction {
    try_run(t, kernel, policy, strategy, summarizer, tokens)
        .unwrap_or_else(|e| panic!("compaction failed: {e}"))
}

/// [`run_with`] a core summarizer and [`WordCount`].
pub fn run(
    t: &Transcript,
    kernel: &MissionKernel,
    policy: &RetentionPolicy,
    strategy: Strategy,
    summarizer: &str,
) -> Compaction {
    run_with(
        t,
        kernel,
        policy,
        strategy,
        core_summarizer(summarizer).as_mut(),
        &WordCount,
    )
}

/// [`run`] at the policy's target, or, when that target is below what must
/// be kept (instructions, mission, policy pins and the last turn), at the
/// smallest target the run accepts.
pub fn run_fitting(
    t: &Transcript,
    kernel: &MissionKernel,
    policy: &RetentionPolicy,
    strategy: Strategy,
    summarizer: &str,
) -> Compaction {
    let mut policy = policy.clone();
    for _ in 0..3 {
        let mut s = core_summarizer(summarizer);
        let outcome = try_run(t, kernel, &policy, strategy, s.as_mut(), &WordCount);
        match outcome {
            Ok(c) => return c,
            Err(Error::OverBudget { must_keep, .. }) => {
                policy
                    .compaction
                    .set_target(must_keep + must_keep / 20 + 16);
            }
            Err(e) => panic!("compaction failed: {e}"),
        }
    }
    panic!("no target fits")
}

/// A path inside the repository, as a string (for command lines).
pub fn repo_file(relative: &str) -> String {
    repo().join(relative).display().to_string()
}
