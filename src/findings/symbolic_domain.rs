//! Declared domains too large to run value by value (`eval::domains`: `assert 1 <= k <= 64`
//! after parsing, `choices=range(1, 101)`, options whose combinations are too many): the
//! module's code runs once with every declared int option a symbol, and which values fail is
//! asked of Z3 after solving.
//!
//! The values are cut into boxes (a range of each option's values) by bisection: a box in
//! which no input gets through fails as a whole (one question); a box in which some does is
//! halved, down to single values, which then pass. Adjacent boxes of one outcome are merged,
//! so `k > 7` failing on `1 <= k <= 100` reads "fails for 8 <= k <= 100; passes for
//! 1 <= k <= 7" after some twenty questions. Each failing box is then solved at one of its
//! values for where it breaks: boxes breaking at one operation are one finding. Past the
//! question or time budget, what is left is neither said to fail nor to pass.

use std::time::Duration;

use super::{unit_finding, DomainFailures, Finding, Severity};
use crate::eval::trace::{DomainSymbol, Fact};
use crate::jobs::queries::SharedBudget;
use crate::jobs::{JobSolver, SkipReason, Solved, Verdict};
use crate::shapes::{DimExpr, Pred};
use crate::units::{Unit, UnitRun};

/// Questions asked per unit, at most.
const MAX_QUESTIONS: usize = 2048;
/// The solving the questions of one unit may take, in Z3's steps (`jobs::WORK_PER_MS`): a
/// safety net beside the count above.
const BUDGET: Duration = Duration::from_secs(20);
/// Failing boxes (groups of boxes breaking at one obligation) solved for where they break,
/// at most; the others are left undecided.
const MAX_FAILING_BOXES: usize = 32;

/// For each option, the range of its values (indices into `DomainSymbol::values`).
type Region = Vec<(usize, usize)>;

/// Where values break: a run (by index) and its obligation.
type Breaks = (usize, usize);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    /// No input gets through for any value of the box: where, when known, the run and the
    /// obligation each of them breaks at first.
    Fails(Option<Breaks>),
    Passes,
    Undecided,
}

/// The findings of a unit over symbolic domain options whose runs some input gets through:
/// one per operation where boxes of values fail, each naming the values (see the module's
/// documentation). Empty when the unit has no such options, when every value passes, or
/// when a run proves nothing.
pub fn domain_findings(unit: &Unit, solved: &[Solved], z3: &mut JobSolver) -> Vec<Finding> {
    let Some(axes) = shared_axes(unit, solved) else {
        return Vec::new();
    };
    let runs: Vec<&UnitRun> = unit
        .runs
        .iter()
        .zip(solved)
        .filter(|(_, s)| !s.verdict.is_excluded())
        .map(|(r, _)| r)
        .collect();
    let mut questions = Questions {
        budget: SharedBudget::start(z3, BUDGET),
        asked: 0,
    };
    let views: Vec<RunView> = runs.iter().map(|r| RunView::new(r, axes)).collect();
    let regions = match &views[..] {
        [view] => match view.grounded(axes, &mut questions) {
            Some(ground) => partition_ground(&ground, axes, &mut questions),
            None => partition(&views, axes, &mut questions),
        },
        _ => {
            // Runs split on the options' conditions share the values out: each value is in
            // the run whose answers it meets.
            let grounded: Option<Vec<RunView>> = views
                .iter()
                .map(|v| {
                    v.grounded(axes, &mut questions)
                        .filter(|g| g.assumptions.is_empty())
                })
                .collect();
            match grounded {
                Some(runs) => partition_ground_runs(&runs, axes, &mut questions),
                None => partition(&views, axes, &mut questions),
            }
        }
    };
    // Where a failing box breaks is worked out on a budget of its own.
    drop(questions);
    if !regions.iter().any(|(_, o)| matches!(o, Outcome::Fails(_))) {
        return Vec::new();
    }
    let labels: Vec<String> = regions.iter().map(|(r, _)| label(axes, r)).collect();
    let mut undecided: Vec<u32> = Vec::new();
    // Failing boxes by where they break: one operation's (ground runs), else each its own.
    let mut groups: Vec<(Option<Breaks>, Vec<u32>)> = Vec::new();
    for (i, (_, outcome)) in regions.iter().enumerate() {
        match outcome {
            Outcome::Undecided => undecided.push(i as u32),
            Outcome::Fails(Some(f)) => match groups.iter_mut().find(|(g, _)| *g == Some(*f)) {
                Some((_, boxes)) => boxes.push(i as u32),
                None => groups.push((Some(*f), vec![i as u32])),
            },
            Outcome::Fails(None) => groups.push((None, vec![i as u32])),
            Outcome::Passes => {}
        }
    }
    let mut out: Vec<Finding> = Vec::new();
    for (k, (_, boxes)) in groups.into_iter().enumerate() {
        let at = (k < MAX_FAILING_BOXES)
            .then(|| where_it_breaks(unit, axes, &regions[boxes[0] as usize].0, z3))
            .flatten();
        let Some(finding) = at else {
            undecided.extend(&boxes);
            continue;
        };
        match out.iter_mut().find(|f| {
            f.span == finding.span && f.path == finding.path && f.operator == finding.operator
        }) {
            Some(f) => {
                if let Some(d) = &mut f.domain {
                    d.failing.extend(&boxes);
                }
            }
            None => out.push(Finding {
                domain: Some(DomainFailures {
                    labels: labels.clone(),
                    failing: boxes,
                    undecided: Vec::new(),
                }),
                severity: Severity::Error,
                ..finding
            }),
        }
    }
    undecided.sort_unstable();
    for f in &mut out {
        if let Some(d) = &mut f.domain {
            d.failing.sort_unstable();
            d.undecided = undecided.clone();
        }
    }
    out
}

