//! Rows of the report tables and their Arrow encoding. One struct per table; the column order
//! here is the column order in Parquet. Keep `reports/README.md` in step with this file.

use std::sync::Arc;

use arrow_array::builder::{ListBuilder, StringBuilder};
use arrow_array::{ArrayRef, Float64Array, RecordBatch, StringArray, UInt32Array, UInt64Array};
use arrow_schema::{ArrowError, DataType, Field, Schema, SchemaRef};
use serde::{Deserialize, Serialize};

/// A table written as Parquet part files.
pub trait Table: Sized {
    /// Folder name under the report directory.
    const NAME: &'static str;
    fn schema() -> SchemaRef;
    fn to_batch(rows: &[Self]) -> Result<RecordBatch, ArrowError>;
}

fn utf8(name: &str, nullable: bool) -> Field {
    Field::new(name, DataType::Utf8, nullable)
}

fn strings<'r, R: 'r>(rows: &'r [R], f: impl Fn(&'r R) -> &'r str) -> ArrayRef {
    Arc::new(StringArray::from_iter_values(rows.iter().map(f)))
}

fn opt_strings<'r, R: 'r>(rows: &'r [R], f: impl Fn(&'r R) -> Option<&'r str>) -> ArrayRef {
    Arc::new(rows.iter().map(f).collect::<StringArray>())
}

fn u64s<R>(rows: &[R], f: impl Fn(&R) -> u64) -> ArrayRef {
    Arc::new(UInt64Array::from_iter_values(rows.iter().map(f)))
}

fn u32s<R>(rows: &[R], f: impl Fn(&R) -> u32) -> ArrayRef {
    Arc::new(UInt32Array::from_iter_values(rows.iter().map(f)))
}

fn opt_u32s<R>(rows: &[R], f: impl Fn(&R) -> Option<u32>) -> ArrayRef {
    Arc::new(rows.iter().map(f).collect::<UInt32Array>())
}

/// `files`: one row per input file, whatever happened to it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct FileRow {
    pub repo: String,
    pub path: String,
    pub content_hash: Option<String>,
    pub bytes: u64,
    pub lines: u64,
    pub kind: String,
    pub status: String,
    pub message: Option<String>,
    pub error_line: Option<u32>,
    pub error_column: Option<u32>,
    pub op_calls: u64,
    pub units: u64,
    pub jobs: u64,
    pub analysis_us: u64,
    /// For a byte-identical copy: the path whose analysis it shares.
    pub duplicate_of: Option<String>,
    pub relative_imports: Vec<String>,
}

impl Table for FileRow {
    const NAME: &'static str = "files";

    fn schema() -> SchemaRef {
        Arc::new(Schema::new(vec![
            utf8("repo", false),
            utf8("path", false),
            utf8("content_hash", true),
            Field::new("bytes", DataType::UInt64, false),
            Field::new("lines", DataType::UInt64, false),
            utf8("kind", false),
            utf8("status", false),
            utf8("message", true),
            Field::new("error_line", DataType::UInt32, true),
            Field::new("error_column", DataType::UInt32, true),
            Field::new("op_calls", DataType::UInt64, false),
            Field::new("units", DataType::UInt64, false),
            Field::new("jobs", DataType::UInt64, false),
            Field::new("analysis_ms", DataType::Float64, false),
            utf8("duplicate_of", true),
            Field::new(
                "relative_imports",
                DataType::List(Arc::new(Field::new("item", DataType::Utf8, true))),
                false,
            ),
        ]))
    }

    fn to_batch(rows: &[Self]) -> Result<RecordBatch, ArrowError> {
        let mut imports = ListBuilder::new(StringBuilder::new());
        for r in rows {
            for i in &r.relative_imports {
                imports.values().append_value(i);
            }
            imports.append(true);
        }
        RecordBatch::try_new(
            Self::schema(),
            vec![
                strings(rows, |r| &r.repo),
                strings(rows, |r| &r.path),
                opt_strings(rows, |r| r.content_hash.as_deref()),
                u64s(rows, |r| r.bytes),
                u64s(rows, |r| r.lines),
                strings(rows, |r| &r.kind),
                strings(rows, |r| &r.status),
                opt_strings(rows, |r| r.message.as_deref()),
                opt_u32s(rows, |r| r.error_line),
                opt_u32s(rows, |r| r.error_column),
                u64s(rows, |r| r.op_calls),
                u64s(rows, |r| r.units),
                u64s(rows, |r| r.jobs),
                Arc::new(Float64Array::from_iter_values(
                    rows.iter().map(|r| r.analysis_us as f64 / 1000.0),
                )),
                opt_strings(rows, |r| r.duplicate_of.as_deref()),
                Arc::new(imports.finish()),
            ],
        )
    }
}

