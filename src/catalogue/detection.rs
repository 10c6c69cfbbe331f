//! Operator rules: torchvision's box operations (`torchvision.ops`), which detection heads
//! and their post-processing call on `[N, 4]` boxes. (See `catalogue/mod.rs` for the
//! conventions.) `nms` keeps a number of boxes only the data decides: its result's length
//! is unknown, never a guess.

use super::invalid_as;
use super::{invalid, tensor_out, unsupported, Ctx, Rule, RuleResult};
use crate::shapes::dim::DimExpr;
use crate::shapes::kind::{Declared, FindingKind};
use crate::shapes::requirement::Pred;
use crate::shapes::shape::Dim;
use crate::shapes::value::{DType, Value};

/// What this family's failures are, unless a rule or a check declares otherwise.
pub const KIND: FindingKind = FindingKind::ShapeMismatch;

pub const RULES: &[Rule] = &[
    Rule::function("torchvision.ops.nms", nms),
    Rule::function("torchvision.ops.batched_nms", batched_nms),
    Rule::function("torchvision.ops.box_area", box_area),
    Rule::function("torchvision.ops.box_iou", box_iou),
    Rule::function("torchvision.ops.roi_align", roi_pooling),
    Rule::function("torchvision.ops.roi_pool", roi_pooling).finding(FindingKind::EmptyOutput),
    Rule::function("torchvision.ops.ps_roi_align", ps_roi_pooling),
    Rule::function("torchvision.ops.ps_roi_pool", ps_roi_pooling),
    Rule::module("torchvision.ops.RoIAlign", roi_init, roi_forward),
    Rule::module("torchvision.ops.RoIPool", roi_init, roi_forward)
        .finding(FindingKind::EmptyOutput),
    Rule::module("torchvision.ops.PSRoIAlign", roi_init, roi_forward),
    Rule::module("torchvision.ops.PSRoIPool", roi_init, roi_forward),
];

/// The kernel's checks on `boxes [N, 4]` and `scores [N]` (`nms_kernel.cpp`): "boxes should
/// be a 2d tensor, got 1D", "boxes should have 4 elements in dimension 1, got 3", "scores
/// should be a 1d tensor, got 2D", "boxes and scores should have same number of elements in
/// dimension 0, got 5 and 6". `guard`: the checks only apply when it does not hold
/// (`batched_nms` returns early on empty boxes).
fn nms_checks(ctx: &mut Ctx, guard: Option<Pred>) -> Result<(), super::RuleError> {
    let (boxes, _) = ctx.ranked(0, "boxes")?;
    if boxes.len() != 2 {
        return invalid(format!(
            "{}: boxes should be a 2d tensor, got {}D",
            ctx.op,
            boxes.len()
        ));
    }
    let (scores, _) = ctx.ranked(1, "scores")?;
    let guarded = |p: Pred| match &guard {
        Some(g) => Pred::Or(vec![g.clone(), p]),
        None => p,
    };
    if let Dim::Known(four) = &boxes[1] {
        let op = ctx.op.clone();
        ctx.require_with(
            guarded(Pred::Eq(four.clone(), DimExpr::constant(4))),
            |_| format!("{op}: boxes should have 4 elements in dimension 1, got {four}"),
        )?;
    }
    if scores.len() != 1 {
        if guard.is_some() {
            return unsupported(format!("{}: scores of rank {}", ctx.op, scores.len()));
        }
        return invalid(format!(
            "{}: scores should be a 1d tensor, got {}D",
            ctx.op,
            scores.len()
        ));
    }
    if let (Dim::Known(n), Dim::Known(m)) = (&boxes[0], &scores[0]) {
        let op = ctx.op.clone();
        ctx.require_with(guarded(Pred::Eq(n.clone(), m.clone())), |_| {
            format!(
                "{op}: boxes and scores should have same number of elements in dimension 0, got {n} and {m}"
            )
        })?;
    }
    Ok(())
}

