//! Operator rules: views and shape rearrangements (view, reshape, flatten, squeeze, permute,
//! transpose, expand, repeat, ...). Element counts are symbolic products; `-1` is inferred by
//! exact (floor) division under a divisibility requirement.

use super::invalid_as;
use super::{invalid, tensor_out, unsupported, Ctx, Rule, RuleError, RuleResult};
use crate::shapes::dim::DimExpr;
use crate::shapes::kind::{Declared, FindingKind};
use crate::shapes::requirement::Pred;
use crate::shapes::shape::{Dim, Shape};
use crate::shapes::value::{DType, Value};

/// Too few dims for the sizes an expansion keeps: the input's rank is wrong.
const RANK: Declared = Declared::Specific(FindingKind::RankMismatch);

/// What this family's failures are, unless a rule or a check declares otherwise.
pub const KIND: FindingKind = FindingKind::ShapeMismatch;

pub const RULES: &[Rule] = &[
    Rule::function("torch.Tensor.view", view).finding(FindingKind::ReshapeNumel),
    Rule::function("torch.Tensor.reshape", view).finding(FindingKind::ReshapeNumel),
    Rule::function("torch.reshape", reshape_fn).finding(FindingKind::ReshapeNumel),
    Rule::function("torch.Tensor.view_as", view_as).finding(FindingKind::ReshapeNumel),
    Rule::function("torch.Tensor.reshape_as", view_as).finding(FindingKind::ReshapeNumel),
    Rule::function("torch.flatten", flatten).finding(FindingKind::RankMismatch),
    Rule::function("torch.Tensor.flatten", flatten).finding(FindingKind::RankMismatch),
    Rule::function("torch.unflatten", unflatten).finding(FindingKind::ReshapeNumel),
    Rule::function("torch.Tensor.unflatten", unflatten).finding(FindingKind::ReshapeNumel),
    Rule::function("torch.squeeze", squeeze),
    Rule::function("torch.Tensor.squeeze", squeeze),
    Rule::function("torch.unsqueeze", unsqueeze),
    Rule::function("torch.Tensor.unsqueeze", unsqueeze),
    Rule::function("torch.permute", permute).finding(FindingKind::RankMismatch),
    Rule::function("torch.Tensor.permute", permute).finding(FindingKind::RankMismatch),
    Rule::function("torch.transpose", transpose).finding(FindingKind::RankMismatch),
    Rule::function("torch.Tensor.transpose", transpose).finding(FindingKind::RankMismatch),
    Rule::function("torch.swapaxes", transpose),
    Rule::function("torch.swapdims", transpose),
    Rule::function("torch.t", t),
    Rule::function("torch.Tensor.t", t),
    Rule::function("torch.Tensor.T", reverse_dims),
    Rule::function("torch.Tensor.mT", matrix_transpose),
    Rule::function("torch.Tensor.mH", matrix_transpose),
    Rule::function("torch.movedim", movedim),
    Rule::function("torch.moveaxis", movedim),
    Rule::function("torch.Tensor.movedim", movedim),
    Rule::function("torch.Tensor.expand", expand),
    Rule::function("torch.Tensor.expand_as", expand_as),
    Rule::function("torch.Tensor.repeat", repeat),
    Rule::function("torch.repeat_interleave", repeat_interleave),
    Rule::function("torch.Tensor.repeat_interleave", repeat_interleave),
    Rule::function("torch.Tensor.to", to),
    Rule::function("torch.Tensor.type_as", type_as),
    Rule::function("torch.Tensor.type", type_),
];

fn shape_str(dims: &[Dim]) -> String {
    Shape::Ranked(dims.to_vec()).to_string()
}

/// The target dims with the `-1` left unknown (when the element count is unknown).
fn inferred_unknown(target: &[Dim]) -> Vec<Dim> {
    target
        .iter()
        .map(|d| {
            if d.as_const() == Some(-1) {
                Dim::Dyn
            } else {
                d.clone()
            }
        })
        .collect()
}

