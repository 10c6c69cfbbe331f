//! shapehound: operator statistics and shape bugs over corpora of PyTorch code.
//!
//! The modules follow the pipeline (see ARCHITECTURE.md):
//! corpus → frontend → operators → (shapes → jobs → solver) → reports, driven by `dataflow`.

pub mod analysis;
pub mod annotate;
pub mod budget;
pub mod catalogue;
pub mod check;
pub mod cli;
pub mod config;
pub mod corpus;
pub mod dataflow;
pub mod eval;
pub mod exit;
pub mod findings;
pub mod frontend;
pub mod guard;
pub mod jobs;
pub mod operators;
pub mod reports;
pub mod resolve;
pub mod shapes;
pub mod signatures;
#[cfg(test)]
pub(crate) mod testing;
pub mod units;
