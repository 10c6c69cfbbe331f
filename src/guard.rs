//! Panics inside the analysis of one file or the solving of one unit are caught and
//! recorded, never fatal to the run; fault injection lets the end-to-end tests prove it.

use std::panic::{catch_unwind, AssertUnwindSafe};

/// Environment variable for fault injection, for the end-to-end tests that a panic is
/// recorded and the run goes on: `[STAGE:]SUBSTRING` makes the analysis of paths containing
/// `SUBSTRING` panic at `STAGE`: the start of the analysis (no stage), just before the shape
/// units run (`units:`), or while solving the file's constraint jobs (`solve:`).
pub const PANIC_INJECTION_ENV: &str = "SHAPEHOUND_INJECT_PANIC";

/// Panics (with a recognisable message) when fault injection asks for it at `stage` (`""`,
/// `"units"` or `"solve"`) for `path`.
pub fn inject_panic(stage: &str, path: &str) {
    static SPEC: std::sync::OnceLock<Option<(String, String)>> = std::sync::OnceLock::new();
    let spec = SPEC.get_or_init(|| {
        let value = std::env::var(PANIC_INJECTION_ENV).ok()?;
        let (stage, substring) = match value.split_once(':') {
            Some((s, sub)) if matches!(s, "units" | "solve") => (s, sub),
            _ => ("", value.as_str()),
        };
        (!substring.is_empty()).then(|| (stage.to_string(), substring.to_string()))
    });
    if let Some((s, substring)) = spec {
        if s == stage && path.contains(substring.as_str()) {
            panic!("injected panic ({PANIC_INJECTION_ENV}, stage `{stage}`)");
        }
    }
}

thread_local! {
    static IN_ANALYSIS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether the current thread is inside a guarded analysis (its panics are recorded as
/// `internal_error` rows, so a panic hook may stay quiet about them).
pub fn in_guarded_analysis() -> bool {
    IN_ANALYSIS.with(|f| f.get())
}

/// Runs `f`, catching a panic as its message; the panic hook knows it is recorded.
pub fn catch_panic<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    let outer = IN_ANALYSIS.with(|flag| flag.replace(true));
    let result = catch_unwind(AssertUnwindSafe(f));
    IN_ANALYSIS.with(|flag| flag.set(outer));
    result.map_err(|payload| {
        payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic payload".to_string())
    })
}

/// Environment variable for fault injection, for the end-to-end tests that a failing disk
/// ends a run cleanly: writing the table it names fails as a full disk would.
pub const WRITE_FAILURE_ENV: &str = "SHAPEHOUND_INJECT_WRITE_FAILURE";

/// The error a write of `table` fails with when fault injection asks for it.
pub fn injected_write_failure(table: &str) -> Option<std::io::Error> {
    static TABLE: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    let wanted = TABLE.get_or_init(|| std::env::var(WRITE_FAILURE_ENV).ok());
    (wanted.as_deref() == Some(table)).then(|| {
        std::io::Error::new(
            std::io::ErrorKind::StorageFull,
            format!("no space left on device (injected by {WRITE_FAILURE_ENV})"),
        )
    })
}
