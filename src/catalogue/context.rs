//! What a rule sees and gives: [`Ctx`], the arguments of one application with the
//! requirements collected so far, and [`apply`], which runs a rule and then what every
//! application does after it (what the result keeps of its inputs' content, known
//! elements, value ranges).

use crate::shapes::dim::DimExpr;
use crate::shapes::kind::{Declared, FindingKind::*};
use crate::shapes::requirement::{Pred, Requirement};
use crate::shapes::shape::{Dim, Shape};
use crate::shapes::value::{DType, ModuleValue, TensorValue, Value};

use super::{bounds, content, elements};

/// Why a rule produced no outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RuleError {
    /// PyTorch raises for these arguments, whatever the unknown dims are; `kind` as in
    /// [`Requirement::kind`].
    Invalid {
        message: String,
        kind: Option<Declared>,
    },
    /// The rule cannot decide (unknown rank, unmodelled argument): the result is unknown.
    Unsupported(String),
}

/// What a rule produced: the output value and the requirements under which it holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub value: Value,
    pub requirements: Vec<Requirement>,
    /// Conditions the output value is only exact under (`chunk` of a symbolic dim assumes it
    /// divides evenly): the caller takes them as facts about its inputs.
    pub assumptions: Vec<Pred>,
    /// Hints of the sizes only the data decides (see [`Ctx::fresh`]): the `i`-th is the
    /// placeholder symbol [`fresh_placeholder`]`(i)`, which the caller replaces by a symbol
    /// of its own.
    pub fresh: Vec<String>,
}

/// The placeholder a rule's `i`-th data-dependent size carries until the caller names it;
/// no Python name or dim hint contains `$`.
pub fn fresh_placeholder(i: usize) -> String {
    format!("$fresh{i}")
}

/// The index of a placeholder symbol made by [`fresh_placeholder`].
pub fn fresh_index(symbol: &str) -> Option<usize> {
    symbol.strip_prefix("$fresh")?.parse().ok()
}

pub type RuleResult = Result<Value, RuleError>;

/// Applies a function rule (or a module's forward, given the module) to arguments.
pub fn apply(
    rule: fn(&mut Ctx) -> RuleResult,
    op: &str,
    args: Vec<Value>,
    kwargs: Vec<(String, Value)>,
    module: Option<ModuleValue>,
) -> Result<Outcome, RuleError> {
    apply_noting_reads(rule, op, args, kwargs, module, Vec::new()).map_err(|f| f.error)
}

/// Why a rule gave no result, with what the caller needs to weigh it.
pub struct Failure {
    pub error: RuleError,
    /// The rule had read an argument that is not fully known before it failed.
    pub read_unknown: bool,
    /// What the rule required before it stopped and before reading anything not known:
    /// PyTorch checks those first, so they hold whatever comes after.
    pub requirements: Vec<Requirement>,
    /// The question the rule could not answer (see [`Ctx::decide`]), with the arguments
    /// back for asking again with an answer.
    pub wanted: Option<(Pred, Box<Inputs>)>,
}

/// A rule's arguments: positional, keyword, and the module applied.
pub type Inputs = (Vec<Value>, Vec<(String, Value)>, Option<ModuleValue>);

