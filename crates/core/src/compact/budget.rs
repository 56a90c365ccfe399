//! Budget: the compacted request must fit the target (the trigger, or
//! `--target-tokens`). What must be kept is kept whatever it costs: the
//! fixed overhead (instructions, tool schemas, the kernel), the framing,
//! the mission, the evidence the policy pins or a later turn relies on, and
//! the tail (relied-on evidence a policy did not pin yields first, see
//! `retain`). If that alone is over the target, the compaction fails and
//! says what is too big; it never returns a request that would trigger
//! compaction again. The rest (what the user stated, evidence nothing later
//! mentions) is kept newest first while it fits; the earlier-calls list and
//! the summary get what is left.

use std::collections::HashSet;

use crate::error::Error;
pub use crate::report::BudgetReport;
use crate::transcript::PartRef;

/// What must be kept, in tokens, by part.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MustKeep {
    /// Instructions and tool schemas, the kernel included when rendered.
    pub fixed: usize,
    pub kernel: usize,
    /// The continuity block's framing and section headers.
    pub framing: usize,
    /// The mission without a kernel (the first user text), and its part.
    pub mission: usize,
    pub mission_part: Option<PartRef>,
    /// Evidence that must stay, and its largest group (header, tokens).
    pub evidence: usize,
    pub largest_evidence: Option<(String, usize)>,
    /// The tail and its first message.
    pub tail: usize,
    pub tail_start: usize,
}

impl MustKeep {
    pub fn total(&self) -> usize {
        self.fixed + self.framing + self.mission + self.evidence + self.tail
    }

    /// What each part costs, for the error that names what is too big.
    pub fn describe(&self) -> String {
        let mut parts = vec![format!(
            "fixed overhead {} (instructions and tool schemas{})",
            self.fixed,
            if self.kernel > 0 {
                format!(", kernel {}", self.kernel)
            } else {
                String::new()
            }
        )];
        if let Some(at) = self.mission_part {
            parts.push(format!(
                "mission (first user message {at}) {}",
                self.mission
            ));
        }
        if self.evidence > 0 {
            let largest = self
                .largest_evidence
                .as_ref()
                .map(|(g, n)| format!("; largest group `{}` {n}", short_label(g)))
                .unwrap_or_default();
            parts.push(format!(
                "evidence the policy pins {}{largest} (pin fewer fields to need less)",
                self.evidence
            ));
        }
        parts.push(format!(
            "tail from message {} {}",
            self.tail_start, self.tail
        ));
        parts.push(format!("framing {}", self.framing));
        parts.join(", ")
    }
}

/// What a flexible item is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Flexible {
    /// A user statement (index into the statements).
    Statement(usize),
    /// A pin (index into the plan's pins).
    Pin(usize),
    /// A working-state digest line (index into its entries).
    Digest(usize),
}

/// Something kept only if it fits, newest first.
#[derive(Debug, Clone, PartialEq)]
pub struct FlexItem {
    pub what: Flexible,
    /// Where it came from (newest first means highest first).
    pub at: PartRef,
    pub tokens: usize,
    /// The group header it needs, and that header's cost (a pin's tool, a
    /// digest line's section).
    pub group: Option<(String, usize)>,
    /// Lower ranks are kept first; within a rank, newest first.
    pub rank: u8,
}

/// The outcome: what is kept, and the report.
#[derive(Debug, Clone, PartialEq)]
pub struct Allocation {
    pub kept: HashSet<Flexible>,
    pub report: BudgetReport,
}

impl Allocation {
    pub fn keeps(&self, what: Flexible) -> bool {
        self.kept.contains(&what)
    }
}

