//! x86_64 SIMD kernels, compiled for their target features and called only
//! after a run-time check (`Kernel::best`).
//!
//! Integer block dots use unsigned weights times signed activations
//! (`maddubs` or VNNI `dpbusd`): Q4 nibbles are 0..15, Q5 values 0..31 with
//! the Q5_0 offset of 16 taken out as `16 * sum(q_x)` (exact in i32); Q8_0
//! uses ggml's sign trick under AVX2 (|w| times sign-adjusted x) and `w + 128`
//! with a `128 * sum(q_x)` correction under VNNI. Every block dot is exactly
//! ggml's integer; only the float summation order differs.

use core::arch::x86_64::*;

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

/// `acc + ` the sums of 4 products `u8 * i8` in each i32 lane (AVX-VNNI
/// `vpdpbusd`). `_mm256_dpbusd_avx_epi32` is stable only since Rust 1.89
/// (our MSRV is 1.85): the same instruction by asm.
///
/// # Safety
/// The CPU supports AVX2 and AVX-VNNI.
#[inline]
#[target_feature(enable = "avx2,avxvnni")]
unsafe fn dpbusd(acc: __m256i, u: __m256i, y: __m256i) -> __m256i {
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

// Format ids for const generics.
const Q4_1: u8 = 0;
const Q5_0: u8 = 1;
const Q5_1: u8 = 2;
const Q8_0: u8 = 3;

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
            use super::super::{Format, QActs, QK};
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
            unsafe fn tile<const F: u8, const R: usize, const C: usize>(
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
            unsafe fn chunk_f<const F: u8>(
                w: &[u8],
                rb: usize,
                acts: &QActs,
                r0: usize,
                n: usize,
                out: *mut f32,
            ) {
                let rows = w.len() / rb;
                let wp = w.as_ptr();
                let m = acts.m;
                let mut t = 0;
                while t + TILE_TOKENS <= m {
                    let mut r = 0;
                    while r + TILE_ROWS <= rows {
                        tile::<F, TILE_ROWS, TILE_TOKENS>(
                            wp.add(r * rb),
                            rb,
                            acts,
                            t,
                            out,
                            n,
                            r0 + r,
                        );
                        r += TILE_ROWS;
                    }
                    while r < rows {
                        tile::<F, 1, TILE_TOKENS>(wp.add(r * rb), rb, acts, t, out, n, r0 + r);
                        r += 1;
                    }
                    t += TILE_TOKENS;
                }
                while t < m {
                    let mut r = 0;
                    while r + GEMV_ROWS <= rows {
                        tile::<F, GEMV_ROWS, 1>(wp.add(r * rb), rb, acts, t, out, n, r0 + r);
                        r += GEMV_ROWS;
                    }
                    while r < rows {
                        tile::<F, 1, 1>(wp.add(r * rb), rb, acts, t, out, n, r0 + r);
                        r += 1;
                    }
                    t += 1;
                }
            }

            /// See [`super::super::scalar::chunk`].
            ///
            /// # Safety
            /// As there, and the CPU has this module's target features.
            #[target_feature(enable = $feat)]
            pub unsafe fn chunk(
                format: Format,
                w: &[u8],
                rb: usize,
                acts: &QActs,
                r0: usize,
                n: usize,
                out: *mut f32,
            ) {
                match format {
                    Format::Q4_1 => chunk_f::<Q4_1>(w, rb, acts, r0, n, out),
                    Format::Q5_0 => chunk_f::<Q5_0>(w, rb, acts, r0, n, out),
                    Format::Q5_1 => chunk_f::<Q5_1>(w, rb, acts, r0, n, out),
                    Format::Q8_0 => chunk_f::<Q8_0>(w, rb, acts, r0, n, out),
                }
            }
        }
    };
}

kernels!(avx2, "avx2,fma,f16c", false);
kernels!(vnni, "avx2,fma,f16c,avxvnni", true);

/// Kernels for the R8 layout ([`super::r8`]) with AVX-VNNI: per group of 8
/// weight rows and block, the 8 value groups of 4 are unpacked once to
/// unsigned bytes, then each activation row adds `dpbusd(w_j, x[4j..4j+4])`
/// over them; the 8 lanes are the 8 rows' block dots. Only for VNNI CPUs:
/// without it, `maddubs` would saturate on Q8_0's `w + 128`.
pub mod vnni_r8 {
    use super::super::r8::{offsets, GROUP};
    use super::super::{Format, QActs, QK};
    use super::*;

    /// Activation rows per pass in prefill.
    const TOKENS: usize = 4;

