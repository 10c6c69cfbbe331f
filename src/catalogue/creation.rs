//! Operator rules: tensor creation (zeros, ones, full, rand*, arange, linspace, eye, tensor,
//! as_tensor, scalar_tensor, randperm, *_like, new_*).

use super::common::size_hyper;
use super::{invalid, tensor_out, unsupported, Ctx, Rule, RuleError, RuleResult};
use crate::shapes::dim::DimExpr;
use crate::shapes::kind::FindingKind;
use crate::shapes::requirement::Pred;
use crate::shapes::shape::{Dim, Shape};
use crate::shapes::value::{DType, TensorValue, Value};

/// What this family's failures are, unless a rule or a check declares otherwise.
pub const KIND: FindingKind = FindingKind::ShapeMismatch;

pub const RULES: &[Rule] = &[
    Rule::function("torch.zeros", sized),
    Rule::function("torch.ones", sized),
    Rule::function("torch.empty", sized),
    Rule::function("torch.rand", sized),
    Rule::function("torch.randn", sized),
    Rule::function("torch.full", full),
    Rule::function("torch.randint", randint),
    Rule::function("torch.arange", arange),
    Rule::function("torch.range", range_inclusive),
    Rule::function("builtins.range", python_range),
    Rule::function("torch.linspace", linspace),
    Rule::function("torch.eye", eye),
    Rule::function("torch.tensor", tensor_literal),
    Rule::function("torch.as_tensor", as_tensor),
    Rule::function("torch.scalar_tensor", scalar_tensor),
    Rule::function("torch.randperm", randperm),
    Rule::function("torch.zeros_like", like),
    Rule::function("torch.ones_like", like),
    Rule::function("torch.empty_like", like),
    Rule::function("torch.rand_like", like),
    Rule::function("torch.randn_like", like),
    Rule::function("torch.full_like", like),
    Rule::function("torch.Tensor.new_zeros", new_sized),
    Rule::function("torch.Tensor.new_ones", new_sized),
    Rule::function("torch.Tensor.new_empty", new_sized),
    Rule::function("torch.Tensor.new_full", new_full),
    Rule::function("torch.Tensor.new", new_legacy),
    Rule::function("torch.Tensor.resize", resized),
    Rule::function("torch.Tensor.resize_", resized),
    Rule::function("torch.Tensor", legacy_constructor),
    Rule::function("torch.FloatTensor", legacy_constructor),
    Rule::function("torch.DoubleTensor", legacy_constructor),
    Rule::function("torch.HalfTensor", legacy_constructor),
    Rule::function("torch.BFloat16Tensor", legacy_constructor),
    Rule::function("torch.LongTensor", legacy_constructor),
    Rule::function("torch.IntTensor", legacy_constructor),
    Rule::function("torch.ShortTensor", legacy_constructor),
    Rule::function("torch.CharTensor", legacy_constructor),
    Rule::function("torch.ByteTensor", legacy_constructor),
    Rule::function("torch.BoolTensor", legacy_constructor),
    Rule::function("torch.cuda.FloatTensor", legacy_constructor),
    Rule::function("torch.cuda.DoubleTensor", legacy_constructor),
    Rule::function("torch.cuda.LongTensor", legacy_constructor),
    Rule::function("torch.cuda.IntTensor", legacy_constructor),
    Rule::function("torch.cuda.ByteTensor", legacy_constructor),
    Rule::function("torch.cuda.BoolTensor", legacy_constructor),
];

/// The legacy tensor constructors and the dtype each builds.
pub const LEGACY_CONSTRUCTORS: &[(&str, DType)] = &[
    ("torch.Tensor", DType::Float),
    ("torch.FloatTensor", DType::Float),
    ("torch.DoubleTensor", DType::Float),
    ("torch.HalfTensor", DType::Float),
    ("torch.BFloat16Tensor", DType::Float),
    ("torch.LongTensor", DType::Int),
    ("torch.IntTensor", DType::Int),
    ("torch.ShortTensor", DType::Int),
    ("torch.CharTensor", DType::Int),
    ("torch.ByteTensor", DType::Int),
    ("torch.BoolTensor", DType::Bool),
    ("torch.cuda.FloatTensor", DType::Float),
    ("torch.cuda.DoubleTensor", DType::Float),
    ("torch.cuda.LongTensor", DType::Int),
    ("torch.cuda.IntTensor", DType::Int),
    ("torch.cuda.ByteTensor", DType::Int),
    ("torch.cuda.BoolTensor", DType::Bool),
];

