//! Running code defined in other files of the project: modules found by `imports.rs` are
//! loaded (their top level run once, in isolation, with their own globals; see
//! `summaries.rs`, which shares what a load leaves between the files of a worker) and their
//! classes and functions called like the file's own. Each call into another module runs with
//! that module's globals; an operation that fails there is recorded with its [`Origin`] in
//! that file, and everything else is placed at the call site in the analysed file (the
//! *anchor*).
//!
//! Imports inside a loaded module are bound lazily ([`V::Lazy`]) and resolved when a name
//! is first read, so loading a package's `__init__.py` does not load everything it
//! re-exports. The number of modules a load adds to a project is bounded.
//!
//! [`Origin`]: super::trace::Origin

use rustc_hash::FxHashMap as HashMap;
use std::path::PathBuf;
use std::rc::Rc;

use ruff_python_ast::Stmt;
use ruff_text_size::TextRange;

use super::imports::{ImportSearch, SourceModule};
use super::interp::{Classes, Globals, Interp};
use super::summaries;
use super::value::V;
use crate::shapes::Value;

/// Modules loaded per analysed file, at most.
const MAX_MODULES: usize = 48;
/// Re-export chains (`a/__init__.py` importing from `a/b.py` ...) followed, at most.
const MAX_REEXPORTS: usize = 8;

/// The parsed modules of one analysed file's project, kept alive for its analysis.
pub type ModuleArena = typed_arena::Arena<Rc<SourceModule>>;

#[derive(Clone)]
struct Loaded<'a> {
    source: &'a SourceModule,
    rc: Rc<SourceModule>,
    globals: Globals<'a>,
    lines: Rc<crate::frontend::LineIndex>,
}

/// The other modules of the project an analysis has loaded.
pub struct Project<'a> {
    search: Rc<ImportSearch>,
    arena: &'a ModuleArena,
    loaded: Vec<Loaded<'a>>,
    ids: HashMap<String, Option<usize>>,
    /// Loaded modules by file.
    by_path: HashMap<std::path::PathBuf, usize>,
    /// The module each loaded function and class is defined in (by address).
    owner: HashMap<usize, usize>,
    /// The module whose code runs now (`None`: the analysed file).
    current: Option<usize>,
    /// The analysed file's globals while another module runs.
    home_globals: Globals<'a>,
    /// The modules whose summaries are being built, outermost first (see `summaries.rs`).
    building: Vec<PathBuf>,
    /// Every module lookup made, and the import cycles cut, loading modules so far.
    lookups: Vec<summaries::Lookup>,
    cuts: Vec<PathBuf>,
    /// The modules of `building` as far as their top level has run when the next one
    /// started loading: what an import cycle back into one of them finds, as in Python.
    partial: Vec<Loaded<'a>>,
    /// The modules of `partial` an import read, this load's and its nested loads'.
    read_partially: Vec<PathBuf>,
    /// Where module names were found (lookups made for the analysed file, memoised).
    located: HashMap<String, Option<(PathBuf, PathBuf)>>,
    /// Sources values may refer to that are not among `loaded` (see `Summary::also`).
    also: Vec<Rc<SourceModule>>,
    /// Whether the analysed file reads names only its star imports may bind; when not, its
    /// star imports bind nothing and load nothing.
    pub home_star_imports_needed: bool,
}

impl<'a> Project<'a> {
    pub fn new(search: ImportSearch, arena: &'a ModuleArena) -> Self {
        Project::with_search(Rc::new(search), arena)
    }

    fn with_search(search: Rc<ImportSearch>, arena: &'a ModuleArena) -> Self {
        Project {
            search,
            arena,
            loaded: Vec::new(),
            ids: HashMap::default(),
            by_path: HashMap::default(),
            owner: HashMap::default(),
            current: None,
            home_globals: Rc::default(),
            building: Vec::new(),
            lookups: Vec::new(),
            cuts: Vec::new(),
            partial: Vec::new(),
            read_partially: Vec::new(),
            located: HashMap::default(),
            also: Vec::new(),
            home_star_imports_needed: true,
        }
    }

    /// The module names looked up so far, by the analysed file and by every module load
    /// (a reused summary's lookups included), sorted and distinct.
    pub fn modules_looked_up(&self) -> Vec<String> {
        let mut names: Vec<String> = self.lookups.iter().map(|(n, _)| n.clone()).collect();
        names.sort_unstable();
        names.dedup();
        names
    }

    fn package(&self) -> &str {
        match self.current {
            Some(id) => &self.loaded[id].source.package,
            None => &self.search.package,
        }
    }
}

/// What [`Interp::enter_module`] changed, for [`Interp::leave_module`].
pub struct Switch {
    to: Option<usize>,
    from: Option<usize>,
    anchor: Option<TextRange>,
}

