//! The mdoc proof: `6 MAC tags (16 bytes each) ‖ hash-circuit proof ‖
//! signature-circuit proof`.

use longfellow_circuit::CircuitPair;
use longfellow_field::{Fp256, Gf2_128};
use longfellow_ligero::LigeroParams;
use longfellow_zk::{ZkError, ZkProof};

/// Bytes of the MAC tags in front of the two circuit proofs.
pub const MAC_BYTES: usize = 6 * 16;

/// Which of the two circuits a message is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CircuitKind {
    /// The hash circuit (GF(2^128)): MSO digest, attributes, validity.
    Hash,
    /// The signature circuit (P-256 base field): issuer and device ECDSA.
    Signature,
}

impl std::fmt::Display for CircuitKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Hash => "hash circuit",
            Self::Signature => "signature circuit",
        })
    }
}

/// Why proof bytes could not be decoded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ProofFormatError {
    /// Fewer than 96 bytes: the MAC tags are incomplete.
    #[error("proof of {0} bytes is shorter than its 96 bytes of MAC tags")]
    TruncatedMacs(usize),
    /// One circuit's proof does not decode with that circuit's geometry.
    #[error("{circuit} proof: {source}")]
    Circuit {
        /// Which proof.
        circuit: CircuitKind,
        /// Why.
        source: ZkError,
    },
    /// Bytes remain after both proofs.
    #[error("{0} trailing bytes after the signature-circuit proof")]
    TrailingBytes(usize),
}

/// A decoded mdoc proof.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MdocProof {
    /// The six MAC tags over (e, device x, device y), low half then high.
    pub macs: [u128; 6],
    /// Proof of the hash circuit.
    pub hash: ZkProof<Gf2_128>,
    /// Proof of the signature circuit.
    pub sig: ZkProof<Fp256>,
}

impl MdocProof {
    /// The wire encoding.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for m in &self.macs {
            out.extend_from_slice(&m.to_le_bytes());
        }
        self.hash.write(&mut out);
        self.sig.write(&mut out);
        out
    }

    /// Decodes untrusted `bytes`, which must be exactly one proof for the
    /// circuits of `pair` with Ligero parameters `hash_params` and
    /// `sig_params`. Every length is bounded by the circuits' geometry
    /// before anything is allocated.
    pub fn read(
        pair: &CircuitPair,
        hash_params: &LigeroParams,
        sig_params: &LigeroParams,
        bytes: &[u8],
    ) -> Result<Self, ProofFormatError> {
        let (mac_bytes, mut rest) = bytes
            .split_at_checked(MAC_BYTES)
            .ok_or(ProofFormatError::TruncatedMacs(bytes.len()))?;
        let mut macs = [0u128; 6];
        for (m, chunk) in macs.iter_mut().zip(mac_bytes.chunks_exact(16)) {
            let mut b = [0u8; 16];
            b.copy_from_slice(chunk);
            *m = u128::from_le_bytes(b);
        }
        let hash = ZkProof::read(&pair.hash, hash_params, &mut rest).map_err(|source| {
            ProofFormatError::Circuit {
                circuit: CircuitKind::Hash,
                source,
            }
        })?;
        let sig = ZkProof::read(&pair.sig, sig_params, &mut rest).map_err(|source| {
            ProofFormatError::Circuit {
                circuit: CircuitKind::Signature,
                source,
            }
        })?;
        if !rest.is_empty() {
            return Err(ProofFormatError::TrailingBytes(rest.len()));
        }
        Ok(Self { macs, hash, sig })
    }
}
