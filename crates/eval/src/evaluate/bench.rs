//! The labeled faithfulness set (`eval/faithfulness/`), metrics, and
//! threshold calibration.
//!
//! `cases.toml` names each case's archive and answer key (paths relative to
//! the set's directory); `summaries.jsonl` holds one labeled summary per
//! line: `{"id","case","split","text"|"text_from","labels":{fact: verdict}}`.
//! `text_from` = `{"path", "field"}` reads the text from a JSON file at run
//! time (reference data that must not be copied into the repository).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::combine::{self, Combiner};
use super::{final_verdicts, xenc, Analysis, Evaluator, Records, Thresholds, Verdict};
use crate::facts::FactKey;
use continuity_core::error::{Error, Result, Source};

#[derive(Debug, Clone, Deserialize)]
pub struct Case {
    pub name: String,
    pub archive: String,
    pub key: String,
}

#[derive(Debug, Clone, Deserialize)]
struct Cases {
    #[serde(rename = "case")]
    cases: Vec<Case>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct TextFrom {
    pub path: String,
    pub field: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Item {
    pub id: String,
    pub case: String,
    pub split: String,
    #[serde(default)]
    pub text: Option<String>,
    #[serde(default)]
    pub text_from: Option<TextFrom>,
    pub labels: BTreeMap<String, Verdict>,
    #[serde(default)]
    pub note: Option<String>,
}

fn io_err(path: &Path, e: std::io::Error) -> Error {
    Error::Io {
        path: path.to_path_buf(),
        source: e,
    }
}

fn read(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).map_err(|e| io_err(path, e))
}

/// A loaded case: records and key.
pub struct LoadedCase {
    pub records: Records,
    pub key: FactKey,
}

pub struct Set {
    pub dir: PathBuf,
    pub cases: BTreeMap<String, LoadedCase>,
    pub items: Vec<(Item, String)>,
    /// Items whose case or text could not be loaded, with the reason.
    pub skipped: Vec<String>,
}

pub fn load_set(dir: &Path) -> Result<Set> {
    let cases: Cases = toml::from_str(&read(&dir.join("cases.toml"))?)
        .map_err(|e| Error::Internal(format!("{}: {e}", dir.join("cases.toml").display())))?;
    let mut loaded = BTreeMap::new();
    let mut skipped = Vec::new();
    for c in cases.cases {
        let archive = dir.join(&c.archive);
        let key_path = dir.join(&c.key);
        let bytes = match std::fs::read(&archive) {
            Ok(b) => b,
            Err(e) => {
                skipped.push(format!("case {}: {}: {e}", c.name, archive.display()));
                continue;
            }
        };
        let t = continuity_core::formats::parse_bytes(&bytes, &Source::path(&archive))?;
        let key = FactKey::from_toml(&read(&key_path)?, &Source::path(&key_path))?;
        loaded.insert(
            c.name.clone(),
            LoadedCase {
                records: Records::from_transcript(&t),
                key,
            },
        );
    }
    let mut items = Vec::new();
    let path = dir.join("summaries.jsonl");
    for (n, line) in read(&path)?.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let item: Item = serde_json::from_str(line)
            .map_err(|e| Error::Internal(format!("{}:{}: {e}", path.display(), n + 1)))?;
        if !loaded.contains_key(&item.case) {
            skipped.push(format!("{}: case {} not loaded", item.id, item.case));
            continue;
        }
        let text = match (&item.text, &item.text_from) {
            (Some(t), _) => t.clone(),
            (None, Some(tf)) => {
                let p = dir.join(&tf.path);
                match std::fs::read(&p) {
                    Ok(b) => {
                        let v: Value = serde_json::from_slice(&b)
                            .map_err(|e| Error::Internal(format!("{}: {e}", p.display())))?;
                        match v.get(&tf.field).and_then(Value::as_str) {
                            Some(s) => s.to_string(),
                            None => {
                                skipped.push(format!("{}: no field {}", item.id, tf.field));
                                continue;
                            }
                        }
                    }
                    Err(e) => {
                        skipped.push(format!("{}: {}: {e}", item.id, p.display()));
                        continue;
                    }
                }
            }
            (None, None) => {
                skipped.push(format!("{}: no text", item.id));
                continue;
            }
        };
        items.push((item, text));
    }
    Ok(Set {
        dir: dir.to_path_buf(),
        cases: loaded,
        items,
        skipped,
    })
}

/// Confusion matrix (rows: gold, columns: predicted; order supported,
/// omitted, contradicted) and the figures derived from it.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Scores {
    pub n: usize,
    pub confusion: [[usize; 3]; 3],
    pub balanced_accuracy: f64,
    pub precision: [f64; 3],
    pub recall: [f64; 3],
}

