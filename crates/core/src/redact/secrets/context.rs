//! A key that names a secret (`password=…`, `"client_secret": …`,
//! `export API_KEY=…`, `Authorization: Bearer …`, `--token …`) and the
//! value beside it. The value decides: code (`password = getpass()`,
//! `token: str`), references (`${TOKEN}`), masks, paths, short words and
//! small numbers stay; a key that says little (`key`, `sig`, `cookie`)
//! needs a high-entropy value.

use std::sync::OnceLock;

use aho_corasick::AhoCorasick;
use regex::Regex;

use super::{checksum_like, not_a_secret, shannon_entropy, Finding};

/// What a key says about its value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KeyKind {
    /// The kind in the placeholder (`password`, `token`, `api-key`, …).
    pub kind: &'static str,
    /// A key that names a secret (`password`), not one that only may hold
    /// one (`key`, `sig`): the latter needs a high-entropy value.
    pub names_secret: bool,
    /// An HTTP authorization value: a scheme word (`Bearer`) comes first.
    pub header: bool,
}

/// Words in a key that make it about something else than the secret:
/// pagination tokens, limits, public keys.
const OTHER_WORDS: &[&str] = &[
    "page",
    "pagination",
    "cursor",
    "next",
    "continuation",
    "max",
    "min",
    "num",
    "total",
    "public",
    "publishable",
    "pub",
    "is",
    "has",
    "use",
    "enable",
    "require",
    "no",
];

/// Last words of a key that name something about a secret, not the secret.
const OTHER_LAST_WORDS: &[&str] = &[
    "id",
    "ids",
    "name",
    "names",
    "type",
    "types",
    "url",
    "uri",
    "urls",
    "endpoint",
    "path",
    "file",
    "filename",
    "dir",
    "length",
    "len",
    "size",
    "count",
    "counts",
    "limit",
    "ttl",
    "expiry",
    "expires",
    "expiration",
    "lifetime",
    "prefix",
    "suffix",
    "field",
    "hint",
    "env",
    "var",
    "policy",
    "format",
    "mode",
    "kind",
    "label",
    "required",
    "enabled",
    "disabled",
    "method",
    "scheme",
    "scope",
    "scopes",
    "usage",
    "used",
    "budget",
    "index",
    "version",
    "source",
    "provider",
    "providers",
    "store",
    "manager",
    "helper",
    "rotation",
    "reset",
    "at",
    "date",
    "time",
    "timestamp",
    "strength",
    "rule",
    "rules",
    "pattern",
    "regex",
    "description",
    "title",
    "region",
    "algorithm",
    "alg",
    "encoding",
    "ref",
    "reference",
    "arn",
    "exists",
    "set",
    "present",
    "missing",
    "error",
    "message",
    "status",
    "state",
    "checksum",
    "digest",
    "fingerprint",
    "sha",
    "sha1",
    "sha256",
    "tokens",
    // A file name (`src/utils/auth.ts:9:` in grep output).
    "ts",
    "tsx",
    "js",
    "jsx",
    "mjs",
    "py",
    "rs",
    "go",
    "rb",
    "java",
    "kt",
    "json",
    "yaml",
    "yml",
    "toml",
    "md",
    "txt",
    "sh",
    "lock",
    "cfg",
    "ini",
    "conf",
];

/// Words before `key` that make it a credential (`api_key`, `AccountKey`).
const KEY_QUALIFIERS: &[&str] = &[
    "api",
    "access",
    "account",
    "signing",
    "encryption",
    "master",
    "shared",
    "client",
    "app",
    "license",
    "service",
    "auth",
    "webhook",
    "deploy",
    "subscription",
    "session",
    "consumer",
    "admin",
    "developer",
    "write",
    "read",
    "storage",
    "sas",
];

