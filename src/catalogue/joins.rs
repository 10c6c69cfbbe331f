//! Operator rules: joining tensors (`cat`, `stack`, `hstack`, ...) and splitting them
//! (`chunk`, `split`, `tensor_split`, `unbind`). Splitters return a tuple of tensors.
//! (See `catalogue/mod.rs` for the conventions.)

use super::common::clamp_slice_bound;
use super::{int_of, invalid, tensor_out, unsupported, Ctx, Rule, RuleError, RuleResult};
use crate::shapes::dim::DimExpr;
use crate::shapes::kind::FindingKind;
use crate::shapes::requirement::Pred;
use crate::shapes::shape::{Dim, Shape};
use crate::shapes::value::{DType, Value};

/// What this family's failures are, unless a rule or a check declares otherwise.
pub const KIND: FindingKind = FindingKind::ShapeMismatch;

pub const RULES: &[Rule] = &[
    Rule::function("torch.cat", cat).finding(FindingKind::ConcatMismatch),
    Rule::function("torch.concat", cat).finding(FindingKind::ConcatMismatch),
    Rule::function("torch.concatenate", cat).finding(FindingKind::ConcatMismatch),
    Rule::function("torch.stack", stack).finding(FindingKind::ConcatMismatch),
    Rule::function("torch.hstack", hstack).finding(FindingKind::ConcatMismatch),
    Rule::function("torch.vstack", vstack).finding(FindingKind::ConcatMismatch),
    Rule::function("torch.row_stack", vstack),
    Rule::function("torch.dstack", dstack),
    Rule::function("torch.column_stack", column_stack),
    Rule::function("torch.chunk", chunk),
    Rule::function("torch.Tensor.chunk", chunk),
    Rule::function("torch.split", split),
    Rule::function("torch.Tensor.split", split),
    Rule::function("torch.Tensor.split_with_sizes", split_with_sizes),
    Rule::function("torch.tensor_split", tensor_split),
    Rule::function("torch.Tensor.tensor_split", tensor_split),
    Rule::function("torch.unbind", unbind),
    Rule::function("torch.Tensor.unbind", unbind),
];

/// One operand of a join: its dims and dtype.
type Operand = (Vec<Dim>, Option<DType>);

/// The tensors of a join (a tuple or list, argument 0 or `tensors`), each of known rank;
/// an empty sequence raises ("expected a non-empty list of Tensors").
fn operands(ctx: &Ctx) -> Result<Vec<Operand>, RuleError> {
    let items = match ctx.arg(0, "tensors") {
        Some(Value::Unknown) => return unsupported(format!("{}: `tensors` is unknown", ctx.op)),
        Some(v) => v.elements().ok_or_else(|| {
            RuleError::invalid(format!(
                "{}: `tensors` must be a tuple or list of Tensors, not {v}",
                ctx.op
            ))
        })?,
        None => return invalid(format!("{}: missing argument `tensors`", ctx.op)),
    };
    if items.is_empty() {
        return invalid(format!("{}: expected a non-empty list of Tensors", ctx.op));
    }
    items
        .iter()
        .map(|v| match v {
            Value::Tensor(t) => match &t.shape {
                Shape::Ranked(d) => Ok((d.clone(), t.dtype)),
                Shape::Partial { .. } => {
                    unsupported(format!("{}: rank of an operand is unknown", ctx.op))
                }
            },
            Value::Unknown => unsupported(format!("{}: an operand is unknown", ctx.op)),
            other => invalid(format!(
                "{}: expected a sequence of Tensors, got an element {other}",
                ctx.op
            )),
        })
        .collect()
}

/// The promoted dtype of the operands (floating wins), when all are known.
fn joined_dtype(ops: &[Operand]) -> Option<DType> {
    ops.iter()
        .map(|(_, d)| *d)
        .collect::<Option<Vec<_>>>()?
        .into_iter()
        .max_by_key(|d| (d.is_floating(), *d == DType::Int))
}

fn shape_str(dims: &[Dim]) -> String {
    Shape::Ranked(dims.to_vec()).to_string()
}

