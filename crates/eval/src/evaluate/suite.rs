//! The evaluator's benchmark on the labeled set, and the training of its
//! judge, with their results as data. The binary prints them.

use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::Serialize;

use super::bench::{self, Scores};
use super::combine::{Combiner, CombinerFile};
use super::xenc::train::{Pair, TrainOptions, TrainReport};
use super::{load_embedder, Evaluator, Thresholds};
use continuity_core::error::{Error, Result};
use continuity_core::io;

/// What `eval-bench` measured.
#[derive(Debug, Clone)]
pub struct BenchReport {
    pub judge: String,
    /// Set when thresholds and combiners were re-fitted.
    pub calibration: Option<Calibration>,
    /// The calibration split's judge pairs written, and where.
    pub exported_pairs: Option<(usize, PathBuf)>,
    /// The decision rule scored: which combiner, with which judge.
    pub decision: String,
    /// `calib`, then `heldout`.
    pub splits: Vec<SplitReport>,
    /// The default's wrong verdicts on the split named by
    /// `CONTINUITY_BENCH_ERRORS` (a development aid).
    pub errors: Vec<VerdictError>,
    pub seconds_median: f64,
    pub seconds_mean: f64,
    pub model_load_seconds: f64,
    pub thresholds: Thresholds,
    pub skipped: Vec<String>,
}

/// Thresholds and combiners re-fitted on the calibration split.
#[derive(Debug, Clone)]
pub struct Calibration {
    pub thresholds_balanced_accuracy: f64,
    pub thresholds_file: PathBuf,
    pub combiners: Vec<TrainedCombiner>,
    pub combiner_file: PathBuf,
}

#[derive(Debug, Clone)]
pub struct TrainedCombiner {
    pub judge: String,
    pub l2: f32,
    /// Leave-one-case-out balanced accuracy.
    pub cross_validated: f64,
    pub note: String,
}

/// One split's scores.
#[derive(Debug, Clone)]
pub struct SplitReport {
    pub name: String,
    pub summaries: usize,
    pub evaluator: Scores,
    pub keyword: Scores,
    /// (variant, balanced accuracy), in the order they are reported.
    pub variants: Vec<(String, f64)>,
    pub per_case: Vec<CaseScores>,
    /// (signal left out, balanced accuracy of the default without it).
    pub ablations: Vec<(String, f64)>,
}

#[derive(Debug, Clone, Serialize)]
pub struct CaseScores {
    #[serde(skip)]
    pub case: String,
    pub summaries: usize,
    pub default: f64,
    pub combiner_no_judge: f64,
    pub keyword: f64,
}

/// A verdict of the default that disagrees with the label.
#[derive(Debug, Clone)]
pub struct VerdictError {
    pub summary: String,
    pub fact: String,
    pub gold: &'static str,
    pub got: &'static str,
    pub score: f32,
    pub sentences: Vec<String>,
}

/// The ablations of the threshold rules: each signal off in turn.
fn ablations(t: &Thresholds) -> Vec<(&'static str, Thresholds)> {
    vec![
        (
            "lexicon",
            Thresholds {
                lexicon: false,
                ..*t
            },
        ),
        (
            "value checks",
            Thresholds {
                values: false,
                ..*t
            },
        ),
        (
            "counterfactual contrast",
            Thresholds {
                contrast: f32::MAX,
                ..*t
            },
        ),
        (
            "anchor bonus",
            Thresholds {
                anchor_bonus: 0.0,
                ..*t
            },
        ),
        (
            "id bonus",
            Thresholds {
                id_bonus: 0.0,
                ..*t
            },
        ),
        (
            "relative alignment",
            Thresholds {
                rel_mention: f32::MAX,
                ..*t
            },
        ),
        (
            "foreign-id penalty",
            Thresholds {
                foreign_penalty: 0.0,
                ..*t
            },
        ),
        (
            "fact-clause alignment",
            Thresholds {
                part_discount: f32::MAX,
                ..*t
            },
        ),
        (
            "lower alignment for conflicting clauses",
            Thresholds {
                conflict_mention: f32::MAX,
                ..*t
            },
        ),
    ]
}

