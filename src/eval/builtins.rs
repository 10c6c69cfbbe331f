//! Python builtins the interpreter models: `len`, `range`, `zip`, `enumerate`, `min`/`max`
//! over dims, `list`/`tuple`, `getattr`, ...; anything else is unknown.

use std::rc::Rc;

use ruff_python_ast::Expr;
use ruff_text_size::TextRange;

use super::calls::iterate;
use super::expr::int_of;
use super::interp::Interp;
use super::methods::{set_key, set_of, sorted_of};
use super::numbers::known_number;
use super::value::{any_known, Partial, V};
use crate::shapes::bounds::Bounds;
use crate::shapes::{DimExpr, Value};

pub const BUILTINS: &[&str] = &[
    "len",
    "range",
    "int",
    "float",
    "bool",
    "str",
    "list",
    "tuple",
    "dict",
    "zip",
    "enumerate",
    "min",
    "max",
    "abs",
    "sum",
    "print",
    "isinstance",
    "issubclass",
    "getattr",
    "hasattr",
    "setattr",
    "super",
    "reversed",
    "sorted",
    "set",
    "frozenset",
    "dir",
    "round",
    "type",
    "iter",
    "next",
    "map",
    "filter",
    "any",
    "all",
    "ord",
    "chr",
    "open",
];

/// Standard-library modules and names the interpreter models (imported or reached as
/// attributes: `import collections.abc`, `from functools import partial`).
pub const STDLIB_PATHS: &[&str] = &[
    "typing",
    "typing.cast",
    "functools",
    "functools.partial",
    "types",
    "types.FunctionType",
    "types.SimpleNamespace",
    "argparse",
    "argparse.ArgumentParser",
    "argparse.Namespace",
    "itertools",
    "itertools.repeat",
    "itertools.product",
    "collections",
    "collections.OrderedDict",
    "collections.namedtuple",
    "collections.abc",
    "collections.abc.Iterable",
    "collections.abc.Sequence",
    "typing.Sequence",
    "dataclasses",
    "dataclasses.asdict",
    "dataclasses.replace",
    "copy",
    "copy.copy",
    "copy.deepcopy",
    "os",
    "os.environ",
    "os.environ.get",
    "os.getenv",
    "random",
    "random.random",
    "random.uniform",
    "random.randint",
    "string",
    // Progress bars (`libraries.rs`): their iterable, unchanged.
    "tqdm",
    "tqdm.tqdm",
    "tqdm.trange",
    "tqdm.auto",
    "tqdm.auto.tqdm",
    "tqdm.auto.trange",
    "tqdm.notebook",
    "tqdm.notebook.tqdm",
    "tqdm.notebook.trange",
];

pub fn stdlib_path(path: &str) -> Option<&'static str> {
    STDLIB_PATHS
        .iter()
        .chain(super::data_files::DATA_FUNCTIONS)
        .copied()
        .find(|p| *p == path && *p != "open")
}

pub fn builtin(name: &str) -> Option<&'static str> {
    BUILTINS.iter().copied().find(|b| *b == name)
}

/// Functions of Python's `math` module: numbers in, a number out (so a tensor divided by
/// `math.sqrt(d)` keeps its shape).
pub const MATH_FUNCS: &[&str] = &[
    "math.sqrt",
    "math.log",
    "math.log2",
    "math.log10",
    "math.exp",
    "math.pow",
    "math.cos",
    "math.sin",
    "math.tan",
    "math.atan",
    "math.erf",
    "math.floor",
    "math.ceil",
    "math.prod",
    "math.gcd",
    "math.isqrt",
];

/// `math.<attr>`: a modelled function, a constant, or unknown.
pub fn math_attr<'a>(attr: &str) -> V<'a> {
    match attr {
        "pi" => V::Data(Value::Float(Some(std::f64::consts::PI))),
        "e" => V::Data(Value::Float(Some(std::f64::consts::E))),
        "inf" => V::Data(Value::Float(Some(f64::INFINITY))),
        _ => MATH_FUNCS
            .iter()
            .copied()
            .find(|f| f.strip_prefix("math.") == Some(attr))
            .map_or(V::Unknown, V::Builtin),
    }
}

/// torch's float constants (`torch.pi`, `torch.e`, `torch.inf`, `torch.nan`).
pub fn torch_constant<'a>(path: &str) -> Option<V<'a>> {
    let x = match path {
        "torch.pi" => std::f64::consts::PI,
        "torch.e" => std::f64::consts::E,
        "torch.inf" => f64::INFINITY,
        "torch.nan" => f64::NAN,
        _ => return None,
    };
    Some(V::Data(Value::Float(Some(x))))
}

