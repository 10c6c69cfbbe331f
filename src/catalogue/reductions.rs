//! Operator rules: reductions (`sum`, `mean`, `amax`, `max`, `argmax`, `norm`, ...), scans
//! (`cumsum`, `softmax`) and selections (`topk`, `sort`, `kthvalue`).
//!
//! The shared convention: `dim` is an int, a tuple/list of ints or `None` (all dims);
//! negative dims wrap; a rank-0 tensor accepts dims `-1` and `0`; duplicate dims raise
//! ("dim 0 appears multiple times in the list of dims"); `keepdim=True` keeps reduced dims
//! as 1. (See `catalogue/mod.rs` for the framework.)

use super::{invalid, tensor_out, unsupported, Ctx, Rule, RuleError, RuleResult};
use crate::shapes::dim::DimExpr;
use crate::shapes::kind::{Declared, FindingKind};
use crate::shapes::requirement::Pred;
use crate::shapes::shape::{broadcast, Dim, Shape};
use crate::shapes::value::{DType, Value};

/// What this family's failures are, unless a rule or a check declares otherwise.
pub const KIND: FindingKind = FindingKind::ShapeMismatch;

pub const RULES: &[Rule] = &[
    Rule::function("torch.sum", sum),
    Rule::function("torch.Tensor.sum", sum),
    Rule::function("torch.nansum", sum),
    Rule::function("torch.Tensor.nansum", sum),
    Rule::function("torch.mean", mean),
    Rule::function("torch.Tensor.mean", mean),
    Rule::function("torch.prod", prod),
    Rule::function("torch.Tensor.prod", prod),
    Rule::function("torch.std", std_var),
    Rule::function("torch.Tensor.std", std_var),
    Rule::function("torch.var", std_var),
    Rule::function("torch.Tensor.var", std_var),
    Rule::function("torch.std_mean", std_var_mean),
    Rule::function("torch.var_mean", std_var_mean),
    Rule::function("torch.amax", amax),
    Rule::function("torch.Tensor.amax", amax),
    Rule::function("torch.amin", amax),
    Rule::function("torch.Tensor.amin", amax),
    Rule::function("torch.logsumexp", logsumexp),
    Rule::function("torch.Tensor.logsumexp", logsumexp),
    Rule::function("torch.any", any_all),
    Rule::function("torch.Tensor.any", any_all),
    Rule::function("torch.all", any_all),
    Rule::function("torch.Tensor.all", any_all),
    Rule::function("torch.count_nonzero", count_nonzero),
    Rule::function("torch.Tensor.count_nonzero", count_nonzero),
    Rule::function("torch.norm", norm),
    Rule::function("torch.Tensor.norm", norm),
    Rule::function("torch.linalg.norm", linalg_norm),
    Rule::function("torch.linalg.vector_norm", vector_norm),
    Rule::function("torch.linalg.matrix_norm", matrix_norm),
    Rule::function("torch.max", max_min),
    Rule::function("torch.Tensor.max", max_min),
    Rule::function("torch.min", max_min),
    Rule::function("torch.Tensor.min", max_min),
    Rule::function("torch.median", median),
    Rule::function("torch.Tensor.median", median),
    Rule::function("torch.argmax", argmax),
    Rule::function("torch.Tensor.argmax", argmax),
    Rule::function("torch.argmin", argmax),
    Rule::function("torch.Tensor.argmin", argmax),
    Rule::function("torch.mode", mode),
    Rule::function("torch.Tensor.mode", mode),
    Rule::function("torch.kthvalue", kthvalue),
    Rule::function("torch.Tensor.kthvalue", kthvalue),
    Rule::function("torch.aminmax", aminmax),
    Rule::function("torch.Tensor.aminmax", aminmax),
    Rule::function("torch.softmax", softmax),
    Rule::function("torch.log_softmax", softmax),
    Rule::function("torch.Tensor.softmax", softmax),
    Rule::function("torch.Tensor.log_softmax", softmax),
    Rule::function("torch.nn.functional.softmax", functional_softmax),
    Rule::function("torch.nn.functional.log_softmax", functional_softmax),
    Rule::function("torch.nn.functional.softmin", functional_softmax),
    Rule::function("torch.cumsum", scan),
    Rule::function("torch.Tensor.cumsum", scan),
    Rule::function("torch.cumprod", scan),
    Rule::function("torch.Tensor.cumprod", scan),
    Rule::function("torch.logcumsumexp", logcumsumexp),
    Rule::function("torch.Tensor.logcumsumexp", logcumsumexp),
    Rule::function("torch.topk", topk),
    Rule::function("torch.Tensor.topk", topk),
    Rule::function("torch.sort", sort),
    Rule::function("torch.Tensor.sort", sort),
    Rule::function("torch.argsort", argsort),
    Rule::function("torch.Tensor.argsort", argsort),
];

