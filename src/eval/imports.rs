//! Finding and parsing the modules a file imports from its own project, so that classes and
//! functions defined in another file of the same package (`from .layers import ConvNormAct`,
//! `from timm.layers import Mlp` inside timm, `from model import Net` next to a script) are
//! run like the file's own instead of being unknown.
//!
//! Search rules, as Python's import system would for the file run in place: the directory
//! above the file's top package (the chain of parent folders holding `__init__.py`), then the
//! file's own folder, then the installed packages' folders (`--python-path`, site-packages).
//! A module is read only below its search root and inside the boundary the caller gives (the
//! corpus root or the checked folder; an installed-packages folder is its own boundary), after
//! resolving symlinks. `torch*` modules are never looked up (the operator catalogue models
//! them); of installed packages, those the analysis models by their API ([`MODELLED`]) are
//! never read either, so numpy or PIL stay what `numpy.rs` and `images.rs` say they are.
//!
//! Parsed modules are cached per thread (bounded by source size, emptied only between
//! files), so a library's helper modules are parsed once per worker, not once per importing
//! file, and one file sees one tree per module.

use rustc_hash::FxHashMap as HashMap;
use std::cell::RefCell;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;

use ruff_python_ast::{ModModule, Stmt};

use crate::corpus::installed::SitePackages;

/// A parsed module of the project.
pub struct SourceModule {
    /// The package relative imports start from: the module's own name for a package's
    /// `__init__.py`, its parent otherwise.
    pub package: String,
    /// The search folder it was found in: where its own relative imports resolve.
    pub root: PathBuf,
    /// The file.
    pub path: PathBuf,
    /// Found among installed packages (not the project's own code).
    pub installed: bool,
    pub text: String,
    pub ast: ModModule,
    /// Addresses of the functions and classes it defines, nested ones too (see
    /// [`SourceModule::definitions`]).
    definitions: std::cell::OnceCell<Vec<usize>>,
}

impl SourceModule {
    /// The address of every function and class the module defines, nested ones too:
    /// found once per parse, since every file importing the module registers them.
    pub fn definitions(&self) -> &[usize] {
        self.definitions.get_or_init(|| {
            let mut out = Vec::new();
            collect_definitions(&self.ast.body, &mut out);
            out
        })
    }
}

fn collect_definitions(body: &[Stmt], out: &mut Vec<usize>) {
    for stmt in body {
        match stmt {
            Stmt::FunctionDef(f) => {
                out.push(f as *const _ as usize);
                collect_definitions(&f.body, out);
            }
            Stmt::ClassDef(c) => {
                out.push(c as *const _ as usize);
                collect_definitions(&c.body, out);
            }
            Stmt::If(s) => {
                collect_definitions(&s.body, out);
                for clause in &s.elif_else_clauses {
                    collect_definitions(&clause.body, out);
                }
            }
            Stmt::Try(s) => {
                collect_definitions(&s.body, out);
                for h in &s.handlers {
                    let ruff_python_ast::ExceptHandler::ExceptHandler(h) = h;
                    collect_definitions(&h.body, out);
                }
                collect_definitions(&s.orelse, out);
                collect_definitions(&s.finalbody, out);
            }
            Stmt::With(s) => collect_definitions(&s.body, out),
            Stmt::For(s) => collect_definitions(&s.body, out),
            Stmt::While(s) => collect_definitions(&s.body, out),
            _ => {}
        }
    }
}

/// Where a file's imports are looked up.
#[derive(Clone, Debug)]
pub struct ImportSearch {
    roots: Vec<Root>,
    /// The analysed file's package (for its relative imports); empty outside packages.
    pub package: String,
    /// The folder above the analysed file's package chain, where its relative imports resolve.
    pub package_root: Option<PathBuf>,
    /// The analysed file's folder: paths of findings in other files are relative to it.
    pub file_dir: Option<PathBuf>,
}

