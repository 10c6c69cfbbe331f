//! The element values operators compute from known ones ([`crate::shapes::elements`]):
//! `arange`/`linspace`/literals, elementwise arithmetic, `log`/`round`/`pow`, conversions,
//! whole-tensor reductions, `diff`, `cumsum`, `unique`. Any operation not listed here drops
//! the values (never a wrong value: `None` is always sound). Floating results are rounded to
//! float32, as PyTorch stores them.

use std::sync::Arc;

use super::Ctx;
use crate::shapes::elements::{concrete_dims, values_of, Elements};
use crate::shapes::shape::Shape;
use crate::shapes::value::{DType, TensorValue, Value};

/// A number, or a tensor whose values are known.
struct Operand {
    dims: Vec<usize>,
    values: Arc<[f64]>,
}

fn operand(v: &Value) -> Option<Operand> {
    let (dims, values) = match v {
        Value::Tensor(t) => values_of(t)?,
        number => (Vec::new(), vec![number.as_number()?].into()),
    };
    Some(Operand { dims, values })
}

/// The flat index into an operand of shape `dims` broadcast to `out` at `out_index`.
fn broadcast_index(dims: &[usize], out: &[usize], mut flat: usize) -> usize {
    let mut index = 0;
    let mut stride = 1;
    let mut out_rev = out.iter().rev();
    for &d in dims.iter().rev() {
        let o = *out_rev.next().unwrap_or(&1);
        let pos = flat % o.max(1);
        flat /= o.max(1);
        if d != 1 {
            index += pos * stride;
        }
        stride *= d;
    }
    index
}

fn round_half_even(x: f64) -> f64 {
    let r = x.round();
    if (x - x.trunc()).abs() == 0.5 {
        2.0 * (x / 2.0).round()
    } else {
        r
    }
}

/// Python's (and torch's) floored modulo.
fn floor_mod(a: f64, b: f64) -> f64 {
    let r = a % b;
    if r != 0.0 && (r < 0.0) != (b < 0.0) {
        r + b
    } else {
        r
    }
}

fn unary(name: &str) -> Option<fn(f64) -> f64> {
    Some(match name {
        "neg" | "negative" => |x: f64| -x,
        "abs" => f64::abs,
        "log" => f64::ln,
        "log2" => f64::log2,
        "log10" => f64::log10,
        "exp" => f64::exp,
        "sqrt" => f64::sqrt,
        "floor" => f64::floor,
        "ceil" => f64::ceil,
        "trunc" | "fix" => f64::trunc,
        "round" => round_half_even,
        // Conversions and copies: the dtype rounding below does the rest.
        // (`double()` is left out: float64 values are not float32's.)
        "int" | "long" | "short" | "float" | "half" | "to" | "type_as" | "clone" | "detach"
        | "contiguous" | "cpu" | "reshape" | "view" | "flatten" | "ravel" | "squeeze"
        | "unsqueeze" | "pos" => |x: f64| x,
        _ => return None,
    })
}

fn binary(name: &str, rounding: Option<&str>) -> Option<fn(f64, f64) -> f64> {
    Some(match (name, rounding) {
        ("add", None) => |a, b| a + b,
        ("sub" | "subtract", None) => |a, b| a - b,
        ("mul" | "multiply", None) => |a, b| a * b,
        ("truediv" | "div" | "divide" | "true_divide", None) => |a, b| a / b,
        ("div" | "divide", Some("floor")) | ("floordiv" | "floor_divide", None) => {
            |a: f64, b: f64| (a / b).floor()
        }
        ("div" | "divide", Some("trunc")) => |a: f64, b: f64| (a / b).trunc(),
        ("pow" | "float_power", None) => f64::powf,
        ("mod" | "remainder", None) => floor_mod,
        ("maximum" | "fmax", None) => f64::max,
        ("minimum" | "fmin", None) => f64::min,
        _ => return None,
    })
}

