//! Recorded sessions: a reference run folder or a plain request file, turned
//! into one uncompacted history with the requests (steps) the agent made.
//!
//! A reference run folder (`.../replays/E1-baseline`, or its `run/`) holds
//! `archive/cmp-1.json` (the exact Pydantic AI history at the first recorded
//! compaction), `requests.jsonl` (each request/response with its tool calls
//! and the provider's input token count) and `tools.jsonl` (every tool call's
//! arguments and result). The history after the first compaction is rebuilt
//! from the two ledgers, uncompacted. A plain session file (Anthropic, OpenAI
//! or Pydantic AI) is read as one request that grew turn by turn: every
//! assistant message is a response to the messages before it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::{ReplayError, Result};
use serde_json::{json, Value};

use continuity_core::error::Source;
use continuity_core::formats;
use continuity_core::kernel::{strip_rendered_kernels, MissionKernel};
use continuity_core::tokens::TokenCount;
use continuity_core::transcript::{compact_json, Part, Role, Transcript};

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SessionKind {
    Reference,
    File,
}

impl SessionKind {
    pub fn name(self) -> &'static str {
        match self {
            SessionKind::Reference => "reference",
            SessionKind::File => "file",
        }
    }
}

/// One model request and the response that answered it.
#[derive(Debug, Clone)]
pub struct Step {
    /// 1-based, the reference's `run_step`.
    pub index: usize,
    /// `messages[..request_end]` is the request as recorded; the response is
    /// `messages[request_end]`.
    pub request_end: usize,
    /// The provider's input token count for this request, when recorded.
    pub recorded_input: Option<usize>,
    /// The recorded compaction id applied to this request, if any.
    pub recorded_compaction: Option<String>,
}

/// A compaction as the reference recorded it (for the seed comparison and the
/// `recorded` summarizer).
#[derive(Debug, Clone, Default)]
pub struct RecordedCompaction {
    pub id: String,
    pub step: usize,
    pub summary: String,
    pub uncompacted: usize,
    pub compacted: usize,
    pub fixed_overhead: usize,
    pub reduction_pct: f64,
    pub terms_missing: Vec<String>,
    pub facts_missing: Vec<String>,
    pub fault: String,
}

/// Maps bundled-tokenizer counts of a request's text to the units of the
/// record: `est = intercept + slope × bundled`. For reference runs it is a
/// least-squares fit over the recorded uncompacted requests (the intercept
/// absorbs the tool schemas the records do not carry); for plain files it is
/// the identity.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Calibration {
    pub intercept: f64,
    pub slope: f64,
    pub points: usize,
}

impl Calibration {
    pub const IDENTITY: Calibration = Calibration {
        intercept: 0.0,
        slope: 1.0,
        points: 0,
    };

    pub fn est(&self, bundled: usize) -> usize {
        (self.intercept + self.slope * bundled as f64)
            .round()
            .max(0.0) as usize
    }

    /// Tokens of content that scale (no intercept).
    pub fn scale(&self, bundled: usize) -> usize {
        (self.slope * bundled as f64).round() as usize
    }

    fn fit(points: &[(usize, usize)]) -> Calibration {
        if points.len() < 2 {
            return Calibration::IDENTITY;
        }
        let n = points.len() as f64;
        let mx = points.iter().map(|p| p.0 as f64).sum::<f64>() / n;
        let my = points.iter().map(|p| p.1 as f64).sum::<f64>() / n;
        let sxx: f64 = points.iter().map(|p| (p.0 as f64 - mx).powi(2)).sum();
        let sxy: f64 = points
            .iter()
            .map(|p| (p.0 as f64 - mx) * (p.1 as f64 - my))
            .sum();
        if sxx <= 0.0 {
            return Calibration::IDENTITY;
        }
        let slope = sxy / sxx;
        Calibration {
            intercept: my - slope * mx,
            slope,
            points: points.len(),
        }
    }
}

#[derive(Debug, Clone)]
pub struct Session {
    pub name: String,
    pub kind: SessionKind,
    pub path: PathBuf,
    /// The whole history, uncompacted, with instructions stripped of any
    /// rendered kernel so every condition starts from the same request.
    pub transcript: Transcript,
    /// The instructions as recorded (a governed run carries its kernel).
    pub recorded_instructions: Vec<String>,
    pub steps: Vec<Step>,
    pub calibration: Calibration,
    pub recorded: Vec<RecordedCompaction>,
    /// The run's recorded mode (baseline / governed) and total input tokens.
    pub recorded_mode: Option<String>,
    pub recorded_input_tokens: Option<usize>,
    /// Tool results whose payload the record does not hold (synthesized).
    pub synthesized_results: usize,
}

