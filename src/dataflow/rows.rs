//! The record-level steps of the scan dataflow: probing a discovered file (size, read, hash)
//! and turning one analysis into the table rows of every path that shares the content, plus
//! the content's constraint jobs.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::cache::{generation, modules_read, CachedAnalysis, FileStat, Record, ResultCache};
use super::modules::{FileKey, ImportContext};
use super::shape_jobs::{cached_jobs, unit_jobs, ContentJobs, GroupPath};
use super::stages::{GroupOutput, Tally};
use crate::analysis::{analyse_file, CountMode, FileAnalysis};
use crate::corpus::installed::SitePackages;
use crate::corpus::packed::Member;
use crate::corpus::roles::FileRole;
use crate::corpus::source::{content_hash, count_lines, read_bounded, Refusal};
use crate::corpus::{DiscoveredFile, FileKind, FileStatus, FolderNotEntered};
use crate::eval::data_files::Place;
use crate::eval::imports::ImportSearch;
use crate::operators::api::family_of;
use crate::operators::{CallKind, Resolution};
use crate::reports::tables::{FileRow, OpCallRow};
use crate::resolve::layout::imported_names;

/// A readable file, waiting for its content group to be analysed.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct FileMeta {
    pub path: String,
    pub repo: String,
    #[serde(with = "crate::corpus::walk::path_bytes")]
    pub abs_path: PathBuf,
    pub bytes: u64,
    pub lines: u64,
    /// The repository's folder and the path inside it.
    #[serde(with = "crate::corpus::walk::path_bytes")]
    pub repo_dir: PathBuf,
    pub repo_path: String,
    /// Where its imports resolve (`None`: file by file).
    pub imports: Option<ImportContext>,
    /// An archive member's bytes, read by the walk (there is no file to read again).
    pub content: Option<std::sync::Arc<Vec<u8>>>,
    /// The top-level names its text may import, sorted, and whether it imports relatively
    /// (`resolve::layout::imported_names`).
    pub imported: Vec<String>,
    pub relative_imports: bool,
    /// Whether its text names `__file__`: what it reads beside itself may then differ from
    /// copies elsewhere, so it is analysed where it is (`eval::data_files`).
    pub beside: bool,
}

impl FileMeta {
    /// A file as read: its size and lines, what it imports (names, and whether relatively),
    /// and an archive member's bytes.
    fn read(
        file: DiscoveredFile,
        bytes: u64,
        lines: u64,
        (imported, relative_imports): (Vec<String>, bool),
        content: Option<std::sync::Arc<Vec<u8>>>,
        beside: bool,
    ) -> FileMeta {
        FileMeta {
            repo_path: file.repo_path(),
            path: file.path,
            repo: file.repo,
            abs_path: file.abs_path,
            bytes,
            lines,
            repo_dir: file.repo_dir,
            imports: None,
            content,
            imported,
            relative_imports,
            beside,
        }
    }

    /// See [`ImportContext::digest`].
    pub fn import_digest(&self, context: &ImportContext) -> u64 {
        context.digest(&self.repo_path, &self.imported, self.relative_imports)
    }

    /// See [`ImportContext::imports_within`].
    pub fn imports_within(&self, context: &ImportContext) -> bool {
        context.imports_within(&self.imported, self.relative_imports)
    }

    /// The file's key in module resolution (`modules.rs`).
    pub fn key(&self) -> FileKey {
        (self.repo_dir.display().to_string(), self.path.clone())
    }
}

fn rejected_row(
    file: &DiscoveredFile,
    bytes: u64,
    status: FileStatus,
    message: String,
) -> Box<FileRow> {
    Box::new(FileRow {
        repo: file.repo.clone(),
        path: file.path.clone(),
        role: FileRole::of(&file.repo_path()),
        content_hash: None,
        bytes,
        lines: 0,
        kind: file.kind.as_str().to_string(),
        status: status.as_str().to_string(),
        message: Some(message),
        error_line: None,
        error_column: None,
        op_calls: 0,
        units: 0,
        jobs: 0,
        analysis_us: 0,
        duplicate_of: None,
        relative_imports: Vec::new(),
    })
}

