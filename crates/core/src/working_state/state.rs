//! Reading the digest off a head: one pass over the tool results in order,
//! each joined to its call and handled by the call's kind.

use std::collections::{BTreeMap, HashMap};

use serde_json::Value;

use super::exec::{self, Status};
use super::files::{self, Action, FileChange};
use super::kinds::{kind_of, ToolKind};
use super::{Entry, Section};
use crate::transcript::{value_text, Message, Part, PartRef, Role};

/// The most characters of a user's answer or a plan line kept verbatim.
const ANSWER_CHARS: usize = 1200;
/// The most lines of a plan written as prose (`ExitPlanMode`).
const PLAN_LINES: usize = 30;
/// The most characters kept of a document the user pointed the agent to.
const POINTED_CHARS: usize = 2500;

/// A call joined to its result.
struct Event<'a> {
    name: &'a str,
    args: &'a Value,
    kind: ToolKind,
    content: &'a Value,
    is_error: bool,
    at: PartRef,
}

#[derive(Default)]
struct FileState {
    path: String,
    written: usize,
    edits: usize,
    deleted: bool,
    reads: usize,
    last: Option<FileChange>,
    at: PartRef,
}

struct Command {
    line: String,
    status: Status,
    salient: Vec<String>,
    runs: usize,
    read_only: bool,
    at: PartRef,
}

struct Failure {
    key: String,
    what: String,
    at: PartRef,
    /// Paths written since the failure (what may have fixed it).
    written_since: Vec<String>,
    fixed: Option<String>,
}

#[derive(Default)]
struct Digest {
    /// What the user wrote so far: a command or file it names is one the
    /// user pointed the agent to.
    user_texts: Vec<String>,
    /// Documents the user pointed to: key, line, source.
    pointed: Vec<(String, String, PartRef)>,
    /// Running processes by session id → their command line.
    sessions: HashMap<String, String>,
    files: Vec<FileState>,
    commands: Vec<Command>,
    failures: Vec<Failure>,
    plan: Option<(Vec<String>, PartRef)>,
    tasks: Vec<(String, String)>,
    answers: Vec<(String, PartRef)>,
}

/// The fresh entries of a head, in section order.
pub fn digest(head: &[Message], overrides: &BTreeMap<String, ToolKind>) -> Vec<Entry> {
    let calls: HashMap<&str, (&str, &Value)> = head
        .iter()
        .flat_map(|m| m.tool_calls())
        .map(|(id, name, args)| (id, (name, args)))
        .collect();
    let mut d = Digest::default();
    for (mi, m) in head.iter().enumerate() {
        for (pi, p) in m.parts.iter().enumerate() {
            if let (Role::User, Part::Text(text)) = (m.role, &p.part) {
                if !crate::markers::is_compacted_head(text) {
                    d.user_texts.push(text.clone());
                }
            }
            let Part::ToolResult {
                id,
                name,
                content,
                is_error,
            } = &p.part
            else {
                continue;
            };
            let (name, args) = calls
                .get(id.as_str())
                .copied()
                .unwrap_or((name.as_str(), &Value::Null));
            d.add(&Event {
                name,
                args,
                kind: kind_of(name, args, overrides),
                content,
                is_error: *is_error,
                at: PartRef::new(mi, pi),
            });
        }
    }
    d.entries()
}

impl Digest {
    fn add(&mut self, e: &Event<'_>) {
        match e.kind {
            ToolKind::Exec => self.exec(e),
            ToolKind::Write => self.write(e),
            ToolKind::Read => self.read(e),
            ToolKind::Plan => self.plan(e),
            ToolKind::Ask => self.ask(e),
            _ if e.is_error => self.failed(e, e.name.to_string(), e.name),
            _ => {}
        }
    }

