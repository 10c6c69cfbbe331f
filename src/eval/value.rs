//! What the interpreter knows about a Python value. Shape-level data (tensors, ints, sizes,
//! torch modules) is a [`shapes::Value`](crate::shapes::Value); the rest is program structure:
//! torch namespaces and API objects, user functions and classes, instances of user classes,
//! module containers.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use ruff_python_ast::{ExprLambda, StmtClassDef, StmtFunctionDef};
use ruff_text_size::TextRange;

use crate::shapes::value::ModuleValue;
use crate::shapes::Value;

/// The hidden attribute (not an identifier) holding a named tuple instance's items.
pub const TUPLE_ITEMS: &str = "\0tuple";

/// An instance of a class defined in the file (usually an `nn.Module` subclass).
#[derive(Debug)]
pub struct Object<'a> {
    pub class: &'a StmtClassDef,
    pub attrs: Rc<BTreeMap<String, V<'a>>>,
    /// Attribute names in the order they were first assigned (`children()` is in
    /// registration order).
    pub order: Vec<String>,
    /// Where the instance was constructed.
    pub span: TextRange,
}

impl<'a> Object<'a> {
    /// The attributes, to change: shared with the snapshots taken since the last change
    /// until then (copied on the first write after a snapshot).
    pub fn attrs_mut(&mut self) -> &mut BTreeMap<String, V<'a>> {
        Rc::make_mut(&mut self.attrs)
    }
}

/// A torch `nn` module instance: its class and hyperparameters, and where it was built.
#[derive(Clone, Debug)]
pub struct TorchModule {
    pub value: ModuleValue,
    pub span: TextRange,
}

/// `nn.Sequential`, `nn.ModuleList` and `nn.ModuleDict` holding any modules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ContainerKind {
    Sequential,
    ModuleList,
    ModuleDict,
}

