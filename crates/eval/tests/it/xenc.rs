//! The cross-encoder judge (MiniLM + trained adapters) with the real model.
//! Skips (one line) when MiniLM is not fetched:
//! `python3 models/fetch.py minilm-l6`.

use std::path::PathBuf;

use candle_core::{DType, Tensor};
use candle_nn::{VarBuilder, VarMap};
use continuity_eval::evaluate::xenc::{self, train, Base, CrossEncoderNet};

fn minilm() -> Option<PathBuf> {
    match continuity_models::hub::resolve_model("minilm-l6", None) {
        Ok(d) => Some(d),
        Err(e) => {
            eprintln!("skipping: minilm-l6 not available ({e}); fetch it with: python3 models/fetch.py minilm-l6");
            None
        }
    }
}

fn max_abs_diff(a: &Tensor, b: &Tensor) -> f32 {
    (a - b)
        .unwrap()
        .abs()
        .unwrap()
        .flatten_all()
        .unwrap()
        .max(0)
        .unwrap()
        .to_scalar::<f32>()
        .unwrap()
}

/// Our hand-written encoder (differentiable layer norm, adapters) must
/// compute what candle-transformers' BERT computes when the adapters are
/// zero, including at padding positions' neighbours (masked batch).
#[test]
fn encoder_matches_candle_bert_with_zero_adapters() {
    let Some(dir) = minilm() else { return };
    let device = xenc::model::device();
    let base = Base::load(&dir, &device).unwrap();
    let pairs = vec![
        (
            "The second $149 was an authorization hold that was never captured.".to_string(),
            "The customer was charged twice.".to_string(),
        ),
        ("Short.".to_string(), "Also short.".to_string()),
    ];
    let (ids, types, mask) = xenc::encode_pairs(&base.tokenizer, &pairs, &device).unwrap();
    let varmap = VarMap::new();
    let adapters = VarBuilder::from_varmap(&varmap, DType::F32, &device);
    let net = CrossEncoderNet::load(base.weights(), adapters, &base.config).unwrap();
    train::init_adapters(&varmap, &mut train::Rng::new(7), &device).unwrap();
    // Non-zero A, zero B: the adapters add nothing.
    let ours = net.hidden(&ids, &types, &mask).unwrap();

    let cfg_text = std::fs::read_to_string(dir.join("config.json")).unwrap();
    let cfg: candle_transformers::models::bert::Config = serde_json::from_str(&cfg_text).unwrap();
    let bert = candle_transformers::models::bert::BertModel::load(base.weights(), &cfg).unwrap();
    let theirs = bert.forward(&ids, &types, Some(&mask)).unwrap();
    assert_eq!(ours.dims(), theirs.dims());
    // Compare attended positions only (padding rows are not used).
    let m = mask.to_dtype(DType::F32).unwrap().unsqueeze(2).unwrap();
    let d = max_abs_diff(
        &ours.broadcast_mul(&m).unwrap(),
        &theirs.broadcast_mul(&m).unwrap(),
    );
    assert!(d < 1e-3, "max |ours - candle bert| = {d}");
}

/// Six labeled pairs over two facts: one of each label per fact.
const SMALL_SET: [(&str, &str, &str); 6] = [
    (
        "The hold of $149 was never captured.",
        "The customer was charged $149 twice.",
        "contradicts",
    ),
    (
        "The hold of $149 was never captured.",
        "A $149 authorization was placed but not captured.",
        "entails",
    ),
    (
        "The hold of $149 was never captured.",
        "The agent opened the ticket on Monday.",
        "neutral",
    ),
    (
        "The rollback was staged but not run.",
        "The rollback was executed last night.",
        "contradicts",
    ),
    (
        "The rollback was staged but not run.",
        "The rollback is prepared and has not been run.",
        "entails",
    ),
    (
        "The rollback was staged but not run.",
        "The on-call engineer paged the team.",
        "neutral",
    ),
];

/// A few steps on a handful of pairs must fit them: the gradient reaches
/// the adapters and the head, and the loss falls.
#[test]
fn training_fits_a_small_set() {
    let Some(dir) = minilm() else { return };
    let base = Base::load(&dir, &xenc::model::device()).unwrap();
    let pairs =
        train::parse_pairs(std::path::Path::new("pairs.jsonl"), &pairs_text(&SMALL_SET)).unwrap();
    let opts = train::TrainOptions {
        steps: 24,
        batch: 6,
        lr: 3e-3,
        dev_every: 0,
        ..Default::default()
    };
    let mut losses = Vec::new();
    let (_vars, report) = train::train(base, &pairs, &opts, |_, l| losses.push(l)).unwrap();
    assert_eq!(report.train_pairs, 6);
    let first = losses[..4].iter().sum::<f32>() / 4.0;
    let last = losses[losses.len() - 4..].iter().sum::<f32>() / 4.0;
    assert!(
        last < 0.5 * first,
        "loss {first:.3} -> {last:.3}: {losses:?}"
    );
}

