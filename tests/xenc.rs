//! The cross-encoder judge (MiniLM + trained adapters) with the real model.
//! Skips (one line) when MiniLM is not fetched:
//! `python3 models/fetch.py minilm-l6`.

use std::path::PathBuf;

use candle_core::{DType, Tensor};
use candle_nn::{VarBuilder, VarMap};
use continuity::evaluate::xenc::{self, train, Base, CrossEncoderNet};

fn minilm() -> Option<PathBuf> {
    match continuity::llm::manifest::resolve_model("minilm-l6", None) {
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
    let net = CrossEncoderNet::load(base.weights.clone(), adapters, &base.config).unwrap();
    train::init_adapters(&varmap, &mut train::Rng::new(7), &device).unwrap();
    // Non-zero A, zero B: the adapters add nothing.
    let ours = net.hidden(&ids, &types, &mask).unwrap();

    let cfg_text = std::fs::read_to_string(dir.join("config.json")).unwrap();
    let cfg: candle_transformers::models::bert::Config = serde_json::from_str(&cfg_text).unwrap();
    let bert = candle_transformers::models::bert::BertModel::load(base.weights, &cfg).unwrap();
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

/// A few steps on a handful of pairs must fit them: the gradient reaches
/// the adapters and the head, and the loss falls.
#[test]
fn training_fits_a_small_set() {
    let Some(dir) = minilm() else { return };
    let base = Base::load(&dir, &xenc::model::device()).unwrap();
    let lines = [
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
    let text: String = lines
        .iter()
        .map(|(p, h, l)| {
            serde_json::json!({"premise": p, "hypothesis": h, "label": l, "source": "test"})
                .to_string()
                + "\n"
        })
        .collect();
    let pairs = train::parse_pairs(std::path::Path::new("pairs.jsonl"), &text).unwrap();
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

/// The shipped adapters on a domain none of the training pairs is about (an
/// art loan): most readings get the right label. Not all: it reads "the
/// museum bought it and now owns it permanently" as entailed by "the
/// gallery still owns it" (shared words beat meaning), which this test
/// records rather than hides.
#[test]
fn shipped_cross_encoder_reads_an_unseen_domain() {
    if minilm().is_none() {
        return;
    }
    let mut judge = xenc::CrossEncoder::load().unwrap();
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
    let argmax = |n: &continuity::evaluate::Nli| {
        let p = [n.entails, n.neutral, n.contradicts];
        (0..3).fold(0, |k, i| if p[i] > p[k] { i } else { k })
    };
    let right = cases
        .iter()
        .zip(&r)
        .filter(|((_, want), got)| argmax(got) == *want)
        .count();
    assert!(right >= 7, "{right}/9 right: {r:#?}");
    // Scored alone (no padding) as in the batch (padded to the longest).
    use continuity::evaluate::EntailmentJudge;
    let mut fresh = xenc::CrossEncoder::load().unwrap();
    let alone = fresh.judge(&pairs[8].0, &pairs[8].1).unwrap();
    assert!(
        (alone.contradicts - r[8].contradicts).abs() < 1e-4,
        "{alone:?} vs {:?}",
        r[8]
    );
}
