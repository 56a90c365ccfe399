//! Privacy across a run: a value withheld once stays withheld in every later
//! compaction of the run, every written file obeys the same rules, and an
//! opt-out lets a named kind or field through, audited.

use chrono::Utc;
use continuity_core::compact::{compact_pinned, Inputs, Strategy};
use continuity_core::error::Source;
use continuity_core::governance::pin::{PinContext, PolicyPin};
use continuity_core::redact::Redactor;
use continuity_core::summarize::FixedSummary;
use continuity_core::{formats, io, Compaction, MissionKernel, RetentionPolicy, Transcript};
use serde_json::{json, Value};

const KERNEL: &str = r#"
id = "CLAIMS-1"
version = "1"
objective = "Settle the water-damage claim."
permissions = ["read claims"]
"#;

const NAME: &str = "Dana Whitfield";
const EMAIL: &str = "dana.whitfield@example.org";
const ACCOUNT: &str = "44172290";
const ADDRESS: &str = "14 Harbour Road";

fn kernel() -> MissionKernel {
    MissionKernel::from_toml(KERNEL, &Source("k".into()), Utc::now()).unwrap()
}

fn parse(v: &Value) -> Transcript {
    formats::parse_value(v, &Source("t".into())).unwrap()
}

/// A claims session; `bare` is said in prose, where no detector would
/// know it for personal data.
fn session(first: &str, bare: &str) -> Transcript {
    let filler = "The adjuster reviewed the photos of the kitchen floor. ".repeat(20);
    parse(&json!({
        "model": "m", "max_tokens": 100,
        "messages": [
            {"role": "user", "content": format!("Mission: settle the claim. {first}")},
            {"role": "assistant", "content": [
                {"type": "text", "text": filler},
                {"type": "tool_use", "id": "c1", "name": "get_claim", "input": {"claim_id": "CL-7"}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "c1",
                "content": json!({"claim_id": "CL-7", "status": "open", "note": filler}).to_string()}]},
            {"role": "assistant", "content": filler},
            {"role": "user", "content": format!("Next step. {bare}")},
            {"role": "assistant", "content": "Noted."}
        ]
    }))
}

fn first_session() -> Transcript {
    session(
        &format!(
            "{NAME} ({EMAIL}, +353 1 555 0199) filed it. Pay to account_number: {ACCOUNT}. \
             The site: {{\"property_address\": \"{ADDRESS}, Cork\"}}"
        ),
        "Nothing else.",
    )
}

/// Values of the first session, bare in prose (the account number only
/// in the summary of the second compaction).
fn bare() -> String {
    format!("{NAME} called; Whitfield lives at {ADDRESS}.")
}

fn compaction(
    t: &Transcript,
    policy: &RetentionPolicy,
    ctx: &PinContext,
    summary: &str,
) -> (Compaction, Redactor) {
    let k = kernel();
    let mut redactor = Redactor::new(&policy.personal_data).unwrap();
    let mut s = FixedSummary {
        label: "fixed".into(),
        text: summary.to_string(),
    };
    let c = compact_pinned(
        &Inputs {
            transcript: t,
            input_name: "t",
            kernel: &k,
            policy,
            strategy: Strategy::SummaryOnly,
        },
        ctx,
        &mut s,
        &continuity_test_support::WordCount,
        &mut redactor,
    )
    .unwrap();
    (c, redactor)
}

/// Every file `compact` writes, as one text.
fn written(c: &Compaction) -> String {
    io::serialize(c)
        .unwrap()
        .files
        .iter()
        .map(|(name, bytes)| format!("== {name}\n{}", String::from_utf8_lossy(bytes)))
        .collect()
}

fn leaked<'a>(text: &str, values: &[&'a str]) -> Vec<&'a str> {
    values
        .iter()
        .copied()
        .filter(|v| text.contains(v))
        .collect()
}

const VALUES: [&str; 5] = [NAME, "Whitfield", EMAIL, ACCOUNT, ADDRESS];

