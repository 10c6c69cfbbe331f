//! What a function's decorators do to its calls. The analysis runs the undecorated body; that
//! is sound only when the decorator returns the function itself (a registry such as timm's
//! `@register_model`, `functools.lru_cache`, torch's `no_grad`/`jit` decorators) or changes
//! only how it is called (`staticmethod`, `property`). A decorator that wraps the function may
//! change its result (BasicSR's `@weighted_loss` reduces an element-wise loss to a scalar): the
//! body still runs, since what fails in it fails in the wrapper's call too, but the call's
//! result is unknown. A decorator that registers what it decorates (`TABLE[name] = cls`,
//! directly or made by a factory: `@register("name")`) also runs where it decorates, as in
//! Python, so that a registry holds what the program put in it.

use ruff_python_ast::{Decorator, Expr, Stmt, StmtFunctionDef};
use ruff_text_size::TextRange;

use super::interp::Interp;
use super::value::V;

/// Decorators known to keep the result of the function (by the last name of their path).
const KEEP_RESULT: &[&str] = &[
    "staticmethod",
    "classmethod",
    "property",
    "setter",
    "getter",
    "deleter",
    "cached_property",
    "abstractmethod",
    "overload",
    "override",
    "final",
    "wraps",
    "lru_cache",
    "cache",
    "no_grad",
    "inference_mode",
    "enable_grad",
    "set_grad_enabled",
    "script",
    "script_method",
    "ignore",
    "unused",
    "export",
    "compile",
    "wrap",
    "autocast",
    "custom_fwd",
    "custom_bwd",
    "handle_legacy_interface",
    "kwonly_to_pos_or_kw",
    "deprecated",
];

/// The last name of a decorator's callee (`torch.no_grad` of `@torch.no_grad()`).
fn callee(e: &Expr) -> (&Expr, bool) {
    match e {
        Expr::Call(c) => (&c.func, true),
        other => (other, false),
    }
}

/// The last name of a dotted expression (`f` of `f` or `m.f`).
pub(super) fn last_name(e: &Expr) -> Option<&str> {
    match e {
        Expr::Name(n) => Some(n.id.as_str()),
        Expr::Attribute(a) => Some(a.attr.id.as_str()),
        _ => None,
    }
}

/// Whether `def` returns its first parameter unchanged somewhere (`return fn`, `return cls`).
fn returns_its_argument(def: &StmtFunctionDef) -> bool {
    let Some(first) = def.parameters.args.first() else {
        return false;
    };
    let name = first.parameter.name.id.as_str();
    returns(
        &def.body,
        &|e| matches!(e, Expr::Name(n) if n.id.as_str() == name),
    )
}

/// Whether `def` stores its first parameter in a container (`TABLE[name] = cls`,
/// `MODELS.append(fn)`): a registry's decorator, run where it decorates.
fn stores_its_argument(def: &StmtFunctionDef) -> bool {
    use ruff_python_ast::visitor::{walk_expr, walk_stmt, Visitor};
    struct Stores<'n> {
        name: &'n str,
        found: bool,
    }
    impl Stores<'_> {
        fn is_it(&self, e: &Expr) -> bool {
            matches!(e, Expr::Name(n) if n.id.as_str() == self.name)
        }
    }
    impl<'b> Visitor<'b> for Stores<'_> {
        fn visit_stmt(&mut self, s: &'b Stmt) {
            match s {
                Stmt::FunctionDef(_) | Stmt::ClassDef(_) => {}
                Stmt::Assign(a)
                    if self.is_it(&a.value)
                        && a.targets.iter().any(|t| matches!(t, Expr::Subscript(_))) =>
                {
                    self.found = true;
                }
                _ => walk_stmt(self, s),
            }
        }
        fn visit_expr(&mut self, e: &'b Expr) {
            if let Expr::Call(c) = e {
                let stores = matches!(&*c.func, Expr::Attribute(a)
                    if matches!(a.attr.id.as_str(), "append" | "add" | "setdefault"));
                if stores && c.arguments.args.iter().any(|a| self.is_it(a)) {
                    self.found = true;
                }
            }
            if !matches!(e, Expr::Lambda(_)) {
                walk_expr(self, e);
            }
        }
    }
    let Some(first) = def.parameters.args.first() else {
        return false;
    };
    let mut stores = Stores {
        name: first.parameter.name.id.as_str(),
        found: false,
    };
    for s in &def.body {
        stores.visit_stmt(s);
    }
    stores.found
}