/// The indices an NMS keeps: int64, as many as the data lets through.
/// The kept indices: at most one per box.
fn kept(ctx: &mut Ctx) -> RuleResult {
    let (boxes, _) = ctx.ranked(0, "boxes")?;
    let n = ctx.fresh("kept", boxes.first());
    Ok(tensor_out(vec![Dim::Known(n)], Some(DType::Int)))
}

/// `torchvision.ops.nms(boxes [N, 4], scores [N], iou_threshold)` → the kept indices
/// `[K]` (int64, K data-dependent).
fn nms(ctx: &mut Ctx) -> RuleResult {
    nms_checks(ctx, None)?;
    kept(ctx)
}

/// `torchvision.ops.batched_nms(boxes [N, 4], scores [N], idxs [N], iou_threshold)`: empty
/// boxes return at once; otherwise the boxes reach the `nms` kernel (offset per class, or
/// one class at a time) with its checks.
fn batched_nms(ctx: &mut Ctx) -> RuleResult {
    let (boxes, _) = ctx.ranked(0, "boxes")?;
    let Dim::Known(numel) = Dim::product(&boxes) else {
        return unsupported(format!("{}: boxes of unknown size", ctx.op));
    };
    if boxes.len() != 2 {
        return unsupported(format!("{}: boxes of rank {}", ctx.op, boxes.len()));
    }
    nms_checks(ctx, Some(Pred::Eq(numel, DimExpr::zero())))?;
    kept(ctx)
}

/// The last dim of `boxes` holds `x1, y1, x2, y2`, read at indices 0 to 3 ("index 3 is
/// out of bounds for dimension 1 with size 3"; a size below 3 fails first at index 2).
fn require_box_coords(ctx: &mut Ctx, boxes: &[Dim], what: &str) -> Result<(), super::RuleError> {
    let Some(last) = boxes.last() else {
        return invalid(format!("{}: {what} is 0-d", ctx.op));
    };
    if let Dim::Known(n) = last {
        let (op, d) = (ctx.op.clone(), boxes.len() - 1);
        ctx.require_with(Pred::Le(DimExpr::constant(4), n.clone()), |_| {
            format!("{op}: index 3 is out of bounds for dimension {d} with size {n}")
        })?;
    }
    Ok(())
}

/// `torchvision.ops.box_area(boxes [..., 4])` → `boxes.shape[:-1]`.
fn box_area(ctx: &mut Ctx) -> RuleResult {
    let (boxes, dt) = ctx.ranked(0, "boxes")?;
    require_box_coords(ctx, &boxes, "boxes")?;
    Ok(tensor_out(boxes[..boxes.len() - 1].to_vec(), dt))
}

/// `torchvision.ops.box_iou(boxes1 [N, 4], boxes2 [M, 4])` → `[N, M]` (other ranks: not
/// modelled, as older releases reject them).
fn box_iou(ctx: &mut Ctx) -> RuleResult {
    let (a, dt) = ctx.ranked(0, "boxes1")?;
    let (b, _) = ctx.ranked(1, "boxes2")?;
    if a.len() != 2 || b.len() != 2 {
        return unsupported(format!("{}: boxes of rank other than 2", ctx.op));
    }
    require_box_coords(ctx, &a, "boxes1")?;
    require_box_coords(ctx, &b, "boxes2")?;
    Ok(tensor_out(vec![a[0].clone(), b[0].clone()], dt))
}

