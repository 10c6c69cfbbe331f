//! The terminal summary printed at the end of a scan.

use std::fmt::Write;
use std::time::Duration;

use crate::dataflow::ScanTotals;

/// Operators ordered for display: count descending, then `tie_order` (TEOSC list order, or
/// the name).
pub fn top_operators(
    totals: &ScanTotals,
    n: usize,
    tie_order: impl Fn(&str) -> usize,
) -> Vec<(String, u64)> {
    let mut ops: Vec<(String, u64)> = totals
        .operators
        .iter()
        .map(|(k, v)| (k.clone(), *v))
        .collect();
    ops.sort_by(|a, b| {
        b.1.cmp(&a.1)
            .then_with(|| tie_order(&a.0).cmp(&tie_order(&b.0)))
            .then_with(|| a.0.cmp(&b.0))
    });
    ops.truncate(n);
    ops
}

pub fn render(
    totals: &ScanTotals,
    elapsed: Duration,
    top: &[(String, u64)],
    out_dir: &str,
) -> String {
    let secs = elapsed.as_secs_f64().max(1e-9);
    let files = totals.files();
    let mut s = String::new();
    let _ = writeln!(s, "shapehound scan: {files} files, {:.1} MB in {:.2} s ({:.0} files/s, {:.1} MB/s, {} workers)",
        totals.bytes as f64 / 1e6, secs, files as f64 / secs, totals.bytes as f64 / 1e6 / secs, totals.workers);
    let _ = writeln!(s, "files by status:");
    for (status, n) in &totals.files_by_status {
        let _ = writeln!(s, "  {status:<20} {n:>9}");
    }
    if totals.duplicates > 0 {
        let _ = writeln!(
            s,
            "  ({} identical copies analysed once)",
            totals.duplicates
        );
    }
    let _ = writeln!(
        s,
        "operator calls: {} ({} distinct operators)",
        totals.op_calls(),
        totals.operators.len()
    );
    if !top.is_empty() {
        let _ = writeln!(s, "top {} operators:", top.len());
        let width = top.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
        for (i, (op, n)) in top.iter().enumerate() {
            let share = 100.0 * *n as f64 / totals.op_calls().max(1) as f64;
            let _ = writeln!(s, "  {:>2}. {op:<width$} {n:>9} {share:>6.2}%", i + 1);
        }
    }
    let _ = writeln!(s, "reports written to {out_dir}");
    s
}
