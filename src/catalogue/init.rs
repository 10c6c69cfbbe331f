//! Operator rules: initialisers that fill a tensor in place and return it — `torch.nn.init.*`
//! and the Tensor methods `normal_`, `uniform_`, `bernoulli_`, `fill_`, `zero_`, `copy_`, ...
//! The shape never changes; the fan-based initialisers need a matrix-like tensor.

use super::elementwise::require_fits;
use super::{invalid, Ctx, Rule, RuleResult};
use crate::shapes::dim::DimExpr;
use crate::shapes::kind::FindingKind;
use crate::shapes::requirement::Pred;
use crate::shapes::shape::Dim;
use crate::shapes::value::Value;

/// What this family's failures are, unless a rule or a check declares otherwise.
pub const KIND: FindingKind = FindingKind::ShapeMismatch;

pub const RULES: &[Rule] = &[
    Rule::function("torch.nn.init.constant_", fill),
    Rule::function("torch.nn.init.zeros_", fill),
    Rule::function("torch.nn.init.ones_", fill),
    Rule::function("torch.nn.init.normal_", fill),
    Rule::function("torch.nn.init.uniform_", fill),
    Rule::function("torch.nn.init.trunc_normal_", fill),
    Rule::function("torch.nn.init.xavier_uniform_", xavier),
    Rule::function("torch.nn.init.xavier_normal_", xavier),
    Rule::function("torch.nn.init.kaiming_uniform_", kaiming),
    Rule::function("torch.nn.init.kaiming_normal_", kaiming),
    Rule::function("torch.nn.init.orthogonal_", orthogonal),
    Rule::function("torch.nn.init.eye_", eye),
    Rule::function("torch.Tensor.normal_", fill),
    Rule::function("torch.Tensor.uniform_", fill),
    Rule::function("torch.Tensor.zero_", fill),
    Rule::function("torch.Tensor.bernoulli_", fill),
    Rule::function("torch.Tensor.exponential_", fill),
    Rule::function("torch.Tensor.log_normal_", fill),
    Rule::function("torch.Tensor.cauchy_", fill),
    Rule::function("torch.Tensor.fill_", tensor_fill),
    Rule::function("torch.Tensor.copy_", copy),
];

/// The tensor being initialised, with its content forgotten. Random fills sample floats:
/// integer and bool tensors are "not implemented".
fn filled(ctx: &Ctx) -> RuleResult {
    let t = ctx.tensor(0, "tensor")?;
    let leaf = ctx.op.rsplit('.').next().unwrap_or_default();
    // Deterministic fills (and `bernoulli_`, which writes 0/1) accept any dtype.
    let any_dtype = matches!(
        leaf,
        "constant_" | "zeros_" | "ones_" | "eye_" | "zero_" | "fill_" | "copy_" | "bernoulli_"
    );
    if !any_dtype && t.dtype.is_some_and(|d| !d.is_floating()) {
        return invalid(format!(
            "{}: not implemented for integer or bool tensors",
            ctx.op
        ));
    }
    Ok(Value::Tensor(t).without_content())
}

/// `nn.init.constant_(t, val)`, `zeros_`, `ones_`, `normal_`, `uniform_`, `trunc_normal_`,
/// `t.normal_()`, `t.zero_()`: return `t`, whatever its shape (`constant_` needs `val`).
fn fill(ctx: &mut Ctx) -> RuleResult {
    if ctx.op.ends_with("constant_") && ctx.arg(1, "val").is_none() {
        return invalid(format!("{}: missing argument `val`", ctx.op));
    }
    filled(ctx)
}

/// The fans of a weight: `fan_in = size(1) * receptive`, `fan_out = size(0) * receptive`,
/// `receptive` the product of the dims after the second ("Fan in and fan out can not be
/// computed for tensor with fewer than 2 dimensions").
fn fans(ctx: &Ctx) -> Result<Option<(DimExpr, DimExpr)>, super::RuleError> {
    let t = ctx.tensor(0, "tensor")?;
    let Some(dims) = t.shape.dims() else {
        return Ok(None);
    };
    if dims.len() < 2 {
        return invalid(format!(
            "{}: Fan in and fan out can not be computed for tensor with fewer than 2 dimensions",
            ctx.op
        ));
    }
    let Dim::Known(receptive) = Dim::product(&dims[2..]) else {
        return Ok(None);
    };
    match (&dims[0], &dims[1]) {
        (Dim::Known(o), Dim::Known(i)) => Ok(Some((i.mul(&receptive), o.mul(&receptive)))),
        _ => Ok(None),
    }
}