/// `op`'s result with its element values when they follow from known inputs; `result` as
/// the rule gave it otherwise.
pub fn evaluate(ctx: &Ctx, result: Value) -> Value {
    let op = ctx.op.as_str();
    if matches!(op, "torch.unique" | "torch.Tensor.unique") {
        return unique(ctx, result);
    }
    // Most applications have no known values in (and create none): nothing to do, and
    // nothing to allocate, on this hot path.
    let known =
        |a: &Value| matches!(a, Value::Tensor(t) if t.elements.is_some() || t.uniform.is_some());
    let known_in = ctx.args.iter().any(|a| match a {
        // `torch.cat([a, b])`: the operands are in a sequence.
        Value::List(xs) | Value::Tuple(xs) => xs.iter().any(known),
        other => known(other),
    });
    if !known_in && !creates(op) {
        return result;
    }
    let Value::Tensor(t) = &result else {
        return result;
    };
    if t.dtype.is_none() {
        return result;
    }
    let Some(dims) = concrete_dims(&t.shape) else {
        return result;
    };
    let n: usize = dims.iter().product();
    let float = t.dtype.is_some_and(DType::is_floating);
    let Some(values) = compute(ctx, &dims, float) else {
        return result;
    };
    if values.len() != n {
        return result;
    }
    let mut t = t.clone();
    t.elements = Some(stored(values, t.dtype));
    Value::Tensor(t)
}

/// Values as a tensor of `dtype` stores them: integers truncated toward zero (as `.int()`
/// converts), bools as 0/1, floats rounded to float32.
fn stored(values: Vec<f64>, dtype: Option<DType>) -> Elements {
    let store = |x: f64| match dtype {
        Some(DType::Int) => x.trunc(),
        Some(DType::Bool) => (x != 0.0) as i64 as f64,
        _ => x as f32 as f64,
    };
    Elements(values.into_iter().map(store).collect())
}

/// The torch functions that create values from numbers.
fn creates(op: &str) -> bool {
    matches!(
        op,
        "torch.arange" | "torch.linspace" | "torch.tensor" | "torch.as_tensor"
    )
}

