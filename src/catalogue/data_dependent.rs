//! Operator rules: results whose size the data decides (how many elements are non-zero,
//! which values occur, the largest label). (See `catalogue/mod.rs` for the conventions.) The
//! size is exact when the content is known uniform; otherwise it is a fresh symbol
//! ([`Ctx::fresh`]) bounded by what the shapes and value ranges allow, so the rest of the
//! shape (rank, other dims, dtype) still flows on and is checked.

use super::common::opt_dims;
use super::{invalid, tensor_out, unsupported, Ctx, Rule, RuleError, RuleResult};
use crate::shapes::dim::DimExpr;
use crate::shapes::kind::FindingKind;
use crate::shapes::requirement::Pred;
use crate::shapes::shape::{broadcast, Dim, Shape};
use crate::shapes::value::{DType, TensorValue, Value};

/// What this family's failures are, unless a rule or a check declares otherwise.
pub const KIND: FindingKind = FindingKind::ShapeMismatch;

pub const RULES: &[Rule] = &[
    Rule::function("torch.nonzero", nonzero),
    Rule::function("torch.Tensor.nonzero", nonzero),
    Rule::function("torch.argwhere", argwhere),
    Rule::function("torch.Tensor.argwhere", argwhere),
    Rule::function("torch.masked_select", masked_select),
    Rule::function("torch.Tensor.masked_select", masked_select),
    Rule::function("torch.unique", unique),
    Rule::function("torch.Tensor.unique", unique),
    Rule::function("torch.unique_consecutive", unique_consecutive),
    Rule::function("torch.Tensor.unique_consecutive", unique_consecutive),
    Rule::function("torch.bincount", bincount),
    Rule::function("torch.Tensor.bincount", bincount),
];

/// How many elements of `t` (of dims `dims`) are non-zero: exact for known uniform
/// content, else a fresh count of at most its numel.
pub fn nonzero_count(ctx: &mut Ctx, t: &TensorValue, dims: &[Dim], hint: &str) -> Dim {
    let numel = Dim::product(dims);
    match t.uniform {
        Some(0) => Dim::constant(0),
        Some(_) => numel,
        None => Dim::Known(ctx.fresh(hint, Some(&numel))),
    }
}

/// `torch.nonzero(x, as_tuple=True)` and `torch.where(cond)`: one int64 index vector per
/// dim (one for a 0-d input), each as long as the count of non-zero elements.
pub fn nonzero_tuple(ctx: &mut Ctx, t: &TensorValue) -> RuleResult {
    let Some(dims) = t.shape.dims().map(<[Dim]>::to_vec) else {
        return unsupported(format!("{}: input of unknown rank", ctx.op));
    };
    let count = nonzero_count(ctx, t, &dims, "nonzero");
    let index = tensor_out(vec![count], Some(DType::Int));
    Ok(Value::Tuple(vec![index; dims.len().max(1)]))
}

/// `torch.nonzero(x, *, as_tuple=False)`: the int64 `[n, x.dim()]` coordinates of the
/// non-zero elements (`[n, 0]` for a 0-d input); `as_tuple=True` gives them per dim.
fn nonzero(ctx: &mut Ctx) -> RuleResult {
    let t = ctx.tensor(0, "input")?;
    if ctx.bool_or(usize::MAX, "as_tuple", false)? {
        return nonzero_tuple(ctx, &t);
    }
    coordinates(ctx, &t)
}

/// `torch.argwhere(x)`: `torch.nonzero(x)`.
fn argwhere(ctx: &mut Ctx) -> RuleResult {
    let t = ctx.tensor(0, "input")?;
    coordinates(ctx, &t)
}

fn coordinates(ctx: &mut Ctx, t: &TensorValue) -> RuleResult {
    let Some(dims) = t.shape.dims().map(<[Dim]>::to_vec) else {
        return unsupported(format!("{}: input of unknown rank", ctx.op));
    };
    let count = nonzero_count(ctx, t, &dims, "nonzero");
    Ok(tensor_out(
        vec![count, Dim::constant(dims.len() as i64)],
        Some(DType::Int),
    ))
}

/// `torch.masked_select(x, mask)`: the elements of `x` where the bool `mask` is true, as a
/// 1-D tensor; `x` and `mask` broadcast together ("masked_select: expected BoolTensor for
/// mask").
fn masked_select(ctx: &mut Ctx) -> RuleResult {
    let x = ctx.tensor(0, "input")?;
    let mask = ctx.tensor(1, "mask")?;
    if mask.dtype.is_some_and(|d| d != DType::Bool) {
        return invalid(format!(
            "{}: masked_select: expected BoolTensor for mask",
            ctx.op
        ));
    }
    let mut reqs = Vec::new();
    let shape = broadcast(&x.shape, &mask.shape, &ctx.op.clone(), &mut reqs);
    for r in reqs {
        ctx.impose(r)?;
    }
    let Some(dims) = shape.dims().map(<[Dim]>::to_vec) else {
        return unsupported(format!("{}: operands of unknown rank", ctx.op));
    };
    let count = nonzero_count(ctx, &mask, &dims, "selected");
    Ok(tensor_out(vec![count], x.dtype))
}

