//! The record-level steps of shape analysis in the scan: a content group's unit runs become
//! constraint jobs, a job is solved into its `jobs` row and a result that travels on, and the
//! solved jobs of one content group become the `findings` rows of every path in the group.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::analysis::{catch_panic, inject_panic};
use crate::corpus::FileKind;
use crate::findings::{findings_of, Finding};
use crate::jobs::{self, JobSolver, Solved, Verdict};
use crate::program::{Trace, UnitRun};
use crate::reports::tables::{FindingRow, JobRow, RelatedSpan};

/// A content group: BLAKE3 hash and kind (identical bytes as `.py` and `.ipynb` differ).
pub type ContentKey = (String, FileKind);

/// One constraint job: one run (rank variant) of one unit of one content group.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Job {
    pub content: ContentKey,
    /// Index of the unit in the file (units in `run_units` order).
    pub unit: u32,
    /// Index of the run among its unit's runs.
    pub variant: u32,
    /// Estimated solving cost (`jobs::cost`), for balancing workers.
    pub cost: u64,
    /// The group's analysed path, named in the `jobs` table.
    pub repo: String,
    pub path: String,
    pub run: UnitRun,
}

/// The jobs of one unit, in variant order: they travel and are solved together, so that
/// once one variant is not contradictory (no finding can come of the unit) the others are
/// not solved.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct UnitJob {
    /// The estimated cost of solving every job.
    pub cost: u64,
    pub jobs: Vec<Job>,
}

/// Groups numbered jobs by unit (the jobs of a unit are adjacent).
pub fn units_of(jobs: Vec<Job>) -> Vec<UnitJob> {
    let mut out: Vec<UnitJob> = Vec::new();
    for job in jobs {
        match out.last_mut() {
            Some(u) if u.jobs.last().is_some_and(|j| j.unit == job.unit) => {
                u.cost = u.cost.saturating_add(job.cost);
                u.jobs.push(job);
            }
            _ => out.push(UnitJob {
                cost: job.cost,
                jobs: vec![job],
            }),
        }
    }
    out
}

/// What regrouping needs to know about a content group with jobs: how many solved jobs to
/// wait for, and the paths (repo, path) its findings belong to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContentJobs {
    pub content: ContentKey,
    pub jobs: u32,
    pub paths: Vec<(String, String)>,
}

/// How a job ended, in a form that crosses process boundaries (`jobs::Verdict` names its
/// skip reason with a `&'static str`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    Sat,
    Unsat {
        failing: usize,
        core: Vec<usize>,
        witness: Option<String>,
    },
    Unknown,
    Skipped(String),
}

impl Outcome {
    fn of(verdict: &Verdict) -> Outcome {
        match verdict {
            Verdict::Sat => Outcome::Sat,
            Verdict::Unsat {
                failing,
                core,
                witness,
            } => Outcome::Unsat {
                failing: *failing,
                core: core.clone(),
                witness: witness.clone(),
            },
            Verdict::Unknown => Outcome::Unknown,
            Verdict::Skipped(reason) => Outcome::Skipped(reason.to_string()),
        }
    }

    /// Back to a verdict for `findings_of`. Only UNSAT verdicts can make findings, so a skip
    /// keeps a generic reason here; the `jobs` table has the real one.
    fn verdict(&self) -> Verdict {
        match self {
            Outcome::Sat => Verdict::Sat,
            Outcome::Unsat {
                failing,
                core,
                witness,
            } => Verdict::Unsat {
                failing: *failing,
                core: core.clone(),
                witness: witness.clone(),
            },
            Outcome::Unknown => Verdict::Unknown,
            Outcome::Skipped(_) => Verdict::Skipped("skipped"),
        }
    }

    fn result(&self) -> &'static str {
        match self {
            Outcome::Sat => "sat",
            Outcome::Unsat { .. } => "unsat",
            Outcome::Unknown => "unknown",
            Outcome::Skipped(_) => "skipped",
        }
    }
}

