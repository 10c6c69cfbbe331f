//! Operator rules: recurrent layers (`RNN`/`LSTM`/`GRU` and their cells). Attention and the
//! Transformer layers are in `attention.rs`.
//! (See `catalogue/mod.rs` for the conventions.)

use super::common::*;
use super::{invalid, tensor_out, unsupported, Ctx, Rule, RuleError, RuleResult};
use crate::shapes::dim::DimExpr;
use crate::shapes::kind::FindingKind;
use crate::shapes::requirement::Pred;
use crate::shapes::shape::Dim;
use crate::shapes::value::Value;

/// What this family's failures are, unless a rule or a check declares otherwise.
pub const KIND: FindingKind = FindingKind::RecurrentInput;

pub const RULES: &[Rule] = &[
    Rule::module("torch.nn.RNN", rnn_init, rnn_forward),
    Rule::module("torch.nn.LSTM", rnn_init, rnn_forward),
    Rule::module("torch.nn.GRU", rnn_init, rnn_forward),
    Rule::module("torch.nn.RNNCell", cell_init, cell_forward),
    Rule::module("torch.nn.LSTMCell", cell_init, cell_forward),
    Rule::module("torch.nn.GRUCell", cell_init, cell_forward),
];

// ---------------------------------------------------------------------------------------
// RNN / LSTM / GRU
// ---------------------------------------------------------------------------------------

/// `nn.RNN/LSTM/GRU(input_size, hidden_size, num_layers=1, [nonlinearity='tanh' for RNN],
/// bias=True, batch_first=False, dropout=0.0, bidirectional=False, [proj_size=0 for LSTM])`:
/// hidden_size and num_layers > 0; RNN's nonlinearity is `tanh` or `relu`; LSTM's proj_size
/// is ≥ 0 and < hidden_size (other classes reject a non-zero proj_size).
fn rnn_init(ctx: &mut Ctx) -> RuleResult {
    let class = ctx.op.clone();
    let is_rnn = class.ends_with(".RNN");
    // RNN takes `nonlinearity` as its 4th positional argument; the rest shift by one.
    let shift = usize::from(is_rnn);
    let input_size = size_hyper(ctx, 0, "input_size", None)?;
    let hidden = size_hyper(ctx, 1, "hidden_size", None)?;
    require_positive(ctx, &hidden, "hidden_size must be greater than zero")?;
    let layers = ctx.int_or(2, "num_layers", 1)?;
    require_positive(ctx, &layers, "num_layers must be greater than zero")?;
    if is_rnn {
        match ctx.arg(3, "nonlinearity") {
            None | Some(Value::Str(None)) => {}
            Some(Value::Str(Some(s))) if s == "tanh" || s == "relu" => {}
            Some(other) => {
                return invalid(format!(
                    "{class}: Unknown nonlinearity {other}. Select from 'tanh' or 'relu'."
                ))
            }
        }
    }
    let batch_first = ctx.bool_or(4 + shift, "batch_first", false)?;
    let bidirectional = ctx.bool_or(6 + shift, "bidirectional", false)?;
    let proj = ctx.int_or(7 + shift, "proj_size", 0)?;
    if proj.as_const() != Some(0) {
        if !class.ends_with(".LSTM") {
            return invalid(format!(
                "{class}: proj_size argument is only supported for LSTM, not RNN or GRU"
            ));
        }
        ctx.require_with(Pred::Le(DimExpr::zero(), proj.clone()), |_| {
            format!(
                "{class}: proj_size should be a positive integer or zero to disable projections"
            )
        })?;
        ctx.require_with(Pred::Lt(proj.clone(), hidden.clone()), |_| {
            format!("{class}: proj_size has to be smaller than hidden_size")
        })?;
    }
    Ok(module_value(
        &class,
        vec![
            ("input_size", Value::Int(input_size)),
            ("hidden_size", Value::Int(hidden)),
            ("num_layers", Value::Int(layers)),
            ("batch_first", Value::Bool(Some(batch_first))),
            ("bidirectional", Value::Bool(Some(bidirectional))),
            ("proj_size", Value::Int(proj)),
        ],
    ))
}

