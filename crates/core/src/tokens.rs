//! Token counting behind one trait. The pipeline measures every segment
//! with a [`TokenCount`]; the exact, tokenizer-backed counter lives in
//! `continuity-models`, so this crate needs no tokenizer.

use crate::error::Error;

/// Anything that counts tokens; the pipeline only needs this.
pub trait TokenCount {
    fn count(&self, text: &str) -> Result<usize, Error>;
    /// A short name for reports.
    fn name(&self) -> &str;
}

/// Counts each distinct text once: a compaction measures the same parts for
/// the before total, the audit and the tail.
pub struct CachedCount<'a> {
    inner: &'a dyn TokenCount,
    cache: std::cell::RefCell<std::collections::HashMap<String, usize>>,
}

impl<'a> CachedCount<'a> {
    pub fn new(inner: &'a dyn TokenCount) -> Self {
        CachedCount {
            inner,
            cache: Default::default(),
        }
    }
}

impl TokenCount for CachedCount<'_> {
    fn count(&self, text: &str) -> Result<usize, Error> {
        if let Some(n) = self.cache.borrow().get(text) {
            return Ok(*n);
        }
        let n = self.inner.count(text)?;
        self.cache.borrow_mut().insert(text.to_string(), n);
        Ok(n)
    }

    fn name(&self) -> &str {
        self.inner.name()
    }
}
