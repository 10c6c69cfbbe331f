//! Repository discovery and file enumeration.
//!
//! Repository rule: a corpus root that itself holds `.git`, `pyproject.toml` or `setup.py` is one
//! repository; otherwise every top-level folder of the root is a repository and loose files
//! directly in the root belong to the repository `.`. With several roots, repository names and
//! paths are prefixed with the root's folder name.
//!
//! Walking skips version-control and tool folders, virtualenvs (any folder holding
//! `pyvenv.cfg`, or named `.venv`), `site-packages`, `node_modules` and `__pycache__`. Symlinks
//! are followed only when their target stays inside the corpus root; walkdir's loop detection
//! stops cycles. A symlinked *file* whose target leaves the root is still reported (status
//! `skipped_symlink`) so that no file disappears silently.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use walkdir::WalkDir;

use super::selection::{GitignoreStack, Selection};

use super::packed::{self, ArchiveKind, Member};
use super::source::FileKind;

/// A file or folder name as the tables spell it: as it is when it is UTF-8; otherwise every
/// byte that is not part of valid UTF-8 is written `\xNN` (lowercase hex), so that distinct
/// names stay distinct and the name can be mapped back to its bytes.
pub fn path_text(path: &Path) -> String {
    use std::os::unix::ffi::OsStrExt;
    let bytes = path.as_os_str().as_bytes();
    if let Ok(text) = std::str::from_utf8(bytes) {
        return text.to_string();
    }
    let mut out = String::with_capacity(bytes.len() + 8);
    for chunk in bytes.utf8_chunks() {
        out.push_str(chunk.valid());
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

/// Serde for paths as their bytes: a name that is not UTF-8 crosses processes intact (serde's
/// own `PathBuf` refuses it, which would end a cluster run).
pub mod path_bytes {
    use std::os::unix::ffi::{OsStrExt, OsStringExt};
    use std::path::{Path, PathBuf};

    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(path: &Path, s: S) -> Result<S::Ok, S::Error> {
        path.as_os_str().as_bytes().to_vec().serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<PathBuf, D::Error> {
        let bytes = Vec::<u8>::deserialize(d)?;
        Ok(PathBuf::from(std::ffi::OsString::from_vec(bytes)))
    }
}

/// Folder names never descended into.
pub const SKIPPED_DIRS: &[&str] = &[
    ".git",
    ".hg",
    ".svn",
    ".venv",
    "site-packages",
    "dist-packages",
    "node_modules",
    "__pycache__",
    ".tox",
    ".nox",
    ".mypy_cache",
    ".pytest_cache",
    ".ipynb_checkpoints",
];

/// What makes a folder a repository (`.git` first: a version-controlled root).
pub(crate) const REPO_MARKERS: &[&str] = &[".git", "pyproject.toml", "setup.py"];

#[derive(Clone, Debug)]
pub struct WalkOptions {
    /// Files larger than this are listed with status `skipped_too_large` and never read.
    pub max_file_bytes: u64,
}

impl Default for WalkOptions {
    fn default() -> Self {
        WalkOptions {
            max_file_bytes: 2 * 1024 * 1024,
        }
    }
}

/// One repository of a corpus root.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct RepoRoot {
    /// Repository name as it appears in the tables.
    pub name: String,
    /// The directory walked for this repository.
    #[serde(with = "path_bytes")]
    pub dir: PathBuf,
    /// The corpus root it belongs to; `path` columns are relative to it.
    #[serde(with = "path_bytes")]
    pub corpus_root: PathBuf,
    /// Prefix for `path` columns (empty for a single corpus root).
    pub path_prefix: String,
    /// Loose files of the root form repository `.`: walk only the root's files, not its folders.
    pub files_only: bool,
    /// The repository is an archive (`dir` is the archive file), read without unpacking.
    pub archive: Option<ArchiveKind>,
}

/// A file found by the walk, before it is read.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct DiscoveredFile {
    pub repo: String,
    /// Path relative to the corpus root (with the root prefix when several roots are scanned).
    pub path: String,
    #[serde(with = "path_bytes")]
    pub abs_path: PathBuf,
    pub kind: FileKind,
    /// The symlink target leaves the corpus root: listed, never read.
    pub outside_root: bool,
    /// The repository's folder (imports resolve within it).
    #[serde(with = "path_bytes")]
    pub repo_dir: PathBuf,
    /// Set for a folder the walk did not enter: its row says why (`kind` `folder`).
    pub folder: Option<FolderNotEntered>,
    /// A member of an archive: its content as the walk read it (`packed.rs`).
    pub packed: Option<Member>,
}

/// Why the walk did not enter a folder (it still gets a `files` row: nothing disappears).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum FolderNotEntered {
    /// A symlink whose target leaves the corpus root.
    OutsideRoot,
    /// Listing it failed (the error).
    Unreadable(String),
    /// An archive that cannot be read, or stops partway (the error; `kind` `archive`).
    BadArchive(String),
}

