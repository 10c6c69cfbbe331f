//! Expressions: literals, names, operators, comparisons, attributes, subscripts,
//! comprehensions. Calls are in `calls.rs`.

use std::rc::Rc;

use ruff_python_ast::{BoolOp, CmpOp, Expr, Number, Operator, UnaryOp};
use ruff_text_size::TextRange;

use super::interp::Interp;
use super::methods::{contains, set_key};
use super::numbers::{drawn_compare, drawn_op, float_compare, float_op};
use super::value::{ContainerKind, V};
use crate::shapes::dim::DimExpr;
use crate::shapes::{Pred, Value};

/// The longest text `"ab" * n` is computed to; longer repetitions are text of unknown content.
const MAX_REPEATED_TEXT: usize = 1 << 16;

/// Tensor attributes that are the tensor itself (or a same-shaped tensor).
const SAME_TENSOR_ATTRS: &[&str] = &["data", "grad", "real", "imag"];
/// Tensor attributes that are not tensors and not shapes.
const OPAQUE_TENSOR_ATTRS: &[&str] = &[
    "dtype",
    "device",
    "requires_grad",
    "is_cuda",
    "is_leaf",
    "grad_fn",
    "layout",
    "is_sparse",
    "is_quantized",
    "is_meta",
    "names",
    "itemsize",
    "nbytes",
];

