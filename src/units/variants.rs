//! The variants of a unit's inputs: how each input is bound (a rank for a tensor of unknown
//! rank, the length of an annotated shape's `...`, a size symbol, unknown), every bounded
//! combination of them, and running each — again per answer to a question a rule could not
//! settle (`with_splits`), and again per rank of an input deferred past the variant limit
//! when few variants are left open (`run_all_variants`).

use rustc_hash::FxHashMap as HashMap;

use super::params::{AnnotatedDim, Default, Kinds, ParamKind};
use super::UnitRun;
use crate::eval::domains::DomainChoice;
use crate::eval::interp::Interp;
use crate::eval::trace::Input;
use crate::eval::value::V;
use crate::shapes::shape::{Dim, Shape};
use crate::shapes::{DimExpr, Value};

/// Ranks tried for a symbolic tensor input of unknown rank.
const RANKS: [usize; 6] = [1, 2, 3, 4, 5, 6];
/// Lengths tried for the `...` part of an annotated shape.
const VARIADIC: [usize; 3] = [0, 1, 2];
/// At most this many rank variants per unit.
const MAX_VARIANTS: usize = 36;

/// How one input is bound in one variant.
#[derive(Clone, Debug)]
pub(super) enum Choice {
    /// A tensor of this rank with fresh dims.
    Rank(usize),
    /// An annotated shape with its `...` part this long.
    Annotated(Vec<AnnotatedDim>, usize),
    Size,
    /// A size bound to the named dim (`D["in"]`).
    NamedSize(String),
    Unknown,
    /// A tensor of unknown rank past the variant limit: unknown at first, then tried at
    /// every rank when few variants are left open (see [`run_all_variants`]).
    Deferred,
}

/// The choices for each parameter, and every combination of them (bounded): parameters of
/// unknown rank and annotated shapes with `...` have several.
pub(super) fn variants(kinds: &[(String, ParamKind, Default)]) -> Vec<Vec<(String, Choice)>> {
    let mut out: Vec<Vec<(String, Choice)>> = vec![Vec::new()];
    for (name, kind, default) in kinds {
        match default {
            // A parameter with a default runs with its default, `None` too: the unit runs
            // as a caller that omits it (`model(tokens)` with `state=None`) calls it, and a
            // bug on that path fails every such call.
            Default::Value => continue,
            Default::Absent => {}
        }
        let options: Vec<Choice> = match kind {
            // Every rank, as long as the combinations stay bounded; past that an input is
            // deferred (never a partial set of ranks: a finding needs every rank to fail).
            ParamKind::Tensor if out.len() * RANKS.len() <= MAX_VARIANTS => {
                RANKS.iter().map(|&r| Choice::Rank(r)).collect()
            }
            ParamKind::Tensor => vec![Choice::Deferred],
            ParamKind::Ranked(r) => vec![Choice::Rank(*r)],
            ParamKind::Shaped(dims)
                if dims.contains(&AnnotatedDim::Variadic)
                    && out.len() * VARIADIC.len() <= MAX_VARIANTS =>
            {
                VARIADIC
                    .iter()
                    .map(|&n| Choice::Annotated(dims.clone(), n))
                    .collect()
            }
            ParamKind::Shaped(dims) => vec![Choice::Annotated(dims.clone(), 0)],
            ParamKind::Size => vec![Choice::Size],
            ParamKind::NamedSize(n) => vec![Choice::NamedSize(n.clone())],
            ParamKind::Unknown => vec![Choice::Unknown],
        };
        let mut next = Vec::new();
        for prefix in &out {
            for o in &options {
                let mut v = prefix.clone();
                v.push((name.clone(), o.clone()));
                next.push(v);
            }
        }
        out = next;
    }
    out
}

