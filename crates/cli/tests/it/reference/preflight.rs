//! Preflight on a recorded reference run: the prohibited contact is caught.

#[test]
fn the_recorded_reference_run_contact_is_caught() {
    let Some(dir) = super::dir() else { return };
    let base = dir.join("replays/E1-baseline");
    let k = &continuity_test_support::repo_file("eval/billing-dispute/kernel.toml");
    let out = crate::bin()
        .args(["preflight", "--kernel", k, "--json", base.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["not_allowed"], 1);
    let denied: Vec<&serde_json::Value> = v["verdicts"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| x["decision"] != "allow")
        .collect();
    assert_eq!(denied[0]["tool"], "contact_customer");
    assert_eq!(denied[0]["rule"], "prohibition:no-contact-customer");
}