#[test]
fn a_value_withheld_once_stays_withheld_in_the_run() {
    let policy = RetentionPolicy::default();
    let now = Utc::now();
    let first = PinContext::first(&kernel(), "t", now);
    let (c1, _) = compaction(&first_session(), &policy, &first, "The claim is open.");
    assert_eq!(leaked(&written(&c1), &VALUES), Vec::<&str>::new());
    assert!(!c1.pin.withheld.values.is_empty());

    // The pin as written and read back, as the next compaction finds it.
    let pin = PolicyPin::from_json(&c1.pin.to_json()).unwrap();
    let next = PinContext::after(pin, None, now).unwrap();
    let summary = format!("Summary: {NAME} asked to wire the payout to {ACCOUNT} at {ADDRESS}.");
    let second = session("Carry on with the claim.", &bare());
    let (c2, mut redactor) = compaction(&second, &policy, &next, &summary);
    let out = written(&c2);
    assert_eq!(leaked(&out, &VALUES), Vec::<&str>::new(), "{out}");
    assert!(!c2.summary.contains(NAME) && c2.summary.contains("<withheld:name:"));
    // The same value reads the same in both compactions.
    let name_of = |c: &Compaction| {
        c.pin
            .withheld
            .values
            .iter()
            .find(|v| v.kind == "name" && v.words == 2)
            .map(|v| v.placeholder.clone())
    };
    assert!(name_of(&c1).is_some());
    // The last name alone, which a detector finds beside an email, reads as
    // the whole name did.
    let surname = |c: &Compaction| {
        c.pin
            .withheld
            .values
            .iter()
            .find(|v| v.kind == "name" && v.words == 1 && v.bytes == "Whitfield".len())
            .map(|v| v.placeholder.clone())
    };
    assert_eq!(surname(&c1), name_of(&c1));
    assert_eq!(name_of(&c1), name_of(&c2));
    assert!(out.contains(&name_of(&c1).unwrap_or_default()));
    // The leak check knows the values again too.
    assert!(redactor.find_leak(&format!("x {ACCOUNT} y")).is_some());
    io::check_leaks(&io::serialize(&c2).unwrap(), &mut redactor).unwrap();
    // A carried value is a leak in any spelling, seen in this compaction
    // or not.
    assert_eq!(
        redactor.find_leak("ring 353-1-555-0199").as_deref(),
        Some("phone")
    );
    assert_eq!(redactor.find_leak("ring 353-1-555-0198"), None);

    // Without the carry (a new run) the detectors alone let them through,
    // in the transcript and in the model's summary: what the pin closes.
    let (c3, _) = compaction(
        &second,
        &policy,
        &PinContext::first(&kernel(), "u", now),
        &summary,
    );
    assert!(leaked(&written(&c3), &VALUES).contains(&NAME));
    assert!(c3.summary.contains(ACCOUNT), "{}", c3.summary);
}

#[test]
fn every_written_file_holds_kinds_and_hashes_never_values() {
    let policy = RetentionPolicy::default();
    let ctx = PinContext::first(&kernel(), "t", Utc::now());
    let summary = format!("{NAME} ({EMAIL}) wants the payout on {ACCOUNT}.");
    let (c, _) = compaction(&first_session(), &policy, &ctx, &summary);
    let out = written(&c);
    for file in [
        "request.json",
        "audit.jsonl",
        "report.json",
        "summary.txt",
        "policy_pin.json",
    ] {
        assert!(out.contains(&format!("== {file}")), "{file} not written");
    }
    assert_eq!(
        leaked(
            &out,
            &[NAME, "Whitfield", EMAIL, ACCOUNT, ADDRESS, "555 0199"]
        ),
        Vec::<&str>::new(),
        "{out}"
    );
    // The audit names the kind and a hash of each value withheld.
    let shape = regex::Regex::new(r"^<withheld:(secret:)?[a-z_:-]+:[0-9a-f]{6,}>$").unwrap();
    let withheld: Vec<_> = c.audit.iter().filter(|r| r.kind == "redaction").collect();
    assert!(withheld.len() >= 5, "{withheld:?}");
    for r in withheld {
        let detail = r.detail.as_deref().unwrap_or_default();
        assert!(shape.is_match(detail), "{detail}");
    }
}

/// A site visit: the tool returns the site's address, its contact and a
/// token, in the last round (kept verbatim).
fn site_visit() -> Transcript {
    let filler = "The engineer checked the boiler logs. ".repeat(20);
    let site = json!({
        "job": "J-42",
        "site_address": format!("{ADDRESS}, Cork T12 X8K2"),
        "contact": {"name": NAME, "email": EMAIL},
        "api_token": "ghp_R4nd0mT0k3nF0rT3st1ngPurp0s3sOnly12"
    });
    parse(&json!({
        "model": "m", "max_tokens": 100,
        "messages": [
            {"role": "user", "content": "Mission: schedule the boiler repair."},
            {"role": "assistant", "content": filler},
            {"role": "user", "content": "Go on."},
            {"role": "assistant", "content": [
                {"type": "tool_use", "id": "c1", "name": "get_job", "input": {"job": "J-42"}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "c1",
                "content": site.to_string()}]}
        ]
    }))
}

