//! Nested functions and the variables they share with the function that defines them.
//!
//! In Python a closure does not copy its enclosing function's variables: it reads them when
//! it runs, and what it changes in place (`seen.append(n)`, `table[k] = v`) or rebinds after
//! `nonlocal` is the enclosing function's variable. Lists and dicts are values in the
//! analysis, so a closure's call takes the enclosing frame as it is *now* (not as it was at
//! the `def`), and writes back, when it ends, every variable it does not own that it
//! changed. A variable it owns (bound in its body and not declared `nonlocal`: Python's rule)
//! stays its own. Both need the enclosing call to be running; a closure returned from its
//! maker keeps the frame it captured, read only.

use rustc_hash::{FxHashMap as HashMap, FxHashSet};
use std::cell::Cell;
use std::rc::Rc;

use ruff_python_ast::visitor::{walk_expr, walk_pattern, walk_stmt, Visitor};
use ruff_python_ast::{Expr, ExprContext, ExprLambda, Pattern, Stmt, StmtFunctionDef};

use super::interp::Interp;
use super::value::V;

/// The frame a nested function captured when its `def` ran, and which running call it
/// belongs to (to be found while that call runs).
#[derive(Debug)]
pub struct Captured<'a> {
    pub frame: Rc<HashMap<String, V<'a>>>,
    pub call: Option<u64>,
}

thread_local! {
    static NEXT_CALL: Cell<u64> = const { Cell::new(0) };
}

/// A number naming one call for as long as the thread runs: closures kept in a summary
/// outlive the run that made them, so numbers are never reused.
pub fn next_call_id() -> u64 {
    NEXT_CALL.with(|n| {
        let id = n.get();
        n.set(id + 1);
        id
    })
}

/// A closure's enclosing variables as its call starts, to compare with at its end.
pub struct Shared<'a> {
    /// Index of the enclosing call's frame in `RunState::locals`.
    frame: usize,
    /// The variables the closure does not own, with the value each started with.
    start: Vec<(String, V<'a>)>,
}

impl<'a> Interp<'a> {
    /// What a `def` or a `lambda` inside a running function captures: that function's
    /// frame (`None` at a module's top level).
    pub(super) fn capture(&self) -> Option<Rc<Captured<'a>>> {
        let frame = self.run.locals.last()?;
        let depth = self.run.locals.len();
        let call = self
            .run
            .active_calls
            .last()
            .filter(|c| c.frame + 1 == depth)
            .map(|c| c.id);
        Some(Rc::new(Captured {
            frame: Rc::clone(frame),
            call,
        }))
    }

    /// Binds a closure's enclosing variables into its new `frame` (parameters win): the
    /// enclosing call's current values while it runs, the captured ones otherwise.
    /// `owned` gives the names the nested function binds itself ([`owned_names`]).
    pub(super) fn bind_captured(
        &self,
        owned: impl FnOnce() -> FxHashSet<String>,
        captured: &Captured<'a>,
        frame: &mut HashMap<String, V<'a>>,
    ) -> Option<Shared<'a>> {
        let running = captured.call.and_then(|id| {
            self.run
                .active_calls
                .iter()
                .rev()
                .find(|c| c.id == id)
                .map(|c| c.frame)
        });
        let source = running
            .and_then(|i| self.run.locals.get(i))
            .unwrap_or(&captured.frame);
        let owned = running.map(|_| owned());
        let mut start = Vec::new();
        for (name, v) in source.iter() {
            if frame.contains_key(name) {
                continue;
            }
            frame.insert(name.clone(), v.clone());
            if owned
                .as_ref()
                .is_some_and(|owned| !owned.contains(name.as_str()))
            {
                start.push((name.clone(), v.clone()));
            }
        }
        running.map(|frame| Shared { frame, start })
    }

    /// At a closure's end (its frame still innermost): the enclosing variables it changed
    /// are the enclosing call's. Written from a call deeper than the enclosing one, on a
    /// guarded path, the old value is joined in (that call's branches do not snapshot it).
    pub(super) fn write_back_shared(&mut self, shared: Shared<'a>) {
        let Some(own) = self.run.locals.last().cloned() else {
            return;
        };
        let direct = shared.frame + 2 == self.run.locals.len();
        for (name, old) in shared.start {
            let Some(new) = own.get(&name) else { continue };
            if new.same(&old) {
                continue;
            }
            let Some(current) = self
                .run
                .locals
                .get(shared.frame)
                .and_then(|f| f.get(&name))
                .cloned()
            else {
                continue;
            };
            let v = if direct {
                new.clone()
            } else {
                self.written_outside(current, new.clone())
            };
            if let Some(frame) = self.run.locals.get_mut(shared.frame) {
                Rc::make_mut(frame).insert(name, v);
            }
        }
    }
}

/// The names a function's body binds by Python's scoping rule (assignment, `for`,
/// `with ... as`, `except ... as`, `import`, `def`, `class`, `del`, patterns), less those it
/// declares `nonlocal`; its parameters are in its frame already. Names bound in nested
/// scopes are counted too: a few names too many only keep a variable the closure's own.
pub fn owned_names(def: &StmtFunctionDef) -> FxHashSet<String> {
    let mut names = Bound::default();
    for stmt in &def.body {
        names.visit_stmt(stmt);
    }
    names.owned()
}

/// The names a lambda's body binds (`:=`).
pub fn lambda_owned_names(lambda: &ExprLambda) -> FxHashSet<String> {
    let mut names = Bound::default();
    names.visit_expr(&lambda.body);
    names.owned()
}

