//! Operator rules: norms. (See `rules/mod.rs` for the conventions.)

use super::Rule;

pub const RULES: &[Rule] = &[];
