//! Operator rules: elementwise math. Binary operators broadcast their operands; unary
//! functions keep the shape; conversions keep the shape and change the dtype.

use super::invalid_as;
use super::{invalid, Ctx, Rule, RuleError, RuleResult};
use crate::shapes::kind::{Declared, FindingKind};
use crate::shapes::requirement::Pred;
use crate::shapes::shape::{broadcast, Dim, Shape};
use crate::shapes::value::{DType, Value};

/// What this family's failures are, unless a rule or a check declares otherwise.
pub const KIND: FindingKind = FindingKind::ShapeMismatch;

pub const RULES: &[Rule] = &[
    Rule::function("operator.add", binary_arith),
    Rule::function("operator.sub", binary_arith),
    Rule::function("operator.mul", binary_arith),
    Rule::function("operator.truediv", binary_true_div),
    Rule::function("operator.floordiv", binary_arith),
    Rule::function("operator.mod", binary_arith),
    Rule::function("operator.pow", binary_arith),
    Rule::function("operator.iadd", binary_inplace),
    Rule::function("operator.isub", binary_inplace),
    Rule::function("operator.imul", binary_inplace),
    Rule::function("operator.itruediv", binary_inplace),
    Rule::function("operator.eq", binary_compare),
    Rule::function("operator.ne", binary_compare),
    Rule::function("operator.lt", binary_compare),
    Rule::function("operator.le", binary_compare),
    Rule::function("operator.gt", binary_compare),
    Rule::function("operator.ge", binary_compare),
    Rule::function("torch.add", binary_arith),
    Rule::function("torch.sub", binary_arith),
    Rule::function("torch.mul", binary_arith),
    Rule::function("torch.div", binary_true_div),
    Rule::function("torch.divide", binary_true_div),
    Rule::function("torch.true_divide", binary_true_div),
    Rule::function("torch.pow", pow),
    Rule::function("torch.maximum", binary_arith),
    Rule::function("torch.minimum", binary_arith),
    Rule::function("torch.atan2", binary_arith),
    Rule::function("torch.hypot", binary_arith),
    Rule::function("torch.fmod", binary_arith),
    Rule::function("torch.remainder", binary_arith),
    Rule::function("torch.eq", binary_compare),
    Rule::function("torch.ne", binary_compare),
    Rule::function("torch.gt", binary_compare),
    Rule::function("torch.lt", binary_compare),
    Rule::function("torch.ge", binary_compare),
    Rule::function("torch.le", binary_compare),
    Rule::function("torch.Tensor.eq", binary_compare),
    Rule::function("torch.Tensor.ne", binary_compare),
    Rule::function("torch.Tensor.gt", binary_compare),
    Rule::function("torch.Tensor.lt", binary_compare),
    Rule::function("torch.Tensor.ge", binary_compare),
    Rule::function("torch.Tensor.le", binary_compare),
    Rule::function("torch.Tensor.add", binary_arith),
    Rule::function("torch.Tensor.sub", binary_arith),
    Rule::function("torch.Tensor.mul", binary_arith),
    Rule::function("torch.Tensor.div", binary_true_div),
    Rule::function("torch.Tensor.divide", binary_true_div),
    Rule::function("torch.Tensor.true_divide", binary_true_div),
    Rule::function("torch.Tensor.pow", pow),
    Rule::function("torch.Tensor.add_", binary_inplace),
    Rule::function("torch.Tensor.sub_", binary_inplace),
    Rule::function("torch.Tensor.mul_", binary_inplace),
    Rule::function("torch.Tensor.div_", binary_inplace),
    Rule::function("operator.and_", bitwise),
    Rule::function("operator.or_", bitwise),
    Rule::function("operator.xor", bitwise),
    Rule::function("operator.lshift", bitwise),
    Rule::function("operator.rshift", bitwise),
    Rule::function("operator.invert", invert),
    Rule::function("operator.neg", unary),
    Rule::function("operator.pos", unary),
    Rule::function("operator.abs", unary),
    Rule::function("torch.relu", unary),
    Rule::function("torch.exp", unary),
    Rule::function("torch.log", unary),
    Rule::function("torch.sigmoid", unary),
    Rule::function("torch.tanh", unary),
    Rule::function("torch.abs", unary),
    Rule::function("torch.neg", unary),
    Rule::function("torch.sqrt", unary),
    Rule::function("torch.sin", unary),
    Rule::function("torch.floor", unary),
    Rule::function("torch.sign", unary),
    Rule::function("torch.Tensor.relu", unary),
    Rule::function("torch.Tensor.exp", unary),
    Rule::function("torch.Tensor.sigmoid", unary),
    Rule::function("torch.Tensor.tanh", unary),
    Rule::function("torch.Tensor.abs", unary),
    Rule::function("torch.Tensor.neg", unary),
    Rule::function("torch.Tensor.sqrt", unary),
    Rule::function("torch.Tensor.contiguous", contiguous),
    Rule::function("torch.Tensor.detach", unary),
    Rule::function("torch.Tensor.clone", unary),
    Rule::function("torch.Tensor.cpu", device_copy),
    Rule::function("torch.Tensor.cuda", device_copy),
    Rule::function("torch.dropout", unary),
    Rule::function("torch.nn.functional.relu", unary),
    Rule::function("torch.nn.functional.gelu", unary),
    Rule::function("torch.nn.functional.silu", unary),
    Rule::function("torch.nn.functional.sigmoid", unary),
    Rule::function("torch.nn.functional.tanh", unary),
    Rule::function("torch.nn.functional.elu", unary),
    Rule::function("torch.nn.functional.leaky_relu", unary),
    Rule::function("torch.nn.functional.softplus", unary),
    Rule::function("torch.Tensor.float", to_float),
    Rule::function("torch.Tensor.double", to_float),
    Rule::function("torch.Tensor.half", to_float),
    Rule::function("torch.Tensor.long", to_int),
    Rule::function("torch.Tensor.int", to_int),
    Rule::function("torch.Tensor.bool", to_bool),
    Rule::function("torch.where", where_),
    Rule::function("torch.Tensor.where", tensor_where),
    Rule::function("torch.clamp", clamp),
    Rule::function("torch.clip", clamp),
    Rule::function("torch.Tensor.clamp", clamp),
    Rule::function("torch.Tensor.clamp_min", unary_with_scalar),
    Rule::function("torch.Tensor.clamp_max", unary_with_scalar),
    Rule::function("torch.masked_fill", masked_fill),
    Rule::function("torch.Tensor.masked_fill", masked_fill),
    Rule::function("torch.Tensor.masked_fill_", masked_fill_inplace),
    Rule::function("torch.complex", complex),
];

