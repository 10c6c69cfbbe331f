//! Operator rules: signal framing and spectra — sliding windows (`Tensor.unfold`), window
//! functions (`hann_window`, ...), the discrete Fourier transforms of `torch.fft`, and the
//! short-time transform `stft`.

use super::{invalid, tensor_out, Ctx, Rule, RuleResult};
use crate::shapes::dim::DimExpr;
use crate::shapes::kind::FindingKind;
use crate::shapes::requirement::Pred;
use crate::shapes::shape::Dim;
use crate::shapes::value::{DType, Value};

/// What this family's failures are, unless a rule or a check declares otherwise.
pub const KIND: FindingKind = FindingKind::ShapeMismatch;

pub const RULES: &[Rule] = &[
    Rule::function("torch.Tensor.unfold", unfold),
    Rule::function("torch.hann_window", window),
    Rule::function("torch.hamming_window", window),
    Rule::function("torch.blackman_window", window),
    Rule::function("torch.bartlett_window", window),
    Rule::function("torch.kaiser_window", window),
    Rule::function("torch.fft.fft", fft),
    Rule::function("torch.fft.ifft", fft),
    Rule::function("torch.fft.rfft", rfft),
    Rule::function("torch.fft.irfft", irfft),
    Rule::function("torch.stft", stft),
    Rule::function("torch.Tensor.stft", stft),
];

/// `x.unfold(dimension, size, step)`: every window of `size` elements along `dimension`,
/// `step` apart, as a new last dim: that dim becomes `(n - size) // step + 1`. PyTorch needs
/// `size <= n` ("maximum size for tensor at dimension d is n but size is size") and
/// `step > 0` ("step is 0 but must be > 0").
fn unfold(ctx: &mut Ctx) -> RuleResult {
    let (mut dims, dtype) = ctx.ranked(0, "input")?;
    let (Some(d), Some(size), Some(step)) = (
        ctx.const_int(1, "dimension")?,
        ctx.opt_int(2, "size")?,
        ctx.opt_int(3, "step")?,
    ) else {
        return invalid(format!("{}: unfold() missing arguments", ctx.op));
    };
    // A 0-d tensor unfolds as one of length 1, and the result has only the window dim.
    let scalar = dims.is_empty();
    let d = ctx.dim_index(d, dims.len(), 0)?;
    let n = if scalar {
        Dim::constant(1)
    } else {
        dims[d].clone()
    };
    let windows = match &n {
        Dim::Known(n) => {
            ctx.require(
                Pred::Le(size.clone(), n.clone()),
                format!(
                    "{}: maximum size for tensor at dimension {d} is {n} but size is {size}",
                    ctx.op
                ),
            )?;
            Dim::Known(n.sub(&size).floordiv(&step).add_const(1))
        }
        Dim::Dyn => Dim::Dyn,
    };
    match step.as_const() {
        Some(s) if s <= 0 => {
            return invalid(format!("{}: step is {s} but must be > 0", ctx.op));
        }
        Some(_) => {}
        None => ctx.require(
            Pred::Lt(DimExpr::zero(), step.clone()),
            format!("{}: step is {step} but must be > 0", ctx.op),
        )?,
    }
    if let Some(c) = size.as_const().filter(|c| *c < 0) {
        return invalid(format!("{}: size is {c} but must be >= 0", ctx.op));
    }
    if scalar {
        return Ok(tensor_out(vec![Dim::Known(size)], dtype));
    }
    dims[d] = windows;
    dims.push(Dim::Known(size));
    Ok(tensor_out(dims, dtype))
}

/// `torch.hann_window(window_length, periodic=True, *, dtype=None)` and the other window
/// functions: a `[window_length]` float vector; a negative length raises.
fn window(ctx: &mut Ctx) -> RuleResult {
    let Some(n) = ctx.opt_int(0, "window_length")? else {
        return invalid(format!("{}: missing argument `window_length`", ctx.op));
    };
    ctx.require_with(Pred::Le(DimExpr::zero(), n.clone()), |cx| {
        format!(
            "{}: requires non-negative window length, got window_length={n}",
            cx.op
        )
    })?;
    let dtype = super::creation::dtype_kw(ctx, Some(DType::Float));
    if matches!(dtype, Some(DType::Int | DType::Bool)) {
        return invalid(format!(
            "{}: expected a floating point or complex dtype",
            ctx.op
        ));
    }
    Ok(tensor_out(vec![Dim::Known(n)], dtype))
}