/// Whether `def`, used as a decorator (`called`: as `@def(...)`), registers what it
/// decorates: it stores its argument ([`stores_its_argument`]), or, called, makes a function
/// that does (`def register(name): def wrap(cls): TABLE[name] = cls ...`).
pub(super) fn registering(def: &StmtFunctionDef, called: bool) -> bool {
    match called {
        false => stores_its_argument(def),
        true => made_decorators(def).any(stores_its_argument),
    }
}

/// The functions a decorator factory defines and returns (`def register(name): def
/// deco(cls): ...; return deco`): the decorators it makes.
fn made_decorators(factory: &StmtFunctionDef) -> impl Iterator<Item = &StmtFunctionDef> {
    factory.body.iter().filter_map(move |s| match s {
        Stmt::FunctionDef(inner)
            if returns(
                &factory.body,
                &|e| matches!(e, Expr::Name(n) if n.id.as_str() == inner.name.id.as_str()),
            ) =>
        {
            Some(inner)
        }
        _ => None,
    })
}

/// Whether a `return` in `body` (not in nested functions) returns an expression `is`.
fn returns(body: &[Stmt], is: &dyn Fn(&Expr) -> bool) -> bool {
    body.iter().any(|s| match s {
        Stmt::Return(r) => r.value.as_deref().is_some_and(is),
        Stmt::If(i) => {
            returns(&i.body, is) || i.elif_else_clauses.iter().any(|c| returns(&c.body, is))
        }
        Stmt::Try(t) => returns(&t.body, is) || returns(&t.orelse, is),
        Stmt::With(w) => returns(&w.body, is),
        _ => false,
    })
}

/// Whether a decorator factory (`def register(name): def deco(cls): ...; return cls; return
/// deco`) makes a decorator that returns its argument.
fn factory_of_identity(def: &StmtFunctionDef) -> bool {
    made_decorators(def).any(returns_its_argument)
}

/// Whether `def` is memoised (`functools.lru_cache`, `functools.cache`): a call with the
/// arguments of an earlier call returns that call's result without running the body.
pub(super) fn is_memoised(def: &StmtFunctionDef) -> bool {
    def.decorator_list.iter().any(|d| {
        last_name(callee(&d.expression).0).is_some_and(|n| matches!(n, "lru_cache" | "cache"))
    })
}

impl<'a> Interp<'a> {
    /// Whether the decorator named `callee` registers what it decorates ([`registering`]).
    /// An import not yet resolved is read in its module's text first, so that deciding
    /// loads nothing for a decorator that does not register (`@auto_docstring`).
    pub(super) fn registering_decorator(&mut self, callee: &Expr, called: bool) -> bool {
        let Expr::Name(n) = callee else {
            return false;
        };
        let name = n.id.as_str();
        let bound = self
            .run
            .locals
            .last()
            .and_then(|f| f.get(name))
            .or_else(|| self.globals.get(name))
            .cloned();
        match bound {
            Some(V::Func(def) | V::Closure(def, _)) => registering(def, called),
            Some(V::Lazy(target)) => {
                self.defined_in_text(&target.0, &target.1, |def| registering(def, called))
            }
            _ => false,
        }
    }

