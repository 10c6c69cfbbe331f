//! Operator rules: products (matrix products, contractions, linear layers). `einsum` has its
//! own file. (See `catalogue/mod.rs` for the conventions.)

use super::common::*;
use super::invalid_as;
use super::{invalid, tensor_out, unsupported, Ctx, Rule, RuleError, RuleResult};
use crate::shapes::dim::DimExpr;
use crate::shapes::kind::{Declared, FindingKind};
use crate::shapes::shape::Dim;
use crate::shapes::value::{DType, Value};

/// What this family's failures are, unless a rule or a check declares otherwise.
pub const KIND: FindingKind = FindingKind::MatmulMismatch;

pub const RULES: &[Rule] = &[
    Rule::function("torch.matmul", matmul),
    Rule::function("torch.Tensor.matmul", matmul),
    Rule::function("operator.matmul", matmul),
    Rule::function("operator.imatmul", matmul),
    Rule::function("torch.mm", mm),
    Rule::function("torch.Tensor.mm", mm),
    Rule::function("torch.bmm", bmm),
    Rule::function("torch.Tensor.bmm", bmm),
    Rule::function("torch.baddbmm", baddbmm),
    Rule::function("torch.Tensor.baddbmm", baddbmm),
    Rule::function("torch.addmm", addmm),
    Rule::function("torch.Tensor.addmm", addmm),
    Rule::function("torch.addmv", addmv).finding(FindingKind::ShapeMismatch),
    Rule::function("torch.Tensor.addmv", addmv).finding(FindingKind::ShapeMismatch),
    Rule::function("torch.mv", mv),
    Rule::function("torch.Tensor.mv", mv),
    Rule::function("torch.dot", dot),
    Rule::function("torch.Tensor.dot", dot),
    Rule::function("torch.vdot", dot).finding(FindingKind::ShapeMismatch),
    Rule::function("torch.Tensor.vdot", dot).finding(FindingKind::ShapeMismatch),
    Rule::function("torch.inner", inner).finding(FindingKind::ShapeMismatch),
    Rule::function("torch.Tensor.inner", inner).finding(FindingKind::ShapeMismatch),
    Rule::function("torch.outer", outer).finding(FindingKind::ShapeMismatch),
    Rule::function("torch.Tensor.outer", outer).finding(FindingKind::ShapeMismatch),
    Rule::function("torch.ger", outer).finding(FindingKind::ShapeMismatch),
    Rule::function("torch.Tensor.ger", outer).finding(FindingKind::ShapeMismatch),
    Rule::function("torch.kron", kron).finding(FindingKind::ShapeMismatch),
    Rule::function("torch.Tensor.kron", kron).finding(FindingKind::ShapeMismatch),
    Rule::function("torch.tensordot", tensordot).finding(FindingKind::ShapeMismatch),
    Rule::function("torch.cdist", cdist).finding(FindingKind::ShapeMismatch),
    Rule::function("torch.nn.functional.linear", linear).finding(FindingKind::FeatureMismatch),
    Rule::module("torch.nn.Linear", linear_init, linear_forward)
        .finding(FindingKind::FeatureMismatch),
    Rule::function("torch.nn.functional.bilinear", bilinear).finding(FindingKind::FeatureMismatch),
    Rule::module("torch.nn.Bilinear", bilinear_init, bilinear_forward)
        .finding(FindingKind::FeatureMismatch),
];

// ---------------------------------------------------------------------------------------
// Shared helpers
// ---------------------------------------------------------------------------------------

