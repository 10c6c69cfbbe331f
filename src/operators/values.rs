//! The small value lattice precise mode tracks per name: just enough to tell a torch call from a
//! same-named call on something else. This is not shape inference (that lives in `shapes`).

use std::rc::Rc;

use ruff_python_ast::Expr;

use super::api::ApiKind;
use super::Resolution;
use crate::resolve::is_torch_path;

/// How a name came to refer to a torch object: through a plain import (`import torch`,
/// `from torch import cat`) or a renaming (`import torch.nn.functional as F`, `relu = F.relu`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Via {
    Import,
    Alias,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// Nothing known; a method call on it counts only by method name.
    Unknown,
    /// Known not to be a tensor (literals, builtins' results, numpy...): its methods never count.
    NotTensor,
    Tensor,
    /// A tuple/list of tensors (`x.chunk(2)`): unpacking or indexing gives tensors.
    TensorSeq,
    /// `None`: joins with anything to that thing (`self.proj = None` then a module).
    NoneValue,
    /// A module object: `torch`, `torch.nn`, or a non-torch one (`numpy`).
    Namespace {
        path: Rc<str>,
        via: Via,
    },
    /// A torch function or class (canonical name).
    Api {
        name: &'static str,
        kind: ApiKind,
        via: Via,
    },
    /// An `nn.Module` instance built from a torch class.
    ModuleInstance {
        class: &'static str,
        via: Via,
    },
    /// The `self` of a method of a class defined in this file.
    SelfOf(Rc<str>),
    /// A class defined in this file.
    UserClass(Rc<str>),
    /// A Python builtin not shadowed by any binding.
    Builtin(Rc<str>),
    /// Bound by a relative import: unresolved.
    Relative,
}

impl Value {
    pub fn join(self, other: Value) -> Value {
        match (self, other) {
            (a, b) if a == b => a,
            (Value::NoneValue, b) => b,
            (a, Value::NoneValue) => a,
            _ => Value::Unknown,
        }
    }

    pub fn with_via(self, new_via: Via) -> Value {
        match self {
            Value::Namespace { path, .. } => Value::Namespace { path, via: new_via },
            Value::Api { name, kind, .. } => Value::Api {
                name,
                kind,
                via: new_via,
            },
            Value::ModuleInstance { class, .. } => Value::ModuleInstance {
                class,
                via: new_via,
            },
            v => v,
        }
    }
}

/// Top-level packages whose objects are certainly not torch tensors.
const NON_TORCH_ROOTS: &[&str] = &[
    "numpy",
    "pandas",
    "math",
    "os",
    "re",
    "json",
    "sys",
    "random",
    "string",
    "collections",
    "itertools",
    "functools",
    "pathlib",
    "PIL",
    "cv2",
    "scipy",
    "sklearn",
    "tensorflow",
    "jax",
    "logging",
    "argparse",
    "typing",
    "time",
    "datetime",
    "subprocess",
    "shutil",
    "glob",
    "pickle",
    "csv",
    "io",
    "warnings",
    "copy",
    "inspect",
    "operator",
    "urllib",
    "requests",
    "yaml",
    "tqdm",
    "matplotlib",
    "seaborn",
    "h5py",
    "PIL",
    "shlex",
    "struct",
    "hashlib",
    "tempfile",
    "textwrap",
    "unittest",
    "dataclasses",
    "enum",
    "abc",
    "contextlib",
    "types",
];

/// Result of calling something in a non-torch namespace.
pub fn foreign_call_result(path: &str) -> Value {
    let root = path.split('.').next().unwrap_or(path);
    if NON_TORCH_ROOTS.contains(&root) {
        Value::NotTensor
    } else {
        Value::Unknown
    }
}

/// Builtins whose result is certainly not a tensor.
const NON_TENSOR_BUILTINS: &[&str] = &[
    "len",
    "str",
    "int",
    "float",
    "bool",
    "range",
    "list",
    "dict",
    "set",
    "tuple",
    "repr",
    "format",
    "isinstance",
    "issubclass",
    "hasattr",
    "open",
    "print",
    "enumerate",
    "zip",
    "ord",
    "chr",
    "hex",
    "bin",
    "oct",
    "hash",
    "id",
    "type",
    "frozenset",
    "bytes",
    "bytearray",
    "input",
    "sorted",
    "reversed",
    "round",
    "divmod",
    "callable",
    "vars",
    "dir",
    "globals",
    "locals",
];

/// The value a call of a builtin returns (`max` over tensors may be a tensor: unknown).
pub fn builtin_call_result(name: &str) -> Value {
    if NON_TENSOR_BUILTINS.contains(&name) {
        Value::NotTensor
    } else {
        Value::Unknown
    }
}

/// Python builtin names, which resolve when no binding shadows them.
pub fn is_builtin(name: &str) -> bool {
    NON_TENSOR_BUILTINS.contains(&name)
        || matches!(
            name,
            "max"
                | "min"
                | "sum"
                | "abs"
                | "any"
                | "all"
                | "map"
                | "filter"
                | "iter"
                | "next"
                | "getattr"
                | "setattr"
                | "super"
                | "object"
                | "property"
                | "staticmethod"
                | "classmethod"
                | "pow"
                | "slice"
                | "exec"
                | "eval"
                | "compile"
                | "Exception"
                | "ValueError"
                | "TypeError"
                | "RuntimeError"
                | "NotImplementedError"
        )
}