/// `op_calls`: one row per recognised operator call site.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct OpCallRow {
    pub repo: String,
    pub path: String,
    pub line: u32,
    pub column: u32,
    pub operator: String,
    pub family: String,
    pub call_kind: String,
    pub resolution: String,
    pub enclosing_class: Option<String>,
    pub enclosing_function: Option<String>,
    pub cell: Option<u32>,
    pub cell_line: Option<u32>,
}

impl Table for OpCallRow {
    const NAME: &'static str = "op_calls";

    fn schema() -> SchemaRef {
        Arc::new(Schema::new(vec![
            utf8("repo", false),
            utf8("path", false),
            Field::new("line", DataType::UInt32, false),
            Field::new("column", DataType::UInt32, false),
            utf8("operator", false),
            utf8("family", false),
            utf8("call_kind", false),
            utf8("resolution", false),
            utf8("enclosing_class", true),
            utf8("enclosing_function", true),
            Field::new("cell", DataType::UInt32, true),
            Field::new("cell_line", DataType::UInt32, true),
        ]))
    }

    fn to_batch(rows: &[Self]) -> Result<RecordBatch, ArrowError> {
        RecordBatch::try_new(
            Self::schema(),
            vec![
                strings(rows, |r| &r.repo),
                strings(rows, |r| &r.path),
                u32s(rows, |r| r.line),
                u32s(rows, |r| r.column),
                strings(rows, |r| &r.operator),
                strings(rows, |r| &r.family),
                strings(rows, |r| &r.call_kind),
                strings(rows, |r| &r.resolution),
                opt_strings(rows, |r| r.enclosing_class.as_deref()),
                opt_strings(rows, |r| r.enclosing_function.as_deref()),
                opt_u32s(rows, |r| r.cell),
                opt_u32s(rows, |r| r.cell_line),
            ],
        )
    }
}

/// `op_counts`: calls per repository and operator, aggregated by the dataflow.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct OpCountRow {
    pub repo: String,
    pub operator: String,
    pub count: u64,
}

impl Table for OpCountRow {
    const NAME: &'static str = "op_counts";

    fn schema() -> SchemaRef {
        Arc::new(Schema::new(vec![
            utf8("repo", false),
            utf8("operator", false),
            Field::new("count", DataType::UInt64, false),
        ]))
    }

    fn to_batch(rows: &[Self]) -> Result<RecordBatch, ArrowError> {
        RecordBatch::try_new(
            Self::schema(),
            vec![
                strings(rows, |r| &r.repo),
                strings(rows, |r| &r.operator),
                u64s(rows, |r| r.count),
            ],
        )
    }
}

/// `run`: one row describing the run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunRow {
    pub version: String,
    pub torch_api_version: String,
    pub arguments: String,
    pub count_mode: String,
    pub started_at: String,
    pub duration_s: f64,
    pub workers: u64,
    pub processes: u64,
    pub files: u64,
    pub files_ok: u64,
    pub files_failed: u64,
    pub duplicates: u64,
    pub bytes: u64,
    pub op_calls: u64,
    pub operators: u64,
}

impl Table for RunRow {
    const NAME: &'static str = "run";

    fn schema() -> SchemaRef {
        let u = |n: &str| Field::new(n, DataType::UInt64, false);
        Arc::new(Schema::new(vec![
            utf8("version", false),
            utf8("torch_api_version", false),
            utf8("arguments", false),
            utf8("count_mode", false),
            utf8("started_at", false),
            Field::new("duration_s", DataType::Float64, false),
            u("workers"),
            u("processes"),
            u("files"),
            u("files_ok"),
            u("files_failed"),
            u("duplicates"),
            u("bytes"),
            u("op_calls"),
            u("operators"),
        ]))
    }

    fn to_batch(rows: &[Self]) -> Result<RecordBatch, ArrowError> {
        RecordBatch::try_new(
            Self::schema(),
            vec![
                strings(rows, |r| &r.version),
                strings(rows, |r| &r.torch_api_version),
                strings(rows, |r| &r.arguments),
                strings(rows, |r| &r.count_mode),
                strings(rows, |r| &r.started_at),
                Arc::new(Float64Array::from_iter_values(
                    rows.iter().map(|r| r.duration_s),
                )),
                u64s(rows, |r| r.workers),
                u64s(rows, |r| r.processes),
                u64s(rows, |r| r.files),
                u64s(rows, |r| r.files_ok),
                u64s(rows, |r| r.files_failed),
                u64s(rows, |r| r.duplicates),
                u64s(rows, |r| r.bytes),
                u64s(rows, |r| r.op_calls),
                u64s(rows, |r| r.operators),
            ],
        )
    }
}
