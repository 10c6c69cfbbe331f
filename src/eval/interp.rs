//! The abstract interpreter: runs Python statements over [`V`] values, recording in a
//! [`Trace`] the requirements of every operation under the path conditions in force.
//!
//! Branches whose condition is unknown run both ways, each under its own guard (a predicate
//! over dims when the condition is one, else a fresh choice symbol), and the environments
//! join. Loops over known sequences unroll; others run their body under a guard with the
//! loop-carried values widened. `try` bodies run guarded (a caught error is no bug).

use rustc_hash::FxHashMap as HashMap;
use std::rc::Rc;

use ruff_python_ast::{ExceptHandler, Expr, Stmt, StmtClassDef};
use ruff_text_size::{Ranged, TextRange};

use super::env::Snapshot;
use super::project::modelled;
use super::trace::{guarded, never, Obligation, Span, Trace};
use super::value::V;
use crate::catalogue::{fresh_index, Outcome};
use crate::resolve::{import_bindings, Imported};
use crate::shapes::bounds::Bounds;
use crate::shapes::kind::FindingKind;
use crate::shapes::shape::{Dim, Shape};
use crate::shapes::{DimExpr, Pred, Value};

/// How a statement sequence ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Normal,
    /// `return`, `raise`, `break` or `continue`: the rest of the block does not run.
    Exit,
    /// A definite failure on an unguarded path, or the step budget ran out: stop the unit.
    Stop,
}

/// User-function call depth.
pub const MAX_DEPTH: usize = 12;
/// Loops over known sequences unroll up to this many iterations.
pub const MAX_UNROLL: usize = 64;

/// A module's globals, shared until written: a module's functions all see them, an
/// imported module's are shared with its summary, a unit's runs each start from them.
pub type Globals<'a> = Rc<HashMap<String, V<'a>>>;
/// A running function's names (shared with the snapshots taken of it until written).
pub type Frame<'a> = Rc<HashMap<String, V<'a>>>;

pub struct Interp<'a> {
    pub text: &'a str,
    lines: crate::frontend::LineIndex,
    /// The running module's globals.
    pub globals: Globals<'a>,
    /// The code running now (a unit, or a function it calls).
    pub run: RunState<'a>,
    /// Dim hints by name, for the symbols the run makes.
    pub(super) hints: HashMap<String, usize>,
    /// Statements executed for the whole file.
    pub(super) file_steps: usize,
    /// The file's statement budget ran out: some of its units did not run to the end.
    pub file_over_budget: bool,
    /// The run's planned answers to the questions rules cannot settle.
    pub plan: Plan,
    /// What the file's classes hold besides their methods.
    pub classes: Classes<'a>,
    /// Other files of the project whose code runs here (see `project.rs`).
    pub project: Option<super::project::Project<'a>>,
    /// While another module's code runs: the call site in the analysed file that every
    /// recorded span becomes.
    pub anchor: Option<TextRange>,
    /// The frame a closure captured, for the call about to start (see `call_user_in`).
    pub captured: Option<std::rc::Rc<super::closures::Captured<'a>>>,
    /// When set, the operators applied directly at the analysed file's call sites, by the
    /// position of the callee's name, as operator counting records them (the check that
    /// both resolve calls alike; see `units::operators_applied`).
    pub applied: Option<AppliedOperators>,
    /// Where the callee of the call being dispatched is named, while `applied` is noted:
    /// taken by the first rule applied for it, cleared when the call is not a direct
    /// application (a user function, a container of layers).
    pub(super) callee_at: Option<ruff_text_size::TextSize>,
    /// Where the analysed file is, and the configuration files its code read (see
    /// `data_files.rs`); `None` when it is not on disk.
    pub data_files: Option<super::data_files::DataFiles>,
}

/// An operator applied directly at a call site of the analysed file.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Applied {
    /// Where the callee is named (an attribute's name, else the callee's start).
    pub at: ruff_text_size::TextSize,
    /// The canonical torch name.
    pub operator: &'static str,
    pub kind: crate::operators::CallKind,
}

/// The operators applied at the analysed file's call sites.
pub type AppliedOperators = std::collections::BTreeSet<Applied>;

/// The state of the code running now: a unit and the calls it makes. Set aside whole while
/// another module's top level runs ([`Interp::isolate`]).
#[derive(Default)]
pub struct RunState<'a> {
    /// The frames of the running calls, innermost last; a frame is shared with the branch
    /// snapshots and closures taken of it until it is next written (copied then).
    pub locals: Vec<Rc<HashMap<String, V<'a>>>>,
    pub guards: Vec<Pred>,
    pub trace: Trace,
    pub depth: usize,
    /// Statements executed by the running unit.
    pub(super) steps: usize,
    /// Return values of the functions being run (innermost last).
    pub returns: Vec<Vec<V<'a>>>,
    /// For each running function whose passed values a call site watches (`passed.rs`), its
    /// frame at each `return` it ran (innermost last; `None` for a call not watched).
    pub(super) return_frames: Vec<Option<Vec<Frame<'a>>>>,
    /// The names each running function declares `global`, with the depth of its frame in
    /// `locals` (innermost last): assigning one in that frame writes the module's binding.
    pub global_names: Vec<(usize, Vec<&'a str>)>,
    /// Classes whose methods are running (for `super()`), with their `self`.
    pub class_ctx: Vec<(&'a StmtClassDef, V<'a>)>,
    /// Call sites of the user functions being run (innermost last).
    pub call_sites: Vec<TextRange>,
    /// Set by a definite failure on an unguarded path: the rest of the unit never runs.
    pub dead: bool,
    /// Set once a layer's `eval()` or `train(...)` ran: from then on whether layers are in
    /// training mode is not known (checks that hold only in training are not made).
    pub mode_changed: bool,
    /// The run is a module's top level loaded for another file (see `summaries.rs`).
    pub loading: bool,
    /// A loop's trial pass is running (see `loops.rs`).
    pub in_trial: bool,
    /// While a call made by a loading module's top level runs: the step past which it is
    /// abandoned.
    pub call_limit: Option<usize>,
    /// The user functions being run and their arguments, outermost first (see
    /// `ActiveCall::repeats`).
    pub active_calls: Vec<ActiveCall<'a>>,
    /// Results of memoised functions' calls (`@lru_cache`) by function and arguments (see
    /// `ActiveCall::memo_key`): the cache lives as long as the run, as it does in the program.
    pub memo: HashMap<String, V<'a>>,
    /// Set by a call site passing a list, dict, set or array by name: the next program
    /// function to start reports how it finished in `finished` (see `passed.rs`).
    pub(super) watch_call: bool,
    pub(super) finished: Option<super::passed::Finished<'a>>,
}

