//! The dataflow: how a corpus scan is laid out on timely workers (`scan`), the per-record
//! steps it is made of (`rows`, `shape_jobs`), module resolution as a join (`modules`) and
//! its custom operators (`stages`), the result cache of rescans (`cache`).

pub mod cache;
pub mod modules;
pub mod rows;
pub mod scan;
pub mod shape_jobs;
pub mod stages;

pub use scan::{run_scan, ScanOptions, ScanTotals};
