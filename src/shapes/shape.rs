//! Gradual shapes (seed 000): a known rank whose dims may be `Dyn`, an unknown rank, or a known
//! prefix and suffix around an unknown middle. Broadcasting follows PyTorch: right-aligned,
//! a dim of 1 stretches, the 0-d shape is the identity.

use super::kind::Declared;
use std::fmt;

use super::dim::DimExpr;
use super::requirement::{Pred, Requirement};

/// One dimension: a symbolic expression, or `Dyn` (unknown, consistent with anything).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Dim {
    Dyn,
    Known(DimExpr),
}

impl Dim {
    pub fn constant(c: i64) -> Dim {
        Dim::Known(DimExpr::constant(c))
    }

    pub fn sym(name: &str) -> Dim {
        Dim::Known(DimExpr::sym(name))
    }

    pub fn expr(&self) -> Option<&DimExpr> {
        match self {
            Dim::Known(e) => Some(e),
            Dim::Dyn => None,
        }
    }

    pub fn as_const(&self) -> Option<i64> {
        self.expr().and_then(DimExpr::as_const)
    }

    /// Applies `f` to a known dim; `Dyn` stays `Dyn`.
    pub fn map(&self, f: impl FnOnce(&DimExpr) -> DimExpr) -> Dim {
        match self {
            Dim::Known(e) => Dim::Known(f(e)),
            Dim::Dyn => Dim::Dyn,
        }
    }

    pub fn zip(&self, other: &Dim, f: impl FnOnce(&DimExpr, &DimExpr) -> DimExpr) -> Dim {
        match (self, other) {
            (Dim::Known(a), Dim::Known(b)) => Dim::Known(f(a, b)),
            _ => Dim::Dyn,
        }
    }

    /// Product of dims (`Dyn` if any is).
    pub fn product<'a>(dims: impl IntoIterator<Item = &'a Dim>) -> Dim {
        let mut acc = DimExpr::one();
        for d in dims {
            match d {
                Dim::Known(e) => acc = acc.mul(e),
                Dim::Dyn => return Dim::Dyn,
            }
        }
        Dim::Known(acc)
    }
}

impl From<i64> for Dim {
    fn from(c: i64) -> Self {
        Dim::constant(c)
    }
}

impl From<DimExpr> for Dim {
    fn from(e: DimExpr) -> Self {
        Dim::Known(e)
    }
}

impl fmt::Display for Dim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Dim::Dyn => write!(f, "?"),
            Dim::Known(e) => write!(f, "{e}"),
        }
    }
}

impl fmt::Debug for Dim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Shape {
    /// Known rank.
    Ranked(Vec<Dim>),
    /// Unknown rank with known leading and trailing dims (`[a, ..., b]`); both may be empty.
    Partial { prefix: Vec<Dim>, suffix: Vec<Dim> },
}

impl Shape {
    pub fn unknown() -> Shape {
        Shape::Partial {
            prefix: Vec::new(),
            suffix: Vec::new(),
        }
    }

    pub fn scalar() -> Shape {
        Shape::Ranked(Vec::new())
    }

    pub fn of(dims: &[i64]) -> Shape {
        Shape::Ranked(dims.iter().map(|d| Dim::constant(*d)).collect())
    }

    pub fn dims(&self) -> Option<&[Dim]> {
        match self {
            Shape::Ranked(d) => Some(d),
            Shape::Partial { .. } => None,
        }
    }

    pub fn rank(&self) -> Option<usize> {
        self.dims().map(<[Dim]>::len)
    }

    /// Concrete dims, when every dim is a constant.
    pub fn concrete(&self) -> Option<Vec<i64>> {
        self.dims()?.iter().map(Dim::as_const).collect()
    }

    /// Number of elements.
    pub fn numel(&self) -> Dim {
        match self.dims() {
            Some(d) => Dim::product(d),
            None => Dim::Dyn,
        }
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |v: &[Dim]| v.iter().map(Dim::to_string).collect::<Vec<_>>().join(", ");
        match self {
            Shape::Ranked(d) => write!(f, "[{}]", list(d)),
            Shape::Partial { prefix, suffix } => {
                let mut parts: Vec<String> = prefix.iter().map(Dim::to_string).collect();
                parts.push("...".into());
                parts.extend(suffix.iter().map(Dim::to_string));
                write!(f, "[{}]", parts.join(", "))
            }
        }
    }
}

impl fmt::Debug for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

