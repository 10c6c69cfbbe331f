//! Calibration for BENCHMARKS.md: Ruff's parser alone over every .py file under the given
//! roots (read once into memory first), single-threaded. Prints files/s and MB/s of parsing.
//!
//!     cargo run --release --example parse_only -- corpus/real

use std::time::Instant;

fn main() {
    let mut sources = Vec::new();
    for root in std::env::args().skip(1) {
        for entry in walkdir::WalkDir::new(root).into_iter().flatten() {
            if entry.path().extension().is_some_and(|e| e == "py") {
                if let Ok(text) = std::fs::read_to_string(entry.path()) {
                    sources.push(text);
                }
            }
        }
    }
    let bytes: usize = sources.iter().map(String::len).sum();
    let start = Instant::now();
    let mut ok = 0;
    for s in &sources {
        ok += ruff_python_parser::parse_module(s).is_ok() as usize;
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "parse only: {} files ({} ok), {:.1} MB in {:.2} s: {:.0} files/s, {:.1} MB/s",
        sources.len(),
        ok,
        bytes as f64 / 1e6,
        secs,
        sources.len() as f64 / secs,
        bytes as f64 / 1e6 / secs
    );
}
