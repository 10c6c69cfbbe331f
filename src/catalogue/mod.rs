//! The operator catalogue: one declarative rule per operator (or family), findable by the
//! canonical PyTorch name, each documenting the PyTorch behaviour it encodes.
//!
//! A rule reads abstract positional/keyword arguments through [`Ctx`] (defaults, negative
//! dims, tuples vs varargs, `dim=None`, `keepdim`) and returns the output value plus
//! requirements: predicates over dims, each with a message naming the operator, the argument
//! and the shapes. A rule fails with [`RuleError::Invalid`] when PyTorch raises whatever the
//! dims are (a dim out of range for a known rank, a wrong argument type), and with
//! [`RuleError::Unsupported`] when it cannot tell (the caller then treats the result as
//! unknown — never as an error).
//!
//! Families live in one file each (`conv.rs`: every convolution); [`catalogue`] indexes every
//! family's `RULES` table and rejects a name registered twice. `docs/operators.md`, kept
//! current by a test, says which file holds each operator. Besides the families: `context.rs`
//! (`Ctx`, `apply`), `common.rs` (checks every family makes), `nd.rs` (the N-d tuples and
//! batch handling of convolution, pooling, resampling and normalisation), `content.rs`,
//! `elements.rs`, `bounds.rs` (what a result keeps or computes of its inputs' values).
//!
//! ## Families and checks
//!
//! The families (creation, views, indexing, joins, elementwise, pointwise — more unary math,
//! predicates, logical and three-operand ops, activations —, init — `nn.init.*` and in-place fills
//! —, structure — tril/triu, diagonals, roll, flip, meshgrid, cross —, spectral — `Tensor.unfold`,
//! window functions, `torch.fft`, `stft` —, folding — `nn.Unfold`/`nn.Fold` and their functional
//! forms —, products, einsum, reductions, conv, pooling, resample, norms, embedding, modules,
//! recurrent, attention — with the `TransformerEncoder`/`Decoder` stacks, which run their layer's
//! rule through `modules::apply_child` as `Sequential` does, built as modules with children by
//! `common::module_with_children` —, losses, queries, linalg — `torch.linalg` decompositions and
//! their old names —, detection — torchvision's box operations, `nms` giving an index vector of
//! data-dependent length, `roi_align`/`roi_pool` —, data_dependent — `nonzero`, `argwhere`,
//! `where(cond)`, `masked_select`, `unique`, `bincount` —; a size only the data decides (those,
//! bool-mask counts, an unknown index vector, `repeat_interleave` by a tensor) is `Ctx::fresh`: a
//! placeholder symbol with its bounds as assumptions (`bincount`'s length within the range its
//! values are drawn from), which `Interp::name_fresh` turns into a fresh non-negative symbol of
//! the run, so the rest of the shape flows on and the solver may pick any size the bounds allow;
//! shared helpers in `common.rs` (`require_non_empty`: the non-batch dims of pooling and folding
//! inputs; `maybe_size_hyper`/`param_size`: a layer width the analysis does not know
//! (`Value::is_unknown_int`, read through `catalogue::maybe_int_of`) is stored as unknown and its
//! dims flow on as `Dim::Dyn`, so Conv and Linear layers built from widths computed outside the
//! file still check what is known; `require_values_within`: index and target values known as
//! uniform content or as elements, `TensorValue::int_extremes`); `parameters.rs`: the parameters
//! and buffers a built layer holds — `conv.weight`, `ln.bias`, `bn.running_mean` — shaped from the
//! hyperparameters its init rule stored; its other attributes, such as `eps`, are those
//! hyperparameters), each rule a documented function registered by canonical name (`torch.cat`,
//! `torch.Tensor.view`, `operator.getitem`, `torch.nn.Conv2d` as init + forward). A rule reads
//! arguments through `Ctx` and returns a value plus requirements (and assumptions its value is
//! exact under, e.g. `chunk` of a symbolic dim splitting evenly, which become facts); `Invalid`
//! means PyTorch raises whatever the unknown dims are, `Unsupported` means unknown (never an
//! alarm). What a rule requires or raises after reading an argument that holds unknown parts is
//! not certain, unless the rule says it checks only the known parts in a way PyTorch raises on
//! whatever the others are (`Ctx::regardless_of_unknown`: the known operands of a `cat`). Checked
//! by `tests/shape_catalogue.rs` against 11,154 cases recorded from real PyTorch
//! (`scripts/gen_shape_cases.py` → `tests/data/shape_cases/`; disagreements, each with its reason,
//! in `tests/data/shape_disagreements.tsv`) and by `tests/shape_symbolic.rs`, which re-runs every
//! case with symbolic dims and checks that instantiating the symbolic outcome gives the concrete
//! one (a data-dependent size takes the concrete result's, which must lie within the bounds the
//! rule assumed).

