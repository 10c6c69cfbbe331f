//! The dataflow: how a corpus scan is laid out on timely workers (`scan`) and the per-record
//! steps it is made of (`rows`).

pub mod rows;
pub mod scan;
pub mod stages;

pub use scan::{run_scan, ScanOptions, ScanTotals};