/// One broadcast dim: equal dims stay, a 1 stretches. With symbolic dims that are not
/// decidably equal or 1, the result is `max(a, b)` under the requirement `a == b or a == 1 or
/// b == 1`.
fn broadcast_dim(a: &Dim, b: &Dim, what: &str, reqs: &mut Vec<Requirement>) -> Dim {
    let (ea, eb) = match (a, b) {
        (Dim::Known(ea), Dim::Known(eb)) => (ea, eb),
        (Dim::Known(e), Dim::Dyn) | (Dim::Dyn, Dim::Known(e)) if e.as_const() != Some(1) => {
            // Unknown against a known non-1 dim: either the unknown is 1 or equal.
            return Dim::Known(e.clone());
        }
        _ => return Dim::Dyn,
    };
    if ea.decide_eq(eb) == Some(true) || eb.as_const() == Some(1) {
        return a.clone();
    }
    if ea.as_const() == Some(1) {
        return b.clone();
    }
    let one = DimExpr::one();
    reqs.push(Requirement::declared(
        Declared::BROADCAST,
        Pred::Or(vec![
            Pred::Eq(ea.clone(), eb.clone()),
            Pred::Eq(ea.clone(), one.clone()),
            Pred::Eq(eb.clone(), one),
        ]),
        format!("{what}: the size of tensor a ({ea}) must match the size of tensor b ({eb}) or one of them must be 1"),
    ));
    if ea.is_const() && eb.is_const() {
        // Both constant, neither 1, different: the requirement above is false.
        return a.clone();
    }
    // Under the requirement, the result is the non-1 operand: max(a, b) when both are at
    // least 1, and 0 when either is 0 (0 broadcasts against 1 to 0). For dims (≥ 0) that is
    // max(a, b) * min(a, b, 1).
    let one = DimExpr::one();
    Dim::Known(ea.maximum(eb).mul(&ea.minimum(eb).minimum(&one)))
}

/// Broadcasts two shapes as PyTorch does, adding the requirements it needs.
pub fn broadcast(a: &Shape, b: &Shape, what: &str, reqs: &mut Vec<Requirement>) -> Shape {
    match (a, b) {
        (Shape::Ranked(x), Shape::Ranked(y)) => {
            let n = x.len().max(y.len());
            let mut out = Vec::with_capacity(n);
            for i in 0..n {
                let dx = (i + x.len()).checked_sub(n).map(|j| &x[j]);
                let dy = (i + y.len()).checked_sub(n).map(|j| &y[j]);
                out.push(match (dx, dy) {
                    (Some(p), Some(q)) => broadcast_dim(p, q, what, reqs),
                    (Some(p), None) | (None, Some(p)) => p.clone(),
                    (None, None) => Dim::Dyn,
                });
            }
            Shape::Ranked(out)
        }
        // With an unknown rank only the trailing dims are known.
        (Shape::Ranked(x), Shape::Partial { suffix, .. })
        | (Shape::Partial { suffix, .. }, Shape::Ranked(x)) => {
            let k = x.len().min(suffix.len());
            let mut tail = Vec::new();
            for i in 0..k {
                tail.push(broadcast_dim(
                    &x[x.len() - k + i],
                    &suffix[suffix.len() - k + i],
                    what,
                    reqs,
                ));
            }
            Shape::Partial {
                prefix: Vec::new(),
                suffix: tail,
            }
        }
        (Shape::Partial { suffix: s1, .. }, Shape::Partial { suffix: s2, .. }) => {
            let k = s1.len().min(s2.len());
            let mut tail = Vec::new();
            for i in 0..k {
                tail.push(broadcast_dim(
                    &s1[s1.len() - k + i],
                    &s2[s2.len() - k + i],
                    what,
                    reqs,
                ));
            }
            Shape::Partial {
                prefix: Vec::new(),
                suffix: tail,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn concrete_broadcasting() {
        let mut reqs = Vec::new();
        let out = broadcast(
            &Shape::of(&[4, 1, 3]),
            &Shape::of(&[5, 1]),
            "add",
            &mut reqs,
        );
        assert_eq!(out, Shape::of(&[4, 5, 3]));
        assert!(reqs.is_empty());
        let out = broadcast(&Shape::scalar(), &Shape::of(&[2, 3]), "add", &mut reqs);
        assert_eq!(out, Shape::of(&[2, 3]));
        broadcast(&Shape::of(&[2, 3]), &Shape::of(&[4, 3]), "add", &mut reqs);
        assert_eq!(reqs.len(), 1);
        assert_eq!(reqs[0].pred.decide(), Some(false));
    }

    #[test]
    fn symbolic_broadcasting() {
        let mut reqs = Vec::new();
        let a = Shape::Ranked(vec![Dim::sym("n"), Dim::constant(3)]);
        let b = Shape::Ranked(vec![Dim::constant(1), Dim::constant(3)]);
        assert_eq!(broadcast(&a, &b, "add", &mut reqs), a);
        assert!(reqs.is_empty());
        let c = Shape::Ranked(vec![Dim::sym("m"), Dim::constant(3)]);
        let out = broadcast(&a, &c, "add", &mut reqs);
        assert_eq!(reqs.len(), 1);
        assert_eq!(reqs[0].pred.decide(), None);
        assert_eq!(out.rank(), Some(2));
    }
}
