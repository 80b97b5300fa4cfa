//! Inputs of the end-to-end benches: which circuit files exist here, and a
//! synthetic mDL with a request for its first n attributes.
//!
//! The circuits are looked for where `longfellow` looks
//! ([`longfellow_circuit_store::search_dirs`], filled by `longfellow circuits
//! fetch --all`) and in the reference vectors; a circuit found nowhere is
//! left out of the run with one line on stderr.
#![forbid(unsafe_code)]

use std::path::PathBuf;
use std::time::Duration;

use longfellow_mdoc::{MdocRequest, ZkSpec};
use longfellow_mdoc_issuer::{dc_api_session_transcript, DeviceKey, IssuerKey, MdocBuilder, Tdate};
use longfellow_random::OsRng;

/// Where to look for circuit files, most specific first.
pub fn circuit_dirs() -> Vec<PathBuf> {
    let mut dirs = longfellow_circuit_store::search_dirs(None).dirs;
    dirs.push(longfellow_testvectors::vectors_dir().join("google/mdoc/circuits"));
    dirs
}

/// (ZkSpec, circuit file) of every published circuit found locally.
pub fn circuits() -> Vec<(ZkSpec, PathBuf)> {
    let dirs = circuit_dirs();
    let mut found = Vec::new();
    for spec in ZkSpec::all().filter(|s| s.info.version >= 6) {
        let hash = spec.circuit_hash_hex();
        match longfellow_circuit_store::find_circuit(&dirs, &hash) {
            Some(p) => found.push((spec, p)),
            None => eprintln!(
                "skipped: v{} {} attribute(s) ({hash}): not found; `longfellow circuits fetch --all` downloads it",
                spec.info.version, spec.info.num_attributes
            ),
        }
    }
    found
}

/// A fresh synthetic mDL and the request disclosing its first `n`
/// attributes at the current time.
pub fn synthetic_request(n: usize) -> Result<(MdocRequest, Vec<u8>), String> {
    let e = |x: &dyn std::fmt::Display| x.to_string();
    let now = Tdate::parse("2026-06-01T12:00:00Z").map_err(|x| e(&x))?;
    let day = Duration::from_secs(86_400);
    let transcript =
        dc_api_session_transcript("https://verifier.example", "bench-nonce").map_err(|x| e(&x))?;
    let issuer = IssuerKey::random(&mut OsRng);
    let device = DeviceKey::random(&mut OsRng);
    let mdoc = MdocBuilder::mdl()
        .valid_around(now, day, 365 * day)
        .and_then(|b| b.build(&issuer, &device, &transcript, &mut OsRng))
        .map_err(|x| e(&x))?;
    let ids: Vec<&str> = mdoc
        .attributes
        .iter()
        .take(n)
        .map(|a| a.id.as_str())
        .collect();
    let request = mdoc
        .request(now, &ids)
        .and_then(|r| r.to_mdoc_request())
        .map_err(|x| e(&x))?;
    Ok((request, mdoc.device_response))
}
