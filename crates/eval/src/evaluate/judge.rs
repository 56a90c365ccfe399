//! The local LLM judge. Anything that can score three label tokens
//! implements [`EntailmentJudge`]; [`LlmJudge`] does it with a GGUF model on
//! the candle runtime (few-shot prompt, label log-probabilities, KV prefix
//! reuse). The evaluator uses its probabilities as features of the fact's
//! aligned clause.

use continuity_core::error::Result;

/// Probabilities of the three readings of a claim against a premise.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Nli {
    pub entails: f32,
    pub neutral: f32,
    pub contradicts: f32,
}

impl Nli {
    /// Softmax over the log-probabilities of the three label tokens
    /// (entails, neutral, contradicts) at the answer position.
    pub fn from_logprobs(lp: [f32; 3]) -> Nli {
        let m = lp.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let e: Vec<f32> = lp.iter().map(|x| (x - m).exp()).collect();
        let z: f32 = e.iter().sum();
        Nli {
            entails: e[0] / z,
            neutral: e[1] / z,
            contradicts: e[2] / z,
        }
    }
}

/// A local judge. `premise` is the fact statement followed by the evidence
/// records it rests on (rendered text); `claim` is one summary sentence or
/// clause. Implementations are expected to run a chat model on
/// [`judge_prompt`] and read the next-token log-probs of the label words
/// [`LABELS`] (first token of each), then call [`Nli::from_logprobs`].
pub trait EntailmentJudge: Send {
    /// Short name for reports (model name and quantization).
    fn name(&self) -> &str;
    fn judge(&mut self, premise: &str, claim: &str) -> Result<Nli>;
    /// Many (premise, claim) pairs; judges that can batch override this.
    fn judge_many(&mut self, pairs: &[(String, String)]) -> Result<Vec<Nli>> {
        pairs.iter().map(|(p, c)| self.judge(p, c)).collect()
    }
    /// Judge as a model that never trained on `case` (`None`: as shipped).
    /// Only cross-fitted judges differ; a calibration summary must be judged
    /// out of fold so the combiner learns from honest scores.
    fn hold_out(&mut self, _case: Option<&str>) -> Result<()> {
        Ok(())
    }
}

/// Label words, in the order of [`Nli::from_logprobs`].
pub const LABELS: [&str; 3] = ["entails", "neutral", "contradicts"];

/// The prompt a judge should score. The answer is one label word.
pub fn judge_prompt(premise: &str, claim: &str) -> String {
    format!(
        "Records (true):\n{premise}\n\nClaim:\n{claim}\n\n\
         Does the claim follow from the records (entails), go beyond them or \
         talk about something else (neutral), or state something the records \
         show to be false (contradicts)? Answer with one word: entails, \
         neutral or contradicts.\nAnswer:"
    )
}

/// Few-shot examples for [`LlmJudge`]: (fact, claim, label index). Drawn by
/// hand from summaries of the CALIBRATION split only
/// (`eval/faithfulness/summaries.jsonl`, `split = "calib"`), two per label.
pub const SHOTS: &[(&str, &str, usize)] = &[
    (
        "The $30 Deep Time Analytics add-on was added on 2026-09-12 by the admin seat U-2 (not the owner) and was billed as the add-on policy allows.",
        "The $30 add-on charge is valid: the account's admin, U-2, ordered it on 2026-09-12.",
        0,
    ),
    (
        "Support ticket SUP-5601 concluded 'duplicate charge' and promised a $149 refund before billing review; the promise is wrong and must be withdrawn by a human.",
        "The $149 refund promised in SUP-5601 is valid and should be paid out.",
        2,
    ),
    (
        "Support ticket SUP-5549 told the customer 'no credit due' for the July upgrade; that answer was wrong because CR-778 exists and is owed.",
        "SUP-5549 was a ticket about the July upgrade.",
        1,
    ),
    (
        "The $19.60 proration credit CR-778 from the July upgrade (INV-2607P) is still unapplied and the owner was never notified; the customer is owed $19.60.",
        "Credit CR-778 for $19.60 was already applied to the August invoice.",
        2,
    ),
    (
        "The second EUR 412.50 on 2027-05-03 (PAY-77120) is an authorization that was never captured; it was re-attempted as PAY-77124, the only capture for INV-27-0503, and voided on 2027-05-06.",
        "The EUR 412.50 double charge is not real: PAY-77120 was an uncaptured authorization, voided on 2027-05-06 after the retry PAY-77124 captured.",
        0,
    ),
    (
        "The open escalation SUP-5602 still has three open obligations: decide on the refund promised in SUP-5601, answer the Deep Time Analytics add-on question, and review the July upgrade question.",
        "The agent may not issue refunds, modify billing records or contact the customer.",
        1,
    ),
];

/// Prompt styles measured by `eval-bench --judge`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromptStyle {
    /// Plain-text few-shot block ([`SHOTS`]), answer word after "Answer:".
    FewShot,
    /// Instructions only, no examples.
    ZeroShot,
}

/// Answer words of the LLM judge, in [`Nli`] order; the first token of
/// each (with a leading space) is scored.
pub const ANSWERS: [&str; 3] = [" agrees", " unrelated", " contradicts"];

const INSTRUCTIONS: &str = "Each example gives a true fact from the records and one claim from a summary. \
Answer \"agrees\" if the claim states the fact (or part of it) correctly, \"unrelated\" if the claim does not \
state the fact, and \"contradicts\" if the claim says something the fact shows to be false.\n\n";

fn example(fact: &str, claim: &str) -> String {
    format!("Fact: {fact}\nClaim: {claim}\nAnswer:")
}