#[test]
fn pairs_file_errors_name_the_line() {
    let p = std::path::Path::new("pairs.jsonl");
    let ok = r#"{"premise":"a","hypothesis":"b","label":"entails"}"#;
    let e = train::parse_pairs(p, &format!("{ok}\n{{not json\n")).unwrap_err();
    assert!(
        e.to_string().contains("pairs.jsonl") && e.to_string().contains("line 2"),
        "{e}"
    );
    let bad = r#"{"premise":"a","hypothesis":"b","label":"maybe"}"#;
    let e = train::parse_pairs(p, &format!("{ok}\n{ok}\n{bad}\n")).unwrap_err();
    assert!(
        e.to_string().contains("line 3") && e.to_string().contains("maybe"),
        "{e}"
    );
    assert!(train::parse_pairs(p, "\n").is_err());
}

/// Both shipped judges (the synthetic-only adapters and the cross-fitted
/// ensemble) on a domain none of the training pairs is about (an art loan):
/// most readings get the right label. Not all: the synthetic-only one reads
/// "the museum bought it and now owns it permanently" as entailed by "the
/// gallery still owns it" (shared words beat meaning), which this test
/// records rather than hides.
#[test]
fn shipped_cross_encoders_read_an_unseen_domain() {
    if minilm().is_none() {
        return;
    }
    for load in [
        xenc::CrossEncoder::load,
        xenc::CrossEncoder::load_cross_fitted,
    ] {
        reads_the_art_loan(load);
    }
}

fn reads_the_art_loan(load: fn() -> continuity_core::error::Result<xenc::CrossEncoder>) {
    let mut judge = load().unwrap();
    let premise = "The gallery lent painting P-1187 to the museum for the spring exhibition only; \
                   the loan is temporary and the gallery still owns the painting.";
    let cases = [
        ("The museum bought painting P-1187 and now owns it permanently.", 2),
        ("The museum bought painting P-1187.", 2),
        ("The gallery sold P-1187 to the museum.", 2),
        ("The loan of P-1187 is permanent.", 2),
        ("P-1187 is not on loan.", 2),
        ("The museum lent painting P-1187 to the gallery.", 2),
        ("P-1187 is on temporary loan to the museum for the spring show; the gallery keeps ownership.", 0),
        ("The gallery still owns P-1187.", 0),
        ("The museum's spring exhibition was discussed.", 1),
    ];
    let pairs: Vec<(String, String)> = cases
        .iter()
        .map(|(h, _)| (premise.to_string(), h.to_string()))
        .collect();
    let r = judge.judge_batch(&pairs).unwrap();
    let right = cases
        .iter()
        .zip(&r)
        .filter(|((_, want), got)| argmax(got) == *want)
        .count();
    eprintln!(
        "{}: {right}/9 right",
        continuity_eval::evaluate::EntailmentJudge::name(&judge)
    );
    assert!(right >= 7, "{right}/9 right: {r:#?}");
    // Scored alone (no padding) as in the batch (padded to the longest).
    use continuity_eval::evaluate::EntailmentJudge;
    let mut fresh = load().unwrap();
    let alone = fresh.judge(&pairs[8].0, &pairs[8].1).unwrap();
    assert!(
        (alone.contradicts - r[8].contradicts).abs() < 1e-4,
        "{alone:?} vs {:?}",
        r[8]
    );
}

fn pairs_text(lines: &[(&str, &str, &str)]) -> String {
    lines
        .iter()
        .map(|(p, h, l)| {
            serde_json::json!({"premise": p, "hypothesis": h, "label": l, "source": "test"})
                .to_string()
                + "\n"
        })
        .collect()
}

fn argmax(n: &continuity_eval::evaluate::Nli) -> usize {
    let p = [n.entails, n.neutral, n.contradicts];
    (0..3).fold(0, |k, i| if p[i] > p[k] { i } else { k })
}

/// Fine-tuning starts from the given adapters exactly; bytes that are not
/// adapters of this network are an error naming the file.
#[test]
fn fine_tuning_starts_from_the_given_adapters() {
    let Some(dir) = minilm() else { return };
    let device = xenc::model::device();
    let one = pairs_text(&[("a", "b", "neutral")]);
    let pairs = train::parse_pairs(std::path::Path::new("p.jsonl"), &one).unwrap();
    let opts = train::TrainOptions {
        steps: 0,
        dev_every: 0,
        init: Some(("shipped.safetensors".into(), xenc::ADAPTERS.to_vec())),
        ..Default::default()
    };
    let base = Base::load(&dir, &device).unwrap();
    let (vars, _) = train::train(base, &pairs, &opts, |_, _| {}).unwrap();
    let shipped = candle_core::safetensors::load_buffer(xenc::ADAPTERS, &device).unwrap();
    let data = vars.data().lock().unwrap();
    assert_eq!(data.len(), shipped.len());
    for (name, var) in data.iter() {
        assert_eq!(max_abs_diff(var.as_tensor(), &shipped[name]), 0.0, "{name}");
    }
    drop(data);

    let bad = train::TrainOptions {
        init: Some(("not-adapters.safetensors".into(), b"{}".to_vec())),
        ..opts
    };
    let base = Base::load(&dir, &device).unwrap();
    let e = train::train(base, &pairs, &bad, |_, _| {})
        .err()
        .expect("bad initial adapters must be refused");
    assert!(e.to_string().contains("not-adapters.safetensors"), "{e}");
}