/// Concatenates operands along `dim` (not yet normalised), with PyTorch's checks:
/// 0-d operands raise; 1-D operands of size 0 are skipped (legacy); the rest have the same
/// rank and equal sizes outside `dim`; the output size at `dim` is the sum.
fn concat(ctx: &mut Ctx, ops: &[Operand], dim: i64) -> RuleResult {
    if let Some(i) = ops.iter().position(|(d, _)| d.is_empty()) {
        return invalid(format!(
            "{}: zero-dimensional tensor (at position {i}) cannot be concatenated",
            ctx.op
        ));
    }
    let dtype = joined_dtype(ops);
    // Legacy rule: 1-D operands of size 0 are skipped, whatever the others' rank. A 1-D
    // operand of symbolic size next to operands of another rank is valid only when empty:
    // require that, and skip it.
    let mixed_ranks = ops.iter().any(|(d, _)| d.len() != 1);
    if mixed_ranks {
        for (d, _) in ops {
            if let [Dim::Known(size)] = d.as_slice() {
                if !size.is_const() {
                    ctx.require_with(Pred::Eq(size.clone(), DimExpr::zero()), |c| format!("{}: Tensors must have same number of dimensions: a 1-D tensor of size {size} is only skipped when empty", c.op))?;
                }
            }
        }
    }
    let skipped = |d: &[Dim]| {
        d.len() == 1 && (d[0].as_const() == Some(0) || (mixed_ranks && d[0].as_const().is_none()))
    };
    let kept: Vec<(usize, &Vec<Dim>)> = ops
        .iter()
        .enumerate()
        .filter(|(_, (d, _))| !skipped(d))
        .map(|(i, (d, _))| (i, d))
        .collect();
    let Some(&(_, first)) = kept.first() else {
        // Only skipped operands: the dim is not even checked.
        return Ok(tensor_out(ops[0].0.clone(), dtype));
    };
    if !mixed_ranks && ctx.dim_index(dim, 1, 0).is_err() {
        // All 1-D: an out-of-range dim is accepted only when every operand is empty.
        let sizes: Vec<DimExpr> = ops
            .iter()
            .filter_map(|(d, _)| d[0].expr().cloned())
            .collect();
        if sizes
            .iter()
            .all(|s| !s.is_const() || s.as_const() == Some(0))
            && sizes.iter().any(|s| !s.is_const())
        {
            let (message, kind) = match ctx.dim_index(dim, 1, 0) {
                Err(RuleError::Invalid { message, kind }) => (message, kind),
                _ => (String::new(), None),
            };
            for s in sizes {
                ctx.require_kind(kind, Pred::Eq(s, DimExpr::zero()), message.clone())?;
            }
            return Ok(tensor_out(vec![Dim::constant(0)], dtype));
        }
    }
    let d = ctx.dim_index(dim, first.len(), 0)?;
    let mut out = first.clone();
    for &(i, dims) in &kept[1..] {
        if dims.len() != first.len() {
            return invalid(format!(
                "{}: Tensors must have same number of dimensions: got {} and {}",
                ctx.op,
                first.len(),
                dims.len()
            ));
        }
        for (j, (a, b)) in first.iter().zip(dims).enumerate() {
            if let (true, Some(x), Some(y)) = (j != d, a.expr(), b.expr()) {
                ctx.require_with(Pred::Eq(x.clone(), y.clone()), |c| {
                    format!(
                        "{}: Sizes of tensors must match except in dimension {d}. Expected size {a} but got size {b} for tensor number {i} in the list ({} vs {}).",
                        c.op,
                        shape_str(first),
                        shape_str(dims)
                    )
                })?;
            }
        }
        out[d] = out[d].zip(&dims[d], DimExpr::add);
    }
    Ok(tensor_out(out, dtype))
}

/// `torch.cat(tensors, dim=0)` / `concat` / `concatenate` (also `axis=`): see [`concat`].
fn cat(ctx: &mut Ctx) -> RuleResult {
    let dim = match ctx.const_int(1, "dim")? {
        Some(d) => d,
        None => ctx.const_int(usize::MAX, "axis")?.unwrap_or(0),
    };
    let ops = match operands(ctx) {
        Ok(ops) => ops,
        Err(unknown @ RuleError::Unsupported(_)) => {
            // Some operands are unknown: the known ones must still agree with each other
            // (PyTorch raises whatever the others are), though the result stays unknown.
            let known = known_operands(ctx);
            if known.len() >= 2 {
                ctx.regardless_of_unknown();
                concat(ctx, &known, dim)?;
            }
            // An operand of rank 2 or more fixes the result's rank and every dim but the
            // joined one (only empty 1-D operands are skipped); that dim is unknown.
            if let Some((first, _)) = known.iter().find(|(d, _)| d.len() >= 2) {
                if let Ok(d) = ctx.dim_index(dim, first.len(), 0) {
                    let mut out = first.clone();
                    out[d] = Dim::Dyn;
                    return Ok(tensor_out(out, None));
                }
            }
            return Err(unknown);
        }
        Err(e) => return Err(e),
    };
    concat(ctx, &ops, dim)
}