impl<'a> Interp<'a> {
    pub fn eval(&mut self, e: &'a Expr) -> V<'a> {
        stacker::maybe_grow(64 * 1024, 4 * 1024 * 1024, || self.eval_inner(e))
    }

    fn eval_inner(&mut self, e: &'a Expr) -> V<'a> {
        match e {
            Expr::Name(n) => self.lookup(n.id.as_str()),
            Expr::NumberLiteral(n) => match &n.value {
                Number::Int(i) => match i.as_i64() {
                    Some(c) => V::Data(Value::int(c)),
                    None => V::Data(Value::IntUnknown),
                },
                Number::Float(f) => V::Data(Value::Float(Some(*f))),
                Number::Complex { .. } => V::Unknown,
            },
            Expr::StringLiteral(s) => V::Data(Value::Str(Some(s.value.to_str().to_string()))),
            Expr::FString(f) => self.fstring(f),
            Expr::TString(_) => V::Data(Value::Str(None)),
            Expr::BytesLiteral(_) => V::Unknown,
            Expr::BooleanLiteral(b) => V::Data(Value::Bool(Some(b.value))),
            Expr::NoneLiteral(_) => V::none(),
            Expr::EllipsisLiteral(_) => V::Data(Value::Ellipsis),
            Expr::Tuple(t) => match self.eval_elements(&t.elts) {
                Some(items) => V::Tuple(items),
                None => V::Unknown,
            },
            Expr::List(l) => match self.eval_elements(&l.elts) {
                Some(items) => V::list(items),
                None => V::Unknown,
            },
            // A set is kept as the list of its distinct items: membership and iteration of
            // class registries (`{BatchNormAct2d, GroupNormAct}`) are what models use.
            Expr::Set(s) => match self.eval_elements(&s.elts) {
                Some(items) => distinct(items),
                None => V::Unknown,
            },
            Expr::Dict(d) => {
                // String keys, and `**mapping` entries of known dicts (later keys win).
                let mut items = Vec::new();
                let mut known = true;
                for item in &d.items {
                    let v = self.eval(&item.value);
                    match (item.key.as_ref().map(|k| self.eval(k)), v) {
                        (Some(V::Data(Value::Str(Some(k)))), v) => set_key(&mut items, k, v),
                        (None, V::Dict(entries)) => {
                            for (k, v) in entries.iter().cloned() {
                                set_key(&mut items, k, v);
                            }
                        }
                        _ => known = false,
                    }
                }
                if known {
                    V::dict(items)
                } else {
                    V::Unknown
                }
            }
            Expr::Attribute(a) => {
                let obj = self.eval(&a.value);
                self.attribute(obj, a.attr.id.as_str(), a.range)
            }
            Expr::Subscript(s) => {
                // `globals()["name"]`: the module's global of that name, when it is bound
                // and not shadowed by a local `globals`.
                if let Expr::Call(c) = &*s.value {
                    if let (Expr::Name(n), true) = (&*c.func, c.arguments.is_empty()) {
                        let key = self.eval(&s.slice);
                        if n.id.as_str() == "globals" && self.lookup("globals").is_unknown() {
                            if let Some(name) = key.known_str() {
                                return self.globals.get(name).cloned().unwrap_or(V::Unknown);
                            }
                        }
                    }
                }
                let obj = self.eval(&s.value);
                let idx = self.eval(&s.slice);
                self.subscript(obj, idx, s.range)
            }
            Expr::Slice(s) => {
                let mut part = |x: &'a Option<Box<Expr>>| match x {
                    Some(x) => self.eval(x).to_value(),
                    None => Value::None,
                };
                let (lo, hi, step) = (part(&s.lower), part(&s.upper), part(&s.step));
                V::Data(Value::Slice(Box::new(lo), Box::new(hi), Box::new(step)))
            }
            Expr::Call(c) => self.eval_call(c),
            Expr::BinOp(b) => {
                let l = self.eval(&b.left);
                let r = self.eval(&b.right);
                self.binop(l, b.op, r, b.range, false)
            }
            Expr::UnaryOp(u) => {
                let v = self.eval(&u.operand);
                self.unary(u.op, v, u.range)
            }
            Expr::BoolOp(b) => self.boolop(b.op, &b.values),
            Expr::Compare(c) => {
                let mut left = self.eval(&c.left);
                let mut result: Option<V<'a>> = None;
                for (op, right) in c.ops.iter().zip(c.comparators.iter()) {
                    let r = self.eval(right);
                    let v = self.compare(left, *op, r.clone(), c.range);
                    result = Some(match result {
                        None => v,
                        Some(prev) => and(prev, v),
                    });
                    left = r;
                }
                result.unwrap_or(V::Unknown)
            }
            Expr::If(i) => {
                let cond = self.eval(&i.test);
                match cond.truth() {
                    Some(true) => self.eval(&i.body),
                    Some(false) => self.eval(&i.orelse),
                    // Each side under its guard, as an `if` statement runs its branches.
                    None => {
                        let g = self.guard_of(cond);
                        let a = self.under(g.clone(), |me| me.eval(&i.body));
                        let b = self.under(Pred::Not(Box::new(g.clone())), |me| me.eval(&i.orelse));
                        self.join_under(a, b, Some(&g))
                    }
                }
            }
            Expr::Named(n) => {
                let v = self.eval(&n.value);
                self.assign(&n.target, v.clone());
                v
            }
            Expr::ListComp(c) => self.comprehension(&c.elt, &c.generators),
            Expr::Generator(c) => self.comprehension(&c.elt, &c.generators),
            Expr::SetComp(c) => match self.comprehension(&c.elt, &c.generators) {
                V::List(items) => distinct(Rc::unwrap_or_clone(items)),
                _ => V::Unknown,
            },
            Expr::DictComp(d) => {
                // `{k: v for ...}` over a known sequence with string keys.
                match d.key.as_deref() {
                    Some(key) => self.dict_comprehension(key, &d.value, &d.generators),
                    None => V::Unknown,
                }
            }
            Expr::Starred(s) => self.eval(&s.value),
            Expr::Lambda(l) => V::Lambda(l, self.capture()),
            Expr::Await(_) | Expr::Yield(_) | Expr::YieldFrom(_) => V::Unknown,
            Expr::IpyEscapeCommand(_) => V::Unknown,
        }
    }

    /// Elements of a tuple/list display; `*xs` splices a known sequence. `None` when a
    /// starred element has unknown length.
    pub fn eval_elements(&mut self, elts: &'a [Expr]) -> Option<Vec<V<'a>>> {
        let mut out = Vec::with_capacity(elts.len());
        let mut known = true;
        for e in elts {
            if let Expr::Starred(s) = e {
                let v = self.eval(&s.value);
                match super::calls::iterate(&v) {
                    Some(items) => out.extend(items),
                    None => known = false,
                }
            } else {
                out.push(self.eval(e));
            }
        }
        known.then_some(out)
    }

    /// `[elt for target in iter if cond ...]`: item by item over known sequences (one
    /// generator or nested ones); otherwise a list of unknown length (`comprehension_items`).
    /// The first iterable is evaluated once, in the enclosing scope, as Python does.
    fn comprehension(
        &mut self,
        elt: &'a Expr,
        generators: &'a [ruff_python_ast::Comprehension],
    ) -> V<'a> {
        let first = generators.first().map(|g| self.eval(&g.iter));
        let mut out = Vec::new();
        self.run
            .locals
            .push(self.run.locals.last().cloned().unwrap_or_default());
        let ok = self.comprehend(elt, generators, first.clone(), &mut out);
        self.run.locals.pop();
        if ok {
            V::list(out)
        } else {
            self.comprehension_items(elt, generators, first)
        }
    }

    /// A list comprehension whose items cannot be gone through one by one (an iterable of
    /// unknown length or longer than an unrolled loop, a filter the analysis cannot decide):
    /// a list of unknown length whose every item is the element evaluated once, each target
    /// bound to what every item of its iterable is (`[ALPHABET.index(c) for c in text]` is
    /// ints, so `torch.tensor` of it has one dimension). Unknown when the element is.
    fn comprehension_items(
        &mut self,
        elt: &'a Expr,
        generators: &'a [ruff_python_ast::Comprehension],
        mut first: Option<V<'a>>,
    ) -> V<'a> {
        self.run
            .locals
            .push(self.run.locals.last().cloned().unwrap_or_default());
        // As a loop of unknown length: the element is evaluated under the guard that there
        // is one (certain when every iterable is known not to be empty and nothing filters).
        let mut certain = true;
        for g in generators {
            let iter = first.take().unwrap_or_else(|| self.eval(&g.iter));
            certain &= g.ifs.is_empty()
                && super::calls::iterate(&iter).is_some_and(|items| !items.is_empty());
            let item = super::calls::element_of(&iter);
            self.assign(&g.target, item);
        }
        let guard = (!certain).then(|| self.fresh_choice());
        if let Some(g) = &guard {
            self.run.guards.push(g.clone());
        }
        let item = self.eval(elt);
        if guard.is_some() {
            self.run.guards.pop();
        }
        self.run.locals.pop();
        if std::mem::take(&mut self.run.dead) {
            // Every item raises: what follows runs only when there was none.
            return match guard {
                Some(g) => {
                    self.run.guards.push(Pred::Not(Box::new(g)));
                    V::list(Vec::new())
                }
                None => {
                    self.run.dead = true;
                    V::Unknown
                }
            };
        }
        if item.is_unknown() {
            V::Unknown
        } else {
            V::Items(Box::new(item))
        }
    }