/// The target of `view`/`reshape` with at most one `-1`: checks the element count and
/// infers the `-1`.
fn reshape_to(ctx: &mut Ctx, dims: &[Dim], target: Vec<Dim>) -> Result<Vec<Dim>, RuleError> {
    let numel = Dim::product(dims);
    let mut infer = None;
    let mut known = DimExpr::one();
    for (i, d) in target.iter().enumerate() {
        match d.as_const() {
            Some(-1) => {
                if infer.is_some() {
                    return invalid(format!("{}: only one dimension can be inferred", ctx.op));
                }
                infer = Some(i);
            }
            Some(c) if c < 0 => {
                return invalid(format!(
                    "{}: invalid shape dimension {c} at index {i} of shape {}",
                    ctx.op,
                    shape_str(&target)
                ))
            }
            _ => match d {
                Dim::Known(e) => known = known.mul(e),
                Dim::Dyn => return Ok(inferred_unknown(&target)),
            },
        }
    }
    let Dim::Known(numel) = numel else {
        return Ok(inferred_unknown(&target));
    };
    let message = |c: &Ctx| {
        format!(
            "{}: shape '{}' is invalid for input of size {numel}",
            c.op,
            shape_str(&target)
        )
    };
    let mut out = target.clone();
    match infer {
        None => ctx.require_with(Pred::Eq(numel.clone(), known), message)?,
        Some(i) => {
            ctx.require_with(Pred::Ne(known.clone(), DimExpr::zero()), |c| {
                format!(
                    "{}: cannot reshape tensor of {numel} elements into shape {} because the unspecified dimension size -1 can be any value and is ambiguous",
                    c.op,
                    shape_str(&target)
                )
            })?;
            ctx.require_with(Pred::Divides(known.clone(), numel.clone()), message)?;
            out[i] = Dim::Known(numel.floordiv(&known));
        }
    }
    Ok(out)
}

/// `x.view(*shape)` / `x.reshape(*shape)`: same number of elements; at most one `-1`, inferred
/// as `numel / prod(others)` ("shape '[4, 3]' is invalid for input of size 8", "only one
/// dimension can be inferred"); other negative sizes are invalid.
fn view(ctx: &mut Ctx) -> RuleResult {
    let (dims, dtype) = ctx.ranked(0, "self")?;
    if ctx.op == "torch.Tensor.view" && ctx.kwarg("shape").is_some() {
        return invalid(format!(
            "{}: view() takes the shape positionally, not as `shape=`",
            ctx.op
        ));
    }
    if let Some(Value::DType(_)) = ctx.arg(1, "dtype") {
        return unsupported(format!(
            "{}: view(dtype) reinterprets the element size",
            ctx.op
        ));
    }
    let target = ctx.int_list(1, "shape")?;
    let out = reshape_to(ctx, &dims, target)?;
    Ok(tensor_out(out, dtype))
}

/// `torch.reshape(x, shape)`: as `x.reshape(shape)`; the shape is one sequence argument.
fn reshape_fn(ctx: &mut Ctx) -> RuleResult {
    let (dims, dtype) = ctx.ranked(0, "input")?;
    let target = match ctx.arg(1, "shape") {
        Some(v) if v.elements().is_some() => ctx.int_list(1, "shape")?,
        Some(other) => {
            return invalid(format!(
                "{}: shape must be a tuple of ints, not {other}",
                ctx.op
            ))
        }
        None => return invalid(format!("{}: missing argument `shape`", ctx.op)),
    };
    let out = reshape_to(ctx, &dims, target)?;
    Ok(tensor_out(out, dtype))
}

/// `x.view_as(other)` / `x.reshape_as(other)`: reshape to `other`'s shape.
fn view_as(ctx: &mut Ctx) -> RuleResult {
    let (dims, dtype) = ctx.ranked(0, "self")?;
    let (target, _) = ctx.ranked(1, "other")?;
    let out = reshape_to(ctx, &dims, target)?;
    Ok(tensor_out(out, dtype))
}