/// Which dims a reduction covers: `None` = all of them.
type Reduced = Option<Vec<usize>>;

/// The dims named by a `dim` argument (int, tuple/list of ints, or `None` = all), normalised
/// and checked for duplicates. An empty list means all dims (PyTorch's legacy convention).
fn reduced_dims(ctx: &Ctx, v: Option<&Value>, rank: usize) -> Result<Reduced, RuleError> {
    let items = match v {
        None | Some(Value::None) => return Ok(None),
        Some(Value::Int(_) | Value::Bool(_) | Value::IntUnknown) => {
            vec![v.cloned().unwrap_or(Value::None)]
        }
        Some(Value::Unknown) => return unsupported(format!("{}: `dim` is unknown", ctx.op)),
        Some(other) => match other.elements() {
            Some(items) => items,
            None => {
                return invalid(format!(
                    "{}: `dim` must be an int or a tuple of ints, not {other}",
                    ctx.op
                ))
            }
        },
    };
    if items.is_empty() {
        return Ok(None);
    }
    let mut out = Vec::new();
    for item in &items {
        let d = super::int_of(&ctx.op, "dim", item)?;
        let Some(c) = d.as_const() else {
            return unsupported(format!("{}: `dim` = {d} is symbolic", ctx.op));
        };
        let i = ctx.dim_index(c, rank, 0)?;
        if out.contains(&i) {
            return invalid(format!(
                "{}: dim {i} appears multiple times in the list of dims",
                ctx.op
            ));
        }
        out.push(i);
    }
    Ok(Some(out))
}

/// The output dims of reducing `which` (all when `None`) of `dims`.
fn reduce_shape(dims: &[Dim], which: &Reduced, keepdim: bool) -> Vec<Dim> {
    let covered = |i: usize| which.as_ref().is_none_or(|w| w.contains(&i));
    dims.iter()
        .enumerate()
        .filter_map(|(i, d)| match (covered(i), keepdim) {
            (false, _) => Some(d.clone()),
            (true, true) => Some(Dim::constant(1)),
            (true, false) => None,
        })
        .collect()
}

/// Reductions without an identity (`max`, `amax`, `argmax`, ...) need every reduced dim
/// non-empty ("Expected reduction dim 0 to have non-zero size"), and a full reduction needs
/// a non-empty input ("Expected reduction dim to be specified for input.numel() == 0").
fn require_nonempty(ctx: &mut Ctx, dims: &[Dim], which: &Reduced) -> Result<(), RuleError> {
    let op = ctx.op.clone();
    match which {
        None => {
            if let Dim::Known(n) = Dim::product(dims) {
                ctx.require_with(Pred::Lt(DimExpr::zero(), n), |_| {
                    format!("{op}: Expected reduction dim to be specified for input.numel() == 0")
                })?;
            }
        }
        Some(w) => {
            for &i in w {
                if let Some(Dim::Known(n)) = dims.get(i) {
                    ctx.require_with(Pred::Lt(DimExpr::zero(), n.clone()), |_| {
                        format!("{op}: Expected reduction dim {i} to have non-zero size")
                    })?;
                }
            }
        }
    }
    Ok(())
}

