//! Signatures written back into the source as jaxtyping annotations
//! (`x: Shaped[torch.Tensor, "x0 3 x2 x3"]`, `-> Shaped[torch.Tensor, "x0 8"]`): the tensor
//! parameters of every function, `forward` and method some input gets through, with the rank
//! admitted (`*xbatch` and the trailing dims when several are), static dims as numbers,
//! other dims named after the parameter and position, and the shape returned when one rank
//! is admitted and its dims are expressions over the inputs'. Checking the annotated file
//! gives the same verdicts: the annotations admit inputs the analysis tried and found
//! admitted, and names are never shared between dims the analysis kept apart.
//!
//! A unit that fails for every input (a finding) is left as it is.

use ruff_python_ast::{Expr, ModModule, Parameter, Stmt, StmtFunctionDef};
use ruff_text_size::{Ranged, TextRange, TextSize};

use super::{Signature, VariantSignature};

/// `text` with the annotations of `signatures` written in, or `None` when there is nothing to
/// annotate.
pub fn annotated(text: &str, module: &ModModule, signatures: &[Signature]) -> Option<String> {
    let mut edits: Vec<(TextRange, String)> = Vec::new();
    for s in signatures {
        let Some(def) = def_of(module, s) else {
            continue;
        };
        // A base class's `forward` is every subclass's that does not write its own, each
        // admitting its own inputs: the base's signature would speak for them too.
        if s.kind == "class" && inherited_forward(module, &s.unit) {
            continue;
        }
        let admitted: Vec<&VariantSignature> = s.admitted().collect();
        if admitted.is_empty() {
            continue;
        }
        let params = def
            .parameters
            .posonlyargs
            .iter()
            .chain(&def.parameters.args)
            .chain(&def.parameters.kwonlyargs)
            .map(|p| &p.parameter);
        let mut annotated_any = false;
        for param in params {
            if let Some(spec) = dims_spec(param.name.as_str(), &admitted) {
                edits.push(annotation_edit(param, &spec));
                annotated_any = true;
            }
        }
        if annotated_any {
            if let Some(spec) = returns_spec(&admitted) {
                let ann = format!("Shaped[torch.Tensor, \"{spec}\"]");
                edits.push(match &def.returns {
                    Some(r) => (r.range(), ann),
                    None => (empty_at(def.parameters.range.end()), format!(" -> {ann}")),
                });
            }
        }
    }
    if edits.is_empty() {
        return None;
    }
    edits.extend(import_edits(text, module));
    edits.sort_by_key(|(r, _)| std::cmp::Reverse((r.start(), r.end())));
    let mut out = text.to_string();
    for (range, replacement) in edits {
        out.replace_range(
            range.start().to_usize()..range.end().to_usize(),
            &replacement,
        );
    }
    Some(out)
}

/// Whether a class of the module derives from `class` and uses its `forward`.
fn inherited_forward(module: &ModModule, class: &str) -> bool {
    module.body.iter().any(|stmt| match stmt {
        Stmt::ClassDef(c) => {
            let derives = c.bases().iter().any(|b| match b {
                ruff_python_ast::Expr::Name(n) => n.id.as_str() == class,
                ruff_python_ast::Expr::Attribute(a) => a.attr.as_str() == class,
                _ => false,
            });
            let own_forward = c
                .body
                .iter()
                .any(|s| matches!(s, Stmt::FunctionDef(f) if f.name.as_str() == "forward"));
            derives && !own_forward
        }
        _ => false,
    })
}

/// The `def` a signature describes: a function, a module class's `forward`, a method
/// (`Class.method`).
fn def_of<'m>(module: &'m ModModule, s: &Signature) -> Option<&'m StmtFunctionDef> {
    let find = |body: &'m [Stmt], name: &str| {
        body.iter().find_map(|stmt| match stmt {
            Stmt::FunctionDef(f) if f.name.as_str() == name => Some(f),
            _ => None,
        })
    };
    let class = |name: &str| {
        module.body.iter().find_map(|stmt| match stmt {
            Stmt::ClassDef(c) if c.name.as_str() == name => Some(c),
            _ => None,
        })
    };
    match s.kind {
        "function" => find(&module.body, &s.unit),
        "class" => find(&class(&s.unit)?.body, "forward"),
        "method" => {
            let (c, m) = s.unit.split_once('.')?;
            find(&class(c)?.body, m)
        }
        _ => None,
    }
}

