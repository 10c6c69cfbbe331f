//! Custom timely operators of the scan: the fueled analysis stage (five outputs), cost-balanced
//! routing of constraint jobs, the fueled solving stage, the regrouping of solved jobs by
//! content group, and the Parquet sink.

use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

use differential_dataflow::{AsCollection, VecCollection};
use timely::container::CapacityContainerBuilder;
use timely::dataflow::channels::pact::{Exchange, Pipeline};
use timely::dataflow::operators::generic::builder_rc::OperatorBuilder;
use timely::dataflow::operators::generic::operator::Operator;
use timely::dataflow::operators::generic::OutputBuilder;
use timely::dataflow::operators::{Capability, Exchange as _};
use timely::ExchangeData;

use super::shape_jobs::{ContentJobs, ContentKey, SolvedUnit, UnitJob};
use crate::reports::tables::{FileRow, FindingRow, JobRow, OpCallRow, SignatureRow};

type Out<D> = CapacityContainerBuilder<Vec<(D, u32, isize)>>;

/// What `op_counts` counts calls by (`OpCountRow`'s key).
#[derive(
    Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct Tally {
    pub repo: String,
    pub operator: String,
    pub call_kind: crate::operators::CallKind,
    pub resolution: crate::operators::Resolution,
    pub role: crate::corpus::roles::FileRole,
}

/// What analysing one content group produces.
#[derive(Default)]
pub struct GroupOutput {
    pub files: Vec<FileRow>,
    pub calls: Vec<OpCallRow>,
    /// Pre-aggregated `(key, count)` pairs: the count becomes the differential diff.
    pub tallies: Vec<(Tally, isize)>,
    /// Constraint jobs, one per unit run, grouped by unit.
    pub jobs: Vec<UnitJob>,
    /// The group's job count and paths, when it has jobs.
    pub contents: Vec<ContentJobs>,
    /// What the result cache keeps of the group (`cache.rs`), when a cache is in use.
    pub cache_records: Vec<super::cache::Record>,
}

/// The analysis stage's outputs.
pub struct Analysed<'s> {
    pub files: VecCollection<'s, u32, FileRow, isize>,
    pub calls: VecCollection<'s, u32, OpCallRow, isize>,
    pub tallies: VecCollection<'s, u32, Tally, isize>,
    pub jobs: VecCollection<'s, u32, UnitJob, isize>,
    pub contents: VecCollection<'s, u32, ContentJobs, isize>,
}

/// How much work a fueled operator does per activation: at most `records`, and no new
/// record once `time` has passed (but always at least one, so work goes on).
#[derive(Clone, Copy, Debug)]
pub struct Fuel {
    pub records: usize,
    pub time: Option<Duration>,
}

/// Timely records `(data, time, diff)` of a batch not processed yet.
type Pending<D> = std::vec::IntoIter<(D, u32, isize)>;

/// Records an operator has received but not processed yet, with the capabilities (one per
/// output) of the batch they came in.
struct Backlog<C, D> {
    batches: VecDeque<(C, Pending<D>)>,
    fuel: Fuel,
}

impl<C, D> Backlog<C, D> {
    fn new(fuel: Fuel) -> Self {
        Backlog {
            batches: VecDeque::new(),
            fuel,
        }
    }

    fn stash(&mut self, caps: C, records: Vec<(D, u32, isize)>) {
        self.batches.push_back((caps, records.into_iter()));
    }

    /// Processes records while the fuel lasts. Returns whether work is left (the operator
    /// then reschedules itself).
    fn work(&mut self, mut f: impl FnMut(&C, D, u32, isize)) -> bool {
        let start = Instant::now();
        let mut done = 0;
        while done < self.fuel.records {
            if done > 0 && self.fuel.time.is_some_and(|t| start.elapsed() >= t) {
                break;
            }
            let Some((caps, records)) = self.batches.front_mut() else {
                break;
            };
            match records.next() {
                Some((d, t, r)) => {
                    f(caps, d, t, r);
                    done += 1;
                }
                None => {
                    self.batches.pop_front();
                }
            }
        }
        while self
            .batches
            .front()
            .is_some_and(|(_, records)| records.len() == 0)
        {
            self.batches.pop_front();
        }
        !self.batches.is_empty()
    }
}

