//! K-quant kernels (Q4_K, Q6_K) on the R8 layout ([`super::super::r8`]),
//! one module per level, against Q8_K activations. Per group of 8 rows,
//! super-block and sub-block, the value groups are unpacked once and serve
//! up to [`super::r8::TOKENS`] activation rows; each sub-block's 8 integer
//! dots are scaled by the rows' 6-bit (Q4_K) or 8-bit (Q6_K) sub-block scales
//! in i32, and the super-block's sum is scaled in f32 once, as ggml does.
//!
//! * AVX2: products summed in i16 (Q4_K: 8 groups of pairs <= 30,480; Q6_K,
//!   values 0..63: 2 groups <= 32,004), then `vpmaddwd` with the scales.
//!   Q4_K unpacks one sub-block (8 registers) at a time and runs the rows
//!   over it, so nothing spills.
//! * VNNI levels: `vpdpbusd` in i32, then `vpmulld` with the scales.
//!
//! Q6_K's values are stored as `q + 32` (0..63); `32 * scale * sum(x)` per
//! sub-block is taken out in i32. Every level gives the same integers and
//! the same float operations, so bit-identical outputs.

use super::r8::TOKENS;

const MADDUBS: u8 = 0;
const VEX: u8 = 1;
const EVEX: u8 = 2;

