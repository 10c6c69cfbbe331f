//! Units of analysis: the module's own code (with its concrete entry calls), every
//! `nn.Module` subclass (constructed with symbolic or default hyperparameters, `forward` run on
//! symbolic inputs of each plausible rank), and parameterless test functions.
//!
//! ## File by file
//!
//! `params.rs` decides what a unit's parameters are (tensor, rank pinned by unpacking or by an
//! einsum subscript without `...`, or declared by a helper the argument is passed to unchanged,
//! annotated shape — jaxtyping, torchtyping, `T[...]`, or a docstring declaration read by
//! `docstring.rs` — size, unknown) from annotations and use (the weights, second factors and
//! targets of torch functions, `tensor_operands`, are tensors; the arguments of a reshape-like
//! method and those in the place of a size parameter of a function of the file the body calls,
//! `classify_with`, are sizes, and those in the place of its tensor parameters tensors, as are the
//! arguments of `self(...)` and subscripts over several axes such as `boxes[:, 0]`; its tests are
//! in `params_tests.rs`); `crate::units` runs the units: the module's own code (concrete entry
//! calls), each `nn.Module` subclass (`__init__` with size symbols or defaults, run once;
//! `forward` on symbolic inputs, one run per rank variant, each from a checkpoint of the built
//! model), functions with tensor inputs (`variants.rs` binds each variant's inputs and runs them:
//! a run that meets a question a rule cannot settle runs again once per answer, at most 2 deep,
//! `with_splits`: a finding needs every run to fail; at most 36 rank variants, inputs past that
//! are deferred — unknown at first, then, in `run_all_variants`, tried at every rank for the few
//! variants that do not already fail for certain (`Trace::fails_for_certain`), within 48 more runs
//! and unless those runs take remainders of symbolic terms; parameters with a default, `None`
//! included, run with it, as a caller omitting them calls; a function's int size defaults of 0 or
//! less run as unknown ints, `with_free_int_sizes`; when the class or function docstring's prose
//! describes one input shape — `docstring::described_shape`, a bracketed group with a batch dim,
//! the only one — a documented variant runs first, `documented_variant`: a hint, never a fact,
//! that names a finding's location when every variant fails, unless the documented rank fails on a
//! rank check while another rank fails on sizes, `findings::unit_finding`; a shape an `Args:`
//! docstring declares binds its input unless every run then fails for certain on a rank, when
//! the input runs at every rank instead, `run_all_variants`), a module class's
//! public tensor-taking methods besides `forward` (`class_methods.rs`: at most 4, on the model
//! `__init__` built, with the attributes other methods assign unknown), and builders (functions
//! callable without arguments that return a model of a module class of the file, e.g.
//! `resnet18()`: the model is built once and each rank variant of its `forward` starts from a
//! checkpoint of it; at most 8 per file, spread evenly over the file's candidates so that each
//! family of variants gets a run). Each unit has its own statement budget (20,000, with 200,000
//! per file) and calls nest at most 12 deep.

pub mod assumptions;
pub mod class_methods;
pub mod docstring;
pub mod params;
mod star_imports;
pub mod variants;

use rustc_hash::FxHashMap as HashMap;
use std::collections::BTreeSet;

use ruff_python_ast::{ModModule, Stmt, StmtClassDef, StmtFunctionDef};
use ruff_text_size::TextRange;

use self::assumptions::{apply_all, declare, Applied, Assumption};
use self::class_methods::{state_stored_outside_init, tensor_methods, MAX_METHODS};
use self::docstring::{body_docstring, described_shape, docstring};
use self::params::{classify, classify_with, docstring_declared, Default, Kinds, ParamKind};
use self::variants::{
    bind_inputs, check_declared_return, documented_variant, run_all_variants, Choice,
};
use crate::eval::data_files::{DataFiles, Place};
use crate::eval::domains::DomainChoice;
use crate::eval::imports::ImportSearch;
use crate::eval::interp::{AppliedOperators, Globals, Interp};
use crate::eval::project::{ModuleArena, Project};
use crate::eval::trace::{Span, Trace};
use crate::eval::value::V;
use crate::shapes::Value;

/// What kind of unit produced a trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum UnitKind {
    /// Module-level code, with concrete entry calls.
    Module,
    /// An `nn.Module` subclass: `__init__` then `forward`.
    Class,
    /// A function run on its own (a test function, or one with annotated tensor inputs).
    Function,
    /// A builder: a function callable without arguments that returns a model of a module
    /// class of the file (`resnet18()`), whose `forward` then runs on symbolic inputs.
    Builder,
    /// A public method of an `nn.Module` subclass other than `forward` that takes tensors
    /// (`loss(x, y)`, `sample(z)`), run on the model `__init__` built.
    Method,
}

impl UnitKind {
    pub fn name(self) -> &'static str {
        match self {
            UnitKind::Module => "module",
            UnitKind::Class => "class",
            UnitKind::Function => "function",
            UnitKind::Builder => "builder",
            UnitKind::Method => "method",
        }
    }
}

