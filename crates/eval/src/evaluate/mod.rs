//! Meaning-level evaluation of a summary against the records it summarises:
//! for each fact of an answer key, does the summary state it (supported),
//! leave it out (omitted) or say something the records show false
//! (contradicted)? Plus the summary sentences nothing in the records
//! supports, deterministic value mismatches, and the keyword check for
//! comparison.
//!
//! How a decision is made:
//! 1. The summary is cut into sentences and clauses ([`text`]).
//! 2. MiniLM embeddings ([`embed`]) align clauses with each fact statement;
//!    shared ids and amounts add an anchor bonus. Alignment ranks by topic,
//!    not truth: it decides supported/contradicted vs omitted only.
//! 3. On the aligned clauses, contradiction signals: the polarity lexicon
//!    ([`lexicon`]: the fact reads "authorization", the clause "duplicate
//!    payment"), actor roles, value checks (an id/amount/date the records do
//!    not have, or an amount other than the fact's for the fact's id), the
//!    embedding contrast between the fact and counterfactual readings
//!    generated from it, and an optional LLM judge ([`judge`]).
//! 4. Thresholds come from `eval/faithfulness/thresholds.toml`, calibrated on
//!    the calibration split by `continuity eval-bench --calibrate`.
//! 5. The verdict is the trained combiner's ([`combine`]): a logistic
//!    regression over these signals and the threshold rules' verdict,
//!    trained on the calibration split only (`combiner.toml`).

pub mod bench;
pub mod combine;
pub mod embed;
pub mod judge;
pub mod lexicon;
pub mod records;
pub mod suite;
pub mod text;
pub mod xenc;

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::facts::{Fact, FactKey, KeywordCheck};
pub use combine::Combiner;
use continuity_core::error::{Error, Result};
pub use embed::Embedder;
pub use judge::{EntailmentJudge, LlmJudge, Nli};
pub use records::Records;

/// The judge `continuity eval` and `eval-bench` use unless told otherwise
/// (`--judge NAME|none`): the cross-fitted cross-encoder ensemble. It was
/// chosen on blind cases written after the others (sample-custody: 0.688
/// against 0.647 for the synthetic-only `minilm-xenc`; its four-fold
/// successor: see README, evaluator section). The few-shot LLM judges
/// measured gave no signal on supported vs contradicted (AUC 0.51
/// smollm2-135m, 0.38 qwen2.5-0.5b) at 2-40 s per summary on 2 cores.
pub const DEFAULT_JUDGE: &str = xenc::CROSS_FITTED;

/// Thresholds, embedded from the calibrated file.
pub const THRESHOLDS_TOML: &str = include_str!("../../../../eval/faithfulness/thresholds.toml");

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Thresholds {
    /// Alignment (cosine + anchor bonus) at which a fact counts as mentioned.
    pub mention: f32,
    /// Lower alignment at which a clause that carries a contradiction signal
    /// still counts as the fact's (a clause saying the opposite is less
    /// similar to the fact), when the fact is that clause's best match.
    #[serde(default = "default_conflict_mention")]
    pub conflict_mention: f32,
    /// Lower alignment at which a clause counts as the fact's when it aligns
    /// with this fact better than with any other by at least `rel_gap`
    /// (large = off).
    #[serde(default = "default_conflict_mention")]
    pub rel_mention: f32,
    #[serde(default)]
    pub rel_gap: f32,
    /// Added to the cosine when a clause shares an id or amount with the fact.
    pub anchor_bonus: f32,
    /// Added when a clause names an id that only this fact of the key has.
    #[serde(default)]
    pub id_bonus: f32,
    /// Subtracted when a clause names ids of other facts and none of this one.
    #[serde(default)]
    pub foreign_penalty: f32,
    /// A clause may also align with one clause of a long fact statement, at
    /// this discount (large = whole statements only).
    #[serde(default = "default_conflict_mention")]
    pub part_discount: f32,
    /// Clauses within this of the best alignment also count as the fact's.
    pub margin: f32,
    /// Counterfactual contrast (cos to a counterfactual minus cos to the
    /// fact) above which a clause contradicts; large = off.
    pub contrast: f32,
    /// Best similarity to any fact or record below which a sentence is
    /// reported as unsupported.
    pub unsupported: f32,
    /// Judge probability of "contradicts" above which a clause contradicts.
    pub judge: f32,
    /// Use the polarity lexicon and actor roles.
    pub lexicon: bool,
    /// Use value checks (ids, amounts, dates).
    pub values: bool,
}