/// The `dtype=` keyword of a creation function: `default` when absent or `None`.
pub(super) fn dtype_kw(ctx: &Ctx, default: Option<DType>) -> Option<DType> {
    match ctx.kwarg("dtype") {
        Some(Value::DType(d)) => Some(*d),
        None | Some(Value::None) => default,
        // A dtype chosen at run time (`dtype=pick_dtype(device)`): not known.
        Some(_) => None,
    }
}

/// The constant content of `zeros`/`ones` (and their `_like`/`new_` forms).
fn constant_content(op: &str) -> Option<i64> {
    let name = op.rsplit('.').next().unwrap_or(op);
    match name.trim_start_matches("new_").trim_end_matches("_like") {
        "zeros" => Some(0),
        "ones" => Some(1),
        _ => None,
    }
}

/// A fill value as an integer, when it is one (a float fill only when integral).
fn integral_fill(v: Option<&Value>) -> Option<i64> {
    match v? {
        Value::Int(e) => e.as_const(),
        Value::Bool(Some(b)) => Some(*b as i64),
        Value::Float(Some(f)) if f.fract() == 0.0 && f.abs() < 1e15 => Some(*f as i64),
        _ => None,
    }
}

/// A created tensor whose every element is `uniform` (read in the created dtype).
fn uniform_out(shape: Shape, dtype: Option<DType>, uniform: Option<i64>) -> Value {
    let t = TensorValue {
        shape,
        dtype: Some(DType::Int),
        uniform,
        top: None,
        elements: None,
        bounds: None,
    };
    Value::Tensor(t.converted(dtype))
}

/// Sizes must be non-negative ("Trying to create tensor with negative dimension -3").
fn check_sizes(ctx: &mut Ctx, sizes: &[Dim]) -> Result<(), RuleError> {
    for d in sizes {
        if let Some(e) = d.expr() {
            ctx.require_with(Pred::Le(DimExpr::zero(), e.clone()), |cx| {
                format!(
                    "{}: Trying to create tensor with negative dimension {e}",
                    cx.op
                )
            })?;
        }
    }
    Ok(())
}

/// `torch.zeros(*size)` (also ones, empty, rand, randn): the size as varargs, one sequence,
/// or `size=`; sizes must be non-negative.
fn sized(ctx: &mut Ctx) -> RuleResult {
    let sizes = ctx.int_list(0, "size")?;
    check_sizes(ctx, &sizes)?;
    let dtype = dtype_kw(ctx, Some(DType::Float));
    random_needs_float(ctx, dtype)?;
    Ok(uniform_out(
        Shape::Ranked(sizes),
        dtype,
        constant_content(&ctx.op),
    ))
}

/// `rand`/`randn` (and their `_like` forms) sample floats: integer and bool dtypes are "not
/// implemented".
fn random_needs_float(ctx: &Ctx, dtype: Option<DType>) -> Result<(), RuleError> {
    let random = matches!(
        ctx.op.as_str(),
        "torch.rand" | "torch.randn" | "torch.rand_like" | "torch.randn_like"
    );
    if random && dtype.is_some_and(|d| !d.is_floating()) {
        return invalid(format!(
            "{}: \"normal_kernel_cpu\" not implemented for this integer or bool dtype",
            ctx.op
        ));
    }
    Ok(())
}

/// `torch.full(size, fill_value)`: `size` is one sequence; the dtype follows the fill value.
fn full(ctx: &mut Ctx) -> RuleResult {
    let sizes = ctx.seq_ints(0, "size")?;
    let fill = ctx.arg(1, "fill_value").cloned();
    let dtype = match fill {
        None => return invalid(format!("{}: missing argument `fill_value`", ctx.op)),
        Some(Value::Int(_)) => Some(DType::Int),
        Some(Value::Bool(_)) => Some(DType::Bool),
        Some(Value::Float(_)) => Some(DType::Float),
        Some(Value::Tensor(_)) | Some(Value::Unknown) => None,
        Some(other) => {
            return invalid(format!(
                "{}: full(): argument 'fill_value' must be Number, not {other}",
                ctx.op
            ))
        }
    };
    check_sizes(ctx, &sizes)?;
    let uniform = integral_fill(ctx.arg(1, "fill_value"));
    Ok(uniform_out(
        Shape::Ranked(sizes),
        dtype_kw(ctx, dtype),
        uniform,
    ))
}

