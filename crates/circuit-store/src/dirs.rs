//! Where circuit files are kept and looked for.
//!
//! One order for every command: an explicit directory alone, else
//! `$LONGFELLOW_CIRCUITS`, else the platform cache directory — the place
//! `longfellow circuits fetch` writes to when given neither.

use std::path::{Path, PathBuf};

use crate::StoreError;

/// Environment variable naming the circuit directory.
pub const CIRCUITS_ENV: &str = "LONGFELLOW_CIRCUITS";

/// Environment variable naming the base URL to fetch from (a mirror).
pub const URL_ENV: &str = "LONGFELLOW_CIRCUITS_URL";

fn non_empty_env(name: &str) -> Option<PathBuf> {
    std::env::var_os(name)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

/// `<user cache>/longfellow/circuits`: `$XDG_CACHE_HOME` or `~/.cache` on
/// Unix, `~/Library/Caches` on macOS, `%LOCALAPPDATA%` on Windows. `None`
/// when the environment names no home.
pub fn platform_cache_dir() -> Option<PathBuf> {
    let base = if cfg!(windows) {
        non_empty_env("LOCALAPPDATA")?
    } else if cfg!(target_os = "macos") {
        non_empty_env("HOME")?.join("Library").join("Caches")
    } else {
        match non_empty_env("XDG_CACHE_HOME").filter(|p| p.is_absolute()) {
            Some(p) => p,
            None => non_empty_env("HOME")?.join(".cache"),
        }
    };
    Some(base.join("longfellow").join("circuits"))
}

/// The directory `fetch` writes to: `explicit`, else `$LONGFELLOW_CIRCUITS`,
/// else [`platform_cache_dir`].
pub fn store_dir(explicit: Option<&Path>) -> Result<PathBuf, StoreError> {
    if let Some(dir) = explicit {
        return Ok(dir.to_path_buf());
    }
    non_empty_env(CIRCUITS_ENV)
        .or_else(platform_cache_dir)
        .ok_or_else(|| StoreError::Io {
            path: "(no cache directory)".into(),
            message: format!("neither HOME nor {CIRCUITS_ENV} is set: pass --dir DIR"),
        })
}

/// Directories to look in, and what was set but could not be used.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchDirs {
    /// Most specific first.
    pub dirs: Vec<PathBuf>,
    /// One line each, for stderr: settings that were ignored.
    pub warnings: Vec<String>,
}

/// Where to look for circuit files: `explicit` alone if given, else
/// `$LONGFELLOW_CIRCUITS` (with a warning, and skipped, if it is not a
/// directory) and the platform cache directory.
pub fn search_dirs(explicit: Option<&Path>) -> SearchDirs {
    let mut out = SearchDirs::default();
    if let Some(dir) = explicit {
        out.dirs.push(dir.to_path_buf());
        return out;
    }
    if let Some(dir) = non_empty_env(CIRCUITS_ENV) {
        if dir.is_dir() {
            out.dirs.push(dir);
        } else {
            out.warnings.push(format!(
                "{CIRCUITS_ENV}={} is not a directory; ignored",
                dir.display()
            ));
        }
    }
    if let Some(dir) = platform_cache_dir() {
        out.dirs.push(dir);
    }
    out
}

/// The first existing file for `hash` in `dirs`, preferring the `.lfa2`
/// form (the smallest to unpack), then `<hash>`, then `.lfa1`.
pub fn find_circuit(dirs: &[PathBuf], hash: &str) -> Option<PathBuf> {
    dirs.iter().find_map(|d| {
        [".lfa2", "", ".lfa1"]
            .iter()
            .map(|suffix| d.join(format!("{hash}{suffix}")))
            .find(|p| p.is_file())
    })
}
