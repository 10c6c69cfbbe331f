//! Operator rules: convolutions (`nn.ConvNd`, `nn.ConvTransposeNd`, `F.convNd`,
//! `F.conv_transposeNd`). One generic N-d shape function serves every dimensionality; the
//! dimensionality comes from the operator name (`...Conv2d`, `...conv_transpose3d`).

use super::common::{param_size, size_value};
use super::nd::{
    join_batch, module_value, ntuple, ntuple_arg, param_tuple, show, spatial_rank, split_batch,
    tuple_value,
};
use super::resample::pad_dims;
use super::{int_of, invalid, tensor_out, unsupported, Ctx, Rule, RuleError, RuleResult};
use crate::shapes::dim::DimExpr;
use crate::shapes::kind::{Declared, FindingKind};
use crate::shapes::requirement::Pred;
use crate::shapes::shape::Dim;
use crate::shapes::value::{DType, Value};

/// What this family's failures are, unless a rule or a check declares otherwise.
pub const KIND: FindingKind = FindingKind::ChannelMismatch;

pub const RULES: &[Rule] = &[
    Rule::module("torch.nn.Conv1d", conv_init, conv_forward),
    Rule::module("torch.nn.Conv2d", conv_init, conv_forward),
    Rule::module("torch.nn.Conv3d", conv_init, conv_forward),
    Rule::module("torch.nn.ConvTranspose1d", conv_init, conv_forward),
    Rule::module("torch.nn.ConvTranspose2d", conv_init, conv_forward),
    Rule::module("torch.nn.ConvTranspose3d", conv_init, conv_forward),
    Rule::function("torch.nn.functional.conv1d", conv_functional),
    Rule::function("torch.nn.functional.conv2d", conv_functional),
    Rule::function("torch.nn.functional.conv3d", conv_functional),
    Rule::function("torch.nn.functional.conv_transpose1d", conv_functional),
    Rule::function("torch.nn.functional.conv_transpose2d", conv_functional),
    Rule::function("torch.nn.functional.conv_transpose3d", conv_functional),
];

/// The known expression of a dim, or `None` for an unknown dim.
fn known(d: &Dim) -> Option<&DimExpr> {
    d.expr()
}

// ---------------------------------------------------------------------------------------------
// Convolution.

/// Padding of a convolution.
#[derive(Clone)]
enum Padding {
    Explicit(Vec<DimExpr>),
    Same,
    Valid,
}

/// The hyperparameters of one N-d (transposed) convolution.
struct ConvSpec {
    n: usize,
    transposed: bool,
    stride: Vec<DimExpr>,
    padding: Padding,
    dilation: Vec<DimExpr>,
    output_padding: Vec<DimExpr>,
    groups: DimExpr,
}

fn is_transposed(op: &str) -> bool {
    op.contains("ConvTranspose") || op.contains("conv_transpose")
}

fn padding_of(op: &str, v: Option<&Value>, n: usize) -> Result<Padding, RuleError> {
    match v {
        None => Ok(Padding::Explicit(vec![DimExpr::zero(); n])),
        Some(Value::Str(Some(s))) => match s.as_str() {
            "same" => Ok(Padding::Same),
            "valid" => Ok(Padding::Valid),
            other => invalid(format!(
                "{op}: Invalid padding string '{other}', should be one of {{'same', 'valid'}}"
            )),
        },
        Some(Value::Str(None)) => unsupported(format!("{op}: padding string is unknown")),
        Some(v) => Ok(Padding::Explicit(ntuple(op, "padding", v, n)?)),
    }
}

fn padding_value(p: &Padding) -> Value {
    match p {
        Padding::Explicit(v) => tuple_value(v),
        Padding::Same => Value::Str(Some("same".into())),
        Padding::Valid => Value::Str(Some("valid".into())),
    }
}

