//! Operator rules: normalisation layers (batch, layer, group, instance, RMS, local response),
//! embeddings, and the shape-keeping or reducing similarity helpers (`F.normalize`,
//! `F.one_hot`, `F.cosine_similarity`, `F.pairwise_distance`). Modules are recorded in training
//! mode, which is what the "more than 1 value per channel" checks assume.

use super::invalid_as;
use super::nd::{module_value, spatial_rank};
use super::{int_of, invalid, tensor_out, unsupported, Ctx, Rule, RuleError, RuleResult};
use crate::shapes::dim::DimExpr;
use crate::shapes::kind::{Declared, FindingKind};
use crate::shapes::requirement::Pred;
use crate::shapes::shape::{Dim, Shape};
use crate::shapes::value::{DType, Value};

/// What this family's failures are, unless a rule or a check declares otherwise.
pub const KIND: FindingKind = FindingKind::ChannelMismatch;

pub const RULES: &[Rule] = &[
    Rule::module("torch.nn.BatchNorm1d", features_init, batch_norm_forward),
    Rule::module("torch.nn.BatchNorm2d", features_init, batch_norm_forward),
    Rule::module("torch.nn.BatchNorm3d", features_init, batch_norm_forward),
    Rule::function("torch.nn.functional.batch_norm", batch_norm_functional),
    Rule::module(
        "torch.nn.InstanceNorm1d",
        features_init,
        instance_norm_forward,
    ),
    Rule::module(
        "torch.nn.InstanceNorm2d",
        features_init,
        instance_norm_forward,
    ),
    Rule::module(
        "torch.nn.InstanceNorm3d",
        features_init,
        instance_norm_forward,
    ),
    Rule::function(
        "torch.nn.functional.instance_norm",
        instance_norm_functional,
    )
    .finding(FindingKind::ShapeMismatch),
    Rule::module("torch.nn.LayerNorm", layer_norm_init, layer_norm_forward)
        .finding(FindingKind::FeatureMismatch),
    Rule::module("torch.nn.RMSNorm", layer_norm_init, layer_norm_forward)
        .finding(FindingKind::ShapeMismatch),
    Rule::function("torch.nn.functional.layer_norm", layer_norm_functional)
        .finding(FindingKind::FeatureMismatch),
    Rule::function("torch.nn.functional.rms_norm", layer_norm_functional)
        .finding(FindingKind::ShapeMismatch),
    Rule::module("torch.nn.GroupNorm", group_norm_init, group_norm_forward),
    Rule::function("torch.nn.functional.group_norm", group_norm_functional),
    Rule::module("torch.nn.LocalResponseNorm", lrn_init, local_response_norm)
        .finding(FindingKind::ShapeMismatch),
    Rule::function(
        "torch.nn.functional.local_response_norm",
        local_response_norm,
    )
    .finding(FindingKind::ShapeMismatch),
];

pub(super) fn int_param(ctx: &Ctx, name: &str) -> Result<DimExpr, RuleError> {
    match ctx.param(name) {
        Some(v) => int_of(&ctx.op, name, v),
        None => unsupported(format!("{}: module has no `{name}`", ctx.op)),
    }
}

pub(super) fn bool_param(ctx: &Ctx, name: &str) -> bool {
    matches!(ctx.param(name), Some(Value::Bool(Some(true))))
}

/// The 1-D size of an optional parameter tensor (`weight`, `running_mean`) given to a
/// functional form: it must hold `c` elements ("weight should contain C elements not K").
fn check_vector(ctx: &mut Ctx, pos: usize, name: &str, c: &Dim) -> Result<(), RuleError> {
    match ctx.arg(pos, name) {
        None | Some(Value::None) => Ok(()),
        Some(_) => {
            let (d, _) = ctx.ranked(pos, name)?;
            let numel = Dim::product(&d);
            let msg = format!("{}: {name} should contain {c} elements not {numel}", ctx.op);
            ctx.require_eq(&numel, c, msg)
        }
    }
}

/// `running_mean`, `running_var`, `weight` and `bias` (positions 1-4) hold `c` elements.
fn check_vectors(ctx: &mut Ctx, c: &Dim) -> Result<(), RuleError> {
    for (pos, name) in [
        (1, "running_mean"),
        (2, "running_var"),
        (3, "weight"),
        (4, "bias"),
    ] {
        check_vector(ctx, pos, name, c)?;
    }
    Ok(())
}

/// The number of values per channel: every dim but dim 1 multiplied.
fn per_channel(dims: &[Dim]) -> Dim {
    let others: Vec<Dim> = dims
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != 1)
        .map(|(_, d)| d.clone())
        .collect();
    Dim::product(&others)
}

