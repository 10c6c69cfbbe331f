//! Diagnostics for `shapehound check`: compiler-style text with code frames, JSON, and
//! SARIF 2.1.0 (what GitHub code scanning reads).

use serde_json::{json, Value as Json};

use super::suppress::{Unused, UNUSED_KIND};
use super::{Finding, Span};
use crate::corpus::FileStatus;

/// One analysed file's findings, with its text for code frames.
pub struct FileFindings<'a> {
    pub path: &'a str,
    pub text: &'a str,
    pub findings: &'a [Finding],
}

/// `s` safe to print on a terminal: control characters (escape sequences, carriage returns,
/// newlines in a file name, C1 controls) are written as Rust escapes (`\u{1b}`), so analysed
/// code and file names can neither forge diagnostic lines nor drive the terminal. Tabs stay.
pub fn printable(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.chars().any(|c| c.is_control() && c != '\t') {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if c.is_control() && c != '\t' {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// A file `check` could not analyse, or analysed only in part: reported in every format,
/// beside the findings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub path: String,
    pub status: FileStatus,
    /// What went wrong, without the path or the position.
    pub message: String,
    /// 1-based, in characters, when the failure has a position (a syntax error).
    pub line: Option<u32>,
    pub column: Option<u32>,
}

/// The problems `check` reports: their code and what the code means.
pub const PROBLEM_KINDS: [(FileStatus, &str); 8] = [
    (FileStatus::ParseError, "The file does not parse as Python."),
    (FileStatus::NotUtf8, "The file is not UTF-8 text."),
    (
        FileStatus::NotebookNotJson,
        "The notebook is not valid JSON.",
    ),
    (FileStatus::Unreadable, "The file could not be read."),
    (
        FileStatus::SkippedNotRegular,
        "Not a regular file (a FIFO, socket or device): never opened.",
    ),
    (
        FileStatus::SkippedTooLarge,
        "Larger than --max-file-size: not read.",
    ),
    (
        FileStatus::OverBudget,
        "Some runs spent their statement budget and prove nothing.",
    ),
    (
        FileStatus::InternalError,
        "shapehound failed while analysing the file.",
    ),
];

/// The problem code of a status (`syntax-error`, `too-large`, ...).
pub fn problem_code(status: FileStatus) -> &'static str {
    match status {
        FileStatus::ParseError => "syntax-error",
        FileStatus::NotUtf8 => "not-utf8",
        FileStatus::NotebookNotJson => "notebook-not-json",
        FileStatus::Unreadable => "unreadable",
        FileStatus::SkippedNotRegular => "not-regular",
        FileStatus::SkippedTooLarge => "too-large",
        FileStatus::OverBudget => "over-budget",
        FileStatus::SkippedSymlink => "symlink",
        FileStatus::ChangedDuringScan => "changed-during-scan",
        FileStatus::InternalError => "internal-error",
        FileStatus::Ok => "ok",
    }
}

impl Problem {
    pub fn code(&self) -> &'static str {
        problem_code(self.status)
    }

    /// An error fails the check (exit 1): the file is not a program Python or Jupyter would
    /// run, or it could not be read, so its bugs cannot be known (as ruff's syntax and I/O
    /// errors). Files skipped by a limit the user sets, runs cut short by a budget and our
    /// own internal errors are warnings: the user's code is not at fault.
    pub fn is_error(&self) -> bool {
        self.status.is_error()
    }

    /// `error` or `warning`, as SARIF and GitHub spell levels.
    pub fn level(&self) -> &'static str {
        if self.is_error() {
            "error"
        } else {
            "warning"
        }
    }
}

/// The stderr line (after `warning: `), as `check` has always printed it.
impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.status == FileStatus::ParseError {
            write!(
                f,
                "{}: syntax error at {}:{}: {}",
                self.path,
                self.line.unwrap_or(0),
                self.column.unwrap_or(0),
                self.message
            )
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

/// ANSI styles for the text format, or none. Only our own markup is painted: analysed text
/// still goes through [`printable`], so no escape sequence comes from a file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Palette {
    pub enabled: bool,
}

const ERROR: &str = "1;31";
const WARNING: &str = "1;33";
const BOLD: &str = "1";
const GUTTER: &str = "1;34";
const PRIMARY: &str = "1;31";
const SECONDARY: &str = "1;34";
const NOTE: &str = "1";

impl Palette {
    pub const PLAIN: Palette = Palette { enabled: false };
    pub const COLOR: Palette = Palette { enabled: true };

    fn paint(self, style: &str, text: &str) -> String {
        if self.enabled && !text.is_empty() {
            format!("\u{1b}[{style}m{text}\u{1b}[0m")
        } else {
            text.to_string()
        }
    }
}

