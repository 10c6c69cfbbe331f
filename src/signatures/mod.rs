//! What each unit requires of its inputs and gives back, as the analysis infers it (seed
//! 000's static migration, Q1–Q3; the shapes seed 003 shows): per rank variant, whether some
//! input gets through, the inputs' dims, the relations required between dims and
//! hyperparameters, the dims every admitted input gives one value (static), the shapes
//! returned, and the branches the shapes decide. `annotate` prints them (`render.rs`), and
//! writes them back as jaxtyping annotations (`jaxtyping.rs`).
//!
//! Built from a unit's runs, every run solved (`jobs::solve_every_run`), and questions to Z3
//! about each admitted run (`jobs::queries`). Only the analysed file's own units are
//! described; what a run could not settle (an unknown value, a broken assumption) says so
//! instead of guessing.

pub mod jaxtyping;
pub mod render;

use std::collections::BTreeSet;

use serde::Serialize;

use crate::eval::trace::{Input, Trace};
use crate::jobs::queries::RunQueries;
use crate::jobs::simplify::{positive_symbols, simplify};
use crate::jobs::{JobSolver, SkipReason, Solved, Verdict};
use crate::shapes::{DimExpr, Pred};
use crate::units::{Unit, UnitKind};

/// Requirements listed per variant, at most (the rest are counted).
const MAX_REQUIRES: usize = 24;

/// Obligations of a run read for its requirements, at most (a large model has thousands).
const MAX_OBLIGATIONS_READ: usize = 256;

/// Solving time one set of questions about a run may take (its static dims, its
/// requirements, its branches): past it, what is not settled is listed as it stands (a
/// requirement not known to be implied is kept, a dim not known to be static is not static).
const QUERY_BUDGET: std::time::Duration = std::time::Duration::from_millis(1500);

#[derive(Clone, Debug, Serialize)]
pub struct Signature {
    /// The unit: a function, a module class (its `forward`), a method.
    pub unit: String,
    pub kind: &'static str,
    pub line: u32,
    pub variants: Vec<VariantSignature>,
}

/// Whether some input of a rank variant gets through every operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Admission {
    /// Some input satisfies every requirement.
    Admitted,
    /// Every input fails (a finding, when every variant is rejected).
    Rejected,
    /// Not settled: an unknown value, a broken assumption, Z3 gave up, a budget.
    Unknown,
}

#[derive(Clone, Debug, Serialize)]
pub struct VariantSignature {
    /// `x:4, y:2`: the ranks chosen; empty for a unit without tensor inputs.
    pub variant: String,
    pub admission: Admission,
    /// Why it was rejected (the failing operation) or not settled.
    pub why: Option<String>,
    pub inputs: Vec<InputSignature>,
    /// Operations whose rule could say nothing (an unknown value, an operator not
    /// modelled): what they require is not among `requires`.
    pub unknown_operations: usize,
    /// Relations every admitted input satisfies beyond what the inputs are (dims at
    /// least 0, asserts): each a requirement some operation makes.
    pub requires: Vec<String>,
    /// Requirements past [`MAX_REQUIRES`], not listed.
    pub more_requires: usize,
    /// Dims and hyperparameters every admitted input gives one value.
    pub fixed: Vec<Fixed>,
    /// The shapes returned (a tuple's, in order); a dim not known is `?`.
    pub returns: Vec<String>,
    pub branches: Vec<DecidedBranch>,
}

