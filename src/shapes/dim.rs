//! Symbolic dimensions: integer expressions in a canonical normal form.
//!
//! A [`DimExpr`] is a polynomial with integer coefficients over *atoms*: named symbols and
//! opaque terms (`a // b`, `a % b`, `min`, `max`) whose arguments are themselves normal forms.
//! Monomials are sorted maps atom → exponent and the polynomial a sorted map monomial →
//! coefficient without zero entries, so equal expressions are structurally equal
//! (`2*(a+b)` and `2*a + 2*b` build the same value) and cheap decisions (`a + 1 == a` is false,
//! `4 == 2*2` is true) need no solver. Floor division and modulo follow Python (the result of
//! `%` has the sign of the divisor); conversion to Z3 keeps those semantics.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

/// An indivisible part of a monomial.
#[derive(
    Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum Atom {
    Sym(Arc<str>),
    FloorDiv(Box<DimExpr>, Box<DimExpr>),
    Mod(Box<DimExpr>, Box<DimExpr>),
    Min(Box<DimExpr>, Box<DimExpr>),
    Max(Box<DimExpr>, Box<DimExpr>),
}

/// A product of atoms with exponents, sorted by atom. The empty monomial is the constant 1.
pub type Monomial = Vec<(Atom, u32)>;

/// A polynomial in normal form: a constant plus monomials (sorted, non-empty, with non-zero
/// coefficients). Constants need no allocation, which keeps concrete evaluation cheap.
#[derive(
    Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub struct DimExpr {
    c: i64,
    poly: Terms,
}

/// A polynomial's monomials with their coefficients, shared: shapes are copied far more
/// often than computed (every read of a variable holding a tensor copies its dims), so a
/// copy is a reference count, and a constant's empty list no allocation at all.
#[derive(
    Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default, serde::Serialize, serde::Deserialize,
)]
struct Terms(Option<Arc<Vec<(Monomial, i64)>>>);

impl std::ops::Deref for Terms {
    type Target = [(Monomial, i64)];
    fn deref(&self) -> &Self::Target {
        self.0.as_deref().map_or(&[], Vec::as_slice)
    }
}

impl From<Vec<(Monomial, i64)>> for Terms {
    /// Never an empty list behind the pointer, so that equal polynomials are equal values.
    fn from(terms: Vec<(Monomial, i64)>) -> Terms {
        Terms((!terms.is_empty()).then(|| Arc::new(terms)))
    }
}

impl FromIterator<(Monomial, i64)> for Terms {
    fn from_iter<I: IntoIterator<Item = (Monomial, i64)>>(iter: I) -> Terms {
        Terms::from(iter.into_iter().collect::<Vec<_>>())
    }
}

static EMPTY_MONOMIAL: Monomial = Vec::new();

/// Bounds on what is kept exactly. Past them (a product of many sums, an overflowing
/// coefficient or constant) a result is an *opaque* symbol named after a digest of the
/// operation and its operands: nothing is assumed about its value, so it never makes a
/// finding, and the same operation on the same operands is the same symbol. They also bound
/// the solver's input: Z3's nonlinear preprocessing does not stop at its timeout.
const MAX_MAGNITUDE: i64 = 1 << 62;
const MAX_POLY_TERMS: usize = 256;
const MAX_DEGREE: u32 = 24;

/// The prefix of opaque symbols' names.
pub const OPAQUE_PREFIX: &str = "#";

fn too_big(c: i64) -> bool {
    !(-MAX_MAGNITUDE < c && c < MAX_MAGNITUDE)
}

/// Adds `coeff * m` into a sorted term list.
fn accumulate(poly: &mut Vec<(Monomial, i64)>, m: Monomial, coeff: i64) {
    match poly.binary_search_by(|(k, _)| k.cmp(&m)) {
        Ok(i) => {
            poly[i].1 = poly[i].1.saturating_add(coeff);
            if poly[i].1 == 0 {
                poly.remove(i);
            }
        }
        Err(i) => {
            if coeff != 0 {
                poly.insert(i, (m, coeff));
            }
        }
    }
}

