//! Helpers for the integration tests: run the real binary, read the real Parquet back.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use arrow_array::{
    Array, BooleanArray, Float64Array, ListArray, RecordBatch, StringArray, StructArray,
    UInt32Array, UInt64Array,
};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

pub fn binary() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_shapehound"))
}

pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The sample corpus, with its generated files written (`scripts/sample_fixtures.py`).
pub fn sample_corpus() -> PathBuf {
    static FIXTURES: std::sync::Once = std::sync::Once::new();
    FIXTURES.call_once(|| {
        let status = std::process::Command::new("python3")
            .arg(repo_root().join("scripts/sample_fixtures.py"))
            .status()
            .expect("python3 runs scripts/sample_fixtures.py");
        assert!(status.success(), "scripts/sample_fixtures.py failed");
    });
    repo_root().join("corpus/sample")
}

/// The TEOSC operator list from the shared reference folder, when it is there.
pub fn teosc_op_list() -> Option<PathBuf> {
    let p = repo_root().join("../shared/reference/teosc/pytorch_operations.txt");
    p.exists().then_some(p)
}

pub fn run(args: &[&str]) -> Output {
    Command::new(binary())
        .args(args)
        .output()
        .expect("the shapehound binary runs")
}

/// [`run`] in the folder `dir` (for paths given relative to it).
pub fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(binary())
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the shapehound binary runs")
}

/// A run that completed: exit 0, or 1 for findings or files that do not parse.
pub fn completed(status: &std::process::ExitStatus) -> bool {
    matches!(status.code(), Some(0 | 1))
}

/// Runs `shapehound scan` and asserts it completed (exit 0, or 1 for findings).
pub fn scan(roots: &[&Path], out: &Path, extra: &[&str]) -> Output {
    let mut args: Vec<String> = vec!["scan".into()];
    args.extend(roots.iter().map(|r| r.display().to_string()));
    args.extend(["-o".into(), out.display().to_string(), "--quiet".into()]);
    // The sample corpus's generated fixtures are ignored by this repository's .gitignore;
    // a corpus is scanned as it is on disk.
    args.push("--no-gitignore".into());
    args.extend(extra.iter().map(|s| s.to_string()));
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let output = run(&argv);
    assert!(
        completed(&output.status),
        "scan failed: {}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// One table row: column name → value rendered as text (`null` for nulls, lists joined by `|`,
/// structs as `{name=value,...}`).
pub type Row = BTreeMap<String, String>;

fn cell(array: &dyn Array, i: usize) -> String {
    if array.is_null(i) {
        return "null".to_string();
    }
    let any = array.as_any();
    if let Some(a) = any.downcast_ref::<StringArray>() {
        return a.value(i).to_string();
    }
    if let Some(a) = any.downcast_ref::<UInt64Array>() {
        return a.value(i).to_string();
    }
    if let Some(a) = any.downcast_ref::<UInt32Array>() {
        return a.value(i).to_string();
    }
    if let Some(a) = any.downcast_ref::<Float64Array>() {
        return a.value(i).to_string();
    }
    if let Some(a) = any.downcast_ref::<BooleanArray>() {
        return a.value(i).to_string();
    }
    if let Some(a) = any.downcast_ref::<StructArray>() {
        let fields: Vec<String> = a
            .fields()
            .iter()
            .zip(a.columns())
            .map(|(f, c)| format!("{}={}", f.name(), cell(c.as_ref(), i)))
            .collect();
        return format!("{{{}}}", fields.join(","));
    }
    if let Some(a) = any.downcast_ref::<ListArray>() {
        let inner = a.value(i);
        return (0..inner.len())
            .map(|j| cell(inner.as_ref(), j))
            .collect::<Vec<_>>()
            .join("|");
    }
    panic!("unexpected column type {:?}", array.data_type());
}

/// Reads every part file of `table` under a report directory.
pub fn read_table(report: &Path, table: &str) -> Vec<Row> {
    let dir = report.join(table);
    let mut parts: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "parquet"))
        .collect();
    parts.sort();
    let mut rows = Vec::new();
    for part in parts {
        let file = std::fs::File::open(&part).unwrap();
        let reader = ParquetRecordBatchReaderBuilder::try_new(file)
            .unwrap()
            .build()
            .unwrap();
        for batch in reader {
            let batch: RecordBatch = batch.unwrap();
            let schema = batch.schema();
            for i in 0..batch.num_rows() {
                let mut row = Row::new();
                for (c, field) in schema.fields().iter().enumerate() {
                    row.insert(field.name().clone(), cell(batch.column(c).as_ref(), i));
                }
                rows.push(row);
            }
        }
    }
    rows
}

/// Rows as sorted text lines without the named columns (for set comparisons).
pub fn canonical(rows: &[Row], without: &[&str]) -> Vec<String> {
    let mut lines: Vec<String> = rows
        .iter()
        .map(|r| {
            r.iter()
                .filter(|(k, _)| !without.contains(&k.as_str()))
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(", ")
        })
        .collect();
    lines.sort();
    lines
}

pub fn by_path<'a>(rows: &'a [Row], path: &str) -> &'a Row {
    rows.iter()
        .find(|r| r["path"] == path)
        .unwrap_or_else(|| panic!("no row for {path}"))
}

/// `n` with thousands separators, as README writes figures (`11,160`).
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// README states each of these figures (whitespace-insensitive: lines wrap anywhere).
pub fn assert_readme_states(statements: &[String]) {
    let squash = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let readme =
        squash(&std::fs::read_to_string(repo_root().join("README.md")).expect("README.md"));
    for s in statements {
        assert!(
            readme.contains(&squash(s)),
            "README.md should say \"{}\" (its figure is out of date)",
            squash(s)
        );
    }
}

/// Copies `from` into `to` (folders and files).
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}
