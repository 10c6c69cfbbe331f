//! Helpers shared by the rule families: dims as text, broadcasting with recorded
//! requirements, "expands to" checks, dtype checks and module values.

use crate::shapes::kind::{Declared, FindingKind};
use std::collections::BTreeMap;

use super::invalid_as;
use super::{invalid, unsupported, Ctx, RuleError};
use crate::shapes::dim::DimExpr;
use crate::shapes::requirement::Pred;
use crate::shapes::shape::{broadcast, Dim, Shape};
use crate::shapes::value::{DType, ModuleValue, TensorValue, Value};

/// `[2, 3]` for messages.
pub fn show(dims: &[Dim]) -> String {
    Shape::Ranked(dims.to_vec()).to_string()
}

/// Broadcasts two dim lists (PyTorch rules), recording the requirements; a decidably
/// impossible broadcast fails right away.
pub fn broadcast_dims(ctx: &mut Ctx, a: &[Dim], b: &[Dim]) -> Result<Vec<Dim>, RuleError> {
    let mut reqs = Vec::new();
    let what = ctx.op.clone();
    let out = broadcast(
        &Shape::Ranked(a.to_vec()),
        &Shape::Ranked(b.to_vec()),
        &what,
        &mut reqs,
    );
    for r in reqs {
        ctx.impose(r)?;
    }
    Ok(out.dims().map(<[Dim]>::to_vec).unwrap_or_default())
}

/// `src` must expand to `target` (`Tensor.expand` semantics: no more dims than the target;
/// each right-aligned dim equal or 1), as for the `input` of `addmm`/`baddbmm`.
pub fn require_expands(
    ctx: &mut Ctx,
    src: &[Dim],
    target: &[Dim],
    what: &str,
) -> Result<(), RuleError> {
    let msg = format!(
        "{}: {what} of shape {} cannot be expanded to {}",
        ctx.op,
        show(src),
        show(target)
    );
    if src.len() > target.len() {
        return invalid_as(Declared::BROADCAST, msg);
    }
    let off = target.len() - src.len();
    for (i, s) in src.iter().enumerate() {
        if let (Dim::Known(s), Dim::Known(t)) = (s, &target[off + i]) {
            let pred = Pred::Or(vec![
                Pred::Eq(s.clone(), t.clone()),
                Pred::Eq(s.clone(), DimExpr::one()),
            ]);
            ctx.require_as(Declared::BROADCAST, pred, msg.clone())?;
        }
    }
    Ok(())
}

/// Both dtypes known and different: PyTorch's products do not promote.
pub fn require_same_dtype(
    ctx: &Ctx,
    a: Option<DType>,
    b: Option<DType>,
    what: &str,
) -> Result<(), RuleError> {
    match (a, b) {
        (Some(x), Some(y)) if x != y => invalid(format!(
            "{}: expected {what} to have the same dtype, but got {x:?} != {y:?}",
            ctx.op
        )),
        _ => Ok(()),
    }
}

/// A module value with the given normalised hyperparameters.
pub fn module_value(class: &str, params: Vec<(&str, Value)>) -> Value {
    module_with_children(class, params, Vec::new())
}

/// A module value that also holds child modules, which its forward rule runs (see
/// `modules::apply_child`).
pub fn module_with_children(
    class: &str,
    params: Vec<(&str, Value)>,
    children: Vec<Value>,
) -> Value {
    Value::Module(Box::new(ModuleValue {
        class: class.to_string(),
        params: params
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect::<BTreeMap<_, _>>(),
        children,
    }))
}

/// A module's int hyperparameter as a dim (set by its `init` rule).
pub fn param_dim(ctx: &Ctx, name: &str) -> Result<DimExpr, RuleError> {
    match ctx.param(name) {
        Some(Value::Int(e)) => Ok(e.clone()),
        _ => unsupported(format!("{}: hyperparameter `{name}` is unknown", ctx.op)),
    }
}

/// A module's bool hyperparameter (set by its `init` rule).
pub fn param_bool(ctx: &Ctx, name: &str) -> bool {
    matches!(ctx.param(name), Some(Value::Bool(Some(true))))
}

/// An optional tensor argument's dims (`None` when absent or `None`).
pub fn opt_dims(ctx: &Ctx, pos: usize, name: &str) -> Result<Option<Vec<Dim>>, RuleError> {
    match ctx.arg(pos, name) {
        None | Some(Value::None) => Ok(None),
        Some(_) => Ok(Some(ctx.ranked(pos, name)?.0)),
    }
}

/// Requires two dim lists to be equal (ranks and dims), with one message.
pub fn require_same(ctx: &mut Ctx, a: &[Dim], b: &[Dim], msg: String) -> Result<(), RuleError> {
    if a.len() != b.len() {
        return invalid(msg);
    }
    for (x, y) in a.iter().zip(b) {
        ctx.require_eq(x, y, msg.clone())?;
    }
    Ok(())
}

/// A size hyperparameter: an int ≥ 0 (PyTorch: "Trying to create tensor with negative
/// dimension"); floats are type errors.
pub fn size_hyper(
    ctx: &mut Ctx,
    pos: usize,
    name: &str,
    default: Option<i64>,
) -> Result<DimExpr, RuleError> {
    let v = match (ctx.opt_int(pos, name)?, default) {
        (Some(v), _) => v,
        (None, Some(d)) => DimExpr::constant(d),
        (None, None) => return invalid(format!("{}: missing argument `{name}`", ctx.op)),
    };
    ctx.require_with(Pred::Le(DimExpr::zero(), v.clone()), |cx| {
        format!(
            "{}: Trying to create tensor with negative dimension {v}",
            cx.op
        )
    })?;
    Ok(v)
}

