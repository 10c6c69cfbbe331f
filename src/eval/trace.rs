//! What running one unit records: the symbols it introduced, the facts it may assume, and the
//! obligations every operation it applied imposes (each with the source span that names it).

use ruff_text_size::TextRange;

use crate::frontend::LineIndex;
use crate::shapes::kind::FindingKind;
use crate::shapes::{DimExpr, Pred};

/// A source position: 1-based line and column, start and end. Obligations carry positions,
/// not offsets, so a job can travel to another worker without its file's text.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    serde::Serialize,
    serde::Deserialize,
)]
pub struct Span {
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
}

impl Span {
    pub fn of(range: TextRange, text: &str, lines: &LineIndex) -> Span {
        let (line, column) = lines.line_col(text, range.start());
        let (end_line, end_column) = lines.line_col(text, range.end());
        Span {
            line,
            column,
            end_line,
            end_column,
        }
    }

    /// No position (a unit's own entry).
    pub fn is_empty(&self) -> bool {
        self.line == 0
    }
}

/// One requirement of one operation, under the path conditions in force where it ran.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Obligation {
    /// The requirement; a guarded one reads `not(guard) or requirement`.
    pub pred: Pred,
    pub message: String,
    /// Canonical operator (`torch.nn.Linear`, `torch.Tensor.view`, `operator.add`).
    pub operator: String,
    /// What a violation is, declared where the requirement was made.
    pub kind: FindingKind,
    pub span: Span,
    /// Definitions the operation depends on (a module's construction), with a label.
    pub related: Vec<(Span, String)>,
    /// The operands' shapes, for messages.
    pub shapes: String,
    /// Where the operation is when it is code of another file of the project (`span` is
    /// then the call in the analysed file that reached it).
    #[serde(default)]
    pub origin: Option<Origin>,
}

/// An operation in another file of the project: its path relative to the analysed file's
/// folder (`/`-separated, `..` where needed) and its span there.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Origin {
    pub path: String,
    pub span: Span,
}

/// A fact the unit may assume: dims are non-negative, sizes positive, asserts hold.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Fact {
    pub pred: Pred,
    pub span: Option<Span>,
    /// Obligations recorded before it: a value that breaks one of those fails whatever
    /// the fact says.
    #[serde(default)]
    pub after: usize,
    /// A rule's assumption (`chunk` of a dim taken to divide evenly, an `assert` taken to
    /// hold): inputs outside it are ones the run says nothing about. Other facts hold for
    /// every input, or answer a question the unit's runs split on, so some run covers each
    /// side (`units::variants::with_splits`).
    #[serde(default)]
    pub assumed: bool,
}

/// Characters of a branch's condition kept.
pub const BRANCH_TEXT: usize = 80;

/// Branches a run records, at most.
pub const MAX_BRANCHES: usize = 256;

/// An `if` (or `elif`) whose condition is about dims.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Branch {
    pub span: Span,
    /// The condition as written (at most [`BRANCH_TEXT`] characters).
    pub text: String,
    pub cond: Pred,
    /// The path conditions in force where it was met.
    pub path: Vec<Pred>,
}

/// A symbolic input of the unit, for rendering witnesses: a tensor parameter's dims or a
/// constructor argument.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub enum Input {
    Tensor { name: String, dims: Vec<DimExpr> },
    Int { name: String, value: DimExpr },
}

#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Trace {
    pub obligations: Vec<Obligation>,
    pub facts: Vec<Fact>,
    pub inputs: Vec<Input>,
    /// Set when a parameter assumed to be a tensor was used as something else (a dict key
    /// lookup, an unknown attribute): the unit's assumptions are wrong, so no finding.
    pub assumption_violated: bool,
    /// Why the assumption broke (the first reason), for traces and debugging.
    pub violation: Option<String>,
    /// Path conditions under which an assumption broke: the run proves nothing unless
    /// every one of these paths is infeasible (a loop's "ran zero times" when its bound
    /// is at least 1).
    #[serde(default)]
    pub guarded_violations: Vec<Pred>,
    /// Set when the run spent its statement budget (which one, for the `jobs` row): what
    /// it did not run might have settled it, so it proves nothing.
    #[serde(default)]
    pub over_budget: Option<String>,
    /// The user's assumptions (`units::assumptions`) that applied to the run, by index.
    #[serde(default)]
    pub assumptions: Vec<usize>,
    /// What they state about its symbols (also among `facts`): solving first checks that
    /// some input satisfies them.
    #[serde(default)]
    pub assumed: Vec<Pred>,
    /// Set when an assumption is false for the run's inputs: the run is outside what the user
    /// asked about, so it neither makes nor blocks a finding.
    #[serde(default)]
    pub excluded: Option<String>,
    /// What the unit returned, for its signature (`crate::signatures`): each tensor (one,
    /// or a tuple's), its dims when its rank is known (`None`: a dim not known).
    #[serde(default)]
    pub returned: Vec<Option<Vec<Option<DimExpr>>>>,
    /// Branches of the analysed file's code whose condition is a predicate over dims, with
    /// the path conditions where they were met: a signature says which the shapes decide.
    #[serde(default)]
    pub branches: Vec<Branch>,
    /// Options of a declared domain too large to run value by value, bound to symbols
    /// (`eval::domains`): which of their values fail is asked after solving
    /// (`findings::symbolic_domain`).
    #[serde(default)]
    pub domain_symbols: Vec<DomainSymbol>,
    /// Operations whose rule could not say anything (unknown values, unmodelled operators).
    pub unknown_ops: usize,
    /// Operations evaluated by a rule.
    pub ops: usize,
}

