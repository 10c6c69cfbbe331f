//! Python strings whose text is known: f-strings, `%` formatting and concatenation over known
//! values, so that layers registered under computed names (`add_module("block%d" % i, m)`,
//! `f"layer{i}"`) keep their names and their order.

use ruff_python_ast::{ConversionFlag, ExprFString, FStringPart, InterpolatedStringElement};

use super::interp::Interp;
use super::value::V;
use crate::shapes::Value;

/// The characters of a known string, each a one-character string.
fn char_values<'a>(text: &str) -> Vec<V<'a>> {
    text.chars()
        .map(|c| V::Data(Value::Str(Some(c.to_string()))))
        .collect()
}

/// The characters a loop over a known string takes (`for c in word`), when the string is
/// short enough to unroll.
pub fn str_chars<'a>(text: &str) -> Option<Vec<V<'a>>> {
    (text.chars().count() <= super::interp::MAX_UNROLL).then(|| char_values(text))
}

/// The constants of Python's `string` module (`string.ascii_lowercase` as a vocabulary).
pub fn string_module_constant<'a>(name: &str) -> Option<V<'a>> {
    const LOWER: &str = "abcdefghijklmnopqrstuvwxyz";
    const UPPER: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    const DIGITS: &str = "0123456789";
    const PUNCTUATION: &str = r##"!"#$%&'()*+,-./:;<=>?@[\]^_`{|}~"##;
    const WHITESPACE: &str = " \t\n\r\x0b\x0c";
    let text = match name {
        "ascii_lowercase" => LOWER.to_string(),
        "ascii_uppercase" => UPPER.to_string(),
        "ascii_letters" => format!("{LOWER}{UPPER}"),
        "digits" => DIGITS.to_string(),
        "hexdigits" => "0123456789abcdefABCDEF".to_string(),
        "octdigits" => "01234567".to_string(),
        "punctuation" => PUNCTUATION.to_string(),
        "whitespace" => WHITESPACE.to_string(),
        "printable" => format!("{DIGITS}{LOWER}{UPPER}{PUNCTUATION}{WHITESPACE}"),
        _ => return None,
    };
    Some(V::Data(Value::Str(Some(text))))
}

/// `text[i]` and `text[a:b:c]` of a known string (`attn_stage[0] == '0'` in model configs
/// written as strings of flags); anything else is unknown.
pub fn str_subscript<'a>(text: &str, idx: &V<'a>) -> V<'a> {
    let chars = char_values(text);
    let known = |parts: &[V<'a>]| -> Option<String> {
        parts
            .iter()
            .map(|p| p.known_str())
            .collect::<Option<String>>()
    };
    let part = match idx {
        V::Data(Value::Int(i)) => i.as_const().and_then(|i| super::expr::item_at(&chars, i)),
        V::Data(Value::Slice(a, b, c)) => super::expr::slice_items(&chars, a, b, c)
            .and_then(|parts| known(&parts))
            .map(|s| V::Data(Value::Str(Some(s)))),
        _ => None,
    };
    part.unwrap_or(V::Unknown)
}

/// The text `str(v)` gives for a value whose text is known: strings, integer constants,
/// bools and None. Floats are left out (Python's shortest round-trip repr is not ours).
pub fn known_text(v: &V) -> Option<String> {
    match v {
        V::Data(Value::Str(Some(s))) => Some(s.clone()),
        V::Data(Value::Int(e)) => e.as_const().map(|c| c.to_string()),
        V::Data(Value::Bool(Some(b))) => Some(if *b { "True" } else { "False" }.to_string()),
        V::Data(Value::None) => Some("None".to_string()),
        _ => None,
    }
}

/// `fmt % args` for the `%d`/`%i`/`%s`/`%%` conversions over known values; `None` for any
/// other conversion, a width or precision, or an unknown value.
pub fn percent_format(fmt: &str, args: &V) -> Option<String> {
    let args: Vec<V> = match args {
        V::Tuple(items) => items.clone(),
        other => vec![other.clone()],
    };
    let mut args = args.iter();
    let mut out = String::new();
    let mut chars = fmt.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        match chars.next()? {
            '%' => out.push('%'),
            'd' | 'i' => match args.next()? {
                V::Data(Value::Int(e)) => out.push_str(&e.as_const()?.to_string()),
                V::Data(Value::Bool(Some(b))) => out.push_str(if *b { "1" } else { "0" }),
                _ => return None,
            },
            's' => out.push_str(&known_text(args.next()?)?),
            _ => return None,
        }
    }
    // Python raises on leftover arguments; we only claim to know the text when all were used.
    args.next().is_none().then_some(out)
}

