//! Which files of a walk are analysed: `include` / `exclude` globs from the configuration
//! and `.gitignore` files. A pattern without `/` matches a file or folder name anywhere (as
//! in `.gitignore`, ruff and black: `exclude = ["build"]`); one with `/` matches the path
//! from the configuration file's folder (`tests/fixtures/**`). `include` selects files only
//! (folders are always entered); `exclude` also prunes folders. Files left out get no row,
//! as with ruff: they are not part of the project the user asked about.
//!
//! `.gitignore` files are read from the walked folder's git work tree root (the nearest
//! folder above with `.git`) down, with `.git/info/exclude`; the user's global excludes
//! are not, so a run means the same on every machine. A snapshot without `.git` still
//! honours its `.gitignore` files from the walked folder down.

use std::path::{Path, PathBuf};

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use ignore::gitignore::{Gitignore, GitignoreBuilder};
use ignore::Match;

/// A bad glob, with the pattern.
#[derive(Debug, thiserror::Error)]
#[error("`{pattern}` is not a glob: {reason}")]
pub struct BadGlob {
    pub pattern: String,
    pub reason: String,
}

/// Patterns: those matched against a name anywhere, and those against the path from `base`.
#[derive(Clone, Debug, Default)]
struct Patterns {
    names: Option<GlobSet>,
    paths: Option<GlobSet>,
}

impl Patterns {
    fn new(patterns: &[String]) -> Result<Self, BadGlob> {
        let mut names = GlobSetBuilder::new();
        let mut paths = GlobSetBuilder::new();
        let (mut any_name, mut any_path) = (false, false);
        for p in patterns {
            let trimmed = p.trim_end_matches('/');
            let anchored = trimmed.trim_start_matches("./").trim_start_matches('/');
            let glob = GlobBuilder::new(anchored)
                .literal_separator(true)
                .build()
                .map_err(|e| BadGlob {
                    pattern: p.clone(),
                    reason: e.kind().to_string(),
                })?;
            if anchored.contains('/') {
                paths.add(glob);
                any_path = true;
            } else {
                names.add(glob);
                any_name = true;
            }
        }
        let build = |b: GlobSetBuilder, any: bool| -> Result<Option<GlobSet>, BadGlob> {
            if !any {
                return Ok(None);
            }
            b.build().map(Some).map_err(|e| BadGlob {
                pattern: patterns.join(", "),
                reason: e.to_string(),
            })
        };
        Ok(Patterns {
            names: build(names, any_name)?,
            paths: build(paths, any_path)?,
        })
    }

    fn is_empty(&self) -> bool {
        self.names.is_none() && self.paths.is_none()
    }

    /// Whether `rel` (from the base folder, `/`-separated) or its own name matches.
    fn matches(&self, rel: &Path) -> bool {
        let by_name = self
            .names
            .as_ref()
            .is_some_and(|set| rel.file_name().is_some_and(|n| set.is_match(Path::new(n))));
        by_name || self.paths.as_ref().is_some_and(|set| set.is_match(rel))
    }
}

/// What a walk keeps. The default keeps everything except what `.gitignore` files say.
#[derive(Clone, Debug)]
pub struct Selection {
    /// The folder patterns are relative to (the configuration file's), canonical.
    base: Option<PathBuf>,
    include: Patterns,
    exclude: Patterns,
    pub gitignore: bool,
}

impl Default for Selection {
    fn default() -> Self {
        Selection {
            base: None,
            include: Patterns::default(),
            exclude: Patterns::default(),
            gitignore: true,
        }
    }
}

impl Selection {
    /// Everything, `.gitignore` files not read (installed packages, tests).
    pub fn everything() -> Self {
        Selection {
            gitignore: false,
            ..Selection::default()
        }
    }

    /// Everything, except what `.gitignore` files leave out when `gitignore`.
    pub fn with_gitignore(gitignore: bool) -> Self {
        Selection {
            gitignore,
            ..Selection::default()
        }
    }

    pub fn new(
        base: &Path,
        include: &[String],
        exclude: &[String],
        gitignore: bool,
    ) -> Result<Self, BadGlob> {
        Ok(Selection {
            base: Some(base.canonicalize().unwrap_or_else(|_| base.to_path_buf())),
            include: Patterns::new(include)?,
            exclude: Patterns::new(exclude)?,
            gitignore,
        })
    }

    fn relative<'p>(&self, path: &'p Path) -> Option<&'p Path> {
        path.strip_prefix(self.base.as_deref()?).ok()
    }

    /// Whether an `exclude` pattern matches the folder or file `path`.
    pub fn excluded(&self, path: &Path) -> bool {
        if self.exclude.is_empty() {
            return false;
        }
        match self.relative(path) {
            Some(rel) => self.exclude.matches(rel),
            // Outside the configuration's folder only names can match.
            None => self
                .exclude
                .names
                .as_ref()
                .is_some_and(|set| path.file_name().is_some_and(|n| set.is_match(Path::new(n)))),
        }
    }

    /// Whether the file `path` is selected by `include` (everything when none is given).
    pub fn included(&self, path: &Path) -> bool {
        if self.include.is_empty() {
            return true;
        }
        match self.relative(path) {
            Some(rel) => self.include.matches(rel),
            None => true,
        }
    }
}