/// [`apply`] with answers to the rule's questions (`decided`); a failure says what the
/// rule read and asked.
pub fn apply_noting_reads(
    rule: fn(&mut Ctx) -> RuleResult,
    op: &str,
    args: Vec<Value>,
    kwargs: Vec<(String, Value)>,
    module: Option<ModuleValue>,
    decided: Vec<(Pred, bool)>,
) -> Result<Outcome, Box<Failure>> {
    let mut ctx = Ctx {
        op: op.to_string(),
        args,
        kwargs,
        module,
        requirements: Vec::new(),
        assumptions: Vec::new(),
        certain: std::cell::Cell::new(None),
        decided,
        wanted: None,
        fresh: Vec::new(),
    };
    let mut value = match rule(&mut ctx) {
        Ok(v) => v,
        Err(error) => {
            let wanted = ctx.wanted.take().map(|p| {
                let inputs = (
                    std::mem::take(&mut ctx.args),
                    std::mem::take(&mut ctx.kwargs),
                    ctx.module.take(),
                );
                (p, Box::new(inputs))
            });
            let read_unknown = ctx.certain.get();
            ctx.requirements
                .truncate(read_unknown.unwrap_or(ctx.requirements.len()));
            return Err(Box::new(Failure {
                error,
                read_unknown: read_unknown.is_some(),
                wanted,
                requirements: ctx.requirements,
            }));
        }
    };
    value = content::kept(&ctx, op, value);
    // Element values are elements.rs's alone to give: a rule's result never keeps its
    // input's.
    if let Value::Tensor(t) = &mut value {
        t.elements = None;
    }
    value = elements::evaluate(&ctx, value);
    value = bounds::evaluate(&ctx, value);
    // `out=t`: the result is written into `t` and returned, so it has `t`'s dtype.
    if let (Some(Value::Tensor(out)), Value::Tensor(t)) = (ctx.kwarg("out"), &mut value) {
        t.dtype = out.dtype;
    }
    Ok(Outcome {
        value,
        requirements: ctx.requirements,
        assumptions: ctx.assumptions,
        fresh: ctx.fresh,
    })
}

/// The arguments of one application, and the requirements collected so far.
pub struct Ctx {
    pub op: String,
    pub args: Vec<Value>,
    pub kwargs: Vec<(String, Value)>,
    /// For a module's forward: the module being applied.
    pub module: Option<ModuleValue>,
    pub requirements: Vec<Requirement>,
    /// See `Outcome::assumptions`.
    pub assumptions: Vec<Pred>,
    /// Set at the rule's first read of an argument that is not fully known, to how many
    /// requirements it had recorded by then: those hold whatever the rule does after, while
    /// an error it then reports may come from misreading that argument.
    certain: std::cell::Cell<Option<usize>>,
    /// Answers to questions the dims alone do not settle (see [`Ctx::decide`]), given by a
    /// caller that analyses each answer in its own run.
    pub decided: Vec<(Pred, bool)>,
    /// The question the rule stopped at, when it had no answer.
    pub wanted: Option<Pred>,
    /// See `Outcome::fresh`.
    fresh: Vec<String>,
}

pub fn invalid<T>(msg: impl Into<String>) -> Result<T, RuleError> {
    Err(RuleError::invalid(msg))
}

/// An error whose kind the check declares (see [`Requirement::kind`]).
pub fn invalid_as<T>(kind: Declared, msg: impl Into<String>) -> Result<T, RuleError> {
    Err(RuleError::Invalid {
        message: msg.into(),
        kind: Some(kind),
    })
}

impl RuleError {
    /// PyTorch raises (see [`RuleError::Invalid`]); the rule's kind.
    pub fn invalid(msg: impl Into<String>) -> RuleError {
        RuleError::Invalid {
            message: msg.into(),
            kind: None,
        }
    }
}

pub fn unsupported<T>(msg: impl Into<String>) -> Result<T, RuleError> {
    Err(RuleError::Unsupported(msg.into()))
}

impl Ctx {
    /// The argument at `pos`, or the keyword `name` (Python's binding of one parameter).
    pub fn arg(&self, pos: usize, name: &str) -> Option<&Value> {
        match self.args.get(pos) {
            Some(v) => Some(self.noted(v)),
            None => self.kwarg(name),
        }
    }

    /// Whether `pred` holds: from the dims when they settle it, else from the caller's
    /// answer (recorded as an assumption of this run); `None` asks the caller (`wanted`).
    /// `squeeze` on a dim that may be 1 takes both ways this way.
    pub fn decide(&mut self, pred: Pred) -> Option<bool> {
        if let Some(b) = pred.decide() {
            return Some(b);
        }
        match self.decided.iter().find(|(p, _)| *p == pred) {
            Some((_, b)) => {
                let b = *b;
                self.assumptions
                    .push(if b { pred } else { Pred::Not(Box::new(pred)) });
                Some(b)
            }
            None => {
                self.wanted = Some(pred);
                None
            }
        }
    }

