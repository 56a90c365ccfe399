//! Files: what a write call did to which path (created, edited, patched,
//! deleted), the last change as a bounded old → new excerpt, and the
//! symbols it defines. The content is not kept: the file is on disk.

use std::sync::OnceLock;

use regex::Regex;
use serde_json::Value;

use super::exec::bounded;

/// The most characters of each side of a change excerpt.
const EXCERPT_CHARS: usize = 90;
/// The most symbols named per change.
pub const SYMBOLS: usize = 12;
/// The most constant settings named per change.
pub const SETTINGS: usize = 6;
/// The most symbols named for a file that was only read.
const READ_SYMBOLS: usize = 8;
/// The most verdict lines kept per file, and the most characters of each.
pub const VERDICTS: usize = 3;
const VERDICT_CHARS: usize = 160;

/// What one write call did to one file.
#[derive(Debug, Clone, PartialEq)]
pub struct FileChange {
    pub path: String,
    pub action: Action,
    /// `old → new`, each side its first changed line, bounded.
    pub excerpt: Option<(String, String)>,
    /// Names the new text defines (functions, classes, modules, …).
    pub symbols: Vec<String>,
    /// Constants the new text sets to a literal (`limit = 500`).
    pub settings: Vec<String>,
    /// Lines the new text labels as a decision, status or verdict
    /// (`- Decision: …`, `**Gate Status**: PASS …`), as written.
    pub verdicts: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Written whole (created or overwritten).
    Written,
    Edited,
    Deleted,
}

const PATH_KEYS: &[&str] = &["file_path", "path", "notebook_path", "filepath", "filename"];

/// The path a call names.
pub fn path_of(args: &Value) -> Option<String> {
    PATH_KEYS
        .iter()
        .find_map(|k| args.get(*k).and_then(Value::as_str))
        .filter(|p| !p.is_empty())
        .map(str::to_string)
}

/// The file a read call reads: a named path, or the one file a search
/// looked in; not the folder a search scoped (a call with a pattern, glob
/// or query searches under its path).
pub fn file_read(args: &Value) -> Option<String> {
    let search = ["pattern", "glob", "query", "regex"]
        .iter()
        .any(|k| args.get(*k).is_some());
    path_of(args).filter(|p| !search || names_one_file(p))
}

/// Whether a path names one file: its last part has an extension and no
/// wildcard.
fn names_one_file(path: &str) -> bool {
    let name = path
        .trim_end_matches(['/', '\\'])
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or("");
    let stem = name.trim_start_matches('.');
    !name.contains(['*', '?', '{']) && stem.contains('.') && !stem.ends_with('.')
}

/// The changes of one write call: a patch (Codex `apply_patch`), an edit
/// (`old_string`/`new_string`, `edits`, `old_str`/`new_str`) or a whole file.
pub fn changes(args: &Value) -> Vec<FileChange> {
    let patch = match args {
        Value::String(s) => Some(s.as_str()),
        _ => ["patch", "input"]
            .iter()
            .find_map(|k| args.get(*k).and_then(Value::as_str)),
    };
    if let Some(patch) = patch.filter(|p| p.contains("*** Begin Patch")) {
        return patch_changes(patch);
    }
    let Some(path) = path_of(args) else {
        return Vec::new();
    };
    let text = |k: &str| args.get(k).and_then(Value::as_str).unwrap_or("");
    let mut edits: Vec<(String, String)> = args
        .get("edits")
        .and_then(Value::as_array)
        .map(|items| {
            items
                .iter()
                .map(|e| {
                    let side = |a: &str, b: &str| {
                        e.get(a)
                            .or_else(|| e.get(b))
                            .and_then(Value::as_str)
                            .unwrap_or("")
                            .to_string()
                    };
                    (side("old_string", "oldText"), side("new_string", "newText"))
                })
                .collect()
        })
        .unwrap_or_default();
    for (old, new) in [("old_string", "new_string"), ("old_str", "new_str")] {
        if args.get(old).is_some() || args.get(new).is_some() {
            edits.push((text(old).to_string(), text(new).to_string()));
        }
    }
    let whole = ["content", "file_text", "new_source"]
        .iter()
        .find_map(|k| args.get(*k).and_then(Value::as_str));
    vec![match (edits.last(), whole) {
        (Some((old, new)), _) => {
            let new_texts: Vec<&str> = edits.iter().map(|(_, n)| n.as_str()).collect();
            FileChange {
                path,
                action: Action::Edited,
                excerpt: excerpt(old, new),
                symbols: symbols(&new_texts),
                settings: settings(&new_texts),
                verdicts: verdicts(&new_texts),
            }
        }
        (None, whole) => FileChange {
            path,
            action: Action::Written,
            excerpt: None,
            symbols: symbols(&[whole.unwrap_or("")]),
            settings: settings(&[whole.unwrap_or("")]),
            verdicts: verdicts(&[whole.unwrap_or("")]),
        },
    }]
}

