//! What the `eval` and `eval-bench` subcommands do, so the binary stays thin.

use std::path::Path;
use std::time::Instant;

use serde::Deserialize;

use super::bench::{self, Scores};
use super::combine::{Combiner, CombinerFile};
use super::{load_embedder, render_table, Evaluator, Records, Thresholds};
use crate::facts::FactKey;
use continuity_core::error::{Error, InputError, Result, Source};

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
    judge: &str,
) -> Result<String> {
    let (t, _) = continuity_core::io::read_transcript(input)?;
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
    let mut ev = Evaluator::with_judge(load_embedder()?, judge)?;
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

/// `continuity eval-bench`: score the labeled set with `judge` ("none" for
/// none). With `calibrate`, first grid-search thresholds and train the
/// combiners (without a judge, and with `judge`) on the calibration split,
/// and write `DIR/thresholds.toml` and `DIR/combiner.toml`.
/// With `export_pairs`, also write the calibration split's judge-input
/// pairs there ([`bench::calib_judge_pairs`], JSON lines).
pub fn eval_bench(
    dir: &Path,
    calibrate: bool,
    json: bool,
    judge: &str,
    export_pairs: Option<&Path>,
) -> Result<String> {
    let set = bench::load_set(dir)?;
    let load_start = Instant::now();
    let mut ev = Evaluator::with_judge(load_embedder()?, judge)?;
    let load_s = load_start.elapsed().as_secs_f64();
    let file = dir.join("thresholds.toml");
    if let Ok(text) = std::fs::read_to_string(&file) {
        ev.thresholds = toml::from_str(&text)
            .map_err(|e| Error::Internal(format!("{}: {e}", file.display())))?;
    }
    let cfile = dir.join("combiner.toml");
    let mut combiners = std::fs::read_to_string(&cfile)
        .ok()
        .and_then(|t| CombinerFile::parse(&t))
        .unwrap_or_default();
    let analyzed = bench::analyze_set(&mut ev, &set)?;
    let mut out = String::new();
    let mut t = ev.thresholds;
    if calibrate {
        let (best, ba) = bench::calibrate(&analyzed, &t);
        t = best;
        write_atomically(&file, bench::thresholds_toml(&t, ba))?;
        out.push_str(&format!(
            "calibrated thresholds on calib split: balanced accuracy {ba:.3}; wrote {}\n",
            file.display()
        ));
        let mut variants = vec![false];
        if judge != "none" {
            variants.push(true);
        }
        for with_judge in variants {
            let (c, cv) = bench::train_combiner(&analyzed, &t, judge, with_judge);
            out.push_str(&format!(
                "trained combiner '{}' on calib split (l2 {}): leave-one-case-out balanced accuracy {cv:.3}\n  {}\n",
                c.judge, c.l2, c.note
            ));
            combiners.put(c);
        }
        write_atomically(&cfile, bench::combiner_toml(&combiners)?)?;
        out.push_str(&format!("wrote {}\n", cfile.display()));
    }
    if let Some(path) = export_pairs {
        let pairs = bench::calib_judge_pairs(&analyzed, &t, ev.judge_floor);
        let mut text = String::new();
        for p in &pairs {
            let line = serde_json::to_string(p).map_err(|e| Error::Internal(e.to_string()))?;
            text.push_str(&line);
            text.push('\n');
        }
        write_atomically(path, text)?;
        out.push_str(&format!(
            "wrote {} calibration judge pairs to {}\n",
            pairs.len(),
            path.display()
        ));
    }
    let none_c = combiners.get("none");
    let judge_c = if judge == "none" {
        None
    } else {
        combiners.get(judge)
    };
    let default_c = judge_c.clone().or_else(|| none_c.clone());
    let count = |split: &str| {
        set.items
            .iter()
            .filter(|(i, _)| split == "all" || i.split == split)
            .count()
    };
    let default_name = match (&judge_c, &none_c, judge) {
        (Some(_), _, j) => format!("combiner + judge {j}"),
        (None, Some(_), "none") => "combiner (no judge)".to_string(),
        (None, Some(_), j) => format!("combiner (no judge; judge {j} scores reported only)"),
        (None, None, _) => "threshold rules".to_string(),
    };
    out.push_str(&format!("default decision: {default_name}\n"));
    let mut report = serde_json::Map::new();
    for split in ["calib", "heldout"] {
        let (ours, kw) = bench::pairs(&analyzed, split, &t, default_c.as_ref());
        let s = Scores::from_pairs(&ours);
        let k = Scores::from_pairs(&kw);
        out.push_str(&format!("== split {split}: {} summaries\n", count(split)));
        out.push_str(&s.render(&format!("evaluator ({default_name})")));
        out.push_str(&k.render("keyword check"));
        let ba = |c: Option<&Combiner>, t2: &Thresholds| {
            let (p, _) = bench::pairs(&analyzed, split, t2, c);
            Scores::from_pairs(&p).balanced_accuracy
        };
        let mut variants = serde_json::Map::new();
        out.push_str("  variants (balanced accuracy):\n");
        let mut row = |name: &str, v: f64| {
            out.push_str(&format!("    {name:<44} {v:.3}\n"));
            variants.insert(name.to_string(), serde_json::json!(v));
        };
        row(
            "threshold rules (embedder, lexicon, values)",
            ba(
                None,
                &Thresholds {
                    judge: f32::MAX,
                    ..t
                },
            ),
        );
        if let Some(c) = &none_c {
            row("combiner, no judge", ba(Some(c), &t));
        }
        if judge != "none" {
            let jp = bench::judge_alone_pairs(&analyzed, split, &t);
            row(
                &format!("rules for mention + judge {judge} alone"),
                Scores::from_pairs(&jp).balanced_accuracy,
            );
            row(
                &format!("rules + judge {judge} (p(contradicts) > 0.5)"),
                ba(None, &Thresholds { judge: 0.5, ..t }),
            );
            if let Some(c) = &judge_c {
                row(&format!("combiner + judge {judge}"), ba(Some(c), &t));
            }
        }
        // Ablations of the threshold rules: each signal off in turn.
        let ablations: Vec<(&str, Thresholds)> = vec![
            (
                "lexicon",
                Thresholds {
                    lexicon: false,
                    ..t
                },
            ),
            ("value checks", Thresholds { values: false, ..t }),
            (
                "counterfactual contrast",
                Thresholds {
                    contrast: f32::MAX,
                    ..t
                },
            ),
            (
                "anchor bonus",
                Thresholds {
                    anchor_bonus: 0.0,
                    ..t
                },
            ),
            ("id bonus", Thresholds { id_bonus: 0.0, ..t }),
            (
                "relative alignment",
                Thresholds {
                    rel_mention: f32::MAX,
                    ..t
                },
            ),
            (
                "foreign-id penalty",
                Thresholds {
                    foreign_penalty: 0.0,
                    ..t
                },
            ),
            (
                "fact-clause alignment",
                Thresholds {
                    part_discount: f32::MAX,
                    ..t
                },
            ),
            (
                "lower alignment for conflicting clauses",
                Thresholds {
                    conflict_mention: f32::MAX,
                    ..t
                },
            ),
        ];
        // Per case: where the errors are.
        let mut cases: Vec<&str> = set
            .items
            .iter()
            .filter(|(i, _)| i.split == split)
            .map(|(i, _)| i.case.as_str())
            .collect();
        cases.sort();
        cases.dedup();
        let mut per_case = serde_json::Map::new();
        out.push_str("  per case (balanced accuracy: default / combiner, no judge / keyword):\n");
        for case in cases {
            let keep = |i: &super::bench::Item| i.split == split && i.case == case;
            let (d, kw) = bench::pairs_where(&analyzed, &t, default_c.as_ref(), keep);
            let (n, _) = bench::pairs_where(&analyzed, &t, none_c.as_ref(), keep);
            let [d, n, kw] = [d, n, kw].map(|p| Scores::from_pairs(&p).balanced_accuracy);
            let summaries = set.items.iter().filter(|(i, _)| keep(i)).count();
            out.push_str(&format!(
                "    {case:<18} {summaries:>3} summaries  {d:.3} / {n:.3} / {kw:.3}\n"
            ));
            per_case.insert(
                case.to_string(),
                serde_json::json!({"summaries": summaries, "default": d, "combiner_no_judge": n, "keyword": kw}),
            );
        }
        out.push_str(&format!("  ablations of the default ({default_name}):\n"));
        for (name, t2) in ablations {
            out.push_str(&format!(
                "    without {name}: {:.3}\n",
                ba(default_c.as_ref(), &t2)
            ));
        }
        report.insert(
            split.to_string(),
            serde_json::json!({"summaries": count(split), "evaluator": s, "keyword": k, "variants": variants, "per_case": per_case}),
        );
    }
    // Development aid: list the default's errors on one split.
    if let Ok(split) = std::env::var("CONTINUITY_BENCH_ERRORS") {
        for (item, a) in &analyzed.items {
            if item.split != split {
                continue;
            }
            let r = super::decide(a, &t, default_c.as_ref());
            for f in &r.facts {
                if let Some(g) = item.labels.get(&f.id) {
                    if *g != f.verdict {
                        out.push_str(&format!(
                            "ERR {} {} gold {} got {} {:.2} {:?}\n",
                            item.id,
                            f.id,
                            g.name(),
                            f.verdict.name(),
                            f.score,
                            f.sentences
                        ));
                    }
                }
            }
        }
    }
    let med = bench::median(&analyzed.seconds);
    let mean = analyzed.seconds.iter().sum::<f64>() / analyzed.seconds.len().max(1) as f64;
    out.push_str(&format!(
        "seconds per summary (judge {judge}): median {med:.3}, mean {mean:.3} (model load {load_s:.2} s, once)\n"
    ));
    for s in &set.skipped {
        out.push_str(&format!("skipped: {s}\n"));
    }
    report.insert("judge".into(), serde_json::json!(judge));
    report.insert("decision".into(), serde_json::json!(default_name));
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

/// Write `text` beside `path` and rename it into place, so a failed write
/// leaves the old file.
fn write_atomically(path: &Path, text: String) -> Result<()> {
    let tmp = path.with_extension("tmp");
    let io = |p: &Path, e: std::io::Error| Error::Io {
        path: p.to_path_buf(),
        source: e,
    };
    std::fs::write(&tmp, text).map_err(|e| io(&tmp, e))?;
    std::fs::rename(&tmp, path).map_err(|e| io(path, e))
}

/// The files `continuity eval-train` reads and writes.
pub struct TrainFiles<'a> {
    pub pairs: &'a Path,
    /// Pairs each batch draws `mix_share` of its examples from.
    pub mix: &'a [std::path::PathBuf],
    /// Adapters to start from (fine-tuning).
    pub init: Option<&'a Path>,
    pub out: &'a Path,
}

fn read_input(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).map_err(|e| {
        Error::Input(InputError::Unreadable {
            file: Source::path(path),
            message: e.to_string(),
        })
    })
}

