//! `isinstance` and `issubclass`, decided when the types involved are known: builtin types,
//! torch classes, and the classes of the file with their bases.

use super::interp::Interp;
use super::value::{any_known, V};
use crate::shapes::Value;

/// The Python type of a value, as far as `isinstance` needs it (`None`: not known, or an
/// instance of a user class, which may derive from anything).
fn plain_type(v: &V) -> Option<&'static str> {
    Some(match v {
        V::Data(Value::Int(_) | Value::IntUnknown) => "int",
        V::Data(Value::Float(_)) => "float",
        V::Data(Value::Bool(_)) | V::Cond(_) => "bool",
        V::Data(Value::Str(_)) => "str",
        V::Data(Value::None) => "NoneType",
        V::Data(Value::Tensor(_)) => "torch.Tensor",
        V::Data(Value::Size(_)) => "torch.Size",
        V::Tuple(_) => "tuple",
        V::List(_) => "list",
        V::Dict(_) => "dict",
        V::Class(_) => "type",
        V::Torch(path) if is_torch_class(path) => "type",
        V::Func(_) | V::Closure(..) | V::Lambda(..) => "function",
        V::Partial(_) => "functools.partial",
        V::Module(_) | V::Container(..) => "torch.nn.Module",
        V::Array(_) => "numpy.ndarray",
        V::Torch(_) => "other",
        _ => return None,
    })
}

/// Torch classes are named in CamelCase (`torch.nn.BatchNorm2d`, `torch.Size`); functions,
/// namespaces and dtypes in lower case.
fn is_torch_class(path: &str) -> bool {
    path.rsplit('.')
        .next()
        .and_then(|last| last.chars().next())
        .is_some_and(|c| c.is_ascii_uppercase())
}

impl<'a> Interp<'a> {
    /// `isinstance(v, ty)` when it is decided: builtin types, `torch.Tensor` and
    /// `torch.Size` against plain values, a class of the file against its instances, `type`,
    /// `types.FunctionType`, `functools.partial` and `nn.Module` against classes, functions,
    /// partials and torch modules (timm's `get_norm_layer` dispatches on them).
    pub(super) fn isinstance(&self, v: &V<'a>, ty: Option<&V<'a>>) -> Option<bool> {
        let ty = ty?;
        if let V::Tuple(types) = ty {
            return any_known(types.iter().map(|t| self.isinstance(v, Some(t))));
        }
        if let (V::Object(o), V::Class(c)) = (v, ty) {
            // A base outside the file may be anything: only a class of the file decides.
            let class = o.borrow().class;
            return self
                .ancestry(class)
                .into_iter()
                .any(|a| std::ptr::eq(a, *c))
                .then_some(true);
        }
        let actual = plain_type(v)?;
        let wanted = match ty {
            V::Builtin(
                b @ ("int" | "float" | "bool" | "str" | "list" | "tuple" | "dict" | "type"
                | "functools.partial"),
            ) => *b,
            V::Builtin("types.FunctionType") => "function",
            V::Torch(path) => match &**path {
                // `Variable` is `Tensor` (its `isinstance` checks for a tensor).
                "torch.Tensor" | "torch.autograd.Variable" | "torch.autograd.variable.Variable" => {
                    "torch.Tensor"
                }
                "torch.Size" => "torch.Size",
                "torch.nn.Module" => "torch.nn.Module",
                // A torch layer class against a torch module: the same class decides; another
                // may be one of its bases (`_ConvNd`), so only plain values are decided.
                class if is_torch_class(class) => match v {
                    V::Module(m) if m.value.class == class => return Some(true),
                    V::Module(_) | V::Container(..) => return None,
                    _ if actual == "other" => return None,
                    _ => return Some(false),
                },
                _ => return None,
            },
            // A user class: none of the plain values is an instance of it.
            V::Class(_) => return Some(false),
            V::Builtin("collections.abc.Iterable") if actual != "other" => {
                return match actual {
                    // `nn.Sequential` and `nn.ModuleList` iterate, layers do not.
                    "torch.nn.Module" => None,
                    _ => Some(!matches!(
                        actual,
                        "int"
                            | "float"
                            | "bool"
                            | "NoneType"
                            | "type"
                            | "function"
                            | "functools.partial"
                    )),
                };
            }
            V::Builtin("collections.abc.Sequence" | "typing.Sequence") if actual != "other" => {
                return Some(matches!(actual, "str" | "tuple" | "list" | "torch.Size"));
            }
            _ => return None,
        };
        if actual == "other"
            && !matches!(
                wanted,
                "int" | "float" | "bool" | "str" | "list" | "tuple" | "dict"
            )
        {
            return None;
        }
        // `bool` derives from `int`, `torch.Size` from `tuple`.
        Some(
            actual == wanted
                || (wanted == "int" && actual == "bool")
                || (wanted == "tuple" && actual == "torch.Size"),
        )
    }
}