impl<'a> Interp<'a> {
    /// The value `from <dots><module> import name` binds when `module` is a file of the
    /// project: in the analysed file the definition itself, in a loaded module a lazy
    /// reference. `None` when the module is not part of the project.
    pub fn project_import(&mut self, level: u32, module: &str, name: &str) -> Option<V<'a>> {
        let absolute = self.project_module(level, module)?;
        if self.project.as_ref()?.current.is_some() {
            // `from . import backbones` in a package: Python runs the submodule now, and a
            // submodule whose definitions register themselves (`@register("name")`) fills
            // a registry that code reading it later sees.
            let sub = format!("{absolute}.{name}");
            let project = self.project.as_mut()?;
            if !project.ids.contains_key(&sub)
                && project
                    .search
                    .load(&sub)
                    .is_some_and(|s| self.registers_through_here(&s.ast.body))
            {
                self.load_module(&sub);
            }
            return Some(V::Lazy(Rc::new((absolute, name.to_string()))));
        }
        self.import_name(&absolute, name, 0)
    }

    /// Whether a module's top level decorates a definition with a decorator that registers
    /// it, by the name the running module binds it under (a package `__init__.py` importing
    /// the registry before its submodules).
    fn registers_through_here(&mut self, body: &[ruff_python_ast::Stmt]) -> bool {
        use ruff_python_ast::{Expr, Stmt};
        body.iter().any(|s| {
            let decorators = match s {
                Stmt::ClassDef(c) => &c.decorator_list,
                Stmt::FunctionDef(f) => &f.decorator_list,
                _ => return false,
            };
            decorators.iter().any(|d| match &d.expression {
                Expr::Call(c) => self.registering_decorator(&c.func, true),
                other => self.registering_decorator(other, false),
            })
        })
    }

    /// What `test` says of the function `name` defined at the top level of `module`'s text
    /// (false when it is not defined there), without loading the module.
    pub(super) fn defined_in_text(
        &mut self,
        module: &str,
        name: &str,
        test: impl Fn(&ruff_python_ast::StmtFunctionDef) -> bool,
    ) -> bool {
        let Some(project) = self.project.as_mut() else {
            return false;
        };
        let Some(source) = project.search.load(module) else {
            return false;
        };
        source.ast.body.iter().any(|s| {
            matches!(s, ruff_python_ast::Stmt::FunctionDef(f) if f.name.id.as_str() == name && test(f))
        })
    }

    /// The names `from <dots><module> import *` binds when `module` is a file of the project:
    /// those listed in its `__all__`, else its public globals (a module still loading, in
    /// an import cycle, binds nothing).
    pub fn project_star_import(&mut self, level: u32, module: &str) -> Vec<(String, V<'a>)> {
        if self
            .project
            .as_ref()
            .is_some_and(|p| p.current.is_none() && !p.home_star_imports_needed)
        {
            return Vec::new();
        }
        self.star_names(level, module).unwrap_or_default()
    }

    fn star_names(&mut self, level: u32, module: &str) -> Option<Vec<(String, V<'a>)>> {
        let absolute = self.project_module(level, module)?;
        let id = self.load_module(&absolute)?;
        let project = self.project.as_ref()?;
        if project.current == Some(id) {
            return None;
        }
        let globals = &project.loaded[id].globals;
        let listed: Option<Vec<String>> = match globals.get("__all__") {
            Some(seq) if let Some(items) = seq.sequence() => items
                .iter()
                .map(|v| v.known_str().map(str::to_string))
                .collect(),
            _ => None,
        };
        let names: Vec<String> = listed.unwrap_or_else(|| {
            let mut names: Vec<String> = globals
                .keys()
                .filter(|k| !k.starts_with('_'))
                .cloned()
                .collect();
            names.sort();
            names
        });
        Some(
            names
                .into_iter()
                .map(|name| {
                    let v = globals.get(&name).cloned().unwrap_or(V::Unknown);
                    (name, v)
                })
                .collect(),
        )
    }

    /// The name of `<dots><module>` when it may be a module of the project (torch never is):
    /// a relative import is looked up only in the folder its importing module was found in.
    fn project_module(&self, level: u32, module: &str) -> Option<String> {
        let project = self.project.as_ref()?;
        let absolute = ImportSearch::absolute(project.package(), level, module)?;
        if absolute == "torch" || absolute.starts_with("torch.") {
            return None;
        }
        if level == 0 {
            return Some(absolute);
        }
        let root = match project.current {
            Some(id) => Some(project.loaded[id].source.root.as_path()),
            None => project.search.package_root.as_deref(),
        };
        Some(match root {
            Some(root) => ImportSearch::located(root, &absolute),
            None => absolute,
        })
    }

    /// Resolves a lazy import (`hops`: re-exports followed so far): a modelled library
    /// object, else the project's definition, else what a direct import of a module outside
    /// the project gives (a torch path or unknown).
    pub fn resolve_import(&mut self, module: &str, name: &str, hops: usize) -> V<'a> {
        let python = ImportSearch::python_name(module);
        let path = format!("{python}.{name}");
        super::libraries::library_import(python, 0, name)
            .or_else(|| modelled(&path))
            .or_else(|| self.import_name(module, name, hops))
            .unwrap_or_else(|| super::interp::torch_module(&path))
    }

    /// `import a.b [as c]`: the module object when `path` is not modelled and is a module
    /// of the project or an installed package.
    pub fn import_module(&mut self, path: &str) -> V<'a> {
        if let Some(v) = modelled(path) {
            return v;
        }
        match self.load_module(path) {
            Some(_) => V::SourceModule(path.into()),
            None => V::Unknown,
        }
    }

    /// `module.attr` of a module object: a modelled object, a global of the module, or a
    /// submodule.
    pub fn module_attribute(&mut self, module: &str, attr: &str) -> V<'a> {
        self.resolve_import(module, attr, 0)
    }

    fn import_name(&mut self, module: &str, name: &str, hops: usize) -> Option<V<'a>> {
        if hops > MAX_REEXPORTS {
            return Some(V::Unknown);
        }
        let id = self.load_module(module)?;
        let project = self.project.as_mut()?;
        let found = if project.current == Some(id) {
            self.globals.get(name).cloned()
        } else {
            project.loaded[id].globals.get(name).cloned()
        };
        match found {
            // `from pkg import sub` in `pkg/__init__.py`: the submodule, not a re-export.
            Some(V::Lazy(target)) if target.0 == module && target.1 == name => {
                Some(self.submodule(module, name))
            }
            Some(V::Lazy(target)) => {
                let v = self.resolve_import(&target.0, &target.1, hops + 1);
                if let Some(p) = self.project.as_mut() {
                    if p.current != Some(id) {
                        Rc::make_mut(&mut p.loaded[id].globals).insert(name.to_string(), v.clone());
                    }
                }
                Some(v)
            }
            Some(v) => Some(v),
            // `from pkg import submodule` (a submodule not imported by the package itself).
            None => Some(self.submodule(module, name)),
        }
    }

    /// The submodule `module.name` as a module object, when it is a file of the project.
    fn submodule(&mut self, module: &str, name: &str) -> V<'a> {
        let sub = format!("{module}.{name}");
        match self.load_module(&sub) {
            Some(_) => V::SourceModule(sub.into()),
            None => V::Unknown,
        }
    }

    /// Loads `module` once per analysed file: its summary (see `summaries.rs`), built by
    /// running its top level in isolation or reused from an earlier load on this thread,
    /// merged into the project.
    fn load_module(&mut self, module: &str) -> Option<usize> {
        let project = self.project.as_mut()?;
        if let Some(id) = project.ids.get(module) {
            return *id;
        }
        if project.loaded.len() >= MAX_MODULES {
            return None;
        }
        let source = project.search.load(module);
        let found = source.as_ref().map(|s| (s.path.clone(), s.root.clone()));
        project.located.insert(module.to_string(), found.clone());
        project.lookups.push((module.to_string(), found));
        let Some(source) = source else {
            project.ids.insert(module.to_string(), None);
            return None;
        };
        // The same file reached by another name (relative and absolute) is one module.
        if let Some(&id) = project.by_path.get(&source.path) {
            project.ids.insert(module.to_string(), Some(id));
            return Some(id);
        }
        // An import cycle: the module's load is under way in an enclosing load. Python
        // hands out the module as far as it has run (`from . import register` in a
        // submodule its package's `__init__.py` imports after defining `register`).
        if project.building.contains(&source.path) {
            project.cuts.push(source.path.clone());
            let partial = project
                .partial
                .iter()
                .find(|m| m.source.path == source.path)
                .cloned();
            let id = partial.map(|m| {
                project.read_partially.push(m.source.path.clone());
                let id = project.loaded.len();
                project.by_path.insert(m.source.path.clone(), id);
                register_definitions(&mut project.owner, m.source, id);
                project.loaded.push(m);
                id
            });
            project.ids.insert(module.to_string(), id);
            return id;
        }
        let search = project.search.clone();
        let located = &mut project.located;
        let mut locate = |name: &str| {
            located
                .entry(name.to_string())
                .or_insert_with(|| summaries::locate(&search, name))
                .clone()
        };
        let summary = match summaries::cached(&source, module, &project.building, &mut locate) {
            Some(summary) => summary,
            None => {
                let summary = Rc::new(self.summarise(source.clone(), module)?);
                if summary.read_partially.is_empty() {
                    summaries::store(&source, module, summary.clone());
                }
                summary
            }
        };
        let id = self.merge_summary(&summary);
        if let Some(project) = self.project.as_mut() {
            project.ids.insert(module.to_string(), id);
        }
        id
    }

    /// Runs `source`'s top level (imported as `module`) in a project of its own, with the
    /// analysed file's state set aside: what it leaves is the module's summary.
    fn summarise(&mut self, source: Rc<SourceModule>, module: &str) -> Option<summaries::Summary> {
        let parent = self.project.as_ref()?;
        let mut sub = Project::with_search(parent.search.clone(), parent.arena);
        sub.building = parent.building.clone();
        sub.building.push(source.path.clone());
        sub.partial = parent.partial.clone();
        for (id, m) in parent.loaded.iter().enumerate() {
            if !parent.building.contains(&m.source.path) {
                continue;
            }
            // The running module's globals are the interpreter's; a module switched out
            // holds its own.
            let globals = match parent.current == Some(id) {
                true => self.globals.clone(),
                false => m.globals.clone(),
            };
            sub.partial.retain(|p| p.source.path != m.source.path);
            sub.partial.push(Loaded {
                globals,
                ..m.clone()
            });
        }
        let saved_project = self.project.replace(sub);
        let saved_globals = std::mem::take(&mut self.globals);
        let saved_classes = std::mem::take(&mut self.classes);
        let saved_hints = std::mem::take(&mut self.hints);
        let saved_steps = std::mem::replace(&mut self.file_steps, 0);
        let saved_plan = std::mem::take(&mut self.plan);
        let saved_anchor = self.anchor.take();
        let saved_captured = self.captured.take();
        let saved_applied = self.applied.take();
        let saved_callee = self.callee_at.take();
        let saved_run = self.isolate();
        self.run.loading = true;

        self.run_top_level(source.clone(), module);

        self.restore_isolated(saved_run);
        self.callee_at = saved_callee;
        self.applied = saved_applied;
        self.captured = saved_captured;
        self.anchor = saved_anchor;
        self.plan = saved_plan;
        self.file_steps = saved_steps;
        self.hints = saved_hints;
        let classes = std::mem::replace(&mut self.classes, saved_classes);
        self.globals = saved_globals;
        let sub = std::mem::replace(&mut self.project, saved_project)?;
        let cuts = enclosing_loads(sub.cuts, &source.path);
        // Reading this module half-run is reading what this load did: only an enclosing
        // module's state makes the summary depend on where it was made.
        let read_partially = enclosing_loads(sub.read_partially, &source.path);
        let modules = sub
            .loaded
            .into_iter()
            .map(|m| summaries::SummaryModule {
                source: m.rc,
                forked: summaries::needs_fork(&m.globals),
                globals: summaries::to_static(m.globals),
                lines: m.lines,
            })
            .collect();
        let mut lookups = sub.lookups;
        lookups.sort();
        lookups.dedup();
        let mut ids: Vec<(String, Option<usize>)> = sub.ids.into_iter().collect();
        ids.sort();
        Some(summaries::Summary {
            modules,
            also: sub.also,
            ids,
            classes: summaries::classes_to_static(classes),
            lookups,
            cuts,
            read_partially,
        })
    }

    /// Runs a module's top level as the first module of a fresh project.
    fn run_top_level(&mut self, source: Rc<SourceModule>, module: &str) -> Option<()> {
        let project = self.project.as_mut()?;
        let rc = source.clone();
        let source: &'a SourceModule = project.arena.alloc(source);
        let id = project.loaded.len();
        project.by_path.insert(source.path.clone(), id);
        let mut globals: HashMap<String, V<'a>> = HashMap::default();
        globals.insert(
            "__name__".to_string(),
            V::Data(Value::Str(Some(
                ImportSearch::python_name(module).to_string(),
            ))),
        );
        project.loaded.push(Loaded {
            source,
            rc,
            globals: Rc::new(globals),
            lines: Rc::new(crate::frontend::LineIndex::new(&source.text)),
        });
        project.ids.insert(module.to_string(), Some(id));
        register_definitions(&mut project.owner, source, id);
        let switch = self.enter_module(Some(id), TextRange::default());
        self.exec_block(&source.ast.body);
        // State left `None` at load time and set by a function with `global` (a process
        // group, a world size set by an initialiser) is set by the time the module's code
        // runs: unknown. A global with a value at load time is a default setting and keeps it.
        for name in rebound_globals(&source.ast.body) {
            if matches!(self.globals.get(name), Some(V::Data(Value::None))) {
                Rc::make_mut(&mut self.globals).insert(name.to_string(), V::Unknown);
            }
        }
        self.leave_module(switch);
        Some(())
    }

    /// Adds a copy of `summary`'s modules to the project (those it has already stay as they
    /// are); the id of the summarised module.
    fn merge_summary(&mut self, summary: &summaries::Summary) -> Option<usize> {
        let project = self.project.as_mut()?;
        let mut copies = summaries::Copies::default();
        let mut ids = Vec::with_capacity(summary.modules.len());
        let mut other_trees = Vec::new();
        let mut filled = Vec::new();
        for m in &summary.modules {
            let id = match project.by_path.get(&m.source.path) {
                // Loaded already, from this very tree: its definitions are registered; what
                // the summarised load added to its dicts (a registry filled by a module
                // that imports it) is added to them here, as it is to the one module
                // object in Python.
                Some(&id) if Rc::ptr_eq(&project.loaded[id].rc, &m.source) => {
                    // Globals still shared with the summary are the ones the project has.
                    let ours = Rc::as_ptr(&project.loaded[id].globals) as *const ();
                    if Rc::as_ptr(&m.globals) as *const () != ours {
                        filled.push((id, m.globals.clone()));
                    }
                    id
                }
                // Loaded from another parse of the file (imported under another name, which
                // is parsed on its own): this summary's values refer to its own tree.
                Some(&id) => {
                    let source: &'a SourceModule = project.arena.alloc(m.source.clone());
                    register_definitions(&mut project.owner, source, id);
                    other_trees.push(m.source.clone());
                    id
                }
                None => {
                    // Globals holding no instance are shared (copied on write); the
                    // others copied, so no file changes another's instances.
                    let globals = if m.forked {
                        Rc::new(
                            m.globals
                                .iter()
                                .map(|(k, v)| (k.clone(), summaries::copied(v, &mut copies)))
                                .collect(),
                        )
                    } else {
                        m.globals.clone()
                    };
                    let source: &'a SourceModule = project.arena.alloc(m.source.clone());
                    let id = project.loaded.len();
                    project.by_path.insert(m.source.path.clone(), id);
                    project.loaded.push(Loaded {
                        source,
                        rc: m.source.clone(),
                        globals: summaries::from_static(globals),
                        lines: m.lines.clone(),
                    });
                    register_definitions(&mut project.owner, source, id);
                    id
                }
            };
            ids.push(id);
        }
        for also in &summary.also {
            let source: &'a SourceModule = project.arena.alloc(also.clone());
            if let Some(&id) = project.by_path.get(&also.path) {
                register_definitions(&mut project.owner, source, id);
            }
            project.also.push(also.clone());
        }
        project.also.extend(other_trees);
        for (id, theirs) in filled {
            self.absorb_filled(id, &theirs, &mut copies);
        }
        let project = self.project.as_mut()?;
        for (name, index) in &summary.ids {
            project
                .ids
                .entry(name.clone())
                .or_insert(index.map(|i| ids[i]));
        }
        project.lookups.extend(summary.lookups.iter().cloned());
        project.cuts.extend(summary.cuts.iter().cloned());
        project
            .read_partially
            .extend(summary.read_partially.iter().cloned());
        let merged = summaries::copy_classes(&summary.classes, &self.classes, &mut copies);
        let merged: Classes<'a> = summaries::classes_from_static(merged);
        for (k, v) in merged.attrs {
            self.classes.attrs.entry(k).or_insert(v);
        }
        for (k, v) in merged.bases {
            self.classes.bases.entry(k).or_insert(v);
        }
        for (k, v) in merged.assigned {
            self.classes.assigned.entry(k).or_insert(v);
        }
        ids.first().copied()
    }

    /// What a summarised load added to the dicts of module `id`, which the project had
    /// loaded before (`theirs`: its globals as that load left them): added to the project's,
    /// and seen through every name holding them.
    fn absorb_filled(
        &mut self,
        id: usize,
        theirs: &Globals<'static>,
        copies: &mut summaries::Copies<'static>,
    ) {
        let Some(project) = self.project.as_ref() else {
            return;
        };
        let mine = match project.current == Some(id) {
            true => &self.globals,
            false => &project.loaded[id].globals,
        };
        let mut changes = Vec::new();
        for (name, v) in theirs.iter() {
            let (V::Dict(t), Some(V::Dict(m))) = (v, mine.get(name)) else {
                continue;
            };
            let added: Vec<(String, V<'a>)> = t
                .iter()
                .filter(|(k, _)| !m.iter().any(|(j, _)| j == k))
                .map(|(k, v)| {
                    let copy: V<'static> = summaries::copied(v, copies);
                    let v: V<'a> = summaries::value_from_static(copy);
                    (k.clone(), v)
                })
                .collect();
            if !added.is_empty() {
                let new = V::dict(m.iter().cloned().chain(added).collect());
                changes.push((V::Dict(m.clone()), new));
            }
        }
        for (old, new) in changes {
            self.update_other_modules(&old, &new);
            super::aliases::replace_in_globals(&mut self.globals, &old, &new);
        }
    }

    /// The names of the project's modules other than the running one that hold the list or
    /// dict `old` (imported by name: `from .registry import TABLE`) hold `new` instead.
    pub(super) fn update_other_modules(&mut self, old: &V<'a>, new: &V<'a>) {
        let Some(project) = self.project.as_mut() else {
            return;
        };
        let current = project.current;
        let others = project
            .loaded
            .iter_mut()
            .enumerate()
            .filter(|(id, _)| Some(*id) != current)
            .map(|(_, m)| &mut m.globals)
            .chain(current.is_some().then_some(&mut project.home_globals));
        for globals in others {
            super::aliases::replace_in_globals(globals, old, new);
        }
    }

    /// The module a function or class is defined in (`None`: the analysed file).
    pub fn module_of<T>(&self, def: &T) -> Option<usize> {
        let project = self.project.as_ref()?;
        project.owner.get(&(def as *const T as usize)).copied()
    }

    /// Makes `to`'s globals current before running its code; `span` is the call site, which
    /// becomes the anchor when code of another module starts running from the analysed file.
    pub fn enter_module(&mut self, to: Option<usize>, span: TextRange) -> Option<Switch> {
        let project = self.project.as_mut()?;
        let from = project.current;
        if from == to {
            return None;
        }
        let outgoing = std::mem::take(&mut self.globals);
        match from {
            Some(id) => project.loaded[id].globals = outgoing,
            None => project.home_globals = outgoing,
        }
        self.globals = match to {
            Some(id) => std::mem::take(&mut project.loaded[id].globals),
            None => std::mem::take(&mut project.home_globals),
        };
        project.current = to;
        let anchor = self.anchor;
        self.anchor = match (from, to) {
            (_, None) => None,
            (None, Some(_)) => Some(span),
            (Some(_), Some(_)) => anchor,
        };
        Some(Switch { to, from, anchor })
    }

    pub fn leave_module(&mut self, switch: Option<Switch>) {
        let (Some(s), Some(project)) = (switch, self.project.as_mut()) else {
            return;
        };
        let outgoing = std::mem::take(&mut self.globals);
        match s.to {
            Some(id) => project.loaded[id].globals = outgoing,
            None => project.home_globals = outgoing,
        }
        self.globals = match s.from {
            Some(id) => std::mem::take(&mut project.loaded[id].globals),
            None => std::mem::take(&mut project.home_globals),
        };
        project.current = s.from;
        self.anchor = s.anchor;
    }

    /// Where the operation at `range` is when code of another file of the project runs (not
    /// an installed package's: a finding there is the caller's to fix, at the call).
    pub fn origin(&self, range: TextRange) -> Option<super::trace::Origin> {
        self.anchor?;
        let project = self.project.as_ref()?;
        let loaded = &project.loaded[project.current?];
        if loaded.source.installed {
            return None;
        }
        let dir = project.search.file_dir.as_ref()?;
        Some(super::trace::Origin {
            path: relative_path(dir, &loaded.source.path)?,
            span: super::trace::Span::of(range, &loaded.source.text, &loaded.lines),
        })
    }

    /// The text of the module whose code runs now, when it is not the analysed file.
    pub fn running_text(&self) -> Option<&'a str> {
        let project = self.project.as_ref()?;
        let source: &'a SourceModule = project.loaded[project.current?].source;
        Some(source.text.as_str())
    }

    /// A span to store in a value created now: the anchor while another module's code runs.
    pub fn here(&self, span: TextRange) -> TextRange {
        self.anchor.unwrap_or(span)
    }
}

