//! The meaning-level evaluator with the real MiniLM model. Skips (one line)
//! when the model is not fetched: `python3 models/fetch.py minilm-l6`.

use std::path::Path;

use continuity_core::error::Source;
use continuity_eval::evaluate::{load_embedder, Evaluator, Records, Verdict, DEFAULT_JUDGE};
use continuity_eval::facts::FactKey;

fn embedder() -> Option<continuity_eval::evaluate::Embedder> {
    match load_embedder() {
        Ok(e) => Some(e),
        Err(e) => {
            eprintln!("skipping: minilm-l6 not available ({e}); fetch it with: python3 models/fetch.py minilm-l6");
            None
        }
    }
}

fn evaluator() -> Option<Evaluator> {
    embedder().map(Evaluator::new)
}

fn case(archive: &Path, key: &Path) -> (Records, FactKey) {
    let bytes = std::fs::read(archive).unwrap();
    let t = continuity_core::formats::parse_bytes(&bytes, &Source::path(archive)).unwrap();
    let key =
        FactKey::from_toml(&std::fs::read_to_string(key).unwrap(), &Source::path(key)).unwrap();
    (Records::from_transcript(&t), key)
}

fn verdict(r: &continuity_eval::evaluate::SummaryReport, id: &str) -> Verdict {
    r.facts.iter().find(|f| f.id == id).unwrap().verdict
}

/// With the default decision (the cross-encoder judge and its combiner)
/// and without any judge.
#[test]
fn lfm25_resummary_contradicts_the_authorization_fact() {
    let root = &continuity_test_support::repo();
    let shared = root.join("../shared/reference/mission-continuity");
    let archive = shared.join("replays/E1-baseline/run/archive/cmp-1.json");
    let summary = shared.join("offline_resummaries/E1-baseline/cmp-1.liquid.json");
    if !archive.exists() || !summary.exists() {
        eprintln!(
            "skipping: reference data not found under {}",
            shared.display()
        );
        return;
    }
    let Some(plain) = evaluator() else { return };
    let default = Evaluator::with_judge(load_embedder().unwrap(), DEFAULT_JUDGE).unwrap();
    let (records, key) = case(&archive, &root.join("eval/billing-dispute/key.toml"));
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&summary).unwrap()).unwrap();
    let text = v["summary"].as_str().unwrap();
    for mut ev in [default, plain] {
        let r = ev.evaluate(&records, &key, "lfm25", text).unwrap();
        // The keyword check passes CF1 (TX-9002 and "authorization" are not
        // even needed: it reads the text, not the meaning) ...
        let cf1 = r.facts.iter().find(|f| f.id == "CF1").unwrap();
        assert_eq!(cf1.verdict, Verdict::Contradicted, "{r:#?}");
        assert!(
            cf1.sentences.iter().any(|s| s.contains("duplicate")),
            "{cf1:?}"
        );
        // ... and the add-on called unauthorized contradicts CF5.
        assert_eq!(verdict(&r, "CF5"), Verdict::Contradicted, "{r:#?}");
        assert!(!r.unsupported.is_empty());
    }
}

#[test]
fn each_verdict_on_the_example_case() {
    let Some(mut ev) = evaluator() else { return };
    let root = &continuity_test_support::repo();
    let (records, key) = case(
        &root.join("examples/billing-dispute/session.json"),
        &root.join("examples/billing-dispute/key.toml"),
    );
    let text = "PAY-77120 was an authorization for EUR 412.50 that was never captured; \
                PAY-77124 was the only capture and PAY-77120 was voided on 2027-05-06. \
                The EUR 64 Frost Alert SMS add-on was ordered without authorization. \
                Escalation HD-21355 has been resolved and has no open items.";
    let r = ev.evaluate(&records, &key, "t", text).unwrap();
    assert_eq!(verdict(&r, "EF1"), Verdict::Supported, "{r:#?}");
    assert_eq!(verdict(&r, "EF3"), Verdict::Omitted, "{r:#?}");
    assert_eq!(verdict(&r, "EF4"), Verdict::Omitted, "{r:#?}");
    assert_eq!(verdict(&r, "EF5"), Verdict::Contradicted, "{r:#?}");
    assert_eq!(verdict(&r, "EF6"), Verdict::Contradicted, "{r:#?}");
    let ef1 = r.facts.iter().find(|f| f.id == "EF1").unwrap();
    assert!(!ef1.evidence.is_empty(), "evidence for EF1: {ef1:?}");
}

#[test]
fn value_mismatches_against_the_records() {
    let Some(mut ev) = evaluator() else { return };
    let root = &continuity_test_support::repo();
    let (records, key) = case(
        &root.join("examples/billing-dispute/session.json"),
        &root.join("examples/billing-dispute/key.toml"),
    );
    let text = "Credit note CN-3307 for EUR 68.18 was never applied. PAY-99999 was refunded.";
    let r = ev.evaluate(&records, &key, "t", text).unwrap();
    let kinds: Vec<(&str, &str)> = r
        .mismatches
        .iter()
        .map(|m| (m.kind, m.value.as_str()))
        .collect();
    assert!(kinds.contains(&("amount", "68.18")), "{kinds:?}");
    assert!(kinds.contains(&("id", "pay-99999")), "{kinds:?}");
    assert_eq!(verdict(&r, "EF3"), Verdict::Contradicted, "{r:#?}");
    assert!(r
        .unsupported
        .iter()
        .any(|u| u.sentence.contains("PAY-99999")));
}

