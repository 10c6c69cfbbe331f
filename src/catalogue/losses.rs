//! Operator rules: losses. (See `catalogue/mod.rs` for the conventions.)
//!
//! Every loss reads its `reduction` (or the legacy `size_average`/`reduce`) through
//! [`reduction`] and shapes its result through [`reduced`]: the unreduced loss for
//! `'none'`, a 0-d tensor for `'mean'`/`'sum'`. A loss module stores its constructor
//! arguments and applies the functional form with them as keyword arguments.

use super::common::{
    broadcast_dims, module_value, opt_dims, require_expands, require_same, require_values_within,
    show,
};
use super::invalid_as;
use super::{invalid, tensor_out, unsupported, Ctx, Rule, RuleError, RuleResult};
use crate::shapes::dim::DimExpr;
use crate::shapes::kind::{Declared, FindingKind};
use crate::shapes::requirement::Pred;
use crate::shapes::shape::Dim;
use crate::shapes::value::{DType, Value};

/// What this family's failures are, unless a rule or a check declares otherwise.
pub const KIND: FindingKind = FindingKind::LossTarget;

pub const RULES: &[Rule] = &[
    Rule::function("torch.nn.functional.cross_entropy", cross_entropy),
    Rule::function("torch.nn.functional.nll_loss", nll_loss),
    Rule::function("torch.nn.functional.mse_loss", mse_loss),
    Rule::function("torch.nn.functional.l1_loss", l1_loss),
    Rule::function("torch.nn.functional.smooth_l1_loss", l1_loss),
    Rule::function("torch.nn.functional.huber_loss", huber_loss),
    Rule::function(
        "torch.nn.functional.binary_cross_entropy",
        binary_cross_entropy,
    ),
    Rule::function(
        "torch.nn.functional.binary_cross_entropy_with_logits",
        binary_cross_entropy_with_logits,
    ),
    Rule::function("torch.nn.functional.kl_div", kl_div).finding(FindingKind::ShapeMismatch),
    Rule::function("torch.nn.functional.soft_margin_loss", soft_margin_loss),
    Rule::function("torch.nn.functional.poisson_nll_loss", poisson_nll_loss),
    Rule::function(
        "torch.nn.functional.cosine_embedding_loss",
        cosine_embedding_loss,
    ),
    Rule::function(
        "torch.nn.functional.margin_ranking_loss",
        margin_ranking_loss,
    ),
    Rule::function(
        "torch.nn.functional.triplet_margin_loss",
        triplet_margin_loss,
    ),
    Rule::function("torch.nn.functional.multi_margin_loss", multi_margin_loss),
    Rule::function(
        "torch.nn.functional.multilabel_margin_loss",
        multilabel_margin_loss,
    ),
    Rule::function("torch.nn.functional.gaussian_nll_loss", gaussian_nll_loss),
    Rule::function("torch.nn.functional.ctc_loss", ctc_loss),
    Rule::module("torch.nn.CrossEntropyLoss", loss_init, ce_module),
    Rule::module("torch.nn.NLLLoss", loss_init, nll_module),
    Rule::module("torch.nn.MSELoss", loss_init, mse_module),
    Rule::module("torch.nn.L1Loss", loss_init, l1_module),
    Rule::module("torch.nn.SmoothL1Loss", loss_init, l1_module),
    Rule::module("torch.nn.HuberLoss", loss_init, huber_module),
    Rule::module("torch.nn.BCELoss", loss_init, bce_module),
    Rule::module("torch.nn.BCEWithLogitsLoss", loss_init, bce_logits_module),
    Rule::module("torch.nn.KLDivLoss", loss_init, kl_module),
];

// ---------------------------------------------------------------------------------------
// Shared helpers
// ---------------------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq)]
enum Reduction {
    None,
    /// `'mean'`, `'sum'` (and `kl_div`'s `'batchmean'`): a 0-d result.
    Scalar,
}

/// Where a loss's reduction arguments sit: `size_average`/`reduce` (legacy, positional
/// index if the function has them) and `reduction`.
struct RedArgs {
    size_average: Option<usize>,
    reduce: Option<usize>,
    reduction: usize,
}

/// Positions of `size_average`, `reduce` and `reduction` in a functional signature.
const fn red(size_average: usize, reduce: usize, reduction: usize) -> RedArgs {
    RedArgs {
        size_average: Some(size_average),
        reduce: Some(reduce),
        reduction,
    }
}