/// `nn.ConvNd(in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
/// groups=1, bias=True, padding_mode='zeros')` and `nn.ConvTransposeNd(in_channels,
/// out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1, bias=True,
/// dilation=1, padding_mode='zeros')`. PyTorch raises at construction when `groups` is not
/// positive, when in/out channels are not divisible by `groups`, for a padding string other
/// than 'same'/'valid', for `padding='same'` with a stride other than 1, for an unknown
/// `padding_mode` (transposed convolutions only support 'zeros'), and for negative sizes
/// ("Trying to create tensor with negative dimension").
fn conv_init(ctx: &mut Ctx) -> RuleResult {
    let op = ctx.op.clone();
    let n = spatial_rank(&op);
    let transposed = is_transposed(&op);
    // A channel count not known (a width from a helper outside the file) leaves the checks
    // that read it undone; the layer is still built.
    let channels = |ctx: &Ctx, pos: usize, name: &str| match ctx.arg(pos, name) {
        None | Some(Value::None) => invalid(format!("{op}: missing argument '{name}'")),
        Some(v) => super::maybe_int_of(&op, name, v),
    };
    let cin = channels(ctx, 0, "in_channels")?;
    let cout = channels(ctx, 1, "out_channels")?;
    // A tuple of another length than the layer's dims (`nn.Conv1d(c, c, (1, 2))`) builds
    // the layer (its weight takes that many dims); every call then fails.
    let positions: &[(usize, &str)] = if transposed {
        &[
            (2, "kernel_size"),
            (3, "stride"),
            (5, "output_padding"),
            (8, "dilation"),
        ]
    } else {
        &[(2, "kernel_size"), (3, "stride"), (5, "dilation")]
    };
    for &(pos, name) in positions {
        let len = ctx
            .arg(pos, name)
            .and_then(|v| v.elements())
            .map(|e| e.len());
        if let Some(k) = len.filter(|k| *k != 1 && *k != n) {
            let msg = format!(
                "{op}: expected {name} to be a single integer value or a list of {n} values to \
                 match the convolution dimensions, but got {k} values"
            );
            return Ok(module_value(
                ctx,
                vec![("malformed", Value::Str(Some(msg)))],
            ));
        }
    }
    let kernel = match ctx.arg(2, "kernel_size") {
        Some(v) => ntuple(&op, "kernel_size", v, n)?,
        None => return invalid(format!("{op}: missing argument 'kernel_size'")),
    };
    let (op_pos, groups_pos, bias_pos, dil_pos, mode_pos) = if transposed {
        (5, 6, 7, 8, 9)
    } else {
        (usize::MAX, 6, 7, 5, 8)
    };
    let stride = ntuple_arg(ctx, 3, "stride", n, 1)?;
    let padding = padding_of(&op, ctx.arg(4, "padding"), n)?;
    let dilation = ntuple_arg(ctx, dil_pos, "dilation", n, 1)?;
    let output_padding = ntuple_arg(ctx, op_pos, "output_padding", n, 0)?;
    let groups = ctx.int_or(groups_pos, "groups", 1)?;
    let bias = ctx.bool_or(bias_pos, "bias", true)?;
    let mode = match ctx.arg(mode_pos, "padding_mode") {
        None => "zeros".to_string(),
        Some(Value::Str(Some(s))) => s.clone(),
        Some(_) => return unsupported(format!("{op}: padding_mode is unknown")),
    };
    ctx.require_with(Pred::Lt(DimExpr::zero(), groups.clone()), |_| {
        format!("{op}: groups must be a positive integer")
    })?;
    for (what, size) in [("in_channels", &cin), ("out_channels", &cout)] {
        if let Some(size) = size {
            ctx.require_with(Pred::Divides(groups.clone(), size.clone()), |_| {
                format!("{op}: {what} must be divisible by groups")
            })?;
        }
    }
    if matches!(padding, Padding::Same) && stride.iter().any(|s| s.as_const() != Some(1)) {
        return invalid(format!(
            "{op}: padding='same' is not supported for strided convolutions"
        ));
    }
    if !["zeros", "reflect", "replicate", "circular"].contains(&mode.as_str()) {
        return invalid(format!(
            "{op}: padding_mode must be one of {{'replicate', 'reflect', 'zeros', 'circular'}}, \
             but got padding_mode='{mode}'"
        ));
    }
    if transposed && mode != "zeros" {
        return invalid(format!(
            "{op}: Only \"zeros\" padding mode is supported for {}",
            op.rsplit('.').next().unwrap_or(&op)
        ));
    }
    if transposed && !matches!(padding, Padding::Explicit(_)) {
        return invalid(format!(
            "{op}: argument 'padding' must be tuple of ints, but found element of type str"
        ));
    }
    for (what, size) in [("in_channels", &cin), ("out_channels", &cout)]
        .into_iter()
        .filter_map(|(what, size)| Some((what, size.as_ref()?)))
        .chain(kernel.iter().map(|k| ("kernel_size", k)))
    {
        ctx.require_with(Pred::Le(DimExpr::zero(), size.clone()), |_| {
            format!("{op}: Trying to create tensor with negative dimension ({what} = {size})")
        })?;
    }
    Ok(module_value(
        ctx,
        vec![
            ("in_channels", size_value(cin)),
            ("out_channels", size_value(cout)),
            ("kernel_size", tuple_value(&kernel)),
            ("stride", tuple_value(&stride)),
            ("padding", padding_value(&padding)),
            ("dilation", tuple_value(&dilation)),
            ("output_padding", tuple_value(&output_padding)),
            ("groups", Value::Int(groups)),
            ("bias", Value::Bool(Some(bias))),
            ("padding_mode", Value::Str(Some(mode))),
        ],
    ))
}

