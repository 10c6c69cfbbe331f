//! Lists, dicts, sets and arrays a call passes by name to a function of the program: what the
//! caller's name holds after the call.
//!
//! They are values in the analysis, but Python passes the object, so what the callee changes
//! in place (`blocks.append(layer)` in a `self._make_layer(blocks, n)` helper, `table[k] = v`)
//! the caller sees. When the callee ran to its end, never rebinds the parameter, and has no
//! early `return` (its end then stands for every way out of it), the caller's name takes the
//! parameter's value at the callee's end: what the callee and the calls it made changed. When
//! not, a value the callee may change in place is unknown after the call (an array keeps its
//! shape and forgets its content). The callee is found whatever the call's form (a function,
//! a method, a class's `__init__`, a closure): the call reports how it finished
//! ([`Finished`]), and the value passed is recognised among its parameters.

use rustc_hash::{FxHashMap as HashMap, FxHashSet};
use std::cell::OnceCell;
use std::rc::Rc;

use ruff_python_ast::visitor::{walk_expr, walk_stmt, Visitor};
use ruff_python_ast::{Expr, Stmt, StmtFunctionDef};

use super::value::V;

/// How a call of a program function a call site watches finished.
pub struct Finished<'a> {
    def: &'a StmtFunctionDef,
    /// The parameters bound to a list, dict, set or array, with the value each started with.
    entry: Vec<(String, V<'a>)>,
    /// The frame at the end, when the call ran to its end.
    exit: Option<Rc<HashMap<String, V<'a>>>>,
    /// What the callee's text says of its parameters, read at the first question.
    text: OnceCell<CalleeText<'a>>,
}

/// What a function's text says of its parameters.
struct CalleeText<'a> {
    /// Names it binds (a parameter among them is rebound).
    owned: FxHashSet<String>,
    /// It has no early `return` ([`ends_only_at_its_end`]).
    ends_at_end: bool,
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
        exit: Option<Rc<HashMap<String, V<'a>>>>,
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
            ends_at_end: ends_only_at_its_end(self.def),
            mutated: mutated_params(self.def),
        });
        if !text.owned.contains(name) && text.ends_at_end {
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

/// Whether a function leaves only by reaching its end (or a `return` that ends its body):
/// no `return` before, no `yield` (a generator's body runs later).
fn ends_only_at_its_end(def: &StmtFunctionDef) -> bool {
    #[derive(Default)]
    struct Exits {
        early: bool,
    }
    impl<'b> Visitor<'b> for Exits {
        fn visit_stmt(&mut self, s: &'b Stmt) {
            match s {
                Stmt::Return(_) => self.early = true,
                // Their own returns are theirs.
                Stmt::FunctionDef(_) | Stmt::ClassDef(_) => {}
                _ => walk_stmt(self, s),
            }
        }
        fn visit_expr(&mut self, e: &'b Expr) {
            match e {
                Expr::Yield(_) | Expr::YieldFrom(_) => self.early = true,
                Expr::Lambda(_) => {}
                _ => walk_expr(self, e),
            }
        }
    }
    let mut exits = Exits::default();
    let body = match def.body.split_last() {
        Some((Stmt::Return(r), rest)) => {
            if let Some(value) = &r.value {
                exits.visit_expr(value);
            }
            rest
        }
        _ => &def.body[..],
    };
    for stmt in body {
        exits.visit_stmt(stmt);
    }
    !exits.early
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

    /// A callee with an early `return` may leave by it: what it changed is not known, so no
    /// width is an alarm.
    #[test]
    fn a_callee_that_may_return_early_leaves_its_arguments_unknown() {
        for width in ["1", "2", "5"] {
            let src = format!(
                "{HELPERS}    blocks = [1]\n    add_unless(blocks, len(blocks) > 3)\n    n = len(blocks)\n    return torch.zeros(4, n) @ torch.zeros({width}, 3)\n"
            );
            assert_eq!(finding_lines(&src), Vec::<u32>::new(), "width {width}");
        }
    }
}
