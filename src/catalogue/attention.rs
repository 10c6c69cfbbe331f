//! Operator rules: attention (`MultiheadAttention`, `scaled_dot_product_attention`) and the
//! Transformer layers built on it. (See `catalogue/mod.rs` for the conventions.)

use super::common::*;
use super::modules::{apply_child, children};
use super::{invalid, tensor_out, unsupported, Ctx, Rule, RuleError, RuleResult};
use crate::shapes::dim::DimExpr;
use crate::shapes::kind::FindingKind;
use crate::shapes::requirement::Pred;
use crate::shapes::shape::Dim;
use crate::shapes::value::Value;

/// What this family's failures are, unless a rule or a check declares otherwise.
pub const KIND: FindingKind = FindingKind::AttentionMismatch;

pub const RULES: &[Rule] = &[
    Rule::module("torch.nn.MultiheadAttention", mha_init, mha_forward),
    Rule::function(
        "torch.nn.functional.scaled_dot_product_attention",
        scaled_dot_product_attention,
    ),
    Rule::module(
        "torch.nn.TransformerEncoderLayer",
        transformer_layer_init,
        encoder_layer_forward,
    ),
    Rule::module(
        "torch.nn.TransformerDecoderLayer",
        transformer_layer_init,
        decoder_layer_forward,
    ),
    Rule::module(
        "torch.nn.TransformerEncoder",
        transformer_stack_init,
        transformer_stack_forward,
    ),
    Rule::module(
        "torch.nn.TransformerDecoder",
        transformer_stack_init,
        transformer_stack_forward,
    ),
    Rule::module(
        "torch.nn.Transformer",
        transformer_init,
        transformer_forward,
    ),
    Rule::function(
        "torch.nn.Transformer.generate_square_subsequent_mask",
        square_subsequent_mask,
    )
    .finding(FindingKind::ShapeMismatch),
];

// ---------------------------------------------------------------------------------------
// Attention
// ---------------------------------------------------------------------------------------

/// The hyperparameters of a multi-head attention.
struct Mha {
    embed: DimExpr,
    heads: DimExpr,
    kdim: DimExpr,
    vdim: DimExpr,
    batch_first: bool,
    /// Extra key positions from `add_bias_kv` and `add_zero_attn`.
    extra: i64,
}

/// One attention call's optional arguments.
struct MhaCall {
    key_padding_mask: Option<Vec<Dim>>,
    attn_mask: Option<Vec<Dim>>,
    need_weights: bool,
    average: bool,
    is_causal: bool,
}

/// Checks `embed_dim, num_heads > 0` and `num_heads` divides `embed_dim`.
fn check_heads(ctx: &mut Ctx, embed: &DimExpr, heads: &DimExpr) -> Result<(), RuleError> {
    let msg = format!(
        "{}: embed_dim and num_heads must be greater than 0, got embed_dim={embed} and num_heads={heads} instead",
        ctx.op
    );
    ctx.require(Pred::Lt(DimExpr::zero(), embed.clone()), msg.clone())?;
    ctx.require(Pred::Lt(DimExpr::zero(), heads.clone()), msg)?;
    ctx.require_with(Pred::Divides(heads.clone(), embed.clone()), |cx| {
        format!(
            "{}: embed_dim must be divisible by num_heads ({embed} % {heads} != 0)",
            cx.op
        )
    })
}