/// A unit of analysis: what runs on its own (the module's code, a model class, a function,
/// a builder, a model's method), where it is defined, and its runs. A finding needs every
/// run of a unit to fail.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Unit {
    /// `<module>`, the class or function name, or `Class.method`.
    pub name: String,
    pub kind: UnitKind,
    /// The name in its `class`/`def` statement (the file's start for the module).
    pub location: Span,
    /// In the order they run: the documented variant first, then rank variants and the
    /// splits of each.
    pub runs: Vec<UnitRun>,
}

/// One run of a unit: a rank assignment for its symbolic inputs is a variant.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct UnitRun {
    /// `x:4` style description of the input ranks chosen; empty for concrete runs.
    pub variant: String,
    pub trace: Trace,
    /// The input has the shape the docstring describes (`variants::documented_variant`).
    #[serde(default)]
    pub documented: bool,
    /// The value of a declared domain the run takes (`eval::domains`).
    #[serde(default)]
    pub domain: Option<DomainChoice>,
}

/// Builder functions run per file, at most: a library file with a hundred variants of one
/// model mostly repeats itself, so the ones run are spread over the file (its families of
/// variants, such as EfficientNet's B0-B7 and then V2, sit together).
const MAX_BUILDERS: usize = 8;
/// Runs every unit of a parsed file; `imports` finds the other files of its project (none:
/// every import from outside torch is unknown).
pub fn run_units(
    module: &ModModule,
    text: &str,
    imports: Option<ImportSearch>,
    place: Option<Place>,
) -> Vec<Unit> {
    run_units_in(module, text, (imports, place), false, assumptions::active()).units
}

/// [`run_units`] under the given assumptions rather than the run's.
#[cfg(test)]
pub fn run_units_assuming(module: &ModModule, text: &str, assumed: &[Assumption]) -> Vec<Unit> {
    run_units_in(module, text, (None, None), false, assumed).units
}

/// What running a file's units gives besides the units.
pub struct FileRun {
    pub units: Vec<Unit>,
    /// The operators the units apply directly at the file's call sites.
    pub applied: AppliedOperators,
    /// Whether the file's statement budget ran out (`crate::budget`).
    pub over_budget: bool,
    /// Every module name looked up in the project or installed packages, by the file and by
    /// the modules it loaded (reused summaries included), sorted: the result holds while each
    /// still resolves to the same file with the same text (`dataflow/cache.rs`).
    pub modules_looked_up: Vec<String>,
}

/// [`run_units`], with the operators the units apply directly at the file's call sites: what
/// the analysis resolves calls to (precise counting adds those it does not resolve itself;
/// `tests/resolution_agreement.rs` compares the two), and the modules looked up.
pub fn run_units_noting_operators(
    module: &ModModule,
    text: &str,
    imports: Option<ImportSearch>,
    place: Option<Place>,
) -> FileRun {
    run_units_in(module, text, (imports, place), true, assumptions::active())
}

