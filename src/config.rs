//! Configuration files. `shapehound.toml` (its top level) or `[tool.shapehound]` in
//! `pyproject.toml`, found from the first path given upward: the first folder with either
//! (a `shapehound.toml` wins over a `pyproject.toml` beside it; a `pyproject.toml` without
//! the table is passed over). `--config FILE` names one; `--no-config` reads none. Flags on
//! the command line win over the file; paths in the file are relative to its folder. An
//! unknown key or a bad value is an error naming the file and the key (exit 2).

use std::path::{Path, PathBuf};

use serde::Deserialize;
use thiserror::Error;

use crate::corpus::selection::{BadGlob, Selection};
use crate::shapes::kind::FindingKind;
use crate::units::assumptions::Origin;

#[derive(Debug, Error)]
pub enum ConfigError {
    #[error("cannot read configuration {path}: {reason}")]
    Unreadable { path: String, reason: String },
    #[error("configuration {path}: {reason}")]
    Invalid { path: String, reason: String },
}

/// A size: bytes, or a string with a unit (`"2MiB"`).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(untagged)]
pub enum Size {
    Bytes(u64),
    Text(String),
}

/// The settings a configuration file may hold (kebab-case keys).
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Settings {
    /// Globs of the files analysed (default: every `.py` and `.ipynb`).
    pub include: Option<Vec<String>>,
    /// Globs of files and folders left out.
    pub exclude: Option<Vec<String>>,
    /// Whether `.gitignore` files leave files out (default true).
    pub respect_gitignore: Option<bool>,
    /// Finding kinds reported (default: all).
    pub select: Option<Vec<String>>,
    /// Finding kinds not reported.
    pub ignore: Option<Vec<String>>,
    pub workers: Option<u32>,
    pub timeout_ms: Option<u64>,
    pub max_file_size: Option<Size>,
    pub python_path: Option<Vec<PathBuf>>,
    /// Whether site-packages are detected from the virtualenv or `python3` (default true).
    pub site_packages: Option<bool>,
    pub follow_imports: Option<bool>,
    /// Facts about units' inputs, as `--assume` takes them.
    pub assumptions: Option<Vec<String>>,
    pub unit_steps: Option<usize>,
    pub file_steps: Option<usize>,
    pub job_terms: Option<usize>,
    pub job_budget_ms: Option<u64>,
}

/// A configuration file read and checked.
#[derive(Clone, Debug, Default)]
pub struct Config {
    /// The file (none: defaults only).
    pub file: Option<PathBuf>,
    pub settings: Settings,
}

impl Config {
    /// The configuration for a run over `paths`: `explicit` if given, else the first found
    /// from the first path upward; none with `disabled`.
    pub fn discover(
        paths: &[PathBuf],
        explicit: Option<&Path>,
        disabled: bool,
    ) -> Result<Config, ConfigError> {
        if disabled {
            return Ok(Config::default());
        }
        if let Some(file) = explicit {
            return Config::read(file);
        }
        let Some(first) = paths.first() else {
            return Ok(Config::default());
        };
        let start = first.canonicalize().unwrap_or_else(|_| first.clone());
        let start = if start.is_file() {
            start.parent().map(Path::to_path_buf).unwrap_or(start)
        } else {
            start
        };
        for dir in start.ancestors() {
            let own = dir.join("shapehound.toml");
            if own.is_file() {
                return Config::read(&own);
            }
            let pyproject = dir.join("pyproject.toml");
            if pyproject.is_file() && has_tool_table(&pyproject) {
                return Config::read(&pyproject);
            }
        }
        Ok(Config::default())
    }