    fn exec(&mut self, e: &Event<'_>) {
        let outcome = exec::outcome(e.content, e.is_error);
        let started = exec::command_line(e.args).map(|l| exec::bounded(&l.replace('\n', " ⏎ ")));
        let poll = started.is_none();
        // A poll of a running process reports on the command that started it.
        let Some(line) = started
            .or_else(|| exec::polled_session(e.args).and_then(|s| self.sessions.get(&s).cloned()))
        else {
            return;
        };
        if let Some(session) = &outcome.session {
            self.sessions.insert(session.clone(), line.clone());
        }
        let names_a_file = exec::read_only(&line)
            && line
                .split(|c: char| c.is_whitespace() || c == '\'' || c == '"')
                .any(|w| self.user_names_file(w));
        if !poll && !outcome.status.failed() && (self.user_names(&line) || names_a_file) {
            self.point(format!("`{line}`"), &outcome.output, e.at);
        }
        let salient = exec::salient_lines(&outcome.output, outcome.status);
        if outcome.status == Status::Ok {
            self.resolve(&line, &format!("`{line}` → ok [m{}]", e.at.message));
        }
        if outcome.status.failed() {
            let what = command_text(&line, outcome.status, &salient);
            self.failures.push(Failure {
                key: line.clone(),
                what,
                at: e.at,
                written_since: Vec::new(),
                fixed: None,
            });
        }
        let read_only = exec::read_only(&line);
        match self.commands.iter_mut().find(|c| c.line == line) {
            Some(c) => {
                c.status = outcome.status;
                if !(poll && salient.is_empty()) {
                    c.salient = salient;
                }
                c.runs += usize::from(!poll);
                c.at = e.at;
            }
            None => self.commands.push(Command {
                line,
                status: outcome.status,
                salient,
                runs: 1,
                read_only,
                at: e.at,
            }),
        }
    }

    /// Failures of `key` a success fixes, naming what was written between.
    fn resolve(&mut self, key: &str, how: &str) {
        for f in self
            .failures
            .iter_mut()
            .filter(|f| f.fixed.is_none() && f.key == key)
        {
            let edits = if f.written_since.is_empty() {
                String::new()
            } else {
                format!(" after changes to {}", f.written_since.join(", "))
            };
            f.fixed = Some(format!("{how}{edits}"));
        }
    }

    fn write(&mut self, e: &Event<'_>) {
        let changes = files::changes(e.args);
        if e.is_error {
            let path = changes.first().map(|c| c.path.clone()).unwrap_or_default();
            self.failed(e, format!("{} {path}", e.name), e.name);
            return;
        }
        for c in changes {
            let key = format!("{} {}", e.name, c.path);
            self.resolve(
                &key,
                &format!("{} {} ok [m{}]", e.name, c.path, e.at.message),
            );
            for f in self.failures.iter_mut().filter(|f| f.fixed.is_none()) {
                if !f.written_since.contains(&c.path) {
                    f.written_since.push(c.path.clone());
                }
            }
            let file = self.file(&c.path);
            match c.action {
                Action::Written => file.written += 1,
                Action::Edited => file.edits += 1,
                Action::Deleted => file.deleted = true,
            }
            file.at = e.at;
            file.last = Some(c);
        }
    }

    fn read(&mut self, e: &Event<'_>) {
        if e.is_error {
            self.failed(e, format!("{} {}", e.name, e.args), e.name);
            return;
        }
        if let Some(path) = files::file_read(e.args) {
            if self.user_names_file(&path) {
                self.point(path.clone(), &value_text(e.content), e.at);
            }
            let file = self.file(&path);
            file.reads += 1;
            if file.last.is_none() {
                file.at = e.at;
            }
        }
    }

    /// Whether the user's text so far names `text` (a command line).
    fn user_names(&self, text: &str) -> bool {
        text.len() >= 6 && self.user_texts.iter().any(|u| u.contains(text))
    }

    /// Whether the user's text names the file at `path` (its file name,
    /// when that is distinctive: it has an extension).
    fn user_names_file(&self, path: &str) -> bool {
        let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
        name.len() >= 5 && name.contains('.') && self.user_names(name)
    }

    /// Keep what a pointed-to command or file returned, the latest per key.
    fn point(&mut self, key: String, output: &str, at: PartRef) {
        let text = output.trim().replace("\r\n", "\n").replace('\n', " ⏎ ");
        if text.is_empty() {
            return;
        }
        let text = match text.char_indices().nth(POINTED_CHARS) {
            Some((cut, _)) => format!("{}… (cut; read it again for the rest)", &text[..cut]),
            None => text,
        };
        let line = format!("- {key} [m{}]: {text}", at.message);
        self.pointed.retain(|(k, _, _)| *k != key);
        self.pointed.push((key, line, at));
    }

    fn file(&mut self, path: &str) -> &mut FileState {
        let i = match self.files.iter().position(|f| f.path == path) {
            Some(i) => i,
            None => {
                self.files.push(FileState {
                    path: path.to_string(),
                    ..FileState::default()
                });
                self.files.len() - 1
            }
        };
        &mut self.files[i]
    }

    /// A failed call that is not a command: its first lines.
    fn failed(&mut self, e: &Event<'_>, key: String, tool: &str) {
        let text = value_text(e.content);
        let first: Vec<&str> = text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .take(2)
            .collect();
        let target = files::path_of(e.args)
            .map(|p| format!(" {p}"))
            .unwrap_or_default();
        self.failures.push(Failure {
            key,
            what: format!(
                "{tool}{target} failed: {}",
                exec::bounded(&first.join(" | "))
            ),
            at: e.at,
            written_since: Vec::new(),
            fixed: None,
        });
    }