/// Content groups received by the worker threads of one process and not analysed yet: any
/// of them analyses any group (see [`analyse_fueled`]). A heap on each group's key: groups
/// arrive in many batches (a million-file corpus in about a thousand), which re-sorting the
/// whole queue at each would make quadratic.
pub struct SharedBacklog<K, D> {
    queue: std::sync::Mutex<(std::collections::BinaryHeap<Queued<K, D>>, u64)>,
}

/// A record in the backlog, first by key, then in arrival order.
struct Queued<K, D> {
    key: K,
    arrival: u64,
    record: (D, u32, isize),
}

impl<K: Ord, D> Ord for Queued<K, D> {
    /// Reversed: `BinaryHeap` pops its greatest element, the backlog its least.
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (&other.key, other.arrival).cmp(&(&self.key, self.arrival))
    }
}

impl<K: Ord, D> PartialOrd for Queued<K, D> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl<K: Ord, D> PartialEq for Queued<K, D> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other).is_eq()
    }
}

impl<K: Ord, D> Eq for Queued<K, D> {}

impl<K: Ord, D> Default for SharedBacklog<K, D> {
    fn default() -> Self {
        SharedBacklog {
            queue: std::sync::Mutex::new((std::collections::BinaryHeap::new(), 0)),
        }
    }
}

impl<K: Ord, D> SharedBacklog<K, D> {
    /// The queue and the arrivals so far; a panic elsewhere while it was held leaves it
    /// consistent (each operation is one push or pop).
    fn queue(
        &self,
    ) -> std::sync::MutexGuard<'_, (std::collections::BinaryHeap<Queued<K, D>>, u64)> {
        self.queue
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Adds `records`, each under its `key`.
    fn stash(&self, records: Vec<(D, u32, isize)>, key: impl Fn(&D) -> K) {
        let mut guard = self.queue();
        let (heap, arrivals) = &mut *guard;
        for record in records {
            *arrivals += 1;
            heap.push(Queued {
                key: key(&record.0),
                arrival: *arrivals,
                record,
            });
        }
    }

    /// The record of least key.
    fn pop(&self) -> Option<(D, u32, isize)> {
        self.queue().0.pop().map(|q| q.record)
    }

    fn is_empty(&self) -> bool {
        self.queue().0.is_empty()
    }
}