/// A user function being run, with the arguments it was called with.
pub struct ActiveCall<'a> {
    /// Names this call for the closures it makes (`closures::next_call_id`).
    pub id: u64,
    /// Index of its frame in `RunState::locals`.
    pub frame: usize,
    pub def: &'a ruff_python_ast::StmtFunctionDef,
    pub this: Option<V<'a>>,
    pub args: Vec<V<'a>>,
    pub kwargs: Vec<(String, V<'a>)>,
}

/// Combinations of declared options' values a condition over them is decided over, at most.
const MAX_OPTION_COMBINATIONS: usize = 4096;

/// Planned answers to the questions rules cannot settle from the dims (`squeeze` of a dim
/// that may be 1), in the order they come up; `used` counts the ones taken. A question past
/// the plan sets `split_wanted`: the unit runs again once per answer.
#[derive(Default)]
pub struct Plan {
    pub decisions: Vec<bool>,
    pub used: usize,
    pub split_wanted: bool,
    /// Whether this unit's loops over literal values are domains (`domains.rs`): the
    /// module's code and functions without required parameters.
    pub domains: bool,
    /// The domain loop (where its target is) and the value this run takes from it.
    pub domain: Option<(TextRange, super::domains::DomainChoice)>,
    /// A domain loop met with no value chosen: the unit runs again once per value.
    pub domain_wanted: Option<(TextRange, Vec<String>)>,
    /// Int ranges the file checks its parsed options against (`domains::stated_ranges`).
    pub stated_ranges: rustc_hash::FxHashMap<String, (i64, i64)>,
    /// Whether declared int options are symbols in this run (`domains.rs`: a domain too
    /// large to run value by value).
    pub symbolic_domains: bool,
    /// Options declaring too many values to run one by one were met with defaults: the
    /// module's code runs once more with them as symbols.
    pub symbolic_wanted: bool,
}

/// What the file's classes hold besides their methods, by class statement.
#[derive(Default)]
pub struct Classes<'a> {
    /// Class-body assignments (`act = nn.ReLU`).
    pub attrs: HashMap<*const StmtClassDef, HashMap<String, V<'a>>>,
    /// The evaluated bases of every class defined so far.
    pub bases: HashMap<*const StmtClassDef, Vec<V<'a>>>,
    /// Class attributes assigned by code running inside a function (`cls.depth = 4` in a
    /// method): they hold for the rest of the unit's run, and are forgotten before the next
    /// (see [`Classes::settle`]).
    pub assigned: HashMap<*const StmtClassDef, HashMap<String, V<'a>>>,
}

impl<'a> Classes<'a> {
    /// After the module's top level: what it assigned (itself or through the functions it
    /// called) holds in every unit.
    pub fn settle(&mut self) {
        for (class, attrs) in self.assigned.drain() {
            self.attrs.entry(class).or_default().extend(attrs);
        }
    }

    /// A class attribute: assigned after the class was defined, else from its body.
    pub fn attr(&self, class: &'a StmtClassDef, name: &str) -> Option<&V<'a>> {
        let key = class as *const _;
        self.assigned
            .get(&key)
            .and_then(|attrs| attrs.get(name))
            .or_else(|| self.attrs.get(&key).and_then(|attrs| attrs.get(name)))
    }
}

impl<'a> Interp<'a> {
    pub fn new(text: &'a str) -> Self {
        Interp {
            text,
            lines: crate::frontend::LineIndex::new(text),
            globals: Rc::default(),
            run: RunState::default(),
            hints: HashMap::default(),
            file_steps: 0,
            file_over_budget: false,
            plan: Plan::default(),
            classes: Classes::default(),
            project: None,
            anchor: None,
            captured: None,
            applied: None,
            callee_at: None,
            data_files: None,
        }
    }

    /// Sets the running unit's state aside, for running a module's top level on its own.
    pub fn isolate(&mut self) -> RunState<'a> {
        std::mem::take(&mut self.run)
    }

    pub fn restore_isolated(&mut self, saved: RunState<'a>) {
        self.run = saved;
    }

    /// A new unit starts: its own statement budget (the file's keeps counting).
    pub fn new_unit_budget(&mut self) {
        self.run.steps = 0;
    }

    // ---- names -----------------------------------------------------------------------

    pub fn bind(&mut self, name: &str, v: V<'a>) {
        if self.is_declared_global(name) {
            self.write_global(name, v);
            return;
        }
        match self.run.locals.last_mut() {
            Some(frame) => set_name(Rc::make_mut(frame), name, v),
            None => set_name(Rc::make_mut(&mut self.globals), name, v),
        };
    }

    /// Writes the running module's binding of `name` from inside a function (see
    /// [`Interp::written_outside`]).
    pub(super) fn write_global(&mut self, name: &str, v: V<'a>) {
        let old = self.globals.get(name).cloned().unwrap_or(V::Unknown);
        let v = self.written_outside(old, v);
        set_name(Rc::make_mut(&mut self.globals), name, v);
    }

    /// Rebinds `target` to `v`, what it names after a change in place (`xs.append(x)`,
    /// `d[k] = x`: lists, dicts and containers of layers are values here). A name the
    /// running function only reads from its module names the module's object, so the
    /// module's binding changes, as the object would in Python.
    pub fn rebind_changed(&mut self, target: &'a Expr, v: V<'a>) {
        if let Expr::Name(n) = target {
            let name = n.id.as_str();
            let frame = self.run.locals.last();
            let in_frame = frame.is_none_or(|frame| frame.contains_key(name));
            // Held by its name, and by what else?
            let old = frame
                .and_then(|f| f.get(name))
                .or_else(|| self.globals.get(name))
                .filter(|old| super::aliases::held_elsewhere(old, 1))
                .cloned();
            if let Some(old) = old {
                self.update_aliases(name, &old, &v);
            }
            if !in_frame && self.globals.contains_key(name) {
                self.write_global(name, v);
                return;
            }
        }
        self.assign(target, v);
    }

