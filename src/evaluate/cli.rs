//! What the `eval` and `eval-bench` subcommands do, so the binary stays thin.

use std::path::Path;
use std::time::Instant;

use serde::Deserialize;

use super::bench::{self, Scores};
use super::{load_embedder, render_table, Evaluator, Records, Thresholds};
use crate::error::{Error, InputError, Result, Source};
use crate::facts::FactKey;

#[derive(Deserialize)]
struct Line {
    id: String,
    text: String,
}

/// `continuity eval`: evaluate one summary (`summary`) or many
/// (`summaries`, JSON lines `{"id","text"}`) against an archive and a key.
/// Returns what to print: JSON lines with `json`, else tables.
pub fn eval(
    input: &str,
    key_path: &Path,
    summary: Option<&Path>,
    summaries: Option<&Path>,
    json: bool,
) -> Result<String> {
    let (t, _) = crate::io::read_transcript(input)?;
    let key_text = std::fs::read_to_string(key_path).map_err(|e| {
        Error::Input(InputError::Unreadable {
            file: Source::path(key_path),
            message: e.to_string(),
        })
    })?;
    let key = FactKey::from_toml(&key_text, &Source::path(key_path))?;
    let read = |p: &Path| {
        std::fs::read_to_string(p).map_err(|e| {
            Error::Input(InputError::Unreadable {
                file: Source::path(p),
                message: e.to_string(),
            })
        })
    };
    let mut todo: Vec<(String, String)> = Vec::new();
    if let Some(p) = summary {
        let id = p
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "summary".into());
        todo.push((id, read(p)?));
    }
    if let Some(p) = summaries {
        for (n, line) in read(p)?.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let l: Line = serde_json::from_str(line).map_err(|e| {
                Error::Input(InputError::MalformedJson {
                    file: Source::path(p),
                    line: n + 1,
                    column: e.column(),
                    message: e.to_string(),
                })
            })?;
            todo.push((l.id, l.text));
        }
    }
    let records = Records::from_transcript(&t);
    let mut ev = Evaluator::new(load_embedder()?);
    let mut out = String::new();
    for (id, text) in todo {
        let r = ev.evaluate(&records, &key, &id, &text)?;
        if json {
            out.push_str(&serde_json::to_string(&r).map_err(|e| Error::Internal(e.to_string()))?);
            out.push('\n');
        } else {
            out.push_str(&render_table(&r));
            out.push('\n');
        }
    }
    Ok(out)
}

/// `continuity eval-bench`: score the labeled set; with `calibrate`, first
/// grid-search thresholds on the calibration split and write them to
/// `DIR/thresholds.toml`.
pub fn eval_bench(dir: &Path, calibrate: bool, json: bool) -> Result<String> {
    let set = bench::load_set(dir)?;
    let load_start = Instant::now();
    let mut ev = Evaluator::new(load_embedder()?);
    let load_s = load_start.elapsed().as_secs_f64();
    let file = dir.join("thresholds.toml");
    if let Ok(text) = std::fs::read_to_string(&file) {
        ev.thresholds = toml::from_str(&text)
            .map_err(|e| Error::Internal(format!("{}: {e}", file.display())))?;
    }
    let analyzed = bench::analyze_set(&mut ev, &set)?;
    let mut out = String::new();
    let mut t = ev.thresholds;
    if calibrate {
        let (best, ba) = bench::calibrate(&analyzed, &t);
        t = best;
        std::fs::write(&file, bench::thresholds_toml(&t, ba)).map_err(|e| Error::Io {
            path: file.clone(),
            source: e,
        })?;
        out.push_str(&format!(
            "calibrated on calib split: balanced accuracy {ba:.3}; wrote {}\n",
            file.display()
        ));
    }
    let count = |split: &str| {
        set.items
            .iter()
            .filter(|(i, _)| split == "all" || i.split == split)
            .count()
    };
    let mut report = serde_json::Map::new();
    for split in ["calib", "heldout"] {
        let (ours, kw) = bench::pairs(&analyzed, split, &t);
        let s = Scores::from_pairs(&ours);
        let k = Scores::from_pairs(&kw);
        out.push_str(&format!("== split {split}: {} summaries\n", count(split)));
        out.push_str(&s.render("evaluator"));
        out.push_str(&k.render("keyword check"));
        // Ablations: each signal off in turn.
        let ablate = |name: &str, t2: Thresholds| {
            let (p, _) = bench::pairs(&analyzed, split, &t2);
            format!(
                "  without {name}: {:.3}\n",
                Scores::from_pairs(&p).balanced_accuracy
            )
        };
        out.push_str(&ablate(
            "lexicon",
            Thresholds {
                lexicon: false,
                ..t
            },
        ));
        out.push_str(&ablate("value checks", Thresholds { values: false, ..t }));
        out.push_str(&ablate(
            "counterfactual contrast",
            Thresholds {
                contrast: f32::MAX,
                ..t
            },
        ));
        out.push_str(&ablate(
            "anchor bonus",
            Thresholds {
                anchor_bonus: 0.0,
                ..t
            },
        ));
        out.push_str(&ablate("id bonus", Thresholds { id_bonus: 0.0, ..t }));
        out.push_str(&ablate(
            "relative alignment",
            Thresholds {
                rel_mention: f32::MAX,
                ..t
            },
        ));
        out.push_str(&ablate(
            "foreign-id penalty",
            Thresholds {
                foreign_penalty: 0.0,
                ..t
            },
        ));
        out.push_str(&ablate(
            "fact-clause alignment",
            Thresholds {
                part_discount: f32::MAX,
                ..t
            },
        ));
        out.push_str(&ablate(
            "lower alignment for conflicting clauses",
            Thresholds {
                conflict_mention: f32::MAX,
                ..t
            },
        ));
        report.insert(
            split.to_string(),
            serde_json::json!({"summaries": count(split), "evaluator": s, "keyword": k}),
        );
    }
    let med = bench::median(&analyzed.seconds);
    let mean = analyzed.seconds.iter().sum::<f64>() / analyzed.seconds.len().max(1) as f64;
    out.push_str(&format!(
        "seconds per summary: median {med:.3}, mean {mean:.3} (model load {load_s:.2} s, once)\n"
    ));
    for s in &set.skipped {
        out.push_str(&format!("skipped: {s}\n"));
    }
    report.insert("seconds_median".into(), serde_json::json!(med));
    report.insert("seconds_mean".into(), serde_json::json!(mean));
    report.insert("model_load_seconds".into(), serde_json::json!(load_s));
    report.insert("thresholds".into(), serde_json::json!(t));
    report.insert("skipped".into(), serde_json::json!(set.skipped));
    if json {
        return serde_json::to_string_pretty(&report)
            .map(|s| s + "\n")
            .map_err(|e| Error::Internal(e.to_string()));
    }
    Ok(out)
}