/// A parameter's dims as jaxtyping writes them, when it is a tensor input of every admitted
/// variant. With one rank admitted, its dims (a dim static in every variant as its number);
/// with several, `*xbatch` and the trailing dims of the smallest rank, aligned from the
/// right as broadcasting aligns them (jaxtyping cannot say "rank 3 or 4"; the variadic
/// part admits longer ones too).
fn dims_spec(name: &str, admitted: &[&VariantSignature]) -> Option<String> {
    let dims: Vec<(&VariantSignature, &Vec<String>)> = admitted
        .iter()
        .map(|v| {
            v.inputs
                .iter()
                .find(|i| i.name == name)
                .and_then(|i| i.dims.as_ref())
                .map(|d| (*v, d))
        })
        .collect::<Option<_>>()?;
    let small = dims.iter().map(|(_, d)| *d).min_by_key(|d| d.len())?;
    let smallest = small.len();
    let several = dims.iter().any(|(_, d)| d.len() != smallest);
    let mut parts: Vec<String> = Vec::new();
    if several {
        parts.push(format!("*{}batch", dim_name(name)));
    }
    for k in 0..smallest {
        // The dim `smallest - k` from the end, in each variant.
        let at: Vec<(&VariantSignature, &String)> = dims
            .iter()
            .map(|(v, d)| (*v, &d[d.len() - smallest + k]))
            .collect();
        let values: Option<Vec<i64>> = at
            .iter()
            .map(|(v, d)| v.fixed.iter().find(|f| &f.dim == *d).map(|f| f.value))
            .collect();
        parts.push(match values {
            Some(vs) if vs.windows(2).all(|w| w[0] == w[1]) => vs[0].to_string(),
            // Named as in the smallest rank.
            _ => dim_name(&small[k]),
        });
    }
    Some(parts.join(" "))
}

/// `x.shape[0]` → `x0`: a name jaxtyping accepts, kept apart from every other dim's.
fn dim_name(symbol: &str) -> String {
    let name: String = symbol
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    let name = name.replace("shape", "");
    match name.chars().next() {
        Some(c) if c.is_alphabetic() || c == '_' => name,
        _ => format!("d{name}"),
    }
}

/// One returned tensor's dims, when one variant is admitted and each dim is a number or an
/// expression over the inputs' dims without parentheses (which annotations read as a
/// product of dims: `((x2+1)//2)-1` would be read as other dims).
fn returns_spec(admitted: &[&VariantSignature]) -> Option<String> {
    let [v] = admitted else { return None };
    let [shape] = v.returns.as_slice() else {
        return None;
    };
    let inner = shape.strip_prefix('[')?.strip_suffix(']')?;
    // Longest first: `x.shape[1]` must not rewrite the start of `x.shape[10]`.
    let mut input_dims: Vec<&String> = v
        .inputs
        .iter()
        .filter_map(|i| i.dims.as_ref())
        .flatten()
        .collect();
    input_dims.sort_by_key(|d| std::cmp::Reverse(d.len()));
    let parts: Option<Vec<String>> = inner
        .split(", ")
        .filter(|d| !d.is_empty())
        .map(|d| {
            let mut expr = d.to_string();
            for sym in &input_dims {
                expr = expr.replace(sym.as_str(), &dim_name(sym));
            }
            let expr: String = expr.chars().filter(|c| !c.is_whitespace()).collect();
            // No parentheses: `(h w)` is a product of dims in these annotations.
            expr.chars()
                .all(|c| c.is_alphanumeric() || "_+-*/".contains(c))
                .then(|| known_names_only(&expr, v).then_some(expr))
                .flatten()
        })
        .collect();
    Some(parts?.join(" "))
}

