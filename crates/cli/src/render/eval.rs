//! What `eval`, `eval-bench` and `eval-train` print.

use continuity_eval::evaluate::bench::Scores;
use continuity_eval::evaluate::suite::BenchReport;
use continuity_eval::evaluate::xenc::train::TrainReport;
use continuity_eval::evaluate::{SummaryReport, Verdict};

/// A readable table of one report.
pub fn summary_table(r: &SummaryReport) -> String {
    let mut out = format!("summary {}\n", r.id);
    out.push_str(&format!(
        "{:<6} {:<13} {:>6}  {:<8} sentences / reasons\n",
        "fact", "verdict", "score", "keyword"
    ));
    for f in &r.facts {
        let kw = if r.keyword.facts_present.contains(&f.id) {
            "present"
        } else {
            "missing"
        };
        let first = f.sentences.first().map(String::as_str).unwrap_or("-");
        out.push_str(&format!(
            "{:<6} {:<13} {:>6.3}  {:<8} {}\n",
            f.id,
            f.verdict.name(),
            f.score,
            kw,
            first
        ));
        for s in f.sentences.iter().skip(1) {
            out.push_str(&format!("{:>38}{}\n", "", s));
        }
        for reason in &f.reasons {
            out.push_str(&format!("{:>38}! {}\n", "", reason));
        }
    }
    if !r.mismatches.is_empty() {
        out.push_str("mismatches:\n");
        for m in &r.mismatches {
            out.push_str(&format!(
                "  {} {}: {} [{}]\n",
                m.kind, m.value, m.reason, m.sentence
            ));
        }
    }
    if !r.unsupported.is_empty() {
        out.push_str("unsupported sentences:\n");
        for u in &r.unsupported {
            out.push_str(&format!("  {} [{}]\n", u.reason, u.sentence));
        }
    }
    out.push_str(&format!(
        "keyword check: mission terms missing {:?}; facts missing {:?}\n",
        r.keyword.terms_missing, r.keyword.facts_missing
    ));
    out
}

/// A confusion matrix with recall and precision per verdict.
pub fn scores(s: &Scores, title: &str) -> String {
    let mut out = format!(
        "{title}: n={} balanced accuracy {:.3}\n",
        s.n, s.balanced_accuracy
    );
    out.push_str("  gold \\ predicted   supported  omitted  contradicted   recall  precision\n");
    for v in Verdict::ALL {
        let k = v.index();
        out.push_str(&format!(
            "  {:<18} {:>9} {:>8} {:>13}   {:>6.3}  {:>9.3}\n",
            v.name(),
            s.confusion[k][0],
            s.confusion[k][1],
            s.confusion[k][2],
            s.recall[k],
            s.precision[k]
        ));
    }
    out
}

/// `eval-bench` as text: calibration, then each split's scores, variants,
/// per-case figures and ablations, then timing.
pub fn bench(r: &BenchReport) -> String {
    let mut out = String::new();
    if let Some(c) = &r.calibration {
        out.push_str(&format!(
            "calibrated thresholds on calib split: balanced accuracy {:.3}; wrote {}\n",
            c.thresholds_balanced_accuracy,
            c.thresholds_file.display()
        ));
        for t in &c.combiners {
            out.push_str(&format!(
                "trained combiner '{}' on calib split (l2 {}): leave-one-case-out balanced accuracy {:.3}\n  {}\n",
                t.judge, t.l2, t.cross_validated, t.note
            ));
        }
        out.push_str(&format!("wrote {}\n", c.combiner_file.display()));
    }
    if let Some((n, path)) = &r.exported_pairs {
        out.push_str(&format!(
            "wrote {n} calibration judge pairs to {}\n",
            path.display()
        ));
    }
    out.push_str(&format!("default decision: {}\n", r.decision));
    for s in &r.splits {
        out.push_str(&format!("== split {}: {} summaries\n", s.name, s.summaries));
        out.push_str(&scores(
            &s.evaluator,
            &format!("evaluator ({})", r.decision),
        ));
        out.push_str(&scores(&s.keyword, "keyword check"));
        out.push_str("  variants (balanced accuracy):\n");
        for (name, v) in &s.variants {
            out.push_str(&format!("    {name:<44} {v:.3}\n"));
        }
        out.push_str("  per case (balanced accuracy: default / combiner, no judge / keyword):\n");
        for c in &s.per_case {
            out.push_str(&format!(
                "    {:<18} {:>3} summaries  {:.3} / {:.3} / {:.3}\n",
                c.case, c.summaries, c.default, c.combiner_no_judge, c.keyword
            ));
        }
        out.push_str(&format!("  ablations of the default ({}):\n", r.decision));
        for (name, v) in &s.ablations {
            out.push_str(&format!("    without {name}: {v:.3}\n"));
        }
    }
    for e in &r.errors {
        out.push_str(&format!(
            "ERR {} {} gold {} got {} {:.2} {:?}\n",
            e.summary, e.fact, e.gold, e.got, e.score, e.sentences
        ));
    }
    out.push_str(&format!(
        "seconds per summary (judge {}): median {:.3}, mean {:.3} (model load {:.2} s, once)\n",
        r.judge, r.seconds_median, r.seconds_mean, r.model_load_seconds
    ));
    for s in &r.skipped {
        out.push_str(&format!("skipped: {s}\n"));
    }
    out
}

/// `eval-bench --json`: the splits by name, then the run's settings.
pub fn bench_json(r: &BenchReport) -> serde_json::Value {
    use serde_json::json;
    let mut report = serde_json::Map::new();
    for s in &r.splits {
        let variants: serde_json::Map<String, serde_json::Value> = s
            .variants
            .iter()
            .map(|(k, v)| (k.clone(), json!(v)))
            .collect();
        let per_case: serde_json::Map<String, serde_json::Value> = s
            .per_case
            .iter()
            .map(|c| (c.case.clone(), json!(c)))
            .collect();
        report.insert(
            s.name.clone(),
            json!({"summaries": s.summaries, "evaluator": s.evaluator, "keyword": s.keyword, "variants": variants, "per_case": per_case}),
        );
    }
    report.insert("judge".into(), json!(r.judge));
    report.insert("decision".into(), json!(r.decision));
    report.insert("seconds_median".into(), json!(r.seconds_median));
    report.insert("seconds_mean".into(), json!(r.seconds_mean));
    report.insert("model_load_seconds".into(), json!(r.model_load_seconds));
    report.insert("thresholds".into(), json!(r.thresholds));
    report.insert("skipped".into(), json!(r.skipped));
    serde_json::Value::Object(report)
}

/// `eval-train` as text: pairs, steps, the loss curve and the dev scores.
pub fn training(report: &TrainReport, steps: usize, out: &std::path::Path) -> String {
    let mut s = format!(
        "trained on {} pairs for {} steps in {:.0} s; wrote {}\n",
        report.train_pairs,
        steps,
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
    s
}
