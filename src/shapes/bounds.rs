//! The range a tensor's values (or a Python number's) are drawn from, when the values
//! themselves are unknown: `torch.rand` samples `[0, 1)`, `torch.randint(lo, hi)` the
//! integers `lo..hi`. It decides comparisons whose outcome no draw can change: an
//! epsilon-greedy `if torch.rand(1).item() < 0.0:` never takes its branch. Only operations
//! that keep every value (reshapes, copies, indexing) or map a range to a range exactly pass
//! it on; anything else drops it (`None` is always sound).

use ruff_python_ast::CmpOp;

use super::rules::creation::randint_args;
use super::rules::{converts, keeps_content, Ctx};
use super::value::{DType, TensorValue, Value};

/// A closed or half-open interval of reals (infinite ends allowed).
#[derive(Clone, Copy, Debug)]
pub struct Bounds {
    pub lo: f64,
    pub hi: f64,
    /// The upper end itself is excluded (`rand`'s `[0, 1)`).
    pub hi_open: bool,
}

impl Bounds {
    pub fn closed(lo: f64, hi: f64) -> Bounds {
        Bounds {
            lo,
            hi,
            hi_open: false,
        }
    }

    pub fn half_open(lo: f64, hi: f64) -> Bounds {
        Bounds {
            lo,
            hi,
            hi_open: true,
        }
    }

    fn bits(&self) -> [u64; 3] {
        [
            self.lo.to_bits(),
            self.hi.to_bits(),
            u64::from(self.hi_open),
        ]
    }

    /// `x <op> c` for every `x` in the range, when the range decides it.
    pub fn compare(&self, op: CmpOp, c: f64) -> Option<bool> {
        // x < c holds everywhere / nowhere; likewise x <= c.
        let below = |strict: bool| {
            let all = if strict {
                self.hi < c || (self.hi == c && self.hi_open)
            } else {
                self.hi <= c
            };
            let none = if strict { self.lo >= c } else { self.lo > c };
            if all {
                Some(true)
            } else if none {
                Some(false)
            } else {
                None
            }
        };
        let not = |b: Option<bool>| b.map(|b| !b);
        match op {
            CmpOp::Lt => below(true),
            CmpOp::LtE => below(false),
            CmpOp::Gt => not(below(false)),
            CmpOp::GtE => not(below(true)),
            CmpOp::Eq | CmpOp::NotEq => {
                let outside = c < self.lo || c > self.hi || (c == self.hi && self.hi_open);
                let eq = if outside {
                    Some(false)
                } else if self.lo == self.hi {
                    Some(true)
                } else {
                    None
                };
                if op == CmpOp::Eq {
                    eq
                } else {
                    not(eq)
                }
            }
            _ => None,
        }
    }

    /// The comparison with `c` on the left (`c < x`).
    pub fn compare_flipped(&self, op: CmpOp, c: f64) -> Option<bool> {
        let flipped = match op {
            CmpOp::Lt => CmpOp::Gt,
            CmpOp::LtE => CmpOp::GtE,
            CmpOp::Gt => CmpOp::Lt,
            CmpOp::GtE => CmpOp::LtE,
            other => other,
        };
        self.compare(flipped, c)
    }

    /// Python truth: zero is false.
    pub fn truth(&self) -> Option<bool> {
        self.compare(CmpOp::NotEq, 0.0)
    }

    /// The range after truncation to integers (`.long()`, `int(x)`), which is monotone.
    fn truncated(&self) -> Bounds {
        let hi = if self.hi_open && self.hi.fract() == 0.0 && self.hi > 0.0 {
            self.hi - 1.0
        } else {
            self.hi.trunc()
        };
        Bounds::closed(self.lo.trunc(), hi)
    }
}

compared_by_bits!(Bounds);

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
    use crate::shapes::rules::tests::{call, ints};

    #[test]
    fn comparisons_are_decided_only_when_every_value_agrees() {
        let rand = Bounds::half_open(0.0, 1.0);
        assert_eq!(rand.compare(CmpOp::Lt, 0.0), Some(false));
        assert_eq!(rand.compare(CmpOp::GtE, 0.0), Some(true));
        assert_eq!(rand.compare(CmpOp::Lt, 1.0), Some(true));
        assert_eq!(
            rand.compare(CmpOp::LtE, 0.0),
            None,
            "0.0 itself can be drawn"
        );
        assert_eq!(rand.compare(CmpOp::Lt, 0.5), None);
        assert_eq!(rand.compare(CmpOp::Gt, 1.0), Some(false));
        assert_eq!(rand.compare(CmpOp::Eq, 1.0), Some(false));
        assert_eq!(rand.compare(CmpOp::NotEq, 2.0), Some(true));
        assert_eq!(rand.compare_flipped(CmpOp::Gt, 0.0), Some(false));
        assert_eq!(
            rand.compare_flipped(CmpOp::GtE, 0.0),
            None,
            "0 >= x for x = 0"
        );
        assert_eq!(rand.compare_flipped(CmpOp::GtE, 1.0), Some(true));
        let die = Bounds::closed(1.0, 6.0);
        assert_eq!(die.compare(CmpOp::LtE, 6.0), Some(true));
        assert_eq!(die.compare(CmpOp::Lt, 6.0), None);
        assert_eq!(die.truth(), Some(true));
        assert_eq!(Bounds::closed(3.0, 3.0).compare(CmpOp::Eq, 3.0), Some(true));
    }

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

    #[test]
    fn truncation_keeps_integer_ends() {
        let t = Bounds::half_open(0.0, 1.0).truncated();
        assert_eq!((t.lo, t.hi, t.hi_open), (0.0, 0.0, false));
        let t = Bounds::closed(-1.5, 2.5).truncated();
        assert_eq!((t.lo, t.hi), (-1.0, 2.0));
    }
}