/// `conv(x)` for an `nn.ConvNd` / `nn.ConvTransposeNd`: the weight is `[out, in/groups, *k]`
/// (`[in, out/groups, *k]` when transposed). A `padding_mode` other than 'zeros' first pads
/// the input with `F.pad` (so its restrictions apply) and convolves without padding.
fn conv_forward(ctx: &mut Ctx) -> RuleResult {
    let op = ctx.op.clone();
    let n = spatial_rank(&op);
    let transposed = is_transposed(&op);
    let (x, dtype) = ctx.ranked(0, "input")?;
    if let Some(Value::Str(Some(msg))) = ctx.param("malformed") {
        return invalid(msg.clone());
    }
    let cin = param_size(ctx, "in_channels");
    let cout = param_size(ctx, "out_channels");
    let Some(groups) = ctx.param("groups").and_then(Value::as_int_expr) else {
        return unsupported(format!("{op}: module hyperparameters are unknown"));
    };
    let kernel = param_tuple(ctx, "kernel_size", n)?;
    let mut padding = padding_of(&op, ctx.param("padding"), n)?;
    let dilation = param_tuple(ctx, "dilation", n)?;
    let mut x = x;
    let mode = match ctx.param("padding_mode") {
        Some(Value::Str(Some(s))) => s.clone(),
        _ => "zeros".to_string(),
    };
    if mode != "zeros" {
        // `_reversed_padding_repeated_twice`: last spatial dim first, (left, right) each.
        let per_dim: Vec<(DimExpr, DimExpr)> = match &padding {
            Padding::Explicit(p) => p.iter().map(|p| (p.clone(), p.clone())).collect(),
            Padding::Valid => vec![(DimExpr::zero(), DimExpr::zero()); n],
            Padding::Same => kernel
                .iter()
                .zip(&dilation)
                .map(|(k, d)| {
                    let total = d.mul(&k.add_const(-1));
                    let left = total.floordiv(&DimExpr::constant(2));
                    (left.clone(), total.sub(&left))
                })
                .collect(),
        };
        let pads: Vec<DimExpr> = per_dim
            .iter()
            .rev()
            .flat_map(|(l, r)| [l.clone(), r.clone()])
            .collect();
        x = pad_dims(ctx, &x, &pads, &mode)?;
        padding = Padding::Explicit(vec![DimExpr::zero(); n]);
    }
    let per_group = |c: &Dim| c.map(|c| c.floordiv(&groups));
    let weight: Vec<Dim> = if transposed {
        [cin.clone(), per_group(&cout)]
    } else {
        [cout.clone(), per_group(&cin)]
    }
    .into_iter()
    .chain(kernel.into_iter().map(Dim::Known))
    .collect();
    let mut spec = ConvSpec {
        n,
        transposed,
        stride: param_tuple(ctx, "stride", n)?,
        padding,
        dilation,
        output_padding: param_tuple(ctx, "output_padding", n)?,
        groups,
    };
    if transposed {
        if let Some(v) = ctx.arg(1, "output_size").filter(|v| !v.is_none()).cloned() {
            requested_output(ctx, &v, &x, &weight, &mut spec)?;
        }
    }
    conv_shape(ctx, &x, dtype, &weight, None, &spec)
}

