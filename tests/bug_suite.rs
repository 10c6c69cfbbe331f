//! The bug suite (tests/bugs/cases): every case's bug was confirmed under real PyTorch by
//! scripts/gen_bug_suite.py, which recorded the failing line in tests/data/bug_suite.json.
//! `shapehound check` runs on every `bug.py` and `fixed.py`: a bug counts as found when a
//! finding sits on a line of the recorded traceback inside the file; no fixed twin may have a
//! finding at all.

mod common;

use std::path::Path;

use serde_json::Value as Json;

/// The share of bugs found at the right line may only go up (the target is 0.90).
const MIN_FOUND: f64 = 0.89;

fn findings(path: &Path) -> Vec<Json> {
    let out = common::run(&["check", "--format", "json", &path.display().to_string()]);
    let json: Json = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{}: not JSON ({e})", path.display()));
    json["findings"].as_array().cloned().unwrap_or_default()
}

#[test]
fn bugs_are_found_at_their_line_and_fixed_twins_are_clean() {
    let root = common::repo_root();
    let data: Json = serde_json::from_str(
        &std::fs::read_to_string(root.join("tests/data/bug_suite.json")).unwrap(),
    )
    .unwrap();
    let cases = data["cases"].as_array().unwrap();
    assert!(cases.len() >= 80, "the suite has {} cases", cases.len());
    let mut found = 0;
    let mut missed = Vec::new();
    let mut false_alarms = Vec::new();
    let mut by_symbolic = [(0, 0), (0, 0)];
    for case in cases {
        assert_eq!(case["confirmed"], true, "{case}");
        let name = case["name"].as_str().unwrap();
        let dir = root.join("tests/bugs/cases").join(name);
        let lines: Vec<i64> = case["frames"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Json::as_i64)
            .collect();
        let bug = findings(&dir.join("bug.py"));
        let hit = bug
            .iter()
            .any(|f| lines.contains(&f["line"].as_i64().unwrap_or(0)));
        let symbolic = usize::from(case["symbolic"] == true);
        by_symbolic[symbolic].1 += 1;
        if hit {
            found += 1;
            by_symbolic[symbolic].0 += 1;
        } else {
            missed.push(format!(
                "{name} ({}, line {}): {} finding(s) elsewhere",
                case["category"].as_str().unwrap_or(""),
                case["bug_line"],
                bug.len()
            ));
        }
        let fixed = findings(&dir.join("fixed.py"));
        if !fixed.is_empty() {
            false_alarms.push(format!("{name}: {}", fixed[0]["message"]));
        }
    }
    let share = found as f64 / cases.len() as f64;
    eprintln!(
        "bug suite: {found} of {} found at the right line ({:.1}%); symbolic {}/{}, concrete {}/{}",
        cases.len(),
        share * 100.0,
        by_symbolic[1].0,
        by_symbolic[1].1,
        by_symbolic[0].0,
        by_symbolic[0].1
    );
    if std::env::var_os("SHAPEHOUND_REPORT").is_some() {
        for m in &missed {
            eprintln!("missed: {m}");
        }
    }
    assert!(
        false_alarms.is_empty(),
        "findings on fixed twins:\n{}",
        false_alarms.join("\n")
    );
    assert!(
        share >= MIN_FOUND,
        "found {share:.3} < {MIN_FOUND}; missed:\n{}",
        missed.join("\n")
    );
}