/// The shape of an operand: a tensor's, or `[]` for a Python number (numbers broadcast as 0-d).
fn operand_shape(ctx: &Ctx, v: Option<&Value>, name: &str) -> Result<Option<Shape>, RuleError> {
    match v {
        Some(Value::Tensor(t)) => Ok(Some(t.shape.clone())),
        Some(Value::Int(_) | Value::Float(_) | Value::Bool(_) | Value::IntUnknown) => Ok(None),
        Some(Value::Unknown) => super::unsupported(format!("{}: `{name}` is unknown", ctx.op)),
        Some(other) => invalid(format!("{}: unsupported operand {other}", ctx.op)),
        None => invalid(format!("{}: missing operand `{name}`", ctx.op)),
    }
}

/// PyTorch's type-promotion categories.
fn category(d: DType) -> u8 {
    match d {
        DType::Bool => 0,
        DType::Int => 1,
        DType::Float => 2,
        DType::Complex => 3,
    }
}

pub(super) fn dtype_of(v: Option<&Value>) -> Option<DType> {
    match v {
        Some(Value::Tensor(t)) => t.dtype,
        Some(Value::Int(_) | Value::IntUnknown) => Some(DType::Int),
        Some(Value::Bool(_)) => Some(DType::Bool),
        Some(Value::Float(_)) => Some(DType::Float),
        _ => None,
    }
}

