//! Planted personal data never reaches any file the tool writes.

use continuity_core::compact::Strategy;

#[test]
fn placeholders_are_stable_within_a_run() {
    let dir = continuity_test_support::repo().join("examples/billing-dispute");
    let t = continuity_test_support::load_transcript(&dir.join("session.json"));
    let kernel = continuity_test_support::load_kernel(&dir.join("kernel.toml"));
    let policy = continuity_test_support::load_policy(&dir.join("policy.toml"));
    let c = continuity_test_support::run(&t, &kernel, &policy, Strategy::Governed, "extractive");
    let mut by_placeholder = std::collections::HashMap::new();
    for r in &c.redactions {
        by_placeholder
            .entry(r.placeholder.clone())
            .or_insert_with(Vec::new)
            .push(r.rule.clone());
    }
    assert!(!by_placeholder.is_empty());
    // One placeholder per value: far fewer placeholders than redactions.
    assert!(by_placeholder.len() < c.redactions.len());
}

/// Source code inside JSON text (a tool that returns `{"content": "…"}`):
/// its line breaks are the two characters `\n`, so a decorator reads
/// `\n@click.group(`. That is code, not the address `n@click.group`.
#[test]
fn decorators_and_file_names_in_code_are_not_emails() {
    use serde_json::json;
    let code = json!({
        "path": "app/cli.py",
        "content": "import click\n\n\n@click.group()\ndef cli():\n    pass\n\n\n@app.route(\"/health\")\ndef health():\n    return icon('logo@2x.png')\n\nclient = api.create_client(token)\nresult = foo@bar.baz(1)\n# push to git@github.com:acme/app.git\n# npm i @acme/ui@1.4.0\n"
    })
    .to_string();
    let session = json!({"model": "m", "max_tokens": 100, "messages": [
        {"role": "user", "content": "Fix the CLI; write to jane.doe@example.com and a+b@sub.example.co.uk."},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "r1", "name": "read", "input": {"path": "app/cli.py"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "r1", "content": code}]},
        {"role": "assistant", "content": "Read it."},
        {"role": "user", "content": "Go on."}
    ]});
    let t = continuity_core::formats::parse_value(
        &session,
        &continuity_core::error::Source("t".into()),
    )
    .unwrap();
    let mut redactor = continuity_core::redact::Redactor::new(&Default::default()).unwrap();
    let (redacted, log) = redactor.redact_transcript(&t);
    let text = serde_json::to_string(&continuity_core::formats::render(&redacted)).unwrap();
    for kept in [
        "@click.group()",
        "@app.route(",
        "logo@2x.png",
        "foo@bar.baz(1)",
        "git@github.com:acme/app.git",
        "@acme/ui@1.4.0",
    ] {
        assert!(text.contains(kept), "{kept} was altered: {text}");
    }
    let emails: Vec<_> = log
        .iter()
        .filter(|r| r.rule == "personal_data.patterns.email")
        .collect();
    assert_eq!(emails.len(), 2, "{emails:?}");
    assert!(!text.contains("jane.doe@example.com") && !text.contains("a+b@sub.example.co.uk"));
}