/// `to` relative to the folder `from`, `/`-separated (`../pkg/layers.py`).
fn relative_path(from: &std::path::Path, to: &std::path::Path) -> Option<String> {
    use std::path::Component;
    let a: Vec<Component> = from.components().collect();
    let b: Vec<Component> = to.components().collect();
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    if common == 0 {
        return None;
    }
    let mut parts: Vec<String> = vec!["..".to_string(); a.len() - common];
    for c in &b[common..] {
        parts.push(c.as_os_str().to_str()?.to_string());
    }
    Some(parts.join("/"))
}

/// What the analysis models at a dotted path (torch, numpy, torchvision's transforms, the
/// standard library ...), which wins over any source of the same name.
pub(super) fn modelled<'a>(path: &str) -> Option<V<'a>> {
    let v = super::interp::torch_module(path);
    (!v.is_unknown()).then_some(v)
}

/// The names functions and methods defined in `body` declare `global`.
fn rebound_globals(body: &[Stmt]) -> Vec<&str> {
    let mut names = Vec::new();
    for stmt in body {
        match stmt {
            Stmt::FunctionDef(f) => {
                names.extend(super::calls::declared_globals(&f.body));
                names.extend(rebound_globals(&f.body));
            }
            Stmt::ClassDef(c) => names.extend(rebound_globals(&c.body)),
            Stmt::If(s) => {
                names.extend(rebound_globals(&s.body));
                for clause in &s.elif_else_clauses {
                    names.extend(rebound_globals(&clause.body));
                }
            }
            Stmt::Try(s) => names.extend(rebound_globals(&s.body)),
            _ => {}
        }
    }
    names
}