/// Kernels PyTorch does not implement for bool tensors (`-`, `//`, `%`, unary minus...).
fn reject_bool(ctx: &Ctx, what: &str) -> Result<(), RuleError> {
    let tensor_bool = [ctx.arg(0, "input"), ctx.arg(1, "other")]
        .iter()
        .any(|v| matches!(v, Some(Value::Tensor(t)) if t.dtype == Some(DType::Bool)));
    let all_bool = [ctx.arg(0, "input"), ctx.arg(1, "other")]
        .iter()
        .filter(|v| v.is_some())
        .all(|v| dtype_of(*v) == Some(DType::Bool));
    if tensor_bool && all_bool {
        return invalid(format!("{}: \"{what}\" not implemented for 'Bool'", ctx.op));
    }
    Ok(())
}

/// `torch.Size` arithmetic and comparisons, which are tuple operations in Python:
/// `size + (4,)` concatenates, `size * 2` repeats, `size == (2, 3)` compares. `None` when
/// the operands are not sequences.
fn sequence_op(ctx: &Ctx) -> Option<Result<Value, RuleError>> {
    let a = ctx.arg(0, "a")?;
    let b = ctx.arg(1, "b")?;
    let is_seq = |v: &Value| matches!(v, Value::Size(_) | Value::Tuple(_));
    // Known values that are not tuples: adding one to a tuple is a TypeError.
    let is_plain = |v: &Value| {
        matches!(
            v,
            Value::Int(_)
                | Value::IntUnknown
                | Value::Float(_)
                | Value::Bool(_)
                | Value::Str(_)
                | Value::List(_)
                | Value::None
        )
    };
    let as_dims = |v: &Value| -> Option<Vec<Dim>> {
        v.elements()?
            .iter()
            .map(|e| match e {
                Value::Int(x) => Some(Dim::Known(x.clone())),
                Value::IntUnknown => Some(Dim::Dyn),
                _ => None,
            })
            .collect()
    };
    if !(is_seq(a) || is_seq(b)) {
        return None;
    }
    // A torch.Size is a tuple: never equal to a list.
    if matches!(ctx.op.as_str(), "operator.eq" | "operator.ne")
        && (matches!(a, Value::List(_)) || matches!(b, Value::List(_)))
    {
        return Some(Ok(Value::Bool(Some(ctx.op == "operator.ne"))));
    }
    Some(match ctx.op.as_str() {
        "operator.add" if is_seq(a) && is_seq(b) => match (as_dims(a), as_dims(b)) {
            (Some(mut x), Some(y)) => {
                x.extend(y);
                Ok(Value::Size(x))
            }
            _ => super::unsupported(format!("{}: tuple of non-ints", ctx.op)),
        },
        "operator.mul" => {
            let (seq, n) = if is_seq(a) { (a, b) } else { (b, a) };
            if is_seq(n) {
                return Some(invalid(format!(
                    "{}: can't multiply sequence by non-int of type 'torch.Size'",
                    ctx.op
                )));
            }
            match (as_dims(seq), n.as_const_int()) {
                (Some(x), Some(k)) => {
                    Ok(Value::Size((0..k.max(0)).flat_map(|_| x.clone()).collect()))
                }
                _ => super::unsupported(format!("{}: repetition count unknown", ctx.op)),
            }
        }
        "operator.eq" | "operator.ne" => {
            let equal = match (as_dims(a), as_dims(b)) {
                (Some(x), Some(y)) if x.len() != y.len() => Some(false),
                (Some(x), Some(y)) => {
                    x.iter()
                        .zip(&y)
                        .try_fold(true, |acc, (p, q)| match (p.expr(), q.expr()) {
                            (Some(p), Some(q)) => p.decide_eq(q).map(|e| acc && e),
                            _ => None,
                        })
                }
                _ => Some(false),
            };
            let result = if ctx.op == "operator.ne" {
                equal.map(|e| !e)
            } else {
                equal
            };
            Ok(Value::Bool(result))
        }
        // Only known operands make the operation a Python TypeError; anything else (a
        // tensor's reflected operator, a value we do not know) leaves the result unknown.
        _ if [a, b].iter().all(|v| is_seq(v) || is_plain(v)) => {
            invalid(format!("{}: unsupported operand types {a} and {b}", ctx.op))
        }
        _ => super::unsupported(format!("{}: {a} and {b}", ctx.op)),
    })
}

