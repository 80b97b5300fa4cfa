//! The witness files of the stored mdoc proofs, rebuilt byte for byte with
//! longfellow-mdoc-witness from the reference request. The prover MAC keys
//! are the first 96 bytes of the reference generator (seed 42); the
//! verifier key a_v is drawn from the transcript after the stored proof's
//! two commitment roots, as the reference does. Nothing is taken from the
//! witness files themselves; the rebuilt MAC tags must also equal the ones
//! at the front of the stored proof.

use std::path::Path;

use longfellow_circuit::load_pair;
use longfellow_mdoc::{draw_verifier_key, Verifier};
use longfellow_transcript::Transcript;

use longfellow_mdoc_witness::{
    build_witnesses, MacInputs, MdocRequest as WitnessRequest, RequestedAttribute, ZkSpecInfo,
};

use super::mdoc::{
    load_cases, reference_request, stored_proofs, StoredProof, CASES, PROOFS, REFERENCE_SEED,
};
use crate::backend::MdocRequest;
use crate::diff::Component;
use crate::error::{read, CheckError};
use crate::registry::{Check, Family, Outcome};
use crate::Options;

const SIG_INPUT_BYTES: usize = 32;
const HASH_INPUT_BYTES: usize = 16;
/// Public inputs of the signature circuit: 1, issuer key, e2, 6×128 MAC
/// bits, 128 a_v bits.
const SIG_PUBLIC: usize = 1 + 2 + 1 + 6 * 128 + 128;

pub(crate) fn discover(opts: &Options) -> Vec<Check<'static>> {
    let stored = match stored_proofs(opts, Family::Witnesses) {
        Ok(s) => s,
        Err(skip) => return vec![skip],
    };
    let cases = opts.path(CASES);
    let mut out = Vec::new();
    for s in stored {
        let name = format!("v{}/{} {}", s.spec.version, s.spec.attributes, s.hash);
        let file = |kind: &str| opts.path(&format!("{PROOFS}/{}_{kind}_witness.bin", s.hash));
        let (sig, hash) = (file("sig"), file("hash"));
        if !sig.is_file() || !hash.is_file() {
            out.push(Check::skip(
                Family::Witnesses,
                name,
                format!("missing witness files for {}", s.hash),
            ));
            continue;
        }
        let cases = cases.clone();
        out.push(Check::new(Family::Witnesses, name, move |_| {
            check(&cases, &s, &sig, &hash)
        }));
    }
    out
}

/// Big-endian 32 bytes from 0x-hex or decimal.
pub(crate) fn coordinate(s: &str) -> Option<[u8; 32]> {
    let mut out = [0u8; 32];
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        let h = if h.len() % 2 == 1 {
            format!("0{h}")
        } else {
            h.to_string()
        };
        let v = hex::decode(h).ok()?;
        let v = &v[v.iter().position(|&b| b != 0).unwrap_or(v.len())..];
        if v.len() > 32 {
            return None;
        }
        out[32 - v.len()..].copy_from_slice(v);
        return Some(out);
    }
    if s.is_empty() {
        return None;
    }
    for ch in s.bytes() {
        if !ch.is_ascii_digit() {
            return None;
        }
        let mut carry = u32::from(ch - b'0');
        for b in out.iter_mut().rev() {
            let v = u32::from(*b) * 10 + carry;
            *b = v as u8;
            carry = v >> 8;
        }
        if carry != 0 {
            return None;
        }
    }
    Some(out)
}

pub(crate) fn witness_request(r: &MdocRequest) -> Result<WitnessRequest, CheckError> {
    let bad = |why: &str| CheckError::malformed(CASES, why.to_string());
    Ok(WitnessRequest {
        issuer_pk: (
            coordinate(&r.pkx).ok_or_else(|| bad("pkx"))?,
            coordinate(&r.pky).ok_or_else(|| bad("pky"))?,
        ),
        transcript: r.transcript.clone(),
        now: r
            .now
            .as_bytes()
            .try_into()
            .map_err(|_| bad("now is not 20 bytes"))?,
        doc_type: r.doc_type.clone(),
        attributes: r
            .attributes
            .iter()
            .map(|a| RequestedAttribute {
                namespace: a.namespace.clone(),
                id: a.id.clone(),
                value_cbor: a.value_cbor.clone(),
            })
            .collect(),
    })
}

