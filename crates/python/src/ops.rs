//! The library's operations: compact, plan, the trigger rule, token counts
//! and the tool-boundary preflight. Each converts its arguments, releases
//! the GIL, calls the library exactly as the CLI does, and converts back.

use std::path::PathBuf;

use continuity_core::compact::{compact_pinned, count_transcript, rebuild, select, Inputs};
use continuity_core::compact::{Compaction, Strategy};
use continuity_core::error::{Error, InputError, Source};
use continuity_core::governance::ledger;
use continuity_core::governance::pin::{PinContext, PolicyPin};
use continuity_core::governance::preflight::{calls_from_json, Preflight, ToolCall};
use continuity_core::governance::GovernanceError;
use continuity_core::io::{self, OutputFiles};
use continuity_core::kernel::MissionKernel;
use continuity_core::redact::Redactor;
use continuity_core::report::TriggerCheck;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use crate::config::{Kernel, Policy};
use crate::errors::{input, internal, to_py};
use crate::request::Request;
use crate::runtime::{agent_counter, Summarizer, TokenCounter};

/// The kernel, or the error until the core accepts none (then `None`
/// passes through).
fn require_kernel<'a>(kernel: &'a Option<Bound<'_, Kernel>>) -> PyResult<&'a MissionKernel> {
    kernel.as_ref().map(|k| &k.get().inner).ok_or_else(|| {
        input("a Mission Kernel is required: pass kernel= (a Kernel, a path to its TOML, TOML text or a dict)")
    })
}

fn strategy_of(name: &str) -> PyResult<Strategy> {
    name.parse().map_err(input)
}

fn pythonized<'py, T: serde::Serialize>(py: Python<'py>, v: &T) -> PyResult<Bound<'py, PyAny>> {
    pythonize::pythonize(py, v).map_err(internal)
}

/// Where the compaction's policy pin continues from.
enum PinFrom {
    /// `policy_pin.json` in the output folder, if any (the CLI's rule).
    Out(PathBuf),
    /// A pin from an earlier compaction of this run.
    Previous(Vec<u8>),
    First,
}

fn pin_context(
    from: &PinFrom,
    kernel: &MissionKernel,
    name: &str,
    run_id: Option<&str>,
) -> Result<PinContext, GovernanceError> {
    let now = chrono::Utc::now();
    match from {
        PinFrom::Out(dir) => io::pin_context(dir, kernel, name, run_id, now),
        PinFrom::Previous(bytes) => Ok(PinContext::after(
            PolicyPin::from_json(bytes)?,
            run_id,
            now,
        )?),
        PinFrom::First => {
            let mut ctx = PinContext::first(kernel, name, now);
            if let Some(r) = run_id {
                ctx.run_id = r.to_string();
            }
            Ok(ctx)
        }
    }
}

/// One compaction as `continuity compact` runs it: the pipeline, the
/// serialized files, the leak check, and with `out` the atomic write.
#[pyfunction]
#[pyo3(signature = (*, kernel, policy, summarizer, tokenizer = None, strategy = "governed",
    value = None, text = None, path = None, input_name = None, run_id = None,
    previous_pin = None, out = None))]