/// The number of regions `boxes` holds: a `[K, 5]` tensor (batch index and corners: "The
/// boxes tensor shape is not correct as Tensor[K, 5]"; only its first two dims are read) or
/// a list of `[L, 4]` tensors, one per image ("The shape of the tensor in the boxes list is
/// not correct as List[Tensor[L, 4]]"), whose lengths add up.
fn regions(ctx: &mut Ctx) -> Result<Dim, super::RuleError> {
    let op = ctx.op.clone();
    let boxes = ctx
        .arg(1, "boxes")
        .cloned()
        .ok_or_else(|| super::RuleError::invalid(format!("{op}: missing argument `boxes`")))?;
    let per_image = match boxes {
        Value::Tensor(t) => {
            let Some(dims) = t.shape.dims().map(<[Dim]>::to_vec) else {
                return unsupported(format!("{op}: rank of `boxes` is unknown"));
            };
            match dims.as_slice() {
                [k, five, ..] => {
                    if let Dim::Known(five) = five {
                        ctx.require(
                            Pred::Eq(five.clone(), DimExpr::constant(5)),
                            format!("{op}: The boxes tensor shape is not correct as Tensor[K, 5]"),
                        )?;
                    }
                    return Ok(k.clone());
                }
                [_] => {
                    return invalid_as(
                        Declared::Specific(FindingKind::DimOutOfRange),
                        format!(
                    "{op}: Dimension out of range (expected to be in range of [-1, 0], but got 1)"
                ),
                    )
                }
                [] => {
                    return invalid(format!(
                        "{op}: Dimension specified as 1 but tensor has no dimensions"
                    ))
                }
            }
        }
        Value::List(items) | Value::Tuple(items) => items,
        _ => return unsupported(format!("{op}: `boxes` is unknown")),
    };
    let mut total = DimExpr::zero();
    for b in per_image {
        let dims = b
            .as_tensor()
            .and_then(|t| t.shape.dims())
            .map(<[Dim]>::to_vec);
        let Some([Dim::Known(l), four]) = dims.and_then(|d| <[Dim; 2]>::try_from(d).ok()) else {
            return unsupported(format!("{op}: a box tensor of unknown shape"));
        };
        if let Dim::Known(four) = four {
            ctx.require(
                Pred::Eq(four, DimExpr::constant(4)),
                format!(
                    "{op}: The shape of the tensor in the boxes list is not correct as List[Tensor[L, 4]]"
                ),
            )?;
        }
        total = total.add(&l);
    }
    Ok(Dim::Known(total))
}

/// `torchvision.ops.roi_align(input [N, C, H, W], boxes, output_size, spatial_scale=1.0,
/// sampling_ratio=-1, aligned=False)` and `roi_pool(input, boxes, output_size,
/// spatial_scale=1.0)` → `[K, C, oh, ow]` for K regions (see [`regions`]); `output_size`
/// is an int or an `(h, w)` pair. The input must be 4-D.
fn roi_pooling(ctx: &mut Ctx) -> RuleResult {
    let (k, x, (oh, ow), dt) = roi_regions(ctx)?;
    Ok(tensor_out(vec![k, x[1].clone(), oh, ow], dt))
}

/// `torchvision.ops.ps_roi_align(input, boxes, output_size, spatial_scale=1.0,
/// sampling_ratio=-1)` and `ps_roi_pool(input, boxes, output_size, spatial_scale=1.0)`:
/// position-sensitive pooling, `[K, C / (oh * ow), oh, ow]`; the channels must divide
/// ("input channels must be a multiple of pooling height * pooling width").
fn ps_roi_pooling(ctx: &mut Ctx) -> RuleResult {
    let (k, x, (oh, ow), dt) = roi_regions(ctx)?;
    let (Some(c), Some(h), Some(w)) = (x[1].expr(), oh.expr(), ow.expr()) else {
        return Ok(tensor_out(vec![k, Dim::Dyn, oh, ow], dt));
    };
    let bins = h.mul(w);
    ctx.require(
        Pred::Eq(c.modulo(&bins), DimExpr::zero()),
        format!(
            "{}: input channels must be a multiple of pooling height * pooling width",
            ctx.op
        ),
    )?;
    let c = c.floordiv(&bins);
    Ok(tensor_out(vec![k, Dim::Known(c), oh, ow], dt))
}

