//! Custom timely operators of the scan: the fueled analysis stage with three outputs, and the
//! Parquet sink.

use std::collections::VecDeque;

use differential_dataflow::{AsCollection, VecCollection};
use timely::container::CapacityContainerBuilder;
use timely::dataflow::channels::pact::Pipeline;
use timely::dataflow::operators::generic::builder_rc::OperatorBuilder;
use timely::dataflow::operators::generic::operator::Operator;
use timely::dataflow::operators::generic::OutputBuilder;
use timely::dataflow::operators::Capability;

type Out<D> = CapacityContainerBuilder<Vec<(D, u32, isize)>>;

/// What analysing one content group produces.
pub struct GroupOutput<F, C, K> {
    pub files: Vec<F>,
    pub calls: Vec<C>,
    /// Pre-aggregated `(key, count)` pairs: the count becomes the differential diff.
    pub tallies: Vec<(K, isize)>,
}

/// Runs `logic` on every input record, `per_activation` records per activation.
///
/// The analysis stage receives every content group at once (its input is a `reduce` that fires
/// when the walk is complete). Doing all of them in one activation would queue every output
/// row before any sink runs, so memory would grow with the corpus; here the operator stashes
/// its input, does a bounded amount of work, and reschedules itself, letting the sinks drain
/// in between.
#[allow(clippy::type_complexity)]
pub fn analyse_fueled<'s, D, F, C, K, L>(
    input: VecCollection<'s, u32, D, isize>,
    per_activation: usize,
    mut logic: L,
) -> (
    VecCollection<'s, u32, F, isize>,
    VecCollection<'s, u32, C, isize>,
    VecCollection<'s, u32, K, isize>,
)
where
    D: Clone + 'static,
    F: Clone + 'static,
    C: Clone + 'static,
    K: Clone + 'static,
    L: FnMut(D) -> GroupOutput<F, C, K> + 'static,
{
    let scope = input.scope();
    let mut builder = OperatorBuilder::new("Analyse".to_owned(), scope);
    let activator = scope.activator_for(builder.operator_info().address);
    let mut input = builder.new_input(input.inner, Pipeline);
    let (files, files_stream) = builder.new_output();
    let (calls, calls_stream) = builder.new_output();
    let (tallies, tallies_stream) = builder.new_output();
    let mut files = OutputBuilder::<_, Out<F>>::from(files);
    let mut calls = OutputBuilder::<_, Out<C>>::from(calls);
    let mut tallies = OutputBuilder::<_, Out<K>>::from(tallies);

    builder.build(move |_initial_capabilities| {
        type Caps = [Capability<u32>; 3];
        let mut pending: VecDeque<(Caps, D, u32, isize)> = VecDeque::new();
        move |_frontiers| {
            input.for_each(|cap, data| {
                let caps = (
                    cap.retain_least(0),
                    cap.retain_least(1),
                    cap.retain_least(2),
                );
                if let (Some(a), Some(b), Some(c)) = caps {
                    for (d, t, r) in data.drain(..) {
                        pending.push_back(([a.clone(), b.clone(), c.clone()], d, t, r));
                    }
                }
            });
            let mut files = files.activate();
            let mut calls = calls.activate();
            let mut tallies = tallies.activate();
            for _ in 0..per_activation {
                let Some((caps, d, t, r)) = pending.pop_front() else {
                    break;
                };
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
            }
            if !pending.is_empty() {
                activator.activate();
            }
        }
    });
    (
        files_stream.as_collection(),
        calls_stream.as_collection(),
        tallies_stream.as_collection(),
    )
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
