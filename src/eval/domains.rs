//! Declared domains of hyperparameters in driver code: a loop over literal values whose
//! passes do not depend on each other (`for k in [3, 5, 7]: run(kernel_size=k)`, a grid of
//! configuration dicts, `itertools.product` over literal lists). Each value is a choice the
//! author says is valid, so each is its own question: the unit runs once per value
//! (`units::variants::with_splits`), each run labelled with the value, and a value whose runs
//! all fail is named by the finding ("fails for k=7; passes for k=3, k=5").
//!
//! Only the module's code and functions without required parameters (a script's `main`)
//! take loops as domains, and only the first such loop of a run: elsewhere a loop over
//! literals builds something (layers, stages) and is unrolled as before. A body that carries
//! state from one pass to the next (a name read before the body assigns it, an augmented
//! assignment, a container or attribute of something made before the loop changed, an early
//! exit) is no domain either.

use ruff_python_ast::visitor::{walk_expr, walk_stmt, Visitor};
use ruff_python_ast::{Expr, ExprContext, Stmt};
use ruff_text_size::TextRange;
use rustc_hash::FxHashSet;

use super::value::V;
use crate::shapes::Value;

/// Values a loop may range over as a domain, at most.
pub const MAX_DOMAIN: usize = 32;

/// Values of a declared option bound to a symbol (`Trace::domain_symbols`) that are not one
/// range, at most: past it, the fact naming each would cost more than the question is worth.
pub const MAX_STATED_VALUES: usize = 256;

/// Values of a range an option is checked against, at most (a seed's `0 <= seed < 2**32`
/// declares no domain of shapes).
pub const MAX_RANGE: i64 = 1 << 16;

/// One value of a declared domain chosen for a run: the loop's target, the value's index
/// and every value's label, in order.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DomainChoice {
    pub labels: Vec<String>,
    pub index: u32,
}

impl DomainChoice {
    pub fn label(&self) -> &str {
        self.labels
            .get(self.index as usize)
            .map_or("", String::as_str)
    }
}

