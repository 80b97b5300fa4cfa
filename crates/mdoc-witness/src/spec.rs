//! Which circuit set a witness is for.

use crate::error::MdocError;

/// The mdoc circuit set, identified as in a ZkSpec: its version and the
/// number of attributes it discloses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ZkSpecInfo {
    pub version: u32,
    pub num_attributes: usize,
}

/// Bits of every MSO or preimage offset the hash circuit takes.
pub const INDEX_BITS: usize = 12;

impl ZkSpecInfo {
    /// Versions 5 and 6 share one input layout; 7 adds salted-item fields.
    pub fn check(&self) -> Result<(), MdocError> {
        if (5..=7).contains(&self.version) && (1..=4).contains(&self.num_attributes) {
            Ok(())
        } else {
            Err(MdocError::UnsupportedSpec {
                version: self.version,
                num_attributes: self.num_attributes,
            })
        }
    }

    /// Whether the hash circuit uses the version-7 attribute layout.
    pub fn is_v7(&self) -> bool {
        self.version >= 7
    }

    /// SHA-256 blocks the hash circuit holds for the MSO's Sig_structure.
    pub fn max_mso_blocks(&self) -> usize {
        if self.version <= 6 {
            35
        } else {
            40
        }
    }

    /// Public inputs of the hash circuit: 1, attributes, now, 6 MACs, a_v.
    pub fn hash_public_len(&self) -> usize {
        let per_attribute = if self.is_v7() { 784 } else { 776 };
        1 + self.num_attributes * per_attribute + 160 + 6 + 1
    }

    /// Private inputs of the hash circuit.
    pub fn hash_private_len(&self) -> usize {
        let blocks = self.max_mso_blocks();
        let per_attribute = if self.is_v7() { 4120 } else { 4028 };
        3 * 256
            + 8
            + (blocks * 64 - 18) * 8
            + blocks * 1472
            + 4 * INDEX_BITS
            + self.num_attributes * per_attribute
            + 6
    }
}

/// Public inputs of the signature circuit: 1, issuer key, device-auth hash,
/// 6×128 MAC bits, 128 a_v bits.
pub const SIG_PUBLIC_LEN: usize = 1 + 2 + 1 + 6 * 128 + 128;

/// Private inputs of the signature circuit: e, device key, two ECDSA
/// witnesses, three MAC witnesses.
pub const SIG_PRIVATE_LEN: usize = 3 + 2 * crate::ecdsa::ECDSA_WITNESS_LEN + 3 * 256;