    fn dict_comprehension(
        &mut self,
        key: &'a Expr,
        value: &'a Expr,
        generators: &'a [ruff_python_ast::Comprehension],
    ) -> V<'a> {
        let first = generators.first().map(|g| self.eval(&g.iter));
        let mut keys = Vec::new();
        let mut values = Vec::new();
        self.run
            .locals
            .push(self.run.locals.last().cloned().unwrap_or_default());
        let ok = self.comprehend(key, generators, first.clone(), &mut keys)
            && self.comprehend(value, generators, first, &mut values);
        self.run.locals.pop();
        if !ok || keys.len() != values.len() {
            return V::Unknown;
        }
        let mut items = Vec::new();
        for (k, v) in keys.into_iter().zip(values) {
            match k {
                V::Data(Value::Str(Some(k))) => items.push((k, v)),
                _ => return V::Unknown,
            }
        }
        V::dict(items)
    }

    /// Appends the items of `generators` to `out`, `iter` the first one's iterable when it
    /// is already evaluated: false when they cannot be gone through one by one.
    fn comprehend(
        &mut self,
        elt: &'a Expr,
        generators: &'a [ruff_python_ast::Comprehension],
        iter: Option<V<'a>>,
        out: &mut Vec<V<'a>>,
    ) -> bool {
        let Some((g, rest)) = generators.split_first() else {
            out.push(self.eval(elt));
            return out.len() <= super::interp::MAX_UNROLL * 4;
        };
        let iter = iter.unwrap_or_else(|| self.eval(&g.iter));
        // Longer than an unrolled loop: unknown, never cut short (a list of 64 of 100 rows
        // would be a wrong shape, not a vaguer one).
        let Some(items) =
            super::calls::iterate(&iter).filter(|i| i.len() <= super::interp::MAX_UNROLL)
        else {
            return false;
        };
        let items = self.draw_rows(items);
        for item in items {
            self.assign(&g.target, item);
            let mut keep = true;
            for cond in &g.ifs {
                match self.eval(cond).truth() {
                    Some(t) => keep &= t,
                    None => return false,
                }
            }
            if keep && !self.comprehend(elt, rest, None, out) {
                return false;
            }
        }
        true
    }

    fn boolop(&mut self, op: BoolOp, values: &'a [Expr]) -> V<'a> {
        let mut acc: Option<V<'a>> = None;
        for e in values {
            let v = self.eval(e);
            acc = Some(match (acc, op) {
                (None, _) => v,
                (Some(prev), BoolOp::And) => match prev.truth() {
                    Some(false) => prev,
                    Some(true) => v,
                    None => and(prev, v),
                },
                (Some(prev), BoolOp::Or) => match prev.truth() {
                    Some(true) => prev,
                    Some(false) => v,
                    None => match (prev, v) {
                        (V::Cond(a), V::Cond(b)) => V::Cond(Pred::Or(vec![a, b])),
                        _ => V::Unknown,
                    },
                },
            });
        }
        acc.unwrap_or(V::Unknown)
    }

    // ---- operators -------------------------------------------------------------------

    pub fn binop(
        &mut self,
        l: V<'a>,
        op: Operator,
        r: V<'a>,
        span: TextRange,
        inplace: bool,
    ) -> V<'a> {
        if op == Operator::Div {
            if let Some(path) = super::data_files::path_division(&l, &r) {
                return path;
            }
        }
        // Python numbers: dims arithmetic.
        if let (Some(a), Some(b)) = (int_of(&l), int_of(&r)) {
            let v = match op {
                Operator::Add => V::Data(Value::Int(a.add(&b))),
                Operator::Sub => V::Data(Value::Int(a.sub(&b))),
                Operator::Mult => V::Data(Value::Int(a.mul(&b))),
                Operator::FloorDiv if b.as_const() != Some(0) => {
                    V::Data(Value::Int(a.floordiv(&b)))
                }
                Operator::Mod if b.as_const() != Some(0) => V::Data(Value::Int(a.modulo(&b))),
                Operator::Pow => match (a.as_const(), b.as_const()) {
                    (Some(x), Some(y)) if (0..=62).contains(&y) => match x.checked_pow(y as u32) {
                        Some(p) => V::Data(Value::int(p)),
                        None => V::Data(Value::IntUnknown),
                    },
                    // A symbolic size squared or cubed (a patch grid's area): a product.
                    (None, Some(y)) if (1..=3).contains(&y) => V::Data(Value::Int(
                        DimExpr::product(std::iter::repeat_n(&a, y as usize)),
                    )),
                    _ => V::Data(Value::IntUnknown),
                },
                Operator::Div => match (a.as_const(), b.as_const()) {
                    (Some(x), Some(y)) if y != 0 => {
                        V::Data(Value::Float(Some(x as f64 / y as f64)))
                    }
                    _ => V::Data(Value::Float(None)),
                },
                _ => V::Data(Value::IntUnknown),
            };
            return match v {
                V::Data(x) => V::Data(self.bounded(x)),
                other => other,
            };
        }
        let int_like = |v: &V<'a>| {
            matches!(
                v,
                V::Data(Value::Int(_) | Value::IntUnknown | Value::Bool(_))
            )
        };
        let number = |v: &V<'a>| int_like(v) || matches!(v, V::Data(Value::Float(_)));
        if int_like(&l) && int_like(&r) && op != Operator::Div {
            return V::Data(Value::IntUnknown);
        }
        if let Some(v) = drawn_op(&l, op, &r) {
            return v;
        }
        if number(&l) && number(&r) {
            return V::Data(Value::Float(float_op(&l, op, &r)));
        }
        // Sequences. `xs += ys` extends a list or a module list by any iterable.
        if inplace && op == Operator::Add && matches!(l, V::List(_) | V::Container(..)) {
            let mut grown = l.clone();
            if super::methods::grow(&mut grown, "extend", vec![r.clone()]) {
                return grown;
            }
        }
        match (&l, op, &r) {
            (V::List(a), Operator::Add, V::List(b)) => {
                return V::list(a.iter().chain(b.iter()).cloned().collect())
            }
            (V::Tuple(a), Operator::Add, V::Tuple(b)) => {
                return V::Tuple(a.iter().chain(b).cloned().collect())
            }
            (seq, Operator::Mult, n) | (n, Operator::Mult, seq) if let Some(a) = seq.sequence() => {
                let list = matches!(seq, V::List(_));
                return match int_of(n).and_then(|n| n.as_const()) {
                    // Python repeats a sequence no times for any count below one.
                    Some(k) if k <= 256 => {
                        let items = (0..k.max(0)).flat_map(|_| a.iter().cloned()).collect();
                        if list {
                            V::list(items)
                        } else {
                            V::Tuple(items)
                        }
                    }
                    _ => V::Unknown,
                };
            }
            (V::Data(Value::Str(Some(a))), Operator::Add, V::Data(Value::Str(Some(b)))) => {
                return V::Data(Value::Str(Some(format!("{a}{b}"))))
            }
            (V::Data(Value::Str(Some(fmt))), Operator::Mod, args) => {
                return V::Data(Value::Str(super::strings::percent_format(fmt, args)))
            }
            (V::Data(Value::Str(Some(a))), Operator::Mult, n)
            | (n, Operator::Mult, V::Data(Value::Str(Some(a)))) => {
                let times = int_of(n)
                    .and_then(|n| n.as_const())
                    .map(|k| k.max(0) as usize);
                let repeated = times
                    .filter(|&k| {
                        k.checked_mul(a.len())
                            .is_some_and(|n| n <= MAX_REPEATED_TEXT)
                    })
                    .map(|k| a.repeat(k));
                return V::Data(Value::Str(repeated));
            }
            (V::Data(Value::Str(_)), _, _) => return V::Data(Value::Str(None)),
            _ => {}
        }
        if matches!(l, V::Array(_)) || matches!(r, V::Array(_)) {
            return self.numpy_binop(operator_name(op, false), l, r, span);
        }
        let tensorish = |v: &V<'a>| {
            matches!(v, V::Data(Value::Tensor(_) | Value::Size(_))) || matches!(v, V::Tuple(_))
        };
        if !(tensorish(&l) || tensorish(&r)) {
            return V::Unknown;
        }
        let name = operator_name(op, inplace);
        let lhs_is_tensor = l.is_tensor();
        let v = self.apply_function(name, vec![l, r], vec![], span, &[]);
        // `a += b` on a non-tensor falls back to `a + b`.
        if inplace && !lhs_is_tensor && v.is_unknown() {
            return V::Unknown;
        }
        v
    }

    fn unary(&mut self, op: UnaryOp, v: V<'a>, span: TextRange) -> V<'a> {
        match (op, &v) {
            (UnaryOp::Not, V::Cond(p)) => V::Cond(Pred::Not(Box::new(p.clone()))),
            (UnaryOp::Not, _) => match v.truth() {
                Some(t) => V::Data(Value::Bool(Some(!t))),
                None => V::Unknown,
            },
            (UnaryOp::USub, V::Data(Value::Int(e))) => V::Data(Value::Int(e.neg())),
            (UnaryOp::USub, V::Data(Value::Float(f))) => V::Data(Value::Float(f.map(|f| -f))),
            (UnaryOp::UAdd, _) if !v.is_tensor() => v,
            (_, V::Data(Value::Tensor(_))) => {
                let name = match op {
                    UnaryOp::USub => "operator.neg",
                    UnaryOp::UAdd => "operator.pos",
                    UnaryOp::Invert => "operator.invert",
                    UnaryOp::Not => return V::Unknown,
                };
                self.apply_function(name, vec![v], vec![], span, &[])
            }
            _ => V::Unknown,
        }
    }

    fn compare(&mut self, l: V<'a>, op: CmpOp, r: V<'a>, span: TextRange) -> V<'a> {
        if let (Some(a), Some(b)) = (int_of(&l), int_of(&r)) {
            let p = match op {
                CmpOp::Eq | CmpOp::Is => Pred::Eq(a, b),
                CmpOp::NotEq | CmpOp::IsNot => Pred::Ne(a, b),
                CmpOp::Lt => Pred::Lt(a, b),
                CmpOp::LtE => Pred::Le(a, b),
                CmpOp::Gt => Pred::Lt(b, a),
                CmpOp::GtE => Pred::Le(b, a),
                CmpOp::In | CmpOp::NotIn => return V::Unknown,
            };
            return match p.decide() {
                Some(t) => V::Data(Value::Bool(Some(t))),
                None => V::Cond(p),
            };
        }
        if let Some(v) = drawn_compare(&l, op, &r) {
            return v;
        }
        if let Some(p) = symbolic_membership(&l, op, &r) {
            return match p.decide() {
                Some(t) => V::Data(Value::Bool(Some(t))),
                None => V::Cond(p),
            };
        }
        if let Some(holds) = float_compare(&l, op, &r) {
            return V::Data(Value::Bool(Some(holds)));
        }
        if let (V::Torch(a), V::Torch(b), CmpOp::Eq | CmpOp::NotEq | CmpOp::Is | CmpOp::IsNot) =
            (&l, &r, op)
        {
            if let Some(same) = same_torch_object(a, b) {
                let want = matches!(op, CmpOp::Eq | CmpOp::Is);
                return V::Data(Value::Bool(Some(same == want)));
            }
        }
        match op {
            CmpOp::Is | CmpOp::IsNot => {
                let none = |v: &V<'a>| matches!(v, V::Data(Value::None));
                let known = |v: &V<'a>| !v.is_unknown() && !matches!(v, V::Data(Value::Bool(None)));
                let same = match (&l, &r) {
                    (a, b) if none(a) && none(b) => Some(true),
                    (a, b) if (none(a) && known(b)) || (known(a) && none(b)) => Some(false),
                    _ => None,
                };
                let want = op == CmpOp::Is;
                match same {
                    Some(s) => V::Data(Value::Bool(Some(s == want))),
                    None => V::Unknown,
                }
            }
            CmpOp::In | CmpOp::NotIn => match contains(&l, &r) {
                Some(found) => V::Data(Value::Bool(Some(found == (op == CmpOp::In)))),
                None => V::Unknown,
            },
            _ => {
                // Sizes and tuples of ints compare elementwise.
                if let (Some(a), Some(b)) = (int_list(&l), int_list(&r)) {
                    if a.len() != b.len() {
                        let equal = false;
                        return match op {
                            CmpOp::Eq => V::Data(Value::Bool(Some(equal))),
                            CmpOp::NotEq => V::Data(Value::Bool(Some(!equal))),
                            _ => V::Unknown,
                        };
                    }
                    let eq = Pred::And(a.into_iter().zip(b).map(|(x, y)| Pred::Eq(x, y)).collect());
                    let p = match op {
                        CmpOp::Eq => eq,
                        CmpOp::NotEq => Pred::Not(Box::new(eq)),
                        _ => return V::Unknown,
                    };
                    return match p.decide() {
                        Some(t) => V::Data(Value::Bool(Some(t))),
                        None => V::Cond(p),
                    };
                }
                let name = match op {
                    CmpOp::Eq => "operator.eq",
                    CmpOp::NotEq => "operator.ne",
                    CmpOp::Lt => "operator.lt",
                    CmpOp::LtE => "operator.le",
                    CmpOp::Gt => "operator.gt",
                    _ => "operator.ge",
                };
                if matches!(l, V::Array(_)) || matches!(r, V::Array(_)) {
                    return self.numpy_compare(name, l, r, span);
                }
                if l.is_tensor() || r.is_tensor() {
                    return self.apply_function(name, vec![l, r], vec![], span, &[]);
                }
                match (py_eq(&l, &r), op) {
                    (Some(e), CmpOp::Eq) => V::Data(Value::Bool(Some(e))),
                    (Some(e), CmpOp::NotEq) => V::Data(Value::Bool(Some(!e))),
                    _ => V::Unknown,
                }
            }
        }
    }

    // ---- attributes and subscripts ---------------------------------------------------

    pub fn attribute(&mut self, obj: V<'a>, attr: &str, span: TextRange) -> V<'a> {
        match &obj {
            V::Torch(path) if attr == "__name__" => {
                let name = path.rsplit('.').next().unwrap_or(path);
                V::Data(Value::Str(Some(name.to_string())))
            }
            V::Torch(path) => {
                let full = format!("{path}.{attr}");
                super::builtins::torch_constant(&full).unwrap_or_else(|| V::Torch(full.into()))
            }
            V::Either(e) => self.on_each_side(e, |me, side| me.attribute(side, attr, span)),
            V::Builtin("math") => super::builtins::math_attr(attr),
            V::Builtin("numpy") => super::numpy::numpy_attr(attr),
            V::Builtin("numpy.random") => super::numpy::numpy_random_attr(attr),
            V::Builtin(g) if super::numpy::is_generator(g) => super::numpy::generator_attr(g, attr),
            V::Image(img) => super::images::image_attribute(img, attr),
            V::Path(p) => self.path_attribute(p, attr),
            V::OpenFile(_) => V::Bound(Box::new(obj.clone()), attr.into()),
            V::Builtin(ns) if super::images::namespace_attr(ns, attr).is_some() => {
                match super::images::namespace_attr(ns, attr) {
                    // `torchvision.models`: not modelled, perhaps installed.
                    Some(v) if !v.is_unknown() || self.project.is_none() => v,
                    _ => self.module_attribute(ns, attr),
                }
            }
            V::SourceModule(m) => {
                let m = m.clone();
                self.module_attribute(&m, attr)
            }
            V::Array(t) => {
                let t = (**t).clone();
                self.numpy_attribute(&t, attr)
            }
            V::Builtin("string") => {
                super::strings::string_module_constant(attr).unwrap_or(V::Unknown)
            }
            V::Builtin(name) if super::builtins::stdlib_path(name).is_some() => {
                super::interp::torch_module(&format!("{name}.{attr}"))
            }
            V::Object(o) => {
                if let Some(v) = o.borrow().attrs.get(attr) {
                    return v.clone();
                }
                let class = o.borrow().class;
                if super::config::is_parser(class) {
                    return match super::config::PARSER_METHODS.contains(&attr) {
                        true => V::Bound(Box::new(obj.clone()), attr.into()),
                        false => V::Unknown,
                    };
                }
                match self.class_member(class, attr) {
                    Some(V::Func(def)) if super::calls::has_decorator(def, "property") => {
                        self.read_property(def, obj.clone(), span)
                    }
                    Some(V::Func(_)) => V::Bound(Box::new(obj.clone()), attr.into()),
                    Some(v) => v,
                    None if super::calls::MODULE_SELF_METHODS.contains(&attr)
                        || (attr == "children" && obj.container().is_none())
                        || (attr == "parameters" && self.is_module_class(class)) =>
                    {
                        V::Bound(Box::new(obj.clone()), attr.into())
                    }
                    // A class that is not a torch module and defines `__getattr__`: Python
                    // calls it for an attribute found nowhere else.
                    None if !self.is_module_class(class)
                        && matches!(self.class_member(class, "__getattr__"), Some(V::Func(_))) =>
                    {
                        let Some(V::Func(def)) = self.class_member(class, "__getattr__") else {
                            return V::Unknown;
                        };
                        let name = V::Data(Value::Str(Some(attr.to_string())));
                        self.call_user(def, Some(obj.clone()), vec![name], Vec::new(), span)
                    }
                    // A parameter, hyperparameter or method of the torch module the class
                    // extends (`self.weight` in a subclass of `nn.Conv2d`).
                    None => match obj.torch_base() {
                        Some(base) => self.attribute(base, attr, span),
                        None if attr == "training" && self.is_module_class(class) => {
                            V::Data(Value::Bool((!self.run.mode_changed).then_some(true)))
                        }
                        None => V::Unknown,
                    },
                }
            }
            // `functools.partial` objects expose what they bind.
            V::Partial(p) => match attr {
                "func" => p.func.clone(),
                "args" => V::Tuple(p.args.clone()),
                "keywords" => V::dict(p.kwargs.clone()),
                _ => V::Unknown,
            },
            V::Class(c) if attr == "__name__" => V::Data(Value::Str(Some(c.name.to_string()))),
            V::Func(f) if attr == "__name__" => V::Data(Value::Str(Some(f.name.to_string()))),
            V::Class(c) => match self.class_member(c, attr) {
                // `Cls.make(...)` binds the class to a `@classmethod`.
                Some(V::Func(f)) if super::calls::has_decorator(f, "classmethod") => {
                    V::Bound(Box::new(obj.clone()), attr.into())
                }
                None if attr == "apply" && self.is_autograd_function(c) => {
                    V::Bound(Box::new(obj.clone()), attr.into())
                }
                member => member
                    .or_else(|| self.library_class_member(c, attr))
                    .unwrap_or(V::Unknown),
            },
            V::Super(..) => V::Bound(Box::new(obj.clone()), attr.into()),
            V::Data(Value::Tensor(_)) => match attr {
                "shape" | "T" | "mT" | "H" | "mH" | "ndim" => {
                    let name = format!("torch.Tensor.{attr}");
                    self.apply_function(&name, vec![obj.clone()], vec![], span, &[])
                }
                a if SAME_TENSOR_ATTRS.contains(&a) => obj.clone(),
                a if OPAQUE_TENSOR_ATTRS.contains(&a) => V::Unknown,
                a if crate::operators::api::torch_api()
                    .tensor_method(a)
                    .is_some()
                    || crate::catalogue::lookup(&format!("torch.Tensor.{a}")).is_some() =>
                {
                    V::Bound(Box::new(obj.clone()), attr.into())
                }
                _ => {
                    // Not a tensor attribute: the value was not the tensor we assumed.
                    self.violate(|| format!("`.{attr}` is not a tensor attribute"));
                    V::Unknown
                }
            },
            // Parameters first: `bias` is also the name of a hyperparameter flag.
            V::Module(m) => {
                match crate::catalogue::parameters::module_parameter(&m.value, attr)
                    .or_else(|| m.value.params.get(attr).cloned())
                {
                    Some(v) => V::data(v),
                    // Modules are built in training mode (the policy of the norm rules).
                    None if attr == "training" => {
                        V::Data(Value::Bool((!self.run.mode_changed).then_some(true)))
                    }
                    None => V::Bound(Box::new(obj.clone()), attr.into()),
                }
            }
            // A child by its name (`self.layers.conv1`, children of a Sequential built from
            // an OrderedDict); anything else is a method.
            V::Container(_, items, _) => match items.iter().find(|(k, _)| k == attr) {
                Some((_, child)) => child.clone(),
                None => V::Bound(Box::new(obj.clone()), attr.into()),
            },
            V::Dict(_) | V::List(_) | V::Data(Value::Size(_)) | V::Data(Value::Str(Some(_))) => {
                V::Bound(Box::new(obj.clone()), attr.into())
            }
            // The named tuples of `max`/`min`/`sort`/`topk`/`median`/`mode`/`kthvalue`.
            V::Tuple(items) if items.len() == 2 && items.iter().all(V::is_tensor) => match attr {
                "values" => items[0].clone(),
                "indices" => items[1].clone(),
                _ => V::Unknown,
            },
            _ => V::Unknown,
        }
    }

    pub fn subscript(&mut self, obj: V<'a>, idx: V<'a>, span: TextRange) -> V<'a> {
        if obj.is_tensor() && matches!(idx, V::Data(Value::Str(_))) {
            // `batch["input_ids"]`: the value was a mapping, not the tensor we assumed.
            self.violate(|| "a tensor subscripted with a string".to_string());
            return V::Unknown;
        }
        if let Some(c) = obj.container() {
            return self.subscript(c, idx, span);
        }
        if let V::Object(o) = &obj {
            let items = o.borrow().attrs.get(super::value::TUPLE_ITEMS).cloned();
            if let Some(items) = items {
                return self.subscript(items, idx, span);
            }
        }
        match (&obj, &idx) {
            (V::Data(Value::Tensor(_) | Value::Size(_)), _) => {
                self.apply_function("operator.getitem", vec![obj, idx], vec![], span, &[])
            }
            (V::Array(_), _) => self.numpy_subscript(obj, idx, span),
            (V::Data(Value::Str(Some(text))), _) => super::strings::str_subscript(text, &idx),
            (seq, V::Data(Value::Int(i))) if let Some(items) = seq.sequence() => i
                .as_const()
                .and_then(|i| item_at(items, i))
                .unwrap_or(V::Unknown),
            (seq, V::Data(Value::Slice(a, b, c))) if let Some(items) = seq.sequence() => {
                match slice_items(items, a, b, c) {
                    Some(out) if matches!(obj, V::Tuple(_)) => V::Tuple(out),
                    Some(out) => V::list(out),
                    None => V::Unknown,
                }
            }
            (V::Dict(items), V::Data(Value::Str(Some(k)))) => items
                .iter()
                .find(|(key, _)| key == k)
                .map_or(V::Unknown, |(_, v)| v.clone()),
            (V::Container(kind, items, span), V::Data(Value::Int(i))) => match i.as_const() {
                Some(i) => {
                    let n = items.len() as i64;
                    let j = if i < 0 { i + n } else { i };
                    if j < 0 || j >= n || *kind == ContainerKind::ModuleDict {
                        V::Unknown
                    } else {
                        let _ = span;
                        items[j as usize].1.clone()
                    }
                }
                None => V::Unknown,
            },
            (V::Container(kind, items, cspan), V::Data(Value::Slice(a, b, c))) => {
                let values: Vec<V<'a>> = items.iter().map(|(_, v)| v.clone()).collect();
                match slice_items(&values, a, b, c) {
                    Some(out) => V::Container(
                        *kind,
                        std::rc::Rc::new(
                            out.into_iter()
                                .enumerate()
                                .map(|(i, v)| (i.to_string(), v))
                                .collect(),
                        ),
                        *cspan,
                    ),
                    None => V::Unknown,
                }
            }
            (V::Container(ContainerKind::ModuleDict, items, _), V::Data(Value::Str(Some(k)))) => {
                items
                    .iter()
                    .find(|(key, _)| key == k)
                    .map_or(V::Unknown, |(_, v)| v.clone())
            }
            _ => V::Unknown,
        }
    }

    pub fn set_item(&mut self, obj: V<'a>, idx: V<'a>, v: V<'a>, span: TextRange) {
        if obj.is_tensor() {
            self.apply_function("operator.setitem", vec![obj, idx, v], vec![], span, &[]);
        }
    }
}

