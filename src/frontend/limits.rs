//! What CPython refuses and Ruff's parser accepts, checked in one flat pass before parsing:
//! brackets nested more than 200 deep (the tokenizer's `too many nested parentheses`), more
//! than 99 indentation levels, indentation whose tabs and spaces disagree (`TabError`, compared
//! as CPython does: tabs to multiples of 8 and to 1), a second byte-order mark, and
//! expressions nested deeper than CPython 3.11's compiler goes (a `RecursionError` from
//! about 2,990 levels: a chain of unary operators, attribute accesses, calls or binary
//! operators). Checking before parsing is also what bounds the parser's and the analysis's
//! recursion: a 2 MB chain of 1,000,000 minus signs is refused in milliseconds instead of
//! taking gigabytes of stack.
//!
//! The scanner knows strings, comments, numbers, names and operators, nothing more; the
//! expression depth is estimated by operator precedence, exact for chains and never far
//! above the syntax tree's depth, so no file CPython compiles is refused.

use super::{LineIndex, SyntaxFailure};

/// CPython's tokenizer: `MAXLEVEL`.
pub const MAX_BRACKET_LEVEL: usize = 200;
/// CPython's tokenizer: `MAXINDENT` (the stack includes column 0).
pub const MAX_INDENT: usize = 100;
/// Expression nesting refused; CPython 3.11 compiles chains up to 2,992 deep.
pub const MAX_EXPRESSION_DEPTH: u32 = 3000;

/// Checks `text` against CPython's limits; the failure is positioned like a syntax error.
pub fn check_limits(text: &str) -> Result<(), SyntaxFailure> {
    let fail = |offset: usize, message: String| {
        let index = LineIndex::new(text);
        let (line, column) = index.line_col(text, ruff_text_size::TextSize::new(offset as u32));
        Err(SyntaxFailure {
            line,
            column,
            message,
        })
    };
    if text.starts_with('\u{feff}') {
        return fail(0, "invalid non-printable character U+FEFF".into());
    }
    let mut scan = Scanner::new(text.as_bytes());
    match scan.run() {
        Ok(()) => Ok(()),
        Err((offset, message)) => fail(offset, message),
    }
}

/// Precedence levels (Python's grammar, loosest first).
mod prec {
    pub const LAMBDA: u8 = 0;
    pub const TERNARY: u8 = 1;
    pub const OR: u8 = 2;
    pub const AND: u8 = 3;
    pub const NOT: u8 = 4;
    pub const COMPARE: u8 = 5;
    pub const BIT_OR: u8 = 6;
    pub const BIT_XOR: u8 = 7;
    pub const BIT_AND: u8 = 8;
    pub const SHIFT: u8 = 9;
    pub const SUM: u8 = 10;
    pub const TERM: u8 = 11;
    pub const UNARY: u8 = 12;
    pub const POWER: u8 = 13;
    pub const AWAIT: u8 = 14;
}

#[derive(Clone, Copy, Debug)]
enum Op {
    Prefix(u8),
    /// Precedence, right-associative, n-ary (`a < b < c` and `a and b and c` are one node).
    Binary(u8, bool, bool),
    /// `else` of a conditional expression: no node of its own (`if` makes the node).
    Else,
}

impl Op {
    fn prec(self) -> u8 {
        match self {
            Op::Prefix(p) | Op::Binary(p, _, _) => p,
            Op::Else => prec::TERNARY,
        }
    }
}

/// A syntax-tree depth, and the n-ary operator whose node it is (if any).
#[derive(Clone, Copy, Debug, Default)]
struct Operand {
    depth: u32,
    nary: Option<u8>,
}

/// One bracket (or the statement): an operator-precedence evaluation of depths.
#[derive(Debug, Default)]
struct Frame {
    /// A call or subscript of the operand before it.
    trailer: bool,
    operands: Vec<Operand>,
    ops: Vec<Op>,
    expect_operand: bool,
    deepest_element: u32,
    /// Inside a comprehension (after `for`): `if` filters, `in` separates.
    comprehension: bool,
    /// Just after `for`: the next `in` separates the target from the iterable.
    comprehension_in_pending: bool,
    lambda_header: bool,
}

impl Frame {
    fn new(trailer: bool) -> Frame {
        Frame {
            trailer,
            expect_operand: true,
            ..Frame::default()
        }
    }

    fn push(&mut self, o: Operand) -> u32 {
        self.operands.push(o);
        self.expect_operand = false;
        o.depth
    }

