//! Requirements: predicates over dimensions that an operator needs to hold, each with a
//! message naming the operator, the argument and the shapes.

use super::kind::Declared;
use std::fmt;

use super::dim::DimExpr;

#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
pub enum Pred {
    Eq(DimExpr, DimExpr),
    Ne(DimExpr, DimExpr),
    /// `a <= b`
    Le(DimExpr, DimExpr),
    /// `a < b`
    Lt(DimExpr, DimExpr),
    /// `a` divides `b` (`b % a == 0`, with `a != 0`).
    Divides(DimExpr, DimExpr),
    And(Vec<Pred>),
    Or(Vec<Pred>),
    Not(Box<Pred>),
}

impl Pred {
    /// A predicate that always holds (`0 <= 0`).
    pub fn always() -> Pred {
        Pred::Le(DimExpr::zero(), DimExpr::zero())
    }

    /// The symbols the predicate mentions.
    pub fn symbols(&self) -> std::collections::BTreeSet<std::sync::Arc<str>> {
        let mut out = std::collections::BTreeSet::new();
        self.collect_symbols(&mut out);
        out
    }

    fn collect_symbols(&self, out: &mut std::collections::BTreeSet<std::sync::Arc<str>>) {
        self.visit_symbols(&mut |s| {
            if !out.contains(s) {
                out.insert(s.clone());
            }
        });
    }

    /// Every occurrence of a symbol, in place (see [`DimExpr::visit_symbols`]).
    pub fn visit_symbols(&self, f: &mut dyn FnMut(&std::sync::Arc<str>)) {
        match self {
            Pred::Eq(a, b)
            | Pred::Ne(a, b)
            | Pred::Le(a, b)
            | Pred::Lt(a, b)
            | Pred::Divides(a, b) => {
                a.visit_symbols(f);
                b.visit_symbols(f);
            }
            Pred::And(ps) | Pred::Or(ps) => ps.iter().for_each(|q| q.visit_symbols(f)),
            Pred::Not(q) => q.visit_symbols(f),
        }
    }

    /// Whether `values` (ascending, each once) are consecutive ints: a range.
    pub fn consecutive(values: &[i64]) -> bool {
        match (values.first(), values.last()) {
            (Some(&lo), Some(&hi)) => hi.checked_sub(lo) == Some(values.len() as i64 - 1),
            _ => false,
        }
    }

    /// `x` is one of `values` (ascending, each once): `lo <= x <= hi` when they are
    /// consecutive, else one equality per value.
    pub fn member_of(x: &DimExpr, values: &[i64]) -> Pred {
        match (Pred::consecutive(values), values.first(), values.last()) {
            (true, Some(&lo), Some(&hi)) => Pred::And(vec![
                Pred::Le(DimExpr::constant(lo), x.clone()),
                Pred::Le(x.clone(), DimExpr::constant(hi)),
            ]),
            _ => Pred::Or(
                values
                    .iter()
                    .map(|&v| Pred::Eq(x.clone(), DimExpr::constant(v)))
                    .collect(),
            ),
        }
    }

    /// Decides the predicate from the normal forms alone, when that is possible.
    pub fn decide(&self) -> Option<bool> {
        match self {
            Pred::Eq(a, b) => a.decide_eq(b),
            Pred::Ne(a, b) => a.decide_eq(b).map(|x| !x),
            Pred::Le(a, b) => a.decide_le(b),
            Pred::Lt(a, b) => a.add_const(1).decide_le(b),
            Pred::Divides(a, b) => match (a.as_const(), b.as_const()) {
                (Some(0), _) => Some(false),
                (Some(x), Some(y)) => Some(y % x == 0),
                _ if b.modulo(a).as_const() == Some(0) && a.as_const().is_some_and(|c| c != 0) => {
                    Some(true)
                }
                _ => None,
            },
            Pred::And(ps) => {
                let mut all = Some(true);
                for p in ps {
                    match p.decide() {
                        Some(false) => return Some(false),
                        None => all = None,
                        Some(true) => {}
                    }
                }
                all
            }
            Pred::Or(ps) => {
                let mut any = Some(false);
                for p in ps {
                    match p.decide() {
                        Some(true) => return Some(true),
                        None => any = None,
                        Some(false) => {}
                    }
                }
                any
            }
            Pred::Not(p) => p.decide().map(|x| !x),
        }
    }

