//! The `scan` job as one timely/differential dataflow.
//!
//! ```text
//! walk (repos split across workers) ─▶ exchange by path ─▶ probe: size, read, hash
//!    ├─ rejected before reading (too large, unreadable, symlink out of root) ─────────┐
//!    └─ (content hash, kind) ─▶ reduce: group identical files ─▶ analyse once ──────────┤
//!                          (hash owner's process; its threads share  rows for every path  │
//!                           one backlog, so none idles while another has groups)          │
//!                              files ◀──────────────────────────────────────────────────┘
//!                              op_calls ─▶ count by (repo, operator) ─▶ op_counts
//!                              jobs (one per unit run) ─▶ balance by cost ─▶ solve (Z3) ─▶ jobs
//!                                 └─ solved ─▶ regroup by content (+ its paths) ─▶ findings
//!                              files, op_calls, jobs, findings ─▶ count totals ─▶ worker 0
//! ```
//!
//! Every worker writes its own part of each table. All inputs carry timestamp 0; the
//! aggregates are differential `reduce`/`count` results.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

use differential_dataflow::input::Input;
use differential_dataflow::AsCollection;
use indicatif::ProgressBar;
use serde::{Deserialize, Serialize};
use timely::dataflow::operators::Exchange;

use super::cache::{Record, ResultCache, SegmentWriter};
use super::modules::import_contexts;
use super::rows::{analyse_group, probe_file, FileMeta};
use super::shape_jobs::{
    finding_rows, settle_file, ContentJobs, ContentKey, UnitJob, WorkerSolver,
};
use super::stages::{
    all_agree, analyse_fueled, balance_by_cost, barrier, regroup_solved, sink, solve_fueled, Fuel,
    SharedBacklog, Tally,
};
use crate::analysis::CountMode;
use crate::config::KindFilter;
use crate::corpus::dataset::{read_rows, ParquetSource};
use crate::corpus::installed::SitePackages;
use crate::corpus::selection::Selection;
use crate::corpus::walk::walk_selected;
use crate::corpus::{discover_repos, DiscoveredFile, FileKind};
use crate::findings::suppress::Suppression;
use crate::reports::baseline::Baseline;
use crate::reports::parquet::PartWriter;
use crate::reports::staging::{abandon, set_phase, Phase, Staging};
use crate::reports::tables::{
    FileRow, FindingRow, FixedRow, JobRow, OpCallRow, OpCountRow, RunRow, SignatureRow, Table,
};
use crate::reports::ReportError;
use crate::resolve::layout::folder;

/// Content groups analysed per activation of the analysis operator: small enough that the
/// rows of one activation are a few megabytes at most, large enough to amortise scheduling.
const ANALYSE_FUEL: Fuel = Fuel {
    records: 16,
    time: None,
};

/// Jobs solved per activation of the solving operator: most take microseconds, a few take
/// Z3 seconds, so the time bound keeps the other operators (and sinks) running.
const SOLVE_FUEL: Fuel = Fuel {
    records: 256,
    time: Some(Duration::from_millis(20)),
};

/// The tables a scan writes as per-worker parts (`run` is written once, by the binary).
pub const PART_TABLES: [&str; 6] = [
    FileRow::NAME,
    OpCallRow::NAME,
    OpCountRow::NAME,
    FindingRow::NAME,
    JobRow::NAME,
    SignatureRow::NAME,
];