/// The values `op` computes, row-major over the result's `dims`.
fn compute(ctx: &Ctx, dims: &[usize], float: bool) -> Option<Vec<f64>> {
    let (op, args, kwargs) = (ctx.op.as_str(), ctx.args.as_slice(), ctx.kwargs.as_slice());
    // Operands of a float32 result are float32 (Python floats included, as PyTorch casts
    // a scalar operand to the tensor's dtype).
    let operand = |v: &Value| {
        operand(v).map(|mut o| {
            if float {
                o.values = o.values.iter().map(|&x| x as f32 as f64).collect();
            }
            o
        })
    };
    let name = if op.starts_with("operator.") {
        op.trim_start_matches("operator.")
    } else {
        op.rsplit('.').next().unwrap_or(op)
    };
    let n: usize = dims.iter().product();
    if creates(op) {
        return match name {
            "arange" => arange(ctx, n),
            "linspace" => linspace(ctx, n),
            _ => literal(args.first()?),
        };
    }
    // A view to another dtype reinterprets bits; a `view(shape)` keeps the values.
    if args.iter().skip(1).any(|a| matches!(a, Value::DType(_))) && name == "view" {
        return None;
    }
    match name {
        "sum" | "prod" | "max" | "min" | "amax" | "amin" | "mean"
            if args.len() == 1 && kwargs.is_empty() =>
        {
            let x = operand(&args[0])?;
            let v = x.values.iter().copied();
            let len = x.values.len();
            return Some(vec![match name {
                "sum" => v.sum(),
                "prod" => v.product(),
                "mean" if len > 0 => v.sum::<f64>() / len as f64,
                "max" | "amax" if len > 0 => v.fold(f64::NEG_INFINITY, f64::max),
                "min" | "amin" if len > 0 => v.fold(f64::INFINITY, f64::min),
                _ => return None,
            }]);
        }
        "cat" | "concat" | "concatenate" | "stack" => return joined(ctx, dims, name == "stack"),
        "diff" if args.len() == 1 && kwargs.is_empty() => {
            let x = operand(&args[0])?;
            return (x.dims.len() == 1).then(|| x.values.windows(2).map(|w| w[1] - w[0]).collect());
        }
        "cumsum" => {
            let x = operand(args.first()?)?;
            let dim = args.get(1).or_else(|| ctx.kwarg("dim"))?.as_const_int()?;
            if x.dims.len() != 1
                || !(dim == 0 || dim == -1)
                || kwargs.iter().any(|(k, _)| k != "dim")
            {
                return None;
            }
            let mut acc = 0.0;
            return Some(
                x.values
                    .iter()
                    .map(|v| {
                        acc += v;
                        acc
                    })
                    .collect(),
            );
        }
        _ => {}
    }
    if let Some(f) = unary(name) {
        // `round(decimals=k)`, `to(other_tensor)` and the like: only the plain forms.
        let extra_ok = args.iter().skip(1).all(|a| {
            matches!(
                name,
                "to" | "view" | "reshape" | "squeeze" | "unsqueeze" | "flatten" | "type_as"
            ) || matches!(a, Value::DType(_))
        });
        let kwargs_ok = kwargs.iter().all(|(k, _)| {
            matches!(
                k.as_str(),
                "dtype" | "device" | "non_blocking" | "copy" | "memory_format"
            )
        });
        if args.is_empty() || !extra_ok || !kwargs_ok || (name == "round" && args.len() > 1) {
            return None;
        }
        if name == "type_as" && args.len() != 2 {
            return None;
        }
        let x = operand(&args[0])?;
        return Some(x.values.iter().map(|&v| f(v)).collect());
    }
    let rounding = match ctx.kwarg("rounding_mode") {
        None | Some(Value::None) => None,
        Some(Value::Str(Some(s))) => Some(s.as_str()),
        Some(_) => return None,
    };
    let f = binary(name, rounding)?;
    if args.len() != 2 || kwargs.iter().any(|(k, _)| k != "rounding_mode") {
        return None;
    }
    let (a, b) = (operand(&args[0])?, operand(&args[1])?);
    Some(
        (0..n)
            .map(|i| {
                f(
                    a.values[broadcast_index(&a.dims, dims, i)],
                    b.values[broadcast_index(&b.dims, dims, i)],
                )
            })
            .collect(),
    )
}

/// `torch.cat(xs, dim)` / `torch.stack(xs, dim)` of operands whose values are all known:
/// each operand's block under every index of the dims before `dim`, in turn.
fn joined(ctx: &Ctx, dims: &[usize], stack: bool) -> Option<Vec<f64>> {
    let (Value::List(items) | Value::Tuple(items)) = ctx.args.first()? else {
        return None;
    };
    if ctx.kwargs.iter().any(|(k, _)| k != "dim") {
        return None;
    }
    let dim = match ctx.arg(1, "dim") {
        None => 0,
        Some(v) => v.as_const_int()?,
    };
    let parts: Vec<Operand> = items.iter().map(operand).collect::<Option<_>>()?;
    let rank = dims.len() as i64;
    let d = if dim < 0 { dim + rank } else { dim };
    if d < 0 || d >= rank.max(1) || (!stack && parts.iter().any(|p| p.dims.len() != dims.len())) {
        return None;
    }
    let outer: usize = dims[..d as usize].iter().product();
    if outer == 0 {
        return Some(Vec::new());
    }
    let mut out = Vec::new();
    for o in 0..outer {
        for p in &parts {
            let inner = p.values.len() / outer;
            out.extend_from_slice(p.values.get(o * inner..(o + 1) * inner)?);
        }
    }
    Some(out)
}

/// `torch.arange`: `start + i * step`.
fn arange(ctx: &Ctx, n: usize) -> Option<Vec<f64>> {
    let args = &ctx.args;
    let kw = |name: &str, default: f64| match ctx.kwarg(name) {
        Some(v) => v.as_number(),
        None => Some(default),
    };
    let (start, step) = match args.len() {
        0 | 1 => (kw("start", 0.0)?, kw("step", 1.0)?),
        2 => (args[0].as_number()?, kw("step", 1.0)?),
        _ => (args[0].as_number()?, args[2].as_number()?),
    };
    Some((0..n).map(|i| start + i as f64 * step).collect())
}