/// The labels of `rows` bound to `targets` (one value per target: a loop, or loops nested
/// one directly in another) when the loops are a domain: every value a literal, at least two
/// rows and at most [`MAX_DOMAIN`], and passes independent of each other.
pub fn domain_labels(targets: &[&Expr], rows: &[Vec<V<'_>>], body: &[Stmt]) -> Option<Vec<String>> {
    if !(2..=MAX_DOMAIN).contains(&rows.len()) || !independent_passes(targets, body) {
        return None;
    }
    let labels: Vec<String> = rows
        .iter()
        .map(|row| {
            let parts: Option<Vec<String>> =
                targets.iter().zip(row).map(|(t, v)| label(t, v)).collect();
            parts.map(|p| p.join(", "))
        })
        .collect::<Option<_>>()?;
    let distinct: FxHashSet<&String> = labels.iter().collect();
    (distinct.len() == labels.len()).then_some(labels)
}

/// `k=7`; `kernel_size=3, stride=1` for a tuple target; `image_size=28, pool=max` for a
/// dict bound to one name.
fn label(target: &Expr, item: &V<'_>) -> Option<String> {
    match (target, item) {
        (Expr::Name(_), V::Dict(entries)) if !entries.is_empty() => {
            let parts: Option<Vec<String>> = entries
                .iter()
                .map(|(k, v)| literal(v).map(|v| format!("{k}={v}")))
                .collect();
            Some(parts?.join(", "))
        }
        (Expr::Name(n), v) => Some(format!("{}={}", n.id, literal(v)?)),
        (Expr::Tuple(t), v)
            if let Some(vs) = v.sequence().filter(|vs| t.elts.len() == vs.len()) =>
        {
            let parts: Option<Vec<String>> = t
                .elts
                .iter()
                .zip(vs)
                .map(|(e, v)| match e {
                    Expr::Name(n) => literal(v).map(|v| format!("{}={v}", n.id)),
                    _ => None,
                })
                .collect();
            Some(parts?.join(", "))
        }
        _ => None,
    }
}

/// A value written as Python would print it, when it is a literal.
fn literal(v: &V<'_>) -> Option<String> {
    match v {
        V::Data(Value::Int(d)) => d.as_const().map(|c| c.to_string()),
        V::Data(Value::Float(Some(f))) => Some(format!("{f:?}")),
        V::Data(Value::Bool(Some(b))) => Some(if *b { "True" } else { "False" }.to_string()),
        V::Data(Value::Str(Some(s))) => Some(s.clone()),
        V::Data(Value::None) => Some("None".to_string()),
        seq if let Some(items) = seq.sequence() => {
            let parts: Option<Vec<String>> = items.iter().map(literal).collect();
            let inner = parts?.join(", ");
            Some(match v {
                V::Tuple(_) if items.len() == 1 => format!("({inner},)"),
                V::Tuple(_) => format!("({inner})"),
                _ => format!("[{inner}]"),
            })
        }
        _ => None,
    }
}

/// Whether each pass of the loop runs the same whatever the passes before did: the body
/// never leaves early, never reads a name before assigning it in the pass (unless the loop
/// target binds it), and changes nothing made before the loop (no augmented assignment,
/// no item or attribute written, no mutating method called on an outside name).
fn independent_passes(targets: &[&Expr], body: &[Stmt]) -> bool {
    let mut check = Passes {
        bound: FxHashSet::default(),
        assigned_later: FxHashSet::default(),
        ok: true,
    };
    for target in targets {
        collect_names(target, &mut check.bound);
    }
    for stmt in body {
        assigned_names(stmt, &mut check.assigned_later);
    }
    for stmt in body {
        check.visit_stmt(stmt);
    }
    check.ok
}

struct Passes {
    /// Names the pass has bound so far (the loop target first).
    bound: FxHashSet<String>,
    /// Names the body assigns somewhere.
    assigned_later: FxHashSet<String>,
    ok: bool,
}

const MUTATORS: &[&str] = &[
    "append",
    "extend",
    "insert",
    "update",
    "add",
    "setdefault",
    "pop",
    "remove",
    "clear",
    "add_module",
    "register_buffer",
    "register_parameter",
];

const REFLECTION: &[&str] = &["setattr", "delattr", "exec", "eval", "globals", "vars"];

impl<'b> Visitor<'b> for Passes {
    fn visit_stmt(&mut self, stmt: &'b Stmt) {
        match stmt {
            Stmt::Return(_) | Stmt::Break(_) | Stmt::Continue(_) | Stmt::Raise(_) => {
                self.ok = false
            }
            Stmt::AugAssign(_) | Stmt::Global(_) | Stmt::Nonlocal(_) | Stmt::Delete(_) => {
                self.ok = false
            }
            Stmt::FunctionDef(_) | Stmt::ClassDef(_) => self.ok = false,
            Stmt::Assign(a) => {
                self.visit_expr(&a.value);
                for t in &a.targets {
                    self.bind_target(t);
                }
            }
            Stmt::AnnAssign(a) => {
                if let Some(v) = &a.value {
                    self.visit_expr(v);
                }
                self.bind_target(&a.target);
            }
            Stmt::For(f) => {
                self.visit_expr(&f.iter);
                self.bind_target(&f.target);
                for s in f.body.iter().chain(&f.orelse) {
                    self.visit_stmt(s);
                }
            }
            Stmt::With(w) => {
                for item in &w.items {
                    self.visit_expr(&item.context_expr);
                    if let Some(v) = &item.optional_vars {
                        self.bind_target(v);
                    }
                }
                for s in &w.body {
                    self.visit_stmt(s);
                }
            }
            _ => walk_stmt(self, stmt),
        }
    }

    fn visit_expr(&mut self, expr: &'b Expr) {
        match expr {
            Expr::Name(n) if n.ctx == ExprContext::Load => {
                let name = n.id.as_str();
                if self.assigned_later.contains(name) && !self.bound.contains(name) {
                    self.ok = false;
                }
            }
            Expr::Call(c) => {
                match &*c.func {
                    Expr::Attribute(a)
                        if MUTATORS.contains(&a.attr.id.as_str())
                            && !self.made_in_pass(&a.value) =>
                    {
                        self.ok = false
                    }
                    // Writes to whatever object or namespace it is given.
                    Expr::Name(n) if REFLECTION.contains(&n.id.as_str()) => self.ok = false,
                    _ => {}
                }
                walk_expr(self, expr);
            }
            // Comprehensions bind their own names.
            Expr::ListComp(_) | Expr::SetComp(_) | Expr::DictComp(_) | Expr::Generator(_) => {}
            Expr::Lambda(_) => {}
            _ => walk_expr(self, expr),
        }
    }
}

impl Passes {
    /// Binds a plain name; writing an item or an attribute of something made before the
    /// pass carries state.
    fn bind_target(&mut self, target: &Expr) {
        match target {
            Expr::Name(n) => {
                self.bound.insert(n.id.to_string());
            }
            Expr::Tuple(t) => t.elts.iter().for_each(|e| self.bind_target(e)),
            Expr::List(l) => l.elts.iter().for_each(|e| self.bind_target(e)),
            Expr::Starred(s) => self.bind_target(&s.value),
            Expr::Subscript(s) => {
                if !self.made_in_pass(&s.value) {
                    self.ok = false;
                }
            }
            Expr::Attribute(a) => {
                if !self.made_in_pass(&a.value) {
                    self.ok = false;
                }
            }
            _ => self.ok = false,
        }
    }

    /// A name bound by this pass (not the loop target: an item of the domain is shared).
    fn made_in_pass(&self, e: &Expr) -> bool {
        match e {
            Expr::Name(n) => self.bound.contains(n.id.as_str()),
            _ => false,
        }
    }
}

fn collect_names(target: &Expr, out: &mut FxHashSet<String>) {
    match target {
        Expr::Name(n) => {
            out.insert(n.id.to_string());
        }
        Expr::Tuple(t) => t.elts.iter().for_each(|e| collect_names(e, out)),
        Expr::List(l) => l.elts.iter().for_each(|e| collect_names(e, out)),
        Expr::Starred(s) => collect_names(&s.value, out),
        _ => {}
    }
}

/// Names a statement assigns, nested blocks included.
fn assigned_names(stmt: &Stmt, out: &mut FxHashSet<String>) {
    struct Assigned<'o>(&'o mut FxHashSet<String>);
    impl<'b> Visitor<'b> for Assigned<'_> {
        fn visit_expr(&mut self, expr: &'b Expr) {
            if let Expr::Name(n) = expr {
                if n.ctx == ExprContext::Store {
                    self.0.insert(n.id.to_string());
                }
            }
            walk_expr(self, expr);
        }
    }
    Assigned(out).visit_stmt(stmt);
}

