//! Sign-aware simplification before Z3. Input dims are positive (a fact of every unit
//! run), which settles much of what rules ask of products: `2*a*b != 0` holds, and
//! `2*a*b divides a*b*c` is `2 divides c`. Nonlinear divisibility is where Z3 is slowest, so
//! cancelling common factors first keeps jobs fast.

use rustc_hash::FxHashSet as HashSet;
use std::collections::BTreeMap;
use std::sync::Arc;

use crate::shapes::dim::{Atom, Monomial};
use crate::shapes::{DimExpr, Pred};

/// The symbols the facts say are at least 1.
pub fn positive_symbols(facts: &[crate::eval::trace::Fact]) -> HashSet<Arc<str>> {
    facts
        .iter()
        .filter_map(|f| lower_bounded(&f.pred))
        .collect()
}

/// The symbol `p` says is at least 1 (`1 <= s`, `3 <= s`), if that is what it says.
fn lower_bounded(p: &Pred) -> Option<Arc<str>> {
    match p {
        Pred::Le(lo, x) if lo.as_const().is_some_and(|c| c >= 1) => single_symbol(x),
        _ => None,
    }
}

/// Constraints asserted together, simplified with the positivity their own bounds state
/// (the bounds themselves kept as they are, so what they settle stays asserted): Z3 gets
/// `n*k == n*m*k` as `1 == m`, which it decides at once, where the product defeats it.
pub fn simplify_together(preds: &[&Pred]) -> Vec<Pred> {
    let positive: HashSet<Arc<str>> = preds.iter().filter_map(|p| lower_bounded(p)).collect();
    preds
        .iter()
        .map(|p| match lower_bounded(p) {
            Some(_) => (*p).clone(),
            None => simplify(p, &positive),
        })
        .collect()
}

fn single_symbol(x: &DimExpr) -> Option<Arc<str>> {
    let mut terms = x.terms();
    let (m, k) = terms.next()?;
    if terms.next().is_some() || k != 1 || x.constant_part() != 0 {
        return None;
    }
    match m.as_slice() {
        [(Atom::Sym(s), 1)] => Some(s.clone()),
        _ => None,
    }
}

/// Simplifies `p` knowing the `positive` symbols are at least 1.
pub fn simplify(p: &Pred, positive: &HashSet<Arc<str>>) -> Pred {
    match p {
        Pred::Ne(a, b) | Pred::Lt(b, a) if at_least_one(&a.sub(b), positive) => Pred::always(),
        Pred::Le(lo, x) if at_least_one(&x.sub(lo).add_const(1), positive) => Pred::always(),
        Pred::Eq(a, b)
            if at_least_one(&a.sub(b), positive) || at_least_one(&b.sub(a), positive) =>
        {
            never()
        }
        // A factor every term shares and that is positive cancels from both sides: it
        // neither changes divisibility nor an order or (in)equality.
        Pred::Divides(a, b) => cancelled(Pred::Divides, a, b, positive),
        Pred::Eq(a, b) => cancelled(Pred::Eq, a, b, positive),
        Pred::Ne(a, b) => cancelled(Pred::Ne, a, b, positive),
        Pred::Le(a, b) => cancelled(Pred::Le, a, b, positive),
        Pred::Lt(a, b) => cancelled(Pred::Lt, a, b, positive),
        Pred::And(ps) => junction(ps, positive, true),
        Pred::Or(ps) => junction(ps, positive, false),
        Pred::Not(q) => match simplify(q, positive) {
            q if q.decide() == Some(true) => never(),
            q if q.decide() == Some(false) => Pred::always(),
            q => Pred::Not(Box::new(q)),
        },
    }
}

/// `relation(a, b)` with their common positive factor cancelled, decided when it can be.
fn cancelled(
    relation: fn(DimExpr, DimExpr) -> Pred,
    a: &DimExpr,
    b: &DimExpr,
    positive: &HashSet<Arc<str>>,
) -> Pred {
    let (a2, b2) = cancel_common(a, b, positive);
    let changed = (&a2, &b2) != (a, b);
    let q = relation(a2, b2);
    if changed {
        // What the signs settle may show only once the factor is gone (`k*a < k*(a + 1)`).
        return simplify(&q, positive);
    }
    match q.decide() {
        Some(true) => Pred::always(),
        Some(false) => never(),
        None => q,
    }
}