/// Records `source` as the module of every function and class it defines.
/// The modules of `paths` other than `own` (the load being summarised), sorted and
/// distinct: the enclosing loads a summary depends on.
fn enclosing_loads(mut paths: Vec<PathBuf>, own: &std::path::Path) -> Vec<PathBuf> {
    paths.retain(|p| p != own);
    paths.sort();
    paths.dedup();
    paths
}

fn register_definitions(owner: &mut HashMap<usize, usize>, source: &SourceModule, id: usize) {
    owner.extend(source.definitions().iter().map(|&def| (def, id)));
}

#[cfg(test)]
mod tests {
    use crate::eval::imports::ImportSearch;
    use crate::findings::analyse_module;
    use crate::jobs::{JobSolver, DEFAULT_TIMEOUT};

    const FACTORY: &str = r#"
import functools
import types
from .acts import *
from .flags import is_fast
try:
    from torch.nn.functional import rms_norm
except ImportError:
    rms_norm = None
import torch.nn as nn

_NORMS = dict(batchnorm=nn.BatchNorm2d)
_ACTS = dict(gelu=GELU)

def get_norm_layer(norm_layer):
    assert isinstance(norm_layer, (type, str, types.FunctionType, functools.partial))
    if isinstance(norm_layer, functools.partial):
        norm_layer = norm_layer.func
    if isinstance(norm_layer, str):
        norm_layer = _NORMS[norm_layer.replace('_', '').lower()]
    return norm_layer

def get_act(name):
    if is_fast():
        return None
    return _ACTS[name]
"#;