/// The symbolic options every run of the unit shares, when each run can say something:
/// no broken assumption, no budget spent, no solver that gave up.
fn shared_axes<'u>(unit: &'u Unit, solved: &[Solved]) -> Option<&'u [DomainSymbol]> {
    let axes = &unit.runs.first()?.trace.domain_symbols;
    if axes.is_empty() || axes.iter().any(|a| a.values.is_empty()) {
        return None;
    }
    for (run, s) in unit.runs.iter().zip(solved) {
        let t = &run.trace;
        let decided = matches!(
            s.verdict,
            Verdict::Sat
                | Verdict::Unsat { .. }
                | Verdict::Skipped(SkipReason::UnitSettled | SkipReason::NoObligations)
        ) || s.verdict.is_excluded();
        if !decided
            || t.domain_symbols != *axes
            || t.assumption_violated
            || t.over_budget.is_some()
            || !t.guarded_violations.is_empty()
        {
            return None;
        }
    }
    Some(axes)
}

/// The questions of one unit, within its budget.
struct Questions<'z> {
    budget: SharedBudget<'z>,
    asked: usize,
}

impl Questions<'_> {
    /// Whether `extra` with `given` is satisfiable; `None` past the budget or when Z3 gives up.
    fn possible(&mut self, given: &[&Pred], extra: &[&Pred]) -> Option<bool> {
        if self.budget.spent() || self.asked >= MAX_QUESTIONS {
            return None;
        }
        self.asked += 1;
        self.budget.queries(given).possible(extra)
    }
}

/// One run's constraints as the questions about values read them.
#[derive(Clone)]
struct RunView {
    facts: Vec<Pred>,
    obligations: Vec<Pred>,
    /// Facts and obligations before the first assumption reading an option: a value that
    /// breaks there fails whatever the assumptions say.
    prefix_facts: usize,
    prefix_obligations: usize,
    /// The assumptions reading an option, and whether they read nothing else.
    assumptions: Vec<Pred>,
    assumptions_only_options: bool,
}

impl RunView {
    fn new(run: &UnitRun, axes: &[DomainSymbol]) -> RunView {
        let t = &run.trace;
        let first = t
            .facts
            .iter()
            .position(|f| f.assumed && reads(&f.pred, axes));
        let assumptions: Vec<Pred> = t
            .facts
            .iter()
            .filter(|f| f.assumed && reads(&f.pred, axes))
            .map(|f| f.pred.clone())
            .collect();
        RunView {
            facts: t.facts.iter().map(|f| f.pred.clone()).collect(),
            obligations: t.obligations.iter().map(|o| o.pred.clone()).collect(),
            prefix_facts: first.unwrap_or(t.facts.len()),
            prefix_obligations: first.map_or(t.obligations.len(), |i| t.facts[i].after),
            assumptions_only_options: assumptions.iter().all(|p| only_options(p, axes)),
            assumptions,
        }
    }

