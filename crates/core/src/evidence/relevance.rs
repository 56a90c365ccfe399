//! Content that declares itself off the mission: a message that opens by
//! saying it is unrelated, archived, obsolete, superseded, for reference
//! only, or to be ignored. Such content should not crowd the budget.
//!
//! Only the opening is read (the first sentence, or the header before the
//! first colon, at most [`OPENING_WORDS`] words), because that is where a
//! text says what it is; a correction that mentions "the obsolete value"
//! further on is not about itself. An opening that also claims authority or
//! corrects something (final, authoritative, corrected, replaces, instead)
//! is never dropped: corrections are the content that must win. ("Current"
//! and "active" are not such claims: "unrelated to the current work" is how
//! off-mission content describes itself.)

use std::sync::OnceLock;

use regex::Regex;

/// Words of the opening that are read.
pub const OPENING_WORDS: usize = 40;

fn cue_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?ix)(?:^|[\s(\[,;])(?:
              unrelated | irrelevant | immaterial | extraneous
            | not\s+(?:relevant|related|applicable|pertinent|needed|required|part\s+of|in\s+scope|in\s+effect|current|valid|authoritative|used)
            | no\s+longer\s+(?:relevant|valid|applies|apply|current|used|in\s+effect|needed)
            | out[\s-]of[\s-]scope | off[\s-]topic | does\s+not\s+(?:apply|affect|concern) | do\s+not\s+(?:apply|affect|concern)
            | non[\s-]authoritative | unauthoritative | unverified | speculative | hypothetical
            | archival | archived | archive\s+(?:note|notes|material|record|records|entry|entries|copy|log)
            | obsolete | outdated | out[\s-]of[\s-]date | stale | deprecated | superseded | retired | defunct
            | historical | retracted | withdrawn | discarded | abandoned | voided | invalidated
            | provisional | tentative | placeholder | decoy | distractor
            | for\s+(?:reference|background|context|illustration)\s+only | background\s+only
            | (?:ignore|disregard|skip)\s+(?:it|this|these|them|everything|all\s+of\s+(?:it|this)|the\s+following|what\s+follows|below)
            )(?:$|[\s.,;:)\]!—-])",
        )
        .expect("static regex")
    })
}

fn authority_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?ix)(?:^|[\s(\[,;])(?:
              final | authoritative | corrected | correction | corrections
            | replaces | override | overrides | instead | supersedes | now\s+is | now\s+are
            | in\s+force | binding | confirmed
            )(?:$|[\s.,;:)\]!—-])",
        )
        .expect("static regex")
    })
}

fn negated_authority_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"(?i)(?-u:\b)(?:non[\s-]|not\s+|un)authoritative(?-u:\b)|(?-u:\b)not\s+(?:final|current|in\s+force|binding|confirmed)(?-u:\b)")
            .expect("static regex")
    })
}

/// The opening of a text: up to the first sentence end or colon, at most
/// [`OPENING_WORDS`] words.
pub fn opening(text: &str) -> String {
    let mut out = Vec::new();
    for word in text.split_whitespace().take(OPENING_WORDS) {
        out.push(word);
        let ends =
            word.ends_with(':') || word.ends_with('.') && !word[..word.len() - 1].contains('.');
        if ends && out.len() >= 2 {
            break;
        }
    }
    out.join(" ")
}

/// The cue by which a text declares itself off the mission, if it does.
pub fn self_declared_irrelevant(text: &str) -> Option<String> {
    let open = opening(text);
    let cue = cue_re().find(&open)?;
    let without_negated = negated_authority_re().replace_all(&open, " ");
    if authority_re().is_match(&without_negated) {
        return None;
    }
    Some(
        cue.as_str()
            .trim_matches(|c: char| !c.is_alphanumeric())
            .to_lowercase(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_that_declare_themselves_off_the_mission() {
        for text in [
            "UNRELATED ARCHIVAL MATERIAL FOR BATCH 3. Skip it.",
            "The archival record A-7 is unrelated to the active work. Its old id was X-1.",
            "Superseded planning note: branch b-1, budget 100.",
            "Background notes from a retired vendor, for reference only: a=1; b=2.",
            "Historical log (no longer in effect): port=22",
            "Old draft, ignore this: region=eu-west-1",
            "Non-authoritative estimate from a simulation: value 42.",
        ] {
            assert!(self_declared_irrelevant(text).is_some(), "{text}");
        }
    }

    #[test]
    fn corrections_and_plain_instructions_are_kept() {
        for text in [
            "FINAL AUTHORITATIVE CORRECTIONS: k-1=final-a; k-2=final-b.",
            "Ignore the earlier budget; the current budget is 81250.",
            "Correction: the obsolete port 22 is replaced by 2222.",
            "Resume the active project. Archived notebooks remain irrelevant.",
            "Deploy the release to eu-west-3 and report the release id.",
            "Migrate the legacy queue to queue-7 today.",
        ] {
            assert_eq!(self_declared_irrelevant(text), None, "{text}");
        }
    }
}
