//! Operator rules: matrix decompositions and functions of `torch.linalg` (and their older
//! `torch.*` names) on batches of matrices `[..., m, n]`. (See `catalogue/mod.rs` for the
//! conventions.) Every one needs at least 2 dims; the square ones need `m == n`.

use super::{invalid, tensor_out, Ctx, Rule, RuleError, RuleResult};
use crate::shapes::kind::FindingKind;
use crate::shapes::shape::Dim;
use crate::shapes::value::{DType, Value};

/// What this family's failures are, unless a rule or a check declares otherwise.
pub const KIND: FindingKind = FindingKind::ShapeMismatch;

pub const RULES: &[Rule] = &[
    Rule::function("torch.linalg.svd", linalg_svd),
    Rule::function("torch.svd", torch_svd),
    Rule::function("torch.Tensor.svd", torch_svd),
    Rule::function("torch.linalg.svdvals", svdvals),
    Rule::function("torch.linalg.qr", qr),
    Rule::function("torch.linalg.eigh", eigen),
    Rule::function("torch.linalg.eigvalsh", eigen),
    Rule::function("torch.linalg.eig", eigen),
    Rule::function("torch.linalg.eigvals", eigen),
    Rule::function("torch.linalg.inv", inv),
    Rule::function("torch.inverse", inv),
    Rule::function("torch.Tensor.inverse", inv),
    Rule::function("torch.linalg.cholesky", inv),
    Rule::function("torch.linalg.matrix_exp", inv),
    Rule::function("torch.linalg.det", det),
    Rule::function("torch.det", det),
    Rule::function("torch.Tensor.det", det),
    Rule::function("torch.linalg.slogdet", slogdet),
    Rule::function("torch.linalg.pinv", pinv),
    Rule::function("torch.pinverse", pinv),
    Rule::function("torch.Tensor.pinverse", pinv),
    Rule::function("torch.linalg.matrix_rank", matrix_rank),
];

/// The input as `(batch, m, n, dtype)`; fewer than 2 dims raise ("linalg.svd: The input
/// tensor A must have at least 2 dimensions.").
fn matrices(ctx: &Ctx, what: &str) -> Result<(Vec<Dim>, Dim, Dim, Option<DType>), RuleError> {
    let (a, dt) = ctx.ranked(0, "A")?;
    if a.len() < 2 {
        return invalid(format!(
            "{}: linalg.{what}: The input tensor A must have at least 2 dimensions.",
            ctx.op
        ));
    }
    let r = a.len();
    Ok((a[..r - 2].to_vec(), a[r - 2].clone(), a[r - 1].clone(), dt))
}

/// A batch of square matrices: `m == n` ("linalg.inv: A must be batches of square matrices,
/// but they are 5 by 3 matrices"). Returns `(batch, n, dtype)`.
fn square(ctx: &mut Ctx, what: &str) -> Result<(Vec<Dim>, Dim, Option<DType>), RuleError> {
    let (batch, m, n, dt) = matrices(ctx, what)?;
    let msg = format!(
        "{}: linalg.{what}: A must be batches of square matrices, but they are {m} by {n} matrices",
        ctx.op
    );
    ctx.require_eq(&m, &n, msg)?;
    Ok((batch, n, dt))
}

fn with(batch: &[Dim], tail: &[&Dim]) -> Vec<Dim> {
    batch.iter().chain(tail.iter().copied()).cloned().collect()
}

/// `min(m, n)`, unknown when either is.
fn least(m: &Dim, n: &Dim) -> Dim {
    match (m, n) {
        (Dim::Known(a), Dim::Known(b)) => Dim::Known(a.minimum(b)),
        _ => Dim::Dyn,
    }
}

/// The SVD factors for `full` (square U and V) or reduced (k = min(m, n) columns).
fn svd_factors(ctx: &Ctx, full: bool, transposed_v: bool) -> RuleResult {
    let (batch, m, n, dt) = matrices(ctx, "svd")?;
    let k = least(&m, &n);
    let (u_cols, v_rows) = if full { (&m, &n) } else { (&k, &k) };
    let u = tensor_out(with(&batch, &[&m, u_cols]), dt);
    let s = tensor_out(with(&batch, &[&k]), dt);
    let v = if transposed_v {
        tensor_out(with(&batch, &[v_rows, &n]), dt)
    } else {
        tensor_out(with(&batch, &[&n, v_rows]), dt)
    };
    Ok(Value::Tuple(vec![u, s, v]))
}