/// The core of `F.multi_head_attention_forward` on shapes: query `(L, N, E)` (or
/// batch-first, or unbatched `(L, E)`), key `(S, N, kdim)`, value `(S, N, vdim)`. Returns the
/// output dims and the attention-weights dims (when needed).
fn mha_apply(
    ctx: &mut Ctx,
    cfg: &Mha,
    q: &[Dim],
    k: &[Dim],
    v: &[Dim],
    call: &MhaCall,
) -> Result<(Vec<Dim>, Option<Vec<Dim>>), RuleError> {
    let batched = match q.len() {
        3 => true,
        2 => false,
        n => {
            return invalid(format!(
            "{}: query should be unbatched 2D or batched 3D tensor but received {n}-D query tensor",
            ctx.op
        ))
        }
    };
    if k.len() != q.len() || v.len() != q.len() {
        return invalid(format!(
            "{}: expected `key` and `value` to be {}-D like `query`, but got {}-D and {}-D",
            ctx.op,
            q.len(),
            k.len(),
            v.len()
        ));
    }
    // To (L, N, E) layout.
    let norm = |d: &[Dim]| -> Vec<Dim> {
        match (batched, cfg.batch_first) {
            (false, _) => vec![d[0].clone(), Dim::constant(1), d[1].clone()],
            (true, false) => d.to_vec(),
            (true, true) => vec![d[1].clone(), d[0].clone(), d[2].clone()],
        }
    };
    let (q, k, v) = (norm(q), norm(k), norm(v));
    let (l, n, e) = (&q[0], &q[1], &q[2]);
    let s = &k[0];
    let msg = format!(
        "{}: was expecting embedding dimension of {}, but got {e}",
        ctx.op, cfg.embed
    );
    ctx.require_eq(e, &Dim::Known(cfg.embed.clone()), msg)?;
    let same = cfg.kdim == cfg.embed && cfg.vdim == cfg.embed;
    if same {
        let msg = format!(
            "{}: key shape {} does not match value shape {}",
            ctx.op,
            show(&k),
            show(&v)
        );
        require_same(ctx, &k, &v, msg)?;
    } else {
        let msg = format!(
            "{}: key's sequence and batch dims {} do not match value's {}",
            ctx.op,
            show(&k[..2]),
            show(&v[..2])
        );
        require_same(ctx, &k[..2], &v[..2], msg)?;
    }
    let msg = format!(
        "{}: expecting key last dim {} to be {}",
        ctx.op, k[2], cfg.kdim
    );
    ctx.require_eq(&k[2], &Dim::Known(cfg.kdim.clone()), msg)?;
    let msg = format!(
        "{}: expecting value last dim {} to be {}",
        ctx.op, v[2], cfg.vdim
    );
    ctx.require_eq(&v[2], &Dim::Known(cfg.vdim.clone()), msg)?;
    let msg = format!(
        "{}: key batch {} does not match query batch {n} (shape is invalid for input size)",
        ctx.op, k[1]
    );
    ctx.require_eq(&k[1], n, msg)?;
    if call.is_causal && call.attn_mask.is_none() {
        return invalid(format!(
            "{}: Need attn_mask if specifying the is_causal hint",
            ctx.op
        ));
    }
    let mask_dropped = call.is_causal && call.key_padding_mask.is_none() && !call.need_weights;
    if let (Some(mask), false) = (&call.attn_mask, mask_dropped) {
        let want: Vec<Dim> = match mask.len() {
            2 => vec![l.clone(), s.clone()],
            3 => vec![
                n.zip(&Dim::Known(cfg.heads.clone()), DimExpr::mul),
                l.clone(),
                s.clone(),
            ],
            r => {
                return invalid(format!(
                    "{}: attn_mask's dimension {r} is not supported",
                    ctx.op
                ))
            }
        };
        let msg = format!(
            "{}: The shape of the {}D attn_mask is {}, but should be {}.",
            ctx.op,
            mask.len(),
            show(mask),
            show(&want)
        );
        require_same(ctx, mask, &want, msg)?;
    }
    if let Some(kpm) = &call.key_padding_mask {
        let want: Vec<Dim> = if batched {
            vec![n.clone(), s.clone()]
        } else {
            vec![s.clone()]
        };
        let msg = format!(
            "{}: expecting key_padding_mask shape of {}, but got {}",
            ctx.op,
            show(&want),
            show(kpm)
        );
        require_same(ctx, kpm, &want, msg)?;
    }
    let s_eff = s.map(|s| s.add_const(cfg.extra));
    let out = match (batched, cfg.batch_first) {
        (false, _) => vec![l.clone(), e.clone()],
        (true, false) => vec![l.clone(), n.clone(), e.clone()],
        (true, true) => vec![n.clone(), l.clone(), e.clone()],
    };
    let weights = call.need_weights.then(|| {
        let mut w = Vec::new();
        if batched {
            w.push(n.clone());
        }
        if !call.average {
            w.push(Dim::Known(cfg.heads.clone()));
        }
        w.extend([l.clone(), s_eff]);
        w
    });
    Ok((out, weights))
}