/// A heredoc that a shell command writes to a file: `cat <<'EOF' > path`,
/// `cat > path <<EOF`, `tee -a path <<EOF`.
fn heredoc_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(concat!(
            r#"(?m)(?:^|[;&|(]\s*)(?:cat(?:\s+(>>?)\s*(["']?[^\s<>;&|"']+["']?))?|tee(?:\s+(-a))?\s+(["']?[^\s<>;&|"']+["']?))"#,
            r#"\s*<<-?\s*["']?([A-Za-z_][A-Za-z0-9_]*)["']?(?:\s*(>>?)\s*(["']?[^\s<>;&|"']+["']?))?[^\n]*\n"#
        ))
        .expect("static regex")
    })
}

/// The files a shell command writes through heredocs, each as a change
/// with its body's symbols, settings and verdicts (the body is not kept).
pub fn heredoc_writes(command: &str) -> Vec<FileChange> {
    let mut out = Vec::new();
    for c in heredoc_re().captures_iter(command) {
        let group = |i: usize| c.get(i).map(|m| m.as_str());
        let (append, path) = match (group(2), group(4), group(7)) {
            (Some(p), _, _) => (group(1) == Some(">>"), p),
            (_, Some(p), _) => (group(3).is_some(), p),
            (_, _, Some(p)) => (group(6) == Some(">>"), p),
            _ => continue,
        };
        let (Some(delimiter), Some(whole)) = (group(5), c.get(0)) else {
            continue;
        };
        let rest = &command[whole.end()..];
        // `split_inclusive` keeps each line's own ending, so the offsets
        // stay on character boundaries whatever the line endings.
        let end = rest
            .split_inclusive('\n')
            .scan(0, |at, line| {
                let start = *at;
                *at += line.len();
                Some((start, line))
            })
            .find(|(_, line)| line.trim() == delimiter)
            .map_or(rest.len(), |(start, _)| start);
        let body = &rest[..end];
        out.push(FileChange {
            path: path.trim_matches(['"', '\'']).to_string(),
            action: if append {
                Action::Edited
            } else {
                Action::Written
            },
            excerpt: None,
            symbols: symbols(&[body]),
            settings: settings(&[body]),
            verdicts: verdicts(&[body]),
        });
    }
    out
}

/// The changes of a `*** Begin Patch` envelope, one per file section.
fn patch_changes(patch: &str) -> Vec<FileChange> {
    let mut out: Vec<FileChange> = Vec::new();
    let mut removed: Vec<&str> = Vec::new();
    let mut added: Vec<&str> = Vec::new();
    let flush = |out: &mut Vec<FileChange>, removed: &mut Vec<&str>, added: &mut Vec<&str>| {
        if let Some(last) = out.last_mut() {
            last.excerpt = excerpt(&removed.join("\n"), &added.join("\n"));
            last.symbols = symbols(&[&added.join("\n")]);
            last.settings = settings(&[&added.join("\n")]);
            last.verdicts = verdicts(&[&added.join("\n")]);
        }
        removed.clear();
        added.clear();
    };
    for line in patch.lines() {
        let header = [
            ("*** Add File: ", Action::Written),
            ("*** Update File: ", Action::Edited),
            ("*** Delete File: ", Action::Deleted),
        ]
        .into_iter()
        .find_map(|(prefix, action)| line.strip_prefix(prefix).map(|p| (p, action)));
        if let Some((path, action)) = header {
            flush(&mut out, &mut removed, &mut added);
            out.push(FileChange {
                path: path.trim().to_string(),
                action,
                excerpt: None,
                symbols: Vec::new(),
                settings: Vec::new(),
                verdicts: Vec::new(),
            });
        } else if let Some(l) = line.strip_prefix('+') {
            added.push(l);
        } else if let Some(l) = line.strip_prefix('-') {
            removed.push(l);
        }
    }
    flush(&mut out, &mut removed, &mut added);
    out
}