/// A flag of `unique`/`unique_consecutive`, positional at `pos` or by keyword.
fn flag(ctx: &Ctx, pos: usize, name: &str) -> Result<bool, RuleError> {
    ctx.bool_or(pos, name, false)
}

/// `torch.unique(x, sorted=True, return_inverse=False, return_counts=False, dim=None)`:
/// the distinct values of the flattened input (`[n]`), or the distinct slices along `dim`
/// (that dim becomes `n`); with `return_inverse`, int64 positions (the input's shape, or
/// `[x.size(dim)]`); with `return_counts`, an int64 count per distinct value (`[n]`). Known
/// values give the exact result (`elements.rs`).
fn unique(ctx: &mut Ctx) -> RuleResult {
    let (inverse, counts) = (
        flag(ctx, 2, "return_inverse")?,
        flag(ctx, 3, "return_counts")?,
    );
    distinct(ctx, 4, inverse, counts)
}

/// `torch.unique_consecutive(x, return_inverse=False, return_counts=False, dim=None)`: as
/// `unique`, with only consecutive repeats collapsed.
fn unique_consecutive(ctx: &mut Ctx) -> RuleResult {
    let (inverse, counts) = (
        flag(ctx, 1, "return_inverse")?,
        flag(ctx, 2, "return_counts")?,
    );
    distinct(ctx, 3, inverse, counts)
}

/// The result of `unique`/`unique_consecutive`, `dim` read at position `dim_pos`.
fn distinct(ctx: &mut Ctx, dim_pos: usize, inverse: bool, counts: bool) -> RuleResult {
    let t = ctx.tensor(0, "input")?;
    let Some(dims) = t.shape.dims().map(<[Dim]>::to_vec) else {
        return unsupported(format!("{}: input of unknown rank", ctx.op));
    };
    let along = match ctx.arg(dim_pos, "dim") {
        None | Some(Value::None) => None,
        Some(_) => {
            Some(ctx.dim_index(ctx.const_int(dim_pos, "dim")?.unwrap_or(0), dims.len(), 0)?)
        }
    };
    // How many slices (or elements) there are, and how many of them can be distinct: one
    // when the content is uniform.
    let total = along.map_or_else(|| Dim::product(&dims), |d| dims[d].clone());
    let n = match (t.uniform, &total) {
        (Some(_), Dim::Known(m)) => Dim::Known(m.minimum(&DimExpr::one())),
        _ => Dim::Known(ctx.fresh("distinct", Some(&total))),
    };
    let (values, positions) = match along {
        None => (vec![n.clone()], t.shape.clone()),
        Some(d) => {
            // An empty input can only be split along an empty dim.
            if let (Dim::Known(numel), Dim::Known(size)) = (Dim::product(&dims), &dims[d]) {
                let op = ctx.op.clone();
                ctx.require_with(
                    Pred::Or(vec![
                        Pred::Ne(numel, DimExpr::zero()),
                        Pred::Eq(size.clone(), DimExpr::zero()),
                    ]),
                    |_| format!("{op}: There are 0 sized dimensions, and they aren't selected, so unique cannot be applied"),
                )?;
            }
            let mut out = dims.clone();
            out[d] = n.clone();
            (out, Shape::Ranked(vec![dims[d].clone()]))
        }
    };
    let mut out = vec![tensor_out(values, t.dtype)];
    if inverse {
        out.push(Value::tensor(positions, Some(DType::Int)));
    }
    if counts {
        out.push(tensor_out(vec![n], Some(DType::Int)));
    }
    Ok(if out.len() == 1 {
        out.remove(0)
    } else {
        Value::Tuple(out)
    })
}

