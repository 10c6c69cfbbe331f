//! Lists, dicts, sets and arrays a call passes by name to a function of the program: what the
//! caller's name holds after the call.
//!
//! They are values in the analysis, but Python passes the object, so what the callee changes
//! in place (`blocks.append(layer)` in a `self._make_layer(blocks, n)` helper, `table[k] = v`)
//! the caller sees. When the callee ran to its end (no exception on every path), never rebinds
//! the parameter and is not a generator, the caller's name takes the parameter's value where
//! the callee left: at its end and at each `return` it ran, joined (what the callee and the
//! calls it made changed). When not, a value the callee may change in place is unknown after
//! the call (an array keeps its shape and forgets its content). The callee is found whatever the call's form (a function,
//! a method, a class's `__init__`, a closure): the call reports how it finished
//! ([`Finished`]), and the value passed is recognised among its parameters.

use rustc_hash::{FxHashMap as HashMap, FxHashSet};
use std::cell::OnceCell;

use ruff_python_ast::visitor::{walk_expr, walk_stmt, Visitor};
use ruff_python_ast::{Expr, Stmt, StmtFunctionDef};

use super::interp::{Frame, Interp};
use super::value::V;

/// How a call of a program function a call site watches finished.
pub struct Finished<'a> {
    def: &'a StmtFunctionDef,
    /// The parameters bound to a list, dict, set or array, with the value each started with.
    entry: Vec<(String, V<'a>)>,
    /// What each parameter of `entry` held where the call left (joined over its `return`s
    /// and its end), when it ran to its end.
    exit: Option<HashMap<String, V<'a>>>,
    /// What the callee's text says of its parameters, read at the first question.
    text: OnceCell<CalleeText<'a>>,
}

/// What a function's text says of its parameters.
struct CalleeText<'a> {
    /// Names it binds (a parameter among them is rebound).
    owned: FxHashSet<String>,
    /// It is a generator: its body runs later, as it is iterated ([`is_generator`]).
    generator: bool,
    /// Parameters it changes in place ([`mutated_params`]).
    mutated: Vec<&'a str>,
}

/// What a value passed to the call became.
pub enum After<'a> {
    /// The callee does not change it.
    Unchanged,
    /// The value the parameter holds at the callee's end.
    Known(V<'a>),
    /// The callee may change it, no telling how.
    Changed,
}

/// Whether a value is one a callee can change in place.
pub fn changeable(v: &V) -> bool {
    matches!(v, V::List(_) | V::Dict(_) | V::Set(_) | V::Array(_))
}

impl<'a> Finished<'a> {
    pub fn new(
        def: &'a StmtFunctionDef,
        entry: Vec<(String, V<'a>)>,
        exit: Option<HashMap<String, V<'a>>>,
    ) -> Self {
        Finished {
            def,
            entry,
            exit,
            text: OnceCell::new(),
        }
    }

    /// What `passed` (a value the call site passed) became; `None` when it is not one
    /// parameter's value (the call watched ran other code than the callee, or two parameters
    /// got equal values).
    pub fn after(&self, passed: &V<'a>) -> Option<After<'a>> {
        let mut names = self.entry.iter().filter(|(_, v)| v.same(passed));
        let (name, _) = names.next()?;
        if names.next().is_some() {
            return None;
        }
        let text = self.text.get_or_init(|| CalleeText {
            owned: super::closures::owned_names(self.def),
            generator: is_generator(self.def),
            mutated: mutated_params(self.def),
        });
        if !text.owned.contains(name) && !text.generator {
            if let Some(v) = self.exit.as_ref().and_then(|frame| frame.get(name)) {
                return Some(if v.same(passed) {
                    After::Unchanged
                } else {
                    After::Known(v.clone())
                });
            }
        }
        Some(if text.mutated.contains(&name.as_str()) {
            After::Changed
        } else {
            After::Unchanged
        })
    }
}

/// What a value a callee may have changed in place is after the call.
pub fn forgotten<'a>(v: &V<'a>) -> V<'a> {
    match v {
        V::Array(t) => V::Array(Box::new((**t).clone().without_content())),
        _ => V::Unknown,
    }
}

/// Whether `def` is a generator (a `yield` in its own body, not in a nested function).
fn is_generator(def: &StmtFunctionDef) -> bool {
    #[derive(Default)]
    struct Yields {
        found: bool,
    }
    impl<'b> Visitor<'b> for Yields {
        fn visit_stmt(&mut self, s: &'b Stmt) {
            match s {
                // Their own yields are theirs.
                Stmt::FunctionDef(_) | Stmt::ClassDef(_) => {}
                _ => walk_stmt(self, s),
            }
        }
        fn visit_expr(&mut self, e: &'b Expr) {
            match e {
                Expr::Yield(_) | Expr::YieldFrom(_) => self.found = true,
                Expr::Lambda(_) => {}
                _ => walk_expr(self, e),
            }
        }
    }
    let mut yields = Yields::default();
    for stmt in &def.body {
        yields.visit_stmt(stmt);
    }
    yields.found
}

