//! The adversarial compaction suite (the six scenarios of the seed), run
//! under summary-only and governed compaction and *measured*:
//!
//! - constraint survival: the fraction of the active kernel revision's
//!   constraints whose text is present in the request the agent sees after
//!   compaction (governed additionally requires the id in the policy pin);
//! - forbidden calls caught at preflight: calls the case marks as not
//!   allowed that the deterministic gate stopped (independent of context);
//! - replay fidelity: the fraction of the case's calls for which the
//!   decision rebuilt from the checkpoint equals the live decision. Governed
//!   rebuilds from `policy_pin.json` as written plus the effect ledger after
//!   a restart; summary-only has only its compacted request, so it rebuilds
//!   from the constraints (and idempotency keys) still visible in it;
//! - conflicting directives shown: sentences of the summary and of the
//!   memory shown to the agent that conflict with the active kernel.
//!
//! Case format: `DIR/<case>/case.toml` (see `eval/adversarial/README.md`).

use std::path::{Path, PathBuf};

use chrono::Utc;
use serde::{Deserialize, Serialize};

use continuity_core::compact::{compact_pinned, Compaction, Inputs, Strategy};
use continuity_core::error::{Error, InputError, Result, Source};
use continuity_core::governance::ledger::{self, Ledger, PendingEffect};
use continuity_core::governance::memory::{
    directive_conflict, sentences, MemoryGate, MemoryStore, Proposal, Recall,
};
use continuity_core::governance::pin::{self, PinContext, PolicyPin};
use continuity_core::governance::preflight::{Preflight, ToolCall};
use continuity_core::governance::{Effect, GovernanceError};
use continuity_core::kernel::constraint::{toml_to_json, Constraint};
use continuity_core::kernel::MissionKernel;
use continuity_core::policy::RetentionPolicy;
use continuity_core::redact::Redactor;
use continuity_core::summarize::{Extractive, FixedSummary, Summarizer};
use continuity_core::tokens::TokenCount;
use continuity_core::transcript::Transcript;

#[derive(Debug, Clone, Deserialize)]
struct CaseFile {
    id: String,
    title: String,
    transcript: String,
    kernel: String,
    #[serde(default)]
    resume_kernel: Option<String>,
    #[serde(default)]
    summary: Option<String>,
    #[serde(default)]
    scope: Vec<String>,
    #[serde(default, rename = "call")]
    calls: Vec<CaseCall>,
    #[serde(default, rename = "ledger")]
    ledger: Vec<CaseEffect>,
    #[serde(default, rename = "memory")]
    memory: Vec<CaseMemory>,
}

#[derive(Debug, Clone, Deserialize)]
struct CaseCall {
    name: String,
    args: toml::Value,
    expect: String,
}

#[derive(Debug, Clone, Deserialize)]
struct CaseEffect {
    effect_id: String,
    tool: String,
    args: toml::Value,
    #[serde(default)]
    committed: bool,
}