/// Whether every name in `expr` is an input dim's (jaxtyping binds nothing else).
fn known_names_only(expr: &str, v: &VariantSignature) -> bool {
    let names: Vec<String> = v
        .inputs
        .iter()
        .filter_map(|i| i.dims.as_ref())
        .flatten()
        .map(|d| dim_name(d))
        .collect();
    expr.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| {
            w.chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_')
        })
        .all(|w| names.iter().any(|n| n == w))
}

fn annotation_edit(param: &Parameter, spec: &str) -> (TextRange, String) {
    let ann = format!("Shaped[torch.Tensor, \"{spec}\"]");
    match &param.annotation {
        Some(a) => (a.range(), ann),
        None => (empty_at(param.name.range.end()), format!(": {ann}")),
    }
}

fn empty_at(at: TextSize) -> TextRange {
    TextRange::new(at, at)
}

/// `from jaxtyping import Shaped` (and `import torch` when the module does not bind
/// `torch`), after the module's docstring and `__future__` imports, on lines of their own.
fn import_edits(text: &str, module: &ModModule) -> Vec<(TextRange, String)> {
    let imports = |pred: &dyn Fn(&Stmt) -> bool| module.body.iter().any(pred);
    let has_shaped = imports(&|s| match s {
        Stmt::ImportFrom(i) => {
            i.module.as_ref().is_some_and(|m| m.as_str() == "jaxtyping")
                && i.names
                    .iter()
                    .any(|n| n.name.as_str() == "Shaped" && n.asname.is_none())
        }
        _ => false,
    });
    let has_torch = imports(&|s| match s {
        Stmt::Import(i) => i
            .names
            .iter()
            .any(|n| n.name.as_str() == "torch" && n.asname.is_none()),
        _ => false,
    });
    let mut lines = String::new();
    if !has_torch {
        lines.push_str("import torch\n");
    }
    if !has_shaped {
        lines.push_str("from jaxtyping import Shaped\n");
    }
    if lines.is_empty() {
        return Vec::new();
    }
    // After the docstring and `from __future__` imports, which must come first.
    let after = module
        .body
        .iter()
        .take_while(|s| match s {
            Stmt::Expr(e) => matches!(&*e.value, Expr::StringLiteral(_)),
            Stmt::ImportFrom(i) => i
                .module
                .as_ref()
                .is_some_and(|m| m.as_str() == "__future__"),
            _ => false,
        })
        .last()
        .map(|s| s.range().end());
    let at = match after {
        Some(end) => {
            // The start of the next line.
            let rest = &text[end.to_usize()..];
            let newline = rest.find('\n').map_or(rest.len(), |i| i + 1);
            if newline == rest.len() && !rest.ends_with('\n') {
                lines.insert(0, '\n');
            }
            end + TextSize::from(newline as u32)
        }
        None => TextSize::from(0),
    };
    vec![(empty_at(at), lines)]
}

#[cfg(test)]
mod tests {
    use super::*;

    const MODELS: &str = r#""""Models."""
from __future__ import annotations

import torch
import torch.nn as nn


def patches(x):
    b, c, h, w = x.shape
    return x.reshape(b, c, h * w)


def head(x: torch.Tensor, w):
    return x @ torch.randn(8, 4)


class Broken(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(4, 8)
        self.b = nn.Linear(16, 2)

    def forward(self, x):
        return self.b(self.a(x))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3)

    def forward(self, x):
        return self.conv(x).flatten(1)
"#;

    fn verdicts(src: &str) -> Vec<(String, String)> {
        let mut v: Vec<(String, String)> = crate::testing::findings(src)
            .into_iter()
            .map(|f| (format!("{:?}", f.kind), f.message))
            .collect();
        v.sort();
        v
    }