/// `torch.linalg.svd(A, full_matrices=True)` → `(U [..., m, m], S [..., k], Vh [..., n,
/// n])`, or with `full_matrices=False` `(U [..., m, k], S, Vh [..., k, n])`, k = min(m, n).
fn linalg_svd(ctx: &mut Ctx) -> RuleResult {
    let full = ctx.bool_or(1, "full_matrices", true)?;
    svd_factors(ctx, full, true)
}

/// `torch.svd(A, some=True)` → `(U [..., m, k], S [..., k], V [..., n, k])` (V, not its
/// transpose); `some=False` gives square U and V. Fewer than 2 dims raise.
fn torch_svd(ctx: &mut Ctx) -> RuleResult {
    let some = ctx.bool_or(1, "some", true)?;
    svd_factors(ctx, !some, false)
}

/// `torch.linalg.svdvals(A)` → `[..., min(m, n)]`.
fn svdvals(ctx: &mut Ctx) -> RuleResult {
    let (batch, m, n, dt) = matrices(ctx, "svd")?;
    Ok(tensor_out(with(&batch, &[&least(&m, &n)]), dt))
}

/// `torch.linalg.qr(A, mode='reduced')` → `(Q [..., m, k], R [..., k, n])`; `'complete'`:
/// `(Q [..., m, m], R [..., m, n])`; `'r'`: an empty Q and the reduced R.
fn qr(ctx: &mut Ctx) -> RuleResult {
    let (batch, m, n, dt) = matrices(ctx, "qr")?;
    let k = least(&m, &n);
    let mode = match ctx.arg(1, "mode") {
        None => "reduced".to_string(),
        Some(Value::Str(Some(s))) => s.clone(),
        Some(_) => return super::unsupported(format!("{}: mode is unknown", ctx.op)),
    };
    let (q, r) = match mode.as_str() {
        "reduced" => (with(&batch, &[&m, &k]), with(&batch, &[&k, &n])),
        "complete" => (with(&batch, &[&m, &m]), with(&batch, &[&m, &n])),
        "r" => (vec![Dim::constant(0)], with(&batch, &[&k, &n])),
        other => {
            return invalid(format!(
                "{}: qr received unrecognized mode '{other}' but expected one of 'reduced' (default), 'r', or 'complete'",
                ctx.op
            ))
        }
    };
    Ok(Value::Tuple(vec![tensor_out(q, dt), tensor_out(r, dt)]))
}

/// `torch.linalg.eigh(A)` and `eig(A)` on square matrices → `(L [..., n], V [..., n, n])`;
/// `eigvalsh`/`eigvals` → `L` alone. `eig` and `eigvals` give complex values (dtype
/// unknown here); the Hermitian forms keep the input's.
fn eigen(ctx: &mut Ctx) -> RuleResult {
    let name = ctx.op.rsplit('.').next().unwrap_or("eig").to_string();
    let hermitian = name.ends_with('h');
    let (batch, n, dt) = square(ctx, if hermitian { "eigh" } else { "eig" })?;
    let dt = dt.filter(|_| hermitian);
    let values = tensor_out(with(&batch, &[&n]), dt);
    if name.starts_with("eigvals") {
        return Ok(values);
    }
    Ok(Value::Tuple(vec![
        values,
        tensor_out(with(&batch, &[&n, &n]), dt),
    ]))
}

/// `inv`, `cholesky`, `matrix_exp` of square matrices keep the shape.
fn inv(ctx: &mut Ctx) -> RuleResult {
    let name = ctx.op.rsplit('.').next().unwrap_or("inv");
    let what = if name == "inverse" { "inv" } else { name }.to_string();
    let (batch, n, dt) = square(ctx, &what)?;
    Ok(tensor_out(with(&batch, &[&n, &n]), dt))
}