use rustc_hash::FxHashMap as HashMap;
use std::sync::OnceLock;

use crate::shapes::kind::FindingKind;

pub mod attention;
pub mod bounds;
pub mod common;
mod content;
mod context;
pub mod conv;
pub mod creation;
pub mod data_dependent;
pub mod detection;
pub mod einsum;
pub mod elements;
pub mod elementwise;
pub mod embedding;
pub mod folding;
pub mod indexing;
pub mod init;
pub mod joins;
pub mod linalg;
pub mod losses;
pub mod modules;
pub mod nd;
pub mod norms;
pub mod parameters;
pub mod pointwise;
pub mod pooling;
pub mod products;
pub mod queries;
pub mod recurrent;
pub mod reductions;
pub mod resample;
pub mod spectral;
pub mod structure;
pub mod views;

pub use content::{converts, keeps_content};
pub use context::{
    apply, apply_noting_reads, fresh_index, fresh_placeholder, int_of, invalid, invalid_as,
    maybe_int_of, ranked, tensor_out, unsupported, Ctx, Failure, Inputs, Outcome, RuleError,
    RuleResult,
};

/// How a rule is applied.
#[derive(Clone, Copy)]
pub enum RuleKind {
    /// A function or method (`torch.cat`, `torch.Tensor.view`: the receiver is argument 0).
    Function(fn(&mut Ctx) -> RuleResult),
    /// An `nn.Module`: `init` checks the hyperparameters and builds the module value;
    /// `forward` applies it (`ctx.module` is set).
    Module {
        init: fn(&mut Ctx) -> RuleResult,
        forward: fn(&mut Ctx) -> RuleResult,
    },
}

#[derive(Clone, Copy)]
pub struct Rule {
    pub name: &'static str,
    pub kind: RuleKind,
    /// What the rule's failures are, when not its family's `KIND`.
    pub finding: Option<FindingKind>,
}

impl Rule {
    pub const fn function(name: &'static str, apply: fn(&mut Ctx) -> RuleResult) -> Rule {
        Rule {
            name,
            kind: RuleKind::Function(apply),
            finding: None,
        }
    }

    pub const fn module(
        name: &'static str,
        init: fn(&mut Ctx) -> RuleResult,
        forward: fn(&mut Ctx) -> RuleResult,
    ) -> Rule {
        Rule {
            name,
            kind: RuleKind::Module { init, forward },
            finding: None,
        }
    }

    /// Declares what this rule's failures are (its family's `KIND` otherwise).
    pub const fn finding(self, kind: FindingKind) -> Rule {
        Rule {
            finding: Some(kind),
            ..self
        }
    }
}

/// A family: its file (module name), its rules, and what their failures are unless a rule
/// or a check declares otherwise.
pub type Family = (&'static str, &'static [Rule], FindingKind);

/// Every family, in order.
pub fn families() -> Vec<Family> {
    vec![
        ("creation", creation::RULES, creation::KIND),
        ("views", views::RULES, views::KIND),
        ("indexing", indexing::RULES, indexing::KIND),
        ("joins", joins::RULES, joins::KIND),
        ("elementwise", elementwise::RULES, elementwise::KIND),
        ("pointwise", pointwise::RULES, pointwise::KIND),
        ("init", init::RULES, init::KIND),
        ("structure", structure::RULES, structure::KIND),
        ("spectral", spectral::RULES, spectral::KIND),
        ("folding", folding::RULES, folding::KIND),
        ("products", products::RULES, products::KIND),
        ("einsum", einsum::RULES, einsum::KIND),
        ("reductions", reductions::RULES, reductions::KIND),
        ("conv", conv::RULES, conv::KIND),
        ("pooling", pooling::RULES, pooling::KIND),
        ("resample", resample::RULES, resample::KIND),
        ("norms", norms::RULES, norms::KIND),
        ("embedding", embedding::RULES, embedding::KIND),
        ("modules", modules::RULES, modules::KIND),
        ("recurrent", recurrent::RULES, recurrent::KIND),
        ("attention", attention::RULES, attention::KIND),
        ("losses", losses::RULES, losses::KIND),
        ("queries", queries::RULES, queries::KIND),
        ("detection", detection::RULES, detection::KIND),
        ("linalg", linalg::RULES, linalg::KIND),
        (
            "data_dependent",
            data_dependent::RULES,
            data_dependent::KIND,
        ),
    ]
}