#[allow(clippy::too_many_arguments)]
pub fn compact<'py>(
    py: Python<'py>,
    kernel: Option<Bound<'py, Kernel>>,
    policy: Bound<'py, Policy>,
    summarizer: Bound<'py, Summarizer>,
    tokenizer: Option<Bound<'py, TokenCounter>>,
    strategy: &str,
    value: Option<Bound<'py, PyAny>>,
    text: Option<String>,
    path: Option<String>,
    input_name: Option<String>,
    run_id: Option<String>,
    previous_pin: Option<Vec<u8>>,
    out: Option<PathBuf>,
) -> PyResult<Bound<'py, PyDict>> {
    let request = Request::from_py(value.as_ref(), text, path)?;
    let kernel = require_kernel(&kernel)?;
    let strategy = strategy_of(strategy)?;
    let pin_from = match (out.clone(), previous_pin) {
        (Some(_), Some(_)) => {
            return Err(input(
                "give out= or previous_pin=, not both: a compaction into a folder continues the pin found there",
            ))
        }
        (Some(dir), None) => PinFrom::Out(dir),
        (None, Some(pin)) => PinFrom::Previous(pin),
        (None, None) => PinFrom::First,
    };
    let (policy, summarizer) = (&policy.get().inner, summarizer.get());
    let given = tokenizer.as_ref().map(|t| &t.get().inner);
    let (c, files) = py
        .detach(|| -> Result<(Compaction, OutputFiles), Error> {
            let (transcript, name) = request.read(input_name.as_deref())?;
            let tokens = agent_counter(given, transcript.model())?;
            let mut redactor = Redactor::new(&policy.personal_data)?;
            let ctx = pin_context(&pin_from, kernel, &name, run_id.as_deref())?;
            let c = compact_pinned(
                &Inputs {
                    transcript: &transcript,
                    input_name: &name,
                    kernel,
                    policy,
                    strategy,
                },
                &ctx,
                summarizer.lock()?.get(),
                tokens,
                &mut redactor,
            )?;
            let files = io::serialize(&c)?;
            io::check_leaks(&files, &mut redactor)?;
            if let Some(dir) = &out {
                io::write_atomically(dir, &files)?;
            }
            Ok((c, files))
        })
        .map_err(to_py)?;
    let result = PyDict::new(py);
    let request_json = continuity_core::formats::render(&c.request);
    result.set_item("request", pythonized(py, &request_json)?)?;
    result.set_item("report", pythonized(py, &c.report)?)?;
    result.set_item("audit", pythonized(py, &c.audit)?)?;
    result.set_item("summary", &c.summary)?;
    let pin: serde_json::Value = serde_json::from_slice(&c.pin.to_json()).map_err(internal)?;
    result.set_item("policy_pin", pythonized(py, &pin)?)?;
    let written = PyDict::new(py);
    for (name, bytes) in &files.files {
        written.set_item(*name, PyBytes::new(py, bytes))?;
    }
    result.set_item("files", written)?;
    Ok(result)
}

/// `continuity plan`: per strategy, the smallest trigger meeting the floor
/// rule and the compactions to expect per 100k tokens.
#[pyfunction]
#[pyo3(signature = (*, kernel, policy, summarizer, tokenizer = None, value = None, text = None,
    path = None, input_name = None))]
#[allow(clippy::too_many_arguments)]
pub fn plan<'py>(
    py: Python<'py>,
    kernel: Option<Bound<'py, Kernel>>,
    policy: Bound<'py, Policy>,
    summarizer: Bound<'py, Summarizer>,
    tokenizer: Option<Bound<'py, TokenCounter>>,
    value: Option<Bound<'py, PyAny>>,
    text: Option<String>,
    path: Option<String>,
    input_name: Option<String>,
) -> PyResult<Bound<'py, PyAny>> {
    let request = Request::from_py(value.as_ref(), text, path)?;
    let kernel = require_kernel(&kernel)?;
    let (policy, summarizer) = (&policy.get().inner, summarizer.get());
    let given = tokenizer.as_ref().map(|t| &t.get().inner);
    let plans = py
        .detach(|| -> Result<_, Error> {
            let (transcript, name) = request.read(input_name.as_deref())?;
            let tokens = agent_counter(given, transcript.model())?;
            continuity_core::plan::plan(
                &transcript,
                &name,
                kernel,
                policy,
                chrono::Utc::now(),
                summarizer.lock()?.get(),
                tokens,
            )
        })
        .map_err(to_py)?;
    pythonized(py, &plans)
}