/// `det` of square matrices → the batch dims.
fn det(ctx: &mut Ctx) -> RuleResult {
    let (batch, _, dt) = square(ctx, "det")?;
    Ok(tensor_out(batch, dt))
}

/// `matrix_rank` of any matrices (square or not) → the batch dims, int64.
fn matrix_rank(ctx: &mut Ctx) -> RuleResult {
    let (batch, _, _, _) = matrices(ctx, "matrix_rank")?;
    Ok(tensor_out(batch, Some(DType::Int)))
}

/// `torch.linalg.slogdet(A)` → `(sign, logabsdet)`, both of the batch dims.
fn slogdet(ctx: &mut Ctx) -> RuleResult {
    let (batch, _, dt) = square(ctx, "slogdet")?;
    Ok(Value::Tuple(vec![
        tensor_out(batch.clone(), dt),
        tensor_out(batch, dt),
    ]))
}

/// `torch.linalg.pinv(A)` → `[..., n, m]`.
fn pinv(ctx: &mut Ctx) -> RuleResult {
    let (batch, m, n, dt) = matrices(ctx, "pinv")?;
    Ok(tensor_out(with(&batch, &[&n, &m]), dt))
}

#[cfg(test)]
mod tests {
    use super::super::RuleError;
    use crate::shapes::shape::Shape;
    use crate::shapes::value::Value;
    use crate::testing::call;

    fn shapes(v: Value) -> Vec<Shape> {
        match v {
            Value::Tuple(items) => items
                .into_iter()
                .map(|t| t.as_tensor().unwrap().shape.clone())
                .collect(),
            t => vec![t.as_tensor().unwrap().shape.clone()],
        }
    }

    /// Recorded under torch 2.15 on `[2, 5, 3]` and `[2, 3, 3]` inputs.
    #[test]
    fn decompositions_follow_the_recorded_shapes() {
        let a = || Value::float_tensor(&[2, 5, 3]);
        let sq = || Value::float_tensor(&[2, 3, 3]);
        let of = |d: &[i64]| Shape::of(d);
        let svd = call("torch.linalg.svd", vec![a()], vec![]).unwrap();
        assert_eq!(
            shapes(svd),
            vec![of(&[2, 5, 5]), of(&[2, 3]), of(&[2, 3, 3])]
        );
        let reduced = call(
            "torch.linalg.svd",
            vec![a()],
            vec![("full_matrices", Value::Bool(Some(false)))],
        );
        assert_eq!(
            shapes(reduced.unwrap()),
            vec![of(&[2, 5, 3]), of(&[2, 3]), of(&[2, 3, 3])]
        );
        let old = call("torch.svd", vec![a()], vec![]).unwrap();
        assert_eq!(
            shapes(old),
            vec![of(&[2, 5, 3]), of(&[2, 3]), of(&[2, 3, 3])]
        );
        let qr = call("torch.linalg.qr", vec![a()], vec![]).unwrap();
        assert_eq!(shapes(qr), vec![of(&[2, 5, 3]), of(&[2, 3, 3])]);
        let eigh = call("torch.linalg.eigh", vec![sq()], vec![]).unwrap();
        assert_eq!(shapes(eigh), vec![of(&[2, 3]), of(&[2, 3, 3])]);
        let pinv = call("torch.linalg.pinv", vec![a()], vec![]).unwrap();
        assert_eq!(shapes(pinv), vec![of(&[2, 3, 5])]);
        let det = call("torch.det", vec![sq()], vec![]).unwrap();
        assert_eq!(shapes(det), vec![of(&[2])]);
        for op in [
            "torch.linalg.inv",
            "torch.linalg.eigh",
            "torch.det",
            "torch.linalg.cholesky",
        ] {
            assert!(
                matches!(call(op, vec![a()], vec![]), Err(RuleError::Invalid { .. })),
                "{op}"
            );
        }
        let vector = call(
            "torch.linalg.svdvals",
            vec![Value::float_tensor(&[5])],
            vec![],
        );
        assert!(matches!(vector, Err(RuleError::Invalid { .. })));
    }
}
