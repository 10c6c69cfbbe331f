//! Operator rules: padding (`F.pad`, the `*PadNd` modules), resampling (`nn.Upsample`,
//! `F.interpolate`) and pixel (un)shuffle: layout changes of the spatial dims.

use super::nd::{module_value, spatial_rank, tuple_value};
use super::{int_of, invalid, tensor_out, unsupported, Ctx, Rule, RuleError, RuleResult};
use crate::shapes::dim::DimExpr;
use crate::shapes::kind::FindingKind;
use crate::shapes::requirement::Pred;
use crate::shapes::shape::{Dim, Shape};
use crate::shapes::value::Value;

/// What this family's failures are, unless a rule or a check declares otherwise.
pub const KIND: FindingKind = FindingKind::ShapeMismatch;

pub const RULES: &[Rule] = &[
    Rule::function("torch.nn.functional.pad", pad_functional),
    Rule::module("torch.nn.ZeroPad1d", pad_init, pad_forward),
    Rule::module("torch.nn.ZeroPad2d", pad_init, pad_forward),
    Rule::module("torch.nn.ZeroPad3d", pad_init, pad_forward),
    Rule::module("torch.nn.ConstantPad1d", pad_init, pad_forward),
    Rule::module("torch.nn.ConstantPad2d", pad_init, pad_forward),
    Rule::module("torch.nn.ConstantPad3d", pad_init, pad_forward),
    Rule::module("torch.nn.ReflectionPad1d", pad_init, pad_forward),
    Rule::module("torch.nn.ReflectionPad2d", pad_init, pad_forward),
    Rule::module("torch.nn.ReflectionPad3d", pad_init, pad_forward),
    Rule::module("torch.nn.ReplicationPad1d", pad_init, pad_forward),
    Rule::module("torch.nn.ReplicationPad2d", pad_init, pad_forward),
    Rule::module("torch.nn.ReplicationPad3d", pad_init, pad_forward),
    Rule::module("torch.nn.CircularPad1d", pad_init, pad_forward),
    Rule::module("torch.nn.CircularPad2d", pad_init, pad_forward),
    Rule::module("torch.nn.CircularPad3d", pad_init, pad_forward),
    Rule::module("torch.nn.Upsample", upsample_init, upsample_forward),
    Rule::module(
        "torch.nn.UpsamplingNearest2d",
        upsample_init,
        upsample_forward,
    ),
    Rule::module(
        "torch.nn.UpsamplingBilinear2d",
        upsample_init,
        upsample_forward,
    ),
    Rule::function("torch.nn.functional.interpolate", interpolate)
        .finding(FindingKind::EmptyOutput),
    Rule::function("torch.nn.functional.upsample", interpolate),
    Rule::module("torch.nn.PixelShuffle", shuffle_init, shuffle_forward),
    Rule::module("torch.nn.PixelUnshuffle", shuffle_init, shuffle_forward),
    Rule::function("torch.nn.functional.pixel_shuffle", pixel_shuffle),
    Rule::function("torch.nn.functional.pixel_unshuffle", pixel_shuffle),
];

/// `F.pad(input, pad, mode='constant', value=None)` on dims: `pad` lists (left, right) pairs
/// from the last dim backwards; its length must be even ("Padding length must be divisible by
/// 2") and at most twice the rank. 'constant' pads any dims (negative pads crop; a size must
/// stay ≥ 0: "narrow(): length must be non-negative"); 'reflect', 'replicate' and 'circular'
/// pad the last 1, 2 or 3 dims of a 2-3, 3-4 or 4-5 D input only; reflect pads must be smaller
/// than the dim, circular pads at most the dim ("Padding value causes wrapping around more
/// than once").
pub(crate) fn pad_dims(
    ctx: &mut Ctx,
    dims: &[Dim],
    pads: &[DimExpr],
    mode: &str,
) -> Result<Vec<Dim>, RuleError> {
    let op = ctx.op.clone();
    let rank = dims.len();
    if !pads.len().is_multiple_of(2) {
        return invalid(format!("{op}: Padding length must be divisible by 2"));
    }
    let k = pads.len() / 2;
    if k > rank {
        return invalid(format!(
            "{op}: Padding length should be less than or equal to two times the input dimension \
             but got padding length {} and input of dimension {rank}",
            pads.len()
        ));
    }
    match mode {
        "constant" => {}
        "reflect" | "replicate" | "circular" => {
            if !(1..=3).contains(&k) || !(rank == k + 1 || rank == k + 2) {
                return invalid(format!(
                    "{op}: Padding size {} is not supported for {rank}D input tensor",
                    pads.len()
                ));
            }
        }
        other => return invalid(format!("{op}: Unrecognised padding mode {other}")),
    }
    let mut out = dims.to_vec();
    for i in 0..k {
        let at = rank - 1 - i;
        let (l, r) = (&pads[2 * i], &pads[2 * i + 1]);
        let Some(d) = dims[at].expr().cloned() else {
            continue;
        };
        match mode {
            "reflect" => {
                let msg = format!(
                    "{op}: Padding size should be less than the corresponding input dimension, \
                     but got: padding ({l}, {r}) at dimension {at} of input {d}"
                );
                ctx.require(Pred::Lt(l.clone(), d.clone()), msg.clone())?;
                ctx.require(Pred::Lt(r.clone(), d.clone()), msg)?;
            }
            "circular" => {
                let msg = format!("{op}: Padding value causes wrapping around more than once.");
                ctx.require(Pred::Le(l.clone(), d.clone()), msg.clone())?;
                ctx.require(Pred::Le(r.clone(), d.clone()), msg)?;
            }
            _ => {}
        }
        let size = d.add(l).add(r);
        ctx.require_with(Pred::Le(DimExpr::zero(), size.clone()), |_| {
            format!("{op}: narrow(): length must be non-negative (padded size {size})")
        })?;
        out[at] = Dim::Known(size);
    }
    Ok(out)
}

