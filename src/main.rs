//! The `shapehound` binary: argument handling, the progress bar, the summary, the `run` table.

use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use anyhow::Context;
use clap::{CommandFactory, FromArgMatches};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use shapehound::analysis::CountMode;
use shapehound::cli::{Cli, Command, CountModeArg, ScanArgs};
use shapehound::config::Config;
use shapehound::corpus::selection::Selection;
use shapehound::corpus::FileStatus;
use shapehound::dataflow::cache::ResultCache;
use shapehound::dataflow::{run_scan, ScanOptions};
use shapehound::exit;
use shapehound::operators::api::torch_api;
use shapehound::operators::teosc::TeoscOpList;
use shapehound::reports::baseline::Baseline;
use shapehound::reports::parquet::write_single;
use shapehound::reports::staging::{abandon, phase, set_phase, OutputLock, Phase, Staging};
use shapehound::reports::summary::{render, top_operators};
use shapehound::reports::tables::{FixedRow, RunRow, Table};

// Parsing allocates many small AST nodes per file; glibc malloc was a third of the profile.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The staging folder of the scan under way, for a failure that must end it at once.
static RUN_STAGING: std::sync::OnceLock<Staging> = std::sync::OnceLock::new();

/// A usage error: one line on stderr, exit code 2.
struct Usage(String);

fn main() -> ExitCode {
    // Timely spawns the worker threads; their stack size comes from RUST_MIN_STACK. Large
    // stacks let deeply nested files be parsed, walked and dropped without allocating a new
    // stack per file (pages are only committed when touched).
    if std::env::var_os("RUST_MIN_STACK").is_none() {
        std::env::set_var(
            "RUST_MIN_STACK",
            shapehound::analysis::ANALYSIS_THREAD_STACK.to_string(),
        );
    }
    // A panic inside one file's analysis is caught and becomes that file's `internal_error`
    // row; say so in one line instead of a backtrace in the middle of the progress bar.
    let default_hook = std::panic::take_hook();
    // Outside one file's analysis, a panic ends a scan at once, the previous report intact:
    // in timely's network threads it means a peer process died or its connection broke.
    std::panic::set_hook(Box::new(move |info| {
        if shapehound::guard::in_guarded_analysis() {
            eprintln!(
                "warning: internal error while analysing a file (recorded in `files` or `jobs`): {info}"
            );
        } else if let Some(staging) = RUN_STAGING.get() {
            let thread = std::thread::current();
            let network = thread
                .name()
                .is_some_and(|n| n.starts_with("timely:recv") || n.starts_with("timely:send"));
            if network {
                let reason = "lost the connection to another process of the cluster run \
                              (it died, or the network failed)";
                abandon(staging, reason, exit::FAILURE.into());
            }
            abandon(
                staging,
                &format!("internal error: {info}"),
                exit::FAILURE.into(),
            );
        } else {
            default_hook(info);
        }
    }));
    let parsed = Cli::command()
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m).map(|cli| (cli, m)));
    let (mut cli, matches) = match parsed {
        Ok(parsed) => parsed,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            let rendered = e.to_string();
            let first = rendered
                .lines()
                .next()
                .unwrap_or("error: invalid arguments");
            eprintln!("{first} (see `shapehound --help`)");
            return ExitCode::from(exit::USAGE);
        }
    };
    // The configuration file fills in what the command line did not give.
    let sub = matches.subcommand().map(|(_, m)| m);
    let given = |id: &str| {
        sub.and_then(|m| m.value_source(id)) == Some(clap::parser::ValueSource::CommandLine)
    };
    let configured = match &mut cli.command {
        Command::Explain(_) => Ok(Config::default()),
        Command::Annotate(args) => {
            configure(&args.paths, &args.config).inspect(|c| args.configure(c, &given))
        }
        Command::Check(args) => {
            configure(&args.paths, &args.config).inspect(|c| args.configure(c, &given))
        }
        Command::Scan(args) => {
            configure(&args.roots, &args.config).inspect(|c| args.configure(c, &given))
        }
    };
    let config = match configured {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(exit::USAGE);
        }
    };
    match &cli.command {
        Command::Check(args) => shapehound::budget::set_budgets(args.budgets.budgets()),
        Command::Scan(args) => shapehound::budget::set_budgets(args.budgets.budgets()),
        Command::Annotate(args) => shapehound::budget::set_budgets(args.budgets.budgets()),
        Command::Explain(_) => {}
    }
    let assumed = match &cli.command {
        Command::Check(args) => args.assume.read(&config),
        Command::Scan(args) => args.assume.read(&config),
        Command::Annotate(args) => args.assume.read(&config),
        Command::Explain(_) => Ok(Vec::new()),
    };
    match assumed {
        Ok(assumed) => shapehound::units::assumptions::set_active(assumed),
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(exit::USAGE);
        }
    }
    match cli.command {
        Command::Check(args) => check(args, &config),
        Command::Annotate(args) => annotate(args, &config),
        Command::Explain(args) => explain(args),
        Command::Scan(args) => match scan(*args, &config) {
            Ok(code) => ExitCode::from(code),
            Err(Failure::Usage(Usage(msg))) => {
                eprintln!("error: {msg}");
                ExitCode::from(exit::USAGE)
            }
            Err(Failure::Run(e)) => {
                eprintln!("error: {e:#}");
                ExitCode::from(exit::FAILURE)
            }
        },
    }
}