/// A `math` function applied to numbers: ints stay exact where Python's result is an int.
pub(super) fn call_math<'a>(name: &str, args: &[V<'a>]) -> V<'a> {
    let ints: Option<Vec<DimExpr>> = args.iter().map(int_of).collect();
    let floats: Option<Vec<f64>> = args
        .iter()
        .map(|a| match a {
            V::Data(Value::Float(Some(f))) => Some(*f),
            other => int_of(other).and_then(|e| e.as_const()).map(|c| c as f64),
        })
        .collect();
    let is_number = |a: &V<'a>| {
        matches!(
            a,
            V::Data(Value::Int(_) | Value::IntUnknown | Value::Float(_) | Value::Bool(_))
        )
    };
    match name {
        "math.prod" => {
            let items = args.first().and_then(iterate).unwrap_or_default();
            match items.iter().map(int_of).collect::<Option<Vec<_>>>() {
                Some(ints) => V::Data(Value::Int(DimExpr::product(ints.iter()))),
                None => V::Unknown,
            }
        }
        "math.floor" | "math.ceil" => match (&ints, &floats) {
            (Some(i), _) if i.len() == 1 => V::Data(Value::Int(i[0].clone())),
            (_, Some(f)) if f.len() == 1 => {
                let r = if name == "math.floor" {
                    f[0].floor()
                } else {
                    f[0].ceil()
                };
                V::Data(Value::int(r as i64))
            }
            _ if args.iter().all(is_number) => V::Data(Value::IntUnknown),
            _ => V::Unknown,
        },
        "math.gcd" | "math.isqrt" => match floats.as_deref() {
            Some([a, b]) if name == "math.gcd" => {
                let (mut a, mut b) = (a.abs() as i64, b.abs() as i64);
                while b != 0 {
                    (a, b) = (b, a % b);
                }
                V::Data(Value::int(a))
            }
            Some([a]) if name == "math.isqrt" && *a >= 0.0 => {
                V::Data(Value::int(a.sqrt().floor() as i64))
            }
            _ if args.iter().all(is_number) => V::Data(Value::IntUnknown),
            _ => V::Unknown,
        },
        _ if args.iter().all(is_number) => {
            let value = floats.as_deref().and_then(|f| match (name, f) {
                ("math.sqrt", [x]) if *x >= 0.0 => Some(x.sqrt()),
                ("math.log", [x]) if *x > 0.0 => Some(x.ln()),
                ("math.log", [x, b]) if *x > 0.0 && *b > 0.0 => Some(x.ln() / b.ln()),
                ("math.log2", [x]) if *x > 0.0 => Some(x.log2()),
                ("math.log10", [x]) if *x > 0.0 => Some(x.log10()),
                ("math.exp", [x]) => Some(x.exp()),
                ("math.pow", [x, y]) => Some(x.powf(*y)),
                _ => None,
            });
            V::Data(Value::Float(value))
        }
        _ => V::Unknown,
    }
}

/// Two known numbers, the whole argument list.
fn known_pair(args: &[V]) -> Option<(f64, f64)> {
    match args {
        [a, b] => Some((known_number(a)?, known_number(b)?)),
        _ => None,
    }
}

/// One concern's builtins (`Interp::call_builtin` dispatches by name).
type Builtin<'a> = fn(&mut Interp<'a>, &str, Vec<V<'a>>, Vec<(String, V<'a>)>, TextRange) -> V<'a>;