fn pad_list(ctx: &Ctx, v: Option<&Value>) -> Result<Vec<DimExpr>, RuleError> {
    let op = &ctx.op;
    match v.and_then(Value::elements) {
        Some(items) => items
            .iter()
            .map(|x| match x {
                Value::Float(_) => invalid(format!(
                    "{op}: pad(): argument 'pad' must be tuple of ints, but found element of type float"
                )),
                other => int_of(op, "pad", other),
            })
            .collect(),
        None => invalid(format!("{op}: `pad` must be a tuple of ints")),
    }
}

/// `F.pad(input, pad, mode='constant', value=None)`: see [`pad_dims`].
fn pad_functional(ctx: &mut Ctx) -> RuleResult {
    let (x, dtype) = ctx.ranked(0, "input")?;
    let pads = pad_list(ctx, ctx.arg(1, "pad"))?;
    let mode = match ctx.arg(2, "mode") {
        None => "constant".to_string(),
        Some(Value::Str(Some(s))) => s.clone(),
        Some(_) => return unsupported(format!("{}: padding mode is unknown", ctx.op)),
    };
    let out = pad_dims(ctx, &x, &pads, &mode)?;
    Ok(tensor_out(out, dtype))
}

/// `nn.ZeroPadNd(padding)`, `nn.ConstantPadNd(padding, value)`, `nn.ReflectionPadNd`,
/// `nn.ReplicationPadNd`, `nn.CircularPadNd`: `padding` is an int (the same on the 2N sides)
/// or a tuple given as is; the forward is `F.pad` with the module's mode.
fn pad_init(ctx: &mut Ctx) -> RuleResult {
    let n = spatial_rank(&ctx.op);
    let padding = match ctx.arg(0, "padding") {
        Some(v) if v.elements().is_some() => pad_list(ctx, Some(v))?,
        Some(v) => vec![int_of(&ctx.op, "padding", v)?; 2 * n],
        None => return invalid(format!("{}: missing argument 'padding'", ctx.op)),
    };
    let class = ctx.op.rsplit('.').next().unwrap_or("");
    let mode = if class.starts_with("Reflection") {
        "reflect"
    } else if class.starts_with("Replication") {
        "replicate"
    } else if class.starts_with("Circular") {
        "circular"
    } else {
        "constant"
    };
    Ok(module_value(
        ctx,
        vec![
            ("padding", tuple_value(&padding)),
            ("mode", Value::Str(Some(mode.into()))),
        ],
    ))
}

/// `pad(x)` for the padding modules: `F.pad(x, padding, mode)`.
fn pad_forward(ctx: &mut Ctx) -> RuleResult {
    let (x, dtype) = ctx.ranked(0, "input")?;
    let pads = pad_list(ctx, ctx.param("padding"))?;
    let mode = match ctx.param("mode") {
        Some(Value::Str(Some(s))) => s.clone(),
        _ => "constant".to_string(),
    };
    let out = pad_dims(ctx, &x, &pads, &mode)?;
    Ok(tensor_out(out, dtype))
}