    /// Reads one file: `shapehound.toml` (top level) or `pyproject.toml` (`[tool.shapehound]`).
    pub fn read(file: &Path) -> Result<Config, ConfigError> {
        let shown = file.display().to_string();
        let text = std::fs::read_to_string(file).map_err(|e| ConfigError::Unreadable {
            path: shown.clone(),
            reason: e.to_string(),
        })?;
        let invalid = |reason: String| ConfigError::Invalid {
            path: shown.clone(),
            reason,
        };
        let is_pyproject = file.file_name().is_some_and(|n| n == "pyproject.toml");
        let describe = |e: toml::de::Error| invalid(describe(&text, &e));
        let settings = if is_pyproject {
            let p: Pyproject = toml::from_str(&text).map_err(describe)?;
            p.tool.shapehound.unwrap_or_default()
        } else {
            toml::from_str::<Settings>(&text).map_err(describe)?
        };
        let config = Config {
            file: Some(file.canonicalize().unwrap_or_else(|_| file.to_path_buf())),
            settings,
        };
        config.validate().map_err(invalid)?;
        Ok(config)
    }

    /// The folder the file's paths and globs are relative to.
    pub fn base(&self) -> Option<&Path> {
        self.file.as_deref().and_then(Path::parent)
    }

    fn validate(&self) -> Result<(), String> {
        let s = &self.settings;
        for (key, kinds) in [("select", &s.select), ("ignore", &s.ignore)] {
            for k in kinds.iter().flatten() {
                if !FindingKind::ALL.iter().any(|f| f.code() == k) {
                    return Err(format!(
                        "`{key}`: unknown finding kind `{k}` (known: {})",
                        FindingKind::ALL.map(|f| f.code()).join(", ")
                    ));
                }
            }
        }
        if s.workers == Some(0) {
            return Err("`workers` must be at least 1".to_string());
        }
        if s.timeout_ms == Some(0) {
            return Err("`timeout-ms` must be at least 1".to_string());
        }
        if let Some(size) = &s.max_file_size {
            self.max_file_size_of(size)
                .map_err(|e| format!("`max-file-size`: {e}"))?;
        }
        for p in s.python_path.iter().flatten() {
            let p = self.path(p);
            if !p.is_dir() {
                return Err(format!("`python-path`: `{}` is not a folder", p.display()));
            }
        }
        self.selection(true)
            .map_err(|e| format!("`include`/`exclude`: {e}"))?;
        for a in s.assumptions.iter().flatten() {
            crate::units::assumptions::Assumption::parse(a, Origin::Configuration)
                .map_err(|e| format!("`assumptions`: {e}"))?;
        }
        Ok(())
    }

    fn max_file_size_of(&self, size: &Size) -> Result<u64, String> {
        match size {
            Size::Bytes(n) => Ok(*n),
            Size::Text(t) => crate::cli::parse_size(t),
        }
    }

    /// The configured maximum file size, if any.
    pub fn max_file_size(&self) -> Option<u64> {
        let size = self.settings.max_file_size.as_ref()?;
        self.max_file_size_of(size).ok()
    }

    /// A path from the file, made absolute from its folder.
    pub fn path(&self, p: &Path) -> PathBuf {
        match self.base() {
            Some(base) if p.is_relative() => base.join(p),
            _ => p.to_path_buf(),
        }
    }

    /// The configured python paths, absolute.
    pub fn python_path(&self) -> Vec<PathBuf> {
        self.settings
            .python_path
            .iter()
            .flatten()
            .map(|p| self.path(p))
            .collect()
    }

    /// What the walk keeps; `gitignore_flag` is false when `--no-gitignore` was given.
    pub fn selection(&self, gitignore_flag: bool) -> Result<Selection, BadGlob> {
        let s = &self.settings;
        let gitignore = gitignore_flag && s.respect_gitignore.unwrap_or(true);
        let empty = Vec::new();
        let include = s.include.as_ref().unwrap_or(&empty);
        let exclude = s.exclude.as_ref().unwrap_or(&empty);
        match self.base() {
            Some(base) => Selection::new(base, include, exclude, gitignore),
            None => Ok(Selection::with_gitignore(gitignore)),
        }
    }

    /// Which finding kinds are reported.
    pub fn kinds(&self) -> KindFilter {
        KindFilter {
            select: self.settings.select.clone(),
            ignore: self.settings.ignore.clone().unwrap_or_default(),
        }
    }
}

/// `select` / `ignore`: which finding kinds are reported.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KindFilter {
    pub select: Option<Vec<String>>,
    pub ignore: Vec<String>,
}