/// A legacy reduction argument, when given and not `None`.
fn given(ctx: &Ctx, pos: Option<usize>, name: &str) -> Option<Value> {
    let v = match pos {
        Some(p) => ctx.arg(p, name),
        None => ctx.kwarg(name),
    };
    v.filter(|v| !v.is_none()).cloned()
}

/// The reduction: the legacy `size_average`/`reduce` win when given (`reduce=False` means
/// `'none'`); otherwise `reduction` is `'none'`, `'mean'` or `'sum'` (`'batchmean'` too for
/// `kl_div`); anything else raises ("X is not a valid value for reduction").
fn reduction(ctx: &Ctx, at: RedArgs, batchmean: bool) -> Result<Reduction, RuleError> {
    let sa = given(ctx, at.size_average, "size_average");
    let rd = given(ctx, at.reduce, "reduce");
    if sa.is_some() || rd.is_some() {
        return match rd {
            Some(Value::Bool(Some(false))) => Ok(Reduction::None),
            Some(Value::Bool(None)) => unsupported(format!("{}: unknown `reduce`", ctx.op)),
            _ => Ok(Reduction::Scalar),
        };
    }
    match ctx.arg(at.reduction, "reduction") {
        None => Ok(Reduction::Scalar),
        Some(Value::Str(Some(s))) => match s.as_str() {
            "none" => Ok(Reduction::None),
            "mean" | "sum" => Ok(Reduction::Scalar),
            "batchmean" if batchmean => Ok(Reduction::Scalar),
            other => invalid(format!(
                "{}: {other} is not a valid value for reduction",
                ctx.op
            )),
        },
        Some(Value::Str(None)) | Some(Value::Unknown) => {
            unsupported(format!("{}: unknown `reduction`", ctx.op))
        }
        Some(other) => invalid(format!(
            "{}: {other} is not a valid value for reduction",
            ctx.op
        )),
    }
}

/// The loss value: the unreduced `dims` for `'none'`, else 0-d.
fn reduced(red: Reduction, dims: Vec<Dim>, dtype: Option<DType>) -> Value {
    match red {
        Reduction::None => tensor_out(dims, dtype),
        Reduction::Scalar => tensor_out(Vec::new(), dtype),
    }
}

/// A known dtype outside `ok` raises (`what` says what was expected).
fn require_dtype(
    ctx: &Ctx,
    dtype: Option<DType>,
    ok: &[DType],
    what: &str,
) -> Result<(), RuleError> {
    match dtype {
        Some(d) if !ok.contains(&d) => invalid(format!("{}: {what}, but got {d:?}", ctx.op)),
        _ => Ok(()),
    }
}

// ---------------------------------------------------------------------------------------
// Classification losses
// ---------------------------------------------------------------------------------------

/// The class-index path shared by `nll_loss` and `cross_entropy`: input `[N, C]`, `[C]` or
/// `[N, C, d1, ...]`; target `[N]`, `[]` (or `[1]` for a 1-D input) or `[N, d1, ...]` of an
/// integer dtype ("expected target dtype to be Long or Byte", checked after the shapes);
/// `weight` has C elements. The unreduced loss has the target's shape.
fn class_index_loss(
    ctx: &mut Ctx,
    x: &[Dim],
    t: &[Dim],
    dt: Option<DType>,
    weight: Option<&[Dim]>,
    red: Reduction,
    dtype: Option<DType>,
) -> RuleResult {
    let shapes = format!("(got input: {} , target: {})", show(x), show(t));
    match x.len() {
        0 => return invalid(format!("{}: input tensor should be 1D or more", ctx.op)),
        1 | 2 => {
            if t.len() > 1 {
                return invalid(format!(
                    "{}: 0D or 1D target tensor expected, multi-target not supported",
                    ctx.op
                ));
            }
            if x.len() == 2 {
                let msg = format!(
                    "{}: Expected input batch_size ({}) to match target batch_size ({})",
                    ctx.op,
                    x[0],
                    t.first().map_or("none".to_string(), Dim::to_string)
                );
                match t.first() {
                    Some(b) => ctx.require_eq(&x[0], b, msg)?,
                    None => return invalid(msg),
                }
            } else if let Some(n) = t.first() {
                let msg = format!(
                    "{}: For 1D input, 1D target must have size 1, but got target size: {n}",
                    ctx.op
                );
                ctx.require_eq(n, &Dim::constant(1), msg)?;
            }
        }
        n => {
            if t.len() != n - 1 {
                return invalid(format!(
                    "{}: only batches of spatial targets supported ({}D tensors) but got targets of dimension: {}",
                    ctx.op,
                    n - 1,
                    t.len()
                ));
            }
            let mut want = vec![x[0].clone()];
            want.extend_from_slice(&x[2..]);
            let msg = format!("{}: size mismatch {shapes}", ctx.op);
            require_same(ctx, t, &want, msg)?;
        }
    }
    if let Some(w) = weight {
        let c = if x.len() == 1 { &x[0] } else { &x[1] };
        let msg = format!(
            "{}: weight tensor should be defined either for all {c} classes or no classes but got weight tensor of shape: {}",
            ctx.op,
            show(w)
        );
        require_same(ctx, w, std::slice::from_ref(c), msg)?;
    }
    // The kernel checks the dtype after the shapes (a float `[N, C]` target is "multi-target").
    require_dtype(
        ctx,
        dt,
        &[DType::Int],
        "expected target dtype to be Long or Byte",
    )?;
    Ok(reduced(red, t.to_vec(), dtype))
}

