//! Where the reference vectors live.
//!
//! The vectors are never copied into this repository: tests, benches and the
//! conformance runner read them in place from `../shared/vectors` (relative to
//! the workspace root). Set `LONGFELLOW_VECTORS` to point somewhere else.
#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};

/// Environment variable that overrides the vectors directory.
pub const ENV_VAR: &str = "LONGFELLOW_VECTORS";

/// The workspace root, derived from this crate's manifest directory.
pub fn workspace_root() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    // crates/testvectors -> workspace root
    here.ancestors()
        .nth(2)
        .map(Path::to_path_buf)
        .unwrap_or_else(|| here.to_path_buf())
}

/// The vectors directory: `$LONGFELLOW_VECTORS`, else `<workspace>/../shared/vectors`.
pub fn vectors_dir() -> PathBuf {
    match std::env::var_os(ENV_VAR) {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => workspace_root().join("..").join("shared").join("vectors"),
    }
}

/// Absolute path of a file under the vectors directory, panicking with a clear
/// message if it does not exist. Intended for tests and benches.
pub fn path(relative: &str) -> PathBuf {
    let dir = vectors_dir();
    let p = dir.join(relative);
    if !p.exists() {
        panic!(
            "reference vector `{relative}` not found under {}.\n\
             The tests read Google's and ISRG's published vectors in place from \
             ../shared/vectors (beside the repository). Put them there or set \
             {ENV_VAR}=/path/to/vectors.",
            dir.display()
        );
    }
    p
}

/// Reads a file under the vectors directory (see [`path`]).
pub fn read(relative: &str) -> Vec<u8> {
    let p = path(relative);
    std::fs::read(&p).unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()))
}

/// Reads a UTF-8 file under the vectors directory (see [`path`]).
pub fn read_to_string(relative: &str) -> String {
    let p = path(relative);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()))
}
