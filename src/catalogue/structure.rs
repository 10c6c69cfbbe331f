//! Operator rules: structural operators on matrices and whole tensors — triangular parts
//! (`tril`/`triu`), diagonals (`diag`, `diagonal`, `trace`), `roll` and `flip`,
//! `broadcast_to`, `meshgrid` and the 3-vector `cross` product.

use super::common::broadcast_dims;
use super::views::{dim_list, expand};
use super::{invalid, tensor_out, unsupported, Ctx, Rule, RuleError, RuleResult};
use crate::shapes::dim::DimExpr;
use crate::shapes::kind::FindingKind;
use crate::shapes::requirement::Pred;
use crate::shapes::shape::Dim;
use crate::shapes::value::Value;

/// What this family's failures are, unless a rule or a check declares otherwise.
pub const KIND: FindingKind = FindingKind::ShapeMismatch;

pub const RULES: &[Rule] = &[
    Rule::function("torch.tril", triangle),
    Rule::function("torch.triu", triangle),
    Rule::function("torch.Tensor.tril", triangle),
    Rule::function("torch.Tensor.triu", triangle),
    Rule::function("torch.Tensor.tril_", triangle),
    Rule::function("torch.Tensor.triu_", triangle),
    Rule::function("torch.diag", diag),
    Rule::function("torch.Tensor.diag", diag),
    Rule::function("torch.diagonal", diagonal),
    Rule::function("torch.Tensor.diagonal", diagonal),
    Rule::function("torch.trace", trace),
    Rule::function("torch.Tensor.trace", trace),
    Rule::function("torch.roll", roll),
    Rule::function("torch.Tensor.roll", roll),
    Rule::function("torch.diff", diff),
    Rule::function("torch.Tensor.diff", diff),
    Rule::function("torch.flip", flip),
    Rule::function("torch.Tensor.flip", flip),
    Rule::function("torch.broadcast_to", expand).finding(FindingKind::BroadcastMismatch),
    Rule::function("torch.Tensor.broadcast_to", expand).finding(FindingKind::BroadcastMismatch),
    Rule::function("torch.meshgrid", meshgrid),
    Rule::function("torch.cross", cross),
    Rule::function("torch.linalg.cross", cross),
    Rule::function("torch.Tensor.cross", cross),
];

/// `torch.tril(x, diagonal=0)` / `triu`: same shape; at least 2 dims ("tril: input tensor
/// must have at least 2 dimensions").
fn triangle(ctx: &mut Ctx) -> RuleResult {
    let t = ctx.tensor(0, "input")?;
    if t.shape.rank().is_some_and(|r| r < 2) {
        return invalid(format!(
            "{}: input tensor must have at least 2 dimensions",
            ctx.op
        ));
    }
    ctx.opt_int(1, "diagonal")?;
    Ok(Value::Tensor(t).without_content())
}

/// The length of the `offset` diagonal of an `a × b` matrix: `max(0, min(a, b - k))` for
/// `k >= 0`, `max(0, min(a + k, b))` below the main diagonal.
fn diag_len(a: &Dim, b: &Dim, k: i64) -> Dim {
    a.zip(b, |a, b| {
        let kk = DimExpr::constant(k);
        let len = if k >= 0 {
            a.minimum(&b.sub(&kk))
        } else {
            a.add(&kk).minimum(b)
        };
        len.maximum(&DimExpr::zero())
    })
}

/// `torch.diag(x, diagonal=0)`: a vector `[n]` becomes the `[n+|k|, n+|k|]` matrix with it
/// on diagonal `k`; a matrix gives its diagonal `k` as a vector; any other rank raises
/// ("diag(): Supports 1D or 2D tensors").
fn diag(ctx: &mut Ctx) -> RuleResult {
    let (dims, dtype) = ctx.ranked(0, "input")?;
    let k = ctx.const_int(1, "diagonal")?.unwrap_or(0);
    match dims.as_slice() {
        [n] => {
            let side = n.map(|n| n.add_const(k.abs()));
            Ok(tensor_out(vec![side.clone(), side], dtype))
        }
        [a, b] => Ok(tensor_out(vec![diag_len(a, b, k)], dtype)),
        _ => invalid(format!(
            "{}: diag(): Supports 1D or 2D tensors. Got {}D",
            ctx.op,
            dims.len()
        )),
    }
}

