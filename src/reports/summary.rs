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
    let _ = writeln!(s, "{}", findings_line(totals));
    let _ = writeln!(s, "{}", jobs_line(totals));
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

/// `findings: 3 (channel-mismatch 2, reshape-numel 1)`, kinds by count then name.
fn findings_line(totals: &ScanTotals) -> String {
    let mut kinds: Vec<(&String, &u64)> = totals.findings_by_kind.iter().collect();
    kinds.sort_by(|a, b| b.1.cmp(a.1).then_with(|| a.0.cmp(b.0)));
    let by_kind: Vec<String> = kinds.iter().map(|(k, n)| format!("{k} {n}")).collect();
    let mut line = if by_kind.is_empty() {
        format!("findings: {}", totals.findings())
    } else {
        format!("findings: {} ({})", totals.findings(), by_kind.join(", "))
    };
    if totals.findings_suppressed > 0 {
        line.push_str(&format!("; {} suppressed", totals.findings_suppressed));
    }
    if totals.warnings > 0 {
        line.push_str(&format!(
            "; {} unused suppression{} (warning rows in `findings`)",
            totals.warnings,
            if totals.warnings == 1 { "" } else { "s" }
        ));
    }
    line
}

/// `constraint jobs: 120 (sat 100, unsat 5, unknown/timeout 0, skipped 15), 12.5% needed Z3`.
fn jobs_line(totals: &ScanTotals) -> String {
    let jobs = totals.jobs();
    let share = 100.0 * totals.jobs_z3 as f64 / jobs.max(1) as f64;
    format!(
        "constraint jobs: {jobs} (sat {}, unsat {}, unknown/timeout {}, skipped {}), {share:.1}% needed Z3",
        totals.jobs_with("sat"),
        totals.jobs_with("unsat"),
        totals.jobs_with("unknown"),
        totals.jobs_with("skipped"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn findings_and_jobs_lines() {
        let mut t = ScanTotals::default();
        assert_eq!(findings_line(&t), "findings: 0");
        t.findings_by_kind.insert("reshape-numel".into(), 1);
        t.findings_by_kind.insert("channel-mismatch".into(), 2);
        assert_eq!(
            findings_line(&t),
            "findings: 3 (channel-mismatch 2, reshape-numel 1)"
        );
        t.jobs_by_result.insert("sat".into(), 6);
        t.jobs_by_result.insert("unsat".into(), 2);
        t.jobs_z3 = 2;
        assert_eq!(
            jobs_line(&t),
            "constraint jobs: 8 (sat 6, unsat 2, unknown/timeout 0, skipped 0), 25.0% needed Z3"
        );
    }
}