/// `items[i]` with Python's negative indices; `None` out of range.
pub(super) fn item_at<'a>(items: &[V<'a>], i: i64) -> Option<V<'a>> {
    let j = if i < 0 { i + items.len() as i64 } else { i };
    usize::try_from(j).ok().and_then(|j| items.get(j).cloned())
}

/// Python slicing of a known sequence with constant bounds.
pub(super) fn slice_items<'a>(
    items: &[V<'a>],
    a: &Value,
    b: &Value,
    c: &Value,
) -> Option<Vec<V<'a>>> {
    let (start, stop, step) = slice_range(items.len() as i64, a, b, c)?;
    Some(
        slice_indices(start, stop, step)
            .map(|i| items[i].clone())
            .collect(),
    )
}

/// The indices `start:stop:step` selects (bounds already clamped by [`slice_range`]).
pub(super) fn slice_indices(start: i64, stop: i64, step: i64) -> impl Iterator<Item = usize> {
    std::iter::successors(Some(start), move |i| Some(i + step))
        .take_while(move |i| if step > 0 { *i < stop } else { *i > stop })
        .map(|i| i as usize)
}

/// The start, stop and step a slice with constant bounds takes on a sequence of `n` items,
/// clamped as Python clamps them (`None` for a bound or step not known, or a zero step).
pub(super) fn slice_range(n: i64, a: &Value, b: &Value, c: &Value) -> Option<(i64, i64, i64)> {
    let get = |v: &Value| -> Option<Option<i64>> {
        match v {
            Value::None => Some(None),
            other => other.as_const_int().map(Some),
        }
    };
    let step = get(c)?.unwrap_or(1);
    if step == 0 {
        return None;
    }
    let bound = |v: Option<i64>, default: i64| match v {
        None => default,
        Some(i) if i < 0 => (i + n).max(if step < 0 { -1 } else { 0 }),
        Some(i) => i.min(if step < 0 { n - 1 } else { n }),
    };
    let (start, stop) = if step > 0 {
        (bound(get(a)?, 0), bound(get(b)?, n))
    } else {
        (bound(get(a)?, n - 1), bound(get(b)?, -1))
    };
    Some((start, stop, step))
}