/// `(c * m) / (dc * dm)` when both the coefficient and the monomial divide.
fn divide_term(m: &Monomial, c: i64, dm: &Monomial, dc: i64) -> Option<(Monomial, i64)> {
    if dc == 0 || c % dc != 0 {
        return None;
    }
    let mut rest: BTreeMap<Atom, u32> = m.iter().cloned().collect();
    for (a, e) in dm {
        let have = rest.get_mut(a)?;
        if *have < *e {
            return None;
        }
        *have -= e;
        if *have == 0 {
            rest.remove(a);
        }
    }
    Some((rest.into_iter().collect(), c / dc))
}

/// Graded lexicographic order on monomials (total degree, then the exponent of the first
/// atom where they differ): a monomial order, so leading terms multiply.
fn graded_lex(a: &Monomial, b: &Monomial) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    let degree = |m: &Monomial| m.iter().map(|(_, e)| u64::from(*e)).sum::<u64>();
    degree(a).cmp(&degree(b)).then_with(|| {
        let (mut i, mut j) = (0, 0);
        while i < a.len() && j < b.len() {
            match a[i].0.cmp(&b[j].0) {
                Ordering::Equal if a[i].1 == b[j].1 => (i, j) = (i + 1, j + 1),
                Ordering::Equal => return a[i].1.cmp(&b[j].1),
                // The smaller atom appears only in one of them: that one is greater.
                Ordering::Less => return Ordering::Greater,
                Ordering::Greater => return Ordering::Less,
            }
        }
        (a.len() - i).cmp(&(b.len() - j))
    })
}

/// Merges two sorted term lists, `a + sign*b`.
fn merge(a: &[(Monomial, i64)], b: &[(Monomial, i64)], sign: i64) -> Vec<(Monomial, i64)> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        let ord = match (a.get(i), b.get(j)) {
            (Some(x), Some(y)) => x.0.cmp(&y.0),
            (Some(_), None) => std::cmp::Ordering::Less,
            _ => std::cmp::Ordering::Greater,
        };
        match ord {
            std::cmp::Ordering::Less => {
                out.push(a[i].clone());
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push((b[j].0.clone(), sign.saturating_mul(b[j].1)));
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                let c = a[i].1.saturating_add(sign.saturating_mul(b[j].1));
                if c != 0 {
                    out.push((a[i].0.clone(), c));
                }
                i += 1;
                j += 1;
            }
        }
    }
    out
}

fn mul_monomials(a: &Monomial, b: &Monomial) -> Monomial {
    let mut out: Monomial = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        match (a.get(i), b.get(j)) {
            (Some(x), Some(y)) if x.0 == y.0 => {
                out.push((x.0.clone(), x.1 + y.1));
                i += 1;
                j += 1;
            }
            (Some(x), Some(y)) if x.0 < y.0 => {
                out.push(x.clone());
                i += 1;
            }
            (Some(x), None) => {
                out.push(x.clone());
                i += 1;
            }
            (_, Some(y)) => {
                out.push(y.clone());
                j += 1;
            }
            (None, None) => break,
        }
    }
    out
}

/// Python's `//` on integers. `None` when dividing by zero.
pub fn py_floordiv(a: i64, b: i64) -> Option<i64> {
    if b == 0 {
        return None;
    }
    let q = a.checked_div(b)?;
    Some(if (a % b != 0) && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    })
}

/// Python's `%` on integers (sign of the divisor). `None` when dividing by zero.
pub fn py_mod(a: i64, b: i64) -> Option<i64> {
    Some(a - b.checked_mul(py_floordiv(a, b)?)?)
}

impl DimExpr {
    pub fn constant(c: i64) -> DimExpr {
        if too_big(c) {
            return DimExpr::opaque("const", &c);
        }
        DimExpr {
            c,
            poly: Terms::default(),
        }
    }

    /// A value kept opaque (see [`MAX_POLY_TERMS`]), named by a digest of how it was made.
    fn opaque(op: &str, operands: &impl std::hash::Hash) -> DimExpr {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (op, operands).hash(&mut h);
        DimExpr::sym(&format!("{OPAQUE_PREFIX}{op}{:016x}", h.finish()))
    }

