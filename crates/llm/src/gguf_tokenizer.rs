//! Build a `tokenizers::Tokenizer` from a GGUF file's `tokenizer.ggml.*`
//! metadata, matching llama.cpp's tokenization exactly.
//!
//! GGUFs carry vocab/merges/scores, not `tokenizer.json`, and candle's built-in
//! GGUF tokenizer gets SmolLM2 wrong and rejects Gemma. llama.cpp
//! (`src/llama-vocab.cpp`, `src/unicode.cpp`) is the reference; the golden ids
//! in `tests/fixtures/tokenizer/` come from it. What is mirrored:
//!
//! * Special tokens: every token typed CONTROL, USER_DEFINED or UNKNOWN is split
//!   out of the raw text before the model runs (llama.cpp `parse_special=true`),
//!   so `<|im_start|>` is one id. Known difference: llama.cpp matches the longest
//!   special token first over the whole text, HF matches leftmost-longest; they
//!   differ only when two special tokens overlap in the text.
//! * BOS/EOS: added by the post-processor exactly when llama.cpp's
//!   `add_special=true` would add them (`tokenizer.ggml.add_bos_token`, else the
//!   per-model default). Use `encode(text, false)` for llama.cpp `add_special=false`.
//! * `gpt2` (byte-level BPE): the pre-tokenizer regexes of the `tokenizer.ggml.pre`
//!   type, applied in sequence, then GPT-2 byte mapping; merges ranked in file order.
//! * `llama` (SentencePiece-style): spaces become `▁` (plus a leading `▁` per text
//!   fragment when `add_space_prefix`), the whole fragment is one word, merges are
//!   derived from the vocab and ranked by the merged piece's score (llama.cpp merges
//!   the highest-scoring adjacent pair), unknown characters fall back to `<0xXX>`.
//!
//! Verified against llama-cpp-python 0.3.36 (its bundled llama.cpp): the three
//! manifest GGUFs (fixtures, plus ~3k random/unicode/special-token texts each),
//! and llama.cpp's own vocab GGUFs for llama-bpe (also used by LFM2), gpt-2,
//! starcoder, qwen2, command-r, refact, mpt and llama-spm.
//!
//! Not mirrored: llama.cpp's model-*name* based token attributes (phi-3's RSTRIP
//! after special tokens, jina/modern-bert LSTRIP masks), and pre types other than
//! those in `bpe_pre` (they are rejected, not approximated). Decoding is lossless
//! except where the ids themselves are ambiguous: a literal `▁` in SentencePiece
//! vocabs, and the space llama.cpp inserts after special tokens when
//! `add_space_prefix` is set (not the case for Gemma 3).

use std::collections::HashMap;
use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use candle_core::quantized::gguf_file::{Content, Value};
use tokenizers::decoders::byte_fallback::ByteFallback;
use tokenizers::decoders::byte_level::ByteLevel as ByteLevelDecoder;
use tokenizers::decoders::fuse::Fuse;
use tokenizers::decoders::sequence::Sequence as DecoderSequence;
use tokenizers::decoders::strip::Strip;
use tokenizers::decoders::DecoderWrapper;
use tokenizers::models::bpe::{Vocab, BPE};
use tokenizers::normalizers::NormalizerWrapper;
use tokenizers::normalizers::{Prepend, Replace, Sequence as NormalizerSequence};
use tokenizers::pre_tokenizers::byte_level::ByteLevel;
use tokenizers::pre_tokenizers::sequence::Sequence as PreSequence;
use tokenizers::pre_tokenizers::split::{Split, SplitPattern};
use tokenizers::pre_tokenizers::PreTokenizerWrapper;
use tokenizers::processors::template::TemplateProcessing;
use tokenizers::{AddedToken, SplitDelimiterBehavior, Tokenizer};

