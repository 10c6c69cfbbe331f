//! The binary on the embedded sample corpus: every file once with the right status, the
//! resolved call sites, notebooks mapped back to cells, deduplication, skipped folders, and
//! aggregates that agree with the call sites. Reads the real Parquet back.

mod common;

use std::collections::BTreeMap;

use common::*;

struct Report {
    _dir: tempfile::TempDir,
    files: Vec<Row>,
    calls: Vec<Row>,
    counts: Vec<Row>,
    run: Vec<Row>,
}

fn sample_report() -> Report {
    let dir = tempfile::tempdir().unwrap();
    scan(&[&sample_corpus()], dir.path(), &["-w", "2"]);
    Report {
        files: read_table(dir.path(), "files"),
        calls: read_table(dir.path(), "op_calls"),
        counts: read_table(dir.path(), "op_counts"),
        run: read_table(dir.path(), "run"),
        _dir: dir,
    }
}

fn calls_at<'a>(r: &'a Report, path: &str, line: u32) -> Vec<(&'a str, &'a str, &'a str)> {
    let mut v: Vec<_> = r
        .calls
        .iter()
        .filter(|c| c["path"] == path && c["line"] == line.to_string())
        .map(|c| {
            (
                c["operator"].as_str(),
                c["call_kind"].as_str(),
                c["resolution"].as_str(),
            )
        })
        .collect();
    v.sort();
    v
}

#[test]
fn every_file_once_with_its_status() {
    let r = sample_report();
    let mut paths: Vec<&str> = r.files.iter().map(|f| f["path"].as_str()).collect();
    let n = paths.len();
    paths.sort();
    paths.dedup();
    assert_eq!(paths.len(), n, "a file appears twice");
    assert_eq!(n, 30, "{paths:#?}");
    let expect = [
        ("legacy_scripts/py2_print.py", "parse_error"),
        ("legacy_scripts/unclosed_paren.py", "parse_error"),
        ("legacy_scripts/latin1_comment.py", "not_utf8"),
        ("legacy_scripts/huge_generated.py", "skipped_too_large"),
        ("nlp_playground/notebooks/broken.ipynb", "notebook_not_json"),
        ("legacy_scripts/empty.py", "ok"),
        ("nlp_playground/notebooks/explore_attention.ipynb", "ok"),
        ("nlp_playground/notebooks/plain_tensors.ipynb", "ok"),
    ];
    for (path, status) in expect {
        let row = by_path(&r.files, path);
        assert_eq!(row["status"], status, "{path}: {row:?}");
        if status != "ok" {
            assert_ne!(row["message"], "null", "{path} has no message");
        }
    }
    let non_ok = r.files.iter().filter(|f| f["status"] != "ok").count();
    assert_eq!(non_ok, 5);
    let py2 = by_path(&r.files, "legacy_scripts/py2_print.py");
    assert_eq!(py2["error_line"], "6");
    let paren = by_path(&r.files, "legacy_scripts/unclosed_paren.py");
    assert_eq!(paren["error_line"], "11");
    let latin = by_path(&r.files, "legacy_scripts/latin1_comment.py");
    assert_eq!(latin["error_line"], "1");
    let huge = by_path(&r.files, "legacy_scripts/huge_generated.py");
    assert_eq!(huge["bytes"], "2300021");
    let empty = by_path(&r.files, "legacy_scripts/empty.py");
    assert_eq!(
        (
            empty["bytes"].as_str(),
            empty["lines"].as_str(),
            empty["op_calls"].as_str()
        ),
        ("0", "0", "0")
    );
    assert_eq!(r.run.len(), 1);
    assert_eq!(r.run[0]["files"], "30");
    assert_eq!(r.run[0]["files_ok"], "25");
    assert_eq!(r.run[0]["workers"], "2");
}

#[test]
fn skipped_folders_leave_no_trace_and_build_is_kept() {
    let r = sample_report();
    for f in &r.files {
        for skipped in [".venv", "site-packages", "node_modules", "__pycache__"] {
            assert!(
                !f["path"].contains(skipped),
                "{} should be skipped",
                f["path"]
            );
        }
    }
    let ops: Vec<&str> = r.calls.iter().map(|c| c["operator"].as_str()).collect();
    for absent in [
        "torch.kron",
        "torch.histc",
        "torch.cartesian_prod",
        "torch.vander",
    ] {
        assert!(
            !ops.contains(&absent),
            "{absent} comes from a skipped folder"
        );
    }
    assert_eq!(ops.iter().filter(|o| **o == "torch.bucketize").count(), 1);
}

