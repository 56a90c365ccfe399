//! Golden outputs: every file `continuity compact` writes for the bundled
//! example, byte for byte, once the fields that hold the clock (load and
//! pin times, freshness, latency, and the seal over them) are masked. A
//! change to any output shows up here; bless an intended one with
//! `CONTINUITY_BLESS=1 cargo test -p continuity golden`.

use std::path::{Path, PathBuf};

use continuity_test_support::repo;

/// The files of one compaction, in the order `compact` writes them.
pub const OUTPUTS: [&str; 5] = [
    "request.json",
    "audit.jsonl",
    "report.json",
    "summary.txt",
    "policy_pin.json",
];

/// Keys whose values depend on the clock.
const CLOCK_KEYS: [&str; 5] = [
    "\"latency_ms\":",
    "\"policy_freshness_s\":",
    "\"policy_loaded_at\":",
    "\"pinned_at\":",
    "\"seal\":",
];

/// The text with each clock-dependent value replaced by `"<masked>"`.
pub fn mask_clock(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        match CLOCK_KEYS.iter().find(|k| trimmed.starts_with(*k)) {
            Some(key) => {
                let indent = &line[..line.len() - trimmed.len()];
                let comma = if line.trim_end().ends_with(',') {
                    ","
                } else {
                    ""
                };
                out.push_str(&format!("{indent}{key} \"<masked>\"{comma}\n"));
            }
            None => out.push_str(line),
        }
    }
    out
}

/// Where `compact` reads its input: a path relative to the repository (it
/// is named in report.json), or standard input (named `<stdin>`).
pub enum Input<'a> {
    Path(&'a str),
    Stdin(&'a Path),
}

/// Run `continuity compact` from the repository root into a fresh
/// directory and return it.
pub fn compact(input: Input<'_>, kernel: &str, policy: &str, strategy: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let mut cmd = crate::bin();
    cmd.current_dir(repo());
    let input = match input {
        Input::Path(p) => p.to_string(),
        Input::Stdin(p) => {
            cmd.pipe_stdin(p).unwrap();
            "-".to_string()
        }
    };
    let result = cmd
        .args(["compact", &input, "--kernel", kernel, "--policy", policy])
        .args([
            "--strategy",
            strategy,
            "--summarizer",
            "extractive",
            "-q",
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        result.status.success(),
        "{input} {strategy}: {}",
        String::from_utf8_lossy(&result.stderr)
    );
    dir
}

/// Each output of a compaction in `dir/out`, clock masked.
pub fn masked_outputs(dir: &Path) -> Vec<(&'static str, String)> {
    OUTPUTS
        .iter()
        .map(|name| {
            let path = dir.join("out").join(name);
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (*name, mask_clock(&text))
        })
        .collect()
}

pub fn blessing() -> bool {
    std::env::var_os("CONTINUITY_BLESS").is_some()
}

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

#[test]
fn masking_hides_only_the_clock() {
    let text =
        "{\n  \"a\": 1,\n  \"latency_ms\": 12.5,\n  \"pinned_at\": \"2026-01-01T00:00:00Z\"\n}\n";
    assert_eq!(
        mask_clock(text),
        "{\n  \"a\": 1,\n  \"latency_ms\": \"<masked>\",\n  \"pinned_at\": \"<masked>\"\n}\n"
    );
}

#[test]
fn bundled_example_outputs_are_unchanged() {
    let input = "examples/billing-dispute/session.json";
    let kernel = "examples/billing-dispute/kernel.toml";
    let policy = "examples/billing-dispute/policy.toml";
    let mut changed = Vec::new();
    for strategy in ["governed", "summary-only"] {
        let dir = compact(Input::Path(input), kernel, policy, strategy);
        for (name, got) in masked_outputs(dir.path()) {
            let path = golden_dir()
                .join("billing-dispute")
                .join(strategy)
                .join(name);
            if blessing() {
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(&path, &got).unwrap();
                continue;
            }
            let want = std::fs::read_to_string(&path).unwrap_or_else(|e| {
                panic!("{}: {e} (bless with CONTINUITY_BLESS=1)", path.display())
            });
            if got != want {
                changed.push(format!("{strategy}/{name}"));
            }
        }
    }
    assert!(
        changed.is_empty(),
        "outputs differ from tests/golden: {changed:?} (bless an intended change with CONTINUITY_BLESS=1)"
    );
}
