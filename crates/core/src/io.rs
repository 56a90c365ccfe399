//! The edges: reading inputs and writing outputs. Outputs are written all
//! together or not at all, and never before every check has passed.

use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};

use crate::compact::Compaction;
use crate::error::{Error, InputError, Result, Source};
use crate::formats;
use crate::governance::pin::{PinContext, PinError, PolicyPin};
use crate::governance::preflight::{calls_from_json, ToolCall};
use crate::governance::GovernanceError;
use crate::kernel::MissionKernel;
use crate::policy::RetentionPolicy;
use crate::redact::Redactor;
use crate::transcript::Transcript;

/// Read a file, or standard input for `-`.
pub fn read_input(path: &str) -> Result<(Vec<u8>, Source), InputError> {
    if path == "-" {
        let mut buf = Vec::new();
        std::io::stdin()
            .read_to_end(&mut buf)
            .map_err(|e| InputError::Unreadable {
                file: Source::stdin(),
                message: e.to_string(),
            })?;
        return Ok((buf, Source::stdin()));
    }
    let p = Path::new(path);
    let source = Source::path(p);
    let bytes = fs::read(p).map_err(|e| InputError::Unreadable {
        file: source.clone(),
        message: e.to_string(),
    })?;
    Ok((bytes, source))
}

pub fn read_transcript(path: &str) -> Result<(Transcript, Source), InputError> {
    let (bytes, source) = read_input(path)?;
    let t = formats::parse_bytes(&bytes, &source)?;
    Ok((t, source))
}

/// A text file, or an error naming it.
pub fn read_text(path: &Path) -> Result<String, InputError> {
    fs::read_to_string(path).map_err(|e| InputError::Unreadable {
        file: Source::path(path),
        message: e.to_string(),
    })
}

/// A file's bytes, or an error naming it.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, InputError> {
    fs::read(path).map_err(|e| InputError::Unreadable {
        file: Source::path(path),
        message: e.to_string(),
    })
}

pub fn load_kernel(path: &Path, now: DateTime<Utc>) -> Result<MissionKernel, InputError> {
    MissionKernel::from_toml(&read_text(path)?, &Source::path(path), now)
}

pub fn load_policy(path: Option<&Path>) -> Result<RetentionPolicy, InputError> {
    match path {
        None => Ok(RetentionPolicy::default()),
        Some(p) => RetentionPolicy::from_toml(&read_text(p)?, &Source::path(p)),
    }
}

/// Tool calls for preflight: a file, `-`, or a reference run folder (its
/// `run/tools.jsonl`, or `tools.jsonl` directly inside).
pub fn read_calls(path: &str) -> Result<Vec<ToolCall>, InputError> {
    let p = Path::new(path);
    if p.is_dir() {
        for candidate in [p.join("run/tools.jsonl"), p.join("tools.jsonl")] {
            if candidate.is_file() {
                return read_calls(&candidate.display().to_string());
            }
        }
        return Err(InputError::Unreadable {
            file: Source::path(p),
            message: "a directory without run/tools.jsonl or tools.jsonl".into(),
        });
    }
    let (bytes, source) = read_input(path)?;
    calls_from_json(&bytes, &source)
}

/// The pin context for a compaction into `out`: after the pin already
/// there (same run: the next sequence), else a first rebuild. Fails closed:
/// a pin that exists but cannot be read, or does not parse, or whose seal
/// no longer matches, is an integrity error, never a first run.
pub fn pin_context(
    out: &Path,
    kernel: &MissionKernel,
    input_name: &str,
    run_id: Option<&str>,
    now: DateTime<Utc>,
) -> Result<PinContext, GovernanceError> {
    let path = out.join("policy_pin.json");
    match fs::read(&path) {
        Ok(bytes) => {
            let previous = PolicyPin::from_json(&bytes)?;
            Ok(PinContext::after(previous, run_id, now)?)
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let mut ctx = PinContext::first(kernel, input_name, now);
            if let Some(r) = run_id {
                ctx.run_id = r.to_string();
            }
            Ok(ctx)
        }
        Err(e) => Err(PinError::Unreadable {
            path: path.display().to_string(),
            message: e.to_string(),
        }
        .into()),
    }
}

/// The files `compact` writes, in memory.
pub struct OutputFiles {
    pub files: Vec<(&'static str, Vec<u8>)>,
}

pub fn serialize(c: &Compaction) -> Result<OutputFiles> {
    let json = |v: &serde_json::Value| -> Result<Vec<u8>> {
        let mut out = serde_json::to_vec_pretty(v).map_err(|e| Error::Internal(e.to_string()))?;
        out.push(b'\n');
        Ok(out)
    };
    let request = json(&formats::render(&c.request))?;
    let mut audit = Vec::new();
    for r in &c.audit {
        serde_json::to_writer(&mut audit, r).map_err(|e| Error::Internal(e.to_string()))?;
        audit.push(b'\n');
    }
    let report =
        json(&serde_json::to_value(&c.report).map_err(|e| Error::Internal(e.to_string()))?)?;
    let mut summary = c.summary.clone().into_bytes();
    summary.push(b'\n');
    Ok(OutputFiles {
        files: vec![
            ("request.json", request),
            ("audit.jsonl", audit),
            ("report.json", report),
            ("summary.txt", summary),
            ("policy_pin.json", c.pin.to_json()),
        ],
    })
}

/// Refuse to write a file that still holds personal data.
pub fn check_leaks(files: &OutputFiles, redactor: &mut Redactor) -> Result<()> {
    for (name, bytes) in &files.files {
        let text = String::from_utf8_lossy(bytes);
        if let Some(kind) = redactor.find_leak(&text) {
            return Err(Error::PersonalDataLeak {
                file: format!("{name} ({kind})"),
            });
        }
    }
    Ok(())
}

/// Write every file into `dir` atomically: all files are written and synced
/// in a temporary sibling directory first, then moved into place.
pub fn write_atomically(dir: &Path, files: &OutputFiles) -> Result<()> {
    let io_err = |path: &Path| {
        let path: PathBuf = path.to_path_buf();
        move |source: std::io::Error| Error::Io { path, source }
    };
    if dir.exists() && !dir.is_dir() {
        return Err(InputError::BadOutputDir {
            path: dir.to_path_buf(),
            message: "exists and is not a directory".into(),
        }
        .into());
    }
    let parent = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    fs::create_dir_all(&parent).map_err(io_err(&parent))?;
    let staging = tempfile::Builder::new()
        .prefix(".continuity-staging-")
        .tempdir_in(&parent)
        .map_err(io_err(&parent))?;
    for (name, bytes) in &files.files {
        let path = staging.path().join(name);
        let mut f = fs::File::create(&path).map_err(io_err(&path))?;
        f.write_all(bytes).map_err(io_err(&path))?;
        f.sync_all().map_err(io_err(&path))?;
    }
    if !dir.exists() {
        let staged = staging.keep();
        fs::rename(&staged, dir).map_err(io_err(dir))?;
    } else {
        for (name, _) in &files.files {
            let from = staging.path().join(name);
            let to = dir.join(name);
            fs::rename(&from, &to).map_err(io_err(&to))?;
        }
    }
    Ok(())
}