/// The words of a key, lowercase: `x-api-key` → x, api, key;
/// `awsSecretAccessKey` → aws, secret, access, key; `APIKey` → api, key.
fn key_words(key: &str) -> Vec<String> {
    let mut words = Vec::new();
    for part in key.split(|c: char| !c.is_ascii_alphanumeric()) {
        let chars: Vec<char> = part.chars().collect();
        let mut word = String::new();
        for (i, &c) in chars.iter().enumerate() {
            let prev = i.checked_sub(1).map(|p| chars[p]);
            let next = chars.get(i + 1);
            let lower_to_upper =
                prev.is_some_and(|p| p.is_ascii_lowercase()) && c.is_ascii_uppercase();
            let acronym_end = prev.is_some_and(|p| p.is_ascii_uppercase())
                && c.is_ascii_uppercase()
                && next.is_some_and(|n| n.is_ascii_lowercase());
            if (lower_to_upper || acronym_end) && !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            word.push(c.to_ascii_lowercase());
        }
        if !word.is_empty() {
            words.push(word);
        }
    }
    words
}

/// What `key` says about its value; `None` for a key unrelated to secrets.
pub fn key_kind(key: &str) -> Option<KeyKind> {
    // Most keys (`payment_id`, `status`) hold no trigger word: no need to
    // split them into words.
    if !triggers().is_some_and(|t| t.is_match(key)) {
        return None;
    }
    let words = key_words(key);
    let last = words.last()?;
    if OTHER_LAST_WORDS.contains(&last.as_str())
        || words.iter().any(|w| OTHER_WORDS.contains(&w.as_str()))
    {
        return None;
    }
    let named = |kind| {
        Some(KeyKind {
            kind,
            names_secret: true,
            header: false,
        })
    };
    let any = |f: &dyn Fn(&str) -> bool| words.iter().any(|w| f(w));
    if any(&|w| w.ends_with("authorization")) {
        return Some(KeyKind {
            kind: "authorization",
            names_secret: true,
            header: true,
        });
    }
    // `pass` alone is Go's test verdict (`--- PASS: TestX`), not a key.
    let pass = words.len() > 1 && words.iter().any(|w| w == "pass");
    if pass
        || any(&|w| {
            matches!(w, "pwd" | "passphrase" | "passcode")
                || w.ends_with("password")
                || w.ends_with("passwd")
        })
    {
        return named("password");
    }
    let joined = words.concat();
    if joined.contains("privatekey") {
        return named("private-key");
    }
    if any(&|w| w.ends_with("secret")) {
        return named("secret");
    }
    if any(&|w| w.ends_with("token")) {
        return named("token");
    }
    if key_is_qualified(&words) || joined.contains("apikey") || joined.contains("accesssignature") {
        return named("api-key");
    }
    if any(&|w| w.starts_with("credential")) {
        return named("credential");
    }
    if any(&|w| w == "auth" || w == "oauth") {
        return named("auth");
    }
    // Not `signature`: reasoning blocks and webhooks sign in the open.
    if any(&|w| matches!(w, "key" | "sig" | "cookie")) {
        return Some(KeyKind {
            kind: "high-entropy",
            names_secret: false,
            header: false,
        });
    }
    None
}

/// `key` after a word that makes it a credential, or written as one word
/// (`accesskey`, `accountkey`).
fn key_is_qualified(words: &[String]) -> bool {
    words.iter().enumerate().any(|(i, w)| {
        let after_qualifier =
            w == "key" && i > 0 && KEY_QUALIFIERS.contains(&words[i - 1].as_str());
        let one_word = w
            .strip_suffix("key")
            .is_some_and(|q| KEY_QUALIFIERS.contains(&q));
        after_qualifier || one_word
    })
}

/// The secret in a structured field's value (`{"password": "…"}`), as a span
/// of `value`, and its kind.
pub fn field_secret(key: &str, value: &str) -> Option<(usize, usize, &'static str)> {
    let kind = key_kind(key)?;
    let start = if kind.header { skip_scheme(value) } else { 0 };
    let secret = value[start..].trim_end();
    judge(secret, kind, true).then_some((start, start + secret.len(), kind.kind))
}

/// Schemes that come before the credential in an authorization value.
const SCHEMES: &[&str] = &[
    "bearer",
    "basic",
    "token",
    "bot",
    "apikey",
    "api-key",
    "sso-key",
    "key",
    "digest",
    "negotiate",
    "ntlm",
    "dpop",
];

/// Where the credential starts after an optional scheme word.
fn skip_scheme(value: &str) -> usize {
    let word_end = value.find([' ', '\t']).unwrap_or(value.len());
    let word = value[..word_end].to_ascii_lowercase();
    if word_end < value.len() && SCHEMES.contains(&word.as_str()) {
        let rest = &value[word_end..];
        word_end + (rest.len() - rest.trim_start_matches([' ', '\t']).len())
    } else {
        0
    }
}

