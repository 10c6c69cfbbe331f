//! numpy arrays, a kind of value of their own ([`V::Array`]), never a torch tensor: torch's
//! rules do not apply to them and no error of numpy's is ever reported. Enough of numpy is
//! modelled to carry shapes into torch (`torch.from_numpy`, `torch.tensor`, `torch.Tensor`):
//! array creation, reshapes and transposes, concatenation, reductions, arithmetic and
//! indexing. Each borrows the shape logic of the torch operator that computes the same
//! shape; what the operator would require becomes a fact (the program only goes on when
//! numpy did not raise), and an operation numpy would reject, or that the analysis cannot
//! settle, gives an unknown value.

use ruff_text_size::TextRange;

use crate::catalogue::{apply_noting_reads, lookup, RuleError, RuleKind};
use crate::shapes::shape::{Dim, Shape};
use crate::shapes::value::{DType, TensorValue, Value};

use super::calls::argument as arg;
use super::interp::Interp;
use super::value::V;

/// `numpy.<attr>`: a modelled function (`V::Builtin("numpy.zeros")`), the `numpy.random`
/// namespace, a constant, or unknown.
pub fn numpy_attr<'a>(attr: &str) -> V<'a> {
    match attr {
        "pi" => V::Data(Value::Float(Some(std::f64::consts::PI))),
        "e" => V::Data(Value::Float(Some(std::f64::consts::E))),
        "inf" => V::Data(Value::Float(Some(f64::INFINITY))),
        "newaxis" => V::Data(Value::None),
        _ => member("numpy.", attr),
    }
}

/// A `numpy.random.RandomState(seed)` object: the legacy generator, whose methods are the
/// `numpy.random` module's functions.
const RANDOM_STATE: &str = "numpy.random.RandomState()";
/// A `numpy.random.default_rng(seed)` object (a `Generator`): `random`, `integers` (as
/// `randint`), `normal`, `uniform`, `standard_normal`, `choice`, `permutation` and `shuffle`,
/// with the module functions' signatures; it has no `rand`, `randn` or `randint`.
const GENERATOR: &str = "numpy.random.Generator()";

/// Whether `name` is a random generator object ([`RANDOM_STATE`], [`GENERATOR`]).
pub fn is_generator(name: &str) -> bool {
    name == RANDOM_STATE || name == GENERATOR
}

/// `rng.<attr>` of a random generator object: the module function it behaves as.
pub fn generator_attr<'a>(generator: &str, attr: &str) -> V<'a> {
    let function = match (generator, attr) {
        (GENERATOR, "integers") => "randint",
        (GENERATOR, "rand" | "randn" | "randint" | "random_sample" | "seed") => return V::Unknown,
        (_, "RandomState" | "default_rng" | "seed") => return V::Unknown,
        (_, other) => other,
    };
    numpy_random_attr(function)
}

/// The modelled function (or namespace) `namespace` + `attr`, else unknown.
fn member<'a>(namespace: &str, attr: &str) -> V<'a> {
    NUMPY_FUNCS
        .iter()
        .copied()
        .find(|f| f.strip_prefix(namespace) == Some(attr))
        .map_or(V::Unknown, V::Builtin)
}

/// The numpy functions modelled, by full name; `numpy.random` is a namespace.
const NUMPY_FUNCS: &[&str] = &[
    "numpy.random",
    "numpy.zeros",
    "numpy.ones",
    "numpy.empty",
    "numpy.full",
    "numpy.zeros_like",
    "numpy.ones_like",
    "numpy.empty_like",
    "numpy.full_like",
    "numpy.array",
    "numpy.asarray",
    "numpy.arange",
    "numpy.linspace",
    "numpy.eye",
    "numpy.concatenate",
    "numpy.stack",
    "numpy.expand_dims",
    "numpy.reshape",
    "numpy.transpose",
    "numpy.squeeze",
    "numpy.prod",
    "numpy.sqrt",
    "numpy.exp",
    "numpy.log",
    "numpy.random.RandomState",
    "numpy.random.default_rng",
    "numpy.random.choice",
    "numpy.random.permutation",
    "numpy.random.shuffle",
    "numpy.random.rand",
    "numpy.random.randn",
    "numpy.random.random",
    "numpy.random.random_sample",
    "numpy.random.standard_normal",
    "numpy.random.normal",
    "numpy.random.uniform",
    "numpy.random.randint",
];