/// A size hyperparameter whose value the analysis may not know (a width computed by a
/// helper outside the file): `None` then, and the layer is still built with what else is
/// known; the dims that depend on it are unknown. A known size is checked as
/// [`size_hyper`] checks it.
pub fn maybe_size_hyper(
    ctx: &mut Ctx,
    pos: usize,
    name: &str,
) -> Result<Option<DimExpr>, RuleError> {
    match ctx.arg(pos, name) {
        Some(v) if v.is_unknown_int() => Ok(None),
        _ => size_hyper(ctx, pos, name, None).map(Some),
    }
}

/// A size hyperparameter stored by an `init` rule, unknown when [`maybe_size_hyper`] did
/// not know it.
pub fn param_size(ctx: &Ctx, name: &str) -> Dim {
    match ctx.param(name) {
        Some(Value::Int(e)) => Dim::Known(e.clone()),
        _ => Dim::Dyn,
    }
}

/// Stores a size that may be unknown.
pub fn size_value(size: Option<DimExpr>) -> Value {
    size.map_or(Value::IntUnknown, Value::Int)
}

/// Requires every known dim of `dims` (an input's non-batch dims) to be non-empty, with
/// PyTorch's message.
pub fn require_non_empty(
    ctx: &mut Ctx,
    dims: &[Dim],
    message: impl Fn(&Ctx) -> String,
) -> Result<(), RuleError> {
    for d in dims.iter().filter_map(Dim::expr) {
        ctx.require_with(Pred::Lt(DimExpr::zero(), d.clone()), &message)?;
    }
    Ok(())
}

/// Requires `0 < v` with PyTorch's message.
pub fn require_positive(ctx: &mut Ctx, v: &DimExpr, msg: &str) -> Result<(), RuleError> {
    ctx.require_with(Pred::Lt(DimExpr::zero(), v.clone()), |cx| {
        format!("{}: {msg}", cx.op)
    })
}

/// A bool flag where `None` means false (`Transformer`'s `*_is_causal=None`).
pub fn flag(ctx: &Ctx, pos: usize, name: &str) -> Result<bool, RuleError> {
    match ctx.arg(pos, name) {
        Some(Value::None) => Ok(false),
        _ => ctx.bool_or(pos, name, false),
    }
}

/// Module inputs are checked against float32 weights.
pub fn require_float(ctx: &Ctx, dtype: Option<DType>) -> Result<(), RuleError> {
    if dtype.is_some_and(|d| d != DType::Float) {
        return invalid(format!(
            "{}: input dtype ({dtype:?}) does not match weight dtype (Float)",
            ctx.op
        ));
    }
    Ok(())
}

/// For a tensor of stored indices or class values whose values are known (uniform content
/// or known elements, see `TensorValue::int_extremes`): requires `lo <= v < hi` for every
/// element `v` other than `skip` (a loss's `ignore_index`) unless the tensor is empty (an
/// empty tensor stores nothing to check). The message names the smallest element when it
/// is below a constant `lo`, else the largest. Unknown content or an unknown element count
/// requires nothing.
pub fn require_values_within(
    ctx: &mut Ctx,
    t: &TensorValue,
    (lo, hi): (&DimExpr, &DimExpr),
    skip: Option<i64>,
    message: impl FnOnce(&Ctx, i64) -> String,
) -> Result<(), RuleError> {
    let (Some((least, most)), Some(dims)) = (t.int_extremes(skip), t.shape.dims()) else {
        return Ok(());
    };
    let Dim::Known(numel) = Dim::product(dims) else {
        return Ok(());
    };
    let pred = Pred::Or(vec![
        Pred::Eq(numel, DimExpr::zero()),
        Pred::And(vec![
            Pred::Le(lo.clone(), DimExpr::constant(least)),
            Pred::Lt(DimExpr::constant(most), hi.clone()),
        ]),
    ]);
    let named = match lo.as_const() {
        Some(l) if least < l => least,
        _ => most,
    };
    // Values outside their range are indices past their dim, whatever the operator.
    ctx.require_with_as(
        Declared::Specific(FindingKind::IndexOutOfBounds),
        pred,
        |cx| message(cx, named),
    )
}

/// Python's normalisation of a slice bound `i` against a length `n` (positive step): a
/// negative bound counts from the end, then the position clamps into `[0, n]`. A symbolic
/// bound that is minus a non-negative expression (`-m`, as in `x[:, :-m]`) is negative
/// unless `m` is 0, which Python reads as position 0: `min(m, 1) * max(0, n - m)` covers
/// both. A bound below 0 whatever its symbols, by the ranges of its terms
/// ([`DimExpr::interval`]), counts from the end. Any other symbolic bound is taken as
/// non-negative.
pub fn clamp_slice_bound(i: &DimExpr, n: &DimExpr) -> DimExpr {
    match i.as_const() {
        Some(c) if c < 0 => i.add(n).maximum(&DimExpr::zero()),
        Some(_) => i.minimum(n),
        None => {
            let m = i.neg();
            let non_negative = m.constant_part() >= 0 && m.terms().all(|(_, k)| k > 0);
            // Negative whatever the symbols (`:-gap` for a padding `gap = k - (p + n % k) % k`):
            // counted from the end.
            if i.interval().1.is_some_and(|hi| hi < 0) {
                i.add(n).maximum(&DimExpr::zero())
            } else if non_negative {
                m.minimum(&DimExpr::one())
                    .mul(&n.sub(&m).maximum(&DimExpr::zero()))
            } else {
                i.minimum(n)
            }
        }
    }
}
