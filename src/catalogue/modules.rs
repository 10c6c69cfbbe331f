//! Operator rules: simple `nn` modules and their functional forms — shape-preserving layers
//! (Identity, Dropout family, activations), Softmax-like layers with a `dim`, Flatten and
//! Unflatten, GLU, PReLU, and `Sequential`, which applies its children in order.

use std::collections::BTreeMap;

use super::{
    apply, invalid, lookup, tensor_out, unsupported, Ctx, Rule, RuleError, RuleKind, RuleResult,
};
use crate::shapes::dim::DimExpr;
use crate::shapes::kind::FindingKind;
use crate::shapes::requirement::Pred;
use crate::shapes::shape::Dim;
use crate::shapes::value::{ModuleValue, Value};

/// What this family's failures are, unless a rule or a check declares otherwise.
pub const KIND: FindingKind = FindingKind::ShapeMismatch;

pub const RULES: &[Rule] = &[
    Rule::module("torch.nn.Identity", init_any, forward_same),
    Rule::module("torch.nn.Dropout", init_dropout, forward_same),
    Rule::module("torch.nn.Dropout1d", init_dropout, forward_same),
    Rule::module("torch.nn.Dropout2d", init_dropout, forward_same),
    Rule::module("torch.nn.Dropout3d", init_dropout, forward_same),
    Rule::module("torch.nn.AlphaDropout", init_dropout, forward_same),
    Rule::module("torch.nn.FeatureAlphaDropout", init_dropout, forward_same),
    Rule::module("torch.nn.ReLU", init_any, forward_same),
    Rule::module("torch.nn.ReLU6", init_any, forward_same),
    Rule::module("torch.nn.GELU", init_gelu, forward_same),
    Rule::module("torch.nn.SiLU", init_any, forward_same),
    Rule::module("torch.nn.Sigmoid", init_any, forward_same),
    Rule::module("torch.nn.Tanh", init_any, forward_same),
    Rule::module("torch.nn.ELU", init_any, forward_same),
    Rule::module("torch.nn.LeakyReLU", init_any, forward_same),
    Rule::module("torch.nn.Hardswish", init_any, forward_same),
    Rule::module("torch.nn.Hardtanh", init_any, forward_same),
    Rule::module("torch.nn.Mish", init_any, forward_same),
    Rule::module("torch.nn.Softplus", init_any, forward_same),
    Rule::module("torch.nn.Threshold", init_threshold, forward_same),
    Rule::module("torch.nn.Hardsigmoid", init_any, forward_same),
    Rule::module("torch.nn.SELU", init_any, forward_same),
    Rule::module("torch.nn.CELU", init_any, forward_same),
    Rule::module("torch.nn.LogSigmoid", init_any, forward_same),
    Rule::module("torch.nn.Softsign", init_any, forward_same),
    Rule::module("torch.nn.Tanhshrink", init_any, forward_same),
    Rule::module("torch.nn.Softshrink", init_any, forward_same),
    Rule::module("torch.nn.Hardshrink", init_any, forward_same),
    Rule::module("torch.nn.Softmax", init_dim, forward_dim),
    Rule::module("torch.nn.LogSoftmax", init_dim, forward_dim),
    Rule::module("torch.nn.Softmin", init_dim, forward_dim),
    Rule::module("torch.nn.GLU", init_glu, forward_glu),
    Rule::module("torch.nn.PReLU", init_any, forward_prelu),
    Rule::module("torch.nn.Flatten", init_any, forward_flatten),
    Rule::module("torch.nn.Unflatten", init_any, forward_unflatten),
    Rule::module("torch.nn.Sequential", init_sequential, forward_sequential),
    Rule::function("torch.nn.functional.glu", glu),
    Rule::function("torch.nn.functional.dropout", same_shape),
    Rule::function("torch.nn.functional.dropout1d", same_shape),
    Rule::function("torch.nn.functional.dropout2d", same_shape),
    Rule::function("torch.nn.functional.dropout3d", same_shape),
    Rule::function("torch.nn.functional.alpha_dropout", same_shape),
];

