//! Errors of issuing a test mdoc.

use thiserror::Error;

/// Why an mdoc could not be issued, or a request could not be derived.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum IssuerError {
    /// A date is not `YYYY-MM-DDTHH:MM:SSZ` (or `YYYY-MM-DD` for a
    /// full-date), or lies outside years 0000–9999.
    #[error("invalid date `{0}`")]
    InvalidDate(String),
    /// A date computation left the four-digit-year range.
    #[error("date arithmetic leaves years 0000-9999")]
    DateOutOfRange,
    /// An attribute value is not exactly one well-formed CBOR item.
    #[error("attribute `{0}`: value is not exactly one well-formed CBOR item")]
    InvalidValue(String),
    /// An attribute would be valid ISO 18013-5 but could not be disclosed by
    /// the version 6 or 7 circuits.
    #[error("attribute `{id}` cannot be proven: {reason}")]
    AttributeNotProvable { id: String, reason: &'static str },
    /// A namespace is longer than the circuits' 64 bytes, or empty.
    #[error("namespace `{0}` is empty or longer than 64 bytes")]
    InvalidNamespace(String),
    /// The builder holds no attribute.
    #[error("an mdoc needs at least one attribute")]
    NoAttributes,
    /// `valid`/`valid_around` was never called.
    #[error("no validity period set")]
    MissingValidity,
    /// validFrom lies after validUntil.
    #[error("validFrom {from} lies after validUntil {until}")]
    EmptyValidity { from: String, until: String },
    /// The SessionTranscript is not exactly one well-formed CBOR item (it is
    /// embedded verbatim in DeviceAuthentication).
    #[error("SessionTranscript is not exactly one well-formed CBOR item")]
    InvalidSessionTranscript,
    /// The MSO does not fit the circuits: the version 6 circuit hashes at
    /// most 35 SHA-256 blocks of its Sig_structure, and the parsers want a
    /// two-byte length (256 bytes or more).
    #[error("MSO of {len} bytes is outside the {min}..={max} bytes the circuits accept")]
    MsoSize { len: usize, min: usize, max: usize },
    /// [`crate::MdocBuilder::item_order`] names a field twice (and so
    /// omits another).
    #[error("an IssuerSignedItem order must name each of its four fields once")]
    InvalidItemOrder,
    /// More attributes than distinct random digest IDs could be drawn for.
    #[error("too many attributes ({0}) for unique digest IDs")]
    TooManyAttributes(usize),
    /// 32 bytes that are not a valid P-256 secret scalar.
    #[error("not a valid P-256 secret key")]
    InvalidKey,
    /// A requested attribute is not in the mdoc.
    #[error("attribute `{0}` is not in the mdoc")]
    UnknownAttribute(String),
    /// Requested attributes span several namespaces (the circuits take one).
    #[error("requested attributes span several namespaces")]
    MixedNamespaces,
    /// `now` lies outside the mdoc's validity period.
    #[error("{now} lies outside the validity period {from}..{until}")]
    NotValidAt {
        now: String,
        from: String,
        until: String,
    },
    /// The library's request reader refused the request this crate wrote
    /// (a value the prover and verifier would refuse as well).
    #[error("request refused by the library's reader: {0}")]
    Request(String),
    /// Encoding failed (writing to memory cannot; kept so no path panics).
    #[error("encoding failed: {0}")]
    Encode(String),
}

impl<E: core::fmt::Display> From<minicbor::encode::Error<E>> for IssuerError {
    fn from(e: minicbor::encode::Error<E>) -> Self {
        IssuerError::Encode(e.to_string())
    }
}
