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

fn redact(messages: serde_json::Value) -> (String, Vec<continuity_core::redact::Redaction>) {
    let session = serde_json::json!({"model": "m", "max_tokens": 100, "messages": messages});
    let t = continuity_core::formats::parse_value(
        &session,
        &continuity_core::error::Source("t".into()),
    )
    .unwrap();
    let mut redactor = continuity_core::redact::Redactor::new(&Default::default()).unwrap();
    let (redacted, log) = redactor.redact_transcript(&t);
    let text = serde_json::to_string(&continuity_core::formats::render(&redacted)).unwrap();
    (text, log)
}

/// The values the issue saw leak with no policy: street addresses under
/// `property_address`, `loss.location` and an office's `address`, bank
/// numbers in `key=value` text, an international phone in prose, a name
/// under `resolved_by`, and a name beside its email and phone.
#[test]
fn wider_personal_data_is_withheld_with_no_policy() {
    use serde_json::json;
    let claim = json!({
        "claim_id": "CLM-2291",
        "property_address": "48 Larkspur Crescent, Galway H91 E2K4",
        "loss": {"location": "Unit 3, 112 Wexford Road, Leeds LS6 2AB", "cause": "storm"},
        "office": {"name": "North hub", "address": "9 Fenwick Quay, Cork T12 X5R2"},
        "resolved_by": "Ingrid Lindqvist",
        "owner": "team-claims",
        "address_ip": "10.0.4.12"
    })
    .to_string();
    let (text, log) = redact(json!([
        {"role": "user", "content": "Aoife Brennan (aoife.brennan@example.ie, +353 1 234 5678) reports the payout failed."},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "c1", "name": "get_claim", "input": {"id": "CLM-2291"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "c1", "content": claim}]},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "c2", "name": "payroll", "input": {"run": "2024-06"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "c2", "content": "employee=E-104 account_number=31926819 bank_account=4020 1234 5678 routing_number=021000021 sort_code=20-00-00 status=failed"}]},
        {"role": "assistant", "content": "I will retry the transfer to 31926819 for Ingrid Lindqvist; call +353 1 234 5678 if it fails."}
    ]));
    for leaked in [
        "48 Larkspur Crescent",
        "112 Wexford Road",
        "9 Fenwick Quay",
        "31926819",
        "4020 1234 5678",
        "021000021",
        "20-00-00",
        "+353 1 234 5678",
        "Ingrid Lindqvist",
        "Aoife Brennan",
    ] {
        assert!(!text.contains(leaked), "{leaked} leaked: {text}");
    }
    for kept in [
        "CLM-2291",
        "team-claims",
        "10.0.4.12",
        "E-104",
        "status=failed",
        "2024-06",
    ] {
        assert!(text.contains(kept), "{kept} was altered: {text}");
    }
    // One value, one placeholder, wherever it appears.
    let account: Vec<_> = log
        .iter()
        .filter(|r| r.placeholder.starts_with("<withheld:bank_account:"))
        .map(|r| r.placeholder.clone())
        .collect();
    assert!(account.len() >= 2, "{account:?}");
    assert_eq!(text.matches(&account[0]).count(), 2, "{text}");
}

/// Look-alikes of the new kinds stay: versions, timestamps, ids, ports,
/// durations, host addresses, code, and team names under role keys.
#[test]
fn look_alikes_of_personal_data_stay() {
    use serde_json::json;
    let output = "version 10.2.3.4567\nat 2024-03-01 12:30:45\norder 4155550132\nhost 192.168.100.200:5432\ntook 1 234 567 ms\nline 42 Main function\nassignee: ops-bot\nowner: Platform Team\nlocation: us-east-1\nbuild 1719014504249\nsha 3f2a9c1e\n";
    let (text, log) = redact(json!([
        {"role": "user", "content": "Check the deploy log."},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "c1", "name": "logs", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "c1", "content": output}]}
    ]));
    assert!(log.is_empty(), "{log:?}");
    for line in output.lines() {
        assert!(text.contains(line), "{line} was altered: {text}");
    }
}