/// The first line that differs on each side, bounded; `None` when the
/// change is an insertion or removal of whole lines with nothing to show.
fn excerpt(old: &str, new: &str) -> Option<(String, String)> {
    let old_lines: Vec<&str> = old.lines().map(str::trim).collect();
    let new_lines: Vec<&str> = new.lines().map(str::trim).collect();
    let first_new = new_lines
        .iter()
        .find(|l| !l.is_empty() && !old_lines.contains(l));
    let first_old = old_lines
        .iter()
        .find(|l| !l.is_empty() && !new_lines.contains(l));
    if first_new.is_none() && first_old.is_none() {
        return None;
    }
    let side = |l: Option<&&str>| l.map(|s| cut(s, EXCERPT_CHARS)).unwrap_or_default();
    Some((side(first_old), side(first_new)))
}

/// `s` up to `chars` characters, an ellipsis marking a cut.
fn cut(s: &str, chars: usize) -> String {
    match s.char_indices().nth(chars) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

fn definition_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(concat!(
            r"(?m)^\s*(?:export\s+)?(?:default\s+)?(?:pub(?:\([a-z]+\))?\s+)?(?:async\s+)?",
            r"(?:fn|def|defp|defmodule|defmacro|class|struct|enum|trait|interface|type|function|module|impl|func)",
            // Go methods name their receiver first.
            r"\s+(?:\([^)]*\)\s*)?([A-Za-z_][A-Za-z0-9_.:!?]*)"
        ))
        .expect("static regex")
    })
}

fn setting_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(concat!(
            // A name set to a number or a boolean, or a declared constant
            // or module attribute set to a short string (a template's
            // `class="…"` is not a setting).
            r#"(?m)^\s*(?:(?:(?:pub\s+)?(?:const|static|let|var|final)\s+)?[A-Za-z_][A-Za-z0-9_]*(?:\s*:\s*[A-Za-z0-9_<>]+)?\s*(?::=|=)\s*(?:\d[\d_.]*|true|false)"#,
            r#"|(?:pub\s+)?(?:const|static|final)\s+[A-Za-z_][A-Za-z0-9_]*(?:\s*:\s*[A-Za-z0-9_<>&']+)?\s*(?::=|=)\s*"[^"\n]{1,40}""#,
            r#"|@[a-z_][A-Za-z0-9_]*\s+(?:\d[\d_.]*|true|false|"[^"\n]{1,40}"))\s*[;,]?\s*$"#
        ))
        .expect("static regex")
    })
}

/// Constants the texts set to a literal, as written (`limit = 500`), at most
/// [`SETTINGS`]: declared constants and top-level names first, a local
/// variable (`count := 0`, an indented `x = 1`) only where room is left.
fn settings(texts: &[&str]) -> Vec<String> {
    let mut found: Vec<(bool, String)> = Vec::new();
    for text in texts {
        for c in setting_re().captures_iter(text) {
            let whole = c.get(0).map_or("", |m| m.as_str());
            let whole = whole.trim_start_matches(['\n', '\r']);
            if whole.contains("@impl") || whole.contains("@doc") || whole.contains(":=") {
                continue;
            }
            let set = bounded(whole.trim().trim_end_matches([';', ',']).trim_end());
            let declared = !whole.starts_with([' ', '\t'])
                || ["const ", "static ", "final ", "@"]
                    .iter()
                    .any(|d| set.starts_with(d) || set.starts_with(&format!("pub {d}")));
            if !found.iter().any(|(_, s)| *s == set) {
                found.push((declared, set));
            }
        }
    }
    // Stable: first seen first within each group.
    found.sort_by_key(|(declared, _)| !declared);
    found.into_iter().take(SETTINGS).map(|(_, s)| s).collect()
}

/// A line that labels what it states: a list item, heading or bold label
/// whose last word names a decision, status or verdict, then `:` or a dash.
fn verdict_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(concat!(
            r"(?m)^[ \t]*(?:[-*+][ \t]+|#{1,6}[ \t]+|>[ \t]*)?(?:\*\*|__)?",
            r"(?:[A-Za-z0-9.]+[ \t]){0,3}",
            r"(?i:decision|status|verdict|conclusion|outcome|assessment|recommendation|resolution)s?",
            r"(?:\*\*|__)?[ \t]*(?::|—|–| - )(?:\*\*|__)?[ \t]*\S[^\n]{2,}$"
        ))
        .expect("static regex")
    })
}

