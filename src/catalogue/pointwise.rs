//! Operator rules: more pointwise math — unary math functions and their method and in-place
//! forms, elementwise predicates (`isnan`, `logical_not`), the comparison aliases
//! (`greater`, `less_equal`, ...), logical and bitwise functions, `nan_to_num`, the
//! three-operand `addcmul`/`addcdiv`/`lerp`, and the activations without a rule elsewhere.
//! Shapes follow `elementwise.rs`: unary ops keep the shape, the others broadcast.

use super::elementwise::{
    binary_arith, binary_compare, bitwise, broadcast_all, broadcast_operands, clamp, require_fits,
    unary,
};
use super::{invalid, Ctx, Rule, RuleError, RuleResult};
use crate::shapes::kind::FindingKind;
use crate::shapes::value::{DType, TensorValue, Value};

/// What this family's failures are, unless a rule or a check declares otherwise.
pub const KIND: FindingKind = FindingKind::ShapeMismatch;

pub const RULES: &[Rule] = &[
    // Unary math that gives a floating result for integer or bool input.
    Rule::function("torch.cos", unary_float),
    Rule::function("torch.tan", unary_float),
    Rule::function("torch.sinh", unary_float),
    Rule::function("torch.cosh", unary_float),
    Rule::function("torch.asin", unary_float),
    Rule::function("torch.acos", unary_float),
    Rule::function("torch.atan", unary_float),
    Rule::function("torch.log1p", unary_float),
    Rule::function("torch.log2", unary_float),
    Rule::function("torch.log10", unary_float),
    Rule::function("torch.expm1", unary_float),
    Rule::function("torch.exp2", unary_float),
    Rule::function("torch.rsqrt", unary_float),
    Rule::function("torch.reciprocal", unary_float),
    Rule::function("torch.erf", unary_float),
    Rule::function("torch.erfinv", unary_float),
    Rule::function("torch.sinc", unary_float),
    Rule::function("torch.lgamma", unary_float),
    Rule::function("torch.digamma", unary_float),
    Rule::function("torch.rad2deg", unary_float),
    Rule::function("torch.deg2rad", unary_float),
    Rule::function("torch.Tensor.cos", unary_float),
    Rule::function("torch.Tensor.sin", unary_float),
    Rule::function("torch.Tensor.tan", unary_float),
    Rule::function("torch.Tensor.log", unary_float),
    Rule::function("torch.Tensor.log1p", unary_float),
    Rule::function("torch.Tensor.log2", unary_float),
    Rule::function("torch.Tensor.log10", unary_float),
    Rule::function("torch.Tensor.expm1", unary_float),
    Rule::function("torch.Tensor.rsqrt", unary_float),
    Rule::function("torch.Tensor.reciprocal", unary_float),
    Rule::function("torch.Tensor.erf", unary_float),
    Rule::function("torch.Tensor.atan", unary_float),
    // Unary math that keeps the dtype.
    Rule::function("torch.ceil", unary),
    Rule::function("torch.round", unary),
    Rule::function("torch.trunc", unary),
    Rule::function("torch.square", unary),
    Rule::function("torch.absolute", unary),
    Rule::function("torch.clone", unary),
    Rule::function("torch.Tensor.ceil", unary),
    Rule::function("torch.Tensor.floor", unary),
    Rule::function("torch.Tensor.round", unary),
    Rule::function("torch.Tensor.trunc", unary),
    Rule::function("torch.Tensor.square", unary),
    Rule::function("torch.Tensor.sign", unary),
    Rule::function("torch.Tensor.absolute", unary),
    // In place.
    Rule::function("torch.Tensor.neg_", unary_inplace),
    Rule::function("torch.Tensor.abs_", unary_inplace),
    Rule::function("torch.Tensor.floor_", unary_inplace),
    Rule::function("torch.Tensor.ceil_", unary_inplace),
    Rule::function("torch.Tensor.round_", unary_inplace),
    Rule::function("torch.Tensor.relu_", unary_inplace),
    Rule::function("torch.Tensor.exp_", unary_inplace),
    Rule::function("torch.Tensor.sqrt_", unary_inplace),
    Rule::function("torch.Tensor.sigmoid_", unary_inplace),
    Rule::function("torch.Tensor.tanh_", unary_inplace),
    Rule::function("torch.Tensor.clamp_", clamp_inplace),
    Rule::function("torch.Tensor.clip", clamp),
    // Predicates: a bool tensor of the same shape.
    Rule::function("torch.isnan", predicate),
    Rule::function("torch.isinf", predicate),
    Rule::function("torch.isfinite", predicate),
    Rule::function("torch.isposinf", predicate),
    Rule::function("torch.isneginf", predicate),
    Rule::function("torch.signbit", predicate),
    Rule::function("torch.logical_not", predicate),
    Rule::function("torch.Tensor.isnan", predicate),
    Rule::function("torch.Tensor.isinf", predicate),
    Rule::function("torch.Tensor.isfinite", predicate),
    Rule::function("torch.Tensor.logical_not", predicate),
    Rule::function("torch.nan_to_num", nan_to_num),
    Rule::function("torch.Tensor.nan_to_num", nan_to_num),
    Rule::function("torch.Tensor.nan_to_num_", nan_to_num),
    // Binary: comparison aliases, min/max, logical and bitwise functions.
    Rule::function("torch.greater", binary_compare),
    Rule::function("torch.greater_equal", binary_compare),
    Rule::function("torch.less", binary_compare),
    Rule::function("torch.less_equal", binary_compare),
    Rule::function("torch.not_equal", binary_compare),
    Rule::function("torch.Tensor.greater", binary_compare),
    Rule::function("torch.fmin", binary_arith),
    Rule::function("torch.fmax", binary_arith),
    Rule::function("torch.Tensor.maximum", binary_arith),
    Rule::function("torch.Tensor.minimum", binary_arith),
    Rule::function("torch.Tensor.atan2", binary_arith),
    Rule::function("torch.Tensor.remainder", binary_arith),
    Rule::function("torch.logical_and", logical),
    Rule::function("torch.logical_or", logical),
    Rule::function("torch.logical_xor", logical),
    Rule::function("torch.Tensor.logical_and", logical),
    Rule::function("torch.Tensor.logical_or", logical),
    Rule::function("torch.bitwise_and", bitwise),
    Rule::function("torch.bitwise_or", bitwise),
    Rule::function("torch.bitwise_xor", bitwise),
    // Three operands.
    Rule::function("torch.addcmul", ternary),
    Rule::function("torch.addcdiv", ternary),
    Rule::function("torch.lerp", ternary),
    Rule::function("torch.Tensor.addcmul", ternary),
    Rule::function("torch.Tensor.lerp", ternary),
    Rule::function("torch.Tensor.addcmul_", ternary_inplace),
    Rule::function("torch.Tensor.addcdiv_", ternary_inplace),
    Rule::function("torch.Tensor.lerp_", ternary_inplace),
    // Activations.
    Rule::function("torch.nn.functional.logsigmoid", unary),
    Rule::function("torch.nn.functional.hardtanh", hardtanh),
    Rule::function("torch.nn.functional.relu6", unary),
    Rule::function("torch.nn.functional.hardswish", unary),
    Rule::function("torch.nn.functional.hardsigmoid", unary),
    Rule::function("torch.nn.functional.mish", unary),
    Rule::function("torch.nn.functional.selu", unary),
    Rule::function("torch.nn.functional.celu", unary),
    Rule::function("torch.nn.functional.softsign", unary),
    Rule::function("torch.nn.functional.tanhshrink", unary),
    Rule::function("torch.nn.functional.softshrink", unary),
    Rule::function("torch.nn.functional.hardshrink", unary),
];

