//! The check families; each module discovers its checks from the files
//! present and skips (with the missing path) what is absent.

mod cases;
mod circuits;
mod isrg;
#[cfg(test)]
mod issued;
mod ligero;
mod mdoc;
mod merkle;
mod peer;
mod refusal;
mod spec;
mod transcript;
mod witness;

use std::path::PathBuf;

use crate::registry::{Check, Family};
use crate::Options;

/// The checks of one family.
pub(crate) fn discover(family: Family, opts: &Options) -> Vec<Check<'static>> {
    match family {
        Family::Transcript => transcript::discover(opts),
        Family::Merkle => merkle::discover_tree(opts),
        Family::Commitment => merkle::discover_commitment(opts),
        Family::Ligero => ligero::discover(opts),
        Family::Spec => spec::discover(opts),
        Family::IsrgOneCircuit => isrg::discover_one_circuit(opts),
        Family::IsrgBind => isrg::discover_bind(opts),
        Family::Circuits => circuits::discover(opts),
        Family::Witnesses => witness::discover(opts),
        Family::MdocProofs => mdoc::discover(opts),
        Family::Cases => cases::discover(opts),
        Family::PeerProver => peer::discover_prover(opts),
        Family::PeerVerifier => peer::discover_verifier(opts),
    }
}

/// A required file: its path, or a skipped check naming it.
pub(crate) fn require(
    opts: &Options,
    family: Family,
    name: &str,
    relative: &str,
) -> Result<PathBuf, Check<'static>> {
    let p = opts.path(relative);
    if p.is_file() {
        Ok(p)
    } else {
        Err(Check::skip(
            family,
            name,
            format!("missing {relative} under {}", opts.vectors.display()),
        ))
    }
}

/// Files in a folder (sorted), or a skipped check naming the folder.
pub(crate) fn list_dir(
    opts: &Options,
    family: Family,
    relative: &str,
) -> Result<Vec<PathBuf>, Check<'static>> {
    let dir = opts.path(relative);
    let skip = |why: String| Check::skip(family, relative, why);
    let entries = std::fs::read_dir(&dir).map_err(|e| {
        skip(format!(
            "missing folder {relative} under {}: {e}",
            opts.vectors.display()
        ))
    })?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(skip(format!("folder {relative} is empty")));
    }
    Ok(files)
}

/// File name as a string.
pub(crate) fn file_name(p: &std::path::Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}