impl<'a> Interp<'a> {
    /// A builtin or a modelled standard-library function, by dotted name: dispatched by
    /// concern to the functions below; anything else is unknown.
    pub fn call_builtin(
        &mut self,
        name: &str,
        args: Vec<V<'a>>,
        kwargs: Vec<(String, V<'a>)>,
        span: TextRange,
    ) -> V<'a> {
        if name.starts_with("math.") {
            return call_math(name, &args);
        }
        if super::data_files::is_data_function(name) {
            return self.call_data_function(name, &args, &kwargs);
        }
        if name.starts_with("numpy.") {
            return self.call_numpy(name, args, kwargs, span);
        }
        if super::images::is_image_function(name) {
            return self.call_image(name, args, kwargs, span);
        }
        // A loader's batches: `iter` is the loader, `next` a batch, `enumerate` numbered ones.
        if let Some(V::Items(item)) = args.first() {
            match name {
                "iter" => return args[0].clone(),
                "next" => return (**item).clone(),
                _ => {}
            }
        }
        if let Some(V::Batches(b)) = args.first() {
            match name {
                "iter" => return args[0].clone(),
                // The first batch: a full one when any is.
                "next" => return b.item.clone(),
                "enumerate" => {
                    return b.map(|item| V::Tuple(vec![V::Data(Value::IntUnknown), item]));
                }
                _ => {}
            }
        }
        if let Some(v) = self.call_library(name, &args, &kwargs, span) {
            return v;
        }
        match name {
            "argparse.ArgumentParser" => return self.argument_parser(span),
            "argparse.Namespace" | "types.SimpleNamespace" => {
                return self.simple_namespace(kwargs, span)
            }
            "collections.namedtuple" => return self.named_tuple_class(&args, &kwargs),
            _ => {}
        }
        let call: Builtin<'a> = match name {
            "dataclasses.asdict"
            | "dataclasses.replace"
            | "os.environ.get"
            | "os.getenv"
            | "random.random"
            | "random.uniform"
            | "random.randint"
            | "copy.copy"
            | "copy.deepcopy"
            | "typing.cast"
            | "itertools.repeat"
            | "itertools.product"
            | "functools.partial" => Self::call_stdlib,
            "len"
            | "range"
            | "dir"
            | "set"
            | "frozenset"
            | "sorted"
            | "list"
            | "tuple"
            | "reversed"
            | "dict"
            | "collections.OrderedDict"
            | "zip"
            | "enumerate" => Self::collection_builtin,
            "int" | "float" | "bool" | "str" | "ord" | "chr" | "round" | "abs" => {
                Self::conversion_builtin
            }
            "min" | "max" | "sum" | "any" | "all" => Self::reduction_builtin,
            "isinstance" | "issubclass" | "print" | "setattr" | "getattr" => {
                Self::reflection_builtin
            }
            _ => return V::Unknown,
        };
        call(self, name, args, kwargs, span)
    }

    /// The standard library's functions the analysis models: dataclasses, the environment, draws,
    /// copies, `typing.cast`, `itertools.repeat`, `functools.partial`.
    fn call_stdlib(
        &mut self,
        name: &str,
        args: Vec<V<'a>>,
        kwargs: Vec<(String, V<'a>)>,
        span: TextRange,
    ) -> V<'a> {
        let first = args.first().cloned().unwrap_or(V::Unknown);
        match name {
            "dataclasses.asdict" => self.dataclass_asdict(&first).unwrap_or(V::Unknown),
            "dataclasses.replace" => self
                .dataclass_replace(&first, kwargs, span)
                .unwrap_or(V::Unknown),
            // The environment a file is analysed for is the default one: a variable read
            // with a default (`os.environ.get('TIMM_USE_NAFLEXVIT', 'false')`) is unset.
            "os.environ.get" | "os.getenv" => args.get(1).cloned().unwrap_or_else(V::none),
            // Draws: `random()` from [0, 1), `uniform(a, b)` between a and b (either end
            // included, as rounding can reach it), `randint(a, b)` from a..=b.
            "random.random" => V::Drawn(Bounds::half_open(0.0, 1.0)),
            "random.uniform" => match known_pair(&args) {
                Some((a, b)) => V::Drawn(Bounds::closed(a.min(b), a.max(b))),
                None => V::Data(Value::Float(None)),
            },
            "random.randint" => match known_pair(&args) {
                Some((a, b)) if a <= b => self.drawn_int(Bounds::closed(a, b)),
                _ => V::Data(Value::IntUnknown),
            },
            "copy.copy" => first.copied(false),
            "copy.deepcopy" => first.copied(true),
            // `typing.cast(T, v)` is `v` at run time.
            "typing.cast" => args.get(1).cloned().unwrap_or(V::Unknown),
            // `repeat(x, n)`: n copies (an endless repeat is not iterable here).
            "itertools.repeat" => match args.get(1).and_then(int_of).and_then(|n| n.as_const()) {
                Some(n) if (0..=super::interp::MAX_UNROLL as i64).contains(&n) => {
                    V::list(vec![first; n as usize])
                }
                _ => V::Unknown,
            },
            // `product(a, b, ...)` over known items: the tuples in Python's order (the last
            // iterable varies fastest), when there are few enough to unroll.
            "itertools.product" => {
                let repeat = match kwargs.as_slice() {
                    [] => Some(1),
                    [(k, v)] if k == "repeat" => int_of(v).and_then(|n| n.as_const()),
                    _ => None,
                };
                let pools: Option<Vec<Vec<V<'a>>>> = args
                    .iter()
                    .map(super::calls::iterate)
                    .collect::<Option<_>>()
                    .zip(repeat.filter(|r| (1..=4).contains(r)))
                    .map(|(pools, r)| {
                        let pools: Vec<Vec<V<'a>>> = pools;
                        (0..r).flat_map(|_| pools.clone()).collect()
                    });
                let limit = super::interp::MAX_UNROLL;
                let size = pools.as_ref().and_then(|p| {
                    p.iter()
                        .try_fold(1usize, |n, pool| n.checked_mul(pool.len()))
                        .filter(|n| *n <= limit)
                });
                match (pools, size) {
                    (Some(pools), Some(_)) if !pools.is_empty() => {
                        let mut out: Vec<Vec<V<'a>>> = vec![Vec::new()];
                        for pool in &pools {
                            out = out
                                .into_iter()
                                .flat_map(|prefix| {
                                    pool.iter().map(move |item| {
                                        let mut next = prefix.clone();
                                        next.push(item.clone());
                                        next
                                    })
                                })
                                .collect();
                        }
                        V::list(out.into_iter().map(V::Tuple).collect())
                    }
                    _ => V::Unknown,
                }
            }
            // A partial of a partial is flattened, as Python does: `.func` is the innermost
            // callable, the arguments accumulate and later keywords override earlier ones.
            "functools.partial" => match args.split_first() {
                Some((V::Partial(inner), rest)) => {
                    let mut merged = inner.kwargs.clone();
                    for (k, v) in kwargs {
                        merged.retain(|(m, _)| *m != k);
                        merged.push((k, v));
                    }
                    V::Partial(std::rc::Rc::new(Partial {
                        func: inner.func.clone(),
                        args: inner.args.iter().chain(rest).cloned().collect(),
                        kwargs: merged,
                    }))
                }
                Some((func, rest)) => V::Partial(std::rc::Rc::new(Partial {
                    func: func.clone(),
                    args: rest.to_vec(),
                    kwargs,
                })),
                None => V::Unknown,
            },
            _ => V::Unknown,
        }
    }

    /// Builtins that build or measure collections: `len`, `range`, `set`, `sorted`, `list`,
    /// `tuple`, `reversed`, `dict`, `zip`, `enumerate`, `dir`.
    fn collection_builtin(
        &mut self,
        name: &str,
        args: Vec<V<'a>>,
        kwargs: Vec<(String, V<'a>)>,
        span: TextRange,
    ) -> V<'a> {
        let first = args.first().cloned().unwrap_or(V::Unknown);
        match name {
            "len" => match &first {
                V::Array(t) => match t
                    .shape
                    .dims()
                    .and_then(|d| d.first().and_then(|d| d.expr().cloned()))
                {
                    Some(n) => V::Data(Value::Int(n)),
                    None => V::Data(Value::IntUnknown),
                },
                V::Data(Value::Tensor(_)) => {
                    self.apply_function("builtins.len", args, kwargs, span, &[])
                }
                V::Set(items) => V::Data(Value::int(items.len() as i64)),
                V::Sampled(s) => {
                    s.0.clone()
                        .map_or(V::Data(Value::IntUnknown), |n| V::Data(Value::Int(n)))
                }
                V::Data(Value::Str(Some(text))) => V::Data(Value::int(text.chars().count() as i64)),
                other => match other.elements() {
                    Some(items) => V::Data(Value::int(items.len() as i64)),
                    None => V::Data(Value::IntUnknown),
                },
            },
            "range" => {
                let ints: Option<Vec<i64>> = args
                    .iter()
                    .map(|a| int_of(a).and_then(|e| e.as_const()))
                    .collect();
                match ints.as_deref() {
                    Some([n]) => int_range(0, *n, 1),
                    Some([a, b]) => int_range(*a, *b, 1),
                    Some([a, b, s]) if *s != 0 => int_range(*a, *b, *s),
                    _ => V::Unknown,
                }
            }
            // `'hardswish' in dir(torch.nn.functional)`: feature checks on torch.
            "dir" => match &first {
                V::Torch(ns) => V::Set(
                    crate::operators::api::torch_api()
                        .members(ns)
                        .into_iter()
                        .map(|n| V::Data(Value::Str(Some(n.to_string()))))
                        .collect(),
                ),
                _ => V::Unknown,
            },
            "set" | "frozenset" => match &first {
                V::Set(_) => first.clone(),
                _ if args.is_empty() => V::Set(Vec::new()),
                other => iterate(other)
                    .and_then(|items| set_of(&items))
                    .unwrap_or(V::Unknown),
            },
            "sorted" => {
                let items = match &first {
                    V::Set(items) => Some(items.clone()),
                    other => iterate(other),
                };
                match (items, sort_order(&kwargs)) {
                    (Some(items), Some(reverse)) => self.sorted_values(&items, reverse),
                    _ => V::Unknown,
                }
            }
            "list" | "tuple" | "reversed" => match iterate(&first) {
                Some(mut items) => {
                    if name == "reversed" {
                        items.reverse();
                    }
                    if name == "tuple" {
                        V::Tuple(items)
                    } else {
                        V::list(items)
                    }
                }
                _ if args.is_empty() && name == "list" => V::list(Vec::new()),
                // Still items of unknown length, each what it was.
                None if matches!(first, V::Items(_)) => first,
                _ => V::Unknown,
            },
            // `dict(mapping, **kw)` / `dict([(k, v), ...])`: the items, then the keywords over
            // them. An `OrderedDict` is a dict that keeps insertion order, as every dict here does.
            "dict" | "collections.OrderedDict" => {
                let mut items = match args.as_slice() {
                    [] => Vec::new(),
                    [V::Dict(items)] => items.to_vec(),
                    [pairs] => match dict_items(pairs) {
                        Some(items) => items,
                        None => return V::Unknown,
                    },
                    _ => return V::Unknown,
                };
                for (k, v) in kwargs {
                    set_key(&mut items, k, v);
                }
                V::dict(items)
            }
            "zip" => {
                let seqs: Option<Vec<Vec<V<'a>>>> = args.iter().map(iterate).collect();
                match seqs {
                    Some(seqs) if !seqs.is_empty() => {
                        let n = seqs.iter().map(Vec::len).min().unwrap_or(0);
                        V::list(
                            (0..n)
                                .map(|i| V::Tuple(seqs.iter().map(|s| s[i].clone()).collect()))
                                .collect(),
                        )
                    }
                    _ => V::Unknown,
                }
            }
            "enumerate" => match iterate(&first) {
                Some(items) => V::list(
                    items
                        .into_iter()
                        .enumerate()
                        .map(|(i, v)| V::Tuple(vec![V::Data(Value::int(i as i64)), v]))
                        .collect(),
                ),
                None => V::Unknown,
            },
            _ => V::Unknown,
        }
    }

    /// Builtins that convert a value: `int`, `float`, `bool`, `str`, `ord`, `chr`, `round`,
    /// `abs`.
    fn conversion_builtin(
        &mut self,
        name: &str,
        args: Vec<V<'a>>,
        kwargs: Vec<(String, V<'a>)>,
        span: TextRange,
    ) -> V<'a> {
        let first = args.first().cloned().unwrap_or(V::Unknown);
        match name {
            "int" => {
                // `int(ids.max())`: a one-element tensor converts as its Python value.
                let first = match &first {
                    V::Data(Value::Tensor(t)) => super::sequences::tensor_to_python(t, false),
                    _ => first,
                };
                match &first {
                    V::Data(Value::Int(_)) => first,
                    V::Data(Value::Float(Some(f))) => V::Data(Value::int(f.trunc() as i64)),
                    V::Data(Value::Bool(Some(b))) => V::Data(Value::int(i64::from(*b))),
                    V::Data(Value::Str(Some(text))) => text
                        .trim()
                        .parse::<i64>()
                        .map_or(V::Unknown, |i| V::Data(Value::int(i))),
                    _ => V::Data(Value::IntUnknown),
                }
            }
            "float" => V::Data(Value::Float(match &first {
                V::Data(Value::Float(f)) => *f,
                V::Data(Value::Str(Some(text))) => text.trim().parse::<f64>().ok(),
                other => int_of(other).and_then(|e| e.as_const()).map(|c| c as f64),
            })),
            "bool" => first
                .truth()
                .map_or(V::Unknown, |b| V::Data(Value::Bool(Some(b)))),
            "str" => match &first {
                V::Path(p) => V::Data(Value::Str(Some(p.to_string()))),
                _ => V::Data(Value::Str(super::strings::known_text(&first))),
            },
            // `[chr(c) for c in range(ord("a"), ord("z") + 1)]`: an alphabet.
            "ord" => match &first {
                V::Data(Value::Str(Some(text))) if text.chars().count() == 1 => {
                    V::Data(Value::int(text.chars().next().map_or(0, |c| c as i64)))
                }
                _ => V::Data(Value::IntUnknown),
            },
            "chr" => V::Data(Value::Str(
                int_of(&first)
                    .and_then(|e| e.as_const())
                    .and_then(|c| u32::try_from(c).ok())
                    .and_then(char::from_u32)
                    .map(String::from),
            )),
            // Python rounds halves to even; `round(x, n)` stays a float.
            "round" => match (&first, args.get(1)) {
                (V::Data(Value::Int(_)), None) => first,
                (V::Data(Value::Float(Some(f))), None) => {
                    V::Data(Value::int(f.round_ties_even() as i64))
                }
                (V::Data(Value::Float(_)), None) => V::Data(Value::IntUnknown),
                (V::Data(Value::Float(_)), Some(_)) => V::Data(Value::Float(None)),
                _ => V::Unknown,
            },
            "abs" => match int_of(&first) {
                Some(e) => match e.as_const() {
                    Some(c) => V::Data(Value::int(c.abs())),
                    None => V::Data(Value::IntUnknown),
                },
                None if first.is_tensor() => {
                    self.apply_function("operator.abs", args, kwargs, span, &[])
                }
                None => V::Unknown,
            },
            _ => V::Unknown,
        }
    }

    /// Builtins that fold an iterable: `min`/`max`, `sum`, `any`/`all`.
    fn reduction_builtin(
        &mut self,
        name: &str,
        args: Vec<V<'a>>,
        kwargs: Vec<(String, V<'a>)>,
        span: TextRange,
    ) -> V<'a> {
        let first = args.first().cloned().unwrap_or(V::Unknown);
        match name {
            "min" | "max" => {
                let items = if args.len() == 1 {
                    iterate(&first).unwrap_or_default()
                } else {
                    args
                };
                let ints: Option<Vec<DimExpr>> = items.iter().map(int_of).collect();
                match ints {
                    Some(ints) if !ints.is_empty() => {
                        let mut acc = ints[0].clone();
                        for x in &ints[1..] {
                            acc = if name == "min" {
                                acc.minimum(x)
                            } else {
                                acc.maximum(x)
                            };
                        }
                        V::Data(Value::Int(acc))
                    }
                    // Known numbers, floats among them: the first extreme item itself
                    // (`max(1.0, 2)` is the int 2).
                    _ => {
                        let numbers: Option<Vec<f64>> = items.iter().map(known_number).collect();
                        let better = |a: f64, b: f64| if name == "min" { a < b } else { a > b };
                        match numbers {
                            Some(ns) if !ns.is_empty() => {
                                let best =
                                    (1..ns.len())
                                        .fold(0, |b, i| if better(ns[i], ns[b]) { i } else { b });
                                items[best].clone()
                            }
                            _ => V::Unknown,
                        }
                    }
                }
            }
            // `sum(xs, start=0)` is `start + xs[0] + ...`: ints, floats, tensors, and lists
            // concatenated (`sum([[s] + [1] * (n - 1) for ...], [])`).
            "sum" => {
                let start = args
                    .get(1)
                    .or_else(|| kwargs.iter().find(|(k, _)| k == "start").map(|(_, v)| v))
                    .cloned()
                    .unwrap_or(V::Data(Value::int(0)));
                match iterate(&first) {
                    Some(items) => items.into_iter().fold(start, |acc, x| {
                        self.binop(acc, ruff_python_ast::Operator::Add, x, span, false)
                    }),
                    None => V::Unknown,
                }
            }
            "any" | "all" => {
                // `all(xs)` is `not any(not x for x in xs)`.
                let flip = name == "all";
                let answer = iterate(&first).and_then(|items| {
                    any_known(items.iter().map(|v| v.truth().map(|t| t != flip)))
                });
                match answer {
                    Some(b) => V::Data(Value::Bool(Some(b != flip))),
                    None => V::Unknown,
                }
            }
            _ => V::Unknown,
        }
    }

    /// Builtins about objects and types: `isinstance`/`issubclass`, `setattr`/`getattr`,
    /// `print`.
    fn reflection_builtin(
        &mut self,
        name: &str,
        args: Vec<V<'a>>,
        _kwargs: Vec<(String, V<'a>)>,
        span: TextRange,
    ) -> V<'a> {
        let first = args.first().cloned().unwrap_or(V::Unknown);
        match name {
            "isinstance" | "issubclass" => {
                let decided = if name == "isinstance" {
                    self.isinstance(&first, args.get(1))
                } else {
                    self.issubclass(&first, args.get(1))
                };
                match decided {
                    Some(b) => V::Data(Value::Bool(Some(b))),
                    None => V::Unknown,
                }
            }
            "print" => V::none(),
            // `setattr(self, name, m)` registers `m` as `self.<name>`; under a name not
            // known, the object gets an unknown attribute (its `children()` are unknown),
            // and a value that is not a layer may have replaced any setting.
            "setattr" => {
                if let (V::Object(_), Some(value)) = (&first, args.get(2)) {
                    match args.get(1) {
                        Some(V::Data(Value::Str(Some(attr)))) => {
                            self.set_attr(&first, attr, value.clone())
                        }
                        _ if value.is_layer() => {
                            self.set_attr(&first, super::value::UNNAMED_ATTR, V::Unknown)
                        }
                        _ => self.forget_data_attrs(&first),
                    }
                }
                V::none()
            }
            "getattr" => match args.get(1) {
                Some(V::Data(Value::Str(Some(attr)))) => {
                    let attr = attr.clone();
                    let v = self.attribute(first, &attr, span);
                    match (&v, args.get(2)) {
                        (V::Unknown, Some(default)) => default.clone(),
                        _ => v,
                    }
                }
                _ => V::Unknown,
            },

            _ => V::Unknown,
        }
    }
}