/// The common core of `@`: `a [..., n, k] @ b [..., k, p]` with 1-D operands promoted
/// (a vector on the left gains a leading 1, on the right a trailing 1, removed again) and the
/// batch dims broadcast.
fn matmul_dims(ctx: &mut Ctx, a: &[Dim], b: &[Dim], who: &str) -> Result<Vec<Dim>, RuleError> {
    if a.is_empty() || b.is_empty() {
        return invalid(format!(
            "{}: both arguments to {who} need to be at least 1D, but they are {}D and {}D",
            ctx.op,
            a.len(),
            b.len()
        ));
    }
    let k_a = &a[a.len() - 1];
    let k_b = if b.len() == 1 { &b[0] } else { &b[b.len() - 2] };
    let msg = format!(
        "{}: mat1 and mat2 shapes cannot be multiplied ({} and {})",
        ctx.op,
        show(a),
        show(b)
    );
    ctx.require_eq(k_a, k_b, msg)?;
    let batch_a = &a[..a.len().saturating_sub(2)];
    let batch_b = &b[..b.len().saturating_sub(2)];
    let mut out = broadcast_dims(ctx, batch_a, batch_b)?;
    if a.len() >= 2 {
        out.push(a[a.len() - 2].clone());
    }
    if b.len() >= 2 {
        out.push(b[b.len() - 1].clone());
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------
// Matrix products
// ---------------------------------------------------------------------------------------

/// `torch.matmul(a, b)` / `a @ b` / `a @= b`: both at least 1-D ("both arguments to matmul
/// need to be at least 1D"); 1-D·1-D is a dot product (0-d, sizes equal); 2-D·1-D a
/// matrix-vector product; a 1-D left operand is treated as `[1, k]` and a 1-D right operand
/// as `[k, 1]`, the added dim removed from the result; batch dims (all but the last two)
/// broadcast. Inner dims must be equal ("mat1 and mat2 shapes cannot be multiplied"). No
/// dtype promotion; bool is not implemented.
fn matmul(ctx: &mut Ctx) -> RuleResult {
    let (a, da) = ctx.ranked(0, "input")?;
    let (b, db) = match ctx.arg(1, "other") {
        Some(Value::Tensor(_)) | Some(Value::Unknown) | None => ctx.ranked(1, "other")?,
        Some(other) => {
            return invalid(format!(
                "{}: argument 'other' must be Tensor, not {other}",
                ctx.op
            ))
        }
    };
    require_same_dtype(ctx, da, db, "m1 and m2")?;
    if da == Some(DType::Bool) {
        return invalid(format!("{}: matmul is not implemented for Bool", ctx.op));
    }
    let out = matmul_dims(ctx, &a, &b, "matmul")?;
    Ok(tensor_out(out, da.or(db)))
}

/// Checks an operand is a matrix (`mm`, `addmm`: "self must be a matrix, got 1-D tensor").
fn require_rank(ctx: &Ctx, dims: &[Dim], rank: usize, name: &str) -> Result<(), RuleError> {
    if dims.len() != rank {
        return invalid(format!(
            "{}: {name} must be a {rank}-D tensor, got {}-D tensor",
            ctx.op,
            dims.len()
        ));
    }
    Ok(())
}

/// `[n, k] x [k, p] -> [n, p]`, both operands exactly 2-D.
fn mm_dims(ctx: &mut Ctx, a: &[Dim], b: &[Dim]) -> Result<Vec<Dim>, RuleError> {
    require_rank(ctx, a, 2, "mat1")?;
    require_rank(ctx, b, 2, "mat2")?;
    let msg = format!(
        "{}: mat1 and mat2 shapes cannot be multiplied ({} and {})",
        ctx.op,
        show(a),
        show(b)
    );
    ctx.require_eq(&a[1], &b[0], msg)?;
    Ok(vec![a[0].clone(), b[1].clone()])
}

/// `[b, n, k] x [b, k, p] -> [b, n, p]`: exactly 3-D, batch dims equal (no broadcasting:
/// "Expected size for first two dimensions of batch2 tensor to be: [b, k]").
fn bmm_dims(ctx: &mut Ctx, a: &[Dim], b: &[Dim]) -> Result<Vec<Dim>, RuleError> {
    require_rank(ctx, a, 3, "batch1")?;
    require_rank(ctx, b, 3, "batch2")?;
    let msg = format!(
        "{}: Expected size for first two dimensions of batch2 tensor to be: [{}, {}] but got: [{}, {}]",
        ctx.op, a[0], a[2], b[0], b[1]
    );
    ctx.require_eq(&a[0], &b[0], msg.clone())?;
    ctx.require_eq(&a[2], &b[1], msg)?;
    Ok(vec![a[0].clone(), a[1].clone(), b[2].clone()])
}

/// `torch.mm(a, b)`: both exactly 2-D ("self must be a matrix"), `a[1] == b[0]`.
fn mm(ctx: &mut Ctx) -> RuleResult {
    let (a, da) = ctx.ranked(0, "input")?;
    let (b, db) = ctx.ranked(1, "mat2")?;
    require_same_dtype(ctx, da, db, "self and mat2")?;
    let out = mm_dims(ctx, &a, &b)?;
    Ok(tensor_out(out, da))
}

/// `torch.bmm(a, b)`: both exactly 3-D, equal batch, `a[2] == b[1]`.
fn bmm(ctx: &mut Ctx) -> RuleResult {
    let (a, da) = ctx.ranked(0, "input")?;
    let (b, db) = ctx.ranked(1, "mat2")?;
    require_same_dtype(ctx, da, db, "batch1 and batch2")?;
    let out = bmm_dims(ctx, &a, &b)?;
    Ok(tensor_out(out, da))
}

/// `torch.baddbmm(input, b1, b2)`: `bmm(b1, b2)` plus `input`, which must expand to the
/// product's shape `[b, n, p]`.
fn baddbmm(ctx: &mut Ctx) -> RuleResult {
    let (input, dt) = ctx.ranked(0, "input")?;
    let (a, _) = ctx.ranked(1, "batch1")?;
    let (b, _) = ctx.ranked(2, "batch2")?;
    let out = bmm_dims(ctx, &a, &b)?;
    require_expands(ctx, &input, &out, "input")?;
    Ok(tensor_out(out, dt))
}

/// `torch.addmm(input, m1, m2)`: `mm(m1, m2)` plus `input`, which must expand to `[n, p]`.
fn addmm(ctx: &mut Ctx) -> RuleResult {
    let (input, dt) = ctx.ranked(0, "input")?;
    let (a, _) = ctx.ranked(1, "mat1")?;
    let (b, _) = ctx.ranked(2, "mat2")?;
    let out = mm_dims(ctx, &a, &b)?;
    require_expands(ctx, &input, &out, "input")?;
    Ok(tensor_out(out, dt))
}

/// `[n, m] x [m] -> [n]` ("vector + matrix @ vector expected"; "size mismatch").
fn mv_dims(ctx: &mut Ctx, mat: &[Dim], vec: &[Dim]) -> Result<Vec<Dim>, RuleError> {
    if mat.len() != 2 || vec.len() != 1 {
        return invalid(format!(
            "{}: vector + matrix @ vector expected, got {}, {}",
            ctx.op,
            mat.len(),
            vec.len()
        ));
    }
    let msg = format!(
        "{}: size mismatch, got mat ({}x{}), vec ({})",
        ctx.op, mat[0], mat[1], vec[0]
    );
    ctx.require_eq(&mat[1], &vec[0], msg)?;
    Ok(vec![mat[0].clone()])
}

/// `torch.mv(mat, vec)`: `[n, m] x [m] -> [n]`.
fn mv(ctx: &mut Ctx) -> RuleResult {
    let (mat, dt) = ctx.ranked(0, "input")?;
    let (vec, _) = ctx.ranked(1, "vec")?;
    let out = mv_dims(ctx, &mat, &vec)?;
    Ok(tensor_out(out, dt))
}

/// `torch.addmv(input, mat, vec)`: `mv(mat, vec)` plus `input`, which must expand to `[n]`.
fn addmv(ctx: &mut Ctx) -> RuleResult {
    let (input, dt) = ctx.ranked(0, "input")?;
    let (mat, _) = ctx.ranked(1, "mat")?;
    let (vec, _) = ctx.ranked(2, "vec")?;
    let out = mv_dims(ctx, &mat, &vec)?;
    require_expands(ctx, &input, &out, "input")?;
    Ok(tensor_out(out, dt))
}

/// `torch.dot(a, b)` / `torch.vdot`: both 1-D ("1D tensors expected"), equal sizes
/// ("inconsistent tensor size"), same dtype; 0-d result.
fn dot(ctx: &mut Ctx) -> RuleResult {
    let (a, da) = ctx.ranked(0, "input")?;
    let (b, db) = ctx.ranked(1, "other")?;
    if a.len() != 1 || b.len() != 1 {
        return invalid(format!(
            "{}: 1D tensors expected, but got {}D and {}D tensors",
            ctx.op,
            a.len(),
            b.len()
        ));
    }
    require_same_dtype(ctx, da, db, "both vectors")?;
    let msg = format!(
        "{}: inconsistent tensor size, expected tensor [{}] and src [{}] to have the same number of elements",
        ctx.op, a[0], b[0]
    );
    ctx.require_eq(&a[0], &b[0], msg)?;
    Ok(tensor_out(Vec::new(), da))
}

/// `torch.inner(a, b)`: a 0-d operand multiplies elementwise; otherwise the last dims must
/// match and the result is `a[:-1] + b[:-1]`.
fn inner(ctx: &mut Ctx) -> RuleResult {
    let (a, da) = ctx.ranked(0, "input")?;
    let (b, _) = ctx.ranked(1, "other")?;
    if a.is_empty() || b.is_empty() {
        let out = broadcast_dims(ctx, &a, &b)?;
        return Ok(tensor_out(out, da));
    }
    let msg = format!(
        "{}: inner() the last dimension must match on both input tensors but got shapes {} and {}",
        ctx.op,
        show(&a),
        show(&b)
    );
    ctx.require_eq(&a[a.len() - 1], &b[b.len() - 1], msg)?;
    let mut out = a[..a.len() - 1].to_vec();
    out.extend_from_slice(&b[..b.len() - 1]);
    Ok(tensor_out(out, da))
}

/// `torch.outer(a, b)` / `torch.ger`: both 1-D ("Expected 1-D argument"); `[n] x [m] ->
/// [n, m]`.
fn outer(ctx: &mut Ctx) -> RuleResult {
    let (a, da) = ctx.ranked(0, "input")?;
    let (b, _) = ctx.ranked(1, "vec2")?;
    for (dims, name) in [(&a, "self"), (&b, "vec2")] {
        if dims.len() != 1 {
            return invalid(format!(
                "{}: outer: Expected 1-D argument {name}, but got {}-D",
                ctx.op,
                dims.len()
            ));
        }
    }
    Ok(tensor_out(vec![a[0].clone(), b[0].clone()], da))
}

/// `torch.kron(a, b)`: the shorter shape is padded with leading 1s; each result dim is the
/// product of the two.
fn kron(ctx: &mut Ctx) -> RuleResult {
    let (a, da) = ctx.ranked(0, "input")?;
    let (b, _) = ctx.ranked(1, "other")?;
    let n = a.len().max(b.len());
    let pad = |d: &[Dim]| {
        let mut v = vec![Dim::constant(1); n - d.len()];
        v.extend_from_slice(d);
        v
    };
    let (a, b) = (pad(&a), pad(&b));
    let out = a
        .iter()
        .zip(&b)
        .map(|(x, y)| x.zip(y, DimExpr::mul))
        .collect();
    Ok(tensor_out(out, da))
}

/// A dims-list argument of `tensordot` (an int or a list of ints).
fn int_items(ctx: &Ctx, v: &Value) -> Result<Vec<i64>, RuleError> {
    let items = match v.elements() {
        Some(items) => items,
        None => vec![v.clone()],
    };
    items
        .iter()
        .map(|i| match super::int_of(&ctx.op, "dims", i)?.as_const() {
            Some(c) => Ok(c),
            None => unsupported(format!("{}: symbolic `dims`", ctx.op)),
        })
        .collect()
}

/// `torch.tensordot(a, b, dims=2)`: contracts the last `dims` dims of `a` with the first
/// `dims` of `b` (or the listed dims pairwise); contracted sizes must match; the result is
/// `a`'s free dims then `b`'s.
fn tensordot(ctx: &mut Ctx) -> RuleResult {
    let (a, da) = ctx.ranked(0, "a")?;
    let (b, _) = ctx.ranked(1, "b")?;
    let spec = ctx.arg(2, "dims").cloned().unwrap_or(Value::int(2));
    let (ia, ib): (Vec<i64>, Vec<i64>) = match &spec {
        Value::Int(_) => {
            let n = int_items(ctx, &spec)?[0];
            if n < 0 || n as usize > a.len() || n as usize > b.len() {
                return invalid_as(
                    Declared::Generic(FindingKind::RankMismatch),
                    format!("{}: invalid number of dims {n}", ctx.op),
                );
            }
            let ia = (a.len() as i64 - n..a.len() as i64).collect();
            (ia, (0..n).collect())
        }
        other => match other.elements().as_deref() {
            Some([x, y]) => (int_items(ctx, x)?, int_items(ctx, y)?),
            _ => return invalid(format!("{}: `dims` must be an int or two lists", ctx.op)),
        },
    };
    if ia.len() != ib.len() {
        return invalid(format!(
            "{}: both dimension lists should have same length",
            ctx.op
        ));
    }
    let mut ca = Vec::new();
    let mut cb = Vec::new();
    for (x, y) in ia.iter().zip(&ib) {
        let (x, y) = (
            ctx.dim_index(*x, a.len(), 0)?,
            ctx.dim_index(*y, b.len(), 0)?,
        );
        let msg = format!(
            "{}: contracted dimensions need to match, but first has size {} in dim {x} and second has size {} in dim {y}",
            ctx.op, a[x], b[y]
        );
        ctx.require_eq(&a[x], &b[y], msg)?;
        ca.push(x);
        cb.push(y);
    }
    let mut out: Vec<Dim> = (0..a.len())
        .filter(|i| !ca.contains(i))
        .map(|i| a[i].clone())
        .collect();
    out.extend(
        (0..b.len())
            .filter(|i| !cb.contains(i))
            .map(|i| b[i].clone()),
    );
    Ok(tensor_out(out, da))
}

/// `torch.cdist(x1 [..., P, M], x2 [..., R, M]) -> [..., P, R]`: at least 2-D, same number
/// of columns, batch dims broadcast.
fn cdist(ctx: &mut Ctx) -> RuleResult {
    let (a, da) = ctx.ranked(0, "x1")?;
    let (b, _) = ctx.ranked(1, "x2")?;
    for (d, name) in [(&a, "X1"), (&b, "X2")] {
        if d.len() < 2 {
            return invalid(format!(
                "{}: cdist only supports at least 2D tensors, {name} got: {}D",
                ctx.op,
                d.len()
            ));
        }
    }
    let msg = format!(
        "{}: X1 and X2 must have the same number of columns. X1: {} X2: {}",
        ctx.op,
        a[a.len() - 1],
        b[b.len() - 1]
    );
    ctx.require_eq(&a[a.len() - 1], &b[b.len() - 1], msg)?;
    let mut out = broadcast_dims(ctx, &a[..a.len() - 2], &b[..b.len() - 2])?;
    out.push(a[a.len() - 2].clone());
    out.push(b[b.len() - 2].clone());
    Ok(tensor_out(out, da))
}

// ---------------------------------------------------------------------------------------
// Linear layers
// ---------------------------------------------------------------------------------------

/// `F.linear(input, weight, bias=None)`: `weight` is `[out, in]` (or `[in]`, giving one dim
/// less); `input [..., in] -> [..., out]`, input at least 1-D ("both arguments to linear need
/// to be at least 1D"); weight at most 2-D. With a bias and a ≥2-D input PyTorch uses `addmm`
/// on the flattened input, so a 1-D weight is an error ("mat2 must be a matrix") and the bias
/// must expand to `[prod(batch), out]`; a 1-D input adds the bias by broadcasting. Input and
/// weight dtypes must agree.
fn linear(ctx: &mut Ctx) -> RuleResult {
    let (x, dx) = ctx.ranked(0, "input")?;
    let (w, dw) = ctx.ranked(1, "weight")?;
    let bias = opt_dims(ctx, 2, "bias")?;
    if x.is_empty() || w.is_empty() {
        return invalid(format!(
            "{}: both arguments to linear need to be at least 1D, but they are {}D and {}D",
            ctx.op,
            x.len(),
            w.len()
        ));
    }
    if w.len() > 2 {
        return invalid(format!(
            "{}: t() expects a tensor with <= 2 dimensions, but self is {}D",
            ctx.op,
            w.len()
        ));
    }
    require_same_dtype(ctx, dx, dw, "m1 and m2")?;
    if w.len() == 1 && bias.is_some() && x.len() >= 2 {
        return invalid(format!(
            "{}: addmm: mat2 must be a matrix, got 1-D tensor",
            ctx.op
        ));
    }
    let wt: Vec<Dim> = w.iter().rev().cloned().collect();
    let out = matmul_dims(ctx, &x, &wt, "linear")?;
    linear_bias(ctx, &x, out, bias.as_deref(), dx)
}

/// Adds a linear layer's bias to the product `out` of `input` (see [`linear`]).
fn linear_bias(
    ctx: &mut Ctx,
    x: &[Dim],
    out: Vec<Dim>,
    bias: Option<&[Dim]>,
    dtype: Option<DType>,
) -> RuleResult {
    let Some(bias) = bias else {
        return Ok(tensor_out(out, dtype));
    };
    if x.len() == 1 {
        let out = broadcast_dims(ctx, &out, bias)?;
        return Ok(tensor_out(out, dtype));
    }
    let rows = Dim::product(&x[..x.len() - 1]);
    let flat = vec![rows, out[out.len() - 1].clone()];
    require_expands(ctx, bias, &flat, "bias")?;
    Ok(tensor_out(out, dtype))
}

/// `nn.Linear(in_features, out_features, bias=True)`: sizes ≥ 0 ints.
fn linear_init(ctx: &mut Ctx) -> RuleResult {
    let i = maybe_size_hyper(ctx, 0, "in_features")?;
    let o = maybe_size_hyper(ctx, 1, "out_features")?;
    let bias = ctx.bool_or(2, "bias", true)?;
    Ok(module_value(
        "torch.nn.Linear",
        vec![
            ("in_features", size_value(i)),
            ("out_features", size_value(o)),
            ("bias", Value::Bool(Some(bias))),
        ],
    ))
}

/// `nn.Linear` forward: `input [..., in_features] -> [..., out_features]`, input at least
/// 1-D, floating (the weights are float32: "mat1 and mat2 must have the same dtype"). A
/// feature count the analysis does not know checks nothing and gives an unknown dim.
fn linear_forward(ctx: &mut Ctx) -> RuleResult {
    let (x, dx) = ctx.ranked(0, "input")?;
    let i = param_size(ctx, "in_features");
    let o = param_size(ctx, "out_features");
    if dx.is_some_and(|d| d != DType::Float) {
        return invalid(format!(
            "{}: mat1 and mat2 must have the same dtype, but got {dx:?} and Float",
            ctx.op
        ));
    }
    let out = matmul_dims(ctx, &x, &[i, o], "linear")?;
    Ok(tensor_out(out, dx))
}

/// The shared core of bilinear: `x1 [..., in1]`, `x2 [..., in2]` with identical batch dims,
/// weight `[out, in1, in2]`, optional bias `[out]` → `[..., out]`.
fn bilinear_dims(
    ctx: &mut Ctx,
    x1: &[Dim],
    x2: &[Dim],
    w: &[Dim],
    bias: Option<&[Dim]>,
) -> Result<Vec<Dim>, RuleError> {
    if x1.is_empty() || x2.is_empty() {
        return invalid(format!(
            "{}: Dimension specified as -1 but tensor has no dimensions",
            ctx.op
        ));
    }
    if x1.len() != x2.len() {
        return invalid(format!(
            "{}: bilinear(): input dimensions do not match: got {} and {}",
            ctx.op,
            x1.len(),
            x2.len()
        ));
    }
    for i in 0..x1.len() - 1 {
        let msg = format!(
            "{}: bilinear(): input batch dimensions do not match at dim {i}: got {} and {}",
            ctx.op, x1[i], x2[i]
        );
        ctx.require_eq(&x1[i], &x2[i], msg)?;
    }
    if w.len() != 3 {
        return invalid(format!(
            "{}: bilinear(): input1 size does not match weight size (weight must be 3-D, got {}-D)",
            ctx.op,
            w.len()
        ));
    }
    let (a, b) = (&x1[x1.len() - 1], &x2[x2.len() - 1]);
    let msg = format!(
        "{}: bilinear(): input1 size does not match weight size: got {a} but expected {}",
        ctx.op, w[1]
    );
    ctx.require_eq(a, &w[1], msg)?;
    let msg = format!(
        "{}: bilinear(): input2 size does not match weight size: got {b} but expected {}",
        ctx.op, w[2]
    );
    ctx.require_eq(b, &w[2], msg)?;
    if let Some(bias) = bias {
        let ok = bias.len() == 1;
        let msg = format!(
            "{}: bilinear(): bias size does not match weight size: got {} but expected {}",
            ctx.op,
            show(bias),
            w[0]
        );
        if !ok {
            return invalid(msg);
        }
        ctx.require_eq(&bias[0], &w[0], msg)?;
    }
    let mut out = x1[..x1.len() - 1].to_vec();
    out.push(w[0].clone());
    Ok(out)
}

/// `F.bilinear(x1, x2, weight, bias=None)`: `x1 [..., in1]`, `x2 [..., in2]` with equal batch
/// dims ("input batch dimensions do not match"), weight `[out, in1, in2]` ("input1 size does
/// not match weight size"), bias `[out]` → `[..., out]`.
fn bilinear(ctx: &mut Ctx) -> RuleResult {
    let (x1, dt) = ctx.ranked(0, "input1")?;
    let (x2, _) = ctx.ranked(1, "input2")?;
    let (w, _) = ctx.ranked(2, "weight")?;
    let bias = opt_dims(ctx, 3, "bias")?;
    let out = bilinear_dims(ctx, &x1, &x2, &w, bias.as_deref())?;
    Ok(tensor_out(out, dt))
}

/// `nn.Bilinear(in1_features, in2_features, out_features, bias=True)`.
fn bilinear_init(ctx: &mut Ctx) -> RuleResult {
    let a = size_hyper(ctx, 0, "in1_features", None)?;
    let b = size_hyper(ctx, 1, "in2_features", None)?;
    let o = size_hyper(ctx, 2, "out_features", None)?;
    let bias = ctx.bool_or(3, "bias", true)?;
    Ok(module_value(
        "torch.nn.Bilinear",
        vec![
            ("in1_features", Value::Int(a)),
            ("in2_features", Value::Int(b)),
            ("out_features", Value::Int(o)),
            ("bias", Value::Bool(Some(bias))),
        ],
    ))
}

/// `nn.Bilinear` forward `(input1, input2)`: as [`bilinear`] with the module's weight
/// `[out, in1, in2]`.
fn bilinear_forward(ctx: &mut Ctx) -> RuleResult {
    let (x1, dt) = ctx.ranked(0, "input1")?;
    let (x2, _) = ctx.ranked(1, "input2")?;
    let w = vec![
        Dim::Known(param_dim(ctx, "out_features")?),
        Dim::Known(param_dim(ctx, "in1_features")?),
        Dim::Known(param_dim(ctx, "in2_features")?),
    ];
    let out = bilinear_dims(ctx, &x1, &x2, &w, None)?;
    Ok(tensor_out(out, dt))
}
