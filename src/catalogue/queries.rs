//! Operator rules: shape queries (`x.shape`, `x.size()`, `x.dim()`, `x.numel()`, `len(x)`) and
//! `torch.Size` arithmetic. They turn dims into Python ints, which is how shapes flow into
//! later operators (`x.view(x.size(0), -1)`).

use super::{invalid, unsupported, Ctx, Rule, RuleError, RuleResult};
use crate::shapes::dim::DimExpr;
use crate::shapes::kind::FindingKind;
use crate::shapes::shape::{Dim, Shape};
use crate::shapes::value::{DType, Value};

/// What this family's failures are, unless a rule or a check declares otherwise.
pub const KIND: FindingKind = FindingKind::ShapeMismatch;

pub const RULES: &[Rule] = &[
    Rule::function("torch.Tensor.shape", shape),
    Rule::function("torch.Tensor.size", size),
    Rule::function("torch.Tensor.dim", rank),
    Rule::function("torch.Tensor.ndim", rank),
    Rule::function("torch.Tensor.ndimension", rank),
    Rule::function("torch.Tensor.numel", numel),
    Rule::function("torch.Tensor.nelement", numel),
    Rule::function("torch.numel", numel),
    Rule::function("torch.Size.numel", size_numel),
    Rule::function("torch.Tensor.stride", stride),
    Rule::function("torch.Tensor.element_size", element_size),
    Rule::function("torch.Tensor.is_contiguous", is_contiguous),
    Rule::function("torch.Tensor.dtype", dtype),
    Rule::function("torch.is_tensor", is_tensor),
    Rule::function("torch.is_floating_point", is_floating_point),
    Rule::function("builtins.len", len),
    Rule::function("operator.contains", contains),
];

fn dims_of(ctx: &Ctx) -> Result<Vec<Dim>, RuleError> {
    Ok(ctx.ranked(0, "self")?.0)
}

/// Methods that take no argument besides the receiver.
fn no_args(ctx: &Ctx) -> Result<(), RuleError> {
    if ctx.args.len() > 1 || !ctx.kwargs.is_empty() {
        return invalid(format!(
            "{}: takes no arguments ({} given)",
            ctx.op,
            ctx.args.len() - 1 + ctx.kwargs.len()
        ));
    }
    Ok(())
}

fn int_value(d: &Dim) -> Value {
    match d {
        Dim::Known(e) => Value::Int(e.clone()),
        Dim::Dyn => Value::IntUnknown,
    }
}

/// `x.shape`: the `torch.Size` of the dims.
fn shape(ctx: &mut Ctx) -> RuleResult {
    Ok(Value::Size(dims_of(ctx)?))
}

/// `x.size()` is `x.shape`; `x.size(i)` is one dim as an int (negative `i` counts from the end;
/// out of range is an IndexError).
fn size(ctx: &mut Ctx) -> RuleResult {
    let dims = dims_of(ctx)?;
    if ctx.args.len() > 2 {
        return invalid(format!("{}: size() takes at most one dim", ctx.op));
    }
    match ctx.const_int(1, "dim")? {
        None => Ok(Value::Size(dims)),
        Some(d) => {
            if dims.is_empty() {
                return invalid(format!(
                    "{}: Dimension specified as {d} but tensor has no dimensions",
                    ctx.op
                ));
            }
            let i = ctx.dim_index(d, dims.len(), 0)?;
            Ok(int_value(&dims[i]))
        }
    }
}

/// `x.dim()` / `x.ndim`: the rank.
fn rank(ctx: &mut Ctx) -> RuleResult {
    no_args(ctx)?;
    Ok(Value::int(dims_of(ctx)?.len() as i64))
}

/// `x.numel()` / `torch.numel(x)`: the product of the dims.
fn numel(ctx: &mut Ctx) -> RuleResult {
    no_args(ctx)?;
    let (dims, _) = ctx.ranked(0, "input")?;
    Ok(int_value(&Dim::product(&dims)))
}

/// `torch.Size([...]).numel()`: the product of the sizes.
fn size_numel(ctx: &mut Ctx) -> RuleResult {
    match ctx.arg(0, "self") {
        Some(Value::Size(d)) => Ok(int_value(&Dim::product(d))),
        _ => unsupported(format!("{}: not a torch.Size", ctx.op)),
    }
}

