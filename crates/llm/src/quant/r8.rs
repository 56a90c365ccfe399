//! The R8 layouts: ggml blocks of 8 consecutive weight rows interleaved, so
//! that one integer dot instruction (`vpdpbusd`, or `vpmaddubsw` under AVX2)
//! computes 4-value dot products for all 8 rows at once and the 8 outputs
//! land in one vector (no horizontal sums), as in llama.cpp's repacked CPU
//! kernels. Every SIMD level reads them; they are lossless.
//!
//! A "value group" `j` is 4 consecutive values `4j..4j+4` of a block; in a
//! 32-byte chunk holding group `j` for 8 rows, row `r`'s 4 bytes are
//! `4r..4r+4`.
//!
//! Per group of 8 rows and block of 32 columns (Q4_1, Q5_0, Q5_1, Q8_0; the
//! same size as the ggml blocks, so row ranges starting at a multiple of 8
//! address the same bytes in both layouts):
//! * `d`: 8 f16 scales (16 bytes); then `m`: 8 f16 minimums (Q4_1, Q5_1);
//! * `qh` (Q5_0, Q5_1): 32 bytes; byte `4r + t`, bit `j`, is the fifth bit
//!   of value `4j + t` of row `r` (so one shift and one mask give group
//!   `j`'s fifth bits for all 8 rows);
//! * `qs`, Q4/Q5: 4 chunks of 32 bytes; in chunk `i`, row `r`'s 4 bytes hold
//!   group `2i` in their low nibbles and group `2i + 1` in their high
//!   nibbles;
//! * `qs`, Q8_0: 8 chunks of 32 bytes, chunk `j` holding group `j` (signed).
//!
//! Per group of 8 rows and super-block of 256 columns (K-quants):
//! * Q4_K (1,184 bytes, 8 rows' 1,152 plus their scales unpacked): `d`, `dmin`
//!   (8 f16 each); `scales`: 8 sub-blocks x 8 rows, one byte each (the 6-bit
//!   values); `mins`: 4 pairs of sub-blocks x 8 rows x 2 bytes (sub-blocks
//!   `2p`, `2p + 1`); `qs`: per sub-block of 32 values, the 4 chunks of a
//!   Q4 block above;
//! * Q6_K (1,680 bytes, the same size): `d` (8 f16); `scales`: 16 sub-blocks
//!   of 16 values x 8 rows, signed bytes; per block of 32 values (sub-blocks
//!   `2b`, `2b + 1`): `ql`, the low 4 bits as the 4 chunks of a Q4 block, then
//!   `qh`, 2 chunks of 32 bytes: byte `4r + t` of chunk `h`, bits `2q, 2q+1`,
//!   are the high 2 bits of value `4(4h + q) + t` of row `r`.

use super::{Format, QK, QK_K};

/// Rows per interleaved group.
pub const GROUP: usize = 8;

/// Bytes of one group's block (8 rows of one block of `format`).
pub const fn group_block_bytes(format: Format) -> usize {
    match format {
        Format::Q4K => 1184,
        _ => GROUP * format.block_bytes(),
    }
}

/// Byte offsets of `m`, `qh` and `qs` inside a group block (32-value formats).
pub const fn offsets(format: Format) -> (usize, usize, usize) {
    match format {
        Format::Q4_1 => (16, 32, 32),
        Format::Q5_0 => (16, 16, 48),
        Format::Q5_1 => (16, 32, 64),
        _ => (16, 16, 16),
    }
}

/// Q4_K group block: offsets of `dmin`, `scales`, `mins`, `qs`.
pub const Q4K_DMIN: usize = 16;
pub const Q4K_SCALES: usize = 32;
pub const Q4K_MINS: usize = 96;
pub const Q4K_QS: usize = 160;
/// Q6_K group block: offsets of `scales` and of the first 32-value block.
pub const Q6K_SCALES: usize = 16;
pub const Q6K_QS: usize = 144;
/// Bytes per 32-value block of a Q6_K group (`ql` 128, `qh` 64).
pub const Q6K_BLOCK: usize = 192;

/// Where the fields sit in a ggml block of a 32-value format: (d, m, qh, qs).
const fn ggml_fields(format: Format) -> (usize, Option<usize>, Option<usize>, usize) {
    match format {
        Format::Q4_1 => (0, Some(2), None, 4),
        Format::Q5_0 => (0, None, Some(2), 6),
        Format::Q5_1 => (0, Some(2), Some(4), 8),
        _ => (0, None, None, 2),
    }
}

/// Writes 32 4-bit values of one row as the 4 R8 chunks at `dst` (128 bytes
/// for the 8 rows of a group).
fn put_nibbles(dst: &mut [u8], r: usize, vals: &[u8]) {
    for i in 0..4 {
        for t in 0..4 {
            dst[i * 32 + r * 4 + t] = (vals[8 * i + t] & 0x0F) | (vals[8 * i + 4 + t] << 4);
        }
    }
}

