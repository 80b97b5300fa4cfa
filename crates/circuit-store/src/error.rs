//! Why a fetch or a verification was refused.

/// Every failure of this crate, each worded for the person at the terminal.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// The base URL or a redirect is not an `http://` or `https://` URL.
    #[error("`{url}` is not an http:// or https:// URL: {reason}")]
    Url {
        /// The URL.
        url: String,
        /// What is wrong with it.
        reason: String,
    },
    /// `https://` asked of a build without the `https` feature.
    #[error("`{url}`: this build has no HTTPS support (feature `https`); use an http:// mirror")]
    HttpsUnsupported {
        /// The URL.
        url: String,
    },
    /// The host could not be reached: no network, DNS failure, refused.
    #[error(
        "cannot reach {host}: {message}. Offline? Copy the circuit files from a machine that \
         has them (`longfellow circuits fetch --dir DIR` there) into the circuit directory and \
         check them with `longfellow circuits verify DIR`, or pass --base-url URL for a mirror"
    )]
    Unreachable {
        /// host:port.
        host: String,
        /// The I/O error.
        message: String,
    },
    /// The server answered with a status other than 200.
    #[error("{url}: HTTP status {status}")]
    Status {
        /// The URL.
        url: String,
        /// The status code.
        status: u16,
    },
    /// The response is not well-formed HTTP/1.x, or the connection broke.
    #[error("{url}: {message}")]
    Protocol {
        /// The URL.
        url: String,
        /// What went wrong.
        message: String,
    },
    /// The body is longer than the catalogued file.
    #[error("{url}: response longer than the catalogued {limit} bytes: refused")]
    TooLarge {
        /// The URL.
        url: String,
        /// The cap.
        limit: u64,
    },
    /// The bytes are not the catalogued file (tampered, truncated, or
    /// another file under this name).
    #[error(
        "{name}: SHA-256 {got} ({size} bytes) is not the catalogued {want} ({want_size} bytes): \
         refused{also}"
    )]
    Tampered {
        /// The file name.
        name: String,
        /// SHA-256 of what was received or found.
        got: String,
        /// Its size.
        size: u64,
        /// The catalog's SHA-256.
        want: String,
        /// The catalog's size.
        want_size: u64,
        /// Anything more that is known, e.g. ", nothing written".
        also: String,
    },
    /// A file whose name the catalog does not list.
    #[error("{name}: not a catalogued circuit file (expected `<hash>`, `<hash>.lfa1` or `<hash>.lfa2` of a ZkSpec with published files): refused")]
    Unknown {
        /// The file name.
        name: String,
    },
    /// No catalogued circuit matches the selection.
    #[error("{0}")]
    NoSuchCircuit(String),
    /// Reading or writing the store failed.
    #[error("{path}: {message}")]
    Io {
        /// The path.
        path: String,
        /// The I/O error.
        message: String,
    },
}

impl StoreError {
    pub(crate) fn io(path: &std::path::Path, e: std::io::Error) -> Self {
        Self::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        }
    }
}