/// Floating-only operators (`mean`, `std`, `var`, norms) reject integer and bool inputs.
fn require_floating(ctx: &Ctx, dtype: Option<DType>) -> Result<(), RuleError> {
    match dtype {
        Some(d) if !d.is_floating() => invalid(format!(
            "{}: expected a floating point or complex input, got {d:?}",
            ctx.op
        )),
        _ => Ok(()),
    }
}

/// How a reduction reads its arguments.
struct Spec {
    /// Position of `keepdim` (`None`: keyword only or absent).
    keepdim_pos: Option<usize>,
    /// `dim=None` is a type error (`prod`, `logsumexp`).
    dim_required: bool,
    /// Only a single int dim is accepted (`prod`).
    int_dim_only: bool,
    /// No identity: reduced dims must be non-empty.
    nonempty: bool,
    /// Input must be floating.
    floating: bool,
    /// Bool inputs are rejected (`argmax`).
    no_bool: bool,
    /// An empty `dim` list reduces nothing (`any`, `all`) rather than everything.
    empty_is_identity: bool,
    /// Output dtype; `None` keeps the input's.
    out: Option<DType>,
}

const PLAIN: Spec = Spec {
    keepdim_pos: Some(2),
    dim_required: false,
    int_dim_only: false,
    nonempty: false,
    floating: false,
    no_bool: false,
    empty_is_identity: false,
    out: None,
};

/// The generic `op(input, dim=None, keepdim=False)` reduction.
fn reduce(ctx: &mut Ctx, spec: &Spec) -> RuleResult {
    let (dims, dtype) = ctx.ranked(0, "input")?;
    if spec.floating {
        require_floating(ctx, dtype)?;
    }
    let dim = ctx.arg(1, "dim").cloned();
    if spec.dim_required && matches!(dim, None | Some(Value::None)) && ctx.args.len() > 1 {
        return invalid(format!(
            "{}: argument 'dim' must be int, not NoneType",
            ctx.op
        ));
    }
    if spec.int_dim_only && dim.as_ref().is_some_and(|d| d.elements().is_some()) {
        return invalid(format!("{}: argument 'dim' must be int, not tuple", ctx.op));
    }
    if spec.no_bool && dtype == Some(DType::Bool) {
        return invalid(format!("{}: does not support bool input", ctx.op));
    }
    let empty = dim
        .as_ref()
        .and_then(Value::elements)
        .is_some_and(|e| e.is_empty());
    let which = if empty && spec.empty_is_identity {
        Some(Vec::new())
    } else {
        reduced_dims(ctx, dim.as_ref(), dims.len())?
    };
    let keepdim = match spec.keepdim_pos {
        Some(p) => ctx.bool_or(p, "keepdim", false)?,
        None => ctx.bool_or(usize::MAX, "keepdim", false)?,
    };
    if spec.nonempty {
        require_nonempty(ctx, &dims, &which)?;
    }
    Ok(tensor_out(
        reduce_shape(&dims, &which, keepdim),
        spec.out.or(dtype),
    ))
}

/// `torch.sum(x, dim=None, keepdim=False)` / `nansum`: any dims; integer inputs sum to int.
fn sum(ctx: &mut Ctx) -> RuleResult {
    reduce(ctx, &PLAIN)
}

/// `torch.mean(x, dim=None, keepdim=False)`: floating inputs only ("mean(): could not infer
/// output dtype").
fn mean(ctx: &mut Ctx) -> RuleResult {
    reduce(
        ctx,
        &Spec {
            floating: true,
            ..PLAIN
        },
    )
}

