//! SARIF 2.1.0 for `shapehound check --format sarif`: what GitHub code scanning reads. The
//! log passes the SARIF multitool's rules (`validate --rule-kind "Sarif;Gh"`) and the OASIS
//! schema (`scripts/validate_sarif.py`, in CI): rules with full help, one invocation whose
//! notifications are the files that could not be analysed, and artifact URIs relative to
//! `%SRCROOT%`.

use std::path::{Component, Path, PathBuf};

use serde_json::{json, Value as Json};

use super::explain;
use super::render::{problem_code, FileFindings, Problem, PROBLEM_KINDS};
use super::{FindingKind, Span};

const SRCROOT: &str = "%SRCROOT%";
const DOCS: &str = "https://github.com/shapehound/shapehound/blob/main/docs/findings.md";

/// `feature-mismatch` → `FeatureMismatch`: a rule's friendly name, distinct from its id.
pub fn pascal_case(code: &str) -> String {
    code.split('-')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().chain(c).collect::<String>())
                .unwrap_or_default()
        })
        .collect()
}

/// Text ending as a sentence (SARIF2001: messages end with a period).
fn sentence(s: &str) -> String {
    let t = s.trim_end();
    if t.ends_with(['.', '!', '?']) {
        t.to_string()
    } else {
        format!("{t}.")
    }
}

fn rule(kind: FindingKind) -> Json {
    let section = explain::section(kind);
    let full = explain::plain(section);
    json!({
        "id": kind.code(),
        "name": pascal_case(kind.code()),
        "shortDescription": {"text": sentence(&capitalised(kind.title()))},
        "fullDescription": {"text": sentence(&explain::summary(kind))},
        "help": {
            "text": format!("{}\n\nRun `shapehound explain {}` for this text.", full, kind.code()),
            "markdown": format!("{section}\n\nRun `shapehound explain {}` for this text.", kind.code()),
        },
        "helpUri": format!("{DOCS}#{}", kind.code()),
        "defaultConfiguration": {"level": "error"},
        "properties": {
            "tags": ["correctness", "pytorch", "shapes"],
            "precision": "high",
            "problem.severity": "error",
        },
    })
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// `path` absolute and lexically normal (`.` and `..` resolved without the file system, so
/// symlinked folders keep the name the user gave).
fn absolute(cwd: &Path, path: &str) -> PathBuf {
    let mut out = PathBuf::new();
    for c in cwd.join(path).components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

/// Where relative URIs start: the folder `check` ran from when every path is inside it, else
/// the deepest folder holding them all.
pub fn source_root<'a>(cwd: &Path, paths: impl IntoIterator<Item = &'a str>) -> PathBuf {
    let cwd = absolute(cwd, ".");
    let mut root: Option<PathBuf> = None;
    let mut all_inside = true;
    for p in paths {
        let abs = absolute(&cwd, p);
        all_inside &= abs.starts_with(&cwd);
        let folder = abs.parent().map(Path::to_path_buf).unwrap_or_default();
        root = Some(match root {
            None => folder,
            Some(r) => r
                .components()
                .zip(folder.components())
                .take_while(|(a, b)| a == b)
                .map(|(a, _)| a)
                .collect(),
        });
    }
    match root {
        Some(r) if !all_inside => r,
        _ => cwd,
    }
}

/// Paths as URIs relative to `%SRCROOT%`, whose own URI the log carries.
pub struct Uris {
    cwd: PathBuf,
    root: PathBuf,
}

impl Uris {
    pub fn new<'a>(cwd: &Path, paths: impl IntoIterator<Item = &'a str>) -> Uris {
        let root = source_root(cwd, paths);
        Uris {
            cwd: cwd.to_path_buf(),
            root,
        }
    }

    /// `file:///abs/root/`, percent-encoded, with the trailing slash URI resolution needs.
    pub fn root_uri(&self) -> String {
        let mut text = self.root.to_string_lossy().into_owned();
        if !text.ends_with('/') {
            text.push('/');
        }
        format!("file://{}", uri_reference(&text))
    }

    /// The path's location relative to `%SRCROOT%`.
    pub fn relative(&self, path: &str) -> String {
        let abs = absolute(&self.cwd, path);
        match abs.strip_prefix(&self.root) {
            Ok(rel) => rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/"),
            // Unreachable (the root holds every path); still a usable location.
            Err(_) => abs.to_string_lossy().into_owned(),
        }
    }

    /// Relative to the root when inside it (GitHub reads paths from the checkout), else as
    /// given.
    pub fn relative_or_given(&self, path: &str) -> String {
        if absolute(&self.cwd, path).starts_with(&self.root) {
            self.relative(path)
        } else {
            path.to_string()
        }
    }

    fn location(&self, path: &str) -> Json {
        json!({"uri": uri_reference(&self.relative(path)), "uriBaseId": SRCROOT})
    }
}

