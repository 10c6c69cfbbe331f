//! Constraint jobs: one per unit run. A job holds the run's facts and obligations; solving it
//! decides whether every input consistent with the facts violates some obligation (UNSAT: a
//! finding candidate) or not (SAT). The shape engine's algebra decides what it can; Z3 decides
//! the rest, one reused solver per worker thread, each check bounded by a timeout.

pub mod queries;
pub mod simplify;
pub mod terms;

use rustc_hash::FxHashSet as HashSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

use z3::ast::{Bool, Int};
use z3::SatResult;

use crate::eval::Input;
use crate::guard::{catch_panic, inject_panic};
use crate::shapes::Pred;
use crate::units::{Unit, UnitKind, UnitRun};
use terms::Symbols;

/// Per-check Z3 timeout.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_millis(500);

/// How a job ended; it travels between processes with its job's result.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Verdict {
    /// Some input satisfies every obligation: no finding.
    Sat,
    /// No input consistent with the facts gets through: obligation `failing` is where it
    /// breaks (the first whose prefix is unsatisfiable); `core` the obligations (indices,
    /// ascending) whose conjunction with the facts is already contradictory. Working these
    /// out takes many more checks than the verdict, so [`solve_unit`] does it only for a
    /// unit that is a finding (every run contradictory); in other units the verdict has an
    /// empty `core` (a real one holds at least `failing`) and `failing` means nothing.
    Unsat {
        failing: usize,
        core: Vec<usize>,
        witness: Option<String>,
    },
    /// Z3 gave up (timeout or `unknown`): recorded, never a finding.
    Unknown,
    /// Not solved, and why.
    Skipped(SkipReason),
}

/// Why a job was not solved.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum SkipReason {
    /// A parameter assumed to be a tensor was used as something else, on a path some
    /// input takes: the run proves nothing.
    AssumptionViolated,
    /// The run recorded no shape requirement.
    NoObligations,
    /// An earlier run of its unit is not contradictory: no finding can come of the unit,
    /// whatever this one gives.
    UnitSettled,
    /// Solving panicked (the message); the solver was replaced.
    InternalError(String),
    /// The run, or its solving, spent a budget (which one: `crate::budget`).
    Budget(String),
    /// The user's assumptions exclude the run's inputs (why): it neither makes nor blocks a
    /// finding.
    OutsideAssumptions(String),
}

impl SkipReason {
    /// The `jobs` table's `skip_reason`.
    pub fn message(&self) -> String {
        match self {
            SkipReason::AssumptionViolated => "assumption violated".to_string(),
            SkipReason::NoObligations => "no obligations".to_string(),
            SkipReason::UnitSettled => {
                "unit settled: an earlier variant is not contradictory".to_string()
            }
            SkipReason::InternalError(panic) => format!("internal error: {panic}"),
            SkipReason::Budget(what) => format!("budget: {what}"),
            SkipReason::OutsideAssumptions(why) => format!("outside the assumptions: {why}"),
        }
    }
}

impl Verdict {
    /// The run is outside the user's assumptions: a unit's finding ignores it.
    pub fn is_excluded(&self) -> bool {
        matches!(self, Verdict::Skipped(SkipReason::OutsideAssumptions(_)))
    }

    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Sat => "sat",
            Verdict::Unsat { .. } => "unsat",
            Verdict::Unknown => "unknown",
            Verdict::Skipped(_) => "skipped",
        }
    }
}

/// A solved job.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Solved {
    pub verdict: Verdict,
    pub micros: u64,
    /// Whether Z3 was needed (the algebra alone could not decide).
    pub used_z3: bool,
    pub variables: usize,
    pub constraints: usize,
}

/// Z3's work count (its `rlimit`, a count of its own steps) allowed per millisecond of a
/// limit. Limits are work, not time, so that what Z3 decides within them does not depend on
/// the machine's load or on how many workers share it: a job near a time limit was `sat` in
/// one scan and `unknown` in the next. On this project's machines Z3 does 0.6–2.3 million
/// steps a second on the hardest jobs of corpus/real.
const WORK_PER_MS: u64 = 1_000;

