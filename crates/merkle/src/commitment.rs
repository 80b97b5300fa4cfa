//! Nonce-salted commitment to columns: leaf `i` = SHA-256(nonce_i ‖ data_i).

use rand_core::RngCore;
use sha2::{Digest as _, Sha256};

use crate::tree::{verify, MerkleTree};
use crate::{Digest, MerkleError, Nonce};

/// A hasher already fed with `nonce`; feed it the leaf data and finalize to
/// get the leaf digest.
pub fn leaf_hasher(nonce: &Nonce) -> Sha256 {
    let mut h = Sha256::new();
    h.update(nonce);
    h
}

/// SHA-256(nonce ‖ data): the digest of a salted leaf.
pub fn hash_leaf_with_nonce(nonce: &Nonce, data: &[u8]) -> Digest {
    let mut h = leaf_hasher(nonce);
    h.update(data);
    h.finalize().into()
}

/// The prover's side of a column commitment: the tree and every leaf nonce.
#[derive(Clone, Debug)]
pub struct Commitment {
    tree: MerkleTree,
    nonces: Vec<Nonce>,
}

/// What the prover reveals for a set of opened leaves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Nonces of the opened leaves, in request order.
    pub nonces: Vec<Nonce>,
    /// Sibling digests, in reference order.
    pub digests: Vec<Digest>,
}

impl Commitment {
    /// Commits to `n_leaves` leaves. All nonces are drawn first, leaf after
    /// leaf, with one 32-byte `fill_bytes` request each (the reference
    /// consumption order); then leaf `i` is SHA-256(nonce_i ‖ what
    /// `leaf_data(i, hasher)` feeds), hashed in parallel with the `parallel`
    /// feature.
    pub fn commit<R, G>(n_leaves: usize, rng: &mut R, leaf_data: G) -> Result<Self, MerkleError>
    where
        R: RngCore + ?Sized,
        G: Fn(usize, &mut Sha256) + Sync,
    {
        let mut nonces = vec![[0u8; 32]; n_leaves];
        for nonce in &mut nonces {
            rng.fill_bytes(nonce);
        }
        let tree = MerkleTree::from_leaf_fn(n_leaves, |i, h| {
            h.update(nonces[i]);
            leaf_data(i, h);
        })?;
        Ok(Self { tree, nonces })
    }

    /// The committed root.
    pub fn root(&self) -> Digest {
        self.tree.root()
    }

    /// The underlying tree.
    pub fn tree(&self) -> &MerkleTree {
        &self.tree
    }

    /// Every leaf's nonce, in leaf order.
    pub fn nonces(&self) -> &[Nonce] {
        &self.nonces
    }

    /// Opens the leaves at `indices` (distinct, in range).
    pub fn open(&self, indices: &[usize]) -> Result<Opening, MerkleError> {
        let digests = self.tree.try_open(indices)?;
        let nonces = indices.iter().map(|&i| self.nonces[i]).collect();
        Ok(Opening { nonces, digests })
    }
}

/// Checks an opening of a commitment with root `root` over `n_leaves` leaves:
/// leaf `indices[q]` is rebuilt as SHA-256(`nonces[q]` ‖ what
/// `leaf_data(q, indices[q], hasher)` feeds), then the batch proof is checked
/// with [`verify`].
pub fn verify_commitment<G>(
    root: &Digest,
    n_leaves: usize,
    indices: &[usize],
    nonces: &[Nonce],
    proof: &[Digest],
    mut leaf_data: G,
) -> Result<(), MerkleError>
where
    G: FnMut(usize, usize, &mut Sha256),
{
    if nonces.len() != indices.len() {
        return Err(MerkleError::LengthMismatch {
            indices: indices.len(),
            values: nonces.len(),
        });
    }
    let leaves: Vec<Digest> = indices
        .iter()
        .zip(nonces)
        .enumerate()
        .map(|(q, (&index, nonce))| {
            let mut h = leaf_hasher(nonce);
            leaf_data(q, index, &mut h);
            h.finalize().into()
        })
        .collect();
    verify(root, n_leaves, indices, &leaves, proof)
}
