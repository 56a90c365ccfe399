//! One state per conversation under the data dir: the prefix mappings that
//! later turns splice onto, the compactions made (the run's audit, reports
//! and policy pin, see `rewrite`), and whether the proxy has stood down for
//! it. Loaded from disk the first time a conversation is seen, so a
//! restarted proxy continues the run.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::error::{io, Result};
use crate::request::Mapping;

const MAPPINGS: &str = "prefixes.jsonl";
const STOOD_DOWN: &str = "stood_down.txt";

/// One conversation's state. Held behind its own lock while a request of
/// it is planned, so two turns never compact at once.
#[derive(Debug)]
pub struct Conversation {
    pub id: String,
    pub dir: PathBuf,
    pub mappings: Vec<Mapping>,
    /// Compactions made so far (the next one's sequence number).
    pub compactions: usize,
    /// A compaction failed at this size: none is tried again until the
    /// request is a headroom larger (no compaction loop).
    pub hold_below: Option<usize>,
    /// The upstream refused a rewritten request: this conversation passes
    /// through untouched from now on.
    pub stood_down: Option<String>,
}

impl Conversation {
    fn load(id: &str, dir: PathBuf) -> Result<Self> {
        let mut mappings = Vec::new();
        match std::fs::read_to_string(dir.join(MAPPINGS)) {
            Ok(text) => {
                for line in text.lines().filter(|l| !l.trim().is_empty()) {
                    mappings.push(serde_json::from_str(line)?);
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(io(dir.join(MAPPINGS))(e)),
        }
        let stood_down = std::fs::read_to_string(dir.join(STOOD_DOWN)).ok();
        Ok(Conversation {
            id: id.to_string(),
            compactions: mappings.len(),
            dir,
            mappings,
            hold_below: None,
            stood_down,
        })
    }

    /// Keep `m` in memory and on disk.
    pub fn add_mapping(&mut self, m: Mapping) -> Result<()> {
        append_line(&self.dir.join(MAPPINGS), &serde_json::to_vec(&m)?)?;
        self.mappings.push(m);
        Ok(())
    }

    /// Pass everything of this conversation through from now on.
    pub fn stand_down(&mut self, why: &str) -> Result<()> {
        std::fs::create_dir_all(&self.dir).map_err(io(&self.dir))?;
        let path = self.dir.join(STOOD_DOWN);
        std::fs::write(&path, why).map_err(io(&path))?;
        self.stood_down = Some(why.to_string());
        Ok(())
    }
}

/// Append one line to `path`, creating it and its folder.
pub fn append_line(path: &Path, line: &[u8]) -> Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(io(parent))?;
    }
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(io(path))?;
    let mut buf = line.to_vec();
    buf.push(b'\n');
    f.write_all(&buf).map_err(io(path))
}

pub type Shared = Arc<tokio::sync::Mutex<Conversation>>;

/// Every conversation seen, by id.
pub struct Store {
    dir: PathBuf,
    open: Mutex<HashMap<String, Shared>>,
}

impl Store {
    pub fn new(data_dir: &Path) -> Self {
        Store {
            dir: data_dir.join("conversations"),
            open: Mutex::new(HashMap::new()),
        }
    }

    /// The conversation `id`, loaded from disk the first time.
    pub fn get(&self, id: &str) -> Result<Shared> {
        let mut open = self
            .open
            .lock()
            .map_err(|_| crate::error::ServeError::Task("conversation table poisoned".into()))?;
        if let Some(c) = open.get(id) {
            return Ok(c.clone());
        }
        let c = Arc::new(tokio::sync::Mutex::new(Conversation::load(
            id,
            self.dir.join(id),
        )?));
        open.insert(id.to_string(), c.clone());
        Ok(c)
    }
}