/// Runs `logic` on every input record, a bounded number per activation.
///
/// The analysis stage receives every content group at once (its input is a `reduce` that fires
/// when the walk is complete). Doing all of them in one activation would queue every output
/// row before any sink runs, so memory would grow with the corpus; here the operator stashes
/// its input, does a bounded amount of work, and reschedules itself, letting the sinks drain
/// in between.
///
/// The workers of one process share one backlog: a worker takes the next group whichever
/// worker received it, so none idles while another still has groups. Placing groups by
/// estimated cost does not do this: on a shared machine the threads themselves run at
/// different speeds (the same placement gave busy times of 5.4 s against 6.0 s in one run,
/// 6.6 s against 5.5 s in another), and a file's size predicts its analysis time poorly.
/// Each worker holds its initial capabilities until its own input is done and the shared
/// backlog is empty, so whatever it takes it can emit; processes still split groups by
/// the hash's owner.
///
/// Records are taken in `order`, not in the order they arrive (content-hash order): files
/// of one folder then come one after another, so the workers' caches of parsed modules and
/// import summaries serve them, rather than being emptied between unrelated repositories.
pub fn analyse_fueled<'s, D, K, O, L>(
    input: VecCollection<'s, u32, D, isize>,
    fuel: Fuel,
    shared: std::sync::Arc<SharedBacklog<K, D>>,
    order: O,
    mut logic: L,
) -> Analysed<'s>
where
    D: Clone + Send + 'static,
    K: Ord + Send + 'static,
    O: Fn(&D) -> K + 'static,
    L: FnMut(D) -> GroupOutput + 'static,
{
    let scope = input.scope();
    let mut builder = OperatorBuilder::new("Analyse".to_owned(), scope);
    let activator = scope.activator_for(builder.operator_info().address);
    let mut input = builder.new_input(input.inner, Pipeline);
    let (files, files_stream) = builder.new_output();
    let (calls, calls_stream) = builder.new_output();
    let (tallies, tallies_stream) = builder.new_output();
    let (jobs, jobs_stream) = builder.new_output();
    let (contents, contents_stream) = builder.new_output();
    let mut files = OutputBuilder::<_, Out<FileRow>>::from(files);
    let mut calls = OutputBuilder::<_, Out<OpCallRow>>::from(calls);
    let mut tallies = OutputBuilder::<_, Out<Tally>>::from(tallies);
    let mut jobs = OutputBuilder::<_, Out<UnitJob>>::from(jobs);
    let mut contents = OutputBuilder::<_, Out<ContentJobs>>::from(contents);

    builder.build(move |initial_capabilities| {
        let mut held: Option<Vec<Capability<u32>>> = Some(initial_capabilities);
        move |frontiers| {
            input.for_each(|_cap, data| shared.stash(std::mem::take(data), &order));
            let Some(caps) = &held else {
                return;
            };
            let mut files = files.activate();
            let mut calls = calls.activate();
            let mut tallies = tallies.activate();
            let mut jobs = jobs.activate();
            let mut contents = contents.activate();
            let start = Instant::now();
            let mut done = 0;
            while done < fuel.records
                && !(done > 0 && fuel.time.is_some_and(|t| start.elapsed() >= t))
            {
                let Some((d, t, r)) = shared.pop() else {
                    break;
                };
                let caps: Vec<Capability<u32>> = caps.iter().map(|c| c.delayed(&t)).collect();
                let out = logic(d);
                files
                    .session_with_builder(&caps[0])
                    .give_iterator(out.files.into_iter().map(|x| (x, t, r)));
                calls
                    .session_with_builder(&caps[1])
                    .give_iterator(out.calls.into_iter().map(|x| (x, t, r)));
                tallies
                    .session_with_builder(&caps[2])
                    .give_iterator(out.tallies.into_iter().map(|(k, n)| (k, t, n * r)));
                jobs.session_with_builder(&caps[3])
                    .give_iterator(out.jobs.into_iter().map(|x| (x, t, r)));
                contents
                    .session_with_builder(&caps[4])
                    .give_iterator(out.contents.into_iter().map(|x| (x, t, r)));
                done += 1;
            }
            if !shared.is_empty() {
                activator.activate();
            } else if frontiers[0].is_empty() {
                held = None;
            }
        }
    });
    Analysed {
        files: files_stream.as_collection(),
        calls: calls_stream.as_collection(),
        tallies: tallies_stream.as_collection(),
        jobs: jobs_stream.as_collection(),
        contents: contents_stream.as_collection(),
    }
}

/// The worker with the least cost assigned so far; ties go to the first from `start` on.
fn least_loaded(assigned: &[u64], start: usize) -> usize {
    let n = assigned.len();
    (0..n)
        .map(|k| (start + k) % n)
        .min_by_key(|&w| assigned[w])
        .unwrap_or(0)
}

/// Sends every record to a worker chosen by estimated cost: each worker routes what it
/// produced to the worker it has given the least cost so far (ties: itself first, then the
/// next ones), then an exchange on that destination moves it there.
pub fn balance_by_cost<'s, D, F>(
    input: VecCollection<'s, u32, D, isize>,
    cost: F,
) -> VecCollection<'s, u32, D, isize>
where
    D: ExchangeData + Clone,
    F: Fn(&D) -> u64 + 'static,
{
    let index = input.scope().index();
    let peers = input.scope().peers();
    input
        .inner
        .unary::<Out<(u64, D)>, _, _, _>(Pipeline, "BalanceByCost", move |_cap, _info| {
            let mut assigned = vec![0u64; peers];
            move |input, output| {
                input.for_each(|cap, data| {
                    let mut session = output.session(&cap);
                    for (d, t, r) in data.drain(..) {
                        let dest = least_loaded(&assigned, index);
                        assigned[dest] = assigned[dest].saturating_add(cost(&d));
                        session.give(((dest as u64, d), t, r));
                    }
                });
            }
        })
        .exchange(|((dest, _), _, _): &((u64, D), u32, isize)| *dest)
        .as_collection()
        .map(|(_, d)| d)
}

