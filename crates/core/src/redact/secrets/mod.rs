//! Credentials are never persisted. Three kinds of evidence find them:
//!
//! - provider key formats (`rules.rs`: gitleaks' rules and our own, as data),
//! - a key that names a secret (`context.rs`: `password=…`, `"api_key": …`,
//!   `Authorization: Bearer …`), judged by its value so that code
//!   (`password = getpass()`) and placeholders (`${TOKEN}`) stay,
//! - high entropy, only in such a context: a lone hash, UUID or digest in
//!   text is a look-alike and stays verbatim.
//!
//! A secret becomes `<withheld:secret:KIND:HASH>`, HASH the first six hex
//! digits of the SHA-256 of the value: the same value gets the same
//! placeholder in every run, two values can be told apart, and the value is
//! never written, not even to the audit.

mod context;
mod rules;

pub use context::{field_secret, key_kind, KeyKind};
pub use rules::{rule_set, RuleSet};

/// A secret's span in a text, and its kind (the rule id).
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    pub start: usize,
    pub end: usize,
    pub kind: String,
    /// Found by its format (`ghp_…`), not by what surrounds it (a key, a
    /// header, a URL): of two findings of one span, it names the kind.
    pub by_format: bool,
}

/// The secrets in `text`, in order, without overlaps (the earlier, then the
/// longer, then the one found by its format wins).
pub fn scan(rules: &RuleSet, text: &str) -> Vec<Finding> {
    let mut found = Vec::new();
    rules.scan(text, &mut found);
    if found.is_empty() {
        return found;
    }
    let withheld = placeholder_spans(text);
    found.retain(|f| {
        f.end > f.start
            && !not_a_secret(&text[f.start..f.end])
            && !withheld.iter().any(|&(s, e)| f.start < e && s < f.end)
    });
    found.sort_by(|a, b| {
        a.start
            .cmp(&b.start)
            .then(b.end.cmp(&a.end))
            .then(b.by_format.cmp(&a.by_format))
    });
    let mut out: Vec<Finding> = Vec::with_capacity(found.len());
    for f in found {
        if out.last().is_none_or(|last| f.start >= last.end) {
            out.push(f);
        }
    }
    out
}

/// Spans of our own placeholders in `text`: `<withheld:secret:jwt:3fa91c>`
/// reads like `secret: jwt:3fa91c` to the key rules.
fn placeholder_spans(text: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut from = 0;
    while let Some(i) = text[from..].find("<withheld:") {
        let start = from + i;
        let end = text[start..]
            .find('>')
            .map_or(text.len(), |j| start + j + 1);
        spans.push((start, end));
        from = end;
    }
    spans
}

/// The placeholder of a secret value of `kind`.
pub fn placeholder(value: &str, kind: &str) -> String {
    let digest = crate::digest::sha256_hex(value.as_bytes());
    format!("<withheld:secret:{kind}:{}>", &digest[..6])
}

/// Shannon entropy in bits per character.
pub fn shannon_entropy(s: &str) -> f64 {
    let mut counts = std::collections::HashMap::new();
    let mut total = 0usize;
    for c in s.chars() {
        *counts.entry(c).or_insert(0usize) += 1;
        total += 1;
    }
    if total == 0 {
        return 0.0;
    }
    counts
        .values()
        .map(|&n| {
            let p = n as f64 / total as f64;
            -p * p.log2()
        })
        .sum()
}

/// Values no rule should withhold: references to a secret kept elsewhere
/// (`$TOKEN`, `${{ secrets.X }}`, `<your-key>`), masks (`****`, `gho_***`),
/// literals and placeholders of ours.
pub fn not_a_secret(value: &str) -> bool {
    let v = value.trim();
    let lower = v.to_ascii_lowercase();
    v.is_empty()
        || v.contains("<withheld:")
        || env_reference(v)
        || (v.starts_with("{{") && v.ends_with("}}"))
        || (v.starts_with('<') && v.ends_with('>'))
        || (v.starts_with('%') && v.ends_with('%') && v.len() > 2)
        || v.contains("***")
        || v.contains("•••")
        || v.chars()
            .all(|c| matches!(c, '*' | 'x' | 'X' | '.' | '-' | '_' | '#'))
        || matches!(
            lower.as_str(),
            "null" | "none" | "nil" | "undefined" | "true" | "false" | "yes" | "no"
        )
        || PLACEHOLDER_WORDS.iter().any(|w| lower.contains(w))
}