/// `torch.linspace(start, end, steps)` as PyTorch's CPU kernel computes it in float32: the
/// first half counts up from `start`, the second half down from `end`, with fused
/// multiply-adds; whole pairs of 16-lane vectors (AVX512, the build the recorded cases
/// come from) step from a base computed at the vector's first index, the tail is computed
/// element by element. (Other vector widths can differ in the last bit.)
fn linspace(ctx: &Ctx, n: usize) -> Option<Vec<f64>> {
    const LANES: usize = 16;
    let start = ctx.arg(0, "start")?.as_number()? as f32;
    let end = ctx.arg(1, "end")?.as_number()? as f32;
    if ctx.kwargs.iter().any(|(k, _)| {
        !matches!(
            k.as_str(),
            "steps" | "start" | "end" | "device" | "requires_grad"
        )
    }) {
        return None;
    }
    match n {
        0 => return Some(Vec::new()),
        1 => return Some(vec![start as f64]),
        _ => {}
    }
    let step = (end - start) / (n - 1) as f32;
    let half = n / 2;
    let at = |idx: usize| {
        if idx < half {
            step.mul_add(idx as f32, start)
        } else {
            (-step).mul_add((n - idx - 1) as f32, end)
        }
    };
    let mut out = Vec::with_capacity(n);
    while out.len() + 2 * LANES <= n {
        let base = at(out.len());
        out.extend((0..LANES).map(|i| step.mul_add(i as f32, base)));
    }
    while out.len() < n {
        out.push(at(out.len()));
    }
    Some(out.into_iter().map(f64::from).collect())
}

/// `torch.tensor([[1, 2], [3, 4]])`: the numbers of a nested literal, row-major.
fn literal(data: &Value) -> Option<Vec<f64>> {
    match data {
        Value::List(items) | Value::Tuple(items) => {
            let mut out = Vec::new();
            for item in items {
                out.extend(literal(item)?);
            }
            Some(out)
        }
        Value::Tensor(t) => values_of(t).map(|(_, v)| v.to_vec()),
        other => other.as_number().map(|x| vec![x]),
    }
}

