//! Imported modules summarised once per worker and shared by every file that imports them.
//!
//! Loading a module runs its top level, and with it the top levels of what it imports: for
//! a library like transformers that is hundreds of milliseconds per importing file. So a
//! module is loaded *in isolation* — a fresh project holding only what its own top level
//! loads, its own statement budget, symbol names, class tables and planned answers — and
//! what that leaves (every module's globals, the class tables) is its [`Summary`]. A file
//! that imports the module merges a copy of the summary into its project.
//!
//! Because a summary depends on nothing of the importing file but where names resolve, it
//! is kept per thread and reused: it records every module lookup its load made
//! (`lookups`), and is reused only where the same lookups give the same files. Import
//! cycles are cut: a module whose load is under way in an enclosing load is not loaded
//! again (`cuts`; an import of it finds it as far as its top level has run, as in Python),
//! so a summary is reused only where it would be built the same way (none of its modules is
//! being loaded, the modules it cut still are, and it read none of them half-run). Reuse therefore never
//! changes a result: a file's analysis is the same whichever files its worker analysed
//! before, so tables are identical for any `-w`/`-n`.
//!
//! Merging copies the summary's objects (instances of user classes are mutable) so nothing a
//! file does to an imported module's state reaches another file. A module's globals that
//! hold no instance are shared instead: globals are copied on their first write.

use rustc_hash::FxHashMap as HashMap;
use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;

use super::imports::{ImportSearch, SourceModule};
use super::interp::{Classes, Globals};
use super::value::{Object, V};

/// Summaries kept per thread, at most (the cache is emptied when full).
const MAX_SUMMARIES: usize = 4096;

/// A module lookup and the file it found (path and search folder), if any.
pub type Lookup = (String, Option<(PathBuf, PathBuf)>);

/// What loading one module leaves, independent of the file that imports it.
pub struct Summary {
    /// The modules loaded, the summarised one first, with their globals after loading.
    pub modules: Vec<SummaryModule>,
    /// Sources the values may refer to besides `modules` (the same file parsed under
    /// another name, met in a nested load): kept alive with the summary.
    pub also: Vec<Rc<SourceModule>>,
    /// Module names the load resolved, to indices of `modules` (`None`: not loaded).
    pub ids: Vec<(String, Option<usize>)>,
    /// Class tables of the classes defined by the load.
    pub classes: Classes<'static>,
    pub lookups: Vec<Lookup>,
    /// Modules not loaded because their load was under way in an enclosing load.
    pub cuts: Vec<PathBuf>,
    /// Those of `cuts` read as far as their enclosing load had run them (an import cycle,
    /// see `Project::partial`): what the summary holds depends on how far that was, so it is
    /// not kept for reuse.
    pub read_partially: Vec<PathBuf>,
}

pub struct SummaryModule {
    pub source: Rc<SourceModule>,
    pub globals: Globals<'static>,
    /// Whether the globals hold an instance (or a value holding one), which each importing
    /// file gets a copy of; other globals are shared.
    pub forked: bool,
    pub lines: Rc<crate::frontend::LineIndex>,
}

/// The summaries of one thread, by module (path, name, search folder).
type Key = (PathBuf, String, PathBuf);

#[derive(Default)]
struct Cache {
    summaries: HashMap<Key, Vec<Rc<Summary>>>,
    count: usize,
}

thread_local! {
    static CACHE: RefCell<Cache> = RefCell::new(Cache::default());
}

fn key(source: &SourceModule, name: &str) -> Key {
    (source.path.clone(), name.to_string(), source.root.clone())
}

/// A summary of `source` (imported as `name`) built before on this thread that a load under
/// `search`, inside the loads of `building`, would build identically.
pub fn cached(
    source: &SourceModule,
    name: &str,
    building: &[PathBuf],
    locate: &mut impl FnMut(&str) -> Option<(PathBuf, PathBuf)>,
) -> Option<Rc<Summary>> {
    let candidates = CACHE.with(|c| c.borrow().summaries.get(&key(source, name)).cloned())?;
    candidates
        .into_iter()
        .find(|s| s.reusable(building, locate))
}