impl<'a> Interp<'a> {
    /// `issubclass(cls, base)` when it is decided: a class of the file against another (its
    /// bases in the file decide, unless one of them is a value we could not resolve, which may
    /// derive from anything), torch classes against classes of the file (never their
    /// subclasses), and a torch class against itself. MetaFormer picks its layout
    /// with `not issubclass(token_mixer, Attention)`.
    pub(super) fn issubclass(&self, cls: &V<'a>, base: Option<&V<'a>>) -> Option<bool> {
        let base = base?;
        if let V::Tuple(bases) = base {
            return any_known(bases.iter().map(|b| self.issubclass(cls, Some(b))));
        }
        match (cls, base) {
            (V::Class(c), V::Class(b)) => {
                let ancestry = self.ancestry(c);
                if ancestry.iter().any(|a| std::ptr::eq(*a, *b)) {
                    return Some(true);
                }
                // Every base of the chain must be known not to lead to `b`.
                let resolved = ancestry.iter().all(|a| {
                    self.classes
                        .bases
                        .get(&(*a as *const _))
                        .into_iter()
                        .flatten()
                        .all(|v| matches!(v, V::Class(_) | V::Torch(_)))
                });
                (resolved && ancestry.len() < 16).then_some(false)
            }
            (V::Torch(path), V::Class(_)) if is_torch_class(path) => Some(false),
            (V::Torch(p), V::Torch(q)) if is_torch_class(p) && p == q => Some(true),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::{assert_twins, findings};

    /// Old-style helpers that wrap numpy input: an array is not a `Variable` (a tensor is),
    /// and the tensor type passed in is compared with the torch classes to pick a dtype.
    #[test]
    fn variable_checks_and_tensor_type_comparisons_are_decided() {
        let src = r#"
import numpy as np
import torch
from torch import nn
from torch.autograd import Variable

def to_var(x, kind=torch.FloatTensor):
    if isinstance(x, Variable):
        return x
    if kind == torch.LongTensor:
        x = np.asarray(x, dtype=np.int64)
    else:
        x = np.asarray(x, dtype=np.float32)
    return Variable(kind(torch.from_numpy(x)))

layer = nn.Linear(6, 2)
layer(to_var(torch.randn(3, 6)))
layer(to_var(np.zeros((3, COLS))))
"#;
        assert_twins(src, "COLS", "5", "6", 18);
    }

    const MIXERS: &str = r#"
import torch
from torch import nn
from elsewhere import Base

class Attention(nn.Module):
    pass

class SelfAttention(Attention):
    pass

class Pooling(nn.Module):
    pass

class Foreign(Base):
    pass

class Gate(nn.Module):
    pass

def width(mixer):
    if issubclass(mixer, (Attention, Gate)):
        return 16
    return 8

def run():
    nn.Linear(width(SelfAttention), 4)(torch.randn(2, 16))
    nn.Linear(width(Gate), 4)(torch.randn(2, 16))
    nn.Linear(width(Pooling), 4)(torch.randn(2, 8))
    nn.Linear(width(nn.Identity), 4)(torch.randn(2, WIDTH))
    nn.Linear(width(Foreign), 4)(torch.randn(2, 3))

run()
"#;

    /// A class of the file is a subclass through its bases in the file; a torch class is
    /// never a subclass of a class of the file; a base we could not resolve leaves it open
    /// (the `Foreign` line has no finding).
    #[test]
    fn issubclass_follows_the_bases_of_the_file() {
        assert_twins(MIXERS, "WIDTH", "16", "8", 30);
        assert!(findings(&MIXERS.replace("WIDTH", "8")).is_empty());
    }
}
