//! Where the reference vectors live, and what a test does without them.
//!
//! The vectors are never copied into this repository: tests, benches and the
//! conformance runner read them in place from `../shared/vectors` (relative to
//! the workspace root). Set `LONGFELLOW_VECTORS` to point somewhere else.
//!
//! A fresh clone has no `../shared`, and `cargo test` must still pass there:
//! a test that needs the vectors starts with [`require!`], which returns
//! early when they are absent and prints one line per test binary saying
//! so. CI sets `LONGFELLOW_REQUIRE_VECTORS=1`, which turns a missing vector
//! into a failure, so a mislaid directory cannot make a green run that
//! checked nothing.
#![forbid(unsafe_code)]

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Once;

pub mod google;
pub mod hostile;
pub mod mirror;

/// Environment variable that overrides the vectors directory.
pub const ENV_VAR: &str = "LONGFELLOW_VECTORS";

/// Environment variable that, set to `1`, makes missing vectors a failure
/// instead of a skip.
pub const REQUIRE_ENV_VAR: &str = "LONGFELLOW_REQUIRE_VECTORS";

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

/// Whether `LONGFELLOW_REQUIRE_VECTORS=1` is set.
pub fn required() -> bool {
    std::env::var_os(REQUIRE_ENV_VAR).is_some_and(|v| v == "1")
}

/// How to get the vectors, for skip lines and panics.
fn how_to_get(dir: &Path) -> String {
    format!(
        "reference vectors not found at {} (put Google's and ISRG's published vectors there \
         or set {ENV_VAR}=DIR; see README.md, \"Reference vectors\")",
        dir.display()
    )
}

static SKIP_LINE: Once = Once::new();

/// Whether the vectors directory exists. When it does not, prints one line
/// for `group` (once per process, that is per test binary) straight to
/// stderr, past the test harness's capture, and returns `false` — or panics
/// if [`required`]. Tests call it through [`require!`].
pub fn available(group: &str) -> bool {
    let dir = vectors_dir();
    if dir.is_dir() {
        return true;
    }
    if required() {
        panic!("{}; {REQUIRE_ENV_VAR}=1 is set", how_to_get(&dir));
    }
    SKIP_LINE.call_once(|| {
        let line = format!(
            "skipped: the tests of {group} that need them: {}\n",
            how_to_get(&dir)
        );
        let _ = std::io::stderr().lock().write_all(line.as_bytes());
    });
    false
}

/// Returns early from the calling test (with `()`, or with the given value)
/// when the reference vectors are absent; see [`available`]. The skip line
/// names the package and test target it was expanded in.
#[macro_export]
macro_rules! require {
    () => {
        $crate::require!(())
    };
    ($ret:expr) => {
        if !$crate::available(concat!(
            env!("CARGO_PKG_NAME"),
            " (",
            env!("CARGO_CRATE_NAME"),
            ")"
        )) {
            return $ret;
        }
    };
}

/// Absolute path of a file under the vectors directory, panicking with a clear
/// message if it does not exist. Tests that reach it have passed
/// [`require!`], so a missing file here is a broken vectors directory.
pub fn path(relative: &str) -> PathBuf {
    let dir = vectors_dir();
    let p = dir.join(relative);
    if !p.exists() {
        panic!(
            "reference vector `{relative}` not found under {}: {}",
            dir.display(),
            how_to_get(&dir)
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
