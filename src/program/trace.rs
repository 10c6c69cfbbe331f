//! What running one unit records: the symbols it introduced, the facts it may assume, and the
//! obligations every operation it applied imposes (each with the source span that names it).

use ruff_text_size::TextRange;

use crate::shapes::{DimExpr, Pred};

/// One requirement of one operation, under the path conditions in force where it ran.
#[derive(Clone, Debug)]
pub struct Obligation {
    /// The requirement; a guarded one reads `not(guard) or requirement`.
    pub pred: Pred,
    /// Whether a path condition guards it (a branch, a loop body, a `try`).
    pub guarded: bool,
    pub message: String,
    /// Canonical operator (`torch.nn.Linear`, `torch.Tensor.view`, `operator.add`).
    pub operator: String,
    pub span: TextRange,
    /// Definitions the operation depends on (a module's construction), with a label.
    pub related: Vec<(TextRange, String)>,
    /// The operands' shapes, for messages.
    pub shapes: String,
}

/// A fact the unit may assume: dims are non-negative, sizes positive, asserts hold.
#[derive(Clone, Debug)]
pub struct Fact {
    pub pred: Pred,
    pub span: Option<TextRange>,
}

/// A symbolic input of the unit, for rendering witnesses: a tensor parameter's dims or a
/// constructor argument.
#[derive(Clone, Debug)]
pub enum Input {
    Tensor { name: String, dims: Vec<DimExpr> },
    Int { name: String, value: DimExpr },
}

#[derive(Clone, Debug, Default)]
pub struct Trace {
    pub obligations: Vec<Obligation>,
    pub facts: Vec<Fact>,
    pub inputs: Vec<Input>,
    /// Set when a parameter assumed to be a tensor was used as something else (a dict key
    /// lookup, an unknown attribute): the unit's assumptions are wrong, so no finding.
    pub assumption_violated: bool,
    /// Operations whose rule could not say anything (unknown values, unmodelled operators).
    pub unknown_ops: usize,
    /// Operations evaluated by a rule.
    pub ops: usize,
}

impl Trace {
    pub fn require(&mut self, obligation: Obligation) {
        self.obligations.push(obligation);
    }

    pub fn fact(&mut self, pred: Pred, span: Option<TextRange>) {
        self.facts.push(Fact { pred, span });
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
