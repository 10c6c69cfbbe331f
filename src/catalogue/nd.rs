//! Shared helpers of the N-d families (convolution, pooling, resampling, normalisation,
//! folding): the dimensionality an operator name gives, hyperparameters as N-tuples
//! (PyTorch's `_ntuple`), and inputs split into an optional batch dim, channels and spatial
//! dims.

use super::invalid_as;
use super::{int_of, invalid, unsupported, Ctx, RuleError};
use crate::shapes::dim::DimExpr;
use crate::shapes::kind::{Declared, FindingKind};
use crate::shapes::shape::Dim;
use crate::shapes::value::Value;

/// The spatial dimensionality named by an operator (`torch.nn.Conv2d` → 2, `F.avg_pool3d` →
/// 3); 2 for names without a `Nd` suffix (`UpsamplingNearest2d` has one, `F.interpolate` is
/// decided by its input).
pub fn spatial_rank(op: &str) -> usize {
    let b = op.as_bytes();
    match b {
        [.., n @ b'1'..=b'3', b'd'] => (n - b'0') as usize,
        _ => 2,
    }
}

/// An int or a tuple of ints expanded to `n` values (PyTorch's `_ntuple`; the functional
/// forms also accept a one-element list). Other lengths fail with "expected `name` to be a
/// single integer value or a list of n values".
pub fn ntuple(op: &str, name: &str, v: &Value, n: usize) -> Result<Vec<DimExpr>, RuleError> {
    match v.elements() {
        Some(items) => {
            let vals = items
                .iter()
                .map(|x| int_of(op, name, x))
                .collect::<Result<Vec<_>, _>>()?;
            match vals.len() {
                1 => Ok(vec![vals[0].clone(); n]),
                k if k == n => Ok(vals),
                _ => invalid(format!(
                    "{op}: expected {name} to be a single integer value or a list of {n} values \
                     to match the convolution dimensions, but got {name}={v}"
                )),
            }
        }
        None => Ok(vec![int_of(op, name, v)?; n]),
    }
}

/// An optional N-tuple argument with a default for every entry.
pub fn ntuple_arg(
    ctx: &Ctx,
    pos: usize,
    name: &str,
    n: usize,
    default: i64,
) -> Result<Vec<DimExpr>, RuleError> {
    match ctx.arg(pos, name) {
        None | Some(Value::None) => Ok(vec![DimExpr::constant(default); n]),
        Some(v) => ntuple(&ctx.op, name, v, n),
    }
}

/// A tuple of ints as a value.
pub fn tuple_value(items: &[DimExpr]) -> Value {
    Value::Tuple(items.iter().cloned().map(Value::Int).collect())
}

/// Builds a module value with the given normalised hyperparameters.
pub fn module_value(ctx: &Ctx, params: Vec<(&str, Value)>) -> Value {
    super::common::module_value(&ctx.op, params)
}

/// A module hyperparameter stored by `init` as an N-tuple.
pub fn param_tuple(ctx: &Ctx, name: &str, n: usize) -> Result<Vec<DimExpr>, RuleError> {
    match ctx.param(name) {
        Some(v) => ntuple(&ctx.op, name, v, n),
        None => unsupported(format!("{}: module has no `{name}`", ctx.op)),
    }
}

/// `[d0 x d1 x ...]` for messages.
pub fn show(dims: &[DimExpr], sep: &str) -> String {
    dims.iter()
        .map(DimExpr::to_string)
        .collect::<Vec<_>>()
        .join(sep)
}

/// Splits an input of rank `n + 1` (unbatched) or `n + 2` (batched) into the batch dim (or
/// `None` when unbatched), the channel dim and the spatial dims; other ranks raise `message`.
pub fn split_batch(
    dims: &[Dim],
    n: usize,
    message: impl FnOnce() -> String,
) -> Result<(Option<Dim>, Dim, Vec<Dim>), RuleError> {
    if dims.len() == n + 2 {
        Ok((Some(dims[0].clone()), dims[1].clone(), dims[2..].to_vec()))
    } else if dims.len() == n + 1 {
        Ok((None, dims[0].clone(), dims[1..].to_vec()))
    } else {
        invalid_as(Declared::Specific(FindingKind::RankMismatch), message())
    }
}

/// Reassembles `[batch?, channels, *spatial]`.
pub fn join_batch(batch: Option<Dim>, channels: Dim, spatial: Vec<Dim>) -> Vec<Dim> {
    batch.into_iter().chain([channels]).chain(spatial).collect()
}