/// `torch.cos(x)`, `x.rsqrt()`, `torch.log10(x)`, ...: same shape; integer and bool inputs
/// give a floating result (PyTorch promotes them to the default float dtype).
fn unary_float(ctx: &mut Ctx) -> RuleResult {
    let out = unary(ctx)?;
    Ok(match out {
        Value::Tensor(t) if t.dtype.is_some_and(|d| !d.is_floating()) => {
            Value::Tensor(t.converted(Some(DType::Float)))
        }
        other => other,
    })
}

/// Ops whose result is floating whatever the input (in place, an integer receiver cannot
/// hold it: "result type Float can't be cast to the desired output type Long").
fn floating_result(op: &str) -> bool {
    let leaf = op.rsplit('.').next().unwrap_or(op).trim_end_matches('_');
    matches!(leaf, "exp" | "sqrt" | "sigmoid" | "tanh")
}

/// The receiver of an in-place op, which must be able to hold a result of `dtype`.
fn receiver(ctx: &Ctx, floating: bool) -> Result<TensorValue, RuleError> {
    let t = ctx.tensor(0, "self")?;
    if floating && t.dtype.is_some_and(|d| !d.is_floating()) {
        return invalid(format!(
            "{}: result type Float can't be cast to the desired output type {:?}",
            ctx.op, t.dtype
        ));
    }
    Ok(t)
}

/// `x.neg_()`, `x.exp_()`, `x.relu_()`, ...: the out-of-place rule's checks, in place: the
/// receiver's shape and dtype (a floating result needs a floating receiver).
fn unary_inplace(ctx: &mut Ctx) -> RuleResult {
    let t = receiver(ctx, floating_result(&ctx.op))?;
    unary(ctx)?;
    Ok(Value::Tensor(t).without_content())
}

/// `x.clamp_(min, max)`: `clamp`'s checks; tensor bounds must broadcast to `x`'s shape.
fn clamp_inplace(ctx: &mut Ctx) -> RuleResult {
    let floating_bound = [ctx.arg(1, "min"), ctx.arg(2, "max")]
        .iter()
        .any(|v| match v {
            Some(Value::Float(_)) => true,
            Some(Value::Tensor(b)) => b.dtype.is_some_and(|d| d.is_floating()),
            _ => false,
        });
    let t = receiver(ctx, floating_bound)?;
    let out = clamp(ctx)?;
    if let Some(o) = out.as_tensor() {
        require_fits(ctx, &t.shape, &o.shape)?;
    }
    Ok(Value::Tensor(t).without_content())
}