/// Words of a value written to be replaced, never a real credential.
const PLACEHOLDER_WORDS: &[&str] = &[
    "your_",
    "your-",
    "yourapi",
    "yourtoken",
    "yourpassword",
    "yoursecret",
    "replace_me",
    "replace-me",
    "replaceme",
    "changeme",
    "change_me",
    "placeholder",
    "example",
    "redacted",
];

/// `$VAR`, `${VAR}`, `${VAR:-default}`, `${{ … }}`, `$(command)`.
fn env_reference(v: &str) -> bool {
    let Some(rest) = v.strip_prefix('$') else {
        return false;
    };
    if rest.starts_with('{') || rest.starts_with('(') {
        return true;
    }
    let mut chars = rest.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Values that look random but are public by design: commit SHAs,
/// checksums, UUIDs, digests and integrity hashes.
pub fn checksum_like(v: &str) -> bool {
    let lower = v.to_ascii_lowercase();
    let hex = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_hexdigit());
    if [
        "sha1", "sha224", "sha256", "sha384", "sha512", "md5", "blake2b", "blake3",
    ]
    .iter()
    .any(|p| lower.starts_with(&format!("{p}:")) || lower.starts_with(&format!("{p}-")))
    {
        return true;
    }
    if lower.starts_with("data:") {
        return true;
    }
    let uuid: Vec<&str> = lower.split('-').collect();
    if uuid.len() == 5
        && uuid.iter().map(|p| p.len()).eq([8, 4, 4, 4, 12])
        && uuid.iter().all(|p| hex(p))
    {
        return true;
    }
    hex(&lower) && matches!(lower.len(), 7..=12 | 32 | 40 | 56 | 64 | 96 | 128)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_stable_and_tell_values_apart() {
        let a = placeholder("ghp_aaaa", "github-pat");
        assert_eq!(a, placeholder("ghp_aaaa", "github-pat"));
        assert_ne!(a, placeholder("ghp_aaab", "github-pat"));
        // The first six hex digits of sha256("hunter2").
        assert_eq!(
            placeholder("hunter2", "password"),
            "<withheld:secret:password:f52fbd>"
        );
    }

    #[test]
    fn references_and_masks_are_not_secrets() {
        for v in [
            "$GITHUB_TOKEN",
            "${DB_PASSWORD}",
            "${DB_PASSWORD:-dev}",
            "${{ secrets.NPM_TOKEN }}",
            "{{ vault_token }}",
            "<your-api-key>",
            "%API_KEY%",
            "********",
            "gho_************************************",
            "xxxxxxxx",
            "null",
            "your_token_here",
            "AKIAIOSFODNN7EXAMPLE",
        ] {
            assert!(not_a_secret(v), "{v}");
        }
        assert!(!not_a_secret("hunter2!"));
        assert!(!not_a_secret(
            "$2b$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW"
        ));
    }

    #[test]
    fn checksums_uuids_and_digests_look_like_secrets_but_are_not() {
        for v in [
            "3f2a9c1",
            "d41d8cd98f00b204e9800998ecf8427e",
            "da39a3ee5e6b4b0d3255bfef95601890afd80709",
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
            "123e4567-e89b-12d3-a456-426614174000",
            "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
            "sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUdBeoGlODJ6+SfaPg==",
        ] {
            assert!(checksum_like(v), "{v}");
        }
        assert!(!checksum_like("wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQ9fKlEXq2"));
    }
}
