//! What a file is for in its repository, and which release a repository is: the columns an
//! operator-frequency study filters and groups by (`role`, `repo_name`, `repo_version`).
//! Both are read from names alone, by the documented rules below, so they are the same on
//! any machine and for any worker count.

/// A file's role (`files.role`, `op_calls.role`, `op_counts.role`).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum FileRole {
    Library,
    Test,
    Example,
    Docs,
    Notebook,
}

/// Folder names of each role other than the library (lowercase).
const TEST_FOLDERS: &[&str] = &["test", "tests", "testing", "unittest", "unittests"];
const DOCS_FOLDERS: &[&str] = &["doc", "docs", "documentation", "docs_src", "sphinx"];
const EXAMPLE_FOLDERS: &[&str] = &[
    "example",
    "examples",
    "demo",
    "demos",
    "tutorial",
    "tutorials",
    "sample",
    "samples",
    "notebooks",
];

impl FileRole {
    /// The role of the file at `path` (relative to its repository, `/`-separated):
    ///
    /// 1. a notebook (`.ipynb`, case ignored) is `notebook`;
    /// 2. else the outermost folder of the path named for a role decides it: `test`, `tests`,
    ///    `testing`, `unittest(s)` → `test`; `doc(s)`, `documentation`, `docs_src`, `sphinx`
    ///    → `docs`; `example(s)`, `demo(s)`, `tutorial(s)`, `sample(s)`, `notebooks` →
    ///    `example` (case ignored);
    /// 3. else a file named `test_*.py`, `*_test.py`, `*_tests.py` or `conftest.py` is `test`;
    /// 4. else `library`.
    pub fn of(path: &str) -> FileRole {
        let mut parts: Vec<&str> = path.split('/').collect();
        let file = parts.pop().unwrap_or("").to_ascii_lowercase();
        if file.ends_with(".ipynb") {
            return FileRole::Notebook;
        }
        for folder in parts {
            let folder = folder.to_ascii_lowercase();
            let is = |names: &[&str]| names.contains(&folder.as_str());
            if is(TEST_FOLDERS) {
                return FileRole::Test;
            }
            if is(DOCS_FOLDERS) {
                return FileRole::Docs;
            }
            if is(EXAMPLE_FOLDERS) {
                return FileRole::Example;
            }
        }
        let stem = file.strip_suffix(".py").unwrap_or(&file);
        if stem.starts_with("test_")
            || stem.ends_with("_test")
            || stem.ends_with("_tests")
            || stem == "conftest"
        {
            return FileRole::Test;
        }
        FileRole::Library
    }

    pub fn as_str(self) -> &'static str {
        match self {
            FileRole::Library => "library",
            FileRole::Test => "test",
            FileRole::Example => "example",
            FileRole::Docs => "docs",
            FileRole::Notebook => "notebook",
        }
    }
}

/// A repository's name and version from its folder name, as unpacked releases are named
/// (`transformers-5.23.0` → `transformers`, `5.23.0`): the version is what follows the last
/// `-` of the last path component when it starts with a digit and holds only letters, digits,
/// `.`, `+` and `_`. Otherwise the name is the whole repository name and there is no version.
/// A prefix (the root's folder, with several roots) stays in the name.
pub fn release_of(repo: &str) -> (&str, Option<&str>) {
    let last = repo.rsplit('/').next().unwrap_or(repo);
    if let Some(dash) = last.rfind('-') {
        let version = &last[dash + 1..];
        let looks_like = version.starts_with(|c: char| c.is_ascii_digit())
            && version
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '+' | '_'));
        if looks_like && dash > 0 {
            let cut = repo.len() - last.len() + dash;
            return (&repo[..cut], Some(version));
        }
    }
    (repo, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_follow_the_documented_rules() {
        let cases = [
            ("src/pkg/layers.py", "library"),
            ("tests/test_layers.py", "test"),
            ("pkg/tests/helpers.py", "test"),
            ("pkg/layers_test.py", "test"),
            ("conftest.py", "test"),
            ("docs/source/conf.py", "docs"),
            ("Examples/train.py", "example"),
            // The outermost named folder decides.
            ("examples/tests/run.py", "example"),
            ("tests/examples/run.py", "test"),
            ("examples/test_demo.py", "example"),
            ("notebooks/explore.ipynb", "notebook"),
            ("tests/Explore.IPYNB", "notebook"),
            ("pkg/testing_utils.py", "library"),
            ("pkg/latest.py", "library"),
        ];
        for (path, role) in cases {
            assert_eq!(FileRole::of(path).as_str(), role, "{path}");
        }
    }

    #[test]
    fn releases_split_at_a_version() {
        assert_eq!(
            release_of("transformers-5.23.0"),
            ("transformers", Some("5.23.0"))
        );
        assert_eq!(
            release_of("open_clip_torch-3.3.0"),
            ("open_clip_torch", Some("3.3.0"))
        );
        assert_eq!(
            release_of("torch-2.15.0+cu132"),
            ("torch", Some("2.15.0+cu132"))
        );
        assert_eq!(
            release_of("real/timm-1.0.31"),
            ("real/timm", Some("1.0.31"))
        );
        assert_eq!(release_of("vision_nets"), ("vision_nets", None));
        assert_eq!(release_of("my-project"), ("my-project", None));
        assert_eq!(release_of("-1.0"), ("-1.0", None));
        assert_eq!(release_of("."), (".", None));
    }
}