    const MODEL: &str = r#"
import torch.nn as nn
from .layers.factory import get_norm_layer, get_act

def stages(c):
    return [("conv", nn.Conv2d(c, c, 3, padding=1))]

class Block(nn.Module):
    def __init__(self, c, norm_layer=nn.BatchNorm2d):
        super().__init__()
        norm_layer = get_norm_layer(norm_layer)
        for stage in stages(c):
            self.add_module(*stage)
        self.act = get_act('gelu')()
        self.norm = norm_layer(WIDTH)

    def forward(self, x):
        return self.norm(self.act(self.conv(x)))

def block():
    return Block(16, norm_layer='batch_norm')
"#;

    /// The findings of `pkg/model.py` with imports followed, `WIDTH` replaced by `width`.
    fn model_findings(width: &str) -> Vec<u32> {
        let dir = tempfile::tempdir().unwrap();
        let pkg = dir.path().join("pkg");
        std::fs::create_dir_all(pkg.join("layers")).unwrap();
        let files = [
            ("__init__.py", ""),
            ("layers/__init__.py", ""),
            ("layers/flags.py", "_FAST = False\n\ndef is_fast():\n    return _FAST\n"),
            (
                "layers/acts.py",
                "import torch.nn as nn\nimport torch.nn.functional as F\n\nclass GELU(nn.Module):\n    \
                 def forward(self, x):\n        return F.gelu(x)\n",
            ),
            ("layers/factory.py", FACTORY),
        ];
        for (name, text) in files {
            std::fs::write(pkg.join(name), text).unwrap();
        }
        let text = MODEL.replace("WIDTH", width);
        let path = pkg.join("model.py");
        std::fs::write(&path, &text).unwrap();
        let module = crate::frontend::parse_python(&text).unwrap();
        let search = ImportSearch::for_file(&path, dir.path());
        let mut solver = JobSolver::new(DEFAULT_TIMEOUT);
        let shapes = analyse_module(&module, &text, "model.py", (search, None), &mut solver);
        shapes.findings.iter().map(|f| f.span.line).collect()
    }

