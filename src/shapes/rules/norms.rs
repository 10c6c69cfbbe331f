//! Operator rules: normalisation layers (batch, layer, group, instance, RMS, local response),
//! embeddings, and the shape-keeping or reducing similarity helpers (`F.normalize`,
//! `F.one_hot`, `F.cosine_similarity`, `F.pairwise_distance`). Modules are recorded in training
//! mode, which is what the "more than 1 value per channel" checks assume.

use super::conv::{module_value, spatial_rank};
use super::{int_of, invalid, tensor_out, unsupported, Ctx, Rule, RuleError, RuleResult};
use crate::shapes::dim::DimExpr;
use crate::shapes::requirement::Pred;
use crate::shapes::shape::{broadcast, Dim, Shape};
use crate::shapes::value::{DType, Value};

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
    ),
    Rule::module("torch.nn.LayerNorm", layer_norm_init, layer_norm_forward),
    Rule::module("torch.nn.RMSNorm", layer_norm_init, layer_norm_forward),
    Rule::function("torch.nn.functional.layer_norm", layer_norm_functional),
    Rule::function("torch.nn.functional.rms_norm", layer_norm_functional),
    Rule::module("torch.nn.GroupNorm", group_norm_init, group_norm_forward),
    Rule::function("torch.nn.functional.group_norm", group_norm_functional),
    Rule::module("torch.nn.LocalResponseNorm", lrn_init, local_response_norm),
    Rule::function(
        "torch.nn.functional.local_response_norm",
        local_response_norm,
    ),
    Rule::module("torch.nn.Embedding", embedding_init, embedding_forward),
    Rule::function("torch.nn.functional.embedding", embedding_functional),
    Rule::module(
        "torch.nn.EmbeddingBag",
        embedding_init,
        embedding_bag_forward,
    ),
    Rule::function(
        "torch.nn.functional.embedding_bag",
        embedding_bag_functional,
    ),
    Rule::function("torch.nn.functional.normalize", normalize),
    Rule::function("torch.nn.functional.one_hot", one_hot),
    Rule::module("torch.nn.CosineSimilarity", cosine_init, cosine_similarity),
    Rule::function("torch.nn.functional.cosine_similarity", cosine_similarity),
    Rule::function("torch.nn.functional.pairwise_distance", pairwise_distance),
];

fn int_param(ctx: &Ctx, name: &str) -> Result<DimExpr, RuleError> {
    match ctx.param(name) {
        Some(v) => int_of(&ctx.op, name, v),
        None => unsupported(format!("{}: module has no `{name}`", ctx.op)),
    }
}

