//! Rows of the report tables and their Arrow encoding. One struct per table; the column order
//! here is the column order in Parquet. Keep `reports/README.md` in step with this file.

use std::sync::Arc;

use arrow_array::builder::{ListBuilder, StringBuilder};
use arrow_array::{
    ArrayRef, BooleanArray, Float64Array, ListArray, RecordBatch, StringArray, StructArray,
    UInt32Array, UInt64Array,
};
use arrow_buffer::OffsetBuffer;
use arrow_schema::{ArrowError, DataType, Field, Fields, Schema, SchemaRef};
use serde::{Deserialize, Serialize};

use crate::corpus::roles::{release_of, FileRole};
use crate::operators::api::canonical_of;

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

/// A non-null column of lists of strings.
fn string_list(name: &str) -> Field {
    Field::new(
        name,
        DataType::List(Arc::new(Field::new("item", DataType::Utf8, true))),
        false,
    )
}

fn string_lists<R>(rows: &[R], f: impl Fn(&R) -> &[String]) -> ArrayRef {
    let mut lists = ListBuilder::new(StringBuilder::new());
    for r in rows {
        for item in f(r) {
            lists.values().append_value(item);
        }
        lists.append(true);
    }
    Arc::new(lists.finish())
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

fn bools<R>(rows: &[R], f: impl Fn(&R) -> bool) -> ArrayRef {
    Arc::new(BooleanArray::from(rows.iter().map(f).collect::<Vec<_>>()))
}

fn u32s<R>(rows: &[R], f: impl Fn(&R) -> u32) -> ArrayRef {
    Arc::new(UInt32Array::from_iter_values(rows.iter().map(f)))
}

fn opt_u32s<R>(rows: &[R], f: impl Fn(&R) -> Option<u32>) -> ArrayRef {
    Arc::new(rows.iter().map(f).collect::<UInt32Array>())
}

/// Microseconds as float64 milliseconds (the tables' time unit).
fn millis<R>(rows: &[R], f: impl Fn(&R) -> u64) -> ArrayRef {
    Arc::new(Float64Array::from_iter_values(
        rows.iter().map(|r| f(r) as f64 / 1000.0),
    ))
}

/// `files`: one row per input file, whatever happened to it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct FileRow {
    pub repo: String,
    pub path: String,
    /// What the file is for in its repository (from its path there, `corpus/roles.rs`).
    pub role: FileRole,
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
            utf8("repo_name", false),
            utf8("repo_version", true),
            utf8("path", false),
            utf8("role", false),
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
            string_list("relative_imports"),
        ]))
    }

    fn to_batch(rows: &[Self]) -> Result<RecordBatch, ArrowError> {
        RecordBatch::try_new(
            Self::schema(),
            vec![
                strings(rows, |r| &r.repo),
                strings(rows, |r| release_of(&r.repo).0),
                opt_strings(rows, |r| release_of(&r.repo).1),
                strings(rows, |r| &r.path),
                strings(rows, |r| r.role.as_str()),
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
                millis(rows, |r| r.analysis_us),
                opt_strings(rows, |r| r.duplicate_of.as_deref()),
                string_lists(rows, |r| &r.relative_imports),
            ],
        )
    }
}

/// `op_calls`: one row per recognised operator call site.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct OpCallRow {
    pub repo: String,
    pub path: String,
    pub role: FileRole,
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
            utf8("role", false),
            Field::new("line", DataType::UInt32, false),
            Field::new("column", DataType::UInt32, false),
            utf8("operator", false),
            utf8("canonical", false),
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
                strings(rows, |r| r.role.as_str()),
                u32s(rows, |r| r.line),
                u32s(rows, |r| r.column),
                strings(rows, |r| &r.operator),
                strings(rows, |r| canonical_of(&r.operator)),
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

/// `op_counts`: calls per repository, operator, call kind, resolution and file role,
/// aggregated by the dataflow.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct OpCountRow {
    pub repo: String,
    pub operator: String,
    pub call_kind: String,
    pub resolution: String,
    pub role: String,
    pub count: u64,
}

impl Table for OpCountRow {
    const NAME: &'static str = "op_counts";