    /// Records a read of `v` (see `certain`).
    fn noted<'v>(&self, v: &'v Value) -> &'v Value {
        if self.certain.get().is_none() && v.has_unknown() {
            self.certain.set(Some(self.requirements.len()));
        }
        v
    }

    /// For a rule about to check only the known parts of arguments that hold unknown ones,
    /// in a way PyTorch raises on whatever those are (the known operands of a `cat` must
    /// agree with each other): what it requires and raises from here is certain.
    pub fn regardless_of_unknown(&self) {
        self.certain.set(None);
    }

    /// For rules that read `args`/`kwargs` directly: every argument counts as read.
    pub fn read_all(&self) {
        for v in self.args.iter().chain(self.kwargs.iter().map(|(_, v)| v)) {
            self.noted(v);
        }
    }

    /// A keyword argument. PyTorch's argument parser also accepts NumPy's names for some
    /// parameters (`axis` for `dim`, `keepdims` for `keepdim`), so `sum(x, axis=1)` and
    /// `repeat_interleave(x, 2, axis=-1)` bind `dim`.
    pub fn kwarg(&self, name: &str) -> Option<&Value> {
        let alias = match name {
            "dim" => Some("axis"),
            "keepdim" => Some("keepdims"),
            _ => None,
        };
        self.kwargs
            .iter()
            .find(|(k, _)| k == name)
            .or_else(|| alias.and_then(|a| self.kwargs.iter().find(|(k, _)| k == a)))
            .map(|(_, v)| self.noted(v))
    }

    /// Positional arguments from `pos` on (varargs).
    pub fn rest(&self, pos: usize) -> &[Value] {
        let rest = self.args.get(pos..).unwrap_or(&[]);
        for v in rest {
            self.noted(v);
        }
        rest
    }

    /// A module hyperparameter (for forward rules).
    pub fn param(&self, name: &str) -> Option<&Value> {
        self.module.as_ref()?.params.get(name)
    }

    pub fn tensor(&self, pos: usize, name: &str) -> Result<TensorValue, RuleError> {
        match self.arg(pos, name) {
            Some(Value::Tensor(t)) => Ok(t.clone()),
            Some(Value::Unknown) => unsupported(format!("{}: `{name}` is unknown", self.op)),
            Some(other) => invalid(format!(
                "{}: `{name}` must be a Tensor, not {other}",
                self.op
            )),
            None => invalid(format!("{}: missing argument `{name}`", self.op)),
        }
    }

    /// The dims of a tensor argument; unknown rank is unsupported.
    pub fn ranked(&self, pos: usize, name: &str) -> Result<(Vec<Dim>, Option<DType>), RuleError> {
        let t = self.tensor(pos, name)?;
        match t.shape {
            Shape::Ranked(d) => Ok((d, t.dtype)),
            Shape::Partial { .. } => {
                unsupported(format!("{}: rank of `{name}` is unknown", self.op))
            }
        }
    }

    /// An optional int argument (`None` when absent or `None`).
    pub fn opt_int(&self, pos: usize, name: &str) -> Result<Option<DimExpr>, RuleError> {
        match self.arg(pos, name) {
            None | Some(Value::None) => Ok(None),
            Some(v) => int_of(&self.op, name, v).map(Some),
        }
    }

    pub fn int_or(&self, pos: usize, name: &str, default: i64) -> Result<DimExpr, RuleError> {
        Ok(self
            .opt_int(pos, name)?
            .unwrap_or_else(|| DimExpr::constant(default)))
    }

    /// A concrete int argument (dims, counts that select structure).
    pub fn const_int(&self, pos: usize, name: &str) -> Result<Option<i64>, RuleError> {
        match self.opt_int(pos, name)? {
            None => Ok(None),
            Some(e) => match e.as_const() {
                Some(c) => Ok(Some(c)),
                None => unsupported(format!("{}: `{name}` = {e} is symbolic", self.op)),
            },
        }
    }

    pub fn bool_or(&self, pos: usize, name: &str, default: bool) -> Result<bool, RuleError> {
        match self.arg(pos, name) {
            None => Ok(default),
            Some(Value::Bool(Some(b))) => Ok(*b),
            Some(Value::Int(e)) if e.as_const().is_some() => Ok(e.as_const() != Some(0)),
            Some(Value::Bool(None)) | Some(Value::Unknown) => {
                unsupported(format!("{}: `{name}` is unknown", self.op))
            }
            Some(other) => invalid(format!("{}: `{name}` must be a bool, not {other}", self.op)),
        }
    }

    /// A size only the data decides (how many elements are non-zero, the largest label):
    /// a fresh non-negative symbol, within `at_most` when given (taken as a fact). Sound
    /// for every finding, since the solver may pick any value the facts allow.
    pub fn fresh(&mut self, hint: &str, at_most: Option<&Dim>) -> DimExpr {
        let s = DimExpr::sym(&fresh_placeholder(self.fresh.len()));
        self.fresh.push(hint.to_string());
        if let Some(Dim::Known(hi)) = at_most {
            self.assumptions.push(Pred::Le(s.clone(), hi.clone()));
        }
        s
    }

    /// Records a requirement; fails right away when it is decidably false.
    pub fn require(&mut self, pred: Pred, message: impl Into<String>) -> Result<(), RuleError> {
        self.require_kind(None, pred, message)
    }

    /// [`Ctx::require`] for a check that declares what its violation is.
    pub fn require_as(
        &mut self,
        kind: Declared,
        pred: Pred,
        message: impl Into<String>,
    ) -> Result<(), RuleError> {
        self.require_kind(Some(kind), pred, message)
    }

    /// Records a requirement made elsewhere (a broadcast), keeping what it declares.
    pub fn impose(&mut self, r: Requirement) -> Result<(), RuleError> {
        self.require_kind(r.kind, r.pred, r.message)
    }

    /// [`Ctx::require`] with the kind a check declared, if any.
    pub fn require_kind(
        &mut self,
        kind: Option<Declared>,
        pred: Pred,
        message: impl Into<String>,
    ) -> Result<(), RuleError> {
        let message = message.into();
        match pred.decide() {
            Some(true) => Ok(()),
            Some(false) => Err(RuleError::Invalid { message, kind }),
            None => {
                self.requirements.push(Requirement {
                    pred,
                    message,
                    kind,
                });
                Ok(())
            }
        }
    }

    /// Like [`Ctx::require`], but the message is only built when the predicate is not
    /// decidably true (most checks pass: formatting shapes for them is wasted work).
    pub fn require_with(
        &mut self,
        pred: Pred,
        message: impl FnOnce(&Ctx) -> String,
    ) -> Result<(), RuleError> {
        self.require_with_kind(None, pred, message)
    }

    /// [`Ctx::require_with`] for a check that declares what its violation is.
    pub fn require_with_as(
        &mut self,
        kind: Declared,
        pred: Pred,
        message: impl FnOnce(&Ctx) -> String,
    ) -> Result<(), RuleError> {
        self.require_with_kind(Some(kind), pred, message)
    }

    fn require_with_kind(
        &mut self,
        kind: Option<Declared>,
        pred: Pred,
        message: impl FnOnce(&Ctx) -> String,
    ) -> Result<(), RuleError> {
        if pred.decide() == Some(true) {
            return Ok(());
        }
        let message = message(self);
        self.require_kind(kind, pred, message)
    }

    /// [`Ctx::require_eq`] for a check that declares what its violation is.
    pub fn require_eq_as(
        &mut self,
        kind: Declared,
        a: &Dim,
        b: &Dim,
        message: impl Into<String>,
    ) -> Result<(), RuleError> {
        match (a, b) {
            (Dim::Known(x), Dim::Known(y)) => {
                self.require_as(kind, Pred::Eq(x.clone(), y.clone()), message)
            }
            _ => Ok(()),
        }
    }

    /// Two dims are equal, when both are known.
    pub fn require_eq(
        &mut self,
        a: &Dim,
        b: &Dim,
        message: impl Into<String>,
    ) -> Result<(), RuleError> {
        match (a, b) {
            (Dim::Known(x), Dim::Known(y)) => self.require(Pred::Eq(x.clone(), y.clone()), message),
            _ => Ok(()),
        }
    }

    /// Normalises a dim index against a rank (`-1` is the last), with PyTorch's message.
    /// `extra` is 1 where one past the end is allowed (unsqueeze).
    pub fn dim_index(&self, dim: i64, rank: usize, extra: usize) -> Result<usize, RuleError> {
        let n = (rank + extra) as i64;
        // PyTorch treats rank-0 tensors as rank 1 for dim wrapping.
        let n_wrap = n.max(1);
        if dim < -n_wrap || dim >= n_wrap {
            return invalid_as(
                Declared::Specific(DimOutOfRange),
                format!(
                "{}: Dimension out of range (expected to be in range of [{}, {}], but got {dim})",
                self.op,
                -n_wrap,
                n_wrap - 1
            ),
            );
        }
        Ok(if dim < 0 {
            (dim + n_wrap) as usize
        } else {
            dim as usize
        })
    }

    /// A dim argument given as an int, normalised against `rank`.
    pub fn dim_arg(&self, pos: usize, name: &str, rank: usize) -> Result<Option<usize>, RuleError> {
        match self.const_int(pos, name)? {
            None => Ok(None),
            Some(d) => self.dim_index(d, rank, 0).map(Some),
        }
    }

    /// Ints (symbolic or unknown) as dims.
    fn dims_of_items(&self, items: &[Value], name: &str) -> Result<Vec<Dim>, RuleError> {
        items
            .iter()
            .map(|v| match v {
                Value::IntUnknown => Ok(Dim::Dyn),
                other => int_of(&self.op, name, other).map(Dim::Known),
            })
            .collect()
    }

    /// A list of ints given as one sequence argument (tuple, list or torch.Size).
    pub fn seq_ints(&self, pos: usize, name: &str) -> Result<Vec<Dim>, RuleError> {
        let items = match self.arg(pos, name) {
            Some(v) => v.elements().ok_or_else(|| {
                RuleError::invalid(format!(
                    "{}: `{name}` must be a sequence of ints, not {v}",
                    self.op
                ))
            })?,
            None => return invalid(format!("{}: missing argument `{name}`", self.op)),
        };
        self.dims_of_items(&items, name)
    }

    /// A list of ints given as varargs from `pos` or as one tuple/list/Size argument (the
    /// `view(2, 3)` / `view((2, 3))` convention), or by keyword `name`.
    pub fn int_list(&self, pos: usize, name: &str) -> Result<Vec<Dim>, RuleError> {
        let rest = self.rest(pos);
        let single = match rest {
            [] => self.kwarg(name),
            [one] if one.elements().is_some() => Some(one),
            _ => None,
        };
        let items: Vec<Value> = match single {
            Some(v) => v.elements().ok_or_else(|| {
                RuleError::invalid(format!("{}: `{name}` must be a sequence of ints", self.op))
            })?,
            None if rest.is_empty() => {
                return invalid(format!("{}: missing argument `{name}`", self.op))
            }
            None => rest.to_vec(),
        };
        self.dims_of_items(&items, name)
    }
}