/// A folder modules are looked up in, the folder nothing is read outside of, the top-level
/// names it provides when known (`None`: whatever is on disk), and for a folder of installed
/// packages, which of them are read.
#[derive(Clone, Debug)]
struct Root {
    dir: PathBuf,
    boundary: PathBuf,
    names: Option<Arc<BTreeSet<String>>>,
    installed: Option<SitePackages>,
}

/// Separates the search folder from the module name in the names of relative imports
/// ([`ImportSearch::located`]); never part of a Python name.
const LOCATED: char = '\0';

/// Installed packages the analysis models by their API (or that never build tensors' shapes
/// from their own source), by top-level name or dotted prefix: never read from source.
pub const MODELLED: &[&str] = &[
    "torch",
    "numpy",
    "PIL",
    "pandas",
    "scipy",
    "sklearn",
    "matplotlib",
    "tqdm",
    "cv2",
    "tensorflow",
    "jax",
    "IPython",
    "torchsummary",
    "torchinfo",
    "torchvision.transforms",
    "torchvision.datasets",
    "torchvision.ops",
    "torchvision.io",
    "torchvision.utils",
];

/// Whether `name` is (in) a package of [`MODELLED`].
fn is_modelled(name: &str) -> bool {
    MODELLED
        .iter()
        .any(|m| name == *m || (name.starts_with(m) && name.as_bytes().get(m.len()) == Some(&b'.')))
}

/// Larger modules are not parsed for imports (generated tables, vendored bundles).
const MAX_MODULE_BYTES: u64 = 512 * 1024;
/// Once the per-thread cache holds more source than this, it keeps, before the next file
/// (never during one file: [`ImportSearch::start_file`]), the modules the latest files used
/// up to half of it, and forgets the rest. The modules most files import (a library's
/// core) stay parsed and summarised; emptying it all made transformers rebuild its core's
/// summaries six times per worker.
const CACHE_BYTES: usize = 16 * 1024 * 1024;

/// `rel` (a repository-relative folder, empty for the repository itself) under `repo`,
/// without a trailing separator: a module's located name is spelled from its folder, so one
/// folder spelled two ways (`repo/` and `repo`) would parse, summarise and cache one module
/// twice.
fn search_folder(repo: &Path, rel: &str) -> PathBuf {
    repo.join(rel).components().collect()
}

impl ImportSearch {
    /// The search for the file at `path` read from the file system (`check`): the folders
    /// of [`crate::resolve::layout::search_roots`] within the file's repository (the nearest
    /// folder above it with a repository marker, never above `boundary`).
    pub fn for_file(path: &Path, boundary: &Path) -> Option<ImportSearch> {
        let boundary = boundary.canonicalize().ok()?;
        let path = path.canonicalize().ok()?;
        let dir = path.parent()?.to_path_buf();
        let repo = dir
            .ancestors()
            .take_while(|a| a.starts_with(&boundary))
            .find(|a| crate::corpus::walk::has_marker(a))
            .unwrap_or(&dir)
            .to_path_buf();
        let rel = path.strip_prefix(&repo).ok()?.to_str()?.replace('\\', "/");
        let top = crate::resolve::layout::package_top(&rel, |d| {
            repo.join(d).join("__init__.py").is_file()
        });
        // The package chain may go on above the repository folder (a checked sub-folder).
        let above = match &top {
            Some(t) => repo.join(t),
            None => dir.clone(),
        };
        let (package_root, package) = package_chain(&above, &dir, &boundary);
        let roots = crate::resolve::layout::search_roots(&rel, None, repo.join("src").is_dir())
            .into_iter()
            .map(|r| search_folder(&repo, &r))
            .chain(package_root.clone())
            .map(|dir| Root {
                dir,
                boundary: boundary.clone(),
                names: None,
                installed: None,
            });
        Some(ImportSearch {
            roots: dedup_roots(roots),
            package,
            package_root,
            file_dir: Some(dir),
        })
    }