/// A rule, the family (file) that registers it, and what its failures are.
#[derive(Clone, Copy)]
pub struct Registered {
    pub rule: Rule,
    pub family: &'static str,
    pub finding: FindingKind,
}

/// A name registered by two rules.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("operator {name} has a rule in {first} and in {second}")]
pub struct DuplicateRule {
    pub name: &'static str,
    pub first: &'static str,
    pub second: &'static str,
}

/// Indexes rule tables by canonical name; a name registered twice is an error, not a
/// silent overwrite.
pub fn index(families: &[Family]) -> Result<HashMap<&'static str, Registered>, DuplicateRule> {
    let mut map: HashMap<&'static str, Registered> = HashMap::default();
    for &(family, rules, kind) in families {
        for rule in rules {
            if let Some(first) = map.get(rule.name) {
                return Err(DuplicateRule {
                    name: rule.name,
                    first: first.family,
                    second: family,
                });
            }
            let finding = rule.finding.unwrap_or(kind);
            map.insert(
                rule.name,
                Registered {
                    rule: *rule,
                    family,
                    finding,
                },
            );
        }
    }
    Ok(map)
}

/// Every rule, by canonical name.
pub fn catalogue() -> &'static HashMap<&'static str, Registered> {
    static CATALOGUE: OnceLock<HashMap<&'static str, Registered>> = OnceLock::new();
    CATALOGUE.get_or_init(|| {
        // The tables are static: a duplicate is a programming error, caught by the tests.
        index(&families()).unwrap_or_else(|e| panic!("{e}"))
    })
}

pub fn lookup(name: &str) -> Option<Rule> {
    catalogue().get(name).map(|r| r.rule)
}

/// What a failure of the operator `name` is, unless its check declares otherwise.
pub fn finding_kind(name: &str) -> FindingKind {
    catalogue()
        .get(name)
        .map_or(FindingKind::ShapeMismatch, |r| r.finding)
}