/// The reference generator's first 96 bytes as six prover MAC keys.
fn prover_keys() -> [[u128; 2]; 3] {
    use longfellow_random::RngCore;
    let mut bytes = [0u8; longfellow_mdoc_witness::mac::PROVER_KEY_BYTES];
    longfellow_random::MdocLcg::new(REFERENCE_SEED).fill_bytes(&mut bytes);
    longfellow_mdoc_witness::mac::prover_keys_from_bytes(&bytes)
}

/// What public input `i` of the signature circuit holds (layout in the
/// longfellow-mdoc-witness crate docs and the map §3).
fn sig_input_meaning(i: usize) -> String {
    match i {
        0 => "constant 1".into(),
        1 => "issuer key x".into(),
        2 => "issuer key y".into(),
        3 => "device-authentication hash e2".into(),
        4..=771 => format!("MAC tag {} bit {}", (i - 4) / 128, (i - 4) % 128),
        772..=899 => format!("a_v bit {}", i - 772),
        _ => "private witness".into(),
    }
}

/// What input `i` of the hash circuit holds: 1, attribute bits, now (160
/// bits), six MAC tags, a_v, then the private witness.
fn hash_input_meaning(i: usize, spec: &ZkSpecInfo) -> String {
    let per_attr = (spec.hash_public_len() - 1 - 160 - 7) / spec.num_attributes.max(1);
    let attrs_end = 1 + spec.num_attributes * per_attr;
    let npub = spec.hash_public_len();
    match i {
        0 => "constant 1".into(),
        _ if i < attrs_end => format!(
            "attribute {} bit {}",
            (i - 1) / per_attr.max(1),
            (i - 1) % per_attr.max(1)
        ),
        _ if i < attrs_end + 160 => format!("now bit {}", i - attrs_end),
        _ if i < npub - 1 => format!("MAC tag {}", i - attrs_end - 160),
        _ if i == npub - 1 => "a_v".into(),
        _ => "private witness".into(),
    }
}

/// First differing input, as a component with its meaning.
fn first_input(
    want: &[u8],
    got: &[u8],
    size: usize,
    npub: usize,
    meaning: impl Fn(usize) -> String,
) -> Option<String> {
    let i = crate::diff::first_difference(want, got)? / size;
    let c = Component::Input {
        index: i,
        public: i < npub,
    };
    Some(format!(
        "{c}: {} (inputs: {} expected, {} built)",
        meaning(i),
        want.len() / size,
        got.len() / size
    ))
}

/// a_v and the MAC tags of a stored proof: a_v is the 16 transcript bytes
/// after both commitment roots.
fn stored_keys(s: &StoredProof, transcript: &[u8]) -> Result<(u128, [u128; 6]), CheckError> {
    let pair = load_pair(&read(&s.circuit)?).map_err(CheckError::component)?;
    let v = Verifier::new(&pair).map_err(CheckError::component)?;
    let proof = v
        .read_proof(&read(&s.proof)?)
        .map_err(|e| CheckError::Component(format!("stored proof: {e}")))?;
    let mut t = Transcript::new(transcript);
    proof.hash.commitment.absorb(&mut t);
    proof.sig.commitment.absorb(&mut t);
    Ok((draw_verifier_key(&mut t), proof.macs))
}

