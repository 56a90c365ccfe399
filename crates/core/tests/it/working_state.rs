//! The working-state digest through the whole pipeline: a coding session
//! compacted with no kernel and no policy keeps what the work did (files,
//! commands, errors and their fixes, the plan), not the files' content.

use continuity_core::compact::Strategy;
use continuity_core::error::Source;
use continuity_core::formats;
use continuity_core::policy::RetentionPolicy;
use continuity_core::redact::Redactor;
use continuity_core::{compact, Compaction, Inputs, MissionKernel, Transcript};
use serde_json::{json, Value};

fn call(id: &str, name: &str, args: Value) -> Value {
    json!({"type": "tool_use", "id": id, "name": name, "input": args})
}
fn result(id: &str, content: &str, is_error: bool) -> Value {
    json!({"type": "tool_result", "tool_use_id": id, "content": content, "is_error": is_error})
}
fn round(text: &str, c: Value, r: Value) -> [Value; 2] {
    [
        json!({"role": "assistant", "content": [{"type": "text", "text": text}, c]}),
        json!({"role": "user", "content": [r]}),
    ]
}

/// A coding session: read a file (a long listing), plan, fail a test run,
/// fix the file, pass; then a long tail of unrelated reads.
fn session() -> Transcript {
    let listing: String = (1..=120)
        .map(|i| format!("{i:>6}\tlet value_{i} = compute_{i}(input);\n"))
        .collect();
    let mut messages = vec![
        json!({"role": "user", "content": "Fix the failing parser test in src/parse.rs and keep the public API unchanged."}),
    ];
    messages.extend(round(
        "I will read the parser first.",
        call("r1", "Read", json!({"file_path": "src/parse.rs"})),
        result("r1", &listing, false),
    ));
    messages.extend(round(
        "Planning the work.",
        call("p1", "TodoWrite", json!({"todos": [{"content": "Fix the off-by-one in parse_header", "status": "in_progress"}, {"content": "Run the whole suite", "status": "pending"}]})),
        result("p1", "Todos have been modified successfully. Ensure that you continue to use the todo list.", false),
    ));
    messages.extend(round(
        "Running the tests.",
        call("b1", "Bash", json!({"command": "cargo test parse"})),
        result("b1", "Exit code 101\n   Compiling parse v0.1.0\nerror[E0308]: mismatched types in src/parse.rs:41\ntest result: FAILED. 3 passed; 1 failed", true),
    ));
    messages.extend(round(
        "The root cause was an off-by-one in the header length, so I changed the slice bound.",
        call("e1", "Edit", json!({"file_path": "src/parse.rs", "old_string": "let end = len - 1;", "new_string": "let end = len;"})),
        result("e1", "The file src/parse.rs has been updated.", false),
    ));
    messages.extend(round(
        "Running the tests again.",
        call("b2", "Bash", json!({"command": "cargo test parse"})),
        result("b2", "   Compiling parse v0.1.0\n    Finished test\nrunning 4 tests\ntest result: ok. 4 passed; 0 failed", false),
    ));
    for i in 0..6 {
        messages.extend(round(
            "Looking around.",
            call(
                &format!("g{i}"),
                "Grep",
                json!({"pattern": format!("fn helper_{i}"), "path": "src"}),
            ),
            result(&format!("g{i}"), &listing, false),
        ));
    }
    let body = json!({"model": "m", "max_tokens": 10, "system": "You are a coding agent.", "messages": messages});
    formats::parse_value(&body, &Source("s".into())).unwrap()
}

fn compact_with(t: &Transcript, policy: &RetentionPolicy) -> continuity_core::Result<Compaction> {
    let kernel = MissionKernel::session(chrono::Utc::now()).unwrap();
    let mut redactor = Redactor::new(&policy.personal_data).unwrap();
    let mut summarizer = continuity_test_support::core_summarizer("extractive");
    compact(
        &Inputs {
            transcript: t,
            input_name: "s",
            kernel: &kernel,
            policy,
            strategy: Strategy::Governed,
        },
        chrono::Utc::now(),
        summarizer.as_mut(),
        &continuity_test_support::WordCount,
        &mut redactor,
    )
}