/// Losses apply `log_softmax`-like kernels that exist for floating inputs only.
fn require_float_input(ctx: &Ctx, dtype: Option<DType>) -> Result<(), RuleError> {
    require_dtype(
        ctx,
        dtype,
        &[DType::Float],
        "expected a floating point input",
    )
}

/// `F.cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100,
/// reduce=None, reduction='mean', label_smoothing=0.0)`: a target of the input's exact
/// shape holds class probabilities (floating dtype required, "Expected floating point type
/// for target with class probabilities"; the unreduced loss drops the
/// class dim, dim 1 or dim 0 of a 1-D input); otherwise it holds class indices (see
/// `nll_loss`). The input is floating; label_smoothing is in [0, 1].
fn cross_entropy(ctx: &mut Ctx) -> RuleResult {
    let (x, dx) = ctx.ranked(0, "input")?;
    let (t, dt) = ctx.ranked(1, "target")?;
    let weight = opt_dims(ctx, 2, "weight")?;
    let red = reduction(ctx, red(3, 5, 6), false)?;
    if let Some(Value::Float(Some(s))) = ctx.arg(7, "label_smoothing") {
        if !(0.0..=1.0).contains(s) {
            return invalid(format!(
                "{}: label_smoothing must be between 0.0 and 1.0. Got: {s}",
                ctx.op
            ));
        }
    }
    require_float_input(ctx, dx)?;
    // PyTorch reads a target of the input's exact shape as probabilities. An integer
    // target of the input's rank fails either way: as probabilities for its dtype, as
    // indices for its rank. Unless the shapes are the same expressions, the index path
    // says which (`zeros_like(logits[:, :1], dtype=long)` for `[N, C]` logits).
    let same_rank = x.len() == t.len();
    let probabilities = same_rank && (t == x || dt != Some(DType::Int));
    if !probabilities {
        let out = class_index_loss(ctx, &x, &t, dt, weight.as_deref(), red, dx)?;
        require_class_targets(ctx, &x)?;
        return Ok(out);
    }
    let msg = format!(
        "{}: class-probability target {} must have the input's shape {}",
        ctx.op,
        show(&t),
        show(&x)
    );
    require_same(ctx, &t, &x, msg)?;
    if dt.is_some_and(|d| !d.is_floating()) {
        return invalid(format!(
            "{}: Expected floating point type for target with class probabilities, got {dt:?}",
            ctx.op
        ));
    }
    if x.is_empty() {
        return invalid_as(
            Declared::Specific(FindingKind::DimOutOfRange),
            format!("{}: Dimension out of range (0-d input)", ctx.op),
        );
    }
    let class_dim = usize::from(x.len() > 1);
    if let Some(w) = &weight {
        let msg = format!(
            "{}: weight tensor should be defined for all classes",
            ctx.op
        );
        require_same(ctx, w, std::slice::from_ref(&x[class_dim]), msg)?;
    }
    let mut out = x.clone();
    out.remove(class_dim);
    Ok(reduced(red, out, dx))
}

