//! Reading GGUF tensors at load time with as few copies as possible.
//!
//! candle's `Content::tensor` reads each tensor into a fresh buffer and then
//! copies it into the `QTensor`; our kernels then copy (repack) it once more.
//! For a 0.5B model that is three passes and three rounds of page faults over
//! ~0.5 GB, most of the load time. Here every tensor is read into one
//! reused buffer and turned into its final form straight from there.

use std::io::{Read, Seek, SeekFrom};

use candle_core::quantized::{ggml_file, gguf_file, GgmlDType, QTensor};
use candle_core::{bail, Device, Result};

use super::prepared::{Prepared, PreparedWriter};
use crate::quant::{Format, QWeights};

/// The read buffer is kept between tensors up to this size; a larger one
/// (an embedding table) is freed right after use, so it never adds to the
/// peak memory while the rest of the model loads.
const KEEP_BUFFER_BYTES: usize = 32 << 20;

/// What [`TensorReader::matrix`] does with a prepared-weights file
/// ([`super::prepared`]).
pub enum PreparedUse<'p> {
    /// Nothing: every matrix is read from the GGUF.
    None,
    /// Matrices come from this mapped file (the GGUF for any it lacks).
    Read(&'p Prepared),
    /// Every matrix read is also written to this file; a write error drops
    /// the file (reported by [`TensorReader::write_error`]), never the load.
    Write(PreparedWriter),
}

/// A GGUF file's tensors, read by name.
pub struct TensorReader<'a, R> {
    ct: &'a gguf_file::Content,
    r: &'a mut R,
    buf: Vec<u8>,
    prepared: PreparedUse<'a>,
    write_error: Option<std::io::Error>,
}

impl<'a, R: Read + Seek> TensorReader<'a, R> {
    pub fn new(ct: &'a gguf_file::Content, r: &'a mut R) -> Self {
        Self::with_prepared(ct, r, PreparedUse::None)
    }

    pub fn with_prepared(
        ct: &'a gguf_file::Content,
        r: &'a mut R,
        prepared: PreparedUse<'a>,
    ) -> Self {
        Self {
            ct,
            r,
            buf: Vec::new(),
            prepared,
            write_error: None,
        }
    }

    /// The writer of [`PreparedUse::Write`], once every matrix went through
    /// it (`None` after a write error or with another use).
    pub fn into_writer(self) -> Option<PreparedWriter> {
        match self.prepared {
            PreparedUse::Write(w) => Some(w),
            _ => None,
        }
    }

    /// Why the prepared file could not be written, if it could not.
    pub fn write_error(&self) -> Option<&std::io::Error> {
        self.write_error.as_ref()
    }

    pub fn contains(&self, name: &str) -> bool {
        self.ct.tensor_infos.contains_key(name)
    }

    /// The tensor's ggml type, dims (GGUF order reversed, as candle's) and bytes.
    fn raw(&mut self, name: &str) -> Result<(GgmlDType, Vec<usize>, &[u8])> {
        let Some(info) = self.ct.tensor_infos.get(name) else {
            bail!("cannot find tensor info for {name}");
        };
        let dtype = info.ggml_dtype;
        let elems = info.shape.elem_count();
        if elems % dtype.block_size() != 0 {
            bail!(
                "tensor {name}: {elems} values are not a whole number of {:?} blocks",
                dtype
            );
        }
        let bytes = elems / dtype.block_size() * dtype.type_size();
        // Checked before allocating: a corrupt header must not ask for
        // more memory than the file could hold.
        let start = self.ct.tensor_data_offset.saturating_add(info.offset);
        let file_len = self.r.seek(SeekFrom::End(0))?;
        if start.saturating_add(bytes as u64) > file_len {
            bail!(
                "tensor {name}: {bytes} bytes at offset {start} run past the end of the file ({file_len} bytes)"
            );
        }
        if self.buf.len() < bytes {
            self.buf.resize(bytes, 0);
        }
        self.r.seek(SeekFrom::Start(start))?;
        self.r.read_exact(&mut self.buf[..bytes])?;
        Ok((dtype, info.shape.dims().to_vec(), &self.buf[..bytes]))
    }

    /// The tensor as candle's `QTensor` (on the CPU).
    pub fn qtensor(&mut self, name: &str) -> Result<QTensor> {
        let (dtype, dims, bytes) = self.raw(name)?;
        let t = ggml_file::qtensor_from_ggml(dtype, bytes, dims, &Device::Cpu);
        self.trim();
        t
    }

    /// A weight matrix in the layout this CPU's fastest kernel reads when
    /// its format has a kernel in [`crate::quant`], else a `QTensor`.
    pub fn matrix(&mut self, name: &str) -> Result<Matrix> {
        if let (PreparedUse::Read(p), Some(info)) = (&self.prepared, self.ct.tensor_infos.get(name))
        {
            if let (Some(format), [n, k]) = (Format::from_ggml(info.ggml_dtype), info.shape.dims())
            {
                if let Some(w) = p.matrix(name, format, (*n, *k)) {
                    return Ok(Matrix::Ours(w));
                }
            }
        }
        let (dtype, dims, bytes) = self.raw(name)?;
        let m = match (Format::from_ggml(dtype), dims.as_slice()) {
            (Some(format), [n, k]) if QWeights::runs_here(format, *n) => {
                QWeights::from_ggml_bytes_for_this_cpu(format, *n, *k, bytes).map(Matrix::Ours)
            }
            _ => ggml_file::qtensor_from_ggml(dtype, bytes, dims, &Device::Cpu).map(Matrix::Candle),
        };
        self.trim();
        if let (Ok(Matrix::Ours(w)), PreparedUse::Write(writer)) = (&m, &mut self.prepared) {
            if let Err(e) = writer.add(name, w) {
                self.write_error = Some(e);
                self.prepared = PreparedUse::None;
            }
        }
        m
    }

