//! Reference kernels in plain Rust: the definition the SIMD ones must match.

use super::{Format, QActs, QK};

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
        Format::Q8_0 => blk[2 + j] as i8 as i32,
    }
}

/// Dot product of weight row `w` (its blocks) with activation row `row`.
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

/// Outputs of weight rows `r0..` (the rows in `w`, `rb` bytes each) for all
/// activation rows, into `out` (`acts.m` rows of `n`).
///
/// # Safety
/// `out` points to `acts.m * n` floats and `r0 + w.len() / rb <= n`.
pub unsafe fn chunk(
    format: Format,
    w: &[u8],
    rb: usize,
    acts: &QActs,
    r0: usize,
    n: usize,
    out: *mut f32,
) {
    for (i, wrow) in w.chunks_exact(rb).enumerate() {
        for t in 0..acts.m {
            *out.add(t * n + r0 + i) = dot(format, wrow, acts, t);
        }
    }
}
