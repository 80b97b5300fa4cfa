//! Byte-exact comparison with the witness files Google's prover wrote for the
//! eight version 6/7 circuits (`google/mdoc/proofs/<hash>_{sig,hash}_witness.bin`).
//!
//! Inputs: case `birthdate_1971_09_01-mdoc[3]` of `google/mdoc/cases.json`,
//! the first n of family_name, birth_date, issue_date, height. MAC keys: the
//! six prover keys are the first 96 bytes of the reference generator
//! (seed 42, s ← s·6364136223846793005 + 1, byte = s >> 56), read as
//! little-endian u128s; the verifier key a_v comes out of the proof
//! transcript, which this crate does not run, so it is read from the stored
//! hash witness (its last public input) — everything else, the MAC tags
//! included, is recomputed and compared.

mod common;

use longfellow_mdoc_witness::spec::SIG_PUBLIC_LEN;
use longfellow_mdoc_witness::{
    build_witnesses, parse_device_response, MacInputs, RequestedAttribute, ZkSpecInfo,
};

const CIRCUITS: [(u32, usize, &str); 8] = longfellow_testvectors::google::MDOC_PROOFS;

fn attributes() -> Vec<RequestedAttribute> {
    let ns = "org.iso.18013.5.1";
    let a = |id: &str, value_cbor: Vec<u8>| RequestedAttribute {
        namespace: ns.into(),
        id: id.into(),
        value_cbor,
    };
    let text = |s: &str| [vec![0x60 | s.len() as u8], s.as_bytes().to_vec()].concat();
    let date = |s: &str| [vec![0xd9, 0x03, 0xec], text(s)].concat();
    vec![
        a("family_name", text("Mustermann")),
        a("birth_date", date("1971-09-01")),
        a("issue_date", date("2024-03-15")),
        a("height", vec![0x18, 0xaf]),
    ]
}

fn load_case() -> common::Case {
    let mut case = common::case("birthdate_1971_09_01-mdoc[3].json");
    case.request.attributes = attributes();
    case
}

/// The reference generator's first 96 bytes as six prover MAC keys.
fn prover_keys() -> [[u128; 2]; 3] {
    let mut bytes = [0u8; longfellow_mdoc_witness::mac::PROVER_KEY_BYTES];
    longfellow_test_rng::Lcg64::reference(42).fill(&mut bytes);
    longfellow_mdoc_witness::mac::prover_keys_from_bytes(&bytes)
}

fn first_difference<T: PartialEq>(a: &[T], b: &[T]) -> Option<usize> {
    a.iter().zip(b).position(|(x, y)| x != y)
}