impl DiscoveredFile {
    /// The path inside the repository (`/`-separated), for module resolution.
    pub fn repo_path(&self) -> String {
        let rel = self
            .abs_path
            .strip_prefix(&self.repo_dir)
            .unwrap_or(&self.abs_path);
        path_text(rel)
    }
}

pub(crate) fn has_marker(dir: &Path) -> bool {
    REPO_MARKERS.iter().any(|m| dir.join(m).exists())
}

/// Lists the repositories of the given corpus roots, sorted, so every worker computes the same
/// list. Errors only when a root itself cannot be read.
pub fn discover_repos(roots: &[PathBuf]) -> std::io::Result<Vec<RepoRoot>> {
    let mut repos = Vec::new();
    // The same root given twice (or through a symlink) is scanned once.
    let mut canonical: Vec<PathBuf> = Vec::new();
    for root in roots {
        let root = root.canonicalize()?;
        if !canonical.contains(&root) {
            canonical.push(root);
        }
    }
    let multi = canonical.len() > 1;
    for root in canonical {
        let root_name = root
            .file_name()
            .map(|n| path_text(Path::new(n)))
            .unwrap_or_else(|| "root".to_string());
        let path_prefix = if multi {
            format!("{root_name}/")
        } else {
            String::new()
        };
        if root.is_file() {
            let parent = root.parent().unwrap_or(&root).to_path_buf();
            let archive = ArchiveKind::of(&root_name).map(|(kind, _)| kind);
            repos.push(RepoRoot {
                name: packed::repo_name(&root_name).unwrap_or_else(|| root_name.clone()),
                dir: root.clone(),
                corpus_root: parent,
                path_prefix,
                files_only: archive.is_none(),
                archive,
            });
            continue;
        }
        if has_marker(&root) {
            repos.push(RepoRoot {
                name: root_name,
                dir: root.clone(),
                corpus_root: root.clone(),
                path_prefix,
                files_only: false,
                archive: None,
            });
            continue;
        }
        let mut entries: Vec<_> = std::fs::read_dir(&root)?.filter_map(Result::ok).collect();
        entries.sort_by_key(|e| e.file_name());
        let mut loose = false;
        for entry in entries {
            let name = path_text(Path::new(&entry.file_name()));
            let path = entry.path();
            if path.is_dir() {
                if SKIPPED_DIRS.contains(&name.as_str()) || is_virtualenv(&path) {
                    continue;
                }
                // A symlink to the root (or above it) is a loop, not a repository: its
                // files are the corpus's own. One leaving the root is not followed.
                let target = path.canonicalize().unwrap_or_else(|_| path.clone());
                if root.starts_with(&target) || !target.starts_with(&root) {
                    continue;
                }
                // With several roots, same-named repositories of different roots stay apart.
                let name = if multi {
                    format!("{root_name}/{name}")
                } else {
                    name
                };
                repos.push(RepoRoot {
                    name,
                    dir: path,
                    corpus_root: root.clone(),
                    path_prefix: path_prefix.clone(),
                    files_only: false,
                    archive: None,
                });
            } else if FileKind::from_path(&path).is_some() {
                loose = true;
            } else if let (Some((kind, _)), Some(repo)) =
                (ArchiveKind::of(&name), packed::repo_name(&name))
            {
                // An archive at the top of the root is a repository of its own.
                let repo = if multi {
                    format!("{root_name}/{repo}")
                } else {
                    repo
                };
                repos.push(RepoRoot {
                    name: repo,
                    dir: path,
                    corpus_root: root.clone(),
                    path_prefix: path_prefix.clone(),
                    files_only: false,
                    archive: Some(kind),
                });
            }
        }
        if loose {
            repos.push(RepoRoot {
                name: ".".to_string(),
                dir: root.clone(),
                corpus_root: root.clone(),
                path_prefix,
                files_only: true,
                archive: None,
            });
        }
    }
    repos.sort();
    repos.dedup();
    Ok(repos)
}

