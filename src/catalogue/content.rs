//! What a rule's result keeps of its input's values, given after every rule (see
//! [`super::apply_noting_reads`]): a uniform content through operators that move or select
//! elements, the largest element through those that keep every element (or the maximum),
//! shifted by `+ k`.

use super::Ctx;
use crate::shapes::dim::DimExpr;
use crate::shapes::value::{DType, TensorValue, Value};

/// `value`, the result of `op` applied in `ctx`, with what it keeps of its first argument's
/// uniform content and largest element.
pub(super) fn kept(ctx: &Ctx, op: &str, mut value: Value) -> Value {
    if let Some(Value::Tensor(TensorValue {
        uniform: Some(u), ..
    })) = ctx.args.first()
    {
        if keeps_content(op) {
            value = with_uniform(value, *u);
        }
    }
    if let Some(Value::Tensor(TensorValue { top: Some(m), .. })) = ctx.args.first() {
        if let Value::Tensor(t) = &mut value {
            let kept = keeps_every_element(op) || converts(op) || keeps_largest(op, ctx);
            if kept && t.dtype == Some(DType::Int) {
                t.top = Some(m.clone());
            }
        }
    }
    if let Some(top) = shifted_top(op, ctx) {
        if let Value::Tensor(t) = &mut value {
            if t.dtype == Some(DType::Int) {
                t.top = Some(top);
            }
        }
    }
    value
}

/// Operators that move, copy or select elements without changing them: pieces and views
/// of a tensor whose every element is known keep that knowledge (timm's drop-path rates,
/// `torch.linspace(0, 0.0, n).split(depths)`).
pub fn keeps_content(op: &str) -> bool {
    let name = op.rsplit('.').next().unwrap_or(op);
    keeps_every_element(name)
        || matches!(
            name,
            "split" | "split_with_sizes" | "tensor_split" | "chunk" | "unbind" | "narrow"
        )
}

/// Operators whose result holds every element of their input (reshaped, repeated, moved),
/// so the input's largest element is the result's (converted to integers, as indices are).
fn keeps_every_element(op: &str) -> bool {
    let name = op.rsplit('.').next().unwrap_or(op);
    matches!(
        name,
        "reshape"
            | "view"
            | "flatten"
            | "squeeze"
            | "unsqueeze"
            | "permute"
            | "transpose"
            | "t"
            | "contiguous"
            | "clone"
            | "detach"
            | "expand"
            | "expand_as"
            | "repeat"
            | "flip"
            | "roll"
            | "cpu"
            | "cuda"
    )
}

/// Operations whose result, when not empty, has the input's largest element: the maximum
/// itself (`ids.max()`, `amax`), and repeating each element alike (`repeat_interleave` by
/// one count; a tensor of counts may drop the largest element).
fn keeps_largest(op: &str, ctx: &Ctx) -> bool {
    match op.rsplit('.').next().unwrap_or(op) {
        // Not `torch.max(a, b)`, the elementwise maximum of two tensors.
        "max" | "amax" => !matches!(ctx.arg(1, "other"), Some(Value::Tensor(_))),
        "repeat_interleave" => match ctx.arg(1, "repeats") {
            Some(Value::Int(_)) => true,
            Some(Value::Tensor(t)) => t.shape.dims().is_some_and(|d| d.is_empty()),
            _ => false,
        },
        _ => false,
    }
}

/// The largest element of an integer tensor plus or minus an int (`i + seq_len`): the
/// input's, shifted.
fn shifted_top(op: &str, ctx: &Ctx) -> Option<DimExpr> {
    let name = op.rsplit('.').next().unwrap_or(op);
    if ctx.kwarg("alpha").is_some() {
        return None; // `torch.add(x, k, alpha=a)` adds `a * k`
    }
    let (a, b) = (ctx.args.first()?, ctx.args.get(1)?);
    match (name, a, b) {
        ("add" | "__add__", Value::Tensor(t), Value::Int(c))
        | ("add" | "__add__" | "__radd__", Value::Int(c), Value::Tensor(t)) => {
            Some(t.top.as_ref()?.add(c))
        }
        ("sub" | "__sub__", Value::Tensor(t), Value::Int(c)) => Some(t.top.as_ref()?.sub(c)),
        _ => None,
    }
}

/// Dtype conversions (`.long()`, `.float()`, `.to(...)`): they keep every value an integer
/// tensor holds when the result is an integer tensor, and small integers exactly in any
/// floating type.
pub fn converts(op: &str) -> bool {
    let name = op.rsplit('.').next().unwrap_or(op);
    matches!(
        name,
        "to" | "type_as" | "long" | "int" | "float" | "double" | "half" | "bfloat16"
    )
}

/// `value` with every tensor in it known to hold `u` everywhere.
fn with_uniform(value: Value, u: i64) -> Value {
    match value {
        Value::Tensor(t) => Value::Tensor(TensorValue {
            uniform: Some(u),
            ..t
        }),
        Value::Tuple(items) => {
            Value::Tuple(items.into_iter().map(|v| with_uniform(v, u)).collect())
        }
        Value::List(items) => Value::List(items.into_iter().map(|v| with_uniform(v, u)).collect()),
        other => other,
    }
}
