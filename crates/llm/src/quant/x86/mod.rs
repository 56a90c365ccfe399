//! x86_64 SIMD kernels, compiled for their target features and called only
//! after a run-time check ([`super::Kernel::supported`]).
//!
//! Integer block dots use unsigned weights times signed activations
//! (`vpmaddubsw` under AVX2, `vpdpbusd` with VNNI): Q4 nibbles are 0..15, Q5
//! values 0..31 with the Q5_0 offset of 16 taken out as `16 * sum(q_x)`
//! (exact in i32), Q6_K values 0..63 with the offset of 32 taken out per
//! sub-block; Q8_0 uses ggml's sign trick under AVX2 (|w| times
//! sign-adjusted x) and `w + 128` with a `128 * sum(q_x)` correction under
//! VNNI. Every block dot is exactly ggml's integer; only the float summation
//! order differs.
//!
//! * [`ggml`]: kernels on ggml's layout (matrices whose rows are not a
//!   multiple of 8);
//! * [`r8`]: kernels on the R8 layout ([`super::r8`]) for the 32-value
//!   formats, [`kq`] for the K-quants; one module per level.

pub mod ggml;
pub mod kq;
pub mod r8;

use core::arch::x86_64::*;

use super::{Acts, Dst, Format, Kernel};

/// [`super::scalar::quantize_block`] with AVX2; bit-identical to it.
///
/// # Safety
/// The CPU supports AVX2; `x` and `q` hold at least 32 values.
#[target_feature(enable = "avx2,fma,f16c")]
pub unsafe fn quantize_block(x: &[f32], q: &mut [i8]) -> (f32, i32) {
    debug_assert!(x.len() >= 32 && q.len() >= 32);
    let p = x.as_ptr();
    let v = [
        _mm256_loadu_ps(p),
        _mm256_loadu_ps(p.add(8)),
        _mm256_loadu_ps(p.add(16)),
        _mm256_loadu_ps(p.add(24)),
    ];
    let sign = _mm256_set1_ps(-0.0);
    let mut mx = _mm256_andnot_ps(sign, v[0]);
    for vi in &v[1..] {
        mx = _mm256_max_ps(mx, _mm256_andnot_ps(sign, *vi));
    }
    let m4 = _mm_max_ps(_mm256_extractf128_ps::<1>(mx), _mm256_castps256_ps128(mx));
    let m4 = _mm_max_ps(m4, _mm_movehl_ps(m4, m4));
    let m4 = _mm_max_ss(m4, _mm_movehdup_ps(m4));
    let amax = _mm_cvtss_f32(m4);
    let d = amax / 127.0;
    let id = if amax != 0.0 { 127.0 / amax } else { 0.0 };
    let mul = _mm256_set1_ps(id);
    let round = |v: __m256| {
        _mm256_cvtps_epi32(_mm256_round_ps::<
            { _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC },
        >(_mm256_mul_ps(v, mul)))
    };
    let (i0, i1, i2, i3) = (round(v[0]), round(v[1]), round(v[2]), round(v[3]));
    let s = _mm256_add_epi32(_mm256_add_epi32(i0, i1), _mm256_add_epi32(i2, i3));
    let s4 = _mm_add_epi32(_mm256_extracti128_si256::<1>(s), _mm256_castsi256_si128(s));
    let s4 = _mm_add_epi32(s4, _mm_unpackhi_epi64(s4, s4));
    let s4 = _mm_add_epi32(s4, _mm_shuffle_epi32::<0b01>(s4));
    let sum = _mm_cvtsi128_si32(s4);
    let a = _mm256_packs_epi32(i0, i1);
    let b = _mm256_packs_epi32(i2, i3);
    let c = _mm256_packs_epi16(a, b);
    // packs work per 128-bit lane; put the 4-byte groups back in order.
    let c = _mm256_permutevar8x32_epi32(c, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
    _mm256_storeu_si256(q.as_mut_ptr() as *mut __m256i, c);
    (d, sum)
}

/// [`super::scalar::quantize_block_k`] with AVX2; bit-identical to it (the
/// scalar one rounds through libm's `rintf`, a call per value in a build
/// without SSE4.1).
///
/// # Safety
/// The CPU supports AVX2; `x` and `q` hold at least 256 values.
#[target_feature(enable = "avx2,fma,f16c")]
pub unsafe fn quantize_block_k(x: &[f32], q: &mut [i8]) -> f32 {
    debug_assert!(x.len() >= 256 && q.len() >= 256);
    let p = x.as_ptr();
    let sign = _mm256_set1_ps(-0.0);
    let mut mx = _mm256_setzero_ps();
    for i in 0..32 {
        // max(|v|, mx) keeps mx where v is NaN, as the scalar comparison skips it.
        mx = _mm256_max_ps(_mm256_andnot_ps(sign, _mm256_loadu_ps(p.add(8 * i))), mx);
    }
    let m4 = _mm_max_ps(_mm256_extractf128_ps::<1>(mx), _mm256_castps256_ps128(mx));
    let m4 = _mm_max_ps(m4, _mm_movehl_ps(m4, m4));
    let amax = _mm_cvtss_f32(_mm_max_ss(m4, _mm_movehdup_ps(m4)));
    if amax == 0.0 {
        q[..256].fill(0);
        return 0.0;
    }
    // The first value of largest magnitude gives the sign, as in the scalar loop.
    let max = x[..256]
        .iter()
        .copied()
        .find(|v| v.abs() == amax)
        .unwrap_or(amax);
    let iscale = -127.0 / max;
    let mul = _mm256_set1_ps(iscale);
    let top = _mm256_set1_epi32(127);
    let order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    for i in 0..8 {
        let round = |j: usize| {
            let v = _mm256_mul_ps(mul, _mm256_loadu_ps(p.add(32 * i + 8 * j)));
            let r = _mm256_round_ps::<{ _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC }>(v);
            _mm256_min_epi32(_mm256_cvtps_epi32(r), top)
        };
        let a = _mm256_packs_epi32(round(0), round(1));
        let b = _mm256_packs_epi32(round(2), round(3));
        // packs work per 128-bit lane; put the 4-byte groups back in order.
        let c = _mm256_permutevar8x32_epi32(_mm256_packs_epi16(a, b), order);
        _mm256_storeu_si256(q.as_mut_ptr().add(32 * i) as *mut __m256i, c);
    }
    1.0 / iscale
}

/// `acc + ` the sums of 4 products `u8 * i8` in each i32 lane (AVX-VNNI
/// `vpdpbusd`). `_mm256_dpbusd_avx_epi32` is stable only since Rust 1.89
/// (our MSRV is 1.85): the same instruction by asm.
///
/// # Safety
/// The CPU supports AVX2 and AVX-VNNI.
#[inline]
#[target_feature(enable = "avx2,avxvnni")]
pub(crate) unsafe fn dpbusd_vex(acc: __m256i, u: __m256i, y: __m256i) -> __m256i {
    let mut acc = acc;
    core::arch::asm!(
        "{{vex}} vpdpbusd {acc}, {u}, {y}",
        acc = inout(ymm_reg) acc,
        u = in(ymm_reg) u,
        y = in(ymm_reg) y,
        options(pure, nomem, nostack, preserves_flags),
    );
    acc
}

/// [`dpbusd_vex`] with AVX-512 VNNI's EVEX encoding on 256-bit registers
/// (AVX-512 VL): CPUs with AVX-512 VNNI but not AVX-VNNI (Ice Lake, Zen 4).
/// By asm: the AVX-512 target features are stable only since Rust 1.89.
///
/// # Safety
/// The CPU supports AVX2, AVX-512 VL and AVX-512 VNNI.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn dpbusd_evex(acc: __m256i, u: __m256i, y: __m256i) -> __m256i {
    let mut acc = acc;
    core::arch::asm!(
        "{{evex}} vpdpbusd {acc}, {u}, {y}",
        acc = inout(ymm_reg) acc,
        u = in(ymm_reg) u,
        y = in(ymm_reg) y,
        options(pure, nomem, nostack, preserves_flags),
    );
    acc
}