/// The lines the texts label as a decision, status or verdict, first seen
/// first, at most [`VERDICTS`], each bounded: what a plan, a research note
/// or a review says was decided, which the file's symbols do not.
fn verdicts(texts: &[&str]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for text in texts {
        for m in verdict_re().find_iter(text) {
            let line = cut(m.as_str().trim(), VERDICT_CHARS);
            if out.len() < VERDICTS && !out.contains(&line) {
                out.push(line);
            }
        }
    }
    out
}

/// The names a file's text defines, for a file that was read: its
/// content as a read tool returns it, line numbers stripped.
pub fn symbols_read(content: &str) -> Vec<String> {
    let text: String = content
        .lines()
        .map(strip_line_number)
        .collect::<Vec<_>>()
        .join("\n");
    let mut names = symbols(&[&text]);
    names.truncate(READ_SYMBOLS);
    names
}

/// A read tool's line prefix (`   12→`, `12\t`, `12:`), if any.
fn strip_line_number(line: &str) -> &str {
    let trimmed = line.trim_start();
    let digits = trimmed.len()
        - trimmed
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .len();
    if digits == 0 {
        return line;
    }
    let rest = &trimmed[digits..];
    ["→", "\t", ":", "|"]
        .iter()
        .find_map(|sep| rest.strip_prefix(sep))
        .unwrap_or(line)
}

/// A binding that defines something: an exported one, or a function
/// bound to a name (`const load = async (`, `let f = function`).
fn binding_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(concat!(
            r"(?m)^\s*(?:export\s+(?:const|let|var)\s+([A-Za-z_$][A-Za-z0-9_$]*)",
            r"|(?:const|let|var)\s+([A-Za-z_$][A-Za-z0-9_$]*)\s*(?::[^=\n]+)?=\s*(?:async\s*)?(?:\([^)\n]*\)\s*(?::[^=\n]+)?=>|function(?-u:\b)|[A-Za-z_$][A-Za-z0-9_$]*\s*=>))"
        ))
        .expect("static regex")
    })
}

