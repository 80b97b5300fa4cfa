//! Which catalogued circuit a proof was made for, from its shape alone.
//!
//! An mdoc proof is `MACs ‖ (root ‖ sumcheck ‖ Ligero) for the hash circuit
//! ‖ the same for the signature circuit`. The sumcheck part has a fixed
//! length per circuit, and the Ligero part decodes only with the circuit's
//! Ligero geometry (rows, run lengths, Merkle openings), so a proof decodes
//! exactly — no byte short, none left over — under the shape of the circuit
//! it was made for and, in practice, under no other. When a proof does not
//! decode for the verifier's circuit, trying the published circuits' shapes
//! turns "invalid run length in opened columns" into "made for v7 with one
//! attribute" without loading any other circuit.
//!
//! The table is checked against the circuits themselves by
//! `tests/proof_shapes.rs` (with the reference vectors).

use longfellow_field::{Field, Fp256, Gf2_128};
use longfellow_ligero::{LigeroParams, LigeroProof};

use crate::proof::MAC_BYTES;

/// The fixed geometry of one circuit's proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PartShape {
    /// Bytes of the sumcheck proof (after the 32-byte commitment root).
    pub sumcheck_bytes: usize,
    /// Ligero: committed witnesses.
    pub nw: usize,
    /// Ligero: quadratic constraints.
    pub nq: usize,
    /// Ligero: inverse rate.
    pub rateinv: usize,
    /// Ligero: opened columns.
    pub nreq: usize,
    /// Ligero: encoded row length.
    pub block_enc: usize,
}

/// The proof geometry of one catalogued circuit pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProofShape {
    /// ZkSpec version.
    pub version: u32,
    /// Attributes the circuit discloses.
    pub attributes: usize,
    /// The hash circuit's part.
    pub hash: PartShape,
    /// The signature circuit's part.
    pub sig: PartShape,
}

impl ProofShape {
    /// Whether `proof` decodes exactly under this shape.
    pub fn fits(&self, proof: &[u8]) -> bool {
        let Some(mut rest) = proof.get(MAC_BYTES..) else {
            return false;
        };
        fits_part::<Gf2_128>(&self.hash, &mut rest)
            && fits_part::<Fp256>(&self.sig, &mut rest)
            && rest.is_empty()
    }
}

fn fits_part<F: Field>(shape: &PartShape, rest: &mut &[u8]) -> bool {
    let Some(after) = rest.get(32 + shape.sumcheck_bytes..) else {
        return false;
    };
    *rest = after;
    let Ok(params) = LigeroParams::new(
        shape.nw,
        shape.nq,
        shape.rateinv,
        shape.nreq,
        shape.block_enc,
    ) else {
        return false;
    };
    LigeroProof::<F>::read(&params, rest).is_ok()
}

/// The catalogued circuits (with published files) whose shape `proof`
/// decodes under exactly, as (version, attributes).
pub fn circuits_fitting(proof: &[u8]) -> Vec<(u32, usize)> {
    PROOF_SHAPES
        .iter()
        .filter(|s| s.fits(proof))
        .map(|s| (s.version, s.attributes))
        .collect()
}

const fn part(
    sumcheck_bytes: usize,
    nw: usize,
    nq: usize,
    rateinv: usize,
    nreq: usize,
    block_enc: usize,
) -> PartShape {
    PartShape {
        sumcheck_bytes,
        nw,
        nq,
        rateinv,
        nreq,
        block_enc,
    }
}

/// Proof shapes of the published circuits (versions 6 and 7, one to four
/// attributes), measured from the circuit files: `part(sumcheck bytes, nw,
/// nq, rateinv, nreq, block_enc)`. The signature circuit is the same in
/// every pair of a version; the hash circuit grows with the attributes.
pub const PROOF_SHAPES: &[ProofShape] = &[
    ProofShape {
        version: 7,
        attributes: 1,
        hash: part(18656, 85349, 17, 7, 132, 4151),
        sig: part(36032, 3986, 21, 7, 132, 4096),
    },
    ProofShape {
        version: 7,
        attributes: 2,
        hash: part(18784, 89477, 17, 7, 132, 4265),
        sig: part(36032, 3986, 21, 7, 132, 4096),
    },
    ProofShape {
        version: 7,
        attributes: 3,
        hash: part(18912, 93605, 17, 7, 132, 4307),
        sig: part(36032, 3986, 21, 7, 132, 4096),
    },
    ProofShape {
        version: 7,
        attributes: 4,
        hash: part(18912, 97725, 17, 7, 132, 4415),
        sig: part(36032, 3986, 21, 7, 132, 4096),
    },
    ProofShape {
        version: 6,
        attributes: 1,
        hash: part(16800, 75219, 15, 4, 128, 4096),
        sig: part(36032, 3986, 21, 4, 128, 2945),
    },
    ProofShape {
        version: 6,
        attributes: 2,
        hash: part(16864, 79251, 15, 4, 128, 4025),
        sig: part(36032, 3986, 21, 4, 128, 2945),
    },
    ProofShape {
        version: 6,
        attributes: 3,
        hash: part(16928, 83283, 15, 4, 128, 4121),
        sig: part(36032, 3986, 21, 4, 128, 2945),
    },
    ProofShape {
        version: 6,
        attributes: 4,
        hash: part(16928, 87311, 15, 4, 128, 4283),
        sig: part(36032, 3986, 21, 4, 128, 2945),
    },
];
