//! Token counting behind one trait. The pipeline measures every segment
//! with a [`TokenCount`]; the exact, tokenizer-backed counter lives in
//! `continuity-models`, so this crate needs no tokenizer.

use crate::error::Error;

/// Anything that counts tokens; the pipeline only needs this.
pub trait TokenCount {
    fn count(&self, text: &str) -> Result<usize, Error>;
    /// Each text's count, in order. A tokenizer-backed counter counts them
    /// in parallel: a long transcript is most of a compaction's time.
    fn count_each(&self, texts: &[&str]) -> Result<Vec<usize>, Error> {
        texts.iter().map(|t| self.count(t)).collect()
    }
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

    /// The texts not counted yet go to the inner counter together.
    fn count_each(&self, texts: &[&str]) -> Result<Vec<usize>, Error> {
        let missing: Vec<&str> = {
            let cache = self.cache.borrow();
            let mut seen = std::collections::HashSet::new();
            texts
                .iter()
                .copied()
                .filter(|t| !cache.contains_key(*t) && seen.insert(*t))
                .collect()
        };
        let counted = self.inner.count_each(&missing)?;
        let mut cache = self.cache.borrow_mut();
        for (text, n) in missing.iter().zip(counted) {
            cache.insert(text.to_string(), n);
        }
        Ok(texts
            .iter()
            .map(|t| cache.get(*t).copied().unwrap_or(0))
            .collect())
    }

    fn name(&self) -> &str {
        self.inner.name()
    }
}

/// How the provider's recorded count relates to ours over the requests a
/// transcript recorded both for: `recorded ≈ factor × ours + offset`. The
/// offset is what the transcript does not hold (the harness's system prompt
/// and tool schemas, hidden reasoning); the factor, the tokenizers' ratio.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Calibration {
    pub factor: f64,
    pub offset: f64,
    /// (ours, recorded) pairs it was fitted on.
    pub pairs: usize,
}

impl Calibration {
    /// The provider's count predicted from ours.
    pub fn predict(&self, ours: f64) -> f64 {
        self.factor * ours + self.offset
    }
}

/// Least squares of recorded on ours. With too little spread in our counts
/// for a slope, or a slope outside 0.5–2 (no tokenizer pair is that far
/// apart), the factor is the ratio of the sums and the offset zero.
pub fn fit(pairs: &[(f64, f64)]) -> Option<Calibration> {
    let n = pairs.len() as f64;
    let (sx, sy): (f64, f64) = pairs.iter().fold((0.0, 0.0), |a, p| (a.0 + p.0, a.1 + p.1));
    if pairs.is_empty() || sx <= 0.0 {
        return None;
    }
    let (mx, my) = (sx / n, sy / n);
    let sxx: f64 = pairs.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let sxy: f64 = pairs.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let spread = (sxx / n).sqrt();
    let slope = if spread > 0.05 * mx {
        sxy / sxx
    } else {
        f64::NAN
    };
    Some(if (0.5..=2.0).contains(&slope) {
        Calibration {
            factor: slope,
            offset: my - slope * mx,
            pairs: pairs.len(),
        }
    } else {
        Calibration {
            factor: sy / sx,
            offset: 0.0,
            pairs: pairs.len(),
        }
    })
}

/// With an exact tokenizer the factor is 1: only the unseen offset (the
/// mean difference) is fitted.
pub fn fit_offset(pairs: &[(f64, f64)]) -> Option<Calibration> {
    if pairs.is_empty() {
        return None;
    }
    let d: f64 = pairs.iter().map(|p| p.1 - p.0).sum::<f64>() / pairs.len() as f64;
    Some(Calibration {
        factor: 1.0,
        offset: d,
        pairs: pairs.len(),
    })
}

/// |predicted − recorded| / recorded.
pub fn relative_error(predicted: f64, recorded: f64) -> f64 {
    if recorded == 0.0 {
        return if predicted == 0.0 { 0.0 } else { f64::INFINITY };
    }
    (predicted - recorded).abs() / recorded
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_affine_relation_is_recovered() {
        let pairs: Vec<(f64, f64)> = (1..=10)
            .map(|i| (1000.0 * i as f64, 1.2 * 1000.0 * i as f64 + 5000.0))
            .collect();
        let c = fit(&pairs).unwrap();
        assert!((c.factor - 1.2).abs() < 1e-9, "{c:?}");
        assert!((c.offset - 5000.0).abs() < 1e-6, "{c:?}");
        assert!(relative_error(c.predict(20_000.0), 29_000.0) < 1e-9);
    }

    #[test]
    fn no_spread_falls_back_to_the_ratio() {
        let c = fit(&[(1000.0, 1100.0), (1000.0, 1300.0)]).unwrap();
        assert_eq!(c.offset, 0.0);
        assert!((c.factor - 1.2).abs() < 1e-9);
        assert!(fit(&[]).is_none());
        let o = fit_offset(&[(100.0, 150.0), (200.0, 230.0)]).unwrap();
        assert_eq!((o.factor, o.offset), (1.0, 40.0));
    }

    /// Words, counting which texts it was asked for.
    struct Tally(std::cell::RefCell<Vec<String>>);
    impl TokenCount for Tally {
        fn count(&self, text: &str) -> Result<usize, Error> {
            self.0.borrow_mut().push(text.to_string());
            Ok(text.split_whitespace().count())
        }
        fn name(&self) -> &str {
            "tally"
        }
    }

    #[test]
    fn counting_many_at_once_counts_each_distinct_text_once_in_order() {
        let inner = Tally(Default::default());
        let cached = CachedCount::new(&inner);
        assert_eq!(cached.count("a b").unwrap(), 2);
        let counts = cached.count_each(&["one", "a b", "x y z", "one"]).unwrap();
        assert_eq!(counts, [1, 2, 3, 1]);
        assert_eq!(*inner.0.borrow(), ["a b", "one", "x y z"]);
    }
}
