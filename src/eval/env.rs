//! Environments: snapshots of the names and object attributes a branch may change, and the
//! joins that merge two paths (equal values stay; tensors of one rank keep the dims that agree
//! and get fresh symbols elsewhere; anything else becomes unknown).

use rustc_hash::FxHashMap as HashMap;
use std::rc::Rc;

use super::interp::Interp;
use super::value::{TorchModule, V};
use crate::shapes::shape::{Dim, Shape};
use crate::shapes::{DimExpr, Pred, Value};

/// Choices between layers one value may nest (a layer chosen by three undecided branches
/// is one of up to eight); past that it is unknown.
const MAX_CHOICES: usize = 7;

impl<'a> Interp<'a> {
    pub fn snapshot(&self) -> Snapshot<'a> {
        Snapshot {
            locals: self.run.locals.last().cloned(),
            globals: if self.run.locals.is_empty() {
                Some(self.globals.clone())
            } else {
                None
            },
            objects: self.object_states(),
        }
    }

    pub fn restore(&mut self, s: Snapshot<'a>) {
        if let (Some(l), Some(frame)) = (s.locals, self.run.locals.last_mut()) {
            *frame = l;
        }
        if let Some(g) = s.globals {
            self.globals = g;
        }
        for (o, attrs) in s.objects {
            o.borrow_mut().attrs = attrs;
        }
    }

    /// The attributes of every object reachable from the current names: the running frame,
    /// the `self` of the innermost running method (what `super()` reads), and the module's
    /// globals at its top level. The `self`s of the methods that called it are not walked:
    /// what the running code can change of them it reaches through those names (walking a
    /// model's whole tree at every `if` of each of its layers was a tenth of a scan). Inside
    /// a function the module's globals are not walked either, as before: an object only a
    /// global holds keeps what one side of a branch wrote.
    pub fn object_states(&self) -> Vec<super::value::ObjectState<'a>> {
        let locals = self.run.locals.last().into_iter().flat_map(|f| f.values());
        let own_self = self.run.class_ctx.last().map(|(_, s)| s);
        let globals = self.globals.values().filter(|_| self.run.locals.is_empty());
        reachable_objects(locals.chain(own_self).chain(globals), false)
    }

    /// The state a unit's runs share after building a model: the trace so far, the symbol
    /// names handed out, and the attributes of every object reachable from `root`.
    pub fn checkpoint(&self, root: &V<'a>) -> Checkpoint<'a> {
        Checkpoint {
            trace: self.run.trace.clone(),
            hints: self.hints.clone(),
            objects: reachable_objects([root], true),
            dead: self.run.dead,
        }
    }

    /// Back to a checkpoint, as if what ran since had not.
    pub fn rewind(&mut self, c: &Checkpoint<'a>) {
        self.run.trace = c.trace.clone();
        self.hints = c.hints.clone();
        for (o, attrs) in &c.objects {
            o.borrow_mut().attrs = attrs.clone();
        }
        self.run.locals.clear();
        self.run.global_names.clear();
        self.run.guards.clear();
        self.run.dead = c.dead;
    }

    /// `f` of each side of a choice, under its guard, joined. A side that raises leaves the
    /// other's result, and its guard on what follows (as a branch that raises does).
    pub fn on_each_side(
        &mut self,
        e: &super::value::Either<'a>,
        mut f: impl FnMut(&mut Self, V<'a>) -> V<'a>,
    ) -> V<'a> {
        let was_dead = self.run.dead;
        let not_g = Pred::Not(Box::new(e.guard.clone()));
        let a = self.under(e.guard.clone(), |me| f(me, e.then.clone()));
        let a_dead = std::mem::replace(&mut self.run.dead, was_dead);
        let b = self.under(not_g.clone(), |me| f(me, e.other.clone()));
        let b_dead = std::mem::replace(&mut self.run.dead, was_dead);
        match (a_dead, b_dead) {
            (true, true) => {
                self.run.dead = true;
                V::Unknown
            }
            (true, false) => {
                self.run.guards.push(not_g);
                b
            }
            (false, true) => {
                self.run.guards.push(e.guard.clone());
                a
            }
            (false, false) => self.join_under(a, b, Some(&e.guard)),
        }
    }

    /// `f` run with `guard` pushed on the path condition.
    pub fn under<T>(&mut self, guard: Pred, f: impl FnOnce(&mut Self) -> T) -> T {
        self.run.guards.push(guard);
        let out = f(self);
        self.run.guards.pop();
        out
    }

    /// Joins the state `b` into the current state, which must equal `a`.
    pub fn join_into(&mut self, a: Snapshot<'a>, b: Snapshot<'a>) {
        self.join_branches(a, b, None)
    }

    /// Joins the state `b` into the current state, which must equal `a`; `guard`, when
    /// known, is where `a` holds (and `b` elsewhere), so layers that differ become a choice.
    pub fn join_branches(&mut self, a: Snapshot<'a>, b: Snapshot<'a>, guard: Option<&Pred>) {
        if let (Some(la), Some(lb)) = (a.locals, b.locals) {
            // The frame is `a`'s: it lets go of it, so that `a`'s names are joined in place.
            if let Some(frame) = self.run.locals.last_mut() {
                *frame = Rc::default();
            }
            let joined = self.join_maps(Rc::unwrap_or_clone(la), Rc::unwrap_or_clone(lb), guard);
            if let Some(frame) = self.run.locals.last_mut() {
                *frame = Rc::new(joined);
            }
        }
        if let (Some(ga), Some(gb)) = (a.globals, b.globals) {
            let joined = self.join_maps(Rc::unwrap_or_clone(ga), Rc::unwrap_or_clone(gb), guard);
            self.globals = Rc::new(joined);
        }
        let ends_of_a: HashMap<*const _, &Rc<_>> = a
            .objects
            .iter()
            .map(|(o, attrs)| (Rc::as_ptr(o), attrs))
            .collect();
        for (o, attrs_b) in b.objects {
            let attrs_a = ends_of_a.get(&Rc::as_ptr(&o)).copied();
            // Attributes neither branch wrote are still the ones both started from.
            if attrs_a.is_some_and(|a| Rc::ptr_eq(a, &attrs_b)) {
                continue;
            }
            let attrs_a = attrs_a.map(|a| (**a).clone()).unwrap_or_default();
            let joined: HashMap<String, V<'a>> = self.join_maps(
                attrs_a.into_iter().collect::<HashMap<_, _>>(),
                Rc::unwrap_or_clone(attrs_b)
                    .into_iter()
                    .collect::<HashMap<_, _>>(),
                guard,
            );
            o.borrow_mut().attrs = Rc::new(joined.into_iter().collect());
        }
    }

    /// Two environments joined name by name, in place of `a` (a name bound on one side only
    /// is unknown).
    pub fn join_maps(
        &mut self,
        mut a: HashMap<String, V<'a>>,
        mut b: HashMap<String, V<'a>>,
        guard: Option<&Pred>,
    ) -> HashMap<String, V<'a>> {
        for (k, va) in a.iter_mut() {
            *va = match b.remove(k) {
                Some(vb) => self.join_under(std::mem::replace(va, V::Unknown), vb, guard),
                None => V::Unknown,
            };
        }
        for (k, _) in b {
            a.insert(k, V::Unknown);
        }
        a
    }

    /// A dim that is `p` where `guard` holds and `q` elsewhere (seed 003's set of shapes
    /// after a branch: a use that fails for both sizes fails); without a guard (a loop's
    /// passes, which may give more values) any size.
    fn joined(&mut self, p: DimExpr, q: DimExpr, guard: Option<&Pred>) -> DimExpr {
        let j = self.fresh_dim("joined");
        self.one_of(&j, p, q, guard);
        j
    }

    /// The fact that `j` is `p` where `guard` holds and `q` elsewhere.
    fn one_of(&mut self, j: &DimExpr, p: DimExpr, q: DimExpr, guard: Option<&Pred>) {
        if let Some(g) = guard {
            let then = Pred::And(vec![g.clone(), Pred::Eq(j.clone(), p)]);
            let other = Pred::And(vec![Pred::Not(Box::new(g.clone())), Pred::Eq(j.clone(), q)]);
            self.run.trace.fact(Pred::Or(vec![then, other]), None);
        }
    }

    /// The join of two values: equal stays; tensors of one rank keep the dims that agree
    /// and get fresh symbols elsewhere; anything else is unknown.
    pub fn join(&mut self, a: V<'a>, b: V<'a>) -> V<'a> {
        self.join_under(a, b, None)
    }

    /// [`Interp::join`], where `guard` (when known) tells the branches apart: two different
    /// layers are then a choice between them ([`V::Either`]), a bounded number deep.
    pub fn join_under(&mut self, a: V<'a>, b: V<'a>, guard: Option<&Pred>) -> V<'a> {
        if a.same(&b) {
            return a;
        }
        match (a, b) {
            (V::Data(Value::Tensor(x)), V::Data(Value::Tensor(y))) => {
                match (x.shape.dims(), y.shape.dims()) {
                    (Some(dx), Some(dy)) if dx.len() == dy.len() => {
                        let dims = dx
                            .iter()
                            .zip(dy)
                            .map(|(p, q)| match (p, q) {
                                _ if p == q => p.clone(),
                                (Dim::Known(p), Dim::Known(q)) => {
                                    Dim::Known(self.joined(p.clone(), q.clone(), guard))
                                }
                                _ => Dim::Known(self.fresh_dim("joined")),
                            })
                            .collect();
                        let dtype = if x.dtype == y.dtype { x.dtype } else { None };
                        V::Data(Value::tensor(Shape::Ranked(dims), dtype))
                    }
                    _ => V::Data(Value::tensor(Shape::unknown(), None)),
                }
            }
            // Images: what both branches agree on stays known.
            (V::Image(x), V::Image(y)) => {
                let agree = |p: Option<crate::shapes::DimExpr>,
                             q: &Option<crate::shapes::DimExpr>| {
                    p.filter(|p| Some(p) == q.as_ref())
                };
                V::Image(Box::new(super::images::Image {
                    width: agree(x.width, &y.width),
                    height: agree(x.height, &y.height),
                    mode: x.mode.filter(|m| Some(m) == y.mode.as_ref()),
                }))
            }
            (V::Data(Value::Int(p)), V::Data(Value::Int(q))) => {
                let j = self.fresh_sym("joined");
                self.one_of(&j, p, q, guard);
                V::Data(Value::Int(j))
            }
            // Arrays and batches join as the tensors they hold do.
            (V::Array(x), V::Array(y)) => {
                match self.join_under(
                    V::Data(Value::Tensor(*x)),
                    V::Data(Value::Tensor(*y)),
                    guard,
                ) {
                    V::Data(Value::Tensor(t)) => V::Array(Box::new(t)),
                    _ => V::Unknown,
                }
            }
            (V::Batches(x), V::Batches(y)) if x.last.is_none() && y.last.is_none() => {
                let item = self.join_under(x.item.clone(), y.item.clone(), guard);
                super::value::Batches::of(item, None)
            }
            (V::Tuple(x), V::Tuple(y)) if x.len() == y.len() => V::Tuple(
                x.into_iter()
                    .zip(y)
                    .map(|(p, q)| self.join_under(p, q, guard))
                    .collect(),
            ),
            (V::List(x), V::List(y)) if x.len() == y.len() => V::list(
                Rc::unwrap_or_clone(x)
                    .into_iter()
                    .zip(Rc::unwrap_or_clone(y))
                    .map(|(p, q)| self.join_under(p, q, guard))
                    .collect(),
            ),
            // One layer class built with different arguments (`act_layer(inplace=True)`, or
            // without `inplace` after a `TypeError`): the hyperparameters that differ are unknown.
            (V::Module(x), V::Module(y))
                if x.value.class == y.value.class && x.value.children == y.value.children =>
            {
                let mut value = x.value.clone();
                for (name, v) in value.params.iter_mut() {
                    if y.value.params.get(name) != Some(v) {
                        *v = Value::Unknown;
                    }
                }
                for name in y.value.params.keys() {
                    value.params.entry(name.clone()).or_insert(Value::Unknown);
                }
                V::Module(Rc::new(TorchModule {
                    value,
                    span: x.span,
                }))
            }
            (a, b) => match guard {
                Some(g)
                    if a.is_layer() && b.is_layer() && a.choices() + b.choices() < MAX_CHOICES =>
                {
                    V::Either(Rc::new(super::value::Either {
                        guard: g.clone(),
                        then: a,
                        other: b,
                    }))
                }
                _ => V::Unknown,
            },
        }
    }

    /// The state after a loop's trial pass, widened against the state before it: values the
    /// pass changed are joined (so a shape-preserving body keeps its shapes).
    pub fn widen(&mut self, before: &Snapshot<'a>, trial: &Snapshot<'a>) -> Snapshot<'a> {
        let mut out = before.clone();
        self.restore(before.clone());
        self.join_into(before.clone(), trial.clone());
        let joined = self.snapshot();
        out.locals = joined.locals;
        out.globals = joined.globals;
        out.objects = joined.objects;
        out
    }
}