/// The variant in which a unit's one tensor input has the shape its docstring prose
/// describes (`dims`, see `docstring::described_shape`). It runs first — when it runs
/// cleanly the other variants are settled cheaply — and when every variant fails it names
/// the location: where the input the author meant fails. A hint, never a fact: the other
/// variants still decide whether there is a finding.
pub(super) fn documented_variant(kinds: &Kinds, dims: Vec<AnnotatedDim>) -> Option<Variant> {
    let mut inputs = kinds.iter().filter(|(_, kind, default)| {
        *default == Default::Absent
            && matches!(
                kind,
                ParamKind::Tensor | ParamKind::Ranked(_) | ParamKind::Shaped(_)
            )
    });
    let (name, kind, _) = inputs.next()?;
    let fits = match kind {
        ParamKind::Tensor => true,
        ParamKind::Ranked(r) => !dims.contains(&AnnotatedDim::Variadic) && *r == dims.len(),
        _ => false,
    };
    if !fits || inputs.next().is_some() {
        return None;
    }
    let mut variant = variants(kinds).into_iter().next()?;
    let at = variant.iter().position(|(n, _)| n == name)?;
    // `(*, C, H, W)`: one leading dim, the usual batch.
    variant[at].1 = Choice::Annotated(dims, 1);
    Some(variant)
}

/// The symbol for an annotated dim name, shared by every parameter of the unit.
fn named_dim<'a>(
    interp: &mut Interp<'a>,
    named: &mut HashMap<String, DimExpr>,
    name: &str,
) -> DimExpr {
    if let Some(e) = named.get(name) {
        return e.clone();
    }
    let e = interp.fresh_input_dim(name);
    named.insert(name.to_string(), e.clone());
    e
}

/// Binds one variant's inputs: symbolic tensors (annotated names shared across
/// parameters), positive size symbols, unknowns. Returns keyword arguments and the
/// variant's description. `named`: the symbols of the dim names bound so far (a
/// constructor's `D["in"]` arguments, for its `forward`'s annotations), with those it binds
/// added.
pub(super) fn bind_inputs<'a>(
    interp: &mut Interp<'a>,
    choices: &[(String, Choice)],
    named: &mut HashMap<String, DimExpr>,
) -> (Vec<(String, V<'a>)>, String) {
    let mut kwargs = Vec::new();
    let mut described = Vec::new();
    for (name, choice) in choices {
        let v = match choice {
            Choice::Rank(r) => {
                let (v, dims) = interp.fresh_tensor(name, *r);
                interp.run.trace.inputs.push(Input::Tensor {
                    name: name.clone(),
                    dims,
                });
                described.push(format!("{name}:{r}"));
                v
            }
            Choice::Annotated(spec, variadic) => {
                let mut dims = Vec::new();
                for (i, d) in spec.iter().enumerate() {
                    match d {
                        AnnotatedDim::Const(c) => dims.push(DimExpr::constant(*c)),
                        AnnotatedDim::Name(n) => dims.push(named_dim(interp, named, n)),
                        AnnotatedDim::Product(ns) => {
                            let mut e = DimExpr::one();
                            for n in ns {
                                e = e.mul(&named_dim(interp, named, n));
                            }
                            dims.push(e);
                        }
                        AnnotatedDim::Variadic => {
                            for j in 0..*variadic {
                                dims.push(interp.fresh_input_dim(&format!("{name}.batch{i}_{j}")));
                            }
                        }
                    }
                }
                interp.run.trace.inputs.push(Input::Tensor {
                    name: name.clone(),
                    dims: dims.clone(),
                });
                described.push(format!("{name}:{}", dims.len()));
                let shape = Shape::Ranked(dims.into_iter().map(Dim::Known).collect());
                V::Data(Value::tensor(shape, None))
            }
            Choice::Size => interp.fresh_size_input(name),
            Choice::NamedSize(dim) => {
                let value = named_dim(interp, named, dim);
                interp.run.trace.inputs.push(Input::Int {
                    name: name.clone(),
                    value: value.clone(),
                });
                V::Data(Value::Int(value))
            }
            Choice::Unknown | Choice::Deferred => V::Unknown,
        };
        kwargs.push((name.clone(), v));
    }
    (kwargs, described.join(","))
}

/// A return annotation's shape (`-> T["b out"]`, jaxtyping, torchtyping) checked against the
/// tensor returned: its rank, and each dim against the annotation's (a name the inputs or
/// the constructor bound is the same symbol; a new name is any size, a number that size).
/// A violation is a `shape-mismatch` at the annotation. Annotations with `...` are left.
pub(super) fn check_declared_return<'a>(
    interp: &mut Interp<'a>,
    def: &'a ruff_python_ast::StmtFunctionDef,
    out: &V<'a>,
    named: &mut HashMap<String, DimExpr>,
) {
    use crate::shapes::kind::FindingKind;
    use ruff_text_size::Ranged;
    let Some(ret) = def.returns.as_deref() else {
        return;
    };
    let Some(ParamKind::Shaped(spec)) = super::params::annotation_kind(ret) else {
        return;
    };
    if spec.contains(&AnnotatedDim::Variadic) || interp.run.dead {
        return;
    }
    let V::Data(Value::Tensor(t)) = out else {
        return;
    };
    let Shape::Ranked(got) = &t.shape else {
        return;
    };
    let span = ret.range();
    let written = interp.source(span).to_string();
    if got.len() != spec.len() {
        let message = format!(
            "returns a tensor of rank {} ({}), the annotation `{written}` says rank {}",
            got.len(),
            t.shape,
            spec.len()
        );
        interp.fail(FindingKind::ShapeMismatch, message, "return", span, &[], "");
        return;
    }
    for (i, (dim, declared)) in got.iter().zip(&spec).enumerate() {
        let Dim::Known(dim) = dim else { continue };
        let expected = match declared {
            AnnotatedDim::Const(c) => DimExpr::constant(*c),
            AnnotatedDim::Name(n) => named_dim(interp, named, n),
            AnnotatedDim::Product(ns) => {
                let mut e = DimExpr::one();
                for n in ns {
                    e = e.mul(&named_dim(interp, named, n));
                }
                e
            }
            AnnotatedDim::Variadic => continue,
        };
        let message = format!(
            "the returned tensor's dim {i} is {dim} ({}), the annotation `{written}` says {expected}",
            t.shape
        );
        let pred = crate::shapes::Pred::Eq(dim.clone(), expected);
        interp.require(
            FindingKind::ShapeMismatch,
            pred,
            message,
            "return",
            span,
            &[],
            "",
        );
    }
}