/// `torch.randint(high, size)` or `torch.randint(low, high, size)`: needs `low < high`
/// ("random_ expects 'from' to be less than 'to'"). The shape comes from `size` alone, so
/// bounds unknown here (`randint(0, h - side + 1, (1,))` with a random `side`) leave only
/// that check undone.
fn randint(ctx: &mut Ctx) -> RuleResult {
    let (low, high, sizes) = randint_args(ctx)?;
    if let (Some(low), Some(high)) = (low, high) {
        ctx.require_with(Pred::Lt(low.clone(), high.clone()), |cx| {
            format!(
                "{}: random_ expects 'from' to be less than 'to', but got from={low} >= to={high}",
                cx.op
            )
        })?;
    }
    check_sizes(ctx, &sizes)?;
    Ok(tensor_out(sizes, dtype_kw(ctx, Some(DType::Int))))
}

/// `randint`'s `(low, high, size)`; a bound not known is `None`.
pub(crate) type RandintArgs = (Option<DimExpr>, Option<DimExpr>, Vec<Dim>);

/// `randint`'s `(low, high, size)`, positional or by keyword (`low` defaults to 0), a bound
/// `None` when its value is unknown; the values drawn are `low..high` (`bounds.rs` reads
/// them too).
pub(crate) fn randint_args(ctx: &Ctx) -> Result<RandintArgs, RuleError> {
    ctx.read_all();
    let bound = |name: &str, v: &Value| super::maybe_int_of(&ctx.op, name, v);
    let size_pos = ctx.args.iter().position(|v| v.elements().is_some());
    let (low, high, sizes) = match size_pos {
        Some(p) => {
            let sizes = ctx.int_list(p, "size")?;
            let bounds: Vec<Value> = ctx.args[..p].to_vec();
            match bounds.as_slice() {
                [h] => (Some(DimExpr::zero()), bound("high", h)?, sizes),
                [l, h] => (bound("low", l)?, bound("high", h)?, sizes),
                _ => {
                    return invalid(format!(
                        "{}: randint() takes (high, size) or (low, high, size)",
                        ctx.op
                    ))
                }
            }
        }
        None => match ctx.kwarg("size") {
            Some(_) => {
                let sizes = ctx.int_list(usize::MAX, "size")?;
                let high = ctx
                    .opt_int(usize::MAX, "high")?
                    .or(ctx.opt_int(if ctx.args.len() == 2 { 1 } else { 0 }, "high")?);
                let low = if ctx.args.len() == 2 {
                    ctx.int_or(0, "low", 0)?
                } else {
                    ctx.int_or(usize::MAX, "low", 0)?
                };
                let Some(high) = high else {
                    return invalid(format!("{}: missing argument `high`", ctx.op));
                };
                (Some(low), Some(high), sizes)
            }
            None => return invalid(format!("{}: missing argument `size`", ctx.op)),
        },
    };
    Ok((low, high, sizes))
}

