//! Our kernels against candle's `QMatMul` (the reference path) on random
//! weights quantized by candle, and SIMD against scalar, at every level this
//! CPU supports, in both layouts.
//!
//! Tolerances, relative to `scale = sum_j |w_j x_j|` of each output:
//! * Q5_0 / Q8_0 / Q4_K / Q6_K vs candle: 1e-5. Both quantize the
//!   activations the same way (a rounding tie resolved differently is
//!   vanishingly rare with random floats) and compute the same integer block
//!   dots; only the f32 summation order differs.
//! * Q4_1 / Q5_1 vs candle: 2e-3. The Q8_1 block sum `s` is rounded to f16
//!   differently (candle: `f16(sum) * f16(d)`, ggml and us: `f16(d * sum)`),
//!   up to one f16 ulp (2^-10 relative) per block.
//! * SIMD vs scalar: 1e-5 (same quantization, same integers, summation order).
//! * The SIMD levels on the R8 layout: bit for bit (same integers, same float
//!   operations in the same order).

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

const DTYPES: [GgmlDType; 6] = [
    GgmlDType::Q4_1,
    GgmlDType::Q5_0,
    GgmlDType::Q5_1,
    GgmlDType::Q8_0,
    GgmlDType::Q4K,
    GgmlDType::Q6K,
];

/// Every level this CPU runs (whatever `CONTINUITY_CPU` says).
fn kernels() -> Vec<Kernel> {
    crate::cpu::LEVELS
        .into_iter()
        .filter(|k| k.supported())
        .collect()
}

fn simd_kernels() -> Vec<Kernel> {
    kernels()
        .into_iter()
        .filter(|&k| k != Kernel::Scalar)
        .collect()
}

