//! `shapehound check PATH...`: analyse the files of one project and report shape bugs as
//! compiler-style diagnostics, JSON, SARIF or GitHub workflow annotations. Files that cannot
//! be analysed are reported in every format too ([`Problem`]).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::analysis::load;
use crate::config::KindFilter;
use crate::corpus::installed::SitePackages;
use crate::corpus::selection::Selection;
use crate::corpus::source::{read_bounded, NotebookMode, SourceFailure};
use crate::corpus::walk::{discover_repos, walk_selected, REPO_MARKERS};
use crate::corpus::{FileKind, FileStatus};
use crate::eval::data_files::Place;
use crate::eval::imports::ImportSearch;
use crate::findings::identity::{finding_ids, normal_path, LineDigests};
use crate::findings::render::{self, FileFindings, Palette, Problem};
use crate::findings::sarif;
use crate::findings::suppress::{self, suppressions, Unused};
use crate::findings::{analyse_module, Finding, Severity};
use crate::guard::catch_panic;
use crate::jobs::JobSolver;
use crate::reports::baseline::Baseline;
use crate::resolve::layout::beside;
use crate::units::assumptions::Origin;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
    Sarif,
    /// GitHub Actions workflow commands (`::error file=...::message`): annotations on the
    /// pull request.
    Github,
}

/// What a check found.
pub struct CheckReport {
    pub files: usize,
    /// Findings that count: not suppressed and, against a baseline, new.
    pub findings: usize,
    /// The rendered report (stdout).
    pub output: String,
    /// Files that could not be analysed, or only in part (also one line each on stderr).
    pub problems: Vec<Problem>,
    /// Suppression comments that suppress nothing (also one line each on stderr).
    pub unused_suppressions: Vec<Unused>,
    /// Against a baseline (then only new findings count for the exit code).
    pub baseline: bool,
    /// `--assume` conditions that no run of any unit checked could apply (a warning on
    /// stderr: a name misspelt, or no unit with such inputs).
    pub unapplied_assumptions: Vec<String>,
}

impl CheckReport {
    /// 1 when there are findings or a file failed (a syntax error, an unreadable file), else
    /// 0.
    pub fn exit_code(&self, exit_zero: bool) -> u8 {
        exit_code(self.findings, &self.problems, self.baseline, exit_zero)
    }
}

fn exit_code(findings: usize, problems: &[Problem], baseline: bool, exit_zero: bool) -> u8 {
    let failed = problems.iter().filter(|p| p.is_error()).count();
    crate::exit::of_run(findings as u64, failed as u64, baseline, exit_zero)
}

struct Analysed {
    path: String,
    text: String,
    findings: Vec<Finding>,
}

