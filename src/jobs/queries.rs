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
    /// Whether the budget is this scope's own (ended with it) or a [`SharedBudget`]'s.
    own_budget: bool,
}

/// One budget for the questions of several scopes (a unit's runs, one after another): the
/// work they spend together is bounded, and past it every answer is `None`.
pub struct SharedBudget<'s> {
    z3: &'s JobSolver,
}

impl<'s> SharedBudget<'s> {
    pub fn start(z3: &'s JobSolver, budget: std::time::Duration) -> SharedBudget<'s> {
        z3.start_job(budget);
        SharedBudget { z3 }
    }

    /// `given` asserted in a new scope whose questions spend this budget.
    pub fn queries(&self, given: &[&Pred]) -> RunQueries<'s> {
        RunQueries::asserting(self.z3, given, false)
    }

    /// Whether the budget is spent.
    pub fn spent(&self) -> bool {
        self.z3.spent()
    }
}

impl Drop for SharedBudget<'_> {
    fn drop(&mut self) {
        self.z3.end_job();
    }
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
        Self::asserting(z3, given, true)
    }

    fn asserting(z3: &'s JobSolver, given: &[&Pred], own_budget: bool) -> RunQueries<'s> {
        let mut syms = Symbols::default();
        z3.z3().push();
        for p in super::simplify::simplify_together(given) {
            z3.z3().assert(terms::pred(&p, &mut syms));
        }
        RunQueries {
            z3,
            syms,
            own_budget,
        }
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

    /// Whether some input satisfies what is given and `extra`; when one does, which of
    /// `probes` that input satisfies (one model answers many questions at once).
    pub fn possible_showing(
        &mut self,
        extra: &[&Pred],
        probes: &[&Pred],
    ) -> Option<Option<Vec<bool>>> {
        let lits: Vec<Bool> = extra
            .iter()
            .map(|p| terms::pred(p, &mut self.syms))
            .collect();
        match self.z3.check(&lits) {
            SatResult::Unsat => return Some(None),
            SatResult::Unknown => return None,
            SatResult::Sat => {}
        }
        let model = self.z3.z3().get_model()?;
        let shown = probes
            .iter()
            .map(|p| {
                let term = terms::pred(p, &mut self.syms);
                model
                    .eval(&term, true)
                    .and_then(|b| b.as_bool())
                    .unwrap_or(false)
            })
            .collect();
        Some(Some(shown))
    }

    /// Of `claims`, which some input that satisfies what is given breaks (`Some(false)`),
    /// and which it implies (`Some(true)`); `None` where Z3 gave up. Each model found
    /// settles every claim it breaks: a few questions for many claims.
    pub fn implied_each(&mut self, claims: &[&Pred]) -> Vec<Option<bool>> {
        let negated: Vec<Pred> = claims
            .iter()
            .map(|c| Pred::Not(Box::new((*c).clone())))
            .collect();
        let mut out: Vec<Option<bool>> = vec![None; claims.len()];
        let mut open: Vec<usize> = (0..claims.len()).collect();
        while !open.is_empty() {
            let any = Pred::Or(open.iter().map(|&i| negated[i].clone()).collect());
            let probes: Vec<&Pred> = open.iter().map(|&i| &negated[i]).collect();
            match self.possible_showing(&[&any], &probes) {
                // Too hard together (or the budget is spent): one by one.
                None => {
                    for &i in &open {
                        out[i] = self.implied(claims[i]);
                    }
                    break;
                }
                Some(None) => {
                    open.iter().for_each(|&i| out[i] = Some(true));
                    break;
                }
                Some(Some(shown)) => {
                    let before = open.len();
                    let mut still = Vec::new();
                    for (&i, broken) in open.iter().zip(shown) {
                        match broken {
                            true => out[i] = Some(false),
                            false => still.push(i),
                        }
                    }
                    open = still;
                    // A model that breaks none of them (it should break one): ask one by one.
                    if open.len() == before {
                        for &i in &open {
                            out[i] = self.implied(claims[i]);
                        }
                        break;
                    }
                }
            }
        }
        out
    }

    /// Whether what is given implies `claim`.
    pub fn implied(&mut self, claim: &Pred) -> Option<bool> {
        let negated = Pred::Not(Box::new(claim.clone()));
        self.possible(&[&negated]).map(|p| !p)
    }

    /// For each of `exprs`, the one value it takes in every input that satisfies what is
    /// given, if it has one: one model's values, then [`RunQueries::implied_each`] of each
    /// keeping its value.
    pub fn fixed_values(&mut self, exprs: &[DimExpr]) -> Vec<Option<i64>> {
        if exprs.is_empty() || self.z3.check(&[]) != SatResult::Sat {
            return vec![None; exprs.len()];
        }
        let Some(model) = self.z3.z3().get_model() else {
            return vec![None; exprs.len()];
        };
        let values: Vec<Option<i64>> = exprs
            .iter()
            .map(|e| {
                let term: Int = terms::dim(e, &mut self.syms);
                model.eval(&term, true).and_then(|v| v.as_i64())
            })
            .collect();
        drop(model);
        let same: Vec<(usize, Pred)> = values
            .iter()
            .enumerate()
            .filter_map(|(i, v)| v.map(|v| (i, Pred::Eq(exprs[i].clone(), DimExpr::from(v)))))
            .collect();
        let claims: Vec<&Pred> = same.iter().map(|(_, p)| p).collect();
        let kept = self.implied_each(&claims);
        let mut out = vec![None; exprs.len()];
        for ((i, _), held) in same.iter().zip(kept) {
            if held == Some(true) {
                out[*i] = values[*i];
            }
        }
        out
    }
}

impl Drop for RunQueries<'_> {
    fn drop(&mut self) {
        self.z3.z3().pop(1);
        if self.own_budget {
            self.z3.end_job();
        }
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
        assert_eq!(
            q.fixed_values(&[sym("c"), sym("h"), sym("w")]),
            vec![Some(3), None, None],
            "h and w: 1x49, 7x7, 49x1"
        );
        let w_le_49 = Pred::Le(sym("w"), DimExpr::from(49));
        let w_is_7 = Pred::Eq(sym("w"), DimExpr::from(7));
        assert_eq!(
            q.implied_each(&[&w_le_49, &w_is_7, &c_is_3]),
            vec![Some(true), Some(false), Some(true)]
        );
        drop(q);
        // The scope is gone: nothing of the run stays asserted.
        let mut q = RunQueries::new(&z3, &[]);
        assert_eq!(q.possible(&[&w_is_2]), Some(true));
    }
}
