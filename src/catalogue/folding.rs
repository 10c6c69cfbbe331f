//! Operator rules: sliding blocks — `nn.Unfold`/`F.unfold` (im2col: every kernel-sized block
//! of a 2-d input as a column) and its inverse `nn.Fold`/`F.fold` (col2im). Patch-based models
//! (TNT's pixel embedding, local attention) cut images into patches with them.

use super::common::require_non_empty;
use super::nd::{module_value, ntuple, param_tuple, show, tuple_value};
use super::{invalid, tensor_out, Ctx, Rule, RuleError, RuleResult};
use crate::shapes::dim::DimExpr;
use crate::shapes::kind::FindingKind;
use crate::shapes::requirement::Pred;
use crate::shapes::shape::{Dim, Shape};
use crate::shapes::value::{DType, Value};

/// What this family's failures are, unless a rule or a check declares otherwise.
pub const KIND: FindingKind = FindingKind::ShapeMismatch;

pub const RULES: &[Rule] = &[
    Rule::module("torch.nn.Unfold", unfold_init, unfold_forward),
    Rule::module("torch.nn.Fold", fold_init, fold_forward),
    Rule::function("torch.nn.functional.unfold", unfold_functional),
    Rule::function("torch.nn.functional.fold", fold_functional),
];

/// Block geometry: two entries each (only 2-d spatial inputs are supported by PyTorch).
struct Blocks {
    kernel: Vec<DimExpr>,
    dilation: Vec<DimExpr>,
    padding: Vec<DimExpr>,
    stride: Vec<DimExpr>,
}

/// A pair argument: an int, or exactly two ints ("It is expected kernel_size equals to 2").
fn pair(
    ctx: &Ctx,
    pos: usize,
    name: &str,
    default: Option<i64>,
) -> Result<Vec<DimExpr>, RuleError> {
    match (ctx.arg(pos, name), default) {
        (None, None) => invalid(format!("{}: missing argument '{name}'", ctx.op)),
        (None, Some(d)) => Ok(vec![DimExpr::constant(d); 2]),
        (Some(v), _) => match v.elements() {
            Some(items) if items.len() != 2 => invalid(format!(
                "{}: It is expected {name} equals to 2, but got size {}",
                ctx.op,
                items.len()
            )),
            _ => ntuple(&ctx.op, name, v, 2),
        },
    }
}

/// `kernel_size, dilation=1, padding=0, stride=1` from position `at`.
fn read_blocks(ctx: &Ctx, at: usize) -> Result<Blocks, RuleError> {
    Ok(Blocks {
        kernel: pair(ctx, at, "kernel_size", None)?,
        dilation: pair(ctx, at + 1, "dilation", Some(1))?,
        padding: pair(ctx, at + 2, "padding", Some(0))?,
        stride: pair(ctx, at + 3, "stride", Some(1))?,
    })
}

fn stored_blocks(ctx: &Ctx) -> Result<Blocks, RuleError> {
    Ok(Blocks {
        kernel: param_tuple(ctx, "kernel_size", 2)?,
        dilation: param_tuple(ctx, "dilation", 2)?,
        padding: param_tuple(ctx, "padding", 2)?,
        stride: param_tuple(ctx, "stride", 2)?,
    })
}

fn block_params(b: &Blocks) -> Vec<(&'static str, Value)> {
    vec![
        ("kernel_size", tuple_value(&b.kernel)),
        ("dilation", tuple_value(&b.dilation)),
        ("padding", tuple_value(&b.padding)),
        ("stride", tuple_value(&b.stride)),
    ]
}

/// `nn.Unfold(kernel_size, dilation=1, padding=0, stride=1)`.
fn unfold_init(ctx: &mut Ctx) -> RuleResult {
    let b = read_blocks(ctx, 0)?;
    Ok(module_value(ctx, block_params(&b)))
}

/// `nn.Fold(output_size, kernel_size, dilation=1, padding=0, stride=1)`.
fn fold_init(ctx: &mut Ctx) -> RuleResult {
    let size = pair(ctx, 0, "output_size", None)?;
    let b = read_blocks(ctx, 1)?;
    let mut params = block_params(&b);
    params.push(("output_size", tuple_value(&size)));
    Ok(module_value(ctx, params))
}

fn unfold_forward(ctx: &mut Ctx) -> RuleResult {
    let b = stored_blocks(ctx)?;
    unfold_shape(ctx, &b)
}

fn fold_forward(ctx: &mut Ctx) -> RuleResult {
    let size = param_tuple(ctx, "output_size", 2)?;
    let b = stored_blocks(ctx)?;
    fold_shape(ctx, &size, &b)
}

/// `F.unfold(input, kernel_size, dilation=1, padding=0, stride=1)`.
fn unfold_functional(ctx: &mut Ctx) -> RuleResult {
    let b = read_blocks(ctx, 1)?;
    unfold_shape(ctx, &b)
}

/// `F.fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1)`.
fn fold_functional(ctx: &mut Ctx) -> RuleResult {
    let size = pair(ctx, 1, "output_size", None)?;
    let b = read_blocks(ctx, 2)?;
    fold_shape(ctx, &size, &b)
}