    /// The result of `op` on `operands`, or an opaque symbol when it is past the bounds.
    fn settle(self, op: &str, operands: &impl std::hash::Hash) -> DimExpr {
        if self.poly.len() > MAX_POLY_TERMS
            || too_big(self.c)
            || self.poly.iter().any(|(_, c)| too_big(*c))
        {
            return DimExpr::opaque(op, operands);
        }
        self
    }

    pub fn zero() -> DimExpr {
        DimExpr::constant(0)
    }

    pub fn one() -> DimExpr {
        DimExpr::constant(1)
    }

    pub fn sym(name: &str) -> DimExpr {
        DimExpr::atom(Atom::Sym(Arc::from(name)))
    }

    fn atom(atom: Atom) -> DimExpr {
        DimExpr {
            c: 0,
            poly: Terms::from(vec![(vec![(atom, 1)], 1)]),
        }
    }

    /// The symbol's name when the expression is exactly one symbol.
    pub fn as_symbol(&self) -> Option<&Arc<str>> {
        match (self.c, &self.poly[..]) {
            (0, [(m, 1)]) => match &m[..] {
                [(Atom::Sym(name), 1)] => Some(name),
                _ => None,
            },
            _ => None,
        }
    }

    /// The value when the expression is a constant.
    pub fn as_const(&self) -> Option<i64> {
        self.poly.is_empty().then_some(self.c)
    }

    pub fn is_const(&self) -> bool {
        self.poly.is_empty()
    }

    /// The constant term.
    pub fn constant_part(&self) -> i64 {
        self.c
    }

    /// Every term, the constant (as the empty monomial) first when non-zero.
    fn all_terms(&self) -> impl Iterator<Item = (&Monomial, i64)> {
        std::iter::once((&EMPTY_MONOMIAL, self.c))
            .filter(|(_, c)| *c != 0)
            .chain(self.poly.iter().map(|(m, c)| (m, *c)))
    }

    pub fn add(&self, other: &DimExpr) -> DimExpr {
        let c = self.c.saturating_add(other.c);
        let sum = if other.poly.is_empty() {
            DimExpr {
                c,
                poly: self.poly.clone(),
            }
        } else if self.poly.is_empty() {
            DimExpr {
                c,
                poly: other.poly.clone(),
            }
        } else {
            DimExpr {
                c,
                poly: merge(&self.poly, &other.poly, 1).into(),
            }
        };
        sum.settle("add", &(self, other))
    }

    pub fn neg(&self) -> DimExpr {
        // Settled values are below `MAX_MAGNITUDE`: negation cannot overflow.
        DimExpr {
            c: self.c.wrapping_neg(),
            poly: self
                .poly
                .iter()
                .map(|(m, c)| (m.clone(), c.wrapping_neg()))
                .collect(),
        }
    }

    pub fn sub(&self, other: &DimExpr) -> DimExpr {
        let c = self.c.saturating_sub(other.c);
        let difference = if other.poly.is_empty() {
            DimExpr {
                c,
                poly: self.poly.clone(),
            }
        } else {
            DimExpr {
                c,
                poly: merge(&self.poly, &other.poly, -1).into(),
            }
        };
        difference.settle("sub", &(self, other))
    }

    pub fn add_const(&self, c: i64) -> DimExpr {
        DimExpr {
            c: self.c.saturating_add(c),
            poly: self.poly.clone(),
        }
        .settle("add", &(self, c))
    }

    pub fn mul_const(&self, k: i64) -> DimExpr {
        if k == 0 {
            return DimExpr::zero();
        }
        DimExpr {
            c: self.c.saturating_mul(k),
            poly: self
                .poly
                .iter()
                .map(|(m, c)| (m.clone(), c.saturating_mul(k)))
                .collect(),
        }
        .settle("mul", &(self, k))
    }

