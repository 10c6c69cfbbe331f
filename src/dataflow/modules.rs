//! Module resolution as a join over the corpus: every Python file publishes the top-level
//! names it provides below each folder above it (`resolve::layout::provided`) and every
//! `__init__.py` its package folder; every file asks for its search folders in Python's order
//! (`resolve::layout::search_roots`, which needs the file's package chain: a join of its
//! folders with the package folders). Joining the requests with the published names gives
//! each file its [`ImportContext`]: the folders it imports from, in order, each with the names
//! it provides. Where a file or folder lives, and on which worker, changes nothing: the
//! contexts are functions of the set of walked paths.

use std::collections::{BTreeMap, BTreeSet};
use std::hash::{Hash, Hasher};
use std::path::Path;
use std::sync::Arc;

use differential_dataflow::VecCollection;
use serde::{Deserialize, Serialize};

use crate::corpus::installed::SitePackages;
use crate::eval::imports::ImportSearch;
use crate::resolve::layout::{folder, package_top, provided, search_roots};

/// A file of the corpus: its repository folder and its `path` column.
pub type FileKey = (String, String);

/// Where a file's imports resolve.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct ImportContext {
    /// The outermost folder of the file's package chain, when it is in a package.
    pub package_top: Option<String>,
    /// The search folders in order, each with the top-level names it provides (repository
    /// relative; folders that provide nothing are left out).
    pub roots: Vec<(String, Vec<String>)>,
}

impl ImportContext {
    /// A digest of what the file's imports resolve to, as seen from its folder: for each
    /// top-level name it imports, the folder providing it, and with relative imports its
    /// package chain. Identical files whose imports resolve alike are analysed once; the same
    /// content importing from different places, separately. (What the imported files
    /// contain is not part of it: the scan adds its repository's content, see
    /// [`ImportContext::imports_within`].)
    pub fn digest(&self, repo_path: &str, imported: &[String], relative: bool) -> u64 {
        let here = folder(repo_path);
        let mut h = std::collections::hash_map::DefaultHasher::new();
        for name in imported {
            let root = self
                .roots
                .iter()
                .find(|(_, names)| names.binary_search(name).is_ok())
                .map(|(root, _)| relative_to(here, root));
            (name, root).hash(&mut h);
        }
        if relative {
            self.package_top
                .as_deref()
                .map(|top| relative_to(here, top))
                .hash(&mut h);
        }
        h.finish()
    }

    /// Whether an import of the file resolves inside its repository (a name some search
    /// folder provides, or a relative import in a package): then what it analyses depends on
    /// other files' content, not only on its own.
    pub fn imports_within(&self, imported: &[String], relative: bool) -> bool {
        (relative && self.package_top.is_some())
            || imported.iter().any(|name| {
                self.roots
                    .iter()
                    .any(|(_, names)| names.binary_search(name).is_ok())
            })
    }

    /// The import search of the file at `repo_path` in `repo_dir`, installed packages last.
    pub fn search(
        &self,
        repo_dir: &Path,
        repo_path: &str,
        installed: &[SitePackages],
    ) -> ImportSearch {
        let roots = self
            .roots
            .iter()
            .map(|(dir, names)| (dir.clone(), Arc::new(names.iter().cloned().collect())))
            .collect();
        ImportSearch::for_layout(repo_dir, repo_path, roots, self.package_top.as_deref())
            .with_installed(installed)
    }
}

/// `dir` written relative to `from` (both repository-relative folders).
fn relative_to(from: &str, dir: &str) -> String {
    let split = |d: &str| -> Vec<String> {
        d.split('/')
            .filter(|p| !p.is_empty())
            .map(str::to_string)
            .collect()
    };
    let (a, b) = (split(from), split(dir));
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut out: Vec<String> = vec!["..".to_string(); a.len() - common];
    out.extend(b[common..].iter().cloned());
    out.join("/")
}

/// The folders above a repository path, innermost first (the repository folder excluded).
fn folders_above(repo_path: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut dir = folder(repo_path);
    while !dir.is_empty() {
        out.push(dir.to_string());
        dir = folder(dir);
    }
    out
}

/// What a file's search depends on: its own path, or a package folder above it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
enum Chain {
    Path(String),
    Package(String),
}

/// One input of a file's context.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
enum Part {
    /// The file's package chain top and search folders in order (every file has one).
    Roots(Option<String>, Vec<String>),
    /// A name provided by the search folder at this position.
    Name(usize, String),
}

