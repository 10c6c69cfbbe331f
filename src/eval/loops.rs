//! Loops: unrolled when the items are known and few; otherwise one pass, under the guard
//! that the loop runs, stands for every pass, with what the body changes widened.

use ruff_python_ast::{Expr, Stmt, StmtFor};

use super::interp::{Flow, Interp, MAX_UNROLL};
use super::value::V;
use crate::shapes::{DType, DimExpr, Pred, Value};

impl<'a> Interp<'a> {
    pub(super) fn exec_for(
        &mut self,
        target: &'a Expr,
        iter: V<'a>,
        body: &'a [Stmt],
        orelse: &'a [Stmt],
    ) -> Flow {
        if let Some(items) = super::calls::iterate(&iter).filter(|i| i.len() <= MAX_UNROLL) {
            for item in self.draw_rows(items) {
                self.assign(target, item);
                match self.exec_block(body) {
                    Flow::Normal => {}
                    // `break`/`continue`/`return` inside an unrolled loop: stop precise
                    // tracking; what follows runs with what we have.
                    Flow::Exit => return Flow::Normal,
                    Flow::Stop => return Flow::Stop,
                }
            }
            return self.exec_block(orelse);
        }
        if let V::Batches(b) = &iter {
            if let Some(last) = b.last.clone() {
                return self.exec_loader_loop(target, b.item.clone(), last, body, orelse);
            }
        }
        let element = super::calls::element_of(&iter);
        // A loader over a dataset (whose rows are input dims, at least 1) gives a batch.
        let runs = matches!(iter, V::Batches(_)).then(Pred::always);
        self.exec_unknown_loop(Some((target, element)), body, orelse, runs)
    }