/// Every path the log will name: the findings' files, their related locations', the
/// problems'.
fn named_paths<'a>(files: &'a [FileFindings<'_>], problems: &'a [Problem]) -> Vec<&'a str> {
    let mut paths: Vec<&str> = Vec::new();
    for f in files {
        paths.push(f.path);
        for x in f.findings {
            paths.extend(x.related.iter().filter_map(|r| r.path.as_deref()));
        }
    }
    paths.extend(problems.iter().map(|p| p.path.as_str()));
    paths
}

/// A SARIF 2.1.0 log with one run, one rule per finding kind, and one invocation:
/// `exit_code` is the process's, `cwd` where it ran (relative paths start there).
pub fn sarif(
    files: &[FileFindings<'_>],
    problems: &[Problem],
    cwd: &Path,
    exit_code: i32,
) -> String {
    let uris = Uris::new(cwd, named_paths(files, problems));
    let rules: Vec<Json> = FindingKind::ALL.iter().map(|k| rule(*k)).collect();
    let notification_rules: Vec<Json> = PROBLEM_KINDS
        .iter()
        .map(|(status, text)| {
            let code = problem_code(*status);
            let mut name = pascal_case(code);
            // The multitool compares a name to its id ignoring case.
            if name.eq_ignore_ascii_case(code) {
                name.insert_str(0, "File");
            }
            json!({
                "id": code,
                "name": name,
                "shortDescription": {"text": text},
                "fullDescription": {"text": text},
                "help": {"text": text, "markdown": text},
                "helpUri": format!("{DOCS}#files-that-cannot-be-analysed"),
                "defaultConfiguration": {"level": if status.is_error() { "error" } else { "warning" }},
            })
        })
        .collect();
    let region = |s: &Span| {
        json!({
            "startLine": s.line,
            "startColumn": s.column,
            "endLine": s.end_line,
            "endColumn": s.end_column,
        })
    };
    let results: Vec<Json> = files
        .iter()
        .flat_map(|f| {
            let uris = &uris;
            f.findings.iter().map(move |x| {
                let mut text = sentence(&x.message);
                if let Some(w) = &x.witness {
                    text.push_str(&format!(" Fails for: {w}."));
                }
                let mut result = json!({
                    "ruleId": x.kind.code(),
                    "ruleIndex": FindingKind::ALL.iter().position(|k| *k == x.kind).unwrap_or(0),
                    "level": x.severity.name(),
                    "message": {"text": text},
                    "locations": [{
                        "physicalLocation": {
                            "artifactLocation": uris.location(f.path),
                            "region": region(&x.span),
                        }
                    }],
                    "relatedLocations": x.related.iter().enumerate().map(|(i, r)| json!({
                        "id": i,
                        "message": {"text": sentence(&r.label)},
                        "physicalLocation": {
                            "artifactLocation": uris.location(r.path.as_deref().unwrap_or(f.path)),
                            "region": region(&r.span),
                        }
                    })).collect::<Vec<_>>(),
                    "partialFingerprints": {"shapehound/v1": x.id},
                });
                // Suppressed findings stay in the log, marked, as code scanning expects.
                if x.suppressed {
                    result["suppressions"] = json!([{"kind": "inSource"}]);
                }
                if let Some(state) = &x.baseline {
                    result["baselineState"] = json!(state);
                }
                result
            })
        })
        .collect();
    let notifications: Vec<Json> = problems
        .iter()
        .map(|p| {
            let mut physical = json!({"artifactLocation": uris.location(&p.path)});
            if let Some(line) = p.line {
                let mut region = json!({"startLine": line});
                if let Some(column) = p.column {
                    region["startColumn"] = json!(column);
                }
                physical["region"] = region;
            }
            json!({
                "level": p.level(),
                "message": {"text": sentence(&p.message)},
                "descriptor": {
                    "id": p.code(),
                    "index": PROBLEM_KINDS.iter().position(|(s, _)| *s == p.status).unwrap_or(0),
                },
                "locations": [{"physicalLocation": physical}],
            })
        })
        .collect();
    let doc = json!({
        "$schema": "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "shapehound",
                "version": env!("CARGO_PKG_VERSION"),
                "semanticVersion": env!("CARGO_PKG_VERSION"),
                "informationUri": "https://github.com/shapehound/shapehound",
                "rules": rules,
                "notifications": notification_rules,
            }},
            // The analysis ran to its end: files it could not read are notifications, and
            // make the exit code 1 when they are errors.
            "invocations": [{
                "executionSuccessful": true,
                "exitCode": exit_code,
                "toolExecutionNotifications": notifications,
            }],
            "originalUriBaseIds": {SRCROOT: {"uri": uris.root_uri()}},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    });
    serde_json::to_string_pretty(&doc).unwrap_or_default()
}

