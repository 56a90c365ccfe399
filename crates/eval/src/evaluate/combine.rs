//! The trained combiner: a 3-class logistic regression over per-fact
//! features (embedder alignment, counterfactual contrast, lexicon and value
//! signals, the threshold rules' verdict and, when a judge ran, its label
//! probabilities). Trained on the calibration split only by
//! `continuity eval-bench --calibrate`; weights live in
//! `eval/faithfulness/combiner.toml` and are embedded in the library.

use serde::{Deserialize, Serialize};

use super::{align, chosen_units, unit_tops, Analysis, Thresholds, Top, Verdict};

/// Combiner weights, embedded from the trained file.
pub const COMBINER_TOML: &str = include_str!("../../../../eval/faithfulness/combiner.toml");

/// Feature names, in vector order.
pub const FEATURES: &[&str] = &[
    "align",
    "cos",
    "rel",
    "is_top",
    "n_mentions",
    "contrast",
    "lexicon",
    "actor",
    "values",
    "rule_supported",
    "rule_contradicted",
    "cos_part",
    "anchored",
    "specific",
    "id_recall",
    "word_recall",
    "word_recall_all",
    "judge_entails",
    "judge_contradicts",
    "judge_margin",
    "judge_part_entails",
    "judge_part_contradicts",
];

/// Features without the judge (for a combiner trained with `--judge none`).
pub const JUDGE_FEATURES: usize = 5;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Combiner {
    /// Which judge the weights were trained with ("none" for no judge).
    pub judge: String,
    pub features: Vec<String>,
    pub mean: Vec<f32>,
    pub std: Vec<f32>,
    /// Per class (supported, omitted, contradicted): bias then one weight
    /// per feature.
    pub weights: Vec<Vec<f32>>,
    /// L2 strength it was trained with.
    pub l2: f32,
    /// Figures from training, for the record.
    #[serde(default)]
    pub note: String,
}

fn judge_feats(a: &Analysis, fi: usize, unit: usize) -> [f32; 3] {
    match a.signals[fi][unit].judge {
        Some(j) => {
            let e = j.entails.max(1e-6);
            let c = j.contradicts.max(1e-6);
            [e, c, e.ln() - c.ln()]
        }
        None => [0.0, 0.0, 0.0],
    }
}

/// Feature vectors, one per fact of the analysis.
pub fn features(a: &Analysis, t: &Thresholds) -> Vec<Vec<f32>> {
    let top = unit_tops(a, t);
    let rules = super::verdicts(a, t);
    a.signals
        .iter()
        .enumerate()
        .map(|(fi, sig)| fact_features(a, t, fi, sig, &top, rules[fi]))
        .collect()
}

/// One fact's features, in [`FEATURES`] order.
fn fact_features(
    a: &Analysis,
    t: &Thresholds,
    fi: usize,
    sig: &[super::UnitSignals],
    top: &[Top],
    rule: Verdict,
) -> Vec<f32> {
    if sig.is_empty() {
        let mut v = vec![0.0; FEATURES.len()];
        v[0] = -1.0;
        return v;
    }
    let (bu, best) = best_unit(sig, t);
    let tp = top[bu];
    let other = if tp.fact == fi { tp.second } else { tp.best };
    let rel = if other.is_finite() { best - other } else { 0.3 };
    let chosen = chosen_units(fi, sig, t, top);
    // Signals over the chosen clauses, or the best one if none.
    let pool: Vec<&super::UnitSignals> = if chosen.is_empty() {
        vec![&sig[bu]]
    } else {
        chosen
    };
    let has = |p: &str| {
        pool.iter()
            .any(|s| s.conflicts.iter().any(|c| c.starts_with(p)))
    };
    let lexicon = pool.iter().any(|s| {
        s.conflicts
            .iter()
            .any(|c| c.starts_with("lexicon") && c != "lexicon: actor")
    });
    let contrast = pool
        .iter()
        .map(|s| s.contrast)
        .fold(f32::NEG_INFINITY, f32::max);
    let n_mentions = sig.iter().filter(|s| align(s, t) >= t.mention).count() as f32;
    let j = judge_feats(a, fi, bu);
    // The judge on the fact's parts (the whole fact when it has one).
    let jp = match sig[bu].judge_parts.or(sig[bu].judge) {
        Some(p) => [p.entails, p.contradicts],
        None => [0.0, 0.0],
    };
    let best_sentence = &a.sentences[a.units[sig[bu].unit].sentence];
    let [id_recall, best_recall, all_recall] = fact_recall(a, fi, best_sentence);
    let cos_part = if sig[bu].cos_part.is_finite() {
        sig[bu].cos_part
    } else {
        sig[bu].cos
    };
    vec![
        best,
        sig[bu].cos,
        rel,
        (tp.fact == fi) as u8 as f32,
        n_mentions.min(3.0),
        if contrast.is_finite() { contrast } else { 0.0 },
        lexicon as u8 as f32,
        has("lexicon: actor") as u8 as f32,
        has("values") as u8 as f32,
        (rule == Verdict::Supported) as u8 as f32,
        (rule == Verdict::Contradicted) as u8 as f32,
        cos_part,
        sig[bu].anchored as u8 as f32,
        sig[bu].specific as u8 as f32,
        id_recall,
        best_recall,
        all_recall,
        j[0],
        j[1],
        j[2],
        jp[0],
        jp[1],
    ]
}

