//! Units of analysis: the module's own code (with its concrete entry calls), every
//! `nn.Module` subclass (constructed with symbolic or default hyperparameters, `forward` run on
//! symbolic inputs of each plausible rank), and parameterless test functions.

use std::collections::HashSet;

use ruff_python_ast::visitor::{walk_expr, Visitor};
use ruff_python_ast::{Expr, ModModule, Stmt, StmtClassDef, StmtFunctionDef};
use ruff_text_size::TextRange;

use super::interp::Interp;
use super::trace::{Input, Trace};
use super::value::V;
use crate::shapes::{DimExpr, Pred, Value};

/// What kind of unit produced a trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnitKind {
    /// Module-level code, with concrete entry calls.
    Module,
    /// An `nn.Module` subclass: `__init__` then `forward`.
    Class,
    /// A function run on its own (a test function, or one with annotated tensor inputs).
    Function,
}

impl UnitKind {
    pub fn name(self) -> &'static str {
        match self {
            UnitKind::Module => "module",
            UnitKind::Class => "class",
            UnitKind::Function => "function",
        }
    }
}

/// One run of one unit: a rank assignment for its symbolic inputs is a variant.
#[derive(Clone, Debug)]
pub struct UnitRun {
    pub unit: String,
    pub kind: UnitKind,
    /// `x:4` style description of the input ranks chosen; empty for concrete runs.
    pub variant: String,
    pub span: TextRange,
    pub trace: Trace,
}

/// Ranks tried for a symbolic tensor input of unknown rank.
const RANKS: [usize; 5] = [1, 2, 3, 4, 5];
/// At most this many rank variants per unit.
const MAX_VARIANTS: usize = 25;

/// Runs every unit of a parsed file.
pub fn run_units(module: &ModModule, text: &str) -> Vec<UnitRun> {
    let mut interp = Interp::new(text);
    interp.globals.insert(
        "__name__".to_string(),
        V::Data(Value::Str(Some("__main__".into()))),
    );
    interp.exec_block(&module.body);
    let mut runs = vec![UnitRun {
        unit: "<module>".to_string(),
        kind: UnitKind::Module,
        variant: String::new(),
        span: TextRange::default(),
        trace: std::mem::take(&mut interp.trace),
    }];
    let globals = interp.globals.clone();
    for stmt in &module.body {
        match stmt {
            Stmt::ClassDef(class) if is_module_class(&interp, class) => {
                runs.extend(run_class(&mut interp, &globals, class));
            }
            Stmt::FunctionDef(def)
                if def.parameters.is_empty() && def.name.id.starts_with("test") =>
            {
                reset(&mut interp, &globals);
                interp.call_user(def, None, Vec::new(), Vec::new(), TextRange::default());
                runs.push(UnitRun {
                    unit: def.name.id.to_string(),
                    kind: UnitKind::Function,
                    variant: String::new(),
                    span: def.range,
                    trace: std::mem::take(&mut interp.trace),
                });
            }
            _ => {}
        }
    }
    runs
}

fn reset<'a>(interp: &mut Interp<'a>, globals: &std::collections::HashMap<String, V<'a>>) {
    interp.globals = globals.clone();
    interp.locals.clear();
    interp.guards.clear();
    interp.dead = false;
    interp.trace = Trace::default();
    interp.reset_symbols();
}

/// A class deriving (directly or through classes of the file) from a torch `nn.Module`.
fn is_module_class<'a>(interp: &Interp<'a>, class: &'a StmtClassDef) -> bool {
    let mut todo = vec![class];
    let mut seen = 0;
    while let Some(c) = todo.pop() {
        seen += 1;
        if seen > 16 {
            return false;
        }
        let Some(args) = &c.arguments else { continue };
        for base in args.args.iter() {
            if let Some(path) = torch_path_of(interp, base) {
                if path.starts_with("torch.nn") {
                    return true;
                }
            }
        }
        todo.extend(interp.user_bases(c));
    }
    false
}

fn torch_path_of<'a>(interp: &Interp<'a>, e: &Expr) -> Option<String> {
    match e {
        Expr::Name(n) => match interp.globals.get(n.id.as_str()) {
            Some(V::Torch(p)) => Some(p.to_string()),
            _ => None,
        },
        Expr::Attribute(a) => Some(format!(
            "{}.{}",
            torch_path_of(interp, &a.value)?,
            a.attr.id
        )),
        _ => None,
    }
}

/// The class's `forward` (its own or a base's in the file).
fn forward_of<'a>(interp: &Interp<'a>, class: &'a StmtClassDef) -> Option<&'a StmtFunctionDef> {
    match interp.class_member(class, "forward") {
        Some(V::Func(f)) => Some(f),
        _ => None,
    }
}

fn init_of<'a>(interp: &Interp<'a>, class: &'a StmtClassDef) -> Option<&'a StmtFunctionDef> {
    match interp.class_member(class, "__init__") {
        Some(V::Func(f)) => Some(f),
        _ => None,
    }
}

