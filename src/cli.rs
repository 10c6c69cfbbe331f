//! Command-line interface (clap). Kept in the library so tests can parse arguments without
//! running anything.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

#[derive(Debug, Parser)]
#[command(
    name = "shapehound",
    version,
    about = "Operator statistics and shape bugs over corpora of PyTorch code",
    after_help = "Exit codes (scan and check): 0 no findings; 1 findings (with --baseline: new \
                  findings), or files that cannot be read as Python; 2 usage or configuration error; 3 \
                  internal or I/O failure; 130 interrupted."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Scan corpus roots: count operator calls, write the Parquet tables, print a summary.
    Scan(Box<ScanArgs>),
    /// Analyse one project's files for shape bugs and print diagnostics.
    Check(CheckArgs),
    /// Print the shape signature the analysis infers for each function, module class and
    /// method: ranks admitted, dims, requirements, static dims, returns, decided branches.
    Annotate(AnnotateArgs),
    /// Explain a finding kind (`shapehound explain feature-mismatch`), or list them all.
    Explain(ExplainArgs),
}

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The kind's code, as in `error[feature-mismatch]`.
    #[arg(value_name = "KIND", required_unless_present = "all")]
    pub kind: Option<String>,
    /// List every kind's code and title.
    #[arg(long, conflicts_with = "kind")]
    pub all: bool,
}

/// When the text format is coloured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// When stdout is a terminal, unless `NO_COLOR` is set (`CLICOLOR_FORCE` forces colour
    /// elsewhere, `CLICOLOR=0` turns it off).
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    /// Whether to colour, given the environment (`var` reads a variable) and whether stdout
    /// is a terminal. The conventions of no-color.org and bixense.com/clicolors: an explicit
    /// flag beats the environment, `NO_COLOR` beats `CLICOLOR_FORCE`, an empty value is
    /// unset.
    pub fn enabled(self, var: impl Fn(&str) -> Option<String>, terminal: bool) -> bool {
        let set = |name: &str| var(name).filter(|v| !v.is_empty());
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto if set("NO_COLOR").is_some() => false,
            ColorChoice::Auto if set("CLICOLOR_FORCE").is_some_and(|v| v != "0") => true,
            ColorChoice::Auto if set("CLICOLOR").is_some_and(|v| v == "0") => false,
            ColorChoice::Auto => terminal && set("TERM").is_none_or(|t| t != "dumb"),
        }
    }
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Files or folders to analyse.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Output format. Files that cannot be analysed are reported in each (and on stderr).
    #[arg(long, value_enum, default_value_t = crate::check::Format::Text)]
    pub format: crate::check::Format,
    /// Colour the text format (the other formats never are).
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto, value_name = "WHEN")]
    pub color: ColorChoice,
    /// Z3's limit per check, in milliseconds of its work (1,000 of its steps each, so the
    /// same on a loaded machine; a timeout is never a finding).
    #[arg(long = "timeout-ms", default_value_t = 2000)]
    pub timeout_ms: u64,
    /// Check each file alone: what it imports from other files of its project stays unknown
    /// (by default it runs like the file's own code; `follow-imports = false` in the
    /// configuration does the same).
    #[arg(long = "no-follow-imports", overrides_with = "follow_imports")]
    pub no_follow_imports: bool,
    /// Run what a file imports from other files of its project: the default, kept so that
    /// existing invocations work (it wins over the configuration's `follow-imports = false`).
    #[arg(
        long = "follow-imports",
        overrides_with = "no_follow_imports",
        hide = true
    )]
    pub follow_imports: bool,
    /// Files larger than this are not read, each a warning in the report and on stderr
    /// (bytes, or with K/M/G, KiB/MiB/GiB).
    #[arg(long = "max-file-size", default_value = "2MiB", value_parser = parse_size)]
    pub max_file_size: u64,
    #[command(flatten)]
    pub budgets: BudgetArgs,
    #[command(flatten)]
    pub assume: AssumeArgs,
    #[command(flatten)]
    pub installed: InstalledArgs,
    #[command(flatten)]
    pub gate: GateArgs,
    #[command(flatten)]
    pub config: ConfigArgs,
}