/// `nn.Upsample(size=None, scale_factor=None, mode='nearest', align_corners=None)`,
/// `nn.UpsamplingNearest2d(size, scale_factor)` (mode 'nearest') and
/// `nn.UpsamplingBilinear2d(size, scale_factor)` (mode 'bilinear', aligned corners).
fn upsample_init(ctx: &mut Ctx) -> RuleResult {
    let op = ctx.op.clone();
    let get = |pos: usize, name: &str| ctx.arg(pos, name).cloned().unwrap_or(Value::None);
    let (mode, align) = if op.ends_with("Nearest2d") {
        (Value::Str(Some("nearest".into())), Value::None)
    } else if op.ends_with("Bilinear2d") {
        (Value::Str(Some("bilinear".into())), Value::Bool(Some(true)))
    } else {
        let mode = match ctx.arg(2, "mode") {
            None => Value::Str(Some("nearest".into())),
            Some(v) => v.clone(),
        };
        (mode, get(3, "align_corners"))
    };
    if let Some((k, _)) = ctx.kwargs.iter().find(|(k, _)| {
        ![
            "size",
            "scale_factor",
            "mode",
            "align_corners",
            "recompute_scale_factor",
        ]
        .contains(&k.as_str())
    }) {
        return invalid(format!(
            "{op}: __init__() got an unexpected keyword argument '{k}'"
        ));
    }
    let (size, scale) = (get(0, "size"), get(1, "scale_factor"));
    Ok(module_value(
        ctx,
        vec![
            ("size", size),
            ("scale_factor", scale),
            ("mode", mode),
            ("align_corners", align),
        ],
    ))
}

/// `up(x)`: `F.interpolate` with the module's settings; see [`resample`].
fn upsample_forward(ctx: &mut Ctx) -> RuleResult {
    let p = |name: &str| ctx.param(name).cloned().unwrap_or(Value::None);
    let (size, scale, mode, align) = (p("size"), p("scale_factor"), p("mode"), p("align_corners"));
    resample(ctx, &size, &scale, &mode, &align)
}

/// `F.interpolate(input, size=None, scale_factor=None, mode='nearest', align_corners=None,
/// ...)` and the deprecated `F.upsample`: see [`resample`].
fn interpolate(ctx: &mut Ctx) -> RuleResult {
    let p = |pos: usize, name: &str| ctx.arg(pos, name).cloned().unwrap_or(Value::None);
    let (size, scale, align) = (p(1, "size"), p(2, "scale_factor"), p(4, "align_corners"));
    let mode = ctx
        .arg(3, "mode")
        .cloned()
        .unwrap_or(Value::Str(Some("nearest".into())));
    resample(ctx, &size, &scale, &mode, &align)
}

