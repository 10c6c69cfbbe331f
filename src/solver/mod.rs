//! Solver: Z3 behind a small interface. One [`DimSolver`] per worker thread, reused across jobs
//! with push/pop, each check bounded by a timeout; constraint jobs (`crate::jobs`) solve
//! through it.

pub mod dims;

use std::time::Duration;

use z3::ast::Int;
use z3::{Params, SatResult, Solver};

/// Outcome of one check. `Unknown` covers timeouts: never a finding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Sat,
    Unsat,
    Unknown,
}

/// A reusable solver over integer dimension constraints.
pub struct DimSolver {
    solver: Solver,
}

impl DimSolver {
    pub fn new(timeout: Duration) -> Self {
        let solver = Solver::new();
        let mut params = Params::new();
        params.set_u32("timeout", timeout.as_millis().min(u32::MAX as u128) as u32);
        solver.set_params(&params);
        DimSolver { solver }
    }

    /// The underlying Z3 solver (constraint jobs add their own assertions under push/pop).
    pub fn z3(&self) -> &Solver {
        &self.solver
    }

    /// Is there a non-negative assignment of `vars` satisfying every `(coeffs, constant)`
    /// equality `Σ coeffs[i]·vars[i] = constant`? Scoped with push/pop so the solver is reusable.
    pub fn linear_equalities(&self, vars: &[&str], equations: &[(Vec<i64>, i64)]) -> Verdict {
        self.solver.push();
        let ints: Vec<Int> = vars.iter().map(|v| Int::new_const(*v)).collect();
        for x in &ints {
            self.solver.assert(x.ge(Int::from_i64(0)));
        }
        for (coeffs, constant) in equations {
            let mut sum = Int::from_i64(0);
            for (c, x) in coeffs.iter().zip(&ints) {
                sum += x.clone() * Int::from_i64(*c);
            }
            self.solver.assert(sum.eq(Int::from_i64(*constant)));
        }
        let verdict = match self.solver.check() {
            SatResult::Sat => Verdict::Sat,
            SatResult::Unsat => Verdict::Unsat,
            SatResult::Unknown => Verdict::Unknown,
        };
        self.solver.pop(1);
        verdict
    }
}

/// The version of the linked libz3.
pub fn z3_version() -> String {
    z3::full_version().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn z3_is_linked_and_decides_dimension_equations() {
        assert!(
            z3_version().contains('5') || z3_version().contains('4'),
            "{}",
            z3_version()
        );
        let s = DimSolver::new(Duration::from_secs(5));
        // view(x, b, 6) of a [4, 2, 3] tensor: 4*2*3 = 6*b has b = 4.
        assert_eq!(s.linear_equalities(&["b"], &[(vec![6], 24)]), Verdict::Sat);
        // 24 = 7*b has no integer solution: the reshape of the thesis' R2 case fails.
        assert_eq!(
            s.linear_equalities(&["b"], &[(vec![7], 24)]),
            Verdict::Unsat
        );
        // The solver is reusable after pop.
        assert_eq!(
            s.linear_equalities(&["a", "b"], &[(vec![1, 1], 5), (vec![1, -1], 1)]),
            Verdict::Sat
        );
        assert_eq!(
            s.linear_equalities(&["a", "b"], &[(vec![2, 2], 5)]),
            Verdict::Unsat
        );
    }
}
