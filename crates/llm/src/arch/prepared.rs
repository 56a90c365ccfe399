//! Prepared weights: a GGUF's matrices in the layout our kernels read,
//! written to a file once and mapped read-only by every later load.
//!
//! Repacking at load reads every weight byte and writes it again into fresh
//! memory that the kernel first zeroes; for a 0.5B model that is most of the
//! load time. A mapped prepared file costs neither: its pages come straight
//! from the page cache, and processes loading the same model share them.
//!
//! A file is keyed by the GGUF's size, modification time and tensor table,
//! by whether this process repacks ([`crate::quant::Kernel`] has SIMD), and
//! by [`LAYOUT_VERSION`]. A file whose key or structure does not match is
//! ignored and replaced. Files are written under a temporary name, synced
//! and renamed into place, never changed in place, so a map another process
//! holds stays valid.
//!
//! Layout (little-endian): a header (magic, version, key, entry count, index
//! offset and length), the matrices from [`DATA_START`], each at a multiple
//! of [`ALIGN`], then the index: per matrix its name, format, layout, rows,
//! columns, offset and length.

use std::collections::HashMap;
use std::fs::{self, File};
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use candle_core::quantized::gguf_file;
use memmap2::{Mmap, MmapOptions};

use crate::quant::{Format, Layout, QWeights};

/// Bumped whenever a layout in [`crate::quant::r8`] changes.
pub const LAYOUT_VERSION: u32 = 1;
const MAGIC: &[u8; 8] = b"CNTYPREP";
const HEADER_BYTES: usize = 8 + 4 + 4 + 8 + 8 + 8 + 8;
/// Where the first matrix starts (a page, so the data is page-aligned).
pub const DATA_START: u64 = 4096;
/// Alignment of every matrix in the file (a cache line).
pub const ALIGN: u64 = 64;
/// The file name's extension.
const EXTENSION: &str = "prepared";

/// 64-bit FNV-1a: a stable hash for the key (std's hasher may change
/// between Rust releases; a changed key would only cost a re-preparation,
/// but a stable one keeps files valid across builds of the same layout).
#[derive(Clone, Copy)]
struct Fnv(u64);

impl Fnv {
    fn new() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn bytes(mut self, b: &[u8]) -> Self {
        for &x in b {
            self.0 = (self.0 ^ u64::from(x)).wrapping_mul(0x0000_0100_0000_01b3);
        }
        self
    }

    fn u64(self, v: u64) -> Self {
        self.bytes(&v.to_le_bytes())
    }
}

/// The key of the prepared file for the GGUF with metadata `meta` and
/// tensor table `ct`, loaded by a process that repacks when `repacks`.
pub fn key(meta: &fs::Metadata, ct: &gguf_file::Content, repacks: bool) -> u64 {
    let mtime = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos() as u64);
    let mut h = Fnv::new()
        .u64(u64::from(LAYOUT_VERSION))
        .u64(meta.len())
        .u64(mtime)
        .u64(u64::from(repacks));
    let mut names: Vec<&String> = ct.tensor_infos.keys().collect();
    names.sort();
    for name in names {
        let info = &ct.tensor_infos[name];
        h = h
            .bytes(name.as_bytes())
            .bytes(format!("{:?}", info.ggml_dtype).as_bytes())
            .u64(info.offset);
        for &d in info.shape.dims() {
            h = h.u64(d as u64);
        }
    }
    h.0
}

/// The prepared file for `gguf` under `dir` with `key`.
pub fn path_for(dir: &Path, gguf: &Path, key: u64) -> PathBuf {
    let stem = gguf
        .file_stem()
        .map_or_else(|| "model".into(), |s| s.to_string_lossy());
    dir.join(format!("{stem}-{key:016x}.{EXTENSION}"))
}

fn format_code(f: Format) -> u8 {
    match f {
        Format::Q4_1 => 0,
        Format::Q5_0 => 1,
        Format::Q5_1 => 2,
        Format::Q8_0 => 3,
        Format::Q4K => 4,
        Format::Q6K => 5,
    }
}

fn format_of(code: u8) -> Option<Format> {
    [
        Format::Q4_1,
        Format::Q5_0,
        Format::Q5_1,
        Format::Q8_0,
        Format::Q4K,
        Format::Q6K,
    ]
    .get(usize::from(code))
    .copied()
}

/// One matrix of a prepared file.
#[derive(Debug, Clone, Copy)]
struct Entry {
    format: Format,
    layout: Layout,
    n: usize,
    k: usize,
    start: usize,
    len: usize,
}