/// The little-endian word of `b` at `at`.
fn word(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// Row `r`'s word of an R8 nibble chunk, from 8 bytes whose low (or, with
/// `high`, high) nibbles hold the chunk's 8 values in order: the first 4
/// (`a`) go to the low nibbles, the next 4 (`b`) to the high ones. The word
/// form of [`put_nibbles`], for the load-time repack.
fn put_nibble_word(dst: &mut [u8], r: usize, i: usize, a: u32, b: u32, high: bool) {
    const LO: u32 = 0x0F0F_0F0F;
    let w = if high {
        ((a >> 4) & LO) | (b & !LO)
    } else {
        (a & LO) | ((b & LO) << 4)
    };
    dst[i * 32 + r * 4..][..4].copy_from_slice(&w.to_le_bytes());
}

/// Bits `4j + t` (j = 0..8) of `qh` as bits `j` of a byte.
fn every_fourth_bit(qh: u32, t: usize) -> u8 {
    let mut x = (qh >> t) & 0x1111_1111;
    x = (x | (x >> 3)) & 0x0303_0303;
    x = (x | (x >> 6)) & 0x000F_000F;
    ((x | (x >> 12)) & 0xFF) as u8
}

/// The inverse of [`put_nibbles`].
fn get_nibbles(src: &[u8], r: usize) -> [u8; QK] {
    let mut vals = [0u8; QK];
    for i in 0..4 {
        for t in 0..4 {
            let byte = src[i * 32 + r * 4 + t];
            vals[8 * i + t] = byte & 0x0F;
            vals[8 * i + 4 + t] = byte >> 4;
        }
    }
    vals
}

/// One group block of a 32-value format from the 8 rows' ggml blocks.
fn pack32(format: Format, rows: [&[u8]; GROUP], dst: &mut [u8]) {
    let (m_off, qh_off, qs_off) = offsets(format);
    let (d_at, m_at, qh_at, qs_at) = ggml_fields(format);
    for (r, blk) in rows.iter().enumerate() {
        dst[2 * r..2 * r + 2].copy_from_slice(&blk[d_at..d_at + 2]);
        if let Some(m) = m_at {
            dst[m_off + 2 * r..m_off + 2 * r + 2].copy_from_slice(&blk[m..m + 2]);
        }
        let qs = &blk[qs_at..];
        if format == Format::Q8_0 {
            for j in 0..8 {
                dst[qs_off + j * 32 + r * 4..][..4].copy_from_slice(&qs[4 * j..4 * j + 4]);
            }
            continue;
        }
        // Values 0..16 are the low nibbles of the 16 bytes, 16..32 the high.
        for i in 0..4 {
            let at = 8 * (i % 2);
            let (a, b) = (word(qs, at), word(qs, at + 4));
            put_nibble_word(&mut dst[qs_off..], r, i, a, b, i >= 2);
        }
        if let Some(h) = qh_at {
            let qh = word(blk, h);
            for t in 0..4 {
                dst[qh_off + 4 * r + t] = every_fourth_bit(qh, t);
            }
        }
    }
}

/// The 8 rows' ggml blocks from one group block: the inverse of [`pack32`].
fn unpack32(format: Format, src: &[u8], rows: &mut [&mut [u8]]) {
    let (m_off, qh_off, qs_off) = offsets(format);
    let (d_at, m_at, qh_at, qs_at) = ggml_fields(format);
    for (r, blk) in rows.iter_mut().enumerate() {
        blk[d_at..d_at + 2].copy_from_slice(&src[2 * r..2 * r + 2]);
        if let Some(m) = m_at {
            blk[m..m + 2].copy_from_slice(&src[m_off + 2 * r..m_off + 2 * r + 2]);
        }
        if format == Format::Q8_0 {
            for j in 0..8 {
                blk[qs_at + 4 * j..qs_at + 4 * j + 4]
                    .copy_from_slice(&src[qs_off + j * 32 + r * 4..][..4]);
            }
            continue;
        }
        let vals = get_nibbles(&src[qs_off..], r);
        for j in 0..16 {
            blk[qs_at + j] = vals[j] | (vals[j + 16] << 4);
        }
        if let Some(h) = qh_at {
            let mut qh = 0u32;
            for t in 0..4 {
                let byte = src[qh_off + 4 * r + t];
                for j in 0..8 {
                    qh |= (((byte >> j) & 1) as u32) << (4 * j + t);
                }
            }
            blk[h..h + 4].copy_from_slice(&qh.to_le_bytes());
        }
    }
}

/// ggml's 6-bit scale and min of sub-block `j` of a Q4_K/Q5_K super-block.
pub fn scale_min_k4(j: usize, s: &[u8]) -> (u8, u8) {
    if j < 4 {
        (s[j] & 63, s[j + 4] & 63)
    } else {
        (
            (s[j + 4] & 0x0F) | ((s[j - 4] >> 6) << 4),
            (s[j + 4] >> 4) | ((s[j] >> 6) << 4),
        )
    }
}

/// ggml's 12 scale bytes from 8 (scale, min) pairs of 6 bits.
fn pack_scale_min_k4(sm: &[(u8, u8); 8]) -> [u8; 12] {
    let mut s = [0u8; 12];
    for j in 0..4 {
        s[j] = sm[j].0 | ((sm[j + 4].0 >> 4) << 6);
        s[j + 4] = sm[j].1 | ((sm[j + 4].1 >> 4) << 6);
        s[j + 8] = (sm[j + 4].0 & 0x0F) | ((sm[j + 4].1 & 0x0F) << 4);
    }
    s
}

/// The 256 6-bit values (0..63, real value minus 32) of a Q6_K super-block.
fn q6k_values(ql: &[u8], qh: &[u8]) -> [u8; QK_K] {
    let mut v = [0u8; QK_K];
    for n in 0..2 {
        let (ql, qh) = (&ql[64 * n..], &qh[32 * n..]);
        for l in 0..32 {
            let o = 128 * n + l;
            v[o] = (ql[l] & 0x0F) | ((qh[l] & 3) << 4);
            v[o + 32] = (ql[l + 32] & 0x0F) | (((qh[l] >> 2) & 3) << 4);
            v[o + 64] = (ql[l] >> 4) | (((qh[l] >> 4) & 3) << 4);
            v[o + 96] = (ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4);
        }
    }
    v
}

/// The inverse of [`q6k_values`]: (ql, qh).
fn q6k_bits(v: &[u8; QK_K]) -> ([u8; 128], [u8; 64]) {
    let (mut ql, mut qh) = ([0u8; 128], [0u8; 64]);
    for n in 0..2 {
        for l in 0..32 {
            let o = 128 * n + l;
            ql[64 * n + l] = (v[o] & 0x0F) | ((v[o + 64] & 0x0F) << 4);
            ql[64 * n + l + 32] = (v[o + 32] & 0x0F) | ((v[o + 96] & 0x0F) << 4);
            qh[32 * n + l] = (v[o] >> 4)
                | ((v[o + 32] >> 4) << 2)
                | ((v[o + 64] >> 4) << 4)
                | ((v[o + 96] >> 4) << 6);
        }
    }
    (ql, qh)
}

/// One Q4_K group block from the 8 rows' ggml super-blocks (144 bytes each:
/// d, dmin, 12 scale bytes, 128 nibble bytes).
fn pack_q4k(rows: [&[u8]; GROUP], dst: &mut [u8]) {
    for (r, blk) in rows.iter().enumerate() {
        dst[2 * r..2 * r + 2].copy_from_slice(&blk[0..2]);
        dst[Q4K_DMIN + 2 * r..Q4K_DMIN + 2 * r + 2].copy_from_slice(&blk[2..4]);
        let scales = &blk[4..16];
        for s in 0..8 {
            let (sc, m) = scale_min_k4(s, scales);
            dst[Q4K_SCALES + 8 * s + r] = sc;
            dst[Q4K_MINS + 16 * (s / 2) + 2 * r + s % 2] = m;
        }
        // Sub-blocks 2c and 2c + 1 are the low and high nibbles of the
        // 32 bytes of chunk c.
        let qs = &blk[16..144];
        for s in 0..8 {
            let out = &mut dst[Q4K_QS + 128 * s..];
            for i in 0..4 {
                let at = 32 * (s / 2) + 8 * i;
                put_nibble_word(out, r, i, word(qs, at), word(qs, at + 4), s % 2 == 1);
            }
        }
    }
}

fn unpack_q4k(src: &[u8], rows: &mut [&mut [u8]]) {
    for (r, blk) in rows.iter_mut().enumerate() {
        blk[0..2].copy_from_slice(&src[2 * r..2 * r + 2]);
        blk[2..4].copy_from_slice(&src[Q4K_DMIN + 2 * r..Q4K_DMIN + 2 * r + 2]);
        let mut sm = [(0u8, 0u8); 8];
        for (s, p) in sm.iter_mut().enumerate() {
            *p = (
                src[Q4K_SCALES + 8 * s + r],
                src[Q4K_MINS + 16 * (s / 2) + 2 * r + s % 2],
            );
        }
        blk[4..16].copy_from_slice(&pack_scale_min_k4(&sm));
        let mut v = [0u8; QK_K];
        for s in 0..8 {
            v[32 * s..32 * s + 32].copy_from_slice(&get_nibbles(&src[Q4K_QS + 128 * s..], r));
        }
        for c in 0..4 {
            for l in 0..32 {
                blk[16 + 32 * c + l] = v[64 * c + l] | (v[64 * c + 32 + l] << 4);
            }
        }
    }
}

/// One Q6_K group block from the 8 rows' ggml super-blocks (210 bytes each:
/// ql 128, qh 64, 16 signed scales, d).
fn pack_q6k(rows: [&[u8]; GROUP], dst: &mut [u8]) {
    for (r, blk) in rows.iter().enumerate() {
        dst[2 * r..2 * r + 2].copy_from_slice(&blk[208..210]);
        for s in 0..16 {
            dst[Q6K_SCALES + 8 * s + r] = blk[192 + s];
        }
        let v = q6k_values(&blk[0..128], &blk[128..192]);
        for b in 0..8 {
            let vals = &v[32 * b..32 * b + 32];
            let at = Q6K_QS + Q6K_BLOCK * b;
            put_nibbles(&mut dst[at..], r, vals);
            for h in 0..2 {
                for t in 0..4 {
                    let mut byte = 0u8;
                    for q in 0..4 {
                        byte |= (vals[4 * (4 * h + q) + t] >> 4) << (2 * q);
                    }
                    dst[at + 128 + 32 * h + 4 * r + t] = byte;
                }
            }
        }
    }
}

fn unpack_q6k(src: &[u8], rows: &mut [&mut [u8]]) {
    for (r, blk) in rows.iter_mut().enumerate() {
        blk[208..210].copy_from_slice(&src[2 * r..2 * r + 2]);
        for s in 0..16 {
            blk[192 + s] = src[Q6K_SCALES + 8 * s + r];
        }
        let mut v = [0u8; QK_K];
        for b in 0..8 {
            let at = Q6K_QS + Q6K_BLOCK * b;
            let low = get_nibbles(&src[at..], r);
            for (i, &lo) in low.iter().enumerate() {
                let (j, t) = (i / 4, i % 4);
                let byte = src[at + 128 + 32 * (j / 4) + 4 * r + t];
                v[32 * b + i] = lo | (((byte >> (2 * (j % 4))) & 3) << 4);
            }
        }
        let (ql, qh) = q6k_bits(&v);
        blk[0..128].copy_from_slice(&ql);
        blk[128..192].copy_from_slice(&qh);
    }
}

/// Bytes of one weight row in the ggml layout.
fn ggml_row_bytes(format: Format, k: usize) -> usize {
    k / format.block_values() * format.block_bytes()
}

/// Repack `n` rows (a multiple of [`GROUP`]) of `k` columns from the ggml
/// layout. Groups are independent, so they are repacked in parallel (this
/// runs once per weight matrix at load).
pub fn repack(format: Format, n: usize, k: usize, ggml: &[u8]) -> Vec<u8> {
    use rayon::prelude::*;
    let bb = format.block_bytes();
    let nb = k / format.block_values();
    let rb = nb * bb;
    let gbb = group_block_bytes(format);
    let mut out = vec![0u8; n / GROUP * nb * gbb];
    out.par_chunks_mut(nb * gbb)
        .enumerate()
        .for_each(|(g, group)| {
            for (b, dst) in group.chunks_exact_mut(gbb).enumerate() {
                let rows: [&[u8]; GROUP] =
                    std::array::from_fn(|r| &ggml[(g * GROUP + r) * rb + b * bb..][..bb]);
                match format {
                    Format::Q4K => pack_q4k(rows, dst),
                    Format::Q6K => pack_q6k(rows, dst),
                    _ => pack32(format, rows, dst),
                }
            }
        });
    out
}

/// The ggml layout of the groups in `r8` (whole groups of `k` columns):
/// the inverse of [`repack`].
pub fn unpack(format: Format, k: usize, r8: &[u8]) -> Vec<u8> {
    let bb = format.block_bytes();
    let nb = k / format.block_values();
    let rb = ggml_row_bytes(format, k);
    let gbb = group_block_bytes(format);
    let groups = r8.len() / (nb * gbb);
    let mut out = vec![0u8; groups * GROUP * rb];
    for (g, rows8) in out.chunks_exact_mut(GROUP * rb).enumerate() {
        for b in 0..nb {
            let src = &r8[(g * nb + b) * gbb..][..gbb];
            let mut rows: Vec<&mut [u8]> = rows8
                .chunks_exact_mut(rb)
                .map(|row| &mut row[b * bb..(b + 1) * bb])
                .collect();
            match format {
                Format::Q4K => unpack_q4k(src, &mut rows),
                Format::Q6K => unpack_q6k(src, &mut rows),
                _ => unpack32(format, src, &mut rows),
            }
        }
    }
    out
}
