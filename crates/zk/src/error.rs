//! The error type of the zk layer.

use longfellow_ligero::LigeroError;
use longfellow_sumcheck::SumcheckError;

/// Why proving or verifying failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ZkError {
    /// From the sumcheck (bad inputs, unsatisfied circuit, malformed proof).
    #[error("sumcheck: {0}")]
    Sumcheck(#[from] SumcheckError),
    /// From Ligero (parameters, commitment, malformed or rejected proof).
    #[error("ligero: {0}")]
    Ligero(#[from] LigeroError),
    /// The proof is shorter than a root.
    #[error("proof truncated: no commitment root")]
    Truncated,
    /// Bytes follow a complete proof.
    #[error("{0} trailing bytes after the proof")]
    TrailingBytes(usize),
    /// The number of inputs does not match the circuit.
    #[error("expected {expected} {what}, got {found}")]
    Count {
        /// What was counted.
        what: &'static str,
        /// What the circuit requires.
        expected: usize,
        /// What was supplied.
        found: usize,
    },
}