/// The import context of every file; `files` are (file, repository path) pairs.
pub fn import_contexts<'s>(
    files: VecCollection<'s, u32, (FileKey, String), isize>,
) -> VecCollection<'s, u32, (FileKey, ImportContext), isize> {
    let names = files
        .clone()
        .flat_map(|((repo, _), rel)| {
            provided(&rel)
                .into_iter()
                .map(move |(root, name)| ((repo.clone(), root), name))
        })
        .distinct();
    let packages = files
        .clone()
        .flat_map(|((repo, _), rel)| {
            let init = rel == "__init__.py" || rel.ends_with("/__init__.py");
            (init && !folder(&rel).is_empty()).then(|| (repo, folder(&rel).to_string()))
        })
        .distinct();
    // The package folders above each file give its package chain, and so its search folders.
    let above = files
        .clone()
        .flat_map(|(key, rel)| {
            folders_above(&rel)
                .into_iter()
                .map(move |dir| ((key.0.clone(), dir), key.clone()))
        })
        .semijoin(packages)
        .map(|((_, dir), key)| (key, Chain::Package(dir)));
    let searches = files
        .map(|(key, rel)| (key, Chain::Path(rel)))
        .concat(above)
        .reduce(
            |_key, parts: &[(&Chain, isize)], out: &mut Vec<(Part, isize)>| {
                let mut rel = "";
                let mut packages = BTreeSet::new();
                for (part, _) in parts {
                    match part {
                        Chain::Path(p) => rel = p,
                        Chain::Package(d) => {
                            packages.insert(d.as_str());
                        }
                    }
                }
                let top = package_top(rel, |d| packages.contains(d));
                let roots = search_roots(rel, top.as_deref(), true);
                out.push((Part::Roots(top, roots), 1));
            },
        );
    // Each search folder joined with the names it provides.
    let provided_names = searches
        .clone()
        .flat_map(|(key, part)| match part {
            Part::Roots(_, roots) => roots
                .into_iter()
                .enumerate()
                .map(|(i, root)| ((key.0.clone(), root), (key.clone(), i)))
                .collect(),
            Part::Name(..) => Vec::new(),
        })
        .join_map(names, |_, (key, i), name| {
            (key.clone(), Part::Name(*i, name.clone()))
        });
    searches.concat(provided_names).reduce(
        |_key, parts: &[(&Part, isize)], out: &mut Vec<(ImportContext, isize)>| {
            let mut top = None;
            let mut order: Vec<String> = Vec::new();
            let mut found: BTreeMap<usize, Vec<String>> = BTreeMap::new();
            for (part, _) in parts {
                match part {
                    Part::Roots(t, roots) => {
                        top = t.clone();
                        order = roots.clone();
                    }
                    Part::Name(i, name) => found.entry(*i).or_default().push(name.clone()),
                }
            }
            let roots = found
                .into_iter()
                .filter_map(|(i, names)| order.get(i).map(|root| (root.clone(), names)))
                .collect();
            out.push((
                ImportContext {
                    package_top: top,
                    roots,
                },
                1,
            ));
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_are_written_relative_to_the_file() {
        assert_eq!(relative_to("a/b", ""), "../..");
        assert_eq!(relative_to("a/b", "a/c"), "../c");
        assert_eq!(relative_to("", "src"), "src");
        assert_eq!(folders_above("a/b/c.py"), vec!["a/b", "a"]);
    }

    #[test]
    fn digests_depend_on_where_imported_names_resolve() {
        let ctx = |root: &str| ImportContext {
            package_top: None,
            roots: vec![(root.to_string(), vec!["model".to_string()])],
        };
        let torch_only = ["torch".to_string()];
        let model = ["model".to_string(), "torch".to_string()];
        // Importing only what no folder provides: the same wherever the file is.
        assert_eq!(
            ctx("a").digest("a/x.py", &torch_only, false),
            ctx("b/c").digest("b/c/x.py", &torch_only, false)
        );
        // A fork laid out alike, and another layout.
        assert_eq!(
            ctx("a").digest("a/x.py", &model, false),
            ctx("b").digest("b/x.py", &model, false)
        );
        assert_ne!(
            ctx("a").digest("a/x.py", &model, false),
            ctx("").digest("a/x.py", &model, false)
        );
    }

    /// The contexts of a small repository computed by the dataflow: a script, a package, a
    /// test folder named like the package.
    #[test]
    fn contexts_follow_the_search_order_and_packages() {
        let files = [
            "train.py",
            "mylib/__init__.py",
            "mylib/layers.py",
            "tests/mylib/__init__.py",
            "tests/mylib/test_layers.py",
            "notebooks/demo.ipynb",
        ];
        let got = std::sync::Arc::new(std::sync::Mutex::new(BTreeMap::new()));
        let sink = got.clone();
        timely::execute_directly(move |worker| {
            let mut input = worker.dataflow::<u32, _, _>(|scope| {
                use differential_dataflow::input::Input;
                let (input, files) = scope.new_collection::<(FileKey, String), isize>();
                let sink = sink.clone();
                import_contexts(files).inspect(move |((key, ctx), _, _)| {
                    sink.lock().unwrap().insert(key.1.clone(), ctx.clone());
                });
                input
            });
            for f in files {
                input.insert((("repo".to_string(), f.to_string()), f.to_string()));
            }
        });
        let got = got.lock().unwrap();
        let roots = |path: &str| -> Vec<(String, Vec<String>)> { got[path].roots.clone() };
        // The script sees its own folder (the repository folder): the package, the folder
        // of Python files, itself; a folder of notebooks only is nothing to import.
        assert_eq!(
            roots("train.py"),
            vec![(
                "".to_string(),
                vec!["mylib".into(), "tests".into(), "train".into()]
            )]
        );
        // The test sees the real package before its own chain's folder (`tests`).
        let test = &got["tests/mylib/test_layers.py"];
        assert_eq!(test.package_top.as_deref(), Some("tests/mylib"));
        let order: Vec<&str> = test.roots.iter().map(|(r, _)| r.as_str()).collect();
        assert_eq!(order, vec!["tests/mylib", "", "tests"]);
        assert_eq!(got["mylib/layers.py"].package_top.as_deref(), Some("mylib"));
        assert!(got.contains_key("notebooks/demo.ipynb"));
    }
}
