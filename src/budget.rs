//! How much work one file, one unit and one constraint job may take. Parsing is bounded by
//! the file size limit and CPython's nesting limits (`frontend::limits`), symbolic expansion
//! by the size bound of `shapes::dim`; these budgets bound the rest. Steps and terms rather
//! than seconds where possible, so that what is over budget is the same on any machine:
//!
//! - a unit's statements (all its runs), and a file's over all its units: a run that spends
//!   them stops, and its job is `skipped` with a `budget` reason (never a finding); a file
//!   that spends its own is `over_budget` in `files`;
//! - a constraint job's size (terms of its facts and obligations): past it, the job is not
//!   given to Z3 (`skipped`, `budget`);
//! - a job's solving time over all its Z3 checks (each check also has `--timeout-ms`).
//!
//! Set once, at start, by the binary; the library's tests use the defaults.

use std::sync::OnceLock;
use std::time::Duration;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Budgets {
    pub unit_steps: usize,
    pub file_steps: usize,
    pub job_terms: usize,
    pub job_solving: Duration,
}

impl Default for Budgets {
    fn default() -> Self {
        Budgets {
            unit_steps: 20_000,
            file_steps: 200_000,
            job_terms: 100_000,
            job_solving: Duration::from_secs(10),
        }
    }
}

static BUDGETS: OnceLock<Budgets> = OnceLock::new();

/// Sets the budgets for the rest of the process (the first call wins).
pub fn set_budgets(budgets: Budgets) {
    let _ = BUDGETS.set(budgets);
}

pub fn budgets() -> &'static Budgets {
    BUDGETS.get_or_init(Budgets::default)
}
