//! Quantized matmul side by side in one run: candle's `QMatMul` and our
//! kernels (`llm::quant`) at every ISA level this CPU runs, on ggml's layout
//! (the route of matrices whose rows are not a multiple of 8) and on the R8
//! layout (every other matrix), at qwen2.5-0.5b's shapes, decode (1 token)
//! and prefill (512 tokens); then a decode bandwidth probe.
//!
//!     RAYON_NUM_THREADS=2 cargo bench -p continuity-llm --bench qmatmul
//!     QMM_DTYPES=q5_0 QMM_TOKENS=1 QMM_LEVELS=avx2 cargo bench ...   # a subset
//!     QMM_PROBE_ONLY=1 cargo bench ...                               # the probe only
//!
//! Rounds alternate every variant of one op so machine load hits them alike;
//! reported per variant: the median wall time, the process CPU time (all
//! threads, so spin-waiting counts), GFLOP/s (2 m n k per call), the weight
//! bytes read per second, and candle / ours.
//!
//! The probe (`QMM_PROBE_LAYERS`, default 24, and `QMM_PROBE_DTYPE`, default
//! q5_0): the 7 matrices of a qwen2.5-0.5b layer, copied once per layer, and
//! its Q8_0 output matrix (151,936 x 896; `QMM_PROBE_OUTPUT=0` leaves it
//! out), so one "token" is a 1-row matmul through every weight, decode's read
//! pattern: 391 MB, as qwen2.5-0.5b's Q5_0 file reads per token. It is timed against a plain read of the same buffers
//! once per token on the same threads (the bandwidth this machine gives that
//! working set); tokens / s and GB/s of both, and the decode's share of the
//! probe's bandwidth. Criterion is not used: it runs benchmarks one after
//! another, and these figures are only comparable side by side.

#![allow(clippy::unwrap_used)]

use std::time::Instant;

use candle_core::quantized::{GgmlDType, QMatMul, QTensor};
use candle_core::{Device, Module, Tensor};
use continuity_llm::cpu::{level_name, Features, LEVELS};
use continuity_llm::quant::{Kernel, QWeights};

/// User + system CPU seconds of this process (ticks of 1/100 s).
fn cpu_s() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let rest = stat.rsplit(')').next().unwrap_or("");
    let f: Vec<&str> = rest.split_whitespace().collect();
    let tick = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    (tick(11) + tick(12)) / 100.0
}

fn random(n: usize, seed: u64) -> Vec<f32> {
    let mut s = seed | 1;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            ((s >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
        })
        .collect()
}

