//! The shape domain: symbolic dimensions (`dim`), gradual shapes and broadcasting
//! (`shape`), abstract values (`value`, with the known elements and value ranges of
//! `elements` and `bounds`) and requirements (`requirement`), independent of any program
//! and of any operator (the operators' rules are `crate::catalogue`, which builds on this).

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