/// Keep what must be kept (or fail, naming it), set the summary's
/// `reserve` aside (or what is left of it), then keep the flexible items by
/// rank, newest first within a rank, while they fit. `paid_groups` are
/// group headers the must-keep evidence already pays for.
pub fn allocate(
    target: usize,
    must: &MustKeep,
    items: &[FlexItem],
    paid_groups: &HashSet<String>,
    reserve: usize,
) -> Result<Allocation, Error> {
    let must_keep = must.total();
    if must_keep > target {
        return Err(Error::OverBudget {
            target,
            must_keep,
            parts: must.describe(),
        });
    }
    let mut order: Vec<&FlexItem> = items.iter().collect();
    order.sort_by_key(|x| (x.rank, std::cmp::Reverse(x.at)));
    let summary_reserve = reserve.min(target - must_keep);
    let mut room = target - must_keep - summary_reserve;
    let mut groups: HashSet<&str> = paid_groups.iter().map(String::as_str).collect();
    let mut kept = HashSet::new();
    let mut tokens = 0;
    for item in order {
        let header = match &item.group {
            Some((g, n)) if !groups.contains(g.as_str()) => *n,
            _ => 0,
        };
        let cost = item.tokens + header;
        if cost > room {
            continue;
        }
        room -= cost;
        tokens += cost;
        if let Some((g, _)) = &item.group {
            groups.insert(g.as_str());
        }
        kept.insert(item.what);
    }
    Ok(Allocation {
        report: BudgetReport {
            target,
            must_keep,
            flexible_kept: kept.len(),
            flexible_dropped: items.len() - kept.len(),
            flexible_tokens: tokens,
            remaining: room,
            summary_reserve,
            digest_kept: count_digest(items, |w| kept.contains(&w)),
            digest_dropped: count_digest(items, |w| !kept.contains(&w)),
        },
        kept,
    })
}

fn count_digest(items: &[FlexItem], pick: impl Fn(Flexible) -> bool) -> usize {
    items
        .iter()
        .filter(|i| matches!(i.what, Flexible::Digest(_)) && pick(i.what))
        .count()
}

/// A group's header cut to a readable length: a call's arguments can be a
/// whole file.
fn short_label(label: &str) -> String {
    const MAX: usize = 120;
    match label.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{}…", &label[..cut]),
        None => label.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(i: usize, message: usize, tokens: usize) -> FlexItem {
        FlexItem {
            what: Flexible::Statement(i),
            at: PartRef::new(message, 0),
            tokens,
            group: None,
            rank: 0,
        }
    }

    #[test]
    fn flexible_items_are_kept_newest_first_while_they_fit() {
        let must = MustKeep {
            fixed: 10,
            tail: 5,
            ..MustKeep::default()
        };
        let items = [item(0, 1, 30), item(1, 3, 50), item(2, 5, 20)];
        let a = allocate(100, &must, &items, &HashSet::new(), 0).unwrap();
        assert!(a.keeps(Flexible::Statement(2)) && a.keeps(Flexible::Statement(1)));
        assert!(
            !a.keeps(Flexible::Statement(0)),
            "the oldest no longer fits"
        );
        assert_eq!(a.report.remaining, 15);
        assert_eq!((a.report.flexible_kept, a.report.flexible_dropped), (2, 1));
    }

    #[test]
    fn the_summary_reserve_comes_first_then_lower_ranks() {
        let must = MustKeep {
            fixed: 10,
            ..MustKeep::default()
        };
        let mut digest = item(0, 1, 30);
        digest.what = Flexible::Digest(0);
        let mut pin = item(1, 9, 30);
        pin.what = Flexible::Pin(0);
        pin.rank = 2;
        let a = allocate(100, &must, &[pin, digest], &HashSet::new(), 40).unwrap();
        assert_eq!(a.report.summary_reserve, 40);
        assert!(a.keeps(Flexible::Digest(0)), "rank 0 goes first");
        assert!(
            !a.keeps(Flexible::Pin(0)),
            "the newer pin ranks lower and the reserve is not spent on it"
        );
        assert_eq!((a.report.digest_kept, a.report.digest_dropped), (1, 0));
        let short = allocate(30, &must, &[], &HashSet::new(), 40).unwrap();
        assert_eq!(short.report.summary_reserve, 20, "only what is left");
    }

    #[test]
    fn a_target_below_what_must_be_kept_fails_naming_the_parts() {
        let must = MustKeep {
            fixed: 40,
            evidence: 70,
            largest_evidence: Some(("get_x".into(), 50)),
            tail: 5,
            tail_start: 9,
            ..MustKeep::default()
        };
        let err = allocate(100, &must, &[], &HashSet::new(), 0).unwrap_err();
        let msg = err.to_string();
        assert!(
            matches!(err, Error::OverBudget { must_keep: 115, .. }),
            "{msg}"
        );
        assert!(
            msg.contains("evidence the policy pins 70") && msg.contains("`get_x` 50"),
            "{msg}"
        );
        assert_eq!(err.exit_code(), 5);
    }
}
