//! Shapes that a function's docstring declares for its parameters: the informal annotations
//! of model code (`x: [B, T, D]; mask: [B, T]`, `d_real, d_fake: logits, one per patch:
//! [batch, 1, h, w]`, `hidden_states (torch.FloatTensor of shape (batch_size, seq_len, dim))`).
//! A declaration is read only when it is unambiguous: a line (or `;`-separated part) that
//! starts with parameter names followed by `:` or `(`, and whose first bracketed group parses
//! entirely as dims. Anything else declares nothing.

use rustc_hash::FxHashMap as HashMap;

use ruff_python_ast::{Expr, Stmt, StmtFunctionDef};

use super::params::AnnotatedDim;

/// The docstring of a function, when its first statement is a string literal.
pub fn docstring(def: &StmtFunctionDef) -> Option<&str> {
    body_docstring(&def.body)
}

/// The docstring of a class or function body.
pub fn body_docstring(body: &[Stmt]) -> Option<&str> {
    match body.first()? {
        Stmt::Expr(e) => match &*e.value {
            Expr::StringLiteral(s) => Some(s.value.to_str()),
            _ => None,
        },
        _ => None,
    }
}

/// The declared dims of each of `params` that the docstring describes.
///
/// A single word in brackets (`ids: [batch]`) is prose as often as a dim (`mask: [optional]`);
/// it declares a 1-D shape only when another declaration of the docstring uses the same word
/// as a dim (`ids: [batch]; negatives: [batch, k]`).
pub fn declared_shapes(doc: &str, params: &[String]) -> HashMap<String, Vec<AnnotatedDim>> {
    let mut out = HashMap::default();
    let mut single: Vec<(Vec<String>, String)> = Vec::new();
    for part in doc.lines().flat_map(|l| l.split(';')) {
        let part = part.trim().trim_start_matches(['-', '*', ' ']);
        let Some((names, rest)) = leading_names(part) else {
            continue;
        };
        if !names.iter().any(|n| params.contains(n)) || describes_items(rest) {
            continue;
        }
        let dims = match first_dims(rest) {
            Some(Group::Dims(dims)) => dims,
            Some(Group::Word(w)) => {
                single.push((names, w));
                continue;
            }
            None => continue,
        };
        declare(&mut out, names, params, &dims);
    }
    for (names, word) in single {
        let dim = AnnotatedDim::Name(word);
        if out.values().any(|dims| dims.contains(&dim)) {
            declare(&mut out, names, params, &[dim]);
        }
    }
    out
}

/// The one input shape that docstring prose describes (`Clips arrive as [batch, time,
/// channels, height, width]`, `Input: (N, C, H, W)`): the only bracketed group of `docs` that
/// reads entirely as two or more dims, one of them a batch. Several different groups (an input
/// and an output, say) describe nothing. Prose names no parameter, so this is a hint about
/// the input the author meant, never a fact (see `variants::documented_variant`).
pub fn described_shape(docs: &[&str]) -> Option<Vec<AnnotatedDim>> {
    let mut found: Option<Vec<AnnotatedDim>> = None;
    for doc in docs {
        for (open, c) in doc.char_indices().filter(|(_, c)| matches!(c, '[' | '(')) {
            let close = if c == '[' { ']' } else { ')' };
            let rest = &doc[open + 1..];
            let Some(len) = rest.find(close) else {
                continue;
            };
            let inner = &rest[..len];
            if inner.contains(['(', '[']) {
                continue;
            }
            // A batch dim tells a shape from a prose list (`(accuracy, robustness)`).
            let batch = inner
                .split(',')
                .any(|t| is_batch(t.trim().trim_matches('`')));
            if !batch {
                continue;
            }
            // A shape that does not read as dims (`(B, 4 * c1, A)`) is another group too.
            let dims = parse_list(inner)?;
            match &found {
                Some(f) if *f != dims => return None,
                _ => found = Some(dims),
            }
        }
    }
    found
}

/// The usual names of a batch dim.
fn is_batch(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    matches!(
        lower.as_str(),
        "b" | "n" | "bs" | "bsz" | "nb" | "nbatch" | "n_batch"
    ) || lower.starts_with("batch")
}

/// A collection of tensors, whose shape is each item's (`feats (list[torch.Tensor]): ..,
/// each with shape (HW, B, C)`), not the parameter's.
fn describes_items(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    let before = &lower[..lower.find("shape").unwrap_or(lower.len())];
    ["list", "tuple", "sequence", "iterable", "dict", "each"]
        .iter()
        .any(|w| {
            before.match_indices(w).any(|(at, _)| {
                let prev = before[..at].chars().next_back();
                !prev.is_some_and(|c| c.is_alphanumeric() || c == '_')
            })
        })
}