/// `torch.arange(end)`, `arange(start, end, step=1)`: `ceil((end - start) / step)` elements;
/// the step must be non-zero and point from start towards end ("upper bound and lower bound
/// inconsistent with step sign"). Integer arguments give an integer tensor.
fn arange(ctx: &mut Ctx) -> RuleResult {
    ctx.read_all();
    let (start, end, step) = match (ctx.args.len(), ctx.kwarg("end").is_some()) {
        (1, false) => (
            Value::int(0),
            ctx.args[0].clone(),
            ctx.kwarg("step").cloned().unwrap_or(Value::int(1)),
        ),
        (0, true) => (
            ctx.kwarg("start").cloned().unwrap_or(Value::int(0)),
            ctx.kwarg("end").cloned().unwrap_or(Value::None),
            ctx.kwarg("step").cloned().unwrap_or(Value::int(1)),
        ),
        (n, _) if n >= 2 => (
            ctx.args[0].clone(),
            ctx.args[1].clone(),
            ctx.arg(2, "step").cloned().unwrap_or(Value::int(1)),
        ),
        _ => return invalid(format!("{}: arange() missing `end`", ctx.op)),
    };
    if ctx.args.len() > 3 {
        return invalid(format!(
            "{}: arange() takes at most 3 positional arguments",
            ctx.op
        ));
    }
    if [&start, &end, &step]
        .iter()
        .any(|v| !matches!(v, Value::Int(_) | Value::Float(_) | Value::Bool(_)))
    {
        return invalid(format!("{}: arange(): arguments must be numbers", ctx.op));
    }
    if matches!(ctx.kwarg("dtype"), Some(Value::DType(DType::Bool))) {
        return invalid(format!(
            "{}: \"arange_cpu\" not implemented for 'Bool'",
            ctx.op
        ));
    }
    let all_int = [&start, &end, &step]
        .iter()
        .all(|v| matches!(v, Value::Int(_)));
    let dtype = dtype_kw(ctx, Some(if all_int { DType::Int } else { DType::Float }));
    if all_int {
        let (s, e, st) = (
            super::int_of(&ctx.op, "start", &start)?,
            super::int_of(&ctx.op, "end", &end)?,
            super::int_of(&ctx.op, "step", &step)?,
        );
        if let Some(c) = st.as_const() {
            if c == 0 {
                return invalid(format!("{}: step must be nonzero", ctx.op));
            }
            let span = e.sub(&s);
            let sign_ok = if c > 0 {
                Pred::Le(s.clone(), e.clone())
            } else {
                Pred::Le(e.clone(), s.clone())
            };
            ctx.require_with(sign_ok, |cx| {
                format!(
                    "{}: upper bound and lower bound inconsistent with step sign",
                    cx.op
                )
            })?;
            // ceil(span / c) = -((-span) // c)
            let n = span.neg().floordiv(&st).neg();
            // The last element counts up from `start`; counting down, `start` is the largest.
            let top = if c > 0 {
                s.add(&n.add_const(-1).mul_const(c))
            } else {
                s
            };
            let mut out = tensor_out(vec![Dim::Known(n)], dtype);
            if let Value::Tensor(t) = &mut out {
                t.top = Some(top);
            }
            return Ok(out);
        }
        return unsupported(format!("{}: symbolic step", ctx.op));
    }
    let (Some(s), Some(e), Some(st)) = (start.as_number(), end.as_number(), step.as_number())
    else {
        return unsupported(format!("{}: non-constant bounds", ctx.op));
    };
    if st == 0.0 {
        return invalid(format!("{}: step must be nonzero", ctx.op));
    }
    if (st > 0.0 && s > e) || (st < 0.0 && s < e) {
        return invalid(format!(
            "{}: upper bound and lower bound inconsistent with step sign",
            ctx.op
        ));
    }
    let n = ((e - s) / st).ceil().max(0.0) as i64;
    Ok(tensor_out(vec![Dim::constant(n)], dtype))
}

/// `torch.linspace(start, end, steps)`: `steps` elements; `steps` must be non-negative.
fn linspace(ctx: &mut Ctx) -> RuleResult {
    let steps = match ctx.arg(2, "steps") {
        Some(v) => super::int_of(&ctx.op, "steps", v)?,
        None => return invalid(format!("{}: linspace() missing `steps`", ctx.op)),
    };
    if matches!(ctx.kwarg("dtype"), Some(Value::DType(DType::Bool))) {
        return invalid(format!(
            "{}: \"linspace_cpu\" not implemented for 'Bool'",
            ctx.op
        ));
    }
    ctx.require_with(Pred::Le(DimExpr::zero(), steps.clone()), |cx| {
        format!("{}: number of steps must be non-negative", cx.op)
    })?;
    // From `start` to an equal `end` every step is that value (`linspace(0, 0.0, n)`, a
    // drop-path schedule at rate 0).
    let start = integral_fill(ctx.arg(0, "start"));
    let uniform = start.filter(|s| integral_fill(ctx.arg(1, "end")) == Some(*s));
    Ok(uniform_out(
        Shape::Ranked(vec![Dim::Known(steps)]),
        dtype_kw(ctx, Some(DType::Float)),
        uniform,
    ))
}

