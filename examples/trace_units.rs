//! Prints the unit runs of one file: each run's obligations and how its job was solved.
//! A debugging aid: `cargo run --example trace_units -- FILE.py [--facts]` (`--facts`: each
//! run's facts too).

use shapehound::findings::analyse_module;
use shapehound::frontend::parse_python;
use shapehound::jobs::{JobSolver, DEFAULT_TIMEOUT};

fn main() {
    let path = std::env::args()
        .nth(1)
        .expect("usage: trace_units FILE.py [--facts]");
    let facts = std::env::args().any(|a| a == "--facts");
    let text = std::fs::read_to_string(&path).expect("readable UTF-8 file");
    let module = parse_python(&text).expect("parsable Python");
    let mut solver = JobSolver::new(DEFAULT_TIMEOUT);
    let started = std::time::Instant::now();
    let imports = shapehound::eval::imports::ImportSearch::for_file(
        std::path::Path::new(&path),
        std::path::Path::new("/"),
    );
    let place = shapehound::eval::data_files::Place::new(
        std::path::Path::new(&path),
        std::path::Path::new("/"),
    );
    let shapes = analyse_module(&module, &text, &path, (imports, place), &mut solver);
    eprintln!("total {} ms", started.elapsed().as_millis());
    let runs = shapes
        .units
        .iter()
        .zip(&shapes.solved)
        .flat_map(|(unit, solved)| {
            unit.runs
                .iter()
                .zip(solved)
                .map(move |(run, s)| (unit, run, s))
        });
    for (unit, run, solved) in runs {
        println!(
            "== {} {} [{}]: {} ops, {} unknown, {} obligations, {} facts{} -> {:?} ({} us)",
            unit.kind.name(),
            unit.name,
            run.variant,
            run.trace.ops,
            run.trace.unknown_ops,
            run.trace.obligations.len(),
            run.trace.facts.len(),
            match &run.trace.violation {
                Some(why) => format!(", assumption violated ({why})"),
                None => String::new(),
            },
            solved.verdict,
            solved.micros
        );
        if facts {
            for f in &run.trace.facts {
                println!("   fact {}", f.pred);
            }
        }
        for (i, o) in run.trace.obligations.iter().enumerate() {
            println!(
                "   #{i} {} {:?}: {} | {}",
                o.operator, o.span, o.pred, o.message
            );
        }
    }
    for f in &shapes.findings {
        println!("FINDING {:?} line {} {}", f.kind, f.span.line, f.message);
    }
}
