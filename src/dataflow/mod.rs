//! The dataflow: how a corpus scan is laid out on timely workers (`scan`), the per-record
//! steps it is made of (`rows`, `shape_jobs`) and its custom operators (`stages`).

pub mod rows;
pub mod scan;
pub mod shape_jobs;
pub mod stages;

pub use scan::{run_scan, ScanOptions, ScanTotals};