fn compacted(t: &Transcript, target: usize, working_state: bool) -> Compaction {
    let mut policy = RetentionPolicy::default();
    policy.compaction.set_target(target);
    policy.retention.working_state = working_state;
    compact_with(t, &policy).unwrap()
}

#[test]
fn a_coding_session_keeps_what_the_work_did_not_the_files_content() {
    let t = session();
    let c = compacted(&t, 900, true);
    let text = c.request.visible_text();
    for line in [
        "- [in_progress] Fix the off-by-one in parse_header [m4]",
        "- `cargo test parse` → exit 101: error[E0308]: mismatched types in src/parse.rs:41 | test result: FAILED. 3 passed; 1 failed [m6]; fixed: `cargo test parse` → ok [m10] after changes to src/parse.rs",
        "- src/parse.rs: edited, read; last change `let end = len - 1;` → `let end = len;` [m8]",
        "- `cargo test parse` → ok: running 4 tests | test result: ok. 4 passed; 0 failed (2 runs) [m10]",
    ] {
        assert!(text.contains(line), "missing {line:?} in:\n{text}");
    }
    assert!(
        !text.contains("let value_7 = compute_7(input)") || c.report.tokens.tail > 0,
        "a file's content is never pinned"
    );
    assert!(
        !text.contains("Ensure that you continue to use the todo list"),
        "a tool's boilerplate is not a fact"
    );
    assert!(
        c.summary.contains("root cause was an off-by-one"),
        "the summary keeps the decision: {:?}",
        c.summary
    );
    assert!(c.report.budget.summary_reserve > 0);
    assert!(c.report.tokens.after <= 900);
}

#[test]
fn at_a_small_target_the_digest_shrinks_by_rank_instead_of_refusing() {
    let t = session();
    let roomy = compacted(&t, 900, true);
    let small = compacted(&t, 260, true);
    let kept = |c: &Compaction| c.report.budget.digest_kept;
    assert!(
        kept(&small) < kept(&roomy),
        "{} vs {} lines at {} and {} tokens",
        kept(&small),
        kept(&roomy),
        small.report.tokens.after,
        roomy.report.tokens.after
    );
    let text = small.request.visible_text();
    assert!(
        text.contains("Fix the off-by-one in parse_header"),
        "the plan ranks first:\n{text}"
    );
    assert!(
        small.summary.is_empty() || small.summary.ends_with('.'),
        "a summary cut for room ends at a whole sentence: {:?}",
        small.summary
    );
    assert!(small.report.tokens.after <= 260);
}

#[test]
fn the_digest_can_be_turned_off_to_measure_what_it_adds() {
    let t = session();
    let off = compacted(&t, 900, false);
    assert!(!off.request.visible_text().contains("WORKING STATE"));
    assert_eq!(off.report.budget.digest_kept, 0);
}

#[test]
fn a_default_target_grows_over_long_instructions_a_chosen_one_does_not() {
    let mut t = session();
    t.instructions = vec!["Harness rule number one applies here. ".repeat(120)];
    let run = |default_target: bool| {
        let mut policy = RetentionPolicy::default();
        policy.compaction.set_target(700);
        policy.compaction.default_target = default_target;
        compact_with(&t, &policy)
    };
    let chosen = run(false);
    assert!(
        matches!(chosen, Err(continuity_core::Error::OverBudget { .. })),
        "instructions over a chosen target refuse"
    );
    let grown = run(true).unwrap();
    let fixed = grown.report.tokens.fixed_overhead;
    assert!(fixed > 700);
    assert_eq!(grown.report.budget.target, fixed + 350);
    assert!(grown.report.tokens.after <= fixed + 350);
}
