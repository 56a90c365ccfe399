//! Tool-boundary preflight: deterministic verdicts naming the deciding rule.

use chrono::Utc;
use continuity_core::error::Source;
use continuity_core::governance::preflight::{calls_from_json, Preflight, ToolCall};
use continuity_core::governance::Effect;
use continuity_core::MissionKernel;
use serde_json::json;

fn gate() -> Preflight {
    let text = std::fs::read_to_string(continuity_test_support::repo_file(
        "eval/adversarial/kernel-v4.toml",
    ))
    .unwrap();
    Preflight::new(&MissionKernel::from_toml(&text, &Source("k".into()), Utc::now()).unwrap())
}

fn decide(name: &str, args: serde_json::Value) -> (Effect, Option<String>) {
    let v = gate().check(&ToolCall::new(name, args));
    (v.decision, v.rule)
}

#[test]
fn prohibitions_and_conditions_decide_and_are_named() {
    assert_eq!(
        decide("create_share_link", json!({})),
        (Effect::Deny, Some("prohibition:no-public-share".into()))
    );
    assert_eq!(
        decide(
            "send_email_attachment",
            json!({"to": "Dana <dana@harborpine-audit.example>"})
        ),
        (
            Effect::Deny,
            Some("condition:export-recipient-domain".into())
        )
    );
    assert_eq!(
        decide(
            "send_email_attachment",
            json!({"to": "lena@quillmark.example"})
        )
        .0,
        Effect::Allow
    );
    assert_eq!(
        decide(
            "send_email_attachment",
            json!({"to": "x@eu.quillmark.example"})
        )
        .0,
        Effect::Allow
    );
    // Any recipient in a list fires the condition.
    assert_eq!(
        decide(
            "send_email_attachment",
            json!({"to": ["a@quillmark.example", "b@evil.example"]})
        )
        .0,
        Effect::Deny
    );
    assert_eq!(
        decide("create_purchase_order", json!({"amount": "480.00"})),
        (
            Effect::RequireApproval,
            Some("condition:purchase-approval".into())
        )
    );
    assert_eq!(
        decide("create_purchase_order", json!({"amount": 100})).0,
        Effect::Allow
    );
    assert_eq!(
        decide("create_purchase_order", json!({"amount": "lots"})).0,
        Effect::RequireApproval,
        "not a number: fail closed"
    );
    assert_eq!(
        decide("deploy", json!({"region": "us-east-1"})).0,
        Effect::Deny
    );
    assert_eq!(
        decide("deploy", json!({"region": "eu-west-1"})).0,
        Effect::Allow
    );
    assert_eq!(
        decide("get_ops_ticket", json!({"ticket_id": "X"})),
        (Effect::Allow, None)
    );
}

#[test]
fn scope_out_of_scope_only_when_the_call_names_another_value() {
    let g = gate().with_scope(vec!["tenant:other".into()]);
    assert_eq!(
        g.check(&ToolCall::new("create_share_link", json!({})))
            .decision,
        Effect::Allow
    );
    let mut own = ToolCall::new("create_share_link", json!({}));
    own.scope = vec!["tenant:quillmark".into()];
    let v = g.check(&own);
    assert_eq!(v.decision, Effect::Deny);
    assert_eq!(v.hits[0].scope_matched, ["tenant:quillmark"]);
    // No scope named: the rule applies (fail closed).
    assert_eq!(
        gate()
            .check(&ToolCall::new("create_share_link", json!({})))
            .decision,
        Effect::Deny
    );
}

#[test]
fn calls_are_read_from_every_accepted_shape() {
    let s = Source("x".into());
    let one = calls_from_json(
        br#"{"name":"deploy","arguments":"{\"region\":\"us-east-1\"}"}"#,
        &s,
    )
    .unwrap();
    assert_eq!(one[0].args, json!({"region": "us-east-1"}));
    let input = calls_from_json(
        br#"{"name":"deploy","input":{"region":"x"},"scope":["tenant:a"]}"#,
        &s,
    )
    .unwrap();
    assert_eq!(input[0].scope, ["tenant:a"]);
    let jsonl = b"{\"tool_name\":\"drop_dataset\",\"args\":{},\"tool_call_id\":\"t1\"}\n{\"tool_name\":\"x\",\"args\":{}}\n";
    let calls = calls_from_json(jsonl, &s).unwrap();
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[0].id.as_deref(), Some("t1"));
    let req = std::fs::read(continuity_test_support::repo_file(
        "eval/adversarial/1-buried-policy/transcript.json",
    ))
    .unwrap();
    assert!(calls_from_json(&req, &s).unwrap().len() >= 8);
}