    fn schema() -> SchemaRef {
        Arc::new(Schema::new(vec![
            utf8("repo", false),
            utf8("repo_name", false),
            utf8("repo_version", true),
            utf8("operator", false),
            utf8("canonical", false),
            utf8("call_kind", false),
            utf8("resolution", false),
            utf8("role", false),
            Field::new("count", DataType::UInt64, false),
        ]))
    }

    fn to_batch(rows: &[Self]) -> Result<RecordBatch, ArrowError> {
        RecordBatch::try_new(
            Self::schema(),
            vec![
                strings(rows, |r| &r.repo),
                strings(rows, |r| release_of(&r.repo).0),
                opt_strings(rows, |r| release_of(&r.repo).1),
                strings(rows, |r| &r.operator),
                strings(rows, |r| canonical_of(&r.operator)),
                strings(rows, |r| &r.call_kind),
                strings(rows, |r| &r.resolution),
                strings(rows, |r| &r.role),
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
    /// Whether the shape analysis ran (false with `--no-shapes` and in TEOSC mode).
    pub shapes: bool,
    /// The assumptions the run made (`--assume` and the configuration's), `; `-separated.
    pub assumptions: Option<String>,
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
    pub findings: u64,
    pub findings_suppressed: u64,
    /// With `--baseline`: findings not in it, and its findings this run no longer has.
    pub findings_new: Option<u64>,
    pub findings_fixed: Option<u64>,
    pub warnings: u64,
    pub jobs: u64,
    pub jobs_sat: u64,
    pub jobs_unsat: u64,
    pub jobs_unknown: u64,
    pub jobs_skipped: u64,
    pub jobs_z3: u64,
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
            Field::new("shapes", DataType::Boolean, false),
            utf8("assumptions", true),
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
            u("findings"),
            u("findings_suppressed"),
            Field::new("findings_new", DataType::UInt64, true),
            Field::new("findings_fixed", DataType::UInt64, true),
            u("warnings"),
            u("jobs"),
            u("jobs_sat"),
            u("jobs_unsat"),
            u("jobs_unknown"),
            u("jobs_skipped"),
            u("jobs_z3"),
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
                Arc::new(BooleanArray::from(
                    rows.iter().map(|r| r.shapes).collect::<Vec<_>>(),
                )),
                Arc::new(StringArray::from_iter(
                    rows.iter().map(|r| r.assumptions.as_deref()),
                )),
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
                u64s(rows, |r| r.findings),
                u64s(rows, |r| r.findings_suppressed),
                Arc::new(UInt64Array::from_iter(rows.iter().map(|r| r.findings_new))),
                Arc::new(UInt64Array::from_iter(
                    rows.iter().map(|r| r.findings_fixed),
                )),
                u64s(rows, |r| r.warnings),
                u64s(rows, |r| r.jobs),
                u64s(rows, |r| r.jobs_sat),
                u64s(rows, |r| r.jobs_unsat),
                u64s(rows, |r| r.jobs_unknown),
                u64s(rows, |r| r.jobs_skipped),
                u64s(rows, |r| r.jobs_z3),
            ],
        )
    }
}

/// A source span with a label: a definition a finding's operation conflicts with.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct RelatedSpan {
    /// The file, when it is not the finding's own (a call in the importing file).
    pub path: Option<String>,
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
    pub label: String,
}

fn related_fields() -> Fields {
    Fields::from(vec![
        utf8("path", true),
        Field::new("line", DataType::UInt32, false),
        Field::new("column", DataType::UInt32, false),
        Field::new("end_line", DataType::UInt32, false),
        Field::new("end_column", DataType::UInt32, false),
        utf8("label", false),
    ])
}

fn related_item() -> Arc<Field> {
    Arc::new(Field::new("item", DataType::Struct(related_fields()), true))
}