fn run_units_in(
    module: &ModModule,
    text: &str,
    (imports, place): (Option<ImportSearch>, Option<Place>),
    note_applied: bool,
    assumed: &[Assumption],
) -> FileRun {
    let arena = ModuleArena::new();
    let mut interp = Interp::new(text);
    if note_applied {
        interp.applied = Some(BTreeSet::new());
    }
    interp.project = imports.map(|search| {
        ImportSearch::start_file();
        let mut project = Project::new(search, &arena);
        project.home_star_imports_needed = star_imports::needs_star_imports(module);
        project
    });
    std::rc::Rc::make_mut(&mut interp.globals).insert(
        "__name__".to_string(),
        V::Data(Value::Str(Some("__main__".into()))),
    );
    interp.data_files = place.map(DataFiles::new);
    if let Some(file) = interp.file_dunder() {
        std::rc::Rc::make_mut(&mut interp.globals).insert("__file__".to_string(), file);
    }
    let initial_globals = interp.globals.clone();
    interp.plan.stated_ranges = crate::eval::domains::stated_ranges(&module.body);
    interp.plan.domains = true;
    interp.plan.symbolic_wanted = false;
    interp.exec_block(&module.body);
    interp.plan.domains = false;
    let domain = interp.plan.domain_wanted.take();
    let symbolic_wanted = std::mem::take(&mut interp.plan.symbolic_wanted);
    interp.classes.settle();
    let mut units = vec![Unit {
        name: "<module>".to_string(),
        kind: UnitKind::Module,
        location: interp.position(TextRange::default()),
        runs: vec![UnitRun {
            variant: String::new(),
            trace: std::mem::take(&mut interp.run.trace),
            documented: false,
            domain: None,
        }],
    }];
    let globals = interp.globals.clone();
    let guess_tensors = may_hold_torch_tensors(module);
    let mut candidates = Vec::new();
    for stmt in &module.body {
        match stmt {
            Stmt::ClassDef(class) if interp.is_module_class(class) => {
                units.extend(run_class(&mut interp, &globals, class, assumed));
            }
            Stmt::FunctionDef(def) => {
                units.extend(run_function(
                    &mut interp,
                    &globals,
                    def,
                    guess_tensors,
                    assumed,
                ));
                if may_build(def) {
                    candidates.push(def);
                }
            }
            _ => {}
        }
    }
    let mut builders = 0;
    for i in spread_order(candidates.len(), MAX_BUILDERS) {
        if builders == MAX_BUILDERS {
            break;
        }
        let built = run_builder(&mut interp, &globals, candidates[i], assumed);
        builders += usize::from(built.is_some());
        units.extend(built);
    }
    // The module's code over a declared domain: once per value, in place of the run that
    // took every value in turn (and stopped at the first that fails). Last, so that what
    // these runs leave reaches no other unit.
    let operations = units[0].runs[0].trace.ops > 0;
    if let (Some((at, labels)), true) = (domain, operations) {
        let runs = (0..labels.len())
            .map(|index| {
                let choice = DomainChoice {
                    labels: labels.clone(),
                    index: index as u32,
                };
                reset(&mut interp, &initial_globals);
                interp.plan.domains = true;
                interp.plan.domain = Some((at, choice.clone()));
                interp.exec_block(&module.body);
                interp.plan.domains = false;
                interp.plan.domain = None;
                interp.plan.domain_wanted = None;
                UnitRun {
                    variant: format!("[{}]", choice.label()),
                    trace: std::mem::take(&mut interp.run.trace),
                    documented: false,
                    domain: Some(choice),
                }
            })
            .collect();
        let location = units[0].location;
        let by_value = units_by_domain("<module>", UnitKind::Module, location, runs);
        units.splice(0..1, by_value);
    }
    // Declared options with too many values to run one by one: the module's code once more,
    // every declared int option a symbol (`eval::domains`); first, so that its finding,
    // which names the failing values, is the one reported at an operation both reach.
    // A question a rule cannot settle (`chunk` of a dim that may be odd) splits the run, so
    // that each value is in some run whichever way it answers.
    if symbolic_wanted && operations {
        interp.plan.symbolic_domains = true;
        let runs = variants::with_splits(&mut interp, |interp| {
            reset(interp, &initial_globals);
            interp.plan.domains = true;
            interp.exec_block(&module.body);
            interp.plan.domains = false;
            "[declared ranges]".to_string()
        });
        interp.plan.symbolic_domains = false;
        let runs: Vec<UnitRun> = runs
            .into_iter()
            .filter(|r| !r.trace.domain_symbols.is_empty())
            .collect();
        if !runs.is_empty() {
            let location = units[0].location;
            let by_value = units_by_domain(
                "<module> [declared ranges]",
                UnitKind::Module,
                location,
                runs,
            );
            units.splice(0..0, by_value);
        }
    }
    let mut modules_looked_up = interp
        .project
        .as_ref()
        .map(Project::modules_looked_up)
        .unwrap_or_default();
    if let Some(files) = &interp.data_files {
        modules_looked_up.extend(files.read());
        modules_looked_up.sort();
    }
    FileRun {
        units,
        applied: interp.applied.unwrap_or_default(),
        over_budget: interp.file_over_budget,
        modules_looked_up,
    }
}

/// A unit of `kind` defined at `name`; `None` when nothing ran.
fn unit(
    interp: &Interp<'_>,
    name: &str,
    kind: UnitKind,
    at: TextRange,
    runs: Vec<UnitRun>,
) -> Option<Unit> {
    (!runs.is_empty()).then(|| Unit {
        name: name.to_string(),
        kind,
        location: interp.position(at),
        runs,
    })
}

/// The units of `runs`: one, or with runs that take values of a declared domain, one per
/// value (`name [k=7]`), each a question of its own: a value whose every run fails is a
/// finding, whatever the other values do (`eval::domains`).
fn units_by_domain(
    name: &str,
    kind: UnitKind,
    location: crate::eval::trace::Span,
    runs: Vec<UnitRun>,
) -> Vec<Unit> {
    let mut groups: Vec<(Option<DomainChoice>, Vec<UnitRun>)> = Vec::new();
    for run in runs {
        match groups.iter_mut().find(|(d, _)| *d == run.domain) {
            Some((_, group)) => group.push(run),
            None => groups.push((run.domain.clone(), vec![run])),
        }
    }
    groups
        .into_iter()
        .map(|(domain, runs)| Unit {
            name: match &domain {
                Some(d) => format!("{name} [{}]", d.label()),
                None => name.to_string(),
            },
            kind,
            location,
            runs,
        })
        .collect()
}

/// The indices `0..n` with `m` evenly spaced ones first (the first and the last among
/// them; distinct, since the step is at least 1 when `n > m`), then the others in order.
fn spread_order(n: usize, m: usize) -> Vec<usize> {
    let mut order: Vec<usize> = if n <= m || m < 2 {
        Vec::new()
    } else {
        (0..m).map(|k| k * (n - 1) / (m - 1)).collect()
    };
    let mut chosen = vec![false; n];
    for &i in &order {
        chosen[i] = true;
    }
    order.extend((0..n).filter(|&i| !chosen[i]));
    order
}

fn reset<'a>(interp: &mut Interp<'a>, globals: &Globals<'a>) {
    interp.globals = globals.clone();
    interp.classes.assigned.clear();
    interp.run.locals.clear();
    interp.run.global_names.clear();
    interp.run.guards.clear();
    interp.run.dead = false;
    interp.run.trace = Trace::default();
    interp.reset_symbols();
    interp.new_unit_budget();
}