/// Forgets this thread's summaries holding one of the `modules` (by address): those
/// modules are parsed again when next imported, and a summary must not hand out their old
/// trees beside the new ones.
pub fn forget_holding(modules: &std::collections::HashSet<*const SourceModule>) {
    let holds = |s: &Summary| {
        s.modules
            .iter()
            .map(|m| &m.source)
            .chain(&s.also)
            .any(|m| modules.contains(&Rc::as_ptr(m)))
    };
    CACHE.with(|c| {
        let mut c = c.borrow_mut();
        for kept in c.summaries.values_mut() {
            kept.retain(|s| !holds(s));
        }
        c.summaries.retain(|_, kept| !kept.is_empty());
        c.count = c.summaries.values().map(Vec::len).sum();
    });
}

/// Keeps `summary` for later loads on this thread.
pub fn store(source: &SourceModule, name: &str, summary: Rc<Summary>) {
    CACHE.with(|c| {
        let mut c = c.borrow_mut();
        if c.count >= MAX_SUMMARIES {
            c.summaries.clear();
            c.count = 0;
        }
        c.count += 1;
        c.summaries
            .entry(key(source, name))
            .or_default()
            .push(summary);
    });
}

impl Summary {
    fn reusable(
        &self,
        building: &[PathBuf],
        locate: &mut impl FnMut(&str) -> Option<(PathBuf, PathBuf)>,
    ) -> bool {
        self.modules
            .iter()
            .all(|m| !building.contains(&m.source.path))
            && self.cuts.iter().all(|c| building.contains(c))
            && self
                .lookups
                .iter()
                .all(|(name, found)| locate(name) == *found)
    }
}

/// Where `name` is found under `search`: the file and its search folder.
pub fn locate(search: &ImportSearch, name: &str) -> Option<(PathBuf, PathBuf)> {
    search.load(name).map(|m| (m.path.clone(), m.root.clone()))
}

/// Values of a summary as stored: they refer into the syntax trees of the summary's own
/// sources, which the summary keeps alive.
///
/// SAFETY (for [`to_static`] and [`from_static`]): `V<'a>` borrows syntax trees for `'a`
/// only. A summary's values are built by a load that sees nothing but the modules it loads
/// (the importing file's globals, classes and running state are set aside), so they borrow
/// only the trees of `Summary::modules` and `Summary::also`, held by `Rc`s the summary owns.
/// They are handed out again only after those `Rc`s were put in the importing file's arena,
/// which lives for that file's `'a`. The types differ in the lifetime alone.
pub fn to_static<'a>(globals: Globals<'a>) -> Globals<'static> {
    unsafe { std::mem::transmute::<Globals<'a>, Globals<'static>>(globals) }
}

/// Whether merging `globals` copies something: an instance somewhere in them.
pub fn needs_fork<'a>(globals: &HashMap<String, V<'a>>) -> bool {
    let mut copies = Copies::default();
    globals.values().any(|v| fork(v, &mut copies).is_some())
}

/// See [`to_static`].
pub fn classes_to_static(classes: Classes<'_>) -> Classes<'static> {
    unsafe { std::mem::transmute::<Classes<'_>, Classes<'static>>(classes) }
}

/// See [`to_static`]: the caller has put the summary's sources in an arena living for `'a`.
pub fn from_static<'a>(globals: Globals<'static>) -> Globals<'a> {
    unsafe { std::mem::transmute::<Globals<'static>, Globals<'a>>(globals) }
}

/// See [`from_static`].
pub fn value_from_static<'a>(v: V<'static>) -> V<'a> {
    unsafe { std::mem::transmute::<V<'static>, V<'a>>(v) }
}

/// See [`from_static`].
pub fn classes_from_static<'a>(classes: Classes<'static>) -> Classes<'a> {
    unsafe { std::mem::transmute::<Classes<'static>, Classes<'a>>(classes) }
}

/// Copies of the objects already copied in one merge, by address (aliasing is kept).
pub type Copies<'a> = HashMap<*const RefCell<Object<'a>>, Rc<RefCell<Object<'a>>>>;

