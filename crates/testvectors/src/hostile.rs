//! The hostile corpus (`test-vectors/hostile/`, committed): small crafted
//! inputs every entry point's hostile-input test throws at it.

use std::path::PathBuf;

/// The corpus directory.
pub fn dir() -> PathBuf {
    crate::workspace_root().join("test-vectors").join("hostile")
}

/// Every corpus file as (name, bytes), sorted by name; the README and the
/// generator script are not inputs. Panics if the directory is missing or
/// nearly empty (it is committed, so that is a broken checkout).
pub fn files() -> Vec<(String, Vec<u8>)> {
    let dir = dir();
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("hostile corpus {}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            p.is_file() && name != "README.md" && name != "make.py"
        })
        .map(|p| {
            let name = p
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default()
                .to_owned();
            let bytes =
                std::fs::read(&p).unwrap_or_else(|e| panic!("hostile corpus {}: {e}", p.display()));
            (name, bytes)
        })
        .collect();
    out.sort();
    assert!(
        out.len() >= 20,
        "hostile corpus {} is incomplete",
        dir.display()
    );
    out
}
