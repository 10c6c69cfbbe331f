//! Python views of values: the items a `for` loop iterates (tuples, lists, module
//! containers, the rows of a tensor), and a tensor's `item()`/`tolist()` as Python numbers
//! (known when its values are, see `shapes/elements.rs`).

use super::value::V;
use crate::shapes::elements::{values_of, Elements};
use crate::shapes::shape::Shape;
use crate::shapes::value::{DType, TensorValue};
use crate::shapes::Value;

/// The items of a value iterated by a `for` loop, when their number is known.
pub fn iterate<'a>(v: &V<'a>) -> Option<Vec<V<'a>>> {
    match v {
        V::Data(Value::Tensor(t)) => {
            let n = t.shape.dims()?.first()?.as_const()?;
            if !(0..=super::interp::MAX_UNROLL as i64).contains(&n) {
                return None;
            }
            Some(
                (0..n as usize)
                    .map(|i| row_of(t, Some(i)))
                    .collect::<Option<_>>()?,
            )
        }
        V::Data(Value::Str(Some(text))) => super::strings::str_chars(text),
        other => other.elements(),
    }
}

/// One row of a tensor (its first dim dropped), keeping known uniform content, and the
/// row's values when it is the `index`th of a tensor whose values are known.
fn row_of<'a>(t: &TensorValue, index: Option<usize>) -> Option<V<'a>> {
    let rest = t.shape.dims()?.get(1..)?.to_vec();
    let elements = index.zip(values_of(t)).and_then(|(i, (dims, values))| {
        let len: usize = dims[1..].iter().product();
        Some(Elements(values.get(i * len..(i + 1) * len)?.into()))
    });
    Some(V::Data(Value::Tensor(TensorValue {
        shape: Shape::Ranked(rest),
        dtype: t.dtype,
        uniform: t.uniform,
        top: None,
        elements,
        bounds: t.bounds.clone(),
    })))
}

/// `t.item()`, and `t.tolist()` of a 0-d or short tensor: Python numbers, known when the
/// tensor's values are (uniform, or every element known).
pub fn tensor_to_python<'a>(t: &TensorValue, list: bool) -> V<'a> {
    if let Some((dims, values)) = values_of(t) {
        let number = |x: f64| {
            V::Data(match t.dtype {
                Some(DType::Bool) => Value::Bool(Some(x != 0.0)),
                Some(DType::Int) => Value::int(x as i64),
                Some(DType::Float) => Value::Float(Some(x)),
                Some(DType::Complex) | None => Value::Unknown,
            })
        };
        if !list {
            return if values.len() == 1 {
                number(values[0])
            } else {
                V::Unknown
            };
        }
        return nested(&dims, &values, &number);
    }
    // A one-element integer tensor holds its largest element (`ids.max()` of `arange(n)`).
    let single = t
        .shape
        .dims()
        .is_some_and(|d| d.iter().all(|x| x.as_const() == Some(1)));
    let scalar = match (t.dtype, t.uniform, t.range(), &t.top) {
        (Some(DType::Int), None, _, Some(top)) if single => V::Data(Value::Int(top.clone())),
        (Some(DType::Float), None, Some(b), _) => V::Drawn(b),
        (dtype, uniform, _, _) => V::Data(match (dtype, uniform) {
            (Some(DType::Bool), u) => Value::Bool(u.map(|u| u != 0)),
            (Some(DType::Int), Some(u)) => Value::int(u),
            (Some(DType::Int), None) => Value::IntUnknown,
            (Some(DType::Float), u) => Value::Float(u.map(|u| u as f64)),
            (Some(DType::Complex), _) | (None, _) => Value::Unknown,
        }),
    };
    if !list {
        return scalar;
    }
    match t.shape.dims() {
        Some([]) => scalar,
        Some([n]) => match n.as_const() {
            Some(n) if (0..=super::interp::MAX_UNROLL as i64).contains(&n) => {
                V::list(vec![scalar; n as usize])
            }
            _ => V::Unknown,
        },
        _ => V::Unknown,
    }
}

/// Row-major `values` of shape `dims` as nested Python lists (`tolist()`).
fn nested<'a>(dims: &[usize], values: &[f64], number: &dyn Fn(f64) -> V<'a>) -> V<'a> {
    match dims.split_first() {
        None => values.first().map_or(V::Unknown, |&x| number(x)),
        Some((&n, rest)) => {
            let len: usize = rest.iter().product();
            V::list(
                (0..n)
                    .map(|i| nested(rest, &values[i * len..(i + 1) * len], number))
                    .collect(),
            )
        }
    }
}

/// One item of a sequence of unknown length, or of one too long to go through item by
/// item, as far as it is known: what every item is (a character of a text, an int of a list
/// of ints, a tensor of a list of tensors of one shape).
pub fn element_of<'a>(v: &V<'a>) -> V<'a> {
    match v {
        V::Data(Value::Tensor(t)) => row_of(t, None).unwrap_or(V::Unknown),
        V::Data(Value::Str(_)) => V::Data(Value::Str(None)),
        V::Batches(b) if b.last.is_none() => b.item.clone(),
        V::Items(item) => (**item).clone(),
        V::List(items) => common_item(items),
        V::Tuple(items) => common_item(items),
        _ => V::Unknown,
    }
}

/// What every item of a sequence is: ints, texts, or tensors of one shape and dtype.
fn common_item<'a>(items: &[V<'a>]) -> V<'a> {
    let kind = |v: &V<'a>| match v {
        V::Data(Value::Int(_) | Value::IntUnknown) => Some(V::Data(Value::IntUnknown)),
        V::Data(Value::Str(_)) => Some(V::Data(Value::Str(None))),
        V::Data(Value::Tensor(t)) => Some(V::Data(Value::tensor(t.shape.clone(), t.dtype))),
        _ => None,
    };
    let Some(first) = items.first().and_then(kind) else {
        return V::Unknown;
    };
    if items
        .iter()
        .all(|v| kind(v).is_some_and(|k| k.same(&first)))
    {
        first
    } else {
        V::Unknown
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::{assert_twins, findings};

    /// `int(ids.max())` of ids whose largest element is known (`arange` repeated by one
    /// count) sizes a table one row short: the largest id is out of range.
    #[test]
    fn the_maximum_of_known_ids_is_a_known_int() {
        let src = r#"
import torch
import torch.nn as nn

ids = torch.arange(50).repeat_interleave(3)
table = nn.Embedding(int(ids.max()) + ROWS, 8)
out = table(ids)
"#;
        assert_twins(src, "ROWS", "0", "1", 7);
    }

    /// The elementwise maximum with another tensor is not the first one's largest element.
    #[test]
    fn an_elementwise_maximum_keeps_no_largest_element() {
        let src = r#"
import torch
import torch.nn as nn

both = torch.max(torch.arange(10), torch.full((10,), 30))
table = nn.Embedding(int(both.max()) + 1, 8)
out = table(torch.arange(31))
"#;
        assert!(findings(src).is_empty());
    }

    /// Counts given per element may drop the largest one: nothing is known.
    #[test]
    fn counts_per_element_keep_no_maximum() {
        let src = r#"
import torch
import torch.nn as nn

ids = torch.arange(50).repeat_interleave(torch.randint(0, 3, (50,)))
table = nn.Embedding(int(ids.max()), 8)
out = table(ids)
"#;
        assert!(findings(src).is_empty());
    }
}