/// The combinations of options' declared values, in order (the last option varies
/// fastest), with their labels (`width=16, norm=batch`): options are taken in order while
/// the combinations stay within [`MAX_DOMAIN`]. `None` when no option declares values.
#[allow(clippy::type_complexity)]
pub fn combinations<'a>(
    declared: &[(String, Vec<V<'a>>)],
) -> Option<(Vec<String>, Vec<Vec<(String, V<'a>)>>)> {
    let mut combos: Vec<Vec<(String, V<'a>)>> = vec![Vec::new()];
    for (name, values) in declared {
        if values.is_empty() || combos.len() * values.len() > MAX_DOMAIN {
            continue;
        }
        if values.iter().any(|v| literal(v).is_none()) {
            continue;
        }
        combos = combos
            .into_iter()
            .flat_map(|prefix| {
                values.iter().map(move |v| {
                    let mut next = prefix.clone();
                    next.push((name.clone(), v.clone()));
                    next
                })
            })
            .collect();
    }
    if combos.len() < 2 {
        return None;
    }
    let labels = combos
        .iter()
        .map(|combo| {
            let parts: Vec<String> = combo
                .iter()
                .map(|(n, v)| format!("{n}={}", literal(v).unwrap_or_default()))
                .collect();
            parts.join(", ")
        })
        .collect();
    Some((labels, combos))
}

/// The values of a `Literal[...]` annotation (`typing.Literal` too), when each is a
/// literal int, string, bool or None.
pub fn literal_choices<'a>(annotation: &Expr) -> Option<Vec<V<'a>>> {
    let Expr::Subscript(s) = annotation else {
        return None;
    };
    let named = match &*s.value {
        Expr::Name(n) => n.id.as_str() == "Literal",
        Expr::Attribute(a) => a.attr.id.as_str() == "Literal",
        _ => false,
    };
    if !named {
        return None;
    }
    let items: Vec<&Expr> = match &*s.slice {
        Expr::Tuple(t) => t.elts.iter().collect(),
        one => vec![one],
    };
    items
        .into_iter()
        .map(|e| match e {
            Expr::NumberLiteral(_) | Expr::UnaryOp(_) => {
                int_literal(e).map(|k| V::Data(Value::Int(k.into())))
            }
            Expr::StringLiteral(t) => Some(V::Data(Value::Str(Some(t.value.to_str().to_string())))),
            Expr::BooleanLiteral(b) => Some(V::Data(Value::Bool(Some(b.value)))),
            Expr::NoneLiteral(_) => Some(V::none()),
            _ => None,
        })
        .collect()
}

/// Int ranges a script checks an option against after parsing, by the option's name:
/// `assert lo <= args.x <= hi`, `assert args.x >= lo and args.x <= hi`, and a check that
/// stops the script outside the range (`if not lo <= args.x <= hi: parser.error(...)`,
/// `if args.x < lo or args.x > hi: raise ...`). At most [`MAX_RANGE`] values.
pub fn stated_ranges(body: &[Stmt]) -> rustc_hash::FxHashMap<String, (i64, i64)> {
    struct Checks(rustc_hash::FxHashMap<String, (i64, i64)>);
    impl<'b> Visitor<'b> for Checks {
        fn visit_stmt(&mut self, stmt: &'b Stmt) {
            match stmt {
                Stmt::Assert(a) => self.bounds(&a.test, true),
                Stmt::If(i) if i.elif_else_clauses.is_empty() && stops(&i.body) => {
                    self.bounds(&i.test, false)
                }
                _ => {}
            }
            walk_stmt(self, stmt);
        }
    }
    impl Checks {
        /// `inside`: the test holds inside the range (an assert); else outside (a stop).
        fn bounds(&mut self, test: &Expr, inside: bool) {
            let test = match (test, inside) {
                (Expr::UnaryOp(u), false) if u.op == ruff_python_ast::UnaryOp::Not => {
                    return self.bounds(&u.operand, true)
                }
                (t, _) => t,
            };
            // Bounds per option: a test may state several (`not 1 <= k <= 16 or not
            // 1 <= s <= 6`); each option's range counts when both ends are stated.
            let mut bounds: Vec<(String, Option<i64>, Option<i64>)> = Vec::new();
            let mut note = |name: String, low: Option<i64>, high: Option<i64>| {
                let at = match bounds.iter().position(|(n, _, _)| *n == name) {
                    Some(i) => i,
                    None => {
                        bounds.push((name, None, None));
                        bounds.len() - 1
                    }
                };
                if low.is_some() {
                    bounds[at].1 = low;
                }
                if high.is_some() {
                    bounds[at].2 = high;
                }
            };
            let parts: Vec<&Expr> = match test {
                Expr::BoolOp(b)
                    if (inside && b.op == ruff_python_ast::BoolOp::And)
                        || (!inside && b.op == ruff_python_ast::BoolOp::Or) =>
                {
                    b.values.iter().collect()
                }
                t => vec![t],
            };
            for part in parts {
                // `not lo <= x <= hi` among the conditions that stop the script: inside.
                let (part, inside) = match part {
                    Expr::UnaryOp(u) if !inside && u.op == ruff_python_ast::UnaryOp::Not => {
                        (&*u.operand, true)
                    }
                    p => (p, inside),
                };
                let Expr::Compare(c) = part else { return };
                let mut operands = vec![&*c.left];
                operands.extend(c.comparators.iter());
                for (op, pair) in c.ops.iter().zip(operands.windows(2)) {
                    let (a, b) = (pair[0], pair[1]);
                    use ruff_python_ast::CmpOp::*;
                    // Normalised to `value OP bound` or `bound OP value`, inside the range.
                    let op = match (op, inside) {
                        (o, true) => *o,
                        (Lt, false) => GtE,
                        (LtE, false) => Gt,
                        (Gt, false) => LtE,
                        (GtE, false) => Lt,
                        (NotIn, false) => In,
                        _ => return,
                    };
                    match (
                        option_name(a),
                        int_literal(b),
                        int_literal(a),
                        option_name(b),
                    ) {
                        (Some(n), Some(k), _, _) => match op {
                            Lt => note(n, None, Some(k - 1)),
                            LtE => note(n, None, Some(k)),
                            Gt => note(n, Some(k + 1), None),
                            GtE => note(n, Some(k), None),
                            _ => return,
                        },
                        (_, _, Some(k), Some(n)) => match op {
                            Lt => note(n, Some(k + 1), None),
                            LtE => note(n, Some(k), None),
                            Gt => note(n, None, Some(k - 1)),
                            GtE => note(n, None, Some(k)),
                            _ => return,
                        },
                        // `x in range(lo, hi)` inside, `x not in range(lo, hi)` outside.
                        (Some(n), None, _, _) if op == In => match range_literal(b) {
                            Some((l, h)) => note(n, Some(l), Some(h)),
                            None => return,
                        },
                        _ => return,
                    }
                }
            }
            for (name, lo, hi) in bounds {
                if let (Some(l), Some(h)) = (lo, hi) {
                    if l <= h && h.saturating_sub(l) < MAX_RANGE {
                        self.0.insert(name, (l, h));
                    }
                }
            }
        }
    }
    fn stops(body: &[Stmt]) -> bool {
        body.iter().any(|s| match s {
            Stmt::Raise(_) => true,
            Stmt::Expr(e) => match &*e.value {
                Expr::Call(c) => match &*c.func {
                    Expr::Attribute(a) => matches!(a.attr.id.as_str(), "error" | "exit"),
                    Expr::Name(n) => matches!(n.id.as_str(), "exit" | "quit"),
                    _ => false,
                },
                _ => false,
            },
            _ => false,
        })
    }
    fn option_name(e: &Expr) -> Option<String> {
        match e {
            Expr::Attribute(a) if matches!(&*a.value, Expr::Name(_)) => Some(a.attr.id.to_string()),
            _ => None,
        }
    }
    let mut checks = Checks(rustc_hash::FxHashMap::default());
    for stmt in body {
        checks.visit_stmt(stmt);
    }
    checks.0
}

/// Whether a loop's iterable is values the code writes out: a literal list, tuple or set,
/// a name or attribute (a constant such as `CONFIGS`), or `itertools.product` of those. A
/// `range`, `enumerate` or a computed sequence counts passes, it declares no choices.
pub fn declares_values(iter: &Expr) -> bool {
    match iter {
        Expr::List(_) | Expr::Tuple(_) | Expr::Set(_) | Expr::Name(_) | Expr::Attribute(_) => true,
        // An entry of a configuration (`cfg["sweep"]["kernel_size"]`).
        Expr::Subscript(s) => {
            matches!(&*s.slice, Expr::StringLiteral(_)) && declares_values(&s.value)
        }
        Expr::Call(c) => {
            let product = match &*c.func {
                Expr::Name(n) => n.id.as_str() == "product",
                Expr::Attribute(a) => a.attr.id.as_str() == "product",
                _ => false,
            };
            product && c.arguments.args.iter().all(declares_values)
        }
        _ => false,
    }
}

/// An int written out (`3`, `-1`).
/// `range(hi)`, `range(lo, hi)` with literal ints: the inclusive bounds of its values.
fn range_literal(e: &Expr) -> Option<(i64, i64)> {
    let Expr::Call(c) = e else { return None };
    let is_range = matches!(&*c.func, Expr::Name(n) if n.id.as_str() == "range");
    if !is_range || !c.arguments.keywords.is_empty() {
        return None;
    }
    let bounds: Option<Vec<i64>> = c.arguments.args.iter().map(int_literal).collect();
    match bounds?[..] {
        [hi] => Some((0, hi - 1)),
        [lo, hi] => Some((lo, hi - 1)),
        _ => None,
    }
}

pub(super) fn int_literal(e: &Expr) -> Option<i64> {
    match e {
        Expr::NumberLiteral(n) => n.value.as_int().and_then(|i| i.as_i64()),
        Expr::UnaryOp(u) if u.op == ruff_python_ast::UnaryOp::USub => {
            int_literal(&u.operand).map(|k| -k)
        }
        _ => None,
    }
}

impl super::interp::Interp<'_> {
    /// Which value of the domain declared at `at` this run takes: its index when the run was
    /// given one of this domain's values; otherwise `None`, and when the run has no domain
    /// yet, this one (its `labels`, if any) is asked for: the unit runs again once per value.
    pub(super) fn domain_index(
        &mut self,
        at: TextRange,
        labels: impl FnOnce() -> Option<Vec<String>>,
    ) -> Option<usize> {
        match &self.plan.domain {
            Some((chosen, choice)) if *chosen == at => Some(choice.index as usize),
            Some(_) => None,
            None => {
                if self.plan.domain_wanted.is_none() {
                    self.plan.domain_wanted = labels().map(|l| (at, l));
                }
                None
            }
        }
    }
}

/// The loop nested directly in `outer` (its whole body, neither with an `else`) over
/// declared values that do not depend on the outer loop's: the two range over their
/// product, as `itertools.product` would.
pub fn nested_domain(outer: &ruff_python_ast::StmtFor) -> Option<&ruff_python_ast::StmtFor> {
    let [Stmt::For(inner)] = outer.body.as_slice() else {
        return None;
    };
    if !outer.orelse.is_empty() || !inner.orelse.is_empty() || !declares_values(&inner.iter) {
        return None;
    }
    let mut outer_names = FxHashSet::default();
    collect_names(&outer.target, &mut outer_names);
    let mut reads = FxHashSet::default();
    read_names(&inner.iter, &mut reads);
    outer_names.is_disjoint(&reads).then_some(inner)
}

fn read_names(e: &Expr, out: &mut FxHashSet<String>) {
    struct Reads<'o>(&'o mut FxHashSet<String>);
    impl<'b> Visitor<'b> for Reads<'_> {
        fn visit_expr(&mut self, expr: &'b Expr) {
            if let Expr::Name(n) = expr {
                self.0.insert(n.id.to_string());
            }
            walk_expr(self, expr);
        }
    }
    Reads(out).visit_expr(e);
}