pub(super) fn broadcast_operands(ctx: &mut Ctx) -> Result<(Shape, Option<DType>), RuleError> {
    let a = operand_shape(ctx, ctx.arg(0, "input"), "input")?;
    let b = operand_shape(ctx, ctx.arg(1, "other"), "other")?;
    let operands = [ctx.arg(0, "input"), ctx.arg(1, "other")];
    let mut dtype = operands
        .iter()
        .filter_map(|v| v.and_then(Value::as_tensor).and_then(|t| t.dtype))
        .max_by_key(|d| category(*d));
    // A Python number promotes only across categories (bool < int < float): an int
    // tensor times `0.5` is a float tensor, a float tensor times `2` stays float.
    for v in operands.into_iter().flatten() {
        if v.as_tensor().is_none() {
            if let (Some(d), Some(s)) = (dtype, dtype_of(Some(v))) {
                if category(s) > category(d) {
                    dtype = Some(s);
                }
            }
        }
    }
    let shape = match (a, b) {
        (Some(a), Some(b)) => {
            let mut reqs = Vec::new();
            let what = ctx.op.clone();
            let out = broadcast(&a, &b, &what, &mut reqs);
            for r in reqs {
                ctx.impose(r)?;
            }
            out
        }
        (Some(s), None) | (None, Some(s)) => s,
        (None, None) => return invalid(format!("{}: no tensor operand", ctx.op)),
    };
    Ok((shape, dtype))
}

/// `a + b`, `a * b`, `torch.add(a, b)`, ...: PyTorch broadcasting (right-aligned; a dim of 1
/// stretches; otherwise sizes must match: "The size of tensor a (x) must match the size of
/// tensor b (y) at non-singleton dimension i"). A Python number acts as a 0-d tensor.
pub(super) fn binary_arith(ctx: &mut Ctx) -> RuleResult {
    if let Some(result) = sequence_op(ctx) {
        return result;
    }
    match ctx.op.as_str() {
        "operator.sub" | "torch.sub" | "torch.Tensor.sub" => {
            let any_bool = [ctx.arg(0, "input"), ctx.arg(1, "other")]
                .iter()
                .any(|v| dtype_of(*v) == Some(DType::Bool));
            if any_bool {
                return invalid(format!(
                    "{}: Subtraction, the `-` operator, with a bool tensor is not supported",
                    ctx.op
                ));
            }
        }
        "operator.floordiv" => reject_bool(ctx, "div_floor_cpu")?,
        "operator.mod" | "torch.fmod" | "torch.remainder" | "torch.Tensor.remainder" => {
            reject_bool(ctx, "remainder_cpu")?
        }
        "operator.pow" | "torch.pow" | "torch.Tensor.pow" => reject_bool(ctx, "pow")?,
        _ => {}
    }
    let leaf = ctx.op.rsplit('.').next().unwrap_or_default();
    let tensor_only = ctx.op.starts_with("torch.")
        && matches!(
            leaf,
            "atan2" | "hypot" | "maximum" | "minimum" | "fmin" | "fmax"
        );
    if tensor_only && !matches!(ctx.arg(1, "other"), Some(Value::Tensor(_))) {
        return invalid(format!(
            "{}(): argument 'other' (position 2) must be Tensor",
            ctx.op
        ));
    }
    let (shape, dtype) = broadcast_operands(ctx)?;
    Ok(Value::tensor(shape, dtype))
}

/// `torch.pow(input, exponent)`, `t.pow(exponent)`: broadcasting like `a ** b`; the second
/// operand's keyword is `exponent`.
fn pow(ctx: &mut Ctx) -> RuleResult {
    for (name, _) in ctx.kwargs.iter_mut() {
        if name == "exponent" {
            *name = "other".to_string();
        }
    }
    binary_arith(ctx)
}

/// `a / b`: broadcasting; integer operands give a floating result.
fn binary_true_div(ctx: &mut Ctx) -> RuleResult {
    if let Some(Value::Str(Some(mode))) = ctx.kwarg("rounding_mode") {
        if mode != "trunc" && mode != "floor" {
            return invalid(format!("{}: div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{mode}'", ctx.op));
        }
    }
    let (shape, dtype) = broadcast_operands(ctx)?;
    // A rounding division keeps the operands' (promoted) dtype: integers stay integers.
    let rounded = matches!(ctx.kwarg("rounding_mode"), Some(Value::Str(Some(_))));
    Ok(Value::tensor(
        shape,
        if rounded { dtype } else { Some(DType::Float) },
    ))
}

