//! Folder batches: discovery, a failing or panicking session never stops
//! the batch, rows are recorded, and a re-run resumes.

use continuity_batch::{self as batch, Measured, Status};

#[test]
fn a_batch_survives_failures_and_resumes() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("in");
    for name in [
        "a/ok.jsonl",
        "a/fails.json",
        "b/panics.jsonl",
        "b/ok2.json",
        "b/skip.txt",
        ".hidden/x.json",
    ] {
        let p = root.join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, name).unwrap();
    }
    let out = root.join("out");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("inside.json"), "{}").unwrap();
    let jobs = batch::discover(&root, &out).unwrap();
    let names: Vec<&str> = jobs.iter().map(|j| j.name.as_str()).collect();
    assert_eq!(
        names,
        ["a/fails.json", "a/ok.jsonl", "b/ok2.json", "b/panics.jsonl"]
    );
    let runs = std::sync::atomic::AtomicUsize::new(0);
    let work = |job: &batch::Job| {
        runs.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        if job.name.contains("fails") {
            return Err("bad input".to_string());
        }
        if job.name.contains("panics") {
            panic!("boom");
        }
        Ok(Measured {
            format: "f".into(),
            tokens_before: 10,
            tokens_after: 4,
            tokenizer: "o200k_base".into(),
            ..Measured::default()
        })
    };
    let rows = batch::run(&jobs, 2, work, |_| {}).unwrap();
    let status: Vec<Status> = rows.iter().map(|r| r.status).collect();
    assert_eq!(
        status,
        [
            Status::Failed,
            Status::Compacted,
            Status::Compacted,
            Status::Failed
        ]
    );
    assert!(rows[3].error.as_deref().unwrap().contains("panicked"));
    assert_eq!(runs.load(std::sync::atomic::Ordering::SeqCst), 4);
    batch::write_summary(&out, &rows).unwrap();
    let csv = std::fs::read_to_string(out.join(batch::SUMMARY_CSV)).unwrap();
    assert_eq!(csv.lines().count(), 5);
    assert!(csv.contains("a/fails.json,failed"), "{csv}");

    // Nothing changed: nothing runs again, and the rows come back.
    let again = batch::run(&jobs, 2, work, |_| {}).unwrap();
    assert_eq!(runs.load(std::sync::atomic::Ordering::SeqCst), 4);
    assert!(again.iter().all(|r| r.resumed));
    assert_eq!(again[1].measured.tokens_after, 4);
    assert_eq!(again[1].measured.tokenizer, "o200k_base");
    // A changed input runs again.
    std::fs::write(root.join("a/ok.jsonl"), "changed, longer").unwrap();
    batch::run(&jobs, 1, work, |_| {}).unwrap();
    assert_eq!(runs.load(std::sync::atomic::Ordering::SeqCst), 5);
}
