//! Greedy agreement with llama.cpp, per model, on the fixtures written by
//! `scripts/golden_generate.py` (a short prompt and a ~1.6k-token one built
//! from the billing-dispute transcript; 64 greedy steps each).
//!
//! Bit-exact equality of all 64 free-running greedy tokens is not achievable:
//! neither is llama.cpp bit-exact with itself across settings. Its f16-KV run
//! already leaves its own f32-KV greedy path at some of these steps, because
//! ggml's SIMD `expf`/SiLU, its f32 GEMM summation order and the Q8 re-quantization
//! of activations differ from candle's by a few ulps, and a one-ulp change that
//! flips one Q8 rounding shifts logits by ~1e-2. So the test checks, explicitly:
//!
//! 1. Teacher-forced along llama.cpp's greedy path, at every one of the 64
//!    steps: our argmax equals llama.cpp's token wherever llama.cpp's top-2
//!    logit gap is at least `NEAR_TIE`; where it is smaller, llama.cpp's token
//!    is within `NEAR_TIE` of our best logit. Our logits for llama.cpp's top-5
//!    ids must be within `MAX_LOGIT_DIFF` of its.
//! 2. Free-running greedy: every token equals llama.cpp's up to the first
//!    divergence, a divergence may only happen at a near-tie, and at least 50
//!    tokens are equal, or as many as llama.cpp's own f16-KV run keeps equal
//!    to its f32-KV run where that is fewer, unless the first divergence is
//!    at one of llama.cpp's recorded near-ties.
//!
//! Why a near-tie rule and not "all 64 tokens equal": llama.cpp does not meet
//! that bar against itself. On smollm2-135m its own default run (f16 KV cache)
//! leaves its f32-KV greedy path at step 33 of the short prompt and step 27 of
//! the long one (`greedy_ids_f16_kv` in the fixtures), both at near-ties.
//! Every other case (gemma3 and qwen2.5, short and 1.6k-token prompts) matches
//! llama.cpp for all 64 free-running tokens on CPUs with AVX-512. On an
//! AVX2-only CPU (Zen 3), gemma3-270m's f32-KV run on the long prompt parts
//! at step 7, where llama.cpp's top-2 gap is 0.083 (likely cause: that
//! path's attention is candle's f32 GEMM, which sizes its blocks from the
//! CPU's caches, so its summation order differs between CPUs).
//!
//! Both KV cache types run: f32, the reference path, against llama.cpp's
//! f32-KV run with the bar above; f16, our default (and llama.cpp's), against
//! llama.cpp's f16-KV run, where a divergence at one of the recorded near-ties
//! is also accepted (measured: smollm2-135m's short prompt flips at step 4, a
//! 0.03 logit gap).
//!
//! Models that are not fetched are skipped with a one-line note; CI fetches
//! them (`.ci/run`).

use continuity_llm::arch::decoder::{KvDtype, LoadOptions};
use continuity_llm::generate::{argmax, prefill};
use continuity_llm::manifest::resolve_model_offline;
use continuity_llm::model::Model;
use serde_json::Value;

/// A top-2 logit gap below this is a near-tie that rounding may flip.
const NEAR_TIE: f32 = 0.25;
/// Largest allowed |ours - llama.cpp| over llama.cpp's top-5 logits per step
/// (measured: up to ~0.93 for gemma3-270m, whose logits are ~20, ~0.9 for
/// smollm2-135m; rounding noise amplified by Q8 activation quantization).
const MAX_LOGIT_DIFF: f32 = 1.0;
/// The same bound for our f16-KV path, which is compared with the logits of
/// llama.cpp's f32-KV run (the only ones recorded) and adds the f16 cache's
/// rounding (measured: up to 1.04 on smollm2-135m).
const MAX_LOGIT_DIFF_F16_KV: f32 = 1.25;
/// Free-running greedy tokens that must equal llama.cpp's.
const MIN_EQUAL: usize = 50;

fn ids(v: &Value) -> Vec<u32> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap() as u32)
        .collect()
}