/// `flatten(start_dim=0, end_dim=-1)`: merges dims `start..=end` into their product; a 0-d
/// tensor becomes `[1]`; `start_dim` after `end_dim` is invalid.
fn flatten(ctx: &mut Ctx) -> RuleResult {
    let (dims, dtype) = ctx.ranked(0, "input")?;
    let start = ctx.const_int(1, "start_dim")?.unwrap_or(0);
    let end = ctx.const_int(2, "end_dim")?.unwrap_or(-1);
    let rank = dims.len();
    let s = ctx.dim_index(start, rank, 0)?;
    let e = ctx.dim_index(end, rank, 0)?;
    if rank == 0 {
        return Ok(tensor_out(vec![Dim::constant(1)], dtype));
    }
    if s > e {
        return invalid(format!(
            "{}: flatten() has invalid args: start_dim cannot come after end_dim",
            ctx.op
        ));
    }
    let mut out = dims[..s].to_vec();
    out.push(Dim::product(&dims[s..=e]));
    out.extend_from_slice(&dims[e + 1..]);
    Ok(tensor_out(out, dtype))
}

/// `unflatten(dim, sizes)`: splits one dim into `sizes` (one `-1` may be inferred); their
/// product must equal the dim.
fn unflatten(ctx: &mut Ctx) -> RuleResult {
    let (dims, dtype) = ctx.ranked(0, "input")?;
    let d = ctx
        .const_int(1, "dim")?
        .ok_or_else(|| RuleError::invalid(format!("{}: missing `dim`", ctx.op)))?;
    let d = ctx.dim_index(d, dims.len(), 0)?;
    if dims.is_empty() {
        return invalid(format!(
            "{}: Dimension specified as {d} but tensor has no dimensions",
            ctx.op
        ));
    }
    let sizes = match ctx.arg(2, "sizes") {
        Some(v) if v.elements().is_some() => ctx.int_list(2, "sizes")?,
        _ => return invalid(format!("{}: sizes must be a tuple of ints", ctx.op)),
    };
    if sizes.is_empty() {
        return invalid(format!("{}: unflatten: sizes must be non-empty", ctx.op));
    }
    let inner = reshape_to(ctx, &dims[d..=d], sizes)?;
    let mut out = dims[..d].to_vec();
    out.extend(inner);
    out.extend_from_slice(&dims[d + 1..]);
    Ok(tensor_out(out, dtype))
}

/// `squeeze()` drops every dim of size 1; `squeeze(dim)` (or a tuple of dims) drops the named
/// dims that are 1 and leaves the others.
fn squeeze(ctx: &mut Ctx) -> RuleResult {
    let (dims, dtype) = ctx.ranked(0, "input")?;
    let rank = dims.len();
    let selected: Vec<usize> = match ctx.arg(1, "dim") {
        None | Some(Value::None) => (0..rank).collect(),
        Some(v) if v.elements().is_some() => {
            let mut out = Vec::new();
            for item in v.elements().unwrap_or_default() {
                let d = super::int_of(&ctx.op, "dim", &item)?;
                let d = d
                    .as_const()
                    .ok_or_else(|| RuleError::Unsupported("symbolic dim".into()))?;
                let i = ctx.dim_index(d, rank, 0)?;
                if out.contains(&i) {
                    return invalid(format!(
                        "{}: dim {i} appears multiple times in the list of dims",
                        ctx.op
                    ));
                }
                out.push(i);
            }
            out
        }
        Some(_) => vec![ctx.dim_arg(1, "dim", rank)?.unwrap_or(0)],
    };
    let mut out = Vec::new();
    for (i, d) in dims.iter().enumerate() {
        if !selected.contains(&i) {
            out.push(d.clone());
            continue;
        }
        let is_one = match d {
            Dim::Known(e) => ctx.decide(Pred::Eq(e.clone(), DimExpr::one())),
            Dim::Dyn => None,
        };
        match is_one {
            Some(true) => {}
            Some(false) => out.push(d.clone()),
            None => {
                return unsupported(format!("{}: whether dim {i} ({d}) is 1 is unknown", ctx.op))
            }
        }
    }
    Ok(tensor_out(out, dtype))
}

/// `unsqueeze(dim)`: inserts a dim of size 1; `dim` ranges over `[-rank-1, rank]`.
fn unsqueeze(ctx: &mut Ctx) -> RuleResult {
    let (mut dims, dtype) = ctx.ranked(0, "input")?;
    let d = ctx
        .const_int(1, "dim")?
        .ok_or_else(|| RuleError::invalid(format!("{}: missing `dim`", ctx.op)))?;
    let i = ctx.dim_index(d, dims.len(), 1)?;
    dims.insert(i, Dim::constant(1));
    Ok(tensor_out(dims, dtype))
}