/// The operands of a join that are tensors of known rank.
fn known_operands(ctx: &Ctx) -> Vec<Operand> {
    let items = ctx
        .arg(0, "tensors")
        .and_then(Value::elements)
        .unwrap_or_default();
    items
        .iter()
        .filter_map(|v| match v {
            Value::Tensor(t) => Some((t.shape.dims()?.to_vec(), t.dtype)),
            _ => None,
        })
        .collect()
}

/// `torch.stack(tensors, dim=0)`: all shapes equal ("stack expects each tensor to be equal
/// size, but got [..] at entry 0 and [..] at entry i"); a new dim of size `len(tensors)` is
/// inserted at `dim`, which ranges over `rank + 1` positions.
fn stack(ctx: &mut Ctx) -> RuleResult {
    let ops = operands(ctx)?;
    let dim = ctx.const_int(1, "dim")?.unwrap_or(0);
    let first = &ops[0].0;
    let d = ctx.dim_index(dim, first.len(), 1)?;
    for (i, (dims, _)) in ops.iter().enumerate().skip(1) {
        let msg = |c: &Ctx| {
            format!(
                "{}: stack expects each tensor to be equal size, but got {} at entry 0 and {} at entry {i}",
                c.op,
                shape_str(first),
                shape_str(dims)
            )
        };
        if dims.len() != first.len() {
            return invalid(msg(ctx));
        }
        for (a, b) in first.iter().zip(dims) {
            if let (Some(x), Some(y)) = (a.expr(), b.expr()) {
                ctx.require_with(Pred::Eq(x.clone(), y.clone()), msg)?;
            }
        }
    }
    let mut out = first.clone();
    out.insert(d, Dim::constant(ops.len() as i64));
    Ok(tensor_out(out, joined_dtype(&ops)))
}

/// Pads dims on the left to at least `k` dims (`atleast_1d`/`atleast_2d`); `atleast_3d`
/// differs for 1-D and 2-D inputs, see [`dstack`].
fn at_least(dims: &[Dim], k: usize) -> Vec<Dim> {
    let mut out = vec![Dim::constant(1); k.saturating_sub(dims.len())];
    out.extend_from_slice(dims);
    out
}

/// Applies `reshape` to every operand, then concatenates along `dim`.
fn reshaped_cat(
    ctx: &mut Ctx,
    reshape: fn(&[Dim]) -> Vec<Dim>,
    dim: fn(&[Dim]) -> i64,
) -> RuleResult {
    let ops: Vec<Operand> = operands(ctx)?
        .into_iter()
        .map(|(d, t)| (reshape(&d), t))
        .collect();
    let dim = dim(&ops[0].0);
    concat(ctx, &ops, dim)
}

/// `torch.hstack(tensors)`: `atleast_1d` each, then `cat` along dim 0 when the first is 1-D,
/// else dim 1.
fn hstack(ctx: &mut Ctx) -> RuleResult {
    reshaped_cat(
        ctx,
        |d| at_least(d, 1),
        |d| if d.len() == 1 { 0 } else { 1 },
    )
}

/// `torch.vstack(tensors)` / `row_stack`: `atleast_2d` each (`[n]` → `[1, n]`), then `cat`
/// along dim 0.
fn vstack(ctx: &mut Ctx) -> RuleResult {
    reshaped_cat(ctx, |d| at_least(d, 2), |_| 0)
}

/// `torch.dstack(tensors)`: `atleast_3d` each (`[]` → `[1, 1, 1]`, `[n]` → `[1, n, 1]`,
/// `[a, b]` → `[a, b, 1]`), then `cat` along dim 2.
fn dstack(ctx: &mut Ctx) -> RuleResult {
    fn atleast_3d(d: &[Dim]) -> Vec<Dim> {
        let one = Dim::constant(1);
        match d {
            [] => vec![one.clone(), one.clone(), one],
            [n] => vec![one.clone(), n.clone(), one],
            [a, b] => vec![a.clone(), b.clone(), one],
            _ => d.to_vec(),
        }
    }
    reshaped_cat(ctx, atleast_3d, |_| 2)
}