/// `fmt.format(*args)` for plain `{}`/`{0}` fields (or with an empty, `d` or `s` spec) of
/// known values, and `{{`/`}}`; `None` for named fields, other specs or unknown values.
pub fn brace_format(fmt: &str, args: &[V]) -> Option<String> {
    let mut out = String::new();
    let mut next = 0;
    let mut chars = fmt.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                out.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                out.push('}');
            }
            '{' => {
                let mut field = String::new();
                loop {
                    match chars.next()? {
                        '}' => break,
                        ch => field.push(ch),
                    }
                }
                let (name, spec) = field.split_once(':').unwrap_or((&field, ""));
                if !matches!(spec, "" | "d" | "s") {
                    return None;
                }
                let index = if name.is_empty() {
                    next += 1;
                    next - 1
                } else {
                    name.parse().ok()?
                };
                out.push_str(&known_text(args.get(index)?)?);
            }
            '}' => return None,
            other => out.push(other),
        }
    }
    Some(out)
}

impl<'a> Interp<'a> {
    /// An f-string: its text when every interpolation is a plain `{expr}` (or `{expr!s}`) of a
    /// value whose text is known. The interpolated expressions are evaluated either way.
    pub fn fstring(&mut self, f: &'a ExprFString) -> V<'a> {
        let mut pieces: Vec<Option<String>> = Vec::new();
        for part in f.value.iter() {
            match part {
                FStringPart::Literal(lit) => pieces.push(Some(lit.value.to_string())),
                FStringPart::FString(fs) => {
                    for element in fs.elements.iter() {
                        pieces.push(self.fstring_element(element));
                    }
                }
            }
        }
        V::Data(Value::Str(pieces.into_iter().collect()))
    }

    fn fstring_element(&mut self, element: &'a InterpolatedStringElement) -> Option<String> {
        match element {
            InterpolatedStringElement::Literal(lit) => Some(lit.value.to_string()),
            InterpolatedStringElement::Interpolation(i) => {
                let v = self.eval(&i.expression);
                let plain = i.debug_text.is_none()
                    && i.format_spec.is_none()
                    && matches!(i.conversion, ConversionFlag::None | ConversionFlag::Str);
                if plain {
                    known_text(&v)
                } else {
                    None
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(x: &str) -> V<'static> {
        V::Data(Value::Str(Some(x.to_string())))
    }

    #[test]
    fn known_strings_index_and_slice_by_character() {
        let idx = |i: i64| V::Data(Value::int(i));
        assert_eq!(str_subscript("011", &idx(0)).known_str(), Some("0"));
        assert_eq!(str_subscript("011", &idx(-1)).known_str(), Some("1"));
        assert!(str_subscript("011", &idx(3)).is_unknown());
        let slice = V::Data(Value::Slice(
            Box::new(Value::int(1)),
            Box::new(Value::None),
            Box::new(Value::None),
        ));
        assert_eq!(str_subscript("011", &slice).known_str(), Some("11"));
        assert!(s("x").known_str().is_some());
    }

    #[test]
    fn percent_format_of_known_values() {
        assert_eq!(
            percent_format("denseblock%d", &V::Data(Value::int(3))).as_deref(),
            Some("denseblock3")
        );
        let args = V::Tuple(vec![s("conv"), V::Data(Value::int(2))]);
        assert_eq!(
            percent_format("%s_%i (100%%)", &args).as_deref(),
            Some("conv_2 (100%)")
        );
        // Unknown values, other conversions and leftover arguments: the text is unknown.
        assert_eq!(percent_format("x%d", &V::Data(Value::IntUnknown)), None);
        assert_eq!(
            percent_format("%.2f", &V::Data(Value::Float(Some(1.0)))),
            None
        );
        assert_eq!(
            percent_format("%d", &V::Tuple(vec![V::Data(Value::int(1)), s("a")])),
            None
        );
        assert_eq!(percent_format("%d %d", &V::Data(Value::int(1))), None);
    }

    #[test]
    fn brace_format_fills_plain_fields() {
        let one = V::Data(Value::int(1));
        assert_eq!(
            brace_format("s{}", std::slice::from_ref(&one)),
            Some("s1".into())
        );
        assert_eq!(
            brace_format("{0}-{0}{{x}}", &[s("a")]),
            Some("a-a{x}".into())
        );
        assert_eq!(
            brace_format("{:d}", std::slice::from_ref(&one)),
            Some("1".into())
        );
        assert_eq!(brace_format("{:.2f}", std::slice::from_ref(&one)), None);
        assert_eq!(brace_format("{name}", &[one]), None);
        assert_eq!(brace_format("{}{}", &[s("a")]), None);
    }
}