/// Whether `value`, under a key of `kind`, is a secret. `quoted`: a string
/// literal, not code.
fn judge(value: &str, kind: KeyKind, quoted: bool) -> bool {
    let v = value.trim();
    let chars = v.chars().count();
    if not_a_secret(v) || chars < 4 || !v.chars().any(|c| c.is_ascii_alphanumeric()) {
        return false;
    }
    if v.chars().all(|c| c.is_ascii_digit()) && chars < 6 {
        return false;
    }
    if path_or_public_url(v) || v.chars().any(char::is_whitespace) {
        return false;
    }
    if !quoted && code_like(v) {
        return false;
    }
    // Interpolation: `f"{token}"`, `"%(password)s"`, `#{secret}`.
    if (v.contains('{') && v.contains('}')) || v.starts_with('%') {
        return false;
    }
    if elided(v) || version_like(v) {
        return false;
    }
    if !kind.names_secret {
        return high_entropy(v);
    }
    // A short word (`required`, `hidden`, `postgres`) or words joined
    // (`proxy-handled`, `test-key`) is text, not a credential worth losing
    // the text for.
    let short_word = chars <= 10 && v.chars().all(|c| c.is_ascii_alphabetic());
    !short_word && !joined_words(v)
}

/// Lowercase (or uppercase) words joined by `-`, `_` or `.`, no digit: a
/// name or a placeholder (`proxy-handled`, `sk-secret`), where a random
/// credential mixes case or has digits.
fn joined_words(v: &str) -> bool {
    v.chars()
        .all(|c| c.is_ascii_alphabetic() || matches!(c, '-' | '_' | '.'))
        && v.split(['-', '_', '.']).all(|w| {
            w.chars().all(|c| c.is_ascii_lowercase())
                || w.chars().all(|c| c.is_ascii_uppercase())
                || w.chars().skip(1).all(|c| c.is_ascii_lowercase())
        })
}

/// A prefix shown as an example, cut short with dots (`sk-ant-oat01-...`).
fn elided(v: &str) -> bool {
    let core = v.trim_end_matches('.').trim_end_matches('…');
    core.len() < v.len() && core.len() <= 16
}

/// A version or version range (`^3.948.0`, `>=1.2`, `v2.0.1`).
fn version_like(v: &str) -> bool {
    let core = v.trim_start_matches(['^', '~', '>', '<', '=', 'v']);
    core.contains('.')
        && core.chars().next().is_some_and(|c| c.is_ascii_digit())
        && core.chars().all(|c| c.is_ascii_digit() || c == '.')
}

/// A value that is a file path or a URL without a password.
fn path_or_public_url(v: &str) -> bool {
    let drive = v.as_bytes().get(1..3) == Some(b":\\".as_slice());
    v.starts_with('/')
        || v.starts_with("./")
        || v.starts_with("../")
        || v.starts_with("~/")
        || drive
        || (v.contains("://") && !v.contains('@'))
}

/// Unquoted code: a call, an index, a member path, a bare variable name,
/// a type (`Optional[str]`), a scope path (`Token::new`).
fn code_like(v: &str) -> bool {
    if v.contains(['(', '[', '{']) || v.starts_with(':') || v.starts_with('=') {
        return true;
    }
    let identifier = |s: &str| {
        let mut chars = s.chars();
        chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
    };
    let parts: Vec<&str> = v.split('.').collect();
    if parts.len() > 1 && parts.iter().all(|p| identifier(p)) && !high_entropy(v) {
        return true;
    }
    // A variable: letters and underscores only, no digit to make it a password.
    identifier(v) && !v.chars().any(|c| c.is_ascii_digit()) && !high_entropy(v)
}

/// detect-secrets' test, in a secret's context only: a hex or base64
/// string of 20+ characters whose entropy is above chance for words, and
/// not a checksum, UUID or digest.
fn high_entropy(v: &str) -> bool {
    if v.len() < 20 || checksum_like(v) {
        return false;
    }
    let entropy = shannon_entropy(v);
    if v.chars().all(|c| c.is_ascii_hexdigit()) {
        return entropy >= 3.0;
    }
    let base64 = v
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '=' | '_' | '-' | '.' | '~'));
    base64
        && entropy >= 3.5
        && v.chars().any(|c| c.is_ascii_digit())
        && v.chars().any(|c| c.is_ascii_alphabetic())
}