#[test]
fn resolution_checkpoints() {
    let r = sample_report();
    let vn = "vision_nets/src/vision_nets/";
    assert_eq!(
        calls_at(&r, &format!("{vn}layers/heads.py"), 23),
        [("torch.cat", "call", "alias")]
    );
    assert_eq!(
        calls_at(&r, &format!("{vn}layers/heads.py"), 24),
        [("torch.nn.Linear", "apply", "module_attribute")]
    );
    assert_eq!(
        calls_at(&r, &format!("{vn}layers/blocks.py"), 17),
        [
            ("torch.nn.BatchNorm2d", "apply", "module_attribute"),
            ("torch.nn.Conv2d", "apply", "module_attribute"),
            ("torch.nn.functional.relu", "call", "alias"),
        ]
    );
    assert_eq!(
        calls_at(&r, &format!("{vn}models/spectral.py"), 17),
        [("torch.linalg.norm", "call", "alias")]
    );
    assert_eq!(
        calls_at(&r, &format!("{vn}models/resnetish.py"), 40),
        [("torch.nn.functional.normalize", "call", "import")]
    );
    assert_eq!(
        calls_at(&r, "nlp_playground/nlp_playground/train.py", 39),
        [("torch.optim.AdamW", "construct", "import")]
    );
    for line in [19, 45, 57, 58, 59] {
        assert_eq!(
            calls_at(&r, &format!("{vn}models/resnetish.py"), line),
            [],
            "line {line}"
        );
    }
    for c in &r.calls {
        assert!(
            c["operator"].starts_with("torch."),
            "not a torch operator: {c:?}"
        );
    }
    let init = by_path(&r.files, &format!("{vn}__init__.py"));
    assert!(
        init["relative_imports"].contains(".models.resnetish"),
        "{init:?}"
    );
}

#[test]
fn notebook_calls_map_back_to_cells() {
    let r = sample_report();
    let nb = "nlp_playground/notebooks/explore_attention.ipynb";
    let at = |cell: u32, line: u32| -> Vec<&str> {
        let mut v: Vec<&str> = r
            .calls
            .iter()
            .filter(|c| {
                c["path"] == nb
                    && c["cell"] == cell.to_string()
                    && c["cell_line"] == line.to_string()
            })
            .map(|c| c["operator"].as_str())
            .collect();
        v.sort();
        v
    };
    assert_eq!(at(3, 2), ["torch.randn"]);
    assert_eq!(
        at(3, 5),
        ["torch.nn.functional.scaled_dot_product_attention"]
    );
    assert_eq!(at(5, 2), ["torch.ones", "torch.triu"]);
    // `F.softmax(scores[0, 0], ...)`: the subscript of a tensor is a row of its own.
    assert_eq!(
        at(7, 1),
        ["torch.Tensor.__getitem__", "torch.nn.functional.softmax"]
    );
    // `?torch.cat` (cell 6) is a help request, not a call.
    assert!(at(6, 1).is_empty());
    let plain = "nlp_playground/notebooks/plain_tensors.ipynb";
    let cells: Vec<(String, String, String)> = r
        .calls
        .iter()
        .filter(|c| c["path"] == plain)
        .map(|c| {
            (
                c["cell"].clone(),
                c["cell_line"].clone(),
                c["operator"].clone(),
            )
        })
        .collect();
    assert!(
        cells.contains(&("2".into(), "2".into(), "torch.cat".into())),
        "{cells:?}"
    );
    assert!(
        cells.contains(&("3".into(), "1".into(), "torch.stack".into())),
        "{cells:?}"
    );
    for c in r.calls.iter().filter(|c| c["path"].ends_with(".py")) {
        assert_eq!(
            (c["cell"].as_str(), c["cell_line"].as_str()),
            ("null", "null")
        );
    }
}