    pub fn mul(&self, other: &DimExpr) -> DimExpr {
        if let Some(k) = other.as_const() {
            return self.mul_const(k);
        }
        if let Some(k) = self.as_const() {
            return other.mul_const(k);
        }
        let mut terms: BTreeMap<Monomial, i64> = BTreeMap::new();
        let mut c = 0i64;
        for (ma, ca) in self.all_terms() {
            for (mb, cb) in other.all_terms() {
                let coeff = ca.saturating_mul(cb);
                if ma.is_empty() && mb.is_empty() {
                    c = c.saturating_add(coeff);
                } else {
                    let term = terms.entry(mul_monomials(ma, mb)).or_insert(0);
                    *term = term.saturating_add(coeff);
                }
            }
        }
        let degree = |m: &Monomial| m.iter().map(|(_, e)| *e).sum::<u32>();
        if terms.keys().any(|m| degree(m) > MAX_DEGREE) {
            return DimExpr::opaque("mul", &(self, other));
        }
        DimExpr {
            c,
            poly: terms.into_iter().filter(|(_, k)| *k != 0).collect(),
        }
        .settle("mul", &(self, other))
    }

    /// Product of several expressions (1 for none).
    pub fn product<'a>(items: impl IntoIterator<Item = &'a DimExpr>) -> DimExpr {
        items.into_iter().fold(DimExpr::one(), |acc, d| acc.mul(d))
    }

    /// Exact division, when every term divides: by a non-zero constant that divides every
    /// coefficient, by a single monomial (with coefficient) that divides every term, or by a
    /// polynomial that leaves no remainder (`384*b*(h*w + h + w + 1)` by
    /// `32*b*(h*w + h + w + 1)` is 12: reshape's `-1` of an expanded product).
    fn exact_div(&self, divisor: &DimExpr) -> Option<DimExpr> {
        if let Some(d) = divisor.as_const() {
            if d == 0 || self.c % d != 0 || self.poly.iter().any(|(_, c)| c % d != 0) {
                return None;
            }
            return Some(DimExpr {
                c: self.c / d,
                poly: self.poly.iter().map(|(m, c)| (m.clone(), c / d)).collect(),
            });
        }
        if divisor.c == 0 && divisor.poly.len() == 1 {
            if self.c != 0 {
                return None;
            }
            let (dm, dc) = &divisor.poly[0];
            let (mut c, mut poly) = (0i64, Vec::new());
            for (m, k) in self.poly.iter() {
                let (rest, q) = divide_term(m, *k, dm, *dc)?;
                if rest.is_empty() {
                    c = c.saturating_add(q);
                } else {
                    accumulate(&mut poly, rest, q);
                }
            }
            return Some(DimExpr {
                c,
                poly: poly.into(),
            });
        }
        // Polynomial long division under a monomial order: exact division leaves no
        // remainder. Large expansions are left alone (cost).
        const MAX_TERMS: usize = 32;
        if self.poly.len() > MAX_TERMS || divisor.poly.len() > MAX_TERMS {
            return None;
        }
        let leading = |e: &DimExpr| -> Option<(Monomial, i64)> {
            e.all_terms()
                .max_by(|(a, _), (b, _)| graded_lex(a, b))
                .map(|(m, c)| (m.clone(), c))
        };
        let (dm, dc) = leading(divisor)?;
        let mut rest = self.clone();
        let mut quotient = DimExpr::zero();
        for _ in 0..=2 * MAX_TERMS {
            let Some((m, c)) = leading(&rest) else {
                return Some(quotient);
            };
            let (qm, qc) = divide_term(&m, c, &dm, dc)?;
            let t = DimExpr::term(qm, qc);
            rest = rest.sub(&divisor.mul(&t));
            quotient = quotient.add(&t);
        }
        None
    }

    /// `coeff * m` as an expression.
    fn term(m: Monomial, coeff: i64) -> DimExpr {
        if m.is_empty() || coeff == 0 {
            DimExpr::constant(if m.is_empty() { coeff } else { 0 })
        } else {
            DimExpr {
                c: 0,
                poly: Terms::from(vec![(m, coeff)]),
            }
        }
    }

    /// Python floor division. Simplified when constant, when the divisor divides every term
    /// exactly (`(a*b)//b = a`, `(4a+2)//2 = 2a+1`; a zero divisor is an error the caller
    /// requires away), and for nested positive constant divisors.
    pub fn floordiv(&self, divisor: &DimExpr) -> DimExpr {
        if let (Some(a), Some(b)) = (self.as_const(), divisor.as_const()) {
            if let Some(q) = py_floordiv(a, b) {
                return DimExpr::constant(q);
            }
        }
        if divisor.as_const() == Some(1) {
            return self.clone();
        }
        if self.as_const() == Some(0) && divisor.as_const() != Some(0) {
            return DimExpr::zero();
        }
        if divisor.as_const() != Some(0) {
            if let Some(q) = self.exact_div(divisor) {
                return q;
            }
        }
        // (q*c + r) // c = q + r // c for a constant c: the conv output `(h - 16) // 16 + 1`
        // is `h // 16`, and a remainder's constant is normalised into `[0, c)`.
        if let Some((q, r)) = divisor.as_const().and_then(|c| self.split_multiple(c)) {
            return q.add(&r.floordiv(divisor));
        }
        // (a // b) // c = a // (b*c) for positive constants b, c.
        if let (Some(c), Some((Atom::FloorDiv(inner, b), 1))) =
            (divisor.as_const(), self.single_atom())
        {
            if let Some(bc) = b.as_const() {
                if let Some(bc) = bc.checked_mul(c).filter(|_| c > 0 && bc > 0) {
                    return inner.floordiv(&DimExpr::constant(bc));
                }
            }
        }
        DimExpr::atom(Atom::FloorDiv(
            Box::new(self.clone()),
            Box::new(divisor.clone()),
        ))
    }

    /// `self = q*c + r` where `q*c` gathers the terms whose coefficients `c` divides and the
    /// multiple of `c` in the constant (Python's floor division of it, so `r`'s constant is
    /// in `[0, c)` for a positive `c`); `None` when `q` would be zero or `r` has a negative
    /// term.
    fn split_multiple(&self, c: i64) -> Option<(DimExpr, DimExpr)> {
        if c == 0 || self.is_const() {
            return None;
        }
        let qc = py_floordiv(self.c, c)?;
        let mut q = DimExpr::constant(qc);
        let mut r = DimExpr::constant(self.c - qc * c);
        for (m, k) in self.poly.iter() {
            if k % c == 0 {
                q = q.add(&DimExpr::term(m.clone(), k / c));
            } else {
                r = r.add(&DimExpr::term(m.clone(), *k));
            }
        }
        // A remainder with a negative term (`(64 - s % 64) % 64` would become `(-(s % 64)) %
        // 64`) is no simpler, and Z3 finds such forms much harder: left as it is.
        let negative = r.poly.iter().any(|(_, k)| *k < 0);
        (q.as_const() != Some(0) && !negative).then_some((q, r))
    }

    /// Python modulo.
    pub fn modulo(&self, divisor: &DimExpr) -> DimExpr {
        if let (Some(a), Some(b)) = (self.as_const(), divisor.as_const()) {
            if let Some(r) = py_mod(a, b) {
                return DimExpr::constant(r);
            }
        }
        // (q*c + r) % c = r % c.
        if let Some((_, r)) = divisor.as_const().and_then(|c| self.split_multiple(c)) {
            return r.modulo(divisor);
        }
        if divisor.as_const() == Some(1) || divisor.as_const() == Some(-1) {
            return DimExpr::zero();
        }
        if divisor.as_const() != Some(0) && self.exact_div(divisor).is_some() {
            return DimExpr::zero();
        }
        DimExpr::atom(Atom::Mod(Box::new(self.clone()), Box::new(divisor.clone())))
    }

    pub fn minimum(&self, other: &DimExpr) -> DimExpr {
        self.extremum(other, false)
    }

    pub fn maximum(&self, other: &DimExpr) -> DimExpr {
        self.extremum(other, true)
    }

    /// `min`/`max`: decided when the difference is a constant, otherwise an atom whose
    /// arguments are ordered so that `min(a, b)` and `min(b, a)` are the same normal form.
    fn extremum(&self, other: &DimExpr, max: bool) -> DimExpr {
        if let Some(d) = self.sub(other).as_const() {
            let self_wins = if max { d >= 0 } else { d <= 0 };
            return if self_wins {
                self.clone()
            } else {
                other.clone()
            };
        }
        let (a, b) = if self <= other {
            (self, other)
        } else {
            (other, self)
        };
        let (a, b) = (Box::new(a.clone()), Box::new(b.clone()));
        DimExpr::atom(if max {
            Atom::Max(a, b)
        } else {
            Atom::Min(a, b)
        })
    }

    fn single_atom(&self) -> Option<(&Atom, u32)> {
        if self.c != 0 || self.poly.len() != 1 {
            return None;
        }
        let (m, c) = &self.poly[0];
        if *c != 1 || m.len() != 1 {
            return None;
        }
        Some((&m[0].0, m[0].1))
    }

    /// Cheap equality decision: `Some(true)` when the normal forms are equal, `Some(false)`
    /// when they differ by a non-zero constant, `None` otherwise.
    pub fn decide_eq(&self, other: &DimExpr) -> Option<bool> {
        let d = self.sub(other);
        match d.as_const() {
            Some(0) => Some(true),
            Some(_) => Some(false),
            None => None,
        }
    }

    /// Cheap decision of `self <= other`: by a constant difference, or when `other - self`
    /// has only non-negative coefficients over atoms known to be non-negative.
    pub fn decide_le(&self, other: &DimExpr) -> Option<bool> {
        let d = other.sub(self);
        if let Some(c) = d.as_const() {
            return Some(c >= 0);
        }
        if nonneg_poly(&d) {
            return Some(true);
        }
        None
    }

    /// Bounds on the value for any non-negative symbols (`None`: unbounded that way), from
    /// the ranges of its atoms: a remainder by a positive constant lies in `[0, c)` whatever
    /// it divides, so `(n % 250) - 250` is negative for every `n`.
    pub fn interval(&self) -> (Option<i64>, Option<i64>) {
        let mut lo = Some(self.c);
        let mut hi = Some(self.c);
        for (m, c) in self.poly.iter() {
            let (m_lo, m_hi) = monomial_interval(m);
            let (t_lo, t_hi) = match *c > 0 {
                true => (
                    m_lo.map(|l| l.checked_mul(*c)),
                    m_hi.map(|h| h.checked_mul(*c)),
                ),
                false => (
                    m_hi.map(|h| h.checked_mul(*c)),
                    m_lo.map(|l| l.checked_mul(*c)),
                ),
            };
            lo = lo.zip(t_lo.flatten()).and_then(|(a, b)| a.checked_add(b));
            hi = hi.zip(t_hi.flatten()).and_then(|(a, b)| a.checked_add(b));
        }
        (lo, hi)
    }

    /// Evaluates with concrete symbol values. `None` when a symbol is unbound, on a division
    /// by zero, or on overflow.
    pub fn eval(&self, env: &dyn Fn(&str) -> Option<i64>) -> Option<i64> {
        let mut total: i64 = 0;
        for (m, c) in self.all_terms() {
            let mut v: i64 = c;
            for (atom, e) in m {
                let a = eval_atom(atom, env)?;
                for _ in 0..*e {
                    v = v.checked_mul(a)?;
                }
            }
            total = total.checked_add(v)?;
        }
        Some(total)
    }

    /// Replaces symbols by expressions.
    pub fn substitute(&self, map: &dyn Fn(&str) -> Option<DimExpr>) -> DimExpr {
        let mut out = DimExpr::zero();
        for (m, c) in self.all_terms() {
            let mut term = DimExpr::constant(c);
            for (atom, e) in m {
                let a = subst_atom(atom, map);
                for _ in 0..*e {
                    term = term.mul(&a);
                }
            }
            out = out.add(&term);
        }
        out
    }

    /// Names of the symbols, sorted, without duplicates.
    pub fn symbols(&self) -> Vec<Arc<str>> {
        let mut out = Vec::new();
        self.collect_symbols(&mut out);
        out.sort();
        out.dedup();
        out
    }

    fn collect_symbols(&self, out: &mut Vec<Arc<str>>) {
        self.visit_symbols(&mut |s| out.push(s.clone()));
    }

    /// Every occurrence of a symbol, in place (the same name may be held by several `Arc`s).
    pub fn visit_symbols(&self, f: &mut dyn FnMut(&Arc<str>)) {
        for (m, _) in self.poly.iter() {
            for (atom, _) in m {
                match atom {
                    Atom::Sym(s) => f(s),
                    Atom::FloorDiv(a, b) | Atom::Mod(a, b) | Atom::Min(a, b) | Atom::Max(a, b) => {
                        a.visit_symbols(f);
                        b.visit_symbols(f);
                    }
                }
            }
        }
    }

    /// Number of nodes, a cost measure for job sizing.
    pub fn size(&self) -> usize {
        self.all_terms()
            .map(|(m, _)| {
                1 + m
                    .iter()
                    .map(|(a, _)| match a {
                        Atom::Sym(_) => 1,
                        Atom::FloorDiv(x, y)
                        | Atom::Mod(x, y)
                        | Atom::Min(x, y)
                        | Atom::Max(x, y) => 1 + x.size() + y.size(),
                    })
                    .sum::<usize>()
            })
            .sum()
    }

    /// Whether a remainder of a symbolic term appears (`(64 - s % 64) % 64`): the
    /// arithmetic of chunked and padded lengths, which Z3 decides slowly.
    pub fn has_symbolic_modulo(&self) -> bool {
        self.all_terms().any(|(m, _)| {
            m.iter().any(|(a, _)| match a {
                Atom::Sym(_) => false,
                Atom::Mod(x, y) => !x.is_const() || !y.is_const(),
                Atom::FloorDiv(x, y) | Atom::Min(x, y) | Atom::Max(x, y) => {
                    x.has_symbolic_modulo() || y.has_symbolic_modulo()
                }
            })
        })
    }

    /// The terms, for conversion to other representations (Z3).
    pub fn terms(&self) -> impl Iterator<Item = (&Monomial, i64)> {
        self.all_terms()
    }
}

