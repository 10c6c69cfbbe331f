//! Python builtins the interpreter models: `len`, `range`, `zip`, `enumerate`, `min`/`max`
//! over dims, `list`/`tuple`, `getattr`, ...; anything else is unknown.

use ruff_text_size::TextRange;

use super::calls::iterate;
use super::expr::int_of;
use super::interp::Interp;
use super::value::V;
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
    "getattr",
    "hasattr",
    "setattr",
    "super",
    "reversed",
    "sorted",
    "round",
    "type",
    "iter",
    "next",
    "map",
    "filter",
    "any",
    "all",
];

pub fn builtin(name: &str) -> Option<&'static str> {
    BUILTINS.iter().copied().find(|b| *b == name)
}

impl<'a> Interp<'a> {
    pub fn call_builtin(
        &mut self,
        name: &str,
        args: Vec<V<'a>>,
        kwargs: Vec<(String, V<'a>)>,
        span: TextRange,
    ) -> V<'a> {
        let first = args.first().cloned().unwrap_or(V::Unknown);
        match name {
            "len" => match &first {
                V::Data(Value::Tensor(_)) => {
                    self.apply_function("builtins.len", args, kwargs, span, &[])
                }
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
            "int" => match &first {
                V::Data(Value::Int(_)) => first,
                V::Data(Value::Float(Some(f))) => V::Data(Value::int(f.trunc() as i64)),
                V::Data(Value::Tensor(_)) => V::Data(Value::IntUnknown),
                _ => V::Data(Value::IntUnknown),
            },
            "float" => V::Data(Value::Float(None)),
            "bool" => first
                .truth()
                .map_or(V::Unknown, |b| V::Data(Value::Bool(Some(b)))),
            "str" => V::Data(Value::Str(None)),
            "list" | "tuple" | "sorted" | "reversed" => match iterate(&first) {
                Some(mut items) if name != "sorted" => {
                    if name == "reversed" {
                        items.reverse();
                    }
                    if name == "tuple" {
                        V::Tuple(items)
                    } else {
                        V::List(items)
                    }
                }
                _ if args.is_empty() && name == "list" => V::List(Vec::new()),
                _ => V::Unknown,
            },
            "dict" => V::Dict(kwargs),
            "zip" => {
                let seqs: Option<Vec<Vec<V<'a>>>> = args.iter().map(iterate).collect();
                match seqs {
                    Some(seqs) if !seqs.is_empty() => {
                        let n = seqs.iter().map(Vec::len).min().unwrap_or(0);
                        V::List(
                            (0..n)
                                .map(|i| V::Tuple(seqs.iter().map(|s| s[i].clone()).collect()))
                                .collect(),
                        )
                    }
                    _ => V::Unknown,
                }
            }
            "enumerate" => match iterate(&first) {
                Some(items) => V::List(
                    items
                        .into_iter()
                        .enumerate()
                        .map(|(i, v)| V::Tuple(vec![V::Data(Value::int(i as i64)), v]))
                        .collect(),
                ),
                None => V::Unknown,
            },
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
                    _ => V::Unknown,
                }
            }
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
            "sum" => {
                let ints: Option<Vec<DimExpr>> =
                    iterate(&first).and_then(|items| items.iter().map(int_of).collect());
                match ints {
                    Some(ints) => V::Data(Value::Int(
                        ints.iter().fold(DimExpr::zero(), |acc, x| acc.add(x)),
                    )),
                    None => V::Unknown,
                }
            }
            "print" | "setattr" => V::none(),
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

fn int_range<'a>(start: i64, stop: i64, step: i64) -> V<'a> {
    let n = if step > 0 {
        (stop - start + step - 1).max(0) / step
    } else {
        (start - stop - step - 1).max(0) / -step
    };
    if n > 4096 {
        return V::Unknown;
    }
    V::List(
        (0..n)
            .map(|i| V::Data(Value::int(start + i * step)))
            .collect(),
    )
}