/// Class-index targets whose values are known (see `TensorValue::int_extremes`) must lie in
/// `[0, C)` unless they equal `ignore_index` (argument 4, default -100): "Target 7 is out of
/// bounds." An `ignore_index` not known leaves them unchecked.
fn require_class_targets(ctx: &mut Ctx, x: &[Dim]) -> Result<(), RuleError> {
    let Some(Dim::Known(classes)) = (if x.len() == 1 { x.first() } else { x.get(1) }).cloned()
    else {
        return Ok(());
    };
    let target = ctx.tensor(1, "target")?;
    let Some(ignore) = ctx.int_or(4, "ignore_index", -100)?.as_const() else {
        return Ok(());
    };
    require_values_within(
        ctx,
        &target,
        (&DimExpr::zero(), &classes),
        Some(ignore),
        |cx, v| format!("{}: Target {v} is out of bounds (C = {classes}).", cx.op),
    )
}

/// `F.nll_loss(input, target, weight=None, size_average=None, ignore_index=-100,
/// reduce=None, reduction='mean')`: class indices — input `[N, C]` / `[C]` / `[N, C, d1,
/// ...]`, target `[N]` / `[]` / `[N, d1, ...]` ("Expected input batch_size (a) to match
/// target batch_size (b)", "0D or 1D target tensor expected"), integer target, weight of C.
fn nll_loss(ctx: &mut Ctx) -> RuleResult {
    let (x, dx) = ctx.ranked(0, "input")?;
    let (t, dt) = ctx.ranked(1, "target")?;
    let weight = opt_dims(ctx, 2, "weight")?;
    let red = reduction(ctx, red(3, 5, 6), false)?;
    require_float_input(ctx, dx)?;
    let out = class_index_loss(ctx, &x, &t, dt, weight.as_deref(), red, dx)?;
    require_class_targets(ctx, &x)?;
    Ok(out)
}

/// `F.multi_margin_loss(input, target, p=1, margin=1, weight=None, ...)`: input `[N, C]` or
/// `[C]`, integer target `[N]` (or `[]`/`[1]`); the unreduced loss is `[N]` (`[]`).
fn multi_margin_loss(ctx: &mut Ctx) -> RuleResult {
    let (x, dx) = ctx.ranked(0, "input")?;
    let (t, dt) = ctx.ranked(1, "target")?;
    let weight = opt_dims(ctx, 4, "weight")?;
    let red = reduction(ctx, red(5, 6, 7), false)?;
    if x.len() > 2 {
        return invalid(format!(
            "{}: Expected non-empty vector or matrix with optional 0-dim batch size, but got: {}",
            ctx.op,
            show(&x)
        ));
    }
    let out = class_index_loss(ctx, &x, &t, dt, weight.as_deref(), Reduction::None, dx)?;
    let dims = out
        .as_tensor()
        .and_then(|t| t.shape.dims().map(<[Dim]>::to_vec));
    let dims = if x.len() == 1 {
        Vec::new()
    } else {
        dims.unwrap_or_default()
    };
    Ok(reduced(red, dims, dx))
}

/// `F.multilabel_margin_loss(input, target, ...)`: input `[N, C]` or `[C]`, integer target of
/// the same shape; the unreduced loss is `[N]` (`[]`).
fn multilabel_margin_loss(ctx: &mut Ctx) -> RuleResult {
    let (x, dx) = ctx.ranked(0, "input")?;
    let (t, dt) = ctx.ranked(1, "target")?;
    let red = reduction(ctx, red(2, 3, 4), false)?;
    if x.len() > 2 {
        return invalid(format!(
            "{}: Expected non-empty vector or matrix with optional 0-dim batch size, but got: {}",
            ctx.op,
            show(&x)
        ));
    }
    require_dtype(ctx, dt, &[DType::Int], "expected an integer target")?;
    let msg = format!(
        "{}: inconsistent target size: {} for input of size: {}",
        ctx.op,
        show(&t),
        show(&x)
    );
    require_same(ctx, &t, &x, msg)?;
    let out = if x.len() == 2 {
        vec![x[0].clone()]
    } else {
        Vec::new()
    };
    Ok(reduced(red, out, dx))
}

// ---------------------------------------------------------------------------------------
// Regression and elementwise losses
// ---------------------------------------------------------------------------------------

/// Input and target broadcast (PyTorch warns when the sizes differ, but proceeds); the
/// unreduced loss has the broadcast shape.
fn broadcast_loss(ctx: &mut Ctx, red: Reduction) -> RuleResult {
    let (x, dx) = ctx.ranked(0, "input")?;
    let (t, _) = ctx.ranked(1, "target")?;
    let out = broadcast_dims(ctx, &x, &t)?;
    Ok(reduced(red, out, dx))
}