/// The `.py` / `.ipynb` files under the given paths: a file as given, a folder walked with
/// the scan's rules (VCS folders, virtualenvs, `site-packages` skipped).
pub fn collect_files(
    paths: &[PathBuf],
    selection: &Selection,
) -> std::io::Result<Vec<(String, PathBuf, FileKind)>> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_file() {
            let kind = FileKind::from_path(p).unwrap_or(FileKind::Py);
            out.push((p.display().to_string(), p.clone(), kind));
            continue;
        }
        // Archives are corpora for `scan`; a project's own files are checked.
        let repos = discover_repos(std::slice::from_ref(p))?;
        for repo in repos.into_iter().filter(|r| r.archive.is_none()) {
            walk_selected(&repo, selection, u64::MAX, |f| {
                if !f.outside_root && f.folder.is_none() {
                    out.push((display_path(p, &f.abs_path), f.abs_path.clone(), f.kind));
                }
            });
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

fn display_path(root: &Path, abs: &Path) -> String {
    let base = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    match abs.strip_prefix(&base) {
        Ok(rel) => root.join(rel).display().to_string(),
        Err(_) => abs.display().to_string(),
    }
}

/// Where a file's imports resolve (its project, when followed, and installed packages) and
/// where it is, for the configuration files it reads beside itself.
pub fn surroundings(
    abs: &Path,
    follow_imports: bool,
    python_path: &[SitePackages],
) -> (Option<ImportSearch>, Option<Place>) {
    let project = match follow_imports {
        true => ImportSearch::for_file(abs, Path::new("/")),
        false => None,
    };
    let imports = match project {
        Some(search) => Some(search.with_installed(python_path)),
        None if !python_path.is_empty() => Some(ImportSearch::installed_only(python_path)),
        None => None,
    };
    (imports, Place::new(abs, Path::new("/")))
}

/// How `check` runs.
#[derive(Clone, Debug)]
pub struct CheckOptions {
    pub format: Format,
    pub timeout: Duration,
    /// Imports resolve within each file's whole project (the packages above it are read).
    pub follow_imports: bool,
    /// Folders of installed packages, read when a file imports from them.
    pub python_path: Vec<SitePackages>,
    /// Larger files are not read (a problem each).
    pub max_file_bytes: u64,
    /// ANSI colours in the text format (never in the others).
    pub color: bool,
    /// A previous scan's report: findings are `new` or `unchanged` against it.
    pub baseline: Option<std::sync::Arc<Baseline>>,
    /// Which files of the folders given are analysed (files given by name always are).
    pub selection: Selection,
    /// Which finding kinds are reported.
    pub kinds: KindFilter,
    /// The exit code ignores findings (SARIF's `exitCode` says so too).
    pub exit_zero: bool,
    /// Warnings count as findings for the exit code.
    pub strict: bool,
}

/// Checks files and folders.
pub fn check(paths: &[PathBuf], options: &CheckOptions) -> std::io::Result<CheckReport> {
    let CheckOptions {
        format,
        timeout,
        follow_imports,
        ref python_path,
        max_file_bytes,
        color,
        ref baseline,
        ref selection,
        ref kinds,
        exit_zero,
        strict,
    } = *options;
    let files = collect_files(paths, selection)?;
    let mut solver = JobSolver::new(timeout);
    let mut analysed = Vec::new();
    let mut problems = Vec::new();
    let mut assumptions_applied = BTreeSet::new();
    let timing = std::env::var_os("SHAPEHOUND_TIMING").is_some();
    for (path, abs, kind) in &files {
        let bytes = match read_bounded(abs, max_file_bytes) {
            Ok(b) => b,
            Err(refusal) => {
                problems.push(Problem {
                    path: path.clone(),
                    status: refusal.status(),
                    message: refusal.to_string(),
                    line: None,
                    column: None,
                });
                continue;
            }
        };
        let started = std::time::Instant::now();
        let surroundings = surroundings(abs, follow_imports, python_path);
        let outcome = analyse_bytes(path, &bytes, *kind, surroundings, &mut solver);
        if timing {
            eprintln!("timing {} ms {path}", started.elapsed().as_millis());
        }
        match outcome {
            Ok(Outcome {
                text,
                findings,
                over_budget,
                assumptions_applied: applied,
            }) => {
                assumptions_applied.extend(applied);
                if over_budget > 0 {
                    problems.push(Problem {
                        path: path.clone(),
                        status: FileStatus::OverBudget,
                        message: format!(
                            "{over_budget} runs spent their statement budget and prove \
                             nothing (--unit-steps, --file-steps)"
                        ),
                        line: None,
                        column: None,
                    });
                }
                analysed.push(Analysed {
                    path: path.clone(),
                    text,
                    findings,
                })
            }
            Err(failure) => problems.push(Problem {
                path: path.clone(),
                status: failure.status,
                message: failure.message,
                line: failure.line,
                column: failure.column,
            }),
        }
    }
    let mut analysed = by_failing_file(analysed);
    let mut unused_suppressions = Vec::new();
    for a in &mut analysed {
        // Kinds not reported still use their suppressions (as in `scan`).
        unused_suppressions.extend(settle(a, baseline.as_deref()));
        a.findings.retain(|f| kinds.reports(f.kind.code()));
    }
    let views: Vec<FileFindings<'_>> = analysed
        .iter()
        .filter(|a| !a.findings.is_empty())
        .map(|a| FileFindings {
            path: &a.path,
            text: &a.text,
            findings: &a.findings,
        })
        .collect();
    let findings = views
        .iter()
        .map(|v| {
            v.findings
                .iter()
                .filter(|f| f.counts() && (strict || f.severity == Severity::Error))
                .count()
        })
        .sum();
    let cwd = std::env::current_dir()?;
    let output = match format {
        Format::Text => {
            let palette = Palette { enabled: color };
            let mut s = render::text(&views, palette);
            s.push_str(&render::problems_text(&problems, palette));
            s.push_str(&render::unused_text(&unused_suppressions, palette));
            let failed = problems.iter().filter(|p| p.is_error()).count();
            let all = views.iter().flat_map(|v| v.findings.iter());
            let suppressed = all.clone().filter(|f| f.suppressed).count();
            let unchanged = all.clone().filter(|f| !f.suppressed && !f.counts()).count();
            let warnings = all
                .filter(|f| f.counts() && f.severity == Severity::Warning)
                .count();
            let mut also = Vec::new();
            if warnings > 0 && !strict {
                also.push(format!("{warnings} warning{}", plural(warnings)));
            }
            if suppressed > 0 {
                also.push(format!("{suppressed} suppressed"));
            }
            if baseline.is_some() {
                also.push(format!("{unchanged} unchanged against the baseline"));
            }
            s.push_str(&format!(
                "{}{} finding{} in {} file{}{}{}\n",
                findings,
                if baseline.is_some() { " new" } else { "" },
                plural(findings),
                files.len(),
                plural(files.len()),
                match failed {
                    0 => String::new(),
                    n => format!(", {n} file{} with errors", plural(n)),
                },
                if also.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", also.join(", "))
                }
            ));
            s
        }
        Format::Json => render::json(&views, &problems, &unused_suppressions, files.len()),
        Format::Sarif => sarif::sarif(
            &views,
            &problems,
            &cwd,
            i32::from(exit_code(
                findings,
                &problems,
                baseline.is_some(),
                exit_zero,
            )),
        ),
        Format::Github => {
            let uris = sarif::Uris::new(&cwd, [] as [&str; 0]);
            render::github(&views, &problems, &unused_suppressions, &|p| {
                uris.relative_or_given(p)
            })
        }
    };
    let unapplied_assumptions = crate::units::assumptions::active()
        .iter()
        .enumerate()
        .filter(|(i, a)| a.origin == Origin::CommandLine && !assumptions_applied.contains(i))
        .map(|(_, a)| a.text.clone())
        .collect();
    Ok(CheckReport {
        unapplied_assumptions,
        files: files.len(),
        findings,
        output,
        problems,
        unused_suppressions,
        baseline: baseline.is_some(),
    })
}

