//! Symbolic soundness: for every recorded case, the rule is applied once with every input
//! tensor dim replaced by a symbol, and once concretely. Instantiating the symbolic outcome
//! (its requirements and output dims) at the case's values — and at random other values —
//! must give exactly the concrete outcome: requirements hold iff the concrete application
//! succeeds, and the output dims evaluate to the concrete output dims. A symbolic `Invalid`
//! must be invalid concretely too.

use serde_json::Value as Json;
use shapehound::catalogue::{apply, fresh_index, lookup, Outcome, RuleError, RuleKind};
use shapehound::shapes::value::{ModuleValue, TensorValue};
use shapehound::shapes::{Dim, DimExpr, Shape, Value};

#[path = "common/shape_decode.rs"]
mod decode;

use decode::{symbolize, Env};

/// Binds the data-dependent sizes of a symbolic result (placeholders, see
/// `Ctx::fresh`) to the dims the concrete result has in their place.
fn bind_fresh(symbolic: &Value, concrete: &Value, env: &mut Env) {
    match (symbolic, concrete) {
        (Value::Tensor(a), Value::Tensor(b)) => {
            if let (Some(x), Some(y)) = (a.shape.dims(), b.shape.dims()) {
                for (d, c) in x.iter().zip(y) {
                    let (Dim::Known(e), Some(c)) = (d, c.as_const()) else {
                        continue;
                    };
                    if let [s] = &e.symbols()[..] {
                        if fresh_index(s).is_some() && *e == DimExpr::sym(s) {
                            env.insert(s.to_string(), c);
                        }
                    }
                }
            }
        }
        (Value::Tuple(x), Value::Tuple(y)) | (Value::List(x), Value::List(y)) => {
            for (a, b) in x.iter().zip(y) {
                bind_fresh(a, b, env);
            }
        }
        _ => {}
    }
}

/// Replaces symbols by their values in a value (for re-running concretely at other points).
fn instantiate(v: &Value, env: &Env) -> Option<Value> {
    let lookup = |n: &str| env.get(n).copied();
    Some(match v {
        Value::Tensor(t) => match &t.shape {
            Shape::Ranked(dims) => {
                let mut out = Vec::new();
                for d in dims {
                    out.push(match d {
                        Dim::Known(e) => Dim::constant(e.eval(&lookup)?),
                        Dim::Dyn => Dim::Dyn,
                    });
                }
                Value::Tensor(TensorValue {
                    shape: Shape::Ranked(out),
                    ..t.clone()
                })
            }
            _ => Value::Tensor(t.clone()),
        },
        Value::Int(e) => Value::int(e.eval(&lookup)?),
        Value::Size(dims) => {
            let mut out = Vec::new();
            for d in dims {
                out.push(match d {
                    Dim::Known(e) => Dim::constant(e.eval(&lookup)?),
                    Dim::Dyn => Dim::Dyn,
                });
            }
            Value::Size(out)
        }
        Value::Tuple(items) => Value::Tuple(
            items
                .iter()
                .map(|x| instantiate(x, env))
                .collect::<Option<_>>()?,
        ),
        Value::List(items) => Value::List(
            items
                .iter()
                .map(|x| instantiate(x, env))
                .collect::<Option<_>>()?,
        ),
        other => other.clone(),
    })
}

fn run(case: &Json, args: Vec<Value>) -> Result<Outcome, RuleError> {
    let op = case["op"].as_str().unwrap_or("");
    let kwargs = decode::kwargs_of(case.get("kwargs"));
    match lookup(op).map(|r| r.kind) {
        None => Err(RuleError::Unsupported("no rule".into())),
        Some(RuleKind::Function(f)) => apply(f, op, args, kwargs, None),
        Some(RuleKind::Module { init, forward }) => {
            let init_args = case["init_args"]
                .as_array()
                .map(|a| a.iter().map(decode::decode).collect())
                .unwrap_or_default();
            let built = apply(
                init,
                op,
                init_args,
                decode::kwargs_of(case.get("init_kwargs")),
                None,
            )?;
            match built.value {
                Value::Module(m) => apply(forward, op, args, kwargs, Some(ModuleValue::clone(&m))),
                _ => Err(RuleError::Unsupported("init gave no module".into())),
            }
        }
    }
}

/// The concrete verdict of an outcome: `Some(value)` when it succeeds.
fn concrete(out: Result<Outcome, RuleError>) -> Result<Option<Value>, ()> {
    match out {
        Ok(o) => {
            for r in &o.requirements {
                if r.pred.eval(&|_| None) == Some(false) {
                    return Ok(None);
                }
            }
            Ok(Some(o.value))
        }
        Err(RuleError::Invalid { .. }) => Ok(None),
        Err(RuleError::Unsupported(_)) => Err(()),
    }
}

