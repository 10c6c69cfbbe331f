//! Units of analysis: the module's own code (with its concrete entry calls), every
//! `nn.Module` subclass (constructed with symbolic or default hyperparameters, `forward` run on
//! symbolic inputs of each plausible rank), and parameterless test functions.

use std::collections::HashMap;

use ruff_python_ast::{Expr, ModModule, Stmt, StmtClassDef, StmtFunctionDef};
use ruff_text_size::TextRange;

use super::interp::Interp;
use super::params::{classify, AnnotatedDim, Default, ParamKind};
use super::trace::{Input, Trace};
use super::value::V;
use crate::shapes::shape::{Dim, Shape};
use crate::shapes::{DimExpr, Pred, Value};

/// What kind of unit produced a trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct UnitRun {
    pub unit: String,
    pub kind: UnitKind,
    /// `x:4` style description of the input ranks chosen; empty for concrete runs.
    pub variant: String,
    pub trace: Trace,
}

/// Ranks tried for a symbolic tensor input of unknown rank.
const RANKS: [usize; 6] = [1, 2, 3, 4, 5, 6];
/// Lengths tried for the `...` part of an annotated shape.
const VARIADIC: [usize; 3] = [0, 1, 2];
/// At most this many rank variants per unit.
const MAX_VARIANTS: usize = 36;

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
        trace: std::mem::take(&mut interp.trace),
    }];
    let globals = interp.globals.clone();
    for stmt in &module.body {
        match stmt {
            Stmt::ClassDef(class) if is_module_class(&interp, class) => {
                runs.extend(run_class(&mut interp, &globals, class));
            }
            Stmt::FunctionDef(def) => runs.extend(run_function(&mut interp, &globals, def)),
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

/// How one input is bound in one variant.
#[derive(Clone, Debug)]
enum Choice {
    /// A tensor of this rank with fresh dims.
    Rank(usize),
    /// An annotated shape with its `...` part this long.
    Annotated(Vec<AnnotatedDim>, usize),
    Size,
    Unknown,
}

/// The choices for each parameter, and every combination of them (bounded): parameters of
/// unknown rank and annotated shapes with `...` have several.
fn variants(kinds: &[(String, ParamKind, Default)]) -> Vec<Vec<(String, Choice)>> {
    let mut out: Vec<Vec<(String, Choice)>> = vec![Vec::new()];
    for (name, kind, default) in kinds {
        match default {
            // A parameter with a default runs with its default, unless the default is
            // `None`: an optional input whose real values the callers decide.
            Default::Value => continue,
            Default::None => {
                out.iter_mut()
                    .for_each(|v| v.push((name.clone(), Choice::Unknown)));
                continue;
            }
            Default::Absent => {}
        }
        let options: Vec<Choice> = match kind {
            // Every rank, as long as the combinations stay bounded; past that an input is
            // unknown (never a partial set of ranks: a finding needs every rank to fail).
            ParamKind::Tensor if out.len() * RANKS.len() <= MAX_VARIANTS => {
                RANKS.iter().map(|&r| Choice::Rank(r)).collect()
            }
            ParamKind::Tensor => vec![Choice::Unknown],
            ParamKind::Ranked(r) => vec![Choice::Rank(*r)],
            ParamKind::Shaped(dims)
                if dims.contains(&AnnotatedDim::Variadic)
                    && out.len() * VARIADIC.len() <= MAX_VARIANTS =>
            {
                VARIADIC
                    .iter()
                    .map(|&n| Choice::Annotated(dims.clone(), n))
                    .collect()
            }
            ParamKind::Shaped(dims) => vec![Choice::Annotated(dims.clone(), 0)],
            ParamKind::Size => vec![Choice::Size],
            ParamKind::Unknown => vec![Choice::Unknown],
        };
        let mut next = Vec::new();
        for prefix in &out {
            for o in &options {
                let mut v = prefix.clone();
                v.push((name.clone(), o.clone()));
                next.push(v);
            }
        }
        out = next;
    }
    out
}

/// The symbol for an annotated dim name, shared by every parameter of the unit.
fn named_dim<'a>(
    interp: &mut Interp<'a>,
    named: &mut HashMap<String, DimExpr>,
    name: &str,
) -> DimExpr {
    if let Some(e) = named.get(name) {
        return e.clone();
    }
    let e = interp.fresh_input_dim(name);
    named.insert(name.to_string(), e.clone());
    e
}

/// Binds one variant's inputs: symbolic tensors (annotated names shared across
/// parameters), positive size symbols, unknowns. Returns keyword arguments and the
/// variant's description.
fn bind_inputs<'a>(
    interp: &mut Interp<'a>,
    choices: &[(String, Choice)],
) -> (Vec<(String, V<'a>)>, String) {
    let mut named: HashMap<String, DimExpr> = HashMap::new();
    let mut kwargs = Vec::new();
    let mut described = Vec::new();
    for (name, choice) in choices {
        let v = match choice {
            Choice::Rank(r) => {
                let (v, dims) = interp.fresh_tensor(name, *r);
                interp.trace.inputs.push(Input::Tensor {
                    name: name.clone(),
                    dims,
                });
                described.push(format!("{name}:{r}"));
                v
            }
            Choice::Annotated(spec, variadic) => {
                let mut dims = Vec::new();
                for (i, d) in spec.iter().enumerate() {
                    match d {
                        AnnotatedDim::Const(c) => dims.push(DimExpr::constant(*c)),
                        AnnotatedDim::Name(n) => dims.push(named_dim(interp, &mut named, n)),
                        AnnotatedDim::Product(ns) => {
                            let mut e = DimExpr::one();
                            for n in ns {
                                e = e.mul(&named_dim(interp, &mut named, n));
                            }
                            dims.push(e);
                        }
                        AnnotatedDim::Variadic => {
                            for j in 0..*variadic {
                                dims.push(interp.fresh_input_dim(&format!("{name}.batch{i}_{j}")));
                            }
                        }
                    }
                }
                interp.trace.inputs.push(Input::Tensor {
                    name: name.clone(),
                    dims: dims.clone(),
                });
                described.push(format!("{name}:{}", dims.len()));
                let shape = Shape::Ranked(dims.into_iter().map(Dim::Known).collect());
                V::Data(Value::tensor(shape, None))
            }
            Choice::Size => {
                let s = interp.fresh_sym(name);
                interp.trace.fact(Pred::Le(DimExpr::one(), s.clone()), None);
                interp.trace.inputs.push(Input::Int {
                    name: name.clone(),
                    value: s.clone(),
                });
                V::Data(Value::Int(s))
            }
            Choice::Unknown => V::Unknown,
        };
        kwargs.push((name.clone(), v));
    }
    (kwargs, described.join(","))
}

/// Runs a module class once per variant of its `forward` inputs: `__init__` with symbolic
/// size parameters (or their defaults), then `forward`.
fn run_class<'a>(
    interp: &mut Interp<'a>,
    globals: &HashMap<String, V<'a>>,
    class: &'a StmtClassDef,
) -> Vec<UnitRun> {
    let Some(forward) = forward_of(interp, class) else {
        return Vec::new();
    };
    let forward_kinds = classify(forward, true, true);
    let init = init_of(interp, class);
    let ctor_choices: Vec<(String, Choice)> = init
        .map(|init| {
            classify(init, true, false)
                .into_iter()
                .filter(|(_, _, default)| *default != Default::Value)
                .map(|(n, k, _)| {
                    let c = if k == ParamKind::Size {
                        Choice::Size
                    } else {
                        Choice::Unknown
                    };
                    (n, c)
                })
                .collect()
        })
        .unwrap_or_default();
    let init_kwargs = init.is_some_and(|i| i.parameters.kwarg.is_some());
    let mut runs = Vec::new();
    for choices in variants(&forward_kinds) {
        reset(interp, globals);
        let (mut ctor, _) = bind_inputs(interp, &ctor_choices);
        if init_kwargs {
            // Whatever a caller might pass through `**kwargs` is unknown.
            ctor.push(("**".to_string(), V::Unknown));
        }
        let obj = interp.instantiate(class, Vec::new(), ctor, class.range);
        let (args, variant) = bind_inputs(interp, &choices);
        if !interp.dead {
            interp.call_user(forward, Some(obj), Vec::new(), args, TextRange::default());
        }
        runs.push(UnitRun {
            unit: class.name.id.to_string(),
            kind: UnitKind::Class,
            variant,
            trace: std::mem::take(&mut interp.trace),
        });
    }
    runs
}

/// A top-level function with at least one tensor parameter (or none at all, for a test
/// function): run once per variant of its inputs.
fn run_function<'a>(
    interp: &mut Interp<'a>,
    globals: &HashMap<String, V<'a>>,
    def: &'a StmtFunctionDef,
) -> Vec<UnitRun> {
    let kinds = classify(def, false, false);
    let tensors = kinds.iter().any(|(_, k, d)| {
        *d == Default::Absent
            && matches!(
                k,
                ParamKind::Tensor | ParamKind::Ranked(_) | ParamKind::Shaped(_)
            )
    });
    let test = def.parameters.is_empty() && def.name.id.starts_with("test");
    if !(tensors || test) {
        return Vec::new();
    }
    let mut runs = Vec::new();
    for choices in variants(&kinds) {
        reset(interp, globals);
        let (args, variant) = bind_inputs(interp, &choices);
        interp.call_user(def, None, Vec::new(), args, TextRange::default());
        runs.push(UnitRun {
            unit: def.name.id.to_string(),
            kind: UnitKind::Function,
            variant,
            trace: std::mem::take(&mut interp.trace),
        });
    }
    runs
}
