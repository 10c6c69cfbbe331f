//! TEOSC-compatible counting: the algorithm of the TEOSC study (Cruces 2025), reproduced
//! exactly, quirks included, so that our numbers can be compared with the published table.
//!
//! * The op list: every non-empty line not starting with `#` is a key; a line `nn.X` also adds
//!   the key `X`. Keys keep their case and the order of first appearance (ties in the
//!   summary keep that order).
//! * Every call node counts, in every scope, with no resolution at all:
//!   - `a.b(...)`: if `a` is the bare name `nn`, key `nn.b` (+1 if present); then, in any case,
//!     key `b.lower()` (+1 if present). So `nn.ReLU()` counts `nn.ReLU` and `relu`, while
//!     `nn.Linear()` counts only `nn.Linear`, and `"a,b".split(",")` counts `split`;
//!   - `f(...)`: key `f.lower()` (+1 if present), so builtins such as `range` and `max` count;
//!   - any other callee shape (`fns[0](x)`, `f()(x)`) is ignored.
//! * Notebook code cells are glued with no separator (see `corpus::notebook`); files that do not
//!   parse contribute nothing (they keep their `parse_error` row in `files`).

use std::collections::HashMap;
use std::path::Path;

use ruff_python_ast::visitor::{walk_expr, Visitor};
use ruff_python_ast::{Expr, ModModule};
use ruff_text_size::{Ranged, TextSize};

use super::{CallKind, CallSite, FileOperators, Resolution};
use crate::frontend::LineIndex;

/// The operator list of a TEOSC run, keys in insertion order.
#[derive(Clone, Debug, Default)]
pub struct TeoscOpList {
    keys: Vec<String>,
    index: HashMap<String, usize>,
}

impl TeoscOpList {
    pub fn parse(text: &str) -> TeoscOpList {
        let mut list = TeoscOpList::default();
        for line in text.lines() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            list.add(line);
            if let Some(short) = line.strip_prefix("nn.") {
                list.add(short);
            }
        }
        list
    }

    pub fn load(path: &Path) -> std::io::Result<TeoscOpList> {
        Ok(TeoscOpList::parse(&std::fs::read_to_string(path)?))
    }

    fn add(&mut self, key: &str) {
        if !self.index.contains_key(key) {
            self.index.insert(key.to_string(), self.keys.len());
            self.keys.push(key.to_string());
        }
    }

    pub fn contains(&self, key: &str) -> bool {
        self.index.contains_key(key)
    }

    /// Position of a key in the list: TEOSC's tie order.
    pub fn position(&self, key: &str) -> Option<usize> {
        self.index.get(key).copied()
    }

    pub fn keys(&self) -> &[String] {
        &self.keys
    }
}

/// Counts the calls of a parsed module the TEOSC way.
pub fn find_calls(module: &ModModule, text: &str, list: &TeoscOpList) -> FileOperators {
    let mut counter = Counter {
        list,
        text,
        lines: LineIndex::new(text),
        calls: Vec::new(),
    };
    for stmt in &module.body {
        counter.visit_stmt(stmt);
    }
    let mut calls = counter.calls;
    calls.sort();
    FileOperators {
        calls,
        relative_imports: Vec::new(),
    }
}

struct Counter<'l, 't> {
    list: &'l TeoscOpList,
    text: &'t str,
    lines: LineIndex,
    calls: Vec<CallSite>,
}

impl Counter<'_, '_> {
    fn hit(&mut self, key: &str, at: TextSize) {
        if self.list.contains(key) {
            let (line, column) = self.lines.line_col(self.text, at);
            self.calls.push(CallSite {
                line,
                column,
                operator: key.to_string(),
                call_kind: CallKind::Call,
                resolution: Resolution::TeoscName,
                enclosing_class: None,
                enclosing_function: None,
            });
        }
    }
}

impl<'a> Visitor<'a> for Counter<'_, '_> {
    fn visit_expr(&mut self, expr: &'a Expr) {
        stacker::maybe_grow(64 * 1024, 4 * 1024 * 1024, || {
            if let Expr::Call(call) = expr {
                match &*call.func {
                    Expr::Attribute(a) => {
                        let attr = a.attr.id.as_str();
                        if matches!(&*a.value, Expr::Name(n) if n.id.as_str() == "nn") {
                            self.hit(&format!("nn.{attr}"), call.start());
                        }
                        self.hit(&attr.to_lowercase(), call.start());
                    }
                    Expr::Name(n) => self.hit(&n.id.as_str().to_lowercase(), call.start()),
                    _ => {}
                }
            }
            walk_expr(self, expr);
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_parsing_adds_short_keys_in_order() {
        let list = TeoscOpList::parse("## Section\nzeros\nnn.ReLU\n\nnn.Linear\nzeros\n");
        assert_eq!(
            list.keys(),
            ["zeros", "nn.ReLU", "ReLU", "nn.Linear", "Linear"]
        );
        assert_eq!(list.position("nn.Linear"), Some(3));
    }
}
