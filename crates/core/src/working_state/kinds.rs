//! Tool semantics: what a tool call does to the work, by kind. Built-in
//! tables name the tools of Claude Code, Codex, OpenHands and the common MCP
//! file and shell servers; an unknown tool's kind is read off the shape of
//! its arguments; a policy's `[tools] kinds` overrides both.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What a tool call does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ToolKind {
    /// Re-readable: a file read, a listing, a search.
    Read,
    /// A file created, edited or patched.
    Write,
    /// A shell command.
    Exec,
    /// A todo list or plan update.
    Plan,
    /// A question to the user; its result is the user's answer.
    Ask,
    /// A sub-agent.
    Delegate,
    /// The web.
    Fetch,
    Other,
}

impl ToolKind {
    pub fn name(self) -> &'static str {
        match self {
            ToolKind::Read => "read",
            ToolKind::Write => "write",
            ToolKind::Exec => "exec",
            ToolKind::Plan => "plan",
            ToolKind::Ask => "ask",
            ToolKind::Delegate => "delegate",
            ToolKind::Fetch => "fetch",
            ToolKind::Other => "other",
        }
    }

    /// Whether the tool's results hold content the agent can get again
    /// (files on disk, the web), so they are never pinned verbatim.
    pub fn re_readable(self) -> bool {
        matches!(self, ToolKind::Read | ToolKind::Fetch)
    }
}

/// Built-in kinds by lower-cased tool name (an MCP tool's name is looked up
/// without its `mcp__server__` prefix).
const BUILTIN: &[(&str, ToolKind)] = &[
    // Claude Code
    ("read", ToolKind::Read),
    ("glob", ToolKind::Read),
    ("grep", ToolKind::Read),
    ("ls", ToolKind::Read),
    ("notebookread", ToolKind::Read),
    ("write", ToolKind::Write),
    ("edit", ToolKind::Write),
    ("multiedit", ToolKind::Write),
    ("notebookedit", ToolKind::Write),
    ("bash", ToolKind::Exec),
    ("bashoutput", ToolKind::Exec),
    ("killbash", ToolKind::Exec),
    ("killshell", ToolKind::Exec),
    ("todowrite", ToolKind::Plan),
    ("exitplanmode", ToolKind::Plan),
    ("taskcreate", ToolKind::Plan),
    ("taskupdate", ToolKind::Plan),
    ("askuserquestion", ToolKind::Ask),
    ("task", ToolKind::Delegate),
    ("agent", ToolKind::Delegate),
    ("taskoutput", ToolKind::Delegate),
    ("webfetch", ToolKind::Fetch),
    ("websearch", ToolKind::Fetch),
    // Codex
    ("shell", ToolKind::Exec),
    ("local_shell", ToolKind::Exec),
    ("exec_command", ToolKind::Exec),
    ("write_stdin", ToolKind::Exec),
    ("apply_patch", ToolKind::Write),
    ("update_plan", ToolKind::Plan),
    ("request_user_input", ToolKind::Ask),
    ("view_image", ToolKind::Read),
    ("list_dir", ToolKind::Read),
    ("grep_files", ToolKind::Read),
    ("read_file", ToolKind::Read),
    ("web_search", ToolKind::Fetch),
    ("spawn_agent", ToolKind::Delegate),
    // OpenHands
    ("execute_bash", ToolKind::Exec),
    ("execute_ipython_cell", ToolKind::Exec),
    ("task_tracker", ToolKind::Plan),
    ("browser", ToolKind::Fetch),
    ("fetch", ToolKind::Fetch),
    ("web_fetch", ToolKind::Fetch),
    // MCP filesystem and shell servers
    ("read_text_file", ToolKind::Read),
    ("read_media_file", ToolKind::Read),
    ("read_multiple_files", ToolKind::Read),
    ("list_directory", ToolKind::Read),
    ("list_directory_with_sizes", ToolKind::Read),
    ("directory_tree", ToolKind::Read),
    ("search_files", ToolKind::Read),
    ("get_file_info", ToolKind::Read),
    ("write_file", ToolKind::Write),
    ("edit_file", ToolKind::Write),
    ("create_file", ToolKind::Write),
    ("move_file", ToolKind::Write),
    ("create_directory", ToolKind::Write),
    ("run_command", ToolKind::Exec),
    ("execute_command", ToolKind::Exec),
    ("run_terminal_cmd", ToolKind::Exec),
];

/// Editors whose `command` argument says whether they read or write
/// (OpenHands' `str_replace_editor`, Anthropic's text editor tool).
const EDITORS: &[&str] = &[
    "str_replace_editor",
    "str_replace_based_edit_tool",
    "text_editor",
];