/// `torch.column_stack(tensors)`: 0-d and 1-D operands become columns (`[n]` → `[n, 1]`),
/// then `cat` along dim 1.
fn column_stack(ctx: &mut Ctx) -> RuleResult {
    fn column(d: &[Dim]) -> Vec<Dim> {
        match d {
            [] => vec![Dim::constant(1), Dim::constant(1)],
            [n] => vec![n.clone(), Dim::constant(1)],
            _ => d.to_vec(),
        }
    }
    reshaped_cat(ctx, column, |_| 1)
}

/// The input of a splitter (rank ≥ 1: "`name` expects at least a 1-dimensional tensor"),
/// and the normalised split dim (argument `dim_pos`, default 0).
fn split_input(
    ctx: &Ctx,
    what: &str,
    dim_pos: usize,
) -> Result<(Vec<Dim>, Option<DType>, usize), RuleError> {
    let (dims, dtype) = ctx.ranked(0, "input")?;
    if dims.is_empty() {
        return invalid(format!(
            "{}: {what} expects at least a 1-dimensional tensor",
            ctx.op
        ));
    }
    let d = ctx.dim_index(ctx.const_int(dim_pos, "dim")?.unwrap_or(0), dims.len(), 0)?;
    Ok((dims, dtype, d))
}

/// A tuple of pieces of `dims` whose size at `d` is each of `sizes`.
fn pieces(dims: &[Dim], dtype: Option<DType>, d: usize, sizes: Vec<Dim>) -> Value {
    Value::Tuple(
        sizes
            .into_iter()
            .map(|s| {
                let mut out = dims.to_vec();
                out[d] = s;
                tensor_out(out, dtype)
            })
            .collect(),
    )
}

/// Pieces of at most `size` along a dim of concrete length `n`: `ceil(n / size)` of them
/// (one empty piece when `n == 0`), the last one shorter.
fn fixed_pieces(n: i64, size: i64) -> Vec<Dim> {
    if n == 0 || size == 0 {
        return vec![Dim::constant(0)];
    }
    let count = (n + size - 1) / size;
    (0..count)
        .map(|i| Dim::constant(size.min(n - i * size)))
        .collect()
}

/// The concrete size at `d`, needed when it decides how many pieces there are.
fn concrete_size(ctx: &Ctx, dims: &[Dim], d: usize) -> Result<i64, RuleError> {
    dims[d].as_const().map_or_else(
        || {
            unsupported(format!(
                "{}: the number of pieces depends on the symbolic size {}",
                ctx.op, dims[d]
            ))
        },
        Ok,
    )
}

/// `torch.chunk(x, chunks, dim=0)`: `chunks > 0` ("chunk expects `chunks` to be greater than
/// 0"); pieces of `ceil(n / chunks)`, so there may be fewer than `chunks` pieces and the last
/// is shorter; a dim of size 0 gives `chunks` empty pieces.
fn chunk(ctx: &mut Ctx) -> RuleResult {
    let Some(chunks) = ctx.const_int(1, "chunks")? else {
        return invalid(format!("{}: missing argument `chunks`", ctx.op));
    };
    let (dims, dtype, d) = split_input(ctx, "chunk", 2)?;
    if chunks <= 0 {
        return invalid(format!(
            "{}: chunk expects `chunks` to be greater than 0, got: {chunks}",
            ctx.op
        ));
    }
    if let Some(Dim::Known(e)) = dims.get(d).filter(|x| x.as_const().is_none()) {
        // A symbolic length: code that chunks a dim expects it to split evenly (`qkv.chunk(3)`,
        // the halves of a gated unit), so the pieces are `n / chunks` each, under that
        // assumption; how many pieces an uneven split gives is not expressible.
        let c = DimExpr::constant(chunks);
        ctx.assumptions.push(Pred::Divides(c.clone(), e.clone()));
        let piece = Dim::Known(e.floordiv(&c));
        return Ok(pieces(&dims, dtype, d, vec![piece; chunks as usize]));
    }
    let n = concrete_size(ctx, &dims, d)?;
    let sizes = if n == 0 {
        vec![Dim::constant(0); chunks as usize]
    } else {
        fixed_pieces(n, (n + chunks - 1) / chunks)
    };
    Ok(pieces(&dims, dtype, d, sizes))
}