/// `numpy.random.<attr>`.
pub fn numpy_random_attr<'a>(attr: &str) -> V<'a> {
    member("numpy.random.", attr)
}

/// An array with the shape and dtype of a tensor value.
pub fn array<'a>(t: TensorValue) -> V<'a> {
    V::Array(Box::new(TensorValue {
        // numpy's dtypes (float64 by default) are not torch's: left unknown.
        dtype: None,
        ..t
    }))
}

/// Arrays (also inside lists and tuples) as the tensors of their shapes, for torch's rules.
fn as_tensors<'a>(v: &V<'a>) -> V<'a> {
    match v {
        V::Array(t) => V::Data(Value::Tensor((**t).clone())),
        V::List(items) => V::list(items.iter().map(as_tensors).collect()),
        V::Tuple(items) => V::Tuple(items.iter().map(as_tensors).collect()),
        other => other.clone(),
    }
}

impl<'a> Interp<'a> {
    /// Applies torch's rule `op` for its shape logic only: arrays as tensors, requirements
    /// as facts; a tensor result is an array. Unknown when the rule cannot settle it. When
    /// numpy raises for certain (the operations modelled raise where torch's do), nothing
    /// after runs, as after a `raise`: no error of numpy's is reported, and nothing Python
    /// would not reach is either.
    fn numpy_apply(
        &mut self,
        op: &str,
        args: &[V<'a>],
        kwargs: Vec<(String, V<'a>)>,
        span: TextRange,
    ) -> V<'a> {
        let Some(RuleKind::Function(rule)) = lookup(op).map(|r| r.kind) else {
            return V::Unknown;
        };
        let args = args.iter().map(|a| as_tensors(a).to_value()).collect();
        let kwargs = kwargs
            .iter()
            .map(|(k, v)| (k.clone(), as_tensors(v).to_value()))
            .collect();
        let outcome = match apply_noting_reads(rule, op, args, kwargs, None, Vec::new()) {
            Ok(outcome) => outcome,
            Err(f) => {
                if matches!(f.error, RuleError::Invalid { .. }) && !f.read_unknown {
                    self.run.dead = true;
                }
                return V::Unknown;
            }
        };
        if !outcome.fresh.is_empty() {
            return V::Unknown;
        }
        let mut facts = outcome.assumptions;
        for r in outcome.requirements {
            match r.pred.decide() {
                Some(true) => {}
                Some(false) => {
                    self.run.dead = true;
                    return V::Unknown;
                }
                None => facts.push(r.pred),
            }
        }
        for p in facts {
            self.assume(p, span);
        }
        match outcome.value {
            Value::Tensor(t) => array(t),
            other => V::data(other),
        }
    }

    /// A call of a modelled numpy function.
    pub(super) fn call_numpy(
        &mut self,
        name: &str,
        args: Vec<V<'a>>,
        kwargs: Vec<(String, V<'a>)>,
        span: TextRange,
    ) -> V<'a> {
        let f = name.trim_start_matches("numpy.");
        let first = args.first().cloned().unwrap_or(V::Unknown);
        let axis = |i: usize| arg(&args, &kwargs, i, "axis").cloned();
        match f {
            "zeros" | "ones" | "empty" => self.numpy_apply(
                &format!("torch.{f}"),
                &args[..args.len().min(1)],
                vec![],
                span,
            ),
            "full" => self.numpy_apply("torch.full", &args[..args.len().min(2)], vec![], span),
            "zeros_like" | "ones_like" | "empty_like" | "full_like" => match first {
                V::Array(t) => array(*t),
                V::Data(Value::Tensor(t)) => array(t),
                _ => V::Unknown,
            },
            "array" | "asarray" => match first {
                V::Array(_) => first,
                V::Image(img) => super::images::image_array(&img),
                V::Data(Value::Tensor(t)) => array(t),
                // numpy stacks a sequence of arrays (all of one shape, else it raises).
                ref seq
                    if let Some(items) = seq.sequence().filter(|items| {
                        !items.is_empty() && items.iter().all(|i| matches!(i, V::Array(_)))
                    }) =>
                {
                    let dim = V::Data(Value::int(0));
                    let list = V::list(items.to_vec());
                    self.numpy_apply("torch.stack", &[list, dim], vec![], span)
                }
                ref seq if holds_array(seq) => V::Unknown,
                V::List(_) | V::Tuple(_) => {
                    self.numpy_apply("torch.tensor", &[first], vec![], span)
                }
                _ => V::Unknown,
            },
            "prod" if args.len() == 1 && kwargs.is_empty() => prod(&first),
            // On numbers, what `math` computes (numpy gives nan or inf where `math` raises:
            // unknown here); on an array, an array of its shape.
            "sqrt" | "exp" | "log" if args.len() == 1 => match first {
                V::Array(t) => array(t.without_content()),
                V::Data(Value::Int(_) | Value::IntUnknown | Value::Float(_) | Value::Bool(_)) => {
                    match super::builtins::call_math(&format!("math.{f}"), &args) {
                        V::Data(Value::Float(x)) => V::Data(Value::Float(x)),
                        _ => V::Data(Value::Float(None)),
                    }
                }
                _ => V::Unknown,
            },
            "random.RandomState" => V::Builtin(RANDOM_STATE),
            "random.default_rng" => V::Builtin(GENERATOR),
            "random.choice" => self.numpy_choice(&first, arg(&args, &kwargs, 1, "size"), span),
            "random.permutation" => match first {
                V::Array(t) => array(t.without_content()),
                V::Data(Value::Int(_)) => {
                    self.numpy_apply("torch.empty", &[V::Tuple(vec![first])], vec![], span)
                }
                _ => V::Unknown,
            },
            // In place: the caller forgets the array's content (`Interp::eval_call`).
            "random.shuffle" => V::none(),
            "arange" | "linspace" | "eye" => {
                self.numpy_apply(&format!("torch.{f}"), &args, vec![], span)
            }
            "concatenate" | "stack" => {
                let op = if f == "stack" {
                    "torch.stack"
                } else {
                    "torch.cat"
                };
                let dim = axis(1).unwrap_or(V::Data(Value::int(0)));
                if matches!(dim, V::Data(Value::None)) {
                    return V::Unknown;
                }
                self.numpy_apply(op, &[first, dim], vec![], span)
            }
            "expand_dims" => match axis(1) {
                Some(dim) => self.numpy_apply("torch.unsqueeze", &[first, dim], vec![], span),
                None => V::Unknown,
            },
            "reshape" => match arg(&args, &kwargs, 1, "newshape").cloned() {
                Some(shape) => {
                    self.numpy_apply("torch.reshape", &[first, shape_arg(&[shape])], vec![], span)
                }
                None => V::Unknown,
            },
            "transpose" => {
                self.numpy_transpose(first, arg(&args, &kwargs, 1, "axes").cloned(), span)
            }
            "squeeze" => self.numpy_squeeze(first, axis(1), span),
            "random.rand" | "random.randn" => {
                let op = if f == "random.rand" {
                    "torch.rand"
                } else {
                    "torch.randn"
                };
                if args.is_empty() {
                    return V::Data(Value::Float(None));
                }
                self.numpy_apply(op, &args, vec![], span)
            }
            "random.random" | "random.random_sample" | "random.standard_normal" => {
                self.numpy_sized(arg(&args, &kwargs, 0, "size").cloned(), span)
            }
            "random.normal" | "random.uniform" | "random.randint" => {
                self.numpy_sized(arg(&args, &kwargs, 2, "size").cloned(), span)
            }
            _ => V::Unknown,
        }
    }

    /// `choice(a, size)` of an int or a 1-D array: an array of shape `size` (a choice along
    /// the first axis of a higher-rank array is a `Generator`'s only: unknown).
    fn numpy_choice(&mut self, a: &V<'a>, size: Option<&V<'a>>, span: TextRange) -> V<'a> {
        let one_dim = match a {
            V::Array(t) => t.shape.dims().is_some_and(|d| d.len() == 1),
            V::Data(Value::Int(_)) => true,
            seq if let Some(items) = seq.sequence() => !items.iter().any(holds_array),
            _ => false,
        };
        if one_dim {
            self.numpy_sized(size.cloned(), span)
        } else {
            V::Unknown
        }
    }

