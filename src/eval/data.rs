//! `torch.utils.data`: a `TensorDataset` of tensors, a dataset class of the file (its
//! `__getitem__` run on an index below its `__len__`), and the batches a `DataLoader` draws
//! from either: the default collation of one sample, with a leading batch dim. When the
//! dataset's length and the batch size are known, the batches are full ones and, when rows
//! are left over (and `drop_last` is not set), a last smaller batch that the loop also runs;
//! otherwise one symbolic batch size stands for every batch (at most `batch_size`, at most
//! the length).

use std::rc::Rc;

use ruff_text_size::TextRange;

use crate::shapes::shape::{Dim, Shape};
use crate::shapes::value::Value;
use crate::shapes::{DType, DimExpr, Pred};

use super::expr::int_of;
use super::interp::Interp;
use super::value::{Batches, V};

impl<'a> Interp<'a> {
    /// `TensorDataset(*tensors)`: its tensors, when all are.
    pub(super) fn tensor_dataset(&mut self, args: Vec<V<'a>>) -> V<'a> {
        if !args.is_empty() && args.iter().all(V::is_tensor) {
            V::Dataset(Rc::new(args))
        } else {
            V::Unknown
        }
    }

    /// `DataLoader(dataset, batch_size=1, ...)` over a `TensorDataset` or a dataset class
    /// of the file: its batches, each the default collation of `batch` samples.
    pub(super) fn data_loader(
        &mut self,
        args: &[V<'a>],
        kwargs: &[(String, V<'a>)],
        span: TextRange,
    ) -> V<'a> {
        let named = |name: &str, i: usize| super::calls::argument(args, kwargs, i, name).cloned();
        if kwargs
            .iter()
            .any(|(k, _)| matches!(k.as_str(), "collate_fn" | "batch_sampler" | "**"))
        {
            return V::Unknown;
        }
        let Some((length, sample)) =
            named("dataset", 0).and_then(|d| self.dataset_sample(&d, span))
        else {
            return V::Unknown;
        };
        let batch_size = match named("batch_size", 1) {
            None => Some(DimExpr::from(1)),
            Some(V::Data(Value::None)) => return V::Unknown,
            Some(v) => int_of(&v),
        };
        // A sampler draws its own number of rows.
        let length = length.filter(|_| named("sampler", 2).is_none());
        if length.as_ref().and_then(DimExpr::as_const) == Some(0) {
            return V::Unknown;
        }
        let drop_last = match named("drop_last", 8) {
            None => Some(false),
            Some(v) => v.truth(),
        };
        let known = |e: &Option<DimExpr>| e.as_ref().and_then(DimExpr::as_const);
        if let (Some(n), Some(b), Some(drop_last)) = (known(&length), known(&batch_size), drop_last)
        {
            // Every size is known: full batches, then what is left over.
            if b <= 0 {
                return V::Unknown;
            }
            let full = match (n >= b, drop_last) {
                (true, _) => b,
                (false, false) => n,
                (false, true) => return V::Unknown,
            };
            let rest = n % b;
            let last = (n > b && rest != 0 && !drop_last)
                .then(|| collate(&sample, &DimExpr::from(rest)))
                .flatten();
            return match collate(&sample, &DimExpr::from(full)) {
                Some(item) => Batches::of(item, last),
                None => V::Unknown,
            };
        }
        let batch = self.fresh_sym("batch");
        let at = Some(self.position(span));
        self.run
            .trace
            .fact(Pred::Le(DimExpr::from(1), batch.clone()), at);
        if let Some(b) = batch_size {
            self.run.trace.fact(Pred::Le(batch.clone(), b), at);
        }
        if let Some(n) = length {
            self.run.trace.fact(Pred::Le(batch.clone(), n), at);
        }
        collate(&sample, &batch).map_or(V::Unknown, |item| Batches::of(item, None))
    }

    /// `random_split(dataset, lengths)`: one dataset per length, each with the dataset's
    /// samples. Integer lengths must add up to the dataset's length (torch raises a
    /// `ValueError` otherwise: unknown here); fractions give parts of unknown lengths.
    pub(super) fn random_split(
        &mut self,
        args: &[V<'a>],
        kwargs: &[(String, V<'a>)],
        span: TextRange,
    ) -> V<'a> {
        let named = |name: &str, i: usize| super::calls::argument(args, kwargs, i, name).cloned();
        let (Some(dataset), Some(lengths)) = (named("dataset", 0), named("lengths", 1)) else {
            return V::Unknown;
        };
        let Some(parts) = lengths.elements() else {
            return V::Unknown;
        };
        let Some((length, sample)) = self.dataset_sample(&dataset, span) else {
            return V::Unknown;
        };
        let ints: Option<Vec<DimExpr>> = parts
            .iter()
            .map(|p| match p {
                V::Data(Value::Int(n)) => Some(n.clone()),
                _ => None,
            })
            .collect();
        let sizes: Vec<Option<DimExpr>> = match ints {
            Some(ints) => {
                let total = ints.iter().fold(DimExpr::zero(), |acc, n| acc.add(n));
                match (
                    total.as_const(),
                    length.as_ref().and_then(DimExpr::as_const),
                ) {
                    (Some(t), Some(n)) if t != n => return V::Unknown,
                    _ => {}
                }
                if ints.iter().any(|n| n.as_const().is_some_and(|c| c < 0)) {
                    return V::Unknown;
                }
                ints.into_iter().map(Some).collect()
            }
            None if parts.iter().all(|p| matches!(p, V::Data(Value::Float(_)))) => {
                vec![None; parts.len()]
            }
            None => return V::Unknown,
        };
        V::list(
            sizes
                .into_iter()
                .map(|n| V::Sampled(Rc::new((n, sample.clone()))))
                .collect(),
        )
    }

    /// `Subset(dataset, indices)`: the dataset's samples, as many as the indices.
    pub(super) fn subset(
        &mut self,
        args: &[V<'a>],
        kwargs: &[(String, V<'a>)],
        span: TextRange,
    ) -> V<'a> {
        let named = |name: &str, i: usize| super::calls::argument(args, kwargs, i, name).cloned();
        let (Some(dataset), Some(indices)) = (named("dataset", 0), named("indices", 1)) else {
            return V::Unknown;
        };
        let Some((_, sample)) = self.dataset_sample(&dataset, span) else {
            return V::Unknown;
        };
        let length = match &indices {
            V::Data(Value::Tensor(t)) => match t.shape.dims() {
                Some([n]) => n.expr().cloned(),
                _ => None,
            },
            other => other
                .elements()
                .map(|items| DimExpr::from(items.len() as i64)),
        };
        V::Sampled(Rc::new((length, sample)))
    }

    /// A dataset's length, when known, and one sample: a `TensorDataset`'s rows, or what a
    /// dataset class's `__getitem__` returns for an index below its `__len__`.
    fn dataset_sample(
        &mut self,
        dataset: &V<'a>,
        span: TextRange,
    ) -> Option<(Option<DimExpr>, V<'a>)> {
        match dataset {
            V::Dataset(tensors) => {
                let mut length = None;
                let mut rows = Vec::new();
                for t in tensors.iter() {
                    let V::Data(Value::Tensor(t)) = t else {
                        return None;
                    };
                    let [first, rest @ ..] = t.shape.dims()? else {
                        return None;
                    };
                    length = length.or_else(|| first.expr().cloned());
                    let mut row = t.clone();
                    row.shape = Shape::Ranked(rest.to_vec());
                    row.elements = None;
                    row.uniform = None;
                    rows.push(V::Data(Value::Tensor(row)));
                }
                Some((length, V::Tuple(rows)))
            }
            V::Sampled(s) => Some((s.0.clone(), s.1.clone())),
            V::Object(o) => {
                let class = o.borrow().class;
                let Some(V::Func(getitem)) = self.class_member(class, "__getitem__") else {
                    return None;
                };
                let length = match self.class_member(class, "__len__") {
                    Some(V::Func(len)) => {
                        let n = self.call_user(
                            len,
                            Some(dataset.clone()),
                            Vec::new(),
                            Vec::new(),
                            span,
                        );
                        int_of(&n).filter(|n| n.as_const().is_none_or(|c| c >= 0))
                    }
                    _ => None,
                };
                if self.run.dead {
                    return None;
                }
                // Any index the loader asks for: below the length when it is known.
                let index = self.fresh_sym("index");
                let at = Some(self.position(span));
                self.run
                    .trace
                    .fact(Pred::Le(DimExpr::zero(), index.clone()), at);
                if let Some(n) = &length {
                    self.run.trace.fact(Pred::Lt(index.clone(), n.clone()), at);
                }
                let idx = V::Data(Value::Int(index));
                let sample =
                    self.call_user(getitem, Some(dataset.clone()), vec![idx], Vec::new(), span);
                if self.run.dead || sample.is_unknown() {
                    return None;
                }
                Some((length, sample))
            }
            _ => None,
        }
    }
}

/// `default_collate` of `size` samples like `sample`: a tensor or numpy array gains a
/// leading batch dim, a Python int/float/bool becomes a 1-D tensor (int64, float64, bool),
/// a tuple or list a list of collated fields, a dict a dict. `None` for anything else.
fn collate<'a>(sample: &V<'a>, size: &DimExpr) -> Option<V<'a>> {
    let stacked = |t: &crate::shapes::value::TensorValue| {
        let dims = t.shape.dims()?;
        let mut out = vec![Dim::Known(size.clone())];
        out.extend(dims.iter().cloned());
        Some(Value::tensor(Shape::Ranked(out), t.dtype))
    };
    let vector = |dtype| Value::tensor(Shape::Ranked(vec![Dim::Known(size.clone())]), Some(dtype));
    Some(V::Data(match sample {
        V::Data(Value::Tensor(t)) => stacked(t)?,
        V::Array(t) => stacked(t)?,
        V::Data(Value::Int(_) | Value::IntUnknown) => vector(DType::Int),
        V::Data(Value::Float(_)) => vector(DType::Float),
        V::Data(Value::Bool(_)) => vector(DType::Bool),
        seq if let Some(items) = seq.sequence() => {
            return items
                .iter()
                .map(|x| collate(x, size))
                .collect::<Option<Vec<_>>>()
                .map(V::list)
        }
        V::Dict(items) => {
            return items
                .iter()
                .map(|(k, x)| collate(x, size).map(|c| (k.clone(), c)))
                .collect::<Option<Vec<_>>>()
                .map(V::dict)
        }
        _ => return None,
    }))
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

    /// A dataset class's samples are collated; with the length and batch size known, the
    /// last batch is the rows left over, and a view that assumes a full batch fails on it.
    #[test]
    fn the_last_batch_holds_the_rows_left_over() {
        let src = r#"
import torch
import torch.nn as nn
from torch.utils.data import Dataset, DataLoader

class Cells(Dataset):
    def __init__(self, n):
        self.x = torch.randn(n, 16, 30)
        self.y = torch.randint(0, 5, (n,))

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], self.y[i]

loader = DataLoader(Cells(ROWS), batch_size=8)
head = nn.Linear(16 * 30, 5)
for xb, yb in loader:
    loss = nn.functional.cross_entropy(head(xb.view(8, -1)), yb)
"#;
        assert_twins(src, "ROWS", "29", "32", 20);
        // A loop that may stop early never sees the last batch.
        let early = src.replace(
            "    loss = nn",
            "    if yb.sum() > 3:\n        break\n    loss = nn",
        );
        assert!(findings(&early.replace("ROWS", "29")).is_empty());
    }

    /// `random_split` parts keep the dataset's samples and have the lengths asked for: the
    /// validation part's last batch holds the rows left over. `Subset` has as many samples
    /// as indices.
    #[test]
    fn split_datasets_keep_samples_and_lengths() {
        let src = r#"
import torch
import torch.nn as nn
from torch.utils.data import TensorDataset, DataLoader, random_split, Subset

ds = TensorDataset(torch.randn(50, 6), torch.randn(50, 1))
train, val = random_split(ds, [40, 10])
head = nn.Linear(6, 1)
for x, y in DataLoader(train, batch_size=8):
    nn.functional.mse_loss(head(x), y)
for x, y in DataLoader(val, batch_size=4):
    x.view(4, 6)
for x, y in DataLoader(Subset(ds, list(range(12))), batch_size=5):
    x.reshape(ROWS, 6)
"#;
        assert!(!findings(src).is_empty());
        let fixed = src.replace("view(4, 6)", "view(-1, 6)");
        assert_twins(&fixed, "ROWS", "5", "-1", 14);
    }

    /// Lengths that do not add up to the dataset's (torch raises a `ValueError`) and
    /// fractions (unknown lengths) prove nothing about the last batch.
    #[test]
    fn splits_of_unknown_or_wrong_lengths_are_not_guessed() {
        let src = r#"
import torch
from torch.utils.data import TensorDataset, DataLoader, random_split

ds = TensorDataset(torch.randn(50, 6))
a, b = random_split(ds, [0.8, 0.2])
c, d = random_split(ds, [30, 30])
for (x,) in DataLoader(b, batch_size=4):
    x.view(4, 6)
for (x,) in DataLoader(d, batch_size=4):
    x.view(4, 6)
"#;
        assert!(findings(src).is_empty());
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
