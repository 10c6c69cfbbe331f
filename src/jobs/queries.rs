//! Questions about one run's constraints besides its verdict, for signatures
//! (`crate::signatures`): which requirements the facts already imply, which dims every
//! admitted input gives one value, which branch conditions the shapes decide. Each answer is
//! `None` when Z3 gives up; the questions of one run share its solving budget.

use z3::ast::{Bool, Int};
use z3::SatResult;

use super::terms::{self, Symbols};
use super::JobSolver;
use crate::shapes::{DimExpr, Pred};

/// A run's constraints asserted in a scope of the solver, for as long as this lives.
pub struct RunQueries<'s> {
    z3: &'s JobSolver,
    syms: Symbols,
}

impl<'s> RunQueries<'s> {
    /// `given` (the facts, and the obligations when asking about inputs that get through)
    /// asserted in a new scope; the questions share a job's solving budget.
    pub fn new(z3: &'s JobSolver, given: &[&Pred]) -> RunQueries<'s> {
        Self::within(z3, given, crate::budget::budgets().job_solving)
    }

    /// [`RunQueries::new`] whose questions together take at most `budget` (past it, every
    /// answer is `None`).
    pub fn within(
        z3: &'s JobSolver,
        given: &[&Pred],
        budget: std::time::Duration,
    ) -> RunQueries<'s> {
        z3.start_job(budget);
        let mut syms = Symbols::default();
        z3.z3().push();
        for p in given {
            z3.z3().assert(terms::pred(p, &mut syms));
        }
        RunQueries { z3, syms }
    }

    /// Whether some input satisfies what is given and `extra`.
    pub fn possible(&mut self, extra: &[&Pred]) -> Option<bool> {
        let lits: Vec<Bool> = extra
            .iter()
            .map(|p| terms::pred(p, &mut self.syms))
            .collect();
        match self.z3.check(&lits) {
            SatResult::Sat => Some(true),
            SatResult::Unsat => Some(false),
            SatResult::Unknown => None,
        }
    }

    /// Whether what is given implies `claim`.
    pub fn implied(&mut self, claim: &Pred) -> Option<bool> {
        let negated = Pred::Not(Box::new(claim.clone()));
        self.possible(&[&negated]).map(|p| !p)
    }

    /// The one value `e` takes in every input that satisfies what is given, if it has one.
    pub fn fixed_value(&mut self, e: &DimExpr) -> Option<i64> {
        if self.z3.check(&[]) != SatResult::Sat {
            return None;
        }
        let term: Int = terms::dim(e, &mut self.syms);
        let value = self.z3.z3().get_model()?.eval(&term, true)?.as_i64()?;
        let other = Pred::Ne(e.clone(), DimExpr::from(value));
        (self.possible(&[&other]) == Some(false)).then_some(value)
    }
}

impl Drop for RunQueries<'_> {
    fn drop(&mut self) {
        self.z3.z3().pop(1);
        self.z3.deadline.set(None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sym(name: &str) -> DimExpr {
        DimExpr::sym(name)
    }

    #[test]
    fn implications_and_fixed_values() {
        let z3 = JobSolver::new(std::time::Duration::from_secs(5));
        let c_is_3 = Pred::Eq(sym("c"), DimExpr::from(3));
        let hw = Pred::Eq(sym("h").mul(&sym("w")), DimExpr::from(49));
        let h_pos = Pred::Le(DimExpr::from(1), sym("h"));
        let mut q = RunQueries::new(&z3, &[&c_is_3, &hw, &h_pos]);
        assert_eq!(q.fixed_value(&sym("c")), Some(3));
        assert_eq!(q.fixed_value(&sym("h")), None, "1x49, 7x7, 49x1");
        assert_eq!(
            q.implied(&Pred::Le(sym("w"), DimExpr::from(49))),
            Some(true)
        );
        assert_eq!(
            q.implied(&Pred::Eq(sym("w"), DimExpr::from(7))),
            Some(false)
        );
        let w_is_2 = Pred::Eq(sym("w"), DimExpr::from(2));
        assert_eq!(q.possible(&[&w_is_2]), Some(false));
        drop(q);
        // The scope is gone: nothing of the run stays asserted.
        let mut q = RunQueries::new(&z3, &[]);
        assert_eq!(q.possible(&[&w_is_2]), Some(true));
    }
}
