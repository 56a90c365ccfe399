//! Golden outputs on the reference archives. The archives may not be copied
//! into the repository, and neither may outputs that quote them, so the
//! golden file holds the SHA-256 of each clock-masked output instead. Each
//! archive is read from standard input, so its location does not show.

use std::collections::BTreeMap;
use std::path::PathBuf;

use continuity_test_support::{reference_archives, repo_file};
use sha2::{Digest, Sha256};

use crate::golden::{blessing, compact, masked_outputs, Input};

fn golden_file() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/reference.sha256")
}

/// `RUN/cmp-N` of an archive path `.../replays/RUN/run/archive/cmp-N.json`.
fn archive_name(path: &std::path::Path) -> String {
    let run = path
        .ancestors()
        .nth(3)
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    let cmp = path
        .file_stem()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    format!("{run}/{cmp}")
}

#[test]
fn reference_archive_outputs_are_unchanged() {
    let Some(dir) = super::dir() else { return };
    let kernel = repo_file("eval/billing-dispute/kernel.toml");
    let policy = repo_file("eval/billing-dispute/policy.toml");
    let mut got = BTreeMap::new();
    for archive in reference_archives(&dir) {
        for strategy in ["governed", "summary-only"] {
            let out = compact(Input::Stdin(&archive), &kernel, &policy, strategy);
            for (name, text) in masked_outputs(out.path()) {
                let key = format!("{} {strategy} {name}", archive_name(&archive));
                got.insert(key, hex::encode(Sha256::digest(text.as_bytes())));
            }
        }
    }
    assert_eq!(got.len(), 12 * 2 * 5, "12 archives, 2 strategies, 5 files");
    let rendered: String = got.iter().map(|(k, v)| format!("{v}  {k}\n")).collect();
    if blessing() {
        std::fs::write(golden_file(), rendered).unwrap();
        return;
    }
    let want = std::fs::read_to_string(golden_file()).unwrap();
    let want: BTreeMap<String, String> = want
        .lines()
        .filter_map(|l| l.split_once("  "))
        .map(|(h, k)| (k.to_string(), h.to_string()))
        .collect();
    let changed: Vec<&String> = got
        .iter()
        .filter(|(k, v)| want.get(*k) != Some(*v))
        .map(|(k, _)| k)
        .collect();
    assert!(
        changed.is_empty(),
        "reference outputs differ from tests/golden/reference.sha256: {changed:?} (bless an intended change with CONTINUITY_BLESS=1)"
    );
}