/// A check's wall-clock guard, as a multiple of its limit: reached only where Z3 counts its
/// steps unusually slowly, so only there does load still change an answer.
const WALL_GUARD: u32 = 4;

/// The work a limit of `d` allows.
fn work(d: Duration) -> u64 {
    (d.as_millis() as u64).saturating_mul(WORK_PER_MS).max(1)
}

/// One Z3 solver, reused across jobs with push/pop, each check bounded by the work a limit
/// of `timeout` allows ([`WORK_PER_MS`]). Not `Send`: each worker thread builds its own.
pub struct JobSolver {
    solver: z3::Solver,
    timeout: Duration,
    /// The budget of the job being solved, when one is.
    job: std::cell::Cell<Option<Job>>,
    /// The work and wall-clock limits set in Z3 now.
    limits: std::cell::Cell<(u64, u32)>,
    /// Whether a check was refused or cut short by the job's budget.
    expired: std::cell::Cell<bool>,
}

impl JobSolver {
    pub fn new(timeout: Duration) -> Self {
        let solver = z3::Solver::new();
        let mut params = z3::Params::new();
        // Z3 would otherwise take SIGINT for itself while it checks: Ctrl-C is the binary's.
        params.set_bool("ctrl_c", false);
        solver.set_params(&params);
        JobSolver {
            solver,
            timeout,
            job: std::cell::Cell::new(None),
            limits: std::cell::Cell::new((0, 0)),
            expired: std::cell::Cell::new(false),
        }
    }

    fn z3(&self) -> &z3::Solver {
        &self.solver
    }

    /// Sets the next check's limits; Z3 merges them into the parameters already set.
    fn set_limits(&self, work: u64, wall: Duration) {
        let wall = wall.as_millis().clamp(1, u32::MAX as u128) as u32;
        if self.limits.get() == (work, wall) {
            return;
        }
        let mut params = z3::Params::new();
        params.set_u32("rlimit", work.min(u32::MAX as u64) as u32);
        params.set_u32("timeout", wall);
        self.solver.set_params(&params);
        self.limits.set((work, wall));
    }

    /// Z3's work count so far, in this solver's context.
    fn work_done(&self) -> u64 {
        match self.solver.get_statistics().value("rlimit count") {
            Some(z3::StatisticsValue::UInt(n)) => u64::from(n),
            Some(z3::StatisticsValue::Double(n)) => n as u64,
            None => 0,
        }
    }

    /// Starts a job: its checks together may spend the work `budget` allows.
    fn start_job(&self, budget: Duration) {
        self.job.set(Some(Job {
            work_left: work(budget),
            deadline: Instant::now() + budget.saturating_mul(WALL_GUARD),
        }));
        self.expired.set(false);
    }

    /// Ends the job, giving back what is left of its budget (to go on with on another
    /// solver): checks are bounded by their own limit alone again.
    fn end_job(&self) -> Option<Job> {
        self.job.take()
    }

    /// Whether the job's budget is spent.
    pub fn spent(&self) -> bool {
        self.expired.get() || self.job.get().is_some_and(|j| j.work_left == 0)
    }

    /// A check, within its own limit and what is left of the job's budget (past it,
    /// `Unknown` without asking Z3).
    fn check(&self, assumptions: &[Bool]) -> SatResult {
        let job = self.job.get();
        let wall_left = job.map(|j| j.deadline.saturating_duration_since(Instant::now()));
        if job.is_some_and(|j| j.work_left == 0) || wall_left.is_some_and(|w| w.is_zero()) {
            self.expired.set(true);
            return SatResult::Unknown;
        }
        let own = work(self.timeout);
        let guard = self.timeout.saturating_mul(WALL_GUARD);
        self.set_limits(
            job.map_or(own, |j| j.work_left.min(own)),
            wall_left.map_or(guard, |w| w.min(guard)),
        );
        let before = job.map(|_| self.work_done());
        let result = self.z3().check_assumptions(assumptions);
        if let (Some(mut job), Some(before)) = (job, before) {
            job.work_left = job
                .work_left
                .saturating_sub(self.work_done().saturating_sub(before));
            self.job.set(Some(job));
            if result == SatResult::Unknown
                && (job.work_left == 0 || Instant::now() >= job.deadline)
            {
                self.expired.set(true);
            }
        }
        result
    }
}

