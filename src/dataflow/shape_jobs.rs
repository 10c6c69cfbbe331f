//! The record-level steps of shape analysis in the scan: a content group's units become
//! constraint jobs, a unit is solved into its `jobs` rows and a result that travels on, and
//! the solved units of one content group become the `findings` rows of every path in the
//! group.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::cache::CachedSolved;
use crate::corpus::FileKind;
use crate::findings::identity::{finding_ids, LineDigests};
use crate::findings::suppress::{self, Suppression};
use crate::findings::{file_findings, unit_findings, Finding};
use crate::jobs::{self, JobSolver, Verdict};
use crate::reports::tables::{FindingRow, JobRow, RelatedSpan, SignatureRow};
use crate::resolve::layout::beside;
use crate::units::{Unit, UnitKind};

/// A content group: BLAKE3 hash and kind (identical bytes as `.py` and `.ipynb` differ).
pub type ContentKey = (String, FileKind);

/// The constraint jobs of one unit of one content group (one job per run): they travel
/// and are solved together, in run order, so that once one run is not contradictory (no
/// finding can come of the unit) the others are not solved.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct UnitJob {
    pub content: ContentKey,
    /// Which analysis of the group the unit comes from (`cache::generation`).
    pub generation: u64,
    /// Index of the unit in the file (units in `run_units` order).
    pub index: u32,
    /// Estimated cost of solving every run (`jobs::cost`), for balancing workers.
    pub cost: u64,
    /// The group's analysed path, named in the `jobs` table.
    pub repo: String,
    pub path: String,
    pub work: UnitWork,
}

/// A unit to solve, or solved by an earlier run (`cache.rs`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum UnitWork {
    Solve(Unit),
    Cached(Box<CachedSolved>),
}

/// Numbers the units of a file; `repo` and `path` name the analysed path.
pub fn unit_jobs(
    (content, generation): (&ContentKey, u64),
    repo: &str,
    path: &str,
    units: Vec<Unit>,
) -> Vec<UnitJob> {
    units
        .into_iter()
        .enumerate()
        .map(|(index, unit)| UnitJob {
            content: content.clone(),
            generation,
            index: index as u32,
            cost: unit
                .runs
                .iter()
                .fold(0u64, |sum, run| sum.saturating_add(jobs::cost(run))),
            repo: repo.to_string(),
            path: path.to_string(),
            work: UnitWork::Solve(unit),
        })
        .collect()
}

/// The units of a group the cache holds, solved: they pass through the solving stage.
pub fn cached_jobs(
    content: &ContentKey,
    repo: &str,
    path: &str,
    solved: Vec<CachedSolved>,
) -> Vec<UnitJob> {
    solved
        .into_iter()
        .map(|s| UnitJob {
            content: content.clone(),
            generation: s.generation,
            index: s.index,
            cost: 0,
            repo: repo.to_string(),
            path: path.to_string(),
            work: UnitWork::Cached(Box::new(s)),
        })
        .collect()
}

/// What regrouping needs to know about a content group with units (or suppression
/// comments): how many solved units to wait for, the paths its findings belong to, and what
/// its findings' ids and suppressions read of its text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContentJobs {
    pub content: ContentKey,
    pub units: u32,
    pub paths: Vec<GroupPath>,
    pub lines: LineDigests,
    pub suppressions: Vec<Suppression>,
}

/// One path of a content group: as the tables name it, and inside its repository (what
/// finding ids name, so that they do not depend on where the corpus was put).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupPath {
    pub repo: String,
    pub path: String,
    pub repo_path: String,
}

/// A solved unit on its way to its content group's regrouping: its finding, if every run
/// was contradictory (traces stay where they were solved).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SolvedUnit {
    pub content: ContentKey,
    pub index: u32,
    pub findings: Vec<Finding>,
}

/// A worker's Z3 solver (one per worker thread, reused for every job it solves).
pub struct WorkerSolver {
    solver: JobSolver,
    worker: u32,
    /// Whether units' signatures are worked out (`--signatures`).
    pub signatures: bool,
}