impl<'a> Interp<'a> {
    /// `range(hi)` / `range(lo, hi)` of the builtin, its bounds evaluated (once): `None`
    /// when the loop is not over such a range, `Some(None)` when a bound is not an int.
    pub(super) fn range_bounds(&mut self, iter: &'a Expr) -> Option<Option<(DimExpr, DimExpr)>> {
        let Expr::Call(c) = iter else { return None };
        let args = &c.arguments.args;
        // A progress bar over a range is that range (`tqdm(range(n))`, `trange(n)`).
        let named = match &*c.func {
            Expr::Name(n) => n.id.as_str(),
            Expr::Attribute(a) => a.attr.id.as_str(),
            _ => "",
        };
        let progress = match named {
            "tqdm" | "trange" => match self.eval(&c.func) {
                V::Builtin(name) => super::libraries::progress_bar(name),
                _ => None,
            },
            _ => None,
        };
        match (progress, args.first()) {
            (Some(false), Some(inner)) => return self.range_bounds(inner),
            (Some(true), _) => {}
            _ if matches!(&*c.func, Expr::Name(n) if n.id.as_str() == "range")
                && matches!(self.lookup("range"), V::Builtin("range")) => {}
            _ => return None,
        }
        let plain = c.arguments.keywords.is_empty()
            && matches!(args.len(), 1 | 2)
            && !args.iter().any(|a| matches!(a, Expr::Starred(_)));
        if !plain {
            return None;
        }
        let bounds: Option<Vec<DimExpr>> = args.iter().map(|a| int_of(&self.eval(a))).collect();
        Some(bounds.and_then(|b| match b.as_slice() {
            [hi] => Some((DimExpr::zero(), hi.clone())),
            [lo, hi] => Some((lo.clone(), hi.clone())),
            _ => None,
        }))
    }
}