/// A prepared file, mapped.
pub struct Prepared {
    path: PathBuf,
    map: Arc<Mmap>,
    entries: HashMap<String, Entry>,
}

/// Reads the index with bounds checks; `None` for anything malformed.
struct Cursor<'a> {
    b: &'a [u8],
    at: usize,
}

impl Cursor<'_> {
    fn take(&mut self, n: usize) -> Option<&[u8]> {
        let s = self.b.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(s)
    }

    fn u8(&mut self) -> Option<u8> {
        self.take(1).map(|b| b[0])
    }

    fn u32(&mut self) -> Option<u32> {
        self.take(4)?.try_into().ok().map(u32::from_le_bytes)
    }

    fn u64(&mut self) -> Option<u64> {
        self.take(8)?.try_into().ok().map(u64::from_le_bytes)
    }

    fn usize(&mut self) -> Option<usize> {
        self.u64().and_then(|v| usize::try_from(v).ok())
    }
}

impl Prepared {
    /// The file at `path` if it exists and is a well-formed prepared file
    /// with `key`; `None` otherwise (a file that does not fit is treated
    /// as absent: it will be replaced).
    pub fn open(path: &Path, key: u64) -> Option<Self> {
        let file = File::open(path).ok()?;
        // SAFETY: prepared files are never modified in place (see the
        // module comment), so the mapped bytes do not change under us.
        // Not populated: pages are mapped as the first forward pass reads
        // them (minor faults, fault-around), after the tokenizer's build has
        // freed its transient memory, so the two do not add to the peak.
        let map = unsafe { MmapOptions::new().map(&file) }.ok()?;
        let entries = Self::index(&map, key)?;
        Some(Self {
            path: path.to_path_buf(),
            map: Arc::new(map),
            entries,
        })
    }

    fn index(map: &[u8], key: u64) -> Option<HashMap<String, Entry>> {
        let mut h = Cursor { b: map, at: 0 };
        if h.take(8)? != MAGIC || h.u32()? != LAYOUT_VERSION {
            return None;
        }
        let _reserved = h.u32()?;
        if h.u64()? != key {
            return None;
        }
        let (count, index_at, index_len) = (h.usize()?, h.usize()?, h.usize()?);
        let mut c = Cursor {
            b: map.get(index_at..index_at.checked_add(index_len)?)?,
            at: 0,
        };
        let mut entries = HashMap::with_capacity(count);
        for _ in 0..count {
            let name_len = c.u32()? as usize;
            let name = std::str::from_utf8(c.take(name_len)?).ok()?.to_string();
            let format = format_of(c.u8()?)?;
            let layout = match c.u8()? {
                0 => Layout::Ggml,
                1 => Layout::R8,
                _ => return None,
            };
            let (n, k, start, len) = (c.usize()?, c.usize()?, c.usize()?, c.usize()?);
            if start < DATA_START as usize || start.checked_add(len)? > index_at {
                return None;
            }
            let e = Entry {
                format,
                layout,
                n,
                k,
                start,
                len,
            };
            if entries.insert(name, e).is_some() {
                return None;
            }
        }
        (c.at == index_len).then_some(entries)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The prepared matrix `name`, if the file has it with this format and
    /// these `(n, k)` (what the GGUF's tensor table says).
    pub fn matrix(&self, name: &str, format: Format, dims: (usize, usize)) -> Option<QWeights> {
        let e = self.entries.get(name)?;
        if e.format != format || (e.n, e.k) != dims {
            return None;
        }
        QWeights::mapped(
            e.format,
            e.layout,
            (e.n, e.k),
            self.map.clone(),
            (e.start, e.len),
        )
        .ok()
    }
}

/// Writes a prepared file as a model loads, matrix by matrix.
pub struct PreparedWriter {
    dest: PathBuf,
    tmp: PathBuf,
    file: BufWriter<File>,
    key: u64,
    pos: u64,
    count: u64,
    index: Vec<u8>,
    done: bool,
}

impl PreparedWriter {
    /// Starts the file for `dest` (created under a temporary name in the
    /// same directory, which is created if needed).
    pub fn create(dest: &Path, key: u64) -> io::Result<Self> {
        let dir = dest.parent().unwrap_or(Path::new("."));
        fs::create_dir_all(dir)?;
        let name = dest
            .file_name()
            .map_or_else(|| "prepared".into(), |s| s.to_string_lossy());
        // Unique per writer: threads of one process may prepare at once.
        static WRITERS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = WRITERS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let tmp = dir.join(format!(".{name}.{}-{n}.tmp", std::process::id()));
        let mut file = BufWriter::with_capacity(1 << 20, File::create(&tmp)?);
        file.write_all(&[0u8; DATA_START as usize])?;
        Ok(Self {
            dest: dest.to_path_buf(),
            tmp,
            file,
            key,
            pos: DATA_START,
            count: 0,
            index: Vec::new(),
            done: false,
        })
    }

