//! `shapehound annotate`: the inferred signature of every function, module class
//! (`forward`) and method of the files given (`signatures`), as text, JSON, or jaxtyping
//! annotations written as a patch (`git apply` / `patch -p1`).

use std::path::PathBuf;
use std::time::Duration;

use crate::analysis::load;
use crate::check::{collect_files, surroundings};
use crate::corpus::installed::SitePackages;
use crate::corpus::selection::Selection;
use crate::corpus::source::{read_bounded, NotebookMode};
use crate::corpus::{FileKind, FileStatus};
use crate::findings::render::Problem;
use crate::guard::catch_panic;
use crate::jobs::JobSolver;
use crate::signatures::{self, Signature};

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum AnnotateFormat {
    Text,
    Json,
    /// A unified diff adding jaxtyping annotations (notebooks are left out).
    Jaxtyping,
}

/// How `annotate` runs.
#[derive(Clone, Debug)]
pub struct AnnotateOptions {
    pub format: AnnotateFormat,
    pub timeout: Duration,
    pub follow_imports: bool,
    pub python_path: Vec<SitePackages>,
    pub max_file_bytes: u64,
    pub selection: Selection,
}

pub struct AnnotateReport {
    /// What goes to stdout.
    pub output: String,
    /// Files that could not be analysed.
    pub problems: Vec<Problem>,
    pub files: usize,
    /// Units described, and those with an admitted variant.
    pub units: usize,
    pub admitted: usize,
}

impl AnnotateReport {
    /// 0, or 1 when a file could not be analysed.
    pub fn exit_code(&self) -> u8 {
        let failed = self.problems.iter().filter(|p| p.is_error()).count();
        crate::exit::of_run(0, failed as u64, false, false)
    }
}

pub fn annotate(paths: &[PathBuf], options: &AnnotateOptions) -> std::io::Result<AnnotateReport> {
    let files = collect_files(paths, &options.selection)?;
    let mut solver = JobSolver::new(options.timeout);
    let mut report = AnnotateReport {
        output: String::new(),
        problems: Vec::new(),
        files: files.len(),
        units: 0,
        admitted: 0,
    };
    let mut described: Vec<(String, Vec<Signature>)> = Vec::new();
    for (path, abs, kind) in &files {
        let problem = |status: FileStatus, message: String, line, column| Problem {
            path: path.clone(),
            status,
            message,
            line,
            column,
        };
        let bytes = match read_bounded(abs, options.max_file_bytes) {
            Ok(b) => b,
            Err(refusal) => {
                report
                    .problems
                    .push(problem(refusal.status(), refusal.to_string(), None, None));
                continue;
            }
        };
        let around = surroundings(abs, options.follow_imports, &options.python_path);
        let jaxtyping = options.format == AnnotateFormat::Jaxtyping && *kind == FileKind::Py;
        let outcome = catch_panic(|| {
            load(&bytes, *kind, NotebookMode::Precise, |source, module| {
                let units = crate::units::run_units(module, &source.text, around.0, around.1);
                let sigs = signatures::file_signatures(&units, path, &mut solver);
                let patched = jaxtyping
                    .then(|| signatures::jaxtyping::annotated(&source.text, module, &sigs))
                    .flatten();
                (source.text.clone(), sigs, patched)
            })
        });
        match outcome {
            Ok(Ok((text, sigs, patched))) => {
                report.units += sigs.len();
                report.admitted += sigs
                    .iter()
                    .filter(|s| s.admitted().next().is_some())
                    .count();
                match options.format {
                    AnnotateFormat::Text => {
                        report.output += &signatures::render::text(path, &sigs);
                    }
                    AnnotateFormat::Json => {}
                    AnnotateFormat::Jaxtyping => {
                        if let Some(new) = patched {
                            report.output += &patch(path, &text, &new);
                        }
                    }
                }
                described.push((path.clone(), sigs));
            }
            Ok(Err(failure)) => report.problems.push(problem(
                failure.status,
                failure.message,
                failure.line,
                failure.column,
            )),
            Err(panic) => report.problems.push(problem(
                FileStatus::InternalError,
                format!("internal error: {panic}"),
                None,
                None,
            )),
        }
    }
    if options.format == AnnotateFormat::Json {
        report.output = signatures::render::json(&described, &report.problems);
    }
    Ok(report)
}

/// A unified diff from `old` to `new` for `path` (relative paths as `a/`, `b/`).
fn patch(path: &str, old: &str, new: &str) -> String {
    let path = path.trim_start_matches("./");
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{path}"), &format!("b/{path}"))
        .to_string()
}