/// `nn.MultiheadAttention(embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False,
/// add_zero_attn=False, kdim=None, vdim=None, batch_first=False)`: both > 0 and `num_heads`
/// divides `embed_dim` ("embed_dim must be divisible by num_heads").
fn mha_init(ctx: &mut Ctx) -> RuleResult {
    let embed = size_hyper(ctx, 0, "embed_dim", None)?;
    let heads = size_hyper(ctx, 1, "num_heads", None)?;
    check_heads(ctx, &embed, &heads)?;
    let bias_kv = ctx.bool_or(4, "add_bias_kv", false)?;
    let zero_attn = ctx.bool_or(5, "add_zero_attn", false)?;
    let kdim = ctx.opt_int(6, "kdim")?.unwrap_or_else(|| embed.clone());
    let vdim = ctx.opt_int(7, "vdim")?.unwrap_or_else(|| embed.clone());
    let batch_first = ctx.bool_or(8, "batch_first", false)?;
    let class = ctx.op.clone();
    Ok(module_value(
        &class,
        vec![
            ("embed_dim", Value::Int(embed)),
            ("num_heads", Value::Int(heads)),
            ("kdim", Value::Int(kdim)),
            ("vdim", Value::Int(vdim)),
            ("batch_first", Value::Bool(Some(batch_first))),
            ("add_bias_kv", Value::Bool(Some(bias_kv))),
            ("add_zero_attn", Value::Bool(Some(zero_attn))),
        ],
    ))
}

/// The attention hyperparameters stored by `mha_init`.
fn mha_config(ctx: &Ctx) -> Result<Mha, RuleError> {
    Ok(Mha {
        embed: param_dim(ctx, "embed_dim")?,
        heads: param_dim(ctx, "num_heads")?,
        kdim: param_dim(ctx, "kdim")?,
        vdim: param_dim(ctx, "vdim")?,
        batch_first: param_bool(ctx, "batch_first"),
        extra: i64::from(param_bool(ctx, "add_bias_kv"))
            + i64::from(param_bool(ctx, "add_zero_attn")),
    })
}

/// `MultiheadAttention` forward `(query, key, value, key_padding_mask=None,
/// need_weights=True, attn_mask=None, average_attn_weights=True, is_causal=False)`: returns
/// `(attn_output, attn_weights)`; the output has the query's shape; the weights are `(N, L,
/// S)` averaged over heads or `(N, num_heads, L, S)` (no `N` when unbatched; S grows by one
/// for `add_bias_kv` and for `add_zero_attn`), or `None` without `need_weights`. Key and value
/// must agree (whole shape, or sequence and batch dims with separate kdim/vdim), the query's
/// last dim is embed_dim, masks must be `(L, S)` / `(N*num_heads, L, S)` and `(N, S)`.
fn mha_forward(ctx: &mut Ctx) -> RuleResult {
    let cfg = mha_config(ctx)?;
    let (q, dt) = ctx.ranked(0, "query")?;
    let (k, _) = ctx.ranked(1, "key")?;
    let (v, _) = ctx.ranked(2, "value")?;
    let call = MhaCall {
        key_padding_mask: opt_dims(ctx, 3, "key_padding_mask")?,
        need_weights: ctx.bool_or(4, "need_weights", true)?,
        attn_mask: opt_dims(ctx, 5, "attn_mask")?,
        average: ctx.bool_or(6, "average_attn_weights", true)?,
        is_causal: ctx.bool_or(7, "is_causal", false)?,
    };
    let (out, weights) = mha_apply(ctx, &cfg, &q, &k, &v, &call)?;
    Ok(Value::Tuple(vec![
        tensor_out(out, dt),
        weights.map_or(Value::None, |w| tensor_out(w, dt)),
    ]))
}

