//! Shell commands and what they returned: the command line, the exit
//! status (from Codex's metadata or `Process exited with code N`, Claude
//! Code's `Exit code N` on an error result), and the output lines worth
//! keeping: test counts, and a failure's error lines.

use std::sync::OnceLock;

use regex::Regex;
use serde_json::Value;

use crate::transcript::value_text;

/// The most characters of a command or an output line the digest keeps.
pub const LINE_CHARS: usize = 200;
/// The most output lines a failed command keeps.
const ERROR_LINES: usize = 4;

/// How a command ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Exit code 0, or a result not marked as an error.
    Ok,
    /// A non-zero exit code, when known.
    Failed(Option<i64>),
    /// Still running when the result was written.
    Running,
    /// Exit 0 from a pipe whose output reports errors: its last stage
    /// (`| tail`, `| head`) hid the status of the stage that failed.
    Reported,
}

impl Status {
    pub fn failed(self) -> bool {
        matches!(self, Status::Failed(_) | Status::Reported)
    }

    pub fn describe(self) -> String {
        match self {
            Status::Ok => "ok".into(),
            Status::Failed(Some(code)) => format!("exit {code}"),
            Status::Failed(None) => "failed".into(),
            Status::Running => "still running".into(),
            Status::Reported => "exit 0 through a pipe, but the output reports errors".into(),
        }
    }
}

/// What a command returned.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub status: Status,
    /// The command's own output, without the harness's wrapper lines.
    pub output: String,
    /// The session a still-running process can be polled in (Codex's
    /// `write_stdin`), when the harness names one.
    pub session: Option<String>,
}

/// The session a poll of a running process reads (Codex's `write_stdin`).
pub fn polled_session(args: &Value) -> Option<String> {
    match args.get("session_id")? {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// The command line of an exec call: `command` or `cmd` as a string, or an
/// argv array (`["bash", "-lc", "…"]` gives the script).
pub fn command_line(args: &Value) -> Option<String> {
    let raw = ["command", "cmd"].iter().find_map(|k| args.get(*k))?;
    let line = match raw {
        Value::String(s) => s.clone(),
        Value::Array(items) => {
            let words: Vec<&str> = items.iter().filter_map(Value::as_str).collect();
            match words.as_slice() {
                [shell, flag, script] if is_shell(shell) && flag.starts_with('-') => {
                    script.to_string()
                }
                _ => words.join(" "),
            }
        }
        _ => return None,
    };
    let line = line.trim();
    (!line.is_empty()).then(|| line.to_string())
}

fn is_shell(program: &str) -> bool {
    matches!(
        program.rsplit('/').next().unwrap_or(program),
        "bash" | "sh" | "zsh"
    )
}

/// A tool result's outcome as an exec result.
pub fn outcome(content: &Value, is_error: bool) -> Outcome {
    let text = blocks_text(content);
    let json = text
        .trim_start()
        .starts_with('{')
        .then(|| serde_json::from_str::<Value>(&text).ok())
        .flatten();
    if let Some(Value::Object(map)) = json {
        if let Some(output) = map.get("output").map(value_text) {
            let code = map
                .get("metadata")
                .and_then(|m| m.get("exit_code"))
                .and_then(Value::as_i64);
            return Outcome {
                status: status_of(code, is_error),
                output,
                session: None,
            };
        }
    }
    let (code, session, output) = unwrap_harness(&text);
    let status = match (&session, code) {
        (Some(_), None) => Status::Running,
        _ => status_of(code, is_error),
    };
    Outcome {
        status,
        output,
        session,
    }
}

fn status_of(code: Option<i64>, is_error: bool) -> Status {
    match code {
        Some(0) => Status::Ok,
        Some(c) => Status::Failed(Some(c)),
        None if is_error => Status::Failed(None),
        None => Status::Ok,
    }
}

/// Content blocks joined into their text.
fn blocks_text(content: &Value) -> String {
    match content {
        Value::Array(items) if items.iter().all(|b| b.get("type").is_some()) => items
            .iter()
            .filter_map(|b| b.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        other => value_text(other),
    }
}

/// The exit code, the session of a process still running, and the output
/// after the harness's own lines (Codex's `Chunk ID`/`Wall time`/`Output:`
/// header, Claude Code's `Exit code N`).
fn unwrap_harness(text: &str) -> (Option<i64>, Option<String>, String) {
    let mut code = None;
    let mut session = None;
    let mut body = text;
    if let Some(rest) = text.strip_prefix("Exit code ") {
        let (n, after) = rest.split_once('\n').unwrap_or((rest, ""));
        code = n.trim().parse().ok();
        body = after;
    }
    if text.starts_with("Chunk ID:") || text.starts_with("Wall time:") {
        let (header, after) = text.split_once("\nOutput:\n").unwrap_or((text, ""));
        for line in header.lines() {
            if let Some(n) = line.strip_prefix("Process exited with code ") {
                code = n.trim().parse().ok();
            }
            if let Some(id) = line.strip_prefix("Process running with session ID ") {
                session = Some(id.trim().to_string());
            }
        }
        body = after;
    }
    (code, session, body.to_string())
}

/// Whether a line reports a test run's counts (`84 tests, 0 failures`).
pub fn reports_test_counts(line: &str) -> bool {
    test_count_re().is_match(line)
}

fn test_count_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"(?i)(?-u:\b)\d+ (tests?|passed|failed|failures?|errors?|examples?|skipped|specs?|assertions?|suites?)(?-u:\b)|(?-u:\b)test result:|^\s*tests?:\s")
            .expect("static regex")
    })
}

