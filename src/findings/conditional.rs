//! The warning tier (issue: conditional failures): a unit some input gets through, but only
//! under a relation between its hyperparameters (`nn.LayerNorm(hidden_dim)` after
//! `nn.Linear(hidden_dim, out_dim)`: every input fails unless `out_dim == hidden_dim`). The
//! relation is one operation's requirement over hyperparameters alone that every admitted
//! run implies and the facts do not: for hyperparameters outside it, no input of any rank
//! gets through. It is a warning naming the condition, never an error (the author may only
//! ever build it so), and counts for the exit code only with `--strict`.
//!
//! Runs that prove nothing (a broken assumption, a budget, a solver that gave up) leave the
//! unit without a warning, as they leave it without a finding.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

use super::{Finding, Severity};
use crate::eval::trace::{Input, Obligation, Trace};
use crate::jobs::queries::SharedBudget;
use crate::jobs::simplify::{positive_symbols, pred_symbols, simplify};
use crate::jobs::{JobSolver, SkipReason, Solved, Verdict};
use crate::shapes::Pred;
use crate::units::{Unit, UnitKind, UnitRun};

/// Requirements over hyperparameters tried per unit, at most.
const MAX_CANDIDATES: usize = 8;

/// The solving all of a unit's questions share (the steps of a check's default limit,
/// `jobs::WORK_PER_MS`): past it, no warning. A unit whose runs Z3 finds hard would
/// otherwise pay a check's limit once per run and candidate, for a warning that an unknown
/// answer rules out anyway.
const BUDGET: Duration = Duration::from_secs(2);

/// The unit's conditional failure, when it has one (see the module's documentation).
pub fn conditional_failure(unit: &Unit, solved: &[Solved], z3: &JobSolver) -> Option<Finding> {
    if !matches!(
        unit.kind,
        UnitKind::Class | UnitKind::Function | UnitKind::Method
    ) {
        return None;
    }
    let (first, _) = unit
        .runs
        .iter()
        .zip(solved)
        .find(|(_, s)| matches!(s.verdict, Verdict::Sat))?;
    let hyper = hyperparameters(&first.trace);
    if hyper.is_empty() {
        return None;
    }
    // Requirements over hyperparameters alone, read off the operations (no solving yet:
    // most units have none).
    let positive = positive_symbols(&first.trace.facts);
    let mut seen = BTreeSet::new();
    let mut candidates = Vec::new();
    for o in &first.trace.obligations {
        let mut symbols = BTreeSet::new();
        pred_symbols(&o.pred, &mut symbols);
        if symbols.is_empty() || !symbols.is_subset(&hyper) {
            continue;
        }
        let p = simplify(&o.pred, &positive);
        if p.decide().is_some() || lower_bound_only(&p) || !readable(&p) {
            continue;
        }
        if seen.insert(p.to_string()) {
            candidates.push((o, p));
            if candidates.len() == MAX_CANDIDATES {
                break;
            }
        }
    }
    if candidates.is_empty() {
        return None;
    }
    // What the facts already imply is no condition, nor what holds once every
    // hyperparameter is at least 2 (`(c // 2) divides (c // 2)`: a degenerate size fails).
    let budget = SharedBudget::start(z3, BUDGET);
    let facts: Vec<&Pred> = first.trace.facts.iter().map(|f| &f.pred).collect();
    let mut q = budget.queries(&facts);
    let sizable: Vec<Pred> = hyper
        .iter()
        .map(|s| {
            Pred::Le(
                crate::shapes::DimExpr::from(2),
                crate::shapes::DimExpr::sym(s),
            )
        })
        .collect();
    candidates.retain(|(_, p)| {
        let negated = Pred::Not(Box::new(p.clone()));
        let mut degenerate: Vec<&Pred> = sizable.iter().collect();
        degenerate.push(&negated);
        q.implied(p) == Some(false) && q.possible(&degenerate) == Some(true)
    });
    drop(q);
    let (obligation, relation) = every_run_requires(unit, solved, candidates, &budget)?;
    Some(Finding {
        path: obligation.origin.as_ref().map(|o| o.path.clone()),
        kind: obligation.kind,
        unit: unit.name.clone(),
        unit_kind: unit.kind,
        operator: obligation.operator.clone(),
        span: obligation
            .origin
            .as_ref()
            .map_or(obligation.span, |o| o.span),
        message: format!("{}: {}", condition_text(&relation), obligation.message),
        shapes: obligation.shapes.clone(),
        related: Vec::new(),
        witness: None,
        used_z3: true,
        solve_micros: 0,
        id: String::new(),
        suppressed: false,
        baseline: None,
        domain: None,
        severity: Severity::Warning,
    })
}

/// A bound from below (`0 < channels // 2`, `1 <= n - 1`): sizes must be large enough for
/// any layer to work, which says nothing about this unit (it fails only for degenerate
/// sizes). Read off the form, before any solving; the solver finds the others.
fn lower_bound_only(p: &Pred) -> bool {
    match p {
        Pred::Le(lo, _) | Pred::Lt(lo, _) => lo.as_const().is_some(),
        _ => false,
    }
}

/// The symbols of the unit's int inputs (constructor arguments, size parameters).
fn hyperparameters(trace: &Trace) -> BTreeSet<Arc<str>> {
    let mut out = BTreeSet::new();
    for input in &trace.inputs {
        if let Input::Int { value, .. } = input {
            out.extend(value.symbols());
        }
    }
    out
}