/// `torch.eye(n, m=None)`: an `n × m` matrix (`m = n` by default); sizes non-negative.
fn eye(ctx: &mut Ctx) -> RuleResult {
    let n = match ctx.arg(0, "n") {
        Some(v) => super::int_of(&ctx.op, "n", v)?,
        None => return invalid(format!("{}: eye() missing `n`", ctx.op)),
    };
    let m = ctx.opt_int(1, "m")?.unwrap_or_else(|| n.clone());
    ctx.require_with(Pred::Le(DimExpr::zero(), n.clone()), |cx| {
        format!("{}: n must be greater or equal to 0, got {n}", cx.op)
    })?;
    ctx.require_with(Pred::Le(DimExpr::zero(), m.clone()), |cx| {
        format!("{}: m must be greater or equal to 0, got {m}", cx.op)
    })?;
    Ok(tensor_out(
        vec![Dim::Known(n), Dim::Known(m)],
        dtype_kw(ctx, Some(DType::Float)),
    ))
}

/// The shape of a nested literal, and its element dtype; ragged nesting is invalid.
fn literal_shape(op: &str, v: &Value) -> Result<(Vec<Dim>, Option<DType>), RuleError> {
    match v {
        Value::List(items) | Value::Tuple(items) => {
            let mut inner: Option<(Vec<Dim>, Option<DType>)> = None;
            for item in items {
                let (s, d) = literal_shape(op, item)?;
                match &inner {
                    None => inner = Some((s, d)),
                    Some((prev, pd)) => {
                        if *prev != s {
                            let symbolic = prev.iter().chain(&s).any(|d| d.as_const().is_none());
                            if symbolic && prev.len() == s.len() {
                                return unsupported(format!(
                                    "{op}: element shapes {prev:?} and {s:?} may differ"
                                ));
                            }
                            // Torch names the first dim, counted below this list, where
                            // the lengths part.
                            return invalid(match prev.iter().zip(&s).position(|(a, b)| a != b) {
                                Some(at) => format!(
                                    "{op}: expected sequence of length {} at dim {} (got {})",
                                    prev[at],
                                    at + 1,
                                    s[at]
                                ),
                                None => format!("{op}: not a sequence"),
                            });
                        }
                        let dt = match (pd, d) {
                            (Some(DType::Float), _) | (_, Some(DType::Float)) => Some(DType::Float),
                            (a, b) => a.or(b),
                        };
                        inner = Some((s, dt));
                    }
                }
            }
            let (mut s, d) = inner.unwrap_or((Vec::new(), Some(DType::Float)));
            s.insert(0, Dim::constant(items.len() as i64));
            Ok((s, d))
        }
        Value::Int(_) => Ok((Vec::new(), Some(DType::Int))),
        Value::Float(_) => Ok((Vec::new(), Some(DType::Float))),
        Value::Bool(_) => Ok((Vec::new(), Some(DType::Bool))),
        // A tensor inside a nested list is converted to a Python scalar: one element only.
        Value::Tensor(t) => match t.shape.numel().as_const() {
            Some(1) => Ok((Vec::new(), t.dtype)),
            Some(_) => invalid(format!(
                "{op}: only one element tensors can be converted to Python scalars"
            )),
            None => unsupported(format!("{op}: element tensor of unknown size")),
        },
        Value::IntUnknown => Ok((Vec::new(), Some(DType::Int))),
        Value::Unknown => unsupported(format!("{op}: an element is unknown")),
        other => invalid(format!("{op}: Could not infer dtype of {other}")),
    }
}

/// `torch.tensor(data)`: the shape of the nested lists (all rows the same length).
fn tensor_literal(ctx: &mut Ctx) -> RuleResult {
    let data = ctx
        .arg(0, "data")
        .cloned()
        .ok_or_else(|| RuleError::invalid(format!("{}: missing `data`", ctx.op)))?;
    // `torch.tensor(t)` copies a tensor (with a warning): its shape.
    if let Value::Tensor(t) = &data {
        return Ok(Value::tensor(t.shape.clone(), dtype_kw(ctx, t.dtype)));
    }
    let (dims, dtype) = literal_shape(&ctx.op, &data)?;
    Ok(tensor_out(dims, dtype_kw(ctx, dtype)))
}

/// `torch.as_tensor(data, *, dtype=None, device=None)`: `torch.tensor`'s shapes (a tensor
/// keeps its shape, a nested literal gives its nesting).
fn as_tensor(ctx: &mut Ctx) -> RuleResult {
    if ctx.args.len() > 1 {
        return invalid(format!(
            "{}() takes 1 positional argument but {} were given",
            ctx.op,
            ctx.args.len()
        ));
    }
    if let Some(Value::Tensor(t)) = ctx.arg(0, "data") {
        let dtype = dtype_kw(ctx, t.dtype);
        return Ok(Value::Tensor(t.clone().converted(dtype)));
    }
    tensor_literal(ctx)
}