/// `list<struct<path, line, column, end_line, end_column, label>>`, one list per row.
fn related_lists(rows: &[FindingRow]) -> Result<ArrayRef, ArrowError> {
    let items: Vec<&RelatedSpan> = rows.iter().flat_map(|r| &r.related).collect();
    let values = StructArray::try_new(
        related_fields(),
        vec![
            Arc::new(StringArray::from(
                items.iter().map(|s| s.path.as_deref()).collect::<Vec<_>>(),
            )),
            u32s(&items, |s| s.line),
            u32s(&items, |s| s.column),
            u32s(&items, |s| s.end_line),
            u32s(&items, |s| s.end_column),
            Arc::new(StringArray::from_iter_values(
                items.iter().map(|s| s.label.as_str()),
            )),
        ],
        None,
    )?;
    let offsets = OffsetBuffer::from_lengths(rows.iter().map(|r| r.related.len()));
    Ok(Arc::new(ListArray::try_new(
        related_item(),
        offsets,
        Arc::new(values),
        None,
    )?))
}

/// `findings`: one row per shape bug and path (identical copies each get their rows).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct FindingRow {
    pub id: String,
    pub repo: String,
    pub path: String,
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
    pub unit: String,
    pub unit_kind: String,
    pub operator: String,
    pub kind: String,
    pub severity: String,
    pub message: String,
    pub shapes: String,
    pub witness: Option<String>,
    pub related: Vec<RelatedSpan>,
    pub solver: String,
    pub solve_us: u64,
    /// An inline comment suppresses it (`findings::suppress`).
    pub suppressed: bool,
    /// Against `--baseline`: `new` or `unchanged`; without one, none.
    pub baseline: Option<String>,
}

impl FindingRow {
    /// Whether it counts for the exit code and the summary: an error, not suppressed, and
    /// not already in the baseline.
    pub fn counts(&self) -> bool {
        self.severity == "error"
            && !self.suppressed
            && self.baseline.as_deref() != Some("unchanged")
    }
}

impl Table for FindingRow {
    const NAME: &'static str = "findings";

    fn schema() -> SchemaRef {
        let u32f = |n: &str| Field::new(n, DataType::UInt32, false);
        Arc::new(Schema::new(vec![
            utf8("id", false),
            utf8("repo", false),
            utf8("path", false),
            u32f("line"),
            u32f("column"),
            u32f("end_line"),
            u32f("end_column"),
            utf8("unit", false),
            utf8("unit_kind", false),
            utf8("operator", false),
            utf8("kind", false),
            utf8("severity", false),
            utf8("message", false),
            utf8("shapes", false),
            utf8("witness", true),
            Field::new("related", DataType::List(related_item()), false),
            utf8("solver", false),
            Field::new("solve_us", DataType::UInt64, false),
            Field::new("suppressed", DataType::Boolean, false),
            utf8("baseline", true),
        ]))
    }

    fn to_batch(rows: &[Self]) -> Result<RecordBatch, ArrowError> {
        RecordBatch::try_new(
            Self::schema(),
            vec![
                strings(rows, |r| &r.id),
                strings(rows, |r| &r.repo),
                strings(rows, |r| &r.path),
                u32s(rows, |r| r.line),
                u32s(rows, |r| r.column),
                u32s(rows, |r| r.end_line),
                u32s(rows, |r| r.end_column),
                strings(rows, |r| &r.unit),
                strings(rows, |r| &r.unit_kind),
                strings(rows, |r| &r.operator),
                strings(rows, |r| &r.kind),
                strings(rows, |r| &r.severity),
                strings(rows, |r| &r.message),
                strings(rows, |r| &r.shapes),
                opt_strings(rows, |r| r.witness.as_deref()),
                related_lists(rows)?,
                strings(rows, |r| &r.solver),
                u64s(rows, |r| r.solve_us),
                bools(rows, |r| r.suppressed),
                opt_strings(rows, |r| r.baseline.as_deref()),
            ],
        )
    }
}

/// `fixed`: the baseline's findings this run no longer has (written with `--baseline`).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct FixedRow {
    pub id: String,
    pub repo: String,
    pub path: String,
    pub line: u32,
    pub column: u32,
    pub kind: String,
    pub unit: String,
    pub operator: String,
    pub message: String,
}

impl Table for FixedRow {
    const NAME: &'static str = "fixed";

