//! The specification's one-circuit proofs (`google/spec`): re-proved byte
//! for byte from the circuit, the inputs and the recorded generator, and the
//! stored proof verified.

use longfellow_circuit::{load_circuit, Circuit};
use longfellow_field::{Field, Fp256, Gf2_128};
use longfellow_random::SpecLcg;
use longfellow_reed_solomon::RsField;
use longfellow_zk::{verify, ZkParams};
use longfellow_zk_prover::prove;

use super::require;
use crate::diff::{diff_zk, ZkShape};
use crate::error::{read, CheckError};
use crate::registry::{Check, Family, Outcome};
use crate::Options;

/// (name, field is GF(2^128), parameters, seed, transcript label).
const PROOFS: [(&str, bool, ZkParams, u64, &str); 2] = [
    (
        "sha256",
        true,
        ZkParams {
            rateinv: 3,
            nreq: 16,
            block_enc: 256,
        },
        12345,
        "sha256_spec_test",
    ),
    (
        "ecdsa2",
        false,
        ZkParams {
            rateinv: 4,
            nreq: 16,
            block_enc: 256,
        },
        123_456_789,
        "ecdsa2_spec_test",
    ),
];

pub(crate) fn discover(opts: &Options) -> Vec<Check<'static>> {
    let mut out = Vec::new();
    for (name, binary, params, seed, label) in PROOFS {
        let files: Result<Vec<_>, _> = ["circuit.lfc2", "inputs.json", "proof.bin"]
            .iter()
            .map(|ext| {
                require(
                    opts,
                    Family::Spec,
                    name,
                    &format!("google/spec/{name}_{ext}"),
                )
            })
            .collect();
        match files {
            Err(skip) => out.push(skip),
            Ok(paths) => out.push(Check::new(Family::Spec, name, move |_| {
                let circuit = read(&paths[0])?;
                let inputs = read(&paths[1])?;
                let proof = read(&paths[2])?;
                if binary {
                    check::<Gf2_128>(&circuit, &inputs, &proof, params, seed, label)
                } else {
                    check::<Fp256>(&circuit, &inputs, &proof, params, seed, label)
                }
            })),
        }
    }
    out
}

/// Decimal string → field element via its little-endian integer encoding.
pub(crate) fn from_decimal<F: Field>(s: &str) -> Option<F> {
    let mut le = vec![0u8; F::BYTES];
    if s.is_empty() {
        return None;
    }
    for ch in s.bytes() {
        if !ch.is_ascii_digit() {
            return None;
        }
        let mut carry = u32::from(ch - b'0');
        for b in le.iter_mut() {
            let v = u32::from(*b) * 10 + carry;
            *b = v as u8;
            carry = v >> 8;
        }
        if carry != 0 {
            return None;
        }
    }
    F::from_bytes(&le)
}

pub(crate) fn check<F: RsField>(
    circuit: &[u8],
    inputs_json: &[u8],
    want: &[u8],
    params: ZkParams,
    seed: u64,
    label: &str,
) -> Result<Outcome, CheckError> {
    let circuit: Circuit<F> = load_circuit(circuit).map_err(CheckError::component)?;
    let json: Vec<String> = serde_json::from_slice(inputs_json)
        .map_err(|e| CheckError::malformed("inputs.json", e.to_string()))?;
    let inputs = json
        .iter()
        .map(|s| from_decimal::<F>(s))
        .collect::<Option<Vec<F>>>()
        .ok_or_else(|| CheckError::malformed("inputs.json", "input is not a field element"))?;
    let npub = circuit.num_public_inputs().min(inputs.len());
    let shape = ZkShape::of(&circuit, params).map_err(CheckError::component)?;

    let mut notes = Vec::new();
    match verify(&circuit, params, &inputs[..npub], want, label.as_bytes()) {
        Ok(()) => notes.push("stored proof verifies".to_string()),
        Err(e) => return Ok(Outcome::Fail(format!("stored proof rejected: {e}"))),
    }
    let proof = prove(
        &circuit,
        params,
        &inputs,
        &mut SpecLcg::new(seed),
        label.as_bytes(),
    )
    .map_err(CheckError::component)?;
    let got = proof.to_bytes();
    if let Some(d) = diff_zk::<F>(&shape, want, &got) {
        return Ok(Outcome::Fail(format!("first divergence: {d}")));
    }
    notes.push(format!("{} proof bytes reproduced", want.len()));
    Ok(Outcome::Pass(notes.join("; ")))
}
