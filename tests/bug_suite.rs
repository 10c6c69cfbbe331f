//! The bug suite (tests/bugs/cases): every case's bug was confirmed under real PyTorch by
//! scripts/gen_bug_suite.py, which recorded the failing line in tests/data/bug_suite.json.
//! `shapehound check` runs on every `bug.py` and `fixed.py`: a bug counts as found when a
//! finding sits on a line of the recorded traceback inside the file; no fixed twin may have a
//! finding at all.

mod common;

use std::path::Path;

use serde_json::Value as Json;

/// The committed verdict of every case (`found` at the recorded line, with the finding's
/// kind, or `missed`): any
/// single change fails the test, a regression as much as an unrecorded improvement.
/// `SHAPEHOUND_BLESS=1 cargo test --test bug_suite` rewrites it from the current results.
const EXPECTED: &str = "tests/data/bug_suite_expected.tsv";

/// The errors `check` reports for a file, and its warnings (a unit that fails only under a
/// condition on its hyperparameters: never a false alarm, reported apart).
fn findings(path: &Path) -> (Vec<Json>, Vec<Json>) {
    let out = common::run(&["check", "--format", "json", &path.display().to_string()]);
    let json: Json = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{}: not JSON ({e})", path.display()));
    json["findings"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .partition(|f| f["severity"] != "warning")
}

/// Found and total, overall and for symbolic / concrete cases.
#[derive(Default)]
struct Tally {
    found: usize,
    total: usize,
    symbolic: (usize, usize),
    concrete: (usize, usize),
}

impl Tally {
    fn add(&mut self, symbolic: bool, hit: bool) {
        let part = if symbolic {
            &mut self.symbolic
        } else {
            &mut self.concrete
        };
        part.1 += 1;
        self.total += 1;
        if hit {
            part.0 += 1;
            self.found += 1;
        }
    }

    fn share(&self) -> f64 {
        self.found as f64 / self.total.max(1) as f64
    }

    fn report(&self, name: &str) {
        eprintln!(
            "{name}: {} of {} found at the right line ({:.1}%); symbolic {}/{}, concrete {}/{}",
            self.found,
            self.total,
            self.share() * 100.0,
            self.symbolic.0,
            self.symbolic.1,
            self.concrete.0,
            self.concrete.1
        );
    }
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
    let (mut first, mut blind, mut real) = (Tally::default(), Tally::default(), Tally::default());
    let mut missed = Vec::new();
    let mut false_alarms = Vec::new();
    let mut warnings = Vec::new();
    let mut verdicts = String::new();
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
        let (bug, _) = findings(&dir.join("bug.py"));
        let at_line = bug
            .iter()
            .find(|f| lines.contains(&f["line"].as_i64().unwrap_or(0)));
        let hit = at_line.is_some();
        // Reproductions of real bugs people posted (cases naming their source) are counted
        // apart from the blind set.
        let tally = if case["source"].is_string() {
            &mut real
        } else if case["blind"] == true {
            &mut blind
        } else {
            &mut first
        };
        tally.add(case["symbolic"] == true, hit);
        verdicts.push_str(&match at_line {
            Some(f) => format!("{name}\tfound\t{}\n", f["kind"].as_str().unwrap_or("")),
            None => format!("{name}\tmissed\n"),
        });
        if !hit {
            missed.push(format!(
                "{name} ({}, line {}): {} finding(s) elsewhere",
                case["category"].as_str().unwrap_or(""),
                case["bug_line"],
                bug.len()
            ));
        }
        let (fixed, warned) = findings(&dir.join("fixed.py"));
        if !fixed.is_empty() {
            false_alarms.push(format!("{name}: {}", fixed[0]["message"]));
        }
        if let Some(w) = warned.first() {
            warnings.push(format!("{name}: {}", w["message"]));
        }
    }
    eprintln!("warnings on fixed twins: {}", warnings.len());
    if std::env::var_os("SHAPEHOUND_REPORT").is_some() {
        for w in &warnings {
            eprintln!("warning: {w}");
        }
    }
    first.report("bug suite");
    blind.report("blind set");
    real.report("reproductions of real bugs");
    common::assert_readme_states(&[
        format!(
            "bug suite ({} torch-verified programs",
            first.total + blind.total + real.total
        ),
        format!("for {} of the first {}", first.found, first.total),
        format!("{} of the {} written blind", blind.found, blind.total),
        format!(
            "{} of the {} reproductions of real bugs",
            real.found, real.total
        ),
    ]);
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
        blind.total >= 120,
        "the blind set has {} cases",
        blind.total
    );
    let expected_path = root.join(EXPECTED);
    if std::env::var_os("SHAPEHOUND_BLESS").is_some() {
        std::fs::write(&expected_path, &verdicts).unwrap();
    }
    let expected = std::fs::read_to_string(&expected_path).unwrap();
    let changed: Vec<String> = expected
        .lines()
        .zip(verdicts.lines())
        .filter(|(want, got)| want != got)
        .map(|(want, got)| format!("expected {want}, got {got}"))
        .collect();
    assert_eq!(
        expected.lines().count(),
        verdicts.lines().count(),
        "{EXPECTED} lists another set of cases"
    );
    assert!(
        changed.is_empty(),
        "verdicts differ from {EXPECTED} (SHAPEHOUND_BLESS=1 records an improvement):\n{}",
        changed.join("\n")
    );
}