fn is_k(dtype: GgmlDType) -> bool {
    matches!(dtype, GgmlDType::Q4K | GgmlDType::Q6K)
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
        if i < Format::from_ggml(dtype).unwrap().block_values() {
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

fn ours_r8(c: &Case, kernel: Kernel) -> Vec<f32> {
    let qw = QWeights::from_qtensor(&c.w).unwrap().unwrap().repacked_r8();
    assert_eq!(qw.layout(), Layout::R8);
    let mut out = vec![f32::NAN; c.m * c.n];
    qw.matmul_f32(&c.x, c.m, &mut out, kernel).unwrap();
    out
}

fn candle(c: &Case) -> Vec<f32> {
    let xt = Tensor::from_vec(c.x.clone(), (c.m, c.k), &Device::Cpu).unwrap();
    let mm = QMatMul::from_arc(c.w.clone()).unwrap();
    mm.forward(&xt)
        .unwrap()
        .flatten_all()
        .unwrap()
        .to_vec1::<f32>()
        .unwrap()
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

/// Shapes `(n, k, m)` for `dtype`: k a multiple of its block; for the
/// 32-value formats k not a multiple of 256, so that candle takes its
/// ggml-like path for Q8_0 (its repacked AVX-512 path quantizes activations
/// per 256 values instead) and an even block count (candle's Q4_1 dot).
fn shapes(dtype: GgmlDType) -> Vec<(usize, usize, usize)> {
    if is_k(dtype) {
        vec![
            (8, 256, 1),
            (16, 512, 7),
            (24, 768, 4),
            (40, 256, 9),
            (64, 1024, 3),
        ]
    } else {
        vec![
            (37, 64, 1),
            (16, 320, 7),
            (41, 128, 4),
            (9, 64, 3),
            (24, 192, 5),
        ]
    }
}

#[test]
fn matches_candle_qmatmul() {
    for (i, &dtype) in DTYPES.iter().enumerate() {
        for (n, k, m) in shapes(dtype) {
            let c = case(dtype, n, k, m, 1 + i as u64 * 7 + n as u64);
            let want = candle(&c);
            let rel = if Format::from_ggml(dtype).unwrap().has_min() {
                2e-3
            } else {
                1e-5
            };
            for kernel in kernels() {
                let what = format!("{dtype:?} {kernel:?} ({n}x{k}, {m} tokens) vs candle");
                assert_close(&c, &ours(&c, kernel), &want, rel, &what);
                if n % r8::GROUP == 0 {
                    assert_close(&c, &ours_r8(&c, kernel), &want, rel, &format!("R8 {what}"));
                }
            }
        }
    }
}

#[test]
fn simd_matches_scalar() {
    // Odd shapes: rows not a multiple of the tiles (ggml layout) or several
    // parallel chunks and a last lone group (R8), odd block counts, token
    // counts around the tile of 4 and the token block of 64, and enough work
    // to run in parallel.
    for (i, &dtype) in DTYPES.iter().enumerate() {
        let shapes: &[(usize, usize, usize)] = if is_k(dtype) {
            &[
                (8, 256, 2),
                (24, 768, 5),
                (40, 1280, 6),
                (264, 512, 9),
                (16, 256, 67),
            ]
        } else {
            &[
                (1, 32, 1),
                (5, 96, 2),
                (19, 160, 7),
                (67, 288, 5),
                (130, 512, 9),
                (264, 512, 6),
                (24, 96, 70),
            ]
        };
        for &(n, k, m) in shapes {
            let c = case(dtype, n, k, m, 100 + i as u64 + k as u64);
            let want = ours(&c, Kernel::Scalar);
            for kernel in simd_kernels() {
                let what = format!("{dtype:?} {kernel:?} ({n}x{k}, {m} tokens) vs scalar");
                if !is_k(dtype) {
                    assert_close(&c, &ours(&c, kernel), &want, 1e-5, &what);
                }
                if n % r8::GROUP == 0 {
                    assert_close(&c, &ours_r8(&c, kernel), &want, 1e-5, &format!("R8 {what}"));
                }
            }
        }
    }
}

#[test]
fn simd_levels_agree_bit_for_bit_on_r8() {
    for (i, &dtype) in DTYPES.iter().enumerate() {
        let (n, k, m) = if is_k(dtype) {
            (48, 768, 6)
        } else {
            // A full pass of the AVX2 half-block kernel and a remainder.
            (48, 480, 13)
        };
        let c = case(dtype, n, k, m, 700 + i as u64);
        let levels = simd_kernels();
        let Some(&first) = levels.first() else {
            return;
        };
        let want = ours_r8(&c, first);
        for &kernel in &levels[1..] {
            assert_eq!(
                ours_r8(&c, kernel),
                want,
                "{dtype:?} {kernel:?} vs {first:?}"
            );
        }
    }
}

#[test]
fn each_row_is_the_same_whatever_the_number_of_rows() {
    // Speculative checks rely on it: row t of an m-row matmul is bit-identical
    // to a one-row matmul of row t.
    for (i, &dtype) in DTYPES.iter().enumerate() {
        let k = if is_k(dtype) { 512 } else { 128 };
        let c = case(dtype, 16, k, 9, 900 + i as u64);
        for kernel in kernels() {
            for r8 in [false, true] {
                if is_k(dtype) && !r8 && kernel != Kernel::Scalar {
                    continue;
                }
                let mut qw = QWeights::from_qtensor(&c.w).unwrap().unwrap();
                if r8 {
                    qw = qw.repacked_r8();
                }
                let mut all = vec![0f32; c.m * c.n];
                qw.matmul_f32(&c.x, c.m, &mut all, kernel).unwrap();
                for t in 0..c.m {
                    let mut one = vec![0f32; c.n];
                    qw.matmul_f32(&c.x[t * k..(t + 1) * k], 1, &mut one, kernel)
                        .unwrap();
                    assert_eq!(
                        &all[t * c.n..(t + 1) * c.n],
                        &one[..],
                        "{dtype:?} {kernel:?} R8 {r8} row {t}"
                    );
                }
            }
        }
    }
}

#[test]
fn r8_repacking_is_lossless() {
    for (i, &dtype) in DTYPES.iter().enumerate() {
        let k = if is_k(dtype) { 512 } else { 96 };
        let c = case(dtype, 24, k, 1, 300 + i as u64);
        let qw = QWeights::from_qtensor(&c.w).unwrap().unwrap();
        let format = qw.format();
        let packed = r8::repack(format, 24, k, qw.bytes());
        let want_len = 3 * (k / format.block_values()) * r8::group_block_bytes(format);
        assert_eq!(packed.len(), want_len, "{dtype:?}");
        assert_ne!(
            packed[..qw.bytes().len().min(packed.len())],
            qw.bytes()[..qw.bytes().len().min(packed.len())],
            "{dtype:?}: the layout changes"
        );
        assert_eq!(r8::unpack(format, k, &packed), qw.bytes(), "{dtype:?}");
    }
}

#[test]
fn r8_rows_start_where_the_kernels_expect() {
    // A matmul over rows 8..24 of a repacked matrix equals rows 8..24 of the
    // full result: row ranges address whole groups.
    for &dtype in &DTYPES {
        let k = if is_k(dtype) { 256 } else { 64 };
        let c = case(dtype, 32, k, 2, 40);
        let qw = QWeights::from_qtensor(&c.w).unwrap().unwrap().repacked_r8();
        let full = ours_r8(&c, Kernel::Scalar);
        let part = qw.rows(8, 24);
        let ggml = r8::unpack(qw.format(), k, part);
        let sub = QWeights::from_bytes(qw.format(), 16, k, ggml).unwrap();
        let mut out = vec![0f32; 2 * 16];
        sub.matmul_f32(&c.x, 2, &mut out, Kernel::Scalar).unwrap();
        for t in 0..2 {
            assert_eq!(
                &out[t * 16..(t + 1) * 16],
                &full[t * 32 + 8..t * 32 + 24],
                "{dtype:?}"
            );
        }
    }
}

#[test]
fn a_mapped_matrix_must_fit_its_shape_layout_and_map() {
    use std::io::Write;
    let c = case(GgmlDType::Q5_0, 16, 64, 1, 5);
    let ggml = QWeights::from_qtensor(&c.w).unwrap().unwrap();
    let r8 = ggml.clone().repacked_r8();
    // One map holding both layouts back to back, after 64 bytes of padding.
    let mut f = tempfile::tempfile().unwrap();
    f.write_all(&[0u8; 64]).unwrap();
    f.write_all(ggml.bytes()).unwrap();
    f.write_all(r8.bytes()).unwrap();
    // SAFETY: the file is this test's own and is not changed while mapped.
    let map = std::sync::Arc::new(unsafe { memmap2::Mmap::map(&f) }.unwrap());
    let (g_len, r_len) = (ggml.bytes().len(), r8.bytes().len());
    let map_at = |layout, dims, at: usize, len| {
        QWeights::mapped(Format::Q5_0, layout, dims, map.clone(), (at, len))
    };
    let w = map_at(Layout::Ggml, (16, 64), 64, g_len).unwrap();
    assert!(w.is_mapped());
    assert_eq!((w.layout(), w.bytes()), (Layout::Ggml, ggml.bytes()));
    let w = map_at(Layout::R8, (16, 64), 64 + g_len, r_len).unwrap();
    assert_eq!((w.layout(), w.bytes()), (Layout::R8, r8.bytes()));
    // Too short, the wrong shape, R8 rows not a multiple of 8, past the end.
    assert!(map_at(Layout::Ggml, (16, 64), 64, g_len - 1).is_err());
    assert!(map_at(Layout::Ggml, (8, 64), 64, g_len).is_err());
    assert!(map_at(Layout::R8, (16, 48), 64 + g_len, r_len).is_err());
    assert!(map_at(Layout::R8, (12, 64), 64, 12 * 2 * 22).is_err());
    assert!(map_at(Layout::R8, (16, 64), 64 + g_len + 1, r_len).is_err());
    assert!(map_at(Layout::Ggml, (16, 64), usize::MAX, g_len).is_err());
}

#[test]
fn loading_for_this_cpu_repacks_when_it_can() {
    let c = case(GgmlDType::Q5_0, 16, 64, 1, 8);
    let direct = QWeights::from_qtensor_for_this_cpu(&c.w).unwrap().unwrap();
    let via = QWeights::from_qtensor(&c.w)
        .unwrap()
        .unwrap()
        .for_this_cpu();
    assert_eq!(
        (direct.layout(), direct.bytes()),
        (via.layout(), via.bytes())
    );
    let simd = Kernel::best() != Kernel::Scalar;
    assert_eq!(direct.layout() == Layout::R8, simd);
    // Row counts that are not a multiple of 8 keep the ggml layout.
    let c = case(GgmlDType::Q8_0, 12, 64, 1, 7);
    let qw = QWeights::from_qtensor(&c.w).unwrap().unwrap().repacked_r8();
    assert_eq!(qw.layout(), Layout::Ggml);
    // K-quants with such rows are left to candle on SIMD levels.
    let c = case(GgmlDType::Q6K, 12, 256, 1, 7);
    assert_eq!(
        QWeights::from_qtensor_for_this_cpu(&c.w).unwrap().is_none(),
        simd
    );
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
fn q8k_activation_quantization_is_the_same_on_every_kernel() {
    let mut rng = Rng(17);
    let mut x = rng.vec(256 * 6);
    // An all-zero super-block, a tiny one, and ties of magnitude with both
    // signs (the first one sets the scale's sign).
    x[..256].iter_mut().for_each(|v| *v = 0.0);
    x[256..512].iter_mut().for_each(|v| *v *= 1e-30);
    x[600] = 3.0;
    x[700] = -3.0;
    x[1000] = -2.0;
    x[1001] = 2.0;
    // Values halfway between two quants (round half to even).
    x[1280] = 127.0;
    for (i, v) in x[1281..1536].iter_mut().enumerate() {
        *v = i as f32 * 0.5 - 60.0;
    }
    let want = QActsK::quantize(&x, 2, 768, Kernel::Scalar);
    for kernel in kernels() {
        let got = QActsK::quantize(&x, 2, 768, kernel);
        assert_eq!(got.qs, want.qs, "{kernel:?}");
        assert_eq!(got.d, want.d, "{kernel:?}");
        assert_eq!(got.bsums, want.bsums, "{kernel:?}");
        assert_eq!(got.sums32, want.sums32, "{kernel:?}");
    }
}

#[test]
fn q8k_activations_are_ggml_s() {
    let mut rng = Rng(5);
    let mut x = rng.vec(3 * 256);
    x[..256].iter_mut().for_each(|v| *v = 0.0);
    // The largest magnitude of super-block 1 maps to -127 whatever its
    // sign (ggml's `iscale = -127 / max`); here `d` comes out positive.
    x[300] = -5.0;
    let a = QActsK::quantize(&x, 1, 768, Kernel::Scalar);
    assert_eq!((a.m, a.nb), (1, 3));
    assert_eq!(a.d[0], 0.0);
    assert!(a.qs[..256].iter().all(|&q| q == 0));
    assert_eq!(a.qs[300], -127);
    assert!((a.d[1] - 5.0 / 127.0).abs() < 1e-7);
    for b in 0..3 {
        for j in 0..16 {
            let s: i16 = a.qs[256 * b + 16 * j..256 * b + 16 * j + 16]
                .iter()
                .map(|&q| q as i16)
                .sum();
            assert_eq!(a.bsums[16 * b + j], s);
        }
        for j in 0..8 {
            assert_eq!(
                a.sums32[8 * b + j],
                a.bsums[16 * b + 2 * j] + a.bsums[16 * b + 2 * j + 1]
            );
        }
        for (q, v) in a.qs[256 * b..256 * (b + 1)].iter().zip(&x[256 * b..]) {
            assert!((*q as f32 * a.d[b] - v).abs() <= a.d[b].abs() * 0.5 + 1e-7);
        }
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
    // Activations quantized for another family are refused.
    let acts = Acts::quantize(Format::Q4K, &[0.0; 256], 1, 256, Kernel::Scalar);
    let q = QWeights::from_bytes(Format::Q8_0, 1, 256, vec![0; 8 * 34]).unwrap();
    assert!(q.matmul_acts(&acts, &mut [0.0], Kernel::Scalar).is_err());
    // Types without our kernels stay with candle.
    let f = Tensor::zeros((8, 256), candle_core::DType::F32, &Device::Cpu).unwrap();
    let q5k = QTensor::quantize(&f, GgmlDType::Q5K).unwrap();
    assert!(QWeights::from_qtensor(&q5k).unwrap().is_none());
}
