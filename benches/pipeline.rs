//! The deterministic pipeline (parse → compact → serialize) on the reference
//! archives and on synthetic sessions of 10k, 100k and 1M tokens.
//!
//! Run: `cargo bench --bench pipeline`. Throughput is in input tokens (the
//! bundled tokenizer's count of the uncompacted request).

#![allow(clippy::unwrap_used)]

use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion, Throughput};
use serde_json::{json, Value};

use continuity_core::compact::{compact, count_transcript, Inputs, Strategy};
use continuity_core::error::Source;
use continuity_core::redact::Redactor;
use continuity_core::{formats, io, MissionKernel, RetentionPolicy};
use continuity_models::{by_name, TokenCounter};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn kernel() -> MissionKernel {
    let path = repo().join("eval/billing-dispute/kernel.toml");
    io::load_kernel(&path, chrono::Utc::now()).expect("kernel")
}

fn policy() -> RetentionPolicy {
    io::load_policy(Some(&repo().join("eval/billing-dispute/policy.toml"))).expect("policy")
}

/// A billing-style session: `rounds` rounds of four parallel tool calls.
fn synthetic_session(rounds: usize) -> Value {
    let mut messages = vec![
        json!({"role": "user", "content": "Mission: reconcile every payment of customer C-1 and report."}),
    ];
    for r in 0..rounds {
        let calls: Vec<Value> = (0..4)
            .map(|k| json!({"type": "tool_use", "id": format!("toolu_{r:06}_{k}"), "name": "get_payment_detail", "input": {"payment_id": format!("TX-{r}{k}")}}))
            .collect();
        let mut content = vec![
            json!({"type": "text", "text": format!("Round {r}: TX-{r}0 looks like a duplicate of TX-{r}1; checking whether it was only an authorization of $149.00.")}),
        ];
        content.extend(calls);
        messages.push(json!({"role": "assistant", "content": content}));
        let results: Vec<Value> = (0..4)
            .map(|k| {
                let record = json!({"payment_id": format!("TX-{r}{k}"), "record_type": if k == 0 {"authorization"} else {"settlement"},
                    "capture_status": if k == 0 {"not_captured"} else {"captured"}, "amount": 149.0, "created_at": "2026-09-14T10:02:11Z",
                    "settled_at": null, "released_at": "2026-09-18", "linked_payment_id": format!("TX-{r}{}", (k + 1) % 4),
                    "invoice_id": format!("INV-{r}"), "gateway_event": "capture_timeout; retried", "processor_ref": format!("pp_{r}_{k}"),
                    "descriptor": "PERPETUITY*VAULT", "card_last4": "1111"});
                json!({"type": "tool_result", "tool_use_id": format!("toolu_{r:06}_{k}"), "content": record.to_string()})
            })
            .collect();
        messages.push(json!({"role": "user", "content": results}));
    }
    json!({"model": "m", "max_tokens": 1024, "system": "You are a billing investigation agent.", "messages": messages})
}

/// A counter that has counted nothing yet, built (and dropped, as the
/// routine returns it) outside the timing: the counter memoizes its
/// counts, so one reused across iterations would time every compaction
/// after the first as a second one of the same text.
fn fresh_counter() -> TokenCounter {
    TokenCounter::default_tokenizer().expect("tokenizer")
}

fn run_once(
    bytes: &[u8],
    kernel: &MissionKernel,
    policy: &RetentionPolicy,
    tokens: &TokenCounter,
) -> usize {
    let t = formats::parse_bytes(bytes, &Source("bench".into())).expect("parse");
    let mut summarizer = by_name("extractive").expect("summarizer");
    let mut redactor = Redactor::new(&policy.personal_data).expect("redactor");
    let c = compact(
        &Inputs {
            transcript: &t,
            input_name: "bench",
            kernel,
            policy,
            strategy: Strategy::Governed,
        },
        chrono::Utc::now(),
        summarizer.as_mut(),
        tokens,
        &mut redactor,
    )
    .expect("compact");
    let files = io::serialize(&c).expect("serialize");
    files.files.iter().map(|(_, b)| b.len()).sum()
}

fn bench(c: &mut Criterion) {
    let kernel = kernel();
    let policy = policy();
    let tokens = TokenCounter::default_tokenizer().expect("tokenizer");

    let mut group = c.benchmark_group("reference_archives");
    group.sample_size(10);
    let reference = repo().join("../shared/reference/mission-continuity/replays");
    let mut archives: Vec<PathBuf> = std::fs::read_dir(&reference)
        .into_iter()
        .flatten()
        .flatten()
        .flat_map(|run| {
            std::fs::read_dir(run.path().join("run/archive"))
                .into_iter()
                .flatten()
                .flatten()
                .map(|f| f.path())
        })
        .collect();
    archives.sort();
    if archives.is_empty() {
        eprintln!(
            "skipped reference archives: {} not found",
            reference.display()
        );
    }
    for a in &archives {
        let bytes = std::fs::read(a).expect("archive");
        let t = formats::parse_bytes(&bytes, &Source("a".into())).expect("parse");
        let n = count_transcript(&t, &tokens).expect("count");
        let name = a
            .strip_prefix(&reference)
            .unwrap_or(a)
            .display()
            .to_string()
            .replace("/run/archive/", "/");
        group.throughput(Throughput::Elements(n as u64));
        group.bench_function(BenchmarkId::from_parameter(name), |b| {
            b.iter_batched(
                fresh_counter,
                |t| {
                    let written = run_once(&bytes, &kernel, &policy, &t);
                    (t, written)
                },
                BatchSize::PerIteration,
            )
        });
    }
    group.finish();

    let mut group = c.benchmark_group("synthetic_session");
    group.sample_size(10);
    for rounds in [20usize, 200, 2000] {
        let bytes = serde_json::to_vec(&synthetic_session(rounds)).expect("json");
        let t = formats::parse_bytes(&bytes, &Source("s".into())).expect("parse");
        let n = count_transcript(&t, &tokens).expect("count");
        // The policy pins every record: a target of the session's own size
        // holds them all.
        let mut fitting = policy.clone();
        fitting.compaction.trigger_tokens = n;
        group.throughput(Throughput::Elements(n as u64));
        group.bench_function(BenchmarkId::from_parameter(format!("{n}_tokens")), |b| {
            b.iter_batched(
                fresh_counter,
                |t| {
                    let written = run_once(&bytes, &kernel, &fitting, &t);
                    (t, written)
                },
                BatchSize::PerIteration,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
