//! Our kernels against candle's `QMatMul` (the reference path) on random
//! weights quantized by candle, and SIMD against scalar.
//!
//! Tolerances, relative to `scale = sum_j |w_j x_j|` of each output:
//! * Q5_0 / Q8_0 vs candle: 1e-5. Both quantize the activations the same way
//!   (a rounding tie resolved differently is vanishingly rare with random
//!   floats) and compute the same integer block dots; only the f32 summation
//!   order differs.
//! * Q4_1 / Q5_1 vs candle: 2e-3. The Q8_1 block sum `s` is rounded to f16
//!   differently (candle: `f16(sum) * f16(d)`, ggml and us: `f16(d * sum)`),
//!   up to one f16 ulp (2^-10 relative) per block.
//! * SIMD vs scalar: 1e-5 (same quantization, same integers, summation order).

use candle_core::quantized::{GgmlDType, QMatMul, QTensor};
use candle_core::{Device, Module, Tensor};

use super::*;

/// A xorshift generator: uniform values in [-1, 1), reproducible by seed.
pub(crate) struct Rng(pub(crate) u64);
impl Rng {
    pub(crate) fn f32(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        ((self.0 >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
    }
    pub(crate) fn vec(&mut self, n: usize) -> Vec<f32> {
        (0..n).map(|_| self.f32()).collect()
    }
}

const DTYPES: [GgmlDType; 4] = [
    GgmlDType::Q4_1,
    GgmlDType::Q5_0,
    GgmlDType::Q5_1,
    GgmlDType::Q8_0,
];

fn kernels() -> Vec<Kernel> {
    [Kernel::Scalar, Kernel::Avx2, Kernel::AvxVnni]
        .into_iter()
        .filter(|k| k.supported())
        .collect()
}

struct Case {
    w: std::sync::Arc<QTensor>,
    wdq: Vec<f32>,
    x: Vec<f32>,
    n: usize,
    k: usize,
    m: usize,
}

fn case(dtype: GgmlDType, n: usize, k: usize, m: usize, seed: u64) -> Case {
    let mut rng = Rng(seed);
    let wf = Tensor::from_vec(rng.vec(n * k), (n, k), &Device::Cpu).unwrap();
    let w = std::sync::Arc::new(QTensor::quantize(&wf, dtype).unwrap());
    let wdq = w
        .dequantize(&Device::Cpu)
        .unwrap()
        .flatten_all()
        .unwrap()
        .to_vec1::<f32>()
        .unwrap();
    // Some rows scaled up and one all zero, to vary the block scales.
    let mut x = rng.vec(m * k);
    for (i, v) in x.iter_mut().enumerate() {
        if (i / k) % 3 == 1 {
            *v *= 40.0;
        }
        if i < QK {
            *v = 0.0;
        }
    }
    Case { w, wdq, x, n, k, m }
}

fn scale(c: &Case, t: usize, r: usize) -> f32 {
    let (x, w) = (&c.x[t * c.k..(t + 1) * c.k], &c.wdq[r * c.k..(r + 1) * c.k]);
    x.iter().zip(w).map(|(a, b)| (a * b).abs()).sum::<f32>() + 1e-6
}

fn ours(c: &Case, kernel: Kernel) -> Vec<f32> {
    let qw = QWeights::from_qtensor(&c.w).unwrap().unwrap();
    let mut out = vec![f32::NAN; c.m * c.n];
    qw.matmul_f32(&c.x, c.m, &mut out, kernel).unwrap();
    out
}

fn assert_close(c: &Case, got: &[f32], want: &[f32], rel: f32, what: &str) {
    for t in 0..c.m {
        for r in 0..c.n {
            let (g, w) = (got[t * c.n + r], want[t * c.n + r]);
            let tol = rel * scale(c, t, r);
            assert!(
                (g - w).abs() <= tol,
                "{what}: token {t} row {r}: {g} vs {w} (tol {tol})"
            );
        }
    }
}

#[test]
fn matches_candle_qmatmul() {
    // Candle's Q4_1 dot wants an even number of blocks per row; k is not a
    // multiple of 256 so that candle takes its ggml-like path for Q8_0 (its
    // repacked AVX-512 path quantizes activations per 256 values instead).
    for (n, k, m) in [(37, 64, 1), (16, 320, 7), (41, 128, 4), (9, 64, 3)] {
        for (i, &dtype) in DTYPES.iter().enumerate() {
            let c = case(dtype, n, k, m, 1 + i as u64 * 7 + n as u64);
            let xt = Tensor::from_vec(c.x.clone(), (m, k), &Device::Cpu).unwrap();
            let mm = QMatMul::from_arc(c.w.clone()).unwrap();
            let want = mm
                .forward(&xt)
                .unwrap()
                .flatten_all()
                .unwrap()
                .to_vec1::<f32>()
                .unwrap();
            let rel = if Format::from_ggml(dtype).unwrap().has_min() {
                2e-3
            } else {
                1e-5
            };
            for kernel in kernels() {
                let what = format!("{dtype:?} {kernel:?} ({n}x{k}, {m} tokens) vs candle");
                assert_close(&c, &ours(&c, kernel), &want, rel, &what);
            }
        }
    }
}

#[test]
fn simd_matches_scalar() {
    // Odd shapes: rows not a multiple of the tiles, odd block counts, token
    // counts around the tile size, and enough work to run in parallel.
    for (n, k, m) in [
        (1, 32, 1),
        (5, 96, 2),
        (19, 160, 7),
        (67, 288, 5),
        (130, 512, 9),
    ] {
        for (i, &dtype) in DTYPES.iter().enumerate() {
            let c = case(dtype, n, k, m, 100 + i as u64 + k as u64);
            let want = ours(&c, Kernel::Scalar);
            for kernel in kernels() {
                let what = format!("{dtype:?} {kernel:?} ({n}x{k}, {m} tokens) vs scalar");
                assert_close(&c, &ours(&c, kernel), &want, 1e-5, &what);
            }
        }
    }
}

#[test]
fn r8_repacking_is_lossless() {
    for (i, &dtype) in DTYPES.iter().enumerate() {
        let c = case(dtype, 24, 96, 1, 300 + i as u64);
        let qw = QWeights::from_qtensor(&c.w).unwrap().unwrap();
        let format = qw.format();
        let packed = r8::repack(format, 24, 96, &qw.data);
        assert_eq!(packed.len(), qw.data.len(), "{dtype:?}: same size");
        assert_ne!(packed, qw.data, "{dtype:?}: the layout changes");
        assert_eq!(r8::unpack(format, 96, &packed), qw.data, "{dtype:?}");
    }
}

#[test]
fn r8_kernels_match_scalar_on_the_ggml_layout() {
    // Rows in several parallel chunks (16 rows each) and a last lone group,
    // token counts around the prefill tile of 4, odd block counts.
    for (n, k, m) in [
        (8, 32, 1),
        (24, 96, 3),
        (40, 160, 4),
        (8, 64, 9),
        (264, 512, 6),
    ] {
        for (i, &dtype) in DTYPES.iter().enumerate() {
            let c = case(dtype, n, k, m, 500 + i as u64 + n as u64);
            let want = ours(&c, Kernel::Scalar);
            let qw = QWeights::from_qtensor(&c.w).unwrap().unwrap().repacked_r8();
            assert_eq!(qw.layout(), Layout::R8);
            for kernel in kernels() {
                let mut got = vec![f32::NAN; m * n];
                qw.matmul_f32(&c.x, m, &mut got, kernel).unwrap();
                let what = format!("{dtype:?} R8 {kernel:?} ({n}x{k}, {m} tokens) vs scalar");
                assert_close(&c, &got, &want, 1e-5, &what);
            }
        }
    }
    // Loading for this CPU repacks straight from the tensor when it can.
    let c = case(GgmlDType::Q5_0, 16, 64, 1, 8);
    let direct = QWeights::from_qtensor_for_this_cpu(&c.w).unwrap().unwrap();
    let via = QWeights::from_qtensor(&c.w)
        .unwrap()
        .unwrap()
        .for_this_cpu();
    assert_eq!((direct.layout(), &direct.data), (via.layout(), &via.data));
    // Row counts that are not a multiple of 8 keep the ggml layout.
    let c = case(GgmlDType::Q8_0, 12, 64, 1, 7);
    let qw = QWeights::from_qtensor(&c.w).unwrap().unwrap().repacked_r8();
    assert_eq!(qw.layout(), Layout::Ggml);
}

#[test]
fn activation_quantization_is_the_same_on_every_kernel() {
    let mut rng = Rng(99);
    let mut x = rng.vec(32 * 64);
    x[..32].iter_mut().for_each(|v| *v = 0.0);
    x[40] = 1e-30;
    let want = QActs::quantize(&x, 4, 512, Kernel::Scalar);
    for kernel in kernels() {
        let got = QActs::quantize(&x, 4, 512, kernel);
        assert_eq!(got.qs, want.qs, "{kernel:?}");
        assert_eq!(got.d, want.d, "{kernel:?}");
        assert_eq!(got.s, want.s, "{kernel:?}");
        assert_eq!(got.isum, want.isum, "{kernel:?}");
    }
}

#[test]
fn forward_keeps_leading_dims_and_rejects_bad_k() {
    let c = case(GgmlDType::Q8_0, 8, 64, 6, 5);
    let qw = QWeights::from_qtensor(&c.w).unwrap().unwrap();
    let x = Tensor::from_vec(c.x.clone(), (2, 3, 64), &Device::Cpu).unwrap();
    let y = qw.forward(&x, Kernel::best()).unwrap();
    assert_eq!(y.dims(), &[2, 3, 8]);
    let bad = Tensor::zeros((2, 32), candle_core::DType::F32, &Device::Cpu).unwrap();
    assert!(qw.forward(&bad, Kernel::best()).is_err());
    // Types without our kernels stay with candle.
    let f = Tensor::zeros((8, 256), candle_core::DType::F32, &Device::Cpu).unwrap();
    let q4k = QTensor::quantize(&f, GgmlDType::Q4K).unwrap();
    assert!(QWeights::from_qtensor(&q4k).unwrap().is_none());
}