/// A solved job on its way to its content group's regrouping.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SolvedJob {
    pub content: ContentKey,
    pub unit: u32,
    pub variant: u32,
    /// The run; its trace is dropped unless the job is UNSAT (only an all-UNSAT unit is a
    /// finding, and only then are its obligations read).
    pub run: UnitRun,
    pub outcome: Outcome,
    pub used_z3: bool,
    pub micros: u64,
    pub variables: u64,
    pub constraints: u64,
}

impl SolvedJob {
    fn solved(&self) -> Solved {
        Solved {
            verdict: self.outcome.verdict(),
            micros: self.micros,
            used_z3: self.used_z3,
            variables: self.variables as usize,
            constraints: self.constraints as usize,
        }
    }
}

/// Numbers the runs of a file by unit and variant (the runs of a unit are adjacent) and turns
/// them into jobs; `repo` and `path` name the analysed path.
pub fn jobs_of(content: &ContentKey, repo: &str, path: &str, runs: Vec<UnitRun>) -> Vec<Job> {
    let mut jobs: Vec<Job> = Vec::with_capacity(runs.len());
    for run in runs {
        let (unit, variant) = match jobs.last() {
            None => (0, 0),
            Some(prev) if prev.run.unit == run.unit && prev.run.kind == run.kind => {
                (prev.unit, prev.variant + 1)
            }
            Some(prev) => (prev.unit + 1, 0),
        };
        jobs.push(Job {
            content: content.clone(),
            unit,
            variant,
            cost: jobs::cost(&run),
            repo: repo.to_string(),
            path: path.to_string(),
            run,
        });
    }
    jobs
}

/// Distinct units among numbered jobs.
pub fn unit_count(jobs: &[Job]) -> u64 {
    jobs.last().map_or(0, |j| j.unit as u64 + 1)
}

/// A worker's Z3 solver (one per worker thread, reused for every job it solves). A panic
/// while solving is caught: the job is recorded as skipped and the solver, whose state is
/// then unknown, is replaced.
pub struct WorkerSolver {
    solver: JobSolver,
    timeout: Duration,
    worker: u32,
}

impl WorkerSolver {
    pub fn new(timeout: Duration, worker: u32) -> Self {
        WorkerSolver {
            solver: JobSolver::new(timeout),
            timeout,
            worker,
        }
    }

    /// Solves a unit's jobs in order until one is not contradictory; the rest are recorded
    /// as skipped ([`jobs::SETTLED`]): a finding needs every variant to be.
    pub fn solve_unit(&mut self, unit: UnitJob) -> Vec<(JobRow, SolvedJob)> {
        let mut settled = false;
        let mut out = Vec::with_capacity(unit.jobs.len());
        for job in unit.jobs {
            let (row, solved) = if settled {
                let solved = jobs::settled(&job.run, jobs::SETTLED);
                self.record(job, Ok(solved), 0)
            } else {
                self.solve(job)
            };
            settled |= !matches!(solved.outcome, Outcome::Unsat { .. });
            out.push((row, solved));
        }
        out
    }

    /// Solves one job: its `jobs` row and the result for regrouping.
    pub fn solve(&mut self, job: Job) -> (JobRow, SolvedJob) {
        let start = Instant::now();
        let solved = catch_panic(|| {
            inject_panic("solve", &job.path);
            jobs::solve(&job.run, &self.solver)
        });
        let wall_us = start.elapsed().as_micros() as u64;
        self.record(job, solved, wall_us)
    }

