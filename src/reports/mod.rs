//! Reports: the Parquet tables (`tables`), their per-worker part writers (`parquet`) and the
//! terminal summary (`summary`). The schema is documented in `reports/README.md`.

pub mod baseline;
pub mod parquet;
pub mod staging;
pub mod summary;
pub mod tables;

use thiserror::Error;

#[derive(Debug, Error)]
pub enum ReportError {
    #[error("cannot write {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("another scan is writing to `{out}` (its lock `{lock}` is held); wait for it or choose another -o")]
    Locked { out: String, lock: String },
    #[error("another worker of this run could not move its part of the report into place")]
    PeerCommitFailed,
    #[error("cannot encode table {table}: {source}")]
    Arrow {
        table: &'static str,
        source: arrow_schema::ArrowError,
    },
    #[error("cannot write Parquet {path}: {source}")]
    Parquet {
        path: String,
        source: ::parquet::errors::ParquetError,
    },
}