/// Records what the user's assumptions say about a run's `inputs` (those `earlier` inputs
/// alone decide were recorded with them): facts, or that the run is excluded.
fn assume<'a>(
    interp: &mut Interp<'a>,
    assumed: &[Assumption],
    earlier: &[(String, V<'a>)],
    inputs: &[(String, V<'a>)],
) {
    let trace = &mut interp.run.trace;
    apply_all(assumed, earlier, inputs, |i, applied| {
        trace.assumptions.push(i);
        match applied {
            Applied::Fact(p) => {
                trace.fact(p.clone(), None);
                trace.assumed.push(p);
            }
            Applied::Excludes(why) => {
                trace.excluded.get_or_insert(why);
            }
            Applied::Holds | Applied::NotApplicable => {}
        }
    });
}

/// The class's `forward` (its own or a base's in the file).
fn forward_of<'a>(interp: &Interp<'a>, class: &'a StmtClassDef) -> Option<&'a StmtFunctionDef> {
    match interp.class_member(class, "forward") {
        Some(V::Func(f)) => Some(f),
        _ => None,
    }
}

fn init_of<'a>(interp: &Interp<'a>, class: &'a StmtClassDef) -> Option<&'a StmtFunctionDef> {
    match interp.class_member(class, "__init__") {
        Some(V::Func(f)) => Some(f),
        _ => None,
    }
}

/// The functions of the file by name, for the size evidence of [`classify_with`].
fn helper_defs<'g, 'a>(
    globals: &'g HashMap<String, V<'a>>,
) -> impl Fn(&str) -> Option<&'a StmtFunctionDef> + 'g {
    move |name| match globals.get(name) {
        Some(V::Func(def)) => Some(*def),
        _ => None,
    }
}

/// Runs a module class: `__init__` once with symbolic size parameters (or their defaults),
/// then `forward` once per variant of its inputs (see [`run_variants`]).
fn run_class<'a>(
    interp: &mut Interp<'a>,
    globals: &Globals<'a>,
    class: &'a StmtClassDef,
    assumed: &[Assumption],
) -> Vec<Unit> {
    let Some(forward) = forward_of(interp, class) else {
        return Vec::new();
    };
    let init = init_of(interp, class);
    let ctor_choices: Vec<(String, Choice)> = init
        .map(|init| {
            let mut kinds = classify_with(init, true, false, &helper_defs(globals));
            declare(&mut kinds, assumed);
            kinds
                .into_iter()
                .filter(|(_, _, default)| *default == Default::Absent)
                .map(|(n, k, _)| {
                    let c = match k {
                        ParamKind::Size => Choice::Size,
                        ParamKind::NamedSize(dim) => Choice::NamedSize(dim),
                        _ => Choice::Unknown,
                    };
                    (n, c)
                })
                .chain(empty_collection_defaults(init).map(|n| (n, Choice::Unknown)))
                .collect()
        })
        .unwrap_or_default();
    // Whatever a caller might pass through `*args` or `**kwargs` is unknown.
    let init_kwargs =
        init.is_some_and(|i| i.parameters.kwarg.is_some() || i.parameters.vararg.is_some());
    let unit = class.name.id.as_str();
    reset(interp, globals);
    // Dims the constructor's arguments name (`D["in"]`) are the same in `forward`'s
    // annotations.
    let mut ctor_dims = HashMap::default();
    let (mut ctor, _) = bind_inputs(interp, &ctor_choices, &mut ctor_dims);
    let ctor_dims = &ctor_dims;
    assume(interp, assumed, &[], &ctor);
    if init_kwargs {
        ctor.push(("**".to_string(), V::Unknown));
    }
    let obj = interp.instantiate(class, Vec::new(), ctor.clone(), class.range);
    let methods: Vec<_> = tensor_methods(class).take(MAX_METHODS).collect();
    let built = (!methods.is_empty()).then(|| interp.checkpoint(&obj));
    let mut kinds = classify(forward, true, true);
    declare(&mut kinds, assumed);
    let runs = run_variants(interp, forward, &kinds, &obj, assumed, (&ctor, ctor_dims));
    let mut units: Vec<Unit> = self::unit(interp, unit, UnitKind::Class, class.name.range, runs)
        .into_iter()
        .collect();
    if let Some(built) = built {
        interp.rewind(&built);
        // A method runs after whatever calls came before it: what they store (anchors a
        // `forward` caches, a target set by `set_target`) is unknown, not `__init__`'s
        // placeholder.
        for c in interp.ancestry(class) {
            for attr in state_stored_outside_init(c) {
                interp.set_attr(&obj, &attr, V::Unknown);
            }
        }
        let state = interp.checkpoint(&obj);
        for (method, kinds) in methods {
            interp.rewind(&state);
            let name = format!("{unit}.{}", method.name.id);
            let mut kinds = kinds;
            declare(&mut kinds, assumed);
            let runs = run_variants(interp, method, &kinds, &obj, assumed, (&ctor, ctor_dims));
            units.extend(self::unit(
                interp,
                &name,
                UnitKind::Method,
                method.name.range,
                runs,
            ));
        }
    }
    units
}

/// A built model's `forward` (or another of its methods), once per rank variant of its inputs
/// (`kinds`: `forward`'s inputs are tensors by convention, another method's only by
/// evidence). Each run starts from a
/// checkpoint taken now (trace, symbols, the model's attributes), so no state leaks between
/// runs; when building the model already failed, each run keeps only the build's trace.
fn run_variants<'a>(
    interp: &mut Interp<'a>,
    forward: &'a StmtFunctionDef,
    kinds: &Kinds,
    model: &V<'a>,
    assumed: &[Assumption],
    (ctor, ctor_dims): (&[(String, V<'a>)], &HashMap<String, crate::shapes::DimExpr>),
) -> Vec<UnitRun> {
    let built = interp.checkpoint(model);
    // A module's class docstring describes what its `forward` takes.
    let class_doc = match model {
        V::Object(obj) if forward.name.id.as_str() == "forward" => {
            body_docstring(&obj.borrow().class.body)
        }
        _ => None,
    };
    let docs: Vec<&str> = class_doc.into_iter().chain(docstring(forward)).collect();
    let documented = described_shape(&docs).and_then(|dims| documented_variant(kinds, dims));
    let declared = docstring_declared(forward, kinds);
    run_all_variants(interp, kinds, documented, &declared, |interp, choices| {
        interp.rewind(&built);
        let mut named = ctor_dims.clone();
        let (args, variant) = bind_inputs(interp, choices, &mut named);
        let inputs: Vec<(String, V<'a>)> = ctor.iter().chain(&args).cloned().collect();
        assume(interp, assumed, ctor, &inputs);
        if !interp.run.dead && interp.run.trace.excluded.is_none() {
            let (this, span) = (Some(model.clone()), TextRange::default());
            let out = interp.call_user(forward, this, Vec::new(), args, span);
            check_declared_return(interp, forward, &out, &mut named);
            interp.run.trace.returned = returned_shapes(&out);
        }
        variant
    })
}

/// A top-level function with at least one tensor parameter, or with no parameter at all
/// (a test, a `main`, a demo that builds its own tensors: what it does is what any call
/// does): run once per variant of its inputs.
fn run_function<'a>(
    interp: &mut Interp<'a>,
    globals: &Globals<'a>,
    def: &'a StmtFunctionDef,
    guess_tensors: bool,
    assumed: &[Assumption],
) -> Vec<Unit> {
    let mut kinds = classify_with(def, false, false, &helper_defs(globals));
    declare(&mut kinds, assumed);
    if !guess_tensors {
        for (_, kind, _) in kinds.iter_mut() {
            if kind.is_tensor() {
                *kind = ParamKind::Unknown;
            }
        }
    }
    let tensors = kinds
        .iter()
        .any(|(_, k, d)| *d == Default::Absent && k.is_tensor());
    let bare = def.parameters.is_empty() && !def.is_async;
    if !(tensors || bare) {
        return Vec::new();
    }
    let kinds = with_free_int_sizes(def, kinds);
    let documented = docstring(def)
        .and_then(|doc| described_shape(&[doc]))
        .and_then(|dims| documented_variant(&kinds, dims));
    // A script's driver (`main()`) declares domains by looping over literal values.
    interp.plan.domains = bare;
    let declared = docstring_declared(def, &kinds);
    let runs = run_all_variants(interp, &kinds, documented, &declared, |interp, choices| {
        reset(interp, globals);
        let mut named = HashMap::default();
        let (args, variant) = bind_inputs(interp, choices, &mut named);
        assume(interp, assumed, &[], &args);
        if interp.run.trace.excluded.is_none() {
            let out = interp.call_user(def, None, Vec::new(), args, TextRange::default());
            check_declared_return(interp, def, &out, &mut named);
            interp.run.trace.returned = returned_shapes(&out);
        }
        variant
    });
    interp.plan.domains = false;
    if runs.is_empty() {
        return Vec::new();
    }
    let location = interp.position(def.name.range);
    units_by_domain(def.name.id.as_str(), UnitKind::Function, location, runs)
}

/// The tensors a unit returned (one, or a tuple's or list's), each with its dims when its
/// rank is known; nothing when it returned anything else.
fn returned_shapes(out: &V<'_>) -> Vec<Option<Vec<Option<crate::shapes::DimExpr>>>> {
    let dims = |v: &V<'_>| match v {
        V::Data(Value::Tensor(t)) => Some(match &t.shape {
            crate::shapes::Shape::Ranked(dims) => Some(
                dims.iter()
                    .map(|d| match d {
                        crate::shapes::Dim::Known(e) => Some(e.clone()),
                        crate::shapes::Dim::Dyn => None,
                    })
                    .collect(),
            ),
            crate::shapes::Shape::Partial { .. } => None,
        }),
        _ => None,
    };
    match out {
        seq if let Some(items) = seq.sequence() => {
            let all: Option<Vec<_>> = items.iter().map(dims).collect();
            all.unwrap_or_default()
        }
        one => dims(one).into_iter().collect(),
    }
}

/// Whether a parameter that is used like a tensor may be taken for a torch tensor: not in
/// a file that imports another array library (numpy, TensorFlow, JAX, ...) and nothing of
/// torch's ecosystem, where `x.reshape(...)` or `x.T` is that library's array. A file that
/// imports no array library at all (a helper module of a torch package) keeps the guess.
fn may_hold_torch_tensors(module: &ModModule) -> bool {
    let mut roots = Vec::new();
    collect_import_roots(&module.body, &mut roots);
    let torch = |r: &str| {
        r.starts_with("torch")
            || matches!(
                r,
                "timm"
                    | "transformers"
                    | "diffusers"
                    | "lightning"
                    | "pytorch_lightning"
                    | "accelerate"
            )
    };
    let other = |r: &str| {
        matches!(
            r,
            "numpy"
                | "tensorflow"
                | "keras"
                | "jax"
                | "flax"
                | "mxnet"
                | "paddle"
                | "cupy"
                | "sklearn"
                | "scipy"
                | "pandas"
        )
    };
    roots.iter().any(|r| torch(r)) || !roots.iter().any(|r| other(r))
}

/// The root modules of every import in `body`, nested blocks included, as
/// [`crate::resolve::import_bindings`] reads them (star imports included).
fn collect_import_roots(body: &[Stmt], roots: &mut Vec<String>) {
    use crate::resolve::{import_bindings, Imported};
    use ruff_python_ast::statement_visitor::{walk_stmt, StatementVisitor};
    struct Imports<'r>(&'r mut Vec<String>);
    impl<'s> StatementVisitor<'s> for Imports<'_> {
        fn visit_stmt(&mut self, stmt: &'s Stmt) {
            for b in import_bindings(stmt) {
                let module = match b.imported {
                    Imported::Module(path) => path,
                    Imported::Member {
                        level: 0, module, ..
                    }
                    | Imported::Star { level: 0, module } => module,
                    _ => continue,
                };
                self.0
                    .push(module.split('.').next().unwrap_or(module).to_string());
            }
            walk_stmt(self, stmt);
        }
    }
    let mut v = Imports(roots);
    for stmt in body {
        v.visit_stmt(stmt);
    }
}

/// A function's callers pass what they like: a size parameter whose default is an int
/// literal of 0 or less runs as an unknown int, not as its default (`hop_length: int = 0`, a
/// value its callers replace: `stft` rejects it). Positive defaults (`chunk_size: int = 64`)
/// stay: as symbols they made the chunked loops of some files 10-20 times dearer to solve.
fn with_free_int_sizes(def: &StmtFunctionDef, kinds: Kinds) -> Kinds {
    let p = &def.parameters;
    let int_default = |name: &str| -> Option<i64> {
        let d = p
            .posonlyargs
            .iter()
            .chain(p.args.iter())
            .chain(p.kwonlyargs.iter())
            .find(|a| a.parameter.name.id.as_str() == name)?
            .default
            .as_deref()?;
        match d {
            ruff_python_ast::Expr::NumberLiteral(n) => n.value.as_int()?.as_i64(),
            _ => None,
        }
    };
    kinds
        .into_iter()
        .map(|(name, kind, default)| {
            let free = (kind == ParamKind::Size && default == Default::Value)
                .then(|| int_default(&name))
                .flatten();
            match free {
                Some(d) if d <= 0 => (name, ParamKind::Unknown, Default::Absent),
                _ => (name, kind, default),
            }
        })
        .collect()
}

/// Parameters whose default is an empty literal collection (`anchors=()`, `ch=[]`): a
/// placeholder every construction replaces (yolov7's `Detect(nc=80, anchors=(), ch=())`
/// cannot be built with it), so a class unit runs them unknown, not empty.
fn empty_collection_defaults(def: &StmtFunctionDef) -> impl Iterator<Item = String> + '_ {
    let p = &def.parameters;
    p.posonlyargs
        .iter()
        .chain(p.args.iter())
        .chain(p.kwonlyargs.iter())
        .filter(|a| match a.default.as_deref() {
            Some(ruff_python_ast::Expr::Tuple(t)) => t.elts.is_empty(),
            Some(ruff_python_ast::Expr::List(l)) => l.elts.is_empty(),
            Some(ruff_python_ast::Expr::Dict(d)) => d.items.is_empty(),
            _ => false,
        })
        .map(|a| a.parameter.name.id.to_string())
}