/// What a scan needs to know. Shared read-only by all workers of a process.
#[derive(Clone, Debug)]
pub struct ScanOptions {
    pub roots: Vec<PathBuf>,
    /// Parquet source datasets read as corpora (`corpus/dataset.rs`).
    pub parquet_sources: Vec<ParquetSource>,
    /// Where the parts are written until the run commits them into the report.
    pub staging: Staging,
    pub max_file_bytes: u64,
    pub mode: CountMode,
    /// Z3 timeout per check of a constraint job (a timeout is an `unknown` job).
    pub solver_timeout: Duration,
    /// `-w/-n/-p/-h` in timely's own syntax.
    pub timely_args: Vec<String>,
    pub progress: Option<ProgressBar>,
    /// Imports resolve across each repository's files (`modules.rs`); off: file by file.
    pub follow_imports: bool,
    /// Folders of installed packages, read when a file imports from them.
    pub python_path: Vec<SitePackages>,
    /// A previous report: each finding is `new` or `unchanged` against it.
    pub baseline: Option<Arc<Baseline>>,
    /// Which files the walk keeps (configuration globs, `.gitignore`).
    pub selection: Arc<Selection>,
    /// Which finding kinds are reported.
    pub kinds: Arc<KindFilter>,
    /// Warnings of a conditional failure count as findings (`--strict`).
    pub strict: bool,
    /// Units' signatures go to the `signatures` table (`--signatures`).
    pub signatures: bool,
    /// The result cache read at the start, and the name of this run's new segments.
    pub cache: Option<(Arc<ResultCache>, String)>,
}

/// What the per-file settling of findings brings together (`settle_file`).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
enum FileNote {
    Finding(Box<FindingRow>),
    Suppressions(Vec<Suppression>),
}

/// Global totals, gathered by worker 0 from the dataflow's `count` outputs.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ScanTotals {
    pub files_by_status: BTreeMap<String, u64>,
    pub operators: BTreeMap<String, u64>,
    pub bytes: u64,
    pub duplicates: u64,
    /// Findings that count (errors, not suppressed) by kind code.
    pub findings_by_kind: BTreeMap<String, u64>,
    pub findings_suppressed: u64,
    /// Against a baseline: findings that count and are not in it.
    pub findings_new: u64,
    /// Against a baseline: the ids of the findings that count (fixed ones are the
    /// baseline's others).
    pub finding_ids: Vec<String>,
    /// `warning` rows (unused suppressions).
    pub warnings: u64,
    /// Constraint jobs by result (`sat`, `unsat`, `unknown`, `skipped`).
    pub jobs_by_result: BTreeMap<String, u64>,
    /// Jobs the algebra could not decide alone.
    pub jobs_z3: u64,
    pub workers: u64,
    pub walk_problems: Vec<String>,
}

impl ScanTotals {
    pub fn files(&self) -> u64 {
        self.files_by_status.values().sum()
    }

    pub fn op_calls(&self) -> u64 {
        self.operators.values().sum()
    }

    pub fn findings(&self) -> u64 {
        self.findings_by_kind.values().sum()
    }

    pub fn jobs(&self) -> u64 {
        self.jobs_by_result.values().sum()
    }

    pub fn jobs_with(&self, result: &str) -> u64 {
        self.jobs_by_result.get(result).copied().unwrap_or(0)
    }
}

/// Keys of the totals collection (counted with the diff as the quantity).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
enum Total {
    Status(String),
    Bytes,
    Duplicates,
    Operator(String),
    Finding(String),
    FindingSuppressed,
    FindingNew,
    FindingId(String),
    Warning,
    Job(String),
    JobZ3,
}

fn route<T: Hash>(value: &T) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    value.hash(&mut h);
    h.finish()
}

type Shared<T> = Rc<RefCell<T>>;

/// The Parquet writers of one worker and the first error any of them hit.
struct Sinks {
    files: Option<PartWriter<FileRow>>,
    calls: Option<PartWriter<OpCallRow>>,
    counts: Option<PartWriter<OpCountRow>>,
    findings: Option<PartWriter<FindingRow>>,
    jobs: Option<PartWriter<JobRow>>,
    signatures: Option<PartWriter<SignatureRow>>,
    staging: Staging,
}

impl Sinks {
    fn create(staging: &Staging, worker: usize) -> Result<Sinks, ReportError> {
        let out = &staging.dir;
        Ok(Sinks {
            files: Some(PartWriter::create(out, worker)?),
            calls: Some(PartWriter::create(out, worker)?),
            counts: Some(PartWriter::create(out, worker)?),
            findings: Some(PartWriter::create(out, worker)?),
            jobs: Some(PartWriter::create(out, worker)?),
            signatures: Some(PartWriter::create(out, worker)?),
            staging: staging.clone(),
        })
    }

