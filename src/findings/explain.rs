//! What each finding kind means, for `shapehound explain KIND` and SARIF's rule help: the
//! kind's section of `docs/findings.md`, compiled into the binary so an installed copy
//! explains itself without the repository.

use crate::findings::suppress::UNUSED_KIND;
use crate::shapes::kind::FindingKind;

const FINDINGS_DOC: &str = include_str!("../../docs/findings.md");

/// The kind whose code is `code` (`feature-mismatch`).
pub fn kind_of(code: &str) -> Option<FindingKind> {
    FindingKind::ALL.into_iter().find(|k| k.code() == code)
}

/// The Markdown body of the kind's `## code` section of `docs/findings.md` (heading
/// excluded, trimmed); empty when the document has no such section.
pub fn section(kind: FindingKind) -> &'static str {
    section_of(FINDINGS_DOC, kind.code())
}

fn section_of<'d>(doc: &'d str, code: &str) -> &'d str {
    let heading = format!("## {code}");
    let mut start = None;
    let mut offset = 0;
    for line in doc.split_inclusive('\n') {
        let next = offset + line.len();
        match start {
            None if line.trim_end() == heading => start = Some(next),
            Some(s) if line.starts_with("## ") || line.starts_with("# ") => {
                return doc[s..offset].trim();
            }
            _ => {}
        }
        offset = next;
    }
    start.map_or("", |s| doc[s..].trim())
}

/// The section as plain text: one paragraph per blank-line-separated block, lines joined,
/// Markdown emphasis and code marks removed.
pub fn plain(markdown: &str) -> String {
    markdown
        .split("\n\n")
        .map(|block| block.lines().map(str::trim).collect::<Vec<_>>().join(" "))
        .map(|p| unmark(&p))
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// Without code marks and emphasis stars; a star between spaces (`2 * d`) is arithmetic.
fn unmark(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    for (i, &c) in chars.iter().enumerate() {
        let spaced = i > 0 && chars[i - 1] == ' ' && chars.get(i + 1).is_some_and(|n| *n == ' ');
        if c == '`' || (c == '*' && !spaced) {
            continue;
        }
        out.push(c);
    }
    out
}

/// The first paragraph of the section, as plain text.
pub fn summary(kind: FindingKind) -> String {
    let text = plain(section(kind));
    text.split("\n\n").next().unwrap_or_default().to_string()
}

/// What `shapehound explain KIND` prints.
pub fn explain(kind: FindingKind) -> String {
    format!("{} ({})\n\n{}\n", kind.code(), kind.title(), section(kind))
}

/// The title of the one warning kind (`findings::suppress`).
const UNUSED_TITLE: &str = "suppression comment that suppresses nothing (warning)";

/// What `shapehound explain CODE` prints for a finding kind or the warning kind.
pub fn explain_code(code: &str) -> Option<String> {
    if code == UNUSED_KIND {
        let text = section_of(FINDINGS_DOC, UNUSED_KIND);
        return Some(format!("{UNUSED_KIND} ({UNUSED_TITLE})\n\n{text}\n"));
    }
    kind_of(code).map(explain)
}

/// What `shapehound explain --all` prints: one kind a line.
pub fn list() -> String {
    let width = FindingKind::ALL
        .iter()
        .map(|k| k.code().len())
        .max()
        .unwrap_or(0);
    let mut out: String = FindingKind::ALL
        .iter()
        .map(|k| format!("{:width$}  {}\n", k.code(), k.title()))
        .collect();
    out.push_str(&format!("{UNUSED_KIND:width$}  {UNUSED_TITLE}\n"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_a_section() {
        for kind in FindingKind::ALL {
            let s = section(kind);
            assert!(
                !s.is_empty(),
                "docs/findings.md has no `## {}`",
                kind.code()
            );
            assert!(!s.contains("\n## "), "{s}");
            assert!(!summary(kind).is_empty());
        }
    }

    #[test]
    fn a_section_ends_at_the_next_heading_and_the_last_at_the_end() {
        let doc = "# T\n\n## a\nfirst `x` *y*\nline `2 * d`\n\n## ab\nsecond\n## c\nlast\n";
        assert_eq!(section_of(doc, "a"), "first `x` *y*\nline `2 * d`");
        assert_eq!(section_of(doc, "ab"), "second");
        assert_eq!(section_of(doc, "c"), "last");
        assert_eq!(section_of(doc, "d"), "");
        assert_eq!(plain(section_of(doc, "a")), "first x y line 2 * d");
    }

    #[test]
    fn the_warning_kind_is_explained_too() {
        let text = explain_code(UNUSED_KIND).expect("explained");
        assert!(text.contains("# noqa"), "{text}");
        assert!(list().contains(UNUSED_KIND));
        assert!(explain_code("no-such-kind").is_none());
    }

    #[test]
    fn codes_round_trip() {
        for kind in FindingKind::ALL {
            assert_eq!(kind_of(kind.code()), Some(kind));
        }
        assert_eq!(kind_of("no-such-kind"), None);
    }
}