/// Whether `def` can be called without arguments (every parameter has a default).
fn callable_bare(def: &StmtFunctionDef) -> bool {
    let p = &def.parameters;
    p.posonlyargs
        .iter()
        .chain(p.args.iter())
        .chain(p.kwonlyargs.iter())
        .all(|a| a.default.is_some())
}

/// A function that can be called without arguments, and is not a test: maybe a builder.
fn may_build(def: &StmtFunctionDef) -> bool {
    callable_bare(def) && !def.is_async && !def.name.id.starts_with("test")
}

/// A builder function (`def resnet18(*, weights=None, **kwargs)`, one that [`may_build`])
/// run as its callers would:
/// with its defaults, then the model it returns run on symbolic inputs, one run per rank
/// variant of its `forward` (see [`run_variants`]). Functions that return anything but an
/// instance of a module class of the file are not builders and yield nothing.
fn run_builder<'a>(
    interp: &mut Interp<'a>,
    globals: &Globals<'a>,
    def: &'a StmtFunctionDef,
    assumed: &[Assumption],
) -> Option<Unit> {
    reset(interp, globals);
    let built = interp.call_user(def, None, Vec::new(), Vec::new(), TextRange::default());
    let V::Object(obj) = &built else {
        return None;
    };
    let class = obj.borrow().class;
    if interp.run.dead || !interp.is_module_class(class) {
        return None;
    }
    let forward = forward_of(interp, class)?;
    let mut kinds = classify(forward, true, true);
    declare(&mut kinds, assumed);
    let no_dims = HashMap::default();
    let runs = run_variants(interp, forward, &kinds, &built, assumed, (&[], &no_dims));
    unit(
        interp,
        def.name.id.as_str(),
        UnitKind::Builder,
        def.name.range,
        runs,
    )
}