impl Session {
    /// Tokens the trigger rule sees for a request text, in the record's
    /// units. Plain sessions count their tool schemas too.
    pub fn schema_tokens(&self, tokens: &dyn TokenCount) -> Result<usize> {
        let mut n = 0;
        for t in &self.transcript.tools {
            n += tokens.count(&compact_json(t))?;
        }
        Ok(n)
    }
}

/// The text a model sees of a request, without tool schemas (a schema naming
/// `contact_customer` is not a limit on contacting): instructions, then every
/// part of every message.
pub fn context_text(
    instructions: &[String],
    messages: &[continuity_core::transcript::Message],
) -> String {
    let mut out = String::new();
    for i in instructions {
        out.push_str(i);
        out.push('\n');
    }
    for m in messages {
        for p in &m.parts {
            out.push_str(&p.part.visible_text());
            out.push('\n');
        }
    }
    out
}

/// Instructions with every kernel removed: ours (rendered markers) and any
/// paragraph naming the kernel id (a recorded governed run's own rendering).
pub fn normalize_instructions(instructions: &[String], kernel: &MissionKernel) -> Vec<String> {
    instructions
        .iter()
        .map(|s| {
            let s = strip_rendered_kernels(s);
            s.split("\n\n")
                .filter(|para| !para.contains(&kernel.id))
                .collect::<Vec<_>>()
                .join("\n\n")
        })
        .filter(|s| !s.trim().is_empty())
        .collect()
}

pub fn load(path: &Path, kernel: &MissionKernel, tokens: &dyn TokenCount) -> Result<Session> {
    let run_dir = if path.join("run/requests.jsonl").is_file() {
        Some(path.join("run"))
    } else if path.join("requests.jsonl").is_file() {
        Some(path.to_path_buf())
    } else {
        None
    };
    match run_dir {
        Some(dir) => load_reference(path, &dir, kernel, tokens),
        None => load_file(path, kernel),
    }
}

fn session_name(path: &Path) -> String {
    let p = if path.file_name().is_some_and(|n| n == "run") {
        path.parent().unwrap_or(path)
    } else {
        path
    };
    p.file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_else(|| p.display().to_string())
}

fn load_file(path: &Path, kernel: &MissionKernel) -> Result<Session> {
    let bytes = std::fs::read(path).map_err(|e| ReplayError::io(path, e))?;
    let mut transcript = formats::parse_bytes(&bytes, &Source::path(path))?;
    let recorded_instructions = transcript.instructions.clone();
    transcript.instructions = normalize_instructions(&transcript.instructions, kernel);
    let steps = transcript
        .messages
        .iter()
        .enumerate()
        .filter(|(i, m)| *i > 0 && m.role == Role::Assistant)
        .enumerate()
        .map(|(k, (i, _))| Step {
            index: k + 1,
            request_end: i,
            recorded_input: None,
            recorded_compaction: None,
        })
        .collect();
    Ok(Session {
        name: session_name(path),
        kind: SessionKind::File,
        path: path.to_path_buf(),
        transcript,
        recorded_instructions,
        steps,
        calibration: Calibration::IDENTITY,
        recorded: Vec::new(),
        recorded_mode: None,
        recorded_input_tokens: None,
        synthesized_results: 0,
    })
}

fn read_jsonl(path: &Path) -> Result<Vec<Value>> {
    if !path.is_file() {
        return Ok(Vec::new());
    }
    let text = std::fs::read_to_string(path).map_err(|e| ReplayError::io(path, e))?;
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(i, l)| {
            serde_json::from_str(l).map_err(|e| {
                ReplayError::session(path, format!("line {}: malformed JSON: {e}", i + 1))
            })
        })
        .collect()
}

