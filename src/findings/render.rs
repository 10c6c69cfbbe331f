//! Diagnostics for `shapehound check`: compiler-style text with code frames, JSON, and
//! SARIF 2.1.0 (what GitHub code scanning reads).

use serde_json::{json, Value as Json};

use super::{Finding, FindingKind, Span};

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

/// `error[kind]: message` + a code frame with the primary and related spans labelled. Every
/// text taken from the analysed files (paths, code, messages quoting it) goes through
/// [`printable`].
pub fn text(files: &[FileFindings<'_>]) -> String {
    let mut out = String::new();
    for f in files {
        let lines: Vec<&str> = f.text.lines().collect();
        let file_path = printable(f.path);
        // Suppressed findings, and those a baseline already has, are in JSON and SARIF
        // (flagged), never on the terminal.
        for finding in f.findings.iter().filter(|x| x.counts()) {
            out.push_str(&format!(
                "error[{}]: {}\n",
                finding.kind.code(),
                finding.kind.title()
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
            out.push_str(&format!(
                "{pad}--> {}:{}:{}\n",
                file_path, finding.span.line, finding.span.column
            ));
            out.push_str(&format!("{pad} |\n"));
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
                out.push_str(&format!("{:>width$} | {}\n", span.line, printable(src)));
                let start = span.column.saturating_sub(1) as usize;
                let len = if span.end_line == span.line {
                    (span.end_column.saturating_sub(span.column) as usize).max(1)
                } else {
                    src.chars().count().saturating_sub(start).max(1)
                };
                out.push_str(&format!(
                    "{pad} | {}{} {}\n",
                    " ".repeat(start),
                    mark.to_string().repeat(len.min(120)),
                    printable(&label)
                ));
            }
            out.push_str(&format!("{pad} |\n"));
            for r in finding.related.iter().filter(|r| !here(r)) {
                let path = printable(r.path.as_deref().unwrap_or(f.path));
                out.push_str(&format!(
                    "{pad} = {}: {path}:{}:{}\n",
                    printable(&r.label),
                    r.span.line,
                    r.span.column
                ));
            }
            out.push_str(&format!(
                "{pad} = in: {} `{}`\n",
                finding.unit_kind.name(),
                printable(&finding.unit)
            ));
            if let Some(w) = &finding.witness {
                out.push_str(&format!("{pad} = fails for: {}\n", printable(w)));
            }
            out.push_str(&format!(
                "{pad} = help: see docs/findings.md#{}\n\n",
                finding.kind.code()
            ));
        }
    }
    out
}

fn finding_json(path: &str, f: &Finding) -> Json {
    json!({
        "id": f.id,
        "suppressed": f.suppressed,
        "baseline": f.baseline,
        "kind": f.kind.code(),
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

/// `{"files": N, "findings": [...]}`.
pub fn json(files: &[FileFindings<'_>], analysed: usize) -> String {
    let findings: Vec<Json> = files
        .iter()
        .flat_map(|f| f.findings.iter().map(move |x| finding_json(f.path, x)))
        .collect();
    let doc = json!({"files": analysed, "findings": findings});
    serde_json::to_string_pretty(&doc).unwrap_or_default()
}

/// A SARIF 2.1.0 log with one run, one rule per finding kind.
pub fn sarif(files: &[FileFindings<'_>]) -> String {
    let rules: Vec<Json> = FindingKind::ALL
        .iter()
        .map(|k| {
            json!({
                "id": k.code(),
                "name": k.code(),
                "shortDescription": {"text": k.title()},
                "helpUri": format!("https://github.com/shapehound/shapehound/blob/main/docs/findings.md#{}", k.code()),
                "defaultConfiguration": {"level": "error"},
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
            f.findings.iter().map(move |x| {
                let mut text = x.message.clone();
                if let Some(w) = &x.witness {
                    text.push_str(&format!(" Fails for: {w}."));
                }
                let mut result = json!({
                    "ruleId": x.kind.code(),
                    "ruleIndex": FindingKind::ALL.iter().position(|k| *k == x.kind).unwrap_or(0),
                    "level": "error",
                    "message": {"text": text},
                    "locations": [{
                        "physicalLocation": {
                            "artifactLocation": {"uri": uri_reference(f.path)},
                            "region": region(&x.span),
                        }
                    }],
                    "relatedLocations": x.related.iter().enumerate().map(|(i, r)| json!({
                        "id": i,
                        "message": {"text": r.label},
                        "physicalLocation": {
                            "artifactLocation": {"uri": uri_reference(r.path.as_deref().unwrap_or(f.path))},
                            "region": region(&r.span),
                        }
                    })).collect::<Vec<_>>(),
                    "partialFingerprints": {"shapehound/v1": x.id},
                });
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
    let doc = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "shapehound",
                "version": env!("CARGO_PKG_VERSION"),
                "informationUri": "https://github.com/shapehound/shapehound",
                "rules": rules,
            }},
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
        let out = text(&[FileFindings {
            path: "evil\nerror[fake]: forged.py",
            text: src,
            findings: &findings,
        }]);
        assert!(!out.contains('\u{1b}') && !out.contains('\u{7}'), "{out}");
        assert_eq!(
            out.lines().filter(|l| l.starts_with("error[")).count(),
            1,
            "{out}"
        );
        assert!(out.contains("evil\\nerror[fake]: forged.py"), "{out}");
    }
}