/// Splits into explicit sizes, which must be non-negative and sum to the dim
/// ("split_with_sizes expects split_sizes to sum exactly to n").
fn sized_pieces(ctx: &mut Ctx, sizes: &[Value], dim_pos: usize) -> RuleResult {
    let (dims, dtype, d) = split_input(ctx, "split_with_sizes", dim_pos)?;
    let mut out = Vec::new();
    let mut total = Some(DimExpr::zero());
    for v in sizes {
        let s = match v {
            Value::IntUnknown => Dim::Dyn,
            other => Dim::Known(int_of(&ctx.op, "split_sizes", other)?),
        };
        if let Dim::Known(e) = &s {
            ctx.require_with(Pred::Le(DimExpr::zero(), e.clone()), |c| format!("{}: split_with_sizes expects split_sizes have only non-negative entries, but got {e}", c.op))?;
        }
        total = match (&total, &s) {
            (Some(t), Dim::Known(e)) => Some(t.add(e)),
            _ => None,
        };
        out.push(s);
    }
    if let (Some(t), Dim::Known(n)) = (total, &dims[d]) {
        let listed: Vec<String> = out.iter().map(Dim::to_string).collect();
        ctx.require_with(Pred::Eq(t, n.clone()), |c| format!(
                "{}: split_with_sizes expects split_sizes to sum exactly to {n} (input tensor's size at dimension {d}), but got split_sizes=[{}]",
                c.op,
                listed.join(", ")
            ))?;
    }
    Ok(pieces(&dims, dtype, d, out))
}

/// `torch.split(x, split_size_or_sections, dim=0)`: an int gives pieces of that size (the
/// last shorter; it must be non-negative, and 0 only for an empty dim); a list gives pieces of
/// those sizes, see [`sized_pieces`].
fn split(ctx: &mut Ctx) -> RuleResult {
    let arg = ctx
        .arg(1, "split_size_or_sections")
        .or_else(|| ctx.kwarg("split_size"))
        .cloned();
    if let Some(sizes) = arg.as_ref().and_then(Value::elements) {
        return sized_pieces(ctx, &sizes, 2);
    }
    let size = match &arg {
        Some(v) => int_of(&ctx.op, "split_size", v)?,
        None => return invalid(format!("{}: missing argument `split_size`", ctx.op)),
    };
    let (dims, dtype, d) = split_input(ctx, "split", 2)?;
    let Some(size) = size.as_const() else {
        return unsupported(format!("{}: split_size {size} is symbolic", ctx.op));
    };
    if size < 0 {
        return invalid(format!(
            "{}: split expects split_size be non-negative, but got split_size={size}",
            ctx.op
        ));
    }
    let n = concrete_size(ctx, &dims, d)?;
    if size == 0 && n != 0 {
        return invalid(format!(
            "{}: split_size can only be 0 if dimension size is 0, but got dimension size of {n}",
            ctx.op
        ));
    }
    Ok(pieces(&dims, dtype, d, fixed_pieces(n, size)))
}

/// `x.split_with_sizes(split_sizes, dim=0)`: see [`sized_pieces`].
fn split_with_sizes(ctx: &mut Ctx) -> RuleResult {
    let Some(sizes) = ctx.arg(1, "split_sizes").and_then(Value::elements) else {
        return invalid(format!("{}: `split_sizes` must be a list of ints", ctx.op));
    };
    sized_pieces(ctx, &sizes, 2)
}