fn error_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"(?i)error|exception|traceback|fail|fatal|panic|not found|no such file|cannot|can't|denied|invalid|undefined|refused|timed out|not permitted|unknown|missing|expected")
            .expect("static regex")
    })
}

/// A line that reports an error or a failure: in so many words (a
/// compiler's `error:`, a test runner's `FAIL`, a task's `failed`) or as a
/// diagnostic at a file position; not a count of none (`0 failed`).
fn reports_error_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(concat!(
            r"(?i)(?-u:\b)(?:errors?|failed|failures?|fatal|panicked|traceback)(?-u:\b)|^(?:--- )?FAIL(?-u:\b)",
            // A compiler's or linter's diagnostic: `src/a.go:61:23: message`.
            r"|^\s*[\w./-]+\.\w+:\d+:\d+: \S"
        ))
        .expect("static regex")
    })
}

fn reports_none_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"(?i)(?-u:\b)(?:0|no|zero) (?:errors?|failed|failures?)(?-u:\b)")
            .expect("static regex")
    })
}

/// The stages of a command line, split at `|`, `;`, `&&`, `||` and line
/// ends outside quotes, each with whether a pipe feeds it from the stage
/// before.
fn stages(command: &str) -> Vec<(bool, &str)> {
    let bytes = command.as_bytes();
    let mut out = Vec::new();
    let (mut start, mut piped, mut quote) = (0, false, None::<u8>);
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match (quote, b) {
            (Some(q), _) if b == q => quote = None,
            (Some(_), _) => {}
            (None, b'\'' | b'"') => quote = Some(b),
            (None, b'|' | b'&' | b';' | b'\n') => {
                let double = bytes.get(i + 1) == Some(&b);
                if b == b'&' && !double {
                    i += 1;
                    continue;
                }
                out.push((piped, command[start..i].trim()));
                piped = b == b'|' && !double;
                i += usize::from(double);
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    out.push((piped, command[start..].trim()));
    out.retain(|(_, s)| !s.is_empty());
    out
}

/// What makes two runs the same command: the command before a pipe into
/// a filter (`go test ./... 2>&1 | tail -5` is `go test ./...`).
pub fn command_key(command: &str) -> String {
    let all = stages(command);
    // The stages from the first pipe on, when every one is a filter.
    let filters = all
        .iter()
        .position(|(piped, _)| *piped)
        .filter(|&at| all[at..].iter().all(|(piped, s)| *piped && read_only(s)));
    let first = match filters {
        Some(at) => all[..at]
            .iter()
            .map(|(_, s)| *s)
            .collect::<Vec<_>>()
            .join(" && "),
        None => return command.trim().to_string(),
    };
    first.trim_end_matches("2>&1").trim_end().to_string()
}

/// The status of `command` with what its output says: a pipe that exits 0
/// while its output reports errors is [`Status::Reported`]. A read-only
/// command's matches (`rg error`) are its findings, not its failure.
pub fn with_output(command: &str, status: Status, output: &str) -> Status {
    let piped = stages(command).iter().any(|(piped, _)| *piped);
    let reports = || {
        output
            .lines()
            .any(|l| reports_error_re().is_match(l) && !reports_none_re().is_match(l))
    };
    if status == Status::Ok && piped && !read_only(command) && reports() {
        Status::Reported
    } else {
        status
    }
}

/// The output lines worth keeping: test counts always; for a failure its
/// error lines (or its last lines when none reads as an error); a short
/// output whole.
pub fn salient_lines(output: &str, status: Status) -> Vec<String> {
    let lines: Vec<&str> = output
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let short = lines.len() <= 2 && output.len() <= LINE_CHARS;
    if short {
        return lines.iter().map(|l| bounded(l)).collect();
    }
    let mut out: Vec<String> = Vec::new();
    let push = |l: &str, out: &mut Vec<String>| {
        let l = bounded(l);
        if !out.contains(&l) {
            out.push(l);
        }
    };
    if status.failed() {
        let errors: Vec<&&str> = lines
            .iter()
            .filter(|l| error_re().is_match(l) || reports_error_re().is_match(l))
            .collect();
        let picked: Vec<&str> = if errors.is_empty() {
            lines.iter().rev().take(2).rev().copied().collect()
        } else {
            errors.iter().take(ERROR_LINES).map(|l| **l).collect()
        };
        picked.into_iter().for_each(|l| push(l, &mut out));
    }
    for l in lines.iter().filter(|l| test_count_re().is_match(l)).take(3) {
        push(l, &mut out);
    }
    out
}

/// A line cut to [`LINE_CHARS`].
pub fn bounded(s: &str) -> String {
    match s.char_indices().nth(LINE_CHARS) {
        Some((cut, _)) => format!("{}…", &s[..cut]),
        None => s.to_string(),
    }
}

/// Programs that only look at the work (their output can be had again):
/// a run of one is listed, its output is not kept unless it failed.
const READ_ONLY_PROGRAMS: &[&str] = &[
    "cat", "sed", "head", "tail", "less", "more", "rg", "grep", "ls", "find", "fd", "wc", "tree",
    "pwd", "nl", "stat", "file", "which", "du", "awk", "jq", "echo", "printf", "date",
];
const READ_ONLY_GIT: &[&str] = &["show", "diff", "log", "status", "grep", "blame", "branch"];

/// Whether a command only reads: every stage of its pipeline is a read-only
/// program (after `cd … &&` and environment assignments).
pub fn read_only(command: &str) -> bool {
    stages(command).into_iter().all(|(_, stage)| {
        let mut words = stage
            .split_whitespace()
            .skip_while(|w| w.contains('=') && !w.starts_with('-'));
        let program = words.next().unwrap_or("");
        let program = program.rsplit('/').next().unwrap_or(program);
        match program {
            "cd" => true,
            "git" => words.next().is_some_and(|sub| READ_ONLY_GIT.contains(&sub)),
            "sed" => !stage.contains(" -i"),
            p => READ_ONLY_PROGRAMS.contains(&p),
        }
    })
}

/// Programs that print a file's content.
const VIEWERS: &[&str] = &["cat", "sed", "head", "tail", "nl", "bat", "less", "more"];

/// The files a read-only command prints (`sed -n '1,80p' src/a.rs`,
/// `cat a.md | head`, `sed -n '1,9p' a.ts && sed -n '1,9p' b.ts`): the one
/// file each stage that runs a viewer names, when that stage names a single
/// file with an extension.
pub fn files_viewed(command: &str) -> Vec<String> {
    stages(command)
        .into_iter()
        .map(|(_, stage)| stage)
        .filter(|s| !s.starts_with("cd "))
        .filter_map(file_of_viewer)
        .fold(Vec::new(), |mut files, f| {
            if !files.contains(&f) {
                files.push(f);
            }
            files
        })
}

/// The one file a viewer stage prints, if it is a viewer on one file.
fn file_of_viewer(stage: &str) -> Option<String> {
    let words = shell_words(stage);
    let (program, args) = words.split_first()?;
    if !VIEWERS.contains(&program.rsplit('/').next().unwrap_or(program)) {
        return None;
    }
    let files: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .filter(|w| !w.starts_with('-') && !w.contains(['*', '?', '{', '$', ',']))
        .filter(|w| {
            let name = w.rsplit('/').next().unwrap_or(w);
            name.contains('.') && (!name.starts_with('.') || w.contains('/'))
        })
        .collect();
    match files.as_slice() {
        [one] => Some(one.to_string()),
        _ => None,
    }
}

/// A command stage's words as a shell splits them: quotes group, and are
/// dropped.
fn shell_words(stage: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quote: Option<char> = None;
    let mut any = false;
    for c in stage.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                any = true;
            }
            (None, c) if c.is_whitespace() => {
                if any || !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
                any = false;
            }
            (None, c) => word.push(c),
        }
    }
    if any || !word.is_empty() {
        words.push(word);
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_files_a_viewer_prints_are_named() {
        let viewed = |c: &str| files_viewed(c).join(" ");
        assert_eq!(viewed("cat 'LM Studio notes.md'"), "LM Studio notes.md");
        assert_eq!(
            viewed("sed -n '1,220p' components/chat/index.ts"),
            "components/chat/index.ts"
        );
        assert_eq!(viewed("cat 'Notes.md' | head -5"), "Notes.md");
        assert_eq!(
            viewed("cd x && sed -n '1,9p' a.ts && sed -n '1,9p' b/c.ts && cat a.ts"),
            "a.ts b/c.ts"
        );
        assert_eq!(viewed("rg -n foo src/a.rs"), "");
        assert_eq!(viewed("cat a.rs b.rs"), "");
        assert_eq!(viewed("head -20 *.log"), "");
    }

    #[test]
    fn codex_shell_output_gives_its_exit_code() {
        let o = outcome(
            &json!("{\"output\":\"bash: python: command not found\\n\",\"metadata\":{\"exit_code\":127,\"duration_seconds\":0.1}}"),
            false,
        );
        assert_eq!(o.status, Status::Failed(Some(127)));
        assert_eq!(o.output, "bash: python: command not found\n");
    }

    #[test]
    fn exec_command_headers_are_unwrapped() {
        let o = outcome(
            &json!("Chunk ID: 1\nWall time: 0.1 seconds\nProcess exited with code 1\nOriginal token count: 9\nOutput:\nzsh:1: operation not permitted: ps\n"),
            false,
        );
        assert_eq!(o.status, Status::Failed(Some(1)));
        assert_eq!(o.output, "zsh:1: operation not permitted: ps\n");
        let running = outcome(
            &json!("Chunk ID: 2\nWall time: 1.0 seconds\nProcess running with session ID 7\nOriginal token count: 0\nOutput:\n"),
            false,
        );
        assert_eq!(running.status, Status::Running);
        assert_eq!(running.session.as_deref(), Some("7"));
    }

    #[test]
    fn claude_code_error_results_give_their_exit_code() {
        let o = outcome(
            &json!("Exit code 2\nls: x: No such file or directory"),
            true,
        );
        assert_eq!(o.status, Status::Failed(Some(2)));
        assert_eq!(o.output, "ls: x: No such file or directory");
        assert_eq!(outcome(&json!("done"), false).status, Status::Ok);
    }

    #[test]
    fn a_failure_keeps_its_error_lines_and_a_test_run_its_counts() {
        let out = "compiling\nlib/a.ex:3: error: undefined function foo/0\nmore\nmore\n";
        assert_eq!(
            salient_lines(out, Status::Failed(Some(1))),
            vec!["lib/a.ex:3: error: undefined function foo/0"]
        );
        let run = "....\n....\nFinished in 2.1 seconds\n410 tests, 0 failures\n";
        assert_eq!(
            salient_lines(run, Status::Ok),
            vec!["410 tests, 0 failures"]
        );
        assert!(salient_lines("a\nb\nc\nd\n", Status::Ok).is_empty());
        assert_eq!(
            salient_lines("2025-11-12\n", Status::Ok),
            vec!["2025-11-12"]
        );
    }

    #[test]
    fn argv_commands_give_their_script() {
        let args = json!({"command": ["bash", "-lc", "rg -n foo src"]});
        assert_eq!(command_line(&args).as_deref(), Some("rg -n foo src"));
        assert_eq!(
            command_line(&json!({"cmd": "make test"})).as_deref(),
            Some("make test")
        );
    }

    #[test]
    fn a_pipe_that_hid_a_failure_is_reported() {
        let lint = "[lint] $ golangci-lint run\n2 issues:\n[lint] ERROR task failed";
        assert_eq!(
            with_output("mise run lint 2>&1 | head -30", Status::Ok, lint),
            Status::Reported
        );
        assert!(Status::Reported.failed());
        assert_eq!(
            salient_lines(lint, Status::Reported),
            vec!["[lint] ERROR task failed"]
        );
        let compiled =
            "# pkg/a\na/b_test.go:61:23: assignment mismatch: 2 variables\nhelp: see the docs\n";
        assert_eq!(
            with_output("go vet ./... 2>&1 | head", Status::Ok, compiled),
            Status::Reported
        );
        assert_eq!(
            salient_lines(compiled, Status::Reported),
            vec!["a/b_test.go:61:23: assignment mismatch: 2 variables"]
        );
        let passed = "ok  pkg/a 0.1s\nTests: 12 passed, 0 failed";
        for (command, output) in [
            ("go test ./... 2>&1 | tail -5", passed),
            ("go test ./... 2>&1", lint),
            (
                "rg -n error src | head",
                "src/a.rs:3: fn error_kind()  // error",
            ),
            ("make || echo failed", "failed"),
        ] {
            assert_eq!(
                with_output(command, Status::Ok, output),
                Status::Ok,
                "{command}"
            );
        }
    }

    #[test]
    fn stages_split_outside_quotes() {
        assert_eq!(
            stages("cd a && go test 2>&1 | grep -E 'FAIL|ok' | head; make || true\nls"),
            vec![
                (false, "cd a"),
                (false, "go test 2>&1"),
                (true, "grep -E 'FAIL|ok'"),
                (true, "head"),
                (false, "make"),
                (false, "true"),
                (false, "ls"),
            ]
        );
    }

    #[test]
    fn runs_through_a_filter_are_the_same_command() {
        for (command, key) in [
            ("go test ./... 2>&1 | tail -5", "go test ./..."),
            (
                "go test ./... 2>&1 | grep -E 'FAIL|ok' | head",
                "go test ./...",
            ),
            ("go test ./...", "go test ./..."),
            (
                "make || echo done | tee log.txt",
                "make || echo done | tee log.txt",
            ),
            ("cat a.txt | python3 fix.py", "cat a.txt | python3 fix.py"),
        ] {
            assert_eq!(command_key(command), key, "{command}");
        }
    }

    #[test]
    fn read_only_commands_are_told_apart() {
        assert!(read_only("cd src && sed -n '1,80p' a.rs"));
        assert!(read_only("rg -n foo | head -20"));
        assert!(read_only("git diff --stat"));
        assert!(!read_only("cargo test"));
        assert!(!read_only("sed -i 's/a/b/' x"));
        assert!(!read_only("git commit -m x"));
    }
}