/// Errors while reading GGUF tokenizer metadata or building the tokenizer.
#[derive(Debug, thiserror::Error)]
pub enum GgufTokenizerError {
    #[error("cannot open GGUF {}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot read GGUF metadata: {0}")]
    Gguf(String),
    #[error("GGUF metadata key `{0}` is missing")]
    MissingKey(&'static str),
    #[error("GGUF metadata key `{key}` is malformed: {msg}")]
    BadValue { key: &'static str, msg: String },
    #[error("unsupported tokenizer.ggml.model `{0}` (supported: gpt2, llama)")]
    UnsupportedModel(String),
    #[error("unsupported tokenizer.ggml.pre `{0}` (supported: smollm, qwen2, gpt-2, llama-bpe/lfm2 and their llama.cpp aliases)")]
    UnsupportedPre(String),
    #[error("building tokenizer: {0}")]
    Build(String),
}

type Result<T> = std::result::Result<T, GgufTokenizerError>;

fn build_err(e: impl std::fmt::Display) -> GgufTokenizerError {
    GgufTokenizerError::Build(e.to_string())
}

// llama.cpp token types (`llama_token_type`).
const TT_NORMAL: i32 = 1;
const TT_UNKNOWN: i32 = 2;
const TT_CONTROL: i32 = 3;
const TT_USER_DEFINED: i32 = 4;

/// Token texts that llama.cpp (`llama_vocab::impl::load`, EOT/EOM/FIM/EOG
/// auto-detection) forces to CONTROL even when the GGUF types them NORMAL, so
/// they are split out of raw text. Example: Qwen2.5's vocab has an ordinary
/// `</s>`, which llama.cpp nevertheless tokenizes as one id. (llama.cpp promotes
/// only the first FIM token per kind it finds; vocabs have one per kind.)
const LLAMA_CPP_CONTROL_BY_TEXT: &[&str] = &[
    "<|eot_id|>",
    "<|im_end|>",
    "<|end|>",
    "<|return|>",
    "<|call|>",
    "<|flush|>",
    "<|calls|>",
    "<end_of_turn>",
    "<|endoftext|>",
    "</s>",
    "<|eom_id|>",
    "<EOT>",
    "_<EOT>",
    "[EOT]",
    "[EOS]",
    "<|end_of_text|>",
    "<end_of_utterance>",
    "<eos>",
    "<turn|>",
    "<|tool_response>",
    "<｜end▁of▁sentence｜>",
    "[e~[",
    "<|fim_prefix|>",
    "<fim-prefix>",
    "<fim_prefix>",
    "<｜fim▁begin｜>",
    "<PRE>",
    "▁<PRE>",
    "<|code_prefix|>",
    "<|prefix|>",
    "<|fim_suffix|>",
    "<fim-suffix>",
    "<fim_suffix>",
    "<｜fim▁hole｜>",
    "<SUF>",
    "▁<SUF>",
    "<|code_suffix|>",
    "<|suffix|>",
    "<|fim_middle|>",
    "<fim-middle>",
    "<fim_middle>",
    "<｜fim▁end｜>",
    "<MID>",
    "▁<MID>",
    "<|code_middle|>",
    "<|middle|>",
    "<|fim_pad|>",
    "<fim-pad>",
    "<fim_pad>",
    "<PAD>",
    "[PAD]",
    "<|fim_repo|>",
    "<|repo_name|>",
    "<fim-repo>",
    "<REPO>",
    "<reponame>",
    "<|file_sep|>",
];

/// llama.cpp's GPT-2 split regex (`LLAMA_VOCAB_PRE_TYPE_GPT2`); it is also what
/// HF's `ByteLevel { use_regex: true }` applies, so we use that directly.
const QWEN2_REGEX: &str = r"(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+";
const LLAMA3_REGEX: &str = r"(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+";

/// Pre-tokenizer families for byte-level BPE, named after llama.cpp's pre types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BpePre {
    /// GPT-2 regex only.
    Gpt2,
    /// `\p{N}` isolated first, then the GPT-2 regex (smollm, starcoder, ...).
    DigitsThenGpt2,
    /// Qwen2's regex (single digits), no GPT-2 regex afterwards.
    Qwen2,
    /// Llama-3 regex (1-3 digit groups); llama.cpp also sets ignore_merges.
    Llama3,
}

/// Map `tokenizer.ggml.pre` to (family, default add_bos). Aliases follow
/// llama.cpp's `llama_vocab::impl::load`; names whose llama.cpp handling has
/// extra flags we do not mirror (dbrx, smaug, jina) are left out on purpose.
fn bpe_pre(pre: &str) -> Option<(BpePre, bool)> {
    Some(match pre {
        "smollm" | "starcoder" | "refact" | "command-r" | "codeshell" | "exaone" | "minerva" => {
            (BpePre::DigitsThenGpt2, false)
        }
        "gpt-2" | "phi-2" | "gigachat" | "mpt" | "olmo" => (BpePre::Gpt2, false),
        "qwen2" | "deepseek-r1-qwen" | "stablelm2" => (BpePre::Qwen2, false),
        "llama3" | "llama-v3" | "llama-bpe" | "falcon3" | "falcon-h1" | "pixtral" | "lfm2" => {
            (BpePre::Llama3, true)
        }
        _ => return None,
    })
}

/// The `tokenizer.ggml.*` metadata we need, decoded from GGUF values.
struct GgufVocab {
    model: String,
    pre: String,
    tokens: Vec<String>,
    types: Vec<i32>,
    scores: Option<Vec<f32>>,
    merges: Option<Vec<String>>,
    bos: Option<u32>,
    eos: Option<u32>,
    unk: Option<u32>,
    add_bos: Option<bool>,
    add_eos: Option<bool>,
    add_space_prefix: Option<bool>,
}

fn as_u32(key: &'static str, v: &Value) -> Result<u32> {
    let bad = |msg: String| GgufTokenizerError::BadValue { key, msg };
    let n: i128 = match v {
        Value::U8(x) => (*x).into(),
        Value::I8(x) => (*x).into(),
        Value::U16(x) => (*x).into(),
        Value::I16(x) => (*x).into(),
        Value::U32(x) => (*x).into(),
        Value::I32(x) => (*x).into(),
        Value::U64(x) => (*x).into(),
        Value::I64(x) => (*x).into(),
        other => {
            return Err(bad(format!(
                "expected an integer, got {:?}",
                other.value_type()
            )))
        }
    };
    u32::try_from(n).map_err(|_| bad(format!("{n} does not fit a token id")))
}

/// GGUF metadata, key to value.
type Metadata = HashMap<String, Value>;

fn md_string(md: &Metadata, k: &'static str) -> Result<Option<String>> {
    match md.get(k) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(v) => Err(GgufTokenizerError::BadValue {
            key: k,
            msg: format!("expected string, got {:?}", v.value_type()),
        }),
    }
}