/// Checks a given initial state against its expected shape (`Expected hidden size (D*L, B,
/// H), got [..]`); an unbatched input takes a 2-D state (`(D*L, H)`).
fn check_state(
    ctx: &mut Ctx,
    h: &[Dim],
    want: &[Dim],
    batched: bool,
    what: &str,
) -> Result<(), RuleError> {
    let rank = if batched { 3 } else { 2 };
    if h.len() != rank {
        return invalid(format!(
            "{}: For {} input, {what} should also be {rank}-D but got {}-D tensor",
            ctx.op,
            if batched {
                "batched 3-D"
            } else {
                "unbatched 2-D"
            },
            h.len()
        ));
    }
    let msg = format!(
        "{}: Expected {what} size {}, got {}",
        ctx.op,
        show(want),
        show(h)
    );
    require_same(ctx, h, want, msg)
}

/// RNN/LSTM/GRU forward `(input, hx=None)`: input `(T, B, input_size)` (`(B, T, ..)` with
/// batch_first) or unbatched `(T, input_size)` ("Expected input to be 2D or 3D"); the last
/// dim must be input_size; T > 0. Output `(T, B, D*H_out)` (D = 2 if bidirectional, H_out =
/// proj_size or hidden_size) and `h_n (D*num_layers, B, H_out)` (batch dim dropped when
/// unbatched; h_n is never batch-first); LSTM returns `(out, (h_n, c_n))` with `c_n` of
/// hidden_size, and takes `hx` as a `(h_0, c_0)` pair. A given state must have exactly the
/// shape of the returned one.
fn rnn_forward(ctx: &mut Ctx) -> RuleResult {
    let class = ctx
        .module
        .as_ref()
        .map(|m| m.class.clone())
        .unwrap_or_default();
    let is_lstm = class.ends_with(".LSTM");
    let short = class.rsplit('.').next().unwrap_or("RNN").to_string();
    let (x, dt) = ctx.ranked(0, "input")?;
    if x.len() != 2 && x.len() != 3 {
        return invalid(format!(
            "{}: {short}: Expected input to be 2D or 3D, got {}D tensor instead",
            ctx.op,
            x.len()
        ));
    }
    require_float(ctx, dt)?;
    let input_size = Dim::Known(param_dim(ctx, "input_size")?);
    let hidden = param_dim(ctx, "hidden_size")?;
    let layers = param_dim(ctx, "num_layers")?;
    let proj = param_dim(ctx, "proj_size")?;
    let dirs = if param_bool(ctx, "bidirectional") {
        2
    } else {
        1
    };
    let batch_first = param_bool(ctx, "batch_first");
    let batched = x.len() == 3;
    let msg = format!(
        "{}: input.size(-1) must be equal to input_size. Expected {input_size}, got {}",
        ctx.op,
        x[x.len() - 1]
    );
    ctx.require_eq(&x[x.len() - 1], &input_size, msg)?;
    let (seq, batch) = match (batched, batch_first) {
        (false, _) => (x[0].clone(), None),
        (true, false) => (x[0].clone(), Some(x[1].clone())),
        (true, true) => (x[1].clone(), Some(x[0].clone())),
    };
    if let Dim::Known(t) = &seq {
        ctx.require_with(Pred::Lt(DimExpr::zero(), t.clone()), |cx| {
            format!(
                "{}: Expected sequence length to be larger than 0 in RNN",
                cx.op
            )
        })?;
    }
    let h_out = if proj.as_const() == Some(0) {
        hidden.clone()
    } else {
        proj
    };
    let state = |size: &DimExpr| {
        let mut v = vec![Dim::Known(layers.mul_const(dirs))];
        v.extend(batch.clone());
        v.push(Dim::Known(size.clone()));
        v
    };
    let (h_shape, c_shape) = (state(&h_out), state(&hidden));
    // The given state, checked against the shapes it would be given as (batch dim 1 where
    // the input is unbatched, as PyTorch reports it).
    let check = |ctx: &mut Ctx, h: &[Dim], want: &[Dim], what: &str| {
        check_state(ctx, h, want, batched, what)
    };
    match ctx.arg(1, "hx").cloned() {
        None | Some(Value::None) => {}
        Some(Value::Unknown) => return unsupported(format!("{}: unknown hx", ctx.op)),
        Some(hx) if is_lstm => match hx.elements().as_deref() {
            Some([Value::Tensor(h), Value::Tensor(c)]) => {
                let (Some(h), Some(c)) = (h.shape.dims(), c.shape.dims()) else {
                    return unsupported(format!("{}: rank of hx is unknown", ctx.op));
                };
                check(ctx, h, &h_shape, "hidden[0]")?;
                check(ctx, c, &c_shape, "hidden[1]")?;
            }
            _ => return invalid(format!("{}: LSTM expects hx as a (h_0, c_0) pair", ctx.op)),
        },
        Some(Value::Tensor(h)) => {
            let Some(h) = h.shape.dims() else {
                return unsupported(format!("{}: rank of hx is unknown", ctx.op));
            };
            check(ctx, h, &h_shape, "hidden")?;
        }
        Some(other) => return invalid(format!("{}: hx must be a Tensor, not {other}", ctx.op)),
    }
    let feat = Dim::Known(h_out.mul_const(dirs));
    let out = match (batch, batch_first) {
        (None, _) => vec![seq, feat],
        (Some(b), false) => vec![seq, b, feat],
        (Some(b), true) => vec![b, seq, feat],
    };
    let out = tensor_out(out, dt);
    let h_n = tensor_out(h_shape, dt);
    Ok(if is_lstm {
        Value::Tuple(vec![out, Value::Tuple(vec![h_n, tensor_out(c_shape, dt)])])
    } else {
        Value::Tuple(vec![out, h_n])
    })
}