// Format ids for const generics.
pub(crate) const Q4_1: u8 = 0;
pub(crate) const Q5_0: u8 = 1;
pub(crate) const Q5_1: u8 = 2;
pub(crate) const Q8_0: u8 = 3;

pub(crate) const fn format_of(f: u8) -> Format {
    match f {
        Q4_1 => Format::Q4_1,
        Q5_0 => Format::Q5_0,
        Q5_1 => Format::Q5_1,
        _ => Format::Q8_0,
    }
}

/// Runs the R8 kernel of `kernel` (a SIMD level) on the groups in `w`.
///
/// # Safety
/// As [`super::scalar::tile`], `w` holds whole R8 groups of `format`
/// matching `acts`, and the CPU runs `kernel`.
pub unsafe fn r8_tile(
    kernel: Kernel,
    format: Format,
    w: &[u8],
    acts: &Acts,
    tokens: std::ops::Range<usize>,
    dst: Dst,
) {
    match (acts, kernel) {
        (Acts::Q8(a), Kernel::AvxVnni) => r8::vnni::tile(format, w, a, tokens, dst),
        (Acts::Q8(a), Kernel::Avx512) => r8::avx512::tile(format, w, a, tokens, dst),
        (Acts::Q8(a), _) => r8::avx2::tile(format, w, a, tokens, dst),
        (Acts::Q8K(a), Kernel::AvxVnni) => kq::vnni::tile(format, w, a, tokens, dst),
        (Acts::Q8K(a), Kernel::Avx512) => kq::avx512::tile(format, w, a, tokens, dst),
        (Acts::Q8K(a), _) => kq::avx2::tile(format, w, a, tokens, dst),
    }
}

/// Runs the ggml-layout kernel of `kernel` (a SIMD level; 32-value formats).
///
/// # Safety
/// As [`r8_tile`], with `w` whole ggml rows.
pub unsafe fn ggml_tile(
    kernel: Kernel,
    format: Format,
    w: &[u8],
    acts: &Acts,
    tokens: std::ops::Range<usize>,
    dst: Dst,
) {
    let Acts::Q8(a) = acts else {
        return;
    };
    match kernel {
        Kernel::AvxVnni => ggml::vnni::tile(format, w, a, tokens, dst),
        _ => ggml::avx2::tile(format, w, a, tokens, dst),
    }
}