/// `tconv(x, output_size)`: the requested spatial size (the last N entries) must lie between
/// the size computed with no output padding and that plus `stride - 1` ("requested an output
/// size of [..], but valid sizes range from [..] to [..]"); the difference becomes the
/// output padding.
fn requested_output(
    ctx: &mut Ctx,
    v: &Value,
    x: &[Dim],
    weight: &[Dim],
    spec: &mut ConvSpec,
) -> Result<(), RuleError> {
    let op = ctx.op.clone();
    let n = spec.n;
    let items = v
        .elements()
        .ok_or_else(|| RuleError::invalid(format!("{op}: output_size must be a sequence")))?;
    if items.len() != n && items.len() != n + 2 {
        return invalid(format!(
            "{op}: output_size must have {n} or {} elements (got {})",
            n + 2,
            items.len()
        ));
    }
    let Padding::Explicit(pad) = &spec.padding else {
        return invalid(format!("{op}: padding must be a tuple of ints"));
    };
    let mut output_padding = Vec::new();
    for i in 0..n {
        let want = int_of(&op, "output_size", &items[items.len() - n + i])?;
        let (Some(l), Some(k)) = (
            x.get(x.len() - n + i).and_then(known),
            known(&weight[2 + i]),
        ) else {
            return unsupported(format!("{op}: input size unknown"));
        };
        let min = l
            .add_const(-1)
            .mul(&spec.stride[i])
            .sub(&pad[i].mul_const(2))
            .add(&spec.dilation[i].mul(&k.add_const(-1)))
            .add_const(1);
        let max = min.add(&spec.stride[i]).add_const(-1);
        let msg = format!(
            "{op}: requested an output size of {want}, but valid sizes range from {min} to {max}"
        );
        ctx.require(Pred::Le(min.clone(), want.clone()), msg.clone())?;
        ctx.require(Pred::Le(want.clone(), max), msg)?;
        output_padding.push(want.sub(&min));
    }
    // The computed padding is below the stride by construction.
    spec.output_padding = output_padding;
    Ok(())
}

/// `F.convNd(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1)` and
/// `F.conv_transposeNd(input, weight, bias=None, stride=1, padding=0, output_padding=0,
/// groups=1, dilation=1)`: the same shape rules as the modules with an explicit weight
/// (`weight.size(0)` must be divisible by `groups`; a bias must be 1-D with one element per
/// output channel).
fn conv_functional(ctx: &mut Ctx) -> RuleResult {
    let op = ctx.op.clone();
    let n = spatial_rank(&op);
    let transposed = is_transposed(&op);
    let (x, dtype) = ctx.ranked(0, "input")?;
    let (weight, _) = ctx.ranked(1, "weight")?;
    let bias = match ctx.arg(2, "bias") {
        None | Some(Value::None) => None,
        Some(_) => Some(ctx.ranked(2, "bias")?.0),
    };
    let (op_pos, groups_pos, dil_pos) = if transposed {
        (5, 6, 7)
    } else {
        (usize::MAX, 6, 5)
    };
    let padding = padding_of(&op, ctx.arg(4, "padding"), n)?;
    if transposed && !matches!(padding, Padding::Explicit(_)) {
        return invalid(format!(
            "{op}: argument 'padding' must be tuple of ints, but found element of type str"
        ));
    }
    let spec = ConvSpec {
        n,
        transposed,
        stride: ntuple_arg(ctx, 3, "stride", n, 1)?,
        padding,
        dilation: ntuple_arg(ctx, dil_pos, "dilation", n, 1)?,
        output_padding: ntuple_arg(ctx, op_pos, "output_padding", n, 0)?,
        groups: ctx.int_or(groups_pos, "groups", 1)?,
    };
    if matches!(spec.padding, Padding::Same) && spec.stride.iter().any(|s| s.as_const() != Some(1))
    {
        return invalid(format!(
            "{op}: padding='same' is not supported for strided convolutions"
        ));
    }
    conv_shape(ctx, &x, dtype, &weight, bias.as_deref(), &spec)
}

