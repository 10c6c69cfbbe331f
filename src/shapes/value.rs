//! Abstract values: what a Python expression may be, as far as shapes are concerned.

use std::collections::BTreeMap;
use std::fmt;

use super::bounds::Bounds;
use super::dim::DimExpr;
use super::elements::Elements;
use super::shape::{Dim, Shape};

/// Element types that matter for shapes: integer targets and indices, boolean masks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DType {
    Float,
    Int,
    Bool,
    Complex,
}

impl DType {
    pub fn parse(name: &str) -> Option<DType> {
        Some(match name.trim_start_matches("torch.") {
            "float32" | "float" | "float64" | "double" | "float16" | "half" | "bfloat16" => {
                DType::Float
            }
            "int64" | "long" | "int32" | "int" | "int16" | "short" | "int8" | "uint8" => DType::Int,
            "bool" => DType::Bool,
            "complex64" | "complex128" | "cfloat" | "cdouble" => DType::Complex,
            _ => return None,
        })
    }

    pub fn is_floating(self) -> bool {
        matches!(self, DType::Float | DType::Complex)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TensorValue {
    pub shape: Shape,
    /// `None` when unknown.
    pub dtype: Option<DType>,
    /// When every element is known to equal one integer (bools as 0/1): tensors built by
    /// `zeros`/`ones`/`full` and their `_like`/`new_` forms. Masks, index tensors and repeat
    /// counts are read through it; `None` (the content is unknown) is always sound.
    pub uniform: Option<i64>,
    /// The largest element when the tensor is not empty, when known exactly: `arange(n)`
    /// holds `n - 1`. Index tensors are checked against table sizes through it; `None` is
    /// always sound.
    pub top: Option<DimExpr>,
    /// Every element, when the shape is concrete and small and the values follow from
    /// known numbers (`arange`, literals, arithmetic on them; see `elements.rs`).
    pub elements: Option<Elements>,
    /// The range the values lie in when they are unknown but drawn from one (`rand`,
    /// `randint`; see `bounds.rs`).
    /// Boxed: rare, and every `Value` would otherwise carry its size.
    pub bounds: Option<Box<Bounds>>,
}

impl TensorValue {
    /// A tensor of this shape and dtype, nothing known of its values.
    pub fn of(shape: Shape, dtype: Option<DType>) -> TensorValue {
        TensorValue {
            shape,
            dtype,
            uniform: None,
            top: None,
            elements: None,
            bounds: None,
        }
    }

    /// The same shape and dtype with every known fact about the values forgotten.
    pub fn without_content(self) -> TensorValue {
        TensorValue {
            uniform: None,
            top: None,
            elements: None,
            bounds: None,
            ..self
        }
    }

    /// The same tensor converted to `dtype` (`None`: unknown): the shape stays, a uniform
    /// value survives the conversion (to bool it becomes `value != 0`).
    pub fn converted(self, dtype: Option<DType>) -> TensorValue {
        let uniform = match dtype {
            Some(DType::Bool) => self.uniform.map(|u| (u != 0) as i64),
            Some(_) => self.uniform,
            None => None,
        };
        let top = match dtype {
            Some(DType::Int | DType::Float) => self.top,
            _ => None,
        };
        // Known values convert as the dtype stores them.
        let elements = match dtype {
            Some(DType::Int) => self
                .elements
                .map(|e| Elements(e.0.iter().map(|x| x.trunc()).collect())),
            Some(DType::Bool) => self
                .elements
                .map(|e| Elements(e.0.iter().map(|x| (*x != 0.0) as i64 as f64).collect())),
            Some(DType::Float) => self.elements,
            _ => None,
        };
        TensorValue {
            shape: self.shape,
            dtype,
            uniform,
            top,
            elements,
            bounds: None,
        }
    }

    /// The smallest and the largest element other than `skip` when every value is a known
    /// integer: uniform content, or known elements (a batch built from literal token ids).
    /// `None` when no such element is known.
    pub fn int_extremes(&self, skip: Option<i64>) -> Option<(i64, i64)> {
        const EXACT: f64 = 9_007_199_254_740_992.0;
        let one;
        let values: &[f64] = match self.uniform {
            Some(u) => {
                one = [u as f64];
                &one
            }
            None => &self.elements.as_ref()?.0,
        };
        if values.iter().any(|x| x.fract() != 0.0 || x.abs() > EXACT) {
            return None;
        }
        let kept = || values.iter().copied().filter(|x| Some(*x as i64) != skip);
        let lo = kept().reduce(f64::min)?;
        let hi = kept().reduce(f64::max)?;
        Some((lo as i64, hi as i64))
    }

    /// The range the values are drawn from, when known.
    pub fn range(&self) -> Option<Bounds> {
        self.bounds.as_deref().copied()
    }

    /// The number of elements is zero for certain.
    pub fn surely_empty(&self) -> bool {
        self.shape
            .dims()
            .is_some_and(|d| d.iter().any(|x| x.as_const() == Some(0)))
    }
}

/// A module instance: its class and resolved hyperparameters (positional and keyword
/// construction arguments as given).
#[derive(Clone, Debug, PartialEq)]
pub struct ModuleValue {
    pub class: String,
    pub params: BTreeMap<String, Value>,
    /// Submodules in order (Sequential, ModuleList).
    pub children: Vec<Value>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Tensor(TensorValue),
    /// An integer, symbolic or concrete (dims are integers).
    Int(DimExpr),
    /// An integer whose value is unknown.
    IntUnknown,
    Float(Option<f64>),
    Bool(Option<bool>),
    Str(Option<String>),
    None,
    Tuple(Vec<Value>),
    List(Vec<Value>),
    /// `torch.Size`.
    Size(Vec<Dim>),
    Slice(Box<Value>, Box<Value>, Box<Value>),
    Ellipsis,
    DType(DType),
    Module(Box<ModuleValue>),
    Function(String),
    Unknown,
}

impl Value {
    /// Whether some part of the value is not known (an unknown value, number, string or
    /// flag, a callable, a tensor of unknown rank, or a sequence holding one).
    pub fn has_unknown(&self) -> bool {
        match self {
            Value::Unknown | Value::Function(_) | Value::IntUnknown => true,
            Value::Float(None) | Value::Bool(None) | Value::Str(None) => true,
            Value::Tuple(items) | Value::List(items) => items.iter().any(Value::has_unknown),
            Value::Tensor(t) => t.shape.dims().is_none(),
            _ => false,
        }
    }

    pub fn tensor(shape: Shape, dtype: Option<DType>) -> Value {
        Value::Tensor(TensorValue::of(shape, dtype))
    }

    pub fn float_tensor(dims: &[i64]) -> Value {
        Value::tensor(Shape::of(dims), Some(DType::Float))
    }

    pub fn int(c: i64) -> Value {
        Value::Int(DimExpr::constant(c))
    }

    /// The same value with a tensor's known uniform content forgotten (an operation that
    /// changes the values but not the shape).
    pub fn without_content(self) -> Value {
        match self {
            Value::Tensor(t) => Value::Tensor(t.without_content()),
            other => other,
        }
    }

    pub fn as_tensor(&self) -> Option<&TensorValue> {
        match self {
            Value::Tensor(t) => Some(t),
            _ => None,
        }
    }

    /// An integer argument: a Python int (symbolic or concrete); `true`/`false` count as ints.
    pub fn as_int_expr(&self) -> Option<DimExpr> {
        match self {
            Value::Int(e) => Some(e.clone()),
            Value::Bool(Some(b)) => Some(DimExpr::constant(*b as i64)),
            _ => None,
        }
    }

    /// A concrete Python number as a float (ints, floats, bools; symbolic ints are not).
    pub fn as_number(&self) -> Option<f64> {
        match self {
            Value::Int(e) => e.as_const().map(|c| c as f64),
            Value::Float(x) => *x,
            Value::Bool(Some(b)) => Some(*b as i64 as f64),
            _ => None,
        }
    }

    pub fn as_const_int(&self) -> Option<i64> {
        match self {
            Value::Int(e) => e.as_const(),
            _ => None,
        }
    }

    /// Elements of a tuple, list or torch.Size.
    pub fn elements(&self) -> Option<Vec<Value>> {
        match self {
            Value::Tuple(v) | Value::List(v) => Some(v.clone()),
            Value::Size(d) => Some(
                d.iter()
                    .map(|d| match d {
                        Dim::Known(e) => Value::Int(e.clone()),
                        Dim::Dyn => Value::IntUnknown,
                    })
                    .collect(),
            ),
            _ => None,
        }
    }

    pub fn is_none(&self) -> bool {
        matches!(self, Value::None)
    }

    /// An int whose value the analysis does not know (or a value not known at all, in an
    /// int's place).
    pub fn is_unknown_int(&self) -> bool {
        matches!(self, Value::IntUnknown | Value::Unknown)
    }

    /// The value with symbols replaced in its dims and ints (`map` gives a symbol's
    /// replacement; `None` keeps it).
    pub fn substitute(&self, map: &dyn Fn(&str) -> Option<DimExpr>) -> Value {
        let dim = |d: &Dim| d.map(|e| e.substitute(map));
        let all = |xs: &[Value]| xs.iter().map(|x| x.substitute(map)).collect();
        match self {
            Value::Tensor(t) => {
                let mut t = t.clone();
                if let Shape::Ranked(dims) = &mut t.shape {
                    dims.iter_mut().for_each(|d| *d = dim(d));
                }
                t.top = t.top.map(|e| e.substitute(map));
                Value::Tensor(t)
            }
            Value::Int(e) => Value::Int(e.substitute(map)),
            Value::Size(dims) => Value::Size(dims.iter().map(dim).collect()),
            Value::Tuple(xs) => Value::Tuple(all(xs)),
            Value::List(xs) => Value::List(all(xs)),
            other => other.clone(),
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Tensor(t) => write!(f, "Tensor{}", t.shape),
            Value::Int(e) => write!(f, "{e}"),
            Value::IntUnknown => write!(f, "int"),
            Value::Float(Some(x)) => write!(f, "{x}"),
            Value::Float(None) => write!(f, "float"),
            Value::Bool(Some(b)) => write!(f, "{}", if *b { "True" } else { "False" }),
            Value::Bool(None) => write!(f, "bool"),
            Value::Str(Some(s)) => write!(f, "{s:?}"),
            Value::Str(None) => write!(f, "str"),
            Value::None => write!(f, "None"),
            Value::Tuple(v) | Value::List(v) => {
                let inner: Vec<String> = v.iter().map(Value::to_string).collect();
                write!(f, "({})", inner.join(", "))
            }
            Value::Size(d) => write!(f, "torch.Size({})", Shape::Ranked(d.clone())),
            Value::Slice(a, b, c) => write!(f, "{a}:{b}:{c}"),
            Value::Ellipsis => write!(f, "..."),
            Value::DType(d) => write!(f, "{d:?}"),
            Value::Module(m) => write!(f, "{}(...)", m.class),
            Value::Function(n) => write!(f, "{n}"),
            Value::Unknown => write!(f, "?"),
        }
    }
}