/// Stats, size-checks, reads and hashes a file. Files that cannot be analysed come back as
/// their final `files` row.
pub fn probe_file(
    file: DiscoveredFile,
    max_bytes: u64,
    follow_imports: bool,
    stats: Option<&ResultCache>,
) -> Result<Probed, Box<FileRow>> {
    if let Some(why) = &file.folder {
        let (status, message) = match why {
            FolderNotEntered::OutsideRoot => (
                FileStatus::SkippedSymlink,
                "symlinked folder whose target is outside the corpus root; not followed".into(),
            ),
            FolderNotEntered::Unreadable(e) => (
                FileStatus::Unreadable,
                format!("cannot list the folder: {e}"),
            ),
            FolderNotEntered::BadArchive(e) => (
                FileStatus::Unreadable,
                format!("cannot read the archive (members before the error are listed): {e}"),
            ),
        };
        let mut row = rejected_row(&file, 0, status, message);
        row.kind = match why {
            FolderNotEntered::BadArchive(_) => "archive",
            _ => "folder",
        }
        .to_string();
        return Err(row);
    }
    if file.packed.is_some() {
        return probe_member(file, max_bytes, follow_imports);
    }
    if file.outside_root {
        return Err(rejected_row(
            &file,
            0,
            FileStatus::SkippedSymlink,
            "symlink target is outside the corpus root; not followed".to_string(),
        ));
    }
    // One look at the file: whether the cache saw it in this very state (then it is not
    // read again), and what the cache records of it once read (`cache.rs`).
    let seen = std::fs::metadata(&file.abs_path).ok();
    let known = match (stats, &seen) {
        (Some(cache), Some(m)) if m.is_file() && m.len() <= max_bytes => {
            cache.unchanged(&file.abs_path, m)
        }
        _ => None,
    };
    let (hash, size, lines, imported, relative_imports, stat, beside) = match known {
        // A compacting run keeps what it uses.
        Some(stat) => {
            let kept = stats.filter(|c| c.compacting()).map(|_| stat.clone());
            (
                stat.hash.clone(),
                stat.size,
                stat.lines,
                Vec::new(),
                false,
                kept,
                stat.beside,
            )
        }
        None => {
            let bytes = match read_bounded(&file.abs_path, max_bytes) {
                Ok(b) => b,
                Err(refusal) => {
                    let size = match refusal {
                        Refusal::TooLarge(size, _) => size,
                        _ => 0,
                    };
                    return Err(rejected_row(
                        &file,
                        size,
                        refusal.status(),
                        refusal.to_string(),
                    ));
                }
            };
            let hash = content_hash(&bytes);
            let lines = count_lines(&bytes);
            let beside = names_its_file(&bytes);
            // What the file imports matters only to resolution across files (a fifth of a
            // rescan's work otherwise).
            let (imported, relative) = match follow_imports {
                true => imported_names(&String::from_utf8_lossy(&bytes)),
                false => Default::default(),
            };
            let stat = match (stats, seen.as_ref().map(FileStat::identity)) {
                (Some(_), Some((size, mtime_ns, inode))) if size == bytes.len() as u64 => {
                    Some(FileStat {
                        size,
                        mtime_ns,
                        inode,
                        hash: hash.clone(),
                        lines,
                        beside,
                    })
                }
                _ => None,
            };
            let size = bytes.len() as u64;
            (
                hash,
                size,
                lines,
                imported.into_iter().collect(),
                relative,
                stat,
                beside,
            )
        }
    };
    let record = stat.map(|s| Record::stat(&file.abs_path, s));
    let key = (hash, file.kind);
    let imports = (imported, relative_imports);
    let meta = FileMeta::read(file, size, lines, imports, None, beside);
    Ok((key, meta, record))
}

/// Whether a file's text names `__file__` (see [`FileMeta::beside`]).
fn names_its_file(bytes: &[u8]) -> bool {
    bytes.windows(8).any(|w| w == b"__file__")
}

/// [`probe_file`] for an archive member, whose bytes the walk read.
fn probe_member(
    mut file: DiscoveredFile,
    max_bytes: u64,
    follow_imports: bool,
) -> Result<Probed, Box<FileRow>> {
    let bytes = match file.packed.take() {
        Some(Member::Bytes(bytes)) => bytes,
        Some(Member::TooLarge(size)) => {
            let refusal = Refusal::TooLarge(size, max_bytes);
            return Err(rejected_row(
                &file,
                size,
                refusal.status(),
                refusal.to_string(),
            ));
        }
        Some(Member::Link) => {
            let message = "a link inside an archive; not followed".to_string();
            return Err(rejected_row(&file, 0, FileStatus::SkippedSymlink, message));
        }
        Some(Member::Unreadable(why)) => {
            let message = format!("cannot read the archive member: {why}");
            return Err(rejected_row(&file, 0, FileStatus::Unreadable, message));
        }
        None => {
            let message = "an archive member without content".to_string();
            return Err(rejected_row(&file, 0, FileStatus::Unreadable, message));
        }
    };
    let hash = content_hash(&bytes);
    let lines = count_lines(&bytes);
    let (imported, relative_imports) = match follow_imports {
        true => imported_names(&String::from_utf8_lossy(&bytes)),
        false => Default::default(),
    };
    let key = (hash, file.kind);
    let size = bytes.len() as u64;
    let imports = (imported.into_iter().collect(), relative_imports);
    let content = Some(std::sync::Arc::new(bytes));
    Ok((
        key,
        // An archive member is not on disk: it reads nothing beside itself.
        FileMeta::read(file, size, lines, imports, content, false),
        None,
    ))
}