    /// The search of a scanned file: its repository folder, its path in it, and the search
    /// folders (repository-relative) with the top-level names each provides, in order.
    pub fn for_layout(
        repo: &Path,
        rel_path: &str,
        roots: Vec<(String, Arc<BTreeSet<String>>)>,
        package_top: Option<&str>,
    ) -> ImportSearch {
        let file_dir = repo.join(crate::resolve::layout::folder(rel_path));
        let (package_root, package) = match package_top {
            Some(top) => {
                let top_dir = repo.join(top);
                let parent = top_dir.parent().unwrap_or(repo).to_path_buf();
                let package = file_dir
                    .strip_prefix(&parent)
                    .ok()
                    .and_then(|p| p.to_str())
                    .map(|p| p.replace(['/', '\\'], "."))
                    .unwrap_or_default();
                (Some(parent), package)
            }
            None => (None, String::new()),
        };
        let roots = roots.into_iter().map(|(dir, names)| Root {
            dir: search_folder(repo, &dir),
            boundary: repo.to_path_buf(),
            names: Some(names),
            installed: None,
        });
        ImportSearch {
            roots: dedup_roots(roots),
            package,
            package_root,
            file_dir: Some(file_dir),
        }
    }

    /// A search of installed packages only (the file's own project is not read).
    pub fn installed_only(python_path: &[SitePackages]) -> ImportSearch {
        ImportSearch {
            roots: Vec::new(),
            package: String::new(),
            package_root: None,
            file_dir: None,
        }
        .with_installed(python_path)
    }

    /// This search, then the installed packages in `python_path` (folders that do not
    /// exist are left out; the caller checks what the user named).
    pub fn with_installed(mut self, python_path: &[SitePackages]) -> ImportSearch {
        for packages in python_path {
            if let Ok(dir) = packages.dir.canonicalize() {
                if !self.roots.iter().any(|r| r.dir == dir) {
                    self.roots.push(Root {
                        boundary: dir.clone(),
                        dir,
                        names: None,
                        installed: Some(packages.clone()),
                    });
                }
            }
        }
        self
    }

    /// The absolute name of `from <dots><module> import ...` written in `package`.
    pub fn absolute(package: &str, level: u32, module: &str) -> Option<String> {
        if level == 0 {
            return Some(module.to_string());
        }
        let mut parts: Vec<&str> = if package.is_empty() {
            Vec::new()
        } else {
            package.split('.').collect()
        };
        for _ in 1..level {
            parts.pop()?;
        }
        if parts.is_empty() && module.is_empty() {
            return None;
        }
        if !module.is_empty() {
            parts.push(module);
        }
        Some(parts.join("."))
    }

    /// The name a relative import resolves to: `absolute`, looked up only in `root` (the
    /// search folder the importing module was found in).
    pub fn located(root: &Path, absolute: &str) -> String {
        format!("{}{LOCATED}{absolute}", root.display())
    }

    /// The Python name of a module name (without the folder of a relative import).
    pub fn python_name(name: &str) -> &str {
        name.rsplit_once(LOCATED).map_or(name, |(_, n)| n)
    }

    /// The parsed module `name`, if it is a file of the project or an installed package.
    pub fn load(&self, name: &str) -> Option<Rc<SourceModule>> {
        let (only, name) = match name.split_once(LOCATED) {
            Some((root, n)) => (Some(PathBuf::from(root)), n),
            None => (None, name),
        };
        if name.is_empty() || name == "torch" || name.starts_with("torch.") {
            return None;
        }
        let top = name.split('.').next().unwrap_or(name);
        let rel: PathBuf = name.split('.').collect();
        for root in &self.roots {
            match &only {
                Some(dir) if *dir != root.dir => continue,
                Some(_) => {}
                None if root.names.as_ref().is_some_and(|n| !n.contains(top)) => continue,
                None => {}
            }
            if let Some(packages) = &root.installed {
                if is_modelled(name) || !packages.reads(top) {
                    continue;
                }
            }
            for (candidate, is_package) in [
                (root.dir.join(&rel).with_extension("py"), false),
                (root.dir.join(&rel).join("__init__.py"), true),
            ] {
                if let Some(m) = self.parse_cached(&candidate, root, name, is_package) {
                    return Some(m);
                }
            }
        }
        None
    }