/// The findings regrouped by the file of their failing operation: a finding in another file
/// of the project (reached from an analysed file) is that file's, once however many files
/// reach it (an error before a warning, as in the scan's `settle_file`); related spans name their file when it is not the finding's.
fn by_failing_file(analysed: Vec<Analysed>) -> Vec<Analysed> {
    let mut files: BTreeMap<String, Analysed> = BTreeMap::new();
    let mut moved: Vec<(String, Finding)> = Vec::new();
    for mut a in analysed {
        for mut f in std::mem::take(&mut a.findings) {
            let path = match f.path.take() {
                Some(rel) => beside(&a.path, &rel),
                None => a.path.clone(),
            };
            for r in &mut f.related {
                r.path = match r.path.take() {
                    Some(rel) => Some(beside(&a.path, &rel)),
                    None => (path != a.path).then(|| a.path.clone()),
                };
            }
            moved.push((path, f));
        }
        files.insert(a.path.clone(), a);
    }
    for (path, f) in moved {
        let file = files.entry(path.clone()).or_insert_with(|| Analysed {
            text: std::fs::read_to_string(&path).unwrap_or_default(),
            path,
            findings: Vec::new(),
        });
        // One finding per operation; an error is not hidden behind another unit's warning.
        let seen = file
            .findings
            .iter_mut()
            .find(|g| g.span == f.span && g.operator == f.operator && g.kind == f.kind);
        match seen {
            None => file.findings.push(f),
            Some(g) if g.severity == Severity::Warning && f.severity == Severity::Error => *g = f,
            Some(_) => {}
        }
    }
    let mut out: Vec<Analysed> = files.into_values().collect();
    for a in &mut out {
        a.findings.sort_by_key(|f| f.span);
    }
    out
}

