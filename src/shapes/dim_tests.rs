use super::*;

fn s(n: &str) -> DimExpr {
    DimExpr::sym(n)
}
fn c(v: i64) -> DimExpr {
    DimExpr::constant(v)
}

/// Reshape's `-1` divides an expanded product by another: a one-term quotient is found, a
/// quotient that is not exact stays a floor division.
#[test]
fn division_by_a_polynomial_with_a_one_term_quotient() {
    let (b, h, w) = (s("b"), s("h"), s("w"));
    let hw = h.add_const(1).mul(&w.add_const(1));
    let numel = c(384).mul(&b).mul(&hw);
    assert_eq!(numel.floordiv(&c(32).mul(&b).mul(&hw)), c(12));
    assert_eq!(numel.floordiv(&b.mul(&hw)), c(384));
    assert_eq!(numel.floordiv(&c(3).mul(&hw)), c(128).mul(&b));
    let ragged = numel.add_const(1).floordiv(&hw);
    assert!(ragged.as_const().is_none() && ragged != c(384).mul(&b));
    assert_eq!(hw.mul(&w).floordiv(&w.add_const(1)), h.add_const(1).mul(&w));
}

#[test]
fn normal_form_makes_equal_expressions_equal() {
    let (a, b) = (s("a"), s("b"));
    assert_eq!(c(2).mul(&a.add(&b)), a.mul_const(2).add(&b.mul_const(2)));
    assert_eq!(a.add(&b), b.add(&a));
    assert_eq!(a.mul(&b), b.mul(&a));
    assert_eq!(a.sub(&a), c(0));
    assert_eq!(a.mul(&b).floordiv(&b), a);
    assert_eq!(
        a.mul_const(4).add_const(2).floordiv(&c(2)),
        a.mul_const(2).add_const(1)
    );
    assert_eq!(a.floordiv(&c(2)).floordiv(&c(3)), a.floordiv(&c(6)));
    assert_eq!(a.mul_const(6).modulo(&c(3)), c(0));
    assert_eq!(c(4), c(2).mul(&c(2)));
}

#[test]
fn cheap_decisions() {
    let a = s("a");
    assert_eq!(a.add_const(1).decide_eq(&a), Some(false));
    assert_eq!(c(4).decide_eq(&c(2).mul(&c(2))), Some(true));
    assert_eq!(a.decide_eq(&s("b")), None);
    assert_eq!(a.decide_le(&a.add_const(1)), Some(true));
    assert_eq!(c(0).decide_le(&a.mul(&s("b"))), Some(true));
    assert_eq!(a.decide_le(&s("b")), None);
}

#[test]
fn python_division_semantics() {
    assert_eq!(py_floordiv(7, 2), Some(3));
    assert_eq!(py_floordiv(-7, 2), Some(-4));
    assert_eq!(py_floordiv(7, -2), Some(-4));
    assert_eq!(py_mod(-7, 2), Some(1));
    assert_eq!(py_mod(7, -2), Some(-1));
    assert_eq!(py_floordiv(1, 0), None);
    assert_eq!(c(-7).floordiv(&c(2)), c(-4));
    assert_eq!(c(-7).modulo(&c(2)), c(1));
}

#[test]
fn display_is_readable() {
    let e = s("a").mul(&s("b")).mul_const(2).add(&s("c")).add_const(-3);
    assert_eq!(e.to_string(), "2*a*b + c - 3");
    assert_eq!(
        s("h")
            .add_const(-3)
            .floordiv(&c(2))
            .add_const(1)
            .to_string(),
        "((h + 1) // 2) - 1"
    );
}

/// Multiples of a constant divisor leave the floor division: the patch grid of a stride-16
/// conv, `(h - 16) // 16 + 1`, is `h // 16`; remainders keep their constant in `[0, c)`.
#[test]
fn multiples_of_a_constant_divisor_leave_the_division() {
    let h = s("h");
    assert_eq!(
        h.add_const(-16).floordiv(&c(16)).add_const(1),
        h.floordiv(&c(16))
    );
    let e = s("a").mul_const(2).add(&s("b")).add_const(5);
    assert_eq!(
        e.floordiv(&c(2)),
        s("a")
            .add_const(2)
            .add(&s("b").add_const(1).floordiv(&c(2)))
    );
    assert_eq!(e.modulo(&c(2)), s("b").add_const(1).modulo(&c(2)));
    assert_eq!(
        h.add_const(-3).floordiv(&c(-2)),
        h.add_const(1).floordiv(&c(-2)).add_const(2)
    );
    // A remainder with a negative term stays whole: `(64 - h) % 64`.
    let padded = c(64).sub(&h).modulo(&c(64));
    assert_eq!(padded.to_string(), "((-h + 64) % 64)");
}

