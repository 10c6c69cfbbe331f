//! The methods of a module class that run as units of their own besides `forward`: public
//! methods that take tensors (`loss(x, y)`, `sample(z)`, `guided(x, t, y)`), each on the
//! model `__init__` built, with the state other methods store forgotten.

use ruff_python_ast::visitor::{walk_stmt, Visitor};
use ruff_python_ast::{Expr, Stmt, StmtClassDef, StmtFunctionDef};

use super::params::{classify, is_name, Kinds};

/// The attributes of `self` a method of `class` other than `__init__` assigns (`self.x =
/// ..`, `self.x += ..`, `self.x[i] = ..`).
pub fn state_stored_outside_init(class: &StmtClassDef) -> Vec<String> {
    struct Stores(Vec<String>);
    impl Stores {
        fn target(&mut self, t: &Expr) {
            match t {
                Expr::Attribute(a) if is_name(&a.value, "self") => {
                    self.0.push(a.attr.id.to_string());
                }
                Expr::Subscript(s) => self.target(&s.value),
                Expr::Tuple(t) => t.elts.iter().for_each(|e| self.target(e)),
                Expr::List(l) => l.elts.iter().for_each(|e| self.target(e)),
                Expr::Starred(s) => self.target(&s.value),
                _ => {}
            }
        }
    }
    impl<'b> Visitor<'b> for Stores {
        fn visit_stmt(&mut self, s: &'b Stmt) {
            match s {
                Stmt::Assign(a) => a.targets.iter().for_each(|t| self.target(t)),
                Stmt::AugAssign(a) => self.target(&a.target),
                Stmt::AnnAssign(a) => self.target(&a.target),
                _ => {}
            }
            walk_stmt(self, s);
        }
    }
    let mut stores = Stores(Vec::new());
    for stmt in &class.body {
        if let Stmt::FunctionDef(def) = stmt {
            if def.name.id.as_str() != "__init__" {
                stores.visit_body(&def.body);
            }
        }
    }
    stores.0
}

/// At most this many methods besides `forward` run per class.
pub const MAX_METHODS: usize = 4;

/// The class's own public methods other than `forward` with a parameter the body uses as a
/// tensor, with their parameters' kinds (by evidence only: no convention makes a method's
/// parameter a tensor). Decorated methods run only under torch's decorators
/// (`@torch.no_grad()`): a static or class method, a property or a wrapper of unknown
/// effect does not.
pub fn tensor_methods(class: &StmtClassDef) -> impl Iterator<Item = (&StmtFunctionDef, Kinds)> {
    class.body.iter().filter_map(|stmt| {
        let Stmt::FunctionDef(def) = stmt else {
            return None;
        };
        let name = def.name.id.as_str();
        let torch_decorator = |d: &ruff_python_ast::Decorator| {
            let e = match &d.expression {
                Expr::Call(c) => &*c.func,
                other => other,
            };
            matches!(e, Expr::Attribute(a) if is_name(&a.value, "torch"))
        };
        if name == "forward"
            || name.starts_with('_')
            || !def.decorator_list.iter().all(torch_decorator)
        {
            return None;
        }
        let kinds = classify(def, true, false);
        kinds
            .iter()
            .any(|(_, kind, _)| kind.is_tensor())
            .then_some((def, kinds))
    })
}

#[cfg(test)]
mod tests {
    use crate::testing::assert_twins;

    /// A training-loss method runs on its own: its bug is found at its line.
    #[test]
    fn a_loss_method_runs_as_a_unit() {
        let src = r#"
import torch
from torch import nn
import torch.nn.functional as F

class Head(nn.Module):
    def __init__(self, d, k):
        super().__init__()
        self.k = k
        self.pi = nn.Linear(d, k)

    def forward(self, h):
        return self.pi(h)

    def loss(self, h, y):
        b, _ = h.shape
        return F.log_softmax(self(h), dim=DIM).mean()
"#;
        assert_twins(src, "DIM", "2", "1", 17);
    }

    /// State another method stores (anchors `forward` caches over `__init__`'s empty
    /// placeholder) is unknown when a method runs, never the placeholder.
    #[test]
    fn state_stored_by_other_methods_is_unknown_in_a_method() {
        let src = r#"
import torch
from torch import nn

class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.anchors = torch.empty(0)

    def forward(self, x):
        self.anchors = torch.zeros(2, x.shape[1])
        return x

    def decode(self, kpts):
        b, n = kpts.shape
        return kpts.permute(PERM) + self.anchors[0]
"#;
        assert_twins(src, "PERM", "0, 1, 2", "1, 0", 16);
    }
}