fn default_conflict_mention() -> f32 {
    f32::MAX
}

impl Thresholds {
    pub fn calibrated() -> Thresholds {
        toml::from_str(THRESHOLDS_TOML).expect("eval/faithfulness/thresholds.toml is valid")
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Supported,
    Omitted,
    Contradicted,
}

impl Verdict {
    pub const ALL: [Verdict; 3] = [Verdict::Supported, Verdict::Omitted, Verdict::Contradicted];
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Supported => "supported",
            Verdict::Omitted => "omitted",
            Verdict::Contradicted => "contradicted",
        }
    }
    pub fn index(self) -> usize {
        self as usize
    }
}

/// A value in the summary the records do not bear out.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Mismatch {
    /// `id`, `amount` or `date`.
    pub kind: &'static str,
    pub value: String,
    pub sentence: String,
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FactResult {
    pub id: String,
    pub verdict: Verdict,
    /// With the combiner (default): its probability of the verdict given;
    /// with the threshold rules only: the best alignment of a summary
    /// clause with the fact.
    pub score: f32,
    /// Summary sentences the verdict rests on.
    pub sentences: Vec<String>,
    /// Tool calls holding the records the fact rests on.
    pub evidence: Vec<String>,
    /// Why a contradiction was called.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reasons: Vec<String>,
    /// The LLM judge's label probabilities on the best-aligned clause, when
    /// a judge ran on it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub judge: Option<Nli>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Unsupported {
    pub sentence: String,
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SummaryReport {
    pub id: String,
    pub facts: Vec<FactResult>,
    pub unsupported: Vec<Unsupported>,
    pub mismatches: Vec<Mismatch>,
    pub keyword: KeywordCheck,
}

/// Signals for one (fact, clause) pair.
#[derive(Debug, Clone)]
pub struct UnitSignals {
    pub unit: usize,
    pub cos: f32,
    /// Best cosine with one clause of the fact statement.
    pub cos_part: f32,
    pub anchored: bool,
    /// Names an id only this fact has.
    pub specific: bool,
    /// Names other facts' ids and none of this fact's.
    pub foreign: bool,
    pub contrast: f32,
    pub conflicts: Vec<String>,
    pub judge: Option<Nli>,
    /// The judge on each part of a compound fact (split at `;`): the most
    /// entailing part's entails, the most contradicting part's contradicts
    /// and the least neutral part's neutral. A long fact is cut at the
    /// judge's input length, and a claim may speak to one part only.
    pub judge_parts: Option<Nli>,
}

/// Everything computed for one summary before thresholds apply, so
/// calibration can re-decide without re-embedding.
#[derive(Debug, Clone)]
pub struct Analysis {
    pub id: String,
    pub sentences: Vec<String>,
    pub units: Vec<text::Unit>,
    /// Per fact, per unit.
    pub signals: Vec<Vec<UnitSignals>>,
    pub fact_ids: Vec<String>,
    pub fact_texts: Vec<String>,
    pub evidence: Vec<Vec<String>>,
    pub mismatches: Vec<Mismatch>,
    /// Per sentence: best cosine to any fact or record chunk.
    pub grounding: Vec<f32>,
    pub keyword: KeywordCheck,
}

pub struct Evaluator {
    pub embedder: Embedder,
    pub judge: Option<Box<dyn EntailmentJudge>>,
    pub thresholds: Thresholds,
    /// The trained decision over all signals; `None`: threshold rules only.
    pub combiner: Option<Combiner>,
    /// How many clauses per fact the judge reads (best aligned first).
    pub judge_units: usize,
    /// The judge reads a clause only when its alignment with the fact is at
    /// least this (below it the fact is omitted whatever the judge says).
    pub judge_floor: f32,
    /// The judge reads the whole sentence holding the clause (the
    /// cross-encoder, chosen by calibration) rather than the clause alone
    /// (the LLM judges, as measured).
    pub judge_sentence: bool,
}

/// Resolve and load the MiniLM embedder (`models/fetch.py minilm-l6`).
pub fn load_embedder() -> Result<Embedder> {
    let dir = continuity_models::hub::resolve_model("minilm-l6", None)
        .map_err(|e| Error::Internal(e.to_string()))?;
    Embedder::load(&dir)
}

impl Evaluator {
    pub fn new(embedder: Embedder) -> Self {
        Evaluator {
            embedder,
            judge: None,
            thresholds: Thresholds::calibrated(),
            combiner: combine::embedded("none"),
            judge_units: 1,
            judge_floor: 0.5,
            judge_sentence: false,
        }
    }

    /// An evaluator with an LLM judge by name (`"none"`: no judge, as
    /// [`Evaluator::new`]) and the combiner trained with that judge, or
    /// else the one trained without a judge.
    pub fn with_judge(embedder: Embedder, judge: &str) -> Result<Self> {
        let mut ev = Evaluator::new(embedder);
        if judge == xenc::NAME {
            ev.judge = Some(Box::new(xenc::CrossEncoder::load()?));
            ev.judge_sentence = true;
        } else if judge == xenc::CROSS_FITTED {
            ev.judge = Some(Box::new(xenc::CrossEncoder::load_cross_fitted()?));
            ev.judge_sentence = true;
        } else if judge != "none" {
            ev.judge = Some(Box::new(LlmJudge::load(
                judge,
                judge::PromptStyle::FewShot,
            )?));
        }
        // A judge without a combiner trained on its scores: the decision is
        // the no-judge combiner's; the judge's probabilities are reported.
        ev.combiner = combine::embedded(judge).or_else(|| combine::embedded("none"));
        Ok(ev)
    }

    pub fn evaluate(
        &mut self,
        records: &Records,
        key: &FactKey,
        id: &str,
        summary: &str,
    ) -> Result<SummaryReport> {
        let a = self.analyze(records, key, id, summary)?;
        Ok(decide(&a, &self.thresholds, self.combiner.as_ref()))
    }

    /// Compute every signal for one summary.
    pub fn analyze(
        &mut self,
        records: &Records,
        key: &FactKey,
        id: &str,
        summary: &str,
    ) -> Result<Analysis> {
        let (sentences, units) = text::units(summary);
        let facts = &key.facts;
        let (parts, cfs) = fact_variants(facts);
        let mut texts: Vec<String> = facts.iter().map(|f| f.statement.clone()).collect();
        texts.extend(units.iter().map(|u| u.text.clone()));
        texts.extend(parts.iter().flatten().cloned());
        texts.extend(cfs.iter().flatten().cloned());
        let vecs = self.embedder.embed(&texts)?;
        let chunk_vecs = self.embedder.embed(&records.chunks)?;
        let fact_v = &vecs[..facts.len()];
        let unit_v = &vecs[facts.len()..facts.len() + units.len()];
        let parts_total: usize = parts.iter().map(Vec::len).sum();
        let mut part_v = &vecs[facts.len() + units.len()..facts.len() + units.len() + parts_total];
        let mut cf_v = &vecs[facts.len() + units.len() + parts_total..];
        let all_ids: Vec<BTreeSet<String>> =
            facts.iter().map(|f| text::ids(&f.statement)).collect();

        // Values.
        let mismatches = records.mismatches(&sentences);
        let summary_units = SummaryUnits {
            sentences: &sentences,
            units: &units,
            vecs: unit_v,
            readings: units.iter().map(|u| lexicon::read(&u.text)).collect(),
            bad_sentences: mismatches.iter().map(|m| m.sentence.as_str()).collect(),
        };

        let mut signals: Vec<Vec<UnitSignals>> = Vec::new();
        let mut evidence = Vec::new();
        // What the judge reads, judged in one batch.
        let mut to_judge: Vec<JudgeInput> = Vec::new();
        for (fi, fact) in facts.iter().enumerate() {
            let (this_parts, rest) = part_v.split_at(parts[fi].len());
            part_v = rest;
            let (this_cf, rest) = cf_v.split_at(cfs[fi].len());
            cf_v = rest;
            let view = FactView::new(
                &fact.statement,
                fi,
                &all_ids,
                &fact_v[fi],
                this_parts,
                this_cf,
            );
            let per_unit: Vec<UnitSignals> = (0..units.len())
                .map(|ui| view.unit_signals(&summary_units, ui))
                .collect();
            if self.judge.is_some() {
                to_judge.extend(self.judge_inputs(fi, &fact.statement, &per_unit, &summary_units));
            }
            signals.push(per_unit);
            evidence.push(records.evidence_for(fact));
        }
        self.run_judge(to_judge, &mut signals)?;
        let grounding = grounding(&sentences, &units, unit_v, fact_v, &chunk_vecs);
        Ok(Analysis {
            id: id.to_string(),
            sentences,
            units,
            signals,
            fact_ids: facts.iter().map(|f| f.id.clone()).collect(),
            fact_texts: facts.iter().map(|f| f.statement.clone()).collect(),
            evidence,
            mismatches,
            grounding,
            keyword: key.keyword_check(summary),
        })
    }

    /// The pairs the judge reads for one fact: only the units best aligned
    /// with it (or their sentences), against the whole fact and each part.
    fn judge_inputs(
        &self,
        fi: usize,
        statement: &str,
        per_unit: &[UnitSignals],
        su: &SummaryUnits<'_>,
    ) -> Vec<JudgeInput> {
        let t = &self.thresholds;
        // A fact of one part is judged whole only.
        let mut fact_parts = text::premise_parts(statement);
        if fact_parts.len() < 2 {
            fact_parts.clear();
        }
        let mut order: Vec<usize> = (0..su.units.len()).collect();
        order.sort_by(|a, b| align(&per_unit[*b], t).total_cmp(&align(&per_unit[*a], t)));
        let mut out = Vec::new();
        for ui in order
            .iter()
            .take(self.judge_units)
            .copied()
            .filter(|u| align(&per_unit[*u], t) >= self.judge_floor)
        {
            let claim = if self.judge_sentence {
                &su.sentences[su.units[ui].sentence]
            } else {
                &su.units[ui].text
            };
            out.push(JudgeInput {
                fact: fi,
                unit: ui,
                whole: true,
                pair: (statement.to_string(), claim.clone()),
            });
            for part in &fact_parts {
                out.push(JudgeInput {
                    fact: fi,
                    unit: ui,
                    whole: false,
                    pair: (part.clone(), claim.clone()),
                });
            }
        }
        out
    }

    /// Judge every pair in one batch and record the probabilities: the
    /// whole fact's as they are, the parts' as their most decisive.
    fn run_judge(
        &mut self,
        mut to_judge: Vec<JudgeInput>,
        signals: &mut [Vec<UnitSignals>],
    ) -> Result<()> {
        let Some(judge) = self.judge.as_mut() else {
            return Ok(());
        };
        // Move the pairs out rather than copy them; only the targets are
        // needed afterwards.
        let pairs: Vec<(String, String)> = to_judge
            .iter_mut()
            .map(|j| std::mem::take(&mut j.pair))
            .collect();
        for (input, nli) in to_judge.iter().zip(judge.judge_many(&pairs)?) {
            let s = &mut signals[input.fact][input.unit];
            if input.whole {
                s.judge = Some(nli);
            } else {
                s.judge_parts = Some(match s.judge_parts {
                    None => nli,
                    Some(p) => Nli {
                        entails: p.entails.max(nli.entails),
                        neutral: p.neutral.min(nli.neutral),
                        contradicts: p.contradicts.max(nli.contradicts),
                    },
                });
            }
        }
        Ok(())
    }
}

/// The summary's side of the signals: its sentences, units and their
/// embeddings and readings, and the sentences whose values the records
/// contradict.
struct SummaryUnits<'a> {
    sentences: &'a [String],
    units: &'a [text::Unit],
    vecs: &'a [Vec<f32>],
    readings: Vec<lexicon::Reading>,
    bad_sentences: BTreeSet<&'a str>,
}

