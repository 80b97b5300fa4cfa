//! Typed errors of decoding and encoding.

/// Why bytes are not a ZK DeviceResponse this crate accepts.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DecodeError {
    /// A length exceeds its [`crate::Limits`] bound (checked before copying).
    #[error("{what} has {found} bytes, more than the limit of {limit}")]
    TooLarge {
        /// What was measured.
        what: &'static str,
        /// The limit.
        limit: usize,
        /// The declared or measured size.
        found: u64,
    },
    /// A count exceeds its [`crate::Limits`] bound.
    #[error("{what}: {found} entries, more than the limit of {limit}")]
    TooMany {
        /// What was counted.
        what: &'static str,
        /// The limit.
        limit: usize,
        /// The declared count.
        found: u64,
    },
    /// Not well-formed CBOR, or truncated.
    #[error("{what}: malformed CBOR: {detail}")]
    Cbor {
        /// Where.
        what: &'static str,
        /// The CBOR decoder's message.
        detail: String,
    },
    /// A value of another CBOR type than the format allows.
    #[error("{what} must be {expected}")]
    WrongType {
        /// Which field.
        what: &'static str,
        /// The allowed type(s).
        expected: &'static str,
    },
    /// Indefinite-length arrays or maps are not accepted in the structure.
    #[error("{0}: indefinite-length encoding is not accepted")]
    Indefinite(&'static str),
    /// A required field is absent.
    #[error("missing `{0}`")]
    Missing(&'static str),
    /// A map key appears twice.
    #[error("{what}: duplicate key `{key}`")]
    Duplicate {
        /// Which map.
        what: &'static str,
        /// The key.
        key: String,
    },
    /// An array that must hold at least one entry is empty.
    #[error("{0} must not be empty")]
    Empty(&'static str),
    /// `timestamp` is not `YYYY-MM-DDTHH:MM:SSZ`.
    #[error("timestamp `{0}` is not a tdate of the form YYYY-MM-DDTHH:MM:SSZ")]
    Timestamp(String),
    /// `documentData` carries a tag other than 24.
    #[error("documentData carries tag {0}, expected 24 (encoded CBOR)")]
    WrongTag(u64),
    /// Bytes follow a complete item.
    #[error("{what}: {count} bytes after the end")]
    TrailingBytes {
        /// Which item.
        what: &'static str,
        /// How many.
        count: usize,
    },
}

/// Why a response cannot be encoded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EncodeError {
    /// An elementValue is not exactly one well-formed CBOR item.
    #[error("elementValue of `{0}` is not exactly one CBOR item")]
    InvalidValue(String),
    /// A namespace without elements (the format requires at least one).
    #[error("namespace `{0}` has no elements")]
    EmptyNamespace(String),
    /// msoX5chain without certificates.
    #[error("msoX5chain holds no certificate")]
    EmptyChain,
}