    fn schema() -> SchemaRef {
        Arc::new(Schema::new(vec![
            utf8("id", false),
            utf8("repo", false),
            utf8("path", false),
            Field::new("line", DataType::UInt32, false),
            Field::new("column", DataType::UInt32, false),
            utf8("kind", false),
            utf8("unit", false),
            utf8("operator", false),
            utf8("message", false),
        ]))
    }

    fn to_batch(rows: &[Self]) -> Result<RecordBatch, ArrowError> {
        RecordBatch::try_new(
            Self::schema(),
            vec![
                strings(rows, |r| &r.id),
                strings(rows, |r| &r.repo),
                strings(rows, |r| &r.path),
                u32s(rows, |r| r.line),
                u32s(rows, |r| r.column),
                strings(rows, |r| &r.kind),
                strings(rows, |r| &r.unit),
                strings(rows, |r| &r.operator),
                strings(rows, |r| &r.message),
            ],
        )
    }
}

/// `jobs`: one row per constraint job (one run of one unit), written by the worker that
/// solved it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct JobRow {
    pub repo: String,
    pub path: String,
    pub unit: String,
    pub unit_kind: String,
    pub variant: String,
    pub variables: u64,
    pub constraints: u64,
    pub result: String,
    pub skip_reason: Option<String>,
    pub used_z3: bool,
    pub solve_us: u64,
    pub worker: u32,
    pub cost: u64,
    /// The other files of the project where the run's operations are (imported code it
    /// ran), as `path` names files, sorted; empty when all are in `path`.
    pub files: Vec<String>,
}

impl Table for JobRow {
    const NAME: &'static str = "jobs";

    fn schema() -> SchemaRef {
        Arc::new(Schema::new(vec![
            utf8("repo", false),
            utf8("path", false),
            utf8("unit", false),
            utf8("unit_kind", false),
            utf8("variant", false),
            Field::new("variables", DataType::UInt64, false),
            Field::new("constraints", DataType::UInt64, false),
            utf8("result", false),
            utf8("skip_reason", true),
            Field::new("used_z3", DataType::Boolean, false),
            Field::new("solve_us", DataType::UInt64, false),
            Field::new("worker", DataType::UInt32, false),
            Field::new("cost", DataType::UInt64, false),
            string_list("files"),
        ]))
    }

    fn to_batch(rows: &[Self]) -> Result<RecordBatch, ArrowError> {
        RecordBatch::try_new(
            Self::schema(),
            vec![
                strings(rows, |r| &r.repo),
                strings(rows, |r| &r.path),
                strings(rows, |r| &r.unit),
                strings(rows, |r| &r.unit_kind),
                strings(rows, |r| &r.variant),
                u64s(rows, |r| r.variables),
                u64s(rows, |r| r.constraints),
                strings(rows, |r| &r.result),
                opt_strings(rows, |r| r.skip_reason.as_deref()),
                bools(rows, |r| r.used_z3),
                u64s(rows, |r| r.solve_us),
                u32s(rows, |r| r.worker),
                u64s(rows, |r| r.cost),
                string_lists(rows, |r| &r.files),
            ],
        )
    }
}

/// `signatures`: with `--signatures`, one row per rank variant of each unit that takes inputs
/// (`crate::signatures`), written by the worker that solved it; empty otherwise.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct SignatureRow {
    pub repo: String,
    pub path: String,
    pub unit: String,
    pub unit_kind: String,
    pub line: u32,
    pub variant: String,
    /// `admitted`, `rejected` or `unknown`.
    pub admission: String,
    pub why: Option<String>,
    pub inputs: Vec<String>,
    /// `x.shape[1] = 4`.
    pub fixed: Vec<String>,
    pub requires: Vec<String>,
    pub returns: Vec<String>,
    /// `16: x.reshape(100).size()[0] < 100: never`.
    pub branches: Vec<String>,
    pub unknown_operations: u64,
}

impl Table for SignatureRow {
    const NAME: &'static str = "signatures";

