//! Operator rules: indexing. `x[idx]` and `x[idx] = v` on tensors (basic and advanced
//! indexing), `size[i]` on `torch.Size`, and the index functions (`index_select`, `gather`,
//! `scatter`, `take_along_dim`, `index_add`, `narrow`, ...). (See `catalogue/mod.rs` for the
//! conventions.)

use super::common::{clamp_slice_bound, require_values_within};
use super::invalid_as;
use super::{int_of, invalid, tensor_out, unsupported, Ctx, Rule, RuleError, RuleResult};
use crate::shapes::dim::DimExpr;
use crate::shapes::kind::{Declared, FindingKind};
use crate::shapes::requirement::Pred;
use crate::shapes::shape::{broadcast, Dim, Shape};
use crate::shapes::value::{DType, TensorValue, Value};

/// What this family's failures are, unless a rule or a check declares otherwise.
pub const KIND: FindingKind = FindingKind::ShapeMismatch;

pub const RULES: &[Rule] = &[
    Rule::function("operator.getitem", getitem),
    Rule::function("operator.setitem", setitem),
    Rule::function("torch.index_select", index_select),
    Rule::function("torch.Tensor.index_select", index_select),
    Rule::function("torch.gather", gather),
    Rule::function("torch.Tensor.gather", gather),
    Rule::function("torch.scatter", scatter),
    Rule::function("torch.Tensor.scatter", scatter),
    Rule::function("torch.Tensor.scatter_", scatter),
    Rule::function("torch.scatter_add", scatter),
    Rule::function("torch.Tensor.scatter_add", scatter),
    Rule::function("torch.Tensor.scatter_add_", scatter),
    Rule::function("torch.scatter_reduce", scatter),
    Rule::function("torch.Tensor.scatter_reduce", scatter),
    Rule::function("torch.take_along_dim", take_along_dim),
    Rule::function("torch.Tensor.take_along_dim", take_along_dim),
    Rule::function("torch.index_add", index_add),
    Rule::function("torch.Tensor.index_add", index_add),
    Rule::function("torch.Tensor.index_add_", index_add),
    Rule::function("torch.index_copy", index_add),
    Rule::function("torch.Tensor.index_copy", index_add),
    Rule::function("torch.Tensor.index_copy_", index_add),
    Rule::function("torch.index_fill", index_fill),
    Rule::function("torch.Tensor.index_fill", index_fill),
    Rule::function("torch.Tensor.index_fill_", index_fill),
    Rule::function("torch.narrow", narrow),
    Rule::function("torch.Tensor.narrow", narrow),
];

fn shape_str(dims: &[Dim]) -> String {
    Shape::Ranked(dims.to_vec()).to_string()
}

/// A check on an index tensor (its rank, its size, a mask's shape): what PyTorch raises as an
/// `IndexError`, unless the operator has a kind of its own.
const INDEX: Declared = Declared::Generic(FindingKind::IndexOutOfBounds);

/// Applies broadcasting requirements with a message of our own.
fn broadcast_with(ctx: &mut Ctx, a: &[Dim], b: &[Dim], msg: &str) -> Result<Vec<Dim>, RuleError> {
    let mut reqs = Vec::new();
    let out = broadcast(
        &Shape::Ranked(a.to_vec()),
        &Shape::Ranked(b.to_vec()),
        "",
        &mut reqs,
    );
    for r in reqs {
        ctx.require_kind(r.kind, r.pred, msg.to_string())?;
    }
    Ok(out.dims().map(<[Dim]>::to_vec).unwrap_or_default())
}

/// A value slice bound: `None`, or an int (possibly symbolic).
fn slice_part(ctx: &Ctx, v: &Value, what: &str) -> Result<Option<DimExpr>, RuleError> {
    match v {
        Value::None => Ok(None),
        Value::Tensor(t) if t.shape.rank() == Some(0) => match held_int(t) {
            Some(i) => Ok(Some(i)),
            None => unsupported(format!("{}: slice {what} is a tensor value", ctx.op)),
        },
        other => int_of(&ctx.op, what, other).map(Some),
    }
}

/// The value a 0-d integer tensor holds, when known: its largest element is its only one
/// (`i` drawn from `randint` rows, `i + n`), as Python's `__index__` reads it.
fn held_int(t: &TensorValue) -> Option<DimExpr> {
    (t.dtype == Some(DType::Int))
        .then(|| t.top.clone())
        .flatten()
}

/// A slice bound whose value is not known: an unknown int, or a 0-d integer tensor
/// (`data[i : i + n]` for `i` drawn from `randint`).
fn unknown_bound(v: &Value) -> bool {
    match v {
        Value::Tensor(t) => {
            t.shape.rank() == Some(0) && t.dtype == Some(DType::Int) && held_int(t).is_none()
        }
        other => other.is_unknown_int(),
    }
}