/// A job's budget over all its checks: Z3's steps left, and the wall-clock guard.
#[derive(Clone, Copy)]
struct Job {
    work_left: u64,
    deadline: Instant,
}

/// `f` with a solver of its own in a fresh Z3 context, so that what it answers depends on
/// the job alone: a context's history (the terms it already holds) changes Z3's choices,
/// and so what it decides within a limit. A panic in `f` is raised again outside (unwinding
/// out of `with_z3_config` would leave the temporary context as the thread's).
fn in_fresh_context<T: Send + Sync>(
    timeout: Duration,
    f: impl FnOnce(&JobSolver) -> T + Send + Sync,
) -> T {
    let out = z3::with_z3_config(&z3::Config::new(), || {
        catch_panic(|| f(&JobSolver::new(timeout)))
    });
    out.unwrap_or_else(|panic| std::panic::resume_unwind(Box::new(panic)))
}

/// Estimated cost of a job, for balancing work across workers.
pub fn cost(run: &UnitRun) -> u64 {
    let size: usize = run
        .trace
        .obligations
        .iter()
        .map(|o| pred_size(&o.pred))
        .sum::<usize>()
        + run.trace.facts.len();
    size as u64 + 1
}

fn pred_size(p: &Pred) -> usize {
    match p {
        Pred::And(ps) | Pred::Or(ps) => 1 + ps.iter().map(pred_size).sum::<usize>(),
        Pred::Not(p) => 1 + pred_size(p),
        _ => 1,
    }
}

/// Solves a unit's runs in order until one is not contradictory; the rest are skipped
/// ([`SkipReason::UnitSettled`]): a finding needs every run to be. `solved[i]` is
/// `unit.runs[i]`. A panic while solving a run skips it ([`SkipReason::InternalError`]) and
/// replaces the solver, whose state is then unknown; `path` names the unit's file for fault
/// injection.
pub fn solve_unit(unit: &Unit, path: &str, z3: &mut JobSolver) -> Vec<Solved> {
    let mut out = decide_runs(unit, path, z3, true, &[]);
    // The unit is a finding: each contradictory run's failing obligation, core and
    // witness, which the finding chooses from and shows. In a fresh Z3 context: the model
    // (the witness) of a reused solver, or of a new solver in the thread's context, depends
    // on what was solved there before, so on the worker and the order jobs reached it.
    if is_finding(&out) {
        for (run, solved) in unit.runs.iter().zip(out.iter_mut()) {
            if !matches!(&solved.verdict, Verdict::Unsat { core, .. } if core.is_empty()) {
                continue;
            }
            let detailed = catch_panic(|| {
                in_fresh_context(z3.timeout, |fresh| {
                    solve(unit.kind, run, fresh, Detail::Core)
                })
            });
            let micros = solved.micros;
            *solved =
                detailed.unwrap_or_else(|panic| skipped(run, SkipReason::InternalError(panic)));
            solved.micros += micros;
        }
    }
    out
}

/// Whether a unit solved so is a finding: it has runs inside the user's assumptions and
/// every one of them is contradictory. The one rule `findings::unit_finding` and the
/// details `solve_unit` works out both follow.
pub fn is_finding(solved: &[Solved]) -> bool {
    let kept = || solved.iter().filter(|s| !s.verdict.is_excluded());
    kept().next().is_some() && kept().all(|s| matches!(s.verdict, Verdict::Unsat { .. }))
}