    fn schema() -> SchemaRef {
        Arc::new(Schema::new(vec![
            utf8("repo", false),
            utf8("path", false),
            utf8("unit", false),
            utf8("unit_kind", false),
            Field::new("line", DataType::UInt32, false),
            utf8("variant", false),
            utf8("admission", false),
            utf8("why", true),
            string_list("inputs"),
            string_list("fixed"),
            string_list("requires"),
            string_list("returns"),
            string_list("branches"),
            Field::new("unknown_operations", DataType::UInt64, false),
        ]))
    }

    fn to_batch(rows: &[Self]) -> Result<RecordBatch, ArrowError> {
        RecordBatch::try_new(
            Self::schema(),
            vec![
                strings(rows, |r| &r.repo),
                strings(rows, |r| &r.path),
                strings(rows, |r| &r.unit),
                strings(rows, |r| &r.unit_kind),
                u32s(rows, |r| r.line),
                strings(rows, |r| &r.variant),
                strings(rows, |r| &r.admission),
                opt_strings(rows, |r| r.why.as_deref()),
                string_lists(rows, |r| &r.inputs),
                string_lists(rows, |r| &r.fixed),
                string_lists(rows, |r| &r.requires),
                string_lists(rows, |r| &r.returns),
                string_lists(rows, |r| &r.branches),
                u64s(rows, |r| r.unknown_operations),
            ],
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::{Array, BooleanArray};

    fn finding(path: &str, related: Vec<RelatedSpan>) -> FindingRow {
        FindingRow {
            id: "0123456789abcdef".into(),
            repo: "r".into(),
            path: path.into(),
            line: 3,
            column: 5,
            end_line: 3,
            end_column: 9,
            unit: "Net".into(),
            unit_kind: "class".into(),
            operator: "torch.nn.Linear".into(),
            kind: "feature-mismatch".into(),
            severity: "error".into(),
            message: "m".into(),
            shapes: "[2, 3]".into(),
            witness: None,
            related,
            solver: "z3".into(),
            solve_us: 12,
            suppressed: false,
            baseline: None,
        }
    }

    fn span(line: u32, label: &str) -> RelatedSpan {
        RelatedSpan {
            path: None,
            line,
            column: 1,
            end_line: line,
            end_column: 4,
            label: label.into(),
        }
    }

    #[test]
    fn findings_encode_related_spans_as_lists_of_structs() {
        let rows = vec![
            finding("a.py", vec![span(1, "built here"), span(2, "called here")]),
            finding("b.py", vec![]),
            finding("c.py", vec![span(7, "x")]),
        ];
        let batch = FindingRow::to_batch(&rows).expect("encodes");
        assert_eq!(batch.num_rows(), 3);
        let related = batch
            .column_by_name("related")
            .and_then(|c| c.as_any().downcast_ref::<ListArray>())
            .expect("a list column");
        assert_eq!(
            (0..3).map(|i| related.value(i).len()).collect::<Vec<_>>(),
            [2, 0, 1]
        );
        let first = related.value(0);
        let items = first
            .as_any()
            .downcast_ref::<StructArray>()
            .expect("structs");
        let labels = items
            .column_by_name("label")
            .and_then(|c| c.as_any().downcast_ref::<StringArray>())
            .expect("labels");
        assert_eq!(labels.value(1), "called here");
        assert!(batch.column_by_name("witness").expect("witness").is_null(0));
        assert_eq!(FindingRow::to_batch(&[]).expect("empty").num_rows(), 0);
    }

    #[test]
    fn jobs_encode_results_and_flags() {
        let row = JobRow {
            repo: "r".into(),
            path: "a.py".into(),
            unit: "<module>".into(),
            unit_kind: "module".into(),
            variant: String::new(),
            variables: 0,
            constraints: 4,
            result: "skipped".into(),
            skip_reason: Some("no obligations".into()),
            used_z3: true,
            solve_us: 3,
            worker: 1,
            cost: 5,
            files: vec!["pkg/layers.py".into()],
        };
        let batch = JobRow::to_batch(&[row]).expect("encodes");
        assert_eq!(batch.schema(), JobRow::schema());
        let z3 = batch
            .column_by_name("used_z3")
            .and_then(|c| c.as_any().downcast_ref::<BooleanArray>())
            .expect("bool");
        assert!(z3.value(0));
    }
}
