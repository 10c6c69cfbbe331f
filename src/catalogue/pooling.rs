//! Operator rules: pooling (`MaxPoolNd`, `AvgPoolNd`, `LPPool`, adaptive pooling and their
//! functional forms). One generic N-d window function serves every dimensionality.

use super::common::require_non_empty;
use super::nd::{
    join_batch, module_value, ntuple, ntuple_arg, param_tuple, show, spatial_rank, split_batch,
    tuple_value,
};
use super::{int_of, invalid, tensor_out, Ctx, Rule, RuleError, RuleResult};
use crate::shapes::dim::DimExpr;
use crate::shapes::kind::{Declared, FindingKind};
use crate::shapes::requirement::Pred;
use crate::shapes::shape::{Dim, Shape};
use crate::shapes::value::{DType, Value};

/// What this family's failures are, unless a rule or a check declares otherwise.
pub const KIND: FindingKind = FindingKind::EmptyOutput;

pub const RULES: &[Rule] = &[
    Rule::module("torch.nn.MaxPool1d", pool_init, pool_forward),
    Rule::module("torch.nn.MaxPool2d", pool_init, pool_forward),
    Rule::module("torch.nn.MaxPool3d", pool_init, pool_forward),
    Rule::module("torch.nn.AvgPool1d", pool_init, pool_forward),
    Rule::module("torch.nn.AvgPool2d", pool_init, pool_forward),
    Rule::module("torch.nn.AvgPool3d", pool_init, pool_forward),
    Rule::module("torch.nn.LPPool1d", pool_init, pool_forward),
    Rule::module("torch.nn.LPPool2d", pool_init, pool_forward),
    Rule::function("torch.nn.functional.max_pool1d", pool_functional),
    Rule::function("torch.nn.functional.max_pool2d", pool_functional),
    Rule::function("torch.nn.functional.max_pool3d", pool_functional),
    Rule::function(
        "torch.nn.functional.max_pool2d_with_indices",
        pool_functional,
    ),
    Rule::function("torch.nn.functional.avg_pool1d", pool_functional),
    Rule::function("torch.nn.functional.avg_pool2d", pool_functional),
    Rule::function("torch.nn.functional.avg_pool3d", pool_functional),
    Rule::function("torch.nn.functional.lp_pool1d", pool_functional),
    Rule::function("torch.nn.functional.lp_pool2d", pool_functional),
    Rule::module(
        "torch.nn.AdaptiveAvgPool1d",
        adaptive_init,
        adaptive_forward,
    ),
    Rule::module(
        "torch.nn.AdaptiveAvgPool2d",
        adaptive_init,
        adaptive_forward,
    ),
    Rule::module(
        "torch.nn.AdaptiveAvgPool3d",
        adaptive_init,
        adaptive_forward,
    ),
    Rule::module(
        "torch.nn.AdaptiveMaxPool1d",
        adaptive_init,
        adaptive_forward,
    ),
    Rule::module(
        "torch.nn.AdaptiveMaxPool2d",
        adaptive_init,
        adaptive_forward,
    ),
    Rule::module(
        "torch.nn.AdaptiveMaxPool3d",
        adaptive_init,
        adaptive_forward,
    ),
    Rule::function(
        "torch.nn.functional.adaptive_avg_pool1d",
        adaptive_functional,
    ),
    Rule::function(
        "torch.nn.functional.adaptive_avg_pool2d",
        adaptive_functional,
    ),
    Rule::function(
        "torch.nn.functional.adaptive_avg_pool3d",
        adaptive_functional,
    ),
    Rule::function(
        "torch.nn.functional.adaptive_max_pool1d",
        adaptive_functional,
    ),
    Rule::function(
        "torch.nn.functional.adaptive_max_pool2d",
        adaptive_functional,
    ),
    Rule::function(
        "torch.nn.functional.adaptive_max_pool3d",
        adaptive_functional,
    ),
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum PoolKind {
    Max,
    Avg,
    Lp,
}

fn pool_kind(op: &str) -> PoolKind {
    let last = op.rsplit('.').next().unwrap_or(op).to_ascii_lowercase();
    if last.contains("max") {
        PoolKind::Max
    } else if last.starts_with("lp") {
        PoolKind::Lp
    } else {
        PoolKind::Avg
    }
}

/// Window hyperparameters of one N-d pooling.
struct Window {
    kernel: Vec<DimExpr>,
    stride: Vec<DimExpr>,
    padding: Vec<DimExpr>,
    dilation: Vec<DimExpr>,
    ceil_mode: bool,
    return_indices: bool,
}

/// Argument positions after the input (functional) or from 0 (module): kernel, stride,
/// padding, dilation, ceil_mode, return_indices (`usize::MAX` when absent).
fn positions(kind: PoolKind, offset: usize, functional: bool) -> [usize; 6] {
    let none = usize::MAX;
    let p = |i: usize| i + offset;
    match kind {
        PoolKind::Max if functional => [p(0), p(1), p(2), p(3), p(4), p(5)],
        PoolKind::Max => [p(0), p(1), p(2), p(3), p(5), p(4)],
        PoolKind::Avg => [p(0), p(1), p(2), none, p(3), none],
        PoolKind::Lp => [p(1), p(2), none, none, p(3), none],
    }
}

fn read_window(ctx: &Ctx, n: usize, offset: usize, functional: bool) -> Result<Window, RuleError> {
    let op = &ctx.op;
    let [k, s, p, d, c, r] = positions(pool_kind(op), offset, functional);
    let kernel = match ctx.arg(k, "kernel_size") {
        Some(v) => ntuple(op, "kernel_size", v, n)?,
        None => return invalid(format!("{op}: missing argument 'kernel_size'")),
    };
    let stride = match ctx.arg(s, "stride") {
        None | Some(Value::None) => kernel.clone(),
        Some(v) if v.elements().is_some_and(|e| e.is_empty()) => kernel.clone(),
        Some(v) => ntuple(op, "stride", v, n)?,
    };
    Ok(Window {
        kernel,
        stride,
        padding: ntuple_arg(ctx, p, "padding", n, 0)?,
        dilation: ntuple_arg(ctx, d, "dilation", n, 1)?,
        ceil_mode: ctx.bool_or(c, "ceil_mode", false)?,
        return_indices: ctx.bool_or(r, "return_indices", false)?,
    })
}

/// `nn.MaxPoolNd(kernel_size, stride=None, padding=0, dilation=1, return_indices=False,
/// ceil_mode=False)`, `nn.AvgPoolNd(kernel_size, stride=None, padding=0, ceil_mode=False,
/// count_include_pad=True, divisor_override=None)`, `nn.LPPoolNd(norm_type, kernel_size,
/// stride=None, ceil_mode=False)`: ints or tuples, `stride` defaults to the kernel.
fn pool_init(ctx: &mut Ctx) -> RuleResult {
    let n = spatial_rank(&ctx.op);
    let w = read_window(ctx, n, 0, false)?;
    Ok(module_value(
        ctx,
        vec![
            ("kernel_size", tuple_value(&w.kernel)),
            ("stride", tuple_value(&w.stride)),
            ("padding", tuple_value(&w.padding)),
            ("dilation", tuple_value(&w.dilation)),
            ("ceil_mode", Value::Bool(Some(w.ceil_mode))),
            ("return_indices", Value::Bool(Some(w.return_indices))),
        ],
    ))
}

/// `pool(x)`: see [`pool_shape`].
fn pool_forward(ctx: &mut Ctx) -> RuleResult {
    let n = spatial_rank(&ctx.op);
    let flag = |ctx: &Ctx, name: &str| matches!(ctx.param(name), Some(Value::Bool(Some(true))));
    let w = Window {
        kernel: param_tuple(ctx, "kernel_size", n)?,
        stride: param_tuple(ctx, "stride", n)?,
        padding: param_tuple(ctx, "padding", n)?,
        dilation: param_tuple(ctx, "dilation", n)?,
        ceil_mode: flag(ctx, "ceil_mode"),
        return_indices: flag(ctx, "return_indices"),
    };
    pool_shape(ctx, n, &w)
}

/// `F.max_poolNd(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
/// return_indices=False)`, `F.avg_poolNd(input, kernel_size, stride=None, padding=0,
/// ceil_mode=False, ...)`, `F.lp_poolNd(input, norm_type, kernel_size, stride=None,
/// ceil_mode=False)`, `F.max_pool2d_with_indices` (always a tuple): see [`pool_shape`].
fn pool_functional(ctx: &mut Ctx) -> RuleResult {
    let n = spatial_rank(ctx.op.trim_end_matches("_with_indices"));
    let mut w = read_window(ctx, n, 1, true)?;
    w.return_indices |= ctx.op.ends_with("_with_indices");
    pool_shape(ctx, n, &w)
}

/// The generic N-d pooling window. Input `[C, *L]` or `[N, C, *L]` with every non-batch dim
/// non-empty; positive kernel, stride and dilation; padding at most half the (effective) kernel
/// ("pad should be at most half of effective kernel size"); `out = (L + 2p - dil*(k-1) - 1 +
/// (ceil ? stride-1 : 0)) // stride + 1`, and with `ceil_mode` the last window must start
/// inside the input or the left padding (`out <= (L + p - 1) // stride + 1`); every output
/// size must be ≥ 1 ("Output size is too small"). 3-d average pooling also needs every
/// spatial size to be at least the kernel ("input image smaller than kernel size"). Max pooling with `return_indices` gives an
/// (output, int64 indices) tuple.
fn pool_shape(ctx: &mut Ctx, n: usize, w: &Window) -> RuleResult {
    let op = ctx.op.clone();
    let kind = pool_kind(&op);
    let (x, dtype) = ctx.ranked(0, "input")?;
    let (batch, c, spatial) = split_batch(&x, n, || {
        format!(
            "{op}: Expected {}D or {}D (batch mode) tensor for input, but got: {}",
            n + 1,
            n + 2,
            Shape::Ranked(x.clone())
        )
    })?;
    for (what, vals) in [
        ("kernel_size", &w.kernel),
        ("stride", &w.stride),
        ("dilation", &w.dilation),
    ] {
        for v in vals {
            ctx.require_with(Pred::Lt(DimExpr::zero(), v.clone()), |_| {
                format!("{op}: {what} should be greater than zero, but got {what}: {v}")
            })?;
        }
    }
    for i in 0..n {
        let (k, p, d) = (&w.kernel[i], &w.padding[i], &w.dilation[i]);
        ctx.require_with(Pred::Le(DimExpr::zero(), p.clone()), |_| {
            format!("{op}: pad must be non-negative, but got pad: {p}")
        })?;
        // max_pool1d compares with the kernel itself, the others with the dilated one.
        let eff = if kind == PoolKind::Max && n > 1 {
            d.mul(&k.add_const(-1)).add_const(1)
        } else {
            k.clone()
        };
        ctx.require_with_as(
            Declared::Specific(FindingKind::EmptyOutput),
            Pred::Le(p.mul_const(2), eff),
            |_| {
                format!(
                    "{op}: pad should be at most half of effective kernel size, but got pad={p}, \
                 kernel_size={k} and dilation={d}"
                )
            },
        )?;
    }
    // Every non-batch dim, channels included, must be non-empty ("with optional 0 dim batch
    // size").
    require_non_empty(ctx, &x[x.len() - n - 1..], |_| {
        format!(
            "{op}: Expected {}D or {}D (batch mode) tensor with optional 0 dim batch size for \
             input, but got: {}",
            n + 1,
            n + 2,
            Shape::Ranked(x.clone())
        )
    })?;
    let mut out = Vec::new();
    for (i, l) in spatial.iter().enumerate() {
        let Some(l) = l.expr() else {
            out.push(Dim::Dyn);
            continue;
        };
        let (k, s, p) = (&w.kernel[i], &w.stride[i], &w.padding[i]);
        if kind == PoolKind::Avg && n == 3 {
            ctx.require_with(Pred::Le(k.clone(), l.clone()), |_| {
                format!("{op}: input image smaller than kernel size ({l} < {k})")
            })?;
        }
        let d = if kind == PoolKind::Max {
            w.dilation[i].clone()
        } else {
            DimExpr::one()
        };
        let span = l
            .add(&p.mul_const(2))
            .sub(&d.mul(&k.add_const(-1)))
            .add_const(-1);
        let o = if w.ceil_mode {
            let up = span.add(s).add_const(-1).floordiv(s).add_const(1);
            let last_start = l.add(p).add_const(-1).floordiv(s).add_const(1);
            up.minimum(&last_start)
        } else {
            span.floordiv(s).add_const(1)
        };
        out.push(Dim::Known(o));
    }
    let sizes: Vec<DimExpr> = out.iter().filter_map(Dim::expr).cloned().collect();
    let ins: Vec<DimExpr> = [c.clone()]
        .iter()
        .chain(&spatial)
        .filter_map(Dim::expr)
        .cloned()
        .collect();
    for o in &sizes {
        ctx.require_with_as(
            Declared::Specific(FindingKind::EmptyOutput),
            Pred::Le(DimExpr::one(), o.clone()),
            |_| {
                format!(
                "{op}: Given input size: ({}). Calculated output size: ({}). Output size is too \
                 small",
                show(&ins, "x"),
                show(&sizes, "x")
            )
            },
        )?;
    }
    let dims = join_batch(batch, c, out);
    if w.return_indices && kind == PoolKind::Max {
        return Ok(Value::Tuple(vec![
            tensor_out(dims.clone(), dtype),
            tensor_out(dims, Some(DType::Int)),
        ]));
    }
    Ok(tensor_out(dims, dtype))
}

/// `nn.AdaptiveAvgPoolNd(output_size)`, `nn.AdaptiveMaxPoolNd(output_size,
/// return_indices=False)`: the output size is stored as given (int, tuple with `None`
/// entries meaning "keep the input size").
fn adaptive_init(ctx: &mut Ctx) -> RuleResult {
    let Some(size) = ctx.arg(0, "output_size").cloned() else {
        return invalid(format!("{}: missing argument 'output_size'", ctx.op));
    };
    let ri = ctx.bool_or(1, "return_indices", false)?;
    Ok(module_value(
        ctx,
        vec![
            ("output_size", size),
            ("return_indices", Value::Bool(Some(ri))),
        ],
    ))
}

/// `pool(x)` for the adaptive modules: see [`adaptive_shape`].
fn adaptive_forward(ctx: &mut Ctx) -> RuleResult {
    let size = ctx.param("output_size").cloned().unwrap_or(Value::None);
    let ri = matches!(ctx.param("return_indices"), Some(Value::Bool(Some(true))));
    adaptive_shape(ctx, &size, ri)
}

/// `F.adaptive_avg_poolNd(input, output_size)`, `F.adaptive_max_poolNd(input, output_size,
/// return_indices=False)`: see [`adaptive_shape`].
fn adaptive_functional(ctx: &mut Ctx) -> RuleResult {
    let Some(size) = ctx.arg(1, "output_size").cloned() else {
        return invalid(format!("{}: missing argument 'output_size'", ctx.op));
    };
    let ri = ctx.bool_or(2, "return_indices", false)?;
    adaptive_shape(ctx, &size, ri)
}

/// Adaptive pooling to `output_size`: an int (repeated N times) or an N-tuple whose `None`
/// entries keep the input size (a tuple needs rank ≥ len + 1: "Input dimension should be at
/// least .."); sizes ≥ 0. Input `[C, *L]` or `[N, C, *L]` with non-empty non-batch dims.
/// Average pooling to all ones is a mean over the last N dims of any input of rank ≥ N. Max
/// pooling with `return_indices` gives an (output, indices) tuple.
fn adaptive_shape(ctx: &mut Ctx, size: &Value, return_indices: bool) -> RuleResult {
    let op = ctx.op.clone();
    let n = spatial_rank(&op);
    let max = pool_kind(&op) == PoolKind::Max;
    let (x, dtype) = ctx.ranked(0, "input")?;
    let mut want: Vec<Option<DimExpr>> = match size {
        Value::None => {
            return invalid(format!(
                "{op}: argument 'output_size' must be tuple of ints, not NoneType"
            ))
        }
        v => match v.elements() {
            Some(items) => {
                if x.len() < items.len() + 1 {
                    return invalid(format!(
                        "{op}: Input dimension should be at least {}",
                        items.len() + 1
                    ));
                }
                items
                    .iter()
                    .map(|i| match i {
                        Value::None => Ok(None),
                        other => int_of(&op, "output_size", other).map(Some),
                    })
                    .collect::<Result<_, _>>()?
            }
            None => vec![Some(int_of(&op, "output_size", v)?); n],
        },
    };
    if want.len() != n {
        return invalid(format!("{op}: output_size must be {n}"));
    }
    let ones = want
        .iter()
        .all(|w| w.as_ref().and_then(DimExpr::as_const) == Some(1));
    let rank_ok = if n == 1 {
        x.len() == 2 || x.len() == 3
    } else {
        x.len() >= n
    };
    if !max && ones && rank_ok {
        let mut out = x[..x.len() - n].to_vec();
        out.extend(std::iter::repeat_n(Dim::constant(1), n));
        return Ok(tensor_out(out, dtype));
    }
    let (batch, c, spatial) = split_batch(&x, n, || {
        format!(
            "{op}: Expected {}D or {}D tensor, but got {}",
            n + 1,
            n + 2,
            Shape::Ranked(x.clone())
        )
    })?;
    for (i, w) in want.iter_mut().enumerate() {
        if w.is_none() {
            *w = spatial[i].expr().cloned();
        }
    }
    require_non_empty(ctx, &x[x.len() - n - 1..], |_| {
        format!(
            "{op}: Expected input to have non-zero size for non-batch dimensions, but input has \
             sizes {}",
            Shape::Ranked(x.clone())
        )
    })?;
    let mut out = Vec::new();
    for w in want {
        match w {
            Some(e) => {
                ctx.require_with(Pred::Le(DimExpr::zero(), e.clone()), |_| {
                    format!(
                        "{op}: elements of output_size must be greater than or equal to 0 but \
                         received {e}"
                    )
                })?;
                out.push(Dim::Known(e));
            }
            None => out.push(Dim::Dyn),
        }
    }
    let dims = join_batch(batch, c, out);
    if max && return_indices {
        return Ok(Value::Tuple(vec![
            tensor_out(dims.clone(), dtype),
            tensor_out(dims, Some(DType::Int)),
        ]));
    }
    Ok(tensor_out(dims, dtype))
}