/// The generic N-d convolution shape. Input `[N, C, *L]` or unbatched `[C, *L]` (else
/// "Expected {n+1}D (unbatched) or {n+2}D (batched) input to conv{n}d"); positive stride and
/// dilation, non-negative padding. Forward: `C == weight[1] * groups` ("expected input[..] to
/// have C channels"), padded input `L + 2p >= dil*(k-1) + 1` ("Kernel size can't be greater
/// than actual input size"), `out = (L + 2p - dil*(k-1) - 1) // stride + 1` ('same' keeps `L`),
/// channels `weight[0]`. Transposed: `C == weight[0]`, `output_padding < stride or <
/// dilation`, `out = (L-1)*stride - 2p + dil*(k-1) + output_padding + 1` which must be
/// positive ("Output size is too small"), channels `weight[1] * groups`. Integer inputs raise
/// (the weight is floating).
fn conv_shape(
    ctx: &mut Ctx,
    x: &[Dim],
    dtype: Option<DType>,
    weight: &[Dim],
    bias: Option<&[Dim]>,
    spec: &ConvSpec,
) -> RuleResult {
    let op = ctx.op.clone();
    let n = spec.n;
    let kind = if spec.transposed {
        "conv_transpose"
    } else {
        "conv"
    };
    let (batch, c, spatial) = split_batch(x, n, || {
        format!(
            "{op}: Expected {}D (unbatched) or {}D (batched) input to {kind}{n}d, but got input \
             of size: {}",
            n + 1,
            n + 2,
            crate::shapes::shape::Shape::Ranked(x.to_vec())
        )
    })?;
    if weight.len() != n + 2 {
        return invalid(format!(
            "{op}: expected stride to be a single integer value or a list of {} values to match \
             the convolution dimensions, but got stride={}",
            weight.len().saturating_sub(2),
            show(&spec.stride, ", ")
        ));
    }
    if matches!(dtype, Some(DType::Int | DType::Bool)) {
        return invalid(format!(
            "{op}: Input type (long int) and bias type (float) should be the same"
        ));
    }
    let g = spec.groups.clone();
    ctx.require_with(Pred::Lt(DimExpr::zero(), g.clone()), |_| {
        format!("{op}: non-positive groups is not supported")
    })?;
    for s in &spec.stride {
        ctx.require_with(Pred::Lt(DimExpr::zero(), s.clone()), |_| {
            format!("{op}: non-positive stride is not supported")
        })?;
    }
    for d in &spec.dilation {
        ctx.require_with(Pred::Lt(DimExpr::zero(), d.clone()), |_| {
            format!("{op}: dilation should be greater than zero")
        })?;
    }
    if let Padding::Explicit(p) = &spec.padding {
        for p in p {
            ctx.require_with(Pred::Le(DimExpr::zero(), p.clone()), |_| {
                format!("{op}: negative padding is not supported")
            })?;
        }
    }
    let wshape = crate::shapes::shape::Shape::Ranked(weight.to_vec());
    let xshape = crate::shapes::shape::Shape::Ranked(join_batch(
        Some(batch.clone().unwrap_or(Dim::constant(1))),
        c.clone(),
        spatial.clone(),
    ));
    if let Some(w0) = known(&weight[0]) {
        ctx.require_with(Pred::Divides(g.clone(), w0.clone()), |_| {
            format!(
                "{op}: Given groups={g}, expected weight to be divisible by {g} at dimension 0, \
                 but got weight of size [{wshape}] instead"
            )
        })?;
    }
    let kernel: Vec<Dim> = weight[2..].to_vec();
    for k in kernel.iter().filter_map(known) {
        ctx.require_with(Pred::Lt(DimExpr::zero(), k.clone()), |_| format!("{op}: could not create a primitive descriptor for the convolution (kernel size {k})"))?;
    }
    let out_channels = if spec.transposed {
        ctx.require_eq(
            &c,
            &weight[0],
            format!(
                "{op}: Given transposed=1, weight of size {wshape}, expected input{xshape} to \
                 have {} channels, but got {c} channels instead",
                weight[0]
            ),
        )?;
        weight[1].map(|w| w.mul(&g))
    } else {
        let expected = weight[1].map(|w| w.mul(&g));
        ctx.require_eq(
            &c,
            &expected,
            format!(
                "{op}: Given groups={g}, weight of size {wshape}, expected input{xshape} to have \
                 {expected} channels, but got {c} channels instead"
            ),
        )?;
        weight[0].clone()
    };
    if let Some(b) = bias {
        let ok = b.len() == 1;
        if ok {
            ctx.require_eq(
                &b[0],
                &out_channels,
                format!(
                    "{op}: Given weight of size {wshape}, expected bias to be 1-dimensional with \
                     {out_channels} elements, but got bias of size {}",
                    crate::shapes::shape::Shape::Ranked(b.to_vec())
                ),
            )?;
        } else {
            return invalid(format!("{op}: expected bias to be 1-dimensional"));
        }
    }
    let out = if spec.transposed {
        let batch_size = batch.as_ref().and_then(Dim::expr).cloned();
        transposed_spatial(ctx, &spatial, &kernel, spec, batch_size)?
    } else {
        conv_spatial(ctx, &spatial, &kernel, spec)?
    };
    Ok(tensor_out(join_batch(batch, out_channels, out), dtype))
}

