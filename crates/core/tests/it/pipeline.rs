//! Compaction mechanics on small conversations built in the test.

use continuity_core::audit::{precedence_check, Decision};
use continuity_core::compact::Strategy;
use continuity_core::error::Source;
use continuity_core::formats;
use continuity_core::policy::RetentionPolicy;
use continuity_core::redact::Redactor;
use continuity_core::summarize::{FixedSummary, Summarizer};
use continuity_core::{compact, Inputs, MissionKernel, Transcript};
use serde_json::{json, Value};

const KERNEL: &str = r#"
id = "OPS-1"
version = "1"
objective = "Prepare the quarterly customer export."
permissions = ["read datasets"]
[[prohibition]]
id = "no-external-export"
text = "Never send a customer export outside the company domain."
tools = ["send_export"]
effect = "deny"
source = "policy://data-handling/v4"
version = "4"
scope = ["tenant:acme"]
"#;

const POLICY: &str = r#"
[compaction]
stub_threshold_chars = 120
summary_words = 40
[evidence.pins]
get_record = ["record_id", "status", "amount"]
list_records = []
[personal_data]
fields = ["name", "email"]
"#;

fn kernel() -> MissionKernel {
    MissionKernel::from_toml(KERNEL, &Source("k".into()), chrono::Utc::now()).unwrap()
}
fn policy() -> RetentionPolicy {
    RetentionPolicy::from_toml(POLICY, &Source("p".into())).unwrap()
}

fn call(id: &str, name: &str, args: Value) -> Value {
    json!({"type": "tool_use", "id": id, "name": name, "input": args})
}
fn result(id: &str, content: Value) -> Value {
    json!({"type": "tool_result", "tool_use_id": id, "content": content.to_string()})
}

/// A conversation: mission, three rounds of tool calls, the last one large.
fn conversation() -> Value {
    json!({
        "model": "m", "max_tokens": 100,
        "system": "You are an ops agent.",
        "tools": [{"name": "get_record", "description": "d", "input_schema": {"type": "object"}}],
        "messages": [
            {"role": "user", "content": "Mission: prepare the export. Never send it outside acme.example."},
            {"role": "assistant", "content": [
                {"type": "text", "text": "I will read R-1 first because the export depends on it."},
                call("c1", "get_record", json!({"record_id": "R-1"})),
                call("c2", "list_records", json!({}))]},
            {"role": "user", "content": [
                result("c1", json!({"record_id": "R-1", "status": "open", "amount": 10.5, "owner": {"name": "Ada Quill", "email": "ada@quill.example"}})),
                result("c2", json!({"records": ["R-1", "R-2"]}))]},
            {"role": "assistant", "content": [
                {"type": "text", "text": "Record R-1 is open; Ada Quill owns it. The amount is only $10.50 and was never approved."},
                call("c3", "get_record", json!({"record_id": "R-1"})),
                call("c4", "get_record", json!({"record_id": "R-2"}))]},
            {"role": "user", "content": [
                result("c3", json!({"record_id": "R-1", "status": "closed", "amount": 10.5})),
                result("c4", json!({"record_id": "R-2", "status": "open", "amount": 99.0}))]},
            {"role": "assistant", "content": [
                call("c5", "get_record", json!({"record_id": "R-3"})),
                call("c6", "get_record", json!({"record_id": "R-4"}))]},
            {"role": "user", "content": [
                result("c5", json!({"record_id": "R-3", "status": "open", "amount": 1.0, "note": "x".repeat(300)})),
                result("c6", json!({"record_id": "R-4", "status": "open"}))]}
        ]
    })
}

fn parse(v: &Value) -> Transcript {
    formats::parse_value(v, &Source("t".into())).unwrap()
}

fn run_with(
    t: &Transcript,
    strategy: Strategy,
    summarizer: &mut dyn Summarizer,
) -> continuity_core::Compaction {
    let (k, p) = (kernel(), policy());
    let mut redactor = Redactor::new(&p.personal_data).unwrap();
    compact(
        &Inputs {
            transcript: t,
            input_name: "t",
            kernel: &k,
            policy: &p,
            strategy,
        },
        chrono::Utc::now(),
        summarizer,
        &continuity_test_support::WordCount,
        &mut redactor,
    )
    .unwrap()
}

