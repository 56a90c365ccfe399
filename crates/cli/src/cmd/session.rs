//! One session compacted: what `compact` runs for one input, and for each
//! session of a folder. The request is read at a point (`--at`), compacted,
//! and written with where it came from (`origin.json`) and, when the point
//! is just before a compaction the agent made, the two side by side
//! (`side_by_side.json`, `side_by_side.md`).

use std::path::Path;

use continuity_core::compact::{compact_pinned, Compaction, Inputs, Strategy};
use continuity_core::error::{Error, Source};
use continuity_core::formats::{self, At, Document, Read};
use continuity_core::io;
use continuity_core::redact::Redactor;
use continuity_core::side_by_side::{self, SideBySide};
use continuity_core::summarize::Summarizer;
use continuity_core::{MissionKernel, RetentionPolicy};
use continuity_eval::evaluate::Evaluator;
use continuity_eval::facts::FactKey;
use continuity_eval::side_by_side::KeyedPair;
use continuity_models::TokenCounter;
use serde::Serialize;

use crate::render;

/// What every session of one command shares.
pub struct Setup<'a> {
    pub kernel: &'a MissionKernel,
    pub policy: &'a RetentionPolicy,
    /// `--tokenizer`; without it each session is counted in its agent's
    /// tokens (`continuity_models::agent`).
    pub tokenizer: Option<&'a str>,
    pub strategy: Strategy,
    pub run_id: Option<&'a str>,
}

/// An answer key to judge both sides of an agent's compaction with
/// (`compact --key`), and the evaluator that judges it.
pub struct Keyed {
    pub key: FactKey,
    pub judge: String,
    pub evaluator: Evaluator,
}

/// One session, compacted and written.
pub struct Outcome {
    pub compaction: Compaction,
    pub read: Read,
    pub side: Option<SideBySide>,
    /// With `--key`: the answer key judged on both sides of `side`.
    pub key: Option<KeyedPair>,
    /// The files written, as paths.
    pub written: Vec<String>,
}

/// `side_by_side.json`: the comparison, and under `--key` the answer key
/// judged on both sides, in one object.
#[derive(Serialize)]
struct SideBySideFile<'a> {
    #[serde(flatten)]
    side: &'a SideBySide,
    #[serde(skip_serializing_if = "Option::is_none")]
    key: Option<&'a KeyedPair>,
}

fn json(v: &impl Serialize) -> Result<Vec<u8>, Error> {
    let mut out = serde_json::to_vec_pretty(v).map_err(|e| Error::Internal(e.to_string()))?;
    out.push(b'\n');
    Ok(out)
}

/// Read `bytes` at `at`, compact, and write every output into `out`
/// together (or nothing, on any error).
pub fn compact_one(
    bytes: &[u8],
    source: &Source,
    at: At,
    out: &Path,
    setup: &Setup,
    summarizer: &mut dyn Summarizer,
    keyed: Option<&mut Keyed>,
) -> anyhow::Result<Outcome> {
    let doc = formats::open(bytes, source)?;
    let read = doc.read(at)?;
    let over = setup.tokenizer.map(TokenCounter::from_spec).transpose()?;
    let agent = continuity_models::agent::for_session(&doc, &read, over)?;
    let tokens = &agent.counter;
    let mut redactor = Redactor::new(&setup.policy.personal_data)?;
    let input_name = source.to_string();
    let ctx = io::pin_context(
        out,
        setup.kernel,
        &input_name,
        setup.run_id,
        chrono::Utc::now(),
    )?;
    let mut c = compact_pinned(
        &Inputs {
            transcript: &read.transcript,
            input_name: &input_name,
            kernel: setup.kernel,
            policy: setup.policy,
            strategy: setup.strategy,
        },
        &ctx,
        summarizer,
        tokens,
        &mut redactor,
    )?;
    c.report.recorded = agent.recorded;
    let mut files = io::serialize(&c)?;
    files.files.push(("origin.json", json(&read.origin)?));
    let want_key = keyed.is_some();
    let (side, key) = match compare_with_agent(&doc, &read, &c, tokens, &mut redactor, keyed)? {
        Some((side, key)) => (Some(side), key),
        None => (None, None),
    };
    if want_key && side.is_none() {
        return Err(crate::exit::Usage(format!(
            "{source}: --key judges the agent's compaction beside ours, and there is none at this point; read the transcript at one with --at compaction:K"
        ))
        .into());
    }
    if let Some(s) = &side {
        let file = SideBySideFile {
            side: s,
            key: key.as_ref(),
        };
        files.files.push(("side_by_side.json", json(&file)?));
        let md = render::side_by_side(s, key.as_ref());
        files.files.push(("side_by_side.md", md.into_bytes()));
    }
    io::check_leaks(&files, &mut redactor)?;
    io::write_atomically(out, &files)?;
    let written = files
        .files
        .iter()
        .map(|(n, _)| out.join(n).display().to_string())
        .collect();
    Ok(Outcome {
        compaction: c,
        read,
        side,
        key,
        written,
    })
}

/// When the request was read just before a compaction the agent made: the
/// agent's context right after it beside ours, both redacted alike, and
/// with `keyed` the answer key judged on both (the one step that needs the
/// evaluator).
fn compare_with_agent(
    doc: &Document,
    read: &Read,
    ours: &Compaction,
    tokens: &TokenCounter,
    redactor: &mut Redactor,
    keyed: Option<&mut Keyed>,
) -> anyhow::Result<Option<(SideBySide, Option<KeyedPair>)>> {
    let compaction = read
        .origin
        .at_line
        .and_then(|at| doc.compactions().iter().find(|c| c.before_line == at));
    let Some(c) = compaction else {
        return Ok(None);
    };
    let agent = doc.read(At::Line(c.after_line))?.transcript;
    let before = &ours.redacted_input;
    let (agent, _) = redactor.redact_transcript(&agent);
    let side = side_by_side::side_by_side(c, before, &agent, &ours.request, tokens)?;
    let key = match keyed {
        Some(k) => Some(KeyedPair::judge(
            &mut k.evaluator,
            &k.judge,
            &k.key,
            before,
            &agent,
            &ours.request,
        )?),
        None => None,
    };
    Ok(Some((side, key)))
}
