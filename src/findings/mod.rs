//! Findings: a unit whose every run is contradictory (UNSAT in every rank variant, no
//! assumption broken, no timeout) becomes one finding, located at the operation that fails at
//! run time, with the definitions it conflicts with as related spans and a witness.

pub mod conditional;
pub mod explain;
pub mod identity;
pub mod render;
pub mod sarif;
pub mod suppress;
pub mod symbolic_domain;

pub use crate::eval::trace::Span;
use crate::jobs::{Solved, Verdict};
use crate::units::{Unit, UnitKind};

pub use crate::shapes::kind::FindingKind;

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Related {
    pub span: Span,
    pub label: String,
    /// The file, relative to the analysed file's folder, when it is another one.
    #[serde(default)]
    pub path: Option<String>,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Finding {
    /// The file of the failing operation, relative to the analysed file's folder, when it
    /// is another file of the project (`span` is then in that file).
    #[serde(default)]
    pub path: Option<String>,
    pub kind: FindingKind,
    pub unit: String,
    pub unit_kind: UnitKind,
    pub operator: String,
    pub span: Span,
    pub message: String,
    /// The operands' shapes at the failing operation.
    pub shapes: String,
    pub related: Vec<Related>,
    pub witness: Option<String>,
    /// Whether Z3 decided some run (else the algebra alone did).
    pub used_z3: bool,
    pub solve_micros: u64,
    /// Set once the file's findings are known (`identity::finding_ids`).
    #[serde(default)]
    pub id: String,
    /// An inline comment suppresses it (`suppress.rs`).
    #[serde(default)]
    pub suppressed: bool,
    /// Against a baseline report: `new` or `unchanged`.
    #[serde(default)]
    pub baseline: Option<String>,
    /// A unit over one value of a declared domain (`eval::domains`): the domain's values
    /// and those failing here (merged by [`file_findings`], which names them in `message`).
    #[serde(default)]
    pub domain: Option<DomainFailures>,
    /// An error (every input fails), or a warning: every input fails unless the
    /// hyperparameters meet a condition (`conditional.rs`).
    #[serde(default)]
    pub severity: Severity,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Severity {
    #[default]
    Error,
    Warning,
}

impl Severity {
    pub fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// The values of a declared domain, and which fail at a finding's operation.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DomainFailures {
    pub labels: Vec<String>,
    pub failing: Vec<u32>,
    /// Values the analysis did not settle (a budget), said neither to fail nor to pass.
    #[serde(default)]
    pub undecided: Vec<u32>,
}

impl Finding {
    /// What decided the unit: `z3` or `algebra`.
    pub fn solver(&self) -> &'static str {
        if self.used_z3 {
            "z3"
        } else {
            "algebra"
        }
    }

    /// Whether it counts: not suppressed and, against a baseline, new.
    pub fn counts(&self) -> bool {
        !self.suppressed && self.baseline.as_deref() != Some("unchanged")
    }
}

/// The findings of one file from those of its units, in unit order: a bug that several
/// units reach (a class and the builder that builds it) is reported once, by the first; an
/// error where a unit only warned (the class fails unless `width == 8`, its builder passes
/// 16) is reported as the error.
pub fn file_findings(per_unit: impl IntoIterator<Item = Finding>) -> Vec<Finding> {
    let mut out: Vec<Finding> = Vec::new();
    for f in per_unit {
        match out
            .iter_mut()
            .find(|g| g.span == f.span && g.path == f.path && g.operator == f.operator)
        {
            Some(g) if g.severity == Severity::Warning && f.severity == Severity::Error => *g = f,
            // Values of one domain failing at the same operation are one finding.
            Some(g) => {
                if let (Some(d), Some(e)) = (&mut g.domain, &f.domain) {
                    if d.labels == e.labels {
                        d.failing.extend(&e.failing);
                        d.failing.sort_unstable();
                        d.failing.dedup();
                    }
                }
            }
            None => out.push(f),
        }
    }
    name_domain_values(&mut out);
    out.sort_by(|a, b| (&a.path, a.span).cmp(&(&b.path, b.span)));
    out
}

/// Says in each domain finding's message which values fail there and which pass: those
/// failing at no operation of the file (a value may fail at another operation, which its
/// own finding names).
fn name_domain_values(findings: &mut [Finding]) {
    let mut failing_anywhere: Vec<(Vec<String>, Vec<u32>)> = Vec::new();
    for d in findings.iter().filter_map(|f| f.domain.as_ref()) {
        match failing_anywhere.iter_mut().find(|(l, _)| *l == d.labels) {
            Some((_, failing)) => failing.extend(&d.failing),
            None => failing_anywhere.push((d.labels.clone(), d.failing.clone())),
        }
    }
    for f in findings.iter_mut() {
        let Some(d) = &f.domain else { continue };
        let Some((_, anywhere)) = failing_anywhere.iter().find(|(l, _)| *l == d.labels) else {
            continue;
        };
        // `k=7, k=9`; a value of several names in parentheses.
        let named = |indices: &mut dyn Iterator<Item = usize>| -> String {
            let shown: Vec<String> = indices
                .filter_map(|i| d.labels.get(i))
                .map(|l| match l.contains(", ") {
                    true => format!("({l})"),
                    false => l.clone(),
                })
                .collect();
            shown.join(", ")
        };
        let fails = named(&mut d.failing.iter().map(|&i| i as usize));
        let passes =
            named(&mut (0..d.labels.len()).filter(|i| {
                !anywhere.contains(&(*i as u32)) && !d.undecided.contains(&(*i as u32))
            }));
        let undecided = named(&mut d.undecided.iter().map(|&i| i as usize));
        let mut text = format!("fails for {fails}");
        if !passes.is_empty() {
            text.push_str(&format!("; passes for {passes}"));
        }
        if !undecided.is_empty() {
            text.push_str(&format!("; not settled for {undecided}"));
        }
        f.message = format!("{}: {text}", f.message);
    }
}

/// A unit's findings: [`unit_finding`]; else, over a declared domain too large to run value
/// by value, the values that fail (`symbolic_domain.rs`); else the unit's conditional
/// failure (`conditional.rs`), a warning.
pub fn unit_findings(
    unit: &Unit,
    solved: &[Solved],
    z3: &mut crate::jobs::JobSolver,
) -> Vec<Finding> {
    if let Some(f) = unit_finding(unit, solved) {
        return vec![f];
    }
    let over_domain = symbolic_domain::domain_findings(unit, solved, z3);
    if !over_domain.is_empty() {
        return over_domain;
    }
    conditional::conditional_failure(unit, solved, z3)
        .into_iter()
        .collect()
}

/// A unit is a finding when every variant is UNSAT; the documented variant, else the one
/// that got furthest (the most obligations met before failing), names the location.
/// `solved[i]` is how `unit.runs[i]` was solved.
pub fn unit_finding(unit: &Unit, solved: &[Solved]) -> Option<Finding> {
    if !crate::jobs::is_finding(solved) {
        return None;
    }
    // Runs outside the user's assumptions are not part of the question.
    if solved.iter().any(|s| s.verdict.is_excluded()) {
        let kept: Vec<usize> = (0..solved.len())
            .filter(|&k| !solved[k].verdict.is_excluded())
            .collect();
        if kept.is_empty() {
            return None;
        }
        let asked = Unit {
            name: unit.name.clone(),
            kind: unit.kind,
            location: unit.location,
            runs: kept.iter().map(|&k| unit.runs[k].clone()).collect(),
        };
        let solved: Vec<Solved> = kept.iter().map(|&k| solved[k].clone()).collect();
        return unit_finding(&asked, &solved);
    }
    let runs = &unit.runs;
    // On a tie, the more common input ranks read best (matrices, then images).
    let plausibility = |variant: &str| -> usize {
        let rank = variant.split(',').next().and_then(|v| v.rsplit(':').next());
        match rank {
            Some("2") => 0,
            Some("4") => 1,
            Some("3") => 2,
            Some("5") => 3,
            _ => 4,
        }
    };
    // The variant whose input has the shape the docstring describes names the location
    // (where the input the author meant fails). Otherwise the variant that got furthest:
    // the most obligations met before failing, then the more common input rank. A variant that fails where the code unpacks
    // a shape into names (`b, c, h, w = x.shape`, a declaration of the rank) only shows the
    // input had another rank; the others show what goes wrong at the declared one.
    let mut failing_at = Vec::with_capacity(solved.len());
    for s in solved {
        let Verdict::Unsat { failing, .. } = &s.verdict else {
            return None;
        };
        failing_at.push(*failing);
    }
    // Prose may describe a tensor inside `forward` rather than its input: when the
    // documented input fails on its rank while another rank gets past every rank
    // requirement (failing on sizes), the code declares the rank and outweighs the prose.
    let on_rank = |k: usize| runs[k].trace.obligations[failing_at[k]].is_on_rank();
    let prose_outweighed = (0..runs.len()).any(|k| runs[k].documented && on_rank(k))
        && (0..runs.len()).any(|k| !runs[k].documented && !on_rank(k));
    let mut best: Option<(usize, usize)> = None;
    for (k, &failing) in failing_at.iter().enumerate() {
        let key = |k: usize, f: usize| {
            let declared = runs[k].trace.obligations[f].is_rank_declaration();
            let documented = runs[k].documented && !prose_outweighed;
            (
                documented,
                !declared,
                f,
                usize::MAX - plausibility(&runs[k].variant),
            )
        };
        if best.is_none_or(|(b, f)| key(k, failing) > key(b, f)) {
            best = Some((k, failing));
        }
    }
    let (k, failing) = best?;
    let run = &runs[k];
    let Verdict::Unsat { core, witness, .. } = &solved[k].verdict else {
        return None;
    };
    let ob = &run.trace.obligations[failing];
    let mut related: Vec<Related> = Vec::new();
    let mut push = |span: Span, path: Option<&String>, label: String| {
        let path = path.cloned();
        if !related.iter().any(|r| r.span == span && r.path == path) {
            related.push(Related { span, label, path });
        }
    };
    // An operation in another file is reported there; the call in this file that reached
    // it is related.
    if ob.origin.is_some() {
        push(ob.span, None, "reached from this call".to_string());
    }
    for (range, label) in &ob.related {
        push(*range, None, label.clone());
    }
    for &c in core {
        if c == failing {
            continue;
        }
        let other = &run.trace.obligations[c];
        match &other.origin {
            Some(o) => push(
                o.span,
                Some(&o.path),
                format!("requires: {}", other.message),
            ),
            None => push(other.span, None, format!("requires: {}", other.message)),
        }
        for (range, label) in &other.related {
            push(*range, None, label.clone());
        }
    }
    let (primary, path) = match &ob.origin {
        Some(o) => (o.span, Some(o.path.clone())),
        None => (ob.span, None),
    };
    related.retain(|r| r.span != primary || r.path != path);
    Some(Finding {
        path,
        kind: ob.kind,
        unit: unit.name.clone(),
        unit_kind: unit.kind,
        operator: ob.operator.clone(),
        span: primary,
        message: ob.message.clone(),
        shapes: ob.shapes.clone(),
        related,
        witness: witness.clone(),
        used_z3: solved.iter().any(|s| s.used_z3),
        solve_micros: solved.iter().map(|s| s.micros).sum(),
        id: String::new(),
        suppressed: false,
        baseline: None,
        domain: runs
            .first()
            .and_then(|r| r.domain.as_ref())
            .map(|d| DomainFailures {
                labels: d.labels.clone(),
                failing: vec![d.index],
                undecided: Vec::new(),
            }),
        severity: Severity::Error,
    })
}

/// One file's shape analysis: its units, how each run was solved (`solved[u][i]` is
/// `units[u].runs[i]`), and the findings.
pub struct FileShapes {
    pub units: Vec<Unit>,
    pub solved: Vec<Vec<Solved>>,
    pub findings: Vec<Finding>,
    /// Runs cut short by a statement budget (`crate::budget`): they prove nothing.
    pub runs_over_budget: usize,
}

/// Runs the units of a parsed file, solves their jobs with `solver`, and collects findings;
/// `imports` finds the other files of its project, `place` says where the file is (for the
/// configuration files it reads), `path` names the file for fault injection.
pub fn analyse_module(
    module: &ruff_python_ast::ModModule,
    text: &str,
    path: &str,
    (imports, place): (
        Option<crate::eval::imports::ImportSearch>,
        Option<crate::eval::data_files::Place>,
    ),
    solver: &mut crate::jobs::JobSolver,
) -> FileShapes {
    let units = crate::units::run_units(module, text, imports, place);
    let solved: Vec<Vec<Solved>> = units
        .iter()
        .map(|u| crate::jobs::solve_unit(u, path, solver))
        .collect();
    let findings = file_findings(
        units
            .iter()
            .zip(&solved)
            .flat_map(|(u, s)| unit_findings(u, s, solver))
            .collect::<Vec<_>>(),
    );
    let runs_over_budget = units
        .iter()
        .flat_map(|u| &u.runs)
        .filter(|r| r.trace.over_budget.is_some())
        .count();
    FileShapes {
        units,
        solved,
        findings,
        runs_over_budget,
    }
}

#[cfg(test)]
mod tests {
    use super::FindingKind::{self, *};
    use crate::testing::findings;

    fn kind_of(body: &str) -> Vec<FindingKind> {
        let src = format!(
            "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n{body}\n"
        );
        findings(&src).iter().map(|f| f.kind).collect()
    }

    /// Kinds come from where a requirement is made: the rule's family or the rule, or the
    /// check inside it (a dim index, broadcasting), never from the message's words.
    #[test]
    fn kinds_are_declared_by_rules_and_their_checks() {
        assert_eq!(kind_of("torch.randn(2, 3).squeeze(4)"), [DimOutOfRange]);
        assert_eq!(
            kind_of("nn.Linear(4, 5)(torch.randn(2, 3))"),
            [FeatureMismatch]
        );
        assert_eq!(
            kind_of("torch.randn(2, 3) + torch.randn(4)"),
            [BroadcastMismatch]
        );
        // Operands of a loss that do not broadcast: the loss's kind, not broadcasting's.
        assert_eq!(
            kind_of("F.mse_loss(torch.randn(2, 3), torch.randn(2, 4))"),
            [LossTarget]
        );
        assert_eq!(
            kind_of("nn.MaxPool2d(2)(torch.randn(2, 3, 4, 5, 6, 7))"),
            [RankMismatch]
        );
        assert_eq!(kind_of("torch.randn(3)[5]"), [IndexOutOfBounds]);
        assert_eq!(
            kind_of("assert torch.randn(3).shape[0] == 4"),
            [AssertionFails]
        );
    }
}