/// Score the labeled set in `dir` with `judge` (`none` for none). With
/// `calibrate`, first grid-search thresholds and train the combiners
/// (without a judge, and with `judge`) on the calibration split, writing
/// `DIR/thresholds.toml` and `DIR/combiner.toml`. With `export_pairs`, also
/// write the calibration split's judge-input pairs there (JSON lines).
pub fn bench_report(
    dir: &Path,
    calibrate: bool,
    judge: &str,
    export_pairs: Option<&Path>,
) -> Result<BenchReport> {
    let set = bench::load_set(dir)?;
    let load_start = Instant::now();
    let mut ev = Evaluator::with_judge(load_embedder()?, judge)?;
    let model_load_seconds = load_start.elapsed().as_secs_f64();
    let thresholds_file = dir.join("thresholds.toml");
    if let Ok(text) = std::fs::read_to_string(&thresholds_file) {
        ev.thresholds = toml::from_str(&text)
            .map_err(|e| Error::Internal(format!("{}: {e}", thresholds_file.display())))?;
    }
    let combiner_file = dir.join("combiner.toml");
    let mut combiners = std::fs::read_to_string(&combiner_file)
        .ok()
        .and_then(|t| CombinerFile::parse(&t))
        .unwrap_or_default();
    let analyzed = bench::analyze_set(&mut ev, &set)?;
    let mut t = ev.thresholds;
    let calibration = if calibrate {
        let (best, ba) = bench::calibrate(&analyzed, &t);
        t = best;
        Some(write_calibration(
            &analyzed,
            &t,
            ba,
            judge,
            thresholds_file,
            combiner_file,
            &mut combiners,
        )?)
    } else {
        None
    };
    let exported_pairs = match export_pairs {
        Some(path) => Some(write_pairs(&analyzed, &t, ev.judge_floor, path)?),
        None => None,
    };
    let none_c = combiners.get("none");
    let judge_c = if judge == "none" {
        None
    } else {
        combiners.get(judge)
    };
    let default_c = judge_c.clone().or_else(|| none_c.clone());
    let decision = decision_rule(judge_c.is_some(), none_c.is_some(), judge);
    let scored = Scored {
        set: &set,
        analyzed: &analyzed,
        thresholds: &t,
        judge,
        default: default_c.as_ref(),
        no_judge: none_c.as_ref(),
        judged: judge_c.as_ref(),
    };
    let splits = ["calib", "heldout"].map(|s| scored.split(s)).to_vec();
    let errors = match std::env::var("CONTINUITY_BENCH_ERRORS") {
        Ok(split) => scored.errors(&split),
        Err(_) => Vec::new(),
    };
    Ok(BenchReport {
        judge: judge.to_string(),
        calibration,
        exported_pairs,
        decision,
        splits,
        errors,
        seconds_median: bench::median(&analyzed.seconds),
        seconds_mean: analyzed.seconds.iter().sum::<f64>() / analyzed.seconds.len().max(1) as f64,
        model_load_seconds,
        thresholds: t,
        skipped: set.skipped.clone(),
    })
}

/// What decides a verdict, given which combiners exist.
fn decision_rule(judged: bool, no_judge: bool, judge: &str) -> String {
    match (judged, no_judge, judge) {
        (true, _, j) => format!("combiner + judge {j}"),
        (false, true, "none") => "combiner (no judge)".to_string(),
        (false, true, j) => format!("combiner (no judge; judge {j} scores reported only)"),
        (false, false, _) => "threshold rules".to_string(),
    }
}

