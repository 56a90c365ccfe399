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
/// Source files: one the user names is work to do (listed under files), and
/// its content is code the agent can re-read, not instructions. A document
/// or a config file the user names is what it says to follow.
const SOURCE_EXTENSIONS: &[&str] = &[
    "rs", "py", "go", "ts", "tsx", "js", "jsx", "mjs", "java", "kt", "c", "cc", "cpp", "h", "hpp",
    "cs", "rb", "ex", "exs", "swift", "php", "scala", "lua", "dart", "vue", "svelte",
];
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
    /// What every change defined and set, newest first: an early edit's
    /// function is as much the session's work as the last one's.
    symbols: Vec<String>,
    settings: Vec<String>,
    verdicts: Vec<String>,
    at: PartRef,
}

impl FileState {
    fn record(&mut self, c: &FileChange) {
        merge_newest(&mut self.symbols, &c.symbols, files::SYMBOLS);
        merge_newest(&mut self.settings, &c.settings, files::SETTINGS);
        merge_newest(&mut self.verdicts, &c.verdicts, files::VERDICTS);
    }
}

/// `newer` ahead of `into`, without repeats, at most `cap`.
fn merge_newest(into: &mut Vec<String>, newer: &[String], cap: usize) {
    if newer.is_empty() {
        return;
    }
    let mut merged: Vec<String> = newer.to_vec();
    merged.extend(into.drain(..).filter(|s| !newer.contains(s)));
    merged.truncate(cap);
    *into = merged;
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
    /// The output lines it was known by.
    said: String,
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
    names: super::names::Names,
}