/// Runs `f` until at least `min_s` seconds passed; (wall, cpu) seconds per call.
fn time(min_s: f64, f: &mut dyn FnMut()) -> (f64, f64) {
    let (w0, c0) = (Instant::now(), cpu_s());
    let mut reps = 0;
    while reps == 0 || w0.elapsed().as_secs_f64() < min_s {
        f();
        reps += 1;
    }
    let w = w0.elapsed().as_secs_f64() / reps as f64;
    (w, (cpu_s() - c0) / reps as f64)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn env_list(var: &str, name: &str) -> bool {
    std::env::var(var)
        .ok()
        .is_none_or(|v| v.split(',').any(|x| x.trim().eq_ignore_ascii_case(name)))
}

fn env_f64(var: &str, default: f64) -> f64 {
    std::env::var(var)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

const DTYPES: [(&str, GgmlDType); 5] = [
    ("q4_1", GgmlDType::Q4_1),
    ("q5_0", GgmlDType::Q5_0),
    ("q8_0", GgmlDType::Q8_0),
    ("q4_k", GgmlDType::Q4K),
    ("q6_k", GgmlDType::Q6K),
];

/// The SIMD levels to run: every one this CPU has, or those `QMM_LEVELS` names.
fn levels() -> Vec<Kernel> {
    LEVELS
        .into_iter()
        .filter(|&k| k != Kernel::Scalar && k.supported())
        .filter(|&k| env_list("QMM_LEVELS", level_name(k)))
        .collect()
}

/// One variant of an op: a name and the call it times.
type Variant<'a> = (String, Box<dyn FnMut() + 'a>);

fn run_op(label: &str, flop: f64, bytes: f64, variants: &mut [Variant<'_>], min_s: f64) {
    let rounds = 3;
    let mut wall = vec![vec![]; variants.len()];
    let mut cpu = vec![vec![]; variants.len()];
    for _ in 0..rounds {
        for (i, (_, f)) in variants.iter_mut().enumerate() {
            let (w, c) = time(min_s, f.as_mut());
            wall[i].push(w);
            cpu[i].push(c);
        }
    }
    let med: Vec<(f64, f64)> = wall
        .into_iter()
        .zip(cpu)
        .map(|(w, c)| (median(w), median(c)))
        .collect();
    let candle = med[0].0;
    for ((name, _), (w, c)) in variants.iter().zip(med) {
        println!(
            "{label} {name:<13} {:9.3} ms wall {:9.3} ms cpu {:7.1} GFLOP/s {:6.1} GB/s  candle/this {:5.2}x",
            w * 1e3,
            c * 1e3,
            flop / w / 1e9,
            bytes / w / 1e9,
            candle / w
        );
    }
}

fn kernels(min_s: f64) {
    // (n, k): ffn up/gate, ffn down, attention q/o.
    let shapes = [(4864, 896), (896, 4864), (896, 896)];
    let levels = levels();
    // Activation rows per call: decode (1) and prefill (512) unless
    // `QMM_TOKENS` lists others (2-5: speculative checks).
    let tokens: Vec<usize> = std::env::var("QMM_TOKENS")
        .unwrap_or_else(|_| "1,512".into())
        .split(',')
        .filter_map(|m| m.trim().parse().ok())
        .filter(|&m| m > 0)
        .collect();
    for (dname, dtype) in DTYPES {
        if !env_list("QMM_DTYPES", dname) {
            continue;
        }
        let is_k = matches!(dtype, GgmlDType::Q4K | GgmlDType::Q6K);
        for (n, k) in shapes {
            if is_k && k % 256 != 0 {
                continue;
            }
            let wf = Tensor::from_vec(random(n * k, 7), (n, k), &Device::Cpu).unwrap();
            let qt = QTensor::quantize(&wf, dtype).unwrap();
            let ggml = QWeights::from_qtensor(&qt).unwrap().unwrap();
            let r8 = ggml.clone().repacked_r8();
            let bytes = ggml.bytes().len() as f64;
            let candle = QMatMul::from_qtensor(qt).unwrap();
            for &m in &tokens {
                let x = Tensor::from_vec(random(m * k, 11), (m, k), &Device::Cpu).unwrap();
                let mut variants: Vec<Variant> = vec![(
                    "candle".into(),
                    Box::new(|| {
                        std::hint::black_box(candle.forward(&x).unwrap());
                    }),
                )];
                for &level in &levels {
                    // candle covers the K-quants on ggml's layout.
                    if !is_k {
                        let (w, x) = (&ggml, &x);
                        variants.push((
                            format!("{}/ggml", level_name(level)),
                            Box::new(move || {
                                std::hint::black_box(w.forward(x, level).unwrap());
                            }),
                        ));
                    }
                    let (w, x) = (&r8, &x);
                    variants.push((
                        format!("{}/r8", level_name(level)),
                        Box::new(move || {
                            std::hint::black_box(w.forward(x, level).unwrap());
                        }),
                    ));
                }
                let label = format!("{dname} n={n:<5} k={k:<5} m={m:<4}");
                let flop = 2.0 * (m * n * k) as f64;
                run_op(&label, flop, bytes, &mut variants, min_s);
            }
        }
    }
}

/// The sum of `bytes` read as u64 words on `threads` threads (each a
/// contiguous part): one pass over the buffer.
fn read_once(bufs: &[&[u8]], threads: usize) -> u64 {
    std::thread::scope(|s| {
        let parts: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || {
                    let mut acc = 0u64;
                    for b in bufs {
                        let per = b.len().div_ceil(threads);
                        let part = &b[(t * per).min(b.len())..((t + 1) * per).min(b.len())];
                        // SAFETY: every bit pattern is a valid u64.
                        let (head, words, tail) = unsafe { part.align_to::<u64>() };
                        for w in words.chunks(8) {
                            for &x in w {
                                acc = acc.wrapping_add(x);
                            }
                        }
                        acc += head.len() as u64 + tail.len() as u64;
                    }
                    acc
                })
            })
            .collect();
        parts.into_iter().map(|h| h.join().unwrap()).sum()
    })
}

