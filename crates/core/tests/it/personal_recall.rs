//! Recall of personal data and credentials by kind, on sessions the
//! generator in `plant/` writes (six domains, six formats), and not one
//! look-alike lost. Prints the table docs/retention.md reports:
//! `cargo test -p continuity-core --test it personal_recall -- --nocapture`.

use std::collections::BTreeMap;

use continuity_core::error::Source;
use continuity_core::formats;
use continuity_core::redact::Redactor;

use crate::plant;

/// Sessions per domain, and records per session.
const SEEDS: u64 = 8;
const PEOPLE: usize = 12;

#[derive(Default)]
struct Tally {
    planted: usize,
    leaked: Vec<String>,
}

fn present(text: &str, value: &str) -> bool {
    let escaped = serde_json::to_string(value).unwrap_or_default();
    text.contains(value) || text.contains(escaped.trim_matches('"'))
}

#[test]
fn personal_recall_by_kind() {
    let mut kinds: BTreeMap<&str, Tally> = BTreeMap::new();
    let (mut look_alikes, mut lost) = (0, Vec::new());
    for (d, domain) in plant::DOMAINS.iter().enumerate() {
        for seed in 0..SEEDS {
            let s = plant::session(domain, 1000 * d as u64 + seed, PEOPLE);
            let t = formats::parse_value(&s.body, &Source(domain.name.into())).unwrap();
            let before = serde_json::to_string(&formats::render(&t)).unwrap();
            let mut redactor = Redactor::new(&Default::default()).unwrap();
            let (redacted, _) = redactor.redact_transcript(&t);
            let after = serde_json::to_string(&formats::render(&redacted)).unwrap();
            for (kind, value) in &s.planted {
                // A part of an address is a leak too (its street, its
                // postcode), and so is any line of a private key.
                let parts: Vec<&str> = match *kind {
                    "address" => value
                        .split(", ")
                        .filter(|p| p.chars().any(|c| c.is_ascii_digit()))
                        .collect(),
                    "private-key" => value.lines().collect(),
                    _ => vec![value.as_str()],
                };
                // The measure is only as good as the plant: every value is
                // in the session as written.
                for part in &parts {
                    assert!(present(&before, part), "{kind} {part:?} not planted");
                }
                if std::env::var("PLANT_DEBUG").is_ok_and(|d| value.contains(&d)) {
                    println!("PLANTED {kind} {value}");
                }
                let tally = kinds.entry(kind).or_default();
                tally.planted += 1;
                let leaked = parts.iter().any(|p| present(&after, p));
                if leaked {
                    if std::env::var("PLANT_DEBUG").is_ok() {
                        let i = after.find(value).unwrap_or(0);
                        let lo = after.floor_char_boundary(i.saturating_sub(150));
                        let hi = after.floor_char_boundary((i + 100).min(after.len()));
                        println!("CTX {kind} {value}: {}", &after[lo..hi]);
                    }
                    tally.leaked.push(format!("{}: {value}", domain.name));
                }
            }
            for value in &s.look_alikes {
                look_alikes += 1;
                if !present(&after, value) {
                    if std::env::var("PLANT_DEBUG").is_ok() {
                        let i = before.find(value.as_str()).unwrap_or(0);
                        let lo = before.floor_char_boundary(i.saturating_sub(100));
                        let hi = before.floor_char_boundary((i + 60).min(before.len()));
                        println!("LOST {value}: {}", &before[lo..hi]);
                    }
                    lost.push(format!("{}: {value}", domain.name));
                }
            }
        }
    }
    println!("| kind | planted | withheld | recall | false positives |\n|---|---:|---:|---:|---:|");
    for (kind, t) in &kinds {
        let withheld = t.planted - t.leaked.len();
        let recall = 100.0 * withheld as f64 / t.planted as f64;
        println!("| {kind} | {} | {withheld} | {recall:.1}% | |", t.planted);
    }
    println!("| look-alikes | {look_alikes} | | | {} lost |", lost.len());
    for (kind, t) in &kinds {
        for l in &t.leaked {
            println!("leaked {kind} {l}");
        }
    }
    for (kind, t) in &kinds {
        let recall = (t.planted - t.leaked.len()) as f64 / t.planted as f64;
        assert!(recall >= 0.99, "{kind}: recall {recall:.3}: {:?}", t.leaked);
    }
    assert!(lost.is_empty(), "look-alikes lost: {lost:?}");
}