    /// The run with the options its only symbols, when it is so once the obligations
    /// that hold for every value (a loop's pass that no value reaches) are taken as true:
    /// each value then passes or fails, with no other input to choose.
    fn grounded(&self, axes: &[DomainSymbol], q: &mut Questions<'_>) -> Option<RunView> {
        let member = membership(axes);
        let given: Vec<Pred> = self
            .facts
            .iter()
            .filter(|p| only_options(p, axes))
            .cloned()
            .chain(member)
            .collect();
        let mut obligations = self.obligations.clone();
        // Obligations over other symbols alone, set apart (indices).
        let mut apart: Vec<usize> = Vec::new();
        for (i, ob) in obligations.iter_mut().enumerate() {
            if only_options(ob, axes) || ob.decide().is_some() {
                continue;
            }
            if !reads(ob, axes) {
                apart.push(i);
                continue;
            }
            let negated = Pred::Not(Box::new(ob.clone()));
            if q.possible(&refs(&given), &[&negated])? {
                return None;
            }
            *ob = Pred::always();
        }
        // What reads an option must read nothing else; what does not, shares no symbol with
        // it, and some input meets (`0 < dim` of a size only the data decides), says
        // nothing of a value.
        let mut read = std::collections::BTreeSet::new();
        let reading = obligations
            .iter()
            .enumerate()
            .filter(|(i, _)| !apart.contains(i))
            .map(|(_, p)| p)
            .chain(self.facts.iter().filter(|p| reads(p, axes)));
        for p in reading {
            read.extend(p.symbols());
        }
        if !read.iter().all(|s| is_option(s, axes)) {
            return None;
        }
        if !apart.is_empty() {
            let others: Vec<&Pred> = apart
                .iter()
                .map(|&i| &obligations[i])
                .chain(self.facts.iter().filter(|p| !reads(p, axes)))
                .collect();
            if !q.possible(&others, &[])? {
                return None;
            }
            for i in apart {
                obligations[i] = Pred::always();
            }
        }
        Some(RunView {
            obligations,
            ..self.clone()
        })
    }

    /// Whether, for every value in `within`, the run's assumptions hold or the value
    /// breaks before the first of them; `None` when that cannot be told.
    fn assumptions_hold(&self, within: &[Pred], q: &mut Questions<'_>) -> Option<bool> {
        if self.assumptions.is_empty() {
            return Some(true);
        }
        let mut prefix: Vec<Pred> = within.to_vec();
        prefix.push(Pred::And(
            self.obligations[..self.prefix_obligations].to_vec(),
        ));
        if !q.possible(&refs(&self.facts[..self.prefix_facts]), &refs(&prefix))? {
            return Some(true);
        }
        if !self.assumptions_only_options {
            return Some(false);
        }
        let mut outside: Vec<Pred> = within.to_vec();
        outside.push(Pred::Not(Box::new(Pred::And(self.assumptions.clone()))));
        Some(!q.possible(&[], &refs(&outside))?)
    }
}

/// Whether a symbol is an option's.
fn is_option(symbol: &str, axes: &[DomainSymbol]) -> bool {
    axes.iter()
        .any(|a| a.symbol.symbols().iter().any(|s| s.as_ref() == symbol))
}

/// Whether a predicate reads some option.
fn reads(p: &Pred, axes: &[DomainSymbol]) -> bool {
    p.symbols().iter().any(|s| is_option(s, axes))
}

/// Whether a predicate reads the options and nothing else.
fn only_options(p: &Pred, axes: &[DomainSymbol]) -> bool {
    let symbols = p.symbols();
    !symbols.is_empty() && symbols.iter().all(|s| is_option(s, axes))
}