fn read_pairs(path: &Path) -> Result<Vec<super::xenc::train::Pair>> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        Error::Input(InputError::Unreadable {
            file: Source::path(path),
            message: e.to_string(),
        })
    })?;
    super::xenc::train::parse_pairs(path, &text)
}

/// `continuity eval-train`: train the cross-encoder judge's adapters on a
/// pairs file and write them to `files.out` (safetensors, written to a
/// temporary file first and renamed, so a failed run leaves the old file).
/// `on_step(step, mean recent loss)` is called after every step. Returns the
/// training report as text (or JSON with `json`).
pub fn eval_train(
    files: &TrainFiles,
    mut opts: super::xenc::train::TrainOptions,
    on_step: &mut dyn FnMut(usize, f32),
    json: bool,
) -> Result<String> {
    use super::xenc::{self, train};
    let pairs = read_pairs(files.pairs)?;
    for mix in files.mix {
        opts.mix.extend(read_pairs(mix)?);
    }
    if let Some(init) = files.init {
        opts.init = Some((init.display().to_string(), read_input(init)?));
    }
    let out = files.out;
    let dir = continuity_llm::manifest::resolve_model("minilm-l6", None)
        .map_err(|e| Error::Internal(e.to_string()))?;
    let base = xenc::Base::load(&dir, &xenc::model::device())?;
    let mut recent = std::collections::VecDeque::new();
    let (vars, report) = train::train(base, &pairs, &opts, |step, loss| {
        recent.push_back(loss);
        if recent.len() > 20 {
            recent.pop_front();
        }
        on_step(step, recent.iter().sum::<f32>() / recent.len() as f32);
    })?;
    let tmp = out.with_extension("safetensors.tmp");
    vars.save(&tmp)
        .map_err(|e| Error::Internal(format!("{}: {e}", tmp.display())))?;
    std::fs::rename(&tmp, out).map_err(|e| Error::Io {
        path: out.to_path_buf(),
        source: e,
    })?;
    if json {
        return serde_json::to_string_pretty(&report).map_err(|e| Error::Internal(e.to_string()));
    }
    let mut s = format!(
        "trained on {} pairs for {} steps in {:.0} s; wrote {}\n",
        report.train_pairs,
        opts.steps,
        report.seconds,
        out.display()
    );
    s.push_str("loss by step:");
    for (step, l) in &report.loss {
        s.push_str(&format!(" {step}:{l:.3}"));
    }
    s.push('\n');
    if report.dev_pairs > 0 {
        s.push_str(&format!(
            "dev ({} pairs from sources never trained on: {}): balanced accuracy {:.3}\n",
            report.dev_pairs,
            report.dev_sources.join(", "),
            report.dev_balanced_accuracy
        ));
        s.push_str("dev confusion (rows: truth entails/neutral/contradicts):\n");
        for row in &report.dev_confusion {
            s.push_str(&format!("  {:>5} {:>5} {:>5}\n", row[0], row[1], row[2]));
        }
    }
    Ok(s)
}