/// One file's findings given their ids, suppressions and baseline states (read from its
/// text); returns its unused suppressions.
fn settle(a: &mut Analysed, baseline: Option<&Baseline>) -> Vec<Unused> {
    // Most files have no finding: their ids (a path lookup, every line digested) are not needed.
    let ids = if a.findings.is_empty() {
        Vec::new()
    } else {
        let lines = LineDigests::of(&a.text);
        finding_ids(
            &project_path(&a.path),
            a.findings.iter().map(|f| (f, lines.get(f.span.line))),
        )
    };
    let sups = suppressions(&a.text);
    let spans: Vec<(&str, u32, u32)> = a
        .findings
        .iter()
        .map(|f| (f.kind.code(), f.span.line, f.span.end_line))
        .collect();
    let (suppressed, unused) = suppress::apply(&sups, &spans);
    for ((f, id), s) in a.findings.iter_mut().zip(ids).zip(suppressed) {
        // A suppressed finding has no state: it never counts, and the baseline holds only
        // findings that count (so removing a suppression makes its finding new).
        f.baseline = baseline.filter(|_| !s).map(|b| b.state(&id).to_string());
        f.id = id;
        f.suppressed = s;
    }
    unused
        .into_iter()
        .map(|i| Unused {
            path: a.path.clone(),
            line: sups[i].line,
            message: sups[i].unused_message(),
        })
        .collect()
}

/// A file's path inside its project, as finding ids name it (and as `scan` of the
/// project's root names it): relative to the nearest folder above it with `.git`, else with
/// `pyproject.toml` or `setup.py`, else to the current folder.
pub fn project_path(path: &str) -> String {
    let Ok(abs) = Path::new(path).canonicalize() else {
        return normal_path(path);
    };
    let root = |marker: &[&str]| {
        abs.ancestors()
            .skip(1)
            .find(|dir| marker.iter().any(|m| dir.join(m).exists()))
            .map(Path::to_path_buf)
    };
    let (vcs, other) = REPO_MARKERS.split_at(1);
    let base = root(vcs).or_else(|| root(other)).or_else(|| {
        std::env::current_dir()
            .ok()
            .and_then(|d| d.canonicalize().ok())
    });
    match base.as_deref().and_then(|b| abs.strip_prefix(b).ok()) {
        Some(rel) => normal_path(&crate::corpus::walk::path_text(rel)),
        None => normal_path(path),
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// Loads and analyses one file ([`load`]); a panic is caught and reported.
/// One file's analysis, as `check` reports it.
struct Outcome {
    text: String,
    findings: Vec<Finding>,
    /// Runs that spent their statement budget.
    over_budget: usize,
    /// The assumptions (indices into `units::assumptions::active`) some run applied.
    assumptions_applied: BTreeSet<usize>,
}

fn analyse_bytes(
    path: &str,
    bytes: &[u8],
    kind: FileKind,
    surroundings: (Option<ImportSearch>, Option<Place>),
    solver: &mut JobSolver,
) -> Result<Outcome, SourceFailure> {
    let result = catch_panic(|| {
        load(bytes, kind, NotebookMode::Precise, |source, module| {
            let shapes = analyse_module(module, &source.text, path, surroundings, solver);
            let assumptions_applied = shapes
                .units
                .iter()
                .flat_map(|u| &u.runs)
                .flat_map(|r| r.trace.assumptions.iter().copied())
                .collect();
            Outcome {
                text: source.text.clone(),
                findings: shapes.findings,
                over_budget: shapes.runs_over_budget,
                assumptions_applied,
            }
        })
    });
    match result {
        Ok(Ok(analysed)) => Ok(analysed),
        Ok(Err(f)) => Err(f),
        Err(panic) => Err(SourceFailure::new(
            FileStatus::InternalError,
            format!("internal error: {panic}"),
        )),
    }
}
