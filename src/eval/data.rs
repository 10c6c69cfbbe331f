//! `torch.utils.data`: a `TensorDataset` of tensors and the batches a `DataLoader` draws
//! from it. Every batch has the dataset's shapes with the first dim replaced by one batch
//! size: at most `batch_size` (the last batch may be smaller), at most the dataset's length.

use std::rc::Rc;

use ruff_text_size::TextRange;

use crate::shapes::shape::{Dim, Shape};
use crate::shapes::value::Value;
use crate::shapes::{DimExpr, Pred};

use super::expr::int_of;
use super::interp::Interp;
use super::value::V;

impl<'a> Interp<'a> {
    /// `TensorDataset(*tensors)`: its tensors, when all are.
    pub(super) fn tensor_dataset(&mut self, args: Vec<V<'a>>) -> V<'a> {
        if !args.is_empty() && args.iter().all(V::is_tensor) {
            V::Dataset(Rc::new(args))
        } else {
            V::Unknown
        }
    }

    /// `DataLoader(dataset, batch_size=1, ...)` over a `TensorDataset`: its batches, a list
    /// per batch as the default collation gives.
    pub(super) fn data_loader(
        &mut self,
        args: &[V<'a>],
        kwargs: &[(String, V<'a>)],
        span: TextRange,
    ) -> V<'a> {
        let named = |name: &str, i: usize| super::calls::argument(args, kwargs, i, name).cloned();
        let Some(V::Dataset(tensors)) = named("dataset", 0) else {
            return V::Unknown;
        };
        if kwargs
            .iter()
            .any(|(k, _)| matches!(k.as_str(), "collate_fn" | "batch_sampler" | "**"))
        {
            return V::Unknown;
        }
        let batch_size = match named("batch_size", 1) {
            None => Some(DimExpr::from(1)),
            Some(V::Data(Value::None)) => return V::Unknown,
            Some(v) => int_of(&v),
        };
        let batch = self.fresh_sym("batch");
        let at = Some(self.position(span));
        self.run
            .trace
            .fact(Pred::Le(DimExpr::from(1), batch.clone()), at);
        if let Some(b) = batch_size {
            self.run.trace.fact(Pred::Le(batch.clone(), b), at);
        }
        let mut items = Vec::new();
        for t in tensors.iter() {
            let V::Data(Value::Tensor(t)) = t else {
                return V::Unknown;
            };
            let Some([first, rest @ ..]) = t.shape.dims() else {
                return V::Unknown;
            };
            match first.expr() {
                // An empty dataset gives no batch.
                Some(n) if n.as_const() == Some(0) => return V::Unknown,
                Some(n) => self.run.trace.fact(Pred::Le(batch.clone(), n.clone()), at),
                None => {}
            }
            let mut dims = vec![Dim::Known(batch.clone())];
            dims.extend(rest.iter().cloned());
            let mut row = t.clone();
            row.shape = Shape::Ranked(dims);
            row.elements = None;
            items.push(V::Data(Value::Tensor(row)));
        }
        V::Batches(Box::new(V::List(items)))
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::{assert_twins, findings};

    /// A loader's batches keep the dataset's feature dims: a layer sized for other features
    /// fails in the training loop, which runs at least once over a non-empty dataset.
    #[test]
    fn loader_batches_have_the_dataset_shapes() {
        let src = r#"
import torch
import torch.nn as nn
from torch.utils.data import TensorDataset, DataLoader

ds = TensorDataset(torch.randn(100, 12), torch.randint(0, 5, (100,)))
loader = DataLoader(ds, batch_size=16, shuffle=True)
net = nn.Linear(FEATURES, 5)
for xb, yb in loader:
    loss = nn.functional.cross_entropy(net(xb), yb)
"#;
        assert_twins(src, "FEATURES", "10", "12", 10);
    }

    /// A list a helper fills in place is not the empty list it was before the call.
    #[test]
    fn lists_a_callee_mutates_are_unknown_after_the_call() {
        let src = r#"
import torch

def add(seq, rows):
    rows.append(seq)

rows = []
add([1, 2, 3], rows)
data = torch.tensor(rows)
data.permute(1, 0)
"#;
        assert!(findings(src).is_empty());
    }
}

#[cfg(test)]
mod list_tests {
    use crate::testing::assert_twins;

    /// `dims.reverse()` reorders the list in place: a decoder built from the reversed
    /// widths fits the encoder's last width.
    #[test]
    fn lists_reversed_in_place_are_reordered() {
        let src = r#"
import torch
import torch.nn as nn

dims = [8, 16, 32]
enc = nn.Sequential(*[nn.Linear(a, b) for a, b in zip([4] + dims[:-1], dims)])
dims.reverse()
dec = nn.Linear(dims[INDEX], 4)
y = dec(enc(torch.randn(2, 4)))
"#;
        assert_twins(src, "INDEX", "2", "0", 9);
    }
}