/// The configuration for a run over `paths` (`config.rs`).
fn configure(
    paths: &[std::path::PathBuf],
    args: &shapehound::cli::ConfigArgs,
) -> Result<Config, shapehound::config::ConfigError> {
    Config::discover(paths, args.config.as_deref(), args.no_config)
}

/// What the walk keeps, from the configuration and `--no-gitignore`.
fn selection(config: &Config, args: &shapehound::cli::ConfigArgs) -> Result<Selection, String> {
    config
        .selection(!args.no_gitignore)
        .map_err(|e| e.to_string())
}

fn annotate(args: shapehound::cli::AnnotateArgs, config: &Config) -> ExitCode {
    if let Some(missing) = args.paths.iter().find(|p| !p.exists()) {
        eprintln!("error: no such file or folder: {}", missing.display());
        return ExitCode::from(exit::USAGE);
    }
    let (python_path, selection) = match (args.installed.resolve(), selection(config, &args.config))
    {
        (Ok(p), Ok(s)) => (p, s),
        (Err(e), _) => {
            eprintln!("error: {e}");
            return ExitCode::from(exit::USAGE);
        }
        (_, Err(e)) => {
            eprintln!("error: {e}");
            return ExitCode::from(exit::USAGE);
        }
    };
    let options = shapehound::annotate::AnnotateOptions {
        format: args.format,
        timeout: std::time::Duration::from_millis(args.timeout_ms),
        follow_imports: args.follow_imports,
        python_path,
        max_file_bytes: args.max_file_size,
        selection,
    };
    match shapehound::annotate::annotate(&args.paths, &options) {
        Ok(report) => {
            for p in &report.problems {
                eprintln!(
                    "warning: {}",
                    shapehound::findings::render::printable(&p.to_string())
                );
            }
            print!("{}", report.output);
            ExitCode::from(report.exit_code())
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(exit::FAILURE)
        }
    }
}

fn check(args: shapehound::cli::CheckArgs, config: &Config) -> ExitCode {
    // Ctrl-C ends a check at once, Z3 at work or not (it writes nothing to protect).
    let _ = ctrlc::set_handler(|| {
        eprintln!("error: interrupted");
        // SAFETY: ends the process without unwinding threads that may be inside Z3.
        unsafe { libc::_exit(exit::INTERRUPTED.into()) }
    });
    if let Some(missing) = args.paths.iter().find(|p| !p.exists()) {
        eprintln!("error: no such file or folder: {}", missing.display());
        return ExitCode::from(exit::USAGE);
    }
    let python_path = match args.installed.resolve() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(exit::USAGE);
        }
    };
    let baseline = match args
        .gate
        .baseline
        .as_deref()
        .map(Baseline::load)
        .transpose()
    {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(exit::USAGE);
        }
    };
    let selection = match selection(config, &args.config) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(exit::USAGE);
        }
    };
    let options = shapehound::check::CheckOptions {
        format: args.format,
        timeout: std::time::Duration::from_millis(args.timeout_ms),
        follow_imports: args.follow_imports,
        python_path,
        max_file_bytes: args.max_file_size,
        baseline: baseline.map(Arc::new),
        selection,
        kinds: config.kinds(),
        exit_zero: args.gate.exit_zero,
        strict: args.gate.strict,
        color: args.color.enabled(
            |name| std::env::var(name).ok(),
            std::io::stdout().is_terminal(),
        ),
    };
    match shapehound::check::check(&args.paths, &options) {
        Ok(report) => {
            for p in &report.problems {
                eprintln!(
                    "warning: {}",
                    shapehound::findings::render::printable(&p.to_string())
                );
            }
            print!("{}", report.output);
            for u in &report.unused_suppressions {
                eprintln!(
                    "warning: {}:{}: {}",
                    shapehound::findings::render::printable(&u.path),
                    u.line,
                    u.message
                );
            }
            for a in &report.unapplied_assumptions {
                eprintln!(
                    "warning: --assume `{a}` applied to no unit: no unit checked has inputs \
                     with all the names it reads"
                );
            }
            ExitCode::from(report.exit_code(args.gate.exit_zero))
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(exit::FAILURE)
        }
    }
}