#[derive(Debug, Args)]
pub struct AnnotateArgs {
    /// Files or folders to describe.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Output format: text, JSON, or a patch adding jaxtyping annotations.
    #[arg(long, value_enum, default_value_t = crate::annotate::AnnotateFormat::Text)]
    pub format: crate::annotate::AnnotateFormat,
    /// Z3's limit per check, in milliseconds of its work (1,000 of its steps each).
    #[arg(long = "timeout-ms", default_value_t = 2000)]
    pub timeout_ms: u64,
    /// Describe each file alone (what it imports from other files of its project stays
    /// unknown).
    #[arg(long = "no-follow-imports")]
    pub no_follow_imports: bool,
    /// Whether imports are followed, once the configuration is read.
    #[arg(skip)]
    pub follow_imports: bool,
    /// Files larger than this are not read (bytes, or with K/M/G, KiB/MiB/GiB).
    #[arg(long = "max-file-size", default_value = "2MiB", value_parser = parse_size)]
    pub max_file_size: u64,
    #[command(flatten)]
    pub budgets: BudgetArgs,
    #[command(flatten)]
    pub assume: AssumeArgs,
    #[command(flatten)]
    pub installed: InstalledArgs,
    #[command(flatten)]
    pub config: ConfigArgs,
}

impl AnnotateArgs {
    /// As [`CheckArgs::configure`].
    pub fn configure(&mut self, c: &crate::config::Config, given: &dyn Fn(&str) -> bool) {
        self.follow_imports = !self.no_follow_imports;
        configure_analysis(
            c,
            given,
            &mut self.timeout_ms,
            &mut self.max_file_size,
            (&mut self.follow_imports, given("no_follow_imports")),
        );
        self.budgets.configure(&c.settings, given);
        self.installed.configure(c, given);
    }
}

/// Which configuration file is read (`config.rs`) and whether `.gitignore` files count.
#[derive(Debug, Args)]
pub struct ConfigArgs {
    /// The configuration file (`shapehound.toml`, or a `pyproject.toml` with
    /// `[tool.shapehound]`) [default: the first found from the first path upward].
    #[arg(long = "config", value_name = "FILE", conflicts_with = "no_config")]
    pub config: Option<PathBuf>,
    /// Read no configuration file.
    #[arg(long = "no-config")]
    pub no_config: bool,
    /// Analyse files that `.gitignore` files leave out.
    #[arg(long = "no-gitignore")]
    pub no_gitignore: bool,
}

/// What the exit code counts (docs/exit-codes in README.md).
#[derive(Debug, Args)]
pub struct GateArgs {
    /// A previous scan's report folder: each finding is marked new or unchanged against
    /// it, its findings now gone are listed as fixed, and only new findings set the exit code.
    #[arg(long = "baseline", value_name = "REPORT_DIR")]
    pub baseline: Option<PathBuf>,
    /// Exit 0 even when there are findings (failures still exit 2 or 3).
    #[arg(long = "exit-zero")]
    pub exit_zero: bool,
    /// Warnings count for the exit code as errors do (a unit that fails unless its
    /// hyperparameters meet a condition).
    #[arg(long = "strict")]
    pub strict: bool,
}

/// How much work a file, a unit and a constraint job may take (see `budget.rs`); what is
/// over budget is recorded (`over_budget` files, jobs `skipped` for `budget`), never a finding.
#[derive(Debug, Args)]
pub struct BudgetArgs {
    /// Statements one unit may execute, over all its runs.
    #[arg(long = "unit-steps", default_value_t = 20_000, value_name = "N")]
    pub unit_steps: usize,
    /// Statements one file's analysis may execute, over all its units.
    #[arg(long = "file-steps", default_value_t = 200_000, value_name = "N")]
    pub file_steps: usize,
    /// Terms one constraint job may have (its facts and obligations) to be given to Z3.
    #[arg(long = "job-terms", default_value_t = 100_000, value_name = "N")]
    pub job_terms: usize,
    /// Milliseconds of solving one job may take over all its Z3 checks.
    #[arg(long = "job-budget-ms", default_value_t = 10_000, value_name = "MS")]
    pub job_budget_ms: u64,
}