fn conv_spatial(
    ctx: &mut Ctx,
    spatial: &[Dim],
    kernel: &[Dim],
    spec: &ConvSpec,
) -> Result<Vec<Dim>, RuleError> {
    let op = ctx.op.clone();
    let mut padded = Vec::new();
    let mut effective = Vec::new();
    let mut out = Vec::new();
    for i in 0..spec.n {
        let (Some(l), Some(k)) = (known(&spatial[i]), known(&kernel[i])) else {
            out.push(Dim::Dyn);
            continue;
        };
        let eff = spec.dilation[i].mul(&k.add_const(-1)).add_const(1);
        let (p, o) = match &spec.padding {
            Padding::Same => {
                let total = eff.add_const(-1);
                (l.add(&total), l.clone())
            }
            Padding::Valid | Padding::Explicit(_) => {
                let p = match &spec.padding {
                    Padding::Explicit(p) => p[i].mul_const(2),
                    _ => DimExpr::zero(),
                };
                let padded = l.add(&p);
                let o = padded.sub(&eff).floordiv(&spec.stride[i]).add_const(1);
                (padded, o)
            }
        };
        padded.push(p);
        effective.push(eff);
        out.push(Dim::Known(o));
    }
    let message = format!(
        "{op}: Calculated padded input size per channel: ({}). Kernel size: ({}). Kernel size \
         can't be greater than actual input size",
        show(&padded, " x "),
        show(&effective, " x ")
    );
    for (p, e) in padded.iter().zip(&effective) {
        let fits = Pred::Le(e.clone(), p.clone());
        ctx.require_as(
            Declared::Specific(FindingKind::EmptyOutput),
            fits,
            message.clone(),
        )?;
    }
    Ok(out)
}