/// `F.mse_loss(input, target, size_average=None, reduce=None, reduction='mean')`: input and
/// target broadcast; the unreduced loss has the broadcast shape.
fn mse_loss(ctx: &mut Ctx) -> RuleResult {
    let red = reduction(ctx, red(2, 3, 4), false)?;
    broadcast_loss(ctx, red)
}

/// `F.l1_loss` / `F.smooth_l1_loss(input, target, size_average=None, reduce=None,
/// reduction='mean', ...)`: input and target broadcast.
fn l1_loss(ctx: &mut Ctx) -> RuleResult {
    let red = reduction(ctx, red(2, 3, 4), false)?;
    broadcast_loss(ctx, red)
}

/// `F.huber_loss(input, target, reduction='mean', delta=1.0)`: input and target broadcast.
fn huber_loss(ctx: &mut Ctx) -> RuleResult {
    let at = RedArgs {
        size_average: None,
        reduce: None,
        reduction: 2,
    };
    let red = reduction(ctx, at, false)?;
    broadcast_loss(ctx, red)
}

/// `F.poisson_nll_loss(input, target, log_input=True, full=False, size_average=None,
/// eps=1e-8, reduce=None, reduction='mean')`: input and target broadcast.
fn poisson_nll_loss(ctx: &mut Ctx) -> RuleResult {
    let red = reduction(ctx, red(4, 6, 7), false)?;
    broadcast_loss(ctx, red)
}

/// `F.kl_div(input, target, size_average=None, reduce=None, reduction='mean',
/// log_target=False)`: input and target broadcast; integer operands are rejected
/// ("Integral inputs not supported"); `'batchmean'` reduces too.
fn kl_div(ctx: &mut Ctx) -> RuleResult {
    let red = reduction(ctx, red(2, 3, 4), true)?;
    for (pos, name) in [(0, "input"), (1, "target")] {
        let dt = ctx.tensor(pos, name)?.dtype;
        if dt.is_some_and(|d| !d.is_floating()) {
            return invalid(format!(
                "{}: kl_div: Integral inputs not supported.",
                ctx.op
            ));
        }
    }
    broadcast_loss(ctx, red)
}

/// `F.soft_margin_loss(input, target, ...)`: the target broadcasts *to* the input's shape
/// (the result is written in the input's shape: "output with shape [..] doesn't match the
/// broadcast shape").
fn soft_margin_loss(ctx: &mut Ctx) -> RuleResult {
    let red = reduction(ctx, red(2, 3, 4), false)?;
    let (x, dx) = ctx.ranked(0, "input")?;
    let (t, _) = ctx.ranked(1, "target")?;
    let out = broadcast_dims(ctx, &x, &t)?;
    let msg = format!(
        "{}: output with shape {} doesn't match the broadcast shape {}",
        ctx.op,
        show(&x),
        show(&out)
    );
    require_same(ctx, &out, &x, msg)?;
    Ok(reduced(red, x, dx))
}

/// `F.binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None,
/// reduction='mean')`: the target must have exactly the input's shape ("Using a target size
/// that is different to the input size is deprecated" — an error now) and a floating dtype;
/// the weight must expand to that shape.
fn binary_cross_entropy(ctx: &mut Ctx) -> RuleResult {
    let (x, dx) = ctx.ranked(0, "input")?;
    let (t, dt) = ctx.ranked(1, "target")?;
    let weight = opt_dims(ctx, 2, "weight")?;
    let red = reduction(ctx, red(3, 4, 5), false)?;
    let msg = format!(
        "{}: Using a target size ({}) that is different to the input size ({}) is deprecated",
        ctx.op,
        show(&t),
        show(&x)
    );
    require_same(ctx, &t, &x, msg)?;
    if dt.is_some_and(|d| !d.is_floating()) {
        return invalid(format!("{}: Found dtype {dt:?} but expected Float", ctx.op));
    }
    if let Some(w) = weight {
        require_expands(ctx, &w, &x, "weight")?;
    }
    Ok(reduced(red, x, dx))
}

