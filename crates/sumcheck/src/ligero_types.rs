//! The constraint types the Ligero proof consumes, re-exported so callers
//! of this crate need not name `longfellow-ligero` to read constraints.

pub use longfellow_ligero::{LinearTerm, QuadraticConstraint};