/// `torch.prod(x)` or `torch.prod(x, dim: int, keepdim=False)`: one int dim only; an
/// explicit `None` dim is a type error.
fn prod(ctx: &mut Ctx) -> RuleResult {
    reduce(
        ctx,
        &Spec {
            dim_required: true,
            int_dim_only: true,
            ..PLAIN
        },
    )
}

/// `torch.logsumexp(x, dim, keepdim=False)`: `dim` is required (an int or tuple, not None);
/// an empty tuple gives a 0-d result that only fits rank-0 or empty inputs.
fn logsumexp(ctx: &mut Ctx) -> RuleResult {
    let dim = ctx.arg(1, "dim").cloned();
    let Some(dim) = dim else {
        return invalid(format!("{}: missing required argument 'dim'", ctx.op));
    };
    if dim.elements().is_some_and(|e| e.is_empty()) {
        // The result is allocated as 0-d, and the elementwise result must fit it.
        let (dims, _) = ctx.ranked(0, "input")?;
        if let (false, Dim::Known(n)) = (dims.is_empty(), Dim::product(&dims)) {
            let msg = format!(
                "{}: output with shape [] doesn't match the broadcast shape {}",
                ctx.op,
                Shape::Ranked(vec![Dim::constant(1); dims.len()])
            );
            ctx.require_as(Declared::BROADCAST, Pred::Eq(n, DimExpr::zero()), msg)?;
        }
    }
    reduce(
        ctx,
        &Spec {
            dim_required: true,
            ..PLAIN
        },
    )
}

/// `torch.amax(x, dim=(), keepdim=False)` / `amin`: no identity, so reduced dims must be
/// non-empty.
fn amax(ctx: &mut Ctx) -> RuleResult {
    reduce(
        ctx,
        &Spec {
            nonempty: true,
            ..PLAIN
        },
    )
}

/// `torch.any(x, dim=None, keepdim=False)` / `all`: a bool result.
fn any_all(ctx: &mut Ctx) -> RuleResult {
    reduce(
        ctx,
        &Spec {
            empty_is_identity: true,
            out: Some(DType::Bool),
            ..PLAIN
        },
    )
}

/// `torch.count_nonzero(x, dim=None)`: no keepdim; an int64 result.
fn count_nonzero(ctx: &mut Ctx) -> RuleResult {
    reduce(
        ctx,
        &Spec {
            keepdim_pos: None,
            out: Some(DType::Int),
            ..PLAIN
        },
    )
}

/// `torch.std(x, dim=None, unbiased=True, keepdim=False)` / `var` (also `correction=`):
/// floating inputs only ("std and var only support floating point and complex dtypes");
/// the third positional argument is `unbiased`, so `keepdim` is the fourth.
fn std_var(ctx: &mut Ctx) -> RuleResult {
    reduce(
        ctx,
        &Spec {
            keepdim_pos: Some(3),
            floating: true,
            ..PLAIN
        },
    )
}

/// `torch.std_mean(x, dim=None, ...)` / `var_mean`: a tuple of two equal reduced tensors.
fn std_var_mean(ctx: &mut Ctx) -> RuleResult {
    let out = std_var(ctx)?;
    Ok(Value::Tuple(vec![out.clone(), out]))
}

/// `(values, indices)` with the indices int64.
fn values_indices(values: Value) -> Value {
    let indices = match &values {
        Value::Tensor(t) => Value::tensor(t.shape.clone(), Some(DType::Int)),
        other => other.clone(),
    };
    Value::Tuple(vec![values, indices])
}

/// One int `dim` reduced with `keepdim`, for the `(values, indices)` selections.
struct Selection {
    /// The input dims.
    dims: Vec<Dim>,
    /// The output dims.
    out: Vec<Dim>,
    /// The normalised dim.
    dim: usize,
    dtype: Option<DType>,
}

