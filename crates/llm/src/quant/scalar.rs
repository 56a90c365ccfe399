//! Reference kernels in plain Rust: the definition the SIMD ones must match.

use super::r8::scale_min_k4;
use super::{Acts, Dst, Format, QActs, QActsK, QK, QK_K};

fn f16_at(b: &[u8], at: usize) -> f32 {
    half::f16::from_le_bytes([b[at], b[at + 1]]).to_f32()
}

/// Quantize 32 values as ggml's AVX2 `quantize_row_q8_0/1` does: `id = 127 /
/// max|x|`, round half to even. Returns the (unrounded) scale and `sum(q)`.
pub fn quantize_block(x: &[f32], q: &mut [i8]) -> (f32, i32) {
    let amax = x.iter().fold(0f32, |a, &v| a.max(v.abs()));
    let d = amax / 127.0;
    let id = if amax != 0.0 { 127.0 / amax } else { 0.0 };
    let mut sum = 0i32;
    for (q, &v) in q.iter_mut().zip(x) {
        let r = (v * id).round_ties_even() as i32;
        *q = r as i8;
        sum += r;
    }
    (d, sum)
}

/// Quantize 256 values as ggml's `quantize_row_q8_K_ref`: the value of
/// largest magnitude maps to -127, round half to even. Returns the scale.
pub fn quantize_block_k(x: &[f32], q: &mut [i8]) -> f32 {
    let (mut max, mut amax) = (0f32, 0f32);
    for &v in x {
        if v.abs() > amax {
            amax = v.abs();
            max = v;
        }
    }
    if amax == 0.0 {
        q.fill(0);
        return 0.0;
    }
    let iscale = -127.0 / max;
    for (q, &v) in q.iter_mut().zip(x) {
        *q = ((iscale * v).round_ties_even() as i32).min(127) as i8;
    }
    1.0 / iscale
}

/// Weight value `j` (0..32) of a block as an unsigned integer (Q4: 0..15,
/// Q5: 0..31) or, for Q8_0, signed.
fn wq(format: Format, blk: &[u8], j: usize) -> i32 {
    let nib = |qs: &[u8]| {
        if j < 16 {
            (qs[j] & 0x0F) as i32
        } else {
            (qs[j - 16] >> 4) as i32
        }
    };
    let high = |qh: &[u8]| {
        let h = u32::from_le_bytes([qh[0], qh[1], qh[2], qh[3]]);
        (((h >> j) & 1) << 4) as i32
    };
    match format {
        Format::Q4_1 => nib(&blk[4..20]),
        Format::Q5_0 => nib(&blk[6..22]) | high(&blk[2..6]),
        Format::Q5_1 => nib(&blk[8..24]) | high(&blk[4..8]),
        _ => blk[2 + j] as i8 as i32,
    }
}

/// Dot product of weight row `w` (its blocks, a 32-value format) with
/// activation row `row`.
pub fn dot(format: Format, w: &[u8], acts: &QActs, row: usize) -> f32 {
    let bb = format.block_bytes();
    let mut acc = 0f32;
    let mut acc_min = 0f32;
    for b in 0..acts.nb {
        let blk = &w[b * bb..(b + 1) * bb];
        let ai = row * acts.nb + b;
        let y = &acts.qs[ai * QK..(ai + 1) * QK];
        let mut isum = 0i32;
        for (j, &yj) in y.iter().enumerate() {
            isum += wq(format, blk, j) * yj as i32;
        }
        if format == Format::Q5_0 {
            // Q5_0 values are `q - 16`.
            isum -= 16 * acts.isum[ai];
        }
        acc += f16_at(blk, 0) * acts.d[ai] * isum as f32;
        if format.has_min() {
            acc_min += f16_at(blk, 2) * acts.s[ai];
        }
    }
    acc + acc_min
}

