//! Effect ledger: PREPARE/COMMIT, hash chain, reconcile never guesses.

use continuity_core::governance::ledger::{reconcile, verify, Ledger};
use serde_json::json;

fn filled(dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("ledger.jsonl");
    let mut l = Ledger::open(&path, "run_01JX").unwrap();
    let p = l
        .prepare("pay_041", "payment_api", &json!({"amount": 120}))
        .unwrap();
    assert_eq!(p.idempotency_key, "run_01JX:pay_041");
    l.commit("pay_041", "rcpt_8830").unwrap();
    l.prepare("pay_042", "payment_api", &json!({"amount": "480.00"}))
        .unwrap();
    path
}

#[test]
fn reconcile_lists_prepared_but_never_committed_as_unknown() {
    let dir = tempfile::tempdir().unwrap();
    let path = filled(dir.path());
    // "Restart": only the file remains.
    let r = reconcile(&path).unwrap();
    assert!(r.chain.ok);
    assert_eq!((r.prepared, r.committed, r.pending.len()), (2, 1, 1));
    let p = &r.pending[0];
    assert_eq!(p.effect_id, "pay_042");
    assert_eq!(p.status, "unknown");
    assert!(
        p.action
            .contains("query the system of record with idempotency key run_01JX:pay_042"),
        "{}",
        p.action
    );
    // Commit after reopening clears it; double commit is refused.
    let mut l = Ledger::open(&path, "run_01JX").unwrap();
    l.commit("pay_042", "rcpt_8831").unwrap();
    assert!(l.commit("pay_042", "again").is_err());
    assert!(l.commit("pay_999", "x").is_err());
    assert!(reconcile(&path).unwrap().pending.is_empty());
    assert!(verify(&path).unwrap().ok);
}

#[test]
fn flipping_any_single_byte_breaks_verification() {
    let dir = tempfile::tempdir().unwrap();
    let path = filled(dir.path());
    let good = std::fs::read(&path).unwrap();
    let lines: Vec<usize> = good
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == b'\n')
        .map(|(i, _)| i)
        .collect();
    for i in 0..good.len() {
        let mut bad = good.clone();
        bad[i] ^= 0x01;
        std::fs::write(&path, &bad).unwrap();
        let r = verify(&path).unwrap();
        assert!(!r.ok, "flip at byte {i} went unnoticed");
        let line_of_i = lines.iter().position(|&nl| i <= nl).unwrap() + 1;
        let first = r.first_broken_line.unwrap();
        assert!(
            first <= line_of_i + 1 && first >= 1,
            "byte {i} (line {line_of_i}) reported at {first}"
        );
        assert!(
            Ledger::open(&path, "run_01JX").is_err(),
            "a broken chain must not be appended to"
        );
    }
}

#[test]
fn removing_a_line_or_truncating_is_caught_and_named() {
    let dir = tempfile::tempdir().unwrap();
    let path = filled(dir.path());
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    std::fs::write(&path, format!("{}\n{}\n", lines[0], lines[2])).unwrap();
    let r = verify(&path).unwrap();
    assert_eq!(r.first_broken_line, Some(2));
    std::fs::write(&path, &text[..text.len() - 5]).unwrap();
    let r = verify(&path).unwrap();
    assert_eq!(r.first_broken_line, Some(3));
    // Reconcile still reads the intact prefix and says the chain is broken.
    let rec = reconcile(&path).unwrap();
    assert!(!rec.chain.ok);
    assert_eq!(rec.committed, 1);
}
