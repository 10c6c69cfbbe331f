//! Finding ids that survive what does not change a bug: lines moved by edits above it, an
//! unrelated edit or comment, the path spelt `./x.py` or `x.py`, the number of workers. An id
//! is a digest of the path inside the repository, the unit, the operator, the kind and the
//! failing line's code (comments and whitespace left out), numbered among the file's findings
//! that share all of these. No line number enters it.

use serde::{Deserialize, Serialize};

use super::Finding;

/// A digest of each line's code (1-based lines; comments and whitespace left out), so that
/// an id can name the failing line by what it says rather than where it is.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct LineDigests(Vec<u32>);

impl LineDigests {
    pub fn of(text: &str) -> Self {
        LineDigests(
            text.lines()
                .map(|l| {
                    let code: Vec<u8> = code_of_line(l)
                        .bytes()
                        .filter(|b| !b.is_ascii_whitespace())
                        .collect();
                    fnv1a(&code) as u32
                })
                .collect(),
        )
    }

    /// The digest of a 1-based line, if the text has it.
    pub fn get(&self, line: u32) -> Option<u32> {
        self.0.get((line as usize).checked_sub(1)?).copied()
    }
}

/// A line without its comment: the text before the first `#` outside a string literal
/// (quotes tracked on the line alone; a string continued from an earlier line is rare
/// enough on a failing line that it only costs the id some stability).
pub fn code_of_line(line: &str) -> &str {
    let bytes = line.as_bytes();
    let mut quote: Option<u8> = None;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match quote {
            // An escaped character (a quote among them) never ends the string.
            Some(_) if b == b'\\' => i += 1,
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None if b == b'\'' || b == b'"' => quote = Some(b),
            None if b == b'#' => return &line[..i],
            None => {}
        }
        i += 1;
    }
    line
}

/// The comment of a line (after its `#`), if it has one.
pub fn comment_of_line(line: &str) -> Option<&str> {
    let code = code_of_line(line);
    line.get(code.len() + 1..)
        .filter(|_| code.len() < line.len())
}

/// A path as an id names it: `/`-separated, `.` and empty parts dropped, `..` applied.
pub fn normal_path(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split(['/', '\\']) {
        match part {
            "" | "." => {}
            ".." if parts.last().is_some_and(|p| *p != "..") => {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    parts.join("/")
}

/// The ids of one file's findings, given in file order: `path` is the file's path inside its
/// repository, `line_digest(f)` the digest of the finding's failing line when its text is at
/// hand. Findings alike in everything are told apart by their order.
pub fn finding_ids<'f>(
    path: &str,
    findings: impl IntoIterator<Item = (&'f Finding, Option<u32>)>,
) -> Vec<String> {
    let path = normal_path(path);
    let mut seen: Vec<u64> = Vec::new();
    findings
        .into_iter()
        .map(|(f, digest)| {
            let key = format!(
                "{path}\u{0}{}\u{0}{}\u{0}{}\u{0}{}",
                f.unit,
                f.operator,
                f.kind.code(),
                digest.map_or(String::new(), |d| format!("{d:08x}"))
            );
            let base = fnv1a(key.as_bytes());
            let occurrence = seen.iter().filter(|&&b| b == base).count();
            seen.push(base);
            let numbered = format!("{key}\u{0}{occurrence}");
            format!("{:016x}", fnv1a(numbered.as_bytes()))
        })
        .collect()
}

pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in bytes {
        h ^= *b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::findings::{FindingKind, Span};
    use crate::units::UnitKind;

    fn finding(line: u32, unit: &str) -> Finding {
        Finding {
            severity: crate::findings::Severity::Error,
            path: None,
            kind: FindingKind::FeatureMismatch,
            unit: unit.to_string(),
            unit_kind: UnitKind::Module,
            operator: "torch.nn.Linear".to_string(),
            span: Span {
                line,
                column: 5,
                end_line: line,
                end_column: 20,
            },
            message: String::new(),
            shapes: String::new(),
            related: Vec::new(),
            witness: None,
            used_z3: false,
            solve_micros: 0,
            id: String::new(),
            suppressed: false,
            baseline: None,
            domain: None,
        }
    }

    fn ids(path: &str, text: &str, findings: &[Finding]) -> Vec<String> {
        let lines = LineDigests::of(text);
        finding_ids(path, findings.iter().map(|f| (f, lines.get(f.span.line))))
    }

    #[test]
    fn comments_and_whitespace_are_not_code() {
        assert_eq!(code_of_line("x = f(a)  # why"), "x = f(a)  ");
        assert_eq!(
            code_of_line("s = '#not' + \"#a\"  # c"),
            "s = '#not' + \"#a\"  "
        );
        assert_eq!(code_of_line("s = 'it\\'s #'"), "s = 'it\\'s #'");
        assert_eq!(
            comment_of_line("x = 1  # shapehound: ignore"),
            Some(" shapehound: ignore")
        );
        assert_eq!(comment_of_line("x = '#'"), None);
        let a = LineDigests::of("    y = self.fc(x)\n");
        let b = LineDigests::of("y=self.fc(x)   # shapehound: ignore\n");
        assert_eq!(a.get(1), b.get(1));
        assert_ne!(a.get(1), LineDigests::of("y = self.fc(h)").get(1));
        assert_eq!(a.get(2), None);
        assert_eq!(a.get(0), None);
    }

    #[test]
    fn ids_survive_line_shifts_comments_and_path_spelling() {
        let text = "a\nb\ny = self.fc(x)\n";
        let shifted = "# a new comment\na\n\nb\ny = self.fc(x)  # note\n";
        let before = ids("m/x.py", text, &[finding(3, "M")]);
        let after = ids("./m//x.py", shifted, &[finding(5, "M")]);
        assert_eq!(before, after);
        // Another line's code, unit or file is another finding.
        assert_ne!(
            before,
            ids("m/x.py", "a\nb\ny = self.fc(h)\n", &[finding(3, "M")])
        );
        assert_ne!(before, ids("m/x.py", text, &[finding(3, "N")]));
        assert_ne!(before, ids("m/y.py", text, &[finding(3, "M")]));
    }

    #[test]
    fn findings_alike_in_everything_are_numbered_in_file_order() {
        let text = "y = self.fc(x)\ny = self.fc(x)\n";
        let both = ids("x.py", text, &[finding(1, "M"), finding(2, "M")]);
        assert_ne!(both[0], both[1]);
        let first_only = ids("x.py", text, &[finding(1, "M")]);
        assert_eq!(first_only[0], both[0]);
    }

    #[test]
    fn paths_are_normalised() {
        assert_eq!(normal_path("./a//b/../c.py"), "a/c.py");
        assert_eq!(normal_path("a\\b.py"), "a/b.py");
        assert_eq!(normal_path("../x.py"), "../x.py");
    }
}