/// `nn.init.xavier_uniform_(t, gain=1.0)` / `xavier_normal_`: at least 2 dims; the scale
/// divides by `fan_in + fan_out` (Python's ZeroDivisionError when both are 0).
fn xavier(ctx: &mut Ctx) -> RuleResult {
    if let Some((fan_in, fan_out)) = fans(ctx)? {
        ctx.require(
            Pred::Ne(fan_in.add(&fan_out), DimExpr::zero()),
            format!("{}: float division by zero (fan_in + fan_out is 0)", ctx.op),
        )?;
    }
    filled(ctx)
}

/// `nn.init.kaiming_uniform_(t, a=0, mode='fan_in', ...)` / `kaiming_normal_`: at least 2
/// dims, unless the tensor has a zero dim (then a no-op with a warning).
fn kaiming(ctx: &mut Ctx) -> RuleResult {
    let t = ctx.tensor(0, "tensor")?;
    match t.shape.dims() {
        // Fewer than 2 dims: only an empty tensor passes.
        Some(dims) if dims.len() < 2 => {
            if let Dim::Known(numel) = Dim::product(dims) {
                ctx.require(
                    Pred::Eq(numel, DimExpr::zero()),
                    format!("{}: Fan in and fan out can not be computed for tensor with fewer than 2 dimensions", ctx.op),
                )?;
            }
        }
        _ => {}
    }
    if let Some(Value::Str(Some(mode))) = ctx.arg(2, "mode") {
        if mode != "fan_in" && mode != "fan_out" {
            return invalid(format!(
                "{}: Mode {mode} not supported, please use one of fan_in, fan_out",
                ctx.op
            ));
        }
    }
    filled(ctx)
}

/// `nn.init.orthogonal_(t, gain=1)`: at least 2 dims ("Only tensors with 2 or more
/// dimensions are supported"); an empty tensor is left alone.
fn orthogonal(ctx: &mut Ctx) -> RuleResult {
    let t = ctx.tensor(0, "tensor")?;
    if t.shape.rank().is_some_and(|r| r < 2) {
        return invalid(format!(
            "{}: Only tensors with 2 or more dimensions are supported",
            ctx.op
        ));
    }
    filled(ctx)
}

/// `nn.init.eye_(t)`: exactly 2 dims ("Only tensors with 2 dimensions are supported").
fn eye(ctx: &mut Ctx) -> RuleResult {
    let t = ctx.tensor(0, "tensor")?;
    if t.shape.rank().is_some_and(|r| r != 2) {
        return invalid(format!(
            "{}: Only tensors with 2 dimensions are supported",
            ctx.op
        ));
    }
    filled(ctx)
}

/// `t.fill_(value)`: a number, or a 0-d tensor ("fill_ only supports 0-dimension value
/// tensor but got tensor with N dimensions").
fn tensor_fill(ctx: &mut Ctx) -> RuleResult {
    match ctx.arg(1, "value") {
        None => return invalid(format!("{}: missing argument `value`", ctx.op)),
        Some(Value::Tensor(v)) if v.shape.rank().is_some_and(|r| r != 0) => {
            return invalid(format!(
                "{}: fill_ only supports 0-dimension value tensor but got tensor with {} dimensions",
                ctx.op,
                v.shape.rank().unwrap_or(0)
            ))
        }
        _ => {}
    }
    filled(ctx)
}

/// `t.copy_(src)`: `src` must broadcast to `t`'s shape; the result is `t`.
fn copy(ctx: &mut Ctx) -> RuleResult {
    let t = ctx.tensor(0, "self")?;
    let src = ctx.tensor(1, "src")?;
    let mut reqs = Vec::new();
    let what = ctx.op.clone();
    let out = crate::shapes::shape::broadcast(&t.shape, &src.shape, &what, &mut reqs);
    for r in reqs {
        ctx.impose(r)?;
    }
    require_fits(ctx, &t.shape, &out)?;
    Ok(Value::Tensor(t).without_content())
}
