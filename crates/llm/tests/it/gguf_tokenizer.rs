//! GGUF tokenizers against llama.cpp golden ids (tests/fixtures/tokenizer/).
//!
//! Models are not in the repo: when a GGUF is not fetched, its test prints one
//! `skipped:` line and passes, so `cargo test` works on a fresh checkout.

use std::path::PathBuf;

use continuity_llm::gguf_tokenizer::tokenizer_from_gguf;
use continuity_llm::manifest::resolve_model_offline;
use serde::Deserialize;
use tokenizers::Tokenizer;

#[derive(Deserialize)]
struct Fixture {
    model: String,
    llama_cpp_python_version: String,
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    text: String,
    ids: Vec<u32>,
}

fn root() -> PathBuf {
    crate::repo()
}

fn fixture(model: &str) -> Fixture {
    let path = root()
        .join("tests/fixtures/tokenizer")
        .join(format!("{model}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let fx: Fixture =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(fx.model, model);
    assert!(
        fx.cases.len() >= 30,
        "{model}: only {} cases",
        fx.cases.len()
    );
    fx
}

/// Exact ids with BOS/EOS as llama.cpp `add_special=true`, the same without
/// them as `add_special=false`, and lossless decoding.
fn assert_matches_fixture(tok: &Tokenizer, fx: &Fixture, what: &str) {
    let bos_ids: Vec<u32> = tok
        .encode("", true)
        .expect("encode empty")
        .get_ids()
        .to_vec();
    let mut failures = Vec::new();
    for case in &fx.cases {
        let got = tok
            .encode(case.text.as_str(), true)
            .expect("encode")
            .get_ids()
            .to_vec();
        if got != case.ids {
            failures.push(format!(
                "  text {:?}\n    llama.cpp {:?}\n    ours      {:?}",
                case.text, case.ids, got
            ));
            continue;
        }
        let plain = tok
            .encode(case.text.as_str(), false)
            .expect("encode")
            .get_ids()
            .to_vec();
        if got != [bos_ids.as_slice(), plain.as_slice()].concat() {
            failures.push(format!(
                "  text {:?}: add_special=false gave {plain:?}",
                case.text
            ));
        }
        let decoded = tok.decode(&plain, false).expect("decode");
        if decoded != case.text {
            failures.push(format!("  text {:?}: decoded to {decoded:?}", case.text));
        }
    }
    assert!(
        failures.is_empty(),
        "{what}: {}/{} cases differ from llama-cpp-python {}:\n{}",
        failures.len(),
        fx.cases.len(),
        fx.llama_cpp_python_version,
        failures.join("\n")
    );
    println!("{what}: {} cases match llama.cpp", fx.cases.len());
}

fn gguf_or_skip(model: &str) -> Option<PathBuf> {
    match resolve_model_offline(model) {
        Ok(p) => Some(p),
        Err(_) => {
            println!("skipped: {model} not fetched (python3 models/fetch.py {model})");
            None
        }
    }
}

fn check_model(model: &str) {
    let fx = fixture(model);
    let Some(path) = gguf_or_skip(model) else {
        return;
    };
    let tok = tokenizer_from_gguf(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_matches_fixture(&tok, &fx, &format!("{model} ({})", path.display()));
}

#[test]
fn smollm2_matches_llama_cpp() {
    check_model("smollm2-135m");
}

#[test]
fn qwen25_matches_llama_cpp() {
    check_model("qwen2.5-0.5b");
}

#[test]
fn gemma3_matches_llama_cpp() {
    check_model("gemma3-270m");
}

/// The committed tokenizer.json needs no model file, so it is always checked.
#[test]
fn committed_smollm2_tokenizer_json_matches_llama_cpp() {
    let path = root().join("tokenizers/smollm2-135m.json");
    let tok = Tokenizer::from_file(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_matches_fixture(
        &tok,
        &fixture("smollm2-135m"),
        "tokenizers/smollm2-135m.json",
    );
}

/// When the GGUF is present, the committed JSON must be what the builder
/// produces today (regenerate with the command in tokenizers/README.md).
#[test]
fn committed_smollm2_tokenizer_json_is_current() {
    let Some(gguf) = gguf_or_skip("smollm2-135m") else {
        return;
    };
    let built = tokenizer_from_gguf(&gguf).expect("build");
    let committed =
        Tokenizer::from_file(root().join("tokenizers/smollm2-135m.json")).expect("load");
    let fx = fixture("smollm2-135m");
    for case in &fx.cases {
        let a = built.encode(case.text.as_str(), true).expect("encode");
        let b = committed.encode(case.text.as_str(), true).expect("encode");
        assert_eq!(a.get_ids(), b.get_ids(), "text {:?}", case.text);
    }
    assert_eq!(built.get_vocab_size(true), committed.get_vocab_size(true));
}
