//! Circuits, loaded once at start and shared by every request.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use longfellow_circuit::{load_pair, CircuitPair};
use longfellow_mdoc::{Verifier, ZkSpec};

/// Why the circuit directory could not be loaded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// The directory cannot be listed.
    #[error("circuit directory {path}: {source}")]
    Dir {
        /// The directory.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// No usable circuit was found.
    #[error("no circuit in {0} (files must be named <circuit hash>[.lfa1|.lfa2])")]
    Empty(PathBuf),
}

/// The loaded circuit pairs by circuit hash, each prepared for verifying.
///
/// Pairs are leaked on purpose: they live for the whole process, and every
/// request borrows them without reference counting.
#[derive(Debug, Default)]
pub struct Circuits {
    verifiers: HashMap<[u8; 32], Verifier<'static>>,
}

impl Circuits {
    /// Adds a loaded pair; returns its ZkSpec.
    pub fn insert(&mut self, pair: CircuitPair) -> Result<ZkSpec, longfellow_mdoc::VerifyError> {
        let pair: &'static CircuitPair = Box::leak(Box::new(pair));
        let verifier = Verifier::new(pair)?;
        let spec = *verifier.spec();
        self.verifiers.insert(spec.circuit_hash, verifier);
        Ok(spec)
    }

    /// The verifier of a circuit hash, if loaded.
    pub fn get(&self, circuit_hash: &[u8; 32]) -> Option<&Verifier<'static>> {
        self.verifiers.get(circuit_hash)
    }

    /// The loaded ZkSpecs.
    pub fn specs(&self) -> Vec<ZkSpec> {
        let mut v: Vec<ZkSpec> = self.verifiers.values().map(|v| *v.spec()).collect();
        v.sort_by_key(|s| (std::cmp::Reverse(s.info.version), s.info.num_attributes));
        v
    }

    /// Number of loaded pairs.
    pub fn len(&self) -> usize {
        self.verifiers.len()
    }

    /// Whether none is loaded.
    pub fn is_empty(&self) -> bool {
        self.verifiers.is_empty()
    }
}

/// The hash a published file name stands for, and a preference (LFA2 loads
/// fastest, then LFA1, then the bare zstd LFC1 pair).
fn name_hash(name: &str) -> Option<(String, u8)> {
    let (stem, rank) = if let Some(s) = name.strip_suffix(".lfa2") {
        (s, 0)
    } else if let Some(s) = name.strip_suffix(".lfa1") {
        (s, 1)
    } else {
        (name, 2)
    };
    (stem.len() == 64 && stem.bytes().all(|c| c.is_ascii_hexdigit()))
        .then(|| (stem.to_ascii_lowercase(), rank))
}

/// Loads every `<hash>`, `<hash>.lfa1` or `<hash>.lfa2` file of `dir` (one
/// form per hash). As in Google's service, a file whose circuit hash is not
/// its name is skipped; skipped files are reported through `log`.
pub fn load_circuit_dir(dir: &Path, log: &mut dyn FnMut(String)) -> Result<Circuits, LoadError> {
    let entries = std::fs::read_dir(dir).map_err(|source| LoadError::Dir {
        path: dir.to_owned(),
        source,
    })?;
    let mut chosen: HashMap<String, (u8, PathBuf)> = HashMap::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some((hash, rank)) = name_hash(&name) else {
            continue;
        };
        let better = chosen.get(&hash).is_none_or(|(r, _)| rank < *r);
        if better {
            chosen.insert(hash, (rank, entry.path()));
        }
    }
    let mut circuits = Circuits::default();
    let mut names: Vec<_> = chosen.into_iter().collect();
    names.sort();
    for (hash, (_, path)) in names {
        let loaded = std::fs::read(&path)
            .map_err(|e| e.to_string())
            .and_then(|b| load_pair(&b).map_err(|e| e.to_string()));
        match loaded {
            Ok(pair) => {
                let got: String = pair
                    .zkspec_hash
                    .iter()
                    .map(|b| format!("{b:02x}"))
                    .collect();
                if got != hash {
                    log(format!(
                        "skipping {}: its circuit hash is {got}",
                        path.display()
                    ));
                    continue;
                }
                if let Err(e) = circuits.insert(pair) {
                    log(format!("skipping {}: {e}", path.display()));
                }
            }
            Err(e) => log(format!("skipping {}: {e}", path.display())),
        }
    }
    if circuits.is_empty() {
        return Err(LoadError::Empty(dir.to_owned()));
    }
    Ok(circuits)
}