fn run(t: &Transcript, strategy: Strategy) -> continuity_core::Compaction {
    let mut s = continuity_test_support::core_summarizer("extractive");
    run_with(t, strategy, s.as_mut())
}

/// Pinned records as `[call] record line`: the lines of the continuity
/// block's facts, each with the call the audit says it came from.
fn pin_lines(c: &continuity_core::Compaction) -> Vec<String> {
    let text = c.request.visible_text();
    let mut out = Vec::new();
    let mut in_facts = false;
    for line in text.lines() {
        if line.starts_with("FACTS RETURNED BY TOOLS") {
            in_facts = true;
        } else if in_facts && line.starts_with("- ") {
            let record = line[2..]
                .split_whitespace()
                .next()
                .and_then(|f| f.split_once('='))
                .map(|(_, v)| v)
                .unwrap_or("");
            let call = c
                .audit
                .iter()
                .find(|r| r.decision == Decision::Pinned && r.record_id.as_deref() == Some(record))
                .and_then(|r| r.call_id.clone())
                .unwrap_or_default();
            out.push(format!("[{call}] {}", &line[2..]));
        } else if in_facts && line.ends_with(':') && !line.contains('(') {
            // A group header (`tool:`).
        } else {
            in_facts = false;
        }
    }
    out
}

#[test]
fn keeps_the_latest_round_and_stubs_its_large_results() {
    let c = run(&parse(&conversation()), Strategy::Governed);
    let msgs = &c.request.messages;
    assert_eq!(msgs.len(), 3, "head + latest round (call, results)");
    let ids: Vec<&str> = msgs[1].tool_calls().map(|(id, _, _)| id).collect();
    assert_eq!(ids, ["c5", "c6"]);
    let stub = c
        .audit
        .iter()
        .find(|r| r.decision == Decision::Stubbed)
        .expect("a stub");
    assert_eq!(stub.call_id.as_deref(), Some("c5"));
    assert!(
        stub.original.as_deref().unwrap().contains(&"x".repeat(300)),
        "original kept in the audit"
    );
    let text = c.request.visible_text();
    assert!(!text.contains(&"x".repeat(300)));
    assert!(text.contains("[stub: 358 chars of get_record output; original in the compaction audit; fields pinned above]"), "{text}");
}

#[test]
fn pins_latest_return_per_record_and_skip_what_the_tail_holds_whole() {
    let c = run(&parse(&conversation()), Strategy::Governed);
    let pins = pin_lines(&c);
    // R-1 was returned twice: the later, closed return wins.
    assert!(
        pins.contains(&"[c3] record_id=R-1 status=closed amount=10.5".to_string()),
        "{pins:?}"
    );
    assert!(
        !pins.iter().any(|l| l.contains("status=open amount=10.5")),
        "{pins:?}"
    );
    assert!(pins.contains(&"[c4] record_id=R-2 status=open amount=99.0".to_string()));
    // R-3's result was stubbed in the tail, so it is pinned; R-4 stays whole
    // in the tail, so pinning it would only repeat it.
    assert!(pins.iter().any(|l| l.starts_with("[c5] record_id=R-3")));
    assert!(!pins.iter().any(|l| l.contains("R-4")));
    let dedupe = c
        .audit
        .iter()
        .find(|r| r.rule == "evidence.dedupe_tail")
        .expect("dedupe record");
    assert_eq!(dedupe.record_id.as_deref(), Some("R-4"));
    let superseded = c
        .audit
        .iter()
        .find(|r| r.rule == "evidence.latest_wins")
        .expect("latest-wins record");
    assert_eq!(superseded.call_id.as_deref(), Some("c1"));
    // The bulk view is never pinned, but the call stays listed.
    assert!(c.request.visible_text().contains("- [c2] list_records {}"));
}