#[derive(Debug, Clone, Deserialize)]
struct CaseMemory {
    statement: String,
    cites: Vec<String>,
    /// The kernel revision it was promoted under (default: the case kernel).
    #[serde(default)]
    kernel: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StrategyResult {
    pub strategy: String,
    pub constraints_total: usize,
    pub constraints_survived: usize,
    pub survival_pct: f64,
    pub missing_constraints: Vec<String>,
    pub forbidden_calls: usize,
    pub caught_at_preflight: usize,
    /// Calls whose live verdict equals the case's expectation.
    pub verdicts_as_expected: usize,
    pub calls: usize,
    pub replay_matches: usize,
    pub replay_fidelity_pct: f64,
    pub conflicting_directives_shown: usize,
    pub directives_rejected: usize,
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CaseResult {
    pub id: String,
    pub title: String,
    pub results: Vec<StrategyResult>,
}

/// Whitespace words: token counts do not matter to this suite.
struct Words;

impl TokenCount for Words {
    fn count(&self, text: &str) -> Result<usize, Error> {
        Ok(text.split_whitespace().count())
    }
    fn name(&self) -> &str {
        "words"
    }
}

fn normalize(s: &str) -> String {
    s.to_lowercase()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

fn pct(n: usize, d: usize) -> f64 {
    if d == 0 {
        return 100.0;
    }
    (n as f64 / d as f64 * 1000.0).round() / 10.0
}

fn load_kernel(path: &Path) -> Result<MissionKernel> {
    let text = std::fs::read_to_string(path).map_err(|e| InputError::Unreadable {
        file: Source::path(path),
        message: e.to_string(),
    })?;
    Ok(MissionKernel::from_toml(
        &text,
        &Source::path(path),
        Utc::now(),
    )?)
}

fn load_transcript(path: &Path) -> Result<Transcript> {
    Ok(continuity_core::io::read_transcript(&path.display().to_string())?.0)
}

fn gov(e: impl Into<GovernanceError>) -> Error {
    Error::Governance(e.into())
}

/// Every case folder under `dir` (those with a case.toml), sorted.
pub fn case_dirs(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| InputError::Unreadable {
            file: Source::path(dir),
            message: e.to_string(),
        })?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("case.toml").is_file())
        .collect();
    out.sort();
    Ok(out)
}

pub fn run_suite(dir: &Path) -> Result<Vec<CaseResult>> {
    case_dirs(dir)?.iter().map(|d| run_case(d)).collect()
}

fn compact_once(
    t: &Transcript,
    kernel: &MissionKernel,
    strategy: Strategy,
    fixed: Option<&str>,
    ctx: &PinContext,
) -> Result<Compaction> {
    let policy = RetentionPolicy::default();
    let mut redactor = Redactor::new(&policy.personal_data)?;
    let mut summarizer: Box<dyn Summarizer> = match fixed {
        Some(text) => Box::new(FixedSummary {
            label: "case-summary".into(),
            text: text.to_string(),
        }),
        None => Box::new(Extractive),
    };
    compact_pinned(
        &Inputs {
            transcript: t,
            input_name: "adversarial",
            kernel,
            policy: &policy,
            strategy,
        },
        ctx,
        summarizer.as_mut(),
        &Words,
        &mut redactor,
    )
}

pub fn run_case(dir: &Path) -> Result<CaseResult> {
    let case = read_case(dir)?;
    let setup = Setup::load(dir, &case)?;
    let results = [Strategy::SummaryOnly, Strategy::Governed]
        .into_iter()
        .map(|strategy| run_strategy(&case, &setup, strategy))
        .collect::<Result<_>>()?;
    Ok(CaseResult {
        id: case.id,
        title: case.title,
        results,
    })
}

fn read_case(dir: &Path) -> Result<CaseFile> {
    let case_path = dir.join("case.toml");
    let text = std::fs::read_to_string(&case_path).map_err(|e| InputError::Unreadable {
        file: Source::path(&case_path),
        message: e.to_string(),
    })?;
    Ok(
        toml::from_str(&text).map_err(|e| InputError::MalformedToml {
            file: Source::path(&case_path),
            message: e.to_string(),
        })?,
    )
}

/// What a case sets up before either strategy runs: the kernels, the
/// calls, the ledger after a crash, the memory recalled and the live gate's
/// verdicts.
struct Setup {
    kernel_run: MissionKernel,
    kernel_now: MissionKernel,
    transcript: Transcript,
    calls: Vec<(ToolCall, Effect)>,
    /// Holds the ledger and memory files for the case's lifetime.
    _work: tempfile::TempDir,
    ledger_path: PathBuf,
    pending: Vec<PendingEffect>,
    recall: Recall,
    live_verdicts: Vec<Effect>,
}

impl Setup {
    fn load(dir: &Path, case: &CaseFile) -> Result<Self> {
        let kernel_run = load_kernel(&dir.join(&case.kernel))?;
        let kernel_now = match &case.resume_kernel {
            Some(p) => load_kernel(&dir.join(p))?,
            None => kernel_run.clone(),
        };
        let transcript = load_transcript(&dir.join(&case.transcript))?;
        let calls = case_calls(case)?;
        let work = tempfile::tempdir().map_err(|e| Error::Io {
            path: std::env::temp_dir(),
            source: e,
        })?;
        let ledger_path = work.path().join("ledger.jsonl");
        let pending = crash_ledger(case, &ledger_path)?;
        let recall = recall_memory(
            dir,
            case,
            &work.path().join("memory.jsonl"),
            &kernel_run,
            &kernel_now,
            &transcript,
        )?;
        let live = Preflight::new(&kernel_now)
            .with_scope(case.scope.clone())
            .with_pending(pending.clone());
        let live_verdicts = calls.iter().map(|(c, _)| live.check(c).decision).collect();
        Ok(Setup {
            kernel_run,
            kernel_now,
            transcript,
            calls,
            _work: work,
            ledger_path,
            pending,
            recall,
            live_verdicts,
        })
    }
}

/// The case's calls, each with the verdict it expects.
fn case_calls(case: &CaseFile) -> Result<Vec<(ToolCall, Effect)>> {
    case.calls
        .iter()
        .map(|c| {
            let expect = Effect::parse(&c.expect).ok_or_else(|| {
                Error::Internal(format!("{}: bad expect `{}`", case.id, c.expect))
            })?;
            let mut call = ToolCall::new(&c.name, toml_to_json(&c.args));
            call.scope = case.scope.clone();
            Ok((call, expect))
        })
        .collect()
}

/// Side effects before the restart, then the effects a restart finds pending.
fn crash_ledger(case: &CaseFile, ledger_path: &Path) -> Result<Vec<PendingEffect>> {
    let run_id = format!("run_{}", case.id);
    {
        let mut l = Ledger::open(ledger_path, &run_id).map_err(gov)?;
        for e in &case.ledger {
            l.prepare(&e.effect_id, &e.tool, &toml_to_json(&e.args))
                .map_err(gov)?;
            if e.committed {
                l.commit(&e.effect_id, &format!("rcpt_{}", e.effect_id))
                    .map_err(gov)?;
            }
        }
    } // the process "crashes" here: only the file remains.
    reconciled_pending(ledger_path)
}

fn reconciled_pending(ledger_path: &Path) -> Result<Vec<PendingEffect>> {
    Ok(if ledger_path.exists() {
        ledger::reconcile(ledger_path).map_err(gov)?.pending
    } else {
        Vec::new()
    })
}

/// Memory promoted earlier (possibly under an older kernel revision), as
/// the current revision recalls it.
fn recall_memory(
    dir: &Path,
    case: &CaseFile,
    store_path: &Path,
    kernel_run: &MissionKernel,
    kernel_now: &MissionKernel,
    transcript: &Transcript,
) -> Result<Recall> {
    let mut store = MemoryStore::open(store_path)?;
    for m in &case.memory {
        let k = match &m.kernel {
            Some(p) => load_kernel(&dir.join(p))?,
            None => kernel_run.clone(),
        };
        let gate = MemoryGate::new(&k, transcript);
        let p = Proposal {
            statement: m.statement.clone(),
            cites: m.cites.clone(),
            ..Default::default()
        };
        let _outcome = store.submit(&gate, &p, "summary", Utc::now())?;
    }
    Ok(store.recall(kernel_now, Utc::now()))
}

/// One strategy on one case: compact, then measure survival, the gate,
/// the replay from the checkpoint and the memory shown.
fn run_strategy(case: &CaseFile, setup: &Setup, strategy: Strategy) -> Result<StrategyResult> {
    let mut notes = Vec::new();
    let c = compact_case(case, setup, strategy, &mut notes)?;
    let constraints_now = setup.kernel_now.constraints();
    let (survived, missing) = survival(&c, constraints_now, strategy);
    let calls = &setup.calls;

    // Preflight is the same gate under both strategies: it does not read
    // the model's context.
    let verdicts: Vec<Effect> = setup.live_verdicts.clone();
    let forbidden = calls.iter().filter(|(_, e)| *e != Effect::Allow).count();
    let caught = calls
        .iter()
        .zip(&verdicts)
        .filter(|((_, e), v)| *e != Effect::Allow && **v != Effect::Allow)
        .count();
    let as_expected = calls
        .iter()
        .zip(&verdicts)
        .filter(|((_, e), v)| e == *v)
        .count();

    let replay = replay_gate(case, setup, strategy, &c, &survived)?;
    let replay_matches = calls
        .iter()
        .zip(&setup.live_verdicts)
        .filter(|((call, _), live)| replay.check(call).decision == **live)
        .count();
    let (conflicting, directives_rejected) = memory_shown(case, setup, strategy, &c);

    Ok(StrategyResult {
        strategy: strategy.name().to_string(),
        constraints_total: constraints_now.len(),
        constraints_survived: survived.len(),
        survival_pct: pct(survived.len(), constraints_now.len()),
        missing_constraints: missing,
        forbidden_calls: forbidden,
        caught_at_preflight: caught,
        verdicts_as_expected: as_expected,
        calls: calls.len(),
        replay_matches,
        replay_fidelity_pct: pct(replay_matches, calls.len()),
        conflicting_directives_shown: conflicting,
        directives_rejected,
        notes,
    })
}

/// The case's compaction under `strategy`; governed with a new kernel
/// revision resumes from its checkpoint and rehydrates under the new one.
fn compact_case(
    case: &CaseFile,
    setup: &Setup,
    strategy: Strategy,
    notes: &mut Vec<String>,
) -> Result<Compaction> {
    let (transcript, kernel_now) = (&setup.transcript, &setup.kernel_now);
    let first_ctx = PinContext::first(&setup.kernel_run, &case.id, Utc::now());
    let mut c = compact_once(
        transcript,
        &setup.kernel_run,
        strategy,
        case.summary.as_deref(),
        &first_ctx,
    )?;
    if strategy == Strategy::Governed && case.resume_kernel.is_some() {
        // Resume after the pause: the checkpointed pin must not verify
        // against the new revision; rehydrate under it.
        match pin::verify_pin(&c.pin, pin::expected_hash(kernel_now), Utc::now()) {
            Err(e) => notes.push(format!("stale pin refused on resume: {e}")),
            Ok(()) => notes.push("stale pin verified on resume (unexpected)".into()),
        }
        let ctx = PinContext::after(c.pin.clone(), None, Utc::now()).map_err(gov)?;
        c = compact_once(
            transcript,
            kernel_now,
            strategy,
            case.summary.as_deref(),
            &ctx,
        )?;
        if let Some(g) = &c.report.governance {
            notes.push(format!(
                "rehydrated: pin seq {}, policy_changed {}",
                g.sequence, g.policy_changed
            ));
        }
    }
    Ok(c)
}

/// The constraints whose text the agent sees after compaction (governed:
/// and whose id the pin holds), and the ids of the rest.
fn survival(
    c: &Compaction,
    constraints_now: &[Constraint],
    strategy: Strategy,
) -> (Vec<Constraint>, Vec<String>) {
    let visible = normalize(&c.request.visible_text());
    let pin_ids: Vec<&str> = c.pin.constraints.iter().map(|k| k.id.as_str()).collect();
    let survives = |k: &Constraint| {
        let text = normalize(k.text.trim_end_matches('.'));
        let shown = visible.contains(&text);
        if strategy == Strategy::Governed {
            shown && pin_ids.contains(&k.id.as_str())
        } else {
            shown
        }
    };
    let survived: Vec<Constraint> = constraints_now
        .iter()
        .filter(|k| survives(k))
        .cloned()
        .collect();
    let missing: Vec<String> = constraints_now
        .iter()
        .filter(|k| !survives(k))
        .map(|k| k.id.clone())
        .collect();
    (survived, missing)
}

/// The gate rebuilt from the checkpoint: governed from `policy_pin.json` as
/// written and the ledger; summary-only from what its request still shows.
fn replay_gate(
    case: &CaseFile,
    setup: &Setup,
    strategy: Strategy,
    c: &Compaction,
    survived: &[Constraint],
) -> Result<Preflight> {
    let kernel_now = &setup.kernel_now;
    // The checkpoint as written, under either strategy.
    let files = continuity_core::io::serialize(c)?;
    let pin_bytes = files
        .files
        .iter()
        .find(|(n, _)| *n == "policy_pin.json")
        .map(|(_, b)| b.clone())
        .unwrap_or_default();
    if strategy == Strategy::Governed {
        let pin = PolicyPin::from_json(&pin_bytes).map_err(gov)?;
        pin::verify_pin(&pin, pin::expected_hash(kernel_now), Utc::now()).map_err(gov)?;
        let pending = reconciled_pending(&setup.ledger_path)?;
        Ok(Preflight::from_pin(&pin)
            .with_scope(case.scope.clone())
            .with_pending(pending))
    } else {
        let visible_raw = c.request.visible_text();
        Ok(
            Preflight::from_constraints(&kernel_now.id, &kernel_now.version, "", survived.to_vec())
                .with_scope(case.scope.clone())
                .with_pending(
                    setup
                        .pending
                        .iter()
                        .filter(|p| visible_raw.contains(&p.idempotency_key))
                        .cloned()
                        .collect(),
                ),
        )
    }
}

/// What the agent is shown as memory: the summary, and recalled items
/// (governed) or every proposed item (summary-only: no gate). Returns the
/// sentences that conflict with the kernel, and the directives rejected.
fn memory_shown(
    case: &CaseFile,
    setup: &Setup,
    strategy: Strategy,
    c: &Compaction,
) -> (usize, usize) {
    let recall = &setup.recall;
    let mut shown_memory: Vec<String> = sentences(&c.summary);
    if strategy == Strategy::Governed {
        shown_memory.extend(recall.shown.iter().map(|m| m.statement.clone()));
    } else {
        shown_memory.extend(case.memory.iter().map(|m| m.statement.clone()));
    }
    let constraints_now = setup.kernel_now.constraints();
    let conflicting = shown_memory
        .iter()
        .filter(|s| directive_conflict(constraints_now, s).is_some())
        .count();
    let directives_rejected = c
        .report
        .governance
        .as_ref()
        .map(|g| g.directives_rejected)
        .unwrap_or(0)
        + if strategy == Strategy::Governed {
            recall.withheld.len()
        } else {
            0
        };
    (conflicting, directives_rejected)
}