/// A local LLM judge on the candle runtime: scores the three answer words
/// from the next-token log-probabilities (no free text is parsed). The KV
/// cache keeps the longest shared token prefix between calls (the few-shot
/// block, then the fact), so each call runs only the new tokens.
pub struct LlmJudge {
    model: continuity_llm::model::Model,
    label_ids: [u32; 3],
    prefix: String,
    /// Tokens whose keys/values the cache holds.
    cached: Vec<u32>,
    name: String,
    /// Development memo (`CONTINUITY_JUDGE_MEMO=FILE`): label log-probs by
    /// prompt, read at load and appended to, so re-running the bench skips
    /// pairs already judged. Off by default (timings would be meaningless).
    memo: std::collections::HashMap<String, [f32; 3]>,
    memo_file: Option<std::path::PathBuf>,
}

impl LlmJudge {
    pub fn load(name: &str, style: PromptStyle) -> Result<LlmJudge> {
        use continuity_core::error::Error;
        let model = continuity_llm::model::Model::load_by_name(
            name,
            None,
            continuity_llm::arch::decoder::LoadOptions::default(),
            Some(&continuity_models::hub::HfHub),
        )
        .map_err(|e| Error::Internal(format!("judge model {name}: {e}")))?;
        let mut label_ids = [0u32; 3];
        for (i, w) in ANSWERS.iter().enumerate() {
            let ids = model
                .tokenizer
                .encode(*w, false)
                .map_err(|e| Error::Internal(e.to_string()))?;
            label_ids[i] = *ids
                .get_ids()
                .first()
                .ok_or_else(|| Error::Internal(format!("answer word {w:?} has no tokens")))?;
        }
        if label_ids[0] == label_ids[1]
            || label_ids[1] == label_ids[2]
            || label_ids[0] == label_ids[2]
        {
            return Err(Error::Internal(format!(
                "judge {name}: answer words share a first token"
            )));
        }
        let mut prefix = INSTRUCTIONS.to_string();
        if style == PromptStyle::FewShot {
            for (f, c, l) in SHOTS {
                prefix.push_str(&example(f, c));
                prefix.push_str(ANSWERS[*l]);
                prefix.push_str("\n\n");
            }
        }
        let label = match style {
            PromptStyle::FewShot => name.to_string(),
            PromptStyle::ZeroShot => format!("{name}/zero-shot"),
        };
        let memo_file = std::env::var_os("CONTINUITY_JUDGE_MEMO").map(|p| {
            let mut p = std::path::PathBuf::from(p);
            let stem = p
                .file_name()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            p.set_file_name(format!("{stem}.{}.jsonl", label.replace('/', "_")));
            p
        });
        let mut memo = std::collections::HashMap::new();
        if let Some(text) = memo_file
            .as_ref()
            .and_then(|p| std::fs::read_to_string(p).ok())
        {
            for line in text.lines() {
                if let Ok((k, v)) = serde_json::from_str::<(String, [f32; 3])>(line) {
                    memo.insert(k, v);
                }
            }
        }
        Ok(LlmJudge {
            model,
            label_ids,
            prefix,
            cached: Vec::new(),
            name: label,
            memo,
            memo_file,
        })
    }

    /// Log-probabilities of the three answer tokens after `text`.
    fn score(&mut self, text: &str) -> Result<[f32; 3]> {
        use continuity_core::error::Error;
        let toks = self
            .model
            .encode(text)
            .map_err(|e| Error::Internal(e.to_string()))?;
        if toks.is_empty() || toks.len() > self.model.context_length() {
            return Err(Error::Internal(format!(
                "judge prompt of {} tokens does not fit",
                toks.len()
            )));
        }
        let mut p = self
            .cached
            .iter()
            .zip(&toks)
            .take_while(|(a, b)| a == b)
            .count();
        p = p.min(toks.len() - 1);
        let chunk = self.model.network.max_prefill_chunk().unwrap_or(usize::MAX);
        let mut logits = Vec::new();
        let mut pos = p;
        self.cached.truncate(p);
        while pos < toks.len() {
            let end = (pos + chunk).min(toks.len());
            logits = self
                .model
                .network
                .forward(&toks[pos..end], pos)
                .map_err(|e| Error::Internal(e.to_string()))?;
            pos = end;
        }
        self.cached = toks;
        let m = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let z = logits.iter().map(|x| (x - m).exp()).sum::<f32>().ln() + m;
        let mut lp = [0f32; 3];
        for (i, id) in self.label_ids.iter().enumerate() {
            lp[i] = logits
                .get(*id as usize)
                .copied()
                .unwrap_or(f32::NEG_INFINITY)
                - z;
        }
        Ok(lp)
    }
}

impl EntailmentJudge for LlmJudge {
    fn name(&self) -> &str {
        &self.name
    }
    fn judge(&mut self, premise: &str, claim: &str) -> Result<Nli> {
        let q = example(premise, claim);
        if let Some(lp) = self.memo.get(&q) {
            return Ok(Nli::from_logprobs(*lp));
        }
        let text = format!("{}{q}", self.prefix);
        let lp = self.score(&text)?;
        if let Some(p) = &self.memo_file {
            use std::io::Write;
            if let Ok(mut f) = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
            {
                if let Ok(line) = serde_json::to_string(&(&q, lp)) {
                    let _ = writeln!(f, "{line}");
                }
            }
            self.memo.insert(q, lp);
        }
        Ok(Nli::from_logprobs(lp))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logprobs_to_probabilities() {
        let n = Nli::from_logprobs([-0.1, -3.0, -5.0]);
        assert!(n.entails > 0.9);
        assert!((n.entails + n.neutral + n.contradicts - 1.0).abs() < 1e-5);
    }
}
