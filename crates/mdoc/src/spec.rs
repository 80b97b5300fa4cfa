//! The ZkSpec table: which circuit pairs exist and how they are proven.
//!
//! A ZkSpec names a circuit pair by its circuit hash (SHA-256 of the
//! signature circuit ID followed by the hash circuit ID) and fixes the
//! Ligero parameters of both circuits. Prover and verifier must agree on
//! every number here, so the table holds Google's published values
//! (`longfellow-libzk-v1`, versions 5–7) and nothing else.

use longfellow_circuit::{catalog::ZKSPECS, CircuitPair};
use longfellow_zk::ZkParams;

/// The proof system every ZkSpec here belongs to.
pub const SYSTEM: &str = "longfellow-libzk-v1";

/// Bits of every MSO or preimage offset the hash circuit takes.
pub const INDEX_BITS: usize = 12;

/// Public inputs of the signature circuit: 1, issuer key x and y, the
/// device-authentication hash, 6×128 MAC bits, 128 bits of a_v.
pub const SIG_PUBLIC_LEN: usize = 1 + 2 + 1 + 6 * 128 + 128;

/// Field elements of one in-circuit ECDSA verification witness: R's
/// coordinates and helpers (5), eight table points, 256 scalar digits and
/// three coordinates per doubling/adding step.
pub const ECDSA_WITNESS_LEN: usize = 5 + 8 + 256 + 255 * 3;

/// Private inputs of the signature circuit: e, device key x and y, two
/// ECDSA witnesses, and three MAC witnesses of 256 two-bit wires each.
pub const SIG_PRIVATE_LEN: usize = 3 + 2 * ECDSA_WITNESS_LEN + 3 * 256;

/// The input layout of a circuit set: its version and attribute count.
/// Versions 5 and 6 share one layout; 7 adds the salted-item fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ZkSpecInfo {
    /// ZkSpec version.
    pub version: u32,
    /// Number of disclosed attributes.
    pub num_attributes: usize,
}

impl ZkSpecInfo {
    /// Whether this layout exists (versions 5–7, 1–4 attributes).
    pub fn is_supported(&self) -> bool {
        (5..=7).contains(&self.version) && (1..=4).contains(&self.num_attributes)
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

    /// Private inputs of the hash circuit: e and the device key as bits,
    /// the padded MSO Sig_structure and its SHA-256 blocks, four MSO
    /// offsets, per attribute its item hash and offsets, six MAC keys.
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

/// One row of the ZkSpec table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ZkSpec {
    /// Version and attribute count.
    pub info: ZkSpecInfo,
    /// SHA-256(signature circuit ID ‖ hash circuit ID).
    pub circuit_hash: [u8; 32],
    /// Encoded row length of the hash circuit's Ligero tableau.
    pub block_enc_hash: usize,
    /// Encoded row length of the signature circuit's Ligero tableau.
    pub block_enc_sig: usize,
}

/// Encoded row lengths (hash circuit for 1..=4 attributes; signature) per
/// version, as published with the circuits.
fn block_enc(version: u32, num_attributes: usize) -> Option<(usize, usize)> {
    let (hash, sig): ([usize; 4], usize) = match version {
        7 => ([4151, 4265, 4307, 4415], 4096),
        5 | 6 => ([4096, 4025, 4121, 4283], 2945),
        _ => return None,
    };
    let h = *hash.get(num_attributes.checked_sub(1)?)?;
    Some((h, sig))
}

fn parse_hash(hex: &str) -> Option<[u8; 32]> {
    let mut out = [0u8; 32];
    if hex.len() != 64 {
        return None;
    }
    for (o, pair) in out.iter_mut().zip(hex.as_bytes().chunks(2)) {
        let s = std::str::from_utf8(pair).ok()?;
        *o = u8::from_str_radix(s, 16).ok()?;
    }
    Some(out)
}

impl ZkSpec {
    /// Every ZkSpec of versions 5–7.
    pub fn all() -> impl Iterator<Item = ZkSpec> {
        ZKSPECS.iter().filter_map(|id| {
            let num_attributes = usize::try_from(id.attributes).ok()?;
            let (block_enc_hash, block_enc_sig) = block_enc(id.version, num_attributes)?;
            Some(ZkSpec {
                info: ZkSpecInfo {
                    version: id.version,
                    num_attributes,
                },
                circuit_hash: parse_hash(id.hash_hex)?,
                block_enc_hash,
                block_enc_sig,
            })
        })
    }

    /// The ZkSpec whose circuit hash is `circuit_hash`.
    pub fn find(circuit_hash: &[u8; 32]) -> Option<ZkSpec> {
        Self::all().find(|s| &s.circuit_hash == circuit_hash)
    }

    /// The ZkSpec of a loaded pair (its computed or catalogued circuit hash).
    pub fn for_pair(pair: &CircuitPair) -> Option<ZkSpec> {
        Self::find(&pair.zkspec_hash)
    }

    /// The ZkSpec of a loaded pair, checked against the input layout of both
    /// circuits: exactly what [`crate::Verifier::new`] checks before
    /// preparing the circuits, so a prover learns the spec (and meets the
    /// verifier's preconditions) without building a verifier.
    pub fn checked_for_pair(pair: &CircuitPair) -> Result<ZkSpec, crate::VerifyError> {
        crate::verifier::spec_of(pair)
    }

    /// The ZkSpec for a version and attribute count.
    pub fn for_version(version: u32, num_attributes: usize) -> Option<ZkSpec> {
        Self::all().find(|s| s.info.version == version && s.info.num_attributes == num_attributes)
    }

    /// Inverse code rate of both circuits.
    pub fn rateinv(&self) -> usize {
        if self.info.version >= 7 {
            7
        } else {
            4
        }
    }

    /// Opened columns of both circuits.
    pub fn nreq(&self) -> usize {
        if self.info.version >= 7 {
            132
        } else {
            128
        }
    }

    /// Ligero parameters of the hash circuit.
    pub fn hash_params(&self) -> ZkParams {
        ZkParams {
            rateinv: self.rateinv(),
            nreq: self.nreq(),
            block_enc: self.block_enc_hash,
        }
    }

    /// Ligero parameters of the signature circuit.
    pub fn sig_params(&self) -> ZkParams {
        ZkParams {
            rateinv: self.rateinv(),
            nreq: self.nreq(),
            block_enc: self.block_enc_sig,
        }
    }

    /// Lower-case hex of the circuit hash (the published file name).
    pub fn circuit_hash_hex(&self) -> String {
        self.circuit_hash
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_has_twelve_specs_with_distinct_hashes() {
        let all: Vec<_> = ZkSpec::all().collect();
        assert_eq!(all.len(), 12);
        for (i, a) in all.iter().enumerate() {
            assert!(a.info.is_supported());
            for b in &all[i + 1..] {
                assert_ne!(a.circuit_hash, b.circuit_hash);
            }
        }
        let v7 = ZkSpec::for_version(7, 1).expect("v7/1");
        assert_eq!(&v7.circuit_hash_hex()[..6], "8d0792");
        assert_eq!((v7.block_enc_hash, v7.block_enc_sig), (4151, 4096));
        assert_eq!((v7.rateinv(), v7.nreq()), (7, 132));
        let v5 = ZkSpec::for_version(5, 4).expect("v5/4");
        assert_eq!((v5.block_enc_hash, v5.block_enc_sig), (4283, 2945));
        assert_eq!((v5.rateinv(), v5.nreq()), (4, 128));
        assert_eq!(ZkSpec::find(&[0; 32]), None);
    }
}
