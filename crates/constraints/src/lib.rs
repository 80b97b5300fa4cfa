//! The statement Ligero proves about a committed witness `W`: linear
//! constraints `A·W = b` and quadratic constraints `W[x]·W[y] = W[z]`.
//!
//! The sumcheck verifier produces these constraints (from a padded
//! sumcheck transcript) and Ligero consumes them; the types live here, below
//! both, so that neither of the two protocol crates depends on the other.
//! Plain data only: indices are checked by whoever receives them (Ligero
//! checks them against its parameters before use).
#![no_std]
#![forbid(unsafe_code)]

extern crate alloc;

use alloc::vec::Vec;

/// One non-zero entry of the constraint matrix: constraint `c` gets `k·W[w]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinearTerm<F> {
    /// Constraint (row of `A`) index, `< b.len()`.
    pub c: usize,
    /// Witness (column of `A`) index, `< nw`.
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

/// Linear constraints `A·W = b` on the committed witness, `A` as a list of
/// entries in the reference's order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Constraints<F> {
    /// Entries of `A`.
    pub linear: Vec<LinearTerm<F>>,
    /// Right-hand sides, one per constraint (layers, then the input binding).
    pub b: Vec<F>,
}