/// The length of `start:stop:step` over `n` elements for a positive step:
/// `max(0, ceil((stop - start) / step))` after clamping.
fn slice_len(
    n: &DimExpr,
    start: Option<&DimExpr>,
    stop: Option<&DimExpr>,
    step: &DimExpr,
) -> DimExpr {
    let lo = start.map_or_else(DimExpr::zero, |s| clamp_slice_bound(s, n));
    let hi = stop.map_or_else(|| n.clone(), |s| clamp_slice_bound(s, n));
    let span = hi.sub(&lo).maximum(&DimExpr::zero());
    span.add(step).add_const(-1).floordiv(step)
}

/// The step of a tensor slice: 1 by default, never zero ("slice step cannot be zero") and,
/// for tensors, positive ("step must be greater than zero").
fn slice_step(ctx: &mut Ctx, step: &Value) -> Result<DimExpr, RuleError> {
    let step = slice_part(ctx, step, "step")?.unwrap_or_else(DimExpr::one);
    if step.as_const() == Some(0) {
        return invalid(format!("{}: slice step cannot be zero", ctx.op));
    }
    let op = ctx.op.clone();
    ctx.require_with(Pred::Lt(DimExpr::zero(), step.clone()), |_| {
        format!("{op}: step must be greater than zero (got {step})")
    })?;
    Ok(step)
}

/// `size[i]` and `size[a:b:c]` on a `torch.Size` (a tuple): an int gives the element (out of
/// range → "tuple index out of range"), a slice gives a `torch.Size` (Python slicing, any
/// non-zero step); anything else is a TypeError.
fn size_getitem(ctx: &Ctx, dims: &[Dim], idx: &Value) -> RuleResult {
    let n = dims.len() as i64;
    match idx {
        Value::Int(_) | Value::Bool(Some(_)) => {
            let i = int_of(&ctx.op, "index", idx)?;
            let Some(i) = i.as_const() else {
                return unsupported(format!("{}: symbolic index {i} into a torch.Size", ctx.op));
            };
            let j = if i < 0 { i + n } else { i };
            if !(0..n).contains(&j) {
                return invalid_as(INDEX, format!("{}: tuple index out of range", ctx.op));
            }
            Ok(match &dims[j as usize] {
                Dim::Known(e) => Value::Int(e.clone()),
                Dim::Dyn => Value::IntUnknown,
            })
        }
        Value::Slice(a, b, c) => {
            let part = |v: &Value, what: &str| -> Result<Option<i64>, RuleError> {
                match slice_part(ctx, v, what)? {
                    None => Ok(None),
                    Some(e) => e.as_const().map(Some).ok_or_else(|| {
                        RuleError::Unsupported(format!(
                            "{}: symbolic slice of a torch.Size",
                            ctx.op
                        ))
                    }),
                }
            };
            let step = part(c, "step")?.unwrap_or(1);
            if step == 0 {
                return invalid(format!("{}: slice step cannot be zero", ctx.op));
            }
            let bound = |v: Option<i64>, default: i64| -> i64 {
                match v {
                    None => default,
                    Some(i) if i < 0 => (i + n).max(if step < 0 { -1 } else { 0 }),
                    Some(i) => i.min(if step < 0 { n - 1 } else { n }),
                }
            };
            let (start, stop) = if step > 0 {
                (bound(part(a, "start")?, 0), bound(part(b, "stop")?, n))
            } else {
                (bound(part(a, "start")?, n - 1), bound(part(b, "stop")?, -1))
            };
            let mut out = Vec::new();
            let mut i = start;
            while (step > 0 && i < stop) || (step < 0 && i > stop) {
                out.push(dims[i as usize].clone());
                i += step;
            }
            Ok(Value::Size(out))
        }
        // A 0-d integer tensor indexes through `__index__`: its value, when known.
        Value::Tensor(t) if t.shape.rank() == Some(0) && t.dtype == Some(DType::Int) => {
            match t.uniform {
                Some(v) => size_getitem(ctx, dims, &Value::Int(DimExpr::constant(v))),
                None => Ok(Value::IntUnknown),
            }
        }
        Value::Unknown | Value::IntUnknown => {
            unsupported(format!("{}: unknown index into a torch.Size", ctx.op))
        }
        other => invalid(format!(
            "{}: tuple indices must be integers or slices, not {other}",
            ctx.op
        )),
    }
}

/// One index item, classified.
enum Item {
    /// An int (`None`: one whose value is not known, `values[t + 1]` in a loop).
    Int(Option<DimExpr>),
    Slice(Box<Value>, Box<Value>, Box<Value>),
    /// `None` (size 1), `True` (size 1) or `False` (size 0): a new dim.
    NewDim(i64),
    Ellipsis,
    /// An index tensor (int dtype): consumes one dim, contributes its shape; the values when
    /// known (a Python list), or the tensor itself (its content may be known uniform).
    Indices(Vec<Dim>, Vec<DimExpr>, Option<TensorValue>),
    /// A bool mask of the given dims: consumes that many dims, contributes one dim (the count
    /// of True values: known for a Python list or a uniform tensor, else data-dependent).
    Mask(Vec<Dim>, Dim),
}

