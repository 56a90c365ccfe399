//! The built-in personal-data patterns and the checks a match must pass:
//! checksums for cards and IBANs, and for emails the shapes of code that
//! look like one (`\n@click.group(`, `icon@2x.png`, `git@github.com:`).

pub const BUILTIN_PATTERNS: &[(&str, &str)] = &[
    ("email", r"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}"),
    (
        "phone",
        r"(?:\+?\d{1,3}[-. ]?)?\(?(?-u:\b)\d{3}\)?[-. ]\d{3}[-. ]\d{4}(?-u:\b)",
    ),
    // Before cards: an IBAN's digits may pass Luhn's check.
    (
        "iban",
        r"(?-u:\b)[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?(?-u:\b)",
    ),
    ("card_number", r"(?-u:\b)(?:\d[ -]?){12,18}\d(?-u:\b)"),
    ("ssn", r"(?-u:\b)\d{3}-\d{2}-\d{4}(?-u:\b)"),
];

/// The span of `text[start..end]`, a match of `pattern`, that is personal
/// data, or `None` when it is something else that looks like it.
pub fn accept_match(pattern: &str, text: &str, start: usize, end: usize) -> Option<(usize, usize)> {
    let found = &text[start..end];
    match pattern {
        "card_number" | "card" => {
            (luhn_valid(found) && card_prefix_ok(found)).then_some((start, end))
        }
        "iban" => iban_valid(found).then_some((start, end)),
        "email" => email_span(text, start, end),
        _ => Some((start, end)),
    }
}

fn builtin_re(name: &str) -> Option<&'static regex::Regex> {
    static RES: std::sync::OnceLock<Vec<regex::Regex>> = std::sync::OnceLock::new();
    let res = RES.get_or_init(|| {
        BUILTIN_PATTERNS
            .iter()
            .filter_map(|(_, p)| regex::Regex::new(p).ok())
            .collect()
    });
    let i = BUILTIN_PATTERNS.iter().position(|(n, _)| *n == name)?;
    res.get(i)
}

/// The spans of the emails in `text`, as the email pattern accepts them.
pub fn email_spans(text: &str) -> Vec<(usize, usize)> {
    builtin_re("email").map_or_else(Vec::new, |re| {
        re.find_iter(text)
            .filter_map(|m| email_span(text, m.start(), m.end()))
            .collect()
    })
}

/// The spans of the built-in phone pattern's matches in `text`.
pub fn phone_spans(text: &str) -> Vec<(usize, usize)> {
    builtin_re("phone").map_or_else(Vec::new, |re| {
        re.find_iter(text).map(|m| (m.start(), m.end())).collect()
    })
}

/// File extensions that are no top-level domain: `name@2x.png` and
/// `pkg@1.0.tgz`-like names in code and build output.
const FILE_EXTENSIONS: &[&str] = &[
    "png", "jpg", "jpeg", "gif", "svg", "webp", "ico", "bmp", "avif", "tif", "tiff", "pdf", "txt",
    "json", "yaml", "yml", "toml", "lock", "html", "htm", "css", "scss", "js", "mjs", "cjs", "ts",
    "tsx", "jsx", "java", "kt", "rb", "cpp", "hpp", "log", "csv", "xml", "map", "wasm", "woff",
    "woff2", "ttf", "otf", "tgz",
];

/// Names that start a member access, not a mail domain (`x@self.weight`).
const CODE_RECEIVERS: &[&str] = &["self", "this", "cls", "np", "torch", "tf", "jnp"];