fn select_along(ctx: &mut Ctx, dim: i64, keepdim: bool) -> Result<Selection, RuleError> {
    let (dims, dtype) = ctx.ranked(0, "input")?;
    let i = ctx.dim_index(dim, dims.len(), 0)?;
    let which = if dims.is_empty() { None } else { Some(vec![i]) };
    let out = reduce_shape(&dims, &which, keepdim);
    Ok(Selection {
        dims,
        out,
        dim: i,
        dtype,
    })
}

/// `torch.max(x)` → 0-d (non-empty input); `torch.max(x, dim, keepdim=False)` →
/// `(values, indices)` (the reduced dim must be non-empty); `torch.max(x, other)` → the
/// elementwise maximum, broadcasting. Same for `min`.
fn max_min(ctx: &mut Ctx) -> RuleResult {
    let second = ctx.arg(1, "dim").or_else(|| ctx.kwarg("other")).cloned();
    match second {
        Some(Value::Tensor(other)) => {
            if ctx.args.len() > 2 {
                return invalid(format!(
                    "{}: received an invalid combination of arguments (Tensor, Tensor, ...)",
                    ctx.op
                ));
            }
            let a = ctx.tensor(0, "input")?;
            let mut reqs = Vec::new();
            let op = ctx.op.clone();
            let out = broadcast(&a.shape, &other.shape, &op, &mut reqs);
            for r in reqs {
                ctx.impose(r)?;
            }
            Ok(Value::tensor(out, a.dtype))
        }
        None => {
            let (dims, dtype) = ctx.ranked(0, "input")?;
            require_nonempty(ctx, &dims, &None)?;
            Ok(tensor_out(Vec::new(), dtype))
        }
        Some(_) => dim_selection(ctx),
    }
}

/// `op(x, dim, keepdim=False)` → `(values, indices)`, the reduced dim non-empty.
fn dim_selection(ctx: &mut Ctx) -> RuleResult {
    let Some(dim) = ctx.const_int(1, "dim")? else {
        return invalid(format!("{}: argument 'dim' must be int, not None", ctx.op));
    };
    let keepdim = ctx.bool_or(2, "keepdim", false)?;
    let Selection {
        dims,
        out,
        dim: i,
        dtype,
    } = select_along(ctx, dim, keepdim)?;
    if !dims.is_empty() {
        require_nonempty(ctx, &dims, &Some(vec![i]))?;
    }
    Ok(values_indices(tensor_out(out, dtype)))
}

/// `torch.median(x)` → 0-d; `torch.median(x, dim, keepdim=False)` → `(values, indices)`.
fn median(ctx: &mut Ctx) -> RuleResult {
    match ctx.arg(1, "dim") {
        None | Some(Value::None) => {
            let (_, dtype) = ctx.ranked(0, "input")?;
            Ok(tensor_out(Vec::new(), dtype))
        }
        Some(_) => dim_selection(ctx),
    }
}

/// `torch.mode(x, dim=-1, keepdim=False)` → `(values, indices)`.
fn mode(ctx: &mut Ctx) -> RuleResult {
    let dim = ctx.const_int(1, "dim")?.unwrap_or(-1);
    let keepdim = ctx.bool_or(2, "keepdim", false)?;
    let Selection { out, dtype, .. } = select_along(ctx, dim, keepdim)?;
    Ok(values_indices(tensor_out(out, dtype)))
}

/// `torch.kthvalue(x, k, dim=-1, keepdim=False)` → `(values, indices)`; `1 <= k <= size`
/// ("kthvalue(): selected number k out of range").
fn kthvalue(ctx: &mut Ctx) -> RuleResult {
    let k = ctx
        .opt_int(1, "k")?
        .ok_or_else(|| RuleError::invalid(format!("{}: missing argument `k`", ctx.op)))?;
    let dim = ctx.const_int(2, "dim")?.unwrap_or(-1);
    let keepdim = ctx.bool_or(3, "keepdim", false)?;
    let Selection {
        dims,
        out,
        dim: i,
        dtype,
    } = select_along(ctx, dim, keepdim)?;
    let size = dims.get(i).cloned().unwrap_or(Dim::constant(1));
    let msg = format!(
        "{}: selected number k = {k} out of range for size {size}",
        ctx.op
    );
    ctx.require(Pred::Le(DimExpr::one(), k.clone()), msg.clone())?;
    if let Dim::Known(n) = size {
        ctx.require(Pred::Le(k, n), msg)?;
    }
    Ok(values_indices(tensor_out(out, dtype)))
}