/// The modules of torchvision's region pooling (`RoIAlign(output_size, spatial_scale,
/// sampling_ratio, aligned=False)`, `RoIPool(output_size, spatial_scale)`, and their
/// position-sensitive `PS` forms): the construction arguments, by position and name.
fn roi_init(ctx: &mut Ctx) -> RuleResult {
    let names = ["output_size", "spatial_scale", "sampling_ratio", "aligned"];
    let mut params = Vec::new();
    for (i, name) in names.into_iter().enumerate() {
        if let Some(v) = ctx.arg(i, name) {
            params.push((name, v.clone()));
        }
    }
    if params.first().map(|(n, _)| *n) != Some("output_size") {
        return invalid(format!("{}: missing argument `output_size`", ctx.op));
    }
    Ok(super::common::module_value(&ctx.op, params))
}

/// `RoIAlign(...)(input, rois)`: the functional form with the module's arguments.
fn roi_forward(ctx: &mut Ctx) -> RuleResult {
    let op = match ctx.op.rsplit('.').next() {
        Some("RoIAlign") => "torchvision.ops.roi_align",
        Some("RoIPool") => "torchvision.ops.roi_pool",
        Some("PSRoIAlign") => "torchvision.ops.ps_roi_align",
        _ => "torchvision.ops.ps_roi_pool",
    };
    let arg = |ctx: &Ctx, i: usize, name: &str| ctx.arg(i, name).cloned().unwrap_or(Value::Unknown);
    let mut args = vec![arg(ctx, 0, "input"), arg(ctx, 1, "rois")];
    for name in ["output_size", "spatial_scale", "sampling_ratio", "aligned"] {
        match ctx.param(name) {
            Some(v) => args.push(v.clone()),
            None => break,
        }
    }
    super::modules::delegate(ctx, op, args)
}

/// What region pooling reads: the regions' count, the input's dims (4-D), the output size.
#[allow(clippy::type_complexity)]
fn roi_regions(
    ctx: &mut Ctx,
) -> Result<(Dim, Vec<Dim>, (Dim, Dim), Option<DType>), super::RuleError> {
    let (x, dt) = ctx.ranked(0, "input")?;
    if x.len() != 4 {
        return invalid_as(
            Declared::Specific(FindingKind::DimOutOfRange),
            format!(
                "{}: Dimension out of range (expected to be in range of [-{r}, {}], but got 3)",
                ctx.op,
                x.len().saturating_sub(1),
                r = x.len()
            ),
        );
    }
    let k = regions(ctx)?;
    let size = ctx
        .arg(2, "output_size")
        .cloned()
        .ok_or_else(|| super::RuleError::invalid(format!("{}: missing output_size", ctx.op)))?;
    let side = |v: &Value| super::int_of(&ctx.op, "output_size", v).map(Dim::Known);
    let (oh, ow) = match size.elements().as_deref() {
        None => (side(&size)?, side(&size)?),
        Some([h, w]) => (side(h)?, side(w)?),
        Some(_) => return invalid(format!("{}: output_size must be an int or a pair", ctx.op)),
    };
    Ok((k, x, (oh, ow), dt))
}

#[cfg(test)]
mod tests {
    use super::super::RuleError;
    use crate::shapes::shape::{Dim, Shape};
    use crate::shapes::value::{DType, Value};
    use crate::testing::call;

