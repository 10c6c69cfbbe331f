//! Whether the analysed file's own code can read a name that only a star import binds.
//!
//! `from m import *` in the analysed file loads `m` (and what it imports) to list its
//! names. A package's `__init__.py` that only re-exports (`from .resnet import *` for
//! every model) would load the whole package to bind names nothing in the file reads. A
//! name the file reads is either bound by the file itself (an assignment, a definition, a
//! parameter, a named import), a Python builtin, or possibly bound by a star import: only
//! in the last case is loading the star imports needed.

use rustc_hash::FxHashSet as HashSet;

use ruff_python_ast::visitor::{walk_except_handler, walk_expr, walk_stmt, Visitor};
use ruff_python_ast::{ExceptHandler, Expr, ExprContext, ModModule, Parameter, Stmt};

/// Whether some name `module` reads is bound neither by the module itself nor by Python.
pub fn needs_star_imports(module: &ModModule) -> bool {
    let mut names = Names::default();
    names.visit_body(&module.body);
    names
        .read
        .iter()
        .any(|n| !names.bound.contains(n) && !is_python_builtin(n) && !is_dunder(n))
}

#[derive(Default)]
struct Names<'a> {
    read: HashSet<&'a str>,
    bound: HashSet<&'a str>,
}

impl<'a> Visitor<'a> for Names<'a> {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        match stmt {
            Stmt::FunctionDef(f) => {
                self.bound.insert(f.name.as_str());
            }
            Stmt::ClassDef(c) => {
                self.bound.insert(c.name.as_str());
            }
            Stmt::Import(i) => {
                for a in &i.names {
                    let name = a.asname.as_ref().unwrap_or(&a.name).as_str();
                    self.bound.insert(name.split('.').next().unwrap_or(name));
                }
            }
            Stmt::ImportFrom(i) => {
                for a in i.names.iter().filter(|a| a.name.as_str() != "*") {
                    self.bound
                        .insert(a.asname.as_ref().unwrap_or(&a.name).as_str());
                }
            }
            _ => {}
        }
        walk_stmt(self, stmt);
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        if let Expr::Name(n) = expr {
            match n.ctx {
                ExprContext::Load => self.read.insert(n.id.as_str()),
                _ => self.bound.insert(n.id.as_str()),
            };
        }
        walk_expr(self, expr);
    }

    fn visit_parameter(&mut self, parameter: &'a Parameter) {
        self.bound.insert(parameter.name.as_str());
        if let Some(a) = &parameter.annotation {
            self.visit_annotation(a);
        }
    }

    fn visit_except_handler(&mut self, handler: &'a ExceptHandler) {
        let ExceptHandler::ExceptHandler(h) = handler;
        if let Some(name) = &h.name {
            self.bound.insert(name.as_str());
        }
        walk_except_handler(self, handler);
    }
}

fn is_dunder(name: &str) -> bool {
    name.len() > 4 && name.starts_with("__") && name.ends_with("__")
}

/// The public names of CPython 3.11's `builtins`.
fn is_python_builtin(name: &str) -> bool {
    PYTHON_BUILTINS.binary_search(&name).is_ok()
}

const PYTHON_BUILTINS: &[&str] = &[
    "ArithmeticError",
    "AssertionError",
    "AttributeError",
    "BaseException",
    "BaseExceptionGroup",
    "BlockingIOError",
    "BrokenPipeError",
    "BufferError",
    "BytesWarning",
    "ChildProcessError",
    "ConnectionAbortedError",
    "ConnectionError",
    "ConnectionRefusedError",
    "ConnectionResetError",
    "DeprecationWarning",
    "EOFError",
    "Ellipsis",
    "EncodingWarning",
    "EnvironmentError",
    "Exception",
    "ExceptionGroup",
    "False",
    "FileExistsError",
    "FileNotFoundError",
    "FloatingPointError",
    "FutureWarning",
    "GeneratorExit",
    "IOError",
    "ImportError",
    "ImportWarning",
    "IndentationError",
    "IndexError",
    "InterruptedError",
    "IsADirectoryError",
    "KeyError",
    "KeyboardInterrupt",
    "LookupError",
    "MemoryError",
    "ModuleNotFoundError",
    "NameError",
    "None",
    "NotADirectoryError",
    "NotImplemented",
    "NotImplementedError",
    "OSError",
    "OverflowError",
    "PendingDeprecationWarning",
    "PermissionError",
    "ProcessLookupError",
    "RecursionError",
    "ReferenceError",
    "ResourceWarning",
    "RuntimeError",
    "RuntimeWarning",
    "StopAsyncIteration",
    "StopIteration",
    "SyntaxError",
    "SyntaxWarning",
    "SystemError",
    "SystemExit",
    "TabError",
    "TimeoutError",
    "True",
    "TypeError",
    "UnboundLocalError",
    "UnicodeDecodeError",
    "UnicodeEncodeError",
    "UnicodeError",
    "UnicodeTranslateError",
    "UnicodeWarning",
    "UserWarning",
    "ValueError",
    "Warning",
    "ZeroDivisionError",
    "abs",
    "aiter",
    "all",
    "anext",
    "any",
    "ascii",
    "bin",
    "bool",
    "breakpoint",
    "bytearray",
    "bytes",
    "callable",
    "chr",
    "classmethod",
    "compile",
    "complex",
    "copyright",
    "credits",
    "delattr",
    "dict",
    "dir",
    "divmod",
    "enumerate",
    "eval",
    "exec",
    "exit",
    "filter",
    "float",
    "format",
    "frozenset",
    "getattr",
    "globals",
    "hasattr",
    "hash",
    "help",
    "hex",
    "id",
    "input",
    "int",
    "isinstance",
    "issubclass",
    "iter",
    "len",
    "license",
    "list",
    "locals",
    "map",
    "max",
    "memoryview",
    "min",
    "next",
    "object",
    "oct",
    "open",
    "ord",
    "pow",
    "print",
    "property",
    "quit",
    "range",
    "repr",
    "reversed",
    "round",
    "set",
    "setattr",
    "slice",
    "sorted",
    "staticmethod",
    "str",
    "sum",
    "super",
    "tuple",
    "type",
    "vars",
    "zip",
];

#[cfg(test)]
mod tests {
    use super::*;

    fn needs(code: &str) -> bool {
        let parsed = ruff_python_parser::parse_module(code).expect("parses");
        needs_star_imports(parsed.syntax())
    }

    #[test]
    fn star_imports_are_needed_only_for_names_nothing_else_binds() {
        // A package that re-exports only.
        assert!(!needs(
            "from .resnet import *\nfrom .vgg import *\nfrom ._api import get_model\n"
        ));
        // Names read are bound in the file, by Python, or are dunders.
        assert!(!needs(
            r#"
from .a import *
import torch.nn as nn

def f(x, *a, k=1):
    y = len(x)
    try:
        pass
    except ValueError as e:
        print(e, __name__)
    return [z for z in y] + nn.Linear(k)
"#
        ));
        // A name only the star import can bind.
        assert!(needs("from .layers import *\nblock = Block(3)\n"));
        assert!(needs(
            "from .layers import *\ndef f():\n    return helper()\n"
        ));
    }

    #[test]
    fn the_builtins_list_is_sorted() {
        assert!(PYTHON_BUILTINS.windows(2).all(|w| w[0] < w[1]));
    }
}