/// Symbols are dimensions (≥ 0); floor division and modulo of non-negative terms by positive
/// ones are non-negative; min/max of non-negative terms are non-negative.
/// Only non-negative coefficients over non-negative atoms (so the value is ≥ 0).
fn nonneg_poly(e: &DimExpr) -> bool {
    e.c >= 0
        && e.poly
            .iter()
            .all(|(m, c)| *c >= 0 && m.iter().all(|(a, _)| atom_nonneg(a)))
}

fn atom_nonneg(atom: &Atom) -> bool {
    let nonneg = nonneg_poly;
    match atom {
        Atom::Sym(_) => true,
        Atom::FloorDiv(a, b) | Atom::Mod(a, b) => nonneg(a) && b.as_const().is_some_and(|c| c > 0),
        Atom::Min(a, b) | Atom::Max(a, b) => nonneg(a) && nonneg(b),
    }
}

/// Bounds of a product of atoms (see [`DimExpr::interval`]); unbounded unless every atom
/// is non-negative.
fn monomial_interval(m: &Monomial) -> (Option<i64>, Option<i64>) {
    let mut lo = Some(1i64);
    let mut hi = Some(1i64);
    for (atom, e) in m {
        let (a_lo, a_hi) = atom_interval(atom);
        let Some(a_lo) = a_lo.filter(|l| *l >= 0) else {
            return (None, None);
        };
        for _ in 0..*e {
            lo = lo.and_then(|l| l.checked_mul(a_lo));
            hi = hi.zip(a_hi).and_then(|(h, a)| h.checked_mul(a));
        }
    }
    (lo, hi)
}

