//! A generic polarity lexicon for record-keeping domains (billing, support,
//! operations): pairs of contrary readings (a hold vs a charge, wrong vs
//! correct, owed vs settled, permitted vs unauthorized, open vs closed,
//! one-off vs blanket, internal vs external ...). Nothing here names a case
//! or a fact: a fact's reading is read from its statement, a summary clause's
//! reading from the clause, and the two are compared.
//!
//! Negation ("not", "never", "rather than" ...) flips a cue's side. Reported
//! speech ("SUP-5601 concluded 'duplicate charge'", "told the customer no
//! credit was due") is what someone said, not what the text asserts, so
//! quoted spans and the rest of a clause after a reporting verb are skipped.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use regex::Regex;

/// One pair of contrary readings. Cues are lowercase words or phrases.
pub struct Group {
    pub name: &'static str,
    pub a: &'static [&'static str],
    pub b: &'static [&'static str],
}

pub const GROUPS: &[Group] = &[
    Group {
        name: "hold vs charge",
        a: &[
            "authorization",
            "authorisation",
            "authorizations",
            "pre-authorization",
            "hold",
            "temporary hold",
            "uncaptured",
            "timed out",
            "timeout",
            "released",
            "voided",
            "void",
        ],
        b: &[
            "captured",
            "duplicate",
            "duplicated",
            "double charge",
            "double-charged",
            "double charged",
            "charged twice",
            "billed twice",
            "paid twice",
            "two charges",
            "overcharge",
            "overcharged",
            "double billing",
            "double payment",
            "debited twice",
        ],
    },
    Group {
        name: "wrong vs correct",
        a: &[
            "wrong",
            "wrongly",
            "incorrect",
            "incorrectly",
            "mistaken",
            "mistakenly",
            "erroneous",
            "erroneously",
            "in error",
            "withdrawn",
            "withdraw",
            "retracted",
            "retract",
            "invalid",
            "false",
            "inaccurate",
            "unfounded",
        ],
        b: &[
            "correct",
            "correctly",
            "accurate",
            "accurately",
            "rightly",
            "justified",
            "stands",
            "honor",
            "honour",
            "honored",
            "honoured",
            "upheld",
            "uphold",
        ],
    },
    Group {
        name: "owed vs settled",
        a: &[
            "unapplied",
            "owed",
            "outstanding",
            "still due",
            "credit due",
            "unpaid",
            "pending",
        ],
        b: &[
            "applied",
            "refunded",
            "paid out",
            "settled",
            "redeemed",
            "used up",
            "nothing owed",
            "credited",
        ],
    },
    Group {
        name: "permitted vs unauthorized",
        a: &[
            "allowed",
            "allows",
            "allow",
            "permitted",
            "permits",
            "authorized",
            "authorised",
            "legitimate",
            "legitimately",
            "valid",
            "within policy",
            "compliant",
        ],
        b: &[
            "unauthorized",
            "unauthorised",
            "without permission",
            "without authorization",
            "fraudulent",
            "rogue",
            "improper",
            "improperly",
            "illegitimate",
            "violating",
            "violated",
            "violates",
            "violation",
            "breach",
            "breached",
            "against policy",
            "unapproved",
            "unsanctioned",
        ],
    },
    Group {
        name: "open vs closed",
        a: &[
            "open",
            "still open",
            "unresolved",
            "remain",
            "remains",
            "awaiting",
            "undecided",
        ],
        b: &[
            "closed",
            "resolved",
            "completed",
            "fulfilled",
            "done",
            "finished",
            "decided",
        ],
    },
    Group {
        name: "one-off vs blanket",
        a: &[
            "one-off",
            "one-time",
            "one time",
            "single",
            "this once",
            "only once",
            "just once",
        ],
        b: &[
            "blanket",
            "standing approval",
            "standing permission",
            "all future",
            "any future",
            "permanent",
            "permanently",
            "always",
            "general approval",
            "ongoing",
            "from now on",
            "indefinitely",
            "every time",
        ],
    },
    Group {
        name: "reopened vs duplicate",
        a: &[
            "reopened",
            "re-opened",
            "reopen",
            "follow-up",
            "continuation",
            "same issue",
        ],
        b: &["duplicate", "duplicated", "separate issue", "new issue"],
    },
    Group {
        name: "internal vs external",
        a: &[
            "internal",
            "in-house",
            "inside",
            "employee",
            "colleague",
            "staff",
        ],
        b: &[
            "external",
            "outside",
            "third-party",
            "third party",
            "outsider",
            "non-company",
        ],
    },
    Group {
        name: "aggregate vs personal",
        a: &[
            "aggregated",
            "aggregate",
            "anonymized",
            "anonymised",
            "de-identified",
        ],
        b: &[
            "personal data",
            "personal",
            "pii",
            "identifiable",
            "claimant names",
        ],
    },
    Group {
        name: "approved vs rejected",
        a: &["approved", "granted", "signed off", "accepted"],
        b: &["rejected", "denied", "declined", "refused"],
    },
    Group {
        name: "notified vs unaware",
        a: &[
            "notified",
            "informed",
            "made aware",
            "alerted",
            "flagged to",
        ],
        b: &["unaware", "uninformed", "unnotified", "in the dark"],
    },
    Group {
        name: "sent vs kept",
        a: &[
            "sent",
            "emailed",
            "e-mailed",
            "mailed",
            "delivered",
            "shared",
            "forwarded",
            "transferred",
            "handed over",
        ],
        b: &[
            "withheld",
            "held back",
            "kept internal",
            "not yet sent",
            "unsent",
        ],
    },
];