impl Scores {
    pub fn from_pairs(pairs: &[(Verdict, Verdict)]) -> Scores {
        let mut c = [[0usize; 3]; 3];
        for (g, p) in pairs {
            c[g.index()][p.index()] += 1;
        }
        let mut recall = [0.0; 3];
        let mut precision = [0.0; 3];
        let mut classes = 0;
        let mut sum = 0.0;
        for k in 0..3 {
            let row: usize = c[k].iter().sum();
            let col: usize = (0..3).map(|g| c[g][k]).sum();
            recall[k] = if row > 0 {
                c[k][k] as f64 / row as f64
            } else {
                0.0
            };
            precision[k] = if col > 0 {
                c[k][k] as f64 / col as f64
            } else {
                0.0
            };
            if row > 0 {
                classes += 1;
                sum += recall[k];
            }
        }
        Scores {
            n: pairs.len(),
            confusion: c,
            balanced_accuracy: if classes > 0 {
                sum / classes as f64
            } else {
                0.0
            },
            precision,
            recall,
        }
    }
}

/// Analyses of every item, with seconds per summary.
pub struct Analyzed {
    pub items: Vec<(Item, Analysis)>,
    pub seconds: Vec<f64>,
}

pub fn analyze_set(ev: &mut Evaluator, set: &Set) -> Result<Analyzed> {
    let mut items = Vec::new();
    let mut seconds = Vec::new();
    for (item, text) in &set.items {
        let case = &set.cases[&item.case];
        if let Some(j) = ev.judge.as_mut() {
            j.hold_out((item.split == "calib").then_some(item.case.as_str()))?;
        }
        let start = Instant::now();
        let a = ev.analyze(&case.records, &case.key, &item.id, text)?;
        seconds.push(start.elapsed().as_secs_f64());
        items.push((item.clone(), a));
    }
    Ok(Analyzed { items, seconds })
}

/// (gold, predicted).
pub type Pair = (Verdict, Verdict);

/// (gold, predicted) pairs for the items of `split` ("all" for every item).
pub fn pairs(
    analyzed: &Analyzed,
    split: &str,
    t: &Thresholds,
    c: Option<&Combiner>,
) -> (Vec<Pair>, Vec<Pair>) {
    pairs_where(analyzed, t, c, |item| split == "all" || item.split == split)
}

/// (gold, predicted) pairs for the items `keep` accepts.
pub fn pairs_where(
    analyzed: &Analyzed,
    t: &Thresholds,
    c: Option<&Combiner>,
    keep: impl Fn(&Item) -> bool,
) -> (Vec<Pair>, Vec<Pair>) {
    let mut ours = Vec::new();
    let mut keyword = Vec::new();
    for (item, a) in &analyzed.items {
        if !keep(item) {
            continue;
        }
        let v = final_verdicts(a, t, c);
        for (fid, (pred, _)) in a.fact_ids.iter().zip(v) {
            let Some(gold) = item.labels.get(fid) else {
                continue;
            };
            ours.push((*gold, pred));
            let kw = if a.keyword.facts_present.contains(fid) {
                Verdict::Supported
            } else {
                Verdict::Omitted
            };
            keyword.push((*gold, kw));
        }
    }
    (ours, keyword)
}

/// Calibration objective: the worst balanced accuracy over the cases of the
/// calibration split, so thresholds must carry across cases rather than fit
/// the largest one.
fn objective(analyzed: &Analyzed, t: &Thresholds, cases: &[String]) -> f64 {
    cases
        .iter()
        .map(|c| {
            let (p, _) = pairs_where(analyzed, t, None, |i| i.split == "calib" && &i.case == c);
            Scores::from_pairs(&p).balanced_accuracy
        })
        .fold(f64::INFINITY, f64::min)
}

