//! Decoding the ground-truth cases of `tests/data/shape_cases/` into abstract values
//! (shared by the catalogue and symbolic-soundness tests).
#![allow(dead_code)]

use serde_json::Value as Json;
use shapehound::catalogue::{apply, lookup, RuleError, RuleKind};
use shapehound::shapes::dim::DimExpr;
use std::collections::HashMap;

use shapehound::shapes::value::{DType, TensorValue};
use shapehound::shapes::{Dim, Shape, Value};

pub fn decode(v: &Json) -> Value {
    match v {
        Json::Null => Value::None,
        Json::Bool(b) => Value::Bool(Some(*b)),
        Json::Number(n) => match n.as_i64() {
            Some(i) => Value::Int(DimExpr::constant(i)),
            None => Value::Float(n.as_f64()),
        },
        Json::String(s) => Value::Str(Some(s.clone())),
        Json::Array(items) => Value::List(items.iter().map(decode).collect()),
        Json::Object(o) => {
            if let Some(shape) = o.get("tensor") {
                let dims = shape
                    .as_array()
                    .map(|d| d.iter().filter_map(Json::as_i64).collect::<Vec<_>>())
                    .unwrap_or_default();
                let dtype = o.get("dtype").and_then(Json::as_str).and_then(DType::parse);
                return Value::Tensor(TensorValue {
                    shape: Shape::of(&dims),
                    dtype,
                    uniform: uniform_content(o.get("fill"), dtype),
                    top: None,
                    elements: None,
                    bounds: None,
                });
            }
            if let Some(x) = o.get("float") {
                return Value::Float(x.as_f64());
            }
            if let Some(items) = o.get("tuple").and_then(Json::as_array) {
                return Value::Tuple(items.iter().map(decode).collect());
            }
            if let Some(items) = o.get("list").and_then(Json::as_array) {
                return Value::List(items.iter().map(decode).collect());
            }
            if let Some(items) = o.get("size").and_then(Json::as_array) {
                return Value::Size(
                    items
                        .iter()
                        .filter_map(Json::as_i64)
                        .map(Dim::constant)
                        .collect(),
                );
            }
            if let Some(parts) = o.get("slice").and_then(Json::as_array) {
                let part = |i: usize| Box::new(parts.get(i).map(decode).unwrap_or(Value::None));
                return Value::Slice(part(0), part(1), part(2));
            }
            if o.contains_key("ellipsis") {
                return Value::Ellipsis;
            }
            if let Some(d) = o.get("dtype").and_then(Json::as_str) {
                return DType::parse(d).map(Value::DType).unwrap_or(Value::Unknown);
            }
            if let Some(m) = o.get("memory_format").and_then(Json::as_str) {
                return Value::Str(Some(m.to_string()));
            }
            if let Some(class) = o.get("module").and_then(Json::as_str) {
                let args = o
                    .get("args")
                    .and_then(Json::as_array)
                    .map(|a| a.iter().map(decode).collect())
                    .unwrap_or_default();
                return match build_module(class, args, kwargs_of(o.get("kwargs"))) {
                    Ok(Value::Module(m)) => Value::Module(m),
                    _ => Value::Unknown,
                };
            }
            Value::Unknown
        }
    }
}

pub fn kwargs_of(v: Option<&Json>) -> Vec<(String, Value)> {
    v.and_then(Json::as_object)
        .map(|o| o.iter().map(|(k, v)| (k.clone(), decode(v))).collect())
        .unwrap_or_default()
}

pub fn build_module(
    class: &str,
    args: Vec<Value>,
    kwargs: Vec<(String, Value)>,
) -> Result<Value, RuleError> {
    match lookup(class).map(|r| r.kind) {
        Some(RuleKind::Module { init, .. }) => {
            apply(init, class, args, kwargs, None).map(|o| o.value)
        }
        _ => Err(RuleError::Unsupported(format!(
            "no module rule for {class}"
        ))),
    }
}

/// The generator fills tensors with one value: `fill` when given, else 0 (bool: True). The
/// catalogue tracks that content when it is an integer.
fn uniform_content(fill: Option<&Json>, dtype: Option<DType>) -> Option<i64> {
    let value = match fill {
        None => match dtype {
            Some(DType::Bool) => 1,
            _ => 0,
        },
        Some(Json::Bool(b)) => *b as i64,
        Some(Json::Number(n)) => n.as_i64()?,
        Some(other) => {
            let f = other.get("float")?.as_f64()?;
            if f.fract() != 0.0 {
                return None;
            }
            f as i64
        }
    };
    Some(value)
}

pub type Env = HashMap<String, i64>;

/// Replaces every concrete tensor dim by a fresh symbol, recording its value.
pub fn symbolize(v: &Value, env: &mut Env) -> Value {
    match v {
        Value::Tensor(t) => match &t.shape {
            Shape::Ranked(dims) => Value::Tensor(TensorValue {
                shape: Shape::Ranked(
                    dims.iter()
                        .map(|d| match d.as_const() {
                            Some(c) => {
                                let name = format!("s{}", env.len());
                                env.insert(name.clone(), c);
                                Dim::Known(DimExpr::sym(&name))
                            }
                            None => d.clone(),
                        })
                        .collect(),
                ),
                dtype: t.dtype,
                uniform: t.uniform,
                top: t.top.clone(),
                elements: None,
                bounds: None,
            }),
            other => Value::tensor(other.clone(), t.dtype),
        },
        Value::Tuple(items) => Value::Tuple(items.iter().map(|x| symbolize(x, env)).collect()),
        Value::List(items) => Value::List(items.iter().map(|x| symbolize(x, env)).collect()),
        other => other.clone(),
    }
}

/// The ground-truth cases as one JSON-lines text (header first): the parts of
/// `tests/data/shape_cases/`, read in order.
pub fn read_cases() -> String {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/shape_cases");
    let mut parts: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/data/shape_cases")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    parts.sort();
    parts
        .iter()
        .map(|p| std::fs::read_to_string(p).expect("readable part"))
        .collect()
}