    /// A draw of `size` values: a number without a size, else an array of that shape.
    fn numpy_sized(&mut self, size: Option<V<'a>>, span: TextRange) -> V<'a> {
        match size {
            None | Some(V::Data(Value::None)) => V::Unknown,
            Some(size) => self.numpy_apply("torch.empty", &[size], vec![], span),
        }
    }

    /// `a.transpose()` reverses the axes; `a.transpose(axes)` permutes them.
    fn numpy_transpose(&mut self, a: V<'a>, axes: Option<V<'a>>, span: TextRange) -> V<'a> {
        match axes {
            None | Some(V::Data(Value::None)) => match &a {
                V::Array(t) => match t.shape.dims() {
                    Some(dims) => {
                        let reversed: Vec<Dim> = dims.iter().rev().cloned().collect();
                        array(TensorValue {
                            shape: Shape::Ranked(reversed),
                            ..(**t).clone()
                        })
                    }
                    None => V::Unknown,
                },
                _ => V::Unknown,
            },
            Some(axes) => self.numpy_apply("torch.permute", &[a, axes], vec![], span),
        }
    }

    fn numpy_squeeze(&mut self, a: V<'a>, axis: Option<V<'a>>, span: TextRange) -> V<'a> {
        match axis {
            None | Some(V::Data(Value::None)) => {
                self.numpy_apply("torch.squeeze", &[a], vec![], span)
            }
            // numpy raises for an axis that is not 1, where torch leaves the tensor alone.
            Some(_) => V::Unknown,
        }
    }

    /// `a.<attr>` of an array: its shape, rank, element count and transpose; methods are
    /// bound.
    pub(super) fn numpy_attribute(&mut self, a: &TensorValue, attr: &str) -> V<'a> {
        match (attr, a.shape.dims()) {
            ("shape", Some(dims)) => V::Data(Value::Size(dims.to_vec())),
            ("ndim", Some(dims)) => V::Data(Value::int(dims.len() as i64)),
            ("size", Some(dims)) => {
                let known: Option<Vec<_>> = dims.iter().map(|d| d.expr().cloned()).collect();
                match known {
                    Some(es) => {
                        V::Data(Value::Int(crate::shapes::dim::DimExpr::product(es.iter())))
                    }
                    None => V::Data(Value::IntUnknown),
                }
            }
            ("T", Some(_)) => {
                self.numpy_transpose(V::Array(Box::new(a.clone())), None, TextRange::default())
            }
            ("shape" | "ndim" | "size" | "T" | "dtype", _) => V::Unknown,
            _ => V::Bound(Box::new(V::Array(Box::new(a.clone()))), attr.into()),
        }
    }

    /// `a.<method>(...)` of an array.
    pub(super) fn numpy_method(
        &mut self,
        a: TensorValue,
        method: &str,
        args: Vec<V<'a>>,
        kwargs: Vec<(String, V<'a>)>,
        span: TextRange,
    ) -> V<'a> {
        let this = V::Array(Box::new(a.clone()));
        match method {
            "reshape" => self.numpy_apply(
                "torch.reshape",
                &[this.clone(), shape_arg(&args)],
                vec![],
                span,
            ),
            "flatten" | "ravel" => self.numpy_apply("torch.flatten", &[this], vec![], span),
            "squeeze" => self.numpy_squeeze(this, arg(&args, &kwargs, 0, "axis").cloned(), span),
            "transpose" => {
                let axes = match args.as_slice() {
                    [] => None,
                    [one] => Some(one.clone()),
                    many => Some(V::Tuple(many.to_vec())),
                };
                self.numpy_transpose(this, axes, span)
            }
            "swapaxes" => {
                let all: Vec<V<'a>> = std::iter::once(this).chain(args).collect();
                self.numpy_apply("torch.transpose", &all, vec![], span)
            }
            "astype" | "copy" => array(a),
            "tolist" => super::sequences::tensor_to_python(&a, true),
            "sum" | "mean" | "max" | "min" | "prod" | "argmax" | "argmin" => {
                let op = match method {
                    "max" => "torch.amax".to_string(),
                    "min" => "torch.amin".to_string(),
                    m => format!("torch.{m}"),
                };
                let keepdim = arg(&args, &kwargs, usize::MAX, "keepdims").cloned();
                match arg(&args, &kwargs, 0, "axis").cloned() {
                    None | Some(V::Data(Value::None)) => V::Data(Value::Float(None)),
                    Some(axis) => {
                        let kw = keepdim
                            .map(|k| ("keepdim".to_string(), k))
                            .into_iter()
                            .collect();
                        self.numpy_apply(&op, &[this, axis], kw, span)
                    }
                }
            }
            _ => V::Unknown,
        }
    }

    /// Arithmetic, comparison and `@` where an operand is an array: broadcasting (or torch's
    /// matmul), never an alarm. Mixed with a torch tensor: unknown.
    pub(super) fn numpy_binop(&mut self, op: &str, l: V<'a>, r: V<'a>, span: TextRange) -> V<'a> {
        if l.is_tensor() || r.is_tensor() {
            return V::Unknown;
        }
        self.numpy_apply(op, &[l, r], vec![], span)
    }

    /// A comparison where an operand is an array and the other an array or a number: a bool
    /// array of the broadcast shape. Anything else compared with an array is unknown.
    pub(super) fn numpy_compare(&mut self, op: &str, l: V<'a>, r: V<'a>, span: TextRange) -> V<'a> {
        let comparable = |v: &V<'a>| {
            matches!(
                v,
                V::Array(_)
                    | V::Drawn(_)
                    | V::Data(Value::Int(_) | Value::IntUnknown | Value::Float(_) | Value::Bool(_))
            )
        };
        if !(comparable(&l) && comparable(&r)) {
            return V::Unknown;
        }
        match self.numpy_binop(op, l, r, span) {
            V::Array(t) => V::Array(Box::new(TensorValue {
                dtype: Some(DType::Bool),
                ..*t
            })),
            other => other,
        }
    }

    /// `a[index]` of an array.
    pub(super) fn numpy_subscript(&mut self, a: V<'a>, idx: V<'a>, span: TextRange) -> V<'a> {
        if matches!(idx, V::Array(_)) {
            return V::Unknown;
        }
        self.numpy_apply("operator.getitem", &[a, idx], vec![], span)
    }

    /// What torch's converters (`torch.from_numpy`, `torch.tensor`, `torch.Tensor`, ...) see
    /// of an array: the tensor of its shape.
    pub(super) fn arrays_as_tensors(args: Vec<V<'a>>) -> Vec<V<'a>> {
        args.into_iter()
            .map(|a| match a {
                V::Array(t) => V::Data(Value::Tensor(*t)),
                // torch stacks a list of arrays, which its rules read as scalars.
                seq if holds_array(&seq) => V::Unknown,
                other => other,
            })
            .collect()
    }
}

