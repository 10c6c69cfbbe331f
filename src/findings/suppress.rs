//! Inline suppressions. `# shapehound: ignore[kind, ...]` (or bare `# shapehound: ignore`,
//! every kind) on a line the failing operation spans suppresses the finding: it stays in
//! the tables and outputs, flagged, and counts for no exit code. `# noqa` is honoured as
//! flake8 and ruff read it (bare: everything; with codes: those that are finding kinds),
//! but never reported unused, since other tools own it. A `shapehound` suppression that
//! suppresses nothing is reported (a warning), so stale ones do not pile up.

use serde::{Deserialize, Serialize};

use super::identity::comment_of_line;
use super::FindingKind;

/// The `kind` of the `warning` a suppression that suppresses nothing gets.
pub const UNUSED_KIND: &str = "unused-suppression";

/// A suppression comment that suppresses nothing, where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unused {
    pub path: String,
    pub line: u32,
    pub message: String,
}

/// One suppression comment.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Suppression {
    /// 1-based line.
    pub line: u32,
    /// The kinds it names; empty: every kind.
    pub kinds: Vec<String>,
    /// Written as `# noqa` (never reported unused).
    pub noqa: bool,
}

impl Suppression {
    /// Whether it suppresses a finding of `kind` whose failing operation spans the lines
    /// `line..=end_line`.
    pub fn covers(&self, kind: &str, line: u32, end_line: u32) -> bool {
        (line..=end_line.max(line)).contains(&self.line)
            && (self.kinds.is_empty() || self.kinds.iter().any(|k| k == kind))
    }

    /// Why it is reported when it suppressed nothing.
    pub fn unused_message(&self) -> String {
        let unknown: Vec<&str> = self
            .kinds
            .iter()
            .filter(|k| !FindingKind::ALL.iter().any(|f| f.code() == k.as_str()))
            .map(String::as_str)
            .collect();
        let written = if self.kinds.is_empty() {
            "`# shapehound: ignore`".to_string()
        } else {
            format!("`# shapehound: ignore[{}]`", self.kinds.join(", "))
        };
        if unknown.is_empty() && self.kinds.is_empty() {
            format!("unused suppression {written}: no finding on this line")
        } else if unknown.is_empty() {
            format!("unused suppression {written}: no finding of that kind on this line")
        } else {
            format!(
                "unused suppression {written}: unknown kind{} {} (see `shapehound explain --all`)",
                if unknown.len() == 1 { "" } else { "s" },
                unknown.join(", ")
            )
        }
    }
}

/// The suppression comments of a file's text.
pub fn suppressions(text: &str) -> Vec<Suppression> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let Some(comment) = comment_of_line(line) else {
            continue;
        };
        let line = i as u32 + 1;
        if let Some(kinds) = directive(comment) {
            out.push(Suppression {
                line,
                kinds,
                noqa: false,
            });
        } else if let Some(kinds) = noqa(comment) {
            out.push(Suppression {
                line,
                kinds,
                noqa: true,
            });
        }
    }
    out
}

/// `shapehound: ignore` or `shapehound: ignore[a, b]` anywhere in a comment.
fn directive(comment: &str) -> Option<Vec<String>> {
    let at = comment.find("shapehound:")?;
    let rest = comment[at + "shapehound:".len()..].trim_start();
    let rest = rest.strip_prefix("ignore")?;
    match rest.strip_prefix('[') {
        Some(list) => {
            let list = &list[..list.find(']')?];
            Some(codes(list))
        }
        None if rest.is_empty() || rest.starts_with(char::is_whitespace) => Some(Vec::new()),
        None => None,
    }
}

/// `noqa` (every kind) or `noqa: A, b` (the finding kinds among the codes; none: not ours).
fn noqa(comment: &str) -> Option<Vec<String>> {
    let lower = comment.to_ascii_lowercase();
    let at = lower.find("noqa")?;
    let rest = &comment[at + 4..];
    match rest.trim_start().strip_prefix(':') {
        Some(list) => {
            let ours: Vec<String> = codes(list)
                .into_iter()
                .filter(|c| FindingKind::ALL.iter().any(|k| k.code() == c))
                .collect();
            (!ours.is_empty()).then_some(ours)
        }
        None => Some(Vec::new()),
    }
}

fn codes(list: &str) -> Vec<String> {
    list.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|c| !c.is_empty())
        .map(str::to_string)
        .collect()
}

/// Which of a file's findings (`(kind, line, end_line)` each) are suppressed, and the
/// indices of the `shapehound` suppressions that suppress none of them.
pub fn apply(sups: &[Suppression], findings: &[(&str, u32, u32)]) -> (Vec<bool>, Vec<usize>) {
    let mut used = vec![false; sups.len()];
    let suppressed = findings
        .iter()
        .map(|&(kind, line, end_line)| {
            let mut any = false;
            for (i, s) in sups.iter().enumerate() {
                if s.covers(kind, line, end_line) {
                    used[i] = true;
                    any = true;
                }
            }
            any
        })
        .collect();
    let unused = (0..sups.len())
        .filter(|&i| !used[i] && !sups[i].noqa)
        .collect();
    (suppressed, unused)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directives_are_read_with_or_without_kinds() {
        let text = "\
a = 1  # shapehound: ignore
b = 2  #shapehound:ignore[feature-mismatch, reshape-numel]
c = '# shapehound: ignore'
d = 4  # shapehound: ignored
e = 5  # noqa
f = 6  # noqa: E501
g = 7  # NOQA: E501, rank-mismatch
";
        let s = suppressions(text);
        let lines: Vec<(u32, Vec<String>, bool)> =
            s.into_iter().map(|s| (s.line, s.kinds, s.noqa)).collect();
        assert_eq!(
            lines,
            vec![
                (1, vec![], false),
                (
                    2,
                    vec!["feature-mismatch".to_string(), "reshape-numel".to_string()],
                    false
                ),
                (5, vec![], true),
                (7, vec!["rank-mismatch".to_string()], true),
            ]
        );
    }

    #[test]
    fn a_suppression_covers_its_kinds_on_the_lines_spanned() {
        let sups = suppressions("x\ny  # shapehound: ignore[feature-mismatch]\nz  # noqa\n");
        let (suppressed, unused) = apply(
            &sups,
            &[
                ("feature-mismatch", 1, 2),
                ("reshape-numel", 2, 2),
                ("rank-mismatch", 3, 3),
            ],
        );
        assert_eq!(suppressed, vec![true, false, true]);
        assert!(unused.is_empty());
        let (_, unused) = apply(&sups, &[("reshape-numel", 2, 2)]);
        // The unused noqa is not ours to report.
        assert_eq!(unused, vec![0]);
    }

    #[test]
    fn an_unknown_kind_is_named_when_unused() {
        let s = &suppressions("x  # shapehound: ignore[no-such-kind]\n")[0];
        assert!(s.unused_message().contains("unknown kind no-such-kind"));
        let s = &suppressions("x  # shapehound: ignore\n")[0];
        assert!(s.unused_message().contains("no finding"));
    }
}
