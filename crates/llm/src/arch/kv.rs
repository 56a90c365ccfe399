//! An f16 KV cache and the one-token attention that reads it directly.
//!
//! llama.cpp keeps K and V in f16 by default; an f32 cache doubles both the
//! memory and the bytes every decode step reads, which at 6k positions is
//! more than the weights of a 135M model. Decode attention here reads the
//! f16 rows with F16C and, like ggml's graph for an f16 cache, rounds the
//! query and the attention probabilities to f16 before their dot products.
//! Prefill converts the rows it needs to f32 and uses the dense path.

use candle_core::{bail, Device, Result, Tensor};
use half::f16;

use crate::quant::SendPtr;

/// K and V of one layer, `(n_kv, capacity, head_dim)` each, in f16.
#[derive(Debug, Clone, Default)]
pub struct KvCacheF16 {
    k: Vec<f16>,
    v: Vec<f16>,
    n_kv: usize,
    hd: usize,
    cap: usize,
    pub len: usize,
}

impl KvCacheF16 {
    /// Make room for `positions` in total (keeps what is cached).
    pub fn reserve(&mut self, n_kv: usize, hd: usize, positions: usize) {
        if self.cap >= positions && self.n_kv == n_kv && self.hd == hd {
            return;
        }
        let mut k = vec![f16::ZERO; n_kv * positions * hd];
        let mut v = vec![f16::ZERO; n_kv * positions * hd];
        if self.n_kv == n_kv && self.hd == hd {
            for h in 0..n_kv {
                let (src, dst) = (h * self.cap * hd, h * positions * hd);
                let n = self.len * hd;
                k[dst..dst + n].copy_from_slice(&self.k[src..src + n]);
                v[dst..dst + n].copy_from_slice(&self.v[src..src + n]);
            }
        } else {
            self.len = 0;
        }
        (self.k, self.v, self.n_kv, self.hd, self.cap) = (k, v, n_kv, hd, positions);
    }

    /// Append `l` positions of `k` and `v`, each `(n_kv, l, hd)` contiguous.
    pub fn append(&mut self, k: &Tensor, v: &Tensor, max_cap: usize) -> Result<()> {
        let (n_kv, l, hd) = k.dims3()?;
        let need = self.len + l;
        if need > max_cap {
            bail!("context full: {need} positions > context length {max_cap}");
        }
        if need > self.cap || self.n_kv != n_kv || self.hd != hd {
            let cap = need.max(self.cap * 2).max(256).min(max_cap);
            self.reserve(n_kv, hd, cap);
        }
        let kf = k.flatten_all()?.to_vec1::<f32>()?;
        let vf = v.flatten_all()?.to_vec1::<f32>()?;
        for h in 0..n_kv {
            let dst = (h * self.cap + self.len) * hd;
            let src = h * l * hd;
            for (d, s) in self.k[dst..dst + l * hd]
                .iter_mut()
                .zip(&kf[src..src + l * hd])
            {
                *d = f16::from_f32(*s);
            }
            for (d, s) in self.v[dst..dst + l * hd]
                .iter_mut()
                .zip(&vf[src..src + l * hd])
            {
                *d = f16::from_f32(*s);
            }
        }
        self.len = need;
        Ok(())
    }

    /// Positions `start..end` as f32 tensors `(n_kv, end - start, hd)`.
    pub fn to_tensors(&self, start: usize, end: usize) -> Result<(Tensor, Tensor)> {
        let t = end - start;
        let mut k = Vec::with_capacity(self.n_kv * t * self.hd);
        let mut v = Vec::with_capacity(self.n_kv * t * self.hd);
        for h in 0..self.n_kv {
            let a = (h * self.cap + start) * self.hd;
            let b = (h * self.cap + end) * self.hd;
            k.extend(self.k[a..b].iter().map(|x| x.to_f32()));
            v.extend(self.v[a..b].iter().map(|x| x.to_f32()));
        }
        let shape = (self.n_kv, t, self.hd);
        Ok((
            Tensor::from_vec(k, shape, &Device::Cpu)?,
            Tensor::from_vec(v, shape, &Device::Cpu)?,
        ))
    }

