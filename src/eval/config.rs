//! Configuration objects that scripts build around a model: an `argparse` parser and the
//! namespace its `parse_args` returns, `types.SimpleNamespace` and `argparse.Namespace`.
//!
//! Each is an [`Object`] of a class of its own that has no source (parsed once from a stub):
//! its attributes are what is known, any other attribute is unknown. A script is analysed as
//! run with no command-line arguments, so `parse_args()` gives every option its default (as
//! argparse does: a string default goes through the option's `type`, `store_true` defaults to
//! `False`); an option the command line must give (`required=True`, a positional) is unknown.
//! `parse_args([...])` with a literal list parses that list.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::OnceLock;

use ruff_python_ast::{ModModule, Stmt, StmtClassDef};
use ruff_text_size::TextRange;

use crate::shapes::Value;

use super::interp::Interp;
use super::value::{Object, V};

/// The parser's options, in the order they were added (a hidden attribute: not an
/// identifier, so no option's `dest` can take it).
const OPTIONS: &str = "\0options";
/// Set when the parser has sub-commands or anything else whose outcome is not modelled.
const OPAQUE: &str = "\0opaque";

/// Methods of a parser (and of its argument groups, which are the parser itself here).
pub const PARSER_METHODS: &[&str] = &[
    "add_argument",
    "add_argument_group",
    "add_mutually_exclusive_group",
    "set_defaults",
    "add_subparsers",
    "parse_args",
    "parse_known_args",
];

fn stubs() -> &'static ModModule {
    static STUBS: OnceLock<ModModule> = OnceLock::new();
    STUBS.get_or_init(|| {
        crate::frontend::parse_python(
            "class Namespace:\n    pass\nclass ArgumentParser:\n    pass\n",
        )
        .expect("the stub classes parse")
    })
}

fn stub(i: usize) -> &'static StmtClassDef {
    match &stubs().body[i] {
        Stmt::ClassDef(c) => c,
        _ => unreachable!("the stubs are two classes"),
    }
}

/// The class of `SimpleNamespace`, `argparse.Namespace` and parsed arguments.
pub fn namespace_class() -> &'static StmtClassDef {
    stub(0)
}

/// The class of `argparse.ArgumentParser` objects.
pub fn parser_class() -> &'static StmtClassDef {
    stub(1)
}

pub fn is_parser(class: &StmtClassDef) -> bool {
    std::ptr::eq(class, parser_class())
}

/// One option added to a parser.
struct ParserOption<'a> {
    dest: String,
    flags: Vec<String>,
    kind: V<'a>,
    action: String,
    nargs: Option<V<'a>>,
    default: V<'a>,
    /// `choices=[...]` when every choice is known.
    choices: Vec<V<'a>>,
}

impl<'a> ParserOption<'a> {
    /// `-h`/`--version`: an option that gives no attribute.
    fn ignored(flags: Vec<String>) -> Self {
        ParserOption {
            dest: String::new(),
            flags,
            kind: V::none(),
            action: "ignored".into(),
            nargs: None,
            default: V::none(),
            choices: Vec::new(),
        }
    }

    fn to_value(&self) -> V<'a> {
        let text = |s: &str| V::Data(Value::Str(Some(s.to_string())));
        V::Tuple(vec![
            text(&self.dest),
            V::list(self.flags.iter().map(|f| text(f)).collect()),
            self.kind.clone(),
            text(&self.action),
            self.nargs.clone().unwrap_or(V::Unknown),
            self.default.clone(),
            V::list(self.choices.clone()),
        ])
    }

    fn from_value(v: &V<'a>) -> Option<Self> {
        let V::Tuple(items) = v else { return None };
        let [dest, flags, kind, action, nargs, default, choices] = items.as_slice() else {
            return None;
        };
        let V::List(flags) = flags else { return None };
        let V::List(choices) = choices else {
            return None;
        };
        Some(ParserOption {
            dest: text_of(dest)?,
            flags: flags.iter().filter_map(text_of).collect(),
            kind: kind.clone(),
            action: text_of(action)?,
            nargs: (!nargs.is_unknown()).then(|| nargs.clone()),
            default: default.clone(),
            choices: choices.to_vec(),
        })
    }

    fn positional(&self) -> bool {
        !self.flags.is_empty() && self.flags.iter().all(|f| !f.starts_with('-'))
    }
}

