//! Jupyter notebooks: the code cells as one Python text, with a map from each line back to its
//! cell and line.
//!
//! Precise mode neutralises IPython syntax so that the rest of the cell still parses: line magics
//! (`%time f()`), shell escapes (`!pip install x`, `files = !ls`), help (`?x`, `x??`) become
//! `pass` at the same indentation; a cell whose first line is a non-Python cell magic (`%%bash`,
//! `%%html`, ...) is blanked entirely, other cell magics (`%%time`) keep their body.
//! TEOSC mode reproduces `''.join(cell sources)`: no separator, nothing stripped.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::source::NotebookMode;

/// For every line of the extracted code (index 0 = line 1): the notebook cell index (0-based,
/// counting all cells as Jupyter does) and the 1-based line within that cell.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineMap {
    pub lines: Vec<(u32, u32)>,
}

impl LineMap {
    /// Maps a 1-based line of the extracted code to (cell, line in cell).
    pub fn locate(&self, line: u32) -> Option<(u32, u32)> {
        self.lines.get(line.checked_sub(1)? as usize).copied()
    }

    /// Like [`LineMap::locate`], but a line past the end (an error at end of input) maps to
    /// the last line.
    pub fn locate_clamped(&self, line: u32) -> Option<(u32, u32)> {
        let last = self.lines.len() as u32;
        self.locate(line.min(last))
    }
}

pub struct ExtractedNotebook {
    pub code: String,
    pub line_map: LineMap,
}

/// Cell magics whose body is not Python.
const FOREIGN_CELL_MAGICS: &[&str] = &[
    "bash",
    "sh",
    "script",
    "html",
    "HTML",
    "javascript",
    "js",
    "latex",
    "markdown",
    "perl",
    "ruby",
    "svg",
    "writefile",
    "file",
    "sql",
    "python2",
    "pypy",
    "cmd",
    "powershell",
    "system",
];

pub fn extract(json: &str, mode: NotebookMode) -> Result<ExtractedNotebook, String> {
    let doc: Value =
        serde_json::from_str(json).map_err(|e| format!("notebook is not JSON: {e}"))?;
    let cells = notebook_cells(&doc).ok_or_else(|| {
        "notebook JSON has no `cells` list (nor nbformat 3 `worksheets`)".to_string()
    })?;
    let mut code = String::new();
    let mut map = Vec::new();
    for (index, cell) in cells.iter().enumerate() {
        let is_code = cell.get("cell_type").and_then(Value::as_str) == Some("code");
        if !is_code {
            continue;
        }
        let source = cell.get("source").or_else(|| cell.get("input"));
        let text = match source {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Array(parts)) => parts.iter().filter_map(Value::as_str).collect(),
            _ => String::new(),
        };
        match mode {
            NotebookMode::Teosc => append_glued(&mut code, &mut map, index as u32, &text),
            NotebookMode::Precise => {
                let cleaned = neutralise_ipython(&text);
                for (i, line) in cleaned.lines().enumerate() {
                    code.push_str(line);
                    code.push('\n');
                    map.push((index as u32, i as u32 + 1));
                }
            }
        }
    }
    Ok(ExtractedNotebook {
        code,
        line_map: LineMap { lines: map },
    })
}

fn notebook_cells(doc: &Value) -> Option<Vec<Value>> {
    if let Some(cells) = doc.get("cells").and_then(Value::as_array) {
        return Some(cells.clone());
    }
    let sheets = doc.get("worksheets")?.as_array()?;
    let mut all = Vec::new();
    for sheet in sheets {
        all.extend(sheet.get("cells")?.as_array()?.iter().cloned());
    }
    Some(all)
}

/// TEOSC gluing: a cell whose last line has no newline merges with the next cell's first line.
fn append_glued(code: &mut String, map: &mut Vec<(u32, u32)>, cell: u32, text: &str) {
    let mut cell_line = 1;
    let continues_line = !code.is_empty() && !code.ends_with('\n');
    if !continues_line && !text.is_empty() {
        map.push((cell, 1));
    }
    for ch in text.chars() {
        code.push(ch);
        if ch == '\n' {
            cell_line += 1;
            map.push((cell, cell_line));
        }
    }
    // The map has an entry for a line only once something is on it.
    if code.ends_with('\n') {
        map.pop();
    }
}