/// Normalised, distinct dims from an int list argument (permute, movedim).
pub(super) fn dim_list(
    ctx: &Ctx,
    items: &[Dim],
    rank: usize,
    what: &str,
) -> Result<Vec<usize>, RuleError> {
    let mut out = Vec::new();
    for d in items {
        let c = d
            .as_const()
            .ok_or_else(|| RuleError::Unsupported(format!("{}: symbolic dim", ctx.op)))?;
        let i = ctx.dim_index(c, rank, 0)?;
        if out.contains(&i) {
            return invalid(format!("{}: repeated dim in {what}", ctx.op));
        }
        out.push(i);
    }
    Ok(out)
}

/// `permute(*dims)`: a permutation of all dims ("number of dims don't match in permute",
/// "repeated dim in permute").
fn permute(ctx: &mut Ctx) -> RuleResult {
    let (dims, dtype) = ctx.ranked(0, "input")?;
    let order = ctx.int_list(1, "dims")?;
    if order.len() != dims.len() {
        return invalid_as(
            Declared::Generic(FindingKind::RankMismatch),
            format!("{}: number of dims don't match in permute", ctx.op),
        );
    }
    let order = dim_list(ctx, &order, dims.len(), "permute")?;
    Ok(tensor_out(
        order.iter().map(|&i| dims[i].clone()).collect(),
        dtype,
    ))
}

/// `transpose(dim0, dim1)` (also `swapaxes`/`swapdims`): swaps two dims.
fn transpose(ctx: &mut Ctx) -> RuleResult {
    let (mut dims, dtype) = ctx.ranked(0, "input")?;
    let rank = dims.len();
    let a = ctx
        .const_int(1, "dim0")?
        .ok_or_else(|| RuleError::invalid(format!("{}: missing dim0", ctx.op)))?;
    let b = ctx
        .const_int(2, "dim1")?
        .ok_or_else(|| RuleError::invalid(format!("{}: missing dim1", ctx.op)))?;
    let (a, b) = (ctx.dim_index(a, rank, 0)?, ctx.dim_index(b, rank, 0)?);
    if rank > 0 {
        dims.swap(a, b);
    }
    Ok(tensor_out(dims, dtype))
}

/// `t()`: transposes a 2-D tensor; 0-D and 1-D are returned as is; more dims are invalid
/// ("t() expects a tensor with <= 2 dimensions").
fn t(ctx: &mut Ctx) -> RuleResult {
    let (mut dims, dtype) = ctx.ranked(0, "input")?;
    if dims.len() > 2 {
        return invalid(format!(
            "{}: t() expects a tensor with <= 2 dimensions, but self is {}D",
            ctx.op,
            dims.len()
        ));
    }
    dims.reverse();
    Ok(tensor_out(dims, dtype))
}

/// `x.T`: reverses all dims (deprecated but accepted for ranks other than 2).
fn reverse_dims(ctx: &mut Ctx) -> RuleResult {
    let (mut dims, dtype) = ctx.ranked(0, "self")?;
    dims.reverse();
    Ok(tensor_out(dims, dtype))
}

/// `x.mT` / `x.mH`: swaps the last two dims; a 1-D tensor is invalid (a 0-D one is returned
/// as is).
fn matrix_transpose(ctx: &mut Ctx) -> RuleResult {
    let (mut dims, dtype) = ctx.ranked(0, "self")?;
    let n = dims.len();
    if n == 1 {
        return invalid(format!(
            "{}: tensor.mT is only supported on matrices or batches of matrices. Got {n}-D tensor.",
            ctx.op
        ));
    }
    if n >= 2 {
        dims.swap(n - 2, n - 1);
    }
    Ok(tensor_out(dims, dtype))
}

/// An int or a sequence of ints as a list.
fn ints_or_one(ctx: &Ctx, pos: usize, name: &str) -> Result<Vec<Dim>, RuleError> {
    match ctx.arg(pos, name) {
        Some(v) if v.elements().is_some() => v
            .elements()
            .unwrap_or_default()
            .iter()
            .map(|x| super::int_of(&ctx.op, name, x).map(Dim::Known))
            .collect(),
        Some(v) => Ok(vec![Dim::Known(super::int_of(&ctx.op, name, v)?)]),
        None => invalid(format!("{}: missing `{name}`", ctx.op)),
    }
}