/// `torch.complex(real, imag)`: both tensors, broadcast together ("The size of tensor a (3)
/// must match the size of tensor b (5)"), of a floating dtype ("Expected both inputs to be
/// Half, Float or Double tensors"; complex operands are let through: `.real` of a complex
/// tensor is not told apart here); the result is complex.
fn complex(ctx: &mut Ctx) -> RuleResult {
    let real = ctx.tensor(0, "real")?;
    let imag = ctx.tensor(1, "imag")?;
    if [real.dtype, imag.dtype]
        .iter()
        .any(|d| d.is_some_and(|d| !d.is_floating()))
    {
        return invalid(format!(
            "{}: Expected both inputs to be Half, Float or Double tensors",
            ctx.op
        ));
    }
    // `broadcast_operands` reads `input` and `other`.
    ctx.args = vec![Value::Tensor(real), Value::Tensor(imag)];
    ctx.kwargs.clear();
    let (shape, _) = broadcast_operands(ctx)?;
    Ok(Value::tensor(shape, Some(DType::Complex)))
}

/// `a == b`, `a < b`, ...: broadcasting; the result is a bool tensor.
pub(super) fn binary_compare(ctx: &mut Ctx) -> RuleResult {
    if let Some(result) = sequence_op(ctx) {
        return result;
    }
    // `tensor == "a"` / `tensor != None` fall back to Python's identity comparison.
    if matches!(ctx.op.as_str(), "operator.eq" | "operator.ne") {
        if let Some(Value::Str(_) | Value::None) = ctx.arg(1, "other") {
            return Ok(Value::Bool(Some(ctx.op == "operator.ne")));
        }
    }
    let (shape, _) = broadcast_operands(ctx)?;
    Ok(Value::tensor(shape, Some(DType::Bool)))
}

/// `a += b`, `a.add_(b)`: the result keeps `a`'s shape, so `b` must broadcast *to* it
/// ("output with shape [..] doesn't match the broadcast shape [..]").
fn binary_inplace(ctx: &mut Ctx) -> RuleResult {
    let a = ctx.tensor(0, "input")?;
    let other = dtype_of(ctx.arg(1, "other"));
    let rank = |d: Option<DType>| match d {
        Some(DType::Bool) => 0,
        Some(DType::Int) => 1,
        Some(DType::Float) => 2,
        Some(DType::Complex) => 3,
        None => 0,
    };
    let widening =
        matches!(ctx.arg(1, "other"), Some(Value::Tensor(_))) || other == Some(DType::Float);
    if a.dtype.is_some() && other.is_some() && widening && rank(other) > rank(a.dtype) {
        return invalid(format!(
            "{}: result type {other:?} can't be cast to the desired output type {:?}",
            ctx.op, a.dtype
        ));
    }
    let (shape, _) = broadcast_operands(ctx)?;
    require_fits(ctx, &a.shape, &shape)?;
    Ok(Value::Tensor(a).without_content())
}

/// An in-place result: the broadcast shape `out` of the operands must be the receiver's own
/// shape `mine` ("output with shape [..] doesn't match the broadcast shape [..]").
pub(super) fn require_fits(ctx: &mut Ctx, mine: &Shape, out: &Shape) -> Result<(), RuleError> {
    if let (Some(o), Some(m)) = (out.dims(), mine.dims()) {
        if o.len() != m.len() {
            return invalid_as(
                Declared::BROADCAST,
                format!(
                    "{}: output with shape {mine} doesn't match the broadcast shape {out}",
                    ctx.op
                ),
            );
        }
        for (x, y) in o.iter().zip(m) {
            if let (Some(x), Some(y)) = (x.expr(), y.expr()) {
                ctx.require_with_as(Declared::BROADCAST, Pred::Eq(x.clone(), y.clone()), |cx| {
                    format!(
                        "{}: output with shape {mine} doesn't match the broadcast shape {out}",
                        cx.op
                    )
                })?;
            }
        }
    }
    Ok(())
}