const NEGATORS: &[&str] = &[
    "not", "no", "never", "without", "nor", "neither", "none", "isn't", "wasn't", "weren't",
    "aren't", "hasn't", "haven't", "hadn't", "didn't", "doesn't", "don't", "cannot", "can't",
    "won't", "nothing", "instead", "than", "nobody",
];

const REPORTING: &[&str] = &[
    "said",
    "says",
    "told",
    "tells",
    "concluded",
    "concludes",
    "claimed",
    "claims",
    "stated",
    "states",
    "called",
    "calls",
    "promised",
    "promises",
    "answered",
    "replied",
    "reported",
    "described",
    "labelled",
    "labeled",
    "assumed",
    "believed",
    "thought",
    "asserted",
    "alleged",
    "alleges",
    "suggested",
    "insisted",
    "wrote",
    "asks",
    "asked",
    "quoted",
];

/// The reading of one text: for each group, how many cues on side a and on
/// side b it asserts (after negation; reported speech skipped).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Reading {
    pub sides: Vec<(usize, usize)>,
    /// Words that were matched, for explanations: (group, side a?, cue).
    pub cues: Vec<(usize, bool, String)>,
}

fn words(text: &str) -> Vec<String> {
    static W: OnceLock<Regex> = OnceLock::new();
    let w = W.get_or_init(|| {
        Regex::new(r"[A-Za-z0-9$€£]+(?:[-'’.][A-Za-z0-9]+)*|[,;:()]")
            .expect("a constant regex compiles")
    });
    w.find_iter(text)
        .map(|m| m.as_str().to_lowercase().replace('’', "'"))
        .collect()
}

