//! Known element values of small tensors (what operators compute from them is
//! `crate::catalogue::elements`): concrete shapes, at most [`MAX_ELEMENTS`]
//! elements. Model code computes its per-stage widths with tensor arithmetic at construction
//! time (RegNet: `torch.round(torch.log(torch.arange(d) * w_a + w_0) / ...)`, then
//! `.int().tolist()`); evaluating that arithmetic makes the widths, and so the whole network,
//! concrete. Any operation not listed here drops the values (never a wrong value: `None` is
//! always sound).
//!
//! Floating tensors are float32 (the default dtype): every floating result is rounded to
//! the nearest float32, as PyTorch stores it.

use std::sync::Arc;

use super::shape::Shape;
use super::value::TensorValue;

/// At most this many elements are tracked.
pub const MAX_ELEMENTS: usize = 4096;

/// Row-major element values.
#[derive(Clone, Debug)]
pub struct Elements(pub Arc<[f64]>);

impl Elements {
    fn bits(&self) -> impl Iterator<Item = u64> + '_ {
        self.0.iter().map(|x| x.to_bits())
    }
}

compared_by_bits!(Elements);

/// The concrete dims of a shape, when every dim is a constant and there are at most
/// [`MAX_ELEMENTS`] elements (checked without overflow: dims can be huge).
pub fn concrete_dims(shape: &Shape) -> Option<Vec<usize>> {
    let dims: Vec<usize> = shape
        .dims()?
        .iter()
        .map(|d| d.as_const().and_then(|c| usize::try_from(c).ok()))
        .collect::<Option<_>>()?;
    let n = dims.iter().try_fold(1usize, |n, &d| n.checked_mul(d))?;
    (n <= MAX_ELEMENTS).then_some(dims)
}

/// A tensor's element values, row-major, when known: listed, or uniform over a concrete
/// shape.
pub fn values_of(t: &TensorValue) -> Option<(Vec<usize>, Arc<[f64]>)> {
    let dims = concrete_dims(&t.shape)?;
    if let Some(e) = &t.elements {
        return Some((dims, e.0.clone()));
    }
    let n: usize = dims.iter().product();
    let u = t.uniform?;
    Some((dims, vec![u as f64; n].into()))
}