/// Where every value of a box breaks, when that is one obligation: the smallest `n` for
/// which some value breaks one of the first `n` obligations (a search over prefixes), if
/// every value breaks by then. `Some(None)`: the values break at different ones; `None`:
/// Z3 could not tell. `breaks(n)` asks whether some value of the box breaks one of the
/// first `n`, `meets(n)` whether some meets them all.
fn first_break(
    q: &mut Questions<'_>,
    n: usize,
    breaks: impl Fn(&mut Questions<'_>, usize) -> Option<bool>,
    meets: impl Fn(&mut Questions<'_>, usize) -> Option<bool>,
) -> Option<Option<usize>> {
    let (mut lo, mut hi) = (1, n);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        match breaks(q, mid)? {
            true => hi = mid,
            false => lo = mid + 1,
        }
    }
    Some((!meets(q, lo)?).then_some(lo - 1))
}

/// How a box of values was decided: an outcome for all of it, or halve it.
enum Decision {
    All(Outcome),
    Halve,
}

/// The options' values cut into boxes by `decide` (given each box's constraints, the
/// options' membership included), halving what it cannot decide whole.
fn cut(
    axes: &[DomainSymbol],
    q: &mut Questions<'_>,
    mut decide: impl FnMut(&mut Questions<'_>, &Region, &[Pred]) -> Option<Decision>,
) -> Vec<(Region, Outcome)> {
    let member = membership(axes);
    let whole: Region = axes.iter().map(|a| (0, a.values.len() - 1)).collect();
    let mut out = Vec::new();
    let mut work = vec![whole];
    while let Some(region) = work.pop() {
        let mut within = inside(axes, &region);
        within.extend(member.iter().cloned());
        match decide(q, &region, &within) {
            None => out.push((region, Outcome::Undecided)),
            Some(Decision::All(o)) => out.push((region, o)),
            Some(Decision::Halve) => match halves(&region) {
                None => out.push((region, Outcome::Undecided)),
                Some((low, high)) => {
                    work.push(high);
                    work.push(low);
                }
            },
        }
    }
    merge(out)
}

fn refs(preds: &[Pred]) -> Vec<&Pred> {
    preds.iter().collect()
}

/// That each option takes one of its values.
fn membership(axes: &[DomainSymbol]) -> Vec<Pred> {
    axes.iter()
        .map(|a| Pred::member_of(&a.symbol, &a.values))
        .collect()
}

/// Boxes for a ground run: each box fails throughout at one obligation, passes
/// throughout, or was not settled. Values are first asked about the obligations before
/// any assumption (where they fail whatever it says), then, where the assumptions hold,
/// about all of them: does some value fail; does some pass; when none passes, the first
/// obligation some value breaks (a search over prefixes), and whether every value breaks
/// there by then.
fn partition_ground(
    run: &RunView,
    axes: &[DomainSymbol],
    q: &mut Questions<'_>,
) -> Vec<(Region, Outcome)> {
    let upto = |n: usize| Pred::And(run.obligations[..n].to_vec());
    let not = |p: Pred| Pred::Not(Box::new(p));
    cut(axes, q, |q, _, within| {
        // Over the first `n` obligations and the facts `facts`: some value breaks one?
        let stage = |q: &mut Questions<'_>, facts: &[Pred], n: usize| -> Option<Decision> {
            let ask = |q: &mut Questions<'_>, p: Pred| {
                let mut extra: Vec<&Pred> = within.iter().collect();
                extra.push(&p);
                q.possible(&refs(facts), &extra)
            };
            if n == 0 || !ask(q, not(upto(n)))? {
                return Some(Decision::All(Outcome::Passes));
            }
            if ask(q, upto(n))? {
                return Some(Decision::Halve);
            }
            let found = first_break(q, n, |q, m| ask(q, not(upto(m))), |q, m| ask(q, upto(m)))?;
            Some(match found {
                Some(f) => Decision::All(Outcome::Fails(Some((0, f)))),
                None => Decision::Halve,
            })
        };
        let before = stage(q, &run.facts[..run.prefix_facts], run.prefix_obligations)?;
        if !matches!(before, Decision::All(Outcome::Passes)) {
            return Some(before);
        }
        if !run.assumptions.is_empty() {
            let mut outside: Vec<Pred> = within.to_vec();
            outside.push(not(Pred::And(run.assumptions.clone())));
            if q.possible(&[], &refs(&outside))? {
                let mut inside: Vec<Pred> = within.to_vec();
                inside.push(Pred::And(run.assumptions.clone()));
                return Some(match q.possible(&[], &refs(&inside))? {
                    true => Decision::Halve,
                    false => Decision::All(Outcome::Undecided),
                });
            }
        }
        stage(q, &run.facts, run.obligations.len())
    })
}

/// Boxes for ground runs that split the values between them (none assuming anything of
/// an option): a box none of whose values fails passes; one whose every value fails, within
/// one run's answers, fails at that run's first obligation any of them breaks, when every
/// value breaks by then; anything else is halved.
fn partition_ground_runs(
    runs: &[RunView],
    axes: &[DomainSymbol],
    q: &mut Questions<'_>,
) -> Vec<(Region, Outcome)> {
    // Some run, within its answers, breaks (or meets) its obligations: one question each
    // for all runs.
    let in_some_run = |broken: bool| {
        Pred::Or(
            runs.iter()
                .map(|run| {
                    let all = Pred::And(run.obligations.clone());
                    let outcome = match broken {
                        true => Pred::Not(Box::new(all)),
                        false => all,
                    };
                    Pred::And(run.facts.iter().cloned().chain([outcome]).collect())
                })
                .collect(),
        )
    };
    let (breaks, meets) = (in_some_run(true), in_some_run(false));
    cut(axes, q, |q, region, within| {
        let ask = |q: &mut Questions<'_>, p: &Pred| {
            let mut extra = within.to_vec();
            extra.push(p.clone());
            q.possible(&[], &refs(&extra))
        };
        let fails = ask(q, &breaks)?;
        let passes = ask(q, &meets)?;
        match (fails, passes) {
            (false, _) => return Some(Decision::All(Outcome::Passes)),
            (true, true) => return Some(Decision::Halve),
            (true, false) => {}
        }
        // Every value fails: where, when the box lies in one run's answers (else halve it
        // until it does).
        let mut inside: Vec<usize> = Vec::new();
        for (r, run) in runs.iter().enumerate() {
            if ask(q, &Pred::And(run.facts.clone()))? {
                inside.push(r);
            }
        }
        let [r] = inside[..] else {
            return Some(match halves(region) {
                Some(_) => Decision::Halve,
                None => Decision::All(Outcome::Fails(None)),
            });
        };
        let run = &runs[r];
        if run.obligations.is_empty() {
            return None;
        }
        let facts = Pred::And(run.facts.clone());
        let upto = |n: usize| Pred::And(run.obligations[..n].to_vec());
        let found = first_break(
            q,
            run.obligations.len(),
            |q, m| {
                ask(
                    q,
                    &Pred::And(vec![facts.clone(), Pred::Not(Box::new(upto(m)))]),
                )
            },
            |q, m| ask(q, &Pred::And(vec![facts.clone(), upto(m)])),
        )?;
        Some(match found {
            Some(f) => Decision::All(Outcome::Fails(Some((r, f)))),
            None => Decision::Halve,
        })
    })
}