fn is_virtualenv(dir: &Path) -> bool {
    dir.join("pyvenv.cfg").is_file()
}

fn stays_inside(path: &Path, root: &Path) -> bool {
    match path.canonicalize() {
        Ok(target) => target.starts_with(root),
        Err(_) => false,
    }
}

/// Walks one repository, calling `emit` for every `.py`/`.ipynb` file in a deterministic order.
/// Returns the walk problems that concern no particular Python file (loops, unreadable folders).
pub fn walk_repo(repo: &RepoRoot, emit: impl FnMut(DiscoveredFile)) -> Vec<String> {
    let limit = WalkOptions::default().max_file_bytes;
    walk_selected(repo, &Selection::everything(), limit, emit)
}

/// [`walk_repo`], keeping only what `selection` keeps (`selection.rs`); archive members over
/// `max_bytes` are not read.
pub fn walk_selected(
    repo: &RepoRoot,
    selection: &Selection,
    max_bytes: u64,
    mut emit: impl FnMut(DiscoveredFile),
) -> Vec<String> {
    if let Some(kind) = repo.archive {
        walk_archive(repo, kind, selection, max_bytes, emit);
        return Vec::new();
    }
    let mut problems = Vec::new();
    let root = &repo.corpus_root;
    let max_depth = if repo.files_only { 1 } else { usize::MAX };
    let mut gitignores = GitignoreStack::new(&repo.dir, selection.gitignore);
    let walker = WalkDir::new(&repo.dir)
        .follow_links(true)
        .max_depth(max_depth)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(move |e| {
            let is_dir = e.file_type().is_dir();
            if e.depth() > 0 && is_dir {
                let name = e.file_name().to_string_lossy();
                if SKIPPED_DIRS.contains(&name.as_ref()) || is_virtualenv(e.path()) {
                    return false;
                }
            }
            if e.depth() > 0 && selection.excluded(e.path()) {
                return false;
            }
            if !is_dir && FileKind::from_path(e.path()).is_some() && !selection.included(e.path()) {
                return false;
            }
            !gitignores.ignored(e.path(), e.depth(), is_dir)
        });
    let folder_row = |path: &Path, why: FolderNotEntered| {
        let rel = path.strip_prefix(root).unwrap_or(path);
        DiscoveredFile {
            repo: repo.name.clone(),
            path: format!("{}{}", repo.path_prefix, path_text(rel)),
            abs_path: path.to_path_buf(),
            kind: FileKind::Py,
            outside_root: why == FolderNotEntered::OutsideRoot,
            repo_dir: repo.dir.clone(),
            folder: Some(why),
            packed: None,
        }
    };
    let mut walker = walker;
    while let Some(entry) = walker.next() {
        let entry = match entry {
            Ok(e) => e,
            Err(err) => {
                // A folder that cannot be listed still gets a row (its files are unknown).
                let unlisted = err.loop_ancestor().is_none()
                    && err.io_error().is_some()
                    && err.path().is_some_and(|p| p.is_dir());
                if let (true, Some(path)) = (unlisted, err.path()) {
                    let why = FolderNotEntered::Unreadable(err.to_string());
                    emit(folder_row(path, why));
                    continue;
                }
                // A Python file we cannot even stat (a dangling symlink) is still a file of
                // the corpus: reading it fails later and it gets the status `unreadable`.
                let python_path = err.path().filter(|p| FileKind::from_path(p).is_some());
                match python_path {
                    Some(path) if err.loop_ancestor().is_none() => {
                        let rel = path.strip_prefix(root).unwrap_or(path);
                        emit(DiscoveredFile {
                            repo: repo.name.clone(),
                            path: format!("{}{}", repo.path_prefix, path_text(rel)),
                            abs_path: path.to_path_buf(),
                            kind: FileKind::from_path(path).unwrap_or(FileKind::Py),
                            outside_root: false,
                            repo_dir: repo.dir.clone(),
                            folder: None,
                            packed: None,
                        });
                    }
                    _ => problems.push(err.to_string()),
                }
                continue;
            }
        };
        if entry.file_type().is_dir() {
            // A symlinked folder is followed only when it stays inside the corpus root.
            if entry.depth() > 0 && entry.path_is_symlink() && !stays_inside(entry.path(), root) {
                walker.skip_current_dir();
                emit(folder_row(entry.path(), FolderNotEntered::OutsideRoot));
            }
            continue;
        }
        let path = entry.path();
        let Some(kind) = FileKind::from_path(path) else {
            continue;
        };
        let outside_root = entry.path_is_symlink() && !stays_inside(path, root);
        let rel = path.strip_prefix(root).unwrap_or(path);
        let rel = path_text(rel);
        emit(DiscoveredFile {
            repo: repo.name.clone(),
            path: format!("{}{}", repo.path_prefix, rel),
            abs_path: path.to_path_buf(),
            kind,
            outside_root,
            repo_dir: repo.dir.clone(),
            folder: None,
            packed: None,
        });
    }
    problems
}