/// `torch.tensor_split(x, indices_or_sections, dim=0)`: an int `n > 0` gives `n` pieces, the
/// first `size % n` one longer (piece `i` has `(size + n - 1 - i) // n`); a list of indices
/// cuts at those positions with slice clamping (pieces may be empty).
fn tensor_split(ctx: &mut Ctx) -> RuleResult {
    let arg = ctx
        .arg(1, "indices_or_sections")
        .or_else(|| ctx.kwarg("sections"))
        .or_else(|| ctx.kwarg("indices"))
        .cloned();
    let (dims, dtype, d) = split_input(ctx, "tensor_split", 2)?;
    let Dim::Known(n) = dims[d].clone() else {
        return unsupported(format!("{}: the split dim is unknown", ctx.op));
    };
    // A tensor argument: 0-d is a section count, 1-d holds indices; readable when uniform.
    let arg = match arg {
        Some(Value::Tensor(t)) => match (t.uniform, t.shape.concrete().as_deref()) {
            (Some(v), Some([])) => Some(Value::Int(DimExpr::constant(v))),
            (Some(v), Some(&[k])) if k <= 4096 => {
                Some(Value::List(vec![
                    Value::Int(DimExpr::constant(v));
                    k.max(0) as usize
                ]))
            }
            _ => return unsupported(format!("{}: tensor indices are data-dependent", ctx.op)),
        },
        other => other,
    };
    if let Some(indices) = arg.as_ref().and_then(Value::elements) {
        let mut start = DimExpr::zero();
        let mut sizes = Vec::new();
        for v in &indices {
            let end = clamp_slice_bound(&int_of(&ctx.op, "indices", v)?, &n);
            sizes.push(Dim::Known(end.sub(&start).maximum(&DimExpr::zero())));
            start = end;
        }
        sizes.push(Dim::Known(n.sub(&start).maximum(&DimExpr::zero())));
        return Ok(pieces(&dims, dtype, d, sizes));
    }
    let sections = match &arg {
        Some(v) => int_of(&ctx.op, "sections", v)?,
        None => {
            return invalid(format!(
                "{}: missing argument `indices_or_sections`",
                ctx.op
            ))
        }
    };
    let Some(k) = sections.as_const() else {
        return unsupported(format!("{}: sections {sections} is symbolic", ctx.op));
    };
    if k <= 0 {
        return invalid(format!(
            "{}: number of sections must be larger than 0, got {k}",
            ctx.op
        ));
    }
    let sizes = (0..k)
        .map(|i| Dim::Known(n.add_const(k - 1 - i).floordiv(&DimExpr::constant(k))))
        .collect();
    Ok(pieces(&dims, dtype, d, sizes))
}

/// `torch.unbind(x, dim=0)`: one piece per index along `dim`, that dim removed; a 0-d input
/// raises ("Dimension specified as 0 but tensor has no dimensions").
fn unbind(ctx: &mut Ctx) -> RuleResult {
    let (dims, dtype) = ctx.ranked(0, "input")?;
    let dim = ctx.const_int(1, "dim")?.unwrap_or(0);
    if dims.is_empty() {
        return invalid(format!(
            "{}: Dimension specified as {dim} but tensor has no dimensions",
            ctx.op
        ));
    }
    let d = ctx.dim_index(dim, dims.len(), 0)?;
    let n = concrete_size(ctx, &dims, d)?;
    let mut rest = dims.clone();
    rest.remove(d);
    Ok(Value::Tuple(
        (0..n).map(|_| tensor_out(rest.clone(), dtype)).collect(),
    ))
}

#[cfg(test)]
mod tests {
    use super::super::{apply_noting_reads, RuleError};
    use super::*;

    /// With an operand unknown, the known ones must still agree with each other: their
    /// mismatch is an error whatever the unknown one is. A known operand of rank 2 or more
    /// fixes the result but for the joined dim; a 1-D one (perhaps an empty legacy operand,
    /// which is skipped) fixes nothing.
    #[test]
    fn known_operands_of_a_partly_unknown_cat_are_checked() {
        let t = |dims: &[i64]| Value::float_tensor(dims);
        let run = |items: Vec<Value>| {
            let args = vec![Value::List(items), Value::int(-1)];
            apply_noting_reads(cat, "torch.cat", args, Vec::new(), None, Vec::new())
        };
        let failed =
            run(vec![t(&[4, 64]), Value::Unknown, t(&[4, 2, 6])]).expect_err("a rank mismatch");
        assert!(matches!(failed.error, RuleError::Invalid { .. }));
        assert!(
            !failed.read_unknown,
            "the mismatch does not depend on the unknown"
        );
        let Ok(joined) = run(vec![t(&[4, 64]), Value::Unknown, t(&[4, 6])]) else {
            panic!("a result");
        };
        let Value::Tensor(out) = joined.value else {
            panic!("a tensor: {:?}", joined.value)
        };
        assert_eq!(out.shape.dims(), Some(&[Dim::constant(4), Dim::Dyn][..]));
        let open = run(vec![t(&[64]), Value::Unknown]).expect_err("an unknown result");
        assert!(matches!(open.error, RuleError::Unsupported(_)));
    }
}
