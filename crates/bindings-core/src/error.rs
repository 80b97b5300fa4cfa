//! One error type for every binding, with a code foreign callers can branch
//! on and a message for people.

use longfellow_mdoc::VerifyError;
use longfellow_mdoc_prover::ProveError;

/// Stable classification of a [`BindingError`]: the bindings expose it as a
/// string (`"InvalidArgument"`, ...) or as an exception subclass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    /// An argument is malformed (hex key, time, sizes, attribute count).
    InvalidArgument,
    /// The circuit bytes cannot be loaded, or are not a known ZkSpec pair.
    Circuit,
    /// The credential cannot be proven with this circuit (malformed
    /// DeviceResponse, attribute not present, values that do not match,
    /// layouts the circuit cannot handle). Nothing was proven.
    ProverRefused,
    /// The proof bytes are not a proof for this circuit pair.
    MalformedProof,
    /// The proof was decoded but does not prove this statement.
    ProofRejected,
    /// A failure that is not the input's fault (reported, never hidden).
    Internal,
}

impl ErrorCode {
    /// The code as the bindings spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::InvalidArgument => "InvalidArgument",
            Self::Circuit => "Circuit",
            Self::ProverRefused => "ProverRefused",
            Self::MalformedProof => "MalformedProof",
            Self::ProofRejected => "ProofRejected",
            Self::Internal => "Internal",
        }
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a binding call failed: a code and the full message of the layer
/// that refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{code}: {message}")]
pub struct BindingError {
    /// What kind of failure.
    pub code: ErrorCode,
    /// The reason, for people.
    pub message: String,
}

impl BindingError {
    /// An error of `code` with `message`.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
        }
    }

    pub(crate) fn invalid(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::InvalidArgument, message)
    }
}

impl From<VerifyError> for BindingError {
    fn from(e: VerifyError) -> Self {
        let code = match &e {
            VerifyError::UnknownZkSpec(_) | VerifyError::WrongCircuit { .. } => ErrorCode::Circuit,
            // Both are the caller's statement (a key that is no P-256
            // point, a time that is no calendar time, a bad request shape),
            // never the library's fault.
            VerifyError::Request(_) | VerifyError::InvalidRequest(_) => ErrorCode::InvalidArgument,
            VerifyError::Malformed(_) | VerifyError::ProofForOtherCircuit { .. } => {
                ErrorCode::MalformedProof
            }
            VerifyError::Rejected { .. } => ErrorCode::ProofRejected,
            _ => ErrorCode::Internal,
        };
        Self::new(code, e.to_string())
    }
}

impl From<ProveError> for BindingError {
    fn from(e: ProveError) -> Self {
        let code = match &e {
            ProveError::Circuit(_) => ErrorCode::Circuit,
            // What the caller states is an argument error; what the
            // credential holds is a refusal.
            ProveError::Refused(e) if e.is_in_the_request() => ErrorCode::InvalidArgument,
            ProveError::Refused(_) => ErrorCode::ProverRefused,
            _ => ErrorCode::Internal,
        };
        Self::new(code, e.to_string())
    }
}

impl From<longfellow_circuit::CircuitError> for BindingError {
    fn from(e: longfellow_circuit::CircuitError) -> Self {
        Self::new(ErrorCode::Circuit, e.to_string())
    }
}
