//! Why a check could not complete (reported as a failure with this text).

use std::path::PathBuf;

/// An error inside a check. The runner turns it into a `fail` result whose
/// reason is this message.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CheckError {
    /// A file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A vector file does not have the documented layout.
    #[error("malformed vector {what}: {why}")]
    Malformed {
        /// Which file or field.
        what: String,
        /// What is wrong.
        why: String,
    },
    /// A component under test returned an error.
    #[error("{0}")]
    Component(String),
}

impl CheckError {
    /// A malformed-vector error.
    pub fn malformed(what: impl Into<String>, why: impl Into<String>) -> Self {
        Self::Malformed {
            what: what.into(),
            why: why.into(),
        }
    }

    /// Wraps any displayable component error.
    pub fn component(e: impl std::fmt::Display) -> Self {
        Self::Component(e.to_string())
    }
}

/// Reads a whole file.
pub fn read(path: &std::path::Path) -> Result<Vec<u8>, CheckError> {
    std::fs::read(path).map_err(|source| CheckError::Io {
        path: path.to_path_buf(),
        source,
    })
}
