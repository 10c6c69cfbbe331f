//! Well-known model-building entry points of libraries other than torch, modelled by what
//! they construct, so that a library's builder functions (`resnet18()`) can be run as their
//! callers run them. Only effects that matter to shapes are modelled; anything else
//! (loading weights, wrapping the model) leaves shapes alone or makes the result unknown.

use ruff_python_ast::{Expr, StmtClassDef, StmtFunctionDef};
use ruff_text_size::TextRange;

use super::interp::Interp;
use super::value::V;
use crate::shapes::Value;

/// timm's `build_model_with_cfg(model_cls, variant, pretrained, **kwargs)`
/// (`timm/models/_builder.py`, formerly `helpers.py`), which every timm model file's
/// builders call: it builds `model_cls(**kwargs)` (with `cfg=model_cfg` when given) after
/// removing its own parameters, then loads weights when `pretrained`. With
/// `features_only=True` it wraps the model in a feature extractor (unknown here).
const TIMM_BUILD: &str = "timm.build_model_with_cfg";
/// timm's `generate_default_cfgs({'arch.tag': cfg, ...})` (`_registry.py`), which a model
/// file's `default_cfgs` global holds: modelled as its argument, so that a builder can read
/// its variant's pretrained config.
const TIMM_DEFAULT_CFGS: &str = "timm.generate_default_cfgs";

/// `build_model_with_cfg`'s own parameters (and the ones it pops), never passed to the model.
const TIMM_BUILD_PARAMS: [&str; 14] = [
    "model_cls",
    "features_only",
    "variant",
    "pretrained",
    "pretrained_cfg",
    "pretrained_cfg_overlay",
    "model_cfg",
    "feature_cfg",
    "pretrained_strict",
    "pretrained_filter_fn",
    "cache_dir",
    "kwargs_filter",
    "pretrained_model_args",
    "pruned",
];

/// Size arguments timm fills from the variant's pretrained config when the caller did not
/// pass them (`_update_default_model_kwargs`): their values come from a registry outside the
/// file, so they are size symbols (any positive value) rather than the class defaults.
/// `global_pool` keeps the class default.
const TIMM_CFG_SIZES: [&str; 2] = ["num_classes", "in_chans"];

/// The image size timm fills from the variant's pretrained config (`input_size`) for models
/// of a fixed input size (`fixed_input_size`), when the caller did not pass it. It is read
/// from the file's configs ([`timm_image_size`]); when they cannot be read it is a size
/// symbol for a class taking an int, unknown otherwise. The class default is not it:
/// `crossvit_tiny_240` is built for 240 with patches of 12 and a scale of 224/240, and its
/// class default of 224 makes a model whose position embedding no input fits.
const TIMM_CFG_IMAGE: &str = "img_size";

/// The module global timm's model files keep their variants' pretrained configs in.
const TIMM_CFGS_GLOBAL: &str = "default_cfgs";

/// The image size timm builds `variant` for, from its pretrained configs (`default_cfgs`,
/// keyed `arch` or `arch.tag`): `Some(Some(size))` when the configs make it a fixed-size
/// model (`fixed_input_size`), the last two of `input_size`; `Some(None)` when they do not
/// (the class default stands, as with timm's default config for a variant it has none of);
/// `None` when not known: the configs are not a dict of dicts, or the variant's tags
/// disagree (which tag is the default depends on which have weights).
fn timm_image_size<'a>(cfgs: &V<'a>, variant: &str) -> Option<Option<V<'a>>> {
    let V::Dict(cfgs) = cfgs else { return None };
    let mut sizes = cfgs
        .iter()
        .filter(|(key, _)| key.split_once('.').map_or(key.as_str(), |(arch, _)| arch) == variant)
        .map(|(_, cfg)| {
            let V::Dict(cfg) = cfg else { return None };
            let get = |name: &str| cfg.iter().find(|(k, _)| k == name).map(|(_, v)| v);
            match get("fixed_input_size").map(V::truth) {
                None | Some(Some(false)) => Some(None),
                Some(Some(true)) => match get("input_size").and_then(V::elements) {
                    Some(chw) if chw.len() == 3 => Some(Some(V::Tuple(chw[1..].to_vec()))),
                    _ => None,
                },
                Some(None) => None,
            }
        });
    let first = sizes.next().unwrap_or(Some(None))?;
    let same = |a: &Option<V<'a>>, b: &Option<V<'a>>| match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => a.same(b),
        _ => false,
    };
    sizes
        .all(|s| s.is_some_and(|s| same(&s, &first)))
        .then_some(first)
}