/// Write the calibrated thresholds and the combiners trained on the
/// calibration split (without a judge, and with `judge`).
fn write_calibration(
    analyzed: &bench::Analyzed,
    t: &Thresholds,
    ba: f64,
    judge: &str,
    thresholds_file: PathBuf,
    combiner_file: PathBuf,
    combiners: &mut CombinerFile,
) -> Result<Calibration> {
    write_atomically(&thresholds_file, bench::thresholds_toml(t, ba))?;
    let mut trained = Vec::new();
    for with_judge in std::iter::once(false).chain((judge != "none").then_some(true)) {
        let (c, cv) = bench::train_combiner(analyzed, t, judge, with_judge);
        trained.push(TrainedCombiner {
            judge: c.judge.clone(),
            l2: c.l2,
            cross_validated: cv,
            note: c.note.clone(),
        });
        combiners.put(c);
    }
    write_atomically(&combiner_file, bench::combiner_toml(combiners)?)?;
    Ok(Calibration {
        thresholds_balanced_accuracy: ba,
        thresholds_file,
        combiners: trained,
        combiner_file,
    })
}

/// Write the calibration split's judge-input pairs as JSON lines.
fn write_pairs(
    analyzed: &bench::Analyzed,
    t: &Thresholds,
    judge_floor: f32,
    path: &Path,
) -> Result<(usize, PathBuf)> {
    let pairs = bench::calib_judge_pairs(analyzed, t, judge_floor);
    let mut text = String::new();
    for p in &pairs {
        text.push_str(&serde_json::to_string(p).map_err(|e| Error::Internal(e.to_string()))?);
        text.push('\n');
    }
    write_atomically(path, text)?;
    Ok((pairs.len(), path.to_path_buf()))
}

/// The analysed set with the decision rules to score it by.
struct Scored<'a> {
    set: &'a bench::Set,
    analyzed: &'a bench::Analyzed,
    thresholds: &'a Thresholds,
    judge: &'a str,
    default: Option<&'a Combiner>,
    no_judge: Option<&'a Combiner>,
    judged: Option<&'a Combiner>,
}

impl Scored<'_> {
    fn balanced_accuracy(&self, split: &str, c: Option<&Combiner>, t: &Thresholds) -> f64 {
        let (p, _) = bench::pairs(self.analyzed, split, t, c);
        Scores::from_pairs(&p).balanced_accuracy
    }

    fn split(&self, split: &str) -> SplitReport {
        let t = self.thresholds;
        let (ours, kw) = bench::pairs(self.analyzed, split, t, self.default);
        SplitReport {
            name: split.to_string(),
            summaries: self
                .set
                .items
                .iter()
                .filter(|(i, _)| i.split == split)
                .count(),
            evaluator: Scores::from_pairs(&ours),
            keyword: Scores::from_pairs(&kw),
            variants: self.variants(split),
            per_case: self.per_case(split),
            ablations: ablations(t)
                .into_iter()
                .map(|(name, t2)| {
                    (
                        name.to_string(),
                        self.balanced_accuracy(split, self.default, &t2),
                    )
                })
                .collect(),
        }
    }

    fn variants(&self, split: &str) -> Vec<(String, f64)> {
        let t = self.thresholds;
        let judge = self.judge;
        let mut out = vec![(
            "threshold rules (embedder, lexicon, values)".to_string(),
            self.balanced_accuracy(
                split,
                None,
                &Thresholds {
                    judge: f32::MAX,
                    ..*t
                },
            ),
        )];
        if let Some(c) = self.no_judge {
            out.push((
                "combiner, no judge".to_string(),
                self.balanced_accuracy(split, Some(c), t),
            ));
        }
        if judge != "none" {
            let jp = bench::judge_alone_pairs(self.analyzed, split, t);
            out.push((
                format!("rules for mention + judge {judge} alone"),
                Scores::from_pairs(&jp).balanced_accuracy,
            ));
            out.push((
                format!("rules + judge {judge} (p(contradicts) > 0.5)"),
                self.balanced_accuracy(split, None, &Thresholds { judge: 0.5, ..*t }),
            ));
            if let Some(c) = self.judged {
                out.push((
                    format!("combiner + judge {judge}"),
                    self.balanced_accuracy(split, Some(c), t),
                ));
            }
        }
        out
    }

    fn per_case(&self, split: &str) -> Vec<CaseScores> {
        let mut cases: Vec<&str> = self
            .set
            .items
            .iter()
            .filter(|(i, _)| i.split == split)
            .map(|(i, _)| i.case.as_str())
            .collect();
        cases.sort();
        cases.dedup();
        cases
            .into_iter()
            .map(|case| {
                let keep = |i: &bench::Item| i.split == split && i.case == case;
                let (d, kw) =
                    bench::pairs_where(self.analyzed, self.thresholds, self.default, keep);
                let (n, _) =
                    bench::pairs_where(self.analyzed, self.thresholds, self.no_judge, keep);
                let [d, n, kw] = [d, n, kw].map(|p| Scores::from_pairs(&p).balanced_accuracy);
                CaseScores {
                    case: case.to_string(),
                    summaries: self.set.items.iter().filter(|(i, _)| keep(i)).count(),
                    default: d,
                    combiner_no_judge: n,
                    keyword: kw,
                }
            })
            .collect()
    }

    fn errors(&self, split: &str) -> Vec<VerdictError> {
        let mut out = Vec::new();
        for (item, a) in self.analyzed.items.iter().filter(|(i, _)| i.split == split) {
            let r = super::decide(a, self.thresholds, self.default);
            for f in &r.facts {
                if let Some(g) = item.labels.get(&f.id).filter(|g| **g != f.verdict) {
                    out.push(VerdictError {
                        summary: item.id.clone(),
                        fact: f.id.clone(),
                        gold: g.name(),
                        got: f.verdict.name(),
                        score: f.score,
                        sentences: f.sentences.clone(),
                    });
                }
            }
        }
        out
    }
}