    /// The recorded torchvision 0.29 behaviour: kept indices of data-dependent length, the
    /// kernel's errors on malformed boxes and scores, and `box_iou`'s `[N, M]`.
    #[test]
    fn boxes_and_scores_are_checked_and_the_kept_count_is_unknown() {
        let t = Value::float_tensor;
        let kept = call(
            "torchvision.ops.nms",
            vec![t(&[5, 4]), t(&[5]), Value::Float(Some(0.5))],
            vec![],
        );
        let kept = kept.unwrap();
        let dims = kept.as_tensor().unwrap().shape.dims().unwrap().to_vec();
        assert!(
            matches!(&dims[..], [Dim::Known(n)] if n.as_const().is_none()),
            "{dims:?}"
        );
        for (boxes, scores) in [
            (&[5, 3][..], &[5][..]),
            (&[5, 4], &[6]),
            (&[5, 4], &[5, 1]),
            (&[4], &[1]),
        ] {
            let r = call(
                "torchvision.ops.nms",
                vec![t(boxes), t(scores), Value::Float(Some(0.5))],
                vec![],
            );
            assert!(
                matches!(r, Err(RuleError::Invalid { .. })),
                "{boxes:?} {scores:?}: {r:?}"
            );
        }
        let idxs = Value::tensor(Shape::of(&[5]), Some(DType::Int));
        let ok = call(
            "torchvision.ops.batched_nms",
            vec![t(&[5, 4]), t(&[5]), idxs.clone(), Value::Float(Some(0.5))],
            vec![],
        );
        assert!(ok.is_ok());
        let bad = call(
            "torchvision.ops.batched_nms",
            vec![t(&[5, 3]), t(&[5]), idxs, Value::Float(Some(0.5))],
            vec![],
        );
        assert!(matches!(bad, Err(RuleError::Invalid { .. })));
        let empty = call(
            "torchvision.ops.batched_nms",
            vec![
                t(&[0, 3]),
                t(&[0]),
                Value::tensor(Shape::of(&[0]), Some(DType::Int)),
                Value::Float(Some(0.5)),
            ],
            vec![],
        );
        assert!(empty.is_ok());
        let iou = call(
            "torchvision.ops.box_iou",
            vec![t(&[5, 4]), t(&[3, 4])],
            vec![],
        )
        .unwrap();
        assert_eq!(iou.as_tensor().unwrap().shape, Shape::of(&[5, 3]));
        assert!(call(
            "torchvision.ops.box_iou",
            vec![t(&[5, 4]), t(&[3, 2])],
            vec![]
        )
        .is_err());
        let x = t(&[2, 8, 20, 20]);
        let pooled = call(
            "torchvision.ops.roi_align",
            vec![x.clone(), t(&[1, 5]), Value::int(7)],
            vec![],
        );
        assert_eq!(
            pooled.unwrap().as_tensor().unwrap().shape,
            Shape::of(&[1, 8, 7, 7])
        );
        let per_image = Value::List(vec![t(&[3, 4]), t(&[2, 4])]);
        let pair = Value::Tuple(vec![Value::int(3), Value::int(4)]);
        let pooled = call(
            "torchvision.ops.roi_pool",
            vec![x.clone(), per_image, pair],
            vec![],
        );
        assert_eq!(
            pooled.unwrap().as_tensor().unwrap().shape,
            Shape::of(&[5, 8, 3, 4])
        );
        let corners_only = call(
            "torchvision.ops.roi_align",
            vec![x, t(&[1, 4]), Value::int(7)],
            vec![],
        );
        assert!(matches!(corners_only, Err(RuleError::Invalid { .. })));
        let area = call("torchvision.ops.box_area", vec![t(&[5, 4])], vec![]).unwrap();
        assert_eq!(area.as_tensor().unwrap().shape, Shape::of(&[5]));
    }

    /// The module forms of region pooling apply the functional rules with their
    /// construction arguments; position-sensitive pooling divides the channels.
    #[test]
    fn roi_modules_pool_regions() {
        let src = r#"
import torch
from torchvision.ops import RoIAlign, PSRoIAlign

def run():
    feats = torch.randn(1, 8, 16, 16)
    boxes = torch.tensor([[0, 0.0, 0.0, 4.0, 4.0]])
    pooled = RoIAlign((2, 2), 0.5, 2)(feats, boxes)
    ps = PSRoIAlign(BINS, 0.5, 2)(feats, boxes)
    return pooled.view(1, 32), ps.view(1, 8)

run()
"#;
        crate::testing::assert_twins(src, "BINS", "3", "2", 9);
    }
}
