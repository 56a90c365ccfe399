//! Loading a GGUF model (weights + tokenizer + chat template) by manifest
//! name or path, and the architecture-independent forward interface.

use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::time::Instant;

use candle_core::quantized::gguf_file;
use tokenizers::Tokenizer;

use super::arch::decoder::{Arch, Decoder, LoadOptions, MatmulImpl};
use super::arch::lfm2::Lfm2;
use super::arch::prepared::{self, Plan, WeightSource};
use super::arch::tensors::{PreparedUse, TensorReader};
use super::chat::ChatTemplate;
use super::gguf_tokenizer::tokenizer_from_gguf_content;
use super::manifest::{resolve_model, Fetch, ModelError};

/// Errors while loading or running a model.
#[derive(Debug, thiserror::Error)]
pub enum LlmError {
    #[error(transparent)]
    Model(#[from] ModelError),
    /// `CONTINUITY_CPU` names a level this CPU cannot run (or no level).
    #[error(transparent)]
    Cpu(#[from] crate::cpu::CpuError),
    #[error("cannot read {}: {message}", path.display())]
    Read { path: PathBuf, message: String },
    #[error("{}: unsupported architecture `{arch}` (supported: llama, qwen2, gemma3, lfm2)", path.display())]
    UnsupportedArch { path: PathBuf, arch: String },
    #[error("tokenizer: {0}")]
    Tokenizer(String),
    #[error("model: {0}")]
    Candle(#[from] candle_core::Error),
    #[error("{0}")]
    Other(String),
}

fn tokenizer_of(ct: &gguf_file::Content) -> Result<Tokenizer, LlmError> {
    tokenizer_from_gguf_content(ct).map_err(|e| LlmError::Tokenizer(e.to_string()))
}

/// A decoder's weights, with its tokenizer (a BPE over the whole
/// vocabulary) built on a second thread meanwhile: both only read `ct`.
fn load_decoder_and_tokenizer(
    ct: &gguf_file::Content,
    reader: &mut BufReader<File>,
    arch: Arch,
    opts: LoadOptions,
    plan: impl FnOnce() -> Plan,
) -> (
    Result<Tokenizer, LlmError>,
    candle_core::Result<Network>,
    WeightSource,
) {
    let mut weights = WeightSource::Read;
    let (tokenizer, network) = std::thread::scope(|s| {
        let tokenizer = std::thread::Builder::new()
            .name("tokenizer".into())
            .spawn_scoped(s, || tokenizer_of(ct));
        let network = load_decoder(ct, reader, arch, opts, plan()).map(|(d, w)| {
            weights = w;
            d
        });
        let tokenizer = match tokenizer {
            Ok(handle) => handle.join().unwrap_or_else(|_| {
                Err(LlmError::Tokenizer("the tokenizer build panicked".into()))
            }),
            // No second thread to be had: build it here.
            Err(_) => tokenizer_of(ct),
        };
        (tokenizer, network.map(|d| Network::Decoder(Box::new(d))))
    });
    (tokenizer, network, weights)
}

/// The network behind a [`Model`].
pub enum Network {
    Decoder(Box<Decoder>),
    Lfm2(Box<Lfm2>),
}

impl Network {
    pub fn forward(&mut self, tokens: &[u32], pos: usize) -> candle_core::Result<Vec<f32>> {
        match self {
            Network::Decoder(d) => d.forward(tokens, pos),
            Network::Lfm2(m) => m.forward(tokens, pos),
        }
    }

    /// Logits of every position of `tokens`, each exactly as a one-token
    /// [`Self::forward`] would give it. Only where [`Self::can_forward_rows`]
    /// (LFM2's convolution state does not rewind).
    pub fn forward_rows(
        &mut self,
        tokens: &[u32],
        pos: usize,
    ) -> candle_core::Result<Vec<Vec<f32>>> {
        match self {
            Network::Decoder(d) => d.forward_rows(tokens, pos),
            Network::Lfm2(_) => candle_core::bail!("LFM2 cannot check a draft in one pass"),
        }
    }

    /// Whether a forward may start before the end of the cache, dropping
    /// what follows (LFM2's convolution state cannot go back).
    pub fn can_rewind(&self) -> bool {
        matches!(self, Network::Decoder(_))
    }

    /// Whether [`Self::forward_rows`] is available.
    pub fn can_forward_rows(&self) -> bool {
        matches!(self, Network::Decoder(_))
    }

    pub fn context_length(&self) -> usize {
        match self {
            Network::Decoder(d) => d.config().context_length,
            Network::Lfm2(m) => m.context_length(),
        }
    }

    pub fn clear_cache(&mut self) {
        match self {
            Network::Decoder(d) => d.clear_cache(),
            Network::Lfm2(m) => m.clear_cache(),
        }
    }

    /// Allocate the KV cache for `positions` at once, where the network can.
    pub fn reserve(&mut self, positions: usize) {
        if let Network::Decoder(d) = self {
            d.reserve(positions);
        }
    }

    /// Largest number of prompt tokens one forward call may take (`None`: all).
    pub fn max_prefill_chunk(&self) -> Option<usize> {
        match self {
            Network::Decoder(_) => Some(512),
            Network::Lfm2(_) => None,
        }
    }
}

/// A loaded model: network, tokenizer, template and stop tokens.
pub struct Model {
    pub name: String,
    pub path: PathBuf,
    /// GGUF `general.architecture`.
    pub arch: String,
    pub network: Network,
    pub tokenizer: Tokenizer,
    pub template: ChatTemplate,
    /// Token ids that end generation: GGUF eos/eot plus the template's end tokens.
    pub stop_tokens: Vec<u32>,
    pub load_ms: f64,
    /// Where the quantized matrices came from ([`prepared`]).
    pub weights: WeightSource,
}

fn md_string(ct: &gguf_file::Content, key: &str) -> Option<String> {
    match ct.metadata.get(key) {
        Some(gguf_file::Value::String(s)) => Some(s.clone()),
        _ => None,
    }
}

fn md_u32(ct: &gguf_file::Content, key: &str) -> Option<u32> {
    ct.metadata.get(key).and_then(|v| v.to_u32().ok())
}

impl Model {
    /// Load a manifest model by name (`smollm2-135m`, ...), or any GGUF at
    /// `explicit_path` (then `name` is only a label); a model no cache holds
    /// is downloaded through `fetch`, when given.
    pub fn load_by_name(
        name: &str,
        explicit_path: Option<&Path>,
        opts: LoadOptions,
        fetch: Option<&dyn Fetch>,
    ) -> Result<Self, LlmError> {
        let path = resolve_model(name, explicit_path, fetch)?;
        Self::load(name, &path, opts)
    }

    /// Load the GGUF at `path`, its matrices mapped from a prepared file
    /// in [`prepared::default_dir`] (written by the first load).
    pub fn load(name: &str, path: &Path, opts: LoadOptions) -> Result<Self, LlmError> {
        Self::load_with(name, path, opts, prepared::default_dir().as_deref())
    }

    /// [`Self::load`] with prepared files in `prepared_dir` (none: the
    /// matrices are read and repacked from the GGUF).
    pub fn load_with(
        name: &str,
        path: &Path,
        opts: LoadOptions,
        prepared_dir: Option<&Path>,
    ) -> Result<Self, LlmError> {
        let start = Instant::now();
        // A refused `CONTINUITY_CPU` stops here, before any kernel runs.
        crate::cpu::level()?;
        let read_err = |e: &dyn std::fmt::Display| LlmError::Read {
            path: path.to_path_buf(),
            message: e.to_string(),
        };
        let file = File::open(path).map_err(|e| read_err(&e))?;
        let meta = file.metadata().map_err(|e| read_err(&e))?;
        let mut reader = BufReader::new(file);
        let ct = gguf_file::Content::read(&mut reader).map_err(|e| read_err(&e))?;
        let arch = md_string(&ct, "general.architecture").unwrap_or_default();
        let template =
            ChatTemplate::detect(&arch, md_string(&ct, "tokenizer.chat_template").as_deref());
        let mut stop_tokens: Vec<u32> =
            ["tokenizer.ggml.eos_token_id", "tokenizer.ggml.eot_token_id"]
                .iter()
                .filter_map(|key| md_u32(&ct, key))
                .collect();
        let mut weights = WeightSource::Read;
        let (tokenizer, network) = match Arch::from_gguf(&arch) {
            Some(a) => {
                // Only our own kernels' matrices are prepared.
                let dir =
                    prepared_dir.filter(|_| opts.matmul == MatmulImpl::Ours && !opts.requantize_q8);
                let plan = || prepared::plan(dir, path, &meta, &ct);
                let (tokenizer, network, w) =
                    load_decoder_and_tokenizer(&ct, &mut reader, a, opts, plan);
                weights = w;
                (tokenizer, network)
            }
            None if arch == "lfm2" => {
                let tokenizer = tokenizer_of(&ct);
                (
                    tokenizer,
                    Lfm2::from_gguf(ct, &mut reader).map(|m| Network::Lfm2(Box::new(m))),
                )
            }
            None => {
                return Err(LlmError::UnsupportedArch {
                    path: path.to_path_buf(),
                    arch,
                })
            }
        };
        let (tokenizer, network) = (tokenizer?, network?);
        for t in template.end_tokens() {
            if let Some(id) = tokenizer.token_to_id(t) {
                stop_tokens.push(id);
            }
        }
        stop_tokens.sort_unstable();
        stop_tokens.dedup();
        Ok(Self {
            name: name.to_string(),
            path: path.to_path_buf(),
            arch,
            network,
            tokenizer,
            template,
            stop_tokens,
            load_ms: start.elapsed().as_secs_f64() * 1e3,
            weights,
        })
    }

    pub fn context_length(&self) -> usize {
        self.network.context_length()
    }

    /// Token ids of `text`; special tokens in the text (`<|im_start|>`) are
    /// parsed, BOS is added when the model's tokenizer adds it.
    pub fn encode(&self, text: &str) -> Result<Vec<u32>, LlmError> {
        self.tokenizer
            .encode(text, true)
            .map(|e| e.get_ids().to_vec())
            .map_err(|e| LlmError::Tokenizer(e.to_string()))
    }

    /// Text of `ids`, special tokens skipped.
    pub fn decode(&self, ids: &[u32]) -> Result<String, LlmError> {
        self.tokenizer
            .decode(ids, true)
            .map_err(|e| LlmError::Tokenizer(e.to_string()))
    }
}

/// The decoder's weights as `plan` says, and where they came from.
fn load_decoder<R: std::io::Read + std::io::Seek>(
    ct: &gguf_file::Content,
    reader: &mut R,
    arch: Arch,
    opts: LoadOptions,
    plan: Plan,
) -> candle_core::Result<(Decoder, WeightSource)> {
    match plan {
        Plan::Off => Ok((
            Decoder::from_gguf(ct, reader, arch, opts)?,
            WeightSource::Read,
        )),
        Plan::Unwritable(path, e) => Ok((
            Decoder::from_gguf(ct, reader, arch, opts)?,
            WeightSource::NotPrepared {
                path,
                error: e.to_string(),
            },
        )),
        Plan::Read(p) => {
            let mut r = TensorReader::with_prepared(ct, reader, PreparedUse::Read(&p));
            let d = Decoder::from_tensors(ct, &mut r, arch, opts)?;
            Ok((d, WeightSource::Mapped(p.path().to_path_buf())))
        }
        Plan::Write(w) => {
            let dest = w.dest().to_path_buf();
            let mut r = TensorReader::with_prepared(ct, reader, PreparedUse::Write(w));
            let d = Decoder::from_tensors(ct, &mut r, arch, opts)?;
            let not_prepared = |error: String| WeightSource::NotPrepared {
                path: dest.clone(),
                error,
            };
            let source = match r.write_error().map(|e| e.to_string()) {
                Some(e) => not_prepared(e),
                None => match r.into_writer().map(|w| w.finish()) {
                    Some(Ok(path)) => WeightSource::Prepared(path),
                    Some(Err(e)) => not_prepared(e.to_string()),
                    None => not_prepared("no writer".into()),
                },
            };
            Ok((d, source))
        }
    }
}

/// Start a new peak for [`peak_rss_bytes`] (Linux: `clear_refs` 5 resets
/// `VmHWM` to the current RSS); a no-op where unsupported.
pub fn reset_peak_rss() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// Peak resident set size of this process (`VmHWM`), in bytes; 0 where unknown.
pub fn peak_rss_bytes() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<u64>().ok())
        })
        .map_or(0, |kb| kb * 1024)
}