/// Resampling `[N, C, *L]` with 1-3 spatial dims to `size` (an int or one int per spatial
/// dim) or `floor(L * scale_factor)` (exactly one of them: "either size or scale_factor
/// should be defined" / "only one of size or scale_factor should be defined"). 'nearest',
/// 'nearest-exact' and 'area' take 3-5 D input; 'linear' needs 3-D, 'bilinear' and 'bicubic'
/// 4-D, 'trilinear' 5-D ("Got 4D input, but linear mode needs 3D input"); `align_corners`
/// only with the interpolating modes; output sizes must be positive.
fn resample(ctx: &mut Ctx, size: &Value, scale: &Value, mode: &Value, align: &Value) -> RuleResult {
    let op = ctx.op.clone();
    let (x, dtype) = ctx.ranked(0, "input")?;
    let Value::Str(Some(mode)) = mode else {
        return unsupported(format!("{op}: mode unknown"));
    };
    let spatial = x.len().saturating_sub(2);
    let interpolating = ["linear", "bilinear", "bicubic", "trilinear"].contains(&mode.as_str());
    if !align.is_none() && !interpolating {
        return invalid(format!(
            "{op}: align_corners option can only be set with the interpolating modes: linear | \
             bilinear | bicubic | trilinear"
        ));
    }
    let out: Vec<Dim> = match (size.is_none(), scale.is_none()) {
        (true, true) => {
            return invalid(format!(
                "{op}: either size or scale_factor should be defined"
            ))
        }
        (false, false) => {
            return invalid(format!(
                "{op}: only one of size or scale_factor should be defined"
            ))
        }
        (false, true) => {
            let sizes = match size.elements() {
                Some(items) => {
                    if items.len() != spatial {
                        return invalid(format!(
                            "{op}: Input and output must have the same number of spatial \
                             dimensions, but got input with spatial dimensions of {} and output \
                             size of {size}",
                            Shape::Ranked(x[2.min(x.len())..].to_vec())
                        ));
                    }
                    items
                        .iter()
                        .map(|v| int_of(&op, "size", v))
                        .collect::<Result<Vec<_>, _>>()?
                }
                None => vec![int_of(&op, "size", size)?; spatial],
            };
            sizes.into_iter().map(Dim::Known).collect()
        }
        (true, false) => {
            let factors: Vec<Value> = match scale.elements() {
                Some(items) if items.len() != spatial => {
                    return invalid(format!(
                        "{op}: Input and output must have the same number of spatial dimensions"
                    ))
                }
                Some(items) => items,
                None => vec![scale.clone(); spatial],
            };
            let mut out = Vec::new();
            for (f, l) in factors.iter().zip(&x[2.min(x.len())..]) {
                let o = scaled(&op, l, f)?;
                // A fractional factor on a symbolic size leaves the output unknown, but it is
                // at least 1 only when `l * f >= 1`, i.e. `l >= ceil(1 / f)`.
                if let (Dim::Dyn, Some(le), Value::Float(Some(x))) = (&o, l.expr(), f) {
                    if *x > 0.0 {
                        let least = (1.0 / x).ceil() as i64;
                        ctx.require_with(Pred::Le(DimExpr::constant(least), le.clone()), |_| format!("{op}: Input and output sizes should be greater than 0: input {le} * scale {x} < 1"))?;
                    }
                }
                out.push(o);
            }
            out
        }
    };
    let needs = match mode.as_str() {
        "nearest" | "nearest-exact" | "area" => None,
        "linear" => Some(3),
        "bilinear" | "bicubic" => Some(4),
        "trilinear" => Some(5),
        _ => Some(0),
    };
    let supported = (3..=5).contains(&x.len());
    match needs {
        Some(r) if supported && r >= 3 && r != x.len() && mode != "bicubic" => {
            return invalid(format!(
                "{op}: Got {}D input, but {mode} mode needs {r}D input",
                x.len()
            ))
        }
        Some(r) if !supported || r != x.len() => {
            return invalid(format!(
                "{op}: Input Error: Only 3D, 4D and 5D input Tensors supported (got {}D) for the \
                 modes: nearest | linear | bilinear | bicubic | trilinear | area | nearest-exact \
                 (got {mode})",
                x.len()
            ))
        }
        None if !supported => {
            return invalid(format!(
                "{op}: Input Error: Only 3D, 4D and 5D input Tensors supported (got {}D)",
                x.len()
            ))
        }
        _ => {}
    }
    for l in x[2.min(x.len())..].iter().filter_map(Dim::expr) {
        ctx.require_with(Pred::Lt(DimExpr::zero(), l.clone()), |_| {
            format!("{op}: Input and output sizes should be greater than 0, but got input {l}")
        })?;
    }
    for o in out.iter().filter_map(Dim::expr) {
        ctx.require_with(Pred::Lt(DimExpr::zero(), o.clone()), |_| {
            format!("{op}: Input and output sizes should be greater than 0, but got output {o}")
        })?;
    }
    let dims = x[..2].iter().cloned().chain(out).collect();
    Ok(tensor_out(dims, dtype))
}

/// `floor(l * f)`: exact for integer factors; a fractional factor needs a concrete size.
fn scaled(op: &str, l: &Dim, f: &Value) -> Result<Dim, RuleError> {
    let factor = match f {
        Value::Int(e) => return Ok(l.map(|l| l.mul(e))),
        Value::Float(Some(x)) => *x,
        Value::Float(None) | Value::Unknown => return Ok(Dim::Dyn),
        other => return invalid(format!("{op}: scale_factor must be a number, not {other}")),
    };
    if factor.fract() == 0.0 && factor.abs() < 1e9 {
        return Ok(l.map(|l| l.mul_const(factor as i64)));
    }
    Ok(match l.as_const() {
        Some(c) => Dim::constant((c as f64 * factor).floor() as i64),
        None => Dim::Dyn,
    })
}

/// `nn.PixelShuffle(upscale_factor)` / `nn.PixelUnshuffle(downscale_factor)`.
fn shuffle_init(ctx: &mut Ctx) -> RuleResult {
    let name = if ctx.op.ends_with("Unshuffle") {
        "downscale_factor"
    } else {
        "upscale_factor"
    };
    let f = ctx
        .opt_int(0, name)?
        .ok_or_else(|| RuleError::invalid(format!("{}: missing argument '{name}'", ctx.op)))?;
    Ok(module_value(ctx, vec![("factor", Value::Int(f))]))
}

