//! Shared mdoc inputs (cases, the stored proofs' request, circuit files and
//! proof shapes) and the stored-proof family: each `<hash>.bin` reproduced
//! byte for byte with seed 42 by the linked prover, and verified.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use longfellow_circuit::load_pair;
use longfellow_mdoc_witness::parse_device_response;
use serde_json::Value;

use super::{file_name, list_dir};
use crate::backend::{Attribute, BackendError, MdocBackend, MdocRequest};
use crate::diff::{diff_mdoc, MdocShape, ZkShape};
use crate::error::{read, CheckError};
use crate::registry::{Check, Family, Outcome};
use crate::zkspec::{params_for_hash, SpecParams};
use crate::Options;

pub(crate) const PROOFS: &str = "google/mdoc/proofs";
pub(crate) const CASES: &str = "google/mdoc/cases.json";
/// The case the stored proofs were made from, and what they disclose.
pub(crate) const REFERENCE_CASE: &str = "birthdate_1971_09_01-mdoc[3].json";
pub(crate) const REFERENCE_ATTRIBUTES: [&str; 4] =
    ["family_name", "birth_date", "issue_date", "height"];
pub(crate) const REFERENCE_SEED: u64 = 42;
pub(crate) use crate::linked::NOT_LINKED;

/// One credential of `cases.json`.
#[derive(Clone, Debug)]
pub(crate) struct Case {
    pub name: String,
    /// Request without attributes.
    pub request: MdocRequest,
    pub mdoc: Vec<u8>,
}

pub(crate) fn load_cases(path: &Path) -> Result<Vec<Case>, CheckError> {
    let json: Value = serde_json::from_slice(&read(path)?)
        .map_err(|e| CheckError::malformed(CASES, e.to_string()))?;
    let arr = json
        .as_array()
        .ok_or_else(|| CheckError::malformed(CASES, "not an array"))?;
    arr.iter()
        .map(|c| {
            let s = |k: &str| {
                c[k].as_str()
                    .map(str::to_string)
                    .ok_or_else(|| CheckError::malformed(CASES, format!("case without {k}")))
            };
            let hex_of = |k: &str| {
                hex::decode(s(k)?).map_err(|e| CheckError::malformed(CASES, format!("{k}: {e}")))
            };
            Ok(Case {
                name: s("name")?,
                request: MdocRequest {
                    pkx: s("pkx")?,
                    pky: s("pky")?,
                    transcript: hex_of("transcript_hex")?,
                    now: s("now")?,
                    doc_type: s("doc_type")?,
                    attributes: Vec::new(),
                },
                mdoc: hex_of("mdoc_hex")?,
            })
        })
        .collect()
}

/// The mdoc's own attributes of its first namespace, in encoding order.
pub(crate) fn own_attributes(mdoc: &[u8]) -> Result<Vec<Attribute>, CheckError> {
    let r = parse_device_response(mdoc).map_err(CheckError::component)?;
    let Some(first) = r.items.first() else {
        return Ok(Vec::new());
    };
    let ns = first.namespace.clone();
    Ok(r.items
        .iter()
        .filter(|i| i.namespace == ns)
        .map(|i| Attribute {
            namespace: i.namespace.clone(),
            id: i.element_identifier.clone(),
            value_cbor: i.element_value.clone(),
        })
        .collect())
}

/// The request the stored proofs were made for, with `n` attributes.
pub(crate) fn reference_request(
    cases: &[Case],
    n: usize,
) -> Result<(MdocRequest, Vec<u8>), CheckError> {
    let case = cases
        .iter()
        .find(|c| c.name == REFERENCE_CASE)
        .ok_or_else(|| CheckError::malformed(CASES, format!("no case {REFERENCE_CASE}")))?;
    let own = own_attributes(&case.mdoc)?;
    let mut request = case.request.clone();
    for id in REFERENCE_ATTRIBUTES.iter().take(n) {
        let a = own
            .iter()
            .find(|a| a.id == *id)
            .ok_or_else(|| CheckError::malformed(CASES, format!("reference mdoc lacks {id}")))?;
        request.attributes.push(a.clone());
    }
    Ok((request, case.mdoc.clone()))
}

/// The circuit file for a ZkSpec hash: the extensionless pair, else the
/// `.lfa1`, else the `.lfa2` form.
pub(crate) fn circuit_file(opts: &Options, hash: &str) -> Option<PathBuf> {
    ["", ".lfa1", ".lfa2"]
        .iter()
        .map(|ext| opts.path(&format!("{}/{hash}{ext}", super::circuits::DIR)))
        .find(|p| p.is_file())
}

/// ZkSpec hashes with a circuit file present, with their parameters.
pub(crate) fn circuits_present(opts: &Options) -> Vec<(String, SpecParams, PathBuf)> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(opts.path(super::circuits::DIR)) else {
        return out;
    };
    let mut hashes: Vec<String> = entries
        .filter_map(|e| e.ok())
        .map(|e| file_name(&e.path()))
        .map(|n| n.split('.').next().unwrap_or_default().to_string())
        .collect();
    hashes.sort();
    hashes.dedup();
    for h in hashes {
        if let (Some(p), Some(file)) = (params_for_hash(&h), circuit_file(opts, &h)) {
            out.push((h, p, file));
        }
    }
    // Newest version first, then by attribute count.
    out.sort_by_key(|(_, p, _)| (std::cmp::Reverse(p.version), p.attributes));
    out
}