    /// The predicate with symbols replaced (see [`DimExpr::substitute`]).
    pub fn substitute(&self, map: &dyn Fn(&str) -> Option<DimExpr>) -> Pred {
        let all = |ps: &[Pred]| ps.iter().map(|p| p.substitute(map)).collect();
        match self {
            Pred::Eq(a, b) => Pred::Eq(a.substitute(map), b.substitute(map)),
            Pred::Ne(a, b) => Pred::Ne(a.substitute(map), b.substitute(map)),
            Pred::Le(a, b) => Pred::Le(a.substitute(map), b.substitute(map)),
            Pred::Lt(a, b) => Pred::Lt(a.substitute(map), b.substitute(map)),
            Pred::Divides(a, b) => Pred::Divides(a.substitute(map), b.substitute(map)),
            Pred::And(ps) => Pred::And(all(ps)),
            Pred::Or(ps) => Pred::Or(all(ps)),
            Pred::Not(p) => Pred::Not(Box::new(p.substitute(map))),
        }
    }

    /// Whether an operand holds a remainder of a symbolic term (see
    /// [`DimExpr::has_symbolic_modulo`]).
    pub fn has_symbolic_modulo(&self) -> bool {
        match self {
            Pred::Eq(a, b) | Pred::Ne(a, b) | Pred::Le(a, b) | Pred::Lt(a, b) => {
                a.has_symbolic_modulo() || b.has_symbolic_modulo()
            }
            // By a symbolic divisor: a remainder the solver has to find.
            Pred::Divides(a, b) => !a.is_const() || b.has_symbolic_modulo(),
            Pred::And(ps) | Pred::Or(ps) => ps.iter().any(Pred::has_symbolic_modulo),
            Pred::Not(p) => p.has_symbolic_modulo(),
        }
    }

    /// Evaluates with concrete symbol values; `None` when something is unbound or undefined.
    pub fn eval(&self, env: &dyn Fn(&str) -> Option<i64>) -> Option<bool> {
        Some(match self {
            Pred::Eq(a, b) => a.eval(env)? == b.eval(env)?,
            Pred::Ne(a, b) => a.eval(env)? != b.eval(env)?,
            Pred::Le(a, b) => a.eval(env)? <= b.eval(env)?,
            Pred::Lt(a, b) => a.eval(env)? < b.eval(env)?,
            Pred::Divides(a, b) => {
                let (x, y) = (a.eval(env)?, b.eval(env)?);
                x != 0 && y % x == 0
            }
            Pred::And(ps) => {
                for p in ps {
                    if !p.eval(env)? {
                        return Some(false);
                    }
                }
                true
            }
            Pred::Or(ps) => {
                for p in ps {
                    if p.eval(env)? {
                        return Some(true);
                    }
                }
                false
            }
            Pred::Not(p) => !p.eval(env)?,
        })
    }
}

impl fmt::Display for Pred {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let join = |ps: &[Pred], sep: &str| {
            ps.iter()
                .map(|p| format!("({p})"))
                .collect::<Vec<_>>()
                .join(sep)
        };
        match self {
            Pred::Eq(a, b) => write!(f, "{a} == {b}"),
            Pred::Ne(a, b) => write!(f, "{a} != {b}"),
            Pred::Le(a, b) => write!(f, "{a} <= {b}"),
            Pred::Lt(a, b) => write!(f, "{a} < {b}"),
            Pred::Divides(a, b) => write!(f, "{a} divides {b}"),
            Pred::And(ps) => write!(f, "{}", join(ps, " and ")),
            Pred::Or(ps) => write!(f, "{}", join(ps, " or ")),
            Pred::Not(p) => write!(f, "not ({p})"),
        }
    }
}

impl fmt::Debug for Pred {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

/// A predicate an operator needs, and what to tell the user when it fails.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Requirement {
    pub pred: Pred,
    pub message: String,
    /// What its check declares a violation to be; `None`: whatever the operator's rule says.
    pub kind: Option<Declared>,
}

impl Requirement {
    pub fn new(pred: Pred, message: impl Into<String>) -> Requirement {
        Requirement {
            pred,
            message: message.into(),
            kind: None,
        }
    }

    /// A requirement whose check declares what its violation is.
    pub fn declared(kind: Declared, pred: Pred, message: impl Into<String>) -> Requirement {
        Requirement {
            pred,
            message: message.into(),
            kind: Some(kind),
        }
    }
}