/// Every object reachable from `roots` through attributes (and, when `deep`, through
/// containers and sequences too), with a copy of its attributes. Branch snapshots stay
/// shallow: they are taken at every `if`, and a model's blocks in an `nn.Sequential` are
/// rarely reassigned by a branch.
///
/// Values are visited in place: a snapshot is taken at every `if`, and copying every local
/// to look inside it (tensors, lists of them) cost more than the rest of the snapshot.
fn reachable_objects<'v, 'a: 'v>(
    roots: impl IntoIterator<Item = &'v V<'a>>,
    deep: bool,
) -> Vec<super::value::ObjectState<'a>> {
    let mut walk = Reachable {
        deep,
        seen: rustc_hash::FxHashSet::default(),
        out: Vec::new(),
    };
    for root in roots {
        walk.visit(root);
    }
    walk.out
}

struct Reachable<'a> {
    deep: bool,
    seen: rustc_hash::FxHashSet<usize>,
    out: Vec<super::value::ObjectState<'a>>,
}

impl<'a> Reachable<'a> {
    fn visit(&mut self, v: &V<'a>) {
        match v {
            V::Object(o) => {
                if !self.seen.insert(Rc::as_ptr(o) as usize) {
                    return;
                }
                let attrs = Rc::clone(&o.borrow().attrs);
                self.out.push((o.clone(), Rc::clone(&attrs)));
                // A shallow snapshot follows objects only.
                let deep = self.deep;
                for v in attrs.values().filter(|v| deep || matches!(v, V::Object(_))) {
                    // Object graphs can be as deep as a model is long.
                    stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.visit(v));
                }
            }
            _ if !self.deep => {}
            V::Container(_, items, _)
                if self.seen.insert(Rc::as_ptr(items) as *const u8 as usize) =>
            {
                items.iter().for_each(|(_, v)| self.visit(v));
            }
            seq if let Some(items) = seq.sequence() => items.iter().for_each(|v| self.visit(v)),
            V::Dict(items) => items.iter().for_each(|(_, v)| self.visit(v)),
            V::Bound(recv, _) => self.visit(recv),
            V::Either(e) => {
                self.visit(&e.then);
                self.visit(&e.other);
            }
            _ => {}
        }
    }
}