/// Boxes for runs with inputs besides the options: a box no input of any run gets
/// through fails (where, its first value says) when every value of it is one the runs
/// speak for (their assumptions hold, or it breaks before them); one some input gets
/// through is halved down to single values, which pass.
fn partition(
    runs: &[RunView],
    axes: &[DomainSymbol],
    q: &mut Questions<'_>,
) -> Vec<(Region, Outcome)> {
    cut(axes, q, |q, region, within| {
        let point = halves(region).is_none();
        let mut any_unknown = false;
        for run in runs {
            let mut all = within.to_vec();
            all.extend(run.obligations.iter().cloned());
            match q.possible(&refs(&run.facts), &refs(&all)) {
                Some(true) if point => return Some(Decision::All(Outcome::Passes)),
                Some(true) => return Some(Decision::Halve),
                Some(false) => {}
                None => any_unknown = true,
            }
        }
        if any_unknown {
            return None;
        }
        for run in runs {
            if !run.assumptions_hold(within, q)? {
                return Some(match point {
                    true => Decision::All(Outcome::Undecided),
                    false => Decision::Halve,
                });
            }
        }
        Some(Decision::All(Outcome::Fails(None)))
    })
}

/// The region cut in two along its widest range; `None` for a single combination.
fn halves(region: &Region) -> Option<(Region, Region)> {
    let (axis, &(lo, hi)) = region
        .iter()
        .enumerate()
        .max_by_key(|(i, (lo, hi))| (hi - lo, usize::MAX - i))?;
    if lo == hi {
        return None;
    }
    let mid = lo + (hi - lo) / 2;
    let (mut low, mut high) = (region.clone(), region.clone());
    low[axis] = (lo, mid);
    high[axis] = (mid + 1, hi);
    Some((low, high))
}

/// Boxes of one outcome that differ along one option only, where they touch, as one; in
/// the order of their first values.
fn merge(mut boxes: Vec<(Region, Outcome)>) -> Vec<(Region, Outcome)> {
    loop {
        boxes.sort_by(|a, b| a.0.cmp(&b.0));
        let mut merged = false;
        'outer: for i in 0..boxes.len() {
            for j in 0..boxes.len() {
                if i == j || boxes[i].1 != boxes[j].1 {
                    continue;
                }
                let (a, b) = (&boxes[i].0, &boxes[j].0);
                let differing: Vec<usize> = (0..a.len()).filter(|&k| a[k] != b[k]).collect();
                if let [k] = differing[..] {
                    if a[k].1 + 1 == b[k].0 {
                        let mut joined = a.clone();
                        joined[k] = (a[k].0, b[k].1);
                        boxes[i].0 = joined;
                        boxes.remove(j);
                        merged = true;
                        break 'outer;
                    }
                }
            }
        }
        if !merged {
            return boxes;
        }
    }
}

/// The options within the region's values.
fn inside(axes: &[DomainSymbol], region: &Region) -> Vec<Pred> {
    let mut out = Vec::new();
    for (a, &(lo, hi)) in axes.iter().zip(region) {
        let (lo, hi) = (a.values[lo], a.values[hi]);
        if lo == hi {
            out.push(Pred::Eq(a.symbol.clone(), DimExpr::constant(lo)));
        } else {
            out.push(Pred::Le(DimExpr::constant(lo), a.symbol.clone()));
            out.push(Pred::Le(a.symbol.clone(), DimExpr::constant(hi)));
        }
    }
    out
}

