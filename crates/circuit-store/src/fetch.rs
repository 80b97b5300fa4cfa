//! Downloading catalogued files into the store.

use std::path::{Path, PathBuf};

use longfellow_circuit::catalog::{self, CatalogEntry, CatalogFile, FileForm};
use sha2::{Digest, Sha256};

use crate::{StoreError, URL_ENV};

/// Google's repository, where the circuits are published.
pub const UPSTREAM_REPO: &str = "google/longfellow-zk";

/// Where Google publishes each form. The extensionless `<hash>` files are
/// the C++ library's (`lib/circuits/mdoc/circuits`); the `.lfa1` and
/// `.lfa2` forms sit beside the Rust implementation's artifacts.
pub fn default_base_url(form: FileForm) -> &'static str {
    match form {
        FileForm::Pair => {
            "https://raw.githubusercontent.com/google/longfellow-zk/main/lib/circuits/mdoc/circuits"
        }
        _ => "https://raw.githubusercontent.com/google/longfellow-zk/main/rust/applications/mdoc_zk/artifacts/circuits",
    }
}

/// The base URL for `form`: `explicit`, else `$LONGFELLOW_CIRCUITS_URL`,
/// else [`default_base_url`]. A trailing `/` is dropped.
pub fn base_url(explicit: Option<&str>, form: FileForm) -> String {
    let from_env = std::env::var(URL_ENV).ok().filter(|v| !v.is_empty());
    let url = explicit
        .map(str::to_string)
        .or(from_env)
        .unwrap_or_else(|| default_base_url(form).to_string());
    url.trim_end_matches('/').to_string()
}

/// `lfa2`, `lfa1` or `lfc1` (the extensionless LFC1 pair).
pub fn parse_form(name: &str) -> Option<FileForm> {
    match name {
        "lfa2" => Some(FileForm::Lfa2),
        "lfa1" => Some(FileForm::Lfa1),
        "lfc1" | "pair" => Some(FileForm::Pair),
        _ => None,
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// The file's name as the catalog names it: `<hash>` plus the form's suffix.
pub fn file_name(entry: &CatalogEntry, file: &CatalogFile) -> String {
    format!("{}{}", hex(&entry.zkspec_hash), file.form.suffix())
}

/// The catalogued files of `form` for the chosen circuits: one
/// `(version, attributes)`, or every circuit with published files.
pub fn select(
    which: Option<(u32, u32)>,
    form: FileForm,
) -> Result<Vec<(&'static CatalogEntry, &'static CatalogFile)>, StoreError> {
    let picked: Vec<_> = catalog::entries()
        .iter()
        .filter(|e| which.is_none_or(|(v, n)| e.version == v && e.attributes == n))
        .filter_map(|e| e.files.iter().find(|f| f.form == form).map(|f| (e, f)))
        .collect();
    if picked.is_empty() {
        let what = match which {
            Some((v, n)) => format!("version {v} with {n} attribute(s)"),
            None => "any version".into(),
        };
        let known: Vec<String> = catalog::entries()
            .iter()
            .filter(|e| !e.files.is_empty())
            .map(|e| format!("{}/{}", e.version, e.attributes))
            .collect();
        return Err(StoreError::NoSuchCircuit(format!(
            "the catalog lists no {} file for {what}; published (version/attributes): {}",
            form.name(),
            known.join(", ")
        )));
    }
    Ok(picked)
}

/// What [`fetch_file`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fetched {
    /// Downloaded, checked and written.
    Written(PathBuf),
    /// The store already held the catalogued file; nothing downloaded.
    AlreadyPresent(PathBuf),
}

/// Downloads `<base_url>/<file name>` into `dir` unless the catalogued
/// file is already there. The body is capped at the catalogued size and
/// its SHA-256 compared with the catalog's before anything is written; it
/// is written to a temporary name and renamed, so a crash leaves no
/// half-written circuit behind.
pub fn fetch_file(
    entry: &CatalogEntry,
    file: &CatalogFile,
    base_url: &str,
    dir: &Path,
) -> Result<Fetched, StoreError> {
    let name = file_name(entry, file);
    let target = dir.join(&name);
    if let Ok(existing) = std::fs::read(&target) {
        if crate::verify_bytes(&name, &existing).is_ok() {
            return Ok(Fetched::AlreadyPresent(target));
        }
    }
    let url = format!("{}/{name}", base_url.trim_end_matches('/'));
    let body = crate::http::get(&url, file.size).map_err(|e| match e {
        StoreError::TooLarge { .. } => StoreError::Tampered {
            name: name.clone(),
            got: "(not computed)".into(),
            size: file.size + 1,
            want: hex(&file.sha256),
            want_size: file.size,
            also: format!(", from {url}: longer than the catalogued file; nothing written"),
        },
        other => other,
    })?;
    let got: [u8; 32] = Sha256::digest(&body).into();
    if got != file.sha256 || body.len() as u64 != file.size {
        return Err(StoreError::Tampered {
            name,
            got: hex(&got),
            size: body.len() as u64,
            want: hex(&file.sha256),
            want_size: file.size,
            also: format!(", from {url}; nothing written"),
        });
    }
    std::fs::create_dir_all(dir).map_err(|e| StoreError::io(dir, e))?;
    let partial = dir.join(format!(".{name}.partial-{}", std::process::id()));
    std::fs::write(&partial, &body).map_err(|e| StoreError::io(&partial, e))?;
    std::fs::rename(&partial, &target).map_err(|e| {
        let _ = std::fs::remove_file(&partial);
        StoreError::io(&target, e)
    })?;
    Ok(Fetched::Written(target))
}