#[derive(Clone, Debug, Serialize)]
pub struct InputSignature {
    pub name: String,
    /// A tensor's dims (its symbols); `None` for an int hyperparameter.
    pub dims: Option<Vec<String>>,
    /// An int hyperparameter's value: a symbol, or the number it was given.
    pub value: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Fixed {
    pub dim: String,
    pub value: i64,
}

/// A branch whose condition the shapes decide for every admitted input.
#[derive(Clone, Debug, Serialize)]
pub struct DecidedBranch {
    pub line: u32,
    pub column: u32,
    pub condition: String,
    /// Always taken (`true`) or never (`false`).
    pub taken: bool,
}

impl InputSignature {
    /// `x: [x.shape[0], x.shape[1]]`; `hidden_dim`; `width = 16` (an int given a value).
    pub fn text(&self) -> String {
        match (&self.dims, &self.value) {
            (Some(dims), _) => format!("{}: [{}]", self.name, dims.join(", ")),
            (None, Some(value)) if *value != self.name => format!("{} = {value}", self.name),
            _ => self.name.clone(),
        }
    }
}

impl Fixed {
    /// `x.shape[1] = 4`.
    pub fn text(&self) -> String {
        format!("{} = {}", self.dim, self.value)
    }
}

impl Signature {
    /// Whether some variant is admitted.
    pub fn admitted(&self) -> impl Iterator<Item = &VariantSignature> {
        self.variants
            .iter()
            .filter(|v| v.admission == Admission::Admitted)
    }
}

/// The signatures of a file's units that take inputs (functions, module classes, methods,
/// builders), each from its runs solved one by one.
pub fn file_signatures(units: &[Unit], path: &str, z3: &mut JobSolver) -> Vec<Signature> {
    units
        .iter()
        .filter(|u| u.kind != UnitKind::Module)
        .map(|u| {
            let solved = crate::jobs::solve_every_run(u, path, z3, &[]);
            signature(u, &solved, z3)
        })
        .collect()
}

pub fn signature(unit: &Unit, solved: &[Solved], z3: &JobSolver) -> Signature {
    let variants = unit
        .runs
        .iter()
        .zip(solved)
        .filter(|(run, _)| run.trace.excluded.is_none())
        .map(|(run, solved)| {
            let (admission, why) = match &solved.verdict {
                // No requirement recorded: every input gets through what was seen.
                Verdict::Sat | Verdict::Skipped(SkipReason::NoObligations) => {
                    (Admission::Admitted, None)
                }
                Verdict::Unsat { .. } => (
                    Admission::Rejected,
                    first_failing(&run.trace, z3).map(|o| o.message.clone()),
                ),
                Verdict::Unknown => (Admission::Unknown, Some("the solver gave up".into())),
                Verdict::Skipped(reason) => (Admission::Unknown, Some(reason.message())),
            };
            let mut v = VariantSignature {
                variant: run.variant.clone(),
                admission,
                why,
                inputs: inputs(&run.trace),
                unknown_operations: run.trace.unknown_ops,
                requires: Vec::new(),
                more_requires: 0,
                fixed: Vec::new(),
                returns: Vec::new(),
                branches: Vec::new(),
            };
            if admission == Admission::Admitted {
                describe_admitted(&run.trace, z3, &mut v);
            }
            // Static dims as their numbers.
            let value_of = |name: &str| {
                v.fixed
                    .iter()
                    .find(|f| f.dim == name)
                    .map(|f| DimExpr::from(f.value))
            };
            v.returns = run
                .trace
                .returned
                .iter()
                .map(|dims| render_shape(dims, &value_of))
                .collect();
            v
        })
        .collect();
    Signature {
        unit: unit.name.clone(),
        kind: unit.kind.name(),
        line: unit.location.line,
        variants,
    }
}

fn inputs(trace: &Trace) -> Vec<InputSignature> {
    trace
        .inputs
        .iter()
        .map(|input| match input {
            Input::Tensor { name, dims } => InputSignature {
                name: name.clone(),
                dims: Some(dims.iter().map(DimExpr::to_string).collect()),
                value: None,
            },
            Input::Int { name, value } => InputSignature {
                name: name.clone(),
                dims: None,
                value: Some(value.to_string()),
            },
        })
        .collect()
}

fn render_shape(
    dims: &Option<Vec<Option<DimExpr>>>,
    value_of: &dyn Fn(&str) -> Option<DimExpr>,
) -> String {
    match dims {
        Some(dims) => {
            let parts: Vec<String> = dims
                .iter()
                .map(|d| {
                    d.as_ref()
                        .map_or("?".to_string(), |d| d.substitute(value_of).to_string())
                })
                .collect();
            format!("[{}]", parts.join(", "))
        }
        None => "[...]".to_string(),
    }
}

impl Signature {
    /// Its `signatures` rows, one per variant, for the file at `path` of `repo`.
    pub fn rows(&self, repo: &str, path: &str) -> Vec<crate::reports::tables::SignatureRow> {
        self.variants
            .iter()
            .map(|v| crate::reports::tables::SignatureRow {
                repo: repo.to_string(),
                path: path.to_string(),
                unit: self.unit.clone(),
                unit_kind: self.kind.to_string(),
                line: self.line,
                variant: v.variant.clone(),
                admission: match v.admission {
                    Admission::Admitted => "admitted",
                    Admission::Rejected => "rejected",
                    Admission::Unknown => "unknown",
                }
                .to_string(),
                why: v.why.clone(),
                inputs: v.inputs.iter().map(InputSignature::text).collect(),
                fixed: v.fixed.iter().map(Fixed::text).collect(),
                requires: v.requires.clone(),
                returns: v.returns.clone(),
                branches: v
                    .branches
                    .iter()
                    .map(|b| {
                        let taken = if b.taken { "always" } else { "never" };
                        format!("{}: {}: {taken}", b.line, b.condition)
                    })
                    .collect(),
                unknown_operations: v.unknown_operations as u64,
            })
            .collect()
    }
}

/// Requirements, fixed dims and decided branches of a run some input gets through.
fn describe_admitted(trace: &Trace, z3: &JobSolver, v: &mut VariantSignature) {
    let facts: Vec<&Pred> = trace.facts.iter().map(|f| &f.pred).collect();
    let obligations: Vec<&Pred> = trace.obligations.iter().map(|o| &o.pred).collect();
    let all: Vec<&Pred> = facts.iter().chain(&obligations).copied().collect();

    // Which inputs every admitted input gives one value: the static dims.
    let mut symbols: BTreeSet<std::sync::Arc<str>> = BTreeSet::new();
    for input in &trace.inputs {
        match input {
            Input::Tensor { dims, .. } => dims.iter().for_each(|d| symbols.extend(d.symbols())),
            Input::Int { value, .. } => symbols.extend(value.symbols()),
        }
    }
    let mut fixed: Vec<(std::sync::Arc<str>, i64)> = Vec::new();
    {
        let mut q = RunQueries::within(z3, &all, QUERY_BUDGET);
        let exprs: Vec<DimExpr> = symbols.iter().map(|s| DimExpr::sym(s)).collect();
        for (s, value) in symbols.iter().zip(q.fixed_values(&exprs)) {
            if let Some(value) = value {
                fixed.push((s.clone(), value));
            }
        }
    }
    let value_of = |name: &str| {
        fixed
            .iter()
            .find(|(s, _)| s.as_ref() == name)
            .map(|(_, v)| DimExpr::from(*v))
    };

    // Requirements the facts and the fixed values do not already imply, each once.
    let positive = positive_symbols(&trace.facts);
    let fixed_preds: Vec<Pred> = fixed
        .iter()
        .map(|(s, v)| Pred::Eq(DimExpr::sym(s), DimExpr::from(*v)))
        .collect();
    let given: Vec<&Pred> = facts.iter().copied().chain(&fixed_preds).collect();
    let mut q = RunQueries::within(z3, &given, QUERY_BUDGET);
    let mut seen = BTreeSet::new();
    let mut candidates: Vec<(Pred, String)> = Vec::new();
    for o in trace.obligations.iter().take(MAX_OBLIGATIONS_READ) {
        let p = simplify(&o.pred.substitute(&value_of), &positive);
        if p.decide() == Some(true) {
            continue;
        }
        let text = render_pred(&p);
        if seen.insert(text.clone()) {
            candidates.push((p, text));
        }
    }
    let claims: Vec<&Pred> = candidates.iter().map(|(p, _)| p).collect();
    let implied = q.implied_each(&claims);
    let mut kept: Vec<(Pred, String)> = candidates
        .into_iter()
        .zip(implied)
        .filter(|(_, implied)| *implied != Some(true))
        .map(|(c, _)| c)
        .collect();
    // A requirement the others imply says nothing more (`3 <= h` next to `0 < h - 2`): the
    // later of two goes first.
    let mut i = kept.len();
    while i > 0 && kept.len() <= 2 * MAX_REQUIRES {
        i -= 1;
        let negated = Pred::Not(Box::new(kept[i].0.clone()));
        let mut others: Vec<&Pred> = kept
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != i)
            .map(|(_, (p, _))| p)
            .collect();
        others.push(&negated);
        if q.possible(&others) == Some(false) {
            kept.remove(i);
        }
    }
    drop(q);
    for (_, text) in kept {
        if v.requires.len() < MAX_REQUIRES {
            v.requires.push(text);
        } else {
            v.more_requires += 1;
        }
    }
    v.fixed = fixed
        .into_iter()
        .map(|(dim, value)| Fixed {
            dim: dim.to_string(),
            value,
        })
        .collect();