/// A tiny deterministic generator (no extra dependency) for property checks.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn random_expr(rng: &mut Lcg, depth: u32) -> DimExpr {
    if depth == 0 || rng.below(4) == 0 {
        return match rng.below(3) {
            0 => c(rng.below(7) as i64 - 2),
            1 => s("a"),
            _ => s(["b", "c"][rng.below(2) as usize]),
        };
    }
    let x = random_expr(rng, depth - 1);
    let y = random_expr(rng, depth - 1);
    match rng.below(7) {
        0 => x.add(&y),
        1 => x.sub(&y),
        2 => x.mul(&y),
        3 => x.floordiv(&y.add_const(0)),
        4 => x.modulo(&y),
        5 => x.minimum(&y),
        _ => x.maximum(&y),
    }
}

/// The values of `random_expr`'s symbols at one point.
fn point(va: i64, vb: i64, vc: i64) -> impl Fn(&str) -> Option<i64> {
    move |n: &str| match n {
        "a" => Some(va),
        "b" => Some(vb),
        "c" => Some(vc),
        _ => None,
    }
}

/// Reference evaluation of the same construction, directly on integers.
#[test]
fn normal_form_agrees_with_evaluation_on_random_points() {
    let mut rng = Lcg(7);
    let mut checked = 0;
    for _ in 0..3000 {
        let seed = rng.next();
        let e = random_expr(&mut Lcg(seed), 4);
        for _ in 0..5 {
            let (va, vb, vc) = (
                rng.below(9) as i64,
                rng.below(9) as i64,
                rng.below(9) as i64,
            );
            let env = point(va, vb, vc);
            let direct = eval_direct(&mut Lcg(seed), 4, va, vb, vc);
            let normal = e.eval(&env);
            // Both must fail (division by zero) or agree.
            if let (Some(d), Some(n)) = (direct, normal) {
                assert_eq!(d, n, "{e} at a={va} b={vb} c={vc}");
                checked += 1;
            } else if direct.is_some() {
                // The normal form may fail only where the construction divided by zero too.
                panic!(
                    "{e} fails at a={va} b={vb} c={vc} but the direct evaluation gives {direct:?}"
                );
            }
        }
    }
    assert!(checked > 5000, "{checked}");
}

/// Mirrors `random_expr`'s choices, computing on integers.
fn eval_direct(rng: &mut Lcg, depth: u32, a: i64, b: i64, cc: i64) -> Option<i64> {
    if depth == 0 || rng.below(4) == 0 {
        return Some(match rng.below(3) {
            0 => rng.below(7) as i64 - 2,
            1 => a,
            _ => [b, cc][rng.below(2) as usize],
        });
    }
    let x = eval_direct(rng, depth - 1, a, b, cc);
    let y = eval_direct(rng, depth - 1, a, b, cc);
    let op = rng.below(7);
    let (x, y) = (x?, y?);
    match op {
        0 => x.checked_add(y),
        1 => x.checked_sub(y),
        2 => x.checked_mul(y),
        3 => py_floordiv(x, y),
        4 => py_mod(x, y),
        5 => Some(x.min(y)),
        _ => Some(x.max(y)),
    }
}

/// An expression's interval holds its value at every point of non-negative symbols; a
/// remainder by a constant bounds what it is added to.
#[test]
fn intervals_hold_the_value_at_random_points() {
    let mut rng = Lcg(11);
    let mut bounded = 0;
    for _ in 0..3000 {
        let e = random_expr(&mut Lcg(rng.next()), 4);
        let (lo, hi) = e.interval();
        bounded += usize::from(hi.is_some());
        for _ in 0..5 {
            let env = point(
                rng.below(40) as i64,
                rng.below(40) as i64,
                rng.below(40) as i64,
            );
            if let Some(v) = e.eval(&env) {
                assert!(lo.is_none_or(|l| l <= v), "{e} = {v} below {lo:?}");
                assert!(hi.is_none_or(|h| v <= h), "{e} = {v} above {hi:?}");
            }
        }
    }
    assert!(bounded > 300, "{bounded}");
    let gap = c(250).sub(&c(125).add(&s("n").modulo(&c(250))).modulo(&c(250)));
    assert_eq!(gap.neg().interval(), (Some(-250), Some(-1)));
    assert_eq!(s("n").add_const(-1).interval(), (Some(-1), None));
}
