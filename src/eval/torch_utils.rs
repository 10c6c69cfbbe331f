//! torch's utilities that are not operators: wrappers that hand back the module they are
//! given (`weight_norm`, `spectral_norm`), the ntuple helpers (`_pair`), the
//! `from_pretrained` constructors, in-place functional forms (`torch.relu_`), a model's
//! `parameters()`, and `torch.autograd.Function` subclasses (`MyFn.apply(x)` runs their
//! `forward`).

use ruff_python_ast::StmtClassDef;
use ruff_text_size::TextRange;

use super::calls::iterate;
use super::interp::Interp;
use super::value::V;
use crate::catalogue::{lookup, RuleKind};
use crate::shapes::shape::{Dim, Shape};
use crate::shapes::Value;

/// `nn.Embedding.from_pretrained(embeddings, freeze=True, padding_idx=None, ...)`: its
/// parameters in order.
const EMBEDDING_PRETRAINED: &[&str] = &[
    "embeddings",
    "freeze",
    "padding_idx",
    "max_norm",
    "norm_type",
    "scale_grad_by_freq",
    "sparse",
];

/// `nn.EmbeddingBag.from_pretrained(embeddings, freeze=True, max_norm=None, ...)`.
const EMBEDDING_BAG_PRETRAINED: &[&str] = &[
    "embeddings",
    "freeze",
    "max_norm",
    "norm_type",
    "scale_grad_by_freq",
    "mode",
    "sparse",
    "include_last_offset",
    "padding_idx",
];

/// In-place forms whose out-of-place twin is not the same operation on shapes.
const NOT_ELEMENTWISE_IN_PLACE: &[&str] = &["torch.as_strided_", "torch.resize_as_"];

/// The bases `torch.autograd.Function` goes by.
const AUTOGRAD_FUNCTION: &[&str] = &[
    "torch.autograd.Function",
    "torch.autograd.function.Function",
];