#[test]
fn identical_files_are_analysed_once_and_counted_for_every_path() {
    let r = sample_report();
    let vendored = by_path(&r.files, "duplicated_utils/vendored/blocks.py");
    let original = by_path(&r.files, "vision_nets/src/vision_nets/layers/blocks.py");
    assert_eq!(vendored["content_hash"], original["content_hash"]);
    assert_eq!(vendored["duplicate_of"], "null");
    assert_eq!(
        original["duplicate_of"],
        "duplicated_utils/vendored/blocks.py"
    );
    let count = |p: &str| r.calls.iter().filter(|c| c["path"] == p).count();
    assert!(count("duplicated_utils/vendored/blocks.py") > 0);
    assert_eq!(
        count("duplicated_utils/vendored/blocks.py"),
        count("vision_nets/src/vision_nets/layers/blocks.py")
    );
    // The other pair: shape_bugs/{encoders,vendored}/patch_encoder.py.
    assert_eq!(r.run[0]["duplicates"], "2");
}

#[test]
fn aggregates_agree_with_call_sites() {
    let r = sample_report();
    // op_counts is op_calls grouped by its key columns; the derived columns agree.
    let key = |c: &Row| {
        [
            "repo",
            "operator",
            "call_kind",
            "resolution",
            "role",
            "canonical",
        ]
        .map(|k| c[k].clone())
    };
    let mut from_calls: BTreeMap<[String; 6], u64> = BTreeMap::new();
    for c in &r.calls {
        *from_calls.entry(key(c)).or_default() += 1;
    }
    let from_counts: BTreeMap<[String; 6], u64> = r
        .counts
        .iter()
        .map(|c| (key(c), c["count"].parse().unwrap()))
        .collect();
    assert_eq!(from_calls.len(), r.counts.len(), "one row per key");
    assert_eq!(from_calls, from_counts);
    let per_file: u64 = r
        .files
        .iter()
        .map(|f| f["op_calls"].parse::<u64>().unwrap())
        .sum();
    assert_eq!(per_file, r.calls.len() as u64);
    assert_eq!(r.run[0]["op_calls"], r.calls.len().to_string());
    let repos: Vec<&str> = r.counts.iter().map(|c| c["repo"].as_str()).collect();
    for repo in [
        "vision_nets",
        "nlp_playground",
        "legacy_scripts",
        "duplicated_utils",
        "shape_bugs",
    ] {
        assert!(repos.contains(&repo), "{repo}");
    }
}

#[test]
fn counting_without_shapes_counts_every_call_but_those_only_the_analysis_resolves() {
    let full = sample_report();
    let dir = tempfile::tempdir().unwrap();
    scan(&[&sample_corpus()], dir.path(), &["-w", "2", "--no-shapes"]);
    let calls = read_table(dir.path(), "op_calls");
    let expected: Vec<Row> = full
        .calls
        .iter()
        .filter(|c| c["resolution"] != "analysis")
        .cloned()
        .collect();
    assert!(
        expected.len() < full.calls.len(),
        "the sample has analysis-resolved calls"
    );
    assert_eq!(canonical(&calls, &[]), canonical(&expected, &[]));
    // The same files and statuses (their call tallies are what `op_calls` has).
    let shape_columns = ["analysis_ms", "jobs", "units", "op_calls"];
    assert_eq!(
        canonical(&read_table(dir.path(), "files"), &shape_columns),
        canonical(&full.files, &shape_columns),
    );
    for table in ["findings", "jobs"] {
        assert!(read_table(dir.path(), table).is_empty(), "{table}");
    }
    let run_row = &read_table(dir.path(), "run")[0];
    assert_eq!(
        (run_row["count_mode"].as_str(), run_row["shapes"].as_str()),
        ("precise", "false")
    );
    assert_eq!(full.run[0]["shapes"], "true");
    // TEOSC counts never analyse shapes: the flag there is a usage error.
    let o = run(&[
        "scan",
        sample_corpus().to_str().unwrap(),
        "-o",
        dir.path().join("t").to_str().unwrap(),
        "--no-shapes",
        "--count-mode",
        "teosc",
        "--op-list",
        "ops.txt",
    ]);
    assert_eq!(o.status.code(), Some(2));
}
