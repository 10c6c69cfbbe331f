//! Shape analysis core: symbolic dimensions (`dim`), gradual shapes and broadcasting
//! (`shape`), abstract values (`value`), requirements (`requirement`) and the operator
//! catalogue (`rules`), independent of any particular program.

pub mod bounds;
pub mod dim;
pub mod elements;
pub mod requirement;
pub mod rules;
pub mod shape;
pub mod value;

pub use dim::DimExpr;
pub use requirement::{Pred, Requirement};
pub use shape::{Dim, Shape};
pub use value::{DType, Value};
