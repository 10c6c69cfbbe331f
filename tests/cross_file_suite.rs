//! The cross-file suite (tests/cross_file/cases): small multi-file projects whose shape bug
//! has its cause in one file and its crash in another, confirmed under real PyTorch by
//! scripts/gen_cross_file_suite.py (tests/data/cross_file_suite.json records the crash's
//! file and line). Every case's `bug/` and `fixed/` become repositories of two corpora, each
//! scanned once with `scan --follow-imports`: a bug counts as found when the findings table
//! has a row at the crash's file and line; no fixed twin may have a finding at all.

mod common;

use std::path::Path;

use serde_json::Value as Json;

/// The committed verdict of every case (`found`, `elsewhere` or `missed`); any change fails
/// the test. `SHAPEHOUND_BLESS=1 cargo test --test cross_file_suite` rewrites it.
const EXPECTED: &str = "tests/data/cross_file_expected.tsv";

/// The first case of the held-out batch: written after the analyser by someone who never
/// saw its code, measured at first contact (`tests/cross_file/README.md`).
const HELD_OUT_FROM: &str = "037";

/// A corpus with one repository per case, from the case's `side` (`bug` or `fixed`).
fn corpus(cases: &[Json], side: &str, dir: &Path) {
    let root = common::repo_root().join("tests/cross_file/cases");
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let repo = dir.join(name);
        common::copy_tree(&root.join(name).join(side), &repo);
        // The repository rule: a marker makes the folder a repository.
        std::fs::write(repo.join("pyproject.toml"), "").unwrap();
    }
}

#[test]
fn cross_file_bugs_are_found_where_torch_fails() {
    let suite: Json = serde_json::from_str(
        &std::fs::read_to_string(common::repo_root().join("tests/data/cross_file_suite.json"))
            .unwrap(),
    )
    .unwrap();
    let cases: Vec<Json> = suite["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["confirmed"] == true)
        .cloned()
        .collect();
    assert!(cases.len() >= 30, "{} confirmed cases", cases.len());
    let tmp = tempfile::tempdir().unwrap();
    let (bugs, fixed) = (tmp.path().join("bugs"), tmp.path().join("fixed"));
    corpus(&cases, "bug", &bugs);
    corpus(&cases, "fixed", &fixed);
    let flags = ["--follow-imports", "--no-site-packages"];
    common::scan(&[&bugs], &tmp.path().join("out-bugs"), &flags);
    common::scan(&[&fixed], &tmp.path().join("out-fixed"), &flags);
    // Errors only: a warning (a condition on hyperparameters) is neither a find nor an alarm.
    let errors = |out: &str| -> Vec<common::Row> {
        let mut rows = common::read_table(&tmp.path().join(out), "findings");
        rows.retain(|r| r["severity"] == "error");
        rows
    };
    let found_rows = errors("out-bugs");
    let twin_rows = errors("out-fixed");
    let job_rows = common::read_table(&tmp.path().join("out-bugs"), "jobs");

    let mut verdicts = String::new();
    let (mut found, mut found_held_out, mut held_out) = (0, 0, 0);
    for case in &cases {
        let name = case["name"].as_str().unwrap();
        let is_held_out = name.as_bytes()[..3] >= *HELD_OUT_FROM.as_bytes();
        held_out += usize::from(is_held_out);
        let crash = format!("{name}/{}", case["crash_file"].as_str().unwrap());
        let line = case["crash_line"].to_string();
        let rows: Vec<_> = found_rows.iter().filter(|r| r["repo"] == name).collect();
        let verdict = if rows.iter().any(|r| r["path"] == crash && r["line"] == line) {
            found += 1;
            found_held_out += usize::from(is_held_out);
            "found"
        } else if rows.is_empty() {
            "missed"
        } else {
            "elsewhere"
        };
        let style = case["style"].as_str().unwrap_or("");
        // Whether a job of another file ran the crashing code (the `files` it spans).
        let spanned = job_rows.iter().any(|r| {
            r["repo"] == name && r["path"] != crash && r["files"].split('|').any(|f| f == crash)
        });
        let spanned = if spanned { "spanned" } else { "-" };
        verdicts.push_str(&format!("{name}\t{style}\t{verdict}\t{spanned}\n"));
    }
    eprintln!(
        "cross-file suite: {found} of {} found at the crash's file and line ({:.1}%); \
         held-out cases: {found_held_out} of {held_out}",
        cases.len(),
        100.0 * found as f64 / cases.len() as f64
    );
    assert!(
        twin_rows.is_empty(),
        "fixed twins with findings: {:?}",
        twin_rows
            .iter()
            .map(|r| format!("{}:{}", r["path"], r["line"]))
            .collect::<Vec<_>>()
    );
    // The target (90%), on the cases it was developed against; the held-out ones
    // are pinned case by case below and reported, not part of the floor.
    let (found_dev, dev) = (found - found_held_out, cases.len() - held_out);
    assert!(dev >= 30, "{dev} development cases");
    assert!(found_dev * 10 >= dev * 9, "{found_dev} of {dev} found");
    let expected_path = common::repo_root().join(EXPECTED);
    if std::env::var_os("SHAPEHOUND_BLESS").is_some() {
        std::fs::write(&expected_path, &verdicts).unwrap();
    }
    let expected = std::fs::read_to_string(&expected_path).unwrap();
    assert_eq!(
        expected, verdicts,
        "verdicts differ from {EXPECTED} (SHAPEHOUND_BLESS=1 records an improvement)"
    );
}
