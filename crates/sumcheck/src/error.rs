//! The error type of this crate.

/// Why proving, constraint generation or proof decoding failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SumcheckError {
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
    /// The circuit's shape is unusable (sizes inconsistent or too large).
    #[error("layer {layer}: {what} = {value} is invalid (bound {bound})")]
    BadCircuit {
        /// Layer index (0 = output layer).
        layer: usize,
        /// Which quantity.
        what: &'static str,
        /// The value found.
        value: u64,
        /// The bound it breaks.
        bound: u64,
    },
    /// An assertion term (`k = 0`) sees a non-zero product: the inputs do
    /// not satisfy the circuit.
    #[error("layer {layer}: assertion on wires ({h0}, {h1}) fails")]
    AssertionFailed {
        /// Layer index.
        layer: usize,
        /// Left wire.
        h0: u32,
        /// Right wire.
        h1: u32,
    },
    /// A circuit output is not zero: the inputs do not satisfy the circuit.
    #[error("circuit output {index} is not zero")]
    NonZeroOutput {
        /// Output index.
        index: usize,
    },
    /// The pad does not have the circuit's shape.
    #[error("pad shape does not match the circuit")]
    PadShape,
    /// The proof does not have the circuit's shape.
    #[error("proof shape does not match the circuit")]
    ProofShape,
    /// The serialized proof ends too early.
    #[error("sumcheck proof truncated in layer {layer}: needs {needed} bytes, {available} left")]
    Truncated {
        /// Layer being read.
        layer: usize,
        /// Bytes the layer needs.
        needed: usize,
        /// Bytes left.
        available: usize,
    },
    /// A serialized element is not canonical.
    #[error("sumcheck proof layer {layer}: element {index} is not a canonical field element")]
    NonCanonical {
        /// Layer being read.
        layer: usize,
        /// Element index within the layer.
        index: usize,
    },
    /// The prover's own consistency check failed (a bug, not bad input).
    #[error("internal consistency check failed in layer {layer}")]
    Inconsistent {
        /// Layer index.
        layer: usize,
    },
}
