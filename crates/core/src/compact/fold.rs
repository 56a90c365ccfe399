//! Pins a coding session need not carry verbatim: lines of code (the agent
//! can re-read the file), lines a newer pin repeats, lines that only say a
//! unit passed, and lines the working-state digest already says for the same
//! call (a command's short output, a passing run's counts).

use std::collections::HashSet;

use crate::evidence::{Pin, PinKind};
use crate::working_state::WorkingState;

use super::pins::PinPlan;

/// Keywords that open a line of code in the languages agents mostly edit.
const CODE_OPENERS: &[&str] = &[
    "func ",
    "def ",
    "fn ",
    "pub fn ",
    "return ",
    "import ",
    "package ",
    "#include ",
];

/// Whether a pinned line is code, not a fact a tool returned. A sub-agent's
/// trace of a call (`[Tool: Read] {"file_path":…}`) names what it touched.
fn code_line(line: &str) -> bool {
    let t = line.trim_start_matches("- ").trim();
    if t.starts_with("[Tool: ") {
        return false;
    }
    CODE_OPENERS.iter().any(|k| t.starts_with(k)) || (t.ends_with(['{', '}']) && !t.contains(". "))
}

/// In a coding session the agent can re-read a file: a text pin keeps its
/// lines that are not code and that no newer text pin repeats (a command run
/// again prints its output again; a sub-agent's trace repeats its calls). A
/// pin of nothing but code is not pinned; one a newer pin repeats whole is
/// superseded.
pub(super) fn drop_code_and_repeated_lines(plan: &mut PinPlan) {
    let pins = std::mem::take(&mut plan.pins);
    let mut seen: HashSet<String> = HashSet::new();
    let mut kept_newest_first = Vec::new();
    for mut p in pins.into_iter().rev() {
        if p.kind != PinKind::Text || p.source.is_carried() {
            kept_newest_first.push(p);
            continue;
        }
        let lines: Vec<&str> = p.line.lines().filter(|l| !code_line(l)).collect();
        if lines.is_empty() {
            plan.code_only.push(p);
            continue;
        }
        let fresh: Vec<&str> = lines
            .into_iter()
            .filter(|l| seen.insert(l.to_string()))
            .collect();
        if fresh.is_empty() {
            plan.superseded.push(p);
            continue;
        }
        p.line = fresh.join("\n");
        kept_newest_first.push(p);
    }
    kept_newest_first.reverse();
    plan.pins = kept_newest_first;
    plan.carried_live = plan.pins.iter().filter(|p| p.source.is_carried()).count();
}

/// In a coding session, a pin the digest already says is not pinned again:
/// the digest's line takes the pin's place, at the pin's `rank` if higher.
/// Pins that `must_stay` (a policy's) and carried ones stay pins.
pub(super) fn fold_into_digest(
    plan: &mut PinPlan,
    digest: &mut WorkingState,
    must_stay: impl Fn(&Pin) -> bool,
    rank: impl Fn(&Pin) -> u8,
) {
    let pins = std::mem::take(&mut plan.pins);
    for mut p in pins {
        if must_stay(&p) || p.source.is_carried() {
            plan.pins.push(p);
            continue;
        }
        if let Some(i) = digest_line_of(&p, digest) {
            digest.entries[i].rank = digest.entries[i].rank.min(rank(&p));
            plan.in_digest.push(p);
            continue;
        }
        if p.kind == PinKind::Text && passed(&p, digest) {
            let kept: Vec<&str> = p.line.lines().filter(|l| !pass_line(l)).collect();
            if !kept.is_empty() {
                p.line = kept.join("\n");
            }
        }
        plan.pins.push(p);
    }
    plan.carried_live = plan.pins.iter().filter(|p| p.source.is_carried()).count();
}

/// A folded pin whose digest line the budget left out was left out too.
pub(super) fn unfold_dropped(plan: &mut PinPlan, digest: &WorkingState, kept: &HashSet<usize>) {
    let folded = std::mem::take(&mut plan.in_digest);
    for p in folded {
        match digest_line_of(&p, digest) {
            Some(i) if kept.contains(&i) => plan.in_digest.push(p),
            _ => plan.over_budget.push(p),
        }
    }
}

