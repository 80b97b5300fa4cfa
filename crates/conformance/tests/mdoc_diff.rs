//! The mdoc-proof diff on Google's stored v7 one-attribute proof:
//! six MACs ‖ hash-circuit proof ‖ signature-circuit proof, with the
//! component holding a corrupted byte named per part. Offsets are computed
//! here from the documented layout and the Ligero reader.

use longfellow_circuit::load_pair;
use longfellow_conformance::diff::{diff_mdoc, mdoc_part_offsets, Component, MdocShape, ZkShape};
use longfellow_conformance::zkspec;
use longfellow_field::{Fp256, Gf2_128};
use longfellow_ligero::LigeroProof;

const HASH: &str = "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121";

struct Fixture {
    shape: MdocShape,
    hash_logw: Vec<usize>,
    proof: Vec<u8>,
    sig_start: usize,
}

fn fixture() -> Fixture {
    let pair = load_pair(&longfellow_testvectors::read(&format!(
        "google/mdoc/circuits/{HASH}"
    )))
    .expect("pair");
    let spec = zkspec::params(7, 1).expect("v7/1");
    assert_eq!(zkspec::params_for_hash(HASH), Some(spec));
    let shape = MdocShape {
        hash: ZkShape::of(&pair.hash, spec.hash).expect("hash shape"),
        sig: ZkShape::of(&pair.sig, spec.sig).expect("sig shape"),
    };
    let hash_logw = pair
        .hash
        .layers()
        .iter()
        .map(|l| l.logw() as usize)
        .collect();
    let proof = longfellow_testvectors::read(&format!("google/mdoc/proofs/{HASH}.bin"));
    // Independent split: hash part = root ‖ sumcheck ‖ Ligero (reader).
    let lig_at = 96 + 32 + shape.hash.sumcheck_len();
    let mut rest = &proof[lig_at..];
    LigeroProof::<Gf2_128>::read(&shape.hash.ligero, &mut rest).expect("hash Ligero parses");
    let sig_start = proof.len() - rest.len();
    Fixture {
        shape,
        hash_logw,
        proof,
        sig_start,
    }
}

fn corrupt(bytes: &[u8], at: usize) -> Vec<u8> {
    let mut v = bytes.to_vec();
    v[at] ^= 0x01;
    v
}

#[test]
fn stored_proof_splits_into_its_parts() {
    longfellow_testvectors::require!();
    let f = fixture();
    assert_eq!(
        mdoc_part_offsets(&f.shape, &f.proof),
        Some((96, f.sig_start))
    );
    // The signature part parses to the end.
    let lig_at = f.sig_start + 32 + f.shape.sig.sumcheck_len();
    LigeroProof::<Fp256>::from_bytes(&f.shape.sig.ligero, &f.proof[lig_at..])
        .expect("sig Ligero parses to the end");
    assert_eq!(diff_mdoc(&f.shape, &f.proof, &f.proof), None);
}

#[test]
fn names_mac_hash_sumcheck_sig_ligero_and_merkle_digest() {
    longfellow_testvectors::require!();
    let f = fixture();
    let e = 16;
    let before: usize = f.hash_logw[..3].iter().map(|l| (4 * l + 2) * e).sum();
    let sig_lig = f.sig_start + 32 + f.shape.sig.sumcheck_len();
    let sig_count = {
        let p = LigeroProof::<Fp256>::from_bytes(&f.shape.sig.ligero, &f.proof[sig_lig..])
            .expect("parses");
        p.merkle_path.len()
    };
    let cases = [
        (3 * 16 + 2, None, Component::Mac(3)),
        (
            96 + 32 + before + (5 * 4 + 1) * e,
            Some("hash circuit"),
            Component::SumcheckPoly {
                layer: 3,
                round: 5,
                hand: 1,
                point: 0,
            },
        ),
        (f.sig_start + 4, Some("sig circuit"), Component::Root),
        (
            sig_lig + (f.shape.sig.ligero.block + 17) * 32 + 31,
            Some("sig circuit"),
            Component::YDot(17),
        ),
        (
            f.proof.len() - (sig_count - 12) * 32,
            Some("sig circuit"),
            Component::Digest(12),
        ),
    ];
    for (at, part, component) in cases {
        let d = diff_mdoc(&f.shape, &f.proof, &corrupt(&f.proof, at)).expect("differs");
        assert_eq!((d.part, &d.component), (part, &component), "byte {at}: {d}");
        assert_eq!(d.offset, at);
    }
    let d = diff_mdoc(
        &f.shape,
        &f.proof,
        &corrupt(&f.proof, 96 + 32 + before + (5 * 4 + 1) * e),
    )
    .expect("differs");
    assert!(
        d.to_string()
            .starts_with("hash circuit: sumcheck layer 3, round 5, hand 1"),
        "{d}"
    );
}
