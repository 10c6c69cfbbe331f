//! Assumptions the user states about a unit's inputs (`--assume`, `assumptions` in the
//! configuration): `x.shape[-1] <= 20`, `hidden % heads == 0`, `kernel in {3, 5}`.
//!
//! An assumption is a Python condition over the names of a unit's parameters: integers
//! (`hidden`), a tensor's dims (`x.shape[i]`, `x.size(i)`), rank (`x.dim()`, `x.ndim`,
//! `len(x.shape)`) and element count (`x.numel()`), integer constants, `+ - * // % **`,
//! comparisons (chained too), `in`/`not in` a literal set, list, tuple or `range(...)`, and
//! `and`/`or`/`not`. Anything else is refused when the assumption is read, so a typo is an
//! error, never a silently ignored fact.
//!
//! It applies to every unit whose bound inputs include all the names it reads (a model's
//! `__init__` arguments and its `forward`'s inputs together): for a run it is a fact
//! (symbolic), holds (nothing to add), or excludes the run (false for that run's inputs, a dim
//! past the run's rank): an excluded run is outside what the user asked about, so it neither
//! blocks nor makes a finding. A parameter an assumption names runs symbolically even when it
//! has a default (the assumption states its domain), and as an integer or a tensor as the
//! assumption reads it when nothing else says what it is.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use ruff_python_ast::{self as ast, BoolOp, CmpOp, Expr, Number, Operator, UnaryOp};

use super::params::{Default, Kinds, ParamKind};
use crate::eval::value::V;
use crate::shapes::{Dim, DimExpr, Pred, Value};

/// Where an assumption was stated, for messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// `--assume`.
    CommandLine,
    /// The configuration's `assumptions`.
    Configuration,
}

/// One assumption, read and checked.
#[derive(Clone, Debug)]
pub struct Assumption {
    /// As the user wrote it.
    pub text: String,
    pub origin: Origin,
    cond: Cond,
    /// Each name it reads, and whether as a tensor (`x.shape[0]`) or an integer (`n`).
    names: BTreeMap<String, Reads>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reads {
    Int,
    Tensor,
    /// Read both ways: an error when the assumption is read.
    Both,
}

/// An assumption that cannot be read.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("assumption `{text}`: {reason}")]
pub struct AssumeError {
    pub text: String,
    pub reason: String,
}

#[derive(Clone, Debug)]
enum Cond {
    /// `a < b <= c`: each adjacent pair.
    Compare(Vec<Num>, Vec<Rel>),
    /// `n in {3, 5}` (`negated`: `not in`).
    In(Num, Vec<Num>, bool),
    /// `n in range(lo, hi, step)`.
    InRange(Num, Num, Num, i64, bool),
    And(Vec<Cond>),
    Or(Vec<Cond>),
    Not(Box<Cond>),
}

#[derive(Clone, Copy, Debug)]
enum Rel {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

#[derive(Clone, Debug)]
enum Num {
    Const(i64),
    /// An integer input.
    Int(String),
    /// A tensor input's dim (negative: from the end).
    Dim(String, i64),
    Rank(String),
    Numel(String),
    Neg(Box<Num>),
    Bin(Box<Num>, Arith, Box<Num>),
}

#[derive(Clone, Copy, Debug)]
enum Arith {
    Add,
    Sub,
    Mul,
    FloorDiv,
    Mod,
    Pow,
}

/// What an assumption says about one run.
#[derive(Clone, Debug, PartialEq)]
pub enum Applied {
    /// Some name it reads is not an input of the run, or its value is not known.
    NotApplicable,
    /// True whatever the symbols are.
    Holds,
    /// A fact about the run's symbols.
    Fact(Pred),
    /// False for this run's inputs (why).
    Excludes(String),
}

const SUPPORTED: &str = "an assumption compares integers made of input names, dims \
    (`x.shape[i]`, `x.size(i)`), ranks (`x.dim()`, `x.ndim`, `len(x.shape)`), `x.numel()`, \
    integer constants and `+ - * // % **`, with `==`, `!=`, `<`, `<=`, `>`, `>=`, `in`/`not in` \
    a literal set, list, tuple or `range(...)`, `and`, `or`, `not`";

impl Assumption {
    /// Reads `text`; an error says what is wrong with it.
    pub fn parse(text: &str, origin: Origin) -> Result<Assumption, AssumeError> {
        let error = |reason: String| AssumeError {
            text: text.to_string(),
            reason,
        };
        let parsed = ruff_python_parser::parse_expression(text.trim())
            .map_err(|e| error(format!("not a Python expression ({})", e.error)))?;
        let mut names = BTreeMap::new();
        let src = text.trim();
        let cond = cond(parsed.expr(), src, &mut names).map_err(error)?;
        if names.is_empty() {
            return Err(error(
                "names no input (it should read a parameter, like `x.shape[-1] <= 20`)".into(),
            ));
        }
        if let Some((n, _)) = names.iter().find(|(_, r)| **r == Reads::Both) {
            return Err(error(format!(
                "`{n}` is read both as an integer and as a tensor"
            )));
        }
        Ok(Assumption {
            text: text.trim().to_string(),
            origin,
            cond,
            names,
        })
    }