/// The policy's trigger rule on a request, measured as a compaction would
/// measure it (redacted, in exact tokens): `report.trigger` before
/// compacting.
#[pyfunction]
#[pyo3(signature = (*, policy, tokenizer = None, value = None, text = None, path = None))]
pub fn trigger<'py>(
    py: Python<'py>,
    policy: Bound<'py, Policy>,
    tokenizer: Option<Bound<'py, TokenCounter>>,
    value: Option<Bound<'py, PyAny>>,
    text: Option<String>,
    path: Option<String>,
) -> PyResult<Bound<'py, PyAny>> {
    let request = Request::from_py(value.as_ref(), text, path)?;
    let policy = &policy.get().inner;
    let given = tokenizer.as_ref().map(|t| &t.get().inner);
    let check = py
        .detach(|| -> Result<TriggerCheck, Error> {
            let (transcript, _) = request.read(None)?;
            let tokens = agent_counter(given, transcript.model())?;
            let (t, _) = Redactor::new(&policy.personal_data)?.redact_transcript(&transcript);
            let input_tokens = count_transcript(&t, tokens)?;
            Ok(TriggerCheck::of(
                &policy.compaction,
                input_tokens,
                select::new_tool_results(&t),
            ))
        })
        .map_err(to_py)?;
    pythonized(py, &check)
}

/// Exact tokens of a whole request (instructions, tool schemas, every
/// message part), as a report's `tokens.before` counts them.
#[pyfunction]
#[pyo3(signature = (*, tokenizer = None, value = None, text = None, path = None))]
pub fn count_request<'py>(
    py: Python<'py>,
    tokenizer: Option<Bound<'py, TokenCounter>>,
    value: Option<Bound<'py, PyAny>>,
    text: Option<String>,
    path: Option<String>,
) -> PyResult<usize> {
    let request = Request::from_py(value.as_ref(), text, path)?;
    let given = tokenizer.as_ref().map(|t| &t.get().inner);
    py.detach(|| -> Result<usize, Error> {
        let (transcript, _) = request.read(None)?;
        count_transcript(&transcript, agent_counter(given, transcript.model())?)
    })
    .map_err(to_py)
}

/// Instructions with the kernel rendered at the end, any kernel rendered
/// before taken out (what a governed compaction writes).
#[pyfunction]
pub fn kernel_instructions(instructions: Vec<String>, kernel: Bound<'_, Kernel>) -> Vec<String> {
    rebuild::instructions(&instructions, Some(&kernel.get().inner))
}

/// `continuity preflight`: a verdict per tool call. `calls` is a call, a
/// list of calls, a request in any format, JSON lines, or (as a path) a
/// recorded run folder.
#[pyfunction]
#[pyo3(signature = (*, kernel, value = None, text = None, path = None, scope = Vec::new(),
    ledger = None))]
pub fn preflight<'py>(
    py: Python<'py>,
    kernel: Bound<'py, Kernel>,
    value: Option<Bound<'py, PyAny>>,
    text: Option<String>,
    path: Option<String>,
    scope: Vec<String>,
    ledger: Option<PathBuf>,
) -> PyResult<Bound<'py, PyAny>> {
    let request = Request::from_py(value.as_ref(), text, path)?;
    let kernel = &kernel.get().inner;
    let verdicts = py
        .detach(|| -> Result<_, Error> {
            let source = Source("<calls>".into());
            let calls: Vec<ToolCall> = match &request {
                Request::Path(p) => io::read_calls(p)?,
                Request::Text(t) => calls_from_json(t.as_bytes(), &source)?,
                Request::Value(v) => calls_from_json(
                    &serde_json::to_vec(v).map_err(|e| InputError::Unreadable {
                        file: source.clone(),
                        message: e.to_string(),
                    })?,
                    &source,
                )?,
            };
            let mut gate = Preflight::new(kernel).with_scope(scope);
            if let Some(l) = &ledger {
                gate =
                    gate.with_pending(ledger::reconcile(l).map_err(GovernanceError::from)?.pending);
            }
            Ok(calls.iter().map(|c| gate.check(c)).collect::<Vec<_>>())
        })
        .map_err(to_py)?;
    pythonized(py, &verdicts)
}
