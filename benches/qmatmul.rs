//! candle's `QMatMul` against our quantized matmul (`llm::quant`), side by
//! side in one run, at qwen2.5-0.5b's shapes: decode (1 token) and prefill
//! (512 tokens). Rounds alternate the two so machine load hits both alike;
//! reported per op: the median wall time and the process CPU time (all
//! threads, so spin-waiting counts), and candle/ours ratios.
//!
//!     RAYON_NUM_THREADS=2 cargo bench --bench qmatmul
//!     QMM_DTYPES=q5_0 QMM_TOKENS=1 cargo bench --bench qmatmul   # a subset

#![allow(clippy::unwrap_used)]

use std::time::Instant;

use candle_core::quantized::{GgmlDType, QMatMul, QTensor};
use candle_core::{Device, Module, Tensor};
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

fn main() {
    let pick = |var: &str, name: &str| {
        std::env::var(var)
            .ok()
            .is_none_or(|v| v.split(',').any(|x| x.eq_ignore_ascii_case(name)))
    };
    let min_s: f64 = std::env::var("QMM_MIN_S")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0.3);
    let rounds = 3;
    println!(
        "kernel {:?}, threads {}; per op: wall ms / cpu ms, candle vs ours",
        Kernel::best(),
        candle_core::utils::get_num_threads()
    );
    let dtypes = [
        ("q4_1", GgmlDType::Q4_1),
        ("q5_0", GgmlDType::Q5_0),
        ("q5_1", GgmlDType::Q5_1),
        ("q8_0", GgmlDType::Q8_0),
    ];
    // (n, k): ffn up/gate, ffn down, attention q/o.
    let shapes = [(4864, 896), (896, 4864), (896, 896)];
    for (dname, dtype) in dtypes {
        if !pick("QMM_DTYPES", dname) {
            continue;
        }
        for (n, k) in shapes {
            let wf = Tensor::from_vec(random(n * k, 7), (n, k), &Device::Cpu).unwrap();
            let qt = QTensor::quantize(&wf, dtype).unwrap();
            let ours = QWeights::from_qtensor(&qt).unwrap().unwrap();
            let candle = QMatMul::from_qtensor(qt).unwrap();
            for m in [1usize, 512] {
                if !pick("QMM_TOKENS", &m.to_string()) {
                    continue;
                }
                let x = Tensor::from_vec(random(m * k, 11), (m, k), &Device::Cpu).unwrap();
                let kernel = Kernel::best();
                let (mut cw, mut cc, mut ow, mut oc) = (vec![], vec![], vec![], vec![]);
                for _ in 0..rounds {
                    let (w, c) = time(min_s, &mut || {
                        std::hint::black_box(candle.forward(&x).unwrap());
                    });
                    cw.push(w);
                    cc.push(c);
                    let (w, c) = time(min_s, &mut || {
                        std::hint::black_box(ours.forward(&x, kernel).unwrap());
                    });
                    ow.push(w);
                    oc.push(c);
                }
                let (cw, cc, ow, oc) = (median(cw), median(cc), median(ow), median(oc));
                println!(
                    "{dname} n={n:<5} k={k:<5} m={m:<4} candle {:8.3} / {:8.3}  ours {:8.3} / {:8.3}  ratio wall {:5.1}x cpu {:5.1}x",
                    cw * 1e3,
                    cc * 1e3,
                    ow * 1e3,
                    oc * 1e3,
                    cw / ow,
                    cc / oc.max(1e-9)
                );
            }
        }
    }
}