fn check(
    cases: &Path,
    s: &StoredProof,
    sig_path: &Path,
    hash_path: &Path,
) -> Result<Outcome, CheckError> {
    let n = s.spec.attributes as usize;
    let cases = load_cases(cases)?;
    let (request, mdoc) = reference_request(&cases, n)?;
    let spec = ZkSpecInfo {
        version: s.spec.version,
        num_attributes: n,
    };
    let sig_ref = read(sig_path)?;
    let hash_ref = read(hash_path)?;
    let hash_npub = spec.hash_public_len();
    let (verifier_key, proof_macs) = stored_keys(s, &request.transcript)?;
    let keys = MacInputs {
        prover_keys: prover_keys(),
        verifier_key,
    };
    let w = match build_witnesses(&spec, &witness_request(&request)?, &mdoc, &keys) {
        Ok(w) => w,
        Err(e) => return Ok(Outcome::Fail(format!("witness builder refused: {e}"))),
    };
    let sig: Vec<u8> = w.sig.concat();
    let hash: Vec<u8> = w.hash_bytes().flatten().collect();
    let mut fails = Vec::new();
    if let Some(d) = first_input(
        &sig_ref,
        &sig,
        SIG_INPUT_BYTES,
        SIG_PUBLIC,
        sig_input_meaning,
    ) {
        fails.push(format!("sig witness: {d}"));
    }
    if let Some(d) = first_input(&hash_ref, &hash, HASH_INPUT_BYTES, hash_npub, |i| {
        hash_input_meaning(i, &spec)
    }) {
        fails.push(format!("hash witness: {d}"));
    }
    if let Some(k) = (0..6).find(|&k| w.macs[k] != proof_macs[k]) {
        fails.push(format!(
            "{} differs from the stored proof's",
            Component::Mac(k)
        ));
    }
    if fails.is_empty() {
        Ok(Outcome::Pass(format!(
            "{} sig and {} hash inputs identical (a_v drawn after the stored proof's roots; MAC tags match the proof)",
            w.sig.len(),
            w.hash.len()
        )))
    } else {
        Ok(Outcome::Fail(format!(
            "first divergence: {}",
            fails.join("; ")
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::{coordinate, hash_input_meaning, sig_input_meaning};
    use longfellow_mdoc_witness::ZkSpecInfo;

    #[test]
    fn public_inputs_are_named_by_the_documented_layout() {
        assert_eq!(sig_input_meaning(4 + 128 * 5 + 127), "MAC tag 5 bit 127");
        assert_eq!(sig_input_meaning(772), "a_v bit 0");
        assert_eq!(sig_input_meaning(900), "private witness");
        // v7 / 2 attributes: 1 + 2·784 attribute bits, 160 bits of now.
        let spec = ZkSpecInfo {
            version: 7,
            num_attributes: 2,
        };
        assert_eq!(hash_input_meaning(1 + 784, &spec), "attribute 1 bit 0");
        assert_eq!(hash_input_meaning(1 + 2 * 784, &spec), "now bit 0");
        assert_eq!(
            hash_input_meaning(1 + 2 * 784 + 160 + 3, &spec),
            "MAC tag 3"
        );
        assert_eq!(hash_input_meaning(1 + 2 * 784 + 160 + 6, &spec), "a_v");
        assert_eq!(
            hash_input_meaning(1 + 2 * 784 + 160 + 7, &spec),
            "private witness"
        );
        let v6 = ZkSpecInfo {
            version: 6,
            num_attributes: 1,
        };
        assert_eq!(hash_input_meaning(776, &v6), "attribute 0 bit 775");
        assert_eq!(hash_input_meaning(777, &v6), "now bit 0");
    }

    #[test]
    fn coordinates_parse_from_hex_and_decimal_alike() {
        let mut want = [0u8; 32];
        want[30] = 0x01;
        want[31] = 0x02;
        assert_eq!(coordinate("0x0102"), Some(want));
        assert_eq!(coordinate("0x102"), Some(want));
        assert_eq!(coordinate("258"), Some(want));
        // 2^256 − 1 in decimal fits; 2^256 does not.
        let max = "115792089237316195423570985008687907853269984665640564039457584007913129639935";
        assert_eq!(coordinate(max), Some([0xff; 32]));
        let over = "115792089237316195423570985008687907853269984665640564039457584007913129639936";
        assert_eq!(coordinate(over), None);
        assert_eq!(coordinate(&format!("0x01{}", "00".repeat(32))), None);
        assert_eq!(coordinate(""), None);
        assert_eq!(coordinate("12a"), None);
        assert_eq!(coordinate("0xzz"), None);
    }
}
