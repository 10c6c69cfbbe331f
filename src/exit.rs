//! The exit codes of `scan` and `check` (README.md, "Exit codes"); the same for both.

/// No findings (or `--exit-zero`).
pub const CLEAN: u8 = 0;
/// Findings that count (with `--baseline`: new ones), or files that cannot be read as Python
/// (`FileStatus::is_error`).
pub const FINDINGS: u8 = 1;
/// A usage or configuration error: nothing was analysed.
pub const USAGE: u8 = 2;
/// An internal or I/O failure: the run did not complete (a scan's previous report stays).
pub const FAILURE: u8 = 3;
/// Interrupted by Ctrl-C or SIGTERM.
pub const INTERRUPTED: u8 = 130;

/// The code of a run that completed: `counted` findings that count, `unparsed` files that
/// cannot be read as Python (they do not count against a baseline, which cannot say whether
/// they are new).
pub fn of_run(counted: u64, unparsed: u64, baseline: bool, exit_zero: bool) -> u8 {
    if exit_zero {
        CLEAN
    } else if counted > 0 || (unparsed > 0 && !baseline) {
        FINDINGS
    } else {
        CLEAN
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn findings_and_unparsed_files_fail_a_run_unless_told_otherwise() {
        assert_eq!(of_run(0, 0, false, false), CLEAN);
        assert_eq!(of_run(2, 0, false, false), FINDINGS);
        assert_eq!(of_run(0, 1, false, false), FINDINGS);
        assert_eq!(of_run(0, 1, true, false), CLEAN);
        assert_eq!(of_run(3, 1, true, true), CLEAN);
    }
}