/// `error[kind]: message` + a code frame with the primary and related spans labelled. Every
/// text taken from the analysed files (paths, code, messages quoting it) goes through
/// [`printable`].
pub fn text(files: &[FileFindings<'_>], palette: Palette) -> String {
    let p = palette;
    let mut out = String::new();
    for f in files {
        let lines: Vec<&str> = f.text.lines().collect();
        let file_path = printable(f.path);
        // Suppressed findings, and those a baseline already has, are in JSON and SARIF
        // (flagged), never on the terminal.
        for finding in f.findings.iter().filter(|x| x.counts()) {
            let (colour, label) = match finding.severity {
                super::Severity::Error => (ERROR, "error"),
                super::Severity::Warning => (WARNING, "warning"),
            };
            out.push_str(&format!(
                "{}{}\n",
                p.paint(colour, &format!("{label}[{}]", finding.kind.code())),
                p.paint(BOLD, &format!(": {}", finding.kind.title()))
            ));
            let width = finding
                .related
                .iter()
                .map(|r| r.span.line)
                .chain([finding.span.line])
                .max()
                .unwrap_or(1)
                .to_string()
                .len();
            let pad = " ".repeat(width);
            let bar = p.paint(GUTTER, "|");
            let eq = p.paint(GUTTER, "=");
            out.push_str(&format!(
                "{pad}{} {}:{}:{}\n",
                p.paint(GUTTER, "-->"),
                file_path,
                finding.span.line,
                finding.span.column
            ));
            out.push_str(&format!("{pad} {bar}\n"));
            let here = |r: &&super::Related| r.path.as_deref().is_none_or(|p| p == f.path);
            let mut frames: Vec<(&Span, String, char)> = finding
                .related
                .iter()
                .filter(here)
                .map(|r| (&r.span, r.label.clone(), '-'))
                .collect();
            let primary = if finding.shapes.is_empty() || finding.message.contains('[') {
                finding.message.clone()
            } else {
                format!("{} (shapes: {})", finding.message, finding.shapes)
            };
            frames.push((&finding.span, primary, '^'));
            frames.sort_by_key(|(s, _, _)| (s.line, s.column));
            for (span, label, mark) in frames {
                let src = lines.get(span.line as usize - 1).copied().unwrap_or("");
                out.push_str(&format!(
                    "{} {bar} {}\n",
                    p.paint(GUTTER, &format!("{:>width$}", span.line)),
                    printable(src)
                ));
                let start = span.column.saturating_sub(1) as usize;
                let len = if span.end_line == span.line {
                    (span.end_column.saturating_sub(span.column) as usize).max(1)
                } else {
                    src.chars().count().saturating_sub(start).max(1)
                };
                let style = if mark == '^' { PRIMARY } else { SECONDARY };
                out.push_str(&format!(
                    "{pad} {bar} {}{}\n",
                    " ".repeat(start),
                    p.paint(
                        style,
                        &format!(
                            "{} {}",
                            mark.to_string().repeat(len.min(120)),
                            printable(&label)
                        )
                    )
                ));
            }
            out.push_str(&format!("{pad} {bar}\n"));
            for r in finding.related.iter().filter(|r| !here(r)) {
                let path = printable(r.path.as_deref().unwrap_or(f.path));
                out.push_str(&format!(
                    "{pad} {eq} {}: {path}:{}:{}\n",
                    printable(&r.label),
                    r.span.line,
                    r.span.column
                ));
            }
            out.push_str(&format!(
                "{pad} {eq} {}: {} `{}`\n",
                p.paint(NOTE, "in"),
                finding.unit_kind.name(),
                printable(&finding.unit)
            ));
            if let Some(w) = &finding.witness {
                out.push_str(&format!(
                    "{pad} {eq} {}: {}\n",
                    p.paint(NOTE, "fails for"),
                    printable(w)
                ));
            }
            out.push_str(&format!(
                "{pad} {eq} {}: run `shapehound explain {}`\n\n",
                p.paint(NOTE, "help"),
                finding.kind.code()
            ));
        }
    }
    out
}

/// One line a problem: `error[syntax-error]: path:line:col: message`.
pub fn problems_text(problems: &[Problem], palette: Palette) -> String {
    let mut out = String::new();
    for pr in problems {
        let style = if pr.is_error() { ERROR } else { WARNING };
        let place = match (pr.line, pr.column) {
            (Some(l), Some(c)) => format!("{}:{l}:{c}", printable(&pr.path)),
            (Some(l), None) => format!("{}:{l}", printable(&pr.path)),
            _ => printable(&pr.path).into_owned(),
        };
        out.push_str(&format!(
            "{}: {place}: {}\n",
            palette.paint(style, &format!("{}[{}]", pr.level(), pr.code())),
            printable(&pr.message)
        ));
    }
    if !problems.is_empty() {
        out.push('\n');
    }
    out
}

fn finding_json(path: &str, f: &Finding) -> Json {
    json!({
        "id": f.id,
        "suppressed": f.suppressed,
        "baseline": f.baseline,
        "kind": f.kind.code(),
        "severity": f.severity.name(),
        "title": f.kind.title(),
        "path": path,
        "line": f.span.line,
        "column": f.span.column,
        "end_line": f.span.end_line,
        "end_column": f.span.end_column,
        "unit": f.unit,
        "unit_kind": f.unit_kind.name(),
        "operator": f.operator,
        "message": f.message,
        "shapes": f.shapes,
        "related": f.related.iter().map(|r| json!({
            "path": r.path.as_deref().unwrap_or(path),
            "line": r.span.line,
            "column": r.span.column,
            "end_line": r.span.end_line,
            "end_column": r.span.end_column,
            "label": r.label,
        })).collect::<Vec<_>>(),
        "witness": f.witness,
        "solver": f.solver(),
        "solve_us": f.solve_micros,
    })
}

fn problem_json(p: &Problem) -> Json {
    let mut doc = json!({
        "path": p.path,
        "reason": p.code(),
        "level": p.level(),
        "message": p.message,
    });
    if let Some(line) = p.line {
        doc["line"] = json!(line);
    }
    if let Some(column) = p.column {
        doc["column"] = json!(column);
    }
    doc
}

/// `{"files": N, "findings": [...], "problems": [...]}`.
pub fn json(
    files: &[FileFindings<'_>],
    problems: &[Problem],
    unused: &[Unused],
    analysed: usize,
) -> String {
    let findings: Vec<Json> = files
        .iter()
        .flat_map(|f| f.findings.iter().map(move |x| finding_json(f.path, x)))
        .collect();
    let problems: Vec<Json> = problems.iter().map(problem_json).collect();
    let unused: Vec<Json> = unused
        .iter()
        .map(|u| json!({"path": u.path, "line": u.line, "message": u.message}))
        .collect();
    let doc = json!({
        "files": analysed,
        "findings": findings,
        "problems": problems,
        "unused_suppressions": unused,
    });
    serde_json::to_string_pretty(&doc).unwrap_or_default()
}

/// A workflow command's message: GitHub reads `%`, CR and LF as its own escapes.
pub fn github_data(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '%' => out.push_str("%25"),
            '\r' => out.push_str("%0D"),
            '\n' => out.push_str("%0A"),
            c => out.push(c),
        }
    }
    out
}

