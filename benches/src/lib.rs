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

use longfellow_mdoc::{MdocRequest, RequestedAttribute, ZkSpec};
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

fn key32(hex_text: &str) -> Result<[u8; 32], String> {
    let v = hex::decode(hex_text.trim_start_matches("0x")).map_err(|e| e.to_string())?;
    v.try_into().map_err(|_| "not 32 bytes".to_string())
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
    let req = mdoc.request(now, &ids).map_err(|x| e(&x))?;
    let now_bytes: [u8; 20] = req
        .now
        .as_bytes()
        .try_into()
        .map_err(|_| "now is not 20 bytes".to_string())?;
    let request = MdocRequest {
        issuer_pk: (key32(&req.pkx)?, key32(&req.pky)?),
        transcript: hex::decode(&req.transcript_hex).map_err(|x| e(&x))?,
        now: now_bytes,
        doc_type: req.doc_type.clone(),
        attributes: req
            .attributes
            .iter()
            .map(|a| {
                Ok(RequestedAttribute {
                    namespace: a.namespace.clone(),
                    id: a.id.clone(),
                    value_cbor: hex::decode(&a.value_cbor_hex).map_err(|x| e(&x))?,
                })
            })
            .collect::<Result<_, String>>()?,
    };
    Ok((request, mdoc.device_response))
}
