//! Pins a coding session need not carry verbatim: lines of code (the agent
//! can re-read the file), and lines the working-state digest already says
//! for the same call (a command's short output).

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
/// lines that are not code, each once (a sub-agent's trace repeats its
/// calls), and a pin of nothing but code is not pinned.
pub(super) fn drop_code_lines(plan: &mut PinPlan) {
    let pins = std::mem::take(&mut plan.pins);
    for mut p in pins {
        if p.kind == PinKind::Text && !p.source.is_carried() {
            let mut seen = HashSet::new();
            let kept: Vec<&str> = p
                .line
                .lines()
                .filter(|l| !code_line(l) && seen.insert(*l))
                .collect();
            if kept.is_empty() {
                plan.code_only.push(p);
                continue;
            }
            p.line = kept.join("\n");
        }
        plan.pins.push(p);
    }
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
    for p in pins {
        let line = (!must_stay(&p) && !p.source.is_carried())
            .then(|| digest_line_of(&p, digest))
            .flatten();
        match line {
            Some(i) => {
                digest.entries[i].rank = digest.entries[i].rank.min(rank(&p));
                plan.in_digest.push(p);
            }
            None => plan.pins.push(p),
        }
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

/// The digest line that already says every line of `p` for the same call:
/// a command's (or a failure's) line from the same result.
fn digest_line_of(p: &Pin, digest: &WorkingState) -> Option<usize> {
    use crate::working_state::Section;
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
        matches!(e.section, Section::Commands | Section::Errors)
            && e.at == p.source.part()
            && lines.iter().all(|l| e.line.contains(l))
    })
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
        drop_code_lines(&mut plan);
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
}