#[test]
fn reproduces_every_reference_witness_byte_for_byte() {
    longfellow_testvectors::require!();
    let case = load_case();
    let mut failures = Vec::new();
    for (version, n, hash) in CIRCUITS {
        let spec = ZkSpecInfo {
            version,
            num_attributes: n,
        };
        let sig_ref =
            longfellow_testvectors::read(&format!("google/mdoc/proofs/{hash}_sig_witness.bin"));
        let hash_ref =
            longfellow_testvectors::read(&format!("google/mdoc/proofs/{hash}_hash_witness.bin"));
        assert_eq!(
            hash_ref.len(),
            16 * (spec.hash_public_len() + spec.hash_private_len())
        );

        let av_at = 16 * (spec.hash_public_len() - 1);
        let verifier_key =
            u128::from_le_bytes(hash_ref[av_at..av_at + 16].try_into().expect("16 bytes"));
        let keys = MacInputs {
            prover_keys: prover_keys(),
            verifier_key,
        };
        let mut request = case.request.clone();
        request.attributes.truncate(n);
        let w = build_witnesses(&spec, &request, &case.mdoc, &keys).expect("witness");

        let sig: Vec<u8> = w.sig.concat();
        let hash_bytes: Vec<u8> = w.hash_bytes().flatten().collect();
        if sig != sig_ref {
            failures.push(format!(
                "v{version}/{n} sig: len {} vs {}, first differing element {:?}",
                sig.len() / 32,
                sig_ref.len() / 32,
                first_difference(&sig, &sig_ref).map(|i| i / 32)
            ));
        }
        if hash_bytes != hash_ref {
            failures.push(format!(
                "v{version}/{n} hash: len {} vs {}, first differing element {:?}",
                hash_bytes.len() / 16,
                hash_ref.len() / 16,
                first_difference(&hash_bytes, &hash_ref).map(|i| i / 16)
            ));
        }
        assert_eq!(
            w.sig.len(),
            SIG_PUBLIC_LEN + longfellow_mdoc_witness::spec::SIG_PRIVATE_LEN
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn parses_the_reference_device_response() {
    longfellow_testvectors::require!();
    let case = load_case();
    let r = parse_device_response(&case.mdoc).expect("parse");
    assert_eq!(r.doc_type, "org.iso.18013.5.1.mDL");
    for a in attributes() {
        let item = r
            .items
            .iter()
            .find(|i| i.element_identifier == a.id)
            .expect("attribute present");
        assert_eq!(item.element_value, a.value_cbor, "{}", a.id);
        assert!(item.digest_offset.is_some());
    }
}

#[test]
fn a_wrong_verifier_key_is_detected() {
    longfellow_testvectors::require!();
    let case = load_case();
    let (version, n, hash) = CIRCUITS[0];
    let spec = ZkSpecInfo {
        version,
        num_attributes: n,
    };
    let hash_ref =
        longfellow_testvectors::read(&format!("google/mdoc/proofs/{hash}_hash_witness.bin"));
    let av_at = 16 * (spec.hash_public_len() - 1);
    let verifier_key =
        u128::from_le_bytes(hash_ref[av_at..av_at + 16].try_into().expect("16 bytes"));
    let keys = MacInputs {
        prover_keys: prover_keys(),
        verifier_key: verifier_key ^ 1,
    };
    let mut request = case.request.clone();
    request.attributes.truncate(n);
    let w = build_witnesses(&spec, &request, &case.mdoc, &keys).expect("witness");
    let hash_bytes: Vec<u8> = w.hash_bytes().flatten().collect();
    assert_ne!(hash_bytes, hash_ref);
    // Only the public MAC tags and a_v move; the private witness stays.
    let private_at = 16 * spec.hash_public_len();
    assert_eq!(hash_bytes[private_at..], hash_ref[private_at..]);
}

/// The MAC positions documented in the crate root, read back from Google's
/// files for v7 with one attribute.
#[test]
fn mac_values_sit_where_the_crate_docs_say() {
    longfellow_testvectors::require!();
    let (version, n, hash) = CIRCUITS[0];
    let spec = ZkSpecInfo {
        version,
        num_attributes: n,
    };
    let sig_ref =
        longfellow_testvectors::read(&format!("google/mdoc/proofs/{hash}_sig_witness.bin"));
    let hash_ref =
        longfellow_testvectors::read(&format!("google/mdoc/proofs/{hash}_hash_witness.bin"));
    let h = |i: usize| u128::from_le_bytes(hash_ref[16 * i..16 * i + 16].try_into().expect("16"));
    let s = |i: usize| &sig_ref[32 * i..32 * i + 32];
    let npub = spec.hash_public_len();
    let total = hash_ref.len() / 16;

    // Sig public bits of tag k and of a_v reassemble the hash circuit's values.
    let from_bits = |base: usize| {
        (0..128).fold(0u128, |acc, j| {
            let b = s(base + j);
            assert!(b[1..].iter().all(|&x| x == 0) && b[0] <= 1);
            acc | u128::from(b[0]) << j
        })
    };
    for k in 0..6 {
        assert_eq!(from_bits(4 + 128 * k), h(npub - 7 + k), "tag {k}");
    }
    assert_eq!(from_bits(772), h(npub - 1), "a_v");

    // The hash circuit's last six inputs are a_p; the signature circuit
    // carries them as 2-bit chunks v encoded as 2v − 3 (so v = 0 is −3 = p − 3).
    let keys = prover_keys();
    for (i, pair) in keys.iter().enumerate() {
        for (half, &key) in pair.iter().enumerate() {
            assert_eq!(h(total - 6 + 2 * i + half), key);
            let base = 2971 + 256 * i + 64 * half;
            let value = (0..64).fold(0u128, |acc, c| {
                let wire = s(base + c);
                let v = if wire[1..].iter().all(|&x| x == 0) {
                    (usize::from(wire[0]) + 3) / 2 // 2v - 3 = 1 or 3
                } else if wire[0] == 0xfc {
                    0 // p - 3
                } else {
                    1 // p - 1
                };
                acc | (v as u128) << (2 * c)
            });
            assert_eq!(value, key, "a_p[{i}][{half}]");
        }
    }
}
