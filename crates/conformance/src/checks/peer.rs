//! A peer implementation's prover and verifier, driven through the
//! command-line contract.
//!
//! Prover: the stored proofs' requests with `--seed 42` must give the
//! stored bytes (the first diverging component is named otherwise) and
//! proofs our verifier accepts; the case sweep must prove or refuse as the
//! reference does. Verifier: stored (and, when linked, our) proofs must be
//! accepted; copies with one byte changed in each section, truncated,
//! extended, or paired with a changed request must be rejected with exit
//! status 1 (not a crash).

use std::path::Path;
use std::sync::Arc;

use super::cases::{combos, sweep};
use super::mdoc::{
    compare, load_cases, mdoc_shape, reference_request, stored_proofs, StoredProof, CASES,
    NOT_LINKED, REFERENCE_SEED,
};
use crate::backend::{BackendError, MdocBackend, MdocRequest};
use crate::diff::{diff_mdoc, mdoc_part_offsets, MdocShape};
use crate::error::{read, CheckError};
use crate::peer::PeerCli;
use crate::registry::{Check, Family, Outcome};
use crate::Options;

pub(crate) fn discover_prover(opts: &Options) -> Vec<Check<'static>> {
    let Some(cmd) = opts.peer_prover.clone() else {
        return vec![Check::skip(
            Family::PeerProver,
            "peer prover",
            "no --peer-prover given",
        )];
    };
    let peer: Arc<dyn MdocBackend> = Arc::new(PeerCli::new(cmd, opts.timeout));
    let mut out = Vec::new();
    match stored_proofs(opts, Family::PeerProver) {
        Err(skip) => out.push(skip),
        Ok(stored) => {
            for s in stored {
                let label = format!(
                    "reproduce v{}/{} {}",
                    s.spec.version, s.spec.attributes, s.hash
                );
                let peer = Arc::clone(&peer);
                let cases = opts.path(CASES);
                out.push(Check::new(Family::PeerProver, label, move |opts| {
                    reproduce_and_verify(peer.as_ref(), opts.backend.as_deref(), &s, &cases)
                }));
            }
        }
    }
    match combos(opts, Family::PeerProver) {
        Err(skip) => out.push(skip),
        Ok(all) => {
            for c in all {
                let peer = Arc::clone(&peer);
                out.push(Check::new(
                    Family::PeerProver,
                    format!("case {}", c.label()),
                    move |opts| {
                        let Some(ours) = opts.backend.as_deref() else {
                            return sweep_unverified(peer.as_ref(), &c, opts.seed);
                        };
                        sweep(peer.as_ref(), Some(ours), &c, opts.seed)
                    },
                ));
            }
        }
    }
    out
}

fn reproduce_and_verify(
    peer: &dyn MdocBackend,
    ours: Option<&dyn MdocBackend>,
    s: &StoredProof,
    cases: &Path,
) -> Result<Outcome, CheckError> {
    let all = load_cases(cases)?;
    let (request, mdoc) = reference_request(&all, s.spec.attributes as usize)?;
    let want = read(&s.proof)?;
    let got = match peer.prove(&s.circuit, &request, &mdoc, Some(REFERENCE_SEED)) {
        Ok(p) => p,
        Err(e) => return Ok(Outcome::Fail(format!("{}: {e}", peer.name()))),
    };
    let verdict = match ours {
        None => format!("not checked by our verifier: {NOT_LINKED}"),
        Some(v) => match v.verify(&s.circuit, &request, &got) {
            Ok(()) => "accepted by our verifier".to_string(),
            Err(e) => format!("not accepted by our verifier: {e}"),
        },
    };
    Ok(match compare(&s.circuit, &s.spec, &want, &got)? {
        None if verdict.starts_with("not accepted") => {
            Outcome::Fail(format!("stored bytes reproduced but {verdict}"))
        }
        None => Outcome::Pass(format!("{} proof bytes reproduced; {verdict}", want.len())),
        Some(d) => Outcome::Fail(format!("first divergence: {d}; the proof is {verdict}")),
    })
}

/// The case sweep when we cannot verify: refusals are still checked.
fn sweep_unverified(
    peer: &dyn MdocBackend,
    c: &super::cases::Combo,
    seed: Option<u64>,
) -> Result<Outcome, CheckError> {
    /// A verifier that accepts nothing and says why.
    struct NoVerifier;
    impl MdocBackend for NoVerifier {
        fn name(&self) -> String {
            "no verifier".into()
        }
        fn prove(
            &self,
            _: &Path,
            _: &MdocRequest,
            _: &[u8],
            _: Option<u64>,
        ) -> Result<Vec<u8>, BackendError> {
            Err(BackendError::Unavailable(NOT_LINKED.into()))
        }
        fn verify(&self, _: &Path, _: &MdocRequest, _: &[u8]) -> Result<(), BackendError> {
            Err(BackendError::Unavailable(NOT_LINKED.into()))
        }
    }
    Ok(match sweep(peer, Some(&NoVerifier), c, seed)? {
        Outcome::Fail(why) if why.contains(NOT_LINKED) => {
            Outcome::Skip(format!("peer produced a proof; not verified: {NOT_LINKED}"))
        }
        other => other,
    })
}

