//! Training the cross-encoder's adapters and head on labeled pairs
//! (`eval/xenc/pairs.jsonl`) with AdamW, on the CPU. Deterministic for a
//! seed: initial adapter values and batch order come from our own seeded
//! generator (candle's CPU generator cannot be seeded).

use std::collections::BTreeSet;
use std::path::Path;
use std::time::Instant;

use candle_core::{DType, Device, Tensor};
use candle_nn::{AdamW, Optimizer, ParamsAdamW, VarBuilder, VarMap};
use serde::Deserialize;

use super::model::{CrossEncoderNet, LABELS};
use super::{encode_pairs, Base};
use continuity_core::error::{Error, InputError, Result, Source};

/// One labeled pair of the training file.
#[derive(Debug, Clone, PartialEq, Deserialize, serde::Serialize)]
pub struct Pair {
    pub premise: String,
    pub hypothesis: String,
    pub label: String,
    #[serde(default)]
    pub kind: String,
    #[serde(default)]
    pub source: String,
}

impl Pair {
    fn label_index(&self) -> Option<usize> {
        LABELS.iter().position(|l| *l == self.label)
    }
}

/// Parse a pairs file (one JSON object per line); errors name the line.
pub fn parse_pairs(path: &Path, text: &str) -> Result<Vec<Pair>> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let bad = |column: usize, message: String| {
            Error::Input(InputError::MalformedJson {
                file: Source::path(path),
                line: i + 1,
                column,
                message,
            })
        };
        let p: Pair = serde_json::from_str(line).map_err(|e| bad(e.column(), e.to_string()))?;
        if p.label_index().is_none() {
            return Err(bad(
                0,
                format!("label {:?} is not one of {}", p.label, LABELS.join(", ")),
            ));
        }
        out.push(p);
    }
    if out.is_empty() {
        return Err(Error::Input(InputError::Unreadable {
            file: Source::path(path),
            message: "no pairs in the file".into(),
        }));
    }
    Ok(out)
}

#[derive(Debug, Clone)]
pub struct TrainOptions {
    pub steps: usize,
    pub batch: usize,
    pub lr: f64,
    pub weight_decay: f64,
    pub seed: u64,
    /// Every `dev_every`-th source (domain or case, in sorted order) is held
    /// out of training and scored at the end: a check that what is learned
    /// carries to domains not trained on.
    pub dev_every: usize,
    /// Sources left out entirely (neither trained on nor scored), in the
    /// main pairs and in `mix`.
    pub exclude: Vec<String>,
    /// Start from these trained adapters (a name for errors, safetensors
    /// bytes) instead of the seeded initial values: fine-tuning.
    pub init: Option<(String, Vec<u8>)>,
    /// A second set of pairs that each batch draws `mix_share` of its
    /// examples from (a small set of real sentences beside the large
    /// synthetic one).
    pub mix: Vec<Pair>,
    pub mix_share: f64,
}

impl Default for TrainOptions {
    fn default() -> Self {
        TrainOptions {
            steps: 600,
            batch: 16,
            lr: 1e-3,
            weight_decay: 0.01,
            seed: 20261130,
            dev_every: 5,
            exclude: Vec::new(),
            init: None,
            mix: Vec::new(),
            mix_share: 0.5,
        }
    }
}

#[derive(Debug, Clone, serde::Serialize)]
pub struct TrainReport {
    pub train_pairs: usize,
    pub dev_pairs: usize,
    pub dev_sources: Vec<String>,
    /// (step, mean loss over the steps since the previous entry).
    pub loss: Vec<(usize, f32)>,
    /// Rows: truth (entails, neutral, contradicts); columns: prediction.
    pub dev_confusion: [[usize; 3]; 3],
    pub dev_balanced_accuracy: f32,
    pub seconds: f32,
}

/// SplitMix64: small, seedable, and enough for shuffling and init.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = (self.next_u64() % (i as u64 + 1)) as usize;
            v.swap(i, j);
        }
    }
}

fn cerr(e: candle_core::Error) -> Error {
    Error::Internal(format!("cross-encoder training: {e}"))
}

