//! Program analysis: an abstract interpreter for Python bodies over shape values
//! ([`interp`], [`expr`], [`calls`]), the units it runs ([`units`]), and what a run records
//! ([`trace`]): symbols, facts and the obligations of every operation, with source spans.
//! Constraint jobs are built from the traces in `crate::jobs`.

pub mod assign;
pub mod bases;
pub mod builtins;
pub mod calls;
pub mod class_methods;
pub mod docstring;
pub mod env;
pub mod expr;
pub mod frames;
pub mod imports;
pub mod interp;
pub mod libraries;
pub mod loops;
pub mod methods;
pub mod numbers;
pub mod packed;
pub mod params;
pub mod project;
pub mod sequences;
pub mod strings;
pub mod trace;
pub mod types;
pub mod units;
pub mod value;
pub mod variants;

pub use trace::{Input, Obligation, Trace};
pub use units::{run_units, Unit, UnitKind, UnitRun};