/// One variant: how each input is bound.
pub(super) type Variant = Vec<(String, Choice)>;

/// Runs beyond [`MAX_VARIANTS`] that trying deferred inputs may add to one unit.
const MAX_DEFERRED_RUNS: usize = 48;

/// Runs every variant of `kinds` (`start` runs one afresh and names it). An input deferred
/// past the variant limit starts unknown; when few variants are left open — not failing
/// for certain whatever it is — those are run again once per rank of it (then of the next
/// deferred input), within [`MAX_DEFERRED_RUNS`] and unless those runs take remainders of
/// symbolic terms. A bug that needs a third input's rank then shows, while the variants the
/// first inputs already doom cost nothing more. `declared`: the inputs whose shape a
/// docstring declares, run at every rank when their declared ranks fail for certain.
pub(super) fn run_all_variants<'a>(
    interp: &mut Interp<'a>,
    kinds: &Kinds,
    documented: Option<Variant>,
    declared: &[String],
    mut start: impl FnMut(&mut Interp<'a>, &[(String, Choice)]) -> String,
) -> Vec<UnitRun> {
    let runs = run_kinds(interp, kinds, documented.clone(), &mut start);
    // A docstring's declared shape gives way to the code: when every run fails for certain
    // on a rank check, the declaration is stale (a documented 3-D mask the code expands to
    // 4 dims), and the unit runs again with those inputs at every rank.
    if declared.is_empty() || runs.is_empty() || !runs.iter().all(fails_on_rank) {
        return runs;
    }
    run_kinds(
        interp,
        &super::params::undeclared(kinds, declared),
        documented,
        &mut start,
    )
}

/// The run fails for certain, and its first certain failure is on a rank: the input has
/// another number of dims than the operation takes, or than the code unpacks.
fn fails_on_rank(run: &UnitRun) -> bool {
    let trace = &run.trace;
    trace.fails_for_certain()
        && trace
            .obligations
            .iter()
            .find(|o| o.pred.decide() == Some(false))
            .is_some_and(|o| o.is_on_rank())
}