fn neutralise_ipython(cell: &str) -> String {
    let mut lines = cell.lines();
    let Some(first) = lines.clone().next() else {
        return String::new();
    };
    if let Some(magic) = first.trim_start().strip_prefix("%%") {
        let name = magic.split_whitespace().next().unwrap_or("");
        let blank_all = FOREIGN_CELL_MAGICS.contains(&name);
        let mut out = String::from("\n");
        lines.next();
        if blank_all {
            for _ in lines {
                out.push('\n');
            }
        } else {
            neutralise_lines(lines, &mut out);
        }
        return out;
    }
    let mut out = String::new();
    neutralise_lines(cell.lines(), &mut out);
    out
}

/// IPython recognises an escaped command (`%magic`, `!shell`, `obj?`) only where a logical
/// line starts: a line that continues a statement (inside brackets, a triple-quoted
/// string, or after a backslash, like `% (a, b)` continuing a string format) is Python.
fn neutralise_lines<'c>(lines: impl Iterator<Item = &'c str>, out: &mut String) {
    let mut open = Continuation::default();
    for line in lines {
        if open.continues() {
            open.feed(line);
            out.push_str(line);
        } else {
            let neutral = neutralise_line(line);
            // A neutralised command is not Python: its brackets and quotes open nothing.
            if neutral.trim_start() != "pass" || line.trim_start() == "pass" {
                open.feed(&neutral);
            }
            out.push_str(&neutral);
        }
        out.push('\n');
    }
}

/// Whether the next physical line continues the current logical line, from the lines fed
/// so far: open brackets, an unterminated triple-quoted string, a trailing backslash.
#[derive(Default)]
struct Continuation {
    depth: usize,
    /// The quote of a triple-quoted string still open.
    triple: Option<char>,
    backslash: bool,
}

impl Continuation {
    fn continues(&self) -> bool {
        self.depth > 0 || self.triple.is_some() || self.backslash
    }

    fn feed(&mut self, line: &str) {
        self.backslash = false;
        let chars: Vec<char> = line.chars().collect();
        // The quote of a single-quoted string open on this line.
        let mut single: Option<char> = None;
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            let tripled = |q: char| chars.get(i + 1) == Some(&q) && chars.get(i + 2) == Some(&q);
            match (self.triple, single) {
                (Some(_), _) | (_, Some(_)) if c == '\\' => {
                    i += 2;
                    continue;
                }
                (Some(q), _) => {
                    if c == q && tripled(q) {
                        self.triple = None;
                        i += 3;
                        continue;
                    }
                }
                (None, Some(q)) => {
                    if c == q {
                        single = None;
                    }
                }
                (None, None) => match c {
                    '#' => break,
                    '\'' | '"' if tripled(c) => {
                        self.triple = Some(c);
                        i += 3;
                        continue;
                    }
                    '\'' | '"' => single = Some(c),
                    '(' | '[' | '{' => self.depth += 1,
                    ')' | ']' | '}' => self.depth = self.depth.saturating_sub(1),
                    '\\' if i + 1 == chars.len() => self.backslash = true,
                    _ => {}
                },
            }
            i += 1;
        }
    }
}

/// Line magics that run a Python statement: `%time y = f(x)` keeps `y = f(x)`.
const STATEMENT_MAGICS: &[&str] = &["time", "timeit", "prun"];

fn neutralise_line(line: &str) -> String {
    let trimmed = line.trim_start();
    let indent = &line[..line.len() - trimmed.len()];
    if let Some(magic) = trimmed.strip_prefix('%') {
        if let Some((name, rest)) = magic.split_once(' ') {
            let rest = rest.trim_start();
            if STATEMENT_MAGICS.contains(&name) && !rest.is_empty() && !rest.starts_with('-') {
                return format!("{indent}{rest}");
            }
        }
    }
    let is_magic = trimmed.starts_with('%') || trimmed.starts_with('!') || trimmed.starts_with('?');
    let is_help = !trimmed.starts_with('#') && trimmed.ends_with('?') && !trimmed.contains('#');
    let is_shell_assign = shell_assignment(trimmed);
    if is_magic || is_help || is_shell_assign {
        format!("{indent}pass")
    } else {
        line.to_string()
    }
}