/// How much of a contradiction to work out.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Detail {
    /// Only whether the run is contradictory (one check).
    Verdict,
    /// Also where it breaks, the core and a witness.
    Core,
}

/// Each run's verdict, in order, until one is not contradictory.
/// Each run's verdict (no core, no witness), every run of the unit: which rank variants some
/// input gets through, for its signature (`crate::signatures`).
/// Runs `known` already decided (solved for the unit's finding; every run but those left
/// [`SkipReason::UnitSettled`]) keep their verdict.
pub fn solve_every_run(
    unit: &Unit,
    path: &str,
    z3: &mut JobSolver,
    known: &[Solved],
) -> Vec<Solved> {
    decide_runs(unit, path, z3, false, known)
}

/// Each run's verdict in order; with `settle`, the runs after one that is not
/// contradictory are left (the unit is no finding whatever they give).
fn decide_runs(
    unit: &Unit,
    path: &str,
    z3: &mut JobSolver,
    settle: bool,
    known: &[Solved],
) -> Vec<Solved> {
    let mut out: Vec<Solved> = Vec::with_capacity(unit.runs.len());
    for (i, run) in unit.runs.iter().enumerate() {
        if let Some(s) = known.get(i) {
            if !matches!(s.verdict, Verdict::Skipped(SkipReason::UnitSettled)) {
                out.push(s.clone());
                continue;
            }
        }
        let settled = settle
            && out
                .iter()
                .rev()
                .find(|s| !s.verdict.is_excluded())
                .is_some_and(|s| !matches!(s.verdict, Verdict::Unsat { .. }));
        let budget = crate::budget::budgets();
        let solved = if let Some(why) = &run.trace.excluded {
            Ok(skipped(run, SkipReason::OutsideAssumptions(why.clone())))
        } else if settled {
            Ok(skipped(run, SkipReason::UnitSettled))
        } else if let Some(what) = &run.trace.over_budget {
            Ok(skipped(run, SkipReason::Budget(what.clone())))
        } else if cost(run) > budget.job_terms as u64 {
            let what = format!("a constraint job of more than {} terms", budget.job_terms);
            Ok(skipped(run, SkipReason::Budget(what)))
        } else {
            catch_panic(|| {
                inject_panic("solve", path);
                solve(unit.kind, run, z3, Detail::Verdict)
            })
        };
        out.push(solved.unwrap_or_else(|panic| {
            *z3 = JobSolver::new(z3.timeout);
            skipped(run, SkipReason::InternalError(panic))
        }));
    }
    out
}

fn skipped(run: &UnitRun, reason: SkipReason) -> Solved {
    Solved {
        verdict: Verdict::Skipped(reason),
        micros: 0,
        used_z3: false,
        variables: 0,
        constraints: run.trace.obligations.len() + run.trace.facts.len(),
    }
}

/// Constraints from which a job is solved on a fresh solver (see [`solve`]).
const FRESH_SOLVER_CONSTRAINTS: usize = 100;

/// Solves one run of a unit of `kind`.
///
/// A reused solver's answer can depend on what it solved before: a job it gives up on
/// (`Unknown`) is tried once more in a fresh context ([`in_fresh_context`]), so that
/// verdicts near the limit do not hang on the order jobs arrive in.
///
/// A large job (where giving up is likely) goes straight to a fresh context: its answer is
/// then independent of history on the first try, and the limit is not spent twice.
fn solve(kind: UnitKind, run: &UnitRun, z3: &JobSolver, detail: Detail) -> Solved {
    let budget = crate::budget::budgets().job_solving;
    let deadline_spent = |mut solved: Solved, solver: &JobSolver| {
        if solved.verdict == Verdict::Unknown && solver.expired.get() {
            let what = format!("{} s of solving per job", budget.as_secs_f64());
            solved.verdict = Verdict::Skipped(SkipReason::Budget(what));
        }
        solved
    };
    if run.trace.obligations.len() + run.trace.facts.len() >= FRESH_SOLVER_CONSTRAINTS {
        return in_fresh_context(z3.timeout, |fresh| {
            fresh.start_job(budget);
            deadline_spent(solve_once(kind, run, fresh, detail), fresh)
        });
    }
    z3.start_job(budget);
    let first = solve_once(kind, run, z3, detail);
    // The retry has what is left of the job's budget.
    let job = z3.end_job();
    if first.verdict != Verdict::Unknown || z3.expired.get() {
        return deadline_spent(first, z3);
    }
    in_fresh_context(z3.timeout, |fresh| {
        fresh.job.set(job);
        let mut again = solve_once(kind, run, fresh, detail);
        again.micros += first.micros;
        deadline_spent(again, fresh)
    })
}

