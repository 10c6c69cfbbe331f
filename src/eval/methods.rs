//! Methods of plain Python values the interpreter models: lists and module containers that
//! grow (`append`, `extend`, `add_module`), mappings (`items`, `keys`, `values`, `get`, and
//! a container's `children`), and known strings (`split`, `lower`, ...).

use std::rc::Rc;

use super::calls::iterate;
use super::value::{any_known, V};
use crate::shapes::Value;

/// A mapping's method (a dict, or a module container's named children).
pub fn mapping_method<'a>(items: &[(String, V<'a>)], method: &str, args: &[V<'a>]) -> V<'a> {
    let key = |k: &String| V::Data(Value::Str(Some(k.clone())));
    match method {
        "children" | "values" | "modules" => {
            V::list(items.iter().map(|(_, v)| v.clone()).collect())
        }
        "items" => V::list(
            items
                .iter()
                .map(|(k, v)| V::Tuple(vec![key(k), v.clone()]))
                .collect(),
        ),
        "keys" => V::list(items.iter().map(|(k, _)| key(k)).collect()),
        "get" => match args.first() {
            Some(V::Data(Value::Str(Some(k)))) => items
                .iter()
                .find(|(name, _)| name == k)
                .map(|(_, v)| v.clone())
                .unwrap_or_else(|| args.get(1).cloned().unwrap_or_else(V::none)),
            _ => V::Unknown,
        },
        _ => V::Unknown,
    }
}

/// A method of a known string: `"a b".split()` is a list of known strings (vocabularies and
/// example inputs written inline).
pub fn str_method<'a>(text: &str, method: &str, args: &[V<'a>]) -> V<'a> {
    let known = |s: &str| V::Data(Value::Str(Some(s.to_string())));
    let int = |i: i64| V::Data(Value::int(i));
    match (method, args) {
        ("split", []) => V::list(text.split_whitespace().map(known).collect()),
        ("split", [V::Data(Value::Str(Some(sep)))]) if !sep.is_empty() => {
            V::list(text.split(sep.as_str()).map(known).collect())
        }
        ("format", _) => super::strings::brace_format(text, args).map_or(V::Unknown, |t| known(&t)),
        // Positions count characters, as Python's do; `index` of a missing part raises.
        ("index" | "find", [V::Data(Value::Str(Some(part)))]) => match text.find(part.as_str()) {
            Some(at) => int(text[..at].chars().count() as i64),
            None if method == "find" => int(-1),
            None => V::Unknown,
        },
        ("count", [V::Data(Value::Str(Some(part)))]) if !part.is_empty() => {
            int(text.matches(part.as_str()).count() as i64)
        }
        ("lower", []) => known(&text.to_lowercase()),
        ("upper", []) => known(&text.to_uppercase()),
        ("strip", []) => known(text.trim()),
        ("replace", [V::Data(Value::Str(Some(from))), V::Data(Value::Str(Some(to)))]) => {
            known(&text.replace(from.as_str(), to))
        }
        ("startswith" | "endswith", [affix]) => {
            let affixes: Option<Vec<&str>> = match affix {
                V::Tuple(items) => items.iter().map(V::known_str).collect(),
                one => one.known_str().map(|a| vec![a]),
            };
            let Some(affixes) = affixes else {
                return V::Unknown;
            };
            let hit = affixes.iter().any(|a| match method {
                "startswith" => text.starts_with(a),
                _ => text.ends_with(a),
            });
            V::Data(Value::Bool(Some(hit)))
        }
        _ => str_result_by_kind(method),
    }
}

