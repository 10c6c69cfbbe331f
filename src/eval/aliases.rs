//! Other names for a list or dict changed in place.
//!
//! Lists and dicts are values in the analysis, but in Python `b = a`, `self.names = layers`
//! or a loop's item (`for g in groups: g.append(x)`) name the same object, so a change made
//! through one name shows through the others. A list or dict value is shared (one `Rc`)
//! exactly where Python shares the object — assignment, arguments, attributes, items — and a
//! copy (`list(a)`, `a.copy()`, `a[:]`) is a new one. So when a name's list or dict changes in
//! place, the other holders of the same `Rc` that the running code can reach take the new
//! value: the running frame's names and the lists and dicts they hold, the attributes of the
//! objects they hold, the module's names, and the names of the project's other modules (a
//! registry one module fills and others import by name). Branch snapshots hold it too and
//! are left as they are (they are the state before the change).

use std::rc::Rc;

use super::interp::Interp;
use super::value::V;

/// Whether `v` is the same list or dict object as `old`.
fn is_same_object<'a>(v: &V<'a>, old: &V<'a>) -> bool {
    match (v, old) {
        (V::List(a), V::List(b)) => Rc::ptr_eq(a, b),
        (V::Dict(a), V::Dict(b)) => Rc::ptr_eq(a, b),
        _ => false,
    }
}

/// A module's names that hold `old` (or a list or dict holding it) hold `new` instead; the
/// globals are copied only when one does.
pub(super) fn replace_in_globals<'a>(
    globals: &mut super::interp::Globals<'a>,
    old: &V<'a>,
    new: &V<'a>,
) {
    let changed: Vec<(String, V<'a>)> = globals
        .iter()
        .filter_map(|(k, v)| Some((k.clone(), replaced(v, old, new)?)))
        .collect();
    if !changed.is_empty() {
        let globals = Rc::make_mut(globals);
        for (name, v) in changed {
            globals.insert(name, v);
        }
    }
}

/// Whether a list or dict is held more than `holders` times: by something else than the
/// holders the caller knows of.
pub fn held_elsewhere(v: &V, holders: usize) -> bool {
    match v {
        V::List(a) => Rc::strong_count(a) > holders,
        V::Dict(a) => Rc::strong_count(a) > holders,
        _ => false,
    }
}

/// `holder` with what holds `old` directly (itself, or one of its items) replaced by `new`;
/// `None` when it holds nothing of it.
fn replaced<'a>(holder: &V<'a>, old: &V<'a>, new: &V<'a>) -> Option<V<'a>> {
    if is_same_object(holder, old) {
        return Some(new.clone());
    }
    match holder {
        V::List(items) if items.iter().any(|i| is_same_object(i, old)) => Some(V::list(
            items
                .iter()
                .map(|i| {
                    if is_same_object(i, old) {
                        new.clone()
                    } else {
                        i.clone()
                    }
                })
                .collect(),
        )),
        V::Dict(items) if items.iter().any(|(_, i)| is_same_object(i, old)) => Some(V::dict(
            items
                .iter()
                .map(|(k, i)| {
                    let i = if is_same_object(i, old) {
                        new.clone()
                    } else {
                        i.clone()
                    };
                    (k.clone(), i)
                })
                .collect(),
        )),
        _ => None,
    }
}

impl<'a> Interp<'a> {
    /// `name` held `old` and now holds `new`, changed in place: the other holders see it.
    /// The caller checks that there may be some ([`held_elsewhere`]).
    pub(super) fn update_aliases(&mut self, name: &str, old: &V<'a>, new: &V<'a>) {
        if let Some(frame) = self.run.locals.last().cloned() {
            let mut objects = Vec::new();
            for (other, v) in frame.iter() {
                if other == name {
                    continue;
                }
                if let V::Object(o) = v {
                    objects.push(o.clone());
                }
                if let Some(updated) = replaced(v, old, new) {
                    if let Some(frame) = self.run.locals.last_mut() {
                        Rc::make_mut(frame).insert(other.clone(), updated);
                    }
                }
            }
            for object in objects {
                let mut object = object.borrow_mut();
                let changed: Vec<(String, V<'a>)> = object
                    .attrs
                    .iter()
                    .filter_map(|(k, v)| Some((k.clone(), replaced(v, old, new)?)))
                    .collect();
                for (attr, updated) in changed {
                    object.attrs_mut().insert(attr, updated);
                }
            }
        }
        // A module's object (the running module binds it) may be another module's too.
        let module_object = self
            .globals
            .get(name)
            .is_some_and(|g| is_same_object(g, old));
        // The module's binding of `name` itself is `rebind_changed`'s.
        let changed: Vec<(String, V<'a>)> = self
            .globals
            .iter()
            .filter(|(other, _)| other.as_str() != name)
            .filter_map(|(k, v)| Some((k.clone(), replaced(v, old, new)?)))
            .collect();
        for (global, updated) in changed {
            self.write_global(&global, updated);
        }
        if module_object {
            self.update_other_modules(old, new);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::assert_width_cases;

    /// A change made through one name of a list or dict shows through the others; a copy is
    /// a new one. Each case with the width torch 2.15 accepts (`[4, n] @ [WIDTH, 3]`).
    #[test]
    fn other_names_of_a_list_see_its_changes_and_copies_do_not() {
        let cases = [
            ("a = []\n    b = a\n    b.append(1)\n    n = len(a)", "1"),
            ("groups = [[], []]\n    for g in groups:\n        g.append(1)\n    n = len(groups[0])", "1"),
            ("a = [1]\n    b = a.copy()\n    b.append(1)\n    n = len(a)", "1"),
            ("a = [1]\n    b = list(a)\n    b.append(1)\n    b.append(1)\n    n = len(a) + len(b)", "4"),
            ("d = {'k': 1}\n    e = d\n    e['k'] = 7\n    n = d['k']", "7"),
            ("o = Box()\n    layers = []\n    o.names = layers\n    layers.append(1)\n    layers.append(1)\n    n = len(o.names)", "2"),
        ];
        assert_width_cases("import torch\n\nclass Box:\n    pass\n\ndef f():\n", &cases);
    }
}