/// The integer a value holds, when it is a Python int (or bool).
pub fn int_of(v: &V<'_>) -> Option<DimExpr> {
    match v {
        V::Data(x) => x.as_int_expr(),
        _ => None,
    }
}

/// A `torch.Size` or a tuple/list of ints.
fn int_list(v: &V<'_>) -> Option<Vec<DimExpr>> {
    match v {
        V::Data(Value::Size(dims)) => dims.iter().map(|d| d.expr().cloned()).collect(),
        seq if let Some(items) = seq.sequence() => items.iter().map(int_of).collect(),
        _ => None,
    }
}

/// Python `==` between known scalars: strings, None, bools, numbers; values of different
/// kinds are unequal (numbers compare by value).
fn py_eq(a: &V<'_>, b: &V<'_>) -> Option<bool> {
    let scalar = |v: &V<'_>| -> Option<Scalar> {
        Some(match v {
            V::Data(Value::Str(Some(s))) => Scalar::Str(s.clone()),
            V::Data(Value::None) => Scalar::None,
            V::Data(Value::Int(e)) => Scalar::Num(e.as_const()? as f64),
            V::Data(Value::Bool(Some(b))) => Scalar::Num(f64::from(u8::from(*b))),
            V::Data(Value::Float(Some(f))) => Scalar::Num(*f),
            _ => return None,
        })
    };
    Some(scalar(a)? == scalar(b)?)
}