/// Training-mode batch statistics need more than one value per channel ("Expected more than
/// 1 value per channel when training"; an empty batch is allowed). A layer is in training
/// mode unless the interpreter says its mode is not known (`model.eval()` ran).
fn require_not_one(ctx: &mut Ctx, size: &Dim, what: &str, dims: &[Dim]) -> Result<(), RuleError> {
    let training = match ctx.param("training") {
        None => true,
        Some(v) => matches!(v, Value::Bool(Some(true))),
    };
    if !training {
        return Ok(());
    }
    if let Some(e) = size.expr() {
        ctx.require_with(Pred::Ne(e.clone(), DimExpr::one()), |cx| {
            format!(
                "{}: Expected more than 1 {what} when training, got input size {}",
                cx.op,
                Shape::Ranked(dims.to_vec())
            )
        })?;
    }
    Ok(())
}

/// `nn.BatchNormNd(num_features, eps=1e-5, momentum=0.1, affine=True,
/// track_running_stats=True)` and `nn.InstanceNormNd(num_features, eps, momentum,
/// affine=False, track_running_stats=False)`: stores the hyperparameters; a negative
/// `num_features` fails creating the parameters.
fn features_init(ctx: &mut Ctx) -> RuleResult {
    let op = ctx.op.clone();
    let n = ctx
        .opt_int(0, "num_features")?
        .ok_or_else(|| RuleError::invalid(format!("{op}: missing argument 'num_features'")))?;
    let instance = op.contains("Instance");
    let affine = ctx.bool_or(3, "affine", !instance)?;
    let track = ctx.bool_or(4, "track_running_stats", !instance)?;
    if affine || track {
        ctx.require_with(Pred::Le(DimExpr::zero(), n.clone()), |_| {
            format!("{op}: Trying to create tensor with negative dimension {n}")
        })?;
    }
    Ok(module_value(
        ctx,
        vec![
            ("num_features", Value::Int(n)),
            ("eps", eps_arg(ctx, 1)),
            // `momentum=None` (a cumulative average) is kept as given.
            (
                "momentum",
                ctx.arg(2, "momentum")
                    .cloned()
                    .unwrap_or(Value::Float(Some(0.1))),
            ),
            ("affine", Value::Bool(Some(affine))),
            ("track_running_stats", Value::Bool(Some(track))),
        ],
    ))
}

/// `bn(x)`: `BatchNorm1d` takes 2-D or 3-D input, `BatchNorm2d` 4-D, `BatchNorm3d` 5-D
/// ("expected 4D input (got 3D input)"); with running stats or affine parameters dim 1 must
/// be `num_features` ("running_mean should contain C elements not F"); in training more than
/// one value per channel. Shape kept.
fn batch_norm_forward(ctx: &mut Ctx) -> RuleResult {
    let op = ctx.op.clone();
    let n = spatial_rank(&op);
    let (x, dtype) = ctx.ranked(0, "input")?;
    let ok = if n == 1 {
        x.len() == 2 || x.len() == 3
    } else {
        x.len() == n + 2
    };
    if !ok {
        let want = if n == 1 {
            "2D or 3D".to_string()
        } else {
            format!("{}D", n + 2)
        };
        return invalid_as(
            Declared::Specific(FindingKind::RankMismatch),
            format!("{op}: expected {want} input (got {}D input)", x.len()),
        );
    }
    let features = Dim::Known(int_param(ctx, "num_features")?);
    if bool_param(ctx, "affine") || bool_param(ctx, "track_running_stats") {
        let msg = format!(
            "{op}: running_mean should contain {} elements not {features}",
            x[1]
        );
        ctx.require_eq(&x[1], &features, msg)?;
    }
    require_not_one(ctx, &per_channel(&x), "value per channel", &x)?;
    Ok(tensor_out(x, dtype))
}

/// `F.batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False,
/// momentum=0.1, eps=1e-5)`: at least 2-D; the given vectors hold `input.size(1)` elements;
/// in training more than one value per channel. Shape kept.
fn batch_norm_functional(ctx: &mut Ctx) -> RuleResult {
    let op = ctx.op.clone();
    let (x, dtype) = ctx.ranked(0, "input")?;
    if x.len() < 2 {
        return invalid(format!("{op}: batch_norm expects at least 2-D input"));
    }
    check_vectors(ctx, &x[1])?;
    if ctx.bool_or(5, "training", false)? {
        require_not_one(ctx, &per_channel(&x), "value per channel", &x)?;
    }
    Ok(tensor_out(x, dtype))
}