fn md_strings(md: &Metadata, k: &'static str) -> Result<Option<Vec<String>>> {
    match md.get(k) {
        None => Ok(None),
        Some(Value::Array(a)) => a
            .iter()
            .map(|v| match v {
                Value::String(s) => Ok(s.clone()),
                v => Err(GgufTokenizerError::BadValue {
                    key: k,
                    msg: format!("expected string items, got {:?}", v.value_type()),
                }),
            })
            .collect::<Result<Vec<_>>>()
            .map(Some),
        Some(v) => Err(GgufTokenizerError::BadValue {
            key: k,
            msg: format!("expected array, got {:?}", v.value_type()),
        }),
    }
}

fn md_id(md: &Metadata, k: &'static str) -> Result<Option<u32>> {
    md.get(k).map(|v| as_u32(k, v)).transpose()
}

fn md_flag(md: &Metadata, k: &'static str) -> Result<Option<bool>> {
    match md.get(k) {
        None => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(v) => Err(GgufTokenizerError::BadValue {
            key: k,
            msg: format!("expected bool, got {:?}", v.value_type()),
        }),
    }
}

/// Each token's type, at least one per token.
fn token_types(md: &Metadata, n_tokens: usize) -> Result<Vec<i32>> {
    let types = match md.get("tokenizer.ggml.token_type") {
        // llama.cpp treats a missing type array as all-normal.
        None => vec![1; n_tokens],
        Some(Value::Array(a)) => a
            .iter()
            .map(|v| match v {
                Value::I32(x) => Ok(*x),
                Value::U32(x) => i32::try_from(*x).map_err(|_| "out of range".to_string()),
                v => Err(format!("expected i32 items, got {:?}", v.value_type())),
            })
            .collect::<std::result::Result<Vec<_>, _>>()
            .map_err(|msg| GgufTokenizerError::BadValue {
                key: "tokenizer.ggml.token_type",
                msg,
            })?,
        Some(v) => {
            return Err(GgufTokenizerError::BadValue {
                key: "tokenizer.ggml.token_type",
                msg: format!("expected array, got {:?}", v.value_type()),
            })
        }
    };
    if types.len() < n_tokens {
        return Err(GgufTokenizerError::BadValue {
            key: "tokenizer.ggml.token_type",
            msg: format!("{} types for {} tokens", types.len(), n_tokens),
        });
    }
    Ok(types)
}

