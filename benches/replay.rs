//! `continuity replay` over every published reference run with the extractive
//! summarizer, under every strategy (natural and with CF1 damaged), on one
//! thread and on two. Loading the sessions (calibration included) is timed
//! with them.
//!
//! Run: `cargo bench --bench replay`. Needs ../shared/reference/mission-continuity
//! (or CONTINUITY_REFERENCE); without it the bench prints one line and exits.

#![allow(clippy::unwrap_used)]

use std::path::PathBuf;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};

use continuity_core::compact::Strategy;
use continuity_core::error::Source;
use continuity_core::{io, MissionKernel, RetentionPolicy};
use continuity_eval::facts::FactKey;
use continuity_eval::replay::{self, Setup};
use continuity_models::TokenCounter;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn reference() -> PathBuf {
    match std::env::var_os("CONTINUITY_REFERENCE") {
        Some(p) => PathBuf::from(p),
        None => repo().join("../shared/reference/mission-continuity"),
    }
}

struct Inputs {
    kernel: MissionKernel,
    policy: RetentionPolicy,
    key: FactKey,
    tokens: TokenCounter,
    sessions: Vec<PathBuf>,
}

fn inputs() -> Option<Inputs> {
    let dir = reference().join("replays");
    let mut sessions: Vec<PathBuf> = std::fs::read_dir(&dir)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .collect();
    sessions.sort();
    let e = repo().join("eval/billing-dispute");
    let key_text = std::fs::read_to_string(e.join("key.toml")).ok()?;
    Some(Inputs {
        kernel: io::load_kernel(&e.join("kernel.toml"), chrono::Utc::now()).ok()?,
        policy: io::load_policy(Some(&e.join("policy.toml"))).ok()?,
        key: FactKey::from_toml(&key_text, &Source("key.toml".into())).ok()?,
        tokens: TokenCounter::default_tokenizer().ok()?,
        sessions,
    })
}

fn replay_all(i: &Inputs, jobs: usize) -> usize {
    let sessions = replay::load_sessions(&i.sessions, &i.kernel, &i.tokens).expect("sessions");
    let conditions = replay::conditions(&Strategy::ALL, &["extractive".into()], &["CF1".into()]);
    let setup = Setup {
        kernel: &i.kernel,
        policy: &i.policy,
        key: &i.key,
        tokens: &i.tokens,
    };
    let r = replay::replay_all(sessions, conditions, &setup, jobs, &|_, _| {}).expect("replay");
    r.runs.iter().map(|x| x.compactions.len()).sum()
}

fn bench(c: &mut Criterion) {
    let Some(i) = inputs() else {
        eprintln!("skipped bench replay ({} not found)", reference().display());
        return;
    };
    let mut g = c.benchmark_group("replay");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(20));
    for jobs in [1, 2] {
        g.bench_function(
            format!("all-reference-runs/extractive/every-strategy/jobs-{jobs}"),
            |b| b.iter(|| replay_all(&i, jobs)),
        );
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