    /// The 8 value groups of one group block as unsigned bytes.
    #[inline]
    #[target_feature(enable = "avx2,fma,f16c,avxvnni")]
    unsafe fn unpack<const F: u8>(p: *const u8) -> [__m256i; 8] {
        let (_, qh_off, qs_off) = offsets(format_of(F));
        let qs = p.add(qs_off);
        let mut w = [_mm256_setzero_si256(); 8];
        if F == Q8_0 {
            for (j, wj) in w.iter_mut().enumerate() {
                *wj = _mm256_loadu_si256(qs.add(32 * j) as *const __m256i);
            }
            return w;
        }
        let low = _mm256_set1_epi8(0x0F);
        for i in 0..4 {
            let v = _mm256_loadu_si256(qs.add(32 * i) as *const __m256i);
            w[2 * i] = _mm256_and_si256(v, low);
            w[2 * i + 1] = _mm256_and_si256(_mm256_srli_epi16::<4>(v), low);
        }
        if F == Q5_0 || F == Q5_1 {
            let qh = _mm256_loadu_si256(p.add(qh_off) as *const __m256i);
            let sixteen = _mm256_set1_epi8(0x10);
            // Byte offset of each 4-byte lane within its 128-bit half (the
            // reach of `shuffle_epi8`), in all 4 bytes of the lane.
            let lane_bytes = _mm256_setr_epi32(
                0,
                0x0404_0404,
                0x0808_0808,
                0x0c0c_0c0c,
                0,
                0x0404_0404,
                0x0808_0808,
                0x0c0c_0c0c,
            );
            for (j, wj) in w.iter_mut().enumerate() {
                // Byte j/2 of each row's qh word, in all 4 bytes of its lane.
                let idx = _mm256_add_epi8(lane_bytes, _mm256_set1_epi8((j / 2) as i8));
                let bytes = _mm256_shuffle_epi8(qh, idx);
                // Byte t tests bit 4 * (j % 2) + t.
                let s = 4 * (j % 2) as u32;
                let m = |t: u32| (1u32 << (s + t)) << (8 * t);
                let mask = _mm256_set1_epi32((m(0) | m(1) | m(2) | m(3)) as i32);
                let set = _mm256_cmpeq_epi8(_mm256_and_si256(bytes, mask), mask);
                *wj = _mm256_or_si256(*wj, _mm256_and_si256(set, sixteen));
            }
        }
        w
    }

    const fn format_of(f: u8) -> Format {
        match f {
            Q4_1 => Format::Q4_1,
            Q5_0 => Format::Q5_0,
            Q5_1 => Format::Q5_1,
            _ => Format::Q8_0,
        }
    }

    /// One group of 8 rows (at `g`) x `C` activation rows from `t0`; writes
    /// `out[(t0 + c) * n + col .. + 8]`.
    #[inline]
    #[target_feature(enable = "avx2,fma,f16c,avxvnni")]
    unsafe fn group<const F: u8, const C: usize>(
        g: *const u8,
        acts: &QActs,
        t0: usize,
        out: *mut f32,
        n: usize,
        col: usize,
    ) {
        let nb = acts.nb;
        let gb = GROUP * block_bytes(F);
        let has_min = F == Q4_1 || F == Q5_1;
        let (m_off, _, _) = offsets(format_of(F));
        let off: i32 = match F {
            Q5_0 => 16,
            Q8_0 => 128,
            _ => 0,
        };
        let (qs, ad, asum, ais) = (
            acts.qs.as_ptr(),
            acts.d.as_ptr(),
            acts.s.as_ptr(),
            acts.isum.as_ptr(),
        );
        let mut acc = [_mm256_setzero_ps(); C];
        // The minimum terms are summed apart and added last, as ggml does.
        let mut accm = [_mm256_setzero_ps(); C];
        for b in 0..nb {
            let p = g.add(b * gb);
            let dw = _mm256_cvtph_ps(_mm_loadu_si128(p as *const __m128i));
            let mw = if has_min {
                _mm256_cvtph_ps(_mm_loadu_si128(p.add(m_off) as *const __m128i))
            } else {
                _mm256_setzero_ps()
            };
            let w = unpack::<F>(p);
            for c in 0..C {
                let a = (t0 + c) * nb + b;
                let x = qs.add(a * QK) as *const i32;
                let mut d0 = _mm256_setzero_si256();
                let mut d1 = _mm256_setzero_si256();
                for j in (0..8).step_by(2) {
                    d0 = dpbusd(d0, w[j], _mm256_set1_epi32(x.add(j).read_unaligned()));
                    d1 = dpbusd(
                        d1,
                        w[j + 1],
                        _mm256_set1_epi32(x.add(j + 1).read_unaligned()),
                    );
                }
                let mut dot = _mm256_add_epi32(d0, d1);
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
            _mm256_storeu_ps(out.add((t0 + c) * n + col), v);
        }
    }

    #[target_feature(enable = "avx2,fma,f16c,avxvnni")]
    unsafe fn chunk_f<const F: u8>(w: &[u8], acts: &QActs, r0: usize, n: usize, out: *mut f32) {
        let gb = acts.nb * GROUP * block_bytes(F);
        let groups = w.len() / gb;
        let wp = w.as_ptr();
        for g in 0..groups {
            let gp = wp.add(g * gb);
            let col = r0 + g * GROUP;
            let mut t = 0;
            while t + TOKENS <= acts.m {
                group::<F, TOKENS>(gp, acts, t, out, n, col);
                t += TOKENS;
            }
            // The rest in one pass too (speculative checks run 2-4 rows).
            match acts.m - t {
                3 => group::<F, 3>(gp, acts, t, out, n, col),
                2 => group::<F, 2>(gp, acts, t, out, n, col),
                1 => group::<F, 1>(gp, acts, t, out, n, col),
                _ => {}
            }
        }
    }

    /// Outputs of the R8 rows in `w` (whole groups, starting at row `r0`, a
    /// multiple of 8) for every activation row.
    ///
    /// # Safety
    /// `out` points to `acts.m * n` floats, no one else writes columns
    /// `r0..r0 + rows` meanwhile, and the CPU has AVX2, FMA, F16C and
    /// AVX-VNNI.
    #[target_feature(enable = "avx2,fma,f16c,avxvnni")]
    pub unsafe fn chunk(
        format: Format,
        w: &[u8],
        acts: &QActs,
        r0: usize,
        n: usize,
        out: *mut f32,
    ) {
        match format {
            Format::Q4_1 => chunk_f::<Q4_1>(w, acts, r0, n, out),
            Format::Q5_0 => chunk_f::<Q5_0>(w, acts, r0, n, out),
            Format::Q5_1 => chunk_f::<Q5_1>(w, acts, r0, n, out),
            Format::Q8_0 => chunk_f::<Q8_0>(w, acts, r0, n, out),
        }
    }
}
