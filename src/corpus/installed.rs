//! Where installed packages are: the folders `import torchvision` would read, so that models
//! built by installed libraries (`torchvision.models.resnet50()`, timm, the project's own
//! dependencies) are analysed from their source. As type checkers do: the folders named with
//! `--python-path`, then the active environment's site-packages (`VIRTUAL_ENV`, else
//! `CONDA_PREFIX`), else the site-packages folders of the `python3` on `PATH` (asked once,
//! bounded in time; a missing or hanging interpreter just means none).
//!
//! Of a folder's packages only those built on torch are read ([`SitePackages`]): a
//! distribution whose metadata requires `torch` (extras included, so transformers counts).
//! The others (yaml, pytest, requests ...) cannot build a model, and running them would only
//! cost time; they stay unknown, as without installed packages.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long the interpreter may take to list its `sys.path`.
const INTERPRETER_TIMEOUT: Duration = Duration::from_secs(5);

/// A `--python-path` that is not a folder.
#[derive(Debug, thiserror::Error)]
#[error("--python-path `{0}` is not a folder")]
pub struct NotAFolder(pub String);

/// The installed-package folders of a run: `explicit` (each must be a folder), then the
/// detected ones unless `detect` is false; duplicates removed, order kept.
pub fn python_path(explicit: &[PathBuf], detect: bool) -> Result<Vec<PathBuf>, NotAFolder> {
    let mut out = Vec::new();
    for p in explicit {
        if !p.is_dir() {
            return Err(NotAFolder(p.display().to_string()));
        }
        out.push(p.clone());
    }
    if detect {
        out.extend(detected());
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|p| seen.insert(p.canonicalize().unwrap_or_else(|_| p.clone())));
    Ok(out)
}

/// A folder of installed packages and which of its top-level packages are read.
#[derive(Clone, Debug)]
pub struct SitePackages {
    pub dir: PathBuf,
    /// Top-level package and module names of distributions built on torch; `None` when the
    /// folder has no distribution metadata at all (a plain source folder: all are read).
    pub torch_based: Option<Arc<BTreeSet<String>>>,
}

impl SitePackages {
    /// The folder with its distributions' metadata read.
    pub fn read(dir: &Path) -> SitePackages {
        let mut any = false;
        let mut names = BTreeSet::new();
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .map(|it| it.flatten().map(|e| e.path()).collect())
            .unwrap_or_default();
        entries.sort();
        for info in entries {
            let Some(name) = info.file_name().and_then(|n| n.to_str()) else {
                continue;
            };
            let requires = if name.ends_with(".dist-info") {
                read_small(&info.join("METADATA")).map(|m| {
                    m.lines()
                        .filter_map(|l| l.strip_prefix("Requires-Dist:"))
                        .any(names_torch)
                })
            } else if name.ends_with(".egg-info") {
                read_small(&info.join("requires.txt")).map(|r| r.lines().any(names_torch))
            } else {
                continue;
            };
            any = true;
            if requires == Some(true) {
                names.extend(top_level_names(&info));
            }
        }
        SitePackages {
            dir: dir.to_path_buf(),
            torch_based: any.then(|| Arc::new(names)),
        }
    }

    /// Whether the top-level package or module `name` is read from this folder.
    pub fn reads(&self, name: &str) -> bool {
        self.torch_based.as_ref().is_none_or(|n| n.contains(name))
    }
}

/// Metadata files are small; a huge one is not metadata.
fn read_small(path: &Path) -> Option<String> {
    let meta = std::fs::metadata(path).ok()?;
    if meta.len() > 4 * 1024 * 1024 {
        return None;
    }
    std::fs::read_to_string(path).ok()
}

/// Whether a requirement (`torch>=2.2; extra == "torch"`) names torch.
fn names_torch(requirement: &str) -> bool {
    let name: String = requirement
        .trim()
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        .collect();
    name.eq_ignore_ascii_case("torch")
}

/// A distribution's top-level names: `top_level.txt`, else the first components of the
/// paths in `RECORD` (`pkg/x.py` → `pkg`, `mod.py` → `mod`).
fn top_level_names(info: &Path) -> Vec<String> {
    if let Some(text) = read_small(&info.join("top_level.txt")) {
        return text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(str::to_string)
            .collect();
    }
    let Some(record) = read_small(&info.join("RECORD")) else {
        return Vec::new();
    };
    let mut out = BTreeSet::new();
    for line in record.lines() {
        let path = line.split(',').next().unwrap_or("");
        let first = path.split('/').next().unwrap_or("");
        if first.is_empty()
            || first == ".."
            || first == "__pycache__"
            || first.ends_with(".dist-info")
            || first.ends_with(".data")
        {
            continue;
        }
        let name = match path.contains('/') {
            true => first,
            false => match first.strip_suffix(".py") {
                Some(m) => m,
                None => continue,
            },
        };
        out.insert(name.to_string());
    }
    out.into_iter().collect()
}

