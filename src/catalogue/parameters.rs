//! The parameters and buffers a built module holds (`conv.weight`, `ln.bias`,
//! `bn.running_mean`), shaped from the hyperparameters its `init` rule stored (the other
//! attributes model code reads, `eps` or `normalized_shape`, are those hyperparameters
//! themselves). Model code reads them directly (`F.linear(x, self.proj.weight)`, weight
//! standardisation in a subclass of `nn.Conv2d`, `F.layer_norm(x, self.normalized_shape,
//! self.weight, ...)`).

use crate::shapes::dim::DimExpr;
use crate::shapes::shape::{Dim, Shape};
use crate::shapes::value::{DType, ModuleValue, Value};

/// `module.<attr>` for a parameter or buffer of a modelled layer: a float tensor of the
/// shape PyTorch allocates, or `None` (Python's None) for a parameter the layer was built
/// without (`bias=False`, `affine=False`). `None` (Rust's) when the attribute is not one of
/// these or a hyperparameter it needs is unknown.
pub fn module_parameter(m: &ModuleValue, attr: &str) -> Option<Value> {
    let class = m.class.strip_prefix("torch.nn.")?;
    let int = |name: &str| match m.params.get(name) {
        Some(Value::Int(e)) => Some(e.clone()),
        _ => None,
    };
    // Flags the init rules store, with PyTorch's defaults already applied.
    let flag = |name: &str| match m.params.get(name) {
        Some(Value::Bool(Some(b))) => Some(*b),
        _ => None,
    };
    let tensor = |dims: Vec<DimExpr>| {
        Value::tensor(
            Shape::Ranked(dims.into_iter().map(Dim::Known).collect()),
            Some(DType::Float),
        )
    };
    let optional =
        |present: bool, dims: Vec<DimExpr>| if present { tensor(dims) } else { Value::None };
    match (class, attr) {
        // nn.Linear(in_features, out_features, bias=True): weight [out, in], bias [out].
        ("Linear", "weight") => Some(tensor(vec![int("out_features")?, int("in_features")?])),
        ("Linear", "bias") => Some(optional(flag("bias")?, vec![int("out_features")?])),
        // nn.ConvNd: weight [out, in / groups, *kernel]; nn.ConvTransposeNd: [in, out / groups,
        // *kernel]; bias [out].
        (c, "weight") if c.starts_with("Conv") => {
            let (cin, cout, groups) = (int("in_channels")?, int("out_channels")?, int("groups")?);
            let (first, second) = if c.starts_with("ConvTranspose") {
                (cin, cout.floordiv(&groups))
            } else {
                (cout, cin.floordiv(&groups))
            };
            let kernel = m.params.get("kernel_size")?.elements()?;
            let mut dims = vec![first, second];
            for k in kernel {
                dims.push(k.as_int_expr()?);
            }
            Some(tensor(dims))
        }
        (c, "bias") if c.starts_with("Conv") => {
            Some(optional(flag("bias")?, vec![int("out_channels")?]))
        }
        // nn.LayerNorm(normalized_shape, eps, elementwise_affine=True, bias=True) and
        // nn.RMSNorm (no bias): weight and bias [*normalized_shape].
        ("LayerNorm" | "RMSNorm", "weight" | "bias") => {
            let shape = m.params.get("normalized_shape")?.elements()?;
            let dims = shape
                .iter()
                .map(Value::as_int_expr)
                .collect::<Option<Vec<_>>>()?;
            let affine = flag("elementwise_affine")?;
            let present = affine && (attr == "weight" || (class == "LayerNorm" && flag("bias")?));
            Some(optional(present, dims))
        }
        // Batch and instance norms: weight and bias [C] when affine; running_mean and
        // running_var [C] when tracking running stats.
        (c, "weight" | "bias" | "running_mean" | "running_var")
            if c.starts_with("BatchNorm") || c.starts_with("InstanceNorm") =>
        {
            let present = if attr.starts_with("running") {
                flag("track_running_stats")?
            } else {
                flag("affine")?
            };
            Some(optional(present, vec![int("num_features")?]))
        }
        // nn.GroupNorm(num_groups, num_channels, eps, affine=True): weight and bias [C].
        ("GroupNorm", "weight" | "bias") => {
            Some(optional(flag("affine")?, vec![int("num_channels")?]))
        }
        // nn.Embedding(num_embeddings, embedding_dim): weight [num, dim].
        ("Embedding" | "EmbeddingBag", "weight") => {
            Some(tensor(vec![int("num_embeddings")?, int("embedding_dim")?]))
        }
        _ => None,
    }
}

/// What assigning `module.<attr> = value` after construction does to a modelled layer
/// (weight tying: `decoder.weight = encoder.weight`). torch computes with the parameter the
/// module holds at call time, so a `weight` of known shape sets the hyperparameters the rules
/// read: `nn.Linear`'s `[out_features, in_features]`, `nn.Embedding`'s `[num_embeddings,
/// embedding_dim]`, a convolution's `[out, in / groups, *kernel]` (`[in, out / groups,
/// *kernel]` transposed). `Some(unchanged)` for an attribute that is neither a parameter
/// nor a hyperparameter; `None` when the layer's shapes are no longer known (any other
/// parameter or hyperparameter, or a weight of unknown shape).
pub fn with_assigned(m: &ModuleValue, attr: &str, value: &Value) -> Option<ModuleValue> {
    let is_parameter = module_parameter(m, attr).is_some() || matches!(attr, "weight" | "bias");
    if !is_parameter && !m.params.contains_key(attr) {
        return Some(m.clone());
    }
    if attr != "weight" {
        return None;
    }
    let class = m.class.strip_prefix("torch.nn.")?;
    let dims: Vec<DimExpr> = value
        .as_tensor()?
        .shape
        .dims()?
        .iter()
        .map(|d| d.expr().cloned())
        .collect::<Option<_>>()?;
    let mut out = m.clone();
    let mut set = |name: &str, e: &DimExpr| {
        out.params.insert(name.to_string(), Value::Int(e.clone()));
    };
    match (class, dims.as_slice()) {
        ("Linear", [o, i]) => {
            set("out_features", o);
            set("in_features", i);
        }
        ("Embedding" | "EmbeddingBag", [n, d]) => {
            set("num_embeddings", n);
            set("embedding_dim", d);
        }
        (c, [first, second, kernel @ ..]) if c.starts_with("Conv") && !kernel.is_empty() => {
            let groups = match m.params.get("groups") {
                Some(Value::Int(g)) => g.clone(),
                _ => return None,
            };
            let rank = m.params.get("kernel_size")?.elements()?.len();
            if rank != kernel.len() {
                return None;
            }
            let (cin, cout) = if c.starts_with("ConvTranspose") {
                (first.clone(), second.mul(&groups))
            } else {
                (second.mul(&groups), first.clone())
            };
            set("in_channels", &cin);
            set("out_channels", &cout);
            out.params.insert(
                "kernel_size".to_string(),
                Value::Tuple(kernel.iter().cloned().map(Value::Int).collect()),
            );
        }
        _ => return None,
    }
    Some(out)
}