fn strs(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

fn load_reference(
    path: &Path,
    dir: &Path,
    kernel: &MissionKernel,
    tokens: &dyn TokenCount,
) -> Result<Session> {
    let archive = read_archive(dir)?;
    let requests = read_jsonl(&dir.join("requests.jsonl"))?;
    let ledger = read_jsonl(&dir.join("tools.jsonl"))?;
    let compactions = read_jsonl(&dir.join("compactions.jsonl"))?;
    let run: Value = std::fs::read(dir.join("run.json"))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or(Value::Null);
    let final_report: Option<Value> = std::fs::read(dir.join("report.json"))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok());

    let results: HashMap<&str, &Value> = ledger
        .iter()
        .filter_map(|e| Some((e.get("tool_call_id")?.as_str()?, e)))
        .collect();
    let responses: Vec<&Value> = requests
        .iter()
        .filter(|r| r.get("phase").and_then(Value::as_str) == Some("response"))
        .collect();
    let request_rows: HashMap<u64, &Value> = requests
        .iter()
        .filter(|r| r.get("phase").and_then(Value::as_str) == Some("request"))
        .filter_map(|r| Some((r.get("run_step")?.as_u64()?, r)))
        .collect();

    let (messages, synthesized) = rebuild_history(&archive, &responses, &results, &final_report);
    let source = Source::path(dir);
    let mut transcript = formats::parse_value(&Value::Array(messages), &source)
        .map_err(|e| ReplayError::session(dir, format!("rebuilt history: {e}")))?;
    let recorded_instructions = transcript.instructions.clone();
    transcript.instructions = normalize_instructions(&transcript.instructions, kernel);
    let recorded: Vec<RecordedCompaction> = compactions.iter().map(recorded_compaction).collect();
    let steps = reference_steps(&transcript, &responses, &request_rows);
    if steps.is_empty() {
        return Err(ReplayError::session(dir, "no responses recorded"));
    }
    let calibration = calibrate(&steps, &recorded_instructions, &transcript, tokens)?;

    Ok(Session {
        name: session_name(path),
        kind: SessionKind::Reference,
        path: path.to_path_buf(),
        transcript,
        recorded_instructions,
        steps,
        calibration,
        recorded,
        recorded_mode: run.get("mode").and_then(Value::as_str).map(str::to_string),
        recorded_input_tokens: run
            .get("measured_input_tokens")
            .and_then(Value::as_u64)
            .map(|n| n as usize),
        synthesized_results: synthesized,
    })
}

/// The run's first archive: the history at its first compaction.
fn read_archive(dir: &Path) -> Result<Vec<Value>> {
    let archive_path = dir.join("archive/cmp-1.json");
    match std::fs::read(&archive_path) {
        Ok(bytes) => serde_json::from_slice(&bytes)
            .map_err(|e| ReplayError::session(&archive_path, format!("malformed JSON: {e}"))),
        Err(e) => Err(ReplayError::session(
            &archive_path,
            format!("a reference run needs its first archive (the history at cmp-1): {e}"),
        )),
    }
}

/// The archive's messages, then the responses past it with their tool
/// results from the ledger; and how many results were synthesized.
fn rebuild_history(
    archive: &[Value],
    responses: &[&Value],
    results: &HashMap<&str, &Value>,
    final_report: &Option<Value>,
) -> (Vec<Value>, usize) {
    // The archive covers the responses it holds; the ledgers give the rest.
    let archived_responses = archive
        .iter()
        .filter(|m| m.get("kind").and_then(Value::as_str) == Some("response"))
        .count();
    let mut messages = archive.to_vec();
    let mut synthesized = 0;
    let n_responses = responses.len();
    for (k, r) in responses.iter().enumerate().skip(archived_responses) {
        let (parts, returns, missing) = response_parts(r, results, final_report);
        messages.push(json!({"kind": "response", "parts": parts}));
        let last = k + 1 == n_responses;
        // The final call (the report) is answered by nothing we replay.
        if !returns.is_empty() && !last {
            messages.push(json!({"kind": "request", "parts": returns}));
            synthesized += missing;
        }
    }
    (messages, synthesized)
}