fn solve_once(kind: UnitKind, run: &UnitRun, z3: &JobSolver, detail: Detail) -> Solved {
    let start = Instant::now();
    let trace = &run.trace;
    let mut solved = Solved {
        verdict: Verdict::Sat,
        micros: 0,
        used_z3: false,
        variables: 0,
        constraints: trace.obligations.len() + trace.facts.len(),
    };
    // What the facts say is at least 1; read once, for the paths and the obligations.
    let nothing_to_decide = trace.guarded_violations.is_empty() && trace.obligations.is_empty();
    let needed = !(trace.assumption_violated || nothing_to_decide);
    let positive = if needed {
        simplify::positive_symbols(&trace.facts)
    } else {
        HashSet::default()
    };
    let doubtful_path = || {
        trace
            .guarded_violations
            .iter()
            .any(|path| path_feasible(trace, path, &positive, z3))
    };
    if !trace.assumed.is_empty() && !assumptions_admit_input(trace, &positive, z3) {
        let why = "no input satisfies them".to_string();
        solved.verdict = Verdict::Skipped(SkipReason::OutsideAssumptions(why));
    } else if trace.assumption_violated || doubtful_path() {
        solved.verdict = Verdict::Skipped(SkipReason::AssumptionViolated);
    } else if trace.obligations.is_empty() {
        solved.verdict = Verdict::Skipped(SkipReason::NoObligations);
    } else {
        // The algebra: drop what holds, stop at what cannot.
        let preds: Vec<Pred> = trace
            .obligations
            .iter()
            .map(|o| simplify::simplify(&o.pred, &positive))
            .collect();
        let mut open = Vec::new();
        let mut definite = None;
        for (i, p) in preds.iter().enumerate() {
            match p.decide() {
                Some(true) => {}
                Some(false) => {
                    definite = Some(i);
                    break;
                }
                None => open.push(i),
            }
        }
        solved.verdict = match (definite, open.is_empty()) {
            (Some(i), true) => Verdict::Unsat {
                failing: i,
                core: vec![i],
                witness: witness_without_z3(kind, run),
            },
            (None, true) => Verdict::Sat,
            (None, false)
                if simplify::sample_model(
                    &trace
                        .facts
                        .iter()
                        .map(|f| &f.pred)
                        .chain(open.iter().map(|&i| &preds[i]))
                        .collect::<Vec<_>>(),
                ) =>
            {
                Verdict::Sat
            }
            _ => {
                solved.used_z3 = true;
                let (verdict, vars) = solve_with_z3(run, &preds, &open, definite, z3, detail);
                solved.variables = vars;
                verdict
            }
        };
    }
    solved.micros = start.elapsed().as_micros() as u64;
    solved
}