/// With `mix_share` 1 every example comes from the mix: the net learns the
/// mix's labels although every main pair says "neutral".
#[test]
fn batches_draw_from_the_mix() {
    let Some(dir) = minilm() else { return };
    let main = pairs_text(&[
        (
            "The invoice was paid.",
            "The office has a new printer.",
            "neutral",
        ),
        (
            "The room is booked.",
            "Lunch was served at noon.",
            "neutral",
        ),
    ]);
    let labeled: Vec<(&str, &str, &str)> = SMALL_SET
        .iter()
        .copied()
        .filter(|(_, _, label)| *label != "neutral")
        .collect();
    let mix = pairs_text(&labeled);
    let path = std::path::Path::new("p.jsonl");
    let main = train::parse_pairs(path, &main).unwrap();
    let mix = train::parse_pairs(path, &mix).unwrap();
    let opts = train::TrainOptions {
        steps: 24,
        batch: 4,
        lr: 3e-3,
        dev_every: 0,
        mix: mix.clone(),
        mix_share: 1.0,
        ..Default::default()
    };
    let device = xenc::model::device();
    let (vars, report) =
        train::train(Base::load(&dir, &device).unwrap(), &main, &opts, |_, _| {}).unwrap();
    assert_eq!(report.train_pairs, 6);
    let tmp = std::env::temp_dir().join(format!("xenc-mix-{}.safetensors", std::process::id()));
    vars.save(&tmp).unwrap();
    let bytes = std::fs::read(&tmp).unwrap();
    let _ = std::fs::remove_file(&tmp);
    let mut judge = xenc::CrossEncoder::load_with(&dir, &bytes).unwrap();
    let q: Vec<(String, String)> = mix
        .iter()
        .map(|p| (p.premise.clone(), p.hypothesis.clone()))
        .collect();
    let got: Vec<usize> = judge.judge_batch(&q).unwrap().iter().map(argmax).collect();
    assert_eq!(got, vec![2, 0, 2, 0]);
}

/// A cross-fitted ensemble judges with the mean of its folds, and, held
/// out of a case, with the one fold that never saw it; a case no fold
/// leaves out (one no fold trained on) is judged by all of them.
#[test]
fn cross_fitted_folds_average_and_hold_out() {
    let Some(dir) = minilm() else { return };
    use continuity_eval::evaluate::EntailmentJudge;
    let device = xenc::model::device();
    // A second set of adapters: fresh (seeded) ones.
    let varmap = VarMap::new();
    let base = Base::load(&dir, &device).unwrap();
    let vb = VarBuilder::from_varmap(&varmap, DType::F32, &device);
    CrossEncoderNet::load(base.weights(), vb, &base.config).unwrap();
    train::init_adapters(&varmap, &mut train::Rng::new(3), &device).unwrap();
    let tmp = std::env::temp_dir().join(format!("xenc-fresh-{}.safetensors", std::process::id()));
    varmap.save(&tmp).unwrap();
    let fresh = std::fs::read(&tmp).unwrap();
    let _ = std::fs::remove_file(&tmp);

    let (p, h) = (
        "The rollback was staged but not run.",
        "The rollback was executed last night.",
    );
    let a = xenc::CrossEncoder::load_with(&dir, xenc::ADAPTERS)
        .unwrap()
        .judge(p, h)
        .unwrap();
    let b = xenc::CrossEncoder::load_with(&dir, &fresh)
        .unwrap()
        .judge(p, h)
        .unwrap();
    let mut folds = xenc::CrossEncoder::load_folds(
        &dir,
        "test-folds",
        &[
            (&["case-a"], xenc::ADAPTERS),
            (&["case-b", "case-d"], &fresh),
        ],
    )
    .unwrap();
    let mean = folds.judge(p, h).unwrap();
    assert!((mean.contradicts - (a.contradicts + b.contradicts) / 2.0).abs() < 1e-5);
    assert!((mean.entails - (a.entails + b.entails) / 2.0).abs() < 1e-5);
    folds.hold_out(Some("case-b")).unwrap();
    let held = folds.judge(p, h).unwrap();
    assert!(
        (held.contradicts - b.contradicts).abs() < 1e-5,
        "{held:?} vs {b:?}"
    );
    folds.hold_out(None).unwrap();
    assert!((folds.judge(p, h).unwrap().contradicts - mean.contradicts).abs() < 1e-6);
    folds.hold_out(Some("case-d")).unwrap();
    assert!((folds.judge(p, h).unwrap().contradicts - b.contradicts).abs() < 1e-5);
    folds.hold_out(Some("case-c")).unwrap();
    assert!((folds.judge(p, h).unwrap().contradicts - mean.contradicts).abs() < 1e-6);
}