/// Blank quoted spans and the rest of a clause after a reporting verb.
fn asserted_words(text: &str) -> Vec<Option<String>> {
    static Q: OnceLock<Regex> = OnceLock::new();
    let q = Q.get_or_init(|| {
        Regex::new(r#""[^"]*"|“[^”]*”|(?:^|[\s(])'[^']*'(?:[\s,.;:)]|$)|‘[^’]*’"#)
            .expect("a constant regex compiles")
    });
    let unquoted = q.replace_all(text, " QUOTED ");
    let mut out = Vec::new();
    let mut reported = false;
    for w in words(&unquoted) {
        if matches!(
            w.as_str(),
            "," | ";"
                | ":"
                | "("
                | ")"
                | "which"
                | "but"
                | "though"
                | "although"
                | "however"
                | "yet"
                | "that's"
        ) {
            reported = false;
            out.push(None);
            continue;
        }
        if w == "quoted" {
            out.push(None);
            continue;
        }
        if REPORTING.contains(&w.as_str()) {
            reported = true;
            out.push(None);
            continue;
        }
        out.push(if reported { None } else { Some(w) });
    }
    out
}

/// Read a text against the lexicon.
pub fn read(text: &str) -> Reading {
    let ws = asserted_words(text);
    let mut taken = vec![false; ws.len()];
    let mut reading = Reading {
        sides: vec![(0, 0); GROUPS.len()],
        cues: Vec::new(),
    };
    // All cues, longest first, so "still open" wins over "open".
    let mut cues: Vec<(usize, bool, Vec<&str>)> = Vec::new();
    for (g, group) in GROUPS.iter().enumerate() {
        for c in group.a {
            cues.push((g, true, c.split(' ').collect()));
        }
        for c in group.b {
            cues.push((g, false, c.split(' ').collect()));
        }
    }
    cues.sort_by_key(|c| std::cmp::Reverse(c.2.len()));
    for (g, side_a, cue) in &cues {
        let n = cue.len();
        if ws.len() < n {
            continue;
        }
        for i in 0..=ws.len() - n {
            if taken[i..i + n].iter().any(|t| *t) {
                continue;
            }
            let hit = (0..n).all(|k| ws[i + k].as_deref() == Some(cue[k]));
            if !hit {
                continue;
            }
            for t in &mut taken[i..i + n] {
                *t = true;
            }
            let negated = negated_before(&ws, i);
            let a = *side_a != negated;
            let e = &mut reading.sides[*g];
            if a {
                e.0 += 1;
            } else {
                e.1 += 1;
            }
            reading.cues.push((*g, a, cue.join(" ")));
        }
    }
    reading
}

fn negated_before(ws: &[Option<String>], i: usize) -> bool {
    let lo = i.saturating_sub(3);
    ws[lo..i]
        .iter()
        .rev()
        .map_while(|w| w.as_deref())
        .any(|w| NEGATORS.contains(&w) || w.ends_with("n't"))
}

/// Groups where `unit` asserts only the reading contrary to `fact`'s (fact
/// leans one way, the unit has cues only on the other side).
pub fn conflicts(fact: &Reading, unit: &Reading) -> Vec<&'static str> {
    let mut out = Vec::new();
    for (g, (&(fa, fb), &(ua, ub))) in fact.sides.iter().zip(&unit.sides).enumerate() {
        let fact_a = fa > fb;
        let fact_b = fb > fa;
        if (fact_a && ub > 0 && ua == 0) || (fact_b && ua > 0 && ub == 0) {
            out.push(GROUPS[g].name);
        }
    }
    out
}

const ROLES: &[&str] = &[
    "owner",
    "admin",
    "administrator",
    "billing_admin",
    "member",
    "customer",
    "agent",
    "support",
    "manager",
    "officer",
    "auditor",
    "engineer",
    "accountant",
    "vendor",
    "user",
];

fn role_class(w: &str) -> Option<&'static str> {
    let w = w.trim_end_matches("'s");
    match w {
        "admin" | "administrator" | "billing_admin" | "admins" => Some("admin"),
        _ => ROLES.iter().find(|r| **r == w).copied(),
    }
}

const ACTION_VERBS: &[&str] = &[
    "added",
    "ordered",
    "enabled",
    "approved",
    "requested",
    "bought",
    "purchased",
    "made",
    "changed",
    "upgraded",
    "created",
    "activated",
    "subscribed",
    "signed",
    "placed",
    "initiated",
];