/// The digest line that already says what `p` says for the same call: a
/// command's (or a failure's) line from the same result that holds every
/// line of it, or a passing test run's line with its counts, when no line
/// of `p` it lacks reports a failure or a warning.
fn digest_line_of(p: &Pin, digest: &WorkingState) -> Option<usize> {
    use crate::evidence::infer::failure;
    use crate::working_state::{exec, Section};
    let lines: Vec<&str> = p
        .line
        .lines()
        .map(|l| l.trim_start_matches("- ").trim())
        .filter(|l| !l.is_empty())
        .collect();
    if lines.is_empty() {
        return None;
    }
    digest.entries.iter().position(|e| {
        let ok = ran_ok(e);
        let passed_tests = ok && exec::reports_test_counts(&e.line);
        matches!(e.section, Section::Commands | Section::Errors)
            && e.at == p.source.part()
            && lines.iter().all(|l| {
                e.line.contains(l) || (passed_tests && !failure(l)) || (ok && pass_line(l))
            })
    })
}

/// Whether a digest line is a command that ran and ended well.
fn ran_ok(e: &crate::working_state::Entry) -> bool {
    e.section == crate::working_state::Section::Commands && e.line.contains("` → ok")
}

/// Whether the digest says the call that `p` came from ended well.
fn passed(p: &Pin, digest: &WorkingState) -> bool {
    digest
        .entries
        .iter()
        .any(|e| e.at == p.source.part() && ran_ok(e))
}