    fn plan(&mut self, e: &Event<'_>) {
        if let Some(lines) = plan_lines(e.name, e.args, &mut self.tasks) {
            self.plan = Some((lines, e.at));
        }
    }

    fn ask(&mut self, e: &Event<'_>) {
        let questions = question_text(e.args);
        let answer = value_text(e.content);
        let line = format!(
            "- asked: {} — answered: {} [m{}]",
            exec::bounded(&questions),
            verbatim(&answer),
            e.at.message
        );
        self.answers.push((line, e.at));
    }

    fn entries(self) -> Vec<Entry> {
        let mut out = Vec::new();
        if let Some((lines, at)) = &self.plan {
            out.extend(lines.iter().enumerate().map(|(i, l)| Entry {
                section: Section::Plan,
                key: format!("plan {i}"),
                line: format!("{l} [m{}]", at.message),
                at: *at,
                rank: 0,
            }));
        }
        for (i, (line, at)) in self.answers.iter().enumerate() {
            out.push(entry(
                Section::Answers,
                format!("answer {i}"),
                line.clone(),
                *at,
                0,
            ));
        }
        for (key, line, at) in &self.pointed {
            out.push(entry(Section::Pointed, key.clone(), line.clone(), *at, 0));
        }
        for f in &self.failures {
            out.push(failure_entry(f));
        }
        out.extend(self.files.iter().map(file_entry));
        out.extend(self.commands.iter().map(command_entry));
        out
    }
}

fn entry(section: Section, key: String, line: String, at: PartRef, rank: u8) -> Entry {
    Entry {
        section,
        key,
        line,
        at,
        rank,
    }
}

fn failure_entry(f: &Failure) -> Entry {
    let how = match &f.fixed {
        Some(how) => format!("; fixed: {how}"),
        None => "; not fixed yet".to_string(),
    };
    let line = format!("- {} [m{}]{how}", f.what, f.at.message);
    let rank = if f.fixed.is_some() { 1 } else { 0 };
    entry(
        Section::Errors,
        format!("{} m{}", f.key, f.at.message),
        line,
        f.at,
        rank,
    )
}

fn file_entry(f: &FileState) -> Entry {
    let mut what: Vec<String> = Vec::new();
    if f.deleted {
        what.push("deleted".into());
    }
    if f.written > 0 {
        what.push(times("written", f.written));
    }
    if f.edits > 0 {
        what.push(times("edited", f.edits));
    }
    if f.reads > 0 {
        what.push(times("read", f.reads));
    }
    let mut line = format!("- {}: {}", f.path, what.join(", "));
    if let Some(c) = &f.last {
        if !c.symbols.is_empty() {
            line.push_str(&format!("; defines {}", c.symbols.join(", ")));
        }
        if !c.settings.is_empty() {
            line.push_str(&format!("; sets {}", c.settings.join(", ")));
        }
        if let Some((old, new)) = &c.excerpt {
            line.push_str(&format!("; last change `{old}` → `{new}`"));
        }
    }
    line.push_str(&format!(" [m{}]", f.at.message));
    let rank = if f.last.is_some() { 1 } else { 2 };
    entry(Section::Files, f.path.clone(), line, f.at, rank)
}

fn times(what: &str, n: usize) -> String {
    if n == 1 {
        what.to_string()
    } else {
        format!("{what} {n}×")
    }
}

fn command_entry(c: &Command) -> Entry {
    let mut line = format!("- {}", command_text(&c.line, c.status, &c.salient));
    if c.runs > 1 {
        line.push_str(&format!(" ({} runs)", c.runs));
    }
    line.push_str(&format!(" [m{}]", c.at.message));
    let rank = if c.read_only && !c.status.failed() {
        3
    } else {
        1
    };
    entry(Section::Commands, c.line.clone(), line, c.at, rank)
}

fn command_text(line: &str, status: Status, salient: &[String]) -> String {
    let mut text = format!("`{line}` → {}", status.describe());
    if !salient.is_empty() {
        text.push_str(&format!(": {}", salient.join(" | ")));
    }
    text
}

/// The key of a carried line: the path of a file line, the command of a
/// command line, the line itself otherwise.
pub fn key_of_line(section: Section, line: &str) -> String {
    let body = line.strip_prefix("- ").unwrap_or(line);
    match section {
        Section::Files => body.split(": ").next().unwrap_or(body).to_string(),
        Section::Commands => body
            .strip_prefix('`')
            .and_then(|b| b.split("` → ").next())
            .unwrap_or(body)
            .to_string(),
        Section::Pointed => body.split(" [m").next().unwrap_or(body).to_string(),
        _ => body.to_string(),
    }
}