/// `shuffle(x)`: see [`shuffle_shape`].
fn shuffle_forward(ctx: &mut Ctx) -> RuleResult {
    let f = match ctx.param("factor") {
        Some(v) => int_of(&ctx.op, "factor", v)?,
        None => return unsupported(format!("{}: factor unknown", ctx.op)),
    };
    shuffle_shape(ctx, &f, ctx.op.ends_with("Unshuffle"))
}

/// `F.pixel_shuffle(input, upscale_factor)` / `F.pixel_unshuffle(input, downscale_factor)`:
/// see [`shuffle_shape`].
fn pixel_shuffle(ctx: &mut Ctx) -> RuleResult {
    let unshuffle = ctx.op.ends_with("unshuffle");
    let name = if unshuffle {
        "downscale_factor"
    } else {
        "upscale_factor"
    };
    let f = ctx
        .opt_int(1, name)?
        .ok_or_else(|| RuleError::invalid(format!("{}: missing argument '{name}'", ctx.op)))?;
    shuffle_shape(ctx, &f, unshuffle)
}

/// Pixel shuffle on `[*, C, H, W]` (at least 3-D) with a positive factor `r`: shuffle needs
/// `C` divisible by `r²` and gives `[*, C/r², H*r, W*r]`; unshuffle needs `H` and `W`
/// divisible by `r` and gives `[*, C*r², H/r, W/r]` (an empty input keeps its shape).
fn shuffle_shape(ctx: &mut Ctx, r: &DimExpr, unshuffle: bool) -> RuleResult {
    let op = ctx.op.clone();
    let what = if unshuffle {
        "pixel_unshuffle"
    } else {
        "pixel_shuffle"
    };
    let (x, dtype) = ctx.ranked(0, "input")?;
    if x.len() < 3 {
        return invalid(format!(
            "{op}: {what} expects input to have at least 3 dimensions, but got input with {} \
             dimension(s)",
            x.len()
        ));
    }
    ctx.require_with(Pred::Lt(DimExpr::zero(), r.clone()), |_| {
        format!("{op}: {what} expects a positive factor, but got {r}")
    })?;
    let k = x.len();
    let r2 = r.mul(r);
    let numel = Dim::product(&x);
    if unshuffle && numel.as_const() == Some(0) {
        // An empty input is returned with its own shape.
        return Ok(tensor_out(x, dtype));
    }
    if unshuffle && numel.as_const().is_none() {
        // Whether the input is empty (and returned as is, unchecked) is unknown: the checks
        // hold "or the input is empty", and the rearranged dims are unknown.
        if let Dim::Known(n) = &numel {
            for i in [k - 2, k - 1] {
                if let Some(d) = x[i].expr() {
                    ctx.require_with(Pred::Or(vec![Pred::Eq(n.clone(), DimExpr::zero()), Pred::Divides(r.clone(), d.clone())]), |_| format!("{op}: pixel_unshuffle expects the spatial dims to be divisible by downscale_factor {r}, but got {d}"))?;
                }
            }
        }
        let mut out = x.clone();
        for d in &mut out[k - 3..] {
            *d = Dim::Dyn;
        }
        return Ok(tensor_out(out, dtype));
    }
    let mut out = x.clone();
    if unshuffle {
        for (i, name) in [(k - 2, "height"), (k - 1, "width")] {
            if let Some(d) = x[i].expr() {
                ctx.require_with(Pred::Divides(r.clone(), d.clone()), |_| {
                    format!(
                        "{op}: pixel_unshuffle expects {name} to be divisible by \
                         downscale_factor, but input.size({})={d} is not divisible by {r}",
                        i as i64 - k as i64
                    )
                })?;
            }
            out[i] = x[i].map(|d| d.floordiv(r));
        }
        out[k - 3] = x[k - 3].map(|c| c.mul(&r2));
    } else {
        if let Some(c) = x[k - 3].expr() {
            ctx.require_with(Pred::Divides(r2.clone(), c.clone()), |_| {
                format!(
                    "{op}: pixel_shuffle expects its input's 'channel' dimension to be divisible \
                     by the square of upscale_factor, but input.size(-3)={c} is not divisible by \
                     {r2}"
                )
            })?;
        }
        out[k - 3] = x[k - 3].map(|c| c.floordiv(&r2));
        out[k - 2] = x[k - 2].map(|d| d.mul(r));
        out[k - 1] = x[k - 1].map(|d| d.mul(r));
    }
    Ok(tensor_out(out, dtype))
}