    /// Attention of one query position over cached positions `start..end`:
    /// `q` is `(n_head, hd)` (query heads `h * group..(h + 1) * group` share
    /// KV head `h`); scores are `scale * q.k`. Returns `(n_head * hd)`.
    pub fn attend_one(
        &self,
        q: &[f32],
        n_head: usize,
        start: usize,
        end: usize,
        scale: f32,
    ) -> Vec<f32> {
        let hd = self.hd;
        let group = n_head / self.n_kv.max(1);
        let mut out = vec![0f32; n_head * hd];
        let qh: Vec<f16> = q.iter().map(|&x| f16::from_f32(x)).collect();
        let out_ptr = SendPtr(out.as_mut_ptr());
        let simd = simd_ok(hd);
        let run = |units: std::ops::Range<usize>| {
            for h in units {
                let base = h * self.cap * hd;
                let keys = &self.k[base + start * hd..base + end * hd];
                let vals = &self.v[base + start * hd..base + end * hd];
                let qs = &qh[h * group * hd..(h + 1) * group * hd];
                // SAFETY: unit h writes only the outputs of its query heads.
                let o = unsafe {
                    std::slice::from_raw_parts_mut(out_ptr.get().add(h * group * hd), group * hd)
                };
                attend_group(qs, keys, vals, group, hd, scale, o, simd);
            }
        };
        if self.n_kv > 1 && (end - start) * group * hd >= 1 << 14 {
            candle_core::utils::barrier_pool().execute_chunked(self.n_kv, run);
        } else {
            run(0..self.n_kv);
        }
        out
    }
}

/// Softmax of `row` in place as ggml computes it (max-subtracted, the sum
/// in f64), each probability rounded to f16 (it meets V as f16).
fn softmax_f16_probs(row: &mut [f32], simd: bool) {
    #[cfg(target_arch = "x86_64")]
    if simd {
        // SAFETY: `simd` means AVX2+FMA+F16C are present.
        unsafe { x86::softmax_f16_probs(row) };
        return;
    }
    let _ = simd;
    let max = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut sum = 0f64;
    for x in row.iter_mut() {
        *x = (*x - max).exp();
        sum += *x as f64;
    }
    let inv = (1.0 / sum) as f32;
    for x in row.iter_mut() {
        *x = f16::from_f32(*x * inv).to_f32();
    }
}

/// Query positions per task of [`KvCacheF16::attend_many`].
const ROW_BLOCK: usize = 64;