    /// The path the file gets once finished.
    pub fn dest(&self) -> &Path {
        &self.dest
    }

    /// Appends matrix `name`.
    pub fn add(&mut self, name: &str, w: &QWeights) -> io::Result<()> {
        let pad = self.pos.next_multiple_of(ALIGN) - self.pos;
        self.file.write_all(&vec![0u8; pad as usize])?;
        self.pos += pad;
        let bytes = w.bytes();
        self.file.write_all(bytes)?;
        let (n, k) = w.dims();
        let name_len = u32::try_from(name.len()).map_err(io::Error::other)?;
        self.index.extend_from_slice(&name_len.to_le_bytes());
        self.index.extend_from_slice(name.as_bytes());
        self.index.push(format_code(w.format()));
        self.index.push(match w.layout() {
            Layout::Ggml => 0,
            Layout::R8 => 1,
        });
        for v in [n as u64, k as u64, self.pos, bytes.len() as u64] {
            self.index.extend_from_slice(&v.to_le_bytes());
        }
        self.pos += bytes.len() as u64;
        self.count += 1;
        Ok(())
    }

    /// Writes the index and header, syncs, and renames the file into
    /// place; then removes other prepared files of the same model (older
    /// keys). Returns the file's path.
    pub fn finish(mut self) -> io::Result<PathBuf> {
        self.file.write_all(&self.index)?;
        let mut header = Vec::with_capacity(HEADER_BYTES);
        header.extend_from_slice(MAGIC);
        header.extend_from_slice(&LAYOUT_VERSION.to_le_bytes());
        header.extend_from_slice(&0u32.to_le_bytes());
        for v in [self.key, self.count, self.pos, self.index.len() as u64] {
            header.extend_from_slice(&v.to_le_bytes());
        }
        self.file.seek(SeekFrom::Start(0))?;
        self.file.write_all(&header)?;
        self.file.flush()?;
        // Synced before the rename: a crash must never leave a file with a
        // valid header over bytes that did not reach the disk.
        self.file.get_ref().sync_all()?;
        fs::rename(&self.tmp, &self.dest)?;
        self.done = true;
        remove_other_keys(&self.dest);
        Ok(self.dest.clone())
    }
}

impl Drop for PreparedWriter {
    fn drop(&mut self) {
        if !self.done {
            let _ = fs::remove_file(&self.tmp);
        }
    }
}

/// The stem of a prepared file's name `<stem>-<16 hex digits>.prepared`.
fn stem_of(name: &str) -> Option<&str> {
    let rest = name.strip_suffix(EXTENSION)?.strip_suffix('.')?;
    let (stem, key) = rest.rsplit_once('-')?;
    (key.len() == 16 && key.bytes().all(|b| b.is_ascii_hexdigit())).then_some(stem)
}

/// Removes `<stem>-<other key>.prepared` beside `dest` (best effort: a map
/// another process holds stays valid after the unlink).
fn remove_other_keys(dest: &Path) {
    let (Some(dir), Some(name)) = (dest.parent(), dest.file_name().and_then(|n| n.to_str())) else {
        return;
    };
    let (Some(stem), Ok(read)) = (stem_of(name), fs::read_dir(dir)) else {
        return;
    };
    for other in read.flatten() {
        let other_name = other.file_name();
        let Some(o) = other_name.to_str() else {
            continue;
        };
        if o != name && stem_of(o) == Some(stem) {
            let _ = fs::remove_file(other.path());
        }
    }
}

/// Where prepared files go: `$CONTINUITY_PREPARED_DIR`, or `prepared/` in
/// the model cache (`$CONTINUITY_MODELS_DIR`, `~/.cache/continuity/models`);
/// `None` when that variable is `off` (or `0`) or there is no cache.
pub fn default_dir() -> Option<PathBuf> {
    match std::env::var_os("CONTINUITY_PREPARED_DIR") {
        Some(v) if v == "off" || v == "0" => None,
        Some(v) if !v.is_empty() => Some(PathBuf::from(v)),
        _ => crate::manifest::SearchPaths::from_env()
            .models_dir
            .map(|d| d.join("prepared")),
    }
}

/// Where a loaded model's quantized matrices came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WeightSource {
    /// Read from the GGUF (no prepared file in use).
    Read,
    /// Mapped from this prepared file.
    Mapped(PathBuf),
    /// Read from the GGUF and written to this prepared file for next time.
    Prepared(PathBuf),
    /// Read from the GGUF; the prepared file could not be written.
    NotPrepared { path: PathBuf, error: String },
}