/// Both KV cache types: f32 (the reference path) against llama.cpp's f32-KV
/// run, and f16 (our default, as llama.cpp's) whose free-running greedy ids
/// are compared with llama.cpp's own f16-KV run.
fn check(name: &str) {
    for kv in [KvDtype::F32, KvDtype::F16] {
        check_kv(name, kv);
    }
}

fn check_kv(name: &str, kv: KvDtype) {
    let fixture = crate::repo()
        .join("tests/fixtures/generate")
        .join(format!("{name}.json"));
    let fx: Value = serde_json::from_str(&std::fs::read_to_string(&fixture).unwrap()).unwrap();
    let path = match resolve_model_offline(name) {
        Ok(p) => p,
        Err(_) => {
            println!("skipped: {name} not fetched (python3 models/fetch.py {name})");
            return;
        }
    };
    let opts = LoadOptions {
        kv,
        ..LoadOptions::default()
    };
    let mut model = Model::load(name, &path, opts).unwrap();
    let mut failures = Vec::new();
    for case in fx["cases"].as_array().unwrap() {
        let cname = format!("{name}/{}/{kv:?}-KV", case["name"].as_str().unwrap());
        let prompt = ids(&case["prompt_ids"]);
        // Our tokenizer gives llama.cpp's prompt ids.
        let ours = model.encode(case["prompt"].as_str().unwrap()).unwrap();
        assert_eq!(ours, prompt, "{cname}: prompt tokenization differs");
        let want = ids(&case["greedy_ids"]);
        let gaps: Vec<f32> = case["top2_gap"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g.as_f64().unwrap() as f32)
            .collect();
        let tops = case["top5"].as_array().unwrap();

        // 1. Teacher-forced along llama.cpp's path.
        let mut logits = prefill(&mut model, &prompt).unwrap();
        let mut max_diff = 0f32;
        let mut near_ties = 0;
        let mut teacher_forced_best = Vec::with_capacity(want.len());
        for step in 0..want.len() {
            for pair in tops[step].as_array().unwrap() {
                let id = pair[0].as_u64().unwrap() as usize;
                let l = pair[1].as_f64().unwrap() as f32;
                max_diff = max_diff.max((logits[id] - l).abs());
                if std::env::var_os("AGREEMENT_DEBUG").is_some() && step < 3 {
                    println!(
                        "{cname} step {step} id {id}: ours {} llama.cpp {l}",
                        logits[id]
                    );
                }
            }
            let best = argmax(&logits);
            teacher_forced_best.push(best);
            if gaps[step] >= NEAR_TIE {
                if best != want[step] {
                    failures.push(format!(
                        "{cname}: step {step}: ours {best}, llama.cpp {} (gap {})",
                        want[step], gaps[step]
                    ));
                }
            } else {
                near_ties += 1;
                let behind = logits[best as usize] - logits[want[step] as usize];
                if behind > NEAR_TIE {
                    failures.push(format!(
                        "{cname}: step {step} (near-tie, gap {}): llama.cpp's token {} is {behind} below our best {best}",
                        gaps[step], want[step]
                    ));
                }
            }
            logits = model
                .network
                .forward(&[want[step]], prompt.len() + step)
                .unwrap();
        }
        let bound = match kv {
            KvDtype::F32 => MAX_LOGIT_DIFF,
            KvDtype::F16 => MAX_LOGIT_DIFF_F16_KV,
        };
        if max_diff > bound {
            failures.push(format!("{cname}: top-5 logits differ by up to {max_diff}"));
        }

        // 2. Free-running greedy, against llama.cpp's run with the same KV
        // type. Its top-2 gaps are recorded for the f32 run only, so the
        // near-tie condition on a divergence applies there.
        let f16 = case["greedy_ids_f16_kv"]
            .as_array()
            .map(|_| ids(&case["greedy_ids_f16_kv"]))
            .unwrap_or_default();
        let f16_div = want.iter().zip(&f16).position(|(a, b)| a != b);
        let teacher_path = want.clone();
        let (want, gaps_known) = match kv {
            KvDtype::F16 if !f16.is_empty() => (f16.clone(), false),
            _ => (want, true),
        };
        let got = match free_run_from_teacher_forced(&teacher_forced_best, &teacher_path, &want) {
            Some(got) => got,
            None => free_run(&mut model, &prompt, &want),
        };
        let diverged = got
            .iter()
            .zip(&want)
            .position(|(ours, theirs)| ours != theirs);
        if let Some(step) = diverged {
            if gaps_known && gaps[step] >= NEAR_TIE {
                failures.push(format!(
                    "{cname}: free-running greedy left llama.cpp's at step {step} (gap {}): ours {got:?} vs {:?}",
                    gaps[step],
                    &want[..=step]
                ));
            }
        }
        // The bar: at least 50 equal greedy tokens, or, where llama.cpp
        // leaves its own path sooner (f16 vs f32 KV), at least as many as it keeps.
        let required = f16_div.map_or(MIN_EQUAL, |d| d.min(MIN_EQUAL));
        let equal = diverged.unwrap_or(want.len());
        // A step whose recorded top-2 gap is a near-tie may flip either
        // way: llama.cpp's own runs show ties follow the KV precision, and
        // ours follow the f32 summation order, which depends on the CPU
        // (likely in the f32-KV attention: candle's GEMM is blocked by the
        // CPU's cache sizes). The gaps are recorded on llama.cpp's f32 run, so
        // with an f16 cache they apply only while its f16 and f32 runs
        // agree. Anywhere else the bar stands.
        let near_tie = diverged
            .is_some_and(|d| gaps[d] < NEAR_TIE && (gaps_known || f16_div.is_none_or(|f| d < f)));
        if equal < required && !near_tie {
            failures.push(format!(
                "{cname}: free-running greedy equal for {equal} tokens, fewer than {required}"
            ));
        }
        println!(
            "{cname}: {} prompt tokens; teacher-forced {} steps, argmax equal at all {} non-near-tie steps, max top-5 logit diff {max_diff:.4}; free-running greedy equal for {} of {} tokens{}; llama.cpp f16-KV vs f32-KV first differ at {}",
            prompt.len(),
            want.len(),
            want.len() - near_ties,
            diverged.unwrap_or(want.len()),
            want.len(),
            diverged.map_or(String::new(), |d| if gaps_known || near_tie {
                format!(" (first divergence at step {d}, llama.cpp top-2 gap {})", gaps[d])
            } else {
                format!(" (first divergence at step {d})")
            }),
            f16_div.map_or("never".to_string(), |d| format!("step {d}")),
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The free-running greedy tokens, read off the teacher-forced pass where
/// it fed the same tokens: until the free run leaves `want`, it feeds
/// `want`, so up to the first step where `want` and the teacher-forced path
/// differ its logits are the teacher-forced ones. Saves a second prefill and
/// decode per case; `None` when the run outlasts that common prefix.
fn free_run_from_teacher_forced(
    best: &[u32],
    teacher_path: &[u32],
    want: &[u32],
) -> Option<Vec<u32>> {
    let common = teacher_path
        .iter()
        .zip(want)
        .take_while(|(a, b)| a == b)
        .count();
    let mut got = Vec::new();
    for (step, &token) in best.iter().enumerate().take(want.len()) {
        if step > common {
            return None;
        }
        got.push(token);
        if token != want[step] {
            return Some(got);
        }
    }
    (got.len() == want.len()).then_some(got)
}

/// Free-running greedy decoding until the first token that differs from
/// `want` (included), or `want.len()` tokens.
fn free_run(model: &mut Model, prompt: &[u32], want: &[u32]) -> Vec<u32> {
    let mut logits = prefill(model, prompt).unwrap();
    let mut got = Vec::new();
    for (step, &expected) in want.iter().enumerate() {
        let next = argmax(&logits);
        got.push(next);
        if next != expected {
            break;
        }
        logits = model.network.forward(&[next], prompt.len() + step).unwrap();
    }
    got
}

#[test]
fn smollm2_135m_greedy_matches_llama_cpp() {
    check("smollm2-135m");
}

#[test]
fn qwen2_5_0_5b_greedy_matches_llama_cpp() {
    check("qwen2.5-0.5b");
}

#[test]
fn gemma3_270m_greedy_matches_llama_cpp() {
    check("gemma3-270m");
}