/// `shapehound explain KIND` / `--all`: an unknown kind is a usage error naming the known
/// ones.
fn explain(args: shapehound::cli::ExplainArgs) -> ExitCode {
    use shapehound::findings::explain;
    if args.all {
        print!("{}", explain::list());
        return ExitCode::SUCCESS;
    }
    let code = args.kind.unwrap_or_default();
    match explain::explain_code(&code) {
        Some(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        None => {
            let known: Vec<&str> = shapehound::shapes::kind::FindingKind::ALL
                .iter()
                .map(|k| k.code())
                .chain([shapehound::findings::suppress::UNUSED_KIND])
                .collect();
            eprintln!(
                "error: unknown finding kind `{}` (known: {})",
                shapehound::findings::render::printable(&code),
                known.join(", ")
            );
            ExitCode::from(exit::USAGE)
        }
    }
}

enum Failure {
    Usage(Usage),
    Run(anyhow::Error),
}

impl From<anyhow::Error> for Failure {
    fn from(e: anyhow::Error) -> Self {
        Failure::Run(e)
    }
}

fn usage(msg: impl Into<String>) -> Failure {
    Failure::Usage(Usage(msg.into()))
}

fn scan(args: ScanArgs, config: &Config) -> std::result::Result<u8, Failure> {
    for root in &args.roots {
        if !root.exists() {
            return Err(usage(format!(
                "corpus root `{}` does not exist",
                root.display()
            )));
        }
    }
    if let Some(missing) = args.parquet_source.iter().find(|f| !f.is_file()) {
        return Err(usage(format!(
            "Parquet source `{}` is not a file",
            missing.display()
        )));
    }
    if args.process >= args.processes {
        return Err(usage(format!(
            "process index -p {} must be below the number of processes -n {}",
            args.process, args.processes
        )));
    }
    if args.processes > 1 && args.hostfile.is_none() {
        return Err(usage("a cluster run (-n > 1) needs a hostfile (-h FILE)"));
    }
    let python_path = args.installed.resolve().map_err(|e| usage(e.to_string()))?;
    let baseline = match &args.gate.baseline {
        Some(dir) => Some(Arc::new(
            Baseline::load(dir).map_err(|e| usage(e.to_string()))?,
        )),
        None => None,
    };
    let mode = match (args.count_mode, &args.op_list) {
        (CountModeArg::Precise, None) => CountMode::Precise {
            shapes: !args.no_shapes,
        },
        (CountModeArg::Precise, Some(_)) => {
            return Err(usage("--op-list only applies to --count-mode teosc"))
        }
        (CountModeArg::Teosc, _) if args.no_shapes => return Err(usage(
            "--no-shapes only applies to --count-mode precise (teosc counts never analyse shapes)",
        )),
        (CountModeArg::Teosc, None) => {
            return Err(usage(
                "--count-mode teosc needs --op-list FILE (TEOSC's pytorch_operations.txt)",
            ))
        }
        (CountModeArg::Teosc, Some(path)) => match TeoscOpList::load(path) {
            Ok(list) if !list.keys().is_empty() => CountMode::Teosc(Arc::new(list)),
            Ok(_) => {
                return Err(usage(format!(
                    "op list `{}` has no operators",
                    path.display()
                )))
            }
            Err(e) => {
                return Err(usage(format!(
                    "cannot read op list `{}`: {e}",
                    path.display()
                )))
            }
        },
    };
    let list = match &mode {
        CountMode::Teosc(l) => Some(l.clone()),
        CountMode::Precise { .. } => None,
    };

    let out: &Path = &args.out;
    if out.exists() && !out.is_dir() {
        return Err(Failure::Run(anyhow::anyhow!(
            "report path `{}` exists and is not a directory",
            out.display()
        )));
    }
    let process = args.process as usize;
    let _lock = OutputLock::acquire(out, process).map_err(|e| Failure::Run(e.into()))?;
    let staging = Staging::create(out, process).map_err(|e| Failure::Run(e.into()))?;
    // Ctrl-C (and a scheduler's SIGTERM) end the run within moments, the previous report
    // intact; Z3's own handler is off (`JobSolver`).
    let on_signal = staging.clone();
    ctrlc::set_handler(move || abandon(&on_signal, "interrupted", exit::INTERRUPTED.into()))
        .map_err(|e| Failure::Run(anyhow::anyhow!("cannot install the Ctrl-C handler: {e}")))?;
    let _ = RUN_STAGING.set(staging.clone());
    if args.processes > 1 {
        // Timely waits for its peers forever: a process that never comes is an error.
        let waited = std::time::Duration::from_secs(args.connect_timeout);
        let on_timeout = staging.clone();
        std::thread::spawn(move || {
            std::thread::sleep(waited);
            if !shapehound::dataflow::scan::workers_started() {
                let reason = format!(
                    "the other processes of the cluster run did not connect within {} s \
                     (--connect-timeout): check the hostfile and that each process was started",
                    waited.as_secs()
                );
                abandon(&on_timeout, &reason, exit::FAILURE.into());
            }
        });
    }
    let show_progress = !args.quiet && args.processes == 1 && std::io::stderr().is_terminal();
    let progress = show_progress.then(|| {
        let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} files  {rate}  eta {eta}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .with_key(
                "rate",
                |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{:.0} files/s", state.per_sec());
                },
            ),
        );
        bar
    });

    let cache = match (args.no_cache, &mode) {
        (false, CountMode::Precise { shapes: true }) => {
            let dir = args.cache.clone().unwrap_or_else(|| out.join(".cache"));
            let digest = cache_digest(&args, &python_path);
            let t0 = Instant::now();
            // The cache only saves time: one that cannot be used is a warning, not a failure.
            match ResultCache::open(&dir, &digest) {
                Ok(opened) => {
                    if std::env::var_os("SHAPEHOUND_TIMING").is_some() {
                        eprintln!("timing: cache read in {:?}", t0.elapsed());
                    }
                    Some(Arc::new(opened))
                }
                Err(e) => {
                    eprintln!(
                        "warning: the result cache `{}` cannot be used ({e}): this run \
                         computes everything and caches nothing",
                        dir.display()
                    );
                    None
                }
            }
        }
        _ => None,
    };
    let started = SystemTime::now();
    let clock = Instant::now();
    let options = ScanOptions {
        roots: args.roots.clone(),
        parquet_sources: args
            .parquet_source
            .iter()
            .map(|file| shapehound::corpus::dataset::ParquetSource {
                file: file.clone(),
                repo_column: args.parquet_columns.repo.clone(),
                path_column: args.parquet_columns.path.clone(),
                content_column: args.parquet_columns.content.clone(),
            })
            .collect(),
        staging: staging.clone(),
        max_file_bytes: args.max_file_size,
        mode: mode.clone(),
        solver_timeout: std::time::Duration::from_millis(args.timeout_ms),
        timely_args: args.timely_args(),
        progress: progress.clone(),
        follow_imports: args.follow_imports,
        python_path,
        baseline: baseline.clone(),
        selection: Arc::new(selection(config, &args.config).map_err(usage)?),
        kinds: Arc::new(config.kinds()),
        strict: args.gate.strict,
        signatures: args.signatures,
        cache: cache.clone().map(|c| (c, run_name(process))),
    };
    let totals = run_scan(options).map_err(|e| {
        if phase() == Phase::Writing {
            staging.discard();
            Failure::Run(anyhow::anyhow!(
                "{e}; the previous report in `{}` is unchanged",
                out.display()
            ))
        } else {
            Failure::Run(anyhow::anyhow!(e))
        }
    })?;
    if let Some(bar) = &progress {
        bar.finish_and_clear();
    }
    let elapsed = clock.elapsed();
    let Some(totals) = totals else {
        // Not the process that hosts worker 0: its parts are in place.
        set_phase(Phase::Committed);
        staging.discard();
        return Ok(exit::CLEAN);
    };
    let fixed = baseline
        .as_ref()
        .map(|b| b.fixed(totals.finding_ids.iter().map(String::as_str)));

    let run = RunRow {
        version: env!("CARGO_PKG_VERSION").to_string(),
        torch_api_version: torch_api().torch_version.clone(),
        arguments: std::env::args().collect::<Vec<_>>().join(" "),
        count_mode: mode.name().to_string(),
        shapes: matches!(mode, CountMode::Precise { shapes: true }),
        assumptions: {
            let texts: Vec<&str> = shapehound::units::assumptions::active()
                .iter()
                .map(|a| a.text.as_str())
                .collect();
            (!texts.is_empty()).then(|| texts.join("; "))
        },
        started_at: rfc3339(started),
        duration_s: elapsed.as_secs_f64(),
        workers: totals.workers,
        processes: args.processes as u64,
        files: totals.files(),
        files_ok: totals.files_by_status.get("ok").copied().unwrap_or(0),
        files_failed: totals.files() - totals.files_by_status.get("ok").copied().unwrap_or(0),
        duplicates: totals.duplicates,
        bytes: totals.bytes,
        op_calls: totals.op_calls(),
        operators: totals.operators.len() as u64,
        findings: totals.findings(),
        findings_suppressed: totals.findings_suppressed,
        findings_new: baseline.is_some().then_some(totals.findings_new),
        findings_fixed: fixed.as_ref().map(|f| f.len() as u64),
        warnings: totals.warnings,
        jobs: totals.jobs(),
        jobs_sat: totals.jobs_with("sat"),
        jobs_unsat: totals.jobs_with("unsat"),
        jobs_unknown: totals.jobs_with("unknown"),
        jobs_skipped: totals.jobs_with("skipped"),
        jobs_z3: totals.jobs_z3,
    };
    if let Some(rows) = fixed {
        write_single(&staging.dir, rows)
            .and_then(|()| staging.commit_part(FixedRow::NAME, 0))
            .with_context(|| {
                format!(
                    "writing the fixed table; the report in `{}` is incomplete (it has no \
                     `run` row)",
                    out.display()
                )
            })?;
    }
    let new_and_fixed = (run.findings_new, run.findings_fixed);
    // The run row comes last, and only now: a report that has one is complete.
    write_single(&staging.dir, vec![run])
        .and_then(|()| staging.commit_part(RunRow::NAME, 0))
        .with_context(|| {
            format!(
                "writing the run table; the report in `{}` is incomplete (it has no `run` row)",
                out.display()
            )
        })?;
    set_phase(Phase::Committed);
    staging.discard();
    if let Some(c) = &cache {
        c.retire_read_segments();
    }

    if !args.quiet {
        let top = top_operators(&totals, args.top, |op| {
            list.as_ref()
                .and_then(|l| l.position(op))
                .unwrap_or(usize::MAX)
        });
        print!(
            "{}",
            render(&totals, elapsed, &top, &args.out.display().to_string())
        );
        if let (Some(dir), Some(new)) = (&args.gate.baseline, new_and_fixed.0) {
            println!(
                "against the baseline {}: {new} new, {} unchanged, {} fixed",
                dir.display(),
                totals.findings().saturating_sub(new),
                new_and_fixed.1.unwrap_or(0),
            );
        }
    }
    let failed_files: u64 = totals
        .files_by_status
        .iter()
        .filter(|(status, _)| {
            FileStatus::ALL
                .iter()
                .any(|s| s.as_str() == *status && s.is_error())
        })
        .map(|(_, n)| n)
        .sum();
    let counted = match &baseline {
        Some(_) => totals.findings_new,
        None => totals.findings(),
    };
    Ok(exit::of_run(
        counted,
        failed_files,
        baseline.is_some(),
        args.gate.exit_zero,
    ))
}