/// Names the texts define, first seen first, at most [`SYMBOLS`].
fn symbols(texts: &[&str]) -> Vec<String> {
    let mut found: Vec<(usize, String)> = Vec::new();
    for text in texts {
        let definitions = definition_re().captures_iter(text).filter_map(|c| c.get(1));
        let bindings = binding_re()
            .captures_iter(text)
            .filter_map(|c| c.get(1).or_else(|| c.get(2)));
        let mut here: Vec<(usize, String)> = definitions
            .chain(bindings)
            .map(|m| (m.start(), bounded(m.as_str().trim_end_matches([':', '.']))))
            .collect();
        here.sort();
        found.extend(here);
    }
    let mut out: Vec<String> = Vec::new();
    for (_, name) in found {
        if out.len() < SYMBOLS && !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_edit_gives_its_first_changed_lines_and_symbols() {
        let c = changes(&json!({
            "file_path": "lib/render.ex",
            "old_string": "  @visible 5\n  def render(x), do: x",
            "new_string": "  @visible 10\n  def render(x), do: x\n  defp trim(x), do: x"
        }));
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].action, Action::Edited);
        assert_eq!(
            c[0].excerpt,
            Some(("@visible 5".into(), "@visible 10".into()))
        );
        assert_eq!(c[0].symbols, vec!["render", "trim"]);
    }

    #[test]
    fn a_patch_gives_each_file_its_action() {
        let patch = "*** Begin Patch\n*** Update File: src/a.ts\n@@\n-const x = 1\n+const x = 2\n*** Add File: src/b.ts\n+export function b() {}\n*** Delete File: old.ts\n*** End Patch";
        let c = changes(&json!(patch));
        let actions: Vec<(&str, Action)> = c.iter().map(|c| (c.path.as_str(), c.action)).collect();
        assert_eq!(
            actions,
            vec![
                ("src/a.ts", Action::Edited),
                ("src/b.ts", Action::Written),
                ("old.ts", Action::Deleted)
            ]
        );
        assert_eq!(
            c[0].excerpt,
            Some(("const x = 1".into(), "const x = 2".into()))
        );
        assert_eq!(c[1].symbols, vec!["b"]);
    }

    #[test]
    fn go_methods_and_constant_settings_are_named() {
        let c = changes(
            &json!({"file_path": "x.go", "content": "package x\n\nconst (\n\tscanLimit = 500\n)\n\nfunc (s *Store) branchPoints(n int) error {\n\treturn nil\n}\n"}),
        );
        assert_eq!(c[0].symbols, vec!["branchPoints"]);
        assert_eq!(c[0].settings, vec!["scanLimit = 500"]);
        let ex = changes(
            &json!({"file_path": "a.ex", "old_string": "@visible 5", "new_string": "@visible 10\n  @impl true\n  <div class=\"row\">\n  name=\"comment\""}),
        );
        assert_eq!(ex[0].settings, vec!["@visible 10"]);
    }

    #[test]
    fn exported_bindings_and_arrow_functions_are_symbols() {
        let names = symbols_read(
            "  10\texport const fetchChat = async (\n  11\t  payload: Payload,\n  12\t) => {}\n  13\tconst build = (a: A): B => a\n  14\tconst limit = 5\n  15\texport const MODEL_MAP: Record<string, string> = {}\n",
        );
        assert_eq!(names, vec!["fetchChat", "build", "MODEL_MAP"]);
    }

    #[test]
    fn a_search_in_one_file_reads_it_and_one_in_a_folder_does_not() {
        let file = json!({"pattern": "debug", "path": "/repo/assets/site.css"});
        assert_eq!(file_read(&file).as_deref(), Some("/repo/assets/site.css"));
        for scope in [
            "/repo/assets",
            "/repo/assets/",
            "src/**/*.rs",
            "/repo/.github",
        ] {
            assert_eq!(
                file_read(&json!({"pattern": "x", "path": scope})),
                None,
                "{scope}"
            );
        }
        assert_eq!(
            file_read(&json!({"file_path": "Makefile"})).as_deref(),
            Some("Makefile")
        );
    }

    #[test]
    fn a_whole_file_is_not_kept_only_its_symbols() {
        let c = changes(
            &json!({"file_path": "a.py", "content": "import os\n\nclass Loader:\n    def load(self):\n        pass\n"}),
        );
        assert_eq!(c[0].action, Action::Written);
        assert_eq!(c[0].excerpt, None);
        assert_eq!(c[0].symbols, vec!["Loader", "load"]);
    }

    #[test]
    fn a_written_document_keeps_the_lines_it_labels_a_decision_or_verdict() {
        let doc = "# Research\n\n## Queues\n- Decision: Use one queue per worker pool, capped at 8.\n\
                   - Rationale: fewer moving parts.\n\n**Gate Status**: PASS WITH NOTE — no rules yet.\n\
                   ### 6.1 Overall Assessment: FEASIBLE\n\
                   The status of the build is unknown.\nStatus:\n";
        let c = changes(&json!({"file_path": "docs/research.md", "content": doc}));
        assert_eq!(
            c[0].verdicts,
            vec![
                "- Decision: Use one queue per worker pool, capped at 8.",
                "**Gate Status**: PASS WITH NOTE — no rules yet.",
                "### 6.1 Overall Assessment: FEASIBLE",
            ]
        );
        // Prose that mentions a status, and a label with nothing after it, are not verdicts.
        let prose = changes(
            &json!({"file_path": "n.md", "content": "The status of the build is unknown.\nStatus:\n"}),
        );
        assert!(prose[0].verdicts.is_empty(), "{:?}", prose[0].verdicts);
    }

    #[test]
    fn a_heredoc_a_command_writes_is_a_file_written() {
        let c = heredoc_writes(
            "cat <<'EOF' > docs/notes.md\n# Notes\n- Decision: ship the queue at 8 workers.\nEOF\n\
             && cat > src/app.py <<EOF\ndef main():\n    pass\nEOF",
        );
        assert_eq!(c.len(), 2, "{c:?}");
        assert_eq!(
            (c[0].path.as_str(), c[0].action),
            ("docs/notes.md", Action::Written)
        );
        assert_eq!(
            c[0].verdicts,
            vec!["- Decision: ship the queue at 8 workers."]
        );
        assert_eq!(
            (c[1].path.as_str(), c[1].action),
            ("src/app.py", Action::Written)
        );
        assert_eq!(c[1].symbols, vec!["main"]);
        let crlf = heredoc_writes("cat > é.md <<EOF\r\n# Été\r\n- Status: done — ok\r\nEOF\r\n");
        assert_eq!(crlf[0].verdicts, vec!["- Status: done — ok"], "CRLF lines");
        let appended = heredoc_writes("tee -a log.txt <<'END'\nline\nEND");
        assert_eq!(
            (appended[0].path.as_str(), appended[0].action),
            ("log.txt", Action::Edited)
        );
        // A heredoc fed to a program, not written to a file, and a plain cat.
        assert!(heredoc_writes("python3 - <<'EOF'\nprint(1)\nEOF").is_empty());
        assert!(heredoc_writes("cat docs/notes.md").is_empty());
    }
}