/// `k=5`; `8 <= k <= 100`; several options joined by `, `.
fn label(axes: &[DomainSymbol], region: &Region) -> String {
    let parts: Vec<String> = axes
        .iter()
        .zip(region)
        .map(|(a, &(lo, hi))| {
            let (lo, hi) = (a.values[lo], a.values[hi]);
            match lo == hi {
                true => format!("{}={lo}", a.name),
                false => format!("{lo} <= {} <= {hi}", a.name),
            }
        })
        .collect();
    parts.join(", ")
}

/// Where the unit breaks with the options at the region's first values: its finding then.
/// First without the runs' assumptions (a value outside them breaks before them, or the
/// assumption would be what fails): that finding when every run breaks before its first
/// assumption; else with every fact.
fn where_it_breaks(
    unit: &Unit,
    axes: &[DomainSymbol],
    region: &Region,
    z3: &mut JobSolver,
) -> Option<Finding> {
    let value = |name: &str| {
        axes.iter()
            .zip(region)
            .find(|(a, _)| a.symbol.symbols().iter().any(|s| s.as_ref() == name))
            .map(|(a, &(lo, _))| DimExpr::constant(a.values[lo]))
    };
    let fixed = |before_assumptions: bool| {
        let mut fixed = unit.clone();
        // Runs whose answers the value does not meet (the other side of `if depth > 1`)
        // are not its runs.
        fixed.runs.retain(|run| {
            !run.trace.facts.iter().any(|f| {
                !f.assumed
                    && only_options(&f.pred, axes)
                    && f.pred.substitute(&value).decide() == Some(false)
            })
        });
        for run in &mut fixed.runs {
            if before_assumptions {
                let view = RunView::new(run, axes);
                run.trace.facts.truncate(view.prefix_facts);
            }
            for (a, &(lo, _)) in axes.iter().zip(region) {
                run.trace.facts.push(Fact {
                    pred: Pred::Eq(a.symbol.clone(), DimExpr::constant(a.values[lo])),
                    span: None,
                    after: 0,
                    assumed: false,
                });
            }
        }
        fixed
    };
    let early = fixed(true);
    let solved = crate::jobs::solve_unit(&early, "", z3);
    let before_them = early
        .runs
        .iter()
        .zip(&solved)
        .all(|(run, s)| match &s.verdict {
            Verdict::Unsat { failing, .. } => *failing < RunView::new(run, axes).prefix_obligations,
            _ => s.verdict.is_excluded(),
        });
    if before_them {
        if let Some(f) = unit_finding(&early, &solved) {
            return Some(f);
        }
    }
    let late = fixed(false);
    let solved = crate::jobs::solve_unit(&late, "", z3);
    unit_finding(&late, &solved)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn symbol(name: &str, values: std::ops::RangeInclusive<i64>) -> DomainSymbol {
        DomainSymbol {
            name: name.to_string(),
            symbol: DimExpr::sym(name),
            values: values.collect(),
        }
    }

    #[test]
    fn boxes_of_one_outcome_that_touch_are_merged() {
        let boxes = vec![
            (vec![(0, 1)], Outcome::Passes),
            (vec![(4, 9)], Outcome::Fails(Some((0, 2)))),
            (vec![(2, 3)], Outcome::Fails(Some((0, 2)))),
            (vec![(10, 10)], Outcome::Passes),
        ];
        assert_eq!(
            merge(boxes),
            vec![
                (vec![(0, 1)], Outcome::Passes),
                (vec![(2, 9)], Outcome::Fails(Some((0, 2)))),
                (vec![(10, 10)], Outcome::Passes),
            ]
        );
        let axes = [symbol("k", 1..=11)];
        assert_eq!(label(&axes, &vec![(2, 9)]), "3 <= k <= 10");
        assert_eq!(label(&axes, &vec![(10, 10)]), "k=11");
    }

    /// The messages of a script's errors, by line.
    fn said(src: &str) -> Vec<(u32, String)> {
        crate::testing::errors(src)
            .into_iter()
            .map(|f| (f.span.line, f.message))
            .collect()
    }

    const KERNEL: &str = r#"
import argparse
import torch
import torch.nn as nn

def run(kernel_size=3):
    model = nn.Conv2d(3, 8, kernel_size)
    return model(torch.randn(1, 3, 12, 12))

def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--kernel-size", type=int, default=3)
    args = parser.parse_args(argv)
    CHECK
    run(kernel_size=args.kernel_size)

if __name__ == "__main__":
    main()
"#;

    /// A range of a hundred values stated after parsing: one question per value would be
    /// too many; the values past the 12x12 input are named as a range.
    #[test]
    fn a_range_too_large_to_run_value_by_value_is_cut_into_ranges() {
        let src = KERNEL.replace("CHECK", "assert 1 <= args.kernel_size <= 100");
        let found = said(&src);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, 8);
        assert!(
            found[0]
                .1
                .ends_with("fails for 13 <= kernel_size <= 100; passes for 1 <= kernel_size <= 12"),
            "{}",
            found[0].1
        );
        // A range the input takes whole: nothing fails.
        let fits = KERNEL.replace("CHECK", "assert 1 <= args.kernel_size <= 12");
        assert!(said(&fits).is_empty());
        // `not in range(...)` states the range too.
        let stated = KERNEL.replace(
            "CHECK",
            "if args.kernel_size not in range(1, 101):\n        parser.error('kernel')",
        );
        assert_eq!(said(&stated), found);
    }

    /// Scattered failing values (a width each head count must divide), and two options
    /// whose failing combinations depend on both.
    #[test]
    fn scattered_values_and_combinations_are_named() {
        let heads = r#"
import argparse
import torch
import torch.nn as nn

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--heads", type=int, default=4, choices=range(1, 41))
    args = parser.parse_args()
    attn = nn.MultiheadAttention(24, args.heads, batch_first=True)
    x = torch.randn(2, 5, 24)
    attn(x, x, x)

main()
"#;
        let found = said(heads);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].1.ends_with(
                "fails for heads=5, heads=7, 9 <= heads <= 11, 13 <= heads <= 23, \
                 25 <= heads <= 40; passes for 1 <= heads <= 4, heads=6, heads=8, heads=12, \
                 heads=24"
            ),
            "{}",
            found[0].1
        );
        let both = KERNEL
            .replace("kernel_size=3):", "kernel_size=3, stride=1):")
            .replace(
                "nn.Conv2d(3, 8, kernel_size)",
                "nn.Conv2d(3, 8, kernel_size, stride)",
            )
            .replace(
                "model(torch.randn(1, 3, 12, 12))",
                "model(torch.randn(1, 3, 12, 12)).view(1, 8, 4, -1)",
            )
            .replace(
                "default=3)",
                "default=3)\n    parser.add_argument(\"--stride\", type=int, default=1)",
            )
            .replace(
                "CHECK",
                "assert 1 <= args.kernel_size <= 12 and 1 <= args.stride <= 4",
            )
            .replace(
                "run(kernel_size=args.kernel_size)",
                "run(args.kernel_size, args.stride)",
            );
        let found = said(&both);
        assert_eq!(found.len(), 1, "{found:?}");
        // What torch does (checked under torch 2 on CPU): (12 - k) // s + 1 output rows, and
        // the view needs an even number of them.
        let fails = |k: i64, s: i64| ((12 - k) / s + 1).pow(2) % 4 != 0;
        let part = found[0].1.split("fails for ").nth(1).unwrap_or("");
        let part = part.split("; passes for ").next().unwrap_or("");
        let named = |k: i64, s: i64| {
            part.split("), (").any(|item| {
                let parts: Vec<&str> = item
                    .trim_matches(|c| c == '(' || c == ')')
                    .split(", ")
                    .collect();
                let holds = |text: &str, v: i64| match text.split(" <= ").collect::<Vec<_>>()[..] {
                    [lo, _, hi] => lo.parse::<i64>().unwrap() <= v && v <= hi.parse().unwrap(),
                    _ => text.split_once('=').unwrap().1.parse::<i64>().unwrap() == v,
                };
                parts.len() == 2 && holds(parts[0], k) && holds(parts[1], s)
            })
        };
        for k in 1..=12 {
            for s in 1..=4 {
                assert_eq!(
                    named(k, s),
                    fails(k, s),
                    "kernel {k}, stride {s}: {}",
                    found[0].1
                );
            }
        }
    }

    /// `chunk` of a size taken to divide evenly is an assumption: a value for which it does
    /// not is not said to pass; one that breaks before it (the `view`) is said to fail.
    #[test]
    fn values_outside_an_assumption_are_not_settled_unless_they_break_before_it() {
        let src = r#"
import argparse
import torch

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--heads", type=int, default=4, choices=range(1, 41))
    args = parser.parse_args()
    x = torch.randn(2, 120)
    q = x.view(2, args.heads, 120 // args.heads)
    a, b = q.chunk(2, dim=-1)
    torch.cat((b, a), dim=-1) + torch.randn(2, args.heads, 2 * (60 // args.heads))

main()
"#;
        let found = said(src);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, 10, "the view: {}", found[0].1);
        // 7 breaks at the view (120 is no multiple of 7), before the chunk's assumption; 8
        // gets past the view, but its head dim (15) is odd: not said to pass or fail.
        assert!(
            found[0].1.ends_with(
                "fails for heads=7, heads=9, heads=11, 13 <= heads <= 14, 16 <= heads <= 19, \
                 21 <= heads <= 23, 25 <= heads <= 29, 31 <= heads <= 39; passes for \
                 1 <= heads <= 6, heads=10, heads=12, heads=15, heads=20, heads=30; \
                 not settled for heads=8, heads=24, heads=40"
            ),
            "{}",
            found[0].1
        );
    }

    /// `math.ceil(a / b)` and a size squared stay exact over symbols: a positional table of
    /// `ceil(32 / p) ** 2` rows fits the convolution's `(32 // p) ** 2` patches where `p`
    /// divides 32 (or one patch broadcasts).
    #[test]
    fn rounded_quotients_and_squares_of_options_are_exact() {
        let src = r#"
import argparse
import math
import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--patch", type=int, default=4)
args = parser.parse_args()
assert 1 <= args.patch <= 40
n = math.ceil(32 / args.patch) ** 2
x = nn.Conv2d(3, 8, args.patch, args.patch)(torch.randn(1, 3, 32, 32))
x.flatten(2).transpose(1, 2) + torch.zeros(1, n, 8)
"#;
        let found = said(src);
        let lines: Vec<u32> = found.iter().map(|f| f.0).collect();
        assert_eq!(lines, vec![12, 13], "{found:?}");
        // As torch 2 on CPU: the add fails for 3, 5-7, 9-15 (17-31 give one patch, which
        // broadcasts), the convolution past 32.
        let passes = "passes for 1 <= patch <= 2, patch=4, patch=8, 16 <= patch <= 32";
        assert!(
            found[0]
                .1
                .ends_with(&format!("fails for 33 <= patch <= 40; {passes}")),
            "{}",
            found[0].1
        );
        assert!(
            found[1].1.ends_with(&format!(
                "fails for patch=3, 5 <= patch <= 7, 9 <= patch <= 15; {passes}"
            )),
            "{}",
            found[1].1
        );
    }

    /// A condition on an option alone splits the run, each side building what it builds: a
    /// window clipped to the 16x16 map for 16 and up, and the values below that do not
    /// divide 16 failing the view.
    #[test]
    fn a_condition_on_an_option_splits_the_run() {
        let src = r#"
import argparse
import torch

parser = argparse.ArgumentParser()
parser.add_argument("--window", type=int, default=7)
args = parser.parse_args()
assert 1 <= args.window <= 48
ws = args.window
if 16 <= ws:
    ws = 16
torch.randn(2, 16, 16, 8).view(2, 16 // ws, ws, 16 // ws, ws, 8)
"#;
        let found = said(src);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, 12);
        assert!(
            found[0].1.ends_with(
                "fails for window=3, 5 <= window <= 7, 9 <= window <= 15; passes for \
                 1 <= window <= 2, window=4, window=8, 16 <= window <= 48"
            ),
            "{}",
            found[0].1
        );
    }

    /// What only a size of the data reads (a `view` of a `nonzero` count's rows) shares
    /// nothing with the options: the run is still ground, and each range is placed at the
    /// operation its values break, as without it.
    #[test]
    fn sizes_only_the_data_decides_leave_the_run_ground() {
        let src = r#"
import argparse
import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--patch", type=int, default=4)
parser.add_argument("--image", type=int, default=32, choices=[24, 28, 32, 36])
args = parser.parse_args()
assert 1 <= args.patch <= 32
DATA
n = (args.image // args.patch) ** 2
x = nn.Conv2d(3, 8, args.patch, args.patch)(torch.randn(1, 3, args.image, args.image))
x.flatten(2).transpose(1, 2) + torch.zeros(1, n + 1, 8)
"#;
        let plain = said(&src.replace("DATA", ""));
        let with_data = said(&src.replace(
            "DATA",
            "kept = torch.nonzero(torch.randn(8) > 0).shape[0]\ntorch.zeros(kept, 4).view(3, -1)",
        ));
        assert_eq!(plain.len(), 2, "{plain:?}");
        assert!(
            plain[0].1.contains(
                "fails for (25 <= patch <= 28, image=24), (29 <= patch <= 32, 24 <= image <= 28);"
            ),
            "{}",
            plain[0].1
        );
        assert_eq!(
            with_data.iter().map(|f| &f.1).collect::<Vec<_>>(),
            plain.iter().map(|f| &f.1).collect::<Vec<_>>()
        );
    }

    #[test]
    fn halves_cut_the_widest_range() {
        assert_eq!(
            halves(&vec![(0, 3), (0, 9)]),
            Some((vec![(0, 3), (0, 4)], vec![(0, 3), (5, 9)]))
        );
        assert_eq!(halves(&vec![(2, 2), (5, 5)]), None);
    }
}