impl<'a> Interp<'a> {
    /// What each parameter of `entry` holds where a call left it, over the `frames` it left
    /// by (each `return` it ran, and its end), joined; unknown where a frame lacks it.
    pub(super) fn passed_at_exits(
        &mut self,
        entry: &[(String, V<'a>)],
        frames: impl Iterator<Item = Frame<'a>>,
    ) -> HashMap<String, V<'a>> {
        let frames: Vec<Frame<'a>> = frames.collect();
        let mut out = HashMap::default();
        for (name, _) in entry {
            let mut joined: Option<V<'a>> = None;
            for frame in &frames {
                let v = frame.get(name).cloned().unwrap_or(V::Unknown);
                joined = Some(match joined {
                    None => v,
                    Some(prev) => self.join(prev, v),
                });
            }
            out.insert(name.clone(), joined.unwrap_or(V::Unknown));
        }
        out
    }
}

/// The parameters `def` mutates in place (`p.append(x)`, `p[k] = v`, `p += [...]`, ...),
/// which its caller sees through the object it passed.
pub fn mutated_params(def: &StmtFunctionDef) -> Vec<&str> {
    struct Mutations<'n> {
        names: Vec<&'n str>,
        found: Vec<&'n str>,
    }
    impl Mutations<'_> {
        fn note(&mut self, e: &Expr) {
            if let Expr::Name(n) = e {
                if let Some(name) = self.names.iter().find(|p| **p == n.id.as_str()) {
                    self.found.push(name);
                }
            }
        }
    }
    impl<'b> Visitor<'b> for Mutations<'_> {
        fn visit_expr(&mut self, e: &'b Expr) {
            if let Expr::Call(c) = e {
                if let Expr::Attribute(a) = &*c.func {
                    if matches!(
                        a.attr.id.as_str(),
                        "append"
                            | "extend"
                            | "insert"
                            | "pop"
                            | "remove"
                            | "clear"
                            | "update"
                            | "setdefault"
                            | "add"
                            | "sort"
                            | "reverse"
                    ) {
                        self.note(&a.value);
                    }
                }
            }
            walk_expr(self, e);
        }
        fn visit_stmt(&mut self, s: &'b Stmt) {
            match s {
                Stmt::Assign(a) => {
                    for t in &a.targets {
                        if let Expr::Subscript(sub) = t {
                            self.note(&sub.value);
                        }
                    }
                }
                Stmt::AugAssign(a) => self.note(&a.target),
                _ => {}
            }
            walk_stmt(self, s);
        }
    }
    let p = &def.parameters;
    let mut v = Mutations {
        names: p
            .posonlyargs
            .iter()
            .chain(p.args.iter())
            .chain(p.kwonlyargs.iter())
            .map(|a| a.parameter.name.id.as_str())
            .collect(),
        found: Vec::new(),
    };
    for stmt in &def.body {
        v.visit_stmt(stmt);
    }
    v.found
}

#[cfg(test)]
mod tests {
    use crate::testing::{assert_width_cases, finding_lines};

    const HELPERS: &str = r#"import torch

def add_blocks(blocks, n):
    for _ in range(n):
        blocks.append(torch.nn.Linear(4, 4))

def add_twice(blocks):
    add_blocks(blocks, 1)
    add_blocks(blocks, 1)

def put(table, k, v):
    table[k] = v

def add_unless(blocks, skip):
    if skip:
        return
    blocks.append(1)

def add_then_stop(blocks, n):
    blocks.append(1)
    if n > 2:
        return blocks
    blocks.append(2)
    return blocks

class Builder:
    def add(self, blocks, n):
        add_blocks(blocks, n)

def f():
"#;

    /// What a function of the program changes in place in a list or dict it is passed, the
    /// caller sees; each case with the width torch 2.15 accepts (`[4, n] @ [WIDTH, 3]`) and
    /// one it rejects.
    #[test]
    fn callers_see_what_callees_change_in_what_they_are_passed() {
        let cases = [
            (
                "blocks = []\n    add_blocks(blocks, 3)\n    n = len(blocks)",
                "3",
            ),
            (
                "blocks = []\n    add_blocks(n=2, blocks=blocks)\n    n = len(blocks)",
                "2",
            ),
            (
                "blocks = []\n    add_twice(blocks)\n    n = len(blocks)",
                "2",
            ),
            (
                "table = {}\n    put(table, 'w', 6)\n    n = table['w']",
                "6",
            ),
            (
                "blocks = []\n    Builder().add(blocks, 2)\n    n = len(blocks)",
                "2",
            ),
        ];
        assert_width_cases(HELPERS, &cases);
    }

    /// A callee with an early `return` leaves what it changed by the way it took: the
    /// `return`s it ran and its end, joined.
    #[test]
    fn a_callee_that_returns_early_leaves_what_it_changed_on_the_way_it_took() {
        let cases = [
            (
                "blocks = [1]\n    add_unless(blocks, len(blocks) > 3)\n    n = len(blocks)",
                "2",
            ),
            (
                "blocks = [1]\n    add_unless(blocks, True)\n    n = len(blocks)",
                "1",
            ),
            (
                "blocks = [1]\n    add_then_stop(blocks, 3)\n    n = len(blocks)",
                "2",
            ),
            (
                "blocks = [1]\n    add_then_stop(blocks, 1)\n    n = len(blocks)",
                "3",
            ),
        ];
        assert_width_cases(HELPERS, &cases);
    }

    /// When either way out may be taken, what the callee changed is not known: no width is
    /// an alarm.
    #[test]
    fn a_callee_that_may_leave_either_way_leaves_its_arguments_unknown() {
        for width in ["1", "2", "5"] {
            let src = format!(
                "{HELPERS}    blocks = [1]\n    add_unless(blocks, torch.rand(1).item() > 0.5)\n    n = len(blocks)\n    return torch.zeros(4, n) @ torch.zeros({width}, 3)\n"
            );
            assert_eq!(finding_lines(&src), Vec::<u32>::new(), "width {width}");
        }
    }
}