    /// The findings' lines of `main.py` next to `pkg/` (`pkg/layers.py` defines `Block`,
    /// whose output is 16 wide; `pkg/__init__.py` is `init`).
    fn module_object_findings(init: &str, main: &str) -> Vec<u32> {
        let dir = tempfile::tempdir().unwrap();
        let pkg = dir.path().join("pkg");
        std::fs::create_dir_all(&pkg).unwrap();
        std::fs::write(pkg.join("__init__.py"), init).unwrap();
        std::fs::write(
            pkg.join("layers.py"),
            "import torch.nn as nn\n\ndef Block():\n    return nn.Linear(4, 16)\n",
        )
        .unwrap();
        main_findings(
            dir.path(),
            &format!("import torch\nimport torch.nn as nn\n{main}\n"),
        )
    }

    /// The findings' lines of `main.py`, written with `text` in `dir`, imports followed.
    fn main_findings(dir: &std::path::Path, text: &str) -> Vec<u32> {
        let path = dir.join("main.py");
        std::fs::write(&path, text).unwrap();
        let module = crate::frontend::parse_python(text).unwrap();
        let search = ImportSearch::for_file(&path, dir);
        let mut solver = JobSolver::new(DEFAULT_TIMEOUT);
        let shapes = analyse_module(&module, text, "main.py", (search, None), &mut solver);
        shapes.findings.iter().map(|f| f.span.line).collect()
    }