/// One fact as the signals read it: its embeddings, values, and the ids it
/// shares with no other fact.
struct FactView<'a> {
    statement: &'a str,
    vec: &'a [f32],
    parts: &'a [Vec<f32>],
    cfs: &'a [Vec<f32>],
    others: BTreeSet<&'a String>,
    own_specific: BTreeSet<&'a String>,
    ids: BTreeSet<String>,
    amounts: BTreeSet<i64>,
    dates: BTreeSet<text::Date>,
    reading: lexicon::Reading,
}

impl<'a> FactView<'a> {
    fn new(
        statement: &'a str,
        fi: usize,
        all_ids: &'a [BTreeSet<String>],
        vec: &'a [f32],
        parts: &'a [Vec<f32>],
        cfs: &'a [Vec<f32>],
    ) -> Self {
        let mut others: BTreeSet<&String> = BTreeSet::new();
        for (j, ids) in all_ids.iter().enumerate() {
            if j != fi {
                others.extend(ids.iter());
            }
        }
        let own_specific = all_ids[fi].iter().filter(|i| !others.contains(i)).collect();
        FactView {
            statement,
            vec,
            parts,
            cfs,
            others,
            own_specific,
            ids: text::ids(statement),
            amounts: text::amounts(statement),
            dates: text::dates(statement),
            reading: lexicon::read(statement),
        }
    }