    /// The `jobs` row and the travelling result of a job solved (or skipped) as `solved`.
    fn record(
        &mut self,
        job: Job,
        solved: Result<Solved, String>,
        wall_us: u64,
    ) -> (JobRow, SolvedJob) {
        let (outcome, used_z3, variables, constraints) = match solved {
            Ok(s) => (
                Outcome::of(&s.verdict),
                s.used_z3,
                s.variables as u64,
                s.constraints as u64,
            ),
            Err(panic) => {
                self.solver = JobSolver::new(self.timeout);
                let trace = &job.run.trace;
                let constraints = (trace.obligations.len() + trace.facts.len()) as u64;
                let reason = format!("internal error: {panic}");
                (Outcome::Skipped(reason), false, 0, constraints)
            }
        };
        let row = JobRow {
            repo: job.repo,
            path: job.path,
            unit: job.run.unit.clone(),
            unit_kind: job.run.kind.name().to_string(),
            variant: job.run.variant.clone(),
            variables,
            constraints,
            result: outcome.result().to_string(),
            skip_reason: match &outcome {
                Outcome::Skipped(reason) => Some(reason.clone()),
                _ => None,
            },
            used_z3,
            solve_us: wall_us,
            worker: self.worker,
            cost: job.cost,
        };
        let mut run = job.run;
        if !matches!(outcome, Outcome::Unsat { .. }) {
            run.trace = Trace::default();
        }
        let solved = SolvedJob {
            content: job.content,
            unit: job.unit,
            variant: job.variant,
            run,
            outcome,
            used_z3,
            micros: wall_us,
            variables,
            constraints,
        };
        (row, solved)
    }
}

/// The findings of one content group, once all its jobs are solved: one row per finding and
/// path of the group.
pub fn finding_rows(group: &ContentJobs, mut solved: Vec<SolvedJob>) -> Vec<FindingRow> {
    solved.sort_by_key(|s| (s.unit, s.variant));
    let results: Vec<Solved> = solved.iter().map(SolvedJob::solved).collect();
    let runs: Vec<UnitRun> = solved.into_iter().map(|s| s.run).collect();
    let findings = findings_of(&runs, &results);
    let mut rows = Vec::with_capacity(findings.len() * group.paths.len());
    for (repo, path) in &group.paths {
        rows.extend(findings.iter().map(|f| finding_row(f, repo, path)));
    }
    rows
}