/// `F.scaled_dot_product_attention(q [..., L, E], k [..., S, E], v [..., S, Ev],
/// attn_mask=None, dropout_p=0.0, is_causal=False, scale=None, enable_gqa=False)` → `[..., L,
/// Ev]`: all at least 2-D, same dtype, `q` and `k` share E, the batch dims broadcast (with
/// `enable_gqa` the key/value head count (dim -3) must divide the query's), the mask
/// broadcasts to `[..., L, S]` and cannot be combined with `is_causal`.
fn scaled_dot_product_attention(ctx: &mut Ctx) -> RuleResult {
    let (q, dq) = ctx.ranked(0, "query")?;
    let (k, dk) = ctx.ranked(1, "key")?;
    let (v, dv) = ctx.ranked(2, "value")?;
    if q.len() < 2 || k.len() < 2 || v.len() < 2 {
        return invalid(format!(
            "{}: Expected query, key, and value to all be at least 2 dimensional, but got query.dim: {} key.dim: {} and value.dim: {}",
            ctx.op,
            q.len(),
            k.len(),
            v.len()
        ));
    }
    require_same_dtype(ctx, dq, dk, "query and key")?;
    require_same_dtype(ctx, dq, dv, "query and value")?;
    let mask = opt_dims(ctx, 3, "attn_mask")?;
    if mask.is_some() && ctx.bool_or(5, "is_causal", false)? {
        return invalid(format!(
            "{}: Explicit attn_mask should not be set when is_causal=True",
            ctx.op
        ));
    }
    let (lq, lk) = (q.len(), k.len());
    let msg = format!(
        "{}: query and key embedding dims differ ({} and {})",
        ctx.op,
        q[lq - 1],
        k[lk - 1]
    );
    ctx.require_eq(&q[lq - 1], &k[lk - 1], msg)?;
    let mut kb = k[..lk - 2].to_vec();
    let mut vb = v[..v.len() - 2].to_vec();
    let qb = &q[..lq - 2];
    if ctx.bool_or(7, "enable_gqa", false)? && !qb.is_empty() {
        let hq = qb[qb.len() - 1].clone();
        for b in [&mut kb, &mut vb] {
            if let Some(h) = b.last_mut() {
                if let (Dim::Known(x), Dim::Known(y)) = (&*h, &hq) {
                    ctx.require_with(Pred::Divides(x.clone(), y.clone()), |cx| format!(
                            "{}: Number of heads in key and value must divide the number of heads in query",
                            cx.op
                        ))?;
                }
                *h = hq.clone();
            }
        }
    }
    let batch = broadcast_dims(ctx, qb, &kb)?;
    let batch = broadcast_dims(ctx, &batch, &vb)?;
    if let Some(mask) = mask {
        let mut scores = batch.clone();
        scores.extend([q[lq - 2].clone(), k[lk - 2].clone()]);
        broadcast_dims(ctx, &scores, &mask)?;
    }
    let mut out = batch;
    out.extend([q[lq - 2].clone(), v[v.len() - 1].clone()]);
    Ok(tensor_out(out, dq))
}

// ---------------------------------------------------------------------------------------
// Transformer layers
// ---------------------------------------------------------------------------------------

/// `nn.TransformerEncoderLayer/TransformerDecoderLayer(d_model, nhead, dim_feedforward=2048,
/// dropout=0.1, activation=relu, layer_norm_eps=1e-5, batch_first=False, ...)`: their
/// attention needs `nhead` to divide `d_model`.
fn transformer_layer_init(ctx: &mut Ctx) -> RuleResult {
    let d_model = size_hyper(ctx, 0, "d_model", None)?;
    let nhead = size_hyper(ctx, 1, "nhead", None)?;
    check_heads(ctx, &d_model, &nhead)?;
    let batch_first = ctx.bool_or(6, "batch_first", false)?;
    let class = ctx.op.clone();
    Ok(module_value(
        &class,
        vec![
            ("d_model", Value::Int(d_model)),
            ("nhead", Value::Int(nhead)),
            ("batch_first", Value::Bool(Some(batch_first))),
        ],
    ))
}