/// `movedim(source, destination)`: moves dims to new positions, the others keep their order;
/// source and destination have the same length and no repeats.
fn movedim(ctx: &mut Ctx) -> RuleResult {
    let (dims, dtype) = ctx.ranked(0, "input")?;
    let rank = dims.len();
    let src = ints_or_one(ctx, 1, "source")?;
    let dst = ints_or_one(ctx, 2, "destination")?;
    if src.len() != dst.len() {
        return invalid_as(Declared::Generic(FindingKind::RankMismatch), format!(
            "{}: movedim: Invalid source or destination dims: source ({} dims) should contain the same number of dims as destination ({} dims)",
            ctx.op,
            src.len(),
            dst.len()
        ));
    }
    let src = dim_list(ctx, &src, rank, "movedim source")?;
    let dst = dim_list(ctx, &dst, rank, "movedim destination")?;
    if rank == 0 {
        return Ok(tensor_out(dims, dtype));
    }
    let mut out: Vec<Option<Dim>> = vec![None; rank];
    for (s, d) in src.iter().zip(&dst) {
        out[*d] = Some(dims[*s].clone());
    }
    let mut rest = (0..rank)
        .filter(|i| !src.contains(i))
        .map(|i| dims[i].clone());
    let out: Vec<Dim> = out
        .into_iter()
        .map(|o| o.or_else(|| rest.next()).unwrap_or(Dim::Dyn))
        .collect();
    Ok(tensor_out(out, dtype))
}

/// Expansion of `dims` to `target`: new leading dims are taken as given (and must be ≥ 0),
/// `-1` keeps a dim, a dim of 1 stretches, any other size must be equal.
fn expand_to(ctx: &mut Ctx, dims: &[Dim], target: &[Dim]) -> Result<Vec<Dim>, RuleError> {
    if target.len() < dims.len() {
        return invalid_as(RANK, format!(
            "{}: the number of sizes provided ({}) must be greater or equal to the number of dimensions in the tensor ({})",
            ctx.op,
            target.len(),
            dims.len()
        ));
    }
    let lead = target.len() - dims.len();
    let mut out = Vec::with_capacity(target.len());
    for (i, t) in target.iter().enumerate() {
        if i < lead {
            if t.as_const().is_some_and(|c| c < 0) {
                return invalid_as(RANK, format!("{}: The expanded size of the tensor ({t}) isn't allowed in a leading, non-existing dimension {i}", ctx.op));
            }
            out.push(t.clone());
            continue;
        }
        let d = &dims[i - lead];
        match t.as_const() {
            Some(-1) => out.push(d.clone()),
            Some(c) if c < -1 => return invalid(format!("{}: invalid expanded size {c}", ctx.op)),
            _ => {
                if d.as_const() == Some(1) {
                    out.push(t.clone());
                    continue;
                }
                if let (Some(de), Some(te)) = (d.expr(), t.expr()) {
                    // A symbolic existing dim may be 1 (and stretch) or equal to the target.
                    ctx.require_with(Pred::Or(vec![Pred::Eq(de.clone(), te.clone()), Pred::Eq(de.clone(), DimExpr::one())]), |c| format!(
                            "{}: The expanded size of the tensor ({t}) must match the existing size ({d}) at non-singleton dimension {i}. Target sizes: {}. Tensor sizes: {}",
                            c.op,
                            shape_str(target),
                            shape_str(dims)
                        ))?;
                }
                out.push(t.clone());
            }
        }
    }
    Ok(out)
}

/// `x.expand(*sizes)`: broadcasts to `sizes` without copying (see [`expand_to`]).
pub(super) fn expand(ctx: &mut Ctx) -> RuleResult {
    let (dims, dtype) = ctx.ranked(0, "self")?;
    let target = ctx.int_list(1, "size")?;
    let out = expand_to(ctx, &dims, &target)?;
    Ok(tensor_out(out, dtype))
}

/// `x.expand_as(other)`: `x.expand(other.shape)`.
fn expand_as(ctx: &mut Ctx) -> RuleResult {
    let (dims, dtype) = ctx.ranked(0, "self")?;
    let (target, _) = ctx.ranked(1, "other")?;
    let out = expand_to(ctx, &dims, &target)?;
    Ok(tensor_out(out, dtype))
}