    /// A write that fails (a full disk) ends the run at once: nothing is committed yet.
    fn keep(&mut self, result: Result<(), ReportError>) {
        if let Err(e) = result {
            abandon(&self.staging, &e.to_string(), crate::exit::FAILURE.into());
        }
    }

    fn finish(&mut self) -> Result<(), ReportError> {
        if let Some(w) = self.files.take() {
            w.finish()?;
        }
        if let Some(w) = self.calls.take() {
            w.finish()?;
        }
        if let Some(w) = self.counts.take() {
            w.finish()?;
        }
        if let Some(w) = self.findings.take() {
            w.finish()?;
        }
        if let Some(w) = self.jobs.take() {
            w.finish()?;
        }
        if let Some(w) = self.signatures.take() {
            w.finish()?;
        }
        Ok(())
    }
}

static WORKERS_STARTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether this process's workers have started: in a cluster run, once every process has
/// connected.
pub fn workers_started() -> bool {
    WORKERS_STARTED.load(std::sync::atomic::Ordering::SeqCst)
}

/// Runs the scan on this process's workers. Returns the global totals in the process that
/// hosts worker 0, `None` in the others.
pub fn run_scan(opts: ScanOptions) -> Result<Option<ScanTotals>, String> {
    let opts = Arc::new(opts);
    let args = opts.timely_args.clone();
    let backlog = Arc::new(SharedBacklog::default());
    let guards = timely::execute_from_args(args.into_iter(), move |worker| {
        scan_worker(worker, &opts, backlog.clone())
    })?;
    let mut totals = None;
    let mut errors = Vec::new();
    for result in guards.join() {
        match result {
            Ok(Ok(Some(t))) => totals = Some(t),
            Ok(Ok(None)) => {}
            Ok(Err(e)) => errors.push(e),
            Err(e) => errors.push(format!("worker failed: {e}")),
        }
    }
    // The worker that failed says why; the others only that a peer failed.
    let echo = ReportError::PeerCommitFailed.to_string();
    errors.sort_by_key(|e| e.starts_with(&echo));
    match errors.into_iter().next() {
        Some(e) => Err(e),
        None => Ok(totals),
    }
}

/// A content group: identical files (content hash, kind, import context) and their paths.
type Group = ((String, FileKind, u64), Vec<FileMeta>);