fn finding_row(f: &Finding, repo: &str, path: &str) -> FindingRow {
    FindingRow {
        id: f.id(path),
        repo: repo.to_string(),
        path: path.to_string(),
        line: f.span.line,
        column: f.span.column,
        end_line: f.span.end_line,
        end_column: f.span.end_column,
        unit: f.unit.clone(),
        unit_kind: f.unit_kind.name().to_string(),
        operator: f.operator.clone(),
        kind: f.kind.code().to_string(),
        severity: "error".to_string(),
        message: f.message.clone(),
        shapes: f.shapes.clone(),
        witness: f.witness.clone(),
        related: f
            .related
            .iter()
            .map(|r| RelatedSpan {
                line: r.span.line,
                column: r.span.column,
                end_line: r.span.end_line,
                end_column: r.span.end_column,
                label: r.label.clone(),
            })
            .collect(),
        solver: f.solver.to_string(),
        solve_us: f.solve_micros,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::findings::analyse_module;
    use crate::frontend::parse_python;
    use crate::program::run_units;

    const SYMBOLIC_BUG: &str = "\
import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.stem = nn.Conv2d(3, width, 3)
        self.expand = nn.Conv2d(2 * width, width, 3)

    def forward(self, x):
        return self.expand(self.stem(x))
";

    fn content() -> ContentKey {
        ("abc".to_string(), FileKind::Py)
    }

    fn jobs_for(text: &str) -> Vec<Job> {
        let module = parse_python(text).expect("parses");
        jobs_of(&content(), "repo", "a.py", run_units(&module, text, None))
    }

    /// Through JSON and back, as a job or a result crosses to another process.
    fn wire<T: Serialize + for<'de> Deserialize<'de>>(value: &T) -> T {
        serde_json::from_str(&serde_json::to_string(value).expect("serialises"))
            .expect("deserialises")
    }

    #[test]
    fn runs_are_numbered_by_unit_and_variant() {
        let jobs = jobs_for(SYMBOLIC_BUG);
        let numbers: Vec<(u32, u32, &str)> = jobs
            .iter()
            .map(|j| (j.unit, j.variant, j.run.unit.as_str()))
            .collect();
        assert_eq!(numbers[0], (0, 0, "<module>"));
        assert!(numbers.len() > 2, "{numbers:?}");
        for (k, n) in numbers[1..].iter().enumerate() {
            assert_eq!(*n, (1, k as u32, "Encoder"));
        }
        assert_eq!(unit_count(&jobs), 2);
        assert_eq!(unit_count(&[]), 0);
        assert!(jobs.iter().all(|j| j.cost == jobs::cost(&j.run)));
    }

    #[test]
    fn findings_after_the_wire_match_the_check_command_for_every_path() {
        let module = parse_python(SYMBOLIC_BUG).expect("parses");
        let expected = analyse_module(
            &module,
            SYMBOLIC_BUG,
            None,
            &JobSolver::new(jobs::DEFAULT_TIMEOUT),
        );
        assert_eq!(expected.findings.len(), 1);

        let mut solver = WorkerSolver::new(jobs::DEFAULT_TIMEOUT, 3);
        let jobs = jobs_for(SYMBOLIC_BUG);
        let group = ContentJobs {
            content: content(),
            jobs: jobs.len() as u32,
            paths: vec![
                ("repo".to_string(), "a.py".to_string()),
                ("fork".to_string(), "b.py".to_string()),
            ],
        };
        // Solved in reverse order, as they may arrive from several workers.
        let mut solved = Vec::new();
        for job in jobs.into_iter().rev() {
            let (row, result) = solver.solve(wire(&job));
            assert_eq!((row.worker, row.path.as_str()), (3, "a.py"));
            assert_eq!(row.result, result.outcome.result());
            if !matches!(result.outcome, Outcome::Unsat { .. }) {
                assert!(result.run.trace.obligations.is_empty());
            }
            solved.push(wire(&result));
        }
        let rows = finding_rows(&wire(&group), solved);
        let f = &expected.findings[0];
        let located: Vec<(&str, &str, u32, &str)> = rows
            .iter()
            .map(|r| (r.repo.as_str(), r.path.as_str(), r.line, r.kind.as_str()))
            .collect();
        assert_eq!(
            located,
            [
                ("repo", "a.py", f.span.line, f.kind.code()),
                ("fork", "b.py", f.span.line, f.kind.code()),
            ]
        );
        assert_eq!(rows[0].id, f.id("a.py"));
        assert_eq!(rows[1].id, f.id("b.py"));
        assert_eq!(rows[0].message, f.message);
        assert_eq!(rows[0].related.len(), f.related.len());
        assert_eq!(rows[0].severity, "error");
    }

    #[test]
    fn a_clean_file_has_no_findings() {
        let text = "import torch\nx = torch.zeros(2, 3)\ny = x.view(3, 2)\n";
        let mut solver = WorkerSolver::new(jobs::DEFAULT_TIMEOUT, 0);
        let jobs = jobs_for(text);
        let group = ContentJobs {
            content: content(),
            jobs: jobs.len() as u32,
            paths: vec![("repo".to_string(), "a.py".to_string())],
        };
        let solved = jobs.into_iter().map(|j| solver.solve(j).1).collect();
        assert!(finding_rows(&group, solved).is_empty());
    }

    #[test]
    fn outcomes_keep_their_verdicts() {
        let unsat = Verdict::Unsat {
            failing: 2,
            core: vec![0, 2],
            witness: Some("x: [1]".to_string()),
        };
        for v in [Verdict::Sat, Verdict::Unknown, unsat] {
            assert_eq!(Outcome::of(&v).verdict(), v);
        }
        let skipped = Outcome::of(&Verdict::Skipped("no obligations"));
        assert_eq!(skipped, Outcome::Skipped("no obligations".to_string()));
        assert_eq!(skipped.result(), "skipped");
    }
}