/// `F.binary_cross_entropy_with_logits(input, target, weight=None, size_average=None,
/// reduce=None, reduction='mean', pos_weight=None)`: the target must have the input's shape
/// ("Target size must be the same as input size") and a floating dtype; `weight` and
/// `pos_weight` broadcast with it.
fn binary_cross_entropy_with_logits(ctx: &mut Ctx) -> RuleResult {
    let (x, dx) = ctx.ranked(0, "input")?;
    let (t, dt) = ctx.ranked(1, "target")?;
    let weight = opt_dims(ctx, 2, "weight")?;
    let red = reduction(ctx, red(3, 4, 5), false)?;
    let pos_weight = opt_dims(ctx, 6, "pos_weight")?;
    let msg = format!(
        "{}: Target size ({}) must be the same as input size ({})",
        ctx.op,
        show(&t),
        show(&x)
    );
    require_same(ctx, &t, &x, msg)?;
    if dt.is_some_and(|d| !d.is_floating()) {
        return invalid(format!(
            "{}: result type Float can't be cast to the desired output type {dt:?}",
            ctx.op
        ));
    }
    let mut out = x;
    for w in [pos_weight, weight].into_iter().flatten() {
        out = broadcast_dims(ctx, &out, &w)?;
    }
    Ok(reduced(red, out, dx))
}

/// `F.gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction='mean')`: `var`
/// has the input's shape, or the input's shape without its last dim (a trailing dim of 1 is
/// added), or that shape with a last dim of 1 ("var is of incorrect size"); the unreduced
/// loss is the broadcast of input, target and var.
fn gaussian_nll_loss(ctx: &mut Ctx) -> RuleResult {
    let (x, dx) = ctx.ranked(0, "input")?;
    let (t, _) = ctx.ranked(1, "target")?;
    let (mut v, _) = ctx.ranked(2, "var")?;
    let at = RedArgs {
        size_average: None,
        reduce: None,
        reduction: 5,
    };
    let red = reduction(ctx, at, false)?;
    let msg = format!("{}: var is of incorrect size", ctx.op);
    if v.len() + 1 == x.len() {
        require_same(ctx, &v, &x[..x.len() - 1], msg)?;
        v.push(Dim::constant(1));
    } else if v.len() == x.len() && !x.is_empty() && v.last().and_then(Dim::as_const) == Some(1) {
        require_same(ctx, &v[..v.len() - 1], &x[..x.len() - 1], msg)?;
    } else if v.len() == x.len() && !x.is_empty() && v.last().and_then(Dim::as_const).is_none() {
        // A symbolic last dim of `var` may be 1 (one variance per row) or match the input.
        let eqs = |a: &[Dim], b: &[Dim]| -> Vec<Pred> {
            a.iter()
                .zip(b)
                .filter_map(|(p, q)| Some(Pred::Eq(p.expr()?.clone(), q.expr()?.clone())))
                .collect()
        };
        let n = x.len();
        let mut per_row = eqs(&v[..n - 1], &x[..n - 1]);
        if let Some(last) = v[n - 1].expr() {
            per_row.push(Pred::Eq(last.clone(), DimExpr::one()));
        }
        ctx.require(
            Pred::Or(vec![Pred::And(per_row), Pred::And(eqs(&v, &x))]),
            msg,
        )?;
        // The broadcast below relies on `var` being expandable: use the input's shape.
        v = x.clone();
    } else {
        require_same(ctx, &v, &x, msg)?;
    }
    let out = broadcast_dims(ctx, &x, &t)?;
    let out = broadcast_dims(ctx, &out, &v)?;
    Ok(reduced(red, out, dx))
}

// ---------------------------------------------------------------------------------------
// Pairwise and sequence losses
// ---------------------------------------------------------------------------------------

/// `F.cosine_embedding_loss(x1, x2, target, margin=0, ...)`: `x1`, `x2` `[N, D]` (or `[D]`)
/// broadcast; the target is `[N]` (`[]`); the unreduced loss has the target's shape.
fn cosine_embedding_loss(ctx: &mut Ctx) -> RuleResult {
    let (a, da) = ctx.ranked(0, "input1")?;
    let (b, _) = ctx.ranked(1, "input2")?;
    let (t, _) = ctx.ranked(2, "target")?;
    let red = reduction(ctx, red(4, 5, 6), false)?;
    let x = broadcast_dims(ctx, &a, &b)?;
    if x.is_empty() || x.len() > 2 || t.len() + 1 != x.len() {
        return invalid(format!(
            "{}: {}D target tensor expects {}D input tensors, but found inputs with sizes {} and {}",
            ctx.op,
            t.len(),
            t.len() + 1,
            show(&a),
            show(&b)
        ));
    }
    let out = broadcast_dims(ctx, &x[..x.len() - 1], &t)?;
    Ok(reduced(red, out, da))
}

