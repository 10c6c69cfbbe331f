//! `--count-mode teosc` reproduces the TEOSC counter exactly: the expected counts are those of
//! the digest's §8.3, verified there by running the real `teosc.py`. Uses the TEOSC operator
//! list from `../shared/reference/teosc/` and skips (with a message) when it is absent.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::*;

const A_PY: &str = r#"import torch
import torch.nn as nn
x = torch.zeros(2, 3)
y = x.view(3, 2)
for i in range(3):
    pass
m = nn.Linear(3, 4)
r = nn.ReLU()
s = "a,b".split(",")
# torch.reshape(x, (6,)) in a comment
t = "torch.cat"
z = torch.Tensor(2)
q = max(1, 2)
torch.nn.functional.relu(x)
w = torch.cat([x, torch.ones(2, 3)], dim=0).sum(0)
f = fns[0](x)
"#;

fn op_list() -> Option<std::path::PathBuf> {
    let list = teosc_op_list();
    if list.is_none() {
        eprintln!("skipping: ../shared/reference/teosc/pytorch_operations.txt is not present");
    }
    list
}

fn teosc_scan(corpus: &Path, out: &Path, list: &Path) -> (Vec<(String, u64)>, String) {
    let output = run(&[
        "scan",
        corpus.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--count-mode",
        "teosc",
        "--op-list",
        list.to_str().unwrap(),
        "--top",
        "1000",
    ]);
    assert!(
        common::completed(&output.status),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    // The summary's operator list, in printed order.
    let printed = stdout
        .lines()
        .skip_while(|l| !l.starts_with("top "))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .map(|l| {
            let mut parts = l.split_whitespace().skip(1);
            let op = parts.next().unwrap().to_string();
            let n = parts.next().unwrap().parse().unwrap();
            (op, n)
        })
        .collect();
    (printed, stdout)
}

#[test]
fn digest_8_3_counts_for_a_py_in_teosc_order() {
    let Some(list) = op_list() else { return };
    let t = tempfile::tempdir().unwrap();
    let corpus = t.path().join("c");
    std::fs::create_dir_all(&corpus).unwrap();
    std::fs::write(corpus.join("a.py"), A_PY).unwrap();
    let (printed, _) = teosc_scan(&corpus, &t.path().join("r"), &list);
    let expected: Vec<(String, u64)> = [
        ("relu", 2),
        ("tensor", 1),
        ("zeros", 1),
        ("ones", 1),
        ("range", 1),
        ("cat", 1),
        ("split", 1),
        ("sum", 1),
        ("max", 1),
        ("nn.ReLU", 1),
        ("nn.Linear", 1),
        ("view", 1),
    ]
    .iter()
    .map(|(k, n)| (k.to_string(), *n))
    .collect();
    assert_eq!(printed, expected);
    let counts = read_table(&t.path().join("r"), "op_counts");
    let total: u64 = counts
        .iter()
        .map(|c| c["count"].parse::<u64>().unwrap())
        .sum();
    assert_eq!(total, 13);
}

#[test]
fn digest_8_3_notebooks_and_failures() {
    let Some(list) = op_list() else { return };
    let t = tempfile::tempdir().unwrap();
    let c = t.path().join("c");
    std::fs::create_dir_all(&c).unwrap();
    std::fs::write(c.join("a.py"), A_PY).unwrap();
    let nb = |cells: &str| {
        format!(r#"{{"nbformat": 4, "nbformat_minor": 5, "metadata": {{}}, "cells": [{cells}]}}"#)
    };
    std::fs::write(
        c.join("ok.ipynb"),
        nb(
            r#"{"cell_type": "code", "source": ["import torch\n", "a = torch.zeros(3)\n"]},
              {"cell_type": "code", "source": ["b = a.unsqueeze(0)\n"]}"#,
        ),
    )
    .unwrap();
    std::fs::write(
        c.join("glued.ipynb"),
        nb(
            r#"{"cell_type": "code", "source": ["import torch\n", "a = torch.zeros(3)"]},
              {"cell_type": "markdown", "source": ["text"]},
              {"cell_type": "code", "source": ["b = a.unsqueeze(0)\n"]}"#,
        ),
    )
    .unwrap();
    std::fs::write(
        c.join("magic.ipynb"),
        nb(r#"{"cell_type": "code", "source": ["%matplotlib inline\n", "import torch\n", "a = torch.zeros(3)\n"]}"#),
    )
    .unwrap();
    std::fs::write(
        c.join("py2.py"),
        "import torch\nprint \"py2\"\nx = torch.zeros(1)\n",
    )
    .unwrap();
    let out = t.path().join("r");
    teosc_scan(&c, &out, &list);
    let files = read_table(&out, "files");
    let status: BTreeMap<&str, &str> = files
        .iter()
        .map(|f| (f["path"].as_str(), f["status"].as_str()))
        .collect();
    assert_eq!(
        status,
        BTreeMap::from([
            ("a.py", "ok"),
            ("ok.ipynb", "ok"),
            ("glued.ipynb", "parse_error"),
            ("magic.ipynb", "parse_error"),
            ("py2.py", "parse_error"),
        ])
    );
    let counts = read_table(&out, "op_counts");
    let count = |k: &str| {
        counts
            .iter()
            .filter(|c| c["operator"] == k)
            .map(|c| c["count"].parse::<u64>().unwrap())
            .sum::<u64>()
    };
    // "Files scanned (2)": only a.py and ok.ipynb count; zeros from both of them.
    assert_eq!(count("zeros"), 2);
    assert_eq!(count("unsqueeze"), 1);
    assert_eq!(count("relu"), 2);
}

#[test]
fn precise_mode_does_not_count_what_teosc_counts_by_name() {
    let t = tempfile::tempdir().unwrap();
    let corpus = t.path().join("c");
    std::fs::create_dir_all(&corpus).unwrap();
    std::fs::write(corpus.join("a.py"), A_PY).unwrap();
    let out = t.path().join("r");
    scan(&[&corpus], &out, &[]);
    let mut ops: Vec<String> = read_table(&out, "op_calls")
        .iter()
        .map(|c| c["operator"].clone())
        .collect();
    ops.sort();
    assert_eq!(
        ops,
        [
            "torch.Tensor",
            "torch.Tensor.sum",
            "torch.Tensor.view",
            "torch.cat",
            "torch.nn.Linear",
            "torch.nn.ReLU",
            "torch.nn.functional.relu",
            "torch.ones",
            "torch.zeros",
        ]
    );
}