/// Write `text` beside `path` and rename it into place, so a failed write
/// leaves the old file.
fn write_atomically(path: &Path, text: String) -> Result<()> {
    let tmp = path.with_extension("tmp");
    let io = |p: &Path, e: std::io::Error| Error::Io {
        path: p.to_path_buf(),
        source: e,
    };
    std::fs::write(&tmp, text).map_err(|e| io(&tmp, e))?;
    std::fs::rename(&tmp, path).map_err(|e| io(path, e))
}

/// The files `continuity eval-train` reads and writes.
pub struct TrainFiles<'a> {
    pub pairs: &'a Path,
    /// Pairs each batch draws `mix_share` of its examples from.
    pub mix: &'a [PathBuf],
    /// Adapters to start from (fine-tuning).
    pub init: Option<&'a Path>,
    pub out: &'a Path,
}

fn read_pairs(path: &Path) -> Result<Vec<Pair>> {
    super::xenc::train::parse_pairs(path, &io::read_text(path)?)
}

/// Train the cross-encoder judge's adapters on a pairs file and write them
/// to `files.out` (safetensors, written to a temporary file first and
/// renamed, so a failed run leaves the old file). `on_step(step, mean
/// recent loss)` is called after every step.
pub fn train_judge(
    files: &TrainFiles,
    mut opts: TrainOptions,
    on_step: &mut dyn FnMut(usize, f32),
) -> Result<TrainReport> {
    use super::xenc::{self, train};
    let pairs = read_pairs(files.pairs)?;
    for mix in files.mix {
        opts.mix.extend(read_pairs(mix)?);
    }
    if let Some(init) = files.init {
        opts.init = Some((init.display().to_string(), io::read_bytes(init)?));
    }
    let out = files.out;
    let dir = continuity_models::hub::resolve_model("minilm-l6", None)
        .map_err(|e| Error::Internal(e.to_string()))?;
    let base = xenc::Base::load(&dir, &xenc::model::device())?;
    let mut recent = std::collections::VecDeque::new();
    let (vars, report) = train::train(base, &pairs, &opts, |step, loss| {
        recent.push_back(loss);
        if recent.len() > 20 {
            recent.pop_front();
        }
        on_step(step, recent.iter().sum::<f32>() / recent.len() as f32);
    })?;
    let tmp = out.with_extension("safetensors.tmp");
    vars.save(&tmp)
        .map_err(|e| Error::Internal(format!("{}: {e}", tmp.display())))?;
    std::fs::rename(&tmp, out).map_err(|e| Error::Io {
        path: out.to_path_buf(),
        source: e,
    })?;
    Ok(report)
}