/// `torch.Tensor(...)` and the typed legacy constructors (`torch.FloatTensor`,
/// `torch.LongTensor`, ...), each in its class's dtype. PyTorch reads the arguments as sizes
/// when they are ints (`torch.Tensor(2, 3)`: uninitialised, `[2, 3]`) or one `torch.Size`,
/// and as data otherwise (`torch.Tensor([[1, 2], [3, 4]])`: `[2, 2]`; a tensor or an array:
/// its shape); no argument gives an empty `[0]` tensor.
fn legacy_constructor(ctx: &mut Ctx) -> RuleResult {
    let dtype = LEGACY_CONSTRUCTORS
        .iter()
        .find(|(name, _)| *name == ctx.op)
        .map(|(_, d)| *d);
    let sizes = |ctx: &mut Ctx| -> RuleResult {
        let dims = ctx.int_list(0, "size")?;
        check_sizes(ctx, &dims)?;
        Ok(tensor_out(dims, dtype))
    };
    match ctx.args.as_slice() {
        [] => Ok(tensor_out(vec![Dim::Known(DimExpr::from(0))], dtype)),
        [Value::Tensor(t)] => Ok(Value::tensor(t.shape.clone(), dtype)),
        [Value::List(_) | Value::Tuple(_)] => {
            let data = ctx.args[0].clone();
            let (dims, _) = literal_shape(&ctx.op, &data)?;
            Ok(tensor_out(dims, dtype))
        }
        [Value::Size(dims)] => Ok(tensor_out(dims.clone(), dtype)),
        args if args.iter().all(|a| matches!(a, Value::Int(_))) => {
            let dims: Vec<Value> = args.to_vec();
            ctx.args = vec![Value::Tuple(dims)];
            sizes(ctx)
        }
        _ => unsupported(format!("{}: arguments not understood", ctx.op)),
    }
}

/// `x.new(*args)`: the legacy constructor with `x`'s dtype — sizes (`x.new(2, 3)`,
/// `x.new(torch.Size([2, 3]))`), data (`x.new([2, 3])` and `x.new((2, 3))` are 1-D of
/// two elements), or nothing (`[0]`).
fn new_legacy(ctx: &mut Ctx) -> RuleResult {
    let t = ctx.tensor(0, "self")?;
    let dtype = dtype_kw(ctx, t.dtype);
    ctx.args.remove(0);
    ctx.kwargs.retain(|(k, _)| k != "dtype" && k != "device");
    let out = legacy_constructor(ctx)?;
    Ok(match out {
        Value::Tensor(out) => Value::Tensor(out.converted(dtype)),
        other => other,
    })
}

/// `x.resize_(*sizes)` (and the deprecated `x.resize`): `x` takes the new sizes, whatever
/// its number of elements was; negative sizes raise.
fn resized(ctx: &mut Ctx) -> RuleResult {
    let t = ctx.tensor(0, "self")?;
    let sizes = ctx.int_list(1, "size")?;
    check_sizes(ctx, &sizes)?;
    Ok(tensor_out(sizes, t.dtype))
}

/// `torch.scalar_tensor(s, dtype=float32)`: a 0-d tensor of the number `s`.
fn scalar_tensor(ctx: &mut Ctx) -> RuleResult {
    match ctx.arg(0, "s") {
        Some(Value::Int(_) | Value::IntUnknown | Value::Float(_) | Value::Bool(_)) => {}
        // A 0-d tensor is read as its number.
        Some(Value::Tensor(t)) if t.shape.rank() == Some(0) => {}
        Some(Value::Unknown | Value::Tensor(_)) => {
            return unsupported(format!("{}: `s` is unknown", ctx.op))
        }
        other => {
            return invalid(format!(
                "{}: argument 's' must be Number, not {}",
                ctx.op,
                other.map_or("nothing".to_string(), |v| v.to_string())
            ))
        }
    }
    Ok(tensor_out(Vec::new(), dtype_kw(ctx, Some(DType::Float))))
}