/// `torch.diagonal(x, offset=0, dim1=0, dim2=1)`: removes `dim1` and `dim2` and appends the
/// diagonal's length; the two dims must differ ("diagonal dimensions cannot be identical").
fn diagonal(ctx: &mut Ctx) -> RuleResult {
    let (dims, dtype) = ctx.ranked(0, "input")?;
    let k = ctx.const_int(1, "offset")?.unwrap_or(0);
    let d1 = ctx.const_int(2, "dim1")?.unwrap_or(0);
    let d2 = ctx.const_int(3, "dim2")?.unwrap_or(1);
    let (i, j) = (
        ctx.dim_index(d1, dims.len(), 0)?,
        ctx.dim_index(d2, dims.len(), 0)?,
    );
    if i == j {
        return invalid(format!(
            "{}: diagonal dimensions cannot be identical {d1}, {d2}",
            ctx.op
        ));
    }
    let len = diag_len(&dims[i], &dims[j], k);
    let mut out: Vec<Dim> = dims
        .iter()
        .enumerate()
        .filter(|(x, _)| *x != i && *x != j)
        .map(|(_, d)| d.clone())
        .collect();
    out.push(len);
    Ok(tensor_out(out, dtype))
}

/// `torch.trace(x)`: a matrix only ("trace: expected a matrix"); a 0-d result.
fn trace(ctx: &mut Ctx) -> RuleResult {
    let (dims, dtype) = ctx.ranked(0, "input")?;
    if dims.len() != 2 {
        return invalid(format!(
            "{}: expected a matrix, but got tensor with dim {}",
            ctx.op,
            dims.len()
        ));
    }
    Ok(tensor_out(Vec::new(), dtype))
}

/// Ints given as one int or a sequence of ints.
fn one_or_many(ctx: &Ctx, pos: usize, name: &str) -> Result<Option<Vec<Dim>>, RuleError> {
    match ctx.arg(pos, name) {
        None | Some(Value::None) => Ok(None),
        Some(v) if v.elements().is_some() => ctx.seq_ints(pos, name).map(Some),
        Some(_) => Ok(ctx.opt_int(pos, name)?.map(|e| vec![Dim::Known(e)])),
    }
}

/// `torch.roll(x, shifts, dims=None)`: same shape. Without `dims` the flattened tensor rolls
/// by one shift; otherwise `shifts` and `dims` pair up ("shifts and dimensions must align")
/// and every dim is in range, unless the tensor is empty (returned as is). A 0-d tensor
/// has no dim to roll ("IndexError: Dimension specified as 0 but tensor has no
/// dimensions").
fn roll(ctx: &mut Ctx) -> RuleResult {
    let t = ctx.tensor(0, "input")?;
    let shifts = one_or_many(ctx, 1, "shifts")?
        .ok_or_else(|| RuleError::invalid(format!("{}: missing argument `shifts`", ctx.op)))?;
    let dims = one_or_many(ctx, 2, "dims")?.unwrap_or_default();
    let expected = dims.len().max(1);
    if shifts.len() != expected {
        return invalid(format!(
            "{}: shifts and dimensions must align. shifts: {}, dims:{}",
            ctx.op,
            shifts.len(),
            dims.len()
        ));
    }
    if let Some(shape) = t.shape.dims() {
        let rank = shape.len();
        if rank == 0 && !dims.is_empty() {
            return invalid(format!(
                "{}: Dimension specified as 0 but tensor has no dimensions",
                ctx.op
            ));
        }
        for d in &dims {
            let d = d
                .as_const()
                .ok_or_else(|| RuleError::Unsupported(format!("{}: symbolic dim", ctx.op)))?;
            if let Err(e) = ctx.dim_index(d, rank, 0) {
                // An empty tensor is returned before its dims are looked at.
                let RuleError::Invalid { message, kind } = e else {
                    return Err(e);
                };
                if let Dim::Known(numel) = Dim::product(shape) {
                    ctx.require_kind(kind, Pred::Eq(numel, DimExpr::zero()), message)?;
                }
            }
        }
    }
    Ok(Value::Tensor(t))
}

/// `torch.flip(x, dims)` / `x.flip(*dims)`: same shape; each dim in range and given once
/// ("dim 0 appears multiple times in the list of dims").
fn flip(ctx: &mut Ctx) -> RuleResult {
    let t = ctx.tensor(0, "input")?;
    let dims = ctx.int_list(1, "dims")?;
    if let Some(rank) = t.shape.rank() {
        dim_list(ctx, &dims, rank, "flip")?;
    }
    Ok(Value::Tensor(t))
}