    /// The annotated file reads the same to the analysis: the same findings, and each unit
    /// admits what it admitted, now from its annotations.
    #[test]
    fn annotations_round_trip() {
        let module = crate::frontend::parse_python(MODELS).expect("parses");
        let sigs = super::super::tests::signatures_of(MODELS, &[]);
        let annotated = annotated(MODELS, &module, &sigs).expect("something to annotate");
        for expected in [
            "from __future__ import annotations\nfrom jaxtyping import Shaped\n",
            "def patches(x: Shaped[torch.Tensor, \"x0 x1 x2 x3\"]) -> Shaped[torch.Tensor, \"x0 x1 x2*x3\"]:",
            // Several ranks admitted: the smallest's dims, more leading ones allowed.
            "def head(x: Shaped[torch.Tensor, \"*xbatch 8\"], w):",
            "    def forward(self, x: Shaped[torch.Tensor, \"*xbatch 3 x1 x2\"]):\n        return self.conv",
            // A unit that fails for every input is left as it is.
            "    def forward(self, x):\n        return self.b",
        ] {
            assert!(annotated.contains(expected), "{expected}\n---\n{annotated}");
        }
        assert_eq!(verdicts(&annotated), verdicts(MODELS));
        assert_eq!(verdicts(MODELS).len(), 1, "Broken");
        let again = super::super::tests::signatures_of(&annotated, &[]);
        let admitted = |sigs: &[Signature]| -> Vec<(String, usize)> {
            sigs.iter()
                .map(|s| (s.unit.clone(), s.admitted().count()))
                .collect()
        };
        // Each unit that admitted some input still does.
        for ((unit, before), (_, after)) in admitted(&sigs).into_iter().zip(admitted(&again)) {
            assert_eq!(before > 0, after > 0, "{unit}");
        }
    }

    /// A base class whose `forward` its subclasses use is left alone: a subclass builds
    /// other layers and admits other inputs (polynet's `MultiWay`: the base admits vectors,
    /// its subclasses images), so the base's annotation would fail them.
    #[test]
    fn a_forward_subclasses_inherit_is_not_annotated() {
        let src = "
import torch
import torch.nn as nn


class MultiWay(nn.Module):
    def __init__(self, block):
        super().__init__()
        self.block = block

    def forward(self, x):
        return self.block(x) + x


class ImageWay(MultiWay):
    def __init__(self):
        super().__init__(nn.Conv2d(8, 8, 3, padding=1))


class Own(MultiWay):
    def forward(self, x):
        return x
";
        let module = crate::frontend::parse_python(src).expect("parses");
        let sigs = super::super::tests::signatures_of(src, &[]);
        let annotated = annotated(src, &module, &sigs).unwrap_or_else(|| src.to_string());
        assert!(
            annotated.contains("class MultiWay(nn.Module):\n    def __init__(self, block):\n        super().__init__()\n        self.block = block\n\n    def forward(self, x):"),
            "{annotated}"
        );
        assert_eq!(verdicts(&annotated), verdicts(src));
    }

    /// A returned dim with parentheses (a conv's floor division) is not written: the
    /// annotation would read as other dims, and checking it would fail.
    #[test]
    fn returns_with_parentheses_are_not_annotated() {
        let src = "
import torch
import torch.nn as nn


def down(x):
    b, c, h, w = x.shape
    return nn.MaxPool2d(3, stride=2, padding=1)(x)
";
        let module = crate::frontend::parse_python(src).expect("parses");
        let sigs = super::super::tests::signatures_of(src, &[]);
        let annotated = annotated(src, &module, &sigs).expect("the input is annotated");
        assert!(
            annotated.contains("def down(x: Shaped[torch.Tensor, \"x0 x1 x2 x3\"]):"),
            "{annotated}"
        );
        assert_eq!(verdicts(&annotated), verdicts(src));
    }

    #[test]
    fn dim_names_are_identifiers() {
        assert_eq!(dim_name("x.shape[0]"), "x0");
        assert_eq!(dim_name("hidden_dim"), "hidden_dim");
        assert_eq!(dim_name("3"), "d3");
    }
}