/// What a string method returns when the text or an argument is unknown: its type, which
/// Python fixes whatever the text (`ALPHABET.index(ch)` is an int, so a list of them makes a
/// tensor of one dimension).
pub fn str_result_by_kind<'a>(method: &str) -> V<'a> {
    match method {
        "index" | "rindex" | "find" | "rfind" | "count" => V::Data(Value::IntUnknown),
        "lower" | "upper" | "strip" | "lstrip" | "rstrip" | "replace" | "format" | "join"
        | "title" | "capitalize" | "casefold" | "zfill" | "center" | "ljust" | "rjust" => {
            V::Data(Value::Str(None))
        }
        "startswith" | "endswith" | "isdigit" | "isalpha" | "isalnum" | "isspace" | "islower"
        | "isupper" | "isnumeric" | "isdecimal" | "isidentifier" => V::Data(Value::Bool(None)),
        _ => V::Unknown,
    }
}

/// `xs.index(v)` (`VOCAB.index(ch)`): the first position of a known string or number in a
/// list of known ones; unknown when any item could match unseen.
pub fn list_index<'a>(items: &[V<'a>], args: &[V<'a>]) -> V<'a> {
    let known = |v: &V| match v {
        V::Data(Value::Str(s)) => s.is_some(),
        V::Data(Value::Int(e)) => e.as_const().is_some(),
        V::Data(Value::Bool(b)) => b.is_some(),
        _ => false,
    };
    let [wanted] = args else {
        return V::Unknown;
    };
    if !known(wanted) || !items.iter().all(known) {
        return V::Unknown;
    }
    match items.iter().position(|x| x.same(wanted)) {
        Some(i) => V::Data(Value::int(i as i64)),
        None => V::Unknown,
    }
}

/// `xs.append(v)` and friends on a list or a module container, in place: false when the
/// call leaves the receiver as it was. A list's items are copied only when another value
/// still shares them (a list grown in a loop is not copied at every pass).
pub fn grow<'a>(recv: &mut V<'a>, method: &str, args: Vec<V<'a>>) -> bool {
    grow_in_place(recv, method, args).is_some()
}

fn grow_in_place<'a>(recv: &mut V<'a>, method: &str, args: Vec<V<'a>>) -> Option<()> {
    // A list of unknown length grown by anything is no longer known item by item.
    if let V::Items(_) = recv {
        *recv = V::Unknown;
        return Some(());
    }
    let grown = match (&mut *recv, method) {
        (V::List(items), "append") => {
            let v = args.into_iter().next()?;
            Rc::make_mut(items).push(v);
            return Some(());
        }
        (V::List(items), "insert") => {
            let mut args = args.into_iter();
            let at = position(&args.next()?, items.len(), true)?;
            let v = args.next()?;
            Rc::make_mut(items).insert(at, v);
            return Some(());
        }
        (V::List(items), "extend") => {
            let more = iterate(args.first()?)?;
            Rc::make_mut(items).extend(more);
            return Some(());
        }
        (V::Container(_, items, _), "append") => {
            let v = args.into_iter().next()?;
            let items = Rc::make_mut(items);
            items.push((items.len().to_string(), v));
            return Some(());
        }
        (V::Container(_, items, _), "extend") => {
            let more = iterate(args.first()?)?;
            let items = Rc::make_mut(items);
            for v in more {
                items.push((items.len().to_string(), v));
            }
            return Some(());
        }
        (V::Container(..), "add_module") => {
            let mut args = args.into_iter();
            match args.next()? {
                V::Data(Value::Str(Some(name))) => with_child(recv, &name, args.next()?)?,
                _ => V::Unknown,
            }
        }
        (_, _) => V::Unknown,
    };
    *recv = grown;
    Some(())
}

/// A list index for `insert` (clamped into `0..=len`, as Python does) or `pop` (`None`
/// when out of range: an IndexError); negative indices count from the end.
fn position(index: &V<'_>, len: usize, clamp: bool) -> Option<usize> {
    let i = super::expr::int_of(index)?.as_const()?;
    let len = len as i64;
    let i = if i < 0 { i + len } else { i };
    if clamp {
        Some(i.clamp(0, len) as usize)
    } else {
        (0..len).contains(&i).then_some(i as usize)
    }
}