    /// Every signal of unit `ui` against this fact.
    fn unit_signals(&self, su: &SummaryUnits<'_>, ui: usize) -> UnitSignals {
        let u = &su.units[ui];
        let unit_v = &su.vecs[ui];
        let cos = embed::cos(self.vec, unit_v);
        let cos_part = self
            .parts
            .iter()
            .map(|p| embed::cos(p, unit_v))
            .fold(f32::NEG_INFINITY, f32::max);
        let u_ids = text::ids(&u.text);
        let u_amounts = text::amounts(&u.text);
        let shared_id = !self.ids.is_disjoint(&u_ids);
        let anchored = shared_id || !self.amounts.is_disjoint(&u_amounts);
        let specific = u_ids.iter().any(|i| self.own_specific.contains(i));
        let foreign = !shared_id && u_ids.iter().any(|i| self.others.contains(i));
        let contrast = self
            .cfs
            .iter()
            .map(|c| embed::cos(c, unit_v) - cos)
            .fold(f32::NEG_INFINITY, f32::max);
        let mut conflicts: Vec<String> = Vec::new();
        for g in lexicon::conflicts(&self.reading, &su.readings[ui]) {
            conflicts.push(format!("lexicon: {g}"));
        }
        if lexicon::actor_conflict(self.statement, &u.text) {
            conflicts.push("lexicon: actor".into());
        }
        if su.bad_sentences.contains(su.sentences[u.sentence].as_str()) {
            conflicts.push("values: not in records".to_string());
        }
        conflicts.extend(self.value_conflicts(&u.text, shared_id, &u_ids, &u_amounts));
        UnitSignals {
            unit: ui,
            cos,
            cos_part,
            anchored,
            specific,
            foreign,
            contrast,
            conflicts,
            judge: None,
            judge_parts: None,
        }
    }

