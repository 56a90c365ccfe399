//! Prefill and decode speed on the ~1.6k-token golden prompt, per model,
//! with the file's own quantization and with Q4_1/Q5_x re-quantized to Q8_0.
//! Ignored by default; run in release:
//!
//!     RAYON_NUM_THREADS=2 cargo test --release --test llm_bench -- --ignored --nocapture

use std::path::Path;
use std::time::Instant;

use continuity::llm::arch::decoder::LoadOptions;
use continuity::llm::generate::{generate, GenerateOptions};
use continuity::llm::manifest::resolve_model_offline;
use continuity::llm::model::{peak_rss_bytes, Model};
use serde_json::Value;

#[test]
#[ignore]
fn prefill_and_decode_speed() {
    for name in ["smollm2-135m", "qwen2.5-0.5b", "gemma3-270m"] {
        let Ok(path) = resolve_model_offline(name) else {
            println!("skipped: {name} not fetched (python3 models/fetch.py {name})");
            continue;
        };
        let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
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
        for requantize_q8 in [false, true] {
            let t = Instant::now();
            let mut model = Model::load(name, &path, LoadOptions { requantize_q8 }).unwrap();
            let load_ms = t.elapsed().as_secs_f64() * 1e3;
            model.stop_tokens.clear();
            let opts = GenerateOptions {
                max_new_tokens: 64,
                ..Default::default()
            };
            let g = generate(&mut model, &prompt, &opts).unwrap();
            let tm = &g.timings;
            println!(
                "{name} q8={requantize_q8}: load {load_ms:.0} ms, prompt {} tok, prefill {:.1} tok/s ({:.0} ms), decode {:.1} tok/s ({} tok, {:.0} ms), peak RSS {} MiB",
                tm.prompt_tokens,
                tm.prefill_tokens_per_s(),
                tm.prefill_ms,
                tm.decode_tokens_per_s(),
                tm.generated_tokens,
                tm.decode_ms,
                peak_rss_bytes() >> 20
            );
        }
    }
}