/// torchvision's `WeightsEnum` (`torchvision/models/_api.py`), the base of every
/// `*_Weights` enum. Its class method `verify(obj)` returns `None` for `None` (and a weights
/// member otherwise); builders start with `weights = ResNet18_Weights.verify(weights)`.
/// Model summaries, which run the model on inputs they build: torchsummary's
/// `summary(model, input_size)` on `torch.rand(2, *input_size)` (a batch of two, per input
/// size when given several), torchinfo's `summary(model, input_size=...)` on a tensor of
/// that whole size, or on `input_data`.
const TORCHSUMMARY: &str = "torchsummary.summary";
const TORCHINFO: &str = "torchinfo.summary";

/// scikit-learn's `train_test_split(*arrays, test_size=None, train_size=None, ...)`: each
/// array's rows in two parts, train then test, for every array in turn. Of `n` rows a float
/// `test_size` takes `ceil(test_size * n)`, a float `train_size` `floor(train_size * n)`, an
/// int that many; a size not given is the rest, and with neither the test part is a quarter.
const SKLEARN_SPLIT: &str = "sklearn.model_selection.train_test_split";

const TORCHVISION_WEIGHTS: &str = "torchvision.WeightsEnum";
const TORCHVISION_VERIFY: &str = "torchvision.WeightsEnum.verify";

/// Whether a builtin is a tqdm progress bar: `Some(true)` for `trange` (a range of its
/// arguments), `Some(false)` for `tqdm` (its iterable), `None` for anything else.
pub fn progress_bar(name: &str) -> Option<bool> {
    match name {
        "tqdm.trange" | "tqdm.auto.trange" | "tqdm.notebook.trange" => Some(true),
        "tqdm.tqdm" | "tqdm.auto.tqdm" | "tqdm.notebook.tqdm" => Some(false),
        _ => None,
    }
}

/// The value `from MODULE import NAME` binds when it is a modelled library object.
/// `level` counts the leading dots of a relative import (timm's own files import the
/// builder as `from ._builder import build_model_with_cfg`).
pub fn library_import<'a>(module: &str, level: u32, name: &str) -> Option<V<'a>> {
    let relative = |modules: &[&str]| level > 0 && modules.contains(&module);
    match name {
        "build_model_with_cfg"
            if module.starts_with("timm")
                || relative(&["_builder", "helpers", "models._builder", ""]) =>
        {
            Some(V::Builtin(TIMM_BUILD))
        }
        "generate_default_cfgs"
            if module.starts_with("timm") || relative(&["_registry", "models._registry"]) =>
        {
            Some(V::Builtin(TIMM_DEFAULT_CFGS))
        }
        "WeightsEnum"
            if module.starts_with("torchvision") || relative(&["_api", "models._api"]) =>
        {
            Some(V::Builtin(TORCHVISION_WEIGHTS))
        }
        "train_test_split" if level == 0 && module == "sklearn.model_selection" => {
            Some(V::Builtin(SKLEARN_SPLIT))
        }
        "summary" if level == 0 && module == "torchsummary" => Some(V::Builtin(TORCHSUMMARY)),
        "summary" if level == 0 && module == "torchinfo" => Some(V::Builtin(TORCHINFO)),
        _ => None,
    }
}