/// Records the construction arguments as hyperparameters: positional ones as `"0"`, `"1"`,
/// keywords by name.
fn module(ctx: &Ctx) -> Value {
    let mut params = BTreeMap::new();
    for (i, v) in ctx.args.iter().enumerate() {
        params.insert(i.to_string(), v.clone());
    }
    for (k, v) in &ctx.kwargs {
        params.insert(k.clone(), v.clone());
    }
    let children = ctx
        .args
        .iter()
        .filter(|v| matches!(v, Value::Module(_)))
        .cloned()
        .collect();
    Value::Module(Box::new(ModuleValue {
        class: ctx.op.clone(),
        params,
        children,
    }))
}

/// Modules whose construction arguments do not affect shapes.
fn init_any(ctx: &mut Ctx) -> RuleResult {
    Ok(module(ctx))
}

/// `nn.Dropout(p)`: `p` must be a probability ("dropout probability has to be between 0 and
/// 1").
fn init_dropout(ctx: &mut Ctx) -> RuleResult {
    if let Some(Value::Float(Some(p))) = ctx.arg(0, "p") {
        if !(0.0..=1.0).contains(p) {
            return invalid(format!(
                "{}: dropout probability has to be between 0 and 1, but got {p}",
                ctx.op
            ));
        }
    }
    Ok(module(ctx))
}

/// `nn.GELU(approximate='none')`: `approximate` is `'none'` or `'tanh'`.
fn init_gelu(ctx: &mut Ctx) -> RuleResult {
    if let Some(Value::Str(Some(a))) = ctx.arg(0, "approximate") {
        if a != "none" && a != "tanh" {
            return invalid(format!(
                "{}: approximate argument must be either none or tanh.",
                ctx.op
            ));
        }
    }
    Ok(module(ctx))
}

/// `nn.Threshold(threshold, value)`: both arguments are required.
fn init_threshold(ctx: &mut Ctx) -> RuleResult {
    if ctx.arg(0, "threshold").is_none() || ctx.arg(1, "value").is_none() {
        return invalid(format!(
            "{}: Threshold() needs `threshold` and `value`",
            ctx.op
        ));
    }
    Ok(module(ctx))
}

/// Shape-preserving layers: the output has the input's shape (`Dropout1d`: 2-D or 3-D only).
fn forward_same(ctx: &mut Ctx) -> RuleResult {
    let t = ctx.tensor(0, "input")?;
    if ctx.args.len() > 1 {
        return invalid(format!(
            "{}.forward() takes 2 positional arguments but {} were given",
            ctx.op,
            ctx.args.len() + 1
        ));
    }
    dropout1d_rank(ctx, &t)?;
    let feature = ["Dropout2d", "Dropout3d", "FeatureAlphaDropout"]
        .iter()
        .any(|n| ctx.op.ends_with(n));
    if feature && t.shape.rank().is_some_and(|r| r < 2) {
        return invalid(format!(
            "{}: Feature dropout requires at least 2 dimensions in the input",
            ctx.op
        ));
    }
    Ok(Value::Tensor(t))
}

/// Functional dropout: same shape; `p` must be a probability; `dropout1d` takes 2-D or 3-D
/// input only.
fn same_shape(ctx: &mut Ctx) -> RuleResult {
    let t = ctx.tensor(0, "input")?;
    if let Some(Value::Float(Some(p))) = ctx.arg(1, "p") {
        if !(0.0..=1.0).contains(p) {
            return invalid(format!(
                "{}: dropout probability has to be between 0 and 1, but got {p}",
                ctx.op
            ));
        }
    }
    dropout1d_rank(ctx, &t)?;
    Ok(Value::Tensor(t))
}

fn dropout1d_rank(ctx: &Ctx, t: &crate::shapes::value::TensorValue) -> Result<(), RuleError> {
    let one_d = ctx.op.ends_with("dropout1d") || ctx.op.ends_with("Dropout1d");
    if let (true, Some(r)) = (one_d, t.shape.rank()) {
        if r != 2 && r != 3 {
            return invalid(format!(
                "{}: dropout1d: Expected 2D or 3D input, but received a {r}D input",
                ctx.op
            ));
        }
    }
    Ok(())
}

