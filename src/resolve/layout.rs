//! Where imports of a repository's files lead: which folders are on a file's search path, in
//! Python's order, and which top-level names each folder provides. Pure path arithmetic over
//! repository-relative paths (`/`-separated), shared by `scan` (where the folders' names come
//! from a join over the walked files) and `check` (where they come from the file system), so
//! both resolve alike.
//!
//! A file's search path, as Python's for the file run in place: its own folder (a script's
//! `sys.path[0]`), then the repository's package roots — the repository folder and its
//! `src/` (where a `pip install -e .` puts the packages) — and last the folder above the
//! file's own package chain. So a test folder named like the package (`tests/ignite/` next to
//! `ignite/`) never shadows the package for `import ignite`, while the file's own package is
//! still found when nothing else provides it. Relative imports do not search: they resolve
//! against the folder the importing module lives in.

/// The folder of a repository-relative path (`""` for the repository folder).
pub fn folder(rel_path: &str) -> &str {
    rel_path.rsplit_once('/').map_or("", |(dir, _)| dir)
}

/// Joins a folder and a name (`""` is the repository folder).
pub fn join(dir: &str, name: &str) -> String {
    match dir {
        "" => name.to_string(),
        _ => format!("{dir}/{name}"),
    }
}

/// The path of `rel` (a path relative to the folder of `path`, perhaps with `..`) in the
/// terms `path` is written in: `beside("a/train.py", "../b/x.py")` is `b/x.py`.
pub fn beside(path: &str, rel: &str) -> String {
    let mut parts: Vec<&str> = path.split('/').collect();
    parts.pop();
    for part in rel.split('/') {
        match part {
            ".." if parts.last().is_some_and(|p| *p != "..") => {
                parts.pop();
            }
            "." | "" => {}
            other => parts.push(other),
        }
    }
    parts.join("/")
}

/// Whether `name` can be a component of a module name.
fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_')
}

/// The (folder, top-level name) pairs a Python file provides: for every folder above it in
/// the repository, the first component of its path below that folder, when every component
/// is a valid module name (`a/b/c.py` gives `("", "a")`, `("a", "b")`, `("a/b", "c")`).
/// Notebooks and other files provide nothing.
pub fn provided(rel_path: &str) -> Vec<(String, String)> {
    let Some(stem) = rel_path.strip_suffix(".py") else {
        return Vec::new();
    };
    let parts: Vec<&str> = stem.split('/').collect();
    let mut out = Vec::new();
    for i in 0..parts.len() {
        if !parts[i..].iter().all(|p| is_identifier(p)) {
            continue;
        }
        // `a/__init__.py` provides `a` below the folder above `a`, not `__init__`.
        if i + 1 == parts.len() && parts[i] == "__init__" {
            continue;
        }
        out.push((parts[..i].join("/"), parts[i].to_string()));
    }
    out
}

/// A file's search folders in order (see the module documentation). `package_top` is the
/// outermost folder of the file's package chain (folders holding `__init__.py`), when it is
/// in one; `has_src` says whether the repository has a `src/` folder.
pub fn search_roots(rel_path: &str, package_top: Option<&str>, has_src: bool) -> Vec<String> {
    let mut roots = vec![folder(rel_path).to_string(), String::new()];
    if has_src {
        roots.push("src".to_string());
    }
    if let Some(top) = package_top {
        roots.push(folder(top).to_string());
    }
    let mut seen = std::collections::HashSet::new();
    roots.retain(|r| seen.insert(r.clone()));
    roots
}

/// The outermost folder of the package chain above `rel_path`, given which folders hold an
/// `__init__.py`.
pub fn package_top(rel_path: &str, is_package: impl Fn(&str) -> bool) -> Option<String> {
    let mut dir = folder(rel_path);
    let mut top = None;
    while !dir.is_empty() && is_package(dir) {
        top = Some(dir.to_string());
        dir = folder(dir);
    }
    top
}

/// The top-level module names a source text may import (`import a.b, c as d` gives `a`, `c`;
/// `from x.y import z` gives `x`) and whether it has a relative import, read line by line
/// without parsing (notebooks' JSON included: a statement may start after a quote). It may
/// over-approximate, never miss a plain import statement.
pub fn imported_names(text: &str) -> (std::collections::BTreeSet<String>, bool) {
    let mut names = std::collections::BTreeSet::new();
    let mut relative = false;
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    for line in text.lines() {
        let line = line
            .trim_start()
            .trim_start_matches(['"', '\''])
            .trim_start();
        if let Some(rest) = line.strip_prefix("import ") {
            for part in rest.split(',') {
                let name = ident(part.trim_start());
                if !name.is_empty() {
                    names.insert(name);
                }
            }
        } else if let Some(rest) = line.strip_prefix("from ") {
            let rest = rest.trim_start();
            if rest.starts_with('.') {
                relative = true;
            } else {
                let name = ident(rest);
                if !name.is_empty() {
                    names.insert(name);
                }
            }
        }
    }
    (names, relative)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_provide_their_top_name_below_every_folder_above_them() {
        let names = |p: &str| provided(p);
        assert_eq!(
            names("a/b/c.py"),
            vec![
                ("".into(), "a".into()),
                ("a".into(), "b".into()),
                ("a/b".into(), "c".into())
            ]
        );
        assert_eq!(names("pkg/__init__.py"), vec![("".into(), "pkg".into())]);
        // A component that is not a module name hides what is below it from folders above.
        assert_eq!(names("my-repo/x.py"), vec![("my-repo".into(), "x".into())]);
        assert!(names("nb.ipynb").is_empty());
    }

    #[test]
    fn paths_beside_a_file() {
        assert_eq!(beside("a/train.py", "layers.py"), "a/layers.py");
        assert_eq!(beside("a/b/train.py", "../c/x.py"), "a/c/x.py");
        assert_eq!(beside("train.py", "pkg/x.py"), "pkg/x.py");
        assert_eq!(beside("train.py", "../x.py"), "../x.py");
    }

    #[test]
    fn imported_names_are_read_from_import_lines() {
        let (names, relative) = imported_names(
            "import torch.nn as nn, numpy\nfrom model import Net\n    from .layers import X\n\"import cfg\\n\",\nx = 1  # import nothing\n",
        );
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        assert_eq!(names, vec!["cfg", "model", "numpy", "torch"]);
        assert!(relative);
    }

    #[test]
    fn the_script_folder_comes_first_and_a_tests_package_last() {
        let packages = ["tests/ignite", "tests/ignite/engine", "ignite"];
        let is_pkg = |d: &str| packages.contains(&d);
        let file = "tests/ignite/engine/test_engine.py";
        let top = package_top(file, is_pkg);
        assert_eq!(top.as_deref(), Some("tests/ignite"));
        assert_eq!(
            search_roots(file, top.as_deref(), false),
            vec!["tests/ignite/engine", "", "tests"]
        );
        assert_eq!(search_roots("train.py", None, true), vec!["", "src"]);
        assert_eq!(
            package_top("ignite/x.py", is_pkg).as_deref(),
            Some("ignite")
        );
        assert_eq!(package_top("scripts/run.py", is_pkg), None);
    }
}