thread_local! {
    /// Per-thread score buffer of `attend_many` (reused: a fresh multi-MB
    /// buffer per task costs more in page faults than the softmax).
    static SCORES: std::cell::RefCell<Vec<f32>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl KvCacheF16 {
    /// Attention of `l` query positions `pos..pos + l` (prefill) over cached
    /// positions `start..pos + l`: `q` is `(n_head, l, hd)`; causal, and
    /// within `window` positions when given. Scores are `scale * q.k`;
    /// probabilities are rounded to f16 before `P V`, and callers round `q`,
    /// as ggml's graph does with an f16 cache. Returns `(l, n_head * hd)`.
    ///
    /// Tasks are (query head, block of 64 positions): each computes its
    /// score rows with one GEMM, the masked softmax in place, and its output
    /// rows with a second GEMM, so no task holds more than 64 score rows.
    #[allow(clippy::too_many_arguments)]
    pub fn attend_many(
        &self,
        q: &[f32],
        n_head: usize,
        l: usize,
        pos: usize,
        start: usize,
        window: Option<usize>,
        scale: f32,
    ) -> Vec<f32> {
        let hd = self.hd;
        let end = pos + l;
        let t = end - start;
        let group = n_head / self.n_kv.max(1);
        // K and V rows of the window as f32, per KV head.
        let mut kf = vec![0f32; self.n_kv * t * hd];
        let mut vf = vec![0f32; self.n_kv * t * hd];
        for h in 0..self.n_kv {
            let a = (h * self.cap + start) * hd;
            half::slice::HalfFloatSliceExt::convert_to_f32_slice(
                &self.k[a..a + t * hd],
                &mut kf[h * t * hd..(h + 1) * t * hd],
            );
            half::slice::HalfFloatSliceExt::convert_to_f32_slice(
                &self.v[a..a + t * hd],
                &mut vf[h * t * hd..(h + 1) * t * hd],
            );
        }
        let width = n_head * hd;
        let mut out = vec![0f32; l * width];
        let out_ptr = SendPtr(out.as_mut_ptr());
        let blocks = l.div_ceil(ROW_BLOCK);
        let simd = simd_ok(8);
        let task = |id: usize| {
            let (head, b) = (id / blocks, id % blocks);
            let kh = head / group;
            let i0 = b * ROW_BLOCK;
            let rows = ROW_BLOCK.min(l - i0);
            // Keys the block's last row may see (causal): a prefix of the window.
            let n = (pos + i0 + rows) - start;
            let (kp, vp) = (&kf[kh * t * hd..], &vf[kh * t * hd..]);
            let qp = &q[(head * l + i0) * hd..];
            SCORES.with(|cell| {
                let mut buf = cell.borrow_mut();
                if buf.len() < rows * n {
                    buf.resize(rows * n, 0.0);
                }
                let s = &mut buf[..rows * n];
                // SAFETY: the slices hold the rows x hd, n x hd and rows x n
                // values addressed by these strides.
                unsafe {
                    gemm::gemm(
                        rows,
                        n,
                        hd,
                        s.as_mut_ptr(),
                        1,
                        n as isize,
                        false,
                        qp.as_ptr(),
                        1,
                        hd as isize,
                        kp.as_ptr(),
                        hd as isize,
                        1,
                        0.0,
                        scale,
                        false,
                        false,
                        false,
                        gemm::Parallelism::None,
                    );
                }
                for r in 0..rows {
                    let qpos = pos + i0 + r;
                    let row = &mut s[r * n..(r + 1) * n];
                    let lo =
                        window.map_or(0, |w| (qpos + 1).saturating_sub(w).saturating_sub(start));
                    let hi = qpos + 1 - start;
                    softmax_f16_probs(&mut row[lo..hi], simd);
                    row[..lo].iter_mut().for_each(|x| *x = 0.0);
                    row[hi..].iter_mut().for_each(|x| *x = 0.0);
                }
                // SAFETY: task (head, b) writes only rows i0..i0+rows, columns
                // head*hd..(head+1)*hd of `out`.
                unsafe {
                    gemm::gemm(
                        rows,
                        hd,
                        n,
                        out_ptr.get().add(i0 * width + head * hd),
                        1,
                        width as isize,
                        false,
                        s.as_ptr(),
                        1,
                        n as isize,
                        vp.as_ptr(),
                        1,
                        hd as isize,
                        0.0,
                        1.0,
                        false,
                        false,
                        false,
                        gemm::Parallelism::None,
                    );
                }
            });
        };
        let tasks = n_head * blocks;
        candle_core::utils::barrier_pool().execute_chunked(tasks, |range| range.for_each(task));
        out
    }
}

fn simd_ok(hd: usize) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        hd % 8 == 0 && crate::quant::Kernel::best() != crate::quant::Kernel::Scalar
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = hd;
        false
    }
}

