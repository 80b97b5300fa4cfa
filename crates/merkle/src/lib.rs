//! Merkle tree and column commitment of Longfellow's Ligero layer.
//!
//! The tree is a heap of `2n` SHA-256 digests for any `n ≥ 1` (not only
//! powers of two): leaves at positions `n..2n`, node `i` =
//! SHA-256(node `2i` ‖ node `2i+1`) for `i = n−1 … 1`, root at 1. No domain
//! separation between leaves and inner nodes is needed because `n` is fixed by
//! the protocol parameters, so a leaf position can never be confused with an
//! inner one.
//!
//! A batch opening of a set of leaves lists, for each inner node on some root
//! path (from `n−1` down to 1), the digest of its child that is *not* on a
//! path, if any. The verifier rebuilds the same marking, so the proof carries
//! no positions.
//!
//! The [`Commitment`] salts each leaf with a 32-byte nonce drawn from the
//! prover's generator, leaf after leaf, so that opened columns reveal nothing
//! about unopened ones.
#![forbid(unsafe_code)]

mod commitment;
mod error;
mod tree;

pub use commitment::{hash_leaf_with_nonce, leaf_hasher, verify_commitment, Commitment, Opening};
pub use error::MerkleError;
pub use tree::{check_digest_count, max_path_len, proof_len, verify, MerkleTree};

/// A SHA-256 digest: a leaf, an inner node or the root.
pub type Digest = [u8; 32];

/// A per-leaf salt.
pub type Nonce = [u8; 32];

/// Re-exported so callers can stream leaf data into [`leaf_hasher`].
pub use sha2::{Digest as _, Sha256};