    /// The module at `path` (under `root`) imported as `name`, parsed once per thread.
    fn parse_cached(
        &self,
        path: &Path,
        root: &Root,
        name: &str,
        is_package: bool,
    ) -> Option<Rc<SourceModule>> {
        let key = (path.to_path_buf(), name.to_string(), root.dir.clone());
        let hit = CACHE.with(|c| {
            let mut c = c.borrow_mut();
            let file = c.files;
            c.modules.get_mut(&key).map(|entry| {
                entry.used = file;
                entry.module.clone()
            })
        });
        if let Some(hit) = hit {
            return hit;
        }
        let read = self.read(path, root);
        let bytes = read.as_ref().map_or(0, |(_, text)| 2 * text.len());
        let parsed = read.map(|(ast, text)| {
            let package = if is_package {
                name
            } else {
                name.rsplit_once('.').map_or("", |(p, _)| p)
            };
            Rc::new(SourceModule {
                package: package.to_string(),
                root: root.dir.clone(),
                path: path.to_path_buf(),
                installed: root.installed.is_some(),
                text,
                ast,
                definitions: Default::default(),
            })
        });
        CACHE.with(|c| {
            let mut c = c.borrow_mut();
            c.bytes += bytes;
            let used = c.files;
            let module = parsed.clone();
            c.modules.insert(
                key,
                Cached {
                    module,
                    bytes,
                    used,
                },
            );
        });
        parsed
    }

    /// Before a file's analysis: a full cache of parsed modules forgets the modules the
    /// latest files did not use, with the summaries holding one of them (they keep their
    /// modules' trees alive). Never during one file: a module parsed again there would be a
    /// second tree beside the first, its classes and functions other objects, and what the
    /// file finds would depend on which files its thread analysed before. Between files,
    /// what the cache holds changes no result, only how much is parsed and loaded again.
    pub fn start_file() {
        let forgotten = CACHE.with(|c| c.borrow_mut().next_file(CACHE_BYTES));
        if !forgotten.is_empty() {
            super::summaries::forget_holding(&forgotten);
        }
    }

    /// The parsed file and its size, when it is a readable Python file of bounded size that
    /// stays under the root's folder and boundary once symlinks are resolved.
    fn read(&self, path: &Path, root: &Root) -> Option<(ModModule, String)> {
        let meta = std::fs::metadata(path).ok()?;
        if !meta.is_file() || meta.len() > MAX_MODULE_BYTES {
            return None;
        }
        let real = path.canonicalize().ok()?;
        if !real.starts_with(&root.dir) || !real.starts_with(&root.boundary) {
            return None;
        }
        let text = String::from_utf8(std::fs::read(&real).ok()?).ok()?;
        let ast = crate::frontend::parse_python(&text).ok()?;
        Some((ast, text))
    }
}

/// Roots in order, each folder once.
fn dedup_roots(roots: impl Iterator<Item = Root>) -> Vec<Root> {
    let mut out: Vec<Root> = Vec::new();
    for r in roots {
        if !out.iter().any(|o| o.dir == r.dir) {
            out.push(r);
        }
    }
    out
}

/// The folder above the package chain that holds `dir` (climbing from `start`, never above
/// `boundary`) and the dotted package name of `dir` below it; `(None, "")` outside packages
/// or when the boundary cuts the chain (relative names would not be reliable).
fn package_chain(start: &Path, dir: &Path, boundary: &Path) -> (Option<PathBuf>, String) {
    let mut top = start.to_path_buf();
    if !top.join("__init__.py").is_file() {
        return (None, String::new());
    }
    while let Some(parent) = top.parent() {
        if !parent.starts_with(boundary) || !parent.join("__init__.py").is_file() {
            break;
        }
        top = parent.to_path_buf();
    }
    let Some(root) = top.parent().filter(|p| p.starts_with(boundary)) else {
        return (None, String::new());
    };
    if root.join("__init__.py").is_file() {
        return (None, String::new());
    }
    let package = dir
        .strip_prefix(root)
        .ok()
        .and_then(|p| p.to_str())
        .map(|p| p.replace(['/', '\\'], "."))
        .unwrap_or_default();
    (Some(root.to_path_buf()), package)
}