/// `torch.argmax(x, dim=None, keepdim=False)` / `argmin`: int64 indices; `dim=None` reduces
/// everything (with `keepdim`, to all ones); a single int dim; no bool input; the reduced
/// extent must be non-empty.
fn argmax(ctx: &mut Ctx) -> RuleResult {
    reduce(
        ctx,
        &Spec {
            int_dim_only: true,
            no_bool: true,
            nonempty: true,
            out: Some(DType::Int),
            ..PLAIN
        },
    )
}

/// `torch.aminmax(x, *, dim=None, keepdim=False)` → `(min, max)`, both reduced the same way.
fn aminmax(ctx: &mut Ctx) -> RuleResult {
    let out = amax(ctx)?;
    Ok(Value::Tuple(vec![out.clone(), out]))
}

/// `torch.cumsum(x, dim, dtype=None)` / `cumprod`: `dim` is required, an int, in range
/// (rank 0 accepts -1 and 0). The shape is unchanged.
fn scan(ctx: &mut Ctx) -> RuleResult {
    let (dims, dtype) = ctx.ranked(0, "input")?;
    match ctx.arg(1, "dim") {
        None => {
            return invalid(format!(
                "{}: missing 1 required positional argument: \"dim\"",
                ctx.op
            ))
        }
        Some(Value::None) => {
            return invalid(format!(
                "{}: argument 'dim' must be int, not NoneType",
                ctx.op
            ))
        }
        Some(_) => {}
    }
    ctx.dim_arg(1, "dim", dims.len())?;
    Ok(tensor_out(dims, dtype))
}

/// Softmax-like kernels are implemented for floating types only (unless a `dtype` converts).
fn require_floating_kernel(ctx: &Ctx) -> Result<(), RuleError> {
    let (_, dtype) = ctx.ranked(0, "input")?;
    if ctx.arg(2, "dtype").is_some_and(|d| !d.is_none()) {
        return Ok(());
    }
    match dtype {
        Some(d) if !d.is_floating() => {
            invalid(format!("{}: kernel not implemented for {d:?}", ctx.op))
        }
        _ => Ok(()),
    }
}

/// `torch.softmax(x, dim, dtype=None)` / `log_softmax` (and the methods): like a scan, for
/// floating inputs only.
fn softmax(ctx: &mut Ctx) -> RuleResult {
    require_floating_kernel(ctx)?;
    scan(ctx)
}

/// `torch.logcumsumexp(x, dim)`: like a scan, floating only, no `dtype` keyword.
fn logcumsumexp(ctx: &mut Ctx) -> RuleResult {
    if ctx.kwarg("dtype").is_some() {
        return invalid(format!("{}: unexpected keyword argument 'dtype'", ctx.op));
    }
    require_floating_kernel(ctx)?;
    scan(ctx)
}

/// `F.softmax(x, dim=None)` / `F.log_softmax` / `F.softmin`: without `dim`, PyTorch warns and
/// picks dim 0 for ranks 0, 1 and 3 and dim 1 otherwise; the shape is unchanged.
fn functional_softmax(ctx: &mut Ctx) -> RuleResult {
    require_floating_kernel(ctx)?;
    let (dims, dtype) = ctx.ranked(0, "input")?;
    ctx.dim_arg(1, "dim", dims.len())?;
    Ok(tensor_out(dims, dtype))
}

