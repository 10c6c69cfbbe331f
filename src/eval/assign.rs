//! Assignment targets: names, tuple and list unpacking (a tensor unpacks along its first
//! dim), starred targets, attributes, and subscripts (lists and dicts are values here, so
//! `xs[i] = v` rebinds `xs`).

use std::rc::Rc;

use ruff_python_ast::Expr;
use ruff_text_size::TextRange;

use super::interp::Interp;
use super::methods::{set_key, with_child};
use super::value::{TorchModule, V};
use crate::shapes::kind::FindingKind;
use crate::shapes::shape::{Dim, Shape};
use crate::shapes::value::TensorValue;
use crate::shapes::{Pred, Value};

impl<'a> Interp<'a> {
    pub fn assign(&mut self, target: &'a Expr, v: V<'a>) {
        match target {
            Expr::Name(n) => self.bind(n.id.as_str(), v),
            Expr::Tuple(t) => self.unpack(&t.elts, v, t.range),
            Expr::List(l) => self.unpack(&l.elts, v, l.range),
            Expr::Starred(s) => self.assign(&s.value, v),
            Expr::Attribute(a) => {
                let obj = self.eval(&a.value);
                let name = a.attr.id.as_str();
                // In a subclass of `nn.Sequential` (or `ModuleList`/`ModuleDict`), a module
                // assigned to an attribute is also a child: the default forward runs it.
                // An unknown value may be a module: registering it keeps the forward sound.
                let module_like = matches!(
                    v,
                    V::Module(_) | V::Container(..) | V::Object(_) | V::Unknown
                );
                if let Some(updated) = module_like
                    .then(|| obj.container())
                    .flatten()
                    .and_then(|c| with_child(&c, name, v.clone()))
                {
                    self.set_attr(&obj, super::value::TORCH_BASE_ATTR, updated);
                }
                // A torch layer is a value: `self.decoder.weight = self.encoder.weight`
                // rebinds `self.decoder` to the layer computing with that weight (and an
                // object extending a torch layer has its base rebuilt).
                match (&obj, obj.torch_base()) {
                    (V::Module(m), _) => {
                        let updated = assigned_layer(m, name, &v);
                        self.assign(&a.value, updated);
                    }
                    (V::Object(_), Some(V::Module(m))) => {
                        let updated = assigned_layer(&m, name, &v);
                        self.set_attr(&obj, super::value::TORCH_BASE_ATTR, updated);
                    }
                    _ => {}
                }
                if let V::Class(c) = obj {
                    self.set_class_attr(c, name, v);
                    return;
                }
                self.set_attr(&obj, name, v);
            }
            Expr::Subscript(s) => {
                // `obj.__dict__[k] = v`, `vars(obj)[k] = v`: an attribute by name.
                if let Some(owner) = instance_dict_owner(&s.value) {
                    let owner = self.eval(owner);
                    match self.eval(&s.slice) {
                        V::Data(Value::Str(Some(k))) => self.set_attr(&owner, &k, v),
                        _ => self.forget_data_attrs(&owner),
                    }
                    return;
                }
                let obj = self.eval(&s.value);
                let idx = self.eval(&s.slice);
                // Lists and dicts are values here: `xs[i] = v` rebinds `xs`.
                match (&obj, &idx) {
                    (V::List(items), V::Data(Value::Int(i))) => {
                        let n = items.len() as i64;
                        let updated = match i.as_const().map(|i| if i < 0 { i + n } else { i }) {
                            Some(j) if (0..n).contains(&j) => {
                                let mut items = items.clone();
                                Rc::make_mut(&mut items)[j as usize] = v;
                                V::List(items)
                            }
                            _ => V::Unknown,
                        };
                        self.rebind_changed(&s.value, updated);
                    }
                    // `xs[i:j] = ys` splices (timm's `val2tuple` pads a list this way); an
                    // extended slice must keep the length, as Python requires.
                    (V::List(items), V::Data(Value::Slice(a, b, c))) => {
                        let updated = super::calls::iterate(&v)
                            .zip(super::expr::slice_range(items.len() as i64, a, b, c))
                            .and_then(|(new, (start, stop, step))| {
                                splice(items, new, start, stop, step)
                            });
                        self.rebind_changed(&s.value, updated.map_or(V::Unknown, V::list));
                    }
                    (V::Dict(items), V::Data(Value::Str(Some(k)))) => {
                        let mut items = items.to_vec();
                        set_key(&mut items, k.clone(), v);
                        self.rebind_changed(&s.value, V::dict(items));
                    }
                    // `seq[0] = nn.Conv2d(6, 64, 7)`: containers are values too; the child
                    // is replaced (a key or index not known makes the container unknown).
                    (V::Container(kind, items, at), _) => {
                        let n = items.len() as i64;
                        let slot = match &idx {
                            V::Data(Value::Int(i)) => i
                                .as_const()
                                .map(|i| if i < 0 { i + n } else { i })
                                .filter(|j| (0..n).contains(j))
                                .map(|j| j as usize),
                            V::Data(Value::Str(Some(k))) => {
                                items.iter().position(|(name, _)| name == k)
                            }
                            _ => None,
                        };
                        let updated = match slot {
                            Some(j) => {
                                let mut items = items.as_ref().clone();
                                items[j].1 = v;
                                V::Container(*kind, std::rc::Rc::new(items), *at)
                            }
                            None => V::Unknown,
                        };
                        self.rebind_changed(&s.value, updated);
                    }
                    (V::List(_) | V::Dict(_) | V::Tuple(_), _) => {
                        self.rebind_changed(&s.value, V::Unknown);
                    }
                    // `a[i, :] = v` writes into the array: its shape stays, its content is
                    // no longer what was known.
                    (V::Array(t), _) => {
                        let written = V::Array(Box::new((**t).clone().without_content()));
                        self.rebind_changed(&s.value, written);
                    }
                    _ => self.set_item(obj, idx, v, s.range),
                }
            }
            _ => {}
        }
    }