fn never() -> Pred {
    Pred::Lt(DimExpr::zero(), DimExpr::zero())
}

/// Whether `x >= 1` follows from the symbols' positivity: a non-negative constant plus
/// terms with non-negative coefficients over positive symbols, one of them (or the constant)
/// at least 1.
fn at_least_one(x: &DimExpr, positive: &HashSet<Arc<str>>) -> bool {
    let c = x.constant_part();
    if c < 0 {
        return false;
    }
    let mut some = c >= 1;
    for (m, k) in x.terms() {
        if k < 0 || !m.iter().all(|(a, _)| is_positive(a, positive)) {
            return false;
        }
        some |= k >= 1;
    }
    some
}

fn is_positive(a: &Atom, positive: &HashSet<Arc<str>>) -> bool {
    matches!(a, Atom::Sym(s) if positive.contains(s))
}

/// Cancels the largest monomial of positive symbols dividing every term of `a` and `b`.
fn cancel_common(a: &DimExpr, b: &DimExpr, positive: &HashSet<Arc<str>>) -> (DimExpr, DimExpr) {
    if a.constant_part() != 0 || b.constant_part() != 0 {
        return (a.clone(), b.clone());
    }
    let mut common: Option<BTreeMap<Arc<str>, u32>> = None;
    for (m, _) in a.terms().chain(b.terms()) {
        let here: BTreeMap<Arc<str>, u32> = m
            .iter()
            .filter_map(|(atom, e)| match atom {
                Atom::Sym(s) if positive.contains(s) => Some((s.clone(), *e)),
                _ => None,
            })
            .collect();
        common = Some(match common {
            None => here,
            Some(c) => c
                .into_iter()
                .filter_map(|(s, e)| here.get(&s).map(|f| (s, e.min(*f))))
                .collect(),
        });
    }
    let Some(common) = common.filter(|c| !c.is_empty()) else {
        return (a.clone(), b.clone());
    };
    (divide(a, &common), divide(b, &common))
}

/// `x` with every term divided by the monomial `by` (which divides each of them).
fn divide(x: &DimExpr, by: &BTreeMap<Arc<str>, u32>) -> DimExpr {
    let mut out = DimExpr::constant(x.constant_part());
    for (m, k) in x.terms() {
        let reduced: Monomial = m
            .iter()
            .filter_map(|(atom, e)| {
                let cut = match atom {
                    Atom::Sym(s) => by.get(s).copied().unwrap_or(0),
                    _ => 0,
                };
                (*e > cut).then(|| (atom.clone(), e - cut))
            })
            .collect();
        out = out.add(&monomial_expr(&reduced).mul_const(k));
    }
    out
}

fn monomial_expr(m: &Monomial) -> DimExpr {
    let mut out = DimExpr::one();
    for (atom, e) in m {
        let a = atom_expr(atom);
        for _ in 0..*e {
            out = out.mul(&a);
        }
    }
    out
}

fn atom_expr(a: &Atom) -> DimExpr {
    match a {
        Atom::Sym(s) => DimExpr::sym(s),
        Atom::FloorDiv(x, y) => x.floordiv(y),
        Atom::Mod(x, y) => x.modulo(y),
        Atom::Min(x, y) => x.minimum(y),
        Atom::Max(x, y) => x.maximum(y),
    }
}

/// The symbols a predicate mentions (`Pred::symbols`), added to `out`.
pub fn pred_symbols(p: &Pred, out: &mut std::collections::BTreeSet<Arc<str>>) {
    out.extend(p.symbols());
}