impl BudgetArgs {
    /// The configuration's budgets, where the command line gave none.
    pub fn configure(&mut self, c: &crate::config::Settings, given: &dyn Fn(&str) -> bool) {
        set(&mut self.unit_steps, c.unit_steps, given("unit_steps"));
        set(&mut self.file_steps, c.file_steps, given("file_steps"));
        set(&mut self.job_terms, c.job_terms, given("job_terms"));
        set(
            &mut self.job_budget_ms,
            c.job_budget_ms,
            given("job_budget_ms"),
        );
    }

    pub fn budgets(&self) -> crate::budget::Budgets {
        crate::budget::Budgets {
            unit_steps: self.unit_steps,
            file_steps: self.file_steps,
            job_terms: self.job_terms,
            job_solving: std::time::Duration::from_millis(self.job_budget_ms),
        }
    }
}

/// Facts the user states about units' inputs (`units/assumptions.rs`).
#[derive(Debug, Args)]
pub struct AssumeArgs {
    /// A fact about the inputs of every unit whose parameters it names, such as
    /// `x.shape[-1] <= 20`, `hidden % heads == 0` or `kernel in {3, 5}` (repeatable; the
    /// configuration's `assumptions` are added). Runs it rules out make no finding.
    #[arg(long = "assume", value_name = "CONSTRAINT")]
    pub assume: Vec<String>,
}

impl AssumeArgs {
    /// These and the configuration's assumptions, read (the first that cannot be, an error).
    pub fn read(
        &self,
        c: &crate::config::Config,
    ) -> Result<Vec<crate::units::assumptions::Assumption>, String> {
        use crate::units::assumptions::{Assumption, Origin};
        let given = self.assume.iter().map(|a| {
            Assumption::parse(a, Origin::CommandLine).map_err(|e| format!("--assume: {e}"))
        });
        let configured = c
            .settings
            .assumptions
            .iter()
            .flatten()
            .map(|a| Assumption::parse(a, Origin::Configuration).map_err(|e| e.to_string()));
        given.chain(configured).collect()
    }
}

/// Where installed packages are read from (see `corpus/installed.rs`).
#[derive(Debug, Args)]
pub struct InstalledArgs {
    /// A folder of installed packages (a site-packages) whose libraries are analysed from
    /// their source when imported (repeatable; added before the detected ones).
    #[arg(long = "python-path", value_name = "DIR")]
    pub python_path: Vec<PathBuf>,
    /// Do not detect site-packages from the active virtualenv or the `python3` on PATH.
    #[arg(long = "no-site-packages")]
    pub no_site_packages: bool,
}

/// `value` from the configuration, unless the command line gave one.
fn set<T>(field: &mut T, value: Option<T>, given: bool) {
    if let (Some(v), false) = (value, given) {
        *field = v;
    }
}

impl InstalledArgs {
    /// The configuration's python paths come after the command line's.
    pub fn configure(&mut self, c: &crate::config::Config, given: &dyn Fn(&str) -> bool) {
        self.python_path.extend(c.python_path());
        if !given("no_site_packages") {
            if let Some(detect) = c.settings.site_packages {
                self.no_site_packages = !detect;
            }
        }
    }