impl std::fmt::Display for WeightSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WeightSource::Read => write!(f, "read from the GGUF"),
            WeightSource::Mapped(p) => write!(f, "mapped from {}", p.display()),
            WeightSource::Prepared(p) => {
                write!(f, "read from the GGUF, prepared into {}", p.display())
            }
            WeightSource::NotPrepared { path, error } => write!(
                f,
                "read from the GGUF (could not write {}: {error})",
                path.display()
            ),
        }
    }
}

/// What a load does with prepared weights.
pub enum Plan {
    /// No prepared file: read the GGUF.
    Off,
    /// Map this file.
    Read(Prepared),
    /// Read the GGUF and write this file.
    Write(PreparedWriter),
    /// Read the GGUF; the file at the path cannot be written.
    Unwritable(PathBuf, io::Error),
}

/// The plan for loading `gguf` (metadata `meta`, tensor table `ct`) with
/// prepared files in `dir` (none: [`Plan::Off`]).
pub fn plan(dir: Option<&Path>, gguf: &Path, meta: &fs::Metadata, ct: &gguf_file::Content) -> Plan {
    let Some(dir) = dir else {
        return Plan::Off;
    };
    let key = key(
        meta,
        ct,
        crate::quant::Kernel::best() != crate::quant::Kernel::Scalar,
    );
    let dest = path_for(dir, gguf, key);
    if let Some(p) = Prepared::open(&dest, key) {
        return Plan::Read(p);
    }
    match PreparedWriter::create(&dest, key) {
        Ok(w) => Plan::Write(w),
        Err(e) => Plan::Unwritable(dest, e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arch::tensors::{Matrix, PreparedUse, TensorReader};
    use crate::quant::tests::Rng;
    use candle_core::quantized::{GgmlDType, QTensor};
    use candle_core::{Device, Tensor};

    /// A GGUF of matrices of every route (R8, ggml layout for 12 rows, a
    /// K-quant repacked, a format only candle runs) and a vector.
    fn write_gguf(path: &Path) -> gguf_file::Content {
        let q = |(n, k): (usize, usize), dtype, seed: u64| {
            let data = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1).vec(n * k);
            let t = Tensor::from_vec(data, (n, k), &Device::Cpu).unwrap();
            QTensor::quantize(&t, dtype).unwrap()
        };
        let tensors = [
            ("q5_0", q((64, 256), GgmlDType::Q5_0, 1)),
            ("q8_0_12_rows", q((12, 256), GgmlDType::Q8_0, 2)),
            ("q4k", q((16, 512), GgmlDType::Q4K, 3)),
            ("q5k", q((8, 256), GgmlDType::Q5K, 4)),
            ("norm", q((1, 256), GgmlDType::F32, 5)),
        ];
        let arch = gguf_file::Value::String("test".into());
        let t: Vec<(&str, &QTensor)> = tensors.iter().map(|(n, t)| (*n, t)).collect();
        let mut f = File::create(path).unwrap();
        gguf_file::write(&mut f, &[("general.architecture", &arch)], &t).unwrap();
        let mut f = io::BufReader::new(File::open(path).unwrap());
        gguf_file::Content::read(&mut f).unwrap()
    }

    const MATRICES: [&str; 4] = ["q5_0", "q8_0_12_rows", "q4k", "q5k"];

    /// Every matrix of `gguf` through a reader with `prepared`.
    fn read_all(gguf: &Path, ct: &gguf_file::Content, prepared: PreparedUse<'_>) -> Vec<Matrix> {
        let mut f = io::BufReader::new(File::open(gguf).unwrap());
        let mut r = TensorReader::with_prepared(ct, &mut f, prepared);
        let out = MATRICES.iter().map(|n| r.matrix(n).unwrap()).collect();
        if let Some(w) = r.into_writer() {
            w.finish().unwrap();
        }
        out
    }

    fn ours(m: &Matrix) -> Option<&QWeights> {
        match m {
            Matrix::Ours(w) => Some(w),
            Matrix::Candle(_) => None,
        }
    }

    #[test]
    fn a_prepared_file_maps_the_matrices_it_was_written_from() {
        let dir = tempfile::tempdir().unwrap();
        let gguf = dir.path().join("m.gguf");
        let ct = write_gguf(&gguf);
        let meta = fs::metadata(&gguf).unwrap();
        let key = key(&meta, &ct, true);
        let dest = path_for(&dir.path().join("prepared"), &gguf, key);
        let read = read_all(&gguf, &ct, PreparedUse::None);
        let writer = PreparedWriter::create(&dest, key).unwrap();
        let written = read_all(&gguf, &ct, PreparedUse::Write(writer));
        let p = Prepared::open(&dest, key).expect("the file just written");
        let mapped = read_all(&gguf, &ct, PreparedUse::Read(&p));
        for (i, name) in MATRICES.iter().enumerate() {
            let (a, b, c) = (ours(&read[i]), ours(&written[i]), ours(&mapped[i]));
            match (a, b, c) {
                (Some(a), Some(b), Some(c)) => {
                    assert!(!a.is_mapped() && !b.is_mapped() && c.is_mapped(), "{name}");
                    assert_eq!(a.bytes(), c.bytes(), "{name}");
                    assert_eq!(
                        (a.layout(), a.format(), a.dims()),
                        (c.layout(), c.format(), c.dims())
                    );
                    assert_eq!(c.bytes().as_ptr() as usize % ALIGN as usize, 0, "{name}");
                }
                // The format only candle runs is neither written nor mapped.
                (None, None, None) => assert_eq!(*name, "q5k"),
                _ => panic!("{name}: the routes differ"),
            }
        }
        // Another key, a truncated file or another magic: as if absent.
        assert!(Prepared::open(&dest, key ^ 1).is_none());
        let bytes = fs::read(&dest).unwrap();
        let broken = dir.path().join("broken.prepared");
        for cut in [0, 20, DATA_START as usize, bytes.len() - 1] {
            fs::write(&broken, &bytes[..cut]).unwrap();
            assert!(Prepared::open(&broken, key).is_none(), "cut at {cut}");
        }
        let mut other = bytes.clone();
        other[0] ^= 1;
        fs::write(&broken, &other).unwrap();
        assert!(Prepared::open(&broken, key).is_none());
    }

    #[test]
    fn a_matrix_that_does_not_fit_its_entry_is_read_from_the_gguf() {
        let dir = tempfile::tempdir().unwrap();
        let gguf = dir.path().join("m.gguf");
        let ct = write_gguf(&gguf);
        let dest = dir.path().join("m.prepared");
        let writer = PreparedWriter::create(&dest, 7).unwrap();
        read_all(&gguf, &ct, PreparedUse::Write(writer));
        let p = Prepared::open(&dest, 7).unwrap();
        let w = p
            .matrix("q5_0", Format::Q5_0, (64, 256))
            .expect("as written");
        assert!(w.is_mapped());
        assert!(p.matrix("q5_0", Format::Q8_0, (64, 256)).is_none());
        assert!(p.matrix("q5_0", Format::Q5_0, (64, 512)).is_none());
        assert!(p.matrix("absent", Format::Q5_0, (64, 256)).is_none());
    }

    #[test]
    fn finishing_removes_the_files_of_other_keys_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let gguf = dir.path().join("model.gguf");
        let old = path_for(dir.path(), &gguf, 1);
        let unrelated = [
            path_for(dir.path(), &dir.path().join("other-model.gguf"), 1),
            dir.path().join("model-notakey.prepared"),
            dir.path().join("model.gguf.txt"),
        ];
        for p in unrelated.iter().chain([&old]) {
            fs::write(p, b"x").unwrap();
        }
        let new = path_for(dir.path(), &gguf, 2);
        let w = PreparedWriter::create(&new, 2).unwrap();
        assert_eq!(w.finish().unwrap(), new);
        assert!(new.exists() && !old.exists());
        for p in &unrelated {
            assert!(p.exists(), "{}", p.display());
        }
        // No temporary file is left behind, finished or not.
        drop(PreparedWriter::create(&path_for(dir.path(), &gguf, 3), 3).unwrap());
        let names: Vec<String> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(names.iter().all(|n| !n.ends_with(".tmp")), "{names:?}");
    }

    #[test]
    fn the_key_follows_the_file_and_the_repacking() {
        let dir = tempfile::tempdir().unwrap();
        let gguf = dir.path().join("m.gguf");
        let ct = write_gguf(&gguf);
        let meta = fs::metadata(&gguf).unwrap();
        assert_eq!(key(&meta, &ct, true), key(&meta, &ct, true));
        assert_ne!(key(&meta, &ct, true), key(&meta, &ct, false));
        std::thread::sleep(std::time::Duration::from_millis(20));
        let ct2 = write_gguf(&gguf);
        let meta2 = fs::metadata(&gguf).unwrap();
        assert_ne!(key(&meta, &ct, true), key(&meta2, &ct2, true), "rewritten");
    }
}