#[derive(PartialEq)]
enum Scalar {
    Str(String),
    None,
    Num(f64),
}

fn and<'a>(a: V<'a>, b: V<'a>) -> V<'a> {
    match (a.truth(), b.truth()) {
        (Some(false), _) | (_, Some(false)) => V::Data(Value::Bool(Some(false))),
        (Some(true), _) => b,
        (_, Some(true)) => a,
        _ => match (a, b) {
            (V::Cond(x), V::Cond(y)) => V::Cond(Pred::And(vec![x, y])),
            _ => V::Unknown,
        },
    }
}

fn operator_name(op: Operator, inplace: bool) -> &'static str {
    match (op, inplace) {
        (Operator::Add, true) => "operator.iadd",
        (Operator::Sub, true) => "operator.isub",
        (Operator::Mult, true) => "operator.imul",
        (Operator::Div, true) => "operator.itruediv",
        (Operator::MatMult, true) => "operator.imatmul",
        (Operator::Add, _) => "operator.add",
        (Operator::Sub, _) => "operator.sub",
        (Operator::Mult, _) => "operator.mul",
        (Operator::Div, _) => "operator.truediv",
        (Operator::FloorDiv, _) => "operator.floordiv",
        (Operator::Mod, _) => "operator.mod",
        (Operator::Pow, _) => "operator.pow",
        (Operator::MatMult, _) => "operator.matmul",
        (Operator::BitAnd, _) => "operator.and_",
        (Operator::BitOr, _) => "operator.or_",
        (Operator::BitXor, _) => "operator.xor",
        (Operator::LShift, _) => "operator.lshift",
        (Operator::RShift, _) => "operator.rshift",
    }
}

