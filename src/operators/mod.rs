//! Operators: recognising PyTorch operator call sites in a parsed file.
//!
//! Two counting modes: `precise` (default) resolves imports, aliases, module attributes and
//! tensor receivers to canonical names (`precise.rs`); `teosc` reproduces the TEOSC study's
//! name matching, quirks included (`teosc.rs`).

pub mod api;
pub mod precise;
pub mod teosc;
pub mod values;

use serde::{Deserialize, Serialize};

/// How the operator is invoked at the call site.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum CallKind {
    /// A torch function (`torch.cat(...)`, `F.relu(...)`).
    Call,
    /// A torch class instantiated (`nn.Linear(3, 4)`, `torch.Tensor(2)`).
    Construct,
    /// A torch module instance applied (`self.fc(x)`, `nn.ReLU()(x)`).
    Apply,
    /// A Tensor method (`x.view(...)`).
    Method,
    /// Python's operator on a tensor (`a @ b`, `x + 1`, `-x`, `x < 0`, `x[i]`, `x += y`),
    /// named for the torch operator it calls (`torch.matmul`, `torch.Tensor.__getitem__`).
    Operator,
}

impl CallKind {
    pub fn as_str(self) -> &'static str {
        match self {
            CallKind::Call => "call",
            CallKind::Construct => "construct",
            CallKind::Apply => "apply",
            CallKind::Method => "method",
            CallKind::Operator => "operator",
        }
    }
}

/// How a call site was resolved to its operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Resolution {
    /// Through imports that keep torch's own names (`import torch`, `from torch import cat`).
    Import,
    /// Through a renaming import or assignment (`import torch.nn.functional as F`).
    Alias,
    /// A method on a receiver known to be a tensor (result of a torch call, annotated `Tensor`).
    TensorMethod,
    /// A torch module stored on `self` and applied (`self.conv(x)`).
    ModuleAttribute,
    /// A Tensor method name on a receiver of unknown type, in a file that imports torch (names
    /// shared with builtins or `nn.Module`, such as `split` or `to`, are never counted this
    /// way).
    MethodName,
    /// TEOSC mode: the bare name matched the operator list.
    TeoscName,
    /// Only the shape analysis resolves it: it follows values through calls, defaults and
    /// containers (`norm_layer(dim)` with `norm_layer=nn.LayerNorm`), which counting's one
    /// pass does not.
    Analysis,
}

impl Resolution {
    pub fn as_str(self) -> &'static str {
        match self {
            Resolution::Import => "import",
            Resolution::Alias => "alias",
            Resolution::TensorMethod => "tensor_method",
            Resolution::ModuleAttribute => "module_attribute",
            Resolution::MethodName => "method_name",
            Resolution::TeoscName => "teosc_name",
            Resolution::Analysis => "analysis",
        }
    }
}

/// One recognised operator call. Positions are 1-based, in the parsed text.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct CallSite {
    pub line: u32,
    pub column: u32,
    pub operator: String,
    pub call_kind: CallKind,
    pub resolution: Resolution,
    pub enclosing_class: Option<String>,
    pub enclosing_function: Option<String>,
}

/// What operator recognition found in one file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileOperators {
    pub calls: Vec<CallSite>,
    /// Relative imports, as written (`.blocks.ConvBlock`): recorded, not resolved.
    pub relative_imports: Vec<String>,
}