/// The unit best aligned with the fact (the first of equals), and its score.
fn best_unit(sig: &[super::UnitSignals], t: &Thresholds) -> (usize, f32) {
    let mut bu = 0;
    let mut best = f32::NEG_INFINITY;
    for (i, s) in sig.iter().enumerate() {
        let x = align(s, t);
        if x > best {
            best = x;
            bu = i;
        }
    }
    (bu, best)
}

/// How much of the fact the summary holds: its ids anywhere, its content
/// words in the best sentence and in the whole summary.
fn fact_recall(a: &Analysis, fi: usize, best_sentence: &str) -> [f32; 3] {
    let fact = a.fact_texts.get(fi).map(String::as_str).unwrap_or("");
    let f_ids = super::text::ids(fact);
    let all_text = a.sentences.join(" ");
    let s_ids = super::text::ids(&all_text);
    let id_recall = if f_ids.is_empty() {
        0.5
    } else {
        f_ids.intersection(&s_ids).count() as f32 / f_ids.len() as f32
    };
    let fw = content_words(fact);
    let recall = |text: &str| {
        if fw.is_empty() {
            return 0.0;
        }
        let uw = content_words(text);
        fw.iter().filter(|w| uw.contains(*w)).count() as f32 / fw.len() as f32
    };
    [id_recall, recall(best_sentence), recall(&all_text)]
}

/// The combiner file: one trained combiner per judge.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct CombinerFile {
    #[serde(default, rename = "combiner")]
    pub combiners: Vec<Combiner>,
}

impl CombinerFile {
    pub fn parse(text: &str) -> Option<CombinerFile> {
        toml::from_str(text).ok()
    }
    pub fn get(&self, judge: &str) -> Option<Combiner> {
        self.combiners.iter().find(|c| c.judge == judge).cloned()
    }
    /// Replace (or add) the combiner trained with `c.judge`.
    pub fn put(&mut self, c: Combiner) {
        self.combiners.retain(|x| x.judge != c.judge);
        self.combiners.push(c);
        self.combiners.sort_by(|a, b| a.judge.cmp(&b.judge));
    }
}

/// The embedded combiner trained with `judge` ("none": without a judge).
pub fn embedded(judge: &str) -> Option<Combiner> {
    CombinerFile::parse(COMBINER_TOML)?.get(judge)
}

impl Combiner {
    fn uses_judge(&self) -> bool {
        self.judge != "none"
    }

    /// Class probabilities (supported, omitted, contradicted).
    pub fn probs(&self, x: &[f32]) -> [f32; 3] {
        let mut z = [0f32; 3];
        for (k, w) in self.weights.iter().enumerate().take(3) {
            let mut s = w.first().copied().unwrap_or(0.0);
            for (i, xi) in x.iter().enumerate() {
                let sd = self.std.get(i).copied().unwrap_or(1.0);
                let m = self.mean.get(i).copied().unwrap_or(0.0);
                s += w.get(i + 1).copied().unwrap_or(0.0) * (xi - m) / sd;
            }
            z[k] = s;
        }
        softmax(z)
    }