/// `F.margin_ranking_loss(x1, x2, target, margin=0, ...)`: all three of the same rank ("All
/// input tensors should have same dimension"), broadcast together.
fn margin_ranking_loss(ctx: &mut Ctx) -> RuleResult {
    let (a, da) = ctx.ranked(0, "input1")?;
    let (b, _) = ctx.ranked(1, "input2")?;
    let (t, _) = ctx.ranked(2, "target")?;
    let red = reduction(ctx, red(4, 5, 6), false)?;
    if a.len() != b.len() || a.len() != t.len() {
        return invalid(format!(
            "{}: margin_ranking_loss : All input tensors should have same dimension but got sizes: input1: {}, input2: {}, target: {}",
            ctx.op,
            show(&a),
            show(&b),
            show(&t)
        ));
    }
    let out = broadcast_dims(ctx, &a, &b)?;
    let out = broadcast_dims(ctx, &out, &t)?;
    Ok(reduced(red, out, da))
}

/// `F.triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6,
/// swap=False, ...)`: the three have the same rank (1 or 2) and broadcast; distances drop
/// the last dim, so the unreduced loss is `[N]` (`[]`).
fn triplet_margin_loss(ctx: &mut Ctx) -> RuleResult {
    let (a, da) = ctx.ranked(0, "anchor")?;
    let (p, _) = ctx.ranked(1, "positive")?;
    let (n, _) = ctx.ranked(2, "negative")?;
    let red = reduction(ctx, red(7, 8, 9), false)?;
    if a.len() != p.len() || a.len() != n.len() || a.is_empty() || a.len() > 2 {
        return invalid(format!(
            "{}: The anchor, positive, and negative tensors are expected to have the same number of dimensions (1 or 2), but got: anchor {}D, positive {}D, and negative {}D inputs",
            ctx.op,
            a.len(),
            p.len(),
            n.len()
        ));
    }
    let out = broadcast_dims(ctx, &a, &p)?;
    let out = broadcast_dims(ctx, &out, &n)?;
    Ok(reduced(red, out[..out.len() - 1].to_vec(), da))
}

/// `F.ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0,
/// reduction='mean', zero_infinity=False)`: log_probs `(T, N, C)` or unbatched `(T, C)`;
/// the unreduced loss is `[N]` (`[]`). Batched, `input_lengths` and `target_lengths` (tensors
/// or sequences) hold one length per sequence ("input_lengths must be of size batch_size");
/// no input length exceeds `T` ("Expected input_lengths to have value at most T, but got
/// value v"), checked where the lengths' values are known. Targets against their lengths are
/// not checked.
fn ctc_loss(ctx: &mut Ctx) -> RuleResult {
    let (lp, dt) = ctx.ranked(0, "log_probs")?;
    if let (3, Some(t)) = (lp.len(), lp[0].expr()) {
        for (pos, name) in [(2, "input_lengths"), (3, "target_lengths")] {
            let Some((count, most)) = ctx.arg(pos, name).and_then(lengths_of) else {
                continue;
            };
            if let (Some(count), Some(n)) = (count, lp[1].expr()) {
                ctx.require_with(Pred::Eq(count, n.clone()), |cx| {
                    format!("{}: {name} must be of size batch_size", cx.op)
                })?;
            }
            // Only input lengths are bounded by the data here (by the time steps).
            if let Some(most) = most.filter(|_| name == "input_lengths") {
                ctx.require_with(Pred::Le(DimExpr::constant(most), t.clone()), |cx| {
                    format!(
                        "{}: Expected input_lengths to have value at most {t}, but got value {most}",
                        cx.op
                    )
                })?;
            }
        }
    }
    let at = RedArgs {
        size_average: None,
        reduce: None,
        reduction: 5,
    };
    let red = reduction(ctx, at, false)?;
    let out = match lp.len() {
        3 => vec![lp[1].clone()],
        2 => Vec::new(),
        n => {
            return invalid(format!(
                "{}: log_probs must be 2-D or 3-D, got {n}-D",
                ctx.op
            ))
        }
    };
    Ok(reduced(red, out, dt))
}