/// Whether some input satisfies the user's assumptions about the run, with its symbols'
/// positivity (unknown counts as yes): otherwise every obligation would fail vacuously.
fn assumptions_admit_input(
    trace: &crate::eval::Trace,
    positive: &HashSet<Arc<str>>,
    z3: &JobSolver,
) -> bool {
    let preds: Vec<Pred> = trace
        .assumed
        .iter()
        .map(|p| simplify::simplify(p, positive))
        .collect();
    if preds.iter().any(|p| p.decide() == Some(false)) {
        return false;
    }
    let mut all: Vec<Pred> = preds;
    all.extend(positive.iter().map(|s| {
        Pred::Le(
            crate::shapes::DimExpr::one(),
            crate::shapes::DimExpr::sym(s),
        )
    }));
    if simplify::sample_model(&all.iter().collect::<Vec<_>>()) {
        return true;
    }
    let mut syms = Symbols::default();
    z3.z3().push();
    for p in &all {
        z3.z3().assert(terms::pred(p, &mut syms));
    }
    let admitted = z3.check(&[]) != SatResult::Unsat;
    z3.z3().pop(1);
    admitted
}

/// Whether some input consistent with the facts takes `path` (unknown counts as yes).
fn path_feasible(
    trace: &crate::eval::Trace,
    path: &Pred,
    positive: &HashSet<Arc<str>>,
    z3: &JobSolver,
) -> bool {
    let path = simplify::simplify(path, positive);
    if path.decide() == Some(false) {
        return false;
    }
    let mut preds: Vec<&Pred> = trace.facts.iter().map(|f| &f.pred).collect();
    preds.push(&path);
    if simplify::sample_model(&preds) {
        return true;
    }
    let mut syms = Symbols::default();
    z3.z3().push();
    for p in simplify::simplify_together(&preds) {
        z3.z3().assert(terms::pred(&p, &mut syms));
    }
    let feasible = z3.check(&[]) != SatResult::Unsat;
    z3.z3().pop(1);
    feasible
}

fn solve_with_z3(
    run: &UnitRun,
    preds: &[Pred],
    open: &[usize],
    definite: Option<usize>,
    z3: &JobSolver,
    detail: Detail,
) -> (Verdict, usize) {
    let trace = &run.trace;
    let mut syms = Symbols::default();
    z3.z3().push();
    let facts: Vec<&Pred> = trace.facts.iter().map(|f| &f.pred).collect();
    for f in simplify::simplify_together(&facts) {
        z3.z3().assert(terms::pred(&f, &mut syms));
    }
    // One assumption literal per open obligation (in order), plus the definite failure.
    let mut order: Vec<usize> = open.to_vec();
    if let Some(i) = definite {
        order.push(i);
    }
    let lits: Vec<Bool> = order
        .iter()
        .map(|&i| {
            let lit = Bool::new_const(format!("ob#{i}"));
            let p = terms::pred(&preds[i], &mut syms);
            z3.z3().assert(lit.implies(&p));
            lit
        })
        .collect();
    let vars = syms.iter().count();
    let verdict = match z3.check(&lits) {
        SatResult::Sat => Verdict::Sat,
        SatResult::Unknown => Verdict::Unknown,
        SatResult::Unsat if detail == Detail::Verdict => Verdict::Unsat {
            failing: order[0],
            core: Vec::new(),
            witness: None,
        },
        SatResult::Unsat => match first_unsat_prefix(z3, &lits) {
            None => Verdict::Unknown,
            Some(k) => {
                let core = minimal_core(z3, &lits[..=k]);
                let witness = if k == 0 {
                    model_witness(z3, &[], &trace.inputs, &mut syms)
                } else {
                    model_witness(z3, &lits[..k], &trace.inputs, &mut syms)
                };
                match core {
                    Some(core) => Verdict::Unsat {
                        failing: order[k],
                        core: core.into_iter().map(|j| order[j]).collect(),
                        witness,
                    },
                    None => Verdict::Unknown,
                }
            }
        },
    };
    z3.z3().pop(1);
    (verdict, vars)
}

/// The smallest `k` such that the first `k + 1` assumptions are unsatisfiable (binary
/// search; the whole list is known to be). `None` when a check times out.
fn first_unsat_prefix(z3: &JobSolver, lits: &[Bool]) -> Option<usize> {
    let (mut lo, mut hi) = (0usize, lits.len() - 1);
    while lo < hi {
        let mid = (lo + hi) / 2;
        match z3.check(&lits[..=mid]) {
            SatResult::Unsat => hi = mid,
            SatResult::Sat => lo = mid + 1,
            SatResult::Unknown => return None,
        }
    }
    Some(lo)
}