/// Positive kernel, dilation and stride, non-negative padding, as im2col/col2im check them.
fn check_geometry(ctx: &mut Ctx, b: &Blocks) -> Result<(), RuleError> {
    for (what, vals, strict) in [
        ("kernel size", &b.kernel, true),
        ("dilation", &b.dilation, true),
        ("stride", &b.stride, true),
        ("padding", &b.padding, false),
    ] {
        for v in vals {
            let (pred, should) = if strict {
                (Pred::Lt(DimExpr::zero(), v.clone()), "be greater than zero")
            } else {
                (Pred::Le(DimExpr::zero(), v.clone()), "be non-negative")
            };
            ctx.require_with(pred, |cx| {
                format!(
                    "{}: {what} should {should}, but got {}",
                    cx.op,
                    show(vals, ", ")
                )
            })?;
        }
    }
    Ok(())
}

/// Blocks along each spatial dim: `(size + 2p - d(k-1) - 1) // s + 1`, each at least one
/// ("calculated shape of the array of sliding blocks ... must be at least one").
fn block_counts(ctx: &mut Ctx, sizes: &[DimExpr], b: &Blocks) -> Result<Vec<DimExpr>, RuleError> {
    let counts: Vec<DimExpr> = (0..2)
        .map(|i| {
            sizes[i]
                .add(&b.padding[i].mul_const(2))
                .sub(&b.dilation[i].mul(&b.kernel[i].add_const(-1)))
                .add_const(-1)
                .floordiv(&b.stride[i])
                .add_const(1)
        })
        .collect();
    for c in &counts {
        ctx.require_with(Pred::Le(DimExpr::one(), c.clone()), |cx| {
            format!(
                "{}: Given input with spatial size ({}), kernel_size=({}), calculated shape of the \
                 array of sliding blocks as ({}), but its components must be at least one.",
                cx.op,
                show(sizes, ", "),
                show(&b.kernel, ", "),
                show(&counts, ", ")
            )
        })?;
    }
    Ok(counts)
}

/// The input of unfold/fold: `dims` dims, or one more for a batch (PyTorch has one message
/// for a wrong rank and for an empty non-batch dim), after the block geometry is checked.
/// Returns the dims, the dtype and where the non-batch dims start.
fn blocked_input(
    ctx: &mut Ctx,
    b: &Blocks,
    dims: usize,
    expected: &str,
) -> Result<(Vec<Dim>, Option<DType>, usize), RuleError> {
    let (x, dtype) = ctx.ranked(0, "input")?;
    let message = |cx: &Ctx| {
        format!(
            "{}: {expected}, but got: {}",
            cx.op,
            Shape::Ranked(x.clone())
        )
    };
    if x.len() != dims && x.len() != dims + 1 {
        return invalid(message(ctx));
    }
    check_geometry(ctx, b)?;
    let first = x.len() - dims;
    require_non_empty(ctx, &x[first..], message)?;
    Ok((x, dtype, first))
}

/// Input `[N, C, H, W]` or `[C, H, W]` → `[N, C*kh*kw, L]` or `[C*kh*kw, L]`, `L` the number
/// of blocks.
fn unfold_shape(ctx: &mut Ctx, b: &Blocks) -> RuleResult {
    let expected = "Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other \
                    non-zero dimensions for input";
    let (x, dtype, first) = blocked_input(ctx, b, 3, expected)?;
    let (c, spatial) = (&x[first], &x[first + 1..]);
    let columns = match c.expr() {
        Some(c) => Dim::Known(c.mul(&b.kernel[0]).mul(&b.kernel[1])),
        None => Dim::Dyn,
    };
    let blocks = match (spatial[0].expr(), spatial[1].expr()) {
        (Some(h), Some(w)) => {
            let counts = block_counts(ctx, &[h.clone(), w.clone()], b)?;
            Dim::Known(counts[0].mul(&counts[1]))
        }
        _ => Dim::Dyn,
    };
    let mut out = x[..first].to_vec();
    out.extend([columns, blocks]);
    Ok(tensor_out(out, dtype))
}

/// Input `[N, C*kh*kw, L]` or `[C*kh*kw, L]` → `[N, C, oh, ow]` or `[C, oh, ow]`: the column
/// dim divisible by the kernel's size, `L` equal to the number of blocks `output_size` holds.
fn fold_shape(ctx: &mut Ctx, size: &[DimExpr], b: &Blocks) -> RuleResult {
    let expected = "Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size \
                    and non-zero dimensions for input";
    let (x, dtype, first) = blocked_input(ctx, b, 2, expected)?;
    let area = b.kernel[0].mul(&b.kernel[1]);
    let channels = match x[first].expr() {
        Some(cols) => {
            ctx.require_with(Pred::Divides(area.clone(), cols.clone()), |cx| {
                format!(
                    "{}: Expected size of input's dimension {} to be divisible by the product of \
                     kernel_size, but got input.size({})={cols} and kernel_size=({}).",
                    cx.op,
                    first,
                    first,
                    show(&b.kernel, ", ")
                )
            })?;
            Dim::Known(cols.floordiv(&area))
        }
        None => Dim::Dyn,
    };
    let counts = block_counts(ctx, size, b)?;
    if let Some(l) = x[first + 1].expr() {
        let want = counts[0].mul(&counts[1]);
        ctx.require_with(Pred::Eq(l.clone(), want.clone()), |cx| {
            format!(
                "{}: Given output_size=({}), kernel_size=({}), expected size of input's \
                 dimension {} to match the calculated number of sliding blocks {} = {want}, but \
                 got input.size({})={l}.",
                cx.op,
                show(size, ", "),
                show(&b.kernel, ", "),
                first + 1,
                show(&counts, " * "),
                first + 1
            )
        })?;
    }
    let mut out = x[..first].to_vec();
    out.push(channels);
    out.extend(size.iter().cloned().map(Dim::Known));
    Ok(tensor_out(out, dtype))
}
