//! Python numbers whose values are known: float arithmetic and comparisons, so that
//! `int(planes * (base_width / 64.0))` or `max(1.0, width_mult)` stay concrete.

use ruff_python_ast::{CmpOp, Operator};

use super::expr::int_of;
use super::value::V;
use crate::shapes::bounds::Bounds;
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

/// Arithmetic between a float drawn from a range and a number: `+`, `-` and `*` by a known
/// number map the range to a range (float rounding is monotone, so the ends round the same
/// way every value does; the result is closed); anything else is an unknown float. `None`
/// when neither side is ranged or the other side is not a Python number.
pub fn drawn_op<'a>(l: &V<'a>, op: Operator, r: &V<'a>) -> Option<V<'a>> {
    let (b, other, drawn_left) = drawn_operands(l, r)?;
    let unknown = Some(V::Data(Value::Float(None)));
    let Some(c) = known_number(other) else {
        return unknown;
    };
    let (lo, hi) = match (op, drawn_left) {
        (Operator::Add, _) => (b.lo + c, b.hi + c),
        (Operator::Sub, true) => (b.lo - c, b.hi - c),
        (Operator::Sub, false) => (c - b.hi, c - b.lo),
        (Operator::Mult, _) if c >= 0.0 => (b.lo * c, b.hi * c),
        (Operator::Mult, _) => (b.hi * c, b.lo * c),
        _ => return unknown,
    };
    if lo.is_nan() || hi.is_nan() {
        return unknown;
    }
    Some(V::Drawn(Bounds::closed(lo, hi)))
}

/// A comparison of a float drawn from a range with a known number: known when the range
/// decides it, an unknown bool otherwise. `None` when neither side is ranged.
pub fn drawn_compare<'a>(l: &V<'a>, op: CmpOp, r: &V<'a>) -> Option<V<'a>> {
    let (b, other, drawn_left) = drawn_operands(l, r)?;
    let decided = known_number(other).and_then(|c| {
        if drawn_left {
            b.compare(op, c)
        } else {
            b.compare_flipped(op, c)
        }
    });
    Some(V::Data(Value::Bool(decided)))
}

/// The range of the drawn side of a binary operation, the other side, and whether the drawn
/// side is the left one; `None` unless one side is drawn and the other is a Python number.
fn drawn_operands<'v, 'a>(l: &'v V<'a>, r: &'v V<'a>) -> Option<(Bounds, &'v V<'a>, bool)> {
    let (b, other, drawn_left) = match (l, r) {
        (V::Drawn(b), other) => (*b, other, true),
        (other, V::Drawn(b)) => (*b, other, false),
        _ => return None,
    };
    is_number(other).then_some((b, other, drawn_left))
}

/// A Python number, known or not.
fn is_number(v: &V) -> bool {
    matches!(
        v,
        V::Drawn(_) | V::Data(Value::Int(_) | Value::IntUnknown | Value::Float(_) | Value::Bool(_))
    )
}

#[cfg(test)]
mod tests {
    use crate::testing::{assert_twins, findings};

    /// An epsilon-greedy branch that no draw can take: with `eps = 0.0` the model always
    /// runs, so its bug is certain; with `eps = 0.5` the branch is undecided and nothing is
    /// reported.
    #[test]
    fn random_draws_decide_the_branches_their_range_decides() {
        let src = r#"
import random
import torch
from torch import nn

def act(x, eps):
    if random.random() < eps:
        return x
    if torch.rand(1).item() * 2.0 > 2.0:
        return x
    return nn.Linear(IN, 4)(x)

act(torch.randn(2, 8), EPS)
"#;
        let greedy = src.replace("EPS", "0.0");
        assert_twins(&greedy, "IN", "6", "8", 11);
        let undecided = src.replace("EPS", "0.5").replace("IN", "6");
        assert!(findings(&undecided).is_empty());
    }

    /// `random.randint(a, b)` is a size within a..=b: a finding holds for every draw.
    #[test]
    fn random_ints_are_sizes_within_their_range() {
        let src = r#"
import random
import torch

def fold(x):
    k = random.randint(LO, 4)
    return x.reshape(k, -1)

fold(torch.randn(5, 2))
"#;
        assert_twins(src, "LO", "3", "2", 7);
    }
}