impl KindFilter {
    pub fn reports(&self, kind: &str) -> bool {
        self.select
            .as_ref()
            .is_none_or(|s| s.iter().any(|k| k == kind))
            && !self.ignore.iter().any(|k| k == kind)
    }
}

/// What `pyproject.toml` is to us: its `[tool.shapehound]` table (the rest is not ours).
#[derive(Deserialize)]
struct Pyproject {
    #[serde(default)]
    tool: Tool,
}

#[derive(Default, Deserialize)]
struct Tool {
    shapehound: Option<Settings>,
}

/// A TOML error in one line: where, the line itself (which names the key), and what.
fn describe(text: &str, e: &toml::de::Error) -> String {
    match e.span() {
        Some(span) => {
            let line = text[..span.start.min(text.len())].matches('\n').count() + 1;
            let code = text.lines().nth(line - 1).unwrap_or("").trim();
            format!("line {line} (`{code}`): {}", e.message())
        }
        None => e.message().to_string(),
    }
}

fn has_tool_table(pyproject: &Path) -> bool {
    std::fs::read_to_string(pyproject)
        .ok()
        .and_then(|t| toml::from_str::<toml::Table>(&t).ok())
        .is_some_and(|t| t.get("tool").and_then(|t| t.get("shapehound")).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
        let p = dir.join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, text).unwrap();
        p
    }

    #[test]
    fn found_from_the_path_upward_passing_over_pyprojects_without_the_table() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path();
        write(
            root,
            "pyproject.toml",
            "[tool.shapehound]\nexclude = [\"gen\"]\nworkers = 3\n",
        );
        write(root, "pkg/pyproject.toml", "[project]\nname = \"pkg\"\n");
        let file = write(root, "pkg/sub/m.py", "");
        let c = Config::discover(std::slice::from_ref(&file), None, false).unwrap();
        assert_eq!(c.settings.workers, Some(3));
        assert_eq!(c.base(), Some(root.canonicalize().unwrap().as_path()));
        // A shapehound.toml nearer wins.
        write(root, "pkg/shapehound.toml", "timeout-ms = 50\n");
        let c = Config::discover(std::slice::from_ref(&file), None, false).unwrap();
        assert_eq!(
            (c.settings.timeout_ms, c.settings.workers),
            (Some(50), None)
        );
        assert!(Config::discover(&[file], None, true)
            .unwrap()
            .file
            .is_none());
    }

    #[test]
    fn unknown_keys_and_bad_values_name_the_file_and_the_key() {
        let t = tempfile::tempdir().unwrap();
        let cases = [
            ("[tool.shapehound]\nworker = 2\n", "unknown field `worker`"),
            ("[tool.shapehound]\nworkers = \"two\"\n", "workers"),
            (
                "[tool.shapehound]\nselect = [\"no-such\"]\n",
                "`select`: unknown finding kind `no-such`",
            ),
            (
                "[tool.shapehound]\nworkers = 0\n",
                "`workers` must be at least 1",
            ),
            (
                "[tool.shapehound]\nmax-file-size = \"3 parsecs\"\n",
                "`max-file-size`",
            ),
            (
                "[tool.shapehound]\nexclude = [\"a[\"]\n",
                "`include`/`exclude`",
            ),
            (
                "[tool.shapehound]\npython-path = [\"missing\"]\n",
                "`python-path`",
            ),
            ("[tool.shapehound\n", "pyproject.toml"),
        ];
        for (text, expected) in cases {
            let p = write(t.path(), "pyproject.toml", text);
            let e = Config::read(&p).unwrap_err().to_string();
            assert!(e.contains("pyproject.toml"), "{e}");
            assert!(e.contains(expected), "{text}: {e}");
        }
    }

    #[test]
    fn kinds_are_selected_then_ignored() {
        let f = KindFilter {
            select: Some(vec!["feature-mismatch".into(), "reshape-numel".into()]),
            ignore: vec!["reshape-numel".into()],
        };
        assert!(f.reports("feature-mismatch"));
        assert!(!f.reports("reshape-numel"));
        assert!(!f.reports("rank-mismatch"));
        assert!(KindFilter::default().reports("rank-mismatch"));
    }
}