/// Words in a key that names a secret. The rule set's keyword automaton
/// finds them in a text; each hit is where a key may be.
pub const TRIGGERS: &[&str] = &[
    "pass", "pwd", "secret", "token", "key", "auth", "cred", "sig", "cookie",
];

fn triggers() -> Option<&'static AhoCorasick> {
    static AC: OnceLock<Option<AhoCorasick>> = OnceLock::new();
    AC.get_or_init(|| {
        AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .build(TRIGGERS)
            .ok()
    })
    .as_ref()
}

/// Longest key read around a trigger word: a longer run of key characters
/// is data (a blob), not a key, and bounds the work per hit.
const MAX_KEY_LEN: usize = 128;

fn key_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')
}

/// A key at the start of the text, and its separator. The value is read by
/// hand (`value_span`): quotes, escapes and code need more than a regex.
fn assignment_re() -> Option<&'static Regex> {
    static RE: OnceLock<Option<Regex>> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r#"^(?P<key>[A-Za-z0-9_.-]{1,128})(?:\\{0,3}["'])?(?P<sep>[ \t]*(?:==|:=|=>|=|:)[ \t]*|[ \t]+is[ \t]+|[ \t]+)"#,
        )
        .ok()
    })
    .as_ref()
}

/// Every `key = secret` in `text` whose key holds a trigger word starting
/// at one of `hits` (byte offsets, ascending).
pub fn scan_at(text: &str, hits: &[usize], out: &mut Vec<Finding>) {
    let Some(re) = assignment_re() else {
        return;
    };
    let mut last_key = None;
    for &hit in hits {
        if let Some(key_start) = key_start(text, hit) {
            scan_key(text, re, key_start, &mut last_key, out);
        }
    }
}

/// Where the run of key characters holding `hit` starts, if within
/// `MAX_KEY_LEN` bytes.
fn key_start(text: &str, hit: usize) -> Option<usize> {
    let mut from = hit.saturating_sub(MAX_KEY_LEN);
    while !text.is_char_boundary(from) {
        from += 1;
    }
    let before = text.get(from..hit)?;
    match before.char_indices().rev().find(|(_, c)| !key_char(*c)) {
        Some((i, c)) => Some(from + i + c.len_utf8()),
        None if from == 0 => Some(0),
        None => None,
    }
}

fn scan_key(
    text: &str,
    re: &Regex,
    key_start: usize,
    last_key: &mut Option<usize>,
    out: &mut Vec<Finding>,
) {
    if *last_key == Some(key_start) || !text.is_char_boundary(key_start) {
        return;
    }
    *last_key = Some(key_start);
    let Some(caps) = re.captures(&text[key_start..]) else {
        return;
    };
    let (Some(key), Some(sep)) = (caps.name("key"), caps.name("sep")) else {
        return;
    };
    let at = key_start + sep.end();
    if let Some(f) = assignment(text, key_start, key.as_str(), sep.as_str(), at) {
        out.push(f);
    }
}

/// The secret of one `key sep value`, if its value is one.
fn assignment(text: &str, key_start: usize, key: &str, sep: &str, at: usize) -> Option<Finding> {
    // A JSON-escaped line break before the key (`\nTOKEN=…`) is not part of it.
    let escaped = text[..key_start].ends_with('\\');
    let key = if escaped && key.starts_with(['n', 'r', 't']) {
        &key[1..]
    } else {
        key
    };
    let sep = sep.trim();
    let flag = key.starts_with('-');
    let bare = key.trim_start_matches('-').to_ascii_lowercase();
    if sep == "==" || (sep.is_empty() && !flag && bare != "password" && bare != "passwd") {
        return None;
    }
    let kind = key_kind(key)?;
    let query = text[..key_start].ends_with(['?', '&']);
    let env_style = sep == "=" && !key.chars().any(|c| c.is_ascii_lowercase());
    let scheme = if kind.header {
        skip_scheme(&text[at..])
    } else {
        0
    };
    let (start, end, quoted) = value_span(text, at + scheme, query, env_style)?;
    judge(&text[start..end], kind, quoted).then(|| Finding {
        start,
        end,
        kind: kind.kind.to_string(),
        by_format: false,
    })
}

