//! Every mdoc circuit file decodes, its circuit IDs are recomputed from the
//! terms and match the stored ones, and the ZkSpec hash
//! SHA-256(sig ID ‖ hash ID) matches the hash in the file name.

use longfellow_circuit::catalog::ZKSPECS;
use longfellow_circuit::{load_pair_with, LoadOptions};

use super::{file_name, list_dir};
use crate::error::{read, CheckError};
use crate::registry::{Check, Family, Outcome};
use crate::Options;

pub(crate) const DIR: &str = "google/mdoc/circuits";

pub(crate) fn discover(opts: &Options) -> Vec<Check<'static>> {
    let files = match list_dir(opts, Family::Circuits, DIR) {
        Ok(f) => f,
        Err(skip) => return vec![skip],
    };
    files
        .into_iter()
        .map(|path| {
            let name = file_name(&path);
            Check::new(Family::Circuits, name.clone(), move |_| {
                check(&name, &read(&path)?)
            })
        })
        .collect()
}

pub(crate) fn check(name: &str, bytes: &[u8]) -> Result<Outcome, CheckError> {
    let want = name.split('.').next().unwrap_or_default();
    // Bypass the compiled-in catalog so every ID is recomputed from the terms.
    let pair = match load_pair_with(bytes, LoadOptions { use_catalog: false }) {
        Ok(p) => p,
        Err(e) => return Ok(Outcome::Fail(format!("does not decode: {e}"))),
    };
    if !pair.source.ids_recomputed {
        return Ok(Outcome::Fail(
            "the loader did not recompute the circuit IDs".into(),
        ));
    }
    let got = hex::encode(pair.zkspec_hash);
    if got != want {
        return Ok(Outcome::Fail(format!(
            "ZkSpec hash SHA-256(sig ID ‖ hash ID) = {got}, file name says {want}"
        )));
    }
    let spec = ZKSPECS
        .iter()
        .find(|s| s.hash_hex == got)
        .map(|s| format!("ZkSpec v{} / {} attribute(s)", s.version, s.attributes))
        .unwrap_or_else(|| "not in Google's ZkSpec table".into());
    Ok(Outcome::Pass(format!(
        "{} ({} B unpacked): sig ID {}…, hash ID {}… recomputed; ZkSpec hash matches the name; {spec}",
        pair.source.format.name(),
        pair.source.unpacked_size,
        &hex::encode(pair.sig.id())[..16],
        &hex::encode(pair.hash.id())[..16],
    )))
}