fn atom_interval(atom: &Atom) -> (Option<i64>, Option<i64>) {
    match atom {
        Atom::Sym(_) => (Some(0), None),
        Atom::Mod(_, b) => match b.as_const() {
            Some(c) if c > 0 => (Some(0), Some(c - 1)),
            _ => (None, None),
        },
        Atom::FloorDiv(a, b) => match (a.interval(), b.as_const()) {
            ((Some(lo), hi), Some(c)) if lo >= 0 && c > 0 => (Some(lo / c), hi.map(|h| h / c)),
            _ => (None, None),
        },
        Atom::Min(a, b) => {
            let ((a_lo, a_hi), (b_lo, b_hi)) = (a.interval(), b.interval());
            let hi = match (a_hi, b_hi) {
                (Some(x), Some(y)) => Some(x.min(y)),
                (x, y) => x.or(y),
            };
            (a_lo.zip(b_lo).map(|(x, y)| x.min(y)), hi)
        }
        Atom::Max(a, b) => {
            let ((a_lo, a_hi), (b_lo, b_hi)) = (a.interval(), b.interval());
            let lo = match (a_lo, b_lo) {
                (Some(x), Some(y)) => Some(x.max(y)),
                (x, y) => x.or(y),
            };
            (lo, a_hi.zip(b_hi).map(|(x, y)| x.max(y)))
        }
    }
}