pub(crate) fn discover_verifier(opts: &Options) -> Vec<Check<'static>> {
    let Some(cmd) = opts.peer_verifier.clone() else {
        return vec![Check::skip(
            Family::PeerVerifier,
            "peer verifier",
            "no --peer-verifier given",
        )];
    };
    let peer: Arc<dyn MdocBackend> = Arc::new(PeerCli::new(cmd, opts.timeout));
    let stored = match stored_proofs(opts, Family::PeerVerifier) {
        Ok(s) => s,
        Err(skip) => return vec![skip],
    };
    let cases = opts.path(CASES);
    let mut out = Vec::new();
    for s in stored {
        let label = format!("v{}/{} {}", s.spec.version, s.spec.attributes, s.hash);
        let (p, s1, c1) = (Arc::clone(&peer), s.clone(), cases.clone());
        out.push(Check::new(
            Family::PeerVerifier,
            format!("stored {label}"),
            move |_| {
                let all = load_cases(&c1)?;
                let (request, _) = reference_request(&all, s1.spec.attributes as usize)?;
                let proof = read(&s1.proof)?;
                Ok(accepts(p.as_ref(), &s1, &request, &proof, "stored proof"))
            },
        ));
        let (p, s2, c2) = (Arc::clone(&peer), s.clone(), cases.clone());
        out.push(Check::new(
            Family::PeerVerifier,
            format!("mutated {label}"),
            move |_| mutations(p.as_ref(), &s2, &c2),
        ));
        let (p, c3) = (Arc::clone(&peer), cases.clone());
        out.push(Check::new(
            Family::PeerVerifier,
            format!("ours {label}"),
            move |opts| {
                let Some(ours) = opts.backend.as_deref() else {
                    return Ok(Outcome::Skip(NOT_LINKED.into()));
                };
                let all = load_cases(&c3)?;
                let (request, mdoc) = reference_request(&all, s.spec.attributes as usize)?;
                let proof = match ours.prove(&s.circuit, &request, &mdoc, opts.seed) {
                    Ok(p) => p,
                    Err(BackendError::Unavailable(m)) => return Ok(Outcome::Skip(m)),
                    Err(e) => return Ok(Outcome::Fail(format!("our prover: {e}"))),
                };
                Ok(accepts(p.as_ref(), &s, &request, &proof, "our proof"))
            },
        ));
    }
    out
}

fn accepts(
    peer: &dyn MdocBackend,
    s: &StoredProof,
    request: &MdocRequest,
    proof: &[u8],
    what: &str,
) -> Outcome {
    match peer.verify(&s.circuit, request, proof) {
        Ok(()) => Outcome::Pass(format!("{what} ({} B) accepted", proof.len())),
        Err(e) => Outcome::Fail(format!("{what} ({} B) not accepted: {e}", proof.len())),
    }
}

/// Byte positions to change: the first byte of several sections.
fn mutation_points(shape: &MdocShape, proof: &[u8]) -> Vec<usize> {
    let mut at = vec![0];
    if let Some((hash, sig)) = mdoc_part_offsets(shape, proof) {
        let h = &shape.hash;
        let h_sumcheck = hash + 32;
        let h_ligero = h_sumcheck + h.sumcheck_len();
        let y_dot = h_ligero + h.ligero.block * h.elt_bytes;
        at.extend([
            hash,
            h_sumcheck,
            y_dot,
            sig,
            sig + 32 + shape.sig.sumcheck_len(),
        ]);
    }
    at.push(proof.len().saturating_sub(1));
    at.retain(|&i| i < proof.len());
    at.dedup();
    at
}

fn mutations(peer: &dyn MdocBackend, s: &StoredProof, cases: &Path) -> Result<Outcome, CheckError> {
    let all = load_cases(cases)?;
    let (request, _) = reference_request(&all, s.spec.attributes as usize)?;
    let proof = read(&s.proof)?;
    let shape = mdoc_shape(&s.circuit, &s.spec)?;
    let mut tries: Vec<(String, MdocRequest, Vec<u8>)> = Vec::new();
    for at in mutation_points(&shape, &proof) {
        let mut bad = proof.clone();
        bad[at] ^= 0x01;
        let name = diff_mdoc(&shape, &proof, &bad)
            .map(|d| d.to_string())
            .unwrap_or_else(|| format!("byte {at}"));
        tries.push((format!("bit flipped in {name}"), request.clone(), bad));
    }
    tries.push((
        "last byte removed".into(),
        request.clone(),
        proof[..proof.len().saturating_sub(1)].to_vec(),
    ));
    let mut longer = proof.clone();
    longer.push(0);
    tries.push(("one byte appended".into(), request.clone(), longer));
    let mut other = request.clone();
    if let Some(b) = other.transcript.last_mut() {
        *b ^= 0x01;
    }
    tries.push(("session transcript changed".into(), other, proof.clone()));

    let mut wrong = Vec::new();
    for (what, req, bytes) in &tries {
        match peer.verify(&s.circuit, req, bytes) {
            Err(BackendError::Rejected(_)) => {}
            Ok(()) => wrong.push(format!("{what}: accepted")),
            Err(e) => wrong.push(format!(
                "{what}: {e} (expected rejection with exit status 1)"
            )),
        }
    }
    Ok(if wrong.is_empty() {
        Outcome::Pass(format!("all {} mutated inputs rejected", tries.len()))
    } else {
        Outcome::Fail(wrong.join("; "))
    })
}