/// Unary elementwise functions and activations (`relu`, `exp`, `-x`, `F.gelu`, ...): same
/// shape and dtype.
pub(super) fn unary(ctx: &mut Ctx) -> RuleResult {
    let t = ctx.tensor(0, "input")?;
    let op = ctx.op.as_str();
    if op.starts_with("torch.") && !op.starts_with("torch.nn.functional.") && ctx.args.len() > 1 {
        return invalid(format!(
            "{op}() takes 1 positional argument but {} were given",
            ctx.args.len()
        ));
    }
    // In-place forms (`x.neg_()`) share the out-of-place checks.
    let leaf = op.rsplit('.').next().unwrap_or(op).trim_end_matches('_');
    if t.dtype == Some(DType::Bool)
        && matches!(
            leaf,
            "neg"
                | "pos"
                | "abs"
                | "absolute"
                | "relu"
                | "floor"
                | "ceil"
                | "round"
                | "trunc"
                | "hardtanh"
                | "relu6"
                | "softsign"
                | "tanhshrink"
        )
    {
        return invalid(format!("{op}: not implemented for 'Bool'"));
    }
    let float_only = matches!(
        leaf,
        "gelu"
            | "silu"
            | "softplus"
            | "elu"
            | "leaky_relu"
            | "logsigmoid"
            | "hardswish"
            | "hardsigmoid"
            | "mish"
            | "selu"
            | "celu"
            | "softshrink"
            | "hardshrink"
            | "rrelu"
    );
    if float_only && t.dtype.is_some_and(|d| !d.is_floating()) {
        return invalid(format!("{op}: not implemented for integer or bool tensors"));
    }
    if leaf == "gelu" {
        if let Some(Value::Str(Some(a))) = ctx.kwarg("approximate") {
            if a != "none" && a != "tanh" {
                return invalid(format!(
                    "{op}: approximate argument must be either none or tanh."
                ));
            }
        }
    }
    // The values change (`exp` of zeros is ones): only copies keep a known content.
    let copy = matches!(
        leaf,
        "detach" | "clone" | "cpu" | "cuda" | "pos" | "positive"
    );
    let mut t = t;
    // The magnitude of a complex tensor is real (`torch.abs(spectrum)` is float).
    if matches!(leaf, "abs" | "absolute") && t.dtype == Some(DType::Complex) && !op.ends_with('_') {
        t.dtype = Some(DType::Float);
    }
    Ok(if copy {
        Value::Tensor(t)
    } else {
        Value::Tensor(t).without_content()
    })
}

/// `a & b`, `a | b`, `a ^ b`, `a << b`, `a >> b`: broadcasting; integer or bool tensors only
/// (shifts: integers only).
pub(super) fn bitwise(ctx: &mut Ctx) -> RuleResult {
    let dtypes = [dtype_of(ctx.arg(0, "input")), dtype_of(ctx.arg(1, "other"))];
    if dtypes
        .iter()
        .any(|d| matches!(d, Some(DType::Float | DType::Complex)))
    {
        return invalid(format!(
            "{}: not implemented for floating-point tensors",
            ctx.op
        ));
    }
    let shift = matches!(ctx.op.as_str(), "operator.lshift" | "operator.rshift");
    if shift && dtypes.iter().all(|d| *d == Some(DType::Bool)) {
        return invalid(format!("{}: not implemented for 'Bool'", ctx.op));
    }
    let (shape, dtype) = broadcast_operands(ctx)?;
    Ok(Value::tensor(shape, dtype))
}

/// `x.cuda(0)`, `x.cuda(device, non_blocking=True)`, `x.cpu()`: the same tensor on another
/// device (the device and flags are any arguments torch takes; none changes the shape).
fn device_copy(ctx: &mut Ctx) -> RuleResult {
    Ok(Value::Tensor(ctx.tensor(0, "input")?))
}

/// `~x`: integer and bool tensors only; the values change (`~zeros(n).bool()` is all
/// true), so known content is forgotten.
fn invert(ctx: &mut Ctx) -> RuleResult {
    let t = ctx.tensor(0, "input")?;
    if t.dtype.is_some_and(|d| d.is_floating()) {
        return invalid(format!(
            "{}: ~ (operator.invert) is only implemented on integer and Boolean-type tensors",
            ctx.op
        ));
    }
    Ok(Value::Tensor(t).without_content())
}