/// `xs.pop([i])` on a list: (the item, the list afterwards); an index not known or out of
/// range leaves both unknown.
pub fn list_pop<'a>(items: &[V<'a>], args: &[V<'a>]) -> (V<'a>, V<'a>) {
    let last = V::Data(Value::int(-1));
    match position(args.first().unwrap_or(&last), items.len(), false) {
        Some(i) => {
            let mut items = items.to_vec();
            let v = items.remove(i);
            (v, V::list(items))
        }
        None => (V::Unknown, V::Unknown),
    }
}

/// A module container with the child `name` registered (`add_module(name, m)`, or
/// `self.name = m` in a container subclass): an existing child of that name is replaced in
/// its place, as in PyTorch's `_modules`; a new one goes last.
pub fn with_child<'a>(container: &V<'a>, name: &str, child: V<'a>) -> Option<V<'a>> {
    let V::Container(kind, items, span) = container else {
        return None;
    };
    let mut items = (**items).clone();
    match items.iter_mut().find(|(k, _)| k == name) {
        Some(slot) => slot.1 = child,
        None => items.push((name.to_string(), child)),
    }
    Some(V::Container(*kind, Rc::new(items), *span))
}

/// Sets `key` in a dict's (or a keyword list's) items, replacing its earlier value; a `**`
/// entry (keywords from a mapping we do not know) never replaces another.
pub fn set_key<'a>(items: &mut Vec<(String, V<'a>)>, key: String, v: V<'a>) {
    if key != "**" {
        items.retain(|(k, _)| *k != key);
    }
    items.push((key, v));
}

/// `d.pop(k[, default])`, `d.setdefault(k[, default])` and `d.update(other, **kw)` on a dict
/// with string keys: (what the call returns, the dict afterwards). An unknown key or
/// argument leaves both unknown.
pub fn dict_mutation<'a>(
    items: &[(String, V<'a>)],
    method: &str,
    args: Vec<V<'a>>,
    kwargs: Vec<(String, V<'a>)>,
) -> (V<'a>, V<'a>) {
    let unknown = (V::Unknown, V::Unknown);
    let mut items = items.to_vec();
    let mut args = args.into_iter();
    if method == "update" {
        let mut add = match args.next() {
            Some(V::Dict(other)) => other.to_vec(),
            None => Vec::new(),
            Some(_) => return unknown,
        };
        if kwargs.iter().any(|(k, _)| k == "**") {
            return unknown;
        }
        add.extend(kwargs);
        for (k, v) in add {
            set_key(&mut items, k, v);
        }
        return (V::none(), V::dict(items));
    }
    let Some(V::Data(Value::Str(Some(key)))) = args.next() else {
        return unknown;
    };
    let default = args.next();
    let found = items.iter().position(|(k, _)| *k == key);
    match (method, found) {
        ("pop", Some(i)) => {
            let (_, v) = items.remove(i);
            (v, V::dict(items))
        }
        // A KeyError without a default: nothing after it is known.
        ("pop", None) => (default.unwrap_or(V::Unknown), V::dict(items)),
        ("setdefault", Some(i)) => (items[i].1.clone(), V::dict(items)),
        ("setdefault", None) => {
            let v = default.unwrap_or_else(V::none);
            items.push((key, v.clone()));
            (v, V::dict(items))
        }
        _ => unknown,
    }
}

/// A key that is equal for equal constants (Python's `==` on strings, ints, bools, None,
/// and identity for classes, functions and torch objects); `None` for anything else.
pub fn constant_key(v: &V) -> Option<String> {
    match v {
        V::Data(Value::Str(Some(s))) => Some(format!("s{s}")),
        V::Data(Value::Int(e)) => e.as_const().map(|c| format!("i{c}")),
        V::Data(Value::None) => Some("none".to_string()),
        // `True == 1` in Python.
        V::Data(Value::Bool(Some(b))) => Some(format!("i{}", *b as i64)),
        // Classes and functions compare by identity (class registries).
        V::Class(c) => Some(format!("c{:p}", *c)),
        V::Func(f) => Some(format!("f{:p}", *f)),
        V::Torch(path) => Some(format!("t{path}")),
        _ => None,
    }
}

/// `set(items)` of known constants: the distinct ones.
pub fn set_of<'a>(items: &[V<'a>]) -> Option<V<'a>> {
    let mut seen = rustc_hash::FxHashSet::default();
    let mut out = Vec::new();
    for item in items {
        if seen.insert(constant_key(item)?) {
            out.push(item.clone());
        }
    }
    Some(V::Set(out))
}