/// The active environment's site-packages, else the interpreter's.
fn detected() -> Vec<PathBuf> {
    for var in ["VIRTUAL_ENV", "CONDA_PREFIX"] {
        if let Some(prefix) = std::env::var_os(var).filter(|v| !v.is_empty()) {
            let found = environment_site_packages(Path::new(&prefix));
            if !found.is_empty() {
                return found;
            }
        }
    }
    interpreter_site_packages()
}

/// `PREFIX/lib/pythonX.Y/site-packages` (POSIX) and `PREFIX/Lib/site-packages` (Windows).
fn environment_site_packages(prefix: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Ok(entries) = std::fs::read_dir(prefix.join("lib")) {
        let mut versions: Vec<PathBuf> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("python"))
            })
            .collect();
        versions.sort();
        out.extend(
            versions
                .into_iter()
                .map(|v| v.join("site-packages"))
                .filter(|p| p.is_dir()),
        );
    }
    let windows = prefix.join("Lib").join("site-packages");
    if windows.is_dir() {
        out.push(windows);
    }
    out
}

/// The `site-packages` / `dist-packages` entries of `python3 -c 'import sys; sys.path'`.
fn interpreter_site_packages() -> Vec<PathBuf> {
    let script = "import sys\nfor p in sys.path: print(p)";
    let Ok(mut child) = Command::new("python3")
        .args(["-c", script])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
    else {
        return Vec::new();
    };
    let started = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if started.elapsed() < INTERPRETER_TIMEOUT => {
                std::thread::sleep(Duration::from_millis(5))
            }
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return Vec::new();
            }
        }
    }
    let mut text = String::new();
    if let Some(mut out) = child.stdout.take() {
        use std::io::Read;
        let _ = out.read_to_string(&mut text);
    }
    text.lines()
        .filter(|l| l.ends_with("site-packages") || l.ends_with("dist-packages"))
        .map(PathBuf::from)
        .filter(|p| p.is_dir())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explicit_folders_come_first_and_must_exist() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a");
        std::fs::create_dir(&a).unwrap();
        let got = python_path(&[a.clone(), a.clone()], false).unwrap();
        assert_eq!(got, vec![a.clone()], "duplicates removed");
        let missing = dir.path().join("missing");
        let err = python_path(&[a, missing], false).unwrap_err();
        assert!(err.to_string().contains("missing"), "{err}");
    }

    #[test]
    fn only_distributions_built_on_torch_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let write = |p: &str, text: &str| {
            let p = d.join(p);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        };
        write(
            "vision-1.0.dist-info/METADATA",
            "Name: vision\nRequires-Dist: torch==2.15\n",
        );
        write("vision-1.0.dist-info/top_level.txt", "vision\n");
        write(
            "hub-2.0.dist-info/METADATA",
            "Name: hub\nRequires-Dist: torchvision\nRequires-Dist: torch>=2; extra == \"torch\"\n",
        );
        write(
            "hub-2.0.dist-info/RECORD",
            "hub/__init__.py,,\nhub_util.py,,\nhub-2.0.dist-info/METADATA,,\n",
        );
        write(
            "yaml-6.dist-info/METADATA",
            "Name: yaml\nRequires-Dist: torchvision-extra\n",
        );
        write("yaml-6.dist-info/top_level.txt", "yaml\n_yaml\n");
        let sp = SitePackages::read(d);
        for name in ["vision", "hub", "hub_util"] {
            assert!(sp.reads(name), "{name}");
        }
        assert!(!sp.reads("yaml"));
        assert!(!sp.reads("unknown_pkg"));
        // A plain source folder: everything is read.
        let plain = tempfile::tempdir().unwrap();
        assert!(SitePackages::read(plain.path()).reads("anything"));
    }

    #[test]
    fn an_environment_prefix_gives_its_site_packages() {
        let dir = tempfile::tempdir().unwrap();
        let sp = dir.path().join("lib/python3.11/site-packages");
        std::fs::create_dir_all(&sp).unwrap();
        std::fs::create_dir_all(dir.path().join("lib/python3.11/config")).unwrap();
        assert_eq!(environment_site_packages(dir.path()), vec![sp]);
        assert!(environment_site_packages(&dir.path().join("nothing")).is_empty());
    }
}