/// `x.repeat(*reps)`: at least as many repeats as dims; the shape is padded with leading 1s
/// and multiplied by the repeats.
fn repeat(ctx: &mut Ctx) -> RuleResult {
    let (dims, dtype) = ctx.ranked(0, "self")?;
    let reps = ctx.int_list(1, "repeats")?;
    if reps.len() < dims.len() {
        return invalid(format!(
            "{}: Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor",
            ctx.op
        ));
    }
    if let Some(c) = reps.iter().filter_map(Dim::as_const).find(|c| *c < 0) {
        return invalid(format!(
            "{}: Trying to create tensor with negative dimension {c}",
            ctx.op
        ));
    }
    let lead = reps.len() - dims.len();
    let out = reps
        .iter()
        .enumerate()
        .map(|(i, r)| {
            if i < lead {
                r.clone()
            } else {
                dims[i - lead].zip(r, DimExpr::mul)
            }
        })
        .collect();
    Ok(tensor_out(out, dtype))
}

/// `repeat_interleave(repeats, dim=None)`: each element repeated `repeats` times along `dim`
/// (the flattened tensor when `dim` is None). A `repeats` tensor (0-d, or 1-d of length 1 or
/// the size along `dim`: "repeats must have the same size as input along dim") gives a
/// data-dependent size unless its content is known uniform. `torch.repeat_interleave(r)`
/// alone repeats `arange(len(r))` by `r`.
fn repeat_interleave(ctx: &mut Ctx) -> RuleResult {
    let (dims, dtype) = ctx.ranked(0, "input")?;
    // Repeats given as a tensor of unknown content: the grown dim has a size only the
    // data decides.
    let data_dependent = |ctx: &mut Ctx, dims: Vec<Dim>, along: Option<usize>| {
        let grown = Dim::Known(ctx.fresh("repeated", None));
        Ok(repeated(dims, along, grown, dtype))
    };
    let repeats = match ctx.arg(1, "repeats").cloned() {
        None => {
            // The one-argument form: the input holds the repeats.
            let t = ctx.tensor(0, "input")?;
            if dims.len() != 1 {
                return invalid(format!(
                    "{}: repeat_interleave only accept 1D vector as repeat",
                    ctx.op
                ));
            }
            let (Some(r), Dim::Known(n)) = (t.uniform, &dims[0]) else {
                return data_dependent(ctx, dims, None);
            };
            return Ok(tensor_out(vec![Dim::Known(n.mul_const(r))], dtype));
        }
        Some(v) => v,
    };
    let along = ctx.dim_arg(2, "dim", dims.len())?;
    if along.is_some() && dims.is_empty() {
        return invalid(format!(
            "{}: Dimension specified as 0 but tensor has no dimensions",
            ctx.op
        ));
    }
    let n = along.map_or_else(|| Dim::product(&dims), |d| dims[d].clone());
    let reps = match &repeats {
        Value::Tensor(t) => {
            match t.shape.dims() {
                Some([]) => {}
                Some([k]) => {
                    if let (Dim::Known(k), Dim::Known(n)) = (k, &n) {
                        ctx.require_with(
                            Pred::Or(vec![
                                Pred::Eq(k.clone(), DimExpr::one()),
                                Pred::Eq(k.clone(), n.clone()),
                            ]),
                            |cx| {
                                format!(
                                    "{}: repeats must have the same size as input along dim, but got repeats.size(0) = {k} and input.size(0) = {n}",
                                    cx.op
                                )
                            },
                        )?;
                    }
                }
                Some(_) => {
                    return invalid(format!("{}: repeats must be 0-dim or 1-dim tensor", ctx.op))
                }
                None => return unsupported(format!("{}: repeats of unknown rank", ctx.op)),
            }
            let Some(r) = t.uniform else {
                return data_dependent(ctx, dims, along);
            };
            DimExpr::constant(r)
        }
        v => super::int_of(&ctx.op, "repeats", v)?,
    };
    ctx.require_with(Pred::Le(DimExpr::zero(), reps.clone()), |c| {
        format!("{}: repeats can not be negative", c.op)
    })?;
    let grown = n.map(|e| e.mul(&reps));
    Ok(repeated(dims, along, grown, dtype))
}