    /// What an instance may hold after a write under a name not known (`setattr(obj, key,
    /// v)` in a loop over a config file, `obj.__dict__.update(cfg)`): any attribute that is
    /// not a layer may have been replaced, so each is unknown. Layers stay: registering a
    /// layer under a computed name adds a child, it does not replace settings.
    pub fn forget_data_attrs(&mut self, obj: &V<'a>) {
        if let V::Object(o) = obj {
            for v in o.borrow_mut().attrs_mut().values_mut() {
                if !v.is_layer() {
                    *v = V::Unknown;
                }
            }
            self.set_attr(obj, super::value::UNNAMED_ATTR, V::Unknown);
        }
    }

    pub fn set_attr(&mut self, obj: &V<'a>, attr: &str, v: V<'a>) {
        if let V::Object(o) = obj {
            let mut o = o.borrow_mut();
            if o.attrs_mut().insert(attr.to_string(), v).is_none() {
                o.order.push(attr.to_string());
            }
        }
    }

    /// `cx, cy, w, h = boxes.unbind(-1)` where the size of that dim is symbolic: the call is
    /// evaluated as any call is, and when it gives nothing for a tensor receiver (the number
    /// of pieces is not known), the names take the slices of `boxes.movedim(-1, 0)`, which
    /// unpacking checks against their count. `None` for any other call.
    pub(super) fn unbind_for_unpacking(
        &mut self,
        c: &'a ruff_python_ast::ExprCall,
    ) -> Option<V<'a>> {
        let Expr::Attribute(a) = &*c.func else {
            return None;
        };
        if a.attr.id.as_str() != "unbind" {
            return None;
        }
        let recv = self.eval(&a.value);
        let func = self.attribute(recv.clone(), "unbind", a.range);
        let (args, kwargs) = self.eval_args(c);
        let span = ruff_text_size::Ranged::range(c);
        let split = self.call(func, args.clone(), kwargs.clone(), span);
        if !split.is_unknown() || !recv.is_tensor() || self.run.dead {
            return Some(split);
        }
        let dim = args
            .into_iter()
            .next()
            .or_else(|| kwargs.into_iter().find(|(k, _)| k == "dim").map(|(_, v)| v))
            .unwrap_or(V::Data(Value::int(0)));
        let zero = V::Data(Value::int(0));
        Some(self.apply_function(
            "torch.movedim",
            vec![recv, dim, zero],
            Vec::new(),
            span,
            &[],
        ))
    }

    fn unpack(&mut self, targets: &'a [Expr], v: V<'a>, span: TextRange) {
        let starred = targets.iter().position(|t| matches!(t, Expr::Starred(_)));
        let items = match &v {
            V::Data(Value::Tensor(_)) => {
                // Unpacking a tensor iterates its first dim: `a, b = x` needs `x.shape[0] == 2`.
                if starred.is_none() {
                    let n = Value::int(targets.len() as i64);
                    let idx: Vec<V<'a>> = (0..targets.len())
                        .map(|i| V::Data(Value::int(i as i64)))
                        .collect();
                    self.check_len(&v, &n, span);
                    Some(
                        idx.into_iter()
                            .map(|i| self.subscript(v.clone(), i, span))
                            .collect::<Vec<_>>(),
                    )
                } else {
                    None
                }
            }
            other => super::calls::iterate(other),
        };
        match (items, starred) {
            // Unpacking a torch.Size of another length raises ("too many values to unpack").
            (Some(items), None)
                if items.len() != targets.len() && matches!(v, V::Data(Value::Size(_))) =>
            {
                let msg = format!(
                    "{} of {} dims into {} names",
                    super::trace::SIZE_UNPACK,
                    items.len(),
                    targets.len()
                );
                self.fail(FindingKind::ShapeMismatch, msg, "unpack", span, &[], "");
                for t in targets {
                    self.assign(t, V::Unknown);
                }
            }
            (Some(items), None) if items.len() == targets.len() => {
                for (t, item) in targets.iter().zip(items) {
                    self.assign(t, item);
                }
            }
            (Some(items), Some(star)) if items.len() + 1 >= targets.len() => {
                let after = targets.len() - star - 1;
                let tail = items.len() - after;
                for (t, item) in targets[..star].iter().zip(items.iter()) {
                    self.assign(t, item.clone());
                }
                self.assign(&targets[star], V::list(items[star..tail].to_vec()));
                for (t, item) in targets[star + 1..].iter().zip(items[tail..].iter()) {
                    self.assign(t, item.clone());
                }
            }
            _ => {
                for t in targets {
                    self.assign(t, V::Unknown);
                }
            }
        }
    }

    /// `len(x) == n` for unpacking a tensor.
    fn check_len(&mut self, x: &V<'a>, n: &Value, span: TextRange) {
        if let V::Data(Value::Tensor(TensorValue {
            shape: Shape::Ranked(dims),
            ..
        })) = x
        {
            match dims.first() {
                None => self.fail(
                    FindingKind::ShapeMismatch,
                    "iteration over a 0-d tensor".to_string(),
                    "unpack",
                    span,
                    &[],
                    "",
                ),
                Some(Dim::Known(d)) => {
                    if let Some(n) = n.as_int_expr() {
                        let msg = format!("cannot unpack a tensor of length {d} into {n} names");
                        let pred = Pred::Eq(d.clone(), n);
                        match pred.decide() {
                            Some(true) => {}
                            Some(false) => {
                                self.fail(FindingKind::ShapeMismatch, msg, "unpack", span, &[], "")
                            }
                            None => self.require(
                                FindingKind::ShapeMismatch,
                                pred,
                                msg,
                                "unpack",
                                span,
                                &[],
                                "",
                            ),
                        }
                    }
                }
                Some(Dim::Dyn) => {}
            }
        }
    }
}