pub(super) fn int_range<'a>(start: i64, stop: i64, step: i64) -> V<'a> {
    let n = if step > 0 {
        (stop - start + step - 1).max(0) / step
    } else {
        (start - stop - step - 1).max(0) / -step
    };
    if n > 4096 {
        return V::Unknown;
    }
    V::list(
        (0..n)
            .map(|i| V::Data(Value::int(start + i * step)))
            .collect(),
    )
}

/// The items of `dict(pairs)`: an iterable of `(str, value)` pairs; `None` when a key is not
/// a known string.
fn dict_items<'a>(pairs: &V<'a>) -> Option<Vec<(String, V<'a>)>> {
    let mut items = Vec::new();
    for pair in iterate(pairs)? {
        match pair.elements()?.as_slice() {
            [k, v] => set_key(&mut items, k.known_str()?.to_string(), v.clone()),
            _ => return None,
        }
    }
    Some(items)
}

/// `reverse` of `sorted(xs, ...)` / `xs.sort(...)` when the keywords are understood: no
/// `key` (or `key=None`) and a known `reverse`.
pub fn sort_order(kwargs: &[(String, V)]) -> Option<bool> {
    let mut reverse = false;
    for (k, v) in kwargs {
        match k.as_str() {
            "reverse" => reverse = v.truth()?,
            "key" if matches!(v, V::Data(Value::None)) => {}
            _ => return None,
        }
    }
    Some(reverse)
}

