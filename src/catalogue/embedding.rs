//! Operator rules: embeddings (`Embedding`, `EmbeddingBag`), `one_hot`, `normalize` and
//! the similarity/distance functions. (See `catalogue/mod.rs` for the conventions.)

use super::common::{param_size, require_values_within, size_value};
use super::nd::module_value;
use super::norms::{bool_param, int_param};
use super::{invalid, tensor_out, unsupported, Ctx, Rule, RuleError, RuleResult};
use crate::shapes::dim::DimExpr;
use crate::shapes::kind::{Declared, FindingKind};
use crate::shapes::requirement::Pred;
use crate::shapes::shape::{broadcast, Dim, Shape};
use crate::shapes::value::{DType, Value};

/// What this family's failures are, unless a rule or a check declares otherwise.
pub const KIND: FindingKind = FindingKind::ShapeMismatch;

pub const RULES: &[Rule] = &[
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

/// `nn.Embedding(num_embeddings, embedding_dim, padding_idx=None, ..., _weight=None)` and
/// `nn.EmbeddingBag(num_embeddings, embedding_dim, max_norm, norm_type, scale_grad_by_freq,
/// mode='mean', sparse, _weight, include_last_offset=False, padding_idx=None)`: `padding_idx`
/// must lie in `[-num_embeddings, num_embeddings)`; a given `_weight` must be
/// `[num_embeddings, embedding_dim]`; negative sizes fail creating the weight.
fn embedding_init(ctx: &mut Ctx) -> RuleResult {
    let op = ctx.op.clone();
    let bag = op.ends_with("Bag");
    // A vocabulary size the analysis does not know (`len(vocab)` of data read at run time)
    // still builds the layer: its lookups keep their width, unchecked against the table.
    let num = match ctx.arg(0, "num_embeddings") {
        Some(v) if v.is_unknown_int() => None,
        _ => Some(ctx.opt_int(0, "num_embeddings")?.ok_or_else(|| {
            RuleError::invalid(format!("{op}: missing argument 'num_embeddings'"))
        })?),
    };
    let dim = ctx
        .opt_int(1, "embedding_dim")?
        .ok_or_else(|| RuleError::invalid(format!("{op}: missing argument 'embedding_dim'")))?;
    let pad_pos = if bag { 9 } else { 2 };
    if let (Some(p), Some(num)) = (ctx.opt_int(pad_pos, "padding_idx")?, &num) {
        ctx.require_with(
            Pred::And(vec![
                Pred::Lt(p.clone(), num.clone()),
                Pred::Le(num.neg(), p.clone()),
            ]),
            |_| format!("{op}: Padding_idx must be within num_embeddings"),
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
            if let Some(num) = &num {
                ctx.require_eq(&w[0], &Dim::Known(num.clone()), msg.clone())?;
            }
            ctx.require_eq(&w[1], &Dim::Known(dim.clone()), msg)?;
        }
        _ => {
            for d in num.iter().chain([&dim]) {
                ctx.require_with(Pred::Le(DimExpr::zero(), d.clone()), |_| {
                    format!("{op}: Trying to create tensor with negative dimension {d}")
                })?;
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
            ("num_embeddings", size_value(num)),
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
/// be indexed ("index_select(): self indexing axis dim should be positive"); index values
/// known to be uniform must lie in `[0, num_embeddings)`, and a known largest index
/// (positions from `arange(seq_len)`) must be below `num_embeddings` ("index out of range
/// in self").
fn embedding_shape(ctx: &mut Ctx, num: &Dim, dim: Dim) -> RuleResult {
    let t = ctx.tensor(0, "input")?;
    let (idx, dtype) = ctx.ranked(0, "input")?;
    require_indices(ctx, dtype)?;
    if let Dim::Known(rows) = num {
        require_values_within(ctx, &t, (&DimExpr::zero(), rows), None, |cx, v| {
            format!(
                "{}: index {v} out of range in self (num_embeddings {rows})",
                cx.op
            )
        })?;
    }
    if let (Some(top), Dim::Known(rows), Dim::Known(n)) = (&t.top, num, Dim::product(&idx)) {
        ctx.require_with_as(
            Declared::Specific(FindingKind::IndexOutOfBounds),
            Pred::Or(vec![
                Pred::Eq(n, DimExpr::zero()),
                Pred::Lt(top.clone(), rows.clone()),
            ]),
            |cx| {
                format!(
                    "{}: index {top} out of range in self (num_embeddings {rows})",
                    cx.op
                )
            },
        )?;
    }
    // An empty table can only be indexed by an empty index tensor.
    if let (Some(rows), Dim::Known(n)) = (num.expr(), Dim::product(&idx)) {
        ctx.require_with_as(
            Declared::Generic(FindingKind::IndexOutOfBounds),
            Pred::Or(vec![
                Pred::Ne(rows.clone(), DimExpr::zero()),
                Pred::Eq(n, DimExpr::zero()),
            ]),
            |cx| {
                format!(
                    "{}: index_select(): self indexing axis dim should be positive",
                    cx.op
                )
            },
        )?;
    }
    let mut out = idx;
    out.push(dim);
    Ok(tensor_out(out, Some(DType::Float)))
}

/// `emb(indices)`: see [`embedding_shape`].
fn embedding_forward(ctx: &mut Ctx) -> RuleResult {
    let num = param_size(ctx, "num_embeddings");
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
/// unless the content is known uniform (an empty input raises "Can not infer total number of
/// classes from empty tensor"); class values must be non-negative and smaller than
/// `num_classes` ("Class values must be smaller than num_classes.").
fn one_hot(ctx: &mut Ctx) -> RuleResult {
    let op = ctx.op.clone();
    let t = ctx.tensor(0, "input")?;
    let (x, dtype) = ctx.ranked(0, "input")?;
    if matches!(dtype, Some(DType::Float | DType::Bool | DType::Complex)) {
        return invalid(format!(
            "{op}: one_hot is only applicable to index tensor of type LongTensor."
        ));
    }
    let numel = Dim::product(&x).as_const();
    let mut classes = ctx.int_or(1, "num_classes", -1)?;
    if let (Some(-1), Some(v)) = (classes.as_const(), t.uniform) {
        if numel.is_some_and(|n| n > 0) {
            classes = DimExpr::constant(v.max(0) + 1);
        }
    }
    if let Some(v) = t.uniform.filter(|v| *v < 0) {
        if numel.is_some_and(|n| n > 0) {
            return invalid(format!(
                "{op}: Class values must be non-negative (got {v})."
            ));
        }
    }
    if classes.as_const() != Some(-1) {
        require_values_within(ctx, &t, (&DimExpr::zero(), &classes), None, |cx, v| {
            format!(
                "{}: Class values must be smaller than num_classes ({classes}); got {v}.",
                cx.op
            )
        })?;
    }
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
                ctx.require_with(Pred::Eq(n, DimExpr::zero()), |_| {
                    format!("{op}: Class values must be smaller than num_classes (0).")
                })?;
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
        ctx.impose(r)?;
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

#[cfg(test)]
mod tests {
    use crate::testing::assert_twins;

    /// A vocabulary read at run time leaves the table's size unknown, not the layer: its
    /// lookups are `[*, embedding_dim]` and the recurrent layer after it is checked.
    #[test]
    fn embeddings_of_unknown_vocabulary_keep_their_width() {
        let src = r#"
import torch
import torch.nn as nn

words = open("corpus.txt").read().split()
emb = nn.Embedding(len(set(words)), 64)
rnn = nn.GRU(WIDTH, 16, batch_first=True)
out, h = rnn(emb(torch.tensor([[1, 2, 3]])))
"#;
        assert_twins(src, "WIDTH", "32", "64", 8);
    }
}