/// Seeded initial values for the trained variables (the one place they are
/// chosen): adapters `A` uniform in ±1/sqrt(in); `B` zero, so training
/// starts from the base model exactly; the head normal(0, 0.02), its bias
/// zero.
pub fn init_adapters(varmap: &VarMap, rng: &mut Rng, device: &Device) -> candle_core::Result<()> {
    let data = varmap
        .data()
        .lock()
        .map_err(|_| candle_core::Error::Msg("variable map lock poisoned".into()))?;
    let names: BTreeSet<&String> = data.keys().collect();
    for name in names {
        let var = &data[name];
        let dims = var.dims().to_vec();
        let count: usize = dims.iter().product();
        let values: Vec<f32> = if name.ends_with("lora_a") {
            let bound = 1.0 / (dims[1] as f64).sqrt();
            (0..count)
                .map(|_| ((rng.unit() * 2.0 - 1.0) * bound) as f32)
                .collect()
        } else if name == "head.weight" {
            (0..count)
                .map(|_| {
                    // Box-Muller.
                    let u1 = rng.unit().max(1e-12);
                    let u2 = rng.unit();
                    ((-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos() * 0.02) as f32
                })
                .collect()
        } else {
            vec![0.0; count]
        };
        var.set(&Tensor::from_vec(values, dims, device)?)?;
    }
    Ok(())
}

/// Indices of a set in an order reshuffled at each pass.
struct Shuffled {
    order: Vec<usize>,
    cursor: usize,
}

impl Shuffled {
    fn new(n: usize, rng: &mut Rng) -> Shuffled {
        let mut order: Vec<usize> = (0..n).collect();
        rng.shuffle(&mut order);
        Shuffled { order, cursor: 0 }
    }

    /// The next index; callers never ask an empty set.
    fn next(&mut self, rng: &mut Rng) -> usize {
        if self.cursor == self.order.len() {
            rng.shuffle(&mut self.order);
            self.cursor = 0;
        }
        self.cursor += 1;
        self.order[self.cursor - 1]
    }
}

/// Overwrite the variables with trained adapters (safetensors bytes); every
/// variable must be present with its shape.
pub fn load_adapters(
    varmap: &VarMap,
    bytes: &[u8],
    device: &Device,
) -> std::result::Result<(), String> {
    let trained =
        candle_core::safetensors::load_buffer(bytes, device).map_err(|e| e.to_string())?;
    let data = varmap
        .data()
        .lock()
        .map_err(|_| "variable map lock poisoned".to_string())?;
    for (name, var) in data.iter() {
        let t = trained
            .get(name)
            .ok_or_else(|| format!("no tensor {name}"))?;
        if t.dims() != var.dims() {
            return Err(format!(
                "{name} has shape {:?}, expected {:?}",
                t.dims(),
                var.dims()
            ));
        }
        var.set(t).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Train adapters and head on `pairs`; returns the trained variables (save
/// them with [`VarMap::save`]) and a report. `progress(step, loss)` is
/// called after every step.
pub fn train(
    base: Base,
    pairs: &[Pair],
    opts: &TrainOptions,
    mut progress: impl FnMut(usize, f32),
) -> Result<(VarMap, TrainReport)> {
    let started = Instant::now();
    let device = super::model::device();
    let pairs: Vec<&Pair> = pairs
        .iter()
        .filter(|p| !opts.exclude.contains(&p.source))
        .collect();
    let (dev, train, dev_sources) = split_dev(&pairs, opts.dev_every);
    if train.is_empty() {
        return Err(Error::Internal(
            "cross-encoder training: no training pairs".into(),
        ));
    }

    let varmap = VarMap::new();
    let adapters = VarBuilder::from_varmap(&varmap, DType::F32, &device);
    let net = CrossEncoderNet::load(base.weights(), adapters, &base.config).map_err(cerr)?;
    let mut rng = Rng::new(opts.seed);
    init_adapters(&varmap, &mut rng, &device).map_err(cerr)?;
    if let Some((name, bytes)) = &opts.init {
        load_adapters(&varmap, bytes, &device).map_err(|message| {
            Error::Input(InputError::Unreadable {
                file: Source::path(Path::new(name)),
                message: format!("not adapters of this cross-encoder: {message}"),
            })
        })?;
    }
    let mix: Vec<&Pair> = opts
        .mix
        .iter()
        .filter(|p| !opts.exclude.contains(&p.source))
        .collect();
    let mut opt = AdamW::new(
        varmap.all_vars(),
        ParamsAdamW {
            lr: opts.lr,
            weight_decay: opts.weight_decay,
            ..Default::default()
        },
    )
    .map_err(cerr)?;

    let mut main = Shuffled::new(train.len(), &mut rng);
    let mut extra = Shuffled::new(mix.len(), &mut rng);
    let mut loss_log = Vec::new();
    let mut acc = (0.0f32, 0usize);
    for step in 1..=opts.steps {
        let (batch, labels) = draw_batch(opts, &mut rng, (&train, &mut main), (&mix, &mut extra));
        opt.set_learning_rate(learning_rate(opts, step));
        let l = train_step(&net, &base, &mut opt, (&batch, &labels), &device)?;
        acc.0 += l;
        acc.1 += 1;
        if step % 20 == 0 || step == opts.steps {
            loss_log.push((step, acc.0 / acc.1 as f32));
            acc = (0.0, 0);
        }
        progress(step, l);
    }

    let (confusion, balanced) = dev_accuracy(&net, &base, &dev, &device)?;
    let report = TrainReport {
        train_pairs: train.len() + mix.len(),
        dev_pairs: dev.len(),
        dev_sources: dev_sources.into_iter().collect(),
        loss: loss_log,
        dev_confusion: confusion,
        dev_balanced_accuracy: balanced,
        seconds: started.elapsed().as_secs_f32(),
    };
    Ok((varmap, report))
}

/// Every `dev_every`-th source (sorted) held out for the dev split, with
/// all its pairs; the rest train.
fn split_dev<'p>(
    pairs: &[&'p Pair],
    dev_every: usize,
) -> (Vec<&'p Pair>, Vec<&'p Pair>, BTreeSet<String>) {
    let sources: Vec<String> = pairs
        .iter()
        .map(|p| p.source.clone())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let dev_sources: BTreeSet<&String> = if dev_every > 1 {
        sources
            .iter()
            .enumerate()
            .filter(|(i, _)| i % dev_every == dev_every - 1)
            .map(|(_, s)| s)
            .collect()
    } else {
        BTreeSet::new()
    };
    let (dev, train): (Vec<&Pair>, Vec<&Pair>) = pairs
        .iter()
        .copied()
        .partition(|p| dev_sources.contains(&p.source));
    let dev_sources = dev_sources.into_iter().cloned().collect();
    (dev, train, dev_sources)
}

/// One batch: each pair from the mixed-in pairs with probability
/// `mix_share`, else from the training pairs, each list in its shuffled
/// order; with its labels.
fn draw_batch(
    opts: &TrainOptions,
    rng: &mut Rng,
    (train, main): (&[&Pair], &mut Shuffled),
    (mix, extra): (&[&Pair], &mut Shuffled),
) -> (Vec<(String, String)>, Vec<u32>) {
    let mut batch = Vec::with_capacity(opts.batch);
    let mut labels = Vec::with_capacity(opts.batch);
    while batch.len() < opts.batch {
        let p = if !mix.is_empty() && rng.unit() < opts.mix_share {
            mix[extra.next(rng)]
        } else {
            train[main.next(rng)]
        };
        batch.push((p.premise.clone(), p.hypothesis.clone()));
        labels.push(p.label_index().unwrap_or(1) as u32);
    }
    (batch, labels)
}

/// One optimizer step on a batch; its cross-entropy loss.
fn train_step(
    net: &CrossEncoderNet,
    base: &Base,
    opt: &mut AdamW,
    (batch, labels): (&[(String, String)], &[u32]),
    device: &Device,
) -> Result<f32> {
    let (ids, types, mask) = encode_pairs(&base.tokenizer, batch, device)?;
    let target = Tensor::new(labels, device).map_err(cerr)?;
    let loss = net
        .forward(&ids, &types, &mask)
        .and_then(|logits| candle_nn::loss::cross_entropy(&logits, &target))
        .map_err(cerr)?;
    opt.backward_step(&loss).map_err(cerr)?;
    loss.to_scalar::<f32>().map_err(cerr)
}

/// Linear warm-up over the first 10% of steps, then linear decay.
fn learning_rate(opts: &TrainOptions, step: usize) -> f64 {
    let warm = (opts.steps / 10).max(1);
    if step <= warm {
        opts.lr * step as f64 / warm as f64
    } else {
        opts.lr * (opts.steps - step + 1) as f64 / (opts.steps - warm + 1) as f64
    }
}

/// The dev split's confusion matrix (true label by predicted) and its
/// balanced accuracy.
fn dev_accuracy(
    net: &CrossEncoderNet,
    base: &Base,
    dev: &[&Pair],
    device: &Device,
) -> Result<([[usize; 3]; 3], f32)> {
    let mut confusion = [[0usize; 3]; 3];
    for chunk in dev.chunks(64) {
        let batch: Vec<(String, String)> = chunk
            .iter()
            .map(|p| (p.premise.clone(), p.hypothesis.clone()))
            .collect();
        let (ids, types, mask) = encode_pairs(&base.tokenizer, &batch, device)?;
        let pred = net
            .forward(&ids, &types, &mask)
            .and_then(|l| l.argmax(1))
            .and_then(|p| p.to_vec1::<u32>())
            .map_err(cerr)?;
        for (p, y) in chunk.iter().zip(pred) {
            if let Some(t) = p.label_index() {
                confusion[t][y as usize] += 1;
            }
        }
    }
    let recalls: Vec<f32> = confusion
        .iter()
        .enumerate()
        .filter(|(_, row)| row.iter().sum::<usize>() > 0)
        .map(|(i, row)| row[i] as f32 / row.iter().sum::<usize>() as f32)
        .collect();
    let balanced = if recalls.is_empty() {
        0.0
    } else {
        recalls.iter().sum::<f32>() / recalls.len() as f32
    };
    Ok((confusion, balanced))
}
