//! The retention curve as a Markdown table: one row per target.

use std::fmt::Write;

use continuity_eval::retention::Point;

pub fn table(points: &[Point]) -> String {
    let categories: Vec<String> = points
        .first()
        .map(|p| p.by_category().into_keys().collect())
        .unwrap_or_default();
    let mut out = String::new();
    let _ = write!(out, "| target | present |");
    for c in &categories {
        let _ = write!(out, " {c} |");
    }
    let _ = writeln!(out, " reduction | max after | over target | refused |");
    let _ = write!(out, "|---:|---:|");
    for _ in &categories {
        let _ = write!(out, "---:|");
    }
    let _ = writeln!(out, "---:|---:|---:|---:|");
    for p in points {
        let total = p.total();
        let by = p.by_category();
        let _ = write!(
            out,
            "| {} | {}/{} ({:.1}%) |",
            p.target,
            total.present,
            total.asked,
            total.pct()
        );
        for c in &categories {
            let t = by.get(c).copied().unwrap_or_default();
            let _ = write!(out, " {:.1}% |", t.pct());
        }
        let reduction = match p.reduction_range() {
            Some((lo, hi)) => format!("{lo:.1}–{hi:.1}%"),
            None => "-".to_string(),
        };
        let after = p
            .max_tokens_after()
            .map_or("-".to_string(), |a| a.to_string());
        let _ = writeln!(
            out,
            " {reduction} | {after} | {} | {} |",
            p.over_target(),
            p.refused()
        );
    }
    out
}
