//! The per-file unit of work: bytes → source text → AST → operator call sites and, in
//! precise mode, the runs of the file's shape-analysis units (each one constraint job).
//! A panic anywhere inside is caught and becomes an `internal_error` outcome.

use std::sync::Arc;
use std::time::Instant;

use ruff_python_ast::ModModule;

use crate::corpus::source::{decode, NotebookMode, SourceFailure, SourceText};
use crate::corpus::{FileKind, FileStatus};
use crate::eval::data_files::Place;
use crate::eval::imports::ImportSearch;
use crate::findings::identity::LineDigests;
use crate::findings::suppress::{suppressions, Suppression};
use crate::frontend::parse_python;
use crate::guard::{catch_panic, inject_panic};
use crate::operators::teosc::TeoscOpList;
use crate::operators::{precise, teosc, CallSite};
use crate::units::{run_units_noting_operators, Unit};

/// How operators are counted.
#[derive(Clone, Debug)]
pub enum CountMode {
    /// Calls resolved through imports and aliases to canonical torch names; with `shapes`,
    /// the shape analysis runs too (and names the calls only it resolves), without it
    /// (`--no-shapes`) only calls are counted.
    Precise {
        shapes: bool,
    },
    Teosc(Arc<TeoscOpList>),
}

impl CountMode {
    pub fn name(&self) -> &'static str {
        match self {
            CountMode::Precise { .. } => "precise",
            CountMode::Teosc(_) => "teosc",
        }
    }
}

/// A call site with its notebook position (cell index, line in cell) when the file is one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocatedCall {
    pub site: CallSite,
    pub cell: Option<(u32, u32)>,
}

/// Everything one file's analysis produced.
#[derive(Clone, Debug)]
pub struct FileAnalysis {
    pub status: FileStatus,
    pub message: Option<String>,
    pub error_line: Option<u32>,
    pub error_column: Option<u32>,
    pub calls: Vec<LocatedCall>,
    pub relative_imports: Vec<String>,
    /// The module names the analysis looked up in the project or installed packages
    /// (`units::FileRun::modules_looked_up`).
    pub modules_looked_up: Vec<String>,
    /// Shape-analysis units, in `run_units` order (precise mode, parsed files only).
    pub units: Vec<Unit>,
    /// What findings' ids and suppressions read of the analysed text (precise mode): its
    /// lines' digests when it has units, its suppression comments.
    pub lines: LineDigests,
    pub suppressions: Vec<Suppression>,
    pub micros: u64,
}

impl FileAnalysis {
    /// A file that could not be analysed: a status and a message, nothing found.
    pub fn failure(
        status: FileStatus,
        message: String,
        line: Option<u32>,
        column: Option<u32>,
    ) -> Self {
        FileAnalysis {
            status,
            message: Some(message),
            error_line: line,
            error_column: column,
            calls: Vec::new(),
            relative_imports: Vec::new(),
            modules_looked_up: Vec::new(),
            units: Vec::new(),
            lines: LineDigests::default(),
            suppressions: Vec::new(),
            micros: 0,
        }
    }
}

/// Stack an analysis wants available before it starts, and the stack it grows otherwise.
const STACK_RED_ZONE: usize = 32 * 1024 * 1024;
const GROWN_STACK: usize = 256 * 1024 * 1024;

/// Stack size for threads that run analyses: enough that `maybe_grow` never needs to allocate.
pub const ANALYSIS_THREAD_STACK: usize = 512 * 1024 * 1024;

/// Analyses one file's bytes. Never panics. `imports` finds the modules it imports (none:
/// file by file).
pub fn analyse_file(
    path: &str,
    bytes: &[u8],
    kind: FileKind,
    mode: &CountMode,
    surroundings: (Option<ImportSearch>, Option<Place>),
) -> FileAnalysis {
    let start = Instant::now();
    let mut result = guarded(|| {
        inject_panic("", path);
        analyse_unguarded(path, bytes, kind, mode, surroundings)
    });
    result.micros = start.elapsed().as_micros() as u64;
    result
}

/// Runs an analysis, turning a panic into an `internal_error` outcome.
pub fn guarded(f: impl FnOnce() -> FileAnalysis) -> FileAnalysis {
    match catch_panic(f) {
        Ok(result) => result,
        Err(what) => FileAnalysis::failure(
            FileStatus::InternalError,
            format!("panic during analysis: {what}"),
            None,
            None,
        ),
    }
}

/// Decodes and parses a file, then runs `analyse` on its source and syntax tree; `scan` and
/// `check` load files this one way. A file that does not decode or parse is a
/// [`SourceFailure`] (a notebook's syntax error names its cell). Deeply nested input:
/// building, walking and dropping the AST recurse, so parsing and `analyse` run on a grown
/// stack (worker threads already have large ones, see main.rs).
pub fn load<T>(
    bytes: &[u8],
    kind: FileKind,
    mode: NotebookMode,
    analyse: impl FnOnce(&SourceText, &ModModule) -> T,
) -> Result<T, SourceFailure> {
    let source = decode(bytes, kind, mode)?;
    stacker::maybe_grow(STACK_RED_ZONE, GROWN_STACK, || {
        let module = parse_python(&source.text).map_err(|e| {
            let location = source
                .line_map
                .as_ref()
                .and_then(|m| m.locate_clamped(e.line))
                .map(|(cell, line)| format!(" (cell {cell}, line {line})"))
                .unwrap_or_default();
            SourceFailure {
                status: FileStatus::ParseError,
                message: format!("{}{location}", e.message),
                line: Some(e.line),
                column: Some(e.column),
            }
        })?;
        Ok(analyse(&source, &module))
    })
}

