//! Operator counting and the analysis resolve names through one component
//! (`shapehound::resolve`): wherever the analysis applies a torch operator directly at a
//! call site, `op_calls` (precise counting) names no other operator there. Checked on the
//! sample corpus always, and on `corpus/real` with `SHAPEHOUND_REAL=1` (fetched by
//! `python3 scripts/fetch-corpus.py`; about 40 s in release mode).
//!
//! The known exceptions are listed with their reason in
//! `tests/data/resolution_conflicts.tsv`: a callee bound differently on the branches of an
//! `if` (`klass = nn.Conv1d` / `if freq: klass = nn.Conv2d`), which counting reads in
//! statement order while the analysis follows the path the unit's defaults take. Any
//! other conflict fails.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use shapehound::analysis::load;
use shapehound::corpus::source::NotebookMode;
use shapehound::corpus::FileKind;
use shapehound::resolve::torch_name;

/// Files, call sites the analysis resolves, and those where counting names another operator
/// (`path:line:column analysis [counted]`) or none.
struct Agreement {
    files: usize,
    applied: usize,
    conflicts: Vec<String>,
    uncounted: usize,
}

fn compare(root: &Path) -> Agreement {
    let mut out = Agreement {
        files: 0,
        applied: 0,
        conflicts: Vec::new(),
        uncounted: 0,
    };
    let mut paths: Vec<_> = walkdir::WalkDir::new(root)
        .into_iter()
        .filter_map(Result::ok)
        .map(|e| e.into_path())
        .filter(|p| p.extension().is_some_and(|e| e == "py"))
        .collect();
    paths.sort();
    for path in paths {
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let loaded = load(
            &bytes,
            FileKind::Py,
            NotebookMode::Precise,
            |src, module| {
                let mut counted: BTreeMap<(u32, u32), BTreeSet<String>> = BTreeMap::new();
                for c in shapehound::operators::precise::find_calls(module, &src.text).calls {
                    counted
                        .entry((c.line, c.column))
                        .or_default()
                        .insert(c.operator);
                }
                let applied = shapehound::units::operators_applied(module, &src.text);
                (counted, applied)
            },
        );
        let Ok((counted, applied)) = loaded else {
            continue;
        };
        out.files += 1;
        for (line, column, op) in applied {
            if torch_name(&op).is_none() {
                continue;
            }
            out.applied += 1;
            match counted.get(&(line, column)) {
                Some(ops) if ops.contains(&op) => {}
                Some(ops) => out.conflicts.push(format!(
                    "{}:{line}:{column}\t{op}\t{}",
                    path.strip_prefix(root).unwrap_or(&path).display(),
                    ops.iter().cloned().collect::<Vec<_>>().join(", ")
                )),
                None => out.uncounted += 1,
            }
        }
    }
    out
}

/// Known conflicts: `path:line:column`, the analysis' operator, counting's, and why.
const KNOWN: &str = "tests/data/resolution_conflicts.tsv";

fn assert_agree(root: &Path) {
    let a = compare(root);
    eprintln!(
        "{}: {} files, {} torch operators applied at call sites, {} conflicting, {} resolved by the analysis alone",
        root.display(),
        a.files,
        a.applied,
        a.conflicts.len(),
        a.uncounted
    );
    assert!(
        a.files > 0 && a.applied > 0,
        "nothing compared under {}",
        root.display()
    );
    let known = std::fs::read_to_string(common::repo_root().join(KNOWN)).unwrap_or_default();
    let known: BTreeSet<String> = known
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split('\t').take(3).collect::<Vec<_>>().join("\t"))
        .collect();
    let new: Vec<&String> = a.conflicts.iter().filter(|c| !known.contains(*c)).collect();
    assert!(
        new.is_empty(),
        "counting names another operator at {} call sites (path:line:column, analysis, counting):\n{}",
        new.len(),
        new.iter().map(|c| c.as_str()).collect::<Vec<_>>().join("\n")
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