/// The fresh entries of a head, in section order, and its outline.
pub fn digest(
    head: &[Message],
    overrides: &BTreeMap<String, ToolKind>,
) -> (Vec<Entry>, Vec<String>) {
    let calls: HashMap<&str, (&str, &Value)> = head
        .iter()
        .flat_map(|m| m.tool_calls())
        .map(|(id, name, args)| (id, (name, args)))
        .collect();
    let mut d = Digest::default();
    for (mi, m) in head.iter().enumerate() {
        for (pi, p) in m.parts.iter().enumerate() {
            d.read_names(m.role, &p.part, mi);
            if let (Role::User, Part::Text(text)) = (m.role, &p.part) {
                // An agent's own summary names what it did, not what the
                // user pointed to.
                if !crate::markers::is_compacted_head(text)
                    && !crate::markers::is_agent_summary(text)
                {
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
    let outline = d.outline();
    (d.entries(), outline)
}

/// What Claude Code returns when the user rejects a tool call; the words
/// the user gave with it follow [`USER_SAID`].
const REJECTED: &str = "The user doesn't want to proceed with this tool use.";
const USER_SAID: &str = "the user said:";

/// The user's words given with a rejected tool call: `Some("")` when it
/// was rejected without any.
fn rejection(text: &str) -> Option<&str> {
    if !text.contains(REJECTED) {
        return None;
    }
    Some(match text.find(USER_SAID) {
        Some(i) => text[i + USER_SAID.len()..].trim(),
        None => "",
    })
}

/// The most words of the user's latest request quoted in the outline.
const REQUEST_WORDS: usize = 40;
/// The most files the outline names.
const OUTLINE_NAMES: usize = 5;

impl Digest {
    /// Where the work stands, in whole sentences: the user's latest
    /// request, what was changed and run, what failed and what is open,
    /// and the plan's current and next step. The narrative's spine when
    /// nobody wrote one (the extractive job); a model's cue when one does.
    fn outline(&self) -> Vec<String> {
        let mut out = Vec::new();
        let request = self
            .user_texts
            .iter()
            .rev()
            .map(|t| t.trim())
            .find(|t| !t.is_empty() && !t.starts_with('<'));
        if let Some(text) = request {
            let words: Vec<&str> = text.split_whitespace().collect();
            let quoted = words[..words.len().min(REQUEST_WORDS)].join(" ");
            let more = if words.len() > REQUEST_WORDS {
                " …"
            } else {
                ""
            };
            out.push(format!("The user's latest request: \"{quoted}{more}\"."));
        }
        out.extend(self.files_sentence());
        out.extend(self.commands_sentence());
        out.extend(self.failures_sentences());
        out.extend(self.plan_sentences());
        out
    }

    fn files_sentence(&self) -> Option<String> {
        let changed: Vec<&FileState> = self
            .files
            .iter()
            .rev()
            .filter(|f| f.last.is_some())
            .collect();
        let read = self.files.len() - changed.len();
        if changed.is_empty() {
            return (read > 0).then(|| {
                format!(
                    "The agent has read {} and changed none yet.",
                    count(read, "file")
                )
            });
        }
        let names: Vec<String> = changed
            .iter()
            .take(OUTLINE_NAMES)
            .map(|f| format!("{} ({})", short_path(&f.path), change_words(f)))
            .collect();
        let also = match read {
            0 => String::new(),
            n => format!(
                ", and read {n} other {}",
                if n == 1 { "file" } else { "files" }
            ),
        };
        Some(format!(
            "The agent changed {}, most recently {}{also}.",
            count(changed.len(), "file"),
            names.join(", ")
        ))
    }

    fn commands_sentence(&self) -> Option<String> {
        let beyond = self.commands.iter().filter(|c| !c.read_only).count();
        let last = self.commands.iter().max_by_key(|c| c.at)?;
        let ran = if beyond == 0 {
            format!(
                "It ran {}, all read-only.",
                count(self.commands.len(), "command")
            )
        } else {
            format!(
                "It ran {}, {beyond} of them beyond reading.",
                count(self.commands.len(), "command")
            )
        };
        Some(format!(
            "{ran} The latest was `{}`, which ended {} [m{}].",
            exec::bounded(&last.line),
            last.status.describe(),
            last.at.message
        ))
    }

    fn failures_sentences(&self) -> Vec<String> {
        let fixed = self.failures.iter().filter(|f| f.fixed.is_some()).count();
        let open: Vec<&Failure> = self.failures.iter().filter(|f| f.fixed.is_none()).collect();
        let mut out = Vec::new();
        if fixed > 0 {
            let were = if fixed == 1 { "was" } else { "were" };
            out.push(format!(
                "{} {were} fixed along the way.",
                count(fixed, "error")
            ));
        }
        if let Some(latest) = open.last() {
            out.push(format!(
                "Still open: {}; the latest is {} [m{}].",
                count(open.len(), "error"),
                exec::bounded(latest.what.trim_end_matches('.')),
                latest.at.message
            ));
        }
        out
    }

    fn plan_sentences(&self) -> Vec<String> {
        let Some((lines, at)) = &self.plan else {
            return Vec::new();
        };
        let step = |status: &str| {
            lines
                .iter()
                .find_map(|l| l.strip_prefix(&format!("- [{status}] ")))
                .map(str::to_string)
        };
        let done = lines
            .iter()
            .filter(|l| l.starts_with("- [completed]"))
            .count();
        let mut out = vec![format!(
            "The plan [m{}] has {} steps, {done} done.",
            at.message,
            lines.len()
        )];
        if let Some(now) = step("in_progress") {
            out.push(format!("In progress: {}.", now.trim_end_matches('.')));
        }
        if let Some(next) = step("pending") {
            out.push(format!("Next step: {}.", next.trim_end_matches('.')));
        }
        out
    }

    /// Names carried by tool calls and results, and those the user and
    /// the assistant used again.
    fn read_names(&mut self, role: Role, part: &Part, message: usize) {
        match (role, part) {
            (_, Part::ToolCall { args, .. }) => self.names.call(&strings_of(args), message),
            (_, Part::ToolResult { content, .. }) => {
                self.names.evidence(&strings_of(content), message)
            }
            (_, Part::Text(text)) if !crate::markers::is_compacted_head(text) => {
                self.names.conversation(text, message)
            }
            (Role::Assistant, Part::Reasoning { text, .. }) => {
                self.names.conversation(text, message)
            }
            _ => {}
        }
    }

    fn add(&mut self, e: &Event<'_>) {
        if e.is_error {
            let text = value_text(e.content);
            if let Some(said) = rejection(&text) {
                self.rejected(e, said);
                return;
            }
        }
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
        let mut outcome = exec::outcome(e.content, e.is_error);
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
        outcome.status = exec::with_output(&line, outcome.status, &outcome.output);
        let names_a_file = exec::read_only(&line)
            && line
                .split(|c: char| c.is_whitespace() || c == '\'' || c == '"')
                .any(|w| self.user_names_file(w) && !self.agent_changed(w));
        if !poll && !outcome.status.failed() && (self.user_names(&line) || names_a_file) {
            self.point(format!("`{line}`"), &outcome.output, e.at);
        }
        if !outcome.status.failed() {
            // A poll brings the output of the command it polls: not
            // another read.
            self.viewed(&line, &outcome.output, e.at, !poll);
            if let Some(full) = exec::command_line(e.args) {
                self.changed(e, files::heredoc_writes(&full));
            }
        }
        let salient = exec::salient_lines(&outcome.output, outcome.status);
        if outcome.status == Status::Ok {
            let key = exec::command_key(&line);
            self.resolve(&key, &format!("`{line}` → ok [m{}]", e.at.message));
        }
        if outcome.status.failed() {
            let what = command_text(&line, outcome.status, &salient);
            let key = exec::command_key(&line);
            let said = salient.join("\n");
            // An unfixed failure of the same command that said the same is
            // this one again.
            self.failures
                .retain(|f| f.fixed.is_some() || f.key != key || f.said != said);
            self.failures.push(Failure {
                key,
                said,
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
        self.changed(e, changes);
    }

    /// Record what a call that succeeded did to files.
    fn changed(&mut self, e: &Event<'_>, changes: Vec<FileChange>) {
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
            file.record(&c);
            file.last = Some(c);
        }
    }

    fn read(&mut self, e: &Event<'_>) {
        if e.is_error {
            self.failed(e, format!("{} {}", e.name, e.args), e.name);
            return;
        }
        if let Some(path) = files::file_read(e.args) {
            if self.user_names_file(&path) && !self.agent_changed(&path) {
                self.point(path.clone(), &value_text(e.content), e.at);
            }
            self.names
                .file_content(&value_text(e.content), e.at.message);
            let file = self.file(&path);
            file.reads += 1;
            if file.last.is_none() {
                file.at = e.at;
                // Only a file the agent did not change: its own changes
                // name what it defined.
                merge_newest(
                    &mut file.symbols,
                    &files::symbols_read(&value_text(e.content)),
                    files::SYMBOLS,
                );
            }
        }
    }

    /// A command that printed files is a read of each. The names it
    /// defines are the file's only when it printed one file: the output of
    /// two cannot be told apart.
    fn viewed(&mut self, line: &str, output: &str, at: PartRef, is_read: bool) {
        let paths = exec::files_viewed(line);
        let symbols = match paths.as_slice() {
            [_] => files::symbols_read(output),
            _ => Vec::new(),
        };
        if !paths.is_empty() {
            self.names.file_content(output, at.message);
        }
        for path in &paths {
            let file = self.file(path);
            file.reads += usize::from(is_read);
            if file.last.is_none() {
                file.at = at;
                merge_newest(&mut file.symbols, &symbols, files::SYMBOLS);
            }
        }
    }

    /// Whether the user's text so far names `text` (a command line).
    fn user_names(&self, text: &str) -> bool {
        text.len() >= 6 && self.user_texts.iter().any(|u| u.contains(text))
    }

    /// Whether the user's text names the file at `path` (its file name,
    /// when that is distinctive: it has an extension) and it is not a
    /// source file (see [`SOURCE_EXTENSIONS`]).
    fn user_names_file(&self, path: &str) -> bool {
        let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
        let source = name
            .rsplit_once('.')
            .is_some_and(|(_, ext)| SOURCE_EXTENSIONS.contains(&ext.to_ascii_lowercase().as_str()));
        name.len() >= 5 && name.contains('.') && !source && self.user_names(name)
    }

    /// Whether the agent itself wrote or edited the file at `path` so far:
    /// reading back its own work is not reading what the user pointed to.
    fn agent_changed(&self, path: &str) -> bool {
        let path = path.trim_start_matches("./");
        self.files.iter().any(|f| {
            (f.written > 0 || f.edits > 0) && (f.path.ends_with(path) || path.ends_with(&f.path))
        })
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
            said: first.join("\n"),
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

    /// A call the user rejected: the user's words are an answer, kept
    /// whole; a rejection is not an error to fix.
    fn rejected(&mut self, e: &Event<'_>, said: &str) {
        let target = files::path_of(e.args)
            .or_else(|| exec::command_line(e.args).map(|l| format!("`{l}`")))
            .map(|t| format!(" {}", exec::bounded(&t)))
            .unwrap_or_default();
        let words = if said.is_empty() {
            String::new()
        } else {
            format!(
                " and said: {}",
                said.split_whitespace().collect::<Vec<_>>().join(" ")
            )
        };
        let line = format!(
            "- the user rejected {}{target}{words} [m{}]",
            e.name, e.at.message
        );
        self.answers.push((line, e.at));
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
        // A command whose latest run is a failure listed above says nothing
        // the error's line does not.
        out.extend(
            self.commands
                .iter()
                .filter(|c| !self.failures.iter().any(|f| f.at == c.at))
                .map(command_entry),
        );
        // Names are a coding session's: elsewhere the pins carry values.
        let coding = out.iter().any(|e| {
            matches!(
                e.section,
                Section::Files | Section::Commands | Section::Plan
            )
        });
        if !coding {
            return out;
        }
        let elsewhere = out
            .iter()
            .map(|e| e.line.as_str())
            .collect::<Vec<_>>()
            .join("\n");
        out.extend(self.names.entries(&elsewhere));
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
    if !f.symbols.is_empty() {
        line.push_str(&format!("; defines {}", f.symbols.join(", ")));
    }
    if !f.settings.is_empty() {
        line.push_str(&format!("; sets {}", f.settings.join(", ")));
    }
    if !f.verdicts.is_empty() {
        let quoted: Vec<String> = f.verdicts.iter().map(|v| format!("`{v}`")).collect();
        line.push_str(&format!("; records {}", quoted.join(", ")));
    }
    if let Some(c) = &f.last {
        if let Some((old, new)) = &c.excerpt {
            line.push_str(&format!("; last change `{old}` → `{new}`"));
        }
    }
    line.push_str(&format!(" [m{}]", f.at.message));
    let rank = if f.last.is_some() { 1 } else { 2 };
    entry(Section::Files, f.path.clone(), line, f.at, rank)
}

/// `n` things, in the plural when it is not one.
fn count(n: usize, thing: &str) -> String {
    if n == 1 {
        format!("1 {thing}")
    } else {
        format!("{n} {thing}s")
    }
}

/// A path's last two components: enough to tell files apart in prose.
fn short_path(path: &str) -> &str {
    let mut cuts = path.rmatch_indices('/').map(|(i, _)| i);
    match (cuts.next(), cuts.next()) {
        (Some(_), Some(i)) => &path[i + 1..],
        _ => path,
    }
}

fn change_words(f: &FileState) -> String {
    if f.deleted {
        "deleted".into()
    } else if f.written > 0 && f.edits == 0 {
        "written".into()
    } else {
        times("edited", f.edits.max(1))
    }
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
    // A look that printed a short answer (a date, a count, a hash) carries
    // that answer; one whose output was long carries only that it ran.
    let rank = match (c.read_only && !c.status.failed(), c.salient.is_empty()) {
        (false, _) => 1,
        (true, false) => 2,
        (true, true) => 3,
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
        Section::Files | Section::Commands | Section::Identifiers => 1,
        Section::Read => super::names::READ_RANK,
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
/// Each line names its task as the tool does (`Task #3`): a later update
/// needs the id.
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
            .enumerate()
            .map(|(i, (subject, status))| {
                format!("- [{status}] Task #{}: {}", i + 1, verbatim(subject))
            })
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

/// Every string in a value, one per line (JSON escapes would glue a
/// newline's `n` to the name after it).
fn strings_of(v: &Value) -> String {
    fn walk(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::String(s) => out.push(s.clone()),
            Value::Array(items) => items.iter().for_each(|i| walk(i, out)),
            Value::Object(map) => map.values().for_each(|i| walk(i, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(v, &mut out);
    out.join("\n")
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
            .0
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
                &"- `npm test` → exit 1: FAIL src/a.test.ts | Tests: 1 failed, 3 passed [m3]; not fixed yet"
                    .to_string()
            ),
            "{got:?}"
        );
        assert_eq!(
            got.iter().filter(|l| l.contains("npm test")).count(),
            1,
            "the error's line says what the command's would: {got:?}"
        );
    }

    #[test]
    fn a_file_printed_through_a_poll_names_its_symbols_and_two_files_none() {
        let started = |id: &str, cmd: &str, session: u32| {
            turn(
                id,
                "exec_command",
                json!({ "cmd": cmd }),
                json!(format!(
                    "Chunk ID: a\nWall time: 1.0 seconds\nProcess running with session ID {session}\nOriginal token count: 0\nOutput:\n"
                )),
                false,
            )
        };
        let polled = |id: &str, session: u32, out: &str| {
            turn(
                id,
                "write_stdin",
                json!({"session_id": session, "chars": ""}),
                json!(format!(
                    "Chunk ID: b\nWall time: 0.1 seconds\nProcess exited with code 0\nOriginal token count: 9\nOutput:\n{out}"
                )),
                false,
            )
        };
        let mut head = started("1", "sed -n '1,80p' src/a.ts", 7);
        head.extend(polled("2", 7, "function parseInput(s) {\n}\n"));
        head.extend(started("3", "sed -n '1,9p' b.ts && sed -n '1,9p' c.ts", 8));
        head.extend(polled("4", 8, "function fromOneOfTwo() {}\n"));
        let got = lines(&head);
        for want in [
            "- src/a.ts: read; defines parseInput [m3]",
            "- b.ts: read [m7]",
            "- c.ts: read [m7]",
        ] {
            assert!(got.contains(&want.to_string()), "{want}: {got:?}");
        }
    }

    #[test]
    fn a_failure_a_pipe_hid_is_an_error_until_the_command_passes() {
        let mut head = turn(
            "1",
            "Bash",
            json!({"command": "go test ./... 2>&1 | tail -3"}),
            json!("--- FAIL: TestLoad (0.01s)\nFAIL\nFAIL\tpkg/a\t0.2s"),
            false,
        );
        let unfixed = lines(&head);
        assert!(
            unfixed[0].starts_with("- `go test ./... 2>&1 | tail -3` → exit 0 through a pipe, but the output reports errors: --- FAIL: TestLoad")
                && unfixed[0].ends_with("[m1]; not fixed yet"),
            "{unfixed:?}"
        );
        head.extend(turn(
            "2",
            "Bash",
            json!({"command": "go test ./... 2>&1 | grep -v '^ok' | head"}),
            json!("--- FAIL: TestLoad (0.01s)\nFAIL\nFAIL\tpkg/a\t0.2s"),
            false,
        ));
        head.extend(turn(
            "3",
            "Bash",
            json!({"command": "go test ./... 2>&1 | tail -1"}),
            json!("ok  \tpkg/a\t0.2s"),
            false,
        ));
        let errors: Vec<String> = lines(&head)
            .into_iter()
            .filter(|l| l.contains("fixed"))
            .collect();
        assert_eq!(errors.len(), 1, "the same words once: {errors:?}");
        assert!(
            errors[0].ends_with("; fixed: `go test ./... 2>&1 | tail -1` → ok [m5]"),
            "{errors:?}"
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
    fn a_source_file_the_user_names_or_a_file_the_agent_wrote_is_not_pointed_to() {
        let mut head = vec![Message::new(
            Role::User,
            vec![Part::Text(
                "Fix src/parse.rs, then follow PLAN.md and the agent summary in REPORT.md.".into(),
            )],
        )];
        head.extend(turn(
            "1",
            "Read",
            json!({"file_path": "/repo/src/parse.rs"}),
            json!("fn parse() {}"),
            false,
        ));
        head.extend(turn(
            "2",
            "Write",
            json!({"file_path": "/repo/REPORT.md", "content": "Done."}),
            json!("File created"),
            false,
        ));
        head.extend(turn(
            "3",
            "Read",
            json!({"file_path": "/repo/REPORT.md"}),
            json!("Done."),
            false,
        ));
        head.extend(turn(
            "4",
            "Read",
            json!({"file_path": "/repo/PLAN.md"}),
            json!("Step 1: keep the API."),
            false,
        ));
        let pointed: Vec<String> = lines(&head)
            .into_iter()
            .filter(|l| l.contains("]: "))
            .collect();
        assert_eq!(
            pointed,
            vec!["- /repo/PLAN.md [m8]: Step 1: keep the API.".to_string()]
        );
    }

    #[test]
    fn reads_list_the_path_and_symbols_not_the_content() {
        let head = turn(
            "1",
            "Read",
            json!({"file_path": "src/main.rs"}),
            json!("     1\tfn main() {\n     2\t    println!(\"hello\");\n     3\t}\n"),
            false,
        );
        assert_eq!(lines(&head), vec!["- src/main.rs: read; defines main [m1]"]);
    }

    #[test]
    fn a_rejected_call_keeps_the_users_words_and_is_no_error() {
        let head = turn(
            "1",
            "Edit",
            json!({"file_path": "src/a.rs", "old_string": "a", "new_string": "b"}),
            json!("The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). To tell you how to proceed, the user said:\nkeep the old name,\n  only fix the test"),
            true,
        );
        assert_eq!(
            lines(&head),
            vec!["- the user rejected Edit src/a.rs and said: keep the old name, only fix the test [m1]"]
        );
    }

    #[test]
    fn every_change_names_what_it_defined_and_a_read_names_the_files_symbols() {
        let mut head = turn(
            "1",
            "Edit",
            json!({"file_path": "x.go", "old_string": "", "new_string": "const scanLimit = 500\nfunc firstThing() {\n\tcount := 0\n}"}),
            json!("ok"),
            false,
        );
        head.extend(turn(
            "2",
            "Edit",
            json!({"file_path": "x.go", "old_string": "a", "new_string": "func secondThing() {}"}),
            json!("ok"),
            false,
        ));
        head.extend(turn(
            "3",
            "exec_command",
            json!({"cmd": "sed -n '1,80p' lib/util.ts"}),
            json!("export function helperOne() {}\nconst x = 1\n"),
            false,
        ));
        let got = lines(&head);
        assert!(
            got[0].starts_with(
                "- x.go: edited 2×; defines secondThing, firstThing; sets const scanLimit = 500;"
            ),
            "{got:?}"
        );
        assert!(
            got.iter()
                .any(|l| l.starts_with("- lib/util.ts: read; defines helperOne")),
            "{got:?}"
        );
    }

    #[test]
    fn the_outline_says_where_the_work_stands_in_whole_sentences() {
        let mut head = vec![Message::new(
            Role::User,
            vec![Part::Text("Make the loader retry twice.".into())],
        )];
        head.extend(turn(
            "1",
            "Edit",
            json!({"file_path": "src/io/loader.rs", "old_string": "a", "new_string": "b"}),
            json!("ok"),
            false,
        ));
        head.extend(turn(
            "2",
            "Bash",
            json!({"command": "cargo test"}),
            json!("Exit code 101\ntest loader::retries ... FAILED"),
            true,
        ));
        let (_, outline) = digest(&head, &BTreeMap::new());
        assert_eq!(
            outline,
            vec![
                "The user's latest request: \"Make the loader retry twice.\".",
                "The agent changed 1 file, most recently io/loader.rs (edited).",
                "It ran 1 command, 1 of them beyond reading. The latest was `cargo test`, which ended exit 101 [m4].",
                "Still open: 1 error; the latest is `cargo test` → exit 101: test loader::retries ... FAILED [m4].",
            ]
        );
    }

    #[test]
    fn claude_code_tasks_keep_the_ids_their_updates_use() {
        let mut tasks = Vec::new();
        for subject in ["Add the flag", "Wire up the hooks"] {
            plan_lines("TaskCreate", &json!({"subject": subject}), &mut tasks);
        }
        let lines = plan_lines(
            "TaskUpdate",
            &json!({"taskId": "2", "status": "in_progress"}),
            &mut tasks,
        );
        assert_eq!(
            lines,
            Some(vec![
                "- [pending] Task #1: Add the flag".to_string(),
                "- [in_progress] Task #2: Wire up the hooks".to_string(),
            ])
        );
    }
}