/// Each token's score, when the file has them: at least one per token.
fn token_scores(md: &Metadata, n_tokens: usize) -> Result<Option<Vec<f32>>> {
    let scores = match md.get("tokenizer.ggml.scores") {
        None => None,
        Some(Value::Array(a)) => Some(
            a.iter()
                .map(|v| {
                    v.to_f32().map_err(|e| GgufTokenizerError::BadValue {
                        key: "tokenizer.ggml.scores",
                        msg: e.to_string(),
                    })
                })
                .collect::<Result<Vec<_>>>()?,
        ),
        Some(v) => {
            return Err(GgufTokenizerError::BadValue {
                key: "tokenizer.ggml.scores",
                msg: format!("expected array, got {:?}", v.value_type()),
            })
        }
    };
    if scores.as_ref().is_some_and(|s| s.len() < n_tokens) {
        return Err(GgufTokenizerError::BadValue {
            key: "tokenizer.ggml.scores",
            msg: "fewer scores than tokens".into(),
        });
    }
    Ok(scores)
}

impl GgufVocab {
    fn from_content(content: &Content) -> Result<Self> {
        let md = &content.metadata;
        let model = md_string(md, "tokenizer.ggml.model")?
            .ok_or(GgufTokenizerError::MissingKey("tokenizer.ggml.model"))?;
        let tokens = md_strings(md, "tokenizer.ggml.tokens")?
            .ok_or(GgufTokenizerError::MissingKey("tokenizer.ggml.tokens"))?;
        let types = token_types(md, tokens.len())?;
        let scores = token_scores(md, tokens.len())?;
        let n = tokens.len();
        // Out-of-range special ids are disabled, as llama.cpp does.
        let in_range = |x: Option<u32>| x.filter(|&i| (i as usize) < n);
        Ok(GgufVocab {
            model,
            pre: md_string(md, "tokenizer.ggml.pre")?.unwrap_or_else(|| "default".into()),
            merges: md_strings(md, "tokenizer.ggml.merges")?,
            bos: in_range(md_id(md, "tokenizer.ggml.bos_token_id")?),
            eos: in_range(md_id(md, "tokenizer.ggml.eos_token_id")?),
            unk: in_range(md_id(md, "tokenizer.ggml.unknown_token_id")?),
            add_bos: md_flag(md, "tokenizer.ggml.add_bos_token")?,
            add_eos: md_flag(md, "tokenizer.ggml.add_eos_token")?,
            add_space_prefix: md_flag(md, "tokenizer.ggml.add_space_prefix")?,
            tokens,
            types,
            scores,
        })
    }

    /// Text → id with llama.cpp's semantics for duplicate texts (last id wins).
    fn vocab_map(&self) -> Vocab {
        self.tokens
            .iter()
            .enumerate()
            .map(|(i, t)| (t.clone(), i as u32))
            .collect()
    }

    /// Tokens llama.cpp splits out before running the model: CONTROL,
    /// USER_DEFINED and UNKNOWN types, after llama.cpp's by-text overrides.
    fn added_tokens(&self) -> Vec<AddedToken> {
        let texts: std::collections::HashSet<&str> =
            self.tokens.iter().map(String::as_str).collect();
        let has = |t: &str| texts.contains(t);
        // `<|end|>` is demoted when the vocab is o200k_harmony / solar-open style.
        let demote_end = has("<|end|>")
            && ((has("<|return|>") && (has("<|call|>") || has("<|calls|>")))
                || ((has("<|call|>") || has("<|calls|>")) && has("<|flush|>")));
        // gemma4 and plamo have an ordinary `</s>`.
        let normal_s = has("<|tool_response>") || has("<|plamo:eos|>");
        self.tokens
            .iter()
            .zip(&self.types)
            .filter_map(|(t, &ty)| {
                if t.is_empty() {
                    return None;
                }
                let ty = match t.as_str() {
                    "<|channel|>" | "<|message|>" | "<|start|>" | "<|constrain|>" => {
                        TT_USER_DEFINED
                    }
                    "<|end|>" if demote_end => TT_USER_DEFINED,
                    "</s>" if normal_s => TT_NORMAL,
                    text if LLAMA_CPP_CONTROL_BY_TEXT.contains(&text) => TT_CONTROL,
                    _ => ty,
                };
                // Raw-text matching (normalized=false), like llama.cpp's partition.
                // USER_DEFINED tokens are not "special", so decoding with
                // skip_special_tokens keeps them (they are ordinary text like "\n\n").
                matches!(ty, TT_CONTROL | TT_USER_DEFINED | TT_UNKNOWN)
                    .then(|| AddedToken::from(t.clone(), ty != TT_USER_DEFINED).normalized(false))
            })
            .collect()
    }
}