/// Solves units' jobs where they landed, within `fuel` per activation (a job can take seconds
/// of Z3). Outputs each job's `jobs` row, each unit's `signatures` rows, and its result for
/// regrouping.
#[allow(clippy::type_complexity)]
pub fn solve_fueled<'s, L>(
    jobs: VecCollection<'s, u32, UnitJob, isize>,
    fuel: Fuel,
    mut solve: L,
) -> (
    VecCollection<'s, u32, JobRow, isize>,
    VecCollection<'s, u32, SignatureRow, isize>,
    VecCollection<'s, u32, SolvedUnit, isize>,
)
where
    L: FnMut(UnitJob) -> (Vec<JobRow>, Vec<SignatureRow>, SolvedUnit) + 'static,
{
    let scope = jobs.scope();
    let mut builder = OperatorBuilder::new("Solve".to_owned(), scope);
    let activator = scope.activator_for(builder.operator_info().address);
    let mut input = builder.new_input(jobs.inner, Pipeline);
    let (rows, rows_stream) = builder.new_output();
    let (signatures, signatures_stream) = builder.new_output();
    let (solved, solved_stream) = builder.new_output();
    let mut rows = OutputBuilder::<_, Out<JobRow>>::from(rows);
    let mut signatures = OutputBuilder::<_, Out<SignatureRow>>::from(signatures);
    let mut solved = OutputBuilder::<_, Out<SolvedUnit>>::from(solved);

    builder.build(move |_initial_capabilities| {
        let mut backlog: Backlog<[Capability<u32>; 3], UnitJob> = Backlog::new(fuel);
        move |_frontiers| {
            input.for_each(|cap, data| {
                if let (Some(a), Some(b), Some(c)) = (
                    cap.retain_least(0),
                    cap.retain_least(1),
                    cap.retain_least(2),
                ) {
                    backlog.stash([a, b, c], std::mem::take(data));
                }
            });
            let mut rows = rows.activate();
            let mut signatures = signatures.activate();
            let mut solved = solved.activate();
            let more = backlog.work(|caps, unit, t, r| {
                let (unit_rows, unit_signatures, result) = solve(unit);
                rows.session_with_builder(&caps[0])
                    .give_iterator(unit_rows.into_iter().map(|row| (row, t, r)));
                signatures
                    .session_with_builder(&caps[1])
                    .give_iterator(unit_signatures.into_iter().map(|row| (row, t, r)));
                solved.session_with_builder(&caps[2]).give((result, t, r));
            });
            if more {
                activator.activate();
            }
        }
    });
    (
        rows_stream.as_collection(),
        signatures_stream.as_collection(),
        solved_stream.as_collection(),
    )
}

/// A content group waiting for its solved jobs.
struct Waiting {
    cap: Option<Capability<u32>>,
    group: Option<(ContentJobs, u32, isize)>,
    solved: Vec<SolvedUnit>,
}