/// Equal, except that a `Dyn` dim of the symbolic result (gradual: unknown) is consistent
/// with any concrete dim.
fn consistent(symbolic: &Value, concrete: &Value) -> bool {
    let dims_ok = |a: &[Dim], b: &[Dim]| {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| *x == Dim::Dyn || x == y)
    };
    match (symbolic, concrete) {
        (Value::Tensor(a), Value::Tensor(b)) => match (a.shape.dims(), b.shape.dims()) {
            (Some(x), Some(y)) => dims_ok(x, y),
            _ => true,
        },
        (Value::Size(x), Value::Size(y)) => dims_ok(x, y),
        (Value::Tuple(x), Value::Tuple(y)) | (Value::List(x), Value::List(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| consistent(a, b))
        }
        (Value::IntUnknown, Value::Int(_)) => true,
        (a, b) => a == b,
    }
}

struct Lcg(u64);
impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

#[test]
fn symbolic_rules_agree_with_concrete_evaluation() {
    let text = decode::read_cases();
    let mut rng = Lcg(42);
    let (mut checked, mut skipped, mut outside, mut failures) =
        (0usize, 0usize, 0usize, Vec::new());
    std::panic::set_hook(Box::new(|_| {}));
    for line in text.lines().skip(1) {
        let case: Json = serde_json::from_str(line).unwrap();
        let args: Vec<Value> = case["args"]
            .as_array()
            .map(|a| a.iter().map(decode::decode).collect())
            .unwrap_or_default();
        let mut env = Env::new();
        let sym_args: Vec<Value> = args.iter().map(|a| symbolize(a, &mut env)).collect();
        let symbolic = match std::panic::catch_unwind(|| run(&case, sym_args.clone())) {
            Ok(s) => s,
            Err(_) => {
                skipped += 1;
                continue;
            }
        };
        // The case's own values, then a few random points (dims 0..6).
        let mut points = vec![env.clone()];
        for _ in 0..3 {
            points.push(
                env.keys()
                    .map(|k| (k.clone(), rng.below(7) as i64))
                    .collect(),
            );
        }
        for point in points {
            let Some(conc_args) = sym_args
                .iter()
                .map(|a| instantiate(a, &point))
                .collect::<Option<Vec<_>>>()
            else {
                continue;
            };
            let Ok(reference) =
                std::panic::catch_unwind(|| concrete(run(&case, conc_args.clone())))
            else {
                continue;
            };
            let Ok(reference) = reference else {
                continue; // the concrete rule cannot tell: nothing to compare
            };
            let lookup = |n: &str| point.get(n).copied();
            // An outcome exact only under assumptions (`chunk` of a symbolic dim assumes an
            // even split) says nothing about points outside them.
            if let Ok(o) = &symbolic {
                if o.assumptions.iter().any(|p| p.eval(&lookup) == Some(false)) {
                    outside += 1;
                    continue;
                }
            }
            let verdict = match &symbolic {
                Err(RuleError::Unsupported(_)) => {
                    skipped += 1;
                    break;
                }
                Err(RuleError::Invalid { .. }) => None,
                Ok(o) => {
                    let holds = o
                        .requirements
                        .iter()
                        .all(|r| r.pred.eval(&lookup) != Some(false));
                    if !holds {
                        None
                    } else if o.fresh.is_empty() {
                        instantiate(&o.value, &point)
                    } else {
                        // Sizes the data decides: the concrete result's, which must lie
                        // within the bounds the rule assumed for them.
                        let mut bound = point.clone();
                        if let Some(c) = &reference {
                            bind_fresh(&o.value, c, &mut bound);
                        }
                        let within = o
                            .assumptions
                            .iter()
                            .all(|p| p.eval(&|n| bound.get(n).copied()) != Some(false));
                        if !within {
                            failures.push(format!(
                                "{}: at {bound:?} the concrete result breaks the bounds {:?}",
                                case["id"], o.assumptions
                            ));
                        }
                        instantiate(&o.value, &bound)
                    }
                }
            };
            checked += 1;
            let same = match (&verdict, &reference) {
                (None, None) => true,
                (Some(a), Some(b)) => consistent(a, b),
                _ => false,
            };
            if !same {
                failures.push(format!(
                    "{} at {point:?}: symbolic gives {verdict:?}, concrete {reference:?}",
                    case["id"]
                ));
            }
        }
    }
    // Restore the default hook so that the assertions below print their messages.
    let _ = std::panic::take_hook();
    eprintln!("symbolic soundness: {checked} instantiations checked, {skipped} cases skipped (unsupported symbolically), {outside} points outside a rule's assumptions");
    assert!(checked > 5000, "too few checks: {checked}");
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
