//! The serialized one-circuit proof.

use longfellow_circuit::Circuit;
use longfellow_field::Field;
use longfellow_ligero::{LigeroCommitment, LigeroParams, LigeroProof};
use longfellow_sumcheck::SumcheckProof;

use crate::error::ZkError;

/// `root ‖ sumcheck ‖ Ligero`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZkProof<F> {
    /// Ligero commitment to private inputs and pad.
    pub commitment: LigeroCommitment,
    /// Padded sumcheck proof.
    pub sumcheck: SumcheckProof<F>,
    /// Ligero proof of the induced constraints.
    pub ligero: LigeroProof<F>,
}

impl<F: Field> ZkProof<F> {
    /// Appends the encoding.
    pub fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.commitment.root);
        self.sumcheck.write(out);
        self.ligero.write(out);
    }

    /// The encoding as a new vector.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.write(&mut out);
        out
    }

    /// Decodes a proof from the front of `bytes` (untrusted), advancing it.
    pub fn read(
        circuit: &Circuit<F>,
        params: &LigeroParams,
        bytes: &mut &[u8],
    ) -> Result<Self, ZkError> {
        if bytes.len() < 32 {
            return Err(ZkError::Truncated);
        }
        let (root, rest) = bytes.split_at(32);
        let mut commitment = LigeroCommitment { root: [0u8; 32] };
        commitment.root.copy_from_slice(root);
        *bytes = rest;
        let sumcheck = SumcheckProof::read(circuit, bytes)?;
        let ligero = LigeroProof::read(params, bytes)?;
        Ok(Self {
            commitment,
            sumcheck,
            ligero,
        })
    }

    /// Decodes a proof that must span all of `bytes`.
    pub fn from_bytes(
        circuit: &Circuit<F>,
        params: &LigeroParams,
        mut bytes: &[u8],
    ) -> Result<Self, ZkError> {
        let p = Self::read(circuit, params, &mut bytes)?;
        if bytes.is_empty() {
            Ok(p)
        } else {
            Err(ZkError::TrailingBytes(bytes.len()))
        }
    }
}