#[derive(Default)]
struct Cache {
    modules: HashMap<(PathBuf, String, PathBuf), Cached>,
    bytes: usize,
    /// Files started on this thread: when each module was last used.
    files: usize,
}

struct Cached {
    module: Option<Rc<SourceModule>>,
    bytes: usize,
    /// The last file that used it (`Cache::files` then).
    used: usize,
}

impl Cache {
    /// Starts the next file. Over `limit`, keeps the modules used last, up to half of it
    /// (ties in the order of their keys, so the choice does not depend on hashing), and
    /// returns the addresses of the modules forgotten.
    fn next_file(&mut self, limit: usize) -> std::collections::HashSet<*const SourceModule> {
        self.files += 1;
        let mut forgotten = std::collections::HashSet::new();
        if self.bytes <= limit {
            return forgotten;
        }
        let mut order: Vec<_> = self.modules.iter().map(|(k, e)| (e.used, k)).collect();
        order.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(b.1)));
        let mut kept = 0;
        let mut gone = Vec::new();
        for (_, key) in order {
            let bytes = self.modules[key].bytes;
            if gone.is_empty() && kept + bytes <= limit / 2 {
                kept += bytes;
            } else {
                gone.push(key.clone());
            }
        }
        for key in gone {
            if let Some(module) = self.modules.remove(&key).and_then(|e| e.module) {
                forgotten.insert(Rc::as_ptr(&module));
            }
        }
        self.bytes = kept;
        forgotten
    }
}

