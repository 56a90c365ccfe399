//! Prefill and decode speed on the ~1.6k-token golden prompt, per model:
//! our matmul kernels (default), candle's `QMatMul` for every matrix, and
//! candle with Q4_1/Q5_x re-quantized to Q8_0. `LLM_BENCH_MODELS` and
//! `LLM_BENCH_VARIANTS` (comma-separated names) select a subset.
//! Ignored by default; run in release:
//!
//!     RAYON_NUM_THREADS=2 cargo test --release -p continuity-llm bench -- --ignored --nocapture

use std::time::Instant;

use continuity_llm::arch::decoder::{LoadOptions, MatmulImpl};
use continuity_llm::generate::{argmax, prefill};
use continuity_llm::manifest::resolve_model_offline;
use continuity_llm::model::{peak_rss_bytes, Model};
use serde_json::Value;

#[test]
#[ignore]
fn prefill_and_decode_speed() {
    let pick = |var: &str, name: &str| {
        std::env::var(var)
            .ok()
            .is_none_or(|v| v.split(',').any(|x| x == name))
    };
    let variants = [
        ("ours", LoadOptions::default()),
        (
            "candle",
            LoadOptions {
                matmul: MatmulImpl::Candle,
                ..Default::default()
            },
        ),
        (
            "candle+q8",
            LoadOptions {
                matmul: MatmulImpl::Candle,
                requantize_q8: true,
                ..Default::default()
            },
        ),
    ];
    for name in ["smollm2-135m", "qwen2.5-0.5b", "gemma3-270m"] {
        if !pick("LLM_BENCH_MODELS", name) {
            continue;
        }
        let Ok(path) = resolve_model_offline(name) else {
            println!("skipped: {name} not fetched (python3 models/fetch.py {name})");
            continue;
        };
        let fixture = crate::repo()
            .join("tests/fixtures/generate")
            .join(format!("{name}.json"));
        let fx: Value = serde_json::from_str(&std::fs::read_to_string(fixture).unwrap()).unwrap();
        let case = fx["cases"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == "long")
            .unwrap();
        let prompt: Vec<u32> = case["prompt_ids"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap() as u32)
            .collect();
        for (variant, opts) in variants {
            if !pick("LLM_BENCH_VARIANTS", variant) {
                continue;
            }
            let t = Instant::now();
            let mut model = Model::load(name, &path, opts).unwrap();
            let load_ms = t.elapsed().as_secs_f64() * 1e3;
            let n_dec = std::env::var("LLM_BENCH_DECODE")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(64usize);
            // Wall and CPU time (user + sys of the process, all threads).
            let (w0, c0) = (Instant::now(), cpu_s());
            let mut logits = prefill(&mut model, &prompt).unwrap();
            let (w1, c1) = (Instant::now(), cpu_s());
            for i in 0..n_dec {
                let next = argmax(&logits);
                logits = model.network.forward(&[next], prompt.len() + i).unwrap();
            }
            let (w2, c2) = (Instant::now(), cpu_s());
            let (pw, dw) = ((w1 - w0).as_secs_f64(), (w2 - w1).as_secs_f64());
            let n = prompt.len() as f64;
            println!(
                "{name} {variant}: load {load_ms:.0} ms, prompt {n} tok, prefill {:.1} tok/s wall ({pw:.2} s, cpu {:.2} s), decode {:.1} tok/s wall ({dw:.2} s, cpu {:.2} s, {:.1} cpu-ms/tok), peak RSS {} MiB",
                n / pw,
                c1 - c0,
                n_dec as f64 / dw,
                c2 - c1,
                1e3 * (c2 - c1) / n_dec as f64,
                peak_rss_bytes() >> 20
            );
        }
    }
}

/// User + system CPU seconds of this process (`/proc/self/stat`, clock ticks
/// of 1/100 s).
fn cpu_s() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the parenthesized command name; utime and stime are 14, 15.
    let rest = stat.rsplit(')').next().unwrap_or("");
    let f: Vec<&str> = rest.split_whitespace().collect();
    let tick = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    (tick(11) + tick(12)) / 100.0
}
