//! The bundled tokenizer gives llama.cpp's ids, and `--tokenizer` specs
//! resolve or fail with the file named.

use continuity_core::tokens::TokenCount;
use continuity_models::TokenCounter;

#[derive(serde::Deserialize)]
struct Fixture {
    cases: Vec<Case>,
}

#[derive(serde::Deserialize)]
struct Case {
    text: String,
    ids: Vec<u32>,
}

#[test]
fn the_bundled_tokenizer_counts_what_llama_cpp_tokenizes() {
    let path = continuity_test_support::repo().join("tests/fixtures/tokenizer/smollm2-135m.json");
    let fx: Fixture = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let counter = TokenCounter::default_tokenizer().unwrap();
    assert_eq!(counter.name(), "smollm2-135m");
    for case in &fx.cases {
        assert_eq!(
            counter.count(&case.text).unwrap(),
            case.ids.len(),
            "{:?}",
            case.text
        );
    }
}

#[test]
fn a_bad_tokenizer_file_is_an_input_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("tokenizer.json");
    std::fs::write(&bad, "{not json").unwrap();
    let err = TokenCounter::from_spec(bad.to_str().unwrap())
        .err()
        .unwrap()
        .to_string();
    assert!(
        err.contains("tokenizer.json") && err.contains("invalid tokenizer"),
        "{err}"
    );
    let err = TokenCounter::from_spec("/nonexistent/t.json")
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("/nonexistent/t.json"), "{err}");
}