/// `torch.bincount(x, weights=None, minlength=0)`: `x` is a 1-D tensor of non-negative
/// ints ("bincount only supports 1-d non-negative integral inputs."); `weights`, when
/// given, has its length ("weights should be 1-d and have the same length as input"). The
/// result has `max(minlength, max(x) + 1)` bins (`minlength` for an empty `x`): exact for
/// known values, else a fresh length within the range the values are drawn from
/// (`torch.randint(0, 7, (n,))` gives at most 7 bins). Int64 counts, or the weights' dtype.
fn bincount(ctx: &mut Ctx) -> RuleResult {
    let t = ctx.tensor(0, "input")?;
    let Some(dims) = t.shape.dims().map(<[Dim]>::to_vec) else {
        return unsupported(format!("{}: input of unknown rank", ctx.op));
    };
    let unsupported_input = |ctx: &Ctx| {
        invalid(format!(
            "{}: bincount only supports 1-d non-negative integral inputs.",
            ctx.op
        ))
    };
    if dims.len() != 1 {
        return unsupported_input(ctx);
    }
    if t.dtype.is_some_and(|d| d != DType::Int && d != DType::Bool) {
        return invalid(format!(
            "{}: \"bincount_cpu\" not implemented for a floating input",
            ctx.op
        ));
    }
    let weights = opt_dims(ctx, 1, "weights")?;
    if let Some(w) = &weights {
        let same = w.len() == 1;
        if !same {
            return invalid(format!(
                "{}: weights should be 1-d and have the same length as input",
                ctx.op
            ));
        }
        let (op, n, m) = (ctx.op.clone(), dims[0].clone(), w[0].clone());
        ctx.require_eq(
            &n,
            &m,
            format!("{op}: weights should be 1-d and have the same length as input ({n} and {m})"),
        )?;
    }
    let minlength = ctx.int_or(2, "minlength", 0)?;
    let dtype = match ctx.arg(1, "weights").and_then(Value::as_tensor) {
        Some(w) => w.dtype,
        None => Some(DType::Int),
    };
    let len = &dims[0];
    let values = t
        .int_extremes(None)
        .map(|(lo, hi)| (lo as f64, hi as f64))
        .or_else(|| t.range().map(|b| (b.lo, b.hi)));
    let Some((lo, hi)) = values else {
        let bins = fresh_bins(ctx, &minlength, None);
        return Ok(tensor_out(vec![Dim::Known(bins)], dtype));
    };
    if lo < 0.0 && len.as_const() != Some(0) {
        if len.as_const().is_some() && t.int_extremes(None).is_some() {
            return unsupported_input(ctx);
        }
        return unsupported(format!("{}: input that may be negative", ctx.op));
    }
    let top = |v: f64| DimExpr::constant(v.floor() as i64 + 1).maximum(&minlength);
    let bins = if t.int_extremes(None).is_some() {
        // Known values: the largest one decides, unless the input is empty.
        match len {
            Dim::Known(n) if n.as_const() == Some(0) => minlength,
            Dim::Known(n) if n.as_const().is_some() => top(hi),
            _ => fresh_bins(ctx, &minlength, Some(top(hi))),
        }
    } else {
        // Drawn values: at most one bin past the largest possible value, at least the
        // smallest possible one's (when the input is not empty).
        let b = fresh_bins(ctx, &minlength, Some(top(hi)));
        if let Dim::Known(n) = len {
            ctx.assumptions.push(Pred::Or(vec![
                Pred::Eq(n.clone(), DimExpr::zero()),
                Pred::Le(top(lo), b.clone()),
            ]));
        }
        b
    };
    Ok(tensor_out(vec![Dim::Known(bins)], dtype))
}