    /// Where a unit that names this fact's record gives other values.
    fn value_conflicts(
        &self,
        unit: &str,
        shared_id: bool,
        u_ids: &BTreeSet<String>,
        u_amounts: &BTreeSet<i64>,
    ) -> Vec<String> {
        let mut out = Vec::new();
        let u_dates = text::dates(unit);
        if shared_id
            && !self.amounts.is_empty()
            && !u_amounts.is_empty()
            && self.amounts.is_disjoint(u_amounts)
        {
            out.push("values: amount differs from the fact's".into());
        }
        if shared_id
            && !self.dates.is_empty()
            && !u_dates.is_empty()
            && !u_dates.iter().any(|d| text::date_known(d, &self.dates))
        {
            out.push("values: date differs from the fact's".into());
        }
        // Same kind of id, another instance (SUP-5549 for SUP-5601).
        for uid in u_ids {
            let p = text::id_prefix(uid);
            let fact_has_kind = self.ids.iter().any(|f| text::id_prefix(f) == p);
            let unit_has_fact_id = u_ids
                .iter()
                .any(|x| text::id_prefix(x) == p && self.ids.contains(x));
            if fact_has_kind && !unit_has_fact_id && !self.ids.contains(uid) {
                out.push(format!("values: {uid} where the fact has another {p} id"));
                break;
            }
        }
        out
    }
}