/// The shape of a nested list of ints/bools used as an index, whether it is all bools, and
/// its leaves (ints and bools as 0/1) in order.
fn list_shape(ctx: &Ctx, items: &[Value]) -> Result<(Vec<Dim>, bool, Vec<DimExpr>), RuleError> {
    let mut inner: Option<(Vec<Dim>, bool)> = None;
    let mut leaves = Vec::new();
    for v in items {
        let here = match v {
            Value::Int(e) => {
                leaves.push(e.clone());
                (Vec::new(), false)
            }
            Value::Bool(Some(b)) => {
                leaves.push(DimExpr::constant(*b as i64));
                (Vec::new(), true)
            }
            Value::List(xs) | Value::Tuple(xs) => {
                let (d, b, l) = list_shape(ctx, xs)?;
                leaves.extend(l);
                (d, b)
            }
            Value::Str(_) => return invalid(format!("{}: new(): invalid data type 'str'", ctx.op)),
            _ => return unsupported(format!("{}: unmodelled list index element {v}", ctx.op)),
        };
        match &inner {
            None => inner = Some(here),
            Some((d, _)) if d.len() != here.0.len() => {
                return invalid(format!("{}: ragged nested sequence as an index", ctx.op))
            }
            Some(_) => {}
        }
    }
    let (mut dims, is_bool) = inner.unwrap_or((Vec::new(), false));
    dims.insert(0, Dim::constant(items.len() as i64));
    Ok((dims, is_bool && !items.is_empty(), leaves))
}

/// An index tensor as an item: bool masks and integer indices; other dtypes raise
/// ("tensors used as indices must be long, int, byte or bool tensors").
fn tensor_item(ctx: &mut Ctx, t: &TensorValue) -> Result<Item, RuleError> {
    let Some(dims) = t.shape.dims() else {
        return unsupported(format!("{}: index tensor of unknown rank", ctx.op));
    };
    match t.dtype {
        Some(DType::Bool) => {
            let dims = dims.to_vec();
            let count = super::data_dependent::nonzero_count(ctx, t, &dims, "selected");
            Ok(Item::Mask(dims, count))
        }
        Some(DType::Int) => Ok(Item::Indices(dims.to_vec(), Vec::new(), Some(t.clone()))),
        Some(_) => invalid(format!(
            "{}: tensors used as indices must be long, int, byte or bool tensors",
            ctx.op
        )),
        None => unsupported(format!("{}: index tensor of unknown dtype", ctx.op)),
    }
}

fn classify(ctx: &mut Ctx, v: &Value) -> Result<Item, RuleError> {
    Ok(match v {
        Value::Int(e) => Item::Int(Some(e.clone())),
        Value::IntUnknown => Item::Int(None),
        Value::Bool(Some(b)) => Item::NewDim(*b as i64),
        Value::None => Item::NewDim(1),
        Value::Ellipsis => Item::Ellipsis,
        Value::Slice(a, b, c) => Item::Slice(a.clone(), b.clone(), c.clone()),
        Value::Tensor(t) => tensor_item(ctx, t)?,
        Value::List(xs) | Value::Tuple(xs) => match list_shape(ctx, xs)? {
            (d, true, leaves) => {
                let count = leaves.iter().filter(|l| l.as_const() == Some(1)).count();
                Item::Mask(d, Dim::constant(count as i64))
            }
            (d, false, leaves) => Item::Indices(d, leaves, None),
        },
        Value::Float(_) => {
            return invalid(format!(
                "{}: only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid indices (got float)",
                ctx.op
            ))
        }
        Value::Str(_) => return invalid(format!("{}: new(): invalid data type 'str'", ctx.op)),
        other => return unsupported(format!("{}: unmodelled index {other}", ctx.op)),
    })
}

/// The items of an index: a tuple is several items; a list holding tensors, slices,
/// `None`, `...` or sequences is one too (the legacy NumPy rule); anything else is one item.
fn index_items(ctx: &mut Ctx, idx: &Value) -> Result<Vec<Item>, RuleError> {
    let several = match idx {
        Value::Tuple(xs) => Some(xs),
        Value::List(xs)
            if xs.iter().any(|x| {
                matches!(
                    x,
                    Value::Tensor(_)
                        | Value::Slice(..)
                        | Value::None
                        | Value::Ellipsis
                        | Value::List(_)
                        | Value::Tuple(_)
                )
            }) =>
        {
            Some(xs)
        }
        _ => None,
    };
    match several {
        Some(xs) => xs.iter().map(|x| classify(ctx, x)).collect(),
        None => Ok(vec![classify(ctx, idx)?]),
    }
}