fn probe(min_s: f64) {
    let layers = env_f64("QMM_PROBE_LAYERS", 24.0) as usize;
    let want = std::env::var("QMM_PROBE_DTYPE").unwrap_or_else(|_| "q5_0".into());
    let Some(&(dname, dtype)) = DTYPES.iter().find(|(n, _)| n.eq_ignore_ascii_case(&want)) else {
        println!("probe: unknown QMM_PROBE_DTYPE {want}");
        return;
    };
    // qwen2.5-0.5b: q, k, v, o, gate, up, down.
    let mut shapes = vec![
        (896, 896),
        (128, 896),
        (128, 896),
        (896, 896),
        (4864, 896),
        (4864, 896),
    ];
    // ffn down's k (4864) is not a multiple of 256: a K-quant probe skips it.
    if !matches!(dtype, GgmlDType::Q4K | GgmlDType::Q6K) {
        shapes.push((896, 4864));
    }
    let threads = candle_core::utils::get_num_threads();
    let proto: Vec<QWeights> = shapes
        .iter()
        .enumerate()
        .map(|(i, &(n, k))| {
            let wf = Tensor::from_vec(random(n * k, 13 + i as u64), (n, k), &Device::Cpu).unwrap();
            let qt = QTensor::quantize(&wf, dtype).unwrap();
            QWeights::from_qtensor(&qt).unwrap().unwrap().repacked_r8()
        })
        .collect();
    let mut model: Vec<Vec<QWeights>> = (0..layers).map(|_| proto.clone()).collect();
    // Rows per pass: 1 is plain decode; 2-5 are speculative checks.
    let rows: Vec<usize> = std::env::var("QMM_PROBE_ROWS")
        .unwrap_or_else(|_| "1".into())
        .split(',')
        .filter_map(|r| r.trim().parse().ok())
        .filter(|&r| r > 0)
        .collect();
    let inputs = |r: usize| -> Vec<Tensor> {
        shapes
            .iter()
            .map(|&(_, k)| Tensor::from_vec(random(r * k, 17), (r, k), &Device::Cpu).unwrap())
            .collect()
    };
    let xs_by_rows: Vec<(usize, Vec<Tensor>)> = rows.iter().map(|&r| (r, inputs(r))).collect();
    if std::env::var("QMM_PROBE_OUTPUT").map_or(true, |v| v != "0") {
        let (n, k) = (151_936, 896);
        let wf = Tensor::from_vec(random(n * k, 19), (n, k), &Device::Cpu).unwrap();
        let qt = QTensor::quantize(&wf, GgmlDType::Q8_0).unwrap();
        drop(wf);
        let out = QWeights::from_qtensor(&qt).unwrap().unwrap().repacked_r8();
        // Zipped with `xs`, it takes the first input (width 896, as q's).
        model.push(vec![out]);
    }
    let bufs: Vec<&[u8]> = model.iter().flatten().map(|w| w.bytes()).collect();
    let bytes: usize = bufs.iter().map(|b| b.len()).sum();
    println!(
        "probe: {layers} layers of qwen2.5-0.5b's matrices at {dname} (R8) + {} output matrix, {:.1} MB per token, {threads} threads",
        model.len() - layers,
        bytes as f64 / 1e6
    );
    let mut variants: Vec<Variant> = vec![(
        "read once".into(),
        Box::new(|| {
            std::hint::black_box(read_once(&bufs, threads));
        }),
    )];
    for level in levels() {
        for (r, xs) in &xs_by_rows {
            let (model, xs) = (&model, xs);
            variants.push((
                if *r == 1 {
                    format!("{}/r8", level_name(level))
                } else {
                    format!("{}/r8 x{r}", level_name(level))
                },
                Box::new(move || {
                    for layer in model {
                        for (w, x) in layer.iter().zip(xs) {
                            std::hint::black_box(w.forward(x, level).unwrap());
                        }
                    }
                }),
            ));
        }
    }
    let rounds = 5;
    let mut wall = vec![vec![]; variants.len()];
    for _ in 0..rounds {
        for (i, (_, f)) in variants.iter_mut().enumerate() {
            wall[i].push(time(min_s, f.as_mut()).0);
        }
    }
    let probe_s = median(wall[0].clone());
    for ((name, _), w) in variants.iter().zip(wall) {
        let w = median(w);
        println!(
            "probe {name:<10} {:8.3} ms/token {:7.1} tokens/s {:6.1} GB/s  {:5.1}% of the read's bandwidth",
            w * 1e3,
            1.0 / w,
            bytes as f64 / w / 1e9,
            100.0 * probe_s / w
        );
    }
}

fn main() {
    let min_s = env_f64("QMM_MIN_S", 0.3);
    let f = Features::detect();
    println!(
        "levels {:?} (CPU best {:?}), threads {}; {f:?}",
        levels(),
        f.best(),
        candle_core::utils::get_num_threads()
    );
    if std::env::var("QMM_PROBE_ONLY").is_err() {
        kernels(min_s);
    }
    probe(min_s);
}