/// `files = !ls` and `out = %time f()`.
fn shell_assignment(line: &str) -> bool {
    let Some((lhs, rhs)) = line.split_once('=') else {
        return false;
    };
    let rhs = rhs.trim_start();
    let lhs = lhs.trim_end();
    !lhs.is_empty()
        && lhs
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == ',' || c == ' ')
        && (rhs.starts_with('!') && !rhs.starts_with("!=") || rhs.starts_with('%'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nb(cells: &str) -> String {
        format!(r#"{{"nbformat": 4, "nbformat_minor": 5, "metadata": {{}}, "cells": [{cells}]}}"#)
    }

    #[test]
    fn magics_are_neutralised_and_lines_map_back() {
        let json = nb(r##"
            {"cell_type": "markdown", "source": ["# Title\n"]},
            {"cell_type": "code", "source": ["%matplotlib inline\n", "import torch\n", "!pip install x\n", "x = torch.zeros(3)"]},
            {"cell_type": "code", "source": "%%time\nfor i in range(3):\n    %time y = x.view(3)\n    files = !ls\ntorch.cat?\n"},
            {"cell_type": "code", "source": ["%%bash\n", "echo hi\n"]}
        "##);
        let out = extract(&json, NotebookMode::Precise).unwrap();
        assert_eq!(
            out.code,
            "pass\nimport torch\npass\nx = torch.zeros(3)\n\nfor i in range(3):\n    y = x.view(3)\n    pass\npass\n\n\n"
        );
        assert_eq!(out.line_map.locate(2), Some((1, 2)));
        assert_eq!(out.line_map.locate(4), Some((1, 4)));
        assert_eq!(out.line_map.locate(6), Some((2, 2)));
        assert_eq!(out.line_map.locate(11), Some((3, 2)));
        assert_eq!(out.line_map.locate(12), None);
        let parsed = ruff_python_parser::parse_module(&out.code);
        assert!(parsed.is_ok(), "{:?}", parsed.err());
    }

    /// A line that continues a statement is Python, whatever it starts with: `% (...)`
    /// continuing a string format, `!= 0` inside brackets, `?` inside a triple-quoted string,
    /// a line after a backslash. A magic at the start of a logical line is still one.
    #[test]
    fn continuation_lines_are_not_magics() {
        let cell = [
            "print('%d of %d'",
            "      % (a, b))",
            "ok = (x",
            "!= 0)",
            "s = '''",
            "what?",
            "'''",
            "y = 1 + \\",
            "  % 2",
            "%matplotlib inline",
        ]
        .join("\n");
        let mut want: Vec<&str> = cell.lines().collect();
        want[9] = "pass";
        assert_eq!(neutralise_ipython(&cell), want.join("\n") + "\n");
    }

    #[test]
    fn teosc_mode_glues_cells_without_separator() {
        let json = nb(r#"
            {"cell_type": "code", "source": ["import torch\n", "a = torch.zeros(3)"]},
            {"cell_type": "markdown", "source": ["text"]},
            {"cell_type": "code", "source": ["b = a.unsqueeze(0)\n"]}
        "#);
        let out = extract(&json, NotebookMode::Teosc).unwrap();
        assert_eq!(
            out.code,
            "import torch\na = torch.zeros(3)b = a.unsqueeze(0)\n"
        );
        assert_eq!(out.line_map.lines, vec![(0, 1), (0, 2)]);
    }

    #[test]
    fn nbformat3_worksheets_are_read() {
        let json = r#"{"nbformat": 3, "worksheets": [{"cells": [{"cell_type": "code", "input": ["x = 1\n"]}]}]}"#;
        let out = extract(json, NotebookMode::Precise).unwrap();
        assert_eq!(out.code, "x = 1\n");
    }

    #[test]
    fn broken_json_is_an_error_with_position() {
        let err = extract("{\"cells\": [", NotebookMode::Precise)
            .err()
            .unwrap();
        assert!(err.starts_with("notebook is not JSON"), "{err}");
        assert!(err.contains("line 1"), "{err}");
        let err = extract("[1, 2]", NotebookMode::Precise).err().unwrap();
        assert!(err.contains("no `cells`"), "{err}");
    }
}