fn scan_worker(
    worker: &mut timely::worker::Worker,
    opts: &ScanOptions,
    shared_backlog: Arc<SharedBacklog<Option<(String, String)>, Group>>,
) -> Result<Option<ScanTotals>, String> {
    WORKERS_STARTED.store(true, std::sync::atomic::Ordering::SeqCst);
    let index = worker.index();
    let peers = worker.peers();
    let sinks: Shared<Sinks> = Rc::new(RefCell::new(
        Sinks::create(&opts.staging, index).map_err(|e| e.to_string())?,
    ));
    let totals: Shared<ScanTotals> = Rc::new(RefCell::new(ScanTotals {
        workers: peers as u64,
        ..ScanTotals::default()
    }));
    let mode = opts.mode.clone();
    let max_bytes = opts.max_file_bytes;
    let follow_imports = opts.follow_imports && matches!(mode, CountMode::Precise { shapes: true });
    let installed = Arc::new(opts.python_path.clone());
    let progress = opts.progress.clone();
    let baseline = opts.baseline.clone();
    let kinds = opts.kinds.clone();
    let strict = opts.strict;
    let read_cache = opts.cache.as_ref().map(|(c, _)| c.clone());
    let keep: Shared<CacheKeeper> = Rc::new(RefCell::new(match &opts.cache {
        Some((cache, run)) => CacheKeeper::open(cache, run, index),
        None => CacheKeeper::default(),
    }));
    let kept = keep.clone();
    let keeper = keep.clone();
    let probe_keep = keep.clone();
    let probe_cache = read_cache.clone();
    let with_baseline = baseline.is_some();
    // Z3 solvers are not `Send`: each worker makes its own and reuses it for every job.
    let mut solver = WorkerSolver::new(opts.solver_timeout, index as u32);
    solver.signatures = opts.signatures;

    let (mut input, probe) = worker.dataflow::<u32, _, _>(|scope| {
        let (input, discovered) = scope.new_collection::<DiscoveredFile, isize>();

        // Read where the path lands, so reading is spread over all workers.
        let probed = discovered
            .inner
            .exchange(|(file, _, _): &(DiscoveredFile, u32, isize)| route(&file.path))
            .as_collection()
            .map(move |file| {
                // The cache's file states serve file-by-file scans (`cache.rs`).
                let stats = probe_cache.as_deref().filter(|_| !follow_imports);
                probe_file(file, max_bytes, follow_imports, stats).map(|(key, meta, record)| {
                    if let Some(r) = record {
                        probe_keep.borrow_mut().write(&r);
                    }
                    (key, meta)
                })
            });
        let rejected = probed.clone().flat_map(|p| p.err().map(|row| *row));
        let readable = probed.flat_map(|p| p.ok());

        // Each file's imports resolve through a join over its repository's files; the
        // context becomes part of the content key (same content, same layout: one analysis).
        let readable = if follow_imports {
            let keyed = readable
                .clone()
                .map(|(content, meta)| (meta.key(), (content, meta)));
            let contexts = import_contexts(
                keyed
                    .clone()
                    .map(|(key, (_, meta))| (key, meta.repo_path.clone())),
            );
            // A file importing from its own repository is analysed where it is: what it
            // loads depends on the files around it, so identical copies elsewhere (another
            // package's folder, a fork) are analysed apart. Its cached result then holds
            // while the modules it read are unchanged (`cache.rs`), not the whole repository.
            keyed.join_map(contexts, |_, ((hash, kind), meta), context| {
                let mut digest = meta.import_digest(context);
                if meta.imports_within(context) || meta.beside {
                    let mut h = std::collections::hash_map::DefaultHasher::new();
                    let here = (meta.key().0, folder(&meta.repo_path).to_string());
                    (digest, here).hash(&mut h);
                    digest = h.finish();
                }
                let mut meta = meta.clone();
                meta.imports = Some(context.clone());
                ((hash.clone(), *kind, digest), meta)
            })
        } else {
            // A file that reads beside itself is analysed where it is, as above.
            readable.map(|((hash, kind), meta)| {
                let place = match meta.beside {
                    true => {
                        let mut h = std::collections::hash_map::DefaultHasher::new();
                        (meta.key().0, folder(&meta.repo_path)).hash(&mut h);
                        h.finish() | 1
                    }
                    false => 0,
                };
                ((hash, kind, place), meta)
            })
        };

        // Identical content (same hash, kind and import context) is analysed once, in the
        // hash owner's process, by whichever of its workers is free.
        let groups = readable.reduce(
            |_key: &(String, FileKind, u64),
             paths: &[(&FileMeta, isize)],
             out: &mut Vec<(Vec<FileMeta>, isize)>| {
                let mut metas: Vec<FileMeta> = paths.iter().map(|(m, _)| (*m).clone()).collect();
                metas.sort();
                out.push((metas, 1));
            },
        );
        let analysed = analyse_fueled(
            groups,
            ANALYSE_FUEL,
            shared_backlog,
            |(_, metas): &(_, Vec<FileMeta>)| {
                metas.first().map(|m| (m.repo.clone(), m.repo_path.clone()))
            },
            move |((hash, kind, layout), metas)| {
                let cache = read_cache.as_deref();
                let mut out = analyse_group(&hash, kind, layout, metas, &mode, &installed, cache);
                for record in out.cache_records.drain(..) {
                    keep.borrow_mut().write(&record);
                }
                out
            },
        );
        let files = analysed.files.concat(rejected);
        let (calls, tallies) = (analysed.calls, analysed.tallies);

        // Constraint jobs go where the least estimated cost has gone, are solved there, and
        // come back together by content group, which knows the paths its findings belong to.
        let jobs = balance_by_cost(analysed.jobs, |unit: &UnitJob| unit.cost);
        let (job_rows, signature_rows, solved) = solve_fueled(jobs, SOLVE_FUEL, move |unit| {
            let (rows, signatures, solved, cached) = solver.solve_unit(unit);
            if let Some(c) = cached {
                kept.borrow_mut()
                    .write(&Record::Solved(solved.content.clone(), c));
            }
            (rows, signatures, solved)
        });
        let contents = analysed.contents;
        let suppressions = contents.clone().flat_map(|g: ContentJobs| {
            let sups = g.suppressions;
            let with = !sups.is_empty();
            g.paths
                .into_iter()
                .filter(move |_| with)
                .map(move |p| ((p.repo, p.path), FileNote::Suppressions(sups.clone())))
        });
        let findings = regroup_solved(contents, solved, route::<ContentKey>, finding_rows);
        // Per file, from every group that reached it: a failing operation reached from
        // several files (its own and those importing it) is one finding, and the file's
        // suppression comments apply to them all.
        let findings = findings
            .map(|row: FindingRow| {
                (
                    (row.repo.clone(), row.path.clone()),
                    FileNote::Finding(Box::new(row)),
                )
            })
            .concat(suppressions)
            .reduce(
                |(repo, path), notes: &[(&FileNote, isize)], out: &mut Vec<(FindingRow, isize)>| {
                    let mut rows = Vec::new();
                    let mut sups: Vec<Suppression> = Vec::new();
                    for (note, _) in notes {
                        match note {
                            FileNote::Finding(row) => rows.push(FindingRow::clone(row)),
                            FileNote::Suppressions(s) if sups.is_empty() => sups = s.clone(),
                            FileNote::Suppressions(_) => {}
                        }
                    }
                    out.extend(
                        settle_file(repo, path, rows, &sups)
                            .into_iter()
                            .map(|r| (r, 1)),
                    );
                },
            )
            .flat_map(move |(_, mut row): (_, FindingRow)| {
                let unused = row.kind == crate::findings::suppress::UNUSED_KIND;
                if !unused && !kinds.reports(&row.kind) {
                    return None;
                }
                // Only findings that could count have a state (see `Baseline`).
                if let Some(b) = &baseline {
                    if !unused && !row.suppressed {
                        row.baseline = Some(b.state(&row.id).to_string());
                    }
                }
                Some(row)
            });

        // Per-file tallies carry their count as the diff; `count` sums them per key.
        let op_counts = tallies.clone().count();
        let totals_in = files
            .clone()
            .explode(|f: FileRow| {
                let dup = f.duplicate_of.is_some() as isize;
                vec![
                    (Total::Status(f.status), 1isize),
                    (Total::Bytes, f.bytes as isize),
                    (Total::Duplicates, dup),
                ]
            })
            .concat(tallies.map(|t| Total::Operator(t.operator)))
            .concat(findings.clone().flat_map(move |f: FindingRow| {
                let mut keys = Vec::new();
                let counted = f.severity == "error"
                    || (strict && f.kind != crate::findings::suppress::UNUSED_KIND);
                if !counted {
                    keys.push(Total::Warning);
                } else if f.suppressed {
                    keys.push(Total::FindingSuppressed);
                } else {
                    if f.baseline.as_deref() == Some("new") {
                        keys.push(Total::FindingNew);
                    }
                    if with_baseline {
                        keys.push(Total::FindingId(f.id.clone()));
                    }
                    keys.push(Total::Finding(f.kind));
                }
                keys
            }))
            .concat(job_rows.clone().explode(|j: JobRow| {
                vec![
                    (Total::Job(j.result), 1isize),
                    (Total::JobZ3, j.used_z3 as isize),
                ]
            }))
            .count();

        let sink_to = sinks.clone();
        let bar = progress.clone();
        let files_done = sink(files, "WriteFiles", move |row: FileRow| {
            let mut s = sink_to.borrow_mut();
            let r = s.files.as_mut().map_or(Ok(()), |w| w.push(row));
            s.keep(r);
            if let Some(b) = &bar {
                b.inc(1);
            }
        });
        let sink_to = sinks.clone();
        let calls_done = sink(calls, "WriteOpCalls", move |row: OpCallRow| {
            let mut s = sink_to.borrow_mut();
            let r = s.calls.as_mut().map_or(Ok(()), |w| w.push(row));
            s.keep(r);
        });
        let sink_to = sinks.clone();
        let findings_done = sink(findings, "WriteFindings", move |row: FindingRow| {
            let mut s = sink_to.borrow_mut();
            let r = s.findings.as_mut().map_or(Ok(()), |w| w.push(row));
            s.keep(r);
        });
        let sink_to = sinks.clone();
        let jobs_done = sink(job_rows, "WriteJobs", move |row: JobRow| {
            let mut s = sink_to.borrow_mut();
            let r = s.jobs.as_mut().map_or(Ok(()), |w| w.push(row));
            s.keep(r);
        });
        let sink_to = sinks.clone();
        let signatures_done = sink(
            signature_rows,
            "WriteSignatures",
            move |row: SignatureRow| {
                let mut s = sink_to.borrow_mut();
                let r = s.signatures.as_mut().map_or(Ok(()), |w| w.push(row));
                s.keep(r);
            },
        );
        let sink_to = sinks.clone();
        let counts_done = sink(
            op_counts,
            "WriteOpCounts",
            move |(t, count): (Tally, isize)| {
                let mut s = sink_to.borrow_mut();
                let row = OpCountRow {
                    repo: t.repo,
                    operator: t.operator,
                    call_kind: t.call_kind.as_str().to_string(),
                    resolution: t.resolution.as_str().to_string(),
                    role: t.role.as_str().to_string(),
                    count: count as u64,
                };
                let r = s.counts.as_mut().map_or(Ok(()), |w| w.push(row));
                s.keep(r);
            },
        );
        let gathered = totals.clone();
        let totals_done = sink(
            totals_in
                .inner
                .exchange(|_: &((Total, isize), u32, isize)| 0)
                .as_collection(),
            "GatherTotals",
            move |(key, amount): (Total, isize)| {
                let mut t = gathered.borrow_mut();
                let amount = amount as u64;
                match key {
                    Total::Status(s) => *t.files_by_status.entry(s).or_default() += amount,
                    Total::Operator(o) => *t.operators.entry(o).or_default() += amount,
                    Total::Bytes => t.bytes += amount,
                    Total::Duplicates => t.duplicates += amount,
                    Total::Finding(k) => *t.findings_by_kind.entry(k).or_default() += amount,
                    Total::FindingSuppressed => t.findings_suppressed += amount,
                    Total::FindingNew => t.findings_new += amount,
                    Total::FindingId(id) => t.finding_ids.extend((0..amount).map(|_| id.clone())),
                    Total::Warning => t.warnings += amount,
                    Total::Job(r) => *t.jobs_by_result.entry(r).or_default() += amount,
                    Total::JobZ3 => t.jobs_z3 += amount,
                }
            },
        );

        let (probe, _) = files_done.probe();
        calls_done.probe_with(&probe);
        counts_done.probe_with(&probe);
        findings_done.probe_with(&probe);
        jobs_done.probe_with(&probe);
        signatures_done.probe_with(&probe);
        totals_done.probe_with(&probe);
        (input, probe)
    });

    // Walk this worker's share of the repositories, feeding the dataflow as we go.
    let repos = discover_repos(&opts.roots).map_err(|e| format!("cannot read corpus root: {e}"))?;
    let mut problems = Vec::new();
    let mut pending = 0usize;
    // Each file found goes in at once; every 1,024 the dataflow runs, so memory stays flat.
    let mut feed = |file: DiscoveredFile| {
        input.insert(file);
        if let Some(b) = &opts.progress {
            b.inc_length(1);
        }
        pending += 1;
        if pending >= 1024 {
            pending = 0;
            input.flush();
            worker.step();
        }
    };
    for (i, repo) in repos.iter().enumerate() {
        if i % peers != index {
            continue;
        }
        problems.extend(walk_selected(repo, &opts.selection, max_bytes, &mut feed));
    }
    // Parquet datasets: their row groups are shared out over every worker.
    let multi = opts.roots.len() + opts.parquet_sources.len() > 1;
    for source in &opts.parquet_sources {
        let prefix = match (multi, source.file.file_stem()) {
            (true, Some(stem)) => format!("{}/", crate::corpus::walk::path_text(stem.as_ref())),
            _ => String::new(),
        };
        read_rows(source, index, peers, &prefix, max_bytes, &mut feed);
    }
    input.close();
    worker.step_or_park_while(None, || !probe.done());
    keeper.borrow_mut().finish();

    let written = sinks.borrow_mut().finish();
    if let Err(e) = written {
        abandon(&opts.staging, &e.to_string(), crate::exit::FAILURE.into());
    }
    commit(worker, &opts.staging).map_err(|e| {
        format!(
            "{e}; the report in `{}` is incomplete (it has no `run` row): run the scan again",
            opts.staging.out.display()
        )
    })?;
    for problem in &problems {
        let line = format!("warning: {problem}");
        match &opts.progress {
            Some(bar) => bar.println(line),
            None => eprintln!("{line}"),
        }
    }
    let mut totals = totals.borrow().clone();
    totals.walk_problems = problems;
    Ok((index == 0).then_some(totals))
}

