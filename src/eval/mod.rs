//! The evaluator: an abstract interpreter of Python over shape values. Statements
//! ([`interp`]), expressions ([`expr`]), calls of torch operators through the catalogue, of
//! user functions and classes ([`calls`], [`bases`], [`frames`]), builtins and the standard
//! library ([`builtins`], [`methods`], [`strings`], [`numbers`]), other files of a project
//! ([`imports`], [`project`]), and what a run records ([`trace`]): facts and the obligations
//! of every operation, with source spans. What is run, and on which inputs, is
//! `crate::units`, which depends on this module and never the reverse.
//!
//! ## File by file
//!
//! `value.rs`: `V`, what a Python value is to the analysis (shape-level `shapes::Value` data,
//! tuples/lists/ dicts, torch paths, user functions/classes/instances, torch modules with their
//! construction span, `Sequential`/`ModuleList`/`ModuleDict`, dim predicates as bools, `Either`:
//! one of two layers by an undecided branch; `copied` is `copy.copy`/`deepcopy`). `interp.rs`:
//! statements (branches under guards — a dim predicate or a fresh choice symbol — with environment
//! joins, `try` guarded, asserts as obligations + facts; a definite failure ends its path, which
//! branches and loops rejoin; an assumption broken on a guarded path ends that path and is left to
//! the job: `Trace::guarded_violations`); `loops.rs`: loops unrolled over known sequences (and
//! `range` of small constants), otherwise one pass widened under the guard that the loop runs —
//! `lo < hi` for `range(lo, hi)` with a symbolic bound, the loop variable a symbol in `[lo, hi)`,
//! so a decoder's `for t in range(tgt.size(1))` is known to run; a pass that always raises leaves
//! what follows under "the loop did not run"; `assign.rs`: assignment targets (unpacking,
//! attributes, subscripts of list/dict/container values, slice assignment that splices a list; `a,
//! b = x.unbind(d)` of a dim whose size is symbolic unpacks the slices of `x.movedim(d, 0)`, so
//! the unpacking pins that size); `env.rs`: snapshots, joins and checkpoints (one torch layer
//! class built with different arguments joins to that class, the differing hyperparameters
//! unknown; layers built alike are one value; two different layers joined under a known guard — an
//! undecided `if`, a conditional expression, whose sides run under their guards — become an
//! `Either`, which calls and attribute reads run side by side under the guards (`on_each_side`),
//! joining the results); `expr.rs`: expressions, operators, comparisons (membership with `in`),
//! attributes (`__name__`; a module's `training` is True, the norm rules' policy), subscripts,
//! comprehensions, dict displays with `**`, sets as their distinct items (`V::Set`: size and
//! membership known, iteration order not; `sorted` of known constants), the `func`/`args`/
//! `keywords` of a `functools.partial`, a `@classmethod` called on its class, a `@property` read
//! (its getter runs: `calls::read_property`); `numbers.rs`: arithmetic and comparisons of known
//! Python numbers (floats included), and of drawn floats (`V::Drawn`: `random.random()`,
//! `torch.rand(1).item()`; `+`, `-`, `*` by a known number map the range, a comparison the range
//! decides is known); `calls.rs`: torch calls through the catalogue (a rule's requirements become
//! obligations at the call's span, a rule's `Invalid` a failure unless the rule read an argument
//! not known before failing (`Ctx::certain`, `Failure::read_unknown`), requirements recorded
//! before such a read kept when the rule gives up, type errors void the run; a question a rule
//! cannot settle from the dims — `squeeze` of a dim that may be 1, `Ctx::decide` — is answered by
//! the run's planned decisions, see `crate::units`), user functions, closures (a nested def
//! or a lambda shares its enclosing function's variables, `closures.rs`; `frames.rs` evaluates
//! a lambda's body), `functools.partial` values and classes (bounded depth; a raising callee has no
//! result; `@staticmethod` binds nothing, `@classmethod` the instance's class; a method is the
//! last `def` of its name), module application and containers; `bases.rs`: classes that extend
//! torch modules (`super().__init__(...)`, or the absent `__init__`, builds the torch base: its
//! parameters, hyperparameters, methods and default `forward` stand in for what the class does not
//! define; attributes of an `nn.Sequential` subclass are its children; `children()` of another
//! module class is its layer attributes in registration order, unknown when an attribute is
//! unknown), `super()` calls, class lookups (`class_member`, `ancestry`) and `@dataclass` fields
//! (`__post_init__`, `asdict`, `replace`); `strings.rs`: known strings (f-strings, `%` formatting,
//! concatenation) so layers registered by computed names keep their names (`str.format` with plain
//! fields too); `sequences.rs`: what a `for` loop iterates (a tensor's rows, with their values
//! when known) and `item()`/`tolist()` as Python numbers; `assign.rs` also replaces a module
//! container's child (`seq[0] = conv` rebinds the container) and keeps the order in which an
//! object's attributes were first assigned (`add_module`, `setattr`, `self.x = ...`; a name not
//! known is `UNNAMED_ATTR`); `frames.rs`: binding arguments to parameters; `types.rs`:
//! `isinstance` against builtin types, torch types, `collections.abc`, `type`,
//! `types.FunctionType`, `functools.partial`, `nn.Module` and classes of the file, and
//! `issubclass` through the file's class bases (MetaFormer's `not issubclass(token_mixer,
//! Attention)`); `builtins.rs`: the other Python builtins (`any`/`all`, `min`/`max`, `round`,
//! `range` bounds for `loops.rs`), Python's `math`, numpy's `linspace`/`arange` as their torch
//! twins, and the standard-library names of `STDLIB_PATHS` (`functools.partial` — a partial of a
//! partial flattens —, `itertools.repeat`, `random.random`/`uniform`/`randint` — a drawn int is a
//! size symbol with the range as facts —, `sum(xs, start)` through `+`, `copy`, `os.environ.get`
//! with a default read as unset: the default environment, ...); `methods.rs`: methods of plain
//! values (list growth, `insert` and `pop`, dict and container mappings, dict
//! `pop`/`setdefault`/`update` that rebind the dict, known strings, their `index`/`find`/`count`;
//! `strings.rs` iterates short known strings and holds the `string` module's constants);
//! `packed.rs`: packed sequences through recurrent modules. `torch_utils.rs`: torch's
//! utilities that are not operators (`weight_norm` and `spectral_norm` return their module,
//! `_pair`, `from_pretrained`, `torch.relu_`, `parameters()`, `autograd.Function.apply`). `SHAPEHOUND_DEBUG=1` prints unmodelled
//! calls, module-level assignments and imports. `libraries.rs` models well-known builder helpers
//! of other libraries (timm's `build_model_with_cfg`, torchvision's `WeightsEnum.verify` and
//! `handle_legacy_interface`). `decorators.rs`: a decorator that may wrap a function makes its
//! calls' result unknown.
//! Cross-file analysis, with `check --follow-imports` (experimental) and installed packages
//! (`--python-path`, detected site-packages): `imports.rs` finds and parses the modules of the
//! file's project (package chain and the file's folder) and of installed libraries built on torch
//! (bounded, cached per thread); `project.rs` loads them in isolation (modules are values:
//! `import a.b as c`, `from pkg import submodule`) (lazy imports; `from m import *` binds
//! `__all__` or the public globals), runs their code with their own globals, and anchors every
//! recorded span at the call site in the analysed file. `trace.rs`: what a run records
//! (obligations with line/column spans, facts, symbolic inputs for witnesses). Invariant: unknown
//! is never an alarm — an unknown argument, an unmodelled operator or a broken type assumption
//! makes the run prove nothing.

pub mod aliases;
pub mod assign;
pub mod bases;
pub mod builtins;
pub mod calls;
pub mod closures;
pub mod config;
pub mod data;
pub mod data_files;
pub mod decorators;
pub mod domains;
pub mod env;
pub mod expr;
pub mod frames;
pub mod images;
pub mod imports;
pub mod interp;
pub mod libraries;
pub mod loops;
pub mod methods;
pub mod numbers;
pub mod numpy;
pub mod packed;
pub mod passed;
pub mod project;
pub mod sequences;
pub mod strings;
pub mod summaries;
pub mod torch_utils;
pub mod trace;
pub mod types;
pub mod value;

pub use trace::{Input, Obligation, Trace};