/// The spatial-size check of instance norm: more than one spatial element per channel when
/// using input statistics ("Expected more than 1 spatial element when training").
fn require_spatial(ctx: &mut Ctx, x: &[Dim], batched: bool) -> Result<(), RuleError> {
    let skip = if batched { 2 } else { 1 };
    let spatial = Dim::product(x.get(skip..).unwrap_or(&[]));
    require_not_one(ctx, &spatial, "spatial element", x)
}

/// `inorm(x)`: `InstanceNormNd` takes `[C, *L]` or `[N, C, *L]` with N spatial dims
/// ("expected 2D or 3D input"); with `affine` (or running stats) the channel dim must be
/// `num_features` ("expected input's size at dim=1 to match num_features"); more than one
/// spatial element. Shape kept.
fn instance_norm_forward(ctx: &mut Ctx) -> RuleResult {
    let op = ctx.op.clone();
    let n = spatial_rank(&op);
    let (x, dtype) = ctx.ranked(0, "input")?;
    if x.len() != n + 1 && x.len() != n + 2 {
        return invalid_as(
            Declared::Specific(FindingKind::RankMismatch),
            format!(
                "{op}: expected {}D or {}D input (got {}D input)",
                n + 1,
                n + 2,
                x.len()
            ),
        );
    }
    let batched = x.len() == n + 2;
    let ch = usize::from(batched);
    let features = Dim::Known(int_param(ctx, "num_features")?);
    if bool_param(ctx, "affine") || bool_param(ctx, "track_running_stats") {
        let msg = format!(
            "{op}: expected input's size at dim={ch} to match num_features ({features}), but got: {}.",
            x[ch]
        );
        ctx.require_eq(&x[ch], &features, msg)?;
    }
    require_spatial(ctx, &x, batched)?;
    Ok(tensor_out(x, dtype))
}

/// `F.instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None,
/// use_input_stats=True, ...)`: batched input `[N, C, *L]`; the given vectors hold C elements;
/// more than one spatial element when using input statistics. Shape kept.
fn instance_norm_functional(ctx: &mut Ctx) -> RuleResult {
    let op = ctx.op.clone();
    let (x, dtype) = ctx.ranked(0, "input")?;
    if x.len() < 2 {
        return invalid(format!("{op}: instance_norm expects at least 2-D input"));
    }
    check_vectors(ctx, &x[1])?;
    if ctx.bool_or(5, "use_input_stats", true)? {
        require_spatial(ctx, &x, true)?;
    }
    Ok(tensor_out(x, dtype))
}

/// A norm layer's `eps` as given, else PyTorch's default (`None` for `nn.RMSNorm`, which
/// picks it from the input's dtype). Shape-neutral, but stored so that `self.eps` read back
/// in a functional call (`F.layer_norm(x, ..., self.eps)`) is a known value.
fn eps_arg(ctx: &Ctx, pos: usize) -> Value {
    match ctx.arg(pos, "eps") {
        Some(v) => v.clone(),
        None if ctx.op.ends_with("RMSNorm") => Value::None,
        None => Value::Float(Some(1e-5)),
    }
}

/// `normalized_shape`: an int or a sequence of ints.
fn shape_arg(op: &str, v: &Value) -> Result<Vec<Dim>, RuleError> {
    match v.elements() {
        Some(items) => items
            .iter()
            .map(|x| match x {
                Value::IntUnknown => Ok(Dim::Dyn),
                other => int_of(op, "normalized_shape", other).map(Dim::Known),
            })
            .collect(),
        None => Ok(vec![Dim::Known(int_of(op, "normalized_shape", v)?)]),
    }
}

/// `nn.LayerNorm(normalized_shape, eps=1e-5, elementwise_affine=True, bias=True)` and
/// `nn.RMSNorm(normalized_shape, eps=None, elementwise_affine=True)`: `normalized_shape` is an
/// int or a tuple; negative sizes fail creating the affine parameters.
fn layer_norm_init(ctx: &mut Ctx) -> RuleResult {
    let op = ctx.op.clone();
    let shape = match ctx.arg(0, "normalized_shape") {
        Some(v) => shape_arg(&op, v)?,
        None => return invalid(format!("{op}: missing argument 'normalized_shape'")),
    };
    let affine = ctx.bool_or(2, "elementwise_affine", true)?;
    let eps = eps_arg(ctx, 1);
    // `nn.RMSNorm(normalized_shape, eps, elementwise_affine)` has no bias.
    let bias = op.ends_with("LayerNorm") && ctx.bool_or(3, "bias", true)?;
    if affine {
        for d in shape.iter().filter_map(Dim::expr) {
            ctx.require_with(Pred::Le(DimExpr::zero(), d.clone()), |_| {
                format!("{op}: Trying to create tensor with negative dimension {d}")
            })?;
        }
    }
    let items = shape
        .iter()
        .map(|d| {
            d.expr()
                .map_or(Value::IntUnknown, |e| Value::Int(e.clone()))
        })
        .collect();
    Ok(module_value(
        ctx,
        vec![
            ("normalized_shape", Value::Tuple(items)),
            ("eps", eps),
            ("elementwise_affine", Value::Bool(Some(affine))),
            ("bias", Value::Bool(Some(bias))),
        ],
    ))
}