/// The layer `m` after `m.<attr> = v` (see `catalogue::parameters::with_assigned`):
/// unknown when its shapes are no longer known.
fn assigned_layer<'a>(m: &std::rc::Rc<TorchModule>, attr: &str, v: &V<'a>) -> V<'a> {
    match crate::catalogue::parameters::with_assigned(&m.value, attr, &v.to_value()) {
        Some(value) if value == m.value => V::Module(m.clone()),
        Some(value) => V::Module(std::rc::Rc::new(TorchModule {
            value,
            span: m.span,
        })),
        None => V::Unknown,
    }
}

/// `items[start:stop:step] = new`: a plain slice is replaced by any number of items; an
/// extended one needs exactly as many items as it selects (else Python raises, and the
/// result is not known).
fn splice<'a>(
    items: &[V<'a>],
    new: Vec<V<'a>>,
    start: i64,
    stop: i64,
    step: i64,
) -> Option<Vec<V<'a>>> {
    if step == 1 {
        let (start, stop) = (start as usize, stop.max(start) as usize);
        let mut out = items[..start].to_vec();
        out.extend(new);
        out.extend_from_slice(&items[stop..]);
        return Some(out);
    }
    let selected: Vec<usize> = super::expr::slice_indices(start, stop, step).collect();
    if selected.len() != new.len() {
        return None;
    }
    let mut out = items.to_vec();
    for (i, v) in selected.into_iter().zip(new) {
        out[i] = v;
    }
    Some(out)
}