/// `nn.Softmax(dim=None)` and friends.
fn init_dim(ctx: &mut Ctx) -> RuleResult {
    Ok(module(ctx))
}

/// `nn.Softmax(dim)(x)`: same shape; `dim` must be in range for `x` (when `dim` is None,
/// PyTorch picks one with a warning).
fn forward_dim(ctx: &mut Ctx) -> RuleResult {
    let (dims, dtype) = ctx.ranked(0, "input")?;
    let dim = ctx.param("0").or_else(|| ctx.param("dim")).cloned();
    if let Some(Value::Int(d)) = dim {
        let d = d
            .as_const()
            .ok_or_else(|| RuleError::Unsupported("symbolic dim".into()))?;
        ctx.dim_index(d, dims.len(), 0)?;
    }
    Ok(tensor_out(dims, dtype))
}

fn glu_on(
    ctx: &mut Ctx,
    dims: Vec<Dim>,
    dtype: Option<crate::shapes::value::DType>,
    dim: i64,
) -> RuleResult {
    if dims.is_empty() {
        return invalid(format!(
            "{}: glu does not support scalars because halving size must be even",
            ctx.op
        ));
    }
    let i = ctx.dim_index(dim, dims.len(), 0)?;
    let mut out = dims.clone();
    if let Some(e) = dims[i].expr() {
        ctx.require_with(Pred::Divides(DimExpr::constant(2), e.clone()), |cx| {
            format!(
                "{}: Halving dimension must be even, but dimension {i} is size {e}",
                cx.op
            )
        })?;
        out[i] = Dim::Known(e.floordiv(&DimExpr::constant(2)));
    }
    Ok(tensor_out(out, dtype))
}

/// `F.glu(x, dim=-1)`: halves `dim`, which must be even.
fn glu(ctx: &mut Ctx) -> RuleResult {
    let (dims, dtype) = ctx.ranked(0, "input")?;
    let dim = ctx.const_int(1, "dim")?.unwrap_or(-1);
    glu_on(ctx, dims, dtype, dim)
}

fn init_glu(ctx: &mut Ctx) -> RuleResult {
    Ok(module(ctx))
}

/// `nn.GLU(dim=-1)(x)`: as `F.glu`.
fn forward_glu(ctx: &mut Ctx) -> RuleResult {
    let (dims, dtype) = ctx.ranked(0, "input")?;
    let dim = match ctx.param("0").or_else(|| ctx.param("dim")) {
        Some(v) => super::int_of(&ctx.op, "dim", v)?.as_const().unwrap_or(-1),
        None => -1,
    };
    glu_on(ctx, dims, dtype, dim)
}

/// `nn.PReLU(num_parameters=1)(x)`: with more than one parameter, `x`'s channel dim (dim 1, or
/// dim 0 for a 1-D input) must equal `num_parameters`.
fn forward_prelu(ctx: &mut Ctx) -> RuleResult {
    let (dims, dtype) = ctx.ranked(0, "input")?;
    let n = match ctx.param("0").or_else(|| ctx.param("num_parameters")) {
        Some(v) => super::int_of(&ctx.op, "num_parameters", v)?,
        None => DimExpr::one(),
    };
    if n.as_const() != Some(1) {
        // A 1-D input counts as one channel.
        let one = Dim::Known(DimExpr::one());
        let channel = match dims.len() {
            0 => return invalid(format!("{}: Not allow zero-dim input tensor.", ctx.op)),
            1 => &one,
            _ => &dims[1],
        };
        if let Some(c) = channel.expr() {
            ctx.require_with(Pred::Eq(c.clone(), n.clone()), |cx| format!("{}: Mismatch of parameter numbers and input channel size. Found parameter numbers = {n} and channel size = {c}.", cx.op))?;
        }
    }
    Ok(tensor_out(dims, dtype))
}