/// `x.stride()` of a contiguous tensor: the product of the trailing dims for each dim.
fn stride(ctx: &mut Ctx) -> RuleResult {
    let dims = dims_of(ctx)?;
    let mut strides = vec![Dim::constant(1); dims.len()];
    for i in (0..dims.len().saturating_sub(1)).rev() {
        // PyTorch uses max(size, 1) when computing contiguous strides.
        strides[i] = strides[i + 1].zip(&dims[i + 1], |s, d| s.mul(&d.maximum(&DimExpr::one())));
    }
    match ctx.const_int(1, "dim")? {
        None => Ok(Value::Tuple(strides.iter().map(int_value).collect())),
        Some(d) => {
            let i = ctx.dim_index(d, dims.len(), 0)?;
            Ok(strides.get(i).map(int_value).unwrap_or(Value::int(1)))
        }
    }
}

/// `x.element_size()`: bytes per element (4 for float32, 8 for int64, 1 for bool).
fn element_size(ctx: &mut Ctx) -> RuleResult {
    let t = ctx.tensor(0, "self")?;
    Ok(match t.dtype {
        Some(DType::Float) => Value::int(4),
        Some(DType::Int) => Value::int(8),
        Some(DType::Bool) => Value::int(1),
        _ => Value::IntUnknown,
    })
}

/// `x.is_contiguous()`: tensors made by the rules are contiguous.
fn is_contiguous(ctx: &mut Ctx) -> RuleResult {
    ctx.tensor(0, "self")?;
    Ok(Value::Bool(Some(true)))
}

/// `x.dtype`.
fn dtype(ctx: &mut Ctx) -> RuleResult {
    let t = ctx.tensor(0, "self")?;
    Ok(t.dtype.map(Value::DType).unwrap_or(Value::Unknown))
}

/// `torch.is_tensor(v)`.
fn is_tensor(ctx: &mut Ctx) -> RuleResult {
    Ok(Value::Bool(Some(matches!(
        ctx.arg(0, "obj"),
        Some(Value::Tensor(_))
    ))))
}

/// `torch.is_floating_point(x)`.
fn is_floating_point(ctx: &mut Ctx) -> RuleResult {
    let t = ctx.tensor(0, "input")?;
    Ok(Value::Bool(t.dtype.map(DType::is_floating)))
}

/// `len(x)`: the first dim of a tensor ("len() of a 0-d tensor" is a TypeError), the length
/// of a `torch.Size`, tuple or list.
fn len(ctx: &mut Ctx) -> RuleResult {
    match ctx.arg(0, "obj") {
        Some(Value::Tensor(t)) => match &t.shape {
            Shape::Ranked(d) if d.is_empty() => {
                invalid(format!("{}: len() of a 0-d tensor", ctx.op))
            }
            Shape::Ranked(d) => Ok(int_value(&d[0])),
            Shape::Partial { prefix, .. } => {
                Ok(prefix.first().map(int_value).unwrap_or(Value::IntUnknown))
            }
        },
        Some(v) => match v.elements() {
            Some(items) => Ok(Value::int(items.len() as i64)),
            None => unsupported(format!("{}: len() of {v}", ctx.op)),
        },
        None => invalid(format!("{}: len() takes exactly one argument", ctx.op)),
    }
}

/// `v in size`: membership of an int in a `torch.Size` (decided when the dims are constant).
fn contains(ctx: &mut Ctx) -> RuleResult {
    let (Some(container), Some(item)) = (ctx.arg(0, "a"), ctx.arg(1, "b")) else {
        return invalid(format!("{}: contains() takes two arguments", ctx.op));
    };
    let (Some(items), Some(x)) = (container.elements(), item.as_int_expr()) else {
        return unsupported(format!("{}: membership of {item} in {container}", ctx.op));
    };
    let mut unknown = false;
    for it in items {
        match it.as_int_expr().map(|e| e.decide_eq(&x)) {
            Some(Some(true)) => return Ok(Value::Bool(Some(true))),
            Some(Some(false)) => {}
            _ => unknown = true,
        }
    }
    Ok(Value::Bool(if unknown { None } else { Some(false) }))
}