/// One recorded response as message parts, the tool returns that answer
/// its calls, and how many of those had no recorded result.
fn response_parts(
    r: &Value,
    results: &HashMap<&str, &Value>,
    final_report: &Option<Value>,
) -> (Vec<Value>, Vec<Value>, usize) {
    let mut parts = Vec::new();
    if let Some(texts) = r.get("text_parts").and_then(Value::as_array) {
        for t in texts {
            let content = match t {
                Value::String(s) => s.clone(),
                other => other
                    .get("content")
                    .and_then(Value::as_str)
                    .map(str::to_string)
                    .unwrap_or_else(|| compact_json(other)),
            };
            parts.push(json!({"part_kind": "text", "content": content}));
        }
    }
    let calls: Vec<&Value> = r
        .get("tool_calls")
        .and_then(Value::as_array)
        .map(|a| a.iter().collect())
        .unwrap_or_default();
    let mut returns = Vec::new();
    let mut missing = 0;
    for c in &calls {
        let id = c.get("tool_call_id").and_then(Value::as_str).unwrap_or("");
        let name = c.get("tool_name").and_then(Value::as_str).unwrap_or("");
        let entry = results.get(id);
        let args = match (entry, name) {
            (Some(e), _) => e.get("args").cloned().unwrap_or(json!({})),
            (None, "final_result") => final_report.clone().unwrap_or(json!({})),
            (None, _) => json!({}),
        };
        parts.push(
            json!({"part_kind": "tool-call", "tool_name": name, "args": args, "tool_call_id": id}),
        );
        let content = match entry {
            Some(e) => e.get("result").cloned().unwrap_or(Value::Null),
            None => {
                missing += 1;
                json!({"replay": "no result recorded for this call"})
            }
        };
        returns.push(json!({"part_kind": "tool-return", "tool_name": name, "content": content, "tool_call_id": id}));
    }
    if parts.is_empty() {
        parts.push(json!({"part_kind": "text", "content": ""}));
    }
    (parts, returns, missing)
}

fn recorded_compaction(c: &Value) -> RecordedCompaction {
    let counted = c.get("counted").cloned().unwrap_or(Value::Null);
    let checks = c.get("context_checks").cloned().unwrap_or(Value::Null);
    let u = |k: &str| counted.get(k).and_then(Value::as_u64).unwrap_or(0) as usize;
    RecordedCompaction {
        id: c
            .get("compaction_id")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string(),
        step: c.get("run_step").and_then(Value::as_u64).unwrap_or(0) as usize,
        summary: c
            .get("summary_text")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string(),
        uncompacted: u("uncompacted"),
        compacted: u("compacted"),
        fixed_overhead: u("fixed_overhead"),
        reduction_pct: counted
            .get("reduction_pct")
            .and_then(Value::as_f64)
            .unwrap_or(0.0),
        terms_missing: strs(checks.get("kernel_terms_missing")),
        facts_missing: strs(checks.get("cf_missing")),
        fault: c
            .get("fault_injection")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string(),
    }
}

/// Steps: the k-th assistant message answers run_step k.
fn reference_steps(
    transcript: &Transcript,
    responses: &[&Value],
    request_rows: &HashMap<u64, &Value>,
) -> Vec<Step> {
    let mut steps = Vec::new();
    let mut k = 0;
    for (i, m) in transcript.messages.iter().enumerate() {
        if i == 0 || m.role != Role::Assistant {
            continue;
        }
        let r = responses.get(k);
        let index = r
            .and_then(|r| r.get("run_step"))
            .and_then(Value::as_u64)
            .map(|s| s as usize)
            .unwrap_or(k + 1);
        k += 1;
        steps.push(Step {
            index,
            request_end: i,
            recorded_input: r
                .and_then(|r| r.get("input_tokens"))
                .and_then(Value::as_u64)
                .map(|n| n as usize),
            recorded_compaction: request_rows
                .get(&(index as u64))
                .and_then(|q| q.get("compaction_id"))
                .and_then(Value::as_str)
                .map(str::to_string),
        });
    }
    steps
}

/// Calibrate on the requests sent before the first recorded compaction,
/// which are exactly our uncompacted history with the recorded
/// instructions.
fn calibrate(
    steps: &[Step],
    recorded_instructions: &[String],
    transcript: &Transcript,
    tokens: &dyn TokenCount,
) -> Result<Calibration> {
    let mut points = Vec::new();
    for s in steps {
        if s.recorded_compaction.is_some() {
            break;
        }
        if let Some(n) = s.recorded_input {
            let text = context_text(recorded_instructions, &transcript.messages[..s.request_end]);
            points.push((tokens.count(&text)?, n));
        }
    }
    Ok(Calibration::fit(&points))
}

/// Tool calls of a message, in order.
pub fn actions_of(m: &continuity_core::transcript::Message) -> Vec<(String, String)> {
    m.parts
        .iter()
        .filter_map(|p| match &p.part {
            Part::ToolCall { id, name, .. } => Some((id.clone(), name.clone())),
            _ => None,
        })
        .collect()
}