/// A workflow command's property value: also `:` and `,`, which end a value.
pub fn github_property(s: &str) -> String {
    github_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// GitHub Actions workflow commands, one line per finding and per problem, which the runner
/// turns into annotations on the pull request. `relative` gives each path as the workflow
/// sees it (relative to the checkout when inside it). Analysed text goes through
/// [`printable`] first, so only our own line breaks become `%0A`.
pub fn github(
    files: &[FileFindings<'_>],
    problems: &[Problem],
    unused: &[Unused],
    relative: &dyn Fn(&str) -> String,
) -> String {
    let mut out = String::new();
    for f in files {
        // Suppressed findings and those a baseline already has are not annotated.
        for x in f.findings.iter().filter(|x| x.counts()) {
            let mut message = printable(&x.message).into_owned();
            if !x.shapes.is_empty() && !x.message.contains('[') {
                message.push_str(&format!(" (shapes: {})", printable(&x.shapes)));
            }
            for r in &x.related {
                let path = relative(r.path.as_deref().unwrap_or(f.path));
                message.push_str(&format!(
                    "\n{}: {}:{}:{}",
                    printable(&r.label),
                    printable(&path),
                    r.span.line,
                    r.span.column
                ));
            }
            message.push_str(&format!(
                "\nin: {} `{}`",
                x.unit_kind.name(),
                printable(&x.unit)
            ));
            if let Some(w) = &x.witness {
                message.push_str(&format!("\nfails for: {}", printable(w)));
            }
            message.push_str(&format!(
                "\nhelp: run `shapehound explain {}`",
                x.kind.code()
            ));
            out.push_str(&format!(
                "::{} file={},line={},col={},endLine={},endColumn={},title={}::{}\n",
                x.severity.name(),
                github_property(&printable(&relative(f.path))),
                x.span.line,
                x.span.column,
                x.span.end_line,
                x.span.end_column,
                github_property(&format!("{} ({})", x.kind.code(), x.kind.title())),
                github_data(&message)
            ));
        }
    }
    for p in problems {
        let mut props = vec![format!(
            "file={}",
            github_property(&printable(&relative(&p.path)))
        )];
        if let Some(line) = p.line {
            props.push(format!("line={line}"));
        }
        if let Some(column) = p.column {
            props.push(format!("col={column}"));
        }
        props.push(format!("title={}", github_property(p.code())));
        out.push_str(&format!(
            "::{} {}::{}\n",
            p.level(),
            props.join(","),
            github_data(&printable(&p.message))
        ));
    }
    for u in unused {
        out.push_str(&format!(
            "::warning file={},line={},title={}::{}\n",
            github_property(&printable(&relative(&u.path))),
            u.line,
            UNUSED_KIND,
            github_data(&printable(&u.message))
        ));
    }
    out
}

/// `warning[unused-suppression]: path:line: message`, one line each.
pub fn unused_text(unused: &[Unused], palette: Palette) -> String {
    let mut out = String::new();
    for u in unused {
        out.push_str(&format!(
            "{}: {}:{}: {}\n",
            palette.paint(WARNING, &format!("warning[{UNUSED_KIND}]")),
            printable(&u.path),
            u.line,
            printable(&u.message)
        ));
    }
    if !unused.is_empty() {
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn github_escapes_its_own_delimiters() {
        assert_eq!(github_data("50% a:b,c\r\nd"), "50%25 a:b,c%0D%0Ad");
        assert_eq!(github_property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
        assert_eq!(github_property("%3A"), "%253A");
    }

    #[test]
    fn problems_keep_their_stderr_line_and_levels() {
        let syntax = Problem {
            path: "a.py".into(),
            status: FileStatus::ParseError,
            message: "Expected an expression".into(),
            line: Some(1),
            column: Some(7),
        };
        assert_eq!(
            syntax.to_string(),
            "a.py: syntax error at 1:7: Expected an expression"
        );
        assert!(syntax.is_error());
        let big = Problem {
            status: FileStatus::SkippedTooLarge,
            message: "9 bytes is over the size limit of 1 bytes".into(),
            line: None,
            column: None,
            ..syntax.clone()
        };
        assert_eq!(
            big.to_string(),
            "a.py: 9 bytes is over the size limit of 1 bytes"
        );
        assert_eq!(big.level(), "warning");
        let listed = problems_text(&[syntax, big], Palette::PLAIN);
        assert!(
            listed.starts_with("error[syntax-error]: a.py:1:7: Expected an expression\nwarning[too-large]: a.py: 9 bytes"),
            "{listed}"
        );
        assert!(PROBLEM_KINDS.iter().all(|(s, _)| problem_code(*s) != "ok"));
    }

    #[test]
    fn printable_escapes_controls_and_keeps_the_rest() {
        assert_eq!(printable("a\tb é"), "a\tb é");
        assert_eq!(
            printable("x\u{1b}]0;t\u{7}\r\n"),
            "x\\u{1b}]0;t\\u{7}\\r\\n"
        );
        assert_eq!(printable("\u{85}"), "\\u{85}");
    }

    /// A file name with a newline and code with an escape sequence cannot forge a
    /// diagnostic line or reach the terminal.
    #[test]
    fn text_output_never_prints_raw_controls() {
        let src =
            "import torch\nx = torch.randn(2, 3) @ torch.randn(4, 5)  # \u{1b}]0;pwned\u{7}\n";
        let findings = crate::testing::findings(src);
        assert_eq!(findings.len(), 1, "{findings:?}");
        let files = [FileFindings {
            path: "evil\nerror[fake]: forged.py",
            text: src,
            findings: &findings,
        }];
        let out = text(&files, Palette::PLAIN);
        let colored = text(&files, Palette::COLOR);
        // Our escapes only: every ESC starts one of our SGR sequences.
        assert!(
            colored.contains("\u{1b}[1;31merror[matmul-mismatch]"),
            "{colored}"
        );
        assert_eq!(
            colored.matches('\u{1b}').count(),
            colored.matches("\u{1b}[").count()
        );
        assert!(!colored.contains("\u{1b}]0;pwned"), "{colored}");
        let gh = github(&files, &[], &[], &|p| p.to_string());
        assert_eq!(gh.lines().count(), 1, "{gh}");
        assert!(
            !gh.contains('\u{1b}') && gh.contains("evil\\nerror[fake]%3A forged.py"),
            "{gh}"
        );
        assert!(!out.contains('\u{1b}') && !out.contains('\u{7}'), "{out}");
        assert_eq!(
            out.lines().filter(|l| l.starts_with("error[")).count(),
            1,
            "{out}"
        );
        assert!(out.contains("evil\\nerror[fake]: forged.py"), "{out}");
    }
}