/// A call's positional and keyword arguments.
pub type Arguments<'a> = (Vec<V<'a>>, Vec<(String, V<'a>)>);

/// torchvision's `@handle_legacy_interface(weights=("pretrained", DEFAULT))`
/// (`torchvision/models/_utils.py`) on its builders, with `@kwonly_to_pos_or_kw`: positional
/// arguments fill the keyword-only parameters in order, and the legacy `pretrained=flag` (by
/// name, or a bool in the weights parameter's place) becomes `weights=None` when false and the
/// default weights (unknown here) when true. The call's arguments as the builder sees them;
/// `None` when `def` is not so decorated.
pub fn legacy_interface<'a>(
    def: &StmtFunctionDef,
    args: &[V<'a>],
    kwargs: &[(String, V<'a>)],
) -> Option<Arguments<'a>> {
    let renames: Vec<(&str, &str)> = def
        .decorator_list
        .iter()
        .filter_map(|d| match &d.expression {
            Expr::Call(c)
                if super::decorators::last_name(&c.func) == Some("handle_legacy_interface") =>
            {
                Some(c)
            }
            _ => None,
        })
        .flat_map(|c| c.arguments.keywords.iter())
        .filter_map(|k| {
            let new = k.arg.as_ref()?.as_str();
            let Expr::Tuple(t) = &k.value else {
                return None;
            };
            match t.elts.first() {
                Some(Expr::StringLiteral(old)) => Some((new, old.value.to_str())),
                _ => None,
            }
        })
        .collect();
    if renames.is_empty() {
        return None;
    }
    let mut kwargs = kwargs.to_vec();
    let kwonly = def.parameters.kwonlyargs.iter();
    for (param, v) in kwonly.zip(args) {
        kwargs.push((param.parameter.name.id.to_string(), v.clone()));
    }
    let weights = |flag: &V<'a>| match flag.truth() {
        Some(false) => V::none(),
        _ => V::Unknown,
    };
    for (new, old) in renames {
        if let Some(i) = kwargs.iter().position(|(k, _)| k == old) {
            let (_, flag) = kwargs.remove(i);
            if !kwargs.iter().any(|(k, _)| k == new) {
                kwargs.push((new.to_string(), weights(&flag)));
            }
        } else if let Some((_, v)) = kwargs.iter_mut().find(|(k, _)| k == new) {
            if matches!(v, V::Data(Value::Bool(_))) {
                *v = weights(v);
            }
        }
    }
    let rest = args.len().saturating_sub(def.parameters.kwonlyargs.len());
    Some((args[args.len() - rest..].to_vec(), kwargs))
}

/// torchvision's box operations (`from torchvision.ops import nms`, also through
/// `torchvision.ops.boxes`), bound to their operator rules when one exists.
pub fn torchvision_op<'a>(path: &str) -> Option<V<'a>> {
    let name = path
        .strip_prefix("torchvision.ops.boxes.")
        .or_else(|| path.strip_prefix("torchvision.ops."))?;
    let canonical = format!("torchvision.ops.{name}");
    crate::catalogue::lookup(&canonical).map(|_| V::Torch(canonical.into()))
}

/// See [`SKLEARN_SPLIT`]: the parts when every array's row count is known and both parts
/// are non-empty (otherwise scikit-learn raises, which is not modelled); a tensor or numpy
/// array part keeps its other dims, anything else is unknown.
fn train_test_split<'a>(args: &[V<'a>], kwargs: &[(String, V<'a>)]) -> Option<V<'a>> {
    use crate::shapes::{Dim, Shape, Value};
    let rows = |v: &V| -> Option<i64> {
        let t = match v {
            V::Array(t) => &**t,
            V::Data(Value::Tensor(t)) => t,
            other => return other.elements().map(|items| items.len() as i64),
        };
        t.shape.dims()?.first()?.as_const()
    };
    let n = rows(args.first()?)?;
    if args.iter().any(|a| rows(a) != Some(n)) {
        return None;
    }
    let size = |name: &str| kwargs.iter().find(|(k, _)| k == name).map(|(_, v)| v);
    // A float fraction in (0, 1) or an int count; `None` for a size not given.
    let part = |v: Option<&V>, round: fn(f64) -> f64| -> Result<Option<i64>, ()> {
        match v {
            None | Some(V::Data(Value::None)) => Ok(None),
            Some(V::Data(Value::Float(Some(f)))) if *f > 0.0 && *f < 1.0 => {
                Ok(Some(round(f * n as f64) as i64))
            }
            Some(other) => match super::expr::int_of(other).and_then(|e| e.as_const()) {
                Some(c) => Ok(Some(c)),
                None => Err(()),
            },
        }
    };
    for (k, _) in kwargs {
        if ![
            "test_size",
            "train_size",
            "random_state",
            "shuffle",
            "stratify",
        ]
        .contains(&k.as_str())
        {
            return None;
        }
    }
    let test = part(size("test_size"), f64::ceil).ok()?;
    let train = part(size("train_size"), f64::floor).ok()?;
    let (train, test) = match (train, test) {
        (None, None) => (
            n - (0.25 * n as f64).ceil() as i64,
            (0.25 * n as f64).ceil() as i64,
        ),
        (None, Some(t)) => (n - t, t),
        (Some(t), None) => (t, n - t),
        (Some(a), Some(b)) => (a, b),
    };
    if train < 1 || test < 1 || train + test > n {
        return None;
    }
    let with_rows = |v: &V<'a>, count: i64| -> V<'a> {
        let take = |t: &crate::shapes::value::TensorValue| {
            let mut dims = t.shape.dims()?.to_vec();
            dims[0] = Dim::constant(count);
            let mut out = t.clone();
            out.shape = Shape::Ranked(dims);
            out.elements = None;
            out.top = None;
            Some(out)
        };
        match v {
            V::Array(t) => take(t).map_or(V::Unknown, |t| V::Array(Box::new(t))),
            V::Data(Value::Tensor(t)) => take(t).map_or(V::Unknown, |t| V::Data(Value::Tensor(t))),
            _ => V::Unknown,
        }
    };
    Some(V::list(
        args.iter()
            .flat_map(|a| [with_rows(a, train), with_rows(a, test)])
            .collect(),
    ))
}

impl<'a> Interp<'a> {
    /// Calls a library function bound by [`library_import`]; `None` for other builtins.
    pub fn call_library(
        &mut self,
        name: &str,
        args: &[V<'a>],
        kwargs: &[(String, V<'a>)],
        span: TextRange,
    ) -> Option<V<'a>> {
        match progress_bar(name) {
            Some(true) => return Some(self.call_builtin("range", args.to_vec(), Vec::new(), span)),
            Some(false) => {
                let iterable = super::calls::argument(args, kwargs, 0, "iterable");
                return Some(iterable.cloned().unwrap_or(V::Unknown));
            }
            None => {}
        }
        match name {
            TIMM_BUILD => Some(self.timm_build(args, kwargs, span)),
            TIMM_DEFAULT_CFGS => Some(match args.first() {
                Some(cfgs @ V::Dict(_)) => cfgs.clone(),
                _ => V::Unknown,
            }),
            SKLEARN_SPLIT => Some(train_test_split(args, kwargs).unwrap_or(V::Unknown)),
            TORCHSUMMARY | TORCHINFO => {
                let model = args.first().cloned().unwrap_or(V::Unknown);
                let size = super::calls::argument(args, kwargs, 1, "input_size").cloned();
                let data = kwargs
                    .iter()
                    .find(|(k, _)| k == "input_data")
                    .map(|(_, v)| v.clone());
                let inputs = match (name, size, data) {
                    (TORCHINFO, _, Some(data)) => vec![data],
                    (TORCHINFO, Some(size), None) => vec![self.random_input(&[], &size)],
                    (TORCHSUMMARY, Some(size), None) => match size.elements() {
                        // Several input sizes: a list of tuples.
                        Some(items)
                            if items.iter().all(|i| matches!(i, V::Tuple(_) | V::List(_))) =>
                        {
                            items.iter().map(|s| self.random_input(&[2], s)).collect()
                        }
                        _ => vec![self.random_input(&[2], &size)],
                    },
                    _ => return Some(V::Unknown),
                };
                self.run_on_example(model, inputs, span);
                Some(V::none())
            }
            TORCHVISION_VERIFY => Some(match args.first() {
                Some(none @ V::Data(crate::shapes::Value::None)) => none.clone(),
                _ => V::Unknown,
            }),
            _ => None,
        }
    }

    /// A member that a class of the file inherits from a modelled library base.
    pub fn library_class_member(&self, class: &'a StmtClassDef, name: &str) -> Option<V<'a>> {
        let bases = self.classes.bases.get(&(class as *const _))?;
        let from_weights = bases
            .iter()
            .any(|b| matches!(b, V::Builtin(TORCHVISION_WEIGHTS)));
        (from_weights && name == "verify").then_some(V::Builtin(TORCHVISION_VERIFY))
    }

    fn timm_build(&mut self, args: &[V<'a>], kwargs: &[(String, V<'a>)], span: TextRange) -> V<'a> {
        let kwarg = |name: &str| kwargs.iter().find(|(k, _)| k == name).map(|(_, v)| v);
        let Some(model_cls) = args.first().or_else(|| kwarg("model_cls")).cloned() else {
            return V::Unknown;
        };
        // A feature extractor wraps the model; filtered kwargs are a list we may not know.
        if kwarg("features_only").is_some_and(|v| v.truth() != Some(false))
            || kwarg("kwargs_filter").is_some_and(|v| v.truth() != Some(false))
        {
            return V::Unknown;
        }
        let mut model_kwargs: Vec<(String, V<'a>)> = kwargs
            .iter()
            .filter(|(k, _)| !TIMM_BUILD_PARAMS.contains(&k.as_str()))
            .cloned()
            .collect();
        if let Some(cfg) = kwarg("model_cfg").filter(|v| v.truth() != Some(false)) {
            model_kwargs.push(("cfg".to_string(), cfg.clone()));
        }
        if let V::Class(class) = &model_cls {
            if let Some(V::Func(init)) = self.class_member(class, "__init__") {
                // What the config may fill: taken by the class, not passed by the caller.
                let filled = |name: &str| {
                    kwarg(name).is_none()
                        && init
                            .parameters
                            .iter_non_variadic_params()
                            .any(|p| p.parameter.name.id.as_str() == name)
                };
                for name in TIMM_CFG_SIZES.into_iter().filter(|n| filled(n)) {
                    let size = self.fresh_size_input(name);
                    model_kwargs.push((name.to_string(), size));
                }
                let variant = super::calls::argument(args, kwargs, 1, "variant");
                let cfg_given = kwarg("pretrained_cfg").is_some_and(|v| v.truth() != Some(false))
                    || kwarg("pretrained_cfg_overlay").is_some_and(|v| v.truth() != Some(false));
                let image = match variant {
                    Some(V::Data(Value::Str(Some(variant)))) if !cfg_given => self
                        .globals
                        .get(TIMM_CFGS_GLOBAL)
                        .and_then(|cfgs| timm_image_size(cfgs, variant)),
                    _ => None,
                };
                match image {
                    _ if !filled(TIMM_CFG_IMAGE) => {}
                    Some(Some(size)) => model_kwargs.push((TIMM_CFG_IMAGE.to_string(), size)),
                    // Not a fixed-size model: the class default.
                    Some(None) => {}
                    None => {
                        // A square size (an int default) is any size; a tuple's sides are not
                        // known to be related, and stay unknown.
                        let square = init
                            .parameters
                            .iter_non_variadic_params()
                            .find(|p| p.parameter.name.id.as_str() == TIMM_CFG_IMAGE)
                            .and_then(|p| p.default.as_deref())
                            .is_some_and(|d| super::domains::int_literal(d).is_some());
                        let size = if square {
                            self.fresh_size_input(TIMM_CFG_IMAGE)
                        } else {
                            V::Unknown
                        };
                        model_kwargs.push((TIMM_CFG_IMAGE.to_string(), size));
                    }
                }
            }
        }
        self.call(model_cls, Vec::new(), model_kwargs, span)
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::{assert_twins, errors, findings};

    /// scikit-learn's split keeps each array's other dims and sizes the parts from the
    /// fractions: 50 rows at `test_size=0.3` are 35 to train on and 15 to test.
    #[test]
    fn train_test_split_sizes_its_parts() {
        let src = r#"
import numpy as np
import torch
from torch import nn
from sklearn.model_selection import train_test_split

x = np.random.rand(50, 12)
y = np.zeros(50)
x_tr, x_te, y_tr, y_te = train_test_split(x, y, test_size=0.3, random_state=0)
net = nn.Linear(12, 1)
net(torch.from_numpy(x_te).float())
rows = torch.zeros(x_tr.shape[0] + y_te.shape[0], 2)
nn.Linear(50, 2)(rows.t())
out = nn.Linear(WIDTH, 1)(torch.from_numpy(x_tr).float())
"#;
        assert_twins(src, "WIDTH", "35", "12", 14);
    }

    const TIMM: &str = r#"
import torch
from torch import nn
from ._builder import build_model_with_cfg

class Tiny(nn.Module):
    def __init__(self, width, depth=2, in_chans=3, num_classes=1000, global_pool='avg'):
        super().__init__()
        self.stem = nn.Conv2d(in_chans, width, 3)
        self.blocks = nn.Sequential(*[nn.Conv2d(width, width, 3, padding=1) for _ in range(depth)])
        self.head = nn.Linear(HEAD, num_classes)

    def forward(self, x):
        x = self.blocks(self.stem(x))
        return self.head(x.mean((2, 3)))

def _create_tiny(variant, pretrained=False, **kwargs):
    return build_model_with_cfg(Tiny, variant, pretrained, feature_cfg=dict(out_indices=(1,)), **kwargs)

def tiny_wide(pretrained=False, **kwargs):
    model_args = dict(width=48)
    return _create_tiny('tiny_wide', pretrained=pretrained, **dict(model_args, **kwargs))
"#;

    #[test]
    fn timm_builders_construct_the_class_with_the_merged_arguments() {
        // `width=48` reaches the model through `dict(model_args, **kwargs)` and the builder.
        let found = findings(&TIMM.replace("HEAD", "32"));
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].unit, "tiny_wide");
        assert_eq!(found[0].span.line, 15);
        // num_classes and in_chans come from timm's config registry: symbols, in the witness.
        let witness = found[0].witness.as_deref().unwrap_or_default();
        assert!(witness.contains("num_classes = "), "{witness}");
        // The class alone still warns: it fails unless `width == 48`.
        assert!(errors(&TIMM.replace("HEAD", "48")).is_empty());
    }

    /// A fixed-size model gets its image size from the variant's pretrained config
    /// (`fixed_input_size`, `input_size`) in the file's `default_cfgs`; without one it is
    /// any size, not the class default (at which patches of 12 make a position table no
    /// input fits). A model not of a fixed size keeps the class default, and a builder that
    /// passes the size is checked at it.
    #[test]
    fn a_timm_builders_image_size_comes_from_the_config() {
        let src = r#"
import torch
import torch.nn as nn
from ._builder import build_model_with_cfg
from ._registry import generate_default_cfgs

class Patches(nn.Module):
    def __init__(self, img_size=224, patch_size=16, dim=32):
        super().__init__()
        self.size = img_size if isinstance(img_size, tuple) else (img_size, img_size)
        self.proj = nn.Conv2d(3, dim, patch_size, patch_size)
        self.pos = nn.Parameter(torch.zeros(1, self.size[0] // patch_size * self.size[1] // patch_size, dim))

    def forward(self, x):
        x = nn.functional.interpolate(x, size=self.size)
        return self.proj(x).flatten(2).transpose(1, 2) + self.pos

def _cfg(url='', **kwargs):
    return {'url': url, 'num_classes': 1000, 'input_size': (3, 224, 224), **kwargs}

CFGS

def patches_240(pretrained=False, **kwargs):
    model_args = dict(patch_size=12SIZE)
    return build_model_with_cfg(Patches, 'patches_240', pretrained, **dict(model_args, **kwargs))
"#;
        let fixed = |size: u32| {
            format!(
                "default_cfgs = generate_default_cfgs({{\n    'patches_240.a': _cfg(input_size=(3, {size}, {size}), fixed_input_size=True),\n    'patches_240.b': _cfg(input_size=(3, {size}, {size}), fixed_input_size=True),\n}})"
            )
        };
        let case =
            |cfgs: &str, size: &str| errors(&src.replace("CFGS", cfgs).replace("SIZE", size));
        // No config: any size.
        assert!(case("", "").is_empty());
        // The config's fixed size, 240, fits; 224 does not, nor does the class default.
        assert!(case(&fixed(240), "").is_empty());
        assert_eq!(case(&fixed(224), "").len(), 1);
        let free = "default_cfgs = generate_default_cfgs({'patches_240': _cfg()})";
        assert_eq!(case(free, "").len(), 1);
        // Tags that disagree: not known which is the default.
        let mixed = fixed(240).replace(
            ".a': _cfg(input_size=(3, 240, 240)",
            ".a': _cfg(input_size=(3, 224, 224)",
        );
        assert!(case(&mixed, "").is_empty());
        // Passed by the builder: checked at it, whatever the config.
        let found = case(&fixed(240), ", img_size=224");
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].unit, "patches_240");
    }

    #[test]
    fn features_only_models_are_unknown() {
        let src = TIMM.replace("HEAD", "32").replace(
            "**dict(model_args, **kwargs))",
            "features_only=True, **model_args)",
        );
        assert!(errors(&src).is_empty());
    }

    const TORCHVISION: &str = r#"
from typing import Optional
import torch
from torch import nn
from ._api import WeightsEnum
from ._utils import _ovewrite_named_param

class Small_Weights(WeightsEnum):
    pass

class Small(nn.Module):
    def __init__(self, width, num_classes=1000, norm_layer=None):
        super().__init__()
        if norm_layer is None:
            norm_layer = nn.BatchNorm2d
        self.conv = nn.Conv2d(3, width, 3)
        self.bn = norm_layer(BN)

    def forward(self, x):
        return self.bn(self.conv(x))

def small(*, weights: Optional[Small_Weights] = None, progress: bool = True, **kwargs):
    weights = Small_Weights.verify(weights)
    if weights is not None:
        _ovewrite_named_param(kwargs, "num_classes", len(weights.meta["categories"]))
    model = Small(16, **kwargs)
    if weights is not None:
        model.load_state_dict(weights.get_state_dict(progress=progress))
    return model
"#;

    #[test]
    fn torchvision_builders_run_without_weights() {
        // `verify(None)` is None, so the weights branches (which an unknown helper could use
        // to change the keyword arguments) are not taken.
        let found = findings(&TORCHVISION.replace("BN", "8"));
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].unit, "small");
        assert_eq!(found[0].span.line, 20);
        assert!(findings(&TORCHVISION.replace("BN", "width")).is_empty());
    }
}

impl<'a> Interp<'a> {
    /// A float tensor of shape `lead` + `size` (`size` a tuple or list of ints), as
    /// `torch.rand` builds it.
    fn random_input(&mut self, lead: &[i64], size: &V<'a>) -> V<'a> {
        let mut dims: Vec<V<'a>> = lead
            .iter()
            .map(|&d| V::Data(crate::shapes::Value::int(d)))
            .collect();
        match size.elements() {
            Some(items) => dims.extend(items),
            None => return V::Unknown,
        }
        self.apply_function("torch.rand", dims, Vec::new(), TextRange::default(), &[])
    }

    /// Runs a model on example inputs, as tracing (`torch.jit.trace(model, x)`), export
    /// (`torch.onnx.export(model, (x, y), ...)`) and summaries do: a tuple of inputs is
    /// spread over `forward`'s parameters.
    pub(super) fn run_on_example(&mut self, model: V<'a>, inputs: Vec<V<'a>>, span: TextRange) {
        let inputs = match inputs.as_slice() {
            [V::Tuple(items)] => items.clone(),
            _ => inputs,
        };
        if inputs.iter().any(V::is_unknown) {
            return;
        }
        self.call(model, inputs, Vec::new(), span);
    }
}

#[cfg(test)]
mod example_tests {
    use crate::testing::assert_twins;

    /// A model only ever run by `torch.jit.trace` on an example input is run on it.
    #[test]
    fn tracing_runs_the_model_on_its_example() {
        let src = r#"
import torch
import torch.nn as nn

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(10, 5)

    def forward(self, x):
        return self.fc(x)

traced = torch.jit.trace(Net(), torch.randn(4, WIDTH))
"#;
        assert_twins(src, "WIDTH", "12", "10", 11);
    }

    /// torchsummary runs the model on a batch of two of the given size.
    #[test]
    fn torchsummary_runs_the_model_on_a_batch_of_two() {
        let src = r#"
import torch.nn as nn
from torchsummary import summary

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3)
        self.fc = nn.Linear(8 * 30 * 30, 10)

    def forward(self, x):
        return self.fc(self.conv(x).flatten(1))

summary(Net(), (3, SIDE, SIDE))
"#;
        assert_twins(src, "SIDE", "28", "32", 12);
    }
}

#[cfg(test)]
mod progress_tests {
    use crate::testing::assert_twins;

    /// `tqdm(range(n))` and `trange(n)` are their ranges: the loops unroll.
    #[test]
    fn progress_bars_pass_their_iterable_through() {
        let src = r#"
import torch
import torch.nn as nn
import tqdm as progress
from tqdm import tqdm, trange

def run():
    xs = []
    for i in tqdm(range(3)):
        xs.append(torch.randn(2, 4))
    for i in trange(1, 3):
        xs.append(torch.randn(2, 4))
    for x in progress.tqdm([torch.randn(2, 4)], desc="extra"):
        xs.append(x)
    h = torch.cat(xs, 1)
    return nn.Linear(WIDTH, 3)(h)

run()
"#;
        assert_twins(src, "WIDTH", "20", "24", 16);
    }
}