/// What solving a unit gives: its `jobs` rows, its `signatures` rows, its result for
/// regrouping, and what the cache keeps of it when it was solved here.
pub type UnitSolved = (
    Vec<JobRow>,
    Vec<SignatureRow>,
    SolvedUnit,
    Option<CachedSolved>,
);

impl WorkerSolver {
    pub fn new(timeout: Duration, worker: u32) -> Self {
        WorkerSolver {
            solver: JobSolver::new(timeout),
            worker,
            signatures: false,
        }
    }

    /// Solves a unit's jobs ([`jobs::solve_unit`]): a `jobs` row per run, with
    /// `signatures` its signature rows (every run solved, `crate::signatures`), and the
    /// unit's result for regrouping; with what the cache keeps of it when it was solved here.
    pub fn solve_unit(&mut self, job: UnitJob) -> UnitSolved {
        let unit = match job.work {
            UnitWork::Solve(unit) => unit,
            UnitWork::Cached(cached) => {
                // Named as this run names the group; timings are the run's that solved it.
                let rows = cached
                    .rows
                    .into_iter()
                    .map(|r| JobRow {
                        repo: job.repo.clone(),
                        path: job.path.clone(),
                        worker: self.worker,
                        ..r
                    })
                    .collect();
                let signatures = cached
                    .signatures
                    .into_iter()
                    .map(|r| SignatureRow {
                        repo: job.repo.clone(),
                        path: job.path.clone(),
                        ..r
                    })
                    .collect();
                let result = SolvedUnit {
                    content: job.content,
                    index: job.index,
                    findings: cached.findings,
                };
                return (rows, signatures, result, None);
            }
        };
        let solved = jobs::solve_unit(&unit, &job.path, &mut self.solver);
        let unit = &unit;
        let rows: Vec<JobRow> = unit
            .runs
            .iter()
            .zip(&solved)
            .map(|(run, s)| JobRow {
                repo: job.repo.clone(),
                path: job.path.clone(),
                unit: unit.name.clone(),
                unit_kind: unit.kind.name().to_string(),
                variant: run.variant.clone(),
                variables: s.variables as u64,
                constraints: s.constraints as u64,
                result: s.verdict.name().to_string(),
                skip_reason: match &s.verdict {
                    Verdict::Skipped(reason) => Some(reason.message()),
                    _ => None,
                },
                used_z3: s.used_z3,
                solve_us: s.micros,
                worker: self.worker,
                cost: jobs::cost(run),
                files: spanned_files(&job.path, run),
            })
            .collect();
        let findings = unit_findings(unit, &solved, &mut self.solver);
        let signatures: Vec<SignatureRow> = match self.signatures && unit.kind != UnitKind::Module {
            true => {
                let every = jobs::solve_every_run(unit, &job.path, &mut self.solver, &solved);
                crate::signatures::signature(unit, &every, &self.solver).rows(&job.repo, &job.path)
            }
            false => Vec::new(),
        };
        // The rows without what names them: a reuse names them as its run does.
        let cached = CachedSolved {
            index: job.index,
            generation: job.generation,
            rows: rows
                .iter()
                .map(|r| JobRow {
                    repo: String::new(),
                    path: String::new(),
                    ..r.clone()
                })
                .collect(),
            findings: findings.clone(),
            signatures: signatures
                .iter()
                .map(|r| SignatureRow {
                    repo: String::new(),
                    path: String::new(),
                    ..r.clone()
                })
                .collect(),
        };
        let result = SolvedUnit {
            content: job.content,
            index: job.index,
            findings,
        };
        (rows, signatures, result, Some(cached))
    }
}