/// The members of an archive repository, as the walk emits files (`packed.rs`): the
/// configuration's include/exclude globs apply to their paths as if unpacked in place.
fn walk_archive(
    repo: &RepoRoot,
    kind: ArchiveKind,
    selection: &Selection,
    max_bytes: u64,
    mut emit: impl FnMut(DiscoveredFile),
) {
    let root = &repo.corpus_root;
    let rel = repo.dir.strip_prefix(root).unwrap_or(&repo.dir);
    let shown = format!("{}{}", repo.path_prefix, path_text(rel));
    // Paths as if the archive were unpacked into a folder named for the repository.
    let unpacked = repo
        .dir
        .with_file_name(repo.name.rsplit('/').next().unwrap_or(&repo.name));
    let folder_shown = format!(
        "{}{}",
        repo.path_prefix,
        path_text(unpacked.strip_prefix(root).unwrap_or(&unpacked))
    );
    let read = packed::read_members(
        &repo.dir,
        kind,
        &repo.name,
        max_bytes,
        |member, file_kind, content| {
            let abs_path = unpacked.join(&member);
            if selection.excluded(&abs_path) || !selection.included(&abs_path) {
                return;
            }
            emit(DiscoveredFile {
                repo: repo.name.clone(),
                path: format!("{folder_shown}/{member}"),
                abs_path,
                kind: file_kind,
                outside_root: false,
                repo_dir: unpacked.clone(),
                folder: None,
                packed: Some(content),
            });
        },
    );
    if let Err(why) = read {
        emit(DiscoveredFile {
            repo: repo.name.clone(),
            path: shown,
            abs_path: repo.dir.clone(),
            kind: FileKind::Py,
            outside_root: false,
            repo_dir: repo.dir.clone(),
            folder: Some(FolderNotEntered::BadArchive(why)),
            packed: None,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn touch(p: &Path, text: &str) {
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, text).unwrap();
    }

    fn walk_all(root: &Path) -> Vec<(String, String)> {
        let repos = discover_repos(&[root.to_path_buf()]).unwrap();
        let mut out = Vec::new();
        for r in &repos {
            walk_repo(r, |f| out.push((f.repo, f.path)));
        }
        out.sort();
        out
    }

    #[test]
    fn top_level_folders_are_repos_and_skipped_dirs_are_skipped() {
        let t = tempfile::tempdir().unwrap();
        let r = t.path();
        touch(&r.join("a/x.py"), "");
        touch(&r.join("a/pkg/y.py"), "");
        touch(&r.join("a/.git/hooks/z.py"), "");
        touch(&r.join("a/node_modules/m.py"), "");
        touch(&r.join("a/__pycache__/c.py"), "");
        touch(&r.join("a/env1/pyvenv.cfg"), "");
        touch(&r.join("a/env1/lib/v.py"), "");
        touch(&r.join("a/lib/site-packages/s.py"), "");
        touch(&r.join("b/nb.ipynb"), "{}");
        touch(&r.join("b/readme.md"), "");
        touch(&r.join("loose.py"), "");
        assert_eq!(
            walk_all(r),
            vec![
                (".".into(), "loose.py".into()),
                ("a".into(), "a/pkg/y.py".into()),
                ("a".into(), "a/x.py".into()),
                ("b".into(), "b/nb.ipynb".into()),
            ]
        );
    }

    #[test]
    fn a_root_with_a_marker_is_one_repo() {
        let t = tempfile::tempdir().unwrap();
        let r = t.path().join("proj");
        touch(&r.join("pyproject.toml"), "");
        touch(&r.join("src/m.py"), "");
        touch(&r.join("tests/t.py"), "");
        assert_eq!(
            walk_all(&r),
            vec![
                ("proj".into(), "src/m.py".into()),
                ("proj".into(), "tests/t.py".into())
            ]
        );
    }

    #[test]
    fn a_root_given_twice_is_scanned_once_and_several_roots_are_prefixed() {
        let t = tempfile::tempdir().unwrap();
        let a = t.path().join("one");
        let b = t.path().join("two");
        touch(&a.join("r/x.py"), "");
        touch(&b.join("r/x.py"), "");
        let repos = discover_repos(&[a.clone(), a.join("."), b]).unwrap();
        let mut paths = Vec::new();
        for r in &repos {
            walk_repo(r, |f| paths.push((f.repo, f.path)));
        }
        paths.sort();
        assert_eq!(
            paths,
            [
                ("one/r".to_string(), "one/r/x.py".to_string()),
                ("two/r".to_string(), "two/r/x.py".to_string())
            ]
        );
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_never_leave_the_root_nor_loop() {
        let t = tempfile::tempdir().unwrap();
        let outside = t.path().join("outside");
        touch(&outside.join("secret.py"), "");
        let r = t.path().join("corpus");
        touch(&r.join("a/m.py"), "");
        std::os::unix::fs::symlink(&outside, r.join("a/out_dir")).unwrap();
        std::os::unix::fs::symlink(outside.join("secret.py"), r.join("a/out_file.py")).unwrap();
        std::os::unix::fs::symlink(r.join("a"), r.join("a/loop")).unwrap();
        // At the top level, a link to the root is a loop and a link out of it is not
        // followed: neither is a repository.
        std::os::unix::fs::symlink(&r, r.join("root_loop")).unwrap();
        std::os::unix::fs::symlink(&outside, r.join("top_out")).unwrap();
        let repos = discover_repos(std::slice::from_ref(&r)).unwrap();
        let names: Vec<&str> = repos.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["a"]);
        let mut files = Vec::new();
        let mut problems = Vec::new();
        for repo in &repos {
            problems.extend(walk_repo(repo, |f| {
                files.push((f.path, f.outside_root, f.folder.is_some()))
            }));
        }
        files.sort();
        // The folder leaving the root gets a row of its own (a folder, never entered).
        assert_eq!(
            files,
            vec![
                ("a/m.py".into(), false, false),
                ("a/out_dir".into(), true, true),
                ("a/out_file.py".into(), true, false)
            ]
        );
        assert_eq!(problems.len(), 1, "the loop is reported once: {problems:?}");
    }

    #[cfg(unix)]
    #[test]
    fn a_folder_that_cannot_be_listed_gets_a_row() {
        use std::os::unix::fs::PermissionsExt;
        // Root lists every folder whatever its mode: the case exists for other users only.
        if unsafe { libc::geteuid() } == 0 {
            return;
        }
        let t = tempfile::tempdir().unwrap();
        let r = t.path().join("corpus");
        touch(&r.join("a/m.py"), "");
        touch(&r.join("a/locked/x.py"), "");
        let locked = r.join("a/locked");
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
        let mut rows = Vec::new();
        for repo in discover_repos(std::slice::from_ref(&r)).unwrap() {
            walk_repo(&repo, |f| rows.push((f.path, f.folder)));
        }
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
        rows.sort();
        assert_eq!(rows.len(), 2, "{rows:?}");
        assert_eq!(rows[0], ("a/locked".to_string(), rows[0].1.clone()));
        assert!(matches!(rows[0].1, Some(FolderNotEntered::Unreadable(_))));
        assert_eq!(rows[1], ("a/m.py".to_string(), None));
    }
}