/// `type=int`.
fn is_int_type(kind: &V<'_>) -> bool {
    matches!(kind, V::Builtin("int"))
}

fn text_of(v: &V) -> Option<String> {
    match v {
        V::Data(Value::Str(Some(s))) => Some(s.clone()),
        _ => None,
    }
}

/// A command-line string converted by an option's `type` (argparse applies it to string
/// defaults too); unknown for a type that is not a builtin conversion.
fn converted<'a>(kind: &V<'a>, s: &str) -> V<'a> {
    match kind {
        V::Data(Value::None) | V::Builtin("str") => V::Data(Value::Str(Some(s.to_string()))),
        V::Builtin("int") => s
            .trim()
            .parse::<i64>()
            .map_or(V::Unknown, |n| V::Data(Value::int(n))),
        V::Builtin("float") => s
            .trim()
            .parse::<f64>()
            .map_or(V::Unknown, |x| V::Data(Value::Float(Some(x)))),
        _ => V::Unknown,
    }
}

impl<'a> Interp<'a> {
    /// An object of a stub class with these attributes.
    pub(super) fn config_object(
        &mut self,
        class: &'static StmtClassDef,
        attrs: Vec<(String, V<'a>)>,
        span: TextRange,
    ) -> V<'a> {
        let order = attrs.iter().map(|(k, _)| k.clone()).collect();
        V::Object(Rc::new(RefCell::new(Object {
            class,
            attrs: Rc::new(attrs.into_iter().collect::<BTreeMap<_, _>>()),
            order,
            span: self.here(span),
        })))
    }