    /// Unbinds `name` from the running frame, leaving its slot in place (to be bound again);
    /// false when it is not a name of that frame.
    pub fn release_local(&mut self, name: &str) -> bool {
        if self.is_declared_global(name) {
            return false;
        }
        match self.run.locals.last_mut() {
            Some(frame) if frame.contains_key(name) => {
                if let Some(slot) = Rc::make_mut(frame).get_mut(name) {
                    *slot = V::Unknown;
                }
                true
            }
            _ => false,
        }
    }

    /// Whether the running function declares `global name`.
    fn is_declared_global(&self, name: &str) -> bool {
        self.run
            .global_names
            .last()
            .is_some_and(|(depth, names)| *depth == self.run.locals.len() && names.contains(&name))
    }

    /// What a name or class attribute outside the running frame holds after `v` is written
    /// to it: branches snapshot only the frame, so a write on a guarded path joins the old
    /// value (the path may not be taken).
    pub(super) fn written_outside(&mut self, old: V<'a>, v: V<'a>) -> V<'a> {
        if self.run.guards.is_empty() {
            v
        } else {
            self.join(old, v)
        }
    }

    /// `Class.name = v` after the class was defined (at the top level, or `cls.name = v`
    /// in a method).
    pub(super) fn set_class_attr(&mut self, class: &'a StmtClassDef, name: &str, v: V<'a>) {
        let old = self
            .classes
            .attr(class, name)
            .cloned()
            .unwrap_or(V::Unknown);
        let v = self.written_outside(old, v);
        let key = class as *const _;
        let layer = if self.run.locals.is_empty() {
            &mut self.classes.attrs
        } else {
            &mut self.classes.assigned
        };
        layer.entry(key).or_default().insert(name.to_string(), v);
    }

    pub fn lookup(&mut self, name: &str) -> V<'a> {
        if let Some(v) = self.run.locals.last().and_then(|f| f.get(name)) {
            return v.clone();
        }
        if let Some(v) = self.globals.get(name) {
            if let V::Lazy(target) = v {
                let target = target.clone();
                let resolved = self.resolve_import(&target.0, &target.1, 0);
                Rc::make_mut(&mut self.globals).insert(name.to_string(), resolved.clone());
                return resolved;
            }
            return v.clone();
        }
        super::builtins::builtin(name).map_or(V::Unknown, V::Builtin)
    }

    // ---- symbols ---------------------------------------------------------------------

    /// A fresh symbol, named after `hint` (`x.shape[1]`, `d`); a hint met again gets a
    /// numeric suffix.
    pub fn fresh_sym(&mut self, hint: &str) -> DimExpr {
        let n = self.hints.entry(hint.to_string()).or_insert(0);
        *n += 1;
        if *n == 1 {
            DimExpr::sym(hint)
        } else {
            DimExpr::sym(&format!("{hint}~{n}"))
        }
    }

    /// Symbol names start over (a new unit run is a new job).
    pub fn reset_symbols(&mut self) {
        self.hints.clear();
    }

    /// A fresh non-negative dim.
    pub fn fresh_dim(&mut self, hint: &str) -> DimExpr {
        let d = self.fresh_sym(hint);
        self.run
            .trace
            .fact(Pred::Le(DimExpr::zero(), d.clone()), None);
        d
    }

    /// The outcome with the rule's data-dependent sizes (see `Ctx::fresh`) as fresh
    /// non-negative symbols of this run.
    pub fn name_fresh(&mut self, mut outcome: Outcome) -> Outcome {
        if outcome.fresh.is_empty() {
            return outcome;
        }
        let named: Vec<DimExpr> = outcome.fresh.iter().map(|h| self.fresh_dim(h)).collect();
        let map = |s: &str| fresh_index(s).and_then(|i| named.get(i).cloned());
        outcome.value = outcome.value.substitute(&map);
        for p in &mut outcome.assumptions {
            *p = p.substitute(&map);
        }
        for r in &mut outcome.requirements {
            r.pred = r.pred.substitute(&map);
        }
        outcome
    }

    /// An integer drawn at random from `b` (`random.randint(1, 3)`, `torch.randint(0, 6,
    /// (1,)).item()`): a fresh symbol within the range, so that a finding holds for every
    /// draw. Unknown when the range is not finite and non-negative (symbols are sizes).
    pub fn drawn_int(&mut self, b: Bounds) -> V<'a> {
        let finite = b.lo.is_finite() && b.hi.is_finite() && b.lo >= 0.0 && b.lo <= b.hi;
        if !finite || b.hi >= i64::MAX as f64 {
            return V::Data(Value::IntUnknown);
        }
        let (lo, hi) = (b.lo.ceil() as i64, b.hi.floor() as i64);
        if lo == hi {
            return V::Data(Value::int(lo));
        }
        let d = self.fresh_sym("draw");
        self.run
            .trace
            .fact(Pred::Le(DimExpr::constant(lo), d.clone()), None);
        self.run
            .trace
            .fact(Pred::Le(d.clone(), DimExpr::constant(hi)), None);
        V::Data(Value::Int(d))
    }

    /// A dim of a unit's input: positive (an input with an empty dim is not what a unit is
    /// written for).
    pub fn fresh_input_dim(&mut self, hint: &str) -> DimExpr {
        let d = self.fresh_sym(hint);
        self.run
            .trace
            .fact(Pred::Le(DimExpr::one(), d.clone()), None);
        d
    }

    /// A positive integer input of the unit (a size hyperparameter), recorded for witnesses.
    pub fn fresh_size_input(&mut self, name: &str) -> V<'a> {
        let s = self.fresh_input_dim(name);
        self.run.trace.inputs.push(super::trace::Input::Int {
            name: name.to_string(),
            value: s.clone(),
        });
        V::Data(Value::Int(s))
    }

    /// A symbolic input tensor of the given rank, its dims fresh positive symbols.
    pub fn fresh_tensor(&mut self, name: &str, rank: usize) -> (V<'a>, Vec<DimExpr>) {
        let dims: Vec<DimExpr> = (0..rank)
            .map(|i| self.fresh_input_dim(&format!("{name}.shape[{i}]")))
            .collect();
        let shape = Shape::Ranked(dims.iter().cloned().map(Dim::Known).collect());
        (V::Data(Value::tensor(shape, None)), dims)
    }

    // ---- recording -------------------------------------------------------------------

    /// Records a requirement of the operation at `span`; `kind` says what a violation is.
    #[allow(clippy::too_many_arguments)]
    pub fn require(
        &mut self,
        kind: FindingKind,
        pred: Pred,
        message: String,
        operator: &str,
        span: TextRange,
        related: &[(TextRange, String)],
        shapes: &str,
    ) {
        // After a certain failure nothing runs: what the same expression goes on to do
        // with the failed call's placeholder result is not a requirement.
        if self.run.dead {
            return;
        }
        let mut related: Vec<(Span, String)> = related
            .iter()
            .map(|(r, label)| (self.position(*r), label.clone()))
            .collect();
        // The outermost call in the file names the entry point (a unit's own entry has no
        // call site: its span is empty).
        if let Some(site) = self.run.call_sites.first().filter(|s| !s.is_empty()) {
            related.push((self.position(*site), "called from here".to_string()));
        }
        let origin = self.origin(span);
        let span = self.position(span);
        self.run.trace.require(Obligation {
            pred: guarded(&self.run.guards, pred),
            message,
            operator: operator.to_string(),
            kind,
            span,
            related,
            shapes: shapes.to_string(),
            origin,
        });
    }

    /// Records an assumption that holds on the current path from here on (see
    /// `Fact::assumed`).
    pub fn assume(&mut self, pred: Pred, span: TextRange) {
        let at = self.position(span);
        self.run
            .trace
            .assumption(guarded(&self.run.guards, pred), Some(at));
    }

    /// Records the answer the run takes to a question its unit's runs split on.
    pub fn take_answer(&mut self, pred: Pred, span: TextRange) {
        let at = self.position(span);
        self.run
            .trace
            .fact(guarded(&self.run.guards, pred), Some(at));
    }

    /// Records that a value was not what the unit assumed (see `Trace::violate`).
    /// On a path under guards, only that path is in doubt: it ends here, and the job
    /// decides whether it can be taken at all.
    pub fn violate(&mut self, reason: impl FnOnce() -> String) {
        if self.run.dead {
            return;
        }
        if self.run.guards.is_empty() {
            self.run.trace.violate(reason);
        } else {
            let path = Pred::And(self.run.guards.clone());
            self.run.trace.guarded_violations.push(path);
            self.run.dead = true;
        }
    }

    /// Records that the operation at `span` certainly fails on the current path.
    pub fn fail(
        &mut self,
        kind: FindingKind,
        message: String,
        operator: &str,
        span: TextRange,
        related: &[(TextRange, String)],
        shapes: &str,
    ) {
        self.require(kind, never(), message, operator, span, related, shapes);
        // What follows on this path never runs (branches and loops rejoin the others).
        self.run.dead = true;
    }

    // ---- statements ------------------------------------------------------------------

    pub fn exec_block(&mut self, body: &'a [Stmt]) -> Flow {
        let base = self.run.guards.len();
        let mut flow = Flow::Normal;
        for stmt in body {
            flow = stacker::maybe_grow(64 * 1024, 4 * 1024 * 1024, || self.exec(stmt));
            if self.run.dead {
                flow = Flow::Stop;
            }
            if flow != Flow::Normal {
                break;
            }
        }
        // Guards pushed for "the rest of this block" (after a branch that left it) end here.
        self.run.guards.truncate(base);
        flow
    }

    fn exec(&mut self, stmt: &'a Stmt) -> Flow {
        self.run.steps += 1;
        self.file_steps += 1;
        if self
            .run
            .call_limit
            .is_some_and(|limit| self.run.steps > limit)
        {
            return Flow::Stop;
        }
        // Statements per unit (over all its variants) and per file over all its units: a
        // pathological file stays bounded, and a file's early units cannot starve its
        // builders (`crate::budget`).
        let budget = crate::budget::budgets();
        let unit_spent = self.run.steps > budget.unit_steps;
        let file_spent = self.file_steps > budget.file_steps;
        if unit_spent || file_spent {
            if self.run.trace.over_budget.is_none() {
                if super::calls::debug_misses() {
                    eprintln!("step budget spent");
                }
                self.run.trace.over_budget = Some(if file_spent {
                    format!("the file's {} statements", budget.file_steps)
                } else {
                    format!("{} statements", budget.unit_steps)
                });
            }
            self.file_over_budget |= file_spent;
            return Flow::Stop;
        }
        match stmt {
            Stmt::Expr(e) => {
                self.eval(&e.value);
            }
            Stmt::Assign(a) => self.exec_assign(a),
            Stmt::AnnAssign(a) => {
                if let Some(value) = &a.value {
                    let v = self.eval(value);
                    self.assign(&a.target, v);
                }
            }
            Stmt::AugAssign(a) => {
                let current = self.eval(&a.target);
                let rhs = self.eval(&a.value);
                let v = self.binop(current, a.op, rhs, a.range, true);
                self.assign(&a.target, v);
            }
            Stmt::Return(r) => {
                let v = r.value.as_ref().map_or_else(V::none, |e| self.eval(e));
                if let Some(rs) = self.run.returns.last_mut() {
                    rs.push(v);
                }
                if let Some(Some(frames)) = self.run.return_frames.last_mut() {
                    frames.extend(self.run.locals.last().cloned());
                }
                return Flow::Exit;
            }
            Stmt::Raise(_) | Stmt::Break(_) | Stmt::Continue(_) => return Flow::Exit,
            Stmt::If(s) => return self.exec_if(s),
            Stmt::For(f) => return self.exec_for_stmt(f),
            Stmt::While(w) => {
                self.eval(&w.test);
                return self.exec_unknown_loop(None, &w.body, &w.orelse, None);
            }
            Stmt::With(w) => return self.exec_with(w),
            Stmt::Try(t) => return self.exec_try(t),
            Stmt::Assert(a) => {
                let v = self.eval(&a.test);
                self.assert_holds(v, a.test.range());
            }
            Stmt::FunctionDef(def) => {
                // Inside a function, a nested def keeps the enclosing frame it reads.
                let f = match self.capture() {
                    Some(captured) => V::Closure(def, captured),
                    None => V::Func(def),
                };
                self.bind(def.name.id.as_str(), f.clone());
                self.run_program_decorators(&def.decorator_list, f, def.name.range);
            }
            Stmt::ClassDef(class) => {
                self.define_class(class);
                let decorators = &class.decorator_list;
                self.run_program_decorators(decorators, V::Class(class), class.name.range);
            }
            Stmt::Import(_) | Stmt::ImportFrom(_) => self.exec_import(stmt),
            Stmt::Global(_) | Stmt::Nonlocal(_) | Stmt::Pass(_) => {}
            Stmt::Delete(_) | Stmt::TypeAlias(_) | Stmt::IpyEscapeCommand(_) => {}
            Stmt::Match(m) => self.exec_match(m),
        }
        Flow::Normal
    }

    /// `targets = value` (a tuple target of a call may unpack its `unbind`).
    fn exec_assign(&mut self, a: &'a ruff_python_ast::StmtAssign) {
        let v = match (&a.targets[..], &*a.value) {
            ([Expr::Tuple(_) | Expr::List(_)], Expr::Call(c)) => self
                .unbind_for_unpacking(c)
                .unwrap_or_else(|| self.eval(&a.value)),
            _ => self.eval(&a.value),
        };
        // Only the analysed file's own top level (spans elsewhere are not its text).
        if self.run.depth == 0
            && self.anchor.is_none()
            && self.run.returns.is_empty()
            && super::calls::debug_misses()
        {
            let line = self.position(a.range).line;
            eprintln!(
                "line {line}: {} = {}",
                self.source(a.targets[0].range()),
                v.brief()
            );
        }
        for t in &a.targets {
            self.assign(t, v.clone());
        }
    }

    /// `for`: over a range with symbolic bounds, or over what the iterable holds.
    fn exec_for_stmt(&mut self, f: &'a ruff_python_ast::StmtFor) -> Flow {
        match self.range_bounds(&f.iter) {
            Some(Some((lo, hi))) => {
                return self.exec_range_loop(&f.target, lo, hi, &f.body, &f.orelse)
            }
            Some(None) => return self.exec_for(&f.target, V::Unknown, &f.body, &f.orelse),
            None => {}
        }
        let iter = self.eval(&f.iter);
        if self.plan.domains && super::domains::declares_values(&f.iter) {
            if let Some(flow) = self.exec_domain_loop(f, &iter) {
                return flow;
            }
        }
        self.exec_for(&f.target, iter, &f.body, &f.orelse)
    }

    /// `with`: a context object is bound as itself, anything else is unknown. A block a test
    /// expects to raise (`with pytest.raises(...)`, `self.assertRaises(...)`) is run like a
    /// `try` that catches: its failure is what the test wants.
    fn exec_with(&mut self, w: &'a ruff_python_ast::StmtWith) -> Flow {
        let expects_raise = w.items.iter().any(|i| match &i.context_expr {
            Expr::Call(c) => match &*c.func {
                Expr::Attribute(a) => EXPECT_RAISE.contains(&a.attr.id.as_str()),
                Expr::Name(n) => EXPECT_RAISE.contains(&n.id.as_str()),
                _ => false,
            },
            _ => false,
        });
        if expects_raise {
            let g = self.fresh_choice();
            self.run.guards.push(g);
            let before = self.snapshot();
            for item in &w.items {
                self.eval(&item.context_expr);
                if let Some(target) = &item.optional_vars {
                    self.assign(target, V::Unknown);
                }
            }
            self.exec_block(&w.body);
            self.run.guards.pop();
            let after = self.snapshot();
            self.restore(before.clone());
            self.join_into(after, before);
            self.run.dead = false;
            return Flow::Normal;
        }
        for item in &w.items {
            let v = self.eval(&item.context_expr);
            if let Some(target) = &item.optional_vars {
                let bound = match v {
                    V::Object(_) | V::OpenFile(_) => v,
                    _ => V::Unknown,
                };
                self.assign(target, bound);
            }
        }
        self.exec_block(&w.body)
    }

    /// `try`: any statement of the body may raise and be caught.
    fn exec_try(&mut self, t: &'a ruff_python_ast::StmtTry) -> Flow {
        // Any statement of the body may raise and be caught: everything in it is
        // guarded, as are the handlers (they run only if something raised). Handlers that
        // cannot catch what torch raises for a shape error leave the body unguarded: its
        // failure propagates.
        let catches = t.handlers.iter().any(|h| {
            let ExceptHandler::ExceptHandler(h) = h;
            self.may_catch_shape_errors(h.type_.as_deref())
        });
        let g = self.fresh_choice();
        if catches {
            self.run.guards.push(g);
        }
        let before = self.snapshot();
        self.exec_block(&t.body);
        if !catches && self.run.dead {
            return Flow::Stop;
        }
        if catches {
            self.run.guards.pop();
        }
        let after_body = self.snapshot();
        self.restore(before.clone());
        for h in &t.handlers {
            let ExceptHandler::ExceptHandler(h) = h;
            let g = self.fresh_choice();
            self.run.guards.push(g);
            if let Some(name) = &h.name {
                self.bind(name.id.as_str(), V::Unknown);
            }
            self.exec_block(&h.body);
            self.run.guards.pop();
        }
        let after_handlers = self.snapshot();
        self.restore(before);
        self.join_into(after_body, after_handlers);
        self.run.dead = false;
        self.exec_block(&t.orelse);
        self.exec_block(&t.finalbody)
    }

    /// Whether an `except` clause of this type may catch what torch raises for a shape
    /// error: a `RuntimeError`, `ValueError`, `IndexError` or `TypeError` (or an
    /// `AssertionError` of an assert). A builtin exception outside those and their bases
    /// (`KeyboardInterrupt`, `KeyError`, `StopIteration`, `OSError`, ...), a class of the
    /// program or torch's out-of-memory error cannot; anything else may.
    fn may_catch_shape_errors(&mut self, type_: Option<&'a Expr>) -> bool {
        let Some(e) = type_ else { return true };
        if let Expr::Tuple(t) = e {
            return t.elts.iter().any(|x| self.may_catch_shape_errors(Some(x)));
        }
        if let Expr::Name(n) = e {
            if CANNOT_CATCH_SHAPE_ERRORS.contains(&n.id.as_str())
                && matches!(self.lookup(n.id.as_str()), V::Unknown)
            {
                return false;
            }
        }
        match self.eval(e) {
            V::Class(_) => false,
            V::Torch(path) => !path.ends_with("OutOfMemoryError"),
            _ => true,
        }
    }

    /// `import a.b [as c]`, `from m import x [as y]`, `from . import x`, `from m import *`
    /// (bindings as `crate::resolve` reads them): modelled libraries first, then the
    /// project's files, then torch and the standard library.
    fn exec_import(&mut self, stmt: &'a Stmt) {
        for b in import_bindings(stmt) {
            match (b.imported, b.name) {
                (Imported::Star { level, module }, _) => {
                    for (name, v) in self.project_star_import(level, module) {
                        self.bind(&name, v);
                    }
                }
                (Imported::Module(path), Some(bound)) => {
                    let v = if self.project.is_some() {
                        self.import_module(path)
                    } else {
                        torch_module(path)
                    };
                    self.bind(bound, v)
                }
                (
                    Imported::Member {
                        level,
                        module,
                        name,
                    },
                    Some(bound),
                ) => {
                    // A modelled library object wins over its source in the project.
                    let v = if let Some(v) = super::libraries::library_import(module, level, name) {
                        v
                    } else if let Some(v) = b.imported.path().and_then(|p| modelled(&p)) {
                        v
                    } else if let Some(v) = self.project_import(level, module, name) {
                        v
                    } else if let Some(path) = b.imported.path() {
                        torch_module(&path)
                    } else {
                        V::Unknown
                    };
                    if self.run.depth == 0 && super::calls::debug_misses() {
                        eprintln!("import {module}.{name}: {}", v.brief());
                    }
                    self.bind(bound, v);
                }
                _ => {}
            }
        }
    }

    /// `match`: each case under a fresh choice, joined.
    fn exec_match(&mut self, m: &'a ruff_python_ast::StmtMatch) {
        self.eval(&m.subject);
        let before = self.snapshot();
        let mut joined: Option<Snapshot<'a>> = None;
        for case in &m.cases {
            self.restore(before.clone());
            let g = self.fresh_choice();
            self.run.guards.push(g);
            self.exec_block(&case.body);
            self.run.guards.pop();
            let snap = self.snapshot();
            joined = Some(match joined {
                None => snap,
                Some(j) => {
                    self.restore(j);
                    self.join_into(self.snapshot(), snap);
                    self.snapshot()
                }
            });
        }
        self.restore(before.clone());
        if let Some(j) = joined {
            self.join_into(before, j);
        }
    }

    fn define_class(&mut self, class: &'a StmtClassDef) {
        let bases = class
            .arguments
            .iter()
            .flat_map(|a| a.args.iter())
            .map(|b| self.eval(b))
            .collect();
        self.classes.bases.insert(class as *const _, bases);
        // Class-body assignments are class attributes (`expansion = 4`, `act = nn.GELU`).
        let mut attrs = HashMap::default();
        self.run.locals.push(Rc::default());
        for stmt in &class.body {
            match stmt {
                Stmt::Assign(a) => {
                    let v = self.eval(&a.value);
                    for t in &a.targets {
                        if let Expr::Name(n) = t {
                            attrs.insert(n.id.to_string(), v.clone());
                        }
                    }
                }
                Stmt::AnnAssign(a) => {
                    if let (Expr::Name(n), Some(value)) = (&*a.target, &a.value) {
                        let v = self.eval(value);
                        attrs.insert(n.id.to_string(), v);
                    }
                }
                _ => {}
            }
        }
        self.run.locals.pop();
        self.classes.attrs.insert(class as *const _, attrs);
        self.bind(class.name.id.as_str(), V::Class(class));
    }

    /// `assert test`: the test must hold (an AssertionError otherwise), and holds after.
    fn assert_holds(&mut self, v: V<'a>, span: TextRange) {
        match v {
            V::Cond(p) => {
                let msg = format!("assertion `{}` fails", self.source(span));
                self.require(
                    FindingKind::AssertionFails,
                    p.clone(),
                    msg,
                    "assert",
                    span,
                    &[],
                    "",
                );
                self.assume(p, span);
            }
            // A failing assert about shapes (`len(x.shape) == 3`); asserts about anything
            // else (`x is not None`, flags) are not shape bugs.
            V::Data(Value::Bool(Some(false))) if is_shape_text(self.source(span)) => {
                let msg = format!("assertion `{}` fails", self.source(span));
                self.fail(FindingKind::AssertionFails, msg, "assert", span, &[], "");
            }
            _ => {}
        }
    }

    /// Line and column of a range.
    pub fn position(&self, range: TextRange) -> Span {
        Span::of(self.here(range), self.text, &self.lines)
    }

    /// The source text of `span` in the code running now (another module's own text while
    /// its code runs).
    pub fn source(&self, span: TextRange) -> &'a str {
        let text = self.running_text().unwrap_or(self.text);
        text.get(span.start().to_usize()..span.end().to_usize())
            .unwrap_or("")
    }

    /// A fresh guard for a path that may or may not be taken.
    pub fn fresh_choice(&mut self) -> Pred {
        let b = self.fresh_sym("path");
        Pred::Eq(b, DimExpr::zero())
    }

    /// The path condition of an undecided test: its dim predicate, or a fresh choice.
    pub(super) fn guard_of(&mut self, cond: V<'a>) -> Pred {
        match cond {
            V::Cond(p) => p,
            _ => self.fresh_choice(),
        }
    }

    fn exec_if(&mut self, s: &'a ruff_python_ast::StmtIf) -> Flow {
        let mut clauses: Vec<(Option<&'a Expr>, &'a [Stmt])> = vec![(Some(&s.test), &s.body)];
        for c in &s.elif_else_clauses {
            clauses.push((c.test.as_ref(), &c.body));
        }
        self.exec_clauses(&clauses)
    }

    /// A condition over declared options bound to symbols alone (`if depth > 1:`, see
    /// `domains.rs`): decided when every value the options and the answers so far leave
    /// agrees; otherwise the run's next planned answer (recorded as a fact), or the run asks
    /// to be split (`units::variants::with_splits`), so that each side builds what it builds
    /// instead of a join of both.
    fn option_condition(&mut self, p: &Pred, span: TextRange) -> Option<bool> {
        if !self.plan.symbolic_domains {
            return None;
        }
        let symbols = p.symbols();
        let options: Vec<&super::trace::DomainSymbol> = self
            .run
            .trace
            .domain_symbols
            .iter()
            .filter(|d| d.symbol.symbols().iter().any(|s| symbols.contains(s)))
            .collect();
        let named: std::collections::BTreeSet<std::sync::Arc<str>> =
            options.iter().flat_map(|d| d.symbol.symbols()).collect();
        if symbols.is_empty() || symbols != named {
            return None;
        }
        // Every combination of the options' values, less those the facts over them rule out.
        let mut combos: Vec<Vec<(std::sync::Arc<str>, i64)>> = vec![Vec::new()];
        for d in &options {
            let name = d.symbol.symbols().into_iter().next()?;
            if combos.len() * d.values.len() > MAX_OPTION_COMBINATIONS {
                return None;
            }
            combos = combos
                .into_iter()
                .flat_map(|c| {
                    let name = name.clone();
                    d.values.iter().map(move |&v| {
                        let mut c = c.clone();
                        c.push((name.clone(), v));
                        c
                    })
                })
                .collect();
        }
        let facts: Vec<&Pred> = self
            .run
            .trace
            .facts
            .iter()
            .map(|f| &f.pred)
            .filter(|f| {
                let s = f.symbols();
                !s.is_empty() && s.is_subset(&named)
            })
            .collect();
        let mut truths = std::collections::BTreeSet::new();
        for combo in &combos {
            let at = |name: &str| {
                combo
                    .iter()
                    .find(|(n, _)| n.as_ref() == name)
                    .map(|(_, v)| DimExpr::constant(*v))
            };
            if facts
                .iter()
                .any(|f| f.substitute(&at).decide() == Some(false))
            {
                continue;
            }
            truths.insert(p.substitute(&at).decide()?);
        }
        match (truths.contains(&true), truths.contains(&false)) {
            (true, false) => return Some(true),
            (false, true) => return Some(false),
            (false, false) => return None,
            (true, true) => {}
        }
        match self.plan.decisions.get(self.plan.used).copied() {
            Some(answer) => {
                self.plan.used += 1;
                let taken = match answer {
                    true => p.clone(),
                    false => Pred::Not(Box::new(p.clone())),
                };
                self.take_answer(taken, span);
                Some(answer)
            }
            None => {
                self.plan.split_wanted = true;
                None
            }
        }
    }

    /// Records a condition of the analysed file's code about dims: a predicate, or a truth
    /// its shapes settled (`x.dim() == 4` on a rank-4 input).
    fn note_branch(&mut self, test: &'a Expr, cond: &V<'a>) {
        if self.anchor.is_some() || self.run.trace.branches.len() >= super::trace::MAX_BRANCHES {
            return;
        }
        let cond = match cond {
            V::Cond(p) => p.clone(),
            V::Data(Value::Bool(Some(b))) if is_shape_text(self.source(test.range())) => match b {
                true => Pred::always(),
                false => Pred::Not(Box::new(Pred::always())),
            },
            _ => return,
        };
        let text: String = self
            .source(test.range())
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let branch = super::trace::Branch {
            span: self.position(test.range()),
            text: text.chars().take(super::trace::BRANCH_TEXT).collect(),
            cond,
            path: self.run.guards.clone(),
        };
        self.run.trace.branches.push(branch);
    }

    /// `if`/`elif`/`else` as a chain: a known condition picks its clause; an unknown one
    /// runs both sides under complementary guards and joins.
    fn exec_clauses(&mut self, clauses: &[(Option<&'a Expr>, &'a [Stmt])]) -> Flow {
        let Some(((test, body), rest)) = clauses.split_first() else {
            return Flow::Normal;
        };
        let Some(test) = test else {
            return self.exec_block(body);
        };
        let cond = self.eval(test);
        self.note_branch(test, &cond);
        let known = match &cond {
            V::Cond(p) => self.option_condition(p, test.range()),
            _ => cond.truth(),
        };
        if let Some(known) = known.or_else(|| cond.truth()) {
            return if known {
                self.exec_block(body)
            } else {
                self.exec_clauses(rest)
            };
        }
        let g = self.guard_of(cond);
        let before = self.snapshot();
        self.run.guards.push(g.clone());
        let then_flow = self.exec_block(body);
        self.run.guards.pop();
        let then_dead = std::mem::take(&mut self.run.dead);
        let after_then = self.snapshot();
        self.restore(before);
        let not_g = Pred::Not(Box::new(g.clone()));
        self.run.guards.push(not_g.clone());
        let else_flow = self.exec_clauses(rest);
        self.run.guards.pop();
        let else_dead = std::mem::take(&mut self.run.dead);
        let after_else = self.snapshot();
        let then_left = then_flow != Flow::Normal || then_dead;
        let else_left = else_flow != Flow::Normal || else_dead;
        match (then_left, else_left) {
            (true, true) => {
                self.restore(after_else);
                if then_flow == Flow::Stop && else_flow == Flow::Stop {
                    Flow::Stop
                } else {
                    Flow::Exit
                }
            }
            // Only one side goes on: the rest of the block runs under its guard.
            (true, false) => {
                self.restore(after_else);
                self.run.guards.push(not_g);
                Flow::Normal
            }
            (false, true) => {
                self.restore(after_then);
                self.run.guards.push(g);
                Flow::Normal
            }
            (false, false) => {
                self.restore(after_then.clone());
                self.join_branches(after_then, after_else, Some(&g));
                Flow::Normal
            }
        }
    }
}