    fn trim(&mut self) {
        if self.buf.len() > KEEP_BUFFER_BYTES {
            self.buf = Vec::new();
        }
    }
}

/// A weight matrix as read by [`TensorReader::matrix`].
pub enum Matrix {
    Ours(QWeights),
    Candle(QTensor),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quant::tests::Rng;
    use candle_core::Tensor;
    use gguf_file::Value;

    fn rand_tensor(shape: (usize, usize), seed: u64) -> Tensor {
        let data = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1).vec(shape.0 * shape.1);
        Tensor::from_vec(data, shape, &Device::Cpu).unwrap()
    }

    /// Matrices of each route (R8-repacked, ggml layout because 12 rows are
    /// not a multiple of 8, K-quants repacked, a K-quant of 12 rows left to
    /// candle on SIMD levels, a type we have no kernel for), a vector, and
    /// one large enough to be read into a buffer that is then freed.
    fn tensors() -> Vec<(&'static str, QTensor)> {
        let q = |shape, dtype, seed| QTensor::quantize(&rand_tensor(shape, seed), dtype).unwrap();
        let big_rows = (KEEP_BUFFER_BYTES / (256 / 32 * 34)) + 8;
        vec![
            ("big", q((big_rows, 256), GgmlDType::Q8_0, 1)),
            ("q5_0", q((64, 256), GgmlDType::Q5_0, 2)),
            ("q8_0_12_rows", q((12, 256), GgmlDType::Q8_0, 3)),
            ("q4_1", q((16, 256), GgmlDType::Q4_1, 4)),
            ("q6k", q((16, 256), GgmlDType::Q6K, 5)),
            ("q4k", q((24, 512), GgmlDType::Q4K, 7)),
            ("q4k_12_rows", q((12, 256), GgmlDType::Q4K, 8)),
            ("q5k", q((8, 256), GgmlDType::Q5K, 10)),
            ("norm", q((1, 256), GgmlDType::F32, 6)),
        ]
    }

    fn write(path: &std::path::Path, tensors: &[(&str, QTensor)]) {
        let arch = Value::String("test".into());
        let t: Vec<(&str, &QTensor)> = tensors.iter().map(|(n, t)| (*n, t)).collect();
        let mut f = std::fs::File::create(path).unwrap();
        gguf_file::write(&mut f, &[("general.architecture", &arch)], &t).unwrap();
    }

    fn same_values(a: &QTensor, b: &QTensor) -> bool {
        let (a, b) = (
            a.dequantize(&Device::Cpu).unwrap(),
            b.dequantize(&Device::Cpu).unwrap(),
        );
        a.dims() == b.dims()
            && a.flatten_all().unwrap().to_vec1::<f32>().unwrap()
                == b.flatten_all().unwrap().to_vec1::<f32>().unwrap()
    }

    #[test]
    fn every_route_reads_what_candle_reads() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.gguf");
        let written = tensors();
        write(&path, &written);
        let mut f = std::io::BufReader::new(std::fs::File::open(&path).unwrap());
        let ct = gguf_file::Content::read(&mut f).unwrap();
        let mut by_candle = std::io::BufReader::new(std::fs::File::open(&path).unwrap());
        let mut r = TensorReader::new(&ct, &mut f);
        // Read in an order that makes the small tensors follow the big one.
        for (name, _) in &written {
            let reference = ct.tensor(&mut by_candle, name, &Device::Cpu).unwrap();
            assert!(same_values(&r.qtensor(name).unwrap(), &reference), "{name}");
            if *name == "norm" {
                continue;
            }
            match r.matrix(name).unwrap() {
                Matrix::Ours(w) => {
                    let via_candle = QWeights::from_qtensor_for_this_cpu(&reference)
                        .unwrap()
                        .expect("a format with our kernels");
                    assert_eq!(w.layout(), via_candle.layout(), "{name}");
                    let (n, k) = w.dims();
                    let x = rand_tensor((3, k), 9)
                        .flatten_all()
                        .unwrap()
                        .to_vec1()
                        .unwrap();
                    let (mut a, mut b) = (vec![0f32; 3 * n], vec![0f32; 3 * n]);
                    let kernel = crate::quant::Kernel::best();
                    w.matmul_f32(&x, 3, &mut a, kernel).unwrap();
                    via_candle.matmul_f32(&x, 3, &mut b, kernel).unwrap();
                    assert_eq!(a, b, "{name}");
                }
                Matrix::Candle(t) => {
                    let simd = crate::quant::Kernel::best() != crate::quant::Kernel::Scalar;
                    assert!(*name == "q5k" || (simd && *name == "q4k_12_rows"), "{name}");
                    assert!(same_values(&t, &reference), "{name}");
                }
            }
        }
        assert!(r.buf.len() <= KEEP_BUFFER_BYTES);
    }

    #[test]
    fn a_truncated_file_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.gguf");
        write(&path, &tensors()[1..]);
        let len = std::fs::metadata(&path).unwrap().len();
        let f = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        f.set_len(len - 100).unwrap();
        let mut f = std::io::BufReader::new(std::fs::File::open(&path).unwrap());
        let ct = gguf_file::Content::read(&mut f).unwrap();
        let mut r = TensorReader::new(&ct, &mut f);
        assert!(r.matrix("q5_0").is_ok());
        let err = r.qtensor("norm").unwrap_err().to_string();
        assert!(err.contains("run past the end of the file"), "{err}");
        assert!(r.matrix("missing").is_err());
    }
}