/// A line that only says one unit passed (`ok  pkg 0.5s`, `? pkg [no test
/// files]`, `--- PASS: TestA`, `test_a PASSED`): of a run that ended well,
/// the digest's line says as much. A check mark is not one: tools print it
/// before whatever they did.
fn pass_line(line: &str) -> bool {
    let t = line.trim_start_matches("- ").trim();
    let starts = [
        "ok ", "ok\t", "? ", "?\t", "PASS ", "PASS\t", "PASS:", "--- PASS",
    ];
    t == "PASS"
        || starts.iter().any(|s| t.starts_with(s))
        || t.ends_with(" PASSED")
        || t.ends_with(" ... ok")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::{PinSource, RecordKey};
    use crate::transcript::PartRef;
    use crate::working_state::{Entry, Section};

    fn text_pin(call_id: &str, at: PartRef, line: &str) -> Pin {
        Pin {
            call_id: call_id.into(),
            tool: "Bash".into(),
            record_id: call_id.into(),
            key: RecordKey::Field {
                field: "call".into(),
                value: call_id.into(),
            },
            group: "Bash".into(),
            line: line.into(),
            fields: vec![],
            present: vec![],
            source: PinSource::Returned(at),
            kind: PinKind::Text,
            relied_on: true,
        }
    }

    fn command(line: &str, at: PartRef, rank: u8) -> Entry {
        Entry {
            section: Section::Commands,
            key: line.into(),
            line: line.into(),
            at,
            rank,
        }
    }

    #[test]
    fn a_line_a_newer_pin_repeats_is_kept_once_in_the_newer() {
        let mut plan = PinPlan {
            pins: vec![
                text_pin(
                    "old",
                    PartRef::new(2, 0),
                    "- Checkpoints: 20\n- 18:10 [e6d2] docs",
                ),
                text_pin("whole", PartRef::new(4, 0), "- 18:10 [e6d2] docs"),
                text_pin(
                    "new",
                    PartRef::new(6, 0),
                    "- Checkpoints: 26\n- 18:10 [e6d2] docs",
                ),
            ],
            ..PinPlan::default()
        };
        drop_code_and_repeated_lines(&mut plan);
        let lines: Vec<&str> = plan.pins.iter().map(|p| p.line.as_str()).collect();
        assert_eq!(
            lines,
            vec![
                "- Checkpoints: 20",
                "- Checkpoints: 26\n- 18:10 [e6d2] docs"
            ]
        );
        assert_eq!(plan.superseded[0].call_id, "whole");
    }

    #[test]
    fn code_lines_leave_a_pin_and_a_pin_of_only_code_is_not_pinned() {
        let mut plan = PinPlan {
            pins: vec![
                text_pin(
                    "c1",
                    PartRef::new(2, 0),
                    "- func Load(path string) error {\n- Loaded 3 records from cache\n- [Tool: Read] {\"file_path\":\"/r/a.go\"}\n- [Tool: Read] {\"file_path\":\"/r/a.go\"}\n- }",
                ),
                text_pin("c2", PartRef::new(4, 0), "- return nil\n- if err != nil {"),
            ],
            ..PinPlan::default()
        };
        drop_code_and_repeated_lines(&mut plan);
        assert_eq!(
            plan.pins[0].line,
            "- Loaded 3 records from cache\n- [Tool: Read] {\"file_path\":\"/r/a.go\"}"
        );
        assert_eq!(plan.pins.len(), 1);
        assert_eq!(plan.code_only[0].call_id, "c2");
    }

    #[test]
    fn a_pin_the_digest_says_for_the_same_call_folds_into_its_line_and_lifts_its_rank() {
        let at = PartRef::new(2, 0);
        let mut digest = WorkingState {
            entries: vec![
                command("- `wc -l a.txt` → ok: 255 a.txt [m2]", at, 3),
                command(
                    "- `wc -l b.txt` → ok: 255 b.txt [m4]",
                    PartRef::new(4, 0),
                    3,
                ),
            ],
            ..WorkingState::default()
        };
        let mut plan = PinPlan {
            pins: vec![
                text_pin("same", at, "- 255 a.txt"),
                text_pin("other-call", PartRef::new(6, 0), "- 255 b.txt"),
                text_pin("more", at, "- 255 a.txt\n- total 255"),
            ],
            ..PinPlan::default()
        };
        fold_into_digest(&mut plan, &mut digest, |_| false, |_| 1);
        let pinned: Vec<&str> = plan.pins.iter().map(|p| p.call_id.as_str()).collect();
        assert_eq!(
            pinned,
            vec!["other-call", "more"],
            "another call's line, or a line more"
        );
        assert_eq!(plan.in_digest[0].call_id, "same");
        assert_eq!(digest.entries[0].rank, 1);
        assert_eq!(digest.entries[1].rank, 3);

        unfold_dropped(&mut plan, &digest, &HashSet::new());
        assert!(
            plan.in_digest.is_empty(),
            "its line was left out, so it was too"
        );
        assert_eq!(plan.over_budget[0].call_id, "same");
    }

    #[test]
    fn a_passing_test_runs_output_folds_into_its_counts_but_not_its_warnings() {
        let at = PartRef::new(2, 0);
        let mut digest = WorkingState {
            entries: vec![command(
                "- `make test` → ok: 84 tests, 0 failures [m2]",
                at,
                1,
            )],
            ..WorkingState::default()
        };
        let mut plan = PinPlan {
            pins: vec![
                text_pin("quiet", at, "- Running setup for the suite...\n- Finished in 1.0 seconds\n- 84 tests, 0 failures"),
                text_pin("warned", at, "- warning: function helper/1 is unused\n- 84 tests, 0 failures"),
            ],
            ..PinPlan::default()
        };
        fold_into_digest(&mut plan, &mut digest, |_| false, |_| 2);
        assert_eq!(plan.in_digest[0].call_id, "quiet");
        assert_eq!(plan.pins[0].call_id, "warned");
    }

    #[test]
    fn a_run_that_ended_well_keeps_its_pins_lines_but_not_those_that_only_say_a_unit_passed() {
        let at = PartRef::new(2, 0);
        let mut digest = WorkingState {
            entries: vec![command("- `go test ./...` → ok [m2]", at, 1)],
            ..WorkingState::default()
        };
        let mut plan = PinPlan {
            pins: vec![
                text_pin(
                    "units",
                    at,
                    "- ok  \tex.io/a\t(cached)\n- ?   \tex.io/b\t[no test files]",
                ),
                text_pin(
                    "said",
                    at,
                    "- ok  \tex.io/a\t0.5s\n- coverage: 81.2% of statements",
                ),
            ],
            ..PinPlan::default()
        };
        fold_into_digest(&mut plan, &mut digest, |_| false, |_| 2);
        assert_eq!(plan.in_digest[0].call_id, "units");
        assert_eq!(plan.pins[0].line, "- coverage: 81.2% of statements");
    }
}
