//! What an operator does to the range its input's values are drawn from
//! ([`crate::shapes::bounds::Bounds`]): creation sets one, value-keeping operations pass it
//! on, a comparison the range decides is uniformly true or false; anything else drops it.

use ruff_python_ast::CmpOp;

use super::creation::randint_args;
use super::{converts, keeps_content, Ctx};
use crate::shapes::bounds::Bounds;
use crate::shapes::value::{DType, TensorValue, Value};

/// Largest integer every float type stores exactly (float16's 2^11): a conversion to a
/// floating dtype keeps a range whose ends are integers no larger.
const EXACT_IN_HALF: f64 = 2048.0;

/// The result's range (and, for a comparison the range decides, its uniform truth value).
/// Called for every rule application after the rule: the rule's own result never keeps its
/// input's range.
pub fn evaluate(ctx: &Ctx, mut value: Value) -> Value {
    let Value::Tensor(out) = &mut value else {
        return value;
    };
    out.bounds = None;
    // Most applications draw nothing and have no drawn operand: nothing to do on this hot
    // path.
    let drawn = |v: &Value| matches!(v, Value::Tensor(t) if t.bounds.is_some());
    let op = ctx.op.as_str();
    if !matches!(op, "torch.rand" | "torch.rand_like" | "torch.randint")
        && !ctx.args.iter().take(2).any(drawn)
    {
        return value;
    }
    let name = op.rsplit('.').next().unwrap_or(op);
    let input = match ctx.args.first() {
        Some(Value::Tensor(t)) => t.range(),
        _ => None,
    };
    let range = match op {
        "torch.rand" | "torch.rand_like" => Some(Bounds::half_open(0.0, 1.0)),
        "torch.randint" => randint(ctx),
        // Subsets of the values keep their range too.
        _ if keeps_content(op) || name == "getitem" => input,
        _ if converts(op) => input.and_then(|b| converted(out, b)),
        _ => None,
    };
    out.bounds = range.map(Box::new);
    if let Some(truth) = decided_comparison(ctx, name) {
        out.uniform = Some(i64::from(truth));
    }
    value
}

/// `randint(low, high, size)`: the integers `low..high` when both ends are known.
fn randint(ctx: &Ctx) -> Option<Bounds> {
    let (low, high, _) = randint_args(ctx).ok()?;
    let (low, high) = (low?.as_const()? as f64, high?.as_const()? as f64);
    (low < high).then(|| Bounds::closed(low, high - 1.0))
}

/// A conversion keeps the range: to integers truncated, to a floating dtype when its ends
/// are small integers (every float type rounds them to themselves, and rounding is
/// monotone).
fn converted(out: &TensorValue, b: Bounds) -> Option<Bounds> {
    match out.dtype {
        Some(DType::Int) => Some(b.truncated()),
        Some(DType::Float) => {
            let exact = |x: f64| x.fract() == 0.0 && x.abs() <= EXACT_IN_HALF;
            (exact(b.lo) && exact(b.hi)).then_some(b)
        }
        _ => None,
    }
}

/// `t < c` (and the other orderings, as operators, functions or methods) where `t`'s range
/// decides the outcome for every element.
fn decided_comparison(ctx: &Ctx, name: &str) -> Option<bool> {
    let op = match name {
        "lt" | "less" => CmpOp::Lt,
        "le" | "less_equal" => CmpOp::LtE,
        "gt" | "greater" => CmpOp::Gt,
        "ge" | "greater_equal" => CmpOp::GtE,
        "eq" => CmpOp::Eq,
        "ne" | "not_equal" => CmpOp::NotEq,
        _ => return None,
    };
    match (ctx.args.first()?, ctx.args.get(1)?) {
        (Value::Tensor(t), c) if c.as_number().is_some() => t.range()?.compare(op, c.as_number()?),
        (c, Value::Tensor(t)) if c.as_number().is_some() => {
            t.range()?.compare_flipped(op, c.as_number()?)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{call, ints};

    fn bounds_of(v: &Value) -> Option<Bounds> {
        v.as_tensor().and_then(TensorValue::range)
    }

    /// Draws carry their range through reshapes, indexing and conversions; a comparison
    /// the range decides is a uniform mask; arithmetic drops the range.
    #[test]
    fn ranges_follow_draws_through_value_keeping_operations() {
        let rand = call("torch.rand", ints(&[2, 3]), vec![]).unwrap();
        assert_eq!(bounds_of(&rand), Some(Bounds::half_open(0.0, 1.0)));
        let flat = call("torch.Tensor.flatten", vec![rand.clone()], vec![]).unwrap();
        assert_eq!(bounds_of(&flat), bounds_of(&rand));
        let never = call(
            "operator.lt",
            vec![flat.clone(), Value::Float(Some(0.0))],
            vec![],
        );
        assert_eq!(never.unwrap().as_tensor().unwrap().uniform, Some(0));
        let always = call("torch.lt", vec![flat.clone(), Value::int(1)], vec![]);
        assert_eq!(always.unwrap().as_tensor().unwrap().uniform, Some(1));
        let open = call(
            "operator.lt",
            vec![flat.clone(), Value::Float(Some(0.5))],
            vec![],
        );
        assert_eq!(open.unwrap().as_tensor().unwrap().uniform, None);
        let scaled = call("operator.mul", vec![flat, Value::Float(Some(2.0))], vec![]);
        assert_eq!(bounds_of(&scaled.unwrap()), None);

        let mut args = ints(&[1, 7]);
        args.push(Value::Tuple(ints(&[4])));
        let die = call("torch.randint", args, vec![]).unwrap();
        assert_eq!(bounds_of(&die), Some(Bounds::closed(1.0, 6.0)));
        let as_float = call("torch.Tensor.float", vec![die.clone()], vec![]).unwrap();
        assert_eq!(bounds_of(&as_float), Some(Bounds::closed(1.0, 6.0)));
        let high_only = call(
            "torch.randint",
            vec![Value::int(10), Value::Tuple(ints(&[2]))],
            vec![],
        );
        assert_eq!(
            bounds_of(&high_only.unwrap()),
            Some(Bounds::closed(0.0, 9.0))
        );
        let truncated = call("torch.Tensor.long", vec![rand], vec![]).unwrap();
        assert_eq!(bounds_of(&truncated), Some(Bounds::closed(0.0, 0.0)));
    }
}