/// A path as a relative URI reference (RFC 3986): every byte outside the unreserved set and
/// `/` is percent-encoded, so spaces, `#`, `?`, `%` and non-ASCII names make valid SARIF
/// `uri`s that decode back to the path.
pub fn uri_reference(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sarif_uris_are_percent_encoded() {
        assert_eq!(uri_reference("src/model.py"), "src/model.py");
        assert_eq!(
            uri_reference("my dir/a#b?c%d.py"),
            "my%20dir/a%23b%3Fc%25d.py"
        );
        assert_eq!(uri_reference("modèle.py"), "mod%C3%A8le.py");
    }

    #[test]
    fn rule_names_are_pascal_case() {
        assert_eq!(pascal_case("feature-mismatch"), "FeatureMismatch");
        assert_eq!(pascal_case("index-out-of-bounds"), "IndexOutOfBounds");
        assert_eq!(sentence("no period"), "no period.");
        assert_eq!(sentence("done."), "done.");
    }

    #[test]
    fn uris_are_relative_to_the_working_folder_or_the_common_root() {
        let cwd = Path::new("/work/proj");
        let inside = Uris::new(cwd, ["src/a.py", "./b.py", "/work/proj/c d/e.py"]);
        assert_eq!(inside.root_uri(), "file:///work/proj/");
        assert_eq!(inside.relative("src/../src/a.py"), "src/a.py");
        assert_eq!(inside.relative("/work/proj/c d/e.py"), "c d/e.py");
        let outside = Uris::new(cwd, ["/tmp/x y/pkg/a.py", "/tmp/x y/b.py"]);
        assert_eq!(outside.root_uri(), "file:///tmp/x%20y/");
        assert_eq!(outside.relative("/tmp/x y/pkg/a.py"), "pkg/a.py");
        let none = Uris::new(cwd, []);
        assert_eq!(none.root_uri(), "file:///work/proj/");
        let above = Uris::new(cwd, ["../other/a.py"]);
        assert_eq!(above.root_uri(), "file:///work/other/");
        assert_eq!(above.relative("../other/a.py"), "a.py");
    }
}