/// `torch.isnan(x)`, `isinf`, `isfinite`, `logical_not`, ...: a bool tensor of `x`'s shape.
fn predicate(ctx: &mut Ctx) -> RuleResult {
    let t = ctx.tensor(0, "input")?;
    if ctx.args.len() > 1 {
        return invalid(format!(
            "{}() takes 1 positional argument but {} were given",
            ctx.op,
            ctx.args.len()
        ));
    }
    Ok(Value::tensor(t.shape, Some(DType::Bool)))
}

/// `torch.nan_to_num(x, nan=0.0, posinf=None, neginf=None)`: same shape and dtype; the
/// replacement values are numbers.
fn nan_to_num(ctx: &mut Ctx) -> RuleResult {
    let t = ctx.tensor(0, "input")?;
    for (i, name) in ["nan", "posinf", "neginf"].iter().enumerate() {
        match ctx.arg(i + 1, name) {
            None
            | Some(
                Value::None
                | Value::Float(_)
                | Value::Int(_)
                | Value::IntUnknown
                | Value::Bool(_)
                | Value::Unknown,
            ) => {}
            Some(other) => {
                return invalid(format!(
                    "{}: argument '{name}' must be float, not {other}",
                    ctx.op
                ))
            }
        }
    }
    Ok(Value::Tensor(t).without_content())
}

/// `torch.logical_and(a, b)` (or, xor): `b` must be a tensor; the operands broadcast and
/// the result is bool.
fn logical(ctx: &mut Ctx) -> RuleResult {
    if !matches!(ctx.arg(1, "other"), Some(Value::Tensor(_) | Value::Unknown)) {
        return invalid(format!(
            "{}(): argument 'other' (position 2) must be Tensor",
            ctx.op
        ));
    }
    let (shape, _) = broadcast_operands(ctx)?;
    Ok(Value::tensor(shape, Some(DType::Bool)))
}

/// `torch.addcmul(input, tensor1, tensor2, value=1)`, `addcdiv` (not for integer tensors:
/// "Integer division with addcdiv is no longer supported"), `torch.lerp(input, end,
/// weight)` (`end` a tensor of `input`'s dtype, `weight` a number or a tensor): the three
/// operands broadcast together.
fn ternary(ctx: &mut Ctx) -> RuleResult {
    let input = ctx.tensor(0, "input")?;
    let lerp = ctx.op.contains("lerp");
    let (second, third) = if lerp {
        ("end", "weight")
    } else {
        ("tensor1", "tensor2")
    };
    let b = ctx.tensor(1, second)?;
    if !lerp {
        ctx.tensor(2, third)?;
    } else if ctx.arg(2, third).is_none() {
        return invalid(format!("{}: missing argument `{third}`", ctx.op));
    }
    let integral = |d: Option<DType>| d.is_some_and(|d| !d.is_floating());
    if ctx.op.contains("addcdiv") {
        let t2 = ctx.tensor(2, third)?;
        if integral(b.dtype) && integral(t2.dtype) {
            return invalid(format!(
                "{}: Integer division with addcdiv is no longer supported",
                ctx.op
            ));
        }
    }
    if lerp && input.dtype.is_some() && b.dtype.is_some() && input.dtype != b.dtype {
        return invalid(format!(
            "{}: expected dtype {:?} for `end` but got dtype {:?}",
            ctx.op, input.dtype, b.dtype
        ));
    }
    let shape = broadcast_all(ctx, &[(0, "input"), (1, second), (2, third)])?;
    Ok(Value::tensor(shape, input.dtype))
}

/// `x.addcmul_(t1, t2)`, `x.addcdiv_`, `x.lerp_`: `ternary`'s checks; the broadcast shape
/// must be `x`'s own.
fn ternary_inplace(ctx: &mut Ctx) -> RuleResult {
    let t = ctx.tensor(0, "self")?;
    let out = ternary(ctx)?;
    if let Some(o) = out.as_tensor() {
        require_fits(ctx, &t.shape, &o.shape)?;
    }
    Ok(Value::Tensor(t).without_content())
}

/// `F.hardtanh(x, min_val=-1.0, max_val=1.0)`: same shape; `max_val` may not be below
/// `min_val` ("max_val must be greater than or equal to min_val").
fn hardtanh(ctx: &mut Ctx) -> RuleResult {
    let number = |v: Option<&Value>| match v {
        Some(Value::Float(Some(f))) => Some(*f),
        Some(Value::Int(e)) => e.as_const().map(|c| c as f64),
        _ => None,
    };
    // An absent bound is its default; a present but unknown one decides nothing.
    let lo = ctx
        .arg(1, "min_val")
        .map_or(Some(-1.0), |v| number(Some(v)));
    let hi = ctx.arg(2, "max_val").map_or(Some(1.0), |v| number(Some(v)));
    if let (Some(lo), Some(hi)) = (lo, hi) {
        if hi < lo {
            return invalid(format!(
                "{}: max_val must be greater than or equal to min_val",
                ctx.op
            ));
        }
    }
    unary(ctx)
}
