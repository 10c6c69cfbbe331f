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

use super::source::FileKind;

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

const REPO_MARKERS: &[&str] = &[".git", "pyproject.toml", "setup.py"];

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
    pub dir: PathBuf,
    /// The corpus root it belongs to; `path` columns are relative to it.
    pub corpus_root: PathBuf,
    /// Prefix for `path` columns (empty for a single corpus root).
    pub path_prefix: String,
    /// Loose files of the root form repository `.`: walk only the root's files, not its folders.
    pub files_only: bool,
}

/// A file found by the walk, before it is read.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct DiscoveredFile {
    pub repo: String,
    /// Path relative to the corpus root (with the root prefix when several roots are scanned).
    pub path: String,
    pub abs_path: PathBuf,
    pub kind: FileKind,
    /// The symlink target leaves the corpus root: listed, never read.
    pub outside_root: bool,
    /// The repository's folder (imports resolve within it).
    pub repo_dir: PathBuf,
}

impl DiscoveredFile {
    /// The path inside the repository (`/`-separated), for module resolution.
    pub fn repo_path(&self) -> String {
        let rel = self
            .abs_path
            .strip_prefix(&self.repo_dir)
            .unwrap_or(&self.abs_path);
        rel.to_string_lossy().replace('\\', "/")
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
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "root".to_string());
        let path_prefix = if multi {
            format!("{root_name}/")
        } else {
            String::new()
        };
        if root.is_file() {
            let parent = root.parent().unwrap_or(&root).to_path_buf();
            repos.push(RepoRoot {
                name: root_name.clone(),
                dir: root.clone(),
                corpus_root: parent,
                path_prefix,
                files_only: true,
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
            });
            continue;
        }
        let mut entries: Vec<_> = std::fs::read_dir(&root)?.filter_map(Result::ok).collect();
        entries.sort_by_key(|e| e.file_name());
        let mut loose = false;
        for entry in entries {
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = entry.path();
            if path.is_dir() {
                if SKIPPED_DIRS.contains(&name.as_str()) || is_virtualenv(&path) {
                    continue;
                }
                if !stays_inside(&path, &root) {
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
                });
            } else if FileKind::from_path(&path).is_some() {
                loose = true;
            }
        }
        if loose {
            repos.push(RepoRoot {
                name: ".".to_string(),
                dir: root.clone(),
                corpus_root: root.clone(),
                path_prefix,
                files_only: true,
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
pub fn walk_repo(repo: &RepoRoot, mut emit: impl FnMut(DiscoveredFile)) -> Vec<String> {
    let mut problems = Vec::new();
    let root = &repo.corpus_root;
    let max_depth = if repo.files_only { 1 } else { usize::MAX };
    let walker = WalkDir::new(&repo.dir)
        .follow_links(true)
        .max_depth(max_depth)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| {
            if e.depth() == 0 || !e.file_type().is_dir() {
                return true;
            }
            let name = e.file_name().to_string_lossy();
            if SKIPPED_DIRS.contains(&name.as_ref()) || is_virtualenv(e.path()) {
                return false;
            }
            // A symlinked folder is followed only when it stays inside the corpus root.
            !e.path_is_symlink() || stays_inside(e.path(), root)
        });
    for entry in walker {
        let entry = match entry {
            Ok(e) => e,
            Err(err) => {
                // A Python file we cannot even stat (a dangling symlink) is still a file of
                // the corpus: reading it fails later and it gets the status `unreadable`.
                let python_path = err.path().filter(|p| FileKind::from_path(p).is_some());
                match python_path {
                    Some(path) if err.loop_ancestor().is_none() => {
                        let rel = path.strip_prefix(root).unwrap_or(path);
                        emit(DiscoveredFile {
                            repo: repo.name.clone(),
                            path: format!("{}{}", repo.path_prefix, rel.to_string_lossy()),
                            abs_path: path.to_path_buf(),
                            kind: FileKind::from_path(path).unwrap_or(FileKind::Py),
                            outside_root: false,
                            repo_dir: repo.dir.clone(),
                        });
                    }
                    _ => problems.push(err.to_string()),
                }
                continue;
            }
        };
        if entry.file_type().is_dir() {
            continue;
        }
        let path = entry.path();
        let Some(kind) = FileKind::from_path(path) else {
            continue;
        };
        let outside_root = entry.path_is_symlink() && !stays_inside(path, root);
        let rel = path.strip_prefix(root).unwrap_or(path);
        let rel = rel.to_string_lossy().replace('\\', "/");
        emit(DiscoveredFile {
            repo: repo.name.clone(),
            path: format!("{}{}", repo.path_prefix, rel),
            abs_path: path.to_path_buf(),
            kind,
            outside_root,
            repo_dir: repo.dir.clone(),
        });
    }
    problems
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
        let repos = discover_repos(std::slice::from_ref(&r)).unwrap();
        let mut files = Vec::new();
        let mut problems = Vec::new();
        for repo in &repos {
            problems.extend(walk_repo(repo, |f| files.push((f.path, f.outside_root))));
        }
        files.sort();
        assert_eq!(
            files,
            vec![("a/m.py".into(), false), ("a/out_file.py".into(), true)]
        );
        assert_eq!(problems.len(), 1, "the loop is reported once: {problems:?}");
    }
}
