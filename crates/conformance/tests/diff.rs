//! The structural diff names the component that holds a corrupted byte of
//! a real proof. Expected names are computed here from the documented wire
//! layout (map §1, "Serialized ZK proof"), independently of the walker.

use longfellow_circuit::{load_circuit, Circuit};
use longfellow_conformance::diff::{diff_zk, Component, ZkShape};
use longfellow_field::{Field, Gf2_128};
use longfellow_ligero::LigeroProof;
use longfellow_zk::ZkParams;

const PARAMS: ZkParams = ZkParams {
    rateinv: 3,
    nreq: 16,
    block_enc: 256,
};
const E: usize = 16; // GF(2^128) element bytes

struct Fixture {
    circuit: Circuit<Gf2_128>,
    shape: ZkShape,
    proof: Vec<u8>,
}

fn fixture() -> Fixture {
    let circuit: Circuit<Gf2_128> = load_circuit(&longfellow_testvectors::read(
        "google/spec/sha256_circuit.lfc2",
    ))
    .expect("circuit");
    let proof = longfellow_testvectors::read("google/spec/sha256_proof.bin");
    let shape = ZkShape::of(&circuit, PARAMS).expect("shape");
    Fixture {
        circuit,
        shape,
        proof,
    }
}

fn logw(c: &Circuit<Gf2_128>) -> Vec<usize> {
    c.layers().iter().map(|l| l.logw() as usize).collect()
}

/// Byte offset of the sumcheck part's end, from the layout.
fn sumcheck_end(c: &Circuit<Gf2_128>) -> usize {
    32 + logw(c).iter().map(|l| (4 * l + 2) * E).sum::<usize>()
}

fn corrupt(bytes: &[u8], at: usize) -> Vec<u8> {
    let mut v = bytes.to_vec();
    v[at] ^= 0x40;
    v
}

#[test]
fn identical_proofs_have_no_divergence() {
    longfellow_testvectors::require!();
    let f = fixture();
    assert_eq!(diff_zk::<Gf2_128>(&f.shape, &f.proof, &f.proof), None);
}

#[test]
fn names_the_sumcheck_layer_round_and_hand() {
    longfellow_testvectors::require!();
    let f = fixture();
    let lw = logw(&f.circuit);
    let layer = 3;
    assert!(lw[layer] > 5, "layer 3 has {} rounds", lw[layer]);
    // Per round: hand0.p0, hand1.p0, hand0.p2, hand1.p2.
    let before: usize = lw[..layer].iter().map(|l| (4 * l + 2) * E).sum();
    let at = 32 + before + (5 * 4 + 1) * E + 7;
    let d = diff_zk::<Gf2_128>(&f.shape, &f.proof, &corrupt(&f.proof, at)).expect("differs");
    assert_eq!(
        d.component,
        Component::SumcheckPoly {
            layer,
            round: 5,
            hand: 1,
            point: 0
        }
    );
    assert_eq!(d.offset, at);
    assert!(d.parsed);
    assert_eq!(
        d.to_string(),
        format!("sumcheck layer 3, round 5, hand 1 (p0) (byte {at})")
    );
    // Hand 0's second value comes third in wire order.
    let at = 32 + before + (5 * 4 + 2) * E;
    let d = diff_zk::<Gf2_128>(&f.shape, &f.proof, &corrupt(&f.proof, at)).expect("differs");
    assert_eq!(
        d.component,
        Component::SumcheckPoly {
            layer,
            round: 5,
            hand: 0,
            point: 2
        }
    );
    // The claims close the layer.
    let at = 32 + before + (4 * lw[layer] + 1) * E;
    let d = diff_zk::<Gf2_128>(&f.shape, &f.proof, &corrupt(&f.proof, at)).expect("differs");
    assert_eq!(d.component, Component::SumcheckClaim { layer, hand: 1 });
}

#[test]
fn names_ligero_responses_nonces_and_root() {
    longfellow_testvectors::require!();
    let f = fixture();
    let block = f.shape.ligero.block;
    let dblock = 2 * block - 1;
    let start = sumcheck_end(&f.circuit);
    let cases = [
        (0, Component::Root),
        (start + (block + 17) * E, Component::YDot(17)),
        (start + 3 * E + 1, Component::YLdt(3)),
        (
            start + (block + dblock + f.shape.ligero.r + 2) * E,
            Component::YQuad2(2),
        ),
        (
            start + (block + dblock + f.shape.ligero.r + (dblock - block)) * E + 5 * 32,
            Component::Nonce(5),
        ),
    ];
    for (at, want) in cases {
        let d = diff_zk::<Gf2_128>(&f.shape, &f.proof, &corrupt(&f.proof, at)).expect("differs");
        assert_eq!(d.component, want, "byte {at}");
    }
}

