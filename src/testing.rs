//! Test helpers shared across modules: the findings of a source text, a program's buggy and
//! clean twins, one rule applied to values.

use crate::catalogue::{apply, lookup, RuleKind, RuleResult};
use crate::findings::{analyse_module, Finding};
use crate::jobs::{JobSolver, DEFAULT_TIMEOUT};
use crate::shapes::value::Value;

/// The findings of a source text (no imports followed).
pub(crate) fn findings(src: &str) -> Vec<Finding> {
    let module = crate::frontend::parse_python(src).expect("parsable test source");
    let mut solver = JobSolver::new(DEFAULT_TIMEOUT);
    analyse_module(&module, src, "test.py", (None, None), &mut solver).findings
}

/// The lines of the findings of a source text, in order.
pub(crate) fn finding_lines(src: &str) -> Vec<u32> {
    findings(src).iter().map(|f| f.span.line).collect()
}

/// The errors of a source text (its warnings left out).
pub(crate) fn errors(src: &str) -> Vec<Finding> {
    let mut found = findings(src);
    found.retain(|f| f.severity == crate::findings::Severity::Error);
    found
}

/// The units of a source text under the given assumptions (`units::assumptions`), as the
/// command line would give them.
pub(crate) fn units_assuming(src: &str, assumed: &[&str]) -> Vec<crate::units::Unit> {
    use crate::units::assumptions::{Assumption, Origin};
    let module = crate::frontend::parse_python(src).expect("parsable test source");
    let assumed: Vec<Assumption> = assumed
        .iter()
        .map(|a| Assumption::parse(a, Origin::CommandLine).expect("a valid assumption"))
        .collect();
    crate::units::run_units_assuming(&module, src, &assumed)
}

/// The findings of a source text under the given assumptions (`units::assumptions`).
pub(crate) fn findings_assuming(src: &str, assumed: &[&str]) -> Vec<Finding> {
    let units = units_assuming(src, assumed);
    let mut solver = JobSolver::new(DEFAULT_TIMEOUT);
    crate::findings::file_findings(units.iter().filter_map(|u| {
        let solved = crate::jobs::solve_unit(u, "test.py", &mut solver);
        crate::findings::unit_finding(u, &solved)
    }))
}

/// A buggy twin and a clean twin of one source: with `key` replaced by `buggy`, exactly
/// one finding, at `line`; with `key` replaced by `clean`, none.
pub(crate) fn assert_twins(src: &str, key: &str, buggy: &str, clean: &str, line: u32) {
    let found = findings(&src.replace(key, buggy));
    assert_eq!(found.len(), 1, "{key} = {buggy}: {found:?}");
    assert_eq!(found[0].span.line, line, "{key} = {buggy}");
    let clean_found = findings(&src.replace(key, clean));
    assert!(clean_found.is_empty(), "{key} = {clean}: {clean_found:?}");
}

/// Cases of a function whose body (each case's, after `prelude`, which opens the `def`) sets
/// `n`, then returns `[4, n] @ [WIDTH, 3]`: each case gives the width torch accepts; 5 is
/// the width it rejects, found at the return.
pub(crate) fn assert_width_cases(prelude: &str, cases: &[(&str, &str)]) {
    for (body, width) in cases {
        let src =
            format!("{prelude}    {body}\n    return torch.zeros(4, n) @ torch.zeros(WIDTH, 3)\n");
        let line = src.lines().count() as u32;
        assert_twins(&src, "WIDTH", "5", width, line);
    }
}

/// The function rule `op` applied to arguments.
pub(crate) fn call(op: &str, args: Vec<Value>, kwargs: Vec<(&str, Value)>) -> RuleResult {
    let Some(RuleKind::Function(f)) = lookup(op).map(|r| r.kind) else {
        panic!("no function rule {op}");
    };
    let kwargs = kwargs
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
    apply(f, op, args, kwargs, None).map(|o| o.value)
}

/// Int values.
pub(crate) fn ints(xs: &[i64]) -> Vec<Value> {
    xs.iter().map(|&x| Value::int(x)).collect()
}