    /// The installed-package folders these arguments name, their metadata read (an error
    /// for a missing folder).
    pub fn resolve(
        &self,
    ) -> Result<Vec<crate::corpus::installed::SitePackages>, crate::corpus::installed::NotAFolder>
    {
        let dirs =
            crate::corpus::installed::python_path(&self.python_path, !self.no_site_packages)?;
        Ok(dirs
            .iter()
            .map(|d| crate::corpus::installed::SitePackages::read(d))
            .collect())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CountModeArg {
    /// Resolve imports and aliases to canonical PyTorch names (default).
    Precise,
    /// Reproduce the TEOSC study's name matching exactly (needs --op-list).
    Teosc,
}

#[derive(Debug, Args)]
pub struct ScanArgs {
    /// Corpus roots: folders of repositories (folders or archives: .whl, .zip, .tar.gz,
    /// .tgz, .tar), one repository, an archive, or single files.
    #[arg(required_unless_present = "parquet_source", value_name = "ROOT")]
    pub roots: Vec<PathBuf>,

    /// A Parquet source dataset, one row per file (repeatable): read as a corpus, nothing
    /// unpacked.
    #[arg(long = "parquet-source", value_name = "FILE")]
    pub parquet_source: Vec<PathBuf>,

    /// The dataset's column names: `repo=NAME,path=NAME,content=NAME` (any of the three;
    /// defaults `repo`, `path`, `content`).
    #[arg(long = "parquet-columns", value_name = "SPEC", value_parser = parse_columns, default_value = "")]
    pub parquet_columns: ParquetColumns,

    /// Report directory (one sub-folder per table).
    #[arg(
        short = 'o',
        long = "out",
        default_value = "reports",
        value_name = "DIR"
    )]
    pub out: PathBuf,

    /// Worker threads per process [default: the cores available to the process].
    #[arg(short = 'w', long = "workers", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub workers: Option<u32>,

    /// Number of processes in a cluster run (timely `-n`).
    #[arg(short = 'n', long = "processes", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub processes: u32,

    /// This process's index in a cluster run (timely `-p`).
    #[arg(short = 'p', long = "process", default_value_t = 0)]
    pub process: u32,

    /// Hostfile for a cluster run: one `host:port` per line.
    #[arg(long = "hostfile", value_name = "FILE")]
    pub hostfile: Option<PathBuf>,

    /// Seconds a cluster run waits for its other processes to connect before it fails.
    #[arg(long = "connect-timeout", default_value_t = 60, value_name = "SECS")]
    pub connect_timeout: u64,

    /// How operator calls are counted.
    #[arg(long = "count-mode", value_enum, default_value_t = CountModeArg::Precise)]
    pub count_mode: CountModeArg,

    /// TEOSC operator list (`pytorch_operations.txt`), for --count-mode teosc.
    #[arg(long = "op-list", value_name = "FILE")]
    pub op_list: Option<PathBuf>,

    /// Count operator calls (precise, alias-resolved) without the shape analysis: no units,
    /// jobs or findings, many times faster. Calls only the analysis resolves (resolution
    /// `analysis`) are not counted.
    #[arg(long = "no-shapes")]
    pub no_shapes: bool,

    /// Work out each unit's signature (`shapehound annotate`) into the `signatures` table:
    /// every rank variant solved, so more solving than the findings need.
    #[arg(long = "signatures", conflicts_with = "no_shapes")]
    pub signatures: bool,

    /// Files larger than this are listed as skipped_too_large (bytes, or with K/M/G, KiB/MiB/GiB).
    #[arg(long = "max-file-size", default_value = "2MiB", value_parser = parse_size)]
    pub max_file_size: u64,

    /// Z3's limit per check of a constraint job, in milliseconds of its work (1,000 of its
    /// steps each, so that verdicts do not depend on the machine's load; a timeout is an
    /// `unknown` job, never a finding).
    #[arg(long = "timeout-ms", default_value_t = 2000)]
    pub timeout_ms: u64,

    /// No progress bar and no summary.
    #[arg(short = 'q', long = "quiet")]
    pub quiet: bool,

    /// Number of operators in the summary.
    #[arg(long = "top", default_value_t = 20)]
    pub top: usize,