/// The findings of one content group, once all its units are solved: one row per finding
/// and path of the group, with its id (suppressions come later, per file: `settle_file`).
pub fn finding_rows(group: &ContentJobs, mut solved: Vec<SolvedUnit>) -> Vec<FindingRow> {
    solved.sort_by_key(|s| s.index);
    let findings = file_findings(solved.into_iter().flat_map(|s| s.findings));
    let mut rows = Vec::with_capacity(findings.len() * group.paths.len());
    for p in &group.paths {
        // Ids are numbered per file of the failing operation: this file's, or another one
        // of the project (whose text is not at hand: its line is not in its ids).
        let mut by_file: Vec<(String, Vec<&Finding>)> = Vec::new();
        for f in &findings {
            let file = f.path.as_deref().map(|rel| beside(&p.repo_path, rel));
            let file = file.unwrap_or_else(|| p.repo_path.clone());
            match by_file.iter_mut().find(|(name, _)| *name == file) {
                Some((_, list)) => list.push(f),
                None => by_file.push((file, vec![f])),
            }
        }
        for (file, list) in by_file {
            let digests = list.iter().map(|f| {
                let digest = f.path.is_none().then(|| group.lines.get(f.span.line));
                (*f, digest.flatten())
            });
            let ids = finding_ids(&file, digests);
            for (f, id) in list.into_iter().zip(ids) {
                rows.push(finding_row(f, id, &p.repo, &p.path));
            }
        }
    }
    rows
}

/// One file's findings rows (from every content group that reached it) with its
/// suppression comments: one row per failing operation (an error before a warning, so that
/// a unit failing for every input is not hidden behind another's condition; then the least,
/// so that the choice is the same for any -w/-n), each flagged if a comment suppresses it,
/// and a `warning` row for each `shapehound` suppression that suppresses nothing.
pub fn settle_file(
    repo: &str,
    path: &str,
    mut rows: Vec<FindingRow>,
    sups: &[Suppression],
) -> Vec<FindingRow> {
    fn operation(r: &FindingRow) -> (u32, u32, &str, &str) {
        (r.line, r.column, &r.operator, &r.kind)
    }
    rows.sort_by(|a, b| {
        (operation(a), a.severity != "error")
            .cmp(&(operation(b), b.severity != "error"))
            .then_with(|| a.cmp(b))
    });
    rows.dedup_by(|b, a| operation(a) == operation(b));
    rows.sort();
    let spans: Vec<(&str, u32, u32)> = rows
        .iter()
        .map(|r| (r.kind.as_str(), r.line, r.end_line))
        .collect();
    let (suppressed, unused) = suppress::apply(sups, &spans);
    for (row, s) in rows.iter_mut().zip(suppressed) {
        row.suppressed = s;
    }
    for i in unused {
        rows.push(unused_suppression_row(repo, path, &sups[i]));
    }
    rows
}

/// A suppression comment that suppressed nothing, as a `warning` row of `findings`.
fn unused_suppression_row(repo: &str, path: &str, s: &Suppression) -> FindingRow {
    let key = format!(
        "unused-suppression\u{0}{path}\u{0}{}\u{0}{}",
        s.line,
        s.kinds.join(",")
    );
    FindingRow {
        id: format!("{:016x}", crate::findings::identity::fnv1a(key.as_bytes())),
        repo: repo.to_string(),
        path: path.to_string(),
        line: s.line,
        column: 1,
        end_line: s.line,
        end_column: 1,
        unit: String::new(),
        unit_kind: String::new(),
        operator: String::new(),
        kind: suppress::UNUSED_KIND.to_string(),
        severity: "warning".to_string(),
        message: s.unused_message(),
        shapes: String::new(),
        witness: None,
        related: Vec::new(),
        solver: String::new(),
        solve_us: 0,
        suppressed: false,
        baseline: None,
    }
}

/// The other files a run's operations are in (its obligations' origins), named as `analysed`
/// names its file, sorted and distinct.
fn spanned_files(analysed: &str, run: &crate::units::UnitRun) -> Vec<String> {
    let files: std::collections::BTreeSet<String> = run
        .trace
        .obligations
        .iter()
        .filter_map(|o| o.origin.as_ref())
        .map(|origin| beside(analysed, &origin.path))
        .filter(|file| file != analysed)
        .collect();
    files.into_iter().collect()
}