    pub fn verdict(&self, x: &[f32]) -> (Verdict, [f32; 3]) {
        let p = self.probs(x);
        let mut k = 0;
        for i in 1..3 {
            if p[i] > p[k] {
                k = i;
            }
        }
        (Verdict::ALL[k], p)
    }

    /// Fit on (features, gold) with class-balanced weights, full-batch
    /// gradient descent. `with_judge = false` zeroes the judge features.
    pub fn train(xs: &[Vec<f32>], ys: &[Verdict], l2: f32, judge: &str, mask: &[bool]) -> Combiner {
        let d = FEATURES.len();
        let n = xs.len().max(1) as f32;
        let mut mean = vec![0f32; d];
        let mut std = vec![1f32; d];
        for i in 0..d {
            if !mask[i] {
                continue;
            }
            let m = xs.iter().map(|x| x[i]).sum::<f32>() / n;
            let v = xs.iter().map(|x| (x[i] - m).powi(2)).sum::<f32>() / n;
            mean[i] = m;
            std[i] = v.sqrt().max(1e-3);
        }
        let mut counts = [0f32; 3];
        for y in ys {
            counts[y.index()] += 1.0;
        }
        let cw: Vec<f32> = counts
            .iter()
            .map(|c| if *c > 0.0 { n / (3.0 * c) } else { 0.0 })
            .collect();
        let z: Vec<Vec<f32>> = xs
            .iter()
            .map(|x| {
                (0..d)
                    .map(|i| {
                        if mask[i] {
                            (x[i] - mean[i]) / std[i]
                        } else {
                            0.0
                        }
                    })
                    .collect()
            })
            .collect();
        let mut w = vec![vec![0f32; d + 1]; 3];
        let lr = 0.5f32;
        for _ in 0..3000 {
            let mut g = vec![vec![0f32; d + 1]; 3];
            for (x, y) in z.iter().zip(ys) {
                let mut s = [0f32; 3];
                for k in 0..3 {
                    s[k] = w[k][0] + x.iter().zip(&w[k][1..]).map(|(a, b)| a * b).sum::<f32>();
                }
                let p = softmax(s);
                let wt = cw[y.index()];
                for k in 0..3 {
                    let e = (p[k] - (y.index() == k) as u8 as f32) * wt;
                    g[k][0] += e;
                    for i in 0..d {
                        g[k][i + 1] += e * x[i];
                    }
                }
            }
            for k in 0..3 {
                for i in 0..=d {
                    let reg = if i > 0 { l2 * w[k][i] } else { 0.0 };
                    w[k][i] -= lr * (g[k][i] / n + reg);
                }
            }
        }
        Combiner {
            judge: judge.to_string(),
            features: FEATURES.iter().map(|s| s.to_string()).collect(),
            mean,
            std,
            weights: w,
            l2,
            note: String::new(),
        }
    }

    /// Does this combiner expect judge features?
    pub fn needs_judge(&self) -> bool {
        self.uses_judge()
    }
}

const STOP: &[&str] = &[
    "the", "a", "an", "and", "or", "of", "to", "in", "on", "for", "by", "was", "is", "are", "were",
    "be", "been", "it", "its", "that", "this", "with", "as", "at", "from", "has", "have", "had",
    "not", "no", "but", "so", "than", "then", "there", "their", "they", "which", "who", "would",
    "only", "still", "yet", "all", "any", "one", "two", "three",
];

/// Lower-cased content words (letters and digits, stop words dropped).
fn content_words(text: &str) -> std::collections::BTreeSet<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() > 2)
        .map(str::to_lowercase)
        .filter(|w| !STOP.contains(&w.as_str()))
        .collect()
}

fn softmax(z: [f32; 3]) -> [f32; 3] {
    let m = z.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let e = [(z[0] - m).exp(), (z[1] - m).exp(), (z[2] - m).exp()];
    let s = e[0] + e[1] + e[2];
    [e[0] / s, e[1] / s, e[2] / s]
}

/// Which features a variant uses: all, or all but the judge's.
pub fn mask(with_judge: bool) -> Vec<bool> {
    let d = FEATURES.len();
    (0..d)
        .map(|i| with_judge || i < d - JUDGE_FEATURES)
        .collect()
}