/// Read GGUF metadata from `path` (tensor data is not read) and build the tokenizer.
pub fn tokenizer_from_gguf(path: &Path) -> Result<Tokenizer> {
    let file = File::open(path).map_err(|source| GgufTokenizerError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let mut reader = BufReader::new(file);
    let content =
        Content::read(&mut reader).map_err(|e| GgufTokenizerError::Gguf(e.to_string()))?;
    tokenizer_from_gguf_content(&content)
}

/// Build the tokenizer from already-read GGUF content, for callers that also
/// load the model weights from the same `Content` (the metadata is all in
/// `Content`, so no reader is needed).
pub fn tokenizer_from_gguf_content(content: &Content) -> Result<Tokenizer> {
    let v = GgufVocab::from_content(content)?;
    let mut tok = match v.model.as_str() {
        "gpt2" => build_bpe(&v)?,
        "llama" => build_spm(&v)?,
        other => return Err(GgufTokenizerError::UnsupportedModel(other.to_string())),
    };
    // Special tokens are registered after the model so their ids come from the vocab.
    tok.add_special_tokens(&v.added_tokens());
    Ok(tok)
}

fn split_regex(re: &str) -> Result<PreTokenizerWrapper> {
    Ok(Split::new(
        SplitPattern::Regex(re.to_string()),
        SplitDelimiterBehavior::Isolated,
        false,
    )
    .map_err(build_err)?
    .into())
}

/// A merge line's two parts: llama.cpp splits at the first space after
/// byte 0 (`find(' ', 1)`).
fn merge_pair(m: &str) -> Result<(&str, &str)> {
    match m.bytes().skip(1).position(|b| b == b' ') {
        Some(p) => Ok((&m[..p + 1], &m[p + 2..])),
        None => Err(GgufTokenizerError::BadValue {
            key: "tokenizer.ggml.merges",
            msg: format!("merge without space: {m:?}"),
        }),
    }
}

fn build_bpe(v: &GgufVocab) -> Result<Tokenizer> {
    let (pre, default_add_bos) =
        bpe_pre(&v.pre).ok_or_else(|| GgufTokenizerError::UnsupportedPre(v.pre.clone()))?;
    let merges_raw = v
        .merges
        .as_ref()
        .ok_or(GgufTokenizerError::MissingKey("tokenizer.ggml.merges"))?;
    // First rank wins, as in llama.cpp (HF BPE would give a repeated pair
    // the later rank); a merge line is `a b`, so equal pairs are equal lines.
    let mut seen = std::collections::HashSet::with_capacity(merges_raw.len());
    let pairs = merges_raw
        .iter()
        .filter(|m| seen.insert(m.as_str()))
        .map(|m| merge_pair(m))
        .collect::<Result<Vec<_>>>()?;
    let bpe = |pairs: &[(&str, &str)]| {
        let merges = pairs
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        BPE::builder()
            .vocab_and_merges(v.vocab_map(), merges)
            .ignore_merges(pre == BpePre::Llama3)
            .build()
    };
    let model = match bpe(&pairs) {
        Ok(model) => model,
        // HF BPE rejects merges whose parts or result are not tokens
        // (llama.cpp could never emit them as one token either): build
        // again without them. Checked only on this path, since the BPE
        // build checks every merge anyway.
        Err(_) => {
            let vocab = v.vocab_map();
            let is_token = |t: &str| vocab.contains_key(t);
            let kept: Vec<(&str, &str)> = pairs
                .into_iter()
                .filter(|(a, b)| is_token(a) && is_token(b) && is_token(&format!("{a}{b}")))
                .collect();
            bpe(&kept).map_err(build_err)?
        }
    };
    let byte_level = || ByteLevel::new(false, true, true);
    let pre_tok: PreTokenizerWrapper = match pre {
        BpePre::Gpt2 => byte_level().into(),
        BpePre::DigitsThenGpt2 => {
            PreSequence::new(vec![split_regex(r"\p{N}")?, byte_level().into()]).into()
        }
        BpePre::Qwen2 => PreSequence::new(vec![
            split_regex(QWEN2_REGEX)?,
            ByteLevel::new(false, true, false).into(),
        ])
        .into(),
        BpePre::Llama3 => PreSequence::new(vec![
            split_regex(LLAMA3_REGEX)?,
            ByteLevel::new(false, true, false).into(),
        ])
        .into(),
    };
    let mut tok = Tokenizer::new(model);
    tok.with_pre_tokenizer(Some(pre_tok));
    tok.with_decoder(Some(ByteLevelDecoder::default()));
    add_bos_eos(&mut tok, v, v.add_bos.unwrap_or(default_add_bos))?;
    Ok(tok)
}

fn build_spm(v: &GgufVocab) -> Result<Tokenizer> {
    let scores = v
        .scores
        .as_ref()
        .ok_or(GgufTokenizerError::MissingKey("tokenizer.ggml.scores"))?;
    let vocab = v.vocab_map();
    // SentencePiece BPE has no merge list: any adjacent pair whose concatenation
    // is a token may merge, highest score first. Encode that as HF merges ranked
    // by the merged token's score (ties: lower id), like HF's SentencePiece converter.
    let mut ranked: Vec<(f32, u32, String, String)> = Vec::new();
    for (id, text) in v.tokens.iter().enumerate() {
        let id = id as u32;
        if vocab.get(text) != Some(&id) {
            continue; // shadowed duplicate
        }
        for (split, _) in text.char_indices().skip(1) {
            let (a, b) = text.split_at(split);
            if vocab.contains_key(a) && vocab.contains_key(b) {
                ranked.push((scores[id as usize], id, a.to_string(), b.to_string()));
            }
        }
    }
    ranked.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)));
    let merges = ranked.into_iter().map(|(_, _, a, b)| (a, b)).collect();
    let mut builder = BPE::builder()
        .vocab_and_merges(vocab, merges)
        .byte_fallback(true);
    if let Some(unk) = v.unk {
        builder = builder.unk_token(v.tokens[unk as usize].clone());
    }
    let model = builder.build().map_err(build_err)?;

    let add_space_prefix = v.add_space_prefix.unwrap_or(true);
    let mut norms: Vec<NormalizerWrapper> = Vec::new();
    if add_space_prefix {
        // Applied per text fragment between special tokens, which is exactly when
        // llama.cpp prefixes a space (every raw fragment follows a special or is first).
        norms.push(Prepend::new("▁".into()).into());
    }
    norms.push(Replace::new(" ", "▁").map_err(build_err)?.into());
    let mut decoders: Vec<DecoderWrapper> = vec![
        Replace::new("▁", " ").map_err(build_err)?.into(),
        ByteFallback::new().into(),
        Fuse::new().into(),
    ];
    if add_space_prefix {
        decoders.push(Strip::new(' ', 1, 0).into());
    }
    let mut tok = Tokenizer::new(model);
    tok.with_normalizer(Some(NormalizerSequence::new(norms)));
    tok.with_decoder(Some(DecoderSequence::new(decoders)));
    add_bos_eos(&mut tok, v, v.add_bos.unwrap_or(true))?;
    Ok(tok)
}