/// `nn.RNNCell/LSTMCell/GRUCell(input_size, hidden_size, bias=True, [nonlinearity])`.
fn cell_init(ctx: &mut Ctx) -> RuleResult {
    let input_size = size_hyper(ctx, 0, "input_size", None)?;
    let hidden = size_hyper(ctx, 1, "hidden_size", None)?;
    let class = ctx.op.clone();
    Ok(module_value(
        &class,
        vec![
            ("input_size", Value::Int(input_size)),
            ("hidden_size", Value::Int(hidden)),
        ],
    ))
}

/// Cell forward `(input, hx=None)`: input `(B, input_size)` or unbatched `(input_size)`
/// ("Expected input to be 1D or 2D"; "input has inconsistent input_size"); the state is
/// `(B, hidden_size)` ("Input batch size doesn't match hidden0 batch size"); the result is
/// the new state (LSTMCell: the pair `(h, c)`).
fn cell_forward(ctx: &mut Ctx) -> RuleResult {
    let class = ctx
        .module
        .as_ref()
        .map(|m| m.class.clone())
        .unwrap_or_default();
    let short = class.rsplit('.').next().unwrap_or("RNNCell").to_string();
    let is_lstm = short == "LSTMCell";
    let (x, dt) = ctx.ranked(0, "input")?;
    if x.len() != 1 && x.len() != 2 {
        return invalid(format!(
            "{}: {short}: Expected input to be 1D or 2D, got {}D instead",
            ctx.op,
            x.len()
        ));
    }
    require_float(ctx, dt)?;
    let input_size = Dim::Known(param_dim(ctx, "input_size")?);
    let hidden = Dim::Known(param_dim(ctx, "hidden_size")?);
    let msg = format!(
        "{}: input has inconsistent input_size: got {} expected {input_size}",
        ctx.op,
        x[x.len() - 1]
    );
    ctx.require_eq(&x[x.len() - 1], &input_size, msg)?;
    let mut state = x[..x.len() - 1].to_vec();
    state.push(hidden);
    let given: Vec<Vec<Dim>> = match ctx.arg(1, "hx").cloned() {
        None | Some(Value::None) => Vec::new(),
        Some(Value::Tensor(t)) if !is_lstm => {
            vec![t.shape.dims().map(<[Dim]>::to_vec).unwrap_or_default()]
        }
        Some(v) if is_lstm => match v.elements().as_deref() {
            Some([Value::Tensor(h), Value::Tensor(c)]) => [h, c]
                .iter()
                .map(|t| t.shape.dims().map(<[Dim]>::to_vec).unwrap_or_default())
                .collect(),
            _ => return invalid(format!("{}: LSTMCell expects hx as a (h, c) pair", ctx.op)),
        },
        Some(Value::Unknown) => return unsupported(format!("{}: unknown hx", ctx.op)),
        Some(other) => return invalid(format!("{}: hx must be a Tensor, not {other}", ctx.op)),
    };
    for h in &given {
        let msg = format!(
            "{}: Input batch size {} doesn't match hidden0 batch size {}",
            ctx.op,
            show(&x),
            show(h)
        );
        require_same(ctx, h, &state, msg)?;
    }
    let out = tensor_out(state, dt);
    Ok(if is_lstm {
        Value::Tuple(vec![out.clone(), out])
    } else {
        out
    })
}