fn finding_row(f: &Finding, id: String, repo: &str, analysed: &str) -> FindingRow {
    // A failing operation in another file of the project is that file's finding.
    let path = match &f.path {
        Some(rel) => beside(analysed, rel),
        None => analysed.to_string(),
    };
    let path = path.as_str();
    FindingRow {
        id,
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
        severity: f.severity.name().to_string(),
        message: f.message.clone(),
        shapes: f.shapes.clone(),
        witness: f.witness.clone(),
        related: f
            .related
            .iter()
            .map(|r| RelatedSpan {
                path: match &r.path {
                    Some(rel) => Some(beside(analysed, rel)),
                    None => (path != analysed).then(|| analysed.to_string()),
                },
                line: r.span.line,
                column: r.span.column,
                end_line: r.span.end_line,
                end_column: r.span.end_column,
                label: r.label.clone(),
            })
            .collect(),
        solver: f.solver().to_string(),
        solve_us: f.solve_micros,
        suppressed: false,
        baseline: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::findings::analyse_module;
    use crate::frontend::parse_python;
    use crate::units::run_units;

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

    fn unit(job: &UnitJob) -> &Unit {
        match &job.work {
            UnitWork::Solve(u) => u,
            UnitWork::Cached(_) => panic!("a unit to solve"),
        }
    }

    fn path(repo: &str, path: &str) -> GroupPath {
        GroupPath {
            repo: repo.to_string(),
            path: path.to_string(),
            repo_path: path.to_string(),
        }
    }

    fn content() -> ContentKey {
        ("abc".to_string(), FileKind::Py)
    }

    fn jobs_for(text: &str) -> Vec<UnitJob> {
        let module = parse_python(text).expect("parses");
        unit_jobs(
            (&content(), 0),
            "repo",
            "a.py",
            run_units(&module, text, None, None),
        )
    }

    /// Through JSON and back, as a job or a result crosses to another process.
    fn wire<T: Serialize + for<'de> Deserialize<'de>>(value: &T) -> T {
        serde_json::from_str(&serde_json::to_string(value).expect("serialises"))
            .expect("deserialises")
    }

    #[test]
    fn units_are_numbered_with_their_summed_cost() {
        let jobs = jobs_for(SYMBOLIC_BUG);
        let units: Vec<(u32, &str, usize)> = jobs
            .iter()
            .map(|j| (j.index, unit(j).name.as_str(), unit(j).runs.len()))
            .collect();
        assert_eq!(units.len(), 2, "{units:?}");
        assert_eq!(units[0], (0, "<module>", 1));
        assert_eq!((units[1].0, units[1].1), (1, "Encoder"));
        assert!(units[1].2 > 1, "one run per rank variant: {units:?}");
        assert_eq!(unit(&jobs[1]).location.line, 5, "the class statement");
        for j in &jobs {
            let sum: u64 = unit(j).runs.iter().map(jobs::cost).sum();
            assert_eq!(j.cost, sum);
        }
    }

    #[test]
    fn findings_after_the_wire_match_the_check_command_for_every_path() {
        let module = parse_python(SYMBOLIC_BUG).expect("parses");
        let expected = analyse_module(
            &module,
            SYMBOLIC_BUG,
            "a.py",
            (None, None),
            &mut JobSolver::new(jobs::DEFAULT_TIMEOUT),
        );
        assert_eq!(expected.findings.len(), 1);

        let mut solver = WorkerSolver::new(jobs::DEFAULT_TIMEOUT, 3);
        let jobs = jobs_for(SYMBOLIC_BUG);
        let group = ContentJobs {
            content: content(),
            units: jobs.len() as u32,
            paths: vec![path("repo", "a.py"), path("fork", "b.py")],
            lines: LineDigests::of(SYMBOLIC_BUG),
            suppressions: Vec::new(),
        };
        // Solved in reverse order, as they may arrive from several workers.
        let mut solved = Vec::new();
        for job in jobs.into_iter().rev() {
            let runs = unit(&job).runs.len();
            let (rows, signatures, result, cached) = solver.solve_unit(wire(&job));
            // What the cache keeps gives the same rows and result back.
            let cached = cached.expect("solved here");
            let again = UnitJob {
                work: UnitWork::Cached(Box::new(wire(&cached))),
                ..job.clone()
            };
            let (rows_again, signatures_again, result_again, none) = solver.solve_unit(again);
            assert!(none.is_none());
            assert_eq!(rows_again, rows);
            assert_eq!(signatures_again, signatures);
            assert_eq!(result_again.findings, result.findings);
            assert_eq!(rows.len(), runs);
            for row in &rows {
                assert_eq!((row.worker, row.path.as_str()), (3, "a.py"));
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
        // Ids name the path inside the repository and the failing line's code.
        let lines = LineDigests::of(SYMBOLIC_BUG);
        let id = |p: &str| finding_ids(p, [(f, lines.get(f.span.line))]).remove(0);
        assert_eq!(
            (rows[0].id.clone(), rows[1].id.clone()),
            (id("a.py"), id("b.py"))
        );
        assert_eq!(rows[0].message, f.message);
        assert_eq!(rows[0].related.len(), f.related.len());
        assert_eq!(rows[0].severity, "error");
    }

    #[test]
    fn settling_a_file_keeps_one_row_per_operation_and_flags_suppressed_ones() {
        let row = |line: u32, column: u32, kind: &str, unit: &str| FindingRow {
            id: format!("{line}{unit}"),
            repo: "r".into(),
            path: "a.py".into(),
            line,
            column,
            end_line: line,
            end_column: column + 4,
            unit: unit.into(),
            unit_kind: "class".into(),
            operator: "torch.nn.Linear".into(),
            kind: kind.into(),
            severity: "error".into(),
            message: String::new(),
            shapes: String::new(),
            witness: None,
            related: Vec::new(),
            solver: "z3".into(),
            solve_us: 1,
            suppressed: false,
            baseline: None,
        };
        // The same operation reached from two units (its file's and an importer's); the
        // error outweighs the least row, a warning.
        let mut warning = row(7, 9, "feature-mismatch", "A");
        warning.severity = "warning".into();
        let rows = vec![
            row(7, 9, "feature-mismatch", "C"),
            row(7, 9, "feature-mismatch", "B"),
            warning,
            row(3, 1, "reshape-numel", "A"),
        ];
        let text = "\n\nx  # shapehound: ignore[reshape-numel]\n\n\n\nz\ny  # shapehound: ignore\n";
        let settled = settle_file("r", "a.py", rows, &suppress::suppressions(text));
        let seen: Vec<(u32, &str, &str, bool)> = settled
            .iter()
            .map(|r| (r.line, r.unit.as_str(), r.kind.as_str(), r.suppressed))
            .collect();
        assert_eq!(
            seen,
            [
                (3, "A", "reshape-numel", true),
                (7, "B", "feature-mismatch", false),
                (8, "", suppress::UNUSED_KIND, false),
            ]
        );
        assert_eq!(settled[1].severity, "error");
        assert_eq!(settled[2].severity, "warning");
    }

    #[test]
    fn a_clean_file_has_no_findings() {
        let text = "import torch\nx = torch.zeros(2, 3)\ny = x.view(3, 2)\n";
        let mut solver = WorkerSolver::new(jobs::DEFAULT_TIMEOUT, 0);
        let jobs = jobs_for(text);
        let group = ContentJobs {
            content: content(),
            units: jobs.len() as u32,
            paths: vec![path("repo", "a.py")],
            lines: LineDigests::of(text),
            suppressions: Vec::new(),
        };
        let solved = jobs.into_iter().map(|j| solver.solve_unit(j).2).collect();
        assert!(finding_rows(&group, solved).is_empty());
    }

    #[test]
    fn verdicts_cross_the_wire() {
        let unsat = Verdict::Unsat {
            failing: 2,
            core: vec![0, 2],
            witness: Some("x: [1]".to_string()),
        };
        let skipped = Verdict::Skipped(jobs::SkipReason::InternalError("boom".into()));
        for v in [Verdict::Sat, Verdict::Unknown, unsat, skipped] {
            assert_eq!(wire(&v), v);
        }
        assert_eq!(
            jobs::SkipReason::InternalError("boom".into()).message(),
            "internal error: boom"
        );
    }
}