/// Where a loop is, to recognise it again in the runs that each take one of its values.
pub fn loop_at(target: &Expr) -> TextRange {
    use ruff_text_size::Ranged;
    target.range()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::parse_python;

    fn check(src: &str) -> bool {
        let module = parse_python(src).expect("parses");
        let Stmt::For(f) = &module.body[0] else {
            panic!("a loop")
        };
        independent_passes(&[&f.target], &f.body)
    }

    #[test]
    fn passes_that_carry_state_are_no_domain() {
        assert!(check(
            "for k in [3, 5]:\n    out = run(kernel_size=k)\n    print(k, out.shape)\n"
        ));
        assert!(check(
            "for cfg in C:\n    m = Net(**cfg)\n    m.eval()\n    y = m(x)\n"
        ));
        // The channel count flows from one pass to the next.
        assert!(!check(
            "for c in [8, 16]:\n    layers.append(conv(prev, c))\n    prev = c\n"
        ));
        assert!(!check("for c in [8, 16]:\n    y = conv(y, c)\n"));
        assert!(!check("for k in [3, 5]:\n    total += run(k)\n"));
        assert!(!check("for k in [3, 5]:\n    self.blocks[k] = block(k)\n"));
        assert!(!check("for k in [3, 5]:\n    if run(k):\n        break\n"));
        assert!(!check("for n in ['a', 'b']:\n    setattr(cfg, n, 1)\n"));
        // Results gathered in a container made before the loop: other passes' results
        // are read after it.
        assert!(!check("for k in [3, 5]:\n    results[k] = run(k)\n"));
    }

    #[test]
    fn ranges_are_read_from_the_checks_after_parsing() {
        let module = parse_python(
            "def main():\n    args = p.parse_args()\n    assert 1 <= args.depth <= 6\n    \
             assert args.k >= 1 and args.k <= 3\n    if not 2 <= args.patch <= 8:\n        \
             p.error('no')\n    if args.blocks < 1 or args.blocks > 4:\n        raise ValueError\n    \
             if 1 <= args.other <= 3:\n        print('in range, not a check')\n    \
             assert 0 < args.wide < 100\n    \
             if not 1 <= args.a <= 16 or not 1 <= args.s <= 6:\n        p.error('both')\n    \
             if args.w not in range(1, 49):\n        raise ValueError\n    \
             assert 0 <= args.seed < 2 ** 32\n    assert 0 <= args.big <= 1000000\n",
        )
        .unwrap();
        let mut got: Vec<(String, (i64, i64))> = stated_ranges(&module.body).into_iter().collect();
        got.sort();
        assert_eq!(
            got,
            vec![
                ("a".to_string(), (1, 16)),
                ("blocks".to_string(), (1, 4)),
                ("depth".to_string(), (1, 6)),
                ("k".to_string(), (1, 3)),
                ("patch".to_string(), (2, 8)),
                ("s".to_string(), (1, 6)),
                ("w".to_string(), (1, 48)),
                ("wide".to_string(), (1, 99)),
            ]
        );
    }

    #[test]
    fn values_are_labelled_as_written() {
        let module = parse_python("for a, b in x: pass\nfor cfg in y: pass\n").unwrap();
        let targets: Vec<&Expr> = module
            .body
            .iter()
            .map(|s| match s {
                Stmt::For(f) => &*f.target,
                _ => unreachable!(),
            })
            .collect();
        let int = |i: i64| V::Data(Value::Int(crate::shapes::DimExpr::from(i)));
        let s = |t: &str| V::Data(Value::Str(Some(t.to_string())));
        assert_eq!(
            label(targets[0], &V::Tuple(vec![int(3), s("max")])),
            Some("a=3, b=max".to_string())
        );
        let cfg = V::dict(vec![
            ("image_size".into(), int(28)),
            ("pool".into(), s("avg")),
        ]);
        assert_eq!(
            label(targets[1], &cfg),
            Some("image_size=28, pool=avg".to_string())
        );
        assert_eq!(label(targets[1], &V::Unknown), None);
    }

    /// Every value of a loop over literals is checked and the finding names the failing
    /// ones and those that pass; a loop that builds (carries state) is unrolled as before,
    /// and a driver whose every value passes stays clean.
    #[test]
    fn a_findings_names_the_values_of_a_domain_that_fail() {
        let src = r#"
import itertools
import torch
import torch.nn as nn


def run(kernel_size, width):
    conv = nn.Conv2d(1, 4, kernel_size)
    head = nn.Linear(WIDTH, 2)
    x = conv(torch.randn(1, 1, 6, 6))
    return head(x.flatten(1))


def main():
    for kernel_size, width in itertools.product([3, 5, 9], [4]):
        y = run(kernel_size, width)
        print(kernel_size, y.shape)


if __name__ == "__main__":
    main()
"#;
        // 6x6 with kernel 3: 4x4x4 = 64 features; kernel 5: 2x2x4 = 16; kernel 9 is larger
        // than the input.
        let found = crate::testing::findings(&src.replace("WIDTH", "64"));
        let messages: Vec<&str> = found.iter().map(|f| f.message.as_str()).collect();
        assert_eq!(found.len(), 2, "{messages:?}");
        assert!(
            messages[0].ends_with(
                "fails for (kernel_size=9, width=4); passes for (kernel_size=3, width=4)"
            ),
            "{messages:?}"
        );
        assert!(
            messages[1].ends_with(
                "fails for (kernel_size=5, width=4); passes for (kernel_size=3, width=4)"
            ),
            "{messages:?}"
        );
        assert_eq!((found[0].span.line, found[1].span.line), (10, 11));
        // Only kernel 3 is kept: clean.
        let clean = src
            .replace("WIDTH", "64")
            .replace("[3, 5, 9], [4]", "[3], [4]");
        assert!(crate::testing::findings(&clean).is_empty());
        // A loop that builds carries its state: unrolled, the first failing value stops it.
        let building = src.replace("WIDTH", "64").replace(
            "        y = run(kernel_size, width)\n",
            "        y = run(kernel_size, width)\n        outs.append(y)\n",
        );
        let found = crate::testing::findings(
            &building.replace("def main():\n", "def main():\n    outs = []\n"),
        );
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(!found[0].message.contains("fails for"), "{found:?}");
    }

    /// Command-line `choices`, an int range the script checks after parsing and a
    /// dataclass field's `Literal[...]` are declared values too; a script run with its
    /// defaults alone would have passed. The issue's (and Refty's) example: `choices=[3, 5,
    /// 15]` on a 7x7 input; a kernel that fails only when larger than 7.
    #[test]
    fn options_ranges_and_literal_fields_declare_values() {
        let model = r#"
import argparse
from dataclasses import dataclass
from typing import Literal
import torch
import torch.nn as nn


def run(k):
    conv = nn.Conv2d(1, 2, k)
    return conv(torch.randn(1, 1, 7, 7))

DECLARE

if __name__ == "__main__":
    main()
"#;
        let choices = r#"
def main():
    p = argparse.ArgumentParser()
    p.add_argument("--kernel", type=int, default=3, choices=[3, 5, 15])
    args = p.parse_args()
    run(args.kernel)
"#;
        let checked = r#"
def main():
    p = argparse.ArgumentParser()
    p.add_argument("--kernel", type=int, default=3)
    args = p.parse_args()
    if args.kernel < 1 or args.kernel > 9:
        p.error("out of range")
    run(args.kernel)
"#;
        let literal = r#"
@dataclass
class Config:
    kernel: Literal[3, 5, 15] = 3


def main():
    run(Config().kernel)
"#;
        for (declare, fails, passes) in [
            (choices, "kernel=15", "kernel=3, kernel=5"),
            (
                checked,
                "kernel=8, kernel=9",
                "kernel=1, kernel=2, kernel=3, kernel=4, kernel=5, kernel=6, kernel=7",
            ),
            (literal, "kernel=15", "kernel=3, kernel=5"),
        ] {
            let found = crate::testing::findings(&model.replace("DECLARE", declare));
            assert_eq!(found.len(), 1, "{found:?}");
            assert!(
                found[0]
                    .message
                    .ends_with(&format!("fails for {fails}; passes for {passes}")),
                "{}",
                found[0].message
            );
        }
    }
}