    /// `collections.namedtuple("Point", ["x", "y"], defaults=(0,))`: a class of its own,
    /// built as `class Point(NamedTuple)` with those fields would be (its instances are
    /// dataclass-like objects that also index and unpack as tuples), the defaults on the last
    /// fields. Unknown unless the name and fields are known identifiers and any other keyword
    /// is `defaults` or `module`.
    pub(super) fn named_tuple_class(
        &mut self,
        args: &[V<'a>],
        kwargs: &[(String, V<'a>)],
    ) -> V<'a> {
        let (Some(name), Some(spec)) = (
            args.first().and_then(text_of),
            args.get(1).or_else(|| {
                kwargs
                    .iter()
                    .find(|(k, _)| k == "field_names")
                    .map(|(_, v)| v)
            }),
        ) else {
            return V::Unknown;
        };
        let fields: Option<Vec<String>> = match spec {
            V::Data(Value::Str(Some(text))) => Some(
                text.replace(',', " ")
                    .split_whitespace()
                    .map(str::to_string)
                    .collect(),
            ),
            other => other
                .elements()
                .and_then(|items| items.iter().map(text_of).collect()),
        };
        let identifier = |s: &str| {
            !s.is_empty()
                && !s.starts_with(|c: char| c.is_ascii_digit() || c == '_')
                && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        };
        let Some(fields) = fields.filter(|f| f.iter().all(|f| identifier(f))) else {
            return V::Unknown;
        };
        if !identifier(&name) {
            return V::Unknown;
        }
        let mut defaults = Vec::new();
        for (k, v) in kwargs {
            match k.as_str() {
                "field_names" | "module" => {}
                "defaults" => match v.elements() {
                    Some(items) if items.len() <= fields.len() => defaults = items,
                    _ => return V::Unknown,
                },
                _ => return V::Unknown,
            }
        }
        let mut source = format!("class {name}(NamedTuple):\n");
        for f in &fields {
            source.push_str(&format!("    {f}: object\n"));
        }
        if fields.is_empty() {
            source.push_str("    pass\n");
        }
        // The class lives as long as the analysis: a stub of its own, parsed once per call.
        let Ok(module) = crate::frontend::parse_python(&source) else {
            return V::Unknown;
        };
        let module: &'static ModModule = Box::leak(Box::new(module));
        let Some(Stmt::ClassDef(class)) = module.body.first() else {
            return V::Unknown;
        };
        let first_default = fields.len() - defaults.len();
        for (f, d) in fields[first_default..].iter().zip(defaults) {
            self.classes
                .attrs
                .entry(class as *const _)
                .or_default()
                .insert(f.clone(), d);
        }
        V::Class(class)
    }

    /// `SimpleNamespace(lr=0.1, hidden=64)`, `argparse.Namespace(**config)`: the keyword
    /// arguments as attributes (an unexpanded `**` adds attributes that stay unknown).
    pub(super) fn simple_namespace(
        &mut self,
        kwargs: Vec<(String, V<'a>)>,
        span: TextRange,
    ) -> V<'a> {
        let attrs = kwargs.into_iter().filter(|(k, _)| k != "**").collect();
        self.config_object(namespace_class(), attrs, span)
    }

    /// `argparse.ArgumentParser(...)`: a parser with no options yet.
    pub(super) fn argument_parser(&mut self, span: TextRange) -> V<'a> {
        self.config_object(
            parser_class(),
            vec![(OPTIONS.into(), V::list(Vec::new()))],
            span,
        )
    }

    pub(super) fn parser_method(
        &mut self,
        parser: &Rc<RefCell<Object<'a>>>,
        method: &str,
        args: Vec<V<'a>>,
        kwargs: Vec<(String, V<'a>)>,
        span: TextRange,
    ) -> V<'a> {
        let kwarg = |name: &str| {
            kwargs
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
        };
        match method {
            "add_argument" => {
                match self.parser_option(&args, &kwargs) {
                    Some(option) => {
                        let mut p = parser.borrow_mut();
                        if let Some(V::List(options)) = p.attrs_mut().get_mut(OPTIONS) {
                            Rc::make_mut(options).push(option.to_value());
                        }
                    }
                    None => self.make_opaque(parser),
                }
                V::Unknown
            }
            "add_argument_group" | "add_mutually_exclusive_group" => V::Object(Rc::clone(parser)),
            "set_defaults" => {
                for (k, v) in kwargs {
                    if k == "**" {
                        self.make_opaque(parser);
                        continue;
                    }
                    let mut options = self.parser_options(parser);
                    let known = options.iter().any(|o| o.dest == k);
                    for o in options.iter_mut().filter(|o| o.dest == k) {
                        o.default = v.clone();
                    }
                    if !known {
                        options.push(ParserOption {
                            dest: k,
                            flags: Vec::new(),
                            kind: V::none(),
                            action: "set_defaults".into(),
                            nargs: None,
                            default: v,
                            choices: Vec::new(),
                        });
                    }
                    let list = V::list(options.iter().map(ParserOption::to_value).collect());
                    parser.borrow_mut().attrs_mut().insert(OPTIONS.into(), list);
                }
                V::none()
            }
            "parse_args" | "parse_known_args" => {
                let argv = args.first().cloned().or_else(|| kwarg("args"));
                let ns = match argv {
                    None | Some(V::Data(Value::None)) => {
                        let ns = self.parsed(parser, &[], span);
                        self.with_declared_values(parser, ns, span)
                    }
                    Some(list) => match list
                        .elements()
                        .map(|items| items.iter().map(text_of).collect::<Option<Vec<String>>>())
                    {
                        Some(Some(tokens)) => self.parsed(parser, &tokens, span),
                        _ => V::Unknown,
                    },
                };
                if method == "parse_known_args" {
                    V::Tuple(vec![ns, V::list(Vec::new())])
                } else {
                    ns
                }
            }
            _ => {
                self.make_opaque(parser);
                V::Unknown
            }
        }
    }

    /// The namespace of a script run with no arguments, where its options declare the
    /// values they take (`choices`, or an int range the script checks after parsing,
    /// `domains::stated_ranges`): a domain (`domains.rs`), and in a run that takes one of its
    /// values, the namespace with it.
    fn with_declared_values(
        &mut self,
        parser: &Rc<RefCell<Object<'a>>>,
        ns: V<'a>,
        span: TextRange,
    ) -> V<'a> {
        if !self.plan.domains || !matches!(ns, V::Object(_)) {
            return ns;
        }
        let declared: Vec<(String, Vec<V<'a>>)> = self
            .parser_options(parser)
            .into_iter()
            .filter(|o| o.action == "store")
            .filter_map(|o| {
                let values = match o.choices.len() {
                    0 => self
                        .plan
                        .stated_ranges
                        .get(&o.dest)
                        .filter(|_| is_int_type(&o.kind))
                        .map(|&(lo, hi)| {
                            (lo..=hi).map(|n| V::Data(Value::Int(n.into()))).collect()
                        })?,
                    1 => return None,
                    _ => o.choices,
                };
                Some((o.dest, values))
            })
            .collect();
        let enumerated = super::domains::combinations(&declared);
        let V::Object(obj) = &ns else { return ns };
        // Int options the combinations leave out (too many values): their defaults here,
        // and a run of the module's code with every declared int option a symbol.
        let in_combos = |dest: &str| {
            enumerated
                .as_ref()
                .and_then(|(_, combos)| combos.first())
                .is_some_and(|c| c.iter().any(|(d, _)| d == dest))
        };
        let too_many = declared
            .iter()
            .any(|(dest, values)| !in_combos(dest) && all_ints(values).is_some());
        if too_many && !self.plan.symbolic_domains {
            self.plan.symbolic_wanted = true;
        }
        if too_many && self.plan.symbolic_domains {
            for (dest, values) in &declared {
                if let Some(symbol) = self.domain_symbol(dest, values) {
                    obj.borrow_mut()
                        .attrs_mut()
                        .insert(dest.clone(), V::Data(Value::Int(symbol)));
                }
            }
            return ns;
        }
        let Some((labels, combos)) = enumerated else {
            return ns;
        };
        if let Some(combo) = self
            .domain_index(span, || Some(labels))
            .and_then(|i| combos.get(i))
        {
            let mut o = obj.borrow_mut();
            for (dest, v) in combo {
                o.attrs_mut().insert(dest.clone(), v.clone());
            }
        }
        ns
    }

    /// A symbol for an option whose declared values are too many to run one by one, each an
    /// int: a fact says it takes one of them, and the trace records it
    /// (`Trace::domain_symbols`). `None` for other values, or a set too large to state.
    fn domain_symbol(&mut self, dest: &str, values: &[V<'a>]) -> Option<crate::shapes::DimExpr> {
        use crate::shapes::Pred;
        let ints = all_ints(values)?;
        if !Pred::consecutive(&ints) && ints.len() > super::domains::MAX_STATED_VALUES {
            return None;
        }
        let symbol = self.fresh_sym(dest);
        self.run.trace.fact(Pred::member_of(&symbol, &ints), None);
        self.run
            .trace
            .domain_symbols
            .push(crate::eval::trace::DomainSymbol {
                name: dest.to_string(),
                symbol: symbol.clone(),
                values: ints,
            });
        Some(symbol)
    }

    fn make_opaque(&mut self, parser: &Rc<RefCell<Object<'a>>>) {
        parser
            .borrow_mut()
            .attrs_mut()
            .insert(OPAQUE.into(), V::Data(Value::Bool(Some(true))));
    }

    fn parser_options(&self, parser: &Rc<RefCell<Object<'a>>>) -> Vec<ParserOption<'a>> {
        match parser.borrow().attrs.get(OPTIONS) {
            Some(V::List(items)) => items.iter().filter_map(ParserOption::from_value).collect(),
            _ => Vec::new(),
        }
    }

    /// `add_argument('--hidden-size', type=int, default=64)`: its `dest` and default, or
    /// `None` when a name or setting is not a known constant.
    fn parser_option(
        &mut self,
        args: &[V<'a>],
        kwargs: &[(String, V<'a>)],
    ) -> Option<ParserOption<'a>> {
        let kwarg = |name: &str| {
            kwargs
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
        };
        if kwargs.iter().any(|(k, _)| k == "**") {
            return None;
        }
        let flags: Vec<String> = args.iter().map(text_of).collect::<Option<_>>()?;
        let first = flags.first()?;
        let dest = match kwarg("dest") {
            Some(d) => text_of(&d)?,
            None => {
                let long = flags.iter().find(|f| f.starts_with("--"));
                let name = long.unwrap_or(first).trim_start_matches('-');
                name.replace('-', "_")
            }
        };
        let action = match kwarg("action") {
            None => "store".to_string(),
            Some(a) => text_of(&a)?,
        };
        let kind = kwarg("type").unwrap_or_else(V::none);
        let nargs = kwarg("nargs");
        let required = kwarg("required").and_then(|r| r.truth()).unwrap_or(false);
        let positional = !first.starts_with('-');
        let optional_positional = matches!(
            nargs.as_ref().and_then(text_of).as_deref(),
            Some("?") | Some("*")
        );
        let default = if required || (positional && !optional_positional) {
            // Only the command line gives it.
            V::Unknown
        } else {
            match (kwarg("default"), action.as_str()) {
                (Some(V::Data(Value::Str(Some(s)))), "store") => converted(&kind, &s),
                (Some(d), _) => d,
                (None, "store_true") => V::Data(Value::Bool(Some(false))),
                (None, "store_false") => V::Data(Value::Bool(Some(true))),
                (None, "help" | "version") => return Some(ParserOption::ignored(flags)),
                (None, _)
                    if positional && nargs.as_ref().and_then(text_of).as_deref() == Some("*") =>
                {
                    V::list(Vec::new())
                }
                (None, _) => V::none(),
            }
        };
        let choices = kwarg("choices")
            .and_then(|c| super::calls::iterate(&c))
            .unwrap_or_default();
        Some(ParserOption {
            dest,
            flags,
            kind,
            action,
            nargs,
            default,
            choices,
        })
    }

    /// The namespace a parser gives for these command-line tokens (none: the defaults).
    /// Unknown when the parser is not fully modelled or a token is not understood (argparse
    /// would stop the script).
    fn parsed(
        &mut self,
        parser: &Rc<RefCell<Object<'a>>>,
        tokens: &[String],
        span: TextRange,
    ) -> V<'a> {
        if parser.borrow().attrs.contains_key(OPAQUE) {
            return V::Unknown;
        }
        let options = self.parser_options(parser);
        let mut values: Vec<(String, V<'a>)> = Vec::new();
        for o in options.iter().filter(|o| o.action != "ignored") {
            match values.iter_mut().find(|(k, _)| *k == o.dest) {
                Some((_, v)) => *v = o.default.clone(),
                None => values.push((o.dest.clone(), o.default.clone())),
            }
        }
        let set = |values: &mut Vec<(String, V<'a>)>, dest: &str, v: V<'a>| {
            if let Some((_, slot)) = values.iter_mut().find(|(k, _)| k == dest) {
                *slot = v;
            }
        };
        let mut positionals = options
            .iter()
            .filter(|o| o.positional() && o.action != "ignored");
        let mut i = 0;
        while i < tokens.len() {
            let token = &tokens[i];
            i += 1;
            if !token.starts_with('-') || token == "-" {
                let Some(o) = positionals.next() else {
                    return V::Unknown;
                };
                if o.nargs.is_some() {
                    return V::Unknown;
                }
                set(&mut values, &o.dest, converted(&o.kind, token));
                continue;
            }
            let (flag, inline) = match token.split_once('=') {
                Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
                _ => (token.as_str(), None),
            };
            // An exact flag, else a unique prefix of a long one (argparse's abbreviations).
            let exact = options.iter().find(|o| o.flags.iter().any(|f| f == flag));
            let option = exact.or_else(|| {
                let mut hits = options.iter().filter(|o| {
                    o.flags
                        .iter()
                        .any(|f| f.starts_with("--") && f.starts_with(flag))
                });
                let hit = hits.next();
                hit.filter(|_| hits.next().is_none() && flag.starts_with("--"))
            });
            let Some(o) = option else {
                return V::Unknown;
            };
            let value = match o.action.as_str() {
                "store_true" => V::Data(Value::Bool(Some(true))),
                "store_false" => V::Data(Value::Bool(Some(false))),
                "store" if o.nargs.is_none() => {
                    let text = match inline {
                        Some(v) => v,
                        None => match tokens.get(i) {
                            Some(v) => {
                                i += 1;
                                v.clone()
                            }
                            None => return V::Unknown,
                        },
                    };
                    converted(&o.kind, &text)
                }
                _ => return V::Unknown,
            };
            set(&mut values, &o.dest, value);
        }
        self.config_object(namespace_class(), values, span)
    }
}

/// Declared values that are all ints, ascending and each once; `None` otherwise or for fewer
/// than two.
fn all_ints(values: &[V<'_>]) -> Option<Vec<i64>> {
    let mut ints: Vec<i64> = values
        .iter()
        .map(|v| match v {
            V::Data(Value::Int(d)) => d.as_const(),
            _ => None,
        })
        .collect::<Option<_>>()?;
    ints.sort_unstable();
    ints.dedup();
    (ints.len() >= 2).then_some(ints)
}

#[cfg(test)]
mod tests {
    use crate::testing::{assert_twins, findings};

    /// A script run as written: options take their defaults (a string default through its
    /// `type`), a group adds to the parser, a flag defaults to false.
    #[test]
    fn parsed_arguments_take_their_defaults() {
        let src = r#"
import argparse
import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--image-size", type=int, default=32)
model = parser.add_argument_group("model")
model.add_argument("--nz", type=int, default="NZ")
parser.add_argument("--cuda", action="store_true")
opt = parser.parse_args()
net = nn.Linear(opt.nz, 10)
if opt.cuda:
    net = net.cuda()
net(torch.randn(4, opt.image_size))
"#;
        assert_twins(src, "NZ", "100", "32", 15);
    }

    /// A literal argument list is parsed (`--name value`, `--name=value`, abbreviations);
    /// an option only the command line gives is unknown, never its absent default.
    #[test]
    fn literal_argument_lists_are_parsed() {
        let src = r#"
import argparse
import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--hidden", type=int, default=8)
parser.add_argument("--layers", type=int, default=2)
args = parser.parse_args(["--hid", "16", "--layers=3"])
nn.Linear(args.hidden, 2)(torch.randn(4, 16))
nn.Linear(2, 2)(torch.randn(args.layers, 2))
"#;
        assert!(findings(src).is_empty());
        let required = r#"
import argparse
import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("data")
parser.add_argument("--width", type=int, required=True)
args = parser.parse_args()
nn.Linear(args.width, 2)(torch.randn(4, 16))
"#;
        assert!(findings(required).is_empty());
    }

    /// `SimpleNamespace(**config)` and `typing.NamedTuple` fields are read back.
    #[test]
    fn namespaces_and_named_tuples_hold_their_fields() {
        let src = r#"
from types import SimpleNamespace
from typing import NamedTuple
import torch
import torch.nn as nn

class Config(NamedTuple):
    d_model: int = 64
    vocab: int = 100

hp = SimpleNamespace(**{"width": WIDTH})
cfg = Config()
emb = nn.Embedding(cfg.vocab, cfg.d_model)
nn.Linear(hp.width, 2)(emb(torch.arange(10)))
"#;
        assert_twins(src, "WIDTH", "32", "64", 14);
    }

    /// `collections.namedtuple` classes: fields by name, by position and by unpacking, from
    /// positional or keyword arguments, with defaults for the last fields.
    #[test]
    fn collections_named_tuples_are_records_and_tuples() {
        let src = r#"
from collections import namedtuple
import torch
import torch.nn as nn

Sample = namedtuple("Sample", "image, label")
Arch = namedtuple("Arch", ["hidden", "classes"], defaults=(5,))
arch = Arch(32)
sample = Sample(torch.randn(4, 32), label=torch.randn(4, 7))
feats, target = sample
assert len(sample) == 2
head = nn.Linear(arch.hidden, arch.classes)
head(feats)
head(sample.image)
head(sample[PICK])
"#;
        assert_twins(src, "PICK", "1", "0", 15);
    }

    /// A named tuple whose fields are not all known stays unknown rather than guessed.
    #[test]
    fn a_named_tuple_with_unknown_fields_is_unknown() {
        let src = r#"
import collections
import torch
import torch.nn as nn

names = open("fields.txt").read().split()
Row = collections.namedtuple("Row", names)
row = Row(torch.randn(2, 3))
nn.Linear(8, 2)(row[0])
"#;
        assert!(findings(src).is_empty());
    }
}