/// Brings each content group's solved units together (both inputs exchanged by content key)
/// and hands them to `logic` as soon as all `ContentJobs::units` of them have arrived, so a
/// group is held only while its units are being solved. Rows carry the group's multiplicity.
pub fn regroup_solved<'s, L>(
    groups: VecCollection<'s, u32, ContentJobs, isize>,
    solved: VecCollection<'s, u32, SolvedUnit, isize>,
    route: fn(&ContentKey) -> u64,
    mut logic: L,
) -> VecCollection<'s, u32, FindingRow, isize>
where
    L: FnMut(&ContentJobs, Vec<SolvedUnit>) -> Vec<FindingRow> + 'static,
{
    let scope = groups.scope();
    let mut builder = OperatorBuilder::new("Regroup".to_owned(), scope);
    let mut groups_in = builder.new_input(
        groups.inner,
        Exchange::new(move |(g, _, _): &(ContentJobs, u32, isize)| route(&g.content)),
    );
    let mut solved_in = builder.new_input(
        solved.inner,
        Exchange::new(move |(s, _, _): &(SolvedUnit, u32, isize)| route(&s.content)),
    );
    let (out, out_stream) = builder.new_output();
    let mut out = OutputBuilder::<_, Out<FindingRow>>::from(out);

    builder.build(move |_initial_capabilities| {
        let mut waiting: HashMap<ContentKey, Waiting> = HashMap::new();
        move |frontiers| {
            let mut touched: Vec<ContentKey> = Vec::new();
            groups_in.for_each(|cap, data| {
                for (g, t, r) in data.drain(..) {
                    let key = g.content.clone();
                    let w = waiting_entry(&mut waiting, &key, cap.retain_least(0));
                    w.group = Some((g, t, r));
                    touched.push(key);
                }
            });
            solved_in.for_each(|cap, data| {
                for (s, _t, _r) in data.drain(..) {
                    let key = s.content.clone();
                    let w = waiting_entry(&mut waiting, &key, cap.retain_least(0));
                    w.solved.push(s);
                    touched.push(key);
                }
            });
            let mut out = out.activate();
            for key in touched {
                let complete = waiting.get(&key).is_some_and(|w| {
                    w.group
                        .as_ref()
                        .is_some_and(|(g, _, _)| w.solved.len() >= g.units as usize)
                });
                if !complete {
                    continue;
                }
                if let Some(Waiting {
                    cap: Some(cap),
                    group: Some((g, t, r)),
                    solved,
                }) = waiting.remove(&key)
                {
                    let rows = logic(&g, solved);
                    out.session_with_builder(&cap)
                        .give_iterator(rows.into_iter().map(|x| (x, t, r)));
                }
            }
            // Both inputs done: anything still waiting can never complete (it would mean a
            // lost job); release its capability rather than hold the dataflow open.
            if frontiers.iter().all(|f| f.frontier().is_empty()) {
                debug_assert!(waiting.is_empty(), "content groups left incomplete");
                if !waiting.is_empty() {
                    // Never silent: a release build says the findings table misses groups.
                    eprintln!(
                        "warning: internal error: {} content groups lost solved jobs; their \
                         findings are missing from the report",
                        waiting.len()
                    );
                }
                waiting.clear();
            }
        }
    });
    out_stream.as_collection()
}

fn waiting_entry<'w>(
    waiting: &'w mut HashMap<ContentKey, Waiting>,
    key: &ContentKey,
    cap: Option<Capability<u32>>,
) -> &'w mut Waiting {
    let w = waiting.entry(key.clone()).or_insert_with(|| Waiting {
        cap: None,
        group: None,
        solved: Vec::new(),
    });
    if w.cap.is_none() {
        w.cap = cap;
    }
    w
}

/// Hands every record (owned, once per unit of multiplicity) to `write`. The returned
/// collection is empty; probing it tells when everything has been written.
pub fn sink<'s, D, W>(
    input: VecCollection<'s, u32, D, isize>,
    name: &str,
    mut write: W,
) -> VecCollection<'s, u32, (), isize>
where
    D: Clone + 'static,
    W: FnMut(D) + 'static,
{
    input
        .inner
        .unary::<Out<()>, _, _, _>(Pipeline, name, move |_cap, _info| {
            move |input, _output| {
                input.for_each(|_cap, data| {
                    for (d, _t, r) in data.drain(..) {
                        for _ in 1..r {
                            write(d.clone());
                        }
                        if r > 0 {
                            write(d);
                        }
                    }
                });
            }
        })
        .as_collection()
}

/// Returns once every worker of the run (all threads of all processes) has called it, with
/// whether every one of them passed `ok`: each worker sends its vote into a dataflow that
/// broadcasts it, closes its input and steps until the dataflow completes.
pub fn all_agree(worker: &mut timely::worker::Worker, ok: bool) -> bool {
    use std::cell::Cell;
    use std::rc::Rc;
    use timely::dataflow::operators::vec::Broadcast;
    use timely::dataflow::operators::{Input, Inspect, Probe};
    let agreed = Rc::new(Cell::new(true));
    let seen = Rc::clone(&agreed);
    let (mut input, probe) = worker.dataflow::<u32, _, _>(|scope| {
        let (input, stream) = scope.new_input::<Vec<bool>>();
        let (probe, _) = stream
            .broadcast()
            .inspect(move |vote| {
                if !*vote {
                    seen.set(false);
                }
            })
            .probe();
        (input, probe)
    });
    // Sent only once the dataflow is built: a record sent while building reaches no
    // consumer, yet counts as in flight, and the dataflow never completes.
    input.send(ok);
    drop(input);
    worker.step_or_park_while(None, || !probe.done());
    agreed.get()
}