/// A file read and hashed: its content key, what the rows need of it, and what the result
/// cache records of its state (when a cache is in use and the file was read).
pub type Probed = ((String, FileKind), FileMeta, Option<Record>);

/// Analyses the first path of a content group and emits `files` and `op_calls` rows for every
/// path in it (copies are counted where they live, and point at the analysed path), the
/// per-file `(repo, operator)` tallies that feed the differential count, and the content's
/// constraint jobs with the paths their findings belong to. `layout` is the group's import
/// digest (where its imports lead and, for imports within its repository, what that
/// repository holds): part of the group's key, so part of its jobs' content key too.
/// Reads the group's first file and analyses it. The probe read and hashed the file on
/// another worker; what is analysed must be what was hashed (and never more than its size
/// then).
/// Where the group's imports are looked up: its import context (imports followed), else
/// installed packages only, else nowhere.
fn import_search(first: &FileMeta, installed: &[SitePackages]) -> Option<ImportSearch> {
    match &first.imports {
        Some(context) => Some(context.search(&first.repo_dir, &first.repo_path, installed)),
        None if !installed.is_empty() => Some(ImportSearch::installed_only(installed)),
        None => None,
    }
}

fn analyse(
    hash: &str,
    kind: FileKind,
    first: &FileMeta,
    mode: &CountMode,
    imports: Option<ImportSearch>,
) -> FileAnalysis {
    if let Some(bytes) = &first.content {
        return analyse_file(&first.path, bytes, kind, mode, (imports, None));
    }
    // The configuration files it reads beside itself, inside its repository.
    let place = Place::new(&first.abs_path, &first.repo_dir);
    match read_bounded(&first.abs_path, first.bytes) {
        Ok(bytes) if content_hash(&bytes) == hash => {
            analyse_file(&first.path, &bytes, kind, mode, (imports, place))
        }
        Ok(_) | Err(Refusal::TooLarge(..)) => FileAnalysis::failure(
            FileStatus::ChangedDuringScan,
            "the file changed while the scan read it: not analysed".to_string(),
            None,
            None,
        ),
        Err(refusal) => FileAnalysis::failure(refusal.status(), refusal.to_string(), None, None),
    }
}