/// See [`Interp::checkpoint`].
pub struct Checkpoint<'a> {
    trace: super::trace::Trace,
    hints: HashMap<String, usize>,
    objects: Vec<super::value::ObjectState<'a>>,
    /// Whether the code that ran before the checkpoint certainly raised.
    dead: bool,
}

/// A saved environment: the innermost frame (or the globals at module level) and the
/// attributes of reachable objects.
#[derive(Clone)]
pub struct Snapshot<'a> {
    locals: Option<Rc<HashMap<String, V<'a>>>>,
    globals: Option<super::interp::Globals<'a>>,
    objects: Vec<super::value::ObjectState<'a>>,
}

/// Removal by key, for joining maps of either kind.
#[cfg(test)]
mod tests {
    use crate::testing::{assert_twins, findings};

    /// A layer chosen by a branch the analysis cannot decide is one of two layers: what
    /// follows it is still checked, and a failure on one side only is not a finding.
    const CHOSEN: &str = r#"
import torch
from torch import nn

class Net(nn.Module):
    def __init__(self, rate):
        super().__init__()
        self.drop = nn.Dropout(rate) if rate > 0.0 else nn.Identity()
        self.fc = nn.Linear(16, 8)
        self.out = nn.Linear(OUT_IN, 2)

    def forward(self, x):
        return self.out(self.fc(self.drop(x)))

def build():
    return Net(rate=torch.rand(1).item())
"#;