    /// Resolve imports across each repository's files (a join over the corpus) and run what
    /// a file imports (not yet the default: see docs/findings.md).
    #[arg(long = "follow-imports")]
    pub follow_imports: bool,

    #[command(flatten)]
    pub budgets: BudgetArgs,

    #[command(flatten)]
    pub assume: AssumeArgs,

    #[command(flatten)]
    pub installed: InstalledArgs,

    #[command(flatten)]
    pub gate: GateArgs,

    #[command(flatten)]
    pub config: ConfigArgs,

    /// The result cache's folder [default: OUT/.cache]: a rescan recomputes only what
    /// changed (content, options or the analyser).
    #[arg(long = "cache", value_name = "DIR", conflicts_with = "no_cache")]
    pub cache: Option<PathBuf>,

    /// Neither read nor write the result cache.
    #[arg(long = "no-cache")]
    pub no_cache: bool,
}

impl CheckArgs {
    /// Settings from the configuration file where the command line gave none; `given(id)`
    /// says whether the argument `id` came from the command line.
    pub fn configure(&mut self, c: &crate::config::Config, given: &dyn Fn(&str) -> bool) {
        // Imports are followed unless the command line or the configuration says not.
        let flag_given = given("follow_imports") || given("no_follow_imports");
        self.follow_imports = !self.no_follow_imports;
        configure_analysis(
            c,
            given,
            &mut self.timeout_ms,
            &mut self.max_file_size,
            (&mut self.follow_imports, flag_given),
        );
        self.budgets.configure(&c.settings, given);
        self.installed.configure(c, given);
    }
}

/// The settings `check` and `scan` share.
fn configure_analysis(
    c: &crate::config::Config,
    given: &dyn Fn(&str) -> bool,
    timeout_ms: &mut u64,
    max_file_size: &mut u64,
    (follow_imports, follow_given): (&mut bool, bool),
) {
    set(timeout_ms, c.settings.timeout_ms, given("timeout_ms"));
    set(max_file_size, c.max_file_size(), given("max_file_size"));
    set(follow_imports, c.settings.follow_imports, follow_given);
}

impl ScanArgs {
    /// As [`CheckArgs::configure`], and the workers.
    pub fn configure(&mut self, c: &crate::config::Config, given: &dyn Fn(&str) -> bool) {
        let s = &c.settings;
        if !given("workers") && s.workers.is_some() {
            self.workers = s.workers;
        }
        configure_analysis(
            c,
            given,
            &mut self.timeout_ms,
            &mut self.max_file_size,
            (&mut self.follow_imports, given("follow_imports")),
        );
        self.budgets.configure(s, given);
        self.installed.configure(c, given);
    }

    /// Worker threads per process: as asked, else one per core available to the process.
    pub fn workers(&self) -> u32 {
        self.workers.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, |n| n.get().min(1024) as u32)
        })
    }

    /// The timely configuration flags these arguments stand for.
    pub fn timely_args(&self) -> Vec<String> {
        let mut args = vec!["-w".to_string(), self.workers().to_string()];
        if self.processes > 1 {
            args.extend(["-n".to_string(), self.processes.to_string()]);
            args.extend(["-p".to_string(), self.process.to_string()]);
        }
        if let Some(h) = &self.hostfile {
            args.extend(["-h".to_string(), h.display().to_string()]);
        }
        args
    }
}

/// The column names of a Parquet source dataset (`--parquet-columns`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParquetColumns {
    pub repo: String,
    pub path: String,
    pub content: String,
}

/// Parses `repo=NAME,path=NAME,content=NAME` (any subset; the rest keep their defaults).
pub fn parse_columns(text: &str) -> Result<ParquetColumns, String> {
    let mut c = ParquetColumns {
        repo: "repo".into(),
        path: "path".into(),
        content: "content".into(),
    };
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let Some((key, name)) = part.split_once('=') else {
            return Err(format!(
                "`{part}` is not KEY=COLUMN (keys: repo, path, content)"
            ));
        };
        let name = name.trim();
        if name.is_empty() {
            return Err(format!("`{part}`: an empty column name"));
        }
        match key.trim() {
            "repo" => c.repo = name.into(),
            "path" => c.path = name.into(),
            "content" => c.content = name.into(),
            other => return Err(format!("unknown key `{other}` (keys: repo, path, content)")),
        }
    }
    Ok(c)
}