/// `dims` for each of `names` that is a parameter, unless an earlier line declared it.
fn declare(
    out: &mut HashMap<String, Vec<AnnotatedDim>>,
    names: Vec<String>,
    params: &[String],
    dims: &[AnnotatedDim],
) {
    for n in names {
        if params.contains(&n) {
            out.entry(n).or_insert_with(|| dims.to_vec());
        }
    }
}

/// A bracketed group after a parameter's name: dims, or one bare word.
enum Group {
    Dims(Vec<AnnotatedDim>),
    Word(String),
}

fn is_identifier(s: &str) -> bool {
    s.chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// `a, b: ...` or `a (type ...)`: the names, and the text after them.
fn leading_names(part: &str) -> Option<(Vec<String>, &str)> {
    let end = part.find([':', '('])?;
    let names: Vec<String> = part[..end]
        .split(',')
        .map(|n| n.trim().trim_matches('`').to_string())
        .collect();
    names
        .iter()
        .all(|n| is_identifier(n))
        .then(|| (names, &part[end..]))
}

/// The declared dims in the text after the names: a bracketed group that follows the word
/// "shape" closely (`of shape (B, T)`, `shape :math:\`(*, 3, H, W)\``), or, when the text does
/// not mention a shape, one that directly follows a colon (`x: [B, T, D]`). Other groups are
/// prose: value ranges (`in [0, 255]`), coordinates (`(x, y, z) coordinates`), examples.
fn first_dims(text: &str) -> Option<Group> {
    let lower = text.to_ascii_lowercase();
    let after_shape = lower.find("shape").map(|at| at + "shape".len());
    let starts: Vec<usize> = match after_shape {
        Some(at) => vec![at],
        // Colons of reStructuredText roles (`:math:`) are markup, not declarations.
        None => lower
            .match_indices(':')
            .map(|(i, _)| i + 1)
            .filter(|&i| !lower[..i].ends_with("math:") && !lower[i..].starts_with("math"))
            .collect(),
    };
    starts.into_iter().find_map(|from| {
        let rest = &text[from..];
        let open = rest.find(['[', '('])?;
        // Only filler between the keyword and the group: `of`, `is`, `:math:`, backticks.
        let gap = &rest[..open];
        let filler = gap
            .split(|c: char| c.is_whitespace() || c == '`' || c == ':')
            .all(|w| w.is_empty() || matches!(w, "of" | "is" | "math" | "must" | "be"));
        if !filler {
            return None;
        }
        let close = if rest.as_bytes()[open] == b'[' {
            ']'
        } else {
            ')'
        };
        let len = rest[open + 1..].find(close)?;
        let inner = &rest[open + 1..open + 1 + len];
        if inner.contains(['(', '[']) {
            return None;
        }
        // `(N, H, W) or (N, 1, H, W)`: one of several shapes, which declares none.
        let after =
            rest[open + 2 + len..].trim_start_matches(|c: char| c.is_whitespace() || c == '`');
        if after.starts_with("or ") || after.starts_with("or(") || after.starts_with("or`") {
            return None;
        }
        let word = inner.trim().trim_matches('`');
        if is_identifier(word) {
            return Some(Group::Word(word.to_string()));
        }
        let dims = parse_list(inner)?;
        // All numbers without the word "shape" is a value range or a literal (`[0, 255]`).
        let named = dims.iter().any(|d| matches!(d, AnnotatedDim::Name(_)));
        (named || after_shape.is_some()).then_some(Group::Dims(dims))
    })
}

/// `B, T, D` / `batch_size, 1, h, w` / `N, *` as dims; `None` on anything else (prose,
/// types, keyword lists).
fn parse_list(inner: &str) -> Option<Vec<AnnotatedDim>> {
    let mut tokens: Vec<&str> = inner
        .split(',')
        .map(|t| t.trim().trim_matches('`'))
        .collect();
    if tokens.last() == Some(&"") && tokens.len() > 1 {
        tokens.pop(); // `(batch_size,)`
    }
    // A single word in brackets is prose as often as a dim: a declaration lists two or more.
    if tokens.len() < 2 {
        return None;
    }
    tokens
        .into_iter()
        .map(|t| {
            if t == "..." || t.starts_with('*') {
                Some(AnnotatedDim::Variadic)
            } else if let Ok(c) = t.parse::<i64>() {
                Some(AnnotatedDim::Const(c))
            } else if is_identifier(t) {
                Some(AnnotatedDim::Name(t.to_string()))
            } else {
                None
            }
        })
        .collect::<Option<Vec<_>>>()
        .filter(|dims| {
            dims.iter()
                .filter(|d| **d == AnnotatedDim::Variadic)
                .count()
                <= 1
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use AnnotatedDim::*;

    fn names(xs: &[&str]) -> Vec<String> {
        xs.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn declarations_in_common_styles_are_read() {
        let got = declared_shapes(
            "x: [B, T, D]; pad_mask: [B, T] with True at padding positions.",
            &names(&["x", "pad_mask"]),
        );
        assert_eq!(
            got["x"],
            vec![Name("B".into()), Name("T".into()), Name("D".into())]
        );
        assert_eq!(got["pad_mask"], vec![Name("B".into()), Name("T".into())]);

        let got = declared_shapes(
            "d_real, d_fake: raw PatchGAN logits, one per patch: [batch, 1, h, w].",
            &names(&["d_real", "d_fake"]),
        );
        assert_eq!(got.len(), 2);
        assert_eq!(got["d_fake"][1], Const(1));

        let got = declared_shapes(
            "Args:\n    hidden_states (`torch.FloatTensor` of shape `(batch_size, sequence_length, hidden_size)`):\n        input",
            &names(&["hidden_states"]),
        );
        assert_eq!(got["hidden_states"].len(), 3);

        let got = declared_shapes("x: Tensor of shape (N, *)", &names(&["x"]));
        assert_eq!(got["x"], vec![Name("N".into()), Variadic]);

        let got = declared_shapes(
            "x: Input RGB tensor in :math:`[0, 255]` with shape :math:`(*, 3, H, W)`.",
            &names(&["x"]),
        );
        assert_eq!(got["x"].len(), 4);
    }

    #[test]
    fn a_single_word_is_a_dim_only_when_another_declaration_shares_it() {
        let params = names(&["ids", "negatives", "mask"]);
        let got = declared_shapes(
            "ids: [batch]; negatives: [batch, k]; mask: [optional]",
            &params,
        );
        assert_eq!(got["ids"], vec![Name("batch".into())]);
        assert_eq!(got["negatives"].len(), 2);
        assert!(!got.contains_key("mask"));
        let got = declared_shapes("ids: [batch]", &params);
        assert!(got.is_empty(), "{got:?}");
    }

    #[test]
    fn prose_may_describe_one_input_shape() {
        let got = described_shape(&["Clips arrive as [batch, time, channels, height, width]."]);
        assert_eq!(got.map(|d| d.len()), Some(5));
        let got = described_shape(&["Point clouds [batch, n_points, 3].", "Input (B, N, 3)."]);
        assert_eq!(got, None, "two different shapes describe nothing");
        let got = described_shape(&["Input: (N, C, H, W)", "Same input (N, C, H, W) again"]);
        assert_eq!(got.map(|d| d.len()), Some(4));
        let got =
            described_shape(&["Videos of shape (batch_size, num_frames,\n    height, width)"]);
        assert_eq!(got.map(|d| d.len()), Some(4));
        for doc in [
            "Values in [0, 255] (see the paper).",
            "A (3, 3) kernel, then softmax(QK^T / sqrt(d)).",
            "Input (optional), output [batch]",
            "Improves metrics (accuracy, robustness) at no cost.",
            "Decodes (B, 4 * c1, A) into distances of shape (B, 4, A).",
        ] {
            assert_eq!(described_shape(&[doc]), None, "{doc}");
        }
    }

    #[test]
    fn prose_declares_nothing() {
        let params = names(&["x", "mask", "k"]);
        for doc in [
            "Compute the output (see the paper).",
            "x: the input (optional)",
            "Returns x (a tensor).",
            "k: number of neighbours [default: 5]",
            "x -> (B, T)",
            "x: Input RGB tensor in :math:`[0, 255]` with values only",
            "x: (x, y, z) coordinates in the camera frame. Shape must be BxHxWx3.",
            "x (Tensor): The target Tensor of dimension `[batch, frame, final_dim]`.",
            "x (list[torch.Tensor]): Flattened features, each with shape (HW, B, C).",
            "mask (tuple of Tensors of shape (B, T)): one per layer",
            "x: torch.Tensor of shape (N, H, W)  or (N, 1, H, W)",
        ] {
            let got = declared_shapes(doc, &params);
            assert!(got.is_empty(), "{doc}: {got:?}");
        }
    }
}