/// Looks for a satisfying assignment by trying a few points (all ones, small constants,
/// deterministic pseudo-random sizes). Most jobs are satisfiable and one of these points
/// shows it without the solver; failing to find one proves nothing (each point is checked
/// against every predicate, so finding one proves satisfiability).
///
/// A point that fails is then repaired: an equality of a failing predicate gives symbols
/// the values that make it hold ([`Equation::solve`]: `c == 3` pins `c`; `n*k == h*w*c`
/// gives the `-1` of a `view` its size; a floor division's size is bisected; a product of
/// two window counts is split), each symbol once per point. A job that pins a channel count
/// while other sizes must be multiples of a window, or that joins branches into fresh
/// sizes, is satisfied by sizes no single value gives.
///
/// Symbols the predicates do not bound below by 1 (a loop index, an offset) are also tried
/// at 0: sizes never are, but `for i in range(n // 64)` on a 64-long input needs `i == 0`.
/// Those with no lower bound at all are zeroed first, alone: a size the analysis made up
/// (`joined`, bounded by 0) is rarely 0 where an index must be.
pub fn sample_model(preds: &[&Pred]) -> bool {
    let syms = Symbols::of(preds);
    let mut floors: Vec<Option<i64>> = vec![None; syms.len()];
    for (name, bound) in preds.iter().filter_map(|p| lower_bound(p)) {
        if let Some(i) = syms.index(name) {
            floors[i] = floors[i].max(Some(bound));
        }
    }
    let unbounded: Vec<usize> = (0..syms.len()).filter(|&i| floors[i].is_none()).collect();
    let zeroable: Vec<usize> = (0..syms.len())
        .filter(|&i| floors[i].is_none_or(|f| f <= 0))
        .collect();
    // Collected when a first point fails (most jobs hold at the first).
    let mut equalities: Option<Vec<Vec<(&DimExpr, &DimExpr)>>> = None;
    let mut holds_near = |mut values: Vec<i64>| {
        if holds_at(preds, &syms, &values) {
            return true;
        }
        let equalities = equalities.get_or_insert_with(|| {
            preds
                .iter()
                .map(|p| {
                    let mut out = Vec::new();
                    positive_equalities(p, &mut out);
                    out
                })
                .collect()
        });
        repair(preds, equalities, &syms, &mut values) && holds_at(preds, &syms, &values)
    };
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move |bound: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % bound
    };
    // Equal sizes everywhere satisfy broadcasting and most equalities; large ones satisfy
    // bounds (`index 7 < size`); sizes with many divisors (224 = 2^5·7, as images are;
    // 1680 = 2^4·3·5·7) satisfy windows and patches; random ones the rest.
    const EQUAL: [i64; 10] = [1, 2, 3, 4, 8, 16, 64, 512, 224, 1680];
    for round in 0..(EQUAL.len() * 2 + 6) {
        let values: Vec<i64> = syms
            .names
            .iter()
            .map(|s| {
                // Path choices are 0 (taken) or not.
                let path = s.starts_with("path");
                match round {
                    r if r < EQUAL.len() * 2 && path => (r / EQUAL.len()) as i64,
                    r if r < EQUAL.len() * 2 => EQUAL[r % EQUAL.len()],
                    _ if path => next(2) as i64,
                    r => 1 + next(if r % 2 == 0 { 8 } else { 64 }) as i64,
                }
            })
            .collect();
        let zeroed = |which: &[usize]| {
            let mut at_zero = values.clone();
            which.iter().for_each(|&i| at_zero[i] = 0);
            (at_zero != values).then_some(at_zero)
        };
        let (some_zero, all_zero) = (zeroed(&unbounded), zeroed(&zeroable));
        let all_zero = all_zero.filter(|v| Some(v) != some_zero.as_ref());
        if holds_near(values) {
            return true;
        }
        if [some_zero, all_zero]
            .into_iter()
            .flatten()
            .any(&mut holds_near)
        {
            return true;
        }
    }
    false
}

/// The symbol `p` bounds below and the bound (`c <= s`, `c < s`), if it states one.
fn lower_bound(p: &Pred) -> Option<(&Arc<str>, i64)> {
    match p {
        Pred::Le(a, b) => Some((b.as_symbol()?, a.as_const()?)),
        Pred::Lt(a, b) => Some((b.as_symbol()?, a.as_const()?.checked_add(1)?)),
        _ => None,
    }
}