/// An option of a declared domain bound to a symbol: its name as the script spells it, the
/// symbol, and the int values it may take (ascending).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DomainSymbol {
    pub name: String,
    pub symbol: DimExpr,
    pub values: Vec<i64>,
}

/// How a failed `b, c, h, w = x.shape` reads: the code declared another rank.
pub const SIZE_UNPACK: &str = "cannot unpack a torch.Size";

impl Obligation {
    /// Whether this is the unpacking of a shape into names, which declares its rank.
    pub fn is_rank_declaration(&self) -> bool {
        self.operator == "unpack" && self.message.starts_with(SIZE_UNPACK)
    }

    /// Whether this is a requirement on the input's rank: an operation given another
    /// number of dims, or an unpacking of another rank.
    pub fn is_on_rank(&self) -> bool {
        self.is_rank_declaration() || self.kind == crate::shapes::FindingKind::RankMismatch
    }
}

/// How much a trace holds: equal marks taken before and after some code show that it
/// recorded nothing (`Trace::mark`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceMark([usize; 9]);

impl Trace {
    /// What the trace holds so far, counted (see [`TraceMark`]).
    pub fn mark(&self) -> TraceMark {
        TraceMark([
            self.obligations.len(),
            self.facts.len(),
            self.inputs.len(),
            usize::from(self.assumption_violated),
            self.guarded_violations.len(),
            usize::from(self.over_budget.is_some()),
            self.branches.len(),
            self.unknown_ops,
            self.ops,
        ])
    }

    /// The run's requirements or facts take a remainder of a symbolic term (chunked and
    /// padded lengths): costly for the solver.
    pub fn has_symbolic_modulo(&self) -> bool {
        self.obligations
            .iter()
            .any(|o| o.pred.has_symbolic_modulo())
            || self.facts.iter().any(|f| f.pred.has_symbolic_modulo())
    }

    /// The run fails for certain: an operation outside any branch raises whatever the
    /// symbols are, and no assumption of the run broke.
    pub fn fails_for_certain(&self) -> bool {
        !self.assumption_violated
            && self.excluded.is_none()
            && self.guarded_violations.is_empty()
            && self
                .obligations
                .iter()
                .any(|o| o.pred.decide() == Some(false))
    }

    /// Records that the run's assumptions were wrong (keeps the first reason).
    pub fn violate(&mut self, reason: impl FnOnce() -> String) {
        if !self.assumption_violated {
            self.assumption_violated = true;
            self.violation = Some(reason());
        }
    }

    pub fn require(&mut self, obligation: Obligation) {
        self.obligations.push(obligation);
    }

    pub fn fact(&mut self, pred: Pred, span: Option<Span>) {
        let after = self.obligations.len();
        self.facts.push(Fact {
            pred,
            span,
            after,
            assumed: false,
        });
    }

    /// Records a rule's assumption (see [`Fact::assumed`]).
    pub fn assumption(&mut self, pred: Pred, span: Option<Span>) {
        self.fact(pred, span);
        if let Some(f) = self.facts.last_mut() {
            f.assumed = true;
        }
    }
}

/// `pred` under the path conditions `guards`: `not(g1) or ... or pred`.
pub fn guarded(guards: &[Pred], pred: Pred) -> Pred {
    if guards.is_empty() {
        return pred;
    }
    let mut parts: Vec<Pred> = guards
        .iter()
        .map(|g| Pred::Not(Box::new(g.clone())))
        .collect();
    parts.push(pred);
    Pred::Or(parts)
}

/// The predicate that never holds (a definite failure).
pub fn never() -> Pred {
    Pred::Lt(DimExpr::zero(), DimExpr::zero())
}