/// A bin count only the data decides: at least `minlength`, at most `most` when known.
fn fresh_bins(ctx: &mut Ctx, minlength: &DimExpr, most: Option<DimExpr>) -> DimExpr {
    let most = most.map(Dim::Known);
    let bins = ctx.fresh("bins", most.as_ref());
    ctx.assumptions
        .push(Pred::Le(minlength.clone(), bins.clone()));
    bins
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::{apply, fresh_index, lookup, Outcome, RuleKind};

    fn run(op: &str, args: Vec<Value>, kwargs: Vec<(&str, Value)>) -> Result<Outcome, String> {
        let Some(RuleKind::Function(f)) = lookup(op).map(|r| r.kind) else {
            panic!("no rule {op}");
        };
        let kwargs = kwargs
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
        apply(f, op, args, kwargs, None).map_err(|e| format!("{e:?}"))
    }

    fn tensor(dims: &[Dim], dtype: DType) -> Value {
        Value::tensor(Shape::Ranked(dims.to_vec()), Some(dtype))
    }

    fn dims(v: &Value) -> Vec<Dim> {
        v.as_tensor().unwrap().shape.dims().unwrap().to_vec()
    }

    fn is_fresh(d: &Dim, i: usize) -> bool {
        matches!(d, Dim::Known(e) if e.symbols().iter().any(|s| fresh_index(s) == Some(i)))
    }

    #[test]
    fn nonzero_keeps_the_rank_and_bounds_the_count() {
        let x = tensor(&[Dim::sym("b"), Dim::constant(5)], DType::Bool);
        let out = run("torch.nonzero", vec![x.clone()], vec![]).unwrap();
        let d = dims(&out.value);
        assert!(is_fresh(&d[0], 0));
        assert_eq!(d[1], Dim::constant(2));
        assert_eq!(out.fresh, vec!["nonzero".to_string()]);
        assert_eq!(out.assumptions.len(), 1, "{:?}", out.assumptions);
        let tuple = run(
            "torch.nonzero",
            vec![x],
            vec![("as_tuple", Value::Bool(Some(true)))],
        )
        .unwrap()
        .value;
        let Value::Tuple(items) = tuple else { panic!() };
        assert_eq!(items.len(), 2);
    }

    #[test]
    fn unique_shares_its_count_between_values_and_counts() {
        let x = tensor(&[Dim::sym("n"), Dim::constant(3)], DType::Int);
        let kw = vec![
            ("return_counts", Value::Bool(Some(true))),
            ("dim", Value::int(0)),
        ];
        let Value::Tuple(items) = run("torch.unique", vec![x], kw).unwrap().value else {
            panic!()
        };
        let (values, counts) = (dims(&items[0]), dims(&items[1]));
        assert!(is_fresh(&values[0], 0));
        assert_eq!(values[1], Dim::constant(3));
        assert_eq!(counts, vec![values[0].clone()]);
    }

    #[test]
    fn bincount_of_drawn_labels_has_at_most_one_bin_per_possible_label() {
        let Value::Tensor(mut t) = Value::tensor(Shape::of(&[512]), Some(DType::Int)) else {
            panic!()
        };
        t.bounds = Some(Box::new(crate::shapes::bounds::Bounds::closed(0.0, 6.0)));
        let out = run("torch.bincount", vec![Value::Tensor(t)], vec![]).unwrap();
        let env = |bins: i64| {
            move |s: &str| match fresh_index(s) {
                Some(0) => Some(bins),
                _ => None,
            }
        };
        let holds = |bins: i64| {
            out.assumptions
                .iter()
                .all(|p| p.eval(&env(bins)) == Some(true))
        };
        assert!(holds(7) && holds(1));
        assert!(!holds(8) && !holds(0));
    }

    #[test]
    fn bincount_rejects_matrices_and_mismatched_weights() {
        let m = tensor(&[Dim::constant(2), Dim::constant(3)], DType::Int);
        assert!(run("torch.bincount", vec![m], vec![])
            .unwrap_err()
            .contains("1-d"));
        let x = tensor(&[Dim::constant(4)], DType::Int);
        let w = tensor(&[Dim::constant(3)], DType::Float);
        assert!(run("torch.bincount", vec![x, w], vec![])
            .unwrap_err()
            .contains("same length"));
    }

    #[test]
    fn masked_select_needs_a_bool_mask_that_broadcasts() {
        let x = tensor(&[Dim::constant(3), Dim::constant(4)], DType::Float);
        let bad = tensor(&[Dim::constant(5)], DType::Bool);
        assert!(run("torch.masked_select", vec![x.clone(), bad], vec![]).is_err());
        let float = tensor(&[Dim::constant(4)], DType::Float);
        assert!(run("torch.masked_select", vec![x.clone(), float], vec![]).is_err());
        let ok = tensor(&[Dim::constant(4)], DType::Bool);
        let d = dims(
            &run("torch.masked_select", vec![x, ok], vec![])
                .unwrap()
                .value,
        );
        assert_eq!(d.len(), 1);
    }
}

#[cfg(test)]
mod program_tests {
    use crate::testing::assert_twins;

    /// Class weights counted with `bincount` over labels drawn below 7 have at most 7
    /// entries, whatever the draw: a 10-class loss rejects them.
    #[test]
    fn bincount_length_is_bounded_by_the_label_range() {
        let src = r#"
import torch
import torch.nn as nn

y = torch.randint(0, HIGH, (512,))
counts = torch.bincount(y)
weights = counts.sum() / counts.float().clamp(min=1)
criterion = nn.CrossEntropyLoss(weight=weights)
criterion(torch.randn(512, 10), y)
"#;
        assert_twins(src, "HIGH", "7", "10", 9);
    }

    /// Rows picked by a mask keep their width: a layer of another width fails, whatever
    /// the count.
    #[test]
    fn masked_rows_keep_their_other_dims() {
        let src = r#"
import torch
import torch.nn as nn

x = torch.randn(4, 10, 64)
keep = torch.rand(4, 10) > 0.5
rows = x[keep]
idx = torch.nonzero(keep)
pairs = torch.unique(idx[:, 0], return_counts=True)
nn.Linear(WIDTH, 8)(rows) + pairs[1].sum()
"#;
        assert_twins(src, "WIDTH", "32", "64", 10);
    }
}