/// The value at `at`: a quoted string (also JSON-escaped, `\"…\"`), else a
/// run up to a character that ends a value. `env_style` (`KEY=value`):
/// only a space or a quote ends it, since a password may hold `,;)`.
fn value_span(text: &str, at: usize, query: bool, env_style: bool) -> Option<(usize, usize, bool)> {
    let rest = &text[at..];
    let slashes = rest.len() - rest.trim_start_matches('\\').len();
    let after = &rest[slashes..];
    if slashes <= 3 {
        if let Some(q) = after
            .chars()
            .next()
            .filter(|c| matches!(c, '"' | '\'' | '`'))
        {
            let open = &rest[..slashes + 1];
            let body = &rest[open.len()..];
            let close = closing_quote(body, open, q)?;
            let start = at + open.len();
            return Some((start, start + close, true));
        }
    }
    if slashes > 0 {
        return None;
    }
    let ends = |c: char| {
        c.is_whitespace()
            || matches!(c, '"' | '\'' | '`' | '\\')
            || (!env_style && matches!(c, ',' | ';' | ')' | ']' | '}' | '<' | '>'))
            || (query && matches!(c, '&' | '#'))
    };
    let len = rest.find(ends).unwrap_or(rest.len());
    // A sentence's full stop or colon after the value is not part of it.
    let len = rest[..len].trim_end_matches(['.', ':']).len();
    (len > 0).then_some((at, at + len, false))
}