/// The distinct items of a set display, in their first order.
fn distinct(items: Vec<V<'_>>) -> V<'_> {
    let mut out: Vec<V> = Vec::new();
    for item in items {
        if !out.iter().any(|o| o.same(&item)) {
            out.push(item);
        }
    }
    V::list(out)
}

/// Whether two torch API objects are the same (`torch_type == torch.FloatTensor`): the
/// same path or alias of one name is; two distinct torch classes (named in CamelCase) are
/// not. Anything else (dtypes with several names, namespaces) is undecided.
fn same_torch_object(a: &str, b: &str) -> Option<bool> {
    if a == b {
        return Some(true);
    }
    let api = crate::operators::api::torch_api();
    let (ca, cb) = (api.lookup(a)?.0, api.lookup(b)?.0);
    if ca == cb {
        return Some(true);
    }
    let class = |p: &str| {
        p.rsplit('.')
            .next()
            .and_then(|last| last.chars().next())
            .is_some_and(|c| c.is_ascii_uppercase())
    };
    (class(ca) && class(cb)).then_some(false)
}

/// `k in range(1, 49)`, `k not in (3, 5, 7)` for a symbolic int among literal ints: a
/// predicate (a range when the ints are consecutive).
fn symbolic_membership(l: &V<'_>, op: CmpOp, r: &V<'_>) -> Option<Pred> {
    if !matches!(op, CmpOp::In | CmpOp::NotIn) {
        return None;
    }
    let x = int_of(l).filter(|x| x.as_const().is_none())?;
    let items = r.members()?;
    let mut ints: Vec<i64> = items
        .iter()
        .map(|v| int_of(v).and_then(|e| e.as_const()))
        .collect::<Option<_>>()?;
    ints.sort_unstable();
    ints.dedup();
    let member = Pred::member_of(&x, &ints);
    Some(match op {
        CmpOp::In => member,
        _ => Pred::Not(Box::new(member)),
    })
}

#[cfg(test)]
mod tests {
    use crate::testing::{assert_twins, findings};

    /// A comprehension longer than an unrolled loop is an unknown list, never its first 64
    /// items: 100 windows stacked are 100 rows.
    #[test]
    fn long_comprehensions_are_not_cut_short() {
        let src = r#"
import torch
data = torch.randn(600, 1)
windows = torch.stack([data[i:i + 7] for i in range(100)])
windows + torch.randn(100, 7, 1)
"#;
        assert!(findings(src).is_empty());
    }

    /// `~mask` flips every value: a mask of zeros inverted selects every row, and the
    /// selection's count is then known again only through the shape.
    #[test]
    fn inverted_masks_forget_their_content() {
        let src = r#"
import torch
hidden = torch.zeros(2, 8).bool()
tokens = torch.randn(2, 8, 12)
seen = tokens[~hidden].reshape(2, -1, 12)
seen.reshape(2, 8, 3, 4)
"#;
        assert!(findings(src).is_empty());
    }

    /// `x.cuda(0)` moves a tensor; the device argument is no type error, and the run goes on
    /// to the real mismatch.
    #[test]
    fn device_moves_take_a_device() {
        let src = r#"
import torch
import torch.nn as nn
x = torch.randn(4, 10).cuda(0)
nn.Linear(IN, 2)(x.cpu())
"#;
        assert_twins(src, "IN", "12", "10", 5);
    }

    /// An object whose class defines `__getattr__` answers unknown attributes through it:
    /// a namespace object that forwards to `globals()` reaches the module's functions.
    #[test]
    fn getattr_forwards_to_module_globals() {
        let src = r#"
import torch
import torch.nn as nn

def flatten_codes(x):
    return x.view(x.size(0), -1)

class Namespace:
    def __getattr__(self, name):
        return globals()[name]

ns = Namespace()
nn.Linear(WIDTH, 3)(ns.flatten_codes(torch.randn(4, 5, 6)))
"#;
        assert_twins(src, "WIDTH", "5", "30", 13);
    }

    /// A comprehension whose items cannot be gone through one by one is a list of unknown
    /// length, every item of which is known: ints from a text's characters (a long text,
    /// repeated), rows picked by indices not known, blocks joined along the last dim. Each
    /// twin verified under torch 2.15.
    #[test]
    fn comprehensions_of_unknown_length_keep_what_every_item_is() {
        let chars = r#"
import torch
import torch.nn as nn

ALPHABET = "abcdefghijklmnopqrstuvwxyz "
TEXT = "the quick brown fox " * 10

ids = torch.tensor([ALPHABET.index(c) for c in TEXT])
emb = nn.Embedding(len(ALPHABET), 8)(ids)
out = nn.Linear(WIDTH, 4)(emb)
"#;
        assert_twins(chars, "WIDTH", "6", "8", 10);
        let rows = r#"
import sys
import torch
import torch.nn as nn

rows = torch.randn(10, 5)
picked = [int(a) for a in sys.argv[1:]]
batch = torch.stack([rows[i] for i in picked if i < 10])
out = nn.Linear(WIDTH, 4)(batch)
"#;
        assert_twins(rows, "WIDTH", "6", "5", 9);
        let blocks = r#"
import sys
import torch
import torch.nn as nn

n = len(sys.argv) + 2
parts = torch.cat([torch.randn(2, 5) for _ in range(n)], dim=-1)
out = nn.Linear(WIDTH, 4)(parts.t())
"#;
        assert_twins(blocks, "WIDTH", "3", "2", 8);
    }

    /// An item that fails whenever it is made fails only if the list has one: a
    /// comprehension over a range of unknown length may make none, so it is no error.
    #[test]
    fn a_comprehension_that_may_be_empty_is_no_error_in_its_items() {
        let src = r#"
import sys
import torch

n = int(sys.argv[1])
products = [torch.zeros(3) @ torch.zeros(4) for _ in range(n)]
"#;
        assert!(crate::testing::errors(src).is_empty());
    }

    /// `[PAD] * (max_len - len(ids))` repeats no times when `ids` is already longer: the
    /// padded list stays too long, and `torch.tensor` of rows of two lengths fails.
    #[test]
    fn a_sequence_repeated_a_negative_number_of_times_is_empty() {
        let src = r#"
import torch

PAD = 0

def encode(words, max_len):
    ids = [1] + list(words[: max_len - 1]) + [2]
    return ids + [PAD] * (max_len - len(ids))

ids = torch.tensor([encode(list(range(3, 3 + n)), 8) for n in (4, LONG)])
"#;
        assert_twins(src, "LONG", "7", "6", 10);
        let found = findings(&src.replace("LONG", "7"));
        assert!(
            found[0]
                .message
                .contains("expected sequence of length 8 at dim 1 (got 9)"),
            "{}",
            found[0].message
        );
    }
}