/// Grid search on the calibration split for the best objective (ties: the
/// earlier, more conservative grid point). Returns the thresholds and the
/// calibration split's balanced accuracy with them.
pub fn calibrate(analyzed: &Analyzed, base: &Thresholds) -> (Thresholds, f64) {
    let mut cases: Vec<String> = analyzed
        .items
        .iter()
        .filter(|(i, _)| i.split == "calib")
        .map(|(i, _)| i.case.clone())
        .collect();
    cases.sort();
    cases.dedup();
    let mut best = (*base, -1.0);
    let mentions: Vec<f32> = (0..=10).map(|i| 0.60 + 0.02 * i as f32).collect();
    for &mention in &mentions {
        for anchor_bonus in [0.05, 0.1] {
            for id_bonus in [0.1, 0.2, 0.3] {
                for conflict_mention in [f32::MAX, 0.6, 0.5, 0.4, 0.3] {
                    for contrast in [f32::MAX, 0.03] {
                        for rel_mention in [f32::MAX, 0.6, 0.5, 0.4] {
                            for rel_gap in [0.0, 0.05, 0.1] {
                                let t = Thresholds {
                                    mention,
                                    conflict_mention,
                                    rel_mention,
                                    rel_gap,
                                    anchor_bonus,
                                    id_bonus,
                                    contrast,
                                    ..*base
                                };
                                let s = objective(analyzed, &t, &cases);
                                if s > best.1 + 1e-9 {
                                    best = (t, s);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    let (p, _) = pairs(analyzed, "calib", &best.0, None);
    (best.0, Scores::from_pairs(&p).balanced_accuracy)
}

/// One median for the crate: the compaction bench's.
pub use crate::bench::median;

/// Write calibrated thresholds as TOML.
pub fn thresholds_toml(t: &Thresholds, calib_ba: f64) -> String {
    let big = |x: f32| {
        if x >= 1e30 {
            "3.0e38".to_string()
        } else {
            format!("{}", (x * 1000.0).round() / 1000.0)
        }
    };
    let contrast = big(t.contrast);
    let conflict_mention = big(t.conflict_mention);
    let part_discount = big(t.part_discount);
    let rel_mention = big(t.rel_mention);
    let judge = big(t.judge);
    format!(
        "# Written by `continuity eval-bench --calibrate` (grid search on the\n\
         # calibration split; balanced accuracy there {calib_ba:.3}). Embedded in\n\
         # the library by crates/eval/src/evaluate/mod.rs.\n\
         mention = {}\nconflict_mention = {conflict_mention}\nrel_mention = {rel_mention}\nrel_gap = {}\nanchor_bonus = {}\nid_bonus = {}\nforeign_penalty = {}\npart_discount = {part_discount}\nmargin = {}\ncontrast = {contrast}\n\
         unsupported = {}\njudge = {judge}\nlexicon = {}\nvalues = {}\n",
        (t.mention * 1000.0).round() / 1000.0, t.rel_gap, t.anchor_bonus, t.id_bonus, t.foreign_penalty, t.margin, t.unsupported, t.lexicon, t.values
    )
}

/// Labeled feature rows of the items `keep` accepts: (features, gold, case).
pub fn rows(
    analyzed: &Analyzed,
    t: &Thresholds,
    keep: impl Fn(&Item) -> bool,
) -> (Vec<Vec<f32>>, Vec<Verdict>, Vec<String>) {
    let mut xs = Vec::new();
    let mut ys = Vec::new();
    let mut cs = Vec::new();
    for (item, a) in &analyzed.items {
        if !keep(item) {
            continue;
        }
        for (fid, x) in a.fact_ids.iter().zip(combine::features(a, t)) {
            if let Some(gold) = item.labels.get(fid) {
                xs.push(x);
                ys.push(*gold);
                cs.push(item.case.clone());
            }
        }
    }
    (xs, ys, cs)
}

/// Train the combiner on the calibration split. The L2 strength is chosen
/// by leave-one-case-out cross-validation inside the calibration split (the
/// worst case's balanced accuracy); the held-out split is not read.
/// Returns the combiner and its cross-validated balanced accuracy.
pub fn train_combiner(
    analyzed: &Analyzed,
    t: &Thresholds,
    judge: &str,
    with_judge: bool,
) -> (Combiner, f64) {
    let (xs, ys, cs) = rows(analyzed, t, |i| i.split == "calib");
    let mask = combine::mask(with_judge);
    let mut cases: Vec<String> = cs.clone();
    cases.sort();
    cases.dedup();
    let name = if with_judge { judge } else { "none" };
    // (l2, worst case, mean over cases, per case)
    let mut best = (f32::NAN, -1.0f64, 0.0f64, Vec::new());
    for l2 in [0.001f32, 0.01, 0.03, 0.1, 0.3] {
        let mut scores = Vec::new();
        for c in &cases {
            let tr: Vec<usize> = (0..xs.len()).filter(|i| &cs[*i] != c).collect();
            let te: Vec<usize> = (0..xs.len()).filter(|i| &cs[*i] == c).collect();
            if tr.is_empty() || te.is_empty() {
                continue;
            }
            let txs: Vec<Vec<f32>> = tr.iter().map(|i| xs[*i].clone()).collect();
            let tys: Vec<Verdict> = tr.iter().map(|i| ys[*i]).collect();
            let m = Combiner::train(&txs, &tys, l2, name, &mask);
            let p: Vec<Pair> = te.iter().map(|i| (ys[*i], m.verdict(&xs[*i]).0)).collect();
            scores.push((c.clone(), Scores::from_pairs(&p).balanced_accuracy));
        }
        let scores_by_case = scores;
        let scores: Vec<f64> = scores_by_case.iter().map(|(_, s)| *s).collect();
        let worst = scores.iter().copied().fold(f64::INFINITY, f64::min);
        let mean = scores.iter().sum::<f64>() / scores.len().max(1) as f64;
        if worst > best.1 + 1e-9 {
            best = (l2, worst, mean, scores_by_case);
        }
    }
    let l2 = if best.0.is_nan() { 0.01 } else { best.0 };
    let mut m = Combiner::train(&xs, &ys, l2, name, &mask);
    let per_case: Vec<String> = best.3.iter().map(|(c, s)| format!("{c} {s:.3}")).collect();
    m.note = format!(
        "trained on {} calibration pairs; leave-one-case-out balanced accuracy (worst case) {:.3}, mean over cases {:.3} ({})",
        xs.len(),
        best.1,
        best.2,
        per_case.join(", ")
    );
    (m, best.1)
}

/// The combiner file as TOML.
pub fn combiner_toml(f: &combine::CombinerFile) -> Result<String> {
    let r = |x: &f32| (x * 1e4).round() / 1e4;
    let mut f = f.clone();
    for c in &mut f.combiners {
        c.mean = c.mean.iter().map(r).collect();
        c.std = c.std.iter().map(r).collect();
        for w in &mut c.weights {
            *w = w.iter().map(r).collect();
        }
    }
    let body = toml::to_string(&f).map_err(|e| Error::Internal(e.to_string()))?;
    Ok(format!(
        "# Written by `continuity eval-bench --calibrate`: logistic-regression\n\
         # combiners trained on the calibration split only, one per judge.\n\
         # Embedded in the library by crates/eval/src/evaluate/combine.rs.\n{body}"
    ))
}

/// Judge-input pairs from the calibration split, for training the
/// cross-encoder on real summary sentences: per labeled fact, the sentence
/// holding the clause best aligned with it (what the judge reads, when that
/// clause reaches `floor`), labeled from the gold verdict (supported:
/// entails, contradicted: contradicts, omitted: neutral). A (fact, sentence)
/// seen with two labels is dropped: the verdict came from elsewhere in the
/// summary. Sorted and deduplicated; `source` is the case.
pub fn calib_judge_pairs(
    analyzed: &Analyzed,
    t: &Thresholds,
    floor: f32,
) -> Vec<xenc::train::Pair> {
    let mut seen: BTreeMap<(String, String, String), BTreeSet<&'static str>> = BTreeMap::new();
    for (item, a) in &analyzed.items {
        if item.split != "calib" {
            continue;
        }
        for (fi, fid) in a.fact_ids.iter().enumerate() {
            let Some(gold) = item.labels.get(fid) else {
                continue;
            };
            let best = a.signals[fi]
                .iter()
                .map(|s| (super::align(s, t), s.unit))
                .max_by(|x, y| x.0.total_cmp(&y.0));
            let Some((score, unit)) = best else {
                continue;
            };
            if score < floor {
                continue;
            }
            let label = match gold {
                Verdict::Supported => "entails",
                Verdict::Omitted => "neutral",
                Verdict::Contradicted => "contradicts",
            };
            let sentence = a.sentences[a.units[unit].sentence].clone();
            seen.entry((item.case.clone(), a.fact_texts[fi].clone(), sentence))
                .or_default()
                .insert(label);
        }
    }
    seen.into_iter()
        .filter(|(_, labels)| labels.len() == 1)
        .filter_map(|((case, premise, hypothesis), labels)| {
            labels.into_iter().next().map(|label| xenc::train::Pair {
                premise,
                hypothesis,
                label: label.to_string(),
                kind: "calib-summary".to_string(),
                source: case,
            })
        })
        .collect()
}

/// The judge alone on the aligned clause: omitted where the threshold rules
/// find no clause, else contradicted when the judge gives "contradicts" more
/// probability than "agrees" on the best-aligned clause it read.
pub fn judge_alone_pairs(analyzed: &Analyzed, split: &str, t: &Thresholds) -> Vec<Pair> {
    let mut out = Vec::new();
    for (item, a) in &analyzed.items {
        if split != "all" && item.split != split {
            continue;
        }
        let rules = super::verdicts(a, t);
        for (fi, fid) in a.fact_ids.iter().enumerate() {
            let Some(gold) = item.labels.get(fid) else {
                continue;
            };
            let j = a.signals[fi].iter().filter_map(|s| s.judge).next();
            let pred = match (rules[fi], j) {
                (Verdict::Omitted, _) => Verdict::Omitted,
                (_, Some(j)) if j.contradicts > j.entails => Verdict::Contradicted,
                (_, Some(_)) => Verdict::Supported,
                (r, None) => r,
            };
            out.push((*gold, pred));
        }
    }
    out
}