const PATH_KEYS: &[&str] = &["file_path", "path", "filepath", "filename", "notebook_path"];
const CONTENT_KEYS: &[&str] = &[
    "content",
    "new_string",
    "old_string",
    "edits",
    "patch",
    "new_source",
    "file_text",
    "new_str",
];

/// The kind of a call to `name` with `args`: the policy's override, the
/// built-in table, or the shape of the arguments.
pub fn kind_of(name: &str, args: &Value, overrides: &BTreeMap<String, ToolKind>) -> ToolKind {
    if let Some(k) = overrides.get(name) {
        return *k;
    }
    let lower = name.to_ascii_lowercase();
    let bare = bare_name(&lower);
    if EDITORS.contains(&bare) {
        return match args.get("command").and_then(Value::as_str) {
            Some("view") => ToolKind::Read,
            _ => ToolKind::Write,
        };
    }
    if let Some((_, k)) = BUILTIN.iter().find(|(n, _)| *n == bare) {
        return *k;
    }
    kind_from_args(args)
}

/// `mcp__server__tool` → `tool`.
fn bare_name(lower: &str) -> &str {
    match lower.strip_prefix("mcp__") {
        Some(rest) => rest.split_once("__").map_or(rest, |(_, tool)| tool),
        None => lower,
    }
}

/// An unknown tool's kind from its arguments: a command runs, a path with
/// content writes, a path alone or a file pattern reads.
pub fn kind_from_args(args: &Value) -> ToolKind {
    let has = |keys: &[&str]| keys.iter().any(|k| args.get(*k).is_some_and(non_empty));
    let command = ["command", "cmd"]
        .iter()
        .any(|k| matches!(args.get(*k), Some(Value::String(_) | Value::Array(_))));
    if command {
        ToolKind::Exec
    } else if has(PATH_KEYS) && has(CONTENT_KEYS) {
        ToolKind::Write
    } else if has(PATH_KEYS) || has(&["glob"]) {
        ToolKind::Read
    } else if has(&["todos"]) {
        ToolKind::Plan
    } else if has(&["question", "questions"]) {
        ToolKind::Ask
    } else if has(&["subagent_type"]) {
        ToolKind::Delegate
    } else if has(&["url"]) {
        ToolKind::Fetch
    } else {
        ToolKind::Other
    }
}

fn non_empty(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn kind(name: &str, args: Value) -> ToolKind {
        kind_of(name, &args, &BTreeMap::new())
    }

    #[test]
    fn agents_tools_have_their_kinds() {
        assert_eq!(kind("Read", json!({"file_path": "a.rs"})), ToolKind::Read);
        assert_eq!(kind("Edit", json!({"file_path": "a.rs"})), ToolKind::Write);
        assert_eq!(kind("Bash", json!({"command": "ls"})), ToolKind::Exec);
        assert_eq!(
            kind("apply_patch", json!("*** Begin Patch")),
            ToolKind::Write
        );
        assert_eq!(kind("update_plan", json!({"plan": []})), ToolKind::Plan);
        assert_eq!(kind("AskUserQuestion", json!({})), ToolKind::Ask);
        assert_eq!(kind("Task", json!({"prompt": "x"})), ToolKind::Delegate);
        assert_eq!(
            kind("mcp__filesystem__read_text_file", json!({"path": "a"})),
            ToolKind::Read
        );
        assert_eq!(
            kind(
                "str_replace_editor",
                json!({"command": "view", "path": "a"})
            ),
            ToolKind::Read
        );
        assert_eq!(
            kind(
                "str_replace_editor",
                json!({"command": "create", "path": "a"})
            ),
            ToolKind::Write
        );
    }

    #[test]
    fn an_unknown_tool_is_read_off_its_arguments() {
        assert_eq!(kind("runner", json!({"cmd": "make"})), ToolKind::Exec);
        assert_eq!(
            kind("save", json!({"path": "a.txt", "content": "x"})),
            ToolKind::Write
        );
        assert_eq!(kind("open", json!({"path": "a.txt"})), ToolKind::Read);
        assert_eq!(
            kind("get", json!({"url": "https://x.org"})),
            ToolKind::Fetch
        );
        assert_eq!(
            kind("database_query", json!({"query": "select 1"})),
            ToolKind::Other,
            "a query is not a file read: its rows are evidence"
        );
    }

    #[test]
    fn the_policy_overrides_the_tables() {
        let overrides = BTreeMap::from([("Read".to_string(), ToolKind::Other)]);
        assert_eq!(
            kind_of("Read", &json!({"file_path": "a"}), &overrides),
            ToolKind::Other
        );
    }
}