/// Each fact's clauses (where it has more than one) and its counterfactual
/// readings, embedded beside the facts and the summary's units.
fn fact_variants(facts: &[Fact]) -> (Vec<Vec<String>>, Vec<Vec<String>>) {
    let parts = facts
        .iter()
        .map(|f| {
            Some(text::clauses(&f.statement))
                .filter(|c| c.len() > 1)
                .unwrap_or_default()
        })
        .collect();
    let cfs = facts
        .iter()
        .map(|f| lexicon::counterfactuals(&f.statement))
        .collect();
    (parts, cfs)
}

/// Each sentence's best cosine against the facts and the records' chunks.
fn grounding(
    sentences: &[String],
    units: &[text::Unit],
    unit_v: &[Vec<f32>],
    fact_v: &[Vec<f32>],
    chunk_vecs: &[Vec<f32>],
) -> Vec<f32> {
    sentences
        .iter()
        .map(|s| {
            let i = units.iter().position(|u| &u.text == s).unwrap_or(0);
            let v = &unit_v[i];
            fact_v
                .iter()
                .chain(chunk_vecs.iter())
                .map(|f| embed::cos(f, v))
                .fold(f32::NEG_INFINITY, f32::max)
        })
        .collect()
}

/// One (premise, claim) pair for the judge: the claim against the whole
/// fact statement, or against one part of it.
struct JudgeInput {
    fact: usize,
    unit: usize,
    whole: bool,
    pair: (String, String),
}

pub(crate) fn align(s: &UnitSignals, t: &Thresholds) -> f32 {
    let mut x = s.cos.max(s.cos_part - t.part_discount);
    if s.anchored {
        x += t.anchor_bonus;
    }
    if s.specific {
        x += t.id_bonus;
    }
    if s.foreign {
        x -= t.foreign_penalty;
    }
    x
}

fn active(c: &str, t: &Thresholds) -> bool {
    if c.starts_with("lexicon") {
        t.lexicon
    } else {
        t.values
    }
}

/// Per unit: the best alignment over all facts, which fact that is, and
/// the second best.
#[derive(Clone, Copy)]
pub(crate) struct Top {
    pub(crate) best: f32,
    pub(crate) fact: usize,
    pub(crate) second: f32,
}

pub(crate) fn unit_tops(a: &Analysis, t: &Thresholds) -> Vec<Top> {
    (0..a.units.len())
        .map(|u| {
            let mut top = Top {
                best: f32::NEG_INFINITY,
                fact: usize::MAX,
                second: f32::NEG_INFINITY,
            };
            for (fi, sig) in a.signals.iter().enumerate() {
                let x = align(&sig[u], t);
                if x > top.best {
                    top.second = top.best;
                    top.best = x;
                    top.fact = fi;
                } else if x > top.second {
                    top.second = x;
                }
            }
            top
        })
        .collect()
}