fn eval_atom(atom: &Atom, env: &dyn Fn(&str) -> Option<i64>) -> Option<i64> {
    match atom {
        Atom::Sym(s) => env(s),
        Atom::FloorDiv(a, b) => py_floordiv(a.eval(env)?, b.eval(env)?),
        Atom::Mod(a, b) => py_mod(a.eval(env)?, b.eval(env)?),
        Atom::Min(a, b) => Some(a.eval(env)?.min(b.eval(env)?)),
        Atom::Max(a, b) => Some(a.eval(env)?.max(b.eval(env)?)),
    }
}

fn subst_atom(atom: &Atom, map: &dyn Fn(&str) -> Option<DimExpr>) -> DimExpr {
    match atom {
        Atom::Sym(s) => map(s).unwrap_or_else(|| DimExpr::atom(atom.clone())),
        Atom::FloorDiv(a, b) => a.substitute(map).floordiv(&b.substitute(map)),
        Atom::Mod(a, b) => a.substitute(map).modulo(&b.substitute(map)),
        Atom::Min(a, b) => a.substitute(map).minimum(&b.substitute(map)),
        Atom::Max(a, b) => a.substitute(map).maximum(&b.substitute(map)),
    }
}

impl From<i64> for DimExpr {
    fn from(c: i64) -> Self {
        DimExpr::constant(c)
    }
}