/// An int index `i` into a dim of size `n`: `-n <= i < n` ("index i is out of bounds for
/// dimension d with size n").
fn require_in_bounds(ctx: &mut Ctx, i: &DimExpr, n: &Dim, d: usize) -> Result<(), RuleError> {
    if let Dim::Known(n) = n {
        let msg = format!(
            "{}: index {i} is out of bounds for dimension {d} with size {n}",
            ctx.op
        );
        let kind = Declared::Specific(FindingKind::IndexOutOfBounds);
        ctx.require_as(kind, Pred::Le(n.neg(), i.clone()), msg.clone())?;
        ctx.require_as(kind, Pred::Lt(i.clone(), n.clone()), msg)?;
    }
    Ok(())
}

/// One output position: a plain dim, or the place of an advanced index.
enum Slot {
    Basic(Dim),
    Advanced,
}

/// The shape of `x[idx]`, following PyTorch: ints select (bounds-checked: "index i is out of
/// bounds for dimension d with size n"), slices keep a clamped length, `None`/`True` add a
/// dim of 1, one `...` stands for the dims not otherwise indexed, bool masks must match the
/// dims they cover ("The shape of the mask [..] at index i does not match ...") and give one
/// data-dependent dim, integer index tensors broadcast together ("shape mismatch: indexing
/// tensors could not be broadcast together"). Adjacent advanced indices put their broadcast
/// shape in place; separated ones put it first. More indices than dims raise ("too many
/// indices for tensor of dimension n").
fn indexed_shape(ctx: &mut Ctx, dims: &[Dim], idx: &Value) -> Result<Vec<Dim>, RuleError> {
    let items = index_items(ctx, idx)?;
    let rank = dims.len();
    let consumed: usize = items
        .iter()
        .map(|it| match it {
            Item::Int(_) | Item::Slice(..) | Item::Indices(..) => 1,
            Item::Mask(m, _) => m.len(),
            Item::NewDim(_) | Item::Ellipsis => 0,
        })
        .sum();
    if consumed > rank {
        if rank == 0 {
            if let Some(Item::Slice(..)) = items.first() {
                return invalid(format!(
                    "{}: slice() cannot be applied to a 0-dim tensor.",
                    ctx.op
                ));
            }
        }
        return invalid(format!(
            "{}: too many indices for tensor of dimension {rank}",
            ctx.op
        ));
    }
    let op = ctx.op.clone();
    let mut slots = Vec::new();
    let mut adv_shapes: Vec<Vec<Dim>> = Vec::new();
    let mut d = 0usize;
    let mut ellipsis_seen = false;
    for it in items {
        match it {
            Item::Int(i) => {
                if let Some(i) = i {
                    require_in_bounds(ctx, &i, &dims[d], d)?;
                }
                d += 1;
            }
            Item::Slice(a, b, c) if [&a, &b, &c].into_iter().any(|v| unknown_bound(v)) => {
                // `img[:, top:top + side]` with a random `top`: that dim's size is unknown,
                // the rest of the shape is not.
                slots.push(Slot::Basic(Dim::Dyn));
                d += 1;
            }
            Item::Slice(a, b, c) => {
                let step = slice_step(ctx, &c)?;
                let start = slice_part(ctx, &a, "start")?;
                let stop = slice_part(ctx, &b, "stop")?;
                slots.push(Slot::Basic(
                    dims[d].map(|n| slice_len(n, start.as_ref(), stop.as_ref(), &step)),
                ));
                d += 1;
            }
            Item::NewDim(k) => slots.push(Slot::Basic(Dim::constant(k))),
            Item::Ellipsis => {
                // PyTorch accepts several ellipses; only the first one spans dims.
                let span = if ellipsis_seen { 0 } else { rank - consumed };
                ellipsis_seen = true;
                slots.extend(dims[d..d + span].iter().cloned().map(Slot::Basic));
                d += span;
            }
            Item::Indices(shape, values, source) => {
                for v in &values {
                    require_in_bounds(ctx, v, &dims[d], d)?;
                }
                if let (Some(t), Dim::Known(n)) = (&source, &dims[d]) {
                    require_values_within(ctx, t, (&n.neg(), n), None, |cx, v| {
                        format!(
                            "{}: index {v} is out of bounds for dimension {d} with size {n}",
                            cx.op
                        )
                    })?;
                }
                if let (Dim::Known(n), Dim::Known(count)) = (&dims[d], Dim::product(&shape)) {
                    ctx.require_with_as(
                        Declared::Specific(FindingKind::IndexOutOfBounds),
                        Pred::Or(vec![
                            Pred::Lt(DimExpr::zero(), n.clone()),
                            Pred::Eq(count, DimExpr::zero()),
                        ]),
                        |_| format!("{op}: index is out of bounds for dimension with size {n}"),
                    )?;
                }
                adv_shapes.push(shape);
                slots.push(Slot::Advanced);
                d += 1;
            }
            Item::Mask(mask, count) => {
                for (j, m) in mask.iter().enumerate() {
                    ctx.require_eq_as(
                        INDEX,
                        m,
                        &dims[d + j],
                        format!(
                            "{op}: The shape of the mask {} at index {j} does not match the shape of the indexed tensor {} at index {}",
                            shape_str(&mask),
                            shape_str(dims),
                            d + j
                        ),
                    )?;
                }
                adv_shapes.push(vec![count]);
                slots.push(Slot::Advanced);
                d += mask.len();
            }
        }
    }
    slots.extend(dims[d..].iter().cloned().map(Slot::Basic));
    let Some(first) = adv_shapes.first().cloned() else {
        return Ok(slots
            .into_iter()
            .filter_map(|s| match s {
                Slot::Basic(d) => Some(d),
                Slot::Advanced => None,
            })
            .collect());
    };
    let mut joint = first;
    for s in &adv_shapes[1..] {
        let msg = format!(
            "{op}: shape mismatch: indexing tensors could not be broadcast together with shapes {}, {}",
            shape_str(&joint),
            shape_str(s)
        );
        joint = broadcast_with(ctx, &joint, s, &msg)?;
    }
    let positions: Vec<usize> = slots
        .iter()
        .enumerate()
        .filter(|(_, s)| matches!(s, Slot::Advanced))
        .map(|(i, _)| i)
        .collect();
    let adjacent = positions.windows(2).all(|w| w[1] == w[0] + 1);
    let basics = |slots: &[Slot]| -> Vec<Dim> {
        slots
            .iter()
            .filter_map(|s| match s {
                Slot::Basic(d) => Some(d.clone()),
                Slot::Advanced => None,
            })
            .collect()
    };
    if adjacent {
        let at = positions[0];
        let mut out = basics(&slots[..at]);
        out.extend(joint);
        out.extend(basics(&slots[at..]));
        Ok(out)
    } else {
        let mut out = joint;
        out.extend(basics(&slots));
        Ok(out)
    }
}