    #[test]
    fn a_choice_between_layers_keeps_the_shapes_flowing() {
        assert_twins(CHOSEN, "OUT_IN", "9", "8", 13);
    }

    /// A branch in a layer's method, called from the model's: the layer's attribute written
    /// on one side is back to what it was on the other (branch snapshots walk the objects
    /// the running method reaches, not those of the methods that called it).
    #[test]
    fn a_branch_in_a_nested_layer_restores_the_layer_on_the_other_side() {
        let src = r#"
import torch
from torch import nn

class Inner(nn.Module):
    def __init__(self):
        super().__init__()
        self.width = INIT

    def forward(self, x):
        if x.sum() > 0:
            self.width = 9
        return torch.zeros(2, self.width) @ torch.zeros(8, 3)

class Outer(nn.Module):
    def __init__(self):
        super().__init__()
        self.inner = Inner()

    def forward(self, x):
        return self.inner(x)
"#;
        assert_twins(src, "INIT", "9", "8", 13);
    }

    #[test]
    fn a_failure_on_one_side_of_a_choice_is_not_a_finding() {
        let src = CHOSEN
            .replace("nn.Identity()", "nn.Linear(16, 7)")
            .replace("OUT_IN", "8");
        let found = findings(&src);
        assert!(found.is_empty(), "{found:?}");
    }
}