/// An email's span, or `None` for code that looks like one:
/// - a decorator after a JSON-escaped line break (`\n@app.route`): the `n`
///   of `\n` is no local part;
/// - a call (`foo@bar.baz(`);
/// - a file name (`icon@2x.png`) or a member access (`x@self.weight`);
/// - `git@host`, the shared account every forge uses for SSH remotes
///   (`git@github.com:org/repo.git`): it names no person, and the agent
///   needs the remote.
fn email_span(text: &str, start: usize, end: usize) -> Option<(usize, usize)> {
    let mut start = start;
    let escaped = text[..start].ends_with('\\');
    if escaped && text[start..].starts_with(['n', 'r', 't']) {
        start += 1;
    }
    let found = &text[start..end];
    let (local, domain) = found.split_once('@')?;
    if local.is_empty() || local == "git" || text[end..].starts_with('(') {
        return None;
    }
    let labels: Vec<&str> = domain.split('.').collect();
    let first = labels.first().copied().unwrap_or_default();
    let last = labels
        .last()
        .copied()
        .unwrap_or_default()
        .to_ascii_lowercase();
    let scale = first
        .strip_suffix(['x', 'X'])
        .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
    if scale || FILE_EXTENSIONS.contains(&last.as_str()) || CODE_RECEIVERS.contains(&first) {
        return None;
    }
    Some((start, end))
}

/// A card number starts with an issuer's prefix and has that issuer's
/// length: a 13-digit millisecond timestamp (`1719014504249`) passes
/// Luhn's check one time in ten, and is no card.
fn card_prefix_ok(s: &str) -> bool {
    let d: String = s.chars().filter(char::is_ascii_digit).collect();
    let n = d.len();
    let p = |k: usize| d.get(..k).and_then(|x| x.parse::<u32>().ok()).unwrap_or(0);
    match p(1) {
        4 => matches!(n, 13 | 16 | 19),
        5 | 6 => n >= 12,
        2 => (2221..=2720).contains(&p(4)) && n == 16,
        3 => {
            matches!(p(2), 34 | 37) && n == 15 || matches!(p(2), 30 | 35 | 36 | 38 | 39) && n >= 14
        }
        _ => false,
    }
}

pub fn luhn_valid(s: &str) -> bool {
    let digits: Vec<u32> = s.chars().filter_map(|c| c.to_digit(10)).collect();
    if digits.len() < 13 || digits.len() > 19 {
        return false;
    }
    let sum: u32 = digits
        .iter()
        .rev()
        .enumerate()
        .map(|(i, &d)| {
            if i % 2 == 1 {
                let x = d * 2;
                if x > 9 {
                    x - 9
                } else {
                    x
                }
            } else {
                d
            }
        })
        .sum();
    sum % 10 == 0
}

pub fn iban_valid(s: &str) -> bool {
    let compact: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    if compact.len() < 15 || compact.len() > 34 {
        return false;
    }
    let rearranged = format!("{}{}", &compact[4..], &compact[..4]);
    let mut rem: u64 = 0;
    for c in rearranged.chars() {
        let chunk = match c.to_digit(36) {
            Some(d) => d as u64,
            None => return false,
        };
        rem = if chunk >= 10 {
            (rem * 100 + chunk) % 97
        } else {
            (rem * 10 + chunk) % 97
        };
    }
    rem == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn email(text: &str) -> Option<&str> {
        let re = regex::Regex::new(BUILTIN_PATTERNS[0].1).unwrap();
        let span = re
            .find_iter(text)
            .find_map(|m| accept_match("email", text, m.start(), m.end()));
        span.map(|(s, e)| &text[s..e])
    }

    #[test]
    fn emails_are_found() {
        assert_eq!(
            email("mail jane.doe@example.com now"),
            Some("jane.doe@example.com")
        );
        assert_eq!(
            email("<a+b@sub.example.co.uk>"),
            Some("a+b@sub.example.co.uk")
        );
        assert_eq!(email(r"To:\njane@example.com"), Some("jane@example.com"));
        assert_eq!(
            email("ops@corp.example.com:~/deploy"),
            Some("ops@corp.example.com")
        );
    }

    #[test]
    fn code_that_looks_like_an_email_is_not_one() {
        for text in [
            r#"return 0\n@click.group()\ndef cli():"#,
            r#"\n\n@app.route("/health")"#,
            r#"x = 1\\n@functools.cache\\ndef f():"#,
            "    pass\n@app.route(\"/\")",
            "foo@bar.baz(1)",
            "icon@2x.png and logo@3x.webp",
            "git@github.com:acme/api.git",
            "ssh://git@gitlab.example.com/acme/api.git",
            "npm i @scope/package@1.2.3 @types/node",
            "y = x@self.weight.T",
        ] {
            assert_eq!(email(text), None, "{text}");
        }
    }
}