/// `x[idx]`: on a tensor, see [`indexed_shape`] (a 0-d tensor takes no int: "invalid index of
/// a 0-dim tensor"); on a `torch.Size`, see [`size_getitem`].
fn getitem(ctx: &mut Ctx) -> RuleResult {
    let idx = ctx
        .arg(1, "index")
        .cloned()
        .ok_or_else(|| RuleError::invalid(format!("{}: missing index", ctx.op)))?;
    if let Some(Value::Size(dims)) = ctx.arg(0, "self") {
        let dims = dims.clone();
        return size_getitem(ctx, &dims, &idx);
    }
    let (dims, dtype) = ctx.ranked(0, "self")?;
    if dims.is_empty() && matches!(idx, Value::Int(_)) {
        return invalid_as(INDEX, format!(
            "{}: invalid index of a 0-dim tensor. Use `tensor.item()` to convert a 0-dim tensor to a number",
            ctx.op
        ));
    }
    let out = indexed_shape(ctx, &dims, &idx)?;
    Ok(tensor_out(out, dtype))
}

/// Requires `value` to broadcast *to* `target` (expand semantics: right-aligned, each value
/// dim 1 or equal, extra leading value dims 1).
fn require_expands(
    ctx: &mut Ctx,
    value: &[Dim],
    target: &[Dim],
    msg: &str,
) -> Result<(), RuleError> {
    let extra = value.len().saturating_sub(target.len());
    for v in &value[..extra] {
        if let Dim::Known(e) = v {
            let one = Pred::Eq(e.clone(), DimExpr::one());
            ctx.require_as(Declared::BROADCAST, one, msg.to_string())?;
        }
    }
    for (v, t) in value[extra..].iter().rev().zip(target.iter().rev()) {
        if let (Dim::Known(v), Dim::Known(t)) = (v, t) {
            ctx.require_as(
                Declared::BROADCAST,
                Pred::Or(vec![
                    Pred::Eq(v.clone(), DimExpr::one()),
                    Pred::Eq(v.clone(), t.clone()),
                ]),
                msg.to_string(),
            )?;
        }
    }
    Ok(())
}

/// `x[idx] = value`: the indexed shape as for `x[idx]`; a tensor value must broadcast to it
/// ("shape mismatch: value tensor of shape [..] cannot be broadcast to indexing result of
/// shape [..]"). The result is `None`.
fn setitem(ctx: &mut Ctx) -> RuleResult {
    let (dims, _) = ctx.ranked(0, "self")?;
    let idx = ctx
        .arg(1, "index")
        .cloned()
        .ok_or_else(|| RuleError::invalid(format!("{}: missing index", ctx.op)))?;
    let target = indexed_shape(ctx, &dims, &idx)?;
    if let Some(Value::Tensor(v)) = ctx.arg(2, "value").cloned() {
        if let Some(vd) = v.shape.dims() {
            let msg = format!(
                "{}: shape mismatch: value tensor of shape {} cannot be broadcast to indexing result of shape {}",
                ctx.op,
                shape_str(vd),
                shape_str(&target)
            );
            require_expands(ctx, vd, &target, &msg)?;
        }
    }
    Ok(Value::None)
}