/// `torch.unique(t)`: the sorted distinct values of a tensor (flattened), with their
/// counts (`return_counts=True`) and each element's position among them
/// (`return_inverse=True`), when the tensor's values are known.
fn unique(ctx: &Ctx, result: Value) -> Value {
    let Some(Value::Tensor(t)) = ctx.args.first() else {
        return result;
    };
    let flag = |name: &str| match ctx.kwarg(name) {
        None => Some(false),
        Some(Value::Bool(b)) => *b,
        Some(_) => None,
    };
    let (Some(inverse), Some(counts)) = (flag("return_inverse"), flag("return_counts")) else {
        return result;
    };
    if ctx.args.len() > 1
        || !matches!(ctx.kwarg("dim"), None | Some(Value::None))
        || flag("sorted").is_none()
    {
        return result;
    }
    let Some((dims, values)) = values_of(t) else {
        return result;
    };
    let mut distinct: Vec<f64> = values.to_vec();
    distinct.sort_by(f64::total_cmp);
    distinct.dedup();
    let position = |v: &f64| distinct.partition_point(|d| d < v) as f64;
    let tensor = |dims: &[i64], values: Vec<f64>, dtype| {
        Value::Tensor(TensorValue {
            shape: Shape::of(dims),
            dtype,
            uniform: None,
            top: None,
            elements: Some(Elements(values.into())),
            bounds: None,
        })
    };
    let k = distinct.len() as i64;
    let mut out = vec![tensor(&[k], distinct.clone(), t.dtype)];
    if inverse {
        let dims: Vec<i64> = dims.iter().map(|&d| d as i64).collect();
        let inv = values.iter().map(position).collect();
        out.push(tensor(&dims, inv, Some(DType::Int)));
    }
    if counts {
        let count = |d: &f64| values.iter().filter(|v| *v == d).count() as f64;
        out.push(tensor(
            &[k],
            distinct.iter().map(count).collect(),
            Some(DType::Int),
        ));
    }
    if out.len() == 1 {
        out.pop().unwrap_or(result)
    } else {
        Value::Tuple(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::interp::Interp;
    use crate::eval::value::V;
    use serde_json::Value as Json;

    /// A Python value the interpreter knows exactly, as JSON (ints stay ints).
    fn python_value(v: &V) -> Option<Json> {
        match v {
            V::Data(Value::Int(e)) => e.as_const().map(Json::from),
            V::Data(Value::Float(Some(x))) => Some(Json::from(*x)),
            V::Data(Value::Bool(Some(b))) => Some(Json::Bool(*b)),
            seq if let Some(items) = seq.sequence() => items
                .iter()
                .map(python_value)
                .collect::<Option<Vec<_>>>()
                .map(Json::Array),
            _ => None,
        }
    }

    /// `r = code` evaluated by the interpreter, as JSON when known.
    fn evaluated(code: &str) -> Option<Json> {
        let text = format!("import math\nimport torch\nr = {code}\n");
        let module = crate::frontend::parse_python(&text).expect("parsable case");
        let mut interp = Interp::new(&text);
        interp.exec_block(&module.body);
        python_value(interp.globals.get("r")?)
    }

    /// Same numbers with the same kinds: an int where torch gives an int, a float (equal to
    /// the last float32 bit) where it gives a float.
    fn same(ours: &Json, torch: &Json) -> bool {
        match (ours, torch) {
            (Json::Array(a), Json::Array(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same(x, y))
            }
            (Json::Number(x), Json::Number(y)) if y.is_i64() => {
                x.is_i64() && x.as_i64() == y.as_i64()
            }
            // Float32 values, compared as float32 (serde_json's parsing of the decimal text
            // may be one float64 ulp off).
            (Json::Number(x), Json::Number(y)) => {
                x.is_f64() && x.as_f64().map(|v| v as f32) == y.as_f64().map(|v| v as f32)
            }
            (x, y) => x == y,
        }
    }

    /// Ground truth from real torch (`scripts/gen_element_cases.py`): every value the analysis
    /// knows is torch's, to the last bit, and nearly every case is known.
    #[test]
    fn element_values_agree_with_torch() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/element_cases.json");
        let data: Json = serde_json::from_str(&std::fs::read_to_string(path).expect("cases"))
            .expect("JSON cases");
        let cases = data["cases"].as_array().expect("a case list");
        let mut unknown = Vec::new();
        for case in cases {
            let code = case["code"].as_str().expect("code");
            match evaluated(code) {
                Some(ours) => assert!(
                    same(&ours, &case["value"]),
                    "{code}: torch gives {}, the analysis {ours}",
                    case["value"]
                ),
                None => unknown.push(code),
            }
        }
        assert!(
            unknown.len() * 50 <= cases.len(),
            "{} of {} cases unknown: {unknown:#?}",
            unknown.len(),
            cases.len()
        );
    }

    #[test]
    fn broadcasting_maps_each_output_element_to_its_operands() {
        // [2, 3] with [3]: the row vector repeats; with [2, 1]: the column repeats.
        assert_eq!(broadcast_index(&[3], &[2, 3], 4), 1);
        assert_eq!(broadcast_index(&[2, 1], &[2, 3], 4), 1);
        assert_eq!(broadcast_index(&[], &[2, 3], 5), 0);
        assert_eq!(broadcast_index(&[2, 3], &[2, 3], 5), 5);
    }

    #[test]
    fn rounding_is_half_to_even_and_modulo_is_floored() {
        assert_eq!(round_half_even(2.5), 2.0);
        assert_eq!(round_half_even(3.5), 4.0);
        assert_eq!(round_half_even(-2.5), -2.0);
        assert_eq!(round_half_even(2.4), 2.0);
        assert_eq!(floor_mod(-7.0, 3.0), 2.0);
        assert_eq!(floor_mod(7.0, -3.0), -2.0);
    }
}