/// `torch.randperm(n)`: a permutation of `0..n`, an int64 vector `[n]` ("n must be
/// non-negative").
fn randperm(ctx: &mut Ctx) -> RuleResult {
    let n = size_hyper(ctx, 0, "n", None)?;
    Ok(tensor_out(
        vec![Dim::Known(n)],
        dtype_kw(ctx, Some(DType::Int)),
    ))
}

/// `torch.zeros_like(x)` (and ones/empty/rand/randn/full `_like`): `x`'s shape.
fn like(ctx: &mut Ctx) -> RuleResult {
    let t = ctx.tensor(0, "input")?;
    if ctx.op == "torch.full_like" && ctx.arg(1, "fill_value").is_none() {
        return invalid(format!("{}: missing argument `fill_value`", ctx.op));
    }
    let dtype = dtype_kw(ctx, t.dtype);
    random_needs_float(ctx, dtype)?;
    let uniform = match ctx.op.as_str() {
        "torch.full_like" => integral_fill(ctx.arg(1, "fill_value")),
        op => constant_content(op),
    };
    Ok(uniform_out(t.shape, dtype, uniform))
}

/// `x.new_zeros(size)` (ones, empty): the given size, `x`'s dtype.
fn new_sized(ctx: &mut Ctx) -> RuleResult {
    let t = ctx.tensor(0, "self")?;
    let sizes = ctx.int_list(1, "size")?;
    check_sizes(ctx, &sizes)?;
    Ok(uniform_out(
        Shape::Ranked(sizes),
        dtype_kw(ctx, t.dtype),
        constant_content(&ctx.op),
    ))
}

/// `x.new_full(size, fill_value)`.
fn new_full(ctx: &mut Ctx) -> RuleResult {
    let t = ctx.tensor(0, "self")?;
    let sizes = ctx.seq_ints(1, "size")?;
    if ctx.arg(2, "fill_value").is_none() {
        return invalid(format!("{}: missing argument `fill_value`", ctx.op));
    }
    check_sizes(ctx, &sizes)?;
    let uniform = integral_fill(ctx.arg(2, "fill_value"));
    Ok(uniform_out(
        Shape::Ranked(sizes),
        dtype_kw(ctx, t.dtype),
        uniform,
    ))
}

/// `torch.range(start, end, step=1)` (deprecated): the end is included, so
/// `floor((end - start) / step) + 1` elements; floating by default.
fn range_inclusive(ctx: &mut Ctx) -> RuleResult {
    let (Some(s), Some(e)) = (
        ctx.arg(0, "start").and_then(Value::as_number),
        ctx.arg(1, "end").and_then(Value::as_number),
    ) else {
        return unsupported(format!("{}: non-constant bounds", ctx.op));
    };
    let step = ctx
        .arg(2, "step")
        .map_or(Some(1.0), Value::as_number)
        .unwrap_or(1.0);
    if step == 0.0 {
        return invalid(format!("{}: step must be nonzero", ctx.op));
    }
    if (step > 0.0 && s > e) || (step < 0.0 && s < e) {
        return invalid(format!(
            "{}: upper bound and larger bound inconsistent with step sign",
            ctx.op
        ));
    }
    let n = ((e - s) / step).floor() as i64 + 1;
    Ok(tensor_out(
        vec![Dim::constant(n)],
        dtype_kw(ctx, Some(DType::Float)),
    ))
}

/// Python's `range(stop)` / `range(start, stop, step)`: a sequence of `max(0, ceil((stop -
/// start) / step))` ints (its length is what shapes care about: `len(range(n))`).
fn python_range(ctx: &mut Ctx) -> RuleResult {
    let ints: Vec<DimExpr> = ctx
        .args
        .iter()
        .map(|v| super::int_of(&ctx.op, "range argument", v))
        .collect::<Result<_, _>>()?;
    let (start, stop, step) = match ints.as_slice() {
        [stop] => (DimExpr::zero(), stop.clone(), 1),
        [start, stop] => (start.clone(), stop.clone(), 1),
        [start, stop, step] => match step.as_const() {
            Some(0) => return invalid(format!("{}: range() arg 3 must not be zero", ctx.op)),
            Some(k) => (start.clone(), stop.clone(), k),
            None => return unsupported(format!("{}: symbolic step", ctx.op)),
        },
        _ => {
            return invalid(format!(
                "{}: range expected 1 to 3 arguments, got {}",
                ctx.op,
                ints.len()
            ))
        }
    };
    let span = stop.sub(&start);
    let len = span
        .neg()
        .floordiv(&DimExpr::constant(step))
        .neg()
        .maximum(&DimExpr::zero());
    match len.as_const() {
        Some(n) => Ok(Value::List(vec![Value::IntUnknown; n as usize])),
        None => Ok(Value::Unknown),
    }
}