    fn reduce_top(&mut self) -> u32 {
        let Some(op) = self.ops.pop() else { return 0 };
        let right = self.operands.pop().unwrap_or_default();
        let result = match op {
            Op::Prefix(_) => Operand {
                depth: right.depth + 1,
                nary: None,
            },
            Op::Else => {
                let left = self.operands.pop().unwrap_or_default();
                Operand {
                    depth: left.depth.max(right.depth),
                    nary: None,
                }
            }
            Op::Binary(p, _, nary) => {
                let left = self.operands.pop().unwrap_or_default();
                if nary && left.nary == Some(p) {
                    Operand {
                        depth: left.depth.max(right.depth + 1),
                        nary: Some(p),
                    }
                } else {
                    Operand {
                        depth: left.depth.max(right.depth) + 1,
                        nary: nary.then_some(p),
                    }
                }
            }
        };
        self.operands.push(result);
        result.depth
    }

    /// Prefix operators waiting for their operand: a depth already reached.
    fn prefixes(&self) -> u32 {
        self.ops
            .iter()
            .filter(|o| matches!(o, Op::Prefix(_)))
            .count() as u32
    }

    /// Pushes a binary operator after reducing what binds at least as tightly.
    fn binary(&mut self, op: Op) -> u32 {
        let (p, right_assoc) = match op {
            Op::Binary(p, r, _) => (p, r),
            _ => (op.prec(), true),
        };
        let mut deepest = 0;
        while let Some(top) = self.ops.last() {
            let tp = top.prec();
            if tp > p || (tp == p && !right_assoc) {
                deepest = deepest.max(self.reduce_top());
            } else {
                break;
            }
        }
        self.ops.push(op);
        self.expect_operand = true;
        deepest
    }

    /// Ends an element (at a comma, a colon, a keyword that separates): its depth is kept.
    fn separate(&mut self) -> u32 {
        while !self.ops.is_empty() {
            self.reduce_top();
        }
        let element = self.operands.iter().map(|o| o.depth).max().unwrap_or(0);
        self.deepest_element = self.deepest_element.max(element);
        self.operands.clear();
        self.expect_operand = true;
        self.comprehension_in_pending = false;
        element
    }
}

struct Scanner<'a> {
    b: &'a [u8],
    i: usize,
    frames: Vec<Frame>,
    indents: Vec<(u32, u32)>,
    deepest: u32,
}

type Refusal = (usize, String);