/// A minimal unsatisfiable subset (by deletion) of the assumptions, as indices. The last
/// assumption (the failing obligation) always stays: the prefix before it is satisfiable.
fn minimal_core(z3: &JobSolver, lits: &[Bool]) -> Option<Vec<usize>> {
    let mut keep: Vec<usize> = (0..lits.len()).collect();
    let mut i = 0;
    while i + 1 < keep.len() {
        let trial: Vec<Bool> = keep
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != i)
            .map(|(_, &k)| lits[k].clone())
            .collect();
        match z3.check(&trial) {
            SatResult::Unsat => {
                keep.remove(i);
            }
            SatResult::Sat => i += 1,
            SatResult::Unknown => return None,
        }
    }
    Some(keep)
}

/// Input shapes from a model of the facts and the obligations before the failure.
fn model_witness(
    z3: &JobSolver,
    lits: &[Bool],
    inputs: &[Input],
    syms: &mut Symbols,
) -> Option<String> {
    if inputs.is_empty() {
        return None;
    }
    // Prefer a witness without empty dims; fall back to any.
    z3.z3().push();
    for input in inputs {
        if let Input::Tensor { dims: ds, .. } = input {
            for d in ds {
                z3.z3().assert(terms::dim(d, syms).ge(Int::from_i64(1)));
            }
        }
    }
    let positive = z3.check(lits) == SatResult::Sat;
    if !positive {
        z3.z3().pop(1);
        if z3.check(lits) != SatResult::Sat {
            return None;
        }
    }
    let model = z3.z3().get_model();
    if positive {
        z3.z3().pop(1);
    }
    let model = model?;
    let mut value = |e: &crate::shapes::DimExpr| -> String {
        let term: Int = terms::dim(e, syms);
        model
            .eval(&term, true)
            .and_then(|v| v.as_i64())
            .map_or_else(|| "?".to_string(), |v| v.to_string())
    };
    Some(render_inputs(inputs, &mut value))
}

/// Without Z3 (the failure is certain whatever the inputs): the smallest sizes.
fn witness_without_z3(kind: UnitKind, run: &UnitRun) -> Option<String> {
    if kind == UnitKind::Module || run.trace.inputs.is_empty() {
        return None;
    }
    let mut value = |e: &crate::shapes::DimExpr| -> String {
        e.eval(&|_| Some(1))
            .map_or_else(|| "?".to_string(), |v| v.to_string())
    };
    Some(render_inputs(&run.trace.inputs, &mut value))
}