/// An int from a value; floats, tensors and strings are type errors.
pub fn int_of(op: &str, name: &str, v: &Value) -> Result<DimExpr, RuleError> {
    match v {
        Value::Int(e) => Ok(e.clone()),
        Value::Bool(Some(b)) => Ok(DimExpr::constant(*b as i64)),
        v if v.is_unknown_int() => unsupported(format!("{op}: `{name}` is unknown")),
        other => invalid(format!("{op}: `{name}` must be an int, not {other}")),
    }
}

/// [`int_of`], with an int the analysis does not know as `None` rather than a reason to
/// give up: for arguments only some checks read (a layer's width, `randint`'s bounds).
pub fn maybe_int_of(op: &str, name: &str, v: &Value) -> Result<Option<DimExpr>, RuleError> {
    if v.is_unknown_int() {
        return Ok(None);
    }
    int_of(op, name, v).map(Some)
}

/// A concrete rank-`k` dims list helper for rules: `[d0, d1, ...]` as a shape.
pub fn ranked(dims: Vec<Dim>) -> Shape {
    Shape::Ranked(dims)
}

/// Output tensor with the given dims and dtype.
pub fn tensor_out(dims: Vec<Dim>, dtype: Option<DType>) -> Value {
    Value::tensor(Shape::Ranked(dims), dtype)
}