/// `sorted(items)` of known ints, or of known strings.
pub fn sorted_of<'a>(items: &[V<'a>]) -> Option<V<'a>> {
    let ints: Option<Vec<i64>> = items
        .iter()
        .map(|v| super::expr::int_of(v).and_then(|e| e.as_const()))
        .collect();
    if let Some(mut ints) = ints {
        ints.sort();
        return Some(V::list(
            ints.into_iter().map(|i| V::Data(Value::int(i))).collect(),
        ));
    }
    let mut texts: Vec<&str> = items.iter().map(V::known_str).collect::<Option<_>>()?;
    texts.sort();
    Some(V::list(
        texts
            .into_iter()
            .map(|t| V::Data(Value::Str(Some(t.to_string()))))
            .collect(),
    ))
}

/// `needle in haystack` when it is decided: a key of a dict, an item of a list, tuple or set
/// of known constants, a substring of a known string.
pub fn contains(needle: &V, haystack: &V) -> Option<bool> {
    let constant = constant_key;
    match (needle, haystack) {
        (V::Data(Value::Str(Some(k))), V::Dict(items)) => Some(items.iter().any(|(n, _)| n == k)),
        (V::Data(Value::Str(Some(k))), V::Data(Value::Str(Some(s)))) => {
            Some(s.contains(k.as_str()))
        }
        (_, members) if let Some(items) = members.members() => {
            let needle = constant(needle)?;
            any_known(items.iter().map(|item| constant(item).map(|c| c == needle)))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::assert_twins;

    /// A decoder pops its skips off a list the encoder grew (`pop`, `insert`), so each
    /// addition sees the skip it pairs with.
    #[test]
    fn skips_popped_from_a_list_keep_their_shapes() {
        let src = r#"
import torch
from torch import nn

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.ModuleList([nn.Conv2d(4, 4, 3, padding=1), nn.Conv2d(4, 8, 3, padding=1)])
        self.dec = nn.Conv2d(8, OUT, 3, padding=1)

    def forward(self, x):
        skips = []
        for layer in self.enc:
            x = layer(x)
            skips.insert(0, x)
        y = skips.pop(0)
        return self.dec(y) + skips.pop()
"#;
        assert_twins(src, "OUT", "8", "4", 17);
    }

    /// A list grown in a loop whose body branches grows by one item a pass, and a copy taken
    /// before a later `append` keeps its own items (lists share items until one changes).
    #[test]
    fn a_list_grown_under_branches_keeps_its_copies_apart() {
        let src = r#"
import torch
from torch import nn

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(IN, 2)

    def forward(self, x):
        feats = []
        for i in range(4):
            if x.shape[0] > 1:
                x = x * 2
            feats.append(x)
        kept = list(feats)
        feats.append(x)
        return self.fc(torch.cat(kept, dim=1)), torch.cat(feats, dim=1)

def build():
    return Net()(torch.randn(3, 8))
"#;
        assert_twins(src, "IN", "40", "32", 18);
    }

    /// Vocabularies from Python's `string` module and ids computed from known words: the
    /// batch's largest id is checked against the embedding table.
    #[test]
    fn token_ids_from_known_strings_are_checked_against_the_table() {
        let src = r#"
import string
import torch
from torch import nn

ALPHABET = string.ascii_lowercase

def encode(word, n=8):
    ids = [ALPHABET.index(c) + 1 for c in word.lower() if c in ALPHABET][:n]
    return ids + [0] * (n - len(ids))

emb = nn.Embedding(len(ALPHABET) + EXTRA, 4)
batch = torch.tensor([encode(w) for w in ["Hello", "jazz"]])
out = emb(batch)
"#;
        assert_twins(src, "EXTRA", "0", "1", 14);
    }

    /// timm's factories: keyword dicts consumed with `pop`/`setdefault`, `isinstance` and
    /// `in` deciding the branch, so the layer they return is known.
    #[test]
    fn kwargs_popped_and_branches_decided_by_isinstance_and_in() {
        let src = r#"
import torch
from torch import nn

def make(kernel_size, **kwargs):
    if isinstance(kernel_size, (list, tuple)):
        return None
    in_ch = kwargs.pop("in_ch", 3)
    out_ch = kwargs.pop("out_ch")
    kwargs.setdefault("bias", False)
    if "dilation" in kwargs and any([d > 1 for d in [kwargs["dilation"]]]):
        return None
    return nn.Conv2d(in_ch, out_ch, kernel_size, **kwargs)

def run():
    conv = make(3, in_ch=IN, out_ch=16, padding=1)
    return conv(torch.randn(1, 8, 32, 32))

run()
"#;
        assert_twins(src, "IN", "4", "8", 17);
    }

    /// timm's norm-act factory: keyword dicts merged with `{**a, **b}`, a set registry of
    /// classes tested with `in`, a class's `__name__`, a base built under `try`/`except
    /// TypeError` (both branches build the same layer), a `training` flag read in `forward`,
    /// and an activation built with or without `inplace` (a joined layer of one class).
    #[test]
    fn norm_act_factories_and_training_mode() {
        let src = r#"
import torch
from torch import nn
import torch.nn.functional as F

class BatchNormAct2d(nn.BatchNorm2d):
    def __init__(self, num_features, act_layer=nn.ReLU, device=None):
        try:
            factory_kwargs = {'device': device}
            super().__init__(num_features, **factory_kwargs)
        except TypeError:
            super().__init__(num_features)
        self.act = make_act(act_layer)

    def forward(self, x):
        x = F.batch_norm(x, self.running_mean if not self.training or self.track_running_stats else None,
                         self.running_var, self.weight, self.bias, self.training, 0.1, self.eps)
        return self.act(x)

def make_act(layer):
    try:
        return layer(inplace=True)
    except TypeError:
        return layer()

_NORM_ACT_TYPES = {BatchNormAct2d}
_NORM_TO_NORM_ACT = dict(batchnorm2d=BatchNormAct2d)

def get_norm_act_layer(norm_layer):
    if norm_layer in _NORM_ACT_TYPES:
        return norm_layer
    return _NORM_TO_NORM_ACT.get(norm_layer.__name__.lower(), None)

class ConvNormAct(nn.Module):
    def __init__(self, cin, cout, norm_layer=nn.BatchNorm2d, conv_kwargs=None):
        super().__init__()
        conv_kwargs = {**(conv_kwargs or {}), **dict(padding=1)}
        self.conv = nn.Conv2d(cin, cout, 3, **conv_kwargs)
        self.bn = get_norm_act_layer(norm_layer)(cout)

    def forward(self, x):
        return self.bn(self.conv(x))

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = ConvNormAct(3, 16, conv_kwargs=dict(stride=2))
        self.head = nn.Linear(WIDTH, 10)

    def forward(self, x):
        return self.head(self.stem(x).mean((2, 3)))
"#;
        assert_twins(src, "WIDTH", "32", "16", 51);
    }

    /// `children()` in registration order (`b10` after `b9`, not after `b1`), blocks
    /// registered under `str.format` names, and a container child replaced by index.
    #[test]
    fn children_run_in_registration_order_and_container_items_are_replaced() {
        let src = r#"
import torch
from torch import nn

class Stage(nn.Module):
    def __init__(self, n, c):
        super().__init__()
        self.flag = False
        for i in range(n):
            self.add_module("b{}".format(i + 1), nn.Conv2d(c, c, 3, padding=1))
        self.add_module("b{}".format(n + 1), nn.Conv2d(c, 2 * c, 1))

    def forward(self, x):
        for block in self.children():
            x = block(x)
        return x

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        stage = Stage(10, 8)
        head = nn.Sequential(*list(stage.children())[:1])
        head[0] = nn.Conv2d(IN, 8, 3, padding=1)
        self.stem = head
        self.stage = stage
        self.fc = nn.Linear(16, 4)

    def forward(self, x):
        x = self.stage(self.stem(x))
        return self.fc(x.mean((2, 3)))

net = Net()
net(torch.randn(1, 6, 8, 8))
"#;
        assert_twins(src, "IN", "3", "6", 29);
    }

    /// RegNet-style widths: tensor arithmetic on known values, `set`/`sorted`, a
    /// `@classmethod` called on its class, and a `functools.partial`'s `func`/`keywords`.
    #[test]
    fn widths_computed_with_tensor_arithmetic_are_known() {
        let src = r#"
import math
import torch
from torch import nn
from functools import partial

class Params:
    def __init__(self, widths):
        self.widths = widths

    @classmethod
    def make(cls, depth, w0, wa, wm):
        cont = torch.arange(depth) * wa + w0
        exps = torch.round(torch.log(cont / w0) / math.log(wm))
        widths = (torch.round(torch.divide(w0 * torch.pow(wm, exps), 8)) * 8).int().tolist()
        return cls(sorted(set(widths)))

class Net(nn.Module):
    def __init__(self, params, norm=partial(nn.BatchNorm2d, eps=1e-3)):
        super().__init__()
        layers = []
        c = 3
        for w in params.widths:
            layers += [nn.Conv2d(c, w, 3, padding=1), norm.func(w, **norm.keywords)]
            c = w
        self.features = nn.Sequential(*layers)
        self.fc = nn.Linear(HEAD, 10)

    def forward(self, x):
        return self.fc(self.features(x).mean((2, 3)))

net = Net(Params.make(16, 48, 27.89, 2.09))
net(torch.randn(1, 3, 8, 8))
"#;
        assert_twins(src, "HEAD", "208", "440", 30);
    }

    /// A `@property` read on an object runs its getter (timm's `ConvNormAct.out_channels`
    /// sizes the next layer).
    #[test]
    fn properties_run_their_getter_when_read() {
        let src = r#"
import torch
from torch import nn

class ConvAct(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 1)

    @property
    def out_channels(self):
        return self.conv.out_channels

    def forward(self, x):
        return self.conv(x)

def run():
    stem = ConvAct(3, WIDTH)
    head = nn.Linear(stem.out_channels, 10)
    return head(stem(torch.randn(2, 3, 4, 4)).mean((2, 3))[:, :16])

run()
"#;
        assert_twins(src, "WIDTH", "24", "16", 20);
    }

    /// `sum(xs, start)` adds from `start`: lists concatenate (a stride list built per stage).
    #[test]
    fn sum_with_a_start_concatenates_lists() {
        let src = r#"
import torch

def strides():
    per_stage = sum([[s] + [1] * (n - 1) for s, n in zip([1, 2], [1, 2])], [])
    return torch.randn(2, 3).view(len(per_stage), -1)

strides()
"#;
        // [1] + [2, 1]: three entries, and 6 elements view as 3 rows; a fourth stage breaks it.
        assert!(crate::testing::findings(src).is_empty());
        let four = src.replace("[1, 2], [1, 2]", "[1, 2], [1, 3]");
        let found = crate::testing::findings(&four);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].span.line, 6);
    }

    /// A partial of a partial is one partial, as in Python: its keywords hold both layers'.
    #[test]
    fn nested_partials_flatten() {
        let src = r#"
import functools
import torch
from torch import nn

def run():
    norm = functools.partial(functools.partial(nn.BatchNorm2d, eps=1e-3), momentum=0.01)
    bn = nn.BatchNorm2d(WIDTH, eps=norm.keywords["eps"], momentum=norm.keywords["momentum"])
    return bn(torch.randn(2, 8, 4, 4))

run()
"#;
        assert_twins(src, "WIDTH", "6", "8", 9);
    }
}
