//! Kernels on the R8 layout ([`super::super::r8`]) for the 32-value
//! formats, one module per level. Per group of 8 weight rows, each weight
//! block is unpacked to bytes once and serves a pass of activation rows:
//! for every value group `j`, the products of `w_j` (8 rows x 4 values)
//! with the row's 4 values `x[4j..4j+4]` broadcast, so the 8 lanes are the
//! 8 rows' block dots.
//!
//! * Q4_1, Q5_0, Q5_1: half a block (4 value groups, 4 registers) is
//!   unpacked at a time and [`HALF_TOKENS`] activation rows run over it, so
//!   the unpack is paid once per 8 rows and their 8 block dots stay in
//!   registers. Under AVX2 `vpmaddubsw` sums pairs of products in i16 and
//!   the half block's 4 value groups are added in i16 before one
//!   `vpmaddwd` widens them: exact, because `|x| <= 127` bounds a Q5 pair
//!   by 7,874 (4 groups: 31,496). VNNI levels sum 4 products per lane in
//!   i32 with `vpdpbusd`.
//! * Q8_0: the whole block (8 registers) for [`TOKENS`] rows. AVX2 uses
//!   ggml's sign trick (`|w|` times `x` with `w`'s sign) and widens every
//!   group; VNNI levels run `w + 128` (unsigned) with `128 * sum(x)` taken
//!   out.
//!
//! Every level computes the same integer block dot and the same float
//! operations in the same order, so all three give bit-identical outputs.

/// Activation rows per pass (Q8_0).
pub const TOKENS: usize = 4;
/// Activation rows per pass of the half-block kernels (Q4_1, Q5_0, Q5_1).
pub const HALF_TOKENS: usize = 8;

const MADDUBS: u8 = 0;
const VEX: u8 = 1;
const EVEX: u8 = 2;