macro_rules! kq_kernels {
    ($name:ident, $feat:literal, $dot:ident) => {
        pub mod $name {
            use core::arch::x86_64::*;

            use super::super::super::r8::{
                group_block_bytes, GROUP, Q4K_DMIN, Q4K_MINS, Q4K_QS, Q4K_SCALES, Q6K_BLOCK,
                Q6K_QS, Q6K_SCALES,
            };
            use super::super::super::{Dst, Format, QActsK, QK_K};
            use super::super::{dpbusd_evex, dpbusd_vex};
            use super::{MADDUBS, TOKENS, VEX};

            const DOT: u8 = super::$dot;
            const Q4K: u8 = 0;
            const Q6K: u8 = 1;

            #[inline]
            #[target_feature(enable = $feat)]
            unsafe fn dp(acc: __m256i, u: __m256i, y: __m256i) -> __m256i {
                if DOT == VEX {
                    dpbusd_vex(acc, u, y)
                } else {
                    dpbusd_evex(acc, u, y)
                }
            }

            /// The 8 value groups of 32 nibble-packed values (4 chunks).
            #[inline]
            #[target_feature(enable = $feat)]
            unsafe fn nibbles(qs: *const u8) -> [__m256i; 8] {
                let low = _mm256_set1_epi8(0x0F);
                let mut w = [_mm256_setzero_si256(); 8];
                for i in 0..4 {
                    let v = _mm256_loadu_si256(qs.add(32 * i) as *const __m256i);
                    w[2 * i] = _mm256_and_si256(v, low);
                    w[2 * i + 1] = _mm256_and_si256(_mm256_srli_epi16::<4>(v), low);
                }
                w
            }

            /// The 8 value groups (0..63) of one Q6_K block of 32 values.
            #[inline]
            #[target_feature(enable = $feat)]
            unsafe fn q6_values(q: *const u8) -> [__m256i; 8] {
                let mut w = nibbles(q);
                let h0 = _mm256_loadu_si256(q.add(128) as *const __m256i);
                let h1 = _mm256_loadu_si256(q.add(160) as *const __m256i);
                let bits = _mm256_set1_epi8(0x30);
                // Bits 2q, 2q+1 of each qh byte move to bits 4, 5 (16-bit
                // shifts of at most 4 keep them within their byte).
                let hb = [
                    _mm256_slli_epi16::<4>(h0),
                    _mm256_slli_epi16::<2>(h0),
                    h0,
                    _mm256_srli_epi16::<2>(h0),
                    _mm256_slli_epi16::<4>(h1),
                    _mm256_slli_epi16::<2>(h1),
                    h1,
                    _mm256_srli_epi16::<2>(h1),
                ];
                for (wj, hj) in w.iter_mut().zip(hb) {
                    *wj = _mm256_or_si256(*wj, _mm256_and_si256(hj, bits));
                }
                w
            }

            /// 8 rows' bytes of a sub-block scale, as i16 pairs per row
            /// (AVX2: `[s_0, s_0, s_1, s_1, ..]`) or i32 per row (VNNI).
            #[inline]
            #[target_feature(enable = $feat)]
            unsafe fn scales(p: *const u8, signed: bool) -> __m256i {
                let s = _mm_loadl_epi64(p as *const __m128i);
                match (DOT == MADDUBS, signed) {
                    (true, false) => _mm256_cvtepu8_epi16(_mm_unpacklo_epi8(s, s)),
                    (true, true) => _mm256_cvtepi8_epi16(_mm_unpacklo_epi8(s, s)),
                    (false, false) => _mm256_cvtepu8_epi32(s),
                    (false, true) => _mm256_cvtepi8_epi32(s),
                }
            }

            /// `sum over j in js` of the 8 rows' products of groups `w[j]`
            /// with `x[j]` broadcast, times the rows' scales `sc`
            /// ([`scales`]), in i32.
            #[inline]
            #[target_feature(enable = $feat)]
            unsafe fn scaled_dot(
                w: &[__m256i; 8],
                x: *const i32,
                js: std::ops::Range<usize>,
                sc: __m256i,
                i16_run: usize,
            ) -> __m256i {
                let xb = |j: usize| _mm256_set1_epi32(x.add(j).read_unaligned());
                if DOT != MADDUBS {
                    let mut d = _mm256_setzero_si256();
                    for j in js {
                        d = dp(d, w[j], xb(j));
                    }
                    return _mm256_mullo_epi32(d, sc);
                }
                let mut out = _mm256_setzero_si256();
                let mut j = js.start;
                while j < js.end {
                    let mut s = _mm256_maddubs_epi16(w[j], xb(j));
                    for i in j + 1..(j + i16_run).min(js.end) {
                        s = _mm256_add_epi16(s, _mm256_maddubs_epi16(w[i], xb(i)));
                    }
                    out = _mm256_add_epi32(out, _mm256_madd_epi16(s, sc));
                    j += i16_run;
                }
                out
            }

            /// Q4_K: the 8 rows' sum of min x sum(x) of one super-block
            /// against activation super-block `a`.
            #[inline]
            #[target_feature(enable = $feat)]
            unsafe fn q4k_mins(p: *const u8, acts: &QActsK, a: usize) -> __m256i {
                let ys = acts.sums32.as_ptr().add(a * 8) as *const i32;
                let mut summ = _mm256_setzero_si256();
                for pr in 0..4 {
                    let mn = _mm_loadu_si128(p.add(Q4K_MINS + 16 * pr) as *const __m128i);
                    let y = _mm256_set1_epi32(ys.add(pr).read_unaligned());
                    summ = _mm256_add_epi32(summ, _mm256_madd_epi16(_mm256_cvtepu8_epi16(mn), y));
                }
                summ
            }

            /// Q6_K: the 8 rows' sum of scale x dot (values `q - 32`) of one
            /// 32-value block `bl` against activation super-block `a`.
            #[inline]
            #[target_feature(enable = $feat)]
            unsafe fn q6k_block(
                p: *const u8,
                w: &[__m256i; 8],
                bl: usize,
                acts: &QActsK,
                a: usize,
            ) -> __m256i {
                let x = acts.qs.as_ptr().add(a * QK_K + 32 * bl) as *const i32;
                let scp = p.add(Q6K_SCALES + 16 * bl);
                let bsum = acts.bsums.as_ptr().add(16 * a + 2 * bl);
                if DOT != MADDUBS {
                    let mut out = _mm256_setzero_si256();
                    for h in 0..2 {
                        let mut d = _mm256_setzero_si256();
                        for j in 4 * h..4 * h + 4 {
                            d = dp(d, w[j], _mm256_set1_epi32(x.add(j).read_unaligned()));
                        }
                        let corr = _mm256_set1_epi32(32 * *bsum.add(h) as i32);
                        let d = _mm256_sub_epi32(d, corr);
                        out = _mm256_add_epi32(
                            out,
                            _mm256_mullo_epi32(d, scales(scp.add(8 * h), true)),
                        );
                    }
                    return out;
                }
                let sa = scales(scp, true);
                let sb = scales(scp.add(8), true);
                let d =
                    _mm256_add_epi32(scaled_dot(w, x, 0..4, sa, 2), scaled_dot(w, x, 4..8, sb, 2));
                // 32 * (s_a * bsum_a + s_b * bsum_b) per row in one vpmaddwd.
                let s8 = _mm_loadl_epi64(scp as *const __m128i);
                let s8b = _mm_loadl_epi64(scp.add(8) as *const __m128i);
                let pairs = _mm256_cvtepi8_epi16(_mm_unpacklo_epi8(s8, s8b));
                let y = _mm256_set1_epi32((bsum as *const i32).read_unaligned());
                let corr = _mm256_slli_epi32::<5>(_mm256_madd_epi16(pairs, y));
                _mm256_sub_epi32(d, corr)
            }

            /// One group of 8 rows (at `g`) x `C` activation rows from `t0`.
            #[inline]
            #[target_feature(enable = $feat)]
            unsafe fn group<const F: u8, const C: usize>(
                g: *const u8,
                acts: &QActsK,
                t0: usize,
                dst: Dst,
                col: usize,
            ) {
                let nb = acts.nb;
                let format = if F == Q4K { Format::Q4K } else { Format::Q6K };
                let gb = group_block_bytes(format);
                let mut acc = [_mm256_setzero_ps(); C];
                let mut accm = [_mm256_setzero_ps(); C];
                for b in 0..nb {
                    let p = g.add(b * gb);
                    let dw = _mm256_cvtph_ps(_mm_loadu_si128(p as *const __m128i));
                    let mut sumi = [_mm256_setzero_si256(); C];
                    if F == Q4K {
                        let dmw =
                            _mm256_cvtph_ps(_mm_loadu_si128(p.add(Q4K_DMIN) as *const __m128i));
                        // Sub-block outer, rows inner: 8 weight registers
                        // live at a time, not 64 (which spilled).
                        for s in 0..QK_K / 32 {
                            let w = nibbles(p.add(Q4K_QS + 128 * s));
                            let sc = scales(p.add(Q4K_SCALES + 8 * s), false);
                            for (c, si) in sumi.iter_mut().enumerate() {
                                let x = acts.qs.as_ptr().add(((t0 + c) * nb + b) * QK_K + 32 * s);
                                let d = scaled_dot(&w, x as *const i32, 0..8, sc, 8);
                                *si = _mm256_add_epi32(*si, d);
                            }
                        }
                        for c in 0..C {
                            let a = (t0 + c) * nb + b;
                            let si = sumi[c];
                            let sm = q4k_mins(p, acts, a);
                            let dy = _mm256_set1_ps(acts.d[a]);
                            acc[c] = _mm256_fmadd_ps(
                                _mm256_mul_ps(dw, dy),
                                _mm256_cvtepi32_ps(si),
                                acc[c],
                            );
                            accm[c] = _mm256_fnmadd_ps(
                                _mm256_mul_ps(dmw, dy),
                                _mm256_cvtepi32_ps(sm),
                                accm[c],
                            );
                        }
                        continue;
                    }
                    for bl in 0..QK_K / 32 {
                        let w = q6_values(p.add(Q6K_QS + Q6K_BLOCK * bl));
                        for c in 0..C {
                            let a = (t0 + c) * nb + b;
                            sumi[c] = _mm256_add_epi32(sumi[c], q6k_block(p, &w, bl, acts, a));
                        }
                    }
                    for c in 0..C {
                        let dy = _mm256_set1_ps(acts.d[(t0 + c) * nb + b]);
                        acc[c] = _mm256_fmadd_ps(
                            _mm256_mul_ps(dw, dy),
                            _mm256_cvtepi32_ps(sumi[c]),
                            acc[c],
                        );
                    }
                }
                for c in 0..C {
                    let v = if F == Q4K {
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
                acts: &QActsK,
                tokens: std::ops::Range<usize>,
                dst: Dst,
            ) {
                let format = if F == Q4K { Format::Q4K } else { Format::Q6K };
                let gb = acts.nb * group_block_bytes(format);
                let wp = w.as_ptr();
                for g in 0..w.len() / gb {
                    let gp = wp.add(g * gb);
                    let col = dst.col + g * GROUP;
                    let mut t = tokens.start;
                    while t + TOKENS <= tokens.end {
                        group::<F, TOKENS>(gp, acts, t, dst, col);
                        t += TOKENS;
                    }
                    match tokens.end - t {
                        3 => group::<F, 3>(gp, acts, t, dst, col),
                        2 => group::<F, 2>(gp, acts, t, dst, col),
                        1 => group::<F, 1>(gp, acts, t, dst, col),
                        _ => {}
                    }
                }
            }

            /// See [`super::super::r8::avx2::tile`]; K-quant formats.
            ///
            /// # Safety
            /// As there.
            #[target_feature(enable = $feat)]
            pub unsafe fn tile(
                format: Format,
                w: &[u8],
                acts: &QActsK,
                tokens: std::ops::Range<usize>,
                dst: Dst,
            ) {
                if format == Format::Q4K {
                    tile_f::<Q4K>(w, acts, tokens, dst)
                } else {
                    tile_f::<Q6K>(w, acts, tokens, dst)
                }
            }
        }
    };
}

kq_kernels!(avx2, "avx2,fma,f16c", MADDUBS);
kq_kernels!(vnni, "avx2,fma,f16c,avxvnni", VEX);
kq_kernels!(avx512, "avx2,fma,f16c", EVEX);