/// `group` query heads against one KV head's rows; softmax as ggml's
/// (max-subtracted, f64 sum), probabilities rounded to f16 before `P V`.
#[allow(clippy::too_many_arguments)]
fn attend_group(
    q: &[f16],
    keys: &[f16],
    vals: &[f16],
    group: usize,
    hd: usize,
    scale: f32,
    out: &mut [f32],
    simd: bool,
) {
    let t = keys.len() / hd;
    let mut scores = vec![0f32; group * t];
    #[cfg(target_arch = "x86_64")]
    if simd {
        // SAFETY: `simd` means AVX2+FMA+F16C are present and hd % 8 == 0.
        unsafe { x86::scores(q, keys, group, hd, scale, &mut scores) };
    }
    if !simd {
        for g in 0..group {
            let qg = &q[g * hd..(g + 1) * hd];
            for j in 0..t {
                let k = &keys[j * hd..(j + 1) * hd];
                let dot: f32 = qg.iter().zip(k).map(|(a, b)| a.to_f32() * b.to_f32()).sum();
                scores[g * t + j] = dot * scale;
            }
        }
    }
    // Probabilities, f16-rounded, kept as f32.
    for g in 0..group {
        softmax_f16_probs(&mut scores[g * t..(g + 1) * t], simd);
    }
    let probs = scores;
    #[cfg(target_arch = "x86_64")]
    if simd {
        // SAFETY: as above.
        unsafe { x86::weighted_sum(&probs, vals, group, hd, out) };
        return;
    }
    for g in 0..group {
        let o = &mut out[g * hd..(g + 1) * hd];
        o.iter_mut().for_each(|x| *x = 0.0);
        for j in 0..t {
            let p = probs[g * t + j];
            for (x, v) in o.iter_mut().zip(&vals[j * hd..(j + 1) * hd]) {
                *x += p * v.to_f32();
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use core::arch::x86_64::*;
    use half::f16;

    #[inline]
    #[target_feature(enable = "avx2,fma,f16c")]
    unsafe fn load8(p: *const f16) -> __m256 {
        _mm256_cvtph_ps(_mm_loadu_si128(p as *const __m128i))
    }

    #[inline]
    #[target_feature(enable = "avx2,fma,f16c")]
    unsafe fn hsum(x: __m256) -> f32 {
        let r = _mm_add_ps(_mm256_extractf128_ps::<1>(x), _mm256_castps256_ps128(x));
        let r = _mm_add_ps(r, _mm_movehl_ps(r, r));
        let r = _mm_add_ss(r, _mm_movehdup_ps(r));
        _mm_cvtss_f32(r)
    }

    /// `exp(x)` for 8 lanes (Cephes' polynomial, about 1 ulp; 0 below -87).
    #[inline]
    #[target_feature(enable = "avx2,fma,f16c")]
    unsafe fn exp8(x: __m256) -> __m256 {
        let tiny = _mm256_cmp_ps::<_CMP_LT_OQ>(x, _mm256_set1_ps(-87.0));
        let x = _mm256_min_ps(
            _mm256_max_ps(x, _mm256_set1_ps(-87.0)),
            _mm256_set1_ps(88.0),
        );
        let n = _mm256_round_ps::<{ _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC }>(
            _mm256_mul_ps(x, _mm256_set1_ps(std::f32::consts::LOG2_E)),
        );
        let r = _mm256_fnmadd_ps(n, _mm256_set1_ps(0.693_359_4), x);
        let r = _mm256_fnmadd_ps(n, _mm256_set1_ps(-2.121_944_4e-4), r);
        let mut p = _mm256_set1_ps(1.987_569_1e-4);
        for c in [
            1.398_199_9e-3,
            8.333_452e-3,
            4.166_579_6e-2,
            1.666_666_5e-1,
            0.5,
        ] {
            p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(c));
        }
        let r2 = _mm256_mul_ps(r, r);
        let y = _mm256_add_ps(_mm256_fmadd_ps(p, r2, r), _mm256_set1_ps(1.0));
        let pow2 = _mm256_castsi256_ps(_mm256_slli_epi32::<23>(_mm256_add_epi32(
            _mm256_cvtps_epi32(n),
            _mm256_set1_epi32(127),
        )));
        _mm256_andnot_ps(tiny, _mm256_mul_ps(y, pow2))
    }

    /// See [`super::softmax_f16_probs`].
    ///
    /// # Safety
    /// AVX2, FMA and F16C are present.
    #[target_feature(enable = "avx2,fma,f16c")]
    pub unsafe fn softmax_f16_probs(row: &mut [f32]) {
        let n = row.len();
        let body = n / 8 * 8;
        let p = row.as_mut_ptr();
        let mut mv = _mm256_set1_ps(f32::NEG_INFINITY);
        for i in (0..body).step_by(8) {
            mv = _mm256_max_ps(mv, _mm256_loadu_ps(p.add(i)));
        }
        let mut lanes = [0f32; 8];
        _mm256_storeu_ps(lanes.as_mut_ptr(), mv);
        let max = lanes
            .iter()
            .chain(&row[body..])
            .copied()
            .fold(f32::NEG_INFINITY, f32::max);
        let m = _mm256_set1_ps(max);
        let mut sum = 0f64;
        for i in (0..body).step_by(8) {
            let e = exp8(_mm256_sub_ps(_mm256_loadu_ps(p.add(i)), m));
            _mm256_storeu_ps(p.add(i), e);
            sum += hsum(e) as f64;
        }
        for x in &mut row[body..] {
            *x = (*x - max).exp();
            sum += *x as f64;
        }
        let inv = _mm256_set1_ps((1.0 / sum) as f32);
        for i in (0..body).step_by(8) {
            let v = _mm256_mul_ps(_mm256_loadu_ps(p.add(i)), inv);
            let h = _mm256_cvtps_ph::<_MM_FROUND_TO_NEAREST_INT>(v);
            _mm256_storeu_ps(p.add(i), _mm256_cvtph_ps(h));
        }
        let inv = (1.0 / sum) as f32;
        for x in &mut row[body..] {
            *x = f16::from_f32(*x * inv).to_f32();
        }
    }

    /// `scores[g * t + j] = scale * q_g . k_j`; each key row is loaded once
    /// for all query heads of the group.
    ///
    /// # Safety
    /// AVX2, FMA and F16C are present; `hd % 8 == 0`.
    #[target_feature(enable = "avx2,fma,f16c")]
    pub unsafe fn scores(
        q: &[f16],
        keys: &[f16],
        group: usize,
        hd: usize,
        scale: f32,
        scores: &mut [f32],
    ) {
        let t = keys.len() / hd;
        let chunks = hd / 8;
        // The group's queries as f32 vectors, loaded once.
        let mut qv = vec![_mm256_setzero_ps(); group * chunks];
        for g in 0..group {
            for c in 0..chunks {
                qv[g * chunks + c] = load8(q.as_ptr().add(g * hd + c * 8));
            }
        }
        for j in 0..t {
            let kp = keys.as_ptr().add(j * hd);
            for g in 0..group {
                let mut acc = _mm256_setzero_ps();
                for c in 0..chunks {
                    acc = _mm256_fmadd_ps(qv[g * chunks + c], load8(kp.add(c * 8)), acc);
                }
                scores[g * t + j] = hsum(acc) * scale;
            }
        }
    }

    /// `out_g = sum_j p[g * t + j] * v_j`.
    ///
    /// # Safety
    /// As [`scores`].
    #[target_feature(enable = "avx2,fma,f16c")]
    pub unsafe fn weighted_sum(p: &[f32], vals: &[f16], group: usize, hd: usize, out: &mut [f32]) {
        let t = vals.len() / hd;
        let chunks = hd / 8;
        let mut acc = vec![_mm256_setzero_ps(); group * chunks];
        let mut v = vec![_mm256_setzero_ps(); chunks];
        for j in 0..t {
            let vp = vals.as_ptr().add(j * hd);
            for (c, vc) in v.iter_mut().enumerate() {
                *vc = load8(vp.add(c * 8));
            }
            for g in 0..group {
                let pg = _mm256_set1_ps(*p.get_unchecked(g * t + j));
                let a = &mut acc[g * chunks..(g + 1) * chunks];
                for (ac, vc) in a.iter_mut().zip(&v) {
                    *ac = _mm256_fmadd_ps(pg, *vc, *ac);
                }
            }
        }
        for g in 0..group {
            for c in 0..chunks {
                _mm256_storeu_ps(out.as_mut_ptr().add(g * hd + c * 8), acc[g * chunks + c]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Dense reference: f32 softmax attention on the f16-rounded inputs.
    #[allow(clippy::too_many_arguments)]
    fn reference(
        q: &[f32],
        k: &[f32],
        v: &[f32],
        n_head: usize,
        n_kv: usize,
        hd: usize,
        t: usize,
        scale: f32,
    ) -> Vec<f32> {
        let r = |x: f32| f16::from_f32(x).to_f32();
        let group = n_head / n_kv;
        let mut out = vec![0f32; n_head * hd];
        for h in 0..n_head {
            let kh = h / group;
            let s: Vec<f32> = (0..t)
                .map(|j| {
                    (0..hd)
                        .map(|d| r(q[h * hd + d]) * r(k[(kh * t + j) * hd + d]))
                        .sum::<f32>()
                        * scale
                })
                .collect();
            let m = s.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            let e: Vec<f32> = s.iter().map(|x| (x - m).exp()).collect();
            let z: f32 = e.iter().sum();
            for j in 0..t {
                for d in 0..hd {
                    out[h * hd + d] += e[j] / z * r(v[(kh * t + j) * hd + d]);
                }
            }
        }
        out
    }

    #[test]
    fn softmax_matches_scalar_exp() {
        let row: Vec<f32> = (0..203)
            .map(|i| (i as f32 * 0.37).sin() * 30.0 - 5.0)
            .collect();
        let mut want = row.clone();
        softmax_f16_probs(&mut want, false);
        let mut got = row.clone();
        softmax_f16_probs(&mut got, simd_ok(8));
        for (g, w) in got.iter().zip(&want) {
            // Both f16-rounded; the vector exp is within an ulp or two.
            assert!((g - w).abs() <= 1e-3 * w.abs() + 1e-7, "{g} vs {w}");
        }
    }

    #[test]
    fn scalar_and_simd_one_token_paths_agree() {
        let (group, hd, t) = (3, 64, 257);
        let f = |i: usize, m: f32| f16::from_f32(((i as f32) * m).sin());
        let q: Vec<f16> = (0..group * hd).map(|i| f(i, 0.37)).collect();
        let keys: Vec<f16> = (0..t * hd).map(|i| f(i, 0.11)).collect();
        let vals: Vec<f16> = (0..t * hd).map(|i| f(i, 0.53)).collect();
        let mut scalar = vec![0f32; group * hd];
        attend_group(&q, &keys, &vals, group, hd, 0.125, &mut scalar, false);
        if !simd_ok(hd) {
            return;
        }
        let mut simd = vec![0f32; group * hd];
        attend_group(&q, &keys, &vals, group, hd, 0.125, &mut simd, true);
        for (a, b) in simd.iter().zip(&scalar) {
            assert!((a - b).abs() <= 1e-3 * (1.0 + b.abs()), "{a} vs {b}");
        }
    }

    #[test]
    fn prefill_attention_matches_dense_reference() {
        let mut seed = 11u64;
        let mut rnd = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            ((seed >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
        };
        // (heads, kv heads, hd, cached before, new positions, window)
        for (n_head, n_kv, hd, pos, l, window) in [
            (4, 2, 8, 0, 5, None),
            (9, 3, 64, 100, 150, None),
            (4, 1, 16, 40, 70, Some(32)),
            (14, 2, 64, 0, 64, None),
        ] {
            let t = pos + l;
            let k: Vec<f32> = (0..n_kv * t * hd).map(|_| rnd() * 3.0).collect();
            let v: Vec<f32> = (0..n_kv * t * hd).map(|_| rnd()).collect();
            let q: Vec<f32> = (0..n_head * l * hd)
                .map(|_| f16::from_f32(rnd()).to_f32())
                .collect();
            let mut cache = KvCacheF16::default();
            let tensor =
                |x: &[f32]| Tensor::from_vec(x.to_vec(), (n_kv, t, hd), &Device::Cpu).unwrap();
            cache.append(&tensor(&k), &tensor(&v), 8192).unwrap();
            let scale = 1.0 / (hd as f32).sqrt();
            let start = window.map_or(0, |w: usize| (pos + 1).saturating_sub(w));
            let got = cache.attend_many(&q, n_head, l, pos, start, window, scale);
            let r = |x: f32| f16::from_f32(x).to_f32();
            let group = n_head / n_kv;
            for h in 0..n_head {
                let kh = h / group;
                for i in 0..l {
                    let qp = pos + i;
                    let lo = window.map_or(0, |w| (qp + 1).saturating_sub(w));
                    let s: Vec<f32> = (lo..=qp)
                        .map(|j| {
                            (0..hd)
                                .map(|d| q[(h * l + i) * hd + d] * r(k[(kh * t + j) * hd + d]))
                                .sum::<f32>()
                                * scale
                        })
                        .collect();
                    let m = s.iter().copied().fold(f32::NEG_INFINITY, f32::max);
                    let z: f32 = s.iter().map(|x| (x - m).exp()).sum();
                    for d in 0..hd {
                        let want: f32 = (lo..=qp)
                            .map(|j| (s[j - lo] - m).exp() / z * r(v[(kh * t + j) * hd + d]))
                            .sum();
                        let g = got[i * n_head * hd + h * hd + d];
                        assert!(
                            (g - want).abs() <= 2e-3 * (1.0 + want.abs()),
                            "{n_head}x{hd} pos {pos} l {l} head {h} row {i} [{d}]: {g} vs {want}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn one_token_attention_matches_dense_reference() {
        let mut seed = 7u64;
        let mut rnd = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            ((seed >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
        };
        for (n_head, n_kv, hd, t) in [
            (4, 2, 8, 5),
            (14, 2, 64, 700),
            (9, 3, 64, 300),
            (4, 1, 16, 33),
        ] {
            let k: Vec<f32> = (0..n_kv * t * hd).map(|_| rnd() * 3.0).collect();
            let v: Vec<f32> = (0..n_kv * t * hd).map(|_| rnd()).collect();
            let q: Vec<f32> = (0..n_head * hd).map(|_| rnd()).collect();
            let mut cache = KvCacheF16::default();
            // Two appends, so growth keeps what was cached.
            let split = t / 2;
            for (a, b) in [(0, split), (split, t)] {
                let pick = |x: &[f32]| -> Tensor {
                    let mut o = Vec::new();
                    for h in 0..n_kv {
                        o.extend_from_slice(&x[(h * t + a) * hd..(h * t + b) * hd]);
                    }
                    Tensor::from_vec(o, (n_kv, b - a, hd), &Device::Cpu).unwrap()
                };
                cache.append(&pick(&k), &pick(&v), 8192).unwrap();
            }
            let scale = 1.0 / (hd as f32).sqrt();
            let want = reference(&q, &k, &v, n_head, n_kv, hd, t, scale);
            let got = cache.attend_one(&q, n_head, 0, t, scale);
            for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                // Probabilities are rounded to f16 (2^-11 relative).
                assert!(
                    (g - w).abs() <= 2e-3 * (1.0 + w.abs()),
                    "{n_head}x{hd} t={t} [{i}]: {g} vs {w}"
                );
            }
            // A window (start > 0) sees only its rows.
            let got = cache.attend_one(&q, n_head, t - 1, t, scale);
            for h in 0..n_head {
                for d in 0..hd {
                    let want =
                        f16::from_f32(v[((h / (n_head / n_kv)) * t + t - 1) * hd + d]).to_f32();
                    assert!((got[h * hd + d] - want).abs() < 1e-3);
                }
            }
            let (kt, _) = cache.to_tensors(0, t).unwrap();
            assert_eq!(kt.dims(), &[n_kv, t, hd]);
        }
    }
}