    // Branches: decided when every time it is met, under its path, one side is impossible.
    let mut q = RunQueries::within(z3, &all, QUERY_BUDGET);
    let mut by_span: Vec<(crate::eval::trace::Span, String, Option<bool>)> = Vec::new();
    // Each side of each branch, as a claim that it cannot happen: one model answers many.
    let never: Vec<Pred> = trace
        .branches
        .iter()
        .flat_map(|b| {
            let side = |cond: Pred| {
                let mut path = b.path.clone();
                path.push(cond);
                Pred::Not(Box::new(Pred::And(path)))
            };
            [
                side(b.cond.clone()),
                side(Pred::Not(Box::new(b.cond.clone()))),
            ]
        })
        .collect();
    let claims: Vec<&Pred> = never.iter().collect();
    let sides = q.implied_each(&claims);
    for (k, b) in trace.branches.iter().enumerate() {
        let (taken, skipped) = (sides[2 * k].map(|n| !n), sides[2 * k + 1].map(|n| !n));
        let decided = match (taken, skipped) {
            (Some(true), Some(false)) => Some(true),
            (Some(false), Some(true)) => Some(false),
            // Not reached by any admitted input on this path: says nothing.
            (Some(false), Some(false)) => continue,
            _ => None,
        };
        match by_span.iter_mut().find(|(s, _, _)| *s == b.span) {
            Some(entry) if entry.2 != decided => entry.2 = None,
            Some(_) => {}
            None => by_span.push((b.span, b.text.clone(), decided)),
        }
    }
    v.branches = by_span
        .into_iter()
        .filter_map(|(span, condition, decided)| {
            decided.map(|taken| DecidedBranch {
                line: span.line,
                column: span.column,
                condition,
                taken,
            })
        })
        .collect();
}