/// Carried lines rank as their section's best fresh lines.
pub fn rank_of_carried(section: Section) -> u8 {
    match section {
        Section::Plan | Section::Answers | Section::Pointed | Section::Errors => 0,
        Section::Files | Section::Commands => 1,
    }
}

/// A plan call's lines: a todo list, a plan's steps, a plan as prose, or
/// the task list a task call updates.
fn plan_lines(name: &str, args: &Value, tasks: &mut Vec<(String, String)>) -> Option<Vec<String>> {
    let status_line = |item: &Value, text_keys: &[&str]| {
        let text = text_keys
            .iter()
            .find_map(|k| item.get(*k).and_then(Value::as_str))
            .unwrap_or("");
        let status = item.get("status").and_then(Value::as_str).unwrap_or("");
        format!("- [{status}] {}", verbatim(text))
    };
    if let Some(items) = ["todos", "plan", "tasks"]
        .iter()
        .find_map(|k| args.get(*k).and_then(Value::as_array))
    {
        let mut lines: Vec<String> = items
            .iter()
            .map(|i| status_line(i, &["content", "step", "title", "description"]))
            .collect();
        if let Some(why) = args.get("explanation").and_then(Value::as_str) {
            lines.insert(0, format!("- why: {}", verbatim(why)));
        }
        return Some(lines);
    }
    if let Some(text) = args.get("plan").and_then(Value::as_str) {
        return Some(
            text.lines()
                .filter(|l| !l.trim().is_empty())
                .take(PLAN_LINES)
                .map(|l| format!("- {}", verbatim(l.trim())))
                .collect(),
        );
    }
    task_update(name, args, tasks)
}

/// Claude Code's task tools: a created task by subject, an update by id.
fn task_update(name: &str, args: &Value, tasks: &mut Vec<(String, String)>) -> Option<Vec<String>> {
    let text = |k: &str| args.get(k).and_then(Value::as_str).map(str::to_string);
    if let Some(subject) = text("subject") {
        tasks.push((subject, "pending".into()));
    } else if let (Some(id), Some(status)) = (text("taskId"), text("status")) {
        let i = id.parse::<usize>().ok()?.checked_sub(1)?;
        if let Some(t) = tasks.get_mut(i) {
            t.1 = status;
        }
    } else {
        let _ = name;
        return None;
    }
    Some(
        tasks
            .iter()
            .map(|(subject, status)| format!("- [{status}] {}", verbatim(subject)))
            .collect(),
    )
}

/// The questions of an ask call.
fn question_text(args: &Value) -> String {
    if let Some(q) = args.get("question").and_then(Value::as_str) {
        return q.to_string();
    }
    args.get("questions")
        .and_then(Value::as_array)
        .map(|qs| {
            qs.iter()
                .filter_map(|q| q.get("question").and_then(Value::as_str))
                .collect::<Vec<_>>()
                .join(" / ")
        })
        .unwrap_or_default()
}