    /// Modules as values: `import a.b as c`, `import a` then `a.b.x`, `from a import b`
    /// (a submodule the package never imports, or one its `__init__` imports by name).
    #[test]
    fn modules_imported_as_objects_expose_their_definitions() {
        let use_block = |get: &str, width: u32| {
            format!("y = nn.Linear({width}, 2)({get}()(torch.randn(3, 4)))")
        };
        for (init, import, get) in [
            ("", "import pkg.layers as L", "L.Block"),
            ("", "import pkg.layers", "pkg.layers.Block"),
            ("", "from pkg import layers", "layers.Block"),
            ("from pkg import layers", "import pkg", "pkg.layers.Block"),
            (
                "from . import layers",
                "from pkg import layers",
                "layers.Block",
            ),
        ] {
            let bug = format!("{import}\n{}", use_block(get, 8));
            assert_eq!(module_object_findings(init, &bug), vec![4], "{import}");
            let fixed = format!("{import}\n{}", use_block(get, 16));
            assert!(module_object_findings(init, &fixed).is_empty(), "{import}");
        }
        // A module that is not there stays unknown.
        assert!(module_object_findings("", "import pkg.nothing as L\ny = L.Block()(1)").is_empty());
    }

    /// Module state an initialiser sets with `global` (Megatron's process groups) is unknown
    /// when the module's functions run later; an `assert` there is quoted from its own file.
    #[test]
    fn globals_set_by_initialisers_are_unknown() {
        let dir = tempfile::tempdir().unwrap();
        let dist = "_GROUP = None\n\ndef init(g):\n    global _GROUP\n    _GROUP = g\n\n\
                    def world_size():\n    assert _GROUP is not None, 'not initialised'\n    return 2\n";
        std::fs::write(dir.path().join("dist.py"), dist).unwrap();
        let text = "import torch.nn as nn\nfrom dist import world_size\n\n\
                    class P(nn.Module):\n    def __init__(self):\n        super().__init__()\n        \
                    self.fc = nn.Linear(8, 8 // world_size())\n";
        let path = dir.path().join("main.py");
        std::fs::write(&path, text).unwrap();
        let module = crate::frontend::parse_python(text).unwrap();
        let search = ImportSearch::for_file(&path, dir.path());
        let mut solver = JobSolver::new(DEFAULT_TIMEOUT);
        let shapes = analyse_module(&module, text, "main.py", (search, None), &mut solver);
        assert!(shapes.findings.is_empty(), "{:?}", shapes.findings);
    }

    /// A registry filled at import time: `pkg/registry.py` holds `TABLE`, a `@register(name)`
    /// decorator and an `add(name, cls)` function; `pkg/things.py` registers a class each
    /// way; `pkg/__init__.py` imports the registry, then `things`. `main` reads it.
    fn registry_findings(main: &str) -> Vec<u32> {
        let dir = tempfile::tempdir().unwrap();
        let pkg = dir.path().join("pkg");
        std::fs::create_dir_all(&pkg).unwrap();
        let files = [
            ("__init__.py", "from .registry import TABLE, register\nfrom . import things\n"),
            (
                "registry.py",
                "TABLE = {}\n\ndef register(name):\n    def wrap(cls):\n        TABLE[name] = cls\n        \
                 return cls\n    return wrap\n\ndef add(name, cls):\n    TABLE[name] = cls\n",
            ),
            (
                "things.py",
                "from .registry import register, add\n\n@register('a')\nclass A:\n    pass\n\n\
                 class B:\n    pass\n\nadd('b', B)\n",
            ),
        ];
        for (name, text) in files {
            std::fs::write(pkg.join(name), text).unwrap();
        }
        main_findings(dir.path(), &format!("import torch\n{main}\n"))
    }

    /// What modules register at import time (a decorator, a function), the registry's
    /// readers see, whichever module they read it through and whenever it was loaded; each
    /// case with the width torch 2.15 accepts (`[3, len(TABLE)] @ [WIDTH, 2]`) and one it
    /// rejects.
    #[test]
    fn registries_filled_at_import_time_are_seen_by_their_readers() {
        let cases = [
            // Through the package, whose `__init__` runs `things`.
            ("from pkg import TABLE", "2"),
            // The registry loaded first, `things` after it.
            ("from pkg.registry import TABLE\nimport pkg.things", "2"),
            // The reader registers one more.
            (
                "from pkg import TABLE\nfrom pkg.registry import add\nclass C:\n    pass\nadd('c', C)",
                "3",
            ),
        ];
        for (main, width) in cases {
            let read =
                |w: &str| format!("{main}\ny = torch.zeros(3, len(TABLE)) @ torch.zeros({w}, 2)");
            let line = main.lines().count() as u32 + 2;
            assert_eq!(registry_findings(&read("5")), vec![line], "{main}");
            assert!(registry_findings(&read(width)).is_empty(), "{main}");
        }
    }

