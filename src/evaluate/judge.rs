//! The plug-in point for a local LLM judge. The candle LLM runtime lives on
//! another branch; anything that can score three label tokens implements
//! [`EntailmentJudge`] and the evaluator uses it as one more contradiction
//! signal on the summary clauses aligned with a fact.

use crate::error::Result;

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
pub trait EntailmentJudge {
    /// Short name for reports (model name and quantization).
    fn name(&self) -> &str;
    fn judge(&mut self, premise: &str, claim: &str) -> Result<Nli>;
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
