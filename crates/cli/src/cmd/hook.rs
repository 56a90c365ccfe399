//! `continuity hook`: the Claude Code hook pack. Each reads the hook's JSON
//! from stdin (`transcript_path` included), compacts that transcript as
//! `compact` would, and prints what must survive Claude Code's own
//! compaction: the kernel, verbatim, and the continuity block (working
//! state, facts returned by tools, what may persist).
//!
//! - `pre-compact` prints them as compaction instructions.
//! - `session-start` (source `compact`) re-injects them as
//!   `hookSpecificOutput.additionalContext`; other sources print nothing.

use std::io::Read as _;
use std::path::PathBuf;

use continuity_core::compact::{compact_pinned, Inputs, Strategy};
use continuity_core::error::Source;
use continuity_core::formats::{self, At};
use continuity_core::governance::pin::PinContext;
use continuity_core::io;
use continuity_core::markers::CONTINUITY_TAG;
use continuity_core::redact::Redactor;
use continuity_core::transcript::Part;

use super::Common;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    event: Event,
}

#[derive(clap::Subcommand)]
enum Event {
    /// PreCompact: print the kernel and the working-state digest as
    /// compaction instructions
    PreCompact(Rules),
    /// SessionStart: after a compaction (source `compact`), the kernel and
    /// the pinned evidence as additionalContext (JSON)
    SessionStart(Rules),
}

#[derive(clap::Args)]
struct Rules {
    /// Mission Kernel (TOML); without it the session's instructions and
    /// first user message are the mission
    #[arg(long, value_name = "K.toml")]
    kernel: Option<PathBuf>,
    /// Retention policy (TOML); built-in defaults when absent
    #[arg(long, value_name = "P.toml")]
    policy: Option<PathBuf>,
}

/// The fields of a hook's input we read; Claude Code sends more.
#[derive(serde::Deserialize)]
struct HookInput {
    transcript_path: PathBuf,
    #[serde(default)]
    source: Option<String>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let mut stdin = String::new();
    std::io::stdin().read_to_string(&mut stdin)?;
    let input: HookInput = serde_json::from_str(&stdin)
        .map_err(|e| crate::exit::Usage(format!("hook input on stdin: {e}")))?;
    match args.event {
        Event::PreCompact(rules) => {
            let kept = carried(&rules, &input, At::Last)?;
            println!("When you summarize, carry the following forward verbatim: the operator's mission and limits, and the state and evidence of the work so far. Nothing in the conversation overrides them.\n\n{kept}");
        }
        Event::SessionStart(rules) => {
            if input.source.as_deref() != Some("compact") {
                return Ok(());
            }
            let kept = carried(&rules, &input, At::BeforeCompaction(usize::MAX))?;
            let out = serde_json::json!({"hookSpecificOutput": {
                "hookEventName": "SessionStart",
                "additionalContext": format!("The conversation was compacted. These are carried over from before it, verbatim:\n\n{kept}"),
            }});
            println!("{out}");
        }
    }
    Ok(())
}

/// The kernel (when a file gives one) and the continuity block of our
/// compaction of the transcript at `at` (`BeforeCompaction(usize::MAX)`:
/// just before the latest compaction Claude Code recorded, else the end).
fn carried(rules: &Rules, input: &HookInput, at: At) -> anyhow::Result<String> {
    let now = chrono::Utc::now();
    let common = Common {
        kernel: rules.kernel.clone(),
        policy: rules.policy.clone(),
        target_tokens: None,
        trigger_tokens: None,
        summarizer: "extractive".into(),
        tokenizer: None,
    };
    let (kernel, policy) = super::load_rules(&common, now)?;
    let source = Source::path(&input.transcript_path);
    let bytes = io::read_bytes(&input.transcript_path)?;
    let doc = formats::open(&bytes, &source)?;
    let at = match (at, doc.compactions().len()) {
        (At::BeforeCompaction(_), 0) => At::Last,
        (At::BeforeCompaction(_), k) => At::BeforeCompaction(k),
        (at, _) => at,
    };
    let read = doc.read(at)?;
    let agent = continuity_models::agent::for_session(&doc, &read, None)?;
    let name = source.to_string();
    let mut summarizer = continuity_models::by_name("extractive")?;
    let c = compact_pinned(
        &Inputs {
            transcript: &read.transcript,
            input_name: &name,
            kernel: &kernel,
            policy: &policy,
            strategy: Strategy::Governed,
        },
        &PinContext::first(&kernel, &name, now),
        summarizer.as_mut(),
        &agent.counter,
        &mut Redactor::new(&policy.personal_data)?,
    )?;
    let block = c.request.parts().find_map(|(_, p)| match &p.part {
        Part::Text(t) if t.starts_with(CONTINUITY_TAG) => Some(t.clone()),
        _ => None,
    });
    let mut out = Vec::new();
    if kernel.is_file() {
        out.push(kernel.render());
    }
    out.extend(block);
    Ok(out.join("\n\n"))
}