fn convert(ctx: &mut Ctx, dtype: DType) -> RuleResult {
    let t = ctx.tensor(0, "input")?;
    if ctx.args.len() > 1 {
        return invalid(format!(
            "{}() takes 0 positional arguments but {} was given",
            ctx.op,
            ctx.args.len() - 1
        ));
    }
    Ok(Value::Tensor(t.converted(Some(dtype))))
}

/// `x.float()`, `x.double()`, `x.half()`: same shape, floating dtype.
fn to_float(ctx: &mut Ctx) -> RuleResult {
    convert(ctx, DType::Float)
}

/// `x.long()`, `x.int()`: same shape, integer dtype.
fn to_int(ctx: &mut Ctx) -> RuleResult {
    convert(ctx, DType::Int)
}

/// `x.bool()`: same shape, bool dtype.
fn to_bool(ctx: &mut Ctx) -> RuleResult {
    convert(ctx, DType::Bool)
}

/// Broadcast of several operands, in order.
pub(super) fn broadcast_all(ctx: &mut Ctx, operands: &[(usize, &str)]) -> Result<Shape, RuleError> {
    let mut acc: Option<Shape> = None;
    for (i, (pos, name)) in operands.iter().enumerate() {
        let v = ctx.arg(*pos, name).cloned();
        // Optional bounds (clamp's min/max) may be absent or None.
        if i > 0 && matches!(v, None | Some(Value::None)) && ctx.op.contains("cl") {
            continue;
        }
        if let Some(s) = operand_shape(ctx, v.as_ref(), name)? {
            acc = Some(match acc {
                None => s,
                Some(prev) => {
                    let mut reqs = Vec::new();
                    let what = ctx.op.clone();
                    let out = broadcast(&prev, &s, &what, &mut reqs);
                    for r in reqs {
                        ctx.impose(r)?;
                    }
                    out
                }
            });
        }
    }
    acc.ok_or_else(|| RuleError::invalid(format!("{}: no tensor operand", ctx.op)))
}

/// `torch.where(cond, a, b)`: the three operands broadcast together. `torch.where(cond)` is
/// `cond.nonzero(as_tuple=True)` (see `data_dependent.rs`).
fn where_(ctx: &mut Ctx) -> RuleResult {
    if ctx.args.len() + ctx.kwargs.len() == 1 {
        let c = ctx.tensor(0, "condition")?;
        return super::data_dependent::nonzero_tuple(ctx, &c);
    }
    if let Some(Value::Tensor(c)) = ctx.arg(0, "condition") {
        if c.dtype.is_some_and(|d| d != DType::Bool) {
            return invalid(format!(
                "{}: where expected condition to be a boolean tensor, but got a tensor with dtype {:?}",
                ctx.op, c.dtype
            ));
        }
    }
    let shape = broadcast_all(ctx, &[(0, "condition"), (1, "input"), (2, "other")])?;
    let dtype = ctx
        .arg(1, "input")
        .and_then(Value::as_tensor)
        .and_then(|t| t.dtype);
    Ok(Value::tensor(shape, dtype))
}

/// `x.where(cond, y)`: broadcast of `x`, `cond` and `y`.
fn tensor_where(ctx: &mut Ctx) -> RuleResult {
    let shape = broadcast_all(ctx, &[(0, "self"), (1, "condition"), (2, "other")])?;
    Ok(Value::tensor(shape, ctx.tensor(0, "self")?.dtype))
}

/// `torch.clamp(x, min, max)`: `min`/`max` tensors broadcast with `x`; at least one bound
/// ("At least one of 'min' or 'max' must not be None").
pub(super) fn clamp(ctx: &mut Ctx) -> RuleResult {
    let lo = ctx.arg(1, "min").filter(|v| !v.is_none()).is_some();
    let hi = ctx.arg(2, "max").filter(|v| !v.is_none()).is_some();
    if !lo && !hi {
        return invalid(format!(
            "{}: At least one of 'min' or 'max' must not be None",
            ctx.op
        ));
    }
    let is_tensor = |v: Option<&Value>| matches!(v, Some(Value::Tensor(_)));
    let is_number = |v: Option<&Value>| matches!(v, Some(Value::Int(_) | Value::Float(_)));
    let (min, max) = (ctx.arg(1, "min"), ctx.arg(2, "max"));
    if (is_tensor(min) && is_number(max)) || (is_number(min) && is_tensor(max)) {
        return invalid(format!("{}: clamp() received an invalid combination of arguments (a Tensor and a number bound)", ctx.op));
    }
    let shape = broadcast_all(ctx, &[(0, "input"), (1, "min"), (2, "max")])?;
    Ok(Value::tensor(shape, ctx.tensor(0, "input")?.dtype))
}

