//! One state per conversation under the data dir: the prefix mappings that
//! later turns splice onto, the compactions made (the run's audit, reports
//! and policy pin, see `rewrite`), and whether the proxy has stood down for
//! it. Loaded from disk the first time a conversation is seen, so a
//! restarted proxy continues the run. At most a set number stay in memory:
//! the least recently used idle one is let go, and read again when its
//! conversation comes back.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::error::{io, Result};
use crate::request::Mapping;

const MAPPINGS: &str = "prefixes.jsonl";
const STOOD_DOWN: &str = "stood_down.txt";
const HOLD_BELOW: &str = "hold_below.txt";

/// How many conversations stay in memory unless the config says otherwise.
pub const OPEN_CONVERSATIONS: usize = 1024;

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
        let hold_below = std::fs::read_to_string(dir.join(HOLD_BELOW))
            .ok()
            .and_then(|t| t.trim().parse().ok());
        Ok(Conversation {
            id: id.to_string(),
            compactions: mappings.len(),
            dir,
            mappings,
            hold_below,
            stood_down,
        })
    }

    /// Try no compaction again until the request reaches `tokens`. Kept on
    /// disk too, so a conversation read back after eviction or a restart
    /// does not retry at once (no compaction loop).
    pub fn hold(&mut self, tokens: usize) -> Result<()> {
        self.hold_below = Some(tokens);
        std::fs::create_dir_all(&self.dir).map_err(io(&self.dir))?;
        let path = self.dir.join(HOLD_BELOW);
        std::fs::write(&path, tokens.to_string()).map_err(io(&path))
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

/// The conversations in memory, by id, with when each was last asked for.
#[derive(Default)]
struct Open {
    by_id: HashMap<String, (Shared, u64)>,
    clock: u64,
}

impl Open {
    /// Let go of the least recently used conversations that no request
    /// holds until at most `capacity` remain (more while requests hold
    /// them).
    fn evict(&mut self, capacity: usize) {
        while self.by_id.len() > capacity {
            let idle = self
                .by_id
                .iter()
                .filter(|(_, (c, _))| Arc::strong_count(c) == 1)
                .min_by_key(|(_, (_, used))| *used)
                .map(|(id, _)| id.clone());
            match idle {
                Some(id) => self.by_id.remove(&id),
                None => return,
            };
        }
    }
}

/// The conversations seen, at most `capacity` of them in memory.
pub struct Store {
    dir: PathBuf,
    capacity: usize,
    open: Mutex<Open>,
}

impl Store {
    pub fn new(data_dir: &Path, capacity: usize) -> Self {
        Store {
            dir: data_dir.join("conversations"),
            capacity: capacity.max(1),
            open: Mutex::new(Open::default()),
        }
    }

    /// The conversation `id`, read from disk when it is not in memory.
    pub fn get(&self, id: &str) -> Result<Shared> {
        let mut open = self
            .open
            .lock()
            .map_err(|_| crate::error::ServeError::Task("conversation table poisoned".into()))?;
        open.clock += 1;
        let now = open.clock;
        if let Some((c, used)) = open.by_id.get_mut(id) {
            *used = now;
            return Ok(c.clone());
        }
        let c = Arc::new(tokio::sync::Mutex::new(Conversation::load(
            id,
            self.dir.join(id),
        )?));
        open.by_id.insert(id.to_string(), (c.clone(), now));
        // `c` is held here, so the new conversation is never the one let go.
        open.evict(self.capacity);
        Ok(c)
    }

    /// How many conversations are in memory.
    pub fn in_memory(&self) -> usize {
        self.open.lock().map(|o| o.by_id.len()).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_least_recently_used_idle_conversation_is_let_go() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::new(dir.path(), 2);
        drop(store.get("a").unwrap());
        drop(store.get("b").unwrap());
        drop(store.get("a").unwrap());
        drop(store.get("c").unwrap());
        assert_eq!(store.in_memory(), 2);
        let open = store.open.lock().unwrap();
        assert!(open.by_id.contains_key("a") && open.by_id.contains_key("c"));
    }

    #[test]
    fn a_conversation_a_request_holds_stays() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::new(dir.path(), 1);
        let held = store.get("a").unwrap();
        drop(store.get("b").unwrap());
        drop(store.get("c").unwrap());
        let open = store.open.lock().unwrap();
        assert!(open.by_id.contains_key("a"), "held, so kept over the limit");
        assert!(!open.by_id.contains_key("b"), "idle and older than c");
        drop(held);
    }

    #[test]
    fn a_hold_survives_eviction() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::new(dir.path(), 1);
        let a = store.get("a").unwrap();
        a.try_lock().unwrap().hold(5000).unwrap();
        drop(a);
        drop(store.get("b").unwrap());
        let again = store.get("a").unwrap();
        assert_eq!(again.try_lock().unwrap().hold_below, Some(5000));
    }
}