/// Builtin exceptions that are neither what torch raises for a shape error (`RuntimeError`,
/// `ValueError`, `IndexError`, `TypeError`, `AssertionError`) nor one of their bases.
/// Context managers of test frameworks whose block is expected to raise.
const EXPECT_RAISE: &[&str] = &[
    "raises",
    "assertRaises",
    "assertRaisesRegex",
    "assertRaisesRegexp",
];

const CANNOT_CATCH_SHAPE_ERRORS: &[&str] = &[
    "KeyboardInterrupt",
    "SystemExit",
    "GeneratorExit",
    "StopIteration",
    "StopAsyncIteration",
    "KeyError",
    "AttributeError",
    "NameError",
    "UnboundLocalError",
    "ImportError",
    "ModuleNotFoundError",
    "OSError",
    "IOError",
    "EnvironmentError",
    "FileNotFoundError",
    "FileExistsError",
    "PermissionError",
    "IsADirectoryError",
    "NotADirectoryError",
    "TimeoutError",
    "ConnectionError",
    "ZeroDivisionError",
    "ArithmeticError",
    "OverflowError",
    "FloatingPointError",
    "NotImplementedError",
    "RecursionError",
    "MemoryError",
    "UnicodeDecodeError",
    "UnicodeEncodeError",
    "UnicodeError",
    "EOFError",
];