/// `torch.topk(x, k, dim=-1, largest=True, sorted=True)` → `(values, indices)` with the dim
/// replaced by `k`; `0 <= k <= size` ("selected index k out of range"; a rank-0 tensor has
/// size 1).
fn topk(ctx: &mut Ctx) -> RuleResult {
    let k = ctx
        .opt_int(1, "k")?
        .ok_or_else(|| RuleError::invalid(format!("{}: missing argument `k`", ctx.op)))?;
    let dim = ctx.const_int(2, "dim")?.unwrap_or(-1);
    let (mut dims, dtype) = ctx.ranked(0, "input")?;
    let i = ctx.dim_index(dim, dims.len(), 0)?;
    let size = dims.get(i).cloned().unwrap_or(Dim::constant(1));
    let msg = format!(
        "{}: selected index k = {k} out of range for size {size}",
        ctx.op
    );
    let index = Declared::Generic(FindingKind::IndexOutOfBounds);
    ctx.require_as(index, Pred::Le(DimExpr::zero(), k.clone()), msg.clone())?;
    if let Dim::Known(n) = size {
        ctx.require_as(index, Pred::Le(k.clone(), n), msg)?;
    }
    if let Some(d) = dims.get_mut(i) {
        *d = Dim::Known(k);
    }
    Ok(values_indices(tensor_out(dims, dtype)))
}

/// `torch.sort(x, dim=-1, descending=False)` → `(values, indices)` of the input's shape.
fn sort(ctx: &mut Ctx) -> RuleResult {
    let dim = ctx.const_int(1, "dim")?.unwrap_or(-1);
    let (dims, dtype) = ctx.ranked(0, "input")?;
    ctx.dim_index(dim, dims.len(), 0)?;
    Ok(values_indices(tensor_out(dims, dtype)))
}

/// `torch.argsort(x, dim=-1, descending=False)`: int64 indices of the input's shape.
fn argsort(ctx: &mut Ctx) -> RuleResult {
    let dim = ctx.const_int(1, "dim")?.unwrap_or(-1);
    let (dims, _) = ctx.ranked(0, "input")?;
    ctx.dim_index(dim, dims.len(), 0)?;
    Ok(tensor_out(dims, Some(DType::Int)))
}

/// Whether a norm order selects a matrix norm (`"fro"` on two dims, `"nuc"`).
fn is_str(v: Option<&Value>, s: &str) -> bool {
    matches!(v, Some(Value::Str(Some(x))) if x == s)
}

/// Reduces `dims` over a matrix norm's two dims (`dim` must be a 2-tuple).
fn matrix_reduce(ctx: &mut Ctx, dims: &[Dim], dim: Option<&Value>, keepdim: bool) -> RuleResult {
    let which = reduced_dims(ctx, dim, dims.len())?;
    match &which {
        Some(w) if w.len() == 2 => {}
        _ => {
            return invalid(format!(
                "{}: linalg.matrix_norm: dim must be a 2-tuple (rank {})",
                ctx.op,
                dims.len()
            ))
        }
    }
    Ok(tensor_out(reduce_shape(dims, &which, keepdim), None))
}

/// `torch.norm(x, p='fro', dim=None, keepdim=False)`: floating only; `p='nuc'` (or `'fro'`
/// with a 2-tuple dim) is a matrix norm over exactly two dims (`dim=None` means all dims,
/// so the input must be 2-D); otherwise a vector norm over `dim` (all when `None`).
fn norm(ctx: &mut Ctx) -> RuleResult {
    let (dims, dtype) = ctx.ranked(0, "input")?;
    require_floating(ctx, dtype)?;
    let p = ctx.arg(1, "p").cloned();
    let dim = ctx.arg(2, "dim").cloned();
    let keepdim = ctx.bool_or(3, "keepdim", false)?;
    if is_str(p.as_ref(), "nuc") {
        let all: Value;
        let dim_v = match &dim {
            None | Some(Value::None) => {
                all = Value::Tuple((0..dims.len() as i64).map(Value::int).collect());
                Some(&all)
            }
            Some(v) => Some(v),
        };
        return matrix_reduce(ctx, &dims, dim_v, keepdim).map(|v| with_dtype(v, dtype));
    }
    let which = reduced_dims(ctx, dim.as_ref(), dims.len())?;
    Ok(tensor_out(reduce_shape(&dims, &which, keepdim), dtype))
}

