//! Greedy agreement with llama.cpp: for each fixture in
//! `tests/fixtures/generate/` (written by `scripts/golden_generate.py`), our
//! greedy token ids must equal llama.cpp's for every recorded step. Models
//! that are not fetched are skipped with a one-line note.

use std::path::Path;

use continuity::llm::arch::decoder::LoadOptions;
use continuity::llm::generate::{argmax, prefill};
use continuity::llm::manifest::resolve_model;
use continuity::llm::model::Model;
use serde_json::Value;

fn check(name: &str) {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/generate")
        .join(format!("{name}.json"));
    let fx: Value = serde_json::from_str(&std::fs::read_to_string(&fixture).unwrap()).unwrap();
    let path = match resolve_model(name, None) {
        Ok(p) => p,
        Err(_) => {
            println!("skipped: {name} not fetched (python3 models/fetch.py {name})");
            return;
        }
    };
    let mut model = Model::load(name, &path, LoadOptions::default()).unwrap();
    let ids = |v: &Value| -> Vec<u32> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap() as u32)
            .collect()
    };
    let mut failures = Vec::new();
    for case in fx["cases"].as_array().unwrap() {
        let cname = case["name"].as_str().unwrap();
        let prompt = ids(&case["prompt_ids"]);
        // Our tokenizer must give the same prompt ids as llama.cpp.
        let ours = model.encode(case["prompt"].as_str().unwrap()).unwrap();
        assert_eq!(ours, prompt, "{name}/{cname}: prompt tokenization differs");
        let want = ids(&case["greedy_ids"]);
        let gaps = case["top2_gap"].as_array().unwrap();
        let mut logits = prefill(&mut model, &prompt).unwrap();
        let mut got = Vec::new();
        for step in 0..want.len() {
            let next = argmax(&logits);
            got.push(next);
            if next != want[step] {
                failures.push(format!(
                    "{name}/{cname} ({} prompt tokens): first divergence at step {step}: ours {next}, llama.cpp {} (llama.cpp top-2 logit gap there {}); ours {:?} vs {:?}",
                    prompt.len(),
                    want[step],
                    gaps[step],
                    &got,
                    &want[..=step]
                ));
                break;
            }
            logits = model
                .network
                .forward(&[next], prompt.len() + step)
                .unwrap();
        }
        if got == want {
            println!(
                "{name}/{cname}: {} prompt tokens, {} greedy tokens equal llama.cpp's",
                prompt.len(),
                want.len()
            );
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
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