/// The LLM judge with a real GGUF model (smollm2-135m, the smallest):
/// label log-probabilities give a distribution, and reusing the KV prefix
/// (few-shot block, then the fact) gives the scores of the full run, up to
/// the numeric difference between chunked and incremental prefill.
#[test]
fn llm_judge_label_logprobs_with_prefix_reuse() {
    use continuity_eval::evaluate::judge::{LlmJudge, PromptStyle};
    use continuity_eval::evaluate::EntailmentJudge;
    let mut j = match LlmJudge::load("smollm2-135m", PromptStyle::FewShot) {
        Ok(j) => j,
        Err(e) => {
            eprintln!("skipping: smollm2-135m not available ({e}); fetch it with: python3 models/fetch.py smollm2-135m");
            return;
        }
    };
    let fact = "Ticket OPS-8812 is still open, and the export file has not been sent or published to anyone yet.";
    let a = j
        .judge(fact, "OPS-8812 remains open; nothing has been sent.")
        .unwrap();
    let b = j
        .judge(fact, "The export was emailed to the auditor.")
        .unwrap();
    let a2 = j
        .judge(fact, "OPS-8812 remains open; nothing has been sent.")
        .unwrap();
    for n in [a, b] {
        assert!(
            (n.entails + n.neutral + n.contradicts - 1.0).abs() < 1e-4,
            "{n:?}"
        );
    }
    assert!((a.entails - a2.entails).abs() < 0.05, "{a:?} vs {a2:?}");
    assert!(
        (a.contradicts - a2.contradicts).abs() < 0.05,
        "{a:?} vs {a2:?}"
    );
    assert_ne!(a, b);
}

/// Each verdict with the real models: MiniLM, the trained combiner and the
/// smollm2-135m judge (whose probabilities are reported on mentioned facts).
#[test]
fn each_verdict_with_the_llm_judge() {
    let Some(embedder) = embedder() else { return };
    let mut ev = match Evaluator::with_judge(embedder, "smollm2-135m") {
        Ok(ev) => ev,
        Err(e) => {
            eprintln!("skipping: smollm2-135m not available ({e}); fetch it with: python3 models/fetch.py smollm2-135m");
            return;
        }
    };
    each_verdict_on_ops_export(&mut ev);
}

/// Each verdict with the cross-encoder judges (MiniLM + trained adapters:
/// the synthetic-only one and the cross-fitted ensemble) and their
/// combiners; their probabilities are reported on judged facts.
#[test]
fn each_verdict_with_the_cross_encoders() {
    use continuity_eval::evaluate::xenc;
    for name in [xenc::NAME, xenc::CROSS_FITTED] {
        let Some(embedder) = embedder() else { return };
        let mut ev = Evaluator::with_judge(embedder, name).unwrap();
        each_verdict_on_ops_export(&mut ev);
    }
}

/// `eval/xenc/calib_pairs.jsonl` (the real sentences the cross-fitted
/// judge was fine-tuned on) is what `continuity eval-bench --export-pairs`
/// writes from the calibration split today: a stale file would mean the
/// shipped folds were trained on other sentences than the set holds.
#[test]
fn calibration_judge_pairs_are_current() {
    use continuity_eval::evaluate::bench;
    let root = &continuity_test_support::repo();
    let mut set = bench::load_set(&root.join("eval/faithfulness")).unwrap();
    // The pairs come from the calibration split alone, and each item is
    // analyzed on its own: the held-out items need not be analyzed here.
    set.items.retain(|(item, _)| item.split == "calib");
    if !set.cases.contains_key("billing-dispute") {
        eprintln!("skipping: the billing-dispute archive (../shared) is not available");
        return;
    }
    let Some(mut ev) = evaluator() else { return };
    let analyzed = bench::analyze_set(&mut ev, &set).unwrap();
    let pairs = bench::calib_judge_pairs(&analyzed, &ev.thresholds, ev.judge_floor);
    let path = root.join("eval/xenc/calib_pairs.jsonl");
    let text = std::fs::read_to_string(&path).unwrap();
    let committed = continuity_eval::evaluate::xenc::train::parse_pairs(&path, &text).unwrap();
    assert!(pairs.iter().all(|p| !p.hypothesis.is_empty()));
    assert_eq!(pairs, committed, "regenerate with: cargo run --release -- eval-bench --export-pairs eval/xenc/calib_pairs.jsonl");
}

/// One verdict of each kind on an ops-export summary written for this test;
/// the judge's probabilities are reported on the supported fact.
fn each_verdict_on_ops_export(ev: &mut Evaluator) {
    let root = &continuity_test_support::repo();
    let (records, key) = case(
        &root.join("tests/fixtures/openai/ops-export.json"),
        &root.join("eval/faithfulness/ops-export/key.toml"),
    );
    let text = "Export job exp_5f31c2 succeeded with only the aggregated table (36 rows) and the DLP scan found no personal data. \
                Ticket OPS-8812 is closed and the export was already emailed to Dana.";
    let r = ev.evaluate(&records, &key, "t", text).unwrap();
    assert_eq!(verdict(&r, "OF2"), Verdict::Supported, "{r:#?}");
    assert_eq!(verdict(&r, "OF3"), Verdict::Omitted, "{r:#?}");
    assert_eq!(verdict(&r, "OF5"), Verdict::Contradicted, "{r:#?}");
    let of2 = r.facts.iter().find(|f| f.id == "OF2").unwrap();
    assert!(of2.judge.is_some(), "{of2:?}");
}