/// The proof shapes for a circuit pair file.
pub(crate) fn mdoc_shape(circuit: &Path, spec: &SpecParams) -> Result<MdocShape, CheckError> {
    let pair = load_pair(&read(circuit)?).map_err(CheckError::component)?;
    Ok(MdocShape {
        hash: ZkShape::of(&pair.hash, spec.hash).map_err(CheckError::component)?,
        sig: ZkShape::of(&pair.sig, spec.sig).map_err(CheckError::component)?,
    })
}

/// Compares a produced proof with a stored one, naming the first diverging
/// component; `None` when identical.
pub(crate) fn compare(
    circuit: &Path,
    spec: &SpecParams,
    want: &[u8],
    got: &[u8],
) -> Result<Option<String>, CheckError> {
    if want == got {
        return Ok(None);
    }
    let shape = mdoc_shape(circuit, spec)?;
    Ok(diff_mdoc(&shape, want, got).map(|d| d.to_string()))
}

/// A stored proof with its inputs.
#[derive(Clone, Debug)]
pub(crate) struct StoredProof {
    pub hash: String,
    pub spec: SpecParams,
    pub circuit: PathBuf,
    pub proof: PathBuf,
}

/// Stored `<hash>.bin` proofs whose circuit is present; or a skip.
pub(crate) fn stored_proofs(
    opts: &Options,
    family: Family,
) -> Result<Vec<StoredProof>, Check<'static>> {
    let files = list_dir(opts, family, PROOFS)?;
    if !opts.path(CASES).is_file() {
        return Err(Check::skip(family, CASES, format!("missing {CASES}")));
    }
    let mut out = Vec::new();
    for f in files {
        let name = file_name(&f);
        let Some(hash) = name.strip_suffix(".bin") else {
            continue;
        };
        if hash.contains('_') {
            continue; // a witness file
        }
        let (Some(spec), Some(circuit)) = (params_for_hash(hash), circuit_file(opts, hash)) else {
            continue;
        };
        out.push(StoredProof {
            hash: hash.to_string(),
            spec,
            circuit,
            proof: f.clone(),
        });
    }
    Ok(out)
}

pub(crate) fn discover(opts: &Options) -> Vec<Check<'static>> {
    let stored = match stored_proofs(opts, Family::MdocProofs) {
        Ok(s) => s,
        Err(skip) => return vec![skip],
    };
    let cases_path = opts.path(CASES);
    let mut out = Vec::new();
    for s in stored {
        let label = format!("v{}/{} {}", s.spec.version, s.spec.attributes, s.hash);
        let Some(backend) = opts.backend.clone() else {
            out.push(Check::skip(
                Family::MdocProofs,
                format!("reproduce {label}"),
                NOT_LINKED,
            ));
            out.push(Check::skip(
                Family::MdocProofs,
                format!("verify {label}"),
                NOT_LINKED,
            ));
            continue;
        };
        let (s2, b2, c2) = (s.clone(), Arc::clone(&backend), cases_path.clone());
        out.push(Check::new(
            Family::MdocProofs,
            format!("reproduce {label}"),
            move |_| reproduce(b2.as_ref(), &s2, &c2),
        ));
        let c3 = cases_path.clone();
        out.push(Check::new(
            Family::MdocProofs,
            format!("verify {label}"),
            move |_| {
                let cases = load_cases(&c3)?;
                let (request, _) = reference_request(&cases, s.spec.attributes as usize)?;
                let proof = read(&s.proof)?;
                verify_stored(backend.as_ref(), &s.circuit, &request, &proof)
            },
        ));
    }
    out
}

/// The stored proof must be accepted, and (so that acceptance means
/// something) a copy with one byte changed in the middle must be rejected.
fn verify_stored(
    backend: &dyn MdocBackend,
    circuit: &Path,
    request: &MdocRequest,
    proof: &[u8],
) -> Result<Outcome, CheckError> {
    if let Err(e) = backend.verify(circuit, request, proof) {
        return Ok(Outcome::Fail(format!("stored proof not accepted: {e}")));
    }
    let at = proof.len() / 2;
    let mut bad = proof.to_vec();
    if let Some(b) = bad.get_mut(at) {
        *b ^= 0x01;
    }
    Ok(match backend.verify(circuit, request, &bad) {
        Err(BackendError::Rejected(_)) => Outcome::Pass(format!(
            "stored proof ({} B) accepted; copy with byte {at} changed rejected",
            proof.len()
        )),
        Ok(()) => Outcome::Fail(format!("a copy with byte {at} changed is also accepted")),
        Err(e) => Outcome::Fail(format!("a copy with byte {at} changed: {e}")),
    })
}

/// Proves the stored proof's request with seed 42 and compares.
pub(crate) fn reproduce(
    backend: &dyn MdocBackend,
    s: &StoredProof,
    cases_path: &Path,
) -> Result<Outcome, CheckError> {
    let cases = load_cases(cases_path)?;
    let (request, mdoc) = reference_request(&cases, s.spec.attributes as usize)?;
    let want = read(&s.proof)?;
    let got = match backend.prove(&s.circuit, &request, &mdoc, Some(REFERENCE_SEED)) {
        Ok(p) => p,
        Err(BackendError::Unavailable(m)) => return Ok(Outcome::Skip(m)),
        Err(e) => return Ok(Outcome::Fail(format!("{}: {e}", backend.name()))),
    };
    Ok(match compare(&s.circuit, &s.spec, &want, &got)? {
        None => Outcome::Pass(format!("{} proof bytes reproduced", want.len())),
        Some(d) => Outcome::Fail(format!("first divergence: {d}")),
    })
}