fn bool_param(ctx: &Ctx, name: &str) -> bool {
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
/// 1 value per channel when training"; an empty batch is allowed).
fn require_not_one(ctx: &mut Ctx, size: &Dim, what: &str, dims: &[Dim]) -> Result<(), RuleError> {
    if let Some(e) = size.expr() {
        ctx.require(
            Pred::Ne(e.clone(), DimExpr::one()),
            format!(
                "{}: Expected more than 1 {what} when training, got input size {}",
                ctx.op,
                Shape::Ranked(dims.to_vec())
            ),
        )?;
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
        .ok_or_else(|| RuleError::Invalid(format!("{op}: missing argument 'num_features'")))?;
    let instance = op.contains("Instance");
    let affine = ctx.bool_or(3, "affine", !instance)?;
    let track = ctx.bool_or(4, "track_running_stats", !instance)?;
    if affine || track {
        ctx.require(
            Pred::Le(DimExpr::zero(), n.clone()),
            format!("{op}: Trying to create tensor with negative dimension {n}"),
        )?;
    }
    Ok(module_value(
        ctx,
        vec![
            ("num_features", Value::Int(n)),
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
        return invalid(format!(
            "{op}: expected {want} input (got {}D input)",
            x.len()
        ));
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
        return invalid(format!(
            "{op}: expected {}D or {}D input (got {}D input)",
            n + 1,
            n + 2,
            x.len()
        ));
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
    if ctx.bool_or(2, "elementwise_affine", true)? {
        for d in shape.iter().filter_map(Dim::expr) {
            ctx.require(
                Pred::Le(DimExpr::zero(), d.clone()),
                format!("{op}: Trying to create tensor with negative dimension {d}"),
            )?;
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
        vec![("normalized_shape", Value::Tuple(items))],
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
        .ok_or_else(|| RuleError::Invalid(format!("{op}: missing argument 'num_groups'")))?;
    let c = ctx
        .opt_int(1, "num_channels")?
        .ok_or_else(|| RuleError::Invalid(format!("{op}: missing argument 'num_channels'")))?;
    ctx.require(
        Pred::Divides(g.clone(), c.clone()),
        format!("{op}: num_channels ({c}) must be divisible by num_groups ({g})"),
    )?;
    let affine = ctx.bool_or(3, "affine", true)?;
    Ok(module_value(
        ctx,
        vec![
            ("num_groups", Value::Int(g)),
            ("num_channels", Value::Int(c)),
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
        ctx.require(
            Pred::Lt(DimExpr::zero(), c.clone()),
            format!("{op}: Expected number of channels to be greater than 0, got {c}"),
        )?;
        ctx.require(
            Pred::Divides(groups.clone(), c.clone()),
            format!(
                "{op}: Expected number of channels in input to be divisible by num_groups, but \
                 got input of shape {shown} and num_groups={groups}"
            ),
        )?;
    }
    if let Some(w) = weight {
        let msg = format!(
            "{op}: Expected weight to be a vector of size equal to the number of channels in \
             input, but got weight of shape [{w}] and input of shape {shown}"
        );
        ctx.require_eq(&x[1], &w, msg)?;
    }
    if let Some(hw) = Dim::product(&x[2..]).expr() {
        ctx.require(
            Pred::Lt(DimExpr::zero(), hw.clone()),
            format!("{op}: Expected HxW to be greater than 0, got {hw}"),
        )?;
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
        .ok_or_else(|| RuleError::Invalid(format!("{op}: missing argument 'num_groups'")))?;
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

/// `nn.Embedding(num_embeddings, embedding_dim, padding_idx=None, ..., _weight=None)` and
/// `nn.EmbeddingBag(num_embeddings, embedding_dim, max_norm, norm_type, scale_grad_by_freq,
/// mode='mean', sparse, _weight, include_last_offset=False, padding_idx=None)`: `padding_idx`
/// must lie in `[-num_embeddings, num_embeddings)`; a given `_weight` must be
/// `[num_embeddings, embedding_dim]`; negative sizes fail creating the weight.
fn embedding_init(ctx: &mut Ctx) -> RuleResult {
    let op = ctx.op.clone();
    let bag = op.ends_with("Bag");
    let num = ctx
        .opt_int(0, "num_embeddings")?
        .ok_or_else(|| RuleError::Invalid(format!("{op}: missing argument 'num_embeddings'")))?;
    let dim = ctx
        .opt_int(1, "embedding_dim")?
        .ok_or_else(|| RuleError::Invalid(format!("{op}: missing argument 'embedding_dim'")))?;
    let pad_pos = if bag { 9 } else { 2 };
    if let Some(p) = ctx.opt_int(pad_pos, "padding_idx")? {
        ctx.require(
            Pred::And(vec![
                Pred::Lt(p.clone(), num.clone()),
                Pred::Le(num.neg(), p.clone()),
            ]),
            format!("{op}: Padding_idx must be within num_embeddings"),
        )?;
    }
    let weight_pos = 7;
    match ctx.arg(weight_pos, "_weight") {
        Some(Value::Tensor(_)) => {
            let (w, _) = ctx.ranked(weight_pos, "_weight")?;
            let msg =
                format!("{op}: Shape of weight does not match num_embeddings and embedding_dim");
            if w.len() != 2 {
                return invalid(msg);
            }
            ctx.require_eq(&w[0], &Dim::Known(num.clone()), msg.clone())?;
            ctx.require_eq(&w[1], &Dim::Known(dim.clone()), msg)?;
        }
        _ => {
            for d in [&num, &dim] {
                ctx.require(
                    Pred::Le(DimExpr::zero(), d.clone()),
                    format!("{op}: Trying to create tensor with negative dimension {d}"),
                )?;
            }
        }
    }
    let mode = match ctx.arg(5, "mode") {
        Some(Value::Str(Some(s))) if bag => s.clone(),
        _ => "mean".to_string(),
    };
    let last = bag && ctx.bool_or(8, "include_last_offset", false)?;
    Ok(module_value(
        ctx,
        vec![
            ("num_embeddings", Value::Int(num)),
            ("embedding_dim", Value::Int(dim)),
            ("mode", Value::Str(Some(mode))),
            ("include_last_offset", Value::Bool(Some(last))),
        ],
    ))
}

/// Indices must be an integer tensor ("Expected tensor for argument #1 'indices' to have one
/// of the following scalar types: Long, Int").
fn require_indices(ctx: &Ctx, dtype: Option<DType>) -> Result<(), RuleError> {
    match dtype {
        Some(DType::Int) | None => Ok(()),
        Some(other) => invalid(format!(
            "{}: Expected tensor for argument #1 'indices' to have one of the following scalar \
             types: Long, Int; but got {other:?}",
            ctx.op
        )),
    }
}

/// The embedding lookup: `indices.shape + [embedding_dim]`, floating. An empty table cannot
/// be indexed ("index_select(): self indexing axis dim should be positive"); index values are
/// data and not checked.
fn embedding_shape(ctx: &mut Ctx, num: &Dim, dim: Dim) -> RuleResult {
    let (idx, dtype) = ctx.ranked(0, "input")?;
    require_indices(ctx, dtype)?;
    // An empty table can only be indexed by an empty index tensor.
    if let (Some(rows), Dim::Known(n)) = (num.expr(), Dim::product(&idx)) {
        ctx.require(
            Pred::Or(vec![
                Pred::Ne(rows.clone(), DimExpr::zero()),
                Pred::Eq(n, DimExpr::zero()),
            ]),
            format!(
                "{}: index_select(): self indexing axis dim should be positive",
                ctx.op
            ),
        )?;
    }
    let mut out = idx;
    out.push(dim);
    Ok(tensor_out(out, Some(DType::Float)))
}

/// `emb(indices)`: see [`embedding_shape`].
fn embedding_forward(ctx: &mut Ctx) -> RuleResult {
    let num = Dim::Known(int_param(ctx, "num_embeddings")?);
    let dim = Dim::Known(int_param(ctx, "embedding_dim")?);
    embedding_shape(ctx, &num, dim)
}

/// `F.embedding(input, weight, padding_idx=None, ...)`: the weight must be 2-D ("'weight'
/// must be 2-D"); see [`embedding_shape`].
fn embedding_functional(ctx: &mut Ctx) -> RuleResult {
    let (w, _) = ctx.ranked(1, "weight")?;
    if w.len() != 2 {
        return invalid(format!("{}: 'weight' must be 2-D", ctx.op));
    }
    embedding_shape(ctx, &w[0], w[1].clone())
}

/// The bag reduction: 2-D input `[B, L]` (offsets must be None) gives `[B, dim]`; 1-D input
/// needs 1-D offsets and gives `[len(offsets), dim]` (one less with `include_last_offset`);
/// other ranks raise. `mode` is 'sum', 'mean' or 'max'; `per_sample_weights` only with 'sum'
/// and of the input's shape.
fn embedding_bag_shape(
    ctx: &mut Ctx,
    dim: Dim,
    offsets_pos: usize,
    weights_pos: usize,
    mode: &str,
    include_last: bool,
) -> RuleResult {
    let op = ctx.op.clone();
    let (idx, dtype) = ctx.ranked(0, "input")?;
    let offsets = match ctx.arg(offsets_pos, "offsets") {
        None | Some(Value::None) => None,
        Some(_) => Some(ctx.ranked(offsets_pos, "offsets")?.0),
    };
    let rows = match (idx.len(), offsets) {
        (2, None) => idx[0].clone(),
        (2, Some(_)) => {
            return invalid(format!(
                "{op}: if input is 2D, then offsets has to be None, as input is treated is a \
                 mini-batch of fixed length sequences"
            ))
        }
        (1, None) => return invalid(format!("{op}: offsets has to be a 1D Tensor but got None")),
        (1, Some(o)) if o.len() == 1 => {
            if include_last {
                o[0].map(|n| n.add_const(-1))
            } else {
                o[0].clone()
            }
        }
        (1, Some(_)) => return invalid(format!("{op}: offsets has to be a 1D Tensor")),
        (r, _) => {
            return invalid(format!(
                "{op}: input has to be 1D or 2D Tensor, but got Tensor of dimension {r}"
            ))
        }
    };
    require_indices(ctx, dtype)?;
    if !["sum", "mean", "max"].contains(&mode) {
        return invalid(format!("{op}: mode has to be one of sum, mean or max"));
    }
    if let Some(Value::Tensor(_)) = ctx.arg(weights_pos, "per_sample_weights") {
        let (w, _) = ctx.ranked(weights_pos, "per_sample_weights")?;
        if mode != "sum" {
            return invalid(format!(
                "{op}: embedding_bag: per_sample_weights is only supported for mode='sum' (got \
                 mode='{mode}')"
            ));
        }
        let msg = format!(
            "{op}: embedding_bag: If per_sample_weights ({}) is not None, then it must have the \
             same shape as the input ({})",
            Shape::Ranked(w.clone()),
            Shape::Ranked(idx.clone())
        );
        if w.len() != idx.len() {
            return invalid(msg);
        }
        for (a, b) in w.iter().zip(&idx) {
            ctx.require_eq(a, b, msg.clone())?;
        }
    }
    Ok(tensor_out(vec![rows, dim], Some(DType::Float)))
}

/// `bag(input, offsets=None, per_sample_weights=None)`: see [`embedding_bag_shape`].
fn embedding_bag_forward(ctx: &mut Ctx) -> RuleResult {
    let dim = Dim::Known(int_param(ctx, "embedding_dim")?);
    let mode = match ctx.param("mode") {
        Some(Value::Str(Some(s))) => s.clone(),
        _ => "mean".to_string(),
    };
    let last = bool_param(ctx, "include_last_offset");
    embedding_bag_shape(ctx, dim, 1, 2, &mode, last)
}

/// `F.embedding_bag(input, weight, offsets=None, max_norm, norm_type, scale_grad_by_freq,
/// mode='mean', sparse, per_sample_weights=None, include_last_offset=False, padding_idx)`:
/// the weight must be 2-D; see [`embedding_bag_shape`].
fn embedding_bag_functional(ctx: &mut Ctx) -> RuleResult {
    let (w, _) = ctx.ranked(1, "weight")?;
    if w.len() != 2 {
        return invalid(format!("{}: weight has to be a 2D Tensor", ctx.op));
    }
    let mode = match ctx.arg(6, "mode") {
        Some(Value::Str(Some(s))) => s.clone(),
        _ => "mean".to_string(),
    };
    let last = ctx.bool_or(9, "include_last_offset", false)?;
    embedding_bag_shape(ctx, w[1].clone(), 2, 8, &mode, last)
}

/// `F.normalize(input, p=2.0, dim=1, eps=1e-12)`: `dim` (an int or a tuple) must be in range
/// for the input's rank; integer inputs raise (the norm needs floating point). Shape kept.
fn normalize(ctx: &mut Ctx) -> RuleResult {
    let (x, dtype) = ctx.ranked(0, "input")?;
    if matches!(dtype, Some(DType::Int | DType::Bool)) {
        return invalid(format!(
            "{}: linalg.vector_norm: Expected a floating point or complex tensor as input",
            ctx.op
        ));
    }
    let dims = match ctx.arg(2, "dim") {
        None => vec![1],
        Some(v) => match v.elements() {
            Some(items) => items
                .iter()
                .map(|d| d.as_const_int().ok_or(()))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|()| RuleError::Unsupported(format!("{}: dim unknown", ctx.op)))?,
            None => vec![ctx.const_int(2, "dim")?.unwrap_or(1)],
        },
    };
    for d in dims {
        ctx.dim_index(d, x.len(), 0)?;
    }
    Ok(tensor_out(x, dtype))
}

/// `F.one_hot(tensor, num_classes=-1)`: int64 indices only; the output is `shape +
/// [num_classes]` (int64). With `num_classes=-1` the class count is `max + 1`, data-dependent
/// (an empty input raises "Can not infer total number of classes from empty tensor"); with
/// `num_classes=0` any element is out of range.
fn one_hot(ctx: &mut Ctx) -> RuleResult {
    let op = ctx.op.clone();
    let (x, dtype) = ctx.ranked(0, "input")?;
    if matches!(dtype, Some(DType::Float | DType::Bool | DType::Complex)) {
        return invalid(format!(
            "{op}: one_hot is only applicable to index tensor of type LongTensor."
        ));
    }
    let numel = Dim::product(&x).as_const();
    let classes = ctx.int_or(1, "num_classes", -1)?;
    match classes.as_const() {
        Some(-1) if numel == Some(0) => invalid(format!(
            "{op}: Can not infer total number of classes from empty tensor."
        )),
        Some(-1) => unsupported(format!("{op}: the class count is data-dependent")),
        Some(0) if numel.is_some_and(|n| n > 0) => invalid(format!(
            "{op}: Class values must be smaller than num_classes."
        )),
        Some(0) if numel.is_none() => {
            if let Dim::Known(n) = Dim::product(&x) {
                ctx.require(
                    Pred::Eq(n, DimExpr::zero()),
                    format!("{op}: Class values must be smaller than num_classes (0)."),
                )?;
            }
            let mut out = x;
            out.push(Dim::constant(0));
            Ok(tensor_out(out, Some(DType::Int)))
        }
        _ => {
            let mut out = x;
            out.push(Dim::Known(classes));
            Ok(tensor_out(out, Some(DType::Int)))
        }
    }
}

/// `nn.CosineSimilarity(dim=1, eps=1e-8)`.
fn cosine_init(ctx: &mut Ctx) -> RuleResult {
    let dim = ctx.int_or(0, "dim", 1)?;
    Ok(module_value(ctx, vec![("dim", Value::Int(dim))]))
}

/// Broadcasts `x1` and `x2` (PyTorch's messages).
fn broadcast_pair(ctx: &mut Ctx) -> Result<(Vec<Dim>, Option<DType>), RuleError> {
    let a = ctx.tensor(0, "x1")?;
    let b = ctx.tensor(1, "x2")?;
    let mut reqs = Vec::new();
    let op = ctx.op.clone();
    let out = broadcast(&a.shape, &b.shape, &op, &mut reqs);
    for r in reqs {
        ctx.require(r.pred, r.message)?;
    }
    match out {
        Shape::Ranked(d) => Ok((d, a.dtype)),
        Shape::Partial { .. } => unsupported(format!("{op}: rank unknown")),
    }
}

/// `F.cosine_similarity(x1, x2, dim=1, eps=1e-8)` / `cos(x1, x2)`: the operands broadcast,
/// then `dim` (checked against the broadcast rank) is reduced away.
fn cosine_similarity(ctx: &mut Ctx) -> RuleResult {
    let dim = match ctx.param("dim") {
        Some(v) => v.as_const_int(),
        None => ctx.const_int(2, "dim")?,
    }
    .unwrap_or(1);
    let (mut out, dtype) = broadcast_pair(ctx)?;
    let d = ctx.dim_index(dim, out.len(), 0)?;
    if d < out.len() {
        out.remove(d);
    }
    Ok(tensor_out(out, dtype))
}

/// `F.pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False)`: the operands broadcast and
/// the last dim is reduced (kept as 1 with `keepdim`); 1-D operands give a scalar.
fn pairwise_distance(ctx: &mut Ctx) -> RuleResult {
    let keepdim = ctx.bool_or(4, "keepdim", false)?;
    let (mut out, dtype) = broadcast_pair(ctx)?;
    if let Some(last) = out.last_mut() {
        if keepdim {
            *last = Dim::constant(1);
        } else {
            out.pop();
        }
    }
    Ok(tensor_out(out, dtype))
}