/// The obligation where a contradictory run breaks: the first whose prefix with the facts
/// is contradictory (a binary search over prefixes).
fn first_failing<'t>(
    trace: &'t Trace,
    z3: &JobSolver,
) -> Option<&'t crate::eval::trace::Obligation> {
    let facts: Vec<&Pred> = trace.facts.iter().map(|f| &f.pred).collect();
    let preds: Vec<&Pred> = trace.obligations.iter().map(|o| &o.pred).collect();
    let mut q = RunQueries::within(z3, &facts, QUERY_BUDGET);
    let (mut lo, mut hi) = (0, preds.len().checked_sub(1)?);
    if q.possible(&preds)? {
        return None;
    }
    while lo < hi {
        let mid = (lo + hi) / 2;
        if q.possible(&preds[..=mid])? {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    trace.obligations.get(lo)
}

/// A requirement as read: a guarded one (`not g or r`) as `r when g`.
fn render_pred(p: &Pred) -> String {
    match p {
        Pred::Or(parts) if parts.len() == 2 => match (&parts[0], &parts[1]) {
            (Pred::Not(g), r) | (r, Pred::Not(g)) => format!("{} when {}", render_pred(r), g),
            _ => p.to_string(),
        },
        _ => p.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jobs::DEFAULT_TIMEOUT;

    pub(crate) fn signatures_of(src: &str, assumed: &[&str]) -> Vec<Signature> {
        let units = crate::testing::units_assuming(src, assumed);
        file_signatures(&units, "test.py", &mut JobSolver::new(DEFAULT_TIMEOUT))
    }

    fn unit<'s>(sigs: &'s [Signature], name: &str) -> &'s Signature {
        sigs.iter().find(|s| s.unit == name).expect("the unit")
    }

    fn ranks(s: &Signature, a: Admission) -> Vec<&str> {
        s.variants
            .iter()
            .filter(|v| v.admission == a)
            .map(|v| v.variant.as_str())
            .collect()
    }

    fn variant<'s>(s: &'s Signature, label: &str) -> &'s VariantSignature {
        s.variants
            .iter()
            .find(|v| v.variant == label)
            .expect("the variant")
    }

    const CONV: &str = "
