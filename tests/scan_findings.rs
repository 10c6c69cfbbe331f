//! Shape bugs in the scan: the binary on the sample corpus's `shape_bugs` repository (a
//! symbolic bug in an `nn.Module`, a concrete entry call with the wrong input, a clean file,
//! and a byte-identical copy of the buggy module) writes `findings` and `jobs` that agree with
//! `files` and `run`; panics while running units or solving jobs are recorded, not fatal.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

use common::*;

struct Report {
    _dir: tempfile::TempDir,
    stdout: String,
    files: Vec<Row>,
    findings: Vec<Row>,
    jobs: Vec<Row>,
    run: Vec<Row>,
}

fn sample_report() -> Report {
    let dir = tempfile::tempdir().unwrap();
    let out = run(&[
        "scan",
        sample_corpus().to_str().unwrap(),
        "-o",
        dir.path().to_str().unwrap(),
        "-w",
        "2",
    ]);
    assert!(
        common::completed(&out.status),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Report {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        files: read_table(dir.path(), "files"),
        findings: read_table(dir.path(), "findings"),
        jobs: read_table(dir.path(), "jobs"),
        run: read_table(dir.path(), "run"),
        _dir: dir,
    }
}

fn count(rows: &[Row], pred: impl Fn(&Row) -> bool) -> u64 {
    rows.iter().filter(|r| pred(r)).count() as u64
}

#[test]
fn findings_are_located_and_shared_by_identical_copies() {
    let r = sample_report();
    let mut found: Vec<(&str, &str, &str, &str, &str)> = r
        .findings
        .iter()
        .map(|f| {
            (
                f["path"].as_str(),
                f["line"].as_str(),
                f["kind"].as_str(),
                f["unit"].as_str(),
                f["unit_kind"].as_str(),
            )
        })
        .collect();
    found.sort();
    assert_eq!(
        found,
        [
            (
                "shape_bugs/classify.py",
                "14",
                "feature-mismatch",
                "<module>",
                "module"
            ),
            (
                "shape_bugs/encoders/patch_encoder.py",
                "16",
                "channel-mismatch",
                "PatchEncoder",
                "class"
            ),
            (
                "shape_bugs/vendored/patch_encoder.py",
                "16",
                "channel-mismatch",
                "PatchEncoder",
                "class"
            ),
        ]
    );
    let ids: BTreeSet<&str> = r.findings.iter().map(|f| f["id"].as_str()).collect();
    assert_eq!(ids.len(), 3, "ids are per path");

    let symbolic = by_path(&r.findings, "shape_bugs/encoders/patch_encoder.py");
    let copy = by_path(&r.findings, "shape_bugs/vendored/patch_encoder.py");
    for column in [
        "column",
        "end_line",
        "end_column",
        "message",
        "shapes",
        "witness",
        "related",
    ] {
        assert_eq!(symbolic[column], copy[column], "{column}");
    }
    assert_eq!(symbolic["operator"], "torch.nn.Conv2d");
    assert_eq!(symbolic["severity"], "error");
    assert_eq!(symbolic["solver"], "z3");
    assert!(symbolic["message"].contains("2*width"), "{symbolic:?}");
    assert!(symbolic["witness"].contains("width = "), "{symbolic:?}");
    assert!(
        symbolic["related"].contains("line=11") && symbolic["related"].contains("constructed here"),
        "{symbolic:?}"
    );
    let concrete = by_path(&r.findings, "shape_bugs/classify.py");
    assert_eq!(concrete["operator"], "torch.nn.Linear");
    assert!(
        concrete["related"].contains("line=19"),
        "the entry call: {concrete:?}"
    );
    assert_eq!(
        count(&r.findings, |f| f["path"] == "shape_bugs/pooling.py"),
        0
    );

    assert_eq!(r.run[0]["findings"], "3");
    assert!(
        r.stdout
            .contains("findings: 3 (channel-mismatch 2, feature-mismatch 1)"),
        "{}",
        r.stdout
    );
}

#[test]
fn jobs_agree_with_files_and_run() {
    let r = sample_report();
    let jobs = r.jobs.len() as u64;
    assert!(jobs > 0);
    // One job row per analysed content: copies have units and jobs but no rows of their own.
    let mut analysed_jobs = 0;
    for f in &r.files {
        let (units, n): (u64, u64) = (f["units"].parse().unwrap(), f["jobs"].parse().unwrap());
        if f["status"] != "ok" {
            assert_eq!((units, n), (0, 0), "{f:?}");
            continue;
        }
        assert!(
            units >= 1 && n >= units,
            "every parsed file has its module unit: {f:?}"
        );
        let mine: Vec<&Row> = r.jobs.iter().filter(|j| j["path"] == f["path"]).collect();
        if f["duplicate_of"] == "null" {
            analysed_jobs += n;
            assert_eq!(mine.len() as u64, n, "{}", f["path"]);
            let distinct: BTreeSet<(&str, &str)> = mine
                .iter()
                .map(|j| (j["unit"].as_str(), j["unit_kind"].as_str()))
                .collect();
            assert_eq!(distinct.len() as u64, units, "{}", f["path"]);
            assert!(mine.iter().all(|j| j["repo"] == f["repo"]));
        } else {
            assert!(mine.is_empty(), "{}", f["path"]);
            let owner = by_path(&r.files, &f["duplicate_of"]);
            assert_eq!(
                (owner["units"].as_str(), owner["jobs"].as_str()),
                (f["units"].as_str(), f["jobs"].as_str())
            );
        }
    }
    assert_eq!(analysed_jobs, jobs);

    let mut by_result: BTreeMap<&str, u64> = BTreeMap::new();
    for j in &r.jobs {
        *by_result.entry(j["result"].as_str()).or_default() += 1;
        assert_eq!(
            j["result"] == "skipped",
            j["skip_reason"] != "null",
            "{j:?}"
        );
        assert!(["0", "1"].contains(&j["worker"].as_str()), "{j:?}");
        assert!(j["cost"].parse::<u64>().unwrap() >= 1);
        if j["result"] == "unsat" || j["result"] == "sat" {
            assert!(j["constraints"] != "0", "{j:?}");
        }
    }
    assert!(by_result
        .keys()
        .all(|k| ["sat", "unsat", "unknown", "skipped"].contains(k)));
    let run = &r.run[0];
    assert_eq!(run["jobs"], jobs.to_string());
    for (column, result) in [
        ("jobs_sat", "sat"),
        ("jobs_unsat", "unsat"),
        ("jobs_unknown", "unknown"),
        ("jobs_skipped", "skipped"),
    ] {
        let n = by_result.get(result).copied().unwrap_or(0);
        assert_eq!(run[column], n.to_string(), "{column}");
    }
    assert_eq!(
        run["jobs_z3"],
        count(&r.jobs, |j| j["used_z3"] == "true").to_string()
    );
    // The symbolic bug: every rank variant of PatchEncoder is UNSAT.
    let encoder: Vec<&Row> = r
        .jobs
        .iter()
        .filter(|j| {
            j["path"] == "shape_bugs/encoders/patch_encoder.py" && j["unit"] == "PatchEncoder"
        })
        .collect();
    assert!(encoder.len() > 1);
    assert!(
        encoder.iter().all(|j| j["result"] == "unsat"),
        "{encoder:?}"
    );
    assert!(r.stdout.contains("constraint jobs: "), "{}", r.stdout);
}

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

const CONV_BUG: &str = "\
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.a = nn.Conv2d(3, width, 3)
        self.b = nn.Conv2d(2 * width, width, 3)

    def forward(self, x):
        return self.b(self.a(x))
";

fn scan_with_injection(corpus: &Path, out: &Path, inject: &str) {
    let output = Command::new(binary())
        .args([
            "scan",
            corpus.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--quiet",
            "-w",
            "2",
        ])
        .env("SHAPEHOUND_INJECT_PANIC", inject)
        .output()
        .unwrap();
    assert!(
        common::completed(&output.status),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn a_panic_running_units_is_the_files_internal_error() {
    let t = tempfile::tempdir().unwrap();
    let corpus = t.path().join("c");
    write(&corpus, "r/units_boom.py", CONV_BUG);
    write(
        &corpus,
        "r/fine.py",
        CONV_BUG.replace("2 * width", "width").as_str(),
    );
    write(
        &corpus,
        "r/bug.py",
        &format!("{CONV_BUG}\n# another copy\n"),
    );
    let out = t.path().join("out");
    scan_with_injection(&corpus, &out, "units:units_boom");
    let files = read_table(&out, "files");
    let boom = by_path(&files, "r/units_boom.py");
    assert_eq!(boom["status"], "internal_error");
    assert!(boom["message"].contains("stage `units`"), "{boom:?}");
    assert_eq!((boom["units"].as_str(), boom["jobs"].as_str()), ("0", "0"));
    let findings = read_table(&out, "findings");
    let paths: Vec<&str> = findings.iter().map(|f| f["path"].as_str()).collect();
    assert_eq!(paths, ["r/bug.py"]);
    let jobs = read_table(&out, "jobs");
    assert_eq!(count(&jobs, |j| j["path"] == "r/units_boom.py"), 0);
}

#[test]
fn a_panic_while_solving_is_a_skipped_job_and_the_run_goes_on() {
    let t = tempfile::tempdir().unwrap();
    let corpus = t.path().join("c");
    write(&corpus, "r/solve_boom.py", CONV_BUG);
    write(
        &corpus,
        "r/bug.py",
        &format!("{CONV_BUG}\n# another copy\n"),
    );
    let out = t.path().join("out");
    scan_with_injection(&corpus, &out, "solve:solve_boom");
    let files = read_table(&out, "files");
    assert_eq!(by_path(&files, "r/solve_boom.py")["status"], "ok");
    let jobs = read_table(&out, "jobs");
    let boom: Vec<&Row> = jobs
        .iter()
        .filter(|j| j["path"] == "r/solve_boom.py")
        .collect();
    assert!(!boom.is_empty());
    // A unit's first job panics; no finding can come of the unit then, so its other
    // variants are not solved.
    let panicked = |j: &&Row| j["skip_reason"].starts_with("internal error: injected panic");
    assert!(boom.iter().any(panicked), "{boom:?}");
    for j in &boom {
        assert_eq!(j["result"], "skipped");
        assert!(
            panicked(j) || j["skip_reason"].starts_with("unit settled"),
            "{j:?}"
        );
    }
    // The solver that panicked was replaced: the other file's jobs are still solved.
    let findings = read_table(&out, "findings");
    let paths: Vec<&str> = findings.iter().map(|f| f["path"].as_str()).collect();
    assert_eq!(paths, ["r/bug.py"]);
}

#[test]
fn teosc_mode_has_no_shape_analysis() {
    let t = tempfile::tempdir().unwrap();
    let corpus = t.path().join("c");
    write(&corpus, "r/bug.py", CONV_BUG);
    let list = t.path().join("ops.txt");
    std::fs::write(&list, "Conv2d\n").unwrap();
    let out = t.path().join("out");
    scan(
        &[&corpus],
        &out,
        &["--count-mode", "teosc", "--op-list", list.to_str().unwrap()],
    );
    assert!(read_table(&out, "findings").is_empty());
    assert!(read_table(&out, "jobs").is_empty());
    let files = read_table(&out, "files");
    assert_eq!(
        (files[0]["units"].as_str(), files[0]["jobs"].as_str()),
        ("0", "0")
    );
    assert_eq!(read_table(&out, "run")[0]["jobs"], "0");
}

/// Two forks share a byte-identical `model.py` whose import resolves alike, but their
/// `layers.py` differ: with imports followed each fork's `model.py` is analysed with its own
/// `layers.py` (the bug of fork `b` is not copied to fork `a`, nor hidden by it).
#[test]
fn identical_files_in_forks_are_analysed_with_their_own_imports() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("corpus");
    let model = "\
import torch
from layers import Block


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.block = Block(8)
        self.head = torch.nn.Linear(16, 4)

    def forward(self, x):
        return self.head(self.block(x))


y = Net()(torch.randn(2, 8))
";
    let layers = |factor: u32| {
        format!("import torch\n\n\ndef Block(n):\n    return torch.nn.Linear(n, {factor} * n)\n")
    };
    for (fork, factor) in [("a", 2), ("b", 3)] {
        write(&root, &format!("{fork}/model.py"), model);
        write(&root, &format!("{fork}/layers.py"), &layers(factor));
    }
    // With two workers, the forks' identical `model.py` must also be two job groups (their
    // content keys once ignored the repository's content, and their jobs mixed).
    for workers in ["1", "2"] {
        let out = dir.path().join(format!("out{workers}"));
        scan(
            &[&root],
            &out,
            &["--follow-imports", "--no-site-packages", "-w", workers],
        );
        let findings = read_table(&out, "findings");
        let at: Vec<(String, String)> = findings
            .iter()
            .map(|f| (f["repo"].clone(), f["line"].clone()))
            .collect();
        assert_eq!(at, [("b".to_string(), "12".to_string())], "{findings:?}");
    }
}

/// An operation in a shared file reached from two units, one failing for every input and
/// one only unless `width == 48`: the file's one finding there is the error, in the scan's
/// table and in `check`'s output alike (the warning, though its row is the least, does not
/// hide it).
#[test]
fn an_operation_reached_by_two_units_reports_the_error_over_the_warning() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("corpus");
    write(
        &root,
        "p/layers.py",
        "import torch\n\n\nclass Proj(torch.nn.Module):\n    def __init__(self, n):\n        super().__init__()\n        self.fc = torch.nn.Linear(n, 4)\n\n    def forward(self, x):\n        return self.fc(x)\n",
    );
    let user = |class: &str, init: &str, width: &str| {
        format!("import torch\nfrom layers import Proj\n\n\nclass {class}(torch.nn.Module):\n    def __init__(self{init}):\n        super().__init__()\n        self.p = Proj({width})\n\n    def forward(self, x):\n        return self.p(torch.zeros(2, 48))\n")
    };
    write(
        &root,
        "p/a_warns.py",
        &user("AWarns", ", width: int", "width"),
    );
    write(&root, "p/b_fails.py", &user("BFails", "", "8"));
    let out = dir.path().join("out");
    scan(&[&root], &out, &["--follow-imports", "--no-site-packages"]);
    let findings = read_table(&out, "findings");
    let at: Vec<(&str, &str, &str, &str)> = findings
        .iter()
        .map(|f| {
            (
                f["path"].as_str(),
                f["line"].as_str(),
                f["unit"].as_str(),
                f["severity"].as_str(),
            )
        })
        .collect();
    assert_eq!(
        at,
        [("p/layers.py", "10", "BFails", "error")],
        "{findings:?}"
    );
    let out = run(&[
        "check",
        root.join("p").to_str().unwrap(),
        "--no-site-packages",
        "--format",
        "json",
    ]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let found: Vec<(&str, u64, &str, &str)> = json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["path"].as_str().unwrap_or(""),
                f["line"].as_u64().unwrap_or(0),
                f["unit"].as_str().unwrap_or(""),
                f["severity"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(found.len(), 1, "{json}");
    assert_eq!(
        (found[0].1, found[0].2, found[0].3),
        (10, "BFails", "error")
    );
}