/// What [`run_all_variants`] runs for one classification of the inputs.
fn run_kinds<'a>(
    interp: &mut Interp<'a>,
    kinds: &Kinds,
    documented: Option<Variant>,
    start: &mut impl FnMut(&mut Interp<'a>, &[(String, Choice)]) -> String,
) -> Vec<UnitRun> {
    let mut runs = Vec::new();
    if let Some(choices) = documented {
        let mut done = with_splits(interp, |interp| start(interp, &choices));
        for run in &mut done {
            run.documented = true;
            run.variant.push_str(" documented");
        }
        runs.extend(done);
    }
    let mut open: Vec<(Variant, Vec<UnitRun>)> = Vec::new();
    let mut pending = variants(kinds);
    let mut budget = MAX_DEFERRED_RUNS;
    loop {
        for choices in pending {
            let done = with_splits(interp, |interp| start(interp, &choices));
            let deferred = choices.iter().any(|(_, c)| matches!(c, Choice::Deferred));
            if deferred && !done.iter().all(|r| r.trace.fails_for_certain()) {
                open.push((choices, done));
            } else {
                runs.extend(done);
            }
        }
        // Runs over chunked or padded lengths (a remainder of a symbolic term) cost the
        // solver seconds each: not multiplied.
        let costly = open
            .iter()
            .any(|(_, done)| done.iter().any(|r| r.trace.has_symbolic_modulo()));
        if open.is_empty() || costly || open.len() * RANKS.len() > budget {
            runs.extend(open.into_iter().flat_map(|(_, done)| done));
            return runs;
        }
        budget -= open.len() * RANKS.len();
        pending = std::mem::take(&mut open)
            .into_iter()
            .flat_map(|(choices, _)| {
                let at = choices
                    .iter()
                    .position(|(_, c)| matches!(c, Choice::Deferred))
                    .unwrap_or_default();
                RANKS.iter().map(move |&r| {
                    let mut next = choices.clone();
                    next[at].1 = Choice::Rank(r);
                    next
                })
            })
            .collect();
    }
}

/// How many questions one run may split on (each doubles its runs).
const MAX_SPLITS: usize = 2;

/// How many questions a run over declared options bound to symbols may split on: a
/// condition on an option (`if depth > 1:`) is one per level it builds.
const MAX_OPTION_SPLITS: usize = 5;

/// Runs `once` (which starts the run afresh and gives its variant's name), then again once
/// per answer to each question a rule could not settle (`Interp::decisions`), up to
/// [`MAX_SPLITS`] deep; a question past that leaves its value unknown. A unit is a finding
/// only when every run fails, so a bug must show whichever way each question goes.
pub(super) fn with_splits<'a>(
    interp: &mut Interp<'a>,
    mut once: impl FnMut(&mut Interp<'a>) -> String,
) -> Vec<UnitRun> {
    let mut runs = Vec::new();
    let mut plans = vec![(Vec::new(), None)];
    let max_splits = match interp.plan.symbolic_domains {
        true => MAX_OPTION_SPLITS,
        false => MAX_SPLITS,
    };
    while let Some((plan, domain)) = plans.pop() {
        interp.plan.decisions = plan;
        interp.plan.used = 0;
        interp.plan.split_wanted = false;
        interp.plan.domain = domain.clone();
        interp.plan.domain_wanted = None;
        let mut variant = once(interp);
        let trace = std::mem::take(&mut interp.run.trace);
        let plan = std::mem::take(&mut interp.plan.decisions);
        // A declared domain met: the run again once per value (`eval::domains`), unless
        // it applied no operator at all (with every value in turn).
        let wanted = interp.plan.domain_wanted.take();
        if let (None, Some((at, labels)), true) = (&domain, wanted, trace.ops > 0) {
            for index in (0..labels.len()).rev() {
                let choice = DomainChoice {
                    labels: labels.clone(),
                    index: index as u32,
                };
                plans.push((plan.clone(), Some((at, choice))));
            }
            continue;
        }
        if interp.plan.split_wanted && plan.len() < max_splits {
            for answer in [false, true] {
                let mut next = plan.clone();
                next.push(answer);
                plans.push((next, domain.clone()));
            }
            continue;
        }
        if !plan.is_empty() {
            let answers: Vec<&str> = plan.iter().map(|&b| if b { "y" } else { "n" }).collect();
            variant = format!("{variant}|{}", answers.join(""));
        }
        let domain = domain.map(|(_, choice)| choice);
        if let Some(choice) = &domain {
            variant = format!("{variant} [{}]", choice.label());
        }
        runs.push(UnitRun {
            variant,
            trace,
            documented: false,
            domain,
        });
    }
    interp.plan.split_wanted = false;
    interp.plan.domain = None;
    interp.plan.domain_wanted = None;
    runs
}

#[cfg(test)]
mod tests {
    use crate::testing::{assert_twins, findings};