/// Gives symbols of failing predicates the values their equalities ask for; whether any
/// value changed.
fn repair(
    preds: &[&Pred],
    equalities: &[Vec<(&DimExpr, &DimExpr)>],
    syms: &Symbols,
    values: &mut [i64],
) -> bool {
    let mut fixed = vec![false; syms.len()];
    let mut any = false;
    // A few passes let values flow along chains (`c == 3`, then `n == c*h`).
    for _ in 0..4 {
        let mut changed = false;
        for (p, eqs) in preds.iter().zip(equalities) {
            if eqs.is_empty() || holds_at(&[p], syms, values) {
                continue;
            }
            for (a, b) in eqs {
                let solved = Equation { a, b, syms }.solve(values, &fixed);
                if !solved.is_empty() {
                    for (i, v) in solved {
                        values[i] = v;
                        fixed[i] = true;
                    }
                    changed = true;
                    break;
                }
            }
        }
        any |= changed;
        if !changed {
            break;
        }
    }
    any
}

/// An equality `a == b` to satisfy by choosing values of symbols not yet fixed.
struct Equation<'e> {
    a: &'e DimExpr,
    b: &'e DimExpr,
    syms: &'e Symbols<'e>,
}

/// Above this, a size is not searched for (far past any real tensor's).
const LARGEST_SIZE: i64 = 1 << 24;

impl Equation<'_> {
    /// Values for symbols not yet `fixed` (positive, other than their current ones) that
    /// make the equality hold, or none. Sizes the analysis made up (`dim~2`, `int`) are
    /// chosen before the inputs' own dims. In order:
    /// - one symbol the difference is linear in (checked at three points), when divisible:
    ///   `c == 3` pins `c`; `n*k == h*w*c` gives the `-1` of a `view` its size;
    /// - one symbol the difference is monotone in, by bisection: a floor division
    ///   (`(4704*n) // (49*k) == 96`) is a step function of `n`;
    /// - two symbols whose product a size fixes (`37632*a*b == 768*h*w`, the window counts
    ///   of a grid), split as evenly as the product's divisors allow.
    fn solve(&self, values: &[i64], fixed: &[bool]) -> Vec<(usize, i64)> {
        let mut names = self.a.symbols();
        names.extend(self.b.symbols());
        names.sort_by_key(|n| (n.contains(".shape["), n.clone()));
        names.dedup();
        let open: Vec<usize> = names
            .iter()
            .filter_map(|n| self.syms.index(n))
            .filter(|&i| !fixed[i])
            .collect();
        // Zero sizes satisfy products trivially and break everything else.
        let fresh = |i: usize, v: i64| (v >= 1 && v != values[i]).then_some((i, v));
        if let Some(one) = open
            .iter()
            .find_map(|&i| fresh(i, self.linear_root(values, i)?))
        {
            return vec![one];
        }
        if let Some(one) = open
            .iter()
            .find_map(|&i| fresh(i, self.monotone_root(values, i)?))
        {
            return vec![one];
        }
        for &i in &open {
            for &j in open.iter().filter(|&&j| j != i) {
                if let Some(pair) = self.product_roots(values, i, j) {
                    return pair.to_vec();
                }
            }
        }
        Vec::new()
    }

    /// `a - b` with symbol `i` at `x` and the others at `values`.
    fn difference(&self, values: &[i64], i: usize, x: i64) -> Option<i64> {
        let env = |n: &str| {
            let k = self.syms.index(n)?;
            Some(if k == i { x } else { values[k] })
        };
        self.a.eval(&env)?.checked_sub(self.b.eval(&env)?)
    }

    /// The root in symbol `i` when the difference is linear in it and the root an integer.
    fn linear_root(&self, values: &[i64], i: usize) -> Option<i64> {
        let at = |x| self.difference(values, i, x);
        let (f1, f2, f3) = (at(1)?, at(2)?, at(3)?);
        let slope = f2.checked_sub(f1)?;
        if slope == 0 || f3.checked_sub(f2)? != slope {
            return None;
        }
        let offset = f1.checked_sub(slope)?;
        let v = offset.checked_neg()?.checked_div(slope)?;
        (offset.checked_add(slope.checked_mul(v)?)? == 0).then_some(v)
    }

    /// A root in symbol `i` between 1 and [`LARGEST_SIZE`] by bisection, when the
    /// difference changes sign there (checked at the root: a function that is not
    /// monotone finds none, or a true one).
    fn monotone_root(&self, values: &[i64], i: usize) -> Option<i64> {
        let at = |x| self.difference(values, i, x);
        let (mut lo, mut hi) = (1, LARGEST_SIZE);
        let (f_lo, f_hi) = (at(lo)?, at(hi)?);
        if f_lo == 0 {
            return Some(lo);
        }
        if f_lo.signum() == f_hi.signum() {
            return None;
        }
        // Invariant: `at(lo)` has `f_lo`'s sign, `at(hi)` does not.
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if at(mid)?.signum() == f_lo.signum() {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        (at(hi)? == 0).then_some(hi)
    }

    /// Values of symbols `i` and `j` that make the equality hold when their product is
    /// what it must be: with `j` at 1, `i` takes the whole product `p`; then `j` takes
    /// the largest divisor of `p` up to its square root, and `i` the rest.
    fn product_roots(&self, values: &[i64], i: usize, j: usize) -> Option<[(usize, i64); 2]> {
        let mut at_one = values.to_vec();
        at_one[j] = 1;
        let whole = self
            .linear_root(&at_one, i)
            .filter(|&v| (1..=LARGEST_SIZE).contains(&v))?;
        let split = (1..=whole.isqrt()).rev().find(|d| whole % d == 0)?;
        let mut at_split = values.to_vec();
        at_split[j] = split;
        let rest = self.linear_root(&at_split, i).filter(|&v| v >= 1)?;
        let pair = [(i, rest), (j, split)];
        (pair != [(i, values[i]), (j, values[j])]).then_some(pair)
    }
}