/// Returns once every worker of the run has called it.
pub fn barrier(worker: &mut timely::worker::Worker) {
    all_agree(worker, true);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workers_agree_only_when_every_one_votes_yes() {
        for no_from in [None, Some(0), Some(1)] {
            let votes = timely::execute(timely::Config::process(2), move |worker| {
                let first = all_agree(worker, Some(worker.index()) != no_from);
                let second = all_agree(worker, true);
                (first, second)
            })
            .expect("two threads start")
            .join()
            .into_iter()
            .map(|r| r.expect("a worker returns"))
            .collect::<Vec<_>>();
            let agreed = no_from.is_none();
            assert_eq!(
                votes,
                vec![(agreed, true), (agreed, true)],
                "no from {no_from:?}"
            );
        }
    }

    #[test]
    fn the_least_loaded_worker_wins_and_ties_start_at_home() {
        assert_eq!(least_loaded(&[0, 0, 0], 1), 1);
        assert_eq!(least_loaded(&[5, 3, 3], 0), 1);
        assert_eq!(least_loaded(&[5, 3, 3], 2), 2);
        assert_eq!(least_loaded(&[], 0), 0);
        // Greedy assignment of uneven costs stays within the largest cost.
        let mut assigned = [0u64; 2];
        for cost in [100, 1, 1, 1, 50, 50, 1] {
            let w = least_loaded(&assigned, 0);
            assigned[w] += cost;
        }
        assert!(assigned[0].abs_diff(assigned[1]) <= 100, "{assigned:?}");
        assert_eq!(assigned.iter().sum::<u64>(), 204);
    }

    #[test]
    fn a_backlog_works_within_its_fuel() {
        let mut backlog: Backlog<&str, u32> = Backlog::new(Fuel {
            records: 3,
            time: None,
        });
        backlog.stash("a", vec![(1, 0, 1), (2, 0, 1)]);
        backlog.stash("b", vec![(3, 0, 1), (4, 0, 1)]);
        let mut seen = Vec::new();
        assert!(backlog.work(|cap, d, _, _| seen.push((*cap, d))));
        assert_eq!(seen, [("a", 1), ("a", 2), ("b", 3)]);
        assert!(!backlog.work(|cap, d, _, _| seen.push((*cap, d))));
        assert_eq!(seen.len(), 4);
        assert!(!backlog.work(|_, _, _, _| unreachable!()));
    }

    #[test]
    fn a_shared_backlog_serves_every_worker_in_key_order() {
        let shared: std::sync::Arc<SharedBacklog<u32, u32>> = Default::default();
        shared.stash(vec![(5, 0, 1), (1, 0, 1), (3, 0, 1)], |d| *d);
        // Another worker's groups join the same queue, in order.
        let other = std::sync::Arc::clone(&shared);
        std::thread::spawn(move || other.stash(vec![(4, 0, 1), (2, 0, 1)], |d| *d))
            .join()
            .expect("stashing thread");
        let other = std::sync::Arc::clone(&shared);
        let first = std::thread::spawn(move || other.pop())
            .join()
            .expect("popping thread");
        assert_eq!(first.map(|r| r.0), Some(1));
        let rest: Vec<u32> = std::iter::from_fn(|| shared.pop()).map(|r| r.0).collect();
        assert_eq!(rest, [2, 3, 4, 5]);
        assert!(shared.is_empty());
    }

    #[test]
    fn a_spent_time_budget_still_does_one_record() {
        let mut backlog: Backlog<(), u32> = Backlog::new(Fuel {
            records: 100,
            time: Some(Duration::ZERO),
        });
        backlog.stash((), vec![(1, 0, 1), (2, 0, 1)]);
        let mut n = 0;
        assert!(backlog.work(|_, _, _, _| n += 1));
        assert_eq!(n, 1);
        assert!(!backlog.work(|_, _, _, _| n += 1));
        assert_eq!(n, 2);
    }
}