    /// Every rank fails: at the `permute` for all but rank 4, which gets further and fails at
    /// the norm. A docstring describing a 3-D input names the `permute` instead, where the
    /// input the author meant fails. The description is no fact: a clean twin stays clean
    /// even when it describes another rank.
    #[test]
    fn the_input_a_docstring_describes_names_the_location() {
        let src = r#"
import torch.nn as nn

class Pool(nn.Module):
    DOC

    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 16)
        self.bn = nn.BatchNorm1d(16)

    def forward(self, feats):
        x = self.proj(feats.PERMUTE)
        return self.bn(x)
"#;
        let doc = src.replace("DOC", r#""""Features arrive as [batch, 8, length].""""#);
        assert_twins(
            &doc,
            "PERMUTE",
            "permute(0, 2, 1, 3)",
            "permute(0, 2, 1)",
            13,
        );
        let bare = src
            .replace("DOC", "pass")
            .replace("PERMUTE", "permute(0, 2, 1, 3)");
        let found = findings(&bare);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].span.line, 14);
        let lying = doc.replace("[batch, 8, length]", "[batch, c, h, w]");
        assert!(findings(&lying.replace("PERMUTE", "permute(0, 2, 1)")).is_empty());
    }

    /// The prose describes a tensor inside `forward`, not its input: the documented rank
    /// fails at the convolution's rank check while other ranks get past every rank check
    /// and fail at the pooling, which the code's ranks declare the location.
    #[test]
    fn ranks_the_code_declares_outweigh_prose() {
        let src = r#"
import torch.nn as nn
import torch.nn.functional as F

class Stem(nn.Module):
    """Runs 2-D convolutions on [batch, 1, time, 1] tensors."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 8, (3, 1))

    def forward(self, wave):
        x = self.conv(wave.unsqueeze(1).unsqueeze(-1))
        return F.max_pool2d(x, POOL)
"#;
        assert_twins(src, "POOL", "2", "(2, 1)", 14);
    }

    /// A docstring declares a 3-D mask; the code expands it over the heads as a 4-D one, so
    /// the documented mask fails on its rank for certain. The declaration is stale, not the
    /// code: the mask runs again at every rank, and a 4-D one gets through. A size that
    /// fails whatever the mask's rank is still found at the declared shape.
    #[test]
    fn a_declared_rank_gives_way_to_the_code() {
        let src = r#"
import torch.nn as nn

class Layer(nn.Module):
    def __init__(self, heads=4, dim=16):
        super().__init__()
        self.heads = heads
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, mask):
        """
        Args:
            x (FloatTensor): ``(batch_size, src_len, model_dim)``
            mask (LongTensor): ``(batch_size, 1, src_len)``
        """
        scores = (x @ x.transpose(1, 2)).unsqueeze(1).expand(-1, self.heads, -1, -1)
        mask = mask.expand(-1, self.heads, -1, -1)
        return self.proj(scores.masked_fill(mask, 0.0).sum(1) @ FEATS)
"#;
        assert!(findings(&src.replace("FEATS", "x")).is_empty());
        let found = findings(&src.replace("FEATS", "x[:, :, :8]"));
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].span.line, 18);
    }

    /// An input defaulting to `None` runs as omitted: the state built when it is, one
    /// width short, fails every call that omits it.
    #[test]
    fn a_none_default_runs_as_omitted() {
        let src = r#"
import torch
import torch.nn as nn

class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(16, 32, batch_first=True)

    def forward(self, x, h=None):
        if h is None:
            h = torch.zeros(1, x.size(0), WIDTH)
        out, h = self.gru(x, h)
        return out
"#;
        assert_twins(src, "WIDTH", "16", "32", 13);
    }

    /// Three inputs of unknown rank: the third is deferred past the variant limit, then
    /// tried at every rank for the few variants the first two leave open (where the
    /// known operands of the `cat` agree), and the bug holds at each.
    #[test]
    fn a_third_input_of_unknown_rank_is_tried_when_few_variants_are_open() {
        let src = r#"
import torch
import torch.nn as nn
import torch.nn.functional as F

class Core(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(16, 64)
        self.core = nn.LSTMCell(WIDTH, 32)

    def forward(self, obs, prev_action, prev_reward):
        a = F.one_hot(prev_action, 6).float()
        x = torch.cat([self.enc(obs), a, prev_reward.unsqueeze(-1)], dim=-1)
        return self.core(x)
"#;
        assert_twins(src, "WIDTH", "70", "71", 15);
    }
}