thread_local! {
    static CACHE: RefCell<Cache> = RefCell::new(Cache::default());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_search_folder_is_spelled_one_way() {
        // The repository itself (`""`) and its package root reach one module under one name.
        let repo = Path::new("/r/repo");
        let top = search_folder(repo, "");
        assert_eq!(top.to_str(), Some("/r/repo"));
        assert_eq!(
            ImportSearch::located(&top, "pkg.layers"),
            ImportSearch::located(repo, "pkg.layers")
        );
        assert_eq!(search_folder(repo, "src").to_str(), Some("/r/repo/src"));
    }

    #[test]
    fn relative_names_resolve_against_the_package() {
        assert_eq!(
            ImportSearch::absolute("a.b", 1, "c").as_deref(),
            Some("a.b.c")
        );
        assert_eq!(
            ImportSearch::absolute("a.b", 2, "c").as_deref(),
            Some("a.c")
        );
        assert_eq!(ImportSearch::absolute("a.b", 2, "").as_deref(), Some("a"));
        assert_eq!(ImportSearch::absolute("a", 3, "c"), None);
        assert_eq!(ImportSearch::absolute("", 0, "x.y").as_deref(), Some("x.y"));
    }

    #[test]
    fn installed_folders_come_after_the_project_and_skip_modelled_packages() {
        let dir = tempfile::tempdir().unwrap();
        let site = dir.path().join("site");
        let proj = dir.path().join("proj");
        for p in ["numpy", "vision/transforms", "vision/models"] {
            std::fs::create_dir_all(site.join(p)).unwrap();
        }
        std::fs::create_dir_all(&proj).unwrap();
        for p in ["numpy", "vision", "vision/models"] {
            std::fs::write(site.join(p).join("__init__.py"), "x = 1\n").unwrap();
        }
        std::fs::write(site.join("helper.py"), "where = 'site'\n").unwrap();
        std::fs::write(proj.join("helper.py"), "where = 'proj'\n").unwrap();
        std::fs::write(proj.join("main.py"), "").unwrap();
        let packages = crate::corpus::installed::SitePackages::read(&site);
        let search = ImportSearch::for_file(&proj.join("main.py"), &proj)
            .unwrap()
            .with_installed(std::slice::from_ref(&packages));
        assert!(search.load("vision.models").is_some());
        assert!(search.load("numpy").is_none(), "modelled by its API");
        let helper = search.load("helper").unwrap();
        assert!(
            format!("{:?}", helper.ast.body[0]).contains("proj"),
            "the project's module shadows the installed one"
        );
        assert!(is_modelled("torchvision.transforms.v2"));
        assert!(!is_modelled("torchvision.models"));
        assert!(!is_modelled("numpyro"));
    }

    #[test]
    fn a_full_cache_forgets_what_recent_files_did_not_use_between_files_never_during_one() {
        let dir = tempfile::tempdir().unwrap();
        let pkg = dir.path().join("pkg");
        std::fs::create_dir_all(&pkg).unwrap();
        std::fs::write(pkg.join("__init__.py"), "").unwrap();
        std::fs::write(pkg.join("layers.py"), "class Mlp: pass\n").unwrap();
        std::fs::write(pkg.join("old.py"), "class Old: pass\n").unwrap();
        std::fs::write(pkg.join("model.py"), "from .layers import Mlp\n").unwrap();
        let search = ImportSearch::for_file(&pkg.join("model.py"), dir.path()).unwrap();
        ImportSearch::start_file();
        let old = search.load("pkg.old").unwrap();
        ImportSearch::start_file();
        let first = search.load("pkg.layers").unwrap();
        // Full: the module the latest file used fits in half the limit, the older one not.
        let latest: usize = CACHE.with(|c| {
            let c = c.borrow();
            c.modules
                .values()
                .filter(|e| e.used == c.files)
                .map(|e| e.bytes)
                .sum()
        });
        let limit = 2 * latest;
        CACHE.with(|c| c.borrow_mut().bytes = limit + 1);
        let again = search.load("pkg.layers").unwrap();
        assert!(
            Rc::ptr_eq(&first, &again),
            "one tree per module within a file"
        );
        let forgotten = CACHE.with(|c| c.borrow_mut().next_file(limit));
        assert!(
            forgotten.contains(&Rc::as_ptr(&old)),
            "the older module is forgotten"
        );
        assert!(!forgotten.contains(&Rc::as_ptr(&first)));
        let next_file = search.load("pkg.layers").unwrap();
        assert!(Rc::ptr_eq(&first, &next_file), "kept for the next file");
        let old_again = search.load("pkg.old").unwrap();
        assert!(!Rc::ptr_eq(&old, &old_again), "parsed again");
        assert!(CACHE.with(|c| c.borrow().bytes) <= limit);
    }

    #[test]
    fn modules_are_found_in_the_package_and_next_to_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let pkg = dir.path().join("proj/pkg");
        std::fs::create_dir_all(pkg.join("sub")).unwrap();
        std::fs::write(pkg.join("__init__.py"), "").unwrap();
        std::fs::write(pkg.join("sub/__init__.py"), "from .layers import Mlp\n").unwrap();
        std::fs::write(pkg.join("sub/layers.py"), "class Mlp: pass\n").unwrap();
        std::fs::write(pkg.join("model.py"), "from .sub import Mlp\n").unwrap();
        std::fs::write(pkg.join("big.py"), "x = 1\n".repeat(100_000)).unwrap();
        let search = ImportSearch::for_file(&pkg.join("model.py"), dir.path()).unwrap();
        assert_eq!(search.package, "pkg");
        let sub = search.load("pkg.sub").expect("a package's __init__");
        assert_eq!(sub.package, "pkg.sub");
        let layers = search.load("pkg.sub.layers").expect("a module");
        assert_eq!(layers.package, "pkg.sub");
        assert!(search.load("pkg.missing").is_none());
        assert!(search.load("pkg.big").is_none(), "too large");
        assert!(search.load("torch.nn").is_none());
        // The boundary: nothing above it is read, and the package above it is not used.
        let inner = ImportSearch::for_file(&pkg.join("model.py"), &pkg).unwrap();
        assert_eq!(inner.package, "");
        assert!(inner.load("sub.layers").is_some(), "next to the file");
        assert!(inner.load("pkg.sub").is_none());
    }
}