pub fn analyse_group(
    hash: &str,
    kind: FileKind,
    layout: u64,
    metas: Vec<FileMeta>,
    mode: &CountMode,
    installed: &[SitePackages],
    cache: Option<&ResultCache>,
) -> GroupOutput {
    let mut out = GroupOutput {
        files: Vec::with_capacity(metas.len()),
        ..GroupOutput::default()
    };
    let Some(first) = metas.first() else {
        return out;
    };
    // Jobs come back by content group: the same content in another layout is another group.
    let content = match (&first.imports, layout) {
        (None, 0) => (hash.to_string(), kind),
        _ => (format!("{hash}/{layout:x}"), kind),
    };
    let search = import_search(first, installed);
    // A cached analysis of a file that imports holds only while what it imported is unchanged.
    let hit = cache
        .and_then(|c| c.hit(&content))
        .filter(|hit| hit.analysis.holds(search.as_ref()));
    let (mut analysis, unit_jobs, units, jobs) = match hit {
        Some(hit) => {
            // A compacting run keeps what it uses in its own segments (`cache.rs`).
            if cache.is_some_and(ResultCache::compacting) {
                out.cache_records
                    .push(Record::Analysis(content.clone(), hit.analysis.clone()));
                out.cache_records.extend(
                    hit.solved
                        .iter()
                        .map(|s| Record::Solved(content.clone(), s.clone())),
                );
            }
            let (units, jobs) = (hit.analysis.units as u64, hit.analysis.jobs);
            let analysis = hit.analysis.into_analysis();
            let unit_jobs = cached_jobs(&content, &first.repo, &first.path, hit.solved);
            (analysis, unit_jobs, units, jobs)
        }
        None => {
            let mut analysis = analyse(hash, kind, first, mode, search.clone());
            let units = std::mem::take(&mut analysis.units);
            let jobs = units.iter().map(|u| u.runs.len() as u64).sum();
            let modules = match cache {
                Some(_) => modules_read(search.as_ref(), &analysis.modules_looked_up),
                None => Vec::new(),
            };
            let generation = generation(&modules);
            let unit_jobs = unit_jobs((&content, generation), &first.repo, &first.path, units);
            let units = unit_jobs.len() as u64;
            if cache.is_some() {
                let kept = CachedAnalysis::of(&analysis, units as u32, jobs, modules);
                out.cache_records
                    .extend(kept.map(|a| Record::Analysis(content.clone(), a)));
            }
            (analysis, unit_jobs, units, jobs)
        }
    };
    let representative = first.path.clone();
    // A group with suppression comments is regrouped even without units: they are then
    // all unused, and said so.
    if !unit_jobs.is_empty() || !analysis.suppressions.is_empty() {
        out.contents.push(ContentJobs {
            content,
            units: units as u32,
            paths: metas
                .iter()
                .map(|m| GroupPath {
                    repo: m.repo.clone(),
                    path: m.path.clone(),
                    repo_path: m.repo_path.clone(),
                })
                .collect(),
            lines: std::mem::take(&mut analysis.lines),
            suppressions: std::mem::take(&mut analysis.suppressions),
        });
    }
    out.jobs = unit_jobs;
    // The content's calls per (operator, call kind, resolution); each path adds its repo
    // and role.
    let mut per_operator: Vec<((&str, CallKind, Resolution), isize)> = Vec::new();
    {
        let mut ops: Vec<(&str, CallKind, Resolution)> = analysis
            .calls
            .iter()
            .map(|c| {
                (
                    c.site.operator.as_str(),
                    c.site.call_kind,
                    c.site.resolution,
                )
            })
            .collect();
        ops.sort_unstable();
        for op in ops {
            match per_operator.last_mut() {
                Some((last, n)) if *last == op => *n += 1,
                _ => per_operator.push((op, 1)),
            }
        }
    }
    out.calls.reserve(metas.len() * analysis.calls.len());
    for meta in metas {
        let role = FileRole::of(&meta.repo_path);
        for ((operator, call_kind, resolution), n) in &per_operator {
            let tally = Tally {
                repo: meta.repo.clone(),
                operator: operator.to_string(),
                call_kind: *call_kind,
                resolution: *resolution,
                role,
            };
            out.tallies.push((tally, *n));
        }
        let duplicate_of = (meta.path != representative).then(|| representative.clone());
        for call in &analysis.calls {
            let site = &call.site;
            out.calls.push(OpCallRow {
                repo: meta.repo.clone(),
                path: meta.path.clone(),
                role,
                line: site.line,
                column: site.column,
                family: match mode {
                    CountMode::Precise { .. } => family_of(&site.operator).to_string(),
                    CountMode::Teosc(_) => "teosc".to_string(),
                },
                operator: site.operator.clone(),
                call_kind: site.call_kind.as_str().to_string(),
                resolution: site.resolution.as_str().to_string(),
                enclosing_class: site.enclosing_class.clone(),
                enclosing_function: site.enclosing_function.clone(),
                cell: call.cell.map(|c| c.0),
                cell_line: call.cell.map(|c| c.1),
            });
        }
        out.files.push(FileRow {
            repo: meta.repo,
            path: meta.path,
            role,
            content_hash: Some(hash.to_string()),
            bytes: meta.bytes,
            lines: meta.lines,
            kind: kind.as_str().to_string(),
            status: analysis.status.as_str().to_string(),
            message: analysis.message.clone(),
            error_line: analysis.error_line,
            error_column: analysis.error_column,
            op_calls: analysis.calls.len() as u64,
            units,
            jobs,
            analysis_us: analysis.micros,
            duplicate_of,
            relative_imports: analysis.relative_imports.clone(),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_that_changed_since_it_was_hashed_is_not_analysed() {
        let t = tempfile::tempdir().unwrap();
        let path = t.path().join("m.py");
        std::fs::write(&path, b"import torch\nx = torch.zeros(2)\n").unwrap();
        let file = DiscoveredFile {
            path: "m.py".into(),
            repo: "r".into(),
            abs_path: path.clone(),
            kind: FileKind::Py,
            repo_dir: t.path().to_path_buf(),
            outside_root: false,
            folder: None,
            packed: None,
        };
        let ((hash, kind), meta, _) = probe_file(file, 1 << 20, false, None).unwrap();
        let analysed = analyse_group(
            &hash,
            kind,
            0,
            vec![meta.clone()],
            &CountMode::Precise { shapes: true },
            &[],
            None,
        );
        assert_eq!(analysed.files[0].status, "ok");
        // Rewritten between the probe and the analysis: same size, other bytes.
        std::fs::write(&path, b"import torch\nx = torch.zeros(3)\n").unwrap();
        let changed = analyse_group(
            &hash,
            kind,
            0,
            vec![meta],
            &CountMode::Precise { shapes: true },
            &[],
            None,
        );
        assert_eq!(changed.files[0].status, "changed_during_scan");
        assert!(changed.calls.is_empty());
    }
}