#[cfg(test)]
mod tests {
    use crate::testing::{assert_twins, findings};

    const NET: &str = r#"
import torch
from torch import nn

class Block(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, padding=1)
        self.bn = nn.BatchNorm2d(cout)

    def forward(self, x):
        return self.bn(self.conv(x))

class Net(nn.Module):
    def __init__(self, block, widths, num_classes=10):
        super().__init__()
        layers = []
        cin = 3
        for w in widths:
            layers.append(block(cin, w))
            cin = w
        self.features = nn.Sequential(*layers)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(HEAD, num_classes)

    def forward(self, x):
        x = self.pool(self.features(x))
        return self.fc(torch.flatten(x, 1))

def _net(block, widths, **kwargs):
    return Net(block, widths, **kwargs)

def small_net(*, weights=None, **kwargs):
    return _net(Block, [16, 32], **kwargs)
"#;

    #[test]
    fn a_builder_runs_the_model_it_returns() {
        // Only the builder knows the block class and the widths: the head is wrong for them.
        let found = findings(&NET.replace("HEAD", "64"));
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].unit, "small_net");
        assert_eq!(found[0].unit_kind.name(), "builder");
        assert_eq!(found[0].span.line, 28, "the fc call in forward");
        assert!(findings(&NET.replace("HEAD", "32")).is_empty());
    }

    #[test]
    fn builders_run_are_spread_over_the_file() {
        assert_eq!(super::spread_order(3, 8), vec![0, 1, 2]);
        assert_eq!(
            super::spread_order(11, 4),
            vec![0, 3, 6, 10, 1, 2, 4, 5, 7, 8, 9]
        );
    }

    #[test]
    fn functions_that_need_arguments_or_return_no_model_are_not_builders() {
        let src = NET.replace("HEAD", "64")
            + "\ndef not_a_builder(widths):\n    return _net(Block, widths)\n"
            + "\ndef config():\n    return {'widths': [16, 32]}\n";
        let found = findings(&src);
        assert_eq!(found.len(), 1, "only small_net: {found:?}");
        assert_eq!(found[0].unit, "small_net");
    }

    /// torchvision's `stochastic_depth`: eager mode (`torch.jit.is_scripting()` is False) and
    /// an in-place `bernoulli_` noise tensor keep the shape known through the block.
    #[test]
    fn eager_mode_checks_and_in_place_random_fills() {
        let src = r#"
import torch
from torch import nn

def stochastic_depth(x, p, training=True):
    if not torch.jit.is_scripting() and not torch.jit.is_tracing():
        print("usage")
    if not training or p == 0.0:
        return x
    size = [x.shape[0]] + [1] * (x.ndim - 1)
    noise = torch.empty(size, dtype=x.dtype, device=x.device)
    noise = noise.bernoulli_(1.0 - p)
    return x * noise

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(WIDTH, 4)

    def forward(self, x):
        x = stochastic_depth(torch.randn(2, 8), 0.1)
        return self.fc(x)
"#;
        assert_twins(src, "WIDTH", "6", "8", 22);
    }

    /// `cx, cy, w, h = boxes.unbind(-1)` with a symbolic last dim: the names take its
    /// slices, and the unpacking requires that dim to be 4.
    #[test]
    fn unbinding_a_symbolic_dim_into_names_pins_its_size() {
        let src = r#"
import torch

def to_corners(boxes):
    cx, cy, w, h = boxes.unbind(-1)
    corners = torch.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], dim=-1)
    return corners + torch.zeros(WIDTH)
