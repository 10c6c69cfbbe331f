//! Signatures as text (one block per unit: the ranks admitted and rejected, then each
//! admitted variant's inputs, static dims, requirements, returns and decided branches) and
//! as JSON.

use std::fmt::Write;

use super::{Admission, Signature, VariantSignature};

/// Admitted variants described in full in text, per unit (JSON lists every one).
const DETAILED: usize = 2;

/// One file's signatures as text.
pub fn text(path: &str, signatures: &[Signature]) -> String {
    let mut out = String::new();
    if signatures.is_empty() {
        return out;
    }
    let _ = writeln!(out, "{path}");
    for s in signatures {
        let _ = writeln!(
            out,
            "  {} {} (line {}): {}",
            s.kind,
            s.unit,
            s.line,
            summary(s)
        );
        for (i, v) in s.admitted().enumerate() {
            if i == DETAILED {
                let more = s.admitted().count() - DETAILED;
                let _ = writeln!(
                    out,
                    "    ... {more} more admitted (--format json lists all)"
                );
                break;
            }
            variant(&mut out, v);
        }
        for v in s
            .variants
            .iter()
            .filter(|v| v.admission == Admission::Rejected)
        {
            if let Some(why) = &v.why {
                let label = label(v);
                let _ = writeln!(out, "    {label} fails for every input: {why}");
                break;
            }
        }
    }
    // Names and text come from the analysed file: no raw control characters on a terminal.
    out.lines()
        .map(|l| crate::findings::render::printable(l).into_owned() + "\n")
        .collect()
}

/// `ranks admitted x:3, x:4; rejected x:1, x:2; not settled x:5`.
fn summary(s: &Signature) -> String {
    let list = |a: Admission| -> Vec<String> {
        s.variants
            .iter()
            .filter(|v| v.admission == a)
            .map(label)
            .collect()
    };
    let mut parts = Vec::new();
    for (a, what) in [
        (Admission::Admitted, "admitted"),
        (Admission::Rejected, "rejected"),
        (Admission::Unknown, "not settled"),
    ] {
        let names = list(a);
        if !names.is_empty() {
            parts.push(format!("{what} {}", names.join(", ")));
        }
    }
    if parts.is_empty() {
        return "no run".to_string();
    }
    parts.join("; ")
}

fn label(v: &VariantSignature) -> String {
    match v.variant.as_str() {
        "" => "(one run)".to_string(),
        l => format!("[{l}]"),
    }
}

fn variant(out: &mut String, v: &VariantSignature) {
    let inputs: Vec<String> = v.inputs.iter().map(super::InputSignature::text).collect();
    let _ = writeln!(out, "    {} {}", label(v), inputs.join(", "));
    if v.unknown_operations > 0 {
        let n = v.unknown_operations;
        let _ = writeln!(
            out,
            "      ({n} operations not known: what they require is not listed)"
        );
    }
    for f in &v.fixed {
        let _ = writeln!(out, "      static {}", f.text());
    }
    for r in &v.requires {
        let _ = writeln!(out, "      requires {r}");
    }
    if v.more_requires > 0 {
        let _ = writeln!(out, "      ... {} more requirements", v.more_requires);
    }
    if !v.returns.is_empty() {
        let _ = writeln!(out, "      returns {}", v.returns.join(", "));
    }
    for b in &v.branches {
        let taken = if b.taken {
            "always taken"
        } else {
            "never taken"
        };
        let _ = writeln!(
            out,
            "      branch at line {}: {} is {taken}",
            b.line, b.condition
        );
    }
}

/// Every file's signatures as one JSON document.
pub fn json(
    files: &[(String, Vec<Signature>)],
    problems: &[crate::findings::render::Problem],
) -> String {
    #[derive(serde::Serialize)]
    struct File<'a> {
        path: &'a str,
        signatures: &'a [Signature],
    }
    #[derive(serde::Serialize)]
    struct Doc<'a> {
        files: Vec<File<'a>>,
        problems: Vec<serde_json::Value>,
    }
    let doc = Doc {
        files: files
            .iter()
            .map(|(path, signatures)| File { path, signatures })
            .collect(),
        problems: problems
            .iter()
            .map(|p| {
                serde_json::json!({
                    "path": p.path,
                    "status": p.status.as_str(),
                    "message": p.message,
                    "line": p.line,
                    "column": p.column,
                })
            })
            .collect(),
    };
    serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
}