/// The clauses a fact's verdict rests on: those aligned above `mention`
/// (within `margin` of the best), and those carrying a contradiction signal
/// aligned above `conflict_mention` whose best fact this is.
pub(crate) fn chosen_units<'a>(
    fi: usize,
    sig: &'a [UnitSignals],
    t: &Thresholds,
    top: &[Top],
) -> Vec<&'a UnitSignals> {
    let best = sig
        .iter()
        .map(|s| align(s, t))
        .fold(f32::NEG_INFINITY, f32::max);
    let mut chosen: Vec<&UnitSignals> = sig
        .iter()
        .filter(|s| {
            let x = align(s, t);
            let tp = top[s.unit];
            let other = if tp.fact == fi { tp.second } else { tp.best };
            (x >= t.mention && x >= best - t.margin)
                || (x >= t.rel_mention && x - other >= t.rel_gap)
                || (x >= t.conflict_mention
                    && x >= tp.best - t.margin
                    && s.conflicts.iter().any(|c| active(c, t)))
        })
        .collect();
    chosen.sort_by(|x, y| align(y, t).total_cmp(&align(x, t)));
    chosen.truncate(3);
    chosen
}

fn contradicts(s: &UnitSignals, t: &Thresholds) -> bool {
    s.conflicts.iter().any(|c| active(c, t))
        || s.contrast > t.contrast
        || s.judge.is_some_and(|j| j.contradicts > t.judge)
}

/// Verdicts of the threshold rules only (what calibration needs, without
/// building a report).
pub fn verdicts(a: &Analysis, t: &Thresholds) -> Vec<Verdict> {
    let top = unit_tops(a, t);
    a.signals
        .iter()
        .enumerate()
        .map(|(fi, sig)| {
            let chosen = chosen_units(fi, sig, t, &top);
            if chosen.is_empty() {
                Verdict::Omitted
            } else if chosen.iter().any(|s| contradicts(s, t)) {
                Verdict::Contradicted
            } else {
                Verdict::Supported
            }
        })
        .collect()
}

/// Final verdicts: the combiner's when there is one, else the rules', with
/// the combiner's class probabilities.
pub fn final_verdicts(
    a: &Analysis,
    t: &Thresholds,
    c: Option<&Combiner>,
) -> Vec<(Verdict, Option<[f32; 3]>)> {
    match c {
        Some(c) => combine::features(a, t)
            .iter()
            .map(|x| {
                let (v, p) = c.verdict(x);
                (v, Some(p))
            })
            .collect(),
        None => verdicts(a, t).into_iter().map(|v| (v, None)).collect(),
    }
}

/// Apply thresholds (and the combiner, if any) to an analysis.
pub fn decide(a: &Analysis, t: &Thresholds, c: Option<&Combiner>) -> SummaryReport {
    let mut facts = Vec::new();
    let mut contradicting: Vec<(usize, String)> = Vec::new();
    let top = unit_tops(a, t);
    let finals = final_verdicts(a, t, c);
    for (fi, sig) in a.signals.iter().enumerate() {
        let best = sig
            .iter()
            .map(|s| align(s, t))
            .fold(f32::NEG_INFINITY, f32::max);
        let mut chosen = chosen_units(fi, sig, t, &top);
        let (verdict, probs) = finals[fi];
        if chosen.is_empty() && verdict != Verdict::Omitted {
            if let Some(b) = sig
                .iter()
                .max_by(|x, y| align(x, t).total_cmp(&align(y, t)))
            {
                chosen.push(b);
            }
        }
        if verdict == Verdict::Omitted {
            chosen.clear();
        }
        let reasons = if verdict == Verdict::Contradicted {
            contradiction_reasons(a, t, fi, &chosen, probs, &mut contradicting)
        } else {
            Vec::new()
        };
        let mut sentences: Vec<String> = Vec::new();
        for s in &chosen {
            let sent = &a.sentences[a.units[s.unit].sentence];
            if !sentences.contains(sent) {
                sentences.push(sent.clone());
            }
        }
        let judged = sig.iter().find_map(|s| s.judge);
        let score = match probs {
            Some(p) => p[verdict.index()],
            None => best,
        };
        facts.push(FactResult {
            id: a.fact_ids[fi].clone(),
            verdict,
            score: (score * 1000.0).round() / 1000.0,
            sentences,
            evidence: a.evidence[fi].clone(),
            reasons,
            judge: judged,
        });
    }
    let unsupported = unsupported_sentences(a, t, &contradicting);
    SummaryReport {
        id: a.id.clone(),
        facts,
        unsupported,
        mismatches: if t.values {
            a.mismatches.clone()
        } else {
            Vec::new()
        },
        keyword: a.keyword.clone(),
    }
}