impl<'a> Interp<'a> {
    /// A torch utility called by `name` (its canonical name, else the path written); `None`
    /// when `name` is none of them.
    pub(super) fn torch_utility(
        &mut self,
        name: &str,
        args: &[V<'a>],
        kwargs: &[(String, V<'a>)],
        span: TextRange,
    ) -> Option<V<'a>> {
        match name {
            // They register a reparametrisation of `weight` and return the module itself:
            // its shapes do not change.
            "torch.nn.utils.weight_norm"
            | "torch.nn.utils.spectral_norm"
            | "torch.nn.utils.parametrizations.weight_norm"
            | "torch.nn.utils.parametrizations.spectral_norm" => {
                let module = super::calls::argument(args, kwargs, 0, "module");
                Some(
                    module
                        .filter(|m| m.is_layer())
                        .cloned()
                        .unwrap_or(V::Unknown),
                )
            }
            "torch.nn.modules.utils._single" => Some(ntuple(args, 1)),
            "torch.nn.modules.utils._pair" => Some(ntuple(args, 2)),
            "torch.nn.modules.utils._triple" => Some(ntuple(args, 3)),
            "torch.nn.modules.utils._quadruple" => Some(ntuple(args, 4)),
            "torch.nn.Embedding.from_pretrained" => Some(self.pretrained_layer(
                "torch.nn.Embedding",
                EMBEDDING_PRETRAINED,
                args,
                kwargs,
                span,
            )),
            "torch.nn.EmbeddingBag.from_pretrained" => Some(self.pretrained_layer(
                "torch.nn.EmbeddingBag",
                EMBEDDING_BAG_PRETRAINED,
                args,
                kwargs,
                span,
            )),
            _ => None,
        }
    }

    /// `nn.Embedding.from_pretrained(weight, ...)`: the layer built with `weight`'s rows and
    /// columns as `num_embeddings` and `embedding_dim` (a weight that is not 2-D raises; it
    /// is left unknown here).
    fn pretrained_layer(
        &mut self,
        class: &str,
        params: &[&str],
        args: &[V<'a>],
        kwargs: &[(String, V<'a>)],
        span: TextRange,
    ) -> V<'a> {
        let Some(V::Data(Value::Tensor(w))) = super::calls::argument(args, kwargs, 0, params[0])
        else {
            return V::Unknown;
        };
        let Some([rows, cols]) = w.shape.dims() else {
            return V::Unknown;
        };
        let size = |d: &Dim| match d.expr() {
            Some(e) => V::Data(Value::Int(e.clone())),
            None => V::Data(Value::IntUnknown),
        };
        let (rows, cols) = (size(rows), size(cols));
        if args.len() > params.len() {
            return V::Unknown;
        }
        let mut layer_kwargs: Vec<(String, V<'a>)> = params
            .iter()
            .zip(args)
            .map(|(p, v)| (p.to_string(), v.clone()))
            .chain(kwargs.iter().cloned())
            .filter(|(k, _)| k != "embeddings" && k != "freeze")
            .collect();
        layer_kwargs.retain(|(k, _)| params.contains(&k.as_str()) || k == "**");
        self.callee_at = None;
        self.call_torch(class, vec![rows, cols], layer_kwargs, span)
    }

    /// `torch.relu_(x)`, `F.elu_(x)`: what the out-of-place form requires, and `x` itself
    /// (in place, its shape unchanged). `None` when `name` is no such form.
    pub(super) fn in_place_function(
        &mut self,
        name: &str,
        args: &[V<'a>],
        kwargs: &[(String, V<'a>)],
        span: TextRange,
    ) -> Option<V<'a>> {
        let base = name.strip_suffix('_').filter(|b| !b.ends_with('_'))?;
        if NOT_ELEMENTWISE_IN_PLACE.contains(&name) {
            return None;
        }
        let functional = base.replace("torch.", "torch.nn.functional.");
        let rule = [base, functional.as_str()]
            .into_iter()
            .find(|n| matches!(lookup(n).map(|r| r.kind), Some(RuleKind::Function(_))))?;
        self.callee_at = None;
        let out = self.apply_function(rule, args.to_vec(), kwargs.to_vec(), span, &[]);
        match args.first() {
            Some(x) if x.is_tensor() && !out.is_unknown() => Some(x.clone()),
            _ => Some(V::Unknown),
        }
    }

    /// `model.parameters()` of a layer: parameters of shapes not tracked, as many as there
    /// are (perhaps none), enough for `next(model.parameters()).device` or `.new(...)`.
    pub(super) fn parameters_of_layer() -> V<'a> {
        V::Items(Box::new(V::Data(Value::tensor(Shape::unknown(), None))))
    }

    /// Whether a class derives (directly or through the file's classes) from
    /// `torch.autograd.Function`.
    pub(super) fn is_autograd_function(&self, class: &'a StmtClassDef) -> bool {
        self.derives_from_torch(class, |path| AUTOGRAD_FUNCTION.contains(&path))
    }

    /// `MyFn.apply(*args)` of a `torch.autograd.Function` subclass: its static `forward`
    /// with a context object first (unknown: what it saves for backward is not modelled),
    /// or without one when the class separates `setup_context`.
    pub(super) fn apply_autograd_function(
        &mut self,
        class: &'a StmtClassDef,
        args: Vec<V<'a>>,
        kwargs: Vec<(String, V<'a>)>,
        span: TextRange,
    ) -> V<'a> {
        let Some(V::Func(forward)) = self.class_member(class, "forward") else {
            return V::Unknown;
        };
        let mut all = Vec::with_capacity(args.len() + 1);
        if self.class_member(class, "setup_context").is_none() {
            all.push(V::Unknown);
        }
        all.extend(args);
        self.call_user_in(forward, Some(class), None, all, kwargs, span)
    }
}

/// `_pair(x)` and its kin: a tuple or list as a tuple, anything else repeated `n` times.
fn ntuple<'a>(args: &[V<'a>], n: usize) -> V<'a> {
    match args.first() {
        Some(v @ (V::Tuple(_) | V::List(_))) => iterate(v).map_or(V::Unknown, V::Tuple),
        Some(v) if !v.is_unknown() => V::Tuple(vec![v.clone(); n]),
        _ => V::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::{assert_twins, findings};

    /// Weight and spectral norm return their module, `_pair` makes kernel pairs,
    /// `from_pretrained` sizes the table from its weight, `x.new(...)` reads sizes or data,
    /// `resize_` rebinds its receiver, in-place activations keep their input.
    #[test]
    fn torch_utilities_keep_shapes() {
        let src = r#"
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils import weight_norm, spectral_norm
from torch.nn.modules.utils import _pair

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = weight_norm(nn.Linear(8, 16))
        self.fc2 = spectral_norm(nn.Linear(16, 4))
        self.fc3 = torch.nn.utils.parametrizations.weight_norm(nn.Linear(4, 5))
        k = _pair(3)
        self.conv = nn.Conv2d(1, 2, k)
        self.emb = nn.Embedding.from_pretrained(torch.randn(10, 7))

    def forward(self, x):
        h = self.fc3(self.fc2(self.fc(x)))
        w = next(self.parameters())
        z = w.new(2, 3)
        z2 = x.new(x.size(0), 3)
        z3 = x.new([1.0, 2.0])
        torch.relu_(z2)
        F.relu_(z2)
        e = self.emb(torch.tensor([1, 2]))
        h.resize_(2, 7)
        c = self.conv(torch.randn(1, 1, 5, 5))
        return h + e, z2 @ torch.randn(3, 2), z3 + torch.randn(2), c.view(1, 2, 3, 3)

Net()(torch.randn(2, 8))
"#;
        assert!(findings(src).is_empty(), "{:?}", findings(src));
        assert_twins(
            src,
            "z3 + torch.randn(2)",
            "z3 + torch.randn(3)",
            "z3 + torch.randn(2)",
            29,
        );
        assert_twins(
            src,
            "h.resize_(2, 7)",
            "h.resize_(2, 6)",
            "h.resize_(2, 7)",
            29,
        );
        assert_twins(
            src,
            "torch.randn(10, 7)",
            "torch.randn(10, 6)",
            "torch.randn(10, 7)",
            29,
        );
        assert_twins(
            src,
            "c.view(1, 2, 3, 3)",
            "c.view(1, 2, 3, 4)",
            "c.view(1, 2, 3, 3)",
            29,
        );
    }

    /// `MyFn.apply(x)` runs the static `forward` of a `torch.autograd.Function`, with its
    /// context first.
    #[test]
    fn autograd_function_apply_runs_forward() {
        let src = r#"
import torch

class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, w):
        ctx.save_for_backward(x, w)
        return x @ w

    @staticmethod
    def backward(ctx, g):
        x, w = ctx.saved_tensors
        return g @ w.t(), x.t() @ g

def run():
    scale = Scale.apply
    return scale(torch.randn(2, 3), torch.randn(WIDTH, 4))

run()
"#;
        assert_twins(src, "WIDTH", "5", "3", 8);
    }
}