/// Parses `2097152`, `2MiB`, `2M`, `500k`, `1.5GiB`.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let value: f64 = number
        .parse()
        .map_err(|_| format!("`{text}` is not a size (examples: 2097152, 2MiB, 500k)"))?;
    let factor: f64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1.0,
        "k" | "kb" => 1e3,
        "kib" => 1024.0,
        "m" | "mb" => 1e6,
        "mib" => 1024.0 * 1024.0,
        "g" | "gb" => 1e9,
        "gib" => 1024.0 * 1024.0 * 1024.0,
        other => return Err(format!("unknown size unit `{other}` in `{text}`")),
    };
    Ok((value * factor) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("2MiB"), Ok(2 * 1024 * 1024));
        assert_eq!(parse_size("500k"), Ok(500_000));
        assert_eq!(parse_size("123"), Ok(123));
        assert!(parse_size("lots").is_err());
        assert!(parse_size("3 parsecs").is_err());
    }

    #[test]
    fn cluster_flags_pass_through_to_timely() {
        let cli = Cli::try_parse_from([
            "shapehound",
            "scan",
            "c",
            "-w",
            "2",
            "-n",
            "2",
            "-p",
            "1",
            "--hostfile",
            "hosts.txt",
        ])
        .unwrap();
        let Command::Scan(args) = cli.command else {
            panic!("expected scan");
        };
        assert_eq!(
            args.timely_args(),
            ["-w", "2", "-n", "2", "-p", "1", "-h", "hosts.txt"]
        );
    }

    #[test]
    fn colour_follows_the_flag_then_no_color_then_the_terminal() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| v.to_string())
            }
        };
        use ColorChoice::*;
        assert!(Auto.enabled(env(&[]), true));
        assert!(!Auto.enabled(env(&[]), false));
        assert!(!Auto.enabled(env(&[("NO_COLOR", "1")]), true));
        assert!(Auto.enabled(env(&[("NO_COLOR", "")]), true));
        assert!(Auto.enabled(env(&[("CLICOLOR_FORCE", "1")]), false));
        assert!(!Auto.enabled(env(&[("CLICOLOR_FORCE", "0")]), false));
        assert!(!Auto.enabled(env(&[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]), true));
        assert!(!Auto.enabled(env(&[("CLICOLOR", "0")]), true));
        assert!(!Auto.enabled(env(&[("TERM", "dumb")]), true));
        assert!(Always.enabled(env(&[("NO_COLOR", "1")]), false));
        assert!(!Never.enabled(env(&[("CLICOLOR_FORCE", "1")]), true));
    }

    #[test]
    fn explain_takes_a_kind_or_all() {
        assert!(Cli::try_parse_from(["shapehound", "explain", "reshape-numel"]).is_ok());
        assert!(Cli::try_parse_from(["shapehound", "explain", "--all"]).is_ok());
        assert!(Cli::try_parse_from(["shapehound", "explain"]).is_err());
        assert!(Cli::try_parse_from(["shapehound", "explain", "x", "--all"]).is_err());
    }

    #[test]
    fn h_is_help_and_workers_default_to_the_cores() {
        let help = Cli::try_parse_from(["shapehound", "scan", "-h"]).unwrap_err();
        assert_eq!(help.kind(), clap::error::ErrorKind::DisplayHelp);
        let cli = Cli::try_parse_from(["shapehound", "scan", "c"]).unwrap();
        let Command::Scan(args) = cli.command else {
            panic!("expected scan");
        };
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as u32;
        assert_eq!(args.workers(), cores);
        assert_eq!(args.timely_args(), ["-w".to_string(), cores.to_string()]);
    }
}