/// `torch.meshgrid(*tensors, indexing='ij')`: 0-d or 1-d inputs of one dtype; every output
/// has the input lengths as its shape (`'xy'` swaps the first two).
fn meshgrid(ctx: &mut Ctx) -> RuleResult {
    let items: Vec<Value> = match ctx.args.as_slice() {
        [one] if !matches!(one, Value::Tensor(_)) => one.elements().ok_or_else(|| {
            RuleError::invalid(format!("{}: expected a sequence of tensors", ctx.op))
        })?,
        args => args.to_vec(),
    };
    if items.is_empty() {
        return invalid(format!(
            "{}: meshgrid expects a non-empty TensorList",
            ctx.op
        ));
    }
    let xy = match ctx.kwarg("indexing") {
        None | Some(Value::None) => false,
        Some(Value::Str(Some(s))) if s == "ij" => false,
        Some(Value::Str(Some(s))) if s == "xy" => true,
        Some(Value::Str(None) | Value::Unknown) => {
            return unsupported(format!("{}: `indexing` is unknown", ctx.op))
        }
        Some(other) => {
            return invalid(format!(
                "{}: indexing must be one of \"xy\" or \"ij\", but received: {other}",
                ctx.op
            ))
        }
    };
    let mut lengths = Vec::new();
    let mut dtype = None;
    for item in &items {
        let t = match item {
            Value::Tensor(t) => t,
            Value::Unknown => return unsupported(format!("{}: unknown input", ctx.op)),
            other => {
                return invalid(format!(
                    "{}: expected Tensor as element, not {other}",
                    ctx.op
                ))
            }
        };
        let Some(dims) = t.shape.dims() else {
            return unsupported(format!("{}: rank unknown", ctx.op));
        };
        match dims {
            [] => lengths.push(Dim::constant(1)),
            [n] => lengths.push(n.clone()),
            _ => {
                return invalid(format!(
                    "{}: Expected 0D or 1D tensor in the tensor list but got a {}D tensor",
                    ctx.op,
                    dims.len()
                ))
            }
        }
        if dtype.is_some() && t.dtype.is_some() && dtype != t.dtype {
            return invalid(format!(
                "{}: expects all tensors to have the same dtype",
                ctx.op
            ));
        }
        dtype = dtype.or(t.dtype);
    }
    if xy && lengths.len() >= 2 {
        lengths.swap(0, 1);
    }
    let out = tensor_out(lengths, dtype);
    Ok(Value::Tuple(vec![out; items.len()]))
}

/// `torch.linalg.cross(a, b, dim=-1)` / `torch.cross(a, b, dim=None)`: same rank, the
/// shapes broadcast, and `dim` has length 3 in both ("inputs dimension -1 must have length
/// 3"). `torch.cross` without `dim` takes the first dim of length 3.
fn cross(ctx: &mut Ctx) -> RuleResult {
    let (a, dtype) = ctx.ranked(0, "input")?;
    let (b, _) = ctx.ranked(1, "other")?;
    if a.len() != b.len() {
        return invalid(format!(
            "{}: inputs must have the same number of dimensions",
            ctx.op
        ));
    }
    let out = broadcast_dims(ctx, &a, &b)?;
    let dim = match ctx.const_int(2, "dim")? {
        Some(d) => ctx.dim_index(d, out.len(), 0)?,
        None if ctx.op == "torch.linalg.cross" => ctx.dim_index(-1, out.len(), 0)?,
        None => {
            let mut found = None;
            for (i, d) in a.iter().enumerate() {
                match d.as_const() {
                    Some(3) => {
                        found = Some(i);
                        break;
                    }
                    Some(_) => {}
                    None => return unsupported(format!("{}: symbolic dim", ctx.op)),
                }
            }
            found.ok_or_else(|| {
                RuleError::invalid(format!("{}: no dimension of size 3 in input", ctx.op))
            })?
        }
    };
    if out.is_empty() {
        return invalid(format!(
            "{}: inputs must have a dimension of length 3",
            ctx.op
        ));
    }
    for d in [&a[dim], &b[dim]] {
        ctx.require_eq(
            d,
            &Dim::constant(3),
            format!("{}: inputs dimension {dim} must have length 3", ctx.op),
        )?;
    }
    Ok(tensor_out(out, dtype))
}

/// `torch.diff(input, n=1, dim=-1)`: the `n`-th forward difference along `dim`, which
/// shrinks by `n` (to 0 when shorter); a 0-d input is an error ("diff expects input to be
/// at least one-dimensional"). `prepend`/`append` are not modelled.
fn diff(ctx: &mut Ctx) -> RuleResult {
    let (mut dims, dtype) = ctx.ranked(0, "input")?;
    if dims.is_empty() {
        return invalid(format!(
            "{}: diff expects input to be at least one-dimensional",
            ctx.op
        ));
    }
    if ctx.kwarg("prepend").is_some() || ctx.kwarg("append").is_some() || ctx.args.len() > 3 {
        return unsupported(format!("{}: prepend/append", ctx.op));
    }
    let n = ctx.int_or(1, "n", 1)?;
    let dim = ctx.const_int(2, "dim")?.unwrap_or(-1);
    let d = ctx.dim_index(dim, dims.len(), 0)?;
    if let Dim::Known(size) = &dims[d] {
        dims[d] = Dim::Known(size.sub(&n).maximum(&DimExpr::zero()));
    }
    Ok(tensor_out(dims, dtype))
}