/// `v` with every object reachable from it copied (`None`: nothing to copy, `v` can be
/// shared as it is).
pub fn fork<'a>(v: &V<'a>, copies: &mut Copies<'a>) -> Option<V<'a>> {
    Some(match v {
        V::Object(o) => {
            if let Some(copy) = copies.get(&Rc::as_ptr(o)) {
                return Some(V::Object(copy.clone()));
            }
            let (class, order, span) = {
                let o = o.borrow();
                (o.class, o.order.clone(), o.span)
            };
            let copy = Rc::new(RefCell::new(Object {
                class,
                attrs: Default::default(),
                order,
                span,
            }));
            copies.insert(Rc::as_ptr(o), copy.clone());
            let attrs = o
                .borrow()
                .attrs
                .iter()
                .map(|(k, v)| (k.clone(), copied(v, copies)))
                .collect();
            copy.borrow_mut().attrs = Rc::new(attrs);
            V::Object(copy)
        }
        V::Tuple(items) => V::Tuple(fork_all(items, copies)?),
        V::List(items) => V::list(fork_all(items, copies)?),
        V::Set(items) => V::Set(fork_all(items, copies)?),
        V::Dict(items) => V::dict(fork_named(items, copies)?),
        V::Closure(f, env) => V::Closure(
            f,
            Rc::new(super::closures::Captured {
                frame: Rc::new(fork_map(&env.frame, copies)?),
                // The calls of the load that made it have ended.
                call: None,
            }),
        ),
        V::Lambda(f, Some(env)) => V::Lambda(
            f,
            Some(Rc::new(super::closures::Captured {
                frame: Rc::new(fork_map(&env.frame, copies)?),
                call: None,
            })),
        ),
        V::Partial(p) => {
            let func = fork(&p.func, copies);
            let arguments = fork_arguments(&p.args, &p.kwargs, copies);
            if func.is_none() && arguments.is_none() {
                return None;
            }
            let (args, kwargs) = arguments.unwrap_or_else(|| (p.args.clone(), p.kwargs.clone()));
            V::Partial(Rc::new(super::value::Partial {
                func: func.unwrap_or_else(|| p.func.clone()),
                args,
                kwargs,
            }))
        }
        V::Bound(r, m) => V::Bound(Box::new(fork(r, copies)?), m.clone()),
        V::Container(k, items, span) => {
            V::Container(*k, Rc::new(fork_named(items, copies)?), *span)
        }
        V::Super(c, r) => V::Super(c, Box::new(fork(r, copies)?)),
        V::Packed(r) => V::Packed(Box::new(fork(r, copies)?)),
        V::Items(r) => V::Items(Box::new(fork(r, copies)?)),
        V::Either(e) => {
            let then = fork(&e.then, copies);
            let other = fork(&e.other, copies);
            if then.is_none() && other.is_none() {
                return None;
            }
            V::Either(Rc::new(super::value::Either {
                guard: e.guard.clone(),
                then: then.unwrap_or_else(|| e.then.clone()),
                other: other.unwrap_or_else(|| e.other.clone()),
            }))
        }
        V::Dataset(items) => V::Dataset(Rc::new(fork_all(items, copies)?)),
        V::Sampled(s) => V::Sampled(Rc::new((s.0.clone(), fork(&s.1, copies)?))),
        V::Batches(b) => {
            let item = fork(&b.item, copies);
            let last = b.last.as_ref().map(|l| fork(l, copies));
            if item.is_none() && !matches!(last, Some(Some(_))) {
                return None;
            }
            V::Batches(Rc::new(super::value::Batches {
                item: item.unwrap_or_else(|| b.item.clone()),
                last: match (last, &b.last) {
                    (Some(Some(l)), _) => Some(l),
                    (_, l) => l.clone(),
                },
            }))
        }
        V::Transform(t) => {
            let (args, kwargs) = fork_arguments(&t.args, &t.kwargs, copies)?;
            V::Transform(Rc::new(super::images::Transform {
                class: t.class,
                v2: t.v2,
                args,
                kwargs,
            }))
        }
        _ => return None,
    })
}