/// The most items whose sorted order is modelled symbolically.
const MAX_SYMBOLIC_SORT: usize = 64;

impl<'a> Interp<'a> {
    /// `sorted(items)`: known ints or strings sort; ints some of which are symbols (lengths
    /// drawn at random, `sorted(t.tolist(), reverse=True)`) give as many fresh symbols, each
    /// equal to one of the items and in order: what is known of every sorted item.
    pub fn sorted_values(&mut self, items: &[V<'a>], reverse: bool) -> V<'a> {
        let reorder = |v: V<'a>| match v {
            V::List(mut xs) if reverse => {
                Rc::make_mut(&mut xs).reverse();
                V::List(xs)
            }
            other => other,
        };
        if let Some(sorted) = sorted_of(items) {
            return reorder(sorted);
        }
        let ints: Option<Vec<DimExpr>> = items.iter().map(int_of).collect();
        let Some(ints) = ints else {
            return V::Unknown;
        };
        if ints.len() > MAX_SYMBOLIC_SORT {
            return V::Unknown;
        }
        let out: Vec<DimExpr> = ints.iter().map(|_| self.fresh_sym("sorted")).collect();
        for s in &out {
            let one_of = ints
                .iter()
                .map(|x| crate::shapes::Pred::Eq(s.clone(), x.clone()))
                .collect();
            self.run.trace.fact(crate::shapes::Pred::Or(one_of), None);
        }
        for w in out.windows(2) {
            self.run
                .trace
                .fact(crate::shapes::Pred::Le(w[0].clone(), w[1].clone()), None);
        }
        reorder(V::list(
            out.into_iter().map(|d| V::Data(Value::Int(d))).collect(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::{assert_twins, findings};

    /// `sorted(..., reverse=True)` and `list.sort(reverse=True)` of known ints: the largest
    /// comes first.
    #[test]
    fn sorting_known_ints_in_reverse() {
        let src = r#"
import torch
from torch import nn

widths = sorted([16, 64, 32], reverse=True)
steps = [3, 9, 5]
steps.sort(reverse=True)
head = nn.Linear(widths[0], steps[0])
out = head(torch.randn(2, FEATS))
"#;
        assert_twins(src, "FEATS", "16", "64", 9);
    }

    /// Lengths drawn at random and sorted longest first: the padded batch's time axis is a
    /// symbol within the draw's range, so a mismatch that holds for every length is found.
    #[test]
    fn sorting_drawn_lengths_keeps_them_symbolic() {
        let src = r#"
import torch
from torch import nn

lengths = sorted(torch.randint(2, 9, (5,)).tolist(), reverse=True)
batch = torch.randn(5, lengths[0], 10)
rnn = nn.GRU(INPUT, 16, batch_first=True)
out, h = rnn(batch)
assert lengths[0] >= lengths[-1]
steps = torch.zeros(lengths[0] - 2 + 1, 3)
"#;
        assert_twins(src, "INPUT", "12", "10", 8);
    }

    /// An alphabet built with `chr`/`ord`, and ids looked up with `list.index`: a table
    /// one row short of the vocabulary is indexed past its end.
    #[test]
    fn an_alphabet_and_its_ids_are_known() {
        let src = r#"
import torch
from torch import nn

VOCAB = ["<blank>"] + [chr(c) for c in range(ord("a"), ord("z") + 1)]
ids = torch.tensor([VOCAB.index(ch) for ch in "hazy"])
table = nn.Embedding(len(VOCAB) - SHORT, 8)
out = table(ids)
"#;
        assert_twins(src, "SHORT", "1", "0", 8);
    }

    #[test]
    fn dict_merges_a_mapping_with_keywords_and_typing_cast_is_identity() {
        let src = r#"
from typing import cast
import torch
from torch import nn

def run():
    cfg = dict(dict(width=8, depth=2), width=WIDTH)
    w = cast(int, cfg["width"])
    layer = nn.Linear(w, 4)
    return layer(torch.randn(2, 16))

run()
"#;
        assert_twins(src, "WIDTH", "12", "16", 10);
    }

    /// `typing.TYPE_CHECKING` is False when code runs, however it is imported: the branch it
    /// guards is for type checkers (transformers' lazy `__init__.py` star-imports its whole
    /// package there).
    #[test]
    fn type_checking_is_false_at_run_time() {
        let src = r#"
import typing
from typing import TYPE_CHECKING
import torch
from torch import nn

if TYPE_CHECKING:
    IN = 99
else:
    IN = WIDTH

def run():
    layer = nn.Linear(IN, 4)
    cols = 5 if typing.TYPE_CHECKING else 16
    return layer(torch.randn(2, cols))

run()
"#;
        assert_twins(src, "WIDTH", "12", "16", 15);
    }

    /// torchvision's Bottleneck: `int(planes * (base_width / 64.0)) * groups` is a known
    /// width when its inputs are known.
    #[test]
    fn float_arithmetic_on_known_numbers_stays_known() {
        let src = r#"
import torch
from torch import nn

def run(planes=64, base_width=BASE, groups=1):
    width = int(planes * (base_width / 64.0)) * groups
    conv = nn.Conv2d(3, planes, 1)
    bn = nn.BatchNorm2d(width)
    return bn(conv(torch.randn(1, 3, 8, 8)))

run()
"#;
        assert_twins(src, "BASE", "128", "64", 9);
    }

    /// torchvision's MobileNetV2: `_make_divisible(1280 * max(1.0, width_mult), 8)`.
    #[test]
    fn min_and_max_of_known_floats_and_round() {
        let src = r#"
import torch
from torch import nn

def run(width_mult=1.0):
    last = int(round(OUT * max(1.0, width_mult)))
    head = nn.Linear(last, 10)
    return head(torch.randn(2, 1280))

run()
"#;
        assert_twins(src, "OUT", "1024", "1280", 8);
    }

    /// timm's `to_2tuple` (a closure over `n`, `isinstance(x, collections.abc.Iterable)`,
    /// `itertools.repeat`) and `functools.partial` norm layers.
    #[test]
    fn closures_partial_and_standard_library_helpers() {
        let src = r#"
import collections.abc
import torch
from torch import nn
from functools import partial
from itertools import repeat

def _ntuple(n):
    def parse(x):
        if isinstance(x, collections.abc.Iterable) and not isinstance(x, str):
            return tuple(x)
        return tuple(repeat(x, n))
    return parse

to_2tuple = _ntuple(2)

def run():
    k = to_2tuple(K)
    norm = partial(nn.BatchNorm2d, eps=1e-3)
    conv = nn.Conv2d(3, 8, k)
    bn = norm(CH)
    return bn(conv(torch.randn(1, 3, 16, 16)))

run()
"#;
        let case =
            |k: &str, ch: &str| findings(&src.replace("K)", &format!("{k})")).replace("CH", ch));
        let lines = |k: &str, ch: &str| case(k, ch).iter().map(|f| f.span.line).collect::<Vec<_>>();
        assert_eq!(lines("3", "4"), vec![22]);
        assert!(case("3", "8").is_empty());
        assert_eq!(lines("(3, 20)", "8"), vec![22]);
        assert!(case("(3, 5)", "8").is_empty());
    }

    /// timm's drop-path schedules: `torch.linspace(0, rate, n)` at rate 0 holds zeros, so
    /// `x.item()` and `t.tolist()` are 0.0 and `DropPath(r) if r > 0. else nn.Identity()`
    /// is the identity; a pooling type read with `str` methods decides the pooling layer.
    #[test]
    fn drop_path_schedules_and_string_dispatch_are_known() {
        let src = r#"
import torch
from torch import nn

class DropPath(nn.Module):
    def __init__(self, p):
        super().__init__()
        self.p = p

    def forward(self, x):
        return x * torch.rand(x.shape[0], 1, 1, 1).ge(self.p).float()

class Net(nn.Module):
    def __init__(self, depths=(2, 2), drop_path_rate=0., pool_type='Fast_Avg'):
        super().__init__()
        rates = [t.tolist() for t in torch.linspace(0, drop_path_rate, sum(depths)).split(depths)]
        flat = [x.item() for x in torch.linspace(0, drop_path_rate, sum(depths))]
        self.conv = nn.Conv2d(3, 16, 3)
        self.drop1 = DropPath(rates[1][0]) if rates[1][0] > 0. else nn.Identity()
        self.drop2 = DropPath(flat[3]) if flat[3] > 0. else nn.Identity()
        pool_type = pool_type.replace('_', '').lower()
        if pool_type.startswith('fast') and pool_type.endswith(('avg', 'mean')):
            self.pool = nn.AdaptiveAvgPool2d(1)
        else:
            self.pool = None
        self.head = nn.Linear(WIDTH, 10)

    def forward(self, x):
        x = self.drop2(self.drop1(self.conv(x)))
        return self.head(self.pool(x).flatten(1))

net = Net()
"#;
        assert_twins(src, "WIDTH", "32", "16", 30);
    }
}