fn analyse_unguarded(
    path: &str,
    bytes: &[u8],
    kind: FileKind,
    mode: &CountMode,
    (imports, place): (Option<ImportSearch>, Option<Place>),
) -> FileAnalysis {
    let notebook_mode = match mode {
        CountMode::Precise { .. } => NotebookMode::Precise,
        CountMode::Teosc(_) => NotebookMode::Teosc,
    };
    let loaded = load(bytes, kind, notebook_mode, |source, module| {
        let (found, units, over_budget, modules_looked_up) = match mode {
            CountMode::Precise { shapes: false } => (
                precise::find_calls(module, &source.text),
                Vec::new(),
                false,
                Vec::new(),
            ),
            CountMode::Precise { shapes: true } => {
                let mut found = precise::find_calls(module, &source.text);
                inject_panic("units", path);
                let run = run_units_noting_operators(module, &source.text, imports, place);
                precise::add_analysed(&mut found, module, &source.text, &run.applied);
                (found, run.units, run.over_budget, run.modules_looked_up)
            }
            CountMode::Teosc(list) => (
                teosc::find_calls(module, &source.text, list),
                Vec::new(),
                false,
                Vec::new(),
            ),
        };
        let calls = found
            .calls
            .into_iter()
            .map(|site| {
                let cell = source.line_map.as_ref().and_then(|m| m.locate(site.line));
                LocatedCall { site, cell }
            })
            .collect();
        let budget = crate::budget::budgets().file_steps;
        let (lines, suppressions) = match mode {
            CountMode::Precise { shapes: true } if !units.is_empty() => {
                (LineDigests::of(&source.text), suppressions(&source.text))
            }
            CountMode::Precise { shapes: true } => {
                (LineDigests::default(), suppressions(&source.text))
            }
            CountMode::Precise { shapes: false } | CountMode::Teosc(_) => {
                (LineDigests::default(), Vec::new())
            }
        };
        FileAnalysis {
            status: if over_budget {
                FileStatus::OverBudget
            } else {
                FileStatus::Ok
            },
            message: over_budget.then(|| {
                format!(
                    "the analysis spent the file's budget of {budget} statements: units after \
                     it did not run (their jobs are skipped for budget); operator calls are all \
                     counted"
                )
            }),
            error_line: None,
            error_column: None,
            calls,
            relative_imports: found.relative_imports,
            modules_looked_up,
            units,
            lines,
            suppressions,
            micros: 0,
        }
    });
    loaded.unwrap_or_else(|f| FileAnalysis::failure(f.status, f.message, f.line, f.column))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_an_internal_error() {
        let r = guarded(|| panic!("boom"));
        assert_eq!(r.status, FileStatus::InternalError);
        assert!(r.message.unwrap().contains("boom"));
    }

    #[test]
    fn parse_errors_in_notebooks_name_the_cell() {
        let nb = br#"{"cells": [{"cell_type": "code", "source": ["x = 1\n"]},
                      {"cell_type": "code", "source": ["y = (\n"]}]}"#;
        let r = analyse_file(
            "nb.ipynb",
            nb,
            FileKind::Ipynb,
            &CountMode::Precise { shapes: true },
            (None, None),
        );
        assert_eq!(r.status, FileStatus::ParseError);
        assert!(
            r.message.as_ref().unwrap().contains("(cell 1, line"),
            "{r:?}"
        );
    }

    #[test]
    fn precise_mode_runs_the_shape_units_and_teosc_mode_does_not() {
        let src = b"import torch\nx = torch.zeros(2, 3)\ny = x.view(6)\n";
        let r = analyse_file(
            "a.py",
            src,
            FileKind::Py,
            &CountMode::Precise { shapes: true },
            (None, None),
        );
        assert_eq!(r.status, FileStatus::Ok);
        assert_eq!(r.units.len(), 1, "the module unit");
        assert_eq!(r.units[0].name, "<module>");
        let list = Arc::new(TeoscOpList::parse("zeros\n"));
        let r = analyse_file(
            "a.py",
            src,
            FileKind::Py,
            &CountMode::Teosc(list),
            (None, None),
        );
        assert_eq!(r.status, FileStatus::Ok);
        assert!(r.units.is_empty());
        let r = analyse_file(
            "a.py",
            b"def f(:\n",
            FileKind::Py,
            &CountMode::Precise { shapes: true },
            (None, None),
        );
        assert_eq!(r.status, FileStatus::ParseError);
        assert!(r.units.is_empty());
    }

    #[test]
    fn the_deepest_nesting_cpython_compiles_does_not_overflow() {
        let analyse = |src: String| {
            analyse_file(
                "deep.py",
                src.as_bytes(),
                FileKind::Py,
                &CountMode::Precise { shapes: true },
                (None, None),
            )
        };
        // CPython 3.11 compiles each of these: 200 brackets, chains 2,700 and 2,800 deep.
        let parens = format!("x = {}1{}\n", "(".repeat(200), ")".repeat(200));
        let lists = format!("x = {}1{}\n", "[".repeat(200), "]".repeat(200));
        let unary = format!("x = {}1\n", "-".repeat(2_700));
        let views = format!("y = torch.zeros(1){}\n", ".view(1)".repeat(1_400));
        for src in [parens, lists, unary, views] {
            let r = analyse(src);
            assert_eq!(r.status, FileStatus::Ok, "{r:?}");
        }
        // Deeper than CPython compiles: refused before parsing, as CPython refuses it.
        let r = analyse(format!("y = torch.zeros(1){}\n", ".view(1)".repeat(10_000)));
        assert_eq!(r.status, FileStatus::ParseError, "{r:?}");
        assert!(r.message.unwrap().contains("CPython"));
    }
}
