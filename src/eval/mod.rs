//! The evaluator: an abstract interpreter of Python over shape values. Statements
//! ([`interp`]), expressions ([`expr`]), calls of torch operators through the catalogue, of
//! user functions and classes ([`calls`], [`bases`], [`frames`]), builtins and the standard
//! library ([`builtins`], [`methods`], [`strings`], [`numbers`]), other files of a project
//! ([`imports`], [`project`]), and what a run records ([`trace`]): facts and the obligations
//! of every operation, with source spans. What is run, and on which inputs, is
//! `crate::units`, which depends on this module and never the reverse.

pub mod assign;
pub mod bases;
pub mod builtins;
pub mod calls;
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
pub mod project;
pub mod sequences;
pub mod strings;
pub mod trace;
pub mod types;
pub mod value;

pub use trace::{Input, Obligation, Trace};
