//! Operator counting and the analysis resolve names through one component
//! (`shapehound::resolve`), and counting adds the call sites only the analysis resolves
//! (resolution `analysis`): wherever the analysis applies a torch operator directly at a
//! call site, the `op_calls` table of a real scan names that operator there. Checked on the
//! sample corpus always, and on `corpus/real` with `SHAPEHOUND_REAL=1` (fetched by
//! `python3 scripts/fetch-corpus.py`; about 40 s in release mode).
//! Where counting alone would name another operator (a callee rebound under an `if`, which
//! counting reads in statement order), the analysis' operator replaces it.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use shapehound::analysis::load;
use shapehound::corpus::source::NotebookMode;
use shapehound::corpus::FileKind;
use shapehound::frontend::LineIndex;
use shapehound::resolve::torch_name;
use shapehound::units::run_units_noting_operators;

/// Files, call sites the analysis resolves, those where `op_calls` names another operator
/// (`path:line:column`, the analysis' operator, counting's), and those with no row.
struct Agreement {
    files: usize,
    applied: usize,
    by_analysis: usize,
    conflicts: Vec<String>,
    missing: Vec<String>,
}

/// Scans `root` with the binary and compares its `op_calls` with what the analysis applies.
fn compare(root: &Path) -> Agreement {
    let report = tempfile::tempdir().expect("temp dir");
    common::scan(&[root], report.path(), &["-w", "2"]);
    let mut rows: BTreeMap<(String, u32, u32), BTreeSet<String>> = BTreeMap::new();
    let mut by_analysis = 0;
    for r in common::read_table(report.path(), "op_calls") {
        by_analysis += usize::from(r["resolution"] == "analysis");
        let key = (
            r["path"].clone(),
            r["line"].parse().unwrap(),
            r["column"].parse().unwrap(),
        );
        rows.entry(key).or_default().insert(r["operator"].clone());
    }
    let mut out = Agreement {
        files: 0,
        applied: 0,
        by_analysis,
        conflicts: Vec::new(),
        missing: Vec::new(),
    };
    let mut paths: Vec<String> = common::read_table(report.path(), "files")
        .into_iter()
        .filter(|f| f["status"] == "ok" && f["kind"] == "py" && f["duplicate_of"] == "null")
        .map(|f| f["path"].clone())
        .collect();
    paths.sort();
    for path in paths {
        let Ok(bytes) = std::fs::read(root.join(&path)) else {
            continue;
        };
        let loaded = load(
            &bytes,
            FileKind::Py,
            NotebookMode::Precise,
            |src, module| {
                let lines = LineIndex::new(&src.text);
                let applied = run_units_noting_operators(module, &src.text, None, None).applied;
                applied
                    .into_iter()
                    .map(|a| (lines.line_col(&src.text, a.at), a.operator.to_string()))
                    .collect::<Vec<_>>()
            },
        );
        let Ok(applied) = loaded else {
            continue;
        };
        out.files += 1;
        for ((line, column), op) in applied {
            if torch_name(&op).is_none() {
                continue;
            }
            out.applied += 1;
            let site = format!("{path}:{line}:{column}");
            match rows.get(&(path.clone(), line, column)) {
                Some(ops) if ops.contains(&op) => {}
                Some(ops) => out.conflicts.push(format!(
                    "{site}\t{op}\t{}",
                    ops.iter().cloned().collect::<Vec<_>>().join(", ")
                )),
                None => out.missing.push(format!("{site}\t{op}")),
            }
        }
    }
    out
}

fn assert_agree(root: &Path) {
    let a = compare(root);
    eprintln!(
        "{}: {} files, {} torch operators applied at call sites, {} conflicting, {} op_calls rows resolved by the analysis alone",
        root.display(),
        a.files,
        a.applied,
        a.conflicts.len(),
        a.by_analysis
    );
    assert!(
        a.missing.is_empty(),
        "op_calls has no row where the analysis applies an operator:\n{}",
        a.missing.join("\n")
    );
    assert!(
        a.files > 0 && a.applied > 0,
        "nothing compared under {}",
        root.display()
    );
    assert!(
        a.conflicts.is_empty(),
        "op_calls names another operator at {} call sites (path:line:column, analysis, op_calls):\n{}",
        a.conflicts.len(),
        a.conflicts.join("\n")
    );
}

#[test]
fn counting_and_analysis_name_the_same_operator_on_the_sample_corpus() {
    assert_agree(&common::sample_corpus());
}

#[test]
fn counting_and_analysis_name_the_same_operator_on_the_real_corpus() {
    if std::env::var_os("SHAPEHOUND_REAL").is_none() {
        eprintln!("corpus/real: skipped (SHAPEHOUND_REAL=1 runs it)");
        return;
    }
    let real = common::repo_root().join("corpus/real");
    assert!(
        real.is_dir(),
        "corpus/real is missing: python3 scripts/fetch-corpus.py"
    );
    assert_agree(&real);
}