fn transposed_spatial(
    ctx: &mut Ctx,
    spatial: &[Dim],
    kernel: &[Dim],
    spec: &ConvSpec,
    batch: Option<DimExpr>,
) -> Result<Vec<Dim>, RuleError> {
    // An empty batch takes a shortcut that skips the output-padding check and allows an
    // empty output: with a symbolic batch, each check holds "or the batch is empty".
    let empty_batch = batch.map(|b| Pred::Eq(b, DimExpr::zero()));
    let unless_empty = |p: Pred| match &empty_batch {
        Some(e) => Pred::Or(vec![e.clone(), p]),
        None => p,
    };
    let op = ctx.op.clone();
    let Padding::Explicit(pad) = &spec.padding else {
        return invalid(format!("{op}: padding must be a tuple of ints"));
    };
    let ok = spec
        .output_padding
        .iter()
        .zip(spec.stride.iter().zip(&spec.dilation))
        .map(|(o, (s, d))| {
            Pred::Or(vec![
                Pred::Lt(o.clone(), s.clone()),
                Pred::Lt(o.clone(), d.clone()),
            ])
        })
        .collect();
    ctx.require_with(unless_empty(Pred::And(ok)), |_| {
        format!(
            "{op}: output padding must be smaller than either stride or dilation, but got \
             output_padding: ({}) stride: ({}) dilation: ({})",
            show(&spec.output_padding, ", "),
            show(&spec.stride, ", "),
            show(&spec.dilation, ", ")
        )
    })?;
    let mut out = Vec::new();
    for i in 0..spec.n {
        let (Some(l), Some(k)) = (known(&spatial[i]), known(&kernel[i])) else {
            out.push(Dim::Dyn);
            continue;
        };
        let o = l
            .add_const(-1)
            .mul(&spec.stride[i])
            .sub(&pad[i].mul_const(2))
            .add(&spec.dilation[i].mul(&k.add_const(-1)))
            .add(&spec.output_padding[i])
            .add_const(1);
        out.push(Dim::Known(o));
    }
    let sizes: Vec<DimExpr> = out.iter().filter_map(known).cloned().collect();
    let ins: Vec<DimExpr> = spatial.iter().filter_map(known).cloned().collect();
    // 2-d and 3-d kernels reject an empty output; 1-d (and empty batches) only negative ones.
    for o in &sizes {
        let non_negative = Pred::Le(DimExpr::zero(), o.clone());
        let pred = if spec.n >= 2 {
            let positive = Pred::Le(DimExpr::one(), o.clone());
            match &empty_batch {
                Some(e) => Pred::Or(vec![Pred::And(vec![e.clone(), non_negative]), positive]),
                None => positive,
            }
        } else {
            non_negative
        };
        ctx.require_with_as(Declared::Specific(FindingKind::EmptyOutput), pred, |_| {
            format!(
                "{op}: Given input size per channel: ({}). Calculated output size per channel: \
                 ({}). Output size is too small",
                show(&ins, " x "),
                show(&sizes, " x ")
            )
        })?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::super::{apply, lookup, RuleKind};
    use super::*;
    use crate::shapes::shape::Shape;

    fn conv2d(init: Vec<(&str, Value)>, x: Vec<Dim>) -> Result<super::super::Outcome, RuleError> {
        let Some(RuleKind::Module { init: i, forward }) = lookup("torch.nn.Conv2d").map(|r| r.kind)
        else {
            panic!("Conv2d is registered as a module");
        };
        let kwargs = init.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
        let m = apply(i, "torch.nn.Conv2d", vec![], kwargs, None)?;
        let Value::Module(m) = m.value else {
            panic!("init builds a module");
        };
        let x = Value::tensor(Shape::Ranked(x), Some(DType::Float));
        apply(forward, "torch.nn.Conv2d", vec![x], vec![], Some(*m))
    }

    #[test]
    fn symbolic_conv2d() {
        let sym = |s: &str| Value::Int(DimExpr::sym(s));
        let (n, c, h) = (Dim::sym("n"), Dim::sym("c"), Dim::sym("h"));
        let out = conv2d(
            vec![
                ("in_channels", sym("c")),
                ("out_channels", Value::int(8)),
                ("kernel_size", Value::int(3)),
                ("stride", Value::int(2)),
                ("padding", Value::int(1)),
            ],
            vec![n.clone(), c, h.clone(), h],
        )
        .expect("symbolic conv applies");
        let dims = out
            .value
            .as_tensor()
            .and_then(|t| t.shape.dims().map(<[Dim]>::to_vec));
        let o = Dim::Known(
            DimExpr::sym("h")
                .add_const(-1)
                .floordiv(&DimExpr::constant(2))
                .add_const(1),
        );
        assert_eq!(dims, Some(vec![n, Dim::constant(8), o.clone(), o]));
        // The kernel-size check stays a requirement over `h`.
        assert!(out.requirements.iter().all(|r| r.pred.decide().is_none()));
        // A channel mismatch between symbols is a requirement, between constants an error.
        let mismatch = conv2d(
            vec![
                ("in_channels", Value::int(4)),
                ("out_channels", Value::int(8)),
                ("kernel_size", Value::int(1)),
            ],
            vec![
                Dim::sym("n"),
                Dim::constant(3),
                Dim::sym("h"),
                Dim::sym("w"),
            ],
        );
        assert!(matches!(mismatch, Err(RuleError::Invalid { .. })));
    }

    /// A channel count from outside the file leaves only its own checks undone: the
    /// layer's known input channels are still checked, and the next layer sees an unknown
    /// channel dim.
    #[test]
    fn layers_with_a_width_from_outside_the_file_still_check_what_is_known() {
        let src = r#"
import torch
from torch import nn
from elsewhere import width

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, width(), 3, padding=1)
        self.head = nn.Linear(width(), 10)

    def forward(self, x):
        b, c, h, w = x.shape
        y = self.conv(INPUT)
        return self.head(y.mean(dim=(2, 3)))
"#;
        crate::testing::assert_twins(src, "INPUT", "torch.cat([x, x], 1)", "x", 14);
    }
}

#[cfg(test)]
mod malformed_tests {
    use crate::testing::findings;

    /// torch builds `nn.Conv1d(c, c, (1, 2))` (a 4-D weight) and fails at every call: the
    /// finding is at the call, not where the layer is built.
    #[test]
    fn tuples_of_another_length_fail_at_the_call() {
        let src = r#"
import torch
import torch.nn as nn

conv = nn.Conv1d(8, 8, kernel_size=(1, 2))
print(conv.weight.shape)
y = conv(torch.randn(2, 8, 5, 10))
"#;
        let found = findings(src);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].span.line, 7);
    }
}