fn with_dtype(v: Value, dtype: Option<DType>) -> Value {
    match v {
        Value::Tensor(t) => Value::tensor(t.shape, dtype),
        other => other,
    }
}

/// `torch.linalg.norm(A, ord=None, dim=None, keepdim=False)`: floating only; an int `dim` is
/// a vector norm, a 2-tuple a matrix norm; with `dim=None` and `ord` given the input must be
/// 1-D or 2-D; with neither, the flattened vector norm (0-d).
fn linalg_norm(ctx: &mut Ctx) -> RuleResult {
    let (dims, dtype) = ctx.ranked(0, "A")?;
    require_floating(ctx, dtype)?;
    let ord = ctx.arg(1, "ord").cloned();
    let dim = ctx.arg(2, "dim").cloned();
    let keepdim = ctx.bool_or(3, "keepdim", false)?;
    let has_ord = !matches!(ord, None | Some(Value::None));
    if matches!(dim, None | Some(Value::None)) && has_ord {
        if !(1..=2).contains(&dims.len()) {
            return invalid(format!(
                "{}: input must be 1-D or 2-D when dim is None and ord is not None",
                ctx.op
            ));
        }
        if matches!(ord, Some(Value::Str(_))) && dims.len() != 2 {
            return invalid(format!("{}: a string ord needs a 2-D input", ctx.op));
        }
    }
    let which = reduced_dims(ctx, dim.as_ref(), dims.len())?;
    if matches!(ord, Some(Value::Str(_))) && which.as_ref().is_some_and(|w| w.len() != 2) {
        return invalid(format!("{}: a string ord needs a 2-tuple dim", ctx.op));
    }
    Ok(tensor_out(reduce_shape(&dims, &which, keepdim), dtype))
}

/// `torch.linalg.vector_norm(x, ord=2, dim=None, keepdim=False)`: floating only; reduces
/// `dim` (all when `None`).
fn vector_norm(ctx: &mut Ctx) -> RuleResult {
    let (dims, dtype) = ctx.ranked(0, "x")?;
    require_floating(ctx, dtype)?;
    let dim = ctx.arg(2, "dim").cloned();
    let keepdim = ctx.bool_or(3, "keepdim", false)?;
    let which = reduced_dims(ctx, dim.as_ref(), dims.len())?;
    Ok(tensor_out(reduce_shape(&dims, &which, keepdim), dtype))
}

/// `torch.linalg.matrix_norm(A, ord='fro', dim=(-2, -1), keepdim=False)`: at least 2-D
/// ("The input tensor A must have at least 2 dimensions"), reduces the two dims.
fn matrix_norm(ctx: &mut Ctx) -> RuleResult {
    let (dims, dtype) = ctx.ranked(0, "A")?;
    require_floating(ctx, dtype)?;
    if dims.len() < 2 {
        return invalid(format!(
            "{}: The input tensor A must have at least 2 dimensions.",
            ctx.op
        ));
    }
    let default = Value::Tuple(vec![Value::int(-2), Value::int(-1)]);
    let dim = match ctx.arg(2, "dim") {
        None | Some(Value::None) => default,
        Some(v) => v.clone(),
    };
    let keepdim = ctx.bool_or(3, "keepdim", false)?;
    matrix_reduce(ctx, &dims, Some(&dim), keepdim).map(|v| with_dtype(v, dtype))
}
