//! The hyperparameter-domain suite (tests/data/domain_suite): every combination of each
//! program's declared domain was run under real PyTorch by scripts/gen_domain_suite.py, which
//! recorded in expected.tsv whether it fails and where. `shapehound check` runs on every
//! program; its verdict is
//!
//! - `named`: a finding at a failing line, every failing combination among the values a
//!   finding says fail (after "fails for", before "; passes for"; a value names a
//!   combination when the combination's values appear in it in order: names may differ, and
//!   a grid entry may carry fields the torch run did not vary; `lo <= name <= hi` is every
//!   int of that range, a domain too large to run value by value) and no passing one;
//! - `found`: a finding at a failing line, the values not all named;
//! - `missed`: no finding at a failing line;
//!
//! and no program may have a finding at a line where no combination fails. The measure is
//! that of scripts/measure_domain_suite.py.

mod common;

use std::collections::BTreeMap;

use serde_json::Value as Json;

/// Each program's committed verdict: any single change fails the test, a regression as much
/// as an unrecorded improvement. `SHAPEHOUND_BLESS=1 cargo test --test domain_suite`
/// rewrites it from the current results.
const EXPECTED: &str = "tests/data/domain_suite_expected.tsv";

struct Combination {
    values: Vec<String>,
    fails: bool,
    line: Option<i64>,
}

fn combinations() -> BTreeMap<String, Vec<Combination>> {
    let root = common::repo_root();
    let text = std::fs::read_to_string(root.join("tests/data/domain_suite/expected.tsv")).unwrap();
    let mut out: BTreeMap<String, Vec<Combination>> = BTreeMap::new();
    for line in text.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let values = cols[1]
            .split(',')
            .map(|pair| pair.split_once('=').map_or("", |(_, v)| v).to_string())
            .collect();
        out.entry(cols[0].to_string())
            .or_default()
            .push(Combination {
                values,
                fails: cols[2] == "fail",
                line: cols.get(4).and_then(|l| l.parse().ok()),
            });
    }
    out
}

/// The values a finding says fail, each as its values in order.
fn failing_values(message: &str) -> Vec<Vec<Said>> {
    let Some((_, rest)) = message.split_once("fails for ") else {
        return Vec::new();
    };
    let part = rest.split("; passes for ").next().unwrap_or("");
    let part = part.split("; not settled for ").next().unwrap_or("");
    let mut out = Vec::new();
    let (mut depth, mut current) = (0i32, String::new());
    for ch in format!("{part}, ").chars() {
        match ch {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ => {}
        }
        current.push(ch);
        if depth == 0 && current.ends_with(", ") {
            let item = current[..current.len() - 2]
                .trim()
                .trim_matches(|c| c == '(' || c == ')');
            let values: Vec<Said> = item.split(", ").filter_map(Said::parse).collect();
            if !values.is_empty() {
                out.push(values);
            }
            current.clear();
        }
    }
    out
}

/// One part of a value a finding says fails: `name=v`, or `lo <= name <= hi` (every int of
/// a range decided as a whole).
enum Said {
    Is(String),
    Between(i64, i64),
}

impl Said {
    fn parse(part: &str) -> Option<Said> {
        let bounds: Vec<&str> = part.trim().split(" <= ").collect();
        if let [lo, _, hi] = bounds[..] {
            return Some(Said::Between(lo.parse().ok()?, hi.parse().ok()?));
        }
        part.split_once('=')
            .map(|(_, v)| Said::Is(v.trim().to_string()))
    }

    fn matches(&self, value: &str) -> bool {
        match self {
            Said::Is(v) => v == value,
            Said::Between(lo, hi) => value.parse::<i64>().is_ok_and(|v| (*lo..=*hi).contains(&v)),
        }
    }
}

/// Whether `values` appear in `said` in order.
fn names(said: &[Said], values: &[String]) -> bool {
    let mut rest = said.iter();
    values.iter().all(|v| rest.any(|s| s.matches(v)))
}

#[test]
fn declared_values_that_fail_are_named_and_no_line_is_a_false_alarm() {
    let root = common::repo_root();
    let mut verdicts = String::new();
    let mut false_alarms = Vec::new();
    let (mut found, mut named) = (0, 0);
    let programs = combinations();
    assert!(programs.len() >= 20, "{} programs", programs.len());
    for (folder, combos) in &programs {
        let model = root
            .join("tests/data/domain_suite")
            .join(folder)
            .join("model.py");
        let out = common::run(&[
            "check",
            "--format",
            "json",
            "--exit-zero",
            &model.display().to_string(),
        ]);
        let json: Json = serde_json::from_slice(&out.stdout).unwrap();
        // Errors: a warning (a condition on hyperparameters) is never a verdict here.
        let mut findings = json["findings"].as_array().cloned().unwrap_or_default();
        findings.retain(|f| f["severity"] != "warning");
        let fail_lines: Vec<i64> = combos
            .iter()
            .filter(|c| c.fails)
            .filter_map(|c| c.line)
            .collect();
        let lines: Vec<i64> = findings.iter().filter_map(|f| f["line"].as_i64()).collect();
        let said: Vec<Vec<Said>> = findings
            .iter()
            .flat_map(|f| failing_values(f["message"].as_str().unwrap_or("")))
            .collect();
        let at_line = lines.iter().any(|l| fail_lines.contains(l));
        let all_named = combos
            .iter()
            .all(|c| said.iter().any(|s| names(s, &c.values)) == c.fails);
        let verdict = match (at_line, all_named) {
            (true, true) => "named",
            (true, false) => "found",
            _ => "missed",
        };
        found += usize::from(at_line);
        named += usize::from(verdict == "named");
        verdicts.push_str(&format!("{folder}\t{verdict}\n"));
        if let Some(l) = lines.iter().find(|l| !fail_lines.contains(l)) {
            false_alarms.push(format!("{folder}: a finding at line {l}"));
        }
    }
    eprintln!(
        "domain suite: {found} of {} found at a failing line, {named} with every defective \
         combination named",
        programs.len()
    );
    assert!(false_alarms.is_empty(), "{false_alarms:#?}");
    let path = root.join(EXPECTED);
    if std::env::var_os("SHAPEHOUND_BLESS").is_some() {
        std::fs::write(&path, &verdicts).unwrap();
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    assert_eq!(
        verdicts, expected,
        "the verdicts differ from {EXPECTED} (SHAPEHOUND_BLESS=1 rewrites it)"
    );
}