/// The integer sums of one K-quant super-block against Q8_K quants `y`:
/// `(sum of scale * dot over sub-blocks, sum of min * sum(y) over
/// sub-blocks)` (Q6_K has no minimum: its values are `q - 32`).
fn k_block_sums(format: Format, blk: &[u8], y: &[i8], bsums: &[i16]) -> (i32, i32) {
    let dot = |vals: &[u8], y: &[i8]| -> i32 {
        vals.iter().zip(y).map(|(&v, &y)| v as i32 * y as i32).sum()
    };
    if format == Format::Q4K {
        let scales = &blk[4..16];
        let qs = &blk[16..144];
        let (mut sumi, mut summ) = (0i32, 0i32);
        for s in 0..8 {
            let (sc, m) = scale_min_k4(s, scales);
            let (c, high) = (s / 2, s % 2 == 1);
            let vals: Vec<u8> = qs[32 * c..32 * c + 32]
                .iter()
                .map(|&b| if high { b >> 4 } else { b & 0x0F })
                .collect();
            sumi += sc as i32 * dot(&vals, &y[32 * s..32 * s + 32]);
            summ += m as i32 * (bsums[2 * s] as i32 + bsums[2 * s + 1] as i32);
        }
        return (sumi, summ);
    }
    // Q6_K: ql 128, qh 64, 16 signed scales.
    let (ql, qh, sc) = (&blk[0..128], &blk[128..192], &blk[192..208]);
    let mut vals = [0i32; QK_K];
    for n in 0..2 {
        let (ql, qh) = (&ql[64 * n..], &qh[32 * n..]);
        for l in 0..32 {
            let o = 128 * n + l;
            vals[o] = ((ql[l] & 0x0F) | ((qh[l] & 3) << 4)) as i32 - 32;
            vals[o + 32] = ((ql[l + 32] & 0x0F) | (((qh[l] >> 2) & 3) << 4)) as i32 - 32;
            vals[o + 64] = ((ql[l] >> 4) | (((qh[l] >> 4) & 3) << 4)) as i32 - 32;
            vals[o + 96] = ((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4)) as i32 - 32;
        }
    }
    let mut sumi = 0i32;
    for s in 0..16 {
        let d: i32 = (0..16)
            .map(|l| vals[16 * s + l] * y[16 * s + l] as i32)
            .sum();
        sumi += sc[s] as i8 as i32 * d;
    }
    (sumi, 0)
}

/// Dot product of K-quant weight row `w` with activation row `row`: per
/// super-block `d_w * d_y * sumi`, and apart `-dmin_w * d_y * summ`, added
/// last (as ggml's AVX2 kernels keep the minimum terms apart).
pub fn dot_k(format: Format, w: &[u8], acts: &QActsK, row: usize) -> f32 {
    let bb = format.block_bytes();
    let (mut acc, mut acc_min) = (0f32, 0f32);
    for b in 0..acts.nb {
        let blk = &w[b * bb..(b + 1) * bb];
        let ai = row * acts.nb + b;
        let y = &acts.qs[ai * QK_K..(ai + 1) * QK_K];
        let (sumi, summ) = k_block_sums(format, blk, y, &acts.bsums[16 * ai..16 * ai + 16]);
        let d = if format == Format::Q4K {
            f16_at(blk, 0)
        } else {
            f16_at(blk, 208)
        };
        acc += d * acts.d[ai] * sumi as f32;
        if format == Format::Q4K {
            acc_min += -(f16_at(blk, 2) * acts.d[ai]) * summ as f32;
        }
    }
    acc + acc_min
}

/// Outputs of the weight rows in `w` (ggml layout, starting at `dst.col`)
/// for activation rows `tokens`.
///
/// # Safety
/// `dst.out` points to `m * dst.n` floats (`m` the activation rows),
/// `dst.col + rows <= dst.n`, and no one else writes those outputs.
pub unsafe fn tile(
    format: Format,
    w: &[u8],
    acts: &Acts,
    tokens: std::ops::Range<usize>,
    dst: Dst,
) {
    let nb = match acts {
        Acts::Q8(a) => a.nb,
        Acts::Q8K(a) => a.nb,
    };
    let rb = nb * format.block_bytes();
    for (i, wrow) in w.chunks_exact(rb).enumerate() {
        for t in tokens.clone() {
            let v = match acts {
                Acts::Q8(a) => dot(format, wrow, a, t),
                Acts::Q8K(a) => dot_k(format, wrow, a, t),
            };
            *dst.out.add(t * dst.n + dst.col + i) = v;
        }
    }
}