/// Who a text says did something: roles after "by (the|a|an|seat|its ...)"
/// or before an action verb; and roles it explicitly denies ("not the
/// owner"). Returns (actors, denied).
pub fn actors(text: &str) -> (BTreeSet<&'static str>, BTreeSet<&'static str>) {
    let ws = words(text);
    let mut actors = BTreeSet::new();
    let mut denied = BTreeSet::new();
    let filler = |w: &str| {
        matches!(
            w,
            "the"
                | "a"
                | "an"
                | "its"
                | "their"
                | "seat"
                | "account"
                | "billing"
                | "company"
                | "customer's"
        ) || w.contains('-')
            || w.contains('_') && role_class(w).is_none()
    };
    for (i, w) in ws.iter().enumerate() {
        let Some(role) = role_class(w) else { continue };
        let before: Vec<&str> = ws[i.saturating_sub(4)..i]
            .iter()
            .map(String::as_str)
            .collect();
        if before
            .iter()
            .any(|b| matches!(*b, "not" | "never" | "rather"))
        {
            denied.insert(role);
            continue;
        }
        // "by the admin seat U-2"
        let mut j = i;
        while j > 0 && filler(&ws[j - 1]) {
            j -= 1;
        }
        if j > 0 && ws[j - 1] == "by" {
            actors.insert(role);
            continue;
        }
        // "the owner added", "an admin (U-2) ordered"
        let mut k = i + 1;
        while k < ws.len()
            && (filler(&ws[k])
                || matches!(
                    ws[k].as_str(),
                    "(" | ")" | "had" | "has" | "himself" | "herself" | "themselves"
                ))
        {
            k += 1;
        }
        if k < ws.len() && ACTION_VERBS.contains(&ws[k].as_str()) {
            actors.insert(role);
        }
    }
    (actors, denied)
}

/// Actor conflict: the unit names an actor the fact denies, or its actors
/// and the fact's are disjoint.
pub fn actor_conflict(fact_text: &str, unit_text: &str) -> bool {
    let (fa, fd) = actors(fact_text);
    let (ua, _) = actors(unit_text);
    if ua.is_empty() {
        return false;
    }
    ua.iter().any(|r| fd.contains(r)) || (!fa.is_empty() && fa.is_disjoint(&ua))
}

/// Counterfactual readings of a fact statement: for each lexicon group the
/// statement leans on, the statement with its cues replaced by the first cue
/// of the contrary side; plus the statement with its first copula negated.
pub fn counterfactuals(statement: &str) -> Vec<String> {
    let mut out = Vec::new();
    let reading = read(statement);
    for (g, group) in GROUPS.iter().enumerate() {
        let (a, b) = reading.sides[g];
        if a == b {
            continue;
        }
        let (from, to) = if a > b {
            (group.a, group.b[0])
        } else {
            (group.b, group.a[0])
        };
        let mut text = statement.to_string();
        let mut changed = false;
        let mut sorted: Vec<&&str> = from.iter().collect();
        sorted.sort_by_key(|c| std::cmp::Reverse(c.len()));
        for cue in sorted {
            let r = Regex::new(&format!(r"(?i)\b{}\b", regex::escape(cue))).expect("cue regex");
            if r.is_match(&text) {
                text = r.replace_all(&text, to).into_owned();
                changed = true;
            }
        }
        if changed {
            out.push(text);
        }
    }
    static COP: OnceLock<Regex> = OnceLock::new();
    let cop = COP.get_or_init(|| {
        Regex::new(r"\b(is|was|are|were|has|have)\b").expect("a constant regex compiles")
    });
    if let Some(m) = cop.find(statement) {
        let mut t = statement.to_string();
        t.insert_str(m.end(), " not");
        out.push(t);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negation_flips_and_reported_speech_is_skipped() {
        let fact =
            read("The second $149 is an authorization that was never captured and was released.");
        let dup = read("a duplicate $149 payment on 9/14");
        assert_eq!(conflicts(&fact, &dup), vec!["hold vs charge"]);
        let not_dup = read("the second $149 was not a duplicate charge");
        assert!(conflicts(&fact, &not_dup).is_empty());
        let reported = read("SUP-5601 concluded 'duplicate charge' and promised a refund");
        assert_eq!(reported.sides[0], (0, 0));
        let said = read("the agent said it was a duplicate charge, which was wrong");
        assert_eq!(said.sides[0], (0, 0));
        assert_eq!(said.sides[1], (1, 0));
    }

    #[test]
    fn actors_and_denials() {
        let f = "The add-on was added by the admin seat U-2 (not the owner).";
        assert!(actor_conflict(f, "The owner added the add-on."));
        assert!(!actor_conflict(f, "An admin, U-2, added it."));
        assert!(!actor_conflict(f, "The add-on costs $30."));
    }

    #[test]
    fn counterfactuals_swap_readings() {
        let c = counterfactuals("The credit is still unapplied and the owner was never notified.");
        assert!(
            c.iter()
                .any(|t| t.contains("applied") && !t.contains("unapplied")),
            "{c:?}"
        );
    }
}
