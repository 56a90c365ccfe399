//! The R8 layout: ggml blocks of 8 consecutive weight rows interleaved, so
//! that one VNNI `dpbusd` computes 4-value dot products for all 8 rows at
//! once and the 8 outputs land in one vector (no horizontal sums), as in
//! llama.cpp's repacked CPU kernels. Lossless and the same size as the ggml
//! layout: a group of 8 rows takes exactly 8 rows' bytes, so row ranges
//! starting at a multiple of 8 address the same bytes in both layouts.
//!
//! Per group of 8 rows and block of 32 columns:
//! * `d`: 8 f16 scales (16 bytes); then `m`: 8 f16 minimums (Q4_1, Q5_1);
//! * `qh`: 8 u32 high-bit words, ggml's per row (Q5_0, Q5_1);
//! * `qs`, Q4/Q5: 4 chunks of 32 bytes; in chunk `i`, row `r`'s 4 bytes hold
//!   values `8i..8i+4` in their low nibbles and `8i+4..8i+8` in their high
//!   nibbles (so `v & 15` is value group `2i`, `v >> 4` group `2i + 1`);
//! * `qs`, Q8_0: 8 chunks of 32 bytes; in chunk `j`, row `r`'s 4 bytes are
//!   values `4j..4j+4` plus 128 (unsigned, for `dpbusd`).

use super::{Format, QK};

/// Rows per interleaved group.
pub const GROUP: usize = 8;

/// Bytes of the per-row header fields in a group block: (d, m, qh).
fn header(format: Format) -> (usize, usize, usize) {
    match format {
        Format::Q4_1 => (16, 16, 0),
        Format::Q5_0 => (16, 0, 32),
        Format::Q5_1 => (16, 16, 32),
        Format::Q8_0 => (16, 0, 0),
    }
}

/// Byte offsets of `m`, `qh` and `qs` inside a group block.
pub const fn offsets(format: Format) -> (usize, usize, usize) {
    match format {
        Format::Q4_1 => (16, 32, 32),
        Format::Q5_0 => (16, 16, 48),
        Format::Q5_1 => (16, 32, 64),
        Format::Q8_0 => (16, 16, 16),
    }
}

/// Repack `n` rows (a multiple of [`GROUP`]) of `k` columns from the ggml
/// layout. Groups are independent, so they are repacked in parallel (this
/// runs once per weight matrix at load).
pub fn repack(format: Format, n: usize, k: usize, ggml: &[u8]) -> Vec<u8> {
    use rayon::prelude::*;
    let bb = format.block_bytes();
    let nb = k / QK;
    let rb = nb * bb;
    let (_, m_bytes, qh_bytes) = header(format);
    let (m_off, qh_off, qs_off) = offsets(format);
    // Where the fields sit in a ggml block.
    let (qh_at, qs_at) = match format {
        Format::Q4_1 => (0, 4),
        Format::Q5_0 => (2, 6),
        Format::Q5_1 => (4, 8),
        Format::Q8_0 => (0, 2),
    };
    let mut out = vec![0u8; ggml.len()];
    out.par_chunks_mut(GROUP * rb)
        .take(n / GROUP)
        .enumerate()
        .for_each(|(g, group)| {
            for b in 0..nb {
                let dst = &mut group[b * GROUP * bb..][..GROUP * bb];
                for r in 0..GROUP {
                    let blk = &ggml[(g * GROUP + r) * rb + b * bb..][..bb];
                    dst[2 * r..2 * r + 2].copy_from_slice(&blk[0..2]);
                    if m_bytes > 0 {
                        dst[m_off + 2 * r..m_off + 2 * r + 2].copy_from_slice(&blk[2..4]);
                    }
                    if qh_bytes > 0 {
                        dst[qh_off + 4 * r..qh_off + 4 * r + 4]
                            .copy_from_slice(&blk[qh_at..qh_at + 4]);
                    }
                    let qs = &blk[qs_at..];
                    if format == Format::Q8_0 {
                        for j in 0..8 {
                            for t in 0..4 {
                                dst[qs_off + j * 32 + r * 4 + t] = qs[4 * j + t] ^ 0x80;
                            }
                        }
                    } else {
                        // ggml byte j holds value j (low nibble) and j + 16
                        // (high nibble); R8 chunk i, byte t holds values
                        // 8i + t (low) and 8i + 4 + t (high).
                        for i in 0..4 {
                            for t in 0..4 {
                                let (a, c) = (8 * i + t, 8 * i + 4 + t);
                                dst[qs_off + i * 32 + r * 4 + t] = if i < 2 {
                                    (qs[a] & 0x0F) | (qs[c] << 4)
                                } else {
                                    (qs[a - 16] >> 4) | (qs[c - 16] & 0xF0)
                                };
                            }
                        }
                    }
                }
            }
        });
    out
}

/// The ggml layout of the groups in `r8` (whole groups of `k` columns):
/// the inverse of [`repack`].
pub fn unpack(format: Format, k: usize, r8: &[u8]) -> Vec<u8> {
    let bb = format.block_bytes();
    let nb = k / QK;
    let rb = nb * bb;
    let groups = r8.len() / (GROUP * rb);
    let (_, m_bytes, qh_bytes) = header(format);
    let (m_off, qh_off, qs_off) = offsets(format);
    let mut out = vec![0u8; r8.len()];
    for g in 0..groups {
        for b in 0..nb {
            let src = &r8[(g * nb + b) * GROUP * bb..][..GROUP * bb];
            for r in 0..GROUP {
                let blk = &mut out[(g * GROUP + r) * rb + b * bb..][..bb];
                blk[0..2].copy_from_slice(&src[2 * r..2 * r + 2]);
                if m_bytes > 0 {
                    blk[2..4].copy_from_slice(&src[m_off + 2 * r..m_off + 2 * r + 2]);
                }
                if qh_bytes > 0 {
                    let at = if format == Format::Q5_0 { 2 } else { 4 };
                    blk[at..at + 4].copy_from_slice(&src[qh_off + 4 * r..qh_off + 4 * r + 4]);
                }
                let qs_at = match format {
                    Format::Q4_1 => 4,
                    Format::Q5_0 => 6,
                    Format::Q5_1 => 8,
                    Format::Q8_0 => 2,
                };
                if format == Format::Q8_0 {
                    for j in 0..8 {
                        for t in 0..4 {
                            blk[qs_at + 4 * j + t] = src[qs_off + j * 32 + r * 4 + t] ^ 0x80;
                        }
                    }
                } else {
                    let mut vals = [0u8; QK];
                    for i in 0..4 {
                        for t in 0..4 {
                            let byte = src[qs_off + i * 32 + r * 4 + t];
                            vals[8 * i + t] = byte & 0x0F;
                            vals[8 * i + 4 + t] = byte >> 4;
                        }
                    }
                    for j in 0..16 {
                        blk[qs_at + j] = vals[j] | (vals[j + 16] << 4);
                    }
                }
            }
        }
    }
    out
}
