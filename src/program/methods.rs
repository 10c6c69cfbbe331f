//! Methods of plain Python values the interpreter models: lists and module containers that
//! grow (`append`, `extend`, `add_module`), mappings (`items`, `keys`, `values`, `get`, and
//! a container's `children`), and known strings (`split`, `lower`, ...).

use std::rc::Rc;

use super::calls::iterate;
use super::value::V;
use crate::shapes::Value;

/// A mapping's method (a dict, or a module container's named children).
pub fn mapping_method<'a>(items: &[(String, V<'a>)], method: &str, args: &[V<'a>]) -> V<'a> {
    let key = |k: &String| V::Data(Value::Str(Some(k.clone())));
    match method {
        "children" | "values" | "modules" => {
            V::List(items.iter().map(|(_, v)| v.clone()).collect())
        }
        "items" => V::List(
            items
                .iter()
                .map(|(k, v)| V::Tuple(vec![key(k), v.clone()]))
                .collect(),
        ),
        "keys" => V::List(items.iter().map(|(k, _)| key(k)).collect()),
        "get" => match args.first() {
            Some(V::Data(Value::Str(Some(k)))) => items
                .iter()
                .find(|(name, _)| name == k)
                .map(|(_, v)| v.clone())
                .unwrap_or_else(|| args.get(1).cloned().unwrap_or_else(V::none)),
            _ => V::Unknown,
        },
        _ => V::Unknown,
    }
}

/// A method of a known string: `"a b".split()` is a list of known strings (vocabularies and
/// example inputs written inline).
pub fn str_method<'a>(text: &str, method: &str, args: &[V<'a>]) -> V<'a> {
    let known = |s: &str| V::Data(Value::Str(Some(s.to_string())));
    match (method, args) {
        ("split", []) => V::List(text.split_whitespace().map(known).collect()),
        ("split", [V::Data(Value::Str(Some(sep)))]) if !sep.is_empty() => {
            V::List(text.split(sep.as_str()).map(known).collect())
        }
        ("lower", []) => known(&text.to_lowercase()),
        ("upper", []) => known(&text.to_uppercase()),
        ("strip", []) => known(text.trim()),
        _ => V::Unknown,
    }
}

/// `xs.append(v)` and friends on a list or a module container: the grown value.
pub fn grown<'a>(recv: &V<'a>, method: &str, args: Vec<V<'a>>) -> Option<V<'a>> {
    match (recv, method) {
        (V::List(items), "append") => {
            let mut items = items.clone();
            items.push(args.into_iter().next()?);
            Some(V::List(items))
        }
        (V::List(items), "extend") => {
            let mut items = items.clone();
            items.extend(iterate(args.first()?)?);
            Some(V::List(items))
        }
        (V::Container(kind, items, span), "append") => {
            let mut items = (**items).clone();
            items.push((items.len().to_string(), args.into_iter().next()?));
            Some(V::Container(*kind, Rc::new(items), *span))
        }
        (V::Container(kind, items, span), "extend") => {
            let mut items = (**items).clone();
            for v in iterate(args.first()?)? {
                items.push((items.len().to_string(), v));
            }
            Some(V::Container(*kind, Rc::new(items), *span))
        }
        (V::Container(kind, items, span), "add_module") => {
            let mut items = (**items).clone();
            let mut args = args.into_iter();
            let name = match args.next()? {
                V::Data(Value::Str(Some(s))) => s,
                _ => return Some(V::Unknown),
            };
            items.push((name, args.next()?));
            Some(V::Container(*kind, Rc::new(items), *span))
        }
        (_, _) => Some(V::Unknown),
    }
}