/// The self/cross attention config of a Transformer layer.
fn layer_mha(ctx: &Ctx) -> Result<Mha, RuleError> {
    let d = param_dim(ctx, "d_model")?;
    Ok(Mha {
        embed: d.clone(),
        heads: param_dim(ctx, "nhead")?,
        kdim: d.clone(),
        vdim: d,
        batch_first: param_bool(ctx, "batch_first"),
        extra: 0,
    })
}

/// `nn.Transformer.generate_square_subsequent_mask(sz, device=None, dtype=None)`: the causal
/// mask, `[sz, sz]` (`-inf` above the diagonal, 0 elsewhere), float unless `dtype` says.
fn square_subsequent_mask(ctx: &mut Ctx) -> RuleResult {
    let n = match ctx.arg(0, "sz") {
        Some(v) => super::int_of(&ctx.op, "sz", v)?,
        None => return invalid(format!("{}: missing `sz`", ctx.op)),
    };
    ctx.require_with(Pred::Le(DimExpr::zero(), n.clone()), |cx| {
        format!(
            "{}: Trying to create tensor with negative dimension {n}",
            cx.op
        )
    })?;
    let dtype = super::creation::dtype_kw(ctx, Some(crate::shapes::value::DType::Float));
    Ok(tensor_out(
        vec![Dim::Known(n.clone()), Dim::Known(n)],
        dtype,
    ))
}

/// A mask given to a Transformer layer: `None` when absent, and when unknown too (not
/// checked), as the layer's output has its input's shape whatever a valid mask is (an
/// invalid one raises, and nothing after the layer runs).
fn layer_mask(ctx: &Ctx, pos: usize, name: &str) -> Result<Option<Vec<Dim>>, RuleError> {
    match ctx.arg(pos, name) {
        Some(Value::Unknown) => Ok(None),
        _ => opt_dims(ctx, pos, name),
    }
}

/// One attention call inside a Transformer layer (`need_weights=False`).
fn layer_attention(
    ctx: &mut Ctx,
    cfg: &Mha,
    q: &[Dim],
    kv: &[Dim],
    masks: (usize, &str, usize, &str, usize, &str),
) -> Result<(), RuleError> {
    let (mp, mn, kp, kn, cp, cn) = masks;
    // An unknown mask is still a mask: the `is_causal` hint needs one.
    let unknown_mask = matches!(ctx.arg(mp, mn), Some(Value::Unknown));
    let call = MhaCall {
        attn_mask: layer_mask(ctx, mp, mn)?,
        key_padding_mask: layer_mask(ctx, kp, kn)?,
        need_weights: false,
        average: true,
        is_causal: flag(ctx, cp, cn)? && !unknown_mask,
    };
    mha_apply(ctx, cfg, q, kv, kv, &call).map(|_| ())
}

/// `TransformerEncoderLayer` forward `(src, src_mask=None, src_key_padding_mask=None,
/// is_causal=False)`: self-attention over `src` (see `MultiheadAttention`); the output has
/// `src`'s shape.
fn encoder_layer_forward(ctx: &mut Ctx) -> RuleResult {
    let cfg = layer_mha(ctx)?;
    let (src, dt) = ctx.ranked(0, "src")?;
    layer_attention(
        ctx,
        &cfg,
        &src,
        &src,
        (1, "src_mask", 2, "src_key_padding_mask", 3, "is_causal"),
    )?;
    Ok(tensor_out(src, dt))
}