#[test]
fn pins_survive_a_second_compaction() {
    let first = run(&parse(&conversation()), Strategy::Governed);
    let mut v = formats::render(&first.request);
    let msgs = v["messages"].as_array_mut().unwrap();
    msgs.push(json!({"role": "assistant", "content": [call("c7", "get_record", json!({"record_id": "R-2"})), call("c8", "list_records", json!({}))]}));
    msgs.push(json!({"role": "user", "content": [
        result("c7", json!({"record_id": "R-2", "status": "refunded", "amount": 99.0})),
        result("c8", json!({"records": ["R-1", "R-2", "R-3", "R-4", "R-5", "R-6", "R-7", "R-8", "R-9", "R-10", "R-11", "R-12", "R-13", "R-14"]}))]}));
    let second = run(&parse(&v), Strategy::Governed);
    let pins = pin_lines(&second);
    // Carried pins keep their lines; their call is the earlier compaction's
    // (the block groups by tool, the audit holds the original call).
    assert!(
        pins.iter()
            .any(|l| l.ends_with("] record_id=R-1 status=closed amount=10.5")),
        "carried: {pins:?}"
    );
    assert!(
        pins.iter().any(|l| l.contains("] record_id=R-3")),
        "carried: {pins:?}"
    );
    // R-2 was fetched again: the fresh return replaces the carried pin.
    assert!(
        !pins.iter().any(|l| l.contains("R-2 status=open")),
        "{pins:?}"
    );
    // ...and that return stays whole in the tail, so it is not pinned twice.
    assert!(!pins.iter().any(|l| l.contains("R-2")), "{pins:?}");
    assert!(second
        .request
        .visible_text()
        .contains(r#""record_id":"R-2","status":"refunded""#));
    assert_eq!(second.report.counts.pins_carried, 2);
    // The kernel is rendered once, never twice.
    let instructions = second.request.instructions.join("\n");
    assert_eq!(
        instructions
            .matches(continuity_core::kernel::KERNEL_OPENING)
            .count(),
        1
    );
}

#[test]
fn summary_only_carries_no_kernel() {
    let c = run(&parse(&conversation()), Strategy::SummaryOnly);
    let text = c.request.visible_text();
    // The user's words may reach the summary, but only as advisory text.
    let instructions = c.request.instructions.join("\n");
    assert!(!instructions.contains("Never send it outside acme.example"));
    assert!(!text.contains("Never send a customer export outside the company domain."));
    assert!(text.starts_with("You are an ops agent."));
    assert_eq!(c.report.tokens.kernel, 0);
    assert!(c.report.precedence.is_empty());
}

#[test]
fn governed_puts_the_kernel_in_the_instructions_and_labels_the_summary_advisory() {
    let c = run(&parse(&conversation()), Strategy::Governed);
    let instructions = c.request.instructions.join("\n");
    assert!(instructions.contains(&kernel().render()));
    let head = c.request.messages[0].parts[0].part.visible_text();
    assert!(head.contains("FACTS RETURNED BY TOOLS"));
    assert!(head.contains("SUMMARY OF EARLIER WORK (advisory"));
    assert!(c.report.precedence.iter().all(|p| p.present));
    assert!(c
        .report
        .precedence
        .iter()
        .any(|p| p.item == "prohibition:no-external-export"));
}

#[test]
fn summaries_are_capped_and_scrubbed_of_personal_data() {
    let long = format!(
        "Ada Quill wrote to ada@quill.example. {}",
        "word. ".repeat(500)
    );
    let mut s = FixedSummary {
        label: "fixed".into(),
        text: long,
    };
    let c = run_with(&parse(&conversation()), Strategy::Governed, &mut s);
    assert_eq!(c.summary.split_whitespace().count(), 40);
    assert!(c.report.summarizer.capped);
    assert!(
        !c.summary.contains("Ada Quill") && !c.summary.contains("ada@quill.example"),
        "{}",
        c.summary
    );
    let name = c.summary.split(' ').next().unwrap_or_default();
    assert!(
        name.starts_with("<withheld:name:")
            && c.summary[name.len()..].starts_with(" wrote to <withheld:email:"),
        "{}",
        c.summary
    );
}

#[test]
fn personal_data_is_withheld_everywhere_with_stable_placeholders() {
    let c = run(&parse(&conversation()), Strategy::SummaryOnly);
    // The assistant named the owner in free text; the field's value is caught there too.
    let all = serde_json::to_string(&formats::render(&c.request)).unwrap()
        + &c.audit
            .iter()
            .map(|r| serde_json::to_string(r).unwrap())
            .collect::<String>();
    assert!(!all.contains("Ada Quill") && !all.contains("ada@quill.example"));
    let name_placeholders: std::collections::HashSet<&str> = c
        .redactions
        .iter()
        .filter(|r| r.rule == "personal_data.fields.name")
        .map(|r| r.placeholder.as_str())
        .collect();
    assert_eq!(name_placeholders.len(), 1, "one value, one placeholder");
}

#[test]
fn the_precedence_check_reports_what_is_missing() {
    let items = vec![
        ("a".to_string(), "kept text".to_string()),
        ("b".to_string(), "lost text".to_string()),
    ];
    let r = precedence_check("only the kept text is here", &items);
    assert!(r[0].present && !r[1].present);
}

#[test]
fn nothing_to_compact_still_yields_a_valid_request() {
    let v = json!({"model": "m", "max_tokens": 10, "messages": [{"role": "user", "content": "hello there"}]});
    let c = run(&parse(&v), Strategy::Governed);
    formats::check_conversation(&c.request).unwrap();
    assert_eq!(c.request.messages.len(), 1);
}

#[test]
fn the_two_factors_separate() {
    let t = parse(&conversation());
    let kernel_only = run(&t, Strategy::KernelOnly);
    assert!(kernel_only
        .request
        .instructions
        .join("\n")
        .contains(&kernel().render()));
    assert!(pin_lines(&kernel_only).is_empty());
    let pins_only = run(&t, Strategy::PinsOnly);
    assert!(!pins_only
        .request
        .instructions
        .join("\n")
        .contains(continuity_core::kernel::KERNEL_OPENING));
    assert!(
        pin_lines(&pins_only).contains(&"[c3] record_id=R-1 status=closed amount=10.5".to_string())
    );
    assert!(!pins_only
        .request
        .visible_text()
        .contains("Your mission and its limits are in your instructions"));
    formats::check_conversation(&kernel_only.request).unwrap();
    formats::check_conversation(&pins_only.request).unwrap();
}

/// `n` rounds, each reading a host record that the next turn relies on (it
/// names the host and its port).
fn relied_on_session(n: usize) -> Value {
    let mut messages =
        vec![json!({"role": "user", "content": "Mission: check every host before the rollout."})];
    for r in 0..n {
        let mut content = Vec::new();
        if r > 0 {
            let text = format!(
                "Host H-{} answers on port {}; next one.",
                r - 1,
                8000 + r - 1
            );
            content.push(json!({"type": "text", "text": text}));
        }
        content.push(call(
            &format!("h{r}"),
            "get_host",
            json!({"host_id": format!("H-{r}")}),
        ));
        messages.push(json!({"role": "assistant", "content": content}));
        let record = json!({"host_id": format!("H-{r}"), "port": 8000 + r, "region": format!("eu-west-{r}"), "build": format!("b-{r}-{}", "7".repeat(40))});
        messages.push(json!({"role": "user", "content": [result(&format!("h{r}"), record)]}));
    }
    let last = format!("Host H-{} answers on port {}.", n - 1, 8000 + n - 1);
    messages.push(json!({"role": "assistant", "content": [{"type": "text", "text": last}]}));
    messages.push(json!({"role": "user", "content": "Go on."}));
    json!({"model": "m", "max_tokens": 100, "system": "You check hosts.", "messages": messages})
}

fn compact_at(
    t: &Transcript,
    policy: &RetentionPolicy,
) -> continuity_core::error::Result<continuity_core::Compaction> {
    let kernel = MissionKernel::session(chrono::Utc::now()).unwrap();
    let mut redactor = Redactor::new(&policy.personal_data).unwrap();
    compact(
        &Inputs {
            transcript: t,
            input_name: "t",
            kernel: &kernel,
            policy,
            strategy: Strategy::Governed,
        },
        chrono::Utc::now(),
        continuity_test_support::core_summarizer("none").as_mut(),
        &continuity_test_support::WordCount,
        &mut redactor,
    )
}

#[test]
fn relied_on_evidence_yields_newest_first_when_it_cannot_all_fit_but_policy_pins_never_do() {
    let t = parse(&relied_on_session(12));
    let mut policy = RetentionPolicy::default();
    policy.compaction.set_target(1_000_000);
    let all = compact_at(&t, &policy).unwrap();
    assert_eq!(all.report.counts.pins_relied_on_over_budget, 0);
    let text = all.request.visible_text();
    assert!(
        text.contains("host_id=H-0") && text.contains("host_id=H-10"),
        "{text}"
    );
    // A target that holds about half of that evidence.
    let target = all.report.tokens.after - all.report.tokens.pinned / 2;
    policy.compaction.set_target(target);
    let half = compact_at(&t, &policy).unwrap();
    assert!(half.report.tokens.after <= target);
    let yielded = half.report.counts.pins_relied_on_over_budget;
    assert!(yielded > 0 && yielded < 11, "{yielded}");
    let text = half.request.visible_text();
    assert!(text.contains("host_id=H-10"), "the newest is kept: {text}");
    assert!(!text.contains("host_id=H-0 "), "the oldest yields: {text}");
    let dropped = half
        .audit
        .iter()
        .filter(|r| r.kind == "pinned_field" && r.decision == Decision::Dropped)
        .filter(|r| r.rule == "budget.newest_first")
        .count();
    assert_eq!(dropped, yielded);
    // The policy's pins are kept whatever they cost: the same target is refused.
    let pins = "[evidence.pins]\nget_host = [\"host_id\", \"port\", \"region\", \"build\"]\n";
    let mut pinned = RetentionPolicy::from_toml(pins, &Source("p".into())).unwrap();
    pinned.compaction.set_target(target);
    let err = compact_at(&t, &pinned).unwrap_err();
    assert_eq!(err.exit_code(), 5, "{err}");
    assert!(
        err.to_string().contains("evidence the policy pins"),
        "{err}"
    );
}

#[test]
fn a_compaction_ends_under_a_target_below_the_trigger_and_says_how_many_turns_that_leaves() {
    let t = parse(&relied_on_session(12));
    let mut policy = RetentionPolicy::default();
    let all = {
        policy.compaction.set_target(1_000_000);
        compact_at(&t, &policy).unwrap()
    };
    // A trigger the full history is over; the target is 0.7 of it.
    let mut policy = RetentionPolicy::default();
    policy.compaction.trigger_tokens = all.report.tokens.before * 9 / 10;
    let c = compact_at(&t, &policy).unwrap();
    let h = &c.report.headroom;
    let trigger = policy.compaction.trigger_tokens;
    assert_eq!(h.trigger, trigger);
    assert_eq!(h.target, (trigger as f64 * 0.7).floor() as usize);
    assert_eq!(h.target, c.report.budget.target);
    assert!(c.report.tokens.after <= h.target, "{h:?}");
    assert_eq!(h.room, trigger - c.report.tokens.after);
    let g = h.growth_per_turn.unwrap();
    assert!(g > 0);
    assert_eq!(
        h.turns.unwrap(),
        (h.room as f64 / g as f64 * 10.0).floor() / 10.0
    );
    // The promise is at the largest turn, never above the estimate.
    let largest = h.largest_turn.unwrap();
    assert!(largest >= g);
    assert_eq!(h.turns_at_largest.unwrap(), h.room / largest);
    assert!(h.turns_at_largest.unwrap() as f64 <= h.turns.unwrap());
}

#[test]
fn old_policy_files_parse_and_a_target_above_the_trigger_is_refused() {
    let old =
        RetentionPolicy::from_toml("[compaction]\ntrigger_tokens = 5000\n", &Source("p".into()))
            .unwrap();
    assert_eq!(old.compaction.target(), 3500);
    let set = "[compaction]\ntrigger_tokens = 5000\ntarget_tokens = 4000\n";
    let p = RetentionPolicy::from_toml(set, &Source("p".into())).unwrap();
    assert_eq!(p.compaction.target(), 4000);
    let bad = "[compaction]\ntrigger_tokens = 5000\ntarget_tokens = 6000\n";
    assert!(RetentionPolicy::from_toml(bad, &Source("p".into())).is_err());
    let bad = "[compaction]\ntarget_fraction = 1.5\n";
    assert!(RetentionPolicy::from_toml(bad, &Source("p".into())).is_err());
    for dir in ["examples", "eval"] {
        let root = continuity_test_support::repo().join(dir);
        for entry in walk(&root) {
            if entry
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("policy"))
                && entry.extension().is_some_and(|e| e == "toml")
            {
                let text = std::fs::read_to_string(&entry).unwrap();
                RetentionPolicy::from_toml(&text, &Source::path(&entry))
                    .unwrap_or_else(|e| panic!("{}: {e}", entry.display()));
            }
        }
    }
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}
