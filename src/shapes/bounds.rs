//! The range a tensor's values (or a Python number's) are drawn from, when the values
//! themselves are unknown: `torch.rand` samples `[0, 1)`, `torch.randint(lo, hi)` the
//! integers `lo..hi`. It decides comparisons whose outcome no draw can change: an
//! epsilon-greedy `if torch.rand(1).item() < 0.0:` never takes its branch. Only operations
//! that keep every value (reshapes, copies, indexing) or map a range to a range exactly pass
//! it on; anything else drops it (`None` is always sound).

use ruff_python_ast::CmpOp;

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
    pub fn truncated(&self) -> Bounds {
        let hi = if self.hi_open && self.hi.fract() == 0.0 && self.hi > 0.0 {
            self.hi - 1.0
        } else {
            self.hi.trunc()
        };
        Bounds::closed(self.lo.trunc(), hi)
    }
}

compared_by_bits!(Bounds);

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn truncation_keeps_integer_ends() {
        let t = Bounds::half_open(0.0, 1.0).truncated();
        assert_eq!((t.lo, t.hi, t.hi_open), (0.0, 0.0, false));
        let t = Bounds::closed(-1.5, 2.5).truncated();
        assert_eq!((t.lo, t.hi), (-1.0, 2.0));
    }
}