/// `TransformerDecoderLayer` forward `(tgt, memory, tgt_mask=None, memory_mask=None,
/// tgt_key_padding_mask=None, memory_key_padding_mask=None, tgt_is_causal=False,
/// memory_is_causal=False)`: self-attention over `tgt`, then attention from `tgt` to
/// `memory` (same batch, last dim d_model); the output has `tgt`'s shape.
fn decoder_layer_forward(ctx: &mut Ctx) -> RuleResult {
    let cfg = layer_mha(ctx)?;
    let (tgt, dt) = ctx.ranked(0, "tgt")?;
    let (memory, _) = ctx.ranked(1, "memory")?;
    layer_attention(
        ctx,
        &cfg,
        &tgt,
        &tgt,
        (2, "tgt_mask", 4, "tgt_key_padding_mask", 6, "tgt_is_causal"),
    )?;
    layer_attention(
        ctx,
        &cfg,
        &tgt,
        &memory,
        (
            3,
            "memory_mask",
            5,
            "memory_key_padding_mask",
            7,
            "memory_is_causal",
        ),
    )?;
    Ok(tensor_out(tgt, dt))
}

/// `nn.TransformerEncoder(encoder_layer, num_layers, norm=None, ...)` and
/// `nn.TransformerDecoder(decoder_layer, num_layers, norm=None)`: `num_layers` copies of
/// the layer, then the optional `norm`; both are kept as children.
fn transformer_stack_init(ctx: &mut Ctx) -> RuleResult {
    let layer = match ctx.arg(0, "layer").cloned() {
        Some(m @ Value::Module(_)) => m,
        Some(Value::Unknown) | None => {
            return unsupported(format!("{}: the layer is unknown", ctx.op))
        }
        Some(other) => return invalid(format!("{}: {other} is not a Module subclass", ctx.op)),
    };
    let layers = ctx
        .opt_int(1, "num_layers")?
        .ok_or_else(|| RuleError::invalid(format!("{}: missing argument `num_layers`", ctx.op)))?;
    let mut children = vec![layer];
    match ctx.arg(2, "norm").cloned() {
        None | Some(Value::None) => {}
        Some(norm @ Value::Module(_)) => children.push(norm),
        Some(_) => return unsupported(format!("{}: the norm is unknown", ctx.op)),
    }
    Ok(module_with_children(
        &ctx.op,
        vec![("num_layers", Value::Int(layers))],
        children,
    ))
}

/// `TransformerEncoder` forward `(src, mask=None, src_key_padding_mask=None,
/// is_causal=None)` and `TransformerDecoder` forward (the decoder layer's arguments): each
/// layer keeps the shape of its input, so the layer's rule runs once (the stack of zero
/// layers is the identity), then the norm.
fn transformer_stack_forward(ctx: &mut Ctx) -> RuleResult {
    let children = children(ctx);
    let Some(layer) = children.first().cloned() else {
        return unsupported(format!("{}: no layer", ctx.op));
    };
    let mut out = ctx
        .arg(0, "input")
        .cloned()
        .ok_or_else(|| RuleError::invalid(format!("{}: missing input", ctx.op)))?;
    if param_dim(ctx, "num_layers")?.as_const() != Some(0) {
        // The encoder's `mask` is its layers' `src_mask`.
        let kwargs = ctx
            .kwargs
            .iter()
            .map(|(k, v)| match k.as_str() {
                "mask" => ("src_mask".to_string(), v.clone()),
                _ => (k.clone(), v.clone()),
            })
            .collect();
        out = apply_child(ctx, layer, ctx.args.clone(), kwargs)?;
    }
    if let Some(norm) = children.get(1).cloned() {
        out = apply_child(ctx, norm, vec![out], Vec::new())?;
    }
    Ok(out)
}