fn render_inputs(
    inputs: &[Input],
    value: &mut dyn FnMut(&crate::shapes::DimExpr) -> String,
) -> String {
    inputs
        .iter()
        .map(|i| match i {
            Input::Tensor { name, dims } => {
                let dims: Vec<String> = dims.iter().map(&mut *value).collect();
                format!("{name}: [{}]", dims.join(", "))
            }
            Input::Int { name, value: v } => format!("{name} = {}", value(v)),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOURCE: &str = "\
import torch.nn as nn

class Embed(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.conv1 = nn.Conv2d(1, dim // 4, kernel_size=2, stride=2)
        self.conv2 = nn.Conv2d(dim // 4, dim, kernel_size=2, stride=2)

    def forward(self, masks):
        return self.conv2(self.conv1(masks))

class Broken(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.conv1 = nn.Conv2d(1, dim // 4, kernel_size=2, stride=2)
        self.conv2 = nn.Conv2d(dim, dim, kernel_size=2, stride=2)

    def forward(self, masks):
        return self.conv2(self.conv1(masks))
";

    fn core_of(s: &Solved) -> Option<&[usize]> {
        match &s.verdict {
            Verdict::Unsat { core, .. } => Some(core),
            _ => None,
        }
    }

    /// `x³ + y³ == z³` over positive integers: contradictory, and more than Z3 can show in a
    /// few thousand steps.
    fn assert_fermat(z3: &JobSolver) {
        let [x, y, z] = ["x", "y", "z"].map(Int::new_const);
        for v in [&x, &y, &z] {
            z3.z3().assert(v.ge(Int::from_i64(1)));
        }
        let cube = |v: &Int| v * v * v;
        z3.z3().assert((cube(&x) + cube(&y)).eq(cube(&z)));
    }

    #[test]
    fn checks_are_bounded_by_work_and_so_is_a_job() {
        // A limit of 1 ms is 1,000 of Z3's steps, whatever the machine is doing.
        let z3 = JobSolver::new(Duration::from_millis(1));
        z3.z3().push();
        assert_fermat(&z3);
        let before = z3.work_done();
        assert_eq!(z3.check(&[]), SatResult::Unknown);
        let spent = z3.work_done() - before;
        assert!((1_000..5_000).contains(&spent), "{spent} steps");
        // A job of 3 ms spends 3,000 steps over its checks, then is refused without asking.
        z3.start_job(Duration::from_millis(3));
        let mut checks = 0;
        while !z3.spent() {
            assert_eq!(z3.check(&[]), SatResult::Unknown);
            checks += 1;
            assert!(checks <= 3, "the job's budget bounds its checks");
        }
        assert_eq!(z3.check(&[]), SatResult::Unknown);
        assert!(z3.expired.get());
        z3.end_job();
        z3.z3().pop(1);
    }

    #[test]
    fn a_fresh_context_answers_the_same_whatever_came_before() {
        let steps = |warm: bool| {
            in_fresh_context(Duration::from_millis(5), |z3| {
                if warm {
                    z3.z3().push();
                    assert_fermat(z3);
                    z3.check(&[]);
                    z3.z3().pop(1);
                }
                z3.z3().push();
                assert_fermat(z3);
                let before = z3.work_done();
                let result = z3.check(&[]);
                (result, z3.work_done() - before)
            })
        };
        // Two contexts with the same history take the same steps to the same answer.
        assert_eq!(steps(false), steps(false));
        assert_eq!(steps(true), steps(true));
    }

    #[test]
    fn contradictions_are_worked_out_only_for_findings() {
        let module = crate::frontend::parse_python(SOURCE).expect("parsable");
        let units = crate::units::run_units(&module, SOURCE, None, None);
        let unit = |name: &str| units.iter().find(|u| u.name == name).expect(name).clone();
        let mut z3 = JobSolver::new(DEFAULT_TIMEOUT);
        // Every run of `Broken` is contradictory, some only by Z3: each gets its core.
        let broken = unit("Broken");
        let solved = solve_unit(&broken, "test.py", &mut z3);
        assert!(solved.iter().any(|s| s.used_z3));
        assert!(solved
            .iter()
            .all(|s| core_of(s).is_some_and(|c| !c.is_empty())));
        assert!(crate::findings::unit_finding(&broken, &solved).is_some());
        // With a run that gets through appended, no finding can come of the unit: the
        // contradictions Z3 decided keep their verdict and are not worked out.
        let mut mixed = broken.clone();
        let passing = unit("Embed")
            .runs
            .into_iter()
            .find(|r| r.variant == "masks:4");
        mixed.runs.push(passing.expect("a 4-D run of Embed"));
        let solved = solve_unit(&mixed, "test.py", &mut z3);
        assert_eq!(solved.last().map(|s| s.verdict.name()), Some("sat"));
        let by_z3: Vec<&Solved> = solved.iter().filter(|s| s.used_z3).collect();
        assert!(!by_z3.is_empty());
        assert!(by_z3.iter().all(|s| core_of(s) == Some(&[][..])));
        assert!(crate::findings::unit_finding(&mixed, &solved).is_none());
    }
}
