//! Everything that can go wrong, with enough detail to tell a malformed
//! proof from a failed check from a caller bug.

use longfellow_merkle::MerkleError;
use longfellow_reed_solomon::RsError;

/// Errors of the Ligero prover, verifier and proof decoder.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LigeroError {
    /// The parameters describe no valid tableau.
    #[error("invalid Ligero parameters: {0}")]
    InvalidParams(&'static str),
    /// The Reed–Solomon encoder refused the row shape.
    #[error("Reed–Solomon encoder: {0}")]
    ReedSolomon(#[from] RsError),
    /// The witness does not have `nw` entries.
    #[error("witness has {found} entries, parameters expect {expected}")]
    WitnessLength {
        /// `nw`.
        expected: usize,
        /// Length given.
        found: usize,
    },
    /// `subfield_boundary` exceeds the witness length.
    #[error("subfield boundary {boundary} exceeds witness length {nw}")]
    SubfieldBoundary {
        /// Boundary given.
        boundary: usize,
        /// `nw`.
        nw: usize,
    },
    /// A witness below the subfield boundary is not in the subfield.
    #[error("witness {index} is below the subfield boundary but not in the subfield")]
    NotInSubfield {
        /// Witness index.
        index: usize,
    },
    /// The number of quadratic constraints differs from `nq`.
    #[error("{found} quadratic constraints given, parameters expect {expected}")]
    QuadraticCount {
        /// `nq`.
        expected: usize,
        /// Number given.
        found: usize,
    },
    /// A quadratic constraint names a witness index ≥ `nw`.
    #[error("quadratic constraint {index} refers to a witness out of range")]
    QuadraticOutOfRange {
        /// Constraint index.
        index: usize,
    },
    /// The prover's witness violates `W[x]·W[y] = W[z]`.
    #[error("witness violates quadratic constraint {index}")]
    QuadraticUnsatisfied {
        /// Constraint index.
        index: usize,
    },
    /// The constraints given to `prove` differ from those given to `commit`.
    #[error("quadratic constraints differ between commit and prove")]
    QuadraticMismatch,
    /// A linear term names a witness ≥ `nw` or a constraint ≥ `b.len()`.
    #[error("linear term {index} is out of range (constraint {c}, witness {w})")]
    LinearOutOfRange {
        /// Term index.
        index: usize,
        /// Its constraint index.
        c: usize,
        /// Its witness index.
        w: usize,
    },
    /// The proof bytes are not a well-formed proof for these parameters.
    #[error("malformed Ligero proof: {what}")]
    Malformed {
        /// What was wrong.
        what: &'static str,
    },
    /// The proof bytes ended early.
    #[error("truncated Ligero proof while reading {what}")]
    Truncated {
        /// What was being read.
        what: &'static str,
    },
    /// Bytes remained after a complete proof.
    #[error("{0} trailing bytes after the Ligero proof")]
    TrailingBytes(usize),
    /// The opened columns do not hash to the committed root.
    #[error("Merkle opening rejected: {0}")]
    Merkle(#[from] MerkleError),
    /// The low-degree test failed at an opened column.
    #[error("low-degree check failed")]
    LowDegreeCheck,
    /// The linear (dot-product) test failed at an opened column.
    #[error("dot-product check failed")]
    DotCheck,
    /// The claimed inner product differs from `Σ α_c · b_c`.
    #[error("linear constraints not satisfied (wrong inner product)")]
    LinearCheck,
    /// The quadratic test failed at an opened column.
    #[error("quadratic check failed")]
    QuadraticCheck,
}