/// A user's or plan's words on one line, bounded generously.
fn verbatim(s: &str) -> String {
    let one_line = s.split_whitespace().collect::<Vec<_>>().join(" ");
    match one_line.char_indices().nth(ANSWER_CHARS) {
        Some((cut, _)) => format!("{}…", &one_line[..cut]),
        None => one_line,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::Role;
    use serde_json::json;

    fn turn(id: &str, name: &str, args: Value, result: Value, is_error: bool) -> Vec<Message> {
        vec![
            Message::new(
                Role::Assistant,
                vec![Part::ToolCall {
                    id: id.into(),
                    name: name.into(),
                    args,
                }],
            ),
            Message::new(
                Role::User,
                vec![Part::ToolResult {
                    id: id.into(),
                    name: name.into(),
                    content: result,
                    is_error,
                }],
            ),
        ]
    }

    fn lines(head: &[Message]) -> Vec<String> {
        digest(head, &BTreeMap::new())
            .into_iter()
            .map(|e| e.line)
            .collect()
    }

    #[test]
    fn an_error_is_kept_with_what_fixed_it() {
        let mut head = turn(
            "1",
            "Bash",
            json!({"command": "mix test"}),
            json!("Exit code 1\n** (CompileError) lib/a.ex:3: undefined function foo/0"),
            true,
        );
        head.extend(turn(
            "2",
            "Edit",
            json!({"file_path": "lib/a.ex", "old_string": "foo()", "new_string": "bar()"}),
            json!("ok"),
            false,
        ));
        head.extend(turn(
            "3",
            "Bash",
            json!({"command": "mix test"}),
            json!("Compiling 2 files\n....\n12 tests, 0 failures\nRandomized with seed 1"),
            false,
        ));
        let got = lines(&head);
        assert_eq!(
            got[0],
            "- `mix test` → exit 1: ** (CompileError) lib/a.ex:3: undefined function foo/0 [m1]; fixed: `mix test` → ok [m5] after changes to lib/a.ex"
        );
        assert!(got.contains(&"- lib/a.ex: edited; last change `foo()` → `bar()` [m3]".to_string()));
        assert!(got.contains(&"- `mix test` → ok: 12 tests, 0 failures (2 runs) [m5]".to_string()));
    }

    #[test]
    fn the_latest_plan_wins_and_answers_are_verbatim() {
        let mut head = turn(
            "1",
            "TodoWrite",
            json!({"todos": [{"content": "Write the parser", "status": "in_progress"}]}),
            json!("Todos have been modified successfully."),
            false,
        );
        head.extend(turn(
            "2",
            "TodoWrite",
            json!({"todos": [{"content": "Write the parser", "status": "completed"}, {"content": "Add tests", "status": "pending"}]}),
            json!("Todos have been modified successfully."),
            false,
        ));
        head.extend(turn(
            "3",
            "AskUserQuestion",
            json!({"questions": [{"question": "Which storage?"}]}),
            json!("User has answered: SQLite, and keep it in one file"),
            false,
        ));
        let got = lines(&head);
        assert_eq!(
            got,
            vec![
                "- [completed] Write the parser [m3]",
                "- [pending] Add tests [m3]",
                "- asked: Which storage? — answered: User has answered: SQLite, and keep it in one file [m5]",
            ]
        );
    }

    #[test]
    fn a_poll_reports_on_the_command_that_started_the_process() {
        let mut head = turn(
            "1",
            "exec_command",
            json!({"cmd": "npm test"}),
            json!("Chunk ID: a\nWall time: 1.0 seconds\nProcess running with session ID 42\nOriginal token count: 0\nOutput:\n"),
            false,
        );
        head.extend(turn(
            "2",
            "write_stdin",
            json!({"session_id": 42, "chars": ""}),
            json!("Chunk ID: b\nWall time: 5.0 seconds\nProcess exited with code 1\nOriginal token count: 9\nOutput:\nFAIL src/a.test.ts\nTests: 1 failed, 3 passed\n"),
            false,
        ));
        let got = lines(&head);
        assert!(
            got.contains(
                &"- `npm test` → exit 1: FAIL src/a.test.ts | Tests: 1 failed, 3 passed [m3]"
                    .to_string()
            ),
            "{got:?}"
        );
        assert_eq!(
            got.iter().filter(|l| l.contains("npm test")).count(),
            2,
            "the error and the command: {got:?}"
        );
    }

    #[test]
    fn what_the_user_pointed_to_is_kept_verbatim() {
        let mut head = vec![Message::new(
            Role::User,
            vec![Part::Text(
                "Run bd show ep-7 for the spec, and read NOTES.md too.".into(),
            )],
        )];
        head.extend(turn(
            "1",
            "Bash",
            json!({"command": "bd show ep-7"}),
            json!("EPIC ep-7\nAcceptance: first 10 lines by default"),
            false,
        ));
        head.extend(turn(
            "2",
            "Read",
            json!({"file_path": "/repo/NOTES.md"}),
            json!("Never edit generated files."),
            false,
        ));
        head.extend(turn(
            "3",
            "Bash",
            json!({"command": "bd ready"}),
            json!("ep-7.1"),
            false,
        ));
        let got = lines(&head);
        assert!(
            got.contains(
                &"- `bd show ep-7` [m2]: EPIC ep-7 ⏎ Acceptance: first 10 lines by default"
                    .to_string()
            ),
            "{got:?}"
        );
        assert!(
            got.contains(&"- /repo/NOTES.md [m4]: Never edit generated files.".to_string()),
            "{got:?}"
        );
        assert!(
            !got.iter().any(|l| l.starts_with("- `bd ready` [m")),
            "not pointed to: {got:?}"
        );
    }

    #[test]
    fn reads_list_the_path_not_the_content() {
        let head = turn(
            "1",
            "Read",
            json!({"file_path": "src/main.rs"}),
            json!("     1\tfn main() {}\n"),
            false,
        );
        assert_eq!(lines(&head), vec!["- src/main.rs: read [m1]"]);
    }
}