    /// A loop over values the code writes out (`domains::declares_values`) run for the one
    /// value this run takes when it is a domain (`domains.rs`); `None`: run it as any loop.
    /// A domain met first with no value chosen is asked for (the run goes on unrolled, and
    /// runs again once per value); other domains in a run that has its value are unrolled.
    /// Two loops nested directly (`domains::nested_domain`) are one domain, their product.
    pub(super) fn exec_domain_loop(&mut self, f: &'a StmtFor, iter: &V<'a>) -> Option<Flow> {
        let (target, body, orelse) = (&f.target, &f.body, &f.orelse);
        let items = super::calls::iterate(iter).filter(|i| i.len() <= MAX_UNROLL)?;
        let (targets, rows, inner_body): (Vec<&'a Expr>, Vec<Vec<V<'a>>>, &'a [Stmt]) =
            match super::domains::nested_domain(f) {
                Some(inner) => {
                    let inner_iter = self.eval(&inner.iter);
                    let inner_items = super::calls::iterate(&inner_iter)
                        .filter(|i| i.len() <= MAX_UNROLL)
                        .unwrap_or_default();
                    let rows = items
                        .iter()
                        .flat_map(|a| inner_items.iter().map(|b| vec![a.clone(), b.clone()]))
                        .collect();
                    (vec![target, &inner.target], rows, &inner.body)
                }
                None => (
                    vec![target],
                    items.into_iter().map(|v| vec![v]).collect(),
                    body,
                ),
            };
        let asked = self.plan.domain_wanted.is_some();
        let Some(row) = self.domain_value(&targets, &rows, inner_body) else {
            if asked || self.plan.domain_wanted.is_none() {
                return None;
            }
            // First met: run as any loop; a body that applies no operator with any value
            // (printing versions, writing files) is no question about shapes.
            let before = self.run.trace.ops;
            let flow = self.exec_for(target, iter.clone(), body, orelse);
            if self.run.trace.ops == before {
                self.plan.domain_wanted = None;
            }
            return Some(flow);
        };
        for (t, v) in targets.into_iter().zip(row) {
            self.assign(t, v);
        }
        Some(match self.exec_block(inner_body) {
            Flow::Normal => self.exec_block(orelse),
            Flow::Exit => Flow::Normal,
            Flow::Stop => Flow::Stop,
        })
    }

    fn domain_value(
        &mut self,
        targets: &[&'a Expr],
        rows: &[Vec<V<'a>>],
        body: &'a [Stmt],
    ) -> Option<Vec<V<'a>>> {
        let at = super::domains::loop_at(targets.first()?);
        let index = self.domain_index(at, || super::domains::domain_labels(targets, rows, body))?;
        rows.get(index).cloned()
    }

    /// A loader whose last batch is smaller: the full batches (at least one) as a loop, then
    /// one pass with the last batch, as Python runs them. A body that can leave the loop
    /// early (`break`, `return`, `raise`) may never see the last batch: it is not run.
    fn exec_loader_loop(
        &mut self,
        target: &'a Expr,
        full: V<'a>,
        last: V<'a>,
        body: &'a [Stmt],
        orelse: &'a [Stmt],
    ) -> Flow {
        let runs = Some(Pred::always());
        if let Flow::Stop = self.exec_unknown_loop(Some((target, full)), body, &[], runs) {
            return Flow::Stop;
        }
        if self.run.dead || body.iter().any(may_leave) {
            return Flow::Normal;
        }
        self.assign(target, last);
        match self.exec_block(body) {
            Flow::Normal => self.exec_block(orelse),
            Flow::Exit => Flow::Normal,
            Flow::Stop => Flow::Stop,
        }
    }

    /// The rows of an integer tensor drawn from a range (`for i in torch.randint(n - k,
    /// (b,))`): each 0-d row holds a draw of its own, a symbol within the range, so that
    /// `data[i : i + k]` has a known length.
    pub(super) fn draw_rows(&mut self, items: Vec<V<'a>>) -> Vec<V<'a>> {
        items
            .into_iter()
            .map(|item| match item {
                V::Data(Value::Tensor(mut t))
                    if t.shape.rank() == Some(0)
                        && t.dtype == Some(DType::Int)
                        && t.top.is_none()
                        && t.elements.is_none() =>
                {
                    if let Some(V::Data(Value::Int(d))) = t.range().map(|b| self.drawn_int(b)) {
                        t.top = Some(d);
                    }
                    V::Data(Value::Tensor(t))
                }
                other => other,
            })
            .collect()
    }

    /// `for i in range(lo, hi)`: unrolled when both bounds are small constants; otherwise
    /// one pass, under the guard `lo < hi`, stands for every pass, with `i` a symbol in
    /// `[lo, hi)`. A decoder's `for t in range(tgt.size(1))` runs at least once, so what its
    /// body requires is required.
    pub(super) fn exec_range_loop(
        &mut self,
        target: &'a Expr,
        lo: DimExpr,
        hi: DimExpr,
        body: &'a [Stmt],
        orelse: &'a [Stmt],
    ) -> Flow {
        if let (Some(a), Some(b)) = (lo.as_const(), hi.as_const()) {
            if b.saturating_sub(a) <= MAX_UNROLL as i64 {
                let items = super::builtins::int_range(a, b, 1);
                return self.exec_for(target, items, body, orelse);
            }
        }
        let i = self.fresh_sym("i");
        // Holds whenever the loop runs; otherwise `i` is unconstrained.
        let within = Pred::And(vec![
            Pred::Le(lo.clone(), i.clone()),
            Pred::Lt(i.clone(), hi.clone()),
        ]);
        let runs = Pred::Lt(lo, hi);
        self.run.trace.fact(
            Pred::Or(vec![Pred::Not(Box::new(runs.clone())), within]),
            None,
        );
        let element = V::Data(Value::Int(i));
        self.exec_unknown_loop(Some((target, element)), body, orelse, Some(runs))
    }

    /// A loop whose trip count is unknown: the body runs under a guard (it may not run at
    /// all; `runs` when that is known, else a fresh choice), with the values it changes
    /// widened so that one pass stands for every pass.
    pub(super) fn exec_unknown_loop(
        &mut self,
        target: Option<(&'a Expr, V<'a>)>,
        body: &'a [Stmt],
        orelse: &'a [Stmt],
        runs: Option<Pred>,
    ) -> Flow {
        let before = self.snapshot();
        if self.run.in_trial {
            // Inside another loop's trial pass, which only looks for the names a pass
            // changes: one pass, joined with not running (nested loops stay linear, not 2^depth).
            let g = runs.unwrap_or_else(|| self.fresh_choice());
            self.run.guards.push(g);
            if let Some((t, v)) = target {
                self.assign(t, v);
            }
            self.exec_block(body);
            self.run.guards.pop();
            let raised = std::mem::take(&mut self.run.dead);
            let after = self.snapshot();
            self.restore(before.clone());
            if !raised {
                self.join_into(before, after);
            }
            return self.exec_block(orelse);
        }
        // A trial pass, unrecorded, finds the names the body changes.
        let saved_trace = self.run.trace.clone();
        let g = runs.clone().unwrap_or_else(|| self.fresh_choice());
        self.run.guards.push(g);
        if let Some((t, v)) = &target {
            self.assign(t, v.clone());
        }
        self.run.in_trial = true;
        self.exec_block(body);
        self.run.in_trial = false;
        self.run.guards.pop();
        self.run.dead = false;
        let trial = self.snapshot();
        self.run.trace = saved_trace;
        self.restore(before.clone());
        let widened = self.widen(&before, &trial);
        self.restore(widened.clone());
        let g = runs.unwrap_or_else(|| self.fresh_choice());
        self.run.guards.push(g);
        if let Some((t, v)) = target {
            self.assign(t, v);
        }
        self.exec_block(body);
        let g = self.run.guards.pop();
        let raised = std::mem::take(&mut self.run.dead);
        let after = self.snapshot();
        self.restore(widened.clone());
        if raised {
            // A pass raises whenever the loop runs: what follows runs only if it did not
            // (as after a branch that raises).
            if let Some(g) = g {
                self.run.guards.push(Pred::Not(Box::new(g)));
            }
        } else {
            self.join_into(widened, after);
        }
        self.exec_block(orelse)
    }
}

/// Whether a statement of a loop body can end the loop early: a `break` of this loop, a
/// `return` or a `raise` anywhere in it.
fn may_leave(stmt: &Stmt) -> bool {
    use ruff_python_ast::visitor::{walk_stmt, Visitor};
    struct Leaves {
        found: bool,
        loops: usize,
    }
    impl<'b> Visitor<'b> for Leaves {
        fn visit_stmt(&mut self, stmt: &'b Stmt) {
            match stmt {
                Stmt::Return(_) | Stmt::Raise(_) => self.found = true,
                Stmt::Break(_) if self.loops == 0 => self.found = true,
                Stmt::FunctionDef(_) | Stmt::ClassDef(_) => {}
                Stmt::For(_) | Stmt::While(_) => {
                    self.loops += 1;
                    walk_stmt(self, stmt);
                    self.loops -= 1;
                }
                _ => walk_stmt(self, stmt),
            }
        }
    }
    let mut v = Leaves {
        found: false,
        loops: 0,
    };
    v.visit_stmt(stmt);
    v.found
}

#[cfg(test)]
mod tests {
    use crate::testing::assert_twins;

    /// Windows cut at random offsets (`data[i : i + k] for i in randint(...)`, the
    /// nanoGPT batch): each offset is a draw of its own within its range, so every window
    /// is `k` long and the stacked batch has a known shape.
    #[test]
    fn windows_at_drawn_offsets_have_their_length() {
        let src = r#"
import torch

data = torch.randint(0, 50, (1000,))
ix = torch.randint(len(data) - 16, (4,))
x = torch.stack([data[i : i + 16] for i in ix])
y = x.view(4, 4, WIDTH)
"#;
        assert_twins(src, "WIDTH", "5", "4", 7);
    }

    /// A decoder's `for t in range(tgt.size(1))` runs at least once (input dims are
    /// positive): its step's LSTM input-size mismatch is a finding, though the loop bound
    /// is symbolic and the state threaded through it starts as `None`.
    #[test]
    fn a_symbolic_range_loop_runs_at_least_once() {
        let src = r#"
import torch
import torch.nn as nn

class Decoder(nn.Module):
    def __init__(self, emb_dim=16, hidden=32):
        super().__init__()
        self.hidden = hidden
        self.rnn = nn.LSTM(INPUT, hidden, batch_first=True)

    def forward(self, emb, enc):
        b, t, e = emb.shape
        feed = enc.new_zeros(b, 1, self.hidden)
        state = None
        outs = []
        for i in range(t):
            step = emb[:, i:i + 1]
            out, state = self.rnn(torch.cat([step, feed], dim=2), state)
            feed = torch.tanh(out)
            outs.append(feed)
        return torch.cat(outs, dim=1)
"#;
        assert_twins(src, "INPUT", "emb_dim", "emb_dim + hidden", 18);
    }

    /// A loop over `range(n)` with `n` a parameter may not run: what its body requires is
    /// not required.
    #[test]
    fn a_range_loop_that_may_not_run_requires_nothing() {
        let src = r#"
import torch
import torch.nn as nn

def f(x, n):
    layer = nn.Linear(4, 4)
    for i in range(n - 1):
        x = layer(x.reshape(-1, WIDTH))
    return x
"#;
        let found = crate::testing::findings(&src.replace("WIDTH", "5"));
        assert!(found.is_empty(), "{found:?}");
    }
}