/// Positional and keyword arguments.
type Arguments<'a> = (Vec<V<'a>>, Vec<(String, V<'a>)>);

/// Call arguments with their objects copied (`None`: nothing to copy).
fn fork_arguments<'a>(
    args: &[V<'a>],
    kwargs: &[(String, V<'a>)],
    copies: &mut Copies<'a>,
) -> Option<Arguments<'a>> {
    let forked_args = fork_all(args, copies);
    let forked_kwargs = fork_named(kwargs, copies);
    if forked_args.is_none() && forked_kwargs.is_none() {
        return None;
    }
    Some((
        forked_args.unwrap_or_else(|| args.to_vec()),
        forked_kwargs.unwrap_or_else(|| kwargs.to_vec()),
    ))
}

/// A summary's class tables with their objects copied, but for the classes `present`
/// already has a table of that kind for (merging keeps those, so a copy would be discarded).
pub fn copy_classes(
    classes: &Classes<'static>,
    present: &Classes<'_>,
    copies: &mut Copies<'static>,
) -> Classes<'static> {
    type Table<'t> = HashMap<*const ruff_python_ast::StmtClassDef, HashMap<String, V<'t>>>;
    let mut copy_new = |from: &Table<'static>, present: &Table<'_>| -> Table<'static> {
        from.iter()
            .filter(|(k, _)| !present.contains_key(*k))
            .map(|(k, attrs)| {
                let attrs = attrs
                    .iter()
                    .map(|(n, v)| (n.clone(), copied(v, copies)))
                    .collect();
                (*k, attrs)
            })
            .collect()
    };
    let attrs = copy_new(&classes.attrs, &present.attrs);
    let assigned = copy_new(&classes.assigned, &present.assigned);
    let bases = classes
        .bases
        .iter()
        .filter(|(k, _)| !present.bases.contains_key(*k))
        .map(|(k, bases)| (*k, bases.iter().map(|v| copied(v, copies)).collect()))
        .collect();
    Classes {
        attrs,
        bases,
        assigned,
    }
}

/// `v` with its objects copied.
pub fn copied<'a>(v: &V<'a>, copies: &mut Copies<'a>) -> V<'a> {
    fork(v, copies).unwrap_or_else(|| v.clone())
}

fn fork_all<'a>(items: &[V<'a>], copies: &mut Copies<'a>) -> Option<Vec<V<'a>>> {
    fork_each(items, copies, |v| v, |_, v| v)
}

fn fork_named<'a>(
    items: &[(String, V<'a>)],
    copies: &mut Copies<'a>,
) -> Option<Vec<(String, V<'a>)>> {
    fork_each(items, copies, |(_, v)| v, |(k, _), v| (k.clone(), v))
}

/// Items holding a value each, with their objects copied (`None`: nothing to copy).
fn fork_each<'a, T: Clone>(
    items: &[T],
    copies: &mut Copies<'a>,
    value: impl Fn(&T) -> &V<'a>,
    with: impl Fn(&T, V<'a>) -> T,
) -> Option<Vec<T>> {
    let forked: Vec<Option<V<'a>>> = items.iter().map(|t| fork(value(t), copies)).collect();
    if forked.iter().all(Option::is_none) {
        return None;
    }
    Some(
        forked
            .into_iter()
            .zip(items)
            .map(|(f, t)| f.map_or_else(|| t.clone(), |v| with(t, v)))
            .collect(),
    )
}

fn fork_map<'a>(
    env: &HashMap<String, V<'a>>,
    copies: &mut Copies<'a>,
) -> Option<HashMap<String, V<'a>>> {
    let mut changed = false;
    let mut out = HashMap::with_capacity_and_hasher(env.len(), Default::default());
    for (k, v) in env {
        let f = fork(v, copies);
        changed |= f.is_some();
        out.insert(k.clone(), f.unwrap_or_else(|| v.clone()));
    }
    changed.then_some(out)
}