/// Mirror llama.cpp `add_special=true`: BOS first / EOS last when the vocab asks.
fn add_bos_eos(tok: &mut Tokenizer, v: &GgufVocab, add_bos: bool) -> Result<()> {
    let add_eos = v.add_eos.unwrap_or(false);
    let piece = |id: Option<u32>, what: &'static str| -> Result<(String, u32)> {
        let id = id.ok_or(GgufTokenizerError::MissingKey(what))?;
        let text = v.tokens[id as usize].clone();
        if text.is_empty() || text.contains(char::is_whitespace) || text.starts_with('$') {
            return Err(GgufTokenizerError::Build(format!(
                "{what} text {text:?} cannot be used in a template"
            )));
        }
        Ok((text, id))
    };
    let mut specials = Vec::new();
    let mut single = Vec::new();
    let mut pair = Vec::new();
    if add_bos {
        let (t, id) = piece(v.bos, "tokenizer.ggml.bos_token_id")?;
        single.push(t.clone());
        pair.push(t.clone());
        specials.push((t, id));
    }
    single.push("$A".to_string());
    pair.push("$A".to_string());
    if add_bos {
        pair.push(specials[0].0.clone());
    }
    pair.push("$B:1".to_string());
    if add_eos {
        let (t, id) = piece(v.eos, "tokenizer.ggml.eos_token_id")?;
        single.push(t.clone());
        pair.push(format!("{t}:1"));
        specials.push((t, id));
    }
    if !add_bos && !add_eos {
        return Ok(());
    }
    let processor = TemplateProcessing::builder()
        .try_single(single.join(" "))
        .map_err(build_err)?
        .try_pair(pair.join(" "))
        .map_err(build_err)?
        .special_tokens(specials)
        .build()
        .map_err(build_err)?;
    tok.with_post_processor(Some(processor));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// A GGUF `Content` with only tokenizer metadata, for model-free tests.
    fn content(kv: Vec<(&str, Value)>) -> Content {
        Content {
            magic: candle_core::quantized::gguf_file::VersionedMagic::GgufV3,
            metadata: kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
            tensor_infos: HashMap::new(),
            tensor_data_offset: 0,
        }
    }

    fn strs(v: &[&str]) -> Value {
        Value::Array(v.iter().map(|s| Value::String(s.to_string())).collect())
    }

    #[test]
    fn tiny_byte_level_vocab_with_special_tokens() {
        // Byte-level alphabet for the characters we use: "Ġ" is the space byte.
        let tokens = [
            "<|im_start|>",
            "<|im_end|>",
            "h",
            "i",
            "Ġ",
            "1",
            "2",
            "hi",
            "Ġh",
            "Ġhi",
        ];
        let types: Vec<Value> = tokens
            .iter()
            .enumerate()
            .map(|(i, _)| Value::I32(if i < 2 { 3 } else { 1 }))
            .collect();
        let c = content(vec![
            ("tokenizer.ggml.model", Value::String("gpt2".into())),
            ("tokenizer.ggml.pre", Value::String("smollm".into())),
            ("tokenizer.ggml.tokens", strs(&tokens)),
            ("tokenizer.ggml.token_type", Value::Array(types)),
            ("tokenizer.ggml.merges", strs(&["Ġ h", "h i", "Ġh i"])),
            ("tokenizer.ggml.bos_token_id", Value::U32(0)),
            ("tokenizer.ggml.add_bos_token", Value::Bool(false)),
        ]);
        let tok = tokenizer_from_gguf_content(&c).expect("builds");
        let enc = tok
            .encode("<|im_start|>hi hi12<|im_end|>", true)
            .expect("encodes");
        // Digits are split one by one; no BOS; specials are single ids.
        assert_eq!(enc.get_ids(), &[0, 7, 9, 5, 6, 1]);
        let dec = tok.decode(enc.get_ids(), false).expect("decodes");
        assert_eq!(dec, "<|im_start|>hi hi12<|im_end|>");
    }

    #[test]
    fn repeated_merges_keep_their_first_rank_and_non_token_merges_are_dropped() {
        let tokens = ["a", "b", "c", "ab", "bc", "x"];
        let bpe = |merges: &[&str]| {
            let c = content(vec![
                ("tokenizer.ggml.model", Value::String("gpt2".into())),
                ("tokenizer.ggml.pre", Value::String("smollm".into())),
                ("tokenizer.ggml.tokens", strs(&tokens)),
                ("tokenizer.ggml.merges", strs(merges)),
                ("tokenizer.ggml.add_bos_token", Value::Bool(false)),
            ]);
            let tok = tokenizer_from_gguf_content(&c).expect("builds");
            tok.encode("abc", false)
                .expect("encodes")
                .get_ids()
                .to_vec()
        };
        // "a b" outranks "b c": a|b then c.
        assert_eq!(bpe(&["a b", "b c"]), [3, 2]);
        assert_eq!(bpe(&["b c", "a b"]), [0, 4]);
        // A repeat further down does not move "b c" below "a b".
        assert_eq!(bpe(&["b c", "a b", "b c"]), [0, 4]);
        // "a x" (no "ax" token) and "c y" ("y" is no token) are left out.
        assert_eq!(bpe(&["a x", "c y", "b c", "a b"]), [0, 4]);
        assert!(matches!(
            merge_pair("ab"),
            Err(GgufTokenizerError::BadValue { .. })
        ));
        assert_eq!(merge_pair("  a").expect("splits"), (" ", "a"));
    }

    #[test]
    fn tiny_sentencepiece_vocab_merges_by_score_and_falls_back_to_bytes() {
        let mut tokens = vec![
            "<unk>".to_string(),
            "<bos>".to_string(),
            "<eos>".to_string(),
        ];
        let mut types = vec![2, 3, 3];
        let mut scores = vec![0.0f32, 0.0, 0.0];
        for b in 0..=255u8 {
            tokens.push(format!("<0x{b:02X}>"));
            types.push(6);
            scores.push(0.0);
        }
        for (t, s) in [
            ("▁", -1.0),
            ("a", -2.0),
            ("b", -3.0),
            ("ab", -4.0),
            ("▁a", -5.0),
            ("▁ab", -6.0),
        ] {
            tokens.push(t.to_string());
            types.push(1);
            scores.push(s);
        }
        // Gemma-style: a USER_DEFINED newline run and a CONTROL turn marker.
        tokens.push("\n\n".to_string());
        types.push(4);
        scores.push(-1000.0);
        tokens.push("<start_of_turn>".to_string());
        types.push(3);
        scores.push(-1000.0);
        let id = |t: &str| tokens.iter().position(|x| x == t).expect("token") as u32;
        let c = content(vec![
            ("tokenizer.ggml.model", Value::String("llama".into())),
            (
                "tokenizer.ggml.tokens",
                Value::Array(tokens.iter().map(|t| Value::String(t.clone())).collect()),
            ),
            (
                "tokenizer.ggml.token_type",
                Value::Array(types.into_iter().map(Value::I32).collect()),
            ),
            (
                "tokenizer.ggml.scores",
                Value::Array(scores.into_iter().map(Value::F32).collect()),
            ),
            ("tokenizer.ggml.bos_token_id", Value::U32(1)),
            ("tokenizer.ggml.eos_token_id", Value::U32(2)),
            ("tokenizer.ggml.unknown_token_id", Value::U32(0)),
            ("tokenizer.ggml.add_space_prefix", Value::Bool(false)),
        ]);
        let tok = tokenizer_from_gguf_content(&c).expect("builds");
        // "ab" (score -4) merges before "▁a" (-5), so " ab" is "▁" + "ab" → "▁ab".
        let enc = tok.encode("ab abé", true).expect("encodes");
        assert_eq!(
            enc.get_ids(),
            &[1, id("ab"), id("▁ab"), id("<0xC3>"), id("<0xA9>")]
        );
        assert_eq!(tok.decode(enc.get_ids(), true).expect("decodes"), "ab abé");
        // Control tokens are skippable when decoding; user-defined text is not.
        let enc = tok.encode("<start_of_turn>a\n\nb", false).expect("encodes");
        assert_eq!(
            enc.get_ids(),
            &[id("<start_of_turn>"), id("a"), id("\n\n"), id("b")]
        );
        assert_eq!(tok.decode(enc.get_ids(), true).expect("decodes"), "a\n\nb");
        assert_eq!(
            tok.decode(enc.get_ids(), false).expect("decodes"),
            "<start_of_turn>a\n\nb"
        );
    }

    #[test]
    fn unsupported_inputs_are_errors_not_panics() {
        let c = content(vec![("tokenizer.ggml.model", Value::String("bert".into()))]);
        assert!(matches!(
            tokenizer_from_gguf_content(&c),
            Err(GgufTokenizerError::MissingKey("tokenizer.ggml.tokens"))
        ));
        let c = content(vec![
            ("tokenizer.ggml.model", Value::String("wpm".into())),
            ("tokenizer.ggml.tokens", strs(&["a"])),
        ]);
        assert!(matches!(
            tokenizer_from_gguf_content(&c),
            Err(GgufTokenizerError::UnsupportedModel(_))
        ));
        let c = content(vec![
            ("tokenizer.ggml.model", Value::String("gpt2".into())),
            ("tokenizer.ggml.pre", Value::String("nonesuch".into())),
            ("tokenizer.ggml.tokens", strs(&["a"])),
            ("tokenizer.ggml.merges", strs(&[])),
        ]);
        assert!(matches!(
            tokenizer_from_gguf_content(&c),
            Err(GgufTokenizerError::UnsupportedPre(_))
        ));
        let c = content(vec![
            ("tokenizer.ggml.model", Value::String("gpt2".into())),
            ("tokenizer.ggml.tokens", Value::U32(3)),
        ]);
        assert!(matches!(
            tokenizer_from_gguf_content(&c),
            Err(GgufTokenizerError::BadValue { .. })
        ));
        let missing = Path::new("/nonexistent/model.gguf");
        let err = tokenizer_from_gguf(missing).expect_err("missing file");
        assert!(err.to_string().contains("/nonexistent/model.gguf"));
    }
}