/// An index tensor argument of an index function: integer dtype required ("Expected dtype
/// int32/int64 for index").
fn index_arg(ctx: &Ctx, pos: usize, name: &str) -> Result<Vec<Dim>, RuleError> {
    let t = ctx.tensor(pos, name)?;
    if t.dtype.is_some_and(|d| d != DType::Int) {
        return invalid(format!("{}: Expected dtype int32/int64 for {name}", ctx.op));
    }
    t.shape
        .dims()
        .map(<[Dim]>::to_vec)
        .ok_or_else(|| RuleError::Unsupported(format!("{}: rank of `{name}` is unknown", ctx.op)))
}

/// The input and its normalised `dim` (argument 1) for the `(input, dim, index, ...)` family.
fn input_and_dim(ctx: &Ctx) -> Result<(Vec<Dim>, Option<DType>, usize), RuleError> {
    let (dims, dtype) = ctx.ranked(0, "input")?;
    let Some(dim) = ctx.const_int(1, "dim")? else {
        return invalid(format!("{}: missing argument `dim`", ctx.op));
    };
    let d = ctx.dim_index(dim, dims.len(), 0)?;
    Ok((dims, dtype, d))
}

/// A vector index (`index_select`, `index_add`, ...): at most 1-D ("Index is supposed to be a
/// vector"); its length.
fn vector_index(ctx: &mut Ctx, pos: usize) -> Result<Dim, RuleError> {
    // An index the analysis does not know (`src, dst = edge_index`): a vector whose
    // length only the data decides.
    let unknown = |v: &Value| match v {
        Value::Unknown => true,
        Value::Tensor(t) => t.shape.dims().is_none() && t.dtype != Some(DType::Bool),
        _ => false,
    };
    if ctx.arg(pos, "index").is_some_and(unknown) {
        return Ok(Dim::Known(ctx.fresh("selected", None)));
    }
    let index = index_arg(ctx, pos, "index")?;
    if index.len() > 1 {
        return invalid_as(
            INDEX,
            format!("{}: Index is supposed to be a vector", ctx.op),
        );
    }
    Ok(Dim::product(&index))
}

/// Index values known (see `TensorValue::int_extremes`) must lie in `[0, n)` for a
/// dim of size `n` ("index 9 is out of bounds for dimension 1 with size 4").
fn require_stored_indices(ctx: &mut Ctx, pos: usize, n: &Dim, d: usize) -> Result<(), RuleError> {
    if let (Some(Value::Tensor(t)), Dim::Known(n)) = (ctx.arg(pos, "index").cloned(), n) {
        require_values_within(ctx, &t, (&DimExpr::zero(), n), None, |cx, v| {
            format!(
                "{}: index {v} is out of bounds for dimension {d} with size {n}",
                cx.op
            )
        })?;
    }
    Ok(())
}

/// `torch.index_select(x, dim, index)`: `index` is a vector of ints; the output replaces
/// `dim` by its length; selecting a non-empty index from an empty dim raises ("self indexing
/// axis dim should be positive"). A 0-d input stays 0-d.
fn index_select(ctx: &mut Ctx) -> RuleResult {
    let (mut dims, dtype, d) = input_and_dim(ctx)?;
    let len = vector_index(ctx, 2)?;
    if dims.is_empty() {
        return Ok(tensor_out(dims, dtype));
    }
    require_stored_indices(ctx, 2, &dims[d], d)?;
    if let (Dim::Known(n), Dim::Known(k)) = (&dims[d], &len) {
        let op = ctx.op.clone();
        ctx.require_with_as(
            INDEX,
            Pred::Or(vec![
                Pred::Lt(DimExpr::zero(), n.clone()),
                Pred::Eq(k.clone(), DimExpr::zero()),
            ]),
            |_| format!("{op}: index_select(): self indexing axis dim should be positive"),
        )?;
    }
    dims[d] = len;
    Ok(tensor_out(dims, dtype))
}

