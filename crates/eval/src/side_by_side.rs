//! An answer key judged on both sides of an agent's compaction
//! (`compact --key`): the agent's context and ours, each by the evaluator
//! `eval` runs. The unjudged comparison (tokens, literal state) needs no
//! model and is `continuity_core::side_by_side`.

use continuity_core::error::Error;
use continuity_core::side_by_side::whole_text;
use continuity_core::transcript::Transcript;
use serde::Serialize;

use crate::evaluate::{Evaluator, Records, SummaryReport, Verdict};
use crate::facts::FactKey;

/// One answer key judged on the agent's context and on ours, by the
/// evaluator `eval` runs, against the records of the request both compacted.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KeyedPair {
    pub judge: String,
    pub agent: SummaryReport,
    pub ours: SummaryReport,
}

impl KeyedPair {
    /// Judge `key` on `agent` and `ours`, each read whole (instructions and
    /// conversation), against the records of `before`.
    pub fn judge(
        evaluator: &mut Evaluator,
        judge: &str,
        key: &FactKey,
        before: &Transcript,
        agent: &Transcript,
        ours: &Transcript,
    ) -> Result<KeyedPair, Error> {
        let records = Records::from_transcript(before);
        Ok(KeyedPair {
            judge: judge.to_string(),
            agent: evaluator.evaluate(&records, key, "agent", &whole_text(agent))?,
            ours: evaluator.evaluate(&records, key, "ours", &whole_text(ours))?,
        })
    }
}

/// How many facts of a report got each verdict: (supported, omitted,
/// contradicted).
pub fn verdict_counts(r: &SummaryReport) -> (usize, usize, usize) {
    let n = |v: Verdict| r.facts.iter().filter(|f| f.verdict == v).count();
    (
        n(Verdict::Supported),
        n(Verdict::Omitted),
        n(Verdict::Contradicted),
    )
}