/// An operand of `//` or `%`, parenthesised unless it is a single atom or constant.
fn operand(e: &DimExpr) -> String {
    let simple = e.poly.is_empty()
        || (e.c == 0
            && e.poly.len() == 1
            && e.poly[0].1 == 1
            && e.poly[0].0.len() == 1
            && e.poly[0].0[0].1 == 1);
    if simple {
        e.to_string()
    } else {
        format!("({e})")
    }
}

impl fmt::Display for Atom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Atom::Sym(s) => write!(f, "{s}"),
            Atom::FloorDiv(a, b) => write!(f, "({} // {})", operand(a), operand(b)),
            Atom::Mod(a, b) => write!(f, "({} % {})", operand(a), operand(b)),
            Atom::Min(a, b) => write!(f, "min({a}, {b})"),
            Atom::Max(a, b) => write!(f, "max({a}, {b})"),
        }
    }
}

impl fmt::Display for DimExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.c == 0 && self.poly.is_empty() {
            return write!(f, "0");
        }
        // Highest-degree terms first, the constant last: `2*a*b + c - 3`.
        let mut terms: Vec<(&Monomial, i64)> = self.all_terms().collect();
        terms.sort_by_key(|(m, _)| std::cmp::Reverse(m.iter().map(|(_, e)| *e).sum::<u32>()));
        for (i, (m, c)) in terms.iter().enumerate() {
            let (sign, abs) = if *c < 0 { ("-", -c) } else { ("+", *c) };
            if i == 0 {
                if sign == "-" {
                    write!(f, "-")?;
                }
            } else {
                write!(f, " {sign} ")?;
            }
            if m.is_empty() {
                write!(f, "{abs}")?;
                continue;
            }
            if abs != 1 {
                write!(f, "{abs}*")?;
            }
            for (j, (atom, e)) in m.iter().enumerate() {
                if j > 0 {
                    write!(f, "*")?;
                }
                write!(f, "{atom}")?;
                if *e > 1 {
                    write!(f, "^{e}")?;
                }
            }
        }
        Ok(())
    }
}

impl fmt::Debug for DimExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

#[cfg(test)]
#[path = "dim_tests.rs"]
mod tests;