/// Requires `index` no larger than `of` at every dim except `skip` (gather/scatter).
fn require_no_larger(
    ctx: &mut Ctx,
    index: &[Dim],
    of: &[Dim],
    skip: Option<usize>,
    what: &str,
) -> Result<(), RuleError> {
    for (j, (i, s)) in index.iter().zip(of).enumerate() {
        if Some(j) == skip {
            continue;
        }
        if let (Dim::Known(i), Dim::Known(s)) = (i, s) {
            let msg = format!(
                "{}: Size does not match at dimension {j} expected index {} to be no larger than {what} {} apart from dimension {}",
                ctx.op,
                shape_str(index),
                shape_str(of),
                skip.map_or("-".to_string(), |d| d.to_string())
            );
            ctx.require_as(INDEX, Pred::Le(i.clone(), s.clone()), msg)?;
        }
    }
    Ok(())
}

/// `torch.gather(x, dim, index)`: `index` has the rank of `x` ("Index tensor must have the
/// same number of dimensions as input tensor") and is no larger outside `dim`; the output has
/// `index`'s shape.
fn gather(ctx: &mut Ctx) -> RuleResult {
    let (dims, dtype, d) = input_and_dim(ctx)?;
    let index = index_arg(ctx, 2, "index")?;
    if index.len() != dims.len() && !(index.len() <= 1 && dims.len() <= 1) {
        return invalid_as(
            INDEX,
            format!(
                "{}: Index tensor must have the same number of dimensions as input tensor",
                ctx.op
            ),
        );
    }
    require_no_larger(ctx, &index, &dims, Some(d), "self")?;
    if let Some(n) = dims.get(d) {
        require_stored_indices(ctx, 2, n, d)?;
    }
    Ok(tensor_out(index, dtype))
}

/// `torch.scatter(x, dim, index, src | value)` / `scatter_add` / `scatter_reduce` / in-place:
/// `index` has the rank of `x` ("Index tensor must have the same number of dimensions as self
/// tensor"), is no larger than `x` outside `dim` and no larger than `src` anywhere; the output
/// has `x`'s shape. `reduce` must name a known reduction.
fn scatter(ctx: &mut Ctx) -> RuleResult {
    let (dims, dtype, d) = input_and_dim(ctx)?;
    let reduce = if ctx.op.ends_with("scatter_reduce") {
        ctx.arg(4, "reduce")
    } else {
        ctx.kwarg("reduce")
    };
    if let Some(Value::Str(Some(r))) = reduce {
        let allowed: &[&str] = if ctx.op.ends_with("scatter_reduce") {
            &["sum", "prod", "mean", "amax", "amin"]
        } else {
            &["add", "multiply"]
        };
        if !allowed.contains(&r.as_str()) {
            return invalid(format!(
                "{}: reduce argument must be one of {allowed:?}, got {r}",
                ctx.op
            ));
        }
    }
    let index = index_arg(ctx, 2, "index")?;
    if index.len() != dims.len() && !(index.len() <= 1 && dims.len() <= 1) {
        return invalid_as(
            INDEX,
            format!(
                "{}: Index tensor must have the same number of dimensions as self tensor",
                ctx.op
            ),
        );
    }
    require_no_larger(ctx, &index, &dims, Some(d), "self")?;
    if let Some(Value::Tensor(src)) = ctx.arg(3, "src").cloned() {
        if let Some(sd) = src.shape.dims() {
            if sd.len() != index.len() && !(index.len() <= 1 && sd.len() <= 1) {
                return invalid_as(
                    INDEX,
                    format!(
                        "{}: Index tensor must have the same number of dimensions as src tensor",
                        ctx.op
                    ),
                );
            }
            require_no_larger(ctx, &index, sd, None, "src")?;
        }
    }
    Ok(tensor_out(dims, dtype))
}

/// `torch.take_along_dim(x, indices, dim=None)`: without `dim`, indexes the flattened input
/// (output `[indices.numel()]`); with `dim`, same rank ("input and indices should have the
/// same number of dimensions"), the other dims broadcast and `dim` takes `indices`' size.
fn take_along_dim(ctx: &mut Ctx) -> RuleResult {
    let (dims, dtype) = ctx.ranked(0, "input")?;
    let index = index_arg(ctx, 1, "indices")?;
    let Some(dim) = ctx.const_int(2, "dim")? else {
        return Ok(tensor_out(vec![Dim::product(&index)], dtype));
    };
    let d = ctx.dim_index(dim, dims.len(), 0)?;
    if index.len() != dims.len() {
        return invalid(format!(
            "{}: torch.take_along_dim(): input and indices should have the same number of dimensions, but got {} dimensions for input, and {} dimensions for indices",
            ctx.op,
            dims.len(),
            index.len()
        ));
    }
    let (mut a, mut b) = (dims.clone(), index.clone());
    a[d] = Dim::constant(1);
    b[d] = Dim::constant(1);
    let msg = format!(
        "{}: input {} and indices {} do not broadcast outside dim {d}",
        ctx.op,
        shape_str(&dims),
        shape_str(&index)
    );
    let mut out = broadcast_with(ctx, &a, &b, &msg)?;
    out[d] = index[d].clone();
    Ok(tensor_out(out, dtype))
}

