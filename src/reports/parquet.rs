//! Per-worker Parquet part files. Each worker owns `DIR/<table>/part-<worker>.parquet`; rows
//! are buffered into bounded batches and row groups so memory does not grow with the corpus.

use std::fs::File;
use std::path::{Path, PathBuf};

use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;

use super::tables::Table;
use super::ReportError;

const BATCH_ROWS: usize = 8192;
const ROW_GROUP_ROWS: usize = 65536;

pub fn part_path(dir: &Path, table: &str, worker: usize) -> PathBuf {
    dir.join(table).join(format!("part-{worker:05}.parquet"))
}

pub struct PartWriter<R: Table> {
    path: PathBuf,
    writer: ArrowWriter<File>,
    buffer: Vec<R>,
    rows: u64,
}

impl<R: Table> PartWriter<R> {
    pub fn create(dir: &Path, worker: usize) -> Result<Self, ReportError> {
        let path = part_path(dir, R::NAME, worker);
        let io = |source| ReportError::Io {
            path: path.display().to_string(),
            source,
        };
        std::fs::create_dir_all(path.parent().unwrap_or(dir)).map_err(io)?;
        let file = File::create(&path).map_err(io)?;
        let props = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
            .build();
        let writer = ArrowWriter::try_new(file, R::schema(), Some(props)).map_err(|source| {
            ReportError::Parquet {
                path: path.display().to_string(),
                source,
            }
        })?;
        Ok(PartWriter {
            path,
            writer,
            buffer: Vec::new(),
            rows: 0,
        })
    }

    pub fn push(&mut self, row: R) -> Result<(), ReportError> {
        self.buffer.push(row);
        if self.buffer.len() >= BATCH_ROWS {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<(), ReportError> {
        if self.buffer.is_empty() {
            return Ok(());
        }
        if let Some(source) = crate::guard::injected_write_failure(R::NAME) {
            return Err(ReportError::Io {
                path: self.path.display().to_string(),
                source,
            });
        }
        let batch = R::to_batch(&self.buffer).map_err(|source| ReportError::Arrow {
            table: R::NAME,
            source,
        })?;
        self.writer
            .write(&batch)
            .map_err(|source| ReportError::Parquet {
                path: self.path.display().to_string(),
                source,
            })?;
        self.rows += self.buffer.len() as u64;
        self.buffer.clear();
        Ok(())
    }

    /// Writes what is buffered and closes the file. Returns the number of rows written.
    pub fn finish(mut self) -> Result<u64, ReportError> {
        self.flush()?;
        let path = self.path.display().to_string();
        self.writer
            .close()
            .map_err(|source| ReportError::Parquet { path, source })?;
        Ok(self.rows)
    }
}

/// Writes a whole table in one part (small tables such as `run`).
pub fn write_single<R: Table>(dir: &Path, rows: Vec<R>) -> Result<(), ReportError> {
    let mut w = PartWriter::<R>::create(dir, 0)?;
    for r in rows {
        w.push(r)?;
    }
    w.finish().map(|_| ())
}