/// The layer-norm check: `normalized_shape` is non-empty and equals the input's trailing
/// dims ("Given normalized_shape=[..], expected input with shape [*, ..], but got input of
/// size[..]"). Shape kept.
fn layer_norm_shape(ctx: &mut Ctx, x: Vec<Dim>, dtype: Option<DType>, shape: &[Dim]) -> RuleResult {
    let op = ctx.op.clone();
    if shape.is_empty() {
        return invalid(format!(
            "{op}: Expected normalized_shape to be at least 1-dimensional, i.e., containing at \
             least one element, but got normalized_shape = []"
        ));
    }
    let msg = format!(
        "{op}: Given normalized_shape={}, expected input with shape [*, ..], but got input of \
         size{}",
        Shape::Ranked(shape.to_vec()),
        Shape::Ranked(x.clone())
    );
    if x.len() < shape.len() {
        return invalid(msg);
    }
    let tail = &x[x.len() - shape.len()..];
    for (a, b) in tail.iter().zip(shape) {
        ctx.require_eq(a, b, msg.clone())?;
    }
    Ok(tensor_out(x, dtype))
}

/// `ln(x)` for `nn.LayerNorm` / `nn.RMSNorm`: see [`layer_norm_shape`].
fn layer_norm_forward(ctx: &mut Ctx) -> RuleResult {
    let (x, dtype) = ctx.ranked(0, "input")?;
    let shape = match ctx.param("normalized_shape") {
        Some(v) => shape_arg(&ctx.op, v)?,
        None => return unsupported(format!("{}: normalized_shape unknown", ctx.op)),
    };
    layer_norm_shape(ctx, x, dtype, &shape)
}

/// `F.layer_norm(input, normalized_shape, weight=None, bias=None, eps)` and
/// `F.rms_norm(input, normalized_shape, weight=None, eps=None)`: `normalized_shape` must be a
/// sequence (an int is a TypeError); a weight/bias must have exactly that shape.
fn layer_norm_functional(ctx: &mut Ctx) -> RuleResult {
    let op = ctx.op.clone();
    let (x, dtype) = ctx.ranked(0, "input")?;
    let shape = match ctx.arg(1, "normalized_shape") {
        Some(v) if v.elements().is_some() => shape_arg(&op, v)?,
        Some(v) => {
            return invalid(format!(
                "{op}: argument 'normalized_shape' must be tuple of ints, not {v}"
            ))
        }
        None => return invalid(format!("{op}: missing argument 'normalized_shape'")),
    };
    let names: &[(usize, &str)] = if op.ends_with("rms_norm") {
        &[(2, "weight")]
    } else {
        &[(2, "weight"), (3, "bias")]
    };
    for (pos, name) in names {
        if matches!(ctx.arg(*pos, name), Some(Value::Tensor(_))) {
            let (w, _) = ctx.ranked(*pos, name)?;
            let msg = format!(
                "{op}: Expected {name} to be of same shape as normalized_shape, but got {name} \
                 of shape {} and normalized_shape = {}",
                Shape::Ranked(w.clone()),
                Shape::Ranked(shape.clone())
            );
            if w.len() != shape.len() {
                return invalid(msg);
            }
            for (a, b) in w.iter().zip(&shape) {
                ctx.require_eq(a, b, msg.clone())?;
            }
        }
    }
    layer_norm_shape(ctx, x, dtype, &shape)
}

