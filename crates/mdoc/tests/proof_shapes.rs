//! The compiled-in proof shapes (`proof_shape::PROOF_SHAPES`) are the
//! circuits' own: each is measured here from the circuit files and
//! Google's stored proofs, and each stored proof fits its own circuit's
//! shape and no other.

mod common;

use longfellow_circuit::load_pair;
use longfellow_mdoc::proof_shape::{circuits_fitting, PartShape, ProofShape, PROOF_SHAPES};
use longfellow_mdoc::{Verifier, MAC_BYTES};

/// Measures one part: the sumcheck bytes are those between the root and
/// the Ligero proof, which is decoded with the circuit's own parameters.
fn measure<F: longfellow_field::Field>(
    circuit: &longfellow_circuit::Circuit<F>,
    params: &longfellow_ligero::LigeroParams,
    rest: &mut &[u8],
) -> PartShape {
    let start = rest.len();
    let proof = longfellow_zk::ZkProof::read(circuit, params, rest).expect("stored proof decodes");
    let mut ligero = Vec::new();
    proof.ligero.write(&mut ligero);
    let consumed = start - rest.len();
    PartShape {
        sumcheck_bytes: consumed - 32 - ligero.len(),
        nw: params.nw,
        nq: params.nq,
        rateinv: params.rateinv,
        nreq: params.nreq,
        block_enc: params.block_enc,
    }
}

#[test]
fn compiled_shapes_are_the_circuits_and_identify_each_stored_proof() {
    longfellow_testvectors::require!();
    let mut measured = Vec::new();
    for (version, attributes, hash) in common::PROOFS {
        let pair = load_pair(&longfellow_testvectors::google::circuit_file(hash, ".lfa2"))
            .expect("circuit");
        let v = Verifier::new(&pair).expect("verifier");
        let proof = longfellow_testvectors::google::stored_proof(hash);
        let mut rest = &proof[MAC_BYTES..];
        let hash_part = measure(&pair.hash, v.hash_ligero_params(), &mut rest);
        let sig_part = measure(&pair.sig, v.sig_ligero_params(), &mut rest);
        assert!(rest.is_empty());
        let shape = ProofShape {
            version,
            attributes,
            hash: hash_part,
            sig: sig_part,
        };
        measured.push((shape, proof));
    }
    let table: Vec<ProofShape> = measured.iter().map(|(s, _)| *s).collect();
    assert_eq!(
        PROOF_SHAPES,
        &table[..],
        "PROOF_SHAPES differs from the circuits; measured: {table:#?}"
    );
    for (shape, proof) in &measured {
        assert_eq!(
            circuits_fitting(proof),
            vec![(shape.version, shape.attributes)],
            "the stored v{}/{} proof",
            shape.version,
            shape.attributes
        );
    }
}
