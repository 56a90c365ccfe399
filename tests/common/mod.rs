#![allow(dead_code)]
//! Shared test helpers.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Once;

use continuity::compact::{compact, Compaction, Inputs, Strategy};
use continuity::error::Source;
use continuity::facts::FactKey;
use continuity::redact::Redactor;
use continuity::summarize;
use continuity::tokens::TokenCounter;
use continuity::{formats, MissionKernel, RetentionPolicy, Transcript};

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The published reference runs, beside the clone (CI lays ../shared there).
pub fn reference_dir() -> PathBuf {
    match std::env::var_os("CONTINUITY_REFERENCE") {
        Some(p) => PathBuf::from(p),
        None => repo().join("../shared/reference/mission-continuity"),
    }
}

pub const REFERENCE_TESTS: &str = "reference::governed_keeps_every_prohibition_fact_and_term, \
reference::summary_only_never_carries_the_kernel, reference::outputs_are_valid_requests, \
reference::reduction_is_reported_beside_the_reference, reference::lfm_resummary_matches_recorded_keyword_checks";

static SKIP_NOTICE: Once = Once::new();

/// The reference folder, or `None` after printing (once, past libtest's
/// capture) the one line that names every skipped reference test.
pub fn reference_or_skip() -> Option<PathBuf> {
    let dir = reference_dir();
    if dir.join("replays").is_dir() {
        return Some(dir);
    }
    SKIP_NOTICE.call_once(|| {
        let _ = writeln!(
            std::io::stderr(),
            "skipped reference tests ({} not found): {REFERENCE_TESTS}",
            dir.display()
        );
    });
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

pub fn load_key(path: &Path) -> FactKey {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    FactKey::from_toml(&text, &Source::path(path)).unwrap_or_else(|e| panic!("{e}"))
}

/// The bundled tokenizer, loaded once per test binary.
pub fn tokenizer() -> &'static TokenCounter {
    static TOKENIZER: std::sync::OnceLock<TokenCounter> = std::sync::OnceLock::new();
    TOKENIZER.get_or_init(|| TokenCounter::default_tokenizer().expect("bundled tokenizer"))
}

pub fn run(
    t: &Transcript,
    kernel: &MissionKernel,
    policy: &RetentionPolicy,
    strategy: Strategy,
    summarizer: &str,
) -> Compaction {
    let mut s = summarize::by_name(summarizer).expect("summarizer");
    let mut redactor = Redactor::new(&policy.personal_data).expect("redactor");
    compact(
        &Inputs {
            transcript: t,
            input_name: "test",
            kernel,
            policy,
            strategy,
        },
        s.as_mut(),
        tokenizer(),
        &mut redactor,
    )
    .unwrap_or_else(|e| panic!("compaction failed: {e}"))
}