"#;
        assert_twins(src, "WIDTH", "3", "4", 7);
    }

    /// A class's own `unbind` method runs when its result is unpacked, as any call does.
    #[test]
    fn a_user_defined_unbind_runs_when_unpacked() {
        let src = r#"
import torch

class Pair:
    def unbind(self, dim=0):
        return torch.zeros(2, 3), torch.zeros(WIDTH)

def run():
    a, b = Pair().unbind()
    return a + b

run()
"#;
        assert_twins(src, "WIDTH", "4", "3", 10);
    }

    /// An empty collection default of a class (`anchors=()`) is a placeholder: building with
    /// it is no finding (yolov7's `Detect`), and a bug past it still is. Verified under torch
    /// 2.15 with `anchors=((10, 13, 16, 30),)`: `cat` along 0 fails, along 1 runs.
    #[test]
    fn empty_collection_defaults_of_classes_are_placeholders() {
        let src = r#"
import torch
import torch.nn as nn

class Head(nn.Module):
    def __init__(self, nc=80, anchors=(), ch=(256,)):
        super().__init__()
        self.nl = len(anchors)
        self.na = len(anchors[0]) // 2
        a = torch.tensor(anchors).float().view(self.nl, -1, 2)
        self.register_buffer("anchors", a)
        self.m = nn.Conv2d(ch[0], nc, 1)

    def forward(self, x):
        b, c, h, w = x.shape
        return torch.cat([self.m(x), x], DIM)
"#;
        crate::testing::assert_twins(src, "DIM", "0", "1", 16);
    }

    /// A function's int size defaults (`hop: int = 0`, which callers always replace; `dim:
    /// int = 0`) are not the only values it runs with: the default's failure (`stft` with a
    /// hop of 0, an assert that a positive symbol would break) is no finding, while a bug
    /// for every input is.
    #[test]
    fn int_size_defaults_of_functions_are_not_fixed() {
        let src = r#"
import torch

def spectro(x, n_fft: int = 512, hop: int = 0, dim: int = 0):
    assert dim == 0 or dim == -1
    b, n = x.shape
    z = torch.stft(x, n_fft, hop, window=torch.hann_window(n_fft), return_complex=True)
    return x.permute(PERM)
"#;
        assert_twins(src, "PERM", "0, 1, 2", "1, 0", 8);
    }

    /// `squeeze(d)` of a dim that may be 1 runs both ways (the dim is 1, or it is not): a
    /// bug is a finding only when it shows either way. A 4-index permute of the result
    /// fails both ways; a 3-index one works whenever the dim is not 1.
    #[test]
    fn a_squeeze_that_may_drop_a_dim_is_analysed_both_ways() {
        let src = r#"
import torch

def pool(x):
    b, c, h, w = x.shape
    y = x.mean(dim=3).squeeze(2)
    return y.permute(PERM)
"#;
        assert_twins(src, "PERM", "0, 2, 1, 3", "0, 2, 1", 7);
    }
}

