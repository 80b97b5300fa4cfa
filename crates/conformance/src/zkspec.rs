//! Ligero parameters of Google's mdoc ZkSpecs (system `longfellow-libzk-v1`),
//! needed to lay out the two proofs inside an mdoc proof. Protocol
//! constants from the ZkSpec table (map §3).

use longfellow_zk::ZkParams;

/// Parameters of one ZkSpec.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpecParams {
    /// Version.
    pub version: u32,
    /// Number of attributes.
    pub attributes: u32,
    /// Hash circuit (GF(2^128)) parameters.
    pub hash: ZkParams,
    /// Signature circuit (P-256) parameters.
    pub sig: ZkParams,
}

const fn p(rateinv: usize, nreq: usize, block_enc: usize) -> ZkParams {
    ZkParams {
        rateinv,
        nreq,
        block_enc,
    }
}

/// Versions 6 and 7, 1–4 attributes (version 5 shares version 6's sizes).
const TABLE: [(u32, u32, usize, usize, usize, usize); 12] = [
    // version, attributes, rateinv, nreq, block_enc hash, block_enc sig
    (7, 1, 7, 132, 4151, 4096),
    (7, 2, 7, 132, 4265, 4096),
    (7, 3, 7, 132, 4307, 4096),
    (7, 4, 7, 132, 4415, 4096),
    (6, 1, 4, 128, 4096, 2945),
    (6, 2, 4, 128, 4025, 2945),
    (6, 3, 4, 128, 4121, 2945),
    (6, 4, 4, 128, 4283, 2945),
    (5, 1, 4, 128, 4096, 2945),
    (5, 2, 4, 128, 4025, 2945),
    (5, 3, 4, 128, 4121, 2945),
    (5, 4, 4, 128, 4283, 2945),
];

/// The parameters of ZkSpec `version` with `attributes` attributes.
pub fn params(version: u32, attributes: u32) -> Option<SpecParams> {
    TABLE
        .iter()
        .find(|t| t.0 == version && t.1 == attributes)
        .map(|&(version, attributes, rateinv, nreq, bh, bs)| SpecParams {
            version,
            attributes,
            hash: p(rateinv, nreq, bh),
            sig: p(rateinv, nreq, bs),
        })
}

/// The parameters for a ZkSpec circuit hash (hex), via the circuit catalog.
pub fn params_for_hash(hash_hex: &str) -> Option<SpecParams> {
    longfellow_circuit::catalog::ZKSPECS
        .iter()
        .find(|s| s.hash_hex == hash_hex)
        .and_then(|s| params(s.version, s.attributes))
}