    /// The decorators of a `def` or `class` statement that register it run on it, bottom up,
    /// as Python runs them at the statement: a function of the program that stores its
    /// argument in a container (`TABLE[name] = cls`), or the decorator a factory of the
    /// program makes (`@register("name")`). The name stays bound to the definition (the
    /// analysis runs the undecorated body; see the module docs). Other decorators (torch's,
    /// the standard library's, ones that rewrite docstrings or wrap) are not run.
    pub(super) fn run_program_decorators(
        &mut self,
        decorators: &'a [Decorator],
        defined: V<'a>,
        span: TextRange,
    ) {
        let mut made = Vec::with_capacity(decorators.len());
        for d in decorators {
            let (callee, called) = callee(&d.expression);
            if self.registering_decorator(callee, called) {
                made.push(match called {
                    true => self.eval(&d.expression),
                    false => self.eval(callee),
                });
            }
        }
        for decorator in made.into_iter().rev() {
            if matches!(&decorator, V::Func(f) | V::Closure(f, _) if stores_its_argument(f)) {
                self.call(decorator, vec![defined.clone()], Vec::new(), span);
            }
        }
    }

    /// Whether a decorator of `def` may replace what a call returns (see the module docs).
    pub(super) fn decorated_result_unknown(&mut self, def: &'a StmtFunctionDef) -> bool {
        def.decorator_list
            .iter()
            .any(|d| !self.keeps_result(&d.expression))
    }

    fn keeps_result(&mut self, decorator: &'a Expr) -> bool {
        let (func, called) = callee(decorator);
        let Some(name) = last_name(func) else {
            return false;
        };
        if KEEP_RESULT.contains(&name) || name.starts_with("register") {
            return true;
        }
        let value = match func {
            Expr::Name(_) if self.globals.contains_key(name) => self.lookup(name),
            Expr::Name(_) => return false,
            other => self.eval(other),
        };
        match value {
            V::Func(f) if called => factory_of_identity(f),
            V::Func(f) => returns_its_argument(f),
            V::Torch(_) | V::Builtin(_) => true,
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::{finding_lines, findings};

    /// `@lru_cache` runs the body once per arguments in a run, as Python does: eight
    /// calls of `table(60)` (3,600 statements each) spend a unit's 20,000-statement budget
    /// unless memoised, and a unit over budget proves nothing; memoised, the failure after
    /// them is found. Without the decorator it is not.
    #[test]
    fn memoised_functions_run_once_per_arguments() {
        let code = r#"
import functools
import torch

@functools.lru_cache
def table(n):
    out = 0
    for i in range(n):
        for j in range(n):
            out = out + 1
    return out

for k in range(8):
    table(60)
bad = torch.zeros(2) + torch.zeros(3)
"#;
        assert_eq!(finding_lines(code), vec![15]);
        let plain = code.replace("@functools.lru_cache\n", "");
        assert!(findings(&plain).is_empty());
    }

    const LOSS: &str = r#"
import torch
import torch.nn.functional as F

def weighted(fn):
    def wrapper(pred, target):
        return fn(pred, target).mean()
    return wrapper

REGISTRY = {}

def register(name):
    def deco(fn):
        REGISTRY[name] = fn
        return fn
    return deco

@weighted
def l1(pred, target):
    return (pred - target).abs()

@register("l2")
def l2(pred, target):
    return (pred - target) ** 2

a = l1(torch.randn(2, 3), torch.randn(2, 3))
b = l1(torch.randn(3, 2), torch.randn(3, 2))
c = a + b
d = l2(torch.randn(2, 3), torch.randn(2, 3)) + l2(torch.randn(3, 2), torch.randn(3, 2))
"#;

    /// A wrapping decorator's result is unknown (`a + b` adds two scalars in Python); a
    /// registry's is the function's own (`l2(...) + l2(...)` fails: [2, 3] + [3, 2]).
    #[test]
    fn wrapping_decorators_make_the_result_unknown_registries_do_not() {
        let found = findings(LOSS);
        let lines: Vec<u32> = found.iter().map(|f| f.span.line).collect();
        assert_eq!(lines, vec![29], "{found:?}");
    }
}