impl<'a> Scanner<'a> {
    fn new(b: &'a [u8]) -> Scanner<'a> {
        Scanner {
            b,
            i: 0,
            frames: vec![Frame::new(false)],
            indents: vec![(0, 0)],
            deepest: 0,
        }
    }

    fn frame(&mut self) -> &mut Frame {
        let last = self.frames.len() - 1;
        &mut self.frames[last]
    }

    fn note(&mut self, depth: u32, at: usize) -> Result<(), Refusal> {
        self.deepest = self.deepest.max(depth);
        if self.deepest > MAX_EXPRESSION_DEPTH {
            return Err((
                at,
                format!(
                    "expression nested more than {MAX_EXPRESSION_DEPTH} levels deep: CPython's \
                     compiler refuses it (RecursionError)"
                ),
            ));
        }
        Ok(())
    }

    fn peek(&self, k: usize) -> u8 {
        self.b.get(self.i + k).copied().unwrap_or(0)
    }

    fn run(&mut self) -> Result<(), Refusal> {
        let mut line_start = true;
        while self.i < self.b.len() {
            if line_start {
                line_start = false;
                self.indentation()?;
                continue;
            }
            let c = self.b[self.i];
            match c {
                b'\n' | b'\r' => {
                    self.i += 1;
                    if c == b'\r' && self.peek(0) == b'\n' {
                        self.i += 1;
                    }
                    if self.frames.len() == 1 {
                        let d = self.frame().separate();
                        self.note(d, self.i)?;
                        line_start = true;
                    }
                }
                b' ' | b'\t' | b'\x0c' => self.i += 1,
                b'\\' => {
                    // A line continuation (or a stray backslash the parser reports).
                    self.i += 1;
                    if self.peek(0) == b'\r' {
                        self.i += 1;
                    }
                    if self.peek(0) == b'\n' {
                        self.i += 1;
                    }
                }
                b'#' => {
                    while self.i < self.b.len() && !matches!(self.b[self.i], b'\n' | b'\r') {
                        self.i += 1;
                    }
                }
                b'\'' | b'"' => {
                    self.string();
                    self.operand()?;
                }
                b'0'..=b'9' => {
                    self.number();
                    self.operand()?;
                }
                b'.' if self.peek(1).is_ascii_digit() => {
                    self.number();
                    self.operand()?;
                }
                b'(' | b'[' | b'{' => {
                    let at = self.i;
                    self.i += 1;
                    if self.frames.len() > MAX_BRACKET_LEVEL {
                        return Err((at, "too many nested parentheses".into()));
                    }
                    let trailer = !self.frame().expect_operand;
                    self.frames.push(Frame::new(trailer));
                }
                b')' | b']' | b'}' => {
                    self.i += 1;
                    self.close()?;
                }
                _ if c == b'_' || c.is_ascii_alphabetic() || c >= 0x80 => self.word()?,
                _ => self.operator()?,
            }
        }
        let d = self.frames[0].separate();
        self.note(d, self.b.len())
    }

    /// At the start of a logical line: CPython's indentation rules, on lines with code.
    fn indentation(&mut self) -> Result<(), Refusal> {
        let (mut col, mut alt) = (0u32, 0u32);
        while self.i < self.b.len() {
            match self.b[self.i] {
                b' ' => (col, alt) = (col + 1, alt + 1),
                b'\t' => (col, alt) = ((col / 8 + 1) * 8, alt + 1),
                b'\x0c' => (col, alt) = (0, 0),
                _ => break,
            }
            self.i += 1;
        }
        if matches!(self.peek(0), b'\n' | b'\r' | b'#' | b'\\' | 0) {
            return Ok(()); // a blank or comment line (or a continuation the parser judges)
        }
        let at = self.i;
        let tab_error = || {
            Err((
                at,
                "inconsistent use of tabs and spaces in indentation".into(),
            ))
        };
        let (top_col, top_alt) = *self.indents.last().unwrap_or(&(0, 0));
        if col == top_col {
            if alt != top_alt {
                return tab_error();
            }
        } else if col > top_col {
            if alt <= top_alt {
                return tab_error();
            }
            if self.indents.len() >= MAX_INDENT {
                return Err((at, "too many levels of indentation".into()));
            }
            self.indents.push((col, alt));
        } else {
            while self.indents.len() > 1 && self.indents.last().is_some_and(|t| col < t.0) {
                self.indents.pop();
            }
            let (c, a) = *self.indents.last().unwrap_or(&(0, 0));
            if col != c {
                return Ok(()); // "unindent does not match": the parser says so
            }
            if alt != a {
                return tab_error();
            }
        }
        Ok(())
    }

    fn operand(&mut self) -> Result<(), Refusal> {
        let at = self.i;
        let f = self.frame();
        if !f.expect_operand {
            return Ok(()); // adjacent string literals are one
        }
        let d = f.push(Operand {
            depth: 1,
            nary: None,
        });
        self.note(d, at)
    }

    fn close(&mut self) -> Result<(), Refusal> {
        if self.frames.len() == 1 {
            return Ok(()); // unmatched: the parser reports it
        }
        let at = self.i;
        let mut frame = self.frames.pop().unwrap_or_default();
        frame.separate();
        let inner = frame.deepest_element + 1;
        let parent = self.frame();
        let d = if frame.trailer {
            let callee = parent.operands.pop().unwrap_or_default();
            parent.push(Operand {
                depth: callee.depth.max(inner) + 1,
                nary: None,
            })
        } else {
            parent.push(Operand {
                depth: inner,
                nary: None,
            })
        };
        self.note(d, at)
    }

    fn string(&mut self) {
        let q = self.b[self.i];
        let triple = self.peek(1) == q && self.peek(2) == q;
        self.i += if triple { 3 } else { 1 };
        while self.i < self.b.len() {
            let c = self.b[self.i];
            if c == b'\\' {
                self.i += 2;
                continue;
            }
            if !triple && matches!(c, b'\n' | b'\r') {
                return; // unterminated: the parser reports it
            }
            if c == q && (!triple || (self.peek(1) == q && self.peek(2) == q)) {
                self.i += if triple { 3 } else { 1 };
                return;
            }
            self.i += 1;
        }
    }

    fn number(&mut self) {
        while self.i < self.b.len() {
            let c = self.b[self.i];
            if c.is_ascii_alphanumeric() || c == b'_' || c == b'.' {
                let exponent = matches!(c, b'e' | b'E') && matches!(self.peek(1), b'+' | b'-');
                self.i += if exponent { 2 } else { 1 };
            } else {
                break;
            }
        }
    }

    fn word(&mut self) -> Result<(), Refusal> {
        let start = self.i;
        while self.i < self.b.len() {
            let c = self.b[self.i];
            if c == b'_' || c.is_ascii_alphanumeric() || c >= 0x80 {
                self.i += 1;
            } else {
                break;
            }
        }
        let word = &self.b[start..self.i];
        if matches!(self.peek(0), b'\'' | b'"')
            && word.len() <= 2
            && word
                .iter()
                .all(|c| matches!(c.to_ascii_lowercase(), b'r' | b'b' | b'u' | b'f' | b't'))
        {
            self.string();
            return self.operand();
        }
        let nested = self.frames.len() > 1;
        let f = self.frame();
        if f.lambda_header {
            return Ok(());
        }
        let d = match word {
            b"and" => f.binary(Op::Binary(prec::AND, false, true)),
            b"or" => f.binary(Op::Binary(prec::OR, false, true)),
            b"not" if f.expect_operand => {
                f.ops.push(Op::Prefix(prec::NOT));
                f.prefixes()
            }
            // `not in`: the `in` that follows is the operator.
            b"not" => 0,
            b"is" => f.binary(Op::Binary(prec::COMPARE, false, true)),
            b"in" if f.comprehension_in_pending => {
                f.comprehension_in_pending = false;
                f.separate()
            }
            b"in" if f.expect_operand => 0, // the `in` of `not in` after `is`-less `not`
            b"in" => f.binary(Op::Binary(prec::COMPARE, false, true)),
            b"if" if !f.expect_operand && !f.comprehension => {
                f.binary(Op::Binary(prec::TERNARY, true, false))
            }
            b"else" if !f.expect_operand => f.binary(Op::Else),
            b"await" => {
                f.ops.push(Op::Prefix(prec::AWAIT));
                f.prefixes()
            }
            b"lambda" => {
                f.lambda_header = true;
                0
            }
            b"for" => {
                let d = f.separate();
                f.comprehension = nested;
                f.comprehension_in_pending = true;
                d
            }
            b"True" | b"False" | b"None" => {
                return self.operand();
            }
            b"if" | b"else" | b"elif" | b"while" | b"def" | b"class" | b"return" | b"import"
            | b"from" | b"as" | b"with" | b"assert" | b"del" | b"global" | b"nonlocal"
            | b"pass" | b"break" | b"continue" | b"raise" | b"try" | b"except" | b"finally"
            | b"yield" | b"async" => f.separate(),
            _ if f.expect_operand => {
                return self.operand();
            }
            // An attribute after `.`, or a soft keyword (`match`, `case`, `type`).
            _ => 0,
        };
        self.note(d, start)
    }

    fn operator(&mut self) -> Result<(), Refusal> {
        let at = self.i;
        let three = &self.b[self.i..(self.i + 3).min(self.b.len())];
        let two = &self.b[self.i..(self.i + 2).min(self.b.len())];
        let (len, token): (usize, &[u8]) =
            if matches!(three, b"**=" | b"//=" | b">>=" | b"<<=" | b"...") {
                (3, three)
            } else if matches!(
                two,
                b"**"
                    | b"//"
                    | b"<<"
                    | b">>"
                    | b"<="
                    | b">="
                    | b"=="
                    | b"!="
                    | b"->"
                    | b":="
                    | b"+="
                    | b"-="
                    | b"*="
                    | b"/="
                    | b"%="
                    | b"&="
                    | b"|="
                    | b"^="
                    | b"@="
            ) {
                (2, two)
            } else {
                (1, &self.b[self.i..self.i + 1])
            };
        self.i += len;
        let f = self.frame();
        if f.lambda_header {
            if token == b":" {
                f.lambda_header = false;
                f.ops.push(Op::Prefix(prec::LAMBDA));
                f.expect_operand = true;
            }
            return Ok(());
        }
        let binary = |p: u8| Op::Binary(p, false, false);
        let d = match token {
            b"..." => return self.operand(),
            b"." => 0, // an attribute: the name after it is no operand
            b"+" | b"-" | b"~" | b"*" | b"**" if f.expect_operand => {
                f.ops.push(Op::Prefix(prec::UNARY));
                f.prefixes()
            }
            b"**" => f.binary(Op::Binary(prec::POWER, true, false)),
            b"*" | b"/" | b"//" | b"%" | b"@" => f.binary(binary(prec::TERM)),
            b"+" | b"-" => f.binary(binary(prec::SUM)),
            b"<<" | b">>" => f.binary(binary(prec::SHIFT)),
            b"&" => f.binary(binary(prec::BIT_AND)),
            b"^" => f.binary(binary(prec::BIT_XOR)),
            b"|" => f.binary(binary(prec::BIT_OR)),
            b"<" | b">" | b"<=" | b">=" | b"==" | b"!=" => {
                f.binary(Op::Binary(prec::COMPARE, false, true))
            }
            // Separators: an element or a statement ends.
            _ => f.separate(),
        };
        if token == b"." {
            // `x.T.T.T`: each attribute is a node over the operand before it.
            if let Some(top) = f.operands.last_mut() {
                top.depth += 1;
                top.nary = None;
                let d = top.depth;
                return self.note(d, at);
            }
        }
        self.note(d, at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(src: &str) -> Option<String> {
        check_limits(src).err().map(|e| e.message)
    }

    /// Each case was compiled by CPython 3.11: the limits sit where it refuses.
    #[test]
    fn brackets_deeper_than_cpython_allows_are_refused() {
        let nest = |n: usize, open: &str, close: &str| {
            format!("x = {}1{}\n", open.repeat(n), close.repeat(n))
        };
        assert_eq!(refused(&nest(200, "(", ")")), None);
        assert_eq!(
            refused(&nest(201, "(", ")")).as_deref(),
            Some("too many nested parentheses")
        );
        assert!(refused(&nest(201, "[", "]")).is_some());
        assert!(refused(&nest(500_000, "[", "]")).is_some());
        // Brackets inside strings and comments do not count.
        let quoted = format!("x = '{}'  # {}\n", "(".repeat(300), "[".repeat(300));
        assert_eq!(refused(&quoted), None);
    }

    #[test]
    fn chains_deeper_than_cpython_compiles_are_refused() {
        // CPython 3.11 compiles each chain up to 2,992 long and refuses 2,993 and more.
        type Chain = fn(usize) -> String;
        let chains: [(&str, Chain); 7] = [
            ("unary", |n| format!("x = {}1\n", "-".repeat(n))),
            ("plus", |n| format!("x = {}y\n", "y + ".repeat(n))),
            ("attr", |n| format!("x = y{}\n", ".T".repeat(n))),
            ("call", |n| format!("x = y{}\n", "()".repeat(n))),
            ("ternary", |n| {
                format!("x = {}y\n", "y if y else ".repeat(n))
            }),
            ("not", |n| format!("x = {}y\n", "not ".repeat(n))),
            ("mul-add", |n| format!("x = {}y\n", "y*y + ".repeat(n))),
        ];
        for (name, chain) in chains {
            assert_eq!(refused(&chain(2_992)), None, "{name}");
            assert!(refused(&chain(3_100)).is_some(), "{name}");
        }
        assert!(refused(&format!("y = {}x\n", "-".repeat(1_000_000))).is_some());
    }

    #[test]
    fn wide_code_is_not_deep() {
        // Flat but long: a list of 100,000 items, 100,000 statements, n-ary operators.
        let items: Vec<String> = (0..100_000).map(|i| format!("a.b{i}")).collect();
        assert_eq!(refused(&format!("x = [{}]\n", items.join(", "))), None);
        let statements: String = (0..100_000).map(|i| format!("v{i} = v + {i}\n")).collect();
        assert_eq!(refused(&statements), None);
        let compare = format!("x = {}y\n", "y < ".repeat(10_000));
        assert_eq!(refused(&compare), None);
        let and = format!("x = {}y\n", "y and ".repeat(10_000));
        assert_eq!(refused(&and), None);
        let strings = format!("x = ({})\n", "'a' ".repeat(10_000));
        assert_eq!(refused(&strings), None);
    }

    #[test]
    fn tabs_and_spaces_are_compared_as_cpython_does() {
        // Each verdict is CPython 3.11's (TabError or compiled).
        let cases = [
            ("if x:\n\tpass\n        pass\n", false),
            ("if x:\n        a\n\tb\n", false),
            ("if x:\n    \ta\n\tb\n", false),
            ("if x:\n\ta\n\tb\n", true),
            ("if x:\n\tif y:\n\t\ta\n\tb\n", true),
            ("if x:\n    a\n\x0c    b\n", true),
            ("x = (1,\n\t  2)\n", true),
            ("s = '''\n\tx\n        y'''\n", true),
        ];
        for (src, compiles) in cases {
            assert_eq!(refused(src).is_none(), compiles, "{src:?}");
        }
        let deep: String = (0..120)
            .map(|i| format!("{}if x:\n", " ".repeat(i)))
            .collect();
        let deep = format!("{deep}{}pass\n", " ".repeat(120));
        assert_eq!(
            refused(&deep).as_deref(),
            Some("too many levels of indentation")
        );
    }

    #[test]
    fn a_second_byte_order_mark_is_refused() {
        // The decoder strips one (a UTF-8 file may start with it); CPython refuses another.
        assert!(refused("\u{feff}x = 1\n").is_some());
        assert_eq!(refused("x = '\u{feff}'\n"), None);
    }
}