/// What the result cache's entries depend on besides content: the analyser (a digest of the
/// sources it was built from, `build.rs`) and every option that changes a file's rows (`dataflow/cache.rs`).
fn cache_digest(
    args: &ScanArgs,
    python_path: &[shapehound::corpus::installed::SitePackages],
) -> String {
    let mut parts = vec![
        env!("SHAPEHOUND_SOURCE_DIGEST").to_string(),
        format!("timeout-ms={}", args.timeout_ms),
        format!("follow-imports={}", args.follow_imports),
        format!("signatures={}", args.signatures),
        format!("{:?}", args.budgets.budgets()),
    ];
    parts.extend(
        shapehound::units::assumptions::active()
            .iter()
            .map(|a| format!("assume={}", a.text)),
    );
    // Installed packages analysed from source: their folders and distributions (versions).
    for site in python_path {
        let mut dists: Vec<String> = std::fs::read_dir(&site.dir)
            .map(|d| {
                d.filter_map(Result::ok)
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .filter(|n| n.ends_with(".dist-info") || n.ends_with(".egg-info"))
                    .collect()
            })
            .unwrap_or_default();
        dists.sort();
        parts.push(format!("{}:{}", site.dir.display(), dists.join(",")));
    }
    blake3::hash(parts.join("\n").as_bytes())
        .to_hex()
        .to_string()
}

/// A name for this run's cache segments, distinct from earlier runs' and other processes'.
fn run_name(process: usize) -> String {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    format!("{now:x}-p{process}")
}

/// UTC timestamp in RFC 3339 (no external time crate needed for one field).
fn rfc3339(t: SystemTime) -> String {
    let secs = t
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Civil-from-days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + (month <= 2) as i64;
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}
