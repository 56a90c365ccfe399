//! Kernels on ggml's layout (row after row of blocks), for matrices whose
//! row count is not a multiple of 8 (the R8 layout's group): a tile of
//! weight rows x activation rows per pass, the horizontal sums at the end.

use core::arch::x86_64::*;

use super::{dpbusd_vex as dpbusd, Q4_1, Q5_0, Q5_1, Q8_0};

const fn block_bytes(f: u8) -> usize {
    match f {
        Q4_1 => 20,
        Q5_0 => 22,
        Q5_1 => 24,
        _ => 34,
    }
}

/// Prefill tile: weight rows x activation rows per pass.
const TILE_ROWS: usize = 4;
const TILE_TOKENS: usize = 2;
/// Decode tile: weight rows per pass for one activation row.
const GEMV_ROWS: usize = 4;

macro_rules! kernels {
    ($name:ident, $feat:literal, $vnni:literal) => {
        pub mod $name {
            use super::super::super::{Dst, Format, QActs, QK};
            use super::*;

            const VNNI: bool = $vnni;

            #[inline]
            #[target_feature(enable = $feat)]
            unsafe fn f16_at(p: *const u8) -> f32 {
                let bits = (p as *const u16).read_unaligned();
                _mm_cvtss_f32(_mm_cvtph_ps(_mm_cvtsi32_si128(bits as i32)))
            }

            /// 16 bytes of nibbles -> 32 bytes: low nibbles first.
            #[inline]
            #[target_feature(enable = $feat)]
            unsafe fn nibbles(qs: *const u8) -> __m256i {
                let t = _mm_loadu_si128(qs as *const __m128i);
                let v = _mm256_set_m128i(_mm_srli_epi16::<4>(t), t);
                _mm256_and_si256(v, _mm256_set1_epi8(0x0F))
            }

            /// Bit j of the u32 at `qh` -> 0x10 in byte j.
            #[inline]
            #[target_feature(enable = $feat)]
            unsafe fn high_bits(qh: *const u8) -> __m256i {
                let x = (qh as *const u32).read_unaligned() as i32;
                let shuf = _mm256_set_epi64x(
                    0x0303030303030303,
                    0x0202020202020202,
                    0x0101010101010101,
                    0,
                );
                let bytes = _mm256_shuffle_epi8(_mm256_set1_epi32(x), shuf);
                let bits = _mm256_or_si256(bytes, _mm256_set1_epi64x(0x7fbfdfeff7fbfdfe));
                let set = _mm256_cmpeq_epi8(bits, _mm256_set1_epi64x(-1));
                _mm256_and_si256(set, _mm256_set1_epi8(0x10))
            }

            /// Sums of 4 products `u8 * i8` in each i32 lane.
            #[inline]
            #[target_feature(enable = $feat)]
            unsafe fn dot_us(u: __m256i, y: __m256i) -> __m256i {
                if VNNI {
                    dpbusd(_mm256_setzero_si256(), u, y)
                } else {
                    _mm256_madd_epi16(_mm256_maddubs_epi16(u, y), _mm256_set1_epi16(1))
                }
            }

            #[inline]
            #[target_feature(enable = $feat)]
            unsafe fn hsum(x: __m256) -> f32 {
                let r = _mm_add_ps(_mm256_extractf128_ps::<1>(x), _mm256_castps256_ps128(x));
                let r = _mm_add_ps(r, _mm_movehl_ps(r, r));
                let r = _mm_add_ss(r, _mm_movehdup_ps(r));
                _mm_cvtss_f32(r)
            }

            /// `R` weight rows (at `w`, `rb` bytes apart) x `C` activation
            /// rows from `t0`; writes `out[(t0 + c) * n + col + r]`.
            // Indexing the per-row arrays by `r` keeps them in registers.
            #[allow(clippy::needless_range_loop)]
            #[inline]
            #[target_feature(enable = $feat)]
            unsafe fn tile_rc<const F: u8, const R: usize, const C: usize>(
                w: *const u8,
                rb: usize,
                acts: &QActs,
                t0: usize,
                out: *mut f32,
                n: usize,
                col: usize,
            ) {
                let nb = acts.nb;
                let bb = block_bytes(F);
                let has_min = F == Q4_1 || F == Q5_1;
                let off: i32 = match F {
                    Q5_0 => 16,
                    Q8_0 if VNNI => 128,
                    _ => 0,
                };
                let (qs, ad, asum, ais) = (
                    acts.qs.as_ptr(),
                    acts.d.as_ptr(),
                    acts.s.as_ptr(),
                    acts.isum.as_ptr(),
                );
                let mut acc = [[_mm256_setzero_ps(); C]; R];
                let mut accm = [[0f32; C]; R];
                for b in 0..nb {
                    let mut wu = [_mm256_setzero_si256(); R];
                    let mut wsg = [_mm256_setzero_si256(); R];
                    let mut wd = [_mm256_setzero_ps(); R];
                    let mut wm = [0f32; R];
                    for r in 0..R {
                        let p = w.add(r * rb + b * bb);
                        wd[r] = _mm256_set1_ps(f16_at(p));
                        match F {
                            Q4_1 => {
                                wm[r] = f16_at(p.add(2));
                                wu[r] = nibbles(p.add(4));
                            }
                            Q5_0 => {
                                wu[r] = _mm256_or_si256(nibbles(p.add(6)), high_bits(p.add(2)));
                            }
                            Q5_1 => {
                                wm[r] = f16_at(p.add(2));
                                wu[r] = _mm256_or_si256(nibbles(p.add(8)), high_bits(p.add(4)));
                            }
                            _ => {
                                let v = _mm256_loadu_si256(p.add(2) as *const __m256i);
                                if VNNI {
                                    wu[r] = _mm256_xor_si256(v, _mm256_set1_epi8(-128));
                                } else {
                                    wu[r] = _mm256_sign_epi8(v, v);
                                    wsg[r] = v;
                                }
                            }
                        }
                    }
                    for c in 0..C {
                        let a = (t0 + c) * nb + b;
                        let y = _mm256_loadu_si256(qs.add(a * QK) as *const __m256i);
                        let yd = _mm256_set1_ps(*ad.add(a));
                        let corr = if off != 0 {
                            _mm256_zextsi128_si256(_mm_cvtsi32_si128(off * *ais.add(a)))
                        } else {
                            _mm256_setzero_si256()
                        };
                        let s = if has_min { *asum.add(a) } else { 0.0 };
                        for r in 0..R {
                            let mut dot = if F == Q8_0 && !VNNI {
                                _mm256_madd_epi16(
                                    _mm256_maddubs_epi16(wu[r], _mm256_sign_epi8(y, wsg[r])),
                                    _mm256_set1_epi16(1),
                                )
                            } else {
                                dot_us(wu[r], y)
                            };
                            if off != 0 {
                                dot = _mm256_sub_epi32(dot, corr);
                            }
                            acc[r][c] = _mm256_fmadd_ps(
                                _mm256_mul_ps(wd[r], yd),
                                _mm256_cvtepi32_ps(dot),
                                acc[r][c],
                            );
                            if has_min {
                                accm[r][c] += wm[r] * s;
                            }
                        }
                    }
                }
                for r in 0..R {
                    for c in 0..C {
                        *out.add((t0 + c) * n + col + r) = hsum(acc[r][c]) + accm[r][c];
                    }
                }
            }

            #[target_feature(enable = $feat)]
            unsafe fn tile_f<const F: u8>(
                w: &[u8],
                acts: &QActs,
                tokens: std::ops::Range<usize>,
                dst: Dst,
            ) {
                let rb = acts.nb * block_bytes(F);
                let rows = w.len() / rb;
                let wp = w.as_ptr();
                let (out, n, col) = (dst.out, dst.n, dst.col);
                let mut t = tokens.start;
                while t + TILE_TOKENS <= tokens.end {
                    let mut r = 0;
                    while r + TILE_ROWS <= rows {
                        tile_rc::<F, TILE_ROWS, TILE_TOKENS>(
                            wp.add(r * rb),
                            rb,
                            acts,
                            t,
                            out,
                            n,
                            col + r,
                        );
                        r += TILE_ROWS;
                    }
                    while r < rows {
                        tile_rc::<F, 1, TILE_TOKENS>(wp.add(r * rb), rb, acts, t, out, n, col + r);
                        r += 1;
                    }
                    t += TILE_TOKENS;
                }
                while t < tokens.end {
                    let mut r = 0;
                    while r + GEMV_ROWS <= rows {
                        tile_rc::<F, GEMV_ROWS, 1>(wp.add(r * rb), rb, acts, t, out, n, col + r);
                        r += GEMV_ROWS;
                    }
                    while r < rows {
                        tile_rc::<F, 1, 1>(wp.add(r * rb), rb, acts, t, out, n, col + r);
                        r += 1;
                    }
                    t += 1;
                }
            }

            /// See [`super::super::super::scalar::tile`].
            ///
            /// # Safety
            /// As there (32-value formats), and the CPU has this module's
            /// target features.
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

kernels!(avx2, "avx2,fma,f16c", false);
kernels!(vnni, "avx2,fma,f16c,avxvnni", true);