/// Reads a module hyperparameter given positionally at `pos` or by `name`.
fn hyper<'a>(ctx: &'a Ctx, pos: usize, name: &str) -> Option<&'a Value> {
    ctx.param(&pos.to_string()).or_else(|| ctx.param(name))
}

/// `nn.Flatten(start_dim=1, end_dim=-1)(x)`: as `torch.flatten` with those defaults.
fn forward_flatten(ctx: &mut Ctx) -> RuleResult {
    let start = hyper(ctx, 0, "start_dim").cloned().unwrap_or(Value::int(1));
    let end = hyper(ctx, 1, "end_dim").cloned().unwrap_or(Value::int(-1));
    let input = ctx.arg(0, "input").cloned().unwrap_or(Value::Unknown);
    delegate(ctx, "torch.flatten", vec![input, start, end])
}

/// `nn.Unflatten(dim, unflattened_size)(x)`: as `x.unflatten(dim, sizes)`.
fn forward_unflatten(ctx: &mut Ctx) -> RuleResult {
    let dim = hyper(ctx, 0, "dim")
        .cloned()
        .ok_or_else(|| RuleError::invalid(format!("{}: missing `dim`", ctx.op)))?;
    let sizes = hyper(ctx, 1, "unflattened_size")
        .cloned()
        .ok_or_else(|| RuleError::invalid(format!("{}: missing `unflattened_size`", ctx.op)))?;
    let input = ctx.arg(0, "input").cloned().unwrap_or(Value::Unknown);
    delegate(ctx, "torch.unflatten", vec![input, dim, sizes])
}

/// Applies another function rule and keeps its requirements.
pub(super) fn delegate(ctx: &mut Ctx, op: &str, args: Vec<Value>) -> RuleResult {
    let Some(RuleKind::Function(f)) = lookup(op).map(|r| r.kind) else {
        return unsupported(format!("no rule for {op}"));
    };
    let out = apply(f, op, args, Vec::new(), None)?;
    ctx.requirements.extend(out.requirements);
    Ok(out.value)
}

/// `nn.Sequential(*modules)`: every argument must be a module.
fn init_sequential(ctx: &mut Ctx) -> RuleResult {
    for a in &ctx.args {
        match a {
            Value::Module(_) => {}
            Value::Unknown => return unsupported(format!("{}: a child module is unknown", ctx.op)),
            other => return invalid(format!("{}: {other} is not a Module subclass", ctx.op)),
        }
    }
    Ok(module(ctx))
}

/// `nn.Sequential(...)(x)`: applies each child's forward rule to the previous output.
fn forward_sequential(ctx: &mut Ctx) -> RuleResult {
    if ctx.args.len() > 1 {
        return invalid(format!(
            "{}: Sequential.forward() takes 2 positional arguments but {} were given",
            ctx.op,
            ctx.args.len() + 1
        ));
    }
    let children = children(ctx);
    let mut current = ctx
        .arg(0, "input")
        .cloned()
        .ok_or_else(|| RuleError::invalid(format!("{}: missing input", ctx.op)))?;
    for child in children {
        current = apply_child(ctx, child, vec![current], Vec::new())?;
    }
    Ok(current)
}

/// The child modules the module of a forward rule holds.
pub(super) fn children(ctx: &Ctx) -> Vec<Value> {
    ctx.module
        .as_ref()
        .map(|m| m.children.clone())
        .unwrap_or_default()
}

/// Runs a child module's forward rule (a container's layer) on `args`, its requirements
/// recorded as the container's.
pub(super) fn apply_child(
    ctx: &mut Ctx,
    child: Value,
    args: Vec<Value>,
    kwargs: Vec<(String, Value)>,
) -> RuleResult {
    let Value::Module(m) = child else {
        return unsupported(format!("{}: a child is not a module", ctx.op));
    };
    let Some(RuleKind::Module { forward, .. }) = lookup(&m.class).map(|r| r.kind) else {
        return unsupported(format!("{}: no rule for {}", ctx.op, m.class));
    };
    let class = m.class.clone();
    let out = apply(forward, &class, args, kwargs, Some(*m))?;
    ctx.requirements.extend(out.requirements);
    Ok(out.value)
}
