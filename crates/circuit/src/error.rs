//! The one error type of this crate.
//!
//! Every decoder reports what went wrong and where, so a wallet can tell a
//! truncated download from a file for another field or a corrupted term.

/// Why a circuit file was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CircuitError {
    /// The input ended before a complete structure was read.
    #[error("truncated input: {what} needs more bytes at offset {offset}")]
    Truncated {
        /// Offset (in the decoded stream) where more bytes were needed.
        offset: u64,
        /// What was being read.
        what: &'static str,
    },
    /// One circuit where a signature + hash pair was expected.
    #[error(
        "this is a single {format} circuit, not a circuit pair: an mdoc proof needs the \
         signature and hash circuits together (a `<hash>`, `.lfa1` or `.lfa2` file; \
         `longfellow circuits fetch` gets them)"
    )]
    SingleCircuit {
        /// The single circuit's format.
        format: &'static str,
    },
    /// The input starts with bytes that are not any supported format.
    #[error("unrecognised format (first bytes {first:02x?})")]
    BadMagic {
        /// Up to the first four bytes of the input.
        first: Vec<u8>,
    },
    /// A format or archive version this crate does not read.
    #[error("unsupported {what} version {version}")]
    UnsupportedVersion {
        /// Which version field.
        what: &'static str,
        /// The version found.
        version: u64,
    },
    /// The circuit is over a different field than requested.
    #[error("circuit is over field ID {found}, expected field ID {expected}")]
    FieldMismatch {
        /// Field ID of the requested field type.
        expected: u32,
        /// Field ID stored in the file.
        found: u64,
    },
    /// A count or size is above the decoder's hard limit.
    #[error("{what} = {value} exceeds the limit {limit}")]
    TooLarge {
        /// Which quantity.
        what: &'static str,
        /// The value found.
        value: u64,
        /// The limit.
        limit: u64,
    },
    /// A header or layer field has a value the format does not allow.
    #[error("invalid {what}: {value} ({why})")]
    Invalid {
        /// Which field.
        what: &'static str,
        /// The value found.
        value: u64,
        /// Which rule it breaks.
        why: &'static str,
    },
    /// A term refers to a wire that does not exist.
    #[error(
        "layer {layer}, term {term}: wire {wire} = {index} is out of range (must be < {bound})"
    )]
    WireOutOfRange {
        /// Layer index (0 = output layer).
        layer: usize,
        /// Term index within the layer.
        term: u64,
        /// `g`, `h0` or `h1`.
        wire: &'static str,
        /// The (wrapped) absolute index.
        index: u64,
        /// Number of wires on that side.
        bound: u64,
    },
    /// An index into a table (constants, delta table, segments) is out of range.
    #[error("layer {layer}: {what} index {index} is out of range (table has {len} entries)")]
    IndexOutOfRange {
        /// Layer index (0 = output layer).
        layer: usize,
        /// Which table.
        what: &'static str,
        /// The index found.
        index: u64,
        /// Size of the table.
        len: u64,
    },
    /// A field element is not in canonical form (an integer ≥ p).
    #[error("constant {index} is not a canonical field element")]
    NonCanonicalElement {
        /// Position in the constant table.
        index: usize,
    },
    /// A ULEB128 number is longer than allowed or not minimally encoded.
    #[error("malformed ULEB128 number at offset {offset}: {why}")]
    BadVarint {
        /// Offset of the number's first byte.
        offset: u64,
        /// What is wrong with it.
        why: &'static str,
    },
    /// Bytes follow the end of a complete structure.
    #[error("{count} trailing byte(s) after the {what}")]
    TrailingBytes {
        /// What was complete.
        what: &'static str,
        /// How many bytes followed (a lower bound for streams).
        count: u64,
    },
    /// The circuit ID stored in the file is not the ID of the circuit.
    #[error("circuit ID mismatch: file says {stored}, circuit hashes to {computed}")]
    IdMismatch {
        /// Hex of the ID stored in the file (or archive entry).
        stored: String,
        /// Hex of the recomputed ID.
        computed: String,
    },
    /// A zstd frame could not be decoded.
    #[error("zstd: {0}")]
    Zstd(String),
    /// The unpacked size is not the one the catalog (or the frame) says.
    #[error("unpacked size {found} differs from the expected {expected}")]
    UnpackedSizeMismatch {
        /// Size the catalog or frame header requires.
        expected: u64,
        /// Size declared or produced.
        found: u64,
    },
    /// A string in an archive header is not UTF-8.
    #[error("{what} is not valid UTF-8")]
    NotUtf8 {
        /// Which string.
        what: &'static str,
    },
    /// An archive does not hold the entries a circuit pair needs.
    #[error("archive entries: {0}")]
    BadEntries(&'static str),
}

/// Lower-case hex of a byte string (for error messages and reports).
pub(crate) fn hex(bytes: &[u8]) -> String {
    use core::fmt::Write;
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}