/// The `.gitignore` files in force during a walk: those above the walked folder, then one
/// per folder entered, innermost last.
pub struct GitignoreStack {
    enabled: bool,
    above: Vec<Gitignore>,
    /// (depth of the folder, its matcher).
    entered: Vec<(usize, Gitignore)>,
}

impl GitignoreStack {
    /// For a walk of `dir` (canonical).
    pub fn new(dir: &Path, enabled: bool) -> Self {
        let mut above = Vec::new();
        if enabled {
            // From the work tree's root down to `dir`'s parent; `dir`'s own is read on entry.
            let root = dir.ancestors().find(|a| a.join(".git").exists());
            if let Some(root) = root {
                let chain: Vec<&Path> = dir
                    .ancestors()
                    .skip(1)
                    .take_while(|a| a.starts_with(root))
                    .collect();
                let exclude = root.join(".git/info/exclude");
                if let Some(g) = matcher(root, &exclude) {
                    above.push(g);
                }
                for folder in chain.into_iter().rev() {
                    if let Some(g) = matcher(folder, &folder.join(".gitignore")) {
                        above.push(g);
                    }
                }
            }
        }
        GitignoreStack {
            enabled,
            above,
            entered: Vec::new(),
        }
    }

    /// Whether the entry at `depth` (the walked folder is depth 0) is ignored; a folder
    /// kept has its `.gitignore` pushed for what is under it.
    pub fn ignored(&mut self, path: &Path, depth: usize, is_dir: bool) -> bool {
        if !self.enabled {
            return false;
        }
        while self.entered.last().is_some_and(|(d, _)| *d >= depth) {
            self.entered.pop();
        }
        let innermost_first = self
            .entered
            .iter()
            .rev()
            .map(|(_, g)| g)
            .chain(self.above.iter().rev());
        let mut ignored = false;
        for g in innermost_first {
            match g.matched(path, is_dir) {
                Match::Ignore(_) => {
                    ignored = true;
                    break;
                }
                Match::Whitelist(_) => break,
                Match::None => {}
            }
        }
        if is_dir && !ignored {
            if let Some(g) = matcher(path, &path.join(".gitignore")) {
                self.entered.push((depth, g));
            }
        }
        ignored
    }
}

fn matcher(folder: &Path, file: &Path) -> Option<Gitignore> {
    if !file.is_file() {
        return None;
    }
    let mut b = GitignoreBuilder::new(folder);
    // A line that does not parse is skipped, as git skips it.
    let _ = b.add(file);
    b.build().ok().filter(|g| !g.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sel(include: &[&str], exclude: &[&str]) -> (tempfile::TempDir, Selection) {
        let t = tempfile::tempdir().unwrap();
        let s = Selection::new(
            t.path(),
            &include.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            &exclude.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            true,
        )
        .unwrap();
        (t, s)
    }

    #[test]
    fn names_match_anywhere_and_paths_from_the_base() {
        let (t, s) = sel(
            &["src/**/*.py"],
            &["build", "tests/fixtures/**", "*_pb2.py"],
        );
        let base = t.path().canonicalize().unwrap();
        assert!(s.excluded(&base.join("a/build")));
        assert!(s.excluded(&base.join("tests/fixtures/x.py")));
        assert!(!s.excluded(&base.join("fixtures/x.py")));
        assert!(s.excluded(&base.join("src/m_pb2.py")));
        assert!(s.included(&base.join("src/a/m.py")));
        assert!(!s.included(&base.join("scripts/m.py")));
        assert!(Patterns::new(&["a[".to_string()]).is_err());
    }

    #[test]
    fn gitignore_files_nest_and_whitelist() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join(".git/info")).unwrap();
        std::fs::write(root.join(".gitignore"), "gen/\n*.tmp.py\n").unwrap();
        std::fs::write(root.join(".git/info/exclude"), "scratch.py\n").unwrap();
        std::fs::create_dir_all(root.join("pkg/gen")).unwrap();
        std::fs::write(root.join("pkg/.gitignore"), "!keep.tmp.py\n").unwrap();
        // Walking `pkg`: the root's rules apply from above.
        let pkg = root.join("pkg");
        let mut stack = GitignoreStack::new(&pkg, true);
        assert!(!stack.ignored(&pkg, 0, true));
        assert!(stack.ignored(&pkg.join("gen"), 1, true));
        assert!(stack.ignored(&pkg.join("a.tmp.py"), 1, false));
        assert!(!stack.ignored(&pkg.join("keep.tmp.py"), 1, false));
        assert!(stack.ignored(&pkg.join("scratch.py"), 1, false));
        assert!(!stack.ignored(&pkg.join("model.py"), 1, false));
        let mut off = GitignoreStack::new(&pkg, false);
        assert!(!off.ignored(&pkg.join("gen"), 1, true));
    }
}