/// A transform's input dims, the resolved `dim`, and the requested length `n`, if any.
fn transform_input(ctx: &mut Ctx) -> Result<(Vec<Dim>, usize, Option<Dim>), super::RuleError> {
    let (dims, _) = ctx.ranked(0, "input")?;
    if dims.is_empty() {
        return invalid(format!(
            "{}: Dimension specified as -1 but tensor has no dimensions",
            ctx.op
        ));
    }
    let d = ctx.dim_index(ctx.const_int(2, "dim")?.unwrap_or(-1), dims.len(), 0)?;
    let n = ctx.opt_int(1, "n")?.map(Dim::Known);
    Ok((dims, d, n))
}

/// A transform needs a positive number of points ("Invalid number of data points (0)
/// specified").
fn require_points(ctx: &mut Ctx, n: &Dim) -> Result<(), super::RuleError> {
    if let Dim::Known(n) = n {
        ctx.require_with(Pred::Lt(DimExpr::zero(), n.clone()), |cx| {
            format!("{}: Invalid number of data points ({n}) specified", cx.op)
        })?;
    }
    Ok(())
}

/// The transform length along `dim`: `n`, or the input's size there.
fn transform_len(ctx: &mut Ctx) -> Result<(Vec<Dim>, usize, Dim), super::RuleError> {
    let (dims, d, n) = transform_input(ctx)?;
    let n = n.unwrap_or_else(|| dims[d].clone());
    require_points(ctx, &n)?;
    Ok((dims, d, n))
}

/// `torch.fft.fft(input, n=None, dim=-1)` / `ifft`: complex, `n` points along `dim` (the
/// input is cropped or zero-padded to `n`).
fn fft(ctx: &mut Ctx) -> RuleResult {
    let (mut dims, d, n) = transform_len(ctx)?;
    dims[d] = n;
    Ok(tensor_out(dims, Some(DType::Complex)))
}

/// `torch.fft.rfft(input, n=None, dim=-1)`: the one-sided spectrum of a real signal,
/// `n // 2 + 1` complex points along `dim`; complex input raises.
fn rfft(ctx: &mut Ctx) -> RuleResult {
    if matches!(ctx.arg(0, "input"), Some(Value::Tensor(t)) if t.dtype == Some(DType::Complex)) {
        return invalid(format!("{}: rfft expects a real input tensor", ctx.op));
    }
    let (mut dims, d, n) = transform_len(ctx)?;
    dims[d] = n.map(|n| n.floordiv(&DimExpr::constant(2)).add_const(1));
    Ok(tensor_out(dims, Some(DType::Complex)))
}

/// `torch.fft.irfft(input, n=None, dim=-1)`: a real signal of `n` points, by default
/// `2 * (m - 1)` for `m` input points (which must then be at least 2 for a positive length).
fn irfft(ctx: &mut Ctx) -> RuleResult {
    let (mut dims, d, n) = transform_input(ctx)?;
    let n = n.unwrap_or_else(|| dims[d].map(|m| m.add_const(-1).mul_const(2)));
    require_points(ctx, &n)?;
    dims[d] = n;
    Ok(tensor_out(dims, Some(DType::Float)))
}

