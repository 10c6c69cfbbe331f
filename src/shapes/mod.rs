//! The shape domain: symbolic dimensions (`dim`), gradual shapes and broadcasting
//! (`shape`), abstract values (`value`, with the known elements and value ranges of
//! `elements` and `bounds`) and requirements (`requirement`), independent of any program
//! and of any operator (the operators' rules are `crate::catalogue`, which builds on this).
//!
//! ## File by file
//!
//! `dim.rs`: `DimExpr`, symbolic integer expressions in a canonical normal form (a constant plus
//! sorted monomials over atoms: symbols and opaque `//`, `%`, `min`, `max` terms), so equal
//! expressions are equal structurally and `decide_eq`/`decide_le` settle cheap cases without a
//! solver; Python floor-division semantics; an exact division is simplified, by polynomials too
//! (long division under a graded order: reshape's `-1` of an expanded product of pooled sizes is a
//! plain quotient). `shape.rs`: gradual shapes (`Dim::Dyn`, known rank, or prefix/suffix around an
//! unknown middle) and PyTorch broadcasting. `value.rs`: abstract values (tensor, int, bool,
//! float, str, None, tuple/list, `torch.Size`, slice, module instance, ...); a tensor may carry a
//! known uniform content (`zeros`/`ones`/`full`), which masks, index tensors and repeat counts are
//! read through, and a known largest element (`arange`, kept by reshapes and copies, by
//! `max`/`amax` and `repeat_interleave` by one count, shifted by `+ k`; a one-element tensor's
//! `item()`/`int()` is it, and a 0-d one is a slice bound: the rows of a drawn int tensor each
//! hold a draw, `Interp::draw_rows`), which embeddings check against their table size;
//! `catalogue/content.rs` says what a rule's result keeps of these after every rule.
//! `elements.rs`: the known element values of small tensors (concrete shape, at most 4096
//! elements): `arange`/`linspace`/literals, elementwise arithmetic, `log`/`round`/`pow`,
//! conversions, whole-tensor reductions, `diff`, `cumsum`, `unique`, floating results rounded to
//! float32 as torch stores them; `catalogue::apply` clears a rule's result and asks
//! `elements::evaluate` (which returns at once when no argument holds known values and the
//! operator creates none), so only this file gives values (RegNet's widths are tensor arithmetic;
//! checked against real torch, `tests/data/element_cases.json` from
//! `scripts/gen_element_cases.py`). `bounds.rs`: the range a tensor's unknown values are drawn
//! from (`rand` in [0, 1), `randint(lo, hi)` in lo..hi-1, its ends read by the rule's own
//! `creation::randint_args`; boxed in `TensorValue`, kept by value-keeping operations and the
//! conversions of `catalogue::converts`, given after every rule like the element values, at once
//! returning when nothing is drawn); a comparison the range decides is a uniform mask, `item()` a
//! `V::Drawn` float or a size symbol within the range. `Elements` and `Bounds` compare and hash
//! bitwise through one macro (`compared_by_bits!` in `shapes/mod.rs`). `requirement.rs`:
//! predicates over dims with a message.

/// `PartialEq`, `Eq`, `PartialOrd`, `Ord` and `Hash` for a type of float payloads, through
/// its `bits()`, a sequence of bit patterns: values compare and hash bitwise (deterministic,
/// and a NaN equals itself).
macro_rules! compared_by_bits {
    ($t:ty) => {
        impl PartialEq for $t {
            fn eq(&self, other: &Self) -> bool {
                self.bits().into_iter().eq(other.bits())
            }
        }
        impl Eq for $t {}
        impl PartialOrd for $t {
            fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
                Some(self.cmp(other))
            }
        }
        impl Ord for $t {
            fn cmp(&self, other: &Self) -> std::cmp::Ordering {
                self.bits().into_iter().cmp(other.bits())
            }
        }
        impl std::hash::Hash for $t {
            fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
                for b in self.bits() {
                    b.hash(state);
                }
            }
        }
    };
}

pub mod bounds;
pub mod dim;
pub mod elements;
pub mod kind;
pub mod requirement;
pub mod shape;
pub mod value;

pub use dim::DimExpr;
pub use kind::{Declared, FindingKind};
pub use requirement::{Pred, Requirement};
pub use shape::{Dim, Shape};
pub use value::{DType, Value};
