//! Errors of the session structures.

/// Why a session structure could not be read, built or opened.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum DcApiError {
    /// The bytes are not the expected CBOR.
    #[error("{what}: malformed CBOR: {detail}")]
    Cbor {
        /// Which structure.
        what: &'static str,
        /// The decoder's message.
        detail: String,
    },
    /// Well-formed CBOR of the wrong shape.
    #[error("{what}: {detail}")]
    Shape {
        /// Which structure.
        what: &'static str,
        /// What is wrong.
        detail: String,
    },
    /// A count or length beyond the limit of this crate.
    #[error("{what}: {found} exceeds the limit of {limit}")]
    TooLarge {
        /// Which field.
        what: &'static str,
        /// The limit.
        limit: usize,
        /// What was found.
        found: u64,
    },
    /// Bytes after the single data item.
    #[error("{what}: {count} trailing bytes")]
    TrailingBytes {
        /// Which structure.
        what: &'static str,
        /// How many.
        count: usize,
    },
    /// The recipient key is not a P-256 point.
    #[error("recipient public key is not a valid P-256 point")]
    BadPublicKey,
    /// The encapsulated key (`enc`) is not a P-256 point.
    #[error("`enc` is not a valid uncompressed P-256 point")]
    BadEncappedKey,
    /// HPKE authentication failed: wrong key, wrong SessionTranscript
    /// (`info`), or altered `enc` / `cipherText`.
    #[error(
        "HPKE decryption failed (ciphertext altered, wrong key, or a different SessionTranscript)"
    )]
    Decrypt,
    /// HPKE sealing failed.
    #[error("HPKE encryption failed")]
    Encrypt,
}