/// Whether an expression's text is about shapes.
fn is_shape_text(text: &str) -> bool {
    ["shape", "size(", "dim(", "ndim", "numel("]
        .iter()
        .any(|k| text.contains(k))
}

/// What an import binds: torch paths, Python's `math`, numpy's array builders and the
/// standard-library names of [`super::builtins::STDLIB_PATHS`] are tracked, anything else
/// is unknown.
pub fn torch_module<'a>(path: &str) -> V<'a> {
    if let Some(c) = super::builtins::torch_constant(path) {
        c
    } else if path == "typing.TYPE_CHECKING" {
        // False when the code runs: what it guards is for type checkers only.
        V::Data(Value::Bool(Some(false)))
    } else if crate::resolve::is_torch_path(path) {
        V::Torch(path.into())
    } else if path == "math" {
        V::Builtin("math")
    } else if let Some(attr) = path.strip_prefix("math.") {
        super::builtins::math_attr(attr)
    } else if let Some(v) = path
        .strip_prefix("string.")
        .and_then(super::strings::string_module_constant)
    {
        v
    } else if let Some(op) = super::libraries::torchvision_op(path) {
        op
    } else if let Some(v) = super::images::image_path(path) {
        v
    } else if path == "numpy" {
        V::Builtin("numpy")
    } else if let Some(attr) = path.strip_prefix("numpy.random.") {
        super::numpy::numpy_random_attr(attr)
    } else if let Some(attr) = path.strip_prefix("numpy.") {
        super::numpy::numpy_attr(attr)
    } else {
        super::builtins::stdlib_path(path).map_or(V::Unknown, V::Builtin)
    }
}