#[derive(Clone, Debug)]
pub enum V<'a> {
    /// Shape-level data: tensors, ints, floats, bools, strings, None, sizes, slices, dtypes.
    Data(Value),
    Tuple(Vec<V<'a>>),
    /// A list: a value (copied on assignment, as the analysis models lists), its items
    /// shared until one copy changes (snapshots at every branch keep lists unchanged).
    List(Rc<Vec<V<'a>>>),
    /// A set of known constants (`set(widths)`), distinct: its size and membership are
    /// known, its iteration order is not (iterating it is unknown; `sorted` is not).
    Set(Vec<V<'a>>),
    /// A dict with string keys (other dicts are `Unknown`).
    Dict(Rc<Vec<(String, V<'a>)>>),
    /// A torch namespace or API object by path (`torch.nn`, `torch.nn.functional.relu`).
    Torch(Rc<str>),
    /// A Python builtin (`len`, `range`, `isinstance`, ...).
    Builtin(&'static str),
    Func(&'a StmtFunctionDef),
    /// A function defined inside another, with the enclosing frame it captured
    /// (`def _ntuple(n): def parse(x): ... n ...; return parse`).
    Closure(&'a StmtFunctionDef, Rc<super::closures::Captured<'a>>),
    /// `lambda z: z.reshape(t * n, *z.shape[2:])`, with the enclosing function's frame
    /// when it was made inside one.
    Lambda(&'a ExprLambda, Option<Rc<super::closures::Captured<'a>>>),
    /// `functools.partial(func, *args, **kwargs)`.
    Partial(Rc<Partial<'a>>),
    Class(&'a StmtClassDef),
    Object(Rc<RefCell<Object<'a>>>),
    /// A method looked up on a receiver: `self.helper`, `x.view`, `layer.forward`.
    Bound(Box<V<'a>>, Rc<str>),
    Module(Rc<TorchModule>),
    Container(ContainerKind, Rc<Vec<(String, V<'a>)>>, TextRange),
    /// A Python bool that is the truth of a predicate over dims (`x.shape[1] == 3`).
    Cond(crate::shapes::Pred),
    /// `super()` inside a method of the class.
    Super(&'a StmtClassDef, Box<V<'a>>),
    /// A `PackedSequence`: its padded data, time-major (`[T, B, *]`), whatever layout it was
    /// packed from (see `packed.rs`).
    Packed(Box<V<'a>>),
    /// A name another module of the project imports, resolved when first read
    /// (module, name); see `project.rs`.
    Lazy(Rc<(String, String)>),
    /// A module of the project or of an installed package, by absolute name
    /// (`import pkg.layers as layers`, `from torchvision import models`); its attributes
    /// are its globals and submodules (see `project.rs`).
    SourceModule(Rc<str>),
    /// One of two layers, by a branch the analysis cannot decide (`DropPath(p) if p > 0
    /// else nn.Identity()`): calling it calls each under its guard and joins the results.
    Either(Rc<Either<'a>>),
    /// A Python float whose value is unknown but drawn from a range (`random.random()`,
    /// `torch.rand(1).item()`): comparisons the range decides are known.
    Drawn(crate::shapes::bounds::Bounds),
    /// A `TensorDataset`'s tensors (see `data.rs`).
    Dataset(Rc<Vec<V<'a>>>),
    /// A dataset known by its length (`None` when unknown) and one of its samples: a
    /// torchvision dataset, a `random_split` part, a `Subset` (see `data.rs`).
    Sampled(Rc<(Option<crate::shapes::DimExpr>, V<'a>)>),
    /// A `DataLoader`'s batches (see `data.rs`).
    Batches(Rc<Batches<'a>>),
    /// An iterable of unknown length, perhaps empty, every element of which is this value
    /// (a model's `parameters()`).
    Items(Box<V<'a>>),
    /// A numpy array of this shape (see `numpy.rs`): never a torch tensor.
    Array(Box<crate::shapes::value::TensorValue>),
    /// A PIL image (see `images.rs`).
    Image(Box<super::images::Image>),
    /// A torchvision transform object (see `images.rs`).
    Transform(Rc<super::images::Transform<'a>>),
    /// A `pathlib.Path` by its text (see `data_files.rs`).
    Path(Rc<str>),
    /// A file opened for reading, by its path (see `data_files.rs`).
    OpenFile(Rc<str>),
    Unknown,
}

/// Python's `any` over truth values some of which are unknown: true when one is true,
/// false when all are known to be false, otherwise unknown.
pub fn any_known(answers: impl IntoIterator<Item = Option<bool>>) -> Option<bool> {
    let mut all_known = true;
    for answer in answers {
        match answer {
            Some(true) => return Some(true),
            Some(false) => {}
            None => all_known = false,
        }
    }
    all_known.then_some(false)
}

fn same_sequences<'a>(a: &[V<'a>], b: &[V<'a>]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.same(y))
}

/// Named items (dict entries, container children) alike, in the same order.
fn same_items<'a>(a: &[(String, V<'a>)], b: &[(String, V<'a>)]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|((k, x), (l, y))| k == l && x.same(y))
}

/// What iterating a `DataLoader` gives: every batch is `item`, but for `last`, when the
/// final batch is known to be smaller (a dataset of 29 rows in batches of 8 ends with 5).
#[derive(Debug)]
pub struct Batches<'a> {
    pub item: V<'a>,
    pub last: Option<V<'a>>,
}

impl<'a> Batches<'a> {
    pub fn of(item: V<'a>, last: Option<V<'a>>) -> V<'a> {
        V::Batches(Rc::new(Batches { item, last }))
    }

    /// The same batches, each as `f` makes it (`enumerate(loader)` numbers them).
    pub fn map(&self, mut f: impl FnMut(V<'a>) -> V<'a>) -> V<'a> {
        Batches::of(f(self.item.clone()), self.last.clone().map(f))
    }
}

/// `then` where `guard` holds, `other` elsewhere.
#[derive(Debug)]
pub struct Either<'a> {
    pub guard: crate::shapes::Pred,
    pub then: V<'a>,
    pub other: V<'a>,
}

impl<'a> V<'a> {
    /// A list of these items.
    pub fn list(items: Vec<V<'a>>) -> V<'a> {
        V::List(Rc::new(items))
    }

    /// The items of a list or a tuple.
    pub fn sequence(&self) -> Option<&[V<'a>]> {
        match self {
            V::Tuple(items) => Some(items),
            V::List(items) => Some(items),
            _ => None,
        }
    }

    /// The items of a list, a tuple or a set of constants: what `in` tests membership of.
    pub fn members(&self) -> Option<&[V<'a>]> {
        match self {
            V::Set(items) => Some(items),
            seq => seq.sequence(),
        }
    }

    /// A dict of these items (shared: a dict is a value, changed by rebinding a new one).
    pub fn dict(items: Vec<(String, V<'a>)>) -> V<'a> {
        V::Dict(Rc::new(items))
    }

    /// A layer (something called on tensors): a torch module, an object of the file's
    /// classes, a module container, or a choice between layers.
    pub fn is_layer(&self) -> bool {
        matches!(
            self,
            V::Module(_) | V::Object(_) | V::Container(..) | V::Either(_)
        )
    }

    /// How many choices between layers this value nests.
    pub fn choices(&self) -> usize {
        match self {
            V::Either(e) => 1 + e.then.choices() + e.other.choices(),
            _ => 0,
        }
    }

    /// `copy.copy(v)`, or `copy.deepcopy(v)` when `deep`: objects of the file's classes are
    /// the only values held by reference here, so a copy is a new object with the same
    /// attributes, and a deep copy copies the objects inside it too (to a bounded depth,
    /// past which they stay shared); every other value already is a value.
    pub fn copied(&self, deep: bool) -> V<'a> {
        self.copied_within(if deep { 8 } else { 1 })
    }

    fn copied_within(&self, depth: usize) -> V<'a> {
        if depth == 0 {
            return self.clone();
        }
        let inner = |v: &V<'a>| v.copied_within(depth - 1);
        let items = |xs: &[(String, V<'a>)]| -> Vec<(String, V<'a>)> {
            xs.iter().map(|(k, v)| (k.clone(), inner(v))).collect()
        };
        match self {
            V::Object(o) => {
                let o = o.borrow();
                V::Object(Rc::new(RefCell::new(Object {
                    class: o.class,
                    attrs: Rc::new(o.attrs.iter().map(|(k, v)| (k.clone(), inner(v))).collect()),
                    order: o.order.clone(),
                    span: o.span,
                })))
            }
            // A shallow copy is a new list or dict holding the same items.
            V::List(xs) if depth == 1 => V::list(xs.to_vec()),
            V::Dict(xs) if depth == 1 => V::dict(xs.to_vec()),
            _ if depth == 1 => self.clone(),
            V::List(xs) => V::list(xs.iter().map(inner).collect()),
            V::Tuple(xs) => V::Tuple(xs.iter().map(inner).collect()),
            V::Dict(xs) => V::dict(items(xs)),
            V::Container(kind, xs, span) => V::Container(*kind, Rc::new(items(xs)), *span),
            other => other.clone(),
        }
    }
}

/// `functools.partial(func, *args, **kwargs)`: calling it calls `func` with `args` first and
/// `kwargs` overridden by the call's own keywords.
#[derive(Clone, Debug)]
pub struct Partial<'a> {
    pub func: V<'a>,
    pub args: Vec<V<'a>>,
    pub kwargs: Vec<(String, V<'a>)>,
}

/// Where an instance of a class deriving from a torch module (`nn.Sequential`,
/// `nn.ModuleList`, `nn.ModuleDict`, or a layer such as `nn.LayerNorm` or `nn.Conv2d`) keeps
/// the torch instance its `super().__init__(...)` built.
pub const TORCH_BASE_ATTR: &str = "__torch_base__";

/// Where an object keeps an attribute registered under a name the analysis does not know
/// (`setattr(self, name, m)`, `add_module(name, m)`): it is unknown, so `children()` is.
pub const UNNAMED_ATTR: &str = "<unnamed>";

impl<'a> V<'a> {
    /// A one-line description for debugging output.
    pub fn brief(&self) -> String {
        let items = |vs: &[V]| vs.iter().map(V::brief).collect::<Vec<_>>().join(", ");
        match self {
            V::Data(d) => format!("{d:?}").chars().take(120).collect(),
            V::Tuple(vs) => format!("({})", items(vs)),
            V::List(vs) => format!("[{}]", items(vs)),
            V::Set(vs) => format!("{{{}}}", items(vs)),
            V::Dict(kv) => format!(
                "{{{}}}",
                kv.iter()
                    .map(|(k, v)| format!("{k}: {}", v.brief()))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            V::Torch(p) => format!("torch {p}"),
            V::Builtin(b) => format!("builtin {b}"),
            V::Func(f) | V::Closure(f, _) => format!("def {}", f.name),
            V::Lambda(..) => "lambda".to_string(),
            V::Partial(p) => format!("partial({})", p.func.brief()),
            V::Class(c) => format!("class {}", c.name),
            V::Object(o) => {
                let o = o.borrow();
                let attrs: Vec<_> = o.attrs.keys().map(String::as_str).collect();
                format!("{} object {{{}}}", o.class.name, attrs.join(", "))
            }
            V::Bound(r, m) => format!("{}.{m}", r.brief()),
            V::Either(e) => format!("either({} | {})", e.then.brief(), e.other.brief()),
            V::Module(m) => format!("{} {:?}", m.value.class, m.value.params),
            V::Container(k, items, _) => {
                let names: Vec<_> = items
                    .iter()
                    .map(|(n, v)| format!("{n}: {}", v.brief()))
                    .collect();
                format!("{k:?}[{}]", names.join(", "))
            }
            V::Cond(p) => format!("cond {p}"),
            V::Super(c, _) => format!("super({})", c.name),
            V::Packed(_) => "packed".into(),
            V::Lazy(l) => format!("lazy {}.{}", l.0, l.1),
            V::SourceModule(m) => format!("module {m}"),
            V::Drawn(b) => format!("float in {b:?}"),
            V::Array(t) => format!("array {}", t.shape),
            V::Image(i) => format!("image {:?}x{:?} {:?}", i.width, i.height, i.mode),
            V::Transform(t) => format!("transform {}", t.class),
            V::Path(p) => format!("path {p}"),
            V::OpenFile(p) => format!("file {p}"),
            V::Dataset(ts) => format!("dataset of {}", ts.len()),
            V::Sampled(s) => format!("dataset of {:?} like {}", s.0, s.1.brief()),
            V::Batches(b) => format!("batches of {}", b.item.brief()),
            V::Items(item) => format!("items of {}", item.brief()),
            V::Unknown => "unknown".into(),
        }
    }

    /// The torch instance an object of a torch-module subclass extends: its parameters,
    /// hyperparameters and default `forward` come from it.
    pub fn torch_base(&self) -> Option<V<'a>> {
        match self {
            V::Object(o) => o.borrow().attrs.get(TORCH_BASE_ATTR).cloned(),
            _ => None,
        }
    }

    /// The container an instance of an `nn.Sequential`/`ModuleList`/`ModuleDict` subclass
    /// stands for.
    pub fn container(&self) -> Option<V<'a>> {
        self.torch_base().filter(|b| matches!(b, V::Container(..)))
    }

    /// The text of a known string.
    pub fn known_str(&self) -> Option<&str> {
        match self {
            V::Data(Value::Str(Some(s))) => Some(s),
            _ => None,
        }
    }

    pub fn data(v: Value) -> V<'a> {
        match v {
            Value::Tuple(items) => V::Tuple(items.into_iter().map(V::data).collect()),
            Value::List(items) => V::list(items.into_iter().map(V::data).collect()),
            Value::Unknown => V::Unknown,
            other => V::Data(other),
        }
    }

    pub fn none() -> V<'a> {
        V::Data(Value::None)
    }

    /// The shape-level view of a value, for handing to an operator rule: structure the rules
    /// do not model becomes `Unknown`.
    pub fn to_value(&self) -> Value {
        match self {
            V::Data(v) => v.clone(),
            V::Tuple(items) => Value::Tuple(items.iter().map(V::to_value).collect()),
            V::List(items) => Value::List(items.iter().map(V::to_value).collect()),
            V::Module(m) => Value::Module(Box::new(m.value.clone())),
            V::Cond(p) => Value::Bool(p.decide()),
            V::Drawn(_) => Value::Float(None),
            V::Torch(path) => match crate::shapes::value::DType::parse(path) {
                Some(d) if path.starts_with("torch.") => Value::DType(d),
                _ => Value::Function(path.to_string()),
            },
            _ => Value::Unknown,
        }
    }

    /// The class of an instance of a class of the program.
    pub fn object_class(&self) -> Option<&'a StmtClassDef> {
        match self {
            V::Object(o) => Some(o.borrow().class),
            _ => None,
        }
    }

    pub fn as_data(&self) -> Option<&Value> {
        match self {
            V::Data(v) => Some(v),
            _ => None,
        }
    }

    pub fn is_unknown(&self) -> bool {
        matches!(self, V::Unknown | V::Data(Value::Unknown))
    }

    pub fn is_tensor(&self) -> bool {
        matches!(self, V::Data(Value::Tensor(_)))
    }

    /// Elements of a sequence whose length is known.
    pub fn elements(&self) -> Option<Vec<V<'a>>> {
        match self {
            seq if let Some(items) = seq.sequence() => Some(items.to_vec()),
            V::Data(Value::Size(dims)) => Some(
                dims.iter()
                    .map(|d| match d.expr() {
                        Some(e) => V::Data(Value::Int(e.clone())),
                        None => V::Data(Value::IntUnknown),
                    })
                    .collect(),
            ),
            V::Container(ContainerKind::ModuleDict, items, _) => Some(
                items
                    .iter()
                    .map(|(k, _)| V::Data(Value::Str(Some(k.clone()))))
                    .collect(),
            ),
            V::Container(_, items, _) => Some(items.iter().map(|(_, v)| v.clone()).collect()),
            V::Object(o) => match o.borrow().attrs.get(TUPLE_ITEMS) {
                Some(items) => items.elements(),
                None => self.container()?.elements(),
            },
            V::Dict(items) => Some(
                items
                    .iter()
                    .map(|(k, _)| V::Data(Value::Str(Some(k.clone()))))
                    .collect(),
            ),
            _ => None,
        }
    }

    /// A Python truth value, when known.
    pub fn truth(&self) -> Option<bool> {
        match self {
            V::Data(Value::Bool(b)) => *b,
            V::Data(Value::None) => Some(false),
            V::Data(Value::Int(e)) => e.as_const().map(|c| c != 0),
            V::Data(Value::Float(f)) => f.map(|f| f != 0.0),
            V::Data(Value::Str(s)) => s.as_ref().map(|s| !s.is_empty()),
            seq if let Some(items) = seq.sequence() => Some(!items.is_empty()),
            V::Data(Value::Size(d)) => Some(!d.is_empty()),
            V::Dict(items) => Some(!items.is_empty()),
            V::Func(_) | V::Class(_) | V::Object(_) | V::Module(_) | V::Torch(_) => Some(true),
            V::Closure(..) | V::Lambda(..) | V::Partial(_) => Some(true),
            V::Builtin(_) | V::Bound(..) | V::Image(_) | V::Transform(_) => Some(true),
            V::Path(_) | V::OpenFile(_) => Some(true),
            V::Container(_, items, _) => Some(!items.is_empty()),
            V::Cond(p) => p.decide(),
            V::Drawn(b) => b.truth(),
            V::Either(e) => match (e.then.truth(), e.other.truth()) {
                (Some(a), Some(b)) if a == b => Some(a),
                _ => None,
            },
            _ => None,
        }
    }

    /// Structural equality where it is cheap and certain; used to join branches.
    pub fn same(&self, other: &V<'a>) -> bool {
        match (self, other) {
            (V::Data(a), V::Data(b)) => a == b,
            (V::Tuple(a), V::Tuple(b)) => same_sequences(a, b),
            (V::List(a), V::List(b)) => Rc::ptr_eq(a, b) || same_sequences(a, b),
            (V::Torch(a), V::Torch(b)) => a == b,
            (V::Builtin(a), V::Builtin(b)) => a == b,
            (V::Func(a), V::Func(b)) => std::ptr::eq(*a, *b),
            (V::Closure(a, x), V::Closure(b, y)) => std::ptr::eq(*a, *b) && Rc::ptr_eq(x, y),
            (V::Lambda(a, None), V::Lambda(b, None)) => std::ptr::eq(*a, *b),
            (V::Partial(a), V::Partial(b)) => Rc::ptr_eq(a, b),
            (V::Class(a), V::Class(b)) => std::ptr::eq(*a, *b),
            (V::Object(a), V::Object(b)) => Rc::ptr_eq(a, b),
            // Built twice alike (`try: super().__init__(..., **factory_kwargs) except
            // TypeError: super().__init__(...)`) is the same layer.
            (V::Module(a), V::Module(b)) => Rc::ptr_eq(a, b) || a.value == b.value,
            (V::Container(k, a, _), V::Container(l, b, _)) => {
                Rc::ptr_eq(a, b) || (k == l && same_items(a, b))
            }
            (V::Dict(a), V::Dict(b)) => same_items(a, b),
            (V::Bound(r, m), V::Bound(s, n)) => m == n && r.same(s),
            (V::Lazy(a), V::Lazy(b)) => a == b,
            (V::SourceModule(a), V::SourceModule(b)) => a == b,
            (V::Image(a), V::Image(b)) => a == b,
            (V::Transform(a), V::Transform(b)) => Rc::ptr_eq(a, b),
            (V::Path(a), V::Path(b)) | (V::OpenFile(a), V::OpenFile(b)) => a == b,
            (V::Either(a), V::Either(b)) => {
                Rc::ptr_eq(a, b)
                    || (a.guard == b.guard && a.then.same(&b.then) && a.other.same(&b.other))
            }
            (V::Array(a), V::Array(b)) => a == b,
            (V::Packed(a), V::Packed(b)) => a.same(b),
            (V::Batches(a), V::Batches(b)) => {
                Rc::ptr_eq(a, b)
                    || (a.item.same(&b.item)
                        && match (&a.last, &b.last) {
                            (Some(x), Some(y)) => x.same(y),
                            (None, None) => true,
                            _ => false,
                        })
            }
            (V::Sampled(a), V::Sampled(b)) => Rc::ptr_eq(a, b) || (a.0 == b.0 && a.1.same(&b.1)),
            (V::Dataset(a), V::Dataset(b)) => {
                Rc::ptr_eq(a, b)
                    || (a.len() == b.len() && a.iter().zip(b.iter()).all(|(x, y)| x.same(y)))
            }
            (V::Set(a), V::Set(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.same(y)),
            (V::Drawn(a), V::Drawn(b)) => a == b,
            (V::Unknown, V::Unknown) => true,
            _ => false,
        }
    }
}

/// An object and a copy of its attributes (saved before a branch, restored after).
pub type ObjectState<'a> = (Rc<RefCell<Object<'a>>>, Rc<BTreeMap<String, V<'a>>>);