/// The instance whose attribute dictionary `e` is: `x` in `x.__dict__` or `vars(x)`.
pub(super) fn instance_dict_owner(e: &Expr) -> Option<&Expr> {
    match e {
        Expr::Attribute(a) if a.attr.id.as_str() == "__dict__" => Some(&a.value),
        Expr::Call(c)
            if matches!(&*c.func, Expr::Name(n) if n.id.as_str() == "vars")
                && c.arguments.args.len() == 1
                && c.arguments.keywords.is_empty() =>
        {
            Some(&c.arguments.args[0])
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::{assert_twins, findings};

    /// `self.__dict__.update(cfg)` of a known dict sets its keys as attributes (verified
    /// under torch 2.15: the kernel of 3 fails on a 2x2 input, runs on 4x4).
    #[test]
    fn instance_dict_update_sets_known_keys() {
        let src = r#"
import torch
import torch.nn as nn

class Config:
    def __init__(self, cfg=None):
        self.patch = -1
        self.dim = 8
        if cfg is not None:
            self.__dict__.update(cfg)

conv = nn.Conv2d(1, Config().dim, kernel_size=Config({"patch": 3}).patch)
y = conv(torch.randn(1, 1, SIZE, SIZE))
"#;
        assert_twins(src, "SIZE", "2", "4", 13);
    }

    /// A config filled from data it does not know (`__dict__[key] = value`,
    /// `__dict__.update(loaded)`, `setattr(config, key, value)` in a loop over a JSON file)
    /// no longer holds its placeholder defaults: a size of -1 there is not a finding
    /// (DeepSpeed's `BertConfig.from_dict`, LAVIS's `BEATsConfig`).
    #[test]
    fn configs_filled_from_unknown_data_forget_their_placeholders() {
        for write in [
            "config.__dict__[key] = value",
            "vars(config)[key] = value",
            "setattr(config, key, value)",
            "config.__dict__.update({key: value})",
            "config.__dict__.update(loaded)",
        ] {
            let src = r#"
import json
import torch.nn as nn

class Config:
    def __init__(self, vocab):
        self.vocab = vocab
        self.dim = 16

def load(path):
    config = Config(vocab=-1)
    loaded = json.load(open(path))
    for key, value in loaded.items():
        WRITE
    return config

cfg = load("bert.json")
emb = nn.Embedding(cfg.vocab, cfg.dim)
"#
            .replace("WRITE", write);
            assert!(findings(&src).is_empty(), "{write}: {:?}", findings(&src));
            // The placeholder itself is a finding when nothing replaces it.
            let kept = src.replace(write, "pass");
            assert_eq!(findings(&kept).len(), 1, "{write}");
        }
    }

    /// timm's `val2tuple` pads a list with a slice assignment; plain and extended slices
    /// replace what Python replaces.
    #[test]
    fn slice_assignment_splices_a_list() {
        let src = r#"
import torch
from torch import nn

def val2tuple(x, min_len=1, idx_repeat=-1):
    x = list(x) if isinstance(x, (list, tuple)) else [x]
    if len(x) > 0:
        x[idx_repeat:idx_repeat] = [x[idx_repeat] for _ in range(min_len - len(x))]
    return tuple(x)

def run():
    widths = val2tuple((4, 8), 4)
    xs = [1, 2, 3, 4, 5]
    xs[1:4] = [6]
    ys = [1, 2, 3, 4]
    ys[::2] = [16, 32]
    nn.Linear(widths[2], xs[1])(torch.randn(2, 8))
    nn.Linear(sum(widths), ys[2])(torch.randn(2, 28))
    nn.Linear(ys[0] + ys[1] + widths[3] + xs[1], 3)(torch.randn(2, WIDTH))

run()
"#;
        assert_twins(src, "WIDTH", "31", "32", 19);
    }

    /// Weight tying: `decoder.weight = encoder.weight` makes the Linear compute with the
    /// embedding's `[ntoken, ninp]` weight (its declared in_features no longer matter), and a
    /// convolution takes the channels and kernel of an assigned weight.
    #[test]
    fn an_assigned_weight_sets_what_the_layer_computes_with() {
        let src = r#"
import torch
import torch.nn as nn

class LM(nn.Module):
    def __init__(self, ntoken=100, ninp=32, nhid=64):
        super().__init__()
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = nn.GRU(ninp, nhid, batch_first=True)
        self.proj = nn.Linear(nhid, PROJ)
        self.decoder = nn.Linear(999, ntoken)
        self.decoder.weight = self.encoder.weight

    def forward(self, ids):
        h, _ = self.rnn(self.encoder(ids))
        return self.decoder(self.proj(h))

class C(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Conv2d(3, 8, 3)
        self.b = nn.Conv2d(5, 5, 3, bias=False)
        self.b.weight = nn.Parameter(torch.randn(4, 8, 1, 1))

    def forward(self, x):
        return self.b(self.a(x)).view(1, 4, 36)

def run():
    LM()(torch.randint(0, 100, (2, 5)))
    C()(torch.randn(1, 3, 8, 8))

run()
"#;
        assert_twins(src, "PROJ", "nhid", "ninp", 16);
        let src = src.replace("PROJ", "ninp");
        assert_twins(
            &src,
            "view(1, 4, 36)",
            "view(1, 5, 36)",
            "view(1, 4, 36)",
            26,
        );
    }

    /// Class attributes assigned after the class (at the top level, or `cls.x = ...` in a
    /// class method) are what later reads see; one assigned on an undecided path may or may
    /// not have changed.
    #[test]
    fn class_attributes_assigned_later_are_seen() {
        let src = r#"
import sys
import torch
import torch.nn as nn

class Config:
    width = 8

    @classmethod
    def widen(cls, w):
        cls.width = w

Config.width = 16

def run(flag):
    nn.Linear(Config.width, 4)(torch.randn(2, WIDTH))
    Config.widen(32)
    nn.Linear(Config.width, 4)(torch.randn(2, 32))
    if flag:
        Config.width = 64
    nn.Linear(Config.width, 4)(torch.randn(2, 32))

run(len(sys.argv) > 1)
"#;
        assert_twins(src, "WIDTH", "8", "16", 16);
    }
}
