//! The one internal transcript that every request format maps into.
//!
//! Adapters in `formats` translate at the edges; every pipeline stage works on
//! these types only. Fields a format has that we do not model travel in `meta`
//! so a kept message is written back as it came.

use serde_json::{Map, Value};

/// The request formats we read and write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Format {
    #[serde(rename = "anthropic-messages")]
    Anthropic,
    #[serde(rename = "openai-chat")]
    OpenAi,
    #[serde(rename = "pydantic-ai")]
    PydanticAi,
    #[serde(rename = "openai-responses")]
    Responses,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Anthropic => "anthropic-messages",
            Format::OpenAi => "openai-chat",
            Format::PydanticAi => "pydantic-ai",
            Format::Responses => "openai-responses",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// User turns; also Pydantic AI requests and OpenAI `tool` messages
    /// (tool results travel on the user's side of the conversation).
    User,
    Assistant,
    /// A system message in the middle of the conversation (OpenAI) that is
    /// not part of the leading instructions.
    System,
}

/// One piece of a message.
#[derive(Debug, Clone, PartialEq)]
pub enum Part {
    /// Plain text written by the user or the assistant.
    Text(String),
    /// A system prompt carried inside the conversation (Pydantic AI
    /// `system-prompt` parts, mid-conversation OpenAI system messages).
    SystemText(String),
    ToolCall {
        id: String,
        name: String,
        args: Value,
    },
    ToolResult {
        id: String,
        /// Resolved from the matching call when the format does not carry it.
        name: String,
        content: Value,
        is_error: bool,
    },
    /// Pydantic AI `retry-prompt`: answers a tool call when it has an id.
    RetryPrompt {
        id: Option<String>,
        name: Option<String>,
        content: Value,
    },
    /// The model's own reasoning: an Anthropic `thinking` or
    /// `redacted_thinking` block, a Responses `reasoning` item. `item` is the
    /// block or item exactly as it came (signature, encrypted content) and is
    /// written back untouched or not at all; `text` is what can be read of it
    /// (the thinking, the summary), for counts and redaction. `altered` is set
    /// when redaction changed `text`: the item would no longer match its
    /// signature, so it is dropped, never written.
    Reasoning {
        text: String,
        item: Value,
        altered: bool,
    },
    /// A provider's compaction state (a Responses `compaction` item): its
    /// content is encrypted, so it is carried untouched and never read.
    Compaction { item: Value },
    /// Anything we do not interpret (images, documents): kept opaque.
    Opaque(Value),
}

impl Part {
    /// The tool call id this part answers, if it is a result.
    pub fn answers(&self) -> Option<&str> {
        match self {
            Part::ToolResult { id, .. } => Some(id),
            Part::RetryPrompt { id: Some(id), .. } => Some(id),
            _ => None,
        }
    }