/// The end of a quoted body opened by `open`, on the same line.
fn closing_quote(body: &str, open: &str, q: char) -> Option<usize> {
    let line = body.find('\n').unwrap_or(body.len());
    let body = &body[..line];
    if open.len() > 1 {
        return body.find(open);
    }
    let mut escaped = false;
    for (i, c) in body.char_indices() {
        match c {
            '\\' => escaped = !escaped,
            c if c == q && !escaped => return Some(i),
            _ => escaped = false,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secrets(text: &str) -> Vec<String> {
        let hits: Vec<usize> = triggers()
            .unwrap()
            .find_overlapping_iter(text)
            .map(|m| m.start())
            .collect();
        let mut out = Vec::new();
        scan_at(text, &hits, &mut out);
        out.iter()
            .map(|f| text[f.start..f.end].to_string())
            .collect()
    }

    #[test]
    fn key_words_split_snake_kebab_and_camel_case() {
        assert_eq!(key_words("x-api-key"), ["x", "api", "key"]);
        assert_eq!(
            key_words("awsSecretAccessKey"),
            ["aws", "secret", "access", "key"]
        );
        assert_eq!(key_words("APIKey"), ["api", "key"]);
        assert_eq!(key_words("DB_PASSWORD"), ["db", "password"]);
    }

    #[test]
    fn keys_that_name_a_secret() {
        for (key, kind) in [
            ("password", "password"),
            ("DB_PASSWORD", "password"),
            ("PGPASSWORD", "password"),
            ("Pwd", "password"),
            ("client_secret", "secret"),
            ("aws_secret_access_key", "secret"),
            ("GITHUB_TOKEN", "token"),
            ("_authToken", "token"),
            ("x-api-key", "api-key"),
            ("AccountKey", "api-key"),
            ("apikey", "api-key"),
            ("private_key", "private-key"),
            ("credentials", "credential"),
            ("auth", "auth"),
            ("Authorization", "authorization"),
            ("Proxy-Authorization", "authorization"),
            ("key", "high-entropy"),
        ] {
            assert_eq!(key_kind(key).map(|k| k.kind), Some(kind), "{key}");
        }
    }

    #[test]
    fn keys_about_a_secret_but_not_one() {
        for key in [
            "author",
            "max_tokens",
            "token_type",
            "token_count",
            "AccessKeyId",
            "password_reset_url",
            "next_page_token",
            "NextToken",
            "public_key",
            "tokenizer",
            "keyboard",
            "bypass",
            "secret_name",
            "api_key_env",
            "credential_helper",
            "is_secret",
        ] {
            assert_eq!(key_kind(key), None, "{key}");
        }
    }

    #[test]
    fn config_values_are_secrets() {
        let env =
            "DB_HOST=db.internal\nDB_PASSWORD=s3cr3t,pa55;word\nexport API_KEY=abc123def456ghi";
        assert_eq!(secrets(env), ["s3cr3t,pa55;word", "abc123def456ghi"]);
        assert_eq!(
            secrets(r#"{"client_secret": "Zx9-41kQ_pl0"}"#),
            ["Zx9-41kQ_pl0"]
        );
        assert_eq!(
            secrets(r#"{\"password\": \"hunter2!\"}"#),
            ["hunter2!"],
            "JSON inside a JSON string"
        );
        assert_eq!(secrets("password: hunter2"), ["hunter2"]);
        assert_eq!(secrets("mysql --password hunter22 -h db"), ["hunter22"]);
        assert_eq!(
            secrets("machine api.example.com login bot password Tr0ub4dor"),
            ["Tr0ub4dor"]
        );
        assert_eq!(secrets("my password is Tr0ub4dor&3"), ["Tr0ub4dor&3"]);
        assert_eq!(
            secrets("Server=tcp:db.example.net;User ID=sa;Password=Xy7!kq9#;Encrypt=True"),
            ["Xy7!kq9#"]
        );
        assert_eq!(
            secrets("https://api.example.com/cb?state=1&access_token=Q2x9fK3mZ7&x=2"),
            ["Q2x9fK3mZ7"]
        );
    }

    #[test]
    fn authorization_values_keep_their_scheme() {
        let text = "-H 'Authorization: Bearer abcDEF123456ghiJKL789'";
        assert_eq!(secrets(text), ["abcDEF123456ghiJKL789"]);
        assert_eq!(
            field_secret("Authorization", "Basic dXNlcjpodW50ZXIy"),
            Some((6, 22, "authorization"))
        );
        assert_eq!(secrets("x-api-key: 9f3KzQ81LmPq77"), ["9f3KzQ81LmPq77"]);
    }

    #[test]
    fn code_references_masks_and_words_stay() {
        for text in [
            "password = getpass.getpass()",
            "token = os.environ[\"GITHUB_TOKEN\"]",
            "api_key = args.api_key",
            "self.token = token",
            "def login(password: str) -> bool:",
            "token: Optional[str] = None",
            "headers = {\"Authorization\": f\"Bearer {token}\"}",
            "\"Authorization\": \"Bearer \" + token",
            "if password == \"\":",
            "PASSWORD=$DB_PASSWORD",
            "GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}",
            "  - Token: gho_************************************",
            "\"password\": null",
            "\"password\": \"required\"",
            "\"password\": \"Enter your password\"",
            "pass_through: true",
            "max_tokens: 4096",
            "PWD=/home/dev/project",
            "token_count: 1234",
            "pin: 1234",
            "Token::new(kind)",
            "key: user_id",
            "\"key\": \"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\"",
            "the auth flow is broken",
            "password reset link",
            "password_hash = bcrypt.hashpw(pw, salt)",
            "    --- PASS: TestIsShadowBranch/wrong_prefix (0.00s)",
            "src/utils/auth.ts:9:import type { ProviderProfile } from",
            "apiKey: 'proxy-handled',",
            "CODEMIE_API_KEY: 'test-key'",
            "const apiKey = 'sk-ant-' + 'a'.repeat(95);",
            "\"accessToken\": \"sk-ant-oat01-...\",",
            "\"@aws-sdk/credential-providers\": \"^3.948.0\",",
            "\"signature\": \"EoIGCkYICxgCKkCfw+PhqMHg/FplGaeAwAqphgMw4hYQYQutyB7Tb17MfDH9\"",
        ] {
            assert_eq!(secrets(text), Vec::<String>::new(), "{text}");
        }
    }

    #[test]
    fn a_key_that_says_little_needs_entropy() {
        assert_eq!(
            secrets("key=Zq8vN3xL0pR7sT2wY5bC"),
            ["Zq8vN3xL0pR7sT2wY5bC"]
        );
        assert_eq!(secrets("key=cache_entry_for_user"), Vec::<String>::new());
        assert_eq!(
            secrets("signature: 123e4567-e89b-12d3-a456-426614174000"),
            Vec::<String>::new()
        );
    }
}