#[cfg(test)]
mod soundness_tests {
    use crate::testing::{assert_twins, findings};

    /// A function without parameters does what any call of it does: it is analysed.
    #[test]
    fn parameterless_functions_are_analysed() {
        let src = r#"
import torch
import torch.nn as nn

def demo():
    fc = nn.Linear(10, 5)
    return fc(torch.randn(4, WIDTH))
"#;
        assert_twins(src, "WIDTH", "12", "10", 7);
    }

    /// In a file that uses numpy and not torch, `x.reshape(...)` is numpy's: no parameter is
    /// taken for a torch tensor.
    #[test]
    fn no_tensor_guesses_in_files_of_another_array_library() {
        let src = r#"
import numpy as np

def affine_forward(x, w, b):
    out = x.reshape(x.shape[0], -1).dot(w) + b
    return out.transpose()
"#;
        assert!(findings(src).is_empty());
    }

    /// A constructor's `*dims` are whatever callers pass: unknown, not empty.
    #[test]
    fn unknown_star_args_stay_unknown() {
        let src = r#"
import torch.nn as nn

class Transpose(nn.Module):
    def __init__(self, *dims, contiguous=False):
        super().__init__()
        self.dims = dims

    def forward(self, x):
        return x.transpose(*self.dims)
"#;
        assert!(findings(src).is_empty());
    }

    /// A call that Python rejects (too many arguments) raises before the body runs: nothing
    /// in the body is reported for it.
    #[test]
    fn calls_that_do_not_match_the_signature_run_nothing() {
        let src = r#"
import torch
import torch.nn as nn

class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(10, 5)

    def forward(self, x, flag=False):
        return self.fc(x)

m = M()
m(torch.randn(2, 10), torch.randn(3), flag=True)
m(torch.randn(2, 7), torch.randn(3), torch.randn(4))
"#;
        assert!(findings(src).is_empty());
    }

    /// `x.squeeze_(1)` changes `x`: later uses see the squeezed shape.
    #[test]
    fn reshaping_in_place_rebinds_the_receiver() {
        let src = r#"
import torch

idx = torch.zeros(6, 1, dtype=torch.long)
idx.squeeze_(1)
t = torch.zeros(8)
t.index_fill_(0, idx, 2.0)
t.view(SIZE)
"#;
        assert_twins(src, "SIZE", "3", "8", 8);
    }

    /// A docstring shape is not taken when the body reads dims past its rank.
    #[test]
    fn docstring_shapes_yield_to_the_dims_the_body_reads() {
        let src = r#"
import torch
import torch.nn as nn

class Masker(nn.Module):
    def forward(self, x, mask):
        """
        Shapes:
            - x: [B, T, C]
            - mask: [B]
        """
        m = mask.view((mask.shape[0], 1, mask.shape[1]))
        return x * m.transpose(1, 2)
"#;
        assert!(findings(src).is_empty());
    }
}