    /// A registry its package's `__init__.py` defines, filled by a submodule the package
    /// imports after defining it, which imports `register` back from the half-run package
    /// (an import cycle, as Python runs it: the package so far). Twins verified under torch
    /// 2.15: two classes registered, `[3, 2] @ [5, 2]` fails.
    #[test]
    fn a_submodule_importing_its_half_run_package_sees_what_it_has_defined() {
        let dir = tempfile::tempdir().unwrap();
        let pkg = dir.path().join("pkg");
        std::fs::create_dir_all(&pkg).unwrap();
        let init = "TABLE = {}\n\ndef register(name):\n    def wrap(cls):\n        \
                    TABLE[name] = cls\n        return cls\n    return wrap\n\nfrom . import things\n";
        let things = "from . import register\nfrom pkg import register as reg2\n\n\
                      @register('a')\nclass A:\n    pass\n\n@reg2('b')\nclass B:\n    pass\n";
        std::fs::write(pkg.join("__init__.py"), init).unwrap();
        std::fs::write(pkg.join("things.py"), things).unwrap();
        let main = |w: u32| {
            format!("import torch\nfrom pkg import TABLE\ny = torch.zeros(3, len(TABLE)) @ torch.zeros({w}, 2)\n")
        };
        assert_eq!(main_findings(dir.path(), &main(5)), vec![3]);
        assert!(main_findings(dir.path(), &main(2)).is_empty());
    }

    /// The findings' lines of each of `files` (name, text) written to one folder, analysed in
    /// turn on this thread (so later files reuse the summaries earlier ones built), for the
    /// names in `analysed`.
    fn findings_in_turn(files: &[(&str, &str)], analysed: &[&str]) -> Vec<Vec<u32>> {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in files {
            std::fs::write(dir.path().join(name), text).unwrap();
        }
        analysed
            .iter()
            .map(|name| {
                let path = dir.path().join(name);
                let text = std::fs::read_to_string(&path).unwrap();
                let module = crate::frontend::parse_python(&text).unwrap();
                let search = ImportSearch::for_file(&path, dir.path());
                let mut solver = JobSolver::new(DEFAULT_TIMEOUT);
                let shapes = analyse_module(&module, &text, name, (search, None), &mut solver);
                shapes.findings.iter().map(|f| f.span.line).collect()
            })
            .collect()
    }

    /// A summary shared between importing files is copied: a file that changes an imported
    /// module's object does not change it for the next file, and each file's findings are
    /// the same whichever files ran before it on the thread (import cycles included).
    #[test]
    fn shared_summaries_never_leak_between_files() {
        let files = [
            (
                "state.py",
                "import torch.nn as nn\nimport other\n\nclass Holder:\n    def __init__(self):\n        \
                 self.width = 16\n\ncfg = Holder()\n",
            ),
            ("other.py", "import state\n\nWIDTH = 16\n"),
            (
                "a.py",
                "import torch\nimport torch.nn as nn\nfrom state import cfg\ncfg.width = 8\n\
                 y = nn.Linear(cfg.width, 2)(torch.randn(3, 16))\n",
            ),
            (
                "b.py",
                "import torch\nimport torch.nn as nn\nfrom state import cfg\nfrom other import WIDTH\n\
                 y = nn.Linear(cfg.width, 2)(torch.randn(3, WIDTH))\n\
                 z = nn.Linear(WIDTH, 2)(torch.randn(3, 15))\n",
            ),
        ];
        let alone_a = findings_in_turn(&files, &["a.py"]);
        let alone_b = findings_in_turn(&files, &["b.py"]);
        assert_eq!(alone_a, vec![vec![5]]);
        assert_eq!(alone_b, vec![vec![6]]);
        assert_eq!(
            findings_in_turn(&files, &["a.py", "b.py", "a.py"]),
            vec![alone_a[0].clone(), alone_b[0].clone(), alone_a[0].clone()]
        );
        assert_eq!(
            findings_in_turn(&files, &["b.py", "a.py", "b.py"]),
            vec![alone_b[0].clone(), alone_a[0].clone(), alone_b[0].clone()]
        );
    }

    /// A module's globals without instances are shared between importing files until one
    /// writes them: a global a file's call rebinds is rebound for that file only.
    #[test]
    fn shared_globals_are_copied_on_write() {
        let files = [
            (
                "sizes.py",
                "WIDTH = 16\n\ndef narrow():\n    global WIDTH\n    WIDTH = 8\n",
            ),
            (
                "c.py",
                "import torch\nimport torch.nn as nn\nimport sizes\nsizes.narrow()\n\
                 y = nn.Linear(sizes.WIDTH, 2)(torch.randn(3, 16))\n",
            ),
            (
                "d.py",
                "import torch\nimport torch.nn as nn\nimport sizes\n\
                 y = nn.Linear(sizes.WIDTH, 2)(torch.randn(3, 8))\n",
            ),
        ];
        let alone_c = findings_in_turn(&files, &["c.py"]);
        let alone_d = findings_in_turn(&files, &["d.py"]);
        assert_eq!(alone_c, vec![vec![5]]);
        assert_eq!(alone_d, vec![vec![4]]);
        assert_eq!(
            findings_in_turn(&files, &["c.py", "d.py", "c.py", "d.py"]),
            vec![vec![5], vec![4], vec![5], vec![4]]
        );
    }

    /// timm's factories across files: an activation class reached through a star import, a
    /// function imported before a `try` whose branches are joined, `isinstance` against
    /// `type`/`functools.partial`/`str` deciding the norm layer, and layers registered with
    /// `add_module(*pair)`.
    #[test]
    fn factories_star_imports_and_add_module_pairs_are_followed() {
        assert_eq!(model_findings("c + 1"), vec![18]);
        assert!(model_findings("c").is_empty());
    }
}