/// `torch.stft(input, n_fft, hop_length=None, win_length=None, window=None, center=True,
/// pad_mode='reflect', normalized=False, onesided=None, return_complex=None)` on a signal
/// `[L]` or a batch `[B, L]` ("expected a 1D or 2D tensor"); without `return_complex` the
/// result is not modelled (see below); the hop defaults to `n_fft // 4` and must be positive, the window length
/// to `n_fft` (`0 < win_length <= n_fft`, a window tensor of exactly that length).
/// `center` pads `n_fft // 2` on both sides by reflection, which needs `n_fft // 2 < L`
/// ("Padding size should be less than the corresponding input dimension"); without it
/// `n_fft <= L`. The result is `[B?, n_fft // 2 + 1, 1 + (L' - n_fft) // hop]` (`n_fft`
/// rows when not one-sided; a trailing 2 for real output), complex.
fn stft(ctx: &mut Ctx) -> RuleResult {
    let (x, dt) = ctx.ranked(0, "input")?;
    let op = ctx.op.clone();
    if x.is_empty() || x.len() > 2 {
        return invalid(format!("{op}: stft: expected a 1D or 2D tensor"));
    }
    let complex = match ctx.arg(9, "return_complex") {
        // Torch 2 raises here ("stft requires the return_complex parameter be given for
        // real inputs"); older releases returned real pairs. An API change, not a shape
        // bug: the result is unknown.
        None | Some(Value::None) => {
            return super::unsupported(format!("{op}: return_complex not given"))
        }
        Some(Value::Bool(Some(b))) => *b,
        Some(_) => return super::unsupported(format!("{op}: return_complex is unknown")),
    };
    let Some(n_fft) = ctx.opt_int(1, "n_fft")? else {
        return invalid(format!("{op}: missing argument `n_fft`"));
    };
    let hop = ctx
        .opt_int(2, "hop_length")?
        .unwrap_or_else(|| n_fft.floordiv(&DimExpr::constant(4)));
    let win = ctx
        .opt_int(3, "win_length")?
        .unwrap_or_else(|| n_fft.clone());
    ctx.require_with(Pred::Lt(DimExpr::zero(), hop.clone()), |_| {
        format!("{op}: stft: expected hop_length > 0, but got hop_length={hop}")
    })?;
    ctx.require_with(
        Pred::And(vec![
            Pred::Lt(DimExpr::zero(), win.clone()),
            Pred::Le(win.clone(), n_fft.clone()),
        ]),
        |_| format!("{op}: stft: expected 0 < win_length <= n_fft, but got win_length={win}"),
    )?;
    if let Some(Value::Tensor(w)) = ctx.arg(4, "window").cloned() {
        match w.shape.dims() {
            Some([Dim::Known(len)]) => {
                let len = len.clone();
                ctx.require_with(Pred::Eq(len.clone(), win.clone()), |_| {
                    format!(
                        "{op}: stft: expected a 1D window tensor of size equal to win_length={win}, but got window with size [{len}]"
                    )
                })?;
            }
            Some(d) if d.len() != 1 => {
                return invalid(format!("{op}: stft: expected a 1D window tensor"));
            }
            _ => {}
        }
    }
    let Dim::Known(len) = x[x.len() - 1].clone() else {
        return super::unsupported(format!("{op}: signal length unknown"));
    };
    let half = n_fft.floordiv(&DimExpr::constant(2));
    let padded = if ctx.bool_or(5, "center", true)? {
        ctx.require_with(Pred::Lt(half.clone(), len.clone()), |_| {
            format!(
                "{op}: Argument #4: Padding size should be less than the corresponding input dimension, but got: padding ({half}, {half}) of input length {len}"
            )
        })?;
        len.add(&half.mul_const(2))
    } else {
        len.clone()
    };
    ctx.require_with(
        Pred::And(vec![
            Pred::Lt(DimExpr::zero(), n_fft.clone()),
            Pred::Le(n_fft.clone(), padded.clone()),
        ]),
        |_| format!("{op}: stft: expected 0 < n_fft <= {padded}, but got n_fft={n_fft}"),
    )?;
    let frames = padded.sub(&n_fft).floordiv(&hop).add_const(1);
    let rows = if ctx.bool_or(8, "onesided", true)? {
        half.add_const(1)
    } else {
        n_fft
    };
    let mut out: Vec<Dim> = x[..x.len() - 1].to_vec();
    out.push(Dim::Known(rows));
    out.push(Dim::Known(frames));
    if complex {
        return Ok(tensor_out(out, None));
    }
    out.push(Dim::constant(2));
    Ok(tensor_out(out, dt))
}

#[cfg(test)]
mod tests {
    use super::super::RuleError;
    use crate::shapes::shape::Shape;
    use crate::shapes::value::Value;
    use crate::testing::call;

    /// Recorded under torch 2.15.
    #[test]
    fn stft_frames_follow_the_recorded_shapes() {
        let complex = || ("return_complex", Value::Bool(Some(true)));
        let shape = |x: &[i64], hop: Option<i64>, extra: Vec<(&str, Value)>| {
            let mut args = vec![Value::float_tensor(x), Value::int(400)];
            args.extend(hop.map(Value::int));
            call("torch.stft", args, extra).map(|v| v.as_tensor().unwrap().shape.clone())
        };
        let of = |d: &[i64]| Ok(Shape::of(d));
        assert_eq!(
            shape(&[2, 16000], Some(160), vec![complex()]),
            of(&[2, 201, 101])
        );
        assert_eq!(
            shape(&[2, 16000], None, vec![complex()]),
            of(&[2, 201, 161])
        );
        let uncentered = vec![complex(), ("center", Value::Bool(Some(false)))];
        assert_eq!(shape(&[2, 16000], Some(160), uncentered), of(&[2, 201, 98]));
        assert_eq!(shape(&[201], None, vec![complex()]), of(&[201, 3]));
        assert!(matches!(
            shape(&[200], None, vec![complex()]),
            Err(RuleError::Invalid { .. })
        ));
        // Without `return_complex` torch 2 raises; older releases did not: not modelled.
        assert!(matches!(
            shape(&[2, 16000], Some(160), vec![]),
            Err(RuleError::Unsupported(_))
        ));
    }
}