/// Whether every predicate holds with `syms` at `values`.
fn holds_at(preds: &[&Pred], syms: &Symbols, values: &[i64]) -> bool {
    let env = |n: &str| syms.index(n).map(|i| values[i]);
    preds.iter().all(|p| p.eval(&env) == Some(true))
}

/// The symbols of a job's predicates, sorted (a point gives their values in this order),
/// with the index of every occurrence by the address of its text. A point's value of a
/// symbol is read at every atom of every predicate for every point tried and repaired;
/// finding it by comparing names took more than the rest of the search.
struct Symbols<'p> {
    names: Vec<Arc<str>>,
    /// Index by (address, length) of each `Arc` text the predicates hold: they outlive the
    /// table, so no address is reused for another name while it is in use.
    by_address: rustc_hash::FxHashMap<(usize, usize), usize>,
    preds: std::marker::PhantomData<&'p Pred>,
}

impl<'p> Symbols<'p> {
    fn of(preds: &[&'p Pred]) -> Symbols<'p> {
        let mut names = std::collections::BTreeSet::new();
        for p in preds {
            pred_symbols(p, &mut names);
        }
        let names: Vec<Arc<str>> = names.into_iter().collect();
        let mut by_address = rustc_hash::FxHashMap::default();
        for p in preds {
            p.visit_symbols(&mut |s| {
                if let Ok(i) = names.binary_search(s) {
                    by_address.insert((s.as_ptr() as usize, s.len()), i);
                }
            });
        }
        Symbols {
            names,
            by_address,
            preds: std::marker::PhantomData,
        }
    }

    fn len(&self) -> usize {
        self.names.len()
    }

    /// The index of symbol `n`: by address when `n` is a predicate's own text, else by name.
    fn index(&self, n: &str) -> Option<usize> {
        match self.by_address.get(&(n.as_ptr() as usize, n.len())) {
            Some(&i) => Some(i),
            None => self.names.binary_search_by(|s| (**s).cmp(n)).ok(),
        }
    }
}

/// The equalities whose holding can make `p` hold: those under `and` and `or`, not under
/// a negation (a divisibility counts as the equality that satisfies it).
fn positive_equalities<'p>(p: &'p Pred, out: &mut Vec<(&'p DimExpr, &'p DimExpr)>) {
    match p {
        Pred::And(ps) | Pred::Or(ps) => ps.iter().for_each(|q| positive_equalities(q, out)),
        Pred::Eq(a, b) => out.push((a, b)),
        // `a` divides `b` when they are equal (and not zero).
        Pred::Divides(a, b) => out.push((b, a)),
        _ => {}
    }
}

/// A conjunction (`and = true`) or disjunction of simplified parts: a part decided to the
/// absorbing value decides the whole, parts decided to the neutral value drop out.
fn junction(ps: &[Pred], positive: &HashSet<Arc<str>>, and: bool) -> Pred {
    let (neutral, absorbing) = if and {
        (Pred::always(), never())
    } else {
        (never(), Pred::always())
    };
    let parts: Vec<Pred> = ps.iter().map(|q| simplify(q, positive)).collect();
    if parts.iter().any(|q| q.decide() == Some(!and)) {
        return absorbing;
    }
    let mut open: Vec<Pred> = parts
        .into_iter()
        .filter(|q| q.decide() != Some(and))
        .collect();
    match open.len() {
        0 => neutral,
        1 => open.remove(0),
        _ if and => Pred::And(open),
        _ => Pred::Or(open),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(names: &[&str]) -> HashSet<Arc<str>> {
        names.iter().map(|n| Arc::from(*n)).collect()
    }

    #[test]
    fn products_of_positive_dims_are_nonzero() {
        let (a, b) = (DimExpr::sym("a"), DimExpr::sym("b"));
        let p = Pred::Ne(a.mul(&b).mul_const(2), DimExpr::zero());
        assert_eq!(simplify(&p, &pos(&["a", "b"])).decide(), Some(true));
        // Without positivity nothing follows.
        assert_eq!(simplify(&p, &pos(&[])).decide(), None);
    }

    #[test]
    fn common_factors_cancel_in_divisibility() {
        let (a, b, c) = (DimExpr::sym("a"), DimExpr::sym("b"), DimExpr::sym("c"));
        let p = Pred::Divides(a.mul(&b).mul_const(2), a.mul(&b).mul(&c));
        let s = simplify(&p, &pos(&["a", "b", "c"]));
        assert_eq!(s, Pred::Divides(DimExpr::constant(2), c.clone()));
        let q = Pred::Divides(a.mul_const(3), a.mul(&c).mul_const(6));
        assert_eq!(simplify(&q, &pos(&["a", "c"])).decide(), Some(true));
    }

    #[test]
    fn common_positive_factors_cancel_in_comparisons() {
        let [k, h, m, x] = ["k", "h", "m", "x"].map(DimExpr::sym);
        let positive = pos(&["k", "h", "m"]);
        // `k*h == k*m*h` is `1 == m`.
        let p = Pred::Eq(k.mul(&h), k.mul(&m).mul(&h));
        assert_eq!(simplify(&p, &positive), Pred::Eq(DimExpr::one(), m.clone()));
        // What the signs settle shows once the factor is gone: `k*m < k*(m + 1)`.
        let q = Pred::Lt(k.mul(&m), k.mul(&m.add_const(1)));
        assert_eq!(simplify(&q, &positive).decide(), Some(true));
        // A factor not known to be positive stays: `x*m == x*h` also holds at `x == 0`.
        let r = Pred::Eq(x.mul(&m), x.mul(&h));
        assert_eq!(simplify(&r, &positive), r);
    }

    #[test]
    fn constraints_asserted_together_keep_their_bounds() {
        let [k, h, m] = ["k", "h", "m"].map(DimExpr::sym);
        let bounds: Vec<Pred> = [&k, &h, &m]
            .iter()
            .map(|s| Pred::Le(DimExpr::one(), (*s).clone()))
            .collect();
        let product = Pred::Eq(k.mul(&h), k.mul(&m).mul(&h));
        let given: Vec<&Pred> = bounds.iter().chain([&product]).collect();
        let out = simplify_together(&given);
        assert_eq!(&out[..3], &bounds[..]);
        assert_eq!(out[3], Pred::Eq(DimExpr::one(), m.clone()));
        // Without the bounds, nothing is known positive and nothing cancels.
        assert_eq!(simplify_together(&[&product]), vec![product.clone()]);
    }

    #[test]
    fn sampling_repairs_pinned_and_derived_sizes() {
        let (c, h, w, n) = (
            DimExpr::sym("c"),
            DimExpr::sym("x.shape[2]"),
            DimExpr::sym("x.shape[3]"),
            DimExpr::sym("int~1"),
        );
        let seven = DimExpr::constant(7);
        // A pinned channel count, a window of 7 dividing both sides, and a `view(-1, ...)`
        // size fixed by a product: no single value for every symbol satisfies all four.
        let preds = [
            Pred::Eq(c.clone(), DimExpr::constant(3)),
            Pred::Eq(h.modulo(&seven), DimExpr::zero()),
            Pred::Eq(w.modulo(&seven), DimExpr::zero()),
            Pred::Eq(n.mul(&DimExpr::constant(49)), c.mul(&h).mul(&w)),
        ];
        let refs: Vec<&Pred> = preds.iter().collect();
        assert!(sample_model(&refs));
        // Unsatisfiable: sampling finds nothing (and claims nothing).
        let contradiction = [
            Pred::Eq(c.clone(), DimExpr::constant(3)),
            Pred::Eq(c.clone(), DimExpr::constant(4)),
        ];
        let refs: Vec<&Pred> = contradiction.iter().collect();
        assert!(!sample_model(&refs));
    }

    #[test]
    fn sampling_repairs_floor_divisions_and_window_grids() {
        let (h, w, tokens, a, b) = (
            DimExpr::sym("x.shape[2]"),
            DimExpr::sym("x.shape[3]"),
            DimExpr::sym("dim~1"),
            DimExpr::sym("int~1"),
            DimExpr::sym("int~2"),
        );
        let seven = DimExpr::constant(7);
        // A `Linear(96)` after a `reshape(windows, -1)` whose element count the analysis made
        // up: the count enters a floor division, not linearly.
        let windows = h.floordiv(&seven).mul(&w.floordiv(&seven)).mul_const(49);
        let features = tokens.mul_const(4704).floordiv(&windows);
        // A `view(-1, a, b, 7, 7, C)` of a padded map: the window counts' product is fixed,
        // neither count alone is, and sizes equal to the map's are too large.
        let grid = a.mul(&b).mul_const(49);
        let preds = [
            Pred::Eq(h.modulo(&seven), DimExpr::zero()),
            Pred::Eq(w.modulo(&seven), DimExpr::zero()),
            Pred::Eq(features, DimExpr::constant(96)),
            Pred::Eq(grid, h.mul(&w)),
        ];
        let refs: Vec<&Pred> = preds.iter().collect();
        assert!(sample_model(&refs));
        // Each equation alone: neither the linear repair nor equal sizes satisfy it.
        let values = [224, 224, 224, 224, 224];
        let syms = Symbols::of(&refs);
        let names: Vec<&str> = syms.names.iter().map(|s| &**s).collect();
        assert_eq!(
            names,
            ["dim~1", "int~1", "int~2", "x.shape[2]", "x.shape[3]"]
        );
        let fixed = [false, false, false, true, true];
        let (Pred::Eq(fa, fb), Pred::Eq(ga, gb)) = (&preds[2], &preds[3]) else {
            unreachable!()
        };
        let floor = Equation {
            a: fa,
            b: fb,
            syms: &syms,
        };
        assert_eq!(floor.linear_root(&values, 0), None);
        // 4704 * n // (49 * 32 * 32) == 96: n from 1024 on.
        assert_eq!(floor.solve(&values, &fixed), vec![(0, 1024)]);
        let windows = Equation {
            a: ga,
            b: gb,
            syms: &syms,
        };
        // 49 * a * b == 224 * 224: a * b == 1024, split 32 by 32.
        assert_eq!(windows.solve(&values, &fixed), vec![(1, 32), (2, 32)]);
    }

    #[test]
    fn symbols_are_found_by_address_or_by_name() {
        // Two texts of one name (made apart) and another name: each predicate's own text is
        // found by address, a text no predicate holds by name, an unknown name not at all.
        let (a1, a2, b) = (DimExpr::sym("a"), DimExpr::sym("a"), DimExpr::sym("b"));
        let preds = [Pred::Eq(a1.add(&b), a2.clone())];
        let refs: Vec<&Pred> = preds.iter().collect();
        let syms = Symbols::of(&refs);
        assert_eq!(syms.len(), 2);
        let mut found = Vec::new();
        preds[0].visit_symbols(&mut |s| found.push(syms.index(s)));
        assert_eq!(found, [Some(0), Some(1), Some(0)]);
        assert_eq!(syms.by_address.len(), 3);
        assert_eq!(syms.index(&String::from("b")), Some(1));
        assert_eq!(syms.index("c"), None);
        // A point's values are read in the names' order.
        assert!(holds_at(&refs, &syms, &[5, 0]));
        assert!(!holds_at(&refs, &syms, &[5, 1]));
    }

    #[test]
    fn sampling_tries_indices_at_zero() {
        // `for i in range(n // 64)` over a length padded to a multiple of 64, and a size
        // the analysis made up (`joined`, bounded by 0) that must not be 0: only `i == 0`
        // with `joined` non-zero holds at the sampled sizes.
        let (n, i, joined) = (
            DimExpr::sym("x.shape[1]"),
            DimExpr::sym("i"),
            DimExpr::sym("joined"),
        );
        let padded = n.add(&n.neg().modulo(&DimExpr::constant(64)));
        let chunks = padded.floordiv(&DimExpr::constant(64));
        let preds = [
            Pred::Le(DimExpr::one(), n.clone()),
            Pred::Le(DimExpr::zero(), joined.clone()),
            // The loop may not run; when it does, `0 <= i < chunks`.
            Pred::Or(vec![
                Pred::Not(Box::new(Pred::Lt(DimExpr::zero(), chunks.clone()))),
                Pred::And(vec![
                    Pred::Le(DimExpr::zero(), i.clone()),
                    Pred::Lt(i, chunks.clone()),
                ]),
            ]),
            Pred::Eq(chunks, DimExpr::one()),
            Pred::Ne(joined.mul_const(64), DimExpr::zero()),
        ];
        let refs: Vec<&Pred> = preds.iter().collect();
        assert!(sample_model(&refs));
        // Sizes bounded by 1 are never tried at 0.
        let sized = [
            Pred::Le(DimExpr::one(), n.clone()),
            Pred::Le(n, DimExpr::zero()),
        ];
        let refs: Vec<&Pred> = sized.iter().collect();
        assert!(!sample_model(&refs));
    }

    #[test]
    fn simplification_agrees_with_evaluation() {
        let (a, b) = (DimExpr::sym("a"), DimExpr::sym("b"));
        let preds = [
            Pred::Divides(a.mul_const(4), a.mul(&b).mul_const(2)),
            Pred::Eq(a.mul(&b), a.add(&b)),
            Pred::Le(DimExpr::one(), a.mul(&b).sub(&a)),
            Pred::Or(vec![
                Pred::Ne(a.clone(), DimExpr::zero()),
                Pred::Eq(b.clone(), DimExpr::one()),
            ]),
        ];
        let positive = pos(&["a", "b"]);
        for p in &preds {
            let s = simplify(p, &positive);
            for x in 1..6 {
                for y in 1..6 {
                    let env = |n: &str| match n {
                        "a" => Some(x),
                        "b" => Some(y),
                        _ => None,
                    };
                    assert_eq!(p.eval(&env), s.eval(&env), "{p} vs {s} at a={x} b={y}");
                }
            }
        }
    }
}
