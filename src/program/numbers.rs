//! Python numbers whose values are known: float arithmetic and comparisons, so that
//! `int(planes * (base_width / 64.0))` or `max(1.0, width_mult)` stay concrete.

use ruff_python_ast::{CmpOp, Operator};

use super::expr::int_of;
use super::value::V;
use crate::shapes::Value;

/// Python arithmetic on known numbers where one side is a float (the other may be an int
/// or a bool): `int(planes * (base_width / 64.0))` stays concrete.
pub fn float_op(l: &V, op: Operator, r: &V) -> Option<f64> {
    let (a, b) = (known_number(l)?, known_number(r)?);
    let value = match op {
        Operator::Add => a + b,
        Operator::Sub => a - b,
        Operator::Mult => a * b,
        Operator::Div if b != 0.0 => a / b,
        Operator::FloorDiv if b != 0.0 => (a / b).floor(),
        // Python's modulo takes the sign of the divisor.
        Operator::Mod if b != 0.0 => a - b * (a / b).floor(),
        Operator::Pow => a.powf(b),
        _ => return None,
    };
    value.is_finite().then_some(value)
}

/// A comparison of known numbers where one side is a float (int comparisons are dim
/// predicates, decided elsewhere).
pub fn float_compare(l: &V, op: CmpOp, r: &V) -> Option<bool> {
    let is_float = |v: &V| matches!(v, V::Data(Value::Float(_)));
    if !(is_float(l) || is_float(r)) {
        return None;
    }
    let (a, b) = (known_number(l)?, known_number(r)?);
    match op {
        CmpOp::Eq => Some(a == b),
        CmpOp::NotEq => Some(a != b),
        CmpOp::Lt => Some(a < b),
        CmpOp::LtE => Some(a <= b),
        CmpOp::Gt => Some(a > b),
        CmpOp::GtE => Some(a >= b),
        _ => None,
    }
}

/// A Python number whose value is known (ints and bools as floats).
pub fn known_number(v: &V) -> Option<f64> {
    match v {
        V::Data(Value::Float(f)) => *f,
        V::Data(Value::Bool(b)) => b.map(|b| b as i64 as f64),
        other => int_of(other).and_then(|e| e.as_const()).map(|c| c as f64),
    }
}
