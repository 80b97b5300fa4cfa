//! The verifier's public inputs, computed from the request alone, equal the
//! public prefix of Google's stored witness files for all eight reference
//! proofs (MAC tags from the front of the stored proof, a_v from the
//! transcript after the two stored commitment roots).

mod common;

use longfellow_field::Field;
use longfellow_mdoc::spec::SIG_PUBLIC_LEN;
use longfellow_mdoc::{
    draw_verifier_key, hash_public_elements, sig_public_elements, ZkSpec, MAC_BYTES,
};
use longfellow_transcript::Transcript;

#[test]
fn public_inputs_match_the_reference_witnesses() {
    longfellow_testvectors::require!();
    for (version, n, hash) in common::PROOFS {
        let spec = ZkSpec::for_version(version, n).expect("spec");
        assert_eq!(spec.circuit_hash_hex(), hash);
        let (request, _) = common::request(n);
        let proof = common::stored_proof(hash);
        let macs: [u128; 6] = std::array::from_fn(|i| {
            u128::from_le_bytes(proof[16 * i..16 * i + 16].try_into().expect("16 bytes"))
        });

        // a_v from the stored witness; its derivation from the transcript
        // is checked separately below.
        let hash_ref =
            longfellow_testvectors::read(&format!("google/mdoc/proofs/{hash}_hash_witness.bin"));
        let npub = spec.info.hash_public_len();
        let av = u128::from_le_bytes(hash_ref[16 * (npub - 1)..16 * npub].try_into().expect("16"));

        let h = hash_public_elements(&spec, &request, &macs, av).expect("encodable");
        let h_bytes: Vec<u8> = h
            .iter()
            .flat_map(|e| {
                let mut b = [0u8; 16];
                e.write_bytes(&mut b);
                b
            })
            .collect();
        assert!(
            h_bytes == hash_ref[..16 * npub],
            "v{version}/{n} hash public inputs"
        );

        let sig_ref =
            longfellow_testvectors::read(&format!("google/mdoc/proofs/{hash}_sig_witness.bin"));
        let s = sig_public_elements(&request, &macs, av);
        assert_eq!(s.len(), SIG_PUBLIC_LEN);
        let s_bytes: Vec<u8> = s
            .iter()
            .flat_map(|e| {
                let mut b = [0u8; 32];
                e.write_bytes(&mut b);
                b
            })
            .collect();
        assert!(
            s_bytes == sig_ref[..32 * SIG_PUBLIC_LEN],
            "v{version}/{n} signature public inputs"
        );
    }
}

#[test]
fn verifier_key_comes_from_the_transcript_after_both_roots() {
    longfellow_testvectors::require!();
    let (version, n, hash) = common::PROOFS[0];
    let spec = ZkSpec::for_version(version, n).expect("spec");
    let pair = common::load(hash);
    let verifier = longfellow_mdoc::Verifier::new(&pair).expect("verifier");
    let (request, _) = common::request(n);
    let proof = verifier
        .read_proof(&common::stored_proof(hash))
        .expect("decodes");
    let mut t = Transcript::new(&request.transcript);
    proof.hash.commitment.absorb(&mut t);
    proof.sig.commitment.absorb(&mut t);
    let av = draw_verifier_key(&mut t);
    let hash_ref =
        longfellow_testvectors::read(&format!("google/mdoc/proofs/{hash}_hash_witness.bin"));
    let npub = spec.info.hash_public_len();
    assert_eq!(av.to_le_bytes()[..], hash_ref[16 * (npub - 1)..16 * npub]);
    assert_eq!(MAC_BYTES, 96);
}