/// Runs a module class once per rank variant of its `forward` inputs.
fn run_class<'a>(
    interp: &mut Interp<'a>,
    globals: &std::collections::HashMap<String, V<'a>>,
    class: &'a StmtClassDef,
) -> Vec<UnitRun> {
    let Some(forward) = forward_of(interp, class) else {
        return Vec::new();
    };
    let tensor_params: Vec<&str> = forward
        .parameters
        .posonlyargs
        .iter()
        .chain(forward.parameters.args.iter())
        .skip(1)
        .filter(|p| p.default.is_none())
        .map(|p| p.parameter.name.id.as_str())
        .collect();
    let variants = rank_variants(tensor_params.len());
    let mut runs = Vec::new();
    for ranks in variants {
        reset(interp, globals);
        let (ctor_args, ctor_inputs) = symbolic_ctor_args(interp, class);
        let obj = interp.instantiate(class, Vec::new(), ctor_args, class.range);
        let mut args = Vec::new();
        let mut variant = Vec::new();
        for (i, name) in tensor_params.iter().enumerate() {
            match ranks.get(i) {
                Some(&r) => {
                    let (v, dims) = interp.fresh_tensor(name, r);
                    interp.trace.inputs.push(Input::Tensor {
                        name: name.to_string(),
                        dims,
                    });
                    variant.push(format!("{name}:{r}"));
                    args.push(v);
                }
                None => args.push(V::Data(Value::tensor(
                    crate::shapes::Shape::unknown(),
                    None,
                ))),
            }
        }
        interp.trace.inputs.extend(ctor_inputs);
        if !interp.dead {
            interp.call_user(forward, Some(obj), args, Vec::new(), TextRange::default());
        }
        runs.push(UnitRun {
            unit: class.name.id.to_string(),
            kind: UnitKind::Class,
            variant: variant.join(","),
            span: class.range,
            trace: std::mem::take(&mut interp.trace),
        });
    }
    runs
}

/// Every assignment of ranks to the first two tensor inputs (later ones stay rank-unknown).
fn rank_variants(n: usize) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = vec![Vec::new()];
    for _ in 0..n.min(2) {
        let mut next = Vec::new();
        for prefix in &out {
            for r in RANKS {
                let mut v = prefix.clone();
                v.push(r);
                next.push(v);
            }
        }
        out = next;
    }
    out.truncate(MAX_VARIANTS);
    out
}

/// Constructor parameters without a default: a size-like one (used in arithmetic or as a
/// layer's argument in `__init__`) becomes a positive symbol; any other stays unknown.
fn symbolic_ctor_args<'a>(
    interp: &mut Interp<'a>,
    class: &'a StmtClassDef,
) -> (Vec<(String, V<'a>)>, Vec<Input>) {
    let Some(init) = init_of(interp, class) else {
        return (Vec::new(), Vec::new());
    };
    let mut sizes = SizeUse::default();
    for stmt in &init.body {
        ruff_python_ast::visitor::walk_stmt(&mut sizes, stmt);
    }
    let mut args = Vec::new();
    let mut inputs = Vec::new();
    let params = &init.parameters;
    if params.kwarg.is_some() {
        // Whatever a caller might pass through `**kwargs` is unknown.
        args.push(("**".to_string(), V::Unknown));
    }
    for p in params
        .posonlyargs
        .iter()
        .chain(params.args.iter())
        .skip(1)
        .chain(params.kwonlyargs.iter())
    {
        if p.default.is_some() {
            continue;
        }
        let name = p.parameter.name.id.as_str();
        let v = if sizes.names.contains(name) {
            let s = interp.fresh_sym(name);
            interp.trace.fact(Pred::Le(DimExpr::one(), s.clone()), None);
            inputs.push(Input::Int {
                name: name.to_string(),
                value: s.clone(),
            });
            V::Data(Value::Int(s))
        } else {
            V::Unknown
        };
        args.push((name.to_string(), v));
    }
    (args, inputs)
}

/// Names used as sizes: operands of arithmetic, or among the first arguments of a class
/// construction (`nn.Linear(d, 2 * d)`).
#[derive(Default)]
struct SizeUse {
    names: HashSet<String>,
}

impl<'b> Visitor<'b> for SizeUse {
    fn visit_expr(&mut self, e: &'b Expr) {
        match e {
            Expr::BinOp(b) => {
                for side in [&*b.left, &*b.right] {
                    if let Expr::Name(n) = side {
                        self.names.insert(n.id.to_string());
                    }
                }
            }
            Expr::Call(c) => {
                let callee = match &*c.func {
                    Expr::Attribute(a) => a.attr.id.as_str(),
                    Expr::Name(n) => n.id.as_str(),
                    _ => "",
                };
                if callee.starts_with(|ch: char| ch.is_ascii_uppercase()) {
                    for a in c.arguments.args.iter().take(3) {
                        if let Expr::Name(n) = a {
                            self.names.insert(n.id.to_string());
                        }
                    }
                    for k in c.arguments.keywords.iter() {
                        let size_kw = k
                            .arg
                            .as_ref()
                            .is_some_and(|a| SIZE_KEYWORDS.contains(&a.id.as_str()));
                        if let (true, Expr::Name(n)) = (size_kw, &k.value) {
                            self.names.insert(n.id.to_string());
                        }
                    }
                }
            }
            _ => {}
        }
        walk_expr(self, e);
    }
}

const SIZE_KEYWORDS: &[&str] = &[
    "in_features",
    "out_features",
    "in_channels",
    "out_channels",
    "num_features",
    "embed_dim",
    "num_heads",
    "hidden_size",
    "input_size",
    "embedding_dim",
    "num_embeddings",
    "d_model",
    "nhead",
    "dim_feedforward",
    "normalized_shape",
    "num_channels",
    "num_groups",
    "kdim",
    "vdim",
    "proj_size",
];