/// Why a contradicted fact is: each chosen unit's active conflicts, its
/// counterfactual contrast and the judge; the combiner's probability where
/// the first unit has no other reason. Each reason's sentence is recorded
/// as contradicting the fact.
fn contradiction_reasons(
    a: &Analysis,
    t: &Thresholds,
    fi: usize,
    chosen: &[&UnitSignals],
    probs: Option<[f32; 3]>,
    contradicting: &mut Vec<(usize, String)>,
) -> Vec<String> {
    let mut reasons = Vec::new();
    for s in chosen {
        let mut r: Vec<String> = s
            .conflicts
            .iter()
            .filter(|c| active(c, t))
            .cloned()
            .collect();
        if s.contrast > t.contrast {
            r.push(format!(
                "closer to a counterfactual reading (+{:.3})",
                s.contrast
            ));
        }
        if let Some(j) = s.judge {
            // Above its threshold, or its most likely label.
            if j.contradicts > t.judge || j.contradicts > j.entails.max(j.neutral) {
                r.push(format!("judge: contradicts p={:.2}", j.contradicts));
            }
        }
        if r.is_empty() && s.unit == chosen[0].unit {
            if let Some(p) = probs {
                r.push(format!("combiner: contradicted p={:.2}", p[2]));
            }
        }
        for x in r {
            reasons.push(format!("{} [{}]", x, a.units[s.unit].text));
            contradicting.push((a.units[s.unit].sentence, a.fact_ids[fi].clone()));
        }
    }
    reasons
}

/// Sentences that contradict a fact, state values the records lack, or
/// are close to nothing in the records.
fn unsupported_sentences(
    a: &Analysis,
    t: &Thresholds,
    contradicting: &[(usize, String)],
) -> Vec<Unsupported> {
    let mut unsupported = Vec::new();
    for (si, s) in a.sentences.iter().enumerate() {
        let contra: Vec<&str> = contradicting
            .iter()
            .filter(|(i, _)| *i == si)
            .map(|(_, f)| f.as_str())
            .collect();
        let mut contra_ids: Vec<&str> = contra.clone();
        contra_ids.dedup();
        let reason = if !contra_ids.is_empty() {
            Some(format!("contradicts {}", contra_ids.join(", ")))
        } else if t.values && a.mismatches.iter().any(|m| &m.sentence == s) {
            Some("states values the records do not have".to_string())
        } else if a.grounding[si] < t.unsupported {
            Some(format!(
                "nothing in the records is close (best similarity {:.2})",
                a.grounding[si]
            ))
        } else {
            None
        };
        if let Some(reason) = reason {
            unsupported.push(Unsupported {
                sentence: s.clone(),
                reason,
            });
        }
    }
    unsupported
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calibrated_thresholds_parse() {
        let t = Thresholds::calibrated();
        assert!(t.mention > 0.0 && t.mention < 1.0);
        let again: Thresholds = toml::from_str(&bench::thresholds_toml(&t, 0.5)).unwrap();
        assert_eq!(again.mention, t.mention);
        assert_eq!(again.part_discount >= 1e30, t.part_discount >= 1e30);
    }
}