    /// The names it reads.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.names.keys().map(String::as_str)
    }

    /// What it says about a run whose inputs are `inputs` (name and value).
    pub fn apply(&self, inputs: &[(String, V<'_>)]) -> Applied {
        let mut bound = BTreeMap::new();
        for name in self.names.keys() {
            match inputs.iter().rev().find(|(n, _)| n == name) {
                Some((_, V::Data(v))) => {
                    bound.insert(name.as_str(), v);
                }
                _ => return Applied::NotApplicable,
            }
        }
        match self.cond.pred(&bound) {
            Err(Stop::Unknown) => Applied::NotApplicable,
            Err(Stop::Excludes(why)) => Applied::Excludes(why),
            Ok(p) => match p.decide() {
                Some(true) => Applied::Holds,
                Some(false) => Applied::Excludes(format!("`{}` is false here", self.text)),
                None => Applied::Fact(p),
            },
        }
    }
}

fn cond(e: &Expr, src: &str, names: &mut BTreeMap<String, Reads>) -> Result<Cond, String> {
    match e {
        Expr::BoolOp(b) => {
            let parts = b
                .values
                .iter()
                .map(|v| cond(v, src, names))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(match b.op {
                BoolOp::And => Cond::And(parts),
                BoolOp::Or => Cond::Or(parts),
            })
        }
        Expr::UnaryOp(u) if u.op == UnaryOp::Not => {
            Ok(Cond::Not(Box::new(cond(&u.operand, src, names)?)))
        }
        Expr::Compare(c) => {
            let first_in = matches!(c.ops.first(), Some(CmpOp::In | CmpOp::NotIn));
            if first_in && c.ops.len() == 1 {
                let negated = c.ops[0] == CmpOp::NotIn;
                let item = num(&c.left, src, names)?;
                return membership(item, &c.comparators[0], negated, src, names);
            }
            let mut nums = vec![num(&c.left, src, names)?];
            let mut rels = Vec::new();
            for (op, right) in c.ops.iter().zip(c.comparators.iter()) {
                rels.push(match op {
                    CmpOp::Eq => Rel::Eq,
                    CmpOp::NotEq => Rel::Ne,
                    CmpOp::Lt => Rel::Lt,
                    CmpOp::LtE => Rel::Le,
                    CmpOp::Gt => Rel::Gt,
                    CmpOp::GtE => Rel::Ge,
                    _ => return Err(unsupported(e, src)),
                });
                nums.push(num(right, src, names)?);
            }
            Ok(Cond::Compare(nums, rels))
        }
        _ => Err(format!(
            "`{}` is not a condition; {SUPPORTED}",
            text_of(e, src)
        )),
    }
}

fn membership(
    item: Num,
    set: &Expr,
    negated: bool,
    src: &str,
    names: &mut BTreeMap<String, Reads>,
) -> Result<Cond, String> {
    match set {
        Expr::Set(ast::ExprSet { elts, .. })
        | Expr::List(ast::ExprList { elts, .. })
        | Expr::Tuple(ast::ExprTuple { elts, .. }) => {
            let items = elts
                .iter()
                .map(|x| num(x, src, names))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Cond::In(item, items, negated))
        }
        Expr::Call(c) if is_name(&c.func, "range") && c.arguments.keywords.is_empty() => {
            let args = c
                .arguments
                .args
                .iter()
                .map(|x| num(x, src, names))
                .collect::<Result<Vec<_>, _>>()?;
            let (lo, hi, step) = match args.as_slice() {
                [hi] => (Num::Const(0), hi.clone(), 1),
                [lo, hi] => (lo.clone(), hi.clone(), 1),
                [lo, hi, Num::Const(step)] if *step > 0 => (lo.clone(), hi.clone(), *step),
                _ => {
                    return Err(format!(
                        "`{}`: a range takes 1 to 3 arguments, its step a positive constant",
                        text_of(set, src)
                    ))
                }
            };
            Ok(Cond::InRange(item, lo, hi, step, negated))
        }
        _ => Err(format!(
            "`{}`: `in` takes a literal set, list, tuple or `range(...)`",
            text_of(set, src)
        )),
    }
}

fn num(e: &Expr, src: &str, names: &mut BTreeMap<String, Reads>) -> Result<Num, String> {
    let mut read = |name: &str, how: Reads| {
        let seen = names.entry(name.to_string()).or_insert(how);
        if *seen != how {
            *seen = Reads::Both;
        }
        name.to_string()
    };
    match e {
        Expr::NumberLiteral(n) => match &n.value {
            Number::Int(i) => i
                .as_i64()
                .map(Num::Const)
                .ok_or_else(|| format!("`{}` is too large", text_of(e, src))),
            _ => Err(format!("`{}`: only integers", text_of(e, src))),
        },
        Expr::Name(n) => Ok(Num::Int(read(n.id.as_str(), Reads::Int))),
        Expr::UnaryOp(u) if u.op == UnaryOp::USub => {
            Ok(Num::Neg(Box::new(num(&u.operand, src, names)?)))
        }
        Expr::UnaryOp(u) if u.op == UnaryOp::UAdd => num(&u.operand, src, names),
        Expr::BinOp(b) => {
            let op = match b.op {
                Operator::Add => Arith::Add,
                Operator::Sub => Arith::Sub,
                Operator::Mult => Arith::Mul,
                Operator::FloorDiv => Arith::FloorDiv,
                Operator::Mod => Arith::Mod,
                Operator::Pow => Arith::Pow,
                _ => return Err(unsupported(e, src)),
            };
            let (l, r) = (num(&b.left, src, names)?, num(&b.right, src, names)?);
            if matches!(op, Arith::Pow) && !matches!(r, Num::Const(0..=16)) {
                return Err(format!(
                    "`{}`: an exponent must be a constant from 0 to 16",
                    text_of(e, src)
                ));
            }
            Ok(Num::Bin(Box::new(l), op, Box::new(r)))
        }
        // `x.shape[i]`, `x.size()[i]`
        Expr::Subscript(s) => {
            let Some(x) = shape_of(&s.value) else {
                return Err(unsupported(e, src));
            };
            let Some(i) = int_literal(&s.slice) else {
                return Err(format!(
                    "`{}`: a dim's index must be an integer constant",
                    text_of(e, src)
                ));
            };
            Ok(Num::Dim(read(x, Reads::Tensor), i))
        }
        // `x.ndim`
        Expr::Attribute(a) if a.attr.id.as_str() == "ndim" => match &*a.value {
            Expr::Name(x) => Ok(Num::Rank(read(x.id.as_str(), Reads::Tensor))),
            _ => Err(unsupported(e, src)),
        },
        Expr::Call(c) if c.arguments.keywords.is_empty() => {
            let args = &c.arguments.args;
            // `len(x.shape)`, `len(x.size())`
            if is_name(&c.func, "len") && args.len() == 1 {
                if let Some(x) = shape_of(&args[0]) {
                    return Ok(Num::Rank(read(x, Reads::Tensor)));
                }
                return Err(unsupported(e, src));
            }
            let Expr::Attribute(a) = &*c.func else {
                return Err(unsupported(e, src));
            };
            let Expr::Name(x) = &*a.value else {
                return Err(unsupported(e, src));
            };
            let x = x.id.as_str();
            match (a.attr.id.as_str(), args.len()) {
                ("dim" | "ndimension", 0) => Ok(Num::Rank(read(x, Reads::Tensor))),
                ("numel", 0) => Ok(Num::Numel(read(x, Reads::Tensor))),
                ("size", 1) => match int_literal(&args[0]) {
                    Some(i) => Ok(Num::Dim(read(x, Reads::Tensor), i)),
                    None => Err(format!(
                        "`{}`: a dim's index must be an integer constant",
                        text_of(e, src)
                    )),
                },
                _ => Err(unsupported(e, src)),
            }
        }
        _ => Err(unsupported(e, src)),
    }
}

/// `x.shape` or `x.size()`: the tensor's name.
fn shape_of(e: &Expr) -> Option<&str> {
    match e {
        Expr::Attribute(a) if a.attr.id.as_str() == "shape" => match &*a.value {
            Expr::Name(x) => Some(x.id.as_str()),
            _ => None,
        },
        Expr::Call(c) if c.arguments.is_empty() => match &*c.func {
            Expr::Attribute(a) if a.attr.id.as_str() == "size" => match &*a.value {
                Expr::Name(x) => Some(x.id.as_str()),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    }
}

fn int_literal(e: &Expr) -> Option<i64> {
    match e {
        Expr::NumberLiteral(ast::ExprNumberLiteral {
            value: Number::Int(i),
            ..
        }) => i.as_i64(),
        Expr::UnaryOp(u) if u.op == UnaryOp::USub => int_literal(&u.operand).map(|i| -i),
        _ => None,
    }
}

fn is_name(e: &Expr, name: &str) -> bool {
    matches!(e, Expr::Name(n) if n.id.as_str() == name)
}

fn text_of<'s>(e: &Expr, src: &'s str) -> &'s str {
    use ruff_text_size::Ranged;
    src.get(e.range().start().to_usize()..e.range().end().to_usize())
        .unwrap_or(src)
}

fn unsupported(e: &Expr, src: &str) -> String {
    format!("`{}` is not supported; {SUPPORTED}", text_of(e, src))
}

/// Why an assumption says nothing definite about a run.
enum Stop {
    /// A value it reads is not known.
    Unknown,
    /// It cannot be evaluated for this run's inputs (a dim past the rank, a division by zero).
    Excludes(String),
}

type Bound<'v> = BTreeMap<&'v str, &'v Value>;

impl Cond {
    fn pred(&self, bound: &Bound<'_>) -> Result<Pred, Stop> {
        Ok(match self {
            Cond::Compare(nums, rels) => {
                let values = nums
                    .iter()
                    .map(|n| n.expr(bound))
                    .collect::<Result<Vec<_>, _>>()?;
                let parts: Vec<Pred> = rels
                    .iter()
                    .zip(values.windows(2))
                    .map(|(rel, w)| relation(*rel, &w[0], &w[1]))
                    .collect();
                conjunction(parts)
            }
            Cond::In(item, set, negated) => {
                let item = item.expr(bound)?;
                let mut parts = Vec::new();
                for x in set {
                    parts.push(Pred::Eq(item.clone(), x.expr(bound)?));
                }
                negate_if(Pred::Or(parts), *negated)
            }
            Cond::InRange(item, lo, hi, step, negated) => {
                let item = item.expr(bound)?;
                let (lo, hi) = (lo.expr(bound)?, hi.expr(bound)?);
                let mut parts = vec![
                    Pred::Le(lo.clone(), item.clone()),
                    Pred::Lt(item.clone(), hi),
                ];
                if *step > 1 {
                    let step = DimExpr::constant(*step);
                    parts.push(Pred::Divides(step, item.sub(&lo)));
                }
                negate_if(conjunction(parts), *negated)
            }
            Cond::And(cs) => Pred::And(cs.iter().map(|c| c.pred(bound)).collect::<Result<_, _>>()?),
            Cond::Or(cs) => Pred::Or(cs.iter().map(|c| c.pred(bound)).collect::<Result<_, _>>()?),
            Cond::Not(c) => Pred::Not(Box::new(c.pred(bound)?)),
        })
    }
}

fn conjunction(mut parts: Vec<Pred>) -> Pred {
    if parts.len() == 1 {
        parts.remove(0)
    } else {
        Pred::And(parts)
    }
}

fn negate_if(p: Pred, negated: bool) -> Pred {
    if negated {
        Pred::Not(Box::new(p))
    } else {
        p
    }
}

fn relation(rel: Rel, a: &DimExpr, b: &DimExpr) -> Pred {
    let (a, b) = (a.clone(), b.clone());
    match rel {
        Rel::Eq => Pred::Eq(a, b),
        Rel::Ne => Pred::Ne(a, b),
        Rel::Lt => Pred::Lt(a, b),
        Rel::Le => Pred::Le(a, b),
        Rel::Gt => Pred::Lt(b, a),
        Rel::Ge => Pred::Le(b, a),
    }
}

impl Num {
    fn expr(&self, bound: &Bound<'_>) -> Result<DimExpr, Stop> {
        Ok(match self {
            Num::Const(c) => DimExpr::constant(*c),
            Num::Int(x) => match bound.get(x.as_str()) {
                Some(Value::Int(e)) => e.clone(),
                Some(Value::Bool(Some(b))) => DimExpr::constant(i64::from(*b)),
                _ => return Err(Stop::Unknown),
            },
            Num::Dim(x, i) => {
                let dims = t_dims(bound, x)?;
                let rank = dims.len() as i64;
                let at = if *i < 0 { rank + i } else { *i };
                if at < 0 || at >= rank {
                    return Err(Stop::Excludes(format!(
                        "`{x}` has {rank} dims here, no dim {i}"
                    )));
                }
                match &dims[at as usize] {
                    Dim::Known(e) => e.clone(),
                    Dim::Dyn => return Err(Stop::Unknown),
                }
            }
            Num::Rank(x) => DimExpr::constant(t_dims(bound, x)?.len() as i64),
            Num::Numel(x) => {
                let mut n = DimExpr::one();
                for d in t_dims(bound, x)? {
                    match d {
                        Dim::Known(e) => n = n.mul(e),
                        Dim::Dyn => return Err(Stop::Unknown),
                    }
                }
                n
            }
            Num::Neg(a) => a.expr(bound)?.neg(),
            Num::Bin(a, op, b) => {
                let (a, b) = (a.expr(bound)?, b.expr(bound)?);
                match op {
                    Arith::Add => a.add(&b),
                    Arith::Sub => a.sub(&b),
                    Arith::Mul => a.mul(&b),
                    Arith::FloorDiv | Arith::Mod if b.as_const() == Some(0) => {
                        return Err(Stop::Excludes("a division by zero".to_string()))
                    }
                    Arith::FloorDiv => a.floordiv(&b),
                    Arith::Mod => a.modulo(&b),
                    Arith::Pow => {
                        let n = b.as_const().unwrap_or(0);
                        (0..n).fold(DimExpr::one(), |acc, _| acc.mul(&a))
                    }
                }
            }
        })
    }
}

fn t_dims<'v>(bound: &Bound<'v>, x: &str) -> Result<&'v [Dim], Stop> {
    match bound.get(x) {
        Some(Value::Tensor(t)) => t.shape.dims().ok_or(Stop::Unknown),
        _ => Err(Stop::Unknown),
    }
}