/// `nn.Transformer(d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6,
/// dim_feedforward=2048, dropout=0.1, activation=relu, custom_encoder=None,
/// custom_decoder=None, layer_norm_eps=1e-5, batch_first=False, ...)`.
fn transformer_init(ctx: &mut Ctx) -> RuleResult {
    let d_model = size_hyper(ctx, 0, "d_model", Some(512))?;
    let nhead = size_hyper(ctx, 1, "nhead", Some(8))?;
    check_heads(ctx, &d_model, &nhead)?;
    let enc = ctx.int_or(2, "num_encoder_layers", 6)?;
    let batch_first = ctx.bool_or(10, "batch_first", false)?;
    let class = ctx.op.clone();
    Ok(module_value(
        &class,
        vec![
            ("d_model", Value::Int(d_model)),
            ("nhead", Value::Int(nhead)),
            ("num_encoder_layers", Value::Int(enc)),
            ("batch_first", Value::Bool(Some(batch_first))),
        ],
    ))
}

/// `Transformer` forward `(src, tgt, src_mask=None, tgt_mask=None, memory_mask=None,
/// src_key_padding_mask=None, tgt_key_padding_mask=None, memory_key_padding_mask=None, ...)`:
/// batched src and tgt share the batch ("the batch number of src and tgt must be equal"),
/// both end in d_model; the encoder attends over src, the decoder over tgt and the memory;
/// the output has `tgt`'s shape.
fn transformer_forward(ctx: &mut Ctx) -> RuleResult {
    let cfg = layer_mha(ctx)?;
    let (src, _) = ctx.ranked(0, "src")?;
    let (tgt, dt) = ctx.ranked(1, "tgt")?;
    if src.len() == 3 && tgt.len() == 3 {
        let bi = usize::from(!cfg.batch_first);
        let msg = format!("{}: the batch number of src and tgt must be equal", ctx.op);
        ctx.require_eq(&src[bi], &tgt[bi], msg)?;
    }
    if let (Some(a), Some(b)) = (src.last(), tgt.last()) {
        let d = Dim::Known(cfg.embed.clone());
        let msg = format!(
            "{}: the feature number of src and tgt must be equal to d_model",
            ctx.op
        );
        ctx.require_eq(a, &d, msg.clone())?;
        ctx.require_eq(b, &d, msg)?;
    }
    if param_dim(ctx, "num_encoder_layers")?.as_const() != Some(0) {
        layer_attention(
            ctx,
            &cfg,
            &src,
            &src,
            (2, "src_mask", 5, "src_key_padding_mask", 8, "src_is_causal"),
        )?;
    }
    layer_attention(
        ctx,
        &cfg,
        &tgt,
        &tgt,
        (3, "tgt_mask", 6, "tgt_key_padding_mask", 9, "tgt_is_causal"),
    )?;
    layer_attention(
        ctx,
        &cfg,
        &tgt,
        &src,
        (
            4,
            "memory_mask",
            7,
            "memory_key_padding_mask",
            10,
            "memory_is_causal",
        ),
    )?;
    Ok(tensor_out(tgt, dt))
}

#[cfg(test)]
mod tests {
    use crate::testing::assert_twins;

    /// A stack of encoder layers checks its input as its layer does, and keeps the shape
    /// through its layers and its norm.
    #[test]
    fn encoder_stacks_check_their_input_and_keep_its_shape() {
        let src = r#"
import torch
from torch import nn

layer = nn.TransformerEncoderLayer(64, 4, 128, batch_first=True)
encoder = nn.TransformerEncoder(layer, 2, norm=nn.LayerNorm(64))
tokens = encoder(torch.randn(2, 10, D))
logits = nn.Linear(64, 5)(tokens)
"#;
        assert_twins(src, "D", "32", "64", 7);
    }

    /// A mask the analysis cannot read leaves the layer's output its input's shape: what
    /// follows is still checked.
    #[test]
    fn an_unknown_mask_keeps_the_layers_output_shape() {
        let src = r#"
import torch
from torch import nn

layer = nn.TransformerEncoderLayer(64, 4, 128, batch_first=True)
mask = make_mask(10)
tokens = layer(torch.randn(2, 10, 64), src_mask=mask, is_causal=True)
logits = nn.Linear(D, 5)(tokens)
"#;
        assert_twins(src, "D", "32", "64", 8);
    }
}
