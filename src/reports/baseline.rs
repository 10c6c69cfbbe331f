//! A baseline: a previous scan's report (`--baseline DIR`). Each finding of this run is
//! `new` or `unchanged` by its id (`findings::identity`); the baseline's findings no run
//! finding matches are `fixed` (a table of their own). Ids are matched as a multiset, so
//! identical copies of a file in two repositories count twice on both sides.

use std::collections::HashMap;
use std::fs::File;
use std::path::{Path, PathBuf};

use arrow_array::{Array, BooleanArray, RecordBatch, StringArray, UInt32Array};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use thiserror::Error;

use super::tables::{FindingRow, FixedRow, RunRow, Table};

#[derive(Debug, Error)]
pub enum BaselineError {
    #[error("baseline `{0}` is not a scan report (no `findings` folder)")]
    NotAReport(String),
    #[error("baseline `{0}` is an incomplete report (it has no `run` row: that scan failed or is still writing)")]
    Incomplete(String),
    #[error("cannot read baseline {path}: {reason}")]
    Unreadable { path: String, reason: String },
}

/// The findings of a previous report that count (errors not suppressed).
#[derive(Clone, Debug, Default)]
pub struct Baseline {
    /// How many of the baseline's findings have each id.
    ids: HashMap<String, usize>,
    rows: Vec<FixedRow>,
}

impl Baseline {
    pub fn load(dir: &Path) -> Result<Baseline, BaselineError> {
        let shown = dir.display().to_string();
        let findings = dir.join(FindingRow::NAME);
        if !findings.is_dir() {
            return Err(BaselineError::NotAReport(shown));
        }
        if parts(&dir.join(RunRow::NAME))?.is_empty() {
            return Err(BaselineError::Incomplete(shown));
        }
        let mut baseline = Baseline::default();
        for part in parts(&findings)? {
            for batch in read_batches(&part)? {
                baseline.add_batch(&batch, &part)?;
            }
        }
        Ok(baseline)
    }

    /// A baseline from rows (tests, and `check` against its own findings).
    pub fn from_rows(rows: Vec<FixedRow>) -> Baseline {
        let mut ids = HashMap::new();
        for r in &rows {
            *ids.entry(r.id.clone()).or_insert(0) += 1;
        }
        Baseline { ids, rows }
    }

    fn add_batch(&mut self, batch: &RecordBatch, part: &Path) -> Result<(), BaselineError> {
        let err = |reason: String| BaselineError::Unreadable {
            path: part.display().to_string(),
            reason,
        };
        let text = |name: &str| -> Result<&StringArray, BaselineError> {
            batch
                .column_by_name(name)
                .and_then(|c| c.as_any().downcast_ref::<StringArray>())
                .ok_or_else(|| err(format!("no text column `{name}`")))
        };
        let number = |name: &str| -> Result<&UInt32Array, BaselineError> {
            batch
                .column_by_name(name)
                .and_then(|c| c.as_any().downcast_ref::<UInt32Array>())
                .ok_or_else(|| err(format!("no column `{name}`")))
        };
        let (id, repo, path, kind) = (text("id")?, text("repo")?, text("path")?, text("kind")?);
        let (unit, operator, message) = (text("unit")?, text("operator")?, text("message")?);
        let severity = text("severity")?;
        let (line, column) = (number("line")?, number("column")?);
        // Reports written before suppressions had none.
        let suppressed = batch
            .column_by_name("suppressed")
            .and_then(|c| c.as_any().downcast_ref::<BooleanArray>());
        for i in 0..batch.num_rows() {
            let is_suppressed = suppressed.is_some_and(|s| s.is_valid(i) && s.value(i));
            if severity.value(i) != "error" || is_suppressed {
                continue;
            }
            let row = FixedRow {
                id: id.value(i).to_string(),
                repo: repo.value(i).to_string(),
                path: path.value(i).to_string(),
                line: line.value(i),
                column: column.value(i),
                kind: kind.value(i).to_string(),
                unit: unit.value(i).to_string(),
                operator: operator.value(i).to_string(),
                message: message.value(i).to_string(),
            };
            *self.ids.entry(row.id.clone()).or_insert(0) += 1;
            self.rows.push(row);
        }
        Ok(())
    }

    /// Whether the baseline has a finding with this id.
    pub fn contains(&self, id: &str) -> bool {
        self.ids.contains_key(id)
    }

    /// `new` or `unchanged`.
    pub fn state(&self, id: &str) -> &'static str {
        if self.contains(id) {
            "unchanged"
        } else {
            "new"
        }
    }

    /// The baseline's findings this run's ids (every counted finding, with repeats) do not
    /// account for, in the baseline's (repo, path, line) order.
    pub fn fixed<'a>(&self, current: impl IntoIterator<Item = &'a str>) -> Vec<FixedRow> {
        let mut left: HashMap<&str, usize> = HashMap::new();
        for id in current {
            *left.entry(id).or_insert(0) += 1;
        }
        let mut rows: Vec<&FixedRow> = self.rows.iter().collect();
        rows.sort_by(|a, b| {
            (&a.repo, &a.path, a.line, &a.id).cmp(&(&b.repo, &b.path, b.line, &b.id))
        });
        rows.into_iter()
            .filter(|r| match left.get_mut(r.id.as_str()) {
                Some(n) if *n > 0 => {
                    *n -= 1;
                    false
                }
                _ => true,
            })
            .cloned()
            .collect()
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }
}

fn parts(table: &Path) -> Result<Vec<PathBuf>, BaselineError> {
    if !table.is_dir() {
        return Ok(Vec::new());
    }
    let listing = std::fs::read_dir(table).map_err(|e| BaselineError::Unreadable {
        path: table.display().to_string(),
        reason: e.to_string(),
    })?;
    let mut out: Vec<PathBuf> = listing
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "parquet"))
        .collect();
    out.sort();
    Ok(out)
}

fn read_batches(part: &Path) -> Result<Vec<RecordBatch>, BaselineError> {
    let err = |reason: String| BaselineError::Unreadable {
        path: part.display().to_string(),
        reason,
    };
    let file = File::open(part).map_err(|e| err(e.to_string()))?;
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)
        .and_then(|b| b.build())
        .map_err(|e| err(e.to_string()))?;
    reader.map(|b| b.map_err(|e| err(e.to_string()))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: &str, line: u32) -> FixedRow {
        FixedRow {
            id: id.to_string(),
            repo: "r".to_string(),
            path: "x.py".to_string(),
            line,
            column: 1,
            kind: "feature-mismatch".to_string(),
            unit: "M".to_string(),
            operator: "torch.nn.Linear".to_string(),
            message: String::new(),
        }
    }

    #[test]
    fn fixed_findings_are_the_baseline_s_ids_not_matched_as_a_multiset() {
        let b = Baseline::from_rows(vec![row("a", 1), row("a", 5), row("b", 9)]);
        assert_eq!(b.state("a"), "unchanged");
        assert_eq!(b.state("c"), "new");
        let fixed = b.fixed(["a", "c"]);
        let lines: Vec<u32> = fixed.iter().map(|r| r.line).collect();
        assert_eq!(lines, vec![5, 9]);
        assert!(b.fixed(["a", "a", "b"]).is_empty());
    }

    #[test]
    fn a_folder_that_is_not_a_complete_report_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(
            Baseline::load(dir.path()),
            Err(BaselineError::NotAReport(_))
        ));
        std::fs::create_dir(dir.path().join("findings")).unwrap();
        assert!(matches!(
            Baseline::load(dir.path()),
            Err(BaselineError::Incomplete(_))
        ));
    }
}