/// The first of `candidates` every run of the unit that some input gets through implies:
/// each run either contradictory, outside the user's assumptions, or one whose constraints
/// with the relation negated are contradictory. A run that proves nothing rules every
/// candidate out. Each run's constraints are asserted once for all candidates left; the
/// questions end with the `budget`.
fn every_run_requires<'c>(
    unit: &Unit,
    solved: &[Solved],
    mut candidates: Vec<(&'c Obligation, Pred)>,
    budget: &SharedBudget<'_>,
) -> Option<(&'c Obligation, Pred)> {
    // Admitted runs first: the first one rules most candidates out.
    let mut runs: Vec<(&UnitRun, &Solved)> = unit.runs.iter().zip(solved).collect();
    runs.sort_by_key(|(_, s)| !matches!(s.verdict, Verdict::Sat));
    for (run, s) in runs {
        if candidates.is_empty() {
            return None;
        }
        match &s.verdict {
            Verdict::Unsat { .. } | Verdict::Skipped(SkipReason::OutsideAssumptions(_)) => {}
            Verdict::Sat | Verdict::Skipped(SkipReason::UnitSettled) => {
                let t = &run.trace;
                if t.assumption_violated
                    || !t.guarded_violations.is_empty()
                    || t.over_budget.is_some()
                {
                    return None;
                }
                let given: Vec<&Pred> = t
                    .facts
                    .iter()
                    .map(|f| &f.pred)
                    .chain(t.obligations.iter().map(|o| &o.pred))
                    .collect();
                if budget.spent() {
                    return None;
                }
                let mut q = budget.queries(&given);
                candidates.retain(|(_, r)| {
                    let negated = Pred::Not(Box::new(r.clone()));
                    q.possible(&[&negated]) == Some(false)
                });
            }
            _ => return None,
        }
    }
    candidates.into_iter().next()
}

/// Whether a condition reads as one (a warning nobody can read helps nobody): no `min`,
/// `max` or alternatives, and short.
fn readable(p: &Pred) -> bool {
    let text = p.to_string();
    text.len() <= 60
        && !text.contains("max(")
        && !text.contains("min(")
        && !matches!(p, Pred::Or(_) | Pred::And(_))
}

/// `fails unless out_dim == hidden_dim`; `fails for kernel_size > 7`.
fn condition_text(relation: &Pred) -> String {
    match relation {
        Pred::Le(a, b) => format!("fails for {a} > {b}"),
        Pred::Lt(a, b) => format!("fails for {a} >= {b}"),
        Pred::Ne(a, b) => format!("fails for {a} == {b}"),
        other => format!("fails unless {other}"),
    }
}

#[cfg(test)]
mod tests {
    use crate::findings::Severity;
    use crate::testing::findings;

    const BLOCK: &str = "
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, hidden_dim, out_dim):
        super().__init__()
        self.fc = nn.Linear(hidden_dim, out_dim)
        self.norm = nn.LayerNorm(NORM)

    def forward(self, x):
        return self.norm(self.fc(x))
";

    /// Seed 002's precondition: correct only when `hidden_dim == out_dim`.
    #[test]
    fn a_relation_between_hyperparameters_every_input_needs_is_a_warning() {
        let found = findings(&BLOCK.replace("NORM", "hidden_dim"));
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].severity, Severity::Warning);
        assert_eq!(found[0].span.line, 12);
        assert!(
            found[0]
                .message
                .starts_with("fails unless out_dim == hidden_dim: torch.nn.LayerNorm"),
            "{}",
            found[0].message
        );
        // Normalising what the layer gives: no condition.
        assert!(findings(&BLOCK.replace("NORM", "out_dim")).is_empty());
    }

    /// A requirement that involves the input is the input's to meet: no warning.
    #[test]
    fn requirements_the_input_can_meet_are_no_condition() {
        let src = "
import torch.nn as nn


class Head(nn.Module):
    def __init__(self, d, classes):
        super().__init__()
        self.fc = nn.Linear(d, classes)

    def forward(self, x):
        return self.fc(x)
";
        assert!(findings(src).is_empty());
    }

    /// Divisibility between hyperparameters (heads must divide the width).
    #[test]
    fn divisibility_between_hyperparameters_is_a_condition() {
        let src = "
import torch
import torch.nn as nn


class Attn(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.attn = nn.MultiheadAttention(dim, heads)

    def forward(self, x):
        return self.attn(x, x, x)[0]
";
        let found = findings(src);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].severity, Severity::Warning);
        assert!(
            found[0]
                .message
                .starts_with("fails unless heads divides dim: "),
            "{}",
            found[0].message
        );
    }

    /// A condition every size of at least 2 meets is no contract (a depthwise conv over half
    /// the channels fails only for fewer than 2).
    #[test]
    fn conditions_only_degenerate_sizes_break_are_left_out() {
        let src = "
import torch.nn as nn


class Branch(nn.Module):
    def __init__(self, channels):
        super().__init__()
        half = channels // 2
        self.dw = nn.Conv2d(half, half, 3, padding=1, groups=half)

    def forward(self, x):
        return self.dw(x)
";
        assert!(findings(src).is_empty(), "{:?}", findings(src));
    }
}