fn opt_out(policy: &str) -> (String, Compaction) {
    let policy = RetentionPolicy::from_toml(policy, &Source("p".into())).unwrap();
    let ctx = PinContext::first(&kernel(), "t", Utc::now());
    let (c, mut redactor) = compaction(&site_visit(), &policy, &ctx, "Repair booked.");
    let out = written(&c);
    // What is let through is no leak: the written files pass the check.
    io::check_leaks(&io::serialize(&c).unwrap(), &mut redactor).unwrap();
    (out, c)
}

fn let_through_records(c: &Compaction) -> Vec<(String, String)> {
    c.audit
        .iter()
        .filter(|r| r.decision == continuity_core::audit::Decision::Kept && r.kind == "redaction")
        .map(|r| (r.rule.clone(), r.detail.clone().unwrap_or_default()))
        .collect()
}

#[test]
fn a_field_the_policy_allows_is_let_through_and_audited() {
    let (out, c) = opt_out("[personal_data]\nallow_fields = [\"site_address\"]\n");
    assert!(out.contains(&format!("{ADDRESS}, Cork T12 X8K2")), "{out}");
    // Everything else is withheld as before; credentials always are.
    assert_eq!(
        leaked(&out, &[NAME, EMAIL, "ghp_R4nd0m"]),
        Vec::<&str>::new(),
        "{out}"
    );
    let records = let_through_records(&c);
    assert_eq!(records.len(), 1, "{records:?}");
    assert_eq!(records[0].0, "personal_data.allow_fields.site_address");
    assert!(
        records[0].1.starts_with("1 value(s) let through"),
        "{records:?}"
    );
    assert!(!records[0].1.contains(ADDRESS));

    // With no opt-out the same address is withheld.
    let (out, c) = opt_out("");
    assert!(!out.contains(ADDRESS));
    assert!(let_through_records(&c).is_empty());
}

#[test]
fn a_kind_the_policy_allows_is_let_through_and_audited() {
    let (out, c) = opt_out("[personal_data]\nallow_kinds = [\"email\"]\n");
    assert!(out.contains(EMAIL), "{out}");
    assert_eq!(
        leaked(&out, &[NAME, ADDRESS, "ghp_R4nd0m"]),
        Vec::<&str>::new(),
        "{out}"
    );
    let records = let_through_records(&c);
    assert!(
        records
            .iter()
            .any(|(rule, _)| rule == "personal_data.allow_kinds.email"),
        "{records:?}"
    );
    // Credentials cannot be let through.
    let err = RetentionPolicy::from_toml(
        "[personal_data]\nallow_kinds = [\"secret:github-pat\"]\n",
        &Source("p".into()),
    )
    .unwrap_err();
    assert!(err.to_string().contains("never"), "{err}");
}

#[test]
fn the_carried_hashes_are_sealed_in_the_pin() {
    let policy = RetentionPolicy::default();
    let ctx = PinContext::first(&kernel(), "t", Utc::now());
    let (c, _) = compaction(&first_session(), &policy, &ctx, "The claim is open.");
    let mut pin: Value = serde_json::from_slice(&c.pin.to_json()).unwrap();
    assert!(pin["withheld"]["salt"]
        .as_str()
        .is_some_and(|s| s.len() == 64));
    pin["withheld"]["values"][0]["hash"] = json!("0".repeat(32));
    let edited = PolicyPin::from_json(&serde_json::to_vec(&pin).unwrap()).unwrap();
    assert!(!edited.seal_ok());
    assert!(PinContext::after(edited, None, Utc::now()).is_err());
}

#[test]
fn a_value_found_again_by_a_detector_reads_as_before() {
    let mut first = Redactor::new(&Default::default()).unwrap();
    let (_, log1) = first.redact_transcript(&first_session());
    let name = log1
        .iter()
        .find(|r| r.placeholder.starts_with("<withheld:name:"))
        .map(|r| r.placeholder.clone())
        .unwrap();
    let mut next = Redactor::new(&Default::default()).unwrap();
    next.resume(&first.carry());
    // The surname alone under a sign-off: a signature, found by a detector.
    let (t, _) = next.redact_transcript(&session("\nThanks,\nWhitfield", "Nothing else."));
    let text = serde_json::to_string(&formats::render(&t)).unwrap();
    assert!(!text.contains("Whitfield"), "{text}");
    assert!(text.contains(&name), "{name} not in {text}");
}