/// `docs/operators.md`: every operator with a rule, its kind and the file of its family.
pub fn operator_index() -> String {
    let mut rows: Vec<(&str, &Registered)> = catalogue().iter().map(|(n, r)| (*n, r)).collect();
    rows.sort_by_key(|(name, _)| *name);
    let mut out = String::from(
        "# Operators with a shape rule\n\n\
         Generated from the catalogue's registry (`src/catalogue/mod.rs`); a test keeps it \
         current (`SHAPEHOUND_BLESS=1 cargo test --lib operator_index` rewrites it). Each \
         rule's doc comment, in its family's file, gives the PyTorch behaviour it encodes.\n\n\
         | operator | kind | finding | file |\n|---|---|---|---|\n",
    );
    for (name, r) in rows {
        let kind = match r.rule.kind {
            RuleKind::Function(_) => "function",
            RuleKind::Module { .. } => "module",
        };
        out.push_str(&format!(
            "| `{name}` | {kind} | {} | `src/catalogue/{}.rs` |\n",
            r.finding.code(),
            r.family
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shapes::shape::{Dim, Shape};
    use crate::shapes::value::{DType, Value};
    use crate::testing::{call, ints};

    #[test]
    fn every_name_has_one_rule_and_the_catalogue_is_broad() {
        let rules = index(&families()).expect("no name registered twice");
        assert!(rules.len() >= 200, "{} rules", rules.len());
        for (name, r) in &rules {
            assert_eq!(lookup(name).map(|rule| rule.name), Some(r.rule.name));
        }
    }

    #[test]
    fn a_name_registered_twice_is_rejected() {
        static ONE: &[Rule] = &[Rule::function("torch.t", |_| unsupported("x"))];
        static TWO: &[Rule] = &[Rule::function("torch.t", |_| unsupported("y"))];
        assert_eq!(
            index(&[
                ("views", ONE, FindingKind::ShapeMismatch),
                ("linalg", TWO, FindingKind::ShapeMismatch)
            ])
            .err(),
            Some(DuplicateRule {
                name: "torch.t",
                first: "views",
                second: "linalg",
            })
        );
    }

    /// Every family file the registry names exists, and `docs/operators.md` is current.
    #[test]
    fn operator_index_is_current() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        for (family, _, _) in families() {
            let file = root.join(format!("src/catalogue/{family}.rs"));
            assert!(file.exists(), "{}", file.display());
        }
        let path = root.join("docs/operators.md");
        let index = operator_index();
        if std::env::var_os("SHAPEHOUND_BLESS").is_some() {
            std::fs::write(&path, &index).expect("docs/operators.md is writable");
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == index,
            "docs/operators.md is stale: SHAPEHOUND_BLESS=1 cargo test --lib operator_index"
        );
    }

    #[test]
    fn created_content_flows_into_masks_and_indices() {
        // torch.ones(2, 3, dtype=torch.bool): an all-True mask keeps every element.
        let mask = call(
            "torch.ones",
            ints(&[2, 3]),
            vec![("dtype", Value::DType(DType::Bool))],
        );
        let mask = mask.unwrap();
        assert_eq!(mask.as_tensor().and_then(|t| t.uniform), Some(1));
        let x = Value::float_tensor(&[2, 3, 4]);
        let kept = call("operator.getitem", vec![x.clone(), mask], vec![]).unwrap();
        assert_eq!(kept.as_tensor().unwrap().shape, Shape::of(&[6, 4]));
        // torch.zeros(...).bool() is all False: nothing is kept.
        let zeros = call("torch.zeros", ints(&[2, 3]), vec![]).unwrap();
        let none = call("torch.Tensor.bool", vec![zeros], vec![]).unwrap();
        let kept = call("operator.getitem", vec![x.clone(), none], vec![]).unwrap();
        assert_eq!(kept.as_tensor().unwrap().shape, Shape::of(&[0, 4]));
        // torch.full((3,), 5) as an index into a dim of 2 is out of bounds.
        let idx = call(
            "torch.full",
            vec![Value::Tuple(ints(&[3])), Value::int(5)],
            vec![],
        )
        .unwrap();
        assert!(matches!(
            call("operator.getitem", vec![x, idx], vec![]),
            Err(RuleError::Invalid { .. })
        ));
        // Random content is unknown.
        let r = call("torch.rand", ints(&[2]), vec![]).unwrap();
        assert_eq!(r.as_tensor().and_then(|t| t.uniform), None);
    }

    /// Values not known leave only what depends on them unknown: `randint` with a random
    /// bound still has the shape its `size` gives, and a slice with a random start keeps the
    /// tensor's rank and its other dims.
    #[test]
    fn unknown_values_leave_the_rest_of_the_shape_known() {
        let r = call(
            "torch.randint",
            vec![Value::int(0), Value::IntUnknown, Value::Tuple(ints(&[1]))],
            vec![],
        )
        .unwrap();
        assert_eq!(r.as_tensor().unwrap().shape, Shape::of(&[1]));
        let x = Value::float_tensor(&[3, 8, 8]);
        let all = Value::Slice(
            Box::new(Value::None),
            Box::new(Value::None),
            Box::new(Value::None),
        );
        let random = Value::Slice(
            Box::new(Value::IntUnknown),
            Box::new(Value::IntUnknown),
            Box::new(Value::None),
        );
        let idx = Value::Tuple(vec![all, random.clone(), random]);
        let crop = call("operator.getitem", vec![x, idx], vec![]).unwrap();
        let dims = crop.as_tensor().unwrap().shape.dims().unwrap().to_vec();
        assert_eq!(dims, vec![Dim::constant(3), Dim::Dyn, Dim::Dyn]);
    }

    /// Index and target tensors whose elements are known are checked element by element;
    /// a loss's `ignore_index` is skipped.
    #[test]
    fn known_elements_are_checked_against_tables_and_classes() {
        let ids = |xs: &[i64]| call("torch.tensor", vec![Value::List(ints(xs))], vec![]).unwrap();
        let table = Value::float_tensor(&[3, 4]);
        let lookup = |i: Value| {
            call(
                "torch.nn.functional.embedding",
                vec![i, table.clone()],
                vec![],
            )
        };
        assert!(lookup(ids(&[0, 2])).is_ok());
        assert!(matches!(
            lookup(ids(&[0, 3])),
            Err(RuleError::Invalid { .. })
        ));
        let logits = Value::float_tensor(&[2, 3]);
        let loss = |t: Value| {
            call(
                "torch.nn.functional.cross_entropy",
                vec![logits.clone(), t],
                vec![],
            )
        };
        assert!(loss(ids(&[2, -100])).is_ok());
        assert!(matches!(loss(ids(&[2, 3])), Err(RuleError::Invalid { .. })));
    }
}