/// One worker's writing of the result cache: a write that fails turns it off with one
/// warning (the cache only saves time; the report does not depend on it).
#[derive(Default)]
struct CacheKeeper {
    writer: Option<SegmentWriter>,
}

impl CacheKeeper {
    fn open(cache: &ResultCache, run: &str, worker: usize) -> Self {
        match cache.writer(run, worker) {
            Ok(w) => CacheKeeper { writer: Some(w) },
            Err(e) => {
                eprintln!(
                    "warning: the result cache cannot be written ({e}): this run is not cached"
                );
                CacheKeeper::default()
            }
        }
    }

    fn write(&mut self, record: &Record) {
        if let Some(w) = &mut self.writer {
            if let Err(e) = w.write(record) {
                eprintln!("warning: writing the result cache failed ({e}): the rest of this run is not cached");
                self.writer = None;
            }
        }
    }

    fn finish(&mut self) {
        if let Some(w) = &mut self.writer {
            if let Err(e) = w.finish() {
                eprintln!("warning: writing the result cache failed ({e})");
            }
        }
        self.writer = None;
    }
}

/// Moves every worker's staged parts into the report, once all workers of the run have
/// written theirs: the old `run` table goes first (a report without one is incomplete), each
/// worker renames its own parts, worker 0 removes parts of indices this run does not have.
/// Every worker passes every step and they agree on its outcome, so a step that fails on one
/// worker fails the commit on all of them instead of leaving the others waiting. The binary
/// writes the new `run` row only after this returns `Ok` on every worker.
fn commit(worker: &mut timely::worker::Worker, staging: &Staging) -> Result<(), ReportError> {
    let (index, peers) = (worker.index(), worker.peers());
    barrier(worker);
    set_phase(Phase::Committing);
    // The old `fixed` table goes with the old `run` row: it belongs to that run's baseline
    // (the binary writes this run's, if it has one, before its `run` row).
    let old_run_removed = if index == 0 {
        staging
            .remove_parts(RunRow::NAME, |_| true)
            .and_then(|()| staging.remove_parts(FixedRow::NAME, |_| true))
    } else {
        Ok(())
    };
    agreed(worker, old_run_removed)?;
    let parts_moved = PART_TABLES.iter().try_for_each(|table| {
        staging.commit_part(table, index)?;
        if index == 0 {
            staging.remove_parts(table, |i| i >= peers)?;
        }
        Ok(())
    });
    agreed(worker, parts_moved)
}

/// This worker's outcome of a commit step, failed if any worker's failed.
fn agreed(
    worker: &mut timely::worker::Worker,
    outcome: Result<(), ReportError>,
) -> Result<(), ReportError> {
    if all_agree(worker, outcome.is_ok()) {
        return outcome;
    }
    outcome.and(Err(ReportError::PeerCommitFailed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routing_is_stable_across_calls() {
        assert_eq!(route(&"a/b.py".to_string()), route(&"a/b.py".to_string()));
    }
}