import torch
import torch.nn as nn


class ConvExample(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(in_channels=2, out_channels=2, kernel_size=2)
        self.conv2 = nn.Conv2d(in_channels=4, out_channels=2, kernel_size=2)

    def forward(self, x):
        self.conv1(x)
        return self.conv2(x)


class FixedConv(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(in_channels=4, out_channels=2, kernel_size=2)

    def forward(self, x):
        return self.conv(x)
";

    /// Digest 000, Listings 1–2 (Q1): two convs with 2 and 4 input channels on one input.
    /// The paper's gradual answer is "only with a Dyn channel dim"; with static shapes no
    /// input of any rank gets through. One conv (Listing 3): rank 3 or 4, the channel dim
    /// static.
    #[test]
    fn digest_000_conflicting_channels_admit_no_rank_and_one_conv_fixes_the_channels() {
        let sigs = signatures_of(CONV, &[]);
        let conflicting = unit(&sigs, "ConvExample");
        assert!(ranks(conflicting, Admission::Admitted).is_empty());
        assert_eq!(ranks(conflicting, Admission::Rejected).len(), 6);
        let one = unit(&sigs, "FixedConv");
        assert_eq!(ranks(one, Admission::Admitted), ["x:3", "x:4"]);
        let v4 = variant(one, "x:4");
        assert_eq!(v4.fixed.len(), 1);
        assert_eq!(
            (v4.fixed[0].dim.as_str(), v4.fixed[0].value),
            ("x.shape[1]", 4)
        );
        assert_eq!(v4.requires, ["2 <= x.shape[2]", "2 <= x.shape[3]"]);
        assert_eq!(
            v4.returns,
            ["[x.shape[0], 2, x.shape[2] - 1, x.shape[3] - 1]"]
        );
    }

    /// Digest 000, Listings 3→4 (Q2): under the user's ranges only rank 4 is asked about,
    /// its channel dim forced to 4; the ranges leave no other requirement.
    #[test]
    fn digest_000_user_ranges_leave_the_rank_four_migration_with_its_channels_static() {
        let assumed = [
            "5 <= x.shape[0] <= 20",
            "5 <= x.shape[2] <= 20",
            "2 <= x.shape[3] <= 10",
        ];
        let sigs = signatures_of(CONV, &assumed);
        let one = unit(&sigs, "FixedConv");
        assert_eq!(ranks(one, Admission::Admitted), ["x:4"]);
        let v4 = variant(one, "x:4");
        assert_eq!(v4.fixed.len(), 1);
        assert_eq!(v4.fixed[0].value, 4);
        assert!(v4.requires.is_empty(), "{:?}", v4.requires);
    }

    /// Digest 000, Listings 5 and 7 (Q3): a branch on the conv output's rank is decided by
    /// the input's rank; one on `x.reshape(100).size()[0] < 100` is never taken.
    #[test]
    fn digest_000_shape_dependent_branches_are_decided() {
        let src = "
import torch
import torch.nn as nn


class ConvControlFlow(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(512, 512, kernel_size=3)

    def forward(self, x):
        if self.conv(x).dim() == 4:
            return torch.relu(x)
        else:
            return torch.nn.Dropout(x)


class ReshapeControlFlow(nn.Module):
    def forward(self, x):
        if x.reshape(100).size()[0] < 100:
            return torch.dropout(x, p=0.5, train=False)
        else:
            return torch.relu(x)


def threshold(x):
    if x.shape[-1] > 1:
        return x.sum()
    return x

def tied(x):
    assert x.shape[-1] == 4
    if x.shape[-1] > 1:
        return x.sum()
    return x
";
        let sigs = signatures_of(src, &[]);
        let branch = |s: &Signature, label: &str| -> Vec<(u32, bool)> {
            variant(s, label)
                .branches
                .iter()
                .map(|b| (b.line, b.taken))
                .collect()
        };
        let conv = unit(&sigs, "ConvControlFlow");
        assert_eq!(branch(conv, "x:4"), [(12, true)]);
        assert_eq!(branch(conv, "x:3"), [(12, false)]);
        let reshape = unit(&sigs, "ReshapeControlFlow");
        assert_eq!(branch(reshape, "x:2"), [(20, false)]);
        assert_eq!(
            variant(reshape, "x:2").requires,
            ["x.shape[0]*x.shape[1] == 100"]
        );
        // `size[-1] > 1`: undecided without more; decided once the last dim is 4.
        assert_eq!(branch(unit(&sigs, "threshold"), "x:2"), []);
        assert_eq!(branch(unit(&sigs, "tied"), "x:2"), [(33, true)]);
        let text = render::text("m.py", &sigs);
        assert!(
            text.contains("branch at line 20: x.reshape(100).size()[0] < 100 is never taken"),
            "{text}"
        );
    }

    /// Digest 004's running example (Fig. 1, its typos fixed): `in_features=2704` holds
    /// only for inputs whose pooled map is 13x13 (or 1x169), one channel.
    #[test]
    fn digest_004_running_example_requires_the_hand_computed_features() {
        let src = "
import torch.nn as nn


class CNNModel(nn.Module):
    def __init__(self):
        super(CNNModel, self).__init__()
        self.conv = nn.Conv2d(in_channels=1, out_channels=16, kernel_size=3)
        self.pool = nn.AvgPool2d(kernel_size=2, stride=2)
        self.fc = nn.Linear(in_features=2704, out_features=10)
        self.softmax = nn.Softmax(dim=1)

    def forward(self, x):
        x = self.conv(x)
        x = self.pool(x)
        x = x.reshape(x.size(0), -1)
        x = self.fc(x)
        x = self.softmax(x)
        return x
";
        let sigs = signatures_of(src, &[]);
        let model = unit(&sigs, "CNNModel");
        assert_eq!(ranks(model, Admission::Admitted), ["x:3", "x:4"]);
        let v4 = variant(model, "x:4");
        assert_eq!(
            (v4.fixed[0].dim.as_str(), v4.fixed[0].value),
            ("x.shape[1]", 1)
        );
        assert_eq!(v4.requires.len(), 1, "{:?}", v4.requires);
        assert!(v4.requires[0].ends_with("== 2704"), "{:?}", v4.requires);
        assert_eq!(v4.returns, ["[x.shape[0], 10]"]);
        // MNIST's [16, 1, 28, 28] is among the admitted inputs; [16, 1, 32, 32] is not.
        let src_28 = format!("{src}\nCNNModel()(torch.randn(16, 1, 28, 28))\n");
        let src_32 = format!("{src}\nCNNModel()(torch.randn(16, 1, 32, 32))\n");
        let with_torch = |s: &str| format!("import torch\n{s}");
        assert!(crate::testing::findings(&with_torch(&src_28)).is_empty());
        assert_eq!(crate::testing::findings(&with_torch(&src_32)).len(), 1);
    }

    /// A precondition between hyperparameters (seed 002): stated as a requirement.
    #[test]
    fn relations_between_hyperparameters_are_requirements() {
        let src = "
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, hidden_dim, out_dim):
        super().__init__()
        self.fc = nn.Linear(hidden_dim, out_dim)
        self.norm = nn.LayerNorm(hidden_dim)

    def forward(self, x):
        return self.norm(self.fc(x))
";
        let sigs = signatures_of(src, &[]);
        let v2 = variant(unit(&sigs, "Block"), "x:2");
        assert_eq!(
            v2.requires,
            ["x.shape[1] == hidden_dim", "out_dim == hidden_dim"]
        );
        assert_eq!(v2.returns, ["[x.shape[0], out_dim]"]);
    }

    const SEED_003: &str = r#"
import torch
import torch.nn as nn
import torch.nn.functional as F


class TwoLayerMLP(nn.Module):
    def __init__(self, in_dim: D["in"], hidden_dim: D["hidden"], out_dim: D["out"]):
        super().__init__()
        self.fc1 = nn.Linear(in_dim, hidden_dim)
        self.fc2 = nn.Linear(hidden_dim, out_dim)

    def forward(self, x: T["b in"]) -> T["b out"]:
        x = F.relu(self.fc1(x))
        x = self.fc2(x)
        return x


def main():
    mlp = TwoLayerMLP(50, 100, 20)
    x = torch.zeros((100, 50))
    y = mlp(x)
"#;

    /// Seed 003's class: `D["in"]` on the constructor and `T["b in"]` on `forward` name one
    /// dim, so the signature needs nothing more and returns what the annotation says.
    #[test]
    fn seed_003_dims_named_by_the_constructor_and_forward_are_one() {
        let sigs = signatures_of(SEED_003, &[]);
        let mlp = unit(&sigs, "TwoLayerMLP");
        assert_eq!(ranks(mlp, Admission::Admitted), ["x:2"]);
        let v = variant(mlp, "x:2");
        assert!(v.requires.is_empty(), "{:?}", v.requires);
        assert_eq!(v.returns, ["[b, out]"]);
        assert!(crate::testing::findings(SEED_003).is_empty());
        // The input annotated with another name than the layer's: fails unless they agree.
        let swapped = SEED_003.replace(r#"x: T["b in"]"#, r#"x: T["b out"]"#);
        let found = crate::testing::findings(&swapped);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].message.starts_with("fails unless out == in: "),
            "{}",
            found[0].message
        );
        // A return annotation the code does not meet.
        let wrong = SEED_003.replace(r#"-> T["b out"]"#, r#"-> T["b hidden"]"#);
        let found = crate::testing::findings(&wrong);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].span.line, 13);
        assert!(
            found[0]
                .message
                .contains("the annotation `T[\"b hidden\"]` says hidden"),
            "{}",
            found[0].message
        );
        let wrong_rank = SEED_003.replace(r#"-> T["b out"]"#, r#"-> T["b 1 out"]"#);
        let found = crate::testing::findings(&wrong_rank);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].severity, crate::findings::Severity::Error);
    }

    /// Seed 003's joins: after branches giving `[2, 3]` or `[2, 4]`, a use that fails for
    /// both sizes is a finding; one that fits one of them is not.
    #[test]
    fn seed_003_a_use_that_fails_for_every_joined_shape_is_a_finding() {
        let src = "
import random
import torch


def f():
    if random.random() > 0.5:
        y = torch.zeros(2, 3)
    else:
        y = torch.zeros(2, 4)
    return y @ torch.zeros(WIDTH, 6)
";
        crate::testing::assert_twins(src, "WIDTH", "5", "4", 11);
        crate::testing::assert_twins(src, "WIDTH", "5", "3", 11);
    }
}
