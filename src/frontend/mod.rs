//! Front end: Python text to Ruff's AST, and byte offsets to line/column positions.
//!
//! We parse with `ruff_python_parser` (see ARCHITECTURE.md for why not rustpython-parser).
//! Version-specific "unsupported syntax" diagnostics are ignored: the corpus mixes Python
//! versions and we accept whatever the newest grammar accepts.

pub mod limits;

use ruff_python_ast::ModModule;
use ruff_text_size::TextSize;

/// A syntax error, positioned (1-based line and column, in characters).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxFailure {
    pub line: u32,
    pub column: u32,
    pub message: String,
}

/// Parses a module that CPython would compile ([`limits`]: what it refuses and Ruff's parser
/// accepts is a syntax failure here too, and nesting is bounded before parsing starts).
pub fn parse_python(text: &str) -> Result<ModModule, SyntaxFailure> {
    limits::check_limits(text)?;
    match ruff_python_parser::parse_module(text) {
        Ok(parsed) => Ok(parsed.into_syntax()),
        Err(err) => {
            let index = LineIndex::new(text);
            let (line, column) = index.line_col(text, err.location.start());
            Err(SyntaxFailure {
                line,
                column,
                message: err.error.to_string(),
            })
        }
    }
}

/// Start offsets of every line, for offset → (line, column) lookups.
#[derive(Clone, Debug)]
pub struct LineIndex {
    starts: Vec<u32>,
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let mut starts = vec![0u32];
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|(_, b)| *b == b'\n')
                .map(|(i, _)| i as u32 + 1),
        );
        LineIndex { starts }
    }

    /// 1-based line and 1-based column (counted in characters) of a byte offset.
    pub fn line_col(&self, text: &str, offset: TextSize) -> (u32, u32) {
        let offset = u32::from(offset).min(text.len() as u32);
        let line = self.starts.partition_point(|&s| s <= offset).max(1);
        let start = self.starts[line - 1] as usize;
        let end = (offset as usize).max(start);
        let column = match text.get(start..end) {
            Some(prefix) if prefix.is_ascii() => prefix.len(),
            Some(prefix) => prefix.chars().count(),
            None => end - start,
        };
        (line as u32, column as u32 + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn syntax_errors_are_positioned() {
        // Inside the open call, `y = 3` reads as a keyword argument: the error is at EOF.
        let err = parse_python("import torch\nx = torch.zeros(2,\ny = 3\n").unwrap_err();
        assert_eq!((err.line, err.column), (4, 1), "{err:?}");
        assert!(err.message.contains("EOF"), "{err:?}");
        let err = parse_python("x = [1, 2\nprint(x)\n").unwrap_err();
        assert_eq!((err.line, err.column), (2, 1), "{err:?}");
        let err = parse_python("print \"py2\"\n").unwrap_err();
        assert_eq!((err.line, err.column), (1, 7), "{err:?}");
    }

    #[test]
    fn python_312_fstrings_parse() {
        assert!(parse_python("x = f\"{\"a\"} {f'{1}'}\"\n").is_ok());
        assert!(parse_python("def f[T](x: T) -> T: return x\n").is_ok());
    }

    #[test]
    fn line_col_counts_characters() {
        let text = "é = 1\nab = 2\n";
        let index = LineIndex::new(text);
        assert_eq!(index.line_col(text, TextSize::from(0)), (1, 1));
        assert_eq!(index.line_col(text, TextSize::from(3)), (1, 3));
        assert_eq!(index.line_col(text, TextSize::from(7)), (2, 1));
        assert_eq!(index.line_col(text, TextSize::from(8)), (2, 2));
    }
}
