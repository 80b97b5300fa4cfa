//! The constraint types the Ligero proof consumes.
//!
//! Local copies with the same shape as `longfellow-ligero`'s, until that
//! crate is available to depend on.

/// One entry of the linear-constraint matrix: constraint `c` gets `k·W[w]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinearTerm<F> {
    /// Constraint index.
    pub c: usize,
    /// Witness index.
    pub w: usize,
    /// Coefficient.
    pub k: F,
}

/// `W[x]·W[y] = W[z]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct QuadraticConstraint {
    /// First factor.
    pub x: usize,
    /// Second factor.
    pub y: usize,
    /// Product.
    pub z: usize,
}
