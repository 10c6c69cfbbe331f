//! Classes that extend torch modules, and `super()`: `class LayerNorm2d(nn.LayerNorm)`,
//! `class Block(nn.Sequential)`, `class Bank(nn.ModuleDict)`. `super().__init__(...)` builds
//! the torch instance the object extends; its parameters (`self.weight`), hyperparameters
//! (`self.normalized_shape`), methods (`self.items()`) and default `forward` stand in for
//! what the class does not define itself.

use std::cell::RefCell;
use std::rc::Rc;

use ruff_python_ast::{Expr, Stmt, StmtClassDef};
use ruff_text_size::TextRange;

use super::interp::Interp;
use super::value::{Object, TORCH_BASE_ATTR, V};
use crate::operators::api::torch_api;
use crate::shapes::Value;

impl<'a> Interp<'a> {
    /// `module.children()` of an object of the file's `nn.Module` classes: its layer
    /// attributes in registration order; unknown when an attribute is unknown (it may be a
    /// layer, and leaving it out would run a different network).
    pub fn children(&self, o: &Rc<RefCell<Object<'a>>>) -> V<'a> {
        let o = o.borrow();
        let mut out = Vec::new();
        for name in o.order.iter().filter(|n| *n != TORCH_BASE_ATTR) {
            match o.attrs.get(name) {
                Some(V::Unknown | V::Data(Value::Unknown) | V::Lazy(_)) | None => {
                    return V::Unknown
                }
                Some(V::Object(c)) if !self.is_module_class(c.borrow().class) => {}
                Some(v) if v.is_layer() => out.push(v.clone()),
                Some(_) => {}
            }
        }
        V::list(out)
    }

    /// `super().method(...)`: the next class after the running method's class in the method
    /// resolution order of the instance's class (C3 over the bases the analysis knows) that
    /// has it: a class of the file with its own method (or, for `__init__`, a dataclass's
    /// generated one); a torch layer's construction (`nn.Module.__init__` builds nothing and
    /// calls no further `__init__`) or method; a base not known gives nothing known. Without
    /// an order (inconsistent bases), the first base of the file that has the method.
    pub(super) fn call_super_method(
        &mut self,
        method: &str,
        args: Vec<V<'a>>,
        kwargs: Vec<(String, V<'a>)>,
        span: TextRange,
    ) -> V<'a> {
        let Some((class, this)) = self.run.class_ctx.last().cloned() else {
            return V::Unknown;
        };
        let start = match &this {
            V::Class(c) => Some(*c),
            other => other.object_class(),
        };
        let order = start.and_then(|c| self.mro(c));
        let next = order.as_ref().and_then(|order| {
            let at = order
                .iter()
                .position(|e| matches!(e, MroEntry::User(c) if std::ptr::eq(*c, class)))?;
            Some(order[at + 1..].to_vec())
        });
        if let Some(next) = next {
            return self.call_next_in_mro(&next, class, this, method, args, kwargs, span);
        }
        let bases = self.user_bases(class);
        for &base in &bases {
            if let Some(V::Func(def)) = self.class_member(base, method) {
                return self.call_user_in(def, Some(base), Some(this), args, kwargs, span);
            }
        }
        if method != "__init__" {
            return match this.torch_base() {
                Some(base) => self.call_method(base, method, args, kwargs, span),
                None => V::Unknown,
            };
        }
        match bases.into_iter().find(|b| self.is_dataclass(b)) {
            Some(base) => self.dataclass_init(base, &this, args, kwargs),
            None => self.init_torch_base(class, &this, args, kwargs, span),
        }
        V::none()
    }

    /// `super().method(...)` along the classes after the running one in the order.
    #[allow(clippy::too_many_arguments)]
    fn call_next_in_mro(
        &mut self,
        next: &[MroEntry<'a>],
        class: &'a StmtClassDef,
        this: V<'a>,
        method: &str,
        args: Vec<V<'a>>,
        kwargs: Vec<(String, V<'a>)>,
        span: TextRange,
    ) -> V<'a> {
        let init = method == "__init__";
        for entry in next {
            match entry {
                MroEntry::User(c) => {
                    if let Some(def) = super::calls::own_method(c, method) {
                        return self.call_user_in(def, Some(c), Some(this), args, kwargs, span);
                    }
                    if init && self.is_dataclass(c) {
                        self.dataclass_init(c, &this, args, kwargs);
                        return V::none();
                    }
                }
                MroEntry::Torch(path) => {
                    let module = torch_api()
                        .lookup(path)
                        .is_some_and(|(canonical, _)| canonical == "torch.nn.Module");
                    if init {
                        if !module {
                            self.init_torch_base(class, &this, args, kwargs, span);
                        }
                        return V::none();
                    }
                    let self_method = super::calls::MODULE_SELF_METHODS.contains(&method);
                    if module && !self_method && !NN_MODULE_METHODS.contains(&method) {
                        continue;
                    }
                    return match this.torch_base() {
                        Some(base) => self.call_method(base, method, args, kwargs, span),
                        None if self_method => this,
                        None => V::Unknown,
                    };
                }
                MroEntry::Opaque(..) => return V::Unknown,
            }
        }
        if init {
            V::none()
        } else {
            V::Unknown
        }
    }

    /// The method resolution order of a class (C3 linearisation, as Python computes it) over
    /// its bases: classes of the file, torch classes (taken as one class each), bases not
    /// known. `None` when Python would reject the bases, or past a bounded depth.
    pub(super) fn mro(&self, class: &'a StmtClassDef) -> Option<Vec<MroEntry<'a>>> {
        self.mro_within(class, 0)
    }

    fn mro_within(&self, class: &'a StmtClassDef, depth: usize) -> Option<Vec<MroEntry<'a>>> {
        if depth > 16 {
            return None;
        }
        let bases: Vec<MroEntry<'a>> = self
            .classes
            .bases
            .get(&(class as *const _))
            .into_iter()
            .flatten()
            .enumerate()
            .map(|(i, b)| match b {
                V::Class(c) => MroEntry::User(c),
                V::Torch(path) => MroEntry::Torch(path.clone()),
                _ => MroEntry::Opaque(class as *const _, i),
            })
            .collect();
        let mut seqs: Vec<Vec<MroEntry<'a>>> = Vec::new();
        for b in &bases {
            seqs.push(match b {
                MroEntry::User(c) => self.mro_within(c, depth + 1)?,
                other => vec![other.clone()],
            });
        }
        seqs.push(bases);
        let mut out = vec![MroEntry::User(class)];
        loop {
            seqs.retain(|s| !s.is_empty());
            if seqs.is_empty() {
                return Some(out);
            }
            let head = seqs
                .iter()
                .map(|s| &s[0])
                .find(|h| seqs.iter().all(|s| !s[1..].contains(h)))?;
            let head = head.clone();
            for s in &mut seqs {
                if s[0] == head {
                    s.remove(0);
                }
            }
            out.push(head);
            if out.len() > 64 {
                return None;
            }
        }
    }

    /// Builds the torch instance `obj` extends (when `class` derives from a torch module)
    /// from the construction arguments.
    pub(super) fn init_torch_base(
        &mut self,
        class: &'a StmtClassDef,
        obj: &V<'a>,
        args: Vec<V<'a>>,
        kwargs: Vec<(String, V<'a>)>,
        span: TextRange,
    ) {
        if let Some(path) = self.torch_base_class(class) {
            let base = self.call_torch(&path, args, kwargs, span);
            if matches!(base, V::Module(_) | V::Container(..)) {
                self.set_attr(obj, TORCH_BASE_ATTR, base);
            }
        }
    }

    /// Whether the class (or a base in the file) is decorated with `@dataclass` (or
    /// `@dataclass(...)`, `@dataclasses.dataclass`).
    /// A method or class attribute, searching the class and its bases in the file.
    pub fn class_member(
        &self,
        class: &'a ruff_python_ast::StmtClassDef,
        name: &str,
    ) -> Option<V<'a>> {
        self.ancestry(class).into_iter().find_map(|c| {
            let method = super::calls::own_method(c, name).map(V::Func);
            method.or_else(|| self.classes.attr(c, name).cloned())
        })
    }

    /// The class, then its bases defined in the file, depth first with the first base first
    /// (Python's lookup order for single inheritance); at most 16.
    pub fn ancestry(
        &self,
        class: &'a ruff_python_ast::StmtClassDef,
    ) -> Vec<&'a ruff_python_ast::StmtClassDef> {
        let mut out = Vec::new();
        let mut todo = vec![class];
        while let Some(c) = todo.pop() {
            if out.len() == 16 {
                break;
            }
            out.push(c);
            todo.extend(self.user_bases(c).into_iter().rev());
        }
        out
    }

    /// The bases of a class that are classes defined in this file.
    pub fn user_bases(
        &self,
        class: &'a ruff_python_ast::StmtClassDef,
    ) -> Vec<&'a ruff_python_ast::StmtClassDef> {
        self.classes
            .bases
            .get(&(class as *const _))
            .into_iter()
            .flatten()
            .filter_map(|b| match b {
                V::Class(c) => Some(*c),
                _ => None,
            })
            .collect()
    }

    /// A class deriving (directly or through classes of the file) from a torch `nn.Module`.
    pub fn is_module_class(&self, class: &'a StmtClassDef) -> bool {
        self.derives_from_torch(class, |path| path.starts_with("torch.nn"))
    }

    /// Whether a class or one of its bases in the file names a torch base whose path
    /// `accepts`.
    pub fn derives_from_torch(
        &self,
        class: &'a StmtClassDef,
        accepts: impl Fn(&str) -> bool,
    ) -> bool {
        self.ancestry(class).into_iter().any(|c| {
            self.classes
                .bases
                .get(&(c as *const _))
                .into_iter()
                .flatten()
                .any(|b| matches!(b, V::Torch(path) if accepts(path)))
        })
    }

    /// A subclass of `typing.NamedTuple` (or a `collections.namedtuple` class).
    fn is_named_tuple(&self, class: &'a StmtClassDef) -> bool {
        self.ancestry(class).iter().any(|c| {
            c.bases().iter().any(|b| match b {
                Expr::Name(n) => n.id.as_str() == "NamedTuple",
                Expr::Attribute(a) => a.attr.id.as_str() == "NamedTuple",
                _ => false,
            })
        })
    }

    /// A `typing.NamedTuple` subclass counts: its constructor is generated from the annotated
    /// fields the same way.
    pub(super) fn is_dataclass(&self, class: &'a StmtClassDef) -> bool {
        self.ancestry(class).iter().any(|c| {
            let named_tuple = c.bases().iter().any(|b| match b {
                Expr::Name(n) => n.id.as_str() == "NamedTuple",
                Expr::Attribute(a) => a.attr.id.as_str() == "NamedTuple",
                _ => false,
            });
            named_tuple
                || c.decorator_list.iter().any(|d| {
                    let e = match &d.expression {
                        Expr::Call(call) => &*call.func,
                        other => other,
                    };
                    match e {
                        Expr::Name(n) => n.id.as_str() == "dataclass",
                        Expr::Attribute(a) => a.attr.id.as_str() == "dataclass",
                        _ => false,
                    }
                })
        })
    }

    /// A dataclass's fields: its annotated class attributes, a base's first.
    fn dataclass_fields(&self, class: &'a StmtClassDef) -> Vec<&'a str> {
        let mut fields: Vec<&'a str> = Vec::new();
        for c in self.ancestry(class).into_iter().rev() {
            for stmt in &c.body {
                if let Stmt::AnnAssign(a) = stmt {
                    if let Expr::Name(n) = &*a.target {
                        fields.retain(|f| *f != n.id.as_str());
                        fields.push(n.id.as_str());
                    }
                }
            }
        }
        fields
    }

    /// A dataclass instance's class and field values, in field order.
    fn dataclass_values(&self, obj: &V<'a>) -> Option<(&'a StmtClassDef, Vec<(String, V<'a>)>)> {
        let V::Object(o) = obj else {
            return None;
        };
        let class = o.borrow().class;
        if !self.is_dataclass(class) {
            return None;
        }
        let attrs = &o.borrow().attrs;
        let values = self
            .dataclass_fields(class)
            .into_iter()
            .map(|name| {
                (
                    name.to_string(),
                    attrs.get(name).cloned().unwrap_or(V::Unknown),
                )
            })
            .collect();
        Some((class, values))
    }

    /// `dataclasses.asdict(obj)`: a dict of the fields, nested dataclasses as dicts too;
    /// `None` when `obj` is not a dataclass instance.
    pub(super) fn dataclass_asdict(&self, obj: &V<'a>) -> Option<V<'a>> {
        let (_, values) = self.dataclass_values(obj)?;
        Some(V::dict(
            values
                .into_iter()
                .map(|(name, v)| {
                    let v = self.dataclass_asdict(&v).unwrap_or(v);
                    (name, v)
                })
                .collect(),
        ))
    }

    /// `dataclasses.replace(obj, **changes)`: a new instance with the fields changed (nested
    /// dataclasses stay objects).
    pub(super) fn dataclass_replace(
        &mut self,
        obj: &V<'a>,
        changes: Vec<(String, V<'a>)>,
        span: ruff_text_size::TextRange,
    ) -> Option<V<'a>> {
        let (class, mut fields) = self.dataclass_values(obj)?;
        for (name, v) in changes {
            super::methods::set_key(&mut fields, name, v);
        }
        Some(self.call(V::Class(class), Vec::new(), fields, span))
    }

    /// A dataclass's generated `__init__`: the annotated fields (a base's first), bound from
    /// the arguments in order, then keywords, then their defaults (the class attributes the
    /// field declarations set where the class was defined).
    pub(super) fn dataclass_init(
        &mut self,
        class: &'a StmtClassDef,
        obj: &V<'a>,
        args: Vec<V<'a>>,
        kwargs: Vec<(String, V<'a>)>,
    ) {
        let fields = self.dataclass_fields(class);
        let chosen = self.declared_field_values(class, &fields, args.len(), &kwargs);
        let mut args = args.into_iter();
        let mut items = Vec::new();
        for name in fields {
            let v = match args.next() {
                Some(v) => v,
                None => match kwargs.iter().find(|(k, _)| k == name) {
                    Some((_, v)) => v.clone(),
                    None => match chosen.iter().find(|(k, _)| k == name) {
                        Some((_, v)) => v.clone(),
                        None => self.class_member(class, name).unwrap_or(V::Unknown),
                    },
                },
            };
            items.push(v.clone());
            self.set_attr(obj, name, v);
        }
        // A named tuple is also the tuple of its fields (indexed, unpacked, measured).
        if self.is_named_tuple(class) {
            if let V::Object(o) = obj {
                o.borrow_mut()
                    .attrs_mut()
                    .insert(super::value::TUPLE_ITEMS.to_string(), V::Tuple(items));
            }
        }
        // The generated `__init__` ends by calling `__post_init__` (timm's stage configs
        // pad their per-stage tuples there).
        if let Some(V::Func(post)) = self.class_member(class, "__post_init__") {
            let span = post.range;
            self.call_user(post, Some(obj.clone()), Vec::new(), Vec::new(), span);
        }
    }

    /// Fields left to their default whose annotation declares the values they take
    /// (`pooling: Literal["cls", "mean"] = "mean"`) form a domain (`domains.rs`) where the
    /// unit takes domains: the values this run takes, by field (none when it takes none).
    fn declared_field_values(
        &mut self,
        class: &'a StmtClassDef,
        fields: &[&'a str],
        positional: usize,
        kwargs: &[(String, V<'a>)],
    ) -> Vec<(String, V<'a>)> {
        if !self.plan.domains {
            return Vec::new();
        }
        let declared: Vec<(String, Vec<V<'a>>)> = fields
            .iter()
            .enumerate()
            .filter(|(i, name)| *i >= positional && !kwargs.iter().any(|(k, _)| k == *name))
            .filter_map(|(_, name)| {
                let values = self.ancestry(class).into_iter().find_map(|c| {
                    c.body.iter().find_map(|stmt| match stmt {
                        Stmt::AnnAssign(a) if matches!(&*a.target, Expr::Name(n) if n.id == *name) => {
                            super::domains::literal_choices(&a.annotation)
                        }
                        _ => None,
                    })
                })?;
                Some((name.to_string(), values))
            })
            .collect();
        let Some((labels, combos)) = super::domains::combinations(&declared) else {
            return Vec::new();
        };
        self.domain_index(class.range, || Some(labels))
            .and_then(|i| combos.into_iter().nth(i))
            .unwrap_or_default()
    }

    /// The torch module class (other than `nn.Module` itself) a class derives from directly.
    /// The bases were evaluated where the class was defined (its own module's names).
    fn torch_base_class(&self, class: &'a StmtClassDef) -> Option<String> {
        let bases = self.classes.bases.get(&(class as *const _))?;
        bases.iter().find_map(|b| match b {
            V::Torch(path) => {
                let (canonical, _) = torch_api().lookup(path)?;
                (canonical.starts_with("torch.nn.") && canonical != "torch.nn.Module")
                    .then(|| canonical.to_string())
            }
            _ => None,
        })
    }
}

/// A class in a method resolution order.
#[derive(Clone, Debug)]
pub enum MroEntry<'a> {
    User(&'a StmtClassDef),
    /// A torch class, by the path it was written as.
    Torch(Rc<str>),
    /// A base the analysis does not know: the class that names it and its place there.
    Opaque(*const StmtClassDef, usize),
}

impl PartialEq for MroEntry<'_> {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (MroEntry::User(a), MroEntry::User(b)) => std::ptr::eq(*a, *b),
            (MroEntry::Torch(a), MroEntry::Torch(b)) => a == b,
            (MroEntry::Opaque(a, i), MroEntry::Opaque(b, j)) => std::ptr::eq(*a, *b) && i == j,
            _ => false,
        }
    }
}

/// Methods `nn.Module` defines that model code reaches through `super()` (besides
/// [`super::calls::MODULE_SELF_METHODS`]): `super().m(...)` stops there for these, and passes
/// on to the next class for any other name.
const NN_MODULE_METHODS: &[&str] = &[
    "forward",
    "parameters",
    "named_parameters",
    "buffers",
    "named_buffers",
    "children",
    "named_children",
    "modules",
    "named_modules",
    "state_dict",
    "load_state_dict",
    "zero_grad",
    "register_buffer",
    "register_parameter",
    "add_module",
    "register_module",
    "extra_repr",
    "__setattr__",
    "__getattr__",
    "__call__",
    "_apply",
];

#[cfg(test)]
mod tests {
    use crate::testing::assert_twins;

    /// torchvision's ConvNeXt `LayerNorm2d(nn.LayerNorm)`: the forward reads the torch base's
    /// `normalized_shape`, `weight`, `bias` and `eps`.
    #[test]
    fn a_subclass_of_a_torch_layer_reads_its_parameters() {
        let src = r#"
import torch
import torch.nn.functional as F
from torch import nn

class LayerNorm2d(nn.LayerNorm):
    def forward(self, x):
        x = x.permute(0, 2, 3, 1)
        x = F.layer_norm(x, self.normalized_shape, self.weight, self.bias, self.eps)
        return x.permute(0, 3, 1, 2)

class StdConv(nn.Conv2d):
    def forward(self, x):
        w = self.weight - self.weight.mean(dim=(1, 2, 3), keepdim=True)
        return F.conv2d(x, w, self.bias, self.stride, self.padding, self.dilation, self.groups)

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = StdConv(3, 16, 3, padding=1)
        self.norm = LayerNorm2d(WIDTH)

    def forward(self, x):
        return self.norm(self.conv(x))
"#;
        assert_twins(src, "WIDTH", "32", "16", 9);
    }

    /// A subclass without its own forward runs the base's (`super().forward` too), and
    /// `nn.Linear(..., bias=False)` has no bias.
    #[test]
    fn a_subclass_without_forward_runs_the_torch_base() {
        let src = r#"
import torch
from torch import nn

class Head(nn.Linear):
    def __init__(self, dim, classes):
        super().__init__(dim, classes, bias=False)
        assert self.bias is None

class Wrapped(nn.Linear):
    def forward(self, x):
        return super().forward(x).relu()

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = Wrapped(8, 16)
        self.head = Head(WIDTH, 10)

    def forward(self, x):
        return self.head(self.body(x))
"#;
        assert_twins(src, "WIDTH", "12", "16", 21);
    }

    /// torchvision's DenseNet: layers registered with `add_module` under computed names in an
    /// `nn.Sequential(OrderedDict(...))`, an `nn.ModuleDict` subclass iterating `self.items()`,
    /// and an `nn.Sequential` subclass whose children are assigned attributes.
    #[test]
    fn container_subclasses_register_children_by_name_and_attribute() {
        let src = r#"
from collections import OrderedDict
import torch
from torch import nn

class Block(nn.ModuleDict):
    def __init__(self, n, c, growth):
        super().__init__()
        for i in range(n):
            self.add_module("layer%d" % (i + 1), nn.Conv2d(c + i * growth, growth, 1))

    def forward(self, x):
        features = [x]
        for name, layer in self.items():
            features.append(layer(torch.cat(features, 1)))
        return torch.cat(features, 1)

class Transition(nn.Sequential):
    def __init__(self, c_in, c_out):
        super().__init__()
        self.norm = nn.BatchNorm2d(c_in)
        self.conv = nn.Conv2d(c_in, c_out, 1)

class Net(nn.Module):
    def __init__(self, c=8, growth=4):
        super().__init__()
        self.features = nn.Sequential(OrderedDict([("conv0", nn.Conv2d(3, c, 3))]))
        for i, n in enumerate((2, 3)):
            self.features.add_module(f"block{i}", Block(n, c, growth))
            c = c + n * growth
            self.features.add_module(f"transition{i}", Transition(c, c // 2))
            c = c // 2
        self.fc = nn.Linear(c + EXTRA, 10)

    def forward(self, x):
        return self.fc(self.features(x).mean((2, 3)))
"#;
        assert_twins(src, "EXTRA", "1", "0", 36);
    }

    /// torchvision's EfficientNet configs: a `@dataclass` base whose generated `__init__`
    /// stores the fields, reached through `super().__init__(...)`, and a `@staticmethod`
    /// called on `self`.
    #[test]
    fn dataclass_fields_and_static_methods() {
        let src = r#"
from dataclasses import dataclass
import torch
from torch import nn

@dataclass
class _Config:
    kernel: int
    channels: int
    stride: int = 1

    @staticmethod
    def adjust(channels, mult):
        return int(channels * mult)

class Config(_Config):
    def __init__(self, kernel, channels, mult=1.0):
        channels = self.adjust(channels, mult)
        super().__init__(kernel, channels)

def run():
    c = Config(3, 16)
    conv = nn.Conv2d(3, c.channels, c.kernel, c.stride)
    fc = nn.Linear(WIDTH, 4)
    return fc(conv(torch.randn(1, 3, 8, 8)).mean((2, 3)))

run()
"#;
        assert_twins(src, "WIDTH", "12", "16", 25);
    }

    /// timm's CSPNet configs: `__post_init__` pads per-stage tuples (`(x,) * n`),
    /// `dataclasses.asdict` and `replace` turn configs into keyword arguments, and blocks
    /// are registered under `str(i)`.
    #[test]
    fn dataclass_post_init_asdict_replace_and_str_names() {
        let src = r#"
from dataclasses import dataclass, asdict, replace
import torch
from torch import nn

def _pad(x, n):
    if not isinstance(x, (tuple, list)):
        x = (x,)
    return tuple(x + (x[-1],) * (n - len(x)))

@dataclass
class StagesCfg:
    out_chs: tuple = (16, 32)
    ratio: float = 1.0

    def __post_init__(self):
        self.ratio = _pad(self.ratio, len(self.out_chs))

class Net(nn.Module):
    def __init__(self, cfg=StagesCfg()):
        super().__init__()
        cfg = replace(cfg, out_chs=(16, WIDTH))
        args = asdict(cfg)
        self.blocks = nn.Sequential()
        prev = 3
        for i, (c, r) in enumerate(zip(args["out_chs"], args["ratio"])):
            self.blocks.add_module(str(i), nn.Conv2d(prev, int(c * r), 3, padding=1))
            prev = 16
        self.head = nn.Linear(32, 10)

    def forward(self, x):
        return self.head(self.blocks(x).mean((2, 3)))
"#;
        assert_twins(src, "WIDTH", "24", "32", 32);
    }

    /// `class Net(nn.Module, Mixin)`: `super().__init__()` is `nn.Module`'s, which calls no
    /// further `__init__` (the mixin's does not run); in `class Net(Mixin, nn.Module)` it
    /// does. A diamond runs each class once, in C3 order.
    #[test]
    fn super_follows_the_method_resolution_order() {
        let src = r#"
import torch
from torch import nn

class Mixin:
    def __init__(self):
        super().__init__()
        self.width = 16

class Net(BASES):
    def __init__(self):
        self.width = 8
        super().__init__()
        self.fc = nn.Linear(self.width, 4)

    def forward(self, x):
        return self.fc(x)

class A(nn.Module):
    def __init__(self):
        super().__init__()
        self.order = [1]

class B(A):
    def __init__(self):
        super().__init__()
        self.order = self.order + [2]

class C(A):
    def __init__(self):
        super().__init__()
        self.order = self.order + [3]

class D(B, C):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(sum(self.order), 4)

    def forward(self, x):
        return self.fc(x)

def run():
    Net()(torch.randn(2, 8))
    D()(torch.randn(2, 6))

run()
"#;
        assert_twins(src, "BASES", "Mixin, nn.Module", "nn.Module, Mixin", 17);
    }
}
