//! Symbolic dimensions and requirements as Z3 terms. Floor division and modulo keep Python's
//! semantics: SMT-LIB's integer `div` is Euclidean, which equals floor division only for a
//! positive divisor, so `a // b` becomes `ite(b > 0, a div b, (-a) div (-b))`, and plain
//! `div`/`mod` when `b` is a positive constant.

use std::collections::BTreeMap;
use std::sync::Arc;

use z3::ast::{Bool, Int};

use crate::shapes::dim::{Atom, DimExpr};
use crate::shapes::requirement::Pred;

/// Z3 constants for the symbols met so far, by name.
#[derive(Default)]
pub struct Symbols {
    vars: BTreeMap<Arc<str>, Int>,
}

impl Symbols {
    pub fn var(&mut self, name: &Arc<str>) -> Int {
        self.vars
            .entry(name.clone())
            .or_insert_with(|| Int::new_const(name.as_ref()))
            .clone()
    }

    pub fn iter(&self) -> impl Iterator<Item = (&Arc<str>, &Int)> {
        self.vars.iter()
    }
}

fn floordiv(x: &Int, y: &Int) -> Int {
    let positive = y.gt(Int::from_i64(0));
    let neg_x = x.unary_minus();
    let neg_y = y.unary_minus();
    positive.ite(&x.div(y), &neg_x.div(&neg_y))
}

/// `x // c` and `x % c` for a constant `c` (neither 0 nor `i64::MIN`), without the sign
/// test: for a positive divisor Euclidean and floor division agree (SMT-LIB's `div` and
/// `mod`), and `x // -c == -x // c`.
fn by_constant(x: &Int, c: i64) -> (Int, Int) {
    if c > 0 {
        let d = Int::from_i64(c);
        return (x.div(&d), x.modulo(&d));
    }
    let q = x.unary_minus().div(Int::from_i64(-c));
    let r = x - Int::from_i64(c) * q.clone();
    (q, r)
}

fn atom(a: &Atom, syms: &mut Symbols) -> Int {
    let constant = |y: &DimExpr| y.as_const().filter(|&c| c != 0 && c != i64::MIN);
    match a {
        Atom::Sym(name) => syms.var(name),
        Atom::FloorDiv(x, y) => match constant(y) {
            Some(c) => by_constant(&dim(x, syms), c).0,
            None => floordiv(&dim(x, syms), &dim(y, syms)),
        },
        Atom::Mod(x, y) => match constant(y) {
            Some(c) => by_constant(&dim(x, syms), c).1,
            None => {
                let (x, y) = (dim(x, syms), dim(y, syms));
                let q = floordiv(&x, &y);
                x - y * q
            }
        },
        Atom::Min(x, y) => {
            let (x, y) = (dim(x, syms), dim(y, syms));
            x.le(&y).ite(&x, &y)
        }
        Atom::Max(x, y) => {
            let (x, y) = (dim(x, syms), dim(y, syms));
            x.ge(&y).ite(&x, &y)
        }
    }
}

/// A dimension expression as a Z3 integer term.
pub fn dim(e: &DimExpr, syms: &mut Symbols) -> Int {
    let mut parts = Vec::new();
    for (monomial, coeff) in e.terms() {
        let mut factors = Vec::new();
        if coeff != 1 || monomial.is_empty() {
            factors.push(Int::from_i64(coeff));
        }
        for (a, exp) in monomial {
            let v = atom(a, syms);
            factors.extend(std::iter::repeat_n(v, *exp as usize));
        }
        parts.push(match factors.len() {
            1 => factors.remove(0),
            _ => Int::mul(&factors),
        });
    }
    match parts.len() {
        0 => Int::from_i64(0),
        1 => parts.remove(0),
        _ => Int::add(&parts),
    }
}

/// A requirement predicate as a Z3 boolean.
pub fn pred(p: &Pred, syms: &mut Symbols) -> Bool {
    match p {
        Pred::Eq(a, b) => dim(a, syms).eq(dim(b, syms)),
        Pred::Ne(a, b) => dim(a, syms).eq(dim(b, syms)).not(),
        Pred::Le(a, b) => dim(a, syms).le(dim(b, syms)),
        Pred::Lt(a, b) => dim(a, syms).lt(dim(b, syms)),
        Pred::Divides(a, b) => {
            let (a, b) = (dim(a, syms), dim(b, syms));
            let zero = Int::from_i64(0);
            Bool::and(&[a.eq(zero.clone()).not(), b.modulo(&a).eq(zero)])
        }
        Pred::And(ps) => {
            let parts: Vec<Bool> = ps.iter().map(|p| pred(p, syms)).collect();
            Bool::and(&parts)
        }
        Pred::Or(ps) => {
            let parts: Vec<Bool> = ps.iter().map(|p| pred(p, syms)).collect();
            Bool::or(&parts)
        }
        Pred::Not(p) => pred(p, syms).not(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shapes::dim::{py_floordiv, py_mod};
    use z3::{SatResult, Solver};

    #[test]
    fn floor_division_and_modulo_follow_python() {
        let solver = Solver::new();
        let mut syms = Symbols::default();
        let (a, b) = (DimExpr::sym("a"), DimExpr::sym("b"));
        let q = dim(&a.floordiv(&b), &mut syms);
        let r = dim(&a.modulo(&b), &mut syms);
        let (za, zb) = (syms.var(&Arc::from("a")), syms.var(&Arc::from("b")));
        for x in -7..=7 {
            for y in [-3i64, -2, -1, 1, 2, 3, 5] {
                solver.push();
                solver.assert(za.eq(Int::from_i64(x)));
                solver.assert(zb.eq(Int::from_i64(y)));
                let want_q = py_floordiv(x, y).unwrap();
                let want_r = py_mod(x, y).unwrap();
                // The negation of the expected values must be unsatisfiable.
                solver.assert(Bool::or(&[
                    q.eq(Int::from_i64(want_q)).not(),
                    r.eq(Int::from_i64(want_r)).not(),
                ]));
                assert_eq!(solver.check(), SatResult::Unsat, "{x} // {y}");
                solver.pop(1);
            }
        }
    }

    #[test]
    fn division_by_a_constant_follows_python() {
        let solver = Solver::new();
        let mut syms = Symbols::default();
        let a = DimExpr::sym("a");
        let za = syms.var(&Arc::from("a"));
        for c in [-3i64, -2, -1, 1, 2, 7] {
            let k = DimExpr::constant(c);
            let q = dim(&a.floordiv(&k), &mut syms);
            let r = dim(&a.modulo(&k), &mut syms);
            for x in -9..=9 {
                solver.push();
                solver.assert(za.eq(Int::from_i64(x)));
                solver.assert(Bool::or(&[
                    q.eq(Int::from_i64(py_floordiv(x, c).unwrap())).not(),
                    r.eq(Int::from_i64(py_mod(x, c).unwrap())).not(),
                ]));
                assert_eq!(solver.check(), SatResult::Unsat, "{x} // {c}");
                solver.pop(1);
            }
        }
    }

    #[test]
    fn requirements_translate() {
        let solver = Solver::new();
        let mut syms = Symbols::default();
        let n = DimExpr::sym("n");
        // n*4 divisible by 8 with n odd is impossible.
        let p = Pred::And(vec![
            Pred::Divides(DimExpr::constant(8), n.mul_const(4)),
            Pred::Eq(n.modulo(&DimExpr::constant(2)), DimExpr::one()),
        ]);
        solver.assert(pred(&p, &mut syms));
        assert_eq!(solver.check(), SatResult::Unsat);
    }
}