/// The assumptions of this process's run (set once by the binary; none in the library's
/// tests unless they pass their own).
static ACTIVE: OnceLock<Vec<Assumption>> = OnceLock::new();

/// Sets the run's assumptions (the first call wins).
pub fn set_active(assumptions: Vec<Assumption>) {
    let _ = ACTIVE.set(assumptions);
}

pub fn active() -> &'static [Assumption] {
    ACTIVE.get().map_or(&[], Vec::as_slice)
}

/// The parameters the assumptions name run symbolically, even with a default (the
/// assumption states their domain), and as what the assumption reads them as when nothing
/// else says what they are.
pub fn declare(kinds: &mut Kinds, assumptions: &[Assumption]) {
    for (name, kind, default) in kinds.iter_mut() {
        let Some(reads) = assumptions.iter().find_map(|a| a.names.get(name.as_str())) else {
            continue;
        };
        *default = Default::Absent;
        if *kind == ParamKind::Unknown {
            *kind = match reads {
                Reads::Int => ParamKind::Size,
                Reads::Tensor | Reads::Both => ParamKind::Tensor,
            };
        }
    }
}

/// The assumptions' verdict on one run whose inputs are `inputs`, skipping those that
/// `earlier` (inputs already bound and assumed about, such as a model's `__init__`
/// arguments before its `forward`) alone decides. What applies is recorded by `record`.
pub fn apply_all(
    assumptions: &[Assumption],
    earlier: &[(String, V<'_>)],
    inputs: &[(String, V<'_>)],
    mut record: impl FnMut(usize, Applied),
) {
    for (i, a) in assumptions.iter().enumerate() {
        if !earlier.is_empty() && a.names().all(|n| earlier.iter().any(|(e, _)| e == n)) {
            continue;
        }
        let applied = a.apply(inputs);
        if applied != Applied::NotApplicable {
            record(i, applied);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shapes::Shape;

    fn parse(text: &str) -> Result<Assumption, AssumeError> {
        Assumption::parse(text, Origin::CommandLine)
    }

    fn tensor(dims: &[DimExpr]) -> V<'static> {
        let shape = Shape::Ranked(dims.iter().cloned().map(Dim::Known).collect());
        V::Data(Value::tensor(shape, None))
    }

    fn int(e: DimExpr) -> V<'static> {
        V::Data(Value::Int(e))
    }

    #[test]
    fn what_reads_and_what_is_refused() {
        for ok in [
            "x.shape[-1] <= 20",
            "hidden % heads == 0",
            "kernel in {3, 5}",
            "kernel not in [4]",
            "0 < n <= 8 and x.dim() == 4",
            "not (a == b)",
            "len(x.shape) == 3 or x.ndim == 2",
            "x.size(1) * 2 ** 2 == y.size()[0] // 4",
            "n in range(1, 17, 2)",
            "x.numel() < 1000",
        ] {
            assert!(parse(ok).is_ok(), "{ok}: {:?}", parse(ok));
        }
        let refused = [
            ("x.shape[-1] <=", "not a Python expression"),
            ("3 < 4", "names no input"),
            ("x.shape[-1]", "is not a condition"),
            ("foo(x) == 3", "`foo(x)` is not supported"),
            ("x.shape[i] == 3", "integer constant"),
            ("n in things", "literal set"),
            ("n == 2.5", "only integers"),
            ("n is 3", "is not supported"),
            (
                "x == 3 and x.dim() == 2",
                "both as an integer and as a tensor",
            ),
            ("n ** m == 4", "exponent"),
        ];
        for (text, says) in refused {
            let err = parse(text).expect_err(text);
            assert!(err.to_string().contains(says), "{text}: {err}");
            assert!(
                err.to_string().contains(text.trim()),
                "names the text: {err}"
            );
        }
    }

    #[test]
    fn facts_holds_and_exclusions() {
        let d = DimExpr::sym("d");
        let x = [("x".to_string(), tensor(&[DimExpr::sym("b"), d.clone()]))];
        let a = parse("x.shape[-1] <= 20").unwrap();
        assert_eq!(
            a.apply(&x),
            Applied::Fact(Pred::Le(d.clone(), DimExpr::constant(20)))
        );
        // A dim past the rank: this run's input is not one the assumption is about.
        let third = parse("x.shape[2] == 3").unwrap();
        assert!(matches!(third.apply(&x), Applied::Excludes(_)));
        let rank = parse("x.dim() == 4").unwrap();
        assert!(matches!(rank.apply(&x), Applied::Excludes(_)));
        assert_eq!(parse("x.ndim == 2").unwrap().apply(&x), Applied::Holds);
        // A name the run does not bind, or binds to something unknown.
        assert_eq!(
            parse("y.shape[0] == 2").unwrap().apply(&x),
            Applied::NotApplicable
        );
        let unknown = [("n".to_string(), V::Unknown)];
        assert_eq!(
            parse("n > 2").unwrap().apply(&unknown),
            Applied::NotApplicable
        );
        let k = [("kernel".to_string(), int(DimExpr::constant(7)))];
        assert!(matches!(
            parse("kernel in {3, 5}").unwrap().apply(&k),
            Applied::Excludes(_)
        ));
        assert_eq!(
            parse("kernel in range(1, 9, 2)").unwrap().apply(&k),
            Applied::Holds
        );
        assert_eq!(
            parse("kernel // 0 == 1").unwrap().apply(&k),
            Applied::Excludes("a division by zero".into())
        );
    }

    #[test]
    fn earlier_inputs_are_not_assumed_about_twice() {
        let h = DimExpr::sym("h");
        let init = vec![("hidden".to_string(), int(h.clone()))];
        let mut all = init.clone();
        all.push(("x".to_string(), tensor(std::slice::from_ref(&h))));
        let assumptions = vec![
            parse("hidden % 4 == 0").unwrap(),
            parse("x.shape[0] == hidden").unwrap(),
        ];
        let mut seen = Vec::new();
        apply_all(&assumptions, &init, &all, |i, _| seen.push(i));
        assert_eq!(seen, vec![1]);
        let mut seen = Vec::new();
        apply_all(&assumptions, &[], &init, |i, _| seen.push(i));
        assert_eq!(seen, vec![0]);
    }

    const MODELS: &str = r#"
import torch
from torch import nn


class Attention(nn.Module):
    def __init__(self, hidden, heads=8):
        super().__init__()
        self.heads = heads
        self.proj = nn.Linear(hidden, hidden)

    def forward(self, x):
        b, n, d = x.shape
        return self.proj(x).view(b, n, self.heads, d // self.heads)


class Smooth(nn.Module):
    def __init__(self, channels, kernel=3):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, kernel)

    def forward(self, x):
        return self.conv(x)


def flatten(x):
    return x.reshape(x.shape[0], 64)
"#;

    fn found(assumed: &[&str]) -> Vec<(String, u32)> {
        crate::testing::findings_assuming(MODELS, assumed)
            .iter()
            .map(|f| (f.unit.clone(), f.span.line))
            .collect()
    }

    #[test]
    fn assumptions_narrow_the_inputs_a_finding_is_about() {
        assert_eq!(found(&[]), vec![]);
        // A hyperparameter with a default runs symbolically when an assumption names it.
        assert_eq!(
            found(&["hidden % heads == 1"]),
            vec![("Attention".to_string(), 14)]
        );
        assert_eq!(found(&["hidden % heads == 0"]), vec![]);
        // `__init__` arguments and `forward` inputs together.
        assert_eq!(
            found(&["kernel == 9 and x.shape[-1] == 7"]),
            vec![("Smooth".to_string(), 23)]
        );
        assert_eq!(found(&["kernel == 8", "x.shape[-1] == 7"]).len(), 3);
        assert_eq!(
            found(&["kernel <= x.shape[-1] and kernel <= x.shape[-2]"]),
            vec![]
        );
    }

    #[test]
    fn runs_outside_the_assumptions_neither_make_nor_block_a_finding() {
        // Only rank 2 is asked about: the ranks where `flatten` would pass are left out, and
        // a 2-D input fails `Conv2d`; `Attention`'s runs (3-D) are all left out.
        assert_eq!(
            found(&["x.dim() == 2 and x.shape[1] != 64"]),
            vec![("Smooth".to_string(), 23), ("flatten".to_string(), 27)]
        );
        assert_eq!(
            found(&["x.dim() == 2 and x.shape[1] == 64"]),
            vec![("Smooth".to_string(), 23)]
        );
        // Assumptions no input satisfies rule every run out: nothing to report.
        assert_eq!(found(&["x.shape[-1] < 0"]), vec![]);
        assert_eq!(found(&["x.shape[0] > 3 and x.shape[0] < 2"]), vec![]);
    }

    #[test]
    fn named_parameters_run_symbolically() {
        let mut kinds: Kinds = vec![
            ("kernel".into(), ParamKind::Unknown, Default::Value),
            ("x".into(), ParamKind::Unknown, Default::Absent),
            ("other".into(), ParamKind::Unknown, Default::Value),
        ];
        declare(
            &mut kinds,
            &[parse("kernel in {3, 5} and x.dim() == 2").unwrap()],
        );
        assert_eq!(kinds[0].1, ParamKind::Size);
        assert_eq!(kinds[0].2, Default::Absent);
        assert_eq!(kinds[1].1, ParamKind::Tensor);
        assert_eq!(kinds[2].2, Default::Value);
    }
}
