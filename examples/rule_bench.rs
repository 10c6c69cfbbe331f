//! Benchmark for BENCHMARKS.md: operator-rule application rate over the recorded ground-truth
//! cases, concretely and with every tensor dim symbolic, plus normal-form cost on large
//! expressions. Single thread.
//!
//!     cargo run --release --example rule_bench

use std::hint::black_box;
use std::time::Instant;

use serde_json::Value as Json;
use shapehound::catalogue::{apply, lookup, RuleKind};
use shapehound::shapes::dim::DimExpr;
use shapehound::shapes::Value;

// The same allocator as the shapehound binary.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "../tests/common/shape_decode.rs"]
mod decode;

struct Prepared {
    op: String,
    f: fn(&mut shapehound::catalogue::Ctx) -> shapehound::catalogue::RuleResult,
    args: Vec<Value>,
    kwargs: Vec<(String, Value)>,
}

/// Applications per second: `with_args` includes cloning the argument values per application
/// (as an interpreter building them would); otherwise the arguments are prepared before the
/// clock starts and only the rule runs.
fn rate(name: &str, cases: &[Prepared], rounds: usize) {
    let mut n = 0usize;
    let start = Instant::now();
    for _ in 0..rounds {
        for c in cases {
            black_box(apply(c.f, &c.op, c.args.clone(), c.kwargs.clone(), None).is_ok());
            n += 1;
        }
    }
    let with_args = n as f64 / start.elapsed().as_secs_f64();
    let mut elapsed = 0.0;
    for _ in 0..rounds {
        let prepared: Vec<_> = cases
            .iter()
            .map(|c| (c.args.clone(), c.kwargs.clone()))
            .collect();
        let start = Instant::now();
        for (c, (args, kwargs)) in cases.iter().zip(prepared) {
            black_box(apply(c.f, &c.op, args, kwargs, None).is_ok());
        }
        elapsed += start.elapsed().as_secs_f64();
    }
    let rule_only = n as f64 / elapsed;
    println!("{name}: {n} applications; {with_args:.0}/s including argument construction, {rule_only:.0}/s rule only");
}

fn main() {
    let text = decode::read_cases();
    let mut concrete = Vec::new();
    let mut symbolic = Vec::new();
    for line in text.lines().skip(1) {
        let case: Json = serde_json::from_str(line).expect("JSON");
        let op = case["op"].as_str().unwrap_or("").to_string();
        let Some(RuleKind::Function(f)) = lookup(&op).map(|r| r.kind) else {
            continue; // module cases need their init; the function rules are the bulk
        };
        let args: Vec<Value> = case["args"]
            .as_array()
            .map(|a| a.iter().map(decode::decode).collect())
            .unwrap_or_default();
        let kwargs = decode::kwargs_of(case.get("kwargs"));
        let mut env = decode::Env::new();
        let sym_args = args
            .iter()
            .map(|a| decode::symbolize(a, &mut env))
            .collect();
        concrete.push(Prepared {
            op: op.clone(),
            f,
            args,
            kwargs: kwargs.clone(),
        });
        symbolic.push(Prepared {
            op,
            f,
            args: sym_args,
            kwargs,
        });
    }
    println!("{} function-rule cases", concrete.len());
    rate("concrete", &concrete, 20);
    rate("symbolic", &symbolic, 5);

    // Normal form on large expressions: (x0 + ... + x49) * (y0 + ... + y49) = 2,500 monomials.
    let start = Instant::now();
    let xs = (0..50).fold(DimExpr::zero(), |acc, i| {
        acc.add(&DimExpr::sym(&format!("x{i}")))
    });
    let ys = (0..50).fold(DimExpr::zero(), |acc, i| {
        acc.add(&DimExpr::sym(&format!("y{i}")))
    });
    let product = xs.mul(&ys);
    let t_mul = start.elapsed();
    let start = Instant::now();
    let back = product.floordiv(&xs);
    let t_div = start.elapsed();
    let start = Instant::now();
    let equal = product.decide_eq(&ys.mul(&xs));
    let t_eq = start.elapsed();
    println!(
        "normal form: 50x50-term product {} monomials in {:.2} ms; exact division {:.2} ms ({}); equality decision {:.2} ms ({:?})",
        product.size(),
        t_mul.as_secs_f64() * 1e3,
        t_div.as_secs_f64() * 1e3,
        if back == ys { "exact" } else { "kept as an atom" },
        t_eq.as_secs_f64() * 1e3,
        equal
    );
}