#[derive(Default)]
struct Bound {
    bound: FxHashSet<String>,
    /// Declared `nonlocal` by the function itself (not by a function nested in it).
    nonlocal: Vec<String>,
    /// Nested functions and classes being walked.
    nested: usize,
}

impl Bound {
    /// What is bound, less what is declared `nonlocal`.
    fn owned(self) -> FxHashSet<String> {
        let Bound {
            mut bound,
            nonlocal,
            ..
        } = self;
        for name in nonlocal {
            bound.remove(&name);
        }
        bound
    }

    /// A nested `def` or `class`: its name is bound here, its body is walked as nested.
    fn nested_scope(&mut self, name: &str, stmt: &Stmt) {
        self.bound.insert(name.to_string());
        self.nested += 1;
        walk_stmt(self, stmt);
        self.nested -= 1;
    }
}

impl<'b> Visitor<'b> for Bound {
    fn visit_stmt(&mut self, stmt: &'b Stmt) {
        match stmt {
            Stmt::Nonlocal(n) if self.nested == 0 => self
                .nonlocal
                .extend(n.names.iter().map(|n| n.id.to_string())),
            Stmt::FunctionDef(f) => return self.nested_scope(f.name.id.as_str(), stmt),
            Stmt::ClassDef(c) => return self.nested_scope(c.name.id.as_str(), stmt),
            Stmt::Import(i) => {
                for alias in &i.names {
                    let name = alias.asname.as_ref().unwrap_or(&alias.name).id.as_str();
                    let first = name.split('.').next().unwrap_or(name);
                    self.bound.insert(first.to_string());
                }
            }
            Stmt::ImportFrom(i) => {
                for alias in &i.names {
                    let name = alias.asname.as_ref().unwrap_or(&alias.name);
                    self.bound.insert(name.id.to_string());
                }
            }
            Stmt::Try(t) => {
                for handler in &t.handlers {
                    let ruff_python_ast::ExceptHandler::ExceptHandler(h) = handler;
                    if let Some(name) = &h.name {
                        self.bound.insert(name.id.to_string());
                    }
                }
            }
            _ => {}
        }
        // Nested scopes are walked too (see `owned_names`).
        walk_stmt(self, stmt);
    }

    fn visit_expr(&mut self, expr: &'b Expr) {
        if let Expr::Name(n) = expr {
            if matches!(n.ctx, ExprContext::Store | ExprContext::Del) {
                self.bound.insert(n.id.to_string());
            }
        }
        walk_expr(self, expr);
    }

    fn visit_pattern(&mut self, pattern: &'b Pattern) {
        match pattern {
            Pattern::MatchAs(p) => self.bound.extend(p.name.iter().map(|n| n.id.to_string())),
            Pattern::MatchStar(p) => self.bound.extend(p.name.iter().map(|n| n.id.to_string())),
            Pattern::MatchMapping(p) => self.bound.extend(p.rest.iter().map(|n| n.id.to_string())),
            _ => {}
        }
        walk_pattern(self, pattern);
    }
}

#[cfg(test)]
mod tests {
    use super::owned_names;
    use crate::testing::assert_width_cases;

    /// What closures change or read of their enclosing function's variables, each case
    /// with the width torch 2.15 accepts and one it rejects (`[4, n] @ [WIDTH, 3]`).
    #[test]
    fn closures_share_their_enclosing_variables() {
        let cases = [
            // Changed in place by a closure the function calls.
            (
                "seen = []\n    def add(n):\n        seen.append(n)\n    add(2)\n    n = len(seen)",
                "1",
            ),
            // Read when the closure runs, not when it was defined.
            (
                "layers = []\n    def count():\n        return len(layers)\n    layers.append(1)\n    layers.append(1)\n    n = count()",
                "2",
            ),
            // Rebound after `nonlocal`.
            (
                "total = 0\n    def inc():\n        nonlocal total\n        total += 1\n    inc()\n    inc()\n    inc()\n    n = total",
                "3",
            ),
            // A name the closure binds is its own.
            (
                "seen = []\n    def fill():\n        seen = [1, 2, 3]\n        return seen\n    fill()\n    n = len(seen) + 1",
                "1",
            ),
            // Changed by a closure another function calls.
            (
                "seen = []\n    def add(k):\n        seen.append(k)\n    def twice(f):\n        f(1)\n        f(2)\n    twice(add)\n    n = len(seen)",
                "2",
            ),
            // Lambdas too.
            (
                "seen = []\n    add = lambda k: seen.append(k)\n    add(1)\n    add(2)\n    n = len(seen)",
                "2",
            ),
            (
                "layers = []\n    count = lambda: len(layers)\n    layers.append(1)\n    n = count()",
                "1",
            ),
        ];
        assert_width_cases("import torch\n\ndef f():\n", &cases);
    }

    #[test]
    fn a_function_owns_what_it_binds_and_not_what_it_declares_nonlocal() {
        let module = ruff_python_parser::parse_module(
            "def g(a):\n    nonlocal t\n    t = 1\n    x = 2\n    for i in a: pass\n    import os.path\n    def h():\n        nonlocal x\n    seen.append(a)\n",
        )
        .expect("parses");
        let ruff_python_ast::Stmt::FunctionDef(def) = &module.syntax().body[0] else {
            panic!("a def");
        };
        let mut owned: Vec<String> = owned_names(def).into_iter().collect();
        owned.sort();
        assert_eq!(owned, ["h", "i", "os", "x"]);
    }
}