/// The number of lengths a CTC length argument holds and the largest of them, each when
/// known: a 1-d tensor (its known elements) or a sequence of ints.
fn lengths_of(v: &Value) -> Option<(Option<DimExpr>, Option<i64>)> {
    match v {
        Value::Tensor(t) => match t.shape.dims()? {
            [n] => Some((
                n.expr().cloned(),
                t.int_extremes(None).map(|(_, most)| most),
            )),
            _ => None,
        },
        Value::Tuple(items) | Value::List(items) => {
            let ints: Option<Vec<i64>> = items
                .iter()
                .map(|v| match v {
                    Value::Int(e) => e.as_const(),
                    _ => None,
                })
                .collect();
            let count = Some(DimExpr::constant(items.len() as i64));
            Some((count, ints.and_then(|i| i.into_iter().max())))
        }
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------
// Loss modules
// ---------------------------------------------------------------------------------------

/// `nn.XLoss(**kwargs)`: keeps the constructor's keyword arguments (`weight`, `reduction`,
/// `size_average`, `reduce`, `label_smoothing`, `pos_weight`, `log_target`, ...); positional
/// arguments are bound by each class's constructor order.
fn loss_init(ctx: &mut Ctx) -> RuleResult {
    let names: &[&str] = match ctx.op.rsplit('.').next().unwrap_or("") {
        "CrossEntropyLoss" | "NLLLoss" => &[
            "weight",
            "size_average",
            "ignore_index",
            "reduce",
            "reduction",
            "label_smoothing",
        ],
        "BCELoss" => &["weight", "size_average", "reduce", "reduction"],
        "BCEWithLogitsLoss" => &[
            "weight",
            "size_average",
            "reduce",
            "reduction",
            "pos_weight",
        ],
        "HuberLoss" => &["reduction", "delta"],
        "KLDivLoss" => &["size_average", "reduce", "reduction", "log_target"],
        _ => &["size_average", "reduce", "reduction"],
    };
    if ctx.args.len() > names.len() {
        return invalid(format!("{}: too many positional arguments", ctx.op));
    }
    let mut params: Vec<(&str, Value)> = Vec::new();
    for (name, v) in names.iter().zip(&ctx.args) {
        params.push((name, v.clone()));
    }
    let kwargs = ctx.kwargs.clone();
    for (k, v) in &kwargs {
        if let Some(name) = names.iter().find(|n| *n == k) {
            params.push((name, v.clone()));
        } else if k != "beta" && k != "eps" && k != "full" && k != "log_input" {
            return invalid(format!(
                "{}: __init__() got an unexpected keyword argument '{k}'",
                ctx.op
            ));
        }
    }
    let class = ctx.op.clone();
    Ok(module_value(&class, params))
}

/// Applies a loss module: its forward `(input, target)` is the functional form with the
/// module's stored arguments as keywords.
fn apply_module(ctx: &mut Ctx, f: fn(&mut Ctx) -> RuleResult) -> RuleResult {
    if ctx.args.len() < 2 && ctx.kwarg("target").is_none() {
        return invalid(format!(
            "{}: forward() missing 1 required positional argument: 'target'",
            ctx.op
        ));
    }
    ctx.args.truncate(2);
    if let Some(m) = &ctx.module {
        for (k, v) in &m.params {
            if ctx.kwarg(k).is_none() {
                ctx.kwargs.push((k.clone(), v.clone()));
            }
        }
    }
    f(ctx)
}

/// `nn.CrossEntropyLoss` forward: see [`cross_entropy`].
fn ce_module(ctx: &mut Ctx) -> RuleResult {
    apply_module(ctx, cross_entropy)
}

/// `nn.NLLLoss` forward: see [`nll_loss`].
fn nll_module(ctx: &mut Ctx) -> RuleResult {
    apply_module(ctx, nll_loss)
}

/// `nn.MSELoss` forward: see [`mse_loss`].
fn mse_module(ctx: &mut Ctx) -> RuleResult {
    apply_module(ctx, mse_loss)
}

/// `nn.L1Loss` / `nn.SmoothL1Loss` forward: see [`l1_loss`].
fn l1_module(ctx: &mut Ctx) -> RuleResult {
    apply_module(ctx, l1_loss)
}

/// `nn.HuberLoss` forward: see [`huber_loss`].
fn huber_module(ctx: &mut Ctx) -> RuleResult {
    apply_module(ctx, huber_loss)
}

/// `nn.BCELoss` forward: see [`binary_cross_entropy`].
fn bce_module(ctx: &mut Ctx) -> RuleResult {
    apply_module(ctx, binary_cross_entropy)
}

/// `nn.BCEWithLogitsLoss` forward: see [`binary_cross_entropy_with_logits`].
fn bce_logits_module(ctx: &mut Ctx) -> RuleResult {
    apply_module(ctx, binary_cross_entropy_with_logits)
}

/// `nn.KLDivLoss` forward: see [`kl_div`].
fn kl_module(ctx: &mut Ctx) -> RuleResult {
    apply_module(ctx, kl_div)
}
