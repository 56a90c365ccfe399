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

/// Counting all at once (in parallel) and again (from the memo) gives
/// llama.cpp's counts, in order, for every backend.
#[test]
fn counts_made_together_or_again_are_the_counts_made_alone() {
    let path = continuity_test_support::repo().join("tests/fixtures/tokenizer/smollm2-135m.json");
    let fx: Fixture = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let texts: Vec<&str> = fx.cases.iter().map(|c| c.text.as_str()).collect();
    let expected: Vec<usize> = fx.cases.iter().map(|c| c.ids.len()).collect();
    let counter = TokenCounter::default_tokenizer().unwrap();
    assert_eq!(counter.count_each(&texts).unwrap(), expected);
    assert_eq!(counter.count_each(&texts).unwrap(), expected, "memoized");
    let scaled = TokenCounter::default_tokenizer()
        .unwrap()
        .scaled(2.0, "x2".into());
    let doubled: Vec<usize> = expected.iter().map(|n| n * 2).collect();
    assert_eq!(scaled.count_each(&texts).unwrap(), doubled);
    let o200k = TokenCounter::o200k_base().unwrap();
    let alone: Vec<usize> = texts.iter().map(|t| o200k.count(t).unwrap()).collect();
    assert_eq!(o200k.count_each(&texts).unwrap(), alone);
    // Past the size where counting goes parallel (256 KiB), in order.
    let many: Vec<&str> = texts
        .iter()
        .copied()
        .cycle()
        .take(texts.len() * 400)
        .collect();
    assert!(many.iter().map(|t| t.len()).sum::<usize>() > 256 * 1024);
    let fresh = TokenCounter::default_tokenizer().unwrap();
    let in_order: Vec<usize> = expected.iter().copied().cycle().take(many.len()).collect();
    assert_eq!(fresh.count_each(&many).unwrap(), in_order, "in parallel");
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
