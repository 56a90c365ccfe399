//! Names a person goes by, found where a role key or a contact detail says
//! so: `assignee: Jane Doe`, and in prose "Jane Doe (jane@x.com, +1 415 …)
//! reports", "contact Priya Raman, 555-…", "Dana Lee <dana@x.org>",
//! "jane@x.com (Jane Doe)". A name is two to four capitalised words (and
//! particles: `van der`, `de la`), with no digits and no word of an
//! organisation, a team or a system.

use std::sync::OnceLock;

use regex::Regex;

use super::{Finding, NAME};

/// Words of a team, an organisation, a system or a state, never of a
/// person's name (`Platform Team`, `Ops Bot`, `Acme Corp`, `Not Assigned`).
const NOT_NAME_WORDS: &[&str] = &[
    "team",
    "bot",
    "ops",
    "service",
    "services",
    "system",
    "systems",
    "group",
    "desk",
    "support",
    "department",
    "dept",
    "admin",
    "administrator",
    "platform",
    "engineering",
    "squad",
    "queue",
    "office",
    "inc",
    "ltd",
    "llc",
    "corp",
    "corporation",
    "company",
    "co",
    "center",
    "centre",
    "hospital",
    "clinic",
    "bank",
    "insurance",
    "cloud",
    "security",
    "infra",
    "infrastructure",
    "finance",
    "payroll",
    "legal",
    "hr",
    "it",
    "automation",
    "pipeline",
    "scheduler",
    "robot",
    "job",
    "daemon",
    "unassigned",
    "nobody",
    "none",
    "pending",
    "auto",
    "automatic",
    "unknown",
    "not",
    "assigned",
    "n/a",
    "tbd",
    "the",
    "and",
    "of",
    "for",
    "on",
    "call",
    "rotation",
    "on-call",
    "account",
    "production",
    "staging",
    "server",
    "cluster",
    "node",
    "api",
    "app",
    "application",
    "project",
    "program",
    "board",
    "committee",
    "council",
    "network",
    "operations",
    "reliability",
    "sre",
    "devops",
    "qa",
    "release",
    "build",
    "deploy",
    "deployment",
    "monitoring",
    "alerts",
    "alerting",
    "data",
    "database",
    "store",
    "shop",
    "warehouse",
    "depot",
    "hub",
    "logistics",
    "freight",
    "claims",
    "underwriting",
    "billing",
    "accounts",
    "helpdesk",
    "service-desk",
    "user",
    "users",
    "customer",
    "customers",
    "client",
    "vendor",
    "partner",
    "manager",
    "lead",
    "owner",
    "mr",
    "mrs",
    "ms",
    "dr",
    "prof",
    "sir",
    "madam",
    "dear",
    "hi",
    "hello",
    "thanks",
    "regards",
    "contact",
    "email",
    "phone",
    "tel",
    "mobile",
    "call",
    "reach",
    "ping",
    "ask",
    "text",
    "from",
    "to",
    "cc",
    "bcc",
    "per",
    "please",
    "via",
    "at",
    "by",
    "yes",
    "no",
    "true",
    "false",
    "null",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "january",
    "february",
    "march",
    "april",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

/// A name as written after a key: capitalised words and particles.
pub const NAME_PATTERN: &str = r"\p{Lu}[\p{L}'’.-]+(?:[ \t]+(?:(?:van|von|der|den|de|del|della|da|di|du|la|le|bin|al|ter|ten)[ \t]+)*\p{Lu}[\p{L}'’.-]*){0,3}";

fn name_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"^\p{Lu}[\p{L}'’-]*\p{Ll}[\p{L}'’-]*(?:[ \t]+(?:(?:van|von|der|den|de|del|della|da|di|du|la|le|bin|al|ter|ten)[ \t]+)*(?:\p{Lu}\.|\p{Lu}[\p{L}'’-]*\p{Ll}[\p{L}'’-]*)){1,3}$")
            .expect("static regex")
    })
}

/// Two to four capitalised words (`Jane Doe`, `Mary-Kate O’Neil`, `José
/// M. García`), none of them a word of a team, a system or an organisation.
pub fn looks_like_name(value: &str) -> bool {
    let v = value.trim();
    name_re().is_match(v)
        && v.split_whitespace().all(|w| {
            let w = w.trim_end_matches('.').to_lowercase();
            !NOT_NAME_WORDS.contains(&w.as_str())
        })
}

/// A name at the end of a text: the last two to four capitalised words.
fn trailing_name_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"\p{Lu}[\p{L}'’-]+(?:[ \t]+(?:(?:van|von|der|den|de|del|della|da|di|du|la|le|bin|al|ter|ten)[ \t]+)*(?:\p{Lu}\.|\p{Lu}[\p{L}'’-]+)){1,3}$")
            .expect("static regex")
    })
}