macro_rules! r8_kernels {
    ($name:ident, $feat:literal, $dot:ident) => {
        pub mod $name {
            use core::arch::x86_64::*;

            use super::super::super::r8::{group_block_bytes, offsets, GROUP};
            use super::super::super::{Dst, Format, QActs, QK};
            use super::super::{dpbusd_evex, dpbusd_vex, format_of, Q4_1, Q5_0, Q5_1, Q8_0};
            use super::{HALF_TOKENS, MADDUBS, TOKENS, VEX};

            const DOT: u8 = super::$dot;

            /// `acc + ` the 4-product sums (VNNI levels).
            #[inline]
            #[target_feature(enable = $feat)]
            unsafe fn dp(acc: __m256i, u: __m256i, y: __m256i) -> __m256i {
                if DOT == VEX {
                    dpbusd_vex(acc, u, y)
                } else {
                    dpbusd_evex(acc, u, y)
                }
            }

            /// The 8 value groups of a Q8_0 group block: signed (AVX2) or
            /// plus 128 (VNNI).
            #[inline]
            #[target_feature(enable = $feat)]
            unsafe fn unpack_q8(p: *const u8) -> [__m256i; 8] {
                let (_, _, qs_off) = offsets(Format::Q8_0);
                let qs = p.add(qs_off);
                let mut w = [_mm256_setzero_si256(); 8];
                for (j, wj) in w.iter_mut().enumerate() {
                    let v = _mm256_loadu_si256(qs.add(32 * j) as *const __m256i);
                    *wj = if DOT == MADDUBS {
                        v
                    } else {
                        _mm256_xor_si256(v, _mm256_set1_epi8(-128))
                    };
                }
                w
            }

            /// Value groups `4H .. 4H + 4` of one group block (Q4, Q5):
            /// unsigned values.
            #[inline]
            #[target_feature(enable = $feat)]
            unsafe fn unpack_half<const F: u8, const H: usize>(p: *const u8) -> [__m256i; 4] {
                let (_, qh_off, qs_off) = offsets(format_of(F));
                let qs = p.add(qs_off + 64 * H);
                let low = _mm256_set1_epi8(0x0F);
                let v0 = _mm256_loadu_si256(qs as *const __m256i);
                let v1 = _mm256_loadu_si256(qs.add(32) as *const __m256i);
                let mut w = [
                    _mm256_and_si256(v0, low),
                    _mm256_and_si256(_mm256_srli_epi16::<4>(v0), low),
                    _mm256_and_si256(v1, low),
                    _mm256_and_si256(_mm256_srli_epi16::<4>(v1), low),
                ];
                if F == Q5_0 || F == Q5_1 {
                    // As in `unpack`: value group j's fifth bit to bit 4.
                    let h = _mm256_loadu_si256(p.add(qh_off) as *const __m256i);
                    let hb = if H == 0 {
                        [
                            _mm256_slli_epi16::<4>(h),
                            _mm256_slli_epi16::<3>(h),
                            _mm256_slli_epi16::<2>(h),
                            _mm256_slli_epi16::<1>(h),
                        ]
                    } else {
                        [
                            h,
                            _mm256_srli_epi16::<1>(h),
                            _mm256_srli_epi16::<2>(h),
                            _mm256_srli_epi16::<3>(h),
                        ]
                    };
                    let bit = _mm256_set1_epi8(0x10);
                    for (wj, hj) in w.iter_mut().zip(hb) {
                        *wj = _mm256_or_si256(*wj, _mm256_and_si256(hj, bit));
                    }
                }
                w
            }

            /// The 8 rows' integer dots of half a block with the 16
            /// activation values at `x`.
            #[inline]
            #[target_feature(enable = $feat)]
            unsafe fn half_dot(w: &[__m256i; 4], x: *const i32) -> __m256i {
                let xb = |j: usize| _mm256_set1_epi32(x.add(j).read_unaligned());
                if DOT != MADDUBS {
                    let mut d = dp(_mm256_setzero_si256(), w[0], xb(0));
                    for (j, wj) in w.iter().enumerate().skip(1) {
                        d = dp(d, *wj, xb(j));
                    }
                    return d;
                }
                let mut s = _mm256_maddubs_epi16(w[0], xb(0));
                for (j, wj) in w.iter().enumerate().skip(1) {
                    s = _mm256_add_epi16(s, _mm256_maddubs_epi16(*wj, xb(j)));
                }
                _mm256_madd_epi16(s, _mm256_set1_epi16(1))
            }

            /// Whether format `F` runs half a block at a time (Q4, Q5),
            /// [`HALF_TOKENS`] rows per pass.
            const fn by_halves(f: u8) -> bool {
                f != Q8_0
            }

            /// The 8 rows' integer block dots of group block `p` with
            /// activation block `b` of rows `t0 .. t0 + C`.
            #[inline]
            #[target_feature(enable = $feat)]
            unsafe fn block_dots<const F: u8, const C: usize>(
                p: *const u8,
                acts: &QActs,
                t0: usize,
                b: usize,
            ) -> [__m256i; C] {
                let x =
                    |c: usize| acts.qs.as_ptr().add(((t0 + c) * acts.nb + b) * QK) as *const i32;
                let mut dot = [_mm256_setzero_si256(); C];
                if by_halves(F) {
                    let w = unpack_half::<F, 0>(p);
                    for (c, d) in dot.iter_mut().enumerate() {
                        *d = half_dot(&w, x(c));
                    }
                    let w = unpack_half::<F, 1>(p);
                    for (c, d) in dot.iter_mut().enumerate() {
                        *d = _mm256_add_epi32(*d, half_dot(&w, x(c).add(4)));
                    }
                    return dot;
                }
                let w = unpack_q8(p);
                let wa = if DOT == MADDUBS {
                    w.map(|v| _mm256_sign_epi8(v, v))
                } else {
                    w
                };
                for (c, d) in dot.iter_mut().enumerate() {
                    *d = block_dot_q8(&w, &wa, x(c));
                }
                dot
            }

            /// The 8 rows' integer Q8_0 block dots with one activation
            /// block `x` (`wa`: `|w|` under AVX2).
            #[inline]
            #[target_feature(enable = $feat)]
            unsafe fn block_dot_q8(w: &[__m256i; 8], wa: &[__m256i; 8], x: *const i32) -> __m256i {
                let xb = |j: usize| _mm256_set1_epi32(x.add(j).read_unaligned());
                let ones = _mm256_set1_epi16(1);
                if DOT != MADDUBS {
                    let (mut d0, mut d1) = (_mm256_setzero_si256(), _mm256_setzero_si256());
                    for j in (0..8).step_by(2) {
                        d0 = dp(d0, w[j], xb(j));
                        d1 = dp(d1, w[j + 1], xb(j + 1));
                    }
                    return _mm256_add_epi32(d0, d1);
                }
                let mut d = _mm256_setzero_si256();
                for j in 0..8 {
                    let p = _mm256_maddubs_epi16(wa[j], _mm256_sign_epi8(xb(j), w[j]));
                    d = _mm256_add_epi32(d, _mm256_madd_epi16(p, ones));
                }
                d
            }

            /// One group of 8 rows (at `g`) x `C` activation rows from `t0`;
            /// writes outputs `(t0 + c, col .. col + 8)`.
            #[inline]
            #[target_feature(enable = $feat)]
            unsafe fn group<const F: u8, const C: usize>(
                g: *const u8,
                acts: &QActs,
                t0: usize,
                dst: Dst,
                col: usize,
            ) {
                let nb = acts.nb;
                let gb = group_block_bytes(format_of(F));
                let has_min = F == Q4_1 || F == Q5_1;
                let (m_off, _, _) = offsets(format_of(F));
                let off: i32 = match F {
                    Q5_0 => 16,
                    Q8_0 if DOT != MADDUBS => 128,
                    _ => 0,
                };
                let (ad, asum, ais) = (acts.d.as_ptr(), acts.s.as_ptr(), acts.isum.as_ptr());
                let mut acc = [_mm256_setzero_ps(); C];
                // The minimum terms are summed apart and added last, as ggml does.
                let mut accm = [_mm256_setzero_ps(); C];
                for b in 0..nb {
                    let p = g.add(b * gb);
                    let dots = block_dots::<F, C>(p, acts, t0, b);
                    let dw = _mm256_cvtph_ps(_mm_loadu_si128(p as *const __m128i));
                    let mw = if has_min {
                        _mm256_cvtph_ps(_mm_loadu_si128(p.add(m_off) as *const __m128i))
                    } else {
                        _mm256_setzero_ps()
                    };
                    for (c, &dot) in dots.iter().enumerate() {
                        let a = (t0 + c) * nb + b;
                        let mut dot = dot;
                        if off != 0 {
                            dot = _mm256_sub_epi32(dot, _mm256_set1_epi32(off * *ais.add(a)));
                        }
                        let scale = _mm256_mul_ps(dw, _mm256_set1_ps(*ad.add(a)));
                        acc[c] = _mm256_fmadd_ps(scale, _mm256_cvtepi32_ps(dot), acc[c]);
                        if has_min {
                            accm[c] = _mm256_fmadd_ps(mw, _mm256_set1_ps(*asum.add(a)), accm[c]);
                        }
                    }
                }
                for c in 0..C {
                    let v = if has_min {
                        _mm256_add_ps(acc[c], accm[c])
                    } else {
                        acc[c]
                    };
                    _mm256_storeu_ps(dst.out.add((t0 + c) * dst.n + col), v);
                }
            }

            #[target_feature(enable = $feat)]
            unsafe fn tile_f<const F: u8>(
                w: &[u8],
                acts: &QActs,
                tokens: std::ops::Range<usize>,
                dst: Dst,
            ) {
                let gb = acts.nb * group_block_bytes(format_of(F));
                let wp = w.as_ptr();
                let pass = if by_halves(F) { HALF_TOKENS } else { TOKENS };
                for g in 0..w.len() / gb {
                    let gp = wp.add(g * gb);
                    let col = dst.col + g * GROUP;
                    let mut t = tokens.start;
                    while t + pass <= tokens.end {
                        if by_halves(F) {
                            group::<F, HALF_TOKENS>(gp, acts, t, dst, col);
                        } else {
                            group::<F, TOKENS>(gp, acts, t, dst, col);
                        }
                        t += pass;
                    }
                    // The rest in one pass too (speculative checks run 2-4 rows).
                    match tokens.end - t {
                        7 => group::<F, 7>(gp, acts, t, dst, col),
                        6 => group::<F, 6>(gp, acts, t, dst, col),
                        5 => group::<F, 5>(gp, acts, t, dst, col),
                        4 => group::<F, 4>(gp, acts, t, dst, col),
                        3 => group::<F, 3>(gp, acts, t, dst, col),
                        2 => group::<F, 2>(gp, acts, t, dst, col),
                        1 => group::<F, 1>(gp, acts, t, dst, col),
                        _ => {}
                    }
                }
            }

            /// Outputs of the R8 rows in `w` (whole groups, the first at
            /// column `dst.col`, a multiple of 8) for activation rows
            /// `tokens`.
            ///
            /// # Safety
            /// As [`super::super::super::scalar::tile`], and the CPU has this
            /// level's features.
            #[target_feature(enable = $feat)]
            pub unsafe fn tile(
                format: Format,
                w: &[u8],
                acts: &QActs,
                tokens: std::ops::Range<usize>,
                dst: Dst,
            ) {
                match format {
                    Format::Q4_1 => tile_f::<Q4_1>(w, acts, tokens, dst),
                    Format::Q5_0 => tile_f::<Q5_0>(w, acts, tokens, dst),
                    Format::Q5_1 => tile_f::<Q5_1>(w, acts, tokens, dst),
                    _ => tile_f::<Q8_0>(w, acts, tokens, dst),
                }
            }
        }
    };
}

r8_kernels!(avx2, "avx2,fma,f16c", MADDUBS);
r8_kernels!(vnni, "avx2,fma,f16c,avxvnni", VEX);
r8_kernels!(avx512, "avx2,fma,f16c", EVEX);
