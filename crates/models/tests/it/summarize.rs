//! The full `continuity_core::compact` pipeline, governed, on the billing-dispute
//! example with the smollm2-135m summarizer (skipped when not fetched).

use continuity_core::compact::Strategy;
use continuity_llm::manifest::resolve_model_offline;
use continuity_test_support as common;

#[test]
fn governed_billing_dispute_with_smollm2() {
    if resolve_model_offline("smollm2-135m").is_err() {
        println!("skipped: smollm2-135m not fetched (python3 models/fetch.py smollm2-135m)");
        return;
    }
    let ex = common::repo().join("examples/billing-dispute");
    let t = common::load_transcript(&ex.join("session.json"));
    let kernel = common::load_kernel(&ex.join("kernel.toml"));
    let policy = common::load_policy(&ex.join("policy.toml"));
    let cap = policy.compaction.summary_words;

    let a = run(&t, &kernel, &policy);
    let b = run(&t, &kernel, &policy);
    println!(
        "summary ({} words): {}",
        a.summary.split_whitespace().count(),
        a.summary
    );
    assert!(!a.summary.trim().is_empty(), "empty summary");
    assert!(
        a.summary.split_whitespace().count() <= cap,
        "over {cap} words"
    );
    assert_eq!(a.summary, b.summary, "not deterministic");

    let s = &a.report.summarizer;
    assert_eq!(s.name, "smollm2-135m");
    // The narrower job: the governed summarizer reads less than the history.
    assert!(
        s.input_tokens < s.full_input_tokens,
        "governed input {} not below the full history {}",
        s.input_tokens,
        s.full_input_tokens
    );
    let m = s.model.as_ref().expect("model metrics");
    println!("metrics: {m:?}");
    assert!(m.load_ms > 0.0);
    assert!(m.prompt_tokens > 0 && m.generated_tokens > 0);
    assert!(m.prefill_tokens_per_s > 0.0 && m.decode_tokens_per_s > 0.0);
    assert!(m.latency_ms > 0.0 && m.peak_memory_bytes > 0);
}

fn run(
    t: &continuity_core::Transcript,
    kernel: &continuity_core::MissionKernel,
    policy: &continuity_core::RetentionPolicy,
) -> continuity_core::Compaction {
    let mut s = continuity_models::by_name("smollm2-135m").expect("summarizer");
    let tokens = continuity_models::TokenCounter::default_tokenizer().expect("bundled tokenizer");
    common::run_with(t, kernel, policy, Strategy::Governed, s.as_mut(), &tokens)
}