    pub fn kind(&self) -> &'static str {
        match self {
            Part::Text(_) => "text",
            Part::SystemText(_) => "system_text",
            Part::ToolCall { .. } => "tool_call",
            Part::ToolResult { .. } => "tool_result",
            Part::RetryPrompt { .. } => "retry_prompt",
            Part::Reasoning { .. } => "reasoning",
            Part::Compaction { .. } => "compaction",
            Part::Opaque(_) => "opaque",
        }
    }

    /// The text a model sees for this part, used for token counts, keyword
    /// checks and the precedence check.
    pub fn visible_text(&self) -> String {
        match self {
            Part::Text(t) | Part::SystemText(t) => t.clone(),
            Part::ToolCall { name, args, .. } => format!("{name} {}", compact_json(args)),
            Part::ToolResult { content, .. } => value_text(content),
            Part::RetryPrompt { content, .. } => value_text(content),
            Part::Reasoning { text, .. } => text.clone(),
            // Encrypted: nothing of it can be read or counted here.
            Part::Compaction { .. } => String::new(),
            Part::Opaque(v) => compact_json(v),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct PartRec {
    pub part: Part,
    /// Format-specific fields of this part that we carry through untouched.
    pub meta: Map<String, Value>,
}

impl PartRec {
    pub fn new(part: Part) -> Self {
        PartRec {
            part,
            meta: Map::new(),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    pub role: Role,
    pub parts: Vec<PartRec>,
    /// Format-specific fields of the message (timestamps, usage, ids).
    pub meta: Map<String, Value>,
    /// The input wrote this message's content as a bare string rather than a
    /// list of blocks; written back the same way when it still fits.
    pub string_content: bool,
}

impl Message {
    pub fn new(role: Role, parts: Vec<Part>) -> Self {
        Message {
            role,
            parts: parts.into_iter().map(PartRec::new).collect(),
            meta: Map::new(),
            string_content: false,
        }
    }

    pub fn tool_calls(&self) -> impl Iterator<Item = (&str, &str, &Value)> {
        self.parts.iter().filter_map(|p| match &p.part {
            Part::ToolCall { id, name, args } => Some((id.as_str(), name.as_str(), args)),
            _ => None,
        })
    }

    pub fn has_tool_calls(&self) -> bool {
        self.tool_calls().next().is_some()
    }
}

/// A whole request: the leading instructions, tool schemas and the
/// conversation.
#[derive(Debug, Clone, PartialEq)]
pub struct Transcript {
    pub format: Format,
    /// Leading instructions (Anthropic `system`, OpenAI leading system or
    /// developer messages, Pydantic AI `instructions`, Responses
    /// `instructions` and leading developer or system items), one entry per
    /// block.
    pub instructions: Vec<String>,
    /// Tool schemas as the request gave them.
    pub tools: Vec<Value>,
    pub messages: Vec<Message>,
    /// Other top-level fields of the request body (model, max_tokens, ...).
    pub envelope: Map<String, Value>,
    /// How the input wrote its instructions (adapter-private: block style,
    /// OpenAI role name), so they are written back the same way.
    pub instruction_style: Map<String, Value>,
}

impl Transcript {
    /// The model the request names (`model` in its body), if any.
    pub fn model(&self) -> Option<&str> {
        self.envelope.get("model").and_then(Value::as_str)
    }

    pub fn instructions_text(&self) -> String {
        self.instructions.join("\n\n")
    }

    /// Tool name for a call id, searching every message.
    pub fn tool_name_for(&self, call_id: &str) -> Option<&str> {
        self.messages
            .iter()
            .flat_map(|m| m.tool_calls())
            .find(|(id, _, _)| *id == call_id)
            .map(|(_, name, _)| name)
    }

    /// All the text the model would see, segment by segment, joined by
    /// newlines. Used for presence checks (kernel terms, pinned facts).
    pub fn visible_text(&self) -> String {
        let mut out = String::new();
        for i in &self.instructions {
            out.push_str(i);
            out.push('\n');
        }
        for t in &self.tools {
            out.push_str(&compact_json(t));
            out.push('\n');
        }
        for m in &self.messages {
            for p in &m.parts {
                out.push_str(&p.part.visible_text());
                out.push('\n');
            }
        }
        out
    }
}

/// One part of one message, by position: the `part`-th part of the
/// `message`-th message. Written `m{message}.p{part}`, as the audit names
/// input items.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PartRef {
    pub message: usize,
    pub part: usize,
}

impl PartRef {
    pub fn new(message: usize, part: usize) -> Self {
        PartRef { message, part }
    }
}

impl std::fmt::Display for PartRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "m{}.p{}", self.message, self.part)
    }
}

impl serde::Serialize for PartRef {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl Transcript {
    /// Every part with its position, in order.
    pub fn parts(&self) -> impl Iterator<Item = (PartRef, &PartRec)> {
        self.messages.iter().enumerate().flat_map(|(mi, m)| {
            m.parts
                .iter()
                .enumerate()
                .map(move |(pi, p)| (PartRef::new(mi, pi), p))
        })
    }
}

/// A tool call's arguments as a JSON value: arguments given as a JSON string
/// (OpenAI) are parsed, and none at all are an empty object.
pub fn tool_args(args: Value) -> Value {
    match &args {
        Value::String(s) => serde_json::from_str(s).unwrap_or(args),
        Value::Null => Value::Object(Default::default()),
        _ => args,
    }
}

/// Compact JSON text of a value (object keys in input order).
pub fn compact_json(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

/// Strings as themselves, everything else as compact JSON.
pub fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => compact_json(other),
    }
}
