//! Parquet source datasets: public code datasets stored one row per file (repository, path,
//! content), read as a corpus without writing a file to disk (`scan --parquet-source FILE`).
//!
//! Each row whose path ends in `.py` or `.ipynb` is a file of repository `repo` at `path`
//! (its `path` column is `repo/path`, as a folder of repositories gives). The content column
//! may hold text or bytes. Row groups are shared out over the workers (row group `g` goes to
//! global worker `g mod workers`), and each is read as one Arrow batch stream, projected onto
//! the three columns. A row without a repository or path, or whose content is null, is a
//! `files` row with status `unreadable`; a file that is not a readable Parquet dataset with
//! those columns is one `files` row of kind `archive` saying why. Paths that leave their
//! repository (`..`, absolute) or lie under a skipped folder are left out, as the walk leaves
//! them out of a folder.

use std::fs::File;
use std::path::{Path, PathBuf};

use arrow_array::{
    Array, BinaryArray, BinaryViewArray, LargeBinaryArray, LargeStringArray, StringArray,
    StringViewArray,
};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::arrow::ProjectionMask;

use super::packed::Member;
use super::walk::{path_text, DiscoveredFile, FolderNotEntered, SKIPPED_DIRS};
use super::FileKind;

/// A dataset and the names of its columns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParquetSource {
    pub file: PathBuf,
    pub repo_column: String,
    pub path_column: String,
    pub content_column: String,
}

/// Rows read in one batch (bounded memory whatever a row group holds).
const BATCH_ROWS: usize = 1024;

/// Emits the files of the row groups of `source` that fall to global worker `worker` of
/// `workers`; `prefix` goes before repository names and paths (several roots or sources).
pub fn read_rows(
    source: &ParquetSource,
    worker: usize,
    workers: usize,
    prefix: &str,
    max_bytes: u64,
    mut emit: impl FnMut(DiscoveredFile),
) {
    let shown = format!(
        "{prefix}{}",
        path_text(Path::new(source.file.file_name().unwrap_or_default()))
    );
    let broken = |why: String| DiscoveredFile {
        repo: shown.clone(),
        path: shown.clone(),
        abs_path: source.file.clone(),
        kind: FileKind::Py,
        outside_root: false,
        repo_dir: source.file.clone(),
        folder: Some(FolderNotEntered::BadArchive(why)),
        packed: None,
    };
    let opened = File::open(&source.file)
        .map_err(|e| e.to_string())
        .and_then(|f| ParquetRecordBatchReaderBuilder::try_new(f).map_err(|e| e.to_string()));
    let builder = match opened {
        Ok(b) => b,
        Err(why) => {
            // Every worker fails alike: the first says so.
            if worker == 0 {
                emit(broken(format!("not a readable Parquet file: {why}")));
            }
            return;
        }
    };
    let schema = builder.parquet_schema();
    let mut leaves = Vec::new();
    for name in [
        &source.repo_column,
        &source.path_column,
        &source.content_column,
    ] {
        match (0..schema.num_columns()).find(|&i| schema.column(i).path().string() == *name) {
            Some(i) => leaves.push(i),
            None => {
                if worker == 0 {
                    let have: Vec<String> = (0..schema.num_columns())
                        .map(|i| schema.column(i).path().string())
                        .collect();
                    emit(broken(format!(
                        "no column `{name}` (columns: {}; choose with --parquet-columns)",
                        have.join(", ")
                    )));
                }
                return;
            }
        }
    }
    let groups: Vec<usize> = (0..builder.metadata().num_row_groups())
        .filter(|g| g % workers == worker)
        .collect();
    if groups.is_empty() {
        return;
    }
    let mask = ProjectionMask::leaves(schema, leaves);
    let reader = builder
        .with_projection(mask)
        .with_row_groups(groups.clone())
        .with_batch_size(BATCH_ROWS)
        .build();
    let reader = match reader {
        Ok(r) => r,
        Err(e) => {
            emit(broken(format!("row groups {groups:?}: {e}")));
            return;
        }
    };
    let mut row = 0usize;
    for batch in reader {
        let batch = match batch {
            Ok(b) => b,
            Err(e) => {
                emit(broken(format!(
                    "row groups {groups:?}, after {row} rows: {e}"
                )));
                return;
            }
        };
        let column = |name: &str| batch.column_by_name(name).cloned();
        let (Some(repos), Some(paths), Some(contents)) = (
            column(&source.repo_column),
            column(&source.path_column),
            column(&source.content_column),
        ) else {
            emit(broken("a projected column is missing".to_string()));
            return;
        };
        for i in 0..batch.num_rows() {
            row += 1;
            let repo = text_at(repos.as_ref(), i);
            let path = text_at(paths.as_ref(), i);
            let (repo, path) = match (repo, path) {
                (Some(r), Some(p)) if !r.is_empty() && !p.is_empty() => (r, p),
                _ => {
                    let mut f = broken(format!(
                        "row without a repository or path (row groups {groups:?}, row {row})"
                    ));
                    f.folder = None;
                    f.path = format!("{shown}#{}:{row}", groups[0]);
                    f.packed = Some(Member::Unreadable("no repository or path".into()));
                    emit(f);
                    continue;
                }
            };
            let path = path.trim_start_matches("./");
            let Some(kind) = FileKind::from_path(Path::new(path)) else {
                continue;
            };
            let folders: Vec<&str> = path.split('/').collect();
            if path.starts_with('/')
                || folders
                    .iter()
                    .any(|f| f.is_empty() || *f == ".." || SKIPPED_DIRS.contains(f))
            {
                continue;
            }
            let member = match bytes_at(contents.as_ref(), i) {
                Some(b) if b.len() as u64 > max_bytes => Member::TooLarge(b.len() as u64),
                Some(b) => Member::Bytes(b.to_vec()),
                None => Member::Unreadable("the content is null".to_string()),
            };
            let repo = format!("{prefix}{repo}");
            let repo_dir = source.file.join(&repo);
            emit(DiscoveredFile {
                path: format!("{repo}/{path}"),
                abs_path: repo_dir.join(path),
                repo,
                kind,
                outside_root: false,
                repo_dir,
                folder: None,
                packed: Some(member),
            });
        }
    }
}

/// A text column's value (UTF-8 text or bytes).
fn text_at(array: &dyn Array, i: usize) -> Option<String> {
    bytes_at(array, i).map(|b| String::from_utf8_lossy(b).into_owned())
}

/// A text or binary column's value as bytes; `None` when null or of another type.
fn bytes_at(array: &dyn Array, i: usize) -> Option<&[u8]> {
    if array.is_null(i) {
        return None;
    }
    let any = array.as_any();
    if let Some(a) = any.downcast_ref::<StringArray>() {
        return Some(a.value(i).as_bytes());
    }
    if let Some(a) = any.downcast_ref::<LargeStringArray>() {
        return Some(a.value(i).as_bytes());
    }
    if let Some(a) = any.downcast_ref::<StringViewArray>() {
        return Some(a.value(i).as_bytes());
    }
    if let Some(a) = any.downcast_ref::<BinaryArray>() {
        return Some(a.value(i));
    }
    if let Some(a) = any.downcast_ref::<LargeBinaryArray>() {
        return Some(a.value(i));
    }
    if let Some(a) = any.downcast_ref::<BinaryViewArray>() {
        return Some(a.value(i));
    }
    None
}