/// `name = v` in a frame or a module's globals: a name bound again keeps its key (binding is
/// the commonest statement; a new key is a string allocated).
fn set_name<'a>(names: &mut HashMap<String, V<'a>>, name: &str, v: V<'a>) {
    match names.get_mut(name) {
        Some(slot) => *slot = v,
        None => {
            names.insert(name.to_string(), v);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::{assert_twins, finding_lines, findings};

    /// A list, dict or array a function changes in place is its module's: Python gives
    /// `len(seen) == 1` after `add(2)`, so `[4, 1] @ [1, 3]` holds; `[4, 1] @ [2, 3]`
    /// fails. The function's own lists stay its own.
    #[test]
    fn a_function_changes_the_module_objects_it_reads() {
        let code = r#"
import torch

seen = []
table = {}
mine = []

def add(n):
    seen.append(n)
    table["k"] = n
    mine = []
    mine.append(n)
    mine.append(n)

add(2)
ok = torch.zeros(4, len(seen)) @ torch.zeros(1, 3)
ok2 = torch.zeros(4, table["k"]) @ torch.zeros(2, 3)
ok3 = torch.zeros(4, len(mine) + 1) @ torch.zeros(1, 3)
bad = torch.zeros(4, len(seen)) @ torch.zeros(2, 3)
"#;
        assert_eq!(finding_lines(code), vec![19]);
    }

    /// What a test expects to raise is not a finding; what runs after it still is.
    #[test]
    fn blocks_expected_to_raise_are_not_findings() {
        let src = r#"
import pytest
import torch
import torch.nn as nn

def test_widths():
    fc = nn.Linear(8, 4)
    with pytest.raises(RuntimeError):
        fc(torch.randn(2, 5))
    y = fc(torch.randn(2, 8))
    return nn.Linear(WIDTH, 2)(y)
"#;
        let lines = |w: &str| -> Vec<u32> {
            findings(&src.replace("WIDTH", w))
                .iter()
                .map(|f| f.span.line)
                .collect()
        };
        assert_eq!(lines("3"), vec![11]);
        assert!(lines("4").is_empty());
    }

    /// `global model` in a function called from the entry point: the module's binding
    /// changes, and the functions called after it see the layer.
    #[test]
    fn a_global_assigned_in_a_function_is_seen_by_others() {
        let src = r#"
import torch
import torch.nn as nn

model = None
steps = 0

def setup():
    global model, steps
    model = nn.Linear(8, 4)
    for _ in range(2):
        steps += 1

def train():
    x = torch.randn(2, WIDTH)
    return model(x).view(2, 2, steps)

if __name__ == "__main__":
    setup()
    train()
"#;
        assert_twins(src, "WIDTH", "16", "8", 16);
    }

    /// A handler that cannot catch a shape error (`KeyboardInterrupt`, `KeyError`, a class
    /// of the program) leaves the body's failure a finding; one that can (`RuntimeError`,
    /// `Exception`, a bare `except`) does not.
    #[test]
    fn handlers_that_cannot_catch_shape_errors_do_not_hide_them() {
        let src = r#"
import torch
import torch.nn as nn

class StopTraining(Exception):
    pass

def train():
    model = nn.Linear(8, 4)
    try:
        for step in range(3):
            out = model(torch.randn(2, WIDTH))
    except (KeyboardInterrupt, StopTraining):
        print("stopped")
    except KeyError:
        pass

train()
"#;
        assert_twins(src, "WIDTH", "16", "8", 12);
        for handler in ["RuntimeError", "Exception", "(KeyError, ValueError)"] {
            let caught = src
                .replace("WIDTH", "16")
                .replace("KeyError:", &format!("{handler}:"));
            assert!(crate::testing::findings(&caught).is_empty(), "{handler}");
        }
    }
}