#[cfg(test)]
mod tests {
    use super::super::{apply, lookup, RuleKind};
    use super::*;

    fn run(op: &str, args: Vec<Value>) -> Result<Value, RuleError> {
        let Some(RuleKind::Function(f)) = lookup(op).map(|r| r.kind) else {
            panic!("no rule for {op}");
        };
        apply(f, op, args, Vec::new(), None).map(|o| o.value)
    }

    /// The examples of the PyTorch documentation of `torch.range`.
    #[test]
    fn torch_range_includes_the_end() {
        let len = |v: Value| v.as_tensor().and_then(|t| t.shape.concrete());
        assert_eq!(
            len(run("torch.range", vec![Value::int(1), Value::int(4)]).unwrap()),
            Some(vec![4])
        );
        assert_eq!(
            len(run(
                "torch.range",
                vec![Value::int(1), Value::int(4), Value::Float(Some(0.5))]
            )
            .unwrap()),
            Some(vec![7])
        );
        assert!(run("torch.range", vec![Value::int(4), Value::int(1)]).is_err());
    }

    #[test]
    fn python_range_lengths() {
        let n = |args: Vec<i64>| match run(
            "builtins.range",
            args.into_iter().map(Value::int).collect(),
        )
        .unwrap()
        {
            Value::List(v) => v.len(),
            other => panic!("{other}"),
        };
        assert_eq!(n(vec![5]), 5);
        assert_eq!(n(vec![2, 7]), 5);
        assert_eq!(n(vec![0, 10, 3]), 4);
        assert_eq!(n(vec![10, 0, -3]), 4);
        assert_eq!(n(vec![5, 2]), 0);
    }

    /// `arange` of ints is an integer tensor unless a dtype says otherwise; a dtype that is
    /// not known leaves the element type unknown (diffusers picks it per device).
    #[test]
    fn arange_dtype_follows_an_explicit_or_unknown_dtype() {
        let dtype = |kwargs: Vec<(String, Value)>| {
            let Some(RuleKind::Function(f)) = lookup("torch.arange").map(|r| r.kind) else {
                panic!("no rule for torch.arange");
            };
            let out = apply(f, "torch.arange", vec![Value::int(4)], kwargs, None).unwrap();
            out.value.as_tensor().unwrap().dtype
        };
        let kw = |v: Value| vec![("dtype".to_string(), v)];
        assert_eq!(dtype(vec![]), Some(DType::Int));
        assert_eq!(dtype(kw(Value::None)), Some(DType::Int));
        assert_eq!(dtype(kw(Value::DType(DType::Float))), Some(DType::Float));
        assert_eq!(dtype(kw(Value::Unknown)), None);
    }
}

#[cfg(test)]
mod legacy_tests {
    use crate::shapes::value::{DType, Value};
    use crate::testing::{call, ints};

    /// `torch.Tensor(2, 3)` is sized, `torch.Tensor([[1, 2], [3, 4]])` is data,
    /// `torch.LongTensor(...)` is integer, `torch.Tensor()` is `[0]` (recorded under torch).
    #[test]
    fn legacy_constructors_read_sizes_or_data() {
        let shape = |v: Value| v.as_tensor().and_then(|t| t.shape.concrete());
        let sized = call("torch.Tensor", ints(&[2, 3]), vec![]).unwrap();
        assert_eq!(shape(sized), Some(vec![2, 3]));
        let rows = Value::List(vec![Value::List(ints(&[1, 2])), Value::List(ints(&[3, 4]))]);
        let data = call("torch.LongTensor", vec![rows], vec![]).unwrap();
        assert_eq!(data.as_tensor().and_then(|t| t.dtype), Some(DType::Int));
        assert_eq!(shape(data), Some(vec![2, 2]));
        assert_eq!(
            shape(call("torch.Tensor", vec![], vec![]).unwrap()),
            Some(vec![0])
        );
    }
}