/// The result of `repeat_interleave`: `dims` with `along` grown to `grown`, or the
/// flattened input grown (no dim).
fn repeated(dims: Vec<Dim>, along: Option<usize>, grown: Dim, dtype: Option<DType>) -> Value {
    match along {
        None => tensor_out(vec![grown], dtype),
        Some(d) => {
            let mut out = dims;
            out[d] = grown;
            tensor_out(out, dtype)
        }
    }
}

/// `x.to(dtype)`, `x.to(device)`, `x.to(other)`: same shape; the dtype may change. A
/// positional argument or `dtype=` that is not known may be a dtype or a tensor
/// (`m.to(x.dtype)`, `x.to(y)`): the result's dtype is then unknown, not `x`'s.
fn to(ctx: &mut Ctx) -> RuleResult {
    let t = ctx.tensor(0, "self")?;
    const DEVICES: &[&str] = &[
        "cpu",
        "cuda",
        "ipu",
        "xpu",
        "mkldnn",
        "opengl",
        "opencl",
        "ideep",
        "hip",
        "ve",
        "fpga",
        "maia",
        "xla",
        "lazy",
        "vulkan",
        "mps",
        "meta",
        "hpu",
        "mtia",
        "privateuseone",
    ];
    if let Some(Value::Str(Some(device))) = ctx.arg(1, "device") {
        let kind = device.split(':').next().unwrap_or("");
        if !DEVICES.contains(&kind) {
            return invalid(format!("{}: Expected one of cpu, cuda, ... device type at start of device string: {device}", ctx.op));
        }
    }
    let dtype_kw = ctx
        .kwargs
        .iter()
        .filter(|(k, _)| k == "dtype" || k == "other")
        .map(|(_, v)| v);
    let mut said = ctx
        .args
        .iter()
        .skip(1)
        .chain(dtype_kw)
        .filter_map(|v| match v {
            Value::DType(d) => Some(Some(*d)),
            Value::Tensor(o) => Some(o.dtype),
            // Devices (`"cuda"`, a device index) and flags (`non_blocking`, `copy`).
            Value::Str(_) | Value::Int(_) | Value::IntUnknown | Value::None | Value::Bool(_) => {
                None
            }
            _ => Some(None),
        });
    let dtype = match said.next() {
        Some(d) => d,
        None => t.dtype,
    };
    Ok(Value::Tensor(t.converted(dtype)))
}

/// `x.type_as(other)`: same shape, `other`'s dtype.
fn type_as(ctx: &mut Ctx) -> RuleResult {
    let t = ctx.tensor(0, "self")?;
    let other = ctx.tensor(1, "other")?;
    Ok(Value::Tensor(t.converted(other.dtype)))
}

/// `x.type(dtype)`: same shape; `x.type()` without argument returns the type name (a str).
fn type_(ctx: &mut Ctx) -> RuleResult {
    let t = ctx.tensor(0, "self")?;
    match ctx.arg(1, "dtype") {
        None => Ok(Value::Str(None)),
        Some(Value::DType(d)) => Ok(Value::tensor(t.shape, Some(*d))),
        Some(Value::Str(Some(s))) => Ok(Value::tensor(
            t.shape,
            DType::parse(s.rsplit('.').next().unwrap_or(s)),
        )),
        Some(_) => Ok(Value::tensor(t.shape, None)),
    }
}

#[cfg(test)]
mod tests {
    /// `mask.to(x.dtype)`: `x.dtype` is not known, so the mask's bool dtype must not
    /// survive (kornia's deformable convolution: a false alarm with imports followed).
    /// Verified under torch 2.15: `torch.long` raises "Input type (long int) and bias type
    /// (float) should be the same", `x.dtype` runs.
    #[test]
    fn to_an_unknown_dtype_forgets_the_old_one() {
        let src = r#"
import torch
import torch.nn as nn

x = torch.randn(2, 4, 8, 8)
mask = (x > 0).to(DTYPE)
y = nn.Conv2d(4, 4, 3)(mask)
"#;
        crate::testing::assert_twins(src, "DTYPE", "torch.long", "x.dtype", 7);
    }
}