/// Functions and methods that return a sequence of tensors.
fn returns_tensor_seq(name: &str) -> bool {
    matches!(
        name,
        "chunk"
            | "split"
            | "unbind"
            | "tensor_split"
            | "split_with_sizes"
            | "hsplit"
            | "vsplit"
            | "dsplit"
            | "meshgrid"
            | "broadcast_tensors"
            | "unsafe_chunk"
            | "unsafe_split"
            | "atleast_1d"
            | "atleast_2d"
            | "atleast_3d"
    )
}

/// Functions and methods whose result is not a tensor, or is a tuple only sometimes
/// (`max(x, dim)`): treated as unknown.
fn returns_non_tensor(name: &str) -> bool {
    name.starts_with("is_")
        || name.starts_with("get_")
        || name.starts_with("set_")
        || matches!(
            name,
            "size"
                | "dim"
                | "ndimension"
                | "item"
                | "tolist"
                | "numel"
                | "nelement"
                | "element_size"
                | "data_ptr"
                | "get_device"
                | "stride"
                | "storage_offset"
                | "type"
                | "max"
                | "min"
                | "sort"
                | "topk"
                | "kthvalue"
                | "mode"
                | "median"
                | "unique"
                | "unique_consecutive"
                | "aminmax"
                | "frexp"
                | "histogram"
                | "qr"
                | "svd"
                | "eig"
                | "eigh"
                | "slogdet"
                | "lu"
                | "manual_seed"
                | "seed"
                | "save"
                | "load"
                | "numpy"
                | "equal"
                | "allclose"
                | "backward"
                | "register_hook"
                | "storage"
                | "untyped_storage"
                | "lstsq"
                | "cummax"
                | "cummin"
                | "var_mean"
                | "std_mean"
                | "nanmedian"
        )
}

/// The value returned by calling a torch API object.
pub fn api_call_result(name: &'static str, kind: ApiKind, via: Via) -> Value {
    match kind {
        ApiKind::Module => Value::ModuleInstance { class: name, via },
        ApiKind::Class => match name {
            "torch.Tensor" | "torch.nn.Parameter" | "torch.nn.parameter.Buffer" => Value::Tensor,
            n if n.ends_with("Tensor") => Value::Tensor,
            _ => Value::Unknown,
        },
        ApiKind::Namespace => Value::Unknown,
        ApiKind::Function => {
            let leaf = name.rsplit('.').next().unwrap_or(name);
            let tensor_namespace = matches!(
                super::api::family_of(name),
                "torch" | "nn.functional" | "linalg" | "fft" | "special" | "nn.init"
            );
            if returns_tensor_seq(leaf) {
                Value::TensorSeq
            } else if !tensor_namespace || returns_non_tensor(leaf) {
                Value::Unknown
            } else {
                Value::Tensor
            }
        }
    }
}

/// The value returned by a Tensor method.
pub fn method_call_result(method: &str) -> Value {
    if returns_tensor_seq(method) {
        Value::TensorSeq
    } else if returns_non_tensor(method) {
        Value::Unknown
    } else {
        Value::Tensor
    }
}

/// Attributes of a tensor that are tensors themselves.
pub fn tensor_attribute(attr: &str) -> Value {
    match attr {
        "T" | "mT" | "H" | "mH" | "data" | "grad" | "real" | "imag" => Value::Tensor,
        "shape" | "dtype" | "device" | "ndim" | "is_cuda" | "requires_grad" | "layout" => {
            Value::NotTensor
        }
        _ => Value::Unknown,
    }
}

/// The value an applied torch module returns (recurrent and attention modules return tuples).
pub fn module_apply_result(class: &str) -> Value {
    let leaf = class.rsplit('.').next().unwrap_or(class);
    match leaf {
        "LSTM" | "GRU" | "RNN" | "MultiheadAttention" | "LSTMCell" | "ModuleList"
        | "ModuleDict" | "ParameterList" | "ParameterDict" => Value::Unknown,
        _ => Value::Tensor,
    }
}

/// Resolves `path` in the torch API table into a value.
pub fn torch_path_value(path: &str, via: Via) -> Value {
    match crate::resolve::torch_name(path) {
        Some((name, ApiKind::Namespace)) => Value::Namespace {
            path: Rc::from(name),
            via,
        },
        Some((name, kind)) => Value::Api { name, kind, via },
        None => Value::Unknown,
    }
}

/// The value `import path` / `from a import b` binds.
pub fn module_value(path: &str, via: Via) -> Value {
    if is_torch_path(path) {
        torch_path_value(path, via)
    } else {
        Value::Namespace {
            path: Rc::from(path),
            via,
        }
    }
}

/// Re-binding a torch object by assignment (`relu = F.relu`) is an alias.
pub fn aliased(source: &Expr, value: Value) -> Value {
    match source {
        Expr::Name(_) | Expr::Attribute(_) => value.with_via(Via::Alias),
        _ => value,
    }
}

pub fn element_of(v: &Value) -> Value {
    match v {
        Value::TensorSeq | Value::Tensor => Value::Tensor,
        Value::NotTensor => Value::NotTensor,
        _ => Value::Unknown,
    }
}

pub fn resolution_of(via: Via) -> Resolution {
    match via {
        Via::Import => Resolution::Import,
        Via::Alias => Resolution::Alias,
    }
}