#[test]
fn names_the_merkle_digest() {
    longfellow_testvectors::require!();
    let f = fixture();
    let lig =
        LigeroProof::<Gf2_128>::from_bytes(&f.shape.ligero, &f.proof[sumcheck_end(&f.circuit)..])
            .expect("stored proof parses");
    let count = lig.merkle_path.len();
    assert!(count > 12);
    // Digests are the last count·32 bytes, preceded by the u32 count.
    let at = f.proof.len() - (count - 12) * 32 + 9;
    let d = diff_zk::<Gf2_128>(&f.shape, &f.proof, &corrupt(&f.proof, at)).expect("differs");
    assert_eq!(d.component, Component::Digest(12));
    assert_eq!(d.to_string(), format!("Merkle digest 12 (byte {at})"));
    let at = f.proof.len() - count * 32 - 4;
    let d = diff_zk::<Gf2_128>(&f.shape, &f.proof, &corrupt(&f.proof, at)).expect("differs");
    assert_eq!(d.component, Component::DigestCount);
}

#[test]
fn a_value_leaving_the_subfield_is_named_not_its_run_prefix() {
    longfellow_testvectors::require!();
    let f = fixture();
    let start = sumcheck_end(&f.circuit);
    let mut lig =
        LigeroProof::<Gf2_128>::from_bytes(&f.shape.ligero, &f.proof[start..]).expect("parses");
    let i = lig
        .columns
        .iter()
        .position(|e| e.is_in_subfield())
        .expect("some opened value is in the subfield");
    // x^127 is outside GF(2^16).
    let mut top = [0u8; 16];
    top[15] = 0x80;
    lig.columns[i] = Gf2_128::from_bytes(&top).expect("element");
    let mut actual = f.proof[..start].to_vec();
    lig.write(&mut actual);
    let d = diff_zk::<Gf2_128>(&f.shape, &f.proof, &actual).expect("differs");
    let nreq = f.shape.ligero.nreq;
    assert_eq!(
        d.component,
        Component::Column {
            row: i / nreq,
            col: i % nreq
        }
    );
    assert!(d.parsed);
}

#[test]
fn length_differences_are_named() {
    longfellow_testvectors::require!();
    let f = fixture();
    let mut longer = f.proof.clone();
    longer.push(0);
    let d = diff_zk::<Gf2_128>(&f.shape, &f.proof, &longer).expect("differs");
    assert_eq!(d.component, Component::Trailing);
    assert_eq!(d.offset, f.proof.len());
    let shorter = &f.proof[..f.proof.len() - 40];
    let d = diff_zk::<Gf2_128>(&f.shape, &f.proof, shorter).expect("differs");
    assert_eq!(d.offset, f.proof.len() - 40);
    assert!(matches!(d.component, Component::Digest(_)));
    assert_eq!(d.lengths, (f.proof.len(), f.proof.len() - 40));
}

#[test]
fn unparseable_expected_bytes_fall_back_to_the_geometry() {
    longfellow_testvectors::require!();
    let f = fixture();
    let start = sumcheck_end(&f.circuit);
    let p = &f.shape.ligero;
    let runs_at = start + (p.block + 2 * p.block - 1 + p.r + (p.block - 1)) * E + p.nreq * 32;
    // A run length larger than all opened values: the expected side no
    // longer parses there.
    let mut expected = f.proof.clone();
    expected[runs_at..runs_at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    // A difference before the broken run is still named precisely...
    let at = start + 5 * E;
    let d = diff_zk::<Gf2_128>(&f.shape, &expected, &corrupt(&expected, at)).expect("differs");
    assert_eq!(d.component, Component::YLdt(5));
    assert!(!d.parsed);
    // ...one after it only by section.
    let at = expected.len() - 10;
    let d = diff_zk::<Gf2_128>(&f.shape, &expected, &corrupt(&expected, at)).expect("differs");
    assert!(matches!(d.component, Component::Section(_)), "{d}");
    assert!(!d.parsed);
    assert!(d.to_string().contains("not parsed further"), "{d}");
}

mod properties {
    use super::*;
    use longfellow_conformance::diff::first_difference;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Whatever the peer sends (edits, truncation, garbage) and whatever
        /// the expected side holds, the diff names something at the first
        /// differing byte and never panics.
        #[test]
        fn any_edit_is_located_at_the_first_differing_byte(
            edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..4),
            cut in any::<prop::sample::Index>(),
            truncate in any::<bool>(),
            garbage in proptest::collection::vec(any::<u8>(), 0..64),
            break_expected in any::<bool>(),
        ) {
    longfellow_testvectors::require!(Ok(()));
            let f = fixture();
            let mut expected = f.proof.clone();
            if break_expected {
                // Make the expected side unparseable somewhere.
                let i = cut.index(expected.len());
                expected[i] ^= 0xff;
            }
            let mut actual = expected.clone();
            for (i, b) in &edits {
                let i = i.index(actual.len());
                actual[i] = *b;
            }
            if truncate {
                actual.truncate(cut.index(actual.len()));
            }
            actual.extend_from_slice(&garbage);
            let d = diff_zk::<Gf2_128>(&f.shape, &expected, &actual);
            match first_difference(&expected, &actual) {
                None => prop_assert!(d.is_none()),
                Some(off) => {
                    let d = d.expect("a difference is reported");
                    prop_assert_eq!(d.lengths, (expected.len(), actual.len()));
                    prop_assert!(!d.to_string().is_empty());
                    prop_assert_eq!(d.offset, off);
                }
            }
        }
    }
}