/// `nn.GroupNorm(num_groups, num_channels, eps=1e-5, affine=True)`: `num_channels` must be
/// divisible by `num_groups` ("num_channels (C) must be divisible by num_groups (G)"; zero
/// groups is a ZeroDivisionError).
fn group_norm_init(ctx: &mut Ctx) -> RuleResult {
    let op = ctx.op.clone();
    let g = ctx
        .opt_int(0, "num_groups")?
        .ok_or_else(|| RuleError::invalid(format!("{op}: missing argument 'num_groups'")))?;
    let c = ctx
        .opt_int(1, "num_channels")?
        .ok_or_else(|| RuleError::invalid(format!("{op}: missing argument 'num_channels'")))?;
    ctx.require_with(Pred::Divides(g.clone(), c.clone()), |_| {
        format!("{op}: num_channels ({c}) must be divisible by num_groups ({g})")
    })?;
    let affine = ctx.bool_or(3, "affine", true)?;
    Ok(module_value(
        ctx,
        vec![
            ("num_groups", Value::Int(g)),
            ("num_channels", Value::Int(c)),
            ("eps", eps_arg(ctx, 2)),
            ("affine", Value::Bool(Some(affine))),
        ],
    ))
}

/// The group-norm checks on `[N, C, *]`: at least 2-D, `C > 0`, `C` divisible by the groups,
/// a non-empty spatial part ("Expected HxW to be greater than 0"), and a weight of `C`
/// elements. Shape kept.
fn group_norm_shape(ctx: &mut Ctx, groups: &DimExpr, weight: Option<Dim>) -> RuleResult {
    let op = ctx.op.clone();
    let (x, dtype) = ctx.ranked(0, "input")?;
    if x.len() < 2 {
        return invalid(format!(
            "{op}: Expected at least 2 dimensions for input tensor but received {}",
            x.len()
        ));
    }
    let shown = Shape::Ranked(x.clone());
    if let Some(c) = x[1].expr() {
        ctx.require_with(Pred::Lt(DimExpr::zero(), c.clone()), |_| {
            format!("{op}: Expected number of channels to be greater than 0, got {c}")
        })?;
        ctx.require_with(Pred::Divides(groups.clone(), c.clone()), |_| {
            format!(
                "{op}: Expected number of channels in input to be divisible by num_groups, but \
                 got input of shape {shown} and num_groups={groups}"
            )
        })?;
    }
    if let Some(w) = weight {
        let msg = format!(
            "{op}: Expected weight to be a vector of size equal to the number of channels in \
             input, but got weight of shape [{w}] and input of shape {shown}"
        );
        ctx.require_eq(&x[1], &w, msg)?;
    }
    if let Some(hw) = Dim::product(&x[2..]).expr() {
        ctx.require_with(Pred::Lt(DimExpr::zero(), hw.clone()), |_| {
            format!("{op}: Expected HxW to be greater than 0, got {hw}")
        })?;
    }
    Ok(tensor_out(x, dtype))
}

/// `gn(x)`: see [`group_norm_shape`]; the affine weight has `num_channels` elements.
fn group_norm_forward(ctx: &mut Ctx) -> RuleResult {
    let g = int_param(ctx, "num_groups")?;
    let weight = if bool_param(ctx, "affine") {
        Some(Dim::Known(int_param(ctx, "num_channels")?))
    } else {
        None
    };
    group_norm_shape(ctx, &g, weight)
}

/// `F.group_norm(input, num_groups, weight=None, bias=None, eps=1e-5)`: see
/// [`group_norm_shape`].
fn group_norm_functional(ctx: &mut Ctx) -> RuleResult {
    let op = ctx.op.clone();
    let g = ctx
        .opt_int(1, "num_groups")?
        .ok_or_else(|| RuleError::invalid(format!("{op}: missing argument 'num_groups'")))?;
    let weight = match ctx.arg(2, "weight") {
        Some(Value::Tensor(_)) => Some(Dim::product(&ctx.ranked(2, "weight")?.0)),
        _ => None,
    };
    group_norm_shape(ctx, &g, weight)
}

/// `nn.LocalResponseNorm(size, alpha=1e-4, beta=0.75, k=1.0)`.
fn lrn_init(ctx: &mut Ctx) -> RuleResult {
    let size = ctx.int_or(0, "size", 1)?;
    Ok(module_value(ctx, vec![("size", Value::Int(size))]))
}

/// `F.local_response_norm(input, size, ...)` / `lrn(x)`: input of 3 or more dims ("Expected
/// 3D or higher dimensionality input"). Shape kept.
fn local_response_norm(ctx: &mut Ctx) -> RuleResult {
    let (x, dtype) = ctx.ranked(0, "input")?;
    if x.len() < 3 {
        return invalid(format!(
            "{}: Expected 3D or higher dimensionality input (got {} dimensions)",
            ctx.op,
            x.len()
        ));
    }
    Ok(tensor_out(x, dtype))
}
