//! Google's v7 one-attribute mdoc proof (artifact 8d07…), rebuilt from the
//! recorded witnesses with the recorded generator: both circuits committed
//! into one transcript (hash, then signature), the MAC key drawn, then both
//! proved. Everything after the six MAC tags must match byte for byte, and
//! both halves must verify. (Takes a few seconds: two full-size circuits.)
#![allow(clippy::unwrap_used)]

use longfellow_field::{Field, Fp256, Gf2_128};
use longfellow_random::{random_element, MdocLcg};
use longfellow_transcript::Transcript;
use longfellow_zk::{ZkParams, ZkProof, ZkVerifier};
use longfellow_zk_prover::ZkProver;

const SPEC: &str = "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121";

fn elements<F: Field>(bytes: &[u8]) -> Vec<F> {
    bytes
        .chunks_exact(F::BYTES)
        .map(|c| F::from_bytes(c).unwrap())
        .collect()
}

#[test]
fn v7_one_attribute_proof() {
    longfellow_testvectors::require!();
    let pair = longfellow_circuit::load_pair(&longfellow_testvectors::read(&format!(
        "google/mdoc/circuits/{SPEC}"
    )))
    .unwrap();
    let hash_in: Vec<Gf2_128> = elements(&longfellow_testvectors::read(&format!(
        "google/mdoc/proofs/{SPEC}_hash_witness.bin"
    )));
    let sig_in: Vec<Fp256> = elements(&longfellow_testvectors::read(&format!(
        "google/mdoc/proofs/{SPEC}_sig_witness.bin"
    )));
    let want = longfellow_testvectors::read(&format!("google/mdoc/proofs/{SPEC}.bin"));
    let session =
        longfellow_testvectors::google::mdoc_case(longfellow_testvectors::google::REFERENCE_CASE)
            .transcript;

    let hash_params = ZkParams {
        rateinv: 7,
        nreq: 132,
        block_enc: 4151,
    };
    let sig_params = ZkParams {
        rateinv: 7,
        nreq: 132,
        block_enc: 4096,
    };
    let hash_p = ZkProver::new(&pair.hash, hash_params).unwrap();
    let sig_p = ZkProver::new(&pair.sig, sig_params).unwrap();

    let mut rng = MdocLcg::new(42);
    // The prover's MAC key halves come first from the generator.
    for _ in 0..6 {
        let _: Gf2_128 = random_element(&mut rng);
    }
    let mut t = Transcript::new(&session);
    let hash_c = hash_p.commit(&hash_in, &mut rng).unwrap();
    hash_c.commitment.absorb(&mut t);
    let sig_c = sig_p.commit(&sig_in, &mut rng).unwrap();
    sig_c.commitment.absorb(&mut t);
    let mut av = [0u8; 16];
    t.challenge_bytes(&mut av);
    let av = Gf2_128::from_bytes(&av).unwrap();
    assert!(
        hash_in.contains(&av),
        "the witness holds the verifier's MAC key"
    );
    let hash_proof = hash_p.prove(hash_c, &hash_in, &mut t).unwrap();
    let sig_proof = sig_p.prove(sig_c, &sig_in, &mut t).unwrap();

    let mut got = want[..96].to_vec();
    hash_proof.write(&mut got);
    sig_proof.write(&mut got);
    assert_eq!(got.len(), want.len());
    assert!(got == want, "mdoc proof bytes differ");

    // Verify both halves from the recorded bytes, in one transcript.
    let hv = ZkVerifier::new(&pair.hash, hash_params).unwrap();
    let sv = ZkVerifier::new(&pair.sig, sig_params).unwrap();
    let mut rest = &want[96..];
    let hp = ZkProof::read(&pair.hash, hv.ligero_params(), &mut rest).unwrap();
    let sp = ZkProof::read(&pair.sig, sv.ligero_params(), &mut rest).unwrap();
    assert!(rest.is_empty());
    let mut t = Transcript::new(&session);
    hp.commitment.absorb(&mut t);
    sp.commitment.absorb(&mut t);
    t.challenge_bytes(&mut [0u8; 16]);
    hv.verify(&hp, &hash_in[..pair.hash.num_public_inputs()], &mut t)
        .unwrap();
    sv.verify(&sp, &sig_in[..pair.sig.num_public_inputs()], &mut t)
        .unwrap();
}
