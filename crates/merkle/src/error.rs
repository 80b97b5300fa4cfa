//! Why an opening was rejected.

use thiserror::Error;

/// A Merkle opening or commitment that does not check out.
///
/// Every variant is a property of the (untrusted) request or proof; none is
/// an internal failure.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum MerkleError {
    /// A tree needs at least one leaf.
    #[error("a Merkle tree needs at least one leaf")]
    EmptyTree,
    /// An opening must reveal at least one leaf.
    #[error("no leaves requested")]
    NoIndices,
    /// Requested leaves and supplied leaf digests (or nonces) differ in
    /// number.
    #[error("{indices} leaf indices but {values} leaf values")]
    LengthMismatch {
        /// Number of indices.
        indices: usize,
        /// Number of leaf digests or nonces.
        values: usize,
    },
    /// A leaf index is not below the number of leaves.
    #[error("leaf index {index} out of range for {n_leaves} leaves")]
    IndexOutOfRange {
        /// The offending index.
        index: usize,
        /// Number of leaves in the tree.
        n_leaves: usize,
    },
    /// A leaf was requested twice.
    #[error("leaf index {index} requested twice")]
    DuplicateIndex {
        /// The repeated index.
        index: usize,
    },
    /// The proof has a different number of digests than the requested leaves
    /// need.
    #[error("proof has {found} digests, the opening needs {expected}")]
    ProofLength {
        /// Digests the opening needs.
        expected: usize,
        /// Digests supplied.
        found: usize,
    },
    /// A digest count outside `[nreq, nreq·path_len]`, the range the
    /// reference proof reader accepts before allocating.
    #[error("{count} digests for {nreq} openings (allowed {min}..={max})")]
    DigestCount {
        /// Digests announced.
        count: usize,
        /// Number of opened leaves.
        nreq: usize,
        /// Smallest accepted count.
        min: usize,
        /// Largest accepted count.
        max: usize,
    },
    /// The recomputed root differs from the committed one.
    #[error("recomputed Merkle root does not match the commitment")]
    RootMismatch,
}