/// `x.masked_fill(mask, value)`: the mask broadcasts to `x`'s shape (the output keeps `x`'s
/// shape); the mask must be bool.
fn masked_fill(ctx: &mut Ctx) -> RuleResult {
    let x = ctx.tensor(0, "input")?;
    let mask = ctx.tensor(1, "mask")?;
    if let Some(Value::Tensor(v)) = ctx.arg(2, "value") {
        if v.shape.rank().is_some_and(|r| r != 0) {
            return invalid(format!("{}: masked_fill_ only supports a 0-dimensional value tensor, but got tensor with {} dimension(s)", ctx.op, v.shape.rank().unwrap_or(0)));
        }
    }
    if mask.dtype.is_some_and(|d| d != DType::Bool) {
        return invalid(format!(
            "{}: masked_fill only supports boolean masks",
            ctx.op
        ));
    }
    let mut reqs = Vec::new();
    let what = ctx.op.clone();
    let out = broadcast(&x.shape, &mask.shape, &what, &mut reqs);
    for r in reqs {
        ctx.impose(r)?;
    }
    Ok(Value::tensor(out, x.dtype))
}

/// `x.masked_fill_(mask, value)`: in place, so the mask must broadcast *to* `x`.
fn masked_fill_inplace(ctx: &mut Ctx) -> RuleResult {
    let x = ctx.tensor(0, "input")?;
    let out = masked_fill(ctx)?;
    if let (Some(o), Some(m)) = (out.as_tensor().and_then(|t| t.shape.rank()), x.shape.rank()) {
        if o != m {
            return invalid_as(
                Declared::BROADCAST,
                format!("{}: mask does not broadcast to the tensor's shape", ctx.op),
            );
        }
    }
    Ok(Value::Tensor(x))
}

/// `x.contiguous(memory_format=...)`: same shape; `channels_last` needs a 4-D tensor and
/// `channels_last_3d` a 5-D one.
fn contiguous(ctx: &mut Ctx) -> RuleResult {
    let t = ctx.tensor(0, "input")?;
    let need = match ctx.arg(1, "memory_format") {
        Some(Value::Str(Some(f))) if f == "channels_last" => Some(4),
        Some(Value::Str(Some(f))) if f == "channels_last_3d" => Some(5),
        _ => None,
    };
    if let (Some(n), Some(r)) = (need, t.shape.rank()) {
        if n != r {
            return invalid(format!(
                "{}: required rank {n} tensor to use this memory format",
                ctx.op
            ));
        }
    }
    Ok(Value::Tensor(t))
}

/// `x.clamp_min(v)` / `x.clamp_max(v)`: same shape as `x`.
fn unary_with_scalar(ctx: &mut Ctx) -> RuleResult {
    let t = ctx.tensor(0, "input")?;
    if ctx.arg(1, "min").is_none() && ctx.arg(1, "max").is_none() {
        return invalid(format!("{}: missing the bound", ctx.op));
    }
    Ok(Value::Tensor(t))
}

#[cfg(test)]
mod tests {
    use super::super::{apply, lookup, RuleKind};
    use super::*;

    /// `torch.pow(t, exponent=2)` (torchmetrics' Tweedie deviance) broadcasts like `t ** 2`.
    #[test]
    fn pow_takes_its_exponent_by_keyword() {
        let Some(RuleKind::Function(f)) = lookup("torch.pow").map(|r| r.kind) else {
            panic!("no rule for torch.pow");
        };
        let t = Value::float_tensor(&[4, 3]);
        let out = apply(
            f,
            "torch.pow",
            vec![t],
            vec![("exponent".to_string(), Value::int(2))],
            None,
        )
        .unwrap();
        let shape = out.value.as_tensor().and_then(|t| t.shape.concrete());
        assert_eq!(shape, Some(vec![4, 3]));
    }
}