fn holds_array(v: &V<'_>) -> bool {
    match v {
        V::Array(_) => true,
        seq if let Some(items) = seq.sequence() => items.iter().any(holds_array),
        _ => false,
    }
}

/// The shape argument of `reshape`: one tuple or list, or the sizes themselves (numpy takes
/// one int, `a.reshape(-1)`, as the shape of one dim).
fn shape_arg<'a>(args: &[V<'a>]) -> V<'a> {
    match args {
        [one @ (V::Tuple(_) | V::List(_) | V::Data(Value::Size(_)))] => one.clone(),
        many => V::Tuple(many.to_vec()),
    }
}

/// `np.prod(seq)` of ints: their product, an int (`np.prod(shape)`); `np.prod(())` is the
/// float 1.0. Anything else is unknown.
fn prod<'a>(seq: &V<'a>) -> V<'a> {
    let Some(items) = seq.elements() else {
        return V::Unknown;
    };
    if items.is_empty() {
        return V::Data(Value::Float(Some(1.0)));
    }
    match items
        .iter()
        .map(super::expr::int_of)
        .collect::<Option<Vec<_>>>()
    {
        Some(ints) => V::Data(Value::Int(crate::shapes::DimExpr::product(ints.iter()))),
        None => V::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::{assert_twins, findings};

    /// Shapes flow from numpy into torch: `from_numpy` of a sliced array reaches a layer.
    #[test]
    fn array_shapes_reach_torch_through_from_numpy() {
        let src = r#"
import numpy as np
import torch
import torch.nn as nn

X = np.random.randn(100, 20).astype(np.float32)
Xt = torch.from_numpy(X[:, :COLS].reshape(100, -1))
net = nn.Sequential(nn.Linear(20, 8), nn.ReLU())
out = net(Xt)
"#;
        assert_twins(src, "COLS", "15", "20", 9);
    }

    /// numpy's own errors are never reported, and what follows one is not reached.
    #[test]
    fn numpy_errors_are_not_reported_and_end_the_path() {
        let src = r#"
import numpy as np
import torch

a = np.zeros((3, 4))
b = np.linspace(0, 1)
c = a @ np.ones((5, 6))
t = torch.tensor(a.T)
f = torch.randn(4, 3) @ t
"#;
        assert!(findings(src).is_empty());
    }

    /// Arrays in a list are stacked by torch's converters: the analysis does not guess.
    #[test]
    fn converters_of_lists_of_arrays_are_unknown() {
        let src = r#"
import numpy as np
import torch

rows = [np.eye(5)[i] for i in range(3)]
batch = torch.FloatTensor([np.zeros(5), np.ones(5)])
batch.view(7)
"#;
        assert!(findings(src).is_empty());
    }

    /// `np.array` of a list of arrays stacks them (`[n, *a.shape]`), and `reshape` takes one
    /// int or `-1` (`a.reshape(-1)`, `a.reshape(-1, 2)`, `np.reshape(a, -1)`): the run goes on
    /// to the layers. Under numpy: `(3, 3, 4)`, `(18, 2)`, `(12,)`.
    #[test]
    fn stacked_and_flattened_arrays_reach_torch() {
        let src = r#"
import numpy as np
import torch
import torch.nn as nn

a = np.zeros((3, 4), dtype=np.float32)
stacked = np.array([a, a, a])
flat = stacked.reshape(-1, 2)
rows = np.reshape(a, -1)
nn.Linear(4, 2)(torch.from_numpy(stacked))
nn.Linear(2, 2)(torch.from_numpy(flat))
nn.Linear(ROWS, 2)(torch.from_numpy(rows))
"#;
        assert_twins(src, "ROWS", "4", "12", 12);
    }

    /// `np.prod` of a shape is the int product (`x.view(-1, np.prod(shape))`), and
    /// `np.sqrt` of a number is its float root.
    #[test]
    fn prod_of_a_shape_and_sqrt_of_a_number_are_known() {
        let src = r#"
import numpy as np
import torch
import torch.nn as nn

shape = np.zeros((5, 3, 4)).shape[1:]
x = torch.randn(6, 12).view(-1, np.prod(shape))
side = int(np.sqrt(16))
sq = torch.randn(2, 16).view(2, side, side)
nn.Linear(12, 2)(x)
nn.Linear(FEAT, 2)(sq)
"#;
        assert_twins(src, "FEAT", "16", "4", 11);
    }

    /// A comparison with an array is a bool array of its shape; `RandomState` and
    /// `default_rng` objects draw arrays as the `np.random` functions do (a `Generator`'s
    /// `integers` is `randint`).
    #[test]
    fn comparisons_and_generator_objects_give_arrays() {
        let src = r#"
import numpy as np
import torch
import torch.nn as nn

mask = np.random.rand(5, 3) < 0.5
rs = np.random.RandomState(0)
rng = np.random.default_rng(0)
g = np.concatenate([rs.randn(5, 2), rng.normal(0, 1, (5, 1)), rng.integers(0, 3, size=(5, 2))], axis=1)
nn.Linear(3, 2)(torch.from_numpy(mask).float())
nn.Linear(FEAT, 2)(torch.from_numpy(g).float())
"#;
        assert_twins(src, "FEAT", "4", "5", 11);
    }

    /// A `Generator` has no `randn`: what it would give is unknown, never an array.
    #[test]
    fn generator_objects_have_only_their_own_methods() {
        let src = r#"
import numpy as np
import torch

rng = np.random.default_rng(0)
torch.from_numpy(rng.randn(5, 2)).view(7)
"#;
        assert!(findings(src).is_empty());
    }

    /// Writing into an array (`a[1] = 1`, `np.random.shuffle(a)`) forgets what was known
    /// of its content: the zeros it was made of are no longer its values.
    #[test]
    fn writes_into_arrays_forget_their_content() {
        let src = r#"
import numpy as np
import torch

a = np.zeros(4)
WRITE
n = torch.from_numpy(a).long().tolist()[1]
torch.randn(2, 3).view(n, 6)
"#;
        assert_twins(src, "WRITE", "pass", "a[1] = 1", 8);
        assert!(findings(&src.replace("WRITE", "np.random.shuffle(a)")).is_empty());
    }
}