/// A name in brackets right after a contact detail: `jane@x.com (Jane Doe)`.
fn bracketed_name_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"^[ \t]*[(\[][ \t]*(\p{Lu}[\p{L}'’-]+(?:[ \t]+(?:(?:van|von|der|den|de|del|della|da|di|du|la|le|bin|al|ter|ten)[ \t]+)*\p{Lu}[\p{L}'’.-]*){1,3})[ \t]*[)\]]",
        )
        .expect("static regex")
    })
}

/// What may stand between a name and its contact detail.
fn separator_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"(?i)(?:[\s(<\[,:;/|–—-]|(?-u:\b)(?:at|on|via|or|and|email|e-mail|mail|phone|tel|mobile|cell|is)(?-u:\b))+$")
            .expect("static regex")
    })
}

/// Names beside the emails and phones of `text` (`phones` found already).
pub fn scan(text: &str, phones: &[Finding], out: &mut Vec<Finding>) {
    let mut contacts: Vec<(usize, usize)> = phones.iter().map(|f| (f.start, f.end)).collect();
    contacts.extend(emails(text));
    contacts.extend(super::super::patterns::phone_spans(text));
    if contacts.is_empty() {
        return;
    }
    contacts.sort_unstable();
    contacts.dedup();
    for &(start, end) in &contacts {
        if let Some(f) = name_before(text, start, &contacts) {
            out.push(f);
        }
        if let Some(c) = bracketed_name_re().captures(&text[end..]) {
            if let Some(m) = c.get(1).filter(|m| looks_like_name(m.as_str())) {
                out.push(Finding {
                    start: end + m.start(),
                    end: end + m.end(),
                    kind: NAME,
                });
            }
        }
    }
}

fn emails(text: &str) -> Vec<(usize, usize)> {
    if !text.contains('@') {
        return Vec::new();
    }
    super::super::patterns::email_spans(text)
}

/// The name that ends just before a contact detail, past separators and
/// other contact details of the same person.
fn name_before(text: &str, start: usize, contacts: &[(usize, usize)]) -> Option<Finding> {
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let mut cursor = start;
    loop {
        let before = &text[line_start..cursor];
        let sep = separator_re().find(before).map_or(0, |m| m.len());
        let next = cursor - sep;
        match contacts.iter().find(|&&(s, e)| e == next && s < next) {
            Some(&(s, _)) => cursor = s,
            None => {
                cursor = next;
                break;
            }
        }
    }
    let before = &text[line_start..cursor];
    let m = trailing_name_re().find(before)?;
    let found = m.as_str();
    // Leading words that are no part of a name: `Contact Priya Raman`.
    let mut offset = 0;
    for w in found.split_whitespace() {
        if !NOT_NAME_WORDS.contains(&w.trim_end_matches('.').to_lowercase().as_str()) {
            break;
        }
        offset = found[offset..]
            .find(w)
            .map_or(offset, |i| offset + i + w.len());
    }
    let name = found[offset..].trim_start();
    let name_start = line_start + m.start() + (found.len() - name.len());
    looks_like_name(name).then_some(Finding {
        start: name_start,
        end: line_start + m.end(),
        kind: NAME,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<&str> {
        let mut out = Vec::new();
        scan(text, &super::super::phone::scan(text), &mut out);
        out.iter().map(|f| &text[f.start..f.end]).collect()
    }

    #[test]
    fn names_beside_contact_details() {
        assert_eq!(
            found("Jane Doe (jane@x.com, +1 415 555 0132) reports a fault"),
            vec!["Jane Doe", "Jane Doe"]
        );
        assert_eq!(
            found("contact: Priya Raman, 555-201-3344"),
            vec!["Priya Raman"]
        );
        assert_eq!(
            found("Contact Priya Raman at priya@example.org"),
            vec!["Priya Raman"]
        );
        assert_eq!(
            found("From: Dana Lee <dana@corp.example>"),
            vec!["Dana Lee"]
        );
        assert_eq!(
            found("write to jane@x.com (Jane Doe) today"),
            vec!["Jane Doe"]
        );
    }

    #[test]
    fn names() {
        assert!(looks_like_name("Jane Doe"));
        assert!(looks_like_name("José M. García"));
        assert!(looks_like_name("Siobhán O'Brien"));
        for v in [
            "team-infra",
            "ops-bot",
            "Platform Team",
            "Acme Corp",
            "AWS",
            "Dana",
            "Not Assigned",
            "jane doe",
            "Build 42",
        ] {
            assert!(!looks_like_name(v), "{v}");
        }
    }
}