/// `x.index_add(dim, index, source)` / `index_copy`: a vector index; `source` has `x`'s shape
/// except at `dim`, where it has the index's length ("source tensor shape must match self
/// tensor shape, excluding the specified dimension"); the output has `x`'s shape.
fn index_add(ctx: &mut Ctx) -> RuleResult {
    let (dims, dtype, d) = input_and_dim(ctx)?;
    // The source is checked before the index is read: its mismatch with `self` raises
    // whatever the index holds (an index that is not a vector raises too).
    let (source, _) = ctx.ranked(3, "source")?;
    let msg = format!(
        "{}: source tensor shape must match self tensor shape, excluding the specified dimension. Got self.shape = {} source.shape = {}",
        ctx.op,
        shape_str(&dims),
        shape_str(&source)
    );
    if source.len() != dims.len() && !(source.len() <= 1 && dims.len() <= 1) {
        return invalid(msg);
    }
    let len = vector_index(ctx, 2)?;
    for (j, (a, b)) in dims.iter().zip(&source).enumerate() {
        if j == d {
            ctx.require_eq(
                b,
                &len,
                format!("{}: index and source sizes differ at dim {d}", ctx.op),
            )?;
        } else {
            ctx.require_eq(a, b, msg.clone())?;
        }
    }
    Ok(tensor_out(dims, dtype))
}

/// `x.index_fill(dim, index, value)`: a vector index; the output has `x`'s shape.
fn index_fill(ctx: &mut Ctx) -> RuleResult {
    let (dims, dtype, _) = input_and_dim(ctx)?;
    vector_index(ctx, 2)?;
    Ok(tensor_out(dims, dtype))
}

/// `torch.narrow(x, dim, start, length)`: not on 0-d tensors; `length >= 0` ("narrow():
/// length must be non-negative."); `-size <= start <= size` ("start out of range"), a
/// negative start counts from the end; `start + length <= size` ("start (s) + length (l)
/// exceeds dimension size (n)."). `dim` gets size `length`. A 0-d tensor `start` is a
/// data-dependent value.
fn narrow(ctx: &mut Ctx) -> RuleResult {
    let (mut dims, dtype) = ctx.ranked(0, "input")?;
    if dims.is_empty() {
        return invalid(format!(
            "{}: narrow() cannot be applied to a 0-dim tensor.",
            ctx.op
        ));
    }
    let Some(dim) = ctx.const_int(1, "dim")? else {
        return invalid(format!("{}: missing argument `dim`", ctx.op));
    };
    let d = ctx.dim_index(dim, dims.len(), 0)?;
    let start = match ctx.arg(2, "start") {
        Some(Value::Tensor(_)) => None,
        _ => ctx.opt_int(2, "start")?,
    };
    let Some(length) = ctx.opt_int(3, "length")? else {
        return invalid(format!("{}: missing argument `length`", ctx.op));
    };
    let op = ctx.op.clone();
    ctx.require_with(Pred::Le(DimExpr::zero(), length.clone()), |_| {
        format!("{op}: narrow(): length must be non-negative.")
    })?;
    if let (Dim::Known(n), Some(s)) = (dims[d].clone(), start) {
        let range = format!(
            "{op}: start out of range (expected to be in range of [-{n}, {n}], but got {s})"
        );
        ctx.require(Pred::Le(n.neg(), s.clone()), range.clone())?;
        ctx.require(Pred::Le(s.clone(), n.clone()), range)?;
        let s0 = match s.as_const() {
            Some(c) if c < 0 => s.add(&n),
            _ => s,
        };
        ctx.require_with(Pred::Le(s0.add(&length), n.clone()), |_| {
            format!("{op}: start ({s0}) + length ({length}) exceeds dimension size ({n}).")
        })?;
    }
    dims[d] = Dim::Known(length);
    Ok(tensor_out(dims, dtype))
}

#[cfg(test)]
mod tests {
    use crate::testing::assert_twins;

    /// `[:, :, :-gap]` after padding by `gap = k - (k // 2 + n % k) % k`: the bound is below
    /// 0 for every length, so it counts from the end and takes the padding off again.
    /// Taken as a non-negative stop, it left nothing, and the convolution failed for
    /// every input.
    #[test]
    fn a_stop_negative_for_every_size_counts_from_the_end() {
        let src = r#"
import torch
import torch.nn as nn

class Chunks(nn.Module):
    def __init__(self, k=250):
        super().__init__()
        self.k = k
        self.conv = nn.Conv1d(4, 4, 1)

    def forward(self, x):
        gap = self.k - (self.k // 2 + x.shape[2] % self.k) % self.k
        pad = torch.zeros(x.shape[0], 4, gap)
        y = torch.cat([x, pad], dim=2)[:, :, :-gap]
        return self.conv(y[:, CH])
"#;
        assert_twins(src, "CH", ":3", ":4", 15);
    }
}
