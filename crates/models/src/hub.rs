//! Model downloads from the Hugging Face hub, kept out of the runtime
//! (`continuity-llm` has no network or TLS dependency): the [`Fetch`] that
//! model resolution uses when no cache holds a model.

use std::path::{Path, PathBuf};

use continuity_llm::manifest::{self, Fetch, HfSource, ModelError, ModelSpec};

/// Downloads through `hf-hub` into its cache layout, with a progress bar.
#[derive(Debug, Clone, Copy, Default)]
pub struct HfHub;

impl Fetch for HfHub {
    /// Fetch the model's file(s), then check sizes against the manifest.
    fn fetch(&self, spec: &ModelSpec, hf: &HfSource, hub: &Path) -> Result<PathBuf, String> {
        let api = hf_hub::api::sync::ApiBuilder::from_cache(hf_hub::Cache::new(hub.to_path_buf()))
            .with_progress(true)
            .build()
            .map_err(|e| e.to_string())?;
        let repo = api.model(hf.repo.clone());
        match &hf.file {
            Some(file) => {
                let p = repo.get(file).map_err(|e| e.to_string())?;
                if !file_has_size(&p, spec.size) {
                    return Err(format!("{} does not have the manifest's size", p.display()));
                }
                Ok(p)
            }
            None => {
                let mut dir = None;
                for f in &spec.files {
                    let p = repo.get(&f.path).map_err(|e| e.to_string())?;
                    if !file_has_size(&p, Some(f.size)) {
                        return Err(format!("{} does not have the manifest's size", p.display()));
                    }
                    // The snapshot folder: strip the file's relative path.
                    dir = p
                        .ancestors()
                        .nth(Path::new(&f.path).components().count())
                        .map(Path::to_path_buf);
                }
                dir.ok_or_else(|| "the manifest lists no files".to_string())
            }
        }
    }
}

/// [`manifest::resolve_model`] that downloads from the hub when no cache
/// has the model (unless `HF_HUB_OFFLINE=1`).
pub fn resolve_model(name: &str, explicit_path: Option<&Path>) -> Result<PathBuf, ModelError> {
    manifest::resolve_model(name, explicit_path, Some(&HfHub))
}

/// Regular file (symlinks followed) with the expected size, when one is known.
fn file_has_size(p: &Path, size: Option<u64>) -> bool {
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && size.is_none_or(|s| m.len() == s))
}
