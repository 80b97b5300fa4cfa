//! Checking files against the catalog by name, SHA-256 and size.

use std::path::Path;

use longfellow_circuit::catalog::{self, CatalogEntry, CatalogFile, FileForm};
use sha2::{Digest, Sha256};

use crate::StoreError;

/// A file the catalog vouches for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verified {
    /// Its circuit pair.
    pub entry: &'static CatalogEntry,
    /// Its catalogued form, SHA-256 and size.
    pub file: &'static CatalogFile,
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// `(hash, form)` of a `<hash>`, `<hash>.lfa1` or `<hash>.lfa2` name.
fn parse_name(name: &str) -> Option<([u8; 32], FileForm)> {
    let (stem, form) = if let Some(s) = name.strip_suffix(".lfa1") {
        (s, FileForm::Lfa1)
    } else if let Some(s) = name.strip_suffix(".lfa2") {
        (s, FileForm::Lfa2)
    } else {
        (name, FileForm::Pair)
    };
    if stem.len() != 64 {
        return None;
    }
    let mut hash = [0u8; 32];
    for (i, out) in hash.iter_mut().enumerate() {
        *out = u8::from_str_radix(stem.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some((hash, form))
}

/// Checks `bytes` against the catalog entry its `name` claims.
pub fn verify_bytes(name: &str, bytes: &[u8]) -> Result<Verified, StoreError> {
    let unknown = || StoreError::Unknown { name: name.into() };
    let (hash, form) = parse_name(name).ok_or_else(unknown)?;
    let entry = catalog::find_spec(&hash).ok_or_else(unknown)?;
    let file = entry
        .files
        .iter()
        .find(|f| f.form == form)
        .ok_or_else(unknown)?;
    let got: [u8; 32] = Sha256::digest(bytes).into();
    if got != file.sha256 || bytes.len() as u64 != file.size {
        let also = match catalog::find_file(&got) {
            Some((e, f)) => format!(
                "; its contents are the catalogued {}{} (version {}, {} attribute(s))",
                hex(&e.zkspec_hash),
                f.form.suffix(),
                e.version,
                e.attributes
            ),
            None => String::new(),
        };
        return Err(StoreError::Tampered {
            name: name.into(),
            got: hex(&got),
            size: bytes.len() as u64,
            want: hex(&file.sha256),
            want_size: file.size,
            also,
        });
    }
    Ok(Verified { entry, file })
}

/// Reads and checks one file (see [`verify_bytes`]). Refuses a file larger
/// than any catalogued one without reading it whole.
pub fn verify_file(path: &Path) -> Result<Verified, StoreError> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let max = catalog::entries()
        .iter()
        .flat_map(|e| e.files.iter())
        .map(|f| f.size)
        .max()
        .unwrap_or(0);
    let meta = std::fs::metadata(path).map_err(|e| StoreError::io(path, e))?;
    if meta.len() > max {
        // Not read: say whether the name is known, with the real size.
        return Err(match verify_bytes(&name, &[]) {
            Err(StoreError::Tampered {
                name,
                want,
                want_size,
                ..
            }) => StoreError::Tampered {
                name,
                got: "(not computed)".into(),
                size: meta.len(),
                want,
                want_size,
                also: ", larger than any catalogued file (not read)".into(),
            },
            Err(e) => e,
            Ok(_) => StoreError::Unknown { name },
        });
    }
    let bytes = std::fs::read(path).map_err(|e| StoreError::io(path, e))?;
    verify_bytes(&name, &bytes)
}

/// One file's name and what checking it found.
pub type FileCheck = (String, Result<Verified, StoreError>);

/// Checks every file of `dir` (hidden files excepted), in name order.
pub fn verify_dir(dir: &Path) -> Result<Vec<FileCheck>, StoreError> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| StoreError::io(dir, e))?
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.'))
        .collect();
    names.sort();
    Ok(names
        .into_iter()
        .map(|n| {
            let r = verify_file(&dir.join(&n));
            (n, r)
        })
        .collect())
}
